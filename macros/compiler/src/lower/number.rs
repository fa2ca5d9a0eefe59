//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`.

use super::{Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    let slot = match m.key.as_str() {
        "minimum" => &mut c.minimum,
        "maximum" => &mut c.maximum,
        "exclusiveMinimum" | "exclusiveMaximum" if matches!(m.value.value, JsonValue::Bool(_)) => {
            l.error(
                m.value.loc,
                ptr,
                format!(
                    "`{}` is a number since draft-06; the boolean form is draft-04 (write the limit itself, e.g. `\"{}\": 0`)",
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
