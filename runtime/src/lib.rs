//! # toolgate
//!
//! Gates between a language model's tool calls and your code. The [`tool_schema!`] macro reads a
//! tool's JSON Schema (draft 2020-12, or draft-07) at compile time and generates a typed argument
//! struct plus a specialised validator; every generated type implements [`Tool`].
//!
//! ```
//! use toolgate::{tool_schema, Tool};
//!
//! tool_schema! {
//!     /// Convert a value between two units of the same kind.
//!     pub struct ConvertUnits = {
//!         "type": "object",
//!         "properties": {
//!             "value": {"type": "number", "minimum": -1000000, "maximum": 1000000},
//!             "from_unit": {"enum": ["m", "km", "g", "kg"]},
//!             "to_unit": {"enum": ["m", "km", "g", "kg"]}
//!         },
//!         "required": ["value", "from_unit", "to_unit"],
//!         "additionalProperties": false
//!     };
//! }
//!
//! let call = ConvertUnits::from_json(r#"{"value": 5, "from_unit": "km", "to_unit": "m"}"#).unwrap();
//! assert_eq!(call.from_unit, ConvertUnitsFromUnit::Km);
//!
//! let err = ConvertUnits::from_json(r#"{"value": "five", "from_unit": "km"}"#).unwrap_err();
//! assert_eq!(err.to_string(), "/value: expected number, found string \"five\"\n/to_unit: required property is missing");
//! ```
//!
//! A keyword the compiler cannot enforce exactly is a compile error that points at it.
//!
//! Reply text is untrusted: every parse is bounded by [`Limits`] (bytes and nesting depth), and no
//! input reaches a panic (the lints below deny `unwrap`, `expect`, `panic!` and unchecked indexing
//! outside tests; the generated code is checked for the same constructs).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic, clippy::unreachable)
)]

mod build;
mod format;
pub mod gate;
mod instance;
mod json;
mod limits;
mod num;
mod pattern;
pub mod report;
pub mod stream;
mod text;
mod violation;

pub use gate::{Gate, Toolbox};
pub use json::{parse, parse_with};
pub use limits::{LimitExceeded, Limits};
pub use report::{Collect, First, Path, Sink, Verdict};
pub use stream::{partial_value, Dead, PartialValue, Progress, Stream, TextStream, TokenMask, Vocabulary};
pub use violation::{Error, Found, JsonType, TypeSet, Violation, ViolationKind, Violations};

use serde_json::Value;

/// A tool whose arguments are described by a JSON Schema; implemented by [`tool_schema!`].
///
/// The only ways to get a value of an implementing type from data go through its validator:
/// [`Tool::from_value`], [`Tool::from_json`] and its `serde::Deserialize` impl.
pub trait Tool: Sized {
    /// The tool's name (the struct name in `snake_case`, or `#[tool(name = "...")]`).
    const NAME: &'static str;
    /// The doc comment, else the schema's `description`, else empty.
    const DESCRIPTION: &'static str;
    /// The schema as compact JSON text: exactly what is advertised and enforced.
    const SCHEMA: &'static str;

    /// Walk `value` once and report every violation to `sink`, which may stop the walk early.
    fn check<S: Sink>(value: &Value, sink: &mut S);

    /// Build the typed value from an instance that the validator accepted: a parsed value
    /// ([`build::ValueSource`]) or reply text ([`text::Scanner`]).
    #[doc(hidden)]
    fn __build<R: build::Source>(source: &mut R) -> Option<Self>;

    /// Whether `value` is valid. Allocates nothing and stops at the first violation.
    fn is_valid(value: &Value) -> bool {
        let mut v = Verdict::new();
        Self::check(value, &mut v);
        v.valid
    }

    /// Every violation of `value`, with its pointer, or `Ok(())`.
    ///
    /// # Errors
    /// The violations, in schema order then instance order.
    fn validate(value: &Value) -> Result<(), Violations> {
        let mut c = Collect::default();
        Self::check(value, &mut c);
        if c.0.is_empty() {
            Ok(())
        } else {
            Err(c.into_violations())
        }
    }

