//! `items`, `minItems`, `maxItems`, `uniqueItems`.

use super::{Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Draft, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "items" => {
            if let JsonValue::Array(_) = m.value.value {
                let msg = match l.draft {
                    Draft::Draft07 => {
                        "the array form of `items` (draft-07 tuple validation) is not supported by toolgate yet"
                    }
                    Draft::Draft2020_12 => {
                        "`items` must be a schema in draft 2020-12; tuples are written with `prefixItems`"
                    }
                };
                l.error(m.key_loc, ptr, msg);
            } else {
                c.items = Some(l.schema(&m.value, ptr));
            }
        }
        "minItems" => c.min_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxItems" => c.max_items = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "uniqueItems" => c.unique_items = l.boolean(m, ptr).unwrap_or(false),
        _ => return Claim::No,
    }
    Claim::Assertion
}
