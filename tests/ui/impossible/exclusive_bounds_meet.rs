toolgate::tool_schema! {
    pub struct Impossible = {"type": "number", "minimum": 5, "exclusiveMaximum": 5};
}

fn main() {}
