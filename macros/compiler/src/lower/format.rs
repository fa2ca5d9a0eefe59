//! `format`: an annotation by default (as draft 2020-12 says); asserted with
//! `#[tool(formats = assert)]`, where an unknown format is refused.

use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Kw, Node};

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

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
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
        Claim::Assertion
    } else {
        l.error(m.value.loc, ptr, format!("format {f:?} cannot be asserted: toolgate checks {}", KNOWN.join(", ")));
        Claim::Annotation
    }
}
