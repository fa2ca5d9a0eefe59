//! IR → the prefix automaton's tables (`toolgate::__private::Program`): one node per subschema,
//! with the keywords the streaming validator follows byte by byte, the node's scan function for
//! the exact verdict when a value closes, and its validator for the explanation. Also the
//! automaton's capacity: how many slots and tracked levels the state needs, from the schema.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use crate::json::{JsonValue, Num};
use crate::model::{Body, Checks, Ir, JsonType, NodeId};

use super::empty::{applied, barred_together, no_value, void_types};
use super::text::{no_in_place, only_in_place, own_nothing_but_types, sname};
use super::validate::{bound, json_text, limit, limit_in, pname, vname};

/// Levels followed value by value; deeper values are judged when their level-`MAX_LEVELS - 1`
/// ancestor closes.
pub const MAX_LEVELS: usize = 16;

/// Levels given beyond the schema's depth where a value at its last tracked level may hold an
/// array or object that no subschema speaks of (a free-form argument: `{}`, `true`, an
/// undeclared member): such a value gets a frame too, so that its keys, and those of the
/// objects directly inside it, are compared as they close.
const FREE_LEVELS: usize = 2;

/// Names an object node may follow by bits.
const MAX_NAMES: usize = 128;

/// `patternProperties` an object node may follow by bits.
const MAX_PATTERNS: usize = 64;

/// `enum` strings followed character by character.
const MAX_STRINGS: usize = 128;

/// The capacity of the automaton: slots `S` and tracked levels `D`.
#[must_use]
pub fn capacity(ir: &Ir) -> (usize, usize) {
    if ir.nodes.len() >= usize::from(u16::MAX) {
        return (1, 1);
    }
    let mut values = closure(ir, [ir.root]);
    let mut keys = BTreeSet::new();
    // The nodes of the patterns closed objects step on their keys ([`AddedNodes::keys`]).
    let mut key_extra = 0;
    let (mut slots, mut levels) = (0, 0);
    // The levels that containers no subschema speaks of need (see `FREE_LEVELS`).
    let mut free_levels = 0;
    // The nodes of `enum`/`const` members ([`AddedNodes`]) at each level to come.
    let mut members: Vec<usize> = Vec::new();
    while levels < MAX_LEVELS {
        for &n in &values {
            let Body::Checks(c) = &ir.node(n).body else { continue };
            for (d, k) in followed_members(c).and_then(|m| member_levels(&m)).into_iter().flatten().enumerate() {
                if members.len() <= levels + d {
                    members.resize(levels + d + 1, 0);
                }
                if let Some(x) = members.get_mut(levels + d) {
                    *x += k;
                }
            }
        }
        let size = values.len().max(keys.len() + key_extra) + members.get(levels).copied().unwrap_or(0);
        if size == 0 {
            break;
        }
        slots += size;
        levels += 1;
        if values.iter().any(|&n| holds_free(ir, n)) {
            free_levels = levels + FREE_LEVELS;
        }
        let (mut next, mut next_keys) = (Vec::new(), Vec::new());
        key_extra = 0;
        for &n in &values {
            if let Body::Checks(c) = &ir.node(n).body {
                key_extra += key_patterns(ir, n).map_or(0, key_nodes);
                if members_followed(c) {
                    next.extend(c.properties.iter().map(|p| p.node));
                    next.extend(c.additional);
                    if c.additional.is_none() && evaluated_names(ir, n).is_some() {
                        next.extend(c.unevaluated_properties);
                    }
                    next.extend(c.pattern_properties.iter().map(|p| p.1));
                    next_keys.extend(c.property_names);
                }
                next.extend(c.prefix_items.iter().copied());
                next.extend(c.items);
                if c.items.is_none() && evaluated_items(ir, n).is_some() {
                    next.extend(c.unevaluated_items);
                }
                next.extend(c.contains);
            }
        }
        values = closure(ir, next);
        keys = closure(ir, next_keys);
    }
    (slots.max(1), levels.max(free_levels).clamp(1, MAX_LEVELS))
}

/// `ids` and every subschema they apply in place, without those that accept everything.
fn closure(ir: &Ir, ids: impl IntoIterator<Item = NodeId>) -> BTreeSet<NodeId> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<NodeId> = ids.into_iter().collect();
    while let Some(n) = todo.pop() {
        match &ir.node(n).body {
            Body::Always => {}
            Body::Never => {
                out.insert(n);
            }
            Body::Checks(c) => {
                if out.insert(n) {
                    todo.extend(c.in_place());
                }
            }
        }
    }
    out
}

/// What the automaton applies in place for node `n`, as the emitted tables say (`then`/`else`
/// only beside `if`, `dependentSchemas` only where members are followed): `n` first, then the
/// rest in the order first reached, without the nodes that accept everything.
fn emitted_closure(ir: &Ir, n: NodeId) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::new();
    let mut todo = vec![n];
    while let Some(x) = todo.pop() {
        if out.contains(&x) {
            continue;
        }
        match &ir.node(x).body {
            Body::Always => {}
            Body::Never => out.push(x),
            Body::Checks(c) => {
                out.push(x);
                let mut next: Vec<NodeId> = c.reference.iter().map(|r| r.value.1).collect();
                next.extend(c.all_of.iter().chain(&c.any_of).chain(&c.one_of).copied());
                next.extend(c.not);
                if c.if_.is_some() {
                    next.extend(c.if_.iter().chain(&c.then_).chain(&c.else_).copied());
                }
                if members_followed(c) {
                    next.extend(c.dependent_schemas.iter().map(|d| d.1));
                }
                todo.extend(next.into_iter().rev());
            }
        }
    }
    out
}

/// The names an object node follows: `properties`, then the other names its keywords use.
fn names(c: &Checks) -> Vec<&str> {
    let mut out: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
    let others = c
        .required
        .iter()
        .map(|r| r.0.as_str())
        .chain(
            c.dependent_required
                .iter()
                .flat_map(|(k, v)| std::iter::once(k.as_str()).chain(v.iter().map(String::as_str))),
        )
        .chain(c.dependent_schemas.iter().map(|(k, _)| k.as_str()));
    for n in others {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Where node `n`'s `unevaluatedProperties` (not `true`) takes the members of its objects as
/// `additionalProperties` would (`false`: closes them): nothing but `properties` (and `n`'s own
/// `patternProperties`) evaluates names, in `n` and in every subschema it applies in place
/// (`not` aside: its subschema's annotations never count), none of which has
/// `additionalProperties`, and none but `n` `patternProperties` or `unevaluatedProperties`. Then
/// a key that none of them declares (and none of `n`'s patterns matches) is unevaluated whatever
/// holds, and these are the names they declare.
fn evaluated_names(ir: &Ir, n: NodeId) -> Option<Vec<&str>> {
    let Body::Checks(c) = &ir.node(n).body else { return None };
    if c.unevaluated_properties.is_none_or(|u| matches!(ir.node(u).body, Body::Always)) {
        return None;
    }
    let mut out: Vec<&str> = Vec::new();
    for x in in_place_but_not(ir, n) {
        let Body::Checks(d) = &ir.node(x).body else { continue };
        let other = x != n;
        if d.additional.is_some()
            || (other && !d.pattern_properties.is_empty())
            || (other && d.unevaluated_properties.is_some())
        {
            return None;
        }
        for p in &d.properties {
            if !out.contains(&p.name.as_str()) {
                out.push(&p.name);
            }
        }
    }
    Some(out)
}

/// [`evaluated_names`] where the stream program follows them: with the node's own `names`, at
/// most [`MAX_NAMES`].
fn followed_evaluated_names<'a>(ir: &'a Ir, n: NodeId, names: &[&str]) -> Option<Vec<&'a str>> {
    evaluated_names(ir, n).filter(|ev| {
        let more = ev.iter().filter(|x| !names.contains(x)).count();
        names.len() + more <= MAX_NAMES
    })
}

