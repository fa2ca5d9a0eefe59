//! Tool schemas several test files use (`fixtures`, `gate_common`, the adversarial tests).
#![allow(dead_code)]

use toolgate::tool_schema;

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
    /// A short note.
    pub struct Note = {
        "type": "object",
        "properties": {"text": {"type": "string", "maxLength": 1000}},
        "required": ["text"],
        "additionalProperties": false
    };
}
