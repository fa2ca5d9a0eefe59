toolgate::tool_schema! {
    pub struct Missing = "ui/file/schemas/does_not_exist.json";
}

fn main() {}
