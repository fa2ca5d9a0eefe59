//! The macro invocation: `[krate] (attrs vis struct Name = schema;)*`.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitStr, Token, Visibility};

/// Where the schema is.
pub enum SchemaSource {
    /// inline JSON tokens, and the span of the `=` (blamed when the value is missing)
    Inline(TokenStream, Span),
    /// a file path relative to `CARGO_MANIFEST_DIR`
    File(LitStr),
}

/// One `struct Name = schema;` item.
pub struct ToolItem {
    /// doc comment lines
    pub docs: Vec<String>,
    /// `#[doc]` attributes and every attribute other than `#[tool]`, kept for the root type
    pub attrs: Vec<Attribute>,
    /// `#[tool(name = "...")]`
    pub name: Option<LitStr>,
    /// `#[tool(formats = assert, dialect = "...", annotations = [...])]`
    pub options: crate::lower::Options,
    /// visibility
    pub vis: Visibility,
    /// the type name
    pub ident: Ident,
    /// the schema
    pub schema: SchemaSource,
}

/// The whole invocation.
pub struct Invocation {
    /// the `toolgate` crate path (`$crate` from the wrapper, else `::toolgate`)
    pub krate: TokenStream,
    /// the items
    pub items: Vec<ToolItem>,
}

impl Parse for Invocation {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut krate = quote::quote!(::toolgate);
        if input.peek(syn::token::Bracket) {
            let tt: TokenTree = input.parse()?;
            if let TokenTree::Group(g) = tt {
                if g.delimiter() == Delimiter::Bracket {
                    krate = g.stream();
                }
            }
        }
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse()?);
        }
        if items.is_empty() {
            return Err(input.error(
                "expected a tool: `pub struct Name = { ...JSON Schema... };` or `pub struct Name = \"schemas/name.json\";`",
            ));
        }
        Ok(Self { krate, items })
    }
}

impl Parse for ToolItem {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let all = input.call(Attribute::parse_outer)?;
        let mut docs = Vec::new();
        let mut attrs = Vec::new();
        let mut name = None;
        let mut options = crate::lower::Options::default();
        for a in all {
            if a.path().is_ident("doc") {
                if let syn::Meta::NameValue(nv) = &a.meta {
                    if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value {
                        docs.push(s.value());
                    }
                }
                attrs.push(a);
            } else if a.path().is_ident("tool") {
                a.parse_nested_meta(|meta| {
                    if meta.path.is_ident("name") {
                        let lit: LitStr = meta.value()?.parse()?;
                        let v = lit.value();
                        let ok = !v.is_empty()
                            && v.len() <= 64
                            && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
                        if !ok {
                            return Err(syn::Error::new(
                                lit.span(),
                                "a tool name must be 1 to 64 characters of ASCII letters, digits, `_` or `-` \
                                 (what OpenAI, Anthropic and MCP accept)",
                            ));
                        }
                        name = Some(lit);
                        Ok(())
                    } else if meta.path.is_ident("formats") {
                        let mode: Ident = meta.value()?.parse()?;
                        match mode.to_string().as_str() {
                            "assert" => options.assert_formats = true,
                            "annotate" => options.assert_formats = false,
                            _ => {
                                return Err(syn::Error::new(
                                    mode.span(),
                                    "`formats` is `assert` (check known formats) or `annotate` (the default)",
                                ))
                            }
                        }
                        Ok(())
                    } else if meta.path.is_ident("dialect") {
                        let lit: LitStr = meta.value()?.parse()?;
                        let v = lit.value();
                        let Some(d) = crate::model::Draft::ALL.into_iter().find(|d| d.option_name() == v) else {
                            let names: Vec<String> =
                                crate::model::Draft::ALL.iter().map(|d| format!("{:?}", d.option_name())).collect();
                            return Err(syn::Error::new(
                                lit.span(),
                                format!(
                                    "unknown dialect {v:?}; the dialects are {} (the dialect of a schema without `$schema`)",
                                    names.join(", ")
                                ),
                            ));
                        };
                        options.dialect = Some((d, lit.span()));
                        Ok(())
                    } else if meta.path.is_ident("annotations") {
                        let value = meta.value()?;
                        let content;
                        syn::bracketed!(content in value);
                        let names = content.parse_terminated(|p| p.parse::<LitStr>(), Token![,])?;
                        options.annotations.extend(names.into_iter().map(|l| (l.value(), l.span())));
                        Ok(())
                    } else {
                        Err(meta.error(
                            "unknown `tool` option; the options are `name = \"...\"`, `formats = assert`, \
                             `dialect = \"draft-07\"` and `annotations = [\"...\"]`",
                        ))
                    }
                })?;
            } else {
                attrs.push(a);
            }
        }
        let vis: Visibility = input.parse()?;
        input.parse::<Token![struct]>()?;
        let ident: Ident = input.parse()?;
        let eq: Token![=] = input.parse()?;
        let schema = if input.peek(LitStr) && (input.peek2(Token![;]) || input.peek2(syn::parse::End)) {
            SchemaSource::File(input.parse()?)
        } else {
            let mut tokens = TokenStream::new();
            while !input.is_empty() && !input.peek(Token![;]) {
                let t: TokenTree = input.parse()?;
                tokens.extend([t]);
            }
            SchemaSource::Inline(tokens, eq.span)
        };
        if !input.is_empty() {
            input.parse::<Token![;]>()?;
        }
        Ok(Self { docs, attrs, name, options, vis, ident, schema })
    }
}
