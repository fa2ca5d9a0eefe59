//! IR → validators that read reply text, two functions per node:
//!
//! - `__scan_N(sc)`: one pass over the text with a `toolgate::__private::Scanner`, deciding
//!   valid/invalid and checking the JSON syntax (duplicate keys, depth, number range) on the way,
//!   without allocating. It stops at the first violation or syntax error.
//! - `__report_N(span, at, sink)`: for text already known to be well-formed and invalid, writes
//!   the violations into a `Sink` in exactly the order of the `&Value` validator of
//!   [`super::validate`] (schema order; undeclared members in `serde_json::Map` order).
//!
//! Schemas that use keywords this module does not compile (see [`supported`]) get functions that
//! parse into a `Value` and call the `&Value` validator instead, so the text path never silently
//! ignores a keyword.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::json::JsonValue;
use crate::model::{Body, Checks, Ir, JsonType, NodeId};

use super::validate::{always, fail, json_text, limit, type_set, vname};

/// The name of node `id`'s scan function.
pub fn sname(id: NodeId) -> proc_macro2::Ident {
    format_ident!("__scan_{}", id)
}

/// The name of node `id`'s report function.
pub fn rname(id: NodeId) -> proc_macro2::Ident {
    format_ident!("__report_{}", id)
}

/// Whether every node uses only keywords this module compiles. Checked by rebuilding the checks
/// from the fields known here and comparing: a keyword added to the IR later makes the schema
/// fall back to the `&Value` validator instead of being ignored.
#[must_use]
#[allow(clippy::needless_update)] // the IR may gain fields: they must default to "absent"
pub fn supported(ir: &Ir) -> bool {
    ir.nodes.iter().all(|n| match &n.body {
        Body::Always | Body::Never => true,
        Body::Checks(c) => {
            let known = Checks {
                types: c.types.clone(),
                enum_values: c.enum_values.clone(),
                const_value: c.const_value.clone(),
                properties: c.properties.clone(),
                required: c.required.clone(),
                additional: c.additional,
                items: c.items,
                min_items: c.min_items.clone(),
                max_items: c.max_items.clone(),
                unique_items: c.unique_items,
                min_length: c.min_length.clone(),
                max_length: c.max_length.clone(),
                minimum: c.minimum.clone(),
                maximum: c.maximum.clone(),
                exclusive_minimum: c.exclusive_minimum.clone(),
                exclusive_maximum: c.exclusive_maximum.clone(),
                multiple_of: c.multiple_of.clone(),
                min_properties: c.min_properties.clone(),
                max_properties: c.max_properties.clone(),
                ..Checks::default()
            };
            format!("{known:?}") == format!("{c:?}")
        }
    })
}

