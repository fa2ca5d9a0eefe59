toolgate::tool_schema! {
    pub struct FromFile = "ui/file/schemas/with_dynamic_ref.json";
}

fn main() {}
