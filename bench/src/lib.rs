//! Shared definitions for the benchmarks: the five schemas compiled by toolgate, by jsonschema's
//! `#[jsonschema::validator]` macro and by its runtime validator, plain `serde` structs with
//! borrowed fields for the same shapes, and the instances (valid, and three kinds of invalid).
//!
//! The schemas live in `schemas/*.json` so that every competitor reads the very same text.

#![allow(missing_docs, clippy::pedantic)]

use serde::Deserialize;
use toolgate::tool_schema;

pub mod hand;

tool_schema! {
    /// `convert_units`, as in the README.
    pub struct ConvertUnits = "schemas/convert_units.json";
}
tool_schema! {
    /// A nested tool: path, bounded integer, options object, unique tags.
    pub struct ReadFile = "schemas/read_file.json";
}
tool_schema! {
    /// A flat object of 30 properties.
    pub struct Flat30 = "schemas/flat30.json";
}
tool_schema! {
    /// An array of small objects.
    pub struct Rows = "schemas/rows.json";
}
tool_schema! {
    /// `$defs`/`$ref`, a `oneOf` told apart by a `const` tag, `anyOf` with `null`, `pattern`s.
    pub struct PlaceOrder = "schemas/place_order.json";
}

tool_schema! {
    /// A tool with a long string argument (a file's content), for the instruction counts of
    /// streaming a long string (`write_file/long`, [`long_reply`]); not one of the five schemas
    /// the benches compare.
    pub struct WriteFile = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1, "maxLength": 256},
            "content": {"type": "string", "maxLength": 100000}
        },
        "required": ["path", "content"],
        "additionalProperties": false
    };
}

