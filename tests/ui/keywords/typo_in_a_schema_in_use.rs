// A typo in a schema is the one error the user sees, even where their own code uses what the
// generated type implements (`Debug`, `Clone`, `PartialEq`, serde, `Tool`, `JsonSchema`).
use toolgate::Tool;

toolgate::tool_schema! {
    pub struct SendMessage = {
        "type": "object",
        "properties": {"to": {"type": "string"}, "body": {"type": "string"}},
        "requird": ["to"]
    };
}

fn advertised<T: schemars::JsonSchema>() -> String {
    T::schema_name().into_owned()
}

fn main() {
    let r = SendMessage::from_json(r#"{"to": "a", "body": "b"}"#);
    println!("{r:?}");
    if let Ok(m) = &r {
        let copy = m.clone();
        assert_eq!(&copy, m);
        println!("{}", serde_json::to_string(&copy).unwrap_or_default());
    }
    let parsed: Result<SendMessage, _> = serde_json::from_str("{}");
    println!("{parsed:?} {} {}", advertised::<SendMessage>(), SendMessage::NAME);
}
