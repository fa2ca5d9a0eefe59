//! The lean prefix automaton: the general automaton ([`Machine`]) specialised to schemas where
//! at most one subschema speaks of each value.
//!
//! The macro chooses it when every subschema reachable from the root is plain (its own keywords
//! only), a `$ref` alone, or an `anyOf`/`oneOf` whose branches accept pairwise different kinds
//! of JSON value (`[T, {"type": "null"}]`, the optional argument of MCP tools): then the
//! value's first byte decides the one subschema that judges it, and a value needs one state, not
//! a set of slots. That is the shape of most tool schemas. It reads the same [`Program`] and
//! decides exactly what [`Machine`] decides, at the same byte (tested on every fixture, mutant
//! and accepted suite schema against the general automaton: [`Lean::reference`]); what it saves
//! is the machinery for sets of subschemas: one frame per tracked value with the subschema's
//! state inline, no slot lists, no in-place combinations, and any death is the text's. It also
//! reads a token at a time where the general automaton reads a byte (whitespace, a run of string
//! characters, digits, punctuation), and an array or object already complete within the next 128
//! bytes of the text is judged at once by its subschema's scan function (what `is_valid_json`
//! runs), which is exact.
//!
//! A value that several subschemas speak of (a `oneOf` of objects told apart by a tag, an
//! `allOf`, an `if`), where the schema has one below its root, is handed to the general automaton
//! started at that value ([`Machine::nested`], the automaton's type parameter), which reads it
//! and hands back at its end; the value's siblings and ancestors stay with the lean automaton.
//!
//! A death is only detected here. Its explanation (offset, pointer, violation) is the general
//! automaton's, run once over the text when it is asked for ([`Lean::explain`]): the same
//! message by construction, built only when a stream reports it (a token mask, which tries
//! thousands of continuations that die, never asks). Should that run not die where this
//! automaton did, the general automaton takes over from there (a safety net; tests assert it
//! never happens).

use std::fmt;

use crate::text::{is_literal_start, ItemFilter, KeyFilter, Kind, Scanner, MAX_DEPTH};

use super::machine::{
    all_bits, exact_name, filter_bits, hex, is_plain, is_ws, narrow_run, num_step, number_literal, plain_end,
    utf8_lead, Death, ExpStep, ExpWatch, KindBits, Lex, Machine, NumSt, WORDS,
};
use super::members;
use super::program::{narrow_byte, shape, ty, Node, Program, NONE};
use crate::pattern::Stepped;

/// How the bytes of the string being read are looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// nobody looks at them
    Skip,
    /// a key matched against a closed object's names
    Key,
    /// a value whose characters are only counted (`maxLength`, `minLength`)
    Count,
    /// a value stepped character by character (`enum` strings, `pattern`), and counted
    Follow,
}

/// One tracked value: its subschema and that subschema's state.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// the subschema that judges the value (never a `$ref` or a union: those are resolved)
    node: u16,
    kind: Kind,
    /// whether the values inside get frames of their own
    children: bool,
    /// the current key is matched against the names byte by byte (a closed object's)
    kfollow: bool,
    /// pattern stepping stopped: matched, or the automaton gave up (`pmatch` says which)
    pdone: bool,
    pmatch: bool,
    /// the current key's name index, or [`NONE`]
    sel: u16,
    /// members or items begun
    count: u32,
    /// decoded bytes of the current string or key
    koff: u32,
    dfa: u32,
    /// keys that no name declares
    undeclared: u32,
    /// their hashes, to find a repeated one when it closes
    keys: KeyFilter,
    start: usize,
    /// where the current key begins (its opening quote)
    ks: usize,
    /// in an array with `uniqueItems`: its items as they close (the current one from `ks`)
    items: ItemFilter,
    /// code points of the current string
    chars: u64,
    /// names seen
    seen: u128,
    /// names the current key may still be (declared, not yet present), or `enum` strings the
    /// string may still be
    cands: u128,
}

impl Frame {
    const EMPTY: Self = Self {
        node: NONE,
        kind: Kind::Null,
        children: false,
        kfollow: false,
        pdone: true,
        pmatch: false,
        sel: NONE,
        count: 0,
        koff: 0,
        dfa: 0,
        undeclared: 0,
        keys: KeyFilter::EMPTY,
        start: 0,
        ks: 0,
        items: ItemFilter::EMPTY,
        chars: 0,
        seen: 0,
        cands: 0,
    };
}

/// What the lean automaton hands a value to when several subschemas speak of it.
pub trait Delegate: Clone + fmt::Debug + Send + Sync + 'static {
    /// Whether values are ever handed over.
    const DELEGATES: bool;
    /// An automaton for the value beginning at offset `at`, `depth` containers deep, judged by
    /// node `node`; `None` when values are never handed over.
    fn start(prog: &'static Program, node: u16, at: usize, depth: u32) -> Option<Self>;
    /// Read what `text` has beyond what was read, up to the value's end; `false` once dead.
    fn advance(&mut self, text: &[u8]) -> bool;
    /// The offset after the value, once it ended valid.
    fn end(&self) -> Option<usize>;
    /// Whether its verdict was the automaton's own (no key that may repeat unseen).
    fn exact(&self) -> bool;
    /// As [`Machine::plain_string`].
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)>;
}

/// Values are never handed over: the macro found none that several subschemas speak of.
#[derive(Debug, Clone, Copy)]
pub enum Whole {}

impl Delegate for Whole {
    const DELEGATES: bool = false;
    fn start(_: &'static Program, _: u16, _: usize, _: u32) -> Option<Self> {
        None
    }
    fn advance(&mut self, _: &[u8]) -> bool {
        match *self {}
    }
    fn end(&self) -> Option<usize> {
        match *self {}
    }
    fn exact(&self) -> bool {
        match *self {}
    }
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        match *self {}
    }
}

impl<const S: usize, const D: usize> Delegate for Machine<S, D> {
    const DELEGATES: bool = true;
    fn start(prog: &'static Program, node: u16, at: usize, depth: u32) -> Option<Self> {
        Some(Self::nested(prog, node, at, depth))
    }
    fn advance(&mut self, text: &[u8]) -> bool {
        Self::advance(self, text)
    }
    fn end(&self) -> Option<usize> {
        self.value_end()
    }
    fn exact(&self) -> bool {
        self.is_exact()
    }
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        Self::plain_string(self)
    }
}

/// A value that begins: what judges it.
enum Push {
    /// nothing (no subschema, or one that its first byte already satisfies for good)
    Free,
    /// a frame was pushed
    Pushed,
    /// the value is dead at its first byte
    Dead,
}

