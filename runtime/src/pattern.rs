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

/// The bits of a stepped state that hold the DFA's (premultiplied) state when the pattern
/// follows leap seconds ([`Form::Leap`]); the bits above hold [`leap_step`]'s.
const DFA_BITS: u32 = 11;

// Patterns are statics and few: a table's `Pattern` being as large as a sparse one's costs a few
// hundred bytes of static data per pattern, and no indirection.
#[allow(clippy::large_enum_variant)]
enum Form {
    Table(Table),
    /// A table whose language is RFC 3339's `full-time` from the byte given on (0: `time`; 11:
    /// `date-time`, after the date): [`Pattern::step`] follows the time beside the DFA and
    /// judges its leap second exactly ([`leap_step`]). Its states fit [`DFA_BITS`].
    Leap(Table, u8),
    Sparse {
        little: &'static [u8],
        big: &'static [u8],
        dfa: OnceLock<Option<SparseDfa>>,
    },
}

/// A sparse DFA read in place, with its start state.
type SparseDfa = (sparse::DFA<&'static [u8]>, StateID);

/// A DFA as a transition table. States are premultiplied row offsets, numbered by kind: the
/// dead state 0, then the quit states (the DFA gave up) below `quit_end`, the match states below
/// `match_end`, the live states after them. A row holds one column per byte class and a last one
/// for the end of input.
#[derive(Clone, Copy)]
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
            Form::Table(t) | Form::Leap(t, _) => ("table", t.next.len()),
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

    /// The same pattern, its language RFC 3339's `full-time` from byte `at` on (the macro's
    /// `time` and `date-time` formats, whose automaton lets a leap second through at any minute):
    /// stepping also follows the time, so that a leap second dies at the first character of its
    /// offset that cannot make it 23:59:60 UTC. A table whose states do not fit beside what
    /// that needs, and a sparse DFA, are left as they are (the format's check judges the
    /// string when it ends).
    #[must_use]
    pub const fn leap_seconds(self, at: u8) -> Self {
        if let Form::Table(t) = &self.form {
            if t.next.len() / 2 <= 1 << DFA_BITS {
                let t = *t;
                // (A table has nothing to drop; `forget` lets a `const fn` say so.)
                std::mem::forget(self);
                return Self { form: Form::Leap(t, at) };
            }
        }
        self
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
            Form::Leap(t, _) => {
                let mut state = u32::from(t.start);
                for b in bytes {
                    match self.step(state, b) {
                        (next, Stepped::Live) => state = next,
                        (_, how) => return how == Stepped::Matched,
                    }
                }
                self.matches_at_end(state)
            }
            Form::Sparse { .. } => match self.sparse_dfa() {
                Some((dfa, start)) => run(dfa, *start, bytes),
                None => false,
            },
        }
    }

    /// Where stepping starts: `None` when the DFA cannot be read (then nothing is known early).
    pub(crate) fn start(&self) -> Option<u32> {
        match &self.form {
            Form::Table(t) | Form::Leap(t, _) => Some(u32::from(t.start)),
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
            Form::Leap(t, at) => step_leap(t, *at, state, byte),
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
            Form::Leap(t, _) => matches!(t.kind(t.eoi(dfa_of(state))), Stepped::Matched),
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

/// The table's state in a state of [`Form::Leap`].
fn dfa_of(state: u32) -> u16 {
    u16::try_from(state & ((1 << DFA_BITS) - 1)).unwrap_or(0)
}

/// [`Pattern::step`] of a table `t` that follows leap seconds from byte `at` (out of line: the
/// other tables' steps are inlined where a reader steps a pattern).
#[inline(never)]
fn step_leap(t: &Table, at: u8, state: u32, byte: u8) -> (u32, Stepped) {
    let next = t.step(dfa_of(state), byte);
    match (t.kind(next), leap_step(state >> DFA_BITS, byte, at)) {
        (Stepped::Dead, _) | (_, None) => (0, Stepped::Dead),
        (how, Some(time)) => (u32::from(next) | time << DFA_BITS, how),
    }
}

/// One byte of a string whose RFC 3339 `full-time` begins at byte `at`, for
/// [`Pattern::leap_seconds`]: what follows the time from `time` (0 at the string's start), or
/// `None` where the byte makes a leap second that no offset can put at 23:59:60 UTC. The DFA
/// beside it has checked the syntax, so the time's bytes are where the syntax puts them.
///
/// `time`'s low 2 bits are a phase, the next 5 a count, the 11 above them a number of minutes:
/// - 0: before the seconds' first digit; the count is the bytes read, the minutes the local
///   time's so far (hours and minutes);
/// - 1: not a leap second, or its offset is settled: nothing more to follow;
/// - 2: a leap second (seconds `60`) before its offset; the minutes are the local time's;
/// - 3: in its offset's `HH:MM` after the sign; the count is its characters read, the minutes
///   the only offset that puts the local time at 23:59 UTC with that sign.
fn leap_step(time: u32, byte: u8, at: u8) -> Option<u32> {
    const SETTLED: u32 = 1;
    const DAY: u32 = 24 * 60;
    const LAST: u32 = DAY - 1;
    let (phase, count, minutes) = (time & 3, (time >> 2) & 31, time >> 7);
    let pack = |phase: u32, count: u32, minutes: u32| phase | count << 2 | minutes << 7;
    let digit = u32::from(byte.wrapping_sub(b'0'));
    match phase {
        0 => {
            let Some(i) = count.checked_sub(u32::from(at)) else { return Some(pack(0, count + 1, minutes)) };
            let add = match i {
                0 => 600,
                1 => 60,
                3 => 10,
                4 => 1,
                6 => return Some(if byte == b'6' { pack(2, 0, minutes) } else { SETTLED }),
                _ => 0,
            };
            // (Not a digit where the syntax puts one: the DFA beside is dead, nothing to follow.)
            Some(if digit > 9 && add != 0 { SETTLED } else { pack(0, count + 1, minutes + digit * add) })
        }
        2 => match byte {
            // UTC is the local time less the offset: `Z` only at 23:59 itself.
            b'Z' | b'z' => (minutes == LAST).then_some(SETTLED),
            b'+' => Some(pack(3, 0, (minutes + DAY - LAST) % DAY)),
            b'-' => Some(pack(3, 0, (LAST + DAY - minutes) % DAY)),
            _ => Some(time),
        },
        3 => {
            // The offset's characters, `:` as the digit value it has after `0`.
            let (h, m) = (minutes / 60, minutes % 60);
            let offset = [h / 10, h % 10, u32::from(b':' - b'0'), m / 10, m % 10];
            match offset.get(count as usize) {
                Some(&want) if digit == want => Some(if count == 4 { SETTLED } else { pack(3, count + 1, minutes) }),
                _ => None,
            }
        }
        _ => Some(time),
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

#[cfg(test)]
mod tests {
    use super::leap_step;
    use crate::format::format_matches;

    /// Steps `text` from byte 0, the time beginning at `at`: where it died, if it did.
    fn dies(text: &[u8], at: u8) -> Option<usize> {
        let mut time = 0;
        text.iter().position(|&b| match leap_step(time, b, at) {
            Some(t) => {
                time = t;
                false
            }
            None => true,
        })
    }

    #[test]
    fn a_leap_second_lives_exactly_with_the_offsets_that_make_it_23_59_utc() {
        // Every local time and every offset of both signs, and `Z`: the stepping lets the whole
        // string through exactly where the format's check takes it, and where it does not,
        // dies at the first character that differs from every offset the check takes.
        let hhmm = |m: u32| format!("{:02}:{:02}", m / 60, m % 60);
        let mut taken = 0;
        for local in 0..24 * 60 {
            let head = format!("{}:60", hhmm(local));
            let good: Vec<String> = ["+", "-", "Z"]
                .iter()
                .flat_map(|s| {
                    let offsets: Vec<String> =
                        if *s == "Z" { vec![String::new()] } else { (0..24 * 60).map(hhmm).collect() };
                    offsets.into_iter().map(move |o| format!("{s}{o}"))
                })
                .filter(|o| format_matches("time", &format!("{head}{o}")))
                .collect();
            for sign in ["+", "-"] {
                for off in 0..24 * 60 {
                    let offset = format!("{sign}{}", hhmm(off));
                    for (text, at) in [(format!("{head}{offset}"), 0), (format!("2024-01-01T{head}.5{offset}"), 11)] {
                        let ok = good.contains(&offset);
                        let start = text.len() - offset.len();
                        let want = (!ok).then(|| {
                            // The first character that no accepted offset continues.
                            (1..=offset.len())
                                .find(|&n| !good.iter().any(|g| g.starts_with(&offset[..n])))
                                .map_or(text.len(), |n| start + n - 1)
                        });
                        assert_eq!(dies(text.as_bytes(), at), want, "{text}");
                        taken += usize::from(ok);
                    }
                }
            }
            assert_eq!(dies(format!("{head}Z").as_bytes(), 0).is_none(), local == 23 * 60 + 59, "{head}Z");
        }
        // One offset per sign and local time, in both forms.
        assert_eq!(taken, 2 * 2 * 24 * 60);
    }
}
