//! A JSON tree that remembers where each value came from: a token span (inline schemas) or a
//! byte range (schema files).

mod text;
mod tokens;
mod write;

pub use text::parse_text;
pub use tokens::parse_tokens;
pub use write::{to_compact, write_value};

use proc_macro2::Span;

/// Where a piece of the schema is.
#[derive(Debug, Clone, Copy)]
pub enum Loc {
    /// A token of an inline schema.
    Span(Span),
    /// A byte range of a schema file.
    Bytes {
        /// first byte
        start: usize,
        /// one past the last byte
        end: usize,
    },
}

/// A JSON value and its location.
#[derive(Debug, Clone)]
pub struct Json {
    /// the value
    pub value: JsonValue,
    /// where it is
    pub loc: Loc,
}

/// An object member and the location of its key.
#[derive(Debug, Clone)]
pub struct Member {
    /// the key
    pub key: String,
    /// where the key is
    pub key_loc: Loc,
    /// the value
    pub value: Json,
}

/// A JSON value. Numbers keep their text so that no precision is lost.
#[derive(Debug, Clone)]
pub enum JsonValue {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// a number, as written
    Number(Num),
    /// a string
    String(String),
    /// an array
    Array(Vec<Json>),
    /// an object, members in order (keys are unique: duplicates are rejected by the parsers)
    Object(Vec<Member>),
}

impl JsonValue {
    /// The JSON type's name, for messages.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "boolean",
            Self::Number(n) if n.is_integer() => "integer",
            Self::Number(_) => "number",
            Self::String(_) => "string",
            Self::Array(_) => "array",
            Self::Object(_) => "object",
        }
    }
}

/// A JSON number as written, validated against the JSON grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Num {
    text: String,
    negative: bool,
    /// significant digits without leading zeros (empty for zero)
    digits: String,
    /// value = digits × 10^exponent
    exponent: i64,
}

impl Num {
    /// Parse the JSON number grammar exactly: `-? (0|[1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        let mut i = 0;
        let negative = b.first() == Some(&b'-');
        if negative {
            i += 1;
        }
        let int_start = i;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(c) if c.is_ascii_digit() => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            _ => return None,
        }
        let int_part = text.get(int_start..i)?;
        let mut frac_part = "";
        if b.get(i) == Some(&b'.') {
            i += 1;
            let s = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == s {
                return None;
            }
            frac_part = text.get(s..i)?;
        }
        let mut exp: i64 = 0;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            let neg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let s = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == s {
                return None;
            }
            // Saturate absurd exponents; they only matter as "huge" or "tiny".
            let e: i64 = text.get(s..i)?.parse().unwrap_or(1_000_000);
            exp = if neg { -e.min(1_000_000) } else { e.min(1_000_000) };
        }
        if i != b.len() {
            return None;
        }
        let all = format!("{int_part}{frac_part}");
        let frac_len = i64::try_from(frac_part.len()).ok()?;
        let trimmed = all.trim_start_matches('0');
        let mut digits = trimmed.trim_end_matches('0').to_owned();
        let trailing = i64::try_from(trimmed.len() - digits.len()).ok()?;
        let exponent = if digits.is_empty() { 0 } else { exp - frac_len + trailing };
        if digits.is_empty() {
            digits.clear();
        }
        Some(Self { text: text.to_owned(), negative: negative && !trimmed.is_empty(), digits, exponent })
    }

    /// The number as written.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the value is an integer (`1.0` and `1e2` are).
    #[must_use]
    pub fn is_integer(&self) -> bool {
        self.digits.is_empty() || self.exponent >= 0
    }

    /// Whether the value is zero.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether the value is below zero.
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The value as an `i128`, if it is an integer that fits.
    #[must_use]
    pub fn as_i128(&self) -> Option<i128> {
        if !self.is_integer() {
            return None;
        }
        if self.digits.is_empty() {
            return Some(0);
        }
        let mut v: i128 = self.digits.parse().ok()?;
        for _ in 0..self.exponent {
            v = v.checked_mul(10)?;
        }
        Some(if self.negative { -v } else { v })
    }

    /// The nearest `f64` (infinite when out of range).
    #[must_use]
    pub fn as_f64(&self) -> f64 {
        self.text.parse().unwrap_or(f64::NAN)
    }

    /// For a positive number: `(mantissa, exponent)` with the mantissa in `u64`, if it fits.
    #[must_use]
    pub fn decimal(&self) -> Option<(u64, i32)> {
        let m: u64 = self.digits.parse().ok()?;
        let e = i32::try_from(self.exponent).ok()?;
        Some((m, e))
    }

    /// Compare two numbers by value.
    #[must_use]
    pub fn cmp_value(&self, other: &Self) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let sign = |n: &Self| {
            if n.digits.is_empty() {
                0
            } else if n.negative {
                -1
            } else {
                1
            }
        };
        let (sa, sb) = (sign(self), sign(other));
        if sa != sb {
            return sa.cmp(&sb);
        }
        if sa == 0 {
            return Ordering::Equal;
        }
        // Same sign, both non-zero: compare magnitudes by order of magnitude, then digits.
        let mag = |n: &Self| n.exponent + i64::try_from(n.digits.len()).unwrap_or(i64::MAX);
        let ord = mag(self).cmp(&mag(other)).then_with(|| {
            let (a, b) = (self.digits.as_bytes(), other.digits.as_bytes());
            let n = a.len().max(b.len());
            (0..n)
                .map(|i| (a.get(i).copied().unwrap_or(b'0'), b.get(i).copied().unwrap_or(b'0')))
                .map(|(x, y)| x.cmp(&y))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        });
        if sa < 0 {
            ord.reverse()
        } else {
            ord
        }
    }
}

/// JSON Schema equality of two schema values (numbers by value, objects without order).
#[must_use]
pub fn json_eq(a: &JsonValue, b: &JsonValue) -> bool {
    match (a, b) {
        (JsonValue::Null, JsonValue::Null) => true,
        (JsonValue::Bool(x), JsonValue::Bool(y)) => x == y,
        (JsonValue::Number(x), JsonValue::Number(y)) => x.cmp_value(y).is_eq(),
        (JsonValue::String(x), JsonValue::String(y)) => x == y,
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(&p.value, &q.value))
        }
        (JsonValue::Object(x), JsonValue::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|m| y.iter().any(|n| n.key == m.key && json_eq(&m.value.value, &n.value.value)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        let n = |s: &str| Num::parse(s);
        assert!(n("1.0").is_some_and(|x| x.is_integer()));
        assert!(n("1.5").is_some_and(|x| !x.is_integer()));
        assert!(n("1e2").is_some_and(|x| x.as_i128() == Some(100)));
        assert!(n("-0").is_some_and(|x| x.is_zero() && !x.is_negative()));
        assert!(n("01").is_none());
        assert!(n("1.").is_none());
        assert!(n(".5").is_none());
        assert!(n("1_000").is_none());
        assert!(n("0x10").is_none());
        assert_eq!(n("0.0001").and_then(|x| x.decimal()), Some((1, -4)));
        assert_eq!(n("2.50").and_then(|x| x.decimal()), Some((25, -1)));
        let (a, b) = (n("1e3"), n("999.5"));
        assert!(matches!((a, b), (Some(a), Some(b)) if a.cmp_value(&b).is_gt()));
        let (a, b) = (n("-2"), n("-10"));
        assert!(matches!((a, b), (Some(a), Some(b)) if a.cmp_value(&b).is_gt()));
        let (a, b) = (n("1.0"), n("1"));
        assert!(matches!((a, b), (Some(a), Some(b)) if a.cmp_value(&b).is_eq()));
    }
}
