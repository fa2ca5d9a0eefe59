toolgate::tool_schema! {
    pub struct Flags = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"anything": true},
        "additionalProperties": false
    };
}

fn main() {}
