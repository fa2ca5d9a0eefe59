//! IR → validator functions, one per subschema, generic over the instance and the report sink.
//!
//! Each function takes any `toolgate::__private::Instance`: a parsed `&serde_json::Value`
//! (`Tool::check`) or a `Span` of well-formed reply text (the reports of `Tool::check_json`). One
//! generator for both paths, so they agree on every keyword and on the order of violations.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};

use crate::json::{to_compact, Json, JsonValue, Loc, Num};
use crate::model::{Body, Checks, Dfa, Ir, JsonType, NodeId};

/// The name of node `id`'s validator (shared by the nodes that check the same: [`Ir::canon`]).
pub fn vname(ir: &Ir, id: NodeId) -> proc_macro2::Ident {
    format_ident!("__validate_{}", ir.canon(id))
}

/// The inlining attribute of node `id`'s validation functions. One that other nodes share (see
/// [`Ir::canon`]) is inlined at every call in optimised builds, as each node's own copy was before
/// they were shared: the sharing saves the user's compiler the copies' type checking, and the
/// optimiser still specialises each call. Debug builds only mark it `#[inline]` (code generated
/// where used, not copied into every caller).
pub fn inline(ir: &Ir, id: NodeId) -> TokenStream {
    if ir.is_shared(id) {
        quote!(#[cfg_attr(debug_assertions, inline)] #[cfg_attr(not(debug_assertions), inline(always))])
    } else {
        quote!(#[inline])
    }
}

/// Whether node `id` accepts everything (calls to it can be left out).
pub fn always(ir: &Ir, id: NodeId) -> bool {
    matches!(ir.node(id).body, Body::Always)
}

/// One validator function per node.
pub fn validators(ir: &Ir, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let mut out = quote! {
        use #p::Instance as _;
        use #p::Text as _;
    };
    let any = |f: &dyn Fn(&Checks) -> bool| ir.nodes.iter().any(|n| matches!(&n.body, Body::Checks(c) if f(c)));
    let need_evp = any(&|c| c.unevaluated_properties.is_some());
    let need_evi = any(&|c| c.unevaluated_items.is_some());
    let need_vstr = any(&|c| c.property_names.is_some());
    for (id, node) in ir.nodes.iter().enumerate() {
        // A node that checks what an earlier one checks shares its patterns and validator.
        let shared = ir.canon(id) != id;
        if let (false, Body::Checks(c)) = (shared, &node.body) {
            // (Pattern 0: the automaton a stream steps, `pattern` or the `format`'s.)
            for (i, p) in c.stepped_pattern().into_iter().chain(c.pattern_properties.iter().map(|(p, _)| p)).enumerate()
            {
                let name = pname(ir, id, i);
                if let (Some(sets), true) = (&p.fixed, i == 0 && c.pattern.is_some()) {
                    // `pattern`'s whole subject, byte by byte: a length and a range test per
                    // byte (see `pattern_test`; `patternProperties` keep their DFA).
                    let f = fixed_name(ir, id);
                    let positions = sets.iter().map(|ranges| {
                        let alts =
                            ranges.iter().map(|&(lo, hi)| if lo == hi { quote!(#lo) } else { quote!(#lo..=#hi) });
                        quote!(#(#alts)|*)
                    });
                    out.extend(quote! {
                        #[inline]
                        fn #f(b: &[::core::primitive::u8]) -> ::core::primitive::bool {
                            ::core::matches!(b, [#(#positions),*])
                        }
                    });
                }
                out.extend(match &p.dfa {
                    Dfa::Table(t) => {
                        let classes = proc_macro2::Literal::byte_string(&t.classes);
                        let next: Vec<u8> = t.next.iter().flat_map(|n| n.to_le_bytes()).collect();
                        let next = proc_macro2::Literal::byte_string(&next);
                        let (stride, start, quit_end, match_end) = (t.stride, t.start, t.quit_end, t.match_end);
                        let leap = p.leap_seconds_at.map(|at| quote!(.leap_seconds(#at)));
                        quote! {
                            static #name: #k::__private::Pattern =
                                #k::__private::Pattern::table(#classes, #next, #stride, #start, #quit_end, #match_end)#leap;
                        }
                    }
                    Dfa::Sparse { little, big } => {
                        let (little, big) =
                            (proc_macro2::Literal::byte_string(little), proc_macro2::Literal::byte_string(big));
                        quote! {
                            static #name: #k::__private::Pattern = #k::__private::Pattern::sparse(#little, #big);
                        }
                    }
                });
            }
        }
        if need_evp {
            let f = format_ident!("__evaluated_property_{}", id);
            let body = match &node.body {
                Body::Checks(c) => evp_expr(ir, id, c, true, k),
                _ => quote!(false),
            };
            out.extend(quote! {
                fn #f<V: #p::Instance>(v: V, key: &::core::primitive::str) -> ::core::primitive::bool { #body }
            });
        }
        if need_evi {
            let f = format_ident!("__evaluated_item_{}", id);
            let body = match &node.body {
                Body::Checks(c) => evi_expr(ir, c, true, k),
                _ => quote!(false),
            };
            out.extend(quote! {
                fn #f<V: #p::Instance>(v: V, i: ::core::primitive::usize) -> ::core::primitive::bool { #body }
            });
        }
        if need_vstr {
            let f = format_ident!("__valid_name_{}", id);
            let body = match &node.body {
                Body::Always => quote!(true),
                Body::Never => quote!(false),
                Body::Checks(c) => vstr_expr(ir, id, c, k),
            };
            out.extend(quote! {
                fn #f(x: &::core::primitive::str) -> ::core::primitive::bool { #body }
            });
        }
        if shared {
            continue;
        }
        let name = vname(ir, id);
        let body = match &node.body {
            Body::Always => quote! { let _ = (v, at, s); true },
            Body::Never => quote! { s.fail(at, || #k::ViolationKind::False { found: v.found() }) },
            Body::Checks(c) => checks(ir, id, c, k),
        };
        let inline = inline(ir, id);
        out.extend(quote! {
            #inline
            fn #name<V: #p::Instance, S: #k::Sink>(v: V, at: &#k::Path<'_>, s: &mut S) -> ::core::primitive::bool {
                #body
            }
        });
    }
    out
}

/// The static holding pattern `i` of node `id` (`pattern` first, then `patternProperties`).
pub(crate) fn pname(ir: &Ir, id: NodeId, i: usize) -> proc_macro2::Ident {
    format_ident!("__PATTERN_{}_{}", ir.canon(id), i)
}

/// An expression: does node `id`'s `pattern` match the string `s` (a `&str` when `str`, else
/// any string the runtime's `Text` trait reads)? A pattern of one length and byte sets is
/// checked by its slice pattern (`__fixed_…`) where the text has no escapes, any other by
/// stepping its DFA.
pub(crate) fn pattern_test(ir: &Ir, id: NodeId, s: &TokenStream, str: bool, k: &TokenStream) -> TokenStream {
    let name = pname(ir, id, 0);
    let fixed = match &ir.node(id).body {
        Body::Checks(c) => c.pattern.as_ref().is_some_and(|p| p.fixed.is_some()),
        _ => false,
    };
    let f = fixed_name(ir, id);
    match (fixed, str) {
        (false, true) => quote!(#name.is_match(#s)),
        (false, false) => quote!(#k::__private::Text::is_match(#s, &#name)),
        (true, true) => quote!(#f(#s.as_bytes())),
        (true, false) => quote!(#k::__private::Text::is_match_fixed(#s, #f, &#name)),
    }
}

/// The name of node `id`'s `pattern` as a slice-pattern function (where it has one).
fn fixed_name(ir: &Ir, id: NodeId) -> proc_macro2::Ident {
    format_ident!("__fixed_{}", ir.canon(id))
}

/// An expression: is `var` valid against node `id` (verdict only)? Text is scanned with the
/// node's scan function, values get the verdict of its validator.
fn valid(ir: &Ir, id: NodeId, var: &TokenStream, k: &TokenStream) -> TokenStream {
    match ir.node(id).body {
        Body::Always => quote!(true),
        Body::Never => quote!(false),
        Body::Checks(_) => {
            let _ = k;
            let (scan, is) = (super::text::sname(ir, id), super::value::iname(ir, id));
            quote!(#var.passes(#scan, #is))
        }
    }
}

/// The patterns of `patternProperties` of node `id`, with their statics.
pub(crate) fn pattern_props(ir: &Ir, id: NodeId, c: &Checks) -> Vec<(proc_macro2::Ident, NodeId)> {
    let offset = usize::from(c.stepped_pattern().is_some());
    c.pattern_properties.iter().enumerate().map(|(i, (_, n))| (pname(ir, id, i + offset), *n)).collect()
}

/// An expression: is property `key` of object `v` evaluated by node `id`'s keywords (the node
/// being valid)? `own_unevaluated` counts the node's own `unevaluatedProperties`.
fn evp_expr(ir: &Ir, id: NodeId, c: &Checks, own_unevaluated: bool, k: &TokenStream) -> TokenStream {
    if c.additional.is_some() || (own_unevaluated && c.unevaluated_properties.is_some()) {
        return quote!(true);
    }
    let mut parts: Vec<TokenStream> = Vec::new();
    let names: Vec<&String> = c.properties.iter().map(|p| &p.name).collect();
    if !names.is_empty() {
        parts.push(quote!(::core::matches!(key, #(#names)|*)));
    }
    for (pat, _) in pattern_props(ir, id, c) {
        parts.push(quote!(#pat.is_match(key)));
    }
    parts.extend(in_place_evaluated(ir, c, k, !own_unevaluated, |n| {
        let f = format_ident!("__evaluated_property_{}", n);
        quote!(#f(v, key))
    }));
    if parts.is_empty() {
        quote!({
            let _ = (v, key);
            false
        })
    } else {
        quote!(#(#parts)||*)
    }
}

/// The annotation-collecting part shared by properties and items: what the in-place applicators
/// evaluated (`ev(n)` asks node `n`), counting only branches that hold.
///
/// With `hoisted`, the verdicts of the node's own `anyOf`/`oneOf`/`if` branches are read from the
/// variables [`branch_verdicts`] declares (computed once, not once per member or item).
fn in_place_evaluated(
    ir: &Ir,
    c: &Checks,
    k: &TokenStream,
    hoisted: bool,
    ev: impl Fn(NodeId) -> TokenStream,
) -> Vec<TokenStream> {
    let verdict = |b: NodeId| if hoisted { branch_var(b).into_token_stream() } else { valid(ir, b, &quote!(v), k) };
    let mut parts = Vec::new();
    if let Some(r) = &c.reference {
        parts.push(ev(r.value.1));
    }
    for b in &c.all_of {
        parts.push(ev(*b));
    }
    for b in c.any_of.iter().chain(&c.one_of) {
        let ok = verdict(*b);
        let e = ev(*b);
        parts.push(quote!((#ok && #e)));
    }
    if let Some(i) = c.if_ {
        let ok = verdict(i);
        let ei = ev(i);
        let then = c.then_.map_or(quote!(false), &ev);
        let els = c.else_.map_or(quote!(false), &ev);
        parts.push(quote!((if #ok { #ei || #then } else { #els })));
    }
    for (dk, d) in &c.dependent_schemas {
        let e = ev(*d);
        parts.push(quote!((v.get(#dk).is_some() && #e)));
    }
    parts
}

/// The variable holding the verdict of in-place branch `b` (see [`branch_verdicts`]).
fn branch_var(b: NodeId) -> proc_macro2::Ident {
    format_ident!("__branch_{}", b)
}

/// Statements declaring the verdicts of the node's `anyOf`/`oneOf`/`if` branches on `v`, for the
/// `unevaluated*` loops.
fn branch_verdicts(ir: &Ir, c: &Checks, k: &TokenStream) -> TokenStream {
    let decls = c.any_of.iter().chain(&c.one_of).chain(&c.if_).map(|b| {
        let (var, test) = (branch_var(*b), valid(ir, *b, &quote!(v), k));
        quote!(let #var: ::core::primitive::bool = #test;)
    });
    quote!(#(#decls)*)
}

/// An expression: is item `i` of array `v` evaluated by the node's keywords (the node valid)?
fn evi_expr(ir: &Ir, c: &Checks, own_unevaluated: bool, k: &TokenStream) -> TokenStream {
    if c.items.is_some() || (own_unevaluated && c.unevaluated_items.is_some()) {
        return quote!(true);
    }
    let mut parts: Vec<TokenStream> = Vec::new();
    if !c.prefix_items.is_empty() {
        let n = c.prefix_items.len();
        parts.push(quote!(i < #n));
    }
    if let Some(cn) = c.contains {
        let ok = valid(ir, cn, &quote!(e), k);
        parts.push(quote!(v.items().nth(i).is_some_and(|e| #ok)));
    }
    parts.extend(in_place_evaluated(ir, c, k, !own_unevaluated, |n| {
        let f = format_ident!("__evaluated_item_{}", n);
        quote!(#f(v, i))
    }));
    if parts.is_empty() {
        quote!({
            let _ = (v, i);
            false
        })
    } else {
        quote!(#(#parts)||*)
    }
}

/// An expression: is the string `x` valid against the node (for `propertyNames`)? Only the
/// keywords that apply to strings, and the in-place applicators, matter.
fn vstr_expr(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    let mut parts: Vec<TokenStream> = Vec::new();
    let call = |n: NodeId| {
        let f = format_ident!("__valid_name_{}", n);
        quote!(#f(x))
    };
    if let Some(types) = c.type_list() {
        if !types.contains(&JsonType::String) {
            return quote!({
                let _ = x;
                false
            });
        }
    }
    if let Some(e) = &c.enum_values {
        let strings: Vec<&String> =
            e.value.iter().filter_map(|(v, _)| if let JsonValue::String(s) = v { Some(s) } else { None }).collect();
        // (An `enum` without strings takes no name: no `matches!` without a pattern.)
        parts.push(if strings.is_empty() { quote!(false) } else { quote!(::core::matches!(x, #(#strings)|*)) });
    }
    if let Some(cv) = &c.const_value {
        match &cv.value {
            JsonValue::String(s) => parts.push(quote!(x == #s)),
            _ => {
                return quote!({
                    let _ = x;
                    false
                })
            }
        }
    }
    if let Some(m) = &c.min_length {
        let l = m.value;
        parts.push(quote!(#k::__private::char_len(x) >= #l));
    }
    if let Some(m) = &c.max_length {
        let l = m.value;
        parts.push(quote!(#k::__private::char_len(x) <= #l));
    }
    if c.pattern.is_some() {
        parts.push(pattern_test(ir, id, &quote!(x), true, k));
    }
    if let Some(f) = &c.format {
        let name = &f.value;
        parts.push(quote!(#k::__private::format_matches(#name, x)));
    }
    if let Some(r) = &c.reference {
        parts.push(call(r.value.1));
    }
    for b in &c.all_of {
        parts.push(call(*b));
    }
    if !c.any_of.is_empty() {
        let calls = c.any_of.iter().map(|b| call(*b));
        parts.push(quote!((#(#calls)||*)));
    }
    if !c.one_of.is_empty() {
        let calls = c.one_of.iter().map(|b| call(*b));
        parts.push(quote!(([#(#calls),*].iter().filter(|b| **b).count() == 1)));
    }
    if let Some(n) = c.not {
        let cn = call(n);
        parts.push(quote!(!#cn));
    }
    if let Some(i) = c.if_ {
        let ci = call(i);
        let then = c.then_.map_or(quote!(true), call);
        let els = c.else_.map_or(quote!(true), call);
        parts.push(quote!((if #ci { #then } else { #els })));
    }
    if parts.is_empty() {
        quote!({
            let _ = x;
            true
        })
    } else {
        quote!(#(#parts)&&*)
    }
}

/// A check that reports `kind` at `at` and stops when the sink says so.
pub(crate) fn fail(k: &TokenStream, at: &TokenStream, kind: &TokenStream) -> TokenStream {
    quote! {
        if !s.fail(#at, || #k::ViolationKind::#kind) {
            return false;
        }
    }
}

/// A `TypeSet` constant for the listed types.
pub(crate) fn type_set(types: &[JsonType], k: &TokenStream) -> TokenStream {
    let mut e = quote!(#k::TypeSet::EMPTY);
    for t in types {
        let variant = match t {
            JsonType::Null => quote!(Null),
            JsonType::Boolean => quote!(Boolean),
            JsonType::Integer => quote!(Integer),
            JsonType::Number => quote!(Number),
            JsonType::String => quote!(String),
            JsonType::Array => quote!(Array),
            JsonType::Object => quote!(Object),
        };
        e = quote!(#e.with(#k::JsonType::#variant));
    }
    e
}

/// An `Option<Limit>` literal for a bound that may be absent (`minimum`, `maximum`, ...).
pub fn bound(kw: &Option<crate::model::Kw<Num>>, k: &TokenStream) -> TokenStream {
    match kw {
        Some(kw) => {
            let l = limit(&kw.value, k);
            quote!(::core::option::Option::Some(#l))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// A `Limit` literal for a schema number.
pub fn limit(n: &Num, k: &TokenStream) -> TokenStream {
    limit_in(n, &quote!(#k::__private))
}

/// A `Limit` literal for a schema number, `p` the path of the runtime's `__private` module.
pub fn limit_in(n: &Num, p: &TokenStream) -> TokenStream {
    if let Some(i) = n.as_i128() {
        if let Ok(i) = i64::try_from(i) {
            return quote!(#p::Limit::I(#i));
        }
        if let Ok(u) = u64::try_from(i) {
            return quote!(#p::Limit::U(#u));
        }
    }
    let bits = n.as_f64().to_bits();
    quote!(#p::Limit::F(::core::primitive::f64::from_bits(#bits)))
}

/// A constant `SVal` for a schema value (an `enum` member or a `const`). An array's or object's
/// list is a `const` of its own: a number that is no integer is written with `f64::from_bits`,
/// which a reference to a temporary would not make `'static` (`{"r": 1.5}`).
pub(crate) fn sval(j: &JsonValue, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    match j {
        JsonValue::Null => quote!(#p::SVal::Null),
        JsonValue::Bool(b) => quote!(#p::SVal::Bool(#b)),
        JsonValue::Number(n) => {
            let l = limit(n, k);
            quote!(#p::SVal::Num(#l))
        }
        JsonValue::String(s) => quote!(#p::SVal::Str(#s)),
        JsonValue::Array(items) => {
            let xs = items.iter().map(|x| sval(&x.value, k));
            quote!(#p::SVal::Arr({
                const __ITEMS: &[#p::SVal] = &[#(#xs),*];
                __ITEMS
            }))
        }
        JsonValue::Object(members) => {
            let ms = members.iter().map(|m| {
                let key = &m.key;
                let x = sval(&m.value.value, k);
                quote!((#key, #x))
            });
            quote!(#p::SVal::Obj({
                const __MEMBERS: &[(&::core::primitive::str, #p::SVal)] = &[#(#ms),*];
                __MEMBERS
            }))
        }
    }
}

/// Compact JSON text of one value, or of an array of several (for messages).
pub(crate) fn json_text(values: &[&JsonValue]) -> String {
    let wrap = |v: &JsonValue| Json { value: v.clone(), loc: Loc::Bytes { start: 0, end: 0 } };
    if let [one] = values {
        to_compact(&wrap(one))
    } else {
        let arr = JsonValue::Array(values.iter().map(|v| wrap(v)).collect());
        to_compact(&wrap(&arr))
    }
}

/// A check on a member name `key` (a `Text`): `body` runs with `key` decoded to a `&str` and may
/// report (its early `return false` leaves the closure, then the function).
fn with_key(body: &TokenStream) -> TokenStream {
    quote! {
        if !key.with_str(|key: &::core::primitive::str| { #body true }) { return false; }
    }
}

/// An expression: the index of member name `key` (a `Text`) in `names`, or `usize::MAX`; a
/// `match` decides it for a name without escapes.
pub(crate) fn key_index(key: &TokenStream, names: &[&str], k: &TokenStream) -> TokenStream {
    if names.is_empty() {
        return quote!(::core::primitive::usize::MAX);
    }
    let indexed: Vec<(usize, &[u8])> = names.iter().map(|n| n.as_bytes()).enumerate().collect();
    let tree = key_tree(&indexed);
    quote! {
        #k::__private::Text::index_in(
            #key,
            |k: &::core::primitive::str| { let __kb = k.as_bytes(); #tree },
            &[#(#names),*],
        )
    }
}

/// Properties looked up by one `Instance::get_all` call: its values found (an `Option` of a
/// `Span`, 32 bytes, each) live in the reporting function's frame, which recursion repeats.
const GET_ALL_MAX: usize = 32;

/// Names up to which [`key_tree`] is a plain `match` on the string: a few comparisons, and the
/// smaller code inlines better (measured: faster below this, slower on `flat30`'s 30 names).
const KEY_TREE_MIN: usize = 9;

/// An expression: the index of the name that the bytes `__kb` spell, or `usize::MAX`. From
/// [`KEY_TREE_MIN`] names on, a decision tree (Rust compiles a `match` on strings as one
/// comparison per arm, in order): a `match` on the length, then, on the bytes as an array of
/// that length, on the position that tells the remaining names most apart, until one name is
/// left, which is compared in full (a comparison of fixed-size arrays: a few integer
/// comparisons).
pub(crate) fn key_tree(names: &[(usize, &[u8])]) -> TokenStream {
    let none = quote!(::core::primitive::usize::MAX);
    if names.len() < KEY_TREE_MIN {
        let arms = names.iter().map(|&(i, n)| {
            let lit = proc_macro2::Literal::byte_string(n);
            quote!(#lit => #i,)
        });
        return quote!(match __kb { #(#arms)* _ => #none });
    }
    let mut lengths: Vec<usize> = names.iter().map(|(_, n)| n.len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let arms = lengths.iter().map(|&len| {
        let same: Vec<(usize, &[u8])> = names.iter().filter(|(_, n)| n.len() == len).copied().collect();
        let body = same_length_tree(&same);
        quote! {
            #len => match <&[::core::primitive::u8; #len]>::try_from(__kb) {
                ::core::result::Result::Ok(__a) => #body,
                ::core::result::Result::Err(_) => #none,
            },
        }
    });
    quote!(match __kb.len() { #(#arms)* _ => #none })
}

/// [`key_tree`] among names of one length, read from `__a` (an array of that length).
fn same_length_tree(names: &[(usize, &[u8])]) -> TokenStream {
    let none = quote!(::core::primitive::usize::MAX);
    let Some(&(first, name)) = names.first() else { return none };
    let distinct = |pos: usize| {
        let mut bytes: Vec<u8> = names.iter().filter_map(|(_, n)| n.get(pos).copied()).collect();
        bytes.sort_unstable();
        bytes.dedup();
        bytes
    };
    // The position that splits the names most; none splits them when one is left (or the
    // names repeat: the first one wins, as in a `match`).
    let pos = (0..name.len()).max_by_key(|&p| (distinct(p).len(), std::cmp::Reverse(p))).unwrap_or(0);
    let bytes = distinct(pos);
    if bytes.len() < 2 {
        let lit = proc_macro2::Literal::byte_string(name);
        return quote!(if *__a == *#lit { #first } else { #none });
    }
    let arms = bytes.iter().map(|&b| {
        let sub: Vec<(usize, &[u8])> = names.iter().filter(|(_, n)| n.get(pos) == Some(&b)).copied().collect();
        let body = same_length_tree(&sub);
        let lit = proc_macro2::Literal::u8_suffixed(b);
        quote!(#lit => #body,)
    });
    quote!(match __a[#pos] { #(#arms)* _ => #none })
}

/// What a member that `additionalProperties` (node `add`) applies to gets: a violation for
/// `false`, else the schema's check (`key` and `e` in scope).
fn additional_action(ir: &Ir, add: NodeId, k: &TokenStream) -> TokenStream {
    if matches!(ir.node(add).body, Body::Never) {
        quote! { let _ = e; if !#k::__private::fail_additional(key, at, s) { return false; } }
    } else {
        let f = vname(ir, add);
        with_key(&quote! { if !#f(e, &at.key(key), s) { return false; } })
    }
}

/// The `propertyNames` check (node `pn`) of one member name (`key` in scope).
fn property_name_check(pn: NodeId, k: &TokenStream) -> TokenStream {
    let f = format_ident!("__valid_name_{}", pn);
    let fl = fail(k, &quote!(&at.key(key)), &quote!(PropertyName { property: ::std::string::String::from(key) }));
    with_key(&quote! { if !#f(key) { #fl } })
}

#[allow(clippy::too_many_lines)]
fn checks(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let at = quote!(at);
    let mut out = TokenStream::new();
    // A sink that wants only the verdict (`!S::ORDERED`) gets it from the node's own verdict
    // functions (the text scan, the `&Value` verdict) where those compile every keyword; the
    // schema-order checks below then run only to report the violation of an invalid value.
    // Elsewhere (the verdict functions call this validator) objects get a one-pass walk.
    let local = super::text::scans_locally(c) && super::value::values_locally(c);
    if local {
        let (scan, is) = (super::text::sname(ir, id), super::value::iname(ir, id));
        out.extend(quote! { if !S::ORDERED && v.passes(#scan, #is) { return true; } });
    }

    if let Some(types) = c.type_list() {
        let set = type_set(types, k);
        out.extend(quote! { if !#p::check_type(v, #set, at, s) { return false; } });
    }
    if let Some(e) = &c.enum_values {
        let strings: Option<Vec<&String>> =
            e.value.iter().map(|(v, _)| if let JsonValue::String(s) = v { Some(s) } else { None }).collect();
        let test = match strings {
            Some(strings) => quote!(v.string().is_some_and(|x| x.is_in(
                |x: &::core::primitive::str| ::core::matches!(x, #(#strings)|*),
                &[#(#strings),*],
            ))),
            None => {
                let xs = e.value.iter().map(|(x, _)| sval(x, k));
                quote!(#(#p::sval_eq(&#xs, v))||*)
            }
        };
        let text = json_text(&e.value.iter().map(|(v, _)| v).collect::<Vec<_>>());
        let f = fail(k, &at, &quote!(Enum { expected: #text, found: v.found() }));
        out.extend(quote! { if !(#test) { #f } });
    }
    if let Some(cv) = &c.const_value {
        let x = sval(&cv.value, k);
        let text = json_text(&[&cv.value]);
        let f = fail(k, &at, &quote!(Const { expected: #text, found: v.found() }));
        out.extend(quote! { if !#p::sval_eq(&#x, v) { #f } });
    }

    // In-place applicators.
    let call = |n: NodeId| {
        let f = vname(ir, n);
        quote! { if !#f(v, at, s) { return false; } }
    };
    if let Some(r) = c.reference.as_ref().filter(|r| !always(ir, r.value.1)) {
        out.extend(call(r.value.1));
    }
    for b in c.all_of.iter().filter(|b| !always(ir, **b)) {
        out.extend(call(*b));
    }
    if !c.any_of.is_empty() {
        let n = c.any_of.len() as u64;
        let tests = c.any_of.iter().map(|b| valid(ir, *b, &quote!(v), k));
        let f = fail(k, &at, &quote!(AnyOf { alternatives: #n }));
        out.extend(quote! { if !(#(#tests)||*) { #f } });
    }
    if !c.one_of.is_empty() {
        let n = c.one_of.len() as u64;
        let tests = c.one_of.iter().map(|b| valid(ir, *b, &quote!(v), k));
        let f = fail(k, &at, &quote!(OneOf { alternatives: #n, matched }));
        out.extend(quote! {
            let mut matched: ::core::primitive::u64 = 0;
            #( if #tests { matched += 1; } )*
            if matched != 1 { #f }
        });
    }
    if let Some(n) = c.not {
        let test = valid(ir, n, &quote!(v), k);
        let f = fail(k, &at, &quote!(Not));
        out.extend(quote! { if #test { #f } });
    }
    if let Some(i) = c.if_ {
        if c.then_.is_some() || c.else_.is_some() {
            let test = valid(ir, i, &quote!(v), k);
            let then = c.then_.map(call).unwrap_or_default();
            let els = c.else_.map(call).unwrap_or_default();
            out.extend(quote! { if #test { #then } else { #els } });
        }
    }

    // Strings.
    let mut s_checks = TokenStream::new();
    if let Some(min) = &c.min_length {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinLength { limit: #l, length: x.char_len() }));
        s_checks.extend(quote! { if x.byte_len() < #l || x.char_len() < #l { #f } });
    }
    if let Some(max) = &c.max_length {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxLength { limit: #l, length: x.char_len() }));
        s_checks.extend(quote! { if x.byte_len() > #l && x.char_len() > #l { #f } });
    }
    if let Some(pat) = &c.pattern {
        let src = &pat.source;
        let f = fail(k, &at, &quote!(Pattern { pattern: #src, found: v.found() }));
        let test = pattern_test(ir, id, &quote!(x), false, k);
        s_checks.extend(quote! { if !#test { #f } });
    }
    if let Some(fm) = &c.format {
        let name = &fm.value;
        let f = fail(k, &at, &quote!(Format { format: #name, found: v.found() }));
        s_checks.extend(quote! { if !x.has_format(#name) { #f } });
    }
    if !s_checks.is_empty() {
        out.extend(quote! { if let ::core::option::Option::Some(x) = v.string() { #s_checks } });
    }

    // Numbers.
    let mut n_checks = TokenStream::new();
    let bounds = [
        (&c.minimum, quote!(is_lt), quote!(Minimum), false),
        (&c.exclusive_minimum, quote!(is_le), quote!(Minimum), true),
        (&c.maximum, quote!(is_gt), quote!(Maximum), false),
        (&c.exclusive_maximum, quote!(is_ge), quote!(Maximum), true),
    ];
    for (kw, test, kind, exclusive) in bounds {
        if let Some(kw) = kw {
            let l = limit(&kw.value, k);
            let text = kw.value.text();
            let f = fail(k, &at, &quote!(#kind { limit: #text, exclusive: #exclusive, found: v.found() }));
            n_checks.extend(quote! { if #p::cmp_limit(n, #l).#test() { #f } });
        }
    }
    if let Some(m) = &c.multiple_of {
        if let Some((mantissa, exponent)) = m.value.decimal() {
            let text = m.value.text();
            let f = fail(k, &at, &quote!(MultipleOf { divisor: #text, found: v.found() }));
            n_checks.extend(quote! {
                if !#p::multiple_of(n, #p::Decimal { mantissa: #mantissa, exponent: #exponent }) { #f }
            });
        }
    }
    if !n_checks.is_empty() {
        out.extend(quote! {
            if let ::core::option::Option::Some(n) = v.number() {
                let n: &#p::serde_json::Number = #p::Borrow::borrow(&n);
                #n_checks
            }
        });
    }

    // Arrays.
    let mut a_checks = TokenStream::new();
    if let Some(min) = &c.min_items {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinItems { limit: #l, count: v.count() }));
        a_checks.extend(quote! { if v.count() < #l { #f } });
    }
    if let Some(max) = &c.max_items {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxItems { limit: #l, count: v.count() }));
        a_checks.extend(quote! { if v.count() > #l { #f } });
    }
    if c.unique_items {
        let f = fail(k, &at, &quote!(UniqueItems { first: i, second: j }));
        a_checks.extend(quote! { if let ::core::option::Option::Some((i, j)) = v.first_duplicate() { #f } });
    }
    for (i, pi) in c.prefix_items.iter().enumerate().filter(|(_, pi)| !always(ir, **pi)) {
        let f = vname(ir, *pi);
        a_checks.extend(quote! {
            if let ::core::option::Option::Some(e) = v.items().nth(#i) {
                if !#f(e, &at.index(#i), s) { return false; }
            }
        });
    }
    if let Some(items) = c.items.filter(|i| !always(ir, *i)) {
        let f = vname(ir, items);
        let skip = c.prefix_items.len();
        a_checks.extend(quote! {
            for (i, e) in v.items().enumerate().skip(#skip) {
                if !#f(e, &at.index(i), s) { return false; }
            }
        });
    }
    if let Some(cn) = c.contains {
        let min = c.min_contains.as_ref().map_or(1, |m| m.value);
        let max = c.max_contains.as_ref().map(|m| m.value);
        let test = valid(ir, cn, &quote!(e), k);
        let max_test = max.map_or(quote!(false), |m| quote!(count > #m));
        let max_tok = match max {
            Some(m) => quote!(::core::option::Option::Some(#m)),
            None => quote!(::core::option::Option::None),
        };
        let f = fail(k, &at, &quote!(Contains { min: #min, max: #max_tok, count }));
        a_checks.extend(quote! {
            let count = #p::len64(v.items().filter(|e| { let e = *e; #test }).count());
            if count < #min || #max_test { #f }
        });
    }
    if let Some(u) = c.unevaluated_items.filter(|u| !always(ir, *u)) {
        let local = evi_expr(ir, c, false, k);
        let action = if matches!(ir.node(u).body, Body::Never) {
            let f = fail(k, &quote!(&at.index(i)), &quote!(UnevaluatedItem { index: #p::len64(i) }));
            quote! { let _ = e; #f }
        } else {
            let f = vname(ir, u);
            quote! { if !#f(e, &at.index(i), s) { return false; } }
        };
        let branches = branch_verdicts(ir, c, k);
        a_checks.extend(quote! {
            #branches
            for (i, e) in v.items().enumerate() {
                if !(#local) { #action }
            }
        });
    }
    if !a_checks.is_empty() {
        out.extend(quote! { if v.is_array() { #a_checks } });
    }

    // Objects.
    let mut o_checks = TokenStream::new();
    // The checked properties, looked up together (text is read once, not once per name), a
    // bounded number at a time (the values found live in the function's frame).
    let checked: Vec<_> = c.properties.iter().filter(|prop| !always(ir, prop.node)).collect();
    for group in checked.chunks(GET_ALL_MAX) {
        let names = group.iter().map(|prop| &prop.name);
        let found: Vec<_> = (0..group.len()).map(|i| format_ident!("__p{}", i)).collect();
        let each = group.iter().zip(&found).map(|(prop, e)| {
            let f = vname(ir, prop.node);
            let name = &prop.name;
            quote! {
                if let ::core::option::Option::Some(e) = #e {
                    if !#f(e, &at.key(#name), s) { return false; }
                }
            }
        });
        o_checks.extend(quote! {
            let [#(#found),*] = #p::Instance::get_all(v, &[#(#names),*]);
            #(#each)*
        });
    }
    let patterns = pattern_props(ir, id, c);
    for (pat, n) in patterns.iter().filter(|(_, n)| !always(ir, *n)) {
        let f = vname(ir, *n);
        let check = with_key(&quote! { if !#f(e, &at.key(key), s) { return false; } });
        o_checks.extend(quote! {
            for (key, e) in v.members() {
                if key.is_match(&#pat) { #check }
            }
        });
    }
    if let Some(add) = c.additional.filter(|a| !always(ir, *a)) {
        let names: Vec<&String> = c.properties.iter().map(|p| &p.name).collect();
        let mut tests: Vec<TokenStream> = Vec::new();
        if !names.is_empty() {
            tests.push(quote!(!key.is_in(
                |k: &::core::primitive::str| ::core::matches!(k, #(#names)|*),
                &[#(#names),*],
            )));
        }
        for (pat, _) in &patterns {
            tests.push(quote!(!key.is_match(&#pat)));
        }
        let undeclared = if tests.is_empty() { quote!(true) } else { quote!(#(#tests)&&*) };
        if patterns.is_empty() && matches!(ir.node(add).body, Body::Never) {
            // Sorted for the binary search, as `str` orders them (by bytes).
            let mut sorted = names.clone();
            sorted.sort();
            o_checks.extend(quote! { if !#p::check_closed(v, &[#(#sorted),*], at, s) { return false; } });
        } else {
            let action = additional_action(ir, add, k);
            o_checks.extend(quote! {
                for (key, e) in v.members() {
                    if #undeclared { #action }
                }
            });
        }
    }
    if let Some(pn) = c.property_names.filter(|n| !always(ir, *n)) {
        let check = property_name_check(pn, k);
        o_checks.extend(quote! {
            for (key, _) in v.members() { #check }
        });
    }
    for (dk, reqs) in &c.dependent_required {
        for r in reqs {
            let fl = fail(
                k,
                &quote!(&at.key(#r)),
                &quote!(DependentRequired { property: ::std::string::String::from(#dk), missing: ::std::string::String::from(#r) }),
            );
            o_checks.extend(quote! {
                if v.get(#dk).is_some() && v.get(#r).is_none() { #fl }
            });
        }
    }
    // What the one-pass walk for verdicts leaves to the schema-order code.
    let mut late = TokenStream::new();
    for (dk, d) in c.dependent_schemas.iter().filter(|(_, d)| !always(ir, *d)) {
        let f = vname(ir, *d);
        late.extend(quote! {
            if v.get(#dk).is_some() && !#f(v, at, s) { return false; }
        });
    }
    if let Some(u) = c.unevaluated_properties.filter(|u| !always(ir, *u)) {
        let local = evp_expr(ir, id, c, false, k);
        let action = if matches!(ir.node(u).body, Body::Never) {
            let f = fail(
                k,
                &quote!(&at.key(key)),
                &quote!(UnevaluatedProperty { property: ::std::string::String::from(key) }),
            );
            quote! { let _ = e; #f }
        } else {
            let f = vname(ir, u);
            quote! { if !#f(e, &at.key(key), s) { return false; } }
        };
        let check = with_key(&quote! { if !(#local) { #action } });
        let branches = branch_verdicts(ir, c, k);
        late.extend(quote! {
            #branches
            for (key, e) in v.members() { #check }
        });
    }
    o_checks.extend(late.clone());
    if !c.required.is_empty() {
        let names = c.required.iter().map(|(n, _)| n);
        o_checks.extend(quote! { if !#p::check_required(v, &[#(#names),*], at, s) { return false; } });
    }
    if let Some(min) = &c.min_properties {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinProperties { limit: #l, count: v.count() }));
        o_checks.extend(quote! { if v.count() < #l { #f } });
    }
    if let Some(max) = &c.max_properties {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxProperties { limit: #l, count: v.count() }));
        o_checks.extend(quote! { if v.count() > #l { #f } });
    }
    if !o_checks.is_empty() {
        if local {
            out.extend(quote! { if v.is_object() { #o_checks } });
        } else {
            let one_pass = one_pass_object(ir, id, c, k);
            out.extend(quote! {
                if v.is_object() {
                    if S::ORDERED { #o_checks } else { #one_pass #late }
                }
            });
        }
    }

    quote! { #out true }
}

/// The object keywords checked member by member in one pass, for sinks that want only the
/// verdict (`!S::ORDERED`): each key is classified once by a `match` into the index of a name
/// the node mentions, a bitset records which names were seen, and `required`,
/// `dependentRequired` and the counts are decided from the bitset afterwards. `dependentSchemas`
/// and `unevaluatedProperties` are left to the schema-order code.
fn one_pass_object(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    // The names: declared properties first (their index selects the schema), then every other
    // name `required` or `dependentRequired` mentions.
    let mut names: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
    let declared = names.len();
    let mentioned = c.required.iter().map(|(r, _)| r.as_str()).chain(
        c.dependent_required
            .iter()
            .flat_map(|(dk, rs)| std::iter::once(dk.as_str()).chain(rs.iter().map(String::as_str))),
    );
    for n in mentioned {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let index_of = |n: &str| names.iter().position(|x| *x == n).unwrap_or(usize::MAX);
    let words = names.len().div_ceil(64).max(1);
    let bit = |i: usize| -> TokenStream {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        quote!((__seen.get(#w).copied().unwrap_or(0) & #b != 0))
    };

    // Per member: its declared schema, the patterns it matches, else `additionalProperties`.
    let arms = c.properties.iter().enumerate().filter(|(_, p)| !always(ir, p.node)).map(|(i, p)| {
        let (f, name) = (vname(ir, p.node), &p.name);
        quote!(#i => { if !#f(e, &at.key(#name), s) { return false; } })
    });
    let mut per_member = quote! {
        match __i {
            #(#arms)*
            _ => {}
        }
    };
    let patterns = pattern_props(ir, id, c);
    let track_match = c.additional.is_some_and(|a| !always(ir, a)) && !patterns.is_empty();
    for (pat, n) in &patterns {
        let mark = if track_match { quote!(__matched = true;) } else { TokenStream::new() };
        let check = if always(ir, *n) {
            TokenStream::new()
        } else {
            let f = vname(ir, *n);
            with_key(&quote! { if !#f(e, &at.key(key), s) { return false; } })
        };
        if !(mark.is_empty() && check.is_empty()) {
            per_member.extend(quote! { if key.is_match(&#pat) { #mark #check } });
        }
    }
    if let Some(add) = c.additional.filter(|a| !always(ir, *a)) {
        let action = additional_action(ir, add, k);
        let unmatched = if track_match { quote!(&&!__matched) } else { TokenStream::new() };
        per_member.extend(quote! { if __i >= #declared #unmatched { #action } });
    }
    if let Some(pn) = c.property_names.filter(|n| !always(ir, *n)) {
        per_member.extend(property_name_check(pn, k));
    }

    // After the walk: presence and counts.
    let mut after = TokenStream::new();
    for (name, _) in &c.required {
        let seen = bit(index_of(name));
        after.extend(quote! { if !#seen && !#k::__private::fail_required(#name, at, s) { return false; } });
    }
    for (dk, reqs) in &c.dependent_required {
        let has = bit(index_of(dk));
        for r in reqs {
            let seen = bit(index_of(r));
            let fl = fail(
                k,
                &quote!(&at.key(#r)),
                &quote!(DependentRequired { property: ::std::string::String::from(#dk), missing: ::std::string::String::from(#r) }),
            );
            after.extend(quote! { if #has && !#seen { #fl } });
        }
    }
    if let Some(min) = &c.min_properties {
        let l = min.value;
        let f = fail(k, &quote!(at), &quote!(MinProperties { limit: #l, count: __count }));
        after.extend(quote! { if __count < #l { #f } });
    }
    if let Some(max) = &c.max_properties {
        let l = max.value;
        let f = fail(k, &quote!(at), &quote!(MaxProperties { limit: #l, count: __count }));
        after.extend(quote! { if __count > #l { #f } });
    }

    let per_member_work = c.properties.iter().any(|p| !always(ir, p.node))
        || !patterns.is_empty()
        || c.additional.is_some_and(|a| !always(ir, a))
        || c.property_names.is_some_and(|n| !always(ir, n));
    if !per_member_work && after.is_empty() {
        return TokenStream::new();
    }
    let classify = key_index(&quote!(key), &names, k);
    let matched_decl = if track_match { quote!(let mut __matched = false;) } else { TokenStream::new() };
    quote! {
        let mut __seen = [0_u64; #words];
        let mut __count: ::core::primitive::u64 = 0;
        for (key, e) in v.members_any_order() {
            let _ = &e;
            __count += 1;
            let __i: ::core::primitive::usize = #classify;
            if let ::core::option::Option::Some(w) = __seen.get_mut(__i / 64) {
                *w |= 1_u64 << (__i % 64);
            }
            #matched_decl
            #per_member
        }
        let _ = (__seen, __count);
        #after
    }
}
