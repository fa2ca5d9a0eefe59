//! Where violations go: the sinks the generated validators write into.
//!
//! A generated validator walks the instance once and calls [`Sink::fail`] for each violation,
//! passing the location as a [`Path`] (a linked list on the stack) and a closure that builds the
//! [`ViolationKind`]. A sink that only wants the verdict never calls the closure and stops at the
//! first failure, so deciding valid/invalid allocates nothing; a sink that collects renders the
//! pointer and the kind only then.

use std::fmt;

use crate::violation::{Violation, ViolationKind, Violations};

/// One step of an instance location.
#[derive(Debug, Clone, Copy)]
pub enum Segment<'a> {
    /// An object member.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// An instance location under construction: a chain of segments borrowed from the stack.
#[derive(Debug, Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Option<Segment<'a>>,
}

impl Path<'static> {
    /// The whole instance (the pointer `""`).
    pub const ROOT: Self = Self { parent: None, segment: None };
}

impl<'a> Path<'a> {
    /// The location of member `key` of the object at `self`.
    #[must_use]
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path { parent: Some(self), segment: Some(Segment::Key(key)) }
    }

    /// The location of item `index` of the array at `self`.
    #[must_use]
    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path { parent: Some(self), segment: Some(Segment::Index(index)) }
    }

    /// The RFC 6901 JSON Pointer (`~` as `~0`, `/` as `~1`). Allocates.
    #[must_use]
    pub fn to_pointer(&self) -> String {
        let mut out = String::new();
        self.push_pointer(&mut out);
        out
    }

    /// Append the pointer to `out`, the root's segment first.
    fn push_pointer(&self, out: &mut String) {
        if let Some(p) = self.parent {
            p.push_pointer(out);
        }
        match self.segment {
            Some(Segment::Index(i)) => {
                // Writing to a `String` cannot fail.
                let _ = fmt::Write::write_fmt(out, format_args!("/{i}"));
            }
            Some(Segment::Key(k)) => {
                out.push('/');
                for (n, part) in k.split('~').enumerate() {
                    if n > 0 {
                        out.push_str("~0");
                    }
                    for (m, piece) in part.split('/').enumerate() {
                        if m > 0 {
                            out.push_str("~1");
                        }
                        out.push_str(piece);
                    }
                }
            }
            None => {}
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pointer())
    }
}

/// Receives violations from a generated validator.
pub trait Sink {
    /// Whether the sink cares which violation comes first (the validators then walk in schema
    /// order: declared properties, then the others in `serde_json::Map` order). A sink that only
    /// wants the verdict says `false`: each subschema is then decided by the faster verdict code
    /// (the one-pass text scan, or the `&Value` verdict of [`crate::Tool::is_valid`]; where those
    /// defer to the validator, a walk that visits each object's members once), with no promise of
    /// which violation the sink is told.
    const ORDERED: bool = true;

    /// Record a violation at `at`; `kind` builds its description if the sink wants it.
    /// Return `true` to go on checking, `false` to stop at once.
    fn fail(&mut self, at: &Path<'_>, kind: impl FnOnce() -> ViolationKind) -> bool;
}

/// The verdict only: stops at the first violation and never allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// `true` until a violation is reported.
    pub valid: bool,
}

impl Verdict {
    /// A fresh verdict (valid so far).
    #[must_use]
    pub const fn new() -> Self {
        Self { valid: true }
    }
}

impl Default for Verdict {
    fn default() -> Self {
        Self::new()
    }
}

impl Sink for Verdict {
    const ORDERED: bool = false;

    fn fail(&mut self, _at: &Path<'_>, _kind: impl FnOnce() -> ViolationKind) -> bool {
        self.valid = false;
        false
    }
}

/// The first violation only: stops there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct First(pub Option<Violation>);

impl Sink for First {
    fn fail(&mut self, at: &Path<'_>, kind: impl FnOnce() -> ViolationKind) -> bool {
        self.0 = Some(Violation { pointer: at.to_pointer(), kind: kind() });
        false
    }
}

/// Every violation, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Collect(pub Vec<Violation>);

impl Collect {
    /// The collected violations.
    #[must_use]
    pub fn into_violations(self) -> Violations {
        Violations::new(self.0)
    }
}

impl Sink for Collect {
    fn fail(&mut self, at: &Path<'_>, kind: impl FnOnce() -> ViolationKind) -> bool {
        self.0.push(Violation { pointer: at.to_pointer(), kind: kind() });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Path;

    #[test]
    fn pointers_escape_tilde_then_slash_and_number_items() {
        let root = Path::ROOT;
        assert_eq!(root.to_pointer(), "");
        let a = root.key("a/b~c");
        let b = a.index(12);
        let c = b.key("~/~1/");
        let d = c.key("");
        assert_eq!(d.to_pointer(), "/a~1b~0c/12/~0~1~01~1/");
        assert_eq!(d.to_string(), d.to_pointer());
    }
}
