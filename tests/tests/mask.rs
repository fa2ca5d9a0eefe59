//! Token masks: equal to brute force (clone the stream, feed the token) at every prefix of every
//! fixture text; random walks under the mask end valid whenever they end; the tokenization of every
//! valid text is never masked; bad vocabularies have a documented meaning.

#![allow(clippy::pedantic)]

mod fixtures;

use std::collections::BTreeSet;
use std::fmt::Debug;

use fixtures::{Lcg, Visit};
use toolgate::{Stream, TextStream, TokenMask, Tool, Vocabulary};

/// A vocabulary cut from `texts`: every byte, and pieces of 2 to 6 bytes at seeded places (so
/// tokens split UTF-8 characters, escapes and keys), plus a few bytes no text has.
fn vocabulary(texts: &[&str], seed: u64) -> Vec<Vec<u8>> {
    let mut set: BTreeSet<Vec<u8>> = BTreeSet::new();
    for b in 0..=255u8 {
        if b < 0x20 && b != b'\n' || b >= 0xF8 {
            continue;
        }
        set.insert(vec![b]);
    }
    let mut rng = Lcg(seed);
    for t in texts {
        let b = t.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let n = 2 + rng.next() % 5;
            let end = (i + n).min(b.len());
            set.insert(b[i..end].to_vec());
            i = end;
        }
    }
    let mut v: Vec<Vec<u8>> = set.into_iter().collect();
    v.push(Vec::new()); // an empty token
    v.push(b"{".to_vec()); // a duplicate
    v
}

fn brute<T: Tool>(s: &Stream<T>, vocab: &Vocabulary) -> Vec<usize> {
    (0..vocab.len())
        .filter(|&t| {
            let mut c = s.clone();
            !c.feed(vocab.bytes(t)).is_dead()
        })
        .collect()
}

struct Brute {
    prefixes: usize,
}

impl Visit for Brute {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        let short: Vec<&str> = texts.iter().copied().filter(|t| t.len() < 2_000).collect();
        let vocab = Vocabulary::new(vocabulary(&short, name.len() as u64));
        let mut mask = TokenMask::new(&vocab);
        // Every cut point of a few texts per schema (valid and invalid): brute force is slow.
        // A `TextStream` given the same text (with a mask of its own) allows the same tokens.
        let mut over_mask = TokenMask::new(&vocab);
        for text in texts.iter().filter(|t| t.len() < 400).take(3) {
            let mut s = T::stream();
            let mut over = TextStream::<T>::new();
            for (i, b) in text.as_bytes().iter().enumerate() {
                let so_far = &text.as_bytes()[..i];
                s.allowed(&vocab, &mut mask);
                let got: Vec<usize> = mask.allowed().collect();
                assert_eq!(got.len(), mask.count());
                assert_eq!(got, brute(&s, &vocab), "{name}: after {:?}", String::from_utf8_lossy(so_far));
                over.allowed(so_far, &vocab, &mut over_mask);
                assert_eq!(over_mask.words(), mask.words(), "{name}: the text stream, after {so_far:?}");
                self.prefixes += 1;
                let dead = s.feed(std::slice::from_ref(b)).is_dead();
                assert_eq!(over.feed_text(&text.as_bytes()[..=i]).is_dead(), dead, "{name}: at byte {i}");
                if dead {
                    s.allowed(&vocab, &mut mask);
                    assert_eq!(mask.count(), 0, "a dead stream allows nothing");
                    over.allowed(&text.as_bytes()[..=i], &vocab, &mut over_mask);
                    assert_eq!(over_mask.count(), 0, "a dead text stream allows nothing");
                    break;
                }
            }
            // A text of another length than the text read allows nothing.
            if !over.progress().is_dead() && !text.is_empty() {
                over.allowed(&text.as_bytes()[..text.len() - 1], &vocab, &mut over_mask);
                assert_eq!(over_mask.count(), 0, "{name}: a text the text stream did not read");
            }
        }
    }
}

