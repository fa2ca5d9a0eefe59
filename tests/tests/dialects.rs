//! Dialects other than draft 2020-12: draft-07, draft-06, draft-04 (declared by `$schema`) and
//! OpenAPI 3.0 Schema Objects (chosen with `#[tool(dialect = "openapi-3.0")]`), `definitions` in
//! a 2020-12 document, and keys declared annotations with `#[tool(annotations = [...])]`.
//!
//! Every schema is checked on every entry point: the value path (with its violations), the text
//! path, the typed value, and the streaming automaton fed a byte at a time.

use serde_json::{json, Value};
use toolgate::{tool_schema, Progress, Tool};

/// `valid` pass and `invalid` fail with `keyword` at `pointer`, on every entry point.
fn check<T: Tool>(valid: &[Value], invalid: &[(Value, &str, &str)]) {
    for v in valid {
        let text = v.to_string();
        assert!(T::is_valid(v), "{} should accept {v}: {:?}", T::NAME, T::validate(v));
        assert!(T::is_valid_json(&text), "{} should accept the text {text}", T::NAME);
        assert!(T::from_json(&text).is_ok(), "{} should build from {text}", T::NAME);
        assert!(streamed::<T>(&text), "{} streaming should accept {text}", T::NAME);
    }
    for (v, pointer, keyword) in invalid {
        let text = v.to_string();
        assert!(!T::is_valid(v), "{} should reject {v}", T::NAME);
        assert!(!T::is_valid_json(&text), "{} should reject the text {text}", T::NAME);
        assert!(!streamed::<T>(&text), "{} streaming should reject {text}", T::NAME);
        let errs = T::validate(v).expect_err("invalid");
        assert!(
            errs.iter().any(|e| e.pointer == *pointer && e.keyword() == *keyword),
            "{} on {v}: expected `{keyword}` at `{pointer}`, got:\n{errs}",
            T::NAME
        );
    }
}

/// The stream's verdict on `text` fed a byte at a time: alive to the end and finishing cleanly.
fn streamed<T: Tool>(text: &str) -> bool {
    let mut s = T::stream();
    for b in text.as_bytes() {
        if let Progress::Dead(_) = s.feed(std::slice::from_ref(b)) {
            return false;
        }
    }
    s.finish().is_ok()
}

tool_schema! {
    /// Draft-04: boolean exclusive bounds, `id`, tuple `items`, `dependencies`, `$ref` overriding.
    pub struct Thermostat = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "https://example.com/thermostat.json",
        "definitions": {"celsius": {"type": "number", "minimum": -273.15, "exclusiveMinimum": true}},
        "type": "object",
        "properties": {
            "target": {"$ref": "#/definitions/celsius", "maximum": 0},
            "limit": {"type": "integer", "maximum": 10, "exclusiveMaximum": true},
            "range": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
            "mode": {"enum": ["heat", "cool"]}
        },
        "required": ["target"],
        "additionalProperties": false,
        "dependencies": {"range": ["mode"]}
    };
}

#[test]
fn draft04_meanings() {
    check::<Thermostat>(
        &[
            // `maximum: 0` beside `$ref` is ignored; -273 is above the exclusive minimum.
            json!({"target": 21.5, "limit": 9}),
            json!({"target": -273, "range": [1, 2], "mode": "heat"}),
        ],
        &[
            (json!({"target": -273.15}), "/target", "exclusiveMinimum"),
            (json!({"target": 20, "limit": 10}), "/limit", "exclusiveMaximum"),
            (json!({"target": 20, "range": [1, 2, 3], "mode": "cool"}), "/range/2", "false"),
            (json!({"target": 20, "range": [1]}), "/mode", "dependentRequired"),
            (json!({"target": 20, "extra": 1}), "/extra", "additionalProperties"),
        ],
    );
    let t = Thermostat::from_json(r#"{"target": 19, "mode": "cool"}"#).expect("valid");
    assert_eq!(t.mode, Some(ThermostatMode::Cool));
}

tool_schema! {
    /// Draft-06: numeric exclusive bounds, `const`, `contains`, `propertyNames`, boolean schemas.
    pub struct Labels = {
        "$schema": "http://json-schema.org/draft-06/schema#",
        "type": "object",
        "properties": {
            "kind": {"const": "labels"},
            "names": {"type": "array", "contains": {"const": "main"}},
            "weight": {"type": "number", "exclusiveMinimum": 0},
            "anything": true
        },
        "propertyNames": {"maxLength": 8}
    };
}

#[test]
fn draft06_meanings() {
    check::<Labels>(
        &[json!({"kind": "labels", "names": ["x", "main"], "weight": 0.5, "anything": [1]})],
        &[
            (json!({"kind": "label"}), "/kind", "const"),
            (json!({"names": ["x"]}), "/names", "contains"),
            (json!({"weight": 0}), "/weight", "exclusiveMinimum"),
            (json!({"much-too-long": 1}), "/much-too-long", "propertyNames"),
        ],
    );
}

tool_schema! {
    /// Draft-07: a `$ref` beside an `$id` ignores the `$id`, so the reference is resolved against
    /// the document's base (the suite's "$ref prevents a sibling $id from changing the base uri").
    pub struct SiblingId = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "http://example.com/root.json",
        "definitions": {
            "a": {"$id": "http://example.com/sub/a.json", "type": "string"},
            "b": {"$id": "http://example.com/b.json", "type": "integer"}
        },
        "type": "object",
        "properties": {
            "x": {"$id": "http://example.com/sub/", "$ref": "b.json"}
        }
    };
}

