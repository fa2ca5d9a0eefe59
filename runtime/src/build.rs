//! What the generated builders read: one builder per generated type, generic over [`Source`],
//! builds the typed value from a parsed `&serde_json::Value` ([`ValueSource`], for
//! [`crate::Tool::from_value`]) or straight from reply text ([`Scanner`], for
//! [`crate::Tool::from_json`], so that no `Value` is built on the way).
//!
//! Builders run only on instances the validator has accepted: they trust the shape the schema
//! promises and return `None`, never panic, should it not hold.

use serde_json::{Number, Value};

use crate::instance::Text;
use crate::num::{to_i64, to_u64};
use crate::text::{Kind, Num, Scanner, Str};

/// A reader positioned at one value of a validated instance; each reading method consumes that
/// value. Implemented for [`ValueSource`] and for [`Scanner`] (reply text).
pub trait Source: Sized {
    /// A member name.
    type Key: Text;

    /// The JSON type of the value (`integer` is a `Number`).
    fn kind(&self) -> Kind;
    /// Whether the value is a number with an integral value (`5.0` counts).
    fn is_integer(&self) -> bool;
    /// Whether the value is an object with a member named `name`.
    fn has_member(&self, name: &str) -> bool;
    /// Whether the value is an object whose member `name` is the string `value`.
    fn tag_is(&self, name: &str, value: &str) -> bool;
    /// Pass over the value.
    fn skip(&mut self) -> Option<()>;
    /// Read `null`.
    fn null(&mut self) -> Option<()>;
    /// Read a boolean.
    fn boolean(&mut self) -> Option<bool>;
    /// Read a string, owned.
    fn string(&mut self) -> Option<String>;
    /// Read a string and hand it to `f` without copying it.
    fn with_text<R>(&mut self, f: impl FnOnce(Self::Key) -> R) -> Option<R>;
    /// Read a number.
    fn number(&mut self) -> Option<Number>;
    /// Read a number as `i64` (`5.0` counts).
    fn int64(&mut self) -> Option<i64> {
        self.number().as_ref().and_then(to_i64)
    }
    /// Read a number as `u64` (`5.0` counts).
    fn uint64(&mut self) -> Option<u64> {
        self.number().as_ref().and_then(to_u64)
    }
    /// Read a number as `f64`.
    fn float64(&mut self) -> Option<f64> {
        self.number().and_then(|n| n.as_f64())
    }
    /// Read any value as a `serde_json::Value`.
    fn value(&mut self) -> Option<Value>;
    /// How many items an array has, when that costs nothing (else 0).
    fn len_hint(&self) -> usize;
    /// Read an array, calling `f` at each item in order.
    fn items(&mut self, f: impl FnMut(&mut Self) -> Option<()>) -> Option<()>;
    /// Read an object, calling `f` with each member's name, positioned at its value.
    fn members(&mut self, f: impl FnMut(Self::Key, &mut Self) -> Option<()>) -> Option<()>;
}

/// A [`Source`] over a parsed value.
#[derive(Debug, Clone, Copy)]
pub struct ValueSource<'a>(pub &'a Value);

impl<'a> Source for ValueSource<'a> {
    type Key = &'a str;

