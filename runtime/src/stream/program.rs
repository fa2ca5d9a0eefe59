//! The tables the macro emits for the prefix automaton: one [`Node`] per subschema, read by
//! [`super::machine::Machine`]. Everything here is `'static` data and function pointers; nothing
//! is built at run time.

use crate::num::Limit;
use crate::pattern::Pattern;
use crate::report::{Collect, Path};
use crate::text::{Halt, Num, Scanner, Step};

use super::bounds::{Bound, Multiple};
use super::machine::in_bounds;
use super::members::NumMember;

/// No node (an absent keyword, or one that accepts everything).
pub const NONE: u16 = u16::MAX;

/// Type bits, as [`Node::types`] holds them.
pub mod ty {
    /// `null`
    pub const NULL: u8 = 1;
    /// `true` / `false`
    pub const BOOLEAN: u8 = 2;
    /// an integer (any number may still turn out to be one)
    pub const INTEGER: u8 = 4;
    /// a number
    pub const NUMBER: u8 = 8;
    /// a string
    pub const STRING: u8 = 16;
    /// an array
    pub const ARRAY: u8 = 32;
    /// an object
    pub const OBJECT: u8 = 64;
    /// every type
    pub const ALL: u8 = 127;
}

/// How the lean automaton ([`super::lean::Lean`]) reads a node, as the macro classified it.
pub mod shape {
    /// needs the general automaton: several subschemas apply at one value
    pub const GENERAL: u8 = 0;
    /// its own keywords only: no in-place applicator, no `patternProperties`, `propertyNames`,
    /// `dependentSchemas` or `contains`
    pub const PLAIN: u8 = 1;
    /// only a `$ref` (or an `allOf` of one schema): a value is judged by the target alone
    pub const REF: u8 = 2;
    /// only an `anyOf` or a `oneOf` whose branches accept pairwise different kinds of JSON value
    /// (`[T, {"type": "null"}]`): a value's first byte picks the one branch that can hold
    pub const UNION: u8 = 3;
}

/// Per byte offset of a list of names: the bytes found there (ascending), each with the bits of
/// the names that have it.
pub type ByteTable = &'static [&'static [(u8, u128)]];

/// The bits of `cands` whose name has byte `b` at offset `off`.
#[inline]
#[must_use]
pub fn narrow_byte(tab: ByteTable, cands: u128, off: usize, b: u8) -> u128 {
    let Some(row) = tab.get(off) else { return 0 };
    if row.len() <= 8 {
        for &(x, m) in *row {
            if x == b {
                return cands & m;
            }
        }
        return 0;
    }
    match row.binary_search_by_key(&b, |e| e.0) {
        Ok(i) => row.get(i).map_or(0, |e| cands & e.1),
        Err(_) => 0,
    }
}

/// A compiled schema, as the prefix automaton reads it.
#[derive(Debug)]
pub struct Program {
    /// every subschema, by node id
    pub nodes: &'static [Node],
    /// the root's id
    pub root: u16,
    /// no value satisfies the root (`false`, `{"not": {}}`, an `allOf` with a `false`, a
    /// `oneOf` of two `true`s, …, as the macro finds it): a stream is dead before its first
    /// byte, whitespace included
    pub never: bool,
    /// some node [`Node::decides`]: else the automaton never looks for a subschema that the
    /// members of an object and their values make sure of it
    pub decides: bool,
}

