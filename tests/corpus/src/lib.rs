//! The generated corpus: every accepted schema of `build.rs` as a module, built in a crate that
//! denies warnings, missing docs and `clippy::pedantic`, as a demanding user's crate does.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

use toolgate::Tool;

/// What the test runs on one generated type.
pub struct Ops {
    /// `Tool::is_valid_json`
    pub is_valid_json: fn(&str) -> bool,
    /// `Tool::from_json`, then the typed value serialised and validated again: `None` when
    /// `from_json` refuses the text, else whether the serialised value is valid.
    pub round_trip: fn(&str) -> Option<bool>,
}

impl Ops {
    /// The operations of `T`.
    #[must_use]
    pub const fn of<T: Tool + serde::Serialize>() -> Self {
        Self { is_valid_json: T::is_valid_json, round_trip: round_trip::<T> }
    }
}

fn round_trip<T: Tool + serde::Serialize>(text: &str) -> Option<bool> {
    let value = T::from_json(text).ok()?;
    // `from_json` builds from the text; should that fail, it falls back to the `Value` path,
    // which would hide the failure: the text builder is asserted directly.
    let mut sc = toolgate::__private::Scanner::new(text);
    sc.ws();
    let from_text = T::__build(&mut sc)?;
    // And the one-pass parse (validate and build together), which `from_json` tries first.
    let mut sc = toolgate::__private::Scanner::new(text);
    sc.ws();
    let parsed = T::__parse(&mut sc).ok()?;
    let (a, b, c) = (
        serde_json::to_value(&value).ok()?,
        serde_json::to_value(&from_text).ok()?,
        serde_json::to_value(&parsed).ok()?,
    );
    Some(a == b && a == c && T::is_valid(&a))
}

/// One schema of the corpus.
pub struct Entry {
    /// where it comes from (`shape <name>`, `tool-shaped #i`, `keyword soup #i`)
    pub label: &'static str,
    /// the schema text
    pub schema: &'static str,
    /// what the test runs
    pub ops: Ops,
}

/// The generated modules, [`CORPUS`] and [`REFUSED`].
#[allow(clippy::too_many_lines)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
}

pub use generated::*;
