//! Gates: from a model's reply to a typed call, or to a rejection the model can act on.
//!
//! A [`Gate`] runs these stages in order and stops at the first that fails:
//!
//! 1. **size**: the reply is at most [`Gate::max_bytes`] bytes (default 2,000);
//! 2. **parse**: the reply is exactly one JSON value ([`crate::parse`]: no `NaN`, no trailing text,
//!    no duplicate keys), with arrays and objects nested at most [`Gate::max_depth`] levels deep
//!    (default 64; deeper is [`Stage::TooDeep`], found without recursing into the nesting);
//! 3. **envelope**: the JSON has the gate's [`Envelope`] shape; OpenAI `arguments` strings are
//!    parsed as strictly as the reply, within the same depth limit counted from the string's own
//!    top level (a failure is reported as not JSON or too deep, for that call);
//! 4. **allowlist**: the tool name is exactly one of the [`Toolbox`]'s names;
//! 5. **arguments**: the tool's generated validator accepts the arguments;
//! 6. **rules**: the business rules registered with [`Gate::rule`] accept the typed call.
//!
//! Each call of a reply is judged on its own, with its index. A reply without tool calls
//! (OpenAI, Anthropic) is prose and is returned as [`Outcome::Prose`], not as an error.
//!
//! ```
//! use toolgate::gate::{Gate, Stage};
//!
//! toolgate::tool_schema! {
//!     /// Convert a value between two units of the same kind.
//!     pub struct ConvertUnits = {
//!         "type": "object",
//!         "properties": {
//!             "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
//!             "from_unit": {"enum": ["m", "km", "g", "kg"]},
//!             "to_unit": {"enum": ["m", "km", "g", "kg"]}
//!         },
//!         "required": ["value", "from_unit", "to_unit"],
//!         "additionalProperties": false
//!     };
//! }
//! toolgate::toolbox! {
//!     /// The allowed tools.
//!     #[derive(Debug)]
//!     pub enum Call { ConvertUnits }
//! }
//!
//! let gate = Gate::<Call>::plain().rule(|c: &ConvertUnits| {
//!     let mass = |u: &str| u.ends_with('g');
//!     if mass(c.from_unit.as_str()) == mass(c.to_unit.as_str()) {
//!         Ok(())
//!     } else {
//!         Err(format!("cannot convert {} to {}", c.from_unit, c.to_unit))
//!     }
//! });
//!
//! let ok = gate.check_one(r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "km", "to_unit": "m"}}"#);
//! assert!(ok.is_ok());
//!
//! let err = gate.check_one(r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "m", "to_unit": "kg"}}"#);
//! let err = err.unwrap_err();
//! assert_eq!(err.stage(), Stage::Rule);
//! assert_eq!(err.reason(), "rule: cannot convert m to kg");
//! ```

mod declare;
mod envelope;
mod framework;
#[cfg(feature = "async-openai")]
mod openai;
mod rejection;
mod repair;
mod result;
mod stream;
mod toolbox;

pub use declare::{openai_strict, NotStrict, Provider};
pub use envelope::Envelope;
#[cfg(feature = "async-openai")]
pub use openai::openai_tools;
pub use rejection::{feedback, Rejection, Stage};
pub use repair::{Attempt, AttemptVerdict, Interrupted, Message, Repair, Role};
pub use result::{check_result, check_result_of, CheckedResult, ResultError};
#[doc(hidden)]
pub use stream::ArgStream;
pub use stream::{StreamEvent, StreamFormat, StreamGate};
#[doc(hidden)]
pub use toolbox::__names_unique;
pub use toolbox::{Handle, Holds, Only, ToolSpec, Toolbox};

#[doc(hidden)]
pub use framework::*;

use std::fmt;

use serde_json::Value;

use crate::Tool;

use envelope::{Args, Extracted, RawCall};

/// A call that passed every stage.
#[derive(Debug, Clone, PartialEq)]
pub struct Accepted<C> {
    /// The typed call.
    pub call: C,
    /// Its index among the reply's tool calls (0 for the plain envelope).
    pub index: usize,
    /// The provider's call id (OpenAI `tool_calls[].id`, Anthropic `tool_use.id`), to answer it.
    pub id: Option<String>,
    /// The arguments exactly as they were validated.
    pub arguments: Value,
}

impl<C: Toolbox> Accepted<C> {
    /// The tool's name.
    #[must_use]
    pub fn tool(&self) -> &'static str {
        self.call.tool_name()
    }
}

/// What a gate made of a reply.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum Outcome<C> {
    /// The reply held tool calls; each was judged on its own, in reply order.
    Calls(Vec<Result<Accepted<C>, Rejection>>),
    /// The reply held no tool call: its text.
    Prose(String),
    /// The reply as a whole was rejected: too long, not JSON, or not the envelope's shape.
    Rejected(Rejection),
}

