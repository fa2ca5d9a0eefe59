//! Violations: what an instance did wrong, where, and what was expected.

use std::fmt;

use serde_json::Value;

/// A JSON type as JSON Schema names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` or `false`
    Boolean,
    /// a number with no fractional part (`1` and `1.0`)
    Integer,
    /// any number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

impl JsonType {
    /// The name used by JSON Schema's `type` keyword.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Boolean => "boolean",
            Self::Integer => "integer",
            Self::Number => "number",
            Self::String => "string",
            Self::Array => "array",
            Self::Object => "object",
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Self::Null => 1,
            Self::Boolean => 2,
            Self::Integer => 4,
            Self::Number => 8,
            Self::String => 16,
            Self::Array => 32,
            Self::Object => 64,
        }
    }

    const ALL: [Self; 7] =
        [Self::Null, Self::Boolean, Self::Integer, Self::Number, Self::String, Self::Array, Self::Object];
}

impl fmt::Display for JsonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set of types a `type` keyword allows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TypeSet(u8);

impl TypeSet {
    /// The empty set.
    pub const EMPTY: Self = Self(0);

    /// This set with `ty` added.
    #[must_use]
    pub const fn with(self, ty: JsonType) -> Self {
        Self(self.0 | ty.bit())
    }

    /// Whether `ty` belongs to the set.
    #[must_use]
    pub const fn contains(self, ty: JsonType) -> bool {
        self.0 & ty.bit() != 0
    }

    /// The members, in JSON Schema's order.
    pub fn iter(self) -> impl Iterator<Item = JsonType> {
        JsonType::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl fmt::Debug for TypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for TypeSet {
    /// `number`, `string or null`, `integer, string or null`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.iter().count();
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == n { " or " } else { ", " })?;
            }
            f.write_str(t.name())?;
        }
        Ok(())
    }
}

/// What was found at the violating location: its type and, for scalars, a short rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The JSON type of the value (`number` for every number).
    pub ty: JsonType,
    /// The value as JSON text, shortened, for scalars; `None` for arrays and objects.
    pub text: Option<String>,
}

const FOUND_MAX: usize = 60;

impl Found {
    /// Describe a parsed value.
    #[must_use]
    pub fn of(value: &Value) -> Self {
        let (ty, text) = match value {
            Value::Null => (JsonType::Null, None),
            Value::Bool(b) => (JsonType::Boolean, Some(b.to_string())),
            Value::Number(n) => (JsonType::Number, Some(n.to_string())),
            Value::String(s) => return Self::string(s),
            Value::Array(_) => (JsonType::Array, None),
            Value::Object(_) => (JsonType::Object, None),
        };
        Self::new(ty, text)
    }

    /// Describe a string value: its JSON text, shortened as [`Found::new`] does. Only the
    /// characters that can be shown are escaped, so a long string costs no more than a short one.
    #[must_use]
    pub fn string(s: &str) -> Self {
        // `FOUND_MAX` characters of the string escape to at least that many, and with the quote
        // in front the shown part is the same as for the whole string.
        let shown = s.char_indices().nth(FOUND_MAX).map_or(s, |(i, _)| s.get(..i).unwrap_or(s));
        Self::new(JsonType::String, Some(Value::from(shown).to_string()))
    }

    /// Describe a value from its type and JSON text (shortened to a readable length).
    #[must_use]
    pub fn new(ty: JsonType, text: Option<String>) -> Self {
        let text = text.map(|t| {
            if t.chars().count() <= FOUND_MAX {
                t
            } else {
                let mut s: String = t.chars().take(FOUND_MAX).collect();
                s.push('…');
                s
            }
        });
        Self { ty, text }
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(t) => write!(f, "{} {}", self.ty, t),
            None => write!(f, "{}", self.ty),
        }
    }
}

