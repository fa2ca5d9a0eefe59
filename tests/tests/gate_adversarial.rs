//! Hostile replies through the gates, with each envelope (plain, OpenAI, Anthropic): every case
//! with the stage that must refuse it (or the call it must give), whether the whole reply or one
//! call is refused, and a reason and feedback of bounded length.
//!
//! Replies are written as text, not built with `json!`, so that they can hold what a serialiser
//! would never produce: duplicate keys, `NaN`, lone surrogates, a byte-order mark.

#![allow(clippy::pedantic)]

use toolgate::gate::{Accepted, Envelope, Gate, Outcome, Rejection, Stage};
use toolgate::{tool_schema, toolbox};

mod tools;

use tools::{ConvertUnits, Note};

tool_schema! {
    /// Take a number of items.
    pub struct Take = {
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 0, "maximum": 100}},
        "required": ["count"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// A tree of any depth.
    pub struct Tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
                },
                "additionalProperties": false
            }
        },
        "$ref": "#/$defs/node"
    };
}

toolbox! {
    /// The tools of these tests.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call {
        ConvertUnits,
        Note,
        Take,
        Tree,
    }
}

const ENVELOPES: [Envelope; 3] = [Envelope::Plain, Envelope::OpenAi, Envelope::Anthropic];
const GOOD: &str = r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#;

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// A reply in `envelope` calling the tool whose name is the JSON text `name` (already quoted, so
/// that it can hold escapes) with the arguments written as the JSON text `args` (for OpenAI it
/// becomes the `arguments` string).
fn reply_named(envelope: Envelope, name: &str, args: &str) -> String {
    match envelope {
        Envelope::Plain => format!(r#"{{"tool": {name}, "arguments": {args}}}"#),
        Envelope::OpenAi => format!(
            r#"{{"role": "assistant", "content": null, "tool_calls": [{{"id": "call_1", "type": "function", "function": {{"name": {name}, "arguments": {}}}}}]}}"#,
            json_string(args)
        ),
        Envelope::Anthropic => format!(
            r#"{{"role": "assistant", "content": [{{"type": "tool_use", "id": "toolu_1", "name": {name}, "input": {args}}}]}}"#
        ),
    }
}

fn reply(envelope: Envelope, tool: &str, args: &str) -> String {
    reply_named(envelope, &json_string(tool), args)
}

fn gate(envelope: Envelope) -> Gate<Call> {
    Gate::new(envelope)
}

/// Where a rejection must come from: the reply as a whole, or its one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Reply,
    Call,
}

/// Check `reply` and return the rejection, asserting its stage and scope, and that its reason
/// and feedback render, on one line and within `max_len` bytes respectively.
fn refused(g: &Gate<Call>, reply: &str, stage: Stage, scope: Scope) -> Rejection {
    let ctx = || format!("{} reply ({} bytes): {:?}", g.envelope().name(), reply.len(), preview(reply));
    let r = match g.check(reply) {
        Outcome::Rejected(r) => {
            assert_eq!(scope, Scope::Reply, "refused as a whole, expected the call: {}: {}", r.reason(), ctx());
            r
        }
        Outcome::Calls(mut calls) => {
            assert_eq!(calls.len(), 1, "{}", ctx());
            let r = calls.remove(0).expect_err(&format!("accepted: {}", ctx()));
            assert_eq!(scope, Scope::Call, "refused the call, expected the whole reply: {}: {}", r.reason(), ctx());
            assert_eq!(r.call_index(), Some(0), "{}", ctx());
            r
        }
        Outcome::Prose(p) => panic!("prose {p:?}: {}", ctx()),
    };
    assert_eq!(r.stage(), stage, "{}: {}", r.reason(), ctx());
    assert!(!r.reason().contains('\n'), "{}", ctx());
    assert!(r.reason().len() < 2_000, "reason of {} bytes: {}", r.reason().len(), ctx());
    assert!(r.feedback().len() < 4_000, "feedback of {} bytes: {}", r.feedback().len(), ctx());
    // check_one agrees.
    assert_eq!(g.check_one(reply).expect_err("refused").stage(), stage, "{}", ctx());
    r
}

