//! Subschemas that no value satisfies. The stream program reads such a subschema below the root
//! as `false` where that decides before the value's first byte (a property of it dies at its
//! key, an object it closes is closed, an array it ends ends, a `contains` of it counts
//! nothing), and a root of it dies at once; a name that the subschemas applied to an object bar
//! together is forbidden there ([`barred_together`]); and a value of a kind that a subschema
//! leaves nothing of dies at its first byte ([`void_types`]). Every rule here is exact in one
//! direction: it only says "nothing" of a subschema that accepts nothing (a gap only means a
//! later death).

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

/// The kinds of value that node `n`'s `type`, `enum` and `const` let through at their first
/// byte but that no value of satisfies together with the subschemas it applies whatever the
/// value ([`ruled_out`]), as the stream program's type bits (`integer` and `number` together):
/// `{"type": ["string", "number"], "allOf": [{"minLength": 5}, {"maxLength": 3}]}` gives strings.
pub(super) fn void_types(ir: &Ir, n: NodeId) -> u8 {
    if !matches!(ir.node(n).body, Body::Checks(_)) {
        return 0;
    }
    let void = kinds(ir, n, 0) & ruled_out(ir, &applied(ir, n), 0);
    // (`kinds` bits: 4 number, 8 string, 16 array, 32 object; the program's: 4 integer,
    // 8 number, 16 string, 32 array, 64 object.)
    [(4, 4 | 8), (8, 16), (16, 32), (32, 64)].iter().filter(|&&(k, _)| void & k != 0).fold(0, |a, &(_, t)| a | t)
}

/// The names that a member of an object node `n` takes may not have, whatever its value: those
/// declared in the `properties` of two or more of the subschemas `n` applies whatever the value
/// ([`applied`]), whose subschemas there (with the `additionalProperties` of those of them that
/// do not declare the name and have no `patternProperties`) together accept nothing
/// ([`none_together`]): `{"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties":
/// {"a": {"type": "integer"}}}]}` bars `a`. (A name one subschema alone bars is that
/// subschema's `false` property, as the stream program has it already.)
pub(super) fn barred_together(ir: &Ir, n: NodeId) -> Vec<&str> {
    let applied = applied(ir, n);
    if applied.len() < 2 {
        return Vec::new();
    }
    let mut names: Vec<&str> = applied.iter().flat_map(|c| c.properties.iter().map(|p| p.name.as_str())).collect();
    names.sort_unstable();
    names.dedup();
    names.retain(|name| {
        let subs = member_subschemas(&applied, name);
        subs.len() > 1 && none_together(ir, &subs, 0)
    });
    names
}

/// The subschemas among `applied` that a member named `name` must satisfy: the property of
/// that name where one declares it, else an `additionalProperties` where no
/// `patternProperties` may take the name. (A pattern that matches it adds a subschema; leaving
/// it out only says "nothing" less often.)
fn member_subschemas(applied: &[&Checks], name: &str) -> Vec<NodeId> {
    applied
        .iter()
        .filter_map(|c| match c.properties.iter().find(|p| p.name == name) {
            Some(p) => Some(p.node),
            None if c.pattern_properties.is_empty() => c.additional,
            None => None,
        })
        .collect()
}

