//! The typed mapping: what Rust type each schema shape becomes, and that the struct round-trips.

use std::collections::BTreeMap;

use serde_json::{json, Number, Value};
use toolgate::{tool_schema, Tool};

tool_schema! {
    /// Read a file.
    pub struct ReadFile = {
        "type": "object",
        "description": "ignored: the doc comment wins",
        "properties": {
            "path": {"type": "string", "description": "Path of the file."},
            "max_lines": {"type": "integer", "minimum": 1, "maximum": 10000},
            "offset": {"type": "integer"},
            "huge": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            "ratio": {"type": "number"},
            "options": {
                "type": "object",
                "properties": {
                    "follow_symlinks": {"type": "boolean"},
                    "encoding": {"enum": ["utf-8", "latin-1"]}
                },
                "required": ["follow_symlinks"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": ["string", "null"]},
            "type": {"type": "string"},
            "fromUnit": {"type": "string"},
            "anything": {},
            "nothing": {"type": "null"},
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
            "level": {"enum": ["low", "high", null]}
        },
        "required": ["path", "note"],
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 9}
    };
}

tool_schema! {
    #[tool(name = "pick-one")]
    pub struct Pick = {"description": "Pick a colour.", "enum": ["red", "green", "light blue", "2nd"]};
}

tool_schema! {
    pub struct Count = {"type": "integer", "minimum": 0, "maximum": 10};
}

#[test]
fn fields_have_the_mapped_types() {
    let v = json!({
        "path": "/etc/hosts", "max_lines": 10, "offset": -5, "huge": 18_446_744_073_709_551_615_u64,
        "ratio": 0.5, "options": {"follow_symlinks": true, "encoding": "utf-8"}, "tags": ["a", "b"],
        "note": null, "type": "t", "fromUnit": "km", "anything": [1, {"x": 2}], "nothing": null,
        "env": {"HOME": "/root"}, "level": "high", "x-extra": 3
    });
    let r = ReadFile::from_value(&v).expect("valid");
    let path: &String = &r.path;
    let max_lines: Option<i64> = r.max_lines;
    let offset: Option<&Number> = r.offset.as_ref();
    let huge: Option<u64> = r.huge;
    let ratio: Option<f64> = r.ratio;
    let options: &ReadFileOptions = r.options.as_ref().expect("present");
    let follow: bool = options.follow_symlinks;
    let encoding: Option<ReadFileOptionsEncoding> = options.encoding;
    let tags: Option<&Vec<String>> = r.tags.as_ref();
    let note: &Option<String> = &r.note;
    let ty: Option<&String> = r.r#type.as_ref();
    let from_unit: Option<&String> = r.from_unit.as_ref();
    let anything: Option<&Value> = r.anything.as_ref();
    let nothing: Option<()> = r.nothing;
    let env: Option<&BTreeMap<String, String>> = r.env.as_ref();
    let level: Option<ReadFileLevel> = r.level;
    let extra: &BTreeMap<String, i64> = &r.extra;

    assert_eq!(path, "/etc/hosts");
    assert_eq!(max_lines, Some(10));
    assert_eq!(offset.and_then(Number::as_i64), Some(-5));
    assert_eq!(huge, Some(u64::MAX));
    assert_eq!(ratio, Some(0.5));
    assert!(follow);
    assert_eq!(encoding, Some(ReadFileOptionsEncoding::Utf8));
    assert_eq!(encoding.map(|e| e.as_str()), Some("utf-8"));
    assert_eq!(ReadFileOptionsEncoding::Latin1.to_string(), "latin-1");
    assert_eq!(tags.map(Vec::len), Some(2));
    assert_eq!(note, &None);
    assert_eq!(ty.map(String::as_str), Some("t"));
    assert_eq!(from_unit.map(String::as_str), Some("km"));
    assert_eq!(anything, Some(&json!([1, {"x": 2}])));
    assert_eq!(nothing, Some(()));
    assert_eq!(env.and_then(|e| e.get("HOME")).map(String::as_str), Some("/root"));
    assert_eq!(level, Some(ReadFileLevel::High));
    assert_eq!(extra.get("x-extra"), Some(&3));

    // Serialising gives back the same JSON value.
    let back = serde_json::to_value(&r).expect("serialize");
    assert!(toolgate::__private::json_eq(&back, &v), "{back} != {v}");
}

#[test]
fn names_and_descriptions() {
    assert_eq!(ReadFile::NAME, "read_file");
    assert_eq!(ReadFile::DESCRIPTION, "Read a file.");
    assert_eq!(Pick::NAME, "pick-one");
    assert_eq!(Pick::DESCRIPTION, "Pick a colour.");
    assert_eq!(Pick::SCHEMA, r#"{"description":"Pick a colour.","enum":["red","green","light blue","2nd"]}"#);
    assert_eq!(Pick::LightBlue.as_str(), "light blue");
    assert_eq!(Pick::V2nd.as_str(), "2nd");
    assert_eq!(Pick::from_json(r#""green""#).ok(), Some(Pick::Green));
}

#[test]
fn a_root_that_is_not_an_object_is_a_newtype() {
    assert_eq!(Count::from_json("7").ok(), Some(Count(7)));
    assert!(Count::from_json("11").is_err());
    assert_eq!(serde_json::to_string(&Count(3)).ok().as_deref(), Some("3"));
}

#[test]
fn deserialize_validates() {
    let ok: Result<Pick, _> = serde_json::from_str(r#""red""#);
    assert_eq!(ok.ok(), Some(Pick::Red));
    let bad: Result<Pick, _> = serde_json::from_str(r#""blue""#);
    let msg = bad.expect_err("invalid").to_string();
    assert!(msg.contains("expected one of"), "{msg}");
    let dup: Result<ReadFile, _> = serde_json::from_str(r#"{"path": "a", "path": "b", "note": null}"#);
    assert!(dup.expect_err("duplicate").to_string().contains("duplicate key"));
    let nested: Result<Vec<Count>, _> = serde_json::from_str("[1, 2, 30]");
    assert!(nested.is_err());
}

#[test]
fn optional_absent_and_null() {
    let r = ReadFile::from_value(&json!({"path": "p", "note": "n"})).expect("valid");
    assert_eq!(r.note.as_deref(), Some("n"));
    assert_eq!(r.max_lines, None);
    assert!(r.extra.is_empty());
    assert_eq!(serde_json::to_value(&r).ok(), Some(json!({"path": "p", "note": "n"})));
    // `note` is required even though it may be null.
    assert!(ReadFile::from_value(&json!({"path": "p"})).is_err());
}
