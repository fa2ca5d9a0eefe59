toolgate::tool_schema! {
    pub struct Draw = {
        "type": "object",
        "properties": {
            "shape": {
                "discriminator": {"propertyName": "kind"},
                "oneOf": [
                    {"type": "object", "properties": {"kind": {"const": "circle"}}, "required": ["kind"]},
                    {"type": "object", "properties": {"kind": {"const": "square"}}, "required": ["kind"]}
                ]
            }
        }
    };
}

fn main() {}
