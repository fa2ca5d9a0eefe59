//! Token masks over a real vocabulary: o200k_base (`tiktoken-rs`, its regular tokens by rank).
//! Every valid text of every fixture of `fixtures/mod.rs` under 300 bytes (all of them, no
//! sampling) is tokenized with o200k's own BPE (`encode_ordinary`), and the stream is fed that
//! tokenization token by token: at every step the next token must be allowed by the mask (the
//! tokenization of a valid text is never masked), and at the end `can_finish()` must hold.

#![allow(clippy::pedantic)]

mod fixtures;

use std::fmt::Debug;
use std::time::Instant;

use fixtures::Visit;
use toolgate::{TokenMask, Tool, Vocabulary};

/// The regular tokens of a tiktoken vocabulary, by rank (as `examples/examples/constrained.rs`
/// takes them): ranks `0..n`, `n` the first rank that decodes to nothing or to a special token.
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

struct Real {
    bpe: tiktoken_rs::CoreBPE,
    vocab: Vocabulary,
    texts: usize,
    /// valid texts of 300 bytes or more, left out
    long: usize,
    tokens: usize,
    failures: Vec<String>,
}

impl Visit for Real {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        let mut mask = TokenMask::new(&self.vocab);
        for text in texts.iter().filter(|t| T::is_valid_json(t)) {
            if text.len() >= 300 {
                self.long += 1;
                continue;
            }
            let ids = self.bpe.encode_ordinary(text);
            let mut s = T::stream();
            let mut ok = true;
            for &id in &ids {
                let id = id as usize;
                s.allowed(&self.vocab, &mut mask);
                self.tokens += 1;
                if !mask.contains(id) {
                    self.failures.push(format!(
                        "{name}: {text:?}: after {:?}, token {id} \"{}\" is masked",
                        String::from_utf8_lossy(s.text()),
                        self.vocab.bytes(id).escape_ascii()
                    ));
                    ok = false;
                    break;
                }
                s.feed(self.vocab.bytes(id));
            }
            if ok {
                assert_eq!(s.text(), text.as_bytes(), "{name}: o200k's tokens do not spell the text");
                if !s.can_finish() {
                    self.failures.push(format!("{name}: {text:?}: can_finish() is false at the end"));
                }
            }
            self.texts += 1;
        }
    }
}

#[test]
fn o200k_tokenization_of_every_valid_text_is_never_masked() {
    let t0 = Instant::now();
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base");
    let tokens = regular_tokens(&bpe);
    assert!(tokens.len() > 199_000, "o200k_base has {} regular tokens", tokens.len());
    let vocab = Vocabulary::new(&tokens);
    let loaded = t0.elapsed();
    let mut r = Real { bpe, vocab, texts: 0, long: 0, tokens: 0, failures: Vec::new() };
    fixtures::all(&mut r);
    eprintln!(
        "o200k_base ({} tokens, loaded in {:.1} s): {} valid texts ({} of 300 bytes or more left out), {} tokens, each allowed by its mask; {:.1} s in all",
        r.vocab.len(),
        loaded.as_secs_f64(),
        r.texts,
        r.long,
        r.tokens,
        t0.elapsed().as_secs_f64()
    );
    assert!(r.texts > 50, "only {} texts tokenized", r.texts);
    assert!(r.failures.is_empty(), "{} text(s) masked:\n{}", r.failures.len(), r.failures.join("\n"));
}
