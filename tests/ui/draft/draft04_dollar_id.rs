toolgate::tool_schema! {
    pub struct Flags = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "$id": "https://example.com/flags.json",
        "type": "object"
    };
}

fn main() {}
