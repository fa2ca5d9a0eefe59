//! The typed mapping: which Rust type each subschema becomes. Computed from the IR once, read by
//! codegen.

use std::collections::{BTreeSet, HashMap};

use super::{Body, Checks, Ir, JsonType, NodeId};
use crate::json::{JsonValue, Num};

/// A Rust type for a subschema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// `serde_json::Value`: anything not cleanly typable (still validated)
    Value,
    /// `bool`
    Bool,
    /// `i64` (an integer whose bounds fit)
    I64,
    /// `u64` (a non-negative integer whose bounds fit `u64` but not `i64`)
    U64,
    /// `serde_json::Number` (an integer with no bounds that fit a machine integer)
    Number,
    /// `f64`
    F64,
    /// `String`
    String,
    /// `()` for `null`
    Unit,
    /// `Vec<T>`
    Vec(Box<Ty>),
    /// `Option<T>` for `[T, "null"]`
    Option(Box<Ty>),
    /// `BTreeMap<String, T>` for an object without `properties`
    Map(Box<Ty>),
    /// a generated type, by index in [`Typing::defs`]
    Named(usize),
    /// `Box<T>`: a reference back to a type still being defined (recursion)
    Box(Box<Ty>),
}

/// A generated type.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// the Rust name
    pub name: String,
    /// the doc comment
    pub doc: String,
    /// what it is
    pub kind: TypeKind,
    /// the subschema it comes from
    pub node: NodeId,
}

/// The shape of a generated type.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// a struct with named fields
    Struct {
        /// the declared properties
        fields: Vec<Field>,
        /// the field for undeclared members, when `additionalProperties` is given and not `false`
        extra: Option<(String, Ty)>,
        /// required members whose value the schema fixes to one string (the tag of a tagged
        /// union): not fields; `Serialize` writes them first, in this order (JSON name, value)
        fixed: Vec<(String, String)>,
    },
    /// a string enum
    Enum {
        /// one per value
        variants: Vec<Variant>,
    },
    /// a tuple struct around another type (a root that is not an object or a string enum)
    Newtype(Ty),
    /// `anyOf`/`oneOf` as a Rust enum, one variant per branch: branches told apart by their JSON
    /// type, by a required property fixed to a different string in each (the branch's struct
    /// writes that tag back when serialised, as one of its `fixed` members), or, for closed
    /// object branches, by a required property no other branch declares
    Choice {
        /// the variants, in branch order
        variants: Vec<ChoiceVariant>,
    },
}

/// A variant of a [`TypeKind::Choice`].
#[derive(Debug, Clone)]
pub struct ChoiceVariant {
    /// the Rust identifier
    pub ident: String,
    /// what a valid instance of this branch (and of no other) has
    pub select: Select,
    /// the payload (a struct for [`Select::Tag`] and [`Select::Key`], boxed when it is still
    /// being defined)
    pub ty: Ty,
}

/// How a [`TypeKind::Choice`] picks the variant of a valid instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Select {
    /// the instance's JSON type
    Type(JsonType),
    /// the string value of member `name`
    Tag {
        /// the tag property's JSON name
        name: String,
        /// this branch's value
        value: String,
    },
    /// the presence of this member
    Key(String),
}

/// A struct field.
#[derive(Debug, Clone)]
pub struct Field {
    /// the Rust identifier (possibly raw, `r#type`)
    pub ident: String,
    /// the JSON property name
    pub json: String,
    /// the type without the `Option` that optional or nullable adds
    pub ty: Ty,
    /// listed in `required`
    pub required: bool,
    /// the schema allows `null` (so the field is an `Option`)
    pub nullable: bool,
    /// the doc comment
    pub doc: String,
}

impl Field {
    /// Whether the Rust field is an `Option`.
    #[must_use]
    pub fn is_option(&self) -> bool {
        !self.required || self.nullable
    }
}

/// An enum variant.
#[derive(Debug, Clone)]
pub struct Variant {
    /// the Rust identifier
    pub ident: String,
    /// the JSON string
    pub json: String,
}

/// All generated types of one schema.
#[derive(Debug, Clone)]
pub struct Typing {
    /// every type; the root's is `defs[root]`
    pub defs: Vec<TypeDef>,
    /// the index of the root type
    pub root: usize,
}

struct Namer<'a> {
    ir: &'a Ir,
    defs: Vec<TypeDef>,
    used: BTreeSet<String>,
    /// types already computed, by node (a `$ref` target is typed once and reused)
    memo: HashMap<NodeId, Ty>,
    /// struct (and tagged union) definitions under construction, by node (references to them
    /// are boxed)
    in_progress: HashMap<NodeId, usize>,
    /// nodes being typed (a cycle that does not pass through a struct becomes `Value`)
    visiting: BTreeSet<NodeId>,
    /// the targets of `$ref`s (a branch that is only an object because of its parent's `type`
    /// must not be reachable from elsewhere)
    referenced: BTreeSet<NodeId>,
    /// struct nodes that are a branch of a tagged union, with their tag properties: those
    /// members become `fixed` (not fields), wherever the struct is used
    tags: HashMap<NodeId, BTreeSet<String>>,
}

/// What the typing state was before an attempt that may be abandoned.
struct Checkpoint {
    defs: usize,
    used: BTreeSet<String>,
    memo: HashMap<NodeId, Ty>,
    in_progress: HashMap<NodeId, usize>,
    visiting: BTreeSet<NodeId>,
}

/// How a struct treats the members its properties do not declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extra {
    /// no `additionalProperties`: allowed, not kept
    Dropped,
    /// `additionalProperties: false`
    Closed,
    /// kept as `Value`s (`additionalProperties` beside `patternProperties`)
    Any,
    /// kept, typed by this schema
    Schema(NodeId),
}

/// The object shape a struct is built from: one schema's `properties`, or the exact merge of a
/// schema and its `allOf` parts.
#[derive(Debug, Clone)]
struct View {
    /// every declaration, in order (a name declared by several parts appears once per part)
    props: Vec<(String, NodeId)>,
    /// the union of the parts' `required`
    required: BTreeSet<String>,
    /// some part has `"type": "object"`
    is_object: bool,
    /// the undeclared members
    extra: Extra,
    /// some part has `patternProperties`
    patterns: bool,
}

