toolgate::tool_schema! {
    pub struct Loop = {
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
        "$ref": "#/$defs/a"
    };
}

fn main() {}
