//! The repair loop: ask, gate, re-ask with feedback, a bounded number of times; never guess.

use std::convert::Infallible;
use std::fmt;

use serde_json::{json, Value};

use super::rejection::{feedback, Rejection};
use super::{Accepted, Gate, Outcome, Toolbox};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Instructions for the model.
    System,
    /// The user, or the program speaking for the user (feedback after a rejection).
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// `system`, `user` or `assistant`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::User => "user",
            Self::Assistant => "assistant",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One message of a conversation, provider-neutral: the model client turns these into its API's
/// shape. An assistant message holds the model's reply text as it came.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// What it says.
    pub content: String,
}

impl Message {
    /// A system message.
    #[must_use]
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: Role::System, content: content.into() }
    }

    /// A user message.
    #[must_use]
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: Role::User, content: content.into() }
    }

    /// An assistant message.
    #[must_use]
    pub fn assistant(content: impl Into<String>) -> Self {
        Self { role: Role::Assistant, content: content.into() }
    }

    /// `{"role": "...", "content": "..."}`, the chat message shape most APIs share.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({"role": self.role.as_str(), "content": self.content})
    }
}

/// What the gate made of one reply in the repair loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptVerdict {
    /// Every call of the reply passed every stage.
    Accepted,
    /// The reply was text, not a tool call.
    Prose,
    /// The reply, or at least one of its calls, was rejected.
    Rejected(Vec<Rejection>),
}

/// One round of the repair loop: the model's reply and the gate's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// 1 for the first reply.
    pub number: usize,
    /// The reply text, as the model client returned it.
    pub reply: String,
    /// What the gate made of it.
    pub verdict: AttemptVerdict,
}

impl Attempt {
    /// The rejections of this attempt (none when accepted or prose).
    #[must_use]
    pub fn rejections(&self) -> &[Rejection] {
        match &self.verdict {
            AttemptVerdict::Rejected(r) => r,
            AttemptVerdict::Accepted | AttemptVerdict::Prose => &[],
        }
    }
}

impl fmt::Display for Attempt {
    /// `attempt 2: arguments: /value: expected number, found string "five"`, `attempt 3: accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "attempt {}: ", self.number)?;
        match &self.verdict {
            AttemptVerdict::Accepted => f.write_str("accepted"),
            AttemptVerdict::Prose => f.write_str("prose"),
            AttemptVerdict::Rejected(rs) => {
                for (i, r) in rs.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    if let (true, Some(idx)) = (rs.len() > 1, r.call_index()) {
                        write!(f, "call {idx}: ")?;
                    }
                    f.write_str(&r.reason())?;
                }
                Ok(())
            }
        }
    }
}

/// How the repair loop ended. Never a guessed or default value: either the model produced calls
/// that passed every stage, or prose, or the loop gave up.
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub enum Repair<C> {
    /// The last reply's calls passed every stage.
    Accepted {
        /// the checked calls, in reply order
        calls: Vec<Accepted<C>>,
        /// every attempt, the last one accepted
        attempts: Vec<Attempt>,
        /// the conversation, ending with the accepted reply
        messages: Vec<Message>,
    },
    /// The model answered in text instead of calling a tool.
    Prose {
        /// the text
        text: String,
        /// every attempt, the last one prose
        attempts: Vec<Attempt>,
        /// the conversation, ending with the prose reply
        messages: Vec<Message>,
    },
    /// Every attempt was rejected: the flagged outcome. Each attempt carries its rejections.
    GaveUp {
        /// every attempt, each rejected
        attempts: Vec<Attempt>,
        /// the conversation, ending with the last feedback
        messages: Vec<Message>,
    },
}

impl<C> Repair<C> {
    /// Every attempt.
    #[must_use]
    pub fn attempts(&self) -> &[Attempt] {
        match self {
            Self::Accepted { attempts, .. } | Self::Prose { attempts, .. } | Self::GaveUp { attempts, .. } => attempts,
        }
    }

    /// The conversation.
    #[must_use]
    pub fn messages(&self) -> &[Message] {
        match self {
            Self::Accepted { messages, .. } | Self::Prose { messages, .. } | Self::GaveUp { messages, .. } => messages,
        }
    }

