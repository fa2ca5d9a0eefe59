//! Reads the official JSON Schema Test Suite and generates the conformance harness.
//!
//! For every test group of `tests/draft2020-12/`, `tests/draft7/`, `tests/draft6/` and
//! `tests/draft4/` (each with its `optional/` directory) the schema compiler decides whether the
//! schema is accepted (`toolgate_compiler::diagnose_text_with`). The suite's draft-04/06/07
//! schemas declare no `$schema`: they are compiled with the dialect of their directory, as
//! `#[tool(dialect = "draft-07")]` (etc.) compiles them; the 2020-12 ones with the default
//! options. For an accepted group the validator is generated with
//! `toolgate_compiler::compile_text_with`, the code path of the `tool_schema!` macro, with the
//! crate path `::toolgate`. The groups of `optional/format/`, which expect `format` to assert,
//! are compiled as `#[tool(formats = assert)]` compiles them (through `toolgate_compiler::expand`
//! itself, with the directory's `dialect` beside it). Everything goes into `$OUT_DIR/suite.rs`:
//! one module per accepted group (numbered across all drafts; a group whose generated code is
//! token for token that of an earlier group, as most draft-06 and draft-07 groups are, shares
//! its module: the same code compiled twice would only cost build time) and a table of every
//! group and case (the case data as its original JSON text, so that no number is rounded on the
//! way).
//!
//! The suite directory is `$TOOLGATE_SUITE_DIR`, by default `<workspace>/../shared/JSON-Schema-Test-Suite`.
//! When it is absent the harness is empty and the test says that it skipped. Nothing in the
//! suite can make this script panic: every problem becomes a `cargo:warning` and an entry of
//! the table's `problems`, which the test reports as a failure.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use toolgate_compiler::diag::{Diagnostics, Source};
use toolgate_compiler::json::{parse_text, Json, JsonValue, Loc};
use toolgate_compiler::lower::Options;

/// Every keyword of draft 2020-12 (and the draft-07 ones it replaced). Which of them the
/// compiler supports is asked of the compiler itself (see [`supported`]), so that the list of
/// supported keywords never drifts from the implementation.
const CANDIDATES: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "$defs",
    "prefixItems",
    "items",
    "contains",
    "additionalProperties",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "definitions",
    "dependencies",
    "additionalItems",
    "$recursiveRef",
    "$recursiveAnchor",
    "id",
];

/// The keywords (of [`CANDIDATES`], plus `x-*`) that the compiler claims in a schema of
/// `draft`: those it does not refuse as unsupported, unknown or of another draft. A probe
/// `{"<keyword>": {}}` may still be refused for its value; that is a claimed keyword.
fn supported(draft: Draft) -> Vec<String> {
    let options = draft.options(false);
    let refused_as_keyword = |k: &str| {
        let probe = format!("{{\"{k}\": {{}}}}");
        let ptr = format!("/{}", k.replace('~', "~0").replace('/', "~1"));
        catch(|| toolgate_compiler::diagnose_text_with(&probe, &options)).is_none_or(|diags| {
            diags.iter().any(|d| {
                d.pointer.as_deref() == Some(ptr.as_str())
                    && (d.message.contains("is not supported by toolgate")
                        || d.message.starts_with("unknown keyword")
                        || d.message.contains("keyword, not a keyword of"))
            })
        })
    };
    let mut out: Vec<String> = CANDIDATES.iter().filter(|k| !refused_as_keyword(k)).map(|k| (*k).to_owned()).collect();
    if !refused_as_keyword("x-probe") {
        out.push("x-*".to_owned());
    }
    out
}

