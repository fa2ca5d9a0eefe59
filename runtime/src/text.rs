//! Validation straight from reply text: a strict JSON scanner that allocates nothing.
//!
//! The generated code drives a [`Scanner`] over the text in one pass ("scan" functions, one per
//! subschema) and decides valid/invalid without building a `serde_json::Value`. The scanner is
//! exactly as strict as [`crate::parse`]: the JSON grammar, no control characters in strings,
//! valid escapes, no lone surrogates, numbers within `f64` range, no duplicate keys at any level
//! (decoded keys are compared, so `"a"` and `"\u0061"` collide), and at most 127 nested arrays and
//! objects, which is where `serde_json`'s recursion limit of 128 stops. Numbers get the very value
//! `serde_json` gives them, whichever of its float parsers is compiled in.
//!
//! Reporting violations (the [`crate::Sink`]s that want them) is done by the generated validator
//! functions, generic over the instance (`crate::instance`), run over [`Span`]s of text already
//! known to be well-formed: the very functions that check a `&Value`, so the order is the same
//! (schema order; members visited in `serde_json::Map` order, by key, or document order with
//! `serde_json`'s `preserve_order`). Subschemas whose keywords the scan does not compile use the
//! same functions with a `Verdict` to decide.
//!
//! Nothing here allocates except [`Span::found`] and [`Str::to_cow`] on escaped text, which only
//! run when a violation is rendered; [`Str::with_decoded`] on escaped text over 256 bytes; the map
//! order and `uniqueItems` beyond 64 members or items; and [`check_text`] when the input is not
//! JSON at all (its one error message comes from `serde_json`, so that both paths report the same
//! syntax error).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU8, Ordering as Atomic};

use serde_json::{Number, Value};

use crate::json::parse;
use crate::num::{cmp_limit, num_eq, Limit};
use crate::report::{Path, Sink};
use crate::violation::{Error, Found, JsonType};

/// The deepest nesting of arrays and objects that `serde_json` (and so [`crate::parse`]) accepts.
pub const MAX_DEPTH: u32 = 127;

/// Why a scan stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The text is JSON so far but violates the schema (the rest was not looked at).
    Invalid,
    /// The text is not one JSON value.
    Syntax,
}

/// The result of scanning one value.
pub type Step = Result<(), Halt>;

/// A position in reply text, moved forward by the generated scan functions.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    depth: u32,
    // The last string read: its raw bounds and whether it has escapes. Kept here rather than
    // returned, so that the fast and the slow path hand it over through plain word-sized stores.
    s_start: usize,
    s_end: usize,
    s_escaped: usize,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

#[inline]
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// Bytes of `w` that end or interrupt a plain run of string content: `"`, `\` or a control char.
#[inline]
const fn special(w: u64) -> u64 {
    zero_bytes(w ^ (ONES * b'"' as u64))
        | zero_bytes(w ^ (ONES * b'\\' as u64))
        | (w.wrapping_sub(ONES * 0x20) & !w & HIGH)
}

#[inline]
fn word(b: &[u8], i: usize) -> Option<u64> {
    let chunk = b.get(i..i.checked_add(8)?)?;
    <[u8; 8]>::try_from(chunk).ok().map(u64::from_le_bytes)
}

