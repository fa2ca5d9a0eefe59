//! The flat reader: a [`crate::Stream`]'s first reader for a flat tool, the commonest shape of
//! tool arguments: an object (or an array) whose values are scalars (strings, perhaps with a
//! `pattern`, `enum`s of scalars, numbers, booleans, `null`), free values (any JSON value), or
//! objects and arrays of such values in turn, at most 8 deep, each object with at most 64
//! declared names (its undeclared members free, or of one such value, or none; or, with one
//! `patternProperties` entry that none of its names matches, of that entry's value where the
//! pattern matches the name, judged where the name closes, and in a closed object dead at the
//! byte where no declared name continues the name and the pattern can no longer match it; its
//! `propertyNames`' lengths and `pattern` checked at each byte of a name), each array with
//! its `prefixItems` and one `items` (counts, `uniqueItems` and `contains` without `maxContains`
//! allowed, the last judged where the array closes); a value may also be a
//! union of such values that take different kinds (read as the branch its first byte picks), a
//! union of scalars whose kinds overlap (read as one string or number that the union's scan
//! function judges where it ends), or a union of objects (read as one object whose names are all
//! of theirs, the branches still alive followed as names, tags' members and members counted come,
//! a name the branches give different subschemas read as the branches alive give it, and judged
//! where it closes by a rule on the names present and the branches alive). An object's rule on
//! its names may hold an `if` on its values (whose `then` and `else` are `required`s), judged
//! where the object closes on its text by the condition's scan function.
//!
//! Where the quick reader (`quick.rs`) reads any schema from the program's tables, this reader
//! is generic over what the macro emits for the one tool ([`FlatSpec`]): the names' and members'
//! bytes as two table lookups, each value's first-byte checks, bounds and lengths, each object's
//! and array's counts as constants, so that once compiled for the tool its events are a few
//! instructions (a value's first byte, a number's end with its bounds) where the quick reader
//! looks them up. It keeps one state per place where the text may end, the innermost container
//! at hand and those around it on a stack the macro sizes. It reads a fragment of one byte, or of
//! a few, byte by byte with its events behind calls (that code is inlined into the caller's
//! loop); a longer fragment it reads in its own loop with the events inlined, a key's, an `enum`
//! string's or a number's bytes in one inner loop and a free string's plain characters at once
//! (a dispatch on the state per byte cost more time than its instructions said).
//!
//! Names and `enum` strings beyond ASCII are compared on their raw UTF-8 bytes, and their escapes
//! on the characters they decode to, narrowed where the automaton narrows them; a `pattern`
//! string's bytes, and those of the characters its escapes decode to, are stepped on the
//! pattern's automaton, which is over UTF-8's bytes.
//!
//! Its contract is the quick reader's: it only ever answers "alive for certain". Whatever it does
//! not read itself (a key no declared name continues in a closed object, a character beyond
//! ASCII in a string whose `pattern` is one set of characters per offset, an escape or a
//! non-ASCII byte in an `enum` string with a `minLength` or a `maxLength`, a value of a kind its
//! property does not take, a union of objects' name to which the branches alive give different
//! subschemas, or its value that fails the subschema its name has where an open branch takes it,
//! a free value nested deeper than its stack, and any death, a repeated key's included) ends its
//! reading, and the automaton reads the whole text so far, once, and answers from there. Every
//! death the automaton would find in a fragment makes this reader stop in that fragment (tested
//! feed by feed against the automaton alone).

use std::fmt;

use crate::pattern::{unit_range, Pattern, Stepped};
use crate::text::{hash_text, key_before, ItemFilter, Num, Scanner, Str};

use super::bounds::{self, Bound, Multiple};
use super::lean::{judge_complete, WINDOW};
use super::machine::{hex, is_plain, is_ws, literal_value, plain_end, utf8_lead, ExpStep, ExpWatch, NumSt};
use super::members::{self, NumMember};
use super::program::{crowded, Program};
use super::Reader;

/// How a property's value that begins with a given byte is read ([`FlatSpec::start`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A string of at most `max` characters; `members`: the bits of the `enum` strings it may
    /// be (0: any string).
    Str {
        /// the `enum`'s strings, as bits (0: no `enum`)
        members: u64,
        /// `maxLength`
        max: u64,
    },
    /// A string of at most `max` characters whose `pattern` accepts the strings of one length
    /// whose characters are in one set per offset (`^[A-Z]{3}-[0-9]{4}$`): `masks[i]`, the
    /// ASCII characters allowed at offset `i` (bit `c` for character `c`).
    Fixed {
        /// one set per offset
        masks: &'static [u128],
        /// `maxLength`
        max: u64,
    },
    /// A string of at most `max` characters with a `pattern` ([`FlatSpec::pattern`]).
    Pattern {
        /// `maxLength`
        max: u64,
    },
    /// A number; `minus`: whether it may begin with `-` (a `minimum` above 0 or an
    /// `exclusiveMinimum` of 0 or more says no).
    Number {
        /// a leading `-` leaves it alive
        minus: bool,
        /// it is watched at each of its bytes against its `enum`/`const` numbers
        /// ([`FlatSpec::numbers`])
        members: bool,
        /// an integer within bounds ([`FlatSpec::integral`]): the count of digits from which its
        /// mantissa may break them (fewer make a value below the bound on its sign's side), and
        /// is checked (`u8::MAX`: never; where: `FlatReader::integral_ok`)
        integral: u8,
    },
    /// `true`, `false` or `null`, allowed.
    Literal(&'static [u8]),
    /// An object, read by [`FlatSpec::object`]`(o)`.
    Object(u32),
    /// An array, read by [`FlatSpec::array`]`(a)`.
    Array(u32),
    /// Read as value `q` (the branch of a union whose values of this kind it takes).
    Via(u32),
    /// Not read here: the automaton reads it (a kind the property does not take is dead there).
    Hand,
}

/// An object's keywords, as the flat reader reads them ([`FlatSpec::object`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Object {
    /// Every declared name, as bits (in the order `properties` declares them).
    pub names: u64,
    /// `required`, as bits over the names.
    pub required: u64,
    /// `additionalProperties: false`, and no `patternProperties`: the object takes no name it
    /// does not declare.
    pub closed: bool,
    /// `minProperties` (0 when absent).
    pub min: u64,
    /// `maxProperties` (`u64::MAX` when absent).
    pub max: u64,
    /// The value number of the first declared property (the others follow it in order).
    pub first: u32,
    /// The value number of a member whose name is not declared ([`NONE`]: the object is closed,
    /// and such a member is the automaton's, which finds it dead).
    pub extra: u32,
    /// A union of objects' object ([`FlatSpec::branch_of`]): its branches, as bits (0: any other
    /// object).
    pub branches: u16,
    /// Those of its branches that take undeclared names (`additionalProperties` not `false`).
    pub open: u16,
}

impl Object {
    /// Whether `count` members (the last one `promised`, its name not read yet), with the names
    /// `seen` present, leave no room within `maxProperties` for the `required` names still
    /// missing (as the automaton's `Node::crowded`).
    #[inline]
    fn crowded(&self, count: u64, seen: u64, promised: bool) -> bool {
        crowded((self.required & !seen).count_ones(), self.max, count, promised)
    }
}

/// One branch of a union of objects, as the flat reader reads it ([`FlatSpec::branch_of`]). The
/// union is read as one object whose names are all of its branches' (a name two branches
/// declare with different subschemas is a tag, `enum`s or `const`s of strings, or is read as the
/// branches alive give it); which branches are still alive is kept as the object is read,
/// narrowed by each name (a closed branch that does not declare it dies), each tag's value and
/// each member counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// The names it takes, as bits over the union's names (all of them when it is open).
    pub takes: u64,
    /// Its `required` names, as bits over the union's names.
    pub required: u64,
    /// Its `minProperties` (0 when absent).
    pub min: u64,
    /// Its `maxProperties` (`u64::MAX` when absent).
    pub max: u64,
}

/// No value ([`Object::extra`]).
pub const NONE: u32 = u32::MAX;

/// How many times the flat reader reads an object's text again to tell whether an undeclared
/// name repeats one (when the name's filter bits are all set): past that, the automaton reads.
const RESCANS: u8 = 8;

/// An array's keywords, as the flat reader reads them ([`FlatSpec::array`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Array {
    /// `minItems` (0 when absent).
    pub min: u64,
    /// `maxItems` (`u64::MAX` when absent).
    pub max: u64,
    /// The value number of `items` (after the `prefixItems`, if any).
    pub item: u32,
    /// How many `prefixItems` it has.
    pub prefix: u32,
    /// The value number of its first `prefixItems` value (the others follow it in order).
    pub first: u32,
    /// `uniqueItems`: the closed array is judged by [`FlatSpec::array_end`] (unless its items
    /// are strings told apart as they come).
    pub unique: bool,
    /// `contains` (without `maxContains`): the closed array is judged by
    /// [`FlatSpec::array_end`].
    pub contains: bool,
}

impl Array {
    /// The value number of item `i` (counted from 0).
    #[inline(always)]
    fn item(&self, i: u64) -> u32 {
        match u32::try_from(i) {
            Ok(i) if i < self.prefix => self.first + i,
            _ => self.item,
        }
    }
}

/// A container being read: the innermost one, or one around it kept while a value inside it is
/// read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Frame {
    /// its object's or array's number
    cont: u32,
    /// whether it is an array
    arr: bool,
    /// an object's: how many times an undeclared name's filter hit sent the reader to the
    /// object's text; an array's: not 0 once an item may repeat another (its scan function then
    /// judges `uniqueItems`)
    hits: u8,
    /// a union of objects' branches still alive ([`Object::branches`]; 0 for any other container)
    live: u16,
    /// the names present (an object's)
    seen: u64,
    /// the hashes of the undeclared names present (an object's), or of the items (an array's
    /// with `uniqueItems`), a bit or two each: a name whose bits are all set already is looked
    /// for in the object's text; such an item leaves `uniqueItems` to the array's scan function
    keys: u64,
    /// the members or items begun
    count: u64,
    /// where it began
    open: usize,
}

