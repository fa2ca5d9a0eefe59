//! Token masks over real tokenizer vocabularies: the time to compute one mask (which of the
//! vocabulary's tokens keep the reply valid) with toolgate's `Stream::allowed`, at several points
//! of the bench schemas' valid replies, over `o200k_base` (199,998 tokens) and `cl100k_base`
//! (100,256 tokens) from `tiktoken-rs` (shipped in the crate, no download).
//!
//! With `--features llguidance`, the same masks from llguidance (`Matcher::compute_mask`, the
//! schema through its JSON-schema front end, the same token byte strings in a `TokTrie`, the
//! same prefix tokens consumed): `cargo bench -p toolgate-bench --features llguidance --bench mask`.
//! The feature is off in `cargo test --workspace` (see `bench/Cargo.toml`: llguidance switches
//! on serde_json's `preserve_order` for the whole build).
//!
//! The points (`points()`): the start of the reply, inside a key, inside a string value, inside a
//! number, each cut from a valid reply of `cases()` and tokenized with the vocabulary's own BPE
//! (`encode_ordinary`); and one deep point, inside a number 35 kB into `rows`. Before measuring,
//! at every point: the next token of the reply's own tokenization is allowed (by both), and the
//! allowed counts are printed and (under `cargo bench`) written to
//! `<target>/criterion/mask-counts.tsv` for
//! `cargo run -p toolgate-bench --bin table`; with the feature, the tokens on which the two
//! masks differ are listed (`MASK_DIFF=n` lists up to n of each, default 8).
//!
//! llguidance caches the last mask of a parser (reused while the lexer state is unchanged, as
//! inside a long string); every measured call invalidates it first, so both sides compute the
//! mask from scratch each time. Its lexer automaton is built lazily and kept: the measured calls
//! run with it warm (criterion's warm-up), which is how it runs in a long generation.
//!
//! In `cargo test` (criterion's test mode, debug build) each benchmark runs once: loading the two
//! vocabularies and building the tries takes a few seconds there.

#![allow(missing_docs, clippy::pedantic)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tiktoken_rs::CoreBPE;
use toolgate::{Stream, TokenMask, Tool, Vocabulary};
use toolgate_bench::{cases, mask_points, ConvertUnits, MaskPoint, PlaceOrder, ReadFile, Rows};

/// A tokenizer's regular tokens (special tokens left out), by rank, and its BPE.
struct Vocab {
    name: &'static str,
    bpe: CoreBPE,
    tokens: Vec<Vec<u8>>,
    toolgate: Vocabulary,
    #[cfg(feature = "llguidance")]
    llg: llg::Llg,
}

/// The byte strings of ranks `0..n`, where `n` is the first rank that is not a regular token.
/// In both vocabularies the regular ranks are contiguous from 0 and end one rank below the first
/// special token (o200k_base: 0..199,998, rank 199,998 unused, `<|endoftext|>` 199,999;
/// cl100k_base: 0..100,256, rank 100,256 unused, `<|endoftext|>` 100,257); a gap anywhere else
/// would be reported here.
fn regular_tokens(bpe: &CoreBPE) -> Vec<Vec<u8>> {
    let first_special =
        bpe.special_tokens().iter().filter_map(|s| bpe.encode_with_special_tokens(s).first().copied()).min();
    let mut tokens = Vec::new();
    for rank in 0..first_special.unwrap_or(u32::MAX) {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) => tokens.push(bytes),
            Err(_) => break,
        }
    }
    let n = tokens.len() as u32;
    for rank in n..first_special.unwrap_or(n) {
        assert!(bpe.decode_bytes(&[rank]).is_err(), "rank {rank} is a regular token after the gap at {n}");
    }
    tokens
}

fn load(name: &'static str) -> Vocab {
    let bpe = match name {
        "o200k_base" => tiktoken_rs::o200k_base(),
        "cl100k_base" => tiktoken_rs::cl100k_base(),
        other => panic!("no vocabulary {other}"),
    }
    .expect("tiktoken-rs ships the vocabulary");
    let tokens = regular_tokens(&bpe);
    let toolgate = Vocabulary::new(&tokens);
    #[cfg(feature = "llguidance")]
    let llg = llg::Llg::new(&tokens);
    Vocab {
        name,
        bpe,
        tokens,
        toolgate,
        #[cfg(feature = "llguidance")]
        llg,
    }
}

/// One point of one reply, tokenized.
struct At {
    point: MaskPoint,
    /// the reply's tokens up to the point (their bytes are exactly `point.prefix`)
    tokens: Vec<u32>,
    /// the reply's next token from that point: a mask must allow it
    next: u32,
}

