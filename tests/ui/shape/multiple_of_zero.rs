toolgate::tool_schema! {
    pub struct Shape = {"type": "number", "multipleOf": 0};
}

fn main() {}
