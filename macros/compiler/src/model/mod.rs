//! The intermediate representation: one node per subschema, with its location and pointer.
//! Codegen reads only this.

pub mod share;
pub mod types;

use crate::json::{JsonValue, Loc, Num};

/// Index of a node in [`Ir::nodes`].
pub type NodeId = usize;

/// Which dialect's meaning applies: a JSON Schema draft, or OpenAPI 3.0's Schema Object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    /// JSON Schema draft 2020-12 (the default).
    Draft2020_12,
    /// JSON Schema draft-07 (what MCP servers and zod-to-json-schema declare).
    Draft07,
    /// JSON Schema draft-06.
    Draft06,
    /// JSON Schema draft-04 (older MCP servers, many general-purpose schemas).
    Draft04,
    /// OpenAPI 3.0's Schema Object (a draft-04 subset with `nullable`), by explicit choice only.
    OpenApi30,
}

impl Draft {
    /// The dialect's name in messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Draft2020_12 => "draft 2020-12",
            Self::Draft07 => "draft-07",
            Self::Draft06 => "draft-06",
            Self::Draft04 => "draft-04",
            Self::OpenApi30 => "OpenAPI 3.0",
        }
    }

    /// The name accepted by `#[tool(dialect = "...")]`.
    #[must_use]
    pub const fn option_name(self) -> &'static str {
        match self {
            Self::Draft2020_12 => "2020-12",
            Self::Draft07 => "draft-07",
            Self::Draft06 => "draft-06",
            Self::Draft04 => "draft-04",
            Self::OpenApi30 => "openapi-3.0",
        }
    }

    /// Every dialect, newest first.
    pub const ALL: [Self; 5] = [Self::Draft2020_12, Self::Draft07, Self::Draft06, Self::Draft04, Self::OpenApi30];

    /// A draft before 2019-09 (or OpenAPI 3.0): `$ref` overrides its siblings, `items` may be a
    /// tuple (not in OpenAPI), `#name` identifiers are anchors.
    #[must_use]
    pub const fn legacy(self) -> bool {
        !matches!(self, Self::Draft2020_12)
    }

    /// `exclusiveMinimum`/`exclusiveMaximum` are booleans modifying `minimum`/`maximum`.
    #[must_use]
    pub const fn boolean_exclusive_bounds(self) -> bool {
        matches!(self, Self::Draft04 | Self::OpenApi30)
    }

    /// `true` and `false` are schemas anywhere (draft-06 on), not only as the value of
    /// `additionalProperties`/`additionalItems`.
    #[must_use]
    pub const fn boolean_schemas(self) -> bool {
        !matches!(self, Self::Draft04 | Self::OpenApi30)
    }

    /// The keyword that sets a schema's identifier: `id` in draft-04, `$id` after, none in
    /// OpenAPI 3.0.
    #[must_use]
    pub const fn id_keyword(self) -> &'static str {
        match self {
            Self::Draft04 => "id",
            Self::OpenApi30 => "",
            _ => "$id",
        }
    }
}

/// A compiled schema.
#[derive(Debug, Clone)]
pub struct Ir {
    /// every subschema, the root first
    pub nodes: Vec<Node>,
    /// the root
    pub root: NodeId,
    /// the declared draft
    pub draft: Draft,
    /// returned by [`Ir::node`] for an id that does not exist (never, by construction)
    pub fallback: Node,
    /// for each node, the first node that checks exactly the same (itself if none does): the
    /// validation code of a node is generated once and shared (see [`share::canonical`])
    pub canon: Vec<NodeId>,
    /// for each node, whether other nodes use its validation functions
    pub shared: Vec<bool>,
}

impl Ir {
    /// The node `id`.
    ///
    /// Node ids are only created by lowering, which pushes the node first, so the lookup cannot
    /// miss; a default node is returned rather than panicking if it ever did.
    #[must_use]
    pub fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&self.fallback)
    }

    /// Whether other nodes use node `id`'s validation functions.
    #[must_use]
    pub fn is_shared(&self, id: NodeId) -> bool {
        self.shared.get(id).copied().unwrap_or(false)
    }

    /// The node whose validation functions node `id` uses: the first that checks the same.
    #[must_use]
    pub fn canon(&self, id: NodeId) -> NodeId {
        self.canon.get(id).copied().unwrap_or(id)
    }
}

/// One subschema.
#[derive(Debug, Clone)]
pub struct Node {
    /// JSON Pointer of the subschema in the schema document
    pub pointer: String,
    /// where it is written
    pub loc: Option<Loc>,
    /// what it checks
    pub body: Body,
    /// `title` annotation
    pub title: Option<String>,
    /// `description` annotation
    pub description: Option<String>,
}

