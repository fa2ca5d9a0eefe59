//! IR typing → type definitions, builders (a validated instance → typed value, generic over
//! `toolgate::__private::Source`: a parsed `Value` or reply text) and `Serialize`.

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

/// An expression building `ty` from the source `r` (a `&mut impl Source` positioned at the
/// value), using `?` to bail out with `None`.
pub(crate) fn build(ty: &Ty, k: &TokenStream) -> TokenStream {
    let p = quote!(#k::__private);
    let src = quote!(#p::Source);
    let opt = quote!(::core::option::Option);
    match ty {
        Ty::Value => quote!(#src::value(r)?),
        Ty::Bool => quote!(#src::boolean(r)?),
        Ty::I64 => quote!(#src::int64(r)?),
        Ty::U64 => quote!(#src::uint64(r)?),
        Ty::Number => quote!(#src::number(r)?),
        Ty::F64 => quote!(#src::float64(r)?),
        Ty::String => quote!(#src::string(r)?),
        Ty::Unit => quote!(#src::null(r)?),
        Ty::Vec(inner) => {
            let b = build(inner, k);
            quote!({
                let mut out = ::std::vec::Vec::with_capacity(#src::len_hint(r));
                #src::items(r, |r| { out.push(#b); #opt::Some(()) })?;
                out
            })
        }
        Ty::Option(inner) => {
            let b = build(inner, k);
            quote!(if #src::kind(r) == #p::Kind::Null { #src::skip(r)?; #opt::None } else { #opt::Some(#b) })
        }
        Ty::Map(inner) => {
            let b = build(inner, k);
            quote!({
                let mut out = ::std::collections::BTreeMap::new();
                #src::members(r, |key, r| {
                    out.insert(#p::Text::with_str(key, |s: &::core::primitive::str| ::std::string::String::from(s)), #b);
                    #opt::Some(())
                })?;
                out
            })
        }
        Ty::Named(i) => {
            let f = bname(*i);
            quote!(#f(r)?)
        }
        Ty::Box(inner) => {
            let b = build(inner, k);
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
    let ser = quote!(#k::__private::serde::ser);
    let mut out = TokenStream::new();
    for (i, def) in t.defs.iter().enumerate() {
        out.extend(one(i, def, t, k, &ser));
    }
    out
}

fn one(i: usize, def: &TypeDef, t: &Typing, k: &TokenStream, ser: &TokenStream) -> TokenStream {
    let name = ident(&def.name);
    let f = bname(i);
    let opt = quote!(::core::option::Option);
    let result = quote!(::core::result::Result);
    let p = quote!(#k::__private);
    let src = quote!(#p::Source);
    let (builder, serialize) = match &def.kind {
        TypeKind::Struct { fields, extra, fixed } => {
            // One pass over the members: each name classified once (declared fields, then the
            // members the schema fixes), each value built where it stands.
            let slots: Vec<Ident> = (0..fields.len()).map(|i| format_ident!("f{}", i)).collect();
            let decls = fields.iter().zip(&slots).map(|(fd, slot)| {
                let ty = rust_ty(&fd.ty, t, k);
                quote!(let mut #slot: #opt<#ty> = #opt::None;)
            });
            let arms = fields.iter().zip(&slots).enumerate().map(|(i, (fd, slot))| {
                let b = build(&fd.ty, k);
                if fd.nullable {
                    quote!(#i => if #src::kind(r) == #p::Kind::Null { #src::skip(r)?; } else { #slot = #opt::Some(#b); },)
                } else {
                    quote!(#i => #slot = #opt::Some(#b),)
                }
            });
            let names: Vec<&str> =
                fields.iter().map(|f| f.json.as_str()).chain(fixed.iter().map(|(k, _)| k.as_str())).collect();
            let classify = super::validate::key_index(&quote!(key), &names, k);
            let (extra_decl, undeclared, extra_init) = match extra {
                Some((fname, ty)) => {
                    let id = ident(fname);
                    let b = build(ty, k);
                    (
                        quote!(let mut extra = ::std::collections::BTreeMap::new();),
                        quote!(_ => { extra.insert(#p::Text::with_str(key, |s: &::core::primitive::str| ::std::string::String::from(s)), #b); }),
                        quote!(#id: extra,),
                    )
                }
                None => (TokenStream::new(), quote!(_ => #src::skip(r)?,), TokenStream::new()),
            };
            let fixed_arm = if fixed.is_empty() {
                TokenStream::new()
            } else {
                let (first, last) = (fields.len(), names.len() - 1);
                quote!(#first..=#last => #src::skip(r)?,)
            };
            let inits = fields.iter().zip(&slots).map(|(fd, slot)| {
                let id = ident(&fd.ident);
                if fd.is_option() {
                    quote!(#id: #slot,)
                } else {
                    quote!(#id: #slot?,)
                }
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
                    #(#decls)*
                    #extra_decl
                    #src::members(r, |key, r| {
                        match #classify {
                            #(#arms)*
                            #fixed_arm
                            #undeclared
                        }
                        #opt::Some(())
                    })?;
                    #opt::Some(#name { #(#inits)* #extra_init })
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
            let names: Vec<&str> = variants.iter().map(|v| v.json.as_str()).collect();
            let classify = super::validate::key_index(&quote!(s), &names, k);
            let arms = variants.iter().enumerate().map(|(i, v)| {
                let id = ident(&v.ident);
                quote!(#i => #opt::Some(#name::#id),)
            });
            (
                quote!(match #src::with_text(r, |s| #classify)? { #(#arms)* _ => #opt::None }),
                quote!(#ser::Serializer::serialize_str(serializer, self.as_str())),
            )
        }
        TypeKind::Choice { variants } => {
            // Validation has decided the branch; what tells it apart picks the variant.
            let arms = variants.iter().map(|var| {
                let id = ident(&var.ident);
                let b = build(&var.ty, k);
                let test = match &var.select {
                    Select::Type(jt) => {
                        let kind = match jt {
                            JsonType::Null => quote!(Null),
                            JsonType::Boolean => quote!(Bool),
                            JsonType::Integer | JsonType::Number => quote!(Number),
                            JsonType::String => quote!(String),
                            JsonType::Array => quote!(Array),
                            JsonType::Object => quote!(Object),
                        };
                        if *jt == JsonType::Integer {
                            quote!(#src::kind(r) == #p::Kind::#kind && #src::is_integer(r))
                        } else {
                            quote!(#src::kind(r) == #p::Kind::#kind)
                        }
                    }
                    Select::Tag { name, value } => quote!(#src::tag_is(r, #name, #value)),
                    Select::Key(key) => quote!(#src::has_member(r, #key)),
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
            let b = build(ty, k);
            (quote!(#opt::Some(#name(#b))), quote!(#ser::Serialize::serialize(&self.0, serializer)))
        }
    };
    let _ = t;
    quote! {
        fn #f<__Src: #src>(r: &mut __Src) -> #opt<#name> { #builder }

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
