//! IR + typing → typed parse functions: `__parse_N(sc, build)` reads a struct's object from
//! reply text once, validating it exactly as a scan function does, and, when `build` is true,
//! builds the struct on the way (`Tool::from_json` without a second pass). With `build` false it
//! is the scan itself: the node's scan function calls it, so one function serves both the
//! allocation-free verdict (nothing is built, nothing allocated) and the typed parse, and the
//! object's code is generated once.
//!
//! Only a struct whose subschema the scan compiles as one object pass gets one: `type` object,
//! its own keywords compiled by the scan ([`super::text::scans_locally`]), no in-place applicator,
//! no `enum`/`const`, and every field a name the scan tracks; and a root that is an array of
//! such structs. Members are built where they are read: a struct of the member's own subschema
//! by its parse function (recursively), strings and string enums from the string the scan has
//! just read, arrays item by item; any other value by the member's scan function followed by
//! the type's builder over the same few bytes (a `Scanner` kept at the value's start). Every
//! other type is parsed by `Tool::__parse`'s default: the scan, then the builder over the text.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::types::{Ty, TypeDef, TypeKind, Typing};
use crate::model::{Body, Checks, Ir, JsonType};

use super::text::{
    no_in_place, number_checks, object_scan_with, only_in_place, own_nothing_but_types, scan_call, scans_locally,
    tracked_names, Capture,
};
use super::types::{build, ident, rust_ty};
use super::validate::key_index;

/// The parse function of type `i`.
pub fn pname(i: usize) -> proc_macro2::Ident {
    format_ident!("__parse_{}", i)
}

/// The subschema's checks when type `def` gets a parse function.
fn eligible<'a>(ir: &'a Ir, def: &TypeDef) -> Option<&'a Checks> {
    let TypeKind::Struct { fields, fixed, .. } = &def.kind else { return None };
    let Body::Checks(c) = &ir.node(def.node).body else { return None };
    let object_only = c.type_list().is_some_and(|t| t == [JsonType::Object]);
    let in_place = c.reference.is_some()
        || !c.all_of.is_empty()
        || !c.any_of.is_empty()
        || !c.one_of.is_empty()
        || c.not.is_some()
        || c.if_.is_some();
    if !object_only
        || in_place
        || only_in_place(c)
        || !scans_locally(c)
        || c.enum_values.is_some()
        || c.const_value.is_some()
        || fields.is_empty()
    {
        return None;
    }
    let names = tracked_names(c);
    let tracked = |n: &str| names.contains(&n);
    let declared_known = c
        .properties
        .iter()
        .all(|p| fields.iter().any(|f| f.json == p.name) || fixed.iter().any(|(name, _)| *name == p.name));
    (fields.iter().all(|f| tracked(&f.json)) && declared_known).then_some(c)
}

/// The parse functions, and for each node the parse function (by type index) that its scan
/// function calls with `build` false.
pub struct Parse {
    /// the generated functions
    pub functions: TokenStream,
    /// node → the type whose parse function is that node's scan
    pub scan_of: Vec<Option<usize>>,
    /// whether the root type has a parse function
    pub root: bool,
}

/// The types named in `ty`.
fn named(ty: &Ty, out: &mut Vec<usize>) {
    match ty {
        Ty::Named(j) => out.push(*j),
        Ty::Vec(inner) | Ty::Option(inner) | Ty::Map(inner) | Ty::Box(inner) => named(inner, out),
        _ => {}
    }
}

/// Which types can contain themselves. They keep the scan's own small stack frames: a parse
/// function's frame holds the struct being built, and a reply may nest such a type as deep as
/// the depth limit.
fn recursive(t: &Typing) -> Vec<bool> {
    let edges: Vec<Vec<usize>> = t
        .defs
        .iter()
        .map(|d| {
            let mut out = Vec::new();
            match &d.kind {
                TypeKind::Struct { fields, extra, .. } => {
                    for f in fields {
                        named(&f.ty, &mut out);
                    }
                    if let Some((_, ty)) = extra {
                        named(ty, &mut out);
                    }
                }
                TypeKind::Choice { variants } => variants.iter().for_each(|v| named(&v.ty, &mut out)),
                TypeKind::Newtype(ty) => named(ty, &mut out),
                TypeKind::Enum { .. } => {}
            }
            out
        })
        .collect();
    (0..t.defs.len())
        .map(|start| {
            let mut seen = vec![false; t.defs.len()];
            let mut stack: Vec<usize> = edges.get(start).cloned().unwrap_or_default();
            while let Some(n) = stack.pop() {
                if n == start {
                    return true;
                }
                if let Some(s) = seen.get_mut(n) {
                    if !*s {
                        *s = true;
                        stack.extend(edges.get(n).into_iter().flatten().copied());
                    }
                }
            }
            false
        })
        .collect()
}