/// Like [`word`], but the last few bytes of the input come padded with `0xFF` (never special).
#[inline]
fn word_or_tail(b: &[u8], i: usize) -> Option<u64> {
    if let Some(w) = word(b, i) {
        return Some(w);
    }
    let rest = b.get(i..).filter(|r| !r.is_empty())?;
    let mut buf = [0xFF_u8; 8];
    for (d, s) in buf.iter_mut().zip(rest) {
        *d = *s;
    }
    Some(u64::from_le_bytes(buf))
}

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let mut n = 0u32;
    for k in 0..4 {
        let d = char::from(*b.get(i + k)?).to_digit(16)?;
        n = n * 16 + d;
    }
    Some(n)
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`.
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Self { src: text, b: text.as_bytes(), pos: 0, depth: 0, s_start: 0, s_end: 0, s_escaped: 0 }
    }

    /// A scanner at the start of `text`, a value nested `depth` containers deep (the depth limit
    /// counts them).
    #[must_use]
    pub(crate) fn nested(text: &'a str, depth: u32) -> Self {
        Self { src: text, b: text.as_bytes(), pos: 0, depth, s_start: 0, s_end: 0, s_escaped: 0 }
    }

    fn at(src: &'a str, pos: usize) -> Self {
        Self { src, b: src.as_bytes(), pos, depth: 0, s_start: 0, s_end: 0, s_escaped: 0 }
    }

    /// The byte offset of the next unread byte.
    #[inline]
    #[must_use]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The next byte, or `0` at the end.
    #[inline]
    #[must_use]
    pub fn peek(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(0)
    }

    /// Skip JSON whitespace.
    #[inline]
    pub fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// Whether all the text has been read.
    #[must_use]
    pub fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    /// The text from `start` to the current position, as a [`Span`].
    #[must_use]
    pub fn span_from(&self, start: usize) -> Span<'a> {
        Span { src: self.src, start, end: self.pos }
    }

    /// Expect the literal `word` (`true`, `false` or `null`) at the current position.
    #[inline]
    pub fn lit(&mut self, word: &[u8]) -> Step {
        let end = self.pos + word.len();
        if self.b.get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(())
        } else {
            Err(Halt::Syntax)
        }
    }

    /// Enter the object at the current `{`. `Ok(true)` when a member follows (the scanner is at
    /// its key), `Ok(false)` for `{}` (consumed).
    ///
    /// # Errors
    /// [`Halt::Syntax`] on bad syntax or nesting beyond [`MAX_DEPTH`].
    #[inline]
    pub fn enter_object(&mut self) -> Result<bool, Halt> {
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Halt::Syntax);
        }
        self.ws();
        match self.peek() {
            b'"' => Ok(true),
            b'}' => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(Halt::Syntax),
        }
    }

    /// Read a member's key and the `:` after it; the scanner is then at the value.
    ///
    /// # Errors
    /// [`Halt::Syntax`] on bad syntax.
    #[inline(always)]
    pub fn key(&mut self) -> Result<Str<'a>, Halt> {
        let k = self.string()?;
        self.ws();
        if self.peek() != b':' {
            return Err(Halt::Syntax);
        }
        self.pos += 1;
        self.ws();
        Ok(k)
    }

    /// After a member's value: `Ok(true)` when another member follows (the scanner is at its
    /// key), `Ok(false)` at the closing `}` (consumed).
    ///
    /// # Errors
    /// [`Halt::Syntax`] on bad syntax.
    #[inline]
    pub fn next_member(&mut self) -> Result<bool, Halt> {
        self.ws();
        match self.peek() {
            b',' => {
                self.pos += 1;
                self.ws();
                if self.peek() == b'"' {
                    Ok(true)
                } else {
                    Err(Halt::Syntax)
                }
            }
            b'}' => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(Halt::Syntax),
        }
    }

    /// Enter the array at the current `[`. `Ok(true)` when an item follows (the scanner is at
    /// it), `Ok(false)` for `[]` (consumed).
    ///
    /// # Errors
    /// [`Halt::Syntax`] on bad syntax or nesting beyond [`MAX_DEPTH`].
    #[inline]
    pub fn enter_array(&mut self) -> Result<bool, Halt> {
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Halt::Syntax);
        }
        self.ws();
        if self.peek() == b']' {
            self.pos += 1;
            self.depth -= 1;
            Ok(false)
        } else {
            Ok(true)
        }
    }

    /// After an item: `Ok(true)` when another item follows (the scanner is at it), `Ok(false)` at
    /// the closing `]` (consumed).
    ///
    /// # Errors
    /// [`Halt::Syntax`] on bad syntax.
    #[inline]
    pub fn next_item(&mut self) -> Result<bool, Halt> {
        self.ws();
        match self.peek() {
            b',' => {
                self.pos += 1;
                self.ws();
                Ok(true)
            }
            b']' => {
                self.pos += 1;
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(Halt::Syntax),
        }
    }

    /// Read the string at the current `"`, checking escapes and control characters.
    ///
    /// # Errors
    /// [`Halt::Syntax`] on an unterminated string, a control character, a bad escape or a lone
    /// surrogate.
    #[inline(always)]
    pub fn string(&mut self) -> Result<Str<'a>, Halt> {
        self.scan_string()?;
        let raw = self.src.get(self.s_start..self.s_end).ok_or(Halt::Syntax)?;
        Ok(Str { raw, escaped: self.s_escaped })
    }

    /// The string that [`Scanner::string`] read last (what it returned), without reading it
    /// again: for a value just scanned by a generated function whose string arm reads it.
    #[inline]
    #[must_use]
    pub fn last_str(&self) -> Str<'a> {
        Str { raw: self.src.get(self.s_start..self.s_end).unwrap_or(""), escaped: self.s_escaped }
    }

    #[inline(always)]
    fn scan_string(&mut self) -> Step {
        let start = self.pos + 1;
        let mut i = start;
        while let Some(w) = word_or_tail(self.b, i) {
            let m = special(w);
            if m != 0 {
                i += (m.trailing_zeros() / 8) as usize;
                if self.b.get(i) == Some(&b'"') {
                    self.pos = i + 1;
                    self.s_start = start;
                    self.s_end = i;
                    self.s_escaped = 0;
                    return Ok(());
                }
                break;
            }
            i += 8;
        }
        self.string_slow(start, i)
    }

    /// The rest of [`Scanner::string`] from offset `i`: escapes, control characters, the tail.
    #[inline(never)]
    fn string_slow(&mut self, start: usize, mut i: usize) -> Step {
        let mut escaped = 0;
        loop {
            match self.b.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    self.s_start = start;
                    self.s_end = i;
                    self.s_escaped = escaped;
                    return Ok(());
                }
                Some(b'\\') => {
                    escaped = 1;
                    i = self.escape(i + 1)?;
                }
                Some(&c) if c < 0x20 => return Err(Halt::Syntax),
                Some(_) => i += 1,
                None => return Err(Halt::Syntax),
            }
            while let Some(w) = word(self.b, i) {
                let m = special(w);
                if m != 0 {
                    i += (m.trailing_zeros() / 8) as usize;
                    break;
                }
                i += 8;
            }
        }
    }

    /// Check the escape whose letter is at `i`; the offset after it.
    fn escape(&self, i: usize) -> Result<usize, Halt> {
        match self.b.get(i) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 1),
            Some(b'u') => {
                let n = hex4(self.b, i + 1).ok_or(Halt::Syntax)?;
                if (0xDC00..=0xDFFF).contains(&n) {
                    return Err(Halt::Syntax);
                }
                if !(0xD800..=0xDBFF).contains(&n) {
                    return Ok(i + 5);
                }
                if self.b.get(i + 5) != Some(&b'\\') || self.b.get(i + 6) != Some(&b'u') {
                    return Err(Halt::Syntax);
                }
                let lo = hex4(self.b, i + 7).ok_or(Halt::Syntax)?;
                if (0xDC00..=0xDFFF).contains(&lo) {
                    Ok(i + 11)
                } else {
                    Err(Halt::Syntax)
                }
            }
            _ => Err(Halt::Syntax),
        }
    }

    /// Read the number at the current position, with the value `serde_json` gives it.
    ///
    /// # Errors
    /// [`Halt::Syntax`] when it is not a JSON number or is beyond the `f64` range.
    #[inline]
    pub fn number(&mut self) -> Result<Number, Halt> {
        let start = self.pos;
        let n = match self.parse_number()? {
            Parsed::U(u) => Number::from(u),
            Parsed::I(i) => Number::from(i),
            Parsed::F(f, true) => Number::from_f64(f).ok_or(Halt::Syntax)?,
            Parsed::F(f, false) => {
                // Outside the fast path the two float parsers of serde_json may differ (by an ulp,
                // or on overflow near f64::MAX): use the one that is compiled in.
                let t = self.src.get(start..self.pos).ok_or(Halt::Syntax)?;
                let exact = t.parse::<f64>().map_err(|_| Halt::Syntax)?;
                let f = if exact.to_bits() == f.to_bits() || !float_roundtrip() { f } else { exact };
                Number::from_f64(f).ok_or(Halt::Syntax)?
            }
        };
        Ok(n)
    }

    /// Read the number at the current position as a [`Num`] (the value `serde_json` gives it,
    /// in a form that compares faster than `serde_json::Number`).
    ///
    /// # Errors
    /// [`Halt::Syntax`] when it is not a JSON number or is beyond the `f64` range.
    #[inline]
    pub fn num(&mut self) -> Result<Num, Halt> {
        let start = self.pos;
        match self.parse_number()? {
            Parsed::U(u) => Ok(Num::U(u)),
            Parsed::I(i) => Ok(Num::I(i)),
            Parsed::F(f, true) if f.is_finite() => Ok(Num::F(f)),
            Parsed::F(..) => {
                self.pos = start;
                match self.number()?.as_f64() {
                    Some(f) if f.is_finite() => Ok(Num::F(f)),
                    _ => Err(Halt::Syntax),
                }
            }
        }
    }

    fn digit(&self) -> Option<u8> {
        self.b.get(self.pos).filter(|c| c.is_ascii_digit()).map(|c| c - b'0')
    }

    /// `serde_json`'s number grammar and value, without its `float_roundtrip` feature.
    fn parse_number(&mut self) -> Result<Parsed, Halt> {
        let positive = if self.peek() == b'-' {
            self.pos += 1;
            false
        } else {
            true
        };
        let first = self.digit().ok_or(Halt::Syntax)?;
        self.pos += 1;
        let mut sig = u64::from(first);
        if first == 0 {
            if self.digit().is_some() {
                return Err(Halt::Syntax);
            }
        } else {
            while let Some(d) = self.digit() {
                if overflows(sig, u64::from(d)) {
                    // Too long for u64: keep the leading digits, count the rest as exponent.
                    let mut exp: i32 = 0;
                    while self.digit().is_some() {
                        self.pos += 1;
                        exp = exp.saturating_add(1);
                    }
                    return match self.peek() {
                        b'.' => self.decimal(positive, sig, exp).map(|(f, e)| Parsed::F(f, e)),
                        b'e' | b'E' => self.exponent(positive, sig, exp).map(|(f, e)| Parsed::F(f, e)),
                        _ => f64_from_parts(positive, sig, exp).map(|(f, e)| Parsed::F(f, e)),
                    };
                }
                self.pos += 1;
                sig = sig * 10 + u64::from(d);
            }
        }
        match self.peek() {
            b'.' => self.decimal(positive, sig, 0).map(|(f, e)| Parsed::F(f, e)),
            b'e' | b'E' => self.exponent(positive, sig, 0).map(|(f, e)| Parsed::F(f, e)),
            _ => Ok(if positive {
                Parsed::U(sig)
            } else {
                #[allow(clippy::cast_possible_wrap, clippy::cast_precision_loss)]
                let neg = (sig as i64).wrapping_neg();
                if neg >= 0 {
                    // Shared by both of serde_json's float parsers.
                    #[allow(clippy::cast_precision_loss)]
                    Parsed::F(-(sig as f64), true)
                } else {
                    Parsed::I(neg)
                }
            }),
        }
    }

    fn decimal(&mut self, positive: bool, mut sig: u64, before: i32) -> Result<(f64, bool), Halt> {
        self.pos += 1; // '.'
        let mut after: i32 = 0;
        while let Some(d) = self.digit() {
            if overflows(sig, u64::from(d)) {
                while self.digit().is_some() {
                    self.pos += 1;
                }
                let exp = before.saturating_add(after);
                return match self.peek() {
                    b'e' | b'E' => self.exponent(positive, sig, exp),
                    _ => f64_from_parts(positive, sig, exp),
                };
            }
            self.pos += 1;
            sig = sig * 10 + u64::from(d);
            after -= 1;
        }
        if after == 0 {
            return Err(Halt::Syntax);
        }
        let exp = before.saturating_add(after);
        match self.peek() {
            b'e' | b'E' => self.exponent(positive, sig, exp),
            _ => f64_from_parts(positive, sig, exp),
        }
    }

    fn exponent(&mut self, positive: bool, sig: u64, start: i32) -> Result<(f64, bool), Halt> {
        self.pos += 1; // 'e'
        let positive_exp = match self.peek() {
            b'+' => {
                self.pos += 1;
                true
            }
            b'-' => {
                self.pos += 1;
                false
            }
            _ => true,
        };
        let mut exp = i32::from(self.digit().ok_or(Halt::Syntax)?);
        self.pos += 1;
        while let Some(d) = self.digit() {
            self.pos += 1;
            let d = i32::from(d);
            if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
                if sig != 0 && positive_exp {
                    return Err(Halt::Syntax);
                }
                while self.digit().is_some() {
                    self.pos += 1;
                }
                return Ok((if positive { 0.0 } else { -0.0 }, true));
            }
            exp = exp * 10 + d;
        }
        let exp = if positive_exp { start.saturating_add(exp) } else { start.saturating_sub(exp) };
        f64_from_parts(positive, sig, exp)
    }

    /// Read any value, checking its syntax only (duplicate keys and depth included).
    ///
    /// # Errors
    /// [`Halt::Syntax`] on anything [`crate::parse`] would refuse.
    pub fn skip_value(&mut self) -> Step {
        match self.peek() {
            b'"' => self.scan_string(),
            b'{' => {
                let mut keys = Keys::new(self.pos);
                if self.enter_object()? {
                    loop {
                        let at = self.pos;
                        let k = self.key()?;
                        keys.insert(self, k, at)?;
                        self.skip_value()?;
                        if !self.next_member()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
            b'[' => {
                if self.enter_array()? {
                    loop {
                        self.skip_value()?;
                        if !self.next_item()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
            b't' => self.lit(b"true"),
            b'f' => self.lit(b"false"),
            b'n' => self.lit(b"null"),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            _ => Err(Halt::Syntax),
        }
    }

    /// Skip a value of text already known to be well-formed.
    fn skip_trusted(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                b'"' => {
                    let mut i = self.pos + 1;
                    loop {
                        while let Some(w) = word(self.b, i) {
                            let m =
                                zero_bytes(w ^ (ONES * u64::from(b'"'))) | zero_bytes(w ^ (ONES * u64::from(b'\\')));
                            if m != 0 {
                                i += (m.trailing_zeros() / 8) as usize;
                                break;
                            }
                            i += 8;
                        }
                        match self.b.get(i) {
                            Some(b'"') => break,
                            Some(b'\\') => i += 2,
                            Some(_) => i += 1,
                            None => {
                                self.pos = self.b.len();
                                return;
                            }
                        }
                    }
                    self.pos = i + 1;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                }
                0 => return,
                _ => {
                    if depth > 0 {
                        self.pos += 1;
                        continue;
                    }
                    while !matches!(self.peek(), b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t' | 0) {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return;
            }
        }
    }

    /// Whether the object starting at `obj` has, before offset `before`, a key equal to `key`.
    fn has_key_before(&self, obj: usize, before: usize, key: Str<'_>) -> bool {
        self.keys_before(obj, before).any(|k| k.same(key))
    }

    /// The keys of the object starting at `obj` that start before offset `before`.
    fn keys_before(&self, obj: usize, before: usize) -> impl Iterator<Item = Str<'a>> {
        let mut r = Scanner::at(self.src, obj + 1);
        std::iter::from_fn(move || {
            r.ws();
            if r.pos >= before || r.peek() != b'"' {
                return None;
            }
            let k = r.string().ok()?;
            r.ws();
            r.pos += 1; // ':'
            r.ws();
            r.skip_trusted();
            r.ws();
            if r.peek() == b',' {
                r.pos += 1;
            }
            Some(k)
        })
    }

    /// Whether the item that starts at `item` and ends here equals an earlier item of the array
    /// that starts at `array` (JSON Schema equality; for `uniqueItems`).
    #[must_use]
    pub fn seen_before(&self, array: usize, item: usize) -> bool {
        let this = Span { src: self.src, start: item, end: self.pos };
        let all = Span { src: self.src, start: array, end: self.pos };
        all.items().take_while(|s| s.start < item).any(|s| json_eq(s, this))
    }
}

/// A number read from text: `serde_json`'s three representations, unwrapped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// a non-negative integer
    U(u64),
    /// a negative integer
    I(i64),
    /// anything else (finite)
    F(f64),
}

impl Num {
    /// Compare with a schema limit by mathematical value, exactly as
    /// `toolgate::__private::cmp_limit` does on the equal `serde_json::Number`.
    #[inline(always)]
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn compare(self, limit: Limit) -> Ordering {
        const EXACT: u64 = 1 << 53;
        match (self, limit) {
            (Num::U(a), Limit::I(b)) if b >= 0 => a.cmp(&b.unsigned_abs()),
            (Num::I(a), Limit::I(b)) => a.cmp(&b),
            // An integer limit within ±2^53 is exact as f64: one exact comparison.
            (Num::F(a), Limit::I(b)) if b.unsigned_abs() <= EXACT => {
                a.partial_cmp(&(b as f64)).unwrap_or(Ordering::Equal)
            }
            (Num::F(a), Limit::F(b)) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
            _ => self.compare_slow(limit),
        }
    }

    #[inline(never)]
    #[allow(clippy::cast_precision_loss)]
    fn compare_slow(self, limit: Limit) -> Ordering {
        const EXACT: u64 = 1 << 53;
        match (self, limit) {
            (Num::U(a), Limit::I(b)) => i128::from(a).cmp(&i128::from(b)),
            (Num::U(a), Limit::U(b)) => a.cmp(&b),
            (Num::I(_), Limit::U(_)) => Ordering::Less,
            (Num::U(a), Limit::F(b)) if a <= EXACT => (a as f64).partial_cmp(&b).unwrap_or(Ordering::Equal),
            (Num::I(a), Limit::F(b)) if a.unsigned_abs() <= EXACT => {
                (a as f64).partial_cmp(&b).unwrap_or(Ordering::Equal)
            }
            _ => cmp_limit(&self.to_number(), limit),
        }
    }

    /// Whether the value is an integer in JSON Schema's sense (`1.0` is).
    #[inline(always)]
    #[must_use]
    pub fn is_integer(self) -> bool {
        match self {
            Num::U(_) | Num::I(_) => true,
            Num::F(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    /// The equal `serde_json::Number`.
    #[must_use]
    pub fn to_number(self) -> Number {
        match self {
            Num::U(u) => Number::from(u),
            Num::I(i) => Number::from(i),
            Num::F(f) => Number::from_f64(f).unwrap_or_else(|| Number::from(0u8)),
        }
    }
}

#[derive(Clone, Copy)]
enum Parsed {
    U(u64),
    I(i64),
    /// the value serde_json computes without `float_roundtrip` (infinite when it refuses the
    /// number), and whether that is also the correctly rounded value
    F(f64, bool),
}

#[inline]
const fn overflows(sig: u64, d: u64) -> bool {
    sig >= u64::MAX / 10 && (sig > u64::MAX / 10 || d > u64::MAX % 10)
}

/// `serde_json`'s conversion (without `float_roundtrip`) of `sig × 10^exp` to `f64`: infinite
/// where it reports the number out of range. Also whether the result is certainly the correctly
/// rounded value (Clinger's fast path: one exact operand, one rounding), which the
/// `float_roundtrip` parser gives too.
#[allow(clippy::cast_precision_loss, clippy::cast_sign_loss)]
fn f64_from_parts(positive: bool, sig: u64, mut exp: i32) -> Result<(f64, bool), Halt> {
    let exact = sig <= 1 << 53 && (-22..=22).contains(&exp);
    let mut f = sig as f64;
    loop {
        match POW10.get(exp.wrapping_abs() as usize) {
            Some(&pow) => {
                if exp >= 0 {
                    f *= pow;
                } else {
                    f /= pow;
                }
                break;
            }
            None => {
                if f == 0.0 {
                    break;
                }
                if exp >= 0 {
                    f = f64::INFINITY;
                    break;
                }
                f /= 1e308;
                exp += 308;
            }
        }
    }
    Ok((if positive { f } else { -f }, exact))
}

/// Whether the linked `serde_json` parses floats with its `float_roundtrip` feature (correctly
/// rounded, like `str::parse`). Decided once by a probe that the two parsers read differently.
pub(crate) fn float_roundtrip() -> bool {
    static MODE: AtomicU8 = AtomicU8::new(0);
    match MODE.load(Atomic::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            // 90071992547409930 × 10^-1 is a tie: 9007199254740992 when correctly rounded,
            // 9007199254740994 by serde_json's fast parser. (The float_roundtrip parser may
            // allocate here, once per process, and only for a number outside the fast path.)
            let exact = "90071992547409930e-1".parse::<f64>().ok();
            let r = serde_json::from_str::<f64>("90071992547409930e-1").ok() == exact;
            MODE.store(if r { 2 } else { 1 }, Atomic::Relaxed);
            r
        }
    }
}

/// Which key hashes an object has seen (a Bloom filter), to find duplicate keys without
/// comparing every pair: only a key whose bits are all set is compared with the earlier keys.
///
/// The filter saturates after some dozens of keys, and comparing each key with every earlier one
/// would make an object of 100,000 keys cost billions of comparisons; so an object with more
/// than `MANY_KEYS` (64) members switches to a hash set of its decoded keys (its only allocation).
#[derive(Debug, Clone)]
pub struct Keys {
    obj: usize,
    bloom: KeyFilter,
    count: usize,
    seen: Option<HashSet<String>>,
}

/// The number of members beyond which an object's keys go into a hash set (and `serde_json::Map`
/// order is found by sorting rather than by repeated scans).
const MANY_KEYS: usize = 64;

impl Keys {
    /// For the object whose `{` is at offset `obj`.
    #[inline]
    #[must_use]
    pub fn new(obj: usize) -> Self {
        Self { obj, bloom: KeyFilter::EMPTY, count: 0, seen: None }
    }

    /// Record `key`, read at offset `at`.
    ///
    /// # Errors
    /// [`Halt::Syntax`] when an earlier key of the object equals it.
    #[inline]
    pub fn insert(&mut self, sc: &Scanner<'_>, key: Str<'_>, at: usize) -> Step {
        self.count = self.count.saturating_add(1);
        if self.count > MANY_KEYS && self.seen.is_none() {
            // The earlier keys, all distinct, read again once.
            self.seen = Some(sc.keys_before(self.obj, at).map(|k| k.to_cow().into_owned()).collect());
        }
        if let Some(seen) = &mut self.seen {
            return if seen.insert(key.to_cow().into_owned()) { Ok(()) } else { Err(Halt::Syntax) };
        }
        if self.bloom.insert(key.hash()) && sc.has_key_before(self.obj, at, key) {
            return Err(Halt::Syntax);
        }
        Ok(())
    }
}

/// The hashes of an object's keys, as a 128-bit Bloom filter: a key whose bits are not all set
/// was not seen before, and only one whose bits are is compared with the earlier keys, by
/// reading the object's text again. What [`Keys`] uses in one pass, and what the streaming
/// automata keep for each object they follow (fixed size: no copy of the keys). Useful up to
/// [`MANY_KEYS`] keys; beyond, most keys would hit and be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyFilter([u64; 2]);

impl KeyFilter {
    /// No key seen.
    pub(crate) const EMPTY: Self = Self([0; 2]);

    /// How many keys the filter is worth keeping for (the streaming automata leave an object
    /// with more to the end of the text).
    pub(crate) const USEFUL: u32 = MANY_KEYS as u32;

    /// Record a key's hash; whether its bits were all set already (it may repeat an earlier key).
    #[inline]
    fn insert(&mut self, h: u64) -> bool {
        let (a, b) = ((h & 127) as usize, ((h >> 7) & 127) as usize);
        let (wa, ba) = (a / 64, 1u64 << (a % 64));
        let (wb, bb) = (b / 64, 1u64 << (b % 64));
        let (Some(&xa), Some(&xb)) = (self.0.get(wa), self.0.get(wb)) else { return true };
        if let Some(x) = self.0.get_mut(wa) {
            *x |= ba;
        }
        if let Some(x) = self.0.get_mut(wb) {
            *x |= bb;
        }
        xa & ba != 0 && xb & bb != 0
    }

    /// For a streaming automaton: record the key whose quotes are at offsets `ks` and `ke` of
    /// `text` (all of the text read so far), a member of the object whose `{` is at `obj`.
    /// `Some(true)` when an earlier key of that object equals it (decoded: `"\u0061"` is
    /// `"a"`), `Some(false)` when none does, `None` when the text there is not what the automaton
    /// read (never, for text it read alive). Reads the object's text again only on a filter hit.
    pub(crate) fn repeated(&mut self, text: &[u8], obj: usize, ks: usize, ke: usize) -> Option<bool> {
        let quoted = std::str::from_utf8(text.get(ks..=ke)?).ok()?;
        let key = Scanner::new(quoted).string().ok()?;
        if !self.insert(key.hash()) {
            return Some(false);
        }
        key_before(text, obj, ks, ke)
    }
}

/// Whether the key whose quotes are at offsets `ks` and `ke` of `text` repeats a key before it
/// in the object whose `{` is at `obj` (decoded: `"\u0061"` is `"a"`); `None` when the text there
/// is not well-formed (never, for text a reader read alive). Reads the object's text again.
pub(crate) fn key_before(text: &[u8], obj: usize, ks: usize, ke: usize) -> Option<bool> {
    let quoted = std::str::from_utf8(text.get(ks..=ke)?).ok()?;
    let key = Scanner::new(quoted).string().ok()?;
    let members = std::str::from_utf8(text.get(obj..ks)?).ok()?;
    Some(Scanner::new(members).has_key_before(0, members.len(), key))
}

/// The items of an array with `uniqueItems` as a streaming reader sees them close, to find a
/// repeated item the moment it closes: a 64-bit Bloom filter of their hashes (strings by their
/// decoded text, numbers by value, arrays and objects by their content: equal for equal values,
/// [`Span::deep_hash`]), and only an item whose bits are all set is compared with the earlier
/// items, by reading the array's text again. At most
/// [`ItemFilter::READS`] times per array, so that a long array, whose filter saturates, is not
/// read again at every item (its repeats are found where it closes). Every reader keeps one per
/// array it follows and feeds it the same items in the same order: they decide alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ItemFilter {
    bits: u64,
    /// how many times the array's text was read again (the low bits), and [`ItemFilter::UNSURE`]
    state: u8,
}

impl ItemFilter {
    /// No item seen.
    pub(crate) const EMPTY: Self = Self { bits: 0, state: 0 };

    /// How many times an array's earlier items are read again, at most.
    pub(crate) const READS: u8 = 8;

    /// The bit of `state` set once an item that might repeat an earlier one was not compared
    /// (the reads were spent).
    const UNSURE: u8 = 0x80;

    /// The filter kept in two fields of a reader's frame: its bits and its state byte.
    pub(crate) const fn from_parts(bits: u64, state: u8) -> Self {
        Self { bits, state }
    }

    /// [`ItemFilter::from_parts`]'s fields.
    pub(crate) const fn into_parts(self) -> (u64, u8) {
        (self.bits, self.state)
    }

    /// The item `text[item..end]` of the array whose `[` is at `array` closed (`text` is all of
    /// the text read so far, alive): whether it equals an earlier item of the array, exactly as
    /// `uniqueItems` compares (`1` equals `1.0`, `"\u0061"` equals `"a"`, key order is
    /// irrelevant). A literal is compared at its first letter, which decides it (`end` is then
    /// after that letter: [`item_text`]). `false` also where it may and the reads are spent: then
    /// [`ItemFilter::unsure`] says so, and the array's close decides.
    pub(crate) fn repeated(&mut self, text: &[u8], array: usize, item: usize, end: usize) -> bool {
        let Some(raw) = item_text(text, item, end) else {
            self.state |= Self::UNSURE;
            return false;
        };
        let h = match raw {
            // A string without escapes (the commonest item): its canonical hash is its bytes'
            // (as `Span::canonical_hash` has it), with no need to make it a `str`.
            [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') => hash_text(inner),
            // (The item's own text is made a `str` for its hash, the array's only on a hit:
            // each item's bytes are checked once, not the array's at every item.)
            _ => match std::str::from_utf8(raw) {
                Ok(one) => Span { src: one, start: 0, end: one.len() }.deep_hash(),
                Err(_) => {
                    self.state |= Self::UNSURE;
                    return false;
                }
            },
        };
        let bits = 1u64 << (h & 63) | 1u64 << (h >> 6 & 63);
        let hit = self.bits & bits == bits;
        self.bits |= bits;
        if !hit {
            return false;
        }
        if self.state & !Self::UNSURE >= Self::READS {
            self.state |= Self::UNSURE;
            return false;
        }
        self.state += 1;
        match repeat_of(text, array, item, raw) {
            Some(Some(_)) => true,
            Some(None) => false,
            None => {
                self.state |= Self::UNSURE;
                false
            }
        }
    }

    /// Whether some item was not compared with the earlier ones ([`ItemFilter::repeated`]).
    pub(crate) const fn unsure(&self) -> bool {
        self.state & Self::UNSURE != 0
    }
}

/// Whether a value beginning with `b` is a literal (`true`, `false`, `null`): decided at that
/// letter, and so is whether it repeats an earlier item ([`ItemFilter::repeated`]).
pub(crate) const fn is_literal_start(b: u8) -> bool {
    matches!(b, b't' | b'f' | b'n')
}

/// The text of an array's item that begins at `item` and ends before `end`; for a literal, its
/// whole word, which its first letter decides (`None`: not within the text).
pub(crate) fn item_text(text: &[u8], item: usize, end: usize) -> Option<&[u8]> {
    match text.get(item)? {
        b't' => Some(b"true"),
        b'f' => Some(b"false"),
        b'n' => Some(b"null"),
        _ => text.get(item..end),
    }
}

/// Where an array's item that repeats an earlier one is: `Some(Some((i, j)))`, the first
/// earlier item it equals and its own index, for the array whose `[` is at `array` and the item
/// `raw` that begins at `item`; `Some(None)` when it repeats none; `None` when that text is not
/// an array's beginning (never, for text a reader read alive). Reads the array's text again.
pub(crate) fn repeat_of(text: &[u8], array: usize, item: usize, raw: &[u8]) -> Option<Option<(u64, u64)>> {
    let before = std::str::from_utf8(text.get(array..item)?).ok()?;
    let one = std::str::from_utf8(raw).ok()?;
    let this = Span { src: one, start: 0, end: one.len() };
    let all = Span { src: before, start: 0, end: before.len() };
    let mut first = None;
    let mut j = 0u64;
    for (i, s) in all.items().enumerate() {
        if first.is_none() && json_eq(s, this) {
            first = Some(i as u64);
        }
        j = i as u64 + 1;
    }
    Some(first.map(|i| (i, j)))
}

/// The items an array has seen (a Bloom filter of canonical hashes, equal for equal values), for
/// `uniqueItems` in one pass: only an item whose bits are all set is compared with the earlier
/// items.
#[derive(Debug, Clone)]
pub struct Unique {
    array: usize,
    bloom: [u64; 4],
    count: usize,
    /// Beyond [`MANY_ITEMS`] items: the items parsed, bucketed by a hash that JSON Schema
    /// equality respects (the filter saturates and pairwise rescans would be quadratic).
    many: Option<ManyItems>,
}

/// The items of a long array, for [`Unique`].
#[derive(Debug, Clone)]
struct ManyItems {
    keys: std::collections::hash_map::RandomState,
    items: Vec<Value>,
    buckets: std::collections::HashMap<u64, Vec<usize>>,
}

impl ManyItems {
    /// Add `v`; `true` when an equal item was added before.
    fn add(&mut self, v: Value) -> bool {
        let h = crate::json::eq_hash(&self.keys, &v);
        let items = &self.items;
        let bucket = self.buckets.entry(h).or_default();
        if bucket.iter().any(|&i| items.get(i).is_some_and(|a| crate::json::json_eq(a, &v))) {
            return true;
        }
        bucket.push(self.items.len());
        self.items.push(v);
        false
    }
}

/// The number of items up to which [`Unique`] needs no allocation.
const MANY_ITEMS: usize = 64;

/// A well-formed span as a `Value` (`Null` if it somehow is not JSON: never, the scanner read it).
fn span_value(s: Span<'_>) -> Value {
    s.src.get(s.start..s.end).and_then(|t| serde_json::from_str(t).ok()).unwrap_or(Value::Null)
}

impl Unique {
    /// For the array whose `[` is at offset `array`.
    #[inline]
    #[must_use]
    pub fn new(array: usize) -> Self {
        Self { array, bloom: [0; 4], count: 0, many: None }
    }

    /// Record the item that starts at `item` and ends at the scanner's position; `true` when it
    /// equals an earlier item.
    #[inline]
    pub fn seen(&mut self, sc: &Scanner<'_>, item: usize) -> bool {
        let this = Span { src: sc.src, start: item, end: sc.pos };
        self.count = self.count.saturating_add(1);
        if self.count > MANY_ITEMS && self.many.is_none() {
            // The earlier items, all distinct, read once more.
            let all = Span { src: sc.src, start: self.array, end: sc.pos };
            let mut many = ManyItems {
                keys: std::collections::hash_map::RandomState::new(),
                items: Vec::new(),
                buckets: std::collections::HashMap::new(),
            };
            for earlier in all.items().take_while(|s| s.start < item) {
                many.add(span_value(earlier));
            }
            self.many = Some(many);
        }
        if let Some(many) = &mut self.many {
            return many.add(span_value(this));
        }
        let h = this.canonical_hash();
        let (a, b) = ((h & 255) as usize, ((h >> 8) & 255) as usize);
        let (wa, ba, wb, bb) = (a / 64, 1u64 << (a % 64), b / 64, 1u64 << (b % 64));
        let (Some(&xa), Some(&xb)) = (self.bloom.get(wa), self.bloom.get(wb)) else {
            return sc.seen_before(self.array, item);
        };
        if xa & ba != 0 && xb & bb != 0 && sc.seen_before(self.array, item) {
            return true;
        }
        if let Some(x) = self.bloom.get_mut(wa) {
            *x |= ba;
        }
        if let Some(x) = self.bloom.get_mut(wb) {
            *x |= bb;
        }
        false
    }
}

/// A JSON string as it is written (between the quotes), with its escapes already checked.
#[derive(Debug, Clone, Copy)]
pub struct Str<'a> {
    raw: &'a str,
    // A whole word rather than a `bool`: moving a `Result<Str, Halt>` then copies three aligned
    // words, not 23 bytes with overlapping moves that stall store forwarding (measured: ~25%).
    escaped: usize,
}

impl<'a> Str<'a> {
    /// Whether the string contains escapes (its decoded text differs from its raw text).
    #[inline]
    #[must_use]
    pub fn is_escaped(&self) -> bool {
        self.escaped != 0
    }

    /// The raw bytes between the quotes (the decoded text when not [`Str::is_escaped`]).
    #[inline]
    #[must_use]
    pub fn raw(&self) -> &'a [u8] {
        self.raw.as_bytes()
    }

    /// The raw text between the quotes.
    pub(crate) fn raw_str(&self) -> &'a str {
        self.raw
    }

    /// The decoded characters.
    #[must_use]
    pub fn chars(&self) -> Chars<'a> {
        Chars { rest: self.raw }
    }

    /// Whether the decoded text is `s`.
    #[inline]
    #[must_use]
    pub fn eq_str(&self, s: &str) -> bool {
        if self.is_escaped() {
            self.chars().eq(s.chars())
        } else {
            // The last bytes first: names that differ mostly differ there (`p01`, `p02`), and a
            // comparison of whole slices is a call.
            self.raw.len() == s.len() && self.raw.as_bytes().last() == s.as_bytes().last() && self.raw == s
        }
    }

    /// Whether two strings decode to the same text.
    #[must_use]
    pub fn same(&self, other: Str<'_>) -> bool {
        if !self.is_escaped() && !other.is_escaped() {
            self.raw == other.raw
        } else {
            self.chars().eq(other.chars())
        }
    }

    /// Order by decoded text (UTF-8 byte order, as `String` orders).
    #[must_use]
    pub fn order(&self, other: Str<'_>) -> Ordering {
        if !self.is_escaped() && !other.is_escaped() {
            self.raw.cmp(other.raw)
        } else {
            self.chars().cmp(other.chars())
        }
    }

    /// The length in Unicode code points of the decoded text (JSON Schema's string length).
    #[inline]
    #[must_use]
    pub fn char_len(&self) -> u64 {
        if self.is_escaped() {
            self.chars().count() as u64
        } else {
            self.raw.bytes().filter(|b| b & 0xC0 != 0x80).count() as u64
        }
    }

    /// A hash of the decoded text (equal for strings that decode equally, escaped or not).
    #[must_use]
    pub fn hash(&self) -> u64 {
        if !self.is_escaped() {
            return hash_text(self.raw.as_bytes());
        }
        let mut buf = [0u8; HASHED];
        let mut len = 0usize;
        for c in self.chars() {
            let n = c.len_utf8();
            if let Some(dst) = buf.get_mut(len..len + n) {
                c.encode_utf8(dst);
            }
            len += n;
        }
        match buf.get(..len) {
            Some(b) => hash_text(b),
            None => long_hash(len),
        }
    }

    /// Call `f` with the decoded text: borrowed when the string has no escapes, decoded into a
    /// stack buffer when it has and is short, allocated only beyond 256 bytes.
    pub fn with_decoded<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        if !self.is_escaped() {
            return f(self.raw);
        }
        let mut buf = [0u8; 256];
        let mut len = 0;
        for c in self.chars() {
            let n = c.len_utf8();
            match buf.get_mut(len..len + n) {
                Some(dst) => {
                    c.encode_utf8(dst);
                    len += n;
                }
                None => return f(&self.to_cow()),
            }
        }
        match buf.get(..len).map(std::str::from_utf8) {
            Some(Ok(s)) => f(s),
            _ => f(&self.to_cow()),
        }
    }

    /// The decoded text; allocates only when the string has escapes.
    #[must_use]
    pub fn to_cow(&self) -> Cow<'a, str> {
        if self.is_escaped() {
            Cow::Owned(self.chars().collect())
        } else {
            Cow::Borrowed(self.raw)
        }
    }
}

