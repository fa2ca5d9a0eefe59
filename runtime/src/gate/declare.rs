//! Tool declarations for OpenAI, Anthropic and MCP, built from the schema text the validator
//! enforces, and the check of whether a schema qualifies for OpenAI's strict mode.

use std::fmt;

use serde_json::{Map, Value};

use super::toolbox::ToolSpec;

/// Whom a tool declaration is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    /// OpenAI chat completions: `{"type": "function", "function": {"name", "description",
    /// "parameters", "strict"}}`, with `"strict": true` only when the schema qualifies
    /// (see [`openai_strict`]).
    OpenAi,
    /// Anthropic Messages API: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// Model Context Protocol `tools/list`: `{"name", "description", "inputSchema"}`.
    Mcp,
}

impl ToolSpec {
    /// The schema as a JSON value. (The text is always valid JSON, written by the compiler; if it
    /// were not, the result would be the schema `false`, which advertises that nothing is valid.)
    #[must_use]
    pub fn schema_value(&self) -> Value {
        serde_json::from_str(self.schema).unwrap_or(Value::Bool(false))
    }

    /// Whether the schema qualifies for OpenAI's strict mode, and if not, the first reason.
    ///
    /// # Errors
    /// Where and why the schema does not qualify.
    pub fn openai_strict(&self) -> Result<(), NotStrict> {
        openai_strict(&self.schema_value())
    }

    /// The declaration for `provider`. The description is omitted when it is empty.
    #[must_use]
    pub fn declaration(&self, provider: Provider) -> Value {
        let schema = self.schema_value();
        let strict = provider == Provider::OpenAi && openai_strict(&schema).is_ok();
        let mut m = Map::new();
        m.insert("name".to_owned(), Value::String(self.name.to_owned()));
        if !self.description.is_empty() {
            m.insert("description".to_owned(), Value::String(self.description.to_owned()));
        }
        let key = match provider {
            Provider::OpenAi => "parameters",
            Provider::Anthropic => "input_schema",
            Provider::Mcp => "inputSchema",
        };
        m.insert(key.to_owned(), schema);
        if strict {
            m.insert("strict".to_owned(), Value::Bool(true));
        }
        match provider {
            Provider::OpenAi => {
                let mut outer = Map::new();
                outer.insert("type".to_owned(), Value::String("function".to_owned()));
                outer.insert("function".to_owned(), Value::Object(m));
                Value::Object(outer)
            }
            Provider::Anthropic | Provider::Mcp => Value::Object(m),
        }
    }

    /// [`ToolSpec::declaration`] as JSON text, with the schema copied verbatim from
    /// [`ToolSpec::schema`] (so member order is kept, whatever `serde_json`'s map type).
    #[must_use]
    pub fn declaration_json(&self, provider: Provider) -> String {
        let text = |s: &str| Value::String(s.to_owned()).to_string();
        let mut inner = format!("\"name\":{}", text(self.name));
        if !self.description.is_empty() {
            inner.push_str(&format!(",\"description\":{}", text(self.description)));
        }
        match provider {
            Provider::OpenAi => {
                inner.push_str(&format!(",\"parameters\":{}", self.schema));
                if self.openai_strict().is_ok() {
                    inner.push_str(",\"strict\":true");
                }
                format!("{{\"type\":\"function\",\"function\":{{{inner}}}}}")
            }
            Provider::Anthropic => format!("{{{inner},\"input_schema\":{}}}", self.schema),
            Provider::Mcp => format!("{{{inner},\"inputSchema\":{}}}", self.schema),
        }
    }
}

/// Why a schema does not qualify for OpenAI's strict mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotStrict {
    /// The JSON Pointer of the subschema, in the schema (`""` for the root).
    pub pointer: String,
    /// What strict mode does not accept there.
    pub reason: String,
}

impl fmt::Display for NotStrict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{at}: {}", self.reason)
    }
}

impl std::error::Error for NotStrict {}

/// The keywords OpenAI documents as supported in strict mode.
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$defs",
    "$ref",
    "description",
    "title",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "pattern",
    "format",
];

/// The string formats strict mode supports.
const STRICT_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// OpenAI's documented limits: object nesting depth, total properties, total enum values.
const MAX_DEPTH: usize = 10;
const MAX_PROPERTIES: usize = 5000;
const MAX_ENUM_VALUES: usize = 1000;

