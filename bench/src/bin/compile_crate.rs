//! Writes the crates that `bench/compile` builds: N tool schemas shaped like real MCP tools
//! (objects of 3–15 properties with descriptions, string enums, bounded numbers, `anyOf [T, null]`,
//! arrays, a nested object), compiled either by toolgate's `tool_schema!` or by jsonschema's
//! `#[jsonschema::validator]`, and a `main` that calls each tool's verdict and error report (the two
//! entry points the jsonschema macro has). `toolgate-all` is the toolgate crate whose `main` also
//! calls every other entry point (text verdict and reports, `from_json`, `from_value`, the stream):
//! what a crate pays that uses all of them.
//!
//! `compile_crate <toolgate|toolgate-all|jsonschema> <N> <dir> <toolgate-path>` writes the crate to `dir`;
//! `compile_crate lines <N>` prints toolgate's generated code for the same N schemas (the tokens
//! of `toolgate_compiler::compile_text`, for `rustfmt` to lay out and `wc -l` to count).
//!
//! The schemas: the five of `bench/schemas/`, then generated ones from a fixed seed (the same N
//! schemas every run, and the same for both macros).

#![allow(missing_docs, clippy::pedantic)]

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Map, Value};
use toolgate_bench::SCHEMAS;

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 24] = [
    "path",
    "query",
    "limit",
    "offset",
    "name",
    "owner",
    "repo",
    "branch",
    "title",
    "body",
    "labels",
    "state",
    "sort",
    "direction",
    "since",
    "until",
    "format",
    "timezone",
    "language",
    "channel",
    "message",
    "priority",
    "tags",
    "recursive",
];

fn word(r: &mut Rng) -> &'static str {
    WORDS.get(r.below(WORDS.len() as u64) as usize).copied().unwrap_or("x")
}

/// One property schema of kind `kind`.
fn property(r: &mut Rng, kind: u64, depth: u32) -> Value {
    let d = format!("The {} to use.", word(r));
    match kind {
        0 => json!({"type": "string", "description": d}),
        1 => json!({"type": "string", "minLength": 1, "maxLength": 200 + r.below(800), "description": d}),
        2 => {
            let n = 2 + r.below(4);
            let vals: Vec<String> = (0..n).map(|i| format!("{}_{i}", word(r))).collect();
            json!({"type": "string", "enum": vals, "description": d})
        }
        3 => json!({"type": "integer", "minimum": 0, "maximum": 100 + r.below(10_000), "description": d}),
        4 => json!({"type": "number", "minimum": 0, "description": d}),
        5 => json!({"type": "boolean", "description": d}),
        6 => json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": d}),
        7 => json!({"type": "array", "items": {"type": "string"}, "maxItems": 20 + r.below(80), "description": d}),
        8 if depth == 0 => {
            let n = 2 + r.below(3);
            object(r, n, depth + 1, Some(d))
        }
        9 => json!({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": d}),
        10 => {
            let vals: Vec<String> = (0..3 + r.below(3)).map(|i| format!("{}{i}", word(r))).collect();
            json!({"type": "array", "items": {"type": "string", "enum": vals}, "uniqueItems": true, "description": d})
        }
        11 => json!({"type": "string", "pattern": "^[a-z0-9_-]+$", "maxLength": 64, "description": d}),
        _ => json!({"type": "string", "format": "date-time", "description": d}),
    }
}

/// An object schema of `n` properties.
fn object(r: &mut Rng, n: u64, depth: u32, description: Option<String>) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    let mut i = 0;
    while props.len() < n as usize {
        let name = format!("{}_{i}", word(r));
        i += 1;
        // Formats are left out (kind 12): jsonschema treats `format` as an annotation under
        // draft 2020-12, toolgate asserts it; the two would not check the same thing.
        let kind = r.below(12);
        if r.below(2) == 0 {
            required.push(Value::String(name.clone()));
        }
        props.insert(name, property(r, kind, depth));
    }
    let mut o = Map::new();
    o.insert("type".into(), json!("object"));
    if let Some(d) = description {
        o.insert("description".into(), Value::String(d));
    }
    o.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        o.insert("required".into(), Value::Array(required));
    }
    o.insert("additionalProperties".into(), json!(false));
    Value::Object(o)
}

