toolgate::tool_schema! {
    pub struct Shape = {"type": "object", "properties": {"x": {}}, "required": "x"};
}

fn main() {}
