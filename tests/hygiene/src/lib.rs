//! Generated code must compile cleanly in a crate that renames `toolgate`, shadows prelude names,
//! and denies warnings, missing docs and `clippy::pedantic`.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]
#![allow(dead_code)]

/// Shadows `core::result::Result`.
pub struct Result;
/// Shadows `core::option::Option`.
pub struct Option;
/// Shadows `Some`.
pub struct Some;
/// Shadows `None`.
pub struct None;
/// Shadows `Ok`.
pub struct Ok;
/// Shadows `Err`.
pub struct Err;
/// Shadows `String`.
pub struct String;
/// Shadows `Vec`.
pub struct Vec;
/// Shadows `Box`.
pub struct Box;
/// Shadows the `Value` users often import.
pub struct Value;
/// Shadows `Clone`.
pub trait Clone {}
/// Shadows `Debug` (a derive name).
pub trait Debug {}
/// Shadows `Default`.
pub trait Default {}
/// Shadows `Into`.
pub trait Into {}
/// Shadows `From`.
pub trait From {}

/// A module, so that paths are not resolved from the crate root by accident.
pub mod tools {
    tg::tool_schema! {
        /// Convert a value between two units of the same kind.
        pub struct ConvertUnits = {
            "type": "object",
            "properties": {
                "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
                "from_unit": {"enum": ["m", "km", "g", "kg"]},
                "to_unit": {"enum": ["m", "km", "g", "kg"]},
                "note": {"type": ["string", "null"], "maxLength": 10},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "count": {"type": "integer", "minimum": 0, "maximum": 9, "multipleOf": 3},
                "flags": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
                "type": {"const": {"a": [1, null, true]}}
            },
            "required": ["value", "from_unit", "to_unit"],
            "additionalProperties": {"type": "integer"}
        };

        pub(crate) struct Anything = true;

        /// A flat tool (read by the flat reader the macro emits for it).
        pub struct FlatArgs = {
            "type": "object",
            "$defs": {"Unit": {"enum": ["m", "km"]}},
            "properties": {
                "path": {"type": "string", "minLength": 1, "maxLength": 64},
                "unit": {"$ref": "#/$defs/Unit"},
                "kind": {"const": "file"},
                "when": {"type": "string", "format": "date"},
                "count": {"type": "integer", "minimum": 1},
                "step": {"type": "number", "multipleOf": 0.5},
                "ratio": {"type": "number", "exclusiveMaximum": 1},
                "deep": {"type": "boolean"},
                "maybe": {"type": ["string", "null"]},
                "options": {"type": "object", "properties": {"follow": {"type": "boolean"}}, "additionalProperties": false},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 4},
                "sku": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "level": {"enum": [1, 2.5, null]},
                "meta": {"type": "object"},
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                "any": true,
                "via": {"oneOf": [
                    {"type": "object", "properties": {"k": {"const": "a"}, "n": {"type": "integer"}}, "required": ["k"], "additionalProperties": false},
                    {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"], "additionalProperties": false}
                ]},
                "doc": {"oneOf": [{"const": "m", "description": "metres"}, {"const": "km", "description": "kilometres"}]},
                "temp": {"enum": ["°C", "°F"]},
                "größe": {"type": "integer"},
                "lab": {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "integer"}}, "additionalProperties": false},
                "must": {"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}},
                "keyed": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 4}, "additionalProperties": {"type": "integer"}},
                "cond": {
                    "type": "object",
                    "properties": {"mode": {"enum": ["a", "b"]}, "n": {"type": "integer"}},
                    "if": {"properties": {"mode": {"const": "b"}}, "required": ["mode"]},
                    "then": {"required": ["n"]}
                },
                "act": {"anyOf": [
                    {"type": "object", "properties": {"id": {"type": "integer"}, "op": {"const": "x"}, "n": {"type": "integer"}}, "required": ["op"], "additionalProperties": false},
                    {"type": "object", "properties": {"id": {"type": "integer"}, "op": {"const": "y"}, "n": {"type": "string"}}, "required": ["id"], "minProperties": 2}
                ]},
                "either": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                    "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
                    "dependentRequired": {"a": ["c"]},
                    "if": {"required": ["b"]},
                    "then": {"not": {"required": ["c"]}}
                }
            },
            "required": ["path"],
            "additionalProperties": false,
            "minProperties": 1,
            "maxProperties": 8
        };

        /// A tagged union (refs, an inline branch, recursion, a null branch) beside an `allOf`
        /// merge.
        pub struct Shapes = {
            "type": "object",
            "properties": {
                "shape": {"$ref": "#/$defs/shape"},
                "maybe": {"anyOf": [{"$ref": "#/$defs/circle"}, {"$ref": "#/$defs/group"}, {"type": "null"}]},
                "source": {"oneOf": [
                    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false},
                    {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"], "additionalProperties": false}
                ]},
                "style": {"allOf": [
                    {"$ref": "#/$defs/pen"},
                    {"type": "object", "properties": {"fill": {"type": "string"}, "width": {}}, "required": ["fill"]}
                ]}
            },
            "required": ["shape"],
            "$defs": {
                "shape": {"oneOf": [
                    {"$ref": "#/$defs/circle"},
                    {"$ref": "#/$defs/group"},
                    {"type": "object", "properties": {"kind": {"const": "none"}}, "required": ["kind"], "additionalProperties": false}
                ]},
                "circle": {
                    "type": "object",
                    "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
                    "required": ["kind", "r"]
                },
                "group": {
                    "type": "object",
                    "properties": {"kind": {"enum": ["group"]}, "items": {"type": "array", "items": {"$ref": "#/$defs/shape"}}},
                    "required": ["kind", "items"],
                    "additionalProperties": {"type": "string"}
                },
                "pen": {"type": "object", "properties": {"width": {"type": "integer", "minimum": 1, "maximum": 9}}}
            }
        };

        /// A tagged union as the root.
        pub struct Command = {"oneOf": [
            {"type": "object", "properties": {"op": {"const": "stop"}}, "required": ["op"]},
            {"type": "object", "properties": {"op": {"const": "go"}, "speed": {"type": "number"}}, "required": ["op"]}
        ]};
    }
}