/// `WriteFile`'s reply (1,674 bytes): a file of prose, its lines joined by `\n` escapes.
#[must_use]
pub fn long_reply() -> String {
    let line = "The stream reads a long argument as it arrives, a run of plain characters at a time.";
    let content = vec![line; 19].join("\\n");
    format!(r#"{{"path": "notes/stream.md", "content": "{content}"}}"#)
}

/// jsonschema's compile-time validators (`macros` feature).
pub mod jsm {
    #[jsonschema::validator(path = "schemas/convert_units.json")]
    pub struct ConvertUnits;
    #[jsonschema::validator(path = "schemas/read_file.json")]
    pub struct ReadFile;
    #[jsonschema::validator(path = "schemas/flat30.json")]
    pub struct Flat30;
    #[jsonschema::validator(path = "schemas/rows.json")]
    pub struct Rows;
    #[jsonschema::validator(path = "schemas/place_order.json")]
    pub struct PlaceOrder;
}

/// The schema texts, for jsonschema's runtime validator.
pub const SCHEMAS: [(&str, &str); 5] = [
    ("convert_units", include_str!("../schemas/convert_units.json")),
    ("read_file", include_str!("../schemas/read_file.json")),
    ("flat30", include_str!("../schemas/flat30.json")),
    ("rows", include_str!("../schemas/rows.json")),
    ("place_order", include_str!("../schemas/place_order.json")),
];

/// Plain serde baselines: types and unknown fields only, no bounds, no enums.
pub mod serde_structs {
    use super::Deserialize;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ConvertUnits<'a> {
        pub value: f64,
        #[serde(borrow)]
        pub from_unit: &'a str,
        #[serde(borrow)]
        pub to_unit: &'a str,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReadFile<'a> {
        #[serde(borrow)]
        pub path: &'a str,
        #[serde(default)]
        pub max_lines: Option<u64>,
        #[serde(default, borrow)]
        pub options: Option<Options<'a>>,
        #[serde(default, borrow)]
        pub tags: Option<Vec<&'a str>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Options<'a> {
        #[serde(default)]
        pub follow_symlinks: Option<bool>,
        #[serde(default, borrow)]
        pub encoding: Option<&'a str>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Flat30<'a> {
        #[serde(borrow)]
        pub p00: &'a str,
        #[serde(default)]
        pub p01: Option<u64>,
        #[serde(default)]
        pub p02: Option<f64>,
        pub p03: bool,
        #[serde(default, borrow)]
        pub p04: Option<&'a str>,
        #[serde(default, borrow)]
        pub p05: Option<&'a str>,
        pub p06: u64,
        #[serde(default)]
        pub p07: Option<f64>,
        #[serde(default)]
        pub p08: Option<bool>,
        #[serde(borrow)]
        pub p09: &'a str,
        #[serde(default, borrow)]
        pub p10: Option<&'a str>,
        #[serde(default)]
        pub p11: Option<u64>,
        pub p12: f64,
        #[serde(default)]
        pub p13: Option<bool>,
        #[serde(default, borrow)]
        pub p14: Option<&'a str>,
        #[serde(borrow)]
        pub p15: &'a str,
        #[serde(default)]
        pub p16: Option<u64>,
        #[serde(default)]
        pub p17: Option<f64>,
        pub p18: bool,
        #[serde(default, borrow)]
        pub p19: Option<&'a str>,
        #[serde(default, borrow)]
        pub p20: Option<&'a str>,
        pub p21: u64,
        #[serde(default)]
        pub p22: Option<f64>,
        #[serde(default)]
        pub p23: Option<bool>,
        #[serde(borrow)]
        pub p24: &'a str,
        #[serde(default, borrow)]
        pub p25: Option<&'a str>,
        #[serde(default)]
        pub p26: Option<u64>,
        pub p27: f64,
        #[serde(default)]
        pub p28: Option<bool>,
        #[serde(default, borrow)]
        pub p29: Option<&'a str>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Row<'a> {
        pub id: u64,
        #[serde(borrow)]
        pub name: &'a str,
        pub score: f64,
        #[serde(default)]
        pub active: Option<bool>,
    }

    #[derive(Deserialize)]
    #[serde(transparent)]
    pub struct Rows<'a> {
        #[serde(borrow)]
        pub rows: Vec<Row<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct PlaceOrder<'a> {
        #[serde(borrow)]
        pub customer: &'a str,
        #[serde(borrow)]
        pub lines: Vec<Line<'a>>,
        #[serde(borrow)]
        pub delivery: Delivery<'a>,
        #[serde(default, borrow)]
        pub note: Option<&'a str>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Line<'a> {
        #[serde(borrow)]
        pub sku: &'a str,
        pub quantity: u64,
    }

    /// serde's internally tagged enum (it buffers the object to find the tag, so `&str` fields
    /// cannot borrow: they are owned here).
    #[derive(Deserialize)]
    #[serde(tag = "method", rename_all = "lowercase", deny_unknown_fields)]
    pub enum Delivery<'a> {
        Ship {
            #[serde(borrow)]
            address: Address<'a>,
        },
        Pickup {
            store: String,
        },
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Address<'a> {
        #[serde(borrow)]
        pub street: std::borrow::Cow<'a, str>,
        #[serde(borrow)]
        pub city: std::borrow::Cow<'a, str>,
        #[serde(borrow)]
        pub postcode: std::borrow::Cow<'a, str>,
    }
}

/// The same shapes with owned fields (`String`, `Vec`), `Clone` and `Debug`: the baseline for
/// text → typed struct (`from_json`), and the target of jsonschema's `from_value` route.
pub mod owned_structs {
    use super::Deserialize;

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ConvertUnits {
        pub value: f64,
        pub from_unit: String,
        pub to_unit: String,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReadFile {
        pub path: String,
        #[serde(default)]
        pub max_lines: Option<u64>,
        #[serde(default)]
        pub options: Option<Options>,
        #[serde(default)]
        pub tags: Option<Vec<String>>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Options {
        #[serde(default)]
        pub follow_symlinks: Option<bool>,
        #[serde(default)]
        pub encoding: Option<String>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Flat30 {
        pub p00: String,
        #[serde(default)]
        pub p01: Option<u64>,
        #[serde(default)]
        pub p02: Option<f64>,
        pub p03: bool,
        #[serde(default)]
        pub p04: Option<String>,
        #[serde(default)]
        pub p05: Option<String>,
        pub p06: u64,
        #[serde(default)]
        pub p07: Option<f64>,
        #[serde(default)]
        pub p08: Option<bool>,
        pub p09: String,
        #[serde(default)]
        pub p10: Option<String>,
        #[serde(default)]
        pub p11: Option<u64>,
        pub p12: f64,
        #[serde(default)]
        pub p13: Option<bool>,
        #[serde(default)]
        pub p14: Option<String>,
        pub p15: String,
        #[serde(default)]
        pub p16: Option<u64>,
        #[serde(default)]
        pub p17: Option<f64>,
        pub p18: bool,
        #[serde(default)]
        pub p19: Option<String>,
        #[serde(default)]
        pub p20: Option<String>,
        pub p21: u64,
        #[serde(default)]
        pub p22: Option<f64>,
        #[serde(default)]
        pub p23: Option<bool>,
        pub p24: String,
        #[serde(default)]
        pub p25: Option<String>,
        #[serde(default)]
        pub p26: Option<u64>,
        pub p27: f64,
        #[serde(default)]
        pub p28: Option<bool>,
        #[serde(default)]
        pub p29: Option<String>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Row {
        pub id: u64,
        pub name: String,
        pub score: f64,
        #[serde(default)]
        pub active: Option<bool>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(transparent)]
    pub struct Rows {
        pub rows: Vec<Row>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct PlaceOrder {
        pub customer: String,
        pub lines: Vec<Line>,
        pub delivery: Delivery,
        #[serde(default)]
        pub note: Option<String>,
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Line {
        pub sku: String,
        pub quantity: u64,
    }

    /// serde's internally tagged enum.
    #[derive(Debug, Clone, Deserialize)]
    #[serde(tag = "method", rename_all = "lowercase", deny_unknown_fields)]
    pub enum Delivery {
        Ship { address: Address },
        Pickup { store: String },
    }

    #[derive(Debug, Clone, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Address {
        pub street: String,
        pub city: String,
        pub postcode: String,
    }
}

/// One benchmark input.
#[derive(Debug, Clone)]
pub struct Case {
    /// the schema's name (see [`SCHEMAS`])
    pub schema: &'static str,
    /// `valid`, `wrong_type`, `extra_property` or `out_of_range`
    pub name: &'static str,
    /// the reply text
    pub text: String,
    /// whether the schema accepts it
    pub valid: bool,
}

fn flat30(change: Option<(&str, &str)>, extra: bool) -> String {
    let mut parts = Vec::new();
    for i in 0..30 {
        let n = format!("p{i:02}");
        let v = match i % 5 {
            0 => format!("\"value number {i}\""),
            1 => format!("{}", i * 30),
            2 => format!("0.{i}"),
            3 => format!("{}", i % 2 == 0),
            _ => "\"medium\"".to_owned(),
        };
        let v = match change {
            Some((name, to)) if name == n => to.to_owned(),
            _ => v,
        };
        parts.push(format!("\"{n}\": {v}"));
    }
    if extra {
        parts.push("\"p30\": 1".to_owned());
    }
    format!("{{{}}}", parts.join(", "))
}

fn rows(last: Option<&str>) -> String {
    let mut items = Vec::with_capacity(1000);
    for i in 0..1000 {
        let item = if i == 999 && last.is_some() {
            last.unwrap_or_default().to_owned()
        } else {
            format!(r#"{{"id": {i}, "name": "row number {i}", "score": 0.{}, "active": {}}}"#, i % 97, i % 2 == 0)
        };
        items.push(item);
    }
    format!("[{}]", items.join(", "))
}

fn place_order(last_line: Option<&str>, address: &str) -> String {
    let mut lines: Vec<String> =
        (0..12).map(|i| format!(r#"{{"sku": "ABC-{:04}", "quantity": {}}}"#, 1000 + i * 7, 1 + i % 9)).collect();
    if let (Some(last), Some(slot)) = (last_line, lines.last_mut()) {
        *slot = last.to_owned();
    }
    format!(
        r#"{{"customer": "C004217", "lines": [{}], "delivery": {{"method": "ship", "address": {address}}}, "note": null}}"#,
        lines.join(", ")
    )
}

const ADDRESS: &str = r#"{"street": "12 Harbour Road", "city": "Portsmouth", "postcode": "01234"}"#;

/// Every benchmark input, in table order.
#[must_use]
pub fn cases() -> Vec<Case> {
    let c = |schema, name, text: &str, valid| Case { schema, name, text: text.to_owned(), valid };
    vec![
        c("convert_units", "valid", r#"{"value": 12.5, "from_unit": "km", "to_unit": "m"}"#, true),
        c("convert_units", "wrong_type", r#"{"value": "12.5", "from_unit": "km", "to_unit": "m"}"#, false),
        c(
            "convert_units",
            "extra_property",
            r#"{"value": 12.5, "from_unit": "km", "to_unit": "m", "precision": 2}"#,
            false,
        ),
        c("convert_units", "out_of_range", r#"{"value": 2000000, "from_unit": "km", "to_unit": "m"}"#, false),
        c(
            "read_file",
            "valid",
            r#"{"path": "src/lib.rs", "max_lines": 200, "options": {"follow_symlinks": true, "encoding": "utf-8"}, "tags": ["rust", "source", "lib"]}"#,
            true,
        ),
        c(
            "read_file",
            "wrong_type",
            r#"{"path": "src/lib.rs", "max_lines": "42", "options": {"follow_symlinks": true, "encoding": "utf-8"}, "tags": ["rust", "source", "lib"]}"#,
            false,
        ),
        c(
            "read_file",
            "extra_property",
            r#"{"path": "src/lib.rs", "max_lines": 200, "options": {"follow_symlinks": true, "encoding": "utf-8", "recursive": true}, "tags": ["rust", "source", "lib"]}"#,
            false,
        ),
        c(
            "read_file",
            "out_of_range",
            r#"{"path": "src/lib.rs", "max_lines": 20000, "options": {"follow_symlinks": true, "encoding": "utf-8"}, "tags": ["rust", "source", "lib"]}"#,
            false,
        ),
        Case { schema: "flat30", name: "valid", text: flat30(None, false), valid: true },
        Case { schema: "flat30", name: "wrong_type", text: flat30(Some(("p22", "\"0.5\"")), false), valid: false },
        Case { schema: "flat30", name: "extra_property", text: flat30(None, true), valid: false },
        Case { schema: "flat30", name: "out_of_range", text: flat30(Some(("p26", "5000")), false), valid: false },
        Case { schema: "rows", name: "valid", text: rows(None), valid: true },
        Case {
            schema: "rows",
            name: "wrong_type",
            text: rows(Some(r#"{"id": 999, "name": "row", "score": "0.5"}"#)),
            valid: false,
        },
        Case {
            schema: "rows",
            name: "extra_property",
            text: rows(Some(r#"{"id": 999, "name": "row", "score": 0.5, "extra": 1}"#)),
            valid: false,
        },
        Case {
            schema: "rows",
            name: "out_of_range",
            text: rows(Some(r#"{"id": 999, "name": "row", "score": 1.5}"#)),
            valid: false,
        },
        Case { schema: "place_order", name: "valid", text: place_order(None, ADDRESS), valid: true },
        Case {
            schema: "place_order",
            name: "wrong_type",
            text: place_order(Some(r#"{"sku": "XYZ-0001", "quantity": "2"}"#), ADDRESS),
            valid: false,
        },
        Case {
            schema: "place_order",
            name: "extra_property",
            text: place_order(
                None,
                r#"{"street": "12 Harbour Road", "city": "Portsmouth", "postcode": "01234", "floor": 2}"#,
            ),
            valid: false,
        },
        Case {
            schema: "place_order",
            name: "out_of_range",
            text: place_order(Some(r#"{"sku": "XYZ-0001", "quantity": 500}"#), ADDRESS),
            valid: false,
        },
        Case {
            schema: "place_order",
            name: "pattern",
            text: place_order(Some(r#"{"sku": "xyz-0001", "quantity": 2}"#), ADDRESS),
            valid: false,
        },
    ]
}

/// The competitors, in table order: `(benchmark id, label)`.
pub const COMPETITORS: [(&str, &str); 11] = [
    ("toolgate_text", "toolgate `is_valid_json(&str)`"),
    ("toolgate_value", "toolgate `is_valid(&Value)`"),
    ("jsonschema_macro_text", "`from_str::<Value>` + `#[jsonschema::validator]` `is_valid`"),
    ("jsonschema_runtime_text", "`from_str::<Value>` + jsonschema runtime `is_valid`"),
    ("serde_derive", "`from_str` into `#[derive(Deserialize)]` (borrowed `&str`)"),
    ("jsonschema_macro_value", "`#[jsonschema::validator]` `is_valid(&Value)`"),
    ("jsonschema_runtime_value", "jsonschema runtime `is_valid(&Value)`"),
    ("toolgate_from_json", "toolgate `from_json(&str)` (typed struct)"),
    ("serde_derive_owned", "`from_str` into `#[derive(Deserialize)]` (owned fields)"),
    ("jsonschema_macro_from_value", "`from_str::<Value>` + `#[jsonschema::validator]` + `from_value` (owned)"),
    ("syntax_only", "`from_str::<IgnoredAny>` (a syntax check only)"),
];

/// The streaming benchmark's measurements (`benches/stream.rs`), in table order: `(benchmark id,
/// label)`. Its groups are `stream-<schema>`, on each schema's valid case.
pub const STREAMING: [(&str, &str); 10] = [
    ("is_valid_json", "(a) `is_valid_json`"),
    ("stream_1", "(b) `Stream`, 1-byte chunks"),
    ("stream_16", "(c) `Stream`, 16-byte chunks"),
    ("recheck_16", "(d) `is_valid_json` on each 16-byte-longer prefix"),
    ("jsonschema_at_end", "(e) `serde_json` + jsonschema macro, once, on the whole reply"),
    ("jiter_partial_16", "(f) jiter's partial parse of each 16-byte-longer prefix"),
    ("stream_4", "(g) `Stream`, 4-byte chunks (a provider's delta: a token, a few bytes)"),
    ("stream_tokens", "(h) `Stream`, token by token (the reply as `o200k_base` splits it)"),
    ("text_1", "(j) `TextStream`, given the text so far after every byte"),
    ("text_16", "(k) `TextStream`, given the text so far after every 16 bytes"),
];

/// Per schema, in [`SCHEMAS`] order: `Stream::<T>::automaton_size()` (the fixed-size automaton
/// state), `size_of::<Stream<T>>()` (that plus the text buffer's handle and the verdict slot;
/// the text itself is on the heap) and `size_of::<TextStream<T>>()` (the same without the
/// buffer, which the caller keeps).
#[must_use]
pub fn automaton_sizes() -> [(&'static str, usize, usize, usize); 5] {
    use std::mem::size_of;
    use toolgate::{Stream, TextStream};
    macro_rules! sizes {
        ($name:literal, $t:ty) => {
            ($name, Stream::<$t>::automaton_size(), size_of::<Stream<$t>>(), size_of::<TextStream<$t>>())
        };
    }
    [
        sizes!("convert_units", ConvertUnits),
        sizes!("read_file", ReadFile),
        sizes!("flat30", Flat30),
        sizes!("rows", Rows),
        sizes!("place_order", PlaceOrder),
    ]
}

/// A point of a valid reply at which the token-mask benchmark (`benches/mask.rs`) computes a mask.
#[derive(Debug, Clone)]
pub struct MaskPoint {
    /// the schema's name (see [`SCHEMAS`])
    pub schema: &'static str,
    /// `start`, `key`, `string`, `number` or `deep_number`
    pub name: &'static str,
    /// the reply up to the point
    pub prefix: String,
}

impl MaskPoint {
    /// The benchmark id's stem: `schema/name`.
    #[must_use]
    pub fn id(&self) -> String {
        format!("{}/{}", self.schema, self.name)
    }

    /// `schema/name` and the last bytes of the prefix, for messages.
    #[must_use]
    pub fn label(&self) -> String {
        let tail: String = self.prefix.chars().rev().take(24).collect::<Vec<_>>().into_iter().rev().collect();
        format!("{} (…{tail:?})", self.id())
    }
}

/// What the mask-benchmark's point names mean.
pub const MASK_POINT_NAMES: [(&str, &str); 7] = [
    ("start", "start of the reply"),
    ("key", "inside a key"),
    ("string", "inside a string value"),
    ("number", "inside a number"),
    ("ref_string", "inside a string value, in a `$ref`'d object"),
    ("ref_number", "inside a number, in a `$ref`'d object"),
    ("deep_number", "inside a number, 35 kB in"),
];

/// The mask benchmark's points, cut from each schema's valid reply in [`cases`]: `(schema,
/// point, needle, bytes of the needle kept)`, the prefix ending that many bytes into the first
/// occurrence of the needle.
const MASK_CUTS: [(&str, &str, &str, usize); 14] = [
    ("convert_units", "start", "", 0),
    ("convert_units", "key", "\"from_unit\"", 6), // {"value": 12.5, "from_
    ("convert_units", "string", "\"km\"", 2),     // …"from_unit": "k      (an enum)
    ("convert_units", "number", "12.5", 3),       // {"value": 12.
    ("read_file", "start", "", 0),
    ("read_file", "key", "\"max_lines\"", 5),     // {"path": "src/lib.rs", "max_
    ("read_file", "string", "\"src/lib.rs\"", 7), // {"path": "src/li
    ("read_file", "number", "200", 1),            // …"max_lines": 2
    ("place_order", "start", "", 0),
    ("place_order", "key", "\"quantity\"", 5),   // …[{"sku": "ABC-1000", "quan
    ("place_order", "string", "\"C004217\"", 5), // {"customer": "C004  (a pattern)
    ("place_order", "ref_string", "\"ABC-1000\"", 6), // …[{"sku": "ABC-1   (a pattern, in $defs/Line)
    ("place_order", "ref_number", "\"quantity\": 1", 13), // …"quantity": 1 (1 to 100, in $defs/Line)
    ("rows", "deep_number", "\"score\": 0.15", 11), // …{"id": 500, … "score": 0.1
];

/// The mask benchmark's points (see `MASK_CUTS`); the `rows` point is in the 501st row.
#[must_use]
pub fn mask_points() -> Vec<MaskPoint> {
    let valid: Vec<Case> = cases().into_iter().filter(|c| c.valid).collect();
    MASK_CUTS
        .iter()
        .map(|&(schema, name, needle, keep)| {
            let text = valid.iter().find(|c| c.schema == schema).map(|c| c.text.as_str()).unwrap_or_default();
            let from = if schema == "rows" { text.find("{\"id\": 500,").unwrap_or(0) } else { 0 };
            let at = text.get(from..).and_then(|t| t.find(needle)).map_or(0, |i| from + i + keep);
            MaskPoint { schema, name, prefix: text.get(..at).unwrap_or_default().to_owned() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use toolgate::Tool;

    /// `long_reply` is a valid `WriteFile` call of the length its documentation says, and a
    /// stream fed it in 16-byte pieces accepts it.
    #[test]
    fn the_long_reply_is_valid() {
        let text = super::long_reply();
        assert_eq!(text.len(), 1_674);
        assert!(super::WriteFile::is_valid_json(&text));
        let mut s = super::WriteFile::stream();
        assert!(text.as_bytes().chunks(16).all(|piece| !s.feed(piece).is_dead()));
        assert!(s.finish().is_ok());
    }
}
