//! Tools shared by the `gate_*` tests.
#![allow(dead_code)]

use toolgate::gate::{Gate, Handle};
use toolgate::{tool_schema, toolbox};

#[path = "../tools/mod.rs"]
mod tools;

pub use tools::ConvertUnits;

tool_schema! {
    /// Look up the latest price of a listed stock.
    #[tool(name = "lookup_stock")]
    pub struct LookupStock = {
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "minLength": 1, "maxLength": 5},
            "exchange": {"enum": ["NYSE", "NASDAQ", "LSE"]}
        },
        "required": ["ticker"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The tools of the tests.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call {
        ConvertUnits,
        LookupStock,
    }
}

/// A conversion stays within one kind.
pub fn same_kind(c: &ConvertUnits) -> Result<(), String> {
    let mass = |u: &str| u.ends_with('g');
    if mass(c.from_unit.as_str()) == mass(c.to_unit.as_str()) {
        Ok(())
    } else {
        Err(format!("cannot convert {} to {}", c.from_unit, c.to_unit))
    }
}

/// The plain gate with the one-kind rule.
pub fn gate() -> Gate<Call> {
    Gate::plain().rule(same_kind)
}

pub const GOOD: &str = r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "km", "to_unit": "m"}}"#;
pub const WRONG_TYPE: &str =
    r#"{"tool": "convert_units", "arguments": {"value": "five", "from_unit": "km", "to_unit": "m"}}"#;
pub const UNKNOWN_TOOL: &str = r#"{"tool": "delete_all_notes", "arguments": {}}"#;

/// The program's side of the tools.
#[derive(Debug, Default)]
pub struct Tools {
    pub ran: Vec<String>,
}

impl Handle<ConvertUnits> for Tools {
    type Output = String;
    fn handle(&mut self, args: ConvertUnits) -> String {
        self.ran.push("convert_units".into());
        format!("{} {} -> {}", args.value, args.from_unit, args.to_unit)
    }
}

impl Handle<LookupStock> for Tools {
    type Output = String;
    fn handle(&mut self, args: LookupStock) -> String {
        self.ran.push("lookup_stock".into());
        format!("quote {}", args.ticker)
    }
}
