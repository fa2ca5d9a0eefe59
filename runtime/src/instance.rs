//! What the generated validators read: one set of validator functions, generic over the
//! instance, serves both a parsed `&serde_json::Value` ([`crate::Tool::check`]) and a [`Span`] of
//! well-formed reply text ([`crate::Tool::check_json`]'s reports, and the verdict of subschemas
//! the one-pass scan does not compile). Both give the same violations in the same order by
//! construction: members are visited in `serde_json::Map` order either way
//! ([`Instance::members`]); verdict-only sinks walk them in the cheapest order
//! ([`Instance::members_any_order`]).
//!
//! Nothing here allocates for a [`Span`] except what [`Span`] documents (sorting more than 64
//! members for the map order, comparing more than 64 items for `uniqueItems`, decoding an escaped
//! string longer than 256 bytes for `format`), and rendering a violation ([`Instance::found`]).

use std::borrow::Borrow;

use serde_json::{Map, Number, Value};

use crate::format::format_matches;
use crate::num::{cmp_limit, is_integer};
use crate::pattern::Pattern;
use crate::report::{Path, Sink};
use crate::text::{Items, MapOrder, Members, SVal, Scanner, Span, Step, Str};
use crate::violation::{Found, JsonType, TypeSet, ViolationKind};

/// A string of an instance (a string value or a member name): `&str`, or [`Str`] in text.
pub trait Text: Copy {
    /// Call `f` with the decoded text.
    fn with_str<R>(self, f: impl FnOnce(&str) -> R) -> R;
    /// The length in Unicode code points.
    fn char_len(self) -> u64;
    /// An upper bound of [`Text::char_len`] that costs nothing (the byte length as written).
    fn byte_len(self) -> u64;
    /// Whether the decoded text is `s`.
    fn eq_str(self, s: &str) -> bool;
    /// Whether `pattern` matches somewhere in the text.
    fn is_match(self, pattern: &Pattern) -> bool;
    /// [`Text::is_match`] for a pattern that accepts the strings of one length whose bytes are
    /// in given sets; `fixed` is the same question as a slice pattern over the bytes, used on
    /// text without escapes.
    fn is_match_fixed(self, fixed: impl FnOnce(&[u8]) -> bool, pattern: &Pattern) -> bool;
    /// Whether the text has format `name` (see [`format_matches`]).
    fn has_format(self, name: &str) -> bool {
        self.with_str(|s| format_matches(name, s))
    }
    /// Whether the decoded text is one of `names`; `test` is the same question as a `matches!`
    /// over those names (compiled to a decision on length and bytes), used on text without
    /// escapes.
    fn is_in(self, test: impl FnOnce(&str) -> bool, names: &[&str]) -> bool;
    /// The position of the decoded text in `names` (`usize::MAX` if absent); `index` is the same
    /// question as a `match` over those names, used on text without escapes.
    fn index_in(self, index: impl FnOnce(&str) -> usize, names: &[&str]) -> usize;
}

impl Text for &str {
    #[inline]
    fn with_str<R>(self, f: impl FnOnce(&str) -> R) -> R {
        f(self)
    }
    #[inline]
    fn char_len(self) -> u64 {
        self.chars().count() as u64
    }
    #[inline]
    fn byte_len(self) -> u64 {
        self.len() as u64
    }
    #[inline]
    fn eq_str(self, s: &str) -> bool {
        self == s
    }
    #[inline]
    fn is_match(self, pattern: &Pattern) -> bool {
        pattern.is_match(self)
    }
    #[inline]
    fn is_match_fixed(self, fixed: impl FnOnce(&[u8]) -> bool, _: &Pattern) -> bool {
        fixed(self.as_bytes())
    }
    #[inline]
    fn is_in(self, test: impl FnOnce(&str) -> bool, _: &[&str]) -> bool {
        test(self)
    }
    #[inline]
    fn index_in(self, index: impl FnOnce(&str) -> usize, _: &[&str]) -> usize {
        index(self)
    }
}

