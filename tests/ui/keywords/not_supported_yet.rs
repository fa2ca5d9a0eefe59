toolgate::tool_schema! {
    pub struct Dynamic = {
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}}
    };
}

fn main() {}
