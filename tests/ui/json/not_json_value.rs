toolgate::tool_schema! {
    pub struct Broken = {
        "type": "object",
        "properties": {"a": {"default": None}}
    };
}

fn main() {}
