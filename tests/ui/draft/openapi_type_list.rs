toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.0")]
    pub struct Note = {"type": "object", "properties": {"text": {"type": ["string", "null"]}}};
}

fn main() {}
