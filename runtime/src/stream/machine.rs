//! The prefix automaton: reads reply text byte by byte and says, at every byte, whether some
//! continuation can still be valid.
//!
//! Two layers. The lexer (`Lex`) is toolgate's strict JSON grammar as a byte-at-a-time state
//! machine (UTF-8, escapes, surrogate pairs, numbers, literals, depth), so a syntax error is dead
//! at its byte. Above it, one `Frame` per open value that a schema still speaks of holds one
//! `Slot` per subschema applying there (the requested ones and everything they apply in place:
//! `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`). A slot dies
//! the moment one of its own keywords is certainly broken (type at the first byte, string
//! `enum`/`const` and `pattern` character by character, `maxLength`, `maxItems`/`maxProperties`
//! at the comma that promises one more, a closed object's key (closed by
//! `additionalProperties: false`, or by `unevaluatedProperties: false` where only `properties`
//! evaluate names: [`Node::closed`]), a declared key repeated) or a
//! child it requires dies; in-place combinations are recomputed on every death (`allOf`: any
//! branch, `anyOf`/`oneOf`: every branch, `if`: the outcome), and a `not`, a `oneOf`'s
//! exactly-one and an `if` are decided at a scalar's first byte where a subschema takes every
//! value of its kind (`sure_at_first_byte`). When a value closes, each slot gets
//! its exact verdict: from the counts, bits and automaton states kept on the way where its
//! keywords were all followed (strings with lengths, `enum` strings and patterns, literals,
//! plain numbers, arrays and objects), else from the node's generated scan function over the
//! value's text, read once more from the text the caller holds (numbers with bounds, `format`,
//! `uniqueItems`, `enum` of containers, `unevaluated*`). The text is dead when the root's slot is.
//!
//! Nothing here allocates until the text is dead (the explanation is built then). The state is
//! two fixed arrays whose sizes the macro computed from the schema; a value nested deeper than
//! the tracked levels is followed for syntax only and judged when its tracked ancestor closes.

use crate::num::Limit;
use crate::pattern::Stepped;
use crate::text::{is_literal_start, item_text, repeat_of, ItemFilter, KeyFilter, Kind, Num, Scanner, Span, MAX_DEPTH};
use crate::violation::{Error, Found, JsonType, TypeSet, Violation, ViolationKind, Violations};

use super::bounds::{self, Bound};
use super::members;
use super::program::{narrow_byte, shape, ty, ByteTable, Node, Program, NONE};

/// Where a slot stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// the value is open and may still satisfy the subschema
    Open,
    /// certainly invalid (before or at the close)
    Dead,
    /// closed and valid
    Valid,
}

/// Why a slot died, for the explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    None,
    Type,
    Never,
    Enum,
    MaxLength,
    Pattern,
    Negative,
    /// a bound or `multipleOf` the number's exponent settled ([`bounds::outgrown`],
    /// [`bounds::indivisible`])
    Bound,
    AdditionalProperty,
    MaxProperties,
    MaxItems,
    MaxContains,
    /// a subschema applied to the current child died
    Child(u16),
    PropertyName,
    /// a subschema applied in place died
    InPlace(u16),
    AnyOf,
    OneOf,
    Not,
    Required(u8),
    MinProperties,
    MinItems,
    MinContains,
    DependentRequired(u8, u8),
    /// the node's scan function rejected the closed value
    Scan,
    /// a member promised where a closed object has every declared property already
    NoMoreMembers,
    /// a closed object's key that can only repeat a present property (or be undeclared)
    Repeat,
    /// a key whose property, or a pattern it matches, is `false` ([`Node::forbidden`])
    Forbidden,
    /// an array's item equal to an earlier one (`uniqueItems`), found as it closed
    Unique,
}

/// The state of one subschema at one value.
#[derive(Debug, Clone, Copy)]
struct Slot {
    node: u16,
    st: St,
    why: Why,
    /// pattern stepping stopped: matched, or the automaton gave up (`pmatch` says which)
    pdone: bool,
    /// the current key is matched against the names byte by byte (a closed object's)
    kfollow: bool,
    pmatch: bool,
    dfa: u32,
    /// members or items begun (a `,` promises one)
    count: u32,
    /// items valid against `contains`
    sure: u32,
    /// the current item is counted in `sure`, sure since a byte of its number's exponent
    counted: bool,
    /// decoded bytes of the current string or key
    koff: u32,
    /// the current key's name index, or [`NONE`]
    sel: u16,
    /// code points of the current string
    chars: u64,
    /// names seen (objects)
    seen: u128,
    /// names the current key may still be (objects), or `enum` strings the string may still be
    cands: u128,
    /// `patternProperties` the current key matched
    pats: u64,
}

impl Slot {
    const EMPTY: Self = Self {
        node: NONE,
        st: St::Open,
        why: Why::None,
        pdone: true,
        kfollow: false,
        pmatch: false,
        dfa: 0,
        count: 0,
        sure: 0,
        counted: false,
        koff: 0,
        sel: NONE,
        chars: 0,
        seen: 0,
        cands: 0,
        pats: 0,
    };
}

/// What the automaton needs of a value's JSON kind.
pub(super) trait KindBits {
    fn bits(self) -> u8;
    fn json(self) -> JsonType;
}

impl KindBits for Kind {
    fn bits(self) -> u8 {
        match self {
            Self::Null => ty::NULL,
            Self::Bool => ty::BOOLEAN,
            Self::Number => ty::INTEGER | ty::NUMBER,
            Self::String => ty::STRING,
            Self::Array => ty::ARRAY,
            Self::Object => ty::OBJECT,
        }
    }

    fn json(self) -> JsonType {
        match self {
            Self::Null => JsonType::Null,
            Self::Bool => JsonType::Boolean,
            Self::Number => JsonType::Number,
            Self::String => JsonType::String,
            Self::Array => JsonType::Array,
            Self::Object => JsonType::Object,
        }
    }
}

/// One tracked value (or the key being read, when `key`).
#[derive(Debug, Clone, Copy)]
struct Frame {
    lo: u16,
    hi: u16,
    start: usize,
    kind: Kind,
    key: bool,
    /// whether the values inside get frames of their own
    children: bool,
    /// members or items begun
    count: u32,
    /// the current member's key, quotes included; in an array with [`Frame::unique`], the
    /// current (or last) item, from its first byte to the byte after it
    ks: usize,
    ke: usize,
    /// keys that no slot declares
    undeclared: u32,
    /// their hashes, to find a repeated one when it closes
    keys: KeyFilter,
    /// an array some slot of which has `uniqueItems`: its items as they close
    unique: bool,
    items: ItemFilter,
}

impl Frame {
    const EMPTY: Self = Self {
        lo: 0,
        hi: 0,
        start: 0,
        kind: Kind::Null,
        key: false,
        children: false,
        count: 0,
        ks: 0,
        ke: 0,
        undeclared: 0,
        keys: KeyFilter::EMPTY,
        unique: false,
        items: ItemFilter::EMPTY,
    };
}

/// The lexer's state between two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lex {
    /// a value must come (root start, after `:`, after `,` in an array)
    Value,
    /// after `[`: a value or `]`
    ArrFirst,
    /// after `{`: a key or `}`
    ObjFirst,
    /// after `,` in an object: a key
    Key,
    /// after a key: `:`
    Colon,
    /// after a value in a container: `,` or the closer
    After,
    /// the root value is complete: only whitespace
    Done,
    /// in a string
    Str,
    /// after `\`
    Esc,
    /// in `\uXXXX`: digits read so far and their value
    Hex(u8, u16),
    /// after a high surrogate: `\` must come, then `u`, then the low half's digits
    LowBs(u16),
    LowU(u16),
    LowHex(u16, u8, u16),
    /// in a multi-byte character: continuation bytes still due, and the next one's range
    Utf8(u8, u8, u8),
    /// in `true`/`false`/`null`: which word and how far
    Lit(u8, u8),
    /// in a number
    Num(NumSt),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumSt {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

/// The next state of a number in state `st` at byte `b` (`None`: `b` does not continue it).
pub(super) const fn num_step(st: NumSt, b: u8) -> Option<NumSt> {
    match (st, b) {
        (NumSt::Minus, b'0') => Some(NumSt::Zero),
        (NumSt::Minus, b'1'..=b'9') | (NumSt::Int, b'0'..=b'9') => Some(NumSt::Int),
        (NumSt::Zero | NumSt::Int, b'.') => Some(NumSt::Dot),
        (NumSt::Dot | NumSt::Frac, b'0'..=b'9') => Some(NumSt::Frac),
        (NumSt::Zero | NumSt::Int | NumSt::Frac, b'e' | b'E') => Some(NumSt::Exp),
        (NumSt::Exp, b'+' | b'-') => Some(NumSt::ExpSign),
        (NumSt::Exp | NumSt::ExpSign | NumSt::ExpDigits, b'0'..=b'9') => Some(NumSt::ExpDigits),
        _ => None,
    }
}

/// A number's exponent, watched as its digits come. A positive one, for the `f64` range: beyond
/// that range a number is a syntax error (as `serde_json` reads it), and once the exponent has put
/// it there no continuation brings it back, since more digits only make the exponent larger.
/// (A mantissa alone beyond the range is not dead: an exponent may still follow and bring it
/// back, `1` and 400 zeros `e-400`.) A negative one, for the digit from which the number reads as
/// zero whatever follows ([`ZERO_BELOW`]: `73601e-330`; more digits only make it smaller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ExpWatch {
    /// the decimal magnitude of the mantissa's leading significant digit (`12.5`: 1, `0.05`:
    /// -2); [`ExpWatch::OFF`]'s: no exponent watched (none, or a mantissa of zeros, which
    /// stays zero)
    mag: i32,
    /// the exponent's value so far (saturating below [`ExpWatch::UNREAD`]), or
    /// [`ExpWatch::UNREAD`] before its first digit
    exp: u32,
    /// the exponent is negative
    neg: bool,
}

/// Where a number's negative exponent makes it zero: `f64`'s least positive value is 4.9e-324,
/// and a value below half of it rounds to zero, so a number whose leading significant digit is
/// at 10^m reads as zero once its negative exponent `e` is at least `m + ZERO_BELOW` (the value
/// then below 10^-324), and not before `m + ZERO_NEAR` (at least 10^-322); in between, its text
/// read as if it ended there tells ([`zero_at`](super::bounds::zero_at)).
pub(super) const ZERO_BELOW: i64 = 325;

/// See [`ZERO_BELOW`].
pub(super) const ZERO_NEAR: i64 = 322;

impl ExpWatch {
    /// Nothing watched.
    pub(super) const OFF: Self = Self { mag: i32::MIN, exp: Self::UNREAD, neg: false };

    /// [`ExpWatch::exp`] before the exponent's first digit.
    const UNREAD: u32 = u32::MAX;

    /// Whether an exponent is watched (its digits must come through [`ExpWatch::digit`]).
    pub(super) const fn on(&self) -> bool {
        self.mag != Self::OFF.mag
    }

    /// Whether a digit read in number state `st` only goes on the number, so that the digits
    /// after it may be read with it in one run: in the integer part, the fraction, or an
    /// exponent not watched (a watched one's digits come through [`ExpWatch::step`] one by one).
    pub(super) const fn runs(&self, st: NumSt) -> bool {
        match st {
            NumSt::Int | NumSt::Frac => true,
            NumSt::ExpDigits => !self.on(),
            _ => false,
        }
    }

    /// At a number's `e`: the watch of its exponent, given its mantissa's text (`-0.05`).
    pub(super) fn new(mantissa: &[u8]) -> Self {
        let Some(mag) = magnitude(mantissa) else { return Self::OFF };
        let mag = i32::try_from(mag.clamp(i64::from(i32::MIN) + 1, i64::from(i32::MAX))).unwrap_or(i32::MAX);
        Self { mag, exp: Self::UNREAD, neg: false }
    }

    /// The number whose text so far is `number` (its last byte included) went on to state `n`:
    /// whether it may, and whether the least magnitude it may still take moved. Every number's
    /// byte that takes it to an exponent state comes through here.
    pub(super) fn step(&mut self, n: NumSt, number: &[u8]) -> ExpStep {
        match (n, number.split_last()) {
            (NumSt::Exp, Some((_, mantissa))) => {
                *self = Self::new(mantissa);
                // A mantissa of zeros: zero whatever follows. Else the exponent may go either
                // way: a range it can reach neither way is left here.
                if self.on() {
                    ExpStep::Narrowed
                } else {
                    ExpStep::Moved
                }
            }
            (NumSt::ExpSign, Some((b'-', _))) if self.on() => {
                // From here the number only shrinks in magnitude: what it reads as with `e-0` is
                // the most it may still be. A mantissa so small that it reads as zero already
                // stays zero.
                self.neg = true;
                if i64::from(self.mag) + ZERO_BELOW <= 0 {
                    *self = Self::OFF;
                    ExpStep::Moved
                } else {
                    ExpStep::Narrowed
                }
            }
            (NumSt::ExpSign, _) if self.on() => ExpStep::Moved,
            (NumSt::ExpDigits, Some((&d, _))) => self.digit(d, number),
            _ => ExpStep::Same,
        }
    }

    /// A digit `d` of the exponent ([`ExpStep::Out`]: the number is beyond the `f64` range, and
    /// stays so whatever follows). `number`: the number's text, `d` included, read again only
    /// where its magnitude is at the range's edge (once a number at most: the exponent's value
    /// only grows, and passes the edge's value once).
    fn digit(&mut self, d: u8, number: &[u8]) -> ExpStep {
        if !self.on() {
            return ExpStep::Same;
        }
        let before = if self.exp == Self::UNREAD { 0 } else { self.exp };
        let exp = before.saturating_mul(10).saturating_add(u32::from(d.wrapping_sub(b'0'))).min(Self::UNREAD - 1);
        let changed = exp != self.exp;
        self.exp = exp;
        if !changed {
            // A leading zero of the exponent: the value has not changed.
            return ExpStep::Same;
        }
        if self.neg {
            // The most the number may still be moved down; from the digit that makes it zero
            // on, nothing more is watched (the exponent's value only grows). So a negative
            // exponent moves at most a handful of times: its value passes the few values between
            // the two thresholds in one digit, and the threshold in three or four.
            if super::bounds::zero_at(i64::from(self.mag), i64::from(exp), number) {
                *self = Self::OFF;
                return ExpStep::Moved;
            }
            return ExpStep::Narrowed;
        }
        // The value lies in [10^top, 10^(top + 1)).
        let within = match i64::from(self.mag) + i64::from(exp) {
            top if top >= 309 => false,
            top if top <= 307 => true,
            // At the edge (f64::MAX is 1.79e308): the conversion decides.
            _ => std::str::from_utf8(number).is_ok_and(|t| Scanner::new(t).number().is_ok()),
        };
        if within {
            ExpStep::Moved
        } else {
            ExpStep::Out
        }
    }
}

/// What a byte of a number's exponent did ([`ExpWatch::step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExpStep {
    /// the number is beyond the `f64` range, whatever follows: a syntax error at this byte
    Out,
    /// nothing a bound could see changed
    Same,
    /// the least magnitude the number may still take moved (a `+`, a positive exponent's digit
    /// that changed its value, the `e` of a mantissa of zeros), or it reads as zero for good
    /// (a negative exponent's digit): its bounds are judged again
    /// ([`bounds::outgrown`](super::bounds::outgrown)), and a subschema may be sure of it
    Moved,
    /// the magnitudes the number may still take narrowed in a way only its bounds see (its
    /// `e`, after which an exponent may take it either way; a negative exponent's `-`, or a
    /// digit that changed its value, before the number reads as zero, which moved the most it
    /// may be down): its bounds are judged again, and nothing else (a subschema is sure of a
    /// number in a negative exponent only once it is zero)
    Narrowed,
}

/// The decimal magnitude of the leading significant digit of a number's mantissa (its text up to
/// its `e`: `12.5` 1, `-0.05` -2); `None` for a mantissa of zeros.
pub(super) fn magnitude(mantissa: &[u8]) -> Option<i64> {
    let digits = mantissa.strip_prefix(b"-").unwrap_or(mantissa);
    let (int, frac) = match digits.iter().position(|&c| c == b'.') {
        Some(dot) => (digits.get(..dot).unwrap_or_default(), digits.get(dot + 1..).unwrap_or_default()),
        None => (digits, &b""[..]),
    };
    // JSON's integer part is `0` or begins with a digit other than 0.
    if int.first().is_some_and(|&c| c != b'0') {
        Some(i64::try_from(int.len()).unwrap_or(i64::MAX) - 1)
    } else {
        frac.iter().position(|&c| c != b'0').map(|zeros| -1 - i64::try_from(zeros).unwrap_or(i64::MAX))
    }
}

