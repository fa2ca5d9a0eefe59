//! Streaming: the prefix automaton (`Tool::stream`) against the one-pass text check, on each
//! schema's valid reply from `cases()`, in one run:
//!
//! - (a) `T::is_valid_json(text)`: the whole reply at once;
//! - (b) a fresh `Stream::<T>::with_capacity(len)` fed the reply in 1-byte chunks, then `finish`;
//! - (c) the same in 16-byte chunks;
//! - (d) what a partial-JSON parser does: after each 16-byte chunk, a full check of the text so
//!   far (`is_valid_json` on the growing prefix stands in for it): quadratic in the length;
//! - (e) what a tool-calling framework's user with jsonschema does: wait for the whole reply,
//!   parse it with `serde_json` and validate the value with `#[jsonschema::validator]`'s code;
//! - (f) what a client with pydantic's partial mode does, with its parser: after each 16-byte
//!   chunk, jiter's partial parse (`PartialMode::TrailingStrings`) of the text so far, to a value
//!   (which such a client would then validate, and which never says the prefix is hopeless);
//! - (g) a fresh stream fed in 4-byte chunks (a provider's delta is a token: a few bytes);
//! - (h) a fresh stream fed the reply token by token, as `o200k_base` (OpenAI's tokenizer of its
//!   GPT-4o and later models) splits it: the deltas a model streaming this reply sends;
//! - (j) a fresh `TextStream::<T>` given the text so far after every byte (1-byte chunks), then
//!   finished: a caller that keeps the text itself, which the text stream reads instead of
//!   copying it; (k) the same in 16-byte chunks;
//! - (l) toolgate's own repair of a prefix for display: after each 16-byte chunk,
//!   `toolgate::partial_value` of the text so far (what (f) gives, from toolgate's strict
//!   grammar), to compare with (f); (m) the same value built as the reply arrives: a
//!   `toolgate::PartialValue` fed the 16-byte chunks, its value looked at after each;
//! - (i) for `convert_units` only, an experiment: a reader written by hand for that schema
//!   (`toolgate_bench::hand`), what the macro could emit per schema, fed as (b), (c), (g), (h).
//!
//! Before measuring, every case (the invalid ones too) is checked: the stream's verdict is
//! `is_valid_json`'s at every chunking, a valid reply is never dead on the way, and the byte at
//! which a reply dies does not depend on the chunking. `bench/run.sh` runs this after `compare`;
//! the table is printed by `cargo run -p toolgate-bench --bin table`.

#![allow(missing_docs, clippy::pedantic)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use tiktoken_rs::CoreBPE;
use toolgate::{Progress, Stream, TextStream, Tool};
use toolgate_bench::hand::Hand;
use toolgate_bench::{cases, jsm, Case, ConvertUnits, Flat30, PlaceOrder, ReadFile, Rows};

/// (e): the whole reply parsed, then validated by jsonschema's compile-time validator.
type AtEnd = fn(&str) -> bool;

/// Feed `text` in `chunk`-byte pieces to a fresh stream, then finish: the verdict.
fn stream<T: Tool>(text: &[u8], chunk: usize) -> bool {
    let mut s = Stream::<T>::with_capacity(text.len());
    for piece in text.chunks(chunk) {
        if s.feed(piece).is_dead() {
            return false;
        }
    }
    s.finish().is_ok()
}

/// Give a fresh `TextStream` the text so far after every `chunk` bytes, then finish: the
/// verdict.
fn over<T: Tool>(text: &[u8], chunk: usize) -> bool {
    let mut s = TextStream::<T>::new();
    let mut end = 0;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        if s.feed_text(text.get(..end).unwrap_or_default()).is_dead() {
            return false;
        }
    }
    s.finish(text).is_ok()
}

/// Feed `text` to a fresh hand-written reader of `convert_units` (`toolgate_bench::hand`) in
/// pieces of the given lengths, repeated to the end (`&[16]`: 16-byte chunks): the verdict.
fn hand(text: &[u8], pieces: &[usize]) -> bool {
    let mut h = Hand::with_capacity(text.len());
    let mut at = 0;
    for &n in pieces.iter().cycle() {
        if at >= text.len() {
            break;
        }
        let end = (at + n.max(1)).min(text.len());
        if !h.feed(text.get(at..end).unwrap_or_default()) {
            return false;
        }
        at = end;
    }
    h.finish()
}

