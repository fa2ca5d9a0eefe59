//! `$schema` and the dialect: which keywords exist in it, and the refusal of every keyword no
//! family implements.

use proc_macro2::Span;

use super::{describe, Claim, Lowerer};
use crate::diag::Diagnostics;
use crate::json::{Json, JsonValue, Loc, Member};
use crate::model::{Checks, Draft, Node};
use crate::suggest::closest;

/// The dialect of a document and where it was decided (for messages).
pub struct Dialect {
    /// the dialect
    pub draft: Draft,
    /// where it comes from: "the default", "the declared `$schema`", the tool option
    pub source: String,
}

/// The `$schema` URIs toolgate accepts (without scheme and trailing `#`), and their dialects.
pub const SCHEMA_URIS: [(&str, Draft); 4] = [
    ("json-schema.org/draft/2020-12/schema", Draft::Draft2020_12),
    ("json-schema.org/draft-07/schema", Draft::Draft07),
    ("json-schema.org/draft-06/schema", Draft::Draft06),
    ("json-schema.org/draft-04/schema", Draft::Draft04),
];

/// `uri` without scheme and trailing `#`.
#[must_use]
pub fn bare_uri(uri: &str) -> &str {
    uri.trim_end_matches('#').trim_start_matches("https://").trim_start_matches("http://")
}

/// The dialect of the document: the root's `$schema`, else the tool's `dialect` option, else
/// draft 2020-12. A `$schema` that contradicts the option is an error.
pub fn detect_draft(root: &Json, option: Option<(Draft, Span)>, diags: &mut Diagnostics) -> Dialect {
    let default = match option {
        Some((draft, _)) => Dialect { draft, source: format!("`#[tool(dialect = {:?})]`", draft.option_name()) },
        None => Dialect { draft: Draft::Draft2020_12, source: "the default".to_owned() },
    };
    let JsonValue::Object(members) = &root.value else { return default };
    let Some(m) = members.iter().find(|m| m.key == "$schema") else { return default };
    let JsonValue::String(uri) = &m.value.value else {
        diags.error(
            m.value.loc,
            Some("/$schema"),
            format!("`$schema` must be a URI string, found {}", describe(&m.value.value)),
        );
        return default;
    };
    let Some(&(_, declared)) = SCHEMA_URIS.iter().find(|(u, _)| *u == bare_uri(uri)) else {
        diags.error(
            m.value.loc,
            Some("/$schema"),
            format!(
                "unsupported `$schema` {uri:?}: toolgate implements draft 2020-12 \
                 (\"https://json-schema.org/draft/2020-12/schema\"), draft-07 \
                 (\"http://json-schema.org/draft-07/schema#\"), draft-06 and draft-04"
            ),
        );
        return default;
    };
    match option {
        Some((Draft::OpenApi30, _)) => {
            diags.error(
                m.key_loc,
                Some("/$schema"),
                "an OpenAPI 3.0 Schema Object has no `$schema`: remove it, or remove \
                 `#[tool(dialect = \"openapi-3.0\")]` to use the JSON Schema dialect it declares",
            );
            default
        }
        Some((chosen, _)) if chosen != declared => {
            diags.error(
                m.value.loc,
                Some("/$schema"),
                format!(
                    "`$schema` declares {} but `#[tool(dialect = \"{}\")]` says {}: keep one of them",
                    declared.name(),
                    chosen.option_name(),
                    chosen.name()
                ),
            );
            default
        }
        _ => Dialect { draft: declared, source: "the declared `$schema`".to_owned() },
    }
}

pub fn lower(l: &mut Lowerer<'_>, _: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    if m.key != "$schema" {
        return Claim::No;
    }
    if ptr != "/$schema" {
        l.error(m.key_loc, ptr, "`$schema` is only allowed at the root of a tool schema");
    }
    Claim::Annotation
}

const D04: u8 = 1;
const D06: u8 = 2;
const D07: u8 = 4;
const D2020: u8 = 8;
const OAS: u8 = 16;
const JSON_SCHEMA: u8 = D04 | D06 | D07 | D2020;
const EVERY: u8 = JSON_SCHEMA | OAS;

/// Every keyword toolgate knows and the dialects that have it. Pure annotations of later drafts
/// (`$comment`, `examples`, the content keywords) are accepted in every JSON Schema draft: the
/// older drafts' validators ignore them, so they mean the same nothing there.
const KEYWORDS: &[(&str, u8)] = &[
    ("type", EVERY),
    ("enum", EVERY),
    ("properties", EVERY),
    ("required", EVERY),
    ("additionalProperties", EVERY),
    ("items", EVERY),
    ("minItems", EVERY),
    ("maxItems", EVERY),
    ("uniqueItems", EVERY),
    ("minLength", EVERY),
    ("maxLength", EVERY),
    ("pattern", EVERY),
    ("minimum", EVERY),
    ("maximum", EVERY),
    ("exclusiveMinimum", EVERY),
    ("exclusiveMaximum", EVERY),
    ("multipleOf", EVERY),
    ("minProperties", EVERY),
    ("maxProperties", EVERY),
    ("allOf", EVERY),
    ("anyOf", EVERY),
    ("oneOf", EVERY),
    ("not", EVERY),
    ("format", EVERY),
    ("$ref", EVERY),
    ("title", EVERY),
    ("description", EVERY),
    ("default", EVERY),
    ("deprecated", EVERY),
    ("readOnly", EVERY),
    ("writeOnly", EVERY),
    // OpenAPI 3.0 has no `$schema`; `detect_draft` says so when the option chose it.
    ("$schema", EVERY),
    ("patternProperties", JSON_SCHEMA),
    ("$defs", JSON_SCHEMA),
    // A container of schemas reachable by `$ref` pointer in every draft; it asserts nothing.
    ("definitions", JSON_SCHEMA),
    ("examples", JSON_SCHEMA),
    ("$comment", JSON_SCHEMA),
    ("contentEncoding", JSON_SCHEMA),
    ("contentMediaType", JSON_SCHEMA),
    ("dependencies", D04 | D06 | D07),
    ("additionalItems", D04 | D06 | D07),
    ("id", D04),
    ("$id", D06 | D07 | D2020),
    ("const", D06 | D07 | D2020),
    ("contains", D06 | D07 | D2020),
    ("propertyNames", D06 | D07 | D2020),
    ("if", D07 | D2020),
    ("then", D07 | D2020),
    ("else", D07 | D2020),
    ("$anchor", D2020),
    ("prefixItems", D2020),
    ("minContains", D2020),
    ("maxContains", D2020),
    ("dependentRequired", D2020),
    ("dependentSchemas", D2020),
    ("unevaluatedProperties", D2020),
    ("unevaluatedItems", D2020),
    ("contentSchema", D2020),
    ("$dynamicRef", D2020),
    ("$dynamicAnchor", D2020),
    ("$vocabulary", D2020),
    ("nullable", OAS),
    ("discriminator", OAS),
    ("xml", OAS),
    ("externalDocs", OAS),
    ("example", OAS),
];

