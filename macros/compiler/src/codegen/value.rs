//! IR → verdict functions on a parsed value: `__is_N(v: &serde_json::Value) -> bool`, one per
//! node, for [`crate::codegen`]'s `Tool::is_valid` and for the in-place branches (`anyOf`, `oneOf`,
//! `not`, `if`) of the generic validators when they read a `&Value`.
//!
//! Why a second generator beside the generic validators of [`super::validate`]: those serve every
//! sink and both instance kinds, so they test a value's JSON type through the `Instance` trait
//! once per keyword family, build a `Path` per member and item, and branch on the sink. A verdict
//! on a `&Value` needs none of that: each function here matches on the `Value` once, handles each
//! JSON kind in its own arm (a string `enum` is a `match` on the `&str` in the string arm), walks
//! an object's members once with one `match` on the key, and returns `false` at the first
//! violation. It decides exactly what the generic validator decides with a `Verdict` sink (the
//! conformance suite and the agreement tests compare them); a node with a keyword this generator
//! does not compile (see [`values_locally`]) calls its generic validator with a `Verdict` instead.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::json::JsonValue;
use crate::model::{Body, Checks, Ir, JsonType, NodeId};

use super::validate::{always, limit, pattern_test, sval, vname};

/// The name of node `id`'s verdict function on a `&Value` (shared by the nodes that check the
/// same: [`Ir::canon`]).
pub fn iname(ir: &Ir, id: NodeId) -> proc_macro2::Ident {
    format_ident!("__is_{}", ir.canon(id))
}

/// Whether this generator compiles every keyword of `c` (the `unevaluated*` keywords are left to
/// the generic validator, which collects the annotations they need).
#[must_use]
pub fn values_locally(c: &Checks) -> bool {
    c.unevaluated_properties.is_none() && c.unevaluated_items.is_none() && c.additional_items.is_none()
}

/// An expression: is `var` (a `&Value`) valid against node `id`?
pub(crate) fn call(ir: &Ir, id: NodeId, var: &TokenStream) -> TokenStream {
    match ir.node(id).body {
        Body::Always => quote!(true),
        Body::Never => quote!(false),
        Body::Checks(_) => {
            let f = iname(ir, id);
            quote!(#f(#var))
        }
    }
}

/// The verdict function of every node.
pub fn functions(ir: &Ir, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let mut out = TokenStream::new();
    for (id, node) in ir.nodes.iter().enumerate() {
        if ir.canon(id) != id {
            continue; // it shares the verdict function of the node it checks the same as
        }
        let body = match &node.body {
            Body::Always => quote! { let _ = v; true },
            Body::Never => quote! { let _ = v; false },
            Body::Checks(c) if values_locally(c) => node_body(ir, id, c, k),
            Body::Checks(_) => {
                let f = vname(ir, id);
                quote! {
                    let mut __verdict = #k::Verdict::new();
                    #f(v, &#k::Path::ROOT, &mut __verdict) && __verdict.valid
                }
            }
        };
        let name = iname(ir, id);
        let inline = super::validate::inline(ir, id);
        out.extend(quote! {
            #inline
            fn #name(v: &#p::serde_json::Value) -> ::core::primitive::bool {
                #body
            }
        });
    }
    out
}

use super::Kind as K;

const KINDS: [K; 6] = [K::Null, K::Bool, K::Number, K::String, K::Array, K::Object];

fn kind_of(v: &JsonValue) -> K {
    match v {
        JsonValue::Null => K::Null,
        JsonValue::Bool(_) => K::Bool,
        JsonValue::Number(_) => K::Number,
        JsonValue::String(_) => K::String,
        JsonValue::Array(_) => K::Array,
        JsonValue::Object(_) => K::Object,
    }
}

/// Whether `type` admits kind `kind` at all, and whether a number must be an integer.
fn type_allows(c: &Checks, kind: K) -> (bool, bool) {
    let Some(types) = c.type_list() else { return (true, false) };
    let has = |t: JsonType| types.contains(&t);
    match kind {
        K::Null => (has(JsonType::Null), false),
        K::Bool => (has(JsonType::Boolean), false),
        K::Number => (has(JsonType::Number) || has(JsonType::Integer), !has(JsonType::Number)),
        K::String => (has(JsonType::String), false),
        K::Array => (has(JsonType::Array), false),
        K::Object => (has(JsonType::Object), false),
    }
}

