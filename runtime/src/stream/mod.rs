//! Judging tool-call arguments while they stream: [`Stream`], [`Progress`], [`Dead`]; showing
//! what they stand for so far: [`PartialValue`], [`partial_value`].
//!
//! ```
//! use toolgate::{tool_schema, Progress, Tool};
//!
//! tool_schema! {
//!     /// Read a file.
//!     pub struct ReadFile = {
//!         "type": "object",
//!         "properties": {
//!             "path": {"type": "string"},
//!             "max_lines": {"type": "integer", "minimum": 1}
//!         },
//!         "required": ["path"],
//!         "additionalProperties": false
//!     };
//! }
//!
//! let mut s = ReadFile::stream();
//! assert!(matches!(s.feed(br#"{"path": "notes.txt", "max_li"#), Progress::Alive));
//! let Progress::Dead(d) = s.feed(br#"nes": "ten"}"#) else { panic!("a string is never an integer") };
//! assert_eq!(d.offset, 35); // the opening quote of "ten": no continuation can be valid
//! assert_eq!(d.error.to_string(), "/max_lines: expected integer, found string \"…");
//!
//! let mut s = ReadFile::stream();
//! for piece in [&br#"{"pa"#[..], br#"th": "a.txt""#, b"}"] {
//!     assert!(matches!(s.feed(piece), Progress::Alive));
//! }
//! assert!(s.finish().is_ok());
//! assert_eq!(s.into_tool().unwrap().path, "a.txt");
//! ```
//!
//! How it works, what is decided when, and what it costs: the README's "Streaming" section.

#[doc(hidden)]
pub mod bounds;
#[doc(hidden)]
pub mod flat;
#[doc(hidden)]
pub mod lean;
#[doc(hidden)]
pub mod machine;
mod mask;
#[doc(hidden)]
pub mod members;
mod over;
mod partial;
#[doc(hidden)]
pub mod program;
#[doc(hidden)]
pub mod quick;
mod state;

use std::fmt;

use crate::report::Sink;
use crate::violation::{Error, Violation};
use crate::Tool;

use lean::Lean;
pub use machine::Death as Dead;
use machine::Machine;
pub use mask::{TokenMask, Vocabulary};
pub use over::TextStream;
pub use partial::{partial_value, PartialValue};
use program::Program;
use quick::Quick;
use state::State;

/// What the text read so far allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Some continuation of the text can still be valid (it may be valid already).
    Alive,
    /// No continuation can be valid: stop the generation.
    Dead(Dead),
}

impl Progress {
    /// Whether the text is dead.
    #[must_use]
    pub const fn is_dead(&self) -> bool {
        matches!(self, Self::Dead(_))
    }
}

impl Dead {
    /// The violation, when the text broke the schema (rather than the JSON syntax).
    #[must_use]
    pub fn violation(&self) -> Option<&Violation> {
        self.error.violations().and_then(|v| v.iter().next())
    }
}

impl fmt::Display for Dead {
    /// `at byte 37: /max_lines: expected integer, found string "…`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.error)
    }
}

impl std::error::Error for Dead {}

/// The prefix automaton of a tool, as the macro sized it. Not public API.
#[doc(hidden)]
pub trait Automaton: Clone + fmt::Debug + Send + Sync + 'static {
    /// The automaton at the start of a text.
    fn start(prog: &'static Program) -> Self;
    /// The general automaton of the same program, which this one agrees with death for death
    /// (itself, for the general automaton): for tests.
    type Reference: Automaton;
    /// Whether this is the lean automaton.
    const LEAN: bool = false;
    /// Whether a stream reads with its quick reader first (where the lean automaton reads it).
    const QUICK: bool = false;
    /// What the lean automaton hands a value to that several subschemas speak of (the quick
    /// reader does the same).
    type Sub: lean::Delegate;
    /// Read what `text` has beyond what was read; `false` once dead.
    fn advance(&mut self, text: &[u8]) -> bool;
    /// The text ended.
    ///
    /// # Errors
    /// Why the text is invalid.
    fn finish(&mut self, text: &[u8]) -> Result<bool, Dead>;
    /// Whether the text read is a complete valid value, if known without a full check.
    fn complete(&self) -> Option<bool>;
    /// Whether the text is dead.
    fn is_dead(&self) -> bool;
    /// Why the text (all of it so far: `text`) is dead; `None` if it is alive after all.
    fn explain(&mut self, text: &[u8]) -> Option<Dead>;
    /// Whether the lean automaton handed over to the general one (for tests: never).
    fn handed_over(&self) -> bool {
        false
    }
    /// Inside a string whose characters are only counted: its UTF-8 state and the characters
    /// still allowed.
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)>;
    /// The size of the state in bytes.
    fn size() -> usize {
        std::mem::size_of::<Self>()
    }
}

