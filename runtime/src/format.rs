//! `format` assertions (`#[tool(formats = assert)]`). Each check allocates nothing.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// Whether `s` is of format `name`; unknown names never match (the compiler refuses them).
#[must_use]
pub fn format_matches(name: &str, s: &str) -> bool {
    match name {
        "date-time" => date_time(s),
        "date" => date(s),
        "time" => time(s),
        "duration" => duration(s),
        "email" => email(s),
        "ipv4" => Ipv4Addr::from_str(s).is_ok(),
        "ipv6" => Ipv6Addr::from_str(s).is_ok(),
        "uri" => uri(s, true),
        "uri-reference" => uri(s, false),
        "uuid" => uuid(s),
        "json-pointer" => json_pointer(s),
        "relative-json-pointer" => relative_json_pointer(s),
        _ => false,
    }
}

fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    b.iter().try_fold(0u32, |acc, d| acc.checked_mul(10)?.checked_add(u32::from(d - b'0')))
}

fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return false;
    }
    let (Some(y), Some(m), Some(d)) =
        (b.get(0..4).and_then(digits), b.get(5..7).and_then(digits), b.get(8..10).and_then(digits))
    else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b.get(2) != Some(&b':') || b.get(5) != Some(&b':') {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) =
        (b.get(0..2).and_then(digits), b.get(3..5).and_then(digits), b.get(6..8).and_then(digits))
    else {
        return false;
    };
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let (oh, om, sign): (u32, u32, i32) = match b.get(i..) {
        Some([b'Z' | b'z']) => (0, 0, 0),
        Some([sign @ (b'+' | b'-'), h1, h2, b':', m1, m2]) => {
            let (Some(oh), Some(om)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else { return false };
            (oh, om, if *sign == b'+' { 1 } else { -1 })
        }
        _ => return false,
    };
    if h > 23 || m > 59 || oh > 23 || om > 59 {
        return false;
    }
    if sec == 60 {
        // A leap second is only 23:59:60 in UTC.
        let minutes = i64::from(h) * 60 + i64::from(m) - i64::from(sign) * (i64::from(oh) * 60 + i64::from(om));
        return minutes.rem_euclid(24 * 60) == 23 * 60 + 59;
    }
    sec <= 59
}

fn date_time(s: &str) -> bool {
    match (s.get(..10), s.as_bytes().get(10), s.get(11..)) {
        (Some(d), Some(b'T' | b't'), Some(t)) => date(d) && time(t),
        _ => false,
    }
}

fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else { return false };
    if rest.is_empty() {
        return false;
    }
    if let Some(w) = rest.strip_suffix('W') {
        return digits(w.as_bytes()).is_some();
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    let units = |part: &str, order: &[u8]| -> Option<usize> {
        let b = part.as_bytes();
        let (mut i, mut next, mut count) = (0, 0, 0);
        while i < b.len() {
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let unit = *b.get(i)?;
            if i == start {
                return None;
            }
            let pos = order.iter().position(|u| *u == unit)?;
            // RFC 3339 appendix A: a unit may only be followed by the next one (`dur-year =
            // 1*DIGIT "Y" [dur-month]`), so `P1Y2D` and `PT1H2S` are not durations.
            if pos < next || (count > 0 && pos != next) {
                return None;
            }
            next = pos + 1;
            count += 1;
            i += 1;
        }
        Some(count)
    };
    let Some(dn) = units(date_part, b"YMD") else { return false };
    match time_part {
        None => dn > 0,
        Some(t) => units(t, b"HMS").is_some_and(|n| n > 0),
    }
}

fn hostname(s: &str) -> bool {
    // No trailing dot: `example.` is not a host name in RFC 1123's sense (the suite agrees).
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.len() <= 63
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b.first() != Some(&b'-')
                && b.last() != Some(&b'-')
                && !(b.len() >= 4 && b.get(2..4) == Some(b"--") && !label.to_ascii_lowercase().starts_with("xn"))
        })
}

fn email(s: &str) -> bool {
    let Some(at) = s.rfind('@') else { return false };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        local.len() > 2
    } else {
        !local.is_empty()
            && local.len() <= 64
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local.bytes().all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&c))
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(ip) => match ip.strip_prefix("IPv6:") {
            Some(v6) => Ipv6Addr::from_str(v6).is_ok(),
            None => Ipv4Addr::from_str(ip).is_ok(),
        },
        None => hostname(domain),
    };
    local_ok && domain_ok
}

fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

