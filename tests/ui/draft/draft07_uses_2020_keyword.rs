toolgate::tool_schema! {
    pub struct Tuple = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "prefixItems": [{"type": "string"}]
    };
}

fn main() {}
