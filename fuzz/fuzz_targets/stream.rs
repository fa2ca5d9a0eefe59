//! The streaming validator (`Tool::stream`) agrees with the one-pass text check at every
//! chunking, for every fixture tool: a text `is_valid_json` accepts is never dead on the way and
//! finishes `Ok`; `finish` is `Ok` exactly when `is_valid_json` accepts the text (never, for bytes
//! that are not UTF-8); the byte at which a text dies does not depend on the chunking (it equals
//! the one found feeding 1 byte at a time) and has been fed; a dead stream stays dead with the
//! same death and `finish` returns its error (and, when neither died, the same error at any
//! chunking); `can_finish` after the last byte is the verdict
//! (and, on short texts, at every chunk boundary the verdict on the text so far); `into_tool`
//! of a valid text is `from_json`'s value; where the tool streams with the lean automaton, it dies
//! at the byte where the general automaton does; the stream answers every feed and `finish` as
//! the same stream without its quick reader does, and so does a `TextStream` given the text so
//! far after each piece (and its `into_tool` builds the same value); `partial_value` refuses a
//! text where the stream died of the JSON grammar, and gives a whole text the strict parse takes
//! its value; a `PartialValue` fed the pieces holds after each what `partial_value` gives for the
//! text so far. Nothing panics.
//!
//! Input: byte 0 is a header: `n = h & 7` chunk sizes follow (each 0..=255; 0 feeds an empty
//! slice), used in turn until the text is fed (`n = 0`: the whole text in one feed); `h & 8`
//! feeds through `feed_text` (the accumulated text) instead of `feed`. The rest is the text, fed
//! as bytes whether or not it is UTF-8.

#![no_main]

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use toolgate::{partial_value, Dead, PartialValue, Progress, Stream, TextStream, Tool};
use toolgate_fuzz::for_each_tool;

/// Texts up to this long also get `can_finish` compared at every chunk boundary (quadratic).
const PREFIX_CHECK_MAX: usize = 256;

/// `text` cut by `sizes`, used in turn; the whole text in one piece when there are none.
fn chunks<'a>(text: &'a [u8], sizes: &[u8]) -> Vec<&'a [u8]> {
    let empty = text.get(..0).unwrap_or_default();
    if sizes.iter().all(|&s| s == 0) {
        let mut out = vec![empty; sizes.len()];
        out.push(text);
        return out;
    }
    let mut out = Vec::new();
    let mut rest = text;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at(usize::from(size).min(rest.len()));
        out.push(piece);
        rest = tail;
    }
    out
}

fn verdict<T: Tool>(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(T::is_valid_json)
}

/// Feed `pieces` (through `feed_text` when `whole`): the first death, checking on the way.
fn run<T: Tool>(s: &mut Stream<T>, pieces: &[&[u8]], whole: bool, text: &[u8]) -> Option<Dead> {
    let mut fed = 0;
    let mut first: Option<Dead> = None;
    for piece in pieces {
        fed += piece.len();
        let progress = if whole { s.feed_text(text.get(..fed).unwrap_or_default()) } else { s.feed(piece) };
        match (&first, progress) {
            (None, Progress::Alive) => {
                assert_eq!(s.text(), text.get(..fed).unwrap_or_default(), "{}: text() after {fed} bytes", T::NAME);
                if text.len() <= PREFIX_CHECK_MAX {
                    let prefix = text.get(..fed).unwrap_or_default();
                    assert_eq!(s.can_finish(), verdict::<T>(prefix), "{}: can_finish after {prefix:?}", T::NAME);
                }
            }
            (None, Progress::Dead(d)) => {
                assert!(d.offset < fed, "{}: dead at {} after only {fed} bytes: {text:?}", T::NAME, d.offset);
                assert_eq!(s.dead(), Some(&d), "{}: dead() vs feed's Dead", T::NAME);
                first = Some(d);
            }
            (Some(d0), Progress::Dead(d)) => {
                assert_eq!(&d, d0, "{}: the death changed after more text: {text:?}", T::NAME);
            }
            (Some(d0), Progress::Alive) => panic!("{}: alive again after {d0}: {text:?}", T::NAME),
        }
    }
    first
}

