//! `format`: an annotation by default (as draft 2020-12 says); asserted with
//! `#[tool(formats = assert)]`, where an unknown format is refused.

use std::sync::OnceLock;

use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Dfa, Kw, Node, Pattern};

/// The formats toolgate asserts.
pub const KNOWN: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
];

pub(crate) fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    if m.key != "format" {
        return Claim::No;
    }
    let JsonValue::String(f) = &m.value.value else {
        l.error(m.value.loc, ptr, format!("`format` must be a string, found {}", describe(&m.value.value)));
        return Claim::Annotation;
    };
    if !l.assert_formats {
        return Claim::Annotation;
    }
    if f == "hostname" || f == "idn-hostname" || f == "idn-email" || f == "iri" || f == "iri-reference" {
        l.error(
            m.value.loc,
            ptr,
            format!(
                "format {f:?} cannot be asserted exactly: it includes internationalised names whose \
                 IDNA2008 rules toolgate does not implement; leave it an annotation or use `pattern`"
            ),
        );
        return Claim::Annotation;
    }
    if KNOWN.contains(&f.as_str()) {
        c.format = Some(Kw { value: f.clone(), loc: m.key_loc });
        c.format_prefix = prefix(f).cloned();
        Claim::Assertion
    } else {
        l.error(m.value.loc, ptr, format!("format {f:?} cannot be asserted: toolgate checks {}", KNOWN.join(", ")));
        Claim::Annotation
    }
}

/// A time of day (RFC 3339 `full-time`): hours, minutes, seconds up to a leap second, a
/// fraction, an offset.
const TIME: &str = r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])";
/// A date (RFC 3339 `full-date`): each month its days, February 29 in leap years only (a year
/// divisible by 4 but not by 100, or by 400; year 0000 included).
const DATE: &str = concat!(
    r"([0-9]{4}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))",
    r"|([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29)"
);
/// A duration's time part (after `T`): hours, minutes, seconds, each followed only by the next.
const DUR_TIME: &str = r"([0-9]+H([0-9]+M([0-9]+S)?)?|[0-9]+M([0-9]+S)?|[0-9]+S)";
/// A URI's character: those RFC 3986 allows but `#`, or a percent-encoded byte.
const URI_CHAR: &str = r"([A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})";
/// A JSON Pointer (RFC 6901): `/`-prefixed tokens in which `~` only escapes `0` or `1`.
const POINTER: &str = r"(/([^~]|~[01])*)*";
/// An IPv4 address: four octets without leading zeros.
const IPV4: &str = r"(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}";

/// An IPv6 address as the runtime's check (Rust's `Ipv6Addr`) reads it: eight groups of 1 to 4
/// hex digits, the last two of which may be an IPv4 address; or, around one `::` standing for
/// at least one group of zeros, at most seven groups, an IPv4 address only after it and last.
fn ipv6() -> String {
    const H: &str = "[0-9A-Fa-f]{1,4}";
    let mut forms = vec![format!("({H}:){{7}}{H}"), format!("({H}:){{6}}{IPV4}")];
    for head in 0..=7usize {
        // The groups before `::`, and how many the part after it may still have.
        let before = match head {
            0 => String::new(),
            1 => H.to_owned(),
            _ => format!("{H}(:{H}){{{}}}", head - 1),
        };
        let room = 7 - head;
        let mut after = Vec::new();
        if room >= 1 {
            after.push(if room == 1 { H.to_owned() } else { format!("{H}(:{H}){{0,{}}}", room - 1) });
        }
        if room >= 2 {
            after.push(if room == 2 { IPV4.to_owned() } else { format!("({H}:){{0,{}}}{IPV4}", room - 2) });
        }
        let after = if after.is_empty() { String::new() } else { format!("({})?", after.join("|")) };
        forms.push(format!("{before}::{after}"));
    }
    format!("({})", forms.join("|"))
}

/// The ECMA-262 source of a regular language holding every string of format `name`, `None`
/// for none. Most are exactly the format (`date`, `ipv4`, `ipv6`, `uuid`, `json-pointer`,
/// `relative-json-pointer`, `duration` but for digits past `u32`); `time` and `date-time` let a
/// leap second through at any minute, which the runtime's stepping judges beside the automaton
/// (see [`Pattern::leap_seconds_at`]); the others are wider (`email`, `uri`, `uri-reference`:
/// the characters and the main delimiters), which the runtime's exact check judges when the
/// string ends. A stream steps it to reject a string at the first character that no string of
/// the format continues.
#[must_use]
pub fn prefix_source(name: &str) -> Option<String> {
    Some(match name {
        "date" => format!("^{DATE}$"),
        "time" => format!("^{TIME}$"),
        "date-time" => format!("^{DATE}[Tt]{TIME}$"),
        "duration" => {
            format!("^P([0-9]+W|([0-9]+Y([0-9]+M([0-9]+D)?)?|[0-9]+M([0-9]+D)?|[0-9]+D)(T{DUR_TIME})?|T{DUR_TIME})$")
        }
        "email" => {
            format!(
                r#"^("[^]*"|[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~.\-]+)@([A-Za-z0-9.\-]+|\[({IPV4}|IPv6:[0-9A-Fa-f:.]+)\])$"#
            )
        }
        "ipv4" => format!("^{IPV4}$"),
        "ipv6" => format!("^{}$", ipv6()),
        "uri" => format!("^[A-Za-z][A-Za-z0-9+.\\-]*:{URI_CHAR}*(#{URI_CHAR}*)?$"),
        "uri-reference" => format!("^{URI_CHAR}*(#{URI_CHAR}*)?$"),
        "uuid" => "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$".to_owned(),
        "json-pointer" => format!("^{POINTER}$"),
        "relative-json-pointer" => format!("^(0|[1-9][0-9]*)(#|{POINTER})$"),
        _ => return None,
    })
}

