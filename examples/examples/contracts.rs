//! The classic contract check: one bad call, one line per violation.
//!
//! `cargo run --example contracts`

use toolgate::{tool_schema, Tool};

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

fn main() {
    let reply = serde_json::json!({"value": "5", "from_unit": "miles"});
    println!("{} arguments: {reply}", ConvertUnits::NAME);
    match ConvertUnits::validate(&reply) {
        Ok(()) => println!("valid"),
        Err(violations) => {
            for v in &violations {
                println!("  {v}");
            }
        }
    }
    let good = serde_json::json!({"value": 5, "from_unit": "km", "to_unit": "m"});
    match ConvertUnits::from_value(&good) {
        Ok(call) => println!("{good} -> {call:?}"),
        Err(e) => println!("unexpected: {e}"),
    }
}
