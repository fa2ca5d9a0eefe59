//! `cargo run --example retry`: the repair loop with a scripted model that answers
//! `unknown_tool`, then `wrong_type`, then `good`.

use toolgate::gate::{Message, Repair};

use crate::gate::REPLIES;
use crate::tools::{gate, Tools};

/// The scripted model's replies, in order.
#[must_use]
pub fn script() -> Vec<&'static str> {
    ["unknown_tool", "wrong_type", "good"]
        .iter()
        .filter_map(|want| REPLIES.iter().find(|(name, _)| name == want).map(|(_, reply)| *reply))
        .collect()
}

/// The lines the example prints: one per attempt, then the accepted call and its result.
#[must_use]
pub fn run() -> Vec<String> {
    let mut replies = script().into_iter();
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
