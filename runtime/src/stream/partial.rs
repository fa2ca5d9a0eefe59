//! The value that the text of a reply so far stands for, for display while it streams: what a
//! partial-JSON parser (jiter's partial mode, pydantic's `experimental_allow_partial`) gives,
//! from the same strict grammar as [`Tool::is_valid_json`](crate::Tool::is_valid_json).

use serde_json::{Map, Number, Value};

use crate::limits::Limits;

/// The value that `prefix`, the text of a reply so far, stands for, with what is unfinished
/// repaired as a partial-JSON parser repairs it; `None` while it stands for nothing yet (before
/// the first byte of a value, or in a root `tru` or `-`), and where no JSON text begins with
/// `prefix`.
///
/// - Every value that has ended is as it will stay: `{"path": "src/lib.rs", "max_lines": 20`
///   gives `{"path": "src/lib.rs", "max_lines": 20}` (the `20` may still grow, as in jiter).
/// - Open arrays and objects are closed; a member whose key or value has not begun is left out
///   (`{"path": "a", "max_` gives `{"path": "a"}`). Members are in `serde_json::Map`'s order
///   (by name; the text's with `serde_json`'s `preserve_order` feature).
/// - An unfinished string gives the characters it has so far (an escape or a UTF-8 character
///   cut at the end is left out); an unfinished number, what it reads as so far where its text is
///   a number (`12`, `1.5`; not `-`, `1.`, `1e+`); an unfinished `true`, `false` or `null`
///   nothing (the member or item is left out).
///
/// `None` where toolgate's strict JSON refuses the prefix, as
/// [`Tool::is_valid_json`](crate::Tool::is_valid_json) would whatever the schema: a byte out of
/// place, a control character or a lone surrogate in a string, bytes no continuation makes
/// UTF-8, a key that repeats one of its object's (compared decoded, once it closes), a number
/// beyond the `f64` range (once it has ended, or in a positive exponent, which only makes it
/// larger: `1e400`), text after the value, nesting deeper than [`Limits::MAX_DEPTH`].
///
/// Each call reads the whole prefix (as a partial-JSON parser does): the stream, not this, is
/// what judges a reply in one pass. [`Stream::partial`](crate::Stream::partial) calls it on the
/// text it holds.
///
/// ```
/// use serde_json::json;
///
/// let so_far = br#"{"path": "src/li"#;
/// assert_eq!(toolgate::partial_value(so_far), Some(json!({"path": "src/li"})));
/// assert_eq!(toolgate::partial_value(br#"{"path": 12, "ma"#), Some(json!({"path": 12})));
/// assert_eq!(toolgate::partial_value(br#"{"path" 12"#), None);
/// ```
#[must_use]
pub fn partial_value(prefix: &[u8]) -> Option<Value> {
    Partial { text: prefix, at: 0, stack: Vec::new() }.run()
}

/// An open container: its items or members so far (an object's, with the key whose value is
/// being read).
enum Open {
    Array(Vec<Value>),
    Object(Map<String, Value>, Option<String>),
}

/// What ended a scalar: the text ran out inside it, or it is complete.
enum Scalar {
    /// Ended inside it: what it stands for so far (`None`: nothing yet).
    Cut(Option<Value>),
    Done(Value),
}

/// The low surrogates, which a `\u` escape may not begin with.
const LOW: (u32, u32) = (0xDC00, 0xDFFF);

struct Partial<'a> {
    text: &'a [u8],
    at: usize,
    stack: Vec<Open>,
}

