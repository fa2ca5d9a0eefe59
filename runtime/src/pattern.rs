//! `pattern` at run time: stepping a DFA that the macro compiled. No allocation.

use std::sync::OnceLock;

use regex_automata::dfa::{dense, sparse, Automaton};
use regex_automata::util::primitives::StateID;
use regex_automata::Input;

/// Bytes aligned for a dense DFA's `u32` table (a `static` of this type is 4-aligned).
#[repr(C)]
pub struct Aligned<const N: usize> {
    /// zero-sized, for the alignment
    pub align: [u32; 0],
    /// the serialised DFA
    pub bytes: [u8; N],
}

/// A deserialised DFA of either form, with its start state (the same for every haystack: the
/// search always starts at the beginning of the text).
enum Dfa {
    Dense(dense::DFA<&'static [u32]>, StateID),
    Sparse(sparse::DFA<&'static [u8]>, StateID),
}

/// A compiled `pattern`: the serialised DFA in both byte orders, deserialised (without copying)
/// on first use.
pub struct Pattern {
    little: &'static [u8],
    big: &'static [u8],
    dense: bool,
    dfa: OnceLock<Option<Dfa>>,
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pattern").field("dense", &self.dense).field("bytes", &self.little.len()).finish_non_exhaustive()
    }
}

impl Pattern {
    /// A pattern from a sparse DFA the macro generated.
    #[must_use]
    pub const fn new(little: &'static [u8], big: &'static [u8]) -> Self {
        Self { little, big, dense: false, dfa: OnceLock::new() }
    }

    /// A pattern from a dense DFA the macro generated (4-aligned bytes, see [`Aligned`]).
    #[must_use]
    pub const fn dense(little: &'static [u8], big: &'static [u8]) -> Self {
        Self { little, big, dense: true, dfa: OnceLock::new() }
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
        match self.dfa() {
            Some(Dfa::Dense(dfa, start)) => run(dfa, *start, bytes),
            Some(Dfa::Sparse(dfa, start)) => run(dfa, *start, bytes),
            None => false,
        }
    }

    /// Where stepping starts: `None` when the DFA cannot be read (then nothing is known early).
    pub(crate) fn start(&self) -> Option<u32> {
        match self.dfa()? {
            Dfa::Dense(_, s) | Dfa::Sparse(_, s) => Some(s.as_u32()),
        }
    }

    /// One byte of the subject: the next state, and what it says about every continuation.
    pub(crate) fn step(&self, state: u32, byte: u8) -> (u32, Stepped) {
        let Ok(id) = StateID::new(state as usize) else { return (state, Stepped::Unknown) };
        match self.dfa() {
            Some(Dfa::Dense(dfa, _)) => classify(dfa, dfa.next_state(id, byte)),
            Some(Dfa::Sparse(dfa, _)) => classify(dfa, dfa.next_state(id, byte)),
            None => (state, Stepped::Unknown),
        }
    }

    /// Whether the subject that led to `state` matches when it ends there.
    pub(crate) fn matches_at_end(&self, state: u32) -> bool {
        let Ok(id) = StateID::new(state as usize) else { return false };
        match self.dfa() {
            Some(Dfa::Dense(dfa, _)) => dfa.is_match_state(dfa.next_eoi_state(id)),
            Some(Dfa::Sparse(dfa, _)) => dfa.is_match_state(dfa.next_eoi_state(id)),
            None => false,
        }
    }

    fn dfa(&self) -> Option<&Dfa> {
        self.dfa
            .get_or_init(|| {
                let bytes = if cfg!(target_endian = "little") { self.little } else { self.big };
                let start = |dfa: &dyn Automaton| dfa.start_state_forward(&Input::new("")).ok();
                if self.dense {
                    let (dfa, _) = dense::DFA::from_bytes(bytes).ok()?;
                    start(&dfa).map(|s| Dfa::Dense(dfa, s))
                } else {
                    let (dfa, _) = sparse::DFA::from_bytes(bytes).ok()?;
                    start(&dfa).map(|s| Dfa::Sparse(dfa, s))
                }
            })
            .as_ref()
    }
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
