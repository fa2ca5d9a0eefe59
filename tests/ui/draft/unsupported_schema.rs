toolgate::tool_schema! {
    pub struct Old = {"$schema": "http://json-schema.org/draft-03/schema#", "type": "object"};
}

fn main() {}
