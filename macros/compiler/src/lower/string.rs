//! `minLength`, `maxLength` (Unicode code points), `pattern` (ECMA-262, compiled to a DFA).

use super::{describe, Claim, Lowerer};
use crate::json::{JsonValue, Loc, Member};
use crate::model::{Checks, Dfa, Kw, Node, Pattern};

/// Translate and compile a pattern, reporting at `loc` if it cannot be done exactly.
pub fn pattern(l: &mut Lowerer<'_>, source: &str, loc: Loc, ptr: &str) -> Option<Pattern> {
    let translated = match super::regex::translate(source) {
        Ok(t) => t,
        Err(what) => {
            l.error(loc, ptr, format!("pattern {source:?} uses {what}, which toolgate cannot match exactly (it compiles patterns to finite automata)"));
            return None;
        }
    };
    match super::regex::compile(&translated) {
        Ok(dfa) => {
            let fixed = match &dfa {
                Dfa::Table(t) => super::regex::fixed(t),
                Dfa::Sparse { .. } => None,
            };
            Some(Pattern { source: source.to_owned(), translated, dfa, fixed, leap_seconds_at: None })
        }
        Err(e) => {
            l.error(loc, ptr, format!("pattern {source:?} cannot be compiled: {e}"));
            None
        }
    }
}

pub fn lower(l: &mut Lowerer<'_>, c: &mut Checks, _: &mut Node, m: &Member, ptr: &str) -> Claim {
    match m.key.as_str() {
        "minLength" => c.min_length = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "maxLength" => c.max_length = l.non_negative(m, ptr).map(|v| Kw { value: v, loc: m.key_loc }),
        "pattern" => match &m.value.value {
            JsonValue::String(s) => c.pattern = pattern(l, s, m.value.loc, ptr),
            other => l.error(m.value.loc, ptr, format!("`pattern` must be a string, found {}", describe(other))),
        },
        _ => return Claim::No,
    }
    Claim::Assertion
}
