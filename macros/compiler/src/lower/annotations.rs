//! Annotations kept for declarations: `title`, `description`, `default`, `examples`, `$comment`,
//! `deprecated`, `readOnly`, `writeOnly`, `contentEncoding`, `contentMediaType`, and `x-*`.

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
