//! The compiled `pattern` DFAs, in both forms the macro emits (a transition table for small
//! automata, regex-automata's sparse form for large ones), and the byte sets read off a table
//! where the pattern accepts the strings of one length whose bytes are in them (checked with a
//! slice pattern), match exactly what the `regex` crate matches for the same translated
//! pattern, on strings of characters each pattern cares about. The languages a stream steps for
//! the asserted `format`s hold exactly the strings of each format, but for the gaps they name.

use toolgate::__private::Pattern;
use toolgate_compiler::lower::regex::{compile, fixed, translate};
use toolgate_compiler::model::Dfa;

/// The runtime's pattern for a compiled DFA (leaked: the macro's are statics).
fn runtime(dfa: Dfa) -> Pattern {
    match dfa {
        Dfa::Table(t) => {
            let classes: Box<[u8; 256]> =
                t.classes.into_boxed_slice().try_into().unwrap_or_else(|_| panic!("256 classes"));
            let next: Vec<u8> = t.next.iter().flat_map(|n| n.to_le_bytes()).collect();
            Pattern::table(Box::leak(classes), next.leak(), t.stride, t.start, t.quit_end, t.match_end)
        }
        Dfa::Sparse { little, big } => Pattern::sparse(little.leak(), big.leak()),
    }
}

/// A small deterministic generator (xorshift), so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).unwrap_or(0)
    }
}

#[test]
fn compiled_patterns_match_what_the_regex_crate_matches() {
    let patterns = [
        r"^[A-Z]{3}-[0-9]{4}$",
        r"^C[0-9]{6}$",
        r"a+b",
        r"^(ab|cd)*$",
        r"\bab\b",
        r"^$",
        r"x*",
        r"[^a]",
        r"^\d{2,4}(\.\d+)?$",
        r"é+",
        r"^[α-ω]{2}",
        r"^\s*$",
        r"^.b",
        r"\p{Letter}+",
        r"^\p{Lu}\p{Ll}*$",
        r"[^\s\S]",
        r"\p{Letter}\p{Number}\p{Letter}",
        r"^\d{4}-\d{2}-\d{2}$",
        r"^é-[a-f0-9]{2}$",
        r"^[a-z]{3}",
        r"[A-Z]{3}",
        r"^(a|b)(c|d)$",
        r"^a?b$",
    ];
    let seeds = ["ABC-1234", "C004217", "aab", "abcdab", "ab ab", "", "123.45", "αω", "Éé", "2026-12-03", "é-a9", "bd"];
    let mut fixed_ones = Vec::new();
    let alphabet: Vec<char> = "aAbBcdCxZ019-.é α ω\n_\u{2028}𝄞".chars().collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut tables, mut sparse) = (0, 0);
    for source in patterns {
        let translated = translate(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let dfa = compile(&translated).unwrap_or_else(|e| panic!("{source}: {e}"));
        let sets = match &dfa {
            Dfa::Table(t) => fixed(t),
            Dfa::Sparse { .. } => None,
        };
        if sets.is_some() {
            fixed_ones.push(source);
        }
        match dfa {
            Dfa::Table(_) => tables += 1,
            Dfa::Sparse { .. } => sparse += 1,
        }
        let pattern = runtime(dfa);
        let oracle = regex::Regex::new(&translated).unwrap_or_else(|e| panic!("{source}: {e}"));
        let mut matched = 0;
        for n in 0..4000 {
            let len = rng.below(10);
            let s: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            // Some strings that the anchored patterns accept, with a character changed.
            let s = match n % 4 {
                0 => seeds[n / 4 % seeds.len()].chars().chain(s.chars().take(usize::from(n % 3 == 0))).collect(),
                1 => {
                    // A seed with one character replaced.
                    let mut c: Vec<char> = seeds[n / 4 % seeds.len()].chars().collect();
                    if !c.is_empty() {
                        let i = rng.below(c.len());
                        c[i] = alphabet[rng.below(alphabet.len())];
                    }
                    c.into_iter().collect()
                }
                _ => s,
            };
            let want = oracle.is_match(&s);
            matched += usize::from(want);
            assert_eq!(pattern.is_match(&s), want, "/{source}/ on {s:?}");
            assert_eq!(pattern.is_match_chars(s.chars()), want, "/{source}/ on {s:?}, as characters");
            if let Some(sets) = &sets {
                let b = s.as_bytes();
                let got = b.len() == sets.len()
                    && b.iter().zip(sets).all(|(c, ranges)| ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(c)));
                assert_eq!(got, want, "/{source}/ on {s:?}, by its byte sets {sets:?}");
            }
        }
        // Each pattern both matches and fails somewhere (except the one that never matches).
        assert!(matched > 0 || source == r"[^\s\S]", "/{source}/ never matched");
        assert!(matched < 4000 || source == "x*", "/{source}/ always matched");
    }
    assert!(tables >= 10 && sparse >= 2, "{tables} tables, {sparse} sparse");
    assert_eq!(
        fixed_ones,
        [r"^[A-Z]{3}-[0-9]{4}$", r"^C[0-9]{6}$", r"^\d{4}-\d{2}-\d{2}$", r"^é-[a-f0-9]{2}$", r"^(a|b)(c|d)$"],
        "the patterns of one length and byte sets"
    );
}

