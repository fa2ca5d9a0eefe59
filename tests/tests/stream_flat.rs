//! The stream's flat reader (`runtime/src/stream/flat.rs`), which the macro specialises for a
//! flat tool (an object or array of scalars, objects and arrays): like the quick reader, it must
//! change nothing but the cost. Every feed and `finish` must answer what the same stream without
//! it answers (`Stream::__automaton_only`), at every cut of a text into two fragments and in
//! several chunkings; it must read the ordinary texts of such tools to their end, and stop, in
//! the fragment where it happens, at whatever it does not read itself or finds wrong.

#![allow(clippy::pedantic)]

use toolgate::{tool_schema, Progress, Stream, Tool};

mod reader_parity;
use reader_parity::{all_cuts, parity};

tool_schema! {
    /// A flat tool with every keyword the flat reader reads.
    pub struct Flat = {
        "type": "object",
        "$defs": {"Unit": {"enum": ["m", "km", "kg", "g"]}},
        "properties": {
            "path": {"type": "string", "minLength": 1, "maxLength": 12},
            "free": {"type": "string"},
            "mode": {"enum": ["read", "write", "append"], "maxLength": 5},
            "unit": {"$ref": "#/$defs/Unit"},
            "kind": {"const": "file"},
            "when": {"type": "string", "format": "date"},
            "count": {"type": "integer", "minimum": 1, "maximum": 10000},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "step": {"type": "number", "multipleOf": 0.5},
            "delta": {"type": "integer"},
            "any_number": {"type": "number"},
            "deep": {"type": "boolean"},
            "nothing": {"type": "null"},
            "maybe": {"type": ["string", "null"], "maxLength": 3},
            "flag_or_count": {"type": ["boolean", "integer"], "minimum": -5}
        },
        "required": ["path"],
        "additionalProperties": false,
        "maxProperties": 6
    };
}

tool_schema! {
    /// An open flat tool: undeclared keys are the automaton's.
    pub struct Open = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "minProperties": 1
    };
}

tool_schema! {
    /// No member at all.
    pub struct Empty = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": false,
        "maxProperties": 0
    };
}

tool_schema! {
    /// Not flat: an object whose `propertyNames` have an `enum` (the quick reader reads it).
    pub struct NotFlat = {
        "type": "object",
        "properties": {"a": {"type": "object", "propertyNames": {"enum": ["x", "y"]}}}
    };
}

tool_schema! {
    /// A union of objects with a branch whose `required` and `maxProperties` leave no room for
    /// some members: the branch dies at such a member's key, in the flat reader as in the
    /// automaton.
    pub struct CrowdedBranch = {
        "type": "object",
        "properties": {"u": {"anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}, "c": {}}, "required": ["a"], "maxProperties": 1},
            {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"], "additionalProperties": false}
        ]}}
    };
}

tool_schema! {
    /// `pattern` strings, unions of values of different kinds, tagged unions.
    pub struct Unions = {
        "type": "object",
        "$defs": {
            "Sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
            "Ship": {
                "type": "object",
                "properties": {"method": {"const": "ship"}, "to": {"type": "string", "pattern": "^[0-9]{5}$"}},
                "required": ["method", "to"],
                "additionalProperties": false
            }
        },
        "properties": {
            "sku": {"$ref": "#/$defs/Sku"},
            "code": {"type": "string", "pattern": "ab", "maxLength": 6},
            "any": {"type": "string", "pattern": "^x(y|z)*$", "minLength": 2},
            "pin": {"type": "string", "pattern": "^[0-9]{4}$", "maxLength": 3},
            "quote": {"type": "string", "pattern": "^[a\"]b$"},
            "note": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]},
            "mixed": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["auto", "off"]}, {"type": "array", "items": {"type": "boolean"}, "maxItems": 2}]},
            "delivery": {
                "oneOf": [
                    {"$ref": "#/$defs/Ship"},
                    {
                        "type": "object",
                        "properties": {"method": {"enum": ["pickup", "collect"]}, "store": {"type": "integer"}},
                        "required": ["method"],
                        "additionalProperties": false
                    }
                ]
            }
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// `enum`s and `const`s of scalars other than strings: numbers (compared by value), literals.
    pub struct Listed = {
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2.5, -3, "max", null]},
            "on": {"const": true},
            "off": {"enum": [false, "no"]},
            "big": {"type": "integer", "enum": [18446744073709551616, 0]},
            "scale": {"const": 1e2},
            "picks": {"type": "array", "items": {"enum": [1, 2, "x"]}, "uniqueItems": true}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Free values (`true`, an object or array of anything), no value (`false`), undeclared
    /// members of open objects (free, or as `additionalProperties` has them).
    pub struct Free = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "payload": true,
            "never": false,
            "meta": {"type": "object"},
            "list": {"type": "array", "maxItems": 3},
            "headers": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 5}},
            "opts": {"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": {"type": "integer", "minimum": 0}}
        },
        "required": ["id"]
    };
}

tool_schema! {
    /// A required name that `properties` does not declare: its value as `additionalProperties`
    /// has it; in `meta`, which has no `additionalProperties`, a free one.
    pub struct Undeclared = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "meta": {"type": "object", "required": ["kind"]}
        },
        "required": ["id", "note"],
        "additionalProperties": {"type": ["string", "object"], "maxLength": 3}
    };
}

tool_schema! {
    /// Objects and arrays of flat values, nested.
    pub struct Nested = {
        "type": "object",
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x"], "additionalProperties": false}},
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "options": {
                "type": "object",
                "properties": {
                    "follow": {"type": "boolean"},
                    "encoding": {"enum": ["utf-8", "latin-1"]},
                    "inner": {"type": "object", "properties": {"depth": {"type": "integer", "maximum": 3}}, "minProperties": 1}
                },
                "additionalProperties": false,
                "maxProperties": 2
            },
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "uniqueItems": true, "maxItems": 3},
            "points": {"type": "array", "items": {"$ref": "#/$defs/Point"}, "minItems": 1},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}},
            "either": {"type": ["object", "array", "null"], "properties": {"a": {"type": "null"}}, "items": {"type": "boolean"}},
            "none": {"type": "array", "items": {"type": "integer"}, "maxItems": 0}
        },
        "required": ["path"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Tuples (`prefixItems`): closed by `items: false`, with `items` after them, counted,
    /// unique with free items after them, nested.
    pub struct Tuples = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "string", "maxLength": 3}, {"type": "integer", "minimum": 0}], "items": false},
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": {"type": "boolean"}, "minItems": 2, "maxItems": 3},
            "head": {"type": "array", "prefixItems": [{"enum": ["a", "b"]}], "uniqueItems": true},
            "nested": {
                "type": "array",
                "prefixItems": [
                    {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": false},
                    {"type": "array", "prefixItems": [{"type": "null"}], "items": false}
                ],
                "items": {"type": "integer"}
            }
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A tuple at the root, in draft-07's words (`items` an array, `additionalItems: false`).
    pub struct Triple = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}],
        "additionalItems": false,
        "minItems": 2
    };
}

tool_schema! {
    /// Unions of scalars whose kinds overlap (an integer or a multiple of 0.5, two string
    /// lengths, `oneOf`s that a value matching two branches breaks), read as one value and
    /// judged where it ends.
    pub struct Overlap = {
        "type": "object",
        "$defs": {"Half": {"type": "number", "multipleOf": 0.5}},
        "properties": {
            "amount": {"anyOf": [{"type": "integer", "minimum": 0}, {"$ref": "#/$defs/Half"}]},
            "positive": {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "number", "exclusiveMinimum": 10}]},
            "exact": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
            "when": {"anyOf": [{"type": "string", "format": "date", "maxLength": 2}, {"type": "string", "minLength": 8}, {"type": "null"}]},
            "short": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "string", "minLength": 4, "maxLength": 4}]},
            "flag": {"oneOf": [{"type": "boolean"}, {"type": ["boolean", "null"]}, {"type": "string", "minLength": 1}]},
            "never": {"anyOf": [false, {"type": "integer", "maximum": -1}]},
            "twice": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: a union of strings with a `pattern` in a branch (which may die inside the
    /// string before the others do).
    pub struct PatternUnion = {
        "type": "object",
        "properties": {"u": {"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "maxLength": 1}]}}
    };
}

tool_schema! {
    /// Not flat: a union of strings with an `enum` in a branch.
    pub struct EnumUnion = {
        "type": "object",
        "properties": {"u": {"oneOf": [{"type": "string", "enum": ["ab"]}, {"type": "string", "maxLength": 1}]}}
    };
}

tool_schema! {
    /// Unions of lists: `anyOf`s and `oneOf`s whose branches are each an `enum` or a `const` of
    /// scalars (perhaps with a `type`), as a documented `enum` is written; a member two branches
    /// of a `oneOf` list is no value.
    pub struct Documented = {
        "type": "object",
        "$defs": {"Metric": {"enum": ["m", "km"]}, "Imperial": {"const": "mi", "description": "miles"}},
        "properties": {
            "unit": {"oneOf": [
                {"const": "m", "description": "metres"},
                {"const": "km", "description": "kilometres"},
                {"const": "mi", "title": "miles"}
            ]},
            "mode": {"anyOf": [{"type": "string", "enum": ["fast", "slow"]}, {"type": "string", "enum": ["slow", "safe"]}]},
            "pick": {"oneOf": [{"enum": ["a", "b"]}, {"enum": ["b", "c"]}]},
            "num": {"anyOf": [{"const": 1}, {"const": 2.5}, {"enum": ["x", null]}]},
            "lit": {"oneOf": [{"enum": [null, true]}, {"enum": [true, false]}]},
            "typed": {"anyOf": [{"type": "integer", "enum": [3, 4]}, {"type": "string", "enum": ["t"]}]},
            "refd": {"anyOf": [{"$ref": "#/$defs/Metric"}, {"$ref": "#/$defs/Imperial"}, false]},
            "twice": {"oneOf": [{"const": 1}, {"enum": [1.0, 2]}]},
            "dup": {"oneOf": [{"const": "a"}, {"enum": ["a", 1]}]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: a union of lists with a branch that also has a `maxLength` (which would end a
    /// string before no member continues it).
    pub struct ListedLength = {
        "type": "object",
        "properties": {"u": {"anyOf": [{"enum": ["abc", "d"], "maxLength": 2}, {"const": "e"}]}}
    };
}

tool_schema! {
    /// Not flat: a union of lists with an array among the members.
    pub struct ListedArray = {
        "type": "object",
        "properties": {"u": {"anyOf": [{"enum": ["a", [1]]}, {"const": "e"}]}}
    };
}

tool_schema! {
    /// Arrays with `uniqueItems`: of strings (told unique by the reader itself while their
    /// hashes are new), of anything, of arrays.
    pub struct Unique = {
        "type": "object",
        "properties": {
            "names": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "mixed": {"type": "array", "uniqueItems": true},
            "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "uniqueItems": true}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Rules on an object's names, judged where it closes: "one of these at least" (`anyOf` of
    /// `required`s), "exactly one of these" (`oneOf`), `dependentRequired`, `if`/`then`/`else`
    /// with `not`, through a `$ref`, on a name only the rule speaks of, with a `false` and a `true`
    /// branch.
    pub struct Rules = {
        "type": "object",
        "$defs": {"NeedsX": {"required": ["x"]}},
        "properties": {
            "path": {"type": "string"},
            "url": {"type": "string"},
            "card": {"type": "string"},
            "billing": {"type": "string"},
            "amount": {"type": "number"},
            "unit": {"type": "string"},
            "one": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
                "additionalProperties": false
            },
            "open": {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "anyOf": [{"allOf": [{"$ref": "#/$defs/NeedsX"}]}, {"required": ["y"]}],
                "additionalProperties": {"type": "string"}
            },
            "never": {"type": "object", "properties": {"k": true}, "anyOf": [false, {"required": ["k"]}]},
            "either": {"type": "object", "oneOf": [true, {"required": ["k"]}]}
        },
        "anyOf": [{"required": ["path"]}, {"required": ["url"]}],
        "dependentRequired": {"card": ["billing"]},
        "if": {"required": ["amount"]},
        "then": {"required": ["unit"]},
        "else": {"not": {"required": ["unit"]}},
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: a rule with a branch that says more than `required`.
    pub struct RuleTyped = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"properties": {"a": {"maxLength": 1}}}]
    };
}

tool_schema! {
    /// Not flat: a rule with a branch of another `type` (which no object passes).
    pub struct RuleKind = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"type": "string"}]
    };
}

tool_schema! {
    /// Not flat: a closed object's rule on a name it does not declare.
    pub struct RuleUndeclared = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        "additionalProperties": false
    };
}

tool_schema! {
    /// `allOf`s (and `$ref`s beside keywords) whose parts merge: OpenAPI's inheritance, bounds
    /// in parts, `type`s that intersect, a `pattern` in a part, a `true` part, a rule on names in a
    /// part.
    pub struct Merged = {
        "type": "object",
        "$defs": {
            "Base": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "required": ["id"]},
            "Pos": {"type": "integer", "minimum": 1}
        },
        "properties": {
            "item": {"allOf": [
                {"$ref": "#/$defs/Base"},
                {"properties": {"price": {"type": "number", "minimum": 0}}, "required": ["price"]}
            ]},
            "size": {"allOf": [{"type": "integer"}, {"minimum": 1}, {"maximum": 9}]},
            "count": {"$ref": "#/$defs/Pos", "maximum": 100},
            "code": {"type": "string", "allOf": [{"pattern": "^[A-Z]+$"}, {"maxLength": 4}]},
            "num": {"allOf": [{"type": "number"}, {"type": ["integer", "string"]}]},
            "tags": {"allOf": [{"type": "array", "items": {"type": "string"}}, {"maxItems": 2, "uniqueItems": true}, true]},
            "dep": {"allOf": [{"type": "object", "properties": {"a": true, "b": true}}, {"dependentRequired": {"a": ["b"]}}]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: parts that overlap (two `maximum`s; a closed part beside another that declares
    /// names; one name in two parts).
    pub struct Overlapping = {
        "type": "object",
        "properties": {
            "twice": {"allOf": [{"maximum": 3}, {"maximum": 5}]},
            "closed": {"allOf": [{"properties": {"a": true}, "additionalProperties": false}, {"properties": {"b": true}}]},
            "same": {"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"maxLength": 2}}}]}
        }
    };
}

tool_schema! {
    /// Not flat: only the closed part beside another that declares names.
    pub struct ClosedPart = {
        "type": "object",
        "properties": {
            "closed": {"allOf": [{"properties": {"a": true}, "additionalProperties": false}, {"properties": {"b": true}}]}
        }
    };
}

tool_schema! {
    /// Not flat: only one name in two parts.
    pub struct SameName = {
        "type": "object",
        "properties": {
            "same": {"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"maxLength": 2}}}]}
        }
    };
}

tool_schema! {
    /// A `false` part: no value satisfies `u`, read as `false` (flat: the key dies where it
    /// closes).
    pub struct FalsePart = {
        "type": "object",
        "properties": {"u": {"allOf": [{"type": "string"}, false]}}
    };
}

tool_schema! {
    /// Not flat: a part with a keyword the flat reader does not read (`contains`).
    pub struct GenericPart = {
        "type": "object",
        "properties": {"u": {"allOf": [{"type": "array"}, {"contains": {"const": 1}}]}}
    };
}

tool_schema! {
    /// Not flat: a part with an applicator of its own.
    pub struct InPlacePart = {
        "type": "object",
        "properties": {"u": {"allOf": [{"type": "string"}, {"anyOf": [{"maxLength": 1}, {"minLength": 3}]}]}}
    };
}

tool_schema! {
    /// Not flat: only two `maximum`s.
    pub struct TwoMaxima = {
        "type": "object",
        "properties": {"twice": {"allOf": [{"maximum": 3}, {"maximum": 5}]}}
    };
}

tool_schema! {
    /// Keyed unions: `anyOf`s and `oneOf`s of closed objects that declare no name in common
    /// (OpenAI's strict mode has every object closed), the first key picking the branch; with
    /// other branches of other kinds; behind `$ref`s; one inside another.
    pub struct Keyed = {
        "type": "object",
        "$defs": {
            "Range": {
                "type": "object",
                "properties": {"min_value": {"type": "number"}, "max_value": {"type": "number"}},
                "required": ["min_value"],
                "additionalProperties": false
            }
        },
        "properties": {
            "filter": {"anyOf": [
                {"type": "object", "properties": {"field": {"type": "string"}, "equals": {"type": "string", "maxLength": 3}}, "required": ["field", "equals"], "additionalProperties": false},
                {"$ref": "#/$defs/Range"},
                {"type": "object", "properties": {"min": {"type": "integer"}}, "required": ["min"], "maxProperties": 1, "additionalProperties": false}
            ]},
            "target": {"oneOf": [
                {"type": "null"},
                {"type": "string", "maxLength": 4},
                {"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}}, "required": ["id"], "additionalProperties": false},
                {"type": "object", "properties": {"name": {"type": "string"}, "page": {"anyOf": [
                    {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false},
                    {"type": "object", "properties": {"after": {"type": "string"}}, "additionalProperties": false}
                ]}}, "required": ["name"], "minProperties": 2, "additionalProperties": false}
            ]},
            "either": {"oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": false}
            ]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A keyed union at the root.
    pub struct RootKeyed = {
        "oneOf": [
            {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"], "additionalProperties": false},
            {"type": "object", "properties": {"path": {"type": "string"}, "lines": {"type": "integer", "minimum": 1}}, "required": ["path"], "additionalProperties": false}
        ]
    };
}

tool_schema! {
    /// A union of objects that give a name they both declare different subschemas.
    pub struct SharedNames = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a"], "additionalProperties": false},
                {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}
            ]}
        }
    };
}

tool_schema! {
    /// A keyed object and one that takes undeclared names.
    pub struct OpenBranch = {
        "type": "object",
        "properties": {
            "u": {"oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}
            ]}
        }
    };
}

tool_schema! {
    /// Two keyed objects and an open one, which takes any key.
    pub struct Crowded = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false},
                {"type": "object", "minProperties": 2}
            ]}
        }
    };
}

