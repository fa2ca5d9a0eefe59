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
                "type": {"const": {"a": [1, null, true]}}
            },
            "required": ["value", "from_unit", "to_unit"],
            "additionalProperties": {"type": "integer"}
        };

        pub(crate) struct Anything = true;
    }
}

/// Uses the generated items through the renamed crate.
#[must_use]
pub fn check(text: &str) -> bool {
    use tg::Tool as _;
    tools::ConvertUnits::is_valid_json(text)
}
