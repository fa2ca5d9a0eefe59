toolgate::tool_schema! {
    pub struct Shape = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]};
}

fn main() {}