    /// Validate `value`, then build the typed value.
    ///
    /// # Errors
    /// Every violation of `value`.
    fn from_value(value: &Value) -> Result<Self, Violations> {
        // The verdict first (cheap, allocation-free); the violations only for an invalid value.
        if !Self::is_valid(value) {
            Self::validate(value)?;
        }
        Self::__build(&mut build::ValueSource(value)).ok_or_else(|| {
            // Unreachable for the generated types (their shape follows from the schema); kept as an
            // error rather than a panic so that no input can crash the caller.
            Violations::new(vec![Violation {
                pointer: String::new(),
                kind: ViolationKind::Type { expected: TypeSet::EMPTY, found: Found::of(value) },
            }])
        })
    }

    /// Parse `text` strictly (see [`parse`]), validate, and build the typed value, within
    /// [`Limits::DEFAULT`] (no byte limit, at most 127 nested arrays and objects).
    ///
    /// # Errors
    /// [`Error::Syntax`] when the text is not one JSON value, [`Error::Limit`] when it nests too
    /// deeply, [`Error::Invalid`] with every violation otherwise.
    fn from_json(text: &str) -> Result<Self, Error> {
        // One pass over the text validates and builds (see `Tool::__parse`); only text that is
        // not valid is parsed into a `Value`, for the syntax error or every violation.
        let mut sc = text::Scanner::new(text);
        sc.ws();
        let parsed = Self::__parse(&mut sc);
        sc.ws();
        match parsed {
            Ok(built) if sc.at_end() => Ok(built),
            _ => {
                // Not valid: every violation from the `&Value` validator (the same list, in the
                // same order, as `check_json` reports from the text, and faster to find on a
                // parsed value than by re-reading the text), or the syntax error from `parse`.
                // Text that the strict syntax scan accepts is parsed by serde_json's own parser,
                // which then builds the same value faster. Should the paths disagree, the
                // `&Value` path decides.
                if text::is_json(text) {
                    if let Ok(v) = serde_json::from_str::<Value>(text) {
                        return Ok(Self::from_value(&v)?);
                    }
                }
                let v = parse(text)?;
                Ok(Self::from_value(&v)?)
            }
        }
    }

    /// [`Tool::from_json`] within `limits`: text longer than [`Limits::max_bytes`] is refused before
    /// it is read, text nested deeper than [`Limits::max_depth`] as soon as the parser gets there.
    ///
    /// ```
    /// use toolgate::{Error, LimitExceeded, Limits, Tool};
    ///
    /// toolgate::tool_schema! {
    ///     /// Anything at all.
    ///     pub struct Anything = {};
    /// }
    ///
    /// let limits = Limits::DEFAULT.with_max_bytes(1_000).with_max_depth(8);
    /// assert!(Anything::from_json_with("[[[1]]]", &limits).is_ok());
    /// let deep = format!("{}{}", "[".repeat(9), "]".repeat(9));
    /// let err = Anything::from_json_with(&deep, &limits).unwrap_err();
    /// assert!(matches!(err, Error::Limit(LimitExceeded::Depth { limit: 8, .. })), "{err}");
    /// let long = format!("\"{}\"", "x".repeat(1_000));
    /// let err = Anything::from_json_with(&long, &limits).unwrap_err();
    /// assert_eq!(err.to_string(), "too long: 1002 bytes, the limit is 1000 bytes");
    /// ```
    ///
    /// # Errors
    /// [`Error::Limit`] naming the limit, otherwise as [`Tool::from_json`].
    fn from_json_with(text: &str, limits: &Limits) -> Result<Self, Error> {
        limits.check_bytes(text).map_err(Error::Limit)?;
        if limits.depth() >= Limits::MAX_DEPTH {
            // The text scanner and `parse` stop at this depth already.
            return Self::from_json(text);
        }
        let v = parse_with(text, limits)?;
        Ok(Self::from_value(&v)?)
    }

    /// Whether `text` is one valid JSON instance: decided straight from the text in one pass,
    /// without building a `Value`, and without allocating (as strict as [`parse`]).
    fn is_valid_json(text: &str) -> bool {
        text::scan(text, Self::__scan) == text::Outcome::Valid
    }

