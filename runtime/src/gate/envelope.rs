//! Envelopes: where the tool calls are in a reply, for each supported reply shape.

use serde_json::{Map, Value};

use crate::violation::Found;

use super::rejection::quoted;

/// The shape of the replies a gate accepts. A gate accepts one shape only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Envelope {
    /// `{"tool": "<name>", "arguments": {...}}` and no other member: the shape a model is asked to
    /// write when the call is plain text. One call per reply.
    #[default]
    Plain,
    /// An OpenAI chat-completion message (`choices[0].message`, with `"role": "assistant"`): every
    /// entry of `tool_calls` is a
    /// call, whose `function.arguments` is a JSON *string* (parsed strictly). A message without
    /// `tool_calls` is prose: its `content` (or `refusal`) text.
    OpenAi,
    /// An Anthropic Messages API message (with `"role": "assistant"`), or just its `content` array:
    /// every content block of type
    /// `tool_use` is a call with its `input` object. A message without `tool_use` blocks is prose:
    /// its `text` blocks, concatenated.
    Anthropic,
}

impl Envelope {
    /// The envelope's name: `plain`, `OpenAI` or `Anthropic`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::OpenAi => "OpenAI",
            Self::Anthropic => "Anthropic",
        }
    }
}

/// A call's arguments as the envelope holds them.
pub(crate) enum Args {
    /// An object (plain envelope, Anthropic `input`).
    Value(Value),
    /// JSON text still to be parsed (OpenAI `function.arguments`).
    Text(String),
}

/// One call found in a reply, or the reason it cannot be read.
pub(crate) enum RawCall {
    Call { index: usize, id: Option<String>, name: String, args: Args },
    Broken { index: usize, id: Option<String>, name: Option<String>, problem: String },
}

/// What the envelope holds.
pub(crate) enum Extracted {
    Calls(Vec<RawCall>),
    Prose(String),
}

/// Find the calls in `value`; `Err` is a problem with the reply as a whole.
pub(crate) fn extract(envelope: Envelope, value: Value) -> Result<Extracted, String> {
    match envelope {
        Envelope::Plain => plain(value),
        Envelope::OpenAi => openai(value),
        Envelope::Anthropic => anthropic(value),
    }
}

fn plain(value: Value) -> Result<Extracted, String> {
    let mut map = match value {
        Value::Object(m) => m,
        other => {
            return Err(format!(
                "expected an object {{\"tool\": \"<tool name>\", \"arguments\": {{...}}}}, found {}",
                Found::of(&other)
            ))
        }
    };
    let extra = map.keys().filter(|k| *k != "tool" && *k != "arguments").count();
    if extra > 0 {
        // At most ten names: a reply with 100,000 members gets a message of bounded length.
        let mut names: Vec<String> =
            map.keys().filter(|k| *k != "tool" && *k != "arguments").take(10).map(|k| quoted(k)).collect();
        if extra > names.len() {
            names.push(format!("and {} more", extra - names.len()));
        }
        let s = if extra == 1 { "" } else { "s" };
        return Err(format!(
            "unexpected member{s} {} beside \"tool\" and \"arguments\"; a call has these two members only",
            names.join(", ")
        ));
    }
    let name = match map.remove("tool") {
        None => return Err("missing member \"tool\"".to_owned()),
        Some(Value::String(s)) => s,
        Some(other) => return Err(format!("\"tool\" must be a string, found {}", Found::of(&other))),
    };
    let args = match map.remove("arguments") {
        None => return Err("missing member \"arguments\"".to_owned()),
        Some(v @ Value::Object(_)) => v,
        Some(other) => return Err(format!("\"arguments\" must be an object, found {}", Found::of(&other))),
    };
    Ok(Extracted::Calls(vec![RawCall::Call { index: 0, id: None, name, args: Args::Value(args) }]))
}

fn check_role(msg: &Map<String, Value>) -> Result<(), String> {
    match msg.get("role") {
        None => Err("missing member \"role\" (an assistant message has \"role\": \"assistant\")".to_owned()),
        Some(Value::String(r)) if r == "assistant" => Ok(()),
        Some(other) => Err(format!("/role must be \"assistant\", found {}", Found::of(other))),
    }
}

fn openai(value: Value) -> Result<Extracted, String> {
    let mut msg = match value {
        Value::Object(m) => m,
        other => {
            return Err(format!(
                "expected an OpenAI chat message object {{\"role\": \"assistant\", ...}}, found {}",
                Found::of(&other)
            ))
        }
    };
    check_role(&msg)?;
    let calls = match msg.remove("tool_calls") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a,
        Some(other) => return Err(format!("/tool_calls must be an array, found {}", Found::of(&other))),
    };
    if calls.is_empty() {
        let text = match msg.remove("content") {
            None | Some(Value::Null) => match msg.remove("refusal") {
                Some(Value::String(s)) => s,
                _ => String::new(),
            },
            Some(Value::String(s)) => s,
            Some(Value::Array(parts)) => parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
            Some(other) => {
                return Err(format!(
                    "/content must be a string, an array of parts or null, found {}",
                    Found::of(&other)
                ))
            }
        };
        return Ok(Extracted::Prose(text));
    }
    Ok(Extracted::Calls(calls.into_iter().enumerate().map(|(i, c)| openai_call(i, c)).collect()))
}

