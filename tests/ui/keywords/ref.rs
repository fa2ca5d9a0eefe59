toolgate::tool_schema! {
    pub struct WithRef = {
        "type": "object",
        "properties": {
            "remote": {"$ref": "https://example.com/schemas/address.json"},
            "missing": {"$ref": "#/$defs/nowhere"}
        },
        "$defs": {"node": {"type": "string"}}
    };
}

fn main() {}