    /// Every rejection of every attempt, in order.
    #[must_use]
    pub fn rejections(&self) -> Vec<&Rejection> {
        self.attempts().iter().flat_map(Attempt::rejections).collect()
    }

    /// Whether the loop gave up.
    #[must_use]
    pub const fn gave_up(&self) -> bool {
        matches!(self, Self::GaveUp { .. })
    }

    /// The accepted calls, or `None` (prose, or gave up).
    #[must_use]
    pub fn calls(&self) -> Option<&[Accepted<C>]> {
        match self {
            Self::Accepted { calls, .. } => Some(calls),
            Self::Prose { .. } | Self::GaveUp { .. } => None,
        }
    }
}

/// The model client failed; the loop stopped there.
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupted<E> {
    /// The client's error.
    pub error: E,
    /// The attempts before it.
    pub attempts: Vec<Attempt>,
    /// The conversation as it was sent in the failed request.
    pub messages: Vec<Message>,
}

impl<E: fmt::Display> fmt::Display for Interrupted<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model client failed after {} attempt(s): {}", self.attempts.len(), self.error)
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for Interrupted<E> {}

impl<C: Toolbox> Gate<C> {
    /// Ask the model, gate the reply, and on rejection append the reply (as an assistant message)
    /// and the feedback (as a user message) and ask again, up to [`Gate::max_attempts`] replies.
    ///
    /// `ask` is the model client: it gets the conversation so far and returns the reply text.
    ///
    /// ```
    /// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
    /// #     "required": ["text"], "additionalProperties": false}; }
    /// # toolgate::toolbox! { pub enum Call { Echo } }
    /// use toolgate::gate::{Gate, Message, Repair};
    ///
    /// let mut replies = vec![r#"{"tool": "echo", "arguments": {}}"#, r#"{"tool": "echo", "arguments": {"text": "hi"}}"#];
    /// replies.reverse();
    /// let gate = Gate::<Call>::plain();
    /// let repair = gate.repair(vec![Message::user("say hi")], |_| replies.pop().unwrap_or_default().to_owned());
    /// assert_eq!(repair.attempts()[0].to_string(), "attempt 1: arguments: /text: required property is missing");
    /// assert!(matches!(repair, Repair::Accepted { .. }));
    /// ```
    pub fn repair<F>(&self, messages: Vec<Message>, mut ask: F) -> Repair<C>
    where
        F: FnMut(&[Message]) -> String,
    {
        match self.try_repair(messages, |m| Ok::<_, Infallible>(ask(m))) {
            Ok(r) => r,
            Err(i) => match i.error {},
        }
    }

    /// [`Gate::repair`] with a fallible model client: a client error stops the loop.
    ///
    /// # Errors
    /// [`Interrupted`] with the client's error and the attempts so far.
    pub fn try_repair<F, E>(&self, messages: Vec<Message>, mut ask: F) -> Result<Repair<C>, Interrupted<E>>
    where
        F: FnMut(&[Message]) -> Result<String, E>,
    {
        let mut round = Round::new(self, messages);
        while round.more() {
            match ask(&round.messages) {
                Ok(reply) => {
                    if let Some(done) = round.judge(reply) {
                        return Ok(done);
                    }
                }
                Err(error) => return Err(round.interrupted(error)),
            }
        }
        Ok(round.gave_up())
    }

    /// [`Gate::repair`] with an async model client, as every real one is: `ask` gets the
    /// conversation so far and its future gives the reply text. The loop is the same (the same
    /// stages, feedback, attempts and outcome); it needs no async runtime of its own and runs on
    /// whichever executor awaits it.
    ///
    /// ```
    /// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
    /// #     "required": ["text"], "additionalProperties": false}; }
    /// # toolgate::toolbox! { pub enum Call { Echo } }
    /// use toolgate::gate::{Gate, Message};
    ///
    /// /// A model client (a real one would send `messages` to a chat API and await the reply).
    /// async fn model(messages: &[Message]) -> String {
    ///     if messages.len() == 1 {
    ///         r#"{"tool": "echo", "arguments": {}}"#.to_owned()
    ///     } else {
    ///         r#"{"tool": "echo", "arguments": {"text": "hi"}}"#.to_owned()
    ///     }
    /// }
    ///
    /// async fn run() -> usize {
    ///     let gate = Gate::<Call>::plain();
    ///     let repair = gate.repair_async(vec![Message::user("say hi")], async |m: &[Message]| model(m).await).await;
    ///     assert!(repair.calls().is_some());
    ///     repair.attempts().len()
    /// }
    /// # // No executor is needed to check that `run` compiles; the crate's tests drive it.
    /// # let _ = run;
    /// ```
    pub async fn repair_async<F>(&self, messages: Vec<Message>, mut ask: F) -> Repair<C>
    where
        F: AsyncFnMut(&[Message]) -> String,
    {
        let mut round = Round::new(self, messages);
        while round.more() {
            let reply = ask(&round.messages).await;
            if let Some(done) = round.judge(reply) {
                return done;
            }
        }
        round.gave_up()
    }