/// The decoded characters of a [`Str`].
#[derive(Debug, Clone)]
pub struct Chars<'a> {
    rest: &'a str,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let mut it = self.rest.chars();
        let c = it.next()?;
        if c != '\\' {
            self.rest = it.as_str();
            return Some(c);
        }
        let b = self.rest.as_bytes();
        let (c, len) = match b.get(1)? {
            b'n' => ('\n', 2),
            b't' => ('\t', 2),
            b'r' => ('\r', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'u' => {
                let n = hex4(b, 2)?;
                if (0xD800..=0xDBFF).contains(&n) {
                    let lo = hex4(b, 8)?;
                    (char::from_u32(0x10000 + ((n - 0xD800) << 10) + (lo.checked_sub(0xDC00)?))?, 12)
                } else {
                    (char::from_u32(n)?, 6)
                }
            }
            &other => (char::from(other), 2),
        };
        self.rest = self.rest.get(len..)?;
        Some(c)
    }
}

/// The multiplier of [`mix`] (and of the integer hash of [`Span::canonical_hash`]).
const MIX_K: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of the value hashes ([`Span::canonical_hash`], [`Span::deep_hash`]).
const fn mix(x: u64) -> u64 {
    (x ^ (x >> 31)).wrapping_mul(MIX_K).rotate_left(29)
}

