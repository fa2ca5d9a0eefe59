//! The compiler as a plain library: diagnostics, determinism, no panicking constructs in generated
//! code, and no panic on arbitrary schemas.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use proptest::prelude::*;
use quote::quote;
use toolgate_compiler::{compile_text, diagnose_text};

const CONVERT: &str = r#"{
    "type": "object",
    "properties": {
        "value": {"type": "number", "minimum": -1000000, "maximum": 1000000, "multipleOf": 0.5},
        "from_unit": {"enum": ["m", "km", "g", "kg"]},
        "tags": {"type": "array", "items": {"type": ["string", "null"], "maxLength": 3}, "uniqueItems": true},
        "opts": {"type": "object", "additionalProperties": {"const": [1, {"a": null}]}, "minProperties": 1},
        "n": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}
    },
    "required": ["value", "from_unit"],
    "additionalProperties": false
}"#;

fn krate() -> TokenStream {
    quote!(::toolgate)
}

#[test]
fn every_problem_is_reported_with_line_column_and_pointer() {
    let text = "{\n  \"type\": \"strin\",\n  \"requried\": [],\n  \"minLength\": -1\n}";
    let msgs: Vec<String> = diagnose_text(text).into_iter().map(|d| format!("{:?} {}", d.pointer, d.message)).collect();
    assert_eq!(msgs.len(), 3, "{msgs:#?}");
    assert!(msgs[0].contains("/type") && msgs[0].contains("did you mean `string`"), "{}", msgs[0]);
    assert!(msgs[1].contains("/requried") && msgs[1].contains("did you mean `required`"), "{}", msgs[1]);
    assert!(msgs[2].contains("/minLength") && msgs[2].contains("non-negative"), "{}", msgs[2]);
    let rendered = compile_text("T", text, &krate()).expect_err("refused");
    assert!(rendered[0].starts_with("2:11: "), "{}", rendered[0]);
}

#[test]
fn codegen_is_deterministic() {
    let a = compile_text("ConvertUnits", CONVERT, &krate()).expect("accepted").to_string();
    let b = compile_text("ConvertUnits", CONVERT, &krate()).expect("accepted").to_string();
    assert_eq!(a, b);
}

/// Identifiers and shapes that can panic at run time.
fn panicking_constructs(ts: TokenStream, found: &mut Vec<String>) {
    let mut prev: Option<TokenTree> = None;
    // The previous token is a lifetime's name (`'static`), which no `[` after it indexes.
    let mut lifetime = false;
    for t in ts {
        match &t {
            TokenTree::Ident(i) => {
                let s = i.to_string();
                if ["unwrap", "expect", "panic", "unreachable", "todo", "unimplemented", "unwrap_unchecked"]
                    .contains(&s.as_str())
                {
                    found.push(s);
                }
            }
            TokenTree::Group(g) => {
                // `x[i]` indexing: a bracket group right after an expression. Attributes (`#[..]`),
                // macro bodies (`m![..]`) and array patterns (`let [a, b] = ..`) are fine.
                if g.delimiter() == Delimiter::Bracket {
                    let after_expression = match &prev {
                        Some(TokenTree::Ident(i)) => {
                            !lifetime && !["in", "return", "mut", "break", "let"].contains(&i.to_string().as_str())
                        }
                        Some(TokenTree::Group(g)) => g.delimiter() != Delimiter::Brace,
                        _ => false,
                    };
                    if after_expression {
                        found.push(format!("indexing after {prev:?}"));
                    }
                }
                panicking_constructs(g.stream(), found);
            }
            _ => {}
        }
        lifetime =
            matches!(&prev, Some(TokenTree::Punct(p)) if p.as_char() == '\'') && matches!(t, TokenTree::Ident(_));
        prev = Some(t);
    }
}

#[test]
fn generated_code_has_no_panicking_constructs() {
    let ts = compile_text("ConvertUnits", CONVERT, &krate()).expect("accepted");
    let mut found = Vec::new();
    panicking_constructs(ts, &mut found);
    assert!(found.is_empty(), "{found:?}");
}

