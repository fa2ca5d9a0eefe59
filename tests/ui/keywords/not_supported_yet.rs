toolgate::tool_schema! {
    pub struct Conditional = {
        "type": "object",
        "properties": {
            "mode": {"enum": ["a", "b"]},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$"}
        },
        "if": {"properties": {"mode": {"const": "a"}}}
    };
}

fn main() {}
