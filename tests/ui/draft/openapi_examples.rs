toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.0")]
    pub struct Note = {"type": "string", "examples": ["hello"]};
}

fn main() {}
