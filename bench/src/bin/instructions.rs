//! Run one reporting entry point on one benchmark input `n` times, for an instruction count under
//! callgrind (repeatable where times are not). The cost of one call is the difference between a
//! run with `n` and a run with `0`, divided by `n`:
//!
//! ```text
//! cargo build --release -p toolgate-bench --bin instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/instructions check flat30/wrong_type 1000
//! ```
//!
//! Entry points: `check` (`check_json` with `Collect`), `from_json`, `value` (`validate` on the
//! parsed value), `valid` (`is_valid_json`), `ignored` (`serde_json::from_str::<IgnoredAny>`, a
//! syntax check), `stream<k>` (a fresh `Stream` fed `k` bytes at a time, then finished: `stream1`,
//! `stream16`), `text<k>` (the same through `feed_text`, given the text so far after every `k`
//! bytes), `over<k>` (a fresh `TextStream` given the text so far after every `k` bytes), `again<k>` (one stream, reset before each reply), `partial<k>` (`toolgate::partial_value` of the text so far after every `k` bytes), `fresh` (a `Stream` made
//! `with_capacity` and dropped, unfed), `hand<k>` (`convert_units` only: the hand-written reader of
//! `toolgate_bench::hand`, an experiment, fed as `stream<k>` feeds a stream). The "instructions per call" tables of
//! docs/BENCHMARKS.md came from it. Besides the benchmark inputs, `write_file/long` is
//! `toolgate_bench::long_reply()`, a long string argument.

#![allow(clippy::pedantic)]

use std::hint::black_box;
use std::process::ExitCode;

use toolgate::{Collect, Tool};
use toolgate_bench::{cases, long_reply, ConvertUnits, Flat30, PlaceOrder, ReadFile, Rows, WriteFile};

fn run<T: Tool>(entry: &str, text: &str, n: u64) -> Result<(), String> {
    match entry {
        "check" => {
            for _ in 0..n {
                let mut sink = Collect::default();
                black_box(T::check_json(black_box(text), &mut sink).is_ok());
                black_box(sink);
            }
        }
        "from_json" => {
            for _ in 0..n {
                black_box(T::from_json(black_box(text)).is_ok());
            }
        }
        "value" => {
            let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
            for _ in 0..n {
                black_box(T::validate(black_box(&value)).is_ok());
            }
        }
        "ignored" => {
            for _ in 0..n {
                black_box(serde_json::from_str::<serde::de::IgnoredAny>(black_box(text)).is_ok());
            }
        }
        "valid" => {
            for _ in 0..n {
                black_box(T::is_valid_json(black_box(text)));
            }
        }
        "fresh" => {
            for _ in 0..n {
                black_box(toolgate::Stream::<T>::with_capacity(black_box(text.len())));
            }
        }
        e if chunk_of(e, "text").is_some() => {
            let chunk = chunk_of(e, "text").unwrap_or(1);
            for _ in 0..n {
                black_box(fed_text::<T>(black_box(text.as_bytes()), chunk));
            }
        }
        e if chunk_of(e, "over").is_some() => {
            let chunk = chunk_of(e, "over").unwrap_or(1);
            for _ in 0..n {
                black_box(fed_over::<T>(black_box(text.as_bytes()), chunk));
            }
        }
        e if chunk_of(e, "again").is_some() => {
            let chunk = chunk_of(e, "again").unwrap_or(1);
            let mut s = toolgate::Stream::<T>::with_capacity(text.len());
            for _ in 0..n {
                black_box(fed_again::<T>(&mut s, black_box(text.as_bytes()), chunk));
            }
        }
        e if chunk_of(e, "partial").is_some() => {
            let chunk = chunk_of(e, "partial").unwrap_or(1);
            for _ in 0..n {
                black_box(partial_values(black_box(text.as_bytes()), chunk));
            }
        }
        e if chunk_of(e, "hand").is_some() => {
            let chunk = chunk_of(e, "hand").unwrap_or(1);
            for _ in 0..n {
                black_box(fed_hand(black_box(text.as_bytes()), chunk));
            }
        }
        stream if stream.starts_with("stream") => {
            let chunk: usize = stream["stream".len()..]
                .parse()
                .map_err(|_| format!("not a chunk size: {stream:?} (stream1, stream16, ...)"))?;
            for _ in 0..n {
                black_box(fed::<T>(black_box(text.as_bytes()), chunk.max(1)));
            }
        }
        _ => {
            return Err(format!(
                "unknown entry point {entry:?}: check, from_json, value, valid, ignored, fresh, stream<chunk>, again<chunk>, text<chunk>, over<chunk>, partial<chunk> or hand<chunk>"
            ))
        }
    }
    Ok(())
}

