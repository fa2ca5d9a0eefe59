//! Hostile reply text, each case with its expected outcome, through every entry point that reads
//! text or values: `parse`/`parse_with`, `from_json`/`from_json_with`, `is_valid_json`,
//! `check_json`, and `validate`/`is_valid`/`from_value` where the text parses.
//!
//! The deep-nesting cases run on a thread with a 2 MiB stack (the default of spawned threads) to
//! prove that nesting is refused without recursing into it, and that the deepest accepted nesting
//! fits (parse, validation, typed build and drop).

#![allow(clippy::pedantic)]

use toolgate::{parse, parse_with, tool_schema, Collect, Error, LimitExceeded, Limits, Tool};

mod tools;

use tools::{ConvertUnits, Note};

tool_schema! {
    /// Anything at all: what the parser alone decides.
    pub struct Anything = {};
}

tool_schema! {
    /// Integers and numbers without bounds, and a bounded count.
    pub struct Numbers = {
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "count": {"type": "integer", "minimum": 0, "maximum": 100}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A tree of any depth: recursion through `$ref`.
    pub struct Tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
                },
                "additionalProperties": false
            }
        },
        "$ref": "#/$defs/node"
    };
}

/// What a text must give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Parses and is valid.
    Valid,
    /// Parses and violates the schema.
    Invalid,
    /// Not JSON as toolgate accepts it.
    Syntax,
    /// Nested deeper than the depth limit.
    TooDeep,
}

/// Check every entry point on `text` for tool `T`, and return the `from_json` error if any.
fn expect<T: Tool + std::fmt::Debug>(name: &str, text: &str, want: Expect) -> Option<Error> {
    let ctx = |what: &str| format!("{name}: {what} ({} bytes: {:?})", text.len(), preview(text));
    let parsed = parse(text);
    let from_json = T::from_json(text);
    let mut all = Collect::default();
    let checked = T::check_json(text, &mut all);
    let fast = T::is_valid_json(text);
    match want {
        Expect::Valid | Expect::Invalid => {
            let value = parsed.unwrap_or_else(|e| panic!("{}: {e}", ctx("parse")));
            let valid = want == Expect::Valid;
            assert_eq!(T::is_valid(&value), valid, "{}", ctx("is_valid"));
            assert_eq!(T::validate(&value).is_ok(), valid, "{}", ctx("validate"));
            assert_eq!(T::from_value(&value).is_ok(), valid, "{}", ctx("from_value"));
            assert_eq!(fast, valid, "{}", ctx("is_valid_json"));
            assert!(checked.is_ok(), "{}", ctx("check_json"));
            assert_eq!(all.0.is_empty(), valid, "{}", ctx("check_json(Collect)"));
            match (&from_json, valid) {
                (Ok(_), true) | (Err(Error::Invalid(_)), false) => {}
                (other, _) => panic!("{}: {other:?}", ctx("from_json")),
            }
            if let Err(Error::Invalid(v)) = &from_json {
                assert_eq!(Some(v), T::validate(&value).err().as_ref(), "{}", ctx("from_json vs validate"));
            }
        }
        Expect::Syntax => {
            let e = parsed.expect_err(&ctx("parse accepted"));
            assert!(matches!(e, Error::Syntax { .. }), "{}: {e:?}", ctx("parse"));
            assert!(!fast, "{}", ctx("is_valid_json accepted"));
            assert_eq!(checked.as_ref().err(), Some(&e), "{}", ctx("check_json"));
            assert!(all.0.is_empty(), "{}", ctx("violations for text that is not JSON"));
            assert_eq!(from_json.as_ref().err(), Some(&e), "{}", ctx("from_json"));
        }
        Expect::TooDeep => {
            let e = parsed.expect_err(&ctx("parse accepted"));
            assert!(
                matches!(e, Error::Limit(LimitExceeded::Depth { limit: Limits::MAX_DEPTH, .. })),
                "{}: {e:?}",
                ctx("parse")
            );
            assert!(e.to_string().starts_with("too deep: arrays and objects nest more than 127 levels deep"), "{e}");
            assert!(!fast, "{}", ctx("is_valid_json accepted"));
            assert_eq!(checked.as_ref().err(), Some(&e), "{}", ctx("check_json"));
            assert_eq!(from_json.as_ref().err(), Some(&e), "{}", ctx("from_json"));
        }
    }
    from_json.err()
}

