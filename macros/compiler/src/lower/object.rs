//! `properties`, `required`, `additionalProperties`, `minProperties`, `maxProperties`.

use super::{describe, join, Claim, Lowerer};
use crate::json::{Json, JsonValue, Member};
use crate::model::{Checks, Kw, Node, Property};

/// A list of unique strings (`dependentRequired` values, `required`).
pub fn string_list(l: &mut Lowerer<'_>, j: &Json, ptr: &str, keyword: &str) -> Option<Vec<String>> {
    let JsonValue::Array(items) = &j.value else {
        l.error(j.loc, ptr, format!("`{keyword}` lists property names, found {}", describe(&j.value)));
        return None;
    };
    let mut out: Vec<String> = Vec::new();
    for (i, x) in items.iter().enumerate() {
        match &x.value {
            JsonValue::String(s) if out.contains(s) => {
                l.error(x.loc, &format!("{ptr}/{i}"), format!("`{keyword}` lists {s:?} twice"));
            }
            JsonValue::String(s) => out.push(s.clone()),
            other => l.error(
                x.loc,
                &format!("{ptr}/{i}"),
                format!("`{keyword}` lists property names, found {}", describe(other)),
            ),
        }
    }
    Some(out)
}

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
        "additionalProperties" => c.additional = Some(l.schema_or_boolean(&m.value, ptr)),
        "propertyNames" => c.property_names = Some(l.schema(&m.value, ptr)),
        "patternProperties" => {
            let JsonValue::Object(props) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`patternProperties` must map patterns to schemas, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            for p in props {
                let pptr = join(ptr, &p.key);
                let node = l.schema(&p.value, &pptr);
                if let Some(pat) = super::string::pattern(l, &p.key, p.key_loc, &pptr) {
                    c.pattern_properties.push((pat, node));
                }
            }
        }
        "dependentRequired" => {
            let JsonValue::Object(deps) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!(
                        "`dependentRequired` must map property names to arrays of names, found {}",
                        describe(&m.value.value)
                    ),
                );
                return Claim::Assertion;
            };
            for d in deps {
                if let Some(names) = string_list(l, &d.value, &join(ptr, &d.key), "dependentRequired") {
                    c.dependent_required.push((d.key.clone(), names));
                }
            }
        }
        "unevaluatedProperties" => {
            c.unevaluated_properties = Some(l.schema(&m.value, ptr));
        }
        "minProperties" => c.min_properties = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxProperties" => c.max_properties = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        _ => return Claim::No,
    }
    Claim::Assertion
}
