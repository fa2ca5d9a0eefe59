//! Token masks for constrained decoding: which tokens of a vocabulary keep a stream alive.
//!
//! ```
//! use toolgate::{tool_schema, TokenMask, Tool, Vocabulary};
//!
//! tool_schema! {
//!     /// Triage an email.
//!     pub struct Triage = {
//!         "type": "object",
//!         "properties": {"urgency": {"enum": ["low", "high"]}},
//!         "required": ["urgency"],
//!         "additionalProperties": false
//!     };
//! }
//!
//! let vocab = Vocabulary::new(["{", "}", "\"urgency\"", ":", "\"low\"", "\"high\"", "\"medium\"", " "]);
//! let mut mask = TokenMask::new(&vocab);
//! let mut s = Triage::stream();
//! s.allowed(&vocab, &mut mask);
//! assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 7]); // `{` or a space
//! s.feed(b"{\"urgency\":");
//! s.allowed(&vocab, &mut mask);
//! assert!(mask.contains(4) && mask.contains(5) && !mask.contains(6)); // "low", "high", not "medium"
//! assert!(!s.can_finish());
//! s.feed(b"\"high\"}");
//! assert!(s.can_finish());
//! ```
//!
//! The mask is exact for the streaming validator: token `t` is allowed if and only if feeding
//! its bytes to the stream would leave it alive. It is computed by one walk over a trie of the
//! vocabulary's byte strings, feeding each trie edge's byte once to a copy of the automaton and
//! skipping the whole subtree below a byte that kills it, so tokens that share a prefix share the
//! work; nothing is allocated per mask once a [`TokenMask`] has served a tool (its scratch space
//! is kept). Inside a string whose characters nobody looks at (the usual free-text argument),
//! the tokens made of plain string bytes only are allowed at once, from a set the
//! [`Vocabulary`] precomputes, and only the subtrees below a first `"` or `\` are walked.

use std::any::Any;
use std::fmt;

use super::state::State;
use super::{Automaton, Reader, Stream, TextStream};
use crate::Tool;

/// A tokenizer's vocabulary: token `id` is the `id`-th byte string given to
/// [`Vocabulary::new`]. Byte strings, not text: byte-level BPE tokens may hold part of a UTF-8
/// character, and masks handle them exactly.
///
/// Empty tokens are allowed whenever the stream is alive (they change nothing); duplicate byte
/// strings are distinct ids with the same answer.
#[derive(Clone)]
pub struct Vocabulary {
    /// the trie in preorder: for each node its byte, its depth (1 for a first byte) and the
    /// index just past its subtree
    bytes: Vec<u8>,
    depth: Vec<u16>,
    end: Vec<u32>,
    /// the tokens ending at each node: `ids[first[i]..first[i + 1]]`
    first: Vec<u32>,
    ids: Vec<u32>,
    /// tokens of zero bytes
    empty: Vec<u32>,
    /// every token's bytes, by id
    tokens: Vec<Vec<u8>>,
    max_len: usize,
    /// inside a string nobody looks at, at a character boundary and with room left for the
    /// longest token: the tokens made of plain string bytes only (allowed there whatever else
    /// holds), as mask words
    plain: Vec<u64>,
    /// and the trie nodes where a plain path first meets a `"` or `\`, with where their
    /// parent's path starts in `entry_paths` (the only subtrees the automaton must walk there)
    entries: Vec<(u32, u32)>,
    entry_paths: Vec<u8>,
}

impl fmt::Debug for Vocabulary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vocabulary")
            .field("tokens", &self.tokens.len())
            .field("trie_nodes", &self.bytes.len())
            .field("max_len", &self.max_len)
            .finish()
    }
}