/// Decoded strings up to this many bytes are hashed by content, longer ones by length only.
const HASHED: usize = 256;

fn long_hash(len: usize) -> u64 {
    (len as u64 ^ 0x5851_F42D_4C95_7F2D).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A hash of decoded string bytes, eight at a time.
#[inline]
pub(crate) fn hash_text(b: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    if b.len() > HASHED {
        return long_hash(b.len());
    }
    let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = <[u8; 8]>::try_from(c).map_or(0, u64::from_le_bytes);
        h = (h ^ w).wrapping_mul(K).rotate_left(31);
    }
    let mut last = [0u8; 8];
    for (d, s) in last.iter_mut().zip(chunks.remainder()) {
        *d = *s;
    }
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K).rotate_left(31);
    h ^ (h >> 29)
}

/// A value inside well-formed text: what the reporting functions walk.
#[derive(Debug, Clone, Copy)]
pub struct Span<'a> {
    src: &'a str,
    start: usize,
    end: usize,
}

/// The JSON type of a [`Span`], from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// a number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl<'a> Span<'a> {
    /// The whole value of `text`, without the surrounding whitespace.
    #[must_use]
    pub fn root(text: &'a str) -> Self {
        let t = text.trim_start_matches([' ', '\n', '\r', '\t']);
        let start = text.len() - t.len();
        let end = text.trim_end_matches([' ', '\n', '\r', '\t']).len().max(start);
        Self { src: text, start, end }
    }

    /// The value's text.
    #[must_use]
    pub fn as_str(&self) -> &'a str {
        self.src.get(self.start..self.end).unwrap_or("")
    }

    pub(crate) fn scanner(&self) -> Scanner<'a> {
        Scanner::at(self.src, self.start)
    }

    /// Whether the value passes the scan function `f` (a subschema's, on text already known to
    /// be well-formed).
    #[inline]
    #[must_use]
    pub fn scan(&self, f: &dyn Fn(&mut Scanner<'_>) -> Step) -> bool {
        f(&mut self.scanner()).is_ok()
    }

    /// The value's JSON type.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self.src.as_bytes().get(self.start) {
            Some(b'"') => Kind::String,
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b't' | b'f') => Kind::Bool,
            Some(b'n') => Kind::Null,
            _ => Kind::Number,
        }
    }

    /// Whether the value is `null`.
    #[must_use]
    pub fn is_null(&self) -> bool {
        self.kind() == Kind::Null
    }
    /// Whether the value is `true` or `false`.
    #[must_use]
    pub fn is_boolean(&self) -> bool {
        self.kind() == Kind::Bool
    }
    /// Whether the value is a number.
    #[must_use]
    pub fn is_number(&self) -> bool {
        self.kind() == Kind::Number
    }
    /// Whether the value is an integer in JSON Schema's sense (`1.0` is).
    #[must_use]
    pub fn is_integer(&self) -> bool {
        self.number().is_some_and(|n| crate::num::is_integer(&n))
    }
    /// Whether the value is a string.
    #[must_use]
    pub fn is_string(&self) -> bool {
        self.kind() == Kind::String
    }
    /// Whether the value is an array.
    #[must_use]
    pub fn is_array(&self) -> bool {
        self.kind() == Kind::Array
    }
    /// Whether the value is an object.
    #[must_use]
    pub fn is_object(&self) -> bool {
        self.kind() == Kind::Object
    }

    /// The boolean, if the value is one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match self.src.as_bytes().get(self.start) {
            Some(b't') => Some(true),
            Some(b'f') => Some(false),
            _ => None,
        }
    }

    /// The string, if the value is one.
    #[must_use]
    pub fn str(&self) -> Option<Str<'a>> {
        if self.kind() == Kind::String {
            self.scanner().string().ok()
        } else {
            None
        }
    }

    /// The number, if the value is one.
    #[must_use]
    pub fn number(&self) -> Option<Number> {
        if self.kind() == Kind::Number {
            self.scanner().number().ok()
        } else {
            None
        }
    }

    /// The items, if the value is an array (none otherwise).
    #[must_use]
    pub fn items(&self) -> Items<'a> {
        let mut sc = self.scanner();
        if self.kind() == Kind::Array {
            sc.pos += 1;
        } else {
            sc.pos = self.src.len();
        }
        Items { sc }
    }

    /// The members in document order, if the value is an object (none otherwise).
    #[must_use]
    pub fn members(&self) -> Members<'a> {
        let mut sc = self.scanner();
        if self.kind() == Kind::Object {
            sc.pos += 1;
        } else {
            sc.pos = self.src.len();
        }
        Members { sc }
    }

    /// The members in the order a `serde_json::Map` iterates them: by key, or in document order
    /// when `serde_json`'s `preserve_order` feature is on.
    ///
    /// One pass records where each key begins and the positions are sorted by key, in place for
    /// up to `MANY_KEYS` (64) members (no allocation); more are collected and sorted on the heap.
    #[must_use]
    pub fn members_map_order(&self) -> MapOrder<'a> {
        let mut order =
            MapOrder { src: self.src, document: None, small: [0; MANY_KEYS], len: 0, next: 0, sorted: None };
        if PRESERVE_ORDER {
            order.document = Some(self.members());
            return order;
        }
        let mut members = self.members();
        loop {
            members.sc.ws();
            let at = members.sc.pos;
            let Ok(at32) = u32::try_from(at) else { break };
            if members.next().is_none() {
                return order;
            }
            let Some(slot) = order.small.get_mut(usize::from(order.len)) else { break };
            *slot = at32;
            order.len += 1;
        }
        // Too many members for the array (or a text beyond 4 GiB): sort them on the heap.
        let mut all: Vec<_> = self.members().collect();
        all.sort_by(|(a, _), (b, _)| a.order(*b));
        order.sorted = Some(all.into_iter());
        order.len = 0;
        order
    }

    /// The value of member `name`, if the value is an object that has it.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Span<'a>> {
        self.members().find(|(k, _)| k.eq_str(name)).map(|(_, v)| v)
    }

    /// Call `f(i, value)` for each member whose name is `names[i]` (for a name repeated in
    /// `names`, one of its occurrences), in one pass over the members. The name after the one
    /// found last is tried first: replies tend to follow the schema's order.
    pub(crate) fn each_named(&self, names: &[&str], mut f: impl FnMut(usize, Span<'a>)) {
        let mut next = 0;
        for (key, value) in self.members() {
            let i = if names.get(next).is_some_and(|n| key.eq_str(n)) {
                next
            } else {
                match names.iter().position(|n| key.eq_str(n)) {
                    Some(i) => i,
                    None => continue,
                }
            };
            f(i, value);
            next = i + 1;
        }
    }

    /// The number of items (arrays) or members (objects).
    #[must_use]
    pub fn count(&self) -> u64 {
        match self.kind() {
            Kind::Array => self.items().count() as u64,
            Kind::Object => self.members().count() as u64,
            _ => 0,
        }
    }

    /// The first pair `(i, j)`, `i < j`, of equal items (in the order of
    /// `toolgate::__private::first_duplicate`).
    #[must_use]
    pub fn first_duplicate(&self) -> Option<(u64, u64)> {
        if self.items().nth(MANY_ITEMS).is_some() {
            let values: Vec<Value> = self.items().map(span_value).collect();
            return crate::json::first_duplicate(&values).map(|(i, j)| (i as u64, j as u64));
        }
        for (j, b) in self.items().enumerate() {
            for (i, a) in self.items().take(j).enumerate() {
                if json_eq(a, b) {
                    return Some((i as u64, j as u64));
                }
            }
        }
        None
    }

    /// A hash that is equal for values that [`json_eq`] finds equal: strings by decoded text,
    /// numbers by value; arrays and objects only by type (they are compared in full).
    #[must_use]
    pub fn canonical_hash(&self) -> u64 {
        match self.kind() {
            Kind::String => {
                // Well-formed: without a backslash the text between the quotes is the string.
                let raw = self.src.as_bytes().get(self.start + 1..self.end.saturating_sub(1)).unwrap_or_default();
                if raw.contains(&b'\\') {
                    self.str().map_or(1, |s| s.hash())
                } else {
                    hash_text(raw)
                }
            }
            Kind::Number => {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let int = |i: i128| mix(i as u64 ^ ((i >> 64) as u64).wrapping_mul(MIX_K));
                match self.scanner().num() {
                    Ok(Num::U(u)) => int(i128::from(u)),
                    Ok(Num::I(i)) => int(i128::from(i)),
                    // Integral floats hash like the integer they equal (`1.0` like `1`).
                    #[allow(clippy::cast_possible_truncation)]
                    Ok(Num::F(f)) if f.fract() == 0.0 && f.abs() < 1.7e38 => int(f as i128),
                    Ok(Num::F(f)) => mix(f.to_bits()),
                    Err(_) => 2,
                }
            }
            Kind::Bool => mix(3 + u64::from(self.as_bool() == Some(true))),
            Kind::Null => mix(5),
            Kind::Array => mix(6),
            Kind::Object => mix(7),
        }
    }

    /// [`Span::canonical_hash`] through arrays and objects too (their items in order, their
    /// members in any order): equal for values that [`json_eq`] finds equal, and different for
    /// most that differ, so that a filter of the items of an array of objects is of use. Reads
    /// the whole value.
    fn deep_hash(&self) -> u64 {
        match self.kind() {
            Kind::Array => self.items().fold(mix(6), |h, item| mix(h ^ item.deep_hash())),
            // (A sum: the members' order does not matter.)
            Kind::Object => mix(7 ^ self
                .members()
                .fold(0u64, |h, (k, v)| h.wrapping_add(mix(k.hash() ^ v.deep_hash().rotate_left(17))))),
            _ => self.canonical_hash(),
        }
    }

    /// What was found here, as [`Found::of`] describes the parsed value. Allocates.
    #[must_use]
    pub fn found(&self) -> Found {
        match self.kind() {
            Kind::Null => Found::of(&Value::Null),
            Kind::Bool => Found::of(&Value::Bool(self.as_bool().unwrap_or(false))),
            Kind::Number => match self.number() {
                Some(n) => Found::of(&Value::Number(n)),
                None => Found::new(JsonType::Number, None),
            },
            Kind::String => Found::string(&self.str().map(|s| s.to_cow()).unwrap_or_default()),
            Kind::Array => Found::new(JsonType::Array, None),
            Kind::Object => Found::new(JsonType::Object, None),
        }
    }
}

