//! Framework fit: the generated types work where frameworks take `T: Deserialize` (the
//! `Deserialize` impl validates), and with the `schemars` feature they implement
//! `schemars::JsonSchema`, returning exactly the schema the validator enforces.

mod gate_common;

use gate_common::{ConvertUnits, LookupStock};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use toolgate::Tool;

/// How a framework reads tool arguments: any `T: DeserializeOwned`.
fn framework_reads<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

#[test]
fn deserialize_validates() {
    let ok: ConvertUnits = framework_reads(r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#).expect("valid");
    assert_eq!(ok.value, 5.0);
    let err = framework_reads::<ConvertUnits>(r#"{"value": "five", "from_unit": "km", "to_unit": "m"}"#)
        .expect_err("invalid");
    assert!(err.starts_with("/value: expected number, found string \"five\""), "{err}");
    let err = framework_reads::<ConvertUnits>(r#"{"value": 1e9, "from_unit": "km", "to_unit": "m", "round": 2}"#)
        .expect_err("invalid");
    assert!(err.contains("/value: expected a number at most 1000000 (maximum)"), "{err}");
    assert!(err.contains("/round: unexpected property"), "{err}");
}

#[test]
fn deserialize_refuses_duplicate_keys() {
    let err = framework_reads::<ConvertUnits>(r#"{"value": 5, "value": 1e9, "from_unit": "km", "to_unit": "m"}"#)
        .expect_err("duplicate");
    assert!(err.contains("duplicate key"), "{err}");
}

#[derive(Debug, Deserialize)]
struct Request {
    id: u32,
    args: LookupStock,
}

#[test]
fn deserialize_validates_when_nested_in_a_derived_type() {
    let ok: Request = serde_json::from_value(json!({"id": 1, "args": {"ticker": "AAPL"}})).expect("valid");
    assert_eq!((ok.id, ok.args.ticker.as_str()), (1, "AAPL"));
    let err = serde_json::from_value::<Request>(json!({"id": 1, "args": {"ticker": "TOOLONG"}})).expect_err("invalid");
    assert!(err.to_string().contains("/ticker: expected a string of at most 5 characters"), "{err}");
    let err =
        serde_json::from_value::<Request>(json!({"id": 1, "args": {"ticker": "A", "admin": true}})).expect_err("extra");
    assert!(err.to_string().contains("/admin: unexpected property"), "{err}");
}

fn enforced<T: Tool>() -> Value {
    serde_json::from_str(T::SCHEMA).expect("schema JSON")
}

#[test]
fn json_schema_is_the_enforced_schema() {
    let mut generator = schemars::SchemaGenerator::default();
    let schema = <ConvertUnits as JsonSchema>::json_schema(&mut generator);
    assert_eq!(schema.as_value(), &enforced::<ConvertUnits>());
    assert_eq!(schema.as_value()["properties"]["value"]["maximum"], 1000000);
    assert_eq!(<ConvertUnits as JsonSchema>::schema_name(), "convert_units");
    assert_eq!(<LookupStock as JsonSchema>::schema_name(), "lookup_stock");
    assert_ne!(<ConvertUnits as JsonSchema>::schema_id(), <LookupStock as JsonSchema>::schema_id());
    assert!(<ConvertUnits as JsonSchema>::schema_id().ends_with("::ConvertUnits"));
}

#[test]
fn schema_for_adds_only_its_title_and_meta_schema() {
    let root = schemars::schema_for!(LookupStock).to_value();
    let mut expected = enforced::<LookupStock>();
    expected["title"] = json!("lookup_stock");
    expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert_eq!(root, expected);
}

/// What an MCP server (rmcp-style settings) advertises for a `T: JsonSchema` tool.
fn framework_advertises<T: JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

#[test]
fn a_framework_advertises_what_toolgate_enforces() {
    let mut advertised = framework_advertises::<ConvertUnits>();
    assert_eq!(advertised.as_object_mut().and_then(|m| m.remove("title")), Some(json!("convert_units")));
    assert_eq!(advertised, enforced::<ConvertUnits>());
}

#[derive(JsonSchema)]
#[allow(dead_code)]
struct Batch {
    first: ConvertUnits,
    second: Option<LookupStock>,
}

#[test]
fn generated_types_nest_in_derived_schemas() {
    let root = schemars::schema_for!(Batch).to_value();
    assert_eq!(root["$defs"]["convert_units"], enforced::<ConvertUnits>());
    assert_eq!(root["$defs"]["lookup_stock"], enforced::<LookupStock>());
    assert_eq!(root["properties"]["first"], json!({"$ref": "#/$defs/convert_units"}));
}

/// `Gate::check_call`: a call a framework took apart gets exactly the plain gate's answer to the
/// plain reply written as compact JSON, whatever the gate's envelope.
#[test]
fn a_framework_call_gets_the_plain_gates_answer() {
    use toolgate::gate::{Gate, Stage};
    let plain = gate_common::gate();
    let openai = Gate::<gate_common::Call>::openai().rule(gate_common::same_kind);
    let huge = json!({"value": 5, "from_unit": "km", "to_unit": "m", "note": "x".repeat(5_000)});
    let cases = [
        json!({"value": 5, "from_unit": "km", "to_unit": "m"}),
        json!({"value": "five", "from_unit": "km"}),
        json!({"value": 5, "from_unit": "m", "to_unit": "kg"}),
        json!({}),
        Value::Null,
        json!("{\"value\": 5}"),
        json!([1, 2]),
        huge,
    ];
    for args in cases {
        let reply = format!(r#"{{"tool":"convert_units","arguments":{args}}}"#);
        let expected = plain.check_one(&reply);
        assert_eq!(plain.check_call("convert_units", &args), expected, "{reply:.60}");
        assert_eq!(openai.check_call("convert_units", &args), expected, "{reply:.60}");
        if reply.len() <= 2_000 {
            // (Text is refused by its own length first: below.)
            assert_eq!(openai.check_call_text("convert_units", &args.to_string()), expected, "{reply:.60}");
        }
    }
    let unknown = plain.check_call("delete_all_notes", &json!({})).expect_err("not allowed");
    assert_eq!(unknown, plain.check_one(r#"{"tool":"delete_all_notes","arguments":{}}"#).expect_err("not allowed"));
    assert_eq!(
        unknown.tool_error(),
        "Your reply was rejected: there is no tool named \"delete_all_notes\". \
         The available tools are: convert_units, lookup_stock.\nCall one of the available tools instead."
    );

    // Text that is not JSON, or too deep: refused naming the tool, as the OpenAI gate does.
    let err = plain.check_call_text("convert_units", "{\"value\": 5,").expect_err("not JSON");
    assert_eq!(err.stage(), Stage::NotJson);
    assert_eq!(err.tool(), Some("convert_units"));
    assert!(err.problem().starts_with("Your reply was rejected: the arguments of convert_units are not valid JSON: "));
    let err = plain.check_call_text("convert_units", "").expect_err("empty");
    assert_eq!(err.stage(), Stage::NotJson);
    let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
    let err = plain.check_call_text("convert_units", &deep).expect_err("too deep");
    assert_eq!(err.stage(), Stage::TooDeep);
    assert!(err.problem().starts_with("Your reply was rejected: the arguments of convert_units are nested too deeply"));
    let err = plain.check_call_text("convert_units", &"1".repeat(3_000)).expect_err("too long");
    assert_eq!(err.stage(), Stage::TooLong);
    assert_eq!(err.reason(), "too long: 3000 bytes, the limit is 2000 bytes");
}

/// `Only<T>`: the toolbox of one tool, with its rules and its streaming validator.
#[test]
fn the_toolbox_of_one_tool() {
    use toolgate::gate::{Gate, Only, StreamEvent, StreamFormat, Toolbox};
    assert_eq!(Only::<ConvertUnits>::names(), ["convert_units"]);
    let gate = Gate::<Only<ConvertUnits>>::openai().rule(gate_common::same_kind);
    let ok = gate.check_call("convert_units", &json!({"value": 5, "from_unit": "km", "to_unit": "m"})).expect("ok");
    assert_eq!(ok.call.0.value, 5.0);
    let refused = gate.check_call("convert_units", &json!({"value": 5, "from_unit": "m", "to_unit": "kg"}));
    assert_eq!(refused.expect_err("rule").reason(), "rule: cannot convert m to kg");
    let mut stream = gate.stream(StreamFormat::OpenAiChat);
    let events = stream.push_value(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "c1", "function": {"name": "convert_units", "arguments": "{\"value\": \"x"}}]}}]}));
    assert!(matches!(events.as_slice(), [StreamEvent::Rejected(r)] if r.offset() == Some(10)), "{events:?}");
}

