//! `items`, `minItems`, `maxItems`, `uniqueItems`.

use super::{Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Draft, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "items" => match (&m.value.value, l.draft) {
            (JsonValue::Array(_), Draft::Draft2020_12) => {
                l.error(
                    m.key_loc,
                    ptr,
                    "`items` must be a schema in draft 2020-12; tuples are written with `prefixItems`",
                );
            }
            (JsonValue::Array(_), Draft::OpenApi30) => {
                l.error(m.key_loc, ptr, "`items` must be a schema in OpenAPI 3.0, which has no tuples");
            }
            // Draft-04/06/07 tuple form: the same meaning as 2020-12 `prefixItems`;
            // `additionalItems` then plays the part of 2020-12 `items`.
            (JsonValue::Array(_), _) => c.prefix_items = super::applicators::schema_array(l, m, ptr),
            _ => c.items = Some(l.schema(&m.value, ptr)),
        },
        // Folded into `items` after the node is lowered, when `items` is an array (see `schema`).
        "additionalItems" => c.additional_items = Some(l.schema_or_boolean(&m.value, ptr)),
        "prefixItems" => c.prefix_items = super::applicators::schema_array(l, m, ptr),
        "contains" => c.contains = Some(l.schema(&m.value, ptr)),
        "minContains" => c.min_contains = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxContains" => c.max_contains = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "unevaluatedItems" => c.unevaluated_items = Some(l.schema(&m.value, ptr)),
        "minItems" => c.min_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxItems" => c.max_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "uniqueItems" => c.unique_items = l.boolean(m, ptr).unwrap_or(false),
        _ => return Claim::No,
    }
    Claim::Assertion
}
