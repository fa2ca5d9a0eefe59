//! Spanned JSON → IR. One file per keyword family; this file dispatches and refuses what no
//! family claims.

mod annotations;
mod applicators;
mod array;
mod enums;
pub mod format;
mod meta;
mod number;
mod object;
mod openapi;
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
    /// the dialect in force
    pub draft: Draft,
    /// where the dialect comes from, for messages
    pub dialect_source: String,
    /// names declared annotations by `#[tool(annotations = [...])]`
    pub annotations: Vec<String>,
    /// the next schema lowered may be a boolean even where the dialect has no boolean schemas
    /// (the value of `additionalProperties`/`additionalItems` in draft-04 and OpenAPI 3.0)
    allow_boolean: bool,
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
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `#[tool(formats = assert)]`: `format` is an assertion
    pub assert_formats: bool,
    /// `#[tool(dialect = "...")]`: the dialect of a schema without `$schema`, and where the
    /// option is written
    pub dialect: Option<(Draft, proc_macro2::Span)>,
    /// `#[tool(annotations = [...])]`: keys kept as annotations, each where it is written
    pub annotations: Vec<(String, proc_macro2::Span)>,
}

/// Lower a whole schema document.
pub fn lower(root: &Json, diags: &mut Diagnostics, options: &Options) -> Ir {
    let dialect = meta::detect_draft(root, options.dialect, diags);
    let draft = dialect.draft;
    meta::check_annotations(&options.annotations, draft, diags);
    let mut l = Lowerer {
        diags,
        nodes: Vec::new(),
        draft,
        dialect_source: dialect.source,
        annotations: options.annotations.iter().map(|(n, _)| n.clone()).collect(),
        allow_boolean: false,
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
    let canon = crate::model::share::canonical(&l.nodes);
    let shared = crate::model::share::shared(&canon);
    Ir { nodes: l.nodes, root: root_id, draft, fallback, canon, shared }
}

/// The IR of schema `text`, which must lower without errors (for tests).
#[cfg(test)]
pub(crate) fn lower_valid_text(text: &str) -> Ir {
    let json = crate::json::parse_text(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut diags =
        Diagnostics::new(crate::diag::Source::Text { text: text.to_owned() }, proc_macro2::Span::call_site());
    let ir = lower(&json, &mut diags, &Options::default());
    assert!(!diags.has_errors(), "{:?}", diags.messages());
    ir
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

const FAMILIES: [Family; 12] = [
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
    openapi::lower,
    meta::lower,
];

impl Lowerer<'_> {
    /// Lower the subschema `j` found at `ptr`; returns its node.
    pub fn schema(&mut self, j: &Json, ptr: &str) -> NodeId {
        let id = self.nodes.len();
        let mut node =
            Node { pointer: ptr.to_owned(), loc: Some(j.loc), body: Body::Always, title: None, description: None };
        self.nodes.push(node.clone());
        let allow_boolean = std::mem::take(&mut self.allow_boolean);
        match &j.value {
            JsonValue::Bool(b) if !self.draft.boolean_schemas() && !allow_boolean => self.error(
                j.loc,
                ptr,
                format!(
                    "a schema must be an object in {}: boolean schemas came with draft-06 (write {})",
                    self.draft.name(),
                    if *b { "`{}`" } else { "`{\"not\": {}}`" }
                ),
            ),
            JsonValue::Bool(true) => {}
            JsonValue::Bool(false) => node.body = Body::Never,
            JsonValue::Object(members) => {
                let saved = (self.current, self.base.clone());
                self.current = id;
                // Before 2019-09, `$ref` overrides its siblings, which are ignored, `$id`
                // included (definitions stay reachable by pointer).
                let ref_overrides = self.draft.legacy() && members.iter().any(|m| m.key == "$ref");
                if !ref_overrides {
                    self.enter_resource(members, ptr);
                }
                let mut checks = Checks::default();
                let mut asserts = false;
                for m in members {
                    if ref_overrides && !matches!(m.key.as_str(), "$ref" | "definitions" | "$defs") {
                        continue;
                    }
                    let kptr = join(ptr, &m.key);
                    if self.annotations.contains(&m.key) {
                        continue;
                    }
                    if meta::refuse_foreign(self, m, &kptr) {
                        continue;
                    }
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
                if !ref_overrides {
                    number::fold_boolean_bounds(self, &mut checks, members, ptr);
                    openapi::fold_nullable(self, &mut checks, members, ptr);
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
        let key = self.draft.id_keyword();
        let Some(m) = members.iter().find(|m| !key.is_empty() && m.key == key) else { return };
        let id_ptr = join(ptr, key);
        let JsonValue::String(id) = &m.value.value else {
            self.error(
                m.value.loc,
                &id_ptr,
                format!("`{key}` must be a URI reference, found {}", describe(&m.value.value)),
            );
            return;
        };
        if self.draft.legacy() && id.starts_with('#') {
            // Before 2019-09, a location-independent identifier: a plain-name fragment is an anchor.
            let uri = format!("{}{id}", refs::strip_fragment(&self.base));
            self.anchors.insert(uri, self.current);
            return;
        }
        match id.split_once('#') {
            Some((_, frag)) if !frag.is_empty() => {
                self.error(
                    m.value.loc,
                    &id_ptr,
                    format!("`{key}` {id:?} must not have a fragment; use `$anchor` for names"),
                );
            }
            _ => {
                let base = refs::resolve(&self.base, refs::strip_fragment(id));
                self.resources.insert(base.clone(), ptr.to_owned());
                self.base = base;
            }
        }
    }

    /// Lower the subschema `j` where a boolean is allowed in every dialect (the value of
    /// `additionalProperties` and `additionalItems`).
    pub fn schema_or_boolean(&mut self, j: &Json, ptr: &str) -> NodeId {
        self.allow_boolean = true;
        self.schema(j, ptr)
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
