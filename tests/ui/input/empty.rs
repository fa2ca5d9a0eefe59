toolgate::tool_schema! {}

fn main() {}
