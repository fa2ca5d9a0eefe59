//! Strict parsing of reply text and JSON value equality.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, Hasher};

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::limits::{LimitExceeded, Limits};
use crate::num::num_eq;
use crate::violation::{Error, Found};

/// A `serde_json::Value` that refuses duplicate object keys while it is deserialised.
///
/// `serde_json::Value` keeps the last of two equal keys; another parser may keep the first. A gate
/// must not let the two disagree, so every text that toolgate parses goes through this type (or
/// [`parse_with`], which adds the depth limit). Deserialised on its own, it leaves the depth to
/// the deserializer (`serde_json`'s recursion limit, for instance).
#[derive(Debug, Clone, PartialEq)]
pub struct StrictValue(pub Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let hit = Cell::new(false);
        Strict { remaining: usize::MAX, hit: &hit }.deserialize(d).map(StrictValue)
    }
}

/// The strict visitor as a seed: `remaining` more arrays/objects may be entered; `hit` records
/// that the depth limit (and not the syntax) stopped the parse.
#[derive(Clone, Copy)]
struct Strict<'c> {
    remaining: usize,
    hit: &'c Cell<bool>,
}

impl Strict<'_> {
    /// The seed for the items or members of an array or object entered from here.
    fn enter<E: de::Error>(self) -> Result<Self, E> {
        match self.remaining.checked_sub(1) {
            Some(remaining) => Ok(Self { remaining, hit: self.hit }),
            None => {
                self.hit.set(true);
                Err(E::custom("too deep"))
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom("number is not finite"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(inner)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.enter()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                // The key as JSON text, shortened: the message must not echo a huge key back.
                let key = Found::of(&Value::String(key)).text.unwrap_or_default();
                return Err(de::Error::custom(format_args!("duplicate key {key}")));
            }
            let v = map.next_value_seed(inner)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Parse text as exactly one JSON value: no `NaN`/`Infinity`, no trailing text, no duplicate
/// keys, numbers within `f64` range, and within [`Limits::DEFAULT`]: at most
/// [`Limits::MAX_DEPTH`] (127) nested arrays and objects, as `serde_json`'s recursion limit admits.
///
/// # Errors
/// [`Error::Syntax`] with the parser's message, line and column; [`Error::Limit`] for nesting
/// deeper than the limit.
pub fn parse(text: &str) -> Result<Value, Error> {
    parse_with(text, &Limits::DEFAULT)
}

/// [`parse`] within `limits`: the byte limit is checked first, the depth limit while parsing
/// (so nesting of any depth is refused without recursing into it).
///
/// # Errors
/// [`Error::Limit`] naming the limit, or [`Error::Syntax`] as for [`parse`].
pub fn parse_with(text: &str, limits: &Limits) -> Result<Value, Error> {
    limits.check_bytes(text).map_err(Error::Limit)?;
    let hit = Cell::new(false);
    let seed = Strict { remaining: limits.depth(), hit: &hit };
    let mut de = serde_json::Deserializer::from_str(text);
    // `Strict` counts the depth itself (at most `Limits::MAX_DEPTH`, the limit `serde_json` would
    // apply), so that exceeding it is told apart from a syntax error.
    de.disable_recursion_limit();
    let v = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    v.map_err(|e| {
        if hit.get() {
            let (line, column) = beyond_depth(text, limits.depth()).unwrap_or((e.line(), e.column()));
            Error::Limit(LimitExceeded::Depth { limit: limits.depth(), line, column })
        } else {
            Error::Syntax { message: strip_position(&e), line: e.line(), column: e.column() }
        }
    })
}

/// The 1-based line and column (in bytes, as `serde_json` counts) of the first `[` or `{` nested
/// deeper than `limit`. Iterative, for the text before it is known to be well-formed JSON.
fn beyond_depth(text: &str, limit: usize) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some((line, i - line_start + 1));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ").and_then(|i| s.get(..i)) {
        Some(head) => format!("{head} (line {}, column {})", e.line(), e.column()),
        None => s,
    }
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects regardless of key order.
#[must_use]
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => num_eq(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => false,
    }
}

/// The first pair `(i, j)`, `i < j`, of equal items, if any: the smallest `j` that repeats an
/// earlier item, and the first item it repeats.
///
/// Up to `FEW_ITEMS` (32) items are compared pairwise (no allocation); beyond, each item is compared
/// only with the earlier items of equal hash (a hash of the value that JSON Schema equality
/// respects: `1` and `1.0` hash alike), with a randomly keyed hasher so that no reply can make
/// all its items collide: linear time for 100,000 items rather than billions of comparisons.
#[must_use]
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() <= FEW_ITEMS {
        for (j, b) in items.iter().enumerate() {
            for (i, a) in items.iter().enumerate().take(j) {
                if json_eq(a, b) {
                    return Some((i, j));
                }
            }
        }
        return None;
    }
    let keys = RandomState::new();
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (j, b) in items.iter().enumerate() {
        let bucket = seen.entry(eq_hash(&keys, b)).or_default();
        if let Some(&i) = bucket.iter().find(|&&i| items.get(i).is_some_and(|a| json_eq(a, b))) {
            return Some((i, j));
        }
        bucket.push(j);
    }
    None
}