impl Text for Str<'_> {
    #[inline]
    fn with_str<R>(self, f: impl FnOnce(&str) -> R) -> R {
        self.with_decoded(f)
    }
    #[inline]
    fn char_len(self) -> u64 {
        Str::char_len(&self)
    }
    #[inline]
    fn byte_len(self) -> u64 {
        self.raw().len() as u64
    }
    #[inline]
    fn eq_str(self, s: &str) -> bool {
        Str::eq_str(&self, s)
    }
    #[inline]
    fn is_match(self, pattern: &Pattern) -> bool {
        if self.is_escaped() {
            pattern.is_match_chars(self.chars())
        } else {
            pattern.is_match(self.raw_str())
        }
    }
    #[inline]
    fn is_match_fixed(self, fixed: impl FnOnce(&[u8]) -> bool, pattern: &Pattern) -> bool {
        if self.is_escaped() {
            pattern.is_match_chars(self.chars())
        } else {
            fixed(self.raw_str().as_bytes())
        }
    }
    #[inline]
    fn is_in(self, test: impl FnOnce(&str) -> bool, names: &[&str]) -> bool {
        if self.is_escaped() {
            names.iter().any(|n| Str::eq_str(&self, n))
        } else {
            test(self.raw_str())
        }
    }
    #[inline]
    fn index_in(self, index: impl FnOnce(&str) -> usize, names: &[&str]) -> usize {
        if self.is_escaped() {
            names.iter().position(|n| Str::eq_str(&self, n)).unwrap_or(usize::MAX)
        } else {
            index(self.raw_str())
        }
    }
}

/// A JSON value the generated validators check.
pub trait Instance: Copy {
    /// A string value.
    type Str: Text;
    /// A member name.
    type Key: Text;
    /// A number, borrowed or read from the text.
    type Num: Borrow<Number>;
    /// The items of an array.
    type Items: Iterator<Item = Self>;
    /// The members of an object, in `serde_json::Map` order.
    type Members: Iterator<Item = (Self::Key, Self)>;

    /// What was found here, for a violation. Allocates.
    fn found(self) -> Found;
    /// Whether the value is `null`.
    fn is_null(self) -> bool;
    /// Whether the value is `true` or `false`.
    fn is_boolean(self) -> bool;
    /// Whether the value is an integer in JSON Schema's sense (`1.0` is).
    fn is_integer(self) -> bool;
    /// Whether the value is a number.
    fn is_number(self) -> bool;
    /// Whether the value is a string.
    fn is_string(self) -> bool;
    /// Whether the value is an array.
    fn is_array(self) -> bool;
    /// Whether the value is an object.
    fn is_object(self) -> bool;
    /// The boolean, if the value is one.
    fn boolean(self) -> Option<bool>;
    /// The string, if the value is one.
    fn string(self) -> Option<Self::Str>;
    /// The number, if the value is one.
    fn number(self) -> Option<Self::Num>;
    /// The items (none unless an array).
    fn items(self) -> Self::Items;
    /// The members in `serde_json::Map` order (none unless an object).
    fn members(self) -> Self::Members;
    /// The members in the cheapest order (for verdicts: text in document order, no sorting).
    type AnyOrder: Iterator<Item = (Self::Key, Self)>;
    /// The members in the cheapest order (none unless an object).
    fn members_any_order(self) -> Self::AnyOrder;
    /// Whether the instance is text: [`Instance::get`] then reads the object's members rather
    /// than looks the name up in a map (several names are better looked up together), and
    /// [`Instance::members`] sorts them.
    const TEXT: bool = false;
    /// The value of member `name`.
    fn get(self, name: &str) -> Option<Self>;
    /// The values of members `names` (declared property names: no two alike), in their order.
    fn get_all<const N: usize>(self, names: &[&str; N]) -> [Option<Self>; N] {
        std::array::from_fn(|i| names.get(i).and_then(|n| self.get(n)))
    }
    /// Which of `names` (at most 64) are members: bit `i` for `names[i]` (for a name repeated,
    /// the bit of at least one occurrence).
    fn present(self, names: &[&str]) -> u64 {
        names.iter().take(64).enumerate().filter(|(_, n)| self.get(n).is_some()).fold(0, |m, (i, _)| m | 1 << i)
    }
    /// The number of items or members.
    fn count(self) -> u64;
    /// The first pair `(i, j)`, `i < j`, of equal items.
    fn first_duplicate(self) -> Option<(u64, u64)>;
    /// Whether the value is valid against a subschema, given its two verdict functions: the scan
    /// function (what text uses) and the verdict function on a `&Value` (what values use).
    ///
    /// Generic rather than function pointers: the generated code passes function items, so an
    /// instance kind instantiates only the function it calls (a crate that validates only
    /// `&Value`s generates no scan functions).
    fn passes<T, W>(self, scan: T, value: W) -> bool
    where
        T: Fn(&mut Scanner<'_>) -> Step,
        W: Fn(&Value) -> bool;
}

/// The members of a `&Value` (none unless an object), in `serde_json::Map` order.
#[derive(Debug, Clone)]
pub struct ValueMembers<'a>(Option<serde_json::map::Iter<'a>>);

