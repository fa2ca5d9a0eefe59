//! Annotations kept for declarations: `title`, `description`, `default`, `examples`, `$comment`,
//! `deprecated`, `readOnly`, `writeOnly`, `contentEncoding`, `contentMediaType`, `contentSchema`,
//! and `x-*`.
//!
//! Draft 2020-12 makes the content keywords annotations only (section 8 of the validation
//! vocabulary: an implementation that decodes and checks the content "MUST NOT" fail validation
//! on it by default), so `contentSchema` is checked to be a schema and kept as written, never
//! applied; the suite's `content.json` expects exactly that.

use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Node};

pub fn lower(l: &mut Lowerer<'_>, _: &mut Checks, node: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "title" => node.title = l.string(m, ptr),
        "description" => node.description = l.string(m, ptr),
        "$comment" | "contentEncoding" | "contentMediaType" => {
            l.string(m, ptr);
        }
        "contentSchema" => {
            if !matches!(m.value.value, JsonValue::Object(_) | JsonValue::Bool(_)) {
                l.error(
                    m.value.loc,
                    ptr,
                    format!(
                        "`contentSchema` must be a schema (an object or a boolean), found {}",
                        describe(&m.value.value)
                    ),
                );
            }
        }
        "deprecated" | "readOnly" | "writeOnly" => {
            l.boolean(m, ptr);
        }
        "examples" => {
            if !matches!(m.value.value, JsonValue::Array(_)) {
                l.error(m.value.loc, ptr, format!("`examples` must be an array, found {}", describe(&m.value.value)));
            }
        }
        "default" => {}
        k if k.starts_with("x-") => {}
        _ => return Claim::No,
    }
    Claim::Annotation
}
