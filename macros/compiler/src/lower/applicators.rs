//! In-place applicators: `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`.

use super::{describe, join, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Node, NodeId};

/// Lower a non-empty array of schemas.
pub fn schema_array(l: &mut Lowerer<'_>, m: &Member, ptr: &str) -> Vec<NodeId> {
    match &m.value.value {
        JsonValue::Array(items) if !items.is_empty() => {
            items.iter().enumerate().map(|(i, x)| l.schema(x, &format!("{ptr}/{i}"))).collect()
        }
        other => {
            l.error(
                m.value.loc,
                ptr,
                format!("`{}` must be a non-empty array of schemas, found {}", m.key, describe(other)),
            );
            Vec::new()
        }
    }
}

/// Lower an object whose values are schemas (`dependentSchemas`, `$defs`, …).
pub fn schema_map(l: &mut Lowerer<'_>, m: &Member, ptr: &str) -> Vec<(String, NodeId)> {
    match &m.value.value {
        JsonValue::Object(members) => {
            members.iter().map(|x| (x.key.clone(), l.schema(&x.value, &join(ptr, &x.key)))).collect()
        }
        other => {
            l.error(m.value.loc, ptr, format!("`{}` must map names to schemas, found {}", m.key, describe(other)));
            Vec::new()
        }
    }
}

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "allOf" => c.all_of = schema_array(l, m, ptr),
        "anyOf" => c.any_of = schema_array(l, m, ptr),
        "oneOf" => c.one_of = schema_array(l, m, ptr),
        "not" => c.not = Some(l.schema(&m.value, ptr)),
        "if" => c.if_ = Some(l.schema(&m.value, ptr)),
        "then" => c.then_ = Some(l.schema(&m.value, ptr)),
        "else" => c.else_ = Some(l.schema(&m.value, ptr)),
        "dependentSchemas" => c.dependent_schemas = schema_map(l, m, ptr),
        "dependencies" => {
            // Draft-04/06/07: an array value is `dependentRequired`, a schema value
            // `dependentSchemas`.
            let JsonValue::Object(members) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`dependencies` must be an object, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            for d in members {
                let dptr = join(ptr, &d.key);
                if let JsonValue::Array(_) = d.value.value {
                    if let Some(names) = super::object::string_list(l, &d.value, &dptr, "dependencies") {
                        c.dependent_required.push((d.key.clone(), names));
                    }
                } else {
                    let n = l.schema(&d.value, &dptr);
                    c.dependent_schemas.push((d.key.clone(), n));
                }
            }
        }
        _ => return Claim::No,
    }
    Claim::Assertion
}
