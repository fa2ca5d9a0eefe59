toolgate::tool_schema! {
    pub struct Shape = {"type": "object", "properties": {"a": "string"}};
}

fn main() {}
