toolgate::tool_schema! {
    pub ConvertUnits = {"type": "object"};
}

fn main() {}
