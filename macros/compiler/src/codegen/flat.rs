//! IR → the flat reader's spec (`toolgate::__private::FlatSpec`) for a flat tool: its root a plain
//! object or array whose values are plain scalars (strings, perhaps with a `pattern`, `enum`s or
//! `const`s of scalars, numbers, booleans, `null`), free values (`true`, `{}`), `false`, or plain
//! objects (at most 64 declared or required names, undeclared members free or as
//! `additionalProperties` has them, or `unevaluatedProperties` where only these keywords evaluate
//! names, at most one `patternProperties` entry and no declared name it matches, `propertyNames` of
//! lengths and a `pattern` only, rules on names of `required`s only: `dependentRequired`,
//! applicators of `required`s, an `if` on values with such a `then` and `else`) and arrays
//! (`prefixItems`, one `items` or none, counts, `uniqueItems`, `contains` without `maxContains`,
//! `unevaluatedItems` without `contains`) of such values, or unions of such values
//! whose branches take different kinds, or unions of scalars whose kinds overlap (no `enum`,
//! `const` or `pattern` in a branch), or unions of such objects (a name two give different
//! subschemas is a tag, or read as the branches alive give it), perhaps with a `not` on a string or
//! a number (judged where it ends), at most 8 containers deep, each perhaps behind `$ref`s, and
//! perhaps met again inside itself (a schema that refers to itself: the same container is read
//! there).
//! Such a tool is read by the stream's `FlatReader` instead of the quick reader. Everything the
//! reader asks of the schema is emitted as small tables, `match`es on the value, object or array
//! number and constants, so that once compiled for the tool its events cost a few instructions.
//! Any other schema gets no spec: the quick reader reads it.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::json::{JsonValue, Num};
use crate::lower::regex;
use crate::model::{Body, Checks, Ir, JsonType, Kw, NodeId};

use super::empty::no_value;
use super::stream::{
    limits, members_followed, multiple, number_members, shape, shape_of, tag_strings, type_bits, value_bits,
    watched_numbers,
};
use super::text::{has, only_in_place, own_nothing_but_types, sname};
use super::validate::{bound, pname};

/// Names (and `enum` strings) a flat reader follows by the bits of a `u64`.
const MAX: usize = 64;

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;
const CONTAINERS: u8 = ARRAY | OBJECT;

