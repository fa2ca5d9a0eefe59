//! async-openai: toolgate's declarations as its tool types, its messages through a gate, and its
//! real HTTP client against a local server (wiremock, 127.0.0.1) that replays responses in
//! OpenAI's wire format (`tests/replies/`): a repair conversation where the first reply is
//! refused, the gate's feedback goes back as the next request's tool message, and the second
//! reply is accepted; then the same with streamed responses through the stream gate.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::sync::atomic::{AtomicUsize, Ordering};

use async_openai::config::OpenAIConfig;
use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls, ChatCompletionRequestAssistantMessage,
    ChatCompletionRequestMessage, ChatCompletionRequestUserMessage, ChatCompletionResponseMessage,
    CreateChatCompletionRequestArgs, CreateChatCompletionResponse, FunctionCall,
};
use async_openai::Client;
use futures_util::StreamExt as _;
use serde_json::{json, Value};
use toolgate::gate::{openai_tools, Gate, Outcome, Provider, StreamEvent, StreamFormat, Toolbox};
use toolgate::{tool_schema, toolbox, Tool};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

tool_schema! {
    /// Convert a value between two units of the same kind.
    pub struct ConvertUnits = {
        "type": "object",
        "properties": {
            "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
            "from_unit": {"enum": ["m", "km", "g", "kg"]},
            "to_unit": {"enum": ["m", "km", "g", "kg"]}
        },
        "required": ["value", "from_unit", "to_unit"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Get the current weather in a city.
    pub struct GetWeather = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city's name."},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
        },
        "required": ["city", "unit"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The tools offered to the model.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call { ConvertUnits, GetWeather }
}

const INVALID: &str = include_str!("replies/openai_invalid.json");
const VALID: &str = include_str!("replies/openai_valid.json");
const INVALID_SSE: &str = include_str!("replies/openai_invalid.sse");
const VALID_SSE: &str = include_str!("replies/openai_valid.sse");

#[test]
fn declarations_as_async_openai_types() {
    let tools = openai_tools::<Call>();
    // The same JSON as toolgate's own declarations: the exact schemas, `strict` only where it holds.
    assert_eq!(serde_json::to_value(&tools).expect("JSON"), Call::declarations(Provider::OpenAi));
    let json = serde_json::to_value(&tools).expect("JSON");
    assert_eq!(json[0]["function"]["name"], "convert_units");
    // `from_unit` is an enum without a `type`: OpenAI's strict mode refuses that.
    assert!(json[0]["function"].get("strict").is_none());
    assert_eq!(json[1]["function"]["strict"], true);
    assert_eq!(json[1]["function"]["parameters"], serde_json::from_str::<Value>(GetWeather::SCHEMA).expect("schema"));
}

#[test]
fn a_response_read_by_async_openai_through_the_gate() {
    let response: CreateChatCompletionResponse = serde_json::from_str(INVALID).expect("async-openai reads it");
    let gate = Gate::<Call>::openai();
    let outcome = gate.check_openai_message(&response.choices[0].message);
    // The same verdict as the gate gives the message's JSON as it came over the wire.
    let wire: Value = serde_json::from_str(INVALID).expect("JSON");
    assert_eq!(outcome, gate.check(&wire["choices"][0]["message"].to_string()));
    let Outcome::Calls(calls) = outcome else { panic!("calls expected") };
    let rejection = calls[0].as_ref().expect_err("refused");
    assert_eq!(rejection.reason(), "arguments: /value: expected number, found string \"five\"");
    let message = rejection.openai_tool_message().expect("the call has an id");
    assert_eq!(message.tool_call_id, "call_qW3eR5tY7uI9oP1aS3dF5gH7");

    let response: CreateChatCompletionResponse = serde_json::from_str(VALID).expect("async-openai reads it");
    let Outcome::Calls(calls) = gate.check_openai_message(&response.choices[0].message) else { panic!("calls") };
    let accepted = calls[0].as_ref().expect("accepted");
    assert_eq!(accepted.id.as_deref(), Some("call_zX9cV7bN5mL3kJ1hG9fD7sA5"));
    assert!(matches!(&accepted.call, Call::ConvertUnits(c) if c.value == 5.0));
}

/// Bad `arguments` strings in a message read by async-openai: the same answers as the OpenAI gate
/// gives the same message as JSON.
#[test]
fn bad_arguments_in_async_openai_messages() {
    let gate = Gate::<Call>::openai();
    let huge = json!({"value": 5, "from_unit": "km", "to_unit": "m", "note": "x".repeat(100_000)}).to_string();
    for arguments in ["", "null", r#""{\"value\": 5}""#, huge.as_str()] {
        let message = assistant_message("call_1", arguments);
        let outcome = gate.check_openai_message(&message);
        let wire = serde_json::to_string(&message).expect("JSON");
        assert_eq!(outcome, gate.check(&wire), "{arguments:.40}");
        assert_eq!(outcome.rejections().len(), 1, "{arguments:.40}");
    }
}

fn assistant_message(id: &str, arguments: &str) -> ChatCompletionResponseMessage {
    serde_json::from_value(json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [{"id": id, "type": "function", "function": {"name": "convert_units", "arguments": arguments}}]
    }))
    .expect("a message")
}

