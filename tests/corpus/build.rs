//! Generates `$OUT_DIR/corpus.rs`: one module per schema of the corpus, each compiled by
//! `toolgate_compiler::compile_text` (the macro's code path), so that building this crate proves
//! that every accepted schema gives code that compiles, cleanly, in a strict crate.
//!
//! The corpus: every shape of the typed mapping written out by hand (`SHAPES`), each at the root,
//! nested in a property and nullable; then schemas drawn with a fixed seed from the compiler's
//! property-test strategies (`macros/compiler/tests/common/strategies.rs`): tool-shaped ones
//! (all accepted) and the keyword soup (only the accepted ones are kept). A hand-written shape
//! that is refused is recorded in `REFUSED`, which the test reports.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use quote::{format_ident, quote};

#[path = "../../macros/compiler/tests/common/strategies.rs"]
mod strategies;

/// How many schemas to draw from each strategy, and how large the tool-shaped ones are (nesting
/// depth, properties per object).
const TOOL_SHAPED: usize = 400;
const TOOL_SHAPED_SIZE: (u32, usize) = (2, 4);
const KEYWORD_SOUP: usize = 600;

/// The most generated code (bytes of tokens) kept from each strategy, so that the crate builds in
/// a few minutes on two cores: a tool-shaped schema generates 3 to 90 KB. The hand-written shapes
/// are always all kept.
const BUDGET: [(&str, usize); 2] = [("tool-shaped", 3_000_000), ("keyword soup", 400_000)];