/// Feed `text` in pieces of the given lengths to a fresh stream, then finish: the verdict.
fn stream_pieces<T: Tool>(text: &[u8], pieces: &[usize]) -> bool {
    let mut s = Stream::<T>::with_capacity(text.len());
    let mut at = 0;
    for &n in pieces {
        let end = at + n;
        if s.feed(text.get(at..end).unwrap_or_default()).is_dead() {
            return false;
        }
        at = end;
    }
    s.finish().is_ok()
}

/// The lengths of `text`'s tokens under `bpe`, in order (they add up to the text: checked).
fn token_lengths(bpe: &CoreBPE, text: &str) -> Vec<usize> {
    let lengths: Vec<usize> = bpe
        .encode_ordinary(text)
        .iter()
        .map(|&t| bpe.decode_bytes(&[t]).expect("a token of the text decodes").len())
        .collect();
    assert_eq!(lengths.iter().sum::<usize>(), text.len(), "the tokens spell the text");
    lengths
}

/// After each `chunk` bytes, check the whole text so far: the verdict on the last prefix.
fn recheck<T: Tool>(text: &str, chunk: usize) -> bool {
    let mut end = 0;
    let mut valid = false;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        // The bench texts are ASCII: every end is a character boundary.
        valid = text.get(..end).is_some_and(|prefix| black_box(T::is_valid_json(black_box(prefix))));
    }
    valid
}

/// After each `chunk` bytes, `read` of the text so far: whether it held of every prefix.
fn per_prefix(text: &[u8], chunk: usize, read: impl Fn(&[u8]) -> bool) -> bool {
    let mut end = 0;
    let mut all = true;
    while end < text.len() {
        end = (end + chunk).min(text.len());
        all &= read(black_box(text.get(..end).unwrap_or_default()));
    }
    all
}

/// After each `chunk` bytes, jiter's partial parse of the text so far: whether every prefix
/// parsed.
fn partial_reparse(text: &[u8], chunk: usize) -> bool {
    per_prefix(text, chunk, |prefix| {
        black_box(jiter::JsonValue::parse_with_config(prefix, false, jiter::PartialMode::TrailingStrings)).is_ok()
    })
}

/// After each `chunk` bytes, `toolgate::partial_value` of the text so far: whether every prefix
/// stood for a value.
fn partial_values(text: &[u8], chunk: usize) -> bool {
    per_prefix(text, chunk, |prefix| black_box(toolgate::partial_value(prefix)).is_some())
}

/// A `PartialValue` fed `chunk`-byte pieces, its value looked at after each: whether every
/// prefix stood for a value.
fn partial_built(text: &[u8], chunk: usize) -> bool {
    let mut built = toolgate::PartialValue::new();
    let mut shown = true;
    for piece in text.chunks(chunk) {
        built.feed(piece);
        shown &= black_box(built.value()).is_some();
    }
    shown
}

/// Where a stream fed in `chunk`-byte pieces dies, if it does, and its verdict at the end.
fn death<T: Tool>(text: &[u8], chunk: usize) -> (Option<usize>, bool) {
    let mut s = Stream::<T>::new();
    for piece in text.chunks(chunk) {
        if let Progress::Dead(d) = s.feed(piece) {
            return (Some(d.offset), s.finish().is_ok());
        }
    }
    (None, s.finish().is_ok())
}

fn sanity<T: Tool>(case: &Case, at_end: AtEnd, tokens: &[usize]) {
    let text = case.text.as_bytes();
    let label = format!("{}/{}", case.schema, case.name);
    assert_eq!(T::is_valid_json(&case.text), case.valid, "{label}: is_valid_json");
    assert_eq!(at_end(&case.text), case.valid, "{label}: serde_json + jsonschema");
    let one = death::<T>(text, 1);
    for chunk in [1, 2, 3, 4, 7, 16, 64, text.len().max(1)] {
        let got = death::<T>(text, chunk);
        assert_eq!(got.1, case.valid, "{label}: stream verdict in {chunk}-byte chunks");
        assert_eq!(got.0, one.0, "{label}: death offset in {chunk}-byte chunks vs 1-byte chunks");
        if case.valid {
            assert_eq!(got.0, None, "{label}: a valid reply died in {chunk}-byte chunks");
        }
    }
    assert_eq!(stream::<T>(text, 1), case.valid, "{label}: stream, 1-byte chunks");
    assert_eq!(stream::<T>(text, 16), case.valid, "{label}: stream, 16-byte chunks");
    assert_eq!(stream::<T>(text, 4), case.valid, "{label}: stream, 4-byte chunks");
    assert_eq!(stream_pieces::<T>(text, tokens), case.valid, "{label}: stream, token by token");
    assert_eq!(over::<T>(text, 1), case.valid, "{label}: text stream, 1-byte chunks");
    assert_eq!(over::<T>(text, 16), case.valid, "{label}: text stream, 16-byte chunks");
    if case.valid {
        // Quadratic: only for the cases measured.
        assert!(recheck::<T>(&case.text, 16), "{label}: re-check of the prefixes");
        assert!(partial_reparse(text, 16), "{label}: jiter's partial parse of the prefixes");
        assert!(partial_values(text, 16), "{label}: toolgate's partial values of the prefixes");
        assert!(partial_built(text, 16), "{label}: toolgate's partial value built as the reply arrives");
        if case.schema == "convert_units" {
            for pieces in [&[1][..], &[4], &[16], tokens] {
                assert!(hand(text, pieces), "{label}: the hand-written reader, pieces {pieces:?}");
            }
        }
    }
}