/// How many `patternProperties` a closed object node has, whose automata the stream program
/// steps on its keys ([`AddedNodes::keys`]): a key dies where no declared name continues it and
/// none of them can match it any more. `None` where the emitted node is not closed
/// ([`Node::closed`]: `additionalProperties: false`, or an `unevaluatedProperties: false` that
/// only `properties` let through) or has no `patternProperties`.
fn key_patterns(ir: &Ir, n: NodeId) -> Option<usize> {
    let Body::Checks(c) = &ir.node(n).body else { return None };
    if !members_followed(c) || c.pattern_properties.is_empty() {
        return None;
    }
    let closed = match c.additional {
        Some(a) => no_value(ir, a),
        None => {
            c.unevaluated_properties.is_some_and(|u| no_value(ir, u))
                && followed_evaluated_names(ir, n, &names(c)).is_some()
        }
    };
    closed.then_some(c.pattern_properties.len())
}

/// How many nodes [`AddedNodes::keys`] writes for `patterns` ([`key_patterns`]).
fn key_nodes(patterns: usize) -> usize {
    patterns + usize::from(patterns > 1)
}

/// Where node `n`'s `unevaluatedItems` (not `true`) takes the items of its arrays as `items`
/// after `prefixItems` would (`false`: bounds them): nothing but `prefixItems` evaluates items,
/// in `n` and in every subschema it applies in place (`not` aside), none of which has `items`,
/// `additionalItems`, `contains` or (but `n`) `unevaluatedItems`. Then an item past the longest
/// of those `prefixItems` is unevaluated whatever holds, and this is that length.
fn evaluated_items(ir: &Ir, n: NodeId) -> Option<u64> {
    let Body::Checks(c) = &ir.node(n).body else { return None };
    if c.unevaluated_items.is_none_or(|u| matches!(ir.node(u).body, Body::Always)) {
        return None;
    }
    let mut longest = 0;
    for x in in_place_but_not(ir, n) {
        let Body::Checks(d) = &ir.node(x).body else { continue };
        if d.items.is_some()
            || d.additional_items.is_some()
            || d.contains.is_some()
            || (x != n && d.unevaluated_items.is_some())
        {
            return None;
        }
        longest = longest.max(d.prefix_items.len());
    }
    Some(longest as u64)
}

/// Node `n` and every subschema it applies in place whose annotations may count (all but what
/// `not` applies): those whose evaluated members and items `unevaluated*` looks at.
fn in_place_but_not(ir: &Ir, n: NodeId) -> BTreeSet<NodeId> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![n];
    while let Some(x) = todo.pop() {
        let Body::Checks(d) = &ir.node(x).body else { continue };
        if !seen.insert(x) {
            continue;
        }
        todo.extend(d.annotating());
    }
    seen
}