/// Schemas for every keyword family the compiler generates code for (the `&Value` validator, the
/// text scan and report functions, the typed build): none may contain a panicking construct.
const FAMILIES: &[(&str, &str)] = &[
    (
        "Applicators",
        r##"{"type": "object", "properties": {
            "a": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "maxLength": 2}]},
            "b": {"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]},
            "c": {"not": {"type": ["null", "boolean"]}},
            "d": {"if": {"type": "string"}, "then": {"minLength": 2}, "else": {"type": "number"}},
            "e": {"type": "array", "prefixItems": [{"type": "boolean"}], "items": {"type": "integer"},
                  "contains": {"const": 1}, "minContains": 1, "maxContains": 2, "uniqueItems": true},
            "f": {"allOf": [{"minimum": 1}, {"maximum": 9}]}
        },
        "patternProperties": {"^x-": {"type": "integer"}},
        "propertyNames": {"maxLength": 8},
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {"c": {"required": ["d"]}},
        "unevaluatedProperties": false}"##,
    ),
    (
        "Tree",
        r##"{"$defs": {"node": {"type": "object", "properties": {"label": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "unevaluatedItems": false}},
            "required": ["label"], "additionalProperties": false}}, "$ref": "#/$defs/node"}"##,
    ),
    (
        "Patterns",
        r##"{"type": "object", "properties": {"ticker": {"type": "string", "pattern": "^[A-Z]{1,5}$"},
            "code": {"pattern": "\\d+(-\\d+)?"}, "date": {"type": "string", "format": "date"}},
            "patternProperties": {"^[a-z]+_id$": {"type": "integer"}}}"##,
    ),
    (
        "Values",
        r##"{"type": "object", "properties": {
            "any": {"enum": [null, true, 1, "x", [1, 2], {"a": 1, "b": [null]}]},
            "obj": {"const": {"k": [1, {"b": null}], "s": "é"}},
            "big": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            "free": {"type": "integer"},
            "either": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        }, "required": ["any"], "additionalProperties": {"type": "string", "maxLength": 3}, "maxProperties": 5}"##,
    ),
    (
        "Draft07",
        r##"{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}},
            "type": "array", "items": [{"$ref": "#/definitions/s"}, {"type": "number"}], "additionalItems": false}"##,
    ),
    (
        "Flat",
        r##"{"type": "object", "properties": {
            "o": {"type": "object", "properties": {"a": {"enum": ["x", "yz"]}}, "required": ["a"], "additionalProperties": false},
            "l": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "maximum": 9}}, "uniqueItems": true, "maxItems": 3},
            "p": {"type": "string", "pattern": "^[A-Z]{2}$"},
            "n": {"anyOf": [{"type": "number", "multipleOf": 0.5}, {"type": "null"}]},
            "t": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}, "d": {"type": "string", "format": "date"}}, "required": ["k"]},
                {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"]}
            ]}
        }}"##,
    ),
    ("Anything", "{}"),
    ("Nothing", "false"),
];

#[test]
fn generated_code_for_every_keyword_family_has_no_panicking_constructs() {
    for (name, schema) in FAMILIES {
        assert!(diagnose_text(schema).is_empty(), "{name}: {:?}", diagnose_text(schema));
        let ts = compile_text(name, schema, &krate()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // (A flat tool's spec for the stream's flat reader is generated code too.)
        assert!(*name != "Flat" || ts.to_string().contains("FlatSpec for __Flat"), "{name}: not a flat tool");
        let mut found = Vec::new();
        panicking_constructs(ts, &mut found);
        assert!(found.is_empty(), "{name}: {found:?}");
    }
    // Asserted formats, through the macro's own entry point.
    let input: TokenStream = r#"[::toolgate] #[tool(formats = assert)] pub struct Formats = {
        "type": "object", "properties": {"d": {"format": "date"}, "t": {"format": "date-time"},
        "e": {"format": "email"}, "i": {"format": "ipv6"}, "u": {"format": "uuid"}, "p": {"format": "duration"}}
    };"#
    .parse()
    .expect("tokens");
    let ts = toolgate_compiler::expand(input);
    assert!(!ts.to_string().contains("compile_error"), "{ts}");
    let mut found = Vec::new();
    panicking_constructs(ts, &mut found);
    assert!(found.is_empty(), "formats: {found:?}");
}

#[test]
fn the_detector_detects() {
    let mut found = Vec::new();
    panicking_constructs(
        quote!(
            fn f(a: &[u8]) -> u8 {
                a[0] + x.unwrap()
            }
            // A slice type after a lifetime is no indexing; `b[1]` is.
            fn g(b: &'static [u8]) -> u8 {
                b[1]
            }
        ),
        &mut found,
    );
    assert_eq!(found.len(), 3, "{found:?}");
}

#[path = "common/strategies.rs"]
mod strategies;

use strategies::{keyword_soup, tool_shaped};

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_schemas_give_code_or_diagnostics_never_a_panic(v in keyword_soup()) {
        let text = v.text();
        let diags = diagnose_text(&text);
        let compiled = compile_text("Fuzzed", &text, &krate());
        prop_assert_eq!(diags.is_empty(), compiled.is_ok(), "{}", text);
        if let Ok(ts) = compiled {
            // The output must be valid Rust items.
            prop_assert!(syn::parse2::<syn::File>(ts).is_ok(), "{}", text);
        }
    }

    #[test]
    fn tool_shaped_schemas_are_accepted_and_give_rust_items(v in tool_shaped()) {
        let text = v.text();
        let compiled = compile_text("Shaped", &text, &krate());
        prop_assert!(compiled.is_ok(), "{}: {:?}", text, compiled.err());
        if let Ok(ts) = compiled {
            prop_assert!(syn::parse2::<syn::File>(ts).is_ok(), "{}", text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,40}") {
        let _ = diagnose_text(&s);
        let _ = compile_text("Fuzzed", &s, &krate());
    }
}
