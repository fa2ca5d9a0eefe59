//! Every supported keyword, valid and invalid instances, at the root and in nested positions.

use serde_json::{json, Value};
use toolgate::{tool_schema, Tool, Violation};

/// Assert the verdict of `T` on each instance, on every path, and that invalid instances carry
/// at least one violation at the expected pointer with the expected keyword.
fn verdicts<T: Tool + std::fmt::Debug>(valid: &[Value], invalid: &[(Value, &str, &str)]) {
    for v in valid {
        assert!(T::is_valid(v), "{} should accept {v}", T::NAME);
        assert_eq!(T::validate(v), Ok(()), "{} should accept {v}", T::NAME);
        assert!(T::from_value(v).is_ok(), "{} should build from {v}", T::NAME);
        assert!(T::from_json(&v.to_string()).is_ok(), "{} should build from text {v}", T::NAME);
    }
    for (v, pointer, keyword) in invalid {
        assert!(!T::is_valid(v), "{} should reject {v}", T::NAME);
        let errs = T::validate(v).expect_err("invalid instance");
        assert!(
            errs.iter().any(|e: &Violation| e.pointer == *pointer && e.keyword() == *keyword),
            "{} on {v}: expected a `{keyword}` violation at `{pointer}`, got:\n{errs}",
            T::NAME
        );
        assert!(T::from_json(&v.to_string()).is_err());
    }
}

tool_schema! {
    pub struct Types = {
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "b": {"type": "boolean"},
            "z": {"type": "null"},
            "a": {"type": "array"},
            "o": {"type": "object"},
            "sn": {"type": ["string", "null"]},
            "multi": {"type": ["integer", "string", "boolean"]}
        }
    };
}

#[test]
fn type_keyword() {
    verdicts::<Types>(
        &[
            json!({}),
            json!({"s": "x", "i": 1, "n": 1.5, "b": true, "z": null, "a": [], "o": {}, "sn": null, "multi": false}),
            json!({"i": 1.0, "n": 2, "sn": "x", "multi": 3}),
        ],
        &[
            (json!({"s": 1}), "/s", "type"),
            (json!({"i": 1.5}), "/i", "type"),
            (json!({"i": "1"}), "/i", "type"),
            (json!({"n": "5"}), "/n", "type"),
            (json!({"n": true}), "/n", "type"),
            (json!({"b": 0}), "/b", "type"),
            (json!({"z": 0}), "/z", "type"),
            (json!({"a": {}}), "/a", "type"),
            (json!({"o": []}), "/o", "type"),
            (json!({"sn": 1}), "/sn", "type"),
            (json!({"multi": 1.5}), "/multi", "type"),
            (json!([]), "", "type"),
        ],
    );
}

tool_schema! {
    pub struct Enums = {
        "type": "object",
        "properties": {
            "unit": {"enum": ["m", "km"]},
            "mixed": {"enum": [1, "one", null, true, [1, 2], {"a": 1}]},
            "c": {"const": {"x": [1, "y"]}},
            "k": {"const": 2}
        }
    };
}

#[test]
fn enum_and_const() {
    verdicts::<Enums>(
        &[
            json!({"unit": "km", "mixed": 1.0, "c": {"x": [1.0, "y"]}, "k": 2.0}),
            json!({"mixed": "one"}),
            json!({"mixed": null}),
            json!({"mixed": true}),
            json!({"mixed": [1, 2.0]}),
            json!({"mixed": {"a": 1}}),
        ],
        &[
            (json!({"unit": "mi"}), "/unit", "enum"),
            (json!({"unit": "KM"}), "/unit", "enum"),
            (json!({"mixed": 2}), "/mixed", "enum"),
            (json!({"mixed": false}), "/mixed", "enum"),
            (json!({"mixed": [2, 1]}), "/mixed", "enum"),
            (json!({"mixed": {"a": 1, "b": 2}}), "/mixed", "enum"),
            (json!({"mixed": "1"}), "/mixed", "enum"),
            (json!({"c": {"x": [1, "y"], "z": 0}}), "/c", "const"),
            (json!({"c": {"x": ["y", 1]}}), "/c", "const"),
            (json!({"k": 2.5}), "/k", "const"),
            (json!({"k": "2"}), "/k", "const"),
        ],
    );
}

tool_schema! {
    pub struct Objects = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "options": {
                "type": "object",
                "properties": {"follow_symlinks": {"type": "boolean"}},
                "required": ["follow_symlinks"],
                "additionalProperties": false
            },
            "labels": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "minProperties": 1,
                "maxProperties": 2
            },
            "open": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "integer"}}
        },
        "required": ["name"],
        "additionalProperties": false
    };
}

#[test]
fn object_keywords() {
    verdicts::<Objects>(
        &[
            json!({"name": "x"}),
            json!({"name": "x", "options": {"follow_symlinks": true}}),
            json!({"name": "x", "labels": {"a": "1", "b": "2"}}),
            json!({"name": "x", "open": {"a": 1, "b": 2}}),
        ],
        &[
            (json!({}), "/name", "required"),
            (json!({"name": "x", "round": 2}), "/round", "additionalProperties"),
            (json!({"name": "x", "options": {}}), "/options/follow_symlinks", "required"),
            (json!({"name": "x", "options": {"follow_symlinks": "yes"}}), "/options/follow_symlinks", "type"),
            (json!({"name": "x", "options": {"follow_symlinks": true, "x": 1}}), "/options/x", "additionalProperties"),
            (json!({"name": "x", "labels": {}}), "/labels", "minProperties"),
            (json!({"name": "x", "labels": {"a": "1", "b": "2", "c": "3"}}), "/labels", "maxProperties"),
            (json!({"name": "x", "labels": {"a": 1}}), "/labels/a", "type"),
            (json!({"name": "x", "open": {"a": 1, "b": "2"}}), "/open/b", "type"),
            (json!({"name": "x", "open": {"a": "1"}}), "/open/a", "type"),
        ],
    );
}