/// Uses the generated items through the renamed crate.
#[must_use]
pub fn check(text: &str) -> bool {
    use tg::Tool as _;
    tools::ConvertUnits::is_valid_json(text)
}

/// Streams `text` to a flat tool (the flat reader the macro emits) through the renamed crate,
/// in one-byte fragments: whether it is valid, and whether the flat reader read it all.
#[must_use]
pub fn flat_stream(text: &str) -> (bool, bool) {
    use tg::Tool as _;
    let mut s = tools::FlatArgs::stream();
    for b in text.as_bytes() {
        if s.feed(::core::slice::from_ref(b)).is_dead() {
            return (false, s.__quick());
        }
    }
    let read = s.__quick();
    (s.finish().is_ok(), read && tg::Stream::<tools::FlatArgs>::__flat())
}

/// Parses the new shapes through the renamed crate and compares them with values built by hand.
#[must_use]
pub fn shapes(text: &str, command: &str) -> bool {
    use tg::Tool as _;
    let group = tools::Group {
        items: ::std::vec![::std::boxed::Box::new(tools::Shape::None(tools::ShapeNone {}))],
        extra: ::std::collections::BTreeMap::new(),
    };
    let expected = tools::Shapes {
        shape: tools::Shape::Group(group),
        maybe: ::core::option::Option::Some(tools::ShapesMaybe::Circle(tools::Circle { r: 1.0 })),
        source: ::core::option::Option::Some(tools::ShapesSource::Url(tools::ShapesSourceUrl {
            url: ::std::string::String::from("u"),
        })),
        style: ::core::option::Option::Some(tools::ShapesStyle {
            width: ::core::option::Option::Some(2),
            fill: ::std::string::String::from("red"),
        }),
    };
    let go = tools::Command::Go(tools::CommandGo { speed: ::core::option::Option::None });
    tools::Shapes::from_json(text).ok() == ::core::option::Option::Some(expected)
        && tools::Command::from_json(command).ok() == ::core::option::Option::Some(go)
}
