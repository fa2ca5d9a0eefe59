toolgate::tool_schema! {
    pub struct Impossible = {"type": "string", "minLength": 5, "maxLength": 2};
}

fn main() {}