fn accepted(g: &Gate<Call>, reply: &str) -> Accepted<Call> {
    g.check_one(reply).unwrap_or_else(|r| panic!("{}: {} ({:?})", g.envelope().name(), r.reason(), preview(reply)))
}

fn preview(text: &str) -> String {
    text.chars().take(120).collect()
}

/// Problems in the arguments' text: the OpenAI envelope refuses that call (its `arguments` is
/// a string parsed on its own); the others the reply as a whole.
fn args_scope(envelope: Envelope) -> Scope {
    if envelope == Envelope::OpenAi {
        Scope::Call
    } else {
        Scope::Reply
    }
}

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the 2 MiB thread finished without a panic");
}

fn tree(levels: usize) -> String {
    let mut s = String::from(r#"{"label": "leaf"}"#);
    for _ in 1..levels {
        s = format!(r#"{{"label": "n", "children": [{s}]}}"#);
    }
    s
}

#[test]
fn nesting_100_000_levels_deep() {
    on_small_stack(|| {
        for envelope in ENVELOPES {
            for args in [
                format!(r#"{{"children": {}{}}}"#, "[".repeat(100_000), "]".repeat(100_000)),
                format!("{}1{}", r#"{"label": "x", "children": [{"children": "#.repeat(50_000), "}]}".repeat(50_000)),
                "[".repeat(100_000),
            ] {
                let text = reply(envelope, "tree", &args);
                // The default byte limit refuses it first.
                let r = refused(&gate(envelope), &text, Stage::TooLong, Scope::Reply);
                assert!(r.reason().starts_with(&format!("too long: {} bytes, the limit is 2000 bytes", text.len())));
                // Without a byte limit, the depth limit does, without recursing.
                let g = gate(envelope).max_bytes(usize::MAX);
                let r = refused(&g, &text, Stage::TooDeep, args_scope(envelope));
                assert!(
                    r.reason()
                        .starts_with("too deep: arrays and objects nest more than 64 levels deep (line 1, column "),
                    "{}",
                    r.reason()
                );
                assert!(r.feedback().contains("nested too deeply"), "{}", r.feedback());
                if envelope == Envelope::OpenAi {
                    assert_eq!(r.tool(), Some("tree"));
                }
                // Nor does the ceiling let it through.
                let g = gate(envelope).max_bytes(usize::MAX).max_depth(usize::MAX);
                assert_eq!(g.depth_limit(), 127);
                refused(&g, &text, Stage::TooDeep, args_scope(envelope));
            }
            // Deep nesting beside the call, in the envelope itself: the reply is refused.
            let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
            let text = match envelope {
                Envelope::Plain => format!(r#"{{"tool": "tree", "arguments": {{}}, "x": {deep}}}"#),
                Envelope::OpenAi => format!(
                    r#"{{"role": "assistant", "x": {deep}, "tool_calls": [{{"type": "function", "function": {{"name": "tree", "arguments": "{{}}"}}}}]}}"#
                ),
                _ => format!(r#"[{{"type": "tool_use", "name": "tree", "input": {{}}, "x": {deep}}}]"#),
            };
            refused(&gate(envelope).max_bytes(usize::MAX), &text, Stage::TooDeep, Scope::Reply);
        }
    });
}

#[test]
fn the_deepest_accepted_reply_fits_a_2_mib_stack() {
    on_small_stack(|| {
        for envelope in ENVELOPES {
            // The envelope's own levels: plain 1, Anthropic 3; OpenAI's string is counted alone.
            let outer = match envelope {
                Envelope::Plain => 1,
                Envelope::Anthropic => 3,
                _ => 0,
            };
            // A tree of L levels nests 2L - 1 levels: the most that fit in 127 with the envelope.
            let levels = (128 - outer) / 2;
            let g = gate(envelope).max_bytes(usize::MAX).max_depth(127);
            let a = accepted(&g, &reply(envelope, "tree", &tree(levels)));
            assert!(matches!(a.call, Call::Tree(_)));
            refused(&g, &reply(envelope, "tree", &tree(levels + 1)), Stage::TooDeep, args_scope(envelope));
        }
    });
}

#[test]
fn depth_limit_is_exact_for_every_envelope() {
    for envelope in ENVELOPES {
        for levels in 1..6 {
            let args = tree(levels);
            let args_depth = 2 * levels - 1;
            let needed = match envelope {
                Envelope::Plain => 1 + args_depth,
                Envelope::Anthropic => 3 + args_depth,
                // The message nests 4 levels (message, tool_calls, call, function); the arguments
                // string is counted from its own top level.
                _ => args_depth.max(4),
            };
            let text = reply(envelope, "tree", &args);
            accepted(&gate(envelope).max_depth(needed), &text);
            let scope =
                if envelope == Envelope::OpenAi && args_depth < 4 { Scope::Reply } else { args_scope(envelope) };
            let r = refused(&gate(envelope).max_depth(needed - 1), &text, Stage::TooDeep, scope);
            assert!(r.reason().contains(&format!("more than {} level", needed - 1)), "{}", r.reason());
        }
    }
    assert_eq!(Gate::<Call>::DEFAULT_MAX_DEPTH, 64);
    assert_eq!(gate(Envelope::Plain).depth_limit(), 64);
    assert_eq!(gate(Envelope::Plain).max_depth(3).limits(), toolgate::Limits { max_bytes: 2_000, max_depth: 3 });
}

#[test]
fn a_10_mb_string() {
    let big = "x".repeat(10 << 20);
    for envelope in ENVELOPES {
        let text = reply(envelope, "note", &format!(r#"{{"text": "{big}"}}"#));
        refused(&gate(envelope), &text, Stage::TooLong, Scope::Reply);
        let g = gate(envelope).max_bytes(usize::MAX);
        let r = refused(&g, &text, Stage::Arguments, Scope::Call);
        assert_eq!(r.violations().len(), 1);
        assert!(r.feedback().contains("- at /text: "), "{}", r.feedback());
        // A 10 MB tool name is not echoed back either.
        let text = reply(envelope, &big, "{}");
        let r = refused(&g, &text, Stage::NotAllowed, Scope::Call);
        assert!(r.reason().len() < 200);
    }
}

#[test]
fn one_hundred_thousand_keys() {
    let mut args = String::from("{");
    for i in 0..100_000 {
        args.push_str(&format!("\"k{i}\": {i}, "));
    }
    args.push_str(r#""value": 5, "from_unit": "km", "to_unit": "m"}"#);
    for envelope in ENVELOPES {
        let text = reply(envelope, "convert_units", &args);
        refused(&gate(envelope), &text, Stage::TooLong, Scope::Reply);
        let g = gate(envelope).max_bytes(usize::MAX);
        let r = refused(&g, &text, Stage::Arguments, Scope::Call);
        // Every violation is kept; the messages list twenty.
        assert_eq!(r.violations().len(), 100_000);
        assert!(r.reason().ends_with("; and 99980 more"), "{}", &r.reason()[r.reason().len() - 60..]);
        assert!(r.feedback().contains("\n- and 99980 more violations\n"), "{}", r.feedback());
        // A duplicate among them: not JSON.
        let dup = args.replacen(r#""k99999": 99999"#, r#""k5": 99999"#, 1);
        let r = refused(&g, &reply(envelope, "convert_units", &dup), Stage::NotJson, args_scope(envelope));
        assert!(r.reason().contains("duplicate key \"k5\""), "{}", r.reason());
    }
    // 100,000 members beside "tool" and "arguments": named ten at a time.
    let text = format!(r#"{{"tool": "convert_units", "arguments": {GOOD}, {}}}"#, &args[1..args.len() - 1]);
    let r = refused(&gate(Envelope::Plain).max_bytes(usize::MAX), &text, Stage::Envelope, Scope::Reply);
    assert!(r.reason().contains(", and 99993 more beside \"tool\""), "{}", r.reason());
}

#[test]
fn duplicate_keys_are_refused_everywhere() {
    let dup_args = r#"{"value": 1, "value": "x", "from_unit": "km", "to_unit": "m"}"#;
    let dup_args_escaped = r#"{"value": 1, "\u0076alue": 2, "from_unit": "km", "to_unit": "m"}"#;
    let dup_nested = r#"{"value": 1, "from_unit": "km", "to_unit": "m", "x": {"a": [{"b": 1, "b": 1}]}}"#;
    for envelope in ENVELOPES {
        for args in [dup_args, dup_args_escaped, dup_nested] {
            let r =
                refused(&gate(envelope), &reply(envelope, "convert_units", args), Stage::NotJson, args_scope(envelope));
            assert!(r.reason().contains("duplicate key"), "{}", r.reason());
        }
    }
    // In the envelopes themselves.
    for (envelope, text) in [
        (Envelope::Plain, format!(r#"{{"tool": "take", "tool": "convert_units", "arguments": {GOOD}}}"#)),
        (Envelope::Plain, format!(r#"{{"tool": "convert_units", "arguments": {{"count": 1}}, "arguments": {GOOD}}}"#)),
        (
            Envelope::OpenAi,
            format!(
                r#"{{"role": "assistant", "tool_calls": [{{"type": "function", "function": {{"name": "take", "name": "convert_units", "arguments": {}}}}}]}}"#,
                json_string(GOOD)
            ),
        ),
        (
            Envelope::OpenAi,
            format!(
                r#"{{"role": "assistant", "tool_calls": [{{"type": "function", "function": {{"name": "convert_units", "arguments": "{{}}", "arguments": {}}}}}]}}"#,
                json_string(GOOD)
            ),
        ),
        (
            Envelope::OpenAi,
            r#"{"role": "assistant", "tool_calls": [], "tool_calls": null, "content": "hi"}"#.to_owned(),
        ),
        (Envelope::OpenAi, r#"{"role": "user", "role": "assistant", "content": "hi"}"#.to_owned()),
        (
            Envelope::Anthropic,
            format!(
                r#"{{"role": "assistant", "content": [{{"type": "tool_use", "name": "take", "name": "convert_units", "input": {GOOD}}}]}}"#
            ),
        ),
        (
            Envelope::Anthropic,
            format!(r#"[{{"type": "tool_use", "name": "convert_units", "input": {{}}, "input": {GOOD}}}]"#),
        ),
        (
            Envelope::Anthropic,
            r#"[{"type": "text", "type": "tool_use", "name": "take", "input": {"count": 1}}]"#.to_owned(),
        ),
    ] {
        let r = refused(&gate(envelope), &text, Stage::NotJson, Scope::Reply);
        assert!(r.reason().contains("duplicate key"), "{}", r.reason());
    }
}

#[test]
fn not_numbers_surrogates_and_byte_order_marks() {
    for envelope in ENVELOPES {
        for args in [
            r#"{"value": NaN, "from_unit": "km", "to_unit": "m"}"#,
            r#"{"value": Infinity, "from_unit": "km", "to_unit": "m"}"#,
            r#"{"value": -Infinity, "from_unit": "km", "to_unit": "m"}"#,
            r#"{"value": 1e400, "from_unit": "km", "to_unit": "m"}"#,
            r#"{"value": 5, "from_unit": "k\ud800m", "to_unit": "m"}"#,
            r#"{"value": 5, "from_unit": "\udc00\ud800", "to_unit": "m"}"#,
            r#"{"value": 5, "from_unit": "km", "to_unit": "m", "\ud83d": 1}"#,
        ] {
            refused(&gate(envelope), &reply(envelope, "convert_units", args), Stage::NotJson, args_scope(envelope));
        }
        // A lone surrogate in the tool name, a byte-order mark before the reply.
        refused(
            &gate(envelope),
            &reply_named(envelope, r#""convert_units\ud800""#, GOOD),
            Stage::NotJson,
            Scope::Reply,
        );
        let text = format!("\u{feff}{}", reply(envelope, "convert_units", GOOD));
        refused(&gate(envelope), &text, Stage::NotJson, Scope::Reply);
        // A proper surrogate pair in a value is a character like any other.
        let args = r#"{"text": "\ud83d\ude00"}"#;
        let a = accepted(&gate(envelope), &reply(envelope, "note", args));
        assert!(matches!(a.call, Call::Note(ref n) if n.text == "😀"));
    }
    // A byte-order mark at the start of an OpenAI arguments string: that call is not JSON.
    let text = reply(Envelope::OpenAi, "convert_units", &format!("\u{feff}{GOOD}"));
    refused(&gate(Envelope::OpenAi), &text, Stage::NotJson, Scope::Call);
}

#[test]
fn trailing_text() {
    for envelope in ENVELOPES {
        let good = reply(envelope, "convert_units", GOOD);
        for tail in [" x", "\n\nDone!", "}", ",", "\u{0}", "\u{feff}", &good] {
            refused(&gate(envelope), &format!("{good}{tail}"), Stage::NotJson, Scope::Reply);
        }
        // Whitespace is not text.
        accepted(&gate(envelope), &format!(" \n\t{good}\r\n "));
    }
    // OpenAI: the arguments string holds JSON followed by text, or two values, or a comment.
    for args in [format!("{GOOD} x"), format!("{GOOD}{GOOD}"), format!("{GOOD} // done"), format!("{GOOD}\u{0}")] {
        let r = refused(
            &gate(Envelope::OpenAi),
            &reply(Envelope::OpenAi, "convert_units", &args),
            Stage::NotJson,
            Scope::Call,
        );
        assert_eq!(r.tool(), Some("convert_units"));
        assert!(r.feedback().contains("the arguments of convert_units are not valid JSON"), "{}", r.feedback());
    }
    // OpenAI: a JSON string inside the string is a string, never decoded a second time.
    let double = json_string(GOOD);
    let r = refused(
        &gate(Envelope::OpenAi),
        &reply(Envelope::OpenAi, "convert_units", &double),
        Stage::Arguments,
        Scope::Call,
    );
    assert_eq!(r.violations().as_slice()[0].pointer, "");
    assert!(r.reason().starts_with("arguments: (root): expected object, found string"), "{}", r.reason());
}

#[test]
fn arguments_of_the_wrong_json_type() {
    // OpenAI: an object where the `arguments` string is expected.
    let text = format!(
        r#"{{"role": "assistant", "tool_calls": [{{"id": "c", "type": "function", "function": {{"name": "convert_units", "arguments": {GOOD}}}}}]}}"#
    );
    let r = refused(&gate(Envelope::OpenAi), &text, Stage::Envelope, Scope::Call);
    assert_eq!(r.reason(), "envelope: /tool_calls/0/function/arguments must be a string holding JSON, found object");
    // Plain and Anthropic: a string where the arguments object is expected.
    let r = refused(
        &gate(Envelope::Plain),
        &reply(Envelope::Plain, "convert_units", &json_string(GOOD)),
        Stage::Envelope,
        Scope::Reply,
    );
    assert!(r.reason().contains("\"arguments\" must be an object, found string"), "{}", r.reason());
    let text = reply(Envelope::Anthropic, "convert_units", &json_string(GOOD));
    let r = refused(&gate(Envelope::Anthropic), &text, Stage::Envelope, Scope::Call);
    assert!(r.reason().contains("/content/0/input must be an object, found string"), "{}", r.reason());
    // A string argument given an object.
    for envelope in ENVELOPES {
        let r =
            refused(&gate(envelope), &reply(envelope, "note", r#"{"text": {"a": 1}}"#), Stage::Arguments, Scope::Call);
        assert_eq!(r.reason(), "arguments: /text: expected string, found object");
    }
}

#[test]
fn numbers_at_the_edges() {
    for envelope in ENVELOPES {
        let g = gate(envelope);
        let call = |args: &str| accepted(&g, &reply(envelope, "take", args)).call;
        assert_eq!(call(r#"{"count": -0}"#), Call::Take(Take { count: 0 }));
        assert_eq!(call(r#"{"count": 5.0}"#), Call::Take(Take { count: 5 }));
        assert_eq!(call(r#"{"count": 0.1e-400}"#), Call::Take(Take { count: 0 }));
        assert_eq!(call(r#"{"count": 1e1}"#), Call::Take(Take { count: 10 }));
        // -1e-400 underflows to -0.0: an integer, and 0.
        assert_eq!(call(r#"{"count": -1e-400}"#), Call::Take(Take { count: 0 }));
        for args in [r#"{"count": 18446744073709551616}"#, r#"{"count": 5.5}"#, r#"{"count": 100.5}"#] {
            refused(&g, &reply(envelope, "take", args), Stage::Arguments, Scope::Call);
        }
        refused(&g, &reply(envelope, "take", r#"{"count": 1e400}"#), Stage::NotJson, args_scope(envelope));
        let a = accepted(&g, &reply(envelope, "convert_units", r#"{"value": -0, "from_unit": "m", "to_unit": "km"}"#));
        assert!(matches!(a.call, Call::ConvertUnits(ref c) if c.value == 0.0));
    }
}

#[test]
fn tool_names_are_compared_exactly() {
    for envelope in ENVELOPES {
        for (name, shown) in [
            ("Convert_Units", "Convert_Units"),
            ("CONVERT_UNITS", "CONVERT_UNITS"),
            (" convert_units", r#"" convert_units""#),
            ("convert_units ", r#""convert_units ""#),
            ("convert_units\n", r#""convert_units\n""#),
            ("convert_units\u{200b}", r#""convert_units\u200b""#),
            ("\u{200b}convert_units", r#""\u200bconvert_units""#),
            ("convert\u{00a0}units", r#""convert\u00a0units""#),
            ("convert_units\u{feff}", r#""convert_units\ufeff""#),
            ("\u{202e}stinu_trevnoc", r#""\u202estinu_trevnoc""#),
            ("convert_units\u{0}", r#""convert_units\u0000""#),
            ("convert_unit\u{0455}", "\"convert_unit\u{0455}\""),
            ("ｃonvert_units", "\"ｃonvert_units\""),
            ("", r#""""#),
        ] {
            let r = refused(&gate(envelope), &reply(envelope, name, GOOD), Stage::NotAllowed, Scope::Call);
            assert_eq!(r.tool(), Some(name));
            assert_eq!(r.reason(), format!("tool not allowed: {shown}"), "{name:?}");
            assert!(
                r.feedback().contains("The available tools are: convert_units, note, take, tree."),
                "{}",
                r.feedback()
            );
        }
        // The name written with escapes is the same name: allowed.
        accepted(&gate(envelope), &reply_named(envelope, r#""convert\u005funits""#, GOOD));
    }
}

#[test]
fn size_limit_exactly_and_one_byte_over() {
    for envelope in ENVELOPES {
        let good = reply(envelope, "convert_units", GOOD);
        for limit in [good.len(), 2_000] {
            let padded = format!("{good}{}", " ".repeat(limit - good.len()));
            assert_eq!(padded.len(), limit);
            accepted(&gate(envelope).max_bytes(limit), &padded);
            let over = format!("{padded} ");
            let r = refused(&gate(envelope).max_bytes(limit), &over, Stage::TooLong, Scope::Reply);
            assert_eq!(r.reason(), format!("too long: {} bytes, the limit is {limit} bytes", limit + 1));
            assert!(r.feedback().starts_with("Your reply was rejected: it is too long ("), "{}", r.feedback());
        }
        // The default is 2,000 bytes.
        let padded = format!("{good}{}", " ".repeat(2_000 - good.len()));
        accepted(&gate(envelope), &padded);
        refused(&gate(envelope), &format!("{padded}\n"), Stage::TooLong, Scope::Reply);
        // Bytes, not characters: a limit that falls inside a two-byte character.
        let text = reply(envelope, "note", r#"{"text": "éé"}"#);
        accepted(&gate(envelope).max_bytes(text.len()), &text);
        refused(&gate(envelope).max_bytes(text.len() - 1), &text, Stage::TooLong, Scope::Reply);
    }
}
