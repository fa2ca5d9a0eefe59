//! The tools the fuzz targets run, and what the targets share.
//!
//! The schemas cover what the generated validators do: enums and numeric bounds, nested objects,
//! `uniqueItems`, escaped property names, numbers at every edge, `multipleOf`, `enum`/`const`
//! over every type, `additionalProperties` schemas and property counts, the applicators
//! (`anyOf`/`oneOf`/`not`/`if`, `prefixItems`/`contains`, `patternProperties`, `propertyNames`,
//! `dependentRequired`, `unevaluatedProperties`, `unevaluatedItems`), recursion through `$ref`,
//! patterns, and asserted formats.

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Number, Value};
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
            "third": {"multipleOf": 1.5},
            "sevens": {"type": "integer", "multipleOf": 7},
            "real": {"not": {"type": "integer"}},
            "pick": {"oneOf": [{"type": "integer"}, {"minimum": 2}]},
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
            "f": {"anyOf": [{"properties": {"x": {"type": "integer"}}}, {"properties": {"y": {"type": "string"}}}],
                  "unevaluatedProperties": false},
            "g": {"allOf": [{"prefixItems": [{"type": "integer"}]}], "prefixItems": [true, {"type": "string"}],
                  "unevaluatedItems": false},
            "h": {"contains": {"type": ["string", "null"]}, "maxContains": 1,
                  "anyOf": [{"contains": true, "maxContains": 3}, {"maxItems": 1}]},
            "i": {"not": {"oneOf": [{"type": "string"}, {"maxLength": 1}]}},
            "j": {"if": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/n"}]}, "then": {"maxLength": 3}},
            "k": {"oneOf": [{"type": "number"}, {"anyOf": [{"type": "integer"}, {"type": "string"}]}]},
            "n": {"if": {"minimum": 10}, "then": {"maximum": 50}, "else": {"maximum": 5}},
            "o": {"type": "array", "contains": {"type": "integer"}, "maxContains": 1},
            "l": {"properties": {"a": {"type": "string"}}, "allOf": [{"properties": {"b": true}}],
                  "unevaluatedProperties": {"type": "integer", "maximum": 9}},
            "m": {"allOf": [{"prefixItems": [true, true]}], "prefixItems": [{"type": "string"}],
                  "unevaluatedItems": {"type": "integer", "minimum": 0}},
            "p": {"oneOf": [{"properties": {"u": {"type": "string"}}, "required": ["u"]},
                            {"properties": {"v": {"type": "integer"}, "w": {"type": "object", "required": ["k"]}},
                             "required": ["v"]}]},
            "q": {"if": {"properties": {"m": {"const": "r"}}, "required": ["m"]},
                  "then": {"not": {"required": ["c"]}}},
            "s": {"not": {"properties": {"f": {"const": true}, "g": {"type": "number"}}, "required": ["f"]}},
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
        "unevaluatedProperties": false,
        "$defs": {"n": {"type": ["number", "null"]}}
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
            "for": {"type": "string", "format": "duration"},
            "uri": {"type": "string", "format": "uri"},
            "ref": {"type": "string", "format": "uri-reference"},
            "ptr": {"type": "string", "format": "json-pointer"},
            "rel": {"type": "string", "format": "relative-json-pointer"},
            "day": {"allOf": [{"type": "string"}, {"format": "date"}]}
        }
    };
}