tool_schema! {
    /// A branch with `maxProperties: 0` (dead at a key's opening quote, which the other
    /// branches outlive).
    pub struct NoMembers = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "maxProperties": 0, "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": false}
            ]}
        }
    };
}

tool_schema! {
    /// Unions of objects whose branches declare names in common: a tag that need not come
    /// first, open branches, counts.
    pub struct Shared = {
        "type": "object",
        "$defs": {"Id": {"type": "integer", "minimum": 1}},
        "properties": {
            "action": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "move"}, "id": {"$ref": "#/$defs/Id"}, "to": {"type": "string", "maxLength": 5}}, "required": ["kind", "id", "to"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "delete"}, "id": {"type": "integer", "minimum": 1}, "force": {"type": "boolean"}}, "required": ["kind", "id"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"enum": ["copy", "link"]}, "id": {"$ref": "#/$defs/Id"}, "to": {"type": "string", "maxLength": 5}}, "required": ["kind"], "additionalProperties": false}
            ]},
            "search": {"anyOf": [
                {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]},
                {"type": "object", "properties": {"url": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["url"]}
            ]},
            "pair": {"oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "minProperties": 1, "maxProperties": 2, "additionalProperties": false},
                {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false},
                {"type": "object", "maxProperties": 1}
            ]},
            "tagged": {"anyOf": [
                {"type": "object", "properties": {"t": {"const": "x"}, "v": {"type": "integer"}}, "required": ["t"], "additionalProperties": false},
                {"type": "object", "properties": {"t": {"enum": ["y", "x"]}, "w": {"type": "string"}, "u": {"type": "string"}}, "required": ["t"], "additionalProperties": false, "dependentRequired": {"w": ["u"]}},
                {"type": "null"}
            ]},
            "loose": {"anyOf": [
                {"type": "object", "properties": {"t": {"const": "x"}, "v": {"type": "integer"}}, "required": ["t"], "additionalProperties": false},
                {"type": "object", "properties": {"t": {"const": "y"}}, "required": ["t"], "additionalProperties": false},
                {"type": "object", "properties": {"z": {"type": "integer"}}, "required": ["z"]}
            ]},
            "tv": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "int"}, "value": {"type": "integer", "maximum": 9}}, "required": ["kind", "value"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "str"}, "value": {"type": "string", "maxLength": 3}}, "required": ["kind", "value"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "any"}}, "required": ["kind"]},
                {"type": "object", "properties": {"kind": {"const": "int2"}, "value": {"type": "integer", "maximum": 9}}, "required": ["kind"], "additionalProperties": false}
            ]},
            "typed": {"type": "object", "oneOf": [
                {"properties": {"n": {"type": "integer"}, "s": {"type": "string"}}, "required": ["n"], "type": "object", "additionalProperties": false},
                {"properties": {"m": {"type": "integer"}, "s": {"type": "string"}}, "required": ["m"], "type": "object", "additionalProperties": false}
            ]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: open branches whose undeclared members differ.
    pub struct OtherExtras = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}},
                {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "integer"}}
            ]}
        }
    };
}

tool_schema! {
    /// A union of objects with a `type: "object"` beside it that another branch's kind
    /// (`null`) is not.
    pub struct TypedUnion = {
        "type": "object",
        "$defs": {
            "A": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false},
            "B": {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false}
        },
        "properties": {"t": {"type": "object", "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]}}
    };
}

tool_schema! {
    /// A union of objects with a `type` of several kinds beside it, `null` not among them.
    pub struct KindsUnion = {
        "type": "object",
        "$defs": {
            "A": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false},
            "B": {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false}
        },
        "properties": {"t": {"type": ["object", "string"], "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]}}
    };
}

tool_schema! {
    /// Unions of objects without a `type`: objects read as the branches have them, any other
    /// value by the automaton (the branches take it); and such objects beside a `null` branch.
    pub struct Untyped = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"properties": {"k": {"const": "x"}, "a": {"type": "integer"}}, "required": ["k"], "additionalProperties": false},
                {"properties": {"k": {"const": "y"}}, "required": ["k"], "additionalProperties": false}
            ]}
        }
    };
}

tool_schema! {
    /// A union of objects one of which has no `type`, beside a `null` branch.
    pub struct UntypedNull = {
        "type": "object",
        "properties": {
            "n": {"oneOf": [
                {"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false},
                {"type": "null"}
            ]}
        }
    };
}

tool_schema! {
    /// Not flat: a branch's rule on a name no branch declares.
    pub struct RuleOnUndeclared = {
        "type": "object",
        "properties": {
            "r": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "dependentRequired": {"a": ["q"]}},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false}
            ]}
        }
    };
}

tool_schema! {
    /// Not flat: a name one branch declares that another, open, takes as its undeclared members.
    pub struct TakenAsExtra = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false},
                {"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": {"type": "string"}}
            ]}
        }
    };
}

tool_schema! {
    /// Rows: an array of objects at the root.
    pub struct Rows = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"id": {"type": "integer", "minimum": 0}, "name": {"type": "string", "maxLength": 8}},
            "required": ["id"],
            "additionalProperties": false
        },
        "maxItems": 3
    };
}

tool_schema! {
    /// Names and `enum` strings with characters beyond ASCII, closed: their raw UTF-8 bytes are
    /// compared with the names' and members' (`≥` and `≤` differ in their last byte); a string
    /// with a `minLength` or a `maxLength` (which count characters) hands them over.
    pub struct Wide = {
        "type": "object",
        "properties": {
            "unit": {"enum": ["°C", "°F", "K"]},
            "lang": {"enum": ["français", "español", "日本語", "fr"]},
            "sym": {"const": "≥"},
            "capped": {"enum": ["é", "ée", "e"], "maxLength": 1},
            "floor": {"enum": ["éé", "é"], "minLength": 2},
            "größe": {"type": "integer", "minimum": 0},
            "grün": {"type": "boolean"},
            "gr": {"type": "string"}
        },
        "required": ["unit"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same names in an object that takes undeclared names: a multi-byte character in an
    /// undeclared one is the automaton's (the reader does not check its bytes).
    pub struct WideOpen = {
        "type": "object",
        "properties": {"größe": {"type": "integer"}, "grün": {"type": "boolean"}},
        "additionalProperties": {"type": "string"}
    };
}

tool_schema! {
    /// `not` on strings and numbers, beside their keywords or in an `allOf`: judged where the
    /// value ends, by its scan function, as the automaton judges it.
    pub struct Negated = {
        "type": "object",
        "properties": {
            "size": {"allOf": [{"type": "integer"}, {"minimum": 1}, {"not": {"const": 13}}]},
            "code": {"type": "string", "maxLength": 4, "not": {"enum": ["NONE", "N/A"]}},
            "ratio": {"type": "number", "not": {"minimum": 0.5, "maximum": 0.6}},
            "word": {"type": "string", "not": {"pattern": "^x"}},
            "tag": {"type": "string", "enum": ["a", "b", "c"], "not": {"const": "b"}},
            "mixed": {"type": ["string", "integer"], "not": {"type": "integer", "minimum": 10}},
            "nothing": {"type": "string", "not": false}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A `not` on a literal, and one beside no `type`: not flat. (One that takes everything
    /// leaves `s` no value: read as `false`, flat.)
    pub struct NegatedLiteral = {
        "type": "object",
        "properties": {"b": {"type": "boolean", "not": {"const": true}}}
    };
}

tool_schema! {
    /// (See [`NegatedLiteral`].)
    pub struct NegatedAll = {
        "type": "object",
        "properties": {"s": {"type": "string", "not": {}}}
    };
}

tool_schema! {
    /// (See [`NegatedLiteral`].)
    pub struct NegatedUntyped = {
        "type": "object",
        "properties": {"s": {"not": {"type": "string"}}}
    };
}

tool_schema! {
    /// Patterns over text beyond ASCII: their automata step UTF-8's bytes.
    pub struct WidePatterns = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "pattern": "^[^<>]+$", "maxLength": 8},
            "name": {"type": "string", "pattern": "^\\p{L}+( \\p{L}+)*$"},
            "greek": {"type": "string", "pattern": "^[α-ω]{2,3}$"},
            "word": {"type": "string", "pattern": "é"},
            "short": {"type": "string", "pattern": "^.{1,3}$"}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Escapes in `enum` strings and in a closed object's keys: compared on the characters they
    /// decode to, narrowed digit by digit as the automaton narrows them.
    pub struct Escaped = {
        "type": "object",
        "properties": {
            "mark": {"enum": ["a\"b", "tab\there", "back\\slash", "é", "💩", "x/y"]},
            "é": {"type": "integer"},
            "a\"b": {"type": "boolean"},
            "lim": {"enum": ["é", "a"], "maxLength": 1}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// (See [`Escaped`]: an open object's escaped keys are the automaton's.)
    pub struct EscapedOpen = {
        "type": "object",
        "properties": {"é": {"type": "integer"}},
        "additionalProperties": {"type": "string"}
    };
}

tool_schema! {
    /// `patternProperties`: one pattern per object, in an object that takes no other
    /// undeclared names (a key dead, as the automaton has it, at the byte where no declared
    /// name continues it and the pattern can no longer match it) and in one that takes others
    /// too (`additionalProperties`' where the pattern does not match).
    pub struct Labeled = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "labels": {
                "type": "object",
                "properties": {"Kind": {"enum": ["a", "b"]}},
                "patternProperties": {"^[a-z][a-z0-9_]*$": {"type": "string", "maxLength": 8}},
                "additionalProperties": false,
                "maxProperties": 4
            },
            "wide": {"type": "object", "patternProperties": {"^\\p{L}+$": {"type": "boolean"}}, "additionalProperties": false},
            "ext": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "patternProperties": {"^x-": {"type": "integer", "minimum": 0}},
                "additionalProperties": {"type": "string"}
            }
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// (See [`Labeled`]: two patterns in an object, or a declared name a pattern matches: not
    /// flat.)
    pub struct TwoPatterns = {
        "type": "object",
        "patternProperties": {"^a": {"type": "integer"}, "b$": {"type": "string"}},
        "additionalProperties": false
    };
}

tool_schema! {
    /// (See [`TwoPatterns`].)
    pub struct NamePatterned = {
        "type": "object",
        "properties": {"app": {"type": "string"}},
        "patternProperties": {"^[a-z]+$": {"type": "string", "maxLength": 3}},
        "additionalProperties": false
    };
}

tool_schema! {
    /// `contains` (and `minContains`): judged where the array closes, by its scan function.
    pub struct Contained = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "contains": {"const": "primary"}, "maxItems": 4},
            "nums": {"type": "array", "contains": {"type": "integer", "minimum": 10}, "minContains": 2},
            "nest": {"type": "array", "items": {"type": "array", "contains": {"const": 1}}},
            "both": {"type": "array", "items": {"type": "string"}, "contains": {"const": "a"}, "uniqueItems": true}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// (See [`Contained`]: a `maxContains` dies at the item past it: not flat.)
    pub struct MaxContained = {
        "type": "object",
        "properties": {"tags": {"type": "array", "contains": {"const": "a"}, "maxContains": 1}},
        "additionalProperties": false
    };
}

tool_schema! {
    /// `propertyNames` of lengths and a `pattern`: each key byte checked against them, as the
    /// automaton checks a name.
    pub struct Named = {
        "type": "object",
        "properties": {
            "m": {
                "type": "object",
                "properties": {"ab": {"type": "integer"}},
                "propertyNames": {"maxLength": 3, "pattern": "^[a-z]+$"},
                "additionalProperties": {"type": "integer"}
            },
            "w": {"type": "object", "propertyNames": {"minLength": 2, "maxLength": 3}, "additionalProperties": {"type": "boolean"}},
            "free": {"type": "object", "propertyNames": {"minimum": 3}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A tree: the schema refers to itself, through an array.
    pub struct Tree = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 8},
            "children": {"type": "array", "items": {"$ref": "#"}, "maxItems": 3}
        },
        "required": ["name"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// `if`s on values (an `action`'s, a `mode`'s, a bound on `retries`), their `then`s and
    /// `else`s `required`s: judged where the object closes, the condition by its scan function.
    pub struct Conditional = {
        "type": "object",
        "properties": {
            "action": {"enum": ["create", "delete", "move"]},
            "name": {"type": "string"},
            "id": {"type": "integer"},
            "to": {"type": "string"},
            "opts": {
                "type": "object",
                "properties": {"mode": {"enum": ["fast", "safe"]}, "retries": {"type": "integer"}, "delay": {"type": "number"}},
                "allOf": [
                    {"if": {"properties": {"mode": {"const": "safe"}}, "required": ["mode"]}, "then": {"required": ["retries"]}},
                    {"if": {"properties": {"retries": {"minimum": 3}}, "required": ["retries"]}, "then": {"anyOf": [{"required": ["delay"]}, {"required": ["mode"]}]}}
                ],
                "additionalProperties": false
            }
        },
        "required": ["action"],
        "maxProperties": 4,
        "if": {"properties": {"action": {"const": "create"}}},
        "then": {"required": ["name"]},
        "else": {"required": ["id"]},
        "allOf": [{"if": {"properties": {"action": {"const": "move"}}}, "then": {"required": ["to"]}}],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Not flat: an `if` on a value whose `then` is `false` (a death that could come where the
    /// condition is decided, before the object closes).
    pub struct ConditionalFalse = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "if": {"properties": {"a": {"const": 1}}, "required": ["a"]},
        "then": false
    };
}

tool_schema! {
    /// Not flat: an `if` on a value under a `not` (its truth, if decided early, could be a
    /// death).
    pub struct ConditionalNot = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": true},
        "not": {"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}}
    };
}

tool_schema! {
    /// Not flat: an `if` on a value whose `then` says more than `required`.
    pub struct ConditionalValues = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "if": {"properties": {"a": {"const": 1}}},
        "then": {"properties": {"b": {"maxLength": 1}}}
    };
}

tool_schema! {
    /// Not flat: an `if` on a value in an `anyOf`.
    pub struct ConditionalAny = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": true},
        "anyOf": [{"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]}}, {"required": ["c"]}]
    };
}

tool_schema! {
    /// `dependentSchemas` of `required`s: "`billing` and `zip` when `card`", "`a` or `b` when
    /// `c`"; judged where the object closes.
    pub struct Dependent = {
        "type": "object",
        "properties": {
            "card": {"type": "string"}, "billing": {"type": "string"}, "zip": {"type": "string"},
            "a": true, "b": true, "c": true
        },
        "dependentSchemas": {
            "card": {"required": ["billing", "zip"]},
            "c": {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Draft 7's `dependencies` with a schema: its `dependentSchemas`.
    pub struct DependentDraft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"card": {"type": "string"}, "billing": {"type": "string"}},
        "dependencies": {"card": {"required": ["billing"]}}
    };
}

tool_schema! {
    /// Not flat: a `dependentSchemas` entry that is `false` (which could die where its name
    /// comes).
    pub struct DependentFalse = {
        "type": "object",
        "properties": {"a": true, "b": true},
        "dependentSchemas": {"a": false}
    };
}

tool_schema! {
    /// Not flat: a `dependentSchemas` entry with a `not`.
    pub struct DependentNot = {
        "type": "object",
        "properties": {"a": true, "b": true},
        "dependentSchemas": {"a": {"not": {"required": ["b"]}}}
    };
}

tool_schema! {
    /// An object or an array, of objects and arrays: its object and its array each refer to
    /// both.
    pub struct Nest = {
        "type": ["object", "array"],
        "properties": {"list": {"type": "array", "items": {"type": "integer"}, "maxItems": 1}, "a": {"$ref": "#"}, "n": {"type": "integer"}},
        "additionalProperties": false,
        "items": {"$ref": "#"},
        "maxItems": 2
    };
}

tool_schema! {
    /// A `$defs` entry two members refer to (no cycle): read as two objects, the reader's stack
    /// as deep as the schema (as [`TwoPlacesInline`]'s).
    pub struct TwoPlaces = {
        "type": "object",
        "$defs": {
            "Place": {"type": "object", "properties": {"street": {"type": "string"}}},
            "Tags": {"type": "array", "items": {"type": "string"}},
            "Pick": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}}, "additionalProperties": false},
                {"type": "object", "properties": {"k": {"const": "b"}}, "additionalProperties": false}
            ]}
        },
        "properties": {
            "from": {"$ref": "#/$defs/Place"}, "to": {"$ref": "#/$defs/Place"},
            "tags": {"$ref": "#/$defs/Tags"}, "more": {"$ref": "#/$defs/Tags"},
            "pick": {"$ref": "#/$defs/Pick"}, "other": {"$ref": "#/$defs/Pick"}
        }
    };
}

tool_schema! {
    /// (See [`TwoPlaces`].)
    pub struct TwoPlacesInline = {
        "type": "object",
        "properties": {
            "from": {"type": "object", "properties": {"street": {"type": "string"}}},
            "to": {"type": "object", "properties": {"street": {"type": "string"}}},
            "tags": {"type": "array", "items": {"type": "string"}},
            "more": {"type": "array", "items": {"type": "string"}},
            "pick": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}}, "additionalProperties": false},
                {"type": "object", "properties": {"k": {"const": "b"}}, "additionalProperties": false}
            ]},
            "other": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}}, "additionalProperties": false},
                {"type": "object", "properties": {"k": {"const": "b"}}, "additionalProperties": false}
            ]}
        }
    };
}