fn check<T: Tool + PartialEq + Debug>(text: &[u8], sizes: &[u8], whole: bool) {
    let valid = verdict::<T>(text);

    // 1 byte at a time: the reference death.
    let mut one = T::stream();
    let ones: Vec<&[u8]> = text.chunks(1).collect();
    let d1 = run(&mut one, &ones, false, text);
    if Stream::<T>::__lean() {
        // The lean automaton dies where the general one does, and never hands over to it.
        let (reference, ok) = Stream::<T>::__reference(text);
        assert_eq!(d1.as_ref().map(|d| d.offset), reference, "{}: death, lean vs general automaton: {text:?}", T::NAME);
        assert_eq!(ok, valid, "{}: the general automaton's verdict: {text:?}", T::NAME);
        assert!(!one.__handed_over(), "{}: the lean automaton handed over: {text:?}", T::NAME);
    }

    // Where the stream died of the JSON grammar, the partial value refuses the text too.
    if let Some(d) = d1.as_ref().filter(|d| d.violation().is_none()) {
        let prefix = text.get(..=d.offset).unwrap_or_default();
        assert_eq!(partial_value(prefix), None, "{}: partial value after a syntax death at {d}: {text:?}", T::NAME);
    }

    // The fuzzed chunking, into a stream that never has to grow its buffer.
    let mut s = Stream::<T>::with_capacity(text.len());
    let pieces = chunks(text, sizes);
    let d = run(&mut s, &pieces, whole, text);

    assert_eq!(
        d.as_ref().map(|d| d.offset),
        d1.as_ref().map(|d| d.offset),
        "{}: death offset, chunks {:?} vs 1-byte feeding: {text:?}",
        T::NAME,
        pieces.iter().map(|p| p.len()).collect::<Vec<_>>()
    );
    if valid {
        assert!(d.is_none(), "{}: a valid text died ({d:?}), chunks {sizes:?}: {text:?}", T::NAME);
    }
    assert_eq!(s.can_finish(), valid, "{}: can_finish at the end: {text:?}", T::NAME);
    assert_eq!(one.can_finish(), valid, "{}: can_finish at the end, 1-byte feeding: {text:?}", T::NAME);

    let finished = s.finish();
    assert_eq!(finished.is_ok(), valid, "{}: finish {finished:?}, is_valid_json {valid}: {text:?}", T::NAME);
    let finished_one = one.finish();
    assert_eq!(finished_one.is_ok(), valid, "{}: finish {finished_one:?} after 1-byte feeding: {text:?}", T::NAME);
    if d.is_none() {
        // Both read the whole text: the same report (a death's message may show what was read).
        assert_eq!(finished_one, finished, "{}: finish after 1-byte feeding vs chunks: {text:?}", T::NAME);
    }
    if let Some(d) = &d {
        assert_eq!(finished.as_ref().err(), Some(&d.error), "{}: finish after {d}: {text:?}", T::NAME);
    }
    // Fed after the end: ignored.
    let _ = s.feed(b" ");
    assert_eq!(s.finish(), finished, "{}: finish again after a feed: {text:?}", T::NAME);

    // The quick reader changes nothing but the cost: the same answer at every feed, and at
    // the end, as the stream without it.
    let mut quick = Stream::<T>::with_capacity(text.len());
    let mut plain = Stream::<T>::with_capacity(text.len()).__automaton_only();
    for (i, piece) in pieces.iter().enumerate() {
        let (a, b) = (quick.feed(piece), plain.feed(piece));
        assert_eq!(a, b, "{}: feed {i}, with and without the quick reader: {text:?}", T::NAME);
    }
    assert_eq!(quick.finish(), plain.finish(), "{}: finish with and without the quick reader: {text:?}", T::NAME);

    // A `TextStream` given the text so far answers as the stream fed the pieces.
    let mut over = TextStream::<T>::new();
    let mut stream = Stream::<T>::new();
    let mut fed = 0;
    for (i, piece) in pieces.iter().enumerate() {
        fed += piece.len();
        let (a, b) = (stream.feed(piece), over.feed_text(text.get(..fed).unwrap_or_default()));
        assert_eq!(a, b, "{}: feed {i}, the stream and the text stream: {text:?}", T::NAME);
    }
    assert_eq!(stream.can_finish(), over.can_finish(text), "{}: can_finish of the text stream: {text:?}", T::NAME);
    assert_eq!(over.clone().finish(text), finished, "{}: finish of the text stream: {text:?}", T::NAME);
    if valid {
        let expected = std::str::from_utf8(text).map(T::from_json);
        assert_eq!(Ok(over.into_tool(text)), expected, "{}: the text stream's into_tool: {text:?}", T::NAME);
    }

    if valid {
        let built = s.into_tool();
        let expected = std::str::from_utf8(text).map(T::from_json);
        assert_eq!(Ok(built), expected, "{}: into_tool vs from_json: {text:?}", T::NAME);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&header, rest)) = data.split_first() else { return };
    let n = usize::from(header & 7).min(rest.len());
    let (sizes, text) = rest.split_at(n);
    let whole = header & 8 != 0;
    // The partial value of a text the strict parse takes is its value; every prefix has one or
    // none, without a panic.
    if let Some(value) = std::str::from_utf8(text).ok().and_then(|t| toolgate::parse(t).ok()) {
        assert_eq!(partial_value(text), Some(value), "partial value of a whole text: {text:?}");
    }
    // Built as the pieces arrive: after each, what the text so far stands for.
    let mut built = PartialValue::new();
    let mut fed = 0;
    for piece in chunks(text, sizes) {
        built.feed(piece);
        fed += piece.len();
        if text.len() <= PREFIX_CHECK_MAX || fed == text.len() {
            let so_far = partial_value(text.get(..fed).unwrap_or_default());
            assert_eq!(built.value(), so_far.as_ref(), "partial value built up to {fed}: {text:?}");
        }
    }
    for_each_tool!(check(text, sizes, whole));
});
