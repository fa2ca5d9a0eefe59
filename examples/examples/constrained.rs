//! Constrained decoding with token masks: at each step of a generation, only the tokens that keep
//! the reply a possible start of a valid call are sampled, and the end-of-sequence token only when
//! the reply is complete (`Stream::can_finish`).
//!
//! - **Toy** (`cargo run --example constrained`): a `Triage` tool, a 30-token vocabulary and a
//!   stand-in model (seeded random logits with a bonus for the token that continues one target
//!   reply, so it is right most of the time). 500 generations sampled freely from the model's
//!   softmax, and 500 with the mask: how many end as a valid call. A generation that reaches the
//!   length budget, or a masked one that finds no token allowed and cannot finish, is a failure
//!   and is counted as one, never cut and accepted.
//! - **Real vocabulary** (`cargo run --release --example constrained -- --real`): o200k_base
//!   (199,998 tokens, from `tiktoken-rs`, shipped in the crate) and random logits standing in for a
//!   model (leaning towards one target reply, then noise only); 20 masked generations for
//!   `Triage` and 10 for `ReadFile`, each printed with its token count and verdict, and the mean
//!   time of one mask. Behind `--real` because it is slow in a
//!   debug build (the output test, `tests/output.rs`, runs the toy part only).
//!
//! The sampler is the usual one: logits → mask (disallowed tokens dropped) → softmax → sample.
//!
//! What it shows: no masked generation ever ends invalid. The mask is exact for the stream, and
//! where the stream does not see a dead end early (README, "Constrained decoding": a number
//! judged at its end, a key repeated deep in a free-form value, an unanchored `pattern`) a walk can still get
//! stuck or run to the length budget: both are counted as failures, never cut and accepted.

use std::time::{Duration, Instant};

use toolgate::{tool_schema, Stream, TokenMask, Tool, Vocabulary};

tool_schema! {
    /// Triage an email: how urgent it is and, optionally, a one-line summary.
    pub struct Triage = {
        "type": "object",
        "properties": {
            "urgency": {"enum": ["low", "high"]},
            "summary": {"type": "string", "maxLength": 40}
        },
        "required": ["urgency"],
        "additionalProperties": false
    };
}