/// The `$schema` values the compiler accepts (without scheme and trailing `#`).
const DRAFTS: &[&str] = &[
    "json-schema.org/draft/2020-12/schema",
    "json-schema.org/draft-07/schema",
    "json-schema.org/draft-06/schema",
    "json-schema.org/draft-04/schema",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TOOLGATE_SUITE_DIR");
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        println!("cargo:warning=OUT_DIR is not set; cannot generate the conformance harness");
        return;
    };
    let dir = suite_dir();
    println!("cargo:rerun-if-changed={}", dir.display());
    let location = dir.display().to_string();
    let tests = dir.join("tests").join("draft2020-12");
    let mut supported_doc = TokenStream::new();
    let mut drafts = Vec::new();
    for draft in Draft::ALL {
        let name = format_ident!("{}", draft.supported_static());
        let supported = supported(draft);
        let doc = format!(
            "The keywords the compiler supports in a {} schema (asked of it at build time: every keyword \
             it does not refuse as unsupported, unknown or of another draft; `x-*` stands for annotations).",
            draft.title()
        );
        supported_doc.extend(quote! {
            #[doc = #doc]
            pub static #name: &[&str] = &[#(#supported),*];
        });
        let (dir_name, title) = (draft.dir(), draft.title());
        drafts.push(quote!(crate::DraftInfo { dir: #dir_name, title: #title, supported: #name }));
    }
    supported_doc.extend(quote! {
        /// The drafts the harness runs, newest first, each with its supported keywords.
        pub static DRAFTS: &[crate::DraftInfo] = &[#(#drafts),*];
    });
    let code = if tests.is_dir() {
        let mut gen = Gen { out_dir: out_dir.clone(), ..Gen::default() };
        gen.suite(&dir);
        gen.finish(&location)
    } else {
        for _ in 0..3 {
            println!(
                "cargo:warning=JSON Schema Test Suite NOT FOUND at {location} (no tests/draft2020-12 there): \
                 the conformance test will SKIP. Set TOOLGATE_SUITE_DIR to a checkout of \
                 json-schema-org/JSON-Schema-Test-Suite."
            );
        }
        let note = format!("no tests/draft2020-12 under {location}");
        quote! {
            /// The suite as found at build time (absent).
            pub static SUITE: crate::Suite = crate::Suite {
                present: false,
                location: #note,
                commit: ::core::option::Option::None,
                problems: &[],
                files: &[],
            };
        }
    };
    let code = quote!(#supported_doc #code);
    let path = out_dir.join("suite.rs");
    if let Err(e) = std::fs::write(&path, code.to_string()) {
        println!("cargo:warning=cannot write {}: {e}", path.display());
    }
}

/// The suite directory: `$TOOLGATE_SUITE_DIR`, else `<workspace>/../shared/JSON-Schema-Test-Suite`.
fn suite_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TOOLGATE_SUITE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).unwrap_or_default();
    manifest.join("..").join("..").join("shared").join("JSON-Schema-Test-Suite")
}

/// The code being generated.
#[derive(Default)]
struct Gen {
    /// where generated files go
    out_dir: PathBuf,
    /// one module per accepted group
    modules: TokenStream,
    /// one `SuiteFile` expression per file
    files: Vec<TokenStream>,
    /// problems (unreadable files, malformed groups, compiler failures)
    problems: Vec<String>,
    /// accepted groups so far (module names)
    accepted: usize,
    /// the modules generated so far, by their generated code (see [`Gen::group`])
    by_code: HashMap<String, Ident>,
    /// the suite's commit, when `SOURCE.md` names it
    commit: Option<String>,
}

impl Gen {
    fn problem(&mut self, msg: String) {
        println!("cargo:warning=conformance: {msg}");
        self.problems.push(msg);
    }

    /// Every draft directory of the suite that is there (draft 2020-12 is, or this is not called).
    fn suite(&mut self, root: &Path) {
        self.commit = std::fs::read_to_string(root.join("SOURCE.md")).ok().and_then(|s| commit_in(&s));
        for draft in Draft::ALL {
            let tests = root.join("tests").join(draft.dir());
            if !tests.is_dir() {
                println!(
                    "cargo:warning=conformance: no tests/{} in the suite: its {} tests are skipped",
                    draft.dir(),
                    draft.title()
                );
                continue;
            }
            let mut paths = Vec::new();
            if let Err(e) = collect_json(&tests, &mut paths) {
                self.problem(format!("cannot list {}: {e}", tests.display()));
            }
            paths.sort();
            for path in paths {
                let rel = path.strip_prefix(&tests).unwrap_or(&path);
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                let shown = format!("{}/{rel}", draft.dir());
                let optional = rel.starts_with("optional/");
                match std::fs::read_to_string(&path) {
                    Ok(text) => self.file(draft, &shown, optional, &text),
                    Err(e) => self.problem(format!("cannot read {shown}: {e}")),
                }
            }
        }
    }

    fn file(&mut self, draft: Draft, shown: &str, optional: bool, text: &str) {
        let json = match parse_text(text) {
            Ok(j) => j,
            Err((loc, msg)) => {
                let at = start(loc);
                self.problem(format!("{shown}: not JSON at byte {at}: {msg}"));
                return;
            }
        };
        let JsonValue::Array(groups) = &json.value else {
            self.problem(format!("{shown}: expected an array of test groups"));
            return;
        };
        let mut out = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            if let Some(t) = self.group(draft, shown, gi, g, text) {
                out.push(t);
            }
        }
        let dir = draft.dir();
        self.files.push(quote! {
            crate::SuiteFile { path: #shown, draft: #dir, optional: #optional, groups: &[#(#out),*] }
        });
    }

    /// One group's table entry (and module, when accepted); `None` when it is malformed.
    fn group(&mut self, draft: Draft, shown: &str, gi: usize, g: &Json, text: &str) -> Option<TokenStream> {
        let here = format!("{shown} group {gi}");
        let JsonValue::Object(members) = &g.value else {
            self.problem(format!("{here}: not an object"));
            return None;
        };
        let get = |k: &str| members.iter().find(|m| m.key == k).map(|m| &m.value);
        let description = match get("description").map(|d| &d.value) {
            Some(JsonValue::String(s)) => s.clone(),
            _ => {
                self.problem(format!("{here}: no string `description`"));
                String::new()
            }
        };
        let Some(schema) = get("schema") else {
            self.problem(format!("{here} ({description}): no `schema`"));
            return None;
        };
        let Some(schema_text) = slice(text, schema.loc) else {
            self.problem(format!("{here} ({description}): cannot locate the schema text"));
            return None;
        };
        let Some(JsonValue::Array(tests)) = get("tests").map(|t| &t.value) else {
            self.problem(format!("{here} ({description}): no `tests` array"));
            return None;
        };
        let mut cases = Vec::new();
        for (ci, t) in tests.iter().enumerate() {
            let JsonValue::Object(tm) = &t.value else {
                self.problem(format!("{here} ({description}) test {ci}: not an object"));
                continue;
            };
            let tget = |k: &str| tm.iter().find(|m| m.key == k).map(|m| &m.value);
            let cdesc = match tget("description").map(|d| &d.value) {
                Some(JsonValue::String(s)) => s.clone(),
                _ => String::new(),
            };
            let data = tget("data").and_then(|d| slice(text, d.loc));
            let valid = match tget("valid").map(|v| &v.value) {
                Some(JsonValue::Bool(b)) => Some(*b),
                _ => None,
            };
            let (Some(data), Some(valid)) = (data, valid) else {
                self.problem(format!("{here} ({description}) test {ci}: needs `data` and a boolean `valid`"));
                continue;
            };
            cases.push(quote!(crate::Case { description: #cdesc, data: #data, valid: #valid }));
        }

        let mut keywords = BTreeSet::new();
        let root_draft = draft_of(schema, draft);
        walk(schema, true, root_draft, &mut keywords);
        let keywords: Vec<String> = keywords.into_iter().collect();

        // The optional format tests expect `format` to assert: those groups are compiled as
        // `#[tool(formats = assert)]` would compile them; every other group as plain `tool_schema!`
        // (with `#[tool(dialect = "draft-0N")]` outside draft 2020-12).
        let assert_formats = shown.starts_with(&format!("{}/optional/format/", draft.dir()));
        let options = draft.options(assert_formats);
        // The decision: exactly what the macro would say.
        let diags = catch(|| toolgate_compiler::diagnose_text_with(&schema_text, &options));
        let Some(diags) = diags else {
            self.problem(format!("{here} ({description}): the compiler panicked while checking the schema"));
            return None;
        };
        // Which of those come from the cross-keyword checks (check.rs) rather than lowering.
        let lowering = catch(|| lowering_count(&schema_text, &options)).unwrap_or(diags.len());
        let mut refusals = Vec::new();
        for (i, d) in diags.iter().enumerate() {
            let pointer = d.pointer.clone().unwrap_or_default();
            let keyword = keyword_at(schema, draft, &pointer);
            let message = d.message.clone();
            let impossible = i >= lowering;
            refusals.push(quote! {
                crate::Refusal { pointer: #pointer, keyword: #keyword, message: #message, impossible: #impossible }
            });
        }

        let mut ops = quote!(::core::option::Option::None);
        let mut module_name = String::new();
        let mut build_error = quote!(::core::option::Option::None);
        if diags.is_empty() {
            let module = format_ident!("g{}", self.accepted);
            self.accepted += 1;
            let krate = quote!(::toolgate);
            let generated = if assert_formats {
                self.expand_asserting_formats(draft, &schema_text)
            } else {
                catch(|| toolgate_compiler::compile_text_with("Schema", &schema_text, &krate, &options))
            };
            match generated {
                Some(Ok(tokens)) => {
                    // The same code as an earlier group's (the same schema, compiled the same way
                    // in another draft): that module is this group's validator too.
                    let code = tokens.to_string();
                    let module = if let Some(earlier) = self.by_code.get(&code) {
                        earlier.clone()
                    } else {
                        // Brackets in a suite description are not links.
                        let doc = format!("{shown}: {description}").replace('[', "\\[").replace(']', "\\]");
                        self.modules.extend(quote! {
                            #[doc = #doc]
                            #[allow(missing_docs, unused, non_camel_case_types, clippy::all, clippy::pedantic, clippy::nursery)]
                            pub mod #module {
                                #tokens
                            }
                        });
                        self.by_code.insert(code, module.clone());
                        module
                    };
                    ops = quote!(::core::option::Option::Some(crate::Ops::of::<#module::Schema>()));
                    module_name = module.to_string();
                }
                Some(Err(msgs)) => {
                    let msg = msgs.join("; ");
                    self.problem(format!(
                        "{here} ({description}): accepted by diagnose_text_with, refused by compile_text_with: {msg}"
                    ));
                    build_error = quote!(::core::option::Option::Some(#msg));
                }
                None => {
                    let msg = "the compiler panicked while generating code";
                    self.problem(format!("{here} ({description}): {msg}"));
                    build_error = quote!(::core::option::Option::Some(#msg));
                }
            }
        }
        let supported = format_ident!("{}", draft.supported_static());
        Some(quote! {
            crate::Group {
                description: #description,
                formats_asserted: #assert_formats,
                schema: #schema_text,
                keywords: &[#(#keywords),*],
                supported: crate::generated::#supported,
                refusals: &[#(#refusals),*],
                ops: #ops,
                module: #module_name,
                build_error: #build_error,
                cases: &[#(#cases),*],
            }
        })
    }

    /// Generate a group's code through the macro itself (`toolgate_compiler::expand`, what
    /// `tool_schema!` runs) with `#[tool(formats = assert)]` (and the draft's `dialect`), from the
    /// schema written to a file named by its text (so that the same schema gives the same code).
    fn expand_asserting_formats(&mut self, draft: Draft, schema: &str) -> Option<Result<TokenStream, Vec<String>>> {
        let dir = self.out_dir.join("schemas");
        let path = dir.join(format!("{:016x}.json", fnv1a(schema)));
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, schema)) {
            return Some(Err(vec![format!("cannot write {}: {e}", path.display())]));
        }
        // An absolute path: the macro joins it to CARGO_MANIFEST_DIR, which leaves it as it is.
        let Some(file) = path.to_str() else {
            return Some(Err(vec![format!("{} is not UTF-8", path.display())]));
        };
        let invocation = match draft.dialect() {
            Some(d) => {
                let name = d.option_name();
                quote!([::toolgate] #[tool(formats = assert, dialect = #name)] pub struct Schema = #file;)
            }
            None => quote!([::toolgate] #[tool(formats = assert)] pub struct Schema = #file;),
        };
        let tokens = catch(|| toolgate_compiler::expand(invocation))?;
        if tokens.to_string().contains("compile_error") {
            return Some(Err(vec![format!("the macro reported errors: {tokens}")]));
        }
        Some(Ok(tokens))
    }

    fn finish(self, location: &str) -> TokenStream {
        let Self { modules, files, problems, commit, .. } = self;
        let commit = match commit {
            Some(c) => quote!(::core::option::Option::Some(#c)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            #modules

            /// The suite as found at build time.
            pub static SUITE: crate::Suite = crate::Suite {
                present: true,
                location: #location,
                commit: #commit,
                problems: &[#(#problems),*],
                files: &[#(#files),*],
            };
        }
    }
}

/// Run `f`, turning a panic into `None` (the compiler promises not to panic; if it does, the
/// harness reports it instead of failing the build).
fn catch<T>(f: impl FnOnce() -> T) -> Option<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok();
    std::panic::set_hook(hook);
    r
}

/// How many diagnostics lowering alone reports (the rest of the decision's come from check.rs).
fn lowering_count(text: &str, options: &Options) -> usize {
    let mut diags = Diagnostics::new(Source::Text { text: text.to_owned() }, Span::call_site());
    match parse_text(text) {
        Ok(j) => {
            let _ir = toolgate_compiler::lower::lower(&j, &mut diags, options);
            diags.items().len()
        }
        Err(_) => 1,
    }
}

fn start(loc: Loc) -> usize {
    match loc {
        Loc::Bytes { start, .. } => start,
        Loc::Span(_) => 0,
    }
}

fn slice(text: &str, loc: Loc) -> Option<String> {
    match loc {
        Loc::Bytes { start, end } => text.get(start..end).map(str::to_owned),
        Loc::Span(_) => None,
    }
}

/// Every `*.json` under `dir`, recursively.
fn collect_json(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// FNV-1a of `text`: a file name for a schema.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The first 40-hex-digit word of `text` (the commit named by the suite's `SOURCE.md`).
fn commit_in(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| w.len() == 40 && w.chars().all(|c| c.is_ascii_hexdigit()))
        .map(str::to_owned)
}

/// A draft directory of the suite, and the dialect its schemas are compiled with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Draft {
    D2020,
    D07,
    D06,
    D04,
}

impl Draft {
    /// Newest first: the order of the report.
    const ALL: [Self; 4] = [Self::D2020, Self::D07, Self::D06, Self::D04];

    /// The directory under `tests/`.
    const fn dir(self) -> &'static str {
        match self {
            Self::D2020 => "draft2020-12",
            Self::D07 => "draft7",
            Self::D06 => "draft6",
            Self::D04 => "draft4",
        }
    }

    /// The name the report gives it.
    const fn title(self) -> &'static str {
        match self {
            Self::D2020 => "draft 2020-12",
            Self::D07 => "draft-07",
            Self::D06 => "draft-06",
            Self::D04 => "draft-04",
        }
    }

    /// The generated static holding its supported keywords.
    const fn supported_static(self) -> &'static str {
        match self {
            Self::D2020 => "SUPPORTED",
            Self::D07 => "SUPPORTED_DRAFT7",
            Self::D06 => "SUPPORTED_DRAFT6",
            Self::D04 => "SUPPORTED_DRAFT4",
        }
    }

    /// The `#[tool(dialect = ...)]` its schemas are compiled with (none for draft 2020-12: the
    /// suite's 2020-12 schemas are compiled with the default options, as before).
    const fn dialect(self) -> Option<toolgate_compiler::model::Draft> {
        match self {
            Self::D2020 => None,
            Self::D07 => Some(toolgate_compiler::model::Draft::Draft07),
            Self::D06 => Some(toolgate_compiler::model::Draft::Draft06),
            Self::D04 => Some(toolgate_compiler::model::Draft::Draft04),
        }
    }

    /// The compiler's options for a group of this directory.
    fn options(self, assert_formats: bool) -> Options {
        Options { assert_formats, dialect: self.dialect().map(|d| (d, Span::call_site())), ..Options::default() }
    }

    /// Before 2019-09: `$ref` overrides its siblings; `definitions`, `dependencies`,
    /// `additionalItems` and the array form of `items` hold subschemas.
    const fn legacy(self) -> bool {
        !matches!(self, Self::D2020)
    }
}

/// The dialect of a group's schema: its root `$schema` when it names one toolgate accepts, else
/// the directory's.
fn draft_of(schema: &Json, dir: Draft) -> Draft {
    if let JsonValue::Object(ms) = &schema.value {
        if let Some(JsonValue::String(s)) = ms.iter().find(|m| m.key == "$schema").map(|m| &m.value.value) {
            let declared = match bare(s) {
                "json-schema.org/draft/2020-12/schema" => Some(Draft::D2020),
                "json-schema.org/draft-07/schema" => Some(Draft::D07),
                "json-schema.org/draft-06/schema" => Some(Draft::D06),
                "json-schema.org/draft-04/schema" => Some(Draft::D04),
                _ => None,
            };
            if let Some(d) = declared {
                return d;
            }
        }
    }
    dir
}

fn bare(uri: &str) -> &str {
    uri.trim_end_matches('#').trim_start_matches("https://").trim_start_matches("http://")
}

/// Where a keyword's value holds subschemas.
enum Holds {
    /// the value is a schema
    One,
    /// the value maps names to schemas
    Map,
    /// the value is an array of schemas
    List,
    /// the value is not a schema
    Nothing,
}

fn holds(keyword: &str, draft: Draft) -> Holds {
    match keyword {
        "additionalProperties"
        | "items"
        | "contains"
        | "propertyNames"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => Holds::One,
        "properties" | "patternProperties" | "$defs" | "dependentSchemas" => Holds::Map,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Holds::List,
        "additionalItems" if draft.legacy() => Holds::One,
        "dependencies" if draft.legacy() => Holds::Map,
        "definitions" => Holds::Map,
        _ => Holds::Nothing,
    }
}

/// The keywords `schema` uses, recursively through every subschema position. Uses that the
/// compiler cannot implement whatever the keyword get their own names: `items (array form)` (in
/// draft 2020-12), `$schema (not at the root)`, `$schema (another draft)`. Before 2019-09 the
/// siblings of `$ref` are ignored (the compiler does not read them either); its `definitions`
/// stay reachable.
fn walk(schema: &Json, root: bool, draft: Draft, out: &mut BTreeSet<String>) {
    let JsonValue::Object(members) = &schema.value else { return };
    let ref_overrides = draft.legacy() && members.iter().any(|m| m.key == "$ref");
    for m in members {
        let k = m.key.as_str();
        if ref_overrides && !matches!(k, "$ref" | "definitions" | "$defs") {
            continue;
        }
        let name = match (k, &m.value.value) {
            ("items", JsonValue::Array(_)) if !draft.legacy() => "items (array form)".to_owned(),
            ("$schema", _) if !root => "$schema (not at the root)".to_owned(),
            ("$schema", JsonValue::String(s)) if !DRAFTS.contains(&bare(s)) => "$schema (another draft)".to_owned(),
            _ if k.starts_with("x-") => "x-*".to_owned(),
            _ => k.to_owned(),
        };
        out.insert(name);
        match (holds(k, draft), &m.value.value) {
            (Holds::List | Holds::One, JsonValue::Array(sub)) => {
                for s in sub {
                    walk(s, false, draft, out);
                }
            }
            (Holds::One, _) => walk(&m.value, false, draft, out),
            (Holds::Map, JsonValue::Object(sub)) => {
                for s in sub {
                    walk(&s.value, false, draft, out);
                }
            }
            _ => {}
        }
    }
}

/// The keyword a schema pointer ends in: the last reference token that names a keyword of a
/// schema object (not a property name, an index, or a position inside a keyword's value).
fn keyword_at(root: &Json, dir: Draft, pointer: &str) -> String {
    let draft = draft_of(root, dir);
    let tokens: Vec<String> = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect();
    let mut node = Some(root);
    let mut last = String::new();
    let mut i = 0;
    while let (Some(n), Some(tok)) = (node, tokens.get(i)) {
        let JsonValue::Object(ms) = &n.value else { break };
        let Some(m) = ms.iter().find(|m| &m.key == tok) else { break };
        last.clone_from(tok);
        i += 1;
        node = match (holds(tok, draft), &m.value.value) {
            (Holds::One, JsonValue::Array(a)) | (Holds::List, JsonValue::Array(a)) => {
                let idx = tokens.get(i).and_then(|t| t.parse::<usize>().ok());
                i += 1;
                idx.and_then(|x| a.get(x))
            }
            (Holds::One, _) => Some(&m.value),
            (Holds::Map, JsonValue::Object(sub)) => {
                let name = tokens.get(i);
                i += 1;
                name.and_then(|nm| sub.iter().find(|s| &s.key == nm)).map(|s| &s.value)
            }
            _ => None,
        };
    }
    if last.is_empty() {
        "(schema)".to_owned()
    } else {
        last
    }
}
