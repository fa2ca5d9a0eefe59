toolgate::tool_schema! {
    pub struct Temp = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "number",
        "exclusiveMinimum": -273.15
    };
}

fn main() {}
