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

    /// The program-driven reader, on the flat tools' replies and on mutants of them (a byte
    /// replaced, inserted or left out, every tenth position): the same checks.
    fn program_driven<T: Tool>(schema: &str) {
        use super::program::Flat;
        assert!(Flat::<T>::reads(), "{schema} is flat");
        let cases: Vec<_> = cases().into_iter().filter(|c| c.schema == schema).collect();
        let mut texts: Vec<(String, bool)> = cases.iter().map(|c| (c.text.clone(), c.valid)).collect();
        for c in &cases {
            let b = c.text.as_bytes();
            for at in (0..b.len()).step_by(10) {
                for r in [&b"1"[..], b"\"", b"-", b" ", b"x", b"}", b"e"] {
                    let mut m = b.to_vec();
                    m[at] = r[0];
                    texts.push((String::from_utf8_lossy(&m).into_owned(), false));
                    let mut m = b.to_vec();
                    m.insert(at, r[0]);
                    texts.push((String::from_utf8_lossy(&m).into_owned(), false));
                }
                let mut m = b.to_vec();
                m.remove(at);
                texts.push((String::from_utf8_lossy(&m).into_owned(), false));
            }
        }
        let mut accepted = 0;
        for (text, valid) in &texts {
            let bytes = text.as_bytes();
            for size in [1, 2, 3, 4, 7, 16, 64, bytes.len().max(1)] {
                let (mut h, mut s) = (Flat::<T>::with_capacity(0), T::stream());
                let mut alive = true;
                for piece in bytes.chunks(size) {
                    let stream_alive = matches!(s.feed(piece), Progress::Alive);
                    alive = alive && h.feed(piece);
                    assert!(!alive || stream_alive, "{text:?} in {size}-byte chunks");
                    assert_eq!(h.text(), s.text());
                }
                let ok = alive && h.finish();
                assert!(!ok || T::is_valid_json(text), "{text:?} in {size}-byte chunks");
                if *valid {
                    assert!(ok, "the valid reply {text:?} in {size}-byte chunks");
                }
                accepted += usize::from(ok);
            }
        }
        assert!(accepted >= 8, "{accepted}");
    }

    #[test]
    fn program_driven_never_more_lenient_than_the_stream() {
        program_driven::<ConvertUnits>("convert_units");
        program_driven::<crate::Flat30>("flat30");
    }
}

/// The second experiment: the same reader for any flat tool (an object of scalar properties),
/// reading the program the macro already emits for the stream (`Tool::__PROGRAM`: names, byte
/// tables, bounds, `enum` members) instead of constants written for one schema. It tells
/// whether a reader of that shape needs code emitted per schema or only tables.
pub mod program {
    use toolgate::__private::{
        stream_in_bounds as in_bounds, stream_literal_value as literal_value, Program, Scanner, StreamNode as Node,
        NONE,
    };
    use toolgate::Tool;

    /// `ty` bits, as the program holds them.
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    const NUMBER: u8 = 8;
    const STRING: u8 = 16;
    /// `shape::PLAIN`.
    const PLAIN: u8 = 1;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum St {
        Start,
        First,
        Comma,
        Key,
        Colon,
        Value,
        Str,
        Minus,
        Zero,
        Int,
        Dot,
        Frac,
        E,
        ESign,
        Exp,
        Lit,
        After,
        Done,
    }

    /// The reader's state for tool `T`, and the text.
    #[derive(Debug, Clone)]
    pub struct Flat<T: Tool> {
        text: Vec<u8>,
        st: St,
        /// the root object
        root: &'static Node,
        /// the current value's subschema
        node: &'static Node,
        /// all the root's names, and those `properties` declares
        names: u128,
        declared: u128,
        /// candidate names or members, and bytes or characters so far
        cand: u128,
        off: u64,
        /// names seen, members so far
        seen: u128,
        count: u64,
        /// where the current value began, and the byte being read
        start: usize,
        pos: usize,
        /// the literal being read and how far
        lit: (&'static [u8], usize),
        /// the number so far
        neg: bool,
        sig: u64,
        digits: usize,
        point: Option<usize>,
        exp: bool,
        tool: std::marker::PhantomData<T>,
    }

    impl<T: Tool> Flat<T> {
        /// A fresh reader, its text buffer made for `bytes` bytes.
        #[must_use]
        pub fn with_capacity(bytes: usize) -> Self {
            let prog: &'static Program = T::__PROGRAM;
            let root = prog.nodes.get(usize::from(prog.root)).unwrap_or(&Node::ALWAYS);
            Self {
                text: Vec::with_capacity(bytes),
                st: St::Start,
                root,
                node: root,
                names: all_bits(root.names.len()),
                declared: all_bits(root.props.len()),
                cand: 0,
                off: 0,
                seen: 0,
                count: 0,
                start: 0,
                pos: 0,
                lit: (b"", 0),
                neg: false,
                sig: 0,
                digits: 0,
                point: None,
                exp: false,
                tool: std::marker::PhantomData,
            }
        }

