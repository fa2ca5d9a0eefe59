//! Diagnostics: collected during every stage, reported together.

use proc_macro2::{Span, TokenStream};

use crate::json::Loc;

/// Where the schema text came from, to render locations.
#[derive(Debug, Clone)]
pub enum Source {
    /// Inline tokens: locations are spans.
    Inline,
    /// A file: locations are byte ranges, rendered as `path:line:column`, and blamed on the
    /// path literal.
    File {
        /// the path as the user wrote it
        display: String,
        /// the file's text
        text: String,
        /// the span of the path literal
        span: Span,
    },
    /// Text given to the compiler as a library (no tokens to blame).
    Text {
        /// the text
        text: String,
    },
}

/// One problem.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// where
    pub loc: Loc,
    /// the JSON Pointer into the schema, when the problem is inside it
    pub pointer: Option<String>,
    /// what is wrong, for a person
    pub message: String,
}

/// The diagnostics of one compilation.
#[derive(Debug, Clone)]
pub struct Diagnostics {
    source: Source,
    items: Vec<Diagnostic>,
    fallback: Span,
}

impl Diagnostics {
    /// An empty context for `source`; `fallback` is blamed when nothing better is known.
    #[must_use]
    pub fn new(source: Source, fallback: Span) -> Self {
        Self { source, items: Vec::new(), fallback }
    }

    /// Report a problem at `loc` (with the schema pointer, if any).
    pub fn error(&mut self, loc: Loc, pointer: Option<&str>, message: impl Into<String>) {
        self.items.push(Diagnostic { loc, pointer: pointer.map(str::to_owned), message: message.into() });
    }

    /// Whether anything was reported.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        !self.items.is_empty()
    }

    /// The problems so far.
    #[must_use]
    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    /// The 1-based line and column of a byte offset of the source text.
    #[must_use]
    pub fn line_col(&self, offset: usize) -> Option<(usize, usize)> {
        let text = match &self.source {
            Source::File { text, .. } | Source::Text { text } => text,
            Source::Inline => return None,
        };
        let before = text.get(..offset.min(text.len()))?;
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, col))
    }

    /// Render one diagnostic's text (without span).
    #[must_use]
    pub fn render(&self, d: &Diagnostic) -> String {
        let mut msg = d.message.clone();
        if let Some(p) = &d.pointer {
            msg.push_str(&format!("\n  at schema location `#{p}`"));
        }
        match (&self.source, d.loc) {
            (Source::File { display, .. }, Loc::Bytes { start, .. }) => {
                let (line, col) = self.line_col(start).unwrap_or((1, 1));
                format!("{display}:{line}:{col}: {msg}")
            }
            (Source::Text { .. }, Loc::Bytes { start, .. }) => {
                let (line, col) = self.line_col(start).unwrap_or((1, 1));
                format!("{line}:{col}: {msg}")
            }
            _ => msg,
        }
    }

    /// Every diagnostic as a rendered string (for tests and the library API).
    #[must_use]
    pub fn messages(&self) -> Vec<String> {
        self.items.iter().map(|d| self.render(d)).collect()
    }

    /// Every diagnostic as `compile_error!` invocations at the right spans.
    #[must_use]
    pub fn to_compile_errors(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for d in &self.items {
            let span = match (&self.source, d.loc) {
                (_, Loc::Span(s)) => s,
                (Source::File { span, .. }, Loc::Bytes { .. }) => *span,
                _ => self.fallback,
            };
            out.extend(syn::Error::new(span, self.render(d)).to_compile_error());
        }
        out
    }
}