impl<const S: usize, const D: usize> Automaton for Machine<S, D> {
    type Reference = Self;
    type Sub = lean::Whole;
    fn start(prog: &'static Program) -> Self {
        Self::new(prog)
    }
    #[inline]
    fn advance(&mut self, text: &[u8]) -> bool {
        Self::advance(self, text)
    }
    fn finish(&mut self, text: &[u8]) -> Result<bool, Dead> {
        Self::finish(self, text)
    }
    fn complete(&self) -> Option<bool> {
        Self::complete(self)
    }
    fn is_dead(&self) -> bool {
        Self::is_dead(self)
    }
    fn explain(&mut self, text: &[u8]) -> Option<Dead> {
        self.death(text)
    }
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        Self::plain_string(self)
    }
}

impl<const S: usize, const D: usize, X: lean::Delegate> Automaton for Lean<S, D, X> {
    type Reference = Machine<S, D>;
    const LEAN: bool = true;
    const QUICK: bool = true;
    type Sub = X;
    fn start(prog: &'static Program) -> Self {
        Self::new(prog)
    }
    #[inline]
    fn advance(&mut self, text: &[u8]) -> bool {
        Self::advance(self, text)
    }
    fn finish(&mut self, text: &[u8]) -> Result<bool, Dead> {
        Self::finish(self, text)
    }
    fn complete(&self) -> Option<bool> {
        Self::complete(self)
    }
    fn is_dead(&self) -> bool {
        Self::is_dead(self)
    }
    fn explain(&mut self, text: &[u8]) -> Option<Dead> {
        Self::explain(self, text)
    }
    fn handed_over(&self) -> bool {
        Self::handed_over(self)
    }
    fn plain_string(&self) -> Option<((u8, u8, u8), u64)> {
        Self::plain_string(self)
    }
}

