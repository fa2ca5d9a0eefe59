toolgate::tool_schema! {
    #[tool(formats = assert)]
    pub struct Contact = {
        "type": "object",
        "properties": {
            "email": {"type": "string", "format": "email"},
            "phone": {"type": "string", "format": "phone-number"}
        }
    };
}

fn main() {}
