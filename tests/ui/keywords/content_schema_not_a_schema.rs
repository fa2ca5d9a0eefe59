toolgate::tool_schema! {
    pub struct Upload = {
        "type": "object",
        "properties": {
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": "object"}
        }
    };
}

fn main() {}
