//! IR → scan functions: `__scan_N(sc)` reads one value of reply text with a
//! `toolgate::__private::Scanner`, in one pass and without allocating, deciding valid/invalid and
//! checking the JSON syntax on the way (duplicate keys, depth, number range). It stops at the
//! first violation or syntax error.
//!
//! A node's own assertions on strings, numbers, arrays and objects are compiled into the scan
//! itself. Its in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`)
//! re-scan the value's text with the branch's scan function. A node that uses a keyword the scan
//! does not compile (see [`scans_locally`]) reads its value once for syntax, then runs the generic
//! validator of [`super::validate`] over the text (`Span`) with a `Verdict` sink: still one set of
//! functions, still no allocation, only slower. Violations are always reported by that generic
//! validator, so the text and the `&Value` paths report the same violations in the same order.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::json::JsonValue;
use crate::model::{Body, Checks, Ir, JsonType, NodeId};

use super::validate::{always, key_index, limit, pattern_test, sval, vname};

/// The name of node `id`'s scan function (shared by the nodes that check the same: [`Ir::canon`]).
pub fn sname(ir: &Ir, id: NodeId) -> proc_macro2::Ident {
    format_ident!("__scan_{}", ir.canon(id))
}

/// Which kinds of keyword `c` has. The destructuring is exhaustive: a keyword added to the IR
/// later does not compile here until it is put in one group, so it is never silently ignored.
pub(crate) struct Has {
    /// `type`
    pub(crate) types: bool,
    /// its own keywords that the scan compiles
    pub(crate) scanned: bool,
    /// its own keywords left to the generic validator
    pub(crate) generic: bool,
    /// in-place applicators: `$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`
    pub(crate) in_place: bool,
}

pub(crate) fn has(c: &Checks) -> Has {
    let Checks {
        types,
        enum_values,
        const_value,
        properties,
        required,
        additional,
        items,
        min_items,
        max_items,
        unique_items,
        min_length,
        max_length,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        min_properties,
        max_properties,
        pattern,
        format,
        reference,
        all_of,
        any_of,
        one_of,
        not,
        if_,
        then_,
        else_,
        prefix_items,
        contains,
        min_contains,
        max_contains,
        pattern_properties,
        property_names,
        dependent_required,
        dependent_schemas,
        unevaluated_properties,
        unevaluated_items,
        additional_items,
        // (Read by streams only, as `format`'s shadow: `format` is what the scan compiles.)
        format_prefix: _,
    } = c;
    Has {
        types: types.is_some(),
        scanned: enum_values.is_some()
            || const_value.is_some()
            || !properties.is_empty()
            || !required.is_empty()
            || additional.is_some()
            || items.is_some()
            || min_items.is_some()
            || max_items.is_some()
            || *unique_items
            || min_length.is_some()
            || max_length.is_some()
            || minimum.is_some()
            || maximum.is_some()
            || exclusive_minimum.is_some()
            || exclusive_maximum.is_some()
            || multiple_of.is_some()
            || min_properties.is_some()
            || max_properties.is_some()
            || pattern.is_some()
            || format.is_some(),
        generic: !prefix_items.is_empty()
            || contains.is_some()
            || min_contains.is_some()
            || max_contains.is_some()
            || !pattern_properties.is_empty()
            || property_names.is_some()
            || !dependent_required.is_empty()
            || !dependent_schemas.is_empty()
            || unevaluated_properties.is_some()
            || unevaluated_items.is_some()
            || additional_items.is_some(),
        in_place: reference.is_some()
            || !all_of.is_empty()
            || !any_of.is_empty()
            || !one_of.is_empty()
            || not.is_some()
            || if_.is_some()
            || then_.is_some()
            || else_.is_some(),
    }
}

/// Whether the scan compiles every keyword of `c` itself (with the in-place applicators run on
/// the value's text); see `Has`.
#[must_use]
pub fn scans_locally(c: &Checks) -> bool {
    !has(c).generic
}

/// Whether `c` asserts nothing itself (only through in-place applicators).
pub(crate) fn only_in_place(c: &Checks) -> bool {
    let h = has(c);
    !h.types && !h.scanned && !h.generic
}

/// Whether `c` has no in-place applicator.
pub(crate) fn no_in_place(c: &Checks) -> bool {
    !has(c).in_place
}

/// Whether `c` asserts nothing itself but (perhaps) `type` (in-place applicators aside).
pub(crate) fn own_nothing_but_types(c: &Checks) -> bool {
    let h = has(c);
    !h.scanned && !h.generic
}

