toolgate::tool_schema! {
    #[tool(name = "convert units")]
    pub struct ConvertUnits = {"type": "object"};
}

fn main() {}
