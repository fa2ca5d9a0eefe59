toolgate::tool_schema! {
    pub struct Custom = {
        "type": "object",
        "strictness": "high",
        "x-strictness": "annotations with an x- prefix are fine"
    };
}

fn main() {}
