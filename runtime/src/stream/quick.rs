//! The quick reader: a [`crate::Stream`]'s first reader, for the ordinary text of the ordinary
//! schema, in front of the prefix automaton.
//!
//! It reads a token at a time and judges only where a value can die: when a key, string,
//! number or literal closes (its subschema's verdict on its text, which the stream keeps), when
//! a container closes, at a member's or item's beginning (the count limits), and at the end of
//! each fragment for the token it cuts (a key or `enum` string that nothing declared can
//! continue, a `pattern` whose automaton died on it, a string past its `maxLength`). It keeps no
//! state per byte and expects an object's keys in the order the schema declares them (and looks
//! further only when they are not), which is what makes it cheaper than the automaton. As the
//! lean automaton does, it judges an array or object complete within reach at once by its scan
//! function, and hands a value several subschemas speak of (a `oneOf` of objects, an `allOf`) to
//! the general automaton started at that value, which hands back at its end. A tagged union (see
//! [`Tagged`]) it reads itself when the property that tells its branches apart comes first: as
//! the object of that property alone until the property's value picks the branch, then as that
//! branch (else the general automaton reads the object from its beginning).
//!
//! It is an optimist with a referee: it only ever answers "alive for certain". Whatever it does
//! not read itself (an escape or a non-ASCII byte in a key, or in a string with an `enum` or a
//! `pattern`; a key that no name declares; a container no subschema speaks of, cut by the
//! fragment's end; more than [`LEVELS`] open containers) and whatever it finds wrong (any death)
//! ends its reading: the automaton, which has read nothing yet, then reads the whole text so far
//! in one run and goes on from there, exactly as if it had read every fragment itself. That run
//! happens at most once per stream, so the cost stays linear. What the reader judges it judges
//! by the rules the automaton follows, within the same fragment: every death the automaton finds
//! in a fragment makes the reader hand over in that fragment, so that a stream answers every feed
//! as the automaton alone would (tested feed by feed, `Stream::__automaton_only`).

use crate::pattern::{Pattern, Stepped};
use crate::text::{ItemFilter, Kind, Num, Scanner};

use super::bounds;
use super::lean::{judge_complete, next_token, resolve, Delegate, Resolved};
use super::machine::{
    all_bits, hex, is_plain, is_ws, narrow_run, num_step, number_at, number_literal, plain_end, utf8_lead, ExpStep,
    ExpWatch, KindBits, NumSt, WORDS,
};
use super::program::{narrow_byte, shape, ty, Node, Program, Tagged, NONE};

/// Open containers the reader follows; deeper text is handed to the automaton.
pub const LEVELS: usize = 16;

/// Where the reader stands between two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    /// a value must come (the root, after `:`, after `,` in an array)
    Value,
    /// after `[`
    ArrFirst,
    /// after `{`
    ObjFirst,
    /// after `,` in an object: a key
    Key,
    /// after a key: `:`
    Colon,
    /// after a value in a container: `,` or the closer
    After,
    /// the root value closed
    Done,
    /// inside a string value
    Str,
    /// inside an escape of a string value (where: [`Quick::esc`])
    Esc,
    /// inside a multi-byte UTF-8 character of a string value ([`Quick::utf`])
    Utf8,
    /// inside a key
    KeyStr,
    /// inside a number ([`Quick::num`])
    Num,
    /// inside a number whose subschema has `enum`/`const` numbers, or requires an integer within
    /// bounds and has as many bytes as it takes to break them ([`bounds::integral_due`]): the
    /// short way leaves its bytes to the long way, which checks that one is still reachable
    /// where a fragment cuts it ([`members::reachable`], [`bounds::integral`]; where it closes,
    /// its verdict is exact)
    Watched,
    /// inside `true`, `false` or `null` ([`Quick::lit`])
    Lit,
    /// inside a value several subschemas speak of, read by the general automaton
    /// ([`Quick::sub`])
    Sub,
}

/// A tagged union whose object is open: the program, its table, its node, the object's level.
type Tagging = (&'static Program, &'static Tagged, u16, usize);

/// Where an escape stands (after its backslash).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// the byte after the backslash
    Start,
    /// `\u` and `n` hex digits of value `acc`
    Hex(u8, u16),
    /// a high surrogate (`hi`) read: its low half's backslash
    LowBs(u16),
    /// its `u`
    LowU(u16),
    /// `n` hex digits of the low half, of value `acc`
    LowHex(u16, u8, u16),
}

/// One open container.
#[derive(Debug, Clone, Copy)]
struct Level {
    /// its subschema (plain)
    node: &'static Node,
    /// where it begins (its bracket)
    start: usize,
    /// members or items begun
    count: u32,
    object: bool,
    /// the name expected next: the one declared after the last key read
    next: u16,
    /// the declared names present (at most 64 names)
    seen: u64,
}

/// The array with `uniqueItems` the reader follows, one at a time (another inside it, not
/// complete within reach, is the automaton's).
#[derive(Debug, Clone, Copy)]
struct Uniq {
    /// its level (in [`Quick::levels`])
    level: usize,
    /// where its current item begins, and whether that item, closed, is still to be compared
    /// with the earlier ones (at the `,` after it, or at the fragment's end)
    item: usize,
    pending: bool,
    items: ItemFilter,
}

const EMPTY: Level = Level { node: &Node::ALWAYS, start: 0, count: 0, object: false, next: 0, seen: 0 };

/// No container open: copied whole from a constant (built in place, the array was built beside
/// the reader and then copied).
const NO_LEVELS: [Level; LEVELS] = [EMPTY; LEVELS];

