//! Stream gates: a provider's event stream in, early aborts and typed calls out.
//!
//! [`Gate::stream`] gives a [`StreamGate`] for one response stream of OpenAI Chat Completions,
//! the OpenAI Responses API or Anthropic Messages ([`StreamFormat`]). Push raw bytes (SSE framing:
//! `data:` lines, multi-line events, comments, `\r\n`) with [`StreamGate::push_bytes`], or events
//! already parsed with [`StreamGate::push_event`] / [`StreamGate::push_value`]; each push returns
//! what it decided ([`StreamEvent`]):
//!
//! - a tool name is checked against the toolbox's allowlist the moment it arrives;
//! - each call's argument fragments are fed to that tool's streaming validator ([`crate::Stream`])
//!   as they arrive, and the moment a call is dead it is rejected (with the byte offset in its
//!   arguments, [`Rejection::offset`]), so the caller can cancel the request;
//! - a call is accepted (typed, business rules run) only once the provider has said that call is
//!   complete: Anthropic's `content_block_stop`, the Responses API's `output_item.done`, OpenAI
//!   Chat's `finish_reason`. Never on a prefix that happens to parse: `{"query": "rust"}` may still
//!   be followed by `, "limit": 10`;
//! - a stream that ends before a call is complete (`length`, `max_tokens`, `response.incomplete`,
//!   an `error` event, or [`StreamGate::finish`] before the stop event) rejects each unfinished
//!   call at [`Stage::Truncated`], never accepts it;
//! - malformed events are rejections with a clear reason, never a panic or a dropped fragment.
//!
//! Limits: a call's argument text is at most the gate's [`Gate::max_bytes`] and nests at most
//! [`Gate::max_depth`] levels (rejected at the byte that crosses them); a stream holds at most
//! [`StreamGate::max_calls`] calls and [`StreamGate::max_stream_bytes`] bytes in all.
//!
//! OpenAI Chat servers that imitate the format deviate; accepted where the meaning is plain: a
//! call's `index` may start at 1 (calls are numbered in order of appearance), a delta without
//! `index` belongs to the call its `id` names or, without `id`, to the only open call; a reused
//! `index` with a new `id` starts a new call. A delta that fits no call unambiguously is rejected.

use std::fmt;

use serde_json::Value;

use super::envelope::{Args, RawCall};
use super::{Accepted, Envelope, Gate, Rejection, Stage, Toolbox};
use crate::stream::Progress;
use crate::violation::Error;

/// The event formats a [`StreamGate`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StreamFormat {
    /// OpenAI Chat Completions (`chat.completion.chunk`), and servers that imitate it.
    OpenAiChat,
    /// The OpenAI Responses API (`response.*` events).
    OpenAiResponses,
    /// Anthropic Messages (`message_start` … `message_stop`).
    Anthropic,
}

impl StreamFormat {
    const fn envelope(self) -> Envelope {
        match self {
            Self::OpenAiChat | Self::OpenAiResponses => Envelope::OpenAi,
            Self::Anthropic => Envelope::Anthropic,
        }
    }
}

/// What a push decided.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent<C> {
    /// A call is complete and passed every stage.
    Accepted(Accepted<C>),
    /// A call (or the stream, when [`Rejection::call_index`] is `None`) was rejected: as soon as
    /// it was certain, for a call whose arguments are dead.
    Rejected(Rejection),
    /// Text (prose) the model wrote, as it arrived.
    Text(String),
    /// The provider said the response is over; nothing more is expected.
    End,
}

/// A tool's streaming validator with its type erased (what a toolbox hands a stream gate).
#[doc(hidden)]
pub trait ArgStream: Send {
    /// Feed a fragment.
    fn feed(&mut self, bytes: &[u8]) -> Progress;
    /// The text has ended.
    ///
    /// # Errors
    /// Why it is not valid.
    fn finish(&mut self) -> Result<(), Error>;
    /// The text fed so far.
    fn text(&self) -> &[u8];
}

impl<T: crate::Tool> ArgStream for crate::Stream<T> {
    fn feed(&mut self, bytes: &[u8]) -> Progress {
        crate::Stream::feed(self, bytes)
    }
    fn finish(&mut self) -> Result<(), Error> {
        crate::Stream::finish(self)
    }
    fn text(&self) -> &[u8] {
        crate::Stream::text(self)
    }
}

