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
/// A URI (`absolute`) or a URI reference as the runtime's check takes it: its characters those
/// RFC 3986 allows, `%` only before two hex digits, one `#` at most; a scheme wherever a `:`
/// comes before the first `/`, `?` or `#` (always, in a URI); after `//`, an authority up to the
/// next `/`, `?` or `#`: user information without brackets, one `@` at most, a host that is an
/// IP literal in brackets (`v` and anything, or an IPv6 address, of whose characters this
/// language only asks that they be hex digits, `:` and `.`: exactly, its automaton would be
/// fifteen times the size) or has no brackets, and a port of digits; without an authority, no
/// brackets at all.
fn uri(absolute: bool) -> String {
    // The unreserved characters and sub-delimiters, with `extra`, or a percent-encoded byte.
    let chars = |extra: &str| format!(r"([A-Za-z0-9\-._~!$&'()*+,;={extra}]|%[0-9A-Fa-f]{{2}})");
    let (user, host, future) = (chars(":"), chars(""), chars(r":\["));
    let (any, plain, plain_first, segment) = (chars(r":/?@\[\]"), chars(":/?@"), chars(":?@"), chars("@"));
    let authority = format!(
        r"//({user}*@)?(\[([0-9A-Fa-f:.]+|v{future}*)\](:[0-9]*)?|{host}*|({host}|:)*:[0-9]*)([/?]{any}*)?(#{any}*)?"
    );
    // Not `//` first; no brackets.
    let after_scheme = format!(r"(/?({plain_first}{plain}*)?)(#{plain}*)?");
    let scheme = r"[A-Za-z][A-Za-z0-9+.\-]*:";
    if absolute {
        return format!("^{scheme}({authority}|{after_scheme})$");
    }
    // Without a scheme, no `:` before the first `/`, `?` or `#`. (One authority in the pattern,
    // after a scheme or not: its automaton is built once.)
    let relative = format!(r"(/({plain_first}{plain}*)?|{segment}+([/?]{plain}*)?|\?{plain}*)?(#{plain}*)?");
    format!("^(({scheme})?{authority}|{scheme}{after_scheme}|{relative})$")
}
/// A JSON Pointer (RFC 6901): `/`-prefixed tokens in which `~` only escapes `0` or `1`.
const POINTER: &str = r"(/([^~]|~[01])*)*";
/// An IPv4 address: four octets without leading zeros.
const IPV4: &str = r"(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}";

/// A character of an e-mail address's unquoted local part other than its dots (RFC 5322 `atext`).
const ATEXT: &str = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-]";
/// A host name's label as the runtime's check takes it, but for its length: letters, digits and
/// hyphens, not first or last, nor third and fourth unless it begins `xn` (an IDNA A-label).
const LABEL: &str = concat!(
    r"([A-Za-z0-9]([A-Za-z0-9\-]{0,2}[A-Za-z0-9])?",
    r"|[A-Za-z0-9][A-Za-z0-9\-]([A-Za-z0-9][A-Za-z0-9\-]|-[A-Za-z0-9])[A-Za-z0-9\-]*[A-Za-z0-9]",
    r"|[xX][nN][A-Za-z0-9\-]+[A-Za-z0-9])"
);

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
/// for none. Each is exactly the format (`date`, `ipv4`, `ipv6`, `uuid`, `json-pointer`,
/// `relative-json-pointer`), or but for what a compact automaton cannot count: `duration`'s
/// digits past `u32`, `email`'s lengths, the characters of an IPv6 literal in an `email`, `uri`
/// or `uri-reference`; `time` and `date-time` let a leap second through at any minute, which the
/// runtime's stepping judges beside the automaton (see [`Pattern::leap_seconds_at`]). What a
/// language lets through, the runtime's exact check judges when the string ends. A stream steps
/// it to reject a string at the first character that no string of the format continues.
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
            format!(r#"^("[^]+"|{ATEXT}+(\.{ATEXT}+)*)@({LABEL}(\.{LABEL})*|\[({IPV4}|IPv6:[0-9A-Fa-f:.]+)\])$"#)
        }
        "ipv4" => format!("^{IPV4}$"),
        "ipv6" => format!("^{}$", ipv6()),
        "uri" => uri(true),
        "uri-reference" => uri(false),
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
    use super::{prefix, KNOWN};

    #[test]
    fn every_format_has_a_prefix_automaton() {
        for name in KNOWN {
            assert!(prefix(name).is_some(), "{name}");
        }
    }
}
