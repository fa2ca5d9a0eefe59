//! ECMA-262 regular expressions (what JSON Schema's `pattern` means) translated to the dialect of
//! `regex-syntax`, then compiled to a DFA at macro time
//! (a plain transition table when it is small, regex-automata's sparse form when it is not).
//!
//! Where the two dialects differ, the ECMA-262 meaning is written out explicitly: `\d` and `\w`
//! are ASCII, `\s` is ECMA's whitespace set, `.` excludes ECMA's line terminators, `\b` is the
//! ASCII word boundary, `[^]` matches anything. Lookaround and backreferences cannot be expressed
//! by a finite automaton; they are refused with a message that names them.

use regex_automata::dfa::{dense, sparse};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::syntax;
use regex_automata::{dfa::Automaton, Input};

use crate::model::{Dfa, DfaTable};

const SPACE: &str = r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// Translate an ECMA-262 pattern; `Err` names the construct that cannot be translated.
pub fn translate(src: &str) -> Result<String, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut t = Translator { c: &chars, i: 0, out: String::new(), groups: 0 };
    t.alternation()?;
    if t.i < chars.len() {
        return Err("unbalanced `)`".into());
    }
    Ok(t.out)
}

struct Translator<'a> {
    c: &'a [char],
    i: usize,
    out: String,
    groups: usize,
}

fn lit(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && !c.is_control()) || c == ' ' {
        out.push(c);
    } else {
        out.push_str(&format!("\\x{{{:X}}}", c as u32));
    }
}