/// What the macro emits for a flat tool (see the module's documentation). Not public API.
///
/// The values the reader may meet are numbered: 0 the root, then each object's declared
/// properties in a row (in the order `properties` declares them, their names bits of a `u64` in
/// that order), and each array's `items`. Objects and arrays are numbered apart.
pub trait FlatSpec: 'static {
    /// The enclosing containers of the deepest value, less the innermost (which the reader
    /// keeps at hand): `[Frame; depth - 1]`.
    type Stack: Copy + Default + fmt::Debug + AsMut<[Frame]> + AsRef<[Frame]> + Send + Sync + 'static;
    /// Object `o`'s keywords.
    fn object(o: u32) -> Object;
    /// Array `a`'s keywords.
    fn array(a: u32) -> Array;
    /// The names of object `o` that have byte `b` at byte offset `off`.
    fn name_byte(o: u32, off: usize, b: u8) -> u64;
    /// The names of object `o` that have byte `b`, a byte of a multi-byte character, at byte
    /// offset `off` (the reader compares a name's raw UTF-8 bytes with its own: a name written
    /// with escapes is the automaton's).
    fn name_other(o: u32, off: usize, b: u8) -> u64;
    /// The names of object `o` that are `len` bytes long.
    fn name_len(o: u32, len: usize) -> u64;
    /// Value `p` takes nothing (`false`): a member read as it is not allowed, whatever follows
    /// its key (the automaton's, which finds it dead where the key closes).
    fn never(p: u32) -> bool;
    /// Object `o`'s `i`th declared name.
    fn name(o: u32, i: u32) -> &'static str;
    /// How value `p`'s text beginning with `b` is read.
    fn start(p: u32, b: u8) -> Start;
    /// Whether some value is a union of branches that take different kinds ([`Start::Via`]).
    const UNIONS: bool;
    /// Value `p`'s `pattern`, when it has one.
    fn pattern(p: u32) -> Option<&'static Pattern>;
    /// Object `o`'s one `patternProperties` entry, when it has one: its pattern, and the value
    /// number of a member whose undeclared name the pattern matches.
    fn key_pattern(o: u32) -> Option<(&'static Pattern, u32)>;
    /// Object `o`'s `propertyNames`, when they say something of a name: their `pattern`, their
    /// `minLength` and their `maxLength`; or, for an object closed beside its `patternProperties`
    /// entry, that entry's pattern and no lengths (its death leaves only the declared names).
    fn key_names(o: u32) -> Option<(Option<&'static Pattern>, u64, u64)>;
    /// The value read for a name (its value `p`) of the union of objects around it, its
    /// branches `live` alive that take the name: `p` itself, or, when the branches that declare
    /// it give it different subschemas, the one those alive give it ([`NONE`] when they give it
    /// several: the automaton reads it).
    fn variant(p: u32, live: u16) -> u32;
    /// Whether some object is a union of objects' ([`Object::branches`]).
    const LIVE: bool;
    /// Branch `b` of the union of objects whose object is `o`.
    fn branch_of(o: u32, b: u32) -> Branch;
    /// The branches of the union of objects around it that member `m` of tag value `p` leaves
    /// alive (all of them when `p` is no such tag).
    fn picks(p: u32, m: u32) -> u16;
    /// The members of tag value `p` that branch `b` of the union of objects around it takes
    /// (all of them when `p` is no such tag).
    fn tag_members(p: u32, b: u32) -> u64;
    /// The `enum` strings of property `p` that have byte `b` at offset `off`.
    fn member_byte(p: u32, off: usize, b: u8) -> u64;
    /// The `enum` strings of property `p` that have byte `b`, a byte of a multi-byte character,
    /// at offset `off` (none when property `p`'s string has a `minLength` or a `maxLength`,
    /// which count characters where the reader counts an `enum` string's bytes).
    fn member_other(p: u32, off: usize, b: u8) -> u64;
    /// Property `p`'s `i`th `enum` string, where an escape in its value is read (none when its
    /// string has a `minLength` or a `maxLength`: the automaton reads the escape).
    fn member(p: u32, i: u32) -> Option<&'static str>;
    /// The `enum` strings of property `p` that are `len` bytes long.
    fn member_len(p: u32, len: usize) -> u64;
    /// The verdict on property `p`'s string value, closed: `chars` characters, its text `span`
    /// (quotes included), its `enum` and `maxLength` already checked.
    fn string_end(p: u32, chars: u64, span: &[u8]) -> bool;
    /// The verdict on property `p`'s number value, closed: its text `span` and, when it has no
    /// exponent and is short, its value `num`.
    fn number_end(p: u32, span: &[u8], num: Option<Num>) -> bool;
    /// The numbers of value `p`'s `enum` or `const` (of a union of lists, all its branches'),
    /// against which a number is watched at each of its bytes, as the automaton watches it
    /// ([`members::reachable`]); empty when it is not watched.
    fn numbers(p: u32) -> &'static [NumMember];
    /// The bounds of value `p`'s number, against which it is judged where its exponent settles
    /// them, as the automaton judges it ([`bounds::outgrown`]); empty when it has none.
    fn limits(p: u32) -> &'static [Bound];
    /// The `multipleOf` of value `p`'s number, against which it is judged where its exponent
    /// settles it, as the automaton judges it ([`bounds::indivisible`]).
    fn multiple(p: u32) -> Option<Multiple>;
    /// The bounds of value `p`'s number where it must be an integer, against which its mantissa
    /// is watched at each byte, as the automaton watches it ([`bounds::integral`]); empty
    /// otherwise.
    fn integral(p: u32) -> &'static [Bound];
    /// The verdict on array `a` with `uniqueItems`, closed: its text `span` (brackets
    /// included), its items and counts already checked.
    fn array_end(a: u32, span: &[u8]) -> bool;
    /// Whether some object has a rule on its names ([`FlatSpec::names_end`]).
    const RULES: bool;
    /// Whether the automaton may kill a subschema mid-number, because another (a `not`'s, a
    /// `oneOf`'s second branch) is sure of the number once its exponent settled that one's
    /// keywords for numbers: then a number is handed over at the bytes of its exponent that move
    /// it.
    const SETTLES: bool;
    /// The verdict of object `o`'s rule on its names, closed with the names `seen` present:
    /// what its `dependentRequired`, and its `dependentSchemas`, `not`, `allOf`, `anyOf`, `oneOf`
    /// and `if`/`then`/`else` of `required`s, say (an `if` on its values judged on its text `span`,
    /// braces included, by the condition's scan function); a union of objects', which of its
    /// branches `live` (those alive where it closes) holds the object (written with [`rule`]'s
    /// functions; `true` for an object without one).
    fn names_end(o: u32, seen: u64, live: u64, span: &[u8]) -> bool;
    /// Whether some object's rule on its names may die before the object closes
    /// ([`FlatSpec::names_dead`]).
    const PRESENT: bool;
    /// Whether object `o`'s rule on its names is dead with the names `seen` present, whatever
    /// members follow, as the automaton finds it where the object opens and where a key closes:
    /// a `oneOf` with two branches that ask only for names present, a `not` of such a branch, an
    /// `if` of one whose `then` is dead (written with [`rule`]'s functions). The reader then
    /// hands the text to the automaton, which finds the death at the same byte.
    fn names_dead(o: u32, seen: u64) -> bool;
}

/// The pieces of a rule on an object's names ([`FlatSpec::names_end`]), for its emitted code.
pub mod rule {
    /// Every name of `names` (bits) is among `seen`.
    #[must_use]
    #[inline(always)]
    pub fn has(seen: u64, names: u64) -> bool {
        seen & names == names
    }

    /// Every one of `rules` holds (`allOf`).
    #[must_use]
    #[inline(always)]
    pub fn all(rules: &[bool]) -> bool {
        rules.iter().all(|&r| r)
    }

    /// One of `rules` holds at least (`anyOf`).
    #[must_use]
    #[inline(always)]
    pub fn any(rules: &[bool]) -> bool {
        rules.iter().any(|&r| r)
    }

    /// Exactly one of `rules` holds (`oneOf`).
    #[must_use]
    #[inline(always)]
    pub fn one(rules: &[bool]) -> bool {
        rules.iter().filter(|&&r| r).count() == 1
    }

    /// Two of `rules` hold at least (a `oneOf` that two branches are sure of).
    #[must_use]
    #[inline(always)]
    pub fn two(rules: &[bool]) -> bool {
        rules.iter().filter(|&&r| r).nth(1).is_some()
    }

    /// A `oneOf` whose branches each ask only for names (`branches`, bits) can no longer hold
    /// for an object with the names `seen`: whichever branch it goes on to satisfy, the names
    /// that one needs and those present make another satisfied too (the automaton's `cornered`).
    #[must_use]
    pub fn cornered(seen: u64, branches: &[u64]) -> bool {
        branches
            .iter()
            .enumerate()
            .all(|(i, &b)| branches.iter().enumerate().any(|(j, &c)| i != j && c & !(seen | b) == 0))
    }

    /// `rule` does not hold (`not`).
    #[must_use]
    #[inline(always)]
    pub fn not(rule: bool) -> bool {
        !rule
    }

    /// `then` if `cond` holds, else `otherwise` (`if`/`then`/`else`).
    #[must_use]
    #[inline(always)]
    pub fn when(cond: bool, then: bool, otherwise: bool) -> bool {
        if cond {
            then
        } else {
            otherwise
        }
    }
}

/// A subschema's verdict on one value's text by its scan function (for [`FlatSpec`]'s
/// emitted code).
#[must_use]
pub fn scan_span(scan: fn(&mut Scanner<'_>) -> crate::text::Step, span: &[u8]) -> bool {
    std::str::from_utf8(span).is_ok_and(|t| scan(&mut Scanner::new(t)).is_ok())
}

/// Whether a free value's number text (any JSON value's: no keyword to judge it by) is one
/// `is_valid_json` reads (not beyond the `f64` range), by the scan (for [`FlatSpec`]'s emitted
/// code, where the number has an exponent or is long).
#[must_use]
pub fn free_number(span: &[u8]) -> bool {
    scan_span(|sc| sc.skip_value(), span)
}

/// The end of the root beginning with `b` at `at`, when it is complete in `text` and valid (out
/// of line: met once a text, its setup stays out of the long way's loop).
#[inline(never)]
fn root_complete(prog: &'static Program, text: &[u8], at: usize, b: u8) -> Option<usize> {
    judge_complete(prog.node(prog.root), text, at, b, 0)?.ok()
}

/// The name a quoted key (`quoted`, its quotes included) decodes to.
#[cold]
#[inline(never)]
fn decoded(quoted: &[u8]) -> Option<Str<'_>> {
    Scanner::new(std::str::from_utf8(quoted).ok()?).string().ok()
}

/// Whether pattern `p` matches a key: its bytes `raw`, or the name it decodes to when it has
/// escapes (`escaped`). Once per key, where it closes.
#[cold]
#[inline(never)]
fn pattern_matches(p: &Pattern, raw: &[u8], escaped: Option<&Str<'_>>) -> bool {
    match escaped {
        Some(key) => p.is_match_chars(key.chars()),
        None => std::str::from_utf8(raw).is_ok_and(|k| p.is_match(k)),
    }
}

/// Whether plain byte `b` is in the set at offset `off` of a [`Start::Fixed`] string.
#[inline(always)]
fn in_set(masks: &[u128], off: u64, b: u8) -> bool {
    usize::try_from(off).ok().and_then(|i| masks.get(i)).is_some_and(|m| m >> (b & 127) & 1 != 0)
}

/// The first byte at or after `i` that is not whitespace (or the text's end).
#[inline(always)]
fn skip_ws(text: &[u8], mut i: usize) -> usize {
    while text.get(i).is_some_and(|&b| is_ws(b)) {
        i += 1;
    }
    i
}

/// A `pattern`'s automaton that matched whatever follows ([`FlatReader`]'s `cand`; its states
/// are `u32`s).
const MATCHED: u64 = u64::MAX;

/// The pattern's automaton of a closed object's `patternProperties` entry died on the key
/// ([`FlatReader`]'s `sig` under [`Esc::Named`]): only a declared name may still continue it.
const KEY_DEAD: u64 = u64::MAX - 1;

/// Where the text stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// before the root
    Start,
    /// after `{`
    First,
    /// after `[`
    ArrFirst,
    /// after a `,`: a key next
    Comma,
    /// in a key
    Key,
    /// after a key: its `:` next
    Colon,
    /// after a `:`: the value next
    Value,
    /// in a string value whose characters are counted
    Str,
    /// in a string value that must be one of the `enum` strings `cand`
    Enum,
    /// in a string value with a `pattern`
    Pat,
    /// in a string value whose `pattern` is one set of characters per offset (`fixed`)
    Fixed,
    /// in a string value's escape (where: [`Esc`])
    Esc,
    /// in an escape of an `enum` string, or of a key (where: [`Esc`])
    EnumEsc,
    KeyEsc,
    /// in an escape of a string with a `pattern`, or of a `fixed` one (where: [`Esc`])
    PatEsc,
    FixedEsc,
    /// in a string value's multi-byte character
    Utf8,
    /// in a number: after its `-`, its leading `0`, in its integer digits, after its `.`, in its
    /// fraction digits, after its `e`, after the exponent's sign, in the exponent's digits
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
    /// in a number watched against its `enum`/`const` numbers, its state in `wst`: each of its
    /// bytes read out of line ([`FlatReader::watched`])
    Watched,
    /// in a literal
    Lit,
    /// after a member's or an item's value: `,`, or the container's end, next
    After,
    /// after the root
    Done,
}