fn tokenize(v: &Vocab, point: MaskPoint, text: &str) -> At {
    // The prefix's own tokenization, then the next token of the rest's (so the prefix is fed
    // exactly as written and the next token is the one a model writing this reply would emit).
    let tokens: Vec<u32> = if point.prefix.is_empty() { Vec::new() } else { v.bpe.encode_ordinary(&point.prefix) };
    let bytes: Vec<u8> = tokens.iter().flat_map(|&t| v.tokens[t as usize].clone()).collect();
    assert_eq!(bytes, point.prefix.as_bytes(), "{}: the prefix tokens spell the prefix", point.label());
    let rest = &text[point.prefix.len()..];
    let next = v.bpe.encode_ordinary(rest)[0];
    At { point, tokens, next }
}

fn stream_at<T: Tool>(at: &At) -> Stream<T> {
    let mut s = T::stream();
    assert!(!s.feed(at.point.prefix.as_bytes()).is_dead(), "{}: the prefix is alive", at.point.label());
    s
}

/// toolgate's mask at the point.
fn toolgate_mask<T: Tool>(v: &Vocab, at: &At) -> TokenMask {
    let s = stream_at::<T>(at);
    let mut mask = TokenMask::new(&v.toolgate);
    s.allowed(&v.toolgate, &mut mask);
    mask
}

/// What the report needs per point.
struct Row {
    toolgate: usize,
    llguidance: Option<usize>,
}

fn sanity<T: Tool>(v: &Vocab, at: &At) -> Row {
    let mask = toolgate_mask::<T>(v, at);
    let label = format!("{} {}", v.name, at.point.label());
    assert!(mask.contains(at.next as usize), "{label}: toolgate masks the reply's next token");
    #[cfg(feature = "llguidance")]
    let llguidance = {
        let (mut m, schema) = (v.llg.matcher(at.point.schema, &at.tokens), at.point.schema);
        let got = m.compute_mask().unwrap_or_else(|e| panic!("{label}: llguidance: {e}"));
        assert!(got.is_allowed(at.next), "{label}: llguidance masks the reply's next token");
        let theirs: Vec<usize> = (0..v.tokens.len()).filter(|&t| got.is_allowed(t as u32)).collect();
        let ours: Vec<usize> = mask.allowed().collect();
        let show = |ids: Vec<usize>| -> String {
            let n: usize = std::env::var("MASK_DIFF").ok().and_then(|s| s.parse().ok()).unwrap_or(8);
            let shown: Vec<String> =
                ids.iter().take(n).map(|&t| format!("{:?}", String::from_utf8_lossy(&v.tokens[t]))).collect();
            format!("{} [{}{}]", ids.len(), shown.join(", "), if ids.len() > n { ", …" } else { "" })
        };
        let only_ours: Vec<usize> = ours.iter().copied().filter(|t| !got.is_allowed(*t as u32)).collect();
        let only_theirs: Vec<usize> = theirs.iter().copied().filter(|&t| !mask.contains(t)).collect();
        if !only_ours.is_empty() || !only_theirs.is_empty() {
            eprintln!("  {label} ({schema}): only toolgate {}", show(only_ours));
            eprintln!("  {label} ({schema}): only llguidance {}", show(only_theirs));
        }
        Some(theirs.len())
    };
    #[cfg(not(feature = "llguidance"))]
    let llguidance = None;
    Row { toolgate: mask.count(), llguidance }
}

fn measure<T: Tool>(c: &mut Criterion, v: &Vocab, at: &At) {
    let mut g = c.benchmark_group(format!("mask-{}", v.name));
    let s = stream_at::<T>(at);
    let mut mask = TokenMask::new(&v.toolgate);
    g.bench_function(format!("{}/toolgate", at.point.id()), |b| {
        b.iter(|| {
            black_box(&s).allowed(&v.toolgate, &mut mask);
            mask.count()
        })
    });
    #[cfg(feature = "llguidance")]
    {
        let mut m = v.llg.matcher(at.point.schema, &at.tokens);
        g.bench_function(format!("{}/llguidance", at.point.id()), |b| {
            b.iter(|| {
                m.invalidate_bias_cache();
                m.compute_mask().map(|mask| mask.num_set()).unwrap_or(0)
            })
        });
    }
    g.finish();
}

fn for_point(v: &Vocab, at: &At, c: Option<&mut Criterion>) -> Option<Row> {
    macro_rules! run {
        ($t:ty) => {
            match c {
                None => Some(sanity::<$t>(v, at)),
                Some(c) => {
                    measure::<$t>(c, v, at);
                    None
                }
            }
        };
    }
    match at.point.schema {
        "convert_units" => run!(ConvertUnits),
        "read_file" => run!(ReadFile),
        "rows" => run!(Rows),
        "place_order" => run!(PlaceOrder),
        other => panic!("no tool for schema {other}"),
    }
}

/// Where the counts go: next to criterion's results.
fn counts_path() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).or_else(|| {
        // <target>/<profile>/deps/mask-<hash>
        std::env::current_exe().ok()?.ancestors().nth(3).map(PathBuf::from)
    })?;
    Some(target.join("criterion").join("mask-counts.tsv"))
}