/// The body of a node's verdict function: one `match` on the value, an arm per JSON kind with the
/// node's own assertions for that kind, then its in-place applicators.
fn node_body(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let mut arms = TokenStream::new();
    let mut n_arms = 0;
    let mut defaults_false = Vec::new();
    for kind in KINDS {
        let (allowed, integer) = type_allows(c, kind);
        let mut tests: Vec<TokenStream> = Vec::new();
        if allowed {
            tests.extend(enum_const(c, kind, k));
            match kind {
                K::Null | K::Bool => {}
                K::Number => tests.extend(number(c, integer, k)),
                K::String => tests.extend(string(ir, id, c, k)),
                K::Array => tests.extend(array(ir, c, k)),
                K::Object => tests.extend(object(ir, id, c, k)),
            }
        } else {
            tests.push(quote!(false));
        }
        if tests.iter().any(is_false) {
            defaults_false.push(kind);
            continue;
        }
        if tests.is_empty() {
            continue; // the `_ => true` arm
        }
        let (pat, binds) = match kind {
            K::Null => (quote!(#p::serde_json::Value::Null), quote!()),
            K::Bool => (quote!(#p::serde_json::Value::Bool(__b)), quote!(let _ = __b;)),
            K::Number => (quote!(#p::serde_json::Value::Number(__n)), quote!(let _ = __n;)),
            K::String => (
                quote!(#p::serde_json::Value::String(__s)),
                quote!(let __s: &::core::primitive::str = __s; let _ = __s;),
            ),
            K::Array => (quote!(#p::serde_json::Value::Array(__a)), quote!(let _ = __a;)),
            K::Object => (quote!(#p::serde_json::Value::Object(__m)), quote!(let _ = __m;)),
        };
        arms.extend(quote! { #pat => { #binds #(#tests)&&* } });
        n_arms += 1;
    }
    let pat_of = |kind: &K| match kind {
        K::Null => quote!(#p::serde_json::Value::Null),
        K::Bool => quote!(#p::serde_json::Value::Bool(_)),
        K::Number => quote!(#p::serde_json::Value::Number(_)),
        K::String => quote!(#p::serde_json::Value::String(_)),
        K::Array => quote!(#p::serde_json::Value::Array(_)),
        K::Object => quote!(#p::serde_json::Value::Object(_)),
    };
    // Kinds the node rejects outright share one arm; if all six are, the match is `false`.
    let own = if n_arms == 0 && !defaults_false.is_empty() && defaults_false.len() < KINDS.len() {
        // Only a type test: one `matches!`.
        let allowed = KINDS.iter().filter(|kind| !defaults_false.contains(kind)).map(pat_of);
        quote!(::core::matches!(v, #(#allowed)|*))
    } else if defaults_false.len() == KINDS.len() {
        quote!({
            let _ = v;
            false
        })
    } else if defaults_false.is_empty() {
        if arms.is_empty() {
            quote!(true)
        } else {
            quote!(match v { #arms _ => true })
        }
    } else {
        let pats = defaults_false.iter().map(pat_of);
        let rest = if defaults_false.len() + n_arms == KINDS.len() { quote!() } else { quote!(_ => true,) };
        quote!(match v { #arms #(#pats)|* => false, #rest })
    };
    let mut in_place: Vec<TokenStream> = Vec::new();
    let on = |n: NodeId| call(ir, n, &quote!(v));
    if let Some(r) = c.reference.as_ref().filter(|r| !always(ir, r.value.1)) {
        in_place.push(on(r.value.1));
    }
    for b in c.all_of.iter().filter(|b| !always(ir, **b)) {
        in_place.push(on(*b));
    }
    if !c.any_of.is_empty() {
        let tests = c.any_of.iter().map(|b| on(*b));
        in_place.push(quote!((#(#tests)||*)));
    }
    if !c.one_of.is_empty() {
        let tests = c.one_of.iter().map(|b| on(*b));
        in_place.push(quote!({
            let mut __matched = 0_u32;
            #( if #tests { __matched += 1; } )*
            __matched == 1
        }));
    }
    if let Some(n) = c.not {
        let t = on(n);
        in_place.push(quote!(!#t));
    }
    if let Some(i) = c.if_ {
        if c.then_.is_some() || c.else_.is_some() {
            let test = on(i);
            let then = c.then_.map_or(quote!(true), &on);
            let els = c.else_.map_or(quote!(true), &on);
            in_place.push(quote!((if #test { #then } else { #els })));
        }
    }
    if in_place.is_empty() {
        own
    } else {
        quote!((#own) #(&& #in_place)*)
    }
}

/// Whether `t` is the literal `false` (a test that rejects the whole arm).
fn is_false(t: &TokenStream) -> bool {
    // Token by token, not through `to_string`: `t` may be a whole object's test.
    let mut tokens = t.clone().into_iter();
    matches!((tokens.next(), tokens.next()), (Some(proc_macro2::TokenTree::Ident(i)), None) if i == "false")
}

/// `enum` and `const` for the values of kind `kind` (bound as `__b`, `__n`, `__s`, or `v`).
fn enum_const(c: &Checks, kind: K, k: &TokenStream) -> Vec<TokenStream> {
    let p = quote!(#k::__private);
    let mut out = Vec::new();
    let lists = [
        c.enum_values
            .as_ref()
            .map(|e| e.value.iter().map(|(v, _)| v).filter(|v| kind_of(v) == kind).collect::<Vec<_>>()),
        c.const_value.as_ref().map(|cv| [&cv.value].into_iter().filter(|v| kind_of(v) == kind).collect()),
    ];
    for vals in lists.into_iter().flatten() {
        if vals.is_empty() {
            out.push(quote!(false));
            continue;
        }
        out.push(match kind {
            K::Null => quote!(true),
            K::Bool => {
                let bs = vals.iter().filter_map(|v| if let JsonValue::Bool(b) = v { Some(*b) } else { None });
                quote!((#(*__b == #bs)||*))
            }
            K::String => {
                let ss = vals.iter().filter_map(|v| if let JsonValue::String(s) = v { Some(s) } else { None });
                quote!(::core::matches!(__s, #(#ss)|*))
            }
            K::Number => {
                let ls =
                    vals.iter().filter_map(|v| if let JsonValue::Number(n) = v { Some(limit(n, k)) } else { None });
                quote!((#(#p::cmp_limit(__n, #ls).is_eq())||*))
            }
            K::Array | K::Object => {
                let xs = vals.iter().map(|x| sval(x, k));
                quote!((#(#p::sval_eq(&#xs, v))||*))
            }
        });
    }
    if out.iter().any(is_false) {
        return vec![quote!(false)];
    }
    out
}

/// The number checks. A number that fits an `i64` (what integer arguments are) is compared with
/// integer bounds directly; any other number goes through the exact comparisons of the runtime.
fn number(c: &Checks, integer: bool, k: &TokenStream) -> Vec<TokenStream> {
    let p = quote!(#k::__private);
    let mut exact = Vec::new();
    let mut fast = Vec::new();
    // Bounds on a float: one `f64` comparison is exact when the bound is within ±2^53 (an
    // integer there is exact as an `f64`; a decimal bound is compared as the `f64` it parses to,
    // as the runtime does). A `u64` above `i64::MAX` also lands here, and its rounded value
    // (≥ 2^63) is still on the same side of every such bound.
    let mut float: Option<Vec<TokenStream>> = Some(Vec::new());
    if integer {
        exact.push(quote!(#p::is_integer(__n)));
        if let Some(f) = float.as_mut() {
            f.push(quote!(#p::is_integer(__n)));
        }
    }
    let bounds = [
        (&c.minimum, quote!(is_ge), quote!(>=)),
        (&c.exclusive_minimum, quote!(is_gt), quote!(>)),
        (&c.maximum, quote!(is_le), quote!(<=)),
        (&c.exclusive_maximum, quote!(is_lt), quote!(<)),
    ];
    for (kw, test, op) in bounds {
        if let Some(kw) = kw {
            let l = limit(&kw.value, k);
            let general = quote!(#p::cmp_limit(__n, #l).#test());
            match kw.value.as_i128().and_then(|i| i64::try_from(i).ok()) {
                Some(i) => fast.push(quote!(__i #op #i)),
                None => fast.push(general.clone()),
            }
            #[allow(clippy::cast_precision_loss)] // exact: |i| <= 2^53
            let as_float = match kw.value.as_i128() {
                Some(i) if i.unsigned_abs() <= 1 << 53 => Some(i as f64),
                Some(_) => None,
                None => Some(kw.value.as_f64()).filter(|f| f.is_finite() && f.abs() <= 9_007_199_254_740_992.0),
            };
            match (as_float, float.as_mut()) {
                (Some(f), Some(tests)) => {
                    let bits = f.to_bits();
                    tests.push(quote!(__f #op ::core::primitive::f64::from_bits(#bits)));
                }
                _ => float = None,
            }
            exact.push(general);
        }
    }
    if let Some(m) = &c.multiple_of {
        if let Some((mantissa, exponent)) = m.value.decimal() {
            let t = quote!(#p::multiple_of(__n, #p::Decimal { mantissa: #mantissa, exponent: #exponent }));
            fast.push(t.clone());
            if let Some(f) = float.as_mut() {
                f.push(t.clone());
            }
            exact.push(t);
        }
    }
    if exact.is_empty() {
        return exact;
    }
    if fast.is_empty() {
        fast.push(quote!(true));
    }
    let other = match float.filter(|f| !f.is_empty()) {
        // Only worth a second `match` when a bound is compared (not for `integer` alone).
        Some(f) if f.len() > usize::from(integer) => quote!(match __n.as_f64() {
            ::core::option::Option::Some(__f) => #(#f)&&*,
            ::core::option::Option::None => #(#exact)&&*,
        }),
        _ => quote!(#(#exact)&&*),
    };
    vec![quote!(match __n.as_i64() {
        ::core::option::Option::Some(__i) => { let _ = __i; #(#fast)&&* }
        ::core::option::Option::None => #other,
    })]
}

fn string(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> Vec<TokenStream> {
    let p = quote!(#k::__private);
    let mut out = Vec::new();
    if let Some(min) = &c.min_length {
        let l = min.value;
        out.push(if l == 0 {
            quote!(true)
        } else if l == 1 {
            quote!(!__s.is_empty())
        } else {
            quote!(#p::min_chars(__s, #l))
        });
    }
    if let Some(max) = &c.max_length {
        let l = max.value;
        out.push(quote!(#p::max_chars(__s, #l)));
    }
    if c.pattern.is_some() {
        out.push(pattern_test(ir, id, &quote!(__s), true, k));
    }
    if let Some(fm) = &c.format {
        let name = &fm.value;
        out.push(quote!(#p::format_matches(#name, __s)));
    }
    out
}

fn array(ir: &Ir, c: &Checks, k: &TokenStream) -> Vec<TokenStream> {
    let p = quote!(#k::__private);
    let mut out = Vec::new();
    if let Some(min) = &c.min_items {
        let l = min.value;
        out.push(quote!(#p::len64(__a.len()) >= #l));
    }
    if let Some(max) = &c.max_items {
        let l = max.value;
        out.push(quote!(#p::len64(__a.len()) <= #l));
    }
    for (i, pi) in c.prefix_items.iter().enumerate().filter(|(_, pi)| !always(ir, **pi)) {
        let t = call(ir, *pi, &quote!(e));
        out.push(quote!(__a.get(#i).is_none_or(|e| #t)));
    }
    if let Some(items) = c.items.filter(|i| !always(ir, *i)) {
        let f = call(ir, items, &quote!(e));
        let skip = c.prefix_items.len();
        out.push(if skip == 0 { quote!(__a.iter().all(|e| #f)) } else { quote!(__a.iter().skip(#skip).all(|e| #f)) });
    }
    if c.unique_items {
        out.push(quote!(#p::all_unique(__a)));
    }
    if let Some(cn) = c.contains {
        let min = c.min_contains.as_ref().map_or(1, |m| m.value);
        let test = call(ir, cn, &quote!(e));
        let count = quote!(#p::len64(__a.iter().filter(|e| { let e: &#p::serde_json::Value = e; #test }).count()));
        out.push(match c.max_contains.as_ref().map(|m| m.value) {
            Some(max) => quote!({ let __c = #count; __c >= #min && __c <= #max }),
            None => quote!(#count >= #min),
        });
    }
    out
}

/// The object keywords in one pass over the members: one `match` on each key gives its declared
/// schema and marks the names `required`/`dependentRequired` mention in a bitset; patterns,
/// `additionalProperties` and `propertyNames` follow; presence and counts are decided afterwards.
#[allow(clippy::too_many_lines)]
fn object(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> Vec<TokenStream> {
    let p = quote!(#k::__private);
    let mut out = Vec::new();
    // Counts that decide before the walk: a closed object has at most its declared members, and
    // at least as many members as `required` names.
    let closed =
        c.pattern_properties.is_empty() && c.additional.is_some_and(|a| matches!(ir.node(a).body, Body::Never));
    if closed {
        let n = c.properties.len();
        out.push(quote!(__m.len() <= #n));
    }
    let distinct = c.required.iter().map(|(r, _)| r).collect::<std::collections::BTreeSet<_>>().len();
    let declared = c.properties.len();
    // A closed object that requires every declared name has them all once its size is right and
    // every key is declared (the walk rejects any other key): no presence bits needed.
    let implied =
        closed && distinct == declared && c.required.iter().all(|(r, _)| c.properties.iter().any(|p| p.name == *r));
    if distinct > 1 || (implied && distinct == 1) {
        out.push(quote!(__m.len() >= #distinct));
    }
    if let Some(min) = &c.min_properties {
        let l = min.value;
        out.push(quote!(#p::len64(__m.len()) >= #l));
    }
    if let Some(max) = &c.max_properties {
        let l = max.value;
        out.push(quote!(#p::len64(__m.len()) <= #l));
    }
    // The names: declared properties first, then every other name `required` or
    // `dependentRequired` mentions.
    let mut names: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
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
    let index_of = |n: &str| names.iter().position(|x| *x == n).unwrap_or(0);
    let track: Vec<bool> = names
        .iter()
        .map(|n| {
            (!implied && c.required.iter().any(|(r, _)| r == n))
                || c.dependent_required.iter().any(|(dk, rs)| dk == n || rs.iter().any(|r| r == n))
        })
        .collect();
    let words = names.len().div_ceil(64).max(1);
    let bit = |i: usize| -> (usize, u64) { (i / 64, 1u64 << (i % 64)) };
    let mark = |i: usize| -> TokenStream {
        if !track.get(i).copied().unwrap_or(false) {
            return TokenStream::new();
        }
        let (w, b) = bit(i);
        if words == 1 {
            quote!(__seen |= #b;)
        } else {
            quote!(if let ::core::option::Option::Some(w) = __seen.get_mut(#w) { *w |= #b; })
        }
    };

    let patterns = super::validate::pattern_props(ir, id, c);
    let additional = c.additional.filter(|a| !always(ir, *a));
    let additional_action = additional.map(|a| match ir.node(a).body {
        Body::Never => quote!(return false;),
        _ => {
            let t = call(ir, a, &quote!(e));
            quote!(if !#t { return false; })
        }
    });

    let mut per_member = TokenStream::new();
    // The `match` on the key: declared names check their schema; every arm says whether the name
    // is declared (for `additionalProperties`).
    let need_declared = additional.is_some();
    let mut arms = TokenStream::new();
    let mut armed: Vec<(usize, &[u8])> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let m = mark(i);
        let check = c.properties.get(i).filter(|_| i < declared).filter(|pr| !always(ir, pr.node)).map(|pr| {
            let t = call(ir, pr.node, &quote!(e));
            quote!(if !#t { return false; })
        });
        let is_declared = i < declared;
        if m.is_empty() && check.is_none() && (!need_declared || !is_declared) {
            continue;
        }
        let result = if need_declared { quote!(#is_declared) } else { quote!() };
        let arm = armed.len();
        armed.push((arm, name.as_bytes()));
        arms.extend(quote!(#arm => { #m #check #result }));
    }
    let tree = super::validate::key_tree(&armed);
    let classify = quote!({ let __kb = key.as_bytes(); #tree });
    let default = if need_declared { quote!(false) } else { quote!({}) };
    let has_match = !arms.is_empty();
    if has_match {
        if need_declared {
            per_member
                .extend(quote! { let __declared: ::core::primitive::bool = match #classify { #arms _ => #default }; });
        } else {
            per_member.extend(quote! { match #classify { #arms _ => {} } });
        }
    } else if need_declared {
        per_member.extend(quote! { let __declared = false; });
    }
    let track_match = additional.is_some() && !patterns.is_empty();
    if track_match {
        per_member.extend(quote! { let mut __matched = false; });
    }
    for (pat, n) in &patterns {
        let m = if track_match { quote!(__matched = true;) } else { TokenStream::new() };
        let check = if always(ir, *n) {
            TokenStream::new()
        } else {
            let t = call(ir, *n, &quote!(e));
            quote!(if !#t { return false; })
        };
        if !(m.is_empty() && check.is_empty()) {
            per_member.extend(quote! { if #pat.is_match(key) { #m #check } });
        }
    }
    if let Some(action) = additional_action {
        let unmatched = if track_match { quote!(&&!__matched) } else { TokenStream::new() };
        per_member.extend(quote! { if !__declared #unmatched { #action } });
    }
    if let Some(pn) = c.property_names.filter(|n| !always(ir, *n)) {
        let f = format_ident!("__valid_name_{}", pn);
        per_member.extend(quote! { if !#f(key) { return false; } });
    }

    // After the walk: presence.
    let mut after: Vec<TokenStream> = Vec::new();
    let mut mask = vec![0u64; words];
    for (name, _) in c.required.iter().filter(|_| !implied) {
        let (w, b) = bit(index_of(name));
        if let Some(m) = mask.get_mut(w) {
            *m |= b;
        }
    }
    let seen_word = |w: usize| -> TokenStream {
        if words == 1 {
            quote!(__seen)
        } else {
            quote!(__seen.get(#w).copied().unwrap_or(0))
        }
    };
    for (w, m) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
        let s = seen_word(w);
        after.push(quote!(#s & #m == #m));
    }
    for (dk, reqs) in &c.dependent_required {
        let (wd, bd) = bit(index_of(dk));
        let sd = seen_word(wd);
        for r in reqs {
            let (wr, br) = bit(index_of(r));
            let sr = seen_word(wr);
            after.push(quote!((#sd & #bd == 0 || #sr & #br != 0)));
        }
    }
    for (dk, d) in c.dependent_schemas.iter().filter(|(_, d)| !always(ir, *d)) {
        let t = call(ir, *d, &quote!(v));
        after.push(quote!((!__m.contains_key(#dk) || #t)));
    }

    if !per_member.is_empty() {
        let decl = if !track.iter().any(|t| *t) {
            TokenStream::new()
        } else if words == 1 {
            quote!(let mut __seen: ::core::primitive::u64 = 0;)
        } else {
            quote!(let mut __seen = [0_u64; #words];)
        };
        out.push(quote!({
            #decl
            for (key, e) in __m {
                let _ = e;
                #per_member
            }
            true #(&& #after)*
        }));
    } else {
        // Only presence (no member is checked): look the names up.
        for (name, _) in &c.required {
            out.push(quote!(__m.contains_key(#name)));
        }
        for (dk, reqs) in &c.dependent_required {
            for r in reqs {
                out.push(quote!((!__m.contains_key(#dk) || __m.contains_key(#r))));
            }
        }
        for (dk, d) in c.dependent_schemas.iter().filter(|(_, d)| !always(ir, *d)) {
            let t = call(ir, *d, &quote!(v));
            out.push(quote!((!__m.contains_key(#dk) || #t)));
        }
    }
    out
}
