//! What a stream knows of its text, without the text: the first reader, the automaton behind it,
//! and the verdict so far. [`crate::Stream`] keeps the text it is fed beside it;
//! [`crate::TextStream`] reads the caller's. Every method here is given the whole text so far.

use std::marker::PhantomData;

use crate::report::{Collect, Sink};
use crate::violation::Error;
use crate::Tool;

use super::{Automaton, Dead, Progress, Reader};

/// A stream's reading state, given the text so far at every step.
pub(crate) struct State<T: Tool> {
    /// the first reader, while the text is ordinary (`quick.rs`, or `flat.rs` for a flat tool);
    /// the automaton has read nothing while `quick.on()`
    pub(crate) quick: T::__Reader,
    /// the automaton; `None` until it reads (then it is [`Automaton::start`]): a stream the
    /// quick reader reads to its end never builds it, and a fresh stream costs a few bytes'
    /// writes instead of a copy of the automaton's state
    m: Option<T::__Automaton>,
    dead: Option<Dead>,
    finished: Option<Result<(), Error>>,
    /// neither dead nor finished (one test of a flag where a feed would test both)
    pub(crate) open: bool,
    /// open, and the first reader on: a fragment may take the reader's short way (one test of a
    /// flag per byte where the short way would test two)
    pub(crate) short: bool,
    tool: PhantomData<fn() -> T>,
}

impl<T: Tool> Clone for State<T> {
    fn clone(&self) -> Self {
        Self {
            quick: self.quick.clone(),
            m: self.m.clone(),
            dead: self.dead.clone(),
            finished: self.finished.clone(),
            open: self.open,
            short: self.short,
            tool: PhantomData,
        }
    }
}

/// The error of a text that does not decode as UTF-8.
fn not_utf8() -> Error {
    Error::Syntax { message: "invalid UTF-8".into(), line: 1, column: 1 }
}

impl<T: Tool> State<T> {
    /// Whether the first reader reads (from the start of a text): the flat reader always, the
    /// quick reader where the lean automaton reads after it.
    /// (Not where no value satisfies the schema: the automaton is dead from the start.)
    pub(crate) const FIRST: bool = (T::__Automaton::QUICK || <T::__Reader as Reader>::FLAT) && !T::__PROGRAM.never;