/// The flat reader's spec for `ir`'s tool (a `pub struct __Flat` and its `FlatSpec` impl), or
/// `None` when the tool is not flat.
#[must_use]
pub fn spec(ir: &Ir, k: &TokenStream) -> Option<TokenStream> {
    let empty = Checks::default();
    let merged: Vec<Option<(Checks, NodeId)>> = (0..ir.nodes.len()).map(|n| merged(ir, n)).collect();
    let mut flat = Flat {
        merged: &merged,
        empty: &empty,
        props: Vec::new(),
        objects: Vec::new(),
        arrays: Vec::new(),
        depth: 0,
        free: None,
        filling: Vec::new(),
    };
    let root = flat.slot()?;
    flat.fill(ir, root, ir.root, 0)?;
    let props = flat.props.into_iter().collect::<Option<Vec<_>>>()?;
    // The root an object or an array (a scalar root is for the quick reader).
    if props.first().is_none_or(|r| r.kinds & !CONTAINERS != 0) {
        return None;
    }
    let p = quote!(#k::__private);
    let arms = |f: &dyn Fn(&Prop<'_>) -> Option<TokenStream>| -> Vec<TokenStream> {
        props
            .iter()
            .enumerate()
            .filter_map(|(i, x)| {
                let i = u32::try_from(i).ok()?;
                let body = f(x)?;
                Some(quote!(#i => #body,))
            })
            .collect()
    };
    // Objects and arrays by number, the last one as `_` (a tool with one object, or one array,
    // reads its keywords as constants).
    let numbered = |arms: Vec<TokenStream>, none: TokenStream| -> TokenStream {
        let n = arms.len();
        let arms = arms.into_iter().zip(0u32..).map(|(body, i)| {
            if usize::try_from(i).is_ok_and(|i| i + 1 == n) {
                quote!(_ => #body,)
            } else {
                quote!(#i => #body,)
            }
        });
        let arms: Vec<TokenStream> = arms.collect();
        if n == 0 {
            quote!(_ => #none,)
        } else {
            quote!(#(#arms)*)
        }
    };
    let start = arms(&|x| Some(start_arm(x, &p)));
    let pattern = arms(&|x| {
        x.c.stepped_pattern().filter(|_| x.kinds & STRING != 0 && x.via.is_empty()).map(|_| {
            let name = pname(ir, x.own, 0);
            quote!(::core::option::Option::Some(&#name))
        })
    });
    // A name of a union of objects whose subschema differs between branches: the value its
    // branches alive read it as.
    let variant = arms(&|x| {
        let v = x.variants.as_ref()?;
        let declaring = v.values.iter().fold(0u16, |a, (m, _)| a | m);
        let arms = v.values.iter().map(|(m, q)| {
            let others = declaring & !m;
            quote!(if live & #others == 0 && live & #m != 0 { #q } else)
        });
        let free = v.free.map_or_else(|| quote!(#p::FLAT_NONE), |q| quote!(#q));
        Some(quote!(#(#arms)* if live & #declaring == 0 { #free } else { #p::FLAT_NONE }))
    });
    // Unions of objects: each branch's names and counts; each tag's members and branches.
    let union_arms = |f: &dyn Fn(&Obj<'_>) -> Vec<TokenStream>| -> Vec<TokenStream> {
        flat.objects
            .iter()
            .zip(0u32..)
            .filter(|(o, _)| !o.branches.is_empty())
            .map(|(o, u)| {
                let arms = f(o);
                quote!(#u => match b { #(#arms)* _ => #p::FlatBranch { takes: 0, required: 0, min: 0, max: 0 } },)
            })
            .collect()
    };
    let branch_of = union_arms(&|o| {
        o.branches
            .iter()
            .zip(0u32..)
            .map(|(&(takes, required, min, max), b)| {
                quote!(#b => #p::FlatBranch { takes: #takes, required: #required, min: #min, max: #max },)
            })
            .collect()
    });
    let live = !branch_of.is_empty();
    let table = |var: TokenStream, all: TokenStream, values: Vec<TokenStream>| {
        let arms = values.into_iter().zip(0u32..).map(|(v, i)| quote!(#i => #v,));
        quote!(match #var { #(#arms)* _ => #all })
    };
    let picks = arms(&|x| {
        (!x.picks.is_empty()).then(|| table(quote!(m), quote!(0), x.picks.iter().map(|v| quote!(#v)).collect()))
    });
    let tag_members = arms(&|x| {
        (!x.tag_members.is_empty())
            .then(|| table(quote!(b), quote!(0), x.tag_members.iter().map(|v| quote!(#v)).collect()))
    });
    let unions = props.iter().any(|x| !x.via.is_empty());
    let member_byte = arms(&|x| x.members.as_deref().map(byte_match));
    let member_len = arms(&|x| x.members.as_deref().map(len_match));
    // (A string with a `minLength` or `maxLength` counts characters, and the reader an `enum`
    // string's bytes: its multi-byte characters and escapes are the automaton's.)
    let counted = |x: &Prop<'_>| x.c.min_length.is_some() || x.c.max_length.is_some();
    let member_other = arms(&|x| x.members.as_deref().filter(|_| !counted(x)).and_then(other_match));
    // (Read by an escape in the string: what the reader compares decoded characters with.)
    let member = arms(&|x| {
        let words = x.members.as_deref().filter(|_| !counted(x))?;
        let arms = words.iter().zip(0u32..).map(|(w, i)| quote!(#i => ::core::option::Option::Some(#w),));
        Some(quote!(match i { #(#arms)* _ => ::core::option::Option::None }))
    });
    let string_end = arms(&|x| (x.kinds & STRING != 0 && x.via.is_empty()).then(|| string_end_arm(ir, x, &p)));
    let number_end =
        arms(&|x| (x.kinds & (INTEGER | NUMBER) != 0 && x.via.is_empty()).then(|| number_end_arm(ir, x, k)));
    let numbers = arms(&|x| (!x.numbers.is_empty()).then(|| number_members(&x.numbers, &p)));
    let limit_arms =
        arms(&|x| (x.kinds & (INTEGER | NUMBER) != 0 && x.via.is_empty()).then(|| limits(x.c, k)).flatten());
    let integral_arms = arms(&|x| integral(x).then(|| limits(x.c, k)).flatten());
    let multiple_arms =
        arms(&|x| (x.kinds & (INTEGER | NUMBER) != 0 && x.via.is_empty()).then(|| multiple(x.c, k)).flatten());
    let objects = numbered(
        flat.objects
            .iter()
            .map(|o| {
                let (names, required, closed, min, max, first) = (
                    (0..o.names.len()).fold(0u64, |a, i| a | 1u64 << i),
                    o.required,
                    o.closed,
                    o.min,
                    o.max,
                    o.first,
                );
                let extra = o.extra.map_or_else(|| quote!(#p::FLAT_NONE), |e| quote!(#e));
                let branches = (0..o.branches.len()).fold(0u16, |a, b| a | 1 << b);
                let open = o.open;
                quote!(#p::FlatObject {
                    names: #names, required: #required, closed: #closed, min: #min, max: #max, first: #first, extra: #extra,
                    branches: #branches, open: #open
                })
            })
            .collect(),
        quote!(#p::FlatObject {
            names: 0, required: 0, closed: false, min: 0, max: 0, first: 0, extra: #p::FLAT_NONE, branches: 0, open: 0
        }),
    );
    let key_pattern: Vec<TokenStream> = flat
        .objects
        .iter()
        .zip(0u32..)
        .filter_map(|(o, i)| {
            let (name, id) = o.pattern.as_ref()?;
            Some(quote!(#i => ::core::option::Option::Some((&#name, #id)),))
        })
        .collect();
    let key_names: Vec<TokenStream> = flat
        .objects
        .iter()
        .zip(0u32..)
        .filter_map(|(o, i)| {
            let (pattern, min, max) = o.key_rule.as_ref()?;
            let pattern = match pattern {
                Some(name) => quote!(::core::option::Option::Some(&#name)),
                None => quote!(::core::option::Option::None),
            };
            Some(quote!(#i => ::core::option::Option::Some((#pattern, #min, #max)),))
        })
        .collect();
    let name_byte = numbered(flat.objects.iter().map(|o| byte_match(&o.names)).collect(), quote!(0));
    let name_len = numbered(flat.objects.iter().map(|o| len_match(&o.names)).collect(), quote!(0));
    // Values that take nothing (`false`): a member read as one is the automaton's.
    let never: Vec<u32> = props.iter().zip(0u32..).filter(|(x, _)| x.kinds == 0 && !x.free).map(|(_, i)| i).collect();
    let never = if never.is_empty() {
        quote!({
            let _ = p;
            false
        })
    } else {
        quote!(::core::matches!(p, #(#never)|*))
    };
    let name_other: Vec<TokenStream> =
        flat.objects.iter().zip(0u32..).filter_map(|(o, i)| other_match(&o.names).map(|m| quote!(#i => #m,))).collect();
    let name = numbered(
        flat.objects
            .iter()
            .map(|o| {
                let arms = o.names.iter().zip(0u32..).map(|(n, i)| quote!(#i => #n,));
                quote!(match i { #(#arms)* _ => "" })
            })
            .collect(),
        quote!(""),
    );
    let arrays = numbered(
        flat.arrays
            .iter()
            .map(|a| {
                let (min, max, item, prefix, first, unique, contains) =
                    (a.min, a.max, a.item, a.prefix, a.first, a.unique, a.contains);
                quote!(#p::FlatArray {
                    min: #min, max: #max, item: #item, prefix: #prefix, first: #first, unique: #unique, contains: #contains
                })
            })
            .collect(),
        quote!(#p::FlatArray { min: 0, max: 0, item: 0, prefix: 0, first: 0, unique: false, contains: false }),
    );
    let array_end = numbered(
        flat.arrays
            .iter()
            .map(|a| {
                let scan = sname(ir, a.node);
                quote!(#p::flat_scan_span(#scan, span))
            })
            .collect(),
        quote!(false),
    );
    let rules: Vec<TokenStream> = flat
        .objects
        .iter()
        .zip(0u32..)
        .filter_map(|(o, i)| {
            let body = rule_tokens(ir, o.rule.as_ref()?, &p);
            Some(quote!(#i => #body,))
        })
        .collect();
    let has_rules = !rules.is_empty();
    let deaths: Vec<TokenStream> = flat
        .objects
        .iter()
        .zip(0u32..)
        .filter_map(|(o, i)| {
            let body = rule_dead(o.rule.as_ref()?, &p)?;
            Some(quote!(#i => #body,))
        })
        .collect();
    let present = !deaths.is_empty();
    let names_dead = if present {
        quote!(match o { #(#deaths)* _ => false })
    } else {
        quote! {
            let _ = (o, seen);
            false
        }
    };
    let settles = settles_numbers(ir);
    let names_end = if has_rules {
        quote! {
            let _ = (seen, live, span);
            match o { #(#rules)* _ => true }
        }
    } else {
        quote! {
            let _ = (o, seen, live, span);
            true
        }
    };
    let stack = flat.depth.saturating_sub(1);
    Some(quote! {
        /// The flat reader's tables for this tool.
        pub struct __Flat;

        impl #p::FlatSpec for __Flat {
            type Stack = [#p::FlatFrame; #stack];
            #[inline(always)]
            fn object(o: ::core::primitive::u32) -> #p::FlatObject {
                match o {
                    #objects
                }
            }
            #[inline(always)]
            fn array(a: ::core::primitive::u32) -> #p::FlatArray {
                match a {
                    #arrays
                }
            }
            #[inline(always)]
            fn name_byte(o: ::core::primitive::u32, off: ::core::primitive::usize, b: ::core::primitive::u8) -> ::core::primitive::u64 {
                match o {
                    #name_byte
                }
            }
            fn name_other(o: ::core::primitive::u32, off: ::core::primitive::usize, b: ::core::primitive::u8) -> ::core::primitive::u64 {
                match o {
                    #(#name_other)*
                    _ => 0,
                }
            }
            #[inline(always)]
            fn name_len(o: ::core::primitive::u32, len: ::core::primitive::usize) -> ::core::primitive::u64 {
                match o {
                    #name_len
                }
            }
            #[inline(always)]
            fn never(p: ::core::primitive::u32) -> ::core::primitive::bool {
                #never
            }
            #[inline(always)]
            fn name(o: ::core::primitive::u32, i: ::core::primitive::u32) -> &'static ::core::primitive::str {
                match o {
                    #name
                }
            }
            #[inline(always)]
            fn pattern(p: ::core::primitive::u32) -> ::core::option::Option<&'static #p::Pattern> {
                match p {
                    #(#pattern)*
                    _ => ::core::option::Option::None,
                }
            }
            #[inline(always)]
            fn key_names(o: ::core::primitive::u32) -> ::core::option::Option<(
                ::core::option::Option<&'static #p::Pattern>,
                ::core::primitive::u64,
                ::core::primitive::u64,
            )> {
                match o {
                    #(#key_names)*
                    _ => ::core::option::Option::None,
                }
            }
            #[inline(always)]
            fn key_pattern(o: ::core::primitive::u32) -> ::core::option::Option<(&'static #p::Pattern, ::core::primitive::u32)> {
                match o {
                    #(#key_pattern)*
                    _ => ::core::option::Option::None,
                }
            }
            const UNIONS: ::core::primitive::bool = #unions;
            #[inline(always)]
            fn variant(p: ::core::primitive::u32, live: ::core::primitive::u16) -> ::core::primitive::u32 {
                match p {
                    #(#variant)*
                    _ => {
                        let _ = live;
                        p
                    }
                }
            }
            const LIVE: ::core::primitive::bool = #live;
            #[inline(always)]
            fn branch_of(o: ::core::primitive::u32, b: ::core::primitive::u32) -> #p::FlatBranch {
                match o {
                    #(#branch_of)*
                    _ => {
                        let _ = b;
                        #p::FlatBranch { takes: 0, required: 0, min: 0, max: 0 }
                    }
                }
            }
            #[inline(always)]
            fn picks(p: ::core::primitive::u32, m: ::core::primitive::u32) -> ::core::primitive::u16 {
                match p {
                    #(#picks)*
                    _ => {
                        let _ = m;
                        ::core::primitive::u16::MAX
                    }
                }
            }
            #[inline(always)]
            fn tag_members(p: ::core::primitive::u32, b: ::core::primitive::u32) -> ::core::primitive::u64 {
                match p {
                    #(#tag_members)*
                    _ => {
                        let _ = b;
                        ::core::primitive::u64::MAX
                    }
                }
            }
            #[inline(always)]
            fn start(p: ::core::primitive::u32, b: ::core::primitive::u8) -> #p::FlatStart {
                match p {
                    #(#start)*
                    _ => #p::FlatStart::Hand,
                }
            }
            #[inline(always)]
            fn member_byte(p: ::core::primitive::u32, off: ::core::primitive::usize, b: ::core::primitive::u8) -> ::core::primitive::u64 {
                match p {
                    #(#member_byte)*
                    _ => 0,
                }
            }
            fn member_other(p: ::core::primitive::u32, off: ::core::primitive::usize, b: ::core::primitive::u8) -> ::core::primitive::u64 {
                match p {
                    #(#member_other)*
                    _ => 0,
                }
            }
            fn member(p: ::core::primitive::u32, i: ::core::primitive::u32) -> ::core::option::Option<&'static ::core::primitive::str> {
                match p {
                    #(#member)*
                    _ => ::core::option::Option::None,
                }
            }
            #[inline(always)]
            fn member_len(p: ::core::primitive::u32, len: ::core::primitive::usize) -> ::core::primitive::u64 {
                match p {
                    #(#member_len)*
                    _ => 0,
                }
            }
            #[inline(always)]
            fn string_end(p: ::core::primitive::u32, chars: ::core::primitive::u64, span: &[::core::primitive::u8]) -> ::core::primitive::bool {
                match p {
                    #(#string_end)*
                    _ => false,
                }
            }
            #[inline(always)]
            fn number_end(
                p: ::core::primitive::u32,
                span: &[::core::primitive::u8],
                num: ::core::option::Option<#p::Num>,
            ) -> ::core::primitive::bool {
                match p {
                    #(#number_end)*
                    _ => false,
                }
            }
            fn numbers(p: ::core::primitive::u32) -> &'static [#p::NumMember] {
                match p {
                    #(#numbers)*
                    _ => &[],
                }
            }
            fn limits(p: ::core::primitive::u32) -> &'static [#p::StreamBound] {
                match p {
                    #(#limit_arms)*
                    _ => &[],
                }
            }
            fn integral(p: ::core::primitive::u32) -> &'static [#p::StreamBound] {
                match p {
                    #(#integral_arms)*
                    _ => &[],
                }
            }
            fn multiple(p: ::core::primitive::u32) -> ::core::option::Option<#p::StreamMultiple> {
                match p {
                    #(#multiple_arms)*
                    _ => ::core::option::Option::None,
                }
            }
            #[inline(always)]
            fn array_end(a: ::core::primitive::u32, span: &[::core::primitive::u8]) -> ::core::primitive::bool {
                match a {
                    #array_end
                }
            }
            const RULES: ::core::primitive::bool = #has_rules;
            const SETTLES: ::core::primitive::bool = #settles;
            const PRESENT: ::core::primitive::bool = #present;
            #[inline(always)]
            fn names_dead(o: ::core::primitive::u32, seen: ::core::primitive::u64) -> ::core::primitive::bool {
                #names_dead
            }
            #[inline(always)]
            fn names_end(
                o: ::core::primitive::u32,
                seen: ::core::primitive::u64,
                live: ::core::primitive::u64,
                span: &[::core::primitive::u8],
            ) -> ::core::primitive::bool {
                #names_end
            }
        }
    })
}

/// Deepest nesting of containers a flat reader follows.
const MAX_DEPTH: usize = 8;

/// One value a flat reader may meet (the root, an object's property, an array's `items`).
struct Prop<'a> {
    /// its node (its scan function judges what the reader does not)
    node: NodeId,
    /// its own keywords (through `$ref`s)
    c: &'a Checks,
    /// the kinds it takes ([`type_bits`]; `integer` also set with `number`)
    kinds: u8,
    /// the node whose keywords `c` are (its `pattern`'s static is named after it)
    own: NodeId,
    /// its `enum` or `const` strings
    members: Option<Vec<&'a str>>,
    /// with an `enum` or `const`: the literals among its members (1 `null`, 2 `true`, 4 `false`)
    listed: Option<u8>,
    /// the numbers a number is watched against as its bytes come, as the automaton watches it
    /// (empty: not watched, judged where it ends)
    numbers: Vec<&'a Num>,
    /// a free value: any JSON value (`true`, `{}`, an undeclared member of an open object, an
    /// item of an array without `items`)
    free: bool,
    /// the object and the array it is read as, when it takes those kinds
    object: Option<u32>,
    array: Option<u32>,
    /// a union of branches that take different kinds: each branch's kinds and value number
    via: Vec<(u8, u32)>,
    /// a union of objects' name whose subschema differs between its branches
    /// ([`Flat::fill_objects`]): the value read for it
    variants: Option<Variants>,
    /// a union of objects' tag ([`Flat::fill_objects`]): per member, the branches it leaves
    /// alive; per branch, the members it takes (both empty for any other value)
    picks: Vec<u16>,
    tag_members: Vec<u64>,
    /// a union of scalar branches whose kinds overlap ([`Flat::fill_overlap`]): the longest
    /// string a branch leaves alive (`maxLength`), and whether a `-` leaves one alive; its
    /// strings and numbers judged by the union's scan function where they end
    overlap: Option<(u64, bool)>,
}

/// Whether value `x` is a number that must be an integer within bounds, its mantissa watched at
/// each byte as the automaton watches it (`Node::integral`).
fn integral(x: &Prop<'_>) -> bool {
    x.kinds & (INTEGER | NUMBER) == INTEGER
        && x.via.is_empty()
        && (x.c.minimum.is_some()
            || x.c.maximum.is_some()
            || x.c.exclusive_minimum.is_some()
            || x.c.exclusive_maximum.is_some())
}

/// How many digits an integer's mantissa needs before the bound `limit` on its sign's side may be
/// broken: as many as the limit's magnitude has before its point (fewer make a smaller
/// magnitude), 1 below 1 in magnitude.
fn digits_to_break(limit: &Num) -> u8 {
    let f = limit.as_f64().abs().floor();
    if f < 1.0 {
        return 1;
    }
    u8::try_from(format!("{f:.0}").len()).unwrap_or(u8::MAX)
}

impl<'a> Prop<'a> {
    /// Node `node`, keywords `c` (node `own`'s), of `kinds`, and nothing else (no members, no
    /// containers, no branches).
    fn bare(node: NodeId, c: &'a Checks, own: NodeId, kinds: u8) -> Self {
        Prop {
            node,
            c,
            kinds,
            own,
            members: None,
            listed: None,
            numbers: Vec::new(),
            free: false,
            object: None,
            array: None,
            via: Vec::new(),
            variants: None,
            picks: Vec::new(),
            tag_members: Vec::new(),
            overlap: None,
        }
    }
}

/// An object a flat reader follows.
struct Obj<'a> {
    /// its declared names, in order; its first property's value number
    names: Vec<&'a str>,
    first: u32,
    required: u64,
    closed: bool,
    min: u64,
    max: u64,
    /// the value number of its undeclared members (`None`: closed)
    extra: Option<u32>,
    /// a union of objects' object ([`Flat::fill_objects`]): per branch, the names it takes and
    /// those it requires (as bits), its `minProperties` and `maxProperties` (empty for any other
    /// object)
    branches: Vec<(u64, u64, u64, u64)>,
    /// those of its branches that take undeclared names (bits)
    open: u16,
    /// its rule on its names, judged where it closes (`None`: no rule)
    rule: Option<Rule>,
    /// its one `patternProperties` entry: the static of its pattern's automaton, and the value
    /// number of a member whose undeclared name the pattern matches
    pattern: Option<(proc_macro2::Ident, u32)>,
    /// its `propertyNames`, when they say something of a string: the static of their
    /// `pattern`'s automaton, their `minLength` and `maxLength`
    key_rule: Option<(Option<proc_macro2::Ident>, u64, u64)>,
}

/// A rule on the names an object has, judged where it closes: what `dependentRequired`, and
/// `dependentSchemas`, `not`, `allOf`, `anyOf`, `oneOf` and `if`/`then`/`else` of `required`s,
/// say of an object
/// (`anyOf: [{"required": ["path"]}, {"required": ["url"]}]`: one of the two at least); an
/// `if` may also be a condition on the object's values ([`Rule::Value`]).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    /// every name of these bits present
    Has(u64),
    Not(Box<Rule>),
    All(Vec<Rule>),
    Any(Vec<Rule>),
    One(Vec<Rule>),
    If(Box<Rule>, Box<Rule>, Box<Rule>),
    /// a union of objects' branch of this number alive ([`Flat::fill_objects`])
    Live(u32),
    /// the object's text valid against this subschema, by its scan function: an `if`'s
    /// condition on values (`{"properties": {"action": {"const": "create"}}}`), whose `then`
    /// and `else` are [`monotone`]
    Value(NodeId),
}

/// Whether rule `r` is made of `required`s by `allOf`s and `anyOf`s alone (no `false`): it
/// holds once enough names came, so that the automaton finds it dead only where the object
/// closes, however early an `if` around it is decided.
fn monotone(r: &Rule) -> bool {
    match r {
        Rule::Has(_) => true,
        Rule::All(rs) => rs.iter().all(monotone),
        Rule::Any(rs) => !rs.is_empty() && rs.iter().all(monotone),
        Rule::Not(_) | Rule::One(_) | Rule::If(..) | Rule::Live(_) | Rule::Value(_) => false,
    }
}

/// An array a flat reader follows.
struct Arr {
    /// `items`' value number (after the `prefixItems`)
    item: u32,
    /// how many `prefixItems`, and the first one's value number (the others follow it)
    prefix: u32,
    first: u32,
    min: u64,
    max: u64,
    unique: bool,
    /// `contains` (and `minContains`): judged where the array closes, by its scan function
    contains: bool,
    /// its node (its scan function judges `uniqueItems` and `contains`)
    node: NodeId,
}

/// A flat tool's values, objects and arrays, numbered as `FlatSpec` has them.
struct Flat<'a> {
    /// per node, its keywords merged with its `allOf`'s and its `$ref`'s where they merge
    /// ([`merged`]), and the node whose `pattern` they have
    merged: &'a [Option<(Checks, NodeId)>],
    /// no keywords (a free value's)
    empty: &'a Checks,
    props: Vec<Option<Prop<'a>>>,
    objects: Vec<Obj<'a>>,
    arrays: Vec<Arr>,
    /// the deepest nesting of containers
    depth: usize,
    /// the free value's number, and the free object's and array's (any member, any item), once
    /// made
    free: Option<(u32, u32, u32)>,
    /// the objects and arrays whose values are being filled, by the node whose keywords they
    /// are: a schema that refers to itself (a tree, a filter of filters) meets its own node
    /// again inside them, and reads the same container there
    filling: Vec<(NodeId, bool, u32)>,
}

/// Containers a free value may open inside it that the flat reader reads (deeper, the automaton
/// reads the text).
const FREE_DEPTH: usize = 3;

impl<'a> Flat<'a> {
    /// A new value's number (filled by [`Flat::fill`]).
    fn slot(&mut self) -> Option<u32> {
        self.props.push(None);
        u32::try_from(self.props.len() - 1).ok()
    }

    /// Value `id` as node `n` (through `$ref`s alone), `depth` containers deep, with the
    /// containers it may be; `None` when something in it is not read by a flat reader.
    fn fill(&mut self, ir: &'a Ir, id: u32, n: NodeId, depth: usize) -> Option<()> {
        if let Some(t) = through_refs(ir, n) {
            if let Some(u) = object_union(ir, t) {
                return self.fill_objects(ir, id, n, t, u, depth);
            }
        }
        let t = through_refs(ir, n)?;
        // An `allOf` (or a `$ref` beside keywords) whose subschemas' keywords merge: read as
        // plain keywords.
        if let Some((c, own)) = self.merged.get(t).and_then(Option::as_ref) {
            return self.fill_plain(ir, id, n, *own, c, depth);
        }
        // No value satisfies it (`false`, `{"not": {}}`, …): as the stream program reads it.
        if no_value(ir, t) {
            return self.fill_never(ir, id);
        }
        let c = match &ir.node(t).body {
            Body::Checks(c) => c,
            Body::Always => return self.fill_free(ir, id, depth),
            Body::Never => return self.fill_never(ir, id),
        };
        match shape_of(ir, t) {
            shape::PLAIN => self.fill_plain(ir, id, n, t, c, depth),
            shape::UNION => self.fill_union(ir, id, n, t, c, depth),
            // Keywords of its own that the lean automaton leaves to the general one
            // (`patternProperties`, `contains`), and no applicator: read as a plain value's where
            // the object and array readers take them.
            shape::GENERAL if !has(c).in_place => self.fill_plain(ir, id, n, t, c, depth),
            // An object whose applicators are a rule on its names: its keywords are read as a
            // plain object's, the rule judged where it closes.
            _ if c.type_list().is_some_and(|l| l == [JsonType::Object])
                && rule_of(ir, c, true, &mut Vec::new(), 0, true).is_some() =>
            {
                self.fill_plain(ir, id, n, t, c, depth)
            }
            _ => match listed_branches(ir, c) {
                Some(listed) => self.fill_listed(id, n, t, c, listed),
                None => self.fill_overlap(ir, id, n, t, c),
            },
        }
    }

    /// The free value's, object's and array's numbers, made the first time.
    fn free(&mut self, ir: &'a Ir) -> Option<(u32, u32, u32)> {
        if let Some(f) = self.free {
            return Some(f);
        }
        let item = self.slot()?;
        let o = u32::try_from(self.objects.len()).ok()?;
        self.objects.push(Obj {
            names: Vec::new(),
            first: 0,
            required: 0,
            closed: false,
            min: 0,
            max: u64::MAX,
            extra: Some(item),
            branches: Vec::new(),
            open: 0,
            rule: None,
            pattern: None,
            key_rule: None,
        });
        let a = u32::try_from(self.arrays.len()).ok()?;
        self.arrays.push(Arr {
            item,
            prefix: 0,
            first: 0,
            min: 0,
            max: u64::MAX,
            unique: false,
            contains: false,
            node: ir.root,
        });
        self.free = Some((item, o, a));
        self.fill_free(ir, item, 0)?;
        self.free
    }

    /// Value `id`, `depth` containers deep: a free value (read as the free value is: the
    /// containers in it are the free object and array).
    fn fill_free(&mut self, ir: &'a Ir, id: u32, depth: usize) -> Option<()> {
        let (_, o, a) = self.free(ir)?;
        self.depth = self.depth.max((depth + FREE_DEPTH).min(MAX_DEPTH));
        self.fill_bare(ir, id, Some((o, a)))
    }

    /// Value `id`: `false`, no value (each first byte hands over: the automaton finds it dead).
    fn fill_never(&mut self, ir: &'a Ir, id: u32) -> Option<()> {
        self.fill_bare(ir, id, None)
    }

    /// Value `id`, without keywords: free (any value; `containers`: the free object and array),
    /// or none.
    fn fill_bare(&mut self, ir: &'a Ir, id: u32, containers: Option<(u32, u32)>) -> Option<()> {
        let prop = Prop {
            free: containers.is_some(),
            object: containers.map(|c| c.0),
            array: containers.map(|c| c.1),
            ..Prop::bare(ir.root, self.empty, ir.root, if containers.is_some() { 127 } else { 0 })
        };
        *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
        Some(())
    }

    /// Value `id`: node `n`, a union (node `t`, keywords `c`) whose branches take different
    /// kinds of value, each read as a value of its own.
    fn fill_union(&mut self, ir: &'a Ir, id: u32, n: NodeId, t: NodeId, c: &'a Checks, depth: usize) -> Option<()> {
        let branches = if c.any_of.is_empty() { &c.one_of } else { &c.any_of };
        let mut via = Vec::new();
        for &b in branches {
            let q = self.slot()?;
            self.fill(ir, q, b, depth)?;
            let kinds = self.props.get(usize::try_from(q).ok()?)?.as_ref()?.kinds;
            via.push((kinds, q));
        }
        let kinds = via.iter().fold(0, |a, v| a | v.0);
        let prop = Prop { via, ..Prop::bare(n, c, t, kinds) };
        *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
        Some(())
    }

    /// Value `id`: node `n`, a union (node `t`, keywords `c`, nothing but its `anyOf` or `oneOf`)
    /// of scalar values whose kinds overlap (`anyOf: [{"type": "integer"}, {"type": "number",
    /// "multipleOf": 0.5}]`), each branch plain keywords without an `enum`, a `const` or a
    /// `pattern`: nothing in a branch dies inside a string or a number but its `maxLength` and a
    /// number's sign, and the union dies there only when every branch does. Read as a string no
    /// longer than the longest a branch allows, or a number whose `-` some branch allows, judged
    /// where it ends by the union's scan function; a literal only when it leaves one branch
    /// alive in a `oneOf` (two would be a death at its end, which the reader does not judge).
    /// `None` for any other node.
    fn fill_overlap(&mut self, ir: &'a Ir, id: u32, n: NodeId, t: NodeId, c: &'a Checks) -> Option<()> {
        let one = c.any_of.is_empty();
        let branches = if one { &c.one_of } else { &c.any_of };
        if branches.is_empty()
            || !(c.any_of.is_empty() || c.one_of.is_empty())
            || !only_in_place(c)
            || c.reference.is_some()
            || !c.all_of.is_empty()
            || c.not.is_some()
            || c.if_.is_some()
        {
            return None;
        }
        let (mut kinds, mut max, mut minus, mut literals) = (0u8, 0u64, false, [0u8; 2]);
        for &b in branches {
            let Some(bc) = plain_scalar(ir, b)? else { continue };
            let k = bc.type_list()?.iter().fold(0, |a, t| a | type_bits(*t));
            kinds |= k & (STRING | INTEGER | NUMBER);
            if k & STRING != 0 {
                max = max.max(bc.max_length.as_ref().map_or(u64::MAX, |m| m.value));
            }
            minus |= k & (INTEGER | NUMBER) != 0 && minus_alive(bc);
            for (count, bit) in literals.iter_mut().zip([NULL, BOOLEAN]) {
                *count = count.saturating_add(u8::from(k & bit != 0));
            }
        }
        for (count, bit) in literals.into_iter().zip([NULL, BOOLEAN]) {
            if count == 1 || (count > 1 && !one) {
                kinds |= bit;
            }
        }
        if one {
            // Two branches that take every string (or every number) kill a `oneOf`'s value of
            // that kind at its first byte in the automaton: handed over there.
            for kind in [STRING, NUMBER] {
                if branches.iter().filter(|&&b| sure_kinds(ir, b) & kind != 0).nth(1).is_some() {
                    kinds &= !(kind | if kind == NUMBER { INTEGER } else { 0 });
                }
            }
        }
        let prop = Prop { overlap: Some((max, minus)), ..Prop::bare(n, c, t, kinds) };
        *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
        Some(())
    }

    /// Value `id`: node `n`, a union of lists (node `t`, keywords `c`; [`listed_branches`]), read
    /// as one `enum` of the members a value may be: its strings followed member by member, its
    /// literals checked at their first byte, its numbers judged by the union's scan function
    /// where they end.
    fn fill_listed(&mut self, id: u32, n: NodeId, t: NodeId, c: &'a Checks, listed: Listed<'a>) -> Option<()> {
        let Listed { strings, literals, kinds, numbers } = listed;
        let members = (!strings.is_empty()).then_some(strings);
        let prop = Prop { members, listed: Some(literals), numbers, ..Prop::bare(n, c, t, kinds) };
        *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
        Some(())
    }

    /// Value `id`: node `n`, a union of objects (node `t`, [`object_union`] `u`): its objects read
    /// as one object whose names are all of theirs, the branches alive narrowed by each name
    /// (a closed branch that does not declare it dies), each tag's member and each member
    /// counted, as the automaton has them; where it closes, its rule says whether one branch
    /// alive (in a `oneOf`, exactly one) holds the names present and the member count. The
    /// union's other branches (no object among them) are read as a union whose branches take
    /// different kinds. Met again inside itself, its object is the same ([`Flat::again`]).
    fn fill_objects(
        &mut self,
        ir: &'a Ir,
        id: u32,
        n: NodeId,
        t: NodeId,
        u: ObjectUnion<'a>,
        depth: usize,
    ) -> Option<()> {
        let Body::Checks(c) = &ir.node(t).body else { return None };
        if depth >= MAX_DEPTH {
            return None;
        }
        self.depth = self.depth.max(depth + 1);
        let (o, others) = match self.again(t, false) {
            Some(o) => (o, u.others),
            None => self.union_object(ir, t, u, depth)?,
        };
        let object = Prop { object: Some(o), ..Prop::bare(t, c, t, OBJECT) };
        if others.is_empty() {
            *self.props.get_mut(usize::try_from(id).ok()?)? = Some(Prop { node: n, ..object });
            return Some(());
        }
        // The other branches, each a kind of value none of the others takes, nor an object.
        let (mut via, mut taken) = (Vec::new(), OBJECT);
        for b in others {
            let q = self.slot()?;
            self.fill(ir, q, b, depth)?;
            let kinds = self.props.get(usize::try_from(q).ok()?)?.as_ref()?.kinds;
            if kinds & taken != 0 {
                return None;
            }
            taken |= kinds;
            via.push((kinds, q));
        }
        let q = self.slot()?;
        *self.props.get_mut(usize::try_from(q).ok()?)? = Some(object);
        via.push((OBJECT, q));
        let prop = Prop { via, ..Prop::bare(n, c, t, taken) };
        *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
        Some(())
    }

    /// The object of union of objects `u` (node `t`'s, `depth` containers deep), its names'
    /// values filled: its number, and the union's other branches.
    fn union_object(&mut self, ir: &'a Ir, t: NodeId, u: ObjectUnion<'a>, depth: usize) -> Option<(u32, Vec<NodeId>)> {
        let ObjectUnion { others, names, open, extra, branches, rule } = u;
        let ids = names.iter().map(|_| self.slot()).collect::<Option<Vec<_>>>()?;
        let extra_id = if open != 0 { Some(self.slot()?) } else { None };
        let o = u32::try_from(self.objects.len()).ok()?;
        self.objects.push(Obj {
            names: names.iter().map(|(name, _)| *name).collect(),
            first: ids.first().copied().unwrap_or(0),
            required: 0,
            closed: open == 0,
            min: 0,
            max: u64::MAX,
            extra: extra_id,
            branches,
            open,
            rule: Some(rule),
            pattern: None,
            key_rule: None,
        });
        self.filling.push((t, false, o));
        for ((_, named), &id) in names.into_iter().zip(&ids) {
            match named {
                Named::Same(node) => self.fill(ir, id, node, depth + 1)?,
                Named::Variants(list) => {
                    // The first subschema in the name's own slot, the others in slots of their own.
                    let mut values = Vec::new();
                    for (i, (mask, node)) in list.into_iter().enumerate() {
                        let q = if i == 0 { id } else { self.slot()? };
                        self.fill(ir, q, node, depth + 1)?;
                        values.push((mask, q));
                    }
                    let prop = self.props.get_mut(usize::try_from(id).ok()?)?.as_mut()?;
                    prop.variants = Some(Variants { values, free: extra_id });
                }
                Named::Tag { node, members, picks, tag_members } => {
                    let Body::Checks(pc) = &ir.node(node).body else { return None };
                    // Its keywords are the first branch's (an `enum` or `const` of strings and
                    // perhaps a `type`: nothing the reader checks but the members).
                    let prop = Prop {
                        members: Some(members),
                        listed: Some(0),
                        picks,
                        tag_members,
                        ..Prop::bare(node, pc, node, STRING)
                    };
                    *self.props.get_mut(usize::try_from(id).ok()?)? = Some(prop);
                }
            }
        }
        if let Some(id) = extra_id {
            match extra {
                Some(a) => self.fill(ir, id, a, depth + 1)?,
                None => self.fill_free(ir, id, depth + 1)?,
            }
        }
        self.filling.pop();
        Some((o, others))
    }

    /// Value `id`: node `n` whose own keywords are `c`.
    fn fill_plain(&mut self, ir: &'a Ir, id: u32, n: NodeId, own: NodeId, c: &'a Checks, depth: usize) -> Option<()> {
        let mut kinds = c.type_list().map_or(127, |ts| ts.iter().fold(0, |a, t| a | type_bits(*t)));
        let members = match (&c.enum_values, &c.const_value) {
            (None, None) => None,
            (Some(e), None) => Some(e.value.iter().map(|(v, _)| v).collect::<Vec<_>>()),
            (None, Some(v)) => Some(vec![&v.value]),
            (Some(_), Some(_)) => return None,
        };
        // Strings followed member by member, literals checked at their first byte, numbers
        // watched against the members as their bytes come and judged by the scan function when
        // they end (as the automaton has them); arrays and objects are for the quick reader.
        let numbers = members.as_deref().and_then(watched_numbers).unwrap_or_default();
        let (members, listed) = match members {
            Some(m) => {
                kinds &= m.iter().fold(0, |a, v| a | value_bits(v));
                let strings: Vec<&str> = m
                    .iter()
                    .filter_map(|v| if let JsonValue::String(s) = v { Some(s.as_str()) } else { None })
                    .collect();
                if kinds & CONTAINERS != 0 || strings.len() > MAX {
                    return None;
                }
                let literals = m.iter().fold(0u8, |a, v| {
                    a | match v {
                        JsonValue::Null => 1,
                        JsonValue::Bool(true) => 2,
                        JsonValue::Bool(false) => 4,
                        _ => 0,
                    }
                });
                ((!strings.is_empty()).then_some(strings), Some(literals))
            }
            None => (None, None),
        };
        if kinds & STRING != 0 && c.stepped_pattern().is_some() && members.is_some() {
            return None;
        }
        if kinds & CONTAINERS != 0 && depth >= MAX_DEPTH {
            return None;
        }
        self.depth = self.depth.max(depth + usize::from(kinds & CONTAINERS != 0));
        let key = through_refs(ir, n)?;
        let object = if kinds & OBJECT != 0 { Some(self.object(ir, key, c, depth + 1)?) } else { None };
        let array = if kinds & ARRAY != 0 { Some(self.array(ir, key, n, c, depth + 1)?) } else { None };
        let slot = self.props.get_mut(usize::try_from(id).ok()?)?;
        *slot = Some(Prop { members, listed, numbers, object, array, ..Prop::bare(n, c, own, kinds) });
        Some(())
    }

    /// The object keywords `c`, node `key`'s (of a value that may be an object, `depth`
    /// containers deep): its number.
    fn object(&mut self, ir: &'a Ir, key: NodeId, c: &'a Checks, depth: usize) -> Option<u32> {
        if c.pattern_properties.len() > 1 || !members_followed(c) {
            return None;
        }
        // `unevaluatedProperties` where nothing but `properties`, `patternProperties` and
        // `additionalProperties` evaluates names: the merged parts' (see [`merged`]) or this
        // object's own, whose rule on names speaks of `required`s only. It then takes the names
        // `properties` does not declare and no pattern matches, as `additionalProperties` would
        // (which, beside it, takes them all itself). An `if` whose condition speaks of values
        // (its `properties` evaluate the names it matches) leaves it to the automaton.
        if c.unevaluated_properties.is_some() && c.if_.is_some() {
            return None;
        }
        let additional = c.additional.or(c.unevaluated_properties);
        let closed = additional.is_some_and(|a| no_value(ir, a));
        // Names `required` lists and `properties` does not: declared here too, their value as
        // `additionalProperties` has it (free without it); a closed object that requires one
        // (never valid) is the quick reader's.
        let mut names: Vec<&str> = c.properties.iter().map(|p| p.name.as_str()).collect();
        let declared = names.len();
        for r in &c.required {
            if !names.contains(&r.0.as_str()) {
                names.push(&r.0);
            }
        }
        // Names its rule speaks of: declared too (a closed object's rule on a name it does not
        // declare is the quick reader's).
        let rule = rule_of(ir, c, true, &mut names, 0, true)?;
        let rule = (rule != Rule::All(Vec::new())).then_some(rule);
        if names.len() > MAX || (closed && names.len() > declared) {
            return None;
        }
        // One `patternProperties` entry, which no name the reader compares matches (such a
        // member's value would have two subschemas), on the keywords of node `key` itself (its
        // automaton's static is named after the node).
        let pattern = match c.pattern_properties.first() {
            Some((pat, node)) => {
                let own = matches!(&ir.node(key).body, Body::Checks(k) if std::ptr::eq(&**k, c));
                if !own || regex::matches_any(&pat.translated, &names) != Some(false) {
                    return None;
                }
                Some((pname(ir, key, usize::from(c.stepped_pattern().is_some())), *node))
            }
            None => None,
        };
        let names_rule = match c.property_names {
            Some(n) => property_names(ir, n)?,
            None => None,
        };
        // A closed object beside its pattern: a key dies where no declared name continues it
        // and the pattern can no longer match it (as the automaton has it), the pattern's
        // automaton stepped on the key as `propertyNames`' is (then the only one: beside
        // `propertyNames`, the automaton's).
        let names_rule = match (&pattern, closed) {
            (Some(_), true) if names_rule.is_some() => return None,
            (Some((name, _)), true) => Some((Some(name.clone()), 0, u64::MAX)),
            _ => names_rule,
        };
        if let Some(o) = self.again(key, false) {
            return Some(o);
        }
        let bit = |i: usize| 1u64 << i;
        let required =
            c.required.iter().filter_map(|r| names.iter().position(|n| *n == r.0)).fold(0u64, |a, i| a | bit(i));
        let ids = names.iter().map(|_| self.slot()).collect::<Option<Vec<_>>>()?;
        // Undeclared members: free values without `additionalProperties`, else its value.
        let extra = if closed { None } else { Some(self.slot()?) };
        let matched = match pattern {
            Some((name, node)) => Some((name, node, self.slot()?)),
            None => None,
        };
        // More names required than members allowed: no object is valid, dead at its `{` (the
        // automaton's).
        if c.max_properties.as_ref().is_some_and(|m| (c.required.len() as u64) > m.value) {
            return None;
        }
        let o = u32::try_from(self.objects.len()).ok()?;
        self.objects.push(Obj {
            first: ids.first().copied().unwrap_or(0),
            names,
            required,
            // (A name its pattern matches is one more member it may take.)
            closed: closed && matched.is_none(),
            min: c.min_properties.as_ref().map_or(0, |m| m.value),
            max: c.max_properties.as_ref().map_or(u64::MAX, |m| m.value),
            extra,
            branches: Vec::new(),
            open: 0,
            rule,
            pattern: matched.as_ref().map(|(name, _, id)| (name.clone(), *id)),
            key_rule: names_rule,
        });
        self.filling.push((key, false, o));
        for (p, &id) in c.properties.iter().zip(&ids) {
            self.fill(ir, id, p.node, depth)?;
        }
        let undeclared = ids.get(declared..).unwrap_or_default().iter().copied().chain(extra);
        for id in undeclared {
            match additional {
                Some(a) => self.fill(ir, id, a, depth)?,
                None => self.fill_free(ir, id, depth)?,
            }
        }
        if let Some((_, node, id)) = matched {
            self.fill(ir, id, node, depth)?;
        }
        self.filling.pop();
        Some(o)
    }

    /// The object (`arr`: the array) of node `key` whose values are being filled around this
    /// one, when there is one: the schema refers to itself, and its values inside are read as
    /// the same container's, as deep as the reader's stack goes (the deepest it can be; deeper,
    /// the automaton reads the text).
    fn again(&mut self, key: NodeId, arr: bool) -> Option<u32> {
        let &(_, _, c) = self.filling.iter().find(|&&(k, a, _)| k == key && a == arr)?;
        self.depth = MAX_DEPTH;
        Some(c)
    }

    /// The array keywords `c` of node `n` (node `key`'s, through `$ref`s; a value that may be
    /// an array, `depth` containers deep): its number. Only `prefixItems` and `items` (or
    /// `unevaluatedItems`) with counts, `uniqueItems` and `contains`.
    fn array(&mut self, ir: &'a Ir, key: NodeId, n: NodeId, c: &'a Checks, depth: usize) -> Option<u32> {
        // A `contains` is judged where the array closes, as the automaton judges it; not with a
        // `maxContains`, which dies at the item past it.
        let never = |n: NodeId| no_value(ir, n);
        if c.contains.is_some_and(never) || c.max_contains.is_some() {
            return None;
        }
        // `unevaluatedItems` where nothing but `prefixItems` and `items` evaluates items (no
        // `contains`, nothing applied in place): it takes the items past the prefix, as `items`
        // would (which, beside it, takes them all itself).
        if c.unevaluated_items.is_some() && (c.contains.is_some() || has(c).in_place) {
            return None;
        }
        let items = c.items.or(c.unevaluated_items);
        if let Some(a) = self.again(key, true) {
            return Some(a);
        }
        let prefix = c.prefix_items.iter().map(|_| self.slot()).collect::<Option<Vec<_>>>()?;
        let item = self.slot()?;
        let a = u32::try_from(self.arrays.len()).ok()?;
        // `items: false` (or a subschema no value satisfies) after the prefix: no more items
        // than the prefix has (the reader stops at the `,` that promises one more).
        let mut max = c.max_items.as_ref().map_or(u64::MAX, |m| m.value);
        if items.is_some_and(never) {
            max = max.min(u64::try_from(prefix.len()).ok()?);
        }
        // A prefix item no value satisfies: no more items than come before it.
        if let Some(k) = c.prefix_items.iter().position(|&i| never(i)) {
            max = max.min(u64::try_from(k).ok()?);
        }
        self.arrays.push(Arr {
            item,
            prefix: u32::try_from(prefix.len()).ok()?,
            first: prefix.first().copied().unwrap_or(0),
            min: c.min_items.as_ref().map_or(0, |m| m.value),
            max,
            unique: c.unique_items,
            contains: c.contains.is_some(),
            node: n,
        });
        self.filling.push((key, true, a));
        for (&p, &id) in c.prefix_items.iter().zip(&prefix) {
            self.fill(ir, id, p, depth)?;
        }
        match items {
            Some(items) => self.fill(ir, item, items, depth)?,
            None => self.fill_free(ir, item, depth)?,
        }
        self.filling.pop();
        Some(a)
    }
}

/// The bits of the words of `words` with byte `b` at `off`, by two table lookups (no branch on
/// the byte: a name's byte is where a reply's keys are read): per offset, a byte's index into the
/// distinct masks (printable ASCII only: no name byte elsewhere is read as plain), then its mask.
/// More than 255 distinct masks (long names): a `match`.
fn byte_match(words: &[&str]) -> TokenStream {
    let mut at: BTreeMap<usize, BTreeMap<u8, u64>> = BTreeMap::new();
    for (i, w) in words.iter().enumerate().take(MAX) {
        for (off, &b) in w.as_bytes().iter().enumerate() {
            *at.entry(off).or_default().entry(b).or_insert(0) |= 1u64 << i;
        }
    }
    let mut masks: Vec<u64> = vec![0];
    let mut rows: Vec<Vec<u8>> = Vec::new();
    for bytes in at.values() {
        let mut row = vec![0u8; 128];
        for (&b, &m) in bytes {
            let i = masks.iter().position(|&x| x == m).unwrap_or_else(|| {
                masks.push(m);
                masks.len() - 1
            });
            if let (Some(slot), Ok(i)) = (row.get_mut(usize::from(b)), u8::try_from(i)) {
                *slot = i;
            }
        }
        rows.push(row);
    }
    if masks.len() > 256 {
        let arms = at.iter().map(|(off, bytes)| {
            let inner = bytes.iter().map(|(b, m)| quote!(#b => #m,));
            quote!(#off => match b { #(#inner)* _ => 0 },)
        });
        return quote! {
            match off {
                #(#arms)*
                _ => 0,
            }
        };
    }
    // The masks padded to a power of two, and the byte taken below 128 (the reader only looks
    // up plain bytes): neither lookup is bounds-checked at run time.
    masks.resize(masks.len().next_power_of_two(), 0);
    let n = rows.len();
    let k = masks.len();
    let last = k - 1;
    let rows = rows.iter().map(|r| quote!([#(#r),*]));
    quote! {{
        static INDEX: [[::core::primitive::u8; 128]; #n] = [#(#rows),*];
        static MASKS: [::core::primitive::u64; #k] = [#(#masks),*];
        let i = INDEX.get(off).and_then(|row| row.get(::core::primitive::usize::from(b & 127))).copied().unwrap_or(0);
        MASKS.get(::core::primitive::usize::from(i) & #last).copied().unwrap_or(0)
    }}
}

/// The bits of the words of `words` with byte `b`, a byte of a multi-byte character, at `off`
/// (what [`byte_match`]'s tables leave out): a `match` on both, one arm per set of words;
/// `None` when the words are ASCII.
fn other_match(words: &[&str]) -> Option<TokenStream> {
    let mut at: BTreeMap<(usize, u8), u64> = BTreeMap::new();
    for (i, w) in words.iter().enumerate().take(MAX) {
        for (off, &b) in w.as_bytes().iter().enumerate().filter(|(_, b)| !b.is_ascii()) {
            *at.entry((off, b)).or_insert(0) |= 1u64 << i;
        }
    }
    if at.is_empty() {
        return None;
    }
    let mut by_mask: BTreeMap<u64, Vec<(usize, u8)>> = BTreeMap::new();
    for (key, mask) in at {
        by_mask.entry(mask).or_default().push(key);
    }
    let arms = by_mask.iter().map(|(mask, keys)| {
        let keys = keys.iter().map(|(off, b)| quote!((#off, #b)));
        quote!(#(#keys)|* => #mask,)
    });
    Some(quote! {
        match (off, b) {
            #(#arms)*
            _ => 0,
        }
    })
}

/// `match len` over the byte lengths of `words`: the bits of the words that long.
fn len_match(words: &[&str]) -> TokenStream {
    let mut of: BTreeMap<usize, u64> = BTreeMap::new();
    for (i, w) in words.iter().enumerate().take(MAX) {
        *of.entry(w.len()).or_insert(0) |= 1u64 << i;
    }
    let arms = of.iter().map(|(len, m)| quote!(#len => #m,));
    quote! {
        match len {
            #(#arms)*
            _ => 0,
        }
    }
}

/// Node `t`'s keywords merged with those of its `allOf`'s subschemas and its `$ref`'s target
/// (through `$ref`s), when they are plain keywords that do not overlap: what the conjunction
/// says is then what the merged keywords say, and the automaton, dead where any part is, dies
/// where the merged keywords do (`allOf: [{"$ref": "#/$defs/Base"}, {"properties": {...},
/// "required": [...]}]`, OpenAPI's inheritance; `allOf: [{"type": "integer"}, {"minimum": 1}]`).
/// Their `type`s intersect, their `properties` (no name twice) and `required`s add up; any other
/// keyword is one part's (an `additionalProperties` only where no other part speaks of
/// members: it speaks of its own part's names; node `t`'s own `unevaluatedProperties` speaks of
/// every part's). A part's `not` (`allOf: [{"type": "integer"},
/// {"not": {"const": 13}}]`, or beside a `type`) is kept as the merged keywords' `not`, a mark
/// that the node's scan function judges the value where it ends: the automaton's `not` dies
/// there and nowhere else (but at the first byte when its subschema takes everything, which
/// is not merged), for a string or a number (a literal's end, and a container's, the reader
/// does not judge). With the merged keywords, the node whose `pattern` (or asserted `format`'s
/// automaton, [`Checks::stepped_pattern`]) they step. `None` for any other node.
fn merged(ir: &Ir, t: NodeId) -> Option<(Checks, NodeId)> {
    let Body::Checks(c) = &ir.node(t).body else { return None };
    if (c.all_of.is_empty() && c.reference.is_none() && c.not.is_none()) || shape_of(ir, t) == shape::REF {
        return None;
    }
    let mut parts = vec![(t, Checks { all_of: Vec::new(), reference: None, ..Checks::clone(c) })];
    for &b in c.all_of.iter().chain(c.reference.as_ref().map(|r| &r.value.1)) {
        let p = through_refs(ir, b)?;
        match &ir.node(p).body {
            Body::Always => {}
            Body::Never => return None,
            Body::Checks(pc) => parts.push((p, Checks::clone(pc))),
        }
    }
    let members =
        parts.iter().filter(|(_, p)| !p.properties.is_empty() || !p.required.is_empty() || p.additional.is_some());
    let members = members.count();
    let mut m = Checks::default();
    let mut own = t;
    let mut format_own = t;
    for (node, mut part) in parts {
        if let Some(x) = part.not.take() {
            if matches!(ir.node(through_refs(ir, x)?).body, Body::Always) {
                return None;
            }
            m.not.get_or_insert(x);
        }
        // (`dependentRequired` is the one keyword of `has`'s generic group merged here, and
        // the node's own `unevaluatedProperties`, which speaks of every part's names.)
        let own_unevaluated = if node == t { part.unevaluated_properties.take() } else { None };
        let generic = has(&Checks { dependent_required: Vec::new(), ..Checks::clone(&part) }).generic;
        if has(&part).in_place || generic || (part.additional.is_some() && members > 1) {
            return None;
        }
        // Every keyword, so that one added to the IR later does not compile here until merged.
        let Checks {
            types,
            enum_values,
            const_value,
            properties,
            required,
            additional,
            items,
            min_items,
            max_items,
            unique_items,
            min_length,
            max_length,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_properties,
            max_properties,
            pattern,
            format,
            dependent_required,
            reference: _,
            all_of: _,
            any_of: _,
            one_of: _,
            not: _,
            if_: _,
            then_: _,
            else_: _,
            prefix_items: _,
            contains: _,
            min_contains: _,
            max_contains: _,
            pattern_properties: _,
            property_names: _,
            dependent_schemas: _,
            unevaluated_properties: _,
            unevaluated_items: _,
            additional_items: _,
            format_prefix,
        } = part;
        if let Some(ts) = types {
            m.types = Some(match m.types {
                None => ts,
                Some(before) => Kw { value: type_meet(&before.value, &ts.value)?, loc: before.loc },
            });
        }
        for p in properties {
            if m.properties.iter().any(|q| q.name == p.name) {
                return None;
            }
            m.properties.push(p);
        }
        for r in required {
            if !m.required.iter().any(|q| q.0 == r.0) {
                m.required.push(r);
            }
        }
        m.unique_items |= unique_items;
        if pattern.is_some() {
            own = node;
        }
        if format_prefix.is_some() {
            format_own = node;
        }
        if !dependent_required.is_empty() {
            if !m.dependent_required.is_empty() {
                return None;
            }
            m.dependent_required = dependent_required;
        }
        once(&mut m.enum_values, enum_values)?;
        once(&mut m.const_value, const_value)?;
        once(&mut m.additional, additional)?;
        once(&mut m.items, items)?;
        once(&mut m.min_items, min_items)?;
        once(&mut m.max_items, max_items)?;
        once(&mut m.min_length, min_length)?;
        once(&mut m.max_length, max_length)?;
        once(&mut m.minimum, minimum)?;
        once(&mut m.maximum, maximum)?;
        once(&mut m.exclusive_minimum, exclusive_minimum)?;
        once(&mut m.exclusive_maximum, exclusive_maximum)?;
        once(&mut m.multiple_of, multiple_of)?;
        once(&mut m.min_properties, min_properties)?;
        once(&mut m.max_properties, max_properties)?;
        once(&mut m.pattern, pattern)?;
        once(&mut m.format, format)?;
        once(&mut m.format_prefix, format_prefix)?;
        once(&mut m.unevaluated_properties, own_unevaluated)?;
    }
    let scalar =
        |ts: &[JsonType]| ts.iter().all(|t| matches!(t, JsonType::String | JsonType::Number | JsonType::Integer));
    if m.not.is_some() && !m.types.as_ref().is_some_and(|ts| scalar(&ts.value)) {
        return None;
    }
    // A `not` whose subschema takes every value of a kind the merged keywords allow dies at the
    // value's first byte in the automaton: not merged.
    let kinds = m.types.as_ref().map_or(0, |ts| ts.value.iter().fold(0, |a, t| a | type_bits(*t)));
    if m.not.is_some_and(|x| sure_kinds(ir, x) & kinds != 0) {
        return None;
    }
    // The node whose pattern 0 is the automaton the merged keywords step: the `pattern`'s, or
    // where no part has one, the `format`'s. (A `pattern` and a `format` of two parts are two
    // automata, which the automata step both: not merged.)
    if m.pattern.is_none() {
        own = format_own;
    } else if m.format_prefix.is_some() && own != format_own {
        return None;
    }
    Some((m, own))
}

/// What `propertyNames` (node `n`) says of a name, as the reader checks it key byte by key byte:
/// `Some(None)` nothing (`true`, or keywords of other kinds of value only), `Some(Some(..))` its
/// `pattern`'s static, `minLength` and `maxLength`; `None` for anything else (`enum`, `const`,
/// `format`, applicators, `false`).
fn property_names(ir: &Ir, n: NodeId) -> Option<Option<(Option<proc_macro2::Ident>, u64, u64)>> {
    let t = through_refs(ir, n)?;
    let c = match &ir.node(t).body {
        Body::Always => return Some(None),
        Body::Never => return None,
        Body::Checks(c) => c,
    };
    let h = has(c);
    let strings = c.type_list().is_none_or(|ts| ts.contains(&JsonType::String));
    if h.generic || h.in_place || !strings || c.enum_values.is_some() || c.const_value.is_some() || c.format.is_some() {
        return None;
    }
    if c.pattern.is_none() && c.min_length.is_none() && c.max_length.is_none() {
        return Some(None);
    }
    let pattern = c.pattern.as_ref().map(|_| pname(ir, t, 0));
    let min = c.min_length.as_ref().map_or(0, |m| m.value);
    let max = c.max_length.as_ref().map_or(u64::MAX, |m| m.value);
    Some(Some((pattern, min, max)))
}

/// `value` into `slot` when `slot` is empty (`None` when both have one).
fn once<T>(slot: &mut Option<T>, value: Option<T>) -> Option<()> {
    match (&slot, value) {
        (_, None) => {}
        (None, v) => *slot = v,
        (Some(_), Some(_)) => return None,
    }
    Some(())
}

/// The types both lists take (`integer` where one says `number` and the other `integer`);
/// `None` when none.
fn type_meet(a: &[JsonType], b: &[JsonType]) -> Option<Vec<JsonType>> {
    let bits = |ts: &[JsonType]| ts.iter().fold(0u8, |acc, t| acc | type_bits(*t));
    let both = bits(a) & bits(b);
    let all = [
        (JsonType::Null, 1),
        (JsonType::Boolean, 2),
        (JsonType::Number, 4 | 8),
        (JsonType::Integer, 4),
        (JsonType::String, 16),
        (JsonType::Array, 32),
        (JsonType::Object, 64),
    ];
    let mut out = Vec::new();
    let mut taken = 0u8;
    for (t, b) in all {
        if both & b == b && taken & b == 0 {
            out.push(t);
            taken |= b;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Keywords `c` as a rule on an object's names ([`Rule`]), the names it speaks of added to
/// `names` (their bits are their places there). `top`: the object's own keywords (its
/// `required`, and whatever else it says of its members, the object's; a `$ref` beside them is
/// not a rule); else a subschema of the rule, which may say nothing else (a `type` only
/// `object`). `None` when `c` is not a rule (or is deeper than 16 subschemas). `values`:
/// whether an `if` here may be a condition on values ([`Rule::Value`]): where nothing around it
/// turns its falseness into a death (an object's own keywords, an `allOf`'s, a `$ref`'s).
fn rule_of<'a>(
    ir: &'a Ir,
    c: &'a Checks,
    top: bool,
    names: &mut Vec<&'a str>,
    depth: usize,
    values: bool,
) -> Option<Rule> {
    if depth > 16 || (top && c.reference.is_some()) {
        return None;
    }
    let mut all = Vec::new();
    if !top {
        let bare = Checks { required: Vec::new(), dependent_required: Vec::new(), types: None, ..Checks::clone(c) };
        let object = c.type_list().is_none_or(|l| l == [JsonType::Object]);
        if !object || !own_nothing_but_types(&bare) {
            return None;
        }
        all.push(Rule::Has(rule_bits(names, c.required.iter().map(|r| r.0.as_str()))?));
    }
    for (name, due) in &c.dependent_required {
        let present = rule_bits(names, std::iter::once(name.as_str()))?;
        let due = rule_bits(names, due.iter().map(String::as_str))?;
        all.push(Rule::If(Box::new(Rule::Has(present)), Box::new(Rule::Has(due)), Box::new(Rule::All(Vec::new()))));
    }
    let sub = |n: NodeId, names: &mut Vec<&'a str>, values: bool| match &ir.node(n).body {
        Body::Always => Some(Rule::All(Vec::new())),
        Body::Never => Some(Rule::Any(Vec::new())),
        Body::Checks(c) => rule_of(ir, c, false, names, depth + 1, values),
    };
    // A `dependentSchemas` entry of `required`s, applied where its name comes: [`monotone`], it
    // cannot die before the object closes (a `false` or a `not` one could, where it applies).
    for (name, node) in &c.dependent_schemas {
        let present = rule_bits(names, std::iter::once(name.as_str()))?;
        let due = sub(*node, names, false).filter(monotone)?;
        all.push(Rule::If(Box::new(Rule::Has(present)), Box::new(due), Box::new(Rule::All(Vec::new()))));
    }
    if let Some(r) = &c.reference {
        all.push(sub(r.value.1, names, values)?);
    }
    for &b in &c.all_of {
        all.push(sub(b, names, values)?);
    }
    if !c.any_of.is_empty() {
        all.push(Rule::Any(c.any_of.iter().map(|&b| sub(b, names, false)).collect::<Option<_>>()?));
    }
    if !c.one_of.is_empty() {
        all.push(Rule::One(c.one_of.iter().map(|&b| sub(b, names, false)).collect::<Option<_>>()?));
    }
    if let Some(n) = c.not {
        all.push(Rule::Not(Box::new(sub(n, names, false)?)));
    }
    if let Some(cond) = c.if_ {
        let before = names.len();
        let on_names = sub(cond, names, false);
        if on_names.is_none() {
            names.truncate(before);
        }
        let then = c.then_.map_or(Some(Rule::All(Vec::new())), |n| sub(n, names, false))?;
        let otherwise = c.else_.map_or(Some(Rule::All(Vec::new())), |n| sub(n, names, false))?;
        let cond = match on_names {
            Some(cond) => cond,
            // A condition on values, decided wherever the automaton decides it: a `then` and an
            // `else` that die only where the object closes leave the `if` nothing to die of
            // before that, where the condition's scan function decides it.
            None if values && monotone(&then) && monotone(&otherwise) => Rule::Value(cond),
            None => return None,
        };
        all.push(Rule::If(Box::new(cond), Box::new(then), Box::new(otherwise)));
    }
    Some(if all.len() == 1 { all.pop()? } else { Rule::All(all) })
}

/// The bits of `list`'s names among `names` (each added when absent; `None` past [`MAX`]).
fn rule_bits<'a>(names: &mut Vec<&'a str>, list: impl Iterator<Item = &'a str>) -> Option<u64> {
    let mut bits = 0u64;
    for name in list {
        let i = match names.iter().position(|n| *n == name) {
            Some(i) => i,
            None => {
                names.push(name);
                names.len() - 1
            }
        };
        bits |= 1u64.checked_shl(u32::try_from(i).ok()?)?;
    }
    Some(bits)
}

/// Rule `r`, as the emitted code has it (an expression of `seen`, the names present).
fn rule_tokens(ir: &Ir, r: &Rule, p: &TokenStream) -> TokenStream {
    let each = |rs: &[Rule]| rs.iter().map(|r| rule_tokens(ir, r, p)).collect::<Vec<_>>();
    match r {
        Rule::Has(bits) => quote!(#p::flat_rule::has(seen, #bits)),
        Rule::Not(r) => {
            let r = rule_tokens(ir, r, p);
            quote!(#p::flat_rule::not(#r))
        }
        Rule::All(rs) => {
            let rs = each(rs);
            quote!(#p::flat_rule::all(&[#(#rs),*]))
        }
        Rule::Any(rs) => {
            let rs = each(rs);
            quote!(#p::flat_rule::any(&[#(#rs),*]))
        }
        Rule::One(rs) => {
            let rs = each(rs);
            quote!(#p::flat_rule::one(&[#(#rs),*]))
        }
        Rule::If(cond, then, otherwise) => {
            let (cond, then, otherwise) =
                (rule_tokens(ir, cond, p), rule_tokens(ir, then, p), rule_tokens(ir, otherwise, p));
            quote!(#p::flat_rule::when(#cond, #then, #otherwise))
        }
        Rule::Live(b) => {
            let bit = 1u64 << b;
            quote!(#p::flat_rule::has(live, #bit))
        }
        Rule::Value(n) => {
            let scan = sname(ir, *n);
            quote!(#p::flat_scan_span(#scan, span))
        }
    }
}

/// Whether rule `r`'s subschema, applied to an object with the names `seen`, is dead before the
/// object closes, as the automaton finds it where the object opens and where a key closes: a
/// `false`; a `not` whose subschema is sure; a `oneOf` with every branch dead or two sure, or
/// of names only that no name to come can leave with exactly one branch satisfied; an
/// `allOf` with a part dead, an `anyOf` with every branch dead; an `if` whose outcome is dead
/// (its condition sure, or both outcomes dead). A subschema is sure of the object when it takes
/// every object (`true`), or asks only for names that are present (`required` alone:
/// [`rule_sure`]). `None`: never dead before the object closes.
fn rule_dead(r: &Rule, p: &TokenStream) -> Option<TokenStream> {
    let or = |xs: Vec<TokenStream>| -> Option<TokenStream> {
        match xs.len() {
            0 => None,
            _ => Some(quote!((#(#xs)||*))),
        }
    };
    match r {
        Rule::Any(rs) if rs.is_empty() => Some(quote!(true)),
        Rule::Has(_) | Rule::Live(_) | Rule::Value(_) => None,
        Rule::All(rs) => or(rs.iter().filter_map(|r| rule_dead(r, p)).collect()),
        Rule::Any(rs) => {
            let dead: Option<Vec<TokenStream>> = rs.iter().map(|r| rule_dead(r, p)).collect();
            dead.map(|d| quote!((#(#d)&&*)))
        }
        Rule::Not(r) => rule_sure(r, p),
        Rule::One(rs) => {
            let mut ways = Vec::new();
            if let Some(d) = rs.iter().map(|r| rule_dead(r, p)).collect::<Option<Vec<_>>>() {
                ways.push(quote!((#(#d)&&*)));
            }
            let sure: Vec<TokenStream> = rs.iter().filter_map(|r| rule_sure(r, p)).collect();
            if sure.len() > 1 {
                ways.push(quote!(#p::flat_rule::two(&[#(#sure),*])));
            }
            let names: Option<Vec<u64>> =
                rs.iter().map(|r| if let Rule::Has(b) = r { Some(*b) } else { None }).collect();
            if let Some(names) = names.filter(|n| n.len() > 1) {
                ways.push(quote!(#p::flat_rule::cornered(seen, &[#(#names),*])));
            }
            or(ways)
        }
        Rule::If(cond, then, otherwise) => {
            let (then, otherwise) = (rule_dead(then, p), rule_dead(otherwise, p));
            let mut ways = Vec::new();
            if let (Some(e), Some(dead_cond)) = (&otherwise, rule_dead(cond, p)) {
                ways.push(quote!((#e && #dead_cond)));
            }
            if let (Some(e), Some(t)) = (&otherwise, &then) {
                ways.push(quote!((#e && #t)));
            }
            if let (Some(c), Some(t)) = (rule_sure(cond, p), &then) {
                ways.push(quote!((#c && #t)));
            }
            or(ways)
        }
    }
}

/// Whether rule `r`'s subschema is sure of an object with the names `seen`, whatever members
/// follow, as the automaton knows it before the object closes: `true` (an empty `allOf` of
/// rules), or `required` alone with those names present. `None`: never sure before it closes.
fn rule_sure(r: &Rule, p: &TokenStream) -> Option<TokenStream> {
    match r {
        Rule::All(rs) if rs.is_empty() => Some(quote!(true)),
        Rule::Has(bits) => Some(quote!(#p::flat_rule::has(seen, #bits))),
        _ => None,
    }
}

/// A name of a union of objects whose subschema differs between the objects that declare it
/// ([`Named::Variants`]): per subschema, the objects that declare it so (bits) and the value
/// number it is read as; the value number of the open objects' undeclared members, read when no
/// object alive declares it (`None`: no object is open).
struct Variants {
    values: Vec<(u16, u32)>,
    free: Option<u32>,
}

/// A union of objects ([`Flat::fill_objects`]), as [`object_union`] finds it.
struct ObjectUnion<'a> {
    /// its branches that are not objects
    others: Vec<NodeId>,
    /// every name its objects declare, in the order they declare them, with its value
    names: Vec<(&'a str, Named<'a>)>,
    /// the objects that take undeclared names (bits), and the subschema of those (`None`: free)
    open: u16,
    extra: Option<NodeId>,
    /// per object, the names it takes and those it requires (bits), its `minProperties` and
    /// `maxProperties`
    branches: Vec<(u64, u64, u64, u64)>,
    /// which objects hold an object where it closes ([`Rule::Live`] and `required`s)
    rule: Rule,
}

/// The value of a name a union of objects declares ([`ObjectUnion`]).
enum Named<'a> {
    /// the same subschema wherever it is declared (node)
    Same(NodeId),
    /// different subschemas, not all tags: per subschema, the objects that declare it so (bits)
    /// and its node; read as the one subschema of the objects alive that declare it (when they
    /// have several, the automaton reads the value)
    Variants(Vec<(u16, NodeId)>),
    /// a tag: an `enum` or `const` of strings wherever it is declared (the first such node);
    /// its members, per member the objects it leaves alive, per object the members it takes
    Tag { node: NodeId, members: Vec<&'a str>, picks: Vec<u16>, tag_members: Vec<u64> },
}

/// Node `t` as a union of objects: nothing but its `anyOf` or `oneOf` (perhaps with a `type`
/// that takes objects), at least two of whose branches are, through `$ref`s, objects (plain
/// keywords with a `type` that takes objects or none, no `enum` or `const`, at most 16 of them),
/// where a name declared only in some is left free by the open objects that do not (or has their
/// `additionalProperties`, if the same subschema), the open objects' undeclared members have one
/// subschema, and each object's `required` are declared names and its rule on names speaks of
/// those only. A name two objects declare with different subschemas is a tag when they are all
/// `enum`s or `const`s of strings, else read as the objects alive that declare it give it. The
/// other branches take other kinds than objects, beside objects that take only objects and no
/// `type` on the union. Then every value read in the object is valid in every branch alive that
/// takes its name, and a branch's life depends only on the names, the tags' members and the
/// member count, which the flat reader follows; values of other kinds than the objects' are
/// read by the automaton when an object takes them. `None` for any other node.
fn object_union(ir: &Ir, t: NodeId) -> Option<ObjectUnion<'_>> {
    let Body::Checks(c) = &ir.node(t).body else { return None };
    let one = c.any_of.is_empty();
    let branches = match (c.any_of.as_slice(), c.one_of.as_slice()) {
        (b, []) | ([], b) if b.len() >= 2 => b,
        _ => return None,
    };
    let rest = Checks { types: None, ..Checks::clone(c) };
    if c.type_list().is_some_and(|l| !l.contains(&JsonType::Object))
        || !only_in_place(&rest)
        || c.reference.is_some()
        || !c.all_of.is_empty()
        || c.not.is_some()
        || c.if_.is_some()
    {
        return None;
    }
    let (mut objects, mut others): (Vec<&Checks>, Vec<NodeId>) = (Vec::new(), Vec::new());
    // Whether an object takes other kinds of value too (no `type`, or more than `object`).
    let mut loose = false;
    for &b in branches {
        let t = through_refs(ir, b)?;
        let object = match &ir.node(t).body {
            Body::Checks(bc) if shape_of(ir, t) == shape::PLAIN => Some(bc).filter(|bc| {
                bc.type_list().is_none_or(|l| l.contains(&JsonType::Object))
                    && bc.enum_values.is_none()
                    && bc.const_value.is_none()
                    && bc.pattern_properties.is_empty()
                    && bc.property_names.is_none()
                    && bc.dependent_schemas.is_empty()
                    && bc.unevaluated_properties.is_none()
            }),
            _ => None,
        };
        match object {
            Some(bc) => {
                loose |= bc.type_list().is_none_or(|l| l != [JsonType::Object]);
                objects.push(&**bc);
            }
            // (Another branch takes other kinds: a `type` without `object`.)
            None => match &ir.node(t).body {
                Body::Checks(oc) if oc.type_list().is_some_and(|l| !l.contains(&JsonType::Object)) => others.push(b),
                _ => return None,
            },
        }
    }
    // Beside other branches, objects that take only objects, and no `type` on the union (its
    // values of other kinds are then read as those branches; else the automaton reads them).
    if objects.len() < 2 || objects.len() > 16 || ((loose || c.types.is_some()) && !others.is_empty()) {
        return None;
    }
    let free = |a: Option<NodeId>| a.is_none_or(|a| matches!(ir.node(a).body, Body::Always));
    let closed = |bc: &Checks| bc.additional.is_some_and(|a| no_value(ir, a));
    let open = objects.iter().zip(0u16..).filter(|(bc, _)| !closed(bc)).fold(0u16, |a, (_, b)| a | 1 << b);
    // Undeclared members: as every open object has them.
    let extras: Vec<Option<NodeId>> =
        objects.iter().filter(|bc| !closed(bc)).map(|bc| bc.additional.filter(|_| !free(bc.additional))).collect();
    let extra = extras.first().copied().flatten();
    if extras.iter().any(|e| e.map(|a| ir.canon(a)) != extra.map(|a| ir.canon(a))) {
        return None;
    }
    // Every name, with the objects that declare it and its subschema in each.
    let mut declared: Vec<(&str, Vec<(usize, NodeId)>)> = Vec::new();
    for (b, bc) in objects.iter().enumerate() {
        for p in &bc.properties {
            // (Its subschema through `$ref`s: two names with the same value through different
            // `$ref`s, or one through a `$ref`, have the same canonical node.)
            let node = through_refs(ir, p.node)?;
            match declared.iter_mut().find(|(n, _)| *n == p.name) {
                Some((_, d)) => d.push((b, node)),
                None => declared.push((&p.name, vec![(b, node)])),
            }
        }
    }
    if declared.len() > MAX {
        return None;
    }
    let mut names = Vec::new();
    // Per object, the objects that no member of a tag leaves alive beside it (bits).
    let mut apart = vec![0u16; objects.len()];
    for (name, d) in &declared {
        let &(_, first) = d.first()?;
        let same = d.iter().all(|&(_, n)| ir.canon(n) == ir.canon(first));
        // The open objects that do not declare it: its value free there, or as here.
        let undeclaring = (0..objects.len()).filter(|&b| open >> b & 1 != 0 && d.iter().all(|&(db, _)| db != b));
        let mut undeclaring_bits = 0u16;
        for b in undeclaring {
            let a = objects.get(b)?.additional;
            if !(free(a) || (same && a.map(|a| ir.canon(a)) == Some(ir.canon(first)))) {
                return None;
            }
            undeclaring_bits |= 1 << b;
        }
        if same {
            names.push((*name, Named::Same(first)));
            continue;
        }
        let Some(strings) = d.iter().map(|&(_, n)| tag_strings(ir, n)).collect::<Option<Vec<_>>>() else {
            // Different subschemas, not all tags: each one with the objects that declare it so
            // (the open objects that do not declare it take it free, as checked above).
            let mut list: Vec<(u16, NodeId)> = Vec::new();
            for &(b, n) in d {
                match list.iter_mut().find(|(_, m)| ir.canon(*m) == ir.canon(n)) {
                    Some((mask, _)) => *mask |= 1 << b,
                    None => list.push((1 << b, n)),
                }
            }
            names.push((*name, Named::Variants(list)));
            continue;
        };
        let (mut members, mut picks, mut tag_members): (Vec<&str>, Vec<u16>, Vec<u64>) =
            (Vec::new(), Vec::new(), vec![0; objects.len()]);
        for (&(b, _), list) in d.iter().zip(strings) {
            for s in list {
                let m = match members.iter().position(|m| *m == s) {
                    Some(m) => m,
                    None => {
                        members.push(s);
                        picks.push(0);
                        members.len() - 1
                    }
                };
                *picks.get_mut(m)? |= 1 << b;
                *tag_members.get_mut(b)? |= 1u64.checked_shl(u32::try_from(m).ok()?)?;
            }
        }
        if members.len() > MAX {
            return None;
        }
        // An open object that does not declare it takes every member.
        let all = (0..members.len()).fold(0u64, |a, m| a | 1 << m);
        for (b, t) in tag_members.iter_mut().enumerate() {
            if undeclaring_bits >> b & 1 != 0 {
                *t = all;
            }
        }
        for p in &mut picks {
            *p |= undeclaring_bits;
        }
        for (b, a) in apart.iter_mut().enumerate() {
            *a |= !picks.iter().filter(|&&p| p >> b & 1 != 0).fold(0, |x, &p| x | p);
        }
        names.push((*name, Named::Tag { node: first, members, picks, tag_members }));
    }
    // A `oneOf` of two objects that ask only for members (`required`, `minProperties`,
    // `properties`) and that no tag keeps apart: the automaton finds it dead where their members
    // make both sure of the object (the runtime's `Node::members_only`: at a key, a member
    // value's first byte or its end), where the union's rule waits for the close; the automaton
    // reads it.
    let members_only =
        |bc: &Checks| free(bc.additional) && bc.max_properties.is_none() && bc.dependent_required.is_empty();
    let sure: Vec<usize> = (0..objects.len()).filter(|&b| objects.get(b).is_some_and(|bc| members_only(bc))).collect();
    if one && sure.iter().any(|&a| sure.iter().any(|&b| a != b && apart.get(a).is_some_and(|x| x >> b & 1 == 0))) {
        return None;
    }
    let bit_of = |name: &str| declared.iter().position(|(n, _)| *n == name).map(|i| 1u64 << i);
    let all_names = (0..declared.len()).fold(0u64, |a, i| a | 1 << i);
    let mut kept = Vec::new();
    let mut holds = Vec::new();
    for (bc, b) in objects.iter().zip(0u32..) {
        let own = bc.properties.iter().map(|p| bit_of(&p.name)).try_fold(0u64, |a, bit| Some(a | bit?))?;
        let takes = if open >> b & 1 != 0 { all_names } else { own };
        let required = bc.required.iter().map(|r| bit_of(&r.0)).try_fold(0u64, |a, bit| Some(a | bit?))?;
        // Its rule on names, over the union's names (a name only its rule speaks of: not read).
        let mut rule_names: Vec<&str> = declared.iter().map(|(n, _)| *n).collect();
        let rule = rule_of(ir, bc, true, &mut rule_names, 0, false)?;
        if rule_names.len() > declared.len() {
            return None;
        }
        // More names required than members allowed: the automaton kills the branch at the
        // `{`; not read here.
        if bc.max_properties.as_ref().is_some_and(|m| (bc.required.len() as u64) > m.value) {
            return None;
        }
        let (min, max) = (
            bc.min_properties.as_ref().map_or(0, |m| m.value),
            bc.max_properties.as_ref().map_or(u64::MAX, |m| m.value),
        );
        kept.push((takes, required, min, max));
        holds.push(Rule::All(vec![Rule::Live(b), Rule::Has(required), rule]));
    }
    let rule = if one { Rule::One(holds) } else { Rule::Any(holds) };
    Some(ObjectUnion { others, names, open, extra, branches: kept, rule })
}

/// A union of lists ([`listed_branches`]): what its values may be.
struct Listed<'a> {
    /// the strings a value may be (in a `oneOf`, those of exactly one branch)
    strings: Vec<&'a str>,
    /// the literals a value may be (1 `null`, 2 `true`, 4 `false`; in a `oneOf`, those of
    /// exactly one branch)
    literals: u8,
    /// the kinds of its members (numbers among them: each judged where it ends)
    kinds: u8,
    /// the numbers of all its branches, a number watched against as its bytes come (the
    /// union dies there when every branch does); empty when a branch's are not watched
    numbers: Vec<&'a Num>,
}

/// Keywords `c`, when they are a union of lists (`anyOf` or `oneOf` and nothing else, each
/// branch, through `$ref`s, an `enum` or a `const` of scalars, perhaps with a `type`, and no
/// other assertion): "a documented `enum`", `oneOf: [{"const": "m", "description": "metres"},
/// ...]`. A value is valid when a branch lists it (in a `oneOf`, exactly one branch): nothing dies inside a string but on a character no member continues, nor inside
/// a number. `None` for any other keywords.
fn listed_branches<'a>(ir: &'a Ir, c: &'a Checks) -> Option<Listed<'a>> {
    let one = c.any_of.is_empty();
    let branches = match (c.any_of.as_slice(), c.one_of.as_slice()) {
        (b, []) | ([], b) if !b.is_empty() => b,
        _ => return None,
    };
    if !only_in_place(c) || c.reference.is_some() || !c.all_of.is_empty() || c.not.is_some() || c.if_.is_some() {
        return None;
    }
    // Each string with the number of branches that list it; each literal's count.
    let mut strings: Vec<(&str, usize)> = Vec::new();
    let mut literals = [0usize; 3];
    let mut kinds = 0u8;
    let mut numbers = Some(Vec::new());
    for &b in branches {
        let t = through_refs(ir, b)?;
        let bc = match &ir.node(t).body {
            Body::Checks(bc) if shape_of(ir, t) == shape::PLAIN => bc,
            // (`false`: no value.)
            Body::Never => continue,
            _ => return None,
        };
        let values: Vec<&JsonValue> = match (&bc.enum_values, &bc.const_value) {
            (Some(e), None) => e.value.iter().map(|(v, _)| v).collect(),
            (None, Some(v)) => vec![&v.value],
            _ => return None,
        };
        let bare = Checks { enum_values: None, const_value: None, types: None, ..Checks::clone(bc) };
        if !own_nothing_but_types(&bare) {
            return None;
        }
        // (A branch whose numbers are not watched never dies inside a number: nor does the union.)
        numbers = numbers.zip(watched_numbers(&values)).map(|(mut all, n)| {
            all.extend(n);
            all
        });
        // (Its `type` takes each member, listed once: the compiler refuses a member its `type`
        // does not take, and a member listed twice.)
        for v in values {
            if value_bits(v) & CONTAINERS != 0 {
                return None;
            }
            kinds |= value_bits(v);
            let literal = match v {
                JsonValue::String(s) => {
                    match strings.iter_mut().find(|(m, _)| *m == s.as_str()) {
                        Some(e) => e.1 += 1,
                        None => strings.push((s.as_str(), 1)),
                    }
                    None
                }
                JsonValue::Null => Some(0),
                JsonValue::Bool(true) => Some(1),
                JsonValue::Bool(false) => Some(2),
                _ => None,
            };
            if let Some(count) = literal.and_then(|i| literals.get_mut(i)) {
                *count += 1;
            }
        }
    }
    let taken = |n: usize| n == 1 || (n > 1 && !one);
    let strings: Vec<&str> = strings.into_iter().filter(|&(_, n)| taken(n)).map(|(s, _)| s).collect();
    let literals = literals.iter().zip(0..).fold(0u8, |a, (&n, i)| if taken(n) { a | 1 << i } else { a });
    if strings.is_empty() {
        kinds &= !STRING;
    }
    let numbers = numbers.unwrap_or_default();
    (strings.len() <= MAX).then_some(Listed { strings, literals, kinds, numbers })
}

/// The keywords of branch `b` of a union of scalars ([`Flat::fill_overlap`]), through `$ref`s:
/// `Some(None)` for `false` (no value), `None` when it is not plain keywords with a `type` of
/// scalars only and no `enum`, `const` or `pattern`.
fn plain_scalar(ir: &Ir, b: NodeId) -> Option<Option<&Checks>> {
    let t = through_refs(ir, b)?;
    let c = match &ir.node(t).body {
        Body::Checks(c) => c,
        Body::Never => return Some(None),
        Body::Always => return None,
    };
    if shape_of(ir, t) != shape::PLAIN {
        return None;
    }
    let kinds = c.type_list()?.iter().fold(0, |a, t| a | type_bits(*t));
    let plain = kinds & CONTAINERS == 0 && c.enum_values.is_none() && c.const_value.is_none() && c.pattern.is_none();
    plain.then_some(Some(c))
}

/// The kinds of scalar ([`type_bits`]) whose every value node `n` may accept whatever follows
/// its first byte, as the automaton decides there (`sure_at_first_byte` in the runtime, which
/// also asks the subschemas it applies in place: this is never less): `true`'s all, else those
/// its `type` allows (all without one) and none of its keywords speaks of (an `enum` or `const`
/// of all; `minLength`, `maxLength`, `pattern` or an asserted `format` of strings; bounds,
/// `multipleOf` or `integer` alone of numbers). Where the automaton dies of such a value (a
/// `not`, a `oneOf` with two such branches), the flat reader hands it over.
fn sure_kinds(ir: &Ir, n: NodeId) -> u8 {
    let c = match &ir.node(n).body {
        Body::Always => return NULL | BOOLEAN | INTEGER | NUMBER | STRING,
        Body::Never => return 0,
        Body::Checks(c) => c,
    };
    if c.enum_values.is_some() || c.const_value.is_some() {
        return 0;
    }
    let mut kinds = c.type_list().map_or(u8::MAX, |l| l.iter().fold(0, |a, t| a | type_bits(*t)));
    kinds &= NULL | BOOLEAN | STRING | NUMBER;
    if c.min_length.is_some() || c.max_length.is_some() || c.pattern.is_some() || c.format.is_some() {
        kinds &= !STRING;
    }
    if c.number_keywords() {
        kinds &= !NUMBER;
    }
    if kinds & NUMBER != 0 {
        kinds |= INTEGER;
    }
    kinds
}

/// Whether the automaton may kill a subschema mid-number because another is sure of the number
/// for good once its exponent settled that one's keywords for numbers (`sure_of_number` in the
/// runtime): some `not` of a subschema that takes numbers, or some `oneOf` with two such
/// branches (without an `enum` or `const`). Then the flat reader hands a number over at the
/// bytes of its exponent that move it, rather than judge them itself.
fn settles_numbers(ir: &Ir) -> bool {
    let takes_numbers = |n: NodeId| match &ir.node(n).body {
        Body::Always => true,
        Body::Never => false,
        Body::Checks(c) => {
            c.enum_values.is_none()
                && c.const_value.is_none()
                && c.type_list().is_none_or(|l| l.iter().any(|t| matches!(t, JsonType::Integer | JsonType::Number)))
        }
    };
    ir.nodes.iter().any(|node| match &node.body {
        Body::Checks(c) => {
            c.not.is_some_and(takes_numbers) || c.one_of.iter().filter(|&&b| takes_numbers(b)).nth(1).is_some()
        }
        _ => false,
    })
}

/// The node that node `n` stands for through its `$ref`s (or `allOf`s of one subschema): the
/// first that is not only that (`None` past 16 of them).
fn through_refs(ir: &Ir, n: NodeId) -> Option<NodeId> {
    let mut t = n;
    for _ in 0..16 {
        match &ir.node(t).body {
            Body::Checks(c) if shape_of(ir, t) == shape::REF => {
                t = c.reference.as_ref().map(|r| r.value.1).or_else(|| c.all_of.first().copied())?;
            }
            _ => return Some(t),
        }
    }
    None
}

/// Whether a number value of keywords `c` is alive after its `-`: not with a `minimum` above 0
/// or an `exclusiveMinimum` of 0 or more.
fn minus_alive(c: &Checks) -> bool {
    !match (&c.minimum, &c.exclusive_minimum) {
        (Some(m), _) if !m.value.is_negative() && !m.value.is_zero() => true,
        (_, Some(m)) => !m.value.is_negative() || m.value.is_zero(),
        _ => false,
    }
}

/// How property `x`'s value begins: by its first byte's kind, as the automaton judges that byte.
fn start_arm(x: &Prop<'_>, p: &TokenStream) -> TokenStream {
    let c = x.c;
    let mut arms = Vec::new();
    if !x.via.is_empty() {
        for &(kinds, q) in &x.via {
            let bytes = first_bytes(kinds);
            if bytes.is_empty() {
                continue;
            }
            arms.push(quote!(#(#bytes)|* => #p::FlatStart::Via(#q),));
        }
        return quote! {
            match b {
                #(#arms)*
                _ => #p::FlatStart::Hand,
            }
        };
    }
    if x.kinds & STRING != 0 {
        let members = x.members.as_ref().map_or(0u64, |m| (0..m.len()).fold(0, |a, i| a | 1u64 << i));
        let max = x.overlap.map_or_else(|| c.max_length.as_ref().map_or(u64::MAX, |m| m.value), |o| o.0);
        if let Some(sets) = c.stepped_pattern().and_then(|p| p.fixed.as_ref()) {
            // One set of characters per offset: a bit per ASCII character (the others hand over).
            let masks = sets.iter().map(|ranges| {
                let mask =
                    ranges.iter().flat_map(|&(lo, hi)| lo..=hi).filter(|&b| b < 128).fold(0u128, |m, b| m | 1u128 << b);
                proc_macro2::Literal::u128_suffixed(mask)
            });
            arms.push(quote!(b'"' => #p::FlatStart::Fixed { masks: &[#(#masks),*], max: #max },));
        } else if c.stepped_pattern().is_some() {
            arms.push(quote!(b'"' => #p::FlatStart::Pattern { max: #max },));
        } else {
            arms.push(quote!(b'"' => #p::FlatStart::Str { members: #members, max: #max },));
        }
    }
    if x.kinds & (INTEGER | NUMBER) != 0 {
        // A `minimum` above 0, or an `exclusiveMinimum` of 0 or more: a `-` is already dead.
        let minus = x.overlap.map_or_else(|| minus_alive(c), |o| o.1);
        let members = !x.numbers.is_empty();
        // An integer within bounds: from how many digits its mantissa may break them, negative
        // (a minimum) and positive (a maximum).
        let (neg, pos) = if integral(x) {
            let from = |kws: [&Option<Kw<Num>>; 2]| {
                kws.into_iter().flatten().map(|kw| digits_to_break(&kw.value)).min().unwrap_or(u8::MAX)
            };
            (from([&c.minimum, &c.exclusive_minimum]), from([&c.maximum, &c.exclusive_maximum]))
        } else {
            (u8::MAX, u8::MAX)
        };
        arms.push(quote!(b'-' => #p::FlatStart::Number { minus: #minus, members: #members, integral: #neg },));
        arms.push(quote!(b'0'..=b'9' => #p::FlatStart::Number { minus: true, members: #members, integral: #pos },));
    }
    // A literal the `enum` or `const` does not list is dead at its first byte: the automaton's.
    let listed = |bit: u8| x.listed.is_none_or(|l| l & bit != 0);
    if x.kinds & BOOLEAN != 0 && listed(2) {
        arms.push(quote!(b't' => #p::FlatStart::Literal(b"true"),));
    }
    if x.kinds & BOOLEAN != 0 && listed(4) {
        arms.push(quote!(b'f' => #p::FlatStart::Literal(b"false"),));
    }
    if x.kinds & NULL != 0 && listed(1) {
        arms.push(quote!(b'n' => #p::FlatStart::Literal(b"null"),));
    }
    if let Some(o) = x.object {
        arms.push(quote!(b'{' => #p::FlatStart::Object(#o),));
    }
    if let Some(a) = x.array {
        arms.push(quote!(b'[' => #p::FlatStart::Array(#a),));
    }
    quote! {
        match b {
            #(#arms)*
            _ => #p::FlatStart::Hand,
        }
    }
}

/// The first bytes of the values of `kinds` (the patterns of a `match` arm).
fn first_bytes(kinds: u8) -> Vec<TokenStream> {
    let mut out = Vec::new();
    if kinds & STRING != 0 {
        out.push(quote!(b'"'));
    }
    if kinds & (INTEGER | NUMBER) != 0 {
        out.push(quote!(b'-' | b'0'..=b'9'));
    }
    if kinds & BOOLEAN != 0 {
        out.push(quote!(b't' | b'f'));
    }
    if kinds & NULL != 0 {
        out.push(quote!(b'n'));
    }
    if kinds & OBJECT != 0 {
        out.push(quote!(b'{'));
    }
    if kinds & ARRAY != 0 {
        out.push(quote!(b'['));
    }
    out
}

/// Property `x`'s verdict on a closed string (its `enum` and `maxLength` checked by the reader):
/// `minLength`, and its scan function for a `format`, a union whose kinds overlap or a `not`.
fn string_end_arm(ir: &Ir, x: &Prop<'_>, p: &TokenStream) -> TokenStream {
    if x.free {
        return quote!(true);
    }
    let min = x.c.min_length.as_ref().map_or(0, |m| m.value);
    if x.c.format.is_some() || x.overlap.is_some() || x.c.not.is_some() {
        let scan = sname(ir, x.node);
        quote!(chars >= #min && #p::flat_scan_span(#scan, span))
    } else {
        quote!(chars >= #min)
    }
}

/// Property `x`'s verdict on a closed number: its bounds and integer-ness on its value where the
/// reader has one (a short literal without exponent), else its scan function (which also
/// rejects a number beyond the `f64` range).
fn number_end_arm(ir: &Ir, x: &Prop<'_>, k: &TokenStream) -> TokenStream {
    let c = x.c;
    let p = quote!(#k::__private);
    if x.free {
        // (A short number without exponent is within the `f64` range.)
        return quote! {
            match num {
                ::core::option::Option::Some(_) => true,
                ::core::option::Option::None => #p::flat_free_number(span),
            }
        };
    }
    let scan = sname(ir, x.node);
    let by_scan = quote!(#p::flat_scan_span(#scan, span));
    // `multipleOf`, an `enum` or `const` (numbers compared by value: `1.0` is `1`), a union, a
    // `not`.
    if c.multiple_of.is_some() || x.listed.is_some() || x.overlap.is_some() || c.not.is_some() {
        return by_scan;
    }
    let integer = x.kinds & NUMBER == 0;
    let bounded =
        c.minimum.is_some() || c.maximum.is_some() || c.exclusive_minimum.is_some() || c.exclusive_maximum.is_some();
    let on_value = if bounded || integer {
        let (lo, xlo, hi, xhi) = (
            bound(&c.minimum, k),
            bound(&c.exclusive_minimum, k),
            bound(&c.maximum, k),
            bound(&c.exclusive_maximum, k),
        );
        quote!(#p::stream_in_bounds(n, &[#lo, #xlo, #hi, #xhi], #integer))
    } else {
        quote!(true)
    };
    quote! {
        match num {
            ::core::option::Option::Some(n) => #on_value,
            ::core::option::Option::None => #by_scan,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{byte_match, len_match};

    #[test]
    fn names_by_byte_and_length() {
        let t = byte_match(&["ab", "ac", "b"]).to_string();
        // Offset 0: `a` (97) is the first two words, `b` (98) the third; offset 1: `b` the
        // first, `c` (99) the second.
        assert!(
            t.contains(
                "static MASKS : [:: core :: primitive :: u64 ; 8usize] = [0u64 , 3u64 , 4u64 , 1u64 , 2u64 , 0u64 , 0u64 , 0u64]"
            ),
            "{t}"
        );
        let row = |lit: &[(usize, u8)]| -> String {
            let mut r = [0u8; 128];
            for &(b, i) in lit {
                r[b] = i;
            }
            r.iter().map(|x| format!("{x}u8")).collect::<Vec<_>>().join(" , ")
        };
        assert!(t.contains(&row(&[(97, 1), (98, 2)])), "{t}");
        assert!(t.contains(&row(&[(98, 3), (99, 4)])), "{t}");
        let l = len_match(&["ab", "ac", "b"]).to_string();
        assert!(l.contains("2usize => 3u64"), "{l}");
        assert!(l.contains("1usize => 4u64"), "{l}");
    }
}
