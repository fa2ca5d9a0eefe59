//! Rejections: which stage refused a reply, where, why, and what to tell the model.

use std::fmt::{self, Write as _};

use crate::violation::{Found, Violations};

use super::envelope::Envelope;

/// The stage of a gate that refused a reply, in the order the stages run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// The reply is longer than the gate's byte limit.
    TooLong,
    /// The reply (or an OpenAI `arguments` string) nests arrays and objects deeper than the gate's
    /// depth limit.
    TooDeep,
    /// The reply (or an OpenAI `arguments` string) is not exactly one JSON value.
    NotJson,
    /// The JSON does not have the shape of the gate's envelope (or a stream's event is malformed).
    Envelope,
    /// The stream ended (or stopped: `length`, `max_tokens`, an error) before the call was
    /// complete; the call is never accepted.
    Truncated,
    /// The tool name is not one of the toolbox's tools (compared exactly).
    NotAllowed,
    /// The arguments violate the tool's schema.
    Arguments,
    /// A business rule refused the typed call.
    Rule,
}

impl Stage {
    /// The stage's name as used in reasons: `too long`, `too deep`, `not JSON`, `envelope`,
    /// `truncated`, `tool not allowed`, `arguments`, `rule`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::TooLong => "too long",
            Self::TooDeep => "too deep",
            Self::NotJson => "not JSON",
            Self::Envelope => "envelope",
            Self::Truncated => "truncated",
            Self::NotAllowed => "tool not allowed",
            Self::Arguments => "arguments",
            Self::Rule => "rule",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a gate refused a reply, or one tool call in it.
///
/// [`Rejection::reason`] (also its `Display`) is one line for logs, such as
/// `tool not allowed: delete_all_notes` or `arguments: /value: expected number, found string "five"`.
/// [`Rejection::feedback`] is the text to send back to the model: every problem with its location,
/// what was expected and what was found, and the instruction to reply with one corrected call only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection(pub(crate) Box<Parts>);

/// The data of a [`Rejection`] (boxed: a rejection travels in `Result`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parts {
    pub(crate) stage: Stage,
    pub(crate) envelope: Envelope,
    pub(crate) call_index: Option<usize>,
    pub(crate) call_id: Option<String>,
    pub(crate) tool: Option<String>,
    pub(crate) violations: Violations,
    pub(crate) detail: String,
    pub(crate) allowed: Vec<&'static str>,
    pub(crate) offset: Option<usize>,
}

impl Rejection {
    pub(crate) fn new(stage: Stage, envelope: Envelope, detail: impl Into<String>) -> Self {
        Self(Box::new(Parts {
            stage,
            envelope,
            call_index: None,
            call_id: None,
            tool: None,
            violations: Violations::default(),
            detail: detail.into(),
            allowed: Vec::new(),
            offset: None,
        }))
    }

    /// The stage that refused the reply.
    #[must_use]
    pub const fn stage(&self) -> Stage {
        self.0.stage
    }

    /// The envelope the gate expected.
    #[must_use]
    pub const fn envelope(&self) -> Envelope {
        self.0.envelope
    }

    /// The index of the refused call among the reply's tool calls (0-based), when the reply got
    /// that far; `None` for a reply refused as a whole (too long, not JSON, a broken message).
    #[must_use]
    pub const fn call_index(&self) -> Option<usize> {
        self.0.call_index
    }

    /// The provider's id of the refused call (OpenAI `tool_calls[].id`, Anthropic `tool_use.id`),
    /// needed to answer that call with a tool message.
    #[must_use]
    pub fn call_id(&self) -> Option<&str> {
        self.0.call_id.as_deref()
    }

    /// The tool name the call asked for, when the envelope gave one (as written by the model,
    /// which for [`Stage::NotAllowed`] is not a tool of the toolbox).
    #[must_use]
    pub fn tool(&self) -> Option<&str> {
        self.0.tool.as_deref()
    }

    /// For a streamed call rejected before it was complete: the byte offset in its arguments'
    /// text at which it became certain that no continuation could be valid (or that a limit was
    /// crossed). `None` for whole replies.
    #[must_use]
    pub const fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// The schema violations ([`Stage::Arguments`]); empty for the other stages.
    #[must_use]
    pub const fn violations(&self) -> &Violations {
        &self.0.violations
    }