tool_schema! {
    /// A query tool's filter of filters: a union of objects that refers to itself, directly and
    /// through an array.
    pub struct Query = {
        "type": "object",
        "$defs": {
            "Filter": {"oneOf": [
                {"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#/$defs/Filter"}, "minItems": 1}}, "required": ["and"], "additionalProperties": false},
                {"type": "object", "properties": {"not": {"$ref": "#/$defs/Filter"}}, "required": ["not"], "additionalProperties": false},
                {"type": "object", "properties": {
                    "field": {"enum": ["name", "age"]},
                    "op": {"enum": ["eq", "lt", "gt"]},
                    "value": {"type": ["string", "number"]}
                 }, "required": ["field", "op", "value"], "additionalProperties": false}
            ]}
        },
        "properties": {
            "table": {"type": "string"},
            "where": {"$ref": "#/$defs/Filter"},
            "limit": {"type": "integer", "minimum": 1}
        },
        "required": ["table"],
        "additionalProperties": false
    };
}

const VALID: &[&str] = &[
    r#"{"path": "a.txt"}"#,
    r#"{"path":"src/lib.rs","mode":"write","unit":"km","kind":"file","count":200,"ratio":0.25}"#,
    " \t{ \"path\" :\r\n\"exactly12chr\" , \"deep\" : true , \"nothing\" : null } \n",
    r#"{"path": "a", "free": "tab\there \"quoted\" \\ \/ \b\f\n\r \u0041\u00e9\ud83d\ude00 end"}"#,
    r#"{"path": "café", "free": "ñ € 😀 ok", "maybe": "ñ€😀"}"#,
    r#"{"path": "x", "when": "2024-02-29", "step": 1.5, "delta": -12, "any_number": -0.0}"#,
    r#"{"path": "x", "any_number": 1e300, "step": 2E1, "delta": 0, "count": 1.0}"#,
    r#"{"path": "x", "ratio": 5e-1, "count": 10000, "flag_or_count": -5, "maybe": null}"#,
    r#"{"path": "x", "flag_or_count": false, "maybe": "abc", "deep": false}"#,
    r#"{"path": "x", "any_number": 123456789012345678901234567890, "delta": -9007199254740993}"#,
];

const INVALID: &[&str] = &[
    r#"{"path": ""}"#,
    r#"{"path": "thirteen char"}"#,
    r#"{"path": "é123456789012"}"#,
    r#"{"path": "a", "mode": "rea"}"#,
    r#"{"path": "a", "mode": "reed"}"#,
    r#"{"path": "a", "mode": "append"}"#,
    r#"{"path": "a", "unit": "mm"}"#,
    r#"{"path": "a", "kind": "files"}"#,
    r#"{"path": "a", "count": 0}"#,
    r#"{"path": "a", "count": -1}"#,
    r#"{"path": "a", "count": 1.5}"#,
    r#"{"path": "a", "count": 1e5}"#,
    r#"{"path": "a", "count": "10"}"#,
    r#"{"path": "a", "ratio": 0}"#,
    r#"{"path": "a", "ratio": -0.5}"#,
    r#"{"path": "a", "ratio": 1}"#,
    r#"{"path": "a", "step": 0.25}"#,
    r#"{"path": "a", "delta": 0.5}"#,
    r#"{"path": "a", "any_number": 1e400}"#,
    r#"{"path": "a", "deep": tru}"#,
    r#"{"path": "a", "deep": nul}"#,
    r#"{"path": "a", "deep": null}"#,
    r#"{"path": "a", "nothing": false}"#,
    r#"{"path": "a", "maybe": "abcd"}"#,
    r#"{"path": "a", "flag_or_count": -6}"#,
    r#"{"path": "a", "flag_or_count": "x"}"#,
    r#"{"path": "a", "pathx": 1}"#,
    r#"{"path": "a", "path": "b"}"#,
    r#"{"count": 3}"#,
    r#"{}"#,
    r#"{"path": "a", "deep": true, "nothing": null, "count": 1, "delta": 1, "free": "", "maybe": null}"#,
    r#"{"path": "a\u00"}"#,
    r#"{"path": "a\ud800x"}"#,
    r#"{"path": "a\ud800\u0041"}"#,
    r#"{"path": "a\udc00"}"#,
    r#"{"path": "a\x"}"#,
    "{\"path\": \"a\u{1}\"}",
    r#"{"path": "a"} x"#,
    r#"{"path": "a",}"#,
    r#"{"path": "a" "deep": true}"#,
    r#"{"path" "a"}"#,
    r#"{"path": 01}"#,
    r#"{"path": "a", "count": 01}"#,
    r#"{"path": "a", "count": 1.}"#,
    r#"{"path": "a", "count": 1e}"#,
    r#"{"path": "a", "count": -}"#,
    r#"{"path": "a", "delta": --1}"#,
    r#"["path"]"#,
    r#""path""#,
];

/// Every text of `valid` (which `T` accepts) and `invalid` (which it refuses) fed at every cut
/// and in several chunkings, each answer the same as the automaton's alone; every valid text
/// read to its end by the flat reader (the stream never built its automaton); every invalid one
/// also with raw bytes no UTF-8 character begins with, or that break a character, inserted.
fn texts<T: Tool>(valid: &[&str], invalid: &[&str]) {
    for text in valid {
        assert!(T::is_valid_json(text), "{text}");
        assert!(all_cuts::<T>(text), "the flat reader stopped reading a valid text: {text}");
        let mut s = T::stream();
        assert!(!s.feed(text.as_bytes()).is_dead());
        assert!(s.finish().is_ok(), "{text}");
        assert!(!s.__automaton_built(), "{text}");
    }
    for text in invalid {
        assert!(!T::is_valid_json(text), "{text}");
        all_cuts::<T>(text);
        for bad in [0xFF, 0x80, 0xC3] {
            let mut bytes = text.as_bytes().to_vec();
            bytes.insert(bytes.len() / 2, bad);
            parity::<T>(&bytes, &[1]);
            parity::<T>(&bytes, &[5]);
        }
    }
}