/// Whether `serde_json::Map` keeps insertion order (its `preserve_order` feature): then it is an
/// `IndexMap`, which is larger than a `BTreeMap`.
const PRESERVE_ORDER: bool = std::mem::size_of::<serde_json::Map<String, Value>>()
    != std::mem::size_of::<std::collections::BTreeMap<String, Value>>();

/// The items of an array [`Span`].
#[derive(Debug, Clone)]
pub struct Items<'a> {
    sc: Scanner<'a>,
}

impl<'a> Iterator for Items<'a> {
    type Item = Span<'a>;

    fn next(&mut self) -> Option<Span<'a>> {
        self.sc.ws();
        if matches!(self.sc.peek(), b']' | 0) {
            return None;
        }
        let start = self.sc.pos;
        self.sc.skip_trusted();
        let item = self.sc.span_from(start);
        self.sc.ws();
        if self.sc.peek() == b',' {
            self.sc.pos += 1;
        } else {
            self.sc.pos = self.sc.b.len();
        }
        Some(item)
    }
}

/// The members of an object [`Span`], in document order.
#[derive(Debug, Clone)]
pub struct Members<'a> {
    sc: Scanner<'a>,
}

impl<'a> Iterator for Members<'a> {
    type Item = (Str<'a>, Span<'a>);

