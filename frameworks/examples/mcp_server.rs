//! An MCP server over stdio with three toolgate tools, usable from any MCP client (Claude
//! Desktop, the MCP inspector, rmcp's client...): `tools/list` advertises each tool's schema
//! exactly as it is enforced (one of them draft-07, advertised as draft-07), and a call whose
//! arguments violate it is answered in-band (`isError: true`) with toolgate's violation lines.
//!
//! `cargo run --example mcp_server` (it then speaks MCP on stdin and stdout)

use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::ServiceExt;
use toolgate::gate::Gate;
use toolgate::{tool_schema, toolbox};
use toolgate_rmcp::GateServer;

tool_schema! {
    /// Convert a value between two units of the same kind.
    pub struct ConvertUnits = {
        "title": "Unit conversion",
        "description": "A value and the two units to convert between.",
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
    /// Look up the latest price of a listed stock.
    pub struct LookupStock = {
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "pattern": "^[A-Z]{1,5}$"},
            "currency": {"enum": ["USD", "GBP"]}
        },
        "required": ["ticker"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Search the notes for a phrase, optionally between two dates.
    pub struct SearchNotes = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"day": {"type": "string", "format": "date"}},
        "type": "object",
        "properties": {
            "phrase": {"type": "string", "minLength": 1, "maxLength": 100},
            "between": {"type": "array", "items": [{"$ref": "#/definitions/day"}, {"$ref": "#/definitions/day"}], "additionalItems": false, "minItems": 2}
        },
        "required": ["phrase"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The server's tools.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call {
        ConvertUnits,
        LookupStock,
        SearchNotes,
    }
}

/// The business rule of `convert_units`: a conversion stays within one kind (length or mass).
///
/// # Errors
/// `cannot convert m to kg` for a conversion across kinds.
pub fn same_kind(c: &ConvertUnits) -> Result<(), String> {
    let mass = |u: &str| u.ends_with('g');
    let (from, to) = (c.from_unit.as_str(), c.to_unit.as_str());
    if mass(from) == mass(to) {
        Ok(())
    } else {
        Err(format!("cannot convert {from} to {to}"))
    }
}

/// Run a checked call (made-up answers: this is an example).
#[must_use]
pub fn run(call: Call) -> String {
    let scale = |u: &str| if u.starts_with('k') { 1000.0 } else { 1.0 };
    match call {
        Call::ConvertUnits(c) => {
            let (from, to) = (c.from_unit.as_str(), c.to_unit.as_str());
            format!("{} {from} = {} {to}", c.value, c.value * scale(from) / scale(to))
        }
        Call::LookupStock(s) => format!("{}: 123.45 {}", s.ticker, s.currency.as_ref().map_or("USD", |c| c.as_str())),
        Call::SearchNotes(s) => format!("no notes mention {:?}", s.phrase),
    }
}

/// The server: the toolbox's gate with its rule, and [`run`] for the accepted calls.
pub fn server() -> GateServer<Call, impl Fn(Call) -> std::future::Ready<String> + Send + Sync + 'static> {
    let info = Implementation::new("toolgate-example", env!("CARGO_PKG_VERSION"));
    GateServer::new(Gate::plain().rule(same_kind), |call| std::future::ready(run(call)))
        .with_config(ServerConfig::new(ServerCapabilities::default()).with_server_info(info))
}

/// Serve on stdin and stdout until the client hangs up.
///
/// # Errors
/// When the connection cannot be set up or fails.
#[tokio::main(flavor = "current_thread")]
pub async fn main() -> Result<(), Box<dyn std::error::Error>> {
    server().serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