impl Vocabulary {
    /// The vocabulary of these byte strings; a token's id is its position.
    ///
    /// # Panics
    /// Never: a vocabulary of more than `u32::MAX` tokens, or a token longer than 65,535 bytes,
    /// keeps only what fits (the ids beyond are never allowed).
    pub fn new<I, B>(tokens: I) -> Self
    where
        I: IntoIterator<Item = B>,
        B: AsRef<[u8]>,
    {
        let tokens: Vec<Vec<u8>> = tokens.into_iter().map(|t| t.as_ref().to_vec()).collect();
        let mut order: Vec<u32> = (0..tokens.len()).filter_map(|i| u32::try_from(i).ok()).collect();
        let bytes_of = |id: u32| tokens.get(id as usize).map_or(&[][..], Vec::as_slice);
        order.sort_by(|a, b| bytes_of(*a).cmp(bytes_of(*b)).then(a.cmp(b)));
        let mut v = Vocabulary {
            bytes: Vec::new(),
            depth: Vec::new(),
            end: Vec::new(),
            first: Vec::new(),
            ids: Vec::new(),
            empty: Vec::new(),
            tokens: Vec::new(),
            max_len: 0,
            plain: Vec::new(),
            entries: Vec::new(),
            entry_paths: Vec::new(),
        };
        // Sorted byte strings give the trie in preorder: a token adds the nodes for the bytes
        // beyond its common prefix with the previous token.
        let mut path: Vec<usize> = Vec::new(); // node index per depth - 1
        let mut prev: &[u8] = &[];
        for &id in &order {
            let t = bytes_of(id);
            if t.is_empty() {
                v.empty.push(id);
                continue;
            }
            if t.len() > usize::from(u16::MAX) {
                continue;
            }
            let common = t.iter().zip(prev).take_while(|(a, b)| a == b).count();
            // Close the nodes below the common prefix.
            for &n in path.get(common..).unwrap_or_default() {
                if let Some(e) = v.end.get_mut(n) {
                    *e = u32::try_from(v.bytes.len()).unwrap_or(u32::MAX);
                }
            }
            path.truncate(common);
            for (d, &b) in t.iter().enumerate().skip(common) {
                path.push(v.bytes.len());
                v.bytes.push(b);
                v.depth.push(u16::try_from(d + 1).unwrap_or(u16::MAX));
                v.end.push(0);
                v.first.push(u32::try_from(v.ids.len()).unwrap_or(u32::MAX));
            }
            // The token ends at the last node of its path; ids of one node are contiguous
            // because equal byte strings are adjacent in the order.
            v.ids.push(id);
            v.max_len = v.max_len.max(t.len());
            prev = t;
        }
        let n = u32::try_from(v.bytes.len()).unwrap_or(u32::MAX);
        for &node in &path {
            if let Some(e) = v.end.get_mut(node) {
                *e = n;
            }
        }
        v.first.push(u32::try_from(v.ids.len()).unwrap_or(u32::MAX));
        v.tokens = tokens;
        v.plain_slices();
        v
    }

    /// Precompute [`Vocabulary::plain`] and [`Vocabulary::entries`]: one walk over the trie with
    /// the UTF-8 state of each plain path, as the mask's walk inside a plain string keeps it.
    fn plain_slices(&mut self) {
        let mut plain = vec![0u64; self.tokens.len().div_ceil(64)];
        // per depth: the UTF-8 state after the path down to it, `None` once it is not plain
        let mut state: Vec<Option<(u8, u8, u8)>> = vec![None; self.max_len + 1];
        if let Some(s) = state.first_mut() {
            *s = Some((0, 0, 0));
        }
        let mut path: Vec<u8> = Vec::with_capacity(self.max_len);
        for i in 0..self.bytes.len() {
            let d = self.depth.get(i).copied().map_or(1, usize::from);
            let b = self.bytes.get(i).copied().unwrap_or(0);
            path.truncate(d - 1);
            let next = match state.get(d - 1).copied().flatten() {
                Some((need, lo, hi)) => match plain_step(need, lo, hi, b) {
                    Step::Plain(u) => Some(u),
                    Step::Full => {
                        if let (Ok(node), Ok(at)) = (u32::try_from(i), u32::try_from(self.entry_paths.len())) {
                            self.entries.push((node, at));
                            self.entry_paths.extend_from_slice(&path);
                        }
                        None
                    }
                    Step::Dead => None,
                },
                None => None,
            };
            if let Some(s) = state.get_mut(d) {
                *s = next;
            }
            if next.is_some() {
                for &id in self.ending(i) {
                    if let Some(w) = plain.get_mut(id as usize / 64) {
                        *w |= 1 << (id % 64);
                    }
                }
            }
            path.push(b);
        }
        self.plain = plain;
    }

    /// How many tokens.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The bytes of token `id` (empty for an id out of range).
    #[must_use]
    pub fn bytes(&self, id: usize) -> &[u8] {
        self.tokens.get(id).map_or(&[][..], Vec::as_slice)
    }

