//! The stream's quick reader (`runtime/src/stream/quick.rs`): it must change nothing but the
//! cost. Every feed and `finish` must answer what the same stream without it answers
//! (`Stream::__automaton_only`), at every cut of a text into two fragments and in several
//! chunkings; it must keep reading the ordinary texts it is meant for (escapes, non-ASCII
//! characters, nested objects and arrays, `uniqueItems`, optional values) and hand over to the
//! automaton, in the fragment where it happens, at whatever it does not read itself or finds
//! wrong.

#![allow(clippy::pedantic)]

use toolgate::{tool_schema, Stream, Tool};

mod reader_parity;
use reader_parity::{all_cuts, parity};

tool_schema! {
    /// What the quick reader reads itself (`pairs`' `maxContains` keeps the tool from the flat
    /// reader, which reads the rest as well: these tests are the quick reader's).
    pub struct Ordinary = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "minLength": 1, "maxLength": 12},
            "note": {"anyOf": [{"type": "string", "maxLength": 4}, {"type": "null"}]},
            "max_lines": {"type": "integer", "minimum": 1, "maximum": 10000},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
            "mode": {"enum": ["read", "write", "append"]},
            "when": {"type": "string", "format": "date"},
            "flags": {"type": "array", "items": {"type": "boolean"}, "maxItems": 3},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "opts": {
                "type": "object",
                "properties": {"deep": {"type": "boolean"}, "level": {"type": "integer", "multipleOf": 2}},
                "required": ["deep"],
                "additionalProperties": false
            },
            "extra": {"type": "object"},
            "any": {},
            "pairs": {"type": "array", "contains": {"type": "integer"}, "maxContains": 4}
        },
        "required": ["path"],
        "additionalProperties": false
    };
}

tool_schema! {
    /// An open object: undeclared keys are the automaton's (they may repeat); `pairs`, as in
    /// `Ordinary`, keeps it from the flat reader (which reads undeclared keys).
    pub struct Open = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "pairs": {"type": "array", "contains": {"type": "integer"}, "maxContains": 4}},
        "maxProperties": 3
    };
}

tool_schema! {
    /// Patterns, and values several subschemas speak of (the general automaton reads those,
    /// for the quick reader as for the lean automaton; two `maxLength`s keep the `allOf` from
    /// merging, and the tool from the flat reader).
    pub struct Shaped = {
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
            "word": {"type": "string", "pattern": "x", "maxLength": 8},
            "pick": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}},
                 "required": ["kind"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "b"}},
                 "required": ["kind"], "additionalProperties": false}
            ]},
            "all": {"allOf": [{"type": "string", "maxLength": 5}, {"maxLength": 3}]}
        },
        "additionalProperties": false
    };
}

const VALID: &[&str] = &[
    r#"{"path": "a.txt"}"#,
    r#"{"path":"src/lib.rs","max_lines":200,"ratio":0.5,"mode":"append","flags":[true,false],"tags":["a","b"],"opts":{"deep":true,"level":4}}"#,
    "{ \"path\" :\t\"a\\nb\\\"c\" ,\r\n \"note\": null }",
    r#"{"path": "caf\u00e9 \ud83d\ude00", "note": "\u00e9\u00e9\u00e9\u00e9"}"#,
    r#"{"path": "café 😀 ok", "note": "ñññ"}"#,
    r#"{"path": "x", "when": "2024-02-29", "extra": {}, "any": "free", "ratio": 25e-3}"#,
    r#"{"path": "x", "max_lines": 1e3, "ratio": 1.0, "opts": {"deep": false}, "tags": []}"#,
    r#"{"path": "exactly12chr", "note": "1234"}"#,
];