impl View {
    /// The view of one schema's own `properties`.
    fn own(c: &Checks, ir: &Ir) -> Self {
        Self {
            props: c.properties.iter().map(|p| (p.name.clone(), p.node)).collect(),
            required: c.required.iter().map(|(r, _)| r.clone()).collect(),
            is_object: c.is_only(JsonType::Object),
            extra: match c.additional {
                Some(a) if matches!(ir.node(a).body, Body::Never) => Extra::Closed,
                // With `patternProperties` the extra members may follow other schemas too.
                Some(_) if !c.pattern_properties.is_empty() => Extra::Any,
                Some(a) => Extra::Schema(a),
                None => Extra::Dropped,
            },
            patterns: !c.pattern_properties.is_empty(),
        }
    }

    /// The schemas declaring property `name`.
    fn decls<'v>(&'v self, name: &'v str) -> impl Iterator<Item = NodeId> + 'v {
        self.props.iter().filter(move |(n, _)| n == name).map(|(_, d)| *d)
    }
}

/// How the variants of an enum for `anyOf`/`oneOf` are told apart.
enum Dispatch {
    /// by the string value of this property (`value` of each branch)
    Tag(String),
    /// by which branch's key property is present (`value` of each branch)
    Keys,
}

/// An `anyOf`/`oneOf` of object schemas whose branches can be told apart.
struct Alternatives {
    dispatch: Dispatch,
    /// a branch is `{"type": "null"}`
    nullable: bool,
    /// the other branches
    branches: Vec<AltBranch>,
}

struct AltBranch {
    /// the branch schema
    node: NodeId,
    /// the schema its struct is built from (after `$ref`s)
    target: NodeId,
    /// the tag value, or the key property
    value: String,
    /// the `$defs` name, when the branch is a reference to one
    def_name: Option<String>,
    /// an object only because the union's own `type` says so: built directly
    by_parent: bool,
}

/// A non-null branch of an `anyOf`/`oneOf` of object schemas, before it is told apart.
struct Found {
    node: NodeId,
    target: NodeId,
    def_name: Option<String>,
    view: View,
    by_parent: bool,
}

/// Compute the typed mapping of `ir`, naming the root type `root_name`.
#[must_use]
pub fn typing(ir: &Ir, root_name: &str) -> Typing {
    let mut n = Namer {
        ir,
        defs: Vec::new(),
        used: BTreeSet::new(),
        memo: HashMap::new(),
        in_progress: HashMap::new(),
        visiting: BTreeSet::new(),
        referenced: BTreeSet::new(),
        tags: HashMap::new(),
    };
    for node in &ir.nodes {
        if let Body::Checks(c) = &node.body {
            if let Some(r) = &c.reference {
                n.referenced.insert(r.value.1);
            }
        }
    }
    // A struct that is a branch of a tagged union does not keep the tag as a field, wherever it
    // is used; found before any struct is built.
    for node in &ir.nodes {
        if let Body::Checks(c) = &node.body {
            if let Some(Alternatives { dispatch: Dispatch::Tag(tag), branches, .. }) = n.detect_tag(c) {
                for b in branches {
                    n.tags.entry(b.target).or_default().insert(tag.clone());
                }
            }
        }
    }
    n.used.insert(root_name.to_owned());
    let ty = n.ty_of(ir.root, root_name, true);
    let root = match ty {
        Ty::Named(i) if n.defs.get(i).is_some_and(|d| d.node == ir.root) => i,
        other => {
            // The root is a tuple struct around `other`. A type inside it that took the root's
            // name (the struct of `"type": ["object", "null"]`, the enum of a nullable string
            // `enum` or union: `other` is then `Option<Root>`) gives the name up.
            if let Some(i) = n.defs.iter().position(|d| d.name == root_name) {
                let inner = n.fresh(&format!("{root_name}Inner"));
                if let Some(d) = n.defs.get_mut(i) {
                    d.name = inner;
                }
            }
            let node = ir.node(ir.root);
            n.defs.push(TypeDef {
                name: root_name.to_owned(),
                doc: doc_of(node.title.as_deref(), node.description.as_deref()),
                kind: TypeKind::Newtype(other),
                node: ir.root,
            });
            n.defs.len() - 1
        }
    };
    Typing { defs: n.defs, root }
}

fn doc_of(title: Option<&str>, description: Option<&str>) -> String {
    match (title, description) {
        (Some(t), Some(d)) => format!("{t}\n\n{d}"),
        (Some(t), None) => t.to_owned(),
        (None, Some(d)) => d.to_owned(),
        (None, None) => String::new(),
    }
}

/// The string a schema fixes its instance to (`{"const": "s"}` or `{"enum": ["s"]}`).
fn fixed_string(ir: &Ir, n: NodeId) -> Option<String> {
    let Body::Checks(c) = &ir.node(n).body else { return None };
    if let Some(k) = &c.const_value {
        return match &k.value {
            JsonValue::String(s) => Some(s.clone()),
            _ => None,
        };
    }
    match c.enum_values.as_ref().map(|e| e.value.as_slice()) {
        Some([(JsonValue::String(s), _)]) => Some(s.clone()),
        _ => None,
    }
}

/// Whether the object shape of `c` is more than its own `properties`: `allOf` parts, or a `$ref`
/// beside `properties` (which draft 2020-12 applies like one more part).
fn has_parts(c: &Checks) -> bool {
    !c.all_of.is_empty() || (c.reference.is_some() && !c.properties.is_empty())
}

/// A Rust identifier (`PascalCase`) for a JSON string value.
fn variant_ident(json: &str) -> String {
    let base = pascal(json);
    let base = if base.is_empty() { "Empty".to_owned() } else { base };
    let base = if base.starts_with(|c: char| c.is_ascii_digit()) { format!("V{base}") } else { base };
    if base == "Self" {
        "Self_".to_owned()
    } else {
        base
    }
}

/// `base`, or `base2`, `base3`… when taken.
fn unique_variant(used: &mut BTreeSet<String>, base: &str) -> String {
    let mut ident = base.to_owned();
    let mut i = 2;
    while !used.insert(ident.clone()) {
        ident = format!("{base}{i}");
        i += 1;
    }
    ident
}

