//! `pattern` at run time: stepping a DFA that the macro compiled. No allocation.
//!
//! A small DFA comes as a plain transition table (one lookup per byte, no library); a large one
//! in regex-automata's sparse form, deserialised (without copying) on first use.

use std::sync::OnceLock;

use regex_automata::dfa::{sparse, Automaton};
use regex_automata::util::primitives::StateID;
use regex_automata::Input;

/// A compiled `pattern`.
pub struct Pattern {
    form: Form,
}

// Patterns are statics and few: a table's `Pattern` being as large as a sparse one's costs a few
// hundred bytes of static data per pattern, and no indirection.
#[allow(clippy::large_enum_variant)]
enum Form {
    Table(Table),
    Sparse { little: &'static [u8], big: &'static [u8], dfa: OnceLock<Option<SparseDfa>> },
}

/// A sparse DFA read in place, with its start state.
type SparseDfa = (sparse::DFA<&'static [u8]>, StateID);

/// A DFA as a transition table. States are premultiplied row offsets, numbered by kind: the
/// dead state 0, then the quit states (the DFA gave up) below `quit_end`, the match states below
/// `match_end`, the live states after them. A row holds one column per byte class and a last one
/// for the end of input.
struct Table {
    /// each byte value's class (its column)
    classes: &'static [u8; 256],
    /// the transitions, `u16` little-endian
    next: &'static [u8],
    /// the columns of a row (the byte classes and the end of input)
    stride: u16,
    start: u16,
    quit_end: u16,
    match_end: u16,
}

impl Table {
    /// The state after `column` from `state`; the dead state if the table is short (a toolgate
    /// version mismatch between macro and runtime), so such a build rejects rather than accepts.
    #[inline]
    fn next(&self, state: u16, column: usize) -> u16 {
        let at = 2 * (usize::from(state) + column);
        match self.next.get(at..at + 2) {
            Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
            _ => 0,
        }
    }

    #[inline]
    fn step(&self, state: u16, byte: u8) -> u16 {
        self.next(state, usize::from(self.classes.get(usize::from(byte)).copied().unwrap_or(0)))
    }

    /// The state after the end of input (the last column of each row).
    fn eoi(&self, state: u16) -> u16 {
        self.next(state, usize::from(self.stride).saturating_sub(1))
    }

    fn kind(&self, state: u16) -> Stepped {
        if state >= self.match_end {
            Stepped::Live
        } else if state >= self.quit_end {
            Stepped::Matched
        } else if state == 0 {
            Stepped::Dead
        } else {
            Stepped::Unknown
        }
    }

    /// Step over `bytes`, stopping at the first match (a match state is entered one byte after
    /// the match ends) or in a dead or quit state.
    #[inline]
    fn run(&self, bytes: impl Iterator<Item = u8>) -> bool {
        let mut state = self.start;
        for b in bytes {
            state = self.step(state, b);
            if state < self.match_end {
                return state >= self.quit_end;
            }
        }
        self.kind(self.eoi(state)) == Stepped::Matched
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (form, bytes) = match &self.form {
            Form::Table(t) => ("table", t.next.len()),
            Form::Sparse { little, .. } => ("sparse", little.len()),
        };
        f.debug_struct("Pattern").field("form", &form).field("bytes", &bytes).finish_non_exhaustive()
    }
}

impl Pattern {
    /// A pattern from a transition table the macro generated: each byte's class, the rows of
    /// `u16` little-endian transitions (a column per class, then the end of input), the row's
    /// length, the start state, and the ends of the quit and match states (see the macro's
    /// `DfaTable`).
    #[must_use]
    pub const fn table(
        classes: &'static [u8; 256],
        next: &'static [u8],
        stride: u16,
        start: u16,
        quit_end: u16,
        match_end: u16,
    ) -> Self {
        Self { form: Form::Table(Table { classes, next, stride, start, quit_end, match_end }) }
    }

    /// A pattern from a sparse DFA the macro generated, in both byte orders.
    #[must_use]
    pub const fn sparse(little: &'static [u8], big: &'static [u8]) -> Self {
        Self { form: Form::Sparse { little, big, dfa: OnceLock::new() } }
    }

    /// Whether the pattern matches anywhere in `s` (ECMA-262 `RegExp.prototype.test`).
    ///
    /// A DFA that cannot be read (a toolgate version mismatch between macro and runtime) matches
    /// nothing, so such a build rejects rather than accepts.
    pub fn is_match(&self, s: &str) -> bool {
        self.is_match_bytes(s.bytes())
    }

    /// [`Pattern::is_match`] for text given as characters (a JSON string with escapes, decoded
    /// on the fly): the DFA is stepped one UTF-8 byte at a time, so nothing is allocated.
    pub fn is_match_chars(&self, chars: impl Iterator<Item = char>) -> bool {
        let mut buf = [0u8; 4];
        self.is_match_bytes(chars.flat_map(|c| {
            let n = c.encode_utf8(&mut buf).len();
            buf.into_iter().take(n)
        }))
    }

    #[inline]
    fn is_match_bytes(&self, bytes: impl Iterator<Item = u8>) -> bool {
        match &self.form {
            Form::Table(t) => t.run(bytes),
            Form::Sparse { .. } => match self.sparse_dfa() {
                Some((dfa, start)) => run(dfa, *start, bytes),
                None => false,
            },
        }
    }

    /// Where stepping starts: `None` when the DFA cannot be read (then nothing is known early).
    pub(crate) fn start(&self) -> Option<u32> {
        match &self.form {
            Form::Table(t) => Some(u32::from(t.start)),
            Form::Sparse { .. } => self.sparse_dfa().map(|(_, s)| s.as_u32()),
        }
    }

    /// One byte of the subject: the next state, and what it says about every continuation.
    #[inline]
    pub(crate) fn step(&self, state: u32, byte: u8) -> (u32, Stepped) {
        match &self.form {
            Form::Table(t) => {
                let Ok(state) = u16::try_from(state) else { return (state, Stepped::Unknown) };
                let next = t.step(state, byte);
                (u32::from(next), t.kind(next))
            }
            Form::Sparse { .. } => self.sparse_step(state, byte),
        }
    }

    /// [`Pattern::step`] over each byte of `run` from `state`, up to the first after which the
    /// automaton is no longer live: the state there, and what it says (`Live` when it read all
    /// of `run` and is still live).
    #[inline(always)]
    pub(crate) fn step_run(&self, mut state: u32, run: &[u8]) -> (u32, Stepped) {
        for &b in run {
            let (next, how) = self.step(state, b);
            state = next;
            if how != Stepped::Live {
                return (state, how);
            }
        }
        (state, Stepped::Live)
    }

    /// [`Pattern::step`] of a sparse DFA.
    #[inline(never)]
    fn sparse_step(&self, state: u32, byte: u8) -> (u32, Stepped) {
        let Ok(id) = StateID::new(state as usize) else { return (state, Stepped::Unknown) };
        match self.sparse_dfa() {
            Some((dfa, _)) => classify(dfa, dfa.next_state(id, byte)),
            None => (state, Stepped::Unknown),
        }
    }

    /// Whether some character that a `\u` escape can still stand for steps the automaton from
    /// `state` to a state that is not dead: `digits` hex digits of its UTF-16 unit read, of value
    /// `prefix` (none at the backslash: any character), after the high surrogate `high` for a
    /// low one. A high surrogate's digits stand for every character beyond the BMP it can begin.
    /// `true` where the automaton cannot tell (it gave up, or cannot be read).
    pub(crate) fn alive_escape(&self, state: u32, prefix: u16, digits: u8, high: Option<u16>) -> bool {
        let (lo, hi) = unit_range(prefix, digits);
        let beyond = |h: u32| 0x1_0000 + ((h.saturating_sub(0xD800)) << 10);
        match high {
            Some(h) => {
                let (l, u) = (lo.max(0xDC00), hi.min(0xDFFF));
                let base = beyond(u32::from(h));
                l > u || self.alive_in(state, base + (l - 0xDC00), base + (u - 0xDC00))
            }
            None => {
                let (l, u) = (lo.max(0xD800), hi.min(0xDBFF));
                self.alive_in(state, lo, hi.min(0xD7FF))
                    || self.alive_in(state, lo.max(0xE000), hi)
                    || (l <= u && self.alive_in(state, beyond(l), beyond(u) + 0x3FF))
            }
        }
    }

    /// Whether some code point of `lo..=hi` (none a surrogate) steps the automaton from `state`
    /// to a state that is not dead.
    fn alive_in(&self, state: u32, lo: u32, hi: u32) -> bool {
        // By the length of their UTF-8 form: (first, last, continuation bytes, lead byte's tag).
        const LENGTHS: [(u32, u32, u32, u8); 4] =
            [(0, 0x7F, 0, 0), (0x80, 0x7FF, 1, 0xC0), (0x800, 0xFFFF, 2, 0xE0), (0x1_0000, 0x10_FFFF, 3, 0xF0)];
        LENGTHS.iter().any(|&(first, last, k, tag)| {
            let (l, u) = (lo.max(first), hi.min(last));
            l <= u && self.alive_bytes(state, l, u, k, tag)
        })
    }

    /// [`Pattern::alive_in`] for code points `lo..=hi` (their bits below this byte's) whose
    /// UTF-8 forms have `k` continuation bytes after this one, which carries `tag`: each value of
    /// this byte that keeps the automaton alive, then the rest of the range under it. A range
    /// that covers everything under a byte from a state already tried is not tried again.
    fn alive_bytes(&self, state: u32, lo: u32, hi: u32, k: u32, tag: u8) -> bool {
        let shift = 6 * k;
        let mut tried = None;
        for t in (lo >> shift)..=(hi >> shift) {
            let (block, end) = (t << shift, (t << shift) + ((1u32 << shift) - 1));
            // (`t` fits beside the tag: at most 7 bits alone, 6 after a continuation's, fewer after
            // a lead byte's.)
            let (next, how) = self.step(state, tag | u8::try_from(t).unwrap_or(0xFF));
            match how {
                Stepped::Dead => continue,
                Stepped::Matched | Stepped::Unknown => return true,
                Stepped::Live if k == 0 => return true,
                Stepped::Live => {}
            }
            let (l, u) = (lo.max(block) - block, hi.min(end) - block);
            let full = l == 0 && u == end - block;
            if full && tried == Some(next) {
                continue;
            }
            if self.alive_bytes(next, l, u, k - 1, 0x80) {
                return true;
            }
            if full {
                tried = Some(next);
            }
        }
        false
    }

    /// Whether the subject that led to `state` matches when it ends there.
    pub(crate) fn matches_at_end(&self, state: u32) -> bool {
        match &self.form {
            Form::Table(t) => u16::try_from(state).is_ok_and(|s| t.kind(t.eoi(s)) == Stepped::Matched),
            Form::Sparse { .. } => {
                let Ok(id) = StateID::new(state as usize) else { return false };
                self.sparse_dfa().is_some_and(|(dfa, _)| dfa.is_match_state(dfa.next_eoi_state(id)))
            }
        }
    }

    fn sparse_dfa(&self) -> Option<&SparseDfa> {
        let Form::Sparse { little, big, dfa } = &self.form else { return None };
        dfa.get_or_init(|| {
            let bytes = if cfg!(target_endian = "little") { little } else { big };
            let (dfa, _) = sparse::DFA::from_bytes(bytes).ok()?;
            let start = dfa.start_state_forward(&Input::new("")).ok()?;
            Some((dfa, start))
        })
        .as_ref()
    }
}

/// The UTF-16 units a `\u` escape can still be, `digits` hex digits of value `prefix` read
/// (none: any unit).
pub(crate) fn unit_range(prefix: u16, digits: u8) -> (u32, u32) {
    let free = 4 * (4 - u32::from(digits.min(4)));
    let lo = u32::from(prefix) << free;
    (lo, lo + ((1u32 << free) - 1))
}

/// What a DFA state says about the subject's continuations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stepped {
    /// a match may still come, or not
    Live,
    /// matched already: every continuation matches (the search is unanchored at its end)
    Matched,
    /// no continuation can match
    Dead,
    /// the DFA gave up (a quit byte): decided when the string closes
    Unknown,
}

fn classify<A: Automaton>(dfa: &A, s: StateID) -> (u32, Stepped) {
    let how = if !dfa.is_special_state(s) {
        Stepped::Live
    } else if dfa.is_match_state(s) {
        Stepped::Matched
    } else if dfa.is_dead_state(s) {
        Stepped::Dead
    } else if dfa.is_quit_state(s) {
        Stepped::Unknown
    } else {
        Stepped::Live
    };
    (s.as_u32(), how)
}

/// Step `dfa` over `bytes`, stopping at the first match (a match state is entered one byte after
/// the match ends) or in a dead state.
#[inline]
fn run<A: Automaton>(dfa: &A, start: StateID, bytes: impl Iterator<Item = u8>) -> bool {
    let mut state = start;
    for b in bytes {
        state = dfa.next_state(state, b);
        if dfa.is_special_state(state) {
            if dfa.is_match_state(state) {
                return true;
            }
            if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                return false;
            }
        }
    }
    dfa.is_match_state(dfa.next_eoi_state(state))
}
