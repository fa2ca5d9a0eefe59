//! Subschemas that no value satisfies. The stream program reads such a subschema below the root
//! as `false` where that decides before the value's first byte (a property of it dies at its
//! key, an object it closes is closed, an array it ends ends, a `contains` of it counts
//! nothing), and a root of it dies at once. Every rule here is exact in one direction: it only
//! says "nothing" of a subschema that accepts nothing (a gap only means a later death).

use crate::check::{no_number_between, tighter};
use crate::json::{json_eq, JsonValue, Num};
use crate::model::{Body, Checks, Ir, Kw, NodeId};

use super::stream::kinds;

/// A bound of a subschema and whether it is exclusive.
type Bound<'a> = (&'a Kw<Num>, bool);

/// How deep the subschemas of a subschema are looked into.
const DEPTH: u32 = 16;

/// How deep the members and items a value needs are looked into: each level looks at every
/// required name and every item of a prefix, so the cost grows as their count to this power
/// (for every subschema the stream program asks about, at compile time).
const NEEDED_DEPTH: u32 = 2;

/// Most subschemas [`applied`] gathers for one subschema.
const MAX_APPLIED: usize = 32;

/// Whether no value satisfies node `n` ([`accepts_nothing`]).
pub(super) fn no_value(ir: &Ir, n: NodeId) -> bool {
    accepts_nothing(ir, n, 0)
}

/// Whether no value satisfies node `n`, as far as these rules tell (looked at [`DEPTH`] deep):
/// - `false`; a `$ref` or an `allOf` part that accepts nothing; an `anyOf` or `oneOf` whose every
///   branch does; a `oneOf` with two branches that accept everything; a `not` of one;
/// - no kind of JSON value that its `type`, `enum` and `const` and those of the subschemas it
///   applies leave ([`kinds`]: `{"allOf": [{"type": "string"}, {"type": "integer"}]}`);
/// - no member of its `enum`s and `const`s, and those of the subschemas it applies whatever the
///   value ([`applied`]), that is a member of all of them and of their `type`s;
/// - no value of any kind they leave within the bounds they set together ([`ruled_out`]).
fn accepts_nothing(ir: &Ir, n: NodeId, depth: u32) -> bool {
    let c = match &ir.node(n).body {
        Body::Never => return true,
        Body::Always => return false,
        Body::Checks(c) => c,
    };
    let none = |m: NodeId| depth < DEPTH && accepts_nothing(ir, m, depth + 1);
    let all = |m: NodeId| matches!(ir.node(m).body, Body::Always);
    c.reference.as_ref().is_some_and(|r| none(r.value.1))
        || c.all_of.iter().any(|&m| none(m))
        || (!c.any_of.is_empty() && c.any_of.iter().all(|&m| none(m)))
        || (!c.one_of.is_empty()
            && (c.one_of.iter().all(|&m| none(m)) || c.one_of.iter().filter(|&&m| all(m)).nth(1).is_some()))
        || c.not.is_some_and(all)
        || (depth < DEPTH && {
            let applied = applied(ir, n);
            no_member(&applied) || kinds(ir, n, depth) & !ruled_out(ir, &applied, depth) == 0
        })
}

/// The subschemas that apply to every value node `n` takes (`n` itself, its `allOf` parts and
/// `$ref` targets, through them 8 deep, [`MAX_APPLIED`] at most), each with keywords: every one
/// of their keywords holds of a valid value.
pub(super) fn applied(ir: &Ir, n: NodeId) -> Vec<&Checks> {
    fn walk<'a>(ir: &'a Ir, n: NodeId, depth: u32, seen: &mut Vec<NodeId>, out: &mut Vec<&'a Checks>) {
        let Body::Checks(c) = &ir.node(n).body else { return };
        if depth > 8 || seen.contains(&n) || out.len() >= MAX_APPLIED {
            return;
        }
        seen.push(n);
        out.push(c);
        for &m in c.all_of.iter().chain(c.reference.as_ref().map(|r| &r.value.1)) {
            walk(ir, m, depth + 1, seen, out);
        }
    }
    let mut out = Vec::new();
    walk(ir, n, 0, &mut Vec::new(), &mut out);
    out
}

