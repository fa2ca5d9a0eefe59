//! `minLength`, `maxLength` (Unicode code points).

use super::{Claim, Lowerer};
use crate::json::Member;
use crate::model::{Checks, Kw, Node};

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "minLength" => c.min_length = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxLength" => c.max_length = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        _ => return Claim::No,
    }
    Claim::Assertion
}
