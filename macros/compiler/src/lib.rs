//! The schema compiler behind toolgate's `tool_schema!` macro.
//!
//! A plain library (no `proc_macro` dependency), so it can be unit tested and called from build
//! scripts. Stages: [`input`] (the invocation) → [`json`] (spanned JSON) → [`lower`] (IR in
//! [`model`]) → [`check`] → [`codegen`]. Problems accumulate in one [`diag::Diagnostics`] and
//! are reported together; nothing here panics on user input.

pub mod check;
pub mod codegen;
pub mod diag;
pub mod input;
pub mod json;
pub mod lower;
pub mod model;
mod suggest;

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::diag::{Diagnostics, Source};
use crate::input::{Invocation, SchemaSource, ToolItem};
use crate::json::{to_compact, Json, JsonValue, Loc};

/// Expand a `tool_schema!` invocation. Errors become `compile_error!`s at the right spans,
/// followed by a skeleton of each type so the user sees no cascade.
#[must_use]
pub fn expand(input: TokenStream) -> TokenStream {
    let inv: Invocation = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut out = TokenStream::new();
    for item in &inv.items {
        out.extend(expand_item(&inv.krate, item));
    }
    out
}

fn expand_item(k: &TokenStream, item: &ToolItem) -> TokenStream {
    let vis = &item.vis;
    let vis = quote!(#vis);
    let attrs = &item.attrs;
    let attrs = quote!(#(#attrs)*);
    let (json, mut diags, track) = match &item.schema {
        SchemaSource::Inline(tokens, eq) => {
            let mut diags = Diagnostics::new(Source::Inline, *eq);
            match json::parse_tokens(tokens.clone(), *eq) {
                Ok(j) => (Some(j), diags, None),
                Err((loc, msg)) => {
                    diags.error(loc, None, format!("invalid JSON in schema: {msg}"));
                    (None, diags, None)
                }
            }
        }
        SchemaSource::File(lit) => {
            let rel = lit.value();
            // Relative to the crate being compiled. `TOOLGATE_MANIFEST_DIR` is a second place to
            // look, for UI-test harnesses (trybuild builds the test files in a project of its own).
            let bases = [std::env::var_os("CARGO_MANIFEST_DIR"), std::env::var_os("TOOLGATE_MANIFEST_DIR")];
            let candidates: Vec<std::path::PathBuf> =
                bases.into_iter().flatten().map(|b| std::path::PathBuf::from(b).join(&rel)).collect();
            let path = candidates.iter().find(|p| p.is_file()).or(candidates.first()).cloned().unwrap_or_default();
            match std::fs::read_to_string(&path) {
                Err(e) => {
                    let mut diags = Diagnostics::new(Source::Inline, lit.span());
                    diags.error(
                        Loc::Span(lit.span()),
                        None,
                        format!("cannot read schema file `{rel}` (relative to CARGO_MANIFEST_DIR): {e}"),
                    );
                    (None, diags, None)
                }
                Ok(text) => {
                    let mut diags = Diagnostics::new(
                        Source::File { display: rel.clone(), text: text.clone(), span: lit.span() },
                        lit.span(),
                    );
                    let track = path.to_str().map(str::to_owned);
                    match json::parse_text(&text) {
                        Ok(j) => (Some(j), diags, track),
                        Err((loc, msg)) => {
                            diags.error(loc, None, format!("invalid JSON in schema file: {msg}"));
                            (None, diags, track)
                        }
                    }
                }
            }
        }
    };
    let tool_name = item.name.as_ref().map_or_else(|| model::types::snake(&item.ident.to_string()), syn::LitStr::value);
    let skeleton = |diags: &Diagnostics| {
        let errors = diags.to_compile_errors();
        let sk = codegen::skeleton(k, &vis, &attrs, &item.ident);
        quote!(#errors #sk)
    };
    let Some(json) = json else { return skeleton(&diags) };
    let type_name = item.ident.to_string();
    let compiled = compile(
        &json,
        &mut diags,
        k,
        &vis,
        &attrs,
        &type_name,
        &tool_name,
        &item.docs,
        track.as_deref(),
        &item.options,
    );
    compiled.unwrap_or_else(|| skeleton(&diags))
}

/// Lower, check and generate one schema; `None` (with diagnostics) when it is refused.
#[allow(clippy::too_many_arguments)]
fn compile(
    json: &Json,
    diags: &mut Diagnostics,
    k: &TokenStream,
    vis: &TokenStream,
    attrs: &TokenStream,
    type_name: &str,
    tool_name: &str,
    docs: &[String],
    track: Option<&str>,
    options: &lower::Options,
) -> Option<TokenStream> {
    let ir = lower::lower(json, diags, options);
    check::check(&ir, diags);
    if diags.has_errors() {
        return None;
    }
    let typing = model::types::typing(&ir, type_name);
    let description = if docs.is_empty() {
        match &json.value {
            JsonValue::Object(m) => m
                .iter()
                .find(|m| m.key == "description")
                .and_then(|m| if let JsonValue::String(s) = &m.value.value { Some(s.clone()) } else { None })
                .unwrap_or_default(),
            _ => String::new(),
        }
    } else {
        docs.iter().map(|l| l.strip_prefix(' ').unwrap_or(l)).collect::<Vec<_>>().join("\n").trim().to_owned()
    };
    let schema = to_compact(json);
    let info =
        codegen::ToolInfo { krate: k, vis, attrs, name: tool_name, description: &description, schema: &schema, track };
    Some(codegen::generate(&ir, &typing, &info))
}

/// Compile schema text outside a macro (build scripts, the conformance harness).
///
/// Generates the same code as `tool_schema! { pub struct <type_name> = <text>; }` with the
/// crate path `krate`.
///
/// # Errors
/// Every diagnostic, rendered as `line:column: message` with the schema pointer.
pub fn compile_text(type_name: &str, text: &str, krate: &TokenStream) -> Result<TokenStream, Vec<String>> {
    compile_text_with(type_name, text, krate, &lower::Options::default())
}

/// [`compile_text`] with the options of a `#[tool(...)]` attribute (formats, dialect,
/// annotations).
///
/// # Errors
/// Every diagnostic, rendered as `line:column: message` with the schema pointer.
pub fn compile_text_with(
    type_name: &str,
    text: &str,
    krate: &TokenStream,
    options: &lower::Options,
) -> Result<TokenStream, Vec<String>> {
    let mut diags = Diagnostics::new(Source::Text { text: text.to_owned() }, Span::call_site());
    let json = match json::parse_text(text) {
        Ok(j) => j,
        Err((loc, msg)) => {
            diags.error(loc, None, format!("invalid JSON in schema: {msg}"));
            return Err(diags.messages());
        }
    };
    if syn::parse_str::<syn::Ident>(type_name).is_err() {
        return Err(vec![format!("`{type_name}` is not a Rust identifier")]);
    }
    let tool = model::types::snake(type_name);
    compile(&json, &mut diags, krate, &quote!(pub), &TokenStream::new(), type_name, &tool, &[], None, options)
        .ok_or_else(|| diags.messages())
}

/// The diagnostics of a schema, without generating code (empty when it is accepted).
#[must_use]
pub fn diagnose_text(text: &str) -> Vec<diag::Diagnostic> {
    diagnose_text_with(text, &lower::Options::default())
}

/// [`diagnose_text`] with the options of a `#[tool(...)]` attribute.
#[must_use]
pub fn diagnose_text_with(text: &str, options: &lower::Options) -> Vec<diag::Diagnostic> {
    let mut diags = Diagnostics::new(Source::Text { text: text.to_owned() }, Span::call_site());
    match json::parse_text(text) {
        Ok(j) => {
            let ir = lower::lower(&j, &mut diags, options);
            check::check(&ir, &mut diags);
        }
        Err((loc, msg)) => diags.error(loc, None, format!("invalid JSON in schema: {msg}")),
    }
    diags.items().to_vec()
}