/// The lean automaton: `D` tracked levels (as the macro computed them for the general one);
/// `S` sizes the general automaton it explains deaths with; `X` is what it hands a value to that
/// several subschemas speak of ([`Whole`]: there is none; [`Machine`]: the general automaton).
#[derive(Debug)]
pub struct Lean<const S: usize, const D: usize, X: Delegate = Whole> {
    prog: &'static Program,
    /// bytes read
    pos: usize,
    lex: Lex,
    /// open arrays and objects
    depth: u32,
    /// bit `i`: the container at depth `i` is an object
    objects: u128,
    /// the innermost open container is an object (bit `depth - 1` of `objects`)
    in_obj: bool,
    /// whether the string being read is a key
    in_key: bool,
    mode: Mode,
    /// the key being read has an escape
    key_escaped: bool,
    frames: [Frame; D],
    nf: usize,
    /// the final verdict can come from this automaton alone (no key that may repeat unseen)
    exact: bool,
    /// the root value closed valid
    root_valid: bool,
    /// the root's schema accepts every value
    root_free: bool,
    /// the number being read got no frame: its subschema (this node) judges only its bounds,
    /// decided when it ends
    lazy: u16,
    /// where the number being read began, whether it has an exponent, and its exponent
    /// watched for the `f64` range
    num_start: usize,
    num_exp: bool,
    num_watch: ExpWatch,
    /// the number being read has a frame whose `enum`/`const` has numbers, or that requires an
    /// integer within bounds: watched at each of its bytes ([`members::reachable`],
    /// [`bounds::integral`])
    num_members: bool,
    /// no value beginning before this offset is read at once by its scan function (after an
    /// attempt that failed: see [`Lean::skip_complete`])
    ff_block: usize,
    /// the value handed over, being read
    sub: Option<X>,
    dead: bool,
    /// the general automaton, where this one handed over (never, if this one is right)
    general: Option<Box<Machine<S, D>>>,
}

impl<const S: usize, const D: usize, X: Delegate> Clone for Lean<S, D, X> {
    fn clone(&self) -> Self {
        let mut m = Self::new(self.prog);
        m.clone_from(self);
        m
    }

    /// Copies only the frames in use: what a token mask does at every trie node.
    fn clone_from(&mut self, src: &Self) {
        self.prog = src.prog;
        self.pos = src.pos;
        self.lex = src.lex;
        self.depth = src.depth;
        self.objects = src.objects;
        self.in_obj = src.in_obj;
        self.in_key = src.in_key;
        self.mode = src.mode;
        self.key_escaped = src.key_escaped;
        self.nf = src.nf;
        self.exact = src.exact;
        self.root_valid = src.root_valid;
        self.root_free = src.root_free;
        self.lazy = src.lazy;
        self.num_start = src.num_start;
        self.num_exp = src.num_exp;
        self.num_watch = src.num_watch;
        self.num_members = src.num_members;
        self.ff_block = src.ff_block;
        // Not `Option::clone_from`: its `None` arm moves a whole `Option<X>` (the general
        // automaton's size) even when both sides are `None`, as they are at almost every node
        // of a token mask's walk.
        match (&mut self.sub, &src.sub) {
            (Some(to), Some(from)) => to.clone_from(from),
            (to @ None, Some(from)) => *to = Some(from.clone()),
            (to @ Some(_), None) => *to = None,
            (None, None) => {}
        }
        self.dead = src.dead;
        self.general.clone_from(&src.general);
        if let (Some(d), Some(s)) = (self.frames.get_mut(..src.nf), src.frames.get(..src.nf)) {
            d.copy_from_slice(s);
        }
    }
}

/// Whether a resolved subschema can take a value of kind `bits` at its first byte.
fn accepts(node: &Node, bits: u8) -> bool {
    !node.none
        && node.void & bits == 0
        && node.types & bits != 0
        && (node.enum_types == 0 || node.enum_types & bits != 0)
        && !(bits == ty::OBJECT && node.crowded(0, 0, false))
}

/// What judges a value of kind `kind` under subschema `n`.
pub(super) enum Resolved {
    /// every value is valid
    Free,
    /// this plain subschema
    Node(u16),
    /// no branch of a union takes this kind of value
    Dead,
    /// a subschema the lean automaton cannot read
    General,
}

pub(super) fn resolve(prog: &Program, mut n: u16, bits: u8, budget: u32) -> Resolved {
    for _ in 0..64 {
        if n == NONE {
            return Resolved::Free;
        }
        let node = prog.node(n);
        if node.always {
            return Resolved::Free;
        }
        if node.never {
            return Resolved::Node(n);
        }
        match node.shape {
            shape::PLAIN => return Resolved::Node(n),
            shape::REF => match node.all_of.first() {
                Some(&t) => n = t,
                None => return Resolved::General,
            },
            shape::UNION if budget > 0 => {
                let branches = if node.any_of.is_empty() { node.one_of } else { node.any_of };
                for &b in branches {
                    match resolve(prog, b, bits, budget - 1) {
                        Resolved::Node(e) if accepts(prog.node(e), bits) => return Resolved::Node(e),
                        Resolved::Node(_) | Resolved::Dead => {}
                        other => return other,
                    }
                }
                return Resolved::Dead;
            }
            _ => return Resolved::General,
        }
    }
    Resolved::General
}

impl<const S: usize, const D: usize, X: Delegate> Lean<S, D, X> {
    /// No container open: copied whole from a constant (as an array built in place it was
    /// built beside the automaton and then copied).
    const NO_FRAMES: [Frame; D] = [Frame::EMPTY; D];

    /// The automaton at the start of a text.
    #[must_use]
    pub const fn new(prog: &'static Program) -> Self {
        Self {
            prog,
            pos: 0,
            lex: Lex::Value,
            depth: 0,
            objects: 0,
            in_obj: false,
            in_key: false,
            mode: Mode::Skip,
            key_escaped: false,
            frames: Self::NO_FRAMES,
            nf: 0,
            exact: true,
            root_valid: false,
            root_free: false,
            lazy: NONE,
            num_start: 0,
            num_exp: false,
            num_watch: ExpWatch::OFF,
            num_members: false,
            ff_block: 0,
            sub: None,
            // A schema no value satisfies: dead before any byte (the general automaton explains).
            dead: prog.never,
            general: None,
        }
    }