/// Where an escape stands (after its backslash), as the quick reader has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// the backslash read
    Start,
    /// `\u` and `n` hex digits (value `acc`)
    Hex(u8, u16),
    /// a high surrogate read: its low half's `\` next
    LowBs,
    /// its low half's `u` next
    LowU,
    /// its low half's hex digits
    LowHex(u8, u16),
    /// not in an escape: in a key under `propertyNames`, read in [`St::KeyEsc`] (out of line)
    /// by [`FlatReader::key_named`]
    Named,
}

/// What a byte after an escape's backslash did.
enum EscStep {
    /// the escape goes on
    More,
    /// a hex digit of a `\u` escape: the UTF-16 unit's digits so far (their value, their count,
    /// and the high surrogate before a low one; a whole high surrogate's four too)
    Unit(u16, u8, Option<u16>),
    /// the escape's character, decoded
    Char(u32),
    /// no escape continues so
    Bad,
}

/// The flat reader's state for the tool whose [`FlatSpec`] is `S`.
pub struct FlatReader<S: FlatSpec> {
    /// still reading (`false`: handed over to the automaton); while it reads, it has read all of
    /// the text (it keeps no position of its own)
    on: bool,
    st: St,
    /// the value next or being read
    prop: u32,
    /// the candidate names (in a key) or `enum` strings (in a string); in a string with a
    /// `pattern`, its automaton's state ([`MATCHED`] once it matched whatever follows: then it is
    /// stepped no more)
    cand: u64,
    /// bytes of the key, characters of the string, so far
    off: u64,
    /// the string's `maxLength`; in a key under `propertyNames`, its characters so far (a key
    /// has no `maxLength` of its own: the field is free there)
    max: u64,
    /// the innermost container
    inner: Frame,
    /// the containers open, and those around the innermost
    depth: u8,
    stack: S::Stack,
    /// where the current value began
    start: usize,
    /// the current literal and the bytes of it read
    lit: (&'static [u8], u8),
    /// the current string's sets of characters per offset ([`Start::Fixed`])
    fixed: &'static [u128],
    /// the current number: its sign, its digits' value, their count, the count before its
    /// point, whether it has an exponent (`sig`: also the high surrogate of an escape's pair; in
    /// a key under `propertyNames`, their pattern's automaton state, [`MATCHED`] once it matched
    /// whatever follows: the fields a key leaves free, so that the state keeps its size)
    neg: bool,
    /// ([`Start::Number`]'s `integral`)
    integral: u8,
    sig: u64,
    digits: usize,
    point: Option<usize>,
    exp: bool,
    /// the current number's exponent, watched for the `f64` range
    watch: ExpWatch,
    /// in [`St::Watched`]: the state of the number watched
    wst: St,
    /// the current escape, and the current multi-byte character (continuation bytes due, the
    /// range of the next)
    esc: Esc,
    utf: (u8, u8, u8),
    /// the current key has an escape (its bytes are not the decoded name's)
    key_esc: bool,
    spec: std::marker::PhantomData<fn() -> S>,
}

impl<S: FlatSpec> Clone for FlatReader<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: FlatSpec> Copy for FlatReader<S> {}

impl<S: FlatSpec> fmt::Debug for FlatReader<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatReader").field("on", &self.on).field("st", &self.st).finish_non_exhaustive()
    }
}