    /// The longest token, in bytes.
    #[must_use]
    pub const fn max_len(&self) -> usize {
        self.max_len
    }

    /// The number of trie nodes (distinct non-empty token prefixes).
    #[must_use]
    pub fn trie_nodes(&self) -> usize {
        self.bytes.len()
    }

    /// The tokens ending at trie node `i`.
    fn ending(&self, i: usize) -> &[u32] {
        let (a, b) = (self.first.get(i).copied().unwrap_or(0), self.first.get(i + 1).copied().unwrap_or(0));
        self.ids.get(a as usize..b as usize).unwrap_or_default()
    }
}

/// The set of allowed tokens of a [`Vocabulary`] at one point of a stream, as a bitset, with
/// the scratch space to compute it again without allocating.
pub struct TokenMask {
    bits: Vec<u64>,
    len: usize,
    count: usize,
    /// per tool: a stack of automaton states, one per trie depth
    scratch: Option<Box<dyn Any + Send + Sync>>,
    text: Vec<u8>,
    /// per trie depth inside a plain string: the UTF-8 state and the characters counted
    utf: Vec<((u8, u8, u8), u64)>,
    /// the scratch's first state was advanced over the first this many bytes of `text`, for a
    /// stream still read by its quick reader (whose automaton has read nothing): the next call
    /// on the same stream advances it over the new bytes only
    synced: Option<usize>,
}

impl fmt::Debug for TokenMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenMask").field("tokens", &self.len).field("allowed", &self.count).finish_non_exhaustive()
    }
}

impl TokenMask {
    /// An empty mask sized for `vocab`.
    #[must_use]
    pub fn new(vocab: &Vocabulary) -> Self {
        Self {
            bits: vec![0; vocab.len().div_ceil(64)],
            len: vocab.len(),
            count: 0,
            scratch: None,
            text: Vec::new(),
            utf: Vec::new(),
            synced: None,
        }
    }

    /// Whether token `id` is allowed (`false` for an id out of range).
    #[must_use]
    pub fn contains(&self, id: usize) -> bool {
        id < self.len && self.bits.get(id / 64).is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    /// How many tokens are allowed.
    #[must_use]
    pub const fn count(&self) -> usize {
        self.count
    }

    /// The size of the vocabulary the mask is for.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the vocabulary is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The allowed token ids, ascending.
    pub fn allowed(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + b)
            })
        })
    }

    /// The mask as 64-bit words, token `id` at bit `id % 64` of word `id / 64` (the layout
    /// samplers take).
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.bits
    }

    fn clear(&mut self, vocab: &Vocabulary) {
        if self.len != vocab.len() {
            self.len = vocab.len();
            self.bits.resize(vocab.len().div_ceil(64), 0);
        }
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.count = 0;
    }

    /// Allow every token of `words` (a bitset by id, as the mask's own).
    fn set_all(&mut self, words: &[u64]) {
        for (w, &p) in self.bits.iter_mut().zip(words) {
            let new = p & !*w;
            *w |= new;
            self.count += new.count_ones() as usize;
        }
    }

    fn set(&mut self, id: u32) {
        let id = id as usize;
        if let Some(w) = self.bits.get_mut(id / 64) {
            let bit = 1u64 << (id % 64);
            if *w & bit == 0 {
                *w |= bit;
                self.count += 1;
            }
        }
    }
}

impl<T: Tool> Stream<T> {
    /// Fill `mask` with the tokens of `vocab` whose bytes would leave this stream alive: token `t`
    /// is allowed if and only if `self.clone().feed(vocab.bytes(t))` is not dead. Nothing is
    /// allowed once the stream is dead or finished. Pair it with [`Stream::can_finish`] for the
    /// end-of-sequence token.
    pub fn allowed(&self, vocab: &Vocabulary, mask: &mut TokenMask) {
        self.s.allowed(self.text(), vocab, mask);
    }
}

impl<T: Tool> TextStream<T> {
    /// Fill `mask` with the tokens of `vocab` whose bytes would leave this stream alive, the
    /// text so far being `so_far` (as last fed): what [`Stream::allowed`] allows for a stream
    /// fed the same text. A text of another length than the text read allows nothing.
    pub fn allowed(&self, so_far: &[u8], vocab: &Vocabulary, mask: &mut TokenMask) {
        if so_far.len() == self.read() {
            self.s.allowed(so_far, vocab, mask);
        } else {
            mask.clear(vocab);
        }
    }
}

