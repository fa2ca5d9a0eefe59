//! The toolbox: the `Call` enum, the allowlist, dispatch, and the declarations for OpenAI,
//! Anthropic and MCP (compared as JSON against expected values), with OpenAI strict mode only
//! where the schema qualifies.

mod gate_common;

use gate_common::{Call, ConvertUnits, LookupStock, Tools};
use serde_json::{json, Value};
use toolgate::gate::{openai_strict, Holds, Provider, ToolSpec, Toolbox};
use toolgate::{tool_schema, toolbox, Tool};

tool_schema! {
    /// Get the current weather in a city.
    pub struct GetWeather = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": ["integer", "null"], "minimum": 1, "maximum": 7}
        },
        "required": ["city", "unit", "days"],
        "additionalProperties": false
    };
}

tool_schema! {
    pub struct NoDescription = {"type": "object", "additionalProperties": false};
}

toolbox! {
    /// Weather tools, with an explicitly typed variant.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Weather {
        Now(GetWeather),
        Bare(NoDescription),
    }
}

#[test]
fn tools_in_declaration_order() {
    assert_eq!(Call::names(), ["convert_units", "lookup_stock"]);
    assert_eq!(Call::TOOLS, &[ToolSpec::of::<ConvertUnits>(), ToolSpec::of::<LookupStock>()]);
    assert_eq!(Call::TOOLS[1].name, "lookup_stock");
    assert_eq!(Call::TOOLS[1].description, "Look up the latest price of a listed stock.");
    assert_eq!(Call::TOOLS[1].schema, LookupStock::SCHEMA);
    assert_eq!(Weather::names(), ["get_weather", "no_description"]);
}

#[test]
fn allowlist_is_exact() {
    assert!(Call::allows("convert_units"));
    assert!(Call::allows("lookup_stock"));
    for name in ["", "Convert_units", "convert_units ", "lookup", "get_weather", "LookupStock"] {
        assert!(!Call::allows(name), "{name:?}");
    }
}

#[test]
fn decode_validates_and_builds() {
    let args = json!({"value": 5, "from_unit": "km", "to_unit": "m"});
    let call = Call::decode("convert_units", &args).expect("known").expect("valid");
    assert_eq!(call.tool_name(), "convert_units");
    let Call::ConvertUnits(c) = &call else { panic!("variant") };
    assert_eq!(c.value, 5.0);
    assert!(Call::decode("nope", &args).is_none());
    let err = Call::decode("lookup_stock", &args).expect("known").expect_err("invalid");
    assert!(err.to_string().contains("/ticker: required property is missing"), "{err}");
    let w = Weather::decode("get_weather", &json!({"city": "Hanoi", "unit": "celsius", "days": null}))
        .expect("known")
        .expect("valid");
    assert!(matches!(w, Weather::Now(_)));
    assert_eq!(w.tool_name(), "get_weather");
}

#[test]
fn holds_and_from() {
    let args = ConvertUnits::from_value(&json!({"value": 1, "from_unit": "m", "to_unit": "m"})).expect("valid");
    let call: Call = args.clone().into();
    assert_eq!(Holds::<ConvertUnits>::get(&call), Some(&args));
    assert_eq!(Holds::<LookupStock>::get(&call), None);
}

#[test]
fn dispatch_runs_the_handler_for_the_tool() {
    let mut tools = Tools::default();
    let a = Call::decode("convert_units", &json!({"value": 2, "from_unit": "km", "to_unit": "m"}))
        .expect("known")
        .expect("valid");
    let b = Call::decode("lookup_stock", &json!({"ticker": "AAPL"})).expect("known").expect("valid");
    assert_eq!(a.dispatch(&mut tools), "2 km -> m");
    assert_eq!(b.dispatch(&mut tools), "quote AAPL");
    assert_eq!(tools.ran, ["convert_units", "lookup_stock"]);
}

fn convert_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
            "from_unit": {"enum": ["m", "km", "g", "kg"]},
            "to_unit": {"enum": ["m", "km", "g", "kg"]}
        },
        "required": ["value", "from_unit", "to_unit"],
        "additionalProperties": false
    })
}

fn stock_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "minLength": 1, "maxLength": 5},
            "exchange": {"enum": ["NYSE", "NASDAQ", "LSE"]}
        },
        "required": ["ticker"],
        "additionalProperties": false
    })
}

fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": ["integer", "null"], "minimum": 1, "maximum": 7}
        },
        "required": ["city", "unit", "days"],
        "additionalProperties": false
    })
}

