toolgate::tool_schema! {
    pub struct Shape = {"type": "string", "minLength": -1};
}

fn main() {}