/// What a violation is about, with the data a reader (or a model) needs to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// `type`: the value has a type outside the allowed set.
    Type {
        /// the allowed types
        expected: TypeSet,
        /// what was there
        found: Found,
    },
    /// `enum`: the value is none of the listed values.
    Enum {
        /// the listed values as JSON text, e.g. `["m","km"]`
        expected: &'static str,
        /// what was there
        found: Found,
    },
    /// `const`: the value differs from the one allowed value.
    Const {
        /// the allowed value as JSON text
        expected: &'static str,
        /// what was there
        found: Found,
    },
    /// `required`: a required property is absent (the pointer names the property).
    Required {
        /// the missing property's name
        property: String,
    },
    /// `additionalProperties: false`: a property the schema does not declare (the pointer names it).
    AdditionalProperty {
        /// the undeclared property's name
        property: String,
    },
    /// A property whose schema no value satisfies (`false` in `properties` or
    /// `patternProperties`, or a declared property's subschema whose applicators leave nothing,
    /// as `{"not": {}}`): it may not be present, whatever its value (the pointer names it). A
    /// stream says so where the key closes; the validation of a whole value reports the
    /// violation on its value ([`ViolationKind::False`] for `false`).
    ForbiddenProperty {
        /// the property's name
        property: String,
    },
    /// An item where the schema allows no value: past `prefixItems` under `items: false`, or
    /// where `items` or a `prefixItems` entry is a subschema no value satisfies (the pointer
    /// names its index). A stream says so at the `,` that promises it; the validation of a whole
    /// value reports the violation on the item itself ([`ViolationKind::False`] for `false`).
    ForbiddenItem {
        /// the item's index
        index: u64,
    },
    /// `minimum` / `exclusiveMinimum`.
    Minimum {
        /// the limit as written in the schema
        limit: &'static str,
        /// `true` for `exclusiveMinimum`
        exclusive: bool,
        /// what was there
        found: Found,
    },
    /// `maximum` / `exclusiveMaximum`.
    Maximum {
        /// the limit as written in the schema
        limit: &'static str,
        /// `true` for `exclusiveMaximum`
        exclusive: bool,
        /// what was there
        found: Found,
    },
    /// `multipleOf`.
    MultipleOf {
        /// the divisor as written in the schema
        divisor: &'static str,
        /// what was there
        found: Found,
    },
    /// `minLength` (in Unicode code points).
    MinLength {
        /// the limit
        limit: u64,
        /// the string's length in code points
        length: u64,
    },
    /// `maxLength` (in Unicode code points).
    MaxLength {
        /// the limit
        limit: u64,
        /// the string's length in code points
        length: u64,
    },
    /// `minItems`.
    MinItems {
        /// the limit
        limit: u64,
        /// the array's length
        count: u64,
    },
    /// `maxItems`.
    MaxItems {
        /// the limit
        limit: u64,
        /// the array's length
        count: u64,
    },
    /// `uniqueItems`: two items are equal (as JSON values).
    UniqueItems {
        /// index of the first of the two equal items
        first: u64,
        /// index of the second
        second: u64,
    },
    /// `minProperties`.
    MinProperties {
        /// the limit
        limit: u64,
        /// the object's number of members
        count: u64,
    },
    /// `maxProperties`.
    MaxProperties {
        /// the limit
        limit: u64,
        /// the object's number of members
        count: u64,
    },
    /// The schema `false`: no value is allowed here.
    False {
        /// what was there
        found: Found,
    },
    /// `anyOf`: no alternative matched.
    AnyOf {
        /// how many alternatives there are
        alternatives: u64,
    },
    /// `oneOf`: not exactly one alternative matched.
    OneOf {
        /// how many alternatives there are
        alternatives: u64,
        /// how many matched (0, or 2 and more)
        matched: u64,
    },
    /// `not`: the value matched the schema it must not match.
    Not,
    /// `contains` (with `minContains` / `maxContains`): too few or too many matching items.
    Contains {
        /// the least number of matching items
        min: u64,
        /// the greatest number of matching items, if bounded
        max: Option<u64>,
        /// how many items matched
        count: u64,
    },
    /// `dependentRequired`: a property requires another that is absent (the pointer names the
    /// absent one).
    DependentRequired {
        /// the present property that requires the other
        property: String,
        /// the absent property
        missing: String,
    },
    /// `propertyNames`: a property name does not match the schema for names (the pointer names the
    /// property).
    PropertyName {
        /// the property name
        property: String,
    },
    /// `unevaluatedProperties: false`: a property no other keyword evaluated.
    UnevaluatedProperty {
        /// the property's name
        property: String,
    },
    /// `unevaluatedItems: false`: an item no other keyword evaluated.
    UnevaluatedItem {
        /// the item's index
        index: u64,
    },
    /// `pattern`: the string does not match the regular expression.
    Pattern {
        /// the pattern as written in the schema
        pattern: &'static str,
        /// what was there
        found: Found,
    },
    /// `format` (when asserted): the string is not of the format.
    Format {
        /// the format name
        format: &'static str,
        /// what was there
        found: Found,
    },
}