/// The parse functions of every eligible type.
pub fn functions(ir: &Ir, t: &Typing, k: &TokenStream) -> Parse {
    let mut out = TokenStream::new();
    let mut scan_of = vec![None; ir.nodes.len()];
    let rec = recursive(t);
    let has: Vec<bool> = t.defs.iter().zip(&rec).map(|(d, r)| !r && eligible(ir, d).is_some()).collect();
    for (i, def) in t.defs.iter().enumerate() {
        if let Some(c) = eligible(ir, def).filter(|_| has.get(i).copied().unwrap_or(false)) {
            out.extend(one(ir, t, i, def, c, &has, k));
            if let Some(slot) = scan_of.get_mut(def.node) {
                slot.get_or_insert(i);
            }
        }
    }
    let mut root = has.get(t.root).copied().unwrap_or(false) && t.defs.get(t.root).is_some_and(|d| d.node == ir.root);
    // A root array (of structs, say) may still be read in one pass. (Only an array: a string or
    // enum root's expression calls the root's scan function, which would call it back.)
    if let Some(TypeDef { kind: TypeKind::Newtype(ty @ Ty::Vec(_)), name, node, .. }) = t.defs.get(t.root) {
        let (expr, fused) = parse_expr(ir, t, ty, *node, false, &has, k);
        let not_recursive = !rec.get(t.root).copied().unwrap_or(true);
        if fused && not_recursive && *node == ir.root && scan_of.get(ir.root).is_some_and(Option::is_none) {
            let (f, name, p) = (pname(t.root), ident(name), quote!(#k::__private));
            out.extend(quote! {
                #[cfg_attr(debug_assertions, inline)]
                fn #f(sc: &mut #p::Scanner<'_>, __b: ::core::primitive::bool) -> ::core::result::Result<::core::option::Option<#name>, #p::Halt> {
                    ::core::result::Result::Ok(#expr.map(#name))
                }
            });
            if let Some(slot) = scan_of.get_mut(ir.root) {
                *slot = Some(t.root);
            }
            root = true;
        }
    }
    Parse { functions: out, scan_of, root }
}

/// The checks of `node` when its scan function reads the value itself in one pass (no
/// in-place applicator, every keyword compiled by the scan), and its type is only `only`.
fn plain(ir: &Ir, node: usize, only: Option<JsonType>) -> Option<&Checks> {
    let Body::Checks(c) = &ir.node(node).body else { return None };
    let in_place = c.reference.is_some()
        || !c.all_of.is_empty()
        || !c.any_of.is_empty()
        || !c.one_of.is_empty()
        || c.not.is_some()
        || c.if_.is_some();
    let typed = match only {
        Some(jt) => c.type_list().is_some_and(|t| t == [jt]),
        None => true,
    };
    (!in_place && typed && scans_locally(c) && !only_in_place(c)).then_some(c)
}

/// The subschema that decides a value of `node` alone: through a node that is only a `$ref`,
/// and, for a value known not to be `null` (`non_null`), through an `anyOf`/`oneOf` of some
/// schema and `{"type": "null"}` (the `Option` of MCP tools), whose `null` branch such a value
/// fails.
fn follow(ir: &Ir, mut node: usize, non_null: bool) -> usize {
    for _ in 0..16 {
        let Body::Checks(c) = &ir.node(node).body else { break };
        if !only_in_place(c) || !c.all_of.is_empty() || c.not.is_some() || c.if_.is_some() {
            break;
        }
        let branches = match (&c.reference, c.any_of.as_slice(), c.one_of.as_slice()) {
            (Some(r), [], []) => {
                node = r.value.1;
                continue;
            }
            (None, [a, b], []) | (None, [], [a, b]) if non_null => [*a, *b],
            _ => break,
        };
        let null_only = |n: usize| match &ir.node(n).body {
            Body::Checks(b) => b.is_only(JsonType::Null) && own_nothing_but_types(b) && no_in_place(b),
            _ => false,
        };
        match branches {
            [x, n] | [n, x] if null_only(n) && !null_only(x) => node = x,
            _ => break,
        }
    }
    node
}

/// `Err(Invalid)` unless the next value starts with `first`, `Err(Syntax)` if no value starts.
fn expect(first: u8, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let first = proc_macro2::Literal::u8_suffixed(first);
    quote! {
        match sc.peek() {
            #first => {}
            b'"' | b'-' | b'0'..=b'9' | b'{' | b'[' | b't' | b'f' | b'n' => return ::core::result::Result::Err(#p::Halt::Invalid),
            _ => return ::core::result::Result::Err(#p::Halt::Syntax),
        }
    }
}

/// An expression (in code returning `Result<_, Halt>`, with `__b: bool` in scope) that reads one
/// value of type `ty` whose subschema is `node` (`sc` at the value), validates it as `node`'s
/// scan does, and gives `Some` of it built when `__b`, `None` otherwise; and whether it does so
/// in one pass (`false`: the scan, then the builder over the same bytes).
fn parse_expr(
    ir: &Ir,
    t: &Typing,
    ty: &Ty,
    node: usize,
    non_null: bool,
    has: &[bool],
    k: &TokenStream,
) -> (TokenStream, bool) {
    let node = follow(ir, node, non_null);
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));
    let scan = scan_call(ir, node);
    match ty {
        Ty::Named(j) if has.get(*j).copied().unwrap_or(false) && t.defs.get(*j).is_some_and(|d| d.node == node) => {
            let f = pname(*j);
            return (quote!(#f(sc, __b)?), true);
        }
        Ty::Named(j) if choice(ir, t, *j, node, has).is_some() => {
            if let Some(expr) =
                choice(ir, t, *j, node, has).map(|(branches, any)| choice_expr(t, *j, &branches, any, k))
            {
                return (expr, true);
            }
        }
        Ty::Named(j) if plain(ir, node, None).is_some() => {
            // A string enum: the string the scan has just read picks the variant.
            if let Some(TypeDef { kind: TypeKind::Enum { variants }, name, .. }) = t.defs.get(*j) {
                let names: Vec<&str> = variants.iter().map(|v| v.json.as_str()).collect();
                let classify = key_index(&quote!(sc.last_str()), &names, k);
                let ty = ident(name);
                let arms = variants.iter().enumerate().map(|(i, v)| {
                    let id = ident(&v.ident);
                    quote!(#i => #ty::#id,)
                });
                return (
                    quote!({
                        if sc.peek() != b'"' { #invalid; }
                        #scan
                        if __b { ::core::option::Option::Some(match #classify { #(#arms)* _ => #invalid }) } else { ::core::option::Option::None }
                    }),
                    true,
                );
            }
        }
        Ty::I64 | Ty::U64 | Ty::F64 => {
            let numeric = |c: &Checks| {
                c.type_list().is_some_and(|t| t.iter().all(|x| matches!(x, JsonType::Integer | JsonType::Number)))
            };
            if let Some(c) = plain(ir, node, None).filter(|c| numeric(c)) {
                let checks = number_checks(c, k);
                let convert = match ty {
                    Ty::I64 => quote!(#p::num_i64),
                    Ty::U64 => quote!(#p::num_u64),
                    _ => quote!(#p::num_f64),
                };
                return (
                    quote!({
                        match sc.peek() {
                            b'-' | b'0'..=b'9' => {}
                            b'"' | b'{' | b'[' | b't' | b'f' | b'n' => #invalid,
                            _ => return ::core::result::Result::Err(#p::Halt::Syntax),
                        }
                        let __n = sc.num()?;
                        #checks
                        if __b { ::core::option::Option::Some(#p::built(#convert(__n))?) } else { ::core::option::Option::None }
                    }),
                    true,
                );
            }
        }
        Ty::Bool
            if plain(ir, node, Some(JsonType::Boolean))
                .is_some_and(|c| c.enum_values.is_none() && c.const_value.is_none()) =>
        {
            return (
                quote!({
                    let __v = match sc.peek() {
                        b't' => { sc.lit(b"true")?; true }
                        b'f' => { sc.lit(b"false")?; false }
                        b'"' | b'-' | b'0'..=b'9' | b'{' | b'[' | b'n' => #invalid,
                        _ => return ::core::result::Result::Err(#p::Halt::Syntax),
                    };
                    if __b { ::core::option::Option::Some(__v) } else { ::core::option::Option::None }
                }),
                true,
            );
        }
        Ty::String if plain(ir, node, None).is_some() => {
            return (
                quote!({
                    if sc.peek() != b'"' { #invalid; }
                    #scan
                    if __b { ::core::option::Option::Some(sc.last_str().to_cow().into_owned()) } else { ::core::option::Option::None }
                }),
                true,
            );
        }
        Ty::Vec(inner) => {
            if let Some(c) = plain(ir, node, Some(JsonType::Array)) {
                if let (Some(item), None, None) = (c.items, &c.enum_values, &c.const_value) {
                    let (each, _) = parse_expr(ir, t, inner, item, false, has, k);
                    let (uniq_decl, item_start, unique) = if c.unique_items {
                        (
                            quote!(let mut __uniq = #p::Unique::new(__start);),
                            quote!(let __item = sc.pos();),
                            quote! { if __uniq.seen(sc, __item) { #invalid; } },
                        )
                    } else {
                        (TokenStream::new(), TokenStream::new(), TokenStream::new())
                    };
                    let gate = expect(b'[', k);
                    let max = c.max_items.as_ref().map(|m| {
                        let l = m.value;
                        quote! { if __count > #l { #invalid; } }
                    });
                    let min = c.min_items.as_ref().map(|m| {
                        let l = m.value;
                        quote! { if __count < #l { #invalid; } }
                    });
                    return (
                        quote!({
                            #gate
                            let __start = sc.pos();
                            let mut __out = ::std::vec::Vec::new();
                            let mut __count: ::core::primitive::u64 = 0;
                            #uniq_decl
                            if sc.enter_array()? {
                                loop {
                                    #item_start
                                    if let ::core::option::Option::Some(__x) = #each { __out.push(__x); }
                                    #unique
                                    __count += 1;
                                    #max
                                    if !sc.next_item()? { break; }
                                }
                            }
                            let _ = (__count, __start);
                            #min
                            if __b { ::core::option::Option::Some(__out) } else { ::core::option::Option::None }
                        }),
                        true,
                    );
                }
            }
        }
        _ => {}
    }
    (fallback(t, ty, &scan, k), false)
}

/// When type `j` is an `anyOf`/`oneOf` choice whose node (`node`) is only that applicator and
/// whose every branch is a struct with a parse function (in branch order, one per variant): each
/// branch's `(node, type)` and whether it is an `anyOf`. The node's scan then tries the branches
/// on forks of the scanner (`text::branch_scan`), each branch's scan being its type's parse
/// function with `build` false: the same calls with `build` true for the first branch that
/// holds give the variant's payload in the same pass.
fn choice(ir: &Ir, t: &Typing, j: usize, node: usize, has: &[bool]) -> Option<(Vec<(usize, usize)>, bool)> {
    let TypeDef { kind: TypeKind::Choice { variants }, .. } = t.defs.get(j)? else { return None };
    let Body::Checks(c) = &ir.node(node).body else { return None };
    let bare = only_in_place(c) && c.reference.is_none() && c.all_of.is_empty() && c.not.is_none() && c.if_.is_none();
    let (branches, any) = match (c.any_of.as_slice(), c.one_of.as_slice()) {
        (b, []) if !b.is_empty() => (b, true),
        ([], b) if !b.is_empty() => (b, false),
        _ => return None,
    };
    if !bare || branches.len() != variants.len() {
        return None;
    }
    // The parse function a branch's scan calls: the first type with one whose node it is.
    let parse_of = |b: usize| {
        (0..t.defs.len()).find(|&i| has.get(i).copied().unwrap_or(false) && t.defs.get(i).is_some_and(|d| d.node == b))
    };
    branches
        .iter()
        .zip(variants)
        .map(|(&b, v)| match (&ir.node(b).body, &v.ty) {
            (Body::Checks(_), Ty::Named(s)) if parse_of(b) == Some(*s) => Some((b, *s)),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|b| (b, any))
}

/// The expression for [`choice`]: the branches on forks as the scan tries them (an `anyOf` stops
/// at the first that holds, a `oneOf` fails at a second), the first that holds building its
/// variant when `__b`.
fn choice_expr(t: &Typing, j: usize, branches: &[(usize, usize)], any: bool, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let opt = quote!(::core::option::Option);
    let Some(TypeDef { kind: TypeKind::Choice { variants }, name, .. }) = t.defs.get(j) else {
        return TokenStream::new();
    };
    let ty = ident(name);
    let tries = branches.iter().zip(variants).map(|((_, s), v)| {
        let f = pname(*s);
        let id = ident(&v.ident);
        let second = if any {
            TokenStream::new()
        } else {
            quote!(if __passed.is_some() { return ::core::result::Result::Err(#p::Halt::Invalid); })
        };
        let run = quote! {
            let mut __fork = ::core::clone::Clone::clone(sc);
            match #f(&mut __fork, __b && __passed.is_none()) {
                ::core::result::Result::Ok(__x) => {
                    #second
                    if let #opt::Some(__x) = __x { __built = #opt::Some(#ty::#id(__x)); }
                    __passed = #opt::Some(__fork);
                }
                ::core::result::Result::Err(#p::Halt::Syntax) => return ::core::result::Result::Err(#p::Halt::Syntax),
                ::core::result::Result::Err(#p::Halt::Invalid) => {}
            }
        };
        if any {
            quote!(if __passed.is_none() { #run })
        } else {
            run
        }
    });
    quote!({
        let mut __passed: #opt<#p::Scanner<'_>> = #opt::None;
        let mut __built: #opt<#ty> = #opt::None;
        #(#tries)*
        match __passed {
            #opt::Some(__end) => *sc = __end,
            #opt::None => return ::core::result::Result::Err(#p::Halt::Invalid),
        }
        if __b { #opt::Some(#p::built(__built)?) } else { #opt::None }
    })
}

/// The scan `scan` over the value, then `ty`'s builder over the same bytes.
fn fallback(t: &Typing, ty: &Ty, scan: &TokenStream, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let src = quote!(#p::Source);
    let read = match ty {
        Ty::Value => quote!(#src::value(&mut __vs)),
        Ty::Bool => quote!(#src::boolean(&mut __vs)),
        Ty::I64 => quote!(#src::int64(&mut __vs)),
        Ty::U64 => quote!(#src::uint64(&mut __vs)),
        Ty::Number => quote!(#src::number(&mut __vs)),
        Ty::F64 => quote!(#src::float64(&mut __vs)),
        Ty::String => quote!(#src::string(&mut __vs)),
        Ty::Unit => quote!(#src::null(&mut __vs)),
        Ty::Named(j) => {
            let f = super::types::bname(*j);
            quote!(#f(&mut __vs))
        }
        Ty::Vec(_) | Ty::Option(_) | Ty::Map(_) | Ty::Box(_) => {
            let opt = quote!(::core::option::Option);
            let b = build(ty, k);
            let rt = rust_ty(ty, t, k);
            quote!((|r: &mut #p::Scanner<'_>| -> #opt<#rt> { #opt::Some(#b) })(&mut __vs))
        }
    };
    quote!(if __b {
        let mut __vs = ::core::clone::Clone::clone(sc);
        #scan
        ::core::option::Option::Some(#p::built(#read)?)
    } else {
        #scan
        ::core::option::Option::None
    })
}

fn one(ir: &Ir, t: &Typing, i: usize, def: &TypeDef, c: &Checks, has: &[bool], k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let opt = quote!(::core::option::Option);
    let TypeKind::Struct { fields, extra, fixed } = &def.kind else { return TokenStream::new() };
    let name = ident(&def.name);
    let f = pname(i);
    let names = tracked_names(c);
    let slots: Vec<_> = (0..fields.len()).map(|n| format_ident!("__f{}", n)).collect();
    let mut decls = TokenStream::new();
    for (fd, slot) in fields.iter().zip(&slots) {
        let ty = rust_ty(&fd.ty, t, k);
        decls.extend(quote!(let mut #slot: #opt<#ty> = #opt::None;));
    }
    // A member the struct keeps in its `extra` map: checked as the scan checks it, then built.
    let extra_build = extra.as_ref().map(|(_, ty)| {
        let b = build(ty, k);
        let rt = rust_ty(ty, t, k);
        quote! {
            if __b {
                let __x = #p::built((|r: &mut #p::Scanner<'_>| -> #opt<#rt> { #opt::Some(#b) })(&mut { __vs }))?;
                __extra.insert(__k.to_cow().into_owned(), __x);
            }
        }
    });
    if extra.is_some() {
        decls.extend(quote!(let mut __extra = ::std::collections::BTreeMap::new();));
    }
    let additional_scan = match c.additional {
        Some(a) => scan_call(ir, a),
        None => quote!(sc.skip_value()?;),
    };
    let per_name: Vec<Option<TokenStream>> = names
        .iter()
        .enumerate()
        .map(|(n, name)| {
            let node = c.properties.get(n).map(|prop| prop.node);
            if let Some((fi, fd)) = fields.iter().enumerate().find(|(_, fd)| fd.json == *name) {
                let slot = slots.get(fi)?;
                // A required name that `properties` does not declare is checked by
                // `additionalProperties`, as in the scan.
                let read = match (node, c.additional) {
                    (Some(n), _) | (None, Some(n)) => parse_expr(ir, t, &fd.ty, n, fd.nullable, has, k).0,
                    (None, None) => fallback(t, &fd.ty, &quote!(sc.skip_value()?;), k),
                };
                Some(if fd.nullable {
                    // `null` leaves the field empty, once the member's schema has accepted it.
                    let scan = node.map_or_else(|| additional_scan.clone(), |n| scan_call(ir, n));
                    quote!(if sc.peek() == b'n' { #scan } else { #slot = #read; })
                } else {
                    quote!(#slot = #read;)
                })
            } else if fixed.iter().any(|(fname, _)| fname == name) || n < c.properties.len() {
                None
            } else {
                // Required, undeclared, not a field: into `extra` when the struct has one.
                extra_build.as_ref().map(|b| quote!(let __vs = ::core::clone::Clone::clone(sc); #additional_scan #b))
            }
        })
        .collect();
    let inits = fields.iter().zip(&slots).map(|(fd, slot)| {
        let id = ident(&fd.ident);
        if fd.is_option() {
            quote!(#id: #slot,)
        } else {
            quote!(#id: match #slot { #opt::Some(x) => x, #opt::None => return ::core::result::Result::Err(#p::Halt::Invalid) },)
        }
    });
    let extra_init = extra.as_ref().map(|(fname, _)| {
        let id = ident(fname);
        quote!(#id: __extra,)
    });
    let capture = Capture {
        decls,
        names: per_name,
        undeclared: extra_build,
        done: quote!(::core::result::Result::Ok(if __b { #opt::Some(#name { #(#inits)* #extra_init }) } else { #opt::None })),
    };
    let object = object_scan_with(ir, c, k, &TokenStream::new(), Some(&capture));
    // `#[inline]` in debug builds only: there it keeps the function out of a crate that never
    // reads text (an unoptimised build generates every non-generic function that is not
    // `#[inline]`); an optimised build would instead copy an `#[inline]` function into every
    // codegen unit that calls it, and these are the largest functions.
    quote! {
        #[cfg_attr(debug_assertions, inline)]
        fn #f(sc: &mut #p::Scanner<'_>, __b: ::core::primitive::bool) -> ::core::result::Result<#opt<#name>, #p::Halt> {
            match sc.peek() {
                b'{' => { #object }
                b'"' | b'-' | b'0'..=b'9' | b'[' | b't' | b'f' | b'n' => ::core::result::Result::Err(#p::Halt::Invalid),
                _ => ::core::result::Result::Err(#p::Halt::Syntax),
            }
        }
    }
}