impl<S: FlatSpec> FlatReader<S> {
    /// One byte `b`, at `*at` in `text`: whether the text is still alive for certain. `LONG`:
    /// the rest of the fragment follows in `text`, and the bytes that only go on the same token
    /// (a key's, an `enum` string's, a number's digits, a free string's plain characters) are read
    /// with it, `*at` left on the last of them.
    #[inline(always)]
    fn step<const LONG: bool>(&mut self, prog: &'static Program, text: &[u8], b: u8, at: &mut usize) -> bool {
        match self.st {
            St::Str if is_plain(b) => {
                if LONG {
                    let end = plain_end(text, *at + 1);
                    self.off += (end - *at) as u64;
                    // Its closing quote, with it.
                    if text.get(end) == Some(&b'"') && self.off <= self.max {
                        *at = end;
                        return self.string_rare(text, b'"', end);
                    }
                    *at = end - 1;
                } else {
                    self.off += 1;
                }
                self.off <= self.max
            }
            St::Key if is_plain(b) => {
                // With the whole key in the fragment: the candidates of its length; one is
                // compared whole, several byte by byte.
                if LONG && self.off == 0 {
                    let end = plain_end(text, *at + 1);
                    if text.get(end) == Some(&b'"') {
                        let raw = text.get(*at..end).unwrap_or_default();
                        let mut cand = self.cand & S::name_len(self.inner.cont, raw.len());
                        if cand & cand.wrapping_sub(1) == 0 {
                            if cand != 0 && S::name(self.inner.cont, cand.trailing_zeros()).as_bytes() != raw {
                                cand = 0;
                            }
                        } else {
                            for (i, &n) in raw.iter().enumerate() {
                                cand &= S::name_byte(self.inner.cont, i, n);
                            }
                        }
                        (self.cand, self.off) = (cand, raw.len() as u64);
                        // Its closing quote, and the `:` after it, with it.
                        *at = end;
                        return self.close_key(text, end) && self.colon(text, at);
                    }
                }
                let mut cand =
                    self.cand & S::name_byte(self.inner.cont, usize::try_from(self.off).unwrap_or(usize::MAX), b);
                let mut off = self.off + 1;
                // With the rest of the fragment at hand, the key's plain bytes in one loop.
                while LONG && cand != 0 {
                    let Some(&n) = text.get(*at + 1).filter(|&&n| is_plain(n)) else { break };
                    cand &= S::name_byte(self.inner.cont, usize::try_from(off).unwrap_or(usize::MAX), n);
                    off += 1;
                    *at += 1;
                }
                // An undeclared name's plain bytes, at once.
                if LONG && cand == 0 {
                    *at = plain_end(text, *at + 1) - 1;
                }
                (self.cand, self.off) = (cand, off);
                self.key_alive(cand)
            }
            St::Fixed if is_plain(b) => {
                let mut ok = in_set(self.fixed, self.off, b);
                let mut off = self.off + 1;
                if LONG {
                    while ok {
                        let Some(&n) = text.get(*at + 1).filter(|&&n| is_plain(n)) else { break };
                        ok = in_set(self.fixed, off, n);
                        off += 1;
                        *at += 1;
                    }
                }
                self.off = off;
                ok && off <= self.max
            }
            St::Int | St::Frac if b.is_ascii_digit() => {
                let mut sig = self.sig.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
                let mut digits = self.digits + 1;
                if LONG {
                    while let Some(&n) = text.get(*at + 1).filter(|n| n.is_ascii_digit()) {
                        sig = sig.wrapping_mul(10).wrapping_add(u64::from(n - b'0'));
                        digits += 1;
                        *at += 1;
                    }
                    // The byte after its digits (its point, its exponent, or its end), with them.
                    if let Some(&n) = text.get(*at + 1) {
                        (self.sig, self.digits) = (sig, digits);
                        *at += 1;
                        return self.number::<true>(text, n, *at);
                    }
                    // (Where the fragment ends: an integer's mantissa is checked in `read`.)
                }
                (self.sig, self.digits) = (sig, digits);
                LONG || self.integral_ok(text, *at)
            }
            // The events: inlined into the long way, behind a call on the one-byte way (which is
            // inlined into the caller's loop).
            St::Enum if is_plain(b) => {
                if LONG {
                    self.member_byte::<true>(text, b, at)
                } else {
                    self.out(text, b, *at, |r, text, b, at| r.member_byte::<false>(text, b, &mut { at }))
                }
            }
            St::Pat => {
                if LONG {
                    self.pattern_byte::<true>(text, b, at)
                } else {
                    self.out(text, b, *at, |r, text, b, at| r.pattern_byte::<false>(text, b, &mut { at }))
                }
            }
            St::Str | St::Enum | St::Fixed | St::Esc | St::Utf8 | St::EnumEsc | St::PatEsc | St::FixedEsc => {
                if LONG {
                    self.string_rare(text, b, *at)
                } else {
                    self.out(text, b, *at, Self::string_rare)
                }
            }
            St::Key => {
                if b == b'"' {
                    if LONG {
                        self.close_key(text, *at) && self.colon(text, at)
                    } else {
                        self.out(text, b, *at, |r, text, _, at| r.close_key(text, at))
                    }
                } else {
                    self.key_other(b)
                }
            }
            St::KeyEsc => self.out(text, b, *at, Self::key_escaped),
            St::Int | St::Frac | St::Minus | St::Zero | St::Dot | St::E | St::ESign | St::Exp => {
                if LONG {
                    self.number::<true>(text, b, *at)
                } else {
                    self.out(text, b, *at, Self::number::<false>)
                }
            }
            St::Watched => self.watched(text, b, *at),
            St::Value => is_ws(b) || if LONG { self.value(text, b, *at) } else { self.out(text, b, *at, Self::value) },
            St::Lit => {
                if LONG {
                    self.literal(b)
                } else {
                    self.out(text, b, *at, |r, _, b, _| r.literal(b))
                }
            }
            St::After => {
                if LONG && b == b',' {
                    self.comma(text, at)
                } else {
                    self.after::<LONG>(text, b, *at)
                }
            }
            St::Comma => match b {
                b'"' => self.key(*at),
                _ => is_ws(b),
            },
            St::Colon => match b {
                b':' => {
                    self.st = St::Value;
                    true
                }
                _ => is_ws(b),
            },
            St::First => match b {
                b'"' => self.promise() && self.key(*at),
                b'}' => {
                    if LONG {
                        self.close(text, b, *at)
                    } else {
                        self.out(text, b, *at, Self::close)
                    }
                }
                _ => is_ws(b),
            },
            St::ArrFirst => {
                is_ws(b) || if LONG { self.first_item(text, b, *at) } else { self.out(text, b, *at, Self::first_item) }
            }
            St::Start => {
                if is_ws(b) {
                    return true;
                }
                // The whole root within reach (the rest of the text within the window, so that a
                // long reply is not tried in vain): judged at once by its scan function, as the
                // quick reader and the lean automaton have it.
                if LONG && text.len() - *at <= WINDOW {
                    if let Some(end) = root_complete(prog, text, *at, b) {
                        *at = end - 1;
                        self.st = St::Done;
                        return true;
                    }
                }
                self.value(text, b, *at)
            }
            St::Done => is_ws(b),
        }
    }

    /// `event` behind a call (the one-byte way keeps its events out of the caller's loop).
    #[inline(never)]
    fn out(&mut self, text: &[u8], b: u8, at: usize, event: impl FnOnce(&mut Self, &[u8], u8, usize) -> bool) -> bool {
        event(self, text, b, at)
    }

    /// A byte (at `at`) after a member's or an item's value: `,`, the container's end, or
    /// whitespace.
    #[inline(always)]
    fn after<const LONG: bool>(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        match b {
            b',' if self.inner.arr => self.next_item(),
            b',' => {
                self.st = St::Comma;
                self.promise()
            }
            b'}' | b']' => {
                if LONG {
                    self.close(text, b, at)
                } else {
                    self.out(text, b, at, Self::close)
                }
            }
            _ => is_ws(b),
        }
    }

    /// After a key's closing quote (at `*at`), with the rest of the fragment at hand: the
    /// whitespace and the `:` after it, each of which only keeps the text alive, and the value's
    /// first byte after them, read with it (`*at` left on the last of them; a byte that is
    /// neither is read in its turn).
    #[inline(always)]
    fn colon(&mut self, text: &[u8], at: &mut usize) -> bool {
        let mut i = skip_ws(text, *at + 1);
        if text.get(i) == Some(&b':') {
            self.st = St::Value;
            i = skip_ws(text, i + 1);
            if let Some(&b) = text.get(i) {
                *at = i;
                return self.value(text, b, i);
            }
        }
        *at = i - 1;
        true
    }

    /// A `,` (at `*at`) after a member's or an item's value, with the rest of the fragment at
    /// hand: the whitespace after it, and a member's key's opening quote, read with it.
    #[inline(always)]
    fn comma(&mut self, text: &[u8], at: &mut usize) -> bool {
        if !self.after::<true>(text, b',', *at) {
            return false;
        }
        let i = skip_ws(text, *at + 1);
        if !self.inner.arr && text.get(i) == Some(&b'"') {
            *at = i;
            return self.key(i);
        }
        *at = i - 1;
        true
    }

    /// A member is promised (a `,`, or the first key's quote): the count limits.
    #[inline]
    fn promise(&mut self) -> bool {
        let o = S::object(self.inner.cont);
        self.inner.count += 1;
        self.inner.count <= o.max
            && !o.crowded(self.inner.count, self.inner.seen, true)
            && !(o.closed && o.names & !self.inner.seen == 0)
            && (!S::LIVE || self.inner.live == 0 || {
                let f = &mut self.inner;
                f.live = Self::live_promise(f.cont, f.live, f.count, f.seen);
                f.live != 0
            })
    }

    /// A member promised in a union of objects' object `cont`, its branches `live` alive, the
    /// `count`th with the names `seen` present: the branches alive that take one more (within
    /// their `maxProperties`, open or with a name not present yet).
    #[inline(never)]
    fn live_promise(cont: u32, live: u16, count: u64, seen: u64) -> u16 {
        let open = S::object(cont).open;
        Self::live_where(cont, live, |i, b| {
            count <= b.max
                && !crowded((b.required & !seen).count_ones(), b.max, count, true)
                && (open >> i & 1 != 0 || b.takes & !seen != 0)
        })
    }

    /// The branches of `live` (of the union of objects whose object is `cont`) that `keep`
    /// (given each branch's number and keywords).
    #[inline(always)]
    fn live_where(cont: u32, live: u16, keep: impl Fn(u32, Branch) -> bool) -> u16 {
        let (mut kept, mut left) = (live, live);
        while left != 0 {
            let i = left.trailing_zeros();
            left &= left - 1;
            if !keep(i, S::branch_of(cont, i)) {
                kept &= !(1 << i);
            }
        }
        kept
    }

    /// The branches of `live` (of the union of objects whose object is `cont`) that take the
    /// name of bit `bit`, the `count`th member, with the names `seen` (that one among them)
    /// present: those that leave room for the names they still require.
    #[inline(never)]
    fn live_name(cont: u32, live: u16, bit: u64, count: u64, seen: u64) -> u16 {
        Self::live_where(cont, live, |_, b| {
            b.takes & bit != 0 && !crowded((b.required & !seen).count_ones(), b.max, count, false)
        })
    }

    /// The bits `each` gives the branches of `live`, together.
    #[inline(always)]
    fn live_union(live: u16, each: impl Fn(u32) -> u64) -> u64 {
        let (mut all, mut left) = (0, live);
        while left != 0 {
            all |= each(left.trailing_zeros());
            left &= left - 1;
        }
        all
    }

    /// The names the branches `live` of the union of objects whose object is `cont` take.
    #[inline(never)]
    fn live_takes(cont: u32, live: u16) -> u64 {
        Self::live_union(live, |b| S::branch_of(cont, b).takes)
    }

    /// The members of value `p` (a tag of a union of objects) that its branches `live` take.
    #[inline(never)]
    fn live_tag_members(p: u32, live: u16) -> u64 {
        Self::live_union(live, |b| S::tag_members(p, b))
    }

    /// The branches of `live` (of the union of objects whose object is `cont`, closing with
    /// `count` members) that hold that count (`minProperties`), as the rule on its names takes
    /// them (0 for any other object).
    #[inline(never)]
    fn closing_live(cont: u32, live: u16, count: u64) -> u64 {
        if !S::LIVE || live == 0 {
            return 0;
        }
        u64::from(Self::live_where(cont, live, |_, b| count >= b.min))
    }

    /// The branches of object `cont` when it is a union of objects' (else 0).
    #[inline(never)]
    fn all_branches(cont: u32) -> u16 {
        S::object(cont).branches
    }

    /// Whether object `cont` (its branches `live` alive, if it is a union of objects') takes
    /// undeclared names still: it is not a union of objects' or one of its open branches is
    /// alive.
    #[inline(never)]
    fn open_alive(cont: u32, live: u16) -> bool {
        let o = S::object(cont);
        o.branches == 0 || live & o.open != 0
    }

    /// An array's `,` (at `at`): an item is promised, `items` read next.
    #[inline]
    fn next_item(&mut self) -> bool {
        let a = S::array(self.inner.cont);
        self.prop = a.item(self.inner.count);
        self.inner.count += 1;
        self.st = St::Value;
        self.inner.count <= a.max
    }