/// Plays back `bodies` in order, one per request.
struct Replay {
    bodies: Vec<(&'static str, &'static str)>,
    next: AtomicUsize,
}

impl Respond for Replay {
    fn respond(&self, _request: &Request) -> ResponseTemplate {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        match self.bodies.get(i) {
            Some((body, mime)) => ResponseTemplate::new(200).set_body_raw(*body, mime),
            None => ResponseTemplate::new(500).set_body_string("out of replies"),
        }
    }
}

async fn server(bodies: Vec<(&'static str, &'static str)>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Replay { bodies, next: AtomicUsize::new(0) })
        .mount(&server)
        .await;
    server
}

fn client(server: &MockServer) -> Client<OpenAIConfig> {
    Client::with_config(OpenAIConfig::new().with_api_base(format!("{}/v1", server.uri())).with_api_key("sk-test"))
}

fn request(messages: &[ChatCompletionRequestMessage]) -> async_openai::types::chat::CreateChatCompletionRequest {
    CreateChatCompletionRequestArgs::default()
        .model("gpt-4.1")
        .messages(messages.to_vec())
        .tools(openai_tools::<Call>())
        .build()
        .expect("a request")
}

fn first_message() -> Vec<ChatCompletionRequestMessage> {
    vec![ChatCompletionRequestUserMessage::from("How many metres are 5 km?").into()]
}

/// The request bodies the server received.
async fn bodies(server: &MockServer) -> Vec<Value> {
    let received = server.received_requests().await.expect("recording is on");
    received.iter().map(|r| serde_json::from_slice(&r.body).expect("a JSON body")).collect()
}

#[tokio::test]
async fn repair_over_http() {
    let server = server(vec![(INVALID, "application/json"), (VALID, "application/json")]).await;
    let client = client(&server);
    let gate = Gate::<Call>::openai();
    let mut messages = first_message();
    let mut feedback = Vec::new();
    let mut accepted = None;
    for _ in 0..gate.attempt_limit() {
        let response = client.chat().create(request(&messages)).await.expect("the server answers");
        let reply = &response.choices[0].message;
        messages.push(
            ChatCompletionRequestAssistantMessage { tool_calls: reply.tool_calls.clone(), ..Default::default() }.into(),
        );
        let outcome = gate.check_openai_message(reply);
        let rejections = outcome.rejections();
        if rejections.is_empty() {
            accepted = outcome.accepted().first().map(|a| (*a).clone());
            break;
        }
        for r in rejections {
            let tool_message = r.openai_tool_message().expect("a call id");
            feedback.push(r.feedback());
            messages.push(tool_message.into());
        }
    }
    let accepted = accepted.expect("the second reply is accepted");
    assert!(matches!(accepted.call, Call::ConvertUnits(ref c) if c.value == 5.0 && c.to_unit.as_str() == "m"));

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    // The tools were declared exactly.
    assert_eq!(bodies[0]["tools"], Call::declarations(Provider::OpenAi));
    // The second request answers the refused call with the gate's feedback, as a tool message.
    assert_eq!(feedback.len(), 1);
    assert_eq!(
        bodies[1]["messages"][2],
        json!({"role": "tool", "tool_call_id": "call_qW3eR5tY7uI9oP1aS3dF5gH7", "content": feedback[0]})
    );
    assert_eq!(
        feedback[0],
        "Your reply was rejected: tool call 0: the arguments of convert_units do not match its schema:\n\
         - at /value: expected number, found string \"five\"\n\
         Reply with one corrected tool call only, and no other text."
    );
    assert_eq!(bodies[1]["messages"][1]["tool_calls"][0]["id"], "call_qW3eR5tY7uI9oP1aS3dF5gH7");
}