const INVALID: &[&str] = &[
    r#"{"path": ""}"#,
    r#"{"path": "thirteen char"}"#,
    r#"{"path": "a", "note": "12345"}"#,
    r#"{"path": "a", "note": "\u00e9\u00e9\u00e9\u00e9\u00e9"}"#,
    r#"{"path": "a", "max_lines": 0}"#,
    r#"{"path": "a", "max_lines": "10"}"#,
    r#"{"path": "a", "ratio": 0}"#,
    r#"{"path": "a", "mode": "rea"}"#,
    r#"{"path": "a", "mode": "reed"}"#,
    r#"{"path": "a", "flags": [true, true, true, true]}"#,
    r#"{"path": "a", "tags": ["x", "x"]}"#,
    r#"{"path": "a", "opts": {"level": 2}}"#,
    r#"{"path": "a", "opts": {"deep": true, "level": 3}}"#,
    r#"{"path": "a", "opts": {"deep": true, "deep": true}}"#,
    r#"{"path": "a", "pathx": 1}"#,
    r#"{"path": "a", "path": "b"}"#,
    r#"{"max_lines": 3}"#,
    r#"{"path": "a\u00"}"#,
    r#"{"path": "a\ud800x"}"#,
    r#"{"path": "a\udc00"}"#,
    "{\"path\": \"a\u{1}\"}",
    r#"{"path": "a", "extra": {"k": 1, "k": 2}}"#,
    r#"{"path": "a"} x"#,
    r#"{"path": "a",}"#,
    r#"{"path": 01}"#,
    r#"{"path": "a", "max_lines": 1.5}"#,
    r#"{"path": "a", "max_lines": -"#,
    r#"["path"]"#,
];

#[test]
fn the_quick_reader_changes_nothing_but_the_cost() {
    assert!(Stream::<Ordinary>::__lean());
    for text in VALID {
        assert!(Ordinary::is_valid_json(text), "{text}");
        assert!(all_cuts::<Ordinary>(text), "the quick reader stopped reading a valid text: {text}");
    }
    for text in INVALID {
        assert!(!Ordinary::is_valid_json(text), "{text}");
        all_cuts::<Ordinary>(text);
        // Raw bytes no UTF-8 character begins with.
        let mut bytes = text.as_bytes().to_vec();
        bytes.insert(bytes.len() / 2, 0xFF);
        parity::<Ordinary>(&bytes, &[1]);
    }
    // Prefixes of valid texts: alive, and still the quick reader's.
    for text in VALID {
        for end in 0..text.len() {
            let mut s = Ordinary::stream();
            assert!(!s.feed(&text.as_bytes()[..end]).is_dead());
            assert!(s.__quick(), "{text:?} cut at {end}");
        }
        // Read to its end by the quick reader, the stream never built its automaton.
        let mut s = Ordinary::stream();
        assert!(!s.feed(text.as_bytes()).is_dead());
        assert!(s.finish().is_ok(), "{text}");
        assert!(!s.__automaton_built(), "{text}");
    }
}