    /// The first byte after an array's `[` (not whitespace), at `at`: its end, or its first
    /// item's first byte.
    fn first_item(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        if b == b']' {
            return self.close(text, b, at);
        }
        let a = S::array(self.inner.cont);
        self.inner.count = 1;
        self.prop = a.item(0);
        a.max >= 1 && self.value(text, b, at)
    }

    /// A `}` or `]` (at `at`) that closes the innermost container when it is of that kind: its
    /// verdict, and the reader back in the container around it.
    fn close(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        let ok = if self.inner.arr {
            let a = S::array(self.inner.cont);
            let span = text.get(self.inner.open..=at).unwrap_or_default();
            b == b']'
                && self.inner.count >= a.min
                && if a.contains {
                    S::array_end(self.inner.cont, span)
                } else {
                    !a.unique || !self.items().unsure() || S::array_end(self.inner.cont, span)
                }
        } else {
            let o = S::object(self.inner.cont);
            b == b'}'
                && o.required & !self.inner.seen == 0
                && self.inner.count >= o.min
                && (!S::RULES
                    || S::names_end(
                        self.inner.cont,
                        self.inner.seen,
                        Self::closing_live(self.inner.cont, self.inner.live, self.inner.count),
                        text.get(self.inner.open..=at).unwrap_or_default(),
                    ))
        };
        if !ok {
            return false;
        }
        self.depth = self.depth.saturating_sub(1);
        match usize::from(self.depth).checked_sub(1) {
            None => self.st = St::Done,
            Some(i) => {
                let Some(&f) = self.stack.as_ref().get(i) else { return false };
                // (The value that ended is the container: where it began, for `uniqueItems`.)
                self.start = self.inner.open;
                self.inner = f;
                self.st = St::After;
                return self.item_ends(text, at + 1);
            }
        }
        true
    }

    /// A value that began at `self.start` ended before `end` (a literal: began, `end` after its
    /// first letter, which decides it): an item of an array with `uniqueItems` that equals an
    /// earlier item hands the text to the automaton, which dies here (the same filter, fed the
    /// same items, decides alike: [`ItemFilter`]).
    #[inline(always)]
    fn item_ends(&mut self, text: &[u8], end: usize) -> bool {
        !self.inner.arr || !S::array(self.inner.cont).unique || self.item_unique(text, end)
    }

    /// [`FlatReader::item_ends`] in an array with `uniqueItems`.
    #[inline(never)]
    fn item_unique(&mut self, text: &[u8], end: usize) -> bool {
        let mut items = self.items();
        let repeated = items.repeated(text, self.inner.open, self.start, end);
        (self.inner.keys, self.inner.hits) = items.into_parts();
        !repeated
    }

    /// The items' filter of the innermost container, an array with `uniqueItems` (kept in its
    /// frame's `keys` and `hits`).
    fn items(&self) -> ItemFilter {
        ItemFilter::from_parts(self.inner.keys, self.inner.hits)
    }

    /// A container begins at `at`: the innermost one so far is kept on the stack.
    #[inline(always)]
    fn open(&mut self, cont: u32, arr: bool, at: usize) -> bool {
        if let Some(i) = usize::from(self.depth).checked_sub(1) {
            let Some(slot) = self.stack.as_mut().get_mut(i) else { return false };
            *slot = self.inner;
        }
        self.depth += 1;
        let live = if S::LIVE && !arr { Self::all_branches(cont) } else { 0 };
        self.inner = Frame { cont, arr, hits: 0, live, seen: 0, keys: 0, count: 0, open: at };
        self.st = if arr { St::ArrFirst } else { St::First };
        self.names_alive()
    }

    /// A key's opening quote (at `at`): the names not present yet are its candidates; with none,
    /// it is an undeclared name, if the object takes those.
    #[inline]
    fn key(&mut self, at: usize) -> bool {
        self.cand = S::object(self.inner.cont).names & !self.inner.seen;
        if S::LIVE && self.inner.live != 0 {
            self.cand &= Self::live_takes(self.inner.cont, self.inner.live);
        }
        self.off = 0;
        self.start = at;
        self.st = St::Key;
        self.key_esc = false;
        if let Some((pattern, _, _)) = S::key_names(self.inner.cont) {
            return self.named_start(pattern) && self.key_alive(self.cand);
        }
        self.key_alive(self.cand)
    }

    /// Whether the key read so far may go on (a candidate name continues it, or the object takes
    /// undeclared names and the key is not inside a multi-byte character).
    #[inline(always)]
    fn key_alive(&self, cand: u64) -> bool {
        cand != 0 || (self.utf.0 == 0 && self.open_takes())
    }

    /// A key's closing quote (at `at`): the one name of its length among the candidates, or an
    /// undeclared name.
    #[inline(always)]
    fn close_key(&mut self, text: &[u8], at: usize) -> bool {
        let name = self.cand & S::name_len(self.inner.cont, usize::try_from(self.off).unwrap_or(usize::MAX));
        if name == 0 {
            return self.undeclared(text, at);
        }
        let bit = name & name.wrapping_neg();
        self.inner.seen |= bit;
        let o = S::object(self.inner.cont);
        if o.crowded(self.inner.count, self.inner.seen, false) {
            // No room left for the `required` names still missing: the automaton's.
            return false;
        }
        self.prop = o.first + bit.trailing_zeros();
        if S::LIVE && self.inner.live != 0 {
            // A union of objects' name: the branches that do not take it (or that it leaves no
            // room for the names they still require) die; its value is read as theirs.
            self.inner.live = Self::live_name(self.inner.cont, self.inner.live, bit, self.inner.count, self.inner.seen);
            self.prop = S::variant(self.prop, self.inner.live);
            if self.prop == NONE || self.inner.live == 0 {
                return false;
            }
        }
        if S::never(self.prop) {
            return false;
        }
        self.st = St::Colon;
        self.names_alive()
    }

    /// Whether the innermost object's rule on its names is not dead yet ([`FlatSpec::names_dead`]):
    /// checked where the object opens and where a key closes.
    #[inline(always)]
    fn names_alive(&self) -> bool {
        !S::PRESENT || self.inner.arr || !S::names_dead(self.inner.cont, self.inner.seen)
    }

    /// A key's byte `b` that is not plain: an escape's backslash, or a byte of a multi-byte
    /// character, checked as UTF-8 (the character is certain at its first byte), that a
    /// candidate name has there (raw UTF-8 bytes the same as a name's are a character of it) or
    /// that an undeclared name may have; anything else (a control character) is the
    /// automaton's.
    #[cold]
    #[inline(never)]
    fn key_other(&mut self, b: u8) -> bool {
        if self.utf.0 != 0 {
            if !self.continuation(b) {
                return false;
            }
        } else if b == b'\\' {
            self.st = St::KeyEsc;
            self.key_esc = true;
            return self.escape_start();
        } else {
            let Some(u) = utf8_lead(b) else { return false };
            self.utf = u;
        }
        self.cand &= S::name_other(self.inner.cont, usize::try_from(self.off).unwrap_or(usize::MAX), b);
        self.off += 1;
        // Inside the character, a plain byte or the closing quote is dead
        // ([`FlatReader::key_alive`], [`FlatReader::undeclared`]).
        self.cand != 0 || self.open_takes()
    }

    /// A key opens in an object with `propertyNames`: its bytes are read in [`St::KeyEsc`] as
    /// [`Esc::Named`] (out of line), from the pattern's automaton's start.
    #[cold]
    #[inline(never)]
    fn named_start(&mut self, pattern: Option<&'static Pattern>) -> bool {
        let state = match pattern {
            Some(p) => match p.start() {
                Some(s) => u64::from(s),
                None => return false,
            },
            None => MATCHED,
        };
        (self.max, self.sig) = (0, state);
        (self.st, self.esc) = (St::KeyEsc, Esc::Named);
        true
    }

    /// A byte `b` (at `at`) of a key under `propertyNames`: checked against them as the
    /// automaton checks a name (its characters counted at their first byte and stepped on the
    /// pattern's automaton, dead past the `maxLength` or where the pattern dies; at the closing
    /// quote, the `minLength` and the pattern's end), then read as a key's byte one at a time.
    /// An escape is the automaton's.
    #[inline(never)]
    fn key_named(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        let Some((pattern, min, max)) = S::key_names(self.inner.cont) else { return false };
        let (chars, state) = (self.max, self.sig);
        if b == b'\\' {
            return false;
        }
        // A closed object's pattern: its death leaves the declared names, and where the key
        // closes, the name, declared or matched, is judged as any other ([`FlatReader::undeclared`]).
        let keyed = self.keyed();
        if b == b'"' && self.utf.0 == 0 {
            let matched =
                state == MATCHED || pattern.is_some_and(|p| u32::try_from(state).is_ok_and(|s| p.matches_at_end(s)));
            if !keyed && (chars < min || !matched) {
                return false;
            }
        } else {
            let chars = chars + u64::from(b & 0xC0 != 0x80);
            if chars > max {
                return false;
            }
            let mut next = state;
            if let (Some(p), Ok(s)) = (pattern, u32::try_from(state)) {
                let (s, how) = p.step(s, b);
                next = match how {
                    Stepped::Live => u64::from(s),
                    Stepped::Matched => MATCHED,
                    Stepped::Dead if keyed => KEY_DEAD,
                    Stepped::Dead | Stepped::Unknown => return false,
                };
            }
            (self.max, self.sig) = (chars, next);
        }
        // The byte as [`FlatReader::step`] reads a key's byte on the one-byte way.
        self.st = St::Key;
        let alive = if is_plain(b) {
            let off = usize::try_from(self.off).unwrap_or(usize::MAX);
            self.cand &= S::name_byte(self.inner.cont, off, b);
            self.off += 1;
            self.key_alive(self.cand)
        } else if b == b'"' {
            self.close_key(text, at)
        } else {
            self.key_other(b)
        };
        if self.st == St::Key {
            (self.st, self.esc) = (St::KeyEsc, Esc::Named);
        }
        alive
    }

    /// A byte of a key in [`St::KeyEsc`]: after an escape's backslash, or under
    /// `propertyNames` ([`Esc::Named`]).
    fn key_escaped(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        if self.esc == Esc::Named {
            return self.key_named(text, b, at);
        }
        self.escaped(b)
    }