    /// Check reply text against the schema without building a `Value`, reporting every violation
    /// to `sink` in the order [`Tool::check`] reports them. With [`Verdict`] (or any sink, on valid
    /// text) this allocates nothing; [`First`] and [`Collect`] allocate only what they record.
    ///
    /// # Errors
    /// [`Error::Syntax`] (and nothing in `sink`) when `text` is not one JSON value as [`parse`]
    /// accepts it: that one error is the only allocation on input that is not JSON.
    fn check_json<S: Sink>(text: &str, sink: &mut S) -> Result<(), Error> {
        text::check_text(text, sink, Self::__scan, Self::__report::<S>, Self::check::<S>)
    }

    /// Generated: scan one value of reply text, deciding valid/invalid in one pass.
    #[doc(hidden)]
    fn __scan(sc: &mut __private::Scanner<'_>) -> __private::Step;

    /// Generated where the schema allows it: read one value of reply text, validating it as
    /// [`Tool::__scan`] does, and build the typed value in the same pass. The default scans, then
    /// builds from the same text.
    ///
    /// # Errors
    /// [`__private::Halt`] as [`Tool::__scan`] gives it.
    #[doc(hidden)]
    fn __parse(sc: &mut __private::Scanner<'_>) -> Result<Self, __private::Halt> {
        let mut start = sc.clone();
        Self::__scan(sc)?;
        Self::__build(&mut start).ok_or(__private::Halt::Invalid)
    }

    /// Generated: report the violations of a value of well-formed text, in [`Tool::check`]'s order.
    #[doc(hidden)]
    fn __report<S: Sink>(value: __private::Span<'_>, at: &Path<'_>, sink: &mut S) -> bool;

    /// Generated: the prefix automaton's state, sized for this schema.
    #[doc(hidden)]
    type __Automaton: stream::Automaton;

    /// Generated: the stream's first reader (the quick reader, or the flat reader of a flat
    /// tool), in front of its automaton.
    #[doc(hidden)]
    type __Reader: stream::Reader;

    /// Generated: the schema's tables for the prefix automaton.
    #[doc(hidden)]
    const __PROGRAM: &'static __private::Program;

    /// A streaming validator: feed the arguments' text as it arrives and learn, at the first byte
    /// after which no continuation can be valid, that the call is hopeless (see [`Stream`]).
    fn stream() -> Stream<Self> {
        Stream::new()
    }
}

/// Compile a tool's JSON Schema into a typed struct and an exact validator.
///
/// ```
/// toolgate::tool_schema! {
///     /// Look up the latest price of a listed stock.
///     #[tool(name = "lookup_stock")]
///     pub struct LookupStock = {
///         "type": "object",
///         "properties": {"ticker": {"type": "string", "minLength": 1, "maxLength": 5}},
///         "required": ["ticker"],
///         "additionalProperties": false
///     };
/// }
/// ```
///
/// The schema is inline JSON, or a path to a JSON file relative to `CARGO_MANIFEST_DIR`
/// (`pub struct LookupStock = "schemas/lookup_stock.json";`). See the crate README for the
/// typed mapping and the supported keywords; anything else is a compile error.
///
/// Options, in one `#[tool(...)]` attribute or several:
///
/// - `name = "..."`: the tool's name ([`Tool::NAME`]; by default the struct's name in
///   `snake_case`), 1 to 64 of `A-Za-z0-9_-`;
/// - `dialect = "draft-07"` (or `"2020-12"`, the default, `"draft-06"`, `"draft-04"`,
///   `"openapi-3.0"`): the dialect of a schema without `$schema`;
/// - `formats = assert`: `format` is checked (the formats the README lists; any other is
///   refused), instead of an annotation (`formats = annotate`, the default);
/// - `annotations = ["markdownDescription", ...]`: keys kept as annotations, asserting nothing
///   (any other unknown key is refused as a likely typo); a keyword of the schema's dialect
///   cannot be named, one of another dialect can (OpenAPI's `discriminator` beside draft
///   2020-12, as pydantic writes it).
#[macro_export]
macro_rules! tool_schema {
    ($($input:tt)*) => {
        $crate::__private::tool_schema_impl! { [$crate] $($input)* }
    };
}

/// Support for the generated code. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__impl_schemars;
    pub use crate::build::{num_f64, num_i64, num_u64, Source, ValueSource};
    pub use crate::format::format_matches;
    pub use crate::instance::{
        check_closed, check_required, check_type, fail_additional, fail_required, sval_eq, Instance, Text,
    };
    pub use crate::json::{all_unique, first_duplicate, json_eq, StrictValue};
    pub use crate::num::{cmp_limit, is_integer, multiple_of, to_i64, to_u64, Decimal, Limit};
    pub use crate::pattern::Pattern;
    pub use crate::stream::bounds::{Bound as StreamBound, Multiple as StreamMultiple};
    pub use crate::stream::flat::{
        free_number as flat_free_number, rule as flat_rule, scan_span as flat_scan_span, Array as FlatArray,
        Branch as FlatBranch, FlatReader, FlatSpec, Frame as FlatFrame, Object as FlatObject, Start as FlatStart,
        NONE as FLAT_NONE,
    };
    pub use crate::stream::lean::Lean;
    pub use crate::stream::machine::{in_bounds as stream_in_bounds, Machine};
    pub use crate::stream::members::NumMember;
    pub use crate::stream::program::{
        scan_never as stream_scan_never, scan_number_is as stream_scan_number_is, shape as stream_shape,
        Node as StreamNode, Program, Tagged as StreamTagged, NONE,
    };
    pub use crate::stream::quick::Quick;
    pub use crate::stream::Automaton as StreamAutomaton;
    use crate::{Collect, Path, Violation};

