use toolgate::Tool;

toolgate::tool_schema! {
    pub struct Several = {
        "type": "object",
        "properties": {
            "a": {"type": "strin"},
            "b": {"minLength": -1},
            "c": {"$dynamicRef": "#meta"}
        },
        "requried": ["a"]
    };
}

// The skeleton keeps this from adding "cannot find type `Several`" to the errors above.
fn main() {
    let _ = Several::NAME;
}
