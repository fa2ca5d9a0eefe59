toolgate::tool_schema! {
    #[tool(annotations = ["markdownDescription", "pattern"])]
    pub struct Search = {"type": "string", "markdownDescription": "A **query**.", "pattern": "^[a-z]+$"};
}

fn main() {}