/// The scan and report functions of every node.
pub fn functions(ir: &Ir, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    if !supported(ir) {
        let (scan, report, check) = (sname(ir.root), rname(ir.root), vname(ir.root));
        return quote! {
            fn #scan(sc: &mut #p::Scanner<'_>) -> #p::Step {
                #p::via_value(sc, |v| #check(v, &#k::Path::ROOT, &mut #k::Verdict::new()))
            }
            fn #report<S: #k::Sink>(v: #p::Span<'_>, at: &#k::Path<'_>, s: &mut S) -> ::core::primitive::bool {
                #p::report_via_value(v, at, s, #check)
            }
        };
    }
    let mut out = TokenStream::new();
    for (id, node) in ir.nodes.iter().enumerate() {
        let (scan, report) = (sname(id), rname(id));
        let (scan_body, report_body) = match &node.body {
            Body::Always => (quote!(sc.skip_value()), quote! { let _ = (v, at, s); true }),
            Body::Never => (
                quote! { let _ = sc; ::core::result::Result::Err(#p::Halt::Invalid) },
                quote!(s.fail(at, || #k::ViolationKind::False { found: v.found() })),
            ),
            Body::Checks(c) => (scan_checks(ir, c, k), report_checks(ir, c, k)),
        };
        out.extend(quote! {
            #[inline]
            fn #scan(sc: &mut #p::Scanner<'_>) -> #p::Step {
                #scan_body
            }
            #[inline(never)]
            fn #report<S: #k::Sink>(v: #p::Span<'_>, at: &#k::Path<'_>, s: &mut S) -> ::core::primitive::bool {
                #report_body
            }
        });
    }
    out
}

/// The JSON kinds a scan branches on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum K {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

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

/// A constant `SVal` for a schema value.
fn sval(j: &JsonValue, k: &TokenStream) -> TokenStream {
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
            quote!(#p::SVal::Arr(&[#(#xs),*]))
        }
        JsonValue::Object(members) => {
            let ms = members.iter().map(|m| {
                let key = &m.key;
                let x = sval(&m.value.value, k);
                quote!((#key, #x))
            });
            quote!(#p::SVal::Obj(&[#(#ms),*]))
        }
    }
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
fn scan_call(ir: &Ir, id: NodeId) -> TokenStream {
    if always(ir, id) {
        quote!(sc.skip_value()?;)
    } else {
        let f = sname(id);
        quote!(#f(sc)?;)
    }
}

#[allow(clippy::too_many_lines)]
fn scan_checks(ir: &Ir, c: &Checks, k: &TokenStream) -> TokenStream {
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
        if ec.is_empty() && lens.is_empty() {
            quote! { sc.string()?; #ok }
        } else {
            quote! { let __s = sc.string()?; #ec #lens #ok }
        }
    });

    // Numbers.
    let number = gate(K::Number).unwrap_or_else(|| {
        let mut checks = TokenStream::new();
        let integer_only =
            c.type_list().is_some_and(|t| t.contains(&JsonType::Integer) && !t.contains(&JsonType::Number));
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

    let t_arm = if t.is_empty() { quote!() } else { quote!(b't' => { #t }) };
    let f_arm = if f.is_empty() { quote!() } else { quote!(b'f' => { #f }) };
    quote! {
        match sc.peek() {
            b'"' => { #string }
            b'-' | b'0'..=b'9' => { #number }
            b'{' => { #object }
            b'[' => { #array }
            #t_arm
            #f_arm
            b'n' => { #null }
            _ => ::core::result::Result::Err(#p::Halt::Syntax),
        }
    }
}

/// The scan of an object: one pass over the members, a bitset for the declared (and required)
/// names, a Bloom filter for the others, so that duplicate keys are found without allocating.
fn object_scan(ir: &Ir, c: &Checks, k: &TokenStream, ec: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let invalid = quote!(return ::core::result::Result::Err(#p::Halt::Invalid));
    let syntax = quote!(return ::core::result::Result::Err(#p::Halt::Syntax));

    // The names tracked in the bitset: declared properties, then required names not declared.
    let mut names: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
    for (r, _) in &c.required {
        if !names.contains(&r.as_str()) {
            names.push(r);
        }
    }
    let declared = c.properties.len();
    let plain = names.is_empty()
        && c.additional.is_none_or(|a| always(ir, a))
        && c.min_properties.is_none()
        && c.max_properties.is_none()
        && ec.is_empty();
    if plain {
        return quote! { sc.skip_value() };
    }

    // What to do with a member that `properties` does not declare.
    let undeclared = match c.additional {
        Some(a) if matches!(ir.node(a).body, Body::Never) => quote! { #invalid; },
        Some(a) if !always(ir, a) => {
            let f = sname(a);
            quote! { __keys.insert(sc, __k, __at)?; #f(sc)?; }
        }
        _ => quote! { __keys.insert(sc, __k, __at)?; sc.skip_value()?; },
    };
    let uses_keys = !matches!(c.additional, Some(a) if matches!(ir.node(a).body, Body::Never));
    let extra_action = match c.additional {
        Some(a) if matches!(ir.node(a).body, Body::Never) => quote! { #invalid; },
        Some(a) if !always(ir, a) => {
            let f = sname(a);
            quote! { #f(sc)?; }
        }
        _ => quote! { sc.skip_value()?; },
    };

    let words = names.len().div_ceil(64).max(1);
    let arms = names.iter().enumerate().map(|(i, _)| {
        let (w, bit) = (i / 64, 1u64 << (i % 64));
        let mark = quote! {
            match __seen.get_mut(#w) {
                ::core::option::Option::Some(__x) => {
                    if *__x & #bit != 0 { #syntax; }
                    *__x |= #bit;
                }
                ::core::option::Option::None => {}
            }
        };
        let action = if i < declared {
            c.properties.get(i).map_or_else(TokenStream::new, |prop| scan_call(ir, prop.node))
        } else {
            extra_action.clone()
        };
        quote!(#i => { #mark #action })
    });
    let classify = if names.is_empty() {
        quote!(::core::primitive::usize::MAX)
    } else {
        let bytes = names.iter().map(|n| Literal::byte_string(n.as_bytes()));
        let idx = 0..names.len();
        quote! {
            if __k.is_escaped() {
                #p::index_of(__k, &[#(#names),*])
            } else {
                match __k.raw() { #(#bytes => #idx,)* _ => ::core::primitive::usize::MAX }
            }
        }
    };
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
    quote! {
        let __start = sc.pos();
        let mut __seen = [0_u64; #words];
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
        ::core::result::Result::Ok(())
    }
}

fn type_test(t: JsonType) -> TokenStream {
    match t {
        JsonType::Null => quote!(v.is_null()),
        JsonType::Boolean => quote!(v.is_boolean()),
        JsonType::Integer => quote!(v.is_integer()),
        JsonType::Number => quote!(v.is_number()),
        JsonType::String => quote!(v.is_string()),
        JsonType::Array => quote!(v.is_array()),
        JsonType::Object => quote!(v.is_object()),
    }
}

/// The report function: the `&Value` validator's checks, in its order, over a text span.
#[allow(clippy::too_many_lines)]
fn report_checks(ir: &Ir, c: &Checks, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let at = quote!(at);
    let mut out = TokenStream::new();

    if let Some(types) = c.type_list() {
        let tests = types.iter().map(|t| type_test(*t));
        let set = type_set(types, k);
        let f = fail(k, &at, &quote!(Type { expected: #set, found: v.found() }));
        out.extend(quote! { if !(#(#tests)||*) { #f } });
    }
    if let Some(e) = &c.enum_values {
        let xs = e.value.iter().map(|(x, _)| sval(x, k));
        let text = json_text(&e.value.iter().map(|(v, _)| v).collect::<Vec<_>>());
        let f = fail(k, &at, &quote!(Enum { expected: #text, found: v.found() }));
        out.extend(quote! { if !(#(#p::sval_eq(&#xs, v))||*) { #f } });
    }
    if let Some(cv) = &c.const_value {
        let x = sval(&cv.value, k);
        let text = json_text(&[&cv.value]);
        let f = fail(k, &at, &quote!(Const { expected: #text, found: v.found() }));
        out.extend(quote! { if !#p::sval_eq(&#x, v) { #f } });
    }

    let mut s_checks = TokenStream::new();
    if let Some(min) = &c.min_length {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinLength { limit: #l, length: x.char_len() }));
        s_checks.extend(quote! { if x.char_len() < #l { #f } });
    }
    if let Some(max) = &c.max_length {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxLength { limit: #l, length: x.char_len() }));
        s_checks.extend(quote! { if x.char_len() > #l { #f } });
    }
    if !s_checks.is_empty() {
        out.extend(quote! { if let ::core::option::Option::Some(x) = v.str() { #s_checks } });
    }

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
            n_checks.extend(quote! { if #p::cmp_limit(&n, #l).#test() { #f } });
        }
    }
    if let Some(m) = &c.multiple_of {
        if let Some((mantissa, exponent)) = m.value.decimal() {
            let text = m.value.text();
            let f = fail(k, &at, &quote!(MultipleOf { divisor: #text, found: v.found() }));
            n_checks.extend(quote! {
                if !#p::multiple_of(&n, #p::Decimal { mantissa: #mantissa, exponent: #exponent }) { #f }
            });
        }
    }
    if !n_checks.is_empty() {
        out.extend(quote! { if let ::core::option::Option::Some(n) = v.number() { #n_checks } });
    }

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
    if let Some(items) = c.items.filter(|i| !always(ir, *i)) {
        let f = rname(items);
        a_checks.extend(quote! {
            for (i, e) in v.items().enumerate() {
                if !#f(e, &at.index(i), s) { return false; }
            }
        });
    }
    if !a_checks.is_empty() {
        out.extend(quote! { if v.is_array() { #a_checks } });
    }

    let mut o_checks = TokenStream::new();
    for prop in &c.properties {
        if always(ir, prop.node) {
            continue;
        }
        let f = rname(prop.node);
        let name = &prop.name;
        o_checks.extend(quote! {
            if let ::core::option::Option::Some(e) = v.get(#name) {
                if !#f(e, &at.key(#name), s) { return false; }
            }
        });
    }
    if let Some(add) = c.additional.filter(|a| !always(ir, *a)) {
        let names: Vec<&String> = c.properties.iter().map(|p| &p.name).collect();
        let undeclared = if names.is_empty() {
            quote!(true)
        } else {
            quote!(#p::index_of(key, &[#(#names),*]) == ::core::primitive::usize::MAX)
        };
        let action = if matches!(ir.node(add).body, Body::Never) {
            let f = fail(
                k,
                &quote!(&at.key(name)),
                &quote!(AdditionalProperty { property: ::std::string::String::from(name) }),
            );
            quote! { let _ = e; #f }
        } else {
            let f = rname(add);
            quote! { if !#f(e, &at.key(name), s) { return false; } }
        };
        o_checks.extend(quote! {
            for (key, e) in v.members_map_order() {
                if #undeclared && !key.with_decoded(|name| { #action true }) {
                    return false;
                }
            }
        });
    }
    for (name, _) in &c.required {
        let f = fail(k, &quote!(&at.key(#name)), &quote!(Required { property: ::std::string::String::from(#name) }));
        o_checks.extend(quote! { if v.get(#name).is_none() { #f } });
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
        out.extend(quote! { if v.is_object() { #o_checks } });
    }

    quote! { #out true }
}