impl Namer<'_> {
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_owned();
        let mut i = 2;
        while self.used.contains(&name) {
            name = format!("{base}{i}");
            i += 1;
        }
        self.used.insert(name.clone());
        name
    }

    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            defs: self.defs.len(),
            used: self.used.clone(),
            memo: self.memo.clone(),
            in_progress: self.in_progress.clone(),
            visiting: self.visiting.clone(),
        }
    }

    /// Forget everything done since `cp` (an attempt that turned out not to be exact).
    fn rollback(&mut self, cp: Checkpoint) {
        self.defs.truncate(cp.defs);
        self.used = cp.used;
        self.memo = cp.memo;
        self.in_progress = cp.in_progress;
        self.visiting = cp.visiting;
    }

    /// The type of node `id`; `name` is used if it becomes a named type (`is_root`: the name is
    /// already reserved).
    fn ty_of(&mut self, id: NodeId, name: &str, is_root: bool) -> Ty {
        if let Some(&def) = self.in_progress.get(&id) {
            return Ty::Box(Box::new(Ty::Named(def)));
        }
        if let Some(t) = self.memo.get(&id) {
            return t.clone();
        }
        if !self.visiting.insert(id) {
            return Ty::Value;
        }
        let t = self.compute(id, name, is_root);
        self.visiting.remove(&id);
        self.memo.insert(id, t.clone());
        t
    }

    fn compute(&mut self, id: NodeId, name: &str, is_root: bool) -> Ty {
        let ir = self.ir;
        let node = ir.node(id);
        let Body::Checks(c) = &node.body else { return Ty::Value };
        let doc = doc_of(node.title.as_deref(), node.description.as_deref());
        if let Some(t) = self.string_enum(id, c, name, is_root, &doc) {
            return t;
        }
        if has_parts(c) {
            if let Some(view) = self.merged_view(id).filter(|v| v.is_object) {
                if let Some(t) = self.object_struct(id, &view, name, is_root, &doc) {
                    return t;
                }
            }
        }
        match c.type_list() {
            Some([t]) => self.single(id, c, *t, name, is_root, &doc),
            Some([JsonType::Null, t] | [t, JsonType::Null]) => {
                Ty::Option(Box::new(self.single(id, c, *t, name, is_root, &doc)))
            }
            Some(_) => Ty::Value,
            None => self.applicator(id, c, name, is_root, &doc),
        }
    }

    /// The type of a schema without `type`: a `$ref` is its target's type; `anyOf`/`oneOf` of a
    /// schema and `{"type": "null"}` is an `Option`; branches told apart by a tag or by JSON type
    /// are an enum.
    fn applicator(&mut self, id: NodeId, c: &Checks, name: &str, is_root: bool, doc: &str) -> Ty {
        let only_null = |n: NodeId| matches!(&self.ir.node(n).body, Body::Checks(b) if b.is_only(JsonType::Null));
        if let Some(r) = &c.reference {
            let target = r.value.1;
            let name = self.def_name(target).unwrap_or_else(|| name.to_owned());
            return self.ty_of(target, &name, false);
        }
        let branches = if c.any_of.is_empty() { &c.one_of } else { &c.any_of };
        if let [a, b] = branches.as_slice() {
            let (a, b) = (*a, *b);
            let some = if only_null(b) {
                Some(a)
            } else if only_null(a) {
                Some(b)
            } else {
                None
            };
            if let Some(x) = some {
                return match self.ty_of(x, name, false) {
                    Ty::Option(inner) => Ty::Option(inner),
                    t => Ty::Option(Box::new(t)),
                };
            }
        }
        if !c.any_of.is_empty() && !c.one_of.is_empty() {
            return Ty::Value;
        }
        if let Some(t) = self.alternatives(id, c, name, is_root, doc) {
            return t;
        }
        self.union(branches, name)
    }

    /// The type name of a `$defs`/`definitions` entry (`#/$defs/node` → `Node`).
    fn def_name(&self, target: NodeId) -> Option<String> {
        self.ir.node(target).pointer.rsplit_once('/').and_then(|(parent, last)| {
            (parent.ends_with("/$defs") || parent.ends_with("/definitions")).then(|| pascal_or(last, "Def"))
        })
    }

    /// The single JSON type a branch accepts, following `$ref`s.
    fn branch_type(&self, mut n: NodeId) -> Option<JsonType> {
        for _ in 0..64 {
            let Body::Checks(c) = &self.ir.node(n).body else { return None };
            match (c.type_list(), &c.reference) {
                (Some([t]), _) => return Some(*t),
                (None, Some(r)) => n = r.value.1,
                _ => return None,
            }
        }
        None
    }

    /// `anyOf`/`oneOf` whose branches are told apart by JSON type (`null` makes it optional).
    fn union(&mut self, branches: &[NodeId], name: &str) -> Ty {
        if branches.len() < 2 {
            return Ty::Value;
        }
        let mut typed: Vec<(NodeId, JsonType)> = Vec::new();
        for b in branches {
            let Some(t) = self.branch_type(*b) else { return Ty::Value };
            let clash = typed.iter().any(|(_, u)| {
                *u == t
                    || matches!((u, t), (JsonType::Integer, JsonType::Number) | (JsonType::Number, JsonType::Integer))
            });
            if clash {
                return Ty::Value;
            }
            typed.push((*b, t));
        }
        let nullable = typed.iter().any(|(_, t)| *t == JsonType::Null);
        typed.retain(|(_, t)| *t != JsonType::Null);
        let ty = if let [(only, _)] = typed.as_slice() {
            self.ty_of(*only, name, false)
        } else {
            let union_name = self.fresh(name);
            let index = self.defs.len();
            self.defs.push(TypeDef {
                name: union_name.clone(),
                doc: String::new(),
                kind: TypeKind::Choice { variants: Vec::new() },
                node: branches.first().copied().unwrap_or_default(),
            });
            let mut variants = Vec::new();
            for (b, t) in typed {
                let vty = self.ty_of(b, &format!("{union_name}{}", pascal(t.name())), false);
                let ident = match &vty {
                    Ty::Named(i) => self.defs.get(*i).map_or_else(|| pascal(t.name()), |d| d.name.clone()),
                    _ => pascal(t.name()),
                };
                variants.push(ChoiceVariant { ident, select: Select::Type(t), ty: vty });
            }
            if let Some(def) = self.defs.get_mut(index) {
                def.kind = TypeKind::Choice { variants };
            }
            Ty::Named(index)
        };
        if nullable {
            match ty {
                Ty::Option(inner) => Ty::Option(inner),
                t => Ty::Option(Box::new(t)),
            }
        } else {
            ty
        }
    }

    /// Whether the validity of an object of node `id` (shape `view`) can depend on the members
    /// its properties do not declare: then they are kept (an `extra` map of `Value`s) so that
    /// the typed value serialises back to a valid instance. They can when a part requires an
    /// undeclared name, counts members (`minProperties`), compares the whole object (`enum`,
    /// `const`), or applies schemas in place (`anyOf`, `oneOf`, `not`, `if`, `dependent*`).
    fn undeclared_matter(&self, id: NodeId, view: &View) -> bool {
        let mut parts = Vec::new();
        if self.flatten(id, 0, &mut parts).is_none() {
            return true;
        }
        let in_place = parts.iter().any(|&p| match &self.ir.node(p).body {
            Body::Checks(c) => {
                !c.any_of.is_empty()
                    || !c.one_of.is_empty()
                    || c.not.is_some()
                    || c.if_.is_some()
                    || !c.dependent_required.is_empty()
                    || !c.dependent_schemas.is_empty()
                    || c.min_properties.is_some()
                    || c.enum_values.is_some()
                    || c.const_value.is_some()
            }
            _ => false,
        });
        in_place || view.required.iter().any(|r| !view.props.iter().any(|(n, _)| n == r))
    }

    /// The schemas whose object shapes are merged for `id`: itself, its `$ref` target and its
    /// `allOf` parts, recursively; `None` when too deep.
    fn flatten(&self, id: NodeId, depth: usize, parts: &mut Vec<NodeId>) -> Option<()> {
        if depth > 32 {
            return None;
        }
        if parts.contains(&id) {
            return Some(());
        }
        parts.push(id);
        if let Body::Checks(c) = &self.ir.node(id).body {
            if let Some(r) = &c.reference {
                self.flatten(r.value.1, depth + 1, parts)?;
            }
            for &p in &c.all_of {
                self.flatten(p, depth + 1, parts)?;
            }
        }
        Some(())
    }

    /// The merged object shape of `id` and its parts, when the merge is exact: every part is an
    /// object schema (or `true`) without alternatives (`anyOf`, `oneOf`, `if`, `dependentSchemas`),
    /// `patternProperties` or `unevaluatedProperties`; a part with `additionalProperties` other
    /// than `true` declares every merged property (otherwise it would reject or retype another
    /// part's property); at most one schema types the undeclared members.
    fn merged_view(&self, id: NodeId) -> Option<View> {
        let mut parts = Vec::new();
        self.flatten(id, 0, &mut parts)?;
        let mut view = View {
            props: Vec::new(),
            required: BTreeSet::new(),
            is_object: false,
            extra: Extra::Dropped,
            patterns: false,
        };
        let mut checks = Vec::new();
        for &p in &parts {
            let c = match &self.ir.node(p).body {
                Body::Always => continue,
                Body::Never => return None,
                Body::Checks(c) => c,
            };
            match c.type_list() {
                None => {}
                Some([JsonType::Object]) => view.is_object = true,
                Some(_) => return None,
            }
            let alternatives = !c.any_of.is_empty()
                || !c.one_of.is_empty()
                || c.if_.is_some()
                || !c.dependent_schemas.is_empty()
                || !c.pattern_properties.is_empty()
                || c.unevaluated_properties.is_some();
            if alternatives {
                return None;
            }
            view.props.extend(c.properties.iter().map(|p| (p.name.clone(), p.node)));
            view.required.extend(c.required.iter().map(|(r, _)| r.clone()));
            checks.push(c);
        }
        let (mut closed, mut schema, mut any) = (false, None, None);
        for c in checks {
            let Some(a) = c.additional else { continue };
            let body = &self.ir.node(a).body;
            if matches!(body, Body::Always) {
                any = Some(a);
                continue;
            }
            if !view.props.iter().all(|(n, _)| c.properties.iter().any(|p| &p.name == n)) {
                return None;
            }
            if matches!(body, Body::Never) {
                closed = true;
            } else if schema.is_some_and(|s| s != a) {
                return None;
            } else {
                schema = Some(a);
            }
        }
        view.extra = match (closed, schema.or(any)) {
            (true, _) => Extra::Closed,
            (false, Some(a)) => Extra::Schema(a),
            (false, None) => Extra::Dropped,
        };
        Some(view)
    }

    /// The object shape a tagged-union branch's struct would be built from.
    fn branch_view(&self, id: NodeId) -> Option<View> {
        let Body::Checks(c) = &self.ir.node(id).body else { return None };
        if has_parts(c) {
            self.merged_view(id)
        } else if c.properties.is_empty() {
            None
        } else {
            Some(View::own(c, self.ir))
        }
    }

    /// The schema a branch's struct comes from: the branch, or the target of the `$ref` that it
    /// is (with the `$defs` name).
    fn branch_target(&self, mut n: NodeId) -> (NodeId, Option<String>) {
        let mut def_name = None;
        for _ in 0..64 {
            let Body::Checks(c) = &self.ir.node(n).body else { break };
            let Some(r) = &c.reference else { break };
            let plain_ref = c.type_list().is_none()
                && c.enum_values.is_none()
                && c.const_value.is_none()
                && c.properties.is_empty()
                && c.all_of.is_empty();
            if !plain_ref {
                break;
            }
            n = r.value.1;
            def_name = self.def_name(n);
        }
        (n, def_name)
    }

    /// The branches of `anyOf`/`oneOf` (`c`) when every one is an object schema (or
    /// `{"type": "null"}`, which makes the enum optional) and the schema holding them declares
    /// nothing else about the object's members; with whether one is `null`.
    fn object_branches(&self, c: &Checks) -> Option<(bool, Vec<Found>)> {
        let branches = match (c.any_of.is_empty(), c.one_of.is_empty()) {
            (false, true) => &c.any_of,
            (true, false) => &c.one_of,
            _ => return None,
        };
        let parent_object = match c.type_list() {
            None => false,
            Some([JsonType::Object]) => true,
            Some(_) => return None,
        };
        let plain = c.reference.is_none()
            && c.all_of.is_empty()
            && c.properties.is_empty()
            && c.additional.is_none()
            && c.pattern_properties.is_empty()
            && c.enum_values.is_none();
        if !plain {
            return None;
        }
        let only_null = |n: NodeId| matches!(&self.ir.node(n).body, Body::Checks(b) if b.is_only(JsonType::Null));
        let nullable = branches.iter().any(|b| only_null(*b));
        let mut found = Vec::new();
        for &node in branches.iter().filter(|b| !only_null(**b)) {
            let (target, def_name) = self.branch_target(node);
            let view = self.branch_view(target)?;
            let by_parent = !view.is_object;
            if by_parent && !(parent_object && target == node && !self.referenced.contains(&node)) {
                return None;
            }
            found.push(Found { node, target, def_name, view, by_parent });
        }
        (found.len() >= 2).then_some((nullable, found))
    }

    /// `anyOf`/`oneOf` (`c`) of object schemas with a property that every branch requires and
    /// fixes to a string, a different one in each branch.
    fn detect_tag(&self, c: &Checks) -> Option<Alternatives> {
        let (nullable, found) = self.object_branches(c)?;
        let value_of = |view: &View, tag: &str| {
            if view.required.contains(tag) {
                view.decls(tag).find_map(|d| fixed_string(self.ir, d))
            } else {
                None
            }
        };
        let first = &found.first()?.view;
        let candidates: Vec<&String> =
            first.props.iter().map(|(n, _)| n).filter(|n| value_of(first, n).is_some()).collect();
        'candidate: for tag in candidates {
            let mut out = Vec::new();
            let mut values = BTreeSet::new();
            for f in &found {
                let Some(value) = value_of(&f.view, tag) else { continue 'candidate };
                if !values.insert(value.clone()) {
                    continue 'candidate;
                }
                out.push(AltBranch {
                    node: f.node,
                    target: f.target,
                    value,
                    def_name: f.def_name.clone(),
                    by_parent: f.by_parent,
                });
            }
            return Some(Alternatives { dispatch: Dispatch::Tag(tag.clone()), nullable, branches: out });
        }
        None
    }

    /// `anyOf`/`oneOf` (`c`) of closed object schemas (`additionalProperties: false`, no
    /// `patternProperties`), each requiring a property that no other branch declares: a valid
    /// instance has its branch's key, and every other branch would reject that key, so exactly
    /// one key is present.
    fn detect_keyed(&self, c: &Checks) -> Option<Alternatives> {
        let (nullable, found) = self.object_branches(c)?;
        if found.iter().any(|f| f.view.extra != Extra::Closed || f.view.patterns) {
            return None;
        }
        let mut branches = Vec::new();
        for (i, f) in found.iter().enumerate() {
            let declared_elsewhere = |name: &str| {
                found.iter().enumerate().any(|(j, g)| j != i && g.view.props.iter().any(|(n, _)| n == name))
            };
            let mut names: Vec<&String> = Vec::new();
            for (n, _) in &f.view.props {
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            let key = names.into_iter().find(|n| f.view.required.contains(*n) && !declared_elsewhere(n))?;
            branches.push(AltBranch {
                node: f.node,
                target: f.target,
                value: key.clone(),
                def_name: f.def_name.clone(),
                by_parent: f.by_parent,
            });
        }
        Some(Alternatives { dispatch: Dispatch::Keys, nullable, branches })
    }

    /// The enum for [`Self::detect_tag`] or [`Self::detect_keyed`], one variant per branch
    /// holding the branch's struct; `None` (and nothing defined) when a branch does not become
    /// such a struct (for a tag: one that writes its tag back).
    fn alternatives(&mut self, id: NodeId, c: &Checks, name: &str, is_root: bool, doc: &str) -> Option<Ty> {
        let alt = self.detect_tag(c).or_else(|| self.detect_keyed(c))?;
        let cp = self.checkpoint();
        let union_name = if is_root && !alt.nullable { name.to_owned() } else { self.fresh(name) };
        let index = self.defs.len();
        self.defs.push(TypeDef {
            name: union_name.clone(),
            doc: doc.to_owned(),
            kind: TypeKind::Choice { variants: Vec::new() },
            node: id,
        });
        self.in_progress.insert(id, index);
        let mut idents = BTreeSet::new();
        let mut variants = Vec::new();
        for b in &alt.branches {
            let by_value = variant_ident(&b.value);
            let struct_name = format!("{union_name}{by_value}");
            let ty = if b.by_parent {
                let node = self.ir.node(b.target);
                let doc = doc_of(node.title.as_deref(), node.description.as_deref());
                let t = self
                    .branch_view(b.target)
                    .and_then(|v| self.object_struct(b.target, &v, &struct_name, false, &doc));
                if let Some(t) = &t {
                    self.memo.insert(b.target, t.clone());
                }
                t
            } else {
                Some(self.ty_of(b.node, &struct_name, false))
            };
            let is_payload = |t: &Ty| {
                let i = match t {
                    Ty::Named(i) => *i,
                    Ty::Box(inner) => match **inner {
                        Ty::Named(i) => i,
                        _ => return false,
                    },
                    _ => return false,
                };
                self.defs.get(i).is_some_and(|d| {
                    d.node == b.target
                        && match (&d.kind, &alt.dispatch) {
                            (TypeKind::Struct { fixed, .. }, Dispatch::Tag(tag)) => {
                                fixed.iter().any(|(k, v)| k == tag && v == &b.value)
                            }
                            (TypeKind::Struct { .. }, Dispatch::Keys) => true,
                            _ => false,
                        }
                })
            };
            let Some(ty) = ty.filter(|t| is_payload(t)) else {
                self.rollback(cp);
                return None;
            };
            let ident = unique_variant(&mut idents, b.def_name.as_deref().unwrap_or(&by_value));
            let select = match &alt.dispatch {
                Dispatch::Tag(tag) => Select::Tag { name: tag.clone(), value: b.value.clone() },
                Dispatch::Keys => Select::Key(b.value.clone()),
            };
            variants.push(ChoiceVariant { ident, select, ty });
        }
        self.in_progress.remove(&id);
        if let Some(def) = self.defs.get_mut(index) {
            def.kind = TypeKind::Choice { variants };
        }
        let t = Ty::Named(index);
        Some(if alt.nullable { Ty::Option(Box::new(t)) } else { t })
    }

    fn string_enum(&mut self, id: NodeId, c: &Checks, name: &str, is_root: bool, doc: &str) -> Option<Ty> {
        let values = &c.enum_values.as_ref()?.value;
        let mut strings = Vec::new();
        let mut has_null = false;
        for (v, _) in values {
            match v {
                JsonValue::String(s) => strings.push(s.clone()),
                JsonValue::Null => has_null = true,
                _ => return None,
            }
        }
        if strings.is_empty() {
            return None;
        }
        let allowed = |t: JsonType| c.type_list().is_none_or(|l| l.contains(&t));
        if !allowed(JsonType::String) {
            return None;
        }
        let has_null = has_null && allowed(JsonType::Null);
        let mut used = BTreeSet::new();
        let variants = strings
            .into_iter()
            .map(|json| {
                let ident = unique_variant(&mut used, &variant_ident(&json));
                Variant { ident, json }
            })
            .collect();
        let name = if is_root { name.to_owned() } else { self.fresh(name) };
        self.defs.push(TypeDef { name, doc: doc.to_owned(), kind: TypeKind::Enum { variants }, node: id });
        let t = Ty::Named(self.defs.len() - 1);
        Some(if has_null { Ty::Option(Box::new(t)) } else { t })
    }

    fn single(&mut self, id: NodeId, c: &Checks, t: JsonType, name: &str, is_root: bool, doc: &str) -> Ty {
        match t {
            JsonType::Null => Ty::Unit,
            JsonType::Boolean => Ty::Bool,
            JsonType::Integer => int_ty(c),
            JsonType::Number => Ty::F64,
            JsonType::String => Ty::String,
            JsonType::Array if !c.prefix_items.is_empty() => Ty::Vec(Box::new(Ty::Value)),
            JsonType::Array => match c.items {
                Some(items) => Ty::Vec(Box::new(self.ty_of(items, &format!("{name}Item"), false))),
                None => Ty::Vec(Box::new(Ty::Value)),
            },
            JsonType::Object if c.properties.is_empty() => {
                if let Some(t) = self.alternatives(id, c, name, is_root, doc) {
                    return t;
                }
                match c.additional {
                    Some(a) => Ty::Map(Box::new(self.ty_of(a, &format!("{name}Value"), false))),
                    None => Ty::Map(Box::new(Ty::Value)),
                }
            }
            JsonType::Object => {
                let view = View::own(c, self.ir);
                self.object_struct(id, &view, name, is_root, doc).unwrap_or(Ty::Value)
            }
        }
    }

    /// The struct for node `id` with the object shape `view`; `None` (and nothing defined) when
    /// a property declared by several parts does not map to one type in all of them.
    fn object_struct(&mut self, id: NodeId, view: &View, name: &str, is_root: bool, doc: &str) -> Option<Ty> {
        let cp = self.checkpoint();
        let name = if is_root { name.to_owned() } else { self.fresh(name) };
        let tags = self.tags.get(&id).cloned().unwrap_or_default();
        let mut names: Vec<&str> = Vec::new();
        for (n, _) in &view.props {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
        let fixed: Vec<(String, String)> = names
            .iter()
            .filter(|n| tags.contains(**n) && view.required.contains(**n))
            .filter_map(|n| view.decls(n).find_map(|d| fixed_string(self.ir, d)).map(|v| ((*n).to_owned(), v)))
            .collect();
        let index = self.defs.len();
        self.defs.push(TypeDef {
            name: name.clone(),
            doc: doc.to_owned(),
            kind: TypeKind::Struct { fields: Vec::new(), extra: None, fixed: fixed.clone() },
            node: id,
        });
        self.in_progress.insert(id, index);
        let mut idents = BTreeSet::new();
        let mut fields = Vec::new();
        for pname in names {
            if fixed.iter().any(|(f, _)| f == pname) {
                continue;
            }
            // A part that only says the property exists (`{}`) does not change its type.
            let typed: Vec<NodeId> =
                view.decls(pname).filter(|d| !matches!(self.ir.node(*d).body, Body::Always)).collect();
            let field_name = format!("{name}{}", pascal_or(pname, "Field"));
            let (ty, pnode) = match typed.split_first() {
                None => (Ty::Value, view.decls(pname).next()),
                Some((first, rest)) => {
                    let ty = self.ty_of(*first, &field_name, false);
                    for r in rest {
                        if self.ty_of(*r, &field_name, false) != ty {
                            self.rollback(cp);
                            return None;
                        }
                    }
                    (ty, Some(*first))
                }
            };
            let (ty, nullable) = match ty {
                Ty::Option(inner) => (*inner, true),
                t => (t, false),
            };
            let ident = unique(&mut idents, &field_ident(pname));
            let pdoc = pnode
                .map(|p| self.ir.node(p))
                .map_or_else(String::new, |n| doc_of(n.title.as_deref(), n.description.as_deref()));
            let pdoc = if pdoc.is_empty() { format!("The `{pname}` property.") } else { pdoc };
            fields.push(Field {
                ident,
                json: pname.to_owned(),
                ty,
                required: view.required.contains(pname),
                nullable,
                doc: pdoc,
            });
        }
        let extra = match view.extra {
            Extra::Dropped if self.undeclared_matter(id, view) => Some((unique(&mut idents, "extra"), Ty::Value)),
            Extra::Dropped | Extra::Closed => None,
            Extra::Any => Some((unique(&mut idents, "extra"), Ty::Value)),
            Extra::Schema(a) => {
                let ty = self.ty_of(a, &format!("{name}Extra"), false);
                Some((unique(&mut idents, "extra"), ty))
            }
        };
        if let Some(def) = self.defs.get_mut(index) {
            def.kind = TypeKind::Struct { fields, extra, fixed };
        }
        self.in_progress.remove(&id);
        Some(Ty::Named(index))
    }
}

fn int_ty(c: &Checks) -> Ty {
    let lo = c.minimum.iter().chain(&c.exclusive_minimum).map(|k| &k.value).max_by(|a, b| a.cmp_value(b));
    let hi = c.maximum.iter().chain(&c.exclusive_maximum).map(|k| &k.value).min_by(|a, b| a.cmp_value(b));
    let (Some(lo), Some(hi)) = (lo, hi) else { return Ty::Number };
    let within = |n: &Num, min: &str, max: &str| {
        let (Some(min), Some(max)) = (Num::parse(min), Num::parse(max)) else { return false };
        n.cmp_value(&min).is_ge() && n.cmp_value(&max).is_le()
    };
    if within(lo, "-9223372036854775808", "9223372036854775807")
        && within(hi, "-9223372036854775808", "9223372036854775807")
    {
        Ty::I64
    } else if within(lo, "0", "18446744073709551615") && within(hi, "0", "18446744073709551615") {
        Ty::U64
    } else {
        Ty::Number
    }
}

fn unique(used: &mut BTreeSet<String>, base: &str) -> String {
    let mut name = base.to_owned();
    let mut i = 2;
    while !used.insert(name.clone()) {
        // `self_` and `Self` both want `self_`: the second is `self_2` (`self__2` is not snake case).
        name = format!("{}_{i}", base.trim_start_matches("r#").trim_end_matches('_'));
        i += 1;
    }
    name
}

/// Split a JSON name into lowercase ASCII words (`fromUnit`, `from-unit`, `HTTPCode` → words).
fn words(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
        let next = chars.get(i + 1).copied();
        let boundary = ch.is_ascii_uppercase()
            && !cur.is_empty()
            && (prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || next.is_some_and(|n| n.is_ascii_lowercase()));
        if boundary {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `PascalCase` of a JSON name (ASCII letters and digits only).
#[must_use]
pub fn pascal(s: &str) -> String {
    words(s)
        .into_iter()
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

fn pascal_or(s: &str, fallback: &str) -> String {
    let p = pascal(s);
    if p.is_empty() {
        fallback.to_owned()
    } else {
        p
    }
}

/// `snake_case` of a name (`ConvertUnits` → `convert_units`).
#[must_use]
pub fn snake(s: &str) -> String {
    words(s).join("_")
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A field identifier for a JSON property name: `snake_case`, raw if it is a keyword.
#[must_use]
pub fn field_ident(json: &str) -> String {
    let s = snake(json);
    let s = if s.is_empty() { "field".to_owned() } else { s };
    let s = if s.starts_with(|c: char| c.is_ascii_digit()) { format!("_{s}") } else { s };
    match s.as_str() {
        "self" | "super" | "crate" | "_" => format!("{s}_"),
        k if KEYWORDS.contains(&k) => format!("r#{k}"),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("ConvertUnits"), "convert_units");
        assert_eq!(snake("HTTPCode"), "http_code");
        assert_eq!(field_ident("fromUnit"), "from_unit");
        assert_eq!(field_ident("from-unit"), "from_unit");
        assert_eq!(field_ident("type"), "r#type");
        assert_eq!(field_ident("self"), "self_");
        assert_eq!(field_ident("2fa"), "_2fa");
        assert_eq!(field_ident("日本"), "field");
        assert_eq!(pascal("from_unit"), "FromUnit");
        assert_eq!(pascal("m/s"), "MS");
        assert_eq!(pascal("kg"), "Kg");
    }

    /// The typing of schema `text`, root named `Root`: `(name, kind summary)` per type.
    fn summary(text: &str) -> (Vec<(String, String)>, String) {
        let ir = crate::lower::lower_valid_text(text);
        let t = typing(&ir, "Root");
        let show = |ty: &Ty| format!("{ty:?}");
        let defs = t
            .defs
            .iter()
            .map(|d| {
                let kind = match &d.kind {
                    TypeKind::Struct { fields, extra, fixed } => {
                        let f: Vec<String> = fields
                            .iter()
                            .map(|f| format!("{}:{}{}", f.ident, show(&f.ty), if f.is_option() { "?" } else { "" }))
                            .collect();
                        format!("struct {} fixed {fixed:?} extra {:?}", f.join(","), extra.as_ref().map(|e| show(&e.1)))
                    }
                    TypeKind::Choice { variants } => match variants.first().map(|v| &v.select) {
                        Some(Select::Tag { name, .. }) => {
                            let v: Vec<String> = variants
                                .iter()
                                .filter_map(|v| match &v.select {
                                    Select::Tag { value, .. } => Some(format!("{}={value}:{}", v.ident, show(&v.ty))),
                                    _ => None,
                                })
                                .collect();
                            format!("tagged {name} {}", v.join(","))
                        }
                        Some(Select::Key(_)) => {
                            let v: Vec<String> = variants
                                .iter()
                                .filter_map(|v| match &v.select {
                                    Select::Key(key) => Some(format!("{}={key}:{}", v.ident, show(&v.ty))),
                                    _ => None,
                                })
                                .collect();
                            format!("keyed {}", v.join(","))
                        }
                        _ => "union".to_owned(),
                    },
                    TypeKind::Newtype(ty) => format!("newtype {}", show(ty)),
                    TypeKind::Enum { .. } => "enum".to_owned(),
                };
                (d.name.clone(), kind)
            })
            .collect();
        let root = t.defs.get(t.root).map(|d| d.name.clone()).unwrap_or_default();
        (defs, root)
    }

    /// Names that collide once made identifiers are numbered in snake case (`self_2`, not
    /// `self__2`, which `non_snake_case` would flag in the user's crate).
    #[test]
    fn colliding_field_names_stay_snake_case() {
        let (defs, _) = summary(r#"{"type": "object", "properties": {"self": {}, "Self": {}, "_": {}, "__": {}}}"#);
        assert_eq!(
            defs.first().map(|d| d.1.as_str()),
            Some("struct self_:Value?,self_2:Value?,field:Value?,field_2:Value? fixed [] extra None")
        );
    }

    /// Every type has its own name: a nullable root does not give its name to the type inside.
    #[test]
    fn a_nullable_root_names_its_inner_type_apart() {
        for (schema, inner) in [
            (r#"{"type": ["object", "null"], "properties": {"groups": {}}}"#, "struct groups:Value"),
            (
                r#"{"type": ["null", "object"], "properties": {"a": {"type": "string"}}, "required": ["a"]}"#,
                "struct a:String",
            ),
            (r#"{"enum": ["a", "b", null]}"#, "enum"),
        ] {
            let (defs, root) = summary(schema);
            assert_eq!(root, "Root", "{schema}");
            let names: std::collections::BTreeSet<&String> = defs.iter().map(|d| &d.0).collect();
            assert_eq!(names.len(), defs.len(), "{schema}: {defs:?}");
            assert!(defs.iter().any(|d| d.0 == "RootInner" && d.1.starts_with(inner)), "{schema}: {defs:?}");
            assert!(defs.iter().any(|d| d.0 == "Root" && d.1 == "newtype Option(Named(0))"), "{schema}: {defs:?}");
        }
    }

    #[test]
    fn tagged_union_from_refs_and_inline_branches() {
        let (defs, root) = summary(
            r##"{"oneOf": [
                {"$ref": "#/$defs/cat"},
                {"type": "object", "properties": {"pet": {"enum": ["dog-like"]}, "bark": {"type": "boolean"}}, "required": ["pet"]},
                {"type": "null"}
            ], "$defs": {"cat": {"type": "object", "properties": {"pet": {"type": "string", "const": "cat"}, "lives": {"type": "integer", "minimum": 0, "maximum": 9}}, "required": ["lives", "pet"]}}}"##,
        );
        assert_eq!(root, "Root");
        assert_eq!(
            defs,
            [
                ("Root2".to_owned(), "tagged pet Cat=cat:Named(1),DogLike=dog-like:Named(2)".to_owned()),
                ("Cat".to_owned(), r#"struct lives:I64 fixed [("pet", "cat")] extra None"#.to_owned()),
                ("Root2DogLike".to_owned(), r#"struct bark:Bool? fixed [("pet", "dog-like")] extra None"#.to_owned()),
                ("Root".to_owned(), "newtype Option(Named(0))".to_owned()),
            ]
        );
    }

    #[test]
    fn refused_attempts_leave_no_types_behind() {
        // The second part's `n` would be a struct of its own, different from the first's: the
        // merge is refused, and neither struct nor its name remains.
        let (defs, root) = summary(
            r##"{"allOf": [
                {"type": "object", "properties": {"n": {"type": "object", "properties": {"a": {"type": "string"}}}}},
                {"properties": {"n": {"type": "object", "properties": {"a": {"type": "string"}}}}}
            ]}"##,
        );
        assert_eq!(root, "Root");
        assert_eq!(defs, [("Root".to_owned(), "newtype Value".to_owned())]);
        // Shared `$ref` targets are one type: the merge holds.
        let (defs, _) = summary(
            r##"{"allOf": [
                {"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "required": ["n"]},
                {"properties": {"n": {"$ref": "#/$defs/n"}, "m": true}}
            ], "$defs": {"n": {"type": "object", "properties": {"a": {"type": "string"}}}}}"##,
        );
        assert_eq!(
            defs,
            [
                ("Root".to_owned(), "struct n:Named(1),m:Value? fixed [] extra None".to_owned()),
                ("N".to_owned(), "struct a:String? fixed [] extra None".to_owned()),
            ]
        );
    }

    #[test]
    fn merged_extra_members() {
        // One part types the undeclared members and declares every merged property.
        let (defs, _) = summary(
            r##"{"type": "object", "allOf": [
                {"properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}, "additionalProperties": {"type": "number"}},
                {"properties": {"a": {"type": "string"}}, "required": ["a"]}
            ]}"##,
        );
        assert_eq!(defs, [("Root".to_owned(), "struct a:String,b:Bool? fixed [] extra Some(\"F64\")".to_owned())]);
        // Two parts typing the undeclared members differently: refused.
        let (defs, _) = summary(
            r##"{"type": "object", "allOf": [
                {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}},
                {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
            ]}"##,
        );
        // (`type: object` without `properties` of its own: the map it was before.)
        assert_eq!(defs, [("Root".to_owned(), "newtype Map(Value)".to_owned())]);
    }

    #[test]
    fn keyed_union_needs_closed_branches_and_private_keys() {
        let (defs, _) = summary(
            r#"{"type": "object", "anyOf": [
                {"properties": {"id": {"type": "string"}, "v": {"type": "boolean"}}, "required": ["id"], "additionalProperties": false},
                {"properties": {"name": {"type": "string"}, "v": {"type": "boolean"}}, "required": ["v", "name"], "additionalProperties": false}
            ]}"#,
        );
        assert_eq!(
            defs,
            [
                ("Root".to_owned(), "keyed Id=id:Named(1),Name=name:Named(2)".to_owned()),
                ("RootId".to_owned(), "struct id:String,v:Bool? fixed [] extra None".to_owned()),
                ("RootName".to_owned(), "struct name:String,v:Bool fixed [] extra None".to_owned()),
            ]
        );
        // `v` is declared by both branches: no key for the second branch.
        let (defs, _) = summary(
            r#"{"type": "object", "anyOf": [
                {"properties": {"id": {"type": "string"}, "v": {"type": "boolean"}}, "required": ["id"], "additionalProperties": false},
                {"properties": {"v": {"type": "boolean"}}, "required": ["v"], "additionalProperties": false}
            ]}"#,
        );
        assert_eq!(defs, [("Root".to_owned(), "newtype Map(Value)".to_owned())]);
        // `patternProperties` may let the other branch's key through.
        let (defs, _) = summary(
            r#"{"anyOf": [
                {"type": "object", "properties": {"a": true}, "required": ["a"], "patternProperties": {"^b$": true}, "additionalProperties": false},
                {"type": "object", "properties": {"b": true}, "required": ["b"], "additionalProperties": false}
            ]}"#,
        );
        assert_eq!(defs, [("Root".to_owned(), "newtype Value".to_owned())]);
    }
}
