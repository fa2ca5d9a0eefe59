toolgate::tool_schema! {
    pub struct Search = {"type": "string", "markdownDescription": "A **query**."};
}

fn main() {}
