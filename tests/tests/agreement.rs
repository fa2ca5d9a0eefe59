//! Every path gives the same answer: `is_valid` (parsed `&Value`), `is_valid_json` (text),
//! `validate`, `check_json` with `Verdict`/`First`/`Collect`, and `from_json`.
//!
//! Ordering: the text path reports violations in the `&Value` validator's order (schema order;
//! undeclared members in `serde_json::Map` order), so lists are compared exactly, in order.

#![allow(clippy::pedantic)]

mod fixtures;

use std::fmt::Debug;

use fixtures::{mutants, nested, Visit, MALFORMED};
use serde_json::Value;
use toolgate::{parse, Collect, Error, First, Tool, Verdict};

/// Assert that every path agrees on `text`; returns whether it was valid JSON and valid.
fn agree<T: Tool + PartialEq + Debug>(name: &str, text: &str) -> (bool, bool) {
    let ctx = || format!("{name}: {text:?}");
    let verdict = T::is_valid_json(text);
    let mut v = Verdict::new();
    let checked = T::check_json(text, &mut v);
    let mut first = First::default();
    let first_res = T::check_json(text, &mut first);
    let mut all = Collect::default();
    let all_res = T::check_json(text, &mut all);
    let built = T::from_json(text);
    assert_eq!(toolgate::__private::is_json(text), parse(text).is_ok(), "syntax-only scan, {}", ctx());
    match parse(text) {
        Err(e) => {
            assert!(!verdict, "is_valid_json accepted text that is not JSON: {}", ctx());
            assert_eq!(checked.as_ref().err(), Some(&e), "{}", ctx());
            assert_eq!(first_res.as_ref().err(), Some(&e), "{}", ctx());
            assert_eq!(all_res.as_ref().err(), Some(&e), "{}", ctx());
            assert!(first.0.is_none() && all.0.is_empty(), "violations reported for text that is not JSON: {}", ctx());
            assert!(v.valid, "{}", ctx());
            assert_eq!(built.as_ref().err(), Some(&e), "{}", ctx());
            (false, false)
        }
        Ok(value) => {
            let valid = T::is_valid(&value);
            assert_eq!(verdict, valid, "is_valid_json vs is_valid: {}", ctx());
            assert!(checked.is_ok() && first_res.is_ok() && all_res.is_ok(), "{}", ctx());
            assert_eq!(v.valid, valid, "check_json(Verdict): {}", ctx());
            let expected = T::validate(&value);
            let list = expected.as_ref().err().map_or(&[][..], |e| e.as_slice());
            assert_eq!(all.0.as_slice(), list, "check_json(Collect) vs validate: {}", ctx());
            assert_eq!(first.0.as_ref(), list.first(), "check_json(First) vs validate: {}", ctx());
            assert_eq!(valid, list.is_empty(), "{}", ctx());
            if valid {
                // The typed value built from the text itself (what `from_json` does; it would
                // fall back to the `Value` path should this fail, so it is asserted here).
                let mut sc = toolgate::__private::Scanner::new(text);
                sc.ws();
                let from_text = T::__build(&mut sc);
                assert!(from_text.is_some(), "the text builder refused valid text: {}", ctx());
                assert_eq!(from_text.ok_or(()), T::from_value(&value).map_err(|_| ()), "{}", ctx());
            }
            // The one-pass parse (validate and build together) agrees with the scan and builds
            // what `from_value` builds.
            let mut sc = toolgate::__private::Scanner::new(text);
            sc.ws();
            match T::__parse(&mut sc) {
                Ok(parsed) => {
                    assert!(valid, "__parse accepted invalid text: {}", ctx());
                    assert_eq!(Ok(parsed), T::from_value(&value).map_err(|_| ()), "{}", ctx());
                }
                Err(halt) => assert!(!valid, "__parse refused valid text ({halt:?}): {}", ctx()),
            }
            match (built, T::from_value(&value)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{}", ctx()),
                (Err(Error::Invalid(a)), Err(b)) => assert_eq!(a, b, "{}", ctx()),
                (a, b) => panic!("from_json {a:?} vs from_value {b:?}: {}", ctx()),
            }
            (true, valid)
        }
    }
}

struct Agree {
    valid: usize,
    invalid: usize,
    malformed: usize,
    mutants: bool,
}

impl Visit for Agree {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        for (i, t) in texts.iter().chain(MALFORMED).enumerate() {
            match agree::<T>(name, t) {
                (true, true) => self.valid += 1,
                (true, false) => self.invalid += 1,
                _ => self.malformed += 1,
            }
            if self.mutants && t.len() < 400 {
                for m in mutants(t, i as u64 * 7919 + name.len() as u64, 150) {
                    agree::<T>(name, &m);
                }
            }
        }
    }
}

#[test]
fn every_fixture_agrees_on_every_path() {
    let mut a = Agree { valid: 0, invalid: 0, malformed: 0, mutants: false };
    fixtures::all(&mut a);
    // The fixtures must exercise all three outcomes (else this test proves little).
    assert!(a.valid >= 30 && a.invalid >= 60 && a.malformed >= 300, "{} {} {}", a.valid, a.invalid, a.malformed);
}

