//! [`TextStream`]: a stream over the text its caller keeps.

use std::fmt;

use crate::violation::Error;
use crate::Tool;

use super::state::State;
use super::{changed, Dead, Progress, Reader, SHORT};

/// Arguments of tool `T` as they stream in, judged on the text the caller accumulates: the
/// caller appends each fragment to its own buffer and gives the whole text so far to
/// [`TextStream::feed_text`], which reads the bytes beyond those it read before.
///
/// It answers what a [`Stream`](crate::Stream) fed the same fragments answers, feed for feed,
/// but keeps no copy of the text: it holds no buffer (so making one allocates nothing), and a
/// feed copies nothing, where a [`Stream`](crate::Stream) appends each fragment to its own
/// buffer. A caller that keeps the text anyway (to show it, to log it, to build the call at the
/// end) saves that copy.
///
/// ```
/// use toolgate::{tool_schema, Progress, TextStream};
///
/// tool_schema! {
///     pub struct ReadFile = {
///         "type": "object",
///         "properties": {"path": {"type": "string"}, "max_lines": {"type": "integer"}},
///         "required": ["path"],
///         "additionalProperties": false
///     };
/// }
///
/// let mut text = String::new();
/// let mut s = TextStream::<ReadFile>::new();
/// for delta in [r#"{"path": "a.txt","#, r#" "max_lines": "#, "20}"] {
///     text.push_str(delta);
///     assert!(matches!(s.feed_text(text.as_bytes()), Progress::Alive));
/// }
/// assert_eq!(s.into_tool(text.as_bytes()).unwrap().path, "a.txt");
///
/// let mut s = TextStream::<ReadFile>::new();
/// let Progress::Dead(d) = s.feed_text(br#"{"path": 7"#) else { panic!("a number is no path") };
/// assert_eq!(d.offset, 9);
/// ```
///
/// The text must only grow: each call's text begins with the text of the call before. A text
/// shorter than the one read is refused ([`Progress::Dead`] with a syntax error, the stream
/// unchanged); a change to bytes already read is not seen (the stream keeps no copy to compare
/// with) and its answers, [`TextStream::finish`]'s too, are then those for the text as it read
/// it; [`TextStream::into_tool`] builds the value from the text it is given with
/// [`Tool::from_json`], which checks all of it, so a changed text never yields a value the
/// schema refuses.
pub struct TextStream<T: Tool> {
    pub(super) s: State<T>,
    /// how many bytes of the text were read
    read: usize,
}

impl<T: Tool> Clone for TextStream<T> {
    fn clone(&self) -> Self {
        Self { s: self.s.clone(), read: self.read }
    }
}

impl<T: Tool> fmt::Debug for TextStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TextStream")
            .field("tool", &T::NAME)
            .field("read", &self.read)
            .field("dead", &self.s.dead())
            .finish_non_exhaustive()
    }
}

impl<T: Tool> Default for TextStream<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Tool> TextStream<T> {
    /// A stream at the start of the arguments' text.
    #[must_use]
    pub fn new() -> Self {
        Self { s: State::new(), read: 0 }
    }

    /// Back to the start of a new text, as [`TextStream::new`].
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Read what the whole text so far, `so_far`, has beyond what was read.
    ///
    /// After [`Progress::Dead`] the stream stays dead and ignores what it is fed; after
    /// [`TextStream::finish`] it ignores what it is fed too. Neither panics.
    #[inline(always)]
    pub fn feed_text(&mut self, so_far: &[u8]) -> Progress {
        // `Stream::feed`'s short ways, with the text the caller's (and, there being no buffer to
        // append to byte by byte, a short fragment's run of a string's plain characters at once).
        let Some(new) = so_far.get(self.read..) else {
            return self.shorter(so_far);
        };
        if let [b] = new {
            if self.s.short {
                self.read = so_far.len();
                if self.s.one_byte(so_far, *b) {
                    return Progress::Alive;
                }
                return self.s.read_byte(so_far);
            }
        }
        if new.len() <= SHORT && self.s.short {
            self.read = self.s.plain_run(so_far, self.read);
            while let Some(&b) = so_far.get(self.read) {
                self.read += 1;
                if !self.s.one_byte(so_far.get(..self.read).unwrap_or(so_far), b) {
                    return self.short_rest(so_far);
                }
            }
            return Progress::Alive;
        }
        if !self.s.open {
            return self.s.progress();
        }
        let from = self.read;
        self.read = so_far.len();
        self.s.read(so_far, from)
    }

    /// [`TextStream::feed_text`] of up to [`SHORT`] new bytes, from the byte that the first
    /// reader's short way did not take: the rest of them, the long way.
    #[inline(never)]
    fn short_rest(&mut self, so_far: &[u8]) -> Progress {
        self.read = so_far.len();
        self.s.read_byte(so_far)
    }

    /// The answer to a text shorter than the text read: dead, with nothing read; or the
    /// stream's own answer, once it is dead or finished.
    #[cold]
    fn shorter(&self, so_far: &[u8]) -> Progress {
        if self.s.open {
            Progress::Dead(changed(so_far.len()))
        } else {
            self.s.progress()
        }
    }

    /// How many bytes of the text were read.
    #[must_use]
    pub fn read(&self) -> usize {
        self.read
    }

    /// Where the stream stands.
    #[must_use]
    pub fn progress(&self) -> Progress {
        self.s.progress()
    }

    /// Why the stream is dead, once it is.
    #[must_use]
    pub fn dead(&self) -> Option<&Dead> {
        self.s.dead()
    }

    /// Whether `so_far`, the text read (as last fed), is a complete valid reply (the model may
    /// stop here); `false` for a text of another length.
    #[must_use]
    pub fn can_finish(&self, so_far: &[u8]) -> bool {
        so_far.len() == self.read && self.s.can_finish(so_far)
    }

    /// The text has ended, `whole` (what it has beyond the text read is fed first): `Ok`
    /// exactly when [`Tool::is_valid_json`] accepts it.
    ///
    /// # Errors
    /// The error that killed the stream, or why the whole text is not valid (every violation,
    /// as [`Tool::from_json`] reports them); a syntax error when `whole` is shorter than the
    /// text read.
    pub fn finish(&mut self, whole: &[u8]) -> Result<(), Error> {
        self.read_rest(whole)?;
        self.s.finish(whole)
    }

    /// Finish `whole`, then build the typed value from it.
    ///
    /// # Errors
    /// As [`TextStream::finish`].
    pub fn into_tool(mut self, whole: &[u8]) -> Result<T, Error> {
        self.read_rest(whole)?;
        self.s.into_tool(whole)
    }

    /// Read what `whole` has beyond the text read: its death's error, if it is dead (or shorter
    /// than the text read).
    fn read_rest(&mut self, whole: &[u8]) -> Result<(), Error> {
        if whole.len() != self.read {
            if let Progress::Dead(d) = self.feed_text(whole) {
                return Err(d.error);
            }
        }
        Ok(())
    }

    /// The size in bytes of the automaton's state and the first reader's in front of it, as
    /// [`Stream::automaton_size`](crate::Stream::automaton_size) (fixed for `T` at compile time;
    /// the whole stream is `size_of::<TextStream<T>>()`, the text is the caller's).
    #[must_use]
    pub fn automaton_size() -> usize {
        crate::Stream::<T>::automaton_size()
    }

    /// Whether the first reader still reads this stream. Not public API: for tests.
    #[doc(hidden)]
    #[must_use]
    pub fn __quick(&self) -> bool {
        self.s.quick.on()
    }
}