    fn next(&mut self) -> Option<(Str<'a>, Span<'a>)> {
        self.sc.ws();
        if self.sc.peek() != b'"' {
            return None;
        }
        let key = self.sc.string().ok()?;
        self.sc.ws();
        self.sc.pos += 1; // ':'
        self.sc.ws();
        let start = self.sc.pos;
        self.sc.skip_trusted();
        let value = self.sc.span_from(start);
        self.sc.ws();
        if self.sc.peek() == b',' {
            self.sc.pos += 1;
        } else {
            self.sc.pos = self.sc.b.len();
        }
        Some((key, value))
    }
}

/// The members of an object [`Span`] in `serde_json::Map` order.
#[derive(Debug, Clone)]
pub struct MapOrder<'a> {
    src: &'a str,
    /// in document order (`preserve_order`)
    document: Option<Members<'a>>,
    /// where each member's key begins, `len` of them, sorted by key from `next` on
    small: [u32; MANY_KEYS],
    len: u8,
    next: u8,
    /// beyond `MANY_KEYS` members
    sorted: Option<std::vec::IntoIter<(Str<'a>, Span<'a>)>>,
}

impl<'a> MapOrder<'a> {
    /// A scanner at byte `at`, where a member's key begins.
    fn at(src: &'a str, at: u32) -> Scanner<'a> {
        Scanner::at(src, usize::try_from(at).unwrap_or(usize::MAX))
    }
}

impl<'a> Iterator for MapOrder<'a> {
    type Item = (Str<'a>, Span<'a>);

