//! toolgate tools as [rig](https://docs.rs/rig-core) tools.
//!
//! [`GateTool`] implements rig's `Tool` for a toolgate tool type `T` and a function that runs it.
//! What changes compared with a rig tool written by hand (`type Args = T` with serde, and a
//! `parameters()` written or derived separately):
//!
//! - `parameters()` is [`Tool::SCHEMA`](toolgate::Tool::SCHEMA), exactly the schema the validator
//!   enforces; the description is the tool's doc comment (else the schema's `description`);
//! - the arguments go through a [`Gate`] of the one tool (the whole schema, then the gate's
//!   business rules), and a refused call reaches the model as rig's `invalid_args` tool error
//!   whose text is toolgate's ([`Rejection::tool_error`](toolgate::gate::Rejection::tool_error):
//!   every violation with its pointer, what was expected and what was found), the same answer
//!   the plain gate gives for `{"tool": name, "arguments": ...}` ([`Gate::check_call`]);
//! - the function gets the typed arguments only after they passed.
//!
//! rig parses the arguments text itself before any tool runs: text that is not JSON at all is
//! answered by rig (`failed to parse tool arguments: ...`), not by the gate.
//!
//! ```
//! use toolgate_rig::GateTool;
//!
//! toolgate::tool_schema! {
//!     /// Add two numbers.
//!     pub struct Add = {
//!         "type": "object",
//!         "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
//!         "required": ["a", "b"],
//!         "additionalProperties": false
//!     };
//! }
//!
//! let add = GateTool::new(|args: Add| async move { Ok::<_, std::convert::Infallible>(args.a + args.b) });
//! # use rig_core::tool::Tool as _;
//! assert_eq!(add.parameters(), serde_json::from_str::<serde_json::Value>(<Add as toolgate::Tool>::SCHEMA).unwrap());
//! // agent_builder.tool(add)
//! ```

use std::future::Future;

use rig_core::tool::{IntoToolOutput, ToolContext, ToolExecutionError};
use serde_json::Value;
use toolgate::gate::{Gate, Only, ToolSpec};

/// A toolgate tool `T` as a rig tool: its schema as the parameters, its calls through a gate, the
/// typed arguments to `run`. See the [crate documentation](crate).
pub struct GateTool<T, F> {
    gate: Gate<Only<T>>,
    run: F,
}

impl<T, F> std::fmt::Debug for GateTool<T, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GateTool").field("gate", &self.gate).finish_non_exhaustive()
    }
}

impl<T: toolgate::Tool + Send + 'static, F> GateTool<T, F> {
    /// The tool with a plain gate (the default limits, no rules).
    #[must_use]
    pub fn new(run: F) -> Self {
        Self::with_gate(Gate::plain(), run)
    }

    /// The tool with `gate`: its limits and its business rules (`Gate::<Only<T>>::plain().rule(..)`).
    #[must_use]
    pub const fn with_gate(gate: Gate<Only<T>>, run: F) -> Self {
        Self { gate, run }
    }

    /// The gate the calls go through.
    #[must_use]
    pub const fn gate(&self) -> &Gate<Only<T>> {
        &self.gate
    }
}

impl<T, F, Fut, O, E> rig_core::tool::Tool for GateTool<T, F>
where
    T: toolgate::Tool + Send + Sync + 'static,
    F: Fn(T) -> Fut + Send + Sync,
    Fut: Future<Output = Result<O, E>> + Send,
    O: IntoToolOutput,
    E: std::error::Error + Send + Sync + 'static,
{
    const NAME: &'static str = T::NAME;
    type Args = Value;
    type Output = O;
    type Error = ToolExecutionError;

    fn description(&self) -> String {
        T::DESCRIPTION.to_owned()
    }

    fn parameters(&self) -> Value {
        ToolSpec::of::<T>().schema_value()
    }

    async fn call(&self, _context: &mut ToolContext, args: Value) -> Result<O, ToolExecutionError> {
        let accepted = self
            .gate
            .check_call(T::NAME, &args)
            .map_err(|rejection| ToolExecutionError::invalid_args(rejection.tool_error()))?;
        (self.run)(accepted.call.0).await.map_err(ToolExecutionError::from_error)
    }
}
