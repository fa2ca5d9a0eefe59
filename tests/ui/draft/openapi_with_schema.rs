toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.0")]
    pub struct Note = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"};
}

fn main() {}