/// A byte that begins a multi-byte UTF-8 character: the continuation bytes due and the range
/// of the next one (`None`: no character begins with it).
pub(super) const fn utf8_lead(b: u8) -> Option<(u8, u8, u8)> {
    Some(match b {
        0xC2..=0xDF => (1, 0x80, 0xBF),
        0xE0 => (2, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80, 0xBF),
        0xED => (2, 0x80, 0x9F),
        0xF0 => (3, 0x90, 0xBF),
        0xF1..=0xF3 => (3, 0x80, 0xBF),
        0xF4 => (3, 0x80, 0x8F),
        _ => return None,
    })
}

pub(super) const WORDS: [&[u8]; 3] = [b"true", b"false", b"null"];

/// Why the text died, as noted when it did (the explanation is built from it, and from the state
/// the automaton stopped in, only when asked: a token mask never asks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// a syntax error, with its message
    Syntax(&'static str),
    /// the root's subschema died
    Schema,
}

/// The text is dead: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Death {
    /// offset of the byte that made every continuation invalid (the text's length when it was
    /// its end)
    pub offset: usize,
    /// the violation, or the syntax error
    pub error: Error,
}

/// The prefix automaton of one schema: `S` slots and `D` tracked levels, both computed by the
/// macro from the schema.
#[derive(Debug)]
pub struct Machine<const S: usize, const D: usize> {
    prog: &'static Program,
    /// the subschema of the value read (the program's root, or the node of a value inside the
    /// text that the lean automaton handed over: see [`Machine::nested`])
    root: u16,
    /// containers open around that value (the depth limit counts them)
    base: u32,
    /// the value is inside the text: reading stops where it ends
    nested: bool,
    /// bytes read
    pos: usize,
    lex: Lex,
    /// open arrays and objects
    depth: u32,
    /// bit `i`: the container at depth `i` is an object
    objects: u128,
    /// whether the string being read is a key
    in_key: bool,
    /// the current string needs its bytes looked at
    follow: bool,
    frames: [Frame; D],
    nf: usize,
    slots: [Slot; S],
    ns: usize,
    /// the final verdict can come from this automaton alone (no key that may repeat unseen,
    /// nothing beyond capacity)
    exact: bool,
    /// the schema layer gave up (capacity): syntax only from here, the end decides
    degraded: bool,
    /// the root value closed valid
    root_valid: bool,
    /// the last frame pushed had a slot die at its first byte
    pushed_dead: bool,
    /// the key being read has an escape
    key_escaped: bool,
    /// the string value being read is followed only to count its characters (no `enum`
    /// string, no `pattern` still stepping): plain ASCII characters are taken in bulk, up to
    /// `budget` more, counted in `pending` until a byte takes the full path
    counting: bool,
    budget: u64,
    pending: u64,
    /// the one slot that follows the string being read, when there is only one (else
    /// [`NONE`]): its plain characters are stepped in the fast path of `advance`; `fast_key`:
    /// it matches a key against the names (with `fast_props` the bits of `properties`), else it
    /// follows a string value
    fast: u16,
    fast_key: bool,
    fast_props: u128,
    /// the number being read got no frame: its one subschema (this node) judges only its
    /// bounds, decided when it ends (a frame is made then only if the literal breaks them or is
    /// not short)
    lazy: u16,
    /// where the number being read began, whether it has an exponent, and its exponent
    /// watched for the `f64` range
    num_start: usize,
    num_exp: bool,
    num_watch: ExpWatch,
    /// a slot of the number being read has `enum`/`const` numbers, or must be an integer within
    /// bounds: watched at each of its bytes ([`members::reachable`], [`bounds::integral`])
    num_members: bool,
    /// where the text died, and why
    dead: Option<(usize, Fate)>,
}

impl<const S: usize, const D: usize> Clone for Machine<S, D> {
    fn clone(&self) -> Self {
        let mut m = Self::new(self.prog);
        m.clone_from(self);
        m
    }

    /// Copies only the slots and frames in use: what a token mask does at every trie node.
    fn clone_from(&mut self, src: &Self) {
        self.prog = src.prog;
        self.root = src.root;
        self.base = src.base;
        self.nested = src.nested;
        self.pos = src.pos;
        self.lex = src.lex;
        self.depth = src.depth;
        self.objects = src.objects;
        self.in_key = src.in_key;
        self.follow = src.follow;
        self.nf = src.nf;
        self.ns = src.ns;
        self.exact = src.exact;
        self.degraded = src.degraded;
        self.root_valid = src.root_valid;
        self.pushed_dead = src.pushed_dead;
        self.key_escaped = src.key_escaped;
        self.counting = src.counting;
        self.budget = src.budget;
        self.pending = src.pending;
        self.fast = src.fast;
        self.fast_key = src.fast_key;
        self.fast_props = src.fast_props;
        self.lazy = src.lazy;
        self.num_start = src.num_start;
        self.num_exp = src.num_exp;
        self.num_watch = src.num_watch;
        self.num_members = src.num_members;
        self.dead = src.dead;
        if let (Some(d), Some(s)) = (self.frames.get_mut(..src.nf), src.frames.get(..src.nf)) {
            d.copy_from_slice(s);
        }
        if let (Some(d), Some(s)) = (self.slots.get_mut(..src.ns), src.slots.get(..src.ns)) {
            d.copy_from_slice(s);
        }
    }
}

impl<const S: usize, const D: usize> Machine<S, D> {
    /// No container open, no subschema in force: copied whole from constants (as arrays built
    /// in place they were built beside the automaton and then copied).
    const NO_FRAMES: [Frame; D] = [Frame::EMPTY; D];
    const NO_SLOTS: [Slot; S] = [Slot::EMPTY; S];

    /// The automaton at the start of a text.
    #[must_use]
    pub const fn new(prog: &'static Program) -> Self {
        Self {
            prog,
            root: prog.root,
            base: 0,
            nested: false,
            pos: 0,
            lex: Lex::Value,
            depth: 0,
            objects: 0,
            in_key: false,
            follow: false,
            frames: Self::NO_FRAMES,
            nf: 0,
            slots: Self::NO_SLOTS,
            ns: 0,
            exact: true,
            degraded: false,
            root_valid: false,
            pushed_dead: false,
            key_escaped: false,
            counting: false,
            budget: 0,
            pending: 0,
            fast: NONE,
            fast_key: false,
            fast_props: 0,
            lazy: NONE,
            num_start: 0,
            num_exp: false,
            num_watch: ExpWatch::OFF,
            num_members: false,
            // A schema no value satisfies: dead at offset 0, before any byte.
            dead: if prog.never { Some((0, Fate::Schema)) } else { None },
        }
    }

    /// The automaton for one value inside the text, judged by node `root`: it begins at offset
    /// `at`, `depth` containers deep, and reading stops where it ends ([`Machine::value_end`]).
    /// What the lean automaton hands a value to when several subschemas speak of it.
    #[must_use]
    pub const fn nested(prog: &'static Program, root: u16, at: usize, depth: u32) -> Self {
        let mut m = Self::new(prog);
        m.root = root;
        m.pos = at;
        m.base = depth;
        m.nested = true;
        m
    }

    /// Where the value of a [`Machine::nested`] automaton ended (the offset after it), once it
    /// has and was valid.
    #[must_use]
    pub fn value_end(&self) -> Option<usize> {
        (self.nested && self.lex == Lex::Done && self.dead.is_none()).then_some(self.pos)
    }

