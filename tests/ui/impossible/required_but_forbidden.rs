toolgate::tool_schema! {
    pub struct Impossible = {
        "type": "object",
        "properties": {"value": {"type": "number"}},
        "required": ["value", "unit"],
        "additionalProperties": false
    };
}

fn main() {}
