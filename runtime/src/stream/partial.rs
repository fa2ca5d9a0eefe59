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
/// Each call reads the whole prefix, as a partial-JSON parser does. To show the value after
/// every delta of a long reply, feed the deltas to a [`PartialValue`] instead: it builds the same
/// value in place, reading each byte once. [`Stream::partial`](crate::Stream::partial) calls this
/// on the text it holds.
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
    let mut p = PartialValue::new();
    p.feed(prefix);
    p.into_value()
}

/// [`partial_value`] built as the text arrives: fed the deltas of a reply (split anywhere), it
/// keeps the value they stand for so far, each byte read once and the value changed in place,
/// so that showing it after every delta costs the reply's length in all (where re-reading the
/// text so far after each delta, as a partial-JSON parser does, costs its square).
///
/// ```
/// use serde_json::json;
/// use toolgate::PartialValue;
///
/// let mut shown = PartialValue::new();
/// shown.feed(br#"{"path": "src/"#);
/// assert_eq!(shown.value(), Some(&json!({"path": "src/"})));
/// shown.feed(br#"lib.rs", "max_lines": 2"#);
/// assert_eq!(shown.value(), Some(&json!({"path": "src/lib.rs", "max_lines": 2})));
/// shown.feed(b"0}");
/// assert_eq!(shown.value(), Some(&json!({"path": "src/lib.rs", "max_lines": 20})));
/// ```
#[derive(Debug, Clone, Default)]
pub struct PartialValue {
    root: Option<Value>,
    /// The open containers, from the root's, each by where it is in its own (and whether it is
    /// an object).
    open: Vec<(Step, bool)>,
    lex: Lex,
    refused: bool,
    /// The key of the member whose value is read (after its `:`), until that value ends.
    key: Option<String>,
    /// Where the scalar being read is in its container, while it stands for something.
    placed: Option<Step>,
    /// The characters of the string being read that are not in place yet (a key's, all of them).
    chars: String,
    /// The bytes of an unfinished escape or UTF-8 character in a string; a number's or a
    /// literal's bytes so far.
    raw: Vec<u8>,
    /// A number's place in its grammar, and whether its exponent is negative.
    num: Num,
    negative_exponent: bool,
}

/// Where a value is in its container.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Root,
    Index(usize),
    Key(String),
}

/// What the next byte may be.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Lex {
    /// A value (or, `FirstItem`, an array's end).
    #[default]
    Value,
    FirstItem,
    /// A key (or, `FirstKey`, an object's end).
    Key,
    FirstKey,
    /// In a key, in a string value.
    KeyChars,
    Chars,
    Colon,
    Number,
    Literal,
    /// After a value: `,` or the container's end.
    After,
    /// After the root: whitespace only.
    Done,
}

/// A number's place in its grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Num {
    #[default]
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    Sign,
    Exp,
}

impl Num {
    /// Whether the text so far is a number.
    fn complete(self) -> bool {
        matches!(self, Self::Zero | Self::Int | Self::Frac | Self::Exp)
    }

    /// The place after byte `b`, if it continues the number.
    fn next(self, b: u8) -> Option<Self> {
        Some(match (self, b) {
            (Self::Minus, b'0') => Self::Zero,
            (Self::Minus, b'1'..=b'9') => Self::Int,
            (Self::Int, b'0'..=b'9') => Self::Int,
            (Self::Zero | Self::Int, b'.') => Self::Dot,
            (Self::Dot | Self::Frac, b'0'..=b'9') => Self::Frac,
            (Self::Zero | Self::Int | Self::Frac, b'e' | b'E') => Self::E,
            (Self::E, b'+' | b'-') => Self::Sign,
            (Self::E | Self::Sign | Self::Exp, b'0'..=b'9') => Self::Exp,
            _ => return None,
        })
    }
}

/// The low surrogates, which a `\u` escape may not begin with.
const LOW: (u32, u32) = (0xDC00, 0xDFFF);

impl PartialValue {
    /// Nothing read yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The value the text fed so far stands for, as [`partial_value`] gives it.
    #[must_use]
    pub fn value(&self) -> Option<&Value> {
        if self.refused {
            return None;
        }
        self.root.as_ref()
    }