/// A seeded xorshift64* generator: the same numbers on every run and platform.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (0 is replaced: xorshift has no zero state).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Sample an index with probability proportional to `exp(logit)`, among `candidates` (token ids
/// into `logits`). `None` when there are no candidates.
fn sample(logits: &[f64], candidates: &[usize], rng: &mut Rng) -> Option<usize> {
    let max = candidates.iter().map(|&t| logits[t]).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = candidates.iter().map(|&t| (logits[t] - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mut pick = rng.unit() * total;
    for (&t, w) in candidates.iter().zip(&weights) {
        if pick < *w {
            return Some(t);
        }
        pick -= w;
    }
    candidates.last().copied()
}

/// A stand-in model: the text so far in, the logits of every token and end-of-sequence out.
type Model<'a> = dyn FnMut(&[u8], &mut Rng, &mut Vec<f64>) + 'a;

/// How a generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// the sampler chose end-of-sequence
    Eos,
    /// the length budget ran out first: a failure
    Budget,
    /// masked: no token allowed and the reply cannot finish (see the README's completeness
    /// gaps): a failure
    Stuck,
}

/// One generation: the text, the number of tokens, how it ended and whether the text is a valid
/// call.
pub struct Generation {
    /// the reply's bytes
    pub text: Vec<u8>,
    /// tokens in the reply (end-of-sequence not counted)
    pub tokens: usize,
    /// how it ended
    pub end: End,
    /// `T::is_valid_json(text)`, false for a budget or a stuck end
    pub valid: bool,
}

/// Generate with the mask. `eos` is the end-of-sequence id (one past the vocabulary); `model`
/// writes the logits (length `eos + 1`) for the text so far; `timing` accumulates the time spent
/// in `Stream::allowed` and the number of masks.
///
/// A step with no allowed token that cannot end either is a failure: stuck. The mask is exact
/// for the stream, but the stream is not complete everywhere (see the README), so a masked walk
/// can reach a prefix that is alive but that no text completes.
fn constrained<T: Tool>(
    vocab: &Vocabulary,
    mask: &mut TokenMask,
    budget: usize,
    rng: &mut Rng,
    model: &mut Model<'_>,
    timing: &mut (Duration, usize),
) -> Generation {
    let eos = vocab.len();
    let mut s: Stream<T> = T::stream();
    let mut logits = Vec::new();
    for tokens in 0..=budget {
        let t0 = Instant::now();
        s.allowed(vocab, mask);
        timing.0 += t0.elapsed();
        timing.1 += 1;
        let mut candidates: Vec<usize> = mask.allowed().collect();
        if s.can_finish() {
            candidates.push(eos);
        }
        if candidates.is_empty() {
            return Generation { text: s.text().to_vec(), tokens, end: End::Stuck, valid: false };
        }
        if tokens == budget {
            break;
        }
        model(s.text(), rng, &mut logits);
        let t = sample(&logits, &candidates, rng).unwrap_or(eos);
        if t == eos {
            let text = s.text().to_vec();
            let valid = std::str::from_utf8(&text).is_ok_and(T::is_valid_json);
            return Generation { text, tokens, end: End::Eos, valid };
        }
        // Allowed, so the stream stays alive (checked: the mask is exact for the stream).
        assert!(!s.feed(vocab.bytes(t)).is_dead(), "an allowed token killed the stream");
    }
    Generation { text: s.text().to_vec(), tokens: budget, end: End::Budget, valid: false }
}

/// Generate without a mask: every token and end-of-sequence are candidates at every step.
fn free<T: Tool>(vocab: &Vocabulary, budget: usize, rng: &mut Rng, model: &mut Model<'_>) -> Generation {
    let all: Vec<usize> = (0..=vocab.len()).collect();
    let mut text = Vec::new();
    let mut logits = Vec::new();
    for tokens in 0..budget {
        model(&text, rng, &mut logits);
        let t = sample(&logits, &all, rng).unwrap_or(vocab.len());
        if t == vocab.len() {
            let valid = std::str::from_utf8(&text).is_ok_and(T::is_valid_json);
            return Generation { text, tokens, end: End::Eos, valid };
        }
        text.extend_from_slice(vocab.bytes(t));
    }
    Generation { text, tokens: budget, end: End::Budget, valid: false }
}

/// The toy vocabulary; end-of-sequence is id `TOY.len()`. Every letter of the schema's names and
/// values is also a token of its own, as in a byte-level vocabulary: without them a masked walk
/// could reach a prefix that the schema allows but no token continues (`"urgent` can only become
/// `"urgency"` with a `c`), and a one-step mask cannot see that coming.
pub const TOY: [&str; 29] = [
    "{",
    "}",
    ":",
    ",",
    " ",
    "\"urgency\"",
    "\"summary\"",
    "\"low\"",
    "\"high\"",
    "\"",
    "hello",
    "world",
    "urgent",
    "\"medium\"",
    "u",
    "r",
    "g",
    "e",
    "n",
    "c",
    "y",
    "s",
    "m",
    "a",
    "l",
    "o",
    "w",
    "h",
    "i",
];

/// The reply the toy model leans towards.
pub const TARGET: &str = r#"{"urgency": "high", "summary": "urgent hello world"}"#;

/// A stand-in model: logits uniform in `[0, noise)`, minus `blank` for tokens of whitespace
/// only, plus `bonus` for the longest token that continues `target` while the text is still a
/// prefix of it (end-of-sequence once it is all written). Once the text has left the target,
/// the logits are noise (and the whitespace penalty: over a real vocabulary, pure noise would
/// spend most steps on the ~390 whitespace tokens that JSON allows between values; a model
/// that writes compact JSON rarely picks them).
fn model<'a>(
    vocab: &'a Vocabulary,
    target: &'a [u8],
    noise: f64,
    bonus: f64,
    blank: f64,
) -> impl FnMut(&[u8], &mut Rng, &mut Vec<f64>) + 'a {
    let penalty: Vec<f64> = (0..=vocab.len()).map(|t| if is_blank(vocab.bytes(t)) { -blank } else { 0.0 }).collect();
    move |text, rng, logits| {
        logits.clear();
        logits.extend(penalty.iter().map(|p| p + noise * rng.unit()));
        if let Some(rest) = target.strip_prefix(text) {
            let best = if rest.is_empty() {
                Some(vocab.len())
            } else {
                (0..vocab.len()).filter(|&t| rest.starts_with(vocab.bytes(t))).max_by_key(|&t| vocab.bytes(t).len())
            };
            if let Some(t) = best {
                logits[t] += bonus;
            }
        }
    }
}