/// Where the language a stream steps for format `name` may be wider than the format (the
/// format's check judges these when the string ends): an e-mail address's lengths (a local part
/// of more than 64 bytes, a label of more than 63, a host name of more than 253) and the
/// characters of its IPv6 literal; a duration's numbers past `u32`; the characters of a URI's
/// IP literal.
fn gap(name: &str, s: &str) -> bool {
    match name {
        "email" => {
            let (local, domain) = s.rsplit_once('@').unwrap_or((s, ""));
            local.len() > 64
                || domain.len() > 253
                || domain.split('.').any(|l| l.len() > 63)
                || domain.starts_with("[IPv6:")
        }
        "duration" => s.split(|c: char| !c.is_ascii_digit()).any(|n| n.len() > 9),
        "uri" | "uri-reference" => s.contains("//[") || s.contains("@["),
        _ => false,
    }
}

#[test]
fn format_languages_hold_exactly_the_strings_of_the_format() {
    // For every format, seeds of the format and thousands of edits of each: the language (with
    // the leap-second stepping for `time` and `date-time`) takes every string the format's check
    // takes, and no other but in the gaps `gap` names.
    let seeds: &[(&str, &[&str])] = &[
        ("date", &["2024-02-29", "1963-06-19", "0000-01-01", "2023-02-28"]),
        ("time", &["08:30:06.283185Z", "23:59:60Z", "15:59:60-08:00", "00:00:00+23:59", "12:00:60+12:01"]),
        ("date-time", &["1963-06-19T08:30:06.283185Z", "1990-12-31t15:59:60-08:00", "2024-02-29T00:00:00+01:00"]),
        ("duration", &["P4DT12H30M5S", "P2W", "P1Y2M", "PT1M2S", "P1D", "PT36H", "P12345678901D"]),
        (
            "email",
            &[
                "joe.bloggs@example.com",
                "\"joe bloggs\"@example.com",
                "te~st@[127.0.0.1]",
                "a@xn--bcher-kva.ch",
                "a-b@c-d.e1",
                // (Past the lengths, and an IPv6 literal: the gaps.)
                "lllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll@a.b",
                "a@hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh.c",
                "a@[IPv6:::g]",
            ],
        ),
        ("ipv4", &["192.168.0.1", "0.0.0.0", "255.255.255.255"]),
        ("ipv6", &["::1", "::", "1::", "1:2:3:4:5:6:7:8", "::ffff:192.168.0.1", "1:2:3:4:5:6:1.2.3.4", "fe80::1:2"]),
        (
            "uri",
            &[
                "http://foo.bar/?baz=qux#quux",
                "urn:isbn:0451450523",
                "http://[2001:db8::7]/c=GB?x",
                "mailto:a@b.c",
                "http://u:p@h:80/p%20q",
                "x://[v1.a:b]",
            ],
        ),
        ("uri-reference", &["/abc", "#frag", "?q=1", "//example.com/a%20b", "", "a:b", "../x?y#z", "//[::1]:8/a[b]"]),
        ("uuid", &["2eb8aa08-aa98-11ea-b4aa-73b441d16380"]),
        ("json-pointer", &["/a~1b", "", "/foo/0", "/é~0/ \"x\\"]),
        ("relative-json-pointer", &["1/a", "0#", "0", "120/foo/bar"]),
    ];
    let alphabet: Vec<char> = "0123456789:-./@#%~+?TtZzPYMWDHSabcdefvxnABCDEFXN[]\" \\é".chars().collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut wide = 0;
    for &(name, strings) in seeds {
        let Some(p) = toolgate_compiler::lower::format::prefix(name) else { panic!("{name}: no language") };
        // (A table: stepped with one lookup a byte, and the leap seconds beside it.)
        assert!(matches!(p.dfa, Dfa::Table(_)), "{name}: not a table");
        let mut pattern = runtime(p.dfa.clone());
        if let Some(at) = p.leap_seconds_at {
            pattern = pattern.leap_seconds(at);
        }
        let (mut valid, mut invalid) = (0, 0);
        for &seed in strings {
            for k in 0..20_000 {
                let mut s: Vec<char> = seed.chars().collect();
                for _ in 0..usize::from(k > 0) * (1 + rng.below(3)) {
                    let c = alphabet[rng.below(alphabet.len())];
                    match rng.below(3) {
                        0 if !s.is_empty() => {
                            let i = rng.below(s.len());
                            s[i] = c;
                        }
                        1 if !s.is_empty() => {
                            s.remove(rng.below(s.len()));
                        }
                        _ => s.insert(rng.below(s.len() + 1), c),
                    }
                }
                let s: String = s.into_iter().collect();
                let ok = toolgate::__private::format_matches(name, &s);
                let taken = pattern.is_match(&s);
                if ok {
                    assert!(taken, "{name}: {s:?} is of the format, but not of its language");
                    valid += 1;
                } else if gap(name, &s) {
                    wide += usize::from(taken);
                } else {
                    assert!(!taken, "{name}: {s:?} is not of the format, but of its language");
                    invalid += 1;
                }
            }
        }
        assert!(valid > 10 && invalid > 10_000, "{name}: {valid} valid, {invalid} invalid");
    }
    assert!(wide > 0, "the gaps were never reached");
}