    #[inline]
    fn kind(&self) -> Kind {
        match self.0 {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }
    #[inline]
    fn is_integer(&self) -> bool {
        matches!(self.0, Value::Number(n) if crate::num::is_integer(n))
    }
    #[inline]
    fn has_member(&self, name: &str) -> bool {
        self.0.get(name).is_some()
    }
    #[inline]
    fn tag_is(&self, name: &str, value: &str) -> bool {
        self.0.get(name).and_then(Value::as_str) == Some(value)
    }
    #[inline]
    fn skip(&mut self) -> Option<()> {
        Some(())
    }
    #[inline]
    fn null(&mut self) -> Option<()> {
        self.0.as_null()
    }
    #[inline]
    fn boolean(&mut self) -> Option<bool> {
        self.0.as_bool()
    }
    #[inline]
    fn string(&mut self) -> Option<String> {
        self.0.as_str().map(String::from)
    }
    #[inline]
    fn with_text<R>(&mut self, f: impl FnOnce(&'a str) -> R) -> Option<R> {
        self.0.as_str().map(f)
    }
    #[inline]
    fn number(&mut self) -> Option<Number> {
        match self.0 {
            Value::Number(n) => Some(n.clone()),
            _ => None,
        }
    }
    #[inline]
    fn int64(&mut self) -> Option<i64> {
        match self.0 {
            Value::Number(n) => to_i64(n),
            _ => None,
        }
    }
    #[inline]
    fn uint64(&mut self) -> Option<u64> {
        match self.0 {
            Value::Number(n) => to_u64(n),
            _ => None,
        }
    }
    #[inline]
    fn float64(&mut self) -> Option<f64> {
        self.0.as_f64()
    }
    #[inline]
    fn value(&mut self) -> Option<Value> {
        Some(self.0.clone())
    }
    #[inline]
    fn len_hint(&self) -> usize {
        self.0.as_array().map_or(0, Vec::len)
    }
    #[inline]
    fn items(&mut self, mut f: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        for e in self.0.as_array()? {
            f(&mut ValueSource(e))?;
        }
        Some(())
    }
    #[inline]
    fn members(&mut self, mut f: impl FnMut(&'a str, &mut Self) -> Option<()>) -> Option<()> {
        for (k, e) in self.0.as_object()? {
            f(k.as_str(), &mut ValueSource(e))?;
        }
        Some(())
    }
}

/// A number the scan read, as `i64` (`5.0` counts), for the typed parse.
#[inline]
#[must_use]
pub fn num_i64(n: Num) -> Option<i64> {
    match n {
        Num::U(u) => i64::try_from(u).ok(),
        Num::I(i) => Some(i),
        Num::F(_) => to_i64(&n.to_number()),
    }
}

/// A number the scan read, as `u64` (`5.0` counts), for the typed parse.
#[inline]
#[must_use]
pub fn num_u64(n: Num) -> Option<u64> {
    match n {
        Num::U(u) => Some(u),
        Num::I(i) => u64::try_from(i).ok(),
        Num::F(_) => to_u64(&n.to_number()),
    }
}

/// A number the scan read, as `f64` (what `serde_json::Number::as_f64` gives).
#[inline]
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn num_f64(n: Num) -> Option<f64> {
    match n {
        Num::U(u) => Some(u as f64),
        Num::I(i) => Some(i as f64),
        Num::F(f) => Some(f),
    }
}

impl<'a> Source for Scanner<'a> {
    type Key = Str<'a>;

    #[inline]
    fn kind(&self) -> Kind {
        match self.peek() {
            b'"' => Kind::String,
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => Kind::Number,
        }
    }
    fn is_integer(&self) -> bool {
        self.clone().num().is_ok_and(Num::is_integer)
    }
    fn has_member(&self, name: &str) -> bool {
        let mut found = false;
        let _ = self.clone().members(|k, sc| {
            found |= k.eq_str(name);
            sc.skip()
        });
        found
    }
    fn tag_is(&self, name: &str, value: &str) -> bool {
        let mut found = false;
        let _ = self.clone().members(|k, sc| {
            if k.eq_str(name) && sc.kind() == Kind::String {
                found |= sc.with_text(|s| s.eq_str(value))?;
                Some(())
            } else {
                sc.skip()
            }
        });
        found
    }
    #[inline]
    fn skip(&mut self) -> Option<()> {
        self.skip_value().ok()
    }
    #[inline]
    fn null(&mut self) -> Option<()> {
        self.lit(b"null").ok()
    }
    #[inline]
    fn boolean(&mut self) -> Option<bool> {
        match self.peek() {
            b't' => self.lit(b"true").ok().map(|()| true),
            _ => self.lit(b"false").ok().map(|()| false),
        }
    }
    #[inline]
    fn string(&mut self) -> Option<String> {
        Scanner::string(self).ok().map(|s| s.to_cow().into_owned())
    }
    #[inline]
    fn with_text<R>(&mut self, f: impl FnOnce(Str<'a>) -> R) -> Option<R> {
        Scanner::string(self).ok().map(f)
    }
    #[inline]
    fn number(&mut self) -> Option<Number> {
        Scanner::number(self).ok()
    }
    #[inline]
    fn int64(&mut self) -> Option<i64> {
        num_i64(self.num().ok()?)
    }
    #[inline]
    fn uint64(&mut self) -> Option<u64> {
        num_u64(self.num().ok()?)
    }
    fn value(&mut self) -> Option<Value> {
        let start = self.pos();
        self.skip_value().ok()?;
        serde_json::from_str(self.span_from(start).as_str()).ok()
    }
    #[inline]
    fn len_hint(&self) -> usize {
        0
    }
    #[inline]
    fn items(&mut self, mut f: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if self.enter_array().ok()? {
            loop {
                f(self)?;
                if !self.next_item().ok()? {
                    break;
                }
            }
        }
        Some(())
    }
    #[inline]
    fn members(&mut self, mut f: impl FnMut(Str<'a>, &mut Self) -> Option<()>) -> Option<()> {
        if self.enter_object().ok()? {
            loop {
                let k = self.key().ok()?;
                f(k, self)?;
                if !self.next_member().ok()? {
                    break;
                }
            }
        }
        Some(())
    }
}