impl<C> Outcome<C> {
    /// Every rejection: the reply's, or its rejected calls'.
    #[must_use]
    pub fn rejections(&self) -> Vec<&Rejection> {
        match self {
            Self::Calls(calls) => calls.iter().filter_map(|c| c.as_ref().err()).collect(),
            Self::Prose(_) => Vec::new(),
            Self::Rejected(r) => vec![r],
        }
    }

    /// The accepted calls (possibly beside rejected ones).
    #[must_use]
    pub fn accepted(&self) -> Vec<&Accepted<C>> {
        match self {
            Self::Calls(calls) => calls.iter().filter_map(|c| c.as_ref().ok()).collect(),
            Self::Prose(_) | Self::Rejected(_) => Vec::new(),
        }
    }
}

type Rule<C> = Box<dyn Fn(&C) -> Result<(), String> + Send + Sync>;

/// A gate for the tools of toolbox `C` (see [`toolbox!`](crate::toolbox!)): see the
/// [module documentation](self) for its stages.
pub struct Gate<C> {
    envelope: Envelope,
    max_bytes: usize,
    max_depth: usize,
    max_attempts: usize,
    rules: Vec<(&'static str, Rule<C>)>,
}

impl<C> fmt::Debug for Gate<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gate")
            .field("envelope", &self.envelope)
            .field("max_bytes", &self.max_bytes)
            .field("max_depth", &self.max_depth)
            .field("max_attempts", &self.max_attempts)
            .field("rules", &self.rules.iter().map(|(t, _)| *t).collect::<Vec<_>>())
            .finish()
    }
}

impl<C: Toolbox> Gate<C> {
    /// The default size limit of a reply, in bytes.
    pub const DEFAULT_MAX_BYTES: usize = 2_000;
    /// The default depth limit: arrays and objects nested at most this many levels deep, in the
    /// reply and in each OpenAI `arguments` string. Tool arguments rarely nest more than a few
    /// levels; 64 leaves room for recursive schemas and stays far below what overflows the stack of
    /// a 2 MiB thread.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
    /// The default number of replies the repair loop asks for.
    pub const DEFAULT_MAX_ATTEMPTS: usize = 3;

    /// A gate for replies of shape `envelope`, with the default limits and no rules.
    #[must_use]
    pub fn new(envelope: Envelope) -> Self {
        Self {
            envelope,
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_attempts: Self::DEFAULT_MAX_ATTEMPTS,
            rules: Vec::new(),
        }
    }

    /// A gate for plain `{"tool": ..., "arguments": {...}}` replies.
    #[must_use]
    pub fn plain() -> Self {
        Self::new(Envelope::Plain)
    }

    /// A gate for OpenAI chat-completion messages.
    #[must_use]
    pub fn openai() -> Self {
        Self::new(Envelope::OpenAi)
    }

    /// A gate for Anthropic messages (or content arrays).
    #[must_use]
    pub fn anthropic() -> Self {
        Self::new(Envelope::Anthropic)
    }