impl Translator<'_> {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }
    fn peek_at(&self, n: usize) -> Option<char> {
        self.c.get(self.i + n).copied()
    }

    fn alternation(&mut self) -> Result<(), String> {
        loop {
            self.sequence()?;
            if self.peek() == Some('|') {
                self.i += 1;
                self.out.push('|');
            } else {
                return Ok(());
            }
        }
    }

    fn sequence(&mut self) -> Result<(), String> {
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                return Ok(());
            }
            let quantifiable = self.atom()?;
            self.quantifier(quantifiable)?;
        }
        Ok(())
    }

    /// One atom; returns whether a quantifier may follow.
    fn atom(&mut self) -> Result<bool, String> {
        let Some(c) = self.peek() else { return Ok(false) };
        self.i += 1;
        match c {
            '^' => self.out.push_str(r"\A"),
            '$' => self.out.push_str(r"\z"),
            '.' => self.out.push_str(DOT),
            '(' => {
                if self.peek() == Some('?') {
                    match (self.peek_at(1), self.peek_at(2)) {
                        (Some(':'), _) => {
                            self.i += 2;
                            self.out.push_str("(?:");
                        }
                        (Some('=' | '!'), _) => return Err("lookahead `(?=` / `(?!`".into()),
                        (Some('<'), Some('=' | '!')) => return Err("lookbehind `(?<=` / `(?<!`".into()),
                        (Some('<'), _) => {
                            // Named group: the name does not matter for matching.
                            self.i += 2;
                            while let Some(ch) = self.peek() {
                                self.i += 1;
                                if ch == '>' {
                                    break;
                                }
                            }
                            self.out.push_str("(?:");
                        }
                        _ => return Err("the group syntax `(?`".into()),
                    }
                } else {
                    self.groups += 1;
                    self.out.push_str("(?:");
                }
                self.alternation()?;
                if self.peek() != Some(')') {
                    return Err("an unclosed `(`".into());
                }
                self.i += 1;
                self.out.push(')');
            }
            ')' => return Err("unbalanced `)`".into()),
            '[' => self.class()?,
            '\\' => return self.escape(false).map(|_| true),
            '*' | '+' | '?' => return Err(format!("a quantifier `{c}` with nothing to repeat")),
            '{' => {
                if self.braces_quantifier().is_some() {
                    return Err("a quantifier `{` with nothing to repeat".into());
                }
                lit('{', &mut self.out);
            }
            other => lit(other, &mut self.out),
        }
        Ok(!matches!(c, '^' | '$'))
    }

    /// `{n}`, `{n,}`, `{n,m}` at the cursor (just after `{`): the text to copy, if it is one.
    fn braces_quantifier(&self) -> Option<(String, usize)> {
        let mut j = self.i;
        let mut s = String::from("{");
        let mut digits = 0;
        while let Some(c) = self.c.get(j).filter(|c| c.is_ascii_digit()) {
            s.push(*c);
            j += 1;
            digits += 1;
        }
        if digits == 0 {
            return None;
        }
        if self.c.get(j) == Some(&',') {
            s.push(',');
            j += 1;
            while let Some(c) = self.c.get(j).filter(|c| c.is_ascii_digit()) {
                s.push(*c);
                j += 1;
            }
        }
        if self.c.get(j) != Some(&'}') {
            return None;
        }
        s.push('}');
        Some((s, j + 1))
    }

    fn quantifier(&mut self, quantifiable: bool) -> Result<(), String> {
        let q = match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.i += 1;
                c.to_string()
            }
            Some('{') => {
                self.i += 1;
                match self.braces_quantifier() {
                    Some((s, next)) => {
                        self.i = next;
                        s
                    }
                    None => {
                        self.i -= 1;
                        return Ok(());
                    }
                }
            }
            _ => return Ok(()),
        };
        if !quantifiable {
            return Err(format!("a quantifier `{q}` after an assertion"));
        }
        self.out.push_str(&q);
        if self.peek() == Some('?') {
            self.i += 1;
            self.out.push('?');
        }
        if matches!(self.peek(), Some('*' | '+' | '?')) {
            return Err("a quantifier on a quantifier".into());
        }
        Ok(())
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let s: String = self.c.get(self.i..self.i + n)?.iter().collect();
        let v = u32::from_str_radix(&s, 16).ok()?;
        self.i += n;
        Some(v)
    }

    /// `\u` escapes, including surrogate pairs and `\u{…}`.
    fn unicode_escape(&mut self) -> Result<char, String> {
        if self.peek() == Some('{') {
            self.i += 1;
            let start = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.i += 1;
            }
            let s: String = self.c.get(start..self.i).unwrap_or(&[]).iter().collect();
            if self.peek() != Some('}') {
                return Err("a malformed `\\u{…}` escape".into());
            }
            self.i += 1;
            return u32::from_str_radix(&s, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| "an invalid `\\u{…}` escape".into());
        }
        let hi = self.hex(4).ok_or("a malformed `\\u` escape")?;
        if (0xD800..0xDC00).contains(&hi) && self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
            let save = self.i;
            self.i += 2;
            if let Some(lo) = self.hex(4).filter(|lo| (0xDC00..0xE000).contains(lo)) {
                let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return char::from_u32(cp).ok_or_else(|| "an invalid surrogate pair".into());
            }
            self.i = save;
        }
        char::from_u32(hi).ok_or_else(|| "a lone UTF-16 surrogate escape (it cannot match UTF-8 text)".into())
    }

    /// An escape after `\`. In a class, class escapes are returned as set contents.
    fn escape(&mut self, in_class: bool) -> Result<(), String> {
        let Some(c) = self.peek() else { return Err("a trailing `\\`".into()) };
        self.i += 1;
        let set = |neg: bool, body: &str, in_class: bool| -> String {
            match (in_class, neg) {
                (true, false) => body.to_owned(),
                // A negated class escape inside a class: nest it (regex-syntax allows nesting).
                (true, true) => format!("[^{body}]"),
                (false, false) => format!("[{body}]"),
                (false, true) => format!("[^{body}]"),
            }
        };
        match c {
            'd' => self.out.push_str(&set(false, DIGIT, in_class)),
            'D' => self.out.push_str(&set(true, DIGIT, in_class)),
            'w' => self.out.push_str(&set(false, WORD, in_class)),
            'W' => self.out.push_str(&set(true, WORD, in_class)),
            's' => self.out.push_str(&set(false, SPACE, in_class)),
            'S' => self.out.push_str(&set(true, SPACE, in_class)),
            'b' if in_class => lit('\u{8}', &mut self.out),
            'b' => self.out.push_str(r"(?-u:\b)"),
            'B' if !in_class => self.out.push_str(r"(?-u:\B)"),
            'n' => lit('\n', &mut self.out),
            'r' => lit('\r', &mut self.out),
            't' => lit('\t', &mut self.out),
            'v' => lit('\u{B}', &mut self.out),
            'f' => lit('\u{C}', &mut self.out),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => lit('\0', &mut self.out),
            '1'..='9' => return Err(format!("the backreference `\\{c}`")),
            'k' if self.peek() == Some('<') => return Err("the named backreference `\\k<…>`".into()),
            'c' => {
                let Some(l) = self.peek().filter(char::is_ascii_alphabetic) else {
                    return Err("a malformed `\\c` escape".into());
                };
                self.i += 1;
                lit(char::from((l as u8) % 32), &mut self.out);
            }
            'x' => {
                let v = self.hex(2).ok_or("a malformed `\\x` escape")?;
                lit(char::from_u32(v).unwrap_or('\0'), &mut self.out);
            }
            'u' => {
                let ch = self.unicode_escape()?;
                lit(ch, &mut self.out);
            }
            'p' | 'P' => {
                if self.peek() != Some('{') {
                    return Err(format!("a malformed `\\{c}` escape"));
                }
                let start = self.i;
                while let Some(ch) = self.peek() {
                    self.i += 1;
                    if ch == '}' {
                        break;
                    }
                }
                let body: String = self.c.get(start..self.i).unwrap_or(&[]).iter().collect();
                self.out.push('\\');
                self.out.push(c);
                self.out.push_str(&body);
            }
            other if other.is_ascii_alphanumeric() => return Err(format!("the escape `\\{other}`")),
            other => lit(other, &mut self.out),
        }
        Ok(())
    }

    fn class(&mut self) -> Result<(), String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        if self.peek() == Some(']') {
            // `[]` matches nothing, `[^]` anything.
            self.i += 1;
            self.out.push_str(if negated { r"[\x{0}-\x{10FFFF}]" } else { r"[^\x{0}-\x{10FFFF}]" });
            return Ok(());
        }
        self.out.push('[');
        if negated {
            self.out.push('^');
        }
        loop {
            let Some(c) = self.peek() else { return Err("an unclosed `[`".into()) };
            self.i += 1;
            match c {
                ']' => break,
                '\\' => self.escape(true)?,
                '-' => self.out.push('-'),
                other => lit(other, &mut self.out),
            }
        }
        self.out.push(']');
        Ok(())
    }
}

