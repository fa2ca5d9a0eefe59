//! rmcp's own client against toolgate's MCP server (the `mcp_server` example), in process over
//! `tokio::io::duplex` and as a child process over stdio: the schemas advertised exactly, a good
//! call, invalid arguments and a refused rule answered in-band with toolgate's lines, an unknown
//! tool as a protocol error, and bad input answered as the plain gate answers it.

#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "../examples/mcp_server.rs"]
#[allow(dead_code)]
mod mcp_server;

use std::process::Stdio;

use mcp_server::{Call, ConvertUnits, LookupStock, SearchNotes};
use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode, JsonObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ServiceError, ServiceExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolgate::gate::{Gate, Rejection};
use toolgate::Tool;

type Client = RunningService<RoleClient, ()>;

/// The plain gate's rejection of a reply, as the server's gate (with its rule) gives it.
fn plain(reply: &str) -> Rejection {
    Gate::<Call>::plain().rule(mcp_server::same_kind).check_one(reply).expect_err("the plain gate refuses it")
}

fn object(v: Value) -> JsonObject {
    match v {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

async fn call(client: &Client, name: &'static str, args: Option<Value>) -> Result<CallToolResult, ServiceError> {
    let mut params = CallToolRequestParams::new(name);
    if let Some(a) = args {
        params = params.with_arguments(object(a));
    }
    client.call_tool(params).await
}

/// The text of a one-text-block result.
fn text(result: &CallToolResult) -> String {
    assert_eq!(result.content.len(), 1, "{result:?}");
    result.content[0].as_text().map(|t| t.text.clone()).expect("a text block")
}

/// Everything a client sees, whatever the transport.
async fn exercise(client: &Client) {
    // tools/list: every schema exactly as the validator enforces it.
    let tools = client.list_all_tools().await.expect("tools/list");
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(names, ["convert_units", "lookup_stock", "search_notes"]);
    for (name, schema, description) in [
        (ConvertUnits::NAME, ConvertUnits::SCHEMA, ConvertUnits::DESCRIPTION),
        (LookupStock::NAME, LookupStock::SCHEMA, LookupStock::DESCRIPTION),
        (SearchNotes::NAME, SearchNotes::SCHEMA, SearchNotes::DESCRIPTION),
    ] {
        let tool = tools.iter().find(|t| t.name == name).expect("listed");
        let advertised = Value::Object((*tool.input_schema).clone());
        assert_eq!(advertised, serde_json::from_str::<Value>(schema).expect("schema JSON"), "{name}");
        assert_eq!(tool.description.as_deref(), Some(description));
    }
    let convert = tools.iter().find(|t| t.name == "convert_units").expect("listed");
    assert_eq!(convert.input_schema["title"], "Unit conversion");
    assert_eq!(convert.input_schema["description"], "A value and the two units to convert between.");
    let notes = tools.iter().find(|t| t.name == "search_notes").expect("listed");
    assert_eq!(notes.input_schema["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(notes.input_schema.contains_key("definitions"));
    assert!(!convert.input_schema.contains_key("$schema"));

    // A good call.
    let ok = call(client, "convert_units", Some(json!({"value": 5, "from_unit": "km", "to_unit": "m"})))
        .await
        .expect("tools/call");
    assert_ne!(ok.is_error, Some(true));
    assert_eq!(text(&ok), "5 km = 5000 m");
    // The draft-07 tool: the tuple form of `items` means what draft-07 says.
    let ok = call(client, "search_notes", Some(json!({"phrase": "rust", "between": ["2026-01-01", "2026-02-01"]})))
        .await
        .expect("tools/call");
    assert_eq!(text(&ok), "no notes mention \"rust\"");
    let bad = call(
        client,
        "search_notes",
        Some(json!({"phrase": "rust", "between": ["2026-01-01", "2026-02-01", "2026-03-01"]})),
    )
    .await
    .expect("tools/call");
    assert_eq!(bad.is_error, Some(true));
    // `additionalItems: false` after the two-item tuple (draft-07's `items` array form).
    assert!(text(&bad).contains("- at /between/2: "), "{}", text(&bad));

    // Invalid arguments: in-band, toolgate's lines, the plain gate's exact answer.
    let args = json!({"value": "five", "from_unit": "km"});
    let bad = call(client, "convert_units", Some(args.clone())).await.expect("in-band, not a protocol error");
    assert_eq!(bad.is_error, Some(true));
    let expected = plain(&format!(r#"{{"tool": "convert_units", "arguments": {args}}}"#)).tool_error();
    assert_eq!(text(&bad), expected);
    assert_eq!(
        text(&bad),
        "Your reply was rejected: the arguments of convert_units do not match its schema:\n\
         - at /value: expected number, found string \"five\"\n\
         - at /to_unit: required property is missing\n\
         Call the tool again with corrected arguments."
    );

    // A business rule: the same channel.
    let refused = call(client, "convert_units", Some(json!({"value": 5, "from_unit": "m", "to_unit": "kg"})))
        .await
        .expect("in-band");
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(
        text(&refused),
        "Your reply was rejected: the call to convert_units was refused: cannot convert m to kg.\n\
         Call the tool again with corrected arguments."
    );

    // An unknown tool: a protocol error (as MCP specifies) with the gate's text.
    let err = call(client, "delete_all_notes", Some(json!({}))).await.expect_err("a protocol error");
    let ServiceError::McpError(e) = err else { panic!("not an MCP error: {err:?}") };
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        e.message,
        "Your reply was rejected: there is no tool named \"delete_all_notes\". \
         The available tools are: convert_units, lookup_stock, search_notes."
    );

    // Bad input. No arguments (optional in MCP): judged as `{}`, as the plain gate judges it.
    let none = call(client, "convert_units", None).await.expect("in-band");
    assert_eq!(none.is_error, Some(true));
    assert_eq!(text(&none), plain(r#"{"tool": "convert_units", "arguments": {}}"#).tool_error());
    assert!(text(&none).contains("- at /value: required property is missing"));
    // A huge argument object: the size limit, counted on the plain reply's compact text.
    let huge = json!({"value": 5, "from_unit": "km", "to_unit": "m", "note": "x".repeat(100_000)});
    let big = call(client, "convert_units", Some(huge.clone())).await.expect("in-band");
    assert_eq!(big.is_error, Some(true));
    let reply = format!(r#"{{"tool":"convert_units","arguments":{huge}}}"#);
    assert_eq!(text(&big), plain(&reply).tool_error());
    assert!(text(&big).starts_with(&format!(
        "Your reply was rejected: it is too long ({} bytes, the limit is 2000 bytes).",
        reply.len()
    )));
}

#[tokio::test]
async fn in_process_over_duplex() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        let running = mcp_server::server().serve(server_io).await.expect("server starts");
        running.waiting().await.expect("server runs")
    });
    let client = ().serve(client_io).await.expect("client connects");
    exercise(&client).await;
    client.cancel().await.expect("client closes");
    server.await.expect("server task");
}

#[tokio::test]
async fn child_process_over_stdio() {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"));
    let transport = TokioChildProcess::new(command).expect("the server starts");
    let client = ().serve(transport).await.expect("client connects");
    exercise(&client).await;
    client.cancel().await.expect("client closes");
}

/// `null` and a string as `arguments`, which rmcp's client cannot send: raw JSON-RPC lines to the
/// server process.
#[tokio::test]
async fn raw_arguments_over_stdio() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the server starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut send = async |message: Value| {
        stdin.write_all(format!("{message}\n").as_bytes()).await.expect("write");
        stdin.flush().await.expect("flush");
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}))
    .await;
    let init: Value = serde_json::from_str(&lines.next_line().await.expect("read").expect("a line")).expect("JSON");
    assert_eq!(init["id"], 1);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;

    // `null`: rmcp reads it as absent, so it is judged as `{}` (the plain gate would name the null).
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "convert_units", "arguments": null}}))
    .await;
    let reply: Value = serde_json::from_str(&lines.next_line().await.expect("read").expect("a line")).expect("JSON");
    assert_eq!(reply["id"], 2);
    assert_eq!(reply["result"]["isError"], true);
    assert_eq!(
        reply["result"]["content"][0]["text"],
        plain(r#"{"tool": "convert_units", "arguments": {}}"#).tool_error()
    );

    // A string where the object belongs: rmcp refuses the request before any tool sees it (as
    // an unknown method, -32601, naming `tools/call`).
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "convert_units", "arguments": "{\"value\": 5}"}}))
    .await;
    let reply: Value = serde_json::from_str(&lines.next_line().await.expect("read").expect("a line")).expect("JSON");
    assert_eq!(reply["id"], 3, "{reply}");
    assert!(reply.get("result").is_none(), "{reply}");
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    child.kill().await.expect("kill");
}

