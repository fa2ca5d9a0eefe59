//! The hygienic crate's generated code also behaves.

#[test]
fn generated_code_works_under_a_renamed_dependency() {
    assert!(toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "count": 6}"#));
    assert!(!toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m", "to_unit": "km", "count": 7}"#));
    assert!(!toolgate_hygiene::check(r#"{"value": 1, "from_unit": "m"}"#));
}