tool_schema! {
    /// Tagged unions: objects told apart by one property's strings (`"a"` a prefix of `"ab"`),
    /// which the stream's quick reader reads itself once that property's value picks the branch.
    pub struct Tagged = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "maxItems": 8, "items": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "ab"}, "n": {"type": "integer", "maximum": 9}},
                 "required": ["kind", "n"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "s": {"type": "string", "maxLength": 3}},
                 "required": ["kind"]}
            ]}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A flat tool (an object of scalars, objects and arrays), which the stream reads with the
    /// flat reader the macro emits for it: lengths, `enum`s and `const`s of strings behind a
    /// `$ref`, bounds that a sign alone breaks, `multipleOf`, literals, counts, a nested closed
    /// object, arrays with counts and `uniqueItems`, an array of arrays, tuples (`prefixItems`),
    /// `pattern`s, a union of kinds, unions of scalars whose kinds overlap, a tagged union, a keyed
    /// union (closed objects told apart by their names, one a prefix of another's, or `null`), a
    /// union of objects that share names (a tag anywhere, an open branch, counts), a union of lists (a documented `enum`, one member in two branches of its `oneOf`), an
    /// object with a rule on its names, `allOf`s whose parts merge, `patternProperties` (in a closed
    /// object and beside `additionalProperties`), `contains`, `propertyNames`.
    pub struct Flat = {
        "type": "object",
        "$defs": {
            "Unit": {"enum": ["m", "km", "kg", "g"]},
            "Twig": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/Twig"}, "maxItems": 2}}, "additionalProperties": false},
            "Part": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 2}}, "required": ["a"]}
        },
        "properties": {
            "path": {"type": "string", "minLength": 1, "maxLength": 12},
            "free": {"type": "string"},
            "mode": {"enum": ["read", "write", "append"], "maxLength": 5},
            "unit": {"$ref": "#/$defs/Unit"},
            "kind": {"const": "file"},
            "temp": {"enum": ["°C", "°F", "≥", "≤é"]},
            "größe": {"type": "integer"},
            "odd": {"type": "integer", "not": {"multipleOf": 2}},
            "tree": {"$ref": "#/$defs/Twig"},
            "nope": {"allOf": [{"type": "string", "maxLength": 5}, {"not": {"enum": ["no", "none"]}}]},
            "count": {"type": "integer", "minimum": 1, "maximum": 10000},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "step": {"type": "number", "multipleOf": 0.5},
            "delta": {"type": "integer"},
            "level": {"enum": [1, 2.5, "max", null, false]},
            "meta": {"type": "object"},
            "any": true,
            "counts": {"type": "object", "properties": {"n": {"type": "string"}}, "additionalProperties": {"type": "integer", "minimum": 0}},
            "deep": {"type": "boolean"},
            "maybe": {"type": ["string", "null"], "maxLength": 3},
            "opts": {"type": "object", "properties": {"a": {"type": "boolean"}, "b": {"enum": ["x", "yz"]}}, "required": ["a"], "additionalProperties": false},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "uniqueItems": true, "maxItems": 3},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}, "minItems": 1},
            "qty": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "number", "multipleOf": 0.25, "maximum": -1}]},
            "label": {"oneOf": [{"type": "string", "maxLength": 2}, {"type": "string", "minLength": 4, "maxLength": 6}, {"type": "null"}]},
            "pair": {"type": "array", "prefixItems": [{"type": "string", "maxLength": 3}, {"enum": [1, 2]}], "items": false},
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "boolean"}], "items": {"type": "null"}, "minItems": 2, "uniqueItems": true},
            "sku": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]+$", "maxLength": 8},
            "note": {"anyOf": [{"type": "string", "maxLength": 4}, {"type": "null"}, {"type": "integer", "minimum": 0}]},
            "via": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "ship"}, "to": {"type": "string", "pattern": "^[0-9]{3}$"}}, "required": ["k", "to"], "additionalProperties": false},
                {"type": "object", "properties": {"k": {"enum": ["pick", "hold"]}, "n": {"type": "integer"}}, "required": ["k"], "additionalProperties": false}
            ]},
            "pick": {"anyOf": [
                {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false},
                {"type": "object", "properties": {"xy": {"type": "string", "maxLength": 3}, "z": {"type": "boolean"}}, "minProperties": 1, "additionalProperties": false},
                {"type": "null"}
            ]},
            "doc": {"oneOf": [{"const": "m", "description": "metres"}, {"enum": ["km", "m", 1]}, {"const": null}]},
            "act": {"anyOf": [
                {"type": "object", "properties": {"op": {"const": "mv"}, "id": {"type": "integer", "minimum": 1}, "to": {"type": "string", "maxLength": 3}}, "required": ["op", "to"], "additionalProperties": false},
                {"type": "object", "properties": {"op": {"enum": ["rm", "mv"]}, "id": {"type": "integer", "minimum": 1}}, "required": ["id"], "maxProperties": 2, "additionalProperties": false},
                {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "minProperties": 2}
            ]},
            "src": {
                "type": "object",
                "properties": {"url": {"type": "string"}, "file": {"type": "string"}},
                "oneOf": [{"required": ["url"]}, {"required": ["file"]}],
                "dependentRequired": {"file": ["line"]},
                "if": {"required": ["line"]}, "then": {"not": {"required": ["url"]}}
            },
            "grade": {"allOf": [{"type": "integer", "minimum": 0}, {"maximum": 50}, {"multipleOf": 5}]},
            "ext": {"allOf": [{"$ref": "#/$defs/Unit"}, {"maxLength": 1}]},
            "lab": {"type": "object", "properties": {"K": {"type": "integer"}}, "patternProperties": {"^[a-zé]+$": {"type": "string", "maxLength": 4}}, "additionalProperties": false},
            "xs": {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": {"type": "boolean"}, "maxProperties": 3},
            "has": {"type": "array", "contains": {"type": "integer", "minimum": 2}, "minContains": 2, "maxItems": 4},
            "pn": {"type": "object", "propertyNames": {"pattern": "^[a-zé]+$", "minLength": 2, "maxLength": 3}, "additionalProperties": {"type": "integer"}},
            "uev": {"$ref": "#/$defs/Part", "properties": {"b": {"type": "integer"}}, "unevaluatedProperties": {"type": "boolean"}},
            "uef": {"$ref": "#/$defs/Part", "properties": {"b": {"type": "integer"}}, "unevaluatedProperties": false},
            "uei": {"type": "array", "prefixItems": [{"type": "integer"}], "unevaluatedItems": {"type": "string", "maxLength": 2}},
            "cnd": {
                "type": "object",
                "properties": {"m": {"enum": ["a", "b"]}, "n": {"type": "integer"}, "o": true},
                "if": {"properties": {"m": {"const": "b"}, "n": {"minimum": 3}}},
                "then": {"required": ["n"]},
                "else": {"anyOf": [{"required": ["o"]}, {"allOf": [{"required": ["m"]}, {"required": ["n"]}]}]},
                "dependentSchemas": {"o": {"required": ["m"]}}
            }
        },
        "required": ["path"],
        "additionalProperties": false,
        "maxProperties": 6
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
        $f::<$crate::Tagged>($($arg),*);
        $f::<$crate::Flat>($($arg),*);
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

