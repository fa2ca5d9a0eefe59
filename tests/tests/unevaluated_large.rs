//! `unevaluatedProperties` beside `anyOf` on an object of 20,000 members, from text and from
//! values: the branches are decided once per object, not once per member. (Deciding them per
//! member made this quadratic: still running after a minute in a debug build at this size.)

use toolgate::{tool_schema, Collect, Tool};

tool_schema! {
    pub struct Open = {
        "type": "object",
        "anyOf": [{"properties": {"kind": {"const": "a"}}, "required": ["kind"]}, {"required": ["other"]}],
        "unevaluatedProperties": {"type": "integer"}
    };
}

fn agree(text: &str, valid: bool) -> usize {
    let value = toolgate::parse(text).expect("JSON");
    assert_eq!(Open::is_valid(&value), valid);
    assert_eq!(Open::is_valid_json(text), valid);
    let mut all = Collect::default();
    Open::check_json(text, &mut all).expect("JSON");
    let from_value = Open::validate(&value).err().map(|v| v.as_slice().to_vec()).unwrap_or_default();
    assert_eq!(all.0, from_value);
    all.0.len()
}

#[test]
fn twenty_thousand_members() {
    let members: Vec<String> = (0..20_000).map(|i| format!("\"m{i}\": {i}")).collect();
    let body = members.join(", ");
    assert_eq!(agree(&format!("{{\"kind\": \"a\", {body}}}"), true), 0);
    // One member that no branch evaluates and that is not an integer.
    assert_eq!(agree(&format!("{{\"kind\": \"a\", {body}, \"late\": \"x\"}}"), false), 1);
    // `kind` is evaluated only through the first branch: when it fails, `kind` is unevaluated
    // and must be an integer.
    assert_eq!(agree(&format!("{{\"kind\": \"b\", \"other\": 1, {body}}}"), false), 1);
}