    /// What went wrong, without the stage prefix: the parser's message, the envelope problem,
    /// the rule's message, the byte counts, or the violations on one line.
    #[must_use]
    pub fn detail(&self) -> String {
        match self.0.stage {
            Stage::NotAllowed => display_name(self.0.tool.as_deref().unwrap_or_default()),
            Stage::Arguments => {
                let mut s = String::new();
                for (i, v) in self.0.violations.iter().take(LISTED).enumerate() {
                    if i > 0 {
                        s.push_str("; ");
                    }
                    let _ = write!(s, "{v}");
                }
                if let Some(more) = self.0.violations.len().checked_sub(LISTED).filter(|n| *n > 0) {
                    let _ = write!(s, "; and {more} more");
                }
                s
            }
            _ => self.0.detail.clone(),
        }
    }

    /// One line: the stage, then what went wrong, e.g. `tool not allowed: delete_all_notes`.
    /// Control characters from the reply are escaped, so the reason is always a single line.
    #[must_use]
    pub fn reason(&self) -> String {
        one_line(&format!("{}: {}", self.0.stage.name(), self.detail()))
    }

    /// The problem, addressed to the model, without the closing instruction.
    #[must_use]
    pub fn problem(&self) -> String {
        let call = match (self.0.envelope, self.0.call_index) {
            (Envelope::Plain, _) | (_, None) => String::new(),
            (_, Some(i)) => format!("tool call {i}: "),
        };
        // Past the allowlist the name is one of the toolbox's own; before it, it is the model's text.
        let tool = self.0.tool.as_deref().unwrap_or_default();
        match self.0.stage {
            Stage::TooLong => format!("Your reply was rejected: it is too long ({}).", self.0.detail),
            // A call's own arguments text (an OpenAI `arguments` string, or a framework's call).
            Stage::TooDeep
                if self.0.call_index.is_some() && (self.0.envelope != Envelope::Plain || self.0.tool.is_some()) =>
            {
                format!(
                    "Your reply was rejected: {call}the arguments of {tool} are nested too deeply: {}.",
                    self.0.detail
                )
            }
            Stage::TooDeep => format!("Your reply was rejected: it is nested too deeply: {}.", self.0.detail),
            Stage::NotJson
                if self.0.call_index.is_some() && (self.0.envelope != Envelope::Plain || self.0.tool.is_some()) =>
            {
                format!("Your reply was rejected: {call}the arguments of {tool} are not valid JSON: {}.", self.0.detail)
            }
            Stage::NotJson => format!("Your reply was rejected: it is not valid JSON: {}.", self.0.detail),
            Stage::Envelope => {
                format!("Your reply was rejected: {call}it does not have the expected shape: {}.", self.0.detail)
            }
            Stage::Truncated => {
                let what = if tool.is_empty() { String::new() } else { format!(" to {tool}") };
                format!("Your reply was cut off: {call}the call{what} was not complete ({}).", self.0.detail)
            }
            Stage::NotAllowed => {
                let mut s = format!("Your reply was rejected: {call}there is no tool named {}.", quoted(tool));
                if !self.0.allowed.is_empty() {
                    s.push_str(" The available tools are: ");
                    s.push_str(&self.0.allowed.join(", "));
                    s.push('.');
                }
                s
            }
            Stage::Arguments => {
                let mut s = format!("Your reply was rejected: {call}the arguments of {tool} do not match its schema:");
                for v in self.0.violations.iter().take(LISTED) {
                    let at = if v.pointer.is_empty() { "(the arguments object)" } else { v.pointer.as_str() };
                    let _ = write!(s, "\n- at {at}: {}", v.kind);
                }
                if let Some(more) = self.0.violations.len().checked_sub(LISTED).filter(|n| *n > 0) {
                    let _ = write!(s, "\n- and {more} more violation{}", if more == 1 { "" } else { "s" });
                }
                s
            }
            Stage::Rule => format!("Your reply was rejected: {call}the call to {tool} was refused: {}.", self.0.detail),
        }
    }

    /// The message to send back to the model: [`Rejection::problem`] and the instruction to reply
    /// with one corrected call only.
    #[must_use]
    pub fn feedback(&self) -> String {
        format!("{}\n{}", self.problem(), instruction(self.0.envelope))
    }

