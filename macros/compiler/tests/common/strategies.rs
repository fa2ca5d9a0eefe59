//! Strategies for arbitrary schemas, shared by the compiler's property tests
//! (`tests/compiler.rs`) and the generated-corpus crate (`tests/corpus/build.rs`, which draws
//! from them with a fixed seed and builds every accepted schema as one crate).

#![allow(dead_code, clippy::pedantic)]

use proptest::prelude::*;

/// A JSON value, written by [`V::text`] (duplicate keys dropped, the first kept).
#[derive(Debug, Clone)]
pub enum V {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<V>),
    Obj(Vec<(String, V)>),
}

impl V {
    /// The value as JSON text.
    pub fn text(&self) -> String {
        match self {
            V::Null => "null".into(),
            V::Bool(b) => b.to_string(),
            V::Num(n) => n.clone(),
            V::Str(s) => format!("{s:?}"),
            V::Arr(a) => format!("[{}]", a.iter().map(V::text).collect::<Vec<_>>().join(",")),
            V::Obj(o) => {
                let mut seen = std::collections::BTreeSet::new();
                let members: Vec<String> = o
                    .iter()
                    .filter(|(k, _)| seen.insert(k.clone()))
                    .map(|(k, v)| format!("{k:?}:{}", v.text()))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }
}

const KEYS: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minProperties",
    "maxProperties",
    "title",
    "description",
    "$schema",
    "anyOf",
    "x-a",
    "a",
    "type ",
    "",
];
const STRS: &[&str] = &[
    "string",
    "integer",
    "number",
    "object",
    "array",
    "boolean",
    "null",
    "strin",
    "a",
    "",
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft/2020-12/schema",
    "💩",
];
const NUMS: &[&str] = &[
    "0",
    "-1",
    "1",
    "1.5",
    "-0",
    "1e308",
    "1e400",
    "18446744073709551616",
    "0.0001",
    "2.0",
    "-9223372036854775809",
    "123456789012345678901234567890",
];

/// JSON biased toward schema keywords (most of it refused), so that the compiler's paths are hit.
pub fn keyword_soup() -> impl Strategy<Value = V> {
    let leaf = prop_oneof![
        Just(V::Null),
        any::<bool>().prop_map(V::Bool),
        proptest::sample::select(NUMS).prop_map(|n| V::Num(n.to_owned())),
        proptest::sample::select(STRS).prop_map(|s| V::Str(s.to_owned())),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(V::Arr),
            proptest::collection::vec((proptest::sample::select(KEYS).prop_map(str::to_owned), inner), 0..6)
                .prop_map(V::Obj),
        ]
    })
}

/// Property names that are hard on generated code: Rust keywords, prelude and local names,
/// names that are not identifiers, names that collide once turned into identifiers.
const NAMES: &[&str] = &[
    "name", "type", "self", "Self", "super", "crate", "fn", "match", "async", "dyn", "union", "1st", "a b", "a-b",
    "a_b", "aB", "é", "", "_", "__", "extra", "value", "Value", "Option", "Result", "Some", "None", "String", "Vec",
    "Box", "r#type", "kind", "x/y", "~0", "default", "v", "o", "e", "key", "map", "out", "sink", "at", "sc",
];

fn s(x: &str) -> V {
    V::Str(x.to_owned())
}

fn n(x: i64) -> V {
    V::Num(x.to_string())
}