impl Partial<'_> {
    fn run(mut self) -> Option<Value> {
        // What comes next: a value, or (after one) a `,` or a container's end.
        let mut want_value = true;
        loop {
            self.skip_ws();
            let Some(&b) = self.text.get(self.at) else { return self.close(None) };
            if want_value {
                match b {
                    b'{' | b'[' => {
                        if self.stack.len() >= Limits::MAX_DEPTH {
                            return None;
                        }
                        self.at += 1;
                        if b == b'{' {
                            self.stack.push(Open::Object(Map::new(), None));
                            // A key, or the end of an empty object.
                            match self.key()? {
                                Some(true) => {}
                                Some(false) => {
                                    if let Some(root) = self.end_container()? {
                                        return self.end_of_root(root);
                                    }
                                    want_value = false;
                                }
                                None => return self.close(None),
                            }
                        } else {
                            self.stack.push(Open::Array(Vec::new()));
                            self.skip_ws();
                            if self.text.get(self.at) == Some(&b']') {
                                self.at += 1;
                                if let Some(root) = self.end_container()? {
                                    return self.end_of_root(root);
                                }
                                want_value = false;
                            }
                        }
                        continue;
                    }
                    _ => match self.scalar(b)? {
                        Scalar::Cut(v) => return self.close(v),
                        Scalar::Done(v) => {
                            if self.stack.is_empty() {
                                return self.end_of_root(v);
                            }
                            self.attach(v)?;
                            want_value = false;
                        }
                    },
                }
            } else {
                self.at += 1;
                match (b, self.stack.last()) {
                    (b',', Some(Open::Array(_))) => want_value = true,
                    (b',', Some(Open::Object(..))) => match self.key()? {
                        Some(true) => want_value = true,
                        // `,}` is no JSON.
                        Some(false) => return None,
                        None => return self.close(None),
                    },
                    (b']', Some(Open::Array(_))) | (b'}', Some(Open::Object(..))) => {
                        if let Some(root) = self.end_container()? {
                            return self.end_of_root(root);
                        }
                    }
                    _ => return None,
                }
            }
        }
    }

    fn skip_ws(&mut self) {
        while self.text.get(self.at).is_some_and(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// After `{` or an object's `,`: a key and its `:` (`Some(true)`, the key kept in the open
    /// object), the object's end right after `{` (`Some(false)`, consumed), or the text's end
    /// first (`None` from the outer `Option` is a refused byte; the inner `None`, the end).
    fn key(&mut self) -> Option<Option<bool>> {
        let empty = matches!(self.stack.last(), Some(Open::Object(m, None)) if m.is_empty());
        self.skip_ws();
        match self.text.get(self.at) {
            None => return Some(None),
            Some(b'}') if empty => {
                self.at += 1;
                return Some(Some(false));
            }
            Some(b'"') => {}
            Some(_) => return None,
        }
        self.at += 1;
        let key = match self.string()? {
            Scalar::Done(Value::String(k)) => k,
            _ => return Some(None),
        };
        // (A repeated key is refused where its member is attached, or where the text ends.)
        let end = |this: &Self, key: &String| match this.stack.last() {
            Some(Open::Object(members, _)) if members.contains_key(key) => None,
            _ => Some(None),
        };
        self.skip_ws();
        match self.text.get(self.at) {
            None => return end(self, &key),
            Some(b':') => self.at += 1,
            Some(_) => return None,
        }
        if let Some(Open::Object(_, pending)) = self.stack.last_mut() {
            *pending = Some(key);
        }
        Some(Some(true))
    }

    /// A scalar beginning with `b`.
    fn scalar(&mut self, b: u8) -> Option<Scalar> {
        match b {
            b'"' => {
                self.at += 1;
                self.string()
            }
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'n' => self.literal(b"null", Value::Null),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Option<Scalar> {
        let rest = self.text.get(self.at..).unwrap_or_default();
        if rest.len() < word.len() {
            return word.starts_with(rest).then_some(Scalar::Cut(None));
        }
        if !rest.starts_with(word) {
            return None;
        }
        self.at += word.len();
        Some(Scalar::Done(value))
    }

    /// A number, from its first byte: `serde_json`'s reading of its text.
    fn number(&mut self) -> Option<Scalar> {
        let start = self.at;
        let digit = |t: &[u8], i: usize| t.get(i).is_some_and(u8::is_ascii_digit);
        let mut i = start + usize::from(self.text.get(start) == Some(&b'-'));
        // (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, each part possibly cut.
        let mut complete = false;
        let mut growing = false;
        if self.text.get(i) == Some(&b'0') {
            i += 1;
            complete = true;
        } else {
            while digit(self.text, i) {
                i += 1;
                complete = true;
            }
        }
        if complete && self.text.get(i) == Some(&b'.') {
            i += 1;
            complete = false;
            while digit(self.text, i) {
                i += 1;
                complete = true;
            }
        }
        if complete && matches!(self.text.get(i), Some(b'e' | b'E')) {
            i += 1;
            complete = false;
            growing = self.text.get(i) != Some(&b'-');
            if matches!(self.text.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            while digit(self.text, i) {
                i += 1;
                complete = true;
            }
        }
        let digits = self.text.get(start..i)?;
        let read = || {
            // A non-negative integer of up to 19 digits, without `serde_json`'s parser.
            if digits.len() <= 19 && digits.iter().all(u8::is_ascii_digit) {
                let n = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
                return Some(Value::Number(Number::from(n)));
            }
            std::str::from_utf8(digits).ok()?.parse::<Number>().ok().map(Value::Number)
        };
        self.at = i;
        if i == self.text.len() {
            // Cut: what it reads as so far, where that is a number. In a positive exponent
            // more digits only make it larger: beyond the `f64` range, it stays beyond.
            return match (complete, read()) {
                (false, _) => Some(Scalar::Cut(None)),
                (true, None) if growing => None,
                (true, v) => Some(Scalar::Cut(v)),
            };
        }
        if !complete {
            return None;
        }
        // A leading zero followed by a digit (`01`) is refused by the caller's next byte.
        read().map(Scalar::Done)
    }

    /// A string, after its opening quote.
    fn string(&mut self) -> Option<Scalar> {
        let mut out = String::new();
        loop {
            // A run of characters without escapes, at once.
            let rest = self.text.get(self.at..).unwrap_or_default();
            let run = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len());
            let (chars, after) = rest.split_at(run);
            match std::str::from_utf8(chars) {
                Ok(c) => out.push_str(c),
                Err(e) => {
                    // A UTF-8 character cut at the text's end is left out; anything else is
                    // refused.
                    let whole = chars.get(..e.valid_up_to()).and_then(|c| std::str::from_utf8(c).ok());
                    return match (whole, e.error_len(), after.is_empty()) {
                        (Some(c), None, true) => {
                            out.push_str(c);
                            Some(Scalar::Cut(Some(Value::String(out))))
                        }
                        _ => None,
                    };
                }
            }
            self.at += run;
            match after.first() {
                None => return Some(Scalar::Cut(Some(Value::String(out)))),
                Some(b'"') => {
                    self.at += 1;
                    return Some(Scalar::Done(Value::String(out)));
                }
                Some(b'\\') => match self.escape()? {
                    Some(c) => out.push(c),
                    None => return Some(Scalar::Cut(Some(Value::String(out)))),
                },
                // A control character.
                Some(_) => return None,
            }
        }
    }

    /// An escape, at its backslash: the character (`Some(None)`: the text ends inside it).
    fn escape(&mut self) -> Option<Option<char>> {
        let Some(&e) = self.text.get(self.at + 1) else { return Some(None) };
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                // (Digits that can only make a low surrogate are refused at the first of them
                // that decides it, as the stream refuses them.)
                let Some(unit) = self.hex(self.at + 2, LOW, false)? else { return Some(None) };
                return match unit {
                    0xD800..=0xDBFF => {
                        // A high surrogate: its low half must follow.
                        let pair = self.at + 6;
                        match (self.text.get(pair), self.text.get(pair + 1)) {
                            (None, _) | (Some(b'\\'), None) => Some(None),
                            (Some(b'\\'), Some(b'u')) => {
                                let Some(low) = self.hex(pair + 2, LOW, true)? else { return Some(None) };
                                self.at = pair + 6;
                                char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).map(Some)
                            }
                            _ => None,
                        }
                    }
                    _ => {
                        self.at += 6;
                        char::from_u32(unit).map(Some)
                    }
                };
            }
            _ => return None,
        };
        self.at += 2;
        Some(Some(c))
    }

    /// Four hex digits at `i`, of a code unit `inside` the range `range` or outside it
    /// (`Some(None)`: the text ends among them, where some digits that follow would do; `None`:
    /// refused, at the first digit from which none would).
    fn hex(&self, i: usize, range: (u32, u32), inside: bool) -> Option<Option<u32>> {
        let mut v = 0;
        for (k, shift) in (i..i + 4).zip([12u32, 8, 4, 0]) {
            let Some(&d) = self.text.get(k) else { return Some(None) };
            v |= char::from(d).to_digit(16)? << shift;
            // The units these digits may still begin: [v, v + 2^shift - 1].
            let (lo, hi) = (v, v | ((1 << shift) - 1));
            let possible = if inside { lo <= range.1 && hi >= range.0 } else { lo < range.0 || hi > range.1 };
            if !possible {
                return None;
            }
        }
        Some(Some(v))
    }

    /// A value that ended inside the innermost container.
    /// (`None`: its key repeats one of the object's.)
    fn attach(&mut self, v: Value) -> Option<()> {
        match self.stack.last_mut() {
            Some(Open::Array(items)) => items.push(v),
            Some(Open::Object(members, pending)) => {
                if let Some(k) = pending.take() {
                    if members.insert(k, v).is_some() {
                        return None;
                    }
                }
            }
            None => {}
        }
        Some(())
    }

    /// The innermost container ended: attached to its own, or the root (`Some`).
    fn end_container(&mut self) -> Option<Option<Value>> {
        let v = match self.stack.pop()? {
            Open::Array(items) => Value::Array(items),
            Open::Object(members, _) => Value::Object(members),
        };
        if self.stack.is_empty() {
            return Some(Some(v));
        }
        self.attach(v)?;
        Some(None)
    }

    /// The text ended (`cut`: the scalar it ended in, if it stands for something): every open
    /// container closed around what it has.
    fn close(mut self, cut: Option<Value>) -> Option<Value> {
        if self.stack.is_empty() {
            return cut;
        }
        match cut {
            Some(v) => self.attach(v)?,
            // A repeated key whose value has not begun to stand for something.
            None => {
                if let Some(Open::Object(members, Some(k))) = self.stack.last() {
                    if members.contains_key(k) {
                        return None;
                    }
                }
            }
        }
        let mut last = None;
        while !self.stack.is_empty() {
            last = self.end_container()?;
        }
        last
    }

    /// The root ended: only whitespace may follow.
    fn end_of_root(&mut self, root: Value) -> Option<Value> {
        self.skip_ws();
        (self.at == self.text.len()).then_some(root)
    }
}