/// An instance for `schema` (a subschema of `root`), built from the fuzzer's bytes: mostly valid
/// or near the line the schema draws (numbers at and around each bound and multiple, strings and
/// arrays around each length, enum members and their twins, declared properties present or
/// missing, undeclared ones added), now and then a value of any shape.
///
/// # Errors
/// When the bytes run out.
pub fn instance(u: &mut Unstructured, schema: &Value, root: &Value, depth: u32) -> Result<Value> {
    let Value::Object(s) = schema else { return any_value(u, depth) };
    if depth > 6 || u.ratio(1, 10)? {
        return any_value(u, depth);
    }
    if let Some(Value::String(r)) = s.get("$ref") {
        if let Some(target) = r.strip_prefix('#').and_then(|p| root.pointer(p)) {
            return instance(u, target, root, depth + 1);
        }
    }
    if let Some(c) = s.get("const") {
        if u.ratio(3, 4)? {
            return twin(u, c);
        }
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        if !e.is_empty() && u.ratio(3, 4)? {
            let member = u.choose(e)?;
            return twin(u, member);
        }
    }
    // A branch of an applicator, or the schema's own keywords.
    let mut branches: Vec<&Value> = Vec::new();
    for k in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(b)) = s.get(k) {
            branches.extend(b.iter());
        }
    }
    for k in ["then", "else", "if"] {
        if let Some(b) = s.get(k) {
            branches.push(b);
        }
    }
    if !branches.is_empty() && u.ratio(1, 2)? {
        let branch = *u.choose(&branches)?;
        return instance(u, branch, root, depth + 1);
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => {
            let mut t = Vec::new();
            if s.contains_key("properties") || s.contains_key("patternProperties") || s.contains_key("required") {
                t.push("object");
            }
            if s.contains_key("items") || s.contains_key("prefixItems") || s.contains_key("contains") {
                t.push("array");
            }
            if s.contains_key("minLength") || s.contains_key("maxLength") || s.contains_key("pattern") {
                t.push("string");
            }
            if s.contains_key("minimum") || s.contains_key("maximum") || s.contains_key("multipleOf") {
                t.push("number");
            }
            t
        }
    };
    let Some(&ty) = (if types.is_empty() { None } else { Some(u.choose(&types)?) }) else {
        return any_value(u, depth);
    };
    match ty {
        "null" => Ok(Value::Null),
        "boolean" => Ok(Value::Bool(u.arbitrary()?)),
        "integer" | "number" => Ok(Value::Number(near_number(u, s, ty == "integer")?)),
        "string" => near_string(u, s),
        "array" => {
            let len = near_len(u, s.get("minItems"), s.get("maxItems"))?;
            let prefix = s.get("prefixItems").and_then(Value::as_array);
            let mut items = Vec::new();
            for i in 0..len {
                let sub = match prefix.and_then(|p| p.get(i)) {
                    Some(p) => p,
                    None => match (s.get("contains"), s.get("items")) {
                        (Some(c), _) if u.ratio(1, 3)? => c,
                        (_, Some(it)) => it,
                        _ => &Value::Bool(true),
                    },
                };
                items.push(instance(u, sub, root, depth + 1)?);
            }
            if !items.is_empty() && u.ratio(1, 6)? {
                let item = u.choose(&items)?.clone();
                let dup = twin(u, &item)?;
                items.push(dup);
            }
            Ok(Value::Array(items))
        }
        _ => {
            let mut m = Map::new();
            let required: Vec<&str> = s
                .get("required")
                .and_then(Value::as_array)
                .map_or(Vec::new(), |r| r.iter().filter_map(Value::as_str).collect());
            if let Some(Value::Object(props)) = s.get("properties") {
                for (k, sub) in props {
                    let keep = if required.contains(&k.as_str()) { u.ratio(15, 16)? } else { u.ratio(2, 3)? };
                    if keep {
                        m.insert(k.clone(), instance(u, sub, root, depth + 1)?);
                    }
                }
            }
            for _ in 0..u.int_in_range(0..=2u8)? {
                let extra = s.get("additionalProperties").unwrap_or(&Value::Bool(true));
                m.insert(string(u)?, instance(u, extra, root, depth + 1)?);
            }
            Ok(Value::Object(m))
        }
    }
}

