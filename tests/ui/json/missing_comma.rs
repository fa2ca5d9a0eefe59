toolgate::tool_schema! {
    pub struct Broken = {
        "type": "object"
        "properties": {}
    };
}

fn main() {}
