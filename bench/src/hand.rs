//! An experiment, not product code: a resumable reader written by hand for `convert_units`
//! alone, to measure what a reader the macro would emit per schema (bench/NOTES.md, "Why the
//! targets are out of reach") could cost at best, against `is_valid_json` in the same run.
//!
//! It is what such a generated reader would be for this schema: one state per place where the
//! text may end, the schema's names and members in constant tables, a number's digits gathered as
//! they come and compared with the bounds where it ends, and the text kept as a
//! [`toolgate::Stream`] keeps it (every byte appended to a buffer). Like the stream's quick
//! reader, it only ever answers "alive for certain": at anything else (an escape, a byte outside
//! printable ASCII in a key or a member, a number too long for the fast path, any violation) it
//! answers `false`, where a stream would hand the text to its automaton. Its tests check that it
//! never answers "alive" where the stream is dead, nor accepts at the end what `is_valid_json`
//! refuses, and that it reads the valid replies to their end.

/// The declared names of `convert_units`, in order.
const NAMES: [&str; 3] = ["value", "from_unit", "to_unit"];
/// The members of the two `enum`s.
const UNITS: [&str; 4] = ["m", "km", "g", "kg"];
/// The bounds of `value`.
const MIN: f64 = -1_000_000.0;
const MAX: f64 = 1_000_000.0;

/// Per offset and byte: the bits of the words that have that byte there.
const fn table<const N: usize, const L: usize>(words: [&str; N]) -> [[u8; 256]; L] {
    let mut t = [[0u8; 256]; L];
    let mut w = 0;
    while w < N {
        let bytes = words[w].as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            t[i][bytes[i] as usize] |= 1 << w;
            i += 1;
        }
        w += 1;
    }
    t
}

/// Per length: the bits of the words of that length.
const fn lengths<const N: usize, const L: usize>(words: [&str; N]) -> [u8; L] {
    let mut t = [0u8; L];
    let mut w = 0;
    while w < N {
        t[words[w].len()] |= 1 << w;
        w += 1;
    }
    t
}

const NAME_AT: [[u8; 256]; 10] = table(NAMES);
const NAME_LEN: [u8; 10] = lengths(NAMES);
const UNIT_AT: [[u8; 256]; 3] = table(UNITS);
const UNIT_LEN: [u8; 3] = lengths(UNITS);
/// Powers of ten exact in `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

#[inline(always)]
const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Where the text stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// before the root
    Start,
    /// after `{`
    First,
    /// after a `,`: a key next
    Comma,
    /// in a key
    Key,
    /// after a key: its `:` next
    Colon,
    /// after a `:`: the value next
    Value,
    /// in an `enum` string
    Unit,
    /// after `-`
    Minus,
    /// after a leading `0`
    Zero,
    /// in the integer digits
    Int,
    /// after `.`
    Dot,
    /// in the fraction digits
    Frac,
    /// after `e`
    E,
    /// after the exponent's sign
    ESign,
    /// in the exponent's digits
    Exp,
    /// after a value: `,` or `}` next
    After,
    /// after the root
    Done,
}

/// The hand-written reader's state, and the text (as a stream keeps it).
#[derive(Debug, Clone)]
pub struct Hand {
    text: Vec<u8>,
    st: St,
    /// the candidate names or members
    cand: u8,
    /// bytes of the key or member so far
    off: u8,
    /// the property whose value is next or being read
    prop: u8,
    /// the names seen
    seen: u8,
    /// the number: negative, its significant digits, their count, the fraction's digits, the
    /// exponent and its sign
    neg: bool,
    sig: u64,
    digits: u32,
    frac: i32,
    exp: i32,
    exp_neg: bool,
}

impl Hand {
    /// A fresh reader, its text buffer made for `bytes` bytes.
    #[must_use]
    pub fn with_capacity(bytes: usize) -> Self {
        Self {
            text: Vec::with_capacity(bytes),
            st: St::Start,
            cand: 0,
            off: 0,
            prop: 0,
            seen: 0,
            neg: false,
            sig: 0,
            digits: 0,
            frac: 0,
            exp: 0,
            exp_neg: false,
        }
    }

    /// Feed a fragment: `true` when the text is alive for certain, `false` where a stream would
    /// hand it to its automaton (then this reader is done).
    #[inline(always)]
    pub fn feed(&mut self, bytes: &[u8]) -> bool {
        if let [b] = bytes {
            self.text.push(*b);
            return self.step(*b);
        }
        self.feed_long(bytes)
    }