/// `toolgate::partial_value` of the text so far after every `chunk` bytes: whether each stood
/// for a value.
#[inline(never)]
fn partial_values(text: &[u8], chunk: usize) -> bool {
    let mut end = 0;
    let mut shown = true;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        shown &= black_box(toolgate::partial_value(text.get(..end).unwrap_or_default())).is_some();
    }
    shown
}

/// A fresh stream fed `text` in `chunk`-byte pieces, then finished: its verdict (as the stream
/// bench's own function; not inlined into the loop, so that what the other entries add to `run`
/// does not change its code).
#[inline(never)]
fn fed<T: Tool>(text: &[u8], chunk: usize) -> bool {
    let mut s = toolgate::Stream::<T>::with_capacity(text.len());
    for piece in text.chunks(chunk) {
        if s.feed(piece).is_dead() {
            return false;
        }
    }
    s.finish().is_ok()
}

/// The same through `feed_text`, given the text so far after every `chunk` bytes.
#[inline(never)]
fn fed_text<T: Tool>(text: &[u8], chunk: usize) -> bool {
    let mut s = toolgate::Stream::<T>::with_capacity(text.len());
    let mut end = 0;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        if s.feed_text(text.get(..end).unwrap_or_default()).is_dead() {
            return false;
        }
    }
    s.finish().is_ok()
}

/// A fresh `TextStream` given the text so far after every `chunk` bytes, then finished.
#[inline(never)]
fn fed_over<T: Tool>(text: &[u8], chunk: usize) -> bool {
    let mut s = toolgate::TextStream::<T>::new();
    let mut end = 0;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        if s.feed_text(text.get(..end).unwrap_or_default()).is_dead() {
            return false;
        }
    }
    s.finish(text).is_ok()
}

/// The same, fed to `s` after a reset (a stream reused from reply to reply).
#[inline(never)]
fn fed_again<T: Tool>(s: &mut toolgate::Stream<T>, text: &[u8], chunk: usize) -> bool {
    s.reset();
    for piece in text.chunks(chunk) {
        if s.feed(piece).is_dead() {
            return false;
        }
    }
    s.finish().is_ok()
}

/// The hand-written reader of `convert_units` (`toolgate_bench::hand`), fed as [`fed`] feeds a
/// stream.
#[inline(never)]
fn fed_hand(text: &[u8], chunk: usize) -> bool {
    let mut h = toolgate_bench::hand::Hand::with_capacity(text.len());
    for piece in text.chunks(chunk) {
        if !h.feed(piece) {
            return false;
        }
    }
    h.finish()
}

/// The chunk size of an entry `<prefix><k>` (`text16`, `again1`), at least 1.
fn chunk_of(entry: &str, prefix: &str) -> Option<usize> {
    entry.strip_prefix(prefix).and_then(|k| k.parse::<usize>().ok()).map(|k| k.max(1))
}

/// Run `entry` on the benchmark input `case` (`schema/case`) `n` times.
fn bench_case(entry: &str, case: &str, n: u64) -> Result<(), String> {
    let Some(c) = cases().into_iter().find(|c| format!("{}/{}", c.schema, c.name) == case) else {
        return Err(format!("no benchmark input {case}"));
    };
    let text = c.text.as_str();
    if entry.starts_with("hand") && c.schema != "convert_units" {
        return Err("the hand-written reader reads convert_units only".to_owned());
    }
    match c.schema {
        "convert_units" => run::<ConvertUnits>(entry, text, n),
        "read_file" => run::<ReadFile>(entry, text, n),
        "flat30" => run::<Flat30>(entry, text, n),
        "rows" => run::<Rows>(entry, text, n),
        "place_order" => run::<PlaceOrder>(entry, text, n),
        other => Err(format!("no tool for schema {other}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [entry, case, n] = args.as_slice() else {
        eprintln!(
            "usage: instructions <check|from_json|value|valid|ignored|fresh|stream<k>|again<k>|text<k>|over<k>|hand<k>> <schema/case> <n>"
        );
        return ExitCode::FAILURE;
    };
    let Ok(n) = n.parse::<u64>() else {
        eprintln!("not a count: {n}");
        return ExitCode::FAILURE;
    };
    let done =
        if case == "write_file/long" { run::<WriteFile>(entry, &long_reply(), n) } else { bench_case(entry, case, n) };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
