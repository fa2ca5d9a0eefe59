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

fn replay(name: &str, gate: &Gate<Call>, format: StreamFormat, stream: &[u8]) {
    println!("== {name}: {} bytes of server-sent events", stream.len());
    let mut s = gate.stream(format);
    // The network hands over whatever it has: here, 48 bytes at a time.
    for (i, piece) in stream.chunks(48).enumerate() {
        for event in s.push_bytes(piece) {
            let at = i * 48 + piece.len();
            match event {
                StreamEvent::Rejected(r) => {
                    println!("after {at} bytes: ABORT call {:?} ({})", r.call_index(), r.tool().unwrap_or("?"));
                    if let Some(offset) = r.offset() {
                        println!("  certain at byte {offset} of its arguments");
                    }
                    println!("  {}", r.reason());
                    println!("  feedback for the model:");
                    for line in r.feedback().lines() {
                        println!("    {line}");
                    }
                }
                StreamEvent::Accepted(a) => {
                    println!("after {at} bytes: ACCEPT call {} ({}): {}", a.index, a.tool(), a.arguments);
                    println!("  typed: {:?}", a.call);
                }
                StreamEvent::Text(t) => println!("after {at} bytes: text {t:?}"),
                StreamEvent::End => println!("after {at} bytes: end of the response"),
            }
        }
    }
    for event in s.finish() {
        println!("at the end: {event:?}");
    }
    println!();
}

fn main() {
    replay("OpenAI Chat Completions", &Gate::<Call>::openai(), StreamFormat::OpenAiChat, OPENAI);
    replay("Anthropic Messages", &Gate::<Call>::anthropic(), StreamFormat::Anthropic, ANTHROPIC);
}