/// `v`, or a twin that JSON Schema calls equal (`1` as `1.0`), or a near miss.
fn twin(u: &mut Unstructured, v: &Value) -> Result<Value> {
    Ok(match (u.int_in_range(0..=5u8)?, v) {
        (0, Value::Number(n)) => n.as_f64().and_then(Number::from_f64).map_or_else(|| v.clone(), Value::Number),
        (1, Value::Number(n)) => {
            Value::Number(n.as_f64().and_then(|f| Number::from_f64(f + 1.0)).unwrap_or_else(|| n.clone()))
        }
        (1, Value::String(s)) => Value::String(format!("{s} ")),
        (2, Value::Array(a)) if !a.is_empty() => Value::Array(a.iter().rev().cloned().collect()),
        _ => v.clone(),
    })
}

fn num(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64)
}

fn near_number(u: &mut Unstructured, s: &Map<String, Value>, integer: bool) -> Result<Number> {
    let mut anchors: Vec<f64> =
        ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].iter().filter_map(|k| num(s.get(*k))).collect();
    anchors.push(0.0);
    let anchor = *u.choose(&anchors)?;
    let m = num(s.get("multipleOf"));
    let deltas = [0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 0.1, -0.1, 0.01, -0.01];
    let mut x = anchor + *u.choose(&deltas)?;
    if let Some(m) = m {
        if u.ratio(2, 3)? {
            // A multiple of m near the anchor, computed as a model would write it.
            let k = (anchor / m).round() + f64::from(u.int_in_range(-2i8..=2)?);
            x = format!("{}", k * m).parse::<f64>().unwrap_or(x);
            if let Ok(d) = format!("{:.2}", k * m).parse::<f64>() {
                if u.ratio(1, 2)? {
                    x = d;
                }
            }
        }
    }
    if u.ratio(1, 8)? {
        return number(u);
    }
    if integer && x.fract() == 0.0 && x.abs() < 9e15 && u.ratio(3, 4)? {
        #[allow(clippy::cast_possible_truncation)]
        return Ok(Number::from(x as i64));
    }
    Ok(Number::from_f64(x).unwrap_or_else(|| 0.into()))
}