    /// Whether the current object may take an undeclared name (a union of objects': a branch
    /// alive that is open; an object with a `patternProperties` pattern: one it matches, told
    /// where the name closes, as the automaton tells it).
    #[inline(always)]
    fn open_takes(&self) -> bool {
        (S::object(self.inner.cont).extra != NONE
            || (S::key_pattern(self.inner.cont).is_some() && self.sig != KEY_DEAD))
            && (!S::LIVE || Self::open_alive(self.inner.cont, self.inner.live))
    }

    /// Whether the current object is closed beside its `patternProperties` entry: its keys are
    /// read under [`Esc::Named`] with that pattern ([`FlatSpec::key_names`]), whose death leaves
    /// only the declared names ([`KEY_DEAD`]).
    #[inline]
    fn keyed(&self) -> bool {
        S::object(self.inner.cont).extra == NONE && S::key_pattern(self.inner.cont).is_some()
    }

    /// A key whose closing quote is at `at` that is no candidate name: a member read as the
    /// object's [`Object::extra`] when the object takes undeclared names and the name is not
    /// present already (a declared one, compared whole; an undeclared one, looked for in the
    /// object's text when its hash bits are all set), compared and hashed as the name it decodes
    /// to.
    #[inline(never)]
    fn undeclared(&mut self, text: &[u8], at: usize) -> bool {
        let o = S::object(self.inner.cont);
        // (Its bytes are valid UTF-8 up to a character cut short by the quote; a member that
        // leaves no room for the `required` names still missing is the automaton's.)
        if self.utf.0 != 0 || o.crowded(self.inner.count, self.inner.seen, false) {
            return false;
        }
        let Some(raw) = text.get(self.start + 1..at) else { return false };
        // Without escapes, its bytes are the decoded name's; with them, it is decoded once.
        let escaped = if self.key_esc {
            let Some(key) = decoded(text.get(self.start..=at).unwrap_or_default()) else { return false };
            Some(key)
        } else {
            None
        };
        // Its value: the `patternProperties` entry's when its pattern matches it, else
        // `additionalProperties`'.
        let prop = match S::key_pattern(self.inner.cont) {
            Some((p, v)) if pattern_matches(p, raw, escaped.as_ref()) => v,
            _ => o.extra,
        };
        if prop == NONE || S::never(prop) {
            return false;
        }
        if S::LIVE && o.branches != 0 {
            // A union of objects': its closed branches die, and those it leaves no room for the
            // names they still require.
            let (count, seen) = (self.inner.count, self.inner.seen);
            self.inner.live = Self::live_where(self.inner.cont, self.inner.live & o.open, |_, b| {
                !crowded((b.required & !seen).count_ones(), b.max, count, false)
            });
            if self.inner.live == 0 {
                return false;
            }
        }
        // A declared name present already is a repeat; the hash is the one the automaton's
        // filter takes (of the decoded name).
        let h = match &escaped {
            Some(key) => {
                let mut seen = o.names & self.inner.seen;
                while seen != 0 {
                    if key.eq_str(S::name(self.inner.cont, seen.trailing_zeros())) {
                        return false;
                    }
                    seen &= seen - 1;
                }
                key.hash()
            }
            None => {
                let mut same = o.names & self.inner.seen & S::name_len(self.inner.cont, raw.len());
                while same != 0 {
                    if S::name(self.inner.cont, same.trailing_zeros()).as_bytes() == raw {
                        return false;
                    }
                    same &= same - 1;
                }
                hash_text(raw)
            }
        };
        let bits = 1u64 << (h & 63) | 1u64 << (h >> 6 & 63);
        if self.inner.keys & bits == bits {
            // The object's text read again at most `RESCANS` times (the filter fills as names
            // come): past that the automaton reads the text, so that the cost stays linear.
            if self.inner.hits >= RESCANS || key_before(text, self.inner.open, self.start, at) != Some(false) {
                return false;
            }
            self.inner.hits += 1;
        }
        self.inner.keys |= bits;
        self.prop = prop;
        self.st = St::Colon;
        self.names_alive()
    }

    /// A value's first byte `b` (not whitespace), at `at`.
    #[inline(always)]
    fn value(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        self.start = at;
        let mut start = S::start(self.prop, b);
        if S::UNIONS {
            if let Start::Via(q) = start {
                self.prop = q;
                start = S::start(q, b);
            }
        }
        match start {
            Start::Str { mut members, max } => {
                if S::LIVE && self.inner.live != 0 && members != 0 {
                    // A union of objects' tag: the members its branches alive take.
                    members &= Self::live_tag_members(self.prop, self.inner.live);
                    if members == 0 {
                        return false;
                    }
                }
                let st = if members == 0 { St::Str } else { St::Enum };
                (self.cand, self.max, self.off, self.st) = (members, max, 0, st);
                true
            }
            Start::Number { minus, members, integral } => {
                self.integral = integral;
                (self.neg, self.sig, self.digits, self.point, self.exp) = (b == b'-', 0, 0, None, false);
                self.st = match b {
                    b'-' => St::Minus,
                    b'0' => St::Zero,
                    _ => St::Int,
                };
                if b.is_ascii_digit() {
                    self.sig = u64::from(b - b'0');
                    self.digits = 1;
                }
                (b != b'-' || minus) && (!members || self.watch_from(text, at)) && self.integral_ok(text, at)
            }
            Start::Literal(word) => {
                self.lit = (word, 1);
                self.st = St::Lit;
                // (A literal item of an array with `uniqueItems` is compared with the earlier
                // items at its first letter, which decides it.)
                word.first() == Some(&b) && self.item_ends(text, at + 1)
            }
            Start::Fixed { masks, max } => {
                (self.fixed, self.cand, self.max, self.off, self.st) = (masks, 0, max, 0, St::Fixed);
                true
            }
            Start::Pattern { max } => self.pattern_start(max),
            Start::Object(o) => self.open(o, false, at),
            Start::Array(a) => self.open(a, true, at),
            Start::Hand | Start::Via(_) => false,
        }
    }

    /// A plain byte of an `enum` string (at `*at`; `LONG`: with the plain bytes after it): the
    /// members that go on with it.
    #[inline(always)]
    fn member_byte<const LONG: bool>(&mut self, text: &[u8], b: u8, at: &mut usize) -> bool {
        let mut cand = self.cand & S::member_byte(self.prop, usize::try_from(self.off).unwrap_or(usize::MAX), b);
        let mut off = self.off + 1;
        while LONG && cand != 0 && off < self.max {
            let Some(&n) = text.get(*at + 1).filter(|&&n| is_plain(n)) else { break };
            cand &= S::member_byte(self.prop, usize::try_from(off).unwrap_or(usize::MAX), n);
            off += 1;
            *at += 1;
        }
        (self.cand, self.off) = (cand, off);
        cand != 0 && off <= self.max
    }

    /// Any other byte of a string value (at `at`): its closing quote, an escape, a multi-byte
    /// character.
    #[inline(always)]
    fn string_rare(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        match self.st {
            St::Esc => return self.escape(b),
            St::EnumEsc => return self.escaped(b),
            St::PatEsc | St::FixedEsc => return self.pattern_escaped(b),
            St::Utf8 => {
                if !self.continuation(b) {
                    return false;
                }
                if self.utf.0 == 0 {
                    self.st = St::Str;
                }
                return true;
            }
            _ => {}
        }
        if b == b'"' {
            let span = text.get(self.start..=at).unwrap_or_default();
            // (An `enum` string's `off` counts its bytes: its characters where they are ASCII,
            // and its string has no `minLength` or `maxLength` where they are not.)
            let len = usize::try_from(self.off).unwrap_or(usize::MAX);
            let members = self.cand & S::member_len(self.prop, len);
            let member = match self.st {
                St::Str => true,
                St::Fixed => len == self.fixed.len(),
                _ => members != 0,
            };
            // A union of objects' tag: the branches that do not take its member die.
            if S::LIVE && members != 0 && self.inner.live != 0 {
                self.inner.live &= S::picks(self.prop, members.trailing_zeros());
            }
            self.st = St::After;
            return member && S::string_end(self.prop, self.off, span) && self.item_ends(text, at + 1);
        }
        // An `enum` string's escapes and multi-byte characters are compared with its members
        // out of line; a `fixed` one's escapes are read out of line, its multi-byte characters
        // are the automaton's.
        if self.st == St::Enum {
            return self.member_other(b);
        }
        if self.st == St::Fixed {
            return b == b'\\' && self.pattern_escape();
        }
        // A character is certain at its first byte.
        self.off += 1;
        if self.off > self.max {
            return false;
        }
        if b == b'\\' {
            self.esc = Esc::Start;
            self.st = St::Esc;
            return true;
        }
        // A control character, or a byte no UTF-8 character begins with: dead.
        match utf8_lead(b) {
            Some(u) => {
                self.utf = u;
                self.st = St::Utf8;
                true
            }
            None => false,
        }
    }

    /// A string value with a `pattern` and a `maxLength` of `max` begins (out of line: the
    /// commoner values' code stays small).
    #[inline(never)]
    fn pattern_start(&mut self, max: u64) -> bool {
        let Some(dfa) = S::pattern(self.prop).and_then(Pattern::start) else { return false };
        (self.max, self.off, self.st) = (max, 0, St::Pat);
        self.cand = u64::from(dfa);
        true
    }