/// What rmcp alone would advertise for the same type (its schemars route, 2020-12 settings):
/// not the schema the validator enforces.
#[test]
fn rmcp_alone_rewrites_the_schema() {
    // ...but a draft-07 schema is declared 2020-12, under which its tuple `items` means
    // something else.
    let regenerated = rmcp::handler::server::tool::schema_for_type::<SearchNotes>();
    let exact = serde_json::from_str::<Value>(SearchNotes::SCHEMA).expect("schema JSON");
    assert_eq!(exact["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(regenerated["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(regenerated["properties"]["between"], exact["properties"]["between"]);
    // A 2020-12 schema only gains the meta-schema...
    let regenerated = rmcp::handler::server::tool::schema_for_type::<ConvertUnits>();
    let mut expected = serde_json::from_str::<Value>(ConvertUnits::SCHEMA).expect("schema JSON");
    expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    assert_eq!(Value::Object((*regenerated).clone()), expected);
    let tool = toolgate_rmcp::tool(&toolgate::gate::ToolSpec::of::<SearchNotes>());
    assert_eq!(Value::Object((*tool.input_schema).clone()), exact);
}

#[tokio::test]
async fn the_server_names_itself_and_offers_tools() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        let running = mcp_server::server().serve(server_io).await.expect("server starts");
        running.waiting().await.expect("server runs")
    });
    let client = ().serve(client_io).await.expect("client connects");
    let info = client.peer_info().expect("the server's initialize result");
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("toolgate-example"));
    assert!(info.capabilities.tools.is_some());
    client.cancel().await.expect("client closes");
    server.await.expect("server task");
}