    /// Bytes read so far.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.pos
    }

    /// Whether nothing was read yet.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.pos == 0
    }

    /// Whether the text is dead.
    #[must_use]
    pub const fn is_dead(&self) -> bool {
        self.dead.is_some()
    }

    /// Why the text is dead, once it is: the offset and the error, built from the state the
    /// automaton stopped in and `text` (all of the text it read, or more).
    #[must_use]
    pub fn death(&self, text: &[u8]) -> Option<Death> {
        let (offset, fate) = self.dead?;
        let error = match fate {
            Fate::Syntax(message) => syntax_error(text, offset, message),
            Fate::Schema => {
                let root = self.slots.first().map_or(NONE, |s| s.node);
                Error::Invalid(Violations::new(vec![self.explain(text, 0, root, 0)]))
            }
        };
        Some(Death { offset, error })
    }

    /// Inside a string whose characters the slots only count (`maxLength`, `minLength`) or do
    /// not look at: the UTF-8 state (continuation bytes due, and the range of the next one;
    /// `(0, 0, 0)` between characters) and how many more characters every slot's `maxLength`
    /// allows. Up to that many plain characters change nothing but the position and the count:
    /// what a token mask walks without copying the state (beyond it, the automaton decides).
    #[must_use]
    pub fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        if self.degraded || self.dead.is_some() {
            return None;
        }
        let utf = match self.lex {
            Lex::Str => (0, 0, 0),
            Lex::Utf8(need, lo, hi) => (need, lo, hi),
            _ => return None,
        };
        if !self.follow {
            return Some((utf, u64::MAX));
        }
        if self.in_key {
            return None;
        }
        let f = self.nf.checked_sub(1).and_then(|i| self.frames.get(i))?;
        if f.kind != Kind::String || f.key {
            return None;
        }
        let mut budget = u64::MAX;
        for s in self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            if s.st != St::Open {
                continue;
            }
            let node = self.prog.node(s.node);
            if node.strings.is_some() || (node.pattern.is_some() && !s.pdone) {
                return None;
            }
            budget = budget.min(node.max_length.saturating_sub(s.chars + self.pending));
        }
        Some((utf, budget))
    }

    /// Whether the automaton's own verdict at the end is exact (else the end re-checks the text).
    #[must_use]
    pub const fn is_exact(&self) -> bool {
        self.exact && !self.degraded
    }

    /// Whether the text read so far is one complete valid value (whitespace may follow),
    /// as far as the automaton knows: `Some(true)` or `Some(false)` when it knows exactly,
    /// `None` when only a full check of the text can tell (a key that may repeat where no frame
    /// follows the object, or past its 64th undeclared key).
    #[must_use]
    pub fn complete(&self) -> Option<bool> {
        if self.dead.is_some() {
            return Some(false);
        }
        let done = match self.lex {
            Lex::Done => self.root_valid || self.prog.node(self.root).always,
            Lex::Num(NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits) if self.depth == 0 => {
                // The number would end here: the decision needs the text; `finish` makes it.
                return None;
            }
            _ => return Some(false),
        };
        if self.is_exact() {
            Some(done)
        } else {
            None
        }
    }

    /// Read `text[self.len()..]`: `text` is all of the text so far (what was read before must
    /// be its prefix). Returns `false` once the text is dead.
    #[inline]
    pub fn advance(&mut self, text: &[u8]) -> bool {
        if self.dead.is_some() {
            return false;
        }
        while let Some(&b) = text.get(self.pos) {
            if self.nested && self.lex == Lex::Done {
                // The value ended: what follows is its parent's.
                return true;
            }
            // The fast paths: bytes that change nothing but the lexer's state, or one slot's.
            match self.lex {
                Lex::Str if is_plain(b) => {
                    // Inside a string, plain ASCII characters nobody looks at, or that one slot
                    // follows, or that are only counted.
                    if !self.follow {
                        self.pos = plain_end(text, self.pos + 1);
                        continue;
                    }
                    if self.fast != NONE && self.fast_run(text) {
                        continue;
                    }
                    if self.counting && self.budget > 0 {
                        let end = plain_end(text, self.pos + 1);
                        let n = ((end - self.pos) as u64).min(self.budget);
                        self.budget -= n;
                        self.pending += n;
                        self.pos += n as usize;
                        continue;
                    }
                }
                Lex::Num(st) if b.is_ascii_digit() && self.num_watch.runs(st) && !self.num_members => {
                    self.pos += 1;
                    while text.get(self.pos).is_some_and(u8::is_ascii_digit) {
                        self.pos += 1;
                    }
                    continue;
                }
                Lex::Lit(w, i) => {
                    let word = WORDS.get(usize::from(w)).copied().unwrap_or(b"null");
                    if usize::from(i) + 1 < word.len() && word.get(usize::from(i)) == Some(&b) {
                        self.lex = Lex::Lit(w, i + 1);
                        self.pos += 1;
                        continue;
                    }
                }
                Lex::Colon if b == b':' => {
                    self.lex = Lex::Value;
                    self.pos += 1;
                    continue;
                }
                Lex::Value | Lex::ArrFirst | Lex::ObjFirst | Lex::Key | Lex::Colon | Lex::After | Lex::Done
                    if is_ws(b) =>
                {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            if !self.slow_byte(text, b) {
                return false;
            }
        }
        true
    }

    /// A byte on the full path (what the fast paths of `advance` do not take).
    #[inline(never)]
    fn slow_byte(&mut self, text: &[u8], b: u8) -> bool {
        if self.pending > 0 {
            self.flush();
        }
        let alive = self.byte(text, b);
        if alive && self.counting && matches!(self.lex, Lex::Str) {
            self.budget = self.count_budget();
        }
        alive
    }

    /// Plain characters of the string being read, stepped on the one slot that follows it, as
    /// far as that slot does not die (the byte that kills it takes the full path). Whether any
    /// was taken.
    #[inline]
    fn fast_run(&mut self, text: &[u8]) -> bool {
        let start = self.pos;
        let mut pos = start;
        let prog: &'static Program = self.prog;
        let Some(s) = self.slots.get_mut(usize::from(self.fast)) else { return false };
        let node = prog.node(s.node);
        if self.fast_key {
            let props = self.fast_props;
            while let Some(&b) = text.get(pos) {
                if !is_plain(b) {
                    break;
                }
                let c = narrow_byte(node.name_bytes, s.cands, s.koff as usize, b);
                if s.st == St::Open && c & props & !s.seen == 0 {
                    break;
                }
                s.cands = c;
                s.koff += 1;
                pos += 1;
            }
        } else {
            while let Some(&b) = text.get(pos) {
                if !is_plain(b) || s.st != St::Open || s.chars >= node.max_length {
                    break;
                }
                let mut cands = s.cands;
                if node.strings.is_some() {
                    cands = narrow_byte(node.string_bytes, cands, s.koff as usize, b);
                    if cands == 0 {
                        break;
                    }
                }
                let mut dfa = (s.dfa, s.pdone, s.pmatch);
                if let (Some((p, _)), false) = (node.pattern, s.pdone) {
                    let (next, how) = p.step(s.dfa, b);
                    dfa = match how {
                        Stepped::Live => (next, false, false),
                        Stepped::Matched => (next, true, true),
                        Stepped::Unknown => (next, true, false),
                        Stepped::Dead => break,
                    };
                }
                s.chars += 1;
                if node.strings.is_some() {
                    s.cands = cands;
                    s.koff += 1;
                }
                (s.dfa, s.pdone, s.pmatch) = dfa;
                pos += 1;
            }
        }
        self.pos = pos;
        pos > start
    }

    /// Hand the characters counted in bulk to the string's slots.
    fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        let Some(f) = self.nf.checked_sub(1).and_then(|i| self.frames.get(i)).copied() else { return };
        for s in self.slots.get_mut(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            if s.st == St::Open {
                s.chars += n;
            }
        }
    }

    /// How the string value that begins is followed: `follow` (some slot looks at its
    /// characters), `counting` and its `budget`, or the one slot the fast path steps.
    fn string_plan(&mut self, pushed: bool) {
        self.follow = false;
        self.counting = false;
        self.budget = 0;
        self.fast = NONE;
        let Some(f) = self.frames.get(self.nf.wrapping_sub(1)).filter(|_| pushed && !self.degraded) else {
            return;
        };
        let (mut follow, mut counts, mut open, mut budget) = (false, true, 0, u64::MAX);
        for s in self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            if s.st != St::Open {
                continue;
            }
            let node = self.prog.node(s.node);
            open += 1;
            follow |= node.follows_chars();
            counts &= node.strings.is_none() && s.pdone;
            budget = budget.min(node.max_length.saturating_sub(s.chars));
        }
        self.follow = follow;
        if !follow {
            return;
        }
        if counts {
            self.counting = true;
            self.budget = budget;
        } else if open == 1 && f.hi == f.lo + 1 {
            self.fast = f.lo;
            self.fast_key = false;
        }
    }

    /// How many more characters every open slot of the top frame allows (`maxLength`).
    fn count_budget(&self) -> u64 {
        let Some(f) = self.nf.checked_sub(1).and_then(|i| self.frames.get(i)) else { return 0 };
        let mut budget = u64::MAX;
        for s in self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            if s.st == St::Open {
                budget = budget.min(self.prog.node(s.node).max_length.saturating_sub(s.chars));
            }
        }
        budget
    }

    /// The text has ended: close a number at the root, and decide. `Ok(true)`: valid;
    /// `Ok(false)`: the automaton cannot tell alone (see [`Machine::complete`]).
    ///
    /// # Errors
    /// Why the text is not valid.
    pub fn finish(&mut self, text: &[u8]) -> Result<bool, Death> {
        if let Some(d) = self.death(text) {
            return Err(d);
        }
        if self.pending > 0 {
            self.flush();
        }
        if let Lex::Num(st) = self.lex {
            let ends = self.depth == 0 && matches!(st, NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits);
            if ends && !self.end_number(text) {
                return Err(self.dead_clone(text));
            }
        }
        if self.lex != Lex::Done {
            self.syntax(self.pos, "the text ends before the JSON value does");
            return Err(self.dead_clone(text));
        }
        match self.complete() {
            Some(true) => Ok(true),
            Some(false) => {
                // Root closed but not valid would have died; keep a clear error regardless.
                self.syntax(self.pos, "the text ends before the JSON value does");
                Err(self.dead_clone(text))
            }
            None => Ok(false),
        }
    }

    fn dead_clone(&self, text: &[u8]) -> Death {
        self.death(text).unwrap_or(Death { offset: self.pos, error: syntax_error(b"", 0, "dead") })
    }

    // ---------------------------------------------------------------------------------------
    // The lexer.

    /// One byte at `self.pos`. Returns `false` when the text is dead.
    #[allow(clippy::too_many_lines)]
    fn byte(&mut self, text: &[u8], b: u8) -> bool {
        let at = self.pos;
        match self.lex {
            Lex::Str => {
                match b {
                    b'"' => {
                        self.pos += 1;
                        return self.end_string(text, at);
                    }
                    b'\\' => {
                        // A character is certain now: `maxLength` and the names or members
                        // that end here can decide at the backslash.
                        self.lex = Lex::Esc;
                        if self.follow {
                            self.pos += 1;
                            return self.escape_narrow(at, 0, 0, None);
                        }
                    }
                    0..=0x1F => return self.syntax(at, "a control character in a string must be escaped"),
                    0x20..=0x7F => {
                        if self.follow {
                            // A run of plain characters at once, when no slot dies in it;
                            // else byte by byte, so that a death is found at its byte.
                            let mut end = at + 1;
                            while text.get(end).is_some_and(|&c| c != b'"' && c != b'\\' && (0x20..0x80).contains(&c)) {
                                end += 1;
                            }
                            if end > at + 1 {
                                if let Some(run) = text.get(at..end) {
                                    if self.str_run(run) {
                                        self.pos = end;
                                        return true;
                                    }
                                }
                            }
                            self.pos += 1;
                            return self.str_byte(b, at);
                        }
                        // Nothing looks at this string's bytes: skip its plain run at once.
                        let mut i = at + 1;
                        while let Some(&c) = text.get(i) {
                            if c == b'"' || c == b'\\' || !(0x20..0x80).contains(&c) {
                                break;
                            }
                            i += 1;
                        }
                        self.pos = i;
                        return true;
                    }
                    _ => {
                        let Some((need, lo, hi)) = utf8_lead(b) else {
                            return self.syntax(at, "invalid UTF-8");
                        };
                        self.lex = Lex::Utf8(need, lo, hi);
                        self.pos += 1;
                        return self.str_byte(b, at);
                    }
                }
                self.pos += 1;
                true
            }
            Lex::Utf8(need, lo, hi) => {
                if b < lo || b > hi {
                    return self.syntax(at, "invalid UTF-8");
                }
                self.lex = if need > 1 { Lex::Utf8(need - 1, 0x80, 0xBF) } else { Lex::Str };
                self.pos += 1;
                self.str_byte(b, at)
            }
            Lex::Esc => {
                self.key_escaped |= self.in_key;
                let d = match b {
                    b'"' | b'\\' | b'/' => b,
                    b'b' => 0x08,
                    b'f' => 0x0C,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'u' => {
                        self.lex = Lex::Hex(0, 0);
                        self.pos += 1;
                        return true;
                    }
                    _ => return self.syntax(at, "invalid escape"),
                };
                self.lex = Lex::Str;
                self.pos += 1;
                self.str_byte(d, at)
            }
            Lex::Hex(n, acc) => {
                let Some(d) = hex(b) else { return self.syntax(at, "invalid \\u escape") };
                let acc = acc << 4 | d;
                self.pos += 1;
                if n < 3 {
                    if n == 1 && (0xDC..=0xDF).contains(&acc) {
                        return self.syntax(at, "a lone low surrogate");
                    }
                    self.lex = Lex::Hex(n + 1, acc);
                    return !self.follow || self.escape_narrow(at, acc, n + 1, None);
                }
                match acc {
                    0xDC00..=0xDFFF => self.syntax(at, "a lone low surrogate"),
                    0xD800..=0xDBFF => {
                        // A high half: the characters beyond the BMP it begins.
                        self.lex = Lex::LowBs(acc);
                        !self.follow || self.escape_narrow(at, acc, 4, None)
                    }
                    _ => {
                        self.lex = Lex::Str;
                        self.str_char(u32::from(acc), at)
                    }
                }
            }
            Lex::LowBs(hi) => {
                if b != b'\\' {
                    return self.syntax(at, "a lone high surrogate");
                }
                self.lex = Lex::LowU(hi);
                self.pos += 1;
                true
            }
            Lex::LowU(hi) => {
                if b != b'u' {
                    return self.syntax(at, "a lone high surrogate");
                }
                self.lex = Lex::LowHex(hi, 0, 0);
                self.pos += 1;
                true
            }
            Lex::LowHex(hi, n, acc) => {
                let Some(d) = hex(b) else { return self.syntax(at, "invalid \\u escape") };
                let acc = acc << 4 | d;
                self.pos += 1;
                if n < 3 {
                    if (n == 0 && acc != 0xD) || (n == 1 && !(0xDC..=0xDF).contains(&acc)) {
                        return self.syntax(at, "a lone high surrogate");
                    }
                    self.lex = Lex::LowHex(hi, n + 1, acc);
                    return !self.follow || self.escape_narrow(at, acc, n + 1, Some(hi));
                }
                if !(0xDC00..=0xDFFF).contains(&acc) {
                    return self.syntax(at, "a lone high surrogate");
                }
                self.lex = Lex::Str;
                let c = 0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(acc) - 0xDC00);
                self.str_char(c, at)
            }
            Lex::Lit(w, i) => {
                let word = WORDS.get(usize::from(w)).copied().unwrap_or(b"null");
                if word.get(usize::from(i)) != Some(&b) {
                    return self.syntax(at, "invalid literal");
                }
                self.pos += 1;
                if usize::from(i) + 1 < word.len() {
                    self.lex = Lex::Lit(w, i + 1);
                    true
                } else {
                    self.close_scalar(text, at)
                }
            }
            Lex::Num(st) => {
                if b.is_ascii_digit() && self.num_watch.runs(st) && !self.num_members {
                    let mut i = at + 1;
                    while text.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                    self.pos = i;
                    return true;
                }
                let next = num_step(st, b);
                if let Some(n) = next {
                    self.num_exp |= n == NumSt::Exp;
                    let step = self.num_watch.step(n, text.get(self.num_start..=at).unwrap_or_default());
                    if step == ExpStep::Out {
                        return self.syntax(at, "a number out of range");
                    }
                    self.lex = Lex::Num(n);
                    self.pos += 1;
                    return (step == ExpStep::Same || self.watch_bounds(text, at))
                        && (!self.num_members || self.watch_members(text, at));
                }
                if matches!(st, NumSt::Minus | NumSt::Dot | NumSt::Exp | NumSt::ExpSign) {
                    return self.syntax(at, "invalid number");
                }
                if st == NumSt::Zero && b.is_ascii_digit() {
                    return self.syntax(at, "a number cannot have a leading zero");
                }
                // The number ended at the previous byte; this one is read after it.
                self.end_number(text) && self.byte(text, b)
            }
            Lex::Value | Lex::ArrFirst => {
                if is_ws(b) {
                    self.pos += 1;
                    return true;
                }
                if self.lex == Lex::ArrFirst {
                    if b == b']' {
                        self.pos += 1;
                        return self.close_container(text);
                    }
                    // The first item begins.
                    if !self.promise(at) {
                        return false;
                    }
                }
                self.begin_value(text, b, at)
            }
            Lex::ObjFirst | Lex::Key => {
                if is_ws(b) {
                    self.pos += 1;
                    return true;
                }
                if b == b'}' && self.lex == Lex::ObjFirst {
                    self.pos += 1;
                    return self.close_container(text);
                }
                if b != b'"' {
                    return self.syntax(at, "expected a property name in double quotes");
                }
                if self.lex == Lex::ObjFirst && !self.promise(at) {
                    return false;
                }
                self.pos += 1;
                self.begin_key(at)
            }
            Lex::Colon => {
                if is_ws(b) {
                    self.pos += 1;
                    return true;
                }
                if b != b':' {
                    return self.syntax(at, "expected `:`");
                }
                self.pos += 1;
                self.lex = Lex::Value;
                true
            }
            Lex::After => {
                if is_ws(b) {
                    self.pos += 1;
                    return true;
                }
                let object = self.in_object();
                match b {
                    b',' => {
                        self.pos += 1;
                        self.lex = if object { Lex::Key } else { Lex::Value };
                        self.promise(at)
                    }
                    b'}' if object => {
                        self.pos += 1;
                        self.close_container(text)
                    }
                    b']' if !object => {
                        self.pos += 1;
                        self.close_container(text)
                    }
                    _ => self.syntax(at, if object { "expected `,` or `}`" } else { "expected `,` or `]`" }),
                }
            }
            // (A nested value's end: the byte is its parent's.)
            Lex::Done if self.nested => true,
            Lex::Done => {
                if is_ws(b) {
                    self.pos += 1;
                    true
                } else {
                    self.syntax(at, "trailing characters after the JSON value")
                }
            }
        }
    }

    fn in_object(&self) -> bool {
        self.depth > 0 && self.objects >> (self.depth - 1) & 1 == 1
    }

    fn after_value(&mut self) {
        self.lex = if self.depth == 0 { Lex::Done } else { Lex::After };
    }

    /// The first byte of a value.
    fn begin_value(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        let kind = match b {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            b'-' | b'0'..=b'9' => Kind::Number,
            _ => return self.syntax(at, "expected a JSON value"),
        };
        self.pos += 1;
        match b {
            b'{' | b'[' => {
                if self.depth + self.base >= MAX_DEPTH {
                    return self.syntax(at, "nested more than 127 levels deep");
                }
                if b == b'{' {
                    self.objects |= 1 << self.depth;
                } else {
                    self.objects &= !(1 << self.depth);
                }
                self.depth += 1;
                self.lex = if b == b'{' { Lex::ObjFirst } else { Lex::ArrFirst };
            }
            b'"' => {
                self.lex = Lex::Str;
                self.in_key = false;
            }
            b't' => self.lex = Lex::Lit(0, 1),
            b'f' => self.lex = Lex::Lit(1, 1),
            b'n' => self.lex = Lex::Lit(2, 1),
            b'-' => self.lex = Lex::Num(NumSt::Minus),
            b'0' => self.lex = Lex::Num(NumSt::Zero),
            _ => self.lex = Lex::Num(NumSt::Int),
        }
        if kind == Kind::Number {
            self.num_start = at;
            self.num_exp = false;
            self.num_members = false;
        }
        let level = (self.depth as usize) - usize::from(matches!(kind, Kind::Object | Kind::Array));
        self.lazy = NONE;
        if let Some(parent) = level.checked_sub(1).filter(|&l| l < self.nf).and_then(|l| self.frames.get_mut(l)) {
            if parent.unique {
                parent.ks = at;
            }
        }
        if is_literal_start(b) && !self.item_check(text, level, at, at + 1) {
            // A literal item that repeats an earlier one: known at its first letter.
            return false;
        }
        let pushed = self.push_value(level, kind, b, at, true);
        if kind == Kind::String {
            self.string_plan(pushed);
        }
        if pushed && self.pushed_dead && !self.settle(at) {
            return false;
        }
        // A member's value begins.
        level.checked_sub(1).is_none_or(|p| self.member_moved(p, at))
    }

    /// A member or item is promised (the first one, or by a `,`).
    fn promise(&mut self, at: usize) -> bool {
        let level = self.depth as usize - 1;
        if level + 1 > self.nf || self.degraded {
            if self.in_object() && self.lex == Lex::Key {
                // A second member of an object nobody follows: its keys are compared at the end.
                self.exact = false;
            }
            return true;
        }
        let Some(f) = self.frames.get_mut(level) else { return true };
        f.count += 1;
        let count = f.count;
        let (lo, hi, object) = (usize::from(f.lo), usize::from(f.hi), f.kind == Kind::Object);
        let mut died = false;
        // A member more may make sure a subschema that asks for `minProperties`
        // ([`Machine::present`]), which may decide a `oneOf`, a `not` or an `if` here.
        let mut resettle = false;
        for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
            if s.st != St::Open {
                continue;
            }
            s.count = count;
            let node = self.prog.node(s.node);
            if object {
                resettle |= node.min_props > 0 && node.presence_only(self.prog);
                if u64::from(count) > node.max_props {
                    s.st = St::Dead;
                    s.why = Why::MaxProperties;
                    died = true;
                } else if node.crowded(count, s.seen, true) {
                    // No room left for the `required` names still missing.
                    s.st = St::Dead;
                    s.why = Why::Required((node.required & !s.seen).trailing_zeros() as u8);
                    died = true;
                } else if node.closed && node.patterns.is_empty() && node.keys & !s.seen == 0 {
                    // Every name a key may be is present: one more member can only be a repeat
                    // or not allowed.
                    s.st = St::Dead;
                    s.why = Why::NoMoreMembers;
                    died = true;
                }
            } else if u64::from(count) > node.max_items {
                s.st = St::Dead;
                s.why = Why::MaxItems;
                died = true;
            }
        }
        if died || resettle {
            return self.settle(at);
        }
        true
    }

    /// The opening quote of a key was read.
    fn begin_key(&mut self, at: usize) -> bool {
        self.lex = Lex::Str;
        self.in_key = true;
        self.follow = false;
        self.counting = false;
        self.fast = NONE;
        let level = self.depth as usize - 1;
        if level + 1 != self.nf || self.degraded {
            return true;
        }
        let Some(f) = self.frames.get_mut(level) else { return true };
        f.ks = at;
        f.ke = at;
        let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
        let mut follow = false;
        let mut named = false;
        self.key_escaped = false;
        for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
            let node = self.prog.node(s.node);
            named |= s.st == St::Open && (node.property_names != NONE || node.key_names != NONE);
            s.koff = 0;
            s.sel = NONE;
            s.pats = 0;
            // Followed byte by byte only where a key can die before it closes (beside patterns,
            // where they are stepped on it too: `key_names`).
            let early = node.closed && (node.patterns.is_empty() || node.key_names != NONE) && s.st == St::Open;
            s.cands = if early { all_bits(node.names.len()) } else { 0 };
            s.kfollow = early;
            follow |= early;
        }
        // The key as a value of its own, for `propertyNames`.
        let pushed = named && self.push_value(level + 1, Kind::String, b'"', at, false);
        if let Some(k) = self.frames.get_mut(level + 1).filter(|_| pushed) {
            k.key = true;
        }
        self.follow = follow || (pushed && self.top_follows());
        if follow && !pushed && !self.degraded {
            // One slot matching the key against its names: the fast path steps it.
            let mut one = None;
            for i in lo..hi {
                if self.slots.get(i).is_some_and(|s| s.kfollow) {
                    one = if one.is_none() { Some(i) } else { Some(usize::MAX) };
                }
            }
            if let Some(i) = one.filter(|&i| i != usize::MAX) {
                self.fast = i as u16;
                self.fast_key = true;
                self.fast_props = self.slots.get(i).map_or(0, |s| self.prog.node(s.node).keys);
            }
        }
        if pushed && self.pushed_dead {
            return self.settle(at);
        }
        true
    }

    /// Whether the slots of the top frame look at a string's characters.
    fn top_follows(&self) -> bool {
        let Some(f) = self.nf.checked_sub(1).and_then(|i| self.frames.get(i)) else { return false };
        self.slots
            .get(usize::from(f.lo)..usize::from(f.hi))
            .into_iter()
            .flatten()
            .any(|s| s.st == St::Open && self.prog.node(s.node).follows_chars())
    }

    /// Inside an escape: `digits` hex digits of a UTF-16 unit read so far, with value `prefix`
    /// (none yet at the backslash); `high` is the high surrogate already read for a low one. Keep
    /// the `enum` strings and closed-object names whose next character can still be this escape;
    /// a `pattern` dies when no character the escape can still be keeps it alive.
    fn escape_narrow(&mut self, at: usize, prefix: u16, digits: u8, high: Option<u16>) -> bool {
        let prog: &'static Program = self.prog;
        let fits = |name: &str, koff: u32| -> bool {
            let Some(c) = name.get(koff as usize..).and_then(|r| r.chars().next()) else { return false };
            let mut units = [0u16; 2];
            let units = c.encode_utf16(&mut units);
            let unit = match (high, &*units) {
                (None, [u, ..]) => *u,
                (Some(h), [u, l]) if *u == h => *l,
                _ => return false,
            };
            digits == 0 || unit >> (4 * (4 - u32::from(digits))) == prefix
        };
        let mut died = false;
        if self.in_key {
            let level = self.depth as usize - 1;
            if let Some(f) = self.frames.get(level).filter(|_| level < self.nf) {
                let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
                for i in lo..hi {
                    let Some(node) = self.slots.get(i).filter(|s| s.kfollow).map(|s| prog.node(s.node)) else {
                        continue;
                    };
                    let unmatched = self.key_unmatched(level, node.key_names);
                    let Some(s) = self.slots.get_mut(i) else { continue };
                    s.cands = filter_bits(s.cands, |i| node.names.get(i).is_some_and(|n| fits(n, s.koff)));
                    if let Some(why) = names_gone(node, s).filter(|_| unmatched && s.st == St::Open) {
                        s.st = St::Dead;
                        s.why = why;
                        died = true;
                    }
                }
            }
        }
        if let Some(f) = self.nf.checked_sub(1).and_then(|i| self.frames.get(i)) {
            if f.kind == Kind::String && f.key == self.in_key {
                let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
                for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
                    if s.st != St::Open {
                        continue;
                    }
                    let node = prog.node(s.node);
                    if digits == 0 && high.is_none() && s.chars >= node.max_length {
                        s.st = St::Dead;
                        s.why = Why::MaxLength;
                        died = true;
                        continue;
                    }
                    if let (Some((p, _)), false) = (node.pattern, s.pdone) {
                        if !p.alive_escape(s.dfa, prefix, digits, high) {
                            s.st = St::Dead;
                            s.why = Why::Pattern;
                            died = true;
                            continue;
                        }
                    }
                    if let Some(strings) = node.strings {
                        s.cands = filter_bits(s.cands, |i| strings.get(i).is_some_and(|n| fits(n, s.koff)));
                        if s.cands == 0 {
                            s.st = St::Dead;
                            s.why = Why::Enum;
                            died = true;
                        }
                    }
                }
            }
        }
        if died {
            return self.settle(at);
        }
        true
    }

    /// A code point decoded from an escape.
    fn str_char(&mut self, c: u32, at: usize) -> bool {
        let mut buf = [0u8; 4];
        let bytes: &[u8] = match char::from_u32(c) {
            Some(ch) => ch.encode_utf8(&mut buf).as_bytes(),
            None => return self.syntax(at, "invalid \\u escape"),
        };
        let n = bytes.len();
        for i in 0..n {
            let Some(&x) = buf.get(i) else { break };
            if !self.str_byte(x, at) {
                return false;
            }
        }
        true
    }

    /// One decoded byte of the current string (a value or a key).
    fn str_byte(&mut self, b: u8, at: usize) -> bool {
        if !self.follow || self.degraded {
            return true;
        }
        let mut died = false;
        // The object's slots match the key against their names.
        if self.in_key {
            let level = self.depth as usize - 1;
            if let Some(f) = self.frames.get(level).filter(|_| level < self.nf) {
                let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
                let prog: &'static Program = self.prog;
                for i in lo..hi {
                    let Some(node) = self.slots.get(i).filter(|s| s.kfollow).map(|s| prog.node(s.node)) else {
                        continue;
                    };
                    // (Beside patterns, the key frame steps them after this: where one dies at
                    // this byte, `child_deaths` finds the names gone.)
                    let unmatched = self.key_unmatched(level, node.key_names);
                    let Some(s) = self.slots.get_mut(i) else { continue };
                    s.cands = narrow_byte(node.name_bytes, s.cands, s.koff as usize, b);
                    s.koff += 1;
                    if let Some(why) = names_gone(node, s).filter(|_| unmatched && s.st == St::Open) {
                        s.st = St::Dead;
                        s.why = why;
                        died = true;
                    }
                }
            }
        }
        // The string's own slots (the value, or the key under `propertyNames`).
        let top = self.nf.checked_sub(1).and_then(|i| self.frames.get(i)).copied();
        if let Some(f) = top.filter(|f| f.kind == Kind::String && (f.key == self.in_key)) {
            let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
            for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
                if s.st != St::Open {
                    continue;
                }
                let node = self.prog.node(s.node);
                if b & 0xC0 != 0x80 {
                    s.chars += 1;
                    if s.chars > node.max_length {
                        s.st = St::Dead;
                        s.why = Why::MaxLength;
                        died = true;
                        continue;
                    }
                }
                if node.strings.is_some() {
                    s.cands = narrow_byte(node.string_bytes, s.cands, s.koff as usize, b);
                    s.koff += 1;
                    if s.cands == 0 {
                        s.st = St::Dead;
                        s.why = Why::Enum;
                        died = true;
                        continue;
                    }
                }
                if let (Some((p, _)), false) = (node.pattern, s.pdone) {
                    let (next, how) = p.step(s.dfa, b);
                    s.dfa = next;
                    match how {
                        Stepped::Live => {}
                        Stepped::Matched => {
                            s.pdone = true;
                            s.pmatch = true;
                        }
                        Stepped::Unknown => s.pdone = true,
                        Stepped::Dead => {
                            s.st = St::Dead;
                            s.why = Why::Pattern;
                            died = true;
                        }
                    }
                }
            }
        }
        if died {
            return self.settle(at);
        }
        true
    }

    /// A run of plain ASCII characters of the current string: taken in when no slot dies in it
    /// (`true`); else nothing changes (`false`) and the caller goes byte by byte.
    fn str_run(&mut self, run: &[u8]) -> bool {
        // What each slot becomes, computed once (the first `RUN_CACHE` slots of each part).
        const RUN_CACHE: usize = 8;
        let prog: &'static Program = self.prog;
        let n = run.len() as u32;
        let key_frame = if self.in_key {
            let level = self.depth as usize - 1;
            self.frames.get(level).filter(|_| level < self.nf).map(|f| (usize::from(f.lo), usize::from(f.hi)))
        } else {
            None
        };
        let mut keys = [0u128; RUN_CACHE];
        if let Some((lo, hi)) = key_frame {
            let mut k = 0;
            for s in self.slots.get(lo..hi).into_iter().flatten() {
                if !s.kfollow {
                    continue;
                }
                let node = prog.node(s.node);
                let cands = narrow_run(node.name_bytes, s.cands, s.koff, run);
                let props = cands & all_bits(node.props.len());
                if s.st == St::Open && props & !s.seen == 0 {
                    return false;
                }
                if let Some(x) = keys.get_mut(k) {
                    *x = cands;
                }
                k += 1;
            }
        }
        let own = self
            .nf
            .checked_sub(1)
            .and_then(|i| self.frames.get(i))
            .filter(|f| f.kind == Kind::String && f.key == self.in_key)
            .map(|f| (usize::from(f.lo), usize::from(f.hi)));
        let mut vals = [(0u128, (0u32, false, false)); RUN_CACHE];
        if let Some((lo, hi)) = own {
            let mut k = 0;
            for s in self.slots.get(lo..hi).into_iter().flatten() {
                if s.st != St::Open {
                    continue;
                }
                let Some(v) = self.run_slot(s, run) else { return false };
                if let Some(x) = vals.get_mut(k) {
                    *x = v;
                }
                k += 1;
            }
        }
        // No slot dies: apply.
        if let Some((lo, hi)) = key_frame {
            let mut k = 0;
            for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
                if !s.kfollow {
                    continue;
                }
                s.cands = match keys.get(k) {
                    Some(&c) => c,
                    None => narrow_run(prog.node(s.node).name_bytes, s.cands, s.koff, run),
                };
                s.koff += n;
                k += 1;
            }
        }
        if let Some((lo, hi)) = own {
            let mut k = 0;
            for i in lo..hi {
                let Some(s) = self.slots.get(i).copied() else { continue };
                if s.st != St::Open {
                    continue;
                }
                let (cands, dfa) = match vals.get(k) {
                    Some(&v) => v,
                    None => self.run_slot(&s, run).unwrap_or((s.cands, (s.dfa, s.pdone, s.pmatch))),
                };
                k += 1;
                if let Some(s) = self.slots.get_mut(i) {
                    s.chars += u64::from(n);
                    if prog.node(s.node).strings.is_some() {
                        s.cands = cands;
                        s.koff += n;
                    }
                    (s.dfa, s.pdone, s.pmatch) = dfa;
                }
            }
        }
        true
    }

    /// What an open string slot becomes after a plain run: its `enum` candidates and pattern
    /// state, or `None` when it dies in the run.
    fn run_slot(&self, s: &Slot, run: &[u8]) -> Option<(u128, (u32, bool, bool))> {
        let node = self.prog.node(s.node);
        if s.chars + run.len() as u64 > node.max_length {
            return None;
        }
        let cands = match node.strings {
            Some(_) => narrow_run(node.string_bytes, s.cands, s.koff, run),
            None => s.cands,
        };
        if node.strings.is_some() && cands == 0 {
            return None;
        }
        let mut dfa = (s.dfa, s.pdone, s.pmatch);
        if let (Some((p, _)), false) = (node.pattern, s.pdone) {
            for &b in run {
                let (next, how) = p.step(dfa.0, b);
                dfa.0 = next;
                match how {
                    Stepped::Live => continue,
                    Stepped::Matched => dfa = (next, true, true),
                    Stepped::Unknown => dfa = (next, true, false),
                    Stepped::Dead => return None,
                }
                break;
            }
        }
        Some((cands, dfa))
    }

    /// The closing quote of a string (at `at`).
    fn end_string(&mut self, text: &[u8], at: usize) -> bool {
        if !self.in_key {
            return self.close_scalar(text, at);
        }
        self.in_key = false;
        self.lex = Lex::Colon;
        let level = self.depth as usize - 1;
        if level >= self.nf || self.degraded {
            return true;
        }
        let key_frame = self.nf == level + 2;
        if let Some(f) = self.frames.get_mut(level) {
            f.ke = at + 1;
        }
        let Some(f) = self.frames.get(level).copied() else { return true };
        let patterns = self
            .slots
            .get(usize::from(f.lo)..usize::from(f.hi))
            .into_iter()
            .flatten()
            .any(|s| s.st == St::Open && !self.prog.node(s.node).patterns.is_empty());
        let key_text = text.get(f.ks..f.ke).unwrap_or(b"\"\"");
        let key = if patterns {
            std::str::from_utf8(key_text).ok().and_then(|t| Scanner::new(t).string().ok())
        } else {
            None
        };
        let mut declared = false;
        let mut died = false;
        let mut duplicate = false;
        let raw = key_text.get(1..key_text.len().saturating_sub(1)).unwrap_or_default();
        let decoded = if self.key_escaped {
            std::str::from_utf8(key_text).ok().and_then(|t| Scanner::new(t).string().ok())
        } else {
            None
        };
        let prog: &'static Program = self.prog;
        // A subschema that asks only for members: the key may have made it sure
        // ([`Machine::present`]), which may decide a `oneOf`, a `not` or an `if`.
        let mut resettle = false;
        for i in usize::from(f.lo)..usize::from(f.hi) {
            let Some(s) = self.slots.get(i) else { continue };
            let (st, seen) = (s.st, s.seen);
            let node = prog.node(s.node);
            resettle |= st == St::Open
                && (node.presence_only(prog) || (node.decides && self.feeds(level, s.node) && node.members_only()));
            let sel = if s.kfollow {
                exact_name(s.cands, node.names, s.koff)
            } else {
                match decoded {
                    Some(k) => node.names.iter().position(|n| k.eq_str(n)).map_or(NONE, |x| x as u16),
                    None => {
                        let all = narrow_run(node.name_bytes, all_bits(node.names.len()), 0, raw);
                        exact_name(all, node.names, raw.len() as u32)
                    }
                }
            };
            let mut bit = 0;
            if sel != NONE {
                declared = true;
                bit = 1u128 << sel;
                duplicate |= seen & bit != 0;
            }
            let mut pats = 0u64;
            let mut why = None;
            if st == St::Open {
                if let Some(k) = key {
                    for (j, (p, _)) in node.patterns.iter().enumerate() {
                        if k.with_decoded(|d| p.is_match(d)) {
                            pats |= 1 << j;
                        }
                    }
                }
                let allowed = node.keys.checked_shr(u32::from(sel)).is_some_and(|k| k & 1 == 1);
                // A name whose property, or a pattern it matches, no value satisfies.
                let forbidden = node.forbidden.checked_shr(u32::from(sel)).is_some_and(|k| k & 1 == 1)
                    || node.patterns.iter().enumerate().any(|(j, &(_, n))| pats >> j & 1 == 1 && prog.node(n).none);
                if node.closed && !allowed && pats == 0 {
                    why = Some(Why::AdditionalProperty);
                } else if forbidden {
                    why = Some(Why::Forbidden);
                } else if node.crowded(f.count, seen | bit, false) {
                    // This member leaves no room for the `required` names still missing.
                    why = Some(Why::Required((node.required & !(seen | bit)).trailing_zeros() as u8));
                } else if node.property_names != NONE
                    && key_frame
                    && !self.verdict(level + 1, node.property_names, text)
                {
                    why = Some(Why::PropertyName);
                }
            }
            if let Some(slot) = self.slots.get_mut(i) {
                slot.sel = sel;
                slot.seen |= bit;
                if st == St::Open {
                    slot.pats = pats;
                }
                if let Some(w) = why {
                    slot.st = St::Dead;
                    slot.why = w;
                    died = true;
                }
            }
        }
        if duplicate {
            return self.syntax(at, "a duplicate key");
        }
        if !declared {
            // Compared with the object's earlier keys (read again from the text when their
            // filter says it may repeat one); past the filter's use, at the end.
            let repeated = match self.frames.get_mut(level) {
                Some(f) => {
                    f.undeclared += 1;
                    if f.undeclared > KeyFilter::USEFUL {
                        None
                    } else {
                        f.keys.repeated(text, f.start, f.ks, at)
                    }
                }
                None => Some(false),
            };
            match repeated {
                Some(true) => return self.syntax(at, "a duplicate key"),
                Some(false) => {}
                None => self.exact = false,
            }
        }
        if (died || resettle) && !self.settle(at) {
            return false;
        }
        if key_frame {
            self.pop(level + 1);
        }
        true
    }

    /// The number before `self.pos` ended.
    fn end_number(&mut self, text: &[u8]) -> bool {
        // Beyond the `f64` range is a syntax error, as `serde_json` has it; without an exponent,
        // fewer than 300 characters cannot get there.
        let start = self.num_start;
        let ok = (!self.num_exp && self.pos - start < 300)
            || text
                .get(start..self.pos)
                .and_then(|t| std::str::from_utf8(t).ok())
                .is_some_and(|t| Scanner::new(t).number().is_ok());
        if !ok {
            return self.syntax(self.pos, "a number out of range");
        }
        // Decided at the byte after the number (or at the end of the text).
        self.close_scalar(text, self.pos)
    }

    /// A string, number or literal value closed (its last byte is before `self.pos`).
    fn close_scalar(&mut self, text: &[u8], at: usize) -> bool {
        self.after_value();
        let level = self.depth as usize;
        if self.lazy != NONE {
            let node = self.prog.node(std::mem::replace(&mut self.lazy, NONE));
            let literal = text.get(self.num_start..self.pos).and_then(number_literal);
            let judged =
                matches!((node.bounds, literal), (Some(b), Some(x)) if in_bounds(x, &b, node.types & ty::NUMBER == 0));
            // Else the frame the number would have had, and its verdict as usual.
            let first = text.get(self.num_start).copied().unwrap_or(b'0');
            if !judged
                && self.push_value(level, Kind::Number, first, self.num_start, false)
                && self.pushed_dead
                && !self.settle(at)
            {
                return false;
            }
        }
        if self.nf == level + 1 && !self.close_frame(text, level, at) {
            return false;
        }
        self.item_closed(text, level, at)
    }

    /// A `]` or `}` closed the innermost container.
    fn close_container(&mut self, text: &[u8]) -> bool {
        self.depth -= 1;
        self.after_value();
        let level = self.depth as usize;
        let at = self.pos.saturating_sub(1);
        if self.nf == level + 1 && !self.close_frame(text, level, at) {
            return false;
        }
        self.item_closed(text, level, at)
    }

    /// The value at `level` closed, its last byte before `self.pos` (`at`: the byte that closed
    /// it). A member's value may make its object sure of a subschema ([`Machine::member_moved`]).
    /// An item of an array with `uniqueItems`: equal to an earlier item (a literal was compared
    /// at its first letter), it kills the array's slots that have the keyword, here.
    fn item_closed(&mut self, text: &[u8], level: usize, at: usize) -> bool {
        if !level.checked_sub(1).is_none_or(|p| self.member_moved(p, at)) {
            return false;
        }
        let literal = |f: &Frame| is_literal_start(text.get(f.ks).copied().unwrap_or(0));
        // (A literal was compared at its first letter.)
        if level.checked_sub(1).and_then(|p| self.frames.get(p)).is_some_and(|f| f.unique && literal(f)) {
            return true;
        }
        self.item_check(text, level, at, self.pos)
    }

    /// [`Machine::item_closed`] of the item from the parent's `ks` to `end` (a literal: `end`
    /// after its first letter).
    fn item_check(&mut self, text: &[u8], level: usize, at: usize, end: usize) -> bool {
        let Some(p) = level.checked_sub(1).filter(|&l| l < self.nf) else { return true };
        let Some(f) = self.frames.get_mut(p).filter(|f| f.unique) else { return true };
        f.ke = end;
        if self.degraded || !f.items.repeated(text, f.start, f.ks, end) {
            return true;
        }
        let (lo, hi) = (usize::from(f.lo), usize::from(f.hi));
        let prog: &'static Program = self.prog;
        for s in self.slots.get_mut(lo..hi).into_iter().flatten() {
            if s.st == St::Open && prog.node(s.node).unique {
                s.st = St::Dead;
                s.why = Why::Unique;
            }
        }
        self.settle(at)
    }

    // ---------------------------------------------------------------------------------------
    // The schema layer.

    /// A value at `level` begins: give it a frame when some subschema applies to it.
    fn push_value(&mut self, level: usize, kind: Kind, first: u8, at: usize, lazy: bool) -> bool {
        // The levels tracked are counted from the root, for a value handed over mid-text too
        // (`base`): it finds what the automaton reading from the root finds, no more.
        let from_root = level + self.base as usize;
        if self.degraded || level != self.nf || from_root >= D {
            return false;
        }
        let lo = self.ns;
        let (count, root) = (self.ns, level == 0);
        // Whether a `contains` of the parent asks about this item (its count is kept when the
        // item closes, even where no slot is needed to judge it).
        let mut contains = false;
        if root {
            self.add(self.root, lo);
        } else if let Some(parent) = level.checked_sub(1).and_then(|l| self.frames.get(l)).copied() {
            if !parent.children {
                return false;
            }
            let key = kind == Kind::String && self.in_key;
            for i in usize::from(parent.lo)..usize::from(parent.hi) {
                let Some(p) = self.slots.get(i).copied() else { continue };
                if p.st != St::Open {
                    continue;
                }
                let node = self.prog.node(p.node);
                if key {
                    self.add(node.property_names, lo);
                    self.add(node.key_names, lo);
                } else {
                    for_requests(node, &p, parent.kind, parent.count, |n, c| {
                        contains |= c;
                        self.add(n, lo);
                    });
                }
            }
            if !key && !contains && !self.degraded && !matches!(kind, Kind::Object | Kind::Array) {
                let bits = kind.bits();
                let prog = self.prog;
                let typed = self.slots.get(lo..self.ns).into_iter().flatten().all(|s| {
                    let c = prog.node(s.node);
                    c.types & bits != 0 && c.type_only(bits)
                });
                if typed {
                    // Every subschema this scalar gets is decided by its type at this byte, and
                    // all accept it: no frame (its verdict, valid, changes nothing above).
                    self.ns = lo;
                    return false;
                }
                if lazy && kind == Kind::Number && self.ns == lo + 1 {
                    let n = self.slots.get(lo).map_or(NONE, |s| s.node);
                    let c = self.prog.node(n);
                    if c.bounds.is_some()
                        && c.types & bits != 0
                        && c.in_place_free()
                        && !(first == b'-' && c.negative.is_some())
                        && !c.integral()
                    {
                        // Only bounds to judge, nothing dies at this byte: decided at the end.
                        self.ns = lo;
                        self.lazy = n;
                        return false;
                    }
                }
            }
        }

        if self.degraded {
            self.ns = count;
            return false;
        }
        if self.ns == lo && !contains && (level == 0 || !matches!(kind, Kind::Object | Kind::Array)) {
            return false;
        }
        // (An array or object below the root that no subschema speaks of gets a frame without
        // slots all the same: its keys are compared as they close, its items' objects too. So
        // does an item that only a `contains` accepting everything asks about: it counts.)
        let children = from_root + 1 < D;
        let prog: &'static Program = self.prog;
        let unique =
            kind == Kind::Array && self.slots.get(lo..self.ns).into_iter().flatten().any(|s| prog.node(s.node).unique);
        let Some(f) = self.frames.get_mut(level) else { return false };
        *f = Frame {
            lo: lo as u16,
            hi: self.ns as u16,
            start: at,
            kind,
            key: false,
            children,
            count: 0,
            ks: 0,
            ke: 0,
            undeclared: 0,
            keys: KeyFilter::EMPTY,
            unique,
            items: ItemFilter::EMPTY,
        };
        self.nf = level + 1;
        // First-byte checks.
        let mut died = false;
        let mut members = false;
        for s in self.slots.get_mut(lo..self.ns).into_iter().flatten() {
            let node = self.prog.node(s.node);
            members |= kind == Kind::Number && (!node.numbers.is_empty() || node.integral());
            let why = if node.never {
                Why::Never
            } else if node.types & kind.bits() == 0 {
                Why::Type
            } else if kind == Kind::Object && node.crowded(0, 0, false) {
                // More names required than members allowed: no object can be valid.
                Why::Required(node.required.trailing_zeros() as u8)
            } else if node.enum_types != 0 && node.enum_types & kind.bits() == 0 {
                Why::Enum
            } else if node.enum_types != 0
                && matches!(kind, Kind::Bool | Kind::Null)
                && node.literals
                    & (match first {
                        b't' => 2,
                        b'f' => 4,
                        _ => 1,
                    })
                    == 0
            {
                // `true` where only `false` is a member: known at the `t`.
                Why::Enum
            } else if kind == Kind::Array
                && node.contains != NONE
                && (node.min_contains > node.max_contains
                    || (node.min_contains > 0 && self.prog.node(node.contains).none))
            {
                // No count of items can satisfy the `contains`: no item satisfies it, or
                // `minContains` is above `maxContains`.
                Why::MinContains
            } else if first == b'-' && node.negative.is_some() {
                Why::Negative
            } else if kind == Kind::Number && !node.numbers.is_empty() && !members::reachable(node.numbers, &[first]) {
                // No member begins so: `-` where none is negative, `5` among 1, 2 and 4.
                Why::Enum
            } else if kind == Kind::Number && node.integral() && bounds::integral(node.limits, &[first]).is_some() {
                // No integer it may become is within: `7` under a maximum of 5.
                Why::Bound
            } else if node.not != NONE && sure_at_first_byte(self.prog, node.not, kind) {
                // `not` of a subschema that every value of this kind satisfies.
                Why::Not
            } else if node.one_of.iter().filter(|&&b| sure_at_first_byte(self.prog, b, kind)).nth(1).is_some() {
                // Two branches of a `oneOf` that every value of this kind satisfies.
                Why::OneOf
            } else if node.none || node.void & kind.bits() != 0 {
                // No value satisfies it, or none of this kind, as the macro finds (a reason above,
                // where one holds, says more).
                Why::Never
            } else {
                Why::None
            };
            if why != Why::None {
                s.st = St::Dead;
                s.why = why;
                died = true;
            }
            if kind == Kind::String {
                s.cands = node.strings.map_or(0, |x| all_bits(x.len()));
                s.koff = 0;
                s.chars = 0;
                s.pmatch = false;
                match node.pattern.and_then(|(p, _)| p.start()) {
                    Some(st) => {
                        s.dfa = st;
                        s.pdone = false;
                    }
                    None => s.pdone = true,
                }
            }
        }
        self.num_members = members;
        // An item a `contains` accepts whatever follows its first byte counts now: a
        // `maxContains` dies the moment it is exceeded, not when the item closes.
        if let Some(parent) = level.checked_sub(1).and_then(|l| self.frames.get(l)).copied().filter(|_| contains) {
            if parent.kind == Kind::Array {
                let prog: &'static Program = self.prog;
                for s in self.slots.get_mut(usize::from(parent.lo)..usize::from(parent.hi)).into_iter().flatten() {
                    let node = prog.node(s.node);
                    s.counted = false;
                    if s.st == St::Open && node.contains != NONE && sure_at_first_byte(prog, node.contains, kind) {
                        s.sure += 1;
                        if u64::from(s.sure) > node.max_contains {
                            s.st = St::Dead;
                            s.why = Why::MaxContains;
                            died = true;
                        }
                    }
                }
            }
        }
        // In-place combinations can die at the first byte only through these deaths.
        self.pushed_dead = died;
        true
    }

    /// A byte of a number (at `at`) that a slot watches against its `enum`/`const` numbers, or,
    /// where it must be an integer within bounds, against the least integer it may still read as
    /// ([`bounds::integral`]): the slots that can no longer be satisfied die here. Past
    /// [`members::WATCHED`] bytes the number is left to its end.
    fn watch_members(&mut self, text: &[u8], at: usize) -> bool {
        let level = self.depth as usize;
        let number = text.get(self.num_start..=at).unwrap_or_default();
        if number.len() > members::WATCHED || self.nf != level + 1 {
            self.num_members = false;
            return true;
        }
        let Some(f) = self.frames.get(level).copied() else { return true };
        let prog: &'static Program = self.prog;
        let mut died = false;
        for s in self.slots.get_mut(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            let node = prog.node(s.node);
            if s.st != St::Open {
                continue;
            }
            if !node.numbers.is_empty() && !members::reachable(node.numbers, number) {
                s.st = St::Dead;
                s.why = Why::Enum;
                died = true;
            } else if node.integral() && bounds::integral(node.limits, number).is_some() {
                s.st = St::Dead;
                s.why = Why::Bound;
                died = true;
            }
        }
        !died || self.settle(at)
    }

    /// A byte of a number's exponent (at `at`) that moved the least magnitude the number may
    /// still take, or the most ([`ExpStep`]): the slots whose bound or `multipleOf` it breaks
    /// whatever follows die here
    /// ([`Node::outgrown`]). A number that got no frame (its subschema judging only its
    /// bounds) gets it here, to die in.
    #[cold]
    fn watch_bounds(&mut self, text: &[u8], at: usize) -> bool {
        let level = self.depth as usize;
        let number = text.get(self.num_start..=at).unwrap_or_default();
        let prog: &'static Program = self.prog;
        if self.lazy != NONE {
            if !prog.node(self.lazy).outgrown(number) {
                return true;
            }
            self.lazy = NONE;
            let first = number.first().copied().unwrap_or(b'0');
            if self.push_value(level, Kind::Number, first, self.num_start, false)
                && self.pushed_dead
                && !self.settle(at)
            {
                return false;
            }
        }
        let Some(f) = self.frames.get(level).copied().filter(|_| self.nf == level + 1) else { return true };
        let mut died = false;
        for s in self.slots.get_mut(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten() {
            if s.st == St::Open && prog.node(s.node).outgrown(number) {
                s.st = St::Dead;
                s.why = Why::Bound;
                died = true;
            }
        }
        // An item a `contains` is sure of from here counts now: a `maxContains` dies the moment
        // it is exceeded (`2e1` under `{"contains": {"type": "integer"}}`).
        if let Some(parent) = level.checked_sub(1).and_then(|l| self.frames.get(l)).copied() {
            if parent.kind == Kind::Array {
                for s in self.slots.get_mut(usize::from(parent.lo)..usize::from(parent.hi)).into_iter().flatten() {
                    let node = prog.node(s.node);
                    if s.st == St::Open
                        && node.contains != NONE
                        && !s.counted
                        && !sure_at_first_byte(prog, node.contains, Kind::Number)
                        && sure_of_number(prog, node.contains, number)
                    {
                        s.counted = true;
                        s.sure += 1;
                        if u64::from(s.sure) > node.max_contains {
                            s.st = St::Dead;
                            s.why = Why::MaxContains;
                            died = true;
                        }
                    }
                }
            }
        }
        // What the number now satisfies for good decides in place what it did not at its
        // first byte: a `not` of it dies, a `oneOf` with two such branches, an `if` whose
        // `then` is dead ([`Machine::composite_death`]).
        let decides = |s: &Slot| {
            let node = prog.node(s.node);
            s.st == St::Open && (node.not != NONE || node.if_ != NONE || node.one_of.len() > 1)
        };
        if !died && !self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten().any(decides) {
            return true;
        }
        self.settle_with(at, Some(number))
    }

    /// Give node `n` and what it applies in place a slot in the frame being built, once each.
    /// (`lo`: the frame's first slot.)
    fn add(&mut self, n: u16, lo: usize) {
        if n == NONE {
            return;
        }
        let prog: &'static Program = self.prog;
        for &m in prog.node(n).closure {
            self.add_one(m, lo);
        }
    }

    fn add_one(&mut self, n: u16, lo: usize) {
        if self.slots.get(lo..self.ns).into_iter().flatten().any(|s| s.node == n) {
            return;
        }
        match self.slots.get_mut(self.ns) {
            Some(s) => {
                *s = Slot { node: n, ..Slot::EMPTY };
                self.ns += 1;
            }
            None => {
                // More slots than the macro planned for: follow the syntax only, and let the
                // end decide. Sound, only later.
                self.degraded = true;
                self.exact = false;
            }
        }
    }

    fn pop(&mut self, level: usize) {
        if let Some(f) = self.frames.get(level) {
            self.ns = usize::from(f.lo);
        }
        self.nf = level;
    }

    /// Decide the deaths that follow from the latest ones, from the top frame to the root.
    /// Returns `false` when the root is dead (the death is recorded).
    fn settle(&mut self, at: usize) -> bool {
        self.settle_with(at, None)
    }

    /// [`Machine::settle`], where the top frame's value is a number whose text so far is
    /// `number` (in an exponent: what it satisfies for good may decide its in-place
    /// applicators, [`sure_of_number`]).
    fn settle_with(&mut self, at: usize, number: Option<&[u8]>) -> bool {
        if self.degraded {
            return true;
        }
        let mut level = self.nf;
        while level > 0 {
            level -= 1;
            // A child's death first, then what it kills in place (a `$ref` to the slot, say).
            if level + 1 < self.nf {
                self.child_deaths(level);
            }
            self.in_place_deaths(level, number.filter(|_| level + 1 == self.nf));
        }
        if self.root_dead() {
            self.die_schema(at);
            return false;
        }
        true
    }

    fn root_dead(&self) -> bool {
        self.nf > 0 && self.slots.first().is_some_and(|s| s.st == St::Dead)
    }

    fn status(&self, level: usize, n: u16) -> St {
        if n == NONE || self.prog.node(n).always {
            return St::Valid;
        }
        let Some(f) = self.frames.get(level) else { return St::Open };
        self.slots
            .get(usize::from(f.lo)..usize::from(f.hi))
            .into_iter()
            .flatten()
            .find(|s| s.node == n)
            .map_or(St::Open, |s| s.st)
    }

    /// Whether subschema `n` is satisfied by the value of frame `level`, whatever follows: it
    /// closed valid, or it takes every value of its kind ([`sure_at_first_byte`]).
    fn sure(&self, level: usize, n: u16) -> bool {
        self.sure_of(level, n, None)
    }

    /// [`Machine::sure`], where the value of frame `level` is a number whose text so far is
    /// `number` ([`sure_of_number`]).
    fn sure_of(&self, level: usize, n: u16, number: Option<&[u8]>) -> bool {
        self.status(level, n) == St::Valid
            || match number {
                Some(t) => sure_of_number(self.prog, n, t),
                None => {
                    self.frames.get(level).is_some_and(|f| sure_at_first_byte(self.prog, n, f.kind))
                        || self.present(level, n)
                }
            }
    }

    /// Whether subschema `n` asks of the object of frame `level` only members that it has
    /// already ([`Node::members_only`]: `required`, `minProperties`, `properties`): no member to
    /// come can break it. A member whose property says something of its value counts once its
    /// value closed (valid: else the slot died), or from its first byte where the property takes
    /// every value of its kind ([`sure_at_first_byte`]). Looked at where a key closes, where a
    /// `,` promises a member, and where a member's value begins and closes beside a subschema
    /// that it may decide ([`Machine::member_moved`]; one that asks for nothing is sure at the
    /// brace: `sure_within`). A `$ref` alone is sure where its target is (8 of them in a row at
    /// most).
    #[inline]
    fn present(&self, level: usize, n: u16) -> bool {
        let Some(f) = self.frames.get(level).filter(|f| f.kind == Kind::Object) else { return false };
        let prog: &'static Program = self.prog;
        let mut n = n;
        for _ in 0..8 {
            match prog.node(n) {
                c if c.shape == shape::REF => n = c.all_of.first().copied().unwrap_or(NONE),
                _ => break,
            }
        }
        let node = prog.node(n);
        if !node.members_only() {
            return false;
        }
        let slots = self.slots.get(usize::from(f.lo)..usize::from(f.hi)).unwrap_or_default();
        let Some(s) = slots.iter().find(|s| s.node == n) else { return false };
        if s.st != St::Open || node.required & !s.seen != 0 || u64::from(s.count) < node.min_props {
            return false;
        }
        // The names whose member must have come, its value judged: a property that does not
        // take every value, a name forbidden.
        let mut due = node.forbidden;
        for (i, &p) in node.props.iter().enumerate() {
            if p != NONE && !prog.node(p).always {
                due |= 1u128.checked_shl(i as u32).unwrap_or(0);
            }
        }
        if due == 0 {
            return true;
        }
        // (Values below the tracked levels are judged where the object closes.)
        if !f.children {
            return false;
        }
        let mut done = s.seen;
        if let Some(kind) = self.member_open(level) {
            // A value still open counts where its property is sure of it already: of its kind,
            // or, an object, by its own members so far.
            let p = node.props.get(usize::from(s.sel)).copied().unwrap_or(NONE);
            let sure = p == NONE
                || kind.is_some_and(|k| {
                    sure_at_first_byte(prog, p, k) || (k == Kind::Object && self.present(level + 1, p))
                });
            if !sure {
                done &= !1u128.checked_shl(u32::from(s.sel)).unwrap_or(0);
            }
        }
        due & !done == 0
    }

    /// Whether the current member of the object of frame `level` has a value still open
    /// (`Some`), with its kind once its first byte came; `None` once it closed, and where no
    /// member's value is due (before the first key, after a `,`, in a key).
    fn member_open(&self, level: usize) -> Option<Option<Kind>> {
        if self.depth as usize > level + 1 {
            return Some(self.frames.get(level + 1).filter(|_| level + 1 < self.nf).map(|f| f.kind));
        }
        match self.lex {
            Lex::Colon | Lex::Value => Some(None),
            Lex::Num(_) => Some(Some(Kind::Number)),
            Lex::Lit(w, _) => Some(Some(if w == 2 { Kind::Null } else { Kind::Bool })),
            Lex::Str | Lex::Esc | Lex::Hex(..) | Lex::LowBs(_) | Lex::LowU(_) | Lex::LowHex(..) | Lex::Utf8(..)
                if !self.in_key =>
            {
                Some(Some(Kind::String))
            }
            _ => None,
        }
    }

    /// Whether the slot of node `n` in frame `level`, sure of its object ([`Machine::present`]),
    /// may decide something: `n` is a `oneOf` branch, the `not` or the `if` of a slot alive there,
    /// or the property of the current member of an object in the frame above whose slot that asks
    /// only for members may (and so on up); or the target of a `$ref` alone that may.
    fn feeds(&self, level: usize, n: u16) -> bool {
        self.feeds_within(level, n, 8)
    }

    /// [`Machine::feeds`], through at most `refs` more `$ref`s in a row.
    fn feeds_within(&self, level: usize, n: u16, refs: u8) -> bool {
        let prog: &'static Program = self.prog;
        if !prog.node(n).decides {
            return false;
        }
        let slots = |l: usize| {
            let f = self.frames.get(l).filter(|_| l < self.nf);
            f.and_then(|f| self.slots.get(usize::from(f.lo)..usize::from(f.hi))).unwrap_or_default()
        };
        let decided = slots(level).iter().any(|s| {
            let c = prog.node(s.node);
            s.st == St::Open
                && (c.not == n
                    || c.if_ == n
                    || c.one_of.contains(&n)
                    || (c.shape == shape::REF
                        && c.all_of.first() == Some(&n)
                        && refs > 0
                        && self.feeds_within(level, s.node, refs - 1)))
        });
        decided
            || level.checked_sub(1).is_some_and(|up| {
                self.frames.get(up).is_some_and(|f| f.kind == Kind::Object)
                    && slots(up).iter().any(|s| {
                        let c = prog.node(s.node);
                        s.st == St::Open
                            && c.props.get(usize::from(s.sel)) == Some(&n)
                            && c.members_only()
                            && self.feeds_within(up, s.node, refs)
                    })
            })
    }

    /// A member's value began or closed in the object of frame `level` (at `at`): a subschema
    /// there whose property speaks of that value may now be sure of the object
    /// ([`Machine::present`]), which may decide a `oneOf`, a `not` or an `if` beside it or above
    /// it ([`Machine::feeds`]).
    #[inline]
    fn member_moved(&mut self, level: usize, at: usize) -> bool {
        !self.prog.decides || self.member_moved_here(level, at)
    }

    /// [`Machine::member_moved`] in a program where something may be decided.
    #[inline(never)]
    fn member_moved_here(&mut self, level: usize, at: usize) -> bool {
        let Some(f) = self.frames.get(level).filter(|f| level < self.nf && f.kind == Kind::Object && f.children) else {
            return true;
        };
        if self.degraded {
            return true;
        }
        let prog: &'static Program = self.prog;
        let valued = self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten().any(|s| {
            let c = prog.node(s.node);
            s.st == St::Open
                && c.decides
                && c.props.get(usize::from(s.sel)).is_some_and(|&p| p != NONE && !prog.node(p).always)
                && self.feeds(level, s.node)
                && c.members_only()
        });
        !valued || self.settle(at)
    }

    /// Whether the object of frame `level` can no longer satisfy exactly one of `branches` (a
    /// `oneOf`'s), each of which asks only for names (`required` alone, as [`Node::presence_only`]
    /// with no `minProperties`: a branch is satisfied once its names are present, and stays so):
    /// whichever branch the object goes on to satisfy, the names that one needs and those present
    /// make another satisfied too. Under `[{"required": ["foo", "bar"]}, {"required": ["foo",
    /// "baz"]}]`, an object with `bar` and `baz`: dead, since `foo` would satisfy both.
    fn cornered(&self, level: usize, branches: &[u16]) -> bool {
        let prog: &'static Program = self.prog;
        let Some(f) = self.frames.get(level) else { return false };
        let slots = self.slots.get(usize::from(f.lo)..usize::from(f.hi)).unwrap_or_default();
        let slot = |n: u16| slots.iter().find(|s| s.node == n && s.st == St::Open);
        let names_only = |n: u16| {
            let node = prog.node(n);
            !node.always && node.presence_only(prog) && node.min_props == 0 && slot(n).is_some()
        };
        if branches.len() < 2 || !branches.iter().all(|&b| names_only(b)) {
            return false;
        }
        // Whether every name branch `c` lacks is one that branch `b` requires.
        let forces = |b: u16, c: u16| {
            let (nb, nc) = (prog.node(b), prog.node(c));
            let seen = slot(c).map_or(0, |s| s.seen);
            let mut missing = nc.required & !seen;
            while missing != 0 {
                let i = missing.trailing_zeros() as usize;
                missing &= missing - 1;
                let Some(name) = nc.names.get(i) else { return false };
                let required = nb.names.iter().position(|x| x == name).is_some_and(|j| nb.required >> j & 1 == 1);
                if !required {
                    return false;
                }
            }
            true
        };
        branches.iter().enumerate().all(|(i, &b)| branches.iter().enumerate().any(|(j, &c)| i != j && forces(b, c)))
    }

    /// In-place combinations in frame `level`, to a fixpoint (`number`: the frame's value is a
    /// number whose text so far it is).
    fn in_place_deaths(&mut self, level: usize, number: Option<&[u8]>) {
        let Some(f) = self.frames.get(level).copied() else { return };
        loop {
            let mut changed = false;
            for i in usize::from(f.lo)..usize::from(f.hi) {
                let Some(s) = self.slots.get(i).copied() else { continue };
                if s.st != St::Open {
                    continue;
                }
                if let Some(why) = self.composite_death(level, &s, number) {
                    if let Some(slot) = self.slots.get_mut(i) {
                        slot.st = St::Dead;
                        slot.why = why;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn composite_death(&self, level: usize, s: &Slot, number: Option<&[u8]>) -> Option<Why> {
        let node = self.prog.node(s.node);
        let dead = |n: u16| self.status(level, n) == St::Dead;
        if node.members != NONE && dead(node.members) {
            return Some(Why::Enum);
        }
        if let Some(&n) = node.all_of.iter().find(|n| dead(**n)) {
            return Some(Why::InPlace(n));
        }
        if !node.any_of.is_empty() && node.any_of.iter().all(|n| dead(*n)) {
            return Some(Why::AnyOf);
        }
        if !node.one_of.is_empty() && node.one_of.iter().all(|n| dead(*n)) {
            return Some(Why::OneOf);
        }
        // Two branches a number satisfies for good (at the first byte, `push_value` judges
        // them), or an object, by the members it has ([`Machine::present`]).
        let object = number.is_none() && self.frames.get(level).is_some_and(|f| f.kind == Kind::Object);
        if (number.is_some() || object)
            && node.one_of.iter().filter(|&&b| self.sure_of(level, b, number)).nth(1).is_some()
        {
            return Some(Why::OneOf);
        }
        if object && self.cornered(level, node.one_of) {
            return Some(Why::OneOf);
        }
        if node.not != NONE && self.sure_of(level, node.not, number) {
            return Some(Why::Not);
        }
        if node.if_ != NONE {
            let (i, t, e) = (self.status(level, node.if_), node.then_, node.else_);
            if dead(e) && (i == St::Dead || dead(t)) {
                return Some(Why::InPlace(e));
            }
            if (i == St::Valid || self.sure_of(level, node.if_, number)) && dead(t) {
                return Some(Why::InPlace(t));
            }
        }
        for &(k, n) in node.dep_schemas {
            if s.seen >> k & 1 == 1 && dead(n) {
                return Some(Why::InPlace(n));
            }
        }
        None
    }

    /// Whether no pattern can match the key being read in the object of frame `level` any more,
    /// as subschema `n` (a node's [`Node::key_names`], stepped in the key's frame) says: `true`
    /// for [`NONE`] (no pattern), `false` while it lives or where the key has no frame.
    fn key_unmatched(&self, level: usize, n: u16) -> bool {
        n == NONE
            || (self.nf == level + 2
                && self.frames.get(level + 1).is_some_and(|f| f.key)
                && self.status(level + 1, n) == St::Dead)
    }

    /// Slots of frame `level` whose required child (in frame `level + 1`) died.
    fn child_deaths(&mut self, level: usize) {
        let (Some(f), Some(c)) = (self.frames.get(level).copied(), self.frames.get(level + 1).copied()) else {
            return;
        };
        for i in usize::from(f.lo)..usize::from(f.hi) {
            let Some(p) = self.slots.get(i).copied() else { continue };
            if p.st != St::Open {
                continue;
            }
            let node = self.prog.node(p.node);
            let mut why = None;
            if c.key {
                let gone = names_gone(node, &p).filter(|_| p.kfollow);
                if gone.is_some() && node.key_names != NONE && self.key_unmatched(level, node.key_names) {
                    // No pattern can match the key any more, nor a declared name not present yet
                    // become it.
                    why = gone;
                } else if node.property_names != NONE && self.status(level + 1, node.property_names) == St::Dead {
                    why = Some(Why::PropertyName);
                }
            } else {
                for_requests(node, &p, f.kind, f.count, |n, contains| {
                    if !contains && why.is_none() && self.status(level + 1, n) == St::Dead {
                        why = Some(Why::Child(n));
                    }
                });
            }
            if let (Some(w), Some(slot)) = (why, self.slots.get_mut(i)) {
                slot.st = St::Dead;
                slot.why = w;
            }
        }
    }

    /// The value of frame `level` closed: decide its slots, hand the verdicts to the parent.
    fn close_frame(&mut self, text: &[u8], level: usize, at: usize) -> bool {
        if self.degraded {
            self.pop(level);
            return true;
        }
        if level == 0 {
            let root = self.slots.first().map_or(NONE, |s| s.node);
            if !self.verdict(0, root, text) {
                self.die_schema(at);
                return false;
            }
            self.root_valid = true;
            self.pop(0);
            return true;
        }
        let Some(parent) = self.frames.get(level - 1).copied() else { return true };
        let kind = self.frames.get(level).map_or(Kind::Null, |f| f.kind);
        let mut died = false;
        for i in usize::from(parent.lo)..usize::from(parent.hi) {
            let Some(p) = self.slots.get(i).copied() else { continue };
            if p.st != St::Open {
                continue;
            }
            let prog: &'static Program = self.prog;
            let node = prog.node(p.node);
            let mut why = None;
            let mut sure = p.sure;
            for_requests(node, &p, parent.kind, parent.count, |n, contains| {
                if contains && (p.counted || sure_at_first_byte(prog, n, kind)) {
                    // Counted at its first byte (`push_value`), or at its exponent's
                    // (`watch_bounds`).
                    return;
                }
                let v = self.verdict(level, n, text);
                if contains {
                    sure += u32::from(v);
                    if u64::from(sure) > node.max_contains && why.is_none() {
                        why = Some(Why::MaxContains);
                    }
                } else if !v && why.is_none() {
                    why = Some(Why::Child(n));
                }
            });
            if let Some(slot) = self.slots.get_mut(i) {
                slot.sure = sure;
                if let Some(w) = why {
                    slot.st = St::Dead;
                    slot.why = w;
                    died = true;
                }
            }
        }
        if died && !self.settle(at) {
            return false;
        }
        self.pop(level);
        true
    }

    /// The exact verdict of node `n` on the value of frame `level`, which just closed.
    fn verdict(&mut self, level: usize, n: u16, text: &[u8]) -> bool {
        if n == NONE {
            return true;
        }
        let node = self.prog.node(n);
        if node.always {
            return true;
        }
        let Some(f) = self.frames.get(level).copied() else { return true };
        let Some(i) = (usize::from(f.lo)..usize::from(f.hi)).find(|&i| self.slots.get(i).is_some_and(|s| s.node == n))
        else {
            return true;
        };
        let Some(s) = self.slots.get(i).copied() else { return true };
        match s.st {
            St::Valid => return true,
            St::Dead => return false,
            St::Open => {}
        }
        let container = matches!(f.kind, Kind::Array | Kind::Object);
        let from_state = if container {
            !node.lookback && f.children
        } else {
            node.scalar & f.kind.bits() == f.kind.bits() && (node.pattern.is_none() || !s.pdone || s.pmatch)
        };
        // A short number literal against bounds: decided here, as the scan function would.
        let int = match (f.kind, node.bounds) {
            (Kind::Number, Some(bounds)) if !from_state => {
                let integer = node.types & ty::NUMBER == 0;
                number_literal(text.get(f.start..self.pos).unwrap_or_default()).map(|n| in_bounds(n, &bounds, integer))
            }
            _ => None,
        };
        let why = if let Some(ok) = int {
            if ok {
                self.in_place_checks(level, &s, text)
            } else {
                Some(Why::Scan)
            }
        } else if !from_state {
            let span = text.get(f.start..self.pos).and_then(|t| std::str::from_utf8(t).ok());
            match span {
                Some(t) if (node.scan)(&mut Scanner::new(t)).is_ok() => None,
                _ => Some(Why::Scan),
            }
        } else if container {
            self.close_checks(level, f, &s, text)
        } else {
            let own = if f.kind == Kind::String { self.string_checks(&s) } else { None };
            own.or_else(|| self.in_place_checks(level, &s, text))
        };
        if let Some(slot) = self.slots.get_mut(i) {
            match why {
                None => slot.st = St::Valid,
                Some(w) => {
                    slot.st = St::Dead;
                    slot.why = w;
                }
            }
        }
        why.is_none()
    }

    /// What an array or object slot still had to check when its value closed.
    fn close_checks(&mut self, level: usize, f: Frame, s: &Slot, text: &[u8]) -> Option<Why> {
        let node = self.prog.node(s.node);
        if f.kind == Kind::Object {
            let missing = node.required & !s.seen;
            if missing != 0 {
                return Some(Why::Required(missing.trailing_zeros() as u8));
            }
            if u64::from(f.count) < node.min_props {
                return Some(Why::MinProperties);
            }
            for &(k, need) in node.dep_required {
                let missing = need & !s.seen;
                if s.seen >> k & 1 == 1 && missing != 0 {
                    return Some(Why::DependentRequired(k, missing.trailing_zeros() as u8));
                }
            }
        } else {
            if u64::from(f.count) < node.min_items {
                return Some(Why::MinItems);
            }
            if node.contains != NONE && u64::from(s.sure) < node.min_contains {
                return Some(Why::MinContains);
            }
        }
        self.in_place_checks(level, s, text)
    }

    /// A string slot's own keywords, from what was followed byte by byte.
    fn string_checks(&self, s: &Slot) -> Option<Why> {
        let node = self.prog.node(s.node);
        if s.chars < node.min_length {
            return Some(Why::Scan);
        }
        if let Some(strings) = node.strings {
            if exact_name(s.cands, strings, s.koff) == NONE {
                return Some(Why::Enum);
            }
        }
        if let Some((p, _)) = node.pattern {
            if !s.pmatch && !p.matches_at_end(s.dfa) {
                return Some(Why::Scan);
            }
        }
        None
    }

    /// The in-place subschemas of slot `s`, whose value (of frame `level`) just closed.
    fn in_place_checks(&mut self, level: usize, s: &Slot, text: &[u8]) -> Option<Why> {
        let node = self.prog.node(s.node);
        for &n in node.all_of {
            if !self.verdict(level, n, text) {
                return Some(Why::InPlace(n));
            }
        }
        if !node.any_of.is_empty() && !node.any_of.iter().any(|&n| self.verdict(level, n, text)) {
            return Some(Why::AnyOf);
        }
        if !node.one_of.is_empty() {
            let mut k = 0;
            for &n in node.one_of {
                k += usize::from(self.verdict(level, n, text));
            }
            if k != 1 {
                return Some(Why::OneOf);
            }
        }
        if node.not != NONE && self.verdict(level, node.not, text) {
            return Some(Why::Not);
        }
        if node.if_ != NONE {
            let branch = if self.verdict(level, node.if_, text) { node.then_ } else { node.else_ };
            if !self.verdict(level, branch, text) {
                return Some(Why::InPlace(branch));
            }
        }
        for &(k, n) in node.dep_schemas {
            if s.seen >> k & 1 == 1 && !self.verdict(level, n, text) {
                return Some(Why::InPlace(n));
            }
        }
        None
    }

    // ---------------------------------------------------------------------------------------
    // Deaths and their explanations (noted when the text dies; built, allocating, only when asked
    // for: see `Machine::death`).

    fn syntax(&mut self, at: usize, message: &'static str) -> bool {
        self.dead = Some((at, Fate::Syntax(message)));
        false
    }

    fn die_schema(&mut self, at: usize) {
        self.dead = Some((at, Fate::Schema));
    }

    /// The violation that killed slot `i` of frame `level`.
    fn explain(&self, text: &[u8], level: usize, n: u16, guard: u32) -> Violation {
        let here = self.pointer(text, level);
        let fallback = |p: String, found: Found| Violation { pointer: p, kind: ViolationKind::False { found } };
        let Some(f) = self.frames.get(level).copied() else {
            return fallback(here, Found::new(JsonType::Null, None));
        };
        let slot =
            self.slots.get(usize::from(f.lo)..usize::from(f.hi)).into_iter().flatten().find(|s| s.node == n).copied();
        let found = self.found(text, f);
        let Some(s) = slot.filter(|_| guard < 64) else { return fallback(here, found) };
        let node = self.prog.node(s.node);
        let kind = match s.why {
            Why::Type => ViolationKind::Type { expected: types(node.types), found },
            Why::Never | Why::None => ViolationKind::False { found },
            Why::Enum if node.is_const => ViolationKind::Const { expected: node.enum_text, found },
            Why::Enum => ViolationKind::Enum { expected: node.enum_text, found },
            Why::MaxLength => ViolationKind::MaxLength { limit: node.max_length, length: s.chars },
            Why::Pattern => match node.pattern_format {
                Some(format) => ViolationKind::Format { format, found },
                None => ViolationKind::Pattern { pattern: node.pattern.map_or("", |p| p.1), found },
            },
            Why::Negative => {
                let (limit, exclusive) = node.negative.unwrap_or(("0", true));
                ViolationKind::Minimum { limit, exclusive, found }
            }
            Why::Bound => {
                let number = text.get(f.start..self.pos).unwrap_or_default();
                let integral = || bounds::integral(node.limits, number).filter(|_| node.integral());
                match bounds::outgrown(node.limits, number).or_else(integral) {
                    Some(&Bound { text: limit, exclusive, upper: true, .. }) => {
                        ViolationKind::Maximum { limit, exclusive, found }
                    }
                    Some(&Bound { text: limit, exclusive, .. }) => ViolationKind::Minimum { limit, exclusive, found },
                    None => match node.multiple {
                        Some(m) if bounds::indivisible(node.limits, Some(&m), number) => {
                            ViolationKind::MultipleOf { divisor: m.text, found }
                        }
                        _ => ViolationKind::False { found },
                    },
                }
            }
            Why::AdditionalProperty | Why::Repeat => {
                let key = self.key_so_far(text, f);
                return Violation { pointer: join(&here, &key), kind: not_allowed(node, key) };
            }
            Why::Forbidden => {
                let key = self.key_so_far(text, f);
                return Violation {
                    pointer: join(&here, &key),
                    kind: ViolationKind::ForbiddenProperty { property: key },
                };
            }
            Why::PropertyName => {
                let key = self.key_so_far(text, f);
                return Violation { pointer: join(&here, &key), kind: ViolationKind::PropertyName { property: key } };
            }
            Why::NoMoreMembers => not_allowed(node, String::new()),
            Why::MaxProperties => ViolationKind::MaxProperties { limit: node.max_props, count: u64::from(f.count) },
            Why::MaxItems if node.unevaluated_items => {
                let index = u64::from(f.count.saturating_sub(1));
                return Violation {
                    pointer: join(&here, &index.to_string()),
                    kind: ViolationKind::UnevaluatedItem { index },
                };
            }
            Why::MaxItems if node.items_end => {
                let index = u64::from(f.count.saturating_sub(1));
                return Violation {
                    pointer: join(&here, &index.to_string()),
                    kind: ViolationKind::ForbiddenItem { index },
                };
            }
            Why::MaxItems => ViolationKind::MaxItems { limit: node.max_items, count: u64::from(f.count) },
            Why::MaxContains | Why::MinContains => ViolationKind::Contains {
                min: node.min_contains,
                max: (node.max_contains != u64::MAX).then_some(node.max_contains),
                count: u64::from(s.sure),
            },
            Why::Child(c) => {
                if self.frames.get(level + 1).is_some() && level + 1 < self.nf {
                    return self.explain(text, level + 1, c, guard + 1);
                }
                ViolationKind::False { found }
            }
            Why::InPlace(c) => return self.explain(text, level, c, guard + 1),
            Why::AnyOf => ViolationKind::AnyOf { alternatives: node.any_of.len() as u64 },
            Why::OneOf => {
                let matched = node.one_of.iter().filter(|&&c| self.sure(level, c)).count();
                ViolationKind::OneOf { alternatives: node.one_of.len() as u64, matched: matched as u64 }
            }
            Why::Not => ViolationKind::Not,
            Why::Required(k) => {
                let name = node.names.get(usize::from(k)).copied().unwrap_or("");
                return Violation {
                    pointer: join(&here, name),
                    kind: ViolationKind::Required { property: name.to_owned() },
                };
            }
            Why::DependentRequired(k, m) => {
                let name = node.names.get(usize::from(k)).copied().unwrap_or("");
                let missing = node.names.get(usize::from(m)).copied().unwrap_or("");
                return Violation {
                    pointer: join(&here, missing),
                    kind: ViolationKind::DependentRequired { property: name.to_owned(), missing: missing.to_owned() },
                };
            }
            Why::MinProperties => ViolationKind::MinProperties { limit: node.min_props, count: u64::from(f.count) },
            Why::MinItems => ViolationKind::MinItems { limit: node.min_items, count: u64::from(f.count) },
            Why::Unique => match item_text(text, f.ks, f.ke).and_then(|raw| repeat_of(text, f.start, f.ks, raw)) {
                Some(Some((first, second))) => ViolationKind::UniqueItems { first, second },
                _ => ViolationKind::False { found },
            },
            Why::Scan => {
                let span = text.get(f.start..self.pos).and_then(|t| std::str::from_utf8(t).ok());
                if let Some(v) = span.and_then(|t| crate::__private::explain(Span::root(t), node.check)) {
                    return Violation { pointer: format!("{here}{}", v.pointer), kind: v.kind };
                }
                ViolationKind::False { found }
            }
        };
        Violation { pointer: here, kind }
    }

    /// The JSON Pointer of the value of frame `level`.
    fn pointer(&self, text: &[u8], level: usize) -> String {
        let mut p = String::new();
        for l in 0..level {
            let Some(f) = self.frames.get(l) else { break };
            match f.kind {
                Kind::Object => p = join(&p, &decode_key(text.get(f.ks..f.ke).unwrap_or(b""))),
                _ => p = format!("{p}/{}", f.count.saturating_sub(1)),
            }
        }
        p
    }

    /// The current key of the object of frame `f`, as read so far.
    fn key_so_far(&self, text: &[u8], f: Frame) -> String {
        if f.ke > f.ks {
            return decode_key(text.get(f.ks..f.ke).unwrap_or(b""));
        }
        let mut key = decode_key(text.get(f.ks..self.pos).unwrap_or(b""));
        key.push('…');
        key
    }

    /// What was found at frame `f`, so far.
    fn found(&self, text: &[u8], f: Frame) -> Found {
        let closed = self.nf == 0 || matches!(self.lex, Lex::After | Lex::Done);
        match f.kind {
            Kind::Array | Kind::Object => Found::new(f.kind.json(), None),
            _ => {
                let raw = text.get(f.start..self.pos.max(f.start)).unwrap_or(b"");
                let mut t = String::from_utf8_lossy(raw).into_owned();
                if !closed && !f.key {
                    t.push('…');
                }
                Found::new(f.kind.json(), Some(t))
            }
        }
    }
}

impl Program {
    /// The node `n` (a default that accepts everything for an id that does not exist, which the
    /// macro never writes).
    #[must_use]
    pub fn node(&self, n: u16) -> &Node {
        self.nodes.get(usize::from(n)).unwrap_or(&Node::ALWAYS)
    }
}

/// Whether node `n` accepts every value of `kind` whatever follows its first byte (the value
/// being well-formed JSON, which the stream needs anyway): a `contains` counts the item there, a
/// `not` dies there, and so does a `oneOf` with two such branches, an `if` decides there. `true`
/// and `{}` do; so does a scalar's subschema none of whose keywords speaks of that kind but
/// `type` (a number: no bounds, not `integer` alone; a string: no length, `pattern` or asserted
/// `format`; no `enum`), whose subschemas applied in place agree (every `allOf` branch and
/// `$ref` does, some `anyOf` branch, exactly one `oneOf` branch and the others refuse the kind,
/// `not`'s refuses it, `if` picks an outcome that does). At most 64 subschemas are looked at
/// (past them: not sure, which is only later).
fn sure_at_first_byte(prog: &Program, n: u16, kind: Kind) -> bool {
    sure_within(prog, n, kind, None, &mut 64)
}

/// Whether subschema `n` is satisfied by the number whose text so far is `number`, whatever
/// follows: as [`sure_at_first_byte`], where a subschema's keywords for numbers need not be
/// absent, only settled for good by the number's exponent ([`Node::settled`]: `915e5` is an
/// integer of at least 2 at every exponent its digits may still become).
fn sure_of_number(prog: &Program, n: u16, number: &[u8]) -> bool {
    sure_within(prog, n, Kind::Number, Some(number), &mut 64)
}

/// [`sure_at_first_byte`] (`number`: `None`), or [`sure_of_number`].
fn sure_within(prog: &Program, n: u16, kind: Kind, number: Option<&[u8]>, budget: &mut u8) -> bool {
    let c = prog.node(n);
    if c.always {
        return true;
    }
    let bits = kind.bits();
    if (kind == Kind::Object && c.required == 0 && c.min_props == 0 && c.presence_only(prog))
        || (kind == Kind::Array && c.any_array(prog))
    {
        // Asks for no member: every object has what it asks ([`Machine::present`]); nothing of
        // an array's items.
        return true;
    }
    if *budget == 0
        || c.never
        || matches!(kind, Kind::Object | Kind::Array)
        || c.types & bits == 0
        || c.enum_types != 0
        || (c.scalar & bits != bits && !number.is_some_and(|t| c.settled(t)))
        || (c.negative.is_some() && number.is_none())
        || (bits == ty::STRING && c.follows_chars())
    {
        return false;
    }
    *budget -= 1;
    let mut sure = |m: u16| sure_within(prog, m, kind, number, budget);
    // Refuses every value of the kind at its first byte.
    let refuses = |m: u16| {
        let d = prog.node(m);
        !d.always && (d.never || d.types & bits == 0 || (d.enum_types != 0 && d.enum_types & bits == 0))
    };
    if !c.all_of.iter().all(|&m| sure(m)) || !(c.any_of.is_empty() || c.any_of.iter().any(|&m| sure(m))) {
        return false;
    }
    if !c.one_of.is_empty() {
        let mut one = 0;
        for &m in c.one_of {
            if sure(m) {
                one += 1;
            } else if !refuses(m) {
                return false;
            }
        }
        if one != 1 {
            return false;
        }
    }
    if c.not != NONE && !refuses(c.not) {
        return false;
    }
    c.if_ == NONE
        || (sure(c.if_) && sure(c.then_))
        || (refuses(c.if_) && sure(c.else_))
        || (sure(c.then_) && sure(c.else_))
}

/// The subschemas slot `p` (of `node`) applies to its current child: `(node, is_contains)`.
fn for_requests(node: &Node, p: &Slot, kind: Kind, count: u32, mut f: impl FnMut(u16, bool)) {
    match kind {
        Kind::Object => {
            let in_props = usize::from(p.sel) < node.props.len();
            if in_props {
                if let Some(&n) = node.props.get(usize::from(p.sel)) {
                    f(n, false);
                }
            }
            for (j, (_, n)) in node.patterns.iter().enumerate() {
                if p.pats >> j & 1 == 1 {
                    f(*n, false);
                }
            }
            // (`additionalProperties`, or `unevaluatedProperties` beside the names that other
            // subschemas' `properties` declare: [`Node::keys`].)
            let declared = node.keys.checked_shr(u32::from(p.sel)).is_some_and(|k| k & 1 == 1);
            if !in_props && !declared && p.pats == 0 && node.additional != NONE {
                f(node.additional, false);
            }
        }
        Kind::Array => {
            let index = count.saturating_sub(1) as usize;
            match node.prefix.get(index) {
                Some(&n) => f(n, false),
                None if node.items != NONE => f(node.items, false),
                None => {}
            }
            if node.contains != NONE {
                f(node.contains, true);
            }
        }
        _ => {}
    }
}

/// The bits of `bits` whose index `keep` accepts.
pub(super) fn filter_bits(bits: u128, keep: impl Fn(usize) -> bool) -> u128 {
    let mut out = bits;
    let mut rest = bits;
    while rest != 0 {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        if !keep(i as usize) {
            out &= !(1u128 << i);
        }
    }
    out
}

/// The value the scanner gives a number literal without exponent of at most 15 digits (18
/// for an integer), computed the same way (an integer exactly; a fraction as its digits divided
/// by a power of ten, both exact in `f64`, as the scanner's shared fast path does); `None` for
/// anything else.
pub(super) fn number_literal(t: &[u8]) -> Option<Num> {
    let (neg, rest) = match t.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, t),
    };
    // One pass: the digits' value (exact below 19 digits), how many, and how many came before
    // the point.
    let (mut v, mut digits, mut point) = (0u64, 0usize, None);
    for &c in rest {
        if c.is_ascii_digit() {
            v = v.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            digits += 1;
        } else if c == b'.' && point.is_none() && digits > 0 {
            point = Some(digits);
        } else {
            return None;
        }
    }
    literal_value(neg, v, digits, point)
}

/// A number that begins at `at` and ends within `text` (a byte that is no part of it follows),
/// well-formed, without exponent, shorter than 300 bytes (so within the `f64` range): where it
/// ends and its value as [`number_literal`] gives it, in one pass. `None` for any other text:
/// the byte-by-byte reading decides.
pub(super) fn number_at(text: &[u8], at: usize) -> Option<(usize, Option<Num>)> {
    let neg = text.get(at) == Some(&b'-');
    let first = at + usize::from(neg);
    let (mut v, mut i) = (0u64, first);
    while let Some(&c) = text.get(i).filter(|c| c.is_ascii_digit()) {
        v = v.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
        i += 1;
    }
    let int = i - first;
    if int == 0 || (int > 1 && text.get(first) == Some(&b'0')) {
        return None;
    }
    let mut point = None;
    if text.get(i) == Some(&b'.') {
        i += 1;
        let frac = i;
        while let Some(&c) = text.get(i).filter(|c| c.is_ascii_digit()) {
            v = v.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            i += 1;
        }
        if i == frac {
            return None;
        }
        point = Some(int);
    }
    match text.get(i) {
        None | Some(b'e' | b'E') => None,
        Some(_) if i - at >= 300 => None,
        Some(_) => Some((i, literal_value(neg, v, i - first - usize::from(point.is_some()), point))),
    }
}

/// `number_literal`'s value from its sign, its digits' value `v` (exact below 19 digits),
/// their count and the count before the point.
#[inline(always)]
pub(super) fn literal_value(neg: bool, v: u64, digits: usize, point: Option<usize>) -> Option<Num> {
    const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    match point {
        #[allow(clippy::cast_precision_loss)]
        Some(int) if digits > int && digits <= 15 => {
            let x = v as f64 / *POW10.get(digits - int)?;
            Some(Num::F(if neg { -x } else { x }))
        }
        Some(_) => None,
        None if digits == 0 || digits > 18 => None,
        // `-0` is a float to the scanner.
        None if neg => i64::try_from(v).ok().filter(|&i| i != 0).map(|i| Num::I(-i)),
        None => Some(Num::U(v)),
    }
}

/// Whether number `n` is within `[minimum, exclusiveMinimum, maximum, exclusiveMaximum]`, and an
/// integer if `integer`. (Inlined: where the bounds are constants, as in a flat tool's emitted
/// code, only their comparisons remain.)
#[inline(always)]
#[must_use]
pub fn in_bounds(n: Num, b: &[Option<Limit>; 4], integer: bool) -> bool {
    let [lo, xlo, hi, xhi] = b;
    !((integer && !n.is_integer())
        || lo.is_some_and(|l| n.compare(l).is_lt())
        || xlo.is_some_and(|l| n.compare(l).is_le())
        || hi.is_some_and(|l| n.compare(l).is_gt())
        || xhi.is_some_and(|l| n.compare(l).is_ge()))
}

/// Keep the candidates (of the names `tab` indexes) that continue at `off` with all of `run`.
pub(super) fn narrow_run(tab: ByteTable, cands: u128, off: u32, run: &[u8]) -> u128 {
    let mut c = cands;
    let off = off as usize;
    for (i, &b) in run.iter().enumerate() {
        if c == 0 {
            break;
        }
        c = narrow_byte(tab, c, off + i, b);
    }
    c
}

/// The candidate that is exactly `len` bytes long, or [`NONE`].
pub(super) fn exact_name(cands: u128, names: &[&str], len: u32) -> u16 {
    let mut rest = cands;
    while rest != 0 {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        if names.get(i as usize).is_some_and(|n| n.len() == len as usize) {
            return i as u16;
        }
    }
    NONE
}

pub(super) const fn all_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// Byte classes, one load per question: [`PLAIN`], [`WS`].
// `b < 256` indexes a 256-entry table: the indexing cannot fail (and runs at compile time).
#[allow(clippy::indexing_slicing)]
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c >= 0x20 && c < 0x80 && c != b'"' && c != b'\\' {
            t[b] |= PLAIN;
        }
        if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            t[b] |= WS;
        }
        b += 1;
    }
    t
};
/// A byte that stands for itself inside a string: printable ASCII but `"` and `\`.
const PLAIN: u8 = 1;
/// JSON whitespace.
const WS: u8 = 2;