/// Every shape of the typed mapping (see DESIGN.md, "Typed mapping").
const SHAPES: &[(&str, &str)] = &[
    (
        "object",
        r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}"#,
    ),
    ("closed_object", r#"{"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": false}"#),
    (
        "object_with_extra",
        r#"{"type": "object", "properties": {"a": {"type": "number"}}, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 9}}"#,
    ),
    ("nullable_object", r#"{"type": ["object", "null"], "properties": {"groups": {}}}"#),
    (
        "null_first_object",
        r#"{"type": ["null", "object"], "properties": {"a": {"type": "string"}}, "required": ["a"]}"#,
    ),
    ("map", r#"{"type": "object", "additionalProperties": {"type": "string"}}"#),
    ("nullable_map", r#"{"type": ["object", "null"], "additionalProperties": {"type": "boolean"}}"#),
    ("bare_object", r#"{"type": "object"}"#),
    ("string", r#"{"type": "string", "maxLength": 3}"#),
    ("nullable_string", r#"{"type": ["string", "null"]}"#),
    ("string_enum", r#"{"enum": ["red", "green", "light blue", "2nd", "type", "Self"]}"#),
    ("nullable_string_enum", r#"{"enum": ["a", "b", null]}"#),
    ("typed_nullable_enum", r#"{"type": ["string", "null"], "enum": ["a", null]}"#),
    ("const_string", r#"{"const": "only"}"#),
    ("mixed_enum", r#"{"enum": [1, "a", null, [1], {"a": 1}]}"#),
    ("i64", r#"{"type": "integer", "minimum": -5, "maximum": 5}"#),
    ("u64", r#"{"type": "integer", "minimum": 0, "maximum": 18446744073709551615}"#),
    ("number_integer", r#"{"type": "integer"}"#),
    ("nullable_integer", r#"{"type": ["integer", "null"], "minimum": 0, "maximum": 10}"#),
    ("number", r#"{"type": "number", "multipleOf": 0.5}"#),
    ("boolean", r#"{"type": "boolean"}"#),
    ("null", r#"{"type": "null"}"#),
    ("anything", r#"{}"#),
    ("true_schema", "true"),
    ("type_list", r#"{"type": ["string", "integer", "array"]}"#),
    ("array", r#"{"type": "array", "items": {"type": "string"}, "uniqueItems": true}"#),
    ("array_of_objects", r#"{"type": "array", "items": {"type": "object", "properties": {"x": {"type": "integer"}}}}"#),
    ("nullable_array", r#"{"type": ["array", "null"], "items": {"type": "integer"}}"#),
    ("tuple", r#"{"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}"#),
    ("array_untyped_items", r#"{"type": "array"}"#),
    ("anyof_null", r#"{"anyOf": [{"type": "string"}, {"type": "null"}]}"#),
    (
        "oneof_by_type",
        r#"{"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "integer"}, {"type": "null"}]}"#,
    ),
    (
        "tagged_union",
        r##"{"oneOf": [{"$ref": "#/$defs/cat"}, {"type": "object", "properties": {"pet": {"const": "dog"}, "bark": {"type": "boolean"}}, "required": ["pet"]}], "$defs": {"cat": {"type": "object", "properties": {"pet": {"const": "cat"}, "lives": {"type": "integer", "minimum": 0, "maximum": 9}}, "required": ["pet", "lives"]}}}"##,
    ),
    (
        "nullable_tagged_union",
        r#"{"oneOf": [{"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]}, {"type": "object", "properties": {"t": {"const": "b"}, "n": {"type": "number"}}, "required": ["t"]}, {"type": "null"}]}"#,
    ),
    (
        "keyed_union",
        r#"{"oneOf": [{"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"], "additionalProperties": false}, {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false}]}"#,
    ),
    (
        "merged_allof",
        r#"{"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}]}"#,
    ),
    (
        "ref",
        r##"{"$ref": "#/$defs/point", "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}}}"##,
    ),
    (
        "recursive_ref",
        r##"{"$defs": {"node": {"type": "object", "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}}}}, "$ref": "#/$defs/node"}"##,
    ),
    (
        "if_then_else",
        r#"{"type": "object", "properties": {"a": {"type": "string"}}, "if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"maxProperties": 3}}"#,
    ),
    (
        "hostile_names",
        r#"{"type": "object", "properties": {"type": {}, "self": {}, "Self": {}, "super": {}, "fn": {}, "a b": {}, "a-b": {}, "a_b": {}, "": {}, "_": {}, "1st": {}, "é": {}, "extra": {}, "v": {}, "o": {}, "e": {}, "key": {}, "map": {}, "out": {}, "sink": {}}, "additionalProperties": {"type": "string"}}"#,
    ),
    (
        "draft07_tuple",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}"#,
    ),
    (
        "draft04_bounds",
        r#"{"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 10}"#,
    ),
];

/// Each shape at the root, nested in a property, and nested nullable.
fn shape_variants() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, schema) in SHAPES {
        out.push(((*name).to_owned(), (*schema).to_owned()));
        if schema.contains("$schema") || schema.contains("$defs") {
            continue;
        }
        out.push((
            format!("{name}_nested"),
            format!(r#"{{"type": "object", "properties": {{"p": {schema}, "q": {{"type": "array", "items": {schema}}}}}, "required": ["p"]}}"#),
        ));
        out.push((
            format!("{name}_nested_nullable"),
            format!(r#"{{"type": "object", "properties": {{"p": {{"anyOf": [{schema}, {{"type": "null"}}]}}}}}}"#),
        ));
    }
    out
}

/// `count` texts drawn from `strategy` with a fixed seed.
fn draw<S: Strategy<Value = strategies::V>>(strategy: &S, seed: u8, count: usize) -> Vec<String> {
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]));
    (0..count).filter_map(|_| strategy.new_tree(&mut runner).ok()).map(|t| t.current().text()).collect()
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../../macros/compiler/tests/common/strategies.rs");
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        println!("cargo:warning=OUT_DIR is not set");
        return;
    };
    let krate = quote!(::toolgate);
    let mut modules = Vec::new();
    let mut entries = Vec::new();
    let mut refused = Vec::new();
    let mut seen = BTreeSet::new();
    let mut sources: Vec<(String, String, bool)> =
        shape_variants().into_iter().map(|(name, text)| (format!("shape {name}"), text, true)).collect();
    for (i, text) in draw(&strategies::tool_shaped_sized(TOOL_SHAPED_SIZE.0, TOOL_SHAPED_SIZE.1), 1, TOOL_SHAPED)
        .into_iter()
        .enumerate()
    {
        sources.push((format!("tool-shaped #{i}"), text, true));
    }
    for (i, text) in draw(&strategies::keyword_soup(), 2, KEYWORD_SOUP).into_iter().enumerate() {
        sources.push((format!("keyword soup #{i}"), text, false));
    }
    let mut spent = BUDGET.map(|(prefix, _)| (prefix, 0usize));
    for (label, text, must_accept) in sources {
        if !seen.insert(text.clone()) {
            continue;
        }
        let budget = BUDGET.iter().zip(spent.iter_mut()).find(|((prefix, _), _)| label.starts_with(prefix));
        if budget.as_ref().is_some_and(|((_, limit), (_, used))| used >= limit) {
            continue;
        }
        match toolgate_compiler::compile_text("Corpus", &text, &krate) {
            Ok(tokens) => {
                if let Some((_, (_, used))) = budget {
                    *used += tokens.to_string().len();
                }
                let module = format_ident!("c{}", modules.len());
                let doc = format!("`{label}`: `{}`", text.replace('`', "'"));
                modules.push(quote! {
                    #[doc = #doc]
                    pub mod #module {
                        #tokens
                    }
                });
                entries.push(quote! {
                    crate::Entry { label: #label, schema: #text, ops: crate::Ops::of::<#module::Corpus>() }
                });
            }
            Err(messages) if must_accept => {
                let mut line = format!("{label} `{text}`:");
                for m in messages {
                    let _ = write!(line, " {m};");
                }
                refused.push(line);
            }
            Err(_) => {}
        }
    }
    let code = quote! {
        #(#modules)*

        /// Every schema of the corpus, with what the test runs on it.
        pub static CORPUS: &[crate::Entry] = &[#(#entries),*];

        /// Schemas that had to be accepted and were refused (the test fails on each).
        pub static REFUSED: &[&str] = &[#(#refused),*];
    };
    let path = out_dir.join("corpus.rs");
    if let Err(e) = std::fs::write(&path, code.to_string()) {
        println!("cargo:warning=cannot write {}: {e}", path.display());
    }
}