impl<T: Tool> State<T> {
    /// [`Stream::allowed`] of the text `so_far` (all of it read).
    pub(crate) fn allowed(&self, so_far: &[u8], vocab: &Vocabulary, mask: &mut TokenMask) {
        mask.clear(vocab);
        // (Where no value satisfies the schema, not even the empty token: the first feed dies.)
        if !self.open || T::__PROGRAM.never {
            return;
        }
        for &id in &vocab.empty {
            mask.set(id);
        }
        // The scratch: a state per trie depth, kept in the mask for the next call.
        let fresh = mask
            .scratch
            .as_ref()
            .and_then(|s| s.downcast_ref::<Vec<T::__Automaton>>())
            .is_none_or(|s| s.len() < vocab.max_len + 1);
        if fresh {
            mask.scratch = Some(Box::new(vec![self.automaton(); vocab.max_len + 1]));
            mask.synced = None;
        }
        // While the quick reader reads the stream, its automaton has read nothing: the state
        // after the text is the one this mask advanced last time, if that was over a prefix of
        // this text, advanced over the rest.
        let reuse =
            self.quick.on() && mask.synced.is_some_and(|n| n <= so_far.len() && mask.text.get(..n) == so_far.get(..n));
        mask.synced = self.quick.on().then_some(so_far.len());
        let mut text = std::mem::take(&mut mask.text);
        text.clear();
        text.extend_from_slice(so_far);
        let base = text.len();
        let mut scratch = mask.scratch.take();
        if let Some(stack) = scratch.as_mut().and_then(|s| s.downcast_mut::<Vec<T::__Automaton>>()) {
            if let Some(top) = stack.first_mut() {
                if !reuse {
                    *top = self.automaton();
                }
                if self.quick.on() {
                    let _ = top.advance(so_far);
                }
            }
            // Inside a string no slot looks at, plain characters change nothing but the
            // position: those trie nodes are walked with the UTF-8 state alone, and the automaton
            // is copied only below a `"` or `\` (`plain` is the depth down to which the path is
            // plain, `utf` its UTF-8 state per depth).
            let start = stack.first().and_then(Automaton::plain_string);
            if start.is_some_and(|(u, budget)| u == (0, 0, 0) && budget >= vocab.max_len as u64) {
                // A string nobody looks at, at a character boundary, with room for any token's
                // characters: the plain tokens at once, then the subtrees below a `"` or `\`
                // with the automaton.
                mask.set_all(&vocab.plain);
                for (k, &(node, at)) in vocab.entries.iter().enumerate() {
                    let next_at = vocab.entries.get(k + 1).map_or(vocab.entry_paths.len(), |e| e.1 as usize);
                    let parent_path = vocab.entry_paths.get(at as usize..next_at).unwrap_or_default();
                    text.truncate(base);
                    text.extend_from_slice(parent_path);
                    let d = parent_path.len() + 1;
                    if let Some([root, .., parent]) = stack.get_mut(..d) {
                        parent.clone_from(root);
                        if !parent.advance(&text) {
                            continue;
                        }
                    }
                    let (from, to) = (node as usize, vocab.end.get(node as usize).map_or(0, |&e| e as usize));
                    walk(vocab, mask, stack, &mut text, base, from, to);
                }
                mask.scratch = scratch;
                mask.text = text;
                return;
            }
            let budget = start.map_or(0, |s| s.1);
            let mut plain = if start.is_some() { vocab.max_len } else { 0 };
            let mut utf = std::mem::take(&mut mask.utf);
            utf.clear();
            utf.resize(vocab.max_len + 1, ((0, 0, 0), 0));
            if let (Some((u, _)), Some(first)) = (start, utf.first_mut()) {
                *first = (u, 0);
            }
            let mut i = 0;
            let n = vocab.bytes.len();
            while i < n {
                let d = vocab.depth.get(i).copied().map_or(1, usize::from);
                let b = vocab.bytes.get(i).copied().unwrap_or(0);
                text.truncate(base + d - 1);
                text.push(b);
                let alive = if d - 1 <= plain && start.is_some() {
                    // The parent's path is plain.
                    plain = d - 1;
                    let ((need, lo, hi), chars) = utf.get(d - 1).copied().unwrap_or(((0, 0, 0), 0));
                    let chars = chars + u64::from(b & 0xC0 != 0x80);
                    let step = match plain_step(need, lo, hi, b) {
                        // Past the smallest `maxLength` some slot dies: whether the stream does
                        // (another `anyOf` branch may live) is the automaton's to say.
                        Step::Plain(_) if chars > budget => Step::Full,
                        other => other,
                    };
                    match step {
                        Step::Plain(u) => {
                            if let Some(x) = utf.get_mut(d) {
                                *x = (u, chars);
                            }
                            plain = d;
                            true
                        }
                        Step::Dead => false,
                        Step::Full => {
                            // Materialise the parent from the string's state, then go on with
                            // the automaton below this node.
                            match stack.get_mut(..=d) {
                                Some([root, .., parent, child]) => {
                                    parent.clone_from(root);
                                    let _ = parent.advance(text.get(..base + d - 1).unwrap_or_default());
                                    child.clone_from(parent);
                                    child.advance(&text)
                                }
                                Some([root, child]) => {
                                    child.clone_from(root);
                                    child.advance(&text)
                                }
                                _ => false,
                            }
                        }
                    }
                } else {
                    step(stack, d, &text)
                };
                if alive {
                    for &id in vocab.ending(i) {
                        mask.set(id);
                    }
                    i += 1;
                } else {
                    i = vocab.end.get(i).map_or(n, |&e| e as usize).max(i + 1);
                }
            }
            mask.utf = utf;
        }
        mask.scratch = scratch;
        mask.text = text;
    }
}