/// The largest dense DFA kept: a dense transition is one table lookup per byte, a sparse one a
/// search through byte ranges (several times slower), but a dense table grows with states ×
/// byte classes; beyond this a pattern keeps the sparse form.
const DENSE_LIMIT: usize = 64 << 10;

/// Compile a translated pattern to an unanchored DFA (matching anywhere, as `pattern` does):
/// a table when it stays within `DENSE_LIMIT` bytes, sparse otherwise. Fails if the pattern is
/// not valid or the automaton would be too large.
pub fn compile(translated: &str) -> Result<Dfa, String> {
    let dense = unanchored(translated)?;
    if let Some(t) = table(&dense) {
        return Ok(Dfa::Table(t));
    }
    let sparse: sparse::DFA<Vec<u8>> = dense.to_sparse().map_err(|e| e.to_string())?;
    Ok(Dfa::Sparse { little: sparse.to_bytes_little_endian(), big: sparse.to_bytes_big_endian() })
}

/// Whether translated pattern `translated` matches any of `subjects` anywhere (as `pattern`
/// and `patternProperties` do), its automaton built once; `None` when it does not compile or a
/// search gives up.
pub fn matches_any(translated: &str, subjects: &[&str]) -> Option<bool> {
    let dfa = unanchored(translated).ok()?;
    let mut any = false;
    for s in subjects {
        any |= dfa.try_search_fwd(&Input::new(s)).ok()?.is_some();
    }
    Some(any)
}

