//! Limits on reply text: how many bytes, and how deeply arrays and objects may nest.
//!
//! Reply text is untrusted. Every parse that toolgate runs is bounded: [`crate::parse`] and
//! [`crate::Tool::from_json`] by [`Limits::DEFAULT`] (no byte limit, at most
//! [`Limits::MAX_DEPTH`] nested arrays and objects, exactly what `serde_json`'s recursion limit
//! admits), and a [`crate::Gate`] by its own, stricter limits ([`crate::Gate::max_bytes`],
//! [`crate::Gate::max_depth`]). [`crate::parse_with`] and [`crate::Tool::from_json_with`] take
//! limits of your choice.
//!
//! The depth is checked while the text is parsed, so nesting of any depth is refused without
//! recursing into it: 100,000 opening brackets cost one error, not a stack overflow.
//!
//! ```
//! use toolgate::{parse_with, Error, LimitExceeded, Limits};
//!
//! let limits = Limits::DEFAULT.with_max_bytes(64).with_max_depth(2);
//! assert!(parse_with(r#"{"a": [1, 2]}"#, &limits).is_ok());
//!
//! let err = parse_with(r#"{"a": [[1, 2]]}"#, &limits).unwrap_err();
//! assert!(matches!(err, Error::Limit(LimitExceeded::Depth { limit: 2, .. })));
//! assert_eq!(err.to_string(), "too deep: arrays and objects nest more than 2 levels deep (line 1, column 8)");
//!
//! let err = parse_with(&"1".repeat(65), &limits).unwrap_err();
//! assert_eq!(err.to_string(), "too long: 65 bytes, the limit is 64 bytes");
//! ```

use std::fmt;

/// How much reply text a parse accepts: at most [`Limits::max_bytes`] bytes of UTF-8, and at most
/// [`Limits::max_depth`] arrays and objects nested in one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The longest text accepted, in bytes (UTF-8). `usize::MAX` for no limit.
    pub max_bytes: usize,
    /// The deepest nesting of arrays and objects accepted: `0` admits only a scalar, `1` admits
    /// `[1]` and `{"a": 1}` but not `[[1]]`. Values above [`Limits::MAX_DEPTH`] act as
    /// [`Limits::MAX_DEPTH`].
    pub max_depth: usize,
}

impl Limits {
    /// The deepest nesting any toolgate parser accepts: 127 arrays and objects, which is what
    /// `serde_json`'s recursion limit of 128 admits and what the allocation-free text scanner of
    /// [`crate::Tool::is_valid_json`] accepts. It is far below what overflows the stack of a thread
    /// with 2 MiB of stack (parse, validation and drop included, in debug builds as well).
    pub const MAX_DEPTH: usize = 127;

    /// The limits of [`crate::parse`] and [`crate::Tool::from_json`]: no byte limit, and
    /// [`Limits::MAX_DEPTH`] levels of nesting.
    pub const DEFAULT: Self = Self { max_bytes: usize::MAX, max_depth: Self::MAX_DEPTH };

    /// These limits with a byte limit of `bytes`.
    #[must_use]
    pub const fn with_max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// These limits with a depth limit of `depth` (capped at [`Limits::MAX_DEPTH`]).
    #[must_use]
    pub const fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The depth limit in force: [`Limits::max_depth`], capped at [`Limits::MAX_DEPTH`].
    #[must_use]
    pub const fn depth(&self) -> usize {
        if self.max_depth < Self::MAX_DEPTH {
            self.max_depth
        } else {
            Self::MAX_DEPTH
        }
    }

    /// Whether `text` is within the byte limit.
    ///
    /// # Errors
    /// [`LimitExceeded::Bytes`] when it is longer.
    pub const fn check_bytes(&self, text: &str) -> Result<(), LimitExceeded> {
        if text.len() > self.max_bytes {
            Err(LimitExceeded::Bytes { limit: self.max_bytes, found: text.len() })
        } else {
            Ok(())
        }
    }
}

impl Default for Limits {
    /// [`Limits::DEFAULT`].
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Which limit a text exceeded (see [`Limits`]); carried by [`crate::Error::Limit`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitExceeded {
    /// The text is longer than the byte limit.
    Bytes {
        /// the limit, in bytes
        limit: usize,
        /// the length of the text, in bytes
        found: usize,
    },
    /// Arrays and objects nest deeper than the depth limit. Parsing stopped at the first array or
    /// object beyond the limit.
    Depth {
        /// the limit, in levels of nesting
        limit: usize,
        /// 1-based line of the first array or object beyond the limit
        line: usize,
        /// 1-based column of the first array or object beyond the limit
        column: usize,
    },
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bytes { limit, found } => write!(f, "too long: {found} bytes, the limit is {limit} bytes"),
            Self::Depth { limit, line, column } => write!(
                f,
                "too deep: arrays and objects nest more than {limit} level{} deep (line {line}, column {column})",
                if *limit == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for LimitExceeded {}