impl<'a> Iterator for ValueMembers<'a> {
    type Item = (&'a str, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a Value)> {
        self.0.as_mut()?.next().map(|(k, v)| (k.as_str(), v))
    }
}

impl<'a> Instance for &'a Value {
    type Str = &'a str;
    type Key = &'a str;
    type Num = &'a Number;
    type Items = std::slice::Iter<'a, Value>;
    type Members = ValueMembers<'a>;
    type AnyOrder = ValueMembers<'a>;

    fn found(self) -> Found {
        Found::of(self)
    }
    #[inline]
    fn is_null(self) -> bool {
        self.is_null()
    }
    #[inline]
    fn is_boolean(self) -> bool {
        self.is_boolean()
    }
    #[inline]
    fn is_integer(self) -> bool {
        matches!(self, Value::Number(n) if is_integer(n))
    }
    #[inline]
    fn is_number(self) -> bool {
        self.is_number()
    }
    #[inline]
    fn is_string(self) -> bool {
        self.is_string()
    }
    #[inline]
    fn is_array(self) -> bool {
        self.is_array()
    }
    #[inline]
    fn is_object(self) -> bool {
        self.is_object()
    }
    #[inline]
    fn boolean(self) -> Option<bool> {
        self.as_bool()
    }
    #[inline]
    fn string(self) -> Option<&'a str> {
        self.as_str()
    }
    #[inline]
    fn number(self) -> Option<&'a Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }
    #[inline]
    fn items(self) -> Self::Items {
        match self {
            Value::Array(a) => a.iter(),
            _ => [].iter(),
        }
    }
    #[inline]
    fn members(self) -> Self::Members {
        ValueMembers(self.as_object().map(Map::iter))
    }
    #[inline]
    fn members_any_order(self) -> Self::AnyOrder {
        Instance::members(self)
    }
    #[inline]
    fn get(self, name: &str) -> Option<Self> {
        match self {
            Value::Object(o) => o.get(name),
            _ => None,
        }
    }
    #[inline]
    fn count(self) -> u64 {
        match self {
            Value::Array(a) => a.len() as u64,
            Value::Object(o) => o.len() as u64,
            _ => 0,
        }
    }
    fn first_duplicate(self) -> Option<(u64, u64)> {
        match self {
            Value::Array(a) => crate::json::first_duplicate(a).map(|(i, j)| (i as u64, j as u64)),
            _ => None,
        }
    }
    #[inline]
    fn passes<T, W>(self, _: T, value: W) -> bool
    where
        T: Fn(&mut Scanner<'_>) -> Step,
        W: Fn(&Value) -> bool,
    {
        value(self)
    }
}

impl<'a> Instance for Span<'a> {
    const TEXT: bool = true;
    type Str = Str<'a>;
    type Key = Str<'a>;
    type Num = Number;
    type Items = Items<'a>;
    type Members = MapOrder<'a>;
    type AnyOrder = Members<'a>;

    fn found(self) -> Found {
        Span::found(&self)
    }
    #[inline]
    fn is_null(self) -> bool {
        Span::is_null(&self)
    }
    #[inline]
    fn is_boolean(self) -> bool {
        Span::is_boolean(&self)
    }
    #[inline]
    fn is_integer(self) -> bool {
        Span::is_integer(&self)
    }
    #[inline]
    fn is_number(self) -> bool {
        Span::is_number(&self)
    }
    #[inline]
    fn is_string(self) -> bool {
        Span::is_string(&self)
    }
    #[inline]
    fn is_array(self) -> bool {
        Span::is_array(&self)
    }
    #[inline]
    fn is_object(self) -> bool {
        Span::is_object(&self)
    }
    #[inline]
    fn boolean(self) -> Option<bool> {
        self.as_bool()
    }
    #[inline]
    fn string(self) -> Option<Str<'a>> {
        self.str()
    }
    #[inline]
    fn number(self) -> Option<Number> {
        Span::number(&self)
    }
    #[inline]
    fn items(self) -> Items<'a> {
        Span::items(&self)
    }
    #[inline]
    fn members(self) -> MapOrder<'a> {
        self.members_map_order()
    }
    #[inline]
    fn members_any_order(self) -> Members<'a> {
        Span::members(&self)
    }
    #[inline]
    fn get(self, name: &str) -> Option<Self> {
        Span::get(&self, name)
    }
    /// One pass over the members (a lookup per name would read the object once per name).
    fn get_all<const N: usize>(self, names: &[&str; N]) -> [Option<Self>; N] {
        let mut found = [None; N];
        self.each_named(names, |i, value| {
            if let Some(slot) = found.get_mut(i) {
                *slot = Some(value);
            }
        });
        found
    }
    /// One pass over the members.
    fn present(self, names: &[&str]) -> u64 {
        let mut mask = 0;
        self.each_named(names, |i, _| {
            if i < 64 {
                mask |= 1 << i;
            }
        });
        mask
    }
    #[inline]
    fn count(self) -> u64 {
        Span::count(&self)
    }
    fn first_duplicate(self) -> Option<(u64, u64)> {
        Span::first_duplicate(&self)
    }
    #[inline]
    fn passes<T, W>(self, scan: T, _: W) -> bool
    where
        T: Fn(&mut Scanner<'_>) -> Step,
        W: Fn(&Value) -> bool,
    {
        // Through a reference, as it went through a function pointer before `passes` was
        // generic: the text validator's code stays the shape it was measured in.
        self.scan(&scan)
    }
}