/// One subschema. Fields that do not apply hold their "absent" value ([`Node::ALWAYS`]).
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// the schema accepts every value (`true`, `{}`): never given a slot
    pub always: bool,
    /// the schema accepts nothing (`false`)
    pub never: bool,
    /// no value satisfies the schema: `false`, or applicators that leave nothing (`{"not": {}}`,
    /// an `allOf` with a `false` part, … as the macro finds it); a value under it is dead at its
    /// first byte, a member under a pattern of it at its key, and a `contains` of it counts no
    /// item
    pub none: bool,
    /// the kinds of value ([`ty`] bits) its `type`, `enum` and `const` let through but no value of
    /// which satisfies it, as the macro finds it (`{"type": ["string", "number"], "allOf":
    /// [{"minLength": 5}, {"maxLength": 3}]}`: strings): a value of such a kind is dead at its
    /// first byte
    pub void: u8,
    /// the allowed types ([`ty`] bits; `integer` also set when `number` is)
    pub types: u8,
    /// a `oneOf` branch, a `not` or an `if` of some subschema, or a property's subschema of such
    /// a node (through any number of levels), as the macro finds it: only where it becomes sure
    /// of an object by its members may the automaton decide something of that
    pub decides: bool,
    /// the exact verdict of this subschema on one value of well-formed text
    pub scan: fn(&mut Scanner<'_>) -> Step,
    /// this subschema's validator on a parsed value, reporting into a [`Collect`] (the
    /// instance and sink [`crate::Tool::validate`] uses): the explanation of a value the scan
    /// refused, through [`crate::__private::explain`]
    pub check: fn(&serde_json::Value, &Path<'_>, &mut Collect) -> bool,
    /// an array or object value is judged by [`Node::scan`] when it closes (keywords the
    /// automaton does not follow member by member: `uniqueItems`, `enum`/`const`,
    /// `unevaluated*`, too many names)
    pub lookback: bool,
    /// `uniqueItems`: an array's item that equals an earlier one is dead where it closes
    /// (found through the filter of its items' hashes; the scan function judges the array where it
    /// closes, as [`Node::lookback`] says)
    pub unique: bool,
    /// `enum`/`const`: the JSON types of its members ([`ty`] bits; 0 when absent)
    pub enum_types: u8,
    /// `enum`/`const`: its string members, matched character by character (`None` when there
    /// is no `enum`/`const`, or too many members to follow)
    pub strings: Option<&'static [&'static str]>,
    /// [`Node::strings`] by byte offset: the bytes the members have there (ascending), each with
    /// the bits of the members that have it
    pub string_bytes: ByteTable,
    /// `enum`/`const`: which literals are members (1 `null`, 2 `true`, 4 `false`)
    pub literals: u8,
    /// `enum`/`const`: its numbers, against which a number is watched as its bytes come
    /// ([`reachable`](super::members::reachable)); empty when it has none or too many to watch
    pub numbers: &'static [NumMember],
    /// `enum`/`const` of arrays or objects: a subschema the macro writes that holds exactly its
    /// members (each an object of its properties, all required and no other, an array of its
    /// items and no more, a string, number or literal as an `enum` of one; an `anyOf` of them),
    /// applied in place: where it dies, no member can be the value any more. The node's scan
    /// function still judges the value where it closes. [`NONE`] when absent.
    pub members: u16,
    /// `enum`/`const` as JSON text, for messages
    pub enum_text: &'static str,
    /// whether it is a `const`
    pub is_const: bool,
    /// `maxLength` (`u64::MAX` when absent)
    pub max_length: u64,
    /// `minLength` (0 when absent)
    pub min_length: u64,
    /// the kinds of scalar ([`ty`] bits) whose verdict the automaton's own state decides when
    /// the value closes (its keywords for them are all followed byte by byte); the others are
    /// judged by [`Node::scan`]
    pub scalar: u8,
    /// a number's verdict is only these bounds (`minimum`, `exclusiveMinimum`, `maximum`,
    /// `exclusiveMaximum`) and, when [`Node::types`] lacks [`ty::NUMBER`], being an integer:
    /// the automaton judges a short literal itself (`None`: the scan function does)
    pub bounds: Option<[Option<Limit>; 4]>,
    /// `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum` (whatever else judges the
    /// number), against which a number is judged where its exponent settles them
    /// ([`outgrown`](super::bounds::outgrown)); empty when it has none
    pub limits: &'static [Bound],
    /// `multipleOf` (whatever else judges the number), which a number is judged against where
    /// its exponent settles it ([`indivisible`](super::bounds::indivisible))
    pub multiple: Option<Multiple>,
    /// `pattern`, stepped byte by byte, with its source; or, where the subschema has no
    /// `pattern` but an asserted `format`, a regular language holding every string of the
    /// format (which its scan function judges exactly)
    pub pattern: Option<(&'static Pattern, &'static str)>,
    /// the `format` whose language [`Node::pattern`] is, if it is one (its death is the
    /// format's)
    pub pattern_format: Option<&'static str>,
    /// a leading `-` already breaks `minimum > 0` or `exclusiveMinimum >= 0`: the limit as
    /// written and whether it is exclusive
    pub negative: Option<(&'static str, bool)>,
    /// property names the object keywords speak of: `properties` first, then the other names
    /// of `required`, `dependentRequired` and `dependentSchemas` (at most 128)
    pub names: &'static [&'static str],
    /// [`Node::names`] by byte offset, as [`Node::string_bytes`]
    pub name_bytes: ByteTable,
    /// `properties`: the node of `names[i]`
    pub props: &'static [u16],
    /// `required`, as bits over `names`
    pub required: u128,
    /// `properties` whose subschema no value satisfies (`false`, `{"not": {}}`, … as the macro
    /// finds it), as bits over `names`: a member of such a name is not allowed whatever its
    /// value, dead where its key closes
    pub forbidden: u128,
    /// `additionalProperties` ([`NONE`] when absent or `true`), or `unevaluatedProperties`
    /// where nothing but `properties` evaluates names (here and in the subschemas applied in
    /// place): the subschema of a member whose key is none of [`Node::keys`] and matches no
    /// pattern
    pub additional: u16,
    /// a key that is none of [`Node::keys`] is not allowed: `additionalProperties: false` (or a
    /// subschema no value satisfies), or `unevaluatedProperties: false` where nothing but
    /// `properties` evaluates names (then [`Node::additional`] is [`NONE`])
    pub closed: bool,
    /// with [`Node::closed`] or [`Node::additional`], the bits of [`Node::names`] that are
    /// declared: `properties`' (for `unevaluatedProperties`, also those of the subschemas
    /// applied in place, which [`Node::names`] then lists after the node's own; for a node the
    /// lean automaton reads, they are only its own)
    pub keys: u128,
    /// `patternProperties`, each with its source and node
    pub patterns: &'static [(&'static Pattern, u16)],
    /// `propertyNames`
    pub property_names: u16,
    /// a [`Node::closed`] object beside `patternProperties`: a subschema the macro writes whose
    /// strings are exactly the keys a pattern matches (one `pattern`, or an `anyOf` of one per
    /// `patternProperties`), applied to each key as `propertyNames` is. Where it is dead and no
    /// declared name that is not present yet continues the key, the member is not allowed (or
    /// a repeat). The key is still judged exactly where it closes. [`NONE`] when absent.
    pub key_names: u16,
    /// `minProperties` (0 when absent)
    pub min_props: u64,
    /// `maxProperties` (`u64::MAX` when absent)
    pub max_props: u64,
    /// `dependentRequired`: the name's index and the bits of the names it requires
    pub dep_required: &'static [(u8, u128)],
    /// `dependentSchemas`: the name's index and the node
    pub dep_schemas: &'static [(u8, u16)],
    /// `prefixItems` (then [`NONE`]s up to the longest `prefixItems` of the subschemas applied
    /// in place, under an `unevaluatedItems` that is [`Node::items`])
    pub prefix: &'static [u16],
    /// `items` (after the prefix), or `unevaluatedItems` where nothing but `prefixItems`
    /// evaluates items (here and in the subschemas applied in place)
    pub items: u16,
    /// `minItems` (0 when absent)
    pub min_items: u64,
    /// `maxItems`, or the prefix's length under `items: false` (or a subschema no value
    /// satisfies) when smaller (`u64::MAX` when absent)
    pub max_items: u64,
    /// [`Node::max_items`] is the length past which `unevaluatedItems: false` refuses an item,
    /// nothing but `prefixItems` evaluating items (here and in the subschemas applied in place),
    /// and below `maxItems`
    pub unevaluated_items: bool,
    /// [`Node::max_items`] is where `items` (after the `prefixItems`) or a `prefixItems` entry
    /// allows no value (`false`, or a subschema no value satisfies), below `maxItems`
    pub items_end: bool,
    /// `contains`
    pub contains: u16,
    /// `minContains` (1 by default; only with `contains`)
    pub min_contains: u64,
    /// `maxContains` (`u64::MAX` when absent)
    pub max_contains: u64,
    /// `$ref` and `allOf`
    pub all_of: &'static [u16],
    /// `anyOf`
    pub any_of: &'static [u16],
    /// `oneOf`
    pub one_of: &'static [u16],
    /// `not`
    pub not: u16,
    /// `if`
    pub if_: u16,
    /// `then` ([`NONE`]: `true`)
    pub then_: u16,
    /// `else` ([`NONE`]: `true`)
    pub else_: u16,
    /// this node and every subschema it applies in place, transitively (those that accept
    /// everything left out): the slots a value gets for this node
    pub closure: &'static [u16],
    /// how the lean automaton reads it ([`shape`])
    pub shape: u8,
    /// a tagged union: an `anyOf`/`oneOf` of objects told apart by one property's string
    /// constants (see [`Tagged`])
    pub tagged: Option<&'static Tagged>,
}

