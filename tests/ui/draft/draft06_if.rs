toolgate::tool_schema! {
    pub struct Shipping = {
        "$schema": "http://json-schema.org/draft-06/schema#",
        "type": "object",
        "if": {"required": ["country"]},
        "then": {"required": ["postcode"]}
    };
}

fn main() {}
