//! async-openai's chat types (feature `async-openai`): tool declarations as
//! [`ChatCompletionTools`], an assistant message read by async-openai through a gate, and a
//! rejection as the tool message that answers the refused call.

use async_openai::types::chat::{
    ChatCompletionRequestToolMessage, ChatCompletionRequestToolMessageContent, ChatCompletionResponseMessage,
    ChatCompletionTool, ChatCompletionTools, FunctionObject,
};

use super::{Envelope, Gate, Outcome, Rejection, Stage, ToolSpec, Toolbox};

impl ToolSpec {
    /// The declaration as async-openai's tool type: the schema exactly as enforced, the
    /// description when there is one, and `strict: true` only when the schema qualifies for
    /// OpenAI's strict mode ([`openai_strict`](super::openai_strict)); otherwise `strict` is left
    /// out.
    #[must_use]
    pub fn openai_tool(&self) -> ChatCompletionTools {
        let schema = self.schema_value();
        let strict = super::openai_strict(&schema).is_ok();
        ChatCompletionTools::Function(ChatCompletionTool {
            function: FunctionObject {
                name: self.name.to_owned(),
                description: (!self.description.is_empty()).then(|| self.description.to_owned()),
                parameters: Some(schema),
                strict: strict.then_some(true),
            },
        })
    }
}

/// The `tools` of a chat completion request for toolbox `C`, as async-openai's types (see
/// [`ToolSpec::openai_tool`]).
#[must_use]
pub fn openai_tools<C: Toolbox>() -> Vec<ChatCompletionTools> {
    C::TOOLS.iter().map(ToolSpec::openai_tool).collect()
}

impl<C: Toolbox> Gate<C> {
    /// Run every stage over an assistant message that async-openai has read
    /// (`response.choices[0].message`), as this gate's OpenAI envelope reads the message's JSON:
    /// each `tool_calls[].function.arguments` string is parsed as strictly as a reply, and the
    /// size limit counts the message written back as compact JSON.
    pub fn check_openai_message(&self, message: &ChatCompletionResponseMessage) -> Outcome<C> {
        match serde_json::to_string(message) {
            Ok(text) => self.check_as(Envelope::OpenAi, &text),
            // async-openai's message types always serialise; kept as a rejection, not a panic.
            Err(e) => Outcome::Rejected(Rejection::new(Stage::Envelope, Envelope::OpenAi, e.to_string())),
        }
    }
}

impl Rejection {
    /// The tool message that answers the refused call (OpenAI requires one for every
    /// `tool_call_id` of the assistant message): its content is [`Rejection::feedback`]. `None`
    /// for a rejection without a call id (a reply refused as a whole: send the feedback as a user
    /// message instead).
    #[must_use]
    pub fn openai_tool_message(&self) -> Option<ChatCompletionRequestToolMessage> {
        Some(ChatCompletionRequestToolMessage {
            content: ChatCompletionRequestToolMessageContent::Text(self.feedback()),
            tool_call_id: self.call_id()?.to_owned(),
        })
    }
}