tool_schema! {
    pub struct ClosedEmpty = {"additionalProperties": false};
}

#[test]
fn additional_properties_false_without_properties_accepts_only_empty_objects() {
    verdicts::<ClosedEmpty>(&[json!({}), json!(1), json!("x")], &[(json!({"a": 1}), "/a", "additionalProperties")]);
}

tool_schema! {
    pub struct Arrays = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 3, "uniqueItems": true},
            "any": {"type": "array", "uniqueItems": true},
            "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}
        }
    };
}

#[test]
fn array_keywords() {
    verdicts::<Arrays>(
        &[
            json!({"tags": ["a"]}),
            json!({"tags": ["a", "b", "c"]}),
            json!({"any": [1, "1", [1], {"a": 1}, {"a": 2}, true, null]}),
            json!({"matrix": [[1, 2], [], [3.0]]}),
        ],
        &[
            (json!({"tags": []}), "/tags", "minItems"),
            (json!({"tags": ["a", "b", "c", "d"]}), "/tags", "maxItems"),
            (json!({"tags": ["a", "a"]}), "/tags", "uniqueItems"),
            (json!({"tags": ["a", ""]}), "/tags/1", "minLength"),
            (json!({"tags": ["a", 2]}), "/tags/1", "type"),
            (json!({"any": [1, 1.0]}), "/any", "uniqueItems"),
            (json!({"any": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]}), "/any", "uniqueItems"),
            (json!({"matrix": [[1], [2, 2.5]]}), "/matrix/1/1", "type"),
        ],
    );
}

tool_schema! {
    pub struct Strings = {
        "type": "object",
        "properties": {
            "short": {"type": "string", "maxLength": 2},
            "long": {"type": "string", "minLength": 2}
        }
    };
}

#[test]
fn string_lengths_count_code_points() {
    verdicts::<Strings>(
        &[json!({"short": "💩💩", "long": "éé"}), json!({"short": "", "long": "ab"})],
        &[
            (json!({"short": "abc"}), "/short", "maxLength"),
            (json!({"short": "💩💩💩"}), "/short", "maxLength"),
            (json!({"long": "💩"}), "/long", "minLength"),
        ],
    );
}

tool_schema! {
    pub struct Codes = {
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
            "accent": {"type": "string", "pattern": "^é[a-f0-9]{2}$"},
            "prefix": {"type": "string", "pattern": "^[A-Z]{3}"}
        }
    };
}

#[test]
fn patterns_of_one_length_and_byte_sets() {
    // Checked byte by byte with a slice pattern on text without escapes, by the DFA on text
    // with them (and on a parsed value): every path agrees.
    verdicts::<Codes>(
        &[json!({"sku": "ABC-1234", "accent": "éa9", "prefix": "ABCdef"}), json!({"accent": "é00"})],
        &[
            (json!({"sku": "ABC-123"}), "/sku", "pattern"),
            (json!({"sku": "ABC-12345"}), "/sku", "pattern"),
            (json!({"sku": "abc-1234"}), "/sku", "pattern"),
            (json!({"sku": "ABC_1234"}), "/sku", "pattern"),
            (json!({"sku": ""}), "/sku", "pattern"),
            (json!({"accent": "ea9"}), "/accent", "pattern"),
            (json!({"accent": "éa9 "}), "/accent", "pattern"),
            (json!({"prefix": "AB"}), "/prefix", "pattern"),
        ],
    );
    for (text, valid) in [
        (r#"{"sku": "\u0041BC-1234"}"#, true),
        (r#"{"sku": "ABC\u002d1234"}"#, true),
        (r#"{"sku": "ABC-123\u0034"}"#, true),
        (r#"{"sku": "ABC-123\u0041"}"#, false),
        (r#"{"accent": "\u00e9ff"}"#, true),
        (r#"{"accent": "\u00e8ff"}"#, false),
    ] {
        assert_eq!(Codes::is_valid_json(text), valid, "{text}");
        assert_eq!(Codes::from_json(text).is_ok(), valid, "{text}");
        let value: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(Codes::is_valid(&value), valid, "{text}");
    }
}

tool_schema! {
    pub struct Numbers = {
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
            "pct": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 100},
            "step": {"type": "number", "multipleOf": 0.01},
            "even": {"type": "integer", "multipleOf": 2},
            "big": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615}
        }
    };
}

#[test]
fn numeric_keywords() {
    verdicts::<Numbers>(
        &[
            json!({"value": 1_000_000, "pct": 0.5, "step": 0.07, "even": 4.0}),
            json!({"value": -1_000_000, "pct": 99.99, "step": 19.99, "even": -2}),
        ],
        &[
            (json!({"value": 1e9}), "/value", "maximum"),
            (json!({"value": -1_000_001}), "/value", "minimum"),
            (json!({"pct": 0}), "/pct", "exclusiveMinimum"),
            (json!({"pct": 100}), "/pct", "exclusiveMaximum"),
            (json!({"step": 0.001}), "/step", "multipleOf"),
            (json!({"even": 3}), "/even", "multipleOf"),
        ],
    );
}
