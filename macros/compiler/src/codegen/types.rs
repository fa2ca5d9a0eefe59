//! IR typing → type definitions, builders (validated `Value` → typed value) and `Serialize`.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::model::types::{Select, Ty, TypeDef, TypeKind, Typing};
use crate::model::JsonType;

/// An identifier from the IR's spelling (raw when it starts with `r#`).
pub fn ident(s: &str) -> Ident {
    match s.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(s, Span::call_site()),
    }
}

/// The builder function of type `i`.
pub fn bname(i: usize) -> Ident {
    format_ident!("__build_{}", i)
}

/// The Rust type for `ty`.
pub fn rust_ty(ty: &Ty, t: &Typing, k: &TokenStream) -> TokenStream {
    match ty {
        Ty::Value => quote!(#k::__private::serde_json::Value),
        Ty::Bool => quote!(::core::primitive::bool),
        Ty::I64 => quote!(::core::primitive::i64),
        Ty::U64 => quote!(::core::primitive::u64),
        Ty::Number => quote!(#k::__private::serde_json::Number),
        Ty::F64 => quote!(::core::primitive::f64),
        Ty::String => quote!(::std::string::String),
        Ty::Unit => quote!(()),
        Ty::Vec(inner) => {
            let i = rust_ty(inner, t, k);
            quote!(::std::vec::Vec<#i>)
        }
        Ty::Option(inner) => {
            let i = rust_ty(inner, t, k);
            quote!(::core::option::Option<#i>)
        }
        Ty::Map(inner) => {
            let i = rust_ty(inner, t, k);
            quote!(::std::collections::BTreeMap<::std::string::String, #i>)
        }
        Ty::Named(i) => {
            let name = t.defs.get(*i).map_or("Unknown", |d| d.name.as_str());
            let id = ident(name);
            quote!(#id)
        }
        Ty::Box(inner) => {
            let i = rust_ty(inner, t, k);
            quote!(::std::boxed::Box<#i>)
        }
    }
}

/// An expression building `ty` from `var: &Value`, using `?` to bail out with `None`.
fn build(ty: &Ty, var: &TokenStream, k: &TokenStream, depth: usize) -> TokenStream {
    let p = quote!(#k::__private);
    match ty {
        Ty::Value => quote!(::core::clone::Clone::clone(#var)),
        Ty::Bool => quote!(#var.as_bool()?),
        Ty::I64 => quote!(#p::build_i64(#var)?),
        Ty::U64 => quote!(#p::build_u64(#var)?),
        Ty::Number => quote!(#p::build_number(#var)?),
        Ty::F64 => quote!(#var.as_f64()?),
        Ty::String => quote!(::std::string::String::from(#var.as_str()?)),
        Ty::Unit => quote!(#var.as_null()?),
        Ty::Vec(inner) => {
            let (a, e, out) = (format_ident!("a{}", depth), format_ident!("e{}", depth), format_ident!("out{}", depth));
            let b = build(inner, &quote!(#e), k, depth + 1);
            quote!({
                let #a = #var.as_array()?;
                let mut #out = ::std::vec::Vec::with_capacity(#a.len());
                for #e in #a { #out.push(#b); }
                #out
            })
        }
        Ty::Option(inner) => {
            let b = build(inner, var, k, depth + 1);
            quote!(if #var.is_null() { ::core::option::Option::None } else { ::core::option::Option::Some(#b) })
        }
        Ty::Map(inner) => {
            let (o, key, e, out) = (
                format_ident!("o{}", depth),
                format_ident!("k{}", depth),
                format_ident!("e{}", depth),
                format_ident!("m{}", depth),
            );
            let b = build(inner, &quote!(#e), k, depth + 1);
            quote!({
                let #o = #var.as_object()?;
                let mut #out = ::std::collections::BTreeMap::new();
                for (#key, #e) in #o { #out.insert(::core::clone::Clone::clone(#key), #b); }
                #out
            })
        }
        Ty::Named(i) => {
            let f = bname(*i);
            quote!(#f(#var)?)
        }
        Ty::Box(inner) => {
            let b = build(inner, var, k, depth + 1);
            quote!(::std::boxed::Box::new(#b))
        }
    }
}

fn doc_attr(doc: &str) -> TokenStream {
    if doc.is_empty() {
        return TokenStream::new();
    }
    let lines = doc.lines().map(|l| format!(" {}", escape_doc(l)));
    quote!(#(#[doc = #lines])*)
}

/// A line of a schema's `title`/`description` as rustdoc Markdown: outside code spans, `[`, `]`
/// and `<` are escaped, so that `[brackets]` are not taken for intra-doc links nor `<file>` for
/// an HTML tag (both warnings in the user's `cargo doc`).
fn escape_doc(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for (i, part) in line.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(part);
            continue;
        }
        for c in part.chars() {
            if matches!(c, '[' | ']' | '<') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// The definitions of every generated type except the root's attributes, which the caller adds.
pub fn definitions(
    t: &Typing,
    k: &TokenStream,
    vis: &TokenStream,
    root_attrs: &TokenStream,
    tool: &str,
) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, def) in t.defs.iter().enumerate() {
        let name = ident(&def.name);
        let doc = if i == t.root && !root_attrs.is_empty() {
            root_attrs.clone()
        } else if def.doc.is_empty() {
            let text = if i == t.root {
                format!("Arguments of the `{tool}` tool.")
            } else {
                format!("Part of the arguments of the `{tool}` tool.")
            };
            doc_attr(&text)
        } else {
            doc_attr(&def.doc)
        };
        let lints = quote!(#[allow(clippy::all, clippy::pedantic, clippy::nursery, missing_docs)]);
        match &def.kind {
            TypeKind::Struct { fields, extra, fixed } => {
                let doc = if fixed.is_empty() {
                    doc
                } else {
                    let members = fixed.iter().map(|(k, v)| format!("`{k:?}: {v:?}`")).collect::<Vec<_>>().join(", ");
                    let note = doc_attr(&format!("\nSerialised with {members}, which the schema fixes."));
                    quote!(#doc #note)
                };
                let fs = fields.iter().map(|f| {
                    let id = ident(&f.ident);
                    let ty = rust_ty(&f.ty, t, k);
                    let ty = if f.is_option() { quote!(::core::option::Option<#ty>) } else { ty };
                    let d = doc_attr(&f.doc);
                    quote!(#d pub #id: #ty,)
                });
                let ex = extra.iter().map(|(name, ty)| {
                    let id = ident(name);
                    let ty = rust_ty(ty, t, k);
                    quote! {
                        /// The members that `properties` does not declare (`additionalProperties`).
                        pub #id: ::std::collections::BTreeMap<::std::string::String, #ty>,
                    }
                });
                out.extend(quote! {
                    #doc
                    #lints
                    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
                    #vis struct #name { #(#fs)* #(#ex)* }
                });
            }
            TypeKind::Enum { variants } => {
                let vs = variants.iter().map(|v| {
                    let id = ident(&v.ident);
                    let d = doc_attr(&format!("`{:?}`", v.json));
                    quote!(#d #id,)
                });
                let arms = variants.iter().map(|v| {
                    let id = ident(&v.ident);
                    let s = &v.json;
                    quote!(Self::#id => #s,)
                });
                out.extend(quote! {
                    #doc
                    #lints
                    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash)]
                    #vis enum #name { #(#vs)* }

                    #lints
                    impl #name {
                        /// The JSON string of this value.
                        #[must_use]
                        pub const fn as_str(&self) -> &'static ::core::primitive::str {
                            match self { #(#arms)* }
                        }
                    }

                    impl ::core::fmt::Display for #name {
                        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(self.as_str())
                        }
                    }
                });
            }
            TypeKind::Choice { variants } => {
                let vs = variants.iter().map(|v| {
                    let id = ident(&v.ident);
                    let ty = rust_ty(&v.ty, t, k);
                    let d = doc_attr(&match &v.select {
                        Select::Type(jt) => format!("A JSON {} value.", jt.name()),
                        Select::Tag { name, value } => format!("`{name:?}: {value:?}`"),
                        Select::Key(key) => format!("An object with the `{key:?}` member."),
                    });
                    quote!(#d #id(#ty),)
                });
                out.extend(quote! {
                    #doc
                    #lints
                    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
                    #vis enum #name { #(#vs)* }
                });
            }
            TypeKind::Newtype(ty) => {
                let ty = rust_ty(ty, t, k);
                out.extend(quote! {
                    #doc
                    #lints
                    #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
                    #vis struct #name(pub #ty);
                });
            }
        }
    }
    out
}

/// Builders and `Serialize` impls (placed inside the private `const _` block).
pub fn impls(t: &Typing, k: &TokenStream) -> TokenStream {
    let value = quote!(#k::__private::serde_json::Value);
    let ser = quote!(#k::__private::serde::ser);
    let mut out = TokenStream::new();
    for (i, def) in t.defs.iter().enumerate() {
        out.extend(one(i, def, t, k, &value, &ser));
    }
    out
}

fn one(i: usize, def: &TypeDef, t: &Typing, k: &TokenStream, value: &TokenStream, ser: &TokenStream) -> TokenStream {
    let name = ident(&def.name);
    let f = bname(i);
    let opt = quote!(::core::option::Option);
    let result = quote!(::core::result::Result);
    let (builder, serialize) = match &def.kind {
        TypeKind::Struct { fields, extra, fixed } => {
            let inits = fields.iter().map(|fd| {
                let id = ident(&fd.ident);
                let json = &fd.json;
                let b = build(&fd.ty, &quote!(e), k, 1);
                if fd.is_option() {
                    let null_arm = if fd.nullable {
                        quote!(#opt::Some(e) if e.is_null() => #opt::None,)
                    } else {
                        TokenStream::new()
                    };
                    quote!(#id: match o.get(#json) { #opt::None => #opt::None, #null_arm #opt::Some(e) => #opt::Some(#b) },)
                } else {
                    quote!(#id: { let e = o.get(#json)?; #b },)
                }
            });
            let names: Vec<&String> = fields.iter().map(|f| &f.json).chain(fixed.iter().map(|(k, _)| k)).collect();
            let extra_init = extra.iter().map(|(fname, ty)| {
                let id = ident(fname);
                let b = build(ty, &quote!(e), k, 1);
                let undeclared =
                    if names.is_empty() { quote!(true) } else { quote!(!::core::matches!(key.as_str(), #(#names)|*)) };
                quote!(#id: {
                    let mut m = ::std::collections::BTreeMap::new();
                    for (key, e) in o { if #undeclared { m.insert(::core::clone::Clone::clone(key), #b); } }
                    m
                },)
            });
            let entries = fields.iter().map(|fd| {
                let id = ident(&fd.ident);
                let json = &fd.json;
                if fd.required {
                    quote!(#ser::SerializeMap::serialize_entry(&mut map, #json, &self.#id)?;)
                } else {
                    quote!(if let #opt::Some(x) = &self.#id { #ser::SerializeMap::serialize_entry(&mut map, #json, x)?; })
                }
            });
            let fixed_entries =
                fixed.iter().map(|(key, value)| quote!(#ser::SerializeMap::serialize_entry(&mut map, #key, #value)?;));
            let extra_entries = extra.iter().map(|(fname, _)| {
                let id = ident(fname);
                quote!(for (key, x) in &self.#id { #ser::SerializeMap::serialize_entry(&mut map, key, x)?; })
            });
            (
                quote! {
                    let o = v.as_object()?;
                    #opt::Some(#name { #(#inits)* #(#extra_init)* })
                },
                quote! {
                    let mut map = #ser::Serializer::serialize_map(serializer, #opt::None)?;
                    #(#fixed_entries)*
                    #(#entries)*
                    #(#extra_entries)*
                    #ser::SerializeMap::end(map)
                },
            )
        }
        TypeKind::Enum { variants } => {
            let arms = variants.iter().map(|v| {
                let id = ident(&v.ident);
                let s = &v.json;
                quote!(#s => #opt::Some(#name::#id),)
            });
            (
                quote!(match v.as_str()? { #(#arms)* _ => #opt::None }),
                quote!(#ser::Serializer::serialize_str(serializer, self.as_str())),
            )
        }
        TypeKind::Choice { variants } => {
            // Validation has decided the branch; what tells it apart picks the variant.
            let value = quote!(#k::__private::serde_json::Value);
            let arms = variants.iter().map(|var| {
                let id = ident(&var.ident);
                let b = build(&var.ty, &quote!(v), k, 1);
                let test = match &var.select {
                    Select::Type(jt) => {
                        let pat = match jt {
                            JsonType::Null => quote!(#value::Null),
                            JsonType::Boolean => quote!(#value::Bool(_)),
                            JsonType::Integer => quote!(#value::Number(n) if #k::__private::is_integer(n)),
                            JsonType::Number => quote!(#value::Number(_)),
                            JsonType::String => quote!(#value::String(_)),
                            JsonType::Array => quote!(#value::Array(_)),
                            JsonType::Object => quote!(#value::Object(_)),
                        };
                        quote!(::core::matches!(v, #pat))
                    }
                    Select::Tag { name, value } => {
                        quote!(v.get(#name).and_then(|x| x.as_str()) == #opt::Some(#value))
                    }
                    Select::Key(key) => quote!(v.get(#key).is_some()),
                };
                quote!(if #test { return #opt::Some(#name::#id(#b)); })
            });
            // Each payload serialises itself (a tagged struct writes its tag, a `fixed` member).
            let ser_arms = variants.iter().map(|var| {
                let id = ident(&var.ident);
                quote!(#name::#id(x) => #ser::Serialize::serialize(x, serializer),)
            });
            (quote!(#(#arms)* #opt::None), quote!(match self { #(#ser_arms)* }))
        }
        TypeKind::Newtype(ty) => {
            let b = build(ty, &quote!(v), k, 1);
            (quote!(#opt::Some(#name(#b))), quote!(#ser::Serialize::serialize(&self.0, serializer)))
        }
    };
    let _ = t;
    quote! {
        fn #f(v: &#value) -> #opt<#name> { #builder }

        impl #ser::Serialize for #name {
            fn serialize<Ser: #ser::Serializer>(&self, serializer: Ser) -> #result<Ser::Ok, Ser::Error> {
                #serialize
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape_doc;

    #[test]
    fn schema_text_is_escaped_for_rustdoc_outside_code_spans() {
        assert_eq!(escape_doc("see [brackets] and <file>"), "see \\[brackets\\] and \\<file>");
        assert_eq!(escape_doc("a `[1, 2]` list [x]"), "a `[1, 2]` list \\[x\\]");
        assert_eq!(escape_doc("plain"), "plain");
    }
}