/// A tagged union: an `anyOf` or `oneOf` (and nothing else but perhaps a `type` that allows
/// objects) of plain objects that all declare one property whose subschema is only an `enum` or
/// `const` of strings (and perhaps `type`), the branches' strings pairwise different, and no
/// branch with `maxProperties: 0`. An object whose first member is that property is, once its
/// value closes, judged by the one branch whose strings hold that value (every other branch
/// fails on it). The quick reader reads such an object by itself.
#[derive(Debug)]
pub struct Tagged {
    /// an object node with that property alone, closed, its subschema an `enum` of every
    /// branch's strings: the object until the value closes
    pub object: u16,
    /// each branch: its strings, its (plain) object node, and the property's index in its
    /// [`Node::names`]
    pub branches: &'static [(&'static [&'static str], u16, u8)],
}

fn scan_any(sc: &mut Scanner<'_>) -> Step {
    sc.skip_value()
}

/// The scan function of the two nodes the macro adds for each tagged union ([`Tagged`]): the
/// quick reader judges a string of the `enum` node itself, and any other value it asks either
/// node about (a container where the strings belong, complete within reach) is not valid.
pub fn scan_never(_: &mut Scanner<'_>) -> Step {
    Err(Halt::Invalid)
}

/// The scan function of a number member of an `enum`/`const` of arrays or objects, as the macro
/// writes it ([`Node::members`]): the number read equals `member`, compared by value as `enum`
/// compares numbers inside arrays and objects (`1.0` is `1`).
///
/// # Errors
///
/// [`Halt::Invalid`] for another number or any other value, [`Halt::Syntax`] for no number.
pub fn scan_number_is(sc: &mut Scanner<'_>, member: Limit) -> Step {
    let n = sc.number()?;
    if crate::num::cmp_limit(&n, member).is_eq() {
        Ok(())
    } else {
        Err(Halt::Invalid)
    }
}

fn check_none(_: &serde_json::Value, _: &Path<'_>, _: &mut Collect) -> bool {
    true
}

/// Whether an object of `count` members (the last one `promised`, its name not read yet) leaves
/// no room within `maxProperties` `max` for the `missing` `required` names: each needs a member
/// of its own, and a promised one may be one of them ([`Node::crowded`], and the flat reader's).
#[inline]
pub(crate) fn crowded(missing: u32, max: u64, count: u64, promised: bool) -> bool {
    let missing = u64::from(missing);
    max != u64::MAX && count + missing - u64::from(promised && missing > 0) > max
}

impl Node {
    /// A node that accepts everything; the macro writes `Node { .., ..Node::ALWAYS }`.
    pub const ALWAYS: Self = Self {
        always: true,
        never: false,
        none: false,
        void: 0,
        decides: false,
        types: ty::ALL,
        scan: scan_any,
        check: check_none,
        lookback: false,
        unique: false,
        enum_types: 0,
        literals: 0,
        strings: None,
        string_bytes: &[],
        numbers: &[],
        members: NONE,
        enum_text: "",
        is_const: false,
        max_length: u64::MAX,
        min_length: 0,
        scalar: ty::ALL,
        bounds: None,
        limits: &[],
        multiple: None,
        pattern: None,
        pattern_format: None,
        negative: None,
        names: &[],
        name_bytes: &[],
        props: &[],
        required: 0,
        additional: NONE,
        closed: false,
        keys: 0,
        patterns: &[],
        property_names: NONE,
        key_names: NONE,
        forbidden: 0,
        min_props: 0,
        max_props: u64::MAX,
        dep_required: &[],
        dep_schemas: &[],
        prefix: &[],
        items: NONE,
        min_items: 0,
        max_items: u64::MAX,
        unevaluated_items: false,
        items_end: false,
        contains: NONE,
        min_contains: 1,
        max_contains: u64::MAX,
        all_of: &[],
        any_of: &[],
        one_of: &[],
        not: NONE,
        if_: NONE,
        then_: NONE,
        else_: NONE,
        closure: &[],
        shape: shape::GENERAL,
        tagged: None,
    };

