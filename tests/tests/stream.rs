//! The streaming validator against `is_valid_json`, over every fixture schema, its valid and
//! invalid instances, the malformed texts and ~150 mutants of each: sound (a prefix of a valid
//! text is never dead, at any cut), agreeing at the end (for every chunking), and deterministic
//! (where it dies does not depend on how the text was split).

#![allow(clippy::pedantic)]

mod fixtures;

use std::fmt::Debug;

use fixtures::{mutants, Lcg, Visit, MALFORMED};
use toolgate::{Progress, Stream, TextStream, Tool};

/// Feed `text` in the chunks `sizes` cycles through; the death offset (if any) and the end.
/// The stream's quick reader changes nothing but the cost: every feed, and `finish`, answer
/// what the same stream without it answers; and so does a `TextStream` given the text so far.
fn run<T: Tool>(text: &[u8], sizes: &[usize]) -> (Option<usize>, bool, Stream<T>) {
    let mut s = T::stream();
    let mut plain = T::stream().__automaton_only();
    let mut over = TextStream::<T>::new();
    let mut at = 0;
    let mut k = 0;
    let mut dead = None;
    while at < text.len() {
        let n = sizes[k % sizes.len()].max(1).min(text.len() - at);
        k += 1;
        let p = s.feed(&text[at..at + n]);
        let q = plain.feed(&text[at..at + n]);
        assert_eq!(
            p,
            q,
            "bytes {at}..{} of {:?}: with and without the quick reader",
            at + n,
            String::from_utf8_lossy(text)
        );
        assert_eq!(
            p,
            over.feed_text(&text[..at + n]),
            "bytes {at}..{} of {:?}: the stream and the text stream",
            at + n,
            String::from_utf8_lossy(text)
        );
        if let Progress::Dead(d) = p {
            dead.get_or_insert(d.offset);
        }
        at += n;
    }
    let finished = s.finish();
    assert_eq!(finished, over.finish(text), "finish of the text stream: {:?}", String::from_utf8_lossy(text));
    let ok = finished.is_ok();
    assert_eq!(
        ok,
        plain.finish().is_ok(),
        "finish with and without the quick reader: {:?}",
        String::from_utf8_lossy(text)
    );
    (dead, ok, s)
}

/// Check one text; returns whether it died before its end.
fn check<T: Tool>(name: &str, text: &str, seed: u64) -> (bool, bool, bool) {
    let valid = T::is_valid_json(text);
    let bytes = text.as_bytes();
    let ctx = || format!("{name}: {text:?}");
    // Byte by byte, looking at every prefix.
    let mut s = T::stream();
    let mut died = None;
    for (i, b) in bytes.iter().enumerate() {
        match s.feed(std::slice::from_ref(b)) {
            Progress::Dead(d) => {
                assert!(!valid, "a prefix of a valid text is dead at byte {i}: {d} ({})", ctx());
                assert!(d.offset <= i, "dead at {} reported after reading only up to {i} ({})", d.offset, ctx());
                died = Some(d.offset);
                break;
            }
            Progress::Alive => {}
        }
    }
    if let Some(v) = s.__automaton_verdict() {
        if died.is_none() {
            assert_eq!(v, valid, "the automaton's own verdict ({})", ctx());
        }
    }
    // The lean automaton decides what the general one decides, at the same byte.
    assert!(!s.__handed_over(), "the lean automaton handed over ({})", ctx());
    if Stream::<T>::__lean() {
        let (reference, ok) = Stream::<T>::__reference(bytes);
        assert_eq!(died, reference, "death offset: lean vs general automaton ({})", ctx());
        assert_eq!(ok, valid, "the general automaton's end verdict ({})", ctx());
    }
    let (d1, ok1, _) = run::<T>(bytes, &[1]);
    assert_eq!(ok1, valid, "finish vs is_valid_json, 1-byte chunks ({})", ctx());
    assert_eq!(d1, died, "{}", ctx());
    // Fragments of two to four bytes, which `feed` reads byte by byte on the quick reader's
    // short way up to the first byte it does not take.
    for short in [2, 3, 4] {
        let (d, ok, _) = run::<T>(bytes, &[short]);
        assert_eq!(ok, valid, "finish vs is_valid_json, {short}-byte chunks ({})", ctx());
        assert_eq!(d, died, "death offset, {short}-byte chunks vs 1-byte chunks ({})", ctx());
    }
    let (d2, ok2, whole) = run::<T>(bytes, &[bytes.len().max(1)]);
    assert_eq!(ok2, valid, "finish vs is_valid_json, one chunk ({})", ctx());
    assert_eq!(d2, died, "death offset, one chunk vs 1-byte chunks ({})", ctx());
    let mut rng = Lcg(seed);
    for _ in 0..3 {
        let sizes: Vec<usize> = (0..8).map(|_| 1 + rng.next() % 17).collect();
        let (d, ok, _) = run::<T>(bytes, &sizes);
        assert_eq!(ok, valid, "finish vs is_valid_json, chunks {sizes:?} ({})", ctx());
        assert_eq!(d, died, "death offset, chunks {sizes:?} ({})", ctx());
    }
    if !valid && died.is_none() {
        // It died at the end, then: finish must say why.
        let (_, _, mut s) = run::<T>(bytes, &[7]);
        assert!(s.finish().is_err(), "{}", ctx());
    }
    (valid, died.is_some_and(|d| d + 1 < bytes.len()), whole.__quick())
}