/// Keywords of draft 2020-12 (or 2019-09) that toolgate does not implement yet.
const NOT_YET: &[&str] = &["$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef", "$recursiveAnchor"];

const fn bit(d: Draft) -> u8 {
    match d {
        Draft::Draft04 => D04,
        Draft::Draft06 => D06,
        Draft::Draft07 => D07,
        Draft::Draft2020_12 => D2020,
        Draft::OpenApi30 => OAS,
    }
}

/// The keywords of `draft`, for suggestions.
fn keywords_of(draft: Draft) -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(move |(_, d)| d & bit(draft) != 0).map(|(k, _)| *k)
}

/// If `k` is a keyword of another dialect but not of this one, refuse it (saying whose it is)
/// and return `true`.
pub fn refuse_foreign(l: &mut Lowerer<'_>, m: &Member, ptr: &str) -> bool {
    let Some(&(k, dialects)) = KEYWORDS.iter().find(|(n, _)| *n == m.key) else { return false };
    if dialects & bit(l.draft) != 0 {
        return false;
    }
    let owners: Vec<&str> = Draft::ALL.iter().rev().filter(|d| dialects & bit(**d) != 0).map(|d| d.name()).collect();
    let owners = match owners.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => owners.concat(),
    };
    let hint = match (k, l.draft) {
        ("dependencies", _) => "; draft 2020-12 splits it into `dependentRequired` and `dependentSchemas`",
        ("additionalItems", Draft::Draft2020_12) => "; draft 2020-12 writes `prefixItems` and `items`",
        ("id", _) => "; write `$id`",
        ("$id", Draft::Draft04) => "; draft-04 writes `id`",
        ("examples", Draft::OpenApi30) => "; OpenAPI 3.0 writes one `example`",
        ("nullable", _) => "; JSON Schema writes `\"type\": [\"string\", \"null\"]`",
        ("example", _) => "; JSON Schema writes `examples`, an array",
        ("if" | "then" | "else", _) => {
            "; a validator of this draft ignores it, which is never what was meant (declare draft-07)"
        }
        _ => "",
    };
    // OpenAPI's annotations, written beside JSON Schema (OpenAPI 3.1 is draft 2020-12, and
    // pydantic writes `discriminator` so): kept when the user names them.
    let keep = if matches!(k, "discriminator" | "xml" | "externalDocs") {
        format!(
            "; OpenAPI 3.1 and pydantic write it beside JSON Schema as an annotation: keep it as one with \
             `#[tool(annotations = [{k:?}])]`"
        )
    } else {
        String::new()
    };
    let article = if owners.starts_with('O') { "an" } else { "a" };
    let this = l.draft.name();
    let from = &l.dialect_source;
    l.error(
        m.key_loc,
        ptr,
        format!("`{k}` is {article} {owners} keyword, not a keyword of {this} ({from}){hint}{keep}"),
    );
    true
}

/// Refuse a member no family claimed, saying why.
pub fn refuse(l: &mut Lowerer<'_>, m: &Member, ptr: &str) {
    let k = m.key.as_str();
    let msg = if NOT_YET.contains(&k) {
        format!("`{k}` is not supported by toolgate yet")
    } else {
        let mut candidates: Vec<&str> = keywords_of(l.draft).collect();
        candidates.extend_from_slice(NOT_YET);
        match closest(k, &candidates) {
            Some(s) => format!("unknown keyword `{k}` (did you mean `{s}`?)"),
            None => format!(
                "unknown keyword `{k}`: toolgate refuses keywords it does not know (they are usually typos); \
                 if it is an annotation, declare it with `#[tool(annotations = [{k:?}])]` or prefix it with `x-`"
            ),
        }
    };
    l.error(m.key_loc, ptr, msg);
}

/// `#[tool(annotations = [...])]`: a declared name must not be a keyword of the schema's dialect
/// `draft` (it would stop meaning what the schema says). A keyword of another dialect only (an
/// OpenAPI `discriminator` beside draft 2020-12, say) may be named: that dialect's validators
/// ignore it too. Reported at the name in the attribute.
pub fn check_annotations(names: &[(String, Span)], draft: Draft, diags: &mut Diagnostics) {
    for (name, span) in names {
        if keywords_of(draft).any(|k| k == name) {
            diags.error(
                Loc::Span(*span),
                None,
                format!(
                    "`{name}` is a keyword of {}: `annotations` names other keys to keep as annotations",
                    draft.name()
                ),
            );
        }
    }
}
