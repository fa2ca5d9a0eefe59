//! `toolgate::partial_value` (and `Stream::partial`, and `PartialValue`, which builds it as the
//! text arrives): the value a reply's text so far stands for, repaired for display. Checked on hand-picked prefixes, and at every cut of every fixture text,
//! the malformed texts and mutants of them: it refuses exactly the prefixes the JSON grammar
//! refuses (where the stream dies of a syntax error, and nowhere before), it is the parsed value
//! once the text is whole, and every prefix of a valid text gives a value that the whole text's
//! only extends; and `PartialValue` fed the text in pieces holds after each what
//! `partial_value` gives for the text so far.

#![allow(clippy::pedantic)]

mod fixtures;

use std::fmt::Debug;

use fixtures::{mutants, Visit, MALFORMED};
use serde_json::{json, Value};
use toolgate::{partial_value, PartialValue, Progress, Tool};

#[test]
fn prefixes_are_repaired_as_a_partial_json_parser_repairs_them() {
    // A mantissa beyond the `f64` range may still take a negative exponent: left out.
    let huge = format!("[1{}", "0".repeat(400));
    let cases: Vec<(&str, Option<Value>)> = vec![
        // Nothing yet.
        ("", None),
        (" \n", None),
        // Open containers closed; a member whose key or value has not begun left out.
        ("{", Some(json!({}))),
        (r#"{"pa"#, Some(json!({}))),
        (r#"{"path""#, Some(json!({}))),
        (r#"{"path":"#, Some(json!({}))),
        (r#"{"path": "src/li"#, Some(json!({"path": "src/li"}))),
        (r#"{"path": "a", "n": 12"#, Some(json!({"path": "a", "n": 12}))),
        (r#"{"path": "a", "n": 12, "#, Some(json!({"path": "a", "n": 12}))),
        ("[", Some(json!([]))),
        (r#"[1, [2, {"a": ["#, Some(json!([1, [2, {"a": []}]]))),
        (r#"[1, [2, {"a": [true, nu"#, Some(json!([1, [2, {"a": [true]}]]))),
        // A number where its text is one so far.
        (r#"{"n": -"#, Some(json!({}))),
        (r#"{"n": -3"#, Some(json!({"n": -3}))),
        (r#"{"n": 1."#, Some(json!({}))),
        (r#"{"n": 1.5"#, Some(json!({"n": 1.5}))),
        (r#"{"n": 1e+"#, Some(json!({}))),
        (r#"{"n": 1e+5"#, Some(json!({"n": 1e5}))),
        ("[1e30", Some(json!([1e30]))),
        ("[1e-400", Some(json!([0.0]))),
        (&huge, Some(json!([]))),
        // Literals only whole.
        (r#"{"ok": tr"#, Some(json!({}))),
        (r#"{"ok": true"#, Some(json!({"ok": true}))),
        // Strings: escapes and UTF-8 characters only whole.
        (r#""caf\u00"#, Some(json!("caf"))),
        (r#""caf\u00e9"#, Some(json!("café"))),
        (r#""a\"#, Some(json!("a"))),
        (r#""a\n"#, Some(json!("a\n"))),
        (r#""\uD83D"#, Some(json!(""))),
        (r#""\uD83D\"#, Some(json!(""))),
        (r#""\uD83D\uDE"#, Some(json!(""))),
        (r#""\uD83D\uDE00"#, Some(json!("😀"))),
        // Whole texts.
        ("{}", Some(json!({}))),
        (" [] ", Some(json!([]))),
        (r#"{"a": {"b": "c"}, "d": [1, 2.5, null]}"#, Some(json!({"a": {"b": "c"}, "d": [1, 2.5, null]}))),
        ("12", Some(json!(12))),
        ("12 ", Some(json!(12))),
        // A repeated key, once it closes (compared decoded).
        (r#"{"a": 1, "a"#, Some(json!({"a": 1}))),
        (r#"{"a": 1, "a""#, None),
        (r#"{"a": 1, "\u0061""#, None),
        (r#"{"a": {"a": 1}, "b": {"a": 2}}"#, Some(json!({"a": {"a": 1}, "b": {"a": 2}}))),
        // Refused bytes.
        (r#"{"a" 1"#, None),
        ("[1,]", None),
        (r#"{"a": 1,}"#, None),
        ("{,", None),
        ("{]", None),
        ("[}", None),
        ("01", None),
        ("[01", None),
        ("-a", None),
        ("1.e", None),
        ("1 2", None),
        ("{} x", None),
        ("[1e400]", None),
        // (In a positive exponent, beyond the `f64` range for good.)
        ("[1e400", None),
        ("[1.8e308", None),
        ("tx", None),
        ("\"a\nb", None),
        (r#""\x"#, None),
        (r#""\uDC"#, None),
        (r#""\uD83D\u00"#, None),
        (r#""\uD83Dx"#, None),
        ("\u{feff}{}", None),
    ];
    for (prefix, want) in &cases {
        assert_eq!(&partial_value(prefix.as_bytes()), want, "{prefix:?}");
    }
    // Bytes: a UTF-8 character cut at the end is left out; bytes no continuation makes UTF-8
    // are refused.
    assert_eq!(partial_value(b"\"caf\xC3"), Some(json!("caf")));
    assert_eq!(partial_value(b"\"caf\xC3\xA9"), Some(json!("café")));
    assert_eq!(partial_value(b"\"caf\xC3\x28"), None);
    assert_eq!(partial_value(b"\"\xF0\x9F\x98"), Some(json!("")));
    assert_eq!(partial_value(b"\"\xED\xA0"), None);
    assert_eq!(partial_value(b"\"\xFF"), None);
    // Nesting as deep as `toolgate::Limits::MAX_DEPTH`, not deeper.
    let depth = toolgate::Limits::MAX_DEPTH;
    assert!(partial_value("[".repeat(depth).as_bytes()).is_some());
    assert_eq!(partial_value("[".repeat(depth + 1).as_bytes()), None);
}

/// Whether `part` is what a prefix of a text whose value is `whole` may stand for: itself, or
/// the beginning of it (a string's first characters; an array's first items, the last of them
/// possibly unfinished; some of an object's members, each possibly unfinished; a number that may
/// still grow).
fn grows(part: &Value, whole: &Value) -> bool {
    match (part, whole) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len()
                && a.iter().zip(b).enumerate().all(|(i, (x, y))| if i + 1 == a.len() { grows(x, y) } else { x == y })
        }
        (Value::Object(a), Value::Object(b)) => a.iter().all(|(k, x)| b.get(k).is_some_and(|y| grows(x, y))),
        _ => part == whole,
    }
}

/// Whether `prefix` is a root scalar that stands for nothing yet: a literal's first letters, or
/// a number's text that is no number so far (`-`, `1.`, `1e+`).
fn unfinished_root(prefix: &[u8]) -> bool {
    let t = prefix.trim_ascii();
    let literal = [&b"true"[..], b"false", b"null"].iter().any(|w| w.len() > t.len() && w.starts_with(t));
    let number = t.first().is_some_and(|b| *b == b'-' || b.is_ascii_digit())
        && t.iter().all(|b| b"-+.eE0123456789".contains(b))
        && !t.last().is_some_and(u8::is_ascii_digit);
    literal || number
}

/// Every cut of `text`, against the stream of `T` fed byte by byte and toolgate's strict parse of
/// the whole text.
fn check<T: Tool>(name: &str, text: &[u8]) -> usize {
    let mut s = T::stream();
    // The byte where the stream died of the JSON grammar, where it died (of anything).
    let mut syntax = None;
    let mut dead = None;
    for (i, b) in text.iter().enumerate() {
        if let Progress::Dead(d) = s.feed(&[*b]) {
            if dead.is_none() {
                dead = Some(i);
                if d.violation().is_none() {
                    syntax = Some(i);
                }
            }
        }
    }
    let started = |p: &[u8]| p.iter().any(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
    let whole = std::str::from_utf8(text).ok().and_then(|t| toolgate::parse(t).ok());
    let valid = std::str::from_utf8(text).is_ok_and(T::is_valid_json);
    let mut refused = None;
    // (Every cut of a short text; of a long one, every 13th and the last 64.)
    let step = if text.len() > 400 { 13 } else { 1 };
    let mut checked = 0;
    for cut in (0..=text.len()).filter(|c| c % step == 0 || c + 64 > text.len()) {
        checked += 1;
        let prefix = &text[..cut];
        let part = partial_value(prefix);
        let ctx = || format!("{name}: {:?} cut at {cut}", String::from_utf8_lossy(text));
        // Refused from the byte where the stream died of the grammar on; before it, a value from
        // the first byte on, but where a key repeats that the stream leaves to `finish` (past the
        // levels it tracks): refused for good, and the strict parse refuses the whole text.
        if syntax.is_some_and(|k| cut > k) {
            assert_eq!(part, None, "{}: refused after the grammar's death", ctx());
        }
        match (&part, refused) {
            (Some(p), Some(r)) => panic!("{}: {p} after a refusal at {r}", ctx()),
            (None, None) if started(prefix) && !unfinished_root(prefix) => {
                refused = Some(cut);
                assert!(whole.is_none(), "{}: refused, but the whole text parses", ctx());
            }
            _ => {}
        }
        if let (Some(w), Some(p)) = (&whole, &part) {
            if valid {
                assert!(grows(p, w), "{}: {p} is not a beginning of {w}", ctx());
            }
        }
    }
    // Built as the text arrives, in pieces of 1 byte and of 1 to 9: after each, the value the
    // text so far stands for.
    for seed in [0u64, text.len() as u64 + 1] {
        let mut built = PartialValue::new();
        let (mut at, mut k) = (0, seed);
        while at < text.len() {
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let n = if seed == 0 { 1 } else { 1 + (k >> 33) as usize % 9 }.min(text.len() - at);
            built.feed(&text[at..at + n]);
            at += n;
            // (Of a long text: every 13th piece, and the end.)
            if step > 1 && k % 13 != 0 && at < text.len() {
                continue;
            }
            assert_eq!(
                built.value(),
                partial_value(&text[..at]).as_ref(),
                "{name}: {:?} fed up to {at}",
                String::from_utf8_lossy(text)
            );
        }
    }
    // The whole text, where the strict parse takes it: its value.
    if let Some(w) = &whole {
        assert_eq!(partial_value(text).as_ref(), Some(w), "{name}: {:?}", String::from_utf8_lossy(text));
    }
    checked
}

struct Cuts {
    texts: usize,
    cuts: usize,
}

impl Visit for Cuts {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        for (i, t) in texts.iter().chain(MALFORMED).enumerate() {
            self.cuts += check::<T>(name, t.as_bytes());
            self.texts += 1;
            if t.len() < 300 {
                for m in mutants(t, i as u64 * 31 + name.len() as u64, 10) {
                    self.cuts += check::<T>(name, m.as_bytes());
                    self.texts += 1;
                }
            }
        }
    }
}

#[test]
fn every_cut_of_every_fixture_text_agrees_with_the_grammar_and_grows_into_the_whole_value() {
    let mut c = Cuts { texts: 0, cuts: 0 };
    fixtures::all(&mut c);
    println!("partial values: {} texts, {} cuts", c.texts, c.cuts);
    assert!(c.texts > 1_000 && c.cuts > 30_000, "{} texts, {} cuts", c.texts, c.cuts);
}

#[test]
fn a_stream_shows_what_its_text_stands_for() {
    toolgate::tool_schema! {
        /// A file to read.
        struct ReadFile = {
            "type": "object",
            "properties": {"path": {"type": "string"}, "max_lines": {"type": "integer", "maximum": 100}},
            "required": ["path"],
            "additionalProperties": false
        };
    }
    let mut s = ReadFile::stream();
    let mut shown = Vec::new();
    for delta in [r#"{"pa"#, r#"th": "src/"#, r#"lib.rs", "max_li"#, r#"nes": 20"#, "0}"] {
        let alive = !s.feed(delta.as_bytes()).is_dead();
        shown.push((alive, s.partial()));
    }
    assert_eq!(
        shown,
        vec![
            (true, Some(json!({}))),
            (true, Some(json!({"path": "src/"}))),
            (true, Some(json!({"path": "src/lib.rs"}))),
            (true, Some(json!({"path": "src/lib.rs", "max_lines": 20}))),
            // Dead (200 is past 100), and still shown.
            (false, Some(json!({"path": "src/lib.rs", "max_lines": 200}))),
        ]
    );
}