    /// A byte of a string value with a `pattern` (at `*at`; `LONG`: with the plain bytes after
    /// it): its plain characters counted and stepped on the pattern's automaton, as the quick
    /// reader does; its multi-byte characters' bytes too ([`FlatReader::pattern_wide`]), and its
    /// escapes' characters ([`FlatReader::pattern_escaped`]); its closing quote; anything else (a
    /// control byte) is the automaton's.
    #[inline(always)]
    fn pattern_byte<const LONG: bool>(&mut self, text: &[u8], b: u8, at: &mut usize) -> bool {
        let Some(p) = S::pattern(self.prop) else { return false };
        if self.utf.0 != 0 || b >= 0x80 {
            return self.pattern_wide(p, b);
        }
        if b == b'"' {
            let span = text.get(self.start..=*at).unwrap_or_default();
            self.st = St::After;
            let matched = self.cand == MATCHED || u32::try_from(self.cand).is_ok_and(|s| p.matches_at_end(s));
            return matched && S::string_end(self.prop, self.off, span) && self.item_ends(text, *at + 1);
        }
        if !is_plain(b) {
            return b == b'\\' && self.pattern_escape();
        }
        let end = if LONG { plain_end(text, *at + 1) } else { *at + 1 };
        let run = text.get(*at..end).unwrap_or_default();
        self.off += run.len() as u64;
        *at = end - 1;
        self.off <= self.max && self.pattern_step(p, run)
    }

    /// The current string's pattern's automaton (its state in `cand`) stepped over `run`:
    /// whether it is still live, or matched whatever follows (where it gives up, the automaton
    /// judges the string).
    #[inline(always)]
    fn pattern_step(&mut self, p: &'static Pattern, run: &[u8]) -> bool {
        if self.cand == MATCHED {
            return true;
        }
        let Ok(state) = u32::try_from(self.cand) else { return false };
        let (state, how) = p.step_run(state, run);
        self.cand = match how {
            Stepped::Live => u64::from(state),
            Stepped::Matched => MATCHED,
            Stepped::Dead | Stepped::Unknown => return false,
        };
        true
    }

    /// A continuation byte `b` of the current multi-byte character: whether it is in the range
    /// due (the count due and the next range then updated).
    #[inline(always)]
    fn continuation(&mut self, b: u8) -> bool {
        let (need, lo, hi) = self.utf;
        if b < lo || b > hi {
            return false;
        }
        self.utf = (need - 1, 0x80, 0xBF);
        true
    }

    /// A byte of a `pattern` string's multi-byte character, or the byte after its lead byte:
    /// checked as UTF-8 (a character is certain, and counted, at its first byte), and stepped on
    /// the pattern's automaton, whose bytes are UTF-8's (out of line: most strings with a
    /// `pattern` are ASCII).
    #[inline(never)]
    fn pattern_wide(&mut self, p: &'static Pattern, b: u8) -> bool {
        if self.utf.0 == 0 {
            let Some(u) = utf8_lead(b) else { return false };
            self.utf = u;
            self.off += 1;
            if self.off > self.max {
                return false;
            }
        } else if !self.continuation(b) {
            return false;
        }
        self.pattern_step(p, &[b])
    }

    /// The backslash of an escape in a string with a `pattern` or in a `fixed` one: a character
    /// is certain here, and counted (its `maxLength` decides here, as the automaton's does); the
    /// pattern is stepped where the escape decodes to its character, and narrowed before, as the
    /// automaton narrows it, at the backslash and at each hex digit of a `\u` escape
    /// ([`FlatReader::pattern_narrow`]).
    #[cold]
    #[inline(never)]
    fn pattern_escape(&mut self) -> bool {
        self.esc = Esc::Start;
        self.st = if self.st == St::Fixed { St::FixedEsc } else { St::PatEsc };
        self.off += 1;
        self.off <= self.max && self.pattern_narrow(0, 0, None)
    }

    /// Whether some character that the escape being read can still stand for keeps the
    /// pattern alive ([`Pattern::alive_escape`]). In a `fixed` string, some ASCII character of
    /// its offset's set (else the automaton, which knows the others too, decides).
    fn pattern_narrow(&self, prefix: u16, digits: u8, high: Option<u16>) -> bool {
        if self.st == St::FixedEsc {
            let (lo, hi) = unit_range(prefix, digits);
            return high.is_none()
                && (lo..=hi.min(0x7F))
                    .any(|c| u8::try_from(c).is_ok_and(|a| in_set(self.fixed, self.off.saturating_sub(1), a)));
        }
        if self.cand == MATCHED {
            return true;
        }
        let (Some(p), Ok(state)) = (S::pattern(self.prop), u32::try_from(self.cand)) else { return false };
        p.alive_escape(state, prefix, digits, high)
    }

    /// A byte after the backslash of an escape in a string with a `pattern`: at each hex digit
    /// of a `\u` escape, the pattern narrowed; at the character it decodes to, the character's
    /// UTF-8 bytes stepped on the pattern's automaton.
    #[cold]
    #[inline(never)]
    fn pattern_escaped(&mut self, b: u8) -> bool {
        let decoded = match self.esc_step(b) {
            EscStep::Bad => return false,
            EscStep::More => return true,
            EscStep::Unit(prefix, digits, high) => return self.pattern_narrow(prefix, digits, high),
            EscStep::Char(c) => c,
        };
        let Some(c) = char::from_u32(decoded) else { return false };
        if self.st == St::FixedEsc {
            self.st = St::Fixed;
            return u8::try_from(c).is_ok_and(|a| a.is_ascii() && in_set(self.fixed, self.off.saturating_sub(1), a));
        }
        self.st = St::Pat;
        let Some(p) = S::pattern(self.prop) else { return false };
        let mut buf = [0u8; 4];
        self.pattern_step(p, c.encode_utf8(&mut buf).as_bytes())
    }

    /// A byte of an escape, as the quick reader reads one (a surrogate pair is one character).
    fn escape(&mut self, b: u8) -> bool {
        match self.esc_step(b) {
            EscStep::Bad => false,
            EscStep::Char(_) => {
                self.st = St::Str;
                true
            }
            EscStep::More | EscStep::Unit(..) => true,
        }
    }

    /// A byte after an escape's backslash: where the escape stands after it ([`Esc`] in `esc`,
    /// the high surrogate of a pair in `sig`, a number's and unused in a string).
    fn esc_step(&mut self, b: u8) -> EscStep {
        let (esc, step) = match self.esc {
            Esc::Start => match b {
                b'"' | b'\\' | b'/' => (Esc::Start, EscStep::Char(u32::from(b))),
                b'b' => (Esc::Start, EscStep::Char(0x08)),
                b'f' => (Esc::Start, EscStep::Char(0x0C)),
                b'n' => (Esc::Start, EscStep::Char(u32::from(b'\n'))),
                b'r' => (Esc::Start, EscStep::Char(u32::from(b'\r'))),
                b't' => (Esc::Start, EscStep::Char(u32::from(b'\t'))),
                b'u' => (Esc::Hex(0, 0), EscStep::More),
                _ => return EscStep::Bad,
            },
            Esc::Hex(n, acc) => {
                let Some(h) = hex(b) else { return EscStep::Bad };
                let acc = acc << 4 | h;
                match n {
                    // A low surrogate alone.
                    1 if (0xDC..=0xDF).contains(&acc) => return EscStep::Bad,
                    0..=2 => (Esc::Hex(n + 1, acc), EscStep::Unit(acc, n + 1, None)),
                    _ if (0xDC00..=0xDFFF).contains(&acc) => return EscStep::Bad,
                    _ if (0xD800..=0xDBFF).contains(&acc) => {
                        // A high half: the characters beyond the BMP it begins.
                        self.sig = u64::from(acc);
                        (Esc::LowBs, EscStep::Unit(acc, 4, None))
                    }
                    _ => (Esc::Start, EscStep::Char(u32::from(acc))),
                }
            }
            Esc::LowBs if b == b'\\' => (Esc::LowU, EscStep::More),
            Esc::LowU if b == b'u' => (Esc::LowHex(0, 0), EscStep::More),
            Esc::LowHex(n, acc) => {
                let Some(h) = hex(b) else { return EscStep::Bad };
                let acc = acc << 4 | h;
                let high = u16::try_from(self.sig).unwrap_or(0);
                match n {
                    0 if acc != 0xD => return EscStep::Bad,
                    1 if !(0xDC..=0xDF).contains(&acc) => return EscStep::Bad,
                    0..=2 => (Esc::LowHex(n + 1, acc), EscStep::Unit(acc, n + 1, Some(high))),
                    _ if !(0xDC00..=0xDFFF).contains(&acc) => return EscStep::Bad,
                    _ => {
                        let c = 0x10000 + (u32::from(high).saturating_sub(0xD800) << 10) + (u32::from(acc) - 0xDC00);
                        (Esc::Start, EscStep::Char(c))
                    }
                }
            }
            // A high surrogate not followed by its low half (and, never here, a key under
            // `propertyNames`).
            Esc::LowBs | Esc::LowU | Esc::Named => return EscStep::Bad,
        };
        self.esc = esc;
        step
    }

    /// A byte of an `enum` string that is neither plain nor its closing quote: an escape's
    /// backslash, or a byte of a multi-byte character (the members that have it there: raw
    /// UTF-8 bytes the same as a member's are a character of it, and those of no member are the
    /// automaton's); anything else is the automaton's.
    #[cold]
    #[inline(never)]
    fn member_other(&mut self, b: u8) -> bool {
        if b == b'\\' {
            self.st = St::EnumEsc;
            return self.escape_start();
        }
        if b < 0x80 {
            return false;
        }
        self.cand &= S::member_other(self.prop, usize::try_from(self.off).unwrap_or(usize::MAX), b);
        self.off += 1;
        self.cand != 0 && self.off <= self.max
    }

    /// The backslash of an escape in an `enum` string or a key: the candidates that have a
    /// character here (a character is certain at the backslash), as the automaton narrows them.
    #[cold]
    #[inline(never)]
    fn escape_start(&mut self) -> bool {
        self.esc = Esc::Start;
        self.narrow_escape(0, 0, None)
    }