impl ViolationKind {
    /// The JSON Schema keyword that was violated.
    #[must_use]
    pub const fn keyword(&self) -> &'static str {
        match self {
            Self::Type { .. } => "type",
            Self::Enum { .. } => "enum",
            Self::Const { .. } => "const",
            Self::Required { .. } => "required",
            Self::AdditionalProperty { .. } => "additionalProperties",
            Self::ForbiddenProperty { .. } | Self::ForbiddenItem { .. } => "false",
            Self::Minimum { exclusive: false, .. } => "minimum",
            Self::Minimum { exclusive: true, .. } => "exclusiveMinimum",
            Self::Maximum { exclusive: false, .. } => "maximum",
            Self::Maximum { exclusive: true, .. } => "exclusiveMaximum",
            Self::MultipleOf { .. } => "multipleOf",
            Self::MinLength { .. } => "minLength",
            Self::MaxLength { .. } => "maxLength",
            Self::MinItems { .. } => "minItems",
            Self::MaxItems { .. } => "maxItems",
            Self::UniqueItems { .. } => "uniqueItems",
            Self::MinProperties { .. } => "minProperties",
            Self::MaxProperties { .. } => "maxProperties",
            Self::False { .. } => "false",
            Self::AnyOf { .. } => "anyOf",
            Self::OneOf { .. } => "oneOf",
            Self::Not => "not",
            Self::Contains { .. } => "contains",
            Self::DependentRequired { .. } => "dependentRequired",
            Self::PropertyName { .. } => "propertyNames",
            Self::UnevaluatedProperty { .. } => "unevaluatedProperties",
            Self::UnevaluatedItem { .. } => "unevaluatedItems",
            Self::Pattern { .. } => "pattern",
            Self::Format { .. } => "format",
        }
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Type { expected, found } => write!(f, "expected {expected}, found {found}"),
            Self::Enum { expected, found } => write!(f, "expected one of {expected}, found {found}"),
            Self::Const { expected, found } => write!(f, "expected exactly {expected}, found {found}"),
            Self::Required { .. } => f.write_str("required property is missing"),
            Self::AdditionalProperty { .. } => {
                f.write_str("unexpected property: the schema allows no other properties here")
            }
            Self::ForbiddenProperty { .. } => f.write_str("forbidden property: the schema allows no value for it"),
            Self::ForbiddenItem { index } => {
                write!(f, "unexpected item {index}: the schema allows no value for it (no more items here)")
            }
            Self::Minimum { limit, exclusive, found } => {
                let op = if *exclusive { "greater than" } else { "at least" };
                write!(f, "expected a number {op} {limit}, found {found}")
            }
            Self::Maximum { limit, exclusive, found } => {
                let op = if *exclusive { "less than" } else { "at most" };
                write!(f, "expected a number {op} {limit} (maximum), found {found}")
            }
            Self::MultipleOf { divisor, found } => {
                write!(f, "expected a multiple of {divisor}, found {found}")
            }
            Self::MinLength { limit, length } => write!(
                f,
                "expected a string of at least {}, found {}",
                plural(*limit, "character", "characters"),
                plural(*length, "character", "characters")
            ),
            Self::MaxLength { limit, length } => write!(
                f,
                "expected a string of at most {}, found {}",
                plural(*limit, "character", "characters"),
                plural(*length, "character", "characters")
            ),
            Self::MinItems { limit, count } => write!(
                f,
                "expected an array of at least {}, found {}",
                plural(*limit, "item", "items"),
                plural(*count, "item", "items")
            ),
            Self::MaxItems { limit, count } => write!(
                f,
                "expected an array of at most {}, found {}",
                plural(*limit, "item", "items"),
                plural(*count, "item", "items")
            ),
            Self::UniqueItems { first, second } => {
                write!(f, "expected unique items, found item {second} equal to item {first}")
            }
            Self::MinProperties { limit, count } => write!(
                f,
                "expected an object with at least {}, found {}",
                plural(*limit, "property", "properties"),
                plural(*count, "property", "properties")
            ),
            Self::MaxProperties { limit, count } => write!(
                f,
                "expected an object with at most {}, found {}",
                plural(*limit, "property", "properties"),
                plural(*count, "property", "properties")
            ),
            Self::False { found } => write!(f, "no value is allowed here, found {found}"),
            Self::AnyOf { alternatives } => {
                write!(
                    f,
                    "expected a value matching at least one of the {alternatives} alternatives (anyOf), matched none"
                )
            }
            Self::OneOf { alternatives, matched } => write!(
                f,
                "expected a value matching exactly one of the {alternatives} alternatives (oneOf), matched {matched}"
            ),
            Self::Not => f.write_str("the value matches a schema it must not match (not)"),
            Self::Contains { min, max, count } => match max {
                Some(max) => write!(f, "expected between {min} and {max} items matching `contains`, found {count}"),
                None => {
                    write!(f, "expected at least {} matching `contains`, found {count}", plural(*min, "item", "items"))
                }
            },
            Self::DependentRequired { property, .. } => {
                write!(f, "required property is missing (required when {property:?} is present)")
            }
            Self::PropertyName { property } => {
                write!(f, "property name {:?} is not allowed (propertyNames)", property)
            }
            Self::UnevaluatedProperty { .. } => {
                f.write_str("unexpected property: the schema allows no other properties here")
            }
            Self::UnevaluatedItem { index } => {
                write!(f, "unexpected item {index}: the schema allows no other items here")
            }
            Self::Pattern { pattern, found } => write!(f, "expected a string matching /{pattern}/, found {found}"),
            Self::Format { format, found } => write!(f, "expected a string in {format} format, found {found}"),
        }
    }
}

