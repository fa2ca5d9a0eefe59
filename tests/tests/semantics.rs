//! The semantics DESIGN.md lists as musts, one test each.

use serde_json::{json, Value};
use toolgate::{tool_schema, Error, Tool, ViolationKind};

tool_schema! {
    pub struct Int = {"type": "integer"};
}
tool_schema! {
    pub struct Num = {"type": "number"};
}
tool_schema! {
    pub struct Len1 = {"type": "string", "minLength": 1, "maxLength": 1};
}
tool_schema! {
    pub struct OneEnum = {"enum": [1, {"a": [1, 2], "b": null}]};
}
tool_schema! {
    pub struct OneConst = {"const": 1};
}
tool_schema! {
    /// Numbers that are no integers inside arrays and objects of an `enum` (the constants their
    /// comparison reads are `'static`).
    pub struct FloatMembers = {"enum": [{"r": 1.5, "s": [0.1, {"t": -2.5e300}]}, [0.5]]};
}
tool_schema! {
    pub struct Unique = {"type": "array", "uniqueItems": true};
}
tool_schema! {
    pub struct Closed = {"type": "object", "additionalProperties": false};
}
tool_schema! {
    pub struct Nested = {
        "type": "object",
        "properties": {
            "options": {"type": "object", "properties": {"follow_symlinks": {"type": "boolean"}}},
            "tags": {"type": "array", "items": {"type": "string"}},
            "a/b~c": {"type": "integer"}
        }
    };
}
tool_schema! {
    pub struct Bounded = {"type": "number", "maximum": 1e308, "minimum": -1e308};
}

fn parse(s: &str) -> Value {
    toolgate::parse(s).expect("test input is JSON")
}

#[test]
fn one_point_zero_is_an_integer_and_one_point_five_is_not() {
    assert!(Int::is_valid(&parse("1.0")));
    assert!(Int::is_valid(&parse("-0")));
    assert!(Int::is_valid(&parse("1e2")));
    assert!(!Int::is_valid(&parse("1.5")));
    assert_eq!(Int::from_json("1.0").ok().map(|n| n.0.as_f64()), Some(Some(1.0)));
}

#[test]
fn booleans_and_strings_are_not_numbers() {
    for s in ["true", "false", "\"5\"", "null", "[]", "{}"] {
        assert!(!Num::is_valid(&parse(s)), "{s}");
        assert!(!Int::is_valid(&parse(s)), "{s}");
    }
}

#[test]
fn string_length_counts_code_points() {
    assert!(Len1::is_valid(&json!("💩")));
    assert!(Len1::is_valid(&json!("é")));
    assert!(!Len1::is_valid(&json!("e\u{301}")), "two code points");
    assert!(!Len1::is_valid(&json!("")));
}

#[test]
fn enum_const_and_unique_items_compare_json_values() {
    assert!(OneEnum::is_valid(&parse("1.0")));
    assert!(OneEnum::is_valid(&parse(r#"{"b": null, "a": [1.0, 2]}"#)));
    assert!(!OneEnum::is_valid(&parse(r#"{"a": [2, 1], "b": null}"#)));
    assert!(!OneEnum::is_valid(&parse("true")), "true is not 1");
    assert!(OneConst::is_valid(&parse("1.0")));
    assert!(!OneConst::is_valid(&parse("true")));
    assert!(!Unique::is_valid(&parse("[1, 1.0]")));
    assert!(!Unique::is_valid(&parse(r#"[{"a": 1, "b": 2}, {"b": 2, "a": 1}]"#)));
    assert!(Unique::is_valid(&parse("[1, true, \"1\", [1], {\"1\": 1}]")));
    assert!(Unique::is_valid(&parse("[0, false]")));
    for (text, ok) in [
        (r#"{"s": [0.10, {"t": -25e299}], "r": 1.50}"#, true),
        (r#"{"r": 1.5, "s": [0.1, {"t": -2.5e300, "u": 1}]}"#, false),
        (r#"{"r": 1.25, "s": [0.1, {"t": -2.5e300}]}"#, false),
        ("[5e-1]", true),
        ("[0.25]", false),
    ] {
        assert_eq!(FloatMembers::is_valid_json(text), ok, "{text}");
        assert_eq!(FloatMembers::is_valid(&parse(text)), ok, "{text}");
        assert_eq!(FloatMembers::stream().feed(text.as_bytes()).is_dead(), !ok, "{text}");
    }
}

#[test]
fn additional_properties_false_with_no_properties_accepts_only_the_empty_object() {
    assert!(Closed::is_valid(&json!({})));
    assert!(!Closed::is_valid(&json!({"a": 1})));
}

#[test]
fn nested_violations_carry_rfc6901_pointers() {
    let v = json!({"options": {"follow_symlinks": "yes"}, "tags": ["a", "b", 3], "a/b~c": "x"});
    let errs = Nested::validate(&v).expect_err("invalid");
    let pointers: Vec<&str> = errs.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(pointers, ["/options/follow_symlinks", "/tags/2", "/a~1b~0c"]);
    assert_eq!(
        errs.to_string(),
        "/options/follow_symlinks: expected boolean, found string \"yes\"\n\
         /tags/2: expected string, found number 3\n\
         /a~1b~0c: expected integer, found string \"x\""
    );
}

#[test]
fn big_numbers_do_not_panic_and_follow_the_spec() {
    assert!(Int::is_valid(&parse("18446744073709551616")), "2^64 is an integer");
    assert!(Int::is_valid(&parse("-9223372036854775809")));
    assert!(Int::is_valid(&parse("1e308")));
    assert!(Bounded::is_valid(&parse("1e308")));
    assert!(!Bounded::is_valid(&parse("1.7976931348623157e308")));
    assert!(Bounded::is_valid(&parse("-0")));
    assert!(matches!(Int::from_json("1e400"), Err(Error::Syntax { .. })), "beyond f64 is refused by the parser");
}

#[test]
fn nan_and_infinity_are_not_json() {
    for s in ["NaN", "Infinity", "-Infinity", "nan"] {
        assert!(matches!(Num::from_json(s), Err(Error::Syntax { .. })), "{s}");
        assert!(!Num::is_valid_json(s));
    }
}

#[test]
fn duplicate_keys_are_rejected() {
    let e = Nested::from_json(r#"{"tags": [], "tags": ["x"]}"#).expect_err("duplicate");
    assert!(matches!(&e, Error::Syntax { message, .. } if message.contains("duplicate key \"tags\"")), "{e}");
    assert!(!Nested::is_valid_json(r#"{"options": {"a": 1, "a": 1}}"#));
}

#[test]
fn trailing_text_is_rejected() {
    assert!(Num::from_json("1 2").is_err());
    assert!(Num::from_json("1").is_ok());
    assert!(Num::from_json(" 1 \n").is_ok());
}

#[test]
fn violation_kinds_carry_expected_and_found() {
    let errs = Nested::validate(&json!({"tags": [1]})).expect_err("invalid");
    let first = errs.iter().next().expect("one");
    assert_eq!(first.keyword(), "type");
    match &first.kind {
        ViolationKind::Type { expected, found } => {
            assert_eq!(expected.to_string(), "string");
            assert_eq!(found.to_string(), "number 1");
        }
        other => panic!("unexpected {other:?}"),
    }
}
