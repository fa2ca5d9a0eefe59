//! The tools the fuzz targets run, and what the targets share.
//!
//! The schemas cover what the generated validators do: enums and numeric bounds, nested objects,
//! `uniqueItems`, escaped property names, numbers at every edge, `multipleOf`, `enum`/`const`
//! over every type, `additionalProperties` schemas and property counts, the applicators
//! (`anyOf`/`oneOf`/`not`/`if`, `prefixItems`/`contains`, `patternProperties`, `propertyNames`,
//! `dependentRequired`, `unevaluatedProperties`), recursion through `$ref`, patterns, and
//! asserted formats.

use serde_json::{Number, Value};
use toolgate::{tool_schema, toolbox, Tool};

tool_schema! {
    /// Convert a value between two units of the same kind.
    pub struct ConvertUnits = {
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
            "from_unit": {"enum": ["m", "km", "g", "kg"]},
            "to_unit": {"enum": ["m", "km", "g", "kg"]}
        },
        "required": ["value", "from_unit", "to_unit"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Search files under the given directories.
    pub struct SearchFiles = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "maxLength": 200},
            "paths": {
                "type": "array",
                "items": {"type": "string", "minLength": 1},
                "minItems": 1,
                "maxItems": 5,
                "uniqueItems": true
            },
            "max_results": {"type": "integer", "minimum": 1, "maximum": 100},
            "options": {
                "type": "object",
                "properties": {
                    "follow_symlinks": {"type": "boolean"},
                    "encoding": {"enum": ["utf-8", "latin-1", "é"]}
                },
                "required": ["follow_symlinks"],
                "additionalProperties": false
            }
        },
        "required": ["query"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Set a thermostat: `multipleOf`, an enum of every type, nested arrays.
    pub struct Thermostat = {
        "type": "object",
        "properties": {
            "temperature": {"type": "number", "minimum": -10.5, "maximum": 35, "multipleOf": 0.1},
            "mode": {"enum": ["heat", "cool", 0, null, 1.5, {"custom": true}, ["eco"]]},
            "schedule": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 24}, "minItems": 2, "maxItems": 2},
                "maxItems": 3,
                "uniqueItems": true
            },
            "minutes": {"type": "integer", "multipleOf": 15, "exclusiveMinimum": 0, "maximum": 1440}
        },
        "required": ["temperature"]
    };
}

tool_schema! {
    /// Property names and enum values that need escapes or pointer escaping.
    pub struct Escapes = {
        "type": "object",
        "properties": {
            "é": {"type": "string", "enum": ["é", "a\"b", "tab\there", "💩"]},
            "a/b": {"type": "integer"},
            "~x": {"type": "string", "minLength": 2, "maxLength": 2}
        },
        "additionalProperties": {"type": "boolean"}
    };
}

tool_schema! {
    /// Numbers at the edges of every representation.
    pub struct Numbers = {
        "type": "object",
        "properties": {
            "i": {"type": "integer", "minimum": -9223372036854775808, "maximum": 18446744073709551615},
            "small": {"type": "integer", "maximum": 9223372036854775807},
            "f": {"type": "number", "exclusiveMinimum": -1e308, "exclusiveMaximum": 1e308},
            "cents": {"type": "number", "multipleOf": 0.01},
            "e": {"enum": [1, 2.5, 0, 18446744073709551616, -9223372036854775809]},
            "c": {"const": 1e2}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// `enum`, `const` and `uniqueItems` over values of every type; property counts.
    pub struct Values = {
        "type": "object",
        "properties": {
            "any": {"enum": [null, true, 1, "x", [1, 2], {"a": 1, "b": [null]}]},
            "obj": {"const": {"k": [1, {"b": null}], "s": "é"}},
            "list": {"type": "array", "uniqueItems": true, "minItems": 1, "maxItems": 6},
            "flags": {"type": "array", "items": {"type": ["boolean", "null"]}, "minItems": 2}
        },
        "required": ["any"],
        "additionalProperties": {"type": "string", "maxLength": 3},
        "maxProperties": 5
    };
}

tool_schema! {
    /// The applicators.
    pub struct Applicators = {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "maxLength": 2}]},
            "b": {"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]},
            "c": {"not": {"type": ["null", "boolean"]}},
            "d": {"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "number"}},
            "e": {
                "type": "array",
                "prefixItems": [{"type": "boolean"}],
                "items": {"type": "integer"},
                "contains": {"const": 1},
                "minContains": 1,
                "maxContains": 2
            }
        },
        "patternProperties": {"^x-": {"type": "integer"}},
        "propertyNames": {"maxLength": 8},
        "dependentRequired": {"a": ["b"]},
        "unevaluatedProperties": false
    };
}

tool_schema! {
    /// A tree: recursion through `$ref`.
    pub struct Tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string", "maxLength": 10},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 4}
                },
                "required": ["label"],
                "additionalProperties": false
            }
        },
        "$ref": "#/$defs/node"
    };
}

tool_schema! {
    /// Patterns (ECMA-262 regular expressions compiled at build time).
    pub struct Patterns = {
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "pattern": "^[A-Z]{1,5}$"},
            "code": {"type": "string", "pattern": "\\d+(-\\d+)?"},
            "word": {"type": "string", "pattern": "^\\w+$"}
        },
        "patternProperties": {"^[a-z]+_id$": {"type": "integer"}}
    };
}