/// For each byte offset, the bytes that `names` have there (ascending) with the bits of the names
/// that have it: narrowing the candidates by one byte is one lookup (`names` has at most 128).
fn byte_table(names: &[&str]) -> TokenStream {
    let mut rows: Vec<std::collections::BTreeMap<u8, u128>> = Vec::new();
    for (i, n) in names.iter().enumerate().take(128) {
        for (k, &b) in n.as_bytes().iter().enumerate() {
            if rows.len() <= k {
                rows.push(std::collections::BTreeMap::new());
            }
            if let Some(row) = rows.get_mut(k) {
                *row.entry(b).or_insert(0) |= 1u128 << i;
            }
        }
    }
    let rows = rows.iter().map(|row| {
        let entries = row.iter().map(|(b, m)| quote!((#b, #m)));
        quote!(&[#(#entries),*])
    });
    quote!(&[#(#rows),*])
}

/// How many string members `enum` or `const` has (`None` without either).
fn enum_strings(c: &Checks) -> Option<usize> {
    let is_str = |v: &JsonValue| matches!(v, JsonValue::String(_));
    match (&c.enum_values, &c.const_value) {
        (Some(e), _) => Some(e.value.iter().filter(|(v, _)| is_str(v)).count()),
        (None, Some(v)) => Some(usize::from(is_str(&v.value))),
        (None, None) => None,
    }
}

/// Most values the stream program writes for one subschema's `enum`/`const` of arrays and
/// objects ([`followed_members`]).
const MAX_MEMBER_VALUES: usize = 512;

/// The members of a subschema's `enum` or `const` that the automaton follows value by value, as
/// a subschema that holds exactly them ([`AddedNodes`]): its `const`, else its `enum`'s members,
/// where one of them is an array or an object, with at most [`MAX_MEMBER_VALUES`] values in all,
/// 16 levels deep and 128 names an object. `None`: no such members (the `enum`'s strings and
/// numbers are followed otherwise), or judged where the value closes.
pub(super) fn followed_members(c: &Checks) -> Option<Vec<&JsonValue>> {
    let members: Vec<&JsonValue> = match (&c.const_value, &c.enum_values) {
        (Some(k), _) => vec![&k.value],
        (None, Some(e)) => e.value.iter().map(|m| &m.0).collect(),
        (None, None) => return None,
    };
    if !members.iter().any(|v| matches!(v, JsonValue::Array(_) | JsonValue::Object(_))) {
        return None;
    }
    member_levels(&members).filter(|l| l.iter().sum::<usize>() <= MAX_MEMBER_VALUES).map(|_| members)
}

/// How many nodes [`AddedNodes::members`] writes for `members` at each level below the value
/// (its `anyOf` and the members themselves at level 0); `None` past 16 levels or 128 names.
fn member_levels(members: &[&JsonValue]) -> Option<Vec<usize>> {
    fn walk(v: &JsonValue, depth: usize, out: &mut Vec<usize>) -> Option<()> {
        if depth > 16 {
            return None;
        }
        if out.len() <= depth {
            out.resize(depth + 1, 0);
        }
        *out.get_mut(depth)? += 1;
        match v {
            JsonValue::Array(items) => items.iter().try_for_each(|i| walk(&i.value, depth + 1, out)),
            JsonValue::Object(ms) if ms.len() <= 128 => {
                ms.iter().try_for_each(|m| walk(&m.value.value, depth + 1, out))
            }
            JsonValue::Object(_) => None,
            _ => Some(()),
        }
    }
    let mut out = vec![usize::from(members.len() > 1)];
    for v in members {
        walk(v, 0, &mut out)?;
    }
    Some(out)
}

/// The stream nodes the macro adds after the schema's own (and the tagged unions'), numbered
/// from `base`. Those that hold exactly the members of an `enum` or `const` ([`followed_members`]):
/// an object of its properties, all required and no other (a key that no name continues dies at
/// once); an array of its items, no more, no fewer; a string, number or literal as an `enum` of
/// one (a number is watched against it, and judged where it ends: the member or not); several
/// members, an `anyOf` of them. And the patterns closed objects step on their keys
/// ([`AddedNodes::keys`]).
struct AddedNodes<'a> {
    p: &'a TokenStream,
    base: usize,
    nodes: Vec<TokenStream>,
}

impl AddedNodes<'_> {
    fn next_id(&self) -> u16 {
        u16::try_from(self.base + self.nodes.len()).unwrap_or(u16::MAX - 1)
    }

    /// The node that holds exactly `v`.
    fn value(&mut self, v: &JsonValue) -> u16 {
        let (me, p) = (self.next_id(), self.p);
        self.nodes.push(TokenStream::new());
        let body = match v {
            JsonValue::Null => quote!(types: 1, enum_types: 1, literals: 1, scalar: 1),
            JsonValue::Bool(b) => {
                let literal: u8 = if *b { 2 } else { 4 };
                quote!(types: 2, enum_types: 2, literals: #literal, scalar: 2)
            }
            JsonValue::Number(x) => {
                let numbers = watched_numbers(&[v]).filter(|n| !n.is_empty()).map(|n| {
                    let n = number_members(&n, p);
                    quote!(numbers: #n,)
                });
                // Judged where it ends: the member or not.
                let l = limit_in(x, p);
                quote!(types: 12, enum_types: 12, #numbers scalar: 0, scan: |sc| #p::stream_scan_number_is(sc, #l))
            }
            JsonValue::String(x) => {
                let tab = byte_table(&[x.as_str()]);
                quote!(types: 16, enum_types: 16, scalar: 16, strings: ::core::option::Option::Some(&[#x]), string_bytes: #tab)
            }
            JsonValue::Array(items) => {
                let ids: Vec<u16> = items.iter().map(|i| self.value(&i.value)).collect();
                let n = items.len() as u64;
                quote!(types: 32, prefix: &[#(#ids),*], min_items: #n, max_items: #n)
            }
            JsonValue::Object(ms) => {
                let names: Vec<&str> = ms.iter().map(|m| m.key.as_str()).collect();
                let ids: Vec<u16> = ms.iter().map(|m| self.value(&m.value.value)).collect();
                let (tab, bits) = (byte_table(&names), (0..names.len()).fold(0u128, |a, i| a | 1u128 << i));
                quote!(types: 64, names: &[#(#names),*], name_bytes: #tab, props: &[#(#ids),*], required: #bits, closed: true, keys: #bits)
            }
        };
        let node = quote!(#p::StreamNode { always: false, #body, closure: &[#me], ..#p::StreamNode::ALWAYS });
        if let Some(slot) = self.nodes.get_mut(usize::from(me).saturating_sub(self.base)) {
            *slot = node;
        }
        me
    }

    /// The node whose value is one of `members` (the one member's, or an `anyOf` of theirs), and
    /// what it applies in place.
    fn members(&mut self, members: &[&JsonValue]) -> (u16, Vec<u16>) {
        self.any_of(members, |me, v| me.value(v))
    }

    /// The node whose strings are exactly the keys one of `patterns` (each its static and
    /// source) matches: the one pattern's, or an `anyOf` of theirs ([`key_patterns`]).
    fn keys(&mut self, patterns: &[(proc_macro2::Ident, &str)]) -> u16 {
        let p = self.p;
        self.any_of(patterns, |me, (name, src)| {
            let id = me.next_id();
            me.nodes.push(quote! {
                #p::StreamNode {
                    always: false, types: 16, scalar: 16,
                    pattern: ::core::option::Option::Some((&#name, #src)),
                    closure: &[#id], ..#p::StreamNode::ALWAYS
                }
            });
            id
        })
        .0
    }

    /// The node of `one` written for the one of `xs`, or an `anyOf` of those written for each;
    /// and what it applies in place.
    fn any_of<T>(&mut self, xs: &[T], mut one: impl FnMut(&mut Self, &T) -> u16) -> (u16, Vec<u16>) {
        if let [x] = xs {
            let id = one(self, x);
            return (id, vec![id]);
        }
        let (me, p) = (self.next_id(), self.p);
        self.nodes.push(TokenStream::new());
        let ids: Vec<u16> = xs.iter().map(|x| one(self, x)).collect();
        let closure: Vec<u16> = std::iter::once(me).chain(ids.iter().copied()).collect();
        let node = quote!(#p::StreamNode { always: false, any_of: &[#(#ids),*], closure: &[#(#closure),*], ..#p::StreamNode::ALWAYS });
        if let Some(slot) = self.nodes.get_mut(usize::from(me).saturating_sub(self.base)) {
            *slot = node;
        }
        (me, closure)
    }
}

/// Whether node `n` may take an array or object with a member or item that no subschema speaks
/// of (conservative: any undeclared member or item it does not give a subschema, or one it gives
/// the schema that accepts everything). A node that applies others in place is left to them
/// (they are at the same level: a `oneOf` of closed objects holds nothing free).
fn holds_free(ir: &Ir, n: NodeId) -> bool {
    let Body::Checks(c) = &ir.node(n).body else { return false };
    if c.in_place().next().is_some() {
        return false;
    }
    let k = kinds(ir, n, 0);
    let free = |x: Option<NodeId>| x.is_none_or(|x| matches!(ir.node(x).body, Body::Always));
    let object = k & 32 != 0
        && (free(c.additional)
            || !members_followed(c)
            || c.properties.iter().any(|p| matches!(ir.node(p.node).body, Body::Always)));
    let array = k & 16 != 0 && (free(c.items) || c.prefix_items.iter().any(|&x| free(Some(x))));
    object || array
}

/// Whether the automaton follows an object node's members (else its objects are judged when
/// they close).
pub(super) fn members_followed(c: &Checks) -> bool {
    names(c).len() <= MAX_NAMES && c.pattern_properties.len() <= MAX_PATTERNS
}

pub(super) fn type_bits(t: JsonType) -> u8 {
    match t {
        JsonType::Null => 1,
        JsonType::Boolean => 2,
        JsonType::Integer => 4,
        JsonType::Number => 4 | 8,
        JsonType::String => 16,
        JsonType::Array => 32,
        JsonType::Object => 64,
    }
}

pub(super) fn value_bits(v: &JsonValue) -> u8 {
    match v {
        JsonValue::Null => 1,
        JsonValue::Bool(_) => 2,
        JsonValue::Number(_) => 4 | 8,
        JsonValue::String(_) => 16,
        JsonValue::Array(_) => 32,
        JsonValue::Object(_) => 64,
    }
}

/// How the lean automaton reads each node (`toolgate::__private::stream_shape`).
pub(super) mod shape {
    pub const GENERAL: u8 = 0;
    pub const PLAIN: u8 = 1;
    pub const REF: u8 = 2;
    pub const UNION: u8 = 3;
}

/// The kinds of JSON value (bits: null, boolean, number, string, array, object) that node `n`
/// can take at their first byte: its `type`, `enum` and `const`, through `$ref`s and unions.
pub(super) fn kinds(ir: &Ir, n: NodeId, depth: u32) -> u8 {
    const ALL: u8 = 63;
    let of_type = |t: &JsonType| match t {
        JsonType::Null => 1,
        JsonType::Boolean => 2,
        JsonType::Integer | JsonType::Number => 4,
        JsonType::String => 8,
        JsonType::Array => 16,
        JsonType::Object => 32,
    };
    let of_value = |v: &JsonValue| match v {
        JsonValue::Null => 1,
        JsonValue::Bool(_) => 2,
        JsonValue::Number(_) => 4,
        JsonValue::String(_) => 8,
        JsonValue::Array(_) => 16,
        JsonValue::Object(_) => 32,
    };
    let c = match &ir.node(n).body {
        Body::Always => return ALL,
        Body::Never => return 0,
        Body::Checks(c) => c,
    };
    let mut k = ALL;
    if let Some(t) = c.type_list() {
        k &= t.iter().fold(0, |a, t| a | of_type(t));
    }
    if let Some(e) = &c.enum_values {
        k &= e.value.iter().fold(0, |a, (v, _)| a | of_value(v));
    }
    if let Some(v) = &c.const_value {
        k &= of_value(&v.value);
    }
    if depth < 16 {
        if let Some(r) = &c.reference {
            k &= kinds(ir, r.value.1, depth + 1);
        }
        for &x in &c.all_of {
            k &= kinds(ir, x, depth + 1);
        }
        for branches in [&c.any_of, &c.one_of] {
            if !branches.is_empty() {
                k &= branches.iter().fold(0, |a, &x| a | kinds(ir, x, depth + 1));
            }
        }
    }
    k
}

/// How the lean automaton reads node `n`: plain (its own keywords only), a `$ref` alone, a
/// union whose branches take pairwise different kinds of value, or not at all.
pub(super) fn shape_of(ir: &Ir, n: NodeId) -> u8 {
    let c = match &ir.node(n).body {
        Body::Always | Body::Never => return shape::PLAIN,
        Body::Checks(c) => c,
    };
    let in_place = c.reference.is_some()
        || !c.all_of.is_empty()
        || !c.any_of.is_empty()
        || !c.one_of.is_empty()
        || c.not.is_some()
        || c.if_.is_some()
        || !c.dependent_schemas.is_empty();
    if !in_place {
        let own = c.pattern_properties.is_empty()
            && c.property_names.is_none()
            && c.contains.is_none()
            && followed_members(c).is_none();
        return if own { shape::PLAIN } else { shape::GENERAL };
    }
    if !only_in_place(c) || c.not.is_some() || c.if_.is_some() {
        return shape::GENERAL;
    }
    let refs = usize::from(c.reference.is_some()) + c.all_of.len();
    let branches = match (refs, c.any_of.as_slice(), c.one_of.as_slice()) {
        (1, [], []) => return shape::REF,
        (0, b, []) | (0, [], b) => b,
        _ => return shape::GENERAL,
    };
    let mut taken = 0u8;
    for &b in branches {
        let k = kinds(ir, b, 0);
        if taken & k != 0 {
            return shape::GENERAL;
        }
        taken |= k;
    }
    shape::UNION
}

/// A tagged union (see the runtime's `Tagged`): the property's name and, per branch, its
/// strings, its object node and the property's index in its names.
pub(super) struct Tag<'a> {
    pub(super) name: &'a str,
    pub(super) branches: Vec<(Vec<&'a str>, NodeId, usize)>,
}

/// The strings of a subschema that is only an `enum` or a `const` of strings, perhaps with a
/// `type` that allows strings.
pub(super) fn tag_strings(ir: &Ir, n: NodeId) -> Option<Vec<&str>> {
    let Body::Checks(c) = &ir.node(n).body else { return None };
    let mut rest = c.clone();
    let (members, types) = (rest.enum_values.take(), rest.types.take());
    let one = rest.const_value.take();
    if !(own_nothing_but_types(&rest) && no_in_place(&rest))
        || types.is_some_and(|t| !t.value.contains(&JsonType::String))
    {
        return None;
    }
    let values: Vec<&JsonValue> = match (members, one) {
        (Some(_), None) => c.enum_values.iter().flat_map(|e| e.value.iter().map(|m| &m.0)).collect(),
        (None, Some(_)) => c.const_value.iter().map(|v| &v.value).collect(),
        _ => return None,
    };
    let strings: Vec<&str> =
        values.iter().filter_map(|v| if let JsonValue::String(s) = v { Some(s.as_str()) } else { None }).collect();
    (!strings.is_empty() && strings.len() == values.len()).then_some(strings)
}

/// Node `n`, or the node it stands for through `$ref`s (and one-schema `allOf`s) alone.
fn through_refs(ir: &Ir, shapes: &[u8], n: NodeId) -> NodeId {
    let mut t = n;
    for _ in 0..16 {
        match (&ir.node(t).body, shapes.get(t).copied()) {
            (Body::Checks(c), Some(shape::REF)) => {
                match c.reference.as_ref().map(|r| r.value.1).or(c.all_of.first().copied()) {
                    Some(next) => t = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    t
}

/// Node `n` as a tagged union, if it is one, or stands for one through `$ref`s (`shapes`: how
/// the lean automaton reads each node).
pub(super) fn tag_of<'a>(ir: &'a Ir, shapes: &[u8], n: NodeId) -> Option<Tag<'a>> {
    let Body::Checks(c) = &ir.node(through_refs(ir, shapes, n)).body else { return None };
    let branches = match (c.any_of.as_slice(), c.one_of.as_slice()) {
        (b, []) | ([], b) if b.len() >= 2 => b,
        _ => return None,
    };
    // Nothing else but perhaps a `type` that allows objects.
    let mut rest = c.clone();
    if rest.types.take().is_some_and(|t| !t.value.contains(&JsonType::Object))
        || !only_in_place(&rest)
        || c.reference.is_some()
        || !c.all_of.is_empty()
        || c.not.is_some()
        || c.if_.is_some()
    {
        return None;
    }
    // Each branch through `$ref`s alone to a plain object node.
    let mut objects = Vec::new();
    for &b in branches {
        let t = through_refs(ir, shapes, b);
        let Body::Checks(tc) = &ir.node(t).body else { return None };
        let plain = shapes.get(t).copied() == Some(shape::PLAIN)
            && members_followed(tc)
            && names(tc).len() <= 64
            && tc.max_properties.as_ref().is_none_or(|m| m.value >= 1)
            && tc.type_list().is_none_or(|l| l.contains(&JsonType::Object));
        if !plain {
            return None;
        }
        objects.push((t, tc));
    }
    let (_, first) = objects.first()?;
    'names: for p in &first.properties {
        let mut out = Vec::new();
        let mut all: Vec<&str> = Vec::new();
        for (t, tc) in &objects {
            let Some(i) = tc.properties.iter().position(|q| q.name == p.name) else { continue 'names };
            let Some(strings) = tc.properties.get(i).and_then(|q| tag_strings(ir, q.node)) else { continue 'names };
            if strings.iter().any(|s| all.contains(s)) {
                continue 'names;
            }
            all.extend(&strings);
            out.push((strings, *t, i));
        }
        return Some(Tag { name: p.name.as_str(), branches: out });
    }
    None
}

/// Which automaton streams a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Automaton {
    /// the general one (`Machine`): the root value itself has several subschemas
    General,
    /// the lean one, with one subschema for every value (`Lean`)
    Lean,
    /// the lean one, handing the values that several subschemas speak of to the general one
    /// (`Lean<S, D, Machine<S, D>>`)
    LeanDelegating,
}

/// Whether a value under node `n` gets one subschema from its first byte, whatever its kind:
/// through `$ref`s and unions told apart by kind, never reaching a node that needs the general
/// automaton.
fn single(ir: &Ir, shapes: &[u8], n: NodeId, depth: u32) -> bool {
    let Body::Checks(c) = &ir.node(n).body else { return true };
    match shapes.get(n).copied().unwrap_or(shape::GENERAL) {
        shape::PLAIN => true,
        _ if depth > 16 => false,
        shape::REF => c
            .reference
            .iter()
            .map(|r| r.value.1)
            .chain(c.all_of.iter().copied())
            .all(|t| single(ir, shapes, t, depth + 1)),
        shape::UNION => c.any_of.iter().chain(&c.one_of).all(|&b| single(ir, shapes, b, depth + 1)),
        _ => false,
    }
}

/// Which automaton streams the schema (`shapes`: how the lean one reads each node).
fn automaton(ir: &Ir, shapes: &[u8]) -> Automaton {
    if !single(ir, shapes, ir.root, 0) {
        return Automaton::General;
    }
    let mut seen = vec![false; ir.nodes.len()];
    let mut todo = vec![ir.root];
    while let Some(n) = todo.pop() {
        match seen.get_mut(n) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        if shapes.get(n).copied().unwrap_or(shape::GENERAL) == shape::GENERAL {
            return Automaton::LeanDelegating;
        }
        if let Body::Checks(c) = &ir.node(n).body {
            todo.extend(c.properties.iter().map(|p| p.node));
            todo.extend(c.additional);
            todo.extend(c.unevaluated_properties);
            todo.extend(c.prefix_items.iter().copied());
            todo.extend(c.items);
            todo.extend(c.unevaluated_items);
            todo.extend(c.reference.iter().map(|r| r.value.1));
            todo.extend(c.all_of.iter().chain(&c.any_of).chain(&c.one_of).copied());
        }
    }
    Automaton::Lean
}

/// Numbers of an `enum` or `const` a stream watches a number against as its bytes come.
const MAX_NUMBERS: usize = 64;

/// The numbers among `members` (an `enum`'s, or a `const`) when a stream watches a number
/// against them as its bytes come: `None` where there are more than [`MAX_NUMBERS`] (such a
/// number is judged where it ends).
pub(super) fn watched_numbers<'a>(members: &[&'a JsonValue]) -> Option<Vec<&'a Num>> {
    let numbers: Vec<&Num> =
        members.iter().filter_map(|v| if let JsonValue::Number(x) = v { Some(x) } else { None }).collect();
    (numbers.len() <= MAX_NUMBERS).then_some(numbers)
}

/// `numbers` as `NumMember`s (`[]` when one cannot be written: then no number is watched). A
/// member beyond the `f64` range is no number's value: left out.
pub(super) fn number_members(numbers: &[&Num], p: &TokenStream) -> TokenStream {
    let member = |n: &Num| -> Option<TokenStream> {
        let v = n.as_f64();
        let negative = v < 0.0;
        Some(if v == 0.0 {
            quote!(#p::NumMember::Zero)
        } else if v.abs() < f64::MIN_POSITIVE {
            quote!(#p::NumMember::Tiny { negative: #negative })
        } else {
            // `{:e}`: the shortest form that reads back as `v` (`1.5e3`).
            let text = format!("{:e}", v.abs());
            let (lead, scale) = text.split_once('e')?;
            let lead = proc_macro2::Literal::f64_suffixed(lead.parse().ok()?);
            let scale = proc_macro2::Literal::i32_suffixed(scale.parse().ok()?);
            let value = limit_in(n, p);
            quote!(#p::NumMember::Normal { negative: #negative, lead: #lead, scale: #scale, value: #value })
        })
    };
    let members = numbers.iter().filter(|n| n.as_f64().is_finite()).map(|&n| member(n)).collect::<Option<Vec<_>>>();
    let members = members.unwrap_or_default();
    // (A static: a member that is no integer is written with `f64::from_bits`, which a reference
    // to a temporary would not make `'static`.)
    quote!({ static NUMBERS: &[#p::NumMember] = &[#(#members),*]; NUMBERS })
}

/// The bounds of `c` (`minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`) as a slice of
/// `Bound`s, against which a stream judges a number where its exponent settles them (`None`: it
/// has none).
pub(super) fn limits(c: &Checks, k: &TokenStream) -> Option<TokenStream> {
    limits_of(&[c], k)
}

/// [`limits`] of several subschemas' keywords together.
fn limits_of(cs: &[&Checks], k: &TokenStream) -> Option<TokenStream> {
    let p = quote!(#k::__private);
    let all = cs.iter().flat_map(|c| {
        [
            (&c.minimum, false, false),
            (&c.exclusive_minimum, true, false),
            (&c.maximum, false, true),
            (&c.exclusive_maximum, true, true),
        ]
    });
    let bounds: Vec<TokenStream> = all
        .filter_map(|(kw, exclusive, upper)| {
            let kw = kw.as_ref()?;
            let (value, text) = (limit(&kw.value, k), kw.value.text());
            Some(quote!(#p::StreamBound { limit: #value, text: #text, exclusive: #exclusive, upper: #upper }))
        })
        .collect();
    // (A static: a limit that is no integer is written with `f64::from_bits`, which a reference
    // to a temporary would not make `'static`.)
    (!bounds.is_empty()).then(|| quote!({ static LIMITS: &[#p::StreamBound] = &[#(#bounds),*]; LIMITS }))
}

/// The subschemas node `n` applies whatever the value ([`applied`]) that have bounds, 8 at
/// most: every bound among them holds of a number `n` takes, so the automaton judges them
/// together where an exponent settles them (a range split across `allOf` parts, `{"allOf":
/// [{"minimum": 20}, {"maximum": 30}]}`, is left where the exponent jumps over it). Its own
/// first.
fn applied_bounds(ir: &Ir, n: NodeId) -> Vec<&Checks> {
    let bounded = |c: &&Checks| {
        c.minimum.is_some() || c.exclusive_minimum.is_some() || c.maximum.is_some() || c.exclusive_maximum.is_some()
    };
    applied(ir, n).into_iter().filter(bounded).take(8).collect()
}

/// A subschema's `multipleOf` as the automaton watches it (`Option<StreamMultiple>`; `None`
/// where it has none).
pub(super) fn multiple(c: &Checks, k: &TokenStream) -> Option<TokenStream> {
    let p = quote!(#k::__private);
    let m = c.multiple_of.as_ref()?;
    let (mantissa, exponent) = m.value.decimal()?;
    let text = m.value.text();
    Some(quote!(::core::option::Option::Some(#p::StreamMultiple {
        divisor: #p::Decimal { mantissa: #mantissa, exponent: #exponent },
        text: #text,
    })))
}

/// The program (an expression of type `Program`, the value of the `Tool::__PROGRAM` constant:
/// evaluated, and its functions generated, only in a crate that streams), the capacity `(S, D)`,
/// and the automaton that streams it.
#[must_use]
pub fn program(ir: &Ir, k: &TokenStream) -> (TokenStream, usize, usize, Automaton) {
    let p = quote!(#k::__private);
    let (slots, levels) = capacity(ir);
    if ir.nodes.len() >= usize::from(u16::MAX) {
        // Too many subschemas to name with `u16`: one node that judges the root when it closes.
        let (scan, check) = (sname(ir, ir.root), vname(ir, ir.root));
        return (
            quote! {
                #p::Program {
                    root: 0,
                    never: false,
                    decides: false,
                    nodes: &[#p::StreamNode { always: false, lookback: true, scan: #scan, check: |x, at, c| #check(x, at, c), ..#p::StreamNode::ALWAYS }],
                }
            },
            1,
            1,
            Automaton::General,
        );
    }
    let shapes: Vec<u8> = (0..ir.nodes.len()).map(|n| shape_of(ir, n)).collect();
    // Tagged unions, each with two more nodes after the schema's: the `enum` of its strings
    // and the object of its property alone.
    let mut tags: Vec<(NodeId, Tag<'_>)> =
        (0..ir.nodes.len()).filter_map(|n| Some((n, tag_of(ir, &shapes, n)?))).collect();
    if ir.nodes.len() + 2 * tags.len() >= usize::from(u16::MAX) {
        tags.clear();
    }
    let id = |n: NodeId| -> u16 { u16::try_from(n).unwrap_or(u16::MAX - 1) };
    let opt = |n: Option<NodeId>| -> u16 { n.map_or(u16::MAX, id) };
    // `enum`/`const` members followed value by value: their nodes after the tagged unions'.
    let mut added = AddedNodes { p: &p, base: ir.nodes.len() + 2 * tags.len(), nodes: Vec::new() };
    let mut members_of: Vec<Option<(u16, Vec<u16>)>> = vec![None; ir.nodes.len()];
    for (n, node) in ir.nodes.iter().enumerate() {
        let Body::Checks(c) = &node.body else { continue };
        let Some(m) = followed_members(c) else { continue };
        let total: usize = member_levels(&m).map_or(0, |l| l.iter().sum());
        if added.base + added.nodes.len() + total >= usize::from(u16::MAX) {
            break;
        }
        if let Some(slot) = members_of.get_mut(n) {
            *slot = Some(added.members(&m));
        }
    }
    // The patterns of closed objects, stepped on their keys: their nodes after those.
    let mut keys_of: Vec<Option<u16>> = vec![None; ir.nodes.len()];
    for n in 0..ir.nodes.len() {
        let (Some(k), Body::Checks(c)) = (key_patterns(ir, n), &ir.node(n).body) else { continue };
        if added.base + added.nodes.len() + key_nodes(k) >= usize::from(u16::MAX) {
            break;
        }
        let offset = usize::from(c.stepped_pattern().is_some());
        let patterns: Vec<(proc_macro2::Ident, &str)> = c
            .pattern_properties
            .iter()
            .enumerate()
            .map(|(j, (pat, _))| (pname(ir, n, j + offset), pat.source.as_str()))
            .collect();
        if let Some(slot) = keys_of.get_mut(n) {
            *slot = Some(added.keys(&patterns));
        }
    }
    let decides = decider_flags(ir);
    let mut nodes = Vec::new();
    for (n, node) in ir.nodes.iter().enumerate() {
        let scan = sname(ir, n);
        let check = vname(ir, n);
        let explain = quote!(check: |x, at, c| #check(x, at, c));
        let c = match &node.body {
            Body::Always => {
                nodes.push(quote!(#p::StreamNode::ALWAYS));
                continue;
            }
            Body::Never => {
                let me = id(n);
                let plain = shape::PLAIN;
                nodes.push(quote! {
                    #p::StreamNode { always: false, never: true, none: true, scan: #scan, #explain, closure: &[#me], shape: #plain, ..#p::StreamNode::ALWAYS }
                });
                continue;
            }
            Body::Checks(c) => c,
        };
        let mut fields = Vec::new();
        if decides.get(n).copied().unwrap_or(false) {
            fields.push(quote!(decides: true));
        }
        if no_value(ir, n) {
            fields.push(quote!(none: true));
        } else {
            let void = void_types(ir, n);
            if void != 0 {
                fields.push(quote!(void: #void));
            }
        }
        if let Some(t) = c.type_list() {
            let bits = t.iter().fold(0u8, |a, t| a | type_bits(*t));
            fields.push(quote!(types: #bits));
        }
        // `enum` / `const`.
        let enum_members: Option<Vec<&JsonValue>> =
            c.enum_values.as_ref().map(|e| e.value.iter().map(|x| &x.0).collect());
        let const_member = c.const_value.as_ref().map(|c| &c.value);
        if enum_members.is_some() || const_member.is_some() {
            let mut bits = 127u8;
            if let Some(m) = &enum_members {
                bits &= m.iter().fold(0, |a, v| a | value_bits(v));
            }
            if let Some(v) = const_member {
                bits &= value_bits(v);
            }
            let strings: Vec<&str> = match (&enum_members, const_member) {
                (Some(m), None) => m
                    .iter()
                    .filter_map(|v| if let JsonValue::String(s) = v { Some(s.as_str()) } else { None })
                    .collect(),
                (None, Some(JsonValue::String(s))) => vec![s.as_str()],
                _ => Vec::new(),
            };
            let follow_strings =
                bits & 16 != 0 && (enum_members.is_none() || const_member.is_none()) && strings.len() <= MAX_STRINGS;
            let (text, is_const) = match (&enum_members, const_member) {
                (Some(m), _) => (json_text(m), false),
                (None, Some(v)) => (json_text(&[v]), true),
                (None, None) => (String::new(), false),
            };
            let members: Vec<&JsonValue> =
                enum_members.clone().unwrap_or_default().into_iter().chain(const_member).collect();
            let literal = |v: &JsonValue| match v {
                JsonValue::Null => 1u8,
                JsonValue::Bool(true) => 2,
                JsonValue::Bool(false) => 4,
                _ => 0,
            };
            // With both `enum` and `const`, a literal must be in both.
            let literals = match (&enum_members, const_member) {
                (Some(m), Some(c)) => m.iter().fold(0, |a, v| a | literal(v)) & literal(c),
                _ => members.iter().fold(0, |a, v| a | literal(v)),
            };
            fields.push(quote!(enum_types: #bits, literals: #literals, enum_text: #text, is_const: #is_const));
            if let Some((root, _)) = members_of.get(n).and_then(Option::as_ref) {
                fields.push(quote!(members: #root));
            }
            if let Some(numbers) = watched_numbers(&members).filter(|n| !n.is_empty()) {
                let numbers = number_members(&numbers, &p);
                fields.push(quote!(numbers: #numbers));
            }
            if follow_strings {
                let tab = byte_table(&strings);
                fields.push(quote!(strings: ::core::option::Option::Some(&[#(#strings),*]), string_bytes: #tab));
            }
        }
        if let Some(m) = &c.max_length {
            let v = m.value;
            fields.push(quote!(max_length: #v));
        }
        if let Some(m) = &c.min_length {
            let v = m.value;
            fields.push(quote!(min_length: #v));
        }
        // Which scalars the automaton's own state decides at their close (else: the scan).
        let has_enum = c.enum_values.is_some() || c.const_value.is_some();
        let strings_followed = !has_enum
            || (c.enum_values.is_some() != c.const_value.is_some()
                && enum_strings(c).is_some_and(|n| n <= MAX_STRINGS));
        let mut scalar = 0u8;
        if c.format.is_none() && strings_followed {
            scalar |= 16;
        }
        if !has_enum {
            scalar |= 1 | 2;
        }
        let number_keywords = c.number_keywords();
        let integer_only =
            c.type_list().is_some_and(|t| t.contains(&JsonType::Integer) && !t.contains(&JsonType::Number));
        if !has_enum && !number_keywords && !integer_only {
            scalar |= 4 | 8;
        }
        fields.push(quote!(scalar: #scalar));
        // Numbers whose verdict is their bounds (and integer-ness) only: the automaton decides
        // an integer literal itself.
        if !has_enum && c.multiple_of.is_none() && (number_keywords || integer_only) {
            let (lo, xlo, hi, xhi) = (
                bound(&c.minimum, k),
                bound(&c.exclusive_minimum, k),
                bound(&c.maximum, k),
                bound(&c.exclusive_maximum, k),
            );
            fields.push(quote!(bounds: ::core::option::Option::Some([#lo, #xlo, #hi, #xhi])));
        }
        // Its own bounds, or, where several subschemas it applies in place have some, all of
        // theirs together (one part's alone is that part's slot's to judge).
        let applied = applied_bounds(ir, n);
        if let Some(limits) = if applied.len() > 1 { limits_of(&applied, k) } else { limits(c, k) } {
            fields.push(quote!(limits: #limits));
        }
        if let Some(multiple) = multiple(c, k) {
            fields.push(quote!(multiple: #multiple));
        }
        if let Some(pat) = c.stepped_pattern() {
            let (name, src) = (pname(ir, n, 0), &pat.source);
            fields.push(quote!(pattern: ::core::option::Option::Some((&#name, #src))));
            if let (None, Some(f)) = (&c.pattern, &c.format) {
                // The `format`'s automaton: its death is the `format`'s.
                let f = &f.value;
                fields.push(quote!(pattern_format: ::core::option::Option::Some(#f)));
            }
        }
        let negative = match (&c.minimum, &c.exclusive_minimum) {
            (Some(m), _) if !m.value.is_negative() && !m.value.is_zero() => Some((m.value.text().to_owned(), false)),
            (_, Some(m)) if !m.value.is_negative() || m.value.is_zero() => Some((m.value.text().to_owned(), true)),
            _ => None,
        };
        if let Some((text, exclusive)) = negative {
            fields.push(quote!(negative: ::core::option::Option::Some((#text, #exclusive))));
        }
        // Objects.
        let followed = members_followed(c);
        let mut lookback = c.enum_values.is_some()
            || c.const_value.is_some()
            || c.unique_items
            || c.unevaluated_properties.is_some()
            || c.unevaluated_items.is_some()
            || !followed;
        if c.unique_items {
            // Still judged by the scan function where the array closes; a repeated item is
            // found as it closes too.
            fields.push(quote!(unique: true));
        }
        if followed {
            let mut names = names(c);
            // `unevaluatedProperties: false` that closes the object: the names it lets through
            // are followed too (after the node's own).
            let evaluated = followed_evaluated_names(ir, n, &names);
            for x in evaluated.iter().flatten() {
                if !names.contains(x) {
                    names.push(x);
                }
            }
            // Names that the subschemas applied here bar together (after the others, as many
            // as the table holds): forbidden here, dead where the key closes.
            let mut barred = barred_together(ir, n);
            for x in &barred {
                if !names.contains(x) && names.len() < MAX_NAMES {
                    names.push(x);
                }
            }
            barred.retain(|x| names.contains(x));
            let index = |name: &str| names.iter().position(|x| *x == name).unwrap_or(0);
            let bits =
                |list: &mut dyn Iterator<Item = &str>| -> u128 { list.fold(0u128, |a, x| a | 1u128 << index(x)) };
            if !names.is_empty() {
                let props: Vec<u16> = c.properties.iter().map(|p| id(p.node)).collect();
                let required = bits(&mut c.required.iter().map(|r| r.0.as_str()));
                let forbidden = bits(
                    &mut c
                        .properties
                        .iter()
                        .filter(|p| no_value(ir, p.node))
                        .map(|p| p.name.as_str())
                        .chain(barred.iter().copied()),
                );
                if forbidden != 0 {
                    fields.push(quote!(forbidden: #forbidden));
                }
                let tab = byte_table(&names);
                fields
                    .push(quote!(names: &[#(#names),*], name_bytes: #tab, props: &[#(#props),*], required: #required));
            }
            if let Some(a) = c.additional {
                let closed = no_value(ir, a);
                let keys = bits(&mut c.properties.iter().map(|p| p.name.as_str()));
                let a = id(a);
                fields.push(quote!(additional: #a, closed: #closed, keys: #keys));
            } else if let (Some(ev), Some(u)) = (&evaluated, c.unevaluated_properties) {
                // `unevaluatedProperties` as `additionalProperties` beside the names `ev`.
                let keys = bits(&mut ev.iter().copied());
                if no_value(ir, u) {
                    fields.push(quote!(closed: true, keys: #keys));
                } else {
                    let u = id(u);
                    fields.push(quote!(additional: #u, keys: #keys));
                }
            }
            if !c.pattern_properties.is_empty() {
                let offset = usize::from(c.stepped_pattern().is_some());
                let pats = c.pattern_properties.iter().enumerate().map(|(j, (_, node))| {
                    let (name, node) = (pname(ir, n, j + offset), id(*node));
                    quote!((&#name, #node))
                });
                fields.push(quote!(patterns: &[#(#pats),*]));
            }
            if let Some(pn) = c.property_names {
                let pn = id(pn);
                fields.push(quote!(property_names: #pn));
            }
            if let Some(k) = keys_of.get(n).copied().flatten() {
                fields.push(quote!(key_names: #k));
            }
            if !c.dependent_required.is_empty() {
                let deps = c.dependent_required.iter().map(|(key, need)| {
                    let (key, need) = (index(key) as u8, bits(&mut need.iter().map(String::as_str)));
                    quote!((#key, #need))
                });
                fields.push(quote!(dep_required: &[#(#deps),*]));
            }
            if !c.dependent_schemas.is_empty() {
                let deps = c.dependent_schemas.iter().map(|(key, node)| {
                    let (key, node) = (index(key) as u8, id(*node));
                    quote!((#key, #node))
                });
                fields.push(quote!(dep_schemas: &[#(#deps),*]));
            }
        } else {
            lookback = true;
            if !c.dependent_schemas.is_empty() {
                // Still applied in place (their slots exist), but only decided at the close.
                lookback = true;
            }
        }
        if let Some(m) = &c.min_properties {
            let v = m.value;
            fields.push(quote!(min_props: #v));
        }
        if let Some(m) = &c.max_properties {
            let v = m.value;
            fields.push(quote!(max_props: #v));
        }
        // Arrays.
        let evaluated = evaluated_items(ir, n);
        // `unevaluatedItems` with a schema: the `items` after the longest `prefixItems` (its
        // own, then `NONE`s where only those of the subschemas applied in place reach; past
        // 1,024 of them, judged when the array closes rather than emit so long a table).
        let unevaluated = evaluated.zip(c.unevaluated_items).filter(|&(k, u)| !no_value(ir, u) && k <= 1024);
        let mut prefix: Vec<u16> = c.prefix_items.iter().map(|n| id(*n)).collect();
        if let Some((k, _)) = unevaluated {
            prefix.resize(prefix.len().max(usize::try_from(k).unwrap_or(0)), u16::MAX);
        }
        if !prefix.is_empty() {
            fields.push(quote!(prefix: &[#(#prefix),*]));
        }
        if let Some(i) = c.items.or(unevaluated.map(|(_, u)| u)) {
            let i2 = id(i);
            fields.push(quote!(items: #i2));
        }
        let mut max_items = c.max_items.as_ref().map_or(u64::MAX, |m| m.value);
        // `items` no value satisfies after the prefix, or a prefix item no value satisfies: no
        // more items than come before it.
        let end = c
            .prefix_items
            .iter()
            .position(|&i| no_value(ir, i))
            .or_else(|| c.items.filter(|&i| no_value(ir, i)).map(|_| c.prefix_items.len()));
        if let Some(k) = end.map(|k| k as u64).filter(|&k| k < max_items) {
            max_items = k;
            fields.push(quote!(items_end: true));
        }
        let never = c.unevaluated_items.is_some_and(|u| no_value(ir, u));
        if let Some(k) = evaluated.filter(|&k| never && k < max_items) {
            max_items = k;
            fields.push(quote!(unevaluated_items: true));
        }
        if max_items != u64::MAX {
            fields.push(quote!(max_items: #max_items));
        }
        if let Some(m) = &c.min_items {
            let v = m.value;
            fields.push(quote!(min_items: #v));
        }
        if let Some(ct) = c.contains {
            let ct = id(ct);
            let min = c.min_contains.as_ref().map_or(1, |m| m.value);
            let max = c.max_contains.as_ref().map_or(u64::MAX, |m| m.value);
            fields.push(quote!(contains: #ct, min_contains: #min, max_contains: #max));
        }
        // In place.
        let all: Vec<u16> = c.reference.iter().map(|r| id(r.value.1)).chain(c.all_of.iter().map(|n| id(*n))).collect();
        if !all.is_empty() {
            fields.push(quote!(all_of: &[#(#all),*]));
        }
        if !c.any_of.is_empty() {
            let xs: Vec<u16> = c.any_of.iter().map(|n| id(*n)).collect();
            fields.push(quote!(any_of: &[#(#xs),*]));
        }
        if !c.one_of.is_empty() {
            let xs: Vec<u16> = c.one_of.iter().map(|n| id(*n)).collect();
            fields.push(quote!(one_of: &[#(#xs),*]));
        }
        if c.not.is_some() {
            let x = opt(c.not);
            fields.push(quote!(not: #x));
        }
        if c.if_.is_some() {
            let (i, t, e) = (opt(c.if_), opt(c.then_), opt(c.else_));
            fields.push(quote!(if_: #i, then_: #t, else_: #e));
        }
        let mut closure: Vec<u16> = emitted_closure(ir, n).into_iter().map(id).collect();
        closure.extend(members_of.get(n).and_then(Option::as_ref).into_iter().flat_map(|m| m.1.iter().copied()));
        fields.push(quote!(closure: &[#(#closure),*]));
        let sh = shapes.get(n).copied().unwrap_or(shape::GENERAL);
        if sh != shape::GENERAL {
            fields.push(quote!(shape: #sh));
        }
        if let Some(k) = tags.iter().position(|t| t.0 == n) {
            let object = id(ir.nodes.len() + 2 * k + 1);
            let branches = tags.get(k).into_iter().flat_map(|t| &t.1.branches).map(|(strings, node, i)| {
                let (node, i) = (id(*node), u8::try_from(*i).unwrap_or(u8::MAX));
                quote!((&[#(#strings),*], #node, #i))
            });
            fields.push(
                quote!(tagged: ::core::option::Option::Some(&#p::StreamTagged { object: #object, branches: &[#(#branches),*] })),
            );
        }
        nodes.push(quote! {
            #p::StreamNode {
                always: false,
                scan: #scan,
                #explain,
                lookback: #lookback,
                #(#fields,)*
                ..#p::StreamNode::ALWAYS
            }
        });
    }
    for (k, (_, tag)) in tags.iter().enumerate() {
        let (strings, object) = (id(ir.nodes.len() + 2 * k), id(ir.nodes.len() + 2 * k + 1));
        let all: Vec<&str> = tag.branches.iter().flat_map(|b| b.0.iter().copied()).collect();
        let (tab, name, name_tab) = (byte_table(&all), tag.name, byte_table(&[tag.name]));
        let (string, object_bits, plain) = (type_bits(JsonType::String), type_bits(JsonType::Object), shape::PLAIN);
        nodes.push(quote! {
            #p::StreamNode {
                always: false, scan: #p::stream_scan_never, types: #string, enum_types: #string, scalar: #string,
                strings: ::core::option::Option::Some(&[#(#all),*]), string_bytes: #tab,
                closure: &[#strings], shape: #plain, ..#p::StreamNode::ALWAYS
            }
        });
        nodes.push(quote! {
            #p::StreamNode {
                always: false, scan: #p::stream_scan_never, types: #object_bits, names: &[#name], name_bytes: #name_tab, props: &[#strings],
                required: 1, closed: true, keys: 1, closure: &[#object], shape: #plain, ..#p::StreamNode::ALWAYS
            }
        });
    }
    nodes.extend(added.nodes);
    let (root, never) = (id(ir.root), no_value(ir, ir.root));
    let any = decides.iter().any(|&d| d);
    (
        quote!(#p::Program { root: #root, never: #never, decides: #any, nodes: &[#(#nodes),*] }),
        slots,
        levels,
        automaton(ir, &shapes),
    )
}

/// Per node, whether it is a `oneOf` branch, a `not` or an `if` of some subschema, or (through
/// any number of levels) a property's subschema, a `$ref` target or an `allOf` part of such a
/// node: where it becomes sure of an
/// object by the members the object has, the automaton may decide something (the runtime's
/// `Node::decides`, which spares it looking where nothing can be decided).
fn decider_flags(ir: &Ir) -> Vec<bool> {
    let mut flags = vec![false; ir.nodes.len()];
    let mut todo: Vec<NodeId> = Vec::new();
    for node in &ir.nodes {
        if let Body::Checks(c) = &node.body {
            todo.extend(c.one_of.iter().copied().chain(c.not).chain(c.if_));
        }
    }
    while let Some(n) = todo.pop() {
        let Some(flag) = flags.get_mut(n).filter(|f| !**f) else { continue };
        *flag = true;
        if let Body::Checks(c) = &ir.node(n).body {
            // (And what it applies in place: a `$ref` alone is sure where its target is.)
            todo.extend(c.properties.iter().map(|p| p.node).chain(c.reference.as_ref().map(|r| r.value.1)));
            todo.extend(c.all_of.iter().copied());
        }
    }
    flags
}