#[test]
fn openai_declarations() {
    assert_eq!(
        Call::declarations(Provider::OpenAi),
        json!([
            {"type": "function", "function": {
                "name": "convert_units",
                "description": "Convert a value between two units of the same kind.",
                "parameters": convert_schema()
            }},
            {"type": "function", "function": {
                "name": "lookup_stock",
                "description": "Look up the latest price of a listed stock.",
                "parameters": stock_schema()
            }}
        ])
    );
    assert_eq!(
        Weather::declarations(Provider::OpenAi),
        json!([
            {"type": "function", "function": {
                "name": "get_weather",
                "description": "Get the current weather in a city.",
                "parameters": weather_schema(),
                "strict": true
            }},
            {"type": "function", "function": {
                "name": "no_description",
                "parameters": {"type": "object", "additionalProperties": false},
                "strict": true
            }}
        ])
    );
}

#[test]
fn anthropic_declarations() {
    assert_eq!(
        Call::declarations(Provider::Anthropic),
        json!([
            {"name": "convert_units", "description": "Convert a value between two units of the same kind.", "input_schema": convert_schema()},
            {"name": "lookup_stock", "description": "Look up the latest price of a listed stock.", "input_schema": stock_schema()}
        ])
    );
    assert_eq!(
        Weather::declarations(Provider::Anthropic),
        json!([
            {"name": "get_weather", "description": "Get the current weather in a city.", "input_schema": weather_schema()},
            {"name": "no_description", "input_schema": {"type": "object", "additionalProperties": false}}
        ])
    );
}

#[test]
fn mcp_declarations() {
    assert_eq!(
        Call::declarations(Provider::Mcp),
        json!([
            {"name": "convert_units", "description": "Convert a value between two units of the same kind.", "inputSchema": convert_schema()},
            {"name": "lookup_stock", "description": "Look up the latest price of a listed stock.", "inputSchema": stock_schema()}
        ])
    );
}

