toolgate::tool_schema! {
    pub struct Broken = {
        "type": "object",
        "type": "string"
    };
}

fn main() {}
