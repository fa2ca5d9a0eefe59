//! IR → validator functions, one per subschema, generic over the report sink.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::json::{to_compact, Json, JsonValue, Loc, Num};
use crate::model::{Body, Checks, Ir, JsonType, NodeId};

/// The name of node `id`'s validator.
pub fn vname(id: NodeId) -> proc_macro2::Ident {
    format_ident!("__validate_{}", id)
}

/// Whether node `id` accepts everything (calls to it can be left out).
pub fn always(ir: &Ir, id: NodeId) -> bool {
    matches!(ir.node(id).body, Body::Always)
}

/// One validator function per node.
pub fn validators(ir: &Ir, k: &TokenStream) -> TokenStream {
    let value = quote!(#k::__private::serde_json::Value);
    let mut out = TokenStream::new();
    for (id, node) in ir.nodes.iter().enumerate() {
        let name = vname(id);
        let body = match &node.body {
            Body::Always => quote! { let _ = (v, at, s); true },
            Body::Never => quote! { s.fail(at, || #k::ViolationKind::False { found: #k::Found::of(v) }) },
            Body::Checks(c) => checks(ir, c, k),
        };
        out.extend(quote! {
            #[inline]
            fn #name<S: #k::Sink>(v: &#value, at: &#k::Path<'_>, s: &mut S) -> ::core::primitive::bool {
                #body
            }
        });
    }
    out
}

fn fail(k: &TokenStream, at: &TokenStream, kind: &TokenStream) -> TokenStream {
    quote! {
        if !s.fail(#at, || #k::ViolationKind::#kind) {
            return false;
        }
    }
}

fn type_test(t: JsonType, k: &TokenStream) -> TokenStream {
    let v = quote!(#k::__private::serde_json::Value);
    match t {
        JsonType::Null => quote!(v.is_null()),
        JsonType::Boolean => quote!(v.is_boolean()),
        JsonType::Integer => quote!(::core::matches!(v, #v::Number(n) if #k::__private::is_integer(n))),
        JsonType::Number => quote!(v.is_number()),
        JsonType::String => quote!(v.is_string()),
        JsonType::Array => quote!(v.is_array()),
        JsonType::Object => quote!(v.is_object()),
    }
}

fn type_set(types: &[JsonType], k: &TokenStream) -> TokenStream {
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

/// A `Limit` literal for a schema number.
pub fn limit(n: &Num, k: &TokenStream) -> TokenStream {
    if let Some(i) = n.as_i128() {
        if let Ok(i) = i64::try_from(i) {
            return quote!(#k::__private::Limit::I(#i));
        }
        if let Ok(u) = u64::try_from(i) {
            return quote!(#k::__private::Limit::U(#u));
        }
    }
    let bits = n.as_f64().to_bits();
    quote!(#k::__private::Limit::F(::core::primitive::f64::from_bits(#bits)))
}

/// An expression that is `true` when `v` (a `&Value` named by `var`) equals the schema value.
pub fn matcher(j: &JsonValue, var: &TokenStream, k: &TokenStream, depth: usize) -> TokenStream {
    let value = quote!(#k::__private::serde_json::Value);
    match j {
        JsonValue::Null => quote!(#var.is_null()),
        JsonValue::Bool(b) => quote!(::core::matches!(#var, #value::Bool(#b))),
        JsonValue::Number(n) => {
            let l = limit(n, k);
            quote!(::core::matches!(#var, #value::Number(n) if #k::__private::cmp_limit(n, #l).is_eq()))
        }
        JsonValue::String(s) => quote!(::core::matches!(#var, #value::String(x) if x.as_str() == #s)),
        JsonValue::Array(items) => {
            let a = format_ident!("a{}", depth);
            let e = format_ident!("e{}", depth);
            let len = items.len();
            let parts = items.iter().enumerate().map(|(i, x)| {
                let m = matcher(&x.value, &quote!(#e), k, depth + 1);
                quote!(#a.get(#i).is_some_and(|#e| #m))
            });
            quote!(::core::matches!(#var, #value::Array(#a) if #a.len() == #len #(&& #parts)*))
        }
        JsonValue::Object(members) => {
            let o = format_ident!("o{}", depth);
            let e = format_ident!("e{}", depth);
            let len = members.len();
            let parts = members.iter().map(|m| {
                let key = &m.key;
                let mm = matcher(&m.value.value, &quote!(#e), k, depth + 1);
                quote!(#o.get(#key).is_some_and(|#e| #mm))
            });
            quote!(::core::matches!(#var, #value::Object(#o) if #o.len() == #len #(&& #parts)*))
        }
    }
}

fn json_text(values: &[&JsonValue]) -> String {
    let wrap = |v: &JsonValue| Json { value: v.clone(), loc: Loc::Bytes { start: 0, end: 0 } };
    if let [one] = values {
        to_compact(&wrap(one))
    } else {
        let arr = JsonValue::Array(values.iter().map(|v| wrap(v)).collect());
        to_compact(&wrap(&arr))
    }
}

#[allow(clippy::too_many_lines)]
fn checks(ir: &Ir, c: &Checks, k: &TokenStream) -> TokenStream {
    let value = quote!(#k::__private::serde_json::Value);
    let at = quote!(at);
    let mut out = TokenStream::new();

    if let Some(types) = c.type_list() {
        let tests = types.iter().map(|t| type_test(*t, k));
        let set = type_set(types, k);
        let f = fail(k, &at, &quote!(Type { expected: #set, found: #k::Found::of(v) }));
        out.extend(quote! { if !(#(#tests)||*) { #f } });
    }
    if let Some(e) = &c.enum_values {
        let strings: Option<Vec<&String>> =
            e.value.iter().map(|(v, _)| if let JsonValue::String(s) = v { Some(s) } else { None }).collect();
        let test = match strings {
            Some(strings) => {
                quote!(::core::matches!(v, #value::String(x) if ::core::matches!(x.as_str(), #(#strings)|*)))
            }
            None => {
                let ms = e.value.iter().map(|(x, _)| matcher(x, &quote!(v), k, 0));
                quote!(#(#ms)||*)
            }
        };
        let text = json_text(&e.value.iter().map(|(v, _)| v).collect::<Vec<_>>());
        let f = fail(k, &at, &quote!(Enum { expected: #text, found: #k::Found::of(v) }));
        out.extend(quote! { if !(#test) { #f } });
    }
    if let Some(cv) = &c.const_value {
        let test = matcher(&cv.value, &quote!(v), k, 0);
        let text = json_text(&[&cv.value]);
        let f = fail(k, &at, &quote!(Const { expected: #text, found: #k::Found::of(v) }));
        out.extend(quote! { if !(#test) { #f } });
    }

    // Strings.
    let mut s_checks = TokenStream::new();
    if let Some(min) = &c.min_length {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinLength { limit: #l, length: #k::__private::char_len(x) }));
        s_checks.extend(quote! {
            if #k::__private::len64(x.len()) < #l || #k::__private::char_len(x) < #l { #f }
        });
    }
    if let Some(max) = &c.max_length {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxLength { limit: #l, length: #k::__private::char_len(x) }));
        s_checks.extend(quote! {
            if #k::__private::len64(x.len()) > #l && #k::__private::char_len(x) > #l { #f }
        });
    }
    if !s_checks.is_empty() {
        out.extend(quote! { if let #value::String(x) = v { #s_checks } });
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
            let f = fail(k, &at, &quote!(#kind { limit: #text, exclusive: #exclusive, found: #k::Found::of(v) }));
            n_checks.extend(quote! { if #k::__private::cmp_limit(n, #l).#test() { #f } });
        }
    }
    if let Some(m) = &c.multiple_of {
        if let Some((mantissa, exponent)) = m.value.decimal() {
            let text = m.value.text();
            let f = fail(k, &at, &quote!(MultipleOf { divisor: #text, found: #k::Found::of(v) }));
            n_checks.extend(quote! {
                if !#k::__private::multiple_of(n, #k::__private::Decimal { mantissa: #mantissa, exponent: #exponent }) { #f }
            });
        }
    }
    if !n_checks.is_empty() {
        out.extend(quote! { if let #value::Number(n) = v { #n_checks } });
    }

    // Arrays.
    let mut a_checks = TokenStream::new();
    if let Some(min) = &c.min_items {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinItems { limit: #l, count: #k::__private::len64(a.len()) }));
        a_checks.extend(quote! { if #k::__private::len64(a.len()) < #l { #f } });
    }
    if let Some(max) = &c.max_items {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxItems { limit: #l, count: #k::__private::len64(a.len()) }));
        a_checks.extend(quote! { if #k::__private::len64(a.len()) > #l { #f } });
    }
    if c.unique_items {
        let f = fail(k, &at, &quote!(UniqueItems { first: #k::__private::len64(i), second: #k::__private::len64(j) }));
        a_checks
            .extend(quote! { if let ::core::option::Option::Some((i, j)) = #k::__private::first_duplicate(a) { #f } });
    }
    if let Some(items) = c.items.filter(|i| !always(ir, *i)) {
        let f = vname(items);
        a_checks.extend(quote! {
            for (i, e) in a.iter().enumerate() {
                if !#f(e, &at.index(i), s) { return false; }
            }
        });
    }
    if !a_checks.is_empty() {
        out.extend(quote! { if let #value::Array(a) = v { #a_checks } });
    }

    // Objects.
    let mut o_checks = TokenStream::new();
    for p in &c.properties {
        if always(ir, p.node) {
            continue;
        }
        let f = vname(p.node);
        let name = &p.name;
        o_checks.extend(quote! {
            if let ::core::option::Option::Some(e) = o.get(#name) {
                if !#f(e, &at.key(#name), s) { return false; }
            }
        });
    }
    if let Some(add) = c.additional.filter(|a| !always(ir, *a)) {
        let names: Vec<&String> = c.properties.iter().map(|p| &p.name).collect();
        let undeclared =
            if names.is_empty() { quote!(true) } else { quote!(!::core::matches!(key.as_str(), #(#names)|*)) };
        let action = if matches!(ir.node(add).body, Body::Never) {
            let f = fail(
                k,
                &quote!(&at.key(key)),
                &quote!(AdditionalProperty { property: ::std::string::String::from(key.as_str()) }),
            );
            quote! { let _ = e; #f }
        } else {
            let f = vname(add);
            quote! { if !#f(e, &at.key(key), s) { return false; } }
        };
        o_checks.extend(quote! {
            for (key, e) in o {
                if #undeclared { #action }
            }
        });
    }
    for (name, _) in &c.required {
        let f = fail(k, &quote!(&at.key(#name)), &quote!(Required { property: ::std::string::String::from(#name) }));
        o_checks.extend(quote! { if !o.contains_key(#name) { #f } });
    }
    if let Some(min) = &c.min_properties {
        let l = min.value;
        let f = fail(k, &at, &quote!(MinProperties { limit: #l, count: #k::__private::len64(o.len()) }));
        o_checks.extend(quote! { if #k::__private::len64(o.len()) < #l { #f } });
    }
    if let Some(max) = &c.max_properties {
        let l = max.value;
        let f = fail(k, &at, &quote!(MaxProperties { limit: #l, count: #k::__private::len64(o.len()) }));
        o_checks.extend(quote! { if #k::__private::len64(o.len()) > #l { #f } });
    }
    if !o_checks.is_empty() {
        out.extend(quote! { if let #value::Object(o) = v { #o_checks } });
    }

    quote! { #out true }
}
