//! The gates with each envelope (plain, OpenAI, Anthropic): no panic on any reply; the size,
//! depth and parse stages refuse exactly what `parse_with` refuses; an accepted call's arguments
//! decode again to the same call; and arguments written into a reply are accepted exactly when
//! they parse on their own and are valid for the tool (no parser disagreement lets a different
//! argument through than the one that was checked).
//!
//! The first byte chooses the envelope, a depth limit and a tool; the rest is the text, used
//! both as a whole reply and as the arguments of a call in each envelope.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgate::gate::{Envelope, Gate, Outcome, Stage, Toolbox};
use toolgate::{parse, parse_with};
use toolgate_fuzz::{depth, Call};

const ENVELOPES: [Envelope; 3] = [Envelope::Plain, Envelope::OpenAi, Envelope::Anthropic];

fn whole(g: &Gate<Call>, text: &str) {
    let outcome = g.check(text);
    let expected = if text.len() > g.byte_limit() {
        Some(Stage::TooLong)
    } else {
        match parse_with(text, &g.limits()) {
            Ok(_) => None,
            Err(toolgate::Error::Limit(_)) => Some(Stage::TooDeep),
            Err(_) => Some(Stage::NotJson),
        }
    };
    match &outcome {
        Outcome::Rejected(r) => {
            let _ = (r.reason(), r.feedback());
            if let Some(stage) = expected {
                assert_eq!(r.stage(), stage, "{}: {text:?}", r.reason());
            } else {
                assert_eq!(r.stage(), Stage::Envelope, "{}: {text:?}", r.reason());
            }
        }
        Outcome::Calls(calls) => {
            assert_eq!(expected, None, "accepted as calls: {text:?}");
            for c in calls {
                match c {
                    Ok(a) => match Call::decode(a.tool(), &a.arguments) {
                        Some(Ok(again)) => assert_eq!(again, a.call, "{text:?}"),
                        other => panic!("accepted arguments do not decode again: {other:?}: {text:?}"),
                    },
                    Err(r) => {
                        let _ = (r.reason(), r.feedback());
                    }
                }
            }
        }
        Outcome::Prose(_) => assert_eq!(expected, None, "prose: {text:?}"),
    }
    let _ = g.check_one(text);
}

fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

fn wrap(envelope: Envelope, tool: &str, args: &str) -> String {
    match envelope {
        Envelope::Plain => format!(r#"{{"tool": "{tool}", "arguments": {args}}}"#),
        Envelope::OpenAi => format!(
            r#"{{"role": "assistant", "tool_calls": [{{"id": "c", "type": "function", "function": {{"name": "{tool}", "arguments": {}}}}}]}}"#,
            json_string(args)
        ),
        Envelope::Anthropic => format!(
            r#"{{"role": "assistant", "content": [{{"type": "tool_use", "id": "t", "name": "{tool}", "input": {args}}}]}}"#
        ),
    }
}

fn as_arguments(envelope: Envelope, tool: &str, args: &str) {
    let g = Gate::<Call>::new(envelope).max_bytes(usize::MAX).max_depth(usize::MAX);
    let reply = wrap(envelope, tool, args);
    let outer = match envelope {
        Envelope::Plain => 1,
        Envelope::OpenAi => 0,
        Envelope::Anthropic => 3,
    };
    // What must pass: arguments that parse on their own, fit the depth limit where they sit, are
    // an object where the envelope wants one, and are valid for the tool.
    let expected = parse(args)
        .ok()
        .filter(|v| envelope == Envelope::OpenAi || v.is_object())
        .filter(|v| depth(v) + outer <= toolgate::Limits::MAX_DEPTH)
        .filter(|v| matches!(Call::decode(tool, v), Some(Ok(_))));
    let outcome = g.check(&reply);
    let accepted = match &outcome {
        Outcome::Calls(calls) if calls.len() == 1 => calls.first().and_then(|c| c.as_ref().ok()),
        _ => None,
    };
    match (expected, accepted) {
        (Some(v), Some(a)) => {
            assert_eq!(a.arguments, v, "{}: accepted other arguments than those written: {args:?}", envelope.name());
            assert_eq!(a.tool(), tool);
        }
        (None, None) => {}
        (Some(v), None) => panic!("{}: valid arguments {v} refused: {outcome:?}", envelope.name()),
        (None, Some(a)) => {
            // The text is spliced into the reply: for the plain and Anthropic envelopes it can
            // close the call and open another block, so it need not parse on its own. What passed
            // must still be valid. The OpenAI string admits no such splice.
            assert_ne!(envelope, Envelope::OpenAi, "accepted arguments that do not pass alone: {args:?} -> {a:?}");
            assert!(matches!(Call::decode(a.tool(), &a.arguments), Some(Ok(_))), "{a:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let envelope = ENVELOPES[usize::from(sel % 3)];
    whole(&Gate::<Call>::new(envelope), text);
    whole(&Gate::<Call>::new(envelope).max_bytes(usize::MAX).max_depth(usize::from(sel / 3 % 16)), text);
    let names = Call::names();
    let tool = names[usize::from(sel / 48) % names.len()];
    for envelope in ENVELOPES {
        as_arguments(envelope, tool, text);
    }
});