/// The quick reader's state (see the module's documentation).
#[derive(Debug, Clone)]
pub struct Quick<X: Delegate> {
    /// still reading (`false`: handed over to the automaton)
    pub on: bool,
    /// bytes read
    pos: usize,
    tok: Tok,
    depth: usize,
    levels: [Level; LEVELS],
    /// where the current key, string, number or literal begins
    start: usize,
    /// the current scalar's subschema (`None`: no subschema speaks of it)
    node: Option<&'static Node>,
    /// the subschema of the member whose key just closed
    child: u16,
    /// the current string: bytes before this offset are narrowed into `cands` and stepped
    /// through the pattern
    narrowed: usize,
    /// the `enum` strings the current string may still be
    cands: u128,
    /// the characters of the current string so far (an escape counts at its backslash)
    chars: u64,
    /// the current key, cut by a fragment's end, may go on a byte at a time without a search
    /// of the names: in a closed object it is so far the name expected next, in an open one
    /// nothing is matched before it closes (see [`Quick::quiet`])
    on_guess: bool,
    /// with `on_guess`, in a closed object: the name expected next (the key's bytes so far
    /// are its first ones); `None` in an open one
    guess: Option<&'static [u8]>,
    /// the current string's `pattern`: its automaton's state, and whether stepping stopped
    /// (matched, or the automaton gave up: the string's end decides)
    dfa: u32,
    pdone: bool,
    /// stepping stopped because the pattern matched (else the automaton gave up, or there is
    /// none to step)
    pmatch: bool,
    /// the current number has an exponent, and its exponent watched for the `f64` range
    exp: bool,
    watch: ExpWatch,
    /// where the current number stands
    num: NumSt,
    /// the current literal (0 `true`, 1 `false`, 2 `null`) and its bytes read
    lit: (u8, u8),
    /// where the current escape stands
    esc: Esc,
    /// the current multi-byte character: continuation bytes still due, the range of the next
    utf: (u8, u8, u8),
    /// no container beginning before this offset is judged at once (see [`judge_complete`])
    ff_block: usize,
    /// the value several subschemas speak of, being read by the general automaton (as the
    /// lean automaton hands it over)
    sub: Option<X>,
    /// a value read by the general automaton left a key that may repeat unseen: only a full
    /// check can tell the end
    inexact: bool,
    /// the tagged union whose object is open, its property's value not closed yet
    tagging: Option<Tagging>,
    /// the array with `uniqueItems` being read
    uniq: Option<Uniq>,
}

impl<X: Delegate> Quick<X> {
    /// The reader at the start of a text; `on`: whether it reads (else the automaton reads
    /// from the start).
    pub const fn new(on: bool) -> Self {
        Self {
            on,
            pos: 0,
            tok: Tok::Value,
            depth: 0,
            levels: NO_LEVELS,
            start: 0,
            node: None,
            child: NONE,
            narrowed: 0,
            cands: 0,
            chars: 0,
            on_guess: false,
            guess: None,
            dfa: 0,
            pdone: true,
            pmatch: false,
            exp: false,
            watch: ExpWatch::OFF,
            num: NumSt::Int,
            lit: (0, 0),
            esc: Esc::Start,
            utf: (0, 0, 0),
            ff_block: 0,
            sub: None,
            inexact: false,
            tagging: None,
            uniq: None,
        }
    }

    /// The short way of reading one more byte `b`, the text's last (a fragment of one byte):
    /// `true` when it took it, the one byte the text has beyond what was read; `false` when
    /// [`Quick::read`] must read on from where this left the reader.
    #[inline(always)]
    pub fn one_byte(&mut self, prog: &'static Program, text: &[u8], b: u8) -> bool {
        // A reader that is on has read all of the text before `b` (every read that keeps it on
        // ends at the text's end).
        debug_assert_eq!(text.len(), self.pos + 1, "the quick reader is behind the text");
        // (The items of an array with `uniqueItems` are compared where they close: the long
        // way.)
        !self.in_uniq() && (self.quiet(text, b) || (self.tok == Tok::Value && self.first(prog, text)))
    }

    /// A fragment of one byte that begins a value after a `:` or an array's `,`:
    /// whether it is taken (`false`: read it the long way, from where this leaves the reader).
    #[inline(never)]
    fn first(&mut self, prog: &'static Program, text: &[u8]) -> bool {
        let at = self.pos;
        let Some(&b) = text.get(at) else { return false };
        // Whitespace is quiet.
        if is_ws(b) {
            return false;
        }
        let mut pos = at + 1;
        match self.value_in(prog, text, b, at, &mut pos) {
            // Begun (a string's quote, a number's or a literal's first byte, a bracket): nothing
            // for the fragment's end to check (but a number watched against its members: the
            // long way checks it).
            Some(t) => {
                self.pos = pos;
                self.tok = t;
                t != Tok::Sub && t != Tok::Watched
            }
            // Read again the long way, which finds the death again.
            None => false,
        }
    }

    /// Where a byte the short way took leads (`None`: the byte is read again the long way, which
    /// finds the same death).
    #[inline(always)]
    fn go(&mut self, next: Option<Tok>) -> bool {
        match next {
            Some(t) => {
                self.tok = t;
                true
            }
            None => false,
        }
    }

    /// Read `text[self.pos..]`, `text` being all of the text so far: `true` when it is alive
    /// for certain, `false` when the automaton must read it (then this reader is done).
    #[inline(never)]
    pub fn read(&mut self, prog: &'static Program, text: &[u8]) -> bool {
        let mut ok = self.run(prog, text) && self.cut(text) && self.item_cut(text);
        if !ok && self.tagging.is_some() {
            ok = self.untag(prog, text);
        }
        self.on = ok;
        ok
    }

    /// A tagged union's object that does not begin with its property, or that dies before the
    /// property's value picks a branch: the general automaton reads it from its beginning (a
    /// few bytes, once), as any value several subschemas speak of.
    #[cold]
    fn untag(&mut self, prog: &'static Program, text: &[u8]) -> bool {
        let Some((_, _, union, d)) = self.tagging.take() else { return false };
        let Some(&Level { start, .. }) = self.levels.get(d) else { return false };
        let Some(x) = u32::try_from(d).ok().and_then(|depth| X::start(prog, union, start, depth)) else { return false };
        self.depth = d;
        if self.uniq.is_some_and(|u| u.level >= d) {
            self.uniq = None;
        }
        self.sub = Some(x);
        self.tok = Tok::Sub;
        self.pos = start;
        self.run(prog, text) && self.cut(text) && self.item_cut(text)
    }