/// A byte a string takes as one character with no other effect: printable ASCII, not `"` or `\\`.
#[inline]
pub(super) fn is_plain(b: u8) -> bool {
    class(b) & PLAIN != 0
}

/// The classes of `b` (a `u8` indexes the 256-entry table: the `None` arm is never taken and
/// compiles away).
#[inline]
fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// The bytes of `w` that are not plain, as their high bits (exact up to and including the
/// lowest one, which is all [`plain_end`] reads: a borrow only runs upwards).
#[inline]
fn not_plain8(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    let quote = zero(w ^ (LO * 0x22));
    let bs = zero(w ^ (LO * 0x5C));
    let ctl = w.wrapping_sub(LO * 0x20) & !w & HI;
    quote | bs | ctl | (w & HI)
}

/// The end of the run of plain bytes of `text` from `i`.
#[inline]
pub(super) fn plain_end(text: &[u8], mut i: usize) -> usize {
    while let Some(w) = text.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let m = not_plain8(u64::from_le_bytes(w));
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while text.get(i).is_some_and(|&b| is_plain(b)) {
        i += 1;
    }
    i
}

/// JSON whitespace: space, tab, line feed, carriage return.
#[inline]
pub(super) fn is_ws(b: u8) -> bool {
    class(b) & WS != 0
}

