toolgate::tool_schema! {
    pub struct Impossible = {"enum": []};
}

fn main() {}