/// A stream's first reader, in front of its automaton: the quick reader (`quick.rs`), or the
/// flat reader the macro emits for a flat tool (`flat.rs`). Not public API.
///
/// It reads the text while the text is ordinary and answers only "alive for certain"; at
/// anything else it stops, and the automaton, which has read nothing yet, reads the whole text so
/// far and goes on from there.
#[doc(hidden)]
pub trait Reader: Clone + fmt::Debug + Send + Sync + 'static {
    /// Whether this is the flat reader.
    const FLAT: bool = false;
    /// The reader at the start of a text; `on`: whether it reads (else the automaton reads from
    /// the start).
    fn new(on: bool) -> Self;
    /// Whether it still reads (`false`: the automaton reads).
    fn on(&self) -> bool;
    /// Stop reading (the automaton reads from here).
    fn stop(&mut self);
    /// One more byte `b`, the text's last (a fragment of one byte): `true` when it took it;
    /// `false` when [`Reader::read`] must read on from where this left the reader.
    fn one_byte(&mut self, prog: &'static Program, text: &[u8], b: u8) -> bool;
    /// Read what `text` (all of the text so far) has beyond what was read: `true` when it is
    /// alive for certain; `false` when the automaton must read it (then the reader is done).
    /// `from`: the text's length before the fragment being read (a reader that keeps no position
    /// of its own, having read all before it, begins there).
    fn read(&mut self, prog: &'static Program, text: &[u8], from: usize) -> bool;
    /// Before [`Reader::read`]: where a fragment (from `from` to `text`'s end) goes on a string
    /// of plain characters, read that run at once; where [`Reader::read`] reads on from (`from`
    /// itself when there is no such run).
    #[inline(always)]
    fn plain_run(&mut self, _text: &[u8], from: usize) -> usize {
        from
    }
    /// The text ended: `true` when it is valid for certain; `false` when the automaton must
    /// decide (then the reader is done).
    fn finish(&mut self, text: &[u8]) -> bool;
    /// Whether the text read is one complete valid value (`None`: not known here).
    fn complete(&self) -> Option<bool>;
    /// Whether the general automaton reads the value the text is in.
    fn delegating(&self) -> bool;
}

impl<X: lean::Delegate> Reader for Quick<X> {
    fn new(on: bool) -> Self {
        Self::new(on)
    }
    #[inline(always)]
    fn on(&self) -> bool {
        self.on
    }
    fn stop(&mut self) {
        self.on = false;
    }
    #[inline(always)]
    fn one_byte(&mut self, prog: &'static Program, text: &[u8], b: u8) -> bool {
        Self::one_byte(self, prog, text, b)
    }
    #[inline(always)]
    fn read(&mut self, prog: &'static Program, text: &[u8], _: usize) -> bool {
        Self::read(self, prog, text)
    }
    fn finish(&mut self, text: &[u8]) -> bool {
        Self::finish(self, text)
    }
    fn complete(&self) -> Option<bool> {
        Self::complete(self)
    }
    fn delegating(&self) -> bool {
        Self::delegating(self)
    }
}

/// Arguments of tool `T` as they stream in: feed fragments, learn at the first hopeless byte
/// that no continuation can be valid, and get the typed value at the end.
///
/// The automaton is a fixed-size value sized by the macro (no heap; see
/// [`Stream::automaton_size`]), with a first reader in front of it (the quick reader, or the
/// flat reader the macro emits for a flat tool) that reads ordinary text at less cost and hands
/// the text to the automaton at anything else (the same answers; README, "Streaming"); the
/// stream also keeps the text it was fed, which some keywords read back when a value closes
/// (scalars, `uniqueItems`, `enum` of arrays and objects) and which
/// [`Stream::into_tool`] turns into `T`. Create it with [`Stream::with_capacity`] and feeding
/// allocates nothing until the text is dead. A caller that keeps the text itself can use a
/// [`TextStream`] instead, which reads the caller's text rather than copying it.
pub struct Stream<T: Tool> {
    s: State<T>,
    text: Vec<u8>,
}

impl<T: Tool> Clone for Stream<T> {
    fn clone(&self) -> Self {
        Self { s: self.s.clone(), text: self.text.clone() }
    }
}

impl<T: Tool> fmt::Debug for Stream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stream")
            .field("tool", &T::NAME)
            .field("read", &self.text.len())
            .field("dead", &self.s.dead())
            .finish_non_exhaustive()
    }
}

impl<T: Tool> Default for Stream<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Tool> Stream<T> {
    /// A stream at the start of the arguments' text.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// A stream whose text buffer holds `bytes` before it grows: feeding that much allocates
    /// nothing.
    #[must_use]
    pub fn with_capacity(bytes: usize) -> Self {
        // The buffer first: the state built after the allocator's call is written in place
        // (built before it, it was copied, 88 instructions).
        let text = Vec::with_capacity(bytes);
        Self { s: State::new(), text }
    }

    /// Back to the start of a new text, as [`Stream::new`] but keeping the text buffer's
    /// capacity: a stream reset before each reply allocates nothing once its buffer has held
    /// the longest (nor does the reset).
    pub fn reset(&mut self) {
        self.s = State::new();
        self.text.clear();
    }

    /// Feed the next fragment (split anywhere: inside a character, an escape, a number).
    ///
    /// After [`Progress::Dead`] the stream stays dead and ignores what it is fed; after
    /// [`Stream::finish`] it ignores what it is fed too. Neither panics.
    #[inline(always)]
    pub fn feed(&mut self, bytes: &[u8]) -> Progress {
        // A fragment of one byte that the first reader takes on its short way is answered here,
        // in the caller's code. Where a compiler chose to call `feed` instead of inlining it
        // all (a caller that feeds from two places), 1-byte fragments cost up to a quarter more.
        // A fragment of up to `SHORT` bytes (a model's token) is read byte by byte on the same
        // short way, as if each byte were a fragment of its own (the answer does not depend on
        // how a text is split), in a loop of its own here too: behind a call, 2-byte fragments
        // cost a third more instructions than 1-byte ones; one loop for both cost 1-byte
        // fragments a tenth more.
        if let [b] = bytes {
            if self.s.short {
                self.text.push(*b);
                if self.s.one_byte(&self.text, *b) {
                    return Progress::Alive;
                }
                return self.s.read_byte(&self.text);
            }
        }
        if bytes.len() <= SHORT && self.s.short {
            for (i, &b) in bytes.iter().enumerate() {
                self.text.push(b);
                if !self.s.one_byte(&self.text, b) {
                    return self.short_rest(bytes, i);
                }
            }
            return Progress::Alive;
        }
        self.feed_any(bytes)
    }