toolgate::tool_schema! {
    /// Book seats: 2020-12 keywords that draft-07 does not have.
    pub struct BookSeats = {
        "type": "object",
        "properties": {
            "row": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
            "card": {"type": "string"},
            "cvc": {"type": "string"}
        },
        "dependentRequired": {"card": ["cvc"]},
        "required": ["row"]
    };
}

/// What a client reading the `schemars` impl with draft-07 settings and inlined subschemas (as
/// ollama-rs and genai users do) advertises for a 2020-12 toolgate schema.
fn draft07_advertises<T: JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft07()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

#[test]
fn draft07_settings_change_what_a_2020_12_schema_means() {
    let advertised = draft07_advertises::<BookSeats>();
    // schemars declares draft-07 and rewrites what it knows: the tuple into draft-07's form (the
    // same meaning)...
    assert_eq!(advertised["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(
        advertised["properties"]["row"],
        json!({"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false})
    );
    // ...but keeps `dependentRequired`, a keyword draft-07 does not have: a draft-07 reader
    // ignores it, so a card without its cvc looks valid to the client and the model, and toolgate
    // refuses it.
    assert_eq!(advertised["dependentRequired"], json!({"card": ["cvc"]}));
    let call = json!({"row": ["A", 12], "card": "4242"});
    let err = BookSeats::validate(&call).expect_err("toolgate refuses it");
    assert_eq!(err.to_string(), "/cvc: required property is missing (required when \"card\" is present)");
    let mut rest = advertised.as_object().cloned().unwrap_or_default();
    for k in ["$schema", "title", "properties", "dependentRequired"] {
        rest.remove(k);
    }
    assert_eq!(Value::Object(rest), json!({"type": "object", "required": ["row"]}));
}