/// What a subschema checks.
#[derive(Debug, Clone)]
pub enum Body {
    /// `true` or `{}`: everything is valid
    Always,
    /// `false`: nothing is valid
    Never,
    /// assertions
    Checks(Box<Checks>),
}

/// A keyword value and where its key is written.
#[derive(Debug, Clone)]
pub struct Kw<T> {
    /// the value
    pub value: T,
    /// the key's location
    pub loc: Loc,
}

/// A JSON type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum JsonType {
    /// null
    Null,
    /// boolean
    Boolean,
    /// integer
    Integer,
    /// number
    Number,
    /// string
    String,
    /// array
    Array,
    /// object
    Object,
}

impl JsonType {
    /// Every type, in JSON Schema's order.
    pub const ALL: [Self; 7] =
        [Self::Null, Self::Boolean, Self::Integer, Self::Number, Self::String, Self::Array, Self::Object];

    /// The name used by `type`.
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

    /// The type named `s`.
    #[must_use]
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Whether a schema value of this JSON shape has type `self` (integers are numbers).
    #[must_use]
    pub fn matches(self, v: &JsonValue) -> bool {
        match (self, v) {
            (Self::Null, JsonValue::Null)
            | (Self::Boolean, JsonValue::Bool(_))
            | (Self::Number, JsonValue::Number(_))
            | (Self::String, JsonValue::String(_))
            | (Self::Array, JsonValue::Array(_))
            | (Self::Object, JsonValue::Object(_)) => true,
            (Self::Integer, JsonValue::Number(n)) => n.is_integer(),
            _ => false,
        }
    }
}

/// A property declared by `properties`.
#[derive(Debug, Clone)]
pub struct Property {
    /// the JSON name
    pub name: String,
    /// its schema
    pub node: NodeId,
    /// where the name is written
    pub loc: Loc,
}

/// The assertions of one subschema (draft 2020-12 meaning).
#[derive(Debug, Clone, Default)]
pub struct Checks {
    /// `type`, in the order written
    pub types: Option<Kw<Vec<JsonType>>>,
    /// `enum`: the values, each with its location
    pub enum_values: Option<Kw<Vec<(JsonValue, Loc)>>>,
    /// `const`
    pub const_value: Option<Kw<JsonValue>>,
    /// `properties`
    pub properties: Vec<Property>,
    /// `required`, each name with its location
    pub required: Vec<(String, Loc)>,
    /// `additionalProperties` (absent: every undeclared member is allowed)
    pub additional: Option<NodeId>,
    /// `items`
    pub items: Option<NodeId>,
    /// `minItems`
    pub min_items: Option<Kw<u64>>,
    /// `maxItems`
    pub max_items: Option<Kw<u64>>,
    /// `uniqueItems: true`
    pub unique_items: bool,
    /// `minLength`
    pub min_length: Option<Kw<u64>>,
    /// `maxLength`
    pub max_length: Option<Kw<u64>>,
    /// `minimum`
    pub minimum: Option<Kw<Num>>,
    /// `maximum`
    pub maximum: Option<Kw<Num>>,
    /// `exclusiveMinimum`
    pub exclusive_minimum: Option<Kw<Num>>,
    /// `exclusiveMaximum`
    pub exclusive_maximum: Option<Kw<Num>>,
    /// `multipleOf`
    pub multiple_of: Option<Kw<Num>>,
    /// `minProperties`
    pub min_properties: Option<Kw<u64>>,
    /// `maxProperties`
    pub max_properties: Option<Kw<u64>>,

    /// `$ref` (resolved to its target node), with the reference as written
    pub reference: Option<Kw<(String, NodeId)>>,
    /// `allOf`
    pub all_of: Vec<NodeId>,
    /// `anyOf`
    pub any_of: Vec<NodeId>,
    /// `oneOf`
    pub one_of: Vec<NodeId>,
    /// `not`
    pub not: Option<NodeId>,
    /// `if`
    pub if_: Option<NodeId>,
    /// `then` (only meaningful with `if`)
    pub then_: Option<NodeId>,
    /// `else` (only meaningful with `if`)
    pub else_: Option<NodeId>,
    /// `prefixItems`; `items` then applies after the prefix
    pub prefix_items: Vec<NodeId>,
    /// `contains`
    pub contains: Option<NodeId>,
    /// `minContains` (only meaningful with `contains`)
    pub min_contains: Option<Kw<u64>>,
    /// `maxContains` (only meaningful with `contains`)
    pub max_contains: Option<Kw<u64>>,
    /// `patternProperties`
    pub pattern_properties: Vec<(Pattern, NodeId)>,
    /// `propertyNames`
    pub property_names: Option<NodeId>,
    /// `dependentRequired` (draft-07: the array form of `dependencies`)
    pub dependent_required: Vec<(String, Vec<String>)>,
    /// `dependentSchemas` (draft-07: the schema form of `dependencies`)
    pub dependent_schemas: Vec<(String, NodeId)>,
    /// `unevaluatedProperties`
    pub unevaluated_properties: Option<NodeId>,
    /// `unevaluatedItems`
    pub unevaluated_items: Option<NodeId>,
    /// `pattern`
    pub pattern: Option<Pattern>,
    /// `format`, when asserted
    pub format: Option<Kw<String>>,
    /// with an asserted `format`, a regular language holding every string of it (see
    /// [`crate::lower::format::prefix_source`]): streams step it in place of a `pattern` the
    /// node does not have, to reject a string at the first character no string of the format
    /// continues
    pub format_prefix: Option<Pattern>,
    /// draft-07 `additionalItems`; lowering moves it to `items` when `items` is an array and
    /// drops it otherwise (as draft-07 ignores it then), so codegen never sees it
    pub additional_items: Option<NodeId>,
}

