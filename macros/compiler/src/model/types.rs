//! The typed mapping: which Rust type each subschema becomes. Computed from the IR once, read by
//! codegen.

use std::collections::BTreeSet;

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
    },
    /// a string enum
    Enum {
        /// one per value
        variants: Vec<Variant>,
    },
    /// a tuple struct around another type (a root that is not an object or a string enum)
    Newtype(Ty),
    /// `anyOf`/`oneOf` whose branches have pairwise different JSON types: one variant per branch
    Union {
        /// the variants, in branch order
        variants: Vec<UnionVariant>,
    },
}

/// A variant of a [`TypeKind::Union`].
#[derive(Debug, Clone)]
pub struct UnionVariant {
    /// the Rust identifier
    pub ident: String,
    /// the JSON type that selects this variant
    pub json_type: JsonType,
    /// the payload
    pub ty: Ty,
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
    memo: std::collections::HashMap<NodeId, Ty>,
    /// struct definitions under construction, by node (references to them are boxed)
    in_progress: std::collections::HashMap<NodeId, usize>,
    /// nodes being typed (a cycle that does not pass through a struct becomes `Value`)
    visiting: BTreeSet<NodeId>,
}

/// Compute the typed mapping of `ir`, naming the root type `root_name`.
#[must_use]
pub fn typing(ir: &Ir, root_name: &str) -> Typing {
    let mut n = Namer {
        ir,
        defs: Vec::new(),
        used: BTreeSet::new(),
        memo: std::collections::HashMap::new(),
        in_progress: std::collections::HashMap::new(),
        visiting: BTreeSet::new(),
    };
    n.used.insert(root_name.to_owned());
    let ty = n.ty_of(ir.root, root_name, true);
    let root = match ty {
        Ty::Named(i) if n.defs.get(i).is_some_and(|d| d.node == ir.root) => i,
        other => {
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
        match c.type_list() {
            Some([t]) => self.single(id, c, *t, name, is_root, &doc),
            Some([JsonType::Null, t] | [t, JsonType::Null]) => {
                Ty::Option(Box::new(self.single(id, c, *t, name, is_root, &doc)))
            }
            Some(_) => Ty::Value,
            None => self.applicator(c, name),
        }
    }

    /// The type of a schema without `type`: a `$ref` is its target's type; `anyOf`/`oneOf` of a
    /// schema and `{"type": "null"}` is an `Option`.
    fn applicator(&mut self, c: &Checks, name: &str) -> Ty {
        let only_null = |n: NodeId| matches!(&self.ir.node(n).body, Body::Checks(b) if b.is_only(JsonType::Null));
        if let Some(r) = &c.reference {
            let target = r.value.1;
            let def_name = self.ir.node(target).pointer.rsplit_once('/').and_then(|(parent, last)| {
                (parent.ends_with("/$defs") || parent.ends_with("/definitions")).then(|| pascal_or(last, "Def"))
            });
            let name = def_name.unwrap_or_else(|| name.to_owned());
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
        self.union(branches, name)
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
                kind: TypeKind::Union { variants: Vec::new() },
                node: branches.first().copied().unwrap_or_default(),
            });
            let mut variants = Vec::new();
            for (b, t) in typed {
                let vty = self.ty_of(b, &format!("{union_name}{}", pascal(t.name())), false);
                let ident = match &vty {
                    Ty::Named(i) => self.defs.get(*i).map_or_else(|| pascal(t.name()), |d| d.name.clone()),
                    _ => pascal(t.name()),
                };
                variants.push(UnionVariant { ident, json_type: t, ty: vty });
            }
            if let Some(def) = self.defs.get_mut(index) {
                def.kind = TypeKind::Union { variants };
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
                let base = pascal(&json);
                let base = if base.is_empty() { "Empty".to_owned() } else { base };
                let base = if base.starts_with(|c: char| c.is_ascii_digit()) { format!("V{base}") } else { base };
                let base = if base == "Self" { "Self_".to_owned() } else { base };
                let mut ident = base.clone();
                let mut i = 2;
                while !used.insert(ident.clone()) {
                    ident = format!("{base}{i}");
                    i += 1;
                }
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
            JsonType::Object if c.properties.is_empty() => match c.additional {
                Some(a) => Ty::Map(Box::new(self.ty_of(a, &format!("{name}Value"), false))),
                None => Ty::Map(Box::new(Ty::Value)),
            },
            JsonType::Object => {
                let name = if is_root { name.to_owned() } else { self.fresh(name) };
                let index = self.defs.len();
                self.defs.push(TypeDef {
                    name: name.clone(),
                    doc: doc.to_owned(),
                    kind: TypeKind::Struct { fields: Vec::new(), extra: None },
                    node: id,
                });
                self.in_progress.insert(id, index);
                let mut idents = BTreeSet::new();
                let mut fields = Vec::new();
                for p in &c.properties {
                    let pnode = self.ir.node(p.node);
                    let ty = self.ty_of(p.node, &format!("{name}{}", pascal_or(&p.name, "Field")), false);
                    let (ty, nullable) = match ty {
                        Ty::Option(inner) => (*inner, true),
                        t => (t, false),
                    };
                    let ident = unique(&mut idents, &field_ident(&p.name));
                    let doc = doc_of(pnode.title.as_deref(), pnode.description.as_deref());
                    let doc = if doc.is_empty() { format!("The `{}` property.", p.name) } else { doc };
                    fields.push(Field {
                        ident,
                        json: p.name.clone(),
                        ty,
                        required: c.required.iter().any(|(r, _)| r == &p.name),
                        nullable,
                        doc,
                    });
                }
                let extra = match c.additional {
                    Some(a) if matches!(self.ir.node(a).body, Body::Never) => None,
                    // With `patternProperties` the extra members may follow other schemas too.
                    Some(_) if !c.pattern_properties.is_empty() => Some((unique(&mut idents, "extra"), Ty::Value)),
                    Some(a) => {
                        let ty = self.ty_of(a, &format!("{name}Extra"), false);
                        Some((unique(&mut idents, "extra"), ty))
                    }
                    None => None,
                };
                if let Some(def) = self.defs.get_mut(index) {
                    def.kind = TypeKind::Struct { fields, extra };
                }
                self.in_progress.remove(&id);
                Ty::Named(index)
            }
        }
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
        name = format!("{}_{i}", base.trim_start_matches("r#"));
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
}