#[test]
fn mutated_instances_agree() {
    fixtures::all(&mut Agree { valid: 0, invalid: 0, malformed: 0, mutants: true });
}

#[test]
fn depth_limit_matches_serde_json() {
    // serde_json's recursion limit (128) admits 127 nested arrays/objects.
    for depth in [126, 127, 128, 129, 200] {
        let t = nested(depth);
        let (json, _) = agree::<fixtures::Loose>("loose", &t);
        assert_eq!(json, depth <= 127, "depth {depth}");
    }
    let deep_objects = format!("{}1{}", r#"{"payload":"#.repeat(128), "}".repeat(128));
    assert!(!agree::<fixtures::Loose>("loose", &deep_objects).0);
    let ok_objects = format!("{}1{}", r#"{"payload":"#.repeat(127), "}".repeat(127));
    assert!(agree::<fixtures::Loose>("loose", &ok_objects).0);
}

#[test]
fn edge_cases_named_in_the_issue() {
    use fixtures::{ConvertUnits, Escapes, Numbers, ReadFile};
    // 1e400 is a syntax error, not a violation.
    assert_eq!(agree::<Numbers>("numbers", r#"{"f": 1e400}"#), (false, false));
    // u64::MAX + 1 is a float in serde_json: still an integer for JSON Schema, and above the max.
    assert_eq!(agree::<Numbers>("numbers", r#"{"i": 18446744073709551616}"#), (true, false));
    assert_eq!(agree::<Numbers>("numbers", r#"{"i": -0}"#), (true, true));
    assert_eq!(agree::<ReadFile>("read_file", r#"{"path": "p", "max_lines": 1.0}"#), (true, true));
    assert_eq!(agree::<ReadFile>("read_file", r#"{"path": "p", "max_lines": 1.5}"#), (true, false));
    // "\u00e9" and "é" are the same property name and the same enum value.
    assert_eq!(agree::<Escapes>("escapes", r#"{"\u00e9": "\u00e9"}"#), (true, true));
    assert_eq!(agree::<Escapes>("escapes", r#"{"é": "\u00e9", "\u00e9": "é"}"#), (false, false));
    // Surrogate pairs count as one code point; lone surrogates are not JSON.
    assert_eq!(agree::<Escapes>("escapes", r#"{"~x": "\ud83d\ude00\ud83d\ude00"}"#), (true, true));
    assert_eq!(agree::<Escapes>("escapes", r#"{"~x": "\ud83d\ude00"}"#), (true, false));
    assert_eq!(agree::<Escapes>("escapes", r#"{"~x": "\ude00\ud83d"}"#), (false, false));
    // Duplicate keys anywhere, even where nothing else is checked.
    assert_eq!(agree::<ConvertUnits>("convert_units", r#"{"value": 1, "value": 1}"#), (false, false));
    assert_eq!(agree::<fixtures::Loose>("loose", r#"{"payload": [{"k": 1, "\u006b": 2}]}"#), (false, false));
}

#[test]
fn pointers_and_kinds_from_text() {
    let mut all = Collect::default();
    let text = r#"{"path": "", "max_lines": "42", "options": {"follow_symlinks": 1, "encoding": "ascii"}, "b~/x": 1}"#;
    assert!(fixtures::ReadFile::check_json(text, &mut all).is_ok());
    let got: Vec<(String, &str)> = all.0.iter().map(|v| (v.pointer.clone(), v.keyword())).collect();
    let want = [
        ("/path", "minLength"),
        ("/max_lines", "type"),
        ("/options/follow_symlinks", "type"),
        ("/options/encoding", "enum"),
        ("/b~0~1x", "additionalProperties"),
    ];
    let want: Vec<(String, &str)> = want.iter().map(|(p, k)| ((*p).to_owned(), *k)).collect();
    assert_eq!(got, want);
    let value: Value = serde_json::from_str(text).unwrap_or_default();
    assert_eq!(fixtures::ReadFile::validate(&value).err().map(|v| v.len()), Some(5));
}

toolgate::tool_schema! {
    /// Keywords the text path does not compile yet: it falls back to parse + the `&Value`
    /// validator, and must still agree on every path.
    pub struct Fallback = {
        "type": "object",
        "properties": {
            "id": {"anyOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "integer", "minimum": 3}]},
            "tags": {"type": "array", "contains": {"const": "x"}}
        },
        "required": ["id"]
    };
}

#[test]
fn schemas_beyond_the_text_compiler_still_agree() {
    for t in [
        r#"{"id": "abc"}"#,
        r#"{"id": 3, "tags": ["y", "x"]}"#,
        r#"{"id": "ABC"}"#,
        r#"{"id": 2}"#,
        r#"{"id": "abc", "tags": ["y"]}"#,
        r#"{"tags": ["x"]}"#,
        r#"{"id": "abc", "id": "abd"}"#,
        r#"{"id": 1e400}"#,
        "[]",
    ]
    .iter()
    .chain(MALFORMED)
    {
        agree::<Fallback>("fallback", t);
    }
}