/// Whether no two items are equal (JSON Schema equality): the verdict of `uniqueItems`.
///
/// The same answer as `first_duplicate(items).is_none()`, with the short arrays tool arguments
/// carry (up to three items) compared inline, without the general function's set-up.
#[inline]
#[must_use]
pub fn all_unique(items: &[Value]) -> bool {
    match items {
        [] | [_] => true,
        [a, b] => !json_eq(a, b),
        [a, b, c] => !json_eq(a, b) && !json_eq(a, c) && !json_eq(b, c),
        _ => first_duplicate(items).is_none(),
    }
}

/// The number of items up to which [`first_duplicate`] compares every pair.
const FEW_ITEMS: usize = 32;

/// A hash of `v` under which values equal for [`json_eq`] hash alike.
pub(crate) fn eq_hash(keys: &RandomState, v: &Value) -> u64 {
    let mut h = keys.build_hasher();
    match v {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => {
            h.write_u8(1);
            h.write_u8(u8::from(*b));
        }
        Value::Number(n) => {
            // Equal numbers have the same nearest f64 (`+ 0.0` makes -0 and 0 one).
            h.write_u8(2);
            h.write_u64((n.as_f64().unwrap_or(0.0) + 0.0).to_bits());
        }
        Value::String(s) => {
            h.write_u8(3);
            h.write(s.as_bytes());
        }
        Value::Array(a) => {
            h.write_u8(4);
            for x in a {
                h.write_u64(eq_hash(keys, x));
            }
        }
        Value::Object(o) => {
            // Member order is irrelevant: combine the members' hashes commutatively.
            h.write_u8(5);
            let members = o.iter().fold(0u64, |acc, (k, x)| {
                let mut m = keys.build_hasher();
                m.write(k.as_bytes());
                m.write_u64(eq_hash(keys, x));
                acc.wrapping_add(m.finish())
            });
            h.write_u64(members);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_duplicate_keys_and_trailing_text() {
        assert!(parse(r#"{"a": 1, "a": 2}"#).is_err());
        assert!(parse(r#"{"a": {"b": 1, "b": 1}}"#).is_err());
        assert!(parse("{} x").is_err());
        assert!(parse("NaN").is_err());
        assert!(parse("1e400").is_err());
        assert!(parse(r#"{"a": 1, "b": [1, 2]}"#).is_ok());
    }

    #[test]
    fn equality() {
        let v = |s: &str| parse(s).unwrap_or(Value::Null);
        assert!(json_eq(&v("1"), &v("1.0")));
        assert!(json_eq(&v(r#"{"a":1,"b":2}"#), &v(r#"{"b":2.0,"a":1}"#)));
        assert!(!json_eq(&v("[1,2]"), &v("[2,1]")));
        assert!(!json_eq(&v("true"), &v("1")));
        assert_eq!(first_duplicate(v("[1, 2, 1.0]").as_array().map_or(&[][..], Vec::as_slice)), Some((0, 2)));
    }

    #[test]
    fn duplicates_among_many_items_agree_with_pairwise() {
        let pairwise = |items: &[Value]| {
            items.iter().enumerate().find_map(|(j, b)| items.iter().take(j).position(|a| json_eq(a, b)).map(|i| (i, j)))
        };
        let many: Vec<Value> = (0..200).map(Value::from).collect();
        assert_eq!(first_duplicate(&many), None);
        for (text, at) in [
            ("1.0", Some((1, 200))),
            ("-0", Some((0, 200))),
            ("0.0", Some((0, 200))),
            ("199", Some((199, 200))),
            ("200", None),
            (r#""1""#, None),
        ] {
            let mut items = many.clone();
            items.push(parse(text).unwrap_or(Value::Null));
            assert_eq!(first_duplicate(&items), at, "{text}");
            assert_eq!(pairwise(&items), at, "{text}");
        }
        // Objects in any member order, arrays in order only, strings by content.
        let mut items: Vec<Value> =
            (0..100).map(|i| parse(&format!(r#"{{"a": {i}, "b": [1, "x"]}}"#)).unwrap_or(Value::Null)).collect();
        items.push(parse(r#"{"b": [1.0, "x"], "a": 50}"#).unwrap_or(Value::Null));
        assert_eq!(first_duplicate(&items), Some((50, 100)));
        items.pop();
        items.push(parse(r#"{"a": 50, "b": ["x", 1]}"#).unwrap_or(Value::Null));
        assert_eq!(first_duplicate(&items), None);
        // The first repeated item wins, with the first item it repeats.
        let mut items: Vec<Value> = (0..50).map(|i| Value::from(i % 40)).collect();
        items.push(Value::from(3));
        assert_eq!(first_duplicate(&items), Some((0, 40)));
        assert_eq!(first_duplicate(&items), pairwise(&items));
    }

    #[test]
    fn all_unique_agrees_with_first_duplicate() {
        // Every array of up to five items drawn from values that are equal in pairs (1 and 1.0,
        // "a" twice) or not: the inline short cases and the general function give one answer.
        let pool = ["1", "1.0", r#""a""#, r#""a""#, "[1]", "null"].map(|t| parse(t).unwrap_or(Value::Null));
        let mut checked = 0;
        for len in 0..=5u32 {
            for code in 0..pool.len().pow(len) {
                let items: Vec<Value> = (0..len).map(|k| pool[code / pool.len().pow(k) % pool.len()].clone()).collect();
                assert_eq!(all_unique(&items), first_duplicate(&items).is_none(), "{items:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 1 + 6 + 36 + 216 + 1296 + 7776);
    }
}