    /// A byte after the backslash of an escape in an `enum` string or a key: the candidates
    /// narrowed where the automaton narrows them, by each hex digit of a `\u` escape (the UTF-16
    /// unit's digits so far) and by the character decoded (its UTF-8 bytes); in the key of an
    /// object that takes undeclared names, none left is an undeclared name's.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self, b: u8) -> bool {
        let decoded = match self.esc_step(b) {
            EscStep::Bad => return false,
            EscStep::More => return true,
            EscStep::Unit(prefix, digits, high) => return self.narrow_escape(prefix, digits, high),
            EscStep::Char(c) => c,
        };
        let Some(c) = char::from_u32(decoded) else { return false };
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        let off = usize::try_from(self.off).unwrap_or(usize::MAX);
        let key = self.st == St::KeyEsc;
        let Some(cand) = self.candidates(key, |word| word.as_bytes().get(off..).is_some_and(|w| w.starts_with(bytes)))
        else {
            return false;
        };
        self.cand = cand;
        self.off += bytes.len() as u64;
        self.st = if key { St::Key } else { St::Enum };
        cand != 0 || (key && self.open_takes())
    }

    /// The candidates of an escape at the current offset whose character there can still be it:
    /// `digits` hex digits of its UTF-16 unit read, of value `prefix` (none at the backslash),
    /// after the high surrogate `high` for a low one, as the automaton has them.
    fn narrow_escape(&mut self, prefix: u16, digits: u8, high: Option<u16>) -> bool {
        let off = usize::try_from(self.off).unwrap_or(usize::MAX);
        let fits = |word: &str| {
            let Some(c) = word.get(off..).and_then(|r| r.chars().next()) else { return false };
            let mut units = [0u16; 2];
            let unit = match (high, &*c.encode_utf16(&mut units)) {
                (None, [u, ..]) => *u,
                (Some(h), [u, l]) if *u == h => *l,
                _ => return false,
            };
            digits == 0 || unit >> (4 * (4 - u32::from(digits))) == prefix
        };
        let key = self.st == St::KeyEsc;
        let Some(cand) = self.candidates(key, fits) else { return false };
        self.cand = cand;
        cand != 0 || (key && self.open_takes())
    }

    /// The candidates (a key's names, or an `enum` string's members) that `keep` keeps; `None`
    /// when a member is not at hand (the escape is the automaton's).
    fn candidates(&self, key: bool, keep: impl Fn(&str) -> bool) -> Option<u64> {
        let (mut left, mut kept) = (self.cand, 0u64);
        while left != 0 {
            let i = left.trailing_zeros();
            left &= left - 1;
            let word = if key { S::name(self.inner.cont, i) } else { S::member(self.prop, i)? };
            if keep(word) {
                kept |= 1 << i;
            }
        }
        Some(kept)
    }

    /// A byte of a number (at `at`) that is not a digit after a digit.
    #[inline(always)]
    fn number<const LONG: bool>(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        let next = match (self.st, b) {
            (St::Minus, b'0') => St::Zero,
            (St::Minus, b'1'..=b'9') => St::Int,
            (St::Zero | St::Int, b'.') => {
                self.point = Some(self.digits);
                St::Dot
            }
            (St::Dot, b'0'..=b'9') => St::Frac,
            (St::Zero | St::Int | St::Frac, b'e' | b'E') => {
                self.exp = true;
                St::E
            }
            (St::E, b'+' | b'-') => St::ESign,
            (St::E | St::ESign | St::Exp, b'0'..=b'9') => St::Exp,
            // The number ends before `b` (a `0` followed by a digit does not).
            (St::Zero | St::Int | St::Frac | St::Exp, _) if !(self.st == St::Zero && b.is_ascii_digit()) => {
                return self.number_ends(text, at) && self.after::<LONG>(text, b, at);
            }
            _ => return false,
        };
        if matches!(next, St::E | St::ESign | St::Exp) && !self.exponent(text, next, at) {
            return false;
        }
        if matches!(next, St::Zero | St::Int | St::Frac) {
            self.sig = self.sig.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            self.digits += 1;
            if !LONG && !self.integral_ok(text, at) {
                return false;
            }
        }
        self.st = next;
        true
    }

    /// After a digit (at `at`) of an integer's mantissa: whether an integer within its bounds
    /// is still reachable, checked only once it has as many digits as may break them
    /// ([`Start::Number`]'s `integral`; `false`: the automaton finds it dead at this byte or
    /// before it, in this fragment). Checked at each digit of a one-byte fragment, and, for a
    /// longer one, where the fragment ends (`read`) or the exponent begins (`exponent`): a
    /// mantissa dead within the fragment is never valid where the number ends in it.
    #[inline(always)]
    fn integral_ok(&self, text: &[u8], at: usize) -> bool {
        self.digits < usize::from(self.integral) || self.integral_at(text, at)
    }

    #[inline(never)]
    fn integral_at(&self, text: &[u8], at: usize) -> bool {
        bounds::integral(S::integral(self.prop), text.get(self.start..=at).unwrap_or_default()).is_none()
    }

    /// A number's byte (at `at`) that took it to state `next`, of its exponent: whether the
    /// number may still be within the `f64` range and its bounds (`false`: the automaton finds it
    /// dead here, or, where [`FlatSpec::SETTLES`], judges it from here).
    #[inline(never)]
    fn exponent(&mut self, text: &[u8], next: St, at: usize) -> bool {
        let n = match next {
            St::E => NumSt::Exp,
            St::ESign => NumSt::ExpSign,
            _ => NumSt::ExpDigits,
        };
        let number = text.get(self.start..=at).unwrap_or_default();
        if n == NumSt::Exp && !self.integral_ok(text, at.saturating_sub(1)) {
            return false;
        }
        match self.watch.step(n, number) {
            ExpStep::Out => false,
            ExpStep::Same => true,
            // (Only its bounds: in a negative exponent nothing else is settled before zero.)
            ExpStep::Narrowed => bounds::outgrown(S::limits(self.prop), number).is_none(),
            ExpStep::Moved => {
                !S::SETTLES
                    && bounds::outgrown(S::limits(self.prop), number).is_none()
                    && !bounds::indivisible(S::limits(self.prop), S::multiple(self.prop).as_ref(), number)
            }
        }
    }

    /// A byte (at `at`) of a number watched against its `enum`/`const` numbers, or the byte
    /// after it: read as any number's, then, while the number goes on, whether one of them is
    /// still reachable (`false`: the automaton finds the number dead at this byte).
    #[inline(never)]
    fn watched(&mut self, text: &[u8], b: u8, at: usize) -> bool {
        self.st = self.wst;
        let alive = if matches!(self.st, St::Int | St::Frac) && b.is_ascii_digit() {
            self.sig = self.sig.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            self.digits += 1;
            true
        } else {
            self.number::<false>(text, b, at)
        };
        alive && self.watch_from(text, at)
    }

    /// After a byte (at `at`) of a watched number: unless the number ended, its state kept
    /// aside, and whether one of its members is still reachable.
    fn watch_from(&mut self, text: &[u8], at: usize) -> bool {
        if !matches!(self.st, St::Minus | St::Zero | St::Int | St::Dot | St::Frac | St::E | St::ESign | St::Exp) {
            return true;
        }
        (self.wst, self.st) = (self.st, St::Watched);
        let number = text.get(self.start..=at).unwrap_or_default();
        let numbers = S::numbers(self.prop);
        (numbers.is_empty() || members::reachable(numbers, number))
            && bounds::integral(S::integral(self.prop), number).is_none()
    }

    /// The number ended before the byte at `at`: its verdict (the byte is read after it).
    fn number_ends(&mut self, text: &[u8], at: usize) -> bool {
        let span = text.get(self.start..at).unwrap_or_default();
        let num = if self.exp { None } else { literal_value(self.neg, self.sig, self.digits, self.point) };
        self.st = St::After;
        S::number_end(self.prop, span, num) && self.item_ends(text, at)
    }

    /// A byte of a literal.
    #[inline(always)]
    fn literal(&mut self, b: u8) -> bool {
        let (word, i) = self.lit;
        if word.get(usize::from(i)) != Some(&b) {
            return false;
        }
        self.lit.1 += 1;
        if usize::from(self.lit.1) == word.len() {
            self.st = St::After;
        }
        true
    }
}

impl<S: FlatSpec> Reader for FlatReader<S> {
    const FLAT: bool = true;

    fn new(on: bool) -> Self {
        Self {
            on,
            st: St::Start,
            prop: 0,
            cand: 0,
            off: 0,
            max: u64::MAX,
            inner: Frame::default(),
            depth: 0,
            stack: S::Stack::default(),
            start: 0,
            lit: (b"", 0),
            fixed: &[],
            neg: false,
            integral: u8::MAX,
            sig: 0,
            digits: 0,
            point: None,
            exp: false,
            watch: ExpWatch::OFF,
            wst: St::Start,
            esc: Esc::Start,
            utf: (0, 0, 0),
            key_esc: false,
            spec: std::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn on(&self) -> bool {
        self.on
    }

    fn stop(&mut self) {
        self.on = false;
    }

    #[inline(always)]
    fn one_byte(&mut self, prog: &'static Program, text: &[u8], b: u8) -> bool {
        let mut at = text.len() - 1;
        if self.step::<false>(prog, text, b, &mut at) {
            return true;
        }
        self.on = false;
        false
    }

    /// A fragment that goes on a string value of plain characters (a long argument, a file's
    /// content): its run of plain characters tested eight at a time and counted here, so that a
    /// fragment that is all such a run costs no call of the reader's loop.
    #[inline(always)]
    fn plain_run(&mut self, text: &[u8], from: usize) -> usize {
        if self.st != St::Str {
            return from;
        }
        let end = plain_end(text, from);
        let off = self.off + end.saturating_sub(from) as u64;
        if off > self.max {
            return from;
        }
        self.off = off;
        end
    }

    #[inline(never)]
    fn read(&mut self, prog: &'static Program, text: &[u8], from: usize) -> bool {
        if !self.on {
            return false;
        }
        let mut at = from;
        while let Some(&b) = text.get(at) {
            if !self.step::<true>(prog, text, b, &mut at) {
                self.on = false;
                return false;
            }
            at += 1;
        }
        // A fragment that ends inside an integer's mantissa.
        if matches!(self.st, St::Int | St::Dot | St::Frac) && !self.integral_ok(text, at.saturating_sub(1)) {
            self.on = false;
            return false;
        }
        true
    }

    fn finish(&mut self, _: &[u8]) -> bool {
        self.on = self.on && self.st == St::Done;
        self.on
    }

    fn complete(&self) -> Option<bool> {
        Some(self.st == St::Done)
    }

    fn delegating(&self) -> bool {
        false
    }
}
