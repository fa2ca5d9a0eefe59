toolgate::tool_schema! {
    #[tool(dialect = "openapi-3.0", annotations = ["discriminator"])]
    pub struct Draw = {"type": "object", "discriminator": {"propertyName": "kind"}};
}

fn main() {}
