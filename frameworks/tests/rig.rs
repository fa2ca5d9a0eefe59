//! A toolgate tool as a rig tool, in an agent run offline with rig's scripted model: the model's
//! first call is invalid and gets toolgate's violation lines back as the tool's error, its second
//! call passes and the tool runs. Bad input gets the plain gate's answer.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use rig_agent::test_utils::{MockCompletionModel, MockTurn};
use rig_agent::AgentBuilder;
use rig_core::tool::{Tool as _, ToolContext, ToolExecutionError};
use serde_json::{json, Value};
use toolgate::gate::{Gate, Only, Rejection};
use toolgate::{tool_schema, Tool};
use toolgate_rig::GateTool;

tool_schema! {
    /// Convert a value between two units of the same kind.
    pub struct ConvertUnits = {
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
            "from_unit": {"enum": ["m", "km", "g", "kg"]},
            "to_unit": {"enum": ["m", "km", "g", "kg"]}
        },
        "required": ["value", "from_unit", "to_unit"],
        "additionalProperties": false
    };
}

fn same_kind(c: &ConvertUnits) -> Result<(), String> {
    let mass = |u: &str| u.ends_with('g');
    if mass(c.from_unit.as_str()) == mass(c.to_unit.as_str()) {
        Ok(())
    } else {
        Err(format!("cannot convert {} to {}", c.from_unit, c.to_unit))
    }
}

fn gate() -> Gate<Only<ConvertUnits>> {
    Gate::plain().rule(same_kind)
}

/// The tool, recording the arguments of every run.
fn convert(ran: Arc<Mutex<Vec<f64>>>) -> impl rig_core::tool::Tool<Args = Value, Error = ToolExecutionError> {
    GateTool::with_gate(gate(), move |args: ConvertUnits| {
        let ran = Arc::clone(&ran);
        async move {
            ran.lock().expect("lock").push(args.value);
            let scale = |u: &str| if u.starts_with('k') { 1000.0 } else { 1.0 };
            Ok::<_, Infallible>(args.value * scale(args.from_unit.as_str()) / scale(args.to_unit.as_str()))
        }
    })
}

/// The plain gate's rejection of `{"tool": "convert_units", "arguments": <arguments>}`.
fn plain(arguments: &str) -> Rejection {
    gate()
        .check_one(&format!(r#"{{"tool":"convert_units","arguments":{arguments}}}"#))
        .expect_err("the plain gate refuses it")
}

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[tokio::test]
async fn agent_repairs_an_invalid_call() {
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call_1", "convert_units", json!({"value": "five", "from_unit": "km"})),
        MockTurn::tool_call("call_2", "convert_units", json!({"value": 5, "from_unit": "km", "to_unit": "m"})),
        MockTurn::text("5 km is 5000 m."),
    ]);
    let ran = Arc::new(Mutex::new(Vec::new()));
    let agent = AgentBuilder::new(model.clone()).tool(convert(Arc::clone(&ran))).build();
    let response = agent.prompt("How many metres are 5 km?").max_turns(4).await.expect("the run ends");
    assert_eq!(response.output(), "5 km is 5000 m.");
    // The tool ran once, with the second call's checked arguments.
    assert_eq!(*ran.lock().expect("lock"), [5.0]);

    let requests = model.requests();
    assert_eq!(requests.len(), 3);
    // The model was offered the exact schema.
    let offered = serde_json::to_value(&requests[0].tools).expect("tools as JSON");
    let mut offered_schema = None;
    if let Value::Array(tools) = &offered {
        offered_schema = tools.iter().find(|t| t["name"] == "convert_units").map(|t| t["parameters"].clone());
    }
    assert_eq!(offered_schema, Some(serde_json::from_str::<Value>(ConvertUnits::SCHEMA).expect("schema")));
    // The second request carries toolgate's answer to the first call, and nothing of serde's.
    let expected = plain(r#"{"value": "five", "from_unit": "km"}"#).tool_error();
    assert!(expected.contains("- at /value: expected number, found string \"five\""));
    assert!(expected.contains("- at /to_unit: required property is missing"));
    let history = serde_json::to_value(&requests[1].chat_history).expect("history as JSON");
    let mut seen = Vec::new();
    strings(&history, &mut seen);
    assert!(seen.contains(&expected), "{history:#}");
    assert!(!seen.iter().any(|s| s.contains("failed to parse tool arguments")), "{history:#}");
}

#[tokio::test]
async fn agent_sees_a_refused_rule() {
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call_1", "convert_units", json!({"value": 5, "from_unit": "m", "to_unit": "kg"})),
        MockTurn::text("That conversion is not possible."),
    ]);
    let ran = Arc::new(Mutex::new(Vec::new()));
    let agent = AgentBuilder::new(model.clone()).tool(convert(Arc::clone(&ran))).build();
    agent.prompt("5 m in kg?").max_turns(3).await.expect("the run ends");
    assert!(ran.lock().expect("lock").is_empty());
    let history = serde_json::to_value(&model.requests()[1].chat_history).expect("history as JSON");
    let mut seen = Vec::new();
    strings(&history, &mut seen);
    let expected = "Your reply was rejected: the call to convert_units was refused: cannot convert m to kg.\n\
                    Call the tool again with corrected arguments.";
    assert!(seen.iter().any(|s| s == expected), "{history:#}");
}

