//! Stream gates over recorded provider streams (`tests/streams/*.sse`, byte-exact to the wire
//! formats; async-openai's own stream types deserialise the OpenAI ones below).

#![allow(clippy::pedantic)]

use toolgate::gate::{Gate, Stage, StreamEvent, StreamFormat};
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
    /// The tools.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call { SearchWeb, ReadFile, ListTools }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("streams").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Push `bytes` in pieces of `n` bytes; every event with the byte offset of the push that made it.
fn replay(gate: &Gate<Call>, format: StreamFormat, bytes: &[u8], n: usize) -> Vec<(usize, StreamEvent<Call>)> {
    let mut s = gate.stream(format);
    let mut out = Vec::new();
    for (i, piece) in bytes.chunks(n).enumerate() {
        out.extend(s.push_bytes(piece).into_iter().map(|e| (i * n + piece.len(), e)));
    }
    out.extend(s.finish().into_iter().map(|e| (bytes.len(), e)));
    out
}

fn only_events(v: &[(usize, StreamEvent<Call>)]) -> Vec<StreamEvent<Call>> {
    v.iter().map(|(_, e)| e.clone()).collect()
}

#[test]
fn openai_parallel_calls_one_aborted_at_its_byte_the_other_accepted_at_the_finish() {
    let gate = Gate::<Call>::openai();
    let bytes = fixture("openai_chat_parallel.sse");
    let events = replay(&gate, StreamFormat::OpenAiChat, &bytes, 1);
    // The same decisions whatever the split.
    for n in [2, 7, 64, bytes.len()] {
        assert_eq!(only_events(&replay(&gate, StreamFormat::OpenAiChat, &bytes, n)), only_events(&events), "{n}");
    }
    let [(at_bad, StreamEvent::Rejected(bad)), (at_good, StreamEvent::Accepted(good)), (_, StreamEvent::End)] =
        events.as_slice()
    else {
        panic!("{events:#?}")
    };
    assert_eq!(bad.stage(), Stage::Arguments);
    assert_eq!(
        (bad.call_index(), bad.call_id(), bad.tool()),
        (Some(1), Some("call_9cFQm1iVqT4SxzX2RgLw"), Some("read_file"))
    );
    // Certain at the opening quote of "ten": `{"path": "/etc/hosts", "max_lines": "`.
    assert_eq!(bad.offset(), Some(r#"{"path": "/etc/hosts", "max_lines": "#.len()));
    assert_eq!(bad.reason(), "arguments: /max_lines: expected integer, found string \"…");
    assert!(bad.feedback().contains("the arguments of read_file do not match its schema"), "{}", bad.feedback());
    // Rejected in the event that carried the quote: before the good call's last fragment arrived.
    let quote_event = find(&bytes, br#"lines\": \""#);
    assert!(*at_bad > quote_event && *at_bad < find(&bytes, br#""arguments":"ten"#), "{at_bad}");
    assert!(at_bad < at_good);
    // Accepted only at `finish_reason`, although its arguments parsed one event earlier.
    assert!(*at_good > find(&bytes, br#""finish_reason":"tool_calls""#));
    assert_eq!(good.index, 0);
    assert_eq!(good.id.as_deref(), Some("call_Kp2bEkVo8s3eQy0Lh0R1"));
    let Call::SearchWeb(args) = &good.call else { panic!() };
    assert_eq!((args.query.as_str(), args.limit), ("rust streaming JSON", Some(5)));
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{:?}", String::from_utf8_lossy(needle)))
}

#[test]
fn fragments_split_inside_escapes_and_characters_and_prose_passes_through() {
    let gate = Gate::<Call>::openai();
    let bytes = fixture("openai_chat_escapes.sse");
    for n in [1, 3, bytes.len()] {
        let events = only_events(&replay(&gate, StreamFormat::OpenAiChat, &bytes, n));
        let text: String =
            events.iter().filter_map(|e| if let StreamEvent::Text(t) = e { Some(t.as_str()) } else { None }).collect();
        assert_eq!(text, "Let me look that up.");
        let accepted: Vec<_> =
            events.iter().filter_map(|e| if let StreamEvent::Accepted(a) = e { Some(a) } else { None }).collect();
        let [a] = accepted.as_slice() else { panic!("{events:#?}") };
        let Call::SearchWeb(args) = &a.call else { panic!() };
        assert_eq!(args.query, "café é😀 \"q\"");
        assert!(events.iter().all(|e| !matches!(e, StreamEvent::Rejected(_))), "{events:#?}");
    }
}

#[test]
fn truncation_is_a_rejection_never_a_call() {
    let gate = Gate::<Call>::openai();
    let events = only_events(&replay(&gate, StreamFormat::OpenAiChat, &fixture("openai_chat_length.sse"), 5));
    let [StreamEvent::Rejected(r), StreamEvent::End] = events.as_slice() else { panic!("{events:#?}") };
    assert_eq!(r.stage(), Stage::Truncated);
    assert_eq!(r.reason(), "truncated: the response stopped (length) before the call was complete");
    assert!(r.feedback().starts_with("Your reply was cut off: tool call 0: the call to search_web was not complete"));

    let gate = Gate::<Call>::anthropic();
    let events = only_events(&replay(&gate, StreamFormat::Anthropic, &fixture("anthropic_max_tokens.sse"), 9));
    let [StreamEvent::Rejected(r), StreamEvent::End] = events.as_slice() else { panic!("{events:#?}") };
    assert_eq!((r.stage(), r.call_id()), (Stage::Truncated, Some("toolu_03")));
}

#[test]
fn the_parsable_prefix_trap() {
    // `{"query": "rust"}` is complete and valid, but the provider has not said the call is
    // complete: nothing is accepted, and a stream that ends there is truncated.
    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let events = s.push_bytes(&fixture("openai_chat_prefix_part1.sse"));
    assert!(events.is_empty(), "{events:#?}");
    let end = s.finish();
    let [StreamEvent::Rejected(r)] = end.as_slice() else { panic!("{end:#?}") };
    assert_eq!(r.stage(), Stage::Truncated);
}

#[test]
fn responses_api_accepted_at_output_item_done() {
    let gate = Gate::<Call>::openai();
    let bytes = fixture("openai_responses.sse");
    let events = replay(&gate, StreamFormat::OpenAiResponses, &bytes, 4);
    let [(at, StreamEvent::Accepted(a)), (_, StreamEvent::End)] = events.as_slice() else { panic!("{events:#?}") };
    assert!(*at > find(&bytes, b"event: response.output_item.done"));
    assert_eq!(a.id.as_deref(), Some("call_12345xyz"));
    assert_eq!(a.arguments, serde_json::json!({"query": "weather in Paris", "limit": 2}));
}

#[test]
fn anthropic_text_tool_use_and_empty_input() {
    let gate = Gate::<Call>::anthropic();
    let bytes = fixture("anthropic.sse");
    let events = only_events(&replay(&gate, StreamFormat::Anthropic, &bytes, 1));
    let [StreamEvent::Text(t), StreamEvent::Accepted(read), StreamEvent::Accepted(list), StreamEvent::End] =
        events.as_slice()
    else {
        panic!("{events:#?}")
    };
    assert_eq!(t, "Okay, let me read that file.");
    assert_eq!((read.index, read.id.as_deref()), (0, Some("toolu_01T1x1fJ34qAmk2tNTrN7Up6")));
    let Call::ReadFile(args) = &read.call else { panic!() };
    assert_eq!(
        (args.path.as_str(), args.max_lines.as_ref().and_then(serde_json::Number::as_u64)),
        ("src/main.rs", Some(40))
    );
    assert!(matches!(list.call, Call::ListTools(_)));
    assert_eq!(list.arguments, serde_json::json!({}));
}

fn chat(delta_calls: &str) -> String {
    format!(
        r#"{{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{{"index":0,"delta":{{"tool_calls":{delta_calls}}},"finish_reason":null}}]}}"#
    )
}

const FINISH: &str = r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#;

fn rejections(events: &[StreamEvent<Call>]) -> Vec<String> {
    events.iter().filter_map(|e| if let StreamEvent::Rejected(r) = e { Some(r.reason()) } else { None }).collect()
}

#[test]
fn unknown_tools_are_rejected_when_the_name_arrives() {
    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let e = s.push_event(&chat(
        r#"[{"index":0,"id":"a","type":"function","function":{"name":"delete_everything","arguments":""}}]"#,
    ));
    let [StreamEvent::Rejected(r)] = e.as_slice() else { panic!("{e:#?}") };
    assert_eq!(r.stage(), Stage::NotAllowed);
    assert!(r.feedback().contains("The available tools are: search_web, read_file, list_tools."));
    // Its later fragments change nothing: the call is decided.
    let e = s.push_event(&chat(r#"[{"index":0,"function":{"arguments":"{}"}}]"#));
    assert!(e.is_empty(), "{e:#?}");
    let e = s.push_event(FINISH);
    assert!(e.is_empty(), "{e:#?}");
}

#[test]
fn malformed_events_are_rejections_with_a_reason() {
    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let mut all = Vec::new();
    all.extend(s.push_bytes(b"data: {not json}\n\n"));
    all.extend(s.push_event(r#"{"id":"c","object":"chat.completion.chunk"}"#));
    all.extend(s.push_event(&chat(r#"[{"function":{"arguments":"{}"}}]"#)));
    all.extend(s.push_event(&chat(r#"[{"index":0,"id":"a","function":{"name":"search_web","arguments":""}}]"#)));
    all.extend(s.push_event(&chat(r#"[{"index":0,"function":{"name":"read_file"}}]"#)));
    let r = rejections(&all);
    assert_eq!(r.len(), 4, "{r:#?}");
    assert!(r[0].starts_with("not JSON: an event that is not JSON"), "{}", r[0]);
    assert_eq!(r[1], "envelope: a chunk without `choices`");
    assert_eq!(r[2], "envelope: a tool-call delta without `index` or `id`, and no call is open");
    assert_eq!(r[3], "envelope: a second tool name for the same call");

    let gate = Gate::<Call>::anthropic();
    let mut s = gate.stream(StreamFormat::Anthropic);
    let mut all = Vec::new();
    all.extend(s.push_event(
        r#"{"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{"}}"#,
    ));
    all.extend(s.push_event(r#"{"type":"mystery"}"#));
    all.extend(s.push_event(r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"list_tools","input":{}}}"#));
    all.extend(s.push_event(r#"{"type":"content_block_stop","index":0}"#));
    all.extend(s.push_event(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}"#,
    ));
    let r = rejections(&all);
    assert_eq!(
        r,
        [
            "envelope: input for a block that never started",
            "envelope: an unknown event type \"mystery\"",
            "envelope: arguments for a call that has already ended"
        ]
    );
    assert!(all.iter().any(|e| matches!(e, StreamEvent::Accepted(_))));

    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiResponses);
    let r = rejections(&s.push_event(
        r#"{"type":"response.function_call_arguments.delta","item_id":"nope","output_index":0,"delta":"{"}"#,
    ));
    assert_eq!(r, ["envelope: arguments for an item that never started"]);
}

#[test]
fn deviating_openai_servers() {
    let gate = Gate::<Call>::openai();
    let accepted = |events: &[StreamEvent<Call>]| -> Vec<(usize, Option<String>)> {
        events
            .iter()
            .filter_map(|e| if let StreamEvent::Accepted(a) = e { Some((a.index, a.id.clone())) } else { None })
            .collect()
    };
    // Indexes from 1, and a delta without index that names its call by id.
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let mut all =
        s.push_event(&chat(r#"[{"index":1,"id":"a","function":{"name":"search_web","arguments":"{\"query\""}}]"#));
    all.extend(s.push_event(&chat(r#"[{"id":"a","function":{"arguments":": \"x\"}"}}]"#)));
    all.extend(s.push_event(FINISH));
    assert_eq!(accepted(&all), [(0, Some("a".to_owned()))], "{all:#?}");
    // Index 0 reused for every call, told apart by id; a delta with neither goes to the only open call.
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let mut all = s.push_event(&chat(
        r#"[{"index":0,"id":"a","function":{"name":"search_web","arguments":"{\"query\": \"x\"}"}}]"#,
    ));
    all.extend(
        s.push_event(&chat(r#"[{"index":0,"id":"b","function":{"name":"read_file","arguments":"{\"path\""}}]"#)),
    );
    all.extend(s.push_event(&chat(r#"[{"function":{"arguments":": \"y\"}"}}]"#)));
    all.extend(s.push_event(FINISH));
    assert_eq!(accepted(&all), [(0, Some("a".to_owned())), (1, Some("b".to_owned()))], "{all:#?}");
    // Without index or id while two calls are open: ambiguous.
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    s.push_event(&chat(r#"[{"index":0,"id":"a","function":{"name":"search_web","arguments":"{"}}]"#));
    s.push_event(&chat(r#"[{"index":1,"id":"b","function":{"name":"search_web","arguments":"{"}}]"#));
    let r = rejections(&s.push_event(&chat(r#"[{"function":{"arguments":"}"}}]"#)));
    assert_eq!(r, ["envelope: a tool-call delta without `index` or `id` while several calls are open: ambiguous"]);
}

#[test]
fn limits_are_rejected_at_the_crossing_byte() {
    // Bytes per call: the gate's max_bytes.
    let gate = Gate::<Call>::openai().max_bytes(20);
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    s.push_event(&chat(r#"[{"index":0,"id":"a","function":{"name":"search_web","arguments":"{\"query\": \"0123"}}]"#));
    let e = s.push_event(&chat(r#"[{"index":0,"function":{"arguments":"456789"}}]"#));
    let [StreamEvent::Rejected(r)] = e.as_slice() else { panic!("{e:#?}") };
    assert_eq!((r.stage(), r.offset()), (Stage::TooLong, Some(20)));
    // Depth.
    let gate = Gate::<Call>::openai().max_depth(2);
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let e = s.push_event(&chat(
        r#"[{"index":0,"id":"a","function":{"name":"read_file","arguments":"{\"path\": \"x\", \"filter\": {\"a\": [1]}}"}}]"#,
    ));
    let [StreamEvent::Rejected(r)] = e.as_slice() else { panic!("{e:#?}") };
    assert_eq!((r.stage(), r.offset()), (Stage::TooDeep, Some(r#"{"path": "x", "filter": {"a": "#.len())));
    // Calls per stream.
    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiChat).max_calls(1);
    s.push_event(&chat(r#"[{"index":0,"id":"a","function":{"name":"list_tools","arguments":"{}"}}]"#));
    let r =
        rejections(&s.push_event(&chat(r#"[{"index":1,"id":"b","function":{"name":"list_tools","arguments":"{}"}}]"#)));
    assert_eq!(r, ["too long: more than 1 tool calls in one response"]);
    // Bytes per stream.
    let mut s = gate.stream(StreamFormat::OpenAiChat).max_stream_bytes(300);
    s.push_event(&chat(r#"[{"index":0,"id":"a","function":{"name":"list_tools","arguments":"{"}}]"#));
    let r = rejections(&s.push_bytes(&[b' '; 200]));
    assert_eq!(
        r,
        ["too long: the stream carries more than 300 bytes", "truncated: the stream was given up at its byte limit"]
    );
}

#[test]
fn sse_framing_comments_crlf_and_multi_line_data() {
    let gate = Gate::<Call>::anthropic();
    let mut s = gate.stream(StreamFormat::Anthropic);
    let text = ": a comment\r\nevent: content_block_start\r\ndata: {\"type\":\"content_block_start\",\r\ndata: \"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"list_tools\",\"input\":{}}}\r\n\r\n\
                data: {\"type\":\"content_block_stop\",\"index\":0}\n\n";
    let mut events = Vec::new();
    for b in text.as_bytes() {
        events.extend(s.push_bytes(std::slice::from_ref(b)));
    }
    assert!(matches!(events.as_slice(), [StreamEvent::Accepted(_)]), "{events:#?}");
}

#[test]
fn async_openai_reads_the_same_fixtures() {
    use async_openai::types::chat::CreateChatCompletionStreamResponse;
    use async_openai::types::responses::ResponseStreamEvent;
    for (name, chunks) in
        [("openai_chat_parallel.sse", true), ("openai_chat_escapes.sse", true), ("openai_responses.sse", false)]
    {
        let text = String::from_utf8(fixture(name)).unwrap();
        let mut n = 0;
        for line in text.lines().filter_map(|l| l.strip_prefix("data: ")).filter(|l| *l != "[DONE]") {
            if chunks {
                serde_json::from_str::<CreateChatCompletionStreamResponse>(line)
                    .unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
            } else {
                serde_json::from_str::<ResponseStreamEvent>(line).unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
            }
            n += 1;
        }
        assert!(n > 5, "{name}");
    }
    // A user holding async-openai's parsed chunks feeds them as values.
    let gate = Gate::<Call>::openai();
    let mut s = gate.stream(StreamFormat::OpenAiChat);
    let mut events = Vec::new();
    let text = String::from_utf8(fixture("openai_chat_escapes.sse")).unwrap();
    for line in text.lines().filter_map(|l| l.strip_prefix("data: ")).filter(|l| *l != "[DONE]") {
        let chunk: CreateChatCompletionStreamResponse = serde_json::from_str(line).unwrap();
        events.extend(s.push_value(&serde_json::to_value(&chunk).unwrap()));
    }
    assert!(events.iter().any(|e| matches!(e, StreamEvent::Accepted(_))), "{events:#?}");
}
