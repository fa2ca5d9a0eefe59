//! Spanned JSON → IR. One file per keyword family; this file dispatches and refuses what no
//! family claims.

mod annotations;
mod applicators;
mod array;
mod enums;
mod format;
mod meta;
mod number;
mod object;
pub mod refs;
pub mod regex;
mod string;
mod types;

use std::collections::HashMap;

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
    /// the node being lowered
    pub current: NodeId,
    /// the base URI in force (`$id`)
    pub base: String,
    /// schema resources: absolute URI (no fragment) → pointer of the resource root
    pub resources: HashMap<String, String>,
    /// `$anchor`s: absolute URI with fragment → node
    pub anchors: HashMap<String, NodeId>,
    /// `$ref`s to resolve once every node exists
    pub refs: Vec<refs::PendingRef>,
    /// assert `format` instead of treating it as an annotation
    pub assert_formats: bool,
}

/// Options of one compilation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// `#[tool(formats = assert)]`: `format` is an assertion
    pub assert_formats: bool,
}

/// Lower a whole schema document.
pub fn lower(root: &Json, diags: &mut Diagnostics, options: Options) -> Ir {
    let draft = meta::detect_draft(root, diags);
    let mut l = Lowerer {
        diags,
        nodes: Vec::new(),
        draft,
        current: 0,
        base: String::new(),
        resources: HashMap::new(),
        anchors: HashMap::new(),
        refs: Vec::new(),
        assert_formats: options.assert_formats,
    };
    l.resources.insert(String::new(), String::new());
    let root_id = l.schema(root, "");
    refs::resolve_all(&mut l);
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

const FAMILIES: [Family; 11] = [
    types::lower,
    enums::lower,
    object::lower,
    array::lower,
    string::lower,
    number::lower,
    applicators::lower,
    refs::lower,
    format::lower,
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
                let saved = (self.current, self.base.clone());
                self.current = id;
                self.enter_resource(members, ptr);
                let draft07_ref = self.draft == Draft::Draft07 && members.iter().any(|m| m.key == "$ref");
                let mut checks = Checks::default();
                let mut asserts = false;
                for m in members {
                    // Draft-07: `$ref` overrides its siblings, which are ignored (definitions
                    // stay reachable by pointer).
                    if draft07_ref && m.key != "$ref" && m.key != "definitions" {
                        continue;
                    }
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
                if let Some(extra) = checks.additional_items.take() {
                    if !checks.prefix_items.is_empty() && checks.items.is_none() {
                        checks.items = Some(extra);
                    }
                }
                if asserts {
                    node.body = Body::Checks(Box::new(checks));
                }
                (self.current, self.base) = saved;
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

    /// Apply the object's `$id` (it sets the base URI for the object itself).
    fn enter_resource(&mut self, members: &[Member], ptr: &str) {
        let Some(m) = members.iter().find(|m| m.key == "$id") else { return };
        let id_ptr = join(ptr, "$id");
        let JsonValue::String(id) = &m.value.value else {
            self.error(
                m.value.loc,
                &id_ptr,
                format!("`$id` must be a URI reference, found {}", describe(&m.value.value)),
            );
            return;
        };
        if self.draft == Draft::Draft07 && id.starts_with('#') {
            // Draft-07 location-independent identifier: a plain-name fragment is an anchor.
            let uri = format!("{}{id}", refs::strip_fragment(&self.base));
            self.anchors.insert(uri, self.current);
            return;
        }
        match id.split_once('#') {
            Some((_, frag)) if !frag.is_empty() => {
                self.error(
                    m.value.loc,
                    &id_ptr,
                    format!("`$id` {id:?} must not have a fragment; use `$anchor` for names"),
                );
            }
            _ => {
                let base = refs::resolve(&self.base, refs::strip_fragment(id));
                self.resources.insert(base.clone(), ptr.to_owned());
                self.base = base;
            }
        }
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