    /// [`PartialValue::value`], owned.
    #[must_use]
    pub fn into_value(self) -> Option<Value> {
        if self.refused {
            return None;
        }
        self.root
    }

    /// The next bytes of the text (after a refusal: ignored).
    pub fn feed(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() && !self.refused {
            // A string's characters without escapes, at once.
            if matches!(self.lex, Lex::Chars | Lex::KeyChars) && self.raw.is_empty() {
                let rest = bytes.get(i..).unwrap_or_default();
                let run = rest.iter().position(|&b| b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b));
                let run = run.unwrap_or(rest.len());
                if run > 0 {
                    if let Some(plain) = rest.get(..run).and_then(|r| std::str::from_utf8(r).ok()) {
                        self.chars.push_str(plain);
                    }
                    i += run;
                    continue;
                }
            }
            if let Some(&b) = bytes.get(i) {
                if !self.byte(b) {
                    self.refused = true;
                }
            }
            i += 1;
        }
        if !self.refused && !self.show() {
            self.refused = true;
        }
    }

    /// One byte: `false` where the grammar refuses it.
    fn byte(&mut self, b: u8) -> bool {
        let ws = matches!(b, b' ' | b'\n' | b'\r' | b'\t');
        match self.lex {
            Lex::Chars | Lex::KeyChars => self.char_byte(b),
            Lex::Number => match self.num.next(b) {
                Some(n) => {
                    self.negative_exponent |= self.num == Num::E && b == b'-';
                    self.num = n;
                    self.raw.push(b);
                    true
                }
                None => self.end_number() && self.byte(b),
            },
            Lex::Literal => {
                self.raw.push(b);
                let word: &[u8] = match self.raw.first() {
                    Some(b't') => b"true",
                    Some(b'f') => b"false",
                    _ => b"null",
                };
                if !word.starts_with(&self.raw) {
                    return false;
                }
                if word.len() > self.raw.len() {
                    return true;
                }
                let v = match word {
                    b"true" => Value::Bool(true),
                    b"false" => Value::Bool(false),
                    _ => Value::Null,
                };
                self.raw.clear();
                self.begin(v).is_some() && self.ended()
            }
            _ if ws => true,
            Lex::Value | Lex::FirstItem => match b {
                b']' if self.lex == Lex::FirstItem => self.close(),
                b'{' | b'[' => {
                    if self.open.len() >= Limits::MAX_DEPTH {
                        return false;
                    }
                    let empty = if b == b'{' { Value::Object(Map::new()) } else { Value::Array(Vec::new()) };
                    let Some(step) = self.begin(empty) else { return false };
                    self.open.push((step, b == b'{'));
                    self.lex = if b == b'{' { Lex::FirstKey } else { Lex::FirstItem };
                    true
                }
                b'"' => {
                    // Shown where the feed ends or the string closes (`show`).
                    self.lex = Lex::Chars;
                    self.chars.clear();
                    true
                }
                b'-' | b'0'..=b'9' => {
                    self.lex = Lex::Number;
                    self.num = Num::Minus;
                    self.negative_exponent = false;
                    self.raw.clear();
                    // A sign, or the first digit read as the number's next byte.
                    if b == b'-' {
                        self.raw.push(b);
                        true
                    } else {
                        self.byte(b)
                    }
                }
                b't' | b'f' | b'n' => {
                    self.lex = Lex::Literal;
                    self.raw.clear();
                    self.raw.push(b);
                    true
                }
                _ => false,
            },
            Lex::Key | Lex::FirstKey => match b {
                b'"' => {
                    self.lex = Lex::KeyChars;
                    self.chars.clear();
                    true
                }
                b'}' if self.lex == Lex::FirstKey => self.close(),
                _ => false,
            },
            Lex::Colon => {
                self.lex = Lex::Value;
                b == b':'
            }
            Lex::After => match (b, self.open.last().map(|o| o.1)) {
                (b',', Some(object)) => {
                    self.lex = if object { Lex::Key } else { Lex::Value };
                    true
                }
                (b']', Some(false)) | (b'}', Some(true)) => self.close(),
                _ => false,
            },
            Lex::Done => false,
        }
    }

    /// A byte of a string (a key's, or a value's).
    fn char_byte(&mut self, b: u8) -> bool {
        if let Some(&first) = self.raw.first() {
            self.raw.push(b);
            return if first == b'\\' { self.escape_byte() } else { self.utf8_byte() };
        }
        match b {
            b'"' => {
                if self.lex == Lex::KeyChars {
                    // A repeated key (compared decoded) is refused where its member is
                    // inserted, or where the feed ends first (`begin`, `show`).
                    self.key = Some(std::mem::take(&mut self.chars));
                    self.lex = Lex::Colon;
                    true
                } else {
                    self.show() && self.ended()
                }
            }
            b'\\' | 0xC2..=0xF4 => {
                self.raw.push(b);
                true
            }
            0x20..=0x7F => {
                self.chars.push(char::from(b));
                true
            }
            _ => false,
        }
    }

    /// The bytes of a UTF-8 character so far (in `raw`): `false` where no continuation makes
    /// one.
    fn utf8_byte(&mut self) -> bool {
        match std::str::from_utf8(&self.raw) {
            Ok(c) => {
                self.chars.push_str(c);
                self.raw.clear();
                true
            }
            Err(e) => e.error_len().is_none(),
        }
    }

    /// The bytes of an escape so far (in `raw`, from its backslash): `false` where no
    /// continuation makes a character of them.
    fn escape_byte(&mut self) -> bool {
        let raw = &self.raw;
        let last = raw.len() - 1;
        let c = match (last, raw.get(1).copied()) {
            (1, Some(e)) => match e {
                b'"' => '"',
                b'\\' => '\\',
                b'/' => '/',
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => return true,
                _ => return false,
            },
            // The first unit's digits: of no low surrogate; the second's: of one.
            (2..=5, _) => {
                let Some(unit) = hex_prefix(raw.get(2..).unwrap_or_default(), LOW, false) else { return false };
                if last < 5 {
                    return true;
                }
                if (0xD800..0xDC00).contains(&unit) {
                    return true;
                }
                match char::from_u32(unit) {
                    Some(c) => c,
                    None => return false,
                }
            }
            (6, _) => return raw.get(6) == Some(&b'\\'),
            (7, _) => return raw.get(7) == Some(&b'u'),
            _ => {
                let (Some(high), Some(low)) = (
                    hex_prefix(raw.get(2..6).unwrap_or_default(), LOW, false),
                    hex_prefix(raw.get(8..).unwrap_or_default(), LOW, true),
                ) else {
                    return false;
                };
                if last < 11 {
                    return true;
                }
                match char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
                    Some(c) => c,
                    None => return false,
                }
            }
        };
        self.chars.push(c);
        self.raw.clear();
        true
    }

    /// The number being read ends (at a byte that does not continue it).
    fn end_number(&mut self) -> bool {
        if !self.num.complete() {
            return false;
        }
        let Some(v) = read(&self.raw) else { return false };
        self.place(Some(v)) && self.ended()
    }

    /// At the end of a feed: the scalar being read shown as it stands (a string's characters so
    /// far; a number's reading, where its text is one). `false` where it can only be refused.
    fn show(&mut self) -> bool {
        let shown = match self.lex {
            Lex::Chars => {
                let chars = std::mem::take(&mut self.chars);
                if self.placed.is_none() {
                    return self.place(Some(Value::String(chars)));
                }
                if let Some(Value::String(s)) = self.placed_value() {
                    s.push_str(&chars);
                }
                true
            }
            Lex::Number => {
                let v = if self.num.complete() { read(&self.raw) } else { None };
                // In a positive exponent, beyond the `f64` range for good.
                if v.is_none() && self.num == Num::Exp && !self.negative_exponent {
                    return false;
                }
                self.place(v)
            }
            _ => true,
        };
        // A member whose key repeats one of its object's, and whose value does not stand for
        // anything yet: refused (where it does, `begin` refuses it).
        let repeated = match (self.key.take(), self.placed.is_none()) {
            (Some(k), true) => {
                let repeated = self.current_object().is_some_and(|m| m.contains_key(k.as_str()));
                self.key = Some(k);
                repeated
            }
            (k, _) => {
                self.key = k;
                false
            }
        };
        shown && !repeated
    }

    /// The scalar being read shown as `v`, or (`None`) not shown.
    fn place(&mut self, v: Option<Value>) -> bool {
        match (v, self.placed.is_some()) {
            (Some(v), true) => {
                if let Some(slot) = self.placed_value() {
                    *slot = v;
                }
                true
            }
            (Some(v), false) => match self.begin(v) {
                Some(step) => {
                    self.placed = Some(step);
                    true
                }
                None => false,
            },
            (None, true) => {
                match self.placed.take() {
                    Some(Step::Root) => self.root = None,
                    Some(Step::Index(_)) => {
                        if let Some(Value::Array(items)) = self.container() {
                            items.pop();
                        }
                    }
                    Some(Step::Key(k)) => {
                        if let Some(Value::Object(members)) = self.container() {
                            members.remove(&k);
                        }
                        self.key = Some(k);
                    }
                    None => {}
                }
                true
            }
            (None, false) => true,
        }
    }

    /// A value begins in the innermost open container (or as the root): where it is.
    fn begin(&mut self, v: Value) -> Option<Step> {
        if self.open.is_empty() {
            self.root = Some(v);
            return Some(Step::Root);
        }
        let key = self.key.take();
        match (self.container()?, key) {
            (Value::Array(items), _) => {
                items.push(v);
                Some(Step::Index(items.len() - 1))
            }
            (Value::Object(members), Some(k)) => {
                // A repeated key (compared decoded).
                match members.entry(k.clone()) {
                    serde_json::map::Entry::Vacant(e) => {
                        e.insert(v);
                        Some(Step::Key(k))
                    }
                    serde_json::map::Entry::Occupied(_) => None,
                }
            }
            _ => None,
        }
    }

    /// The scalar being read has ended.
    fn ended(&mut self) -> bool {
        self.placed = None;
        self.key = None;
        self.raw.clear();
        self.lex = if self.open.is_empty() { Lex::Done } else { Lex::After };
        true
    }

    /// The innermost open container ends.
    fn close(&mut self) -> bool {
        self.open.pop();
        self.lex = if self.open.is_empty() { Lex::Done } else { Lex::After };
        true
    }

    fn current_object(&mut self) -> Option<&Map<String, Value>> {
        match self.container() {
            Some(Value::Object(m)) => Some(m),
            _ => None,
        }
    }

    /// The innermost open container, to change.
    fn container(&mut self) -> Option<&mut Value> {
        let mut v = self.root.as_mut()?;
        for (step, _) in self.open.iter().skip(1) {
            v = match step {
                Step::Index(i) => v.as_array_mut()?.get_mut(*i)?,
                Step::Key(k) => v.as_object_mut()?.get_mut(k)?,
                Step::Root => v,
            };
        }
        Some(v)
    }

    /// The scalar being read, where it is shown.
    fn placed_value(&mut self) -> Option<&mut Value> {
        let step = self.placed.clone()?;
        if step == Step::Root {
            return self.root.as_mut();
        }
        match (self.container()?, step) {
            (Value::Array(items), Step::Index(i)) => items.get_mut(i),
            (Value::Object(members), Step::Key(k)) => members.get_mut(&k),
            _ => None,
        }
    }
}