/// Whether a token is whitespace only.
fn is_blank(t: &[u8]) -> bool {
    !t.is_empty() && t.iter().all(|b| b" \t\r\n".contains(b))
}

/// Whether `text` ends inside a key that can only become a name already used: `…"summary` after
/// a `"summary":` member.
fn in_repeated_key(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    let Some((before, key)) = text.rsplit_once('"') else { return false };
    ["urgency", "summary"].iter().any(|name| name.starts_with(key) && before.contains(&format!("\"{name}\"")))
}

/// Counts over a batch of generations.
fn tally(runs: &[Generation]) -> (usize, usize, usize) {
    let valid = runs.iter().filter(|g| g.valid).count();
    let budget = runs.iter().filter(|g| g.end == End::Budget).count();
    let stuck = runs.iter().filter(|g| g.end == End::Stuck).count();
    (valid, budget, stuck)
}

/// The toy experiment's lines (what `cargo run --example constrained` prints).
#[must_use]
pub fn run() -> Vec<String> {
    const TRIALS: usize = 500;
    const BUDGET: usize = 64;
    let vocab = Vocabulary::new(TOY);
    let mut mask = TokenMask::new(&vocab);
    let mut lines = vec![format!(
        "== toy: Triage, {} tokens + end-of-sequence, {TRIALS} generations each, length budget {BUDGET} tokens",
        vocab.len()
    )];
    lines.push(format!("target reply: {TARGET}"));
    let mut model = model(&vocab, TARGET.as_bytes(), 2.0, 6.0, 0.0);
    let exact = |runs: &[Generation]| runs.iter().filter(|g| g.valid && g.text == TARGET.as_bytes()).count();

    let mut rng = Rng::new(2024);
    let runs: Vec<Generation> = (0..TRIALS).map(|_| free::<Triage>(&vocab, BUDGET, &mut rng, &mut model)).collect();
    let (valid, budget, _) = tally(&runs);
    lines.push(format!(
        "free sampling: {valid}/{TRIALS} valid ({} exactly the target; {budget} hit the length budget)",
        exact(&runs)
    ));
    if let Some(g) = runs.iter().find(|g| !g.valid && g.end == End::Eos) {
        lines.push(format!("  e.g. invalid: {}", String::from_utf8_lossy(&g.text)));
    }

    let mut rng = Rng::new(2024);
    let mut timing = (Duration::ZERO, 0);
    let runs: Vec<Generation> = (0..TRIALS)
        .map(|_| constrained::<Triage>(&vocab, &mut mask, BUDGET, &mut rng, &mut model, &mut timing))
        .collect();
    let (valid, budget, stuck) = tally(&runs);
    lines.push(format!(
        "constrained: {valid}/{TRIALS} valid ({} exactly the target; failures: {budget} hit the length budget, {stuck} stuck)",
        exact(&runs)
    ));
    if stuck > 0 {
        let repeated = runs.iter().filter(|g| g.end == End::Stuck && in_repeated_key(&g.text)).count();
        lines.push(format!("  {repeated} of the {stuck} stuck inside a repeated declared key"));
    }
    let mut shown = 0;
    for g in runs.iter().filter(|g| g.end == End::Stuck) {
        if shown < 3 {
            lines.push(format!("  stuck at: {}", String::from_utf8_lossy(&g.text)));
            shown += 1;
        }
    }
    if let Some(g) = runs.iter().find(|g| g.valid && g.text != TARGET.as_bytes()) {
        lines.push(format!("  e.g. valid, off the target: {}", String::from_utf8_lossy(&g.text)));
    }
    lines
}

/// The regular tokens of a tiktoken vocabulary, by rank: ranks `0..n`, `n` the first rank that
/// decodes to nothing (o200k_base: 199,998 tokens, rank 199,998 unused, `<|endoftext|>` at
/// 199,999). Special tokens are left out: their text is not what the model emits for them.
fn regular_tokens(bpe: &tiktoken_rs::CoreBPE) -> Vec<Vec<u8>> {
    let mut tokens = Vec::new();
    while let Ok(bytes) = bpe.decode_bytes(&[u32::try_from(tokens.len()).unwrap_or(u32::MAX)]) {
        if bpe.special_tokens().contains(String::from_utf8_lossy(&bytes).as_ref()) {
            break;
        }
        tokens.push(bytes);
    }
    tokens
}