/// How a provider keys a call.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Key {
    /// OpenAI Chat: the choice and the `index` (or the `id` when a server leaves `index` out).
    Chat(u64, Option<u64>, Option<String>),
    /// Responses: the item id.
    Item(String),
    /// Anthropic: the content block index.
    Block(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CallState {
    /// arguments may still come
    Open,
    /// the provider said it is complete: nothing more may come
    Closed,
    /// the gate rejected it: what still comes for it is ignored (the call is decided)
    Rejected,
}

struct Call {
    key: Key,
    order: usize,
    id: Option<String>,
    name: Option<String>,
    args: Option<Box<dyn ArgStream>>,
    state: CallState,
    depth: Depth,
}

/// Nesting of a call's argument text, counted as it arrives (for the gate's depth limit).
#[derive(Debug, Clone, Copy, Default)]
struct Depth {
    depth: usize,
    in_str: bool,
    esc: bool,
}

impl Depth {
    /// Count `fragment`, which starts at offset `at`: the offset of the first `[` or `{` nested
    /// deeper than `limit`, if any.
    fn feed(&mut self, fragment: &[u8], at: usize, limit: usize) -> Option<usize> {
        for (i, &b) in fragment.iter().enumerate() {
            if self.in_str {
                if self.esc {
                    self.esc = false;
                } else if b == b'\\' {
                    self.esc = true;
                } else if b == b'"' {
                    self.in_str = false;
                }
                continue;
            }
            match b {
                b'"' => self.in_str = true,
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth > limit {
                        return Some(at + i);
                    }
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        None
    }
}

impl fmt::Debug for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Call")
            .field("key", &self.key)
            .field("order", &self.order)
            .field("id", &self.id)
            .field("name", &self.name)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// One response stream through a [`Gate`] (made by [`Gate::stream`]): call by call, from the
/// provider's events to accepted calls and rejections.
pub struct StreamGate<'g, C> {
    gate: &'g Gate<C>,
    format: StreamFormat,
    calls: Vec<Call>,
    /// undecoded SSE bytes (an incomplete line)
    line: Vec<u8>,
    /// the current SSE event's `data` lines
    data: String,
    has_data: bool,
    bytes: usize,
    max_calls: usize,
    max_stream_bytes: usize,
    ended: bool,
    overflowed: bool,
}

impl<C> fmt::Debug for StreamGate<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamGate")
            .field("format", &self.format)
            .field("calls", &self.calls)
            .field("bytes", &self.bytes)
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

impl<C: Toolbox> Gate<C> {
    /// A stream gate for one response stream in `format`, with this gate's toolbox, rules and
    /// limits. The toolbox must come from [`toolbox!`](crate::toolbox!) (a hand-written
    /// [`Toolbox`] has no streaming validators: its calls are rejected as not allowed).
    #[must_use]
    pub fn stream(&self, format: StreamFormat) -> StreamGate<'_, C> {
        StreamGate {
            gate: self,
            format,
            calls: Vec::new(),
            line: Vec::new(),
            data: String::new(),
            has_data: false,
            bytes: 0,
            max_calls: StreamGate::<C>::DEFAULT_MAX_CALLS,
            max_stream_bytes: StreamGate::<C>::DEFAULT_MAX_STREAM_BYTES,
            ended: false,
            overflowed: false,
        }
    }
}

impl<'g, C: Toolbox> StreamGate<'g, C> {
    /// The default number of calls one stream may hold.
    pub const DEFAULT_MAX_CALLS: usize = 16;
    /// The default number of bytes one stream may carry in all (events included).
    pub const DEFAULT_MAX_STREAM_BYTES: usize = 1 << 20;

    /// Set how many calls the stream may hold; the call beyond it is rejected when it starts.
    #[must_use]
    pub fn max_calls(mut self, calls: usize) -> Self {
        self.max_calls = calls;
        self
    }

    /// Set how many bytes the stream may carry in all; the push that crosses it is rejected, and
    /// every open call with it.
    #[must_use]
    pub fn max_stream_bytes(mut self, bytes: usize) -> Self {
        self.max_stream_bytes = bytes;
        self
    }

    /// Whether the provider said the response is over (or the stream was given up).
    #[must_use]
    pub const fn is_ended(&self) -> bool {
        self.ended
    }

    /// Push raw bytes of the server-sent-event stream, split anywhere.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Vec<StreamEvent<C>> {
        let mut out = Vec::new();
        if self.overflowed {
            return out;
        }
        self.bytes = self.bytes.saturating_add(bytes.len());
        if self.bytes > self.max_stream_bytes {
            self.overflow(&mut out);
            return out;
        }
        let mut rest = bytes;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(nl);
            self.line.extend_from_slice(head);
            rest = tail.get(1..).unwrap_or_default();
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            self.sse_line(&line, &mut out);
        }
        self.line.extend_from_slice(rest);
        out
    }

    fn sse_line(&mut self, line: &[u8], out: &mut Vec<StreamEvent<C>>) {
        if line.is_empty() {
            if self.has_data {
                let data = std::mem::take(&mut self.data);
                self.has_data = false;
                self.event_text(&data, out);
            }
            return;
        }
        if line.first() == Some(&b':') {
            return; // a comment
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => (line.get(..i).unwrap_or_default(), line.get(i + 1..).unwrap_or_default()),
            None => (line, &b""[..]),
        };
        let value = value.strip_prefix(b" ").unwrap_or(value);
        if field == b"data" {
            let Ok(text) = std::str::from_utf8(value) else {
                out.push(StreamEvent::Rejected(self.stream_rejection(Stage::NotJson, "an event that is not UTF-8")));
                return;
            };
            if self.has_data {
                self.data.push('\n');
            }
            self.data.push_str(text);
            self.has_data = true;
        }
        // `event:`, `id:`, `retry:` and unknown fields carry nothing the gate needs: every format
        // repeats the event type inside the data.
    }

    /// Push one event's data (the JSON text after `data:`, or OpenAI's `[DONE]`).
    pub fn push_event(&mut self, data: &str) -> Vec<StreamEvent<C>> {
        let mut out = Vec::new();
        if !self.overflowed {
            self.bytes = self.bytes.saturating_add(data.len());
            if self.bytes > self.max_stream_bytes {
                self.overflow(&mut out);
            } else {
                self.event_text(data, &mut out);
            }
        }
        out
    }

    /// Push one event already parsed as JSON.
    pub fn push_value(&mut self, event: &Value) -> Vec<StreamEvent<C>> {
        let mut out = Vec::new();
        self.event(event, &mut out);
        out
    }

    /// The connection ended: every call still open is rejected as truncated (it is never
    /// accepted); so is a stream that ends in the middle of an event.
    pub fn finish(&mut self) -> Vec<StreamEvent<C>> {
        let mut out = Vec::new();
        if !self.line.is_empty() || self.has_data {
            let line = std::mem::take(&mut self.line);
            if !line.is_empty() {
                self.sse_line(&line, &mut out);
            }
            if self.has_data {
                self.sse_line(b"", &mut out);
            }
        }
        self.truncate_open("the stream ended before the call was complete", &mut out);
        self.ended = true;
        out
    }

    fn overflow(&mut self, out: &mut Vec<StreamEvent<C>>) {
        self.overflowed = true;
        let detail = format!("the stream carries more than {} bytes", self.max_stream_bytes);
        out.push(StreamEvent::Rejected(self.stream_rejection(Stage::TooLong, detail)));
        self.truncate_open("the stream was given up at its byte limit", out);
        self.ended = true;
    }

    fn event_text(&mut self, data: &str, out: &mut Vec<StreamEvent<C>>) {
        if data.trim() == "[DONE]" {
            if self.format != StreamFormat::OpenAiChat {
                out.push(StreamEvent::Rejected(
                    self.stream_rejection(Stage::Envelope, "`[DONE]` in a stream of this format"),
                ));
                return;
            }
            self.truncate_open("the stream ended ([DONE]) before the call was complete", out);
            if !self.ended {
                self.ended = true;
                out.push(StreamEvent::End);
            }
            return;
        }
        match crate::parse_with(data, &crate::Limits::DEFAULT) {
            Ok(v) => self.event(&v, out),
            Err(e) => out.push(StreamEvent::Rejected(
                self.stream_rejection(Stage::NotJson, format!("an event that is not JSON: {e}")),
            )),
        }
    }

    fn event(&mut self, v: &Value, out: &mut Vec<StreamEvent<C>>) {
        if self.overflowed {
            return;
        }
        if self.ended {
            out.push(StreamEvent::Rejected(
                self.stream_rejection(Stage::Envelope, "an event after the end of the stream"),
            ));
            return;
        }
        match self.format {
            StreamFormat::OpenAiChat => self.chat(v, out),
            StreamFormat::OpenAiResponses => self.responses(v, out),
            StreamFormat::Anthropic => self.anthropic(v, out),
        }
    }

    // -------------------------------------------------------------------------------------------
    // OpenAI Chat Completions.

    fn chat(&mut self, v: &Value, out: &mut Vec<StreamEvent<C>>) {
        let Some(obj) = v.as_object() else {
            out.push(StreamEvent::Rejected(self.stream_rejection(Stage::Envelope, "an event that is not an object")));
            return;
        };
        if let Some(err) = obj.get("error") {
            let detail = format!("the provider sent an error: {}", one(err));
            self.truncate_open(&detail, out);
            self.ended = true;
            out.push(StreamEvent::End);
            return;
        }
        let Some(choices) = obj.get("choices").and_then(Value::as_array) else {
            out.push(StreamEvent::Rejected(self.stream_rejection(Stage::Envelope, "a chunk without `choices`")));
            return;
        };
        for choice in choices {
            let choice_index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
            if let Some(delta) = choice.get("delta").and_then(Value::as_object) {
                if let Some(text) = delta.get("content").and_then(Value::as_str) {
                    if !text.is_empty() {
                        out.push(StreamEvent::Text(text.to_owned()));
                    }
                }
                match delta.get("tool_calls") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(calls)) => {
                        for c in calls {
                            self.chat_call(choice_index, c, out);
                        }
                    }
                    Some(_) => out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "`tool_calls` that is not an array"),
                    )),
                }
            }
            match choice.get("finish_reason").and_then(Value::as_str) {
                None => {}
                Some("tool_calls" | "stop" | "function_call") => {
                    self.complete_where(out, |k| matches!(k, Key::Chat(c, ..) if *c == choice_index))
                }
                Some(reason) => {
                    let detail = format!("the response stopped ({reason}) before the call was complete");
                    self.truncate_where(&detail, out, |k| matches!(k, Key::Chat(c, ..) if *c == choice_index));
                }
            }
        }
    }

    fn chat_call(&mut self, choice: u64, c: &Value, out: &mut Vec<StreamEvent<C>>) {
        let Some(c) = c.as_object() else {
            out.push(StreamEvent::Rejected(
                self.stream_rejection(Stage::Envelope, "a tool-call delta that is not an object"),
            ));
            return;
        };
        let index = c.get("index").and_then(Value::as_u64);
        let id = c.get("id").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned);
        let function = c.get("function").and_then(Value::as_object);
        let name = function.and_then(|f| f.get("name")).and_then(Value::as_str).filter(|s| !s.is_empty());
        let args = function.and_then(|f| f.get("arguments"));
        let open = |k: &Key| matches!(k, Key::Chat(ch, ..) if *ch == choice);
        // Which call this delta belongs to.
        let existing = self.calls.iter().rposition(|call| match &call.key {
            Key::Chat(ch, i, cid) if *ch == choice => match (index, &id) {
                (Some(x), Some(y)) => *i == Some(x) && cid.as_deref().is_none_or(|c| c == y),
                (Some(x), None) => *i == Some(x),
                (None, Some(y)) => cid.as_deref() == Some(y.as_str()),
                (None, None) => false,
            },
            _ => false,
        });
        let target = match (existing, index, &id) {
            (Some(i), ..) => Some(i),
            (None, None, None) => {
                let open_calls: Vec<usize> = self
                    .calls
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.state == CallState::Open && open(&c.key))
                    .map(|(i, _)| i)
                    .collect();
                match open_calls.as_slice() {
                    [only] => Some(*only),
                    [] => {
                        out.push(StreamEvent::Rejected(self.stream_rejection(
                            Stage::Envelope,
                            "a tool-call delta without `index` or `id`, and no call is open",
                        )));
                        return;
                    }
                    _ => {
                        out.push(StreamEvent::Rejected(self.stream_rejection(
                            Stage::Envelope,
                            "a tool-call delta without `index` or `id` while several calls are open: ambiguous",
                        )));
                        return;
                    }
                }
            }
            (None, _, _) => None,
        };
        let i = match target {
            Some(i) => i,
            None => {
                // A reused index with a new id: the call that had it is over.
                if let (Some(x), Some(_)) = (index, &id) {
                    let reused = self.calls.iter().position(|call| {
                        call.state == CallState::Open
                            && matches!(&call.key, Key::Chat(ch, Some(j), _) if *ch == choice && *j == x)
                    });
                    if let Some(r) = reused {
                        self.complete(r, out);
                    }
                }
                match self.start(Key::Chat(choice, index, id.clone()), id.clone(), out) {
                    Some(i) => i,
                    None => return,
                }
            }
        };
        if let Some(name) = name {
            self.name(i, name, out);
        }
        match args {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => self.arguments(i, s, out),
            Some(_) => {
                let r = self.call_rejection(i, Stage::Envelope, "`arguments` that is not a string");
                self.close_with(i, r, out);
            }
        }
    }

    // -------------------------------------------------------------------------------------------
    // OpenAI Responses.

    fn responses(&mut self, v: &Value, out: &mut Vec<StreamEvent<C>>) {
        let ty = v.get("type").and_then(Value::as_str).unwrap_or_default();
        let item_id = |v: &Value| v.get("item_id").and_then(Value::as_str).map(str::to_owned);
        match ty {
            "response.output_item.added" => {
                let Some(item) = v.get("item").and_then(Value::as_object) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "`output_item.added` without an item"),
                    ));
                    return;
                };
                if item.get("type").and_then(Value::as_str) != Some("function_call") {
                    return;
                }
                let Some(key) = item.get("id").and_then(Value::as_str) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "a function call item without an id"),
                    ));
                    return;
                };
                if self.find(&Key::Item(key.to_owned())).is_some() {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, format!("the item {key} was added twice")),
                    ));
                    return;
                }
                let call_id = item.get("call_id").and_then(Value::as_str).map(str::to_owned);
                let Some(i) = self.start(Key::Item(key.to_owned()), call_id, out) else { return };
                match item.get("name").and_then(Value::as_str) {
                    Some(name) => self.name(i, name, out),
                    None => {
                        let r = self.call_rejection(i, Stage::Envelope, "a function call without a name");
                        self.close_with(i, r, out);
                    }
                }
                if let Some(a) = item.get("arguments").and_then(Value::as_str) {
                    self.arguments(i, a, out);
                }
            }
            "response.function_call_arguments.delta" => {
                let Some(i) = item_id(v).and_then(|k| self.find(&Key::Item(k))) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "arguments for an item that never started"),
                    ));
                    return;
                };
                match v.get("delta").and_then(Value::as_str) {
                    Some(d) => self.arguments(i, d, out),
                    None => {
                        let r = self.call_rejection(i, Stage::Envelope, "an arguments delta without `delta`");
                        self.close_with(i, r, out);
                    }
                }
            }
            "response.function_call_arguments.done" => {
                let Some(i) = item_id(v).and_then(|k| self.find(&Key::Item(k))) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "arguments for an item that never started"),
                    ));
                    return;
                };
                self.check_done_arguments(i, v.get("arguments"), out);
            }
            "response.output_item.done" => {
                let Some(item) = v.get("item").and_then(Value::as_object) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "`output_item.done` without an item"),
                    ));
                    return;
                };
                if item.get("type").and_then(Value::as_str) != Some("function_call") {
                    return;
                }
                let key = item.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
                let Some(i) = self.find(&Key::Item(key)) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "an item done that never started"),
                    ));
                    return;
                };
                self.check_done_arguments(i, item.get("arguments"), out);
                self.complete(i, out);
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                if let Some(d) = v.get("delta").and_then(Value::as_str) {
                    out.push(StreamEvent::Text(d.to_owned()));
                }
            }
            "response.completed" => {
                self.complete_where(out, |_| true);
                self.ended = true;
                out.push(StreamEvent::End);
            }
            "response.incomplete" | "response.failed" | "error" => {
                let reason = v
                    .pointer("/response/incomplete_details/reason")
                    .or_else(|| v.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or(ty);
                let detail = format!("the response stopped ({reason}) before the call was complete");
                self.truncate_open(&detail, out);
                self.ended = true;
                out.push(StreamEvent::End);
            }
            t if RESPONSES_OTHER.iter().any(|p| t.starts_with(p)) => {}
            t => out.push(StreamEvent::Rejected(self.stream_rejection(
                Stage::Envelope,
                format!("an unknown event type {}", one(&Value::String(t.to_owned()))),
            ))),
        }
    }

    fn check_done_arguments(&mut self, i: usize, args: Option<&Value>, out: &mut Vec<StreamEvent<C>>) {
        let Some(call) = self.calls.get(i) else { return };
        if call.state != CallState::Open {
            return;
        }
        let Some(done) = args.and_then(Value::as_str) else { return };
        let so_far = call.args.as_ref().map_or(&b""[..], |a| a.text());
        if done.as_bytes() != so_far {
            let r = self.call_rejection(i, Stage::Envelope, "the final arguments differ from the streamed deltas");
            self.close_with(i, r, out);
        }
    }

    // -------------------------------------------------------------------------------------------
    // Anthropic Messages.

    fn anthropic(&mut self, v: &Value, out: &mut Vec<StreamEvent<C>>) {
        let ty = v.get("type").and_then(Value::as_str).unwrap_or_default();
        let index = v.get("index").and_then(Value::as_u64);
        match ty {
            "content_block_start" => {
                let Some(block) = v.get("content_block").and_then(Value::as_object) else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "a block start without a block"),
                    ));
                    return;
                };
                let Some(index) = index else {
                    out.push(StreamEvent::Rejected(
                        self.stream_rejection(Stage::Envelope, "a block start without an index"),
                    ));
                    return;
                };
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        if self.find(&Key::Block(index)).is_some() {
                            out.push(StreamEvent::Rejected(
                                self.stream_rejection(Stage::Envelope, format!("content block {index} started twice")),
                            ));
                            return;
                        }
                        let id = block.get("id").and_then(Value::as_str).map(str::to_owned);
                        let Some(i) = self.start(Key::Block(index), id, out) else { return };
                        match block.get("name").and_then(Value::as_str) {
                            Some(name) => self.name(i, name, out),
                            None => {
                                let r = self.call_rejection(i, Stage::Envelope, "a tool_use block without a name");
                                self.close_with(i, r, out);
                            }
                        }
                        // `input` is `{}` here; the arguments come as `input_json_delta`s.
                        match block.get("input") {
                            None => {}
                            Some(Value::Object(m)) if m.is_empty() => {}
                            Some(_) => {
                                let r =
                                    self.call_rejection(i, Stage::Envelope, "a tool_use block that starts with input");
                                self.close_with(i, r, out);
                            }
                        }
                    }
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                            out.push(StreamEvent::Text(t.to_owned()));
                        }
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let delta = v.get("delta");
                match delta.and_then(|d| d.get("type")).and_then(Value::as_str) {
                    Some("input_json_delta") => {
                        let Some(i) = index.and_then(|x| self.find(&Key::Block(x))) else {
                            out.push(StreamEvent::Rejected(
                                self.stream_rejection(Stage::Envelope, "input for a block that never started"),
                            ));
                            return;
                        };
                        match delta.and_then(|d| d.get("partial_json")).and_then(Value::as_str) {
                            Some(p) => self.arguments(i, p, out),
                            None => {
                                let r =
                                    self.call_rejection(i, Stage::Envelope, "an input delta without `partial_json`");
                                self.close_with(i, r, out);
                            }
                        }
                    }
                    Some("text_delta") => {
                        if let Some(t) = delta.and_then(|d| d.get("text")).and_then(Value::as_str) {
                            out.push(StreamEvent::Text(t.to_owned()));
                        }
                    }
                    Some("thinking_delta" | "signature_delta" | "citations_delta") => {}
                    _ => {
                        out.push(StreamEvent::Rejected(self.stream_rejection(Stage::Envelope, "an unknown delta type")))
                    }
                }
            }
            "content_block_stop" => {
                if let Some(i) = index.and_then(|x| self.find(&Key::Block(x))) {
                    self.complete(i, out);
                }
            }
            "message_delta" => match v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                None | Some("tool_use" | "end_turn" | "stop_sequence" | "pause_turn") => {}
                Some(reason) => {
                    let detail = format!("the response stopped ({reason}) before the call was complete");
                    self.truncate_open(&detail, out);
                }
            },
            "message_stop" => {
                self.truncate_open("the message ended before the call was complete", out);
                self.ended = true;
                out.push(StreamEvent::End);
            }
            "error" => {
                let detail = format!("the provider sent an error: {}", one(v.get("error").unwrap_or(&Value::Null)));
                self.truncate_open(&detail, out);
                self.ended = true;
                out.push(StreamEvent::End);
            }
            "message_start" | "ping" => {}
            t => out.push(StreamEvent::Rejected(self.stream_rejection(
                Stage::Envelope,
                format!("an unknown event type {}", one(&Value::String(t.to_owned()))),
            ))),
        }
    }

    // -------------------------------------------------------------------------------------------
    // Calls.

    fn find(&self, key: &Key) -> Option<usize> {
        self.calls.iter().position(|c| &c.key == key)
    }

    /// A new call; `None` (and a rejection) beyond the call limit.
    fn start(&mut self, key: Key, id: Option<String>, out: &mut Vec<StreamEvent<C>>) -> Option<usize> {
        let order = self.calls.len();
        let over = order >= self.max_calls;
        self.calls.push(Call {
            key,
            order,
            id,
            name: None,
            args: None,
            state: CallState::Open,
            depth: Depth::default(),
        });
        if over {
            let r = self.call_rejection(
                order,
                Stage::TooLong,
                format!("more than {} tool calls in one response", self.max_calls),
            );
            self.close_with(order, r, out);
            return None;
        }
        Some(order)
    }

    /// The tool name arrived: the allowlist decides now.
    fn name(&mut self, i: usize, name: &str, out: &mut Vec<StreamEvent<C>>) {
        let Some(call) = self.calls.get_mut(i) else { return };
        if call.state != CallState::Open {
            return;
        }
        if call.name.is_some() {
            let r = self.call_rejection(i, Stage::Envelope, "a second tool name for the same call");
            self.close_with(i, r, out);
            return;
        }
        call.name = Some(name.to_owned());
        match C::__stream(name) {
            Some(s) if C::allows(name) => call.args = Some(s),
            _ => {
                let mut r = self.call_rejection(i, Stage::NotAllowed, String::new());
                r.0.allowed = C::names();
                self.close_with(i, r, out);
            }
        }
    }

    /// An arguments fragment.
    fn arguments(&mut self, i: usize, fragment: &str, out: &mut Vec<StreamEvent<C>>) {
        let (max_bytes, max_depth) = (self.gate.max_bytes, self.gate.max_depth);
        let Some(call) = self.calls.get_mut(i) else { return };
        if call.state == CallState::Rejected {
            return;
        }
        if call.state != CallState::Open {
            if !fragment.is_empty() {
                out.push(StreamEvent::Rejected(
                    self.stream_rejection(Stage::Envelope, "arguments for a call that has already ended"),
                ));
            }
            return;
        }
        let Some(args) = call.args.as_mut() else {
            if !fragment.is_empty() {
                let r = self.call_rejection(i, Stage::Envelope, "arguments before the tool name");
                self.close_with(i, r, out);
            }
            return;
        };
        let len = args.text().len();
        if len + fragment.len() > max_bytes {
            let r = self.call_rejection(
                i,
                Stage::TooLong,
                format!("the arguments are longer than {max_bytes} bytes (at byte {max_bytes})"),
            );
            let mut r = r;
            r.0.offset = Some(max_bytes);
            self.close_with(i, r, out);
            return;
        }
        // The depth limit, at the byte that crosses it (before the validator sees it).
        let deep = call.depth.feed(fragment.as_bytes(), len, max_depth);
        let progress = match deep {
            Some(at) => {
                let head = fragment.as_bytes().get(..at - len).unwrap_or_default();
                match args.feed(head) {
                    Progress::Alive => {
                        let mut r = self.call_rejection(
                            i,
                            Stage::TooDeep,
                            format!("arrays and objects nest more than {max_depth} levels deep (at byte {at})"),
                        );
                        r.0.offset = Some(at);
                        self.close_with(i, r, out);
                        return;
                    }
                    dead => dead,
                }
            }
            None => args.feed(fragment.as_bytes()),
        };
        if let Progress::Dead(d) = progress {
            let r = self.dead_rejection(i, d);
            self.close_with(i, r, out);
        }
    }

    /// The provider said call `i` is complete: judge it.
    fn complete(&mut self, i: usize, out: &mut Vec<StreamEvent<C>>) {
        let Some(call) = self.calls.get_mut(i) else { return };
        if call.state != CallState::Open {
            return;
        }
        call.state = CallState::Closed;
        let (Some(name), Some(args)) = (call.name.clone(), call.args.as_mut()) else {
            let r = self.call_rejection(i, Stage::Envelope, "a call that ended without a tool name");
            out.push(StreamEvent::Rejected(r));
            return;
        };
        // Anthropic streams no input at all for a tool without arguments: that is `{}`.
        if args.text().is_empty() && self.format == StreamFormat::Anthropic {
            let _ = args.feed(b"{}");
        }
        if let Err(e) = args.finish() {
            let r = match e {
                Error::Invalid(v) => {
                    let mut r = self.call_rejection(i, Stage::Arguments, String::new());
                    r.0.violations = v;
                    r
                }
                other => self.error_rejection(i, &other),
            };
            out.push(StreamEvent::Rejected(r));
            return;
        }
        let text = String::from_utf8_lossy(args.text()).into_owned();
        let (order, id) = (call.order, call.id.clone());
        let raw = RawCall::Call { index: order, id, name, args: Args::Text(text) };
        out.push(match self.gate.judge(self.gate.envelope, raw) {
            Ok(a) => StreamEvent::Accepted(a),
            Err(r) => StreamEvent::Rejected(r),
        });
    }

    fn complete_where(&mut self, out: &mut Vec<StreamEvent<C>>, pick: impl Fn(&Key) -> bool) {
        for i in 0..self.calls.len() {
            if self.calls.get(i).is_some_and(|c| c.state == CallState::Open && pick(&c.key)) {
                self.complete(i, out);
            }
        }
    }

    fn truncate_open(&mut self, detail: &str, out: &mut Vec<StreamEvent<C>>) {
        self.truncate_where(detail, out, |_| true);
    }

    fn truncate_where(&mut self, detail: &str, out: &mut Vec<StreamEvent<C>>, pick: impl Fn(&Key) -> bool) {
        for i in 0..self.calls.len() {
            if self.calls.get(i).is_some_and(|c| c.state == CallState::Open && pick(&c.key)) {
                let r = self.call_rejection(i, Stage::Truncated, detail);
                self.close_with(i, r, out);
            }
        }
    }

    fn close_with(&mut self, i: usize, r: Rejection, out: &mut Vec<StreamEvent<C>>) {
        if let Some(c) = self.calls.get_mut(i) {
            c.state = CallState::Rejected;
        }
        out.push(StreamEvent::Rejected(r));
    }

    fn stream_rejection(&self, stage: Stage, detail: impl Into<String>) -> Rejection {
        Rejection::new(stage, self.format.envelope(), detail)
    }

    fn call_rejection(&self, i: usize, stage: Stage, detail: impl Into<String>) -> Rejection {
        let mut r = self.stream_rejection(stage, detail);
        if let Some(c) = self.calls.get(i) {
            r.0.call_index = Some(c.order);
            r.0.call_id.clone_from(&c.id);
            r.0.tool.clone_from(&c.name);
        }
        r
    }

    fn dead_rejection(&self, i: usize, d: crate::Dead) -> Rejection {
        let offset = d.offset;
        let mut r = match d.error {
            Error::Invalid(v) => {
                let mut r = self.call_rejection(i, Stage::Arguments, String::new());
                r.0.violations = v;
                r
            }
            other => self.error_rejection(i, &other),
        };
        r.0.offset = Some(offset);
        r
    }

    fn error_rejection(&self, i: usize, e: &Error) -> Rejection {
        match e {
            Error::Limit(crate::LimitExceeded::Bytes { .. }) => self.call_rejection(i, Stage::TooLong, e.to_string()),
            Error::Limit(_) => self.call_rejection(i, Stage::TooDeep, e.to_string()),
            Error::Syntax { message, .. } => self.call_rejection(i, Stage::NotJson, message.clone()),
            other => self.call_rejection(i, Stage::NotJson, other.to_string()),
        }
    }
}

/// Event types of the Responses API that carry nothing for tool calls.
const RESPONSES_OTHER: &[&str] = &[
    "response.created",
    "response.in_progress",
    "response.queued",
    "response.content_part.",
    "response.output_text.",
    "response.refusal.",
    "response.reasoning",
    "response.web_search_call.",
    "response.file_search_call.",
    "response.image_generation_call.",
    "response.code_interpreter_call",
    "response.mcp_",
];

/// A JSON value on one short line, for a reason.
fn one(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > 200 {
        let mut cut = 200;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}
