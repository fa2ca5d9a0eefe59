//! The OpenAI and Anthropic envelopes: calls with their index and id, several calls, prose, and
//! broken messages.

mod gate_common;

use gate_common::Call;
use serde_json::{json, Value};
use toolgate::gate::{Envelope, Gate, Outcome, Rejection, Stage};

fn openai_call(id: &str, name: &str, arguments: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
}

fn openai(calls: &[Value]) -> String {
    json!({"role": "assistant", "content": null, "tool_calls": calls}).to_string()
}

const GOOD_ARGS: &str = r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#;

fn calls(outcome: Outcome<Call>) -> Vec<Result<toolgate::gate::Accepted<Call>, Rejection>> {
    match outcome {
        Outcome::Calls(c) => c,
        other => panic!("expected calls, got {other:?}"),
    }
}

fn whole(outcome: Outcome<Call>) -> Rejection {
    match outcome {
        Outcome::Rejected(r) => r,
        other => panic!("expected a rejected reply, got {other:?}"),
    }
}

#[test]
fn openai_single_call() {
    let g = Gate::<Call>::openai();
    assert_eq!(g.envelope(), Envelope::OpenAi);
    let reply = openai(&[openai_call("call_1", "convert_units", GOOD_ARGS)]);
    let mut c = calls(g.check(&reply));
    assert_eq!(c.len(), 1);
    let a = c.remove(0).expect("accepted");
    assert_eq!(a.index, 0);
    assert_eq!(a.id.as_deref(), Some("call_1"));
    assert_eq!(a.tool(), "convert_units");
    assert_eq!(a.arguments, json!({"value": 5, "from_unit": "km", "to_unit": "m"}));
    assert!(matches!(a.call, Call::ConvertUnits(_)));
    // check_one takes it too
    assert!(g.check_one(&reply).is_ok());
}