#[test]
fn masks_equal_brute_force_at_every_prefix() {
    let mut b = Brute { prefixes: 0 };
    fixtures::all(&mut b);
    assert!(b.prefixes > 1_000, "{}", b.prefixes);
}

struct Walks {
    walks: usize,
    ended: usize,
    runaway: usize,
    tokenized: usize,
}

impl Visit for Walks {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        let short: Vec<&str> = texts.iter().copied().filter(|t| t.len() < 2_000).collect();
        let pieces = vocabulary(&short, 7 + name.len() as u64);
        let vocab = Vocabulary::new(&pieces);
        let mut mask = TokenMask::new(&vocab);
        // The tokenization of every valid text is never masked (greedy longest match).
        for text in texts.iter().filter(|t| t.len() < 2_000 && T::is_valid_json(t)) {
            let mut s = T::stream();
            let mut rest = text.as_bytes();
            while !rest.is_empty() {
                let t = (0..vocab.len())
                    .filter(|&t| !vocab.bytes(t).is_empty() && rest.starts_with(vocab.bytes(t)))
                    .max_by_key(|&t| vocab.bytes(t).len())
                    .expect("every byte is a token");
                s.allowed(&vocab, &mut mask);
                assert!(mask.contains(t), "{name}: {text}: token {:?} masked", String::from_utf8_lossy(vocab.bytes(t)));
                s.feed(vocab.bytes(t));
                rest = &rest[vocab.bytes(t).len()..];
            }
            assert!(s.can_finish(), "{name}: {text}");
            self.tokenized += 1;
        }
        // Random walks: random logits, structural tokens favoured so that walks end.
        let walks = std::env::var("TOOLGATE_MASK_WALKS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
        let mut rng = Lcg(name.len() as u64 * 31 + 1);
        for _ in 0..walks {
            let mut s = T::stream();
            let mut steps = 0;
            loop {
                s.allowed(&vocab, &mut mask);
                let can_end = s.can_finish();
                if can_end && rng.next().is_multiple_of(3) {
                    let text = String::from_utf8(s.text().to_vec()).expect("a finished walk is UTF-8");
                    assert!(T::is_valid_json(&text), "{name}: a walk ended invalid: {text:?}");
                    assert!(s.finish().is_ok(), "{name}: {text:?}");
                    self.ended += 1;
                    break;
                }
                let allowed: Vec<usize> = mask.allowed().collect();
                if allowed.is_empty() || steps == 200 {
                    // Stuck (a completeness gap: see the README) or a runaway: counted, not valid.
                    assert!(!can_end || steps == 200, "{name}: no token allowed but it can finish");
                    if allowed.is_empty() && !can_end {
                        panic!("{name}: stuck with nothing allowed: {:?}", String::from_utf8_lossy(s.text()));
                    }
                    self.runaway += 1;
                    break;
                }
                let mut weight = |t: usize| -> usize {
                    let b = vocab.bytes(t);
                    if b.iter().any(|c| b"\"}]".contains(c)) {
                        200
                    } else {
                        1 + rng.next() % 4
                    }
                };
                let weights: Vec<usize> = allowed.iter().map(|&t| weight(t)).collect();
                let total: usize = weights.iter().sum();
                let mut pick = rng.next() % total.max(1);
                let mut chosen = allowed[0];
                for (t, w) in allowed.iter().zip(&weights) {
                    if pick < *w {
                        chosen = *t;
                        break;
                    }
                    pick -= w;
                }
                assert!(
                    !s.feed(vocab.bytes(chosen)).is_dead(),
                    "{name}: the mask allowed a token that kills the stream"
                );
                steps += 1;
            }
            self.walks += 1;
        }
    }
}

