toolgate::tool_schema! {
    pub struct FromFile = "ui/file/schemas/with_format.json";
}

fn main() {}