pub(super) fn hex(b: u8) -> Option<u16> {
    char::from(b).to_digit(16).and_then(|d| u16::try_from(d).ok())
}

fn types(bits: u8) -> TypeSet {
    let mut t = TypeSet::EMPTY;
    for (bit, j) in [
        (ty::NULL, JsonType::Null),
        (ty::BOOLEAN, JsonType::Boolean),
        (ty::INTEGER, JsonType::Integer),
        (ty::NUMBER, JsonType::Number),
        (ty::STRING, JsonType::String),
        (ty::ARRAY, JsonType::Array),
        (ty::OBJECT, JsonType::Object),
    ] {
        if bits & bit != 0 && !(j == JsonType::Integer && bits & ty::NUMBER != 0) {
            t = t.with(j);
        }
    }
    t
}

/// The violation of a key `node`'s objects do not allow (`""`: a member past the last allowed),
/// named after the keyword that closes them.
/// The death of slot `s` of a closed object ([`Node::closed`]) whose key being read no declared
/// name that is not present yet continues (as its candidates say): not allowed, or only a repeat
/// of a present name. Beside patterns, only once they cannot match either (`key_unmatched`).
fn names_gone(node: &Node, s: &Slot) -> Option<Why> {
    let props = s.cands & node.keys;
    (props & !s.seen == 0).then_some(if props == 0 { Why::AdditionalProperty } else { Why::Repeat })
}

