//! `items`, `minItems`, `maxItems`, `uniqueItems`.

use super::{Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Draft, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "items" => match (&m.value.value, l.draft) {
            // Draft-07 tuple form: the same meaning as 2020-12 `prefixItems`; `additionalItems`
            // then plays the part of 2020-12 `items`.
            (JsonValue::Array(_), Draft::Draft07) => c.prefix_items = super::applicators::schema_array(l, m, ptr),
            (JsonValue::Array(_), Draft::Draft2020_12) => {
                l.error(
                    m.key_loc,
                    ptr,
                    "`items` must be a schema in draft 2020-12; tuples are written with `prefixItems`",
                );
            }
            _ => c.items = Some(l.schema(&m.value, ptr)),
        },
        // Folded into `items` after the node is lowered, when `items` is an array (see `schema`).
        "additionalItems" if l.draft == Draft::Draft07 => c.additional_items = Some(l.schema(&m.value, ptr)),
        "prefixItems" if l.draft == Draft::Draft2020_12 => c.prefix_items = super::applicators::schema_array(l, m, ptr),
        "contains" => c.contains = Some(l.schema(&m.value, ptr)),
        "minContains" if l.draft == Draft::Draft2020_12 => {
            c.min_contains = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc });
        }
        "maxContains" if l.draft == Draft::Draft2020_12 => {
            c.max_contains = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc });
        }
        "unevaluatedItems" if l.draft == Draft::Draft2020_12 => c.unevaluated_items = Some(l.schema(&m.value, ptr)),
        "minItems" => c.min_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxItems" => c.max_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "uniqueItems" => c.unique_items = l.boolean(m, ptr).unwrap_or(false),
        _ => return Claim::No,
    }
    Claim::Assertion
}