fn shorten(text: &[u8], n: usize) -> String {
    let s = String::from_utf8_lossy(text);
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= n {
        format!("{s:?}")
    } else {
        let head: String = chars[..n / 2].iter().collect();
        let tail: String = chars[chars.len() - n / 2..].iter().collect();
        format!("{head:?} … {tail:?}")
    }
}

/// `n` masked generations over the real vocabulary, with the stand-in model leaning towards
/// `target` (`bonus` 16 over noise in [0, 4): ~200,000 noisy logits add up to about e^15, so it
/// is followed most of the time, and left now and then), then `n` with noise only.
fn real_for<T: Tool>(name: &str, target: &str, n: usize, vocab: &Vocabulary, lines: &mut Vec<String>) {
    const BUDGET: usize = 200;
    let mut mask = TokenMask::new(vocab);
    let mut timing = (Duration::ZERO, 0);
    lines.push(format!("-- {name}: {n} masked generations, length budget {BUDGET} tokens; target {target}"));
    let mut rng = Rng::new(7);
    let mut leaning = model(vocab, target.as_bytes(), 4.0, 16.0, 8.0);
    let mut runs = Vec::new();
    for i in 0..n {
        let g = constrained::<T>(vocab, &mut mask, BUDGET, &mut rng, &mut leaning, &mut timing);
        let verdict = match (g.end, g.valid) {
            (End::Eos, true) => "valid",
            (End::Eos, false) => "ended INVALID",
            (End::Budget, _) => "FAILED: length budget",
            (End::Stuck, _) => "FAILED: stuck",
        };
        lines.push(format!("{:>3} {:>4} tokens  {verdict:<13} {}", i + 1, g.tokens, shorten(&g.text, 64)));
        runs.push(g);
    }
    let (valid, budget, stuck) = tally(&runs);
    let exact = runs.iter().filter(|g| g.valid && g.text == target.as_bytes()).count();
    lines.push(format!(
        "{name}: {valid}/{n} valid, {exact} exactly the target (failures: {budget} hit the length budget, {stuck} stuck); {} masks, mean {:.0} µs per mask",
        timing.1,
        timing.0.as_secs_f64() * 1e6 / timing.1.max(1) as f64
    ));
    let mut noise = model(vocab, b"", 4.0, 0.0, 8.0);
    let mut timing = (Duration::ZERO, 0);
    let runs: Vec<Generation> =
        (0..n).map(|_| constrained::<T>(vocab, &mut mask, BUDGET, &mut rng, &mut noise, &mut timing)).collect();
    let (valid, budget, stuck) = tally(&runs);
    lines.push(format!(
        "{name}, noise only: {valid}/{n} valid (failures: {budget} hit the length budget, {stuck} stuck); mean {:.0} µs per mask",
        timing.0.as_secs_f64() * 1e6 / timing.1.max(1) as f64
    ));
    for g in runs.iter().filter(|g| g.end == End::Stuck).take(2) {
        lines.push(format!("  stuck at: {}", shorten(&g.text, 64)));
    }
}

/// The real-vocabulary part (`-- --real`).
#[must_use]
pub fn real() -> Vec<String> {
    let mut lines = Vec::new();
    let t0 = Instant::now();
    let bpe = match tiktoken_rs::o200k_base() {
        Ok(bpe) => bpe,
        Err(e) => return vec![format!("o200k_base: {e}")],
    };
    let tokens = regular_tokens(&bpe);
    let vocab = Vocabulary::new(&tokens);
    lines.push(format!(
        "== o200k_base: {} tokens (+ end-of-sequence), {} trie nodes; loaded in {:.1} s",
        vocab.len(),
        vocab.trie_nodes(),
        t0.elapsed().as_secs_f64()
    ));
    let triage = r#"{"urgency": "high", "summary": "checkout is down for all customers"}"#;
    real_for::<Triage>("Triage", triage, 20, &vocab, &mut lines);
    let read_file = r#"{"path": "src/main.rs", "max_lines": 40}"#;
    real_for::<toolgate_examples::tools::ReadFile>("ReadFile", read_file, 10, &vocab, &mut lines);
    lines
}

fn main() {
    for line in run() {
        println!("{line}");
    }
    if std::env::args().any(|a| a == "--real") {
        for line in real() {
            println!("{line}");
        }
    } else {
        println!("(the real-vocabulary part: cargo run --release --example constrained -- --real)");
    }
}