fn not_allowed(node: &Node, property: String) -> ViolationKind {
    if node.closed_unevaluated() {
        ViolationKind::UnevaluatedProperty { property }
    } else {
        ViolationKind::AdditionalProperty { property }
    }
}

/// `p` with the segment `key` appended (RFC 6901 escapes).
fn join(p: &str, key: &str) -> String {
    format!("{p}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// A key's text (with its opening quote, maybe its closing one) decoded as far as it goes.
fn decode_key(raw: &[u8]) -> String {
    let inner = raw.strip_prefix(b"\"").unwrap_or(raw);
    let inner = inner.strip_suffix(b"\"").unwrap_or(inner);
    let quoted = [b"\"", inner, b"\""].concat();
    match std::str::from_utf8(&quoted).ok().and_then(|t| serde_json::from_str::<String>(t).ok()) {
        Some(s) => s,
        None => String::from_utf8_lossy(inner).into_owned(),
    }
}

fn syntax_error(text: &[u8], at: usize, message: &str) -> Error {
    let before = text.get(..at).unwrap_or(text);
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let column = before.iter().rev().take_while(|&&c| c != b'\n').count() + 1;
    Error::Syntax { message: format!("{message} at line {line} column {column}"), line, column }
}

#[cfg(test)]
mod tests {
    use super::{is_plain, num_step, number_at, number_literal, plain_end, Num, NumSt};

    /// `plain_end` finds the first byte that is not plain, wherever it is in an 8-byte word and
    /// whatever bytes follow it (every pair of a non-plain byte and a following byte, at every
    /// position, after plain bytes).
    #[test]
    fn plain_end_stops_at_the_first_byte_that_is_not_plain() {
        let naive = |t: &[u8], i: usize| (i..t.len()).find(|&j| !is_plain(t[j])).unwrap_or(t.len());
        for stop in 0..=255u8 {
            for after in [0u8, 0x1F, b'"', b'\\', b'a', 0x7F, 0x80, 0xFF] {
                for at in 0..12 {
                    let mut t = vec![b'x'; 20];
                    t[at] = stop;
                    t[at + 1] = after;
                    for from in 0..=at {
                        assert_eq!(plain_end(&t, from), naive(&t, from), "{t:?} from {from}");
                    }
                }
            }
        }
    }

    /// Near a text's end, where fewer than 8 bytes are left (a fragment's end cuts most strings):
    /// every text of up to 17 bytes with one byte that is not plain (or none), from every
    /// position, and from past the end.
    #[test]
    fn plain_end_at_the_text_s_end() {
        let naive = |t: &[u8], i: usize| (i..t.len()).find(|&j| !is_plain(t[j])).unwrap_or(t.len().max(i));
        for len in 0..=17 {
            for stop in (0..len).map(Some).chain([None]) {
                for b in [0u8, 0x1F, b'"', b'\\', 0x80, 0xFF] {
                    let mut t = vec![b'y'; len];
                    if let Some(at) = stop {
                        t[at] = b;
                    }
                    for from in 0..=len + 2 {
                        assert_eq!(plain_end(&t, from), naive(&t, from), "{t:?} from {from}");
                    }
                }
            }
        }
    }

    /// Every number of up to 7 characters over `-0159.`, and some near the digit limits: where
    /// it is JSON, `number_literal` gives serde_json's value, and it gives one for every number
    /// it promises to (no exponent, at most 15 digits with a fraction or 18 without, not `-0`).
    #[test]
    fn number_literal_is_serde_json_s_value() {
        let mut texts: Vec<String> = vec![String::new()];
        let mut level = texts.clone();
        for _ in 0..7 {
            level = level.iter().flat_map(|t| "-0159.".chars().map(move |c| format!("{t}{c}"))).collect();
            texts.extend(level.iter().cloned());
        }
        for digits in [14, 15, 16, 18, 19, 20] {
            let run = "9".repeat(digits);
            for t in [
                run.clone(),
                format!("-{run}"),
                format!("0.{}", "7".repeat(digits - 1)),
                format!("1.{}", "3".repeat(digits - 1)),
            ] {
                texts.push(t);
            }
        }
        let mut checked = 0;
        for t in &texts {
            let Ok(serde_json::Value::Number(n)) = serde_json::from_str::<serde_json::Value>(t) else { continue };
            checked += 1;
            let digits = t.bytes().filter(u8::is_ascii_digit).count();
            let fraction = t.contains('.');
            let promised = digits <= if fraction { 15 } else { 18 } && t != "-0";
            match number_literal(t.as_bytes()) {
                Some(Num::U(u)) => assert_eq!(n.as_u64(), Some(u), "{t}"),
                Some(Num::I(i)) => assert_eq!((n.as_i64(), n.is_u64()), (Some(i), false), "{t}"),
                Some(Num::F(f)) => {
                    assert!(n.is_f64(), "{t}");
                    assert_eq!(n.as_f64().map(f64::to_bits), Some(f.to_bits()), "{t}");
                }
                None => assert!(!promised, "{t}: no value"),
            }
        }
        assert!(checked > 10_000, "only {checked} numbers checked");
    }

    /// Every text of up to 6 characters over `-0159.e`, followed by each of `,}] x` or by
    /// nothing: `number_at` finds where the number begun at its start ends exactly where the
    /// byte-by-byte reading does (at a byte that cannot continue it, in a state it may end in),
    /// and values it as `number_literal` does; it declines a number the text cuts, one with an
    /// exponent, and every text that is no number.
    #[test]
    fn number_at_ends_and_values_a_number_as_the_byte_by_byte_reading() {
        let by_bytes = |t: &[u8]| -> Option<usize> {
            let mut st = match t.first()? {
                b'-' => NumSt::Minus,
                b'0' => NumSt::Zero,
                b'1'..=b'9' => NumSt::Int,
                _ => return None,
            };
            for (i, &c) in t.iter().enumerate().skip(1) {
                match num_step(st, c) {
                    Some(n) => st = n,
                    None => {
                        let ends = matches!(st, NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits);
                        return (ends && !(st == NumSt::Zero && c.is_ascii_digit())).then_some(i);
                    }
                }
            }
            None
        };
        let mut texts: Vec<String> = vec![String::new()];
        let mut level = texts.clone();
        for _ in 0..6 {
            level = level.iter().flat_map(|t| "-0159.e".chars().map(move |c| format!("{t}{c}"))).collect();
            texts.extend(level.iter().cloned());
        }
        let mut taken = 0;
        for t in &texts {
            for after in [",", "}", "]", " ", "x", ""] {
                let full = format!("{t}{after}");
                let expected = by_bytes(full.as_bytes()).filter(|&e| !full[..e].contains('e'));
                let got = number_at(full.as_bytes(), 0);
                assert_eq!(got.map(|g| g.0), expected, "{full:?}");
                if let Some((end, n)) = got {
                    let want = number_literal(&full.as_bytes()[..end]);
                    assert_eq!(format!("{n:?}"), format!("{want:?}"), "{full:?}");
                    taken += 1;
                }
            }
        }
        assert!(taken > 10_000, "only {taken} numbers taken");
    }
}
