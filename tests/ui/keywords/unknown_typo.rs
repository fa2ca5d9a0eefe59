toolgate::tool_schema! {
    pub struct Typo = {
        "type": "object",
        "properties": {"a": {"type": "string", "maxlength": 3}},
        "requried": ["a"]
    };
}

fn main() {}