    /// The tables of a tool whose schema did not compile (the skeleton's).
    pub static EMPTY_PROGRAM: Program = Program { nodes: &[], root: NONE, never: false, decides: false };
    pub use crate::text::{is_json, Halt, Keys, Kind, Num, SVal, Scanner, Span, Step, Str, Unique};
    pub use ::core::borrow::Borrow;
    pub use ::std::boxed::Box;
    pub use serde;
    pub use serde_json;
    pub use toolgate_macros::tool_schema_impl;

    /// The number of Unicode code points in `s` (JSON Schema's string length).
    #[inline]
    #[must_use]
    pub fn char_len(s: &str) -> u64 {
        s.chars().count() as u64
    }

    /// Whether `s` has at least `limit` Unicode code points (`minLength`); counts them only when
    /// the byte length does not decide.
    #[inline]
    #[must_use]
    pub fn min_chars(s: &str, limit: u64) -> bool {
        let bytes = s.len() as u64;
        bytes >= limit && (bytes >= limit.saturating_mul(4) || char_len(s) >= limit)
    }

    /// Whether `s` has at most `limit` Unicode code points (`maxLength`); counts them only when
    /// the byte length does not decide.
    #[inline]
    #[must_use]
    pub fn max_chars(s: &str, limit: u64) -> bool {
        s.len() as u64 <= limit || char_len(s) <= limit
    }

    /// The first violation of a value of reply text that a subschema's scan rejected (for the
    /// streaming validator's explanation, built once the stream is dead): the text is parsed and
    /// `check` is the subschema's validator on a `&Value` with [`Collect`], the instance and
    /// sink that [`crate::Tool::validate`] uses, so that both share one copy of the generated code.
    #[must_use]
    pub fn explain(
        v: Span<'_>,
        check: impl FnOnce(&serde_json::Value, &Path<'_>, &mut Collect) -> bool,
    ) -> Option<Violation> {
        let value = serde_json::from_str::<serde_json::Value>(v.as_str()).ok()?;
        let mut c = Collect::default();
        let _ = check(&value, &Path::ROOT, &mut c);
        c.0.into_iter().next()
    }

    /// Mark bit `bit` of word `w` of an object's seen-names bitset: a duplicate key (the bit
    /// already set) is a syntax error.
    ///
    /// # Errors
    /// [`Halt::Syntax`] when the bit was set.
    #[inline]
    pub fn mark(seen: &mut [u64], w: usize, bit: u64) -> Step {
        if let Some(x) = seen.get_mut(w) {
            if *x & bit != 0 {
                return Err(Halt::Syntax);
            }
            *x |= bit;
        }
        Ok(())
    }

    /// A value the builder made, or `Halt::Invalid` (unreachable for text the scan accepted).
    ///
    /// # Errors
    /// [`Halt::Invalid`] for `None`.
    #[inline]
    pub fn built<T>(value: Option<T>) -> Result<T, Halt> {
        value.ok_or(Halt::Invalid)
    }

    /// `usize` to `u64` without a cast lint.
    #[inline]
    #[must_use]
    pub fn len64(n: usize) -> u64 {
        n as u64
    }
}