fn masks(c: &mut Criterion) {
    let texts: Vec<(&str, String)> = cases().into_iter().filter(|c| c.valid).map(|c| (c.schema, c.text)).collect();
    let mut tsv = String::from("vocabulary\tschema\tpoint\tprefix_bytes\tprefix_tokens\ttoolgate\tllguidance\n");
    for name in ["o200k_base", "cl100k_base"] {
        let t0 = std::time::Instant::now();
        let v = load(name);
        eprintln!(
            "{name}: {} regular tokens, {} trie nodes, longest {} bytes; loaded in {:.2?}",
            v.tokens.len(),
            v.toolgate.trie_nodes(),
            v.toolgate.max_len(),
            t0.elapsed()
        );
        let points: Vec<At> = mask_points()
            .into_iter()
            .map(|p| {
                let text = &texts.iter().find(|(s, _)| *s == p.schema).expect("a valid reply per schema").1;
                tokenize(&v, p, text)
            })
            .collect();
        for at in &points {
            let row = for_point(&v, at, None).expect("a row");
            eprintln!(
                "  {name} {}: {} bytes, {} tokens in; allowed: toolgate {}, llguidance {}",
                at.point.label(),
                at.point.prefix.len(),
                at.tokens.len(),
                row.toolgate,
                row.llguidance.map_or_else(|| "(not built)".to_owned(), |n| n.to_string())
            );
            tsv.push_str(&format!(
                "{name}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                at.point.schema,
                at.point.name,
                at.point.prefix.len(),
                at.tokens.len(),
                row.toolgate,
                row.llguidance.map_or_else(|| "-".to_owned(), |n| n.to_string())
            ));
        }
        for at in &points {
            for_point(&v, at, Some(c));
        }
    }
    // Only from `cargo bench` (which passes `--bench`), so that the smoke test of
    // `cargo test --workspace` does not overwrite the counts of a measured run.
    if let Some(p) = counts_path().filter(|_| std::env::args().any(|a| a == "--bench")) {
        if p.parent().is_some_and(|d| std::fs::create_dir_all(d).is_ok()) && std::fs::write(&p, tsv).is_ok() {
            eprintln!("allowed counts written to {}", p.display());
        }
    }
}

#[cfg(feature = "llguidance")]
mod llg {
    use std::sync::Arc;

    use llguidance::api::TopLevelGrammar;
    use llguidance::toktrie::{ApproximateTokEnv, TokEnv, TokRxInfo, TokTrie};
    use llguidance::{Matcher, ParserFactory};
    use toolgate_bench::SCHEMAS;

    pub struct Llg {
        factory: ParserFactory,
    }

    impl Llg {
        /// A `TokTrie` of the same byte strings (ids as in toolgate's `Vocabulary`) plus an
        /// end-of-sequence token after them, as llguidance's special-token convention has it
        /// (`\xFF<|endoftext|>`).
        pub fn new(tokens: &[Vec<u8>]) -> Self {
            let mut words = tokens.to_vec();
            words.push(b"\xFF<|endoftext|>".to_vec());
            let n = words.len() as u32;
            let trie = TokTrie::from(&TokRxInfo::new(n, n - 1), &words);
            let env: TokEnv = Arc::new(ApproximateTokEnv::new(trie));
            let mut factory = ParserFactory::new_simple(&env).expect("a parser factory");
            factory.quiet();
            Llg { factory }
        }

        /// A matcher for the schema that has consumed `tokens`. Two of llguidance's options
        /// (`x-guidance`) are needed for it to take the bench schemas: `coerce_one_of` (it
        /// compiles `oneOf` as `anyOf`; `place_order`'s branches are told apart by a `const` tag,
        /// so the two agree there) and `lenient` (it refuses `uniqueItems`, in `read_file`'s
        /// `tags`, otherwise; with it the keyword is dropped with a warning, printed here; no
        /// point is inside `tags`). Its other options are its defaults (flexible whitespace).
        pub fn matcher(&self, schema: &str, tokens: &[u32]) -> Matcher {
            let text = SCHEMAS.iter().find(|(n, _)| *n == schema).expect("a schema").1;
            let mut v: serde_json::Value = serde_json::from_str(text).expect("schema JSON");
            v["x-guidance"] = serde_json::json!({"coerce_one_of": true, "lenient": true});
            let mut m = Matcher::new(self.factory.create_parser(TopLevelGrammar::from_json_schema(v)));
            if let Some(e) = m.get_error() {
                panic!("llguidance refused {schema}: {e}");
            }
            if tokens.is_empty() {
                for w in m.grammar_warnings() {
                    eprintln!("  llguidance warning ({schema}): {w}");
                }
            }
            m.consume_tokens(tokens).unwrap_or_else(|e| panic!("llguidance, {schema}: {e}"));
            m
        }
    }
}

fn config() -> Criterion {
    // Modest times, as in `compare`: the benchmark machine is shared.
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(20)
}

criterion_group! { name = benches; config = config(); targets = masks }
criterion_main!(benches);
