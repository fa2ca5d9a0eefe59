toolgate::tool_schema! {
    pub struct Impossible = {"type": "string", "enum": ["a", 1, "b"]};
}

fn main() {}