tool_schema! {
    /// Asserted formats.
    #[tool(formats = assert)]
    pub struct Formats = {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date"},
            "time": {"type": "string", "format": "time"},
            "when": {"type": "string", "format": "date-time"},
            "email": {"type": "string", "format": "email"},
            "v4": {"type": "string", "format": "ipv4"},
            "v6": {"type": "string", "format": "ipv6"},
            "id": {"type": "string", "format": "uuid"},
            "for": {"type": "string", "format": "duration"}
        }
    };
}

toolbox! {
    /// The tools the gate target allows.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call {
        ConvertUnits,
        SearchFiles,
        Tree,
        Applicators,
    }
}

/// Run `f` for every tool (the type as the first argument of a generic function).
#[macro_export]
macro_rules! for_each_tool {
    ($f:ident ( $($arg:expr),* )) => {{
        $f::<$crate::ConvertUnits>($($arg),*);
        $f::<$crate::SearchFiles>($($arg),*);
        $f::<$crate::Thermostat>($($arg),*);
        $f::<$crate::Escapes>($($arg),*);
        $f::<$crate::Numbers>($($arg),*);
        $f::<$crate::Values>($($arg),*);
        $f::<$crate::Applicators>($($arg),*);
        $f::<$crate::Tree>($($arg),*);
        $f::<$crate::Patterns>($($arg),*);
        $f::<$crate::Formats>($($arg),*);
    }};
}

/// Whether `T` asserts formats (its schema is compared with jsonschema's format checks on).
#[must_use]
pub fn asserts_formats<T: Tool>() -> bool {
    T::NAME == Formats::NAME
}

/// The nesting depth of a value: `0` for a scalar, `1` for `[]` or `[1]`.
#[must_use]
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// A known jsonschema deviation from the specification, as `docs/DIFFERENTIAL.md` records them
/// (D1, D2: `multipleOf` and numbers beyond 2^53): its name, if `(schema, instance)` is one.
#[must_use]
pub fn known_deviation(schema: &Value, v: &Value) -> Option<&'static str> {
    const TWO_53: f64 = 9_007_199_254_740_992.0;
    if fractional_multiple_of(schema)
        && any_number(v, &|n| {
            n.as_u64().is_some_and(|u| u > 1 << 53) || n.as_i64().is_some_and(|i| i.unsigned_abs() > 1 << 53)
        })
    {
        return Some("D1");
    }
    if has_multiple_of(schema) && any_number(v, &|n| n.is_f64() && n.as_f64().is_some_and(|f| f.abs() >= TWO_53)) {
        return Some("D2");
    }
    None
}

fn has_multiple_of(s: &Value) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| k == "multipleOf" || has_multiple_of(v)),
        Value::Array(a) => a.iter().any(has_multiple_of),
        _ => false,
    }
}

fn fractional_multiple_of(s: &Value) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| {
            (k == "multipleOf" && v.as_f64().is_some_and(|m| m.fract() != 0.0)) || fractional_multiple_of(v)
        }),
        Value::Array(a) => a.iter().any(fractional_multiple_of),
        _ => false,
    }
}

fn any_number(v: &Value, f: &dyn Fn(&Number) -> bool) -> bool {
    match v {
        Value::Number(n) => f(n),
        Value::Array(a) => a.iter().any(|x| any_number(x, f)),
        Value::Object(o) => o.values().any(|x| any_number(x, f)),
        _ => false,
    }
}

/// Words the structured generator draws strings and keys from: every property name, enum
/// string and pattern-shaped value of the schemas above, plus edge cases.
pub const WORDS: &[&str] = &[
    "value",
    "from_unit",
    "to_unit",
    "m",
    "km",
    "g",
    "kg",
    "query",
    "paths",
    "max_results",
    "options",
    "follow_symlinks",
    "encoding",
    "utf-8",
    "latin-1",
    "é",
    "temperature",
    "mode",
    "heat",
    "cool",
    "custom",
    "eco",
    "schedule",
    "minutes",
    "a\"b",
    "tab\there",
    "💩",
    "a/b",
    "~x",
    "~0",
    "~1",
    "i",
    "small",
    "f",
    "cents",
    "e",
    "c",
    "any",
    "obj",
    "k",
    "s",
    "b",
    "list",
    "flags",
    "x",
    "a",
    "d",
    "x-1",
    "x-",
    "label",
    "children",
    "ticker",
    "AAPL",
    "code",
    "12-34",
    "word",
    "user_id",
    "date",
    "time",
    "when",
    "email",
    "v4",
    "v6",
    "id",
    "for",
    "2024-02-29",
    "2023-02-29",
    "23:59:60Z",
    "12:00:00+01:00",
    "2024-01-01T00:00:00Z",
    "a@b.example",
    "127.0.0.1",
    "::1",
    "01.2.3.4",
    "123e4567-e89b-12d3-a456-426614174000",
    "P1D",
    "PT1H",
    "P1Y2M",
    "",
    " ",
    "\u{0}",
    "\u{200b}",
    "\u{feff}",
    "é\u{301}",
    "toolong_name",
];
