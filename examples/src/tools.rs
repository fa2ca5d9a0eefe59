//! The tools of the `gate` and `retry` examples: `convert_units` (inline schema) and
//! `lookup_stock` (schema file), their toolbox, the one-kind rule, and the program's handlers;
//! and `read_file`, whose arguments the `streaming` example judges while they stream in.

use toolgate::gate::{Gate, Handle};
use toolgate::{tool_schema, toolbox};

tool_schema! {
    /// Convert a value between two units of the same kind.
    pub struct ConvertUnits = {
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
    #[tool(name = "lookup_stock")]
    pub struct LookupStock = "schemas/lookup_stock.json";
}

tool_schema! {
    /// What `lookup_stock` returns; checked before it goes back to the model.
    pub struct LookupStockResult = {
        "type": "object",
        "properties": {
            "ticker": {"type": "string", "minLength": 1, "maxLength": 5},
            "price": {"type": "number", "exclusiveMinimum": 0},
            "currency": {"enum": ["USD", "GBP"]},
            "summary": {"type": "string", "maxLength": 200}
        },
        "required": ["ticker", "price", "currency", "summary"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// Read the first lines of a text file.
    pub struct ReadFile = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "max_lines": {"type": "integer", "minimum": 1, "maximum": 10000},
            "encoding": {"enum": ["utf-8", "latin-1"]}
        },
        "required": ["path"],
        "additionalProperties": false
    };
}

toolbox! {
    /// The tools the program lets the model call.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Call {
        ConvertUnits,
        LookupStock,
    }
}

fn is_mass(unit: &str) -> bool {
    unit.ends_with('g')
}

fn factor(unit: &str) -> f64 {
    if unit.starts_with('k') {
        1000.0
    } else {
        1.0
    }
}

/// The business rule: a conversion stays within one kind (length or mass).
///
/// # Errors
/// `cannot convert m to kg` for a conversion across kinds.
pub fn same_kind(c: &ConvertUnits) -> Result<(), String> {
    let (from, to) = (c.from_unit.as_str(), c.to_unit.as_str());
    if is_mass(from) == is_mass(to) {
        Ok(())
    } else {
        Err(format!("cannot convert {from} to {to}"))
    }
}

/// The gate of the `gate` and `retry` examples: plain envelope, default limits, the one-kind rule.
#[must_use]
pub fn gate() -> Gate<Call> {
    Gate::plain().rule(same_kind)
}

/// The program's tools: what runs a checked call.
#[derive(Debug, Default)]
pub struct Tools;

impl Handle<ConvertUnits> for Tools {
    type Output = String;
    fn handle(&mut self, args: ConvertUnits) -> String {
        let (from, to) = (args.from_unit.as_str(), args.to_unit.as_str());
        let converted = args.value * factor(from) / factor(to);
        format!("{} {from} = {converted} {to}", args.value)
    }
}

impl Handle<LookupStock> for Tools {
    type Output = String;
    fn handle(&mut self, args: LookupStock) -> String {
        // A made-up quote: this is an example, not a market data feed.
        let result = serde_json::json!({
            "ticker": args.ticker,
            "price": 123.45,
            "currency": "USD",
            "summary": format!("{} traded flat today.", args.ticker),
        });
        match toolgate::gate::check_result::<LookupStockResult>(result) {
            Ok(checked) => checked.content(),
            Err(e) => format!("error: {e}"),
        }
    }
}