/// The scan function of every node; a node with a typed parse function (`scan_of`, by node:
/// the type index, see [`super::parse`]) calls it without building.
pub fn functions(ir: &Ir, scan_of: &[Option<usize>], k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let mut out = TokenStream::new();
    for (id, node) in ir.nodes.iter().enumerate() {
        if ir.canon(id) != id {
            continue; // it shares the scan function of the node it checks the same as
        }
        let scan = sname(ir, id);
        let body = match &node.body {
            _ if scan_of.get(id).copied().flatten().is_some() => {
                let f = super::parse::pname(scan_of.get(id).copied().flatten().unwrap_or(0));
                quote!(#f(sc, false).map(|_| ()))
            }
            Body::Always => quote!(sc.skip_value()),
            Body::Never => quote! { let _ = sc; ::core::result::Result::Err(#p::Halt::Invalid) },
            Body::Checks(c) if scans_locally(c) => scan_node(ir, id, c, k),
            Body::Checks(_) => {
                let check = vname(ir, id);
                quote! {
                    let __start = sc.pos();
                    sc.skip_value()?;
                    let mut __verdict = #k::Verdict::new();
                    if #check(sc.span_from(__start), &#k::Path::ROOT, &mut __verdict) && __verdict.valid {
                        ::core::result::Result::Ok(())
                    } else {
                        ::core::result::Result::Err(#p::Halt::Invalid)
                    }
                }
            }
        };
        let inline = super::validate::inline(ir, id);
        out.extend(quote! {
            #inline
            fn #scan(sc: &mut #p::Scanner<'_>) -> #p::Step {
                #body
            }
        });
    }
    out
}

/// The scan of a node whose keywords the scan compiles: its own assertions in one pass over the
/// value, then its in-place applicators over the value's text.
fn scan_node(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));
    let on = |n: NodeId| -> TokenStream {
        match ir.node(n).body {
            Body::Always => quote!(true),
            Body::Never => quote!(false),
            Body::Checks(_) => {
                let f = sname(ir, n);
                quote!(__v.scan(&#f))
            }
        }
    };
    // Subschemas that must hold: the first one reads the value (when the node asserts nothing
    // itself), the others re-read its text.
    let mut must: Vec<NodeId> = c.reference.iter().map(|r| r.value.1).chain(c.all_of.iter().copied()).collect();
    must.retain(|n| !always(ir, *n));
    if only_in_place(c) && must.is_empty() && c.not.is_none() && c.if_.is_none() {
        // Only `anyOf` or only `oneOf`: no separate pass for the value's extent.
        match (c.any_of.as_slice(), c.one_of.as_slice()) {
            (branches, []) if !branches.is_empty() => return branch_scan(ir, branches, true, k),
            ([], branches) if !branches.is_empty() => return branch_scan(ir, branches, false, k),
            _ => {}
        }
    }
    let (main, must) = if only_in_place(c) {
        match must.split_first() {
            Some((first, rest)) => {
                let f = sname(ir, *first);
                (quote!(#f(sc)?;), rest.to_vec())
            }
            None => (quote!(sc.skip_value()?;), must),
        }
    } else {
        let local = scan_checks(ir, id, c, k);
        (quote!({ #local }?;), must)
    };
    let mut after = TokenStream::new();
    for n in must {
        let t = on(n);
        after.extend(quote! { if !#t { #invalid; } });
    }
    if !c.any_of.is_empty() {
        let tests = c.any_of.iter().map(|b| on(*b));
        after.extend(quote! { if !(#(#tests)||*) { #invalid; } });
    }
    if !c.one_of.is_empty() {
        let tests = c.one_of.iter().map(|b| on(*b));
        after.extend(quote! {
            let mut __matched = 0_u32;
            #( if #tests { __matched += 1; if __matched > 1 { #invalid; } } )*
            if __matched != 1 { #invalid; }
        });
    }
    if let Some(n) = c.not {
        let t = on(n);
        after.extend(quote! { if #t { #invalid; } });
    }
    if let Some(i) = c.if_ {
        if c.then_.is_some() || c.else_.is_some() {
            let test = on(i);
            let then = c.then_.map(&on).unwrap_or(quote!(true));
            let els = c.else_.map(&on).unwrap_or(quote!(true));
            after.extend(quote! { if !(if #test { #then } else { #els }) { #invalid; } });
        }
    }
    if after.is_empty() {
        return quote! { #main ::core::result::Result::Ok(()) };
    }
    quote! {
        let __start = sc.pos();
        #main
        let __v = sc.span_from(__start);
        #after
        ::core::result::Result::Ok(())
    }
}

/// The scan of a node that is only an `anyOf` (`any`) or only a `oneOf`: each branch scans the
/// value from its start on a fork of the scanner, and the first branch that holds tells where
/// the value ends, so a value is read once when its first branch holds and the others fail early
/// (a `null` beside a type, a tag that does not match). A syntax error ends the scan at once.
fn branch_scan(ir: &Ir, branches: &[NodeId], any: bool, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let tries = branches.iter().map(|b| {
        let run = match ir.node(*b).body {
            Body::Always => quote!(__fork.skip_value()),
            Body::Never => quote!(::core::result::Result::<(), #p::Halt>::Err(#p::Halt::Invalid)),
            Body::Checks(_) => {
                let f = sname(ir, *b);
                quote!(#f(&mut __fork))
            }
        };
        let on_ok = if any {
            quote! { *sc = __fork; return ::core::result::Result::Ok(()); }
        } else {
            quote! {
                if __passed.is_some() { return ::core::result::Result::Err(#p::Halt::Invalid); }
                __passed = ::core::option::Option::Some(__fork);
            }
        };
        quote! {
            let mut __fork = sc.clone();
            match #run {
                ::core::result::Result::Ok(()) => { #on_ok }
                ::core::result::Result::Err(#p::Halt::Syntax) => return ::core::result::Result::Err(#p::Halt::Syntax),
                ::core::result::Result::Err(#p::Halt::Invalid) => {}
            }
        }
    });
    if any {
        quote! {
            #(#tries)*
            ::core::result::Result::Err(#p::Halt::Invalid)
        }
    } else {
        quote! {
            let mut __passed: ::core::option::Option<#p::Scanner<'_>> = ::core::option::Option::None;
            #(#tries)*
            match __passed {
                ::core::option::Option::Some(end) => { *sc = end; ::core::result::Result::Ok(()) }
                ::core::option::Option::None => ::core::result::Result::Err(#p::Halt::Invalid),
            }
        }
    }
}

use super::Kind as K;

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

fn type_allows(c: &Checks, kind: K) -> bool {
    let Some(types) = c.type_list() else { return true };
    types.iter().any(|t| {
        matches!(
            (t, kind),
            (JsonType::Null, K::Null)
                | (JsonType::Boolean, K::Bool)
                | (JsonType::Integer | JsonType::Number, K::Number)
                | (JsonType::String, K::String)
                | (JsonType::Array, K::Array)
                | (JsonType::Object, K::Object)
        )
    })
}

/// The schema values (of `enum`, or the one `const`) that have JSON kind `kind`.
fn values_of(c: &Checks, kind: K) -> (Option<Vec<&JsonValue>>, Option<Vec<&JsonValue>>) {
    let e = c.enum_values.as_ref().map(|e| e.value.iter().map(|(v, _)| v).filter(|v| kind_of(v) == kind).collect());
    let cv = c.const_value.as_ref().map(|cv| [&cv.value].into_iter().filter(|v| kind_of(v) == kind).collect());
    (e, cv)
}

/// A test that the scalar just read equals one of `values` (all of the branch's kind).
fn scalar_test(kind: K, values: &[&JsonValue], k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    match kind {
        K::Null => quote!(true),
        K::Bool => {
            let bs = values.iter().filter_map(|v| if let JsonValue::Bool(b) = v { Some(*b) } else { None });
            quote!(#(__b == #bs)||*)
        }
        K::Number => {
            let ls = values.iter().filter_map(|v| if let JsonValue::Number(n) = v { Some(limit(n, k)) } else { None });
            quote!(#(__n.compare(#ls).is_eq())||*)
        }
        K::String => {
            let ss: Vec<&String> =
                values.iter().filter_map(|v| if let JsonValue::String(s) = v { Some(s) } else { None }).collect();
            let bytes = ss.iter().map(|s| Literal::byte_string(s.as_bytes()));
            quote! {
                if __s.is_escaped() {
                    #(__s.eq_str(#ss))||*
                } else {
                    ::core::matches!(__s.raw(), #(#bytes)|*)
                }
            }
        }
        K::Array | K::Object => {
            let xs = values.iter().map(|v| sval(v, k));
            quote! {{
                let __span = sc.span_from(__start);
                #(#p::sval_eq(&#xs, __span))||*
            }}
        }
    }
}

/// The `enum` and `const` checks of a scan branch.
fn enum_const(c: &Checks, kind: K, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let (e, cv) = values_of(c, kind);
    let mut out = TokenStream::new();
    for vals in [e, cv].into_iter().flatten() {
        if vals.is_empty() {
            out.extend(quote! { return ::core::result::Result::Err(#p::Halt::Invalid); });
        } else {
            let t = scalar_test(kind, &vals, k);
            out.extend(quote! { if !(#t) { return ::core::result::Result::Err(#p::Halt::Invalid); } });
        }
    }
    out
}

fn needs_enum_const(c: &Checks) -> bool {
    c.enum_values.is_some() || c.const_value.is_some()
}

/// A scan call for node `id` (or a syntax-only skip for a node that accepts everything).
pub(crate) fn scan_call(ir: &Ir, id: NodeId) -> TokenStream {
    if always(ir, id) {
        quote!(sc.skip_value()?;)
    } else {
        let f = sname(ir, id);
        quote!(#f(sc)?;)
    }
}

/// The checks of a number just read into `__n` (a `Num`): integer-ness, `enum`/`const` and the
/// numeric keywords, each returning `Halt::Invalid`.
pub(crate) fn number_checks(c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));
    let mut checks = TokenStream::new();
    let integer_only = c.type_list().is_some_and(|t| t.contains(&JsonType::Integer) && !t.contains(&JsonType::Number));
    if integer_only {
        checks.extend(quote! { if !__n.is_integer() { #invalid; } });
    }
    checks.extend(enum_const(c, K::Number, k));
    let bounds = [
        (&c.minimum, quote!(is_lt)),
        (&c.exclusive_minimum, quote!(is_le)),
        (&c.maximum, quote!(is_gt)),
        (&c.exclusive_maximum, quote!(is_ge)),
    ];
    for (kw, test) in bounds {
        if let Some(kw) = kw {
            let l = limit(&kw.value, k);
            checks.extend(quote! { if __n.compare(#l).#test() { #invalid; } });
        }
    }
    if let Some(m) = &c.multiple_of {
        if let Some((mantissa, exponent)) = m.value.decimal() {
            checks.extend(quote! {
                if !#p::multiple_of(&__n.to_number(), #p::Decimal { mantissa: #mantissa, exponent: #exponent }) { #invalid; }
            });
        }
    }
    checks
}

#[allow(clippy::too_many_lines)]
fn scan_checks(ir: &Ir, id: NodeId, c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));
    let ok = quote!(::core::result::Result::Ok(()));
    let gate = |kind: K| -> Option<TokenStream> {
        if type_allows(c, kind) {
            None
        } else {
            Some(quote! { let _ = sc; ::core::result::Result::Err(#p::Halt::Invalid) })
        }
    };

    // Strings.
    let string = gate(K::String).unwrap_or_else(|| {
        let ec = enum_const(c, K::String, k);
        let mut lens = TokenStream::new();
        if let Some(min) = &c.min_length {
            let l = min.value;
            lens.extend(quote! {
                if (__s.raw().len() as ::core::primitive::u64) < #l || __s.char_len() < #l { #invalid; }
            });
        }
        if let Some(max) = &c.max_length {
            let l = max.value;
            lens.extend(quote! {
                if (__s.raw().len() as ::core::primitive::u64) > #l && __s.char_len() > #l { #invalid; }
            });
        }
        if c.pattern.is_some() {
            let test = pattern_test(ir, id, &quote!(__s), false, k);
            lens.extend(quote! { if !#test { #invalid; } });
        }
        if let Some(fm) = &c.format {
            let name = &fm.value;
            lens.extend(quote! { if !#p::Text::has_format(__s, #name) { #invalid; } });
        }
        if ec.is_empty() && lens.is_empty() {
            quote! { sc.string()?; #ok }
        } else {
            quote! { let __s = sc.string()?; #ec #lens #ok }
        }
    });

    // Numbers.
    let number = gate(K::Number).unwrap_or_else(|| {
        let checks = number_checks(c, k);
        if checks.is_empty() {
            quote! { sc.number()?; #ok }
        } else {
            quote! { let __n = sc.num()?; #checks #ok }
        }
    });

    // Booleans and null.
    let boolean = |word: bool| {
        gate(K::Bool).unwrap_or_else(|| {
            let lit = if word { Literal::byte_string(b"true") } else { Literal::byte_string(b"false") };
            let ec = enum_const(c, K::Bool, k);
            if ec.is_empty() {
                quote! { sc.lit(#lit)?; #ok }
            } else {
                quote! { sc.lit(#lit)?; let __b = #word; #ec #ok }
            }
        })
    };
    let (t, f) = (boolean(true), boolean(false));
    let null = gate(K::Null).unwrap_or_else(|| {
        let ec = enum_const(c, K::Null, k);
        quote! { sc.lit(b"null")?; #ec #ok }
    });

    // Arrays.
    let array = gate(K::Array).unwrap_or_else(|| {
        let ec = if needs_enum_const(c) { enum_const(c, K::Array, k) } else { TokenStream::new() };
        let plain = c.items.is_none_or(|i| always(ir, i))
            && c.min_items.is_none()
            && c.max_items.is_none()
            && !c.unique_items
            && ec.is_empty();
        if plain {
            return quote! { sc.skip_value() };
        }
        let item = c.items.map_or_else(|| quote!(sc.skip_value()?;), |i| scan_call(ir, i));
        let unique = if c.unique_items {
            quote! { if __uniq.seen(sc, __item) { #invalid; } }
        } else {
            TokenStream::new()
        };
        let uniq_decl =
            if c.unique_items { quote!(let mut __uniq = #p::Unique::new(__start);) } else { TokenStream::new() };
        let item_start = if c.unique_items { quote!(let __item = sc.pos();) } else { TokenStream::new() };
        let max = c.max_items.as_ref().map(|m| {
            let l = m.value;
            quote! { if __count > #l { #invalid; } }
        });
        let min = c.min_items.as_ref().map(|m| {
            let l = m.value;
            quote! { if __count < #l { #invalid; } }
        });
        quote! {
            let __start = sc.pos();
            let mut __count: ::core::primitive::u64 = 0;
            #uniq_decl
            if sc.enter_array()? {
                loop {
                    #item_start
                    #item
                    #unique
                    __count += 1;
                    #max
                    if !sc.next_item()? { break; }
                }
            }
            let _ = __count;
            #min
            #ec
            #ok
        }
    });

    // Objects.
    let object = gate(K::Object).unwrap_or_else(|| {
        let ec = if needs_enum_const(c) { enum_const(c, K::Object, k) } else { TokenStream::new() };
        object_scan(ir, c, k, &ec)
    });

    // The first bytes of the kinds `type` rejects share one arm.
    let mut arms = TokenStream::new();
    let mut rejected: Vec<TokenStream> = Vec::new();
    let kinds = [
        (K::String, quote!(b'"'), string),
        (K::Number, quote!(b'-' | b'0'..=b'9'), number),
        (K::Object, quote!(b'{'), object),
        (K::Array, quote!(b'['), array),
        (K::Bool, quote!(b't'), t),
        (K::Bool, quote!(b'f'), f),
        (K::Null, quote!(b'n'), null),
    ];
    for (kind, pat, body) in kinds {
        if type_allows(c, kind) {
            arms.extend(quote!(#pat => { #body }));
        } else {
            rejected.push(pat);
        }
    }
    if !rejected.is_empty() {
        arms.extend(quote!(#(#rejected)|* => ::core::result::Result::Err(#p::Halt::Invalid),));
    }
    quote! {
        match sc.peek() {
            #arms
            _ => ::core::result::Result::Err(#p::Halt::Syntax),
        }
    }
}

/// What a typed parse adds to an object's scan ([`object_scan_with`]): each member's value is
/// built where the scan reads it, so that the typed value comes out of the same pass.
pub(crate) struct Capture {
    /// declarations before the members are read (the field slots)
    pub decls: TokenStream,
    /// per tracked name (declared properties, then required names not declared): what reads
    /// and builds that member's value (`sc` at the value, `__k` its name); `None`: scanned only
    pub names: Vec<Option<TokenStream>>,
    /// what to do after an undeclared member's value was checked, its start kept in `__vs`
    pub undeclared: Option<TokenStream>,
    /// the value returned once the object is valid
    pub done: TokenStream,
}

/// The scan of an object: one pass over the members, a bitset for the declared (and required)
/// names, a Bloom filter for the others, so that duplicate keys are found without allocating.
fn object_scan(ir: &Ir, c: &Checks, k: &TokenStream, ec: &TokenStream) -> TokenStream {
    object_scan_with(ir, c, k, ec, None)
}

/// The names [`object_scan`] tracks in its bitset: the declared properties, then the required
/// names not declared.
pub(crate) fn tracked_names(c: &Checks) -> Vec<&str> {
    let mut names: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
    for (r, _) in &c.required {
        if !names.contains(&r.as_str()) {
            names.push(r);
        }
    }
    names
}

/// [`object_scan`], building the typed value on the way when `capture` is given.
#[allow(clippy::too_many_lines)]
pub(crate) fn object_scan_with(
    ir: &Ir,
    c: &Checks,
    k: &TokenStream,
    ec: &TokenStream,
    capture: Option<&Capture>,
) -> TokenStream {
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));

    let names = tracked_names(c);
    let declared = c.properties.len();
    let plain = capture.is_none()
        && names.is_empty()
        && c.additional.is_none_or(|a| always(ir, a))
        && c.min_properties.is_none()
        && c.max_properties.is_none()
        && ec.is_empty();
    if plain {
        return quote! { sc.skip_value() };
    }

    // What to do with a member that `properties` does not declare.
    let (keep, built) = match capture.and_then(|cap| cap.undeclared.as_ref()) {
        Some(b) => (quote!(let __vs = ::core::clone::Clone::clone(sc);), b.clone()),
        None => (TokenStream::new(), TokenStream::new()),
    };
    let undeclared = match c.additional {
        Some(a) if matches!(ir.node(a).body, Body::Never) => quote! { #invalid; },
        Some(a) if !always(ir, a) => {
            let f = sname(ir, a);
            quote! { __keys.insert(sc, __k, __at)?; #keep #f(sc)?; #built }
        }
        _ => quote! { __keys.insert(sc, __k, __at)?; #keep sc.skip_value()?; #built },
    };
    let uses_keys = !matches!(c.additional, Some(a) if matches!(ir.node(a).body, Body::Never));
    let extra_action = match c.additional {
        Some(a) if matches!(ir.node(a).body, Body::Never) => quote! { #invalid; },
        Some(a) if !always(ir, a) => {
            let f = sname(ir, a);
            quote! { #f(sc)?; }
        }
        _ => quote! { sc.skip_value()?; },
    };

    let words = names.len().div_ceil(64).max(1);
    let arms = names.iter().enumerate().map(|(i, _)| {
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        let mark = quote!(#p::mark(&mut __seen, #w, #bit)?;);
        let captured = capture.and_then(|cap| cap.names.get(i).cloned().flatten());
        let action = match captured {
            Some(action) => action,
            None if i < declared => c.properties.get(i).map_or_else(TokenStream::new, |prop| scan_call(ir, prop.node)),
            None => extra_action.clone(),
        };
        quote!(#i => { #mark #action })
    });
    let classify = key_index(&quote!(__k), &names, k);
    let mut required = TokenStream::new();
    for w in 0..words {
        let mut mask = 0u64;
        for (r, _) in &c.required {
            if let Some(i) = names.iter().position(|n| n == r) {
                if i / 64 == w {
                    mask |= 1u64 << (i % 64);
                }
            }
        }
        if mask != 0 {
            required.extend(quote! {
                if __seen.get(#w).copied().unwrap_or(0) & #mask != #mask { #invalid; }
            });
        }
    }
    let count_checks = {
        let mut t = TokenStream::new();
        if let Some(m) = &c.min_properties {
            let l = m.value;
            t.extend(quote! { if __count < #l { #invalid; } });
        }
        if let Some(m) = &c.max_properties {
            let l = m.value;
            t.extend(quote! { if __count > #l { #invalid; } });
        }
        t
    };
    let keys_decl = if uses_keys { quote!(let mut __keys = #p::Keys::new(__start);) } else { TokenStream::new() };
    let at_decl = if uses_keys { quote!(let __at = sc.pos();) } else { TokenStream::new() };
    let (decls, done) = match capture {
        Some(cap) => (cap.decls.clone(), cap.done.clone()),
        None => (TokenStream::new(), quote!(::core::result::Result::Ok(()))),
    };
    quote! {
        let __start = sc.pos();
        let mut __seen = [0_u64; #words];
        #decls
        #keys_decl
        let mut __count: ::core::primitive::u64 = 0;
        if sc.enter_object()? {
            loop {
                #at_decl
                let __k = sc.key()?;
                __count += 1;
                match #classify {
                    #(#arms)*
                    _ => { #undeclared }
                }
                if !sc.next_member()? { break; }
            }
        }
        let _ = (__count, __seen);
        #required
        #count_checks
        #ec
        #done
    }
}