#[test]
fn random_walks_under_the_mask_end_valid() {
    let mut w = Walks { walks: 0, ended: 0, runaway: 0, tokenized: 0 };
    fixtures::all(&mut w);
    eprintln!(
        "{} walks: {} ended valid, {} hit the length budget; {} valid texts tokenized",
        w.walks, w.ended, w.runaway, w.tokenized
    );
    // 300 walks per fixture in CI (3,600); `TOOLGATE_MASK_WALKS=850` gives the 10,000+ of the
    // issue (run before each release of the mask code).
    assert!(w.ended * 3 > w.walks, "{} of {} walks ended", w.ended, w.walks);
    assert!(w.tokenized > 50);
}

#[test]
fn bad_vocabularies_have_a_meaning() {
    toolgate::tool_schema! {
        /// Anything.
        pub struct Any = {};
    }
    // Empty vocabulary: an empty mask.
    let vocab = Vocabulary::new(Vec::<Vec<u8>>::new());
    let mut mask = TokenMask::new(&vocab);
    Any::stream().allowed(&vocab, &mut mask);
    assert_eq!((mask.len(), mask.count(), mask.contains(0)), (0, 0, false));
    // Empty and duplicate tokens; an id out of range is never allowed.
    let vocab = Vocabulary::new(["", "1", "1", "x"]);
    let mut mask = TokenMask::new(&vocab);
    Any::stream().allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 2]);
    assert!(!mask.contains(99) && vocab.bytes(99).is_empty());
    // A mask made for another vocabulary is resized, not misread.
    let small = Vocabulary::new(["1"]);
    let mut mask = TokenMask::new(&small);
    Any::stream().allowed(&vocab, &mut mask);
    assert_eq!(mask.len(), 4);
}

#[test]
fn an_object_closed_by_unevaluated_properties_masks_the_keys_it_refuses() {
    toolgate::tool_schema! {
        /// Draft 2020-12's way to close an object built from parts.
        pub struct Parts = {
            "$defs": {"Base": {"properties": {"id": {"type": "integer"}}, "required": ["id"]}},
            "$ref": "#/$defs/Base",
            "properties": {"kind": {"type": "string"}},
            "unevaluatedProperties": false
        };
    }
    let vocab = Vocabulary::new(["\"id\"", "\"kind\"", "\"other\"", "\"i", "\"o", "\"", "k"]);
    let mut mask = TokenMask::new(&vocab);
    let mut s = Parts::stream();
    assert!(!s.feed(b"{").is_dead());
    s.allowed(&vocab, &mut mask);
    // Only keys that `properties` here or in the `$ref`'s target declare.
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 3, 5], "after {{");
    assert!(!s.feed(b"\"").is_dead());
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [6], "after {{\"");
    assert_eq!(mask.allowed().collect::<Vec<_>>(), brute(&s, &vocab));
}

#[test]
fn an_asserted_format_masks_what_no_string_of_it_continues() {
    toolgate::tool_schema! {
        /// A day.
        #[tool(formats = assert)]
        pub struct Day = {
            "type": "object",
            "properties": {"day": {"type": "string", "format": "date"}}
        };
    }
    let vocab = Vocabulary::new(["0", "1", "2", "3", "-", "x", "\"", "13", "-3", "\\u0030", "\\u01", "\\u003"]);
    let mut mask = TokenMask::new(&vocab);
    let mut s = Day::stream();
    assert!(!s.feed(br#"{"day": "2024-"#).is_dead());
    s.allowed(&vocab, &mut mask);
    // A month is `0` or `1` then a digit: no `2`, `3`, `x`, quote or `-`, and not `13`;
    // `\u0030` is a `0`, `\u003` may still be one, `\u01` is no digit.
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 9, 11], "after 2024-");
    assert_eq!(mask.allowed().collect::<Vec<_>>(), brute(&s, &vocab));
    assert!(!s.feed(b"1").is_dead());
    s.allowed(&vocab, &mut mask);
    // Months 10 to 12 (`\u0030` is `10`).
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 2, 9, 11], "after 2024-1");
    assert_eq!(mask.allowed().collect::<Vec<_>>(), brute(&s, &vocab));
}