    fn next(&mut self) -> Option<(Str<'a>, Span<'a>)> {
        if let Some(m) = &mut self.document {
            return m.next();
        }
        if let Some(m) = &mut self.sorted {
            return m.next();
        }
        if self.next == 0 && self.len > 1 {
            // Sorted on first use: keys are read again for each comparison, which costs less
            // than a copy of every member's key and value would.
            let (src, len) = (self.src, usize::from(self.len));
            let key = |at: u32| Self::at(src, at).string().ok();
            if let Some(small) = self.small.get_mut(..len) {
                small.sort_unstable_by(|&a, &b| match (key(a), key(b)) {
                    (Some(x), Some(y)) => x.order(y),
                    _ => Ordering::Equal,
                });
            }
        }
        if self.next >= self.len {
            return None;
        }
        let at = *self.small.get(usize::from(self.next))?;
        self.next += 1;
        Members { sc: Self::at(self.src, at) }.next()
    }
}

/// JSON Schema equality of two values in well-formed text (numbers by value, objects without
/// order), as `toolgate::__private::json_eq` decides it on parsed values.
#[must_use]
pub fn json_eq(a: Span<'_>, b: Span<'_>) -> bool {
    match (a.kind(), b.kind()) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool, Kind::Bool) => a.as_bool() == b.as_bool(),
        (Kind::Number, Kind::Number) => matches!((a.number(), b.number()), (Some(x), Some(y)) if num_eq(&x, &y)),
        (Kind::String, Kind::String) => matches!((a.str(), b.str()), (Some(x), Some(y)) if x.same(y)),
        (Kind::Array, Kind::Array) => {
            let (mut x, mut y) = (a.items(), b.items());
            loop {
                match (x.next(), y.next()) {
                    (None, None) => return true,
                    (Some(p), Some(q)) if json_eq(p, q) => {}
                    _ => return false,
                }
            }
        }
        (Kind::Object, Kind::Object) => {
            a.count() == b.count()
                && a.members().all(|(k, v)| b.members().find(|(l, _)| l.same(k)).is_some_and(|(_, w)| json_eq(v, w)))
        }
        _ => false,
    }
}