/// One streamed response through async-openai's client into the stream gate; returns the gate's
/// events and the assistant message the stream built (its call id, name and arguments).
async fn stream_once(
    client: &Client<OpenAIConfig>,
    gate: &Gate<Call>,
    messages: &[ChatCompletionRequestMessage],
) -> (Vec<StreamEvent<Call>>, ChatCompletionRequestAssistantMessage) {
    let mut stream = client.chat().create_stream(request(messages)).await.expect("the stream opens");
    let mut sg = gate.stream(StreamFormat::OpenAiChat);
    let mut events = Vec::new();
    let (mut id, mut name, mut arguments) = (String::new(), String::new(), String::new());
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.expect("async-openai reads the chunk");
        for choice in &chunk.choices {
            for call in choice.delta.tool_calls.iter().flatten() {
                id.push_str(call.id.as_deref().unwrap_or_default());
                if let Some(f) = &call.function {
                    name.push_str(f.name.as_deref().unwrap_or_default());
                    arguments.push_str(f.arguments.as_deref().unwrap_or_default());
                }
            }
        }
        events.extend(sg.push_value(&serde_json::to_value(&chunk).expect("JSON")));
    }
    events.extend(sg.finish());
    let call = ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
        id,
        function: FunctionCall { name, arguments },
    });
    (events, ChatCompletionRequestAssistantMessage { tool_calls: Some(vec![call]), ..Default::default() })
}

#[tokio::test]
async fn repair_over_a_streamed_response() {
    let server = server(vec![(INVALID_SSE, "text/event-stream"), (VALID_SSE, "text/event-stream")]).await;
    let client = client(&server);
    let gate = Gate::<Call>::openai();
    let mut messages = first_message();

    let (events, assistant) = stream_once(&client, &gate, &messages).await;
    let rejected: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Rejected(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(rejected.len(), 1, "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, StreamEvent::Accepted(_))), "{events:?}");
    let r = rejected[0];
    // Refused at the quote that starts a string where a number belongs, before the call ended.
    assert_eq!(r.offset(), Some(10));
    assert_eq!(r.call_id(), Some("call_aB1cD3eF5gH7iJ9kL1mN3oP5"));
    messages.push(assistant.into());
    messages.push(r.openai_tool_message().expect("a call id").into());

    let (events, _) = stream_once(&client, &gate, &messages).await;
    let accepted: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Accepted(a) => Some(a),
            _ => None,
        })
        .collect();
    assert_eq!(accepted.len(), 1, "{events:?}");
    assert!(matches!(&accepted[0].call, Call::ConvertUnits(c) if c.value == 5.0));

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["stream"], true);
    assert_eq!(
        bodies[1]["messages"][2],
        json!({"role": "tool", "tool_call_id": "call_aB1cD3eF5gH7iJ9kL1mN3oP5", "content": r.feedback()})
    );
    assert!(r.feedback().contains("expected number, found string"), "{}", r.feedback());
    assert_eq!(
        bodies[1]["messages"][1]["tool_calls"][0]["function"]["arguments"],
        r#"{"value": "five", "from_unit": "km", "to_unit": "m"}"#
    );
}