#[test]
fn declarations_json_copies_the_schema_text_verbatim() {
    for provider in [Provider::OpenAi, Provider::Anthropic, Provider::Mcp] {
        let text = Weather::declarations_json(provider);
        let parsed: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(parsed, Weather::declarations(provider), "{provider:?}");
        assert!(text.contains(GetWeather::SCHEMA), "{text}");
    }
    assert_eq!(
        ToolSpec::of::<GetWeather>().declaration_json(Provider::Anthropic),
        format!(
            "{{\"name\":\"get_weather\",\"description\":\"Get the current weather in a city.\",\"input_schema\":{}}}",
            GetWeather::SCHEMA
        )
    );
    // The schema text keeps the member order of the source (`type` first, `properties` before `required`).
    assert!(GetWeather::SCHEMA.starts_with(r#"{"type":"object","properties":{"city":"#), "{}", GetWeather::SCHEMA);
}

#[test]
fn declarations_use_the_enforced_schema() {
    // What is advertised is what the validator enforces: a value that the declared schema's
    // maximum forbids is refused.
    let decl = Call::declarations(Provider::Anthropic);
    assert_eq!(decl[0]["input_schema"]["properties"]["value"]["maximum"], 1000000);
    assert!(!ConvertUnits::is_valid(&json!({"value": 1000001, "from_unit": "m", "to_unit": "m"})));
    assert!(ConvertUnits::is_valid(&json!({"value": 1000000, "from_unit": "m", "to_unit": "m"})));
}

fn strict(schema: Value) -> Result<(), String> {
    openai_strict(&schema).map_err(|e| e.to_string())
}

#[test]
fn strict_mode_qualification() {
    assert_eq!(strict(weather_schema()), Ok(()));
    assert_eq!(
        strict(convert_schema()),
        Err("/properties/from_unit: every subschema needs a `type` (or `anyOf`, or `$ref`) in strict mode".into())
    );
    assert_eq!(
        strict(stock_schema()),
        Err("(root): property \"exchange\" is not in `required`; strict mode needs every property there \
             (an optional one is written as required with a type that allows null)"
            .into())
    );
    let mut all_required = stock_schema();
    all_required["required"] = json!(["ticker", "exchange"]);
    all_required["properties"]["exchange"]["type"] = json!("string");
    assert_eq!(strict(all_required), Err("/properties/ticker: `maxLength` is not supported in strict mode".into()));
    assert_eq!(ToolSpec::of::<GetWeather>().openai_strict(), Ok(()));
    assert!(ToolSpec::of::<LookupStock>().openai_strict().is_err());

    let ok = json!({
        "type": "object",
        "title": "T",
        "description": "d",
        "properties": {
            "when": {"type": "string", "format": "date-time", "pattern": "^2"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
            "kind": {"const": "x", "type": "string"},
            "either": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/inner"}]},
            "inner": {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"], "additionalProperties": false}
        },
        "required": ["when", "tags", "n", "kind", "either", "inner"],
        "additionalProperties": false,
        "$defs": {"inner": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}
    });
    assert_eq!(strict(ok.clone()), Ok(()));

    let not = |pointer_and_reason: &str, edit: &dyn Fn(&mut Value)| {
        let mut s = ok.clone();
        edit(&mut s);
        assert_eq!(strict(s), Err(pointer_and_reason.to_owned()));
    };
    not("(root): the root must be {\"type\": \"object\"}", &|s| s["type"] = json!("array"));
    not("(root): the root must be {\"type\": \"object\"}", &|s| {
        s.as_object_mut().map(|m| m.remove("type"));
    });
    not("(root): every object needs \"additionalProperties\": false in strict mode", &|s| {
        s["additionalProperties"] = json!(true);
    });
    not("(root): every object needs \"additionalProperties\": false in strict mode", &|s| {
        s.as_object_mut().map(|m| m.remove("additionalProperties"));
    });
    not(
        "(root): property \"n\" is not in `required`; strict mode needs every property there (an optional one is written as required with a type that allows null)",
        &|s| s["required"] = json!(["when", "tags", "kind", "either", "inner"]),
    );
    not("/properties/inner: every object needs \"additionalProperties\": false in strict mode", &|s| {
        s["properties"]["inner"]["additionalProperties"] = json!({"type": "string"});
    });
    not("/properties/when: `format` \"uri\" is not supported in strict mode", &|s| {
        s["properties"]["when"]["format"] = json!("uri");
    });
    not("/properties/tags: `uniqueItems` is not supported in strict mode", &|s| {
        s["properties"]["tags"]["uniqueItems"] = json!(true);
    });
    not("/properties/tags/items: a boolean schema is not supported in strict mode", &|s| {
        s["properties"]["tags"]["items"] = json!(true);
    });
    not("/properties/either/anyOf/0: `maxLength` is not supported in strict mode", &|s| {
        s["properties"]["either"]["anyOf"][0]["maxLength"] = json!(3);
    });
    not("/$defs/inner: every object needs \"additionalProperties\": false in strict mode", &|s| {
        s["$defs"]["inner"]["additionalProperties"] = json!(true);
    });
    not("(root): `$schema` is not supported in strict mode", &|s| {
        s["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    });
    not("(root): `default` is not supported in strict mode", &|s| s["default"] = json!({}));
    not("/properties/n: `x-unit` is not supported in strict mode", &|s| s["properties"]["n"]["x-unit"] = json!("m"));
    not("/properties/either/anyOf/1: only local `$ref`s (\"#...\") are supported in strict mode", &|s| {
        s["properties"]["either"]["anyOf"][1]["$ref"] = json!("https://example.com/s.json");
    });
}

#[test]
fn strict_mode_limits() {
    // 11 levels of nested objects.
    let mut s = json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false});
    for _ in 0..10 {
        s = json!({"type": "object", "properties": {"x": s}, "required": ["x"], "additionalProperties": false});
    }
    let err = openai_strict(&s).expect_err("too deep");
    assert_eq!(err.reason, "strict mode allows at most 10 levels of nested objects");
    assert_eq!(err.pointer, "/properties/x".repeat(10));
    // 10 levels are fine.
    let inner = s["properties"]["x"].clone();
    assert_eq!(openai_strict(&inner), Ok(()));

    let many: Vec<String> = (0..1001).map(|i| i.to_string()).collect();
    let e = json!({"type": "object", "properties": {"e": {"type": "string", "enum": many}}, "required": ["e"], "additionalProperties": false});
    assert_eq!(openai_strict(&e).expect_err("too many").reason, "strict mode allows at most 1000 enum values in all");
}

#[test]
fn tool_names_must_be_unique() {
    use toolgate::gate::__names_unique;
    assert!(__names_unique(&["a", "b", "ab"]));
    assert!(__names_unique(&[]));
    assert!(!__names_unique(&["a", "b", "a"]));
    assert!(!__names_unique(&["lookup_stock", "lookup_stock"]));
}