/// Whether `schema` qualifies for OpenAI's strict mode (`"strict": true`), which OpenAI refuses for
/// a schema outside its subset:
///
/// - the root is `{"type": "object", ...}`; every subschema is an object (no `true`/`false`) with a
///   `type` (an `enum` alone is refused by OpenAI), or else an `anyOf` or a `$ref`;
/// - every object has `"additionalProperties": false` and lists all of its properties in `required`;
/// - only the keywords OpenAI documents for strict mode appear: `type`, `properties`, `required`,
///   `additionalProperties`, `items`, `enum`, `const`, `anyOf`, `$defs`, `$ref`, `description`,
///   `title`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
///   `minItems`, `maxItems`, `pattern` and `format` (with one of its formats). Anything else,
///   such as `minLength`, `maxLength`, `uniqueItems`, `default` or `$schema`, disqualifies it;
/// - at most 10 levels of object nesting, 5,000 properties and 1,000 enum values.
///
/// A schema that does not qualify is still declared, without `strict`.
///
/// # Errors
/// The first place where the schema leaves the subset, and why.
pub fn openai_strict(schema: &Value) -> Result<(), NotStrict> {
    let root_is_object = schema.get("type").and_then(Value::as_str) == Some("object");
    if !root_is_object {
        return Err(NotStrict { pointer: String::new(), reason: "the root must be {\"type\": \"object\"}".to_owned() });
    }
    Strict::default().node(schema, "", 1)
}

#[derive(Default)]
struct Strict {
    properties: usize,
    enum_values: usize,
}

fn not(pointer: &str, reason: impl Into<String>) -> NotStrict {
    NotStrict { pointer: pointer.to_owned(), reason: reason.into() }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl Strict {
    fn node(&mut self, schema: &Value, ptr: &str, depth: usize) -> Result<(), NotStrict> {
        let Value::Object(m) = schema else {
            return Err(not(ptr, "a boolean schema is not supported in strict mode"));
        };
        if let Some(k) = m.keys().find(|k| !STRICT_KEYWORDS.contains(&k.as_str())) {
            return Err(not(ptr, format!("`{k}` is not supported in strict mode")));
        }
        if !["type", "anyOf", "$ref"].iter().any(|k| m.contains_key(*k)) {
            return Err(not(ptr, "every subschema needs a `type` (or `anyOf`, or `$ref`) in strict mode"));
        }
        let is_object = match m.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => false,
        } || m.contains_key("properties")
            || m.contains_key("additionalProperties");
        if is_object {
            self.object(m, ptr, depth)?;
        }
        if let Some(items) = m.get("items") {
            self.node(items, &format!("{ptr}/items"), depth)?;
        }
        if let Some(branches) = m.get("anyOf") {
            let Value::Array(branches) = branches else { return Err(not(ptr, "`anyOf` must be an array")) };
            for (i, b) in branches.iter().enumerate() {
                self.node(b, &format!("{ptr}/anyOf/{i}"), depth)?;
            }
        }
        if let Some(defs) = m.get("$defs") {
            let Value::Object(defs) = defs else { return Err(not(ptr, "`$defs` must be an object")) };
            for (k, d) in defs {
                self.node(d, &format!("{ptr}/$defs/{}", escape(k)), depth)?;
            }
        }
        if let Some(r) = m.get("$ref") {
            if !r.as_str().is_some_and(|r| r.starts_with('#')) {
                return Err(not(ptr, "only local `$ref`s (\"#...\") are supported in strict mode"));
            }
        }
        if let Some(Value::Array(values)) = m.get("enum") {
            self.enum_values += values.len();
            if self.enum_values > MAX_ENUM_VALUES {
                return Err(not(ptr, format!("strict mode allows at most {MAX_ENUM_VALUES} enum values in all")));
            }
        }
        if let Some(f) = m.get("format") {
            if !f.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f)) {
                return Err(not(ptr, format!("`format` {f} is not supported in strict mode")));
            }
        }
        Ok(())
    }

    fn object(&mut self, m: &Map<String, Value>, ptr: &str, depth: usize) -> Result<(), NotStrict> {
        if depth > MAX_DEPTH {
            return Err(not(ptr, format!("strict mode allows at most {MAX_DEPTH} levels of nested objects")));
        }
        if m.get("additionalProperties") != Some(&Value::Bool(false)) {
            return Err(not(ptr, "every object needs \"additionalProperties\": false in strict mode"));
        }
        let empty = Map::new();
        let props = match m.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => return Err(not(ptr, "`properties` must be an object")),
        };
        let required: Vec<&str> = match m.get("required") {
            None => Vec::new(),
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            Some(_) => return Err(not(ptr, "`required` must be an array")),
        };
        if let Some(k) = props.keys().find(|k| !required.contains(&k.as_str())) {
            return Err(not(
                ptr,
                format!(
                    "property {} is not in `required`; strict mode needs every property there \
                     (an optional one is written as required with a type that allows null)",
                    Value::String(k.clone())
                ),
            ));
        }
        self.properties += props.len();
        if self.properties > MAX_PROPERTIES {
            return Err(not(ptr, format!("strict mode allows at most {MAX_PROPERTIES} properties in all")));
        }
        for (k, p) in props {
            self.node(p, &format!("{ptr}/properties/{}", escape(k)), depth + 1)?;
        }
        Ok(())
    }
}
