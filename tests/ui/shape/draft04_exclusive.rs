toolgate::tool_schema! {
    pub struct Shape = {"type": "number", "minimum": 0, "exclusiveMinimum": true};
}

fn main() {}
