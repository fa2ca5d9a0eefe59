toolgate::tool_schema! {
    pub struct Mixed = {"type": "object", "definitions": {"a": {"type": "string"}}};
}

fn main() {}
