toolgate::tool_schema! {
    pub struct FromFile = "ui/file/schemas/invalid.json";
}

fn main() {}
