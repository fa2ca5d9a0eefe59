toolgate::tool_schema! {
    pub struct Impossible = {"type": "integer", "minimum": 10, "maximum": 1};
}

fn main() {}