/// Whether the instance value `v` equals the schema value `x` (JSON Schema equality).
#[must_use]
pub fn sval_eq<V: Instance>(x: &SVal, v: V) -> bool {
    match x {
        SVal::Null => v.is_null(),
        SVal::Bool(b) => v.boolean() == Some(*b),
        SVal::Num(l) => v.number().is_some_and(|n| cmp_limit(n.borrow(), *l).is_eq()),
        SVal::Str(s) => v.string().is_some_and(|t| t.eq_str(s)),
        SVal::Arr(xs) => {
            v.is_array() && {
                let mut it = v.items();
                xs.iter().all(|x| it.next().is_some_and(|e| sval_eq(x, e))) && it.next().is_none()
            }
        }
        SVal::Obj(ms) => {
            v.is_object()
                && v.count() == ms.len() as u64
                && ms.iter().all(|(k, x)| v.get(k).is_some_and(|e| sval_eq(x, e)))
        }
    }
}

// Shared checks of the generic validators: one copy per instance and sink type in a crate,
// instead of the same lines generated for every subschema. Each returns whether to go on (the
// sink's answer after a violation, `true` when there is none).

/// `type`: whether `v` has one of `types`, else report it.
pub fn check_type<V: Instance, S: Sink>(v: V, types: TypeSet, at: &Path<'_>, s: &mut S) -> bool {
    let has = |t: JsonType| types.contains(t);
    let ok = (has(JsonType::Object) && v.is_object())
        || (has(JsonType::String) && v.is_string())
        || (has(JsonType::Number) && v.is_number())
        || (has(JsonType::Integer) && v.is_integer())
        || (has(JsonType::Boolean) && v.is_boolean())
        || (has(JsonType::Array) && v.is_array())
        || (has(JsonType::Null) && v.is_null());
    ok || s.fail(at, || ViolationKind::Type { expected: types, found: v.found() })
}

/// `required`: report each of `names` the object `v` lacks, in order.
pub fn check_required<V: Instance, S: Sink>(v: V, names: &[&str], at: &Path<'_>, s: &mut S) -> bool {
    if !V::TEXT {
        return names.iter().all(|name| v.get(name).is_some() || fail_required(name, at, s));
    }
    names.chunks(64).all(|chunk| {
        let mask = v.present(chunk);
        let has = |i: usize| mask & (1 << i) != 0;
        chunk.iter().enumerate().all(|(i, name)| {
            // A name repeated in `required` (the schema may): present if one occurrence is.
            has(i) || chunk.iter().enumerate().any(|(j, n)| n == name && has(j)) || fail_required(name, at, s)
        })
    })
}

/// Report that member `name` is required and missing.
pub fn fail_required<S: Sink>(name: &str, at: &Path<'_>, s: &mut S) -> bool {
    s.fail(&at.key(name), || ViolationKind::Required { property: String::from(name) })
}

/// `additionalProperties: false` with no `patternProperties`: report each member of `v` not in
/// `declared` (sorted, as `str` orders), in `serde_json::Map` order.
pub fn check_closed<V: Instance, S: Sink>(v: V, declared: &[&str], at: &Path<'_>, s: &mut S) -> bool {
    // A few names are compared in turn (`==` on strings of different lengths costs no call);
    // more are searched.
    let search =
        |k: &str| if declared.len() <= 16 { declared.contains(&k) } else { declared.binary_search(&k).is_ok() };
    let is_declared = |key: V::Key| key.is_in(search, declared);
    // Text: in the cheapest order first, and in map order (sorted) only when one is to be reported.
    (V::TEXT && v.members_any_order().all(|(key, _)| is_declared(key)))
        || v.members().all(|(key, _)| is_declared(key) || fail_additional(key, at, s))
}

