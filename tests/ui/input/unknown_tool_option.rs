toolgate::tool_schema! {
    #[tool(title = "Convert")]
    pub struct ConvertUnits = {"type": "object"};
}

fn main() {}
