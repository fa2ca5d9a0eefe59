//! The repair loop: a scripted model answers with an unknown tool, then a wrong type, then a good
//! call; the gate re-asks with feedback each time until the call passes, and never guesses.
//!
//! `cargo run --example retry`

use toolgate::gate::{Message, Repair};

use toolgate_examples::tools::{gate, Tools};

/// The scripted model's replies, in order: `unknown_tool`, `wrong_type`, `good`.
pub const SCRIPT: [&str; 3] = [
    r#"{"tool": "delete_all_notes", "arguments": {}}"#,
    r#"{"tool": "convert_units", "arguments": {"value": "five", "from_unit": "km", "to_unit": "m"}}"#,
    r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "km", "to_unit": "m"}}"#,
];

/// The lines the example prints: one per attempt, then the accepted call and its result.
#[must_use]
pub fn run() -> Vec<String> {
    let mut replies = SCRIPT.into_iter();
    // The model client: a closure from the conversation to the reply text. A real one would send
    // `messages` to a chat API; this one plays back the script.
    let model = |_messages: &[Message]| replies.next().unwrap_or_default().to_owned();
    let messages = vec![
        Message::system(
            "Call a tool by replying with {\"tool\": \"<name>\", \"arguments\": {...}} only. \
             Tools: convert_units, lookup_stock.",
        ),
        Message::user("How many metres are 5 km?"),
    ];
    let repair = gate().repair(messages, model);
    let mut lines: Vec<String> = repair.attempts().iter().map(ToString::to_string).collect();
    match repair {
        Repair::Accepted { calls, .. } => {
            for accepted in calls {
                lines.push(format!("call: {:?}", accepted.call));
                lines.push(format!("result: {}", accepted.call.dispatch(&mut Tools)));
            }
        }
        Repair::Prose { text, .. } => lines.push(format!("prose: {text}")),
        Repair::GaveUp { attempts, .. } => lines.push(format!("gave up after {} attempts", attempts.len())),
    }
    lines
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