/// Bad input straight through the tool (as rig's dispatch calls it): the plain gate's answers.
#[tokio::test]
async fn bad_input_gets_the_plain_gates_answer() {
    let ran = Arc::new(Mutex::new(Vec::new()));
    let tool = convert(Arc::clone(&ran));
    let huge = json!({"value": 5, "from_unit": "km", "to_unit": "m", "note": "x".repeat(100_000)});
    for args in [Value::Null, json!({}), json!(r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#), huge] {
        let plain_args = args.to_string();
        let err = tool.call(&mut ToolContext::new(), args).await.err().expect("refused");
        assert_eq!(err.model_feedback(), Some(plain(&plain_args).tool_error().as_str()), "{plain_args:.80}");
    }
    assert!(ran.lock().expect("lock").is_empty());
    assert_eq!(tool.parameters(), serde_json::from_str::<Value>(ConvertUnits::SCHEMA).expect("schema"));
}

/// rig alone, with the toolgate type as `Args`: the type still validates (its `Deserialize`
/// does) and the model gets the violations inside rig's parse error; no rules, no limits.
struct Alone;

impl rig_core::tool::Tool for Alone {
    const NAME: &'static str = "convert_units";
    type Args = ConvertUnits;
    type Output = f64;
    type Error = Infallible;

    fn description(&self) -> String {
        ConvertUnits::DESCRIPTION.to_owned()
    }

    fn parameters(&self) -> Value {
        serde_json::from_str(ConvertUnits::SCHEMA).unwrap_or_default()
    }

    async fn call(&self, _context: &mut ToolContext, args: ConvertUnits) -> Result<f64, Infallible> {
        Ok(args.value)
    }
}

#[tokio::test]
async fn rig_alone_sends_serdes_text() {
    let model = MockCompletionModel::from_turns([
        MockTurn::tool_call("call_1", "convert_units", json!({"value": "five", "from_unit": "km"})),
        MockTurn::text("done"),
    ]);
    let agent = AgentBuilder::new(model.clone()).tool(Alone).build();
    agent.prompt("5 km in m?").max_turns(3).await.expect("the run ends");
    let history = serde_json::to_value(&model.requests()[1].chat_history).expect("history as JSON");
    let mut seen = Vec::new();
    strings(&history, &mut seen);
    let sent = seen.iter().find(|s| s.starts_with("failed to parse tool arguments: ")).expect("rig's text");
    assert_eq!(
        sent,
        "failed to parse tool arguments: /value: expected number, found string \"five\"\n\
         /to_unit: required property is missing"
    );
}