    /// [`Stream::feed`] of a fragment of up to [`SHORT`] bytes, from its byte `i` that the first
    /// reader's short way did not take: the rest of the fragment, the long way.
    #[inline(never)]
    fn short_rest(&mut self, bytes: &[u8], i: usize) -> Progress {
        self.text.extend_from_slice(bytes.get(i + 1..).unwrap_or_default());
        self.s.read_byte(&self.text)
    }

    /// [`Stream::feed`] of any fragment.
    #[inline(always)]
    fn feed_any(&mut self, bytes: &[u8]) -> Progress {
        if !self.s.open {
            return self.s.progress();
        }
        let from = self.text.len();
        self.text.extend_from_slice(bytes);
        self.s.read(&self.text, from)
    }

    /// Feed the whole text so far (what the caller has accumulated): the part beyond what this
    /// stream has read is fed.
    ///
    /// The part already read must be unchanged. Its last [`Stream::FEED_TEXT_CHECKED`] bytes
    /// are compared with `so_far` (all of it would be read again at every call, a cost
    /// quadratic in the text's length): where they differ, or where `so_far` is shorter than
    /// what was read, nothing is fed and the answer is [`Progress::Dead`] with a syntax error
    /// at the first byte that differs, the stream itself unchanged. A change further back is
    /// not seen: the stream judges, and [`Stream::into_tool`] builds from, the bytes it read.
    /// (A [`TextStream`] keeps no copy to compare with, and costs less.)
    pub fn feed_text(&mut self, so_far: &[u8]) -> Progress {
        let read = self.text.len();
        let from = read.saturating_sub(Self::FEED_TEXT_CHECKED);
        let tail = self.text.get(from..).unwrap_or_default();
        let again = so_far.get(from..).unwrap_or_default();
        if again.get(..tail.len()) != Some(tail) {
            let same = tail.iter().zip(again).take_while(|(a, b)| a == b).count();
            return Progress::Dead(changed((from + same).min(so_far.len())));
        }
        self.feed(so_far.get(read..).unwrap_or_default())
    }

    /// How many of the bytes read last [`Stream::feed_text`] compares with the text it is
    /// given.
    pub const FEED_TEXT_CHECKED: usize = 32;

    /// Where the stream stands.
    #[must_use]
    pub fn progress(&self) -> Progress {
        self.s.progress()
    }

    /// Why the stream is dead, once it is.
    #[must_use]
    pub fn dead(&self) -> Option<&Dead> {
        self.s.dead()
    }

    /// The text fed so far.
    #[must_use]
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// The value the text so far stands for, its unfinished parts repaired, for display while
    /// the reply streams ([`partial_value`] of [`Stream::text`]): `{"path": "src/li` gives
    /// `{"path": "src/li"}`. `None` before the value's first byte, or after a byte the JSON
    /// grammar refuses. It reads the whole text at each call; to show the value after every
    /// delta, feed the deltas to a [`PartialValue`] too, which builds it as they arrive.
    #[must_use]
    pub fn partial(&self) -> Option<serde_json::Value> {
        partial_value(&self.text)
    }

    /// Whether the text so far is a complete valid reply (the model may stop here).
    #[must_use]
    pub fn can_finish(&self) -> bool {
        self.s.can_finish(&self.text)
    }

    /// The text has ended: `Ok` exactly when [`Tool::is_valid_json`] accepts it.
    ///
    /// # Errors
    /// The error that killed the stream, or why the whole text is not valid (every violation,
    /// as [`Tool::from_json`] reports them).
    pub fn finish(&mut self) -> Result<(), Error> {
        self.s.finish(&self.text)
    }

