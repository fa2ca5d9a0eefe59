//! `pattern` at run time: searching a DFA that the macro compiled. No allocation.

use std::sync::OnceLock;

use regex_automata::dfa::{sparse, Automaton};
use regex_automata::Input;

/// A compiled `pattern`: the serialised sparse DFA in both byte orders, deserialised (without
/// copying) on first use.
pub struct Pattern {
    little: &'static [u8],
    big: &'static [u8],
    dfa: OnceLock<Option<sparse::DFA<&'static [u8]>>>,
}

impl Pattern {
    /// A pattern from the bytes the macro generated.
    #[must_use]
    pub const fn new(little: &'static [u8], big: &'static [u8]) -> Self {
        Self { little, big, dfa: OnceLock::new() }
    }

    /// Whether the pattern matches anywhere in `s` (ECMA-262 `RegExp.prototype.test`).
    ///
    /// A DFA that cannot be read (a toolgate version mismatch between macro and runtime) matches
    /// nothing, so such a build rejects rather than accepts.
    pub fn is_match(&self, s: &str) -> bool {
        match self.dfa() {
            Some(dfa) => dfa.try_search_fwd(&Input::new(s).earliest(true)).is_ok_and(|m| m.is_some()),
            None => false,
        }
    }

    /// [`Pattern::is_match`] for text given as characters (a JSON string with escapes, decoded
    /// on the fly): the DFA is stepped one UTF-8 byte at a time, so nothing is allocated.
    pub fn is_match_chars(&self, chars: impl Iterator<Item = char>) -> bool {
        let Some(dfa) = self.dfa() else { return false };
        let Ok(mut state) = dfa.start_state_forward(&Input::new("")) else { return false };
        let mut buf = [0u8; 4];
        for c in chars {
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                state = dfa.next_state(state, b);
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

    fn dfa(&self) -> Option<&sparse::DFA<&'static [u8]>> {
        self.dfa
            .get_or_init(|| {
                let bytes = if cfg!(target_endian = "little") { self.little } else { self.big };
                sparse::DFA::from_bytes(bytes).ok().map(|(dfa, _)| dfa)
            })
            .as_ref()
    }
}
