//! OpenAPI 3.0 Schema Object keywords (only with `#[tool(dialect = "openapi-3.0")]`):
//! `nullable`, and the annotations `discriminator`, `xml`, `externalDocs`, `example`.

use super::{describe, join, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, JsonType, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, _: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        // Applied by `fold_nullable` once the whole object is read.
        "nullable" => {
            l.boolean(m, ptr);
            return Claim::Assertion;
        }
        "discriminator" => {
            // Names the property that tells `oneOf`/`anyOf` branches apart; validation does not
            // need it (the branches' own schemas decide), so it is kept as written.
            let property_name = match &m.value.value {
                JsonValue::Object(ms) => ms.iter().find(|x| x.key == "propertyName").map(|x| &x.value.value),
                _ => None,
            };
            if !matches!(property_name, Some(JsonValue::String(_))) {
                l.error(
                    m.value.loc,
                    ptr,
                    format!(
                        "`discriminator` must be an object with a string `propertyName`, found {}",
                        describe(&m.value.value)
                    ),
                );
            }
        }
        "xml" | "externalDocs" => {
            if !matches!(m.value.value, JsonValue::Object(_)) {
                l.error(m.value.loc, ptr, format!("`{}` must be an object, found {}", m.key, describe(&m.value.value)));
            }
        }
        "example" => {}
        _ => return Claim::No,
    }
    Claim::Annotation
}

/// `"nullable": true` adds `null` to the `type` beside it (OpenAPI 3.0.3: the other keywords keep
/// their meaning, so an `enum` without `null` still refuses it). Without a `type` it would add
/// nothing, which is never what was meant: refused.
pub fn fold_nullable(l: &mut Lowerer<'_>, c: &mut Checks, members: &[Member], ptr: &str) {
    let Some(m) = members.iter().find(|m| m.key == "nullable" && matches!(m.value.value, JsonValue::Bool(true))) else {
        return;
    };
    match &mut c.types {
        Some(Kw { value, .. }) => {
            if !value.contains(&JsonType::Null) {
                value.push(JsonType::Null);
            }
        }
        None => l.error(
            m.key_loc,
            &join(ptr, "nullable"),
            "`nullable` adds null to the `type` beside it (OpenAPI 3.0.3), and there is no `type` here: \
             it would allow nothing; give this schema a `type`, or remove `nullable`",
        ),
    }
}
