toolgate::tool_schema! {
    pub struct Nested = {
        "type": "object",
        "properties": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}
    };
}

fn main() {}
