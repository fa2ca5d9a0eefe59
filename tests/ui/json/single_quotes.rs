toolgate::tool_schema! {
    pub struct Broken = {
        "type": 'x'
    };
}

fn main() {}