    /// Whether a scalar of kind `bits` ([`ty`] bits of one kind) is judged by this node's
    /// `type` alone: nothing in place, no `enum`/`const`, and none of its keywords for that kind
    /// (a number: no bounds, not `integer` only; a string: no length, `pattern` or `format`).
    #[inline]
    pub(crate) fn type_only(&self, bits: u8) -> bool {
        self.in_place_free()
            && self.scalar & bits == bits
            && self.negative.is_none()
            && (bits != ty::STRING || !self.follows_chars())
    }

    /// A number here must be an integer (`type` has `integer` and not `number`) within bounds:
    /// its mantissa is watched at each byte ([`integral`](super::bounds::integral)).
    #[inline]
    pub(crate) fn integral(&self) -> bool {
        self.types & (ty::INTEGER | ty::NUMBER) == ty::INTEGER && !self.limits.is_empty()
    }

    /// Whether a number whose text so far is `number` may still satisfy this subschema's
    /// `enum`/`const` numbers and, an integer's, its bounds, as far as its text tells
    /// ([`members::reachable`](super::members::reachable),
    /// [`bounds::integral`](super::bounds::integral)).
    pub(crate) fn number_may_live(&self, number: &[u8]) -> bool {
        (self.numbers.is_empty() || super::members::reachable(self.numbers, number))
            && !(self.integral() && super::bounds::integral(self.limits, number).is_some())
    }

