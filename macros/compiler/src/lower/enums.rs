//! `enum` and `const`.

use super::{describe, Claim, Lowerer};
use crate::json::{json_eq, JsonValue, Member};
use crate::model::{Checks, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "enum" => {
            let JsonValue::Array(items) = &m.value.value else {
                l.error(
                    m.value.loc,
                    ptr,
                    format!("`enum` must be an array of values, found {}", describe(&m.value.value)),
                );
                return Claim::Assertion;
            };
            if items.is_empty() {
                l.error(m.value.loc, ptr, "`enum` is empty: no value could ever be valid");
                return Claim::Assertion;
            }
            let mut values: Vec<(JsonValue, crate::json::Loc)> = Vec::new();
            for (i, x) in items.iter().enumerate() {
                if values.iter().any(|(v, _)| json_eq(v, &x.value)) {
                    l.error(x.loc, &format!("{ptr}/{i}"), "this `enum` value is listed twice");
                    continue;
                }
                values.push((x.value.clone(), x.loc));
            }
            c.enum_values = Some(Kw { value: values, loc: m.key_loc });
            Claim::Assertion
        }
        "const" => {
            c.const_value = Some(Kw { value: m.value.value.clone(), loc: m.key_loc });
            Claim::Assertion
        }
        _ => Claim::No,
    }
}
