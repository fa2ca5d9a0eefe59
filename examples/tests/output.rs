//! The examples' behaviour: the lines `cargo run --example NAME` prints, from the same functions.
//! Each example file is included as a module (its `main` unused here).
//!
//! (Here rather than in `tests/`: the UI-test harness there points `TOOLGATE_MANIFEST_DIR` at
//! `tests/`, which would misplace this crate's schema file if it were a dev-dependency there.)

use serde_json::{json, Value};

#[path = "../examples/constrained.rs"]
#[allow(dead_code)]
mod constrained;
#[path = "../examples/email_triage.rs"]
#[allow(dead_code)]
mod email_triage;
#[path = "../examples/gate.rs"]
#[allow(dead_code)]
mod gate;
#[path = "../examples/retry.rs"]
#[allow(dead_code)]
mod retry;
#[path = "../examples/round_trip.rs"]
#[allow(dead_code)]
mod round_trip;
#[path = "../examples/stream_gate.rs"]
#[allow(dead_code)]
mod stream_gate;
#[path = "../examples/streaming.rs"]
#[allow(dead_code)]
mod streaming;

#[test]
fn gate_example() {
    assert_eq!(
        gate::run(),
        [
            "good         RUN",
            "malformed    REJECT not JSON: expected `,` or `}` (line 1, column 26)",
            "wrong_type   REJECT arguments: /value: expected number, found string \"five\"",
            "extra_arg    REJECT arguments: /round: unexpected property: the schema allows no other properties here",
            "unknown_tool REJECT tool not allowed: delete_all_notes",
            "out_of_range REJECT arguments: /value: expected a number at most 1000000 (maximum), found number 1000000000.0",
            "smuggled     REJECT envelope: unexpected member \"system\" beside \"tool\" and \"arguments\"; a call has these two members only",
        ]
    );
}

#[test]
fn retry_example() {
    assert_eq!(
        retry::run(),
        [
            "attempt 1: tool not allowed: delete_all_notes",
            "attempt 2: arguments: /value: expected number, found string \"five\"",
            "attempt 3: accepted",
            "call: ConvertUnits(ConvertUnits { value: 5.0, from_unit: Km, to_unit: M })",
            "result: 5 km = 5000 m",
        ]
    );
}

#[test]
fn round_trip_example() {
    let lines = round_trip::run();
    let tools: Value = serde_json::from_str(lines[0].strip_prefix("tools: ").expect("tools line")).expect("JSON");
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["function"]["name"], "get_weather");
    assert_eq!(tools[0]["function"]["strict"], true);
    assert_eq!(
        &lines[1..],
        [
            "== a tool call, checked, run by the program, answered with a tool message",
            "user: What's the weather in Hanoi?",
            "assistant: tool call get_weather {\"city\": \"Hanoi\", \"unit\": \"celsius\"}",
            "gate: call 0 RUN get_weather",
            "tool: {\"city\":\"Hanoi\",\"summary\":\"hot and humid, light wind\",\"temperature\":31.0,\"unit\":\"celsius\"}",
            "assistant: It is 31.0 °C in Hanoi: hot and humid, light wind.",
            "gate: prose, returned as prose",
            "== no tool_calls: prose, returned as prose",
            "user: Which unit do you use?",
            "assistant: Celsius, unless you ask for Fahrenheit.",
            "gate: prose, returned as prose",
            "== arguments truncated mid-string: rejected and re-asked",
            "user: And in Reykjavik, in fahrenheit?",
            "assistant: tool call get_weather {\"city\": \"Reykja",
            "gate: call 0 REJECT not JSON: EOF while parsing a string (line 1, column 16)",
            "tool: Your reply was rejected: tool call 0: the arguments of get_weather are not valid JSON: EOF while parsing a string (line 1, column 16).",
            "      Reply with one corrected tool call only, and no other text.",
            "assistant: tool call get_weather {\"city\": \"Reykjavik\", \"unit\": \"fahrenheit\"}",
            "gate: call 0 RUN get_weather",
            "tool: {\"city\":\"Reykjavik\",\"summary\":\"cold, with a strong wind from the sea\",\"temperature\":41.0,\"unit\":\"fahrenheit\"}",
            "assistant: It is 41.0 °F in Reykjavik: cold, with a strong wind from the sea.",
            "gate: prose, returned as prose",
            "== a tool that does not exist: rejected",
            "user: Will it rain in Hanoi tomorrow?",
            "assistant: tool call get_forecast {\"city\": \"Hanoi\", \"day\": \"tomorrow\"}",
            "gate: call 0 REJECT tool not allowed: get_forecast",
            "tool: Your reply was rejected: tool call 0: there is no tool named \"get_forecast\". The available tools are: get_weather.",
            "      Reply with one corrected tool call only, and no other text.",
            "assistant: I can only look up the current weather, not a forecast.",
            "gate: prose, returned as prose",
        ]
    );
}

