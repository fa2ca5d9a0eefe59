//! Structured extraction of `{sender, urgency, summary}` from two support emails (one in Vietnamese, one urgent) through an Anthropic-shaped gate, and a
//! `send_alert_email` call for the urgent one only. Then the framework fit: the same generated
//! type as a framework sees it, through `schemars::JsonSchema` and `serde::Deserialize`.
//!
//! `cargo run --example email_triage`

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use toolgate::gate::{Gate, Handle, Outcome, Provider, Toolbox};
use toolgate::{tool_schema, toolbox, Tool};

tool_schema! {
    /// Record the triage of one support email.
    #[tool(name = "record_triage")]
    pub struct Triage = {
        "type": "object",
        "properties": {
            "sender": {"type": "string", "minLength": 3, "maxLength": 254, "description": "The sender's email address"},
            "urgency": {"enum": ["low", "high"]},
            "summary": {"type": "string", "minLength": 1, "maxLength": 200, "description": "One line, in the email's language"}
        },
        "required": ["sender", "urgency", "summary"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Alert the on-call engineer about an urgent email.
    pub struct SendAlertEmail = {
        "type": "object",
        "properties": {
            "to": {"enum": ["oncall@example.com"]},
            "subject": {"type": "string", "minLength": 1, "maxLength": 120},
            "body": {"type": "string", "maxLength": 1000}
        },
        "required": ["to", "subject", "body"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The triage desk's tools.
    #[derive(Debug, Clone, PartialEq)]
    pub enum DeskCall {
        Triage,
        SendAlertEmail,
    }
}

/// The two support emails.
pub const EMAILS: [&str; 2] = [
    "From: Nguyễn Thị Lan <lan.nguyen@example.vn>\n\
     Subject: Hỏi về hóa đơn tháng 5\n\
     \n\
     Chào bộ phận hỗ trợ, vì sao hóa đơn tháng 5 của tôi cao hơn tháng trước? Không gấp, cảm ơn!",
    "From: Dana Okafor <dana.okafor@example.com>\n\
     Subject: URGENT: checkout is down for all customers\n\
     \n\
     Since 09:12 UTC every checkout fails with error 502. We are losing orders. Please call me.",
];

/// The program's side of the tools: the triage records and the outbox.
#[derive(Debug, Default)]
struct Desk {
    records: Vec<Triage>,
    outbox: Vec<SendAlertEmail>,
}

impl Handle<Triage> for Desk {
    type Output = String;
    fn handle(&mut self, args: Triage) -> String {
        self.records.push(args);
        format!("recorded as triage #{}", self.records.len())
    }
}

impl Handle<SendAlertEmail> for Desk {
    type Output = String;
    fn handle(&mut self, args: SendAlertEmail) -> String {
        let line = format!("alert queued to {}", args.to);
        self.outbox.push(args);
        line
    }
}

fn header<'a>(email: &'a str, name: &str) -> &'a str {
    email.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default()
}

/// The scripted model. Every field it fills in comes from the email text: the sender from the
/// `From:` address, the urgency from the subject, the summary from the subject line.
fn model(messages: &[Value]) -> String {
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let reply = match &last["content"] {
        Value::String(email) => {
            let from = header(email, "From:");
            let sender = from.split(['<', '>']).nth(1).unwrap_or(from);
            let subject = header(email, "Subject:");
            let urgent = subject.starts_with("URGENT");
            let mut content = vec![
                json!({"type": "text", "text": "I'll record the triage."}),
                json!({"type": "tool_use", "id": format!("toolu_{}", messages.len()), "name": "record_triage", "input": {
                    "sender": sender,
                    "urgency": if urgent { "high" } else { "low" },
                    "summary": subject.trim_start_matches("URGENT:").trim(),
                }}),
            ];
            if urgent {
                let body = email.split("\n\n").nth(1).unwrap_or_default();
                content.push(json!({"type": "tool_use", "id": format!("toolu_{}_alert", messages.len()), "name": "send_alert_email", "input": {
                    "to": "oncall@example.com",
                    "subject": format!("Urgent email from {sender}"),
                    "body": body,
                }}));
            }
            json!({"role": "assistant", "content": content})
        }
        _ => {
            let results = last["content"].as_array().map_or(0, Vec::len);
            let text = if results > 1 { "Triaged, and the on-call engineer is alerted." } else { "Triaged." };
            json!({"role": "assistant", "content": [{"type": "text", "text": text}]})
        }
    };
    reply.to_string()
}

/// Triage one email: ask, gate, run the checked calls, answer with `tool_result` blocks, until prose.
fn triage(email: &str, gate: &Gate<DeskCall>, desk: &mut Desk, lines: &mut Vec<String>) -> Vec<Value> {
    let mut messages = vec![json!({"role": "user", "content": email})];
    for _turn in 0..3 {
        let reply = model(&messages);
        let outcome = gate.check(&reply);
        messages.push(toolgate::parse(&reply).unwrap_or(Value::Null));
        match outcome {
            Outcome::Prose(text) => {
                lines.push(format!("assistant: {text}"));
                break;
            }
            Outcome::Rejected(rejection) => {
                lines.push(format!("gate: REJECT {rejection}"));
                messages.push(json!({"role": "user", "content": rejection.feedback()}));
            }
            Outcome::Calls(results) => {
                let mut blocks = Vec::new();
                for result in results {
                    match result {
                        Ok(accepted) => {
                            lines.push(format!(
                                "gate: call {} RUN {} {}",
                                accepted.index,
                                accepted.tool(),
                                accepted.arguments
                            ));
                            let output = accepted.call.dispatch(desk);
                            blocks.push(json!({"type": "tool_result", "tool_use_id": accepted.id, "content": output}));
                        }
                        Err(rejection) => {
                            lines.push(format!("gate: REJECT {rejection}"));
                            blocks.push(json!({"type": "tool_result", "tool_use_id": rejection.call_id(),
                                "is_error": true, "content": rejection.feedback()}));
                        }
                    }
                }
                messages.push(json!({"role": "user", "content": blocks}));
            }
        }
    }
    messages
}

/// What a framework that takes `T: JsonSchema` advertises for `T` (an MCP server's settings:
/// subschemas inline, no `$schema` member).
pub fn advertised_by_framework<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// How a framework that takes `T: Deserialize` reads a tool's arguments.
///
/// # Errors
/// `serde_json`'s error, which for a generated type carries the validator's violations.
pub fn read_by_framework<T: DeserializeOwned>(arguments: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(arguments)
}

/// The lines the example prints: each email's gate verdicts and transcript, then the framework fit.
#[must_use]
pub fn run() -> Vec<String> {
    let gate = Gate::<DeskCall>::anthropic();
    let mut desk = Desk::default();
    let mut lines = vec![format!("tools: {}", DeskCall::declarations_json(Provider::Anthropic))];
    for (i, email) in EMAILS.iter().enumerate() {
        lines.push(format!("== email {}: {}", i + 1, header(email, "Subject:")));
        let messages = triage(email, &gate, &mut desk, &mut lines);
        lines.push("transcript:".to_owned());
        let pretty = serde_json::to_string_pretty(&messages).unwrap_or_default();
        lines.extend(pretty.lines().map(str::to_owned));
    }
    for r in &desk.records {
        lines.push(format!("record: {} | {} | {}", r.sender, r.urgency, r.summary));
    }
    for a in &desk.outbox {
        lines.push(format!("outbox: to {} | {}", a.to, a.subject));
    }

    lines.push("== framework fit".to_owned());
    let mut advertised = advertised_by_framework::<Triage>();
    // schemars adds the schema name as a `title`; everything else is the schema toolgate enforces.
    if let Some(m) = advertised.as_object_mut() {
        m.remove("title");
    }
    let enforced: Value = serde_json::from_str(Triage::SCHEMA).unwrap_or_default();
    lines.push(format!("schemars advertises exactly the enforced schema: {}", advertised == enforced));
    let bad = json!({"sender": "dana.okafor@example.com", "urgency": "critical", "summary": "checkout is down"});
    match read_by_framework::<Triage>(bad) {
        Ok(t) => lines.push(format!("Deserialize accepted {t:?}")),
        Err(e) => lines.push(format!("Deserialize refused: {e}")),
    }
    lines
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
