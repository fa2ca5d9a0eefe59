//! `properties`, `required`, `additionalProperties`, `minProperties`, `maxProperties`.

use super::{describe, join, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Kw, Node, Property};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "properties" => {
            let JsonValue::Object(props) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`properties` must map property names to schemas, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            for p in props {
                let node = l.schema(&p.value, &join(ptr, &p.key));
                c.properties.push(Property { name: p.key.clone(), node, loc: p.key_loc });
            }
        }
        "required" => {
            let JsonValue::Array(names) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`required` must be an array of property names, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            for (i, n) in names.iter().enumerate() {
                match &n.value {
                    JsonValue::String(s) if c.required.iter().any(|(r, _)| r == s) => {
                        l.error(n.loc, &format!("{ptr}/{i}"), format!("`required` lists {s:?} twice"));
                    }
                    JsonValue::String(s) => c.required.push((s.clone(), n.loc)),
                    other => l.error(
                        n.loc,
                        &format!("{ptr}/{i}"),
                        format!("`required` lists property names (strings), found {}", describe(other)),
                    ),
                }
            }
        }
        "additionalProperties" => c.additional = Some(l.schema(&m.value, ptr)),
        "minProperties" => c.min_properties = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxProperties" => c.max_properties = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        _ => return Claim::No,
    }
    Claim::Assertion
}
