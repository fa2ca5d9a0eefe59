toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.1")]
    pub struct Flags = {"type": "object"};
}

fn main() {}
