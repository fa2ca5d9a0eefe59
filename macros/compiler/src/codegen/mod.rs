//! IR → tokens: the types, the validators, the `Tool` impl. Deterministic: the same schema
//! always gives the same tokens.

mod empty;
pub mod flat;
pub mod parse;
pub mod stream;
pub mod text;
pub mod types;
pub mod validate;
pub mod value;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::types::Typing;
use crate::model::Ir;

/// The JSON kinds generated code branches on (the text scan and the `&Value` verdicts;
/// `integer` is a `Number`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// What codegen needs besides the IR.
pub struct ToolInfo<'a> {
    /// path of the `toolgate` crate (`$crate` through the wrapper macro)
    pub krate: &'a TokenStream,
    /// visibility of the generated types
    pub vis: &'a TokenStream,
    /// the root type's attributes (doc comments and pass-through attributes)
    pub attrs: &'a TokenStream,
    /// the tool name
    pub name: &'a str,
    /// the description
    pub description: &'a str,
    /// the schema's compact JSON text
    pub schema: &'a str,
    /// an absolute file path to track for rebuilds, for file schemas
    pub track: Option<&'a str>,
}

/// Generate everything for one tool.
#[must_use]
pub fn generate(ir: &Ir, typing: &Typing, info: &ToolInfo<'_>) -> TokenStream {
    let k = info.krate;
    let defs = types::definitions(typing, k, info.vis, info.attrs, info.name);
    let impls = types::impls(typing, k);
    let validators = validate::validators(ir, k);
    let value_fns = value::functions(ir, k);
    let root_is = value::call(ir, ir.root, &quote!(value));
    let parse = parse::functions(ir, typing, k);
    let text_fns = text::functions(ir, &parse.scan_of, k);
    let parse_fns = &parse.functions;
    let root_parse = parse.root.then(|| {
        let f = parse::pname(typing.root);
        quote! {
            #[inline]
            fn __parse(sc: &mut #k::__private::Scanner<'_>) -> ::core::result::Result<Self, #k::__private::Halt> {
                match #f(sc, true)? {
                    ::core::option::Option::Some(v) => ::core::result::Result::Ok(v),
                    ::core::option::Option::None => ::core::result::Result::Err(#k::__private::Halt::Invalid),
                }
            }
        }
    });
    let (program, slots, levels, choice) = stream::program(ir, k);
    let automaton = match choice {
        stream::Automaton::General => quote!(Machine<#slots, #levels>),
        stream::Automaton::Lean => quote!(Lean<#slots, #levels>),
        stream::Automaton::LeanDelegating => {
            quote!(Lean<#slots, #levels, #k::__private::Machine<#slots, #levels>>)
        }
    };
    let (reader, flat_spec) = match flat::spec(ir, k) {
        Some(spec) => (quote!(#k::__private::FlatReader<__Flat>), spec),
        None => (quick_reader(k), quote!()),
    };
    let root_scan = text::sname(ir, ir.root);
    let root_name = typing.defs.get(typing.root).map_or("Unknown", |d| d.name.as_str());
    let root = types::ident(root_name);
    let root_validator = validate::vname(ir, ir.root);
    let root_builder = types::bname(typing.root);
    let (name, description, schema) = (info.name, info.description, info.schema);
    let track = info.track.map(|p| {
        quote!(
            const _: &[::core::primitive::u8] = ::core::include_bytes!(#p);
        )
    });
    let value = quote!(#k::__private::serde_json::Value);
    let de = quote!(#k::__private::serde::de);
    quote! {
        #defs

        #[allow(unused, unused_comparisons, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        const _: () = {
            #track
            #validators
            #value_fns
            #text_fns
            #parse_fns
            #impls
            #flat_spec

            impl #k::Tool for #root {
                const NAME: &'static ::core::primitive::str = #name;
                const DESCRIPTION: &'static ::core::primitive::str = #description;
                const SCHEMA: &'static ::core::primitive::str = #schema;

                fn check<S: #k::Sink>(value: &#value, sink: &mut S) {
                    let _ = #root_validator(value, &#k::Path::ROOT, sink);
                }

                #[inline]
                fn is_valid(value: &#value) -> ::core::primitive::bool {
                    #root_is
                }

                fn __build<__Src: #k::__private::Source>(source: &mut __Src) -> ::core::option::Option<Self> {
                    #root_builder(source)
                }

                #[inline]
                fn __scan(sc: &mut #k::__private::Scanner<'_>) -> #k::__private::Step {
                    #root_scan(sc)
                }

                fn __report<S: #k::Sink>(v: #k::__private::Span<'_>, at: &#k::Path<'_>, sink: &mut S) -> ::core::primitive::bool {
                    #root_validator(v, at, sink)
                }

                #root_parse

                type __Automaton = #k::__private::#automaton;
                type __Reader = #reader;
                const __PROGRAM: &'static #k::__private::Program = &#program;
            }

            impl<'de> #de::Deserialize<'de> for #root {
                fn deserialize<D: #de::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let v = <#k::__private::StrictValue as #de::Deserialize<'de>>::deserialize(d)?.0;
                    <Self as #k::Tool>::from_value(&v).map_err(<D::Error as #de::Error>::custom)
                }
            }

            // `schemars::JsonSchema` when the runtime's `schemars` feature is on (decided there).
            #k::__private::__impl_schemars!(#root);
        };
    }
}

/// A stand-in emitted after errors, so that the user sees the schema errors and not a cascade
/// of "cannot find type" errors, nor errors from their own code using what the real type
/// implements (`Debug`, `Clone`, `PartialEq`, `Serialize`, `Deserialize`, `Tool`, `JsonSchema`).
#[must_use]
pub fn skeleton(k: &TokenStream, vis: &TokenStream, attrs: &TokenStream, root: &proc_macro2::Ident) -> TokenStream {
    let value = quote!(#k::__private::serde_json::Value);
    let de = quote!(#k::__private::serde::de);
    let ser = quote!(#k::__private::serde::ser);
    let quick = quick_reader(k);
    quote! {
        #attrs
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
        #vis struct #root {}

        #[allow(unused, clippy::all, clippy::pedantic, clippy::nursery)]
        const _: () = {
            impl #k::Tool for #root {
                const NAME: &'static ::core::primitive::str = "";
                const DESCRIPTION: &'static ::core::primitive::str = "";
                const SCHEMA: &'static ::core::primitive::str = "";
                fn check<S: #k::Sink>(value: &#value, sink: &mut S) {}
                fn __build<__Src: #k::__private::Source>(source: &mut __Src) -> ::core::option::Option<Self> { ::core::option::Option::None }
                fn __scan(sc: &mut #k::__private::Scanner<'_>) -> #k::__private::Step { sc.skip_value() }
                fn __report<S: #k::Sink>(v: #k::__private::Span<'_>, at: &#k::Path<'_>, sink: &mut S) -> ::core::primitive::bool { true }
                type __Automaton = #k::__private::Machine<1, 1>;
                type __Reader = #quick;
                const __PROGRAM: &'static #k::__private::Program = &#k::__private::EMPTY_PROGRAM;
            }

            impl #ser::Serialize for #root {
                fn serialize<Ser: #ser::Serializer>(&self, serializer: Ser) -> ::core::result::Result<Ser::Ok, Ser::Error> {
                    #ser::Serializer::serialize_unit(serializer)
                }
            }

            impl<'de> #de::Deserialize<'de> for #root {
                fn deserialize<D: #de::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    ::core::result::Result::Err(<D::Error as #de::Error>::custom("the schema of this type was refused"))
                }
            }

            #k::__private::__impl_schemars!(#root);
        };
    }
}

/// The stream's first reader of a tool that is not flat: the quick reader, with what its
/// automaton hands over.
fn quick_reader(k: &TokenStream) -> TokenStream {
    quote!(#k::__private::Quick<<Self::__Automaton as #k::__private::StreamAutomaton>::Sub>)
}