/// A regular expression from the schema, as written and translated to the Rust regex dialect.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// as written (ECMA-262)
    pub source: String,
    /// the same language in `regex-syntax` form
    pub translated: String,
    /// the unanchored DFA (matching anywhere)
    pub dfa: Dfa,
    /// When the pattern accepts exactly the strings of one length whose bytes are in given sets
    /// (`^[A-Z]{3}-[0-9]{4}$`: identifiers, codes, dates), those sets, one per byte of the
    /// subject, as inclusive ranges: a whole string is then checked with a slice pattern instead
    /// of stepping the DFA. Read off the DFA's table ([`crate::lower::regex::fixed`]).
    pub fixed: Option<Vec<Vec<(u8, u8)>>>,
    /// For the languages of the `time` and `date-time` formats, which let a leap second through
    /// at any minute: the byte at which the time begins (0 or 11), so that the runtime's
    /// stepping follows it and judges the leap second exactly (`Pattern::leap_seconds`).
    pub leap_seconds_at: Option<u8>,
}

/// A compiled `pattern`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dfa {
    /// A small DFA as a plain transition table, stepped by the runtime without any library.
    Table(DfaTable),
    /// A large DFA in regex-automata's sparse form (smaller than a table, slower to step),
    /// serialised in both byte orders.
    Sparse {
        /// little-endian serialisation
        little: Vec<u8>,
        /// big-endian serialisation
        big: Vec<u8>,
    },
}

/// A DFA as a table the runtime steps with one lookup per byte (`toolgate`'s `Pattern::table`).
///
/// States are numbered by kind, premultiplied by `stride` (the byte classes and one column for
/// the end of input): the dead state is 0, then the quit states (the DFA gave up) up to
/// `quit_end`, the match states up to `match_end`, the live states after them. A byte's next
/// state is `next[state + classes[byte]]`, the end of input's `next[state + stride - 1]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DfaTable {
    /// the equivalence class of each byte value
    pub classes: Vec<u8>,
    /// the transitions, row by row
    pub next: Vec<u16>,
    /// the columns of a row: the byte classes and the end of input
    pub stride: u16,
    /// where a search starts
    pub start: u16,
    /// the first state that is not dead or quit
    pub quit_end: u16,
    /// the first live state
    pub match_end: u16,
}

impl Checks {
    /// The subschemas applied to the same instance location ("in place").
    pub fn in_place(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.annotating().chain(self.not)
    }

    /// The subschemas applied in place whose annotations may count for `unevaluated*`: every
    /// one of [`Checks::in_place`] but `not`'s, whose annotations never do.
    pub fn annotating(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.reference
            .iter()
            .map(|r| r.value.1)
            .chain(self.all_of.iter().copied())
            .chain(self.any_of.iter().copied())
            .chain(self.one_of.iter().copied())
            .chain(self.if_)
            .chain(self.then_)
            .chain(self.else_)
            .chain(self.dependent_schemas.iter().map(|(_, n)| *n))
    }
}

impl Checks {
    /// The automaton a stream steps on a string's characters: the node's `pattern`, or where it
    /// has none, its asserted `format`'s ([`Checks::format_prefix`]). Its static is the node's
    /// pattern 0, before the `patternProperties`.
    #[must_use]
    pub fn stepped_pattern(&self) -> Option<&Pattern> {
        self.pattern.as_ref().or(self.format_prefix.as_ref())
    }

    /// The declared types, or `None` when `type` is absent.
    #[must_use]
    pub fn type_list(&self) -> Option<&[JsonType]> {
        self.types.as_ref().map(|t| t.value.as_slice())
    }

    /// Whether `type` is exactly `[t]`.
    #[must_use]
    pub fn is_only(&self, t: JsonType) -> bool {
        self.type_list() == Some(&[t][..])
    }

    /// Whether a keyword speaks of a number's value: a bound or `multipleOf`.
    #[must_use]
    pub fn number_keywords(&self) -> bool {
        self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
    }
}