    /// [`Gate::repair_async`] with a fallible model client: a client error stops the loop.
    ///
    /// # Errors
    /// [`Interrupted`] with the client's error and the attempts so far.
    pub async fn try_repair_async<F, E>(&self, messages: Vec<Message>, mut ask: F) -> Result<Repair<C>, Interrupted<E>>
    where
        F: AsyncFnMut(&[Message]) -> Result<String, E>,
    {
        let mut round = Round::new(self, messages);
        while round.more() {
            match ask(&round.messages).await {
                Ok(reply) => {
                    if let Some(done) = round.judge(reply) {
                        return Ok(done);
                    }
                }
                Err(error) => return Err(round.interrupted(error)),
            }
        }
        Ok(round.gave_up())
    }
}

/// The repair loop between two replies, shared by the sync and async loops: the conversation, the
/// attempts so far, and what the gate makes of the next reply.
struct Round<'g, C> {
    gate: &'g Gate<C>,
    messages: Vec<Message>,
    attempts: Vec<Attempt>,
}

impl<'g, C: Toolbox> Round<'g, C> {
    const fn new(gate: &'g Gate<C>, messages: Vec<Message>) -> Self {
        Self { gate, messages, attempts: Vec::new() }
    }

    /// Whether the loop may ask for another reply.
    fn more(&self) -> bool {
        self.attempts.len() < self.gate.max_attempts
    }

    /// Record `reply` and the gate's verdict; the loop's end when the reply was accepted or prose,
    /// else `None` (the feedback is appended, ready for the next ask).
    fn judge(&mut self, reply: String) -> Option<Repair<C>> {
        let number = self.attempts.len() + 1;
        self.messages.push(Message::assistant(reply.clone()));
        match self.gate.check(&reply) {
            Outcome::Prose(text) => {
                self.attempts.push(Attempt { number, reply, verdict: AttemptVerdict::Prose });
                let (attempts, messages) = self.take();
                Some(Repair::Prose { text, attempts, messages })
            }
            Outcome::Calls(results) => {
                let mut calls = Vec::new();
                let mut rejections = Vec::new();
                for r in results {
                    match r {
                        Ok(c) => calls.push(c),
                        Err(r) => rejections.push(r),
                    }
                }
                if rejections.is_empty() {
                    self.attempts.push(Attempt { number, reply, verdict: AttemptVerdict::Accepted });
                    let (attempts, messages) = self.take();
                    return Some(Repair::Accepted { calls, attempts, messages });
                }
                self.messages.push(Message::user(feedback(&rejections)));
                self.attempts.push(Attempt { number, reply, verdict: AttemptVerdict::Rejected(rejections) });
                None
            }
            Outcome::Rejected(r) => {
                self.messages.push(Message::user(r.feedback()));
                self.attempts.push(Attempt { number, reply, verdict: AttemptVerdict::Rejected(vec![r]) });
                None
            }
        }
    }

    fn take(&mut self) -> (Vec<Attempt>, Vec<Message>) {
        (std::mem::take(&mut self.attempts), std::mem::take(&mut self.messages))
    }

    fn gave_up(self) -> Repair<C> {
        Repair::GaveUp { attempts: self.attempts, messages: self.messages }
    }

    fn interrupted<E>(self, error: E) -> Interrupted<E> {
        Interrupted { error, attempts: self.attempts, messages: self.messages }
    }
}
