toolgate::tool_schema! {
    pub struct Shape = {"type": "object", "properties": {"name": {"type": "strin"}}};
}

fn main() {}