/// [`prefix_source`] compiled as a `pattern` is (once per format and process: a crate's
/// macros share them).
#[must_use]
pub fn prefix(name: &str) -> Option<&'static Pattern> {
    static COMPILED: [OnceLock<Option<Pattern>>; KNOWN.len()] = [const { OnceLock::new() }; KNOWN.len()];
    let i = KNOWN.iter().position(|k| *k == name)?;
    COMPILED
        .get(i)?
        .get_or_init(|| {
            let source = prefix_source(name)?;
            let translated = super::regex::translate(&source).ok()?;
            let dfa = super::regex::compile(&translated).ok()?;
            let fixed = match &dfa {
                Dfa::Table(t) => super::regex::fixed(t),
                Dfa::Sparse { .. } => None,
            };
            let leap_seconds_at = match name {
                "time" => Some(0),
                "date-time" => Some(11),
                _ => None,
            };
            Some(Pattern { source, translated, dfa, fixed, leap_seconds_at })
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::{prefix, KNOWN};

    /// Whether table `t` matches the whole of `s` (the language is anchored at both ends).
    fn table_matches(t: &crate::model::DfaTable, s: &str) -> bool {
        let at = |state: u16, column: usize| t.next.get(usize::from(state) + column).copied().unwrap_or(0);
        let mut state = t.start;
        for b in s.bytes() {
            state = at(state, usize::from(t.classes[usize::from(b)]));
            if state < t.quit_end {
                return false;
            }
        }
        let end = at(state, usize::from(t.stride) - 1);
        (t.quit_end..t.match_end).contains(&end)
    }

    #[test]
    fn the_ipv6_language_is_what_the_check_accepts() {
        // Random strings of the characters an address has, shaped like addresses (groups of up
        // to five digits, `:` and `::`, IPv4 addresses with leading zeros and large octets), and
        // edits of real ones: the automaton takes exactly those `Ipv6Addr` reads.
        let Some(crate::model::Pattern { dfa: crate::model::Dfa::Table(t), .. }) = prefix("ipv6") else {
            panic!("the ipv6 automaton is not a table")
        };
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            usize::try_from(rng % n).unwrap_or(0)
        };
        let (mut valid, mut total) = (0, 0);
        let pieces =
            ["0", "1", "fF", "abcd", "12345", ":", "::", ":", "1.2.3.4", "255.0.0.1", "01.2.3.4", "256", ".", "0"];
        let mut check = |s: &str| {
            let ok = std::net::Ipv6Addr::from_str(s).is_ok();
            assert_eq!(table_matches(t, s), ok, "{s:?}");
            valid += usize::from(ok);
            total += 1;
        };
        for _ in 0..200_000 {
            let n = 1 + next(12);
            let s: String = (0..n)
                .map(|i| {
                    let p = pieces[next(pieces.len() as u64)];
                    // Mostly a group then a `:`.
                    if i % 2 == 1 && next(4) != 0 {
                        ":"
                    } else {
                        p
                    }
                })
                .collect();
            check(&s);
        }
        let seeds = ["::1", "::", "1::", "1:2:3:4:5:6:7:8", "::ffff:192.168.0.1", "1:2:3:4:5:6:1.2.3.4", "fe80::1:2"];
        let alphabet: Vec<char> = "0123456789abcdefABCDEF:.g ".chars().collect();
        for seed in seeds {
            for _ in 0..20_000 {
                let mut s: Vec<char> = seed.chars().collect();
                for _ in 0..1 + next(3) {
                    let c = alphabet[next(alphabet.len() as u64)];
                    match next(3) {
                        0 if !s.is_empty() => {
                            let i = next(s.len() as u64);
                            s[i] = c;
                        }
                        1 if !s.is_empty() => {
                            s.remove(next(s.len() as u64));
                        }
                        _ => s.insert(next(s.len() as u64 + 1), c),
                    }
                }
                check(&s.into_iter().collect::<String>());
            }
        }
        assert!(valid > 10_000 && total - valid > 100_000, "{valid} valid of {total}");
    }

    #[test]
    fn every_format_has_a_prefix_automaton() {
        for name in KNOWN {
            assert!(prefix(name).is_some(), "{name}");
        }
    }
}
