//! Strict parsing of reply text and JSON value equality.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::num::num_eq;
use crate::violation::Error;

/// A `serde_json::Value` that refuses duplicate object keys while it is deserialised.
///
/// `serde_json::Value` keeps the last of two equal keys; another parser may keep the first. A gate
/// must not let the two disagree, so every text that toolgate parses goes through this type.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictValue(pub Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
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
        StrictValue::deserialize(d).map(|v| v.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(StrictValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key {}", Value::String(key))));
            }
            let StrictValue(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Parse text as exactly one JSON value: no `NaN`/`Infinity`, no trailing text, no duplicate
/// keys, numbers within `f64` range, nesting at most 128 levels deep (`serde_json`'s limit).
///
/// # Errors
/// [`Error::Syntax`] with the parser's message, line and column.
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = StrictValue::deserialize(&mut de).and_then(|v| de.end().map(|()| v.0));
    v.map_err(|e| Error::Syntax { message: strip_position(&e), line: e.line(), column: e.column() })
}

fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => format!("{} (line {}, column {})", &s[..i], e.line(), e.column()),
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

/// The first pair `(i, j)`, `i < j`, of equal items, if any.
#[must_use]
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    for (j, b) in items.iter().enumerate() {
        for (i, a) in items.iter().enumerate().take(j) {
            if json_eq(a, b) {
                return Some((i, j));
            }
        }
    }
    None
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
}