/// The N schemas, as JSON text.
fn schemas(n: usize) -> Vec<String> {
    let mut out: Vec<String> = SCHEMAS.iter().map(|(_, t)| (*t).to_owned()).take(n).collect();
    let mut r = Rng(0x5eed);
    while out.len() < n {
        let props = 3 + r.below(13);
        let d = format!("Tool {}: {} the {}.", out.len(), word(&mut r), word(&mut r));
        let mut s = object(&mut r, props, 0, Some(d));
        if let Value::Object(o) = &mut s {
            o.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
        }
        out.push(serde_json::to_string_pretty(&s).unwrap_or_default());
    }
    out
}

fn write(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    match args.first().map(String::as_str) {
        Some("lines") => {
            let krate: proc_macro2::TokenStream = "::toolgate".parse().unwrap_or_default();
            for (i, s) in schemas(n).iter().enumerate() {
                match toolgate_compiler::compile_text(&format!("T{i:03}"), s, &krate) {
                    Ok(tokens) => println!("{tokens}"),
                    Err(e) => {
                        eprintln!("schema {i} refused: {e:?}");
                        std::process::exit(1);
                    }
                }
            }
        }
        Some(kind @ ("toolgate" | "toolgate-all" | "jsonschema")) => {
            let (Some(dir), Some(toolgate)) = (args.get(2), args.get(3)) else {
                eprintln!("usage: compile_crate <toolgate|toolgate-all|jsonschema> <N> <dir> <toolgate-path>");
                std::process::exit(2);
            };
            let dir = Path::new(dir);
            let _ = std::fs::create_dir_all(dir.join("schemas"));
            let _ = std::fs::create_dir_all(dir.join("src"));
            let toolgate_kind = kind.starts_with("toolgate");
            let dep = if toolgate_kind {
                format!("toolgate = {{ path = {toolgate:?} }}")
            } else {
                "jsonschema = { version = \"=0.60.2\", default-features = false, features = [\"macros\"] }".to_owned()
            };
            write(
                &dir.join("Cargo.toml"),
                &format!(
                    "[package]\nname = \"gen-{kind}-{n}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n{dep}\nserde_json = \"1\"\n\n[workspace]\n"
                ),
            );
            let mut lib = String::from("#![allow(missing_docs)]\n");
            let mut main = String::from(
                "use std::hint::black_box;\n\nfn main() {\n    let text = std::env::args().nth(1).unwrap_or_default();\n    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();\n    let v = black_box(&v);\n    let mut n = 0_usize;\n",
            );
            if toolgate_kind {
                main.insert_str(0, "use toolgate::Tool;\n");
            }
            for (i, s) in schemas(n).iter().enumerate() {
                write(&dir.join(format!("schemas/t{i:03}.json")), s);
                if toolgate_kind {
                    let _ = writeln!(lib, "toolgate::tool_schema! {{\n    /// Tool {i}.\n    pub struct T{i:03} = \"schemas/t{i:03}.json\";\n}}");
                    let _ = writeln!(
                        main,
                        "    n += usize::from(gen::T{i:03}::is_valid(v)) + gen::T{i:03}::validate(v).err().map_or(0, |e| e.len());"
                    );
                    if kind == "toolgate-all" {
                        // Every other entry point: text verdict and reports, typed values from
                        // text and from a value, the stream with its explanation.
                        let _ = writeln!(
                            main,
                            "    n += usize::from(gen::T{i:03}::is_valid_json(&text)) + usize::from(gen::T{i:03}::from_json(&text).is_ok()) + usize::from(gen::T{i:03}::from_value(v).is_ok());\n    n += usize::from(gen::T{i:03}::check_json(&text, &mut toolgate::Collect::default()).is_ok());\n    {{ let mut s = gen::T{i:03}::stream(); n += usize::from(matches!(s.feed(text.as_bytes()), toolgate::Progress::Dead(_))) + usize::from(s.finish().is_ok()); }}"
                        );
                    }
                } else {
                    let _ =
                        writeln!(lib, "#[jsonschema::validator(path = \"schemas/t{i:03}.json\")]\npub struct T{i:03};");
                    let _ = writeln!(
                        main,
                        "    n += usize::from(gen::T{i:03}::is_valid(v)) + gen::T{i:03}::iter_errors(v).count();"
                    );
                }
            }
            main.push_str("    println!(\"{n}\");\n}\n");
            let lib_name = format!("gen_{}_{n}", kind.replace('-', "_"));
            write(&dir.join("src/lib.rs"), &lib);
            write(&dir.join("src/main.rs"), &main.replace("gen::", &format!("{lib_name}::")));
        }
        _ => {
            eprintln!("usage: compile_crate <toolgate|toolgate-all|jsonschema> <N> <dir> <toolgate-path> | compile_crate lines <N>");
            std::process::exit(2);
        }
    }
}
