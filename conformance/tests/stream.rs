//! The streaming validator (`T::stream()`) over every case of every accepted group of the
//! official JSON Schema Test Suite (every draft, required and optional), and over the in-repo
//! fixtures' instances (`tests/tests/fixtures`).
//!
//! Each text is fed byte by byte (every prefix of a valid case must stay alive), in one chunk and
//! in three seeded random chunkings: `finish()` must equal the suite's verdict and
//! `is_valid_json`, the death offset must not depend on the chunking, and the automaton's own
//! end verdict (when it gives one) must be right. Regenerates `docs/STREAMING.md`
//! (deterministically): how early the invalid cases of draft 2020-12 were rejected. Says loudly
//! that it skipped when the suite is absent.

use std::fmt::Debug;
use std::path::PathBuf;

use toolgate::Tool;
use toolgate_conformance::{
    check_stream, generated::SUITE, random_chunking, run_stream, seed_of, stream_report, stream_run, Earliness,
};

#[path = "../../tests/tests/fixtures/mod.rs"]
mod fixtures;

/// The fixtures' instances through the stream: earliness per fixture, broken guarantees.
#[derive(Default)]
struct Fixtures {
    earliness: Vec<(String, Earliness)>,
    failures: Vec<String>,
}

impl fixtures::Visit for Fixtures {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        let mut e = Earliness::default();
        for (i, text) in texts.iter().enumerate() {
            let seed = seed_of(&[name, &i.to_string()]);
            let mut chunkings = vec![vec![text.len().max(1)]];
            chunkings.extend((0..3).map(|k| random_chunking(seed.wrapping_add(k))));
            let r = check_stream(stream_run::<T>, T::is_valid_json, text, None, &chunkings);
            if !T::is_valid_json(text) {
                e.add(r.dead, r.len);
            }
            if !r.wrong.is_empty() {
                self.failures.push(format!("fixture {name} / text {i} {text:?}: {}", r.wrong.join("; ")));
            }
        }
        self.earliness.push((name.to_owned(), e));
    }
}

#[test]
fn stream_over_the_suite() {
    let mut fx = Fixtures::default();
    fixtures::all(&mut fx);
    if !SUITE.present {
        eprintln!(
            "\n=== SKIPPED: the JSON Schema Test Suite was not found ({}) ===\n\
             Set TOOLGATE_SUITE_DIR to a checkout of json-schema-org/JSON-Schema-Test-Suite and rebuild.\n\
             (The in-repo fixtures were checked: {} broken guarantee(s).)\n",
            SUITE.location,
            fx.failures.len()
        );
        assert!(fx.failures.is_empty(), "stream broke a guarantee on a fixture:\n{}", fx.failures.join("\n"));
        return;
    }
    let outcome = run_stream(&SUITE);
    let fixture_rows: Vec<(&str, Earliness)> = fx.earliness.iter().map(|(n, e)| (n.as_str(), e.clone())).collect();
    let text = stream_report(&SUITE, &outcome, &fixture_rows);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("docs").join("STREAMING.md");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        if let Err(e) = std::fs::write(&path, &text) {
            panic!("cannot write {}: {e}", path.display());
        }
        eprintln!("updated {}", path.display());
    }
    // The README quotes the totals: they must be the report's (compared with lines joined).
    let summary = toolgate_conformance::stream_summary(&outcome, &fixture_rows);
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("README.md");
    let readme = std::fs::read_to_string(&readme).unwrap_or_default();
    let joined = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains(&summary),
        "README.md's streaming section must say the report's totals, now:\n{summary}\n(docs/STREAMING.md has them)"
    );
    let mut all = Earliness::default();
    for (_, _, e) in &outcome.files {
        all.merge(e);
    }
    eprintln!(
        "stream over the suite: draft 2020-12: {} valid and {} invalid cases; {} of {} invalid rejected before \
         their last byte, median saved {:.1}%; draft-07/06/04: {} valid and {} invalid cases",
        outcome.cases.0,
        outcome.cases.1,
        all.early,
        all.invalid,
        all.median_saved().unwrap_or(0.0) * 100.0,
        outcome.other_drafts.0,
        outcome.other_drafts.1
    );
    let mut failures = outcome.failures.clone();
    failures.extend(fx.failures);
    assert!(outcome.cases.0 > 0 && outcome.cases.1 > 0, "the suite is present but nothing was checked");
    assert!(failures.is_empty(), "{} case(s) broke a stream guarantee:\n{}", failures.len(), failures.join("\n"));
}