fn json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let b = s.as_bytes();
    b.iter().enumerate().all(|(i, c)| *c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

fn relative_json_pointer(s: &str) -> bool {
    let end = s.bytes().position(|c| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, rest) = s.split_at(end);
    if num.is_empty() || (num.len() > 1 && num.starts_with('0')) {
        return false;
    }
    rest == "#" || json_pointer(rest)
}

fn uri(s: &str, absolute: bool) -> bool {
    let b = s.as_bytes();
    // Every byte must be allowed by RFC 3986; `%` must start a percent-encoding.
    let allowed = |c: u8| c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&c);
    for (i, c) in b.iter().enumerate() {
        if !allowed(*c) {
            return false;
        }
        if *c == b'%'
            && !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
        {
            return false;
        }
    }
    let scheme_end = s.find(':');
    let first_delim = s.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, first_delim) {
        (Some(c), Some(d)) => c < d,
        (Some(_), None) => true,
        _ => false,
    };
    if has_scheme {
        let scheme = &s[..scheme_end.unwrap_or(0)];
        let mut sc = scheme.bytes();
        if !sc.next().is_some_and(|c| c.is_ascii_alphabetic())
            || !sc.all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c))
        {
            return false;
        }
    } else if absolute {
        return false;
    }
    // Authority: brackets only around an IP literal; the port is digits.
    let rest = if has_scheme { &s[scheme_end.unwrap_or(0) + 1..] } else { s };
    if let Some(auth) = rest.strip_prefix("//") {
        let auth = &auth[..auth.find(['/', '?', '#']).unwrap_or(auth.len())];
        // `userinfo "@" host`: one `@` at most, and no brackets in the userinfo (RFC 3986 3.2.1).
        let (userinfo, host_port) = auth.split_once('@').map_or(("", auth), |(u, h)| (u, h));
        if host_port.contains('@') || userinfo.contains(['[', ']']) {
            return false;
        }
        if let Some(lit) = host_port.strip_prefix('[') {
            let Some((ip, port)) = lit.split_once(']') else { return false };
            if Ipv6Addr::from_str(ip).is_err() && !ip.starts_with('v') {
                return false;
            }
            if !(port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|c| c.is_ascii_digit()))) {
                return false;
            }
        } else {
            if host_port.contains(['[', ']']) {
                return false;
            }
            if let Some((_, port)) = host_port.rsplit_once(':') {
                if !port.bytes().all(|c| c.is_ascii_digit()) {
                    return false;
                }
            }
        }
    } else if rest.contains(['[', ']']) {
        return false;
    }
    // `#` may appear once.
    s.matches('#').count() <= 1
}

#[cfg(test)]
mod tests {
    use super::format_matches as f;

    #[test]
    fn formats() {
        assert!(f("date", "2024-02-29") && !f("date", "2023-02-29") && !f("date", "2024-1-01"));
        assert!(f("date-time", "1963-06-19T08:30:06.283185Z") && !f("date-time", "1963-06-19 08:30:06Z"));
        assert!(f("time", "23:59:60Z") && !f("time", "22:59:60Z") && f("time", "15:59:60-08:00"));
        assert!(
            f("duration", "P4DT12H30M5S") && f("duration", "P2W") && !f("duration", "PT") && !f("duration", "P1D2H")
        );
        assert!(f("email", "joe.bloggs@example.com") && !f("email", "2962") && !f("email", "a..b@x.com"));
        assert!(super::hostname("www.example.com") && !super::hostname("-a.com") && !super::hostname("a_b.com"));
        assert!(f("ipv4", "192.168.0.1") && !f("ipv4", "087.10.0.1") && !f("ipv4", "256.0.0.1"));
        assert!(f("ipv6", "::1") && !f("ipv6", "12345::"));
        assert!(f("uri", "http://foo.bar/?baz=qux#quux") && !f("uri", "//foo.bar") && !f("uri", "http:// x"));
        assert!(f("uri-reference", "/abc") && !f("uri-reference", "\\\\WINDOWS"));
        assert!(f("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380") && !f("uuid", "2eb8aa08aa9811eab4aa73b441d16380"));
        assert!(f("json-pointer", "/a~1b") && !f("json-pointer", "/a~2") && !f("json-pointer", "a"));
        assert!(
            f("relative-json-pointer", "1/a") && f("relative-json-pointer", "0#") && !f("relative-json-pointer", "01")
        );
        // found by the conformance harness (optional/format of the JSON Schema Test Suite)
        assert!(!f("duration", "P1Y2D") && !f("duration", "PT1H2S"));
        assert!(f("duration", "P1Y2M") && f("duration", "PT1M2S"));
        assert!(!super::hostname("example.") && !f("uri-reference", "//a@b@example.com/"));
        assert!(!f("uri", "https://[@example.org/test.txt"));
        assert!(f("uri", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com"));
    }
}
