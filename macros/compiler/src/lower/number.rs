//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.

use super::{describe, join, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    let slot = match m.key.as_str() {
        "minimum" => &mut c.minimum,
        "maximum" => &mut c.maximum,
        "exclusiveMinimum" | "exclusiveMaximum" if l.draft.boolean_exclusive_bounds() => {
            // A modifier of `minimum`/`maximum`, applied by `fold_boolean_bounds` once the whole
            // object is read.
            if !matches!(m.value.value, JsonValue::Bool(_)) {
                let bound = if m.key == "exclusiveMinimum" { "minimum" } else { "maximum" };
                l.error(
                    m.value.loc,
                    ptr,
                    format!(
                        "in {} `{}` is a boolean that makes `{bound}` exclusive, found {}; the numeric form came with draft-06",
                        l.draft.name(),
                        m.key,
                        describe(&m.value.value)
                    ),
                );
            }
            return Claim::Assertion;
        }
        "exclusiveMinimum" | "exclusiveMaximum" if matches!(m.value.value, JsonValue::Bool(_)) => {
            l.error(
                m.value.loc,
                ptr,
                format!(
                    "`{}` is a number since draft-06; the boolean form is draft-04 (write the limit itself, e.g. `\"{}\": 0`, or declare draft-04)",
                    m.key, m.key
                ),
            );
            return Claim::Assertion;
        }
        "exclusiveMinimum" => &mut c.exclusive_minimum,
        "exclusiveMaximum" => &mut c.exclusive_maximum,
        "multipleOf" => {
            if let Some(n) = l.number(m, ptr) {
                if n.is_zero() || n.is_negative() {
                    l.error(m.value.loc, ptr, format!("`multipleOf` must be greater than 0, found {}", n.text()));
                } else if n.decimal().is_none() {
                    l.error(
                        m.value.loc,
                        ptr,
                        format!("`multipleOf` {} has too many digits to check exactly", n.text()),
                    );
                } else {
                    c.multiple_of = Some(Kw { value: n, loc: m.key_loc });
                }
            }
            return Claim::Assertion;
        }
        _ => return Claim::No,
    };
    *slot = l.number(m, ptr).map(|v| Kw { value: v, loc: m.key_loc });
    Claim::Assertion
}

/// Draft-04 and OpenAPI 3.0: `"exclusiveMinimum": true` makes `minimum` exclusive (and
/// `exclusiveMaximum` `maximum`); without its bound it is refused, as the draft-04 meta-schema
/// refuses it.
pub fn fold_boolean_bounds(l: &mut Lowerer<'_>, c: &mut Checks, members: &[Member], ptr: &str) {
    if !l.draft.boolean_exclusive_bounds() {
        return;
    }
    for (key, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        let Some(m) = members.iter().find(|m| m.key == key && matches!(m.value.value, JsonValue::Bool(true))) else {
            continue;
        };
        let (from, to) = if key == "exclusiveMinimum" {
            (&mut c.minimum, &mut c.exclusive_minimum)
        } else {
            (&mut c.maximum, &mut c.exclusive_maximum)
        };
        match from.take() {
            Some(v) => *to = Some(v),
            None => l.error(
                m.key_loc,
                &join(ptr, key),
                format!("`\"{key}\": true` makes `{bound}` exclusive, but there is no `{bound}` beside it"),
            ),
        }
    }
}