    /// The state at the start of a text.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            quick: <T::__Reader as Reader>::new(Self::FIRST),
            m: None,
            dead: None,
            finished: None,
            open: true,
            short: Self::FIRST,
            tool: PhantomData,
        }
    }

    /// One more byte `b`, the last of `text`, on the first reader's short way (`self.short`):
    /// `true` when it took it; `false` when [`State::read_byte`] must read on.
    #[inline(always)]
    pub(crate) fn one_byte(&mut self, text: &[u8], b: u8) -> bool {
        self.quick.one_byte(T::__PROGRAM, text, b)
    }

    /// With the first reader on: where the bytes of `text` from `from` go on a string of plain
    /// characters, that run read at once; where the reader reads on.
    #[inline(always)]
    pub(crate) fn plain_run(&mut self, text: &[u8], from: usize) -> usize {
        self.quick.plain_run(text, from)
    }

    /// Read `text` from `from` (its length before the fragment being read) to its end.
    #[inline(always)]
    pub(crate) fn read(&mut self, text: &[u8], from: usize) -> Progress {
        if self.quick.on() {
            let from = self.plain_run(text, from);
            if from == text.len() || self.quick.read(T::__PROGRAM, text, from) {
                return Progress::Alive;
            }
        }
        self.read_automaton(text)
    }

    /// The quick reader's long way, from the byte its short way did not take to the text's end
    /// (where the quick reader stands; the flat reader's short way takes every byte it reads,
    /// so it has stopped: no `from` is needed).
    #[inline(never)]
    pub(crate) fn read_byte(&mut self, text: &[u8]) -> Progress {
        if self.quick.read(T::__PROGRAM, text, text.len()) {
            return Progress::Alive;
        }
        self.read_automaton(text)
    }

    /// The automaton reads what the quick reader did not vouch for (all of the text, the
    /// first time).
    #[inline(never)]
    fn read_automaton(&mut self, text: &[u8]) -> Progress {
        self.short = false;
        let m = Self::started(&mut self.m);
        if m.advance(text) {
            return Progress::Alive;
        }
        self.dead = m.explain(text);
        self.open = self.dead.is_none();
        self.progress()
    }

    /// The automaton `m`, started if it was not.
    fn started(m: &mut Option<T::__Automaton>) -> &mut T::__Automaton {
        m.get_or_insert_with(|| T::__Automaton::start(T::__PROGRAM))
    }

    /// A copy of the automaton as it stands (at the start of the text if it never read).
    pub(crate) fn automaton(&self) -> T::__Automaton {
        match &self.m {
            Some(m) => m.clone(),
            None => T::__Automaton::start(T::__PROGRAM),
        }
    }

    /// The automaton state after `text`, when the quick reader is still reading (the
    /// automaton then has read nothing): `None` when `self.m` is that state.
    fn synced(&self, text: &[u8]) -> Option<T::__Automaton> {
        self.quick.on().then(|| {
            let mut m = self.automaton();
            let _ = m.advance(text);
            m
        })
    }

    /// Where the stream stands.
    pub(crate) fn progress(&self) -> Progress {
        match &self.dead {
            Some(d) => Progress::Dead(d.clone()),
            None => Progress::Alive,
        }
    }

    /// Why the stream is dead, once it is.
    pub(crate) fn dead(&self) -> Option<&Dead> {
        self.dead.as_ref()
    }

    /// Whether `text`, all of it read, is a complete valid reply.
    pub(crate) fn can_finish(&self, text: &[u8]) -> bool {
        let complete =
            if self.quick.on() { self.quick.complete() } else { self.m.as_ref().and_then(Automaton::complete) };
        match complete {
            Some(v) => v,
            None => std::str::from_utf8(text).is_ok_and(T::is_valid_json),
        }
    }

    /// The text (`text`, all of it read) has ended: `Ok` exactly when [`Tool::is_valid_json`]
    /// accepts it.
    pub(crate) fn finish(&mut self, text: &[u8]) -> Result<(), Error> {
        if let Some(r) = &self.finished {
            return r.clone();
        }
        if let Some(d) = &self.dead {
            return Err(d.error.clone());
        }
        if self.quick.on() {
            if self.quick.finish(text) {
                self.finished = Some(Ok(()));
                self.open = false;
                self.short = false;
                return Ok(());
            }
            // The automaton decides: it reads the whole text first.
            let _ = Self::started(&mut self.m).advance(text);
        }
        let r = match Self::started(&mut self.m).finish(text) {
            Ok(true) => Ok(()),
            Err(d) => Err(d.error),
            Ok(false) => match std::str::from_utf8(text) {
                Ok(t) if T::is_valid_json(t) => Ok(()),
                Ok(t) => {
                    let mut c = Collect::default();
                    match T::check_json(t, &mut c) {
                        Err(e) => Err(e),
                        Ok(()) => Err(Error::Invalid(c.into_violations())),
                    }
                }
                Err(_) => Err(not_utf8()),
            },
        };
        self.finished = Some(r.clone());
        self.open = false;
        self.short = false;
        r
    }

    /// `text`'s violations, reported to `sink` (as [`Tool::check_json`] does).
    pub(crate) fn report<S: Sink>(text: &[u8], sink: &mut S) -> Result<(), Error> {
        T::check_json(std::str::from_utf8(text).map_err(|_| not_utf8())?, sink)
    }

    /// Finish `text`, then build the typed value from it.
    pub(crate) fn into_tool(mut self, text: &[u8]) -> Result<T, Error> {
        self.finish(text)?;
        T::from_json(std::str::from_utf8(text).map_err(|_| not_utf8())?)
    }

    /// Whether the lean automaton handed over to the general one (for tests: never).
    pub(crate) fn handed_over(&self, text: &[u8]) -> bool {
        self.synced(text).unwrap_or_else(|| self.automaton()).handed_over()
    }

    /// The same state without its first reader: the automaton reads every fragment itself
    /// (for tests and benchmarks).
    pub(crate) fn automaton_only(&mut self, text: &[u8]) {
        self.short = false;
        if self.quick.on() {
            self.quick.stop();
            let m = Self::started(&mut self.m);
            if !m.advance(text) && self.dead.is_none() {
                self.dead = m.explain(text);
                self.open = self.dead.is_none();
            }
        }
    }

    /// Whether the automaton was built (for tests).
    pub(crate) fn automaton_built(&self) -> bool {
        self.m.is_some()
    }

    /// Whether the automaton alone decides the end of `text` (for tests).
    pub(crate) fn automaton_verdict(&self, text: &[u8]) -> Option<bool> {
        if self.dead.is_some() {
            return Some(false);
        }
        if self.quick.on() && self.quick.clone().finish(text) {
            return Some(true);
        }
        let mut m = self.synced(text).unwrap_or_else(|| self.automaton());
        match m.finish(text) {
            Ok(true) => Some(true),
            Ok(false) => None,
            Err(_) => Some(false),
        }
    }
}
