toolgate::tool_schema! {
    pub struct Password = {
        "type": "string",
        "pattern": "^(?=.*[0-9]).{8,}$"
    };
}

fn main() {}