/// Whether no value satisfies every one of `nodes` (looked at from `depth`): one of them
/// accepts nothing, or they and the subschemas each applies whatever the value, taken
/// together, leave no kind, member or bounds, as [`accepts_nothing`] reads one subschema.
fn none_together(ir: &Ir, nodes: &[NodeId], depth: u32) -> bool {
    if nodes.iter().any(|&m| accepts_nothing(ir, m, depth)) {
        return true;
    }
    let mut all: Vec<&Checks> = Vec::new();
    for &m in nodes {
        for c in applied(ir, m) {
            if all.len() < MAX_APPLIED && !all.iter().any(|a| std::ptr::eq(*a, c)) {
                all.push(c);
            }
        }
    }
    let kinds = nodes.iter().fold(63, |k, &m| k & kinds(ir, m, depth));
    no_member(&all) || kinds & !ruled_out(ir, &all, depth) == 0
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
///   `additionalProperties` beside no `patternProperties`; or the subschemas of it in several
///   of `applied`, together, [`member_subschemas`]; looked at [`NEEDED_DEPTH`] deep).
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
    let barred = |name: &str| match member_subschemas(applied, name).as_slice() {
        [] => false,
        &[m] => none(m),
        subs => depth < NEEDED_DEPTH && none_together(ir, subs, depth + 1),
    };
    if above(most(|c| c.min_properties.as_ref()), max_properties)
        || above(u64::try_from(required.len()).ok(), max_properties)
        || required.iter().any(|&r| barred(r))
    {
        out |= 32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{barred_together, no_value, void_types};
    use crate::diag::{Diagnostics, Source};
    use crate::json::parse_text;
    use crate::lower::{lower, Options};
    use serde_json::{json, Value};

    /// A xorshift generator from `seed`: `next(n)` draws below `n`.
    fn draws(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// The values [`part`] draws its `enum` members and `const`s from, and [`candidates`] builds
    /// on.
    fn pool() -> [Value; 10] {
        [
            json!(1),
            json!(2),
            json!(5),
            json!(1.5),
            json!("a"),
            json!("abc"),
            json!(null),
            json!(true),
            json!([1]),
            json!({"a": 1}),
        ]
    }

    /// A random subschema: a few keywords of every kind, `depth` levels of subschemas below.
    fn part(next: &mut impl FnMut(u64) -> u64, depth: u32) -> Value {
        const TYPES: [&str; 7] = ["null", "boolean", "integer", "number", "string", "array", "object"];
        let limits = [json!(1), json!(5), json!(5.0), json!(5.5)];
        match next(12) {
            0 if depth > 0 => return json!(false),
            1 if depth > 0 => return json!({"not": {}}),
            2 if depth > 0 => return json!(true),
            _ => {}
        }
        let mut m = serde_json::Map::new();
        for _ in 0..=next(3) {
            let pick = |next: &mut dyn FnMut(u64) -> u64, xs: &[Value]| xs[next(xs.len() as u64) as usize].clone();
            let (key, value) = match next(if depth > 0 { 22 } else { 16 }) {
                0 => ("type", json!(TYPES[next(7) as usize])),
                1 => ("type", json!([TYPES[next(7) as usize], TYPES[next(7) as usize]])),
                2 => ("enum", Value::Array((0..=next(2)).map(|_| pick(next, &pool())).collect())),
                3 => ("const", pick(next, &pool())),
                4 => ("minimum", pick(next, &limits)),
                5 => ("maximum", pick(next, &limits)),
                6 => ("exclusiveMinimum", pick(next, &limits)),
                7 => ("exclusiveMaximum", pick(next, &limits)),
                8 => ("minLength", json!(next(5))),
                9 => ("maxLength", json!(next(5))),
                10 => ("minItems", json!(next(4))),
                11 => ("maxItems", json!(next(4))),
                12 => ("minProperties", json!(next(4))),
                13 => ("maxProperties", json!(next(4))),
                14 => (
                    "required",
                    Value::Array(["a", "b", "x"].iter().filter(|_| next(2) == 0).map(|s| json!(s)).collect()),
                ),
                15 => ("additionalProperties", json!(false)),
                16 => ("properties", json!({"a": part(next, depth - 1), "x": part(next, depth - 1)})),
                17 => ("additionalProperties", part(next, depth - 1)),
                18 => ("prefixItems", json!([part(next, depth - 1)])),
                19 => ("items", part(next, depth - 1)),
                20 => ("contains", part(next, depth - 1)),
                _ => ("patternProperties", json!({"^x": part(next, depth - 1)})),
            };
            m.insert(key.to_owned(), value);
        }
        if depth > 0 && m.contains_key("additionalProperties") && next(2) == 0 {
            // A closed object whose pattern may take a required name.
            m.insert("patternProperties".to_owned(), json!({"^x": part(next, depth - 1)}));
            m.insert("required".to_owned(), json!(["x"]));
        }
        Value::Object(m)
    }

    /// Values of every kind, at the edges of the limits [`part`] draws.
    fn candidates() -> Vec<Value> {
        let mut out: Vec<Value> = [
            json!(null),
            json!(true),
            json!(false),
            json!(-1),
            json!(1.5),
            json!(5.5),
            json!(6),
            json!(""),
            json!("x"),
            json!("abc"),
            json!("abcd"),
            json!("abcde"),
            json!("abcdef"),
        ]
        .into_iter()
        .collect();
        out.extend((0..=5).map(|i| json!(i)));
        let scalars = pool();
        for a in &scalars {
            out.push(json!([a]));
            out.push(json!({"a": a}));
            out.push(json!({"x": a}));
            out.push(json!({"xy": a}));
            out.push(json!({"b": a}));
            for b in &scalars {
                out.push(json!([a, b]));
                out.push(json!([a, b, 1]));
                out.push(json!({"a": a, "b": b}));
                out.push(json!({"a": a, "x": b}));
                out.push(json!({"a": a, "b": b, "x": 1}));
            }
        }
        out.extend([json!([]), json!({}), json!([1, 2, 3, 4]), json!({"a": 1, "b": 2, "x": 3, "y": 4})]);
        out
    }

    /// The analysis never says "nothing" of a schema a value satisfies (`jsonschema` judging a
    /// few hundred values of every kind), and says it of enough of them to be tested.
    #[test]
    fn no_value_satisfies_what_is_found_empty() {
        let mut next = draws(0x9E37_79B9_7F4A_7C15);
        let candidates = candidates();
        let (mut empty, mut refused, mut barred, mut voided) = (0, 0, 0, 0);
        for _ in 0..10_000 {
            let root = match next(4) {
                0 => json!({"allOf": [part(&mut next, 2), part(&mut next, 2)]}),
                // Members declared in several subschemas applied to the object.
                3 => json!({
                    "properties": {"x": part(&mut next, 1)},
                    "allOf": [{"properties": {"a": part(&mut next, 1)}}, {"properties": {"a": part(&mut next, 1), "x": part(&mut next, 1)}}],
                    "required": if next(2) == 0 { json!(["a"]) } else { json!([]) },
                }),
                1 => json!({"$defs": {"d": part(&mut next, 2)}, "$ref": "#/$defs/d", "allOf": [part(&mut next, 2)]}),
                _ => part(&mut next, 2),
            };
            let text = root.to_string();
            let Ok(json) = parse_text(&text) else { panic!("{text}") };
            let mut diags = Diagnostics::new(Source::Text { text: text.clone() }, proc_macro2::Span::call_site());
            let ir = lower(&json, &mut diags, &Options::default());
            crate::check::check(&ir, &mut diags);
            if diags.has_errors() {
                // Refused by the compiler (`minimum` above `maximum` in one subschema, …).
                refused += 1;
                continue;
            }
            let Ok(oracle) = jsonschema::draft202012::new(&root) else { panic!("{text}: jsonschema refused it") };
            // A name barred together: no object with a member of it is valid, whatever its value.
            for name in barred_together(&ir, ir.root) {
                barred += 1;
                for v in &candidates {
                    let object = json!({ name: v });
                    assert!(!oracle.is_valid(&object), "{text} was found to bar {name:?}, but {object} is valid");
                }
            }
            // A kind found void: no value of it is valid.
            let void = void_types(&ir, ir.root);
            voided += usize::from(void != 0);
            for v in &candidates {
                let bits = match v {
                    Value::Number(_) => 4 | 8,
                    Value::String(_) => 16,
                    Value::Array(_) => 32,
                    Value::Object(_) => 64,
                    Value::Null | Value::Bool(_) => 0,
                };
                assert!(
                    void & bits == 0 || !oracle.is_valid(v),
                    "{text} was found void for {v}'s kind, but it is valid"
                );
            }
            if !no_value(&ir, ir.root) {
                continue;
            }
            empty += 1;
            for v in &candidates {
                assert!(!oracle.is_valid(v), "{text} was found to accept nothing, but {v} is valid");
            }
        }
        assert!(empty >= 1000, "only {empty} of 10,000 schemas found empty ({refused} refused)");
        assert!(barred >= 100, "only {barred} names barred together in 10,000 schemas");
        assert!(voided >= 100, "only {voided} of 10,000 schemas found void for a kind");
        eprintln!("{refused} refused, {empty} found empty, {barred} names barred together, {voided} void for a kind");
    }
}