fn openai_call(index: usize, call: Value) -> RawCall {
    let at = format!("/tool_calls/{index}");
    let broken = |id, name, problem| RawCall::Broken { index, id, name, problem };
    let mut c = match call {
        Value::Object(m) => m,
        other => return broken(None, None, format!("{at} must be an object, found {}", Found::of(&other))),
    };
    let id = match c.remove("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => return broken(None, None, format!("{at}/id must be a string, found {}", Found::of(&other))),
    };
    match c.get("type") {
        None => {}
        Some(Value::String(t)) if t == "function" => {}
        Some(other) => {
            return broken(id, None, format!("{at}/type must be \"function\", found {}", Found::of(other)));
        }
    }
    let mut f = match c.remove("function") {
        Some(Value::Object(f)) => f,
        None => return broken(id, None, format!("{at}/function is missing")),
        Some(other) => {
            return broken(id, None, format!("{at}/function must be an object, found {}", Found::of(&other)));
        }
    };
    let name = match f.remove("name") {
        Some(Value::String(s)) => s,
        None => return broken(id, None, format!("{at}/function/name is missing")),
        Some(other) => {
            return broken(id, None, format!("{at}/function/name must be a string, found {}", Found::of(&other)));
        }
    };
    match f.remove("arguments") {
        Some(Value::String(text)) => RawCall::Call { index, id, name, args: Args::Text(text) },
        None => broken(id, Some(name), format!("{at}/function/arguments is missing")),
        Some(other) => broken(
            id,
            Some(name),
            format!("{at}/function/arguments must be a string holding JSON, found {}", Found::of(&other)),
        ),
    }
}

fn anthropic(value: Value) -> Result<Extracted, String> {
    let (blocks, base) = match value {
        Value::Array(a) => (a, ""),
        Value::Object(mut m) => {
            check_role(&m)?;
            match m.remove("content") {
                Some(Value::Array(a)) => (a, "/content"),
                Some(Value::String(s)) => return Ok(Extracted::Prose(s)),
                None => return Err("missing member \"content\"".to_owned()),
                Some(other) => {
                    return Err(format!("/content must be an array of content blocks, found {}", Found::of(&other)))
                }
            }
        }
        other => {
            return Err(format!(
                "expected an Anthropic message {{\"role\": \"assistant\", \"content\": [...]}} or its content array, \
                 found {}",
                Found::of(&other)
            ))
        }
    };
    let mut calls = Vec::new();
    let mut text = String::new();
    for (bi, block) in blocks.into_iter().enumerate() {
        let mut b = match block {
            Value::Object(b) => b,
            other => return Err(format!("{base}/{bi} must be a content block object, found {}", Found::of(&other))),
        };
        let ty = match b.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(other) => return Err(format!("{base}/{bi}/type must be a string, found {}", Found::of(other))),
            None => return Err(format!("{base}/{bi}/type is missing")),
        };
        match ty.as_str() {
            "tool_use" => {
                let at = format!("{base}/{bi}");
                calls.push(anthropic_call(calls.len(), &at, &mut b));
            }
            "text" => {
                if let Some(Value::String(s)) = b.get("text") {
                    text.push_str(s);
                }
            }
            // thinking, redacted_thinking, server-side tool blocks…: neither calls for this program
            // nor prose.
            _ => {}
        }
    }
    if calls.is_empty() {
        Ok(Extracted::Prose(text))
    } else {
        Ok(Extracted::Calls(calls))
    }
}

fn anthropic_call(index: usize, at: &str, b: &mut Map<String, Value>) -> RawCall {
    let broken = |id, name, problem| RawCall::Broken { index, id, name, problem };
    let id = match b.remove("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => return broken(None, None, format!("{at}/id must be a string, found {}", Found::of(&other))),
    };
    let name = match b.remove("name") {
        Some(Value::String(s)) => s,
        None => return broken(id, None, format!("{at}/name is missing")),
        Some(other) => return broken(id, None, format!("{at}/name must be a string, found {}", Found::of(&other))),
    };
    match b.remove("input") {
        Some(v @ Value::Object(_)) => RawCall::Call { index, id, name, args: Args::Value(v) },
        None => broken(id, Some(name), format!("{at}/input is missing")),
        Some(other) => broken(id, Some(name), format!("{at}/input must be an object, found {}", Found::of(&other))),
    }
}
