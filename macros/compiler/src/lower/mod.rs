//! Spanned JSON → IR. One file per keyword family; this file dispatches and refuses what no
//! family claims.

mod annotations;
mod array;
mod enums;
mod meta;
mod number;
mod object;
mod string;
mod types;

use crate::diag::Diagnostics;
use crate::json::{Json, JsonValue, Loc, Member, Num};
use crate::model::{Body, Checks, Draft, Ir, Node, NodeId};

/// Lowering state: the nodes built so far and the diagnostics.
pub struct Lowerer<'d> {
    /// where problems go
    pub diags: &'d mut Diagnostics,
    /// nodes built so far
    pub nodes: Vec<Node>,
    /// the declared draft
    pub draft: Draft,
}

/// Lower a whole schema document.
pub fn lower(root: &Json, diags: &mut Diagnostics) -> Ir {
    let draft = meta::detect_draft(root, diags);
    let mut l = Lowerer { diags, nodes: Vec::new(), draft };
    let root_id = l.schema(root, "");
    let fallback = Node { pointer: String::new(), loc: None, body: Body::Always, title: None, description: None };
    Ir { nodes: l.nodes, root: root_id, draft, fallback }
}

/// `ptr` extended by one reference token (RFC 6901 escaping).
#[must_use]
pub fn join(ptr: &str, token: &str) -> String {
    format!("{ptr}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// What a family made of a member.
pub enum Claim {
    /// not this family's keyword
    No,
    /// an assertion keyword (handled, possibly with diagnostics)
    Assertion,
    /// an annotation or a meta keyword (handled)
    Annotation,
}

type Family = fn(&mut Lowerer<'_>, &mut Checks, &mut Node, &Member, &str) -> Claim;

const FAMILIES: [Family; 8] = [
    types::lower,
    enums::lower,
    object::lower,
    array::lower,
    string::lower,
    number::lower,
    annotations::lower,
    meta::lower,
];

impl Lowerer<'_> {
    /// Lower the subschema `j` found at `ptr`; returns its node.
    pub fn schema(&mut self, j: &Json, ptr: &str) -> NodeId {
        let id = self.nodes.len();
        let mut node =
            Node { pointer: ptr.to_owned(), loc: Some(j.loc), body: Body::Always, title: None, description: None };
        self.nodes.push(node.clone());
        match &j.value {
            JsonValue::Bool(true) => {}
            JsonValue::Bool(false) => node.body = Body::Never,
            JsonValue::Object(members) => {
                let mut checks = Checks::default();
                let mut asserts = false;
                for m in members {
                    let kptr = join(ptr, &m.key);
                    let mut claimed = false;
                    for family in FAMILIES {
                        match family(self, &mut checks, &mut node, m, &kptr) {
                            Claim::No => continue,
                            Claim::Assertion => asserts = true,
                            Claim::Annotation => {}
                        }
                        claimed = true;
                        break;
                    }
                    if !claimed {
                        meta::refuse(self, m, &kptr);
                    }
                }
                if asserts {
                    node.body = Body::Checks(Box::new(checks));
                }
            }
            other => {
                self.error(j.loc, ptr, format!("a schema must be an object or a boolean, found {}", other.type_name()))
            }
        }
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = node;
        }
        id
    }

    /// Report a problem at `loc`.
    pub fn error(&mut self, loc: Loc, ptr: &str, msg: impl Into<String>) {
        self.diags.error(loc, Some(ptr), msg);
    }

    /// The member's value as a non-negative integer (`2.0` counts, as the spec says).
    pub fn non_negative(&mut self, m: &Member, ptr: &str) -> Option<u64> {
        if let JsonValue::Number(n) = &m.value.value {
            if let Some(v) = n.as_i128().filter(|_| !n.is_negative()) {
                return Some(u64::try_from(v).unwrap_or(u64::MAX));
            }
        }
        let found = describe(&m.value.value);
        self.error(m.value.loc, ptr, format!("`{}` must be a non-negative integer, found {found}", m.key));
        None
    }

    /// The member's value as a number.
    pub fn number(&mut self, m: &Member, ptr: &str) -> Option<Num> {
        if let JsonValue::Number(n) = &m.value.value {
            if n.as_f64().is_finite() {
                return Some(n.clone());
            }
            self.error(m.value.loc, ptr, format!("`{}` is too large to compare exactly", m.key));
            return None;
        }
        let found = describe(&m.value.value);
        self.error(m.value.loc, ptr, format!("`{}` must be a number, found {found}", m.key));
        None
    }

    /// The member's value as a boolean.
    pub fn boolean(&mut self, m: &Member, ptr: &str) -> Option<bool> {
        if let JsonValue::Bool(b) = m.value.value {
            return Some(b);
        }
        let found = describe(&m.value.value);
        self.error(m.value.loc, ptr, format!("`{}` must be a boolean, found {found}", m.key));
        None
    }

    /// The member's value as a string.
    pub fn string(&mut self, m: &Member, ptr: &str) -> Option<String> {
        if let JsonValue::String(s) = &m.value.value {
            return Some(s.clone());
        }
        let found = describe(&m.value.value);
        self.error(m.value.loc, ptr, format!("`{}` must be a string, found {found}", m.key));
        None
    }
}

/// A short description of a schema value for messages: `string "x"`, `number -1`, `object`.
#[must_use]
pub fn describe(v: &JsonValue) -> String {
    match v {
        JsonValue::Null => "null".into(),
        JsonValue::Bool(b) => format!("boolean {b}"),
        JsonValue::Number(n) => format!("number {}", n.text()),
        JsonValue::String(s) => format!("string {s:?}"),
        JsonValue::Array(_) => "an array".into(),
        JsonValue::Object(_) => "an object".into(),
    }
}