    /// Whether the number whose text so far is `number` breaks, whatever follows, a bound or the
    /// `multipleOf` of this subschema that its exponent settled
    /// ([`outgrown`](super::bounds::outgrown), [`indivisible`](super::bounds::indivisible)).
    #[cold]
    pub(crate) fn outgrown(&self, number: &[u8]) -> bool {
        super::bounds::outgrown(self.limits, number).is_some()
            || super::bounds::indivisible(self.limits, self.multiple.as_ref(), number)
    }

    /// Whether this subschema's keywords for numbers (bounds, `multipleOf`, integer-ness) hold
    /// for every value the number whose text so far is `number` may still take
    /// ([`settled`](super::bounds::settled)).
    pub(crate) fn settled(&self, number: &[u8]) -> bool {
        super::bounds::settled(self.limits, self.multiple.as_ref(), self.types & ty::NUMBER == 0, number)
    }

    /// Whether an object of `count` members (the last one `promised`: a `,` or the first key's
    /// quote was read, its name not yet), with the names `seen` present, leaves no room within
    /// `maxProperties` for the `required` names still missing: each needs a member of its own,
    /// and a promised one may be one of them.
    #[inline]
    pub(crate) fn crowded(&self, count: u32, seen: u128, promised: bool) -> bool {
        crowded((self.required & !seen).count_ones(), self.max_props, u64::from(count), promised)
    }