#[test]
fn the_quick_reader_hands_over_what_it_does_not_read() {
    assert!(!Stream::<Ordinary>::__flat() && !Stream::<Open>::__flat());
    // An undeclared key of an open object: the automaton follows such keys (they may repeat).
    for text in [r#"{"a": 1, "z": 2}"#, r#"{"z": 1, "z": 2}"#, r#"{"a": 1, "b": "x", "c": 1, "d": 2}"#] {
        let mut s = Open::stream();
        let _ = s.feed(text.as_bytes());
        assert!(!s.__quick() && s.__automaton_built(), "{text}");
        all_cuts::<Open>(text);
    }
    // Escapes in a key, and in an `enum` string (compared on decoded characters); a container
    // no subschema speaks of, and undeclared keys, cut by the fragment's end (whole and within
    // reach, such a value is judged at once by its scan function).
    for text in [
        r#"{"p\u0061th": "a"}"#,
        r#"{"path": "a", "mode": "r\u0065ad"}"#,
        r#"{"path": "a", "any": {"k": [1, 2]}}"#,
        r#"{"path": "a", "extra": {"k": 1}}"#,
    ] {
        assert!(Ordinary::is_valid_json(text), "{text}");
        let mut s = Ordinary::stream();
        let _ = s.feed(&text.as_bytes()[..text.len() - 3]);
        assert!(!s.__quick(), "{text}");
        all_cuts::<Ordinary>(text);
    }
    // Deeper than the quick reader follows.
    let deep = format!(r#"{{"path": "a", "any": {}1{}}}"#, "[".repeat(20), "]".repeat(20));
    assert!(Ordinary::is_valid_json(&deep));
    for sizes in [&[1][..], &[5], &[deep.len()]] {
        parity::<Ordinary>(deep.as_bytes(), sizes);
    }
}

#[test]
fn patterns_and_values_the_general_automaton_reads() {
    assert!(Stream::<Shaped>::__lean());
    for text in [
        r#"{"code": "ABC-1234", "word": "aaxaa", "pick": {"kind": "a", "n": 2}, "all": "abc"}"#,
        r#"{"pick": {"kind": "b"}, "word": "x"}"#,
        r#"{"all": "", "pick": {"n": -1, "kind": "a"}}"#,
    ] {
        assert!(Shaped::is_valid_json(text), "{text}");
        assert!(all_cuts::<Shaped>(text), "the quick reader stopped reading a valid text: {text}");
    }
    for text in [
        r#"{"code": "AB-1234"}"#,
        r#"{"code": "abc"}"#,
        r#"{"code": "ABC-12345"}"#,
        r#"{"code": "ABC-123"}"#,
        r#"{"word": "aaa"}"#,
        r#"{"word": "aaaaaaaax"}"#,
        r#"{"code": "ABC-1234", "code": "ABC-1234"}"#,
        r#"{"code": "\u0041BC-1234"}"#,
        r#"{"pick": {"kind": "c"}}"#,
        r#"{"pick": {"kind": "a", "n": "x"}}"#,
        r#"{"pick": {"kind": "b", "n": 1}}"#,
        r#"{"pick": [], "code": "ABC-1234"}"#,
        r#"{"all": "abcd"}"#,
        r#"{"all": 1}"#,
    ] {
        all_cuts::<Shaped>(text);
    }
}

tool_schema! {
    /// Tagged unions: an `anyOf` or `oneOf` of objects told apart by one property's strings.
    pub struct Tagged = {
        "type": "object",
        "$defs": {
            "Ship": {
                "type": "object",
                "properties": {"method": {"const": "ship"}, "to": {"type": "string", "maxLength": 5}},
                "required": ["method", "to"],
                "additionalProperties": false
            },
            "Pick": {
                "type": "object",
                "properties": {
                    "method": {"type": "string", "enum": ["pickup", "collect"]},
                    "store": {"type": "integer", "minimum": 1}
                },
                "required": ["method"],
                "minProperties": 2
            },
            "Delivery": {"anyOf": [{"$ref": "#/$defs/Ship"}, {"$ref": "#/$defs/Pick"}]}
        },
        "properties": {
            "delivery": {"oneOf": [{"$ref": "#/$defs/Ship"}, {"$ref": "#/$defs/Pick"}]},
            "list": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/Ship"}, {"$ref": "#/$defs/Pick"}]}},
            "via": {"$ref": "#/$defs/Delivery"},
            "typed": {"type": "object", "oneOf": [{"$ref": "#/$defs/Ship"}, {"$ref": "#/$defs/Pick"}]},
            "untyped": {"type": ["string", "null"], "oneOf": [{"$ref": "#/$defs/Ship"}, {"$ref": "#/$defs/Pick"}, {"type": "string"}]},
            "same": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}, "n": {"type": "integer"}}},
                {"type": "object", "properties": {"k": {"const": "a"}, "s": {"type": "string"}}}
            ]},
            "bounded": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "abc", "maxLength": 2}}},
                {"type": "object", "properties": {"k": {"const": "b"}}}
            ]}
        },
        "additionalProperties": false
    };
}

