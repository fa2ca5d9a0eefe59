//! Serve toolgate tools from an [rmcp](https://docs.rs/rmcp) (Model Context Protocol) server.
//!
//! What changes compared with rmcp alone (`#[tool]` with `Parameters<T>`):
//!
//! - `tools/list` advertises each tool's [`Tool::SCHEMA`](toolgate::Tool::SCHEMA) exactly as the
//!   validator enforces it: rmcp's schemars route writes a 2020-12 `$schema` into every schema,
//!   which changes the meaning of a draft-07 one. The tool's description is its doc comment (else
//!   the schema's `description`).
//! - `tools/call` runs the arguments through a [`Gate`]: the whole schema, then the gate's
//!   business rules. A refused call is answered in-band (`isError: true`) with toolgate's
//!   violation lines (pointer, what was expected, what was found), the text of
//!   [`Rejection::tool_error`], instead of serde's message, so the model can correct its call.
//!   The answer is exactly the plain gate's for the reply `{"tool": name, "arguments": ...}`
//!   ([`Gate::check_call`]); an absent `arguments` (optional in MCP, and `null` reads as absent in
//!   rmcp) is judged as `{}`.
//! - A tool that is not in the toolbox is a protocol error (`-32602`, as MCP specifies), whose
//!   message is the gate's: the name, and the available tools.
//!
//! ```no_run
//! use toolgate::gate::Gate;
//! use toolgate_rmcp::GateServer;
//! use rmcp::ServiceExt;
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
//! toolgate::toolbox! {
//!     /// The server's tools.
//!     pub enum Call { Add }
//! }
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let server = GateServer::new(Gate::<Call>::plain(), |call: Call| async move {
//!     match call {
//!         Call::Add(args) => (args.a + args.b).to_string(),
//!     }
//! });
//! # let transport = tokio::io::duplex(64).0;
//! server.serve(transport).await?.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! [`route`] gives the same for one tool as an rmcp [`ToolRoute`], to add to a `ToolRouter`
//! beside rmcp's own tools.

use std::future::Future;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::{IntoCallToolResult, ToolCallContext};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use toolgate::gate::{Accepted, Gate, Only, Rejection, Stage, ToolSpec, Toolbox};

/// The MCP declaration of a tool: its name, its description (left out when empty), and its
/// schema exactly as enforced as the `inputSchema`.
#[must_use]
pub fn tool(spec: &ToolSpec) -> rmcp::model::Tool {
    let schema = match spec.schema_value() {
        Value::Object(m) => m,
        // Every toolgate schema the macro accepts for a tool is an object; `{}` would advertise
        // "anything", so a non-object is advertised as the empty object's negation instead.
        _ => JsonObject::from_iter([("not".to_owned(), Value::Object(JsonObject::new()))]),
    };
    let mut tool = rmcp::model::Tool::new(spec.name, spec.description, Arc::new(schema));
    if spec.description.is_empty() {
        tool.description = None;
    }
    tool
}

/// The MCP declarations of every tool of toolbox `C`, in declaration order.
#[must_use]
pub fn tools<C: Toolbox>() -> Vec<rmcp::model::Tool> {
    C::TOOLS.iter().map(tool).collect()
}

/// A refused call as an in-band tool error (`isError: true`): one text block,
/// [`Rejection::tool_error`].
#[must_use]
pub fn error_result(rejection: &Rejection) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(rejection.tool_error())])
}

/// Judge an MCP call: an absent `arguments` is the empty object.
fn judge<C: Toolbox>(gate: &Gate<C>, name: &str, arguments: Option<JsonObject>) -> Result<Accepted<C>, Rejection> {
    gate.check_call(name, &Value::Object(arguments.unwrap_or_default()))
}

/// The answer to a refused call: in-band for the arguments and the rules (and every stage the
/// model can fix by calling again), a protocol error for a tool the server does not have.
fn refusal(rejection: &Rejection) -> Result<CallToolResponse, ErrorData> {
    if rejection.stage() == Stage::NotAllowed {
        return Err(ErrorData::invalid_params(rejection.problem(), None));
    }
    Ok(error_result(rejection).into())
}

/// An MCP server for the tools of toolbox `C`: `tools/list` from `C`'s schemas, `tools/call`
/// through `gate`, and the accepted call to `run`. See the [crate documentation](crate).
pub struct GateServer<C, F> {
    gate: Arc<Gate<C>>,
    run: F,
    config: ServerConfig,
}

impl<C, F> std::fmt::Debug for GateServer<C, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GateServer").field("gate", &self.gate).field("config", &self.config).finish_non_exhaustive()
    }
}

impl<C: Toolbox, F> GateServer<C, F> {
    /// A server whose `tools/call` runs `gate` and hands each accepted call to `run`.
    ///
    /// `run` gets the typed call and gives anything rmcp can turn into a tool result (a `String`,
    /// a `CallToolResult`, `Result<_, ErrorData>`, …).
    #[must_use]
    pub fn new(gate: Gate<C>, run: F) -> Self {
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        Self { gate: Arc::new(gate), run, config }
    }

    /// Set what `initialize` answers (server name and version, instructions; by default rmcp's
    /// own name and version); the `tools` capability is switched on whatever `config` says.
    #[must_use]
    pub fn with_config(mut self, mut config: ServerConfig) -> Self {
        if config.capabilities.tools.is_none() {
            config.capabilities.tools = ServerCapabilities::builder().enable_tools().build().tools;
        }
        self.config = config;
        self
    }

    /// The gate the calls go through.
    #[must_use]
    pub fn gate(&self) -> &Gate<C> {
        &self.gate
    }
}

impl<C, F, Fut, R> ServerHandler for GateServer<C, F>
where
    C: Toolbox + Send + Sync + 'static,
    F: Fn(C) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoCallToolResult + 'static,
{
    fn get_info(&self) -> ServerConfig {
        self.config.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::<C>()))
    }

    fn get_tool(&self, name: &str) -> Option<rmcp::model::Tool> {
        C::TOOLS.iter().find(|t| t.name == name).map(tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match judge(&self.gate, &request.name, request.arguments) {
            Ok(accepted) => (self.run)(accepted.call).await.into_call_tool_result(),
            Err(rejection) => refusal(&rejection),
        }
    }
}

/// One tool as an rmcp [`ToolRoute`], for a `ToolRouter` that also holds rmcp's own tools: the
/// declaration of [`tool`], the call through `gate` (a gate of the one tool, with its rules), and
/// the typed arguments to `run`.
///
/// ```
/// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
/// #     "required": ["text"], "additionalProperties": false}; }
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use toolgate::gate::{Gate, Only};
///
/// struct Server;
/// let router = ToolRouter::<Server>::new()
///     .with_route(toolgate_rmcp::route(Gate::<Only<Echo>>::plain(), |echo: Echo| async move { echo.text }));
/// assert!(router.has_route("echo"));
/// ```
pub fn route<S, T, F, Fut, R>(gate: Gate<Only<T>>, run: F) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    T: toolgate::Tool + Send + Sync + 'static,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = R> + Send + 'static,
    R: IntoCallToolResult + 'static,
{
    let gate = Arc::new(gate);
    let run = Arc::new(run);
    ToolRoute::new_dyn(tool(&ToolSpec::of::<T>()), move |ctx: ToolCallContext<'_, S>| {
        let verdict = judge(&gate, &ctx.name, ctx.arguments);
        let run = Arc::clone(&run);
        Box::pin(async move {
            match verdict {
                Ok(accepted) => run(accepted.call.0).await.into_call_tool_result(),
                Err(rejection) => refusal(&rejection),
            }
        })
    })
}
