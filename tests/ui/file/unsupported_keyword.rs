toolgate::tool_schema! {
    pub struct FromFile = "ui/file/schemas/with_content_schema.json";
}

fn main() {}