fn preview(text: &str) -> String {
    text.chars().take(80).collect()
}

/// Run `f` on a thread with a 2 MiB stack; a stack overflow aborts the test binary.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .name("2MiB".into())
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the 2 MiB thread finished without a panic");
}

fn arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn objects(depth: usize) -> String {
    format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth))
}

/// A tree `levels` nodes deep: each node is an object and its `children` an array, so the text
/// nests `2 * levels - 1` levels.
fn tree(levels: usize) -> String {
    let mut s = String::from(r#"{"label": "leaf"}"#);
    for _ in 1..levels {
        s = format!(r#"{{"label": "n", "children": [{s}]}}"#);
    }
    s
}

#[test]
fn nesting_100_000_levels_is_refused_without_recursion() {
    on_small_stack(|| {
        for (what, text) in [
            ("arrays", arrays(100_000)),
            ("objects", objects(100_000)),
            ("unterminated", "[".repeat(100_000)),
            ("mixed", r#"[{"a":"#.repeat(50_000)),
        ] {
            for name in ["anything", "convert_units", "tree"] {
                // For `convert_units` the text path stops at the first array (schema-invalid);
                // the text is not JSON all the same, and that is the verdict.
                let e = match name {
                    "anything" => expect::<Anything>(what, &text, Expect::TooDeep),
                    "convert_units" => expect::<ConvertUnits>(what, &text, Expect::TooDeep),
                    _ => expect::<Tree>(what, &text, Expect::TooDeep),
                };
                let Some(Error::Limit(LimitExceeded::Depth { line, column, .. })) = e else { panic!("{what}: {e:?}") };
                assert_eq!(line, 1, "{what}");
                // The 128th opening bracket: `{"a":` is 5 bytes a level, `[{"a":` 6 bytes two levels.
                let at = match what {
                    "objects" => 127 * 5 + 1,
                    "mixed" => 63 * 6 + 2,
                    _ => 128,
                };
                assert_eq!(column, at, "{what}");
            }
            // Stricter limits refuse it as well, and name the limit.
            let err = Anything::from_json_with(&text, &Limits::DEFAULT.with_max_depth(5)).expect_err(what);
            assert!(matches!(err, Error::Limit(LimitExceeded::Depth { limit: 5, .. })), "{what}: {err:?}");
            let err = parse_with(&text, &Limits::DEFAULT.with_max_depth(0)).expect_err(what);
            assert!(err.to_string().starts_with("too deep: arrays and objects nest more than 0 levels deep"), "{err}");
        }
    });
}

#[test]
fn the_deepest_accepted_nesting_fits_a_2_mib_stack() {
    on_small_stack(|| {
        // 127 levels: accepted by every path (parse, text scan, validation, build, drop).
        expect::<Anything>("arrays 127", &arrays(127), Expect::Valid);
        expect::<Anything>("objects 127", &objects(127), Expect::Valid);
        expect::<Anything>("arrays 128", &arrays(128), Expect::TooDeep);
        expect::<Anything>("objects 128", &objects(128), Expect::TooDeep);
        // A recursive schema validated and built at the deepest level: 64 nodes are 127 levels.
        let deepest = tree(64);
        expect::<Tree>("tree 64", &deepest, Expect::Valid);
        let built = Tree::from_json(&deepest).expect("a tree 127 levels deep");
        let back = serde_json::to_value(&built).expect("serialise the tree");
        assert_eq!(Some(back), parse(&deepest).ok());
        expect::<Tree>("tree 65", &tree(65), Expect::TooDeep);
        // A violation at the bottom is found and located.
        let bad = deepest.replace(r#""leaf""#, "5");
        expect::<Tree>("tree 64, bad leaf", &bad, Expect::Invalid);
        let e = Tree::from_json(&bad).expect_err("invalid leaf");
        let pointer = &e.violations().expect("violations").as_slice()[0].pointer;
        assert_eq!(pointer.matches("/children/0").count(), 63, "{pointer}");
        assert!(pointer.ends_with("/label"), "{pointer}");
    });
}

#[test]
fn depth_limits_are_exact() {
    for depth in 0..=10 {
        let limits = Limits::DEFAULT.with_max_depth(depth);
        for d in 0..=12 {
            let text = if d == 0 { "1".to_owned() } else { arrays(d) };
            let got = Anything::from_json_with(&text, &limits);
            assert_eq!(got.is_ok(), d <= depth, "depth {d}, limit {depth}: {got:?}");
            assert_eq!(parse_with(&text, &limits).is_ok(), d <= depth, "depth {d}, limit {depth}");
            if d > depth {
                assert!(
                    matches!(got, Err(Error::Limit(LimitExceeded::Depth { limit, line: 1, column })) if limit == depth && column == depth + 1),
                    "depth {d}, limit {depth}: {got:?}"
                );
            }
        }
    }
    // Above the ceiling, the ceiling applies.
    let huge = Limits::DEFAULT.with_max_depth(usize::MAX);
    assert_eq!(huge.depth(), Limits::MAX_DEPTH);
    assert!(Anything::from_json_with(&arrays(127), &huge).is_ok());
    assert!(matches!(
        Anything::from_json_with(&arrays(128), &huge),
        Err(Error::Limit(LimitExceeded::Depth { limit: 127, .. }))
    ));
    // The limit applies to the text, even where the schema would refuse the value anyway.
    let limits = Limits::DEFAULT.with_max_depth(2);
    let e = ConvertUnits::from_json_with(r#"{"value": [[1]], "from_unit": "m", "to_unit": "m"}"#, &limits);
    assert!(matches!(e, Err(Error::Limit(LimitExceeded::Depth { limit: 2, .. }))), "{e:?}");
    let e = ConvertUnits::from_json_with(r#"{"value": [1], "from_unit": "m", "to_unit": "m"}"#, &limits);
    assert!(matches!(e, Err(Error::Invalid(_))), "{e:?}");
}

#[test]
fn byte_limits_are_exact() {
    let text = r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#;
    let n = text.len();
    assert!(ConvertUnits::from_json_with(text, &Limits::DEFAULT.with_max_bytes(n)).is_ok());
    let e = ConvertUnits::from_json_with(text, &Limits::DEFAULT.with_max_bytes(n - 1)).expect_err("one byte over");
    assert_eq!(e, Error::Limit(LimitExceeded::Bytes { limit: n - 1, found: n }));
    assert_eq!(e.to_string(), format!("too long: {n} bytes, the limit is {} bytes", n - 1));
    // Bytes, not characters: "é" is two.
    let text = r#"{"text": "é"}"#;
    assert_eq!(text.len(), 14);
    assert!(Note::from_json_with(text, &Limits::DEFAULT.with_max_bytes(14)).is_ok());
    assert!(Note::from_json_with(text, &Limits::DEFAULT.with_max_bytes(13)).is_err());
    // The byte limit is checked before anything is read: even text that is not JSON.
    let e = parse_with("{{{{{", &Limits::DEFAULT.with_max_bytes(4)).expect_err("too long");
    assert!(matches!(e, Error::Limit(LimitExceeded::Bytes { limit: 4, found: 5 })));
    // Both limits at once; the defaults are serde_json's.
    assert_eq!(Limits::default(), Limits::DEFAULT);
    assert_eq!(Limits::DEFAULT, Limits { max_bytes: usize::MAX, max_depth: 127 });
}

#[test]
fn a_10_mb_string() {
    let big = "x".repeat(10 << 20);
    let text = format!(r#"{{"text": "{big}"}}"#);
    expect::<Anything>("10 MB string", &text, Expect::Valid);
    let e = expect::<Note>("10 MB string", &text, Expect::Invalid).expect("too long for maxLength");
    // The report names the limit and shows a short prefix, never the 10 MB.
    let message = e.to_string();
    assert!(message.starts_with("/text: "), "{}", preview(&message));
    assert!(message.contains("1000"), "{}", preview(&message));
    assert!(message.len() < 200, "{} bytes", message.len());
    // As the whole instance, and escaped (every character an escape).
    expect::<Anything>("10 MB bare string", &format!("\"{big}\""), Expect::Valid);
    let escaped = format!(r#"{{"text": "{}"}}"#, r"\u0078".repeat(1 << 20));
    expect::<Note>("1 Mi escapes", &escaped, Expect::Invalid);
    // Unterminated: syntax.
    expect::<Note>("10 MB unterminated", &format!(r#"{{"text": "{big}"#), Expect::Syntax);
    // Byte limit: refused before it is read.
    let e = Note::from_json_with(&text, &Limits::DEFAULT.with_max_bytes(1 << 20)).expect_err("over 1 MiB");
    assert!(matches!(e, Error::Limit(LimitExceeded::Bytes { limit: 1_048_576, .. })));
}

fn many_keys(n: usize) -> String {
    let mut t = String::with_capacity(n * 12);
    t.push('{');
    for i in 0..n {
        if i > 0 {
            t.push(',');
        }
        t.push_str(&format!("\"k{i}\":{i}"));
    }
    t.push('}');
    t
}

#[test]
fn one_hundred_thousand_keys() {
    let text = many_keys(100_000);
    expect::<Anything>("100,000 keys", &text, Expect::Valid);
    // Every undeclared member is reported, and the three required ones.
    let e = expect::<ConvertUnits>("100,000 keys", &text, Expect::Invalid).expect("invalid");
    assert_eq!(e.violations().map(|v| v.len()), Some(100_003));
    // A duplicate anywhere among them is refused, by the text scanner and by the parser, and so
    // is one spelled with an escape.
    for dup in [r#","k99999":0}"#, r#","k0":0}"#, r#","k5\u0030000":0}"#] {
        let t = format!("{}{dup}", &text[..text.len() - 1]);
        let e = expect::<Anything>("100,000 keys + duplicate", &t, Expect::Syntax).expect("syntax");
        assert!(e.to_string().contains("duplicate key"), "{e}");
        expect::<ConvertUnits>("100,000 keys + duplicate", &t, Expect::Syntax);
    }
    // Objects just around the size where the scanner changes strategy.
    for n in [63, 64, 65, 66, 200] {
        let t = many_keys(n);
        expect::<Anything>("keys", &t, Expect::Valid);
        let last = format!("\"k{}\"", n - 1);
        for k in ["\"k0\"", last.as_str()] {
            let dup = format!("{},{k}:1}}", &t[..t.len() - 1]);
            expect::<Anything>("keys + duplicate", &dup, Expect::Syntax);
            expect::<ConvertUnits>("keys + duplicate", &dup, Expect::Syntax);
        }
    }
}

#[test]
fn duplicate_keys_are_refused_everywhere() {
    for text in [
        r#"{"value": 1, "value": "x"}"#,
        r#"{"value": 5, "from_unit": "km", "to_unit": "m", "value": 6}"#,
        r#"{"value": 5, "from_unit": "km", "to_unit": "m", "\u0076alue": 6}"#,
        r#"{"value": 5, "from_unit": "km", "from_unit": "km", "to_unit": "m"}"#,
        r#"{"value": {"a": 1, "a": 1}, "from_unit": "km", "to_unit": "m"}"#,
        r#"{"x": [{"a": 1, "a": 2}]}"#,
    ] {
        let e = expect::<ConvertUnits>("duplicate", text, Expect::Syntax).expect("syntax");
        assert!(e.to_string().contains("duplicate key"), "{e}");
        expect::<Anything>("duplicate", text, Expect::Syntax);
        expect::<Tree>("duplicate", text, Expect::Syntax);
    }
}

#[test]
fn not_numbers() {
    for text in [
        "NaN",
        "Infinity",
        "-Infinity",
        "+1",
        "0x10",
        r#"{"value": NaN, "from_unit": "m", "to_unit": "m"}"#,
        r#"{"value": Infinity, "from_unit": "m", "to_unit": "m"}"#,
        r#"{"value": -Infinity, "from_unit": "m", "to_unit": "m"}"#,
        r#"{"value": nan, "from_unit": "m", "to_unit": "m"}"#,
        r#"{"value": 1e400, "from_unit": "m", "to_unit": "m"}"#,
        r#"{"value": -1e400, "from_unit": "m", "to_unit": "m"}"#,
    ] {
        expect::<ConvertUnits>("not a number", text, Expect::Syntax);
        expect::<Anything>("not a number", text, Expect::Syntax);
    }
}

#[test]
fn surrogates_bom_and_trailing_text() {
    for text in [
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\udc00\ud800""#,
        r#""\ude00\ud83d""#,
        r#""\ud83d\u0041""#,
        r#""\ud83d""#,
        r#""x\ud83d y""#,
        r#"{"\ud800": 1}"#,
        r#"{"text": "\ud83d"}"#,
        "\u{feff}{}",
        "\u{feff}{\"text\": \"a\"}",
        "{\"text\": \"a\"}\u{feff}",
        r#"{"text": "a"} x"#,
        r#"{"text": "a"}{"text": "b"}"#,
        r#"{"text": "a"},"#,
        "{\"text\": \"a\"}\n// a comment",
        "{\"text\": \"a\"}\u{0}",
        "",
        "   ",
    ] {
        expect::<Note>("surrogate/BOM/trailing", text, Expect::Syntax);
        expect::<Anything>("surrogate/BOM/trailing", text, Expect::Syntax);
    }
    // A proper pair is one character; whitespace around the value is fine.
    expect::<Note>("pair", r#"{"text": "\ud83d\ude00"}"#, Expect::Valid);
    expect::<Note>("pair", " \n\t{\"text\": \"\\ud83d\\ude00\"}\r\n ", Expect::Valid);
    let n = Note::from_json(r#"{"text": "\ud83d\ude00"}"#).expect("valid");
    assert_eq!(n.text, "😀");
}

#[test]
fn numbers_at_the_edges() {
    // -0 is a number and an integer.
    expect::<Numbers>("-0", r#"{"i": -0, "n": -0, "count": -0}"#, Expect::Valid);
    let n = Numbers::from_json(r#"{"count": -0}"#).expect("valid");
    assert_eq!(n.count, Some(0));
    // Integers written with `.0` are integers, and build.
    expect::<Numbers>(".0", r#"{"i": 1.0, "count": 5.0}"#, Expect::Valid);
    assert_eq!(Numbers::from_json(r#"{"count": 5.0}"#).expect("valid").count, Some(5));
    expect::<Numbers>("1.5", r#"{"i": 1.5}"#, Expect::Invalid);
    expect::<Numbers>("100.5", r#"{"count": 100.5}"#, Expect::Invalid);
    // 2^64: beyond u64 and i64, still an integer for JSON Schema; no panic, no wrap-around.
    expect::<Numbers>("2^64", r#"{"i": 18446744073709551616, "n": 18446744073709551616}"#, Expect::Valid);
    expect::<Numbers>("2^64 count", r#"{"count": 18446744073709551616}"#, Expect::Invalid);
    expect::<Numbers>("-2^64 count", r#"{"count": -18446744073709551616}"#, Expect::Invalid);
    let big = Numbers::from_json(r#"{"i": 18446744073709551616}"#).expect("valid");
    assert_eq!(big.i.map(|n| n.to_string()), Some("1.8446744073709552e+19".to_owned()));
    // 1e400 is beyond f64: not JSON for toolgate (serde_json refuses it too).
    expect::<Numbers>("1e400", r#"{"n": 1e400}"#, Expect::Syntax);
    // 0.1e-400 underflows to 0: a number, an integer, and 0.
    expect::<Numbers>("0.1e-400", r#"{"i": 0.1e-400, "n": 0.1e-400, "count": 0.1e-400}"#, Expect::Valid);
    assert_eq!(Numbers::from_json(r#"{"count": 0.1e-400}"#).expect("valid").count, Some(0));
    // Huge exponents and long mantissas.
    expect::<Numbers>("long", &format!(r#"{{"n": 0.{}1}}"#, "0".repeat(10_000)), Expect::Valid);
    expect::<Numbers>("long int", &format!(r#"{{"i": 1{}}}"#, "0".repeat(300)), Expect::Valid);
    expect::<Numbers>("too long int", &format!(r#"{{"i": 1{}}}"#, "0".repeat(309)), Expect::Syntax);
    expect::<Numbers>("exp", r#"{"n": 1e-99999999999999999999}"#, Expect::Valid);
    expect::<Numbers>("exp", r#"{"n": 1e99999999999999999999}"#, Expect::Syntax);
    expect::<Numbers>("exp", r#"{"n": 0e99999999999999999999}"#, Expect::Valid);
}

#[test]
fn wrong_types_where_text_is_expected() {
    // An object (or array, number, null) where a string is expected: a violation at its place.
    for (text, found) in [
        (r#"{"text": {"a": 1}}"#, "object"),
        (r#"{"text": ["a"]}"#, "array"),
        (r#"{"text": 1}"#, "number"),
        (r#"{"text": null}"#, "null"),
        // JSON inside the string is only a string.
        (r#"{"text": "{\"a\": 1}"}"#, ""),
    ] {
        if found.is_empty() {
            expect::<Note>("string holding JSON", text, Expect::Valid);
            assert_eq!(Note::from_json(text).expect("valid").text, r#"{"a": 1}"#);
            continue;
        }
        let e = expect::<Note>("wrong type", text, Expect::Invalid).expect("invalid");
        assert!(e.to_string().starts_with(&format!("/text: expected string, found {found}")), "{e}");
    }
    // A string holding JSON where the arguments object is expected: a string, not decoded again.
    let text = r#""{\"value\": 5, \"from_unit\": \"km\", \"to_unit\": \"m\"}""#;
    let e = expect::<ConvertUnits>("double-encoded", text, Expect::Invalid).expect("invalid");
    assert!(e.to_string().starts_with("(root): expected object, found string"), "{e}");
}

tool_schema! {
    /// Distinct items.
    pub struct Distinct = {"type": "array", "uniqueItems": true};
}

#[test]
fn unique_items_among_100_000_values() {
    // Both validators hash the items beyond a few dozen (pairwise comparison would be 5 billion
    // calls): every path, from text and from the parsed value.
    let text = format!("[{}]", (0..100_000).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
    expect::<Distinct>("100,000 distinct", &text, Expect::Valid);
    let dup = format!("{},99999.0,1]", &text[..text.len() - 1]);
    let e = expect::<Distinct>("100,000 + a twin", &dup, Expect::Invalid).expect("a duplicate");
    let v = &e.violations().expect("violations").as_slice()[0];
    assert_eq!(v.pointer, "");
    assert!(v.to_string().contains("99999") && v.to_string().contains("100000"), "{v}");
}