/// One violation: where in the instance (an RFC 6901 JSON Pointer) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The instance location, e.g. `/options/follow_symlinks`; `""` is the whole instance.
    /// For `required` and `additionalProperties` it names the property itself.
    pub pointer: String,
    /// What is wrong, with expected and found data.
    pub kind: ViolationKind,
}

impl Violation {
    /// The JSON Schema keyword that was violated.
    #[must_use]
    pub const fn keyword(&self) -> &'static str {
        self.kind.keyword()
    }
}

impl fmt::Display for Violation {
    /// `/value: expected number, found string "five"`; the whole instance is shown as `(root)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "(root): {}", self.kind)
        } else {
            write!(f, "{}: {}", self.pointer, self.kind)
        }
    }
}

impl std::error::Error for Violation {}

/// Every violation of one instance, in a deterministic order (schema order, then instance order).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// Wrap a list.
    #[must_use]
    pub fn new(list: Vec<Violation>) -> Self {
        Self(list)
    }

    /// The violations, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.0.iter()
    }

    /// How many.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The violations as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Violation] {
        &self.0
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Violations {
    /// One violation per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// Why text could not become a typed value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The text is not one JSON value (syntax, NaN, trailing text, duplicate key).
    Syntax {
        /// what the parser said
        message: String,
        /// 1-based line of the problem
        line: usize,
        /// 1-based column of the problem
        column: usize,
    },
    /// The JSON is well-formed but violates the schema.
    Invalid(Violations),
    /// The text exceeds a [`crate::Limits`] limit (too long, or nested too deeply); it was not
    /// parsed further.
    Limit(crate::LimitExceeded),
}

impl Error {
    /// The violations, if the error is a schema violation.
    #[must_use]
    pub fn violations(&self) -> Option<&Violations> {
        match self {
            Self::Invalid(v) => Some(v),
            Self::Syntax { .. } | Self::Limit(_) => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { message, .. } => write!(f, "not JSON: {message}"),
            Self::Invalid(v) => write!(f, "{v}"),
            Self::Limit(l) => write!(f, "{l}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<Violations> for Error {
    fn from(v: Violations) -> Self {
        Self::Invalid(v)
    }
}

#[cfg(test)]
mod tests {
    use super::{Found, JsonType, FOUND_MAX};
    use serde_json::Value;

    /// A string is shown as the whole string's JSON text shortened, whatever its length and
    /// escapes, though only its first characters are escaped.
    #[test]
    fn a_string_found_is_its_shortened_json_text() {
        for unit in ["a", "\"", "\n", "é", "\u{1}", "𝄞", "ab\\"] {
            for n in 0..=2 * FOUND_MAX {
                let s = unit.repeat(n);
                let whole = Found::new(JsonType::String, Some(Value::String(s.clone()).to_string()));
                assert_eq!(Found::string(&s), whole, "{n} × {unit:?}");
                assert_eq!(Found::of(&Value::String(s)), whole);
            }
        }
    }
}
