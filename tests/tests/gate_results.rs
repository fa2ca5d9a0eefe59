//! Result checks: a tool's result is checked against its own generated schema type before it goes
//! back to the model.

use serde::Serialize;
use serde_json::json;
use toolgate::gate::{check_result, check_result_of, ResultError};
use toolgate::{tool_schema, ViolationKind};

tool_schema! {
    /// What `lookup_stock` returns.
    pub struct LookupStockResult = {
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "minLength": 1, "maxLength": 5},
            "price": {"type": "number", "exclusiveMinimum": 0},
            "summary": {"type": "string", "maxLength": 200}
        },
        "required": ["ticker", "price", "summary"],
        "additionalProperties": false
    };
}

#[test]
fn a_valid_result_goes_back_as_its_json() {
    let checked = check_result::<LookupStockResult>(json!({"ticker": "AAPL", "price": 189.5, "summary": "Up 1%."}))
        .expect("valid");
    assert_eq!(checked.typed().ticker, "AAPL");
    assert_eq!(checked.typed().price, 189.5);
    assert_eq!(checked.value(), &json!({"ticker": "AAPL", "price": 189.5, "summary": "Up 1%."}));
    assert_eq!(checked.content(), r#"{"price":189.5,"summary":"Up 1%.","ticker":"AAPL"}"#);
    let (typed, value) = checked.into_parts();
    assert_eq!(typed.summary, "Up 1%.");
    assert_eq!(value["price"], 189.5);
}

#[test]
fn a_summary_over_200_characters_is_stopped() {
    let summary = "x".repeat(201);
    let err = check_result::<LookupStockResult>(json!({"ticker": "AAPL", "price": 1, "summary": summary}))
        .expect_err("too long");
    assert_eq!(
        err.to_string(),
        "result lookup_stock_result: /summary: expected a string of at most 200 characters, found 201 characters"
    );
    let v = err.violations().expect("violations");
    assert_eq!(v.len(), 1);
    assert_eq!(v.as_slice()[0].pointer, "/summary");
    assert!(matches!(v.as_slice()[0].kind, ViolationKind::MaxLength { limit: 200, length: 201 }));
    // Exactly 200 code points (not bytes) pass.
    assert!(check_result::<LookupStockResult>(json!({"ticker": "A", "price": 1, "summary": "é".repeat(200)})).is_ok());
}

#[test]
fn every_violation_is_reported() {
    let err = check_result::<LookupStockResult>(json!({"ticker": "", "price": 0, "extra": true})).expect_err("bad");
    assert_eq!(err.violations().map(toolgate::Violations::len), Some(4));
    assert!(matches!(err, ResultError::Invalid { result: "lookup_stock_result", .. }));
}

#[derive(Serialize)]
struct Quote<'a> {
    ticker: &'a str,
    price: f64,
    summary: String,
}

#[test]
fn serialisable_results_are_checked_too() {
    let ok = check_result_of::<LookupStockResult, _>(&Quote { ticker: "MSFT", price: 410.0, summary: "Flat.".into() })
        .expect("valid");
    assert_eq!(ok.content(), r#"{"price":410.0,"summary":"Flat.","ticker":"MSFT"}"#);
    let bad = check_result_of::<LookupStockResult, _>(&Quote { ticker: "MSFT", price: -1.0, summary: String::new() });
    assert!(bad.expect_err("negative").to_string().contains("/price: expected a number greater than 0"));

    // A typed result value round-trips through its own check.
    let typed = check_result::<LookupStockResult>(json!({"ticker": "X", "price": 2, "summary": ""})).expect("valid");
    assert!(check_result_of::<LookupStockResult, _>(typed.typed()).is_ok());
}

#[test]
fn unserialisable_results_are_not_json() {
    let mut map = std::collections::BTreeMap::new();
    map.insert((1, 2), 3);
    let err = check_result_of::<LookupStockResult, _>(&map).expect_err("tuple keys");
    assert!(matches!(err, ResultError::NotJson { result: "lookup_stock_result", .. }));
    assert!(err.violations().is_none());
    assert!(err.to_string().starts_with("result lookup_stock_result: not JSON: "), "{err}");
}