#[test]
fn draft07_ref_ignores_a_sibling_id() {
    // With the sibling `$id` applied, `b.json` would be `sub/b.json`, which does not exist here;
    // ignored, it is `http://example.com/b.json`: an integer.
    check::<SiblingId>(&[json!({"x": 1})], &[(json!({"x": "one"}), "/x", "type")]);
}

tool_schema! {
    /// OpenAPI 3.0: `nullable`, the boolean exclusive bounds, annotations of its own.
    #[tool(dialect = "openapi-3.0")]
    pub struct CreatePet = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "example": "Rex", "maxLength": 20},
            "nickname": {"type": "string", "nullable": true},
            "age": {"type": "integer", "minimum": 0, "exclusiveMinimum": true, "nullable": true},
            "colour": {"type": "string", "nullable": true, "enum": ["black", "white"]},
            "owner": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "xml": {"name": "owner"},
                "externalDocs": {"url": "https://example.com/owners"}
            }
        },
        "discriminator": {"propertyName": "name"},
        "additionalProperties": false
    };
}

#[test]
fn openapi_nullable_and_bounds() {
    check::<CreatePet>(
        &[json!({"name": "Rex", "nickname": null, "age": null}), json!({"name": "Rex", "age": 1, "colour": "black"})],
        &[
            (json!({"name": null}), "/name", "type"),
            (json!({"name": "Rex", "age": 0}), "/age", "exclusiveMinimum"),
            // `nullable` adds null to `type`; the `enum` beside it still refuses it (OpenAPI 3.0.3).
            (json!({"name": "Rex", "colour": null}), "/colour", "enum"),
            (json!({"name": "Rex", "owner": {"id": "7"}}), "/owner/id", "type"),
        ],
    );
    let p = CreatePet::from_json(r#"{"name": "Rex", "nickname": null, "age": 3}"#).expect("valid");
    let nickname: Option<String> = p.nickname;
    let age: Option<serde_json::Number> = p.age;
    assert_eq!((nickname, age.and_then(|n| n.as_u64())), (None, Some(3)));
    // The advertised schema is the one written, OpenAPI keywords and all.
    let schema: Value = serde_json::from_str(CreatePet::SCHEMA).expect("json");
    assert_eq!(schema["properties"]["nickname"]["nullable"], json!(true));
}

tool_schema! {
    /// Draft 2020-12 with `definitions` (what generators write without `$schema`): a container
    /// of schemas reachable by pointer, asserting nothing itself.
    pub struct WithDefinitions = {
        "type": "object",
        "definitions": {"id": {"type": "string", "pattern": "^[a-z]+-[0-9]+$"}},
        "properties": {"ids": {"type": "array", "items": {"$ref": "#/definitions/id"}}}
    };
}

#[test]
fn definitions_in_2020_12() {
    check::<WithDefinitions>(&[json!({"ids": ["ab-1"]})], &[(json!({"ids": ["ab-1", "AB"]}), "/ids/1", "pattern")]);
}

tool_schema! {
    /// Vendor annotations kept by name; everything else is still refused.
    #[tool(annotations = ["markdownDescription", "propertyOrder"])]
    pub struct Search = {
        "type": "object",
        "markdownDescription": "Search the **index**.",
        "properties": {
            "query": {"type": "string", "minLength": 1, "propertyOrder": 1, "markdownDescription": "Words."}
        },
        "required": ["query"]
    };
}

#[test]
fn declared_annotations_are_kept_and_assert_nothing() {
    check::<Search>(&[json!({"query": "rust"})], &[(json!({"query": ""}), "/query", "minLength")]);
    let schema: Value = serde_json::from_str(Search::SCHEMA).expect("json");
    assert_eq!(schema["markdownDescription"], json!("Search the **index**."));
}

tool_schema! {
    /// Pydantic's discriminated union, as FastMCP advertises it: draft 2020-12 with OpenAPI's
    /// `discriminator` beside the `oneOf`, kept as an annotation by name (it is not a keyword
    /// of draft 2020-12; the `const` tags tell the branches apart on their own).
    #[tool(annotations = ["discriminator"])]
    pub struct Draw = {
        "$defs": {
            "Circle": {
                "properties": {"kind": {"const": "circle", "title": "Kind", "type": "string"}, "r": {"type": "number", "exclusiveMinimum": 0}},
                "required": ["kind", "r"], "title": "Circle", "type": "object"
            },
            "Square": {
                "properties": {"kind": {"const": "square", "title": "Kind", "type": "string"}, "side": {"type": "number"}},
                "required": ["kind", "side"], "title": "Square", "type": "object"
            }
        },
        "properties": {
            "shape": {
                "discriminator": {"mapping": {"circle": "#/$defs/Circle", "square": "#/$defs/Square"}, "propertyName": "kind"},
                "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
                "title": "Shape"
            },
            "label": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Label"}
        },
        "required": ["shape"], "title": "drawArguments", "type": "object"
    };
}

#[test]
fn an_openapi_discriminator_beside_2020_12_is_kept_by_name() {
    check::<Draw>(
        &[json!({"shape": {"kind": "circle", "r": 1}}), json!({"shape": {"kind": "square", "side": 2}, "label": null})],
        &[
            (json!({"shape": {"kind": "circle", "r": 0}}), "/shape", "oneOf"),
            (json!({"shape": {"kind": "triangle", "side": 2}}), "/shape", "oneOf"),
            (json!({"shape": {"kind": "square", "side": 2}, "label": 3}), "/label", "anyOf"),
        ],
    );
    let schema: Value = serde_json::from_str(Draw::SCHEMA).expect("json");
    assert_eq!(schema["properties"]["shape"]["discriminator"]["propertyName"], json!("kind"));
}