fn measure<T: Tool>(c: &mut Criterion, case: &Case, at_end: AtEnd, tokens: &[usize]) {
    let text = case.text.as_str();
    let bytes = text.as_bytes();
    let mut g = c.benchmark_group(format!("stream-{}", case.schema));
    // One iteration of (d) on `rows` (70 kB) re-reads ~2.5 GB; flat sampling keeps it to one
    // iteration per sample instead of criterion's linear ramp.
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function("is_valid_json", |b| b.iter(|| T::is_valid_json(black_box(text))));
    g.bench_function("stream_1", |b| b.iter(|| stream::<T>(black_box(bytes), 1)));
    g.bench_function("stream_16", |b| b.iter(|| stream::<T>(black_box(bytes), 16)));
    g.bench_function("recheck_16", |b| b.iter(|| recheck::<T>(black_box(text), 16)));
    g.bench_function("jsonschema_at_end", |b| b.iter(|| at_end(black_box(text))));
    g.bench_function("jiter_partial_16", |b| b.iter(|| partial_reparse(black_box(bytes), 16)));
    g.bench_function("partial_value_16", |b| b.iter(|| partial_values(black_box(bytes), 16)));
    g.bench_function("partial_built_16", |b| b.iter(|| partial_built(black_box(bytes), 16)));
    g.bench_function("stream_4", |b| b.iter(|| stream::<T>(black_box(bytes), 4)));
    g.bench_function("stream_tokens", |b| b.iter(|| stream_pieces::<T>(black_box(bytes), black_box(tokens))));
    g.bench_function("text_1", |b| b.iter(|| over::<T>(black_box(bytes), 1)));
    g.bench_function("text_16", |b| b.iter(|| over::<T>(black_box(bytes), 16)));
    if case.schema == "convert_units" {
        // (i) The experiment of `toolgate_bench::hand`: a reader written by hand for this schema,
        // what the macro could emit per schema, fed as (b), (c), (g) and (h) feed a stream.
        g.bench_function("hand_1", |b| b.iter(|| hand(black_box(bytes), &[1])));
        g.bench_function("hand_16", |b| b.iter(|| hand(black_box(bytes), &[16])));
        g.bench_function("hand_4", |b| b.iter(|| hand(black_box(bytes), &[4])));
        g.bench_function("hand_tokens", |b| b.iter(|| hand(black_box(bytes), black_box(tokens))));
    }
    g.finish();
}

fn for_case(case: &Case, c: Option<&mut Criterion>, bpe: &CoreBPE) {
    let tokens = token_lengths(bpe, &case.text);
    macro_rules! run {
        ($t:ty, $jsm:path) => {{
            let at_end: AtEnd = |t| serde_json::from_str::<serde_json::Value>(t).is_ok_and(|v| <$jsm>::is_valid(&v));
            match c {
                None => sanity::<$t>(case, at_end, &tokens),
                Some(c) => measure::<$t>(c, case, at_end, &tokens),
            }
        }};
    }
    match case.schema {
        "convert_units" => run!(ConvertUnits, jsm::ConvertUnits),
        "read_file" => run!(ReadFile, jsm::ReadFile),
        "flat30" => run!(Flat30, jsm::Flat30),
        "rows" => run!(Rows, jsm::Rows),
        "place_order" => run!(PlaceOrder, jsm::PlaceOrder),
        other => panic!("no tool for schema {other}"),
    }
}

fn streaming(c: &mut Criterion) {
    let all = cases();
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs ships the vocabulary");
    for case in &all {
        for_case(case, None, &bpe);
    }
    for case in all.iter().filter(|c| c.valid) {
        for_case(case, Some(c), &bpe);
    }
}

fn config() -> Criterion {
    // Modest times, as in `compare`: the benchmark machine is shared.
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = streaming }
criterion_main!(benches);