    /// The general automaton for the same program: what this one must agree with, death for
    /// death. Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub const fn reference(prog: &'static Program) -> Machine<S, D> {
        Machine::new(prog)
    }

    /// Whether the general automaton took over (never, when this one is right). For tests.
    #[doc(hidden)]
    #[must_use]
    pub const fn handed_over(&self) -> bool {
        self.general.is_some()
    }

    /// Whether the text is dead.
    #[must_use]
    pub fn is_dead(&self) -> bool {
        match &self.general {
            Some(m) => m.is_dead(),
            None => self.dead,
        }
    }

    /// Read `text[len..]`, `text` being all of the text so far. Returns `false` once the text
    /// is dead.
    #[inline]
    pub fn advance(&mut self, text: &[u8]) -> bool {
        if let Some(m) = &mut self.general {
            return m.advance(text);
        }
        if self.dead {
            return false;
        }
        if self.run(text) {
            return true;
        }
        if let Some(m) = &mut self.general {
            // Handed over mid-way: the general automaton reads the rest.
            return m.advance(text);
        }
        self.dead = true;
        false
    }

    /// Why the text is dead (`text` is all of it so far): the general automaton's explanation,
    /// from one run over the text. `None` when the text is alive after all (then the general
    /// automaton goes on from here).
    pub fn explain(&mut self, text: &[u8]) -> Option<Death> {
        if let Some(m) = &self.general {
            return m.death(text);
        }
        if !self.dead {
            return None;
        }
        let mut m = Machine::<S, D>::new(self.prog);
        if m.advance(text) {
            debug_assert!(
                false,
                "the lean automaton died where the general one lives: {:?}",
                String::from_utf8_lossy(text)
            );
            self.general = Some(Box::new(m));
            return None;
        }
        m.death(text)
    }

    /// The text has ended: `Ok(true)` valid, `Ok(false)` only a full check can tell.
    ///
    /// # Errors
    /// Why the text is not valid.
    pub fn finish(&mut self, text: &[u8]) -> Result<bool, Death> {
        if let Some(m) = &mut self.general {
            return m.finish(text);
        }
        let verdict = if self.dead {
            None
        } else {
            if let Lex::Num(st) = self.lex {
                let ends = self.depth == 0 && matches!(st, NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits);
                if ends && !self.end_number(text) {
                    self.dead = true;
                }
            }
            match (self.dead, self.lex, self.complete()) {
                (false, Lex::Done, Some(true)) => Some(true),
                (false, Lex::Done, None) => Some(false),
                _ => None,
            }
        };
        if let Some(v) = verdict {
            return Ok(v);
        }
        // Dead: the general automaton says why.
        self.dead = true;
        let mut m = Machine::<S, D>::new(self.prog);
        let _ = m.advance(text);
        let r = m.finish(text);
        if r.is_ok() {
            debug_assert!(
                false,
                "the lean automaton refused a text the general one accepts: {:?}",
                String::from_utf8_lossy(text)
            );
            self.general = Some(Box::new(m));
        }
        r
    }

    /// Whether the text read is one complete valid value, as far as the automaton knows (see
    /// [`Machine::complete`]).
    #[must_use]
    pub fn complete(&self) -> Option<bool> {
        if let Some(m) = &self.general {
            return m.complete();
        }
        if self.dead {
            return Some(false);
        }
        let done = match self.lex {
            Lex::Done => self.root_valid || self.root_free,
            Lex::Num(NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits) if self.depth == 0 => return None,
            _ => return Some(false),
        };
        if self.exact {
            Some(done)
        } else {
            None
        }
    }

    /// Inside a string whose characters are only counted or not looked at: its UTF-8 state and
    /// how many more characters are allowed (see [`Machine::plain_string`]).
    #[must_use]
    pub fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        if let Some(m) = &self.general {
            return m.plain_string();
        }
        if self.dead {
            return None;
        }
        if let Some(x) = &self.sub {
            return x.plain_string();
        }
        let utf = match self.lex {
            Lex::Str => (0, 0, 0),
            Lex::Utf8(need, lo, hi) => (need, lo, hi),
            _ => return None,
        };
        match self.mode {
            Mode::Skip => Some((utf, u64::MAX)),
            Mode::Key | Mode::Follow => None,
            Mode::Count => {
                let f = self.top()?;
                Some((utf, self.prog.node(f.node).max_length.saturating_sub(f.chars)))
            }
        }
    }

    fn top(&self) -> Option<&Frame> {
        self.nf.checked_sub(1).and_then(|i| self.frames.get(i))
    }

    fn top_mut(&mut self) -> Option<&mut Frame> {
        self.nf.checked_sub(1).and_then(|i| self.frames.get_mut(i))
    }

    // ---------------------------------------------------------------------------------------
    // The lexer: the general automaton's, with the schema layer for one subschema per value.

    /// Read what `text` has beyond `self.pos`; `false` when the text dies. A token at a time
    /// where it can: whitespace, a run of string characters, digits.
    fn run(&mut self, text: &[u8]) -> bool {
        loop {
            if let Some(x) = &mut self.sub {
                // A value handed over: read by its automaton up to its end.
                if !x.advance(text) {
                    return false;
                }
                let Some(end) = x.end() else {
                    self.pos = text.len();
                    return true;
                };
                self.exact &= x.exact();
                self.sub = None;
                self.pos = end;
                self.after_value();
                if !self.item_closed(text) {
                    return false;
                }
            }
            let Some(&b) = text.get(self.pos) else { return true };
            let alive = match self.lex {
                Lex::Str => self.string_part(text, b),
                Lex::Num(st) if b.is_ascii_digit() && self.num_watch.runs(st) && !self.num_members => {
                    let mut pos = self.pos + 1;
                    while text.get(pos).is_some_and(u8::is_ascii_digit) {
                        pos += 1;
                    }
                    self.pos = pos;
                    true
                }
                Lex::Value | Lex::ArrFirst | Lex::ObjFirst | Lex::Key | Lex::Colon | Lex::After | Lex::Done => {
                    // Whitespace between tokens, then the next token's first byte.
                    let mut pos = self.pos;
                    let mut b = b;
                    while is_ws(b) {
                        pos += 1;
                        match text.get(pos) {
                            Some(&c) => b = c,
                            None => {
                                self.pos = pos;
                                return true;
                            }
                        }
                    }
                    self.pos = pos;
                    self.structural(text, b)
                }
                _ => self.byte(text, b),
            };
            if !alive {
                return false;
            }
        }
    }

    /// Inside a string (`b` at `self.pos`): its plain characters at once, as far as they go and
    /// its subschema allows, then the byte that ends the run (the closing quote, mostly).
    fn string_part(&mut self, text: &[u8], b: u8) -> bool {
        if !is_plain(b) {
            return self.byte(text, b);
        }
        let end = match self.mode {
            Mode::Skip => plain_end(text, self.pos + 1),
            Mode::Count => {
                let end = plain_end(text, self.pos + 1);
                let n = (end - self.pos) as u64;
                let prog = self.prog;
                if let Some(f) = self.top_mut() {
                    f.chars += n;
                    if f.chars > prog.node(f.node).max_length {
                        return false;
                    }
                }
                end
            }
            Mode::Key => match self.key_run(text) {
                Some(end) => end,
                None => return false,
            },
            Mode::Follow => match self.value_run(text) {
                Some(end) => end,
                None => return false,
            },
        };
        self.pos = end;
        match text.get(end) {
            Some(&b'"') => {
                self.pos = end + 1;
                self.end_string(text, end)
            }
            Some(&c) if !is_plain(c) => self.byte(text, c),
            _ => true,
        }
    }

    /// Plain characters of a key matched against a closed object's names: where they end, or
    /// `None` when no name that may still come continues the key.
    fn key_run(&mut self, text: &[u8]) -> Option<usize> {
        let prog = self.prog;
        let mut pos = self.pos;
        let Some(f) = self.top_mut() else { return Some(plain_end(text, pos)) };
        let node = prog.node(f.node);
        let (mut cands, mut koff) = (f.cands, f.koff as usize);
        while let Some(&b) = text.get(pos) {
            if !is_plain(b) {
                break;
            }
            cands = narrow_byte(node.name_bytes, cands, koff, b);
            koff += 1;
            pos += 1;
            if cands == 0 {
                return None;
            }
        }
        f.cands = cands;
        f.koff = koff as u32;
        Some(pos)
    }

    /// Plain characters of a string value stepped on its `enum` strings and `pattern`: where
    /// they end, or `None` when the value can no longer be valid.
    fn value_run(&mut self, text: &[u8]) -> Option<usize> {
        let prog = self.prog;
        let mut pos = self.pos;
        let Some(f) = self.top_mut() else { return Some(plain_end(text, pos)) };
        let node = prog.node(f.node);
        while let Some(&b) = text.get(pos) {
            if !is_plain(b) {
                break;
            }
            pos += 1;
            if !step_char(node, f, b) {
                return None;
            }
        }
        if f.pdone && node.strings.is_none() {
            // The pattern is decided: only counting is left.
            self.mode = Mode::Count;
        }
        Some(pos)
    }

    /// One decoded byte of the current string (a value or a key).
    fn str_byte(&mut self, b: u8) -> bool {
        let prog = self.prog;
        let mode = self.mode;
        let Some(f) = self.top_mut() else { return true };
        let node = prog.node(f.node);
        match mode {
            Mode::Skip => true,
            Mode::Key => {
                f.cands = narrow_byte(node.name_bytes, f.cands, f.koff as usize, b);
                f.koff += 1;
                f.cands != 0
            }
            Mode::Count => {
                if b & 0xC0 != 0x80 {
                    f.chars += 1;
                }
                f.chars <= node.max_length
            }
            Mode::Follow => step_char(node, f, b),
        }
    }

    /// A code point decoded from an escape.
    fn str_char(&mut self, c: u32) -> bool {
        let mut buf = [0u8; 4];
        let Some(ch) = char::from_u32(c) else { return false };
        for &x in ch.encode_utf8(&mut buf).as_bytes() {
            if !self.str_byte(x) {
                return false;
            }
        }
        true
    }

    /// Inside an escape: `digits` hex digits of a UTF-16 unit read so far, with value `prefix`
    /// (none yet at the backslash); `high` is the high surrogate already read for a low one.
    /// Keep the names or `enum` strings whose next character can still be this escape; a
    /// `pattern` dies when no character the escape can still be keeps it alive.
    fn escape_narrow(&mut self, prefix: u16, digits: u8, high: Option<u16>) -> bool {
        let prog = self.prog;
        let mode = self.mode;
        let Some(f) = self.top_mut() else { return true };
        let node = prog.node(f.node);
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
        match mode {
            Mode::Skip => true,
            Mode::Key => {
                f.cands = filter_bits(f.cands, |i| node.names.get(i).is_some_and(|n| fits(n, f.koff)));
                f.cands != 0
            }
            Mode::Count | Mode::Follow => {
                if digits == 0 && high.is_none() && f.chars >= node.max_length {
                    return false;
                }
                if let (Some((p, _)), false) = (node.pattern, f.pdone) {
                    if !p.alive_escape(f.dfa, prefix, digits, high) {
                        return false;
                    }
                }
                if let Some(strings) = node.strings {
                    let koff = f.koff;
                    f.cands = filter_bits(f.cands, |i| strings.get(i).is_some_and(|n| fits(n, koff)));
                    return f.cands != 0;
                }
                true
            }
        }
    }

    /// One byte at `self.pos` on the full path. Returns `false` when the text is dead.
    #[allow(clippy::too_many_lines)]
    fn byte(&mut self, text: &[u8], b: u8) -> bool {
        let at = self.pos;
        match self.lex {
            Lex::Str => {
                self.pos += 1;
                match b {
                    b'"' => self.end_string(text, at),
                    b'\\' => {
                        self.lex = Lex::Esc;
                        self.key_escaped |= self.in_key;
                        // A character is certain now: `maxLength` and the names or members
                        // that end here can decide at the backslash.
                        self.escape_narrow(0, 0, None)
                    }
                    0..=0x1F => false,
                    0x20..=0x7F => self.str_byte(b),
                    _ => {
                        let Some((need, lo, hi)) = utf8_lead(b) else { return false };
                        self.lex = Lex::Utf8(need, lo, hi);
                        self.str_byte(b)
                    }
                }
            }
            Lex::Utf8(need, lo, hi) => {
                if b < lo || b > hi {
                    return false;
                }
                self.lex = if need > 1 { Lex::Utf8(need - 1, 0x80, 0xBF) } else { Lex::Str };
                self.pos += 1;
                self.str_byte(b)
            }
            Lex::Esc => {
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
                    _ => return false,
                };
                self.lex = Lex::Str;
                self.pos += 1;
                self.str_byte(d)
            }
            Lex::Hex(n, acc) => {
                let Some(d) = hex(b) else { return false };
                let acc = acc << 4 | d;
                self.pos += 1;
                if n < 3 {
                    if n == 1 && (0xDC..=0xDF).contains(&acc) {
                        return false;
                    }
                    self.lex = Lex::Hex(n + 1, acc);
                    return self.escape_narrow(acc, n + 1, None);
                }
                match acc {
                    0xDC00..=0xDFFF => false,
                    0xD800..=0xDBFF => {
                        // A high half: the characters beyond the BMP it begins.
                        self.lex = Lex::LowBs(acc);
                        self.escape_narrow(acc, 4, None)
                    }
                    _ => {
                        self.lex = Lex::Str;
                        self.str_char(u32::from(acc))
                    }
                }
            }
            Lex::LowBs(hi) => {
                self.lex = Lex::LowU(hi);
                self.pos += 1;
                b == b'\\'
            }
            Lex::LowU(hi) => {
                self.lex = Lex::LowHex(hi, 0, 0);
                self.pos += 1;
                b == b'u'
            }
            Lex::LowHex(hi, n, acc) => {
                let Some(d) = hex(b) else { return false };
                let acc = acc << 4 | d;
                self.pos += 1;
                if n < 3 {
                    if (n == 0 && acc != 0xD) || (n == 1 && !(0xDC..=0xDF).contains(&acc)) {
                        return false;
                    }
                    self.lex = Lex::LowHex(hi, n + 1, acc);
                    return self.escape_narrow(acc, n + 1, Some(hi));
                }
                if !(0xDC00..=0xDFFF).contains(&acc) {
                    return false;
                }
                self.lex = Lex::Str;
                self.str_char(0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(acc) - 0xDC00))
            }
            Lex::Lit(w, i) => {
                let word = WORDS.get(usize::from(w)).copied().unwrap_or(b"null");
                if word.get(usize::from(i)) != Some(&b) {
                    return false;
                }
                self.pos += 1;
                if usize::from(i) + 1 < word.len() {
                    self.lex = Lex::Lit(w, i + 1);
                    true
                } else {
                    self.close_scalar(text)
                }
            }
            Lex::Num(st) => {
                let next = num_step(st, b);
                if let Some(n) = next {
                    self.num_exp |= n == NumSt::Exp;
                    let number = text.get(self.num_start..=self.pos).unwrap_or_default();
                    match self.num_watch.step(n, number) {
                        ExpStep::Out => return false,
                        ExpStep::Moved | ExpStep::Narrowed if !self.within_bounds(number) => return false,
                        _ => {}
                    }
                    self.lex = Lex::Num(n);
                    self.pos += 1;
                    return !self.num_members || self.watch_members(number);
                }
                if matches!(st, NumSt::Minus | NumSt::Dot | NumSt::Exp | NumSt::ExpSign)
                    || st == NumSt::Zero && b.is_ascii_digit()
                {
                    return false;
                }
                // The number ended at the previous byte; this one is read after it (by the
                // caller's loop).
                self.end_number(text)
            }
            Lex::Value | Lex::ArrFirst | Lex::ObjFirst | Lex::Key | Lex::Colon | Lex::After | Lex::Done => {
                self.structural(text, b)
            }
        }
    }

    /// A byte between tokens (at `self.pos`): whitespace, punctuation, or a value's first byte.
    #[inline]
    fn structural(&mut self, text: &[u8], b: u8) -> bool {
        let at = self.pos;
        self.pos += 1;
        match self.lex {
            _ if is_ws(b) => true,
            Lex::Colon => {
                self.lex = Lex::Value;
                // The value mostly follows at once: its first byte is read here, not by
                // another turn of the loop.
                b == b':' && self.value_next(text)
            }
            Lex::After => {
                let object = self.in_object();
                match b {
                    b',' if object => {
                        self.lex = Lex::Key;
                        if !self.promise() {
                            return false;
                        }
                        // The next key's opening quote, mostly at once.
                        match next_token(text, self.pos) {
                            Some((p, b'"')) => {
                                self.pos = p + 1;
                                self.begin_key(p);
                            }
                            Some((p, _)) => self.pos = p,
                            None => self.pos = text.len(),
                        }
                        true
                    }
                    b',' => {
                        self.lex = Lex::Value;
                        self.promise() && self.value_next(text)
                    }
                    b'}' if object => self.close_container(text),
                    b']' if !object => self.close_container(text),
                    _ => false,
                }
            }
            Lex::ObjFirst | Lex::Key => {
                if b == b'}' && self.lex == Lex::ObjFirst {
                    return self.close_container(text);
                }
                if b != b'"' || (self.lex == Lex::ObjFirst && !self.promise()) {
                    return false;
                }
                self.begin_key(at);
                true
            }
            Lex::ArrFirst if b == b']' => self.close_container(text),
            Lex::ArrFirst => {
                // The first item begins.
                self.pos = at;
                self.promise() && (self.skip_complete(text, at, b) || self.begin_value(text, b, at))
            }
            Lex::Value => {
                self.pos = at;
                self.skip_complete(text, at, b) || self.begin_value(text, b, at)
            }
            // After the root value, or a state that is not between tokens (never called so).
            _ => false,
        }
    }

    /// After a `:`, or a `,` in an array: the next value's first byte, when the text has it.
    fn value_next(&mut self, text: &[u8]) -> bool {
        match next_token(text, self.pos) {
            Some((p, c)) => {
                self.pos = p;
                self.skip_complete(text, p, c) || self.begin_value(text, c, p)
            }
            None => {
                self.pos = text.len();
                true
            }
        }
    }

    fn in_object(&self) -> bool {
        self.in_obj
    }

    fn after_value(&mut self) {
        self.lex = if self.depth == 0 { Lex::Done } else { Lex::After };
    }

    /// The first byte of a value (at `at`).
    fn begin_value(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        self.item_begins(at);
        if is_literal_start(b) && !self.item_check(text, at + 1) {
            // A literal item that repeats an earlier one: known at its first letter.
            return false;
        }
        let kind = match b {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b'"' => Kind::String,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            b'-' | b'0'..=b'9' => Kind::Number,
            _ => return false,
        };
        let level = self.depth as usize;
        // Where values may be handed over, the subschema is resolved before the lexer reads the
        // first byte (the general automaton reads the value from it); elsewhere `push_value`
        // resolves it, which costs the lean-only schemas fewer instructions.
        let early = X::DELEGATES.then(|| self.judge(level, kind));
        if let (true, Some(Some((n, Resolved::General)))) = (level > 0, &early) {
            if let Some(x) = X::start(self.prog, *n, at, self.depth) {
                // Several subschemas speak of this value: the general automaton reads it.
                self.sub = Some(x);
                return true;
            }
        }
        self.pos += 1;
        match b {
            b'{' | b'[' => {
                if self.depth >= MAX_DEPTH {
                    return false;
                }
                if b == b'{' {
                    self.objects |= 1 << self.depth;
                } else {
                    self.objects &= !(1 << self.depth);
                }
                self.depth += 1;
                self.in_obj = b == b'{';
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
        }
        self.lazy = NONE;
        let pushed = match self.push_value(text, level, early, kind, b, at) {
            Push::Dead => return false,
            Push::Pushed => true,
            Push::Free => false,
        };
        if kind == Kind::Number {
            self.num_members = pushed
                && self.top().is_some_and(|f| {
                    let node = self.prog.node(f.node);
                    !node.numbers.is_empty() || node.integral()
                });
        }
        if kind == Kind::String {
            self.mode = Mode::Skip;
            if pushed {
                if let Some(f) = self.top() {
                    let node = self.prog.node(f.node);
                    if node.follows_chars() {
                        self.mode = if node.strings.is_none() && f.pdone { Mode::Count } else { Mode::Follow };
                    }
                }
            }
        }
        true
    }

    /// A value beginning at `at` (first byte `b`) that is complete within the text read: judged
    /// at once by its subschema's scan function ([`judge_complete`]), and skipped when valid.
    /// `false` when it is not complete, not valid, or not tried: then the automaton reads it
    /// byte by byte (and finds where it dies, if it does).
    fn skip_complete(&mut self, text: &[u8], at: usize, b: u8) -> bool {
        if at < self.ff_block {
            return false;
        }
        let level = self.depth as usize;
        let n = self.subschema(level).unwrap_or(NONE);
        match judge_complete(self.prog.node(n), text, at, b, self.depth) {
            // An item that repeats an earlier one is not skipped: read byte by byte, it dies
            // where it closes.
            Some(Ok(end)) if !self.repeats(text, at, end) => {
                self.pos = end;
                self.after_value();
                self.root_valid |= level == 0;
                true
            }
            Some(Ok(_)) => false,
            Some(Err(block)) => {
                self.ff_block = block;
                false
            }
            None => false,
        }
    }

    /// The subschema its parent (frame `level - 1`) applies to the value beginning at `level`.
    fn requested(&self, level: usize) -> Option<u16> {
        let parent = level.checked_sub(1).and_then(|l| self.frames.get(l))?;
        if !parent.children {
            return None;
        }
        let node = self.prog.node(parent.node);
        Some(match parent.kind {
            Kind::Object => match node.props.get(usize::from(parent.sel)) {
                Some(&n) => n,
                None => node.additional,
            },
            Kind::Array => match node.prefix.get(parent.count.saturating_sub(1) as usize) {
                Some(&n) => n,
                None => node.items,
            },
            _ => NONE,
        })
    }

    /// The subschema of a value beginning at `level`; `None` where nothing tracks the value.
    fn subschema(&self, level: usize) -> Option<u16> {
        if level != self.nf || level >= D {
            None
        } else if level == 0 {
            Some(self.prog.root)
        } else {
            self.requested(level)
        }
    }

    /// The subschema of a value of kind `kind` beginning at `level`, and what it resolves to.
    fn judge(&self, level: usize, kind: Kind) -> Option<(u16, Resolved)> {
        let n = self.subschema(level)?;
        if n != NONE {
            // The common case, inline: a plain subschema judges the value itself.
            let node = self.prog.node(n);
            if node.shape == shape::PLAIN && !node.always {
                return Some((n, Resolved::Node(n)));
            }
        }
        Some((n, resolve(self.prog, n, kind.bits(), 16)))
    }

    /// A value at `level` begins (kind `kind`, first byte `first` at `at`; `early`: its subschema
    /// as [`Lean::judge`] resolved it, if it was): give it a frame when its subschema still has
    /// something to decide.
    fn push_value(
        &mut self,
        text: &[u8],
        level: usize,
        early: Option<Option<(u16, Resolved)>>,
        kind: Kind,
        first: u8,
        at: usize,
    ) -> Push {
        let judge = match early {
            Some(judge) => judge,
            None => self.judge(level, kind),
        };
        let Some((_, resolved)) = judge else { return Push::Free };
        let bits = kind.bits();
        let e = match resolved {
            Resolved::Free if level > 0 && matches!(kind, Kind::Object | Kind::Array) => {
                // No subschema speaks of it, but its keys must not repeat (nor those of the
                // objects inside): a frame of the node that accepts everything (`NONE`), as the
                // general automaton keeps one without slots.
                let f = Frame { node: NONE, kind, children: level + 1 < D, start: at, ..Frame::EMPTY };
                let Some(slot) = self.frames.get_mut(level) else { return Push::Free };
                *slot = f;
                self.nf = level + 1;
                return Push::Pushed;
            }
            Resolved::Free => {
                self.root_free |= level == 0;
                return Push::Free;
            }
            Resolved::Dead => return Push::Dead,
            Resolved::Node(e) => e,
            Resolved::General => return self.hand_over(text),
        };
        let prog: &'static Program = self.prog;
        let node = prog.node(e);
        if node.shape == shape::GENERAL && !node.never {
            return self.hand_over(text);
        }
        if level > 0 && !matches!(kind, Kind::Object | Kind::Array) && node.types & bits != 0 {
            if node.type_only(bits) {
                // Decided by its type at this byte, and valid: no frame.
                return Push::Free;
            }
            if kind == Kind::Number
                && node.bounds.is_some()
                && node.in_place_free()
                && !(first == b'-' && node.negative.is_some())
                && !node.integral()
            {
                // Only bounds to judge, nothing dies at this byte: decided at the end.
                self.lazy = e;
                return Push::Free;
            }
        }
        // First-byte checks.
        let literal = match first {
            b't' => 2,
            b'f' => 4,
            _ => 1,
        };
        if node.none
            || node.void & bits != 0
            || node.types & bits == 0
            || (node.enum_types != 0 && node.enum_types & bits == 0)
            || (node.enum_types != 0 && matches!(kind, Kind::Bool | Kind::Null) && node.literals & literal == 0)
            || (first == b'-' && node.negative.is_some())
            || (kind == Kind::Number && !node.number_may_live(&[first]))
            || (kind == Kind::Object && node.crowded(0, 0, false))
        {
            return Push::Dead;
        }
        let mut f = Frame { node: e, kind, children: level + 1 < D, start: at, ..Frame::EMPTY };
        if kind == Kind::String {
            f.cands = node.strings.map_or(0, |x| all_bits(x.len()));
            if let Some(s) = node.pattern.and_then(|(p, _)| p.start()) {
                f.dfa = s;
                f.pdone = false;
            }
        }
        let Some(slot) = self.frames.get_mut(level) else { return Push::Free };
        *slot = f;
        self.nf = level + 1;
        Push::Pushed
    }

    /// A byte of a number whose frame watches its `enum`/`const` numbers, or the least integer
    /// it may still read as (`number`: its text so far, that byte included): whether a member is
    /// still reachable, and an integer within the bounds. Past [`members::WATCHED`] bytes the
    /// number is left to its end.
    fn watch_members(&mut self, number: &[u8]) -> bool {
        if number.len() > members::WATCHED {
            self.num_members = false;
            return true;
        }
        self.top().is_none_or(|f| self.prog.node(f.node).number_may_live(number))
    }

    /// A byte of a number's exponent that moved the least magnitude the number may still take
    /// (`number`: its text so far, that byte included): whether its subschema's bounds and
    /// `multipleOf` still allow it ([`Node::outgrown`](super::program::Node::outgrown)).
    #[cold]
    fn within_bounds(&self, number: &[u8]) -> bool {
        // The subschema of a number that got no frame, else that of the number's frame.
        let n = if self.lazy != NONE {
            self.lazy
        } else {
            match self.top() {
                Some(f) if self.nf == self.depth as usize + 1 => f.node,
                _ => return true,
            }
        };
        !self.prog.node(n).outgrown(number)
    }

    /// A subschema this automaton cannot read: the general automaton reads the text up to here
    /// and goes on from it (a safety net: the macro chooses this automaton only where it never
    /// happens). Stops this automaton's run.
    fn hand_over(&mut self, text: &[u8]) -> Push {
        debug_assert!(false, "the lean automaton met a subschema it cannot read");
        let mut m = Machine::<S, D>::new(self.prog);
        let _ = m.advance(text.get(..self.pos).unwrap_or(text));
        self.general = Some(Box::new(m));
        Push::Dead
    }

    /// A member or item is promised (the first one, or by a `,`).
    fn promise(&mut self) -> bool {
        let level = self.depth as usize - 1;
        let object = self.in_object();
        if level + 1 > self.nf {
            if object && self.lex == Lex::Key {
                // A second member of an object nobody follows: its keys are compared at the end.
                self.exact = false;
            }
            return true;
        }
        let prog = self.prog;
        let Some(f) = self.frames.get_mut(level) else { return true };
        f.count += 1;
        let node = prog.node(f.node);
        if object {
            // One more member where every declared property is present and no other is
            // allowed can only be a repeat or undeclared.
            u64::from(f.count) <= node.max_props
                && !node.crowded(f.count, f.seen, true)
                && !(node.closed && node.patterns.is_empty() && all_bits(node.props.len()) & !f.seen == 0)
        } else {
            u64::from(f.count) <= node.max_items
        }
    }

    /// The opening quote of a key (at `at`) was read.
    fn begin_key(&mut self, at: usize) {
        self.lex = Lex::Str;
        self.in_key = true;
        self.mode = Mode::Skip;
        self.key_escaped = false;
        let level = self.depth as usize - 1;
        if level + 1 != self.nf {
            return;
        }
        let prog = self.prog;
        let Some(f) = self.frames.get_mut(level) else { return };
        let node = prog.node(f.node);
        f.ks = at;
        f.koff = 0;
        f.sel = NONE;
        // Followed byte by byte only where a key can die before it closes.
        f.kfollow = node.closed && node.patterns.is_empty();
        // The names the key may still be: declared and not yet present (under
        // `additionalProperties: false`, any other key is dead when it closes, as it would be
        // as a repeat or an undeclared name).
        f.cands = if f.kfollow { all_bits(node.props.len()) & !f.seen } else { 0 };
        if f.kfollow {
            self.mode = Mode::Key;
        }
    }

    /// The closing quote of a string (at `at`).
    fn end_string(&mut self, text: &[u8], at: usize) -> bool {
        if !self.in_key {
            return self.close_scalar(text);
        }
        self.in_key = false;
        self.lex = Lex::Colon;
        let level = self.depth as usize - 1;
        if level >= self.nf {
            return true;
        }
        let prog: &'static Program = self.prog;
        let escaped = self.key_escaped;
        let Some(f) = self.frames.get_mut(level) else { return true };
        let node = prog.node(f.node);
        let key_text = text.get(f.ks..=at).unwrap_or(b"\"\"");
        let sel = if f.kfollow {
            exact_name(f.cands, node.names, f.koff)
        } else if escaped {
            let decoded = std::str::from_utf8(key_text).ok().and_then(|t| Scanner::new(t).string().ok());
            match decoded {
                Some(k) => node.names.iter().position(|n| k.eq_str(n)).map_or(NONE, |x| x as u16),
                None => NONE,
            }
        } else {
            let raw = key_text.get(1..key_text.len().saturating_sub(1)).unwrap_or_default();
            let all = narrow_run(node.name_bytes, all_bits(node.names.len()), 0, raw);
            exact_name(all, node.names, raw.len() as u32)
        };
        f.sel = sel;
        // A member that leaves no room for the `required` names still missing.
        if node.crowded(f.count, f.seen | 1u128.checked_shl(u32::from(sel)).unwrap_or(0), false) {
            return false;
        }
        if sel == NONE {
            if node.closed {
                return false;
            }
            // An undeclared key: compared with the object's earlier keys (read again from the
            // text when their filter says it may repeat one); past the filter's use, at the end.
            f.undeclared += 1;
            let repeated =
                if f.undeclared > KeyFilter::USEFUL { None } else { f.keys.repeated(text, f.start, f.ks, at) };
            return match repeated {
                Some(repeated) => !repeated,
                None => {
                    self.exact = false;
                    true
                }
            };
        }
        let bit = 1u128 << sel;
        if f.seen & bit != 0 {
            // A duplicate key.
            return false;
        }
        f.seen |= bit;
        // (A property whose subschema is `false`: dead here, as in the general automaton.)
        (!node.closed || usize::from(sel) < node.props.len()) && node.forbidden & bit == 0
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
        ok && self.close_scalar(text)
    }

    /// A string, number or literal value closed (its last byte is before `self.pos`).
    fn close_scalar(&mut self, text: &[u8]) -> bool {
        self.after_value();
        let level = self.depth as usize;
        if self.lazy != NONE {
            let node = self.prog.node(std::mem::replace(&mut self.lazy, NONE));
            let span = text.get(self.num_start..self.pos).unwrap_or_default();
            if !node.number_ok(span, || number_literal(span)) {
                return false;
            }
        }
        if self.nf == level + 1 && !self.close_frame(text, level) {
            return false;
        }
        self.item_closed(text)
    }

    /// A `]` or `}` closed the innermost container.
    fn close_container(&mut self, text: &[u8]) -> bool {
        self.depth -= 1;
        self.in_obj = self.depth > 0 && self.objects >> (self.depth - 1) & 1 == 1;
        self.after_value();
        let level = self.depth as usize;
        if self.nf == level + 1 && !self.close_frame(text, level) {
            return false;
        }
        self.item_closed(text)
    }

    /// The array around the value beginning at `at` (if it is followed and has `uniqueItems`):
    /// its current item begins there.
    fn item_begins(&mut self, at: usize) {
        if let Some(f) = self.unique_parent() {
            f.ks = at;
        }
    }

    /// The frame of the followed array with `uniqueItems` around the current value, if it is
    /// one.
    fn unique_parent(&mut self) -> Option<&mut Frame> {
        let prog: &'static Program = self.prog;
        let l = (self.depth as usize).checked_sub(1).filter(|&l| l < self.nf)?;
        self.frames.get_mut(l).filter(|f| f.kind == Kind::Array && prog.node(f.node).unique)
    }

    /// A value closed before `self.pos`: an item of a followed array with `uniqueItems` that
    /// equals an earlier item is dead here (as the general automaton has it).
    fn item_closed(&mut self, text: &[u8]) -> bool {
        let end = self.pos;
        match self.unique_parent() {
            // (A literal was compared at its first letter.)
            Some(f) if is_literal_start(text.get(f.ks).copied().unwrap_or(0)) => true,
            Some(f) => !f.items.repeated(text, f.start, f.ks, end),
            None => true,
        }
    }

    /// A literal item begins at the parent's `ks` (`end` after its first letter, which decides
    /// it): whether it repeats no earlier item, as [`Lean::item_closed`] has it for the others.
    fn item_check(&mut self, text: &[u8], end: usize) -> bool {
        self.unique_parent().is_none_or(|f| !f.items.repeated(text, f.start, f.ks, end))
    }

    /// Whether the value `text[at..end]`, complete, is an item of a followed array with
    /// `uniqueItems` that equals an earlier item. The array's filter takes it only when it does
    /// not (one that does is read again byte by byte, and taken where it closes, as it would
    /// be had it not been complete).
    fn repeats(&mut self, text: &[u8], at: usize, end: usize) -> bool {
        let Some(f) = self.unique_parent() else { return false };
        let mut items = f.items;
        if items.repeated(text, f.start, at, end) {
            return true;
        }
        (f.items, f.ks) = (items, at);
        false
    }

    /// The value of frame `level` closed: its exact verdict.
    fn close_frame(&mut self, text: &[u8], level: usize) -> bool {
        self.nf = level;
        let Some(f) = self.frames.get(level) else { return true };
        if !self.verdict(f, text) {
            return false;
        }
        self.root_valid |= level == 0;
        true
    }

    /// The exact verdict of frame `f`'s subschema on its value, which just closed.
    fn verdict(&self, f: &Frame, text: &[u8]) -> bool {
        let node = self.prog.node(f.node);
        if node.always {
            // A container no subschema speaks of: nothing to judge (its syntax, duplicate keys
            // included, is the lexer's and its frames').
            return true;
        }
        let kb = f.kind.bits();
        let container = matches!(f.kind, Kind::Array | Kind::Object);
        let from_state = if container {
            !node.lookback && f.children
        } else {
            node.scalar & kb == kb && (node.pattern.is_none() || !f.pdone || f.pmatch)
        };
        let span = text.get(f.start..self.pos).unwrap_or_default();
        if !from_state {
            if f.kind == Kind::Number {
                // A short number literal against bounds: decided here, as the scan would.
                return node.number_ok(span, || number_literal(span));
            }
            return node.scan_text(span);
        }
        match f.kind {
            Kind::Object => {
                node.required & !f.seen == 0
                    && u64::from(f.count) >= node.min_props
                    && node.dep_required.iter().all(|&(k, need)| f.seen >> k & 1 == 0 || need & !f.seen == 0)
            }
            Kind::Array => u64::from(f.count) >= node.min_items,
            Kind::String => {
                f.chars >= node.min_length
                    && node.strings.is_none_or(|s| exact_name(f.cands, s, f.koff) != NONE)
                    && node.pattern.is_none_or(|(p, _)| f.pmatch || p.matches_at_end(f.dfa))
            }
            _ => true,
        }
    }
}