    /// Not `false`, nothing applied in place, no `enum`/`const`.
    #[inline]
    pub(crate) fn in_place_free(&self) -> bool {
        !self.never
            && self.closure.len() == 1
            && self.enum_types == 0
            && self.not == NONE
            && self.if_ == NONE
            && self.all_of.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
    }

    /// Whether this subschema asks of an object only that members be present: `required` and
    /// `minProperties`, perhaps `properties` that accept everything, and no other keyword for
    /// objects, nothing applied in place. An object that has those members satisfies it for
    /// good, whatever members follow (the machine's `present`).
    pub(crate) fn presence_only(&self, prog: &Program) -> bool {
        self.members_only() && self.props.iter().all(|&p| p == NONE || prog.node(p).always)
    }

    /// Whether this subschema asks of an object only members and their values: as
    /// [`Node::presence_only`], but its `properties` may say anything of a member's value. An
    /// object that has its required members, and a member judged valid for each property that
    /// does not accept everything (and none of a name it forbids), satisfies it for good: a
    /// member to come is either undeclared, which it takes, or a repeat (the machine's
    /// `present`).
    #[inline]
    pub(crate) fn members_only(&self) -> bool {
        self.in_place_free()
            && self.types & ty::OBJECT != 0
            && !self.lookback
            && self.tagged.is_none()
            && self.additional == NONE
            && !self.closed
            && self.patterns.is_empty()
            && self.property_names == NONE
            && self.max_props == u64::MAX
            && self.dep_required.is_empty()
            && self.dep_schemas.is_empty()
    }

    /// Whether this subschema takes every array: it allows arrays, says nothing of their items
    /// or counts, and applies nothing in place.
    pub(crate) fn any_array(&self, prog: &Program) -> bool {
        self.in_place_free()
            && self.types & ty::ARRAY != 0
            && !self.lookback
            && !self.unique
            && !self.unevaluated_items
            && self.prefix.is_empty()
            && (self.items == NONE || prog.node(self.items).always)
            && self.min_items == 0
            && self.max_items == u64::MAX
            && self.contains == NONE
    }

    /// Whether [`Node::closed`] comes from `unevaluatedProperties` (which a violation names).
    #[inline]
    pub(crate) fn closed_unevaluated(&self) -> bool {
        self.closed && self.additional == NONE
    }

    /// Whether a string value needs its characters looked at one by one.
    #[inline]
    pub(crate) fn follows_chars(&self) -> bool {
        self.max_length != u64::MAX || self.min_length > 0 || self.strings.is_some() || self.pattern.is_some()
    }

    /// This subschema's verdict on one value's text, by its scan function.
    #[inline]
    pub(crate) fn scan_text(&self, span: &[u8]) -> bool {
        std::str::from_utf8(span).is_ok_and(|t| (self.scan)(&mut Scanner::new(t)).is_ok())
    }

    /// This subschema's verdict on a number's text `span`: by [`Node::bounds`] when they are its
    /// only keywords for numbers and `num` gives the literal's value (as `number_literal` does:
    /// `None` for a literal too long or with an exponent), else by its scan function.
    #[inline]
    pub(crate) fn number_ok(&self, span: &[u8], num: impl FnOnce() -> Option<Num>) -> bool {
        match (&self.bounds, self.bounds.is_some().then(num).flatten()) {
            (Some(b), Some(x)) => in_bounds(x, b, self.types & ty::NUMBER == 0),
            _ => self.scan_text(span),
        }
    }
}
