//! `$schema`, and the refusal of every keyword no family implements.

use super::{describe, Claim, Lowerer};
use crate::diag::Diagnostics;
use crate::json::{Json, JsonValue, Member};
use crate::model::{Checks, Draft, Node};
use crate::suggest::closest;

/// The draft declared by the root's `$schema` (absent: draft 2020-12).
pub fn detect_draft(root: &Json, diags: &mut Diagnostics) -> Draft {
    let JsonValue::Object(members) = &root.value else { return Draft::Draft2020_12 };
    let Some(m) = members.iter().find(|m| m.key == "$schema") else { return Draft::Draft2020_12 };
    let JsonValue::String(uri) = &m.value.value else {
        diags.error(
            m.value.loc,
            Some("/$schema"),
            format!("`$schema` must be a URI string, found {}", describe(&m.value.value)),
        );
        return Draft::Draft2020_12;
    };
    let bare = uri.trim_end_matches('#').trim_start_matches("https://").trim_start_matches("http://");
    match bare {
        "json-schema.org/draft/2020-12/schema" => Draft::Draft2020_12,
        "json-schema.org/draft-07/schema" => Draft::Draft07,
        _ => {
            diags.error(
                m.value.loc,
                Some("/$schema"),
                format!(
                    "unsupported `$schema` {uri:?}: toolgate implements draft 2020-12 \
                     (\"https://json-schema.org/draft/2020-12/schema\") and draft-07 \
                     (\"http://json-schema.org/draft-07/schema#\")"
                ),
            );
            Draft::Draft2020_12
        }
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

/// Keywords of draft 2020-12 that toolgate does not implement yet.
const NOT_YET_2020: &[&str] = &["$dynamicRef", "$dynamicAnchor", "$vocabulary", "$recursiveRef", "$recursiveAnchor"];

/// Keywords of draft-07 that toolgate does not implement yet.
const NOT_YET_07: &[&str] = &[];

/// Keywords that exist in one draft but not in the other.
const ONLY_2020: &[&str] = &[
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "prefixItems",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];
const ONLY_07: &[&str] = &["definitions", "additionalItems", "dependencies"];

/// Every keyword name toolgate knows, for suggestions.
const KNOWN: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minProperties",
    "maxProperties",
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$schema",
    "$ref",
    "$defs",
    "$id",
    "$anchor",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "pattern",
    "format",
];

/// Refuse a member no family claimed, saying why.
pub fn refuse(l: &mut Lowerer<'_>, m: &Member, ptr: &str) {
    let k = m.key.as_str();
    let (not_yet, other_draft, other_name) = match l.draft {
        Draft::Draft2020_12 => (NOT_YET_2020, ONLY_07, "draft-07"),
        Draft::Draft07 => (NOT_YET_07, ONLY_2020, "draft 2020-12"),
    };
    let msg = if not_yet.contains(&k) {
        format!("`{k}` is not supported by toolgate yet")
    } else if other_draft.contains(&k) {
        let this = match l.draft {
            Draft::Draft2020_12 => "draft 2020-12 (the default)",
            Draft::Draft07 => "draft-07 (the declared `$schema`)",
        };
        let hint = match k {
            "definitions" => "; draft 2020-12 writes `$defs`",
            "dependencies" => "; draft 2020-12 splits it into `dependentRequired` and `dependentSchemas`",
            "additionalItems" => "; draft 2020-12 writes `prefixItems` and `items`",
            _ => "",
        };
        format!("`{k}` is a {other_name} keyword, not a keyword of {this}{hint}")
    } else {
        let mut candidates: Vec<&str> = KNOWN.to_vec();
        candidates.extend_from_slice(not_yet);
        match closest(k, &candidates) {
            Some(s) => format!("unknown keyword `{k}` (did you mean `{s}`?)"),
            None => format!(
                "unknown keyword `{k}`: toolgate refuses keywords it does not know; \
                 custom annotations start with `x-`"
            ),
        }
    };
    l.error(m.key_loc, ptr, msg);
}