/// How far [`judge_complete`] looks for a container's end.
pub(super) const WINDOW: usize = 128;

/// An array or object beginning at `at` (first byte `b`, `depth` containers deep) under subschema
/// `node`, judged at once by the subschema's scan function (what `is_valid_json` runs, exact)
/// when it is complete within the next [`WINDOW`] bytes of `text`: `Ok(end)` when it is, and
/// valid; `Err(block)` when the try failed (incomplete or invalid: values beginning before
/// `block` are not worth trying); `None` when not tried (a scalar, too little text, a value with
/// no closer of its kind within the window, or a root, `depth` 0, that the text does not end
/// with a closer of its kind: a root is valid only with nothing but whitespace after it, and the
/// readers find where a root followed by more dies).
///
/// Only that window is tried: no scan function allocates on that little text (they do beyond 64
/// members or items, or 256 bytes of escaped string), and a failed try costs little. After a
/// failed try that read `r` bytes, values beginning within the next `r / 4` bytes are not tried,
/// so failed tries read fewer than five times the text in all.
pub(super) fn judge_complete(node: &Node, text: &[u8], at: usize, b: u8, depth: u32) -> Option<Result<usize, usize>> {
    // Only arrays and objects with room to close: a scalar costs the readers little, and a
    // container cut by the end of a short fragment would be read twice.
    let window = text.get(at..text.len().min(at + WINDOW))?;
    if window.len() < 32 || !matches!(b, b'{' | b'[') {
        return None;
    }
    // Not complete without a closer of its kind within the window: a cheap search from the end
    // (where a complete reply has its closer), where a failed try reads the value as far as the
    // window goes (`}` and `]` are `{` and `[` plus 2). The root must be the text's last token:
    // a fragment cut after a nested value's closer is not tried.
    let closer = b + 2;
    if depth == 0 {
        if text.iter().rev().find(|&&c| !is_ws(c)) != Some(&closer) {
            return None;
        }
    } else if !window.iter().rev().any(|&c| c == closer) {
        return None;
    }
    let t = match std::str::from_utf8(window) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(window.get(..e.valid_up_to())?).ok()?,
    };
    let mut sc = Scanner::nested(t, depth);
    let ok = if node.always { sc.skip_value() } else { (node.scan)(&mut sc) };
    let stop = sc.pos();
    if ok.is_ok() {
        Some(Ok(at + stop))
    } else {
        Some(Err(at + stop / 4 + 1))
    }
}