#[test]
fn streaming_example() {
    assert_eq!(
        streaming::run(),
        [
            "== a read_file call that goes wrong half-way",
            r#"delta 1 "{\"pa"                    Alive"#,
            r#"delta 2 "th\": \"notes/caf\xc3"    Alive"#,
            r#"delta 3 "\xa9.txt\", \"max_"       Alive"#,
            r#"delta 4 "lines\": "                Alive"#,
            r#"delta 5 "\"20"                     Dead"#,
            "abort at byte 41: /max_lines: expected integer, found string \"…",
            "violation: keyword `type` at pointer /max_lines",
            "never needed: 26 of the 68 bytes of the recorded reply (3 deltas never fed)",
            "== a good read_file call, accepted only at its end",
            r#"delta 1 "{\"path\": \"src/ma"      Alive, not complete yet"#,
            r#"        so far: {"path":"src/ma"}"#,
            r#"delta 2 "in.rs\", \"max_li"        Alive, not complete yet"#,
            r#"        so far: {"path":"src/main.rs"}"#,
            r#"delta 3 "nes"                      Alive, not complete yet"#,
            r#"        so far: {"path":"src/main.rs"}"#,
            r#"delta 4 "\": 4"                    Alive, not complete yet"#,
            r#"        so far: {"max_lines":4,"path":"src/main.rs"}"#,
            r#"delta 5 "0}"                       Alive, complete"#,
            r#"        so far: {"max_lines":40,"path":"src/main.rs"}"#,
            "call: ReadFile { path: \"src/main.rs\", max_lines: Some(40), encoding: None }",
        ]
    );
    // The recorded bad reply, whole: the death is at the opening quote of "200".
    let bad: Vec<u8> = streaming::BAD.concat();
    let text = std::str::from_utf8(&bad).expect("UTF-8 once whole");
    assert_eq!(text.find(r#""200""#), Some(41));
}

/// The toy part of `constrained` (the real-vocabulary part, `-- --real`, is slow in a debug
/// build and is not run here).
#[test]
fn constrained_example() {
    let lines = constrained::run();
    assert_eq!(
        lines,
        [
            "== toy: Triage, 29 tokens + end-of-sequence, 500 generations each, length budget 64 tokens",
            r#"target reply: {"urgency": "high", "summary": "urgent hello world"}"#,
            "free sampling: 93/500 valid (93 exactly the target; 48 hit the length budget)",
            r#"  e.g. invalid: oc"medium""low""#,
            "constrained: 500/500 valid (294 exactly the target; failures: 0 hit the length budget, 0 stuck)",
            r#"  e.g. valid, off the target: {"urgency": "high", "summary": "urgent w:wnr}:yueurgent" } "#,
        ]
    );
    // The mask never let a generation end invalid: every failure is counted as one.
    let count = |line: &str, word: &str| -> usize {
        line.split(word).next().and_then(|h| h.rsplit(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(usize::MAX)
    };
    let free = count(&lines[2], "/500 valid");
    let masked = count(&lines[4], "/500 valid");
    assert!(masked > free, "{masked} vs {free}");
}

/// The transcripts printed by `email_triage`, as JSON message arrays.
fn transcripts(lines: &[String]) -> Vec<Value> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in lines {
        if line == "transcript:" {
            current = Some(String::new());
        } else if let Some(text) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
            if line == "]" {
                out.push(serde_json::from_str(text).expect("transcript JSON"));
                current = None;
            }
        }
    }
    out
}

#[test]
fn email_triage_example() {
    let lines = email_triage::run();
    let has = |l: &str| lines.iter().any(|x| x == l);
    assert!(has("== email 1: Hỏi về hóa đơn tháng 5"));
    assert!(has(
        "gate: call 0 RUN record_triage {\"sender\":\"lan.nguyen@example.vn\",\"summary\":\"Hỏi về hóa đơn tháng 5\",\"urgency\":\"low\"}"
    ));
    assert!(has("== email 2: URGENT: checkout is down for all customers"));
    assert!(has(
        "gate: call 0 RUN record_triage {\"sender\":\"dana.okafor@example.com\",\"summary\":\"checkout is down for all customers\",\"urgency\":\"high\"}"
    ));
    // An alert for the urgent email only.
    assert_eq!(lines.iter().filter(|l| l.contains("RUN send_alert_email")).count(), 1);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("outbox: ")).collect::<Vec<_>>(),
        ["outbox: to oncall@example.com | Urgent email from dana.okafor@example.com"]
    );
    assert!(has("record: lan.nguyen@example.vn | low | Hỏi về hóa đơn tháng 5"));
    assert!(has("record: dana.okafor@example.com | high | checkout is down for all customers"));
    assert!(!lines.iter().any(|l| l.contains("REJECT")));

    let t = transcripts(&lines);
    assert_eq!(t.len(), 2);
    // user email → assistant tool_use → user tool_result → assistant text
    for transcript in &t {
        let roles: Vec<&str> =
            transcript.as_array().expect("array").iter().filter_map(|m| m["role"].as_str()).collect();
        assert_eq!(roles, ["user", "assistant", "user", "assistant"]);
    }
    let results = &t[1][2]["content"];
    assert_eq!(results[0]["type"], "tool_result");
    assert_eq!(
        results[1],
        json!({"type": "tool_result", "tool_use_id": "toolu_1_alert", "content": "alert queued to oncall@example.com"})
    );
    assert_eq!(t[0][2]["content"].as_array().map(Vec::len), Some(1));

    assert!(has("schemars advertises exactly the enforced schema: true"));
    assert!(has("Deserialize refused: /urgency: expected one of [\"low\",\"high\"], found string \"critical\""));
}