    /// The text a framework sends back to the model as the tool's error result (an MCP result with
    /// `isError: true`, a rig tool error), for a call judged by
    /// [`Gate::check_call`](super::Gate::check_call): [`Rejection::problem`] and the instruction to
    /// call the tool again with corrected arguments.
    ///
    /// ```
    /// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
    /// #     "required": ["text"], "additionalProperties": false}; }
    /// # toolgate::toolbox! { #[derive(Debug)] pub enum Call { Echo } }
    /// let err = toolgate::Gate::<Call>::plain().check_call("echo", &serde_json::json!({})).unwrap_err();
    /// assert_eq!(
    ///     err.tool_error(),
    ///     "Your reply was rejected: the arguments of echo do not match its schema:\n\
    ///      - at /text: required property is missing\n\
    ///      Call the tool again with corrected arguments."
    /// );
    /// ```
    #[must_use]
    pub fn tool_error(&self) -> String {
        let again = match self.0.stage {
            Stage::NotAllowed => "Call one of the available tools instead.",
            _ => "Call the tool again with corrected arguments.",
        };
        format!("{}\n{again}", self.problem())
    }
}

impl fmt::Display for Rejection {
    /// The one-line [`Rejection::reason`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason())
    }
}

impl std::error::Error for Rejection {}

/// The feedback for several rejections of one reply (every problem, then one instruction);
/// the same as [`Rejection::feedback`] for a single rejection. Empty for none.
#[must_use]
pub fn feedback(rejections: &[Rejection]) -> String {
    let Some(first) = rejections.first() else { return String::new() };
    let mut s = String::new();
    for r in rejections {
        s.push_str(&r.problem());
        s.push('\n');
    }
    s.push_str(instruction(first.0.envelope));
    s
}

fn instruction(envelope: Envelope) -> &'static str {
    match envelope {
        Envelope::Plain => {
            "Reply with one corrected call only: a single JSON object {\"tool\": \"<tool name>\", \"arguments\": {...}} \
             with no other members and no other text."
        }
        Envelope::OpenAi | Envelope::Anthropic => "Reply with one corrected tool call only, and no other text.",
    }
}

/// A tool name as written by the model: bare when it looks like a name, else quoted and shortened.
fn display_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'));
    if plain {
        name.to_owned()
    } else {
        quoted(name)
    }
}

/// A string as JSON text, shortened to a readable length, with [`invisible`] characters escaped.
pub(crate) fn quoted(s: &str) -> String {
    let text = Found::new(crate::JsonType::String, Some(serde_json::Value::String(s.to_owned()).to_string()))
        .text
        .unwrap_or_default();
    if !text.chars().any(invisible) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if invisible(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{u:04x}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How many violations a reason or a feedback message lists: a reply crafted to violate the schema
/// a hundred thousand times gets a message of bounded length (every violation is still in
/// [`Rejection::violations`]).
const LISTED: usize = 20;

/// Characters that print as nothing (or as a plain space) but make a different name: zero-width
/// and bidirectional formatting characters, non-breaking and other unusual spaces, tag and
/// variation selector characters. They are shown as `\uXXXX` escapes wherever a reply's text is
/// quoted back.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    ) || (c.is_whitespace() && c != ' ')
}

/// Escape control characters so that the text stays on one line.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_lines() {
        assert_eq!(display_name("delete_all_notes"), "delete_all_notes");
        assert_eq!(display_name("rm -rf"), "\"rm -rf\"");
        assert_eq!(display_name(""), "\"\"");
        assert_eq!(one_line("a\nb\u{7}"), "a\\nb\\u{7}");
        assert_eq!(display_name("convert_units\u{200b}"), "\"convert_units\\u200b\"");
        assert_eq!(display_name("\u{202e}stinu_trevnoc"), "\"\\u202estinu_trevnoc\"");
        assert_eq!(display_name("convert\u{a0}units"), "\"convert\\u00a0units\"");
        assert_eq!(display_name("tag\u{e0041}"), "\"tag\\udb40\\udc41\"");
        assert_eq!(display_name("café"), "\"café\"");
    }
}