fn obj(members: Vec<(&str, V)>) -> V {
    V::Obj(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A leaf shape: a scalar type with the keywords the typed mapping reads, or a reference to one
/// of the root's `$defs` (`refs`: how many there are).
fn leaf(refs: usize) -> BoxedStrategy<V> {
    let string = (0u8..4, 1i64..20).prop_map(|(k, len)| match k {
        0 => obj(vec![("type", s("string"))]),
        1 => obj(vec![("type", s("string")), ("maxLength", n(len)), ("minLength", n(1))]),
        2 => obj(vec![("type", s("string")), ("pattern", s("^[a-z]+(-[0-9]+)?$"))]),
        _ => obj(vec![("type", s("string")), ("format", s("date-time"))]),
    });
    let enums = (proptest::sample::subsequence(vec!["a", "B", "c-d", "type", "", "é", "1"], 1..4), any::<bool>())
        .prop_map(|(vals, null)| {
            let mut vs: Vec<V> = vals.into_iter().map(s).collect();
            if null {
                vs.push(V::Null);
            }
            obj(vec![("enum", V::Arr(vs))])
        });
    let integer = (0u8..4, -5i64..5, 1i64..1000).prop_map(|(k, lo, span)| match k {
        0 => obj(vec![("type", s("integer"))]),
        1 => obj(vec![("type", s("integer")), ("minimum", n(lo)), ("maximum", n(lo + span))]),
        2 => obj(vec![("type", s("integer")), ("minimum", n(0)), ("maximum", V::Num("18446744073709551615".into()))]),
        _ => obj(vec![("type", V::Arr(vec![s("integer"), s("null")])), ("exclusiveMinimum", n(lo))]),
    });
    let other = (0u8..7).prop_map(|k| match k {
        0 => obj(vec![("type", s("number"))]),
        1 => obj(vec![("type", s("boolean"))]),
        2 => obj(vec![("type", s("null"))]),
        3 => obj(vec![]),
        4 => obj(vec![("const", s("fixed"))]),
        5 => obj(vec![("type", V::Arr(vec![s("string"), s("null")]))]),
        _ => obj(vec![("type", V::Arr(vec![s("boolean"), s("string")]))]),
    });
    if refs == 0 {
        prop_oneof![string, enums, integer, other].boxed()
    } else {
        let r = (0..refs).prop_map(|i| obj(vec![("$ref", V::Str(format!("#/$defs/d{i}")))]));
        prop_oneof![3 => string, 2 => enums, 2 => integer, 2 => other, 2 => r].boxed()
    }
}

/// An object shape: properties (hostile names), `required` among them, and optionally closed or
/// with a schema for the other members; nullable sometimes.
fn object(inner: BoxedStrategy<V>, width: usize) -> BoxedStrategy<V> {
    let props = proptest::collection::vec((proptest::sample::select(NAMES), inner.clone(), any::<bool>()), 0..width);
    (props, 0u8..4, any::<bool>(), inner)
        .prop_map(|(props, extra, nullable, extra_schema)| {
            let mut seen = std::collections::BTreeSet::new();
            let props: Vec<(&str, V, bool)> = props.into_iter().filter(|(k, _, _)| seen.insert(*k)).collect();
            let required: Vec<V> = props.iter().filter(|(_, _, r)| *r).map(|(k, _, _)| s(k)).collect();
            let ty = if nullable { V::Arr(vec![s("object"), s("null")]) } else { s("object") };
            let mut members = vec![
                ("type", ty),
                ("properties", V::Obj(props.into_iter().map(|(k, v, _)| (k.to_owned(), v)).collect())),
            ];
            if !required.is_empty() {
                members.push(("required", V::Arr(required)));
            }
            match extra {
                0 => members.push(("additionalProperties", V::Bool(false))),
                1 => members.push(("additionalProperties", extra_schema)),
                _ => {}
            }
            members.push(("description", s("An object.\nOn two lines, with `code` and [brackets].")));
            obj(members)
        })
        .boxed()
}

/// A shape that holds other shapes: objects, maps, arrays, tuples, nullable and type-told
/// unions, tagged unions, merged objects.
fn composite(inner: BoxedStrategy<V>, width: usize) -> BoxedStrategy<V> {
    let array = (inner.clone(), any::<bool>(), 0i64..3).prop_map(|(items, unique, min)| {
        obj(vec![("type", s("array")), ("items", items), ("uniqueItems", V::Bool(unique)), ("minItems", n(min))])
    });
    let map = inner.clone().prop_map(|v| obj(vec![("type", s("object")), ("additionalProperties", v)]));
    let tuple = (inner.clone(), inner.clone()).prop_map(|(a, b)| {
        obj(vec![("type", s("array")), ("prefixItems", V::Arr(vec![a, b])), ("items", V::Bool(false))])
    });
    let nullable = inner.clone().prop_map(|v| obj(vec![("anyOf", V::Arr(vec![v, obj(vec![("type", s("null"))])]))]));
    let by_type = (inner.clone(), any::<bool>()).prop_map(|(v, null)| {
        let mut branches =
            vec![obj(vec![("type", s("string")), ("minLength", n(1))]), obj(vec![("type", s("array")), ("items", v)])];
        if null {
            branches.push(obj(vec![("type", s("null"))]));
        }
        obj(vec![("oneOf", V::Arr(branches))])
    });
    let tagged = proptest::collection::vec(inner.clone(), 1..4).prop_map(|payloads| {
        let tags = ["circle", "square", "type", "é"];
        let branches = payloads
            .into_iter()
            .zip(tags)
            .map(|(p, tag)| {
                obj(vec![
                    ("type", s("object")),
                    ("properties", obj(vec![("kind", obj(vec![("const", s(tag))])), ("payload", p)])),
                    ("required", V::Arr(vec![s("kind")])),
                ])
            })
            .collect();
        obj(vec![("oneOf", V::Arr(branches))])
    });
    let merged = (inner.clone(), inner.clone()).prop_map(|(a, b)| {
        obj(vec![(
            "allOf",
            V::Arr(vec![
                obj(vec![("type", s("object")), ("properties", obj(vec![("a", a)]))]),
                obj(vec![("properties", obj(vec![("b", b)])), ("required", V::Arr(vec![s("b")]))]),
            ]),
        )])
    });
    prop_oneof![4 => object(inner, width), 2 => array, 1 => map, 1 => tuple, 2 => nullable, 1 => by_type, 1 => tagged, 1 => merged]
        .boxed()
}

fn shape(refs: usize, depth: u32, width: usize) -> BoxedStrategy<V> {
    let size = depth * 8;
    leaf(refs).prop_recursive(depth, size, 4, move |inner| composite(inner, width)).boxed()
}

/// Schemas shaped like tool schemas, every one of which toolgate accepts: every shape of the
/// typed mapping at the root and nested, nullable, unions, maps, recursive `$ref`s through
/// `$defs`, with property names that are hard on generated code.
pub fn tool_shaped() -> impl Strategy<Value = V> {
    tool_shaped_sized(3, 5)
}

/// [`tool_shaped`] nested at most `depth` levels, objects of fewer than `width` properties.
pub fn tool_shaped_sized(depth: u32, width: usize) -> impl Strategy<Value = V> {
    let plain = shape(0, depth, width);
    let defs = move || object(shape(2, depth, width), width);
    // Definitions are objects (so that a reference always descends into the instance: a
    // definition that were only a reference would loop in place), and may refer to each other
    // and to themselves.
    let with_defs = (defs(), defs(), prop_oneof![defs(), shape(2, depth, width)]).prop_map(|(d0, d1, root)| {
        let V::Obj(mut members) = root else { return root };
        members.push(("$defs".to_owned(), obj(vec![("d0", d0), ("d1", d1)])));
        V::Obj(members)
    });
    prop_oneof![plain, with_defs]
}