#[test]
fn the_flat_reader_changes_nothing_but_the_cost() {
    assert!(Stream::<Flat>::__flat() && Stream::<Open>::__flat() && Stream::<Empty>::__flat());
    assert!(Stream::<Nested>::__flat() && Stream::<Rows>::__flat() && Stream::<Unions>::__flat());
    assert!(!Stream::<NotFlat>::__flat() && Stream::<CrowdedBranch>::__flat());
    // `x` (undeclared) and `c` (declared) leave the first branch no room for `a`, and the second
    // does not take them: dead at the key's closing quote; `b` kills the first branch there, the
    // second lives (until the `,` it has no name left for).
    for (text, dead) in [
        (r#"{"u": {"a": 1}}"#, None),
        (r#"{"u": {"b": "x"}}"#, None),
        (r#"{"u": {"x": 1, "a": 1}}"#, Some(9)),
        (r#"{"u": {"b": "x", "a": 1}}"#, Some(15)),
        (r#"{"u": {"c": 1}}"#, Some(9)),
    ] {
        // (Read to its end by the flat reader where it is valid; handed over where it dies.)
        assert_eq!(all_cuts::<CrowdedBranch>(text), dead.is_none(), "{text}");
        let died = match CrowdedBranch::stream().feed(text.as_bytes()) {
            Progress::Dead(d) => Some(d.offset),
            Progress::Alive => None,
        };
        assert_eq!(died, dead, "{text}");
    }
    texts::<Flat>(VALID, INVALID);
    // Escapes in a closed object's key, and in an `enum` string: compared on the characters
    // they decode to (since stop 46; the automaton's before), but in a string with a
    // `maxLength` (`mode`), which counts characters.
    texts::<Flat>(
        &[r#"{"p\u0061th": "a"}"#, r#"{"path": "é", "unit": "k\u006d"}"#],
        &[r#"{"p\u0062th": "a"}"#, r#"{"path": "a", "unit": "k\u006e"}"#, r#"{"path": "a", "p\u0061th": "b"}"#],
    );
    let text = r#"{"path": "a", "mode": "r\u0065ad"}"#;
    assert!(Flat::is_valid_json(text) && !all_cuts::<Flat>(text));
    // After `finish`, fragments of any length, on the short ways too, are ignored.
    for text in VALID {
        let mut s = Flat::stream();
        assert!(!s.feed(text.as_bytes()).is_dead());
        assert!(s.finish().is_ok(), "{text}");
        for more in [&b"}"[..], b" ", b"]]", b"x", b"{\"a\": 1}"] {
            assert!(!s.feed(more).is_dead(), "{text}");
        }
        assert_eq!(s.text(), text.as_bytes());
        assert!(s.finish().is_ok(), "{text}");
    }
    // Prefixes of valid texts: alive, and still the flat reader's.
    for text in VALID {
        for end in 0..text.len() {
            let mut s = Flat::stream();
            assert!(!s.feed(&text.as_bytes()[..end]).is_dead());
            assert!(s.__quick(), "{text:?} cut at {end}");
        }
    }
}

#[test]
fn the_flat_reader_counts_members_and_reads_undeclared_keys() {
    // An undeclared key of an open object, its value free: read too.
    for text in [r#"{"a": 1}"#, r#"{"b": "x", "a": -3}"#, r#"{"a": 1, "z": 2}"#, r#"{"z": [1, {"y": 2}], "y": 2}"#] {
        assert!(all_cuts::<Open>(text), "{text}");
    }
    // A repeated key, declared or not: dead where it closes.
    for text in [r#"{"z": [1, {"y": 2}], "z": 2}"#, r#"{"a": 1, "a": 2}"#] {
        let mut s = Open::stream();
        let _ = s.feed(&text.as_bytes()[..text.len() - 1]);
        assert!(!s.__quick(), "{text}");
        all_cuts::<Open>(text);
    }
    // Too few members: dead at the close.
    all_cuts::<Open>("{}");
    // No member allowed: dead at the first key's quote.
    assert!(all_cuts::<Empty>("{ }"));
    for text in [r#"{"a": "x"}"#, r#"{"b": 1}"#, "{}x", "[]"] {
        all_cuts::<Empty>(text);
    }
    let mut s = Empty::stream();
    let Progress::Dead(d) = s.feed(br#"{""#) else { panic!("maxProperties 0") };
    assert_eq!(d.offset, 1);
}

const NESTED_VALID: &[&str] = &[
    r#"{"path": "a"}"#,
    r#"{"path": "a", "options": {}, "tags": [], "points": [{"x": 1}], "grid": [], "either": null}"#,
    r#"{"path":"a","options":{"follow":true,"encoding":"latin-1"},"tags":["x","yz","ñ€"]}"#,
    r#"{"path": "a", "options": {"inner": {"depth": 3}, "follow": false}, "either": {"a": null}}"#,
    r#"{"path": "a", "points": [{"x": 1, "y": -2.5}, {"y": 0, "x": 1e3}], "either": [true, false]}"#,
    r#"{"path": "a", "grid": [[], [1], [2, -3]], "either": {}, "tags": ["a", "b", "c"]}"#,
    r#" { "path" : "a" , "grid" : [ [ 1 , 2 ] , [ ] ] , "either" : [ ] , "none" : [ ] } "#,
    r#"{"path": "a", "tags": ["a", "\u0062"], "options": {"inner": {"depth": -1}}}"#,
];

const NESTED_INVALID: &[&str] = &[
    r#"{"path": "a", "options": {"follow": 1}}"#,
    r#"{"path": "a", "options": {"encoding": "utf-16"}}"#,
    r#"{"path": "a", "options": {"other": true}}"#,
    r#"{"path": "a", "options": {"follow": true, "encoding": "utf-8", "inner": {"depth": 1}}}"#,
    r#"{"path": "a", "options": {"follow": true, "follow": true}}"#,
    r#"{"path": "a", "options": {"inner": {}}}"#,
    r#"{"path": "a", "options": {"inner": {"depth": 4}}}"#,
    r#"{"path": "a", "options": {"inner": {"depth": 1}]}"#,
    r#"{"path": "a", "options": []}"#,
    r#"{"path": "a", "tags": ["a", "a"]}"#,
    r#"{"path": "a", "tags": ["a", "\u0061"]}"#,
    r#"{"path": "a", "tags": ["a", "b", "c", "d"]}"#,
    r#"{"path": "a", "tags": ["abcde"]}"#,
    r#"{"path": "a", "tags": [1]}"#,
    r#"{"path": "a", "tags": ["a",]}"#,
    r#"{"path": "a", "tags": ["a" "b"]}"#,
    r#"{"path": "a", "tags": ["a"}"#,
    r#"{"path": "a", "points": []}"#,
    r#"{"path": "a", "points": [{"y": 1}]}"#,
    r#"{"path": "a", "points": [{"x": 1, "z": 1}]}"#,
    r#"{"path": "a", "points": [{"x": 1, "y": 2, "x": 3}]}"#,
    r#"{"path": "a", "points": [{"x": "1"}]}"#,
    r#"{"path": "a", "grid": [[1, 2, 3]]}"#,
    r#"{"path": "a", "grid": [[1.5]]}"#,
    r#"{"path": "a", "grid": [1]}"#,
    r#"{"path": "a", "grid": [[1]]]}"#,
    r#"{"path": "a", "either": {"a": 1}}"#,
    r#"{"path": "a", "either": [null]}"#,
    r#"{"path": "a", "either": "x"}"#,
    r#"{"options": {}}"#,
    r#"{"path": "a", "none": [1]}"#,
    r#"{"path": "a", "none": [ ]]}"#,
    r#"{"path": "a"}]"#,
    r#"{"path": "a", "grid": [[]] }}"#,
];

const ROWS_VALID: &[&str] = &[
    "[]",
    r#"[{"id": 0}]"#,
    r#"[{"id": 1, "name": "ann"}, {"name": "bob", "id": 2}, {"id": 3}]"#,
    " [ { \"id\" : 7 } ] ",
];

const ROWS_INVALID: &[&str] = &[
    r#"[{"id": -1}]"#,
    r#"[{"name": "x"}]"#,
    r#"[{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]"#,
    r#"[{"id": 1, "name": "ninechars"}]"#,
    r#"[{"id": 1}, ]"#,
    r#"[{"id": 1}}"#,
    r#"{"id": 1}"#,
    r#"[{"id": 1}] []"#,
    "[1]",
];

#[test]
fn the_flat_reader_reads_nested_objects_and_arrays() {
    texts::<Nested>(NESTED_VALID, NESTED_INVALID);
    texts::<Rows>(ROWS_VALID, ROWS_INVALID);
    // Dead as soon as the automaton: a fourth row at its `,`, a closed object's other key.
    let mut s = Rows::stream();
    let text = br#"[{"id": 1}, {"id": 2}, {"id": 3},"#;
    let Progress::Dead(d) = s.feed(text) else { panic!("maxItems 3") };
    assert_eq!(d.offset, text.len() - 1);
}

const UNIONS_VALID: &[&str] = &[
    "{}",
    r#"{"sku": "ABC-1234", "code": "xxabyy", "any": "xyzy", "note": "hi", "mixed": 3}"#,
    r#"{"note": null, "mixed": "auto", "delivery": {"method": "ship", "to": "12345"}}"#,
    r#"{"mixed": [true, false], "delivery": {"method": "pickup"}}"#,
    r#"{"delivery": {"method": "collect", "store": 12}, "mixed": []}"#,
    r#" { "delivery" : { "method" : "ship" , "to" : "00000" } , "code" : "ab" } "#,
    // A tag that is not the object's first member.
    r#"{"delivery": {"to": "12345", "method": "ship"}}"#,
    r#"{"delivery": {"store": 1, "method": "collect"}}"#,
    r#"{"mixed": 0, "note": "", "any": "xz"}"#,
    r#"{"quote": "ab", "sku": "ZZZ-0000"}"#,
];

const UNIONS_INVALID: &[&str] = &[
    r#"{"sku": "ABC-123"}"#,
    r#"{"sku": "ABC-12345"}"#,
    r#"{"sku": "AbC-1234"}"#,
    r#"{"sku": "ABC-1234x"}"#,
    r#"{"sku": 1}"#,
    r#"{"pin": "123"}"#,
    r#"{"pin": "1234"}"#,
    r#"{"quote": "bb"}"#,
    r#"{"quote": "a"}"#,
    r#"{"quote": "abb"}"#,
    r#"{"code": "xxxxxx"}"#,
    r#"{"code": "xxxxxab"}"#,
    r#"{"any": "x"}"#,
    r#"{"any": "xyq"}"#,
    r#"{"any": "yx"}"#,
    r#"{"note": "toolong"}"#,
    r#"{"note": 1}"#,
    r#"{"note": nul}"#,
    r#"{"mixed": -1}"#,
    r#"{"mixed": "on"}"#,
    r#"{"mixed": [1]}"#,
    r#"{"mixed": [true, true, true]}"#,
    r#"{"mixed": null}"#,
    r#"{"mixed": 1.5}"#,
    r#"{"delivery": {"method": "fly"}}"#,
    r#"{"delivery": {"method": "ship"}}"#,
    r#"{"delivery": {"method": "ship", "to": "1234"}}"#,
    r#"{"delivery": {"method": "ship", "store": 1}}"#,
    r#"{"delivery": {"method": "pickup", "to": "12345"}}"#,
    r#"{"delivery": {"method": "pickup", "store": "x"}}"#,
    r#"{"delivery": {"method": "pickup", "method": "ship"}}"#,
    r#"{"delivery": {"to": "12345", "method": "pickup"}}"#,
    r#"{"delivery": {"store": 1, "method": "ship"}}"#,
    r#"{"delivery": {"to": "12345"}}"#,
    r#"{"delivery": {"store": 1, "to": "12345"}}"#,
    r#"{"delivery": {"to": "12345", "to": "12345", "method": "ship"}}"#,
    r#"{"delivery": {}}"#,
    r#"{"delivery": []}"#,
    r#"{"delivery": {"method": "ship", "to": "12345",}}"#,
];

const UNDECLARED_VALID: &[&str] = &[
    r#"{"id": 1, "note": "abc"}"#,
    r#"{"note": "", "id": 2, "x": "y"}"#,
    r#"{"id": 3, "note": "a", "meta": {"kind": 1}, "z": {}}"#,
];

const UNDECLARED_INVALID: &[&str] = &[
    r#"{"id": 1}"#,
    r#"{"id": 1, "note": 5}"#,
    r#"{"id": 1, "note": "abcd"}"#,
    r#"{"id": 1, "note": "a", "note": "b"}"#,
    r#"{"note": "a", "id": 1, "x": 1}"#,
    r#"{"note": "a", "id": 1, "x": "y", "x": "z"}"#,
    r#"{"note": "a", "id": 1, "meta": {}}"#,
];

#[test]
fn the_flat_reader_reads_required_names_properties_does_not_declare() {
    assert!(Stream::<Undeclared>::__flat());
    texts::<Undeclared>(UNDECLARED_VALID, UNDECLARED_INVALID);
}

const FREE_VALID: &[&str] = &[
    r#"{"id": 1}"#,
    r#"{"id": 1, "payload": {"a": [1, "x", null, {"b": {}}], "c": -1.5e3, "d": true}, "meta": {}}"#,
    r#"{"id": 2, "payload": "tab\t \u00e9 é 💩 \ud83d\udca9", "list": [[], {}, "s"]}"#,
    r#"{"id": 3, "headers": {"x": "abc", "y": "", "xy": "12345"}, "opts": {"a": true, "b": 3, "cd": 0}}"#,
    r#"{"id": 4, "zz": [true, false], "z": {"p": 1e300}, "zzz": null, "idx": 0}"#,
    r#"{"payload": [1, [2, [3]]], "id": 5, "meta": {"k": {"l": "m"}, "n": []}, "list": []}"#,
    r#"{"id": 6, "payload": 0, "payloads": 1, "pay": 2, "i": 3}"#,
];

const FREE_INVALID: &[&str] = &[
    r#"{"id": 1, "payload": {"a": 1, "a": 2}}"#,
    r#"{"id": 1, "x": 1, "x": 2}"#,
    r#"{"id": 1, "id": 2}"#,
    r#"{"id": 1, "meta": {}, "meta": {}}"#,
    r#"{"id": 1, "meta": {"k": 1, "j": 2, "k": 3}}"#,
    r#"{"id": 1, "headers": {"x": "toolong"}}"#,
    r#"{"id": 1, "headers": {"x": 1}}"#,
    r#"{"id": 1, "headers": {"x": "a", "x": "b"}}"#,
    r#"{"id": 1, "opts": {"b": -1}}"#,
    r#"{"id": 1, "opts": {"a": true, "a": false}}"#,
    r#"{"id": 1, "opts": {"a": 1}}"#,
    r#"{"id": 1, "payload": 1e400}"#,
    r#"{"id": 1, "payload": [1,]}"#,
    r#"{"id": 1, "payload": {"a" 1}}"#,
    r#"{"id": 1, "payload": "\ud800"}"#,
    r#"{"id": 1, "payload": "a\x"}"#,
    r#"{"id": 1, "payload": tru}"#,
    r#"{"id": 1, "payload": [1, 2}"#,
    r#"{"id": 1, "payload": {"a": 1]}"#,
    r#"{"id": 1, "list": [1, 2, 3, 4]}"#,
    r#"{"id": 1, "meta": []}"#,
    r#"{"id": "1", "meta": {}}"#,
    r#"{"meta": {}}"#,
    r#"{"id": 1, "payload": 01}"#,
    r#"{"id": 1, "x": -}"#,
    r#"{"id": 1, "never": null}"#,
    r#"{"never": {}, "id": 1}"#,
];

#[test]
fn the_flat_reader_reads_free_values_and_undeclared_members() {
    assert!(Stream::<Free>::__flat());
    texts::<Free>(FREE_VALID, FREE_INVALID);
    // An escape in an undeclared name: read (since stop 47; the automaton's before), its
    // repeat found where it closes.
    texts::<Free>(&[r#"{"id": 1, "\u0078": 1}"#], &[r#"{"x": 1, "id": 1, "\u0078": 1}"#, r#"{"\u0069d": 1, "id": 1}"#]);
    // The automaton's: a free value deeper than the reader's stack.
    let text = r#"{"id": 1, "payload": [[[[[[[[[[1]]]]]]]]]]}"#;
    assert!(Free::is_valid_json(text), "{text}");
    let mut s = Free::stream();
    let _ = s.feed(&text.as_bytes()[..text.len() - 2]);
    assert!(!s.__quick(), "{text}");
    all_cuts::<Free>(text);
    // Many undeclared names: their hash bits collide, and the object's text is looked at again
    // (read on when no earlier name is the same, dead when one is).
    let many: Vec<String> = (0..20).map(|i| format!(r#""k{i}": {i}"#)).collect();
    let text = format!(r#"{{"id": 1, "meta": {{{}}}}}"#, many.join(", "));
    texts::<Free>(&[&text], &[]);
    let text = format!(r#"{{"id": 1, "meta": {{{}, "k19": 1}}}}"#, many.join(", "));
    texts::<Free>(&[], &[&text]);
    // More: past a few such looks, the automaton reads (each look reads the object so far).
    let many: Vec<String> = (0..200).map(|i| format!(r#""k{i}": {i}"#)).collect();
    let text = format!(r#"{{"id": 1, "meta": {{{}}}}}"#, many.join(", "));
    let mut s = Free::stream();
    assert!(!s.feed(text.as_bytes()).is_dead());
    assert!(!s.__quick() && s.finish().is_ok());
    parity::<Free>(text.as_bytes(), &[1]);
    parity::<Free>(text.as_bytes(), &[16]);
    // `false`: dead at its key's closing quote (the member may not be there, whatever its
    // value), in every reader.
    let text = br#"{"id": 1, "never""#;
    let Progress::Dead(d) = Free::stream().feed(text) else { panic!("no value") };
    assert_eq!(d.offset, text.len() - 1);
    parity::<Free>(br#"{"id": 1, "never": 1}"#, &[1]);
    // Dead when a repeated undeclared name closes.
    let text = br#"{"id": 1, "x": 1, "x""#;
    let Progress::Dead(d) = Free::stream().feed(text) else { panic!("a repeated name") };
    assert_eq!(d.offset, text.len() - 1);
}

const LISTED_VALID: &[&str] = &[
    "{}",
    r#"{"level": 1, "on": true, "off": false, "scale": 100}"#,
    r#"{"level": 2.50, "off": "no", "scale": 1e2, "big": 18446744073709551616}"#,
    r#"{"level": -3, "big": 0, "picks": [1, "x", 2.0]}"#,
    r#"{"level": "max", "scale": 100.0}"#,
    r#"{"level": null, "picks": []}"#,
    r#"{"level": 1.0, "big": 0e5}"#,
];

const LISTED_INVALID: &[&str] = &[
    r#"{"level": 3}"#,
    r#"{"level": -1}"#,
    r#"{"level": 25e-1, "on": false}"#,
    r#"{"level": "min"}"#,
    r#"{"level": true}"#,
    r#"{"level": 1e400}"#,
    r#"{"level": [1]}"#,
    r#"{"on": false}"#,
    r#"{"on": null}"#,
    r#"{"on": tru}"#,
    r#"{"off": true}"#,
    r#"{"off": "yes"}"#,
    r#"{"big": 1}"#,
    r#"{"big": 18446744073709551615}"#,
    r#"{"scale": 1}"#,
    r#"{"scale": "1e2"}"#,
    r#"{"picks": [1, 1.0]}"#,
    r#"{"picks": [3]}"#,
    r#"{"picks": [null]}"#,
];

#[test]
fn the_flat_reader_reads_enums_of_numbers_and_literals() {
    assert!(Stream::<Listed>::__flat());
    texts::<Listed>(LISTED_VALID, LISTED_INVALID);
    // A literal the `enum` does not list: dead at its first byte.
    for (text, at) in [(r#"{"on": f"#, 7), (r#"{"off": t"#, 8), (r#"{"level": f"#, 10)] {
        let Progress::Dead(d) = Listed::stream().feed(text.as_bytes()) else { panic!("{text}") };
        assert_eq!(d.offset, at, "{text}");
    }
    // A number no member equals: dead when it ends, not before (`3` may become `3e-1`... and
    // `2` may become `2.5`).
    let mut s = Listed::stream();
    assert!(!s.feed(br#"{"level": 2"#).is_dead());
    let Progress::Dead(d) = s.feed(b"}") else { panic!("2 is no member") };
    assert_eq!(d.offset, 11);
}

#[test]
fn the_flat_reader_reads_patterns_and_unions() {
    texts::<Unions>(UNIONS_VALID, UNIONS_INVALID);
    // Escapes in a `pattern` string and in a string whose pattern is one set of characters per
    // offset (since stop 47; the automaton's before): matched on the characters they decode to,
    // counted at their backslash.
    texts::<Unions>(
        &[
            r#"{"sku": "ABC-\u00312\u00334"}"#,
            r#"{"sku": "\u0041BC\u002d1234"}"#,
            r#"{"quote": "\"b"}"#,
            r#"{"quote": "\u0022b", "code": "\u0061b\n\"\\x"}"#,
            r#"{"any": "x\u0079\u007a"}"#,
            r#"{"code": "\ud83d\ude00ab"}"#,
        ],
        &[
            r#"{"sku": "ABC-\u00412\u00334"}"#,
            r#"{"sku": "ABC\u002e1234"}"#,
            r#"{"sku": "ABC-123\u00e9"}"#,
            r#"{"sku": "ABC-1234\u0030"}"#,
            r#"{"quote": "\"c"}"#,
            r#"{"quote": "\n"}"#,
            r#"{"code": "ab\u0041\u0041\u0041\u0041\u0041"}"#,
            r#"{"code": "\u0061\u0061"}"#,
            r#"{"any": "x\ty"}"#,
            r#"{"pin": "\u0030\u0030\u0030\u0030"}"#,
            r#"{"pin": "\u00"}"#,
            r#"{"code": "ab\ud83d"}"#,
            r#"{"code": "ab\ud83dx"}"#,
            r#"{"code": "ab\ude00"}"#,
            r#"{"sku": "\q"}"#,
        ],
    );
    // Dead where the automaton dies: at the hex digit after which no character the escape can
    // still be is one the pattern takes (`\u002` may be `-`, `\u004` no digit; since stop 51,
    // at the character decoded before), at the backslash past the `maxLength`.
    for text in [
        r#"{"sku": "ABC\u002e"#,
        r#"{"sku": "ABC-\u004"#,
        r#"{"quote": "\n"#,
        r#"{"any": "x\t"#,
        r#"{"code": "ab\u0041\u0041\u0041\u0041\"#,
        r#"{"pin": "123\"#,
    ] {
        dead_at_its_last_byte::<Unions>(text);
    }
    // Dead where the pattern's automaton dies: the third letter of the SKU that is lower case.
    let mut s = Unions::stream();
    let text = br#"{"sku": "ABc"#;
    let Progress::Dead(d) = s.feed(text) else { panic!("an anchored pattern") };
    assert_eq!(d.offset, text.len() - 1);
}

const TUPLES_VALID: &[&str] = &[
    "{}",
    r#"{"pair": ["abc", 0]}"#,
    r#"{"pair": ["", 5], "point": [1.5, -2]}"#,
    r#"{"pair": [], "point": [0, 0, true]}"#,
    r#"{"pair": ["a"], "head": []}"#,
    r#"{"head": ["a", 1, "x", null, {"z": [1]}, "b"]}"#,
    r#"{"nested": [{"k": "v"}, [null], 1, 2]}"#,
    r#" { "nested" : [ { } , [ ] ] , "head" : [ "b" ] } "#,
];

const TUPLES_INVALID: &[&str] = &[
    r#"{"pair": ["abcd", 1]}"#,
    r#"{"pair": ["a", -1]}"#,
    r#"{"pair": ["a", 1, 2]}"#,
    r#"{"pair": ["a", 1, ]}"#,
    r#"{"pair": [1, "a"]}"#,
    r#"{"point": [1]}"#,
    r#"{"point": [1, 2, 3]}"#,
    r#"{"point": [1, 2, true, false]}"#,
    r#"{"point": [true, 1]}"#,
    r#"{"head": ["c"]}"#,
    r#"{"head": ["a", "a"]}"#,
    r#"{"head": ["b", 1, 1]}"#,
    r#"{"nested": [{"k": 1}]}"#,
    r#"{"nested": [{"j": "v"}]}"#,
    r#"{"nested": [{}, [null, null]]}"#,
    r#"{"nested": [{}, [false]]}"#,
    r#"{"nested": [{}, [], "x"]}"#,
    r#"{"nested": [[], {}]}"#,
    r#"{"pair": ["a", 1]"#,
    r#"{"pair": ["a" 1]}"#,
];

const TRIPLE_VALID: &[&str] = &[r#"["a", 1]"#, r#"["a", 1, true]"#, r#" [ "x" , -3 , false ] "#];

const TRIPLE_INVALID: &[&str] =
    &[r#"["a"]"#, r#"["a", 1, true, null]"#, r#"[1, 1]"#, r#"["a", 1.5]"#, r#"["a", 1, 0]"#, "{}", "[]"];

#[test]
fn the_flat_reader_reads_tuples() {
    assert!(Stream::<Tuples>::__flat() && Stream::<Triple>::__flat());
    texts::<Tuples>(TUPLES_VALID, TUPLES_INVALID);
    texts::<Triple>(TRIPLE_VALID, TRIPLE_INVALID);
    // An item past `items: false`: dead at the `,` that promises it, as with `maxItems`.
    let mut s = Triple::stream();
    let text = br#"["a", 1, true,"#;
    let Progress::Dead(d) = s.feed(text) else { panic!("no fourth item") };
    assert_eq!(d.offset, text.len() - 1);
}

const OVERLAP_VALID: &[&str] = &[
    "{}",
    r#"{"amount": 3, "positive": 5, "exact": 1.5, "when": "2024-01-01", "short": "ab", "flag": null, "never": -3}"#,
    r#"{"amount": -0.5, "positive": 10.5, "exact": -2.25, "when": null, "short": "abcd", "flag": "x"}"#,
    r#"{"amount": -1, "positive": 1, "when": "long enough", "short": "", "flag": "é\u00e9"}"#,
    r#"{"amount": 10e-1, "positive": 2E-0, "exact": 1e-1, "short": "\u00e9\u00e9", "twice": "abcd"}"#,
];

const OVERLAP_INVALID: &[&str] = &[
    r#"{"amount": 0.3}"#,
    r#"{"amount": -0.3}"#,
    r#"{"amount": "1"}"#,
    r#"{"positive": 11}"#,
    r#"{"positive": 0.5}"#,
    r#"{"positive": -1}"#,
    r#"{"positive": 0}"#,
    r#"{"exact": 1}"#,
    r#"{"exact": 1.0}"#,
    r#"{"exact": true}"#,
    r#"{"when": "short"}"#,
    r#"{"when": 5}"#,
    r#"{"short": "abc"}"#,
    r#"{"short": "abcde"}"#,
    r#"{"short": "\u00e9\u00e9\u00e9"}"#,
    r#"{"flag": true}"#,
    r#"{"flag": false}"#,
    r#"{"flag": ""}"#,
    r#"{"flag": 1}"#,
    r#"{"never": 0}"#,
    r#"{"never": "x"}"#,
    r#"{"never": null}"#,
    r#"{"twice": "ab"}"#,
    r#"{"twice": ""}"#,
];

#[test]
fn the_flat_reader_reads_unions_of_scalars_whose_kinds_overlap() {
    assert!(Stream::<Overlap>::__flat());
    texts::<Overlap>(OVERLAP_VALID, OVERLAP_INVALID);
    // Two branches of `exact` may be sure of a number once its exponent settles them (`1e+` is
    // an integer whatever follows, and `{"type": "number"}` takes it): a number is handed over to
    // the automaton at the bytes of its positive exponent that move it, and `exact` dies there.
    let text = r#"{"amount": 1e2, "positive": 1e1, "exact": 1e-1, "short": "\u00e9\u00e9", "twice": "abcd"}"#;
    assert!(Overlap::is_valid_json(text) && !all_cuts::<Overlap>(text));
    let Progress::Dead(d) = Overlap::stream().feed(br#"{"exact": 15e+"#) else { panic!("alive") };
    assert_eq!(d.offset, 13);
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("oneOf"));
    // A branch that may die inside a string on its own (a `pattern`, an `enum`): not flat.
    assert!(!Stream::<PatternUnion>::__flat() && !Stream::<EnumUnion>::__flat());
    for text in [r#"{"u": "bc"}"#, r#"{"u": "abc"}"#] {
        all_cuts::<PatternUnion>(text);
    }
    for text in [r#"{"u": "ac"}"#, r#"{"u": "ab"}"#] {
        all_cuts::<EnumUnion>(text);
    }
    // Dead as soon as the automaton: a fifth character no branch allows, a sign no branch
    // allows.
    for (text, at) in [(r#"{"short": "abcde"#, 15), (r#"{"positive": -"#, 13)] {
        let Progress::Dead(d) = Overlap::stream().feed(text.as_bytes()) else { panic!("{text}") };
        assert_eq!(d.offset, at, "{text}");
    }
}

const DOCUMENTED_VALID: &[&str] = &[
    "{}",
    r#"{"unit": "m", "mode": "fast", "pick": "a", "num": 1, "lit": null, "typed": 3, "refd": "km", "twice": 2}"#,
    r#"{"unit": "km", "mode": "slow", "pick": "c", "num": 2.50, "lit": false, "typed": "t", "refd": "mi"}"#,
    r#"{"unit": "mi", "mode": "safe", "num": "x", "refd": "m"}"#,
    r#"{"num": null, "typed": 4, "twice": 2.0}"#,
    r#"{"num": 1.0, "typed": 3.0}"#,
    r#"{"num": 25e-1, "unit": "km", "dup": 1}"#,
];

const DOCUMENTED_INVALID: &[&str] = &[
    r#"{"unit": "cm"}"#,
    r#"{"unit": "k"}"#,
    r#"{"unit": "kmm"}"#,
    r#"{"unit": null}"#,
    r#"{"unit": 1}"#,
    r#"{"mode": "fastest"}"#,
    r#"{"pick": "b"}"#,
    r#"{"pick": "d"}"#,
    r#"{"num": 2}"#,
    r#"{"num": "y"}"#,
    r#"{"num": true}"#,
    r#"{"lit": true}"#,
    r#"{"lit": "null"}"#,
    r#"{"typed": "s"}"#,
    r#"{"typed": 5}"#,
    r#"{"typed": "3"}"#,
    r#"{"refd": "cm"}"#,
    r#"{"twice": 1}"#,
    r#"{"twice": 1.0}"#,
    r#"{"twice": 3}"#,
    r#"{"dup": "a"}"#,
    r#"{"dup": null}"#,
];

#[test]
fn the_flat_reader_reads_unions_of_lists() {
    assert!(Stream::<Documented>::__flat());
    assert!(!Stream::<ListedLength>::__flat() && !Stream::<ListedArray>::__flat());
    texts::<Documented>(DOCUMENTED_VALID, DOCUMENTED_INVALID);
    // Escapes in members: compared on the characters they decode to.
    texts::<Documented>(&[r#"{"unit": "k\u006d", "pick": "\u0063"}"#], &[r#"{"unit": "k\u006e"}"#]);
    for text in [r#"{"u": "ab"}"#, r#"{"u": "abc"}"#, r#"{"u": "e"}"#] {
        all_cuts::<ListedLength>(text);
    }
    for text in [r#"{"u": [1]}"#, r#"{"u": "a"}"#, r#"{"u": [2]}"#] {
        all_cuts::<ListedArray>(text);
    }
    // Dead at the first character no member continues, and at a literal no branch lists.
    for (text, at) in [
        (r#"{"unit": "c"#, 10),
        (r#"{"unit": "kmm"#, 12),
        (r#"{"mode": "fastest"#, 14),
        (r#"{"num": t"#, 8),
        (r#"{"typed": "s"#, 11),
    ] {
        let Progress::Dead(d) = Documented::stream().feed(text.as_bytes()) else { panic!("{text}") };
        assert_eq!(d.offset, at, "{text}");
    }
    // A member two branches of a `oneOf` list: dead when it ends, not before.
    for text in [r#"{"pick": "b""#, r#"{"lit": true"#, r#"{"dup": "a""#] {
        dead_at_its_last_byte::<Documented>(text);
    }
}

/// `text` is alive up to its last byte, and dead there (fed in two fragments).
/// Raw byte texts (characters cut short, broken, overlong) fed in 1-, 2- and 3-byte fragments
/// and whole, each feed answered as the automaton alone answers it.
fn raw_parity<T: Tool>(texts: &[&[u8]]) {
    for bytes in texts {
        for chunks in [&[1][..], &[2], &[3], &[100]] {
            parity::<T>(bytes, chunks);
        }
    }
}

fn dead_at_its_last_byte<T: Tool>(text: &str) {
    let (head, last) = text.as_bytes().split_at(text.len() - 1);
    let mut s = T::stream();
    assert!(!s.feed(head).is_dead(), "{text}");
    let Progress::Dead(d) = s.feed(last) else { panic!("{text}: alive at its last byte") };
    assert_eq!(d.offset, text.len() - 1, "{text}");
}

#[test]
fn the_flat_reader_tells_unique_strings_apart() {
    assert!(Stream::<Unique>::__flat());
    // 40 names: the filter fills, and the array's scan function judges.
    let many: Vec<String> = (0..40).map(|i| format!("\"n{i}\"")).collect();
    let valid = [
        r#"{"names": [], "mixed": [], "rows": []}"#.to_owned(),
        r#"{"names": ["é", "e", "ée", "a b", ""], "rows": [["a"], ["a", "b"], []]}"#.to_owned(),
        r#"{"names": [ "a" , "b" ], "mixed": [1, "1", [1], {"a": 1}, null, true, false, 1.5, "2"]}"#.to_owned(),
        r#"{"mixed": [{"a": "x", "b": "y"}, {"b": "x", "a": "y"}], "names": ["\u0061", "b"]}"#.to_owned(),
        format!(r#"{{"names": [{}]}}"#, many.join(", ")),
    ];
    let invalid = [
        r#"{"names": ["a", "a"]}"#.to_owned(),
        r#"{"names": ["x", "y", "x"]}"#.to_owned(),
        r#"{"names": ["é", "é"]}"#.to_owned(),
        r#"{"names": ["a", "\u0061"]}"#.to_owned(),
        r#"{"names": [ "ab" , "ab" ]}"#.to_owned(),
        r#"{"names": ["a", 1]}"#.to_owned(),
        r#"{"mixed": [1, 1.0]}"#.to_owned(),
        r#"{"mixed": ["1", "1"]}"#.to_owned(),
        r#"{"mixed": [[1], [1]]}"#.to_owned(),
        r#"{"mixed": [{"a": "x", "b": "y"}, {"b": "y", "a": "x"}]}"#.to_owned(),
        r#"{"rows": [["a"], ["a"]]}"#.to_owned(),
        format!(r#"{{"names": [{}, "n0"]}}"#, many.join(", ")),
        format!(r#"{{"names": [{}, "n39"]}}"#, many.join(", ")),
    ];
    let valid: Vec<&str> = valid.iter().map(String::as_str).collect();
    let invalid: Vec<&str> = invalid.iter().map(String::as_str).collect();
    texts::<Unique>(&valid, &invalid);
}

const RULES_VALID: &[&str] = &[
    r#"{"path": "a"}"#,
    r#"{"url": "u", "card": "c", "billing": "b"}"#,
    r#"{"path": "a", "amount": 1, "unit": "m"}"#,
    r#"{"path": "a", "url": "u", "one": {"a": 1}}"#,
    r#"{"url": "u", "one": {"b": 2}, "billing": "x"}"#,
    r#"{"path": "a", "open": {"x": 1}}"#,
    r#"{"path": "a", "open": {"y": "z"}}"#,
    r#"{"path": "a", "open": {"y": "z", "x": 2, "w": "v"}}"#,
    r#"{"path": "a", "never": {"k": [1]}}"#,
    r#"{"path": "a", "either": {"j": 1}}"#,
];

const RULES_INVALID: &[&str] = &[
    "{}",
    r#"{"card": "c"}"#,
    r#"{"path": "a", "card": "c"}"#,
    r#"{"path": "a", "amount": 1}"#,
    r#"{"path": "a", "unit": "m"}"#,
    r#"{"path": "a", "one": {"a": 1, "b": 2}}"#,
    r#"{"path": "a", "one": {}}"#,
    r#"{"path": "a", "one": {"a": "x"}}"#,
    r#"{"path": "a", "open": {}}"#,
    r#"{"path": "a", "open": {"w": "v"}}"#,
    r#"{"path": "a", "open": {"y": 1}}"#,
    r#"{"path": "a", "never": {}}"#,
    r#"{"path": "a", "either": {"k": 1}}"#,
];

#[test]
fn the_flat_reader_judges_rules_on_names_where_the_object_closes() {
    assert!(Stream::<Rules>::__flat());
    assert!(!Stream::<RuleTyped>::__flat() && !Stream::<RuleUndeclared>::__flat() && !Stream::<RuleKind>::__flat());
    texts::<Rules>(RULES_VALID, RULES_INVALID);
    for text in [r#"{"a": "x"}"#, r#"{"a": "xy"}"#, r#"{}"#, r#"{"b": 1}"#] {
        all_cuts::<RuleTyped>(text);
        all_cuts::<RuleUndeclared>(text);
        all_cuts::<RuleKind>(text);
    }
    // Dead where the object closes, not before.
    dead_at_its_last_byte::<Rules>(r#"{"path": "a", "card": "c"}"#);
    // But where a key makes two `oneOf` branches of names sure of the object, at its closing
    // quote (as the automaton alone: the reader hands the text over there).
    for (text, key) in
        [(r#"{"path": "a", "one": {"a": 1, "b": 2}}"#, r#""b""#), (r#"{"path": "a", "either": {"k": 1}}"#, r#""k""#)]
    {
        let at = text.find(key).map(|i| i + key.len() - 1);
        let Progress::Dead(d) = Rules::stream().feed(text.as_bytes()) else { panic!("{text}: alive") };
        assert_eq!(Some(d.offset), at, "{text}");
        dead_at_its_last_byte::<Rules>(&text[..=at.unwrap_or(0)]);
    }
}

const MERGED_VALID: &[&str] = &[
    "{}",
    r#"{"item": {"id": 1, "price": 2.5}, "size": 9, "count": 100, "code": "AB", "num": 3, "tags": ["a", "b"]}"#,
    r#"{"item": {"price": 0, "id": -1, "name": "x", "other": [1]}, "size": 1.0, "count": 1, "code": "ABCD"}"#,
    r#"{"num": -4, "tags": [], "dep": {"a": 1, "b": 2}}"#,
    r#"{"dep": {"b": 1}}"#,
];

const MERGED_INVALID: &[&str] = &[
    r#"{"item": {"id": 1}}"#,
    r#"{"item": {"price": 1}}"#,
    r#"{"item": {"id": "1", "price": 1}}"#,
    r#"{"item": {"id": 1, "price": -1}}"#,
    r#"{"item": {"id": 1, "price": 1, "name": 2}}"#,
    r#"{"size": 0}"#,
    r#"{"size": 10}"#,
    r#"{"size": 1.5}"#,
    r#"{"size": "1"}"#,
    r#"{"count": 0}"#,
    r#"{"count": 101}"#,
    r#"{"code": "ab"}"#,
    r#"{"code": "ABCDE"}"#,
    r#"{"code": 1}"#,
    r#"{"num": 1.5}"#,
    r#"{"num": null}"#,
    r#"{"num": "three"}"#,
    r#"{"tags": ["a", "a"]}"#,
    r#"{"tags": ["a", "b", "c"]}"#,
    r#"{"tags": [1]}"#,
    r#"{"dep": {"a": 1}}"#,
];

#[test]
fn the_flat_reader_reads_all_ofs_whose_parts_merge() {
    assert!(Stream::<Merged>::__flat());
    texts::<Merged>(MERGED_VALID, MERGED_INVALID);
    assert!(!Stream::<Overlapping>::__flat());
    assert!(!Stream::<ClosedPart>::__flat() && !Stream::<SameName>::__flat() && !Stream::<TwoMaxima>::__flat());
    assert!(!Stream::<InPlacePart>::__flat() && Stream::<FalsePart>::__flat() && !Stream::<GenericPart>::__flat());
    for text in [r#"{"u": [2]}"#, r#"{"u": [2, 1]}"#, r#"{"u": []}"#] {
        all_cuts::<GenericPart>(text);
    }
    for text in [r#"{"u": "ab"}"#, r#"{"u": "a"}"#, r#"{"u": "abc"}"#] {
        all_cuts::<InPlacePart>(text);
        all_cuts::<FalsePart>(text);
    }
    for text in [
        r#"{"twice": 4}"#,
        r#"{"twice": 3}"#,
        r#"{"closed": {"a": 1, "b": 2}}"#,
        r#"{"closed": {"a": 1}}"#,
        r#"{"same": {"a": "abc"}}"#,
        r#"{"same": {"a": "ab"}}"#,
    ] {
        all_cuts::<Overlapping>(text);
    }
    // Dead where a part is: a fifth character, a `-` under a `minimum` of 1, a `.` in an integer
    // only where the number ends.
    for (text, at) in [(r#"{"code": "ABCDE"#, 14), (r#"{"count": -"#, 10), (r#"{"code": "a"#, 10)] {
        let Progress::Dead(d) = Merged::stream().feed(text.as_bytes()) else { panic!("{text}") };
        assert_eq!(d.offset, at, "{text}");
    }
}

const KEYED_VALID: &[&str] = &[
    r#"{"filter": {"field": "region", "equals": "EU"}}"#,
    r#"{"filter": {"equals": "EU", "field": "region"}}"#,
    r#"{"filter": {"min_value": 1.5, "max_value": 2}, "target": null}"#,
    r#"{"filter": {"min": -3}, "target": "main", "either": {"a": 1}}"#,
    r#"{"target": {"id": 7}, "either": {"b": 2}}"#,
    r#"{"target": {"name": "x", "page": {"n": 2}}, "either": {"b": 0}}"#,
    r#"{"target": {"page": {"after": "c2"}, "name": "x"}}"#,
    r#"{"target": {"name": "x", "page": {}}}"#,
    r#" { "filter" : { "max_value" : 1 , "min_value" : 0 } } "#,
];

const KEYED_INVALID: &[&str] = &[
    r#"{"filter": {}}"#,
    r#"{"filter": {"field": "region"}}"#,
    r#"{"filter": {"field": "region", "equals": "EUR!"}}"#,
    r#"{"filter": {"field": "a", "equals": "b", "min": 1}}"#,
    r#"{"filter": {"max_value": 2}}"#,
    r#"{"filter": {"min_value": 1, "min_value": 2}}"#,
    r#"{"filter": {"min": 1.5}}"#,
    r#"{"filter": {"mi": 1}}"#,
    r#"{"filter": {"minimum": 1}}"#,
    r#"{"filter": {"other": 1}}"#,
    r#"{"filter": {"min": 1, "min_value": 1}}"#,
    r#"{"filter": {"min_value": 1, "min": 1}}"#,
    r#"{"filter": []}"#,
    r#"{"filter": null}"#,
    r#"{"target": "toolong"}"#,
    r#"{"target": {}}"#,
    r#"{"target": {"id": 0}}"#,
    r#"{"target": {"id": 1, "name": "x"}}"#,
    r#"{"target": {"name": "x"}}"#,
    r#"{"target": {"name": "x", "page": {"n": 1, "after": "b"}}}"#,
    r#"{"target": {"name": "x", "page": {"n": "1"}}}"#,
    r#"{"target": 1}"#,
    r#"{"either": {}}"#,
    r#"{"either": {"a": 1, "b": 2}}"#,
    r#"{"either": {"c": 1}}"#,
];

const SHARED_VALID: &[&str] = &[
    r#"{"action": {"kind": "move", "id": 3, "to": "b"}}"#,
    r#"{"action": {"id": 3, "to": "b", "kind": "move"}}"#,
    r#"{"action": {"id": 1, "kind": "delete", "force": true}}"#,
    r#"{"action": {"force": false, "id": 1, "kind": "delete"}}"#,
    r#"{"action": {"kind": "link"}}"#,
    r#"{"action": {"to": "abc", "kind": "copy", "id": 9}}"#,
    r#"{"search": {"query": "a"}}"#,
    r#"{"search": {"limit": 3, "url": "u"}}"#,
    r#"{"search": {"query": "a", "url": "b", "limit": 1}}"#,
    r#"{"search": {"limit": 1, "extra": [1, {"x": null}], "query": "x"}}"#,
    r#"{"pair": {"a": 1, "b": 2}}"#,
    r#"{"pair": {"b": 2, "a": 1}}"#,
    r#"{"pair": {}}"#,
    r#"{"pair": {"c": 1}}"#,
    r#"{"tagged": {"v": 1, "t": "x"}}"#,
    r#"{"tagged": {"w": "s", "u": "v", "t": "y"}}"#,
    r#"{"tagged": {"t": "x", "w": "s", "u": "z"}}"#,
    r#"{"tagged": {"t": "x", "u": "z"}}"#,
    r#"{"tagged": null, "typed": {"n": 1, "s": "x"}}"#,
    r#"{"typed": {"m": 1}}"#,
    // A name the branches give different subschemas, read as the branch its tag picked gives it
    // (free in the open branch, which does not declare it).
    r#"{"tv": {"kind": "int", "value": 5}}"#,
    r#"{"tv": {"kind": "str", "value": "abc"}}"#,
    r#"{"tv": {"kind": "any", "value": [1, {"a": null}]}}"#,
    r#"{"tv": {"kind": "any", "other": 1}}"#,
    // An open branch takes a tag it does not declare, whatever its value.
    r#"{"loose": {"z": 1, "t": "x"}}"#,
    r#"{"loose": {"t": "y"}}"#,
    r#"{"loose": {"v": 2, "z": 0, "t": "y"}}"#,
    r#" { "action" : { "id" : 2 , "kind" : "delete" } , "pair" : { "z" : 0 } } "#,
];

const SHARED_INVALID: &[&str] = &[
    r#"{"action": {"id": 3, "to": "b"}}"#,
    r#"{"action": {"id": 3, "kind": "move"}}"#,
    r#"{"action": {"force": true, "kind": "move", "id": 1, "to": "x"}}"#,
    r#"{"action": {"to": "b", "kind": "delete", "id": 1}}"#,
    r#"{"action": {"id": 0, "kind": "delete"}}"#,
    r#"{"action": {"kind": "link", "to": "toolong"}}"#,
    r#"{"action": {"kind": "paste"}}"#,
    r#"{"action": {"kind": "mov"}}"#,
    r#"{"action": {"other": 1}}"#,
    r#"{"action": {"id": 1, "id": 1, "kind": "delete"}}"#,
    r#"{"action": {"kind": "delete", "kind": "delete", "id": 1}}"#,
    r#"{"action": {}}"#,
    r#"{"action": []}"#,
    r#"{"search": {"limit": 2}}"#,
    r#"{"search": {"query": 1}}"#,
    r#"{"search": {"query": "q", "limit": "x"}}"#,
    r#"{"search": {}}"#,
    r#"{"pair": {"a": 1}}"#,
    r#"{"pair": {"b": 2}}"#,
    r#"{"pair": {"c": 1, "d": 2}}"#,
    r#"{"pair": {"a": 1, "b": 2, "c": 3}}"#,
    r#"{"pair": {"a": "x", "b": 1}}"#,
    r#"{"tagged": {"v": 1, "t": "y"}}"#,
    r#"{"tagged": {"t": "y", "v": 1}}"#,
    r#"{"tagged": {"v": 1, "w": "s", "t": "x"}}"#,
    r#"{"tagged": {"w": "s", "t": "y"}}"#,
    r#"{"tagged": {"t": "x", "w": "s"}}"#,
    r#"{"tagged": {"v": 1}}"#,
    r#"{"tagged": {"t": "z"}}"#,
    r#"{"tagged": {"t": "x", "v": "1"}}"#,
    r#"{"tagged": 1}"#,
    r#"{"typed": {"n": 1, "m": 2}}"#,
    r#"{"typed": {"n": 1, "s": 2}}"#,
    r#"{"typed": {}}"#,
    r#"{"tv": {"kind": "int", "value": "5"}}"#,
    r#"{"tv": {"value": 5, "kind": "str"}}"#,
    r#"{"tv": {"kind": "int2", "value": "x"}}"#,
    r#"{"tv": {"kind": "int", "value": 10}}"#,
    r#"{"tv": {"kind": "str", "value": "abcd"}}"#,
    r#"{"tv": {"kind": "str"}}"#,
    r#"{"tv": {"kind": "int", "value": 1, "x": 2}}"#,
    r#"{"loose": {"t": "q"}}"#,
    r#"{"loose": {"z": "1"}}"#,
    r#"{"loose": {"v": 1}}"#,
    r#"{"loose": {"t": "y", "v": 1}}"#,
    r#"{"typed": null}"#,
];

#[test]
fn the_flat_reader_reads_unions_of_objects_that_share_names() {
    assert!(Stream::<Shared>::__flat());
    texts::<Shared>(SHARED_VALID, SHARED_INVALID);
    // A tag's value no branch declares, valid in the open branch: the automaton's (the reader
    // reads a tag as one of the members some branch declares).
    let text = r#"{"loose": {"z": 1, "t": "q"}}"#;
    assert!(Shared::is_valid_json(text) && !all_cuts::<Shared>(text));
    // A name the branches alive give different subschemas (before the tag): the automaton's.
    let text = r#"{"tv": {"value": 5, "kind": "int"}}"#;
    assert!(Shared::is_valid_json(text) && !all_cuts::<Shared>(text));
    // Dead as soon as the automaton: a tag's first character no branch alive takes, a name no
    // branch alive declares (the open one dead at the `,` past its `maxProperties`), a member
    // past every branch's `maxProperties`.
    for text in [
        r#"{"tagged": {"v": 1, "t": "y"#,
        r#"{"action": {"force": true, "t"#,
        r#"{"action": {"kind": "move", "f"#,
        r#"{"pair": {"c": 1,"#,
        r#"{"pair": {"b": 2, "c"#,
        r#"{"action": {"kind": "p"#,
        r#"{"tv": {"kind": "str", "value": "abcd"#,
    ] {
        dead_at_its_last_byte::<Shared>(text);
    }
    // An undeclared name beyond ASCII: the open branch's while it is alive, dead at its first
    // byte once the open branch died (at the `,` past its `maxProperties`).
    texts::<Shared>(&[r#"{"pair": {"é": 1}}"#], &[r#"{"pair": {"a": 1, "é": 2}}"#, r#"{"pair": {"é": 1, "b": 2}}"#]);
    let mut s = Shared::stream();
    assert!(!s.feed(br#"{"pair": {"a": 1, ""#).is_dead());
    let Progress::Dead(d) = s.feed(&[0xC3]) else { panic!("no branch alive takes an undeclared name") };
    assert_eq!(d.offset, 19);
    // Open branches with different undeclared members, or that take a declared name as theirs:
    // not flat.
    assert!(!Stream::<OtherExtras>::__flat() && !Stream::<TakenAsExtra>::__flat());
    assert!(!Stream::<RuleOnUndeclared>::__flat());
    for text in [r#"{"r": {"a": 1, "q": 2}}"#, r#"{"r": {"a": 1}}"#, r#"{"r": {"b": 1}}"#] {
        all_cuts::<RuleOnUndeclared>(text);
    }
    // Objects read as the branches without a `type` have them; any other value is the
    // automaton's (valid in an `anyOf` of such branches; in a `oneOf` beside `null`, `null` is
    // valid in two branches).
    assert!(Stream::<Untyped>::__flat());
    texts::<Untyped>(
        &[r#"{"u": {"a": 1, "k": "x"}}"#, r#"{"u": {"k": "y"}}"#],
        &[r#"{"u": {"k": "y", "a": 1}}"#, r#"{"u": {}}"#],
    );
    for text in [r#"{"u": 5}"#, r#"{"u": null}"#] {
        assert!(Untyped::is_valid_json(text) && !all_cuts::<Untyped>(text));
    }
    for text in [r#"{"n": null}"#, r#"{"n": {"a": 1}}"#, r#"{"n": {"b": 1}}"#, r#"{"n": 5}"#] {
        all_cuts::<UntypedNull>(text);
    }
    // A `null` the union's `type` does not take: dead at its first byte.
    for text in [r#"{"t": null}"#, r#"{"t": {"a": 1}}"#, r#"{"t": "s"}"#, r#"{"t": {"b": 2}}"#] {
        all_cuts::<TypedUnion>(text);
        all_cuts::<KindsUnion>(text);
    }
    for text in [r#"{"u": {"a": 1, "c": "x"}}"#, r#"{"u": {"b": 1}}"#, r#"{"u": {"c": true}}"#, r#"{"u": {}}"#] {
        all_cuts::<OtherExtras>(text);
    }
    for text in [r#"{"u": {"a": 1}}"#, r#"{"u": {"a": "x", "b": 2}}"#, r#"{"u": {"b": 1, "a": 2}}"#] {
        all_cuts::<TakenAsExtra>(text);
    }
}

#[test]
fn the_flat_reader_reads_keyed_unions_of_objects() {
    assert!(Stream::<Keyed>::__flat() && Stream::<RootKeyed>::__flat());
    texts::<Keyed>(KEYED_VALID, KEYED_INVALID);
    texts::<RootKeyed>(
        &[r#"{"url": "https://example.com"}"#, r#"{"lines": 3, "path": "a.rs"}"#],
        &[r#"{}"#, r#"{"lines": 3}"#, r#"{"url": "a", "path": "b"}"#, r#"{"path": "a", "lines": 0}"#, r#"[]"#],
    );
    // A branch that takes undeclared names, one that takes no member, an open one beside
    // keyed ones: flat too, the branches alive followed as names come.
    assert!(Stream::<OpenBranch>::__flat() && Stream::<NoMembers>::__flat() && Stream::<Crowded>::__flat());
    texts::<OpenBranch>(
        &[
            r#"{"u": {"a": 1}}"#,
            r#"{"u": {"b": 1, "c": 2}}"#,
            r#"{"u": {"c": 2, "b": 1}}"#,
            r#"{"u": {"a": 1, "b": 2}}"#,
        ],
        &[r#"{"u": {"a": 1, "c": 2}}"#, r#"{"u": {}}"#, r#"{"u": {"c": 1}}"#, r#"{"u": {"b": 1, "a": 2, "b": 3}}"#],
    );
    texts::<NoMembers>(&[r#"{"u": {}}"#, r#"{"u": {"b": 1}}"#], &[r#"{"u": {"a": 1}}"#, r#"{"u": {"c": 1}}"#]);
    texts::<Crowded>(
        &[r#"{"u": {"a": 1}}"#, r#"{"u": {"c": 1, "d": 2}}"#, r#"{"u": {"a": 1, "b": 2}}"#],
        &[r#"{"u": {"c": 1}}"#, r#"{"u": {}}"#, r#"{"u": {"a": "x"}}"#],
    );
    // A value that fails the subschema of the branch that declares its name, valid in an open
    // one: the automaton's (the reader reads a name's value by its declared subschema).
    let text = r#"{"u": {"c": 1, "b": "x"}}"#;
    assert!(Crowded::is_valid_json(text) && !all_cuts::<Crowded>(text));
    // A name two branches declare with different subschemas (not tags): read as the branches
    // alive give it; while both are, the automaton reads its value.
    assert!(Stream::<SharedNames>::__flat());
    texts::<SharedNames>(
        &[r#"{"u": {"b": 2, "a": 1}}"#, r#"{"u": {}}"#],
        &[
            r#"{"u": {"b": 2, "a": "x"}}"#,
            r#"{"u": {"b": 1}}"#,
            r#"{"u": {"b": 1, "c": 2}}"#,
            r#"{"u": {"b": 1, "b": 1}}"#,
        ],
    );
    for text in [r#"{"u": {"a": 1, "b": 2}}"#, r#"{"u": {"a": "x", "b": 2}}"#, r#"{"u": {"a": "x"}}"#] {
        assert!(!all_cuts::<SharedNames>(text), "{text}");
    }
    // Dead as soon as the automaton: a key no branch declares, one the picked branch does not,
    // a member past the picked branch's `maxProperties`.
    for (text, at) in
        [(r#"{"filter": {"x"#, 13), (r#"{"filter": {"field": "a", "m"#, 27), (r#"{"filter": {"min": 1,"#, 20)]
    {
        let Progress::Dead(d) = Keyed::stream().feed(text.as_bytes()) else { panic!("{text}") };
        assert_eq!(d.offset, at, "{text}");
    }
}

#[test]
fn the_flat_reader_reads_names_and_enum_strings_beyond_ascii() {
    assert!(Stream::<Wide>::__flat() && Stream::<WideOpen>::__flat());
    texts::<Wide>(
        &[
            r#"{"unit": "°C", "lang": "日本語", "sym": "≥"}"#,
            r#"{"größe": 3, "grün": true, "gr": "ß", "unit": "K"}"#,
            r#"{"lang": "español", "unit": "°F", "capped": "e"}"#,
            r#"{"unit":"°C","lang":"fr"}"#,
        ],
        &[
            r#"{"unit": "°X"}"#,
            r#"{"unit": "°"}"#,
            r#"{"unit": "°CC"}"#,
            r#"{"unit": "C"}"#,
            r#"{"unit": "K", "lang": "日本"}"#,
            r#"{"unit": "K", "lang": "日本語語"}"#,
            r#"{"unit": "K", "lang": "françai"}"#,
            r#"{"unit": "K", "sym": "≤"}"#,
            r#"{"unit": "K", "größe": 3, "größe": 4}"#,
            r#"{"unit": "K", "größe": -1}"#,
            r#"{"unit": "K", "grüne": true}"#,
            r#"{"unit": "K", "grö": 1}"#,
            r#"{"unit": "K", "grün": 1}"#,
            r#"{"unit": "K", "capped": "ée"}"#,
            r#"{"unit": "K", "floor": "é"}"#,
            r#"{"grün": true}"#,
        ],
    );
    // Dead at the byte where no member or name goes on: the last byte of `≤`, the byte after a
    // multi-byte character, an undeclared name's byte beyond ASCII.
    for text in [r#"{"unit": "K", "sym": "≤"#, r#"{"unit": "°X"#, r#"{"unit": "K", "grä"#] {
        dead_at_its_last_byte::<Wide>(text);
    }
    // Multi-byte characters in a string with a `minLength` or a `maxLength`: the automaton's.
    texts::<Wide>(&[r#"{"unit": "\u00b0C"}"#, r#"{"unit": "K", "gr\u00fcn": true}"#], &[r#"{"unit": "\u00b0c"}"#]);
    for text in [r#"{"unit": "K", "capped": "é"}"#, r#"{"unit": "K", "floor": "éé"}"#] {
        assert!(Wide::is_valid_json(text) && !all_cuts::<Wide>(text), "{text}");
    }
    texts::<WideOpen>(
        &[r#"{"größe": 1, "grün": false, "x": "ü"}"#, r#"{"x": "y"}"#],
        &[r#"{"größe": "1"}"#, r#"{"grün": true, "grün": true}"#, r#"{"x": 1}"#],
    );
    // Undeclared names beyond ASCII (since stop 47; the automaton's before): their characters
    // checked as UTF-8, a repeat found where it closes.
    texts::<WideOpen>(
        &[
            r#"{"grüne": "x"}"#,
            r#"{"größe": 1, "été": "x"}"#,
            r#"{"größ": "x", "größer": "y", "grün": true}"#,
            r#"{"日本語": "x", "😀": "y", "€": ""}"#,
            r#"{"été2": "y", "ét": "x"}"#,
        ],
        &[
            r#"{"grüne": 1}"#,
            r#"{"été": "x", "été": "y"}"#,
            r#"{"été": "x", "größe": 2, "été": "y"}"#,
            r#"{"größ": "x", "größe": 1, "größ": "z"}"#,
            r#"{"日本語": "x", "日本": "y", "日本語": "z"}"#,
            r#"{"été2": "y", "ét": "x", "ét\u00e9": 1}"#,
        ],
    );
    // Escaped undeclared names (since stop 47), compared and hashed as the names they decode
    // to.
    texts::<WideOpen>(
        &[r#"{"\u00e9t\u00e9": "x", "\u00e9t\u00e8": "y"}"#, r#"{"gr\u00f6\u00dfer": "x", "gr\u00fcn": false}"#],
        &[
            r#"{"été": "x", "\u00e9t\u00e9": "y"}"#,
            r#"{"\u00e9t\u00e9": "x", "été": "y"}"#,
            r#"{"gr\u00fcn": false, "grün": true}"#,
            r#"{"grün": false, "gr\u00fcn": true}"#,
            r#"{"gr\u00fcn": "x"}"#,
        ],
    );
    // Characters cut short in a name or a member, a continuation byte too many, overlong,
    // beyond U+10FFFF, a surrogate, a quote or a plain byte where a continuation byte is due: each
    // feed answered as the automaton answers it.
    let cut: [&[u8]; 14] = [
        b"{\"x\xC3\\u00e9\": \"a\"}",
        b"{\"gr\xC3x\": \"a\"}",
        b"{\"\xC3\": \"a\"}",
        b"{\"gr\xC3\xBC\xBCn\": true}",
        b"{\"unit\": \"\xC2C\"}",
        b"{\"unit\": \"\xC2\xB0\xB0C\"}",
        b"{\"x\xE6\x97\": \"a\"}",
        b"{\"x\xE0\x80\x80\": \"a\"}",
        b"{\"x\xC0\xAF\": \"a\"}",
        b"{\"x\xF4\x90\x80\x80\": \"a\"}",
        b"{\"x\xED\xA0\x80\": \"a\"}",
        b"{\"x\xF0\x9F\x98\x80\xBF\": \"a\"}",
        b"{\"\xE6\x97\xA5\xE6\x9C\": \"a\"}",
        b"{\"x\xFF\": \"a\"}",
    ];
    raw_parity::<Wide>(&cut);
    raw_parity::<WideOpen>(&cut);
}

#[test]
fn the_flat_reader_judges_not_where_a_string_or_number_ends() {
    assert!(Stream::<Negated>::__flat());
    texts::<Negated>(
        &[
            r#"{"size": 12, "code": "OK", "ratio": 0.7, "word": "yes", "tag": "c", "mixed": 5, "nothing": ""}"#,
            r#"{"mixed": "x", "size": 14, "code": "NON"}"#,
            r#"{"ratio": -1e-3, "mixed": "15", "word": "ax"}"#,
            r#"{"size": 130, "ratio": 0.61}"#,
        ],
        &[
            r#"{"size": 13}"#,
            r#"{"size": 1.3e1}"#,
            r#"{"size": 0}"#,
            r#"{"size": "13"}"#,
            r#"{"code": "NONE"}"#,
            r#"{"code": "N/A"}"#,
            r#"{"code": "TOOLONG"}"#,
            r#"{"ratio": 0.55}"#,
            r#"{"ratio": 5e-1}"#,
            r#"{"word": "xy"}"#,
            r#"{"tag": "b"}"#,
            r#"{"tag": "d"}"#,
            r#"{"mixed": 10}"#,
            r#"{"mixed": true}"#,
        ],
    );
    // `mixed`'s `not` may be sure of a number once its exponent settles it (`1e+2` is an
    // integer of at least 10 whatever follows): in such a tool, a number is handed over to the
    // automaton at the bytes of its positive exponent that move it, valid or not, and every
    // answer is still the automaton's.
    for (text, valid) in [
        (r#"{"ratio": -1e3, "mixed": "15", "word": "ax"}"#, true),
        (r#"{"ratio": 1e+0}"#, true),
        (r#"{"mixed": 1e+1}"#, false),
    ] {
        assert_eq!(Negated::is_valid_json(text), valid, "{text}");
        assert!(!all_cuts::<Negated>(text), "{text}");
    }
    let Progress::Dead(d) = Negated::stream().feed(br#"{"mixed": 1e+1"#) else { panic!("alive") };
    assert_eq!(d.offset, 13);
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("not"));
    // Dead where the value ends, not before.
    for text in [r#"{"size": 13,"#, r#"{"code": "NONE""#, r#"{"tag": "b""#, r#"{"ratio": 0.5 "#, r#"{"word": "x""#] {
        dead_at_its_last_byte::<Negated>(text);
    }
    assert!(!Stream::<NegatedLiteral>::__flat() && Stream::<NegatedAll>::__flat());
    assert!(!Stream::<NegatedUntyped>::__flat());
    for text in [r#"{"b": true}"#, r#"{"b": false}"#] {
        all_cuts::<NegatedLiteral>(text);
    }
    for text in [r#"{"s": "a"}"#, r#"{"s": 1}"#] {
        all_cuts::<NegatedAll>(text);
        all_cuts::<NegatedUntyped>(text);
    }
}

/// A tree `levels` deep (each node's only child the next).
fn deep_tree(levels: usize) -> String {
    let mut text = String::from(r#"{"name": "leaf"}"#);
    for i in 1..levels {
        text = format!(r#"{{"name": "n{i}", "children": [{text}]}}"#);
    }
    text
}

#[test]
fn the_flat_reader_reads_schemas_that_refer_to_themselves() {
    assert!(Stream::<Tree>::__flat() && Stream::<Query>::__flat());
    let shallow = deep_tree(4);
    texts::<Tree>(
        &[
            r#"{"name": "root"}"#,
            r#"{"name": "a", "children": [{"name": "b"}, {"name": "c", "children": []}]}"#,
            &shallow,
        ],
        &[
            r#"{"name": "a", "children": [{"name": "b", "children": [{"name": "too long a name"}]}]}"#,
            r#"{"name": "a", "children": [{"nam": "b"}]}"#,
            r#"{"name": "a", "children": [{}, {"name": "c"}]}"#,
            r#"{"name": "a", "children": [{"name": "b"}, {"name": "c"}, {"name": "d"}, {"name": "e"}]}"#,
            r#"{"name": "a", "children": [{"name": "b", "children": [{"name": "c", "extra": 1}]}]}"#,
        ],
    );
    // As deep as the reader's stack goes, it reads; deeper, the automaton reads the text (each
    // feed answered as the automaton alone answers it).
    let deep = deep_tree(12);
    assert!(Tree::is_valid_json(&deep) && !all_cuts::<Tree>(&deep));
    let bad = deep.replacen("leaf", "leaf but far too long", 1);
    assert!(!Tree::is_valid_json(&bad));
    all_cuts::<Tree>(&bad);
    texts::<Query>(
        &[
            r#"{"table": "users"}"#,
            r#"{"table": "users", "where": {"field": "age", "op": "gt", "value": 30}, "limit": 10}"#,
            r#"{"table": "t", "where": {"and": [{"field": "name", "op": "eq", "value": "ann"}, {"not": {"field": "age", "op": "lt", "value": 18}}]}}"#,
            r#"{"table": "t", "where": {"not": {"not": {"and": [{"and": [{"field": "age", "op": "eq", "value": 1}]}]}}}}"#,
        ],
        &[
            r#"{"table": "t", "where": {"and": []}}"#,
            r#"{"table": "t", "where": {"field": "age", "op": "ge", "value": 1}}"#,
            r#"{"table": "t", "where": {"not": {"field": "age", "op": "eq"}}}"#,
            r#"{"table": "t", "where": {"and": [{"not": {"field": "size", "op": "eq", "value": 1}}]}}"#,
            r#"{"table": "t", "where": {"and": [{"field": "age", "op": "eq", "value": true}]}}"#,
            r#"{"table": "t", "where": {"not": {"and": [{"field": "age", "op": "eq", "value": 1}], "not": {"and": []}}}}"#,
            r#"{"table": "t", "where": {"and": [{"field": "age", "op": "eq", "value": 1, "x": 2}]}}"#,
        ],
    );
    assert!(Stream::<TwoPlaces>::__flat());
    assert_eq!(Stream::<TwoPlaces>::__reader_size(), Stream::<TwoPlacesInline>::__reader_size());
    assert!(Stream::<Tree>::__reader_size() > Stream::<TwoPlaces>::__reader_size());
    assert!(Stream::<Nest>::__flat());
    texts::<Nest>(
        &[r#"{"a": [{"a": []}, [{"n": 1}]]}"#, r#"[[], {"a": {"a": [[{}]]}}]"#, "{}", "[]"],
        &[
            r#"{"a": [1]}"#,
            r#"[{"a": [[], [], []]}]"#,
            r#"[{"b": {}}]"#,
            r#"{"a": {"n": "1"}}"#,
            r#"{"a": {"list": [1, 2]}}"#,
        ],
    );
    // Dead at the automaton's byte, inside the recursion: a name no branch alive declares.
    for text in [
        r#"{"table": "t", "where": {"not": {"and": [{"x"#,
        r#"{"table": "t", "where": {"and": [{"field": "age", "op": "ge"#,
    ] {
        dead_at_its_last_byte::<Query>(text);
    }
}

#[test]
fn the_flat_reader_steps_patterns_over_characters_beyond_ascii() {
    assert!(Stream::<WidePatterns>::__flat());
    texts::<WidePatterns>(
        &[
            r#"{"title": "Café ☕", "name": "José María", "greek": "αβγ"}"#,
            r#"{"word": "résumé", "short": "日本語", "title": "x"}"#,
            r#"{"short": "a😀", "word": "é", "name": "Ωmega"}"#,
            r#"{"word": "éé日本語 and more"}"#,
        ],
        &[
            r#"{"title": "Café <"}"#,
            r#"{"title": "Café ☕☕☕☕"}"#,
            r#"{"name": "José  María"}"#,
            r#"{"name": "José1"}"#,
            r#"{"greek": "αβγδ"}"#,
            r#"{"greek": "αb"}"#,
            r#"{"word": "resume"}"#,
            r#"{"short": "日本語x"}"#,
            r#"{"short": ""}"#,
        ],
    );
    dead_at_its_last_byte::<WidePatterns>(r#"{"short": "日本語x"#);
    // Dead at a character's first byte: the ninth character of a `maxLength` of 8, a fourth
    // Greek letter where `$` must follow.
    for (head, lead) in [(r#"{"title": "Café ☕☕☕"#, 0xE2), (r#"{"greek": "αβγ"#, 0xCE)] {
        let mut s = WidePatterns::stream();
        assert!(!s.feed(head.as_bytes()).is_dead(), "{head}");
        let Progress::Dead(d) = s.feed(&[lead]) else { panic!("{head}: alive at {lead:#x}") };
        assert_eq!(d.offset, head.len(), "{head}");
    }
    // A Greek letter's first byte is alive where the class's letters begin with it, and its
    // last byte decides.
    dead_at_its_last_byte::<WidePatterns>(r#"{"greek": "αϑ"#);
    // Characters cut short, or with a byte too many: each feed as the automaton answers it.
    let cut: [&[u8]; 5] = [
        b"{\"title\": \"caf\xE0\x80\x80\"}",
        b"{\"title\": \"caf\xC3\"}",
        b"{\"title\": \"caf\xC3x\"}",
        b"{\"greek\": \"\xCE\xB1\xB1\xCE\xB2\"}",
        b"{\"word\": \"\xC3\xA9\xC3\"}",
    ];
    raw_parity::<WidePatterns>(&cut);
}

#[test]
fn the_flat_reader_reads_escapes_in_enum_strings_and_closed_keys() {
    assert!(Stream::<Escaped>::__flat() && Stream::<EscapedOpen>::__flat());
    texts::<Escaped>(
        &[
            r#"{"mark": "a\"b"}"#,
            r#"{"mark": "tab\there", "\u00e9": 1}"#,
            r#"{"mark": "\u00e9", "a\"b": true}"#,
            r#"{"mark": "\ud83d\udca9"}"#,
            r#"{"mark": "\uD83D\uDCA9", "\u00E9": 2}"#,
            r#"{"mark": "back\\slash"}"#,
            r#"{"mark": "x\/y"}"#,
            r#"{"mark": "\u0061\u0022b"}"#,
            r#"{"\u0061\"b": false, "mark": "💩"}"#,
        ],
        &[
            r#"{"mark": "a\"c"}"#,
            r#"{"mark": "\u00e8"}"#,
            r#"{"mark": "\ud83d\udca8"}"#,
            r#"{"mark": "\ud83d"}"#,
            r#"{"mark": "\ud83dx"}"#,
            r#"{"mark": "\udca9"}"#,
            r#"{"mark": "tab\nhere"}"#,
            r#"{"mark": "\u00e9\u00e9"}"#,
            r#"{"mark": "\q"}"#,
            r#"{"mark": "\u00G9"}"#,
            r#"{"mark": "\"}"#,
            r#"{"\u00e9": 1, "é": 2}"#,
            r#"{"é": 1, "\u00e9": 2}"#,
            r#"{"\u00e8": 1}"#,
            r#"{"a\"b": 1}"#,
        ],
    );
    // Dead at the digit that leaves no member: a unit's third digit, a `\u` escape's last, a low
    // surrogate's second.
    for text in [r#"{"mark": "\u00e8"#, r#"{"mark": "\u01"#, r#"{"mark": "\ud83d\udca8"#, r#"{"mark": "\ud83d\ude"#] {
        dead_at_its_last_byte::<Escaped>(text);
    }
    // An escape in a string with a `maxLength`: the automaton's.
    for text in [r#"{"lim": "\u00e9"}"#, r#"{"lim": "\u0061"}"#] {
        assert!(Escaped::is_valid_json(text) && !all_cuts::<Escaped>(text), "{text}");
    }
    // Escapes in an open object's keys (since stop 47): a declared name's narrowed as in a
    // closed object, an undeclared one's repeat found where it closes.
    texts::<EscapedOpen>(
        &[
            r#"{"\u00e9": 1}"#,
            r#"{"x\u00e9": "y", "\u00e9": 2, "x\u00e8": "z"}"#,
            r#"{"a\"b": "y", "a\\b": "z", "a\/b": "w", "\ud83d\ude00": "v", "\n\t": ""}"#,
        ],
        &[
            r#"{"\u00e9": 1, "é": 2}"#,
            r#"{"é": 1, "\u00e9": 2}"#,
            r#"{"\u00e9": "1"}"#,
            r#"{"\u00e9x": "a", "\u00E9x": "b"}"#,
            r#"{"éx": "a", "\u00e9x": "b"}"#,
            r#"{"a/b": "a", "a\/b": "b"}"#,
            r#"{"x\q": "a"}"#,
            r#"{"x\ud83d": "a"}"#,
            r#"{"x\ud83dx": "a"}"#,
            r#"{"x\ude00": "a"}"#,
            r#"{"x\u00": "a"}"#,
            r#"{"x\u00e9": 1}"#,
        ],
    );
}

#[test]
fn the_flat_reader_reads_pattern_properties() {
    assert!(Stream::<Labeled>::__flat());
    assert!(!Stream::<TwoPatterns>::__flat() && !Stream::<NamePatterned>::__flat());
    texts::<Labeled>(
        &[
            r#"{"name": "web", "labels": {"app": "nginx", "tier": "front", "Kind": "a"}}"#,
            r#"{"labels": {}, "wide": {}, "ext": {}}"#,
            r#"{"labels": {"a_1": "", "Kind": "b", "zz": "x", "k": "y"}}"#,
            r#"{"wide": {"été": true, "日本": false, "Ωmega": true}}"#,
            r#"{"ext": {"x-rate": 5, "id": 1, "other": "s", "x-": 0, "x": "y"}}"#,
            r#"{"ext": {"\u0078-a": 1, "\u0069d": 2, "\u0069": "i"}}"#,
        ],
        &[
            r#"{"labels": {"App": "x"}}"#,
            r#"{"labels": {"app": "toolongvalue"}}"#,
            r#"{"labels": {"app": 1}}"#,
            r#"{"labels": {"app": "x", "app": "y"}}"#,
            r#"{"labels": {"a-b": "x"}}"#,
            r#"{"labels": {"": "x"}}"#,
            r#"{"labels": {"Kin": "x"}}"#,
            r#"{"labels": {"Kinder": "x"}}"#,
            r#"{"labels": {"Kind": "c"}}"#,
            r#"{"labels": {"Kind": "a", "Kind": "b"}}"#,
            r#"{"labels": {"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"}}"#,
            r#"{"labels": {"k\u0041": "v"}}"#,
            r#"{"labels": {"a\u0062": "v", "ab": "w"}}"#,
            r#"{"wide": {"été1": true}}"#,
            r#"{"wide": {"été": 1}}"#,
            r#"{"wide": {"a": true, "a": false}}"#,
            r#"{"ext": {"x-rate": "5"}}"#,
            r#"{"ext": {"x-rate": -1}}"#,
            r#"{"ext": {"other": 5}}"#,
            r#"{"ext": {"\u0078-a": "s"}}"#,
            r#"{"ext": {"x-a": 1, "\u0078-a": 2}}"#,
            r#"{"ext": {"id": "1"}}"#,
        ],
    );
    // An escape in the key of an object closed beside its pattern is the automaton's (the
    // pattern's automaton steps the characters it decodes to).
    let text = r#"{"labels": {"k\u0061": "v", "\u004bind": "a"}, "wide": {"\u00e9t\u00e9": true}}"#;
    assert!(Labeled::is_valid_json(text) && !all_cuts::<Labeled>(text));
    // Dead where the automaton dies: at a key's byte that no declared name continues and the
    // pattern can no longer match, at the quote that closes a key no name is and the pattern
    // does not match, at a `,` past the `maxProperties`.
    for text in [
        r#"{"labels": {"A"#,
        r#"{"labels": {"a-"#,
        r#"{"labels": {"Ki1"#,
        r#"{"labels": {"Kin""#,
        r#"{"labels": {"""#,
        r#"{"wide": {"ab1"#,
        r#"{"labels": {"a": "1", "b": "2", "c": "3", "d": "4","#,
    ] {
        dead_at_its_last_byte::<Labeled>(text);
    }
    // Not before: a key a declared name may still become is read on.
    let mut s = Labeled::stream();
    assert!(!s.feed(br#"{"labels": {"Ki"#).is_dead() && s.__quick());
    // Characters cut short or broken in such a key: each feed as the automaton answers it.
    let cut: [&[u8]; 4] = [
        b"{\"wide\": {\"\xC3\": true}}",
        b"{\"wide\": {\"\xC3x\": true}}",
        b"{\"wide\": {\"\xFF\": true}}",
        b"{\"wide\": {\"\xCE\xA9\xA9\": true}}",
    ];
    raw_parity::<Labeled>(&cut);
    for text in [r#"{"a": 1, "ab": "x"}"#, r#"{"b": "y"}"#, r#"{"ab": 1}"#] {
        all_cuts::<TwoPatterns>(text);
    }
    for text in [r#"{"app": "long"}"#, r#"{"ap": "x"}"#] {
        all_cuts::<NamePatterned>(text);
    }
}

#[test]
fn the_flat_reader_reads_contains() {
    assert!(Stream::<Contained>::__flat() && !Stream::<MaxContained>::__flat());
    texts::<Contained>(
        &[
            r#"{"tags": ["x", "primary"]}"#,
            r#"{"nums": [10, "x", 11, null]}"#,
            r#"{"nest": [[1], [2, 1]]}"#,
            r#"{"both": ["b", "a"]}"#,
            r#"{"tags": ["primary"], "nums": [10, 20], "nest": [], "both": ["a"]}"#,
            r#"{"tags": ["pr\u0069mary"]}"#,
        ],
        &[
            r#"{"tags": ["x"]}"#,
            r#"{"tags": []}"#,
            r#"{"nums": [10, 9]}"#,
            r#"{"nums": [10.5, 12]}"#,
            r#"{"nest": [[2]]}"#,
            r#"{"nest": [[1], []]}"#,
            r#"{"both": ["a", "a"]}"#,
            r#"{"both": ["b"]}"#,
            r#"{"tags": ["primary", 1]}"#,
            r#"{"tags": ["a", "b", "c", "d", "primary"]}"#,
        ],
    );
    // Dead where the array closes, not before.
    for text in [r#"{"tags": ["x"]"#, r#"{"nest": [[2]"#, r#"{"nums": [10, 9]"#] {
        dead_at_its_last_byte::<Contained>(text);
    }
    for text in [r#"{"tags": ["a", "a"]}"#, r#"{"tags": ["a"]}"#, r#"{"tags": []}"#] {
        all_cuts::<MaxContained>(text);
    }
}

#[test]
fn the_flat_reader_reads_property_names() {
    assert!(Stream::<Named>::__flat());
    texts::<Named>(
        &[
            r#"{"m": {"ab": 1, "c": 2, "xyz": 3}}"#,
            r#"{"w": {"éé": true, "日本語": false}, "m": {}}"#,
            r#"{"free": {"anything long": 1, "": [2]}}"#,
        ],
        &[
            r#"{"m": {"abcd": 1}}"#,
            r#"{"m": {"A": 1}}"#,
            r#"{"m": {"": 1}}"#,
            r#"{"m": {"a1": 1}}"#,
            r#"{"m": {"ab": "x"}}"#,
            r#"{"m": {"ab": 1, "ab": 2}}"#,
            r#"{"w": {"é": true}}"#,
            r#"{"w": {"日本語x": true}}"#,
            r#"{"w": {"ab": 1}}"#,
            r#"{"m": {"a\u0162": 1}}"#,
        ],
    );
    // Dead where the automaton dies: at the character past the `maxLength`, where the pattern
    // dies, at the quote of a name too short or that the pattern does not match yet.
    for text in [
        r#"{"m": {"abcd"#,
        r#"{"m": {"A"#,
        r#"{"m": {"a1"#,
        r#"{"m": {"""#,
        r#"{"w": {"é""#,
        r#"{"w": {"日本語x"#,
        r#"{"m": {"a\u01"#,
    ] {
        dead_at_its_last_byte::<Named>(text);
    }
    // An escape in such a key: the automaton's.
    let text = r#"{"m": {"a\u0062": 1}}"#;
    assert!(Named::is_valid_json(text) && !all_cuts::<Named>(text));
    // Characters cut short or broken in such a key: each feed as the automaton answers it.
    let cut: [&[u8]; 3] =
        [b"{\"w\": {\"\xC3\xA9\xC3\": true}}", b"{\"w\": {\"a\xC3x\": true}}", b"{\"m\": {\"a\xFF\": 1}}"];
    raw_parity::<Named>(&cut);
}

#[test]
fn the_flat_reader_reads_conditions_on_values() {
    assert!(Stream::<Conditional>::__flat());
    assert!(!Stream::<ConditionalFalse>::__flat() && !Stream::<ConditionalNot>::__flat());
    assert!(!Stream::<ConditionalValues>::__flat() && !Stream::<ConditionalAny>::__flat());
    texts::<Conditional>(
        &[
            r#"{"action": "create", "name": "a"}"#,
            r#"{"action": "delete", "id": 3}"#,
            r#"{"id": 3, "to": "x", "action": "move"}"#,
            r#"{"name": "n", "action": "create", "opts": {"mode": "safe", "retries": 1}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"retries": 5, "delay": 0.5}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"retries": 5, "mode": "fast"}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"retries": 2}}"#,
            r#"{"action": "cr\u0065ate", "name": "x", "opts": {}}"#,
        ],
        &[
            r#"{"action": "create"}"#,
            r#"{"action": "create", "id": 1}"#,
            r#"{"action": "delete"}"#,
            r#"{"action": "delete", "name": "x"}"#,
            r#"{"action": "move", "id": 1}"#,
            r#"{"action": "create", "name": "a", "opts": {"mode": "safe"}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"retries": 3}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"retries": 3.5}}"#,
            r#"{"action": "delete", "id": 1, "opts": {"mode": "slow"}}"#,
            r#"{"action": "copy", "id": 1}"#,
            r#"{"action": "create", "name": 1}"#,
            r#"{"action": "create", "id": 1, "to": "x", "opts": {}}"#,
            r#"{"action": "move", "id": 1, "to": "x", "opts": {}, "name": "n"}"#,
            r#"{"action": "move", "id": 1, "to": "x", "extra": 1}"#,
        ],
    );
    // Dead where the object closes, not before: the condition decided long before.
    for text in [
        r#"{"action": "create", "id": 1}"#,
        r#"{"action": "create", "id": 1, "to": "x", "opts": {}}"#,
        r#"{"action": "move", "id": 1, "opts": {"mode": "safe"}"#,
        r#"{"action": "delete", "id": 1, "opts": {"retries": 3}"#,
    ] {
        dead_at_its_last_byte::<Conditional>(text);
    }
    for text in [r#"{"a": 1}"#, r#"{"a": 2, "b": 1}"#, r#"{"a": 1, "b": 1}"#, r#"{"b": 1}"#] {
        all_cuts::<ConditionalFalse>(text);
    }
    for text in [r#"{"a": 1}"#, r#"{"a": 1, "b": 2}"#, r#"{"a": 2}"#, r#"{"a": 2, "b": 1}"#, r#"{"b": 1, "a": 2}"#] {
        all_cuts::<ConditionalNot>(text);
        all_cuts::<ConditionalAny>(text);
    }
    for text in [r#"{"a": 1, "b": "xy"}"#, r#"{"a": 2, "b": "xy"}"#, r#"{"b": "xy", "a": 1}"#, r#"{"a": 1, "b": "x"}"#]
    {
        all_cuts::<ConditionalValues>(text);
    }
}

#[test]
fn the_flat_reader_reads_dependent_schemas_of_required_names() {
    assert!(Stream::<Dependent>::__flat() && Stream::<DependentDraft7>::__flat());
    assert!(!Stream::<DependentFalse>::__flat() && !Stream::<DependentNot>::__flat());
    texts::<Dependent>(
        &[
            "{}",
            r#"{"card": "x", "billing": "b", "zip": "z"}"#,
            r#"{"c": 1, "b": 2}"#,
            r#"{"a": 1}"#,
            r#"{"zip": "z", "card": "x", "billing": "b", "c": [], "a": {}}"#,
        ],
        &[
            r#"{"card": "x"}"#,
            r#"{"card": "x", "billing": "b"}"#,
            r#"{"c": 1}"#,
            r#"{"c": 1, "card": "x", "zip": "1", "billing": 2}"#,
            r#"{"d": 1}"#,
            r#"{"card": "x", "billing": "b", "zip": "z", "card": "y"}"#,
        ],
    );
    texts::<DependentDraft7>(&[r#"{"card": "x", "billing": "b"}"#, r#"{"billing": "b"}"#], &[r#"{"card": "x"}"#]);
    // Dead where the object closes, not before.
    for text in [r#"{"card": "x", "billing": "b"}"#, r#"{"c": 1}"#] {
        dead_at_its_last_byte::<Dependent>(text);
    }
    for text in [r#"{"a": 1}"#, r#"{"b": 1}"#, r#"{"b": 1, "a": 2}"#, r#"{"a": 1, "b": 2}"#] {
        all_cuts::<DependentFalse>(text);
        all_cuts::<DependentNot>(text);
    }
}

tool_schema! {
    /// A FastMCP tool as pydantic writes its schema: titles, optional arguments as an `anyOf`
    /// with `null` and a `default`, an `enum` behind a `$ref` into `$defs`, a discriminated
    /// union with OpenAPI's `discriminator` beside it (kept as an annotation).
    #[tool(annotations = ["discriminator"])]
    pub struct Pydantic = {
        "$defs": {
            "Circle": {
                "properties": {"kind": {"const": "circle", "title": "Kind", "type": "string"}, "r": {"title": "R", "type": "number"}},
                "required": ["kind", "r"], "title": "Circle", "type": "object"
            },
            "Mode": {"enum": ["fast", "exact"], "title": "Mode", "type": "string"},
            "Square": {
                "properties": {"kind": {"const": "square", "title": "Kind", "type": "string"}, "side": {"title": "Side", "type": "number"}},
                "required": ["kind", "side"], "title": "Square", "type": "object"
            }
        },
        "properties": {
            "query": {"title": "Query", "type": "string"},
            "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": null, "title": "Limit"},
            "mode": {"$ref": "#/$defs/Mode", "default": "fast"},
            "tags": {"anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}], "default": null, "title": "Tags"},
            "shape": {
                "discriminator": {"mapping": {"circle": "#/$defs/Circle", "square": "#/$defs/Square"}, "propertyName": "kind"},
                "oneOf": [{"$ref": "#/$defs/Circle"}, {"$ref": "#/$defs/Square"}],
                "title": "Shape"
            }
        },
        "required": ["query", "shape"], "title": "searchArguments", "type": "object"
    };
}

tool_schema! {
    /// A tool as zod-to-json-schema writes it for the TypeScript MCP SDK: draft-07, closed
    /// objects, an array of objects, a `default`.
    pub struct Zod = {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "edits": {"type": "array", "items": {
                "type": "object",
                "properties": {"oldText": {"type": "string", "description": "Text to search for"}, "newText": {"type": "string"}},
                "required": ["oldText", "newText"], "additionalProperties": false
            }},
            "dryRun": {"type": "boolean", "default": false}
        },
        "required": ["path", "edits"], "additionalProperties": false,
        "$schema": "http://json-schema.org/draft-07/schema#"
    };
}

tool_schema! {
    /// A tool in OpenAI's strict mode: every property required, optional ones nullable, closed.
    pub struct Strict = {
        "type": "object",
        "properties": {
            "location": {"type": "string"},
            "units": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]},
            "days": {"type": ["integer", "null"]}
        },
        "required": ["location", "units", "days"], "additionalProperties": false
    };
}

#[test]
fn the_flat_reader_reads_the_schemas_tool_frameworks_write() {
    assert!(Stream::<Pydantic>::__flat() && Stream::<Zod>::__flat() && Stream::<Strict>::__flat());
    texts::<Pydantic>(
        &[
            r#"{"query": "rust", "shape": {"kind": "circle", "r": 1.5}}"#,
            r#"{"query": "q", "limit": 3, "mode": "exact", "tags": ["a", "b"], "shape": {"side": 2, "kind": "square"}}"#,
            r#"{"shape": {"kind": "square", "side": 0}, "limit": null, "tags": null, "query": ""}"#,
        ],
        &[
            r#"{"query": "rust", "shape": {"kind": "circle", "side": 1}}"#,
            r#"{"query": "rust", "shape": {"kind": "triangle", "r": 1}}"#,
            r#"{"query": "rust", "limit": 0, "shape": {"kind": "circle", "r": 1}}"#,
            r#"{"query": "rust", "mode": "slow", "shape": {"kind": "circle", "r": 1}}"#,
            r#"{"query": "rust", "tags": [1], "shape": {"kind": "circle", "r": 1}}"#,
            r#"{"query": "rust"}"#,
        ],
    );
    texts::<Zod>(
        &[
            r#"{"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}], "dryRun": true}"#,
            r#"{"edits": [], "path": ""}"#,
        ],
        &[
            r#"{"path": "a.txt", "edits": [{"oldText": "x"}]}"#,
            r#"{"path": "a.txt", "edits": [{"oldText": "x", "newText": "y", "extra": 1}]}"#,
            r#"{"path": "a.txt", "edits": [], "force": true}"#,
        ],
    );
    texts::<Strict>(
        &[
            r#"{"location": "Paris", "units": null, "days": 3}"#,
            r#"{"location": "Oslo", "units": "celsius", "days": null}"#,
        ],
        &[r#"{"location": "Paris", "units": "kelvin", "days": 3}"#, r#"{"location": "Paris", "days": 3}"#],
    );
}

tool_schema! {
    /// Draft 2020-12's way to close an object built from parts: `unevaluatedProperties: false`
    /// beside an `allOf` and a `$ref`, and a plain object's `unevaluatedProperties` with a
    /// schema, whose undeclared members it takes (with a rule on names beside it).
    pub struct Unevaluated = {
        "$defs": {
            "Base": {"type": "object", "properties": {"id": {"type": "string", "maxLength": 4}}, "required": ["id"]},
            "Extra": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
                "unevaluatedProperties": {"type": "boolean"}
            }
        },
        "type": "object",
        "$ref": "#/$defs/Base",
        "allOf": [{"properties": {"name": {"type": "string"}, "extra": {"$ref": "#/$defs/Extra"}}}],
        "unevaluatedProperties": false
    };
}

tool_schema! {
    /// `unevaluatedProperties` beside a part that takes every name (`additionalProperties`):
    /// nothing is left for it.
    pub struct EvaluatedAll = {
        "allOf": [{"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": {"type": "string"}}],
        "unevaluatedProperties": false
    };
}

tool_schema! {
    /// `unevaluatedProperties` with an `if` on values, whose `properties` evaluate names: the
    /// automaton's.
    pub struct UnevaluatedIf = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "a"}, "x": true}},
        "then": {"required": ["kind"]},
        "unevaluatedProperties": false
    };
}

tool_schema! {
    /// `unevaluatedProperties` beside a `patternProperties` entry: the names it matches are
    /// evaluated, the others its.
    pub struct UnevaluatedPattern = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "unevaluatedProperties": false
    };
}

#[test]
fn the_flat_reader_reads_unevaluated_properties_where_only_properties_evaluate() {
    assert!(Stream::<Unevaluated>::__flat() && Stream::<EvaluatedAll>::__flat());
    assert!(Stream::<UnevaluatedPattern>::__flat() && !Stream::<UnevaluatedIf>::__flat());
    texts::<Unevaluated>(
        &[
            r#"{"id": "ab", "name": "n"}"#,
            r#"{"name": "n", "id": "abcd", "extra": {"a": 1, "on": true}}"#,
            r#"{"id": "x", "extra": {"b": false}}"#,
        ],
        &[
            r#"{"id": "ab", "other": 1}"#,
            r#"{"id": "ab", "other": "x", "name": "n"}"#,
            r#"{"name": "n"}"#,
            r#"{"id": "abcde"}"#,
            r#"{"id": "ab", "extra": {"a": 1, "on": 1}}"#,
            r#"{"id": "ab", "extra": {"c": true}}"#,
            r#"{"id": "ab", "extra": {"a": "1"}}"#,
        ],
    );
    texts::<EvaluatedAll>(&[r#"{"n": 1, "m": "x"}"#, r#"{}"#], &[r#"{"n": 1, "m": 2}"#, r#"{"n": "1"}"#]);
    for text in [r#"{"kind": "a", "x": 1}"#, r#"{"kind": "b", "x": 1}"#, r#"{"kind": "a"}"#] {
        all_cuts::<UnevaluatedIf>(text);
    }
    texts::<UnevaluatedPattern>(
        &[r#"{"kind": "a", "x-y": "1"}"#, r#"{"x-": "", "kind": "b"}"#],
        &[r#"{"kind": "b", "y": 1}"#, r#"{"x-y": 1}"#, r#"{"kind": "a", "x-y": "1", "x": "2"}"#],
    );
}

#[test]
fn long_strings_are_read_a_run_at_a_time_wherever_fragments_cut_them() {
    // A fragment that only goes on a string of plain characters is read as one run (counted
    // against `maxLength`), one that ends it or meets an escape or a non-ASCII character the
    // long way from there: the same answers at every cut and chunking.
    let long = "lorem ipsum dolor sit amet, ".repeat(12);
    let valid = [
        format!(r#"{{"path": "a", "free": "{long}"}}"#),
        format!(r#"{{"path": "a", "free": "{long}\n{long}é{long}"}}"#),
        format!(r#"{{"free": "{long}", "path": "abcdefghijkl"}}"#),
    ];
    let invalid = [
        format!(r#"{{"path": "abcdefghijklm", "free": "{long}"}}"#),
        format!(r#"{{"path": "a", "free": "{long}{}"}}"#, '\u{1}'),
        format!(r#"{{"path": "a", "free": "{long}", "path": "b"}}"#),
    ];
    texts::<Flat>(
        &valid.iter().map(String::as_str).collect::<Vec<_>>(),
        &invalid.iter().map(String::as_str).collect::<Vec<_>>(),
    );
}

tool_schema! {
    /// `unevaluatedItems` where only `prefixItems` and `items` evaluate items: `false` after a
    /// prefix (as `items: false`), a schema (as `items`), and one beside `items` (which takes
    /// every item itself).
    pub struct UnevaluatedItems = {
        "type": "object",
        "properties": {
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "unevaluatedItems": false},
            "rest": {"type": "array", "prefixItems": [{"type": "string"}], "unevaluatedItems": {"type": "integer", "maximum": 9},
                     "maxItems": 4},
            "all": {"type": "array", "items": {"type": "boolean"}, "unevaluatedItems": false}
        }
    };
}

tool_schema! {
    /// `unevaluatedItems` beside `contains`, which evaluates the items it matches: the automaton's.
    pub struct UnevaluatedContains = {
        "type": "array",
        "prefixItems": [{"type": "integer"}],
        "contains": {"type": "string"},
        "unevaluatedItems": false
    };
}

#[test]
fn the_flat_reader_reads_unevaluated_items_where_only_prefix_and_items_evaluate() {
    assert!(Stream::<UnevaluatedItems>::__flat() && !Stream::<UnevaluatedContains>::__flat());
    texts::<UnevaluatedItems>(
        &[
            r#"{"pair": [1, "a"], "rest": ["x", 1, 2], "all": [true, false]}"#,
            r#"{"pair": [1], "rest": ["x"], "all": []}"#,
            r#"{"pair": [], "rest": []}"#,
        ],
        &[
            r#"{"pair": [1, "a", 2]}"#,
            r#"{"pair": [1, 2]}"#,
            r#"{"rest": ["x", 10]}"#,
            r#"{"rest": ["x", "y"]}"#,
            r#"{"rest": ["x", 1, 2, 3, 4]}"#,
            r#"{"all": [true, 1]}"#,
        ],
    );
    for text in [r#"[1, "a", "b"]"#, r#"[1, "a", 2]"#, r#"[1, 2]"#, r#"["a"]"#] {
        all_cuts::<UnevaluatedContains>(text);
    }
}