#[derive(Default)]
struct Sound {
    valid: usize,
    invalid: usize,
    early: usize,
    mutants: bool,
    /// schemas read by the lean automaton, and by the general one
    lean: usize,
    general: usize,
    /// valid texts the quick reader read to their end (fed whole)
    quick: usize,
    /// schemas read first by the flat reader
    flat: usize,
}

impl Visit for Sound {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        self.flat += usize::from(Stream::<T>::__flat());
        if Stream::<T>::__lean() {
            self.lean += 1;
        } else {
            self.general += 1;
        }
        for (i, t) in texts.iter().chain(MALFORMED).enumerate() {
            let mut one = |text: &str, seed: u64| {
                let (valid, early, quick) = check::<T>(name, text, seed);
                if valid {
                    self.valid += 1;
                    self.quick += usize::from(quick);
                } else {
                    self.invalid += 1;
                    self.early += usize::from(early);
                }
            };
            one(t, i as u64);
            if self.mutants && t.len() < 400 {
                for (j, m) in mutants(t, i as u64 * 7919 + name.len() as u64, 150).iter().enumerate() {
                    one(m, j as u64);
                }
            }
        }
    }
}

#[test]
fn fixtures_sound_and_exact_at_the_end() {
    let mut s = Sound::default();
    fixtures::all(&mut s);
    assert!(s.valid > 50 && s.invalid > 100, "{} valid, {} invalid", s.valid, s.invalid);
    assert!(s.early * 2 > s.invalid, "only {} of {} invalid texts died before their last byte", s.early, s.invalid);
    eprintln!(
        "fixture schemas: {} read by the lean automaton, {} by the general one, {} first by the flat reader; {} of \
         {} valid texts read to their end by the quick or flat reader",
        s.lean, s.general, s.flat, s.quick, s.valid
    );
    assert!(s.flat >= 1, "no fixture schema is read by the flat reader");
    assert!(s.lean >= 5 && s.general >= 2, "{} lean, {} general", s.lean, s.general);
    // The quick reader must keep reading the ordinary texts (the parity checks above would pass
    // just as well if it handed every text over at its first byte).
    assert!(s.quick * 3 > s.valid, "the quick reader read only {} of {} valid texts to their end", s.quick, s.valid);
}

#[test]
fn mutants_sound_and_exact_at_the_end() {
    let mut s = Sound { mutants: true, ..Sound::default() };
    fixtures::all(&mut s);
    assert!(s.valid > 500 && s.invalid > 5000, "{} valid, {} invalid", s.valid, s.invalid);
}
