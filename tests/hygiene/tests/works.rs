//! The hygienic crate's generated code also behaves.

#[test]
fn generated_code_works_under_a_renamed_dependency() {
    assert!(toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "count": 6}"#));
    assert!(!toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "count": 7}"#));
    assert!(!toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m"}"#));
    // A pattern of one length and byte sets: its slice pattern, and the DFA for escaped text.
    assert!(toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "sku": "ABC-1234"}"#));
    assert!(toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "sku": "\u0041BC-1234"}"#));
    assert!(!toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "sku": "ABC-123"}"#));
}

#[test]
fn tagged_unions_and_merged_structs_work_too() {
    let shapes = r#"{"shape": {"kind": "group", "items": [{"kind": "none"}]}, "maybe": {"kind": "circle", "r": 1}, "source": {"url": "u"}, "style": {"width": 2, "fill": "red"}}"#;
    assert!(toolgate_hygiene::shapes(shapes, r#"{"op": "go"}"#));
    assert!(!toolgate_hygiene::shapes(shapes, r#"{"op": "stop"}"#));
    assert!(!toolgate_hygiene::shapes(&shapes.replace("red", "blue"), r#"{"op": "go"}"#));
    assert!(!toolgate_hygiene::shapes(&shapes.replace(r#""none""#, r#""circle""#), r#"{"op": "go"}"#));
}

#[test]
fn the_flat_reader_works_under_a_renamed_dependency() {
    let valid = r#"{"path": "a", "unit": "km", "kind": "file", "count": 2, "step": 1.5, "deep": true, "maybe": null}"#;
    assert_eq!(toolgate_hygiene::flat_stream(valid), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "count": 0}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "step": 0.2}"#).0);
    let nested = r#"{"path": "a", "options": {"follow": true}, "tags": ["x", "y"]}"#;
    assert_eq!(toolgate_hygiene::flat_stream(nested), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "tags": ["x", "x"]}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "options": {"follow": 1}}"#).0);
    let unions = r#"{"path": "a", "sku": "ABC", "note": null, "via": {"k": "a", "n": 2}}"#;
    assert_eq!(toolgate_hygiene::flat_stream(unions), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "sku": "ABc"}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "via": {"k": "b", "n": 2}}"#).0);
    let shared = r#"{"path": "a", "act": {"id": 1, "op": "y", "n": "s"}}"#;
    assert_eq!(toolgate_hygiene::flat_stream(shared), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "act": {"op": "x", "n": "s"}}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "act": {"id": 1}}"#).0);
    let wide = r#"{"path": "a", "temp": "°C", "größe": 3}"#;
    assert_eq!(toolgate_hygiene::flat_stream(wide), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "temp": "°K"}"#).0);
    assert_eq!(
        toolgate_hygiene::flat_stream(r#"{"path": "a", "temp": "\u00b0F", "gr\u00f6\u00dfe": 1}"#),
        (true, true)
    );
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "größe": "3"}"#).0);
    let free = r#"{"path": "a", "level": 2.5, "meta": {"k": [1, {}]}, "counts": {"a": 1}, "any": null}"#;
    assert_eq!(toolgate_hygiene::flat_stream(free), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "level": 3}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "counts": {"a": "1"}}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "meta": {"k": 1, "k": 2}}"#).0);
    // Undeclared names beyond ASCII or escaped, escapes in a `pattern` string.
    let escaped = r#"{"path": "a", "counts": {"größe": 1, "\u00e9t\u00e9": 2}, "sku": "\u0041BC"}"#;
    assert_eq!(toolgate_hygiene::flat_stream(escaped), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "counts": {"été": 1, "\u00e9t\u00e9": 2}}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "sku": "\u0041Bc"}"#).0);
    // `patternProperties`.
    assert_eq!(toolgate_hygiene::flat_stream(r#"{"path": "a", "lab": {"ab": 1, "c": 2}}"#), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "lab": {"aB": 1}}"#).0);
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "lab": {"ab": "1"}}"#).0);
    // `contains`.
    assert_eq!(toolgate_hygiene::flat_stream(r#"{"path": "a", "must": ["y", "x"]}"#), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "must": ["y"]}"#).0);
    // `propertyNames`.
    assert_eq!(toolgate_hygiene::flat_stream(r#"{"path": "a", "keyed": {"ab": 1}}"#), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "keyed": {"abcde": 1}}"#).0);
    // An `if` on a value.
    assert_eq!(toolgate_hygiene::flat_stream(r#"{"path": "a", "cond": {"mode": "b", "n": 1}}"#), (true, true));
    assert!(!toolgate_hygiene::flat_stream(r#"{"path": "a", "cond": {"mode": "b"}}"#).0);
}
