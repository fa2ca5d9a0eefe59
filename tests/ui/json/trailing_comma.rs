toolgate::tool_schema! {
    pub struct Broken = {
        "type": "object",
        "required": ["a", "b",]
    };
}

fn main() {}
