//! The OpenAI-shaped round trip with a `get_weather` tool.
//!
//! The program owns the loop: it sends the conversation and the tool declarations, gates every
//! reply, runs each checked call itself (the model never runs anything), checks the tool's result
//! against its own schema, and answers each call with a `tool` message: the result, or the gate's
//! feedback. Four conversations show a good call and the three ways a call arrives broken.
//!
//! `cargo run --example round_trip`

use std::collections::VecDeque;

use serde_json::{json, Value};
use toolgate::gate::{check_result, Gate, Handle, Outcome, Provider, Toolbox};
use toolgate::{tool_schema, toolbox};

tool_schema! {
    /// Get the current weather in a city.
    pub struct GetWeather = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city, e.g. Hanoi"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
        },
        "required": ["city", "unit"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// What `get_weather` returns.
    pub struct GetWeatherResult = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "temperature": {"type": "number", "minimum": -100, "maximum": 150},
            "unit": {"enum": ["celsius", "fahrenheit"]},
            "summary": {"type": "string", "maxLength": 200}
        },
        "required": ["city", "temperature", "unit", "summary"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The tools of the weather assistant.
    #[derive(Debug, Clone, PartialEq)]
    pub enum WeatherCall {
        GetWeather,
    }
}

/// The program's weather service (made-up readings).
struct Weather;

impl Handle<GetWeather> for Weather {
    type Output = Value;
    fn handle(&mut self, args: GetWeather) -> Value {
        let celsius = if args.city == "Hanoi" { 31.0 } else { 5.0 };
        let (temperature, unit) = match args.unit.as_str() {
            "fahrenheit" => (celsius * 9.0 / 5.0 + 32.0, "fahrenheit"),
            _ => (celsius, "celsius"),
        };
        let summary =
            if celsius > 25.0 { "hot and humid, light wind" } else { "cold, with a strong wind from the sea" };
        json!({"city": args.city, "temperature": temperature, "unit": unit, "summary": summary})
    }
}

/// One scripted model turn.
enum Turn {
    /// Reply with this assistant message.
    Say(Value),
    /// Read the last tool message and describe it in prose.
    Describe,
}

fn call(id: &str, name: &str, arguments: &str) -> Turn {
    Turn::Say(json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [{"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}]
    }))
}

fn prose(text: &str) -> Turn {
    Turn::Say(json!({"role": "assistant", "content": text}))
}

/// The scripted model: plays back its turns; `Describe` reads the tool result from the messages.
fn model(messages: &[Value], script: &mut VecDeque<Turn>) -> String {
    let reply = match script.pop_front() {
        Some(Turn::Say(v)) => v,
        Some(Turn::Describe) => {
            let result = messages
                .iter()
                .rev()
                .find(|m| m["role"] == "tool")
                .and_then(|m| m["content"].as_str())
                .and_then(|c| serde_json::from_str::<Value>(c).ok())
                .unwrap_or(Value::Null);
            let unit = if result["unit"] == "fahrenheit" { "°F" } else { "°C" };
            json!({"role": "assistant", "content": format!(
                "It is {} {unit} in {}: {}.",
                result["temperature"], result["city"].as_str().unwrap_or("?"), result["summary"].as_str().unwrap_or("?")
            )})
        }
        None => json!({"role": "assistant", "content": "(the script has ended)"}),
    };
    reply.to_string()
}

fn show_call(reply: &Value) -> String {
    let calls = reply["tool_calls"].as_array().map(Vec::as_slice).unwrap_or_default();
    let shown: Vec<String> = calls
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["function"]["name"].as_str().unwrap_or("?"),
                c["function"]["arguments"].as_str().unwrap_or("?")
            )
        })
        .collect();
    shown.join("; ")
}

/// Run one conversation: ask, gate, run or answer with feedback, until the model answers in prose.
fn conversation(title: &str, question: &str, script: Vec<Turn>, lines: &mut Vec<String>) {
    let gate = Gate::<WeatherCall>::openai();
    let mut script: VecDeque<Turn> = script.into();
    let mut messages = vec![
        json!({"role": "system", "content": "You answer weather questions. Use the tools you are given."}),
        json!({"role": "user", "content": question}),
    ];
    lines.push(format!("== {title}"));
    lines.push(format!("user: {question}"));
    for _turn in 0..4 {
        let reply = model(&messages, &mut script);
        let reply_value = toolgate::parse(&reply).unwrap_or_else(|_| json!({"role": "assistant", "content": reply}));
        match gate.check(&reply) {
            Outcome::Prose(text) => {
                lines.push(format!("assistant: {text}"));
                lines.push("gate: prose, returned as prose".to_owned());
                messages.push(reply_value);
                return;
            }
            Outcome::Rejected(rejection) => {
                // The reply as a whole is unusable (never happens with a real API's messages).
                lines.push(format!("gate: REJECT {rejection}"));
                messages.push(reply_value);
                messages.push(json!({"role": "user", "content": rejection.feedback()}));
            }
            Outcome::Calls(results) => {
                lines.push(format!("assistant: tool call {}", show_call(&reply_value)));
                messages.push(reply_value);
                for result in results {
                    let (id, content) = match result {
                        Ok(accepted) => {
                            lines.push(format!("gate: call {} RUN {}", accepted.index, accepted.tool()));
                            let output = accepted.call.dispatch(&mut Weather);
                            // The result is checked against its own schema before the model sees it.
                            let content = match check_result::<GetWeatherResult>(output) {
                                Ok(checked) => checked.content(),
                                Err(e) => format!("The tool failed: {e}"),
                            };
                            (accepted.id, content)
                        }
                        Err(rejection) => {
                            lines.push(format!(
                                "gate: call {} REJECT {rejection}",
                                rejection.call_index().unwrap_or_default()
                            ));
                            (rejection.call_id().map(str::to_owned), rejection.feedback())
                        }
                    };
                    for (i, l) in content.lines().enumerate() {
                        lines.push(format!("{}{l}", if i == 0 { "tool: " } else { "      " }));
                    }
                    messages.push(json!({"role": "tool", "tool_call_id": id, "content": content}));
                }
            }
        }
    }
    lines.push("program: too many turns, stopping".to_owned());
}

/// The lines the example prints.
#[must_use]
pub fn run() -> Vec<String> {
    let mut lines = vec![format!("tools: {}", WeatherCall::declarations_json(Provider::OpenAi))];
    conversation(
        "a tool call, checked, run by the program, answered with a tool message",
        "What's the weather in Hanoi?",
        vec![call("call_1", "get_weather", r#"{"city": "Hanoi", "unit": "celsius"}"#), Turn::Describe],
        &mut lines,
    );
    conversation(
        "no tool_calls: prose, returned as prose",
        "Which unit do you use?",
        vec![prose("Celsius, unless you ask for Fahrenheit.")],
        &mut lines,
    );
    conversation(
        "arguments truncated mid-string: rejected and re-asked",
        "And in Reykjavik, in fahrenheit?",
        vec![
            call("call_2", "get_weather", r#"{"city": "Reykja"#),
            call("call_3", "get_weather", r#"{"city": "Reykjavik", "unit": "fahrenheit"}"#),
            Turn::Describe,
        ],
        &mut lines,
    );
    conversation(
        "a tool that does not exist: rejected",
        "Will it rain in Hanoi tomorrow?",
        vec![
            call("call_4", "get_forecast", r#"{"city": "Hanoi", "day": "tomorrow"}"#),
            prose("I can only look up the current weather, not a forecast."),
        ],
        &mut lines,
    );
    lines
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
