toolgate::tool_schema! {
    pub struct WithRef = {
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "string"}}
    };
}

fn main() {}