#[test]
fn tagged_unions_are_read_by_the_quick_reader() {
    // `delivery`, `list`'s items, `Delivery`, `via` (a `$ref` to it) and `typed` (`type: object`
    // beside the `oneOf`); not `untyped` (its `type` allows no object), `same` (one string in both
    // branches) nor `bounded` (a property's subschema with more than its strings). The quick
    // reader reads the tool: `untyped`'s branches take a string, which the flat reader does not
    // read (without that third branch no value would satisfy `untyped`, the flat reader would
    // read it as `false` and take the tool).
    assert!(!Stream::<Tagged>::__flat());
    let tagged = Tagged::__PROGRAM.nodes.iter().filter(|n| n.tagged.is_some()).count();
    assert_eq!(tagged, 5);
    let valid = [
        r#"{"delivery": {"method": "ship", "to": "home"}, "typed": {"method": "pickup", "store": 9}}"#,
        r#"{"delivery": {"method": "collect", "store": 3}}"#,
        r#"{"delivery" : { "method" :"ship" ,"to":""} }"#,
        r#"{"list": [{"method": "pickup", "store": 1}, {"method": "ship", "to": "a"}], "via": {"method": "ship", "to": "b"}}"#,
        // The property not first: the general automaton reads the object.
        r#"{"delivery": {"to": "x", "method": "ship"}}"#,
        r#"{"delivery": {"store": 2, "method": "pickup"}, "same": {"k": "a", "s": 1}}"#,
    ];
    for text in valid {
        assert!(Tagged::is_valid_json(text), "{text}");
        assert!(all_cuts::<Tagged>(text), "the quick reader stopped reading a valid text: {text}");
    }
    // Where the property comes first, the quick reader reads the object itself: the general
    // automaton reads no part of it.
    for text in valid.iter().take(4) {
        for end in 0..text.len() {
            let mut s = Tagged::stream();
            assert!(!s.feed(&text.as_bytes()[..end]).is_dead());
            assert!(s.__quick() && !s.__quick_delegating(), "{text:?} cut at {end}");
        }
    }
    // Where it does not, the general automaton reads the object (so that this test could tell).
    let mut s = Tagged::stream();
    assert!(!s.feed(&valid[4].as_bytes()[..20]).is_dead());
    assert!(s.__quick_delegating(), "{}", valid[4]);
    for text in [
        r#"{"delivery": {"method": "shi"}}"#,
        r#"{"delivery": {"method": "shop", "to": "a"}}"#,
        r#"{"delivery": {"method": "ship"}}"#,
        r#"{"delivery": {"method": "ship", "to": "toolong"}}"#,
        r#"{"delivery": {"method": "ship", "store": 1}}"#,
        r#"{"delivery": {"method": "pickup"}}"#,
        r#"{"delivery": {"method": "pickup", "store": 0}}"#,
        r#"{"delivery": {"method": "pickup", "store": 1, "store": 2}}"#,
        r#"{"delivery": {"method": "ship", "method": "ship", "to": "a"}}"#,
        r#"{"delivery": {"method": 1, "to": "a"}}"#,
        r#"{"delivery": {"method": "\u0073hip", "to": "a"}}"#,
        r#"{"delivery": {"method": "ship\u0000", "to": "a"}}"#,
        r#"{"delivery": {"meth": "ship", "to": "a"}}"#,
        r#"{"delivery": {"methods": "ship", "to": "a"}}"#,
        r#"{"delivery": {}}"#,
        r#"{"delivery": []}"#,
        r#"{"delivery": {"method": "ship", "to": "a"}, "delivery": {"method": "ship", "to": "a"}}"#,
        r#"{"list": [{"method": "ship", "to": "a"}, {"method": "pickup", "store": -1}]}"#,
        r#"{"via": {"method": "ship", "to": 1}}"#,
        r#"{"typed": {"method": "ship", "to": "a", "x": 1}}"#,
        r#"{"untyped": {"method": "ship", "to": "a"}}"#,
        r#"{"via": {"method": "collect", "store": 1, "store": 1}}"#,
        r#"{"list": [{"method": "collect", "extra": true}, {"to": "a", "method": "ship", "to": "b"}]}"#,
        r#"{"same": {"k": "a", "n": 1, "s": "x"}, "bounded": {"k": "b"}}"#,
        r#"{"bounded": {"k": "abc"}}"#,
        r#"{"delivery": {"method": "ship", "to": "a"}"#,
        // A container where the property's strings belong, whole within reach (judged at once
        // where it begins, by the subschema of those strings).
        r#"{"delivery": {"method": {"a": [1, 2, 3], "b": "0123456789abcdef"}}, "via": null}"#,
        r#"{"delivery": {"method": ["0123456789abcdef", "0123456789abcdef"]}}"#,
    ] {
        all_cuts::<Tagged>(text);
        let mut bytes = text.as_bytes().to_vec();
        bytes.insert(bytes.len() / 2, 0xFF);
        parity::<Tagged>(&bytes, &[1]);
    }
}