/// A translated pattern's dense DFA, unanchored (matching anywhere), within the size limits.
fn unanchored(translated: &str) -> Result<dense::DFA<Vec<u32>>, String> {
    dense::Builder::new()
        .syntax(syntax::Config::new().unicode(true).utf8(true))
        .thompson(thompson::Config::new().utf8(true))
        .configure(
            dense::Config::new()
                .start_kind(regex_automata::dfa::StartKind::Unanchored)
                .dfa_size_limit(Some(4 << 20))
                .determinize_size_limit(Some(8 << 20))
                .minimize(false),
        )
        .build(translated)
        .map_err(|e| e.to_string())
}

/// The states reachable from the search's start (bytes and the end of input), renumbered as
/// [`DfaTable`] says; `None` when the table would pass `DENSE_LIMIT` or its ids `u16`.
fn table(dfa: &dense::DFA<Vec<u32>>) -> Option<DfaTable> {
    let byte_classes = dfa.byte_classes();
    let columns = byte_classes.alphabet_len().checked_sub(1)?;
    let classes: Vec<u8> = (0..=255u8).map(|b| byte_classes.get(b)).collect();
    let representatives: Vec<u8> =
        (0..columns).map(|c| (0..=255u8).find(|&b| usize::from(byte_classes.get(b)) == c)).collect::<Option<_>>()?;
    let start = dfa.start_state_forward(&Input::new("")).ok()?;
    // Every reachable state, in the order found.
    let mut states = vec![start];
    let mut seen = std::collections::HashSet::from([start]);
    let mut i = 0;
    while let Some(&s) = states.get(i) {
        i += 1;
        if dfa.is_dead_state(s) {
            continue;
        }
        for t in representatives.iter().map(|&b| dfa.next_state(s, b)).chain([dfa.next_eoi_state(s)]) {
            if seen.insert(t) {
                states.push(t);
            }
        }
        if states.len() * (columns + 1) * 2 > DENSE_LIMIT {
            return None;
        }
    }
    // Numbered by kind: the dead state first (every dead state is the same), then quit, match,
    // live; premultiplied.
    let stride = columns + 1;
    let rank = |s: StateID| {
        if dfa.is_dead_state(s) {
            0
        } else if dfa.is_quit_state(s) {
            1
        } else if dfa.is_match_state(s) {
            2
        } else {
            3
        }
    };
    let mut order: Vec<StateID> = states.iter().copied().filter(|&s| rank(s) > 0).collect();
    order.sort_by_key(|&s| rank(s));
    let ids: std::collections::HashMap<StateID, u16> = order
        .iter()
        .enumerate()
        .map(|(i, &s)| Some((s, u16::try_from((i + 1) * stride).ok()?)))
        .collect::<Option<_>>()?;
    let id = |s: StateID| if rank(s) == 0 { Some(0) } else { ids.get(&s).copied() };
    let ends = |r: u8| u16::try_from((order.iter().filter(|&&s| rank(s) <= r).count() + 1) * stride).ok();
    let mut next = vec![0u16; stride];
    for &s in &order {
        for &b in &representatives {
            next.push(id(dfa.next_state(s, b))?);
        }
        next.push(id(dfa.next_eoi_state(s))?);
    }
    Some(DfaTable {
        classes,
        next,
        stride: u16::try_from(stride).ok()?,
        start: id(start)?,
        quit_end: ends(1)?,
        match_end: ends(2)?,
    })
}

/// The most bytes a [`fixed`] pattern's subject may have (the slice pattern grows with it).
const FIXED_LIMIT: usize = 64;

