toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.0")]
    pub struct Note = {
        "type": "object",
        "properties": {"owner": {"nullable": true, "allOf": [{"type": "string"}]}}
    };
}

fn main() {}
