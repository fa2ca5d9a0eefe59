//! Stream gates against whole-reply gates: the fuzzed text is a call's arguments, written into a
//! well-formed event stream of a fuzzed format (OpenAI Chat, Responses, Anthropic), its argument
//! fragments cut at fuzzed places and the stream's bytes pushed in fuzzed pieces. The stream gate
//! must accept the call exactly when the whole-reply gate accepts the same call, with the same
//! typed value, and never accept before the provider's completion event; raw fuzzed bytes pushed
//! as an event stream never panic.
//!
//! Byte 0: format and tool; byte 1: piece size; byte 2: fragment size; the rest: the arguments.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use toolgate::gate::{Envelope, Gate, Outcome, StreamEvent, StreamFormat, Toolbox};
use toolgate_fuzz::Call;

fn events(format: StreamFormat, tool: &str, fragments: &[&str]) -> Vec<Value> {
    match format {
        StreamFormat::OpenAiChat => {
            let chunk = |tc: Value, finish: Value| {
                json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                       "choices": [{"index": 0, "delta": tc, "finish_reason": finish}]})
            };
            let mut out = vec![chunk(
                json!({"tool_calls": [{"index": 0, "id": "call", "type": "function", "function": {"name": tool, "arguments": ""}}]}),
                Value::Null,
            )];
            for f in fragments {
                out.push(chunk(json!({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}), Value::Null));
            }
            out.push(chunk(json!({}), json!("tool_calls")));
            out
        }
        StreamFormat::OpenAiResponses => {
            let mut out = vec![json!({"type": "response.output_item.added", "output_index": 0,
                "item": {"type": "function_call", "id": "fc", "call_id": "call", "name": tool, "arguments": ""}})];
            for f in fragments {
                out.push(json!({"type": "response.function_call_arguments.delta", "item_id": "fc", "output_index": 0, "delta": f}));
            }
            let all: String = fragments.concat();
            out.push(json!({"type": "response.output_item.done", "output_index": 0,
                "item": {"type": "function_call", "id": "fc", "call_id": "call", "name": tool, "arguments": all}}));
            out.push(json!({"type": "response.completed", "response": {}}));
            out
        }
        _ => {
            let mut out = vec![json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": "call", "name": tool, "input": {}}})];
            for f in fragments {
                out.push(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": f}}));
            }
            out.push(json!({"type": "content_block_stop", "index": 0}));
            out.push(json!({"type": "message_stop"}));
            out
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [head, piece, frag, rest @ ..] = data else { return };
    let format =
        [StreamFormat::OpenAiChat, StreamFormat::OpenAiResponses, StreamFormat::Anthropic][usize::from(head % 3)];
    let tool = Call::TOOLS[usize::from(head / 3) % Call::TOOLS.len()].name;
    let piece = usize::from(*piece).max(1);
    let frag = usize::from(*frag % 32).max(1);
    let gate =
        Gate::<Call>::new(if format == StreamFormat::Anthropic { Envelope::Anthropic } else { Envelope::OpenAi })
            .max_bytes(usize::MAX)
            .max_depth(usize::MAX);

    // Raw bytes as an event stream: never a panic.
    let mut raw = gate.stream(format);
    let _ = raw.push_bytes(rest);
    let _ = raw.finish();

    let Ok(args) = std::str::from_utf8(rest) else { return };
    let mut fragments = Vec::new();
    let mut start = 0;
    while start < args.len() {
        let mut end = (start + frag).min(args.len());
        while !args.is_char_boundary(end) {
            end += 1;
        }
        fragments.push(&args[start..end]);
        start = end;
    }
    let mut sse = String::new();
    let evs = events(format, tool, &fragments);
    // The provider's completion event: Chat's finish_reason chunk is the last; the others are
    // followed by the end of the response.
    let completion = if format == StreamFormat::OpenAiChat { evs.len() - 1 } else { evs.len() - 2 };
    let mut completion_at = 0;
    for (k, e) in evs.into_iter().enumerate() {
        if k == completion {
            completion_at = sse.len();
        }
        sse.push_str("data: ");
        sse.push_str(&e.to_string());
        sse.push_str("\n\n");
    }
    let mut s = gate.stream(format);
    let mut got = Vec::new();
    let bytes = sse.as_bytes();
    for (i, p) in bytes.chunks(piece).enumerate() {
        for e in s.push_bytes(p) {
            if let StreamEvent::Accepted(_) = &e {
                assert!(i * piece + p.len() > completion_at, "accepted before the completion event: {args:?}");
            }
            got.push(e);
        }
    }
    got.extend(s.finish());
    let accepted: Vec<_> =
        got.iter().filter_map(|e| if let StreamEvent::Accepted(a) = e { Some(a) } else { None }).collect();

    // The whole-reply gate on the same call.
    let whole_args = if format == StreamFormat::Anthropic && args.is_empty() { "{}" } else { args };
    let reply = if format == StreamFormat::Anthropic {
        match serde_json::from_str::<Value>(whole_args) {
            Ok(input) if toolgate::parse(whole_args).is_ok() => {
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call", "name": tool, "input": input}]}).to_string()
            }
            _ => {
                assert!(accepted.is_empty(), "accepted arguments that are not JSON: {args:?}");
                return;
            }
        }
    } else {
        json!({"role": "assistant", "tool_calls": [{"id": "call", "type": "function", "function": {"name": tool, "arguments": whole_args}}]}).to_string()
    };
    let expected = match gate.check(&reply) {
        Outcome::Calls(calls) => calls.into_iter().next().and_then(Result::ok),
        _ => None,
    };
    match (expected, accepted.as_slice()) {
        (Some(e), [a]) => assert_eq!(e.call, a.call, "{args:?}"),
        (None, []) => {}
        (e, a) => panic!("whole gate {:?} vs stream gate {:?}: {args:?} ({format:?})", e.map(|e| e.call), a),
    }
});