        /// Whether this reader reads `T` (its root a plain object of plain scalar properties).
        #[must_use]
        pub fn reads() -> bool {
            let prog = T::__PROGRAM;
            let Some(root) = prog.nodes.get(usize::from(prog.root)) else { return false };
            root.shape == PLAIN
                && root.types == 64
                && root.patterns.is_empty()
                && root.dep_required.is_empty()
                && root.props.iter().all(|&p| {
                    // (A value of another kind is handed over where it begins.)
                    prog.nodes.get(usize::from(p)).is_some_and(|n| n.shape == PLAIN && !n.always)
                })
        }

        /// Feed a fragment: `true` when alive for certain, `false` where a stream would hand
        /// the text over.
        #[inline(always)]
        pub fn feed(&mut self, bytes: &[u8]) -> bool {
            if let [b] = bytes {
                self.pos = self.text.len();
                self.text.push(*b);
                return self.step(*b);
            }
            self.feed_long(bytes)
        }

        #[inline(never)]
        fn feed_long(&mut self, bytes: &[u8]) -> bool {
            let from = self.text.len();
            self.text.extend_from_slice(bytes);
            (from..self.text.len()).all(|i| match self.text.get(i) {
                Some(&b) => {
                    self.pos = i;
                    self.step(b)
                }
                None => false,
            })
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
                St::Str => match b {
                    b'"' => self.close_string(),
                    0x20..=0x7e if b != b'\\' => {
                        let n = self.node;
                        if let Some(members) = n.strings {
                            let _ = members;
                            self.cand = narrow(n.string_bytes, self.cand, self.off, b);
                            if self.cand == 0 {
                                return false;
                            }
                        }
                        self.off += 1;
                        self.off <= n.max_length
                    }
                    _ => false,
                },
                St::Key => match b {
                    b'"' => self.close_key(),
                    0x20..=0x7e if b != b'\\' => {
                        self.cand = narrow(self.root.name_bytes, self.cand, self.off, b);
                        self.off += 1;
                        self.cand != 0
                    }
                    _ => false,
                },
                St::Int | St::Frac => match b {
                    b'0'..=b'9' => self.digit(b),
                    _ => self.number_goes_on(b),
                },
                St::Exp => match b {
                    b'0'..=b'9' => true,
                    _ => self.number_ends(b),
                },
                St::Minus | St::Zero | St::Dot | St::E | St::ESign => self.number_rare(b),
                St::Lit => {
                    let (word, i) = self.lit;
                    if word.get(i) != Some(&b) {
                        return false;
                    }
                    self.lit.1 += 1;
                    if self.lit.1 == word.len() {
                        self.st = St::After;
                    }
                    true
                }
                St::Value => is_ws(b) || self.value(b),
                St::After => match b {
                    b',' => {
                        let r = self.root;
                        let declared = self.declared;
                        self.st = St::Comma;
                        self.count < r.max_props && !(r.closed && declared & !self.seen == 0)
                    }
                    b'}' => {
                        let r = self.root;
                        self.st = St::Done;
                        r.required & !self.seen == 0 && self.count >= r.min_props
                    }
                    _ => is_ws(b),
                },
                St::Comma | St::First => match b {
                    b'"' => {
                        (self.cand, self.off, self.st) = (self.names & !self.seen, 0, St::Key);
                        self.count += 1;
                        self.cand != 0
                    }
                    b'}' if self.st == St::First => {
                        let r = self.root;
                        self.st = St::Done;
                        r.required == 0 && r.min_props == 0
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

        /// A key's closing quote: the one name of its length among the candidates.
        #[inline(never)]
        fn close_key(&mut self) -> bool {
            let r = self.root;
            let mut rest = self.cand;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if r.names.get(i).is_some_and(|n| n.len() as u64 == self.off) {
                    let Some(&p) = r.props.get(i) else { return false };
                    self.seen |= 1 << i;
                    self.node = T::__PROGRAM.nodes.get(usize::from(p)).unwrap_or(&Node::ALWAYS);
                    self.st = St::Colon;
                    return p != NONE;
                }
            }
            false
        }

        /// A value's first byte.
        #[inline(never)]
        fn value(&mut self, b: u8) -> bool {
            let n = self.node;
            let bits = match b {
                b'"' => STRING,
                b'-' | b'0'..=b'9' => INTEGER | NUMBER,
                b't' | b'f' => BOOLEAN,
                b'n' => NULL,
                _ => return false,
            };
            if n.types & bits == 0 || n.pattern.is_some() || (n.enum_types != 0 && n.enum_types & bits == 0) {
                return false;
            }
            self.start = self.pos;
            match b {
                b'"' => {
                    if n.enum_types != 0 && n.strings.is_none() {
                        return false;
                    }
                    self.cand = n.strings.map_or(0, |s| all_bits(s.len()));
                    self.off = 0;
                    self.st = St::Str;
                }
                b't' | b'f' | b'n' => {
                    if n.enum_types != 0 {
                        return false;
                    }
                    let word: &'static [u8] = match b {
                        b't' => b"true",
                        b'f' => b"false",
                        _ => b"null",
                    };
                    self.lit = (word, 1);
                    self.st = St::Lit;
                }
                _ => {
                    if n.enum_types != 0 {
                        return false;
                    }
                    (self.neg, self.sig, self.digits, self.point, self.exp) = (false, 0, 0, None, false);
                    match b {
                        b'-' => {
                            if n.negative.is_some() {
                                return false;
                            }
                            self.neg = true;
                            self.st = St::Minus;
                        }
                        b'0' => {
                            self.digits = 1;
                            self.st = St::Zero;
                        }
                        _ => {
                            self.st = St::Int;
                            self.digit(b);
                        }
                    }
                }
            }
            true
        }

        /// A string value's closing quote: its length, its member, or its scan function.
        #[inline(never)]
        fn close_string(&mut self) -> bool {
            let n = self.node;
            self.st = St::After;
            if self.off < n.min_length {
                return false;
            }
            if let Some(members) = n.strings {
                let mut rest = self.cand;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if members.get(i).is_some_and(|m| m.len() as u64 == self.off) {
                        return true;
                    }
                }
                return false;
            }
            n.scalar & STRING != 0 || self.scan(self.pos + 1)
        }