/// A number's text as `serde_json` reads it (`None`: beyond the `f64` range).
fn read(text: &[u8]) -> Option<Value> {
    // A non-negative integer of up to 19 digits, without `serde_json`'s parser.
    if text.len() <= 19 && text.iter().all(u8::is_ascii_digit) {
        let n = text.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
        return Some(Value::Number(Number::from(n)));
    }
    std::str::from_utf8(text).ok()?.parse::<Number>().ok().map(Value::Number)
}

/// A code unit's hex digits so far (`digits`, up to four), where some unit they begin is
/// `inside` the range `range` or outside it: the unit (its digits so far, shifted into place);
/// `None` where no such unit begins with them, or a digit is no hex digit.
fn hex_prefix(digits: &[u8], range: (u32, u32), inside: bool) -> Option<u32> {
    let mut v = 0;
    for (&d, shift) in digits.iter().zip([12u32, 8, 4, 0]) {
        v |= char::from(d).to_digit(16)? << shift;
        // The units these digits may still begin: [v, v + 2^shift - 1].
        let (lo, hi) = (v, v | ((1 << shift) - 1));
        let possible = if inside { lo <= range.1 && hi >= range.0 } else { lo < range.0 || hi > range.1 };
        if !possible {
            return None;
        }
    }
    Some(v)
}