/// `stream_gate`: the bad call aborted at its byte, before the good one is accepted at the
/// provider's `finish_reason`; the Anthropic calls accepted at their `content_block_stop`.
#[test]
fn stream_gate_example() {
    assert_eq!(
        stream_gate::run(),
        [
            "== OpenAI Chat Completions: 3843 bytes of server-sent events",
            "after 2928 bytes: ABORT call Some(1) (read_file)",
            "  certain at byte 36 of its arguments",
            "  arguments: /max_lines: expected integer, found string \"…",
            "  feedback for the model:",
            "    Your reply was rejected: tool call 1: the arguments of read_file do not match its schema:",
            "    - at /max_lines: expected integer, found string \"…",
            "    Reply with one corrected tool call only, and no other text.",
            r#"after 3840 bytes: ACCEPT call 0 (search_web): {"limit":5,"query":"rust streaming JSON"}"#,
            r#"  typed: SearchWeb(SearchWeb { query: "rust streaming JSON", limit: Some(5) })"#,
            "after 3843 bytes: end of the response",
            "",
            "== Anthropic Messages: 2134 bytes of server-sent events",
            r#"after 576 bytes: text "Okay, let me read that file.""#,
            r#"after 1632 bytes: ACCEPT call 0 (read_file): {"max_lines":40,"path":"src/main.rs"}"#,
            r#"  typed: ReadFile(ReadFile { path: "src/main.rs", max_lines: Some(Number(40)), filter: None })"#,
            "after 1968 bytes: ACCEPT call 1 (list_tools): {}",
            "  typed: ListTools(ListTools({}))",
            "after 2134 bytes: end of the response",
            "",
        ]
    );
}
