//! Result checks: a tool's result, validated against its own schema type before it goes back to
//! the model.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::{Tool, Violations};

/// A tool result that its schema type `R` accepted: the typed value and the JSON to send back.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedResult<R> {
    typed: R,
    value: Value,
}

impl<R> CheckedResult<R> {
    /// The typed result.
    #[must_use]
    pub const fn typed(&self) -> &R {
        &self.typed
    }

    /// The result as JSON, exactly as it was checked.
    #[must_use]
    pub const fn value(&self) -> &Value {
        &self.value
    }

    /// The result as compact JSON text: the content of the tool message for the model.
    #[must_use]
    pub fn content(&self) -> String {
        self.value.to_string()
    }

    /// The typed result and its JSON.
    #[must_use]
    pub fn into_parts(self) -> (R, Value) {
        (self.typed, self.value)
    }
}

/// A tool result that must not go back to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResultError {
    /// The result violates its schema.
    Invalid {
        /// the result schema's tool name ([`Tool::NAME`] of the result type)
        result: &'static str,
        /// every violation
        violations: Violations,
    },
    /// The result could not be turned into JSON.
    NotJson {
        /// the result schema's tool name
        result: &'static str,
        /// what `serde_json` said
        message: String,
    },
}

impl ResultError {
    /// The violations, if the result violates its schema.
    #[must_use]
    pub fn violations(&self) -> Option<&Violations> {
        match self {
            Self::Invalid { violations, .. } => Some(violations),
            Self::NotJson { .. } => None,
        }
    }
}

impl fmt::Display for ResultError {
    /// `result lookup_stock_result: /summary: expected a string of at most 200 characters, …`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid { result, violations } => {
                write!(f, "result {result}: ")?;
                for (i, v) in violations.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
            Self::NotJson { result, message } => write!(f, "result {result}: not JSON: {message}"),
        }
    }
}

impl std::error::Error for ResultError {}

/// Check a tool's result (as JSON) against its schema type `R`.
///
/// ```
/// toolgate::tool_schema! {
///     /// The result of `lookup_stock`.
///     pub struct StockQuote = {
///         "type": "object",
///         "properties": {"price": {"type": "number"}, "summary": {"type": "string", "maxLength": 20}},
///         "required": ["price", "summary"],
///         "additionalProperties": false
///     };
/// }
/// let ok = toolgate::gate::check_result::<StockQuote>(serde_json::json!({"price": 1.5, "summary": "flat"}));
/// assert_eq!(ok.map(|r| r.content()).ok().as_deref(), Some(r#"{"price":1.5,"summary":"flat"}"#));
///
/// let long = serde_json::json!({"price": 1.5, "summary": "a summary far longer than twenty characters"});
/// let err = toolgate::gate::check_result::<StockQuote>(long).unwrap_err();
/// assert_eq!(err.to_string(), "result stock_quote: /summary: expected a string of at most 20 characters, found 43 characters");
/// ```
///
/// # Errors
/// [`ResultError::Invalid`] with every violation.
pub fn check_result<R: Tool>(value: Value) -> Result<CheckedResult<R>, ResultError> {
    match R::from_value(&value) {
        Ok(typed) => Ok(CheckedResult { typed, value }),
        Err(violations) => Err(ResultError::Invalid { result: R::NAME, violations }),
    }
}

/// Serialise a tool's result (any `Serialize` value, often the result type `R` itself) and check
/// it against `R`.
///
/// # Errors
/// [`ResultError::NotJson`] when serialisation fails, [`ResultError::Invalid`] with every
/// violation.
pub fn check_result_of<R: Tool, S: Serialize + ?Sized>(result: &S) -> Result<CheckedResult<R>, ResultError> {
    let value =
        serde_json::to_value(result).map_err(|e| ResultError::NotJson { result: R::NAME, message: e.to_string() })?;
    check_result(value)
}