/// Report that member `key` is not allowed (`additionalProperties: false`).
pub fn fail_additional<K: Text, S: Sink>(key: K, at: &Path<'_>, s: &mut S) -> bool {
    key.with_str(|key| s.fail(&at.key(key), || ViolationKind::AdditionalProperty { property: String::from(key) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Collect, Path};

    /// Objects of 0 to 70 members (both sides of the in-place sort's 64), keys out of order,
    /// some escaped (`\u0061` is `a`), some equal to a name after decoding.
    fn objects() -> Vec<String> {
        let mut texts = vec!["{}".to_owned(), r#"{"b": 1, "a\u0062": [1, {"x": 2}], "a": {}}"#.to_owned()];
        for n in [3_usize, 30, 64, 65, 70] {
            let members: Vec<String> = (0..n).map(|i| format!(r#""k{:02}": [{i}, "{i}"]"#, (i * 37) % n)).collect();
            texts.push(format!("{{{}}}", members.join(", ")));
        }
        texts.push(r#"{"\u0061": 1, "c": {"a": 2}, "b": null}"#.to_owned());
        texts
    }

    #[test]
    fn text_members_follow_the_map_order_of_the_parsed_value() {
        for text in objects() {
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let span = Span::root(&text);
            let from_text: Vec<(String, String)> =
                Instance::members(span).map(|(k, v)| (k.with_str(str::to_owned), v.as_str().to_owned())).collect();
            let from_value: Vec<(String, String)> = Instance::members(&value)
                .map(|(k, v)| (k.to_owned(), serde_json::to_string(v).unwrap_or_default()))
                .collect();
            let keys = |l: &[(String, String)]| l.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
            assert_eq!(keys(&from_text), keys(&from_value), "{text}");
            for ((_, t), (_, v)) in from_text.iter().zip(&from_value) {
                let t: Value = serde_json::from_str(t).unwrap_or_default();
                assert_eq!(serde_json::to_string(&t).unwrap_or_default(), *v, "{text}");
            }
        }
    }

    #[test]
    fn lookups_of_several_names_agree_with_one_at_a_time() {
        let names = ["a", "b", "ab", "k03", "k29", "k00", "zz", "c"];
        for text in objects() {
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let span = Span::root(&text);
            let one = |n: &str| span.get(n).map(|e| e.as_str().to_owned());
            let all = Instance::get_all(span, &names);
            for (i, n) in names.iter().enumerate() {
                assert_eq!(all[i].map(|e| e.as_str().to_owned()), one(n), "{n} in {text}");
                assert_eq!(Instance::get_all(&value, &names)[i].is_some(), one(n).is_some(), "{n} in {text}");
            }
            let mask = Instance::present(span, &names);
            assert_eq!(mask, Instance::present(&value, &names), "{text}");
            for (i, n) in names.iter().enumerate() {
                assert_eq!(mask & (1 << i) != 0, one(n).is_some(), "{n} in {text}");
            }
        }
    }

    #[test]
    fn required_and_closed_objects_report_alike_on_text_and_values() {
        // `required` may repeat a name; `declared` is sorted, as the macro passes it.
        let required = ["b", "k01", "a", "b", "missing", "k64", "missing"];
        let declared = ["a", "b", "k00", "k01", "k02"];
        for text in objects() {
            let value: Value = serde_json::from_str(&text).unwrap_or_default();
            let span = Span::root(&text);
            let (mut t, mut v) = (Collect::default(), Collect::default());
            assert!(check_required(span, &required, &Path::ROOT, &mut t));
            assert!(check_required(&value, &required, &Path::ROOT, &mut v));
            assert!(check_closed(span, &declared, &Path::ROOT, &mut t));
            assert!(check_closed(&value, &declared, &Path::ROOT, &mut v));
            assert_eq!(t.0, v.0, "{text}");
            let missing = required.iter().filter(|n| value.get(**n).is_none()).count();
            let undeclared =
                value.as_object().map_or(0, |o| o.keys().filter(|k| !declared.contains(&k.as_str())).count());
            assert_eq!(t.0.len(), missing + undeclared, "{text}");
        }
    }
}