    /// Set the size limit of a reply, in bytes (UTF-8).
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Set the depth limit: how many levels arrays and objects may nest, in the reply as a whole
    /// and in each OpenAI `arguments` string (counted from the string's top level). `0` admits no
    /// array or object at all; values above [`crate::Limits::MAX_DEPTH`] (127) act as 127. A
    /// deeper reply is refused at [`Stage::TooDeep`] as soon as the parser reaches the limit.
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth.min(crate::Limits::MAX_DEPTH);
        self
    }

    /// Set how many replies [`Gate::repair`] asks for at most (at least 1).
    #[must_use]
    pub fn max_attempts(mut self, attempts: usize) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The envelope this gate accepts.
    #[must_use]
    pub const fn envelope(&self) -> Envelope {
        self.envelope
    }

    /// The size limit, in bytes.
    #[must_use]
    pub const fn byte_limit(&self) -> usize {
        self.max_bytes
    }

    /// The depth limit, in levels of nesting.
    #[must_use]
    pub const fn depth_limit(&self) -> usize {
        self.max_depth
    }

    /// The limits this gate parses replies (and OpenAI `arguments` strings) with.
    #[must_use]
    pub const fn limits(&self) -> crate::Limits {
        crate::Limits { max_bytes: self.max_bytes, max_depth: self.max_depth }
    }

    /// How many replies the repair loop asks for at most.
    #[must_use]
    pub const fn attempt_limit(&self) -> usize {
        self.max_attempts
    }

    /// Add a business rule for tool `T`: it sees the typed arguments of every call of `T` that
    /// passed the other stages, and refuses the call with its message. Rules run in the order they
    /// were added; the first refusal stops the call.
    #[must_use]
    pub fn rule<T, E, F>(mut self, rule: F) -> Self
    where
        T: Tool + 'static,
        C: Holds<T>,
        E: fmt::Display,
        F: Fn(&T) -> Result<(), E> + Send + Sync + 'static,
    {
        let f = move |c: &C| match c.get() {
            Some(args) => rule(args).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        self.rules.push((T::NAME, Box::new(f)));
        self
    }

    /// Run every stage over `reply`.
    pub fn check(&self, reply: &str) -> Outcome<C> {
        self.check_as(self.envelope, reply)
    }

    /// Run every stage over `reply` as a reply of shape `envelope`.
    fn check_as(&self, envelope: Envelope, reply: &str) -> Outcome<C> {
        let value = match crate::parse_with(reply, &self.limits()) {
            Ok(v) => v,
            Err(e) => return Outcome::Rejected(Rejection::new(parse_stage(&e), envelope, syntax_message(&e))),
        };
        match envelope::extract(envelope, value) {
            Err(problem) => Outcome::Rejected(Rejection::new(Stage::Envelope, envelope, problem)),
            Ok(Extracted::Prose(text)) => Outcome::Prose(text),
            Ok(Extracted::Calls(calls)) => Outcome::Calls(calls.into_iter().map(|c| self.judge(envelope, c)).collect()),
        }
    }

    /// Judge one call that a framework has already taken apart (an MCP `tools/call`, a rig tool
    /// call, an OpenAI tool call read by a client library): the answer is exactly the plain gate's
    /// answer to the reply `{"tool": name, "arguments": arguments}` written as compact JSON, with
    /// this gate's limits and rules, whatever this gate's envelope. The size limit counts that
    /// text; a rejection reads as the plain gate's (see [`Rejection::tool_error`] for the text a
    /// framework sends back as the tool's error result).
    ///
    /// ```
    /// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
    /// #     "required": ["text"], "additionalProperties": false}; }
    /// # toolgate::toolbox! { #[derive(Debug, PartialEq)] pub enum Call { Echo } }
    /// use serde_json::json;
    /// use toolgate::gate::Gate;
    ///
    /// let gate = Gate::<Call>::openai();
    /// let err = gate.check_call("echo", &json!({"text": 5})).unwrap_err();
    /// let plain = Gate::<Call>::plain().check_one(r#"{"tool": "echo", "arguments": {"text": 5}}"#).unwrap_err();
    /// assert_eq!(err, plain);
    /// assert_eq!(err.reason(), "arguments: /text: expected string, found number 5");
    /// ```
    ///
    /// # Errors
    /// The plain gate's rejection of that reply.
    pub fn check_call(&self, name: &str, arguments: &Value) -> Result<Accepted<C>, Rejection> {
        let name = Value::String(name.to_owned()).to_string();
        // The reply's length first, without writing it: a huge argument object is refused without
        // a copy of it (`{"tool":` + name + `,"arguments":` + arguments + `}`).
        let mut count = Count(0);
        if serde_json::to_writer(&mut count, arguments).is_ok() {
            let found = count.0.saturating_add(name.len()).saturating_add(22);
            if found > self.max_bytes {
                let e = crate::Error::Limit(crate::LimitExceeded::Bytes { limit: self.max_bytes, found });
                return Err(Rejection::new(Stage::TooLong, Envelope::Plain, syntax_message(&e)));
            }
        }
        let reply = format!("{{\"tool\":{name},\"arguments\":{arguments}}}");
        match self.check_as(Envelope::Plain, &reply) {
            Outcome::Rejected(r) => Err(r),
            Outcome::Calls(mut calls) => match calls.pop() {
                Some(only) => only,
                None => Err(Rejection::new(Stage::Envelope, Envelope::Plain, "expected one tool call, found none")),
            },
            // The plain envelope has no prose.
            Outcome::Prose(_) => Err(Rejection::new(Stage::Envelope, Envelope::Plain, "expected one tool call")),
        }
    }

    /// [`Gate::check_call`] for arguments that are still JSON text (OpenAI's
    /// `function.arguments`, a rig tool call's arguments): the text is parsed as strictly as a
    /// reply, within this gate's limits (the size limit counts the text itself, the depth counts
    /// from its own top level), and a text that is not JSON, too long or too deep is refused
    /// naming the tool, as the OpenAI gate refuses a `function.arguments` string; the parsed value
    /// is then judged by [`Gate::check_call`].
    ///
    /// # Errors
    /// The parse failure, or [`Gate::check_call`]'s rejection.
    pub fn check_call_text(&self, name: &str, arguments: &str) -> Result<Accepted<C>, Rejection> {
        match crate::parse_with(arguments, &self.limits()) {
            Ok(value) => self.check_call(name, &value),
            Err(e) => {
                let mut r = Rejection::new(parse_stage(&e), Envelope::Plain, syntax_message(&e));
                r.0.call_index = Some(0);
                r.0.tool = Some(name.to_owned());
                Err(r)
            }
        }
    }

    /// Run every stage over `reply`, which must hold exactly one tool call: prose or several calls
    /// are an envelope rejection here.
    ///
    /// # Errors
    /// The rejection of the reply or of its call.
    pub fn check_one(&self, reply: &str) -> Result<Accepted<C>, Rejection> {
        match self.check(reply) {
            Outcome::Rejected(r) => Err(r),
            Outcome::Prose(_) => Err(self.reject(Stage::Envelope, "expected one tool call, found text only")),
            Outcome::Calls(mut calls) => match (calls.pop(), calls.is_empty()) {
                (Some(only), true) => only,
                (_, _) => {
                    let n = calls.len() + 1;
                    Err(self.reject(Stage::Envelope, format!("expected one tool call, found {n}")))
                }
            },
        }
    }

    fn reject(&self, stage: Stage, detail: impl Into<String>) -> Rejection {
        Rejection::new(stage, self.envelope, detail)
    }

    fn judge(&self, envelope: Envelope, raw: RawCall) -> Result<Accepted<C>, Rejection> {
        let (index, id, name, args) = match raw {
            RawCall::Broken { index, id, name, problem } => {
                let mut r = Rejection::new(Stage::Envelope, envelope, problem);
                r.0.call_index = Some(index);
                r.0.call_id = id;
                r.0.tool = name;
                return Err(r);
            }
            RawCall::Call { index, id, name, args } => (index, id, name, args),
        };
        let rejection = |stage: Stage, detail: String, name: &str, id: &Option<String>| {
            let mut r = Rejection::new(stage, envelope, detail);
            r.0.call_index = Some(index);
            r.0.call_id.clone_from(id);
            r.0.tool = Some(name.to_owned());
            r
        };
        if !C::allows(&name) {
            let mut r = rejection(Stage::NotAllowed, String::new(), &name, &id);
            r.0.allowed = C::names();
            return Err(r);
        }
        let arguments = match args {
            Args::Value(v) => v,
            // Within the reply's byte limit already; the depth counts from the string's top level.
            Args::Text(text) => match crate::parse_with(&text, &self.limits()) {
                Ok(v) => v,
                Err(e) => return Err(rejection(parse_stage(&e), syntax_message(&e), &name, &id)),
            },
        };
        let call = match C::decode(&name, &arguments) {
            Some(Ok(call)) => call,
            Some(Err(violations)) => {
                let mut r = rejection(Stage::Arguments, String::new(), &name, &id);
                r.0.violations = violations;
                return Err(r);
            }
            None => {
                // `allows` and `decode` disagree only for a hand-written `Toolbox`; refuse.
                let mut r = rejection(Stage::NotAllowed, String::new(), &name, &id);
                r.0.allowed = C::names();
                return Err(r);
            }
        };
        for (tool, rule) in &self.rules {
            if *tool == name {
                if let Err(message) = rule(&call) {
                    return Err(rejection(Stage::Rule, message, &name, &id));
                }
            }
        }
        Ok(Accepted { call, index, id, arguments })
    }
}

/// A writer that only counts the bytes written to it.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The stage of a parse failure: a limit, or the syntax.
fn parse_stage(e: &crate::Error) -> Stage {
    match e {
        crate::Error::Limit(crate::LimitExceeded::Bytes { .. }) => Stage::TooLong,
        crate::Error::Limit(_) => Stage::TooDeep,
        _ => Stage::NotJson,
    }
}

/// The parser's message without the `not JSON: ` (or `too long: `...) prefix that
/// [`crate::Error`]'s `Display` adds: the detail of a rejection.
fn syntax_message(e: &crate::Error) -> String {
    match e {
        crate::Error::Syntax { message, .. } => message.clone(),
        crate::Error::Limit(crate::LimitExceeded::Bytes { limit, found }) => {
            format!("{found} bytes, the limit is {limit} bytes")
        }
        crate::Error::Limit(crate::LimitExceeded::Depth { limit, line, column }) => {
            let s = if *limit == 1 { "" } else { "s" };
            format!("arrays and objects nest more than {limit} level{s} deep (line {line}, column {column})")
        }
        other => other.to_string(),
    }
}
