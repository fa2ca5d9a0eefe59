//! Inline schemas: JSON written as Rust tokens.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use super::{Json, JsonValue, Loc, Member, Num};

type Tokens = std::iter::Peekable<proc_macro2::token_stream::IntoIter>;

/// A JSON syntax error in an inline schema.
pub type Error = (Loc, String);

/// Parse one JSON value from `tokens`; `end` is the span to blame if the value is missing.
///
/// # Errors
/// The first syntax error, spanned at the offending token.
pub fn parse_tokens(tokens: TokenStream, end: Span) -> Result<Json, Error> {
    let mut it = tokens.into_iter().peekable();
    let v = value(&mut it, end)?;
    match it.next() {
        None => Ok(v),
        Some(t) => Err((Loc::Span(t.span()), format!("unexpected `{t}` after the JSON value"))),
    }
}

fn value(it: &mut Tokens, end: Span) -> Result<Json, Error> {
    let Some(t) = it.next() else {
        return Err((Loc::Span(end), "expected a JSON value".into()));
    };
    let loc = Loc::Span(t.span());
    match t {
        TokenTree::Group(g) => match g.delimiter() {
            Delimiter::Brace => object(g.stream(), g.span_close()).map(|m| Json { value: JsonValue::Object(m), loc }),
            Delimiter::Bracket => array(g.stream(), g.span_close()).map(|a| Json { value: JsonValue::Array(a), loc }),
            Delimiter::None => parse_tokens(g.stream(), g.span()),
            Delimiter::Parenthesis => Err((loc, "parentheses are not JSON; expected a JSON value".into())),
        },
        TokenTree::Ident(i) => match i.to_string().as_str() {
            "true" => Ok(Json { value: JsonValue::Bool(true), loc }),
            "false" => Ok(Json { value: JsonValue::Bool(false), loc }),
            "null" => Ok(Json { value: JsonValue::Null, loc }),
            other => {
                Err((loc, format!("expected a JSON value, found `{other}` (JSON has only `true`, `false` and `null`)")))
            }
        },
        TokenTree::Punct(p) if p.as_char() == '-' => match it.next() {
            Some(TokenTree::Literal(l)) => number(&format!("-{l}"), loc),
            _ => Err((loc, "expected a number after `-`".into())),
        },
        TokenTree::Punct(p) => Err((loc, format!("expected a JSON value, found `{}`", p.as_char()))),
        TokenTree::Literal(l) => literal(&l, loc),
    }
}

fn literal(l: &proc_macro2::Literal, loc: Loc) -> Result<Json, Error> {
    let text = l.to_string();
    if text.starts_with('"') || text.starts_with('r') {
        match syn::parse_str::<syn::LitStr>(&text) {
            Ok(s) if s.suffix().is_empty() => return Ok(Json { value: JsonValue::String(s.value()), loc }),
            _ => return Err((loc, format!("`{text}` is not a JSON string"))),
        }
    }
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        return number(&text, loc);
    }
    Err((loc, format!("`{text}` is not JSON; strings use double quotes")))
}

fn number(text: &str, loc: Loc) -> Result<Json, Error> {
    match Num::parse(text) {
        Some(n) => Ok(Json { value: JsonValue::Number(n), loc }),
        None => Err((loc, format!("`{text}` is not a JSON number"))),
    }
}

fn array(stream: TokenStream, close: Span) -> Result<Vec<Json>, Error> {
    let mut it = stream.into_iter().peekable();
    let mut out = Vec::new();
    if it.peek().is_none() {
        return Ok(out);
    }
    loop {
        out.push(value(&mut it, close)?);
        match it.next() {
            None => return Ok(out),
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                if it.peek().is_none() {
                    return Err((Loc::Span(p.span()), "trailing comma is not allowed in JSON".into()));
                }
            }
            Some(t) => return Err((Loc::Span(t.span()), format!("expected `,` or `]`, found `{t}`"))),
        }
    }
}

fn object(stream: TokenStream, close: Span) -> Result<Vec<Member>, Error> {
    let mut it = stream.into_iter().peekable();
    let mut out: Vec<Member> = Vec::new();
    if it.peek().is_none() {
        return Ok(out);
    }
    loop {
        let key_tok = it.next();
        let (key, key_loc) = match key_tok {
            Some(TokenTree::Literal(l)) => {
                let loc = Loc::Span(l.span());
                match literal(&l, loc)? {
                    Json { value: JsonValue::String(s), .. } => (s, loc),
                    _ => return Err((loc, format!("object keys must be strings, found `{l}`"))),
                }
            }
            Some(t) => {
                return Err((Loc::Span(t.span()), format!("object keys must be double-quoted strings, found `{t}`")))
            }
            None => return Err((Loc::Span(close), "expected a key".into())),
        };
        match it.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == ':' => {}
            Some(t) => return Err((Loc::Span(t.span()), format!("expected `:` after the key, found `{t}`"))),
            None => return Err((Loc::Span(close), "expected `:` after the key".into())),
        }
        let v = value(&mut it, close)?;
        if out.iter().any(|m| m.key == key) {
            return Err((key_loc, format!("duplicate key {key:?}")));
        }
        out.push(Member { key, key_loc, value: v });
        match it.next() {
            None => return Ok(out),
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                if it.peek().is_none() {
                    return Err((Loc::Span(p.span()), "trailing comma is not allowed in JSON".into()));
                }
            }
            Some(t) => return Err((Loc::Span(t.span()), format!("expected `,` or `}}`, found `{t}`"))),
        }
    }
}