/// Whether `enum`s and `const`s among `applied` leave no value: none of the members of the
/// first is a member of every other and of every `type` among them.
fn no_member(applied: &[&Checks]) -> bool {
    fn members(c: &Checks) -> Option<Vec<&JsonValue>> {
        match (&c.const_value, &c.enum_values) {
            (Some(k), _) => Some(vec![&k.value]),
            (None, Some(e)) => Some(e.value.iter().map(|(v, _)| v).collect()),
            (None, None) => None,
        }
    }
    let Some((i, first)) = applied.iter().enumerate().find_map(|(i, c)| Some((i, members(c)?))) else {
        return false;
    };
    // (A member of the first is one of its own members: only the others' are compared.)
    let others: Vec<Vec<&JsonValue>> =
        applied.iter().enumerate().filter(|&(j, _)| j != i).filter_map(|(_, c)| members(c)).collect();
    let types = applied.iter().filter_map(|c| c.type_list());
    let holds = |v: &JsonValue| {
        types.clone().all(|t| t.iter().any(|t| t.matches(v))) && others.iter().all(|m| m.iter().any(|w| json_eq(v, w)))
    };
    !first.iter().any(|v| holds(v))
}

/// The kinds of value ([`kinds`] bits: 4 number, 8 string, 16 array, 32 object) that no value
/// satisfies together with every subschema of `applied`:
/// - numbers: their bounds leave no number ([`no_number_between`]);
/// - strings: a `minLength` above a `maxLength`;
/// - arrays: a `minItems` above a `maxItems`; an item the array needs (below a `minItems`, or
///   of a `contains`) that no value satisfies (looked at [`NEEDED_DEPTH`] deep);
/// - objects: a `minProperties` above a `maxProperties`; more `required` names than a
///   `maxProperties` allows; a required member that no value satisfies (`false`, or a
///   subschema that accepts nothing, as its property or as what a closed object leaves it:
///   `additionalProperties` beside no `patternProperties`; looked at [`NEEDED_DEPTH`] deep).
fn ruled_out(ir: &Ir, applied: &[&Checks], depth: u32) -> u8 {
    let none = |m: NodeId| depth < NEEDED_DEPTH && accepts_nothing(ir, m, depth + 1);
    let most = |f: fn(&Checks) -> Option<&Kw<u64>>| applied.iter().filter_map(|c| f(c)).map(|k| k.value).max();
    let least = |f: fn(&Checks) -> Option<&Kw<u64>>| applied.iter().filter_map(|c| f(c)).map(|k| k.value).min();
    let above = |lo: Option<u64>, hi: Option<u64>| lo.zip(hi).is_some_and(|(lo, hi)| lo > hi);
    let mut out = 0;
    // Numbers.
    let (mut lower, mut upper): (Option<Bound>, Option<Bound>) = (None, None);
    for c in applied {
        lower = tighter(lower, c.minimum.as_ref().map(|k| (k, false)), true);
        lower = tighter(lower, c.exclusive_minimum.as_ref().map(|k| (k, true)), true);
        upper = tighter(upper, c.maximum.as_ref().map(|k| (k, false)), false);
        upper = tighter(upper, c.exclusive_maximum.as_ref().map(|k| (k, true)), false);
    }
    if no_number_between(lower, upper) {
        out |= 4;
    }
    // Strings.
    if above(most(|c| c.min_length.as_ref()), least(|c| c.max_length.as_ref())) {
        out |= 8;
    }
    // Arrays.
    let min_items = most(|c| c.min_items.as_ref());
    let needed = |c: &&Checks| {
        let prefix = c.prefix_items.iter().take(usize::try_from(min_items.unwrap_or(0)).unwrap_or(usize::MAX));
        let prefix_len = u64::try_from(c.prefix_items.len()).unwrap_or(u64::MAX);
        prefix.copied().any(none)
            || (min_items.is_some_and(|m| m > prefix_len) && c.items.is_some_and(none))
            || (c.contains.is_some_and(none) && c.min_contains.as_ref().is_none_or(|m| m.value > 0))
    };
    if above(min_items, least(|c| c.max_items.as_ref())) || applied.iter().any(needed) {
        out |= 16;
    }
    // Objects.
    let mut required: Vec<&str> = applied.iter().flat_map(|c| c.required.iter().map(|r| r.0.as_str())).collect();
    required.sort_unstable();
    required.dedup();
    let max_properties = least(|c| c.max_properties.as_ref());
    let barred = |name: &str| {
        applied.iter().any(|c| match c.properties.iter().find(|p| p.name == name) {
            Some(p) => none(p.node),
            None => c.pattern_properties.is_empty() && c.additional.is_some_and(none),
        })
    };
    if above(most(|c| c.min_properties.as_ref()), max_properties)
        || above(u64::try_from(required.len()).ok(), max_properties)
        || required.iter().any(|&r| barred(r))
    {
        out |= 32;
    }
    out
}