    /// Report the whole text's violations to `sink` (as [`Tool::check_json`] does).
    ///
    /// # Errors
    /// The syntax error, when the text is not one JSON value.
    pub fn report<S: Sink>(&self, sink: &mut S) -> Result<(), Error> {
        State::<T>::report(&self.text, sink)
    }

    /// Finish, then build the typed value from the text.
    ///
    /// # Errors
    /// As [`Stream::finish`].
    pub fn into_tool(self) -> Result<T, Error> {
        self.s.into_tool(&self.text)
    }

    /// The size in bytes of the automaton's state and the first reader's in front of it (fixed
    /// for `T` at compile time; the text buffer is not counted).
    #[must_use]
    pub fn automaton_size() -> usize {
        T::__Automaton::size() + std::mem::size_of::<T::__Reader>()
    }

    /// Whether the lean automaton handed over to the general one (never, if it is right). Not
    /// public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __handed_over(&self) -> bool {
        self.s.handed_over(&self.text)
    }

    /// This stream without its quick reader: the automaton reads every fragment itself (what
    /// the quick reader must agree with, fragment by fragment). Not public API: for tests and
    /// benchmarks.
    #[doc(hidden)]
    #[must_use]
    pub fn __automaton_only(mut self) -> Self {
        self.s.automaton_only(&self.text);
        self
    }

    /// Whether the first reader (the quick reader, or a flat tool's flat reader) still reads this
    /// stream. Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __quick(&self) -> bool {
        self.s.quick.on()
    }

    /// Whether `T` streams with the flat reader the macro emits for a flat tool (else the quick
    /// reader). Not public API: for tests and benchmarks.
    #[doc(hidden)]
    #[must_use]
    pub fn __flat() -> bool {
        <T::__Reader as Reader>::FLAT
    }

    /// The size of the first reader's state (the flat reader's holds a frame per container it
    /// may have open around the innermost). Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __reader_size() -> usize {
        std::mem::size_of::<T::__Reader>()
    }

    /// Whether the automaton was built (a stream the quick reader reads to its end never builds
    /// it). Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __automaton_built(&self) -> bool {
        self.s.automaton_built()
    }

    /// Whether the quick reader reads this stream and has handed the value it is in to the
    /// general automaton. Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __quick_delegating(&self) -> bool {
        self.s.quick.on() && self.s.quick.delegating()
    }

    /// Whether `T` streams with the lean automaton (at most one subschema per value). Not
    /// public API: for tests and benchmarks.
    #[doc(hidden)]
    #[must_use]
    pub fn __lean() -> bool {
        <T::__Automaton as Automaton>::LEAN
    }

    /// Where the general automaton of `T`'s program dies on `text` fed byte by byte, and its
    /// end verdict (`finish`): what the lean automaton must agree with. Not public API: for
    /// tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __reference(text: &[u8]) -> (Option<usize>, bool) {
        let mut m = <<T::__Automaton as Automaton>::Reference as Automaton>::start(T::__PROGRAM);
        for end in 1..=text.len() {
            if !m.advance(text.get(..end).unwrap_or(text)) {
                return (m.explain(text).map(|d| d.offset), false);
            }
        }
        let ok = match m.finish(text) {
            Ok(true) => true,
            Ok(false) => std::str::from_utf8(text).is_ok_and(T::is_valid_json),
            Err(_) => false,
        };
        (None, ok)
    }

    /// Whether the automaton alone decides the end (no full re-check of the text is due at
    /// [`Stream::finish`]). Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __automaton_verdict(&self) -> Option<bool> {
        self.s.automaton_verdict(&self.text)
    }
}

/// The longest fragment a stream reads byte by byte on the first reader's short way: up to
/// this length that is cheaper than its long way, which enters and leaves the reader's state
/// once per fragment and reads a token cut by the fragment's ends twice (the bench replies in
/// 5- and 6-byte fragments: 2-7% fewer instructions than the long way; in 8-byte ones, 8% more).
const SHORT: usize = 6;

/// The answer to a text fed again whose bytes already read differ from what was read, from
/// byte `offset` (or that is shorter than what was read: `offset` is its length).
fn changed(offset: usize) -> Dead {
    Dead {
        offset,
        error: Error::Syntax {
            message: "the text fed again differs from the text read before".into(),
            line: 1,
            column: 1,
        },
    }
}