    #[inline(never)]
    fn feed_long(&mut self, bytes: &[u8]) -> bool {
        self.text.extend_from_slice(bytes);
        bytes.iter().all(|&b| self.step(b))
    }

    /// The text ended: whether it is valid (`false`: not known here).
    #[must_use]
    pub fn finish(&mut self) -> bool {
        self.st == St::Done
    }

    /// The text so far.
    #[must_use]
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    #[inline(always)]
    fn step(&mut self, b: u8) -> bool {
        match self.st {
            St::Key => self.key(b),
            St::Unit => self.unit(b),
            St::Int | St::Frac => match b {
                b'0'..=b'9' => self.digit(b),
                _ => self.number_goes_on(b),
            },
            St::Exp => match b {
                b'0'..=b'9' => {
                    self.exp = (self.exp * 10 + i32::from(b - b'0')).min(100_000);
                    true
                }
                _ => self.number_ends(b),
            },
            St::Minus | St::Zero | St::Dot | St::E | St::ESign => self.number_rare(b),
            St::Value => match b {
                b'"' if self.prop != 0 => {
                    (self.cand, self.off, self.st) = (0b1111, 0, St::Unit);
                    true
                }
                b'-' | b'0'..=b'9' if self.prop == 0 => {
                    (self.neg, self.sig, self.digits, self.frac, self.exp, self.exp_neg) = (false, 0, 0, 0, 0, false);
                    match b {
                        b'-' => {
                            self.neg = true;
                            self.st = St::Minus;
                        }
                        b'0' => self.st = St::Zero,
                        _ => {
                            self.st = St::Int;
                            self.digit(b);
                        }
                    }
                    true
                }
                _ => is_ws(b),
            },
            St::After => match b {
                // (With every name seen, no member can follow.)
                b',' => {
                    self.st = St::Comma;
                    self.seen != 0b111
                }
                b'}' => {
                    self.st = St::Done;
                    self.seen == 0b111
                }
                _ => is_ws(b),
            },
            St::Comma | St::First => match b {
                // (A name seen cannot come again.)
                b'"' => {
                    (self.cand, self.off, self.st) = (0b111 & !self.seen, 0, St::Key);
                    true
                }
                _ => is_ws(b),
            },
            St::Colon => match b {
                b':' => {
                    self.st = St::Value;
                    true
                }
                _ => is_ws(b),
            },
            St::Start => match b {
                b'{' => {
                    self.st = St::First;
                    true
                }
                _ => is_ws(b),
            },
            St::Done => is_ws(b),
        }
    }

    /// A byte of a key: it narrows the names, and the closing quote picks one.
    #[inline(always)]
    fn key(&mut self, b: u8) -> bool {
        if b == b'"' {
            let name = self.cand & NAME_LEN.get(usize::from(self.off)).copied().unwrap_or(0);
            if name == 0 {
                return false;
            }
            self.seen |= name;
            self.prop = name.trailing_zeros() as u8;
            self.st = St::Colon;
            return true;
        }
        // (No name has a `\\`, a control or non-ASCII byte: their entries are empty.)
        self.cand &= NAME_AT.get(usize::from(self.off)).map_or(0, |row| row[usize::from(b)]);
        self.off += 1;
        self.cand != 0
    }

    /// A byte of an `enum` string: it narrows the members, and the closing quote needs one.
    #[inline(always)]
    fn unit(&mut self, b: u8) -> bool {
        if b == b'"' {
            self.st = St::After;
            return self.cand & UNIT_LEN.get(usize::from(self.off)).copied().unwrap_or(0) != 0;
        }
        self.cand &= UNIT_AT.get(usize::from(self.off)).map_or(0, |row| row[usize::from(b)]);
        self.off += 1;
        self.cand != 0
    }

    #[inline(always)]
    fn digit(&mut self, b: u8) -> bool {
        if self.digits < 19 {
            self.sig = self.sig * 10 + u64::from(b - b'0');
            self.digits += 1;
            self.frac += i32::from(self.st == St::Frac);
        } else {
            // Beyond the fast path: not decided here.
            self.digits = u32::MAX;
        }
        true
    }