/// The first byte after whitespace from `p`, and where it is.
#[inline]
pub(super) fn next_token(text: &[u8], mut p: usize) -> Option<(usize, u8)> {
    while let Some(&c) = text.get(p) {
        if !is_ws(c) {
            return Some((p, c));
        }
        p += 1;
    }
    None
}

/// One decoded byte of a string value stepped by its subschema: its characters counted, its
/// `enum` strings narrowed, its pattern stepped. `false` when the value can no longer be valid.
#[inline]
fn step_char(node: &Node, f: &mut Frame, b: u8) -> bool {
    if b & 0xC0 != 0x80 {
        f.chars += 1;
        if f.chars > node.max_length {
            return false;
        }
    }
    if node.strings.is_some() {
        f.cands = narrow_byte(node.string_bytes, f.cands, f.koff as usize, b);
        f.koff += 1;
        if f.cands == 0 {
            return false;
        }
    }
    if let (Some((p, _)), false) = (node.pattern, f.pdone) {
        let (next, how) = p.step(f.dfa, b);
        f.dfa = next;
        match how {
            Stepped::Live => {}
            Stepped::Matched => {
                f.pdone = true;
                f.pmatch = true;
            }
            Stepped::Unknown => f.pdone = true,
            Stepped::Dead => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{judge_complete, Node};

    /// A container complete within reach is judged whole; one cut by the text's end within the
    /// window is not tried when no closer of its kind follows it, and is tried (and fails) when
    /// one does (a nested value's), except at the root, tried only when the text ends with its
    /// closer; short text is not tried.
    #[test]
    fn judge_complete_tries_only_what_can_be_complete() {
        let any = &Node::ALWAYS;
        let judge = |text: &str| judge_complete(any, text.as_bytes(), 0, text.as_bytes()[0], 0);
        let nested_judge = |text: &str| judge_complete(any, text.as_bytes(), 0, text.as_bytes()[0], 1);
        let object = r#"{"a": [1, 2, 3], "b": "a string of some length"}"#;
        let array = r#"[1, 2, 3, "a string of some length", {"k": 0}]"#;
        for whole in [object, array] {
            assert_eq!(judge(whole), Some(Ok(whole.len())), "{whole}");
            // Cut before its closer: no closer of its kind anywhere after it.
            let cut = &whole[..whole.len() - 1];
            let closer = if whole.starts_with('{') { '}' } else { ']' };
            assert!(!cut.contains(closer), "{cut}");
            assert_eq!(judge(cut), None, "{cut}");
        }
        // A nested object's closer: tried, and failed, below the root; the root is only tried
        // when the text ends with its closer.
        let nested = r#"{"a": {"b": 1}, "c": "a string of some length"#;
        assert!(matches!(nested_judge(nested), Some(Err(_))), "{nested}");
        assert_eq!(judge(nested), None, "{nested}");
        let ends = r#"{"a": {"b": 1}, "c": "a string of some length"} "#;
        assert_eq!(judge(ends), Some(Ok(ends.len() - 1)), "{ends}");
        let more = r#"{"a": {"b": 1}, "c": "a string of some length"} 1"#;
        assert_eq!(judge(more), None, "{more}");
        assert_eq!(nested_judge(more), Some(Ok(more.len() - 2)), "{more}");
        // The array's closer does not count for an object.
        let other = r#"{"a": [1, 2], "c": "a string of some length"#;
        assert_eq!(nested_judge(other), None, "{other}");
        // A full window without a closer: not tried (it cannot close within it).
        let long = format!(r#"{{"a": "{}"#, "x".repeat(200));
        assert_eq!(nested_judge(&long), None, "{long}");
        // A full window with one, not the value's own: tried, and failed.
        let long = format!(r#"{{"a": {{}}, "b": "{}"#, "x".repeat(200));
        assert!(matches!(nested_judge(&long), Some(Err(_))), "{long}");
        // Too little text: not tried.
        assert_eq!(judge(r#"{"a": 1}"#), None);
    }
}
