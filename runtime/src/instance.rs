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
    /// The value of member `name`.
    fn get(self, name: &str) -> Option<Self>;
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
    names.iter().all(|name| v.get(name).is_some() || fail_required(name, at, s))
}

/// Report that member `name` is required and missing.
pub fn fail_required<S: Sink>(name: &str, at: &Path<'_>, s: &mut S) -> bool {
    s.fail(&at.key(name), || ViolationKind::Required { property: String::from(name) })
}

/// `additionalProperties: false` with no `patternProperties`: report each member of `v` not in
/// `declared`, in `serde_json::Map` order.
pub fn check_closed<V: Instance, S: Sink>(v: V, declared: &[&str], at: &Path<'_>, s: &mut S) -> bool {
    v.members().all(|(key, _)| key.is_in(|k| declared.contains(&k), declared) || fail_additional(key, at, s))
}

/// Report that member `key` is not allowed (`additionalProperties: false`).
pub fn fail_additional<K: Text, S: Sink>(key: K, at: &Path<'_>, s: &mut S) -> bool {
    key.with_str(|key| s.fail(&at.key(key), || ViolationKind::AdditionalProperty { property: String::from(key) }))
}
