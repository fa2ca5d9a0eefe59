toolgate::tool_schema! {
    pub struct Mixed = {"type": "object", "dependencies": {"a": ["b"]}};
}

fn main() {}