    /// A byte after an integer or fraction digit that is not a digit.
    #[inline(always)]
    fn number_goes_on(&mut self, b: u8) -> bool {
        match b {
            b'.' if self.st == St::Int => {
                self.st = St::Dot;
                true
            }
            b'e' | b'E' => {
                self.st = St::E;
                true
            }
            _ => self.number_ends(b),
        }
    }

    /// The bytes of a number that are not in a run of digits.
    #[inline(never)]
    fn number_rare(&mut self, b: u8) -> bool {
        match (self.st, b) {
            (St::Minus, b'0') => self.st = St::Zero,
            (St::Minus, b'1'..=b'9') => {
                self.st = St::Int;
                self.digit(b);
            }
            (St::Zero, b'.') => self.st = St::Dot,
            (St::Zero, b'e' | b'E') => self.st = St::E,
            (St::Zero, b'0'..=b'9') => return false,
            (St::Zero, _) => return self.number_ends(b),
            (St::Dot, b'0'..=b'9') => {
                self.st = St::Frac;
                self.digit(b);
            }
            (St::E, b'+') => self.st = St::ESign,
            (St::E, b'-') => {
                self.exp_neg = true;
                self.st = St::ESign;
            }
            (St::E | St::ESign, b'0'..=b'9') => {
                self.st = St::Exp;
                self.exp = i32::from(b - b'0');
            }
            _ => return false,
        }
        true
    }

    /// The number ended before `b`: its bounds, then `b` after it.
    #[inline(never)]
    fn number_ends(&mut self, b: u8) -> bool {
        if self.digits == u32::MAX {
            return false;
        }
        let e = if self.exp_neg { -self.exp } else { self.exp } - self.frac;
        let Some(&p) = POW10.get(e.unsigned_abs() as usize) else { return false };
        if self.sig >= 1 << 53 {
            return false;
        }
        let v = if e < 0 { self.sig as f64 / p } else { self.sig as f64 * p };
        let v = if self.neg { -v } else { v };
        if !(MIN..=MAX).contains(&v) {
            return false;
        }
        self.st = St::After;
        self.step(b)
    }
}

#[cfg(test)]
mod tests {
    use super::Hand;
    use crate::{cases, ConvertUnits};
    use toolgate::{Progress, Tool};

    /// Every cut of every text into chunks of each size: never alive where the stream is dead,
    /// never valid at the end where `is_valid_json` is not; the valid replies read to their end.
    #[test]
    fn never_more_lenient_than_the_stream() {
        let mut texts: Vec<String> =
            cases().into_iter().filter(|c| c.schema == "convert_units").map(|c| c.text).collect();
        let valid = texts[0].clone();
        texts.extend([
            r#"{"to_unit": "kg", "value": -0.5e3, "from_unit": "g"}"#.to_owned(),
            r#" { "value" : 1E6 , "from_unit" : "m" , "to_unit" : "km" } "#.to_owned(),
            r#"{"value": 1000001, "from_unit": "m", "to_unit": "km"}"#.to_owned(),
            r#"{"value": 1, "value": 2, "from_unit": "m", "to_unit": "km"}"#.to_owned(),
            r#"{"value": 01, "from_unit": "m", "to_unit": "km"}"#.to_owned(),
            r#"{"value": 1, "from_unit": "k", "to_unit": "km"}"#.to_owned(),
            r#"{"value": 1, "from_unit": "m"}"#.to_owned(),
            r#"{"value": 1, "from_unit": "m", "to_unit": "km"}}"#.to_owned(),
            r#"{"value": 1.e3, "from_unit": "m", "to_unit": "km"}"#.to_owned(),
        ]);
        let mut accepted = 0;
        for text in &texts {
            let bytes = text.as_bytes();
            for size in 1..=bytes.len() {
                let (mut h, mut s) = (Hand::with_capacity(0), ConvertUnits::stream());
                let mut alive = true;
                for piece in bytes.chunks(size) {
                    let stream_alive = matches!(s.feed(piece), Progress::Alive);
                    alive = alive && h.feed(piece);
                    assert!(!alive || stream_alive, "{text:?} in {size}-byte chunks");
                    assert_eq!(h.text(), s.text());
                }
                let ok = alive && h.finish();
                assert!(!ok || ConvertUnits::is_valid_json(text), "{text:?}");
                if *text == valid {
                    assert!(ok, "the valid reply in {size}-byte chunks");
                }
                accepted += usize::from(ok);
            }
        }
        assert!(accepted > 3 * valid.len(), "{accepted}");
    }
}