/// The byte sets of a pattern that accepts exactly the strings of one length whose bytes are
/// in those sets, one set per byte (`^[A-Z]{3}-[0-9]{4}$`), as inclusive ranges; `None` for any
/// other pattern, or one longer than 64 bytes (`FIXED_LIMIT`).
///
/// Read off the table, so it means what the table means: from the start, every state is live
/// and has one live successor, every byte that does not lead to it leads to the dead state, and
/// the end of input matches nowhere but after the last state of the chain, from which every
/// byte is dead. A string then matches exactly when it has the chain's length and each byte
/// leads along it.
#[must_use]
pub fn fixed(t: &DfaTable) -> Option<Vec<Vec<(u8, u8)>>> {
    let stride = usize::from(t.stride);
    let row = |s: u16| {
        let at = usize::from(s);
        t.next.get(at..at + stride)
    };
    let live = |s: u16| s >= t.match_end;
    let is_match = |s: u16| s >= t.quit_end && s < t.match_end;
    let mut sets = Vec::new();
    let mut s = t.start;
    if !live(s) {
        return None;
    }
    loop {
        let r = row(s)?;
        let (bytes, eoi) = r.split_at(stride - 1);
        let eoi = *eoi.first()?;
        let mut successors = bytes.iter().copied().filter(|&n| n != 0);
        let Some(next) = successors.next() else {
            // The last state: the end of input must match here.
            return (is_match(eoi) && !sets.is_empty()).then_some(sets);
        };
        if !live(next) || successors.any(|n| n != next) || is_match(eoi) || sets.len() == FIXED_LIMIT {
            return None;
        }
        let mut ranges: Vec<(u8, u8)> = Vec::new();
        for b in 0..=255u8 {
            let class = usize::from(*t.classes.get(usize::from(b))?);
            if bytes.get(class) != Some(&next) {
                continue;
            }
            match ranges.last_mut() {
                Some((_, hi)) if hi.checked_add(1) == Some(b) => *hi = b,
                _ => ranges.push((b, b)),
            }
        }
        sets.push(ranges);
        s = next;
    }
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn translates_ecma_differences() {
        assert_eq!(translate(r"^\d+$").as_deref(), Ok(r"\A[0-9]+\z"));
        assert_eq!(translate(r"a.b").as_deref(), Ok(r"a[^\n\r\x{2028}\x{2029}]b"));
        assert_eq!(translate(r"[\w-]").as_deref(), Ok(r"[0-9A-Za-z_-]"));
        assert_eq!(translate("[^]").as_deref(), Ok(r"[\x{0}-\x{10FFFF}]"));
        assert_eq!(translate("a{2,3}?").as_deref(), Ok("a{2,3}?"));
        assert_eq!(translate("a{").as_deref(), Ok(r"a\x{7B}"));
        assert_eq!(translate(r"\u00e9").as_deref(), Ok("é"));
        assert_eq!(translate(r"\uD83D\uDCA9").as_deref(), Ok("💩"));
        assert!(translate("(?=a)").is_err_and(|e| e.contains("lookahead")));
        assert!(translate(r"(a)\1").is_err_and(|e| e.contains("backreference")));
        assert!(translate("a)").is_err());
    }

    #[test]
    fn compiles() {
        for p in [r"^[a-z]{3}$", r"\p{Letter}+", "^(a|b)*c$"] {
            let t = translate(p).unwrap_or_default();
            assert!(super::compile(&t).is_ok(), "{p} -> {t}");
        }
    }

    #[test]
    fn small_automata_are_tables_large_ones_sparse() {
        let form = |p: &str| {
            super::compile(&translate(p).unwrap_or_default()).map(|c| matches!(c, crate::model::Dfa::Table(_)))
        };
        assert_eq!(form(r"^[A-Z]{3}-[0-9]{4}$"), Ok(true));
        assert_eq!(form(r"\p{Letter}+"), Ok(false));
    }
}