/// A value from the schema (an `enum` member or a `const`), for comparing with instance text.
#[derive(Debug, Clone, Copy)]
pub enum SVal {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// a number
    Num(Limit),
    /// a string
    Str(&'static str),
    /// an array
    Arr(&'static [SVal]),
    /// an object
    Obj(&'static [(&'static str, SVal)]),
}

/// How a scan of a whole text ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// JSON, and valid.
    Valid,
    /// Violates the schema (the text after the first violation was not checked).
    Invalid,
    /// Not one JSON value.
    Syntax,
}

/// Scan all of `text` with a generated scan function.
#[inline]
pub fn scan(text: &str, f: fn(&mut Scanner<'_>) -> Step) -> Outcome {
    let mut sc = Scanner::new(text);
    sc.ws();
    match f(&mut sc) {
        Ok(()) => {
            sc.ws();
            if sc.at_end() {
                Outcome::Valid
            } else {
                Outcome::Syntax
            }
        }
        Err(Halt::Invalid) => Outcome::Invalid,
        Err(Halt::Syntax) => Outcome::Syntax,
    }
}

/// Whether `text` is one JSON value as [`crate::parse`] accepts it. Allocates nothing.
#[must_use]
pub fn is_json(text: &str) -> bool {
    scan(text, |sc| sc.skip_value()) == Outcome::Valid
}

/// Decide, then report: the shared body of `Tool::check_json`.
///
/// One allocation-free pass decides. Only for invalid text is the text checked to the end and
/// walked again by the reporting function, which writes the violations into `sink` in the
/// `&Value` validator's order. For text that is not JSON, `serde_json`'s error is returned
/// (and should the scanner ever reject what `serde_json` accepts, the `&Value` validator is used).
///
/// # Errors
/// [`Error::Syntax`] when `text` is not one JSON value.
pub fn check_text<S: Sink>(
    text: &str,
    sink: &mut S,
    scan_fn: fn(&mut Scanner<'_>) -> Step,
    report: fn(Span<'_>, &Path<'_>, &mut S) -> bool,
    check: fn(&Value, &mut S),
) -> Result<(), Error> {
    match scan(text, scan_fn) {
        Outcome::Valid => Ok(()),
        Outcome::Invalid if is_json(text) => {
            let _ = report(Span::root(text), &Path::ROOT, sink);
            Ok(())
        }
        _ => {
            let v = parse(text)?;
            check(&v, sink);
            Ok(())
        }
    }
}

/// 10^0 ..= 10^308, as `serde_json` uses them.
static POW10: [f64; 309] = [
    1e000, 1e001, 1e002, 1e003, 1e004, 1e005, 1e006, 1e007, 1e008, 1e009, 1e010, 1e011, 1e012, 1e013, 1e014, 1e015,
    1e016, 1e017, 1e018, 1e019, 1e020, 1e021, 1e022, 1e023, 1e024, 1e025, 1e026, 1e027, 1e028, 1e029, 1e030, 1e031,
    1e032, 1e033, 1e034, 1e035, 1e036, 1e037, 1e038, 1e039, 1e040, 1e041, 1e042, 1e043, 1e044, 1e045, 1e046, 1e047,
    1e048, 1e049, 1e050, 1e051, 1e052, 1e053, 1e054, 1e055, 1e056, 1e057, 1e058, 1e059, 1e060, 1e061, 1e062, 1e063,
    1e064, 1e065, 1e066, 1e067, 1e068, 1e069, 1e070, 1e071, 1e072, 1e073, 1e074, 1e075, 1e076, 1e077, 1e078, 1e079,
    1e080, 1e081, 1e082, 1e083, 1e084, 1e085, 1e086, 1e087, 1e088, 1e089, 1e090, 1e091, 1e092, 1e093, 1e094, 1e095,
    1e096, 1e097, 1e098, 1e099, 1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111,
    1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119, 1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127,
    1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143,
    1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175,
    1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191,
    1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207,
    1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223,
    1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255,
    1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271,
    1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
    1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303,
    1e304, 1e305, 1e306, 1e307, 1e308,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn same_as_serde(t: &str) {
        let mut sc = Scanner::new(t);
        let ours = sc.number().ok().filter(|_| sc.at_end());
        let theirs = serde_json::from_str::<Number>(t).ok();
        assert_eq!(ours, theirs, "{t}");
        if let (Some(a), Some(b)) = (&ours, &theirs) {
            assert_eq!(a.as_f64().map(f64::to_bits), b.as_f64().map(f64::to_bits), "{t}");
        }
    }

    #[test]
    fn numbers_match_serde_json() {
        for t in [
            "0",
            "-0",
            "1",
            "-1",
            "1.0",
            "-0.0",
            "1e400",
            "-1e400",
            "1e-400",
            "0e400",
            "0e99999999999",
            "1e99999999999",
            "1e-99999999999",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "-18446744073709551616",
            "9007199254740993.0",
            "0.1",
            "0.30000000000000004",
            "1.7976931348623157e308",
            "1.7976931348623159e308",
            "2.2250738585072014e-308",
            "4.9e-324",
            "123456789012345678901234567890",
            "1234567890123456789012345678901234567890.5e-10",
            "0.000000000000000000000000000000001234567890123456789012",
            "01",
            "1.",
            ".5",
            "-",
            "1e",
            "1e+",
            "+1",
            "1.5e3",
            "1E3",
            "1e-3",
            "-1.5E+3",
            "00",
            "-01",
            "1ee3",
        ] {
            same_as_serde(t);
        }
    }

    #[test]
    fn strings() {
        fn s(t: &str) -> Result<Str<'_>, Halt> {
            Scanner::new(t).string()
        }
        assert!(s(r#""abc""#).is_ok_and(|x| !x.is_escaped() && x.eq_str("abc")));
        assert!(s(r#""\u00e9""#).is_ok_and(|x| x.eq_str("é") && x.char_len() == 1));
        assert!(s(r#""\ud83d\udca9""#).is_ok_and(|x| x.eq_str("💩") && x.char_len() == 1));
        assert!(s(r#""\ud83d""#).is_err());
        assert!(s(r#""\udca9""#).is_err());
        assert!(s(r#""\ud83d\u0041""#).is_err());
        assert!(s(r#""\x""#).is_err());
        assert!(s("\"a\u{1}\"").is_err());
        assert!(s(r#""abc"#).is_err());
        assert!(s(r#""a long string with \n an escape and more than eight bytes""#).is_ok_and(|x| x.char_len() == 56));
    }

    #[test]
    fn syntax_matches_parse() {
        for t in [
            "{}",
            "[]",
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,"\u0061":2}"#,
            r#"{"a":{"b":1,"b":2}}"#,
            "[1,]",
            r#"{"a":1,}"#,
            "NaN",
            "Infinity",
            "1 2",
            " 1 ",
            "",
            " ",
            "tru",
            "nul",
            "[1 2]",
            r#"{"a" 1}"#,
            r#"{a:1}"#,
            "\u{feff}1",
            r#"{"a":1 , "b" : [ true , false , null ] }"#,
        ] {
            assert_eq!(is_json(t), parse(t).is_ok(), "{t:?}");
        }
        for depth in [126, 127, 128, 129] {
            let t = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(is_json(&t), parse(&t).is_ok(), "depth {depth}");
            let t = format!("{}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
            assert_eq!(is_json(&t), parse(&t).is_ok(), "depth {depth}");
        }
    }

    #[test]
    fn many_keys_duplicate_found() {
        let mut t = String::from("{");
        for i in 0..200 {
            t.push_str(&format!("\"k{i}\":{i},"));
        }
        t.push_str("\"k7\":0}");
        assert!(!is_json(&t));
        assert!(parse(&t).is_err());
        let ok = t.replace("\"k7\":0}", "\"k7x\":0}");
        assert!(is_json(&ok));
    }
}