#[test]
fn openai_several_calls_each_judged_with_its_index() {
    let g = Gate::<Call>::openai();
    let reply = openai(&[
        openai_call("call_a", "lookup_stock", r#"{"ticker": "AAPL"}"#),
        openai_call("call_b", "convert_units", r#"{"value": "five", "from_unit": "km", "to_unit": "m"}"#),
        openai_call("call_c", "delete_all_notes", "{}"),
        openai_call("call_d", "convert_units", GOOD_ARGS),
    ]);
    let c = calls(g.check(&reply));
    assert_eq!(c.len(), 4);
    let a = c[0].as_ref().expect("call 0 accepted");
    assert_eq!((a.index, a.id.as_deref(), a.tool()), (0, Some("call_a"), "lookup_stock"));
    let r = c[1].as_ref().expect_err("call 1 rejected");
    assert_eq!(
        (r.stage(), r.call_index(), r.call_id(), r.tool()),
        (Stage::Arguments, Some(1), Some("call_b"), Some("convert_units"))
    );
    assert_eq!(r.reason(), "arguments: /value: expected number, found string \"five\"");
    assert!(r
        .feedback()
        .starts_with("Your reply was rejected: tool call 1: the arguments of convert_units do not match its schema:"));
    assert!(r.feedback().ends_with("Reply with one corrected tool call only, and no other text."));
    let r = c[2].as_ref().expect_err("call 2 rejected");
    assert_eq!((r.stage(), r.call_index(), r.call_id()), (Stage::NotAllowed, Some(2), Some("call_c")));
    let d = c[3].as_ref().expect("call 3 accepted");
    assert_eq!(d.index, 3);

    let again = g.check(&reply);
    assert_eq!(again.accepted().len(), 2);
    assert_eq!(again.rejections().len(), 2);
    let one = g.check_one(&reply).expect_err("four calls");
    assert_eq!(one.reason(), "envelope: expected one tool call, found 4");
}

#[test]
fn openai_arguments_string_is_parsed_strictly() {
    let g = Gate::<Call>::openai();
    let cases = [
        r#"{"value": 5, "from_unit": "k"#,
        r#"{"value": 5, "value": 6, "from_unit": "km", "to_unit": "m"}"#,
        r#"{"value": NaN, "from_unit": "km", "to_unit": "m"}"#,
        r#"{"value": 5, "from_unit": "km", "to_unit": "m"} {}"#,
        "",
    ];
    for args in cases {
        let c = calls(g.check(&openai(&[openai_call("call_1", "convert_units", args)])));
        let r = c[0].as_ref().expect_err(args);
        assert_eq!(r.stage(), Stage::NotJson, "{args}");
        assert_eq!(r.call_index(), Some(0));
        assert_eq!(r.tool(), Some("convert_units"));
        assert_eq!(r.call_id(), Some("call_1"));
        assert!(r.reason().starts_with("not JSON: "), "{}", r.reason());
    }
    let c = calls(g.check(&openai(&[openai_call("call_1", "convert_units", r#"{"city": "Reykja"#)])));
    let r = c[0].as_ref().expect_err("truncated");
    assert_eq!(r.reason(), "not JSON: EOF while parsing a string (line 1, column 16)");
    assert_eq!(
        r.feedback(),
        "Your reply was rejected: tool call 0: the arguments of convert_units are not valid JSON: \
         EOF while parsing a string (line 1, column 16).\nReply with one corrected tool call only, and no other text."
    );
}

#[test]
fn openai_allowlist_runs_before_the_arguments_are_parsed() {
    let g = Gate::<Call>::openai();
    let c = calls(g.check(&openai(&[openai_call("call_1", "get_forecast", "{broken")])));
    assert_eq!(c[0].as_ref().expect_err("").stage(), Stage::NotAllowed);
}

#[test]
fn openai_prose() {
    let g = Gate::<Call>::openai();
    let cases = [
        (json!({"role": "assistant", "content": "It is sunny."}), "It is sunny."),
        (json!({"role": "assistant", "content": "Hi", "tool_calls": []}), "Hi"),
        (json!({"role": "assistant", "content": "Hi", "tool_calls": null}), "Hi"),
        (
            json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
            "I can't help with that.",
        ),
        (json!({"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}), "ab"),
        (json!({"role": "assistant"}), ""),
    ];
    for (msg, text) in cases {
        match g.check(&msg.to_string()) {
            Outcome::Prose(t) => assert_eq!(t, text),
            other => panic!("{msg}: {other:?}"),
        }
    }
    let one = g.check_one(&json!({"role": "assistant", "content": "hi"}).to_string()).expect_err("prose");
    assert_eq!(one.reason(), "envelope: expected one tool call, found text only");
}

#[test]
fn openai_broken_messages() {
    let g = Gate::<Call>::openai();
    let whole_cases = [
        (json!([]), "envelope: expected an OpenAI chat message object {\"role\": \"assistant\", ...}, found array"),
        (json!({"role": "user", "content": "x"}), "envelope: /role must be \"assistant\", found string \"user\""),
        (json!({"role": "assistant", "tool_calls": {}}), "envelope: /tool_calls must be an array, found object"),
        (
            json!({"role": "assistant", "content": 5}),
            "envelope: /content must be a string, an array of parts or null, found number 5",
        ),
        (
            json!({"content": "no role"}),
            "envelope: missing member \"role\" (an assistant message has \"role\": \"assistant\")",
        ),
    ];
    for (msg, reason) in whole_cases {
        let r = whole(g.check(&msg.to_string()));
        assert_eq!(r.stage(), Stage::Envelope);
        assert_eq!(r.reason(), reason);
        assert_eq!(r.call_index(), None);
    }
    let per_call = [
        (json!("x"), "envelope: /tool_calls/0 must be an object, found string \"x\"", None),
        (
            json!({"id": 7, "function": {"name": "convert_units", "arguments": "{}"}}),
            "envelope: /tool_calls/0/id must be a string, found number 7",
            None,
        ),
        (
            json!({"id": "c", "type": "custom", "function": {"name": "convert_units", "arguments": "{}"}}),
            "envelope: /tool_calls/0/type must be \"function\", found string \"custom\"",
            None,
        ),
        (json!({"id": "c"}), "envelope: /tool_calls/0/function is missing", None),
        (json!({"id": "c", "function": {"arguments": "{}"}}), "envelope: /tool_calls/0/function/name is missing", None),
        (
            json!({"id": "c", "function": {"name": ["x"], "arguments": "{}"}}),
            "envelope: /tool_calls/0/function/name must be a string, found array",
            None,
        ),
        (
            json!({"id": "c", "function": {"name": "convert_units", "arguments": {"value": 5}}}),
            "envelope: /tool_calls/0/function/arguments must be a string holding JSON, found object",
            Some("convert_units"),
        ),
        (
            json!({"id": "c", "function": {"name": "convert_units"}}),
            "envelope: /tool_calls/0/function/arguments is missing",
            Some("convert_units"),
        ),
    ];
    for (call, reason, tool) in per_call {
        let c = calls(g.check(&openai(std::slice::from_ref(&call))));
        let r = c[0].as_ref().expect_err("broken call");
        assert_eq!(r.stage(), Stage::Envelope, "{call}");
        assert_eq!(r.reason(), reason);
        assert_eq!(r.call_index(), Some(0));
        assert_eq!(r.tool(), tool);
    }
    // A call without `id` or `type` is still read (some compatible servers omit them).
    let c = calls(g.check(&openai(&[json!({"function": {"name": "convert_units", "arguments": GOOD_ARGS}})])));
    assert_eq!(c[0].as_ref().expect("accepted").id, None);
}

#[test]
fn openai_arguments_that_are_not_an_object_fail_the_schema() {
    let g = Gate::<Call>::openai();
    let c = calls(g.check(&openai(&[openai_call("c", "convert_units", "[1, 2]")])));
    let r = c[0].as_ref().expect_err("array");
    assert_eq!(r.stage(), Stage::Arguments);
    assert_eq!(r.reason(), "arguments: (root): expected object, found array");
    assert!(r.feedback().contains("- at (the arguments object): expected object, found array"));
}

fn tool_use(id: &str, name: &str, input: Value) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": input})
}

#[test]
fn anthropic_calls() {
    let g = Gate::<Call>::anthropic();
    assert_eq!(g.envelope(), Envelope::Anthropic);
    let message = json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "stop_reason": "tool_use",
        "content": [
            {"type": "thinking", "thinking": "…", "signature": "x"},
            {"type": "text", "text": "Let me convert that."},
            tool_use("toolu_1", "convert_units", json!({"value": 5, "from_unit": "km", "to_unit": "m"})),
            tool_use("toolu_2", "lookup_stock", json!({"ticker": "TOOLONG"})),
        ]
    });
    let c = calls(g.check(&message.to_string()));
    assert_eq!(c.len(), 2);
    let a = c[0].as_ref().expect("accepted");
    assert_eq!((a.index, a.id.as_deref(), a.tool()), (0, Some("toolu_1"), "convert_units"));
    let r = c[1].as_ref().expect_err("rejected");
    assert_eq!((r.stage(), r.call_index(), r.call_id()), (Stage::Arguments, Some(1), Some("toolu_2")));
    assert_eq!(r.reason(), "arguments: /ticker: expected a string of at most 5 characters, found 7 characters");

    // The bare content array works too.
    let blocks = json!([tool_use("toolu_9", "lookup_stock", json!({"ticker": "AAPL"}))]);
    let a = g.check_one(&blocks.to_string()).expect("accepted");
    assert_eq!(a.id.as_deref(), Some("toolu_9"));
}

#[test]
fn anthropic_prose() {
    let g = Gate::<Call>::anthropic();
    let cases = [
        (
            json!({"role": "assistant", "content": [{"type": "text", "text": "Hello, "}, {"type": "text", "text": "there."}]}),
            "Hello, there.",
        ),
        (json!({"role": "assistant", "content": "plain"}), "plain"),
        (json!([]), ""),
        (json!([{"type": "redacted_thinking", "data": "x"}]), ""),
    ];
    for (msg, text) in cases {
        match g.check(&msg.to_string()) {
            Outcome::Prose(t) => assert_eq!(t, text),
            other => panic!("{msg}: {other:?}"),
        }
    }
}

#[test]
fn anthropic_broken_messages() {
    let g = Gate::<Call>::anthropic();
    let whole_cases = [
        (json!("x"), "envelope: expected an Anthropic message {\"role\": \"assistant\", \"content\": [...]} or its content array, found string \"x\""),
        (json!({"role": "assistant"}), "envelope: missing member \"content\""),
        (json!({"role": "user", "content": []}), "envelope: /role must be \"assistant\", found string \"user\""),
        (json!({"role": "assistant", "content": {}}), "envelope: /content must be an array of content blocks, found object"),
        (json!({"role": "assistant", "content": [1]}), "envelope: /content/0 must be a content block object, found number 1"),
        (json!({"role": "assistant", "content": [{"text": "x"}]}), "envelope: /content/0/type is missing"),
        (json!({"content": []}), "envelope: missing member \"role\" (an assistant message has \"role\": \"assistant\")"),
        (json!([{"type": 1}]), "envelope: /0/type must be a string, found number 1"),
    ];
    for (msg, reason) in whole_cases {
        let r = whole(g.check(&msg.to_string()));
        assert_eq!(r.reason(), reason);
    }
    let per_call = [
        (
            json!({"type": "tool_use", "id": "t", "name": "convert_units", "input": "{}"}),
            "envelope: /content/1/input must be an object, found string \"{}\"",
        ),
        (json!({"type": "tool_use", "id": "t", "name": "convert_units"}), "envelope: /content/1/input is missing"),
        (json!({"type": "tool_use", "id": "t", "input": {}}), "envelope: /content/1/name is missing"),
        (
            json!({"type": "tool_use", "id": 1, "name": "x", "input": {}}),
            "envelope: /content/1/id must be a string, found number 1",
        ),
    ];
    for (block, reason) in per_call {
        let msg = json!({"role": "assistant", "content": [{"type": "text", "text": "x"}, block]});
        let c = calls(g.check(&msg.to_string()));
        let r = c[0].as_ref().expect_err("broken");
        assert_eq!(r.stage(), Stage::Envelope);
        assert_eq!(r.reason(), reason);
        assert_eq!(r.call_index(), Some(0));
    }
}

#[test]
fn envelopes_do_not_cross() {
    let plain = r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "km", "to_unit": "m"}}"#;
    // A plain call is neither an OpenAI message nor an Anthropic one.
    assert_eq!(whole(Gate::<Call>::openai().check(plain)).stage(), Stage::Envelope);
    assert_eq!(whole(Gate::<Call>::anthropic().check(plain)).stage(), Stage::Envelope);
    let msg = openai(&[openai_call("c", "convert_units", GOOD_ARGS)]);
    assert_eq!(Gate::<Call>::plain().check_one(&msg).expect_err("").stage(), Stage::Envelope);
}

#[test]
fn size_limit_applies_to_every_envelope() {
    let msg = openai(&[openai_call("c", "convert_units", GOOD_ARGS)]);
    let r = whole(Gate::<Call>::openai().max_bytes(msg.len() - 1).check(&msg));
    assert_eq!(r.stage(), Stage::TooLong);
    assert!(Gate::<Call>::openai().max_bytes(msg.len()).check_one(&msg).is_ok());
}