    /// One more byte (a fragment of one byte, mostly) that judges nothing or one thing:
    /// whitespace between tokens, a plain character of a string whose characters are at most
    /// counted, or of a key that goes on as the name expected next, a byte inside a number or a
    /// literal (the literal's last closes it), whitespace or a `,` that ends a number (which
    /// closes it: [`Quick::number_ends`]), a `:`, a `,` (the count limits: [`Quick::promise`]), a
    /// key's quotes (the closing one looks the name up) or a string's closing quote (its
    /// verdict). `b` is `text[self.pos]`, the text's last byte. `false`: read it the long way.
    #[inline(always)]
    fn quiet(&mut self, text: &[u8], b: u8) -> bool {
        let ok = match self.tok {
            Tok::KeyStr if b == b'"' => {
                let next = self.close_key(text, self.pos).map(|()| Tok::Colon);
                self.go(next)
            }
            Tok::Str if b == b'"' => {
                let next = self.close_string(text.get(self.start..=self.pos).unwrap_or_default());
                self.go(next)
            }
            Tok::Str => {
                let ok = is_plain(b)
                    && self.node.is_none_or(|n| {
                        self.chars < n.max_length
                            && ((n.strings.is_none() && (n.pattern.is_none() || self.pdone)) || self.follow(n, b))
                    });
                if ok {
                    self.chars += 1;
                }
                ok
            }
            Tok::KeyStr => is_plain(b) && self.on_guess && self.key_goes_on(b),
            Tok::Num => match num_step(self.num, b) {
                // (An exponent's `e`, and its sign and digits while it is watched for the `f64`
                // range, go the long way; so do those of a number watched against its members
                // (`Tok::Watched`), and an integer's digits once its bounds may be broken.)
                Some(n) if n != NumSt::Exp && !self.watch.on() && !self.integral_due(text, self.pos + 1) => {
                    self.num = n;
                    true
                }
                Some(_) => false,
                // The number ends before `b`: its verdict, then `b` after it.
                None => self.number_ends(text, b),
            },
            Tok::Lit => {
                let next = self.literal(text, b, self.pos);
                self.go(next)
            }
            Tok::Colon if b == b':' => {
                self.tok = Tok::Value;
                true
            }
            Tok::After if b == b',' => self.comma(),
            Tok::ObjFirst if b == b'"' => self.promise() && self.key_begins(),
            Tok::Key if b == b'"' => self.key_begins(),
            Tok::Value | Tok::ArrFirst | Tok::ObjFirst | Tok::Key | Tok::Colon | Tok::After | Tok::Done => is_ws(b),
            Tok::Esc | Tok::Utf8 | Tok::Sub | Tok::Watched => false,
        };
        if ok {
            self.pos += 1;
        }
        ok
    }

    /// A `,` after a value, on the short way: the count limits (a broken promise is read again
    /// the long way, which breaks it again).
    #[inline(always)]
    fn comma(&mut self) -> bool {
        let object = self.top().is_some_and(|l| l.object);
        let next = self.promise().then_some(if object { Tok::Key } else { Tok::Value });
        self.go(next)
    }

    /// A byte `b` that does not go on the current number, on the short way: the number ends
    /// before it (its verdict), and `b` is whitespace or a `,` after it. `false`: `b` is read
    /// again the long way, from where this leaves the reader: after the number if it closed
    /// (`b` is then its container's closer, or does not belong there), else in it, which finds
    /// the same death.
    #[inline(never)]
    fn number_ends(&mut self, text: &[u8], b: u8) -> bool {
        if !ends(self.num) || (self.num == NumSt::Zero && b.is_ascii_digit()) {
            return false;
        }
        let Some(next) = self.close_number(text, self.pos) else { return false };
        self.tok = next;
        match b {
            b',' if next == Tok::After => self.comma(),
            _ => is_ws(b),
        }
    }

    /// One more plain character `b` of the current string on its `enum` strings and `pattern`
    /// (all the string's characters before it were, and the caller checked that it has one of
    /// them still stepped): whether it keeps the string alive.
    #[inline(never)]
    fn follow(&mut self, n: &Node, b: u8) -> bool {
        if self.narrowed != self.pos {
            return false;
        }
        let cands = match n.strings {
            Some(_) => narrow_byte(n.string_bytes, self.cands, self.pos - self.start - 1, b),
            None => 1,
        };
        let (dfa, how) = match (n.pattern, self.pdone) {
            (Some((p, _)), false) => p.step(self.dfa, b),
            _ => (self.dfa, Stepped::Matched),
        };
        if cands == 0 || how == Stepped::Dead {
            return false;
        }
        if n.strings.is_some() {
            self.cands = cands;
        }
        self.dfa = dfa;
        if n.pattern.is_some() && !self.pdone {
            // (Only what the pattern's automaton said: once it stopped, `how` says nothing.)
            self.pdone = how != Stepped::Live;
            self.pmatch = how == Stepped::Matched;
        }
        self.narrowed += 1;
        true
    }

    /// A key begins at `self.pos` (its member promised): alive, since a closed object that
    /// promised a member has a declared name not yet present.
    fn key_begins(&mut self) -> bool {
        let Some(&l) = self.top() else { return false };
        let next = usize::from(l.next);
        self.on_guess = !l.node.closed || (next < l.node.props.len() && l.seen >> next & 1 == 0);
        self.guess = l.node.closed.then(|| l.node.names.get(next).map_or(&[][..], |n| n.as_bytes()));
        self.start = self.pos;
        self.tok = Tok::KeyStr;
        true
    }

    /// Whether byte `b` of the current key, which so far is the name expected next or in an
    /// open object, keeps it so: in a closed object, the name expected next (of `properties`,
    /// not yet present; `self.guess`, set where the key began or was cut) has `b` there.
    #[inline(always)]
    fn key_goes_on(&self, b: u8) -> bool {
        self.guess.is_none_or(|n| n.get(self.pos - self.start - 1) == Some(&b))
    }

    /// The text has ended: `true` when it is valid for certain; `false` when the automaton must
    /// decide (then this reader is done).
    pub fn finish(&mut self, text: &[u8]) -> bool {
        let ok = match self.tok {
            Tok::Done => !self.inexact,
            Tok::Num | Tok::Watched if self.depth == 0 => ends(self.num) && self.close_number(text, self.pos).is_some(),
            _ => false,
        };
        self.on = ok;
        ok
    }

    /// Whether the text read is one complete valid value (`None`: a number at the root, which
    /// more digits may change).
    pub const fn complete(&self) -> Option<bool> {
        match self.tok {
            Tok::Done if self.inexact => None,
            Tok::Done => Some(true),
            Tok::Num | Tok::Watched if self.depth == 0 => None,
            _ => Some(false),
        }
    }

