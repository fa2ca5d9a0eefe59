//! A stream gate over recorded provider streams: an OpenAI Chat Completions stream with two
//! parallel tool calls, one of which goes wrong half-way (aborted the moment that is certain),
//! and an Anthropic stream whose call is accepted at its `content_block_stop`.
//!
//! `cargo run --example stream_gate`

use toolgate::gate::{Gate, StreamEvent, StreamFormat};
use toolgate::{tool_schema, toolbox};

tool_schema! {
    /// Search the web.
    pub struct SearchWeb = {
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1},
            "limit": {"type": "integer", "minimum": 1, "maximum": 10}
        },
        "required": ["query"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Read a file.
    pub struct ReadFile = {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "max_lines": {"type": "integer", "minimum": 1},
            "filter": {"type": "object"}
        },
        "required": ["path"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// List the tools.
    pub struct ListTools = {"type": "object", "additionalProperties": false};
}

toolbox! {
    /// The tools this program runs.
    #[derive(Debug)]
    pub enum Call { SearchWeb, ReadFile, ListTools }
}

/// Recorded streams, byte for byte as the providers send them.
const OPENAI: &[u8] = include_bytes!("../../tests/tests/streams/openai_chat_parallel.sse");
const ANTHROPIC: &[u8] = include_bytes!("../../tests/tests/streams/anthropic.sse");

fn replay(name: &str, gate: &Gate<Call>, format: StreamFormat, stream: &[u8], out: &mut Vec<String>) {
    out.push(format!("== {name}: {} bytes of server-sent events", stream.len()));
    let mut s = gate.stream(format);
    // The network hands over whatever it has: here, 48 bytes at a time.
    for (i, piece) in stream.chunks(48).enumerate() {
        for event in s.push_bytes(piece) {
            let at = i * 48 + piece.len();
            match event {
                StreamEvent::Rejected(r) => {
                    out.push(format!(
                        "after {at} bytes: ABORT call {:?} ({})",
                        r.call_index(),
                        r.tool().unwrap_or("?")
                    ));
                    if let Some(offset) = r.offset() {
                        out.push(format!("  certain at byte {offset} of its arguments"));
                    }
                    out.push(format!("  {}", r.reason()));
                    out.push("  feedback for the model:".to_owned());
                    for line in r.feedback().lines() {
                        out.push(format!("    {line}"));
                    }
                }
                StreamEvent::Accepted(a) => {
                    out.push(format!("after {at} bytes: ACCEPT call {} ({}): {}", a.index, a.tool(), a.arguments));
                    out.push(format!("  typed: {:?}", a.call));
                }
                StreamEvent::Text(t) => out.push(format!("after {at} bytes: text {t:?}")),
                StreamEvent::End => out.push(format!("after {at} bytes: end of the response")),
            }
        }
    }
    for event in s.finish() {
        out.push(format!("at the end: {event:?}"));
    }
    out.push(String::new());
}

/// Both replays, line by line (what `main` prints; asserted by `tests/output.rs`).
pub fn run() -> Vec<String> {
    let mut out = Vec::new();
    replay("OpenAI Chat Completions", &Gate::<Call>::openai(), StreamFormat::OpenAiChat, OPENAI, &mut out);
    replay("Anthropic Messages", &Gate::<Call>::anthropic(), StreamFormat::Anthropic, ANTHROPIC, &mut out);
    out
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
