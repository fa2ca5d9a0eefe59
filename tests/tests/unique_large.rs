//! `uniqueItems` on long arrays, from text and from values: the same verdicts and the same
//! reported pair on every path. (Before hashing, 20,000 items took 11 s from text in release;
//! this test would take minutes in a debug build if that came back.)

use toolgate::{tool_schema, Collect, Error, Tool};

tool_schema! {
    pub struct Unique = {"type": "array", "uniqueItems": true};
}

fn agree(text: &str, valid: bool) {
    let value = toolgate::parse(text).expect("JSON");
    assert_eq!(Unique::is_valid(&value), valid);
    assert_eq!(Unique::is_valid_json(text), valid);
    let mut all = Collect::default();
    Unique::check_json(text, &mut all).expect("JSON");
    let from_value = Unique::validate(&value).err();
    assert_eq!(all.0.is_empty(), valid);
    assert_eq!(from_value.as_ref().map(|v| v.as_slice().to_vec()), (!valid).then(|| all.0.clone()));
    match Unique::from_json(text) {
        Ok(_) => assert!(valid),
        Err(Error::Invalid(v)) => assert_eq!(Some(v), from_value),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn twenty_thousand_items() {
    let ints: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    agree(&format!("[{}]", ints.join(",")), true);
    // A duplicate at the end, spelled differently (`1.0` equals `1`).
    agree(&format!("[{},1.0]", ints.join(",")), false);
    let objects: Vec<String> = (0..20_000).map(|i| format!("{{\"a\":\"{i}\",\"b\":[{i}]}}")).collect();
    agree(&format!("[{}]", objects.join(",")), true);
    agree(&format!("[{},{{\"b\":[7.0],\"a\":\"7\"}}]", objects.join(",")), false);
    // Around the size where the scanner starts hashing.
    for n in [63, 64, 65, 66] {
        let items: Vec<String> = (0..n).map(|i| format!("\"s{i}\"")).collect();
        agree(&format!("[{}]", items.join(",")), true);
        agree(&format!("[{},\"s0\"]", items.join(",")), false);
        agree(&format!("[\"s{}\",{}]", n - 1, items.join(",")), false);
    }
}