    /// Whether the general automaton reads the value the text is in.
    pub const fn delegating(&self) -> bool {
        self.sub.is_some()
    }

    fn top(&self) -> Option<&Level> {
        self.depth.checked_sub(1).and_then(|d| self.levels.get(d))
    }

    fn top_mut(&mut self) -> Option<&mut Level> {
        self.depth.checked_sub(1).and_then(|d| self.levels.get_mut(d))
    }

    /// What comes after a value that closed.
    const fn after(&self) -> Tok {
        if self.depth == 0 {
            Tok::Done
        } else {
            Tok::After
        }
    }

    fn run(&mut self, prog: &'static Program, text: &[u8]) -> bool {
        let mut pos = self.pos;
        let mut tok = self.tok;
        let ok = 'read: loop {
            let Some(&b) = text.get(pos) else { break true };
            let next = match tok {
                Tok::Str => self.value_string(text, &mut pos),
                Tok::Esc => match self.escape(text, &mut pos, self.esc) {
                    Some(Tok::Str) => self.value_string(text, &mut pos),
                    other => other,
                },
                Tok::Utf8 => match self.utf8(text, &mut pos, self.utf) {
                    Some(Tok::Str) => self.value_string(text, &mut pos),
                    other => other,
                },
                Tok::KeyStr => self.key_string(prog, text, &mut pos),
                Tok::Num | Tok::Watched => self.number(text, &mut pos, self.num),
                Tok::Sub => {
                    let Some(x) = self.sub.as_mut() else { break false };
                    if !x.advance(text) {
                        break false;
                    }
                    match x.end() {
                        Some(end) => {
                            self.inexact |= !x.exact();
                            self.sub = None;
                            pos = end;
                            Some(self.after())
                        }
                        None => {
                            pos = text.len();
                            Some(Tok::Sub)
                        }
                    }
                }
                Tok::Lit => {
                    let next = self.literal(text, b, pos);
                    pos += 1;
                    next
                }
                _ => {
                    // Between tokens: whitespace, then punctuation or a value's first byte.
                    let mut b = b;
                    while is_ws(b) {
                        pos += 1;
                        match text.get(pos) {
                            Some(&c) => b = c,
                            None => break 'read true,
                        }
                    }
                    let at = pos;
                    pos += 1;
                    match (tok, b) {
                        (Tok::Value, _) => self.value(prog, text, b, at, &mut pos),
                        (Tok::ArrFirst, b']') | (Tok::ObjFirst, b'}') => self.close_container(text, pos),
                        (Tok::ArrFirst, _) => {
                            if self.promise() {
                                self.value(prog, text, b, at, &mut pos)
                            } else {
                                None
                            }
                        }
                        (Tok::ObjFirst, b'"') => {
                            if self.promise() {
                                self.start = at;
                                self.key_string(prog, text, &mut pos)
                            } else {
                                None
                            }
                        }
                        (Tok::Key, b'"') => {
                            self.start = at;
                            self.key_string(prog, text, &mut pos)
                        }
                        (Tok::Colon, b':') => self.value_next(prog, text, &mut pos),
                        (Tok::After, b',') => {
                            if !self.item_done(text, at) || !self.promise() {
                                None
                            } else if self.top().is_some_and(|l| l.object) {
                                // The next key, mostly at once.
                                match next_token(text, pos) {
                                    Some((p, b'"')) => {
                                        pos = p + 1;
                                        self.start = p;
                                        self.key_string(prog, text, &mut pos)
                                    }
                                    Some(_) => None,
                                    None => {
                                        pos = text.len();
                                        Some(Tok::Key)
                                    }
                                }
                            } else {
                                self.value_next(prog, text, &mut pos)
                            }
                        }
                        (Tok::After, b'}' | b']') if self.top().is_some_and(|l| l.object == (b == b'}')) => {
                            self.close_container(text, pos)
                        }
                        // Text after the root, or a byte that cannot come here.
                        _ => None,
                    }
                }
            };
            match next {
                Some(t) => tok = t,
                None => break false,
            }
        };
        self.pos = pos;
        self.tok = tok;
        ok
    }

    /// Inside a string value, at `pos`: its characters, then its closing quote, as far as the
    /// text has them. Escapes and non-ASCII characters are read here only where the value's
    /// characters are at most counted (no `enum` to compare them with).
    fn value_string(&mut self, text: &[u8], pos: &mut usize) -> Option<Tok> {
        loop {
            let end = plain_end(text, *pos);
            self.chars += (end - *pos) as u64;
            *pos = end;
            let Some(&c) = text.get(end) else { return Some(Tok::Str) };
            *pos = end + 1;
            let next = match c {
                b'"' => return self.close_string(text.get(self.start..=end).unwrap_or_default()),
                // An `enum` string or a `pattern` looks at decoded characters: the automaton's.
                _ if self.node.is_some_and(|n| n.strings.is_some() || n.pattern.is_some()) => return None,
                b'\\' => {
                    // A character is certain at the backslash.
                    self.chars += 1;
                    self.escape(text, pos, Esc::Start)?
                }
                // A control character, a byte no UTF-8 character begins with: `None`.
                _ => {
                    self.chars += 1;
                    self.utf8(text, pos, utf8_lead(c)?)?
                }
            };
            if next != Tok::Str {
                // The text ended inside the escape or character.
                return Some(next);
            }
        }
    }

    /// Inside an escape of a string value (state `e`), at `pos`: [`Tok::Str`] once it is
    /// complete and valid, its state if the text ends first.
    fn escape(&mut self, text: &[u8], pos: &mut usize, mut e: Esc) -> Option<Tok> {
        loop {
            let Some(&b) = text.get(*pos) else {
                self.esc = e;
                return Some(Tok::Esc);
            };
            *pos += 1;
            e = match e {
                Esc::Start => match b {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => return Some(Tok::Str),
                    b'u' => Esc::Hex(0, 0),
                    _ => return None,
                },
                Esc::Hex(n, acc) => {
                    let acc = acc << 4 | hex(b)?;
                    match n {
                        // A low surrogate alone.
                        1 if (0xDC..=0xDF).contains(&acc) => return None,
                        0..=2 => Esc::Hex(n + 1, acc),
                        _ if (0xD800..=0xDBFF).contains(&acc) => Esc::LowBs(acc),
                        _ => return Some(Tok::Str),
                    }
                }
                Esc::LowBs(hi) if b == b'\\' => Esc::LowU(hi),
                Esc::LowU(hi) if b == b'u' => Esc::LowHex(hi, 0, 0),
                Esc::LowHex(hi, n, acc) => {
                    let acc = acc << 4 | hex(b)?;
                    match n {
                        0 if acc != 0xD => return None,
                        1 if !(0xDC..=0xDF).contains(&acc) => return None,
                        0..=2 => Esc::LowHex(hi, n + 1, acc),
                        _ => return Some(Tok::Str),
                    }
                }
                // A high surrogate not followed by its low half.
                Esc::LowBs(_) | Esc::LowU(_) => return None,
            };
        }
    }

    /// Inside a multi-byte character of a string value (`need` continuation bytes due, the
    /// next in `lo..=hi`), at `pos`.
    fn utf8(&mut self, text: &[u8], pos: &mut usize, (mut need, mut lo, mut hi): (u8, u8, u8)) -> Option<Tok> {
        while need > 0 {
            let Some(&b) = text.get(*pos) else {
                self.utf = (need, lo, hi);
                return Some(Tok::Utf8);
            };
            if b < lo || b > hi {
                return None;
            }
            *pos += 1;
            need -= 1;
            (lo, hi) = (0x80, 0xBF);
        }
        Some(Tok::Str)
    }

    /// Inside a key (which began at `self.start`), at `pos`: its plain characters, its closing
    /// quote, the `:` and the value's first byte, as far as the text has them.
    fn key_string(&mut self, prog: &'static Program, text: &[u8], pos: &mut usize) -> Option<Tok> {
        let end = plain_end(text, *pos);
        match text.get(end) {
            None => {
                *pos = end;
                Some(Tok::KeyStr)
            }
            Some(b'"') => {
                *pos = end + 1;
                self.close_key(text, end)?;
                match next_token(text, *pos) {
                    Some((p, b':')) => {
                        *pos = p + 1;
                        self.value_next(prog, text, pos)
                    }
                    Some(_) => None,
                    None => {
                        *pos = text.len();
                        Some(Tok::Colon)
                    }
                }
            }
            Some(_) => None,
        }
    }

    /// Byte `b`, at `at`, of the current literal: it goes on, or it is the last and closes the
    /// literal with its verdict (`None`: not the literal's byte, or the verdict is no; nothing
    /// changed then).
    #[inline]
    fn literal(&mut self, text: &[u8], b: u8, at: usize) -> Option<Tok> {
        let (w, i) = self.lit;
        let word = WORDS.get(usize::from(w)).copied().unwrap_or_default();
        if word.get(usize::from(i)) != Some(&b) {
            return None;
        }
        if usize::from(i) + 1 < word.len() {
            self.lit.1 += 1;
            return Some(Tok::Lit);
        }
        let kind = if w == 2 { Kind::Null } else { Kind::Bool };
        self.close_scalar(kind, text.get(self.start..=at).unwrap_or_default())
    }

    /// Whether the number begun at `self.start`, its text so far ending before `end`, must be an
    /// integer within bounds that its mantissa may already break ([`bounds::integral_due`]).
    #[inline]
    fn integral_due(&self, text: &[u8], end: usize) -> bool {
        self.node.is_some_and(|n| {
            n.integral()
                && end.saturating_sub(self.start) >= bounds::integral_due(n.limits, text.get(self.start) == Some(&b'-'))
        })
    }

    /// Inside a number in state `st`, at `pos`: as far as it goes.
    #[inline]
    fn number(&mut self, text: &[u8], pos: &mut usize, mut st: NumSt) -> Option<Tok> {
        loop {
            let Some(&b) = text.get(*pos) else {
                self.num = st;
                let watched = self.node.is_some_and(|n| !n.numbers.is_empty()) || self.integral_due(text, *pos);
                return Some(if watched { Tok::Watched } else { Tok::Num });
            };
            if b.is_ascii_digit() && self.watch.runs(st) {
                *pos += 1;
                continue;
            }
            match num_step(st, b) {
                Some(n) => {
                    self.exp |= n == NumSt::Exp;
                    // Beyond the `f64` range once and for all, or past a bound its exponent
                    // settled: the automaton finds it dead.
                    let number = text.get(self.start..=*pos).unwrap_or_default();
                    match self.watch.step(n, number) {
                        ExpStep::Out => return None,
                        ExpStep::Moved | ExpStep::Narrowed if self.node.is_some_and(|n| n.outgrown(number)) => {
                            return None
                        }
                        _ => {}
                    }
                    st = n;
                    *pos += 1;
                }
                // The number ended before `b`, which is read next, unless it cannot end there.
                None if ends(st) && !(st == NumSt::Zero && b.is_ascii_digit()) => return self.close_number(text, *pos),
                None => return None,
            }
        }
    }

    /// After a `:` or an array's `,` (`pos` after it): the next value's first byte, when the
    /// text has it.
    fn value_next(&mut self, prog: &'static Program, text: &[u8], pos: &mut usize) -> Option<Tok> {
        match next_token(text, *pos) {
            Some((p, c)) => {
                *pos = p + 1;
                self.value(prog, text, c, p, pos)
            }
            None => {
                *pos = text.len();
                Some(Tok::Value)
            }
        }
    }

    /// A member or item is promised: the automaton's count limits.
    #[inline]
    fn promise(&mut self) -> bool {
        let Some(l) = self.top_mut() else { return false };
        l.count += 1;
        let node = l.node;
        if l.object {
            // A closed object: some name of `properties` is not present yet.
            let declared = match node.props.len() {
                n @ 0..64 => (1u64 << n) - 1,
                _ => u64::MAX,
            };
            u64::from(l.count) <= node.max_props
                && !node.crowded(l.count, u128::from(l.seen), true)
                && !(node.closed && declared & !l.seen == 0)
        } else {
            u64::from(l.count) <= node.max_items
        }
    }

    /// The declared name `raw` is, looked for where the object's last key leads first.
    #[inline]
    fn name(l: &Level, raw: &[u8]) -> Option<usize> {
        let names = l.node.names;
        let next = usize::from(l.next);
        // Names are short: compared in place rather than by a call.
        if names.get(next).is_some_and(|n| n.len() == raw.len() && n.bytes().zip(raw).all(|(a, &b)| a == b)) {
            return Some(next);
        }
        names.iter().position(|n| n.as_bytes() == raw)
    }

    /// The closing quote of a key, at `end`.
    #[inline]
    fn close_key(&mut self, text: &[u8], end: usize) -> Option<()> {
        let raw = text.get(self.start + 1..end)?;
        let l = self.top_mut()?;
        let node = l.node;
        // An undeclared key (dead in a closed object; in an open one it may repeat an earlier
        // undeclared key, which the automaton follows), a repeated one, a name past 64.
        let sel = Self::name(l, raw)?;
        let bit = 1u64.checked_shl(u32::try_from(sel).ok()?)?;
        // A repeated key, one whose property no value satisfies, or one that leaves no room for
        // the `required` names still missing: the automaton's, which finds it dead.
        if l.seen & bit != 0 || node.forbidden >> sel & 1 == 1 || node.crowded(l.count, u128::from(l.seen | bit), false)
        {
            return None;
        }
        let child = match node.props.get(sel) {
            Some(&n) => n,
            None if node.closed => return None,
            None => node.additional,
        };
        l.seen |= bit;
        l.next = u16::try_from(sel + 1).ok()?;
        self.child = child;
        Some(())
    }

    /// The first byte `b` of a value, at `at` (`pos` is after it): the value's subschema, its
    /// checks at this byte, and as much of it as the text has (a container complete within the
    /// text and valid is read at once).
    #[inline(never)]
    fn value(&mut self, prog: &'static Program, text: &[u8], b: u8, at: usize, pos: &mut usize) -> Option<Tok> {
        self.value_in(prog, text, b, at, pos)
    }

    /// [`Quick::value`], inlined where a one-byte fragment begins a value ([`Quick::first`]).
    #[inline(always)]
    fn value_in(&mut self, prog: &'static Program, text: &[u8], b: u8, at: usize, pos: &mut usize) -> Option<Tok> {
        let kind = match b {
            b'"' => Kind::String,
            b'-' | b'0'..=b'9' => Kind::Number,
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => return None,
        };
        let bits = kind.bits();
        if let Some(u) = self.uniq.as_mut().filter(|u| u.level + 1 == self.depth) {
            (u.item, u.pending) = (at, true);
        }
        let requested = match self.top() {
            None => prog.root,
            Some(l) if l.object => self.child,
            Some(l) => match l.node.prefix.get(l.count.saturating_sub(1) as usize) {
                Some(&n) => n,
                None => l.node.items,
            },
        };
        if matches!(b, b'{' | b'[') && at >= self.ff_block {
            // A container complete within reach: its subschema's scan function judges it, as
            // the lean automaton has it (before the subschema is resolved: the scan function
            // of a value several subschemas speak of is exact too).
            let depth = u32::try_from(self.depth).unwrap_or(u32::MAX);
            match judge_complete(prog.node(requested), text, at, b, depth) {
                Some(Ok(end)) => {
                    *pos = end;
                    return Some(self.after());
                }
                Some(Err(block)) => self.ff_block = block,
                None => {}
            }
        }
        let node = if requested == NONE {
            None
        } else {
            let node = prog.node(requested);
            // A plain subschema, or a `$ref` alone to one (as `resolve` has it, without the
            // call).
            let plain = match (node.shape, node.all_of) {
                (shape::PLAIN, _) => node,
                (shape::REF, &[t]) => prog.node(t),
                _ => &Node::ALWAYS,
            };
            if plain.shape == shape::PLAIN && !plain.always {
                Some(plain)
            } else {
                match resolve(prog, requested, bits, 16) {
                    Resolved::Free => None,
                    Resolved::Node(e) => Some(prog.node(e)),
                    Resolved::General if self.depth > 0 => return self.several(prog, requested, b, at, pos),
                    Resolved::Dead | Resolved::General => return None,
                }
            }
        };
        if let Some(node) = node {
            if !first_byte_ok(node, bits, b) {
                return None;
            }
        }
        self.start = at;
        self.node = node;
        match kind {
            Kind::String => {
                if let Some(node) = node {
                    self.narrowed = at + 1;
                    self.cands = node.strings.map_or(0, |s| all_bits(s.len()));
                    match node.pattern.and_then(|(p, _)| p.start()) {
                        Some(start) => {
                            self.dfa = start;
                            self.pdone = false;
                        }
                        None => self.pdone = true,
                    }
                    self.pmatch = false;
                }
                self.chars = 0;
                if *pos == text.len() {
                    // (A fragment that ends at the quote: nothing more to read.)
                    return Some(Tok::Str);
                }
                self.value_string(text, pos)
            }
            Kind::Number => {
                // (Not tried on a fragment that ends at the first byte.)
                if let Some((end, num)) = (*pos < text.len()).then(|| number_at(text, at)).flatten() {
                    // Whole within the text, read and valued in one pass.
                    *pos = end;
                    return self.judge_number(text.get(at..end).unwrap_or_default(), || num);
                }
                self.exp = false;
                self.watch = ExpWatch::OFF;
                let st = match b {
                    b'-' => NumSt::Minus,
                    b'0' => NumSt::Zero,
                    _ => NumSt::Int,
                };
                self.number(text, pos, st)
            }
            Kind::Object | Kind::Array => {
                // A container no subschema speaks of (its keys must still not repeat): the
                // automaton's.
                let object = kind == Kind::Object;
                let node = node?;
                // (An array with `uniqueItems`, not complete within reach: the automaton's,
                // which finds a repeated item where it closes.)
                if object && node.names.len() > 64 {
                    return None;
                }
                if !object && node.unique {
                    if self.uniq.is_some() {
                        return None;
                    }
                    self.uniq = Some(Uniq { level: self.depth, item: 0, pending: false, items: ItemFilter::EMPTY });
                }
                let slot = self.levels.get_mut(self.depth)?;
                *slot = Level { node, start: at, count: 0, object, next: 0, seen: 0 };
                self.depth += 1;
                Some(if object { Tok::ObjFirst } else { Tok::ArrFirst })
            }
            Kind::Bool | Kind::Null => {
                // A literal item of the array with `uniqueItems` being read: compared with the
                // earlier items at its first letter, which decides it.
                if self.in_uniq() && !self.item_done(text, at + 1) {
                    return None;
                }
                let word = match b {
                    b't' => 0,
                    b'f' => 1,
                    _ => 2,
                };
                self.lit = (word, 1);
                Some(Tok::Lit)
            }
        }
    }

    /// A value below the root that several subschemas (`requested`) speak of begins at `at`
    /// with `b` (`pos` is after it). A tagged union's object is read as the object of its
    /// property alone until the property's value picks the branch ([`Quick::pick`]); any other
    /// such value is read by the general automaton, started here, as the lean automaton has it.
    #[inline(never)]
    fn several(&mut self, prog: &'static Program, requested: u16, b: u8, at: usize, pos: &mut usize) -> Option<Tok> {
        if let (b'{', Some(t)) = (b, prog.node(requested).tagged) {
            let slot = self.levels.get_mut(self.depth)?;
            *slot = Level { node: prog.node(t.object), start: at, count: 0, object: true, next: 0, seen: 0 };
            self.tagging = Some((prog, t, requested, self.depth));
            self.depth += 1;
            return Some(Tok::ObjFirst);
        }
        let depth = u32::try_from(self.depth).ok()?;
        self.sub = Some(X::start(prog, requested, at, depth)?);
        *pos = at;
        Some(Tok::Sub)
    }

    /// The number before `end` ended.
    #[inline]
    fn close_number(&mut self, text: &[u8], end: usize) -> Option<Tok> {
        let span = text.get(self.start..end).unwrap_or_default();
        // Beyond the `f64` range is a syntax error, as `serde_json` has it; without an exponent,
        // fewer than 300 characters cannot get there.
        let in_range = (!self.exp && span.len() < 300)
            || std::str::from_utf8(span).is_ok_and(|t| Scanner::new(t).number().is_ok());
        if !in_range {
            return None;
        }
        self.judge_number(span, || number_literal(span))
    }

    /// A number closed (its text: `span`, its value as [`number_literal`] gives it: `num`):
    /// its subschema's verdict, as the automaton's.
    #[inline]
    fn judge_number(&self, span: &[u8], num: impl FnOnce() -> Option<Num>) -> Option<Tok> {
        let after = self.after();
        let Some(node) = self.node else { return Some(after) };
        let kb = Kind::Number.bits();
        (node.scalar & kb == kb || node.number_ok(span, num)).then_some(after)
    }

    /// A string closed (its text: `span`): its subschema's verdict, and the branch it picks if
    /// it is the value of a tagged union's property.
    #[inline(always)]
    fn close_string(&mut self, span: &[u8]) -> Option<Tok> {
        let next = self.close_scalar(Kind::String, span)?;
        if let Some(t) = self.tagging {
            self.pick(t, span)?;
        }
        Some(next)
    }

    /// The value `span` of a tagged union's property closed (one of its strings, the
    /// property the object's first member): the object goes on as the branch whose strings
    /// hold it, if that branch's subschema of the property accepts it (every other branch has
    /// failed on it).
    #[cold]
    #[inline(never)]
    fn pick(&mut self, (prog, t, ..): Tagging, span: &[u8]) -> Option<()> {
        let raw = span.get(1..span.len().saturating_sub(1))?;
        let &(_, node, i) = t.branches.iter().find(|b| b.0.iter().any(|s| s.as_bytes() == raw))?;
        let branch = prog.node(node);
        if !prog.node(*branch.props.get(usize::from(i))?).scan_text(span) {
            return None;
        }
        let l = self.top_mut()?;
        l.node = branch;
        l.seen = 1u64.checked_shl(u32::from(i))?;
        l.next = u16::from(i) + 1;
        self.tagging = None;
        Some(())
    }

    /// A string or literal closed (its text: `span`): its subschema's verdict, as the
    /// automaton's.
    #[inline(always)]
    fn close_scalar(&self, kind: Kind, span: &[u8]) -> Option<Tok> {
        let after = self.after();
        let Some(node) = self.node else { return Some(after) };
        let kb = kind.bits();
        let ok = if node.scalar & kb != kb {
            node.scan_text(span)
        } else if kind == Kind::String && node.pattern.is_some() {
            self.pattern_string_ok(node, span)
        } else if kind == Kind::String {
            // An `enum` string here has no escape and no non-ASCII byte (those were handed
            // over): its text is its value.
            let raw = span.get(1..span.len().saturating_sub(1)).unwrap_or_default();
            self.string_ok(node, raw)
        } else {
            true
        };
        ok.then_some(after)
    }

    /// The verdict on the current string, closed, whose value is `raw` (no escape), but for
    /// its pattern: its length and its `enum` strings.
    #[inline(always)]
    fn string_ok(&self, node: &Node, raw: &[u8]) -> bool {
        self.chars >= node.min_length
            && self.chars <= node.max_length
            && node.strings.is_none_or(|s| s.iter().any(|m| m.as_bytes() == raw))
    }

    /// The verdict on the current string, closed (its text: `span`), which has a `pattern`:
    /// the pattern's automaton stepped over the characters not stepped yet decides it, as the
    /// automata's does, unless it gave up or cannot be read (then the scan function does).
    /// A string here has no escape and no non-ASCII byte (those were handed over).
    #[inline(never)]
    fn pattern_string_ok(&self, node: &Node, span: &[u8]) -> bool {
        let raw = span.get(1..span.len().saturating_sub(1)).unwrap_or_default();
        let rest = raw.get(self.narrowed.saturating_sub(self.start + 1)..).unwrap_or_default();
        let matched = match (node.pattern, self.pdone) {
            (Some(_), true) if self.pmatch => Some(true),
            (Some((p, _)), false) => Self::pattern_at_end(p, self.dfa, rest),
            _ => None,
        };
        match matched {
            Some(m) => m && self.string_ok(node, raw),
            None => node.scan_text(span),
        }
    }

    /// Pattern `p` from automaton state `state` over `rest`, at the subject's end: whether it
    /// matches, `None` where the automaton gives up.
    fn pattern_at_end(p: &Pattern, state: u32, rest: &[u8]) -> Option<bool> {
        match p.step_run(state, rest) {
            (end, Stepped::Live) => Some(p.matches_at_end(end)),
            (_, Stepped::Matched) => Some(true),
            (_, Stepped::Dead) => Some(false),
            (_, Stepped::Unknown) => None,
        }
    }

    /// A `]` or `}` (before `end`) closed the innermost container: its subschema's verdict.
    fn close_container(&mut self, text: &[u8], end: usize) -> Option<Tok> {
        let l = *self.top()?;
        let node = l.node;
        let ok = if node.lookback {
            // Keywords that read the whole value again (`uniqueItems`, `enum` of containers):
            // its scan function, as the automaton does.
            let span = text.get(l.start..end).unwrap_or_default();
            node.scan_text(span)
        } else if l.object {
            let seen = u128::from(l.seen);
            node.required & !seen == 0
                && u64::from(l.count) >= node.min_props
                && node.dep_required.iter().all(|&(k, need)| seen >> k & 1 == 0 || need & !seen == 0)
        } else {
            u64::from(l.count) >= node.min_items
        };
        // (Nothing changed when it fails: the short way reads it again the long way.)
        if !ok {
            return None;
        }
        self.depth -= 1;
        if self.uniq.is_some_and(|u| u.level == self.depth) {
            self.uniq = None;
        }
        Some(self.after())
    }

    /// Whether the innermost open container is the array with `uniqueItems` being read.
    fn in_uniq(&self) -> bool {
        self.uniq.is_some_and(|u| u.level + 1 == self.depth)
    }

    /// A `,` at `at` after an item of the array with `uniqueItems` being read, or the
    /// fragment's end after it (`at`: the text's length): the item (closed before `at`, less the
    /// whitespace after it) compared with the earlier ones, once. `false` when it repeats one:
    /// the automaton finds the death, where the item closed.
    fn item_done(&mut self, text: &[u8], at: usize) -> bool {
        if !self.in_uniq() {
            return true;
        }
        let Some(&Level { start, .. }) = self.top() else { return true };
        let Some(u) = self.uniq.as_mut().filter(|u| u.pending) else { return true };
        u.pending = false;
        // (A literal's text is its word, which its first letter decides: `item_text`.)
        let end = u.item + text.get(u.item..at).unwrap_or_default().trim_ascii_end().len();
        !u.items.repeated(text, start, u.item, end)
    }

    /// The fragment ended after an item of the array with `uniqueItems` being read (and
    /// perhaps whitespace): the item compared now, in the fragment where it closed.
    fn item_cut(&mut self, text: &[u8]) -> bool {
        self.tok != Tok::After || self.item_done(text, text.len())
    }

    /// The fragment ended inside a key or a string: whether a declared name or `enum` string
    /// still continues it, and its characters are within `maxLength`; or inside a number
    /// watched against its `enum`/`const` numbers: whether one is still reachable; or inside an
    /// integer within bounds: whether it may still read as one within them.
    fn cut(&mut self, text: &[u8]) -> bool {
        match self.tok {
            Tok::KeyStr => {
                let Some(&l) = self.top() else { return false };
                let node = l.node;
                self.on_guess = !node.closed;
                self.guess = None;
                if !node.closed {
                    return true;
                }
                // In a closed object, a name declared in `properties` and not yet present.
                let part = text.get(self.start + 1..self.pos).unwrap_or_default();
                let open = |i: usize| l.seen >> i & 1 == 0;
                let next = usize::from(l.next);
                let props = node.names.get(..node.props.len()).unwrap_or_default();
                let expected = props.get(next).map(|n| n.as_bytes());
                let guess = expected.is_some_and(|n| open(next) && n.starts_with(part));
                self.on_guess = guess;
                self.guess = expected;
                guess || props.iter().enumerate().any(|(i, n)| open(i) && n.as_bytes().starts_with(part))
            }
            Tok::Str | Tok::Esc | Tok::Utf8 => {
                let Some(node) = self.node else { return true };
                if self.chars > node.max_length {
                    return false;
                }
                let pattern = node.pattern.filter(|_| !self.pdone);
                if node.strings.is_none() && pattern.is_none() {
                    return true;
                }
                // The characters since the last fragment's end, on the `enum` strings and the
                // pattern's automaton (printable ASCII: escapes and other bytes were handed over).
                let off = (self.narrowed - self.start - 1) as u32;
                let run = text.get(self.narrowed..self.pos).unwrap_or_default();
                self.narrowed = self.pos;
                if node.strings.is_some() {
                    self.cands = narrow_run(node.string_bytes, self.cands, off, run);
                    if self.cands == 0 {
                        return false;
                    }
                }
                if let Some((p, _)) = pattern {
                    let (state, how) = p.step_run(self.dfa, run);
                    self.dfa = state;
                    match how {
                        Stepped::Live => {}
                        Stepped::Dead => return false,
                        Stepped::Matched | Stepped::Unknown => {
                            self.pdone = true;
                            self.pmatch = how == Stepped::Matched;
                        }
                    }
                }
                true
            }
            // A number no member is reachable from any more, or an integer that can no longer
            // read as one within its bounds, is the automaton's, which finds it dead at the byte.
            Tok::Watched => self.node.is_none_or(|n| n.number_may_live(text.get(self.start..).unwrap_or_default())),
            _ => true,
        }
    }
}

/// Whether a number may end in state `st`.
const fn ends(st: NumSt) -> bool {
    matches!(st, NumSt::Zero | NumSt::Int | NumSt::Frac | NumSt::ExpDigits)
}

/// The automaton's checks at a value's first byte `first` (kind `bits`) under `node`, which is
/// plain or `false` (as [`resolve`] gives).
#[inline]
fn first_byte_ok(node: &Node, bits: u8, first: u8) -> bool {
    // (An object with more names required than members allowed: none can be valid.)
    if node.none || node.void & bits != 0 || node.types & bits == 0 || (bits == ty::OBJECT && node.crowded(0, 0, false))
    {
        return false;
    }
    if node.enum_types != 0 {
        let literal = match first {
            b't' => 2,
            b'f' => 4,
            _ => 1,
        };
        if node.enum_types & bits == 0 || (bits & (ty::BOOLEAN | ty::NULL) != 0 && node.literals & literal == 0) {
            return false;
        }
    }
    (first != b'-' || node.negative.is_none())
        && !(bits & ty::NUMBER != 0 && node.integral() && bounds::integral(node.limits, &[first]).is_some())
}