        /// The current value's verdict (its text up to `end`) by its subschema's scan function.
        fn scan(&self, end: usize) -> bool {
            let span = self.text.get(self.start..end).unwrap_or_default();
            std::str::from_utf8(span).is_ok_and(|t| (self.node.scan)(&mut Scanner::new(t)).is_ok())
        }

        #[inline(always)]
        fn digit(&mut self, b: u8) -> bool {
            self.sig = self.sig.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            self.digits += 1;
            true
        }

        #[inline(always)]
        fn number_goes_on(&mut self, b: u8) -> bool {
            match b {
                b'.' if self.st == St::Int => {
                    self.point = Some(self.digits);
                    self.st = St::Dot;
                    true
                }
                b'e' | b'E' => {
                    self.exp = true;
                    self.st = St::E;
                    true
                }
                _ => self.number_ends(b),
            }
        }

        #[inline(never)]
        fn number_rare(&mut self, b: u8) -> bool {
            match (self.st, b) {
                (St::Minus, b'0') => {
                    self.digits = 1;
                    self.st = St::Zero;
                }
                (St::Minus, b'1'..=b'9') => {
                    self.st = St::Int;
                    self.digit(b);
                }
                (St::Zero, b'.') => {
                    self.point = Some(self.digits);
                    self.st = St::Dot;
                }
                (St::Zero, b'e' | b'E') => {
                    self.exp = true;
                    self.st = St::E;
                }
                (St::Zero, b'0'..=b'9') => return false,
                (St::Zero, _) => return self.number_ends(b),
                (St::Dot, b'0'..=b'9') => {
                    self.st = St::Frac;
                    self.digit(b);
                }
                (St::E, b'+' | b'-') => self.st = St::ESign,
                (St::E | St::ESign, b'0'..=b'9') => self.st = St::Exp,
                _ => return false,
            }
            true
        }

        /// The number ended before `b`: its verdict, then `b` after it.
        #[inline(never)]
        fn number_ends(&mut self, b: u8) -> bool {
            let n = self.node;
            self.st = St::After;
            let num = if self.exp { None } else { literal_value(self.neg, self.sig, self.digits, self.point) };
            let ok = match (&n.bounds, num) {
                (Some(bounds), Some(x)) => in_bounds(x, bounds, n.types & NUMBER == 0),
                (None, Some(x)) if n.scalar & NUMBER != 0 => n.types & NUMBER != 0 || x.is_integer(),
                _ => self.scan(self.pos),
            };
            ok && self.step(b)
        }
    }

    #[inline(always)]
    const fn is_ws(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\r')
    }

    const fn all_bits(n: usize) -> u128 {
        if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }

    /// The candidates that have byte `b` at offset `off` (as the program's byte tables say).
    #[inline(always)]
    fn narrow(tab: &[&[(u8, u128)]], cands: u128, off: u64, b: u8) -> u128 {
        let Some(row) = usize::try_from(off).ok().and_then(|o| tab.get(o)) else { return 0 };
        for &(x, m) in *row {
            if x == b {
                return cands & m;
            }
        }
        0
    }
}