fn near_len(u: &mut Unstructured, min: Option<&Value>, max: Option<&Value>) -> Result<usize> {
    let min = min.and_then(Value::as_u64).unwrap_or(0);
    let max = max.and_then(Value::as_u64).unwrap_or(min + 3);
    let pick = *u.choose(&[min, min.saturating_sub(1), min + 1, max, max + 1, max.saturating_sub(1)])?;
    Ok(usize::try_from(pick.min(8)).unwrap_or(8))
}

fn near_string(u: &mut Unstructured, s: &Map<String, Value>) -> Result<Value> {
    if s.contains_key("pattern") || s.contains_key("format") || u.ratio(1, 3)? {
        return Ok(Value::String(string(u)?));
    }
    let len = near_len(u, s.get("minLength"), s.get("maxLength"))?;
    let mut out = String::new();
    for _ in 0..len {
        out.push_str(u.choose(&["a", "é", "💩", "e\u{301}", "\u{0}", "Z"])?);
    }
    Ok(Value::String(out))
}

const EDGE_NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.1,
    0.01,
    0.3,
    1.5,
    2.5,
    3.0,
    5.0,
    15.0,
    24.0,
    35.0,
    35.05,
    -10.5,
    -10.6,
    100.0,
    1440.0,
    1e6,
    1_000_000.5,
    -1e6,
    1e300,
    1e308,
    -1e308,
    1.797_693_134_862_315_7e308,
    4.9e-324,
    9_007_199_254_740_992.0,
    18_446_744_073_709_551_616.0,
    -9_223_372_036_854_775_808.0,
    0.07,
    0.14,
    20.1,
    33.3,
];

fn number(u: &mut Unstructured) -> Result<Number> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => Number::from(u.int_in_range(-3i64..=20)?),
        1 => Number::from(u.arbitrary::<i64>()?),
        2 => Number::from(u.arbitrary::<u64>()?),
        3 => Number::from_f64(f64::from(u.int_in_range(-2000i32..=2000)?) / 100.0).unwrap_or_else(|| 0.into()),
        4 => Number::from_f64(*u.choose(EDGE_NUMBERS)?).unwrap_or_else(|| 0.into()),
        _ => Number::from_f64(u.arbitrary::<f64>()?).unwrap_or_else(|| 1.into()),
    })
}

fn string(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=3u8)? {
        0..=2 => (*u.choose(WORDS)?).to_owned(),
        _ => u.arbitrary::<String>()?,
    })
}

/// A value of any shape (at most 5 levels deep).
///
/// # Errors
/// When the bytes run out.
pub fn any_value(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let top = if depth >= 5 { 3 } else { 5 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(number(u)?),
        3 => Value::String(string(u)?),
        4 => {
            let n = u.int_in_range(0..=6u8)?;
            Value::Array((0..n).map(|_| any_value(u, depth + 1)).collect::<Result<_>>()?)
        }
        _ => {
            let n = u.int_in_range(0..=7u8)?;
            let mut m = Map::new();
            for _ in 0..n {
                m.insert(string(u)?, any_value(u, depth + 1)?);
            }
            Value::Object(m)
        }
    })
}
