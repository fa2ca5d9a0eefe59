//! `type`.

use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Member};
use crate::model::{Checks, Draft, JsonType, Kw, Node};
use crate::suggest::closest;

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    if m.key != "type" {
        return Claim::No;
    }
    let names: Vec<(&str, crate::json::Loc)> = match &m.value.value {
        JsonValue::String(s) => vec![(s.as_str(), m.value.loc)],
        JsonValue::Array(a) if !a.is_empty() => {
            let mut out = Vec::new();
            for (i, x) in a.iter().enumerate() {
                if let JsonValue::String(s) = &x.value {
                    out.push((s.as_str(), x.loc));
                } else {
                    l.error(
                        x.loc,
                        &format!("{ptr}/{i}"),
                        format!("`type` lists type names, found {}", describe(&x.value)),
                    );
                    return Claim::Assertion;
                }
            }
            out
        }
        other => {
            l.error(
                m.value.loc,
                ptr,
                format!("`type` must be a type name or a non-empty array of them, found {}", describe(other)),
            );
            return Claim::Assertion;
        }
    };
    if l.draft == Draft::OpenApi30 {
        if let JsonValue::Array(_) = m.value.value {
            l.error(
                m.value.loc,
                ptr,
                "`type` is one type name in OpenAPI 3.0, not a list (for null, write `\"nullable\": true` beside it)",
            );
            return Claim::Assertion;
        }
        if names.iter().any(|(n, _)| *n == "null") {
            l.error(
                m.value.loc,
                ptr,
                "OpenAPI 3.0 has no `null` type: write `\"nullable\": true` beside the schema's `type`",
            );
            return Claim::Assertion;
        }
    }
    let mut types = Vec::new();
    for (i, (name, loc)) in names.into_iter().enumerate() {
        let item_ptr = if matches!(m.value.value, JsonValue::Array(_)) { format!("{ptr}/{i}") } else { ptr.to_owned() };
        match JsonType::from_name(name) {
            Some(t) if types.contains(&t) => l.error(loc, &item_ptr, format!("type `{name}` is listed twice")),
            Some(t) => types.push(t),
            None => {
                let all: Vec<&str> = JsonType::ALL.iter().map(|t| t.name()).collect();
                let hint = closest(name, &all).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
                l.error(
                    loc,
                    &item_ptr,
                    format!("unknown type `{name}`{hint}; the types are null, boolean, integer, number, string, array and object"),
                );
            }
        }
    }
    c.types = Some(Kw { value: types, loc: m.key_loc });
    Claim::Assertion
}
