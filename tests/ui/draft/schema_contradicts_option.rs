toolgate::tool_schema! {
    #[tool(dialect = "draft-04")]
    pub struct Flags = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"};
}

fn main() {}