/// The child at depth `d` from its parent's state at `d - 1`, reading the last byte of `text`:
/// whether it lives.
fn step<A: Automaton>(stack: &mut [A], d: usize, text: &[u8]) -> bool {
    match stack.get_mut(d - 1..=d) {
        Some([parent, child]) => {
            child.clone_from(parent);
            child.advance(text)
        }
        _ => false,
    }
}

/// Walk trie nodes `from..to` (a subtree whose root's parent state is in `stack`) with the
/// automaton, setting the tokens of every node that lives.
fn walk<A: Automaton>(
    vocab: &Vocabulary,
    mask: &mut TokenMask,
    stack: &mut [A],
    text: &mut Vec<u8>,
    base: usize,
    from: usize,
    to: usize,
) {
    let mut i = from;
    while i < to {
        let d = vocab.depth.get(i).copied().map_or(1, usize::from);
        let b = vocab.bytes.get(i).copied().unwrap_or(0);
        text.truncate(base + d - 1);
        text.push(b);
        if step(stack, d, text) {
            for &id in vocab.ending(i) {
                mask.set(id);
            }
            i += 1;
        } else {
            i = vocab.end.get(i).map_or(to, |&e| e as usize).max(i + 1);
        }
    }
}

/// What one byte does inside a string no slot looks at.
enum Step {
    /// a plain byte: the new UTF-8 state
    Plain((u8, u8, u8)),
    /// a quote or a backslash: the automaton must read it
    Full,
    /// never valid here
    Dead,
}

/// One byte of a plain string, as the lexer would take it.
const fn plain_step(need: u8, lo: u8, hi: u8, b: u8) -> Step {
    if need > 0 {
        return if b >= lo && b <= hi {
            Step::Plain(if need > 1 { (need - 1, 0x80, 0xBF) } else { (0, 0, 0) })
        } else {
            Step::Dead
        };
    }
    match b {
        b'"' | b'\\' => Step::Full,
        0..=0x1F => Step::Dead,
        0x20..=0x7F => Step::Plain((0, 0, 0)),
        0xC2..=0xDF => Step::Plain((1, 0x80, 0xBF)),
        0xE0 => Step::Plain((2, 0xA0, 0xBF)),
        0xE1..=0xEC | 0xEE..=0xEF => Step::Plain((2, 0x80, 0xBF)),
        0xED => Step::Plain((2, 0x80, 0x9F)),
        0xF0 => Step::Plain((3, 0x90, 0xBF)),
        0xF1..=0xF3 => Step::Plain((3, 0x80, 0xBF)),
        0xF4 => Step::Plain((3, 0x80, 0x8F)),
        _ => Step::Dead,
    }
}
