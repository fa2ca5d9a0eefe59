toolgate::tool_schema! {
    pub struct Temp = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "number",
        "maximum": 100,
        "exclusiveMinimum": true
    };
}

fn main() {}