/// A stream that is dead at the first byte of every text and whose `finish()` always fails.
fn always_dead(text: &str, _sizes: &[usize]) -> toolgate_conformance::StreamRun {
    toolgate_conformance::StreamRun {
        dead: (!text.is_empty()).then(|| toolgate_conformance::StreamDeath {
            offset: 0,
            fed: 1,
            error: "dead".to_owned(),
        }),
        unstable: false,
        verdict: None,
        finish: Err("dead".to_owned()),
        reference: None,
        handed_over: false,
        quick: None,
        flat: false,
        over: None,
    }
}

/// A stream whose death offset depends on the chunking (the first chunk's last byte).
fn chunk_dependent(text: &str, sizes: &[usize]) -> toolgate_conformance::StreamRun {
    let at = sizes.first().copied().unwrap_or(text.len()).clamp(1, text.len()) - 1;
    toolgate_conformance::StreamRun {
        dead: Some(toolgate_conformance::StreamDeath { offset: at, fed: at + 1, error: "dead".to_owned() }),
        unstable: false,
        verdict: None,
        finish: Err("dead".to_owned()),
        reference: None,
        handed_over: false,
        quick: None,
        flat: false,
        over: None,
    }
}

/// A lean stream that dies at the first byte where the general automaton dies at the second.
fn lean_disagrees(text: &str, sizes: &[usize]) -> toolgate_conformance::StreamRun {
    toolgate_conformance::StreamRun { reference: (sizes == [1]).then_some(Some(1)), ..always_dead(text, sizes) }
}

/// A stream that a `TextStream` fed the same text did not agree with.
fn over_disagrees(text: &str, sizes: &[usize]) -> toolgate_conformance::StreamRun {
    toolgate_conformance::StreamRun {
        over: Some("finish: Err(\"dead\"), the text stream Ok(())".to_owned()),
        ..always_dead(text, sizes)
    }
}

/// A stream whose quick reader answered otherwise than the automaton alone.
fn quick_disagrees(text: &str, sizes: &[usize]) -> toolgate_conformance::StreamRun {
    toolgate_conformance::StreamRun {
        quick: Some("bytes 0..1: Alive, without the quick reader Dead".to_owned()),
        ..always_dead(text, sizes)
    }
}

fn accept_all(_: &str) -> bool {
    true
}

fn reject_all(_: &str) -> bool {
    false
}

/// The harness itself: a broken stream must be reported.
#[test]
fn check_stream_reports_a_broken_stream() {
    let r = check_stream(always_dead, accept_all, "{}", Some(true), &[vec![2]]);
    assert!(r.wrong.iter().any(|w| w.starts_with("UNSOUND (1-byte chunks)")), "{:?}", r.wrong);
    assert!(r.wrong.iter().any(|w| w.contains("finish() is Err")), "{:?}", r.wrong);
    let r = check_stream(always_dead, reject_all, "{}", Some(false), &[vec![2]]);
    assert!(r.wrong.is_empty(), "{:?}", r.wrong);
    assert_eq!(r.dead, Some(0));
    let r = check_stream(lean_disagrees, reject_all, "{}", Some(false), &[vec![2]]);
    assert_eq!(r.wrong, ["1-byte chunks: the lean automaton died at Some(0), the general one at Some(1)"]);
    let r = check_stream(quick_disagrees, reject_all, "{}", Some(false), &[]);
    assert_eq!(
        r.wrong,
        ["1-byte chunks: the quick reader changed the answer at bytes 0..1: Alive, without the quick reader Dead"]
    );
    let r = check_stream(over_disagrees, reject_all, "{}", Some(false), &[]);
    assert_eq!(
        r.wrong,
        ["1-byte chunks: the text stream answered otherwise at finish: Err(\"dead\"), the text stream Ok(())"]
    );
    let r = check_stream(chunk_dependent, reject_all, "[1, 2]", Some(false), &[vec![6], vec![3, 1]]);
    assert!(r.wrong.iter().any(|w| w.contains("death offset Some(5), with 1-byte chunks Some(0)")), "{:?}", r.wrong);
    assert!(r.wrong.iter().any(|w| w.contains("death offset Some(2)")), "{:?}", r.wrong);
    let mut e = Earliness::default();
    e.add(Some(0), 4); // 3 of 4 bytes never waited for
    e.add(Some(3), 4); // dead at the last byte: not early
    e.add(None, 4); // decided by finish()
    assert_eq!((e.invalid, e.early), (3, 1));
    assert_eq!(e.median_saved(), Some(0.0));
    e.add(Some(1), 4);
    assert_eq!(e.median_saved(), Some(0.25));
}
