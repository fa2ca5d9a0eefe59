//! How early the streaming validator rejects: one test per row of the earliness table in the
//! README. Each text is fed one byte at a time; the test asserts the byte at which it died (the
//! first byte after which no continuation can be valid), and that the same text fed in one piece
//! dies at the same byte.

#![allow(clippy::pedantic)]

use toolgate::{tool_schema, Error, Progress, TextStream, Tool};

tool_schema! {
    /// A bit of every keyword family.
    pub struct Early = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 100},
            "x": {"type": "number", "exclusiveMinimum": 0},
            "big": {"type": "number", "maximum": 1000},
            "e": {"enum": ["alpha", "beta", "A"]},
            "mixed": {"enum": ["a", 1, [1, 2]]},
            "c": {"const": "yes"},
            "short": {"type": "string", "maxLength": 3},
            "code": {"type": "string", "pattern": "^[a-z]{2}-[0-9]+$"},
            "fixed": {"type": "string", "pattern": "^[A-Z]{2}$"},
            "emoji": {"type": "string", "pattern": "^[😀-😂]$"},
            "word": {"type": "string", "pattern": "x"},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2, "uniqueItems": true, "minItems": 1},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false},
            "some": {"type": "array", "contains": {"type": "integer"}, "maxContains": 1},
            "few": {"type": "array", "contains": {"type": "string"}, "maxContains": 1},
            "any2": {"type": "array", "contains": true, "maxContains": 2},
            "digits": {"type": "array", "contains": {"type": "string", "pattern": "^[0-9]"}, "maxContains": 1},
            "meta": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}},
            "card": {"type": "object", "properties": {"number": {"type": "string"}, "cvv": {"type": "string"}},
                     "dependentRequired": {"number": ["cvv"]}},
            "named": {"type": "object", "propertyNames": {"maxLength": 2}},
            "nz": {"not": {"type": "integer"}},
            "all": {"allOf": [{"type": "string"}, {"maxLength": 2}]},
            "any": {"anyOf": [{"type": "string", "maxLength": 1}, {"type": "integer"}]},
            "one": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 2}]},
            "cond": {"if": {"type": "string"}, "then": {"maxLength": 1}, "else": {"type": "integer"}},
            "u": {"type": "string", "enum": ["💩", "é"]}
        },
        "required": ["n"],
        "additionalProperties": false
    };
}

/// The byte at which `text` dies, fed one byte at a time (checked against one piece).
fn dies_at<T: Tool>(text: &str) -> Option<usize> {
    let mut s = T::stream();
    let mut dead = None;
    for b in text.as_bytes() {
        if let Progress::Dead(d) = s.feed(std::slice::from_ref(b)) {
            dead = Some(d.offset);
            break;
        }
    }
    let mut whole = T::stream();
    let once = match whole.feed(text.as_bytes()) {
        Progress::Dead(d) => Some(d.offset),
        Progress::Alive => None,
    };
    assert_eq!(dead, once, "{text:?}: 1-byte feeding vs one piece");
    if dead.is_some() {
        assert!(!T::is_valid_json(text), "{text:?} is valid but died");
    }
    dead
}

/// `text`'s offset of the `k`-th byte of the first occurrence of `needle`.
fn at(text: &str, needle: &str, k: usize) -> usize {
    text.find(needle).map(|i| i + k).unwrap_or_else(|| panic!("{needle:?} not in {text:?}"))
}

fn early(text: &str, needle: &str, k: usize) {
    assert_eq!(dies_at::<Early>(text), Some(at(text, needle, k)), "{text}");
}

#[test]
fn syntax_trailing_text_and_root_type_at_the_byte() {
    early(r#"{"n": 1,}"#, "}", 0);
    early(r#"{"n": 1, "nz": tru "#, "tru ", 3);
    early(r#"{"n": 01}"#, "1}", 0);
    early(r#"{"n": 1} x"#, "x", 0);
    early(r#"{"n": 1}{"#, "}{", 1);
    early(r#"["n"]"#, "[", 0);
    early(r#"  "text""#, "\"", 0);
    early("{\"n\": 1, \"short\": \"a\u{1}\"}", "\u{1}", 0);
    early(r#"{"n": 1, "short": "\q"}"#, "q", 0);
    early(r#"{"n": NaN}"#, "N", 0);
}

#[test]
fn type_at_the_first_byte_of_the_value() {
    early(r#"{"n": "5"}"#, "\"5", 0);
    early(r#"{"n": [5]}"#, "[", 0);
    early(r#"{"n": true}"#, "t", 0);
    // `-` and digits are numbers; `1.0` is still an integer.
    assert_eq!(dies_at::<Early>(r#"{"n": 1.0}"#), None);
    assert!(Early::is_valid_json(r#"{"n": 1.0}"#));
    // 1.5 is not an integer: known when the number ends.
    early(r#"{"n": 1.5}"#, "}", 0);
}

#[test]
fn enum_and_const_strings_at_the_first_character_no_member_continues() {
    early(r#"{"n": 1, "e": "alx"}"#, "x\"", 0);
    early(r#"{"n": 1, "e": "g"}"#, "g\"", 0);
    early(r#"{"n": 1, "c": "yep"}"#, "p\"", 0);
    // Compared on decoded characters: "\u0041" is "A", and a longer "A..." dies at its second.
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "e": "\u0041"}"#), None);
    // "A" is complete: a second character (certain at its backslash) fits no member.
    early(r#"{"n": 1, "e": "\u0041\u0042"}"#, "\\u0042", 0);
    // A string no member can be: dead at the opening quote.
    early(r#"{"n": 1, "e": 5}"#, "5}", 0);
    // Members that are arrays: followed item by item (`3` is no member's second item).
    early(r#"{"n": 1, "mixed": [1, 3]}"#, "3]}", 0);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "mixed": [1, 2]}"#), None);
    // Multi-byte members, the text cut anywhere: "💩" is F0 9F 92 A9.
    assert_eq!(dies_at::<Early>("{\"n\": 1, \"u\": \"💩\"}"), None);
    early("{\"n\": 1, \"u\": \"\u{1F4AA}\"}", "\u{1F4AA}", 3);
}

#[test]
fn closed_objects_and_property_names_when_the_key_closes_or_earlier() {
    // No declared name starts with "v": dead at the "v".
    early(r#"{"n": 1, "verbose": true}"#, "verbose", 0);
    // A declared name ("short") keeps it alive as long as the key may still be that name.
    early(r#"{"n": 1, "shorter": 1}"#, "er\"", 0);
    early(r#"{"n": 1, "short ": 1}"#, " \": 1", 0);
    // propertyNames runs on the key as it is read: maxLength 2 breaks at the third character.
    early(r#"{"n": 1, "named": {"abc": 1}}"#, "c\"", 0);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "named": {"ab": 1}}"#), None);
}

tool_schema! {
    /// Read by the general automaton: several subschemas speak of the root.
    pub struct General = {
        "allOf": [{"type": "object"}, {"properties": {"n": {"type": "integer"}, "o": {"type": "object"}}}]
    };
}

tool_schema! {
    /// Values no subschema speaks of.
    pub struct Free = {"type": "object", "properties": {"m": {}, "t": true}};
}

#[test]
fn a_duplicate_key_when_the_repeated_key_closes() {
    early(r#"{"n": 1, "n": 2}"#, "n\": 2", 1);
    early(r#"{"n": 1, "\u006e": 2}"#, "e\": 2", 1);
    // Undeclared keys too (the object's earlier keys read again from the text), decoded.
    early(r#"{"n": 1, "card": {"x": 1, "y": 2, "x": 3}}"#, "x\": 3", 1);
    early(r#"{"n": 1, "card": {"x": 1, "\u0078": 3}}"#, "8\": 3", 1);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "card": {"x": 1, "xx": 2, "y": {"x": 1, "y": 2}}}"#), None);
    // The same in the general automaton, at the root and in a member, with its reason.
    for (text, needle) in
        [(r#"{"n": 1, "a": [], "b": 2, "a": 3}"#, "a\": 3"), (r#"{"o": {"k": {"k": 1}, "l": 2, "k": 3}}"#, "k\": 3")]
    {
        assert_eq!(dies_at::<General>(text), Some(at(text, needle, 1)), "{text}");
        let mut s = General::stream();
        let Progress::Dead(d) = s.feed(text.as_bytes()) else { panic!("{text} is alive") };
        assert!(d.error.to_string().contains("duplicate key"), "{text}: {}", d.error);
    }
    // In values no subschema speaks of (`{}`, `true`, an undeclared member's), within the
    // tracked levels, for both automata alike.
    for (text, needle) in [
        (r#"{"m": {"x": 1, "x": 2}}"#, "x\": 2"),
        (r#"{"t": [{"x": 1, "y": 2, "x": 3}]}"#, "x\": 3"),
        (r#"{"zz": {"x": 1, "\u0078": 2}}"#, "8\": 2"),
        (r#"{"m": {"xxxxxxxxxxxxxxxxxxxx": 1, "yyyyyyyyyyyyyyyyyyyyyyyyy": 2, "xxxxxxxxxxxxxxxxxxxx": 2}}"#, "x\": 2"),
    ] {
        assert_eq!(dies_at::<Free>(text), Some(at(text, needle, 1)), "{text}");
        assert_eq!(toolgate::Stream::<Free>::__reference(text.as_bytes()).0, Some(at(text, needle, 1)), "{text}");
    }
    // Below them, `finish` finds it.
    let text = r#"{"t": [{"x": 1, "y": {"k": 1, "k": 2}}]}"#;
    assert_eq!(dies_at::<Free>(text), None);
    assert!(Free::stream().feed(text.as_bytes()) == Progress::Alive);
    let mut s = Free::stream();
    let _ = s.feed(text.as_bytes());
    assert!(s.finish().is_err());
    // Many undeclared keys: each compared as it closes, while the filter is of use.
    let many: Vec<String> = (0..60).map(|i| format!("\"k{i}\": {i}")).collect();
    let text = format!(r#"{{"o": {{{}, "k41": 0}}}}"#, many.join(", "));
    assert_eq!(dies_at::<General>(&text), Some(at(&text, "k41\": 0", 3)));
    let text = format!(r#"{{"o": {{{}}}}}"#, many.join(", "));
    assert_eq!(dies_at::<General>(&text), None);
    assert!(General::is_valid_json(&text));
}

tool_schema! {
    /// Items of a tagged union, each handed to the general automaton from its `{` when the
    /// tagging property is not first.
    pub struct Tagged = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "maxItems": 8, "items": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "ab"}, "n": {"type": "integer", "maximum": 9}},
                 "required": ["kind", "n"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}, "s": {"type": "string", "maxLength": 3}},
                 "required": ["kind"]}
            ]}}
        },
        "additionalProperties": false
    };
}

/// A value handed to the general automaton mid-text tracks the levels the automaton that reads
/// from the root does, counted from the root (a fuzz finding: it tracked as many again below
/// itself, and found a repeated key there that the automaton from the root leaves to `finish`).
#[test]
fn a_value_handed_over_tracks_the_levels_counted_from_the_root() {
    let deep = r#"{"items": [{"kknd": {"x": [{"kknd": {"x": [1, 2, 3], "x": 1}}]}, "kind": "a"}]}"#;
    let shallow = r#"{"items": [{"kknd": {"x": [1, 2, 3], "x": 1}, "kind": "a"}]}"#;
    for text in [deep, shallow] {
        assert!(!Tagged::is_valid_json(text), "{text}");
        let (reference, _) = toolgate::Stream::<Tagged>::__reference(text.as_bytes());
        assert_eq!(dies_at::<Tagged>(text), reference, "{text}");
        let mut s = Tagged::stream();
        let _ = s.feed(text.as_bytes());
        assert!(s.finish().is_err(), "{text}");
    }
    // Within the tracked levels, at the repeated key; below them, at `finish`.
    assert_eq!(dies_at::<Tagged>(shallow), Some(at(shallow, "x\": 1", 1)));
    assert_eq!(dies_at::<Tagged>(deep), None);
}

#[test]
fn counts_the_moment_they_are_exceeded() {
    // maxLength: at the fourth character.
    early(r#"{"n": 1, "short": "abcd"}"#, "d\"", 0);
    // maxItems: at the comma that promises a third item.
    early(r#"{"n": 1, "tags": ["a", "b", "c"]}"#, ", \"c", 0);
    // items: false after two prefixItems: at the comma that promises a third.
    early(r#"{"n": 1, "pair": [1, "a", 2]}"#, ", 2", 0);
    // maxProperties: at the comma that promises a second member.
    early(r#"{"n": 1, "meta": {"a": "x", "b": "y"}}"#, ", \"b", 0);
    // maxContains: the moment an item past it is sure to match. An integer is sure when it
    // ends (`2` may still become `2.5`): at the comma after the second.
    early(r#"{"n": 1, "some": [1, "a", 2, 3]}"#, ", 3", 0);
    // A string matches `{"type": "string"}` at its quote; anything matches `true` at its first byte.
    early(r#"{"n": 1, "few": [1, "a", 2, "bc"]}"#, "\"bc", 0);
    early(r#"{"n": 1, "any2": [[1], {"a": 1}, null]}"#, "null", 0);
    early(r#"{"n": 1, "any2": [[1], {"a": 1}, [2]]}"#, "[2", 0);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "few": [1, "a", 2, [3]]}"#), None);
    // A string is not sure to match a `pattern` at its quote: the second match dies when it closes.
    let good = r#"{"n": 1, "digits": ["1", "x", "y"]}"#;
    assert!(Early::is_valid_json(good));
    assert_eq!(dies_at::<Early>(good), None);
    early(r#"{"n": 1, "digits": ["1", "x", "2a"]}"#, "\"]}", 0);
    let mut s = Early::stream();
    let text = r#"{"n": 1, "few": [1, "a", 2, "b"#;
    let Progress::Dead(d) = s.feed(text.as_bytes()) else { panic!("{text} is alive") };
    let message = d.error.to_string();
    assert!(message.contains("/few") && message.contains("`contains`, found 2"), "{message}");
}

#[test]
fn patterns_when_the_automaton_can_no_longer_match() {
    // Anchored: "A" cannot start [a-z]{2}.
    early(r#"{"n": 1, "code": "Ab-1"}"#, "Ab", 0);
    early(r#"{"n": 1, "code": "ab_1"}"#, "_1", 0);
    // Unanchored: only the end can tell.
    early(r#"{"n": 1, "word": "abc"}"#, "c\"", 1);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "word": "axc"}"#), None);
}

#[test]
fn numbers_when_they_end_and_signs_that_decide() {
    // 1000 could still become 1000e-3: decided at the byte after the number.
    early(r#"{"n": 1, "big": 1001}"#, "}", 0);
    assert!(Early::is_valid_json(r#"{"n": 1, "big": 1001e-3}"#));
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "big": 1001e-3}"#), None);
    // A sign alone: exclusiveMinimum 0 rules out every negative number (and -0).
    early(r#"{"n": 1, "x": -0.5}"#, "-", 0);
    // minimum 1: so does `-`.
    early(r#"{"n": -5}"#, "-", 0);
    // A number at the root ends with the text: `finish` decides (`6` may still be `6e-1`).
    toolgate::tool_schema! {
        /// A bounded number.
        pub struct Bounded = {"type": "number", "maximum": 5};
    }
    let mut s = Bounded::stream();
    assert!(!s.feed(b"6").is_dead());
    assert!(matches!(s.finish(), Err(Error::Invalid(_))));
    // An integer's `6` is dead at once where its bounds leave zero out: the integers it may
    // still read as are 0 (as `6e-400`), 6, 7 (as `6.99999999999999999999`) and larger.
    toolgate::tool_schema! {
        /// A bounded integer.
        pub struct BoundedInteger = {"type": "integer", "minimum": 1, "maximum": 5};
    }
    assert!(BoundedInteger::stream().feed(b"6").is_dead());
    assert!(!BoundedInteger::stream().feed(b"5").is_dead());
}

#[test]
fn whole_value_keywords_when_the_value_closes() {
    // required: when the root closes.
    assert_eq!(dies_at::<Early>(r#"{"x": 1}"#), Some(7));
    // minItems: when the array closes (a repeated item: where it closes, see
    // `a_repeated_item_dies_where_it_closes`).
    early(r#"{"n": 1, "tags": []}"#, "]", 0);
    early(r#"{"n": 1, "tags": ["a", "a"]}"#, "a\"]", 1);
    // dependentRequired: when the object closes.
    early(r#"{"n": 1, "card": {"number": "1"}}"#, "}}", 0);
    // contains: when the array closes.
    early(r#"{"n": 1, "some": ["a"]}"#, "]", 0);
    // not: when the value closes.
    early(r#"{"n": 1, "nz": 5}"#, "}", 0);
    // oneOf, exactly one: "ab" matches both branches.
    early(r#"{"n": 1, "one": "ab"}"#, "b\"", 1);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "one": "abc"}"#), None);
}

tool_schema! {
    /// `not`, `oneOf` and `if` whose subschemas take every value of a kind.
    pub struct Sure = {
        "type": "object",
        "properties": {
            "no_string": {"not": {"type": "string"}},
            "no_literal": {"not": {"type": ["integer", "boolean", "null"]}},
            "three": {"oneOf": [true, {"type": "boolean"}, {"type": "string", "maxLength": 2}]},
            "objects": {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
            "cond": {"if": {"type": "string"}, "then": {"maxLength": 1}},
            "deep": {"not": {"anyOf": [{"type": "boolean"}, {"$ref": "#/$defs/s"}]}},
            "picked": {"not": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
            "both": {"not": {"oneOf": [{"type": "string"}, {"maxLength": 1}]}},
            "other": {"not": {"if": {"type": "integer"}, "then": false}},
            "guess": {"not": {"if": {"maxLength": 1}, "then": {"type": "string"}, "else": false}},
            "long": {"not": {"type": "string", "not": {"maxLength": 1}}},
            "decided": {"not": {"if": {"type": "string"}, "then": {"$ref": "#/$defs/s"}, "else": false}},
            "counted": {"type": "array", "contains": {"anyOf": [{"$ref": "#/$defs/s"}, {"type": "null"}]}, "maxContains": 1}
        },
        "$defs": {"s": {"type": "string"}},
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same, where the flat reader reads the values (or hands them over).
    pub struct SureFlat = {
        "type": "object",
        "properties": {
            "two": {"oneOf": [{"type": "number"}, {"type": ["number", "string"]}]},
            "merged": {"type": "string", "allOf": [{"maxLength": 5}], "not": {"pattern": "^a"}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A `not` beside merged keywords that takes every number (the automaton reads it).
    pub struct SureMerged = {
        "type": "object",
        "properties": {
            "merged": {"type": ["string", "number"], "allOf": [{"maxLength": 5}], "not": {"type": "number"}}
        },
        "additionalProperties": false
    };
}

/// Where `text` dies for tool `T`, the same with and without its first reader, and said when
/// that byte is fed (not later, with the offset of an earlier byte).
fn sure_dies_at<T: Tool>(text: &str) -> Option<usize> {
    let dead = dies_at::<T>(text);
    let mut s = T::stream();
    let said = text.bytes().position(|b| s.feed(&[b]).is_dead());
    assert_eq!(said, dead, "{text}: said at another byte");
    assert_eq!(toolgate::Stream::<T>::__reference(text.as_bytes()).0, dead, "{text}: the general automaton");
    let mut s = T::stream().__automaton_only();
    let alone = match s.feed(text.as_bytes()) {
        Progress::Dead(d) => Some(d.offset),
        Progress::Alive => None,
    };
    assert_eq!(alone, dead, "{text}: without the first reader");
    dead
}

/// `text` dies for tool `T` at the `k`-th byte of `needle`, in every reader
/// ([`sure_dies_at`]), of a violation of `keyword`.
fn dies_for<T: Tool>(text: &str, needle: &str, k: usize, keyword: &str) {
    assert_eq!(sure_dies_at::<T>(text), Some(at(text, needle, k)), "{text}");
    let Progress::Dead(d) = T::stream().feed(text.as_bytes()) else { panic!("{text}: alive") };
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some(keyword), "{text}");
}

/// `text` is valid for tool `T`, and no reader finds it dead on the way.
fn lives_for<T: Tool>(text: &str) {
    assert_eq!(sure_dies_at::<T>(text), None, "{text}");
    assert!(T::is_valid_json(text), "{text}");
}

#[test]
fn not_and_one_of_die_where_a_subschema_takes_every_value_of_the_kind() {
    let dies = |text: &str, needle: &str, keyword: &str| dies_for::<Sure>(text, needle, 0, keyword);
    let lives = lives_for::<Sure>;
    // `not` of every string: at the quote; of integers, a number only where it ends.
    dies(r#"{"no_string": "x"}"#, "\"x", "not");
    lives(r#"{"no_string": 5}"#);
    dies(r#"{"no_literal": true}"#, "true", "not");
    dies(r#"{"no_literal": null}"#, "null", "not");
    dies(r#"{"no_literal": 1}"#, "}", "not");
    lives(r#"{"no_literal": 1.5}"#);
    // `oneOf` with two branches that take every boolean: at the `t`.
    dies(r#"{"three": true}"#, "true", "oneOf");
    dies(r#"{"objects": false}"#, "false", "oneOf");
    // A string both `true` and the short branch take: when it closes; a longer one is valid.
    dies(r#"{"three": "ab"}"#, "\"}", "oneOf");
    lives(r#"{"three": "abc"}"#);
    lives(r#"{"three": null}"#);
    lives(r#"{"objects": {"a": 1}}"#);
    // `if` that takes every string: its `then` decides as the string goes.
    dies(r#"{"cond": "ab"}"#, "b\"", "maxLength");
    lives(r#"{"cond": 5}"#);
    // Through the subschemas applied in place: some `anyOf` branch, a `$ref`, exactly one
    // `oneOf` branch (the others refusing the kind), the outcome an `if` picks.
    dies(r#"{"deep": "x"}"#, "\"x", "not");
    dies(r#"{"deep": false}"#, "false", "not");
    lives(r#"{"deep": 5}"#);
    dies(r#"{"picked": "x"}"#, "\"x", "not");
    dies(r#"{"picked": 5}"#, "}", "not");
    lives(r#"{"picked": 5.5}"#);
    // A short string is both branches' (so the `oneOf` fails, and the `not` holds).
    lives(r#"{"both": "a"}"#);
    dies(r#"{"both": "ab"}"#, "\"}", "not");
    dies(r#"{"decided": "x"}"#, "\"x", "not");
    lives(r#"{"decided": 5}"#);
    dies(r#"{"other": "x"}"#, "\"x", "not");
    lives(r#"{"other": 1}"#);
    dies(r#"{"other": 1.5}"#, "}", "not");
    // Not sure: an `if` that may go either way, a `not` that does not refuse the kind.
    lives(r#"{"guess": "ab"}"#);
    dies(r#"{"guess": "a"}"#, "\"}", "not");
    lives(r#"{"long": "a"}"#);
    dies(r#"{"long": "ab"}"#, "\"}", "not");
    // A `contains` counts such an item at its first byte.
    dies(r#"{"counted": ["a", null]}"#, "null", "contains");
    lives(r#"{"counted": ["a", 1]}"#);
    // The explanation counts the branches that take the value.
    let Progress::Dead(d) = Sure::stream().feed(br#"{"three": t"#) else { panic!("alive") };
    assert!(d.error.to_string().contains('2'), "{}", d.error);

    assert!(toolgate::Stream::<SureFlat>::__flat());
    let flat = |text: &str, needle: Option<&str>| {
        assert_eq!(sure_dies_at::<SureFlat>(text), needle.map(|n| at(text, n, 0)), "{text}");
        assert_eq!(SureFlat::is_valid_json(text), needle.is_none(), "{text}");
    };
    flat(r#"{"two": 5}"#, Some("5}"));
    flat(r#"{"two": "a"}"#, None);
    flat(r#"{"merged": "bcdef"}"#, None);
    flat(r#"{"merged": "abc"}"#, Some("\"}"));
    flat(r#"{"merged": "bcdefg"}"#, Some("g\""));
    let merged = |text: &str, needle: Option<&str>| {
        assert_eq!(sure_dies_at::<SureMerged>(text), needle.map(|n| at(text, n, 0)), "{text}");
        assert_eq!(SureMerged::is_valid_json(text), needle.is_none(), "{text}");
    };
    merged(r#"{"merged": 5}"#, Some("5}"));
    merged(r#"{"merged": "abcde"}"#, None);
    merged(r#"{"merged": "abcdef"}"#, Some("f"));
}

tool_schema! {
    /// Subschemas that ask an object only for members (`required`, `minProperties`): an object
    /// that has them satisfies them for good, which decides a `oneOf`, a `not` or an `if`.
    pub struct Present = {
        "type": "object",
        "properties": {
            "source": {"oneOf": [{"required": ["path"]}, {"required": ["url"]}]},
            "quiet": {"not": {"required": ["debug"]}},
            "counted": {"oneOf": [{"minProperties": 2}, {"required": ["a"], "properties": {"a": true}}]},
            "cond": {"if": {"required": ["a"]}, "then": {"maxProperties": 1}},
            "typed": {"oneOf": [{"required": ["a"]}, {"required": ["a"], "properties": {"a": {"type": "integer"}}}]},
            "capped": {"oneOf": [{"required": ["a"]}, {"required": ["a"], "maxProperties": 1}]},
            "nested": {"type": "array", "items": {"not": {"required": ["x"]}}},
            "few": {"not": {"minProperties": 2}},
            "scalar": {"not": {"type": "object"}},
            "loose": {"oneOf": [{"required": ["a"]}, {"properties": {"b": true}}]},
            "listed": {"not": {"minProperties": 1}},
            "shared": {"oneOf": [{"required": ["foo", "bar"]}, {"required": ["foo", "baz"]}]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// "Exactly one of path and url", never debug: a flat tool, read by the flat reader.
    pub struct PresentFlat = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "url": {"type": "string"}, "debug": {"type": "boolean"}},
        "oneOf": [{"required": ["path"]}, {"required": ["url"]}],
        "not": {"required": ["debug"]}
    };
}

tool_schema! {
    /// An `if` of names whose `then` is `false`, and a `oneOf` with a `true` branch.
    pub struct PresentIf = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "if": {"required": ["a"]},
        "then": false,
        "oneOf": [true, {"required": ["b"]}]
    };
}

#[test]
fn members_present_decide_one_of_not_and_if_when_their_key_closes() {
    let (dies, lives) = (dies_for::<Present>, lives_for::<Present>);
    // Both branches of "exactly one of path and url": at the closing quote of the second key,
    // escaped or not, however far the object goes on.
    dies(r#"{"source": {"path": "a", "url": "b"}}"#, "url\"", 3, "oneOf");
    dies(r#"{"source": {"url": 1, "x": 2, "p\u0061th": "a", "y": 3}}"#, "th\"", 2, "oneOf");
    lives(r#"{"source": {"path": "a", "x": 1}}"#);
    lives(r#"{"source": {"url": "b"}}"#);
    // Neither: only when the object closes, as before.
    dies(r#"{"source": {"x": 1}}"#, "}}", 0, "oneOf");
    // A forbidden member: at its key's closing quote.
    dies(r#"{"quiet": {"a": 1, "d\u0065bug": true}}"#, "g\"", 1, "not");
    lives(r#"{"quiet": {"debugging": true}}"#);
    dies(r#"{"nested": [{}, {"y": 1, "x": 2}]}"#, "x\"", 1, "not");
    lives(r#"{"nested": [{}, {"y": 1, "xx": 2}]}"#);
    // `minProperties` counts the members begun: the second key makes both branches sure.
    dies(r#"{"counted": {"b": 1, "a": 2}}"#, "a\"", 1, "oneOf");
    lives(r#"{"counted": {"b": 1, "c": 2}}"#);
    lives(r#"{"counted": {"a": 1}}"#);
    // `if` sure once `a` is there: its `then` (one member at most) died at the `,`.
    dies(r#"{"cond": {"a": 1, "b": 2}}"#, ", \"b", 0, "maxProperties");
    dies(r#"{"cond": {"b": 1, "a": 2}}"#, "a\"", 1, "maxProperties");
    lives(r#"{"cond": {"b": 1, "c": 2}}"#);
    // A branch that asks more of its members (a type, a most) is not sure before the object
    // closes: the value may still fail it.
    dies(r#"{"typed": {"a": 1}}"#, "}}", 0, "oneOf");
    lives(r#"{"typed": {"a": "x"}}"#);
    dies(r#"{"capped": {"a": 1}}"#, "}}", 0, "oneOf");
    lives(r#"{"capped": {"a": 1, "b": 2}}"#);
    // `minProperties` alone: at the `,` that promises the member it counts.
    dies(r#"{"few": {"a": 1, "b": 2}}"#, ", \"b", 0, "not");
    lives(r#"{"few": {"a": 1}}"#);
    // What asks nothing of an object's members takes every object: at the brace.
    dies(r#"{"scalar": {}}"#, "{}", 0, "not");
    lives(r#"{"scalar": [1]}"#);
    // Nor of an array's items: both branches take every array, at its bracket.
    dies(r#"{"loose": [1]}"#, "[1]", 0, "oneOf");
    dies(r#"{"loose": {"c": 1, "a": 2}}"#, "a\"", 1, "oneOf");
    lives(r#"{"loose": {"b": 1}}"#);
    dies(r#"{"listed": []}"#, "[]", 0, "not");
    lives(r#"{"listed": {}}"#);
    // Names no single key decides: once `bar` and `baz` are there, `foo` would satisfy both
    // branches and its absence neither.
    dies(r#"{"shared": {"bar": 1, "x": 2, "baz": 3}}"#, "baz\"", 3, "oneOf");
    dies(r#"{"shared": {"foo": 1, "bar": 2, "baz": 3}}"#, "baz\"", 3, "oneOf");
    lives(r#"{"shared": {"bar": 1, "x": 2, "foo": 3}}"#);
    dies(r#"{"shared": {"bar": 1, "x": 2}}"#, "}}", 0, "oneOf");

    // The same in a flat tool's root object (the flat reader hands the text to the automaton
    // at that byte).
    assert!(toolgate::Stream::<PresentFlat>::__flat());
    let flat = |text: &str, needle: Option<(&str, usize)>| {
        assert_eq!(sure_dies_at::<PresentFlat>(text), needle.map(|(n, k)| at(text, n, k)), "{text}");
        assert_eq!(PresentFlat::is_valid_json(text), needle.is_none(), "{text}");
    };
    flat(r#"{"path": "a", "url": "b"}"#, Some(("url\"", 3)));
    flat(r#"{"url": "b", "p\u0061th": "a"}"#, Some(("th\"", 2)));
    flat(r#"{"path": "a", "debug": false}"#, Some(("debug\"", 5)));
    flat(r#"{"path": "a", "x": 1}"#, None);
    flat(r#"{"x": 1}"#, Some(("}", 0)));
    assert!(toolgate::Stream::<SharedFlat>::__flat());
    let shared = |text: &str, needle: Option<(&str, usize)>| {
        assert_eq!(sure_dies_at::<SharedFlat>(text), needle.map(|(n, k)| at(text, n, k)), "{text}");
        assert_eq!(SharedFlat::is_valid_json(text), needle.is_none(), "{text}");
    };
    shared(r#"{"bar": 1, "x": 2, "baz": 3}"#, Some(("baz\"", 3)));
    shared(r#"{"baz": 1, "b\u0061r": 3}"#, Some(("1r\"", 2)));
    shared(r#"{"bar": 1, "foo": 3, "x": 2}"#, None);
    assert!(toolgate::Stream::<PresentIf>::__flat());
    let cond = |text: &str, needle: Option<(&str, usize)>| {
        assert_eq!(sure_dies_at::<PresentIf>(text), needle.map(|(n, k)| at(text, n, k)), "{text}");
        assert_eq!(PresentIf::is_valid_json(text), needle.is_none(), "{text}");
    };
    cond(r#"{"c": 1, "a": 1}"#, Some(("a\"", 1)));
    cond(r#"{"c": 1, "b": 1}"#, Some(("b\"", 1)));
    cond(r#"{"c": 1}"#, None);
}

tool_schema! {
    /// Subschemas that ask an object for members and say what their values must be: an object
    /// whose members have come, their values judged, satisfies them for good.
    pub struct Valued = {
        "type": "object",
        "properties": {
            "source": {"oneOf": [
                {"properties": {"url": {"type": "string"}}, "required": ["url"]},
                {"properties": {"path": {"type": "string"}}, "required": ["path"]}
            ]},
            "typed": {"oneOf": [{"required": ["a"]}, {"required": ["a"], "properties": {"a": {"type": "integer"}}}]},
            "mode": {
                "type": "object",
                "properties": {"mode": {"enum": ["read", "write"]}, "content": {"type": "string"}},
                "if": {"properties": {"mode": {"const": "read"}}, "required": ["mode"]},
                "then": {"not": {"required": ["content"]}}
            },
            "safe": {"not": {"properties": {"force": {"const": true}}, "required": ["force"]}},
            "opt": {"oneOf": [{"properties": {"a": {"type": "string"}, "t": {"type": "integer"}}}, {"required": ["a"]}]},
            "deep": {"oneOf": [
                {"properties": {"o": {"type": "object"}}, "required": ["o"]},
                {"properties": {"o": {"type": "object", "required": ["k"]}}, "required": ["o"]}
            ]},
            "inner": {"oneOf": [{"required": ["foo"]}, {"required": ["bar"], "properties": {"bar": {"required": ["k"]}}}]},
            "nested": {"oneOf": [
                {"required": ["foo"]},
                {"required": ["bar"], "properties": {"bar": {"properties": {"k": {"type": "string"}}, "required": ["k"]}}}
            ]}
        },
        "additionalProperties": false
    };
}

#[test]
fn members_present_with_their_values_judged_decide_one_of_not_and_if() {
    let (dies, lives) = (dies_for::<Valued>, lives_for::<Valued>);
    // "Exactly one of url and path", each a string: both, at the second value's first byte (any
    // string satisfies its branch), whichever comes first, escaped or not.
    dies(r#"{"source": {"path": "a", "url": "b"}}"#, "\"b", 0, "oneOf");
    dies(r#"{"source": {"url": "b", "x": 1, "p\u0061th": "c"}}"#, "\"c", 0, "oneOf");
    lives(r#"{"source": {"path": 1, "url": "b"}}"#);
    lives(r#"{"source": {"url": "b", "path": 5}}"#);
    lives(r#"{"source": {"url": "b", "x": "y"}}"#);
    // An integer: where the number ends (`1` may still become `1.5`).
    dies(r#"{"typed": {"a": 1 }}"#, "1 ", 1, "oneOf");
    dies(r#"{"typed": {"a": 1, "b": 2}}"#, ",", 0, "oneOf");
    lives(r#"{"typed": {"a": 1.5}}"#);
    // An `if` sure once `mode` closed as "read": its `then` died at `content`.
    dies(r#"{"mode": {"mode": "read", "content": "x"}}"#, "content\"", 7, "not");
    dies(r#"{"mode": {"content": "x", "mode": "read"}}"#, "read\"", 4, "not");
    lives(r#"{"mode": {"mode": "write", "content": "x"}}"#);
    lives(r#"{"mode": {"content": "x", "mode": "write"}}"#);
    // A `not` of a member's value: at the literal's last letter.
    dies(r#"{"safe": {"x": 1, "force": true}}"#, "true", 3, "not");
    lives(r#"{"safe": {"force": false}}"#);
    // A property not required: sure only once its member came (`t`), or where the object closes.
    dies(r#"{"opt": {"t": 1, "a": "x"}}"#, "\"x", 0, "oneOf");
    dies(r#"{"opt": {"a": "x"}}"#, "}}", 0, "oneOf");
    lives(r#"{"opt": {"a": "x", "t": "y"}}"#);
    lives(r#"{"opt": {"a": 5}}"#);
    // A member's object value: at its brace where its property takes every object, else while
    // it is open, where its own members make its property sure of it: at the key that completes
    // them, at a member value's first byte, two levels down.
    dies(r#"{"deep": {"o": {"k": 1}}}"#, "k\"", 1, "oneOf");
    lives(r#"{"deep": {"o": {"j": 1}}}"#);
    dies(r#"{"inner": {"foo": 1, "bar": {"j": 1, "k": 2}}}"#, "k\"", 1, "oneOf");
    dies(r#"{"inner": {"bar": {"k": 2, "j": 1}, "foo": 3}}"#, "foo\"", 3, "oneOf");
    lives(r#"{"inner": {"foo": 1, "bar": {"j": 1}}}"#);
    dies(r#"{"nested": {"foo": 1, "bar": {"k": "x"}}}"#, "\"x", 0, "oneOf");
    dies(r#"{"nested": {"bar": {"j": 1, "k": "x"}, "foo": 2}}"#, "foo\"", 3, "oneOf");
    lives(r#"{"nested": {"foo": 1, "bar": {"k": 5}}}"#);
    lives(r#"{"nested": {"foo": 1, "bar": {"j": "x"}}}"#);
    // A token mask no longer lets the second string begin, only what fails its branch.
    let vocab = toolgate::Vocabulary::new(["\"", "1", "n", "{"]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut s = Valued::stream();
    assert!(!s.feed(br#"{"source": {"path": "a", "url": "#).is_dead());
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [1, 2, 3]);
}

tool_schema! {
    /// `enum` and `const` of arrays and objects, followed value by value.
    pub struct Members = {
        "type": "object",
        "properties": {
            "point": {"const": {"x": 1, "y": [true, null, "a"]}},
            "shape": {"enum": [{"kind": "circle", "r": 1.5}, {"kind": "square", "side": 2}, [1, 2], "none"]},
            "pair": {"const": [{"a": "b"}, 2]}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same at the root.
    pub struct MembersRoot = {"enum": [{"op": "stop"}, {"op": "go", "speed": 3}]};
}

#[test]
fn enum_and_const_of_arrays_and_objects_at_the_first_byte_no_member_continues() {
    let (dies, lives) = (dies_for::<Members>, lives_for::<Members>);
    // Any order of the members, numbers by value, escapes decoded.
    lives(r#"{"point": {"x": 1, "y": [true, null, "a"]}}"#);
    lives(r#"{"point": {"y": [true, null, "\u0061"], "x": 1.0}}"#);
    lives(r#"{"point": {"x": 10e-1, "y": [ true , null , "a" ] }}"#);
    // A key no member has, at its first byte; a value no member continues, where it does.
    dies(r#"{"point": {"z": 1}}"#, "z", 0, "const");
    dies(r#"{"point": {"x": 2, "y": []}}"#, "2", 0, "const");
    dies(r#"{"point": {"x": 1, "y": [true, false]}}"#, "false", 0, "const");
    dies(r#"{"point": {"x": 1, "y": [true, null, "b"]}}"#, "b", 0, "const");
    dies(r#"{"point": {"x": 1, "y": [true, null, "a", 1]}}"#, ", 1]", 0, "const");
    // Every name present: a `,` more can only repeat one.
    dies(r#"{"point": {"x": 1, "y": [true, null, "a"], "x": 1}}"#, "], \"x", 1, "const");
    dies(r#"{"point": []}"#, "[", 0, "const");
    // What is missing, where the value closes.
    dies(r#"{"point": {"x": 1}}"#, "}}", 0, "const");
    dies(r#"{"point": {"x": 1, "y": [true]}}"#, "]", 0, "const");
    // An `enum`: dead when no member is left.
    lives(r#"{"shape": {"kind": "circle", "r": 1.5}}"#);
    lives(r#"{"shape": {"side": 2, "kind": "square"}}"#);
    lives(r#"{"shape": [1, 2]}"#);
    lives(r#"{"shape": "none"}"#);
    dies(r#"{"shape": {"kind": "circle", "side": 2}}"#, "side", 0, "enum");
    dies(r#"{"shape": {"kind": "triangle"}}"#, "triangle", 0, "enum");
    dies(r#"{"shape": [1, 3]}"#, "3", 0, "enum");
    dies(r#"{"shape": "nonE"}"#, "E", 0, "enum");
    lives(r#"{"pair": [{"a": "b"}, 2]}"#);
    lives(r#"{"pair": [{"a": "b"}, 2.0e0]}"#);
    dies(r#"{"pair": [{"a": "c"}, 2]}"#, "c", 0, "const");
    // A number that may still become a member (`0` may be `0.99999999999999999999`, which is
    // `1`): where it ends, by value.
    lives(r#"{"pair": [{"a": "b"}, 20e-1 ]}"#);
    dies(r#"{"point": {"x": 0, "y": []}}"#, ", \"y", 0, "const");
    dies(r#"{"pair": [{"a": "b"}, 1 ]}"#, " ]", 0, "const");
    dies(r#"{"pair": [{"a": "b"}, 2.5]}"#, "5", 0, "const");
    dies(r#"{"pair": [{"a": "b"}, 2, 3]}"#, ", 3", 0, "const");
    // At the root, the whole stream reads them.
    let root = |text: &str, needle: Option<&str>| {
        assert_eq!(sure_dies_at::<MembersRoot>(text), needle.map(|n| at(text, n, 0)), "{text}");
        assert_eq!(MembersRoot::is_valid_json(text), needle.is_none(), "{text}");
    };
    root(r#"{"op": "stop"}"#, None);
    root(r#"{"speed": 3, "op": "go"}"#, None);
    root(r#"{"op": "stop", "speed": 3}"#, Some(", \"speed"));
    root(r#"{"op": "go", "sp": 3}"#, Some("\": 3"));
    root(r#"{"op": "go", "speed": 4}"#, Some("4"));
    root(r#"{"op": "walk"}"#, Some("walk"));
    root(r#"[]"#, Some("["));
}

tool_schema! {
    /// A `oneOf` of names that no single key decides, in a flat tool's root object.
    pub struct SharedFlat = {
        "type": "object",
        "properties": {"foo": {"type": "integer"}, "bar": {"type": "integer"}, "baz": {"type": "integer"}},
        "oneOf": [{"required": ["foo", "bar"]}, {"required": ["foo", "baz"]}]
    };
}

tool_schema! {
    /// Closed objects beside `patternProperties`: a key dies where no declared name continues
    /// it and no pattern can match it any more.
    pub struct PatternKeys = {
        "type": "object",
        "properties": {
            "env": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "patternProperties": {"^x-[a-z]+$": {"type": "string"}, "^[A-Z_]+$": {"type": "integer"}},
                "additionalProperties": false
            },
            "one": {"type": "object", "patternProperties": {"^id[0-9]": true}, "additionalProperties": false},
            "loose": {"type": "object", "patternProperties": {"id": true}, "additionalProperties": false},
            "named": {
                "type": "object",
                "patternProperties": {"^a": true},
                "propertyNames": {"maxLength": 3},
                "additionalProperties": false
            },
            "seen": {
                "type": "object",
                "properties": {"k": true},
                "patternProperties": {"^p": true},
                "unevaluatedProperties": false
            }
        },
        "additionalProperties": false
    };
}

#[test]
fn keys_beside_pattern_properties_die_where_no_name_or_pattern_continues_them() {
    let dies = |text: &str, needle: &str| dies_for::<PatternKeys>(text, needle, 0, "additionalProperties");
    let lives = lives_for::<PatternKeys>;
    // A name, a key each pattern matches, escaped or not.
    lives(r#"{"env": {"path": "/", "x-abc": "1", "HOME_DIR": 2, "x-\u0061": "", "\u0050": 1}}"#);
    // Neither `path`, nor `x-…`, nor capitals: at the byte.
    dies(r#"{"env": {"pax": 1}}"#, "x\"");
    dies(r#"{"env": {"pat": 1}}"#, "\": 1");
    dies(r#"{"env": {"x-a1": 1}}"#, "1\"");
    dies(r#"{"env": {"HOMe": 1}}"#, "e\"");
    dies(r#"{"env": {"x_": 1}}"#, "_\"");
    dies(r#"{"env": {"\u0078-A": 1}}"#, "A\"");
    // A declared name present already is no way out: a repeat, where the patterns are dead too
    // (at the escape's last digit when it decides).
    dies(r#"{"env": {"path": "/", "pa": 1}}"#, "pa\"");
    dies_for::<PatternKeys>(r#"{"env": {"path": "/", "\u0070": 1}}"#, "0070", 3, "additionalProperties");
    lives(r#"{"env": {"path": "/", "PATH": 1}}"#);
    // Where a key may still become one, it lives until it closes.
    dies(r#"{"env": {"x-": "1"}}"#, "\": \"1");
    dies(r#"{"env": {"": 1}}"#, "\": 1");
    // No declared name at all: the pattern alone.
    lives(r#"{"one": {"id7x": 1}}"#);
    dies(r#"{"one": {"ix": 1}}"#, "x\"");
    dies(r#"{"one": {"idx": 1}}"#, "x\"");
    // `unevaluatedProperties: false` beside its own pattern and the declared name.
    lives(r#"{"seen": {"k": 1, "pq": 2}}"#);
    dies_for::<PatternKeys>(r#"{"seen": {"q": 1}}"#, "q\"", 0, "unevaluatedProperties");
    // An unanchored pattern may match until the key closes.
    lives(r#"{"loose": {"a-long-id": 1}}"#);
    dies(r#"{"loose": {"a-long-i": 1}}"#, "\": 1");
    // Beside `propertyNames`: each says its own.
    lives(r#"{"named": {"abc": 1}}"#);
    dies(r#"{"named": {"b": 1}}"#, "b\"");
    dies_for::<PatternKeys>(r#"{"named": {"abcd": 1}}"#, "abcd", 3, "propertyNames");
}

tool_schema! {
    /// `contains` that no count of items satisfies.
    pub struct Uncontained = {
        "type": "object",
        "properties": {
            "none": {"contains": false},
            "inverted": {"contains": {"const": 1}, "minContains": 3, "maxContains": 1},
            "optional": {"contains": false, "minContains": 0}
        },
        "additionalProperties": false
    };
}

#[test]
fn a_contains_no_count_of_items_satisfies_is_dead_at_the_bracket() {
    let dies = |text: &str, needle: &str| dies_for::<Uncontained>(text, needle, 0, "contains");
    dies(r#"{"none": []}"#, "[");
    dies(r#"{"none": ["a", 1]}"#, "[");
    dies(r#"{"inverted": [1, 1, 1]}"#, "[");
    // Other kinds are not arrays: `contains` says nothing of them.
    lives_for::<Uncontained>(r#"{"none": {}, "inverted": "x"}"#);
    // `minContains: 0`: any array, no item matching.
    lives_for::<Uncontained>(r#"{"optional": [1, "a"]}"#);
}

tool_schema! {
    /// Properties whose subschema is `false`, read by the quick reader and the lean automaton.
    pub struct ForbiddenQuick = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "secret": false,
            "a": {"type": "object", "propertyNames": {"enum": ["x", "y"]}}
        }
    };
}

tool_schema! {
    /// The same, read by the flat reader: in an open object, a closed one, beside a pattern.
    pub struct ForbiddenFlat = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "secret": false,
            "closed": {"type": "object", "properties": {"x": false, "y": true}, "additionalProperties": false},
            "tmp": {"type": "object", "patternProperties": {"^tmp_": false}}
        }
    };
}

tool_schema! {
    /// The same beside two patterns (the general automaton).
    pub struct ForbiddenPatterns = {
        "type": "object",
        "patternProperties": {"^tmp_": false, "^x": {"type": "integer"}}
    };
}

#[test]
fn a_key_whose_property_is_false_dies_where_it_closes() {
    assert!(!toolgate::Stream::<ForbiddenQuick>::__flat() && toolgate::Stream::<ForbiddenFlat>::__flat());
    // At the key's closing quote.
    for (text, needle) in [
        (r#"{"secret": 1}"#, "secret\""),
        (r#"{"name": "a", "secret"   : "x"}"#, "secret\""),
        (r#"{"s\u0065cret": 1}"#, "cret\""),
    ] {
        dies_for::<ForbiddenQuick>(text, needle, needle.len() - 1, "false");
        dies_for::<ForbiddenFlat>(text, needle, needle.len() - 1, "false");
    }
    lives_for::<ForbiddenQuick>(r#"{"name": "a", "secrets": 1, "a": {"x": 1}}"#);
    lives_for::<ForbiddenFlat>(r#"{"name": "a", "secrets": 1, "closed": {"y": 1}, "tmp": {"tmp": 1}}"#);
    dies_for::<ForbiddenFlat>(r#"{"closed": {"y": 1, "x": 2}}"#, "x\"", 1, "false");
    dies_for::<ForbiddenFlat>(r#"{"tmp": {"tmp_a": 2}}"#, "tmp_a\"", 5, "false");
    dies_for::<ForbiddenPatterns>(r#"{"x1": 1, "tmp_b": 2}"#, "tmp_b\"", 5, "false");
    lives_for::<ForbiddenPatterns>(r#"{"x1": 1, "tmp": 2}"#);
    // The violation names the property.
    let Progress::Dead(d) = ForbiddenQuick::stream().feed(br#"{"name": "a", "secret""#) else { panic!("alive") };
    let v = d.violation().expect("a violation");
    assert_eq!(
        (v.pointer.as_str(), &v.kind),
        ("/secret", &toolgate::ViolationKind::ForbiddenProperty { property: "secret".into() })
    );
}

tool_schema! {
    /// Subschemas below the root that no value satisfies without being `false` themselves: read
    /// as `false` where that decides before the value's first byte.
    pub struct EmptyBelow = {
        "$defs": {"none": {"not": {}}},
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "gone": {"not": {}},
            "split": {"allOf": [{"type": "string"}, false]},
            "closed": {"type": "object", "properties": {"x": {}}, "additionalProperties": {"$ref": "#/$defs/none"}},
            "tuple": {"prefixItems": [{"type": "integer"}], "items": {"anyOf": [false, {"not": true}]}},
            "short": {"prefixItems": [true, {"not": {}}, true]},
            "never_contained": {"contains": {"not": {}}},
            "unevaluated": {"properties": {"a": {}}, "unevaluatedProperties": {"not": {}}},
            "unevaluated_items": {"prefixItems": [true], "unevaluatedItems": {"$ref": "#/$defs/none"}},
            "patterned": {"patternProperties": {"^tmp_": {"not": {}}, "^x": {"type": "integer"}}}
        }
    };
}

tool_schema! {
    /// The same in a tool the flat reader reads.
    pub struct EmptyBelowFlat = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "gone": {"not": {}},
            "closed": {"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": {"not": {}}},
            "tmp": {"type": "object", "patternProperties": {"^tmp_": {"allOf": [false]}}},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"not": {}}]}
        },
        "additionalProperties": false
    };
}

#[test]
fn a_subschema_no_value_satisfies_is_read_as_false() {
    assert!(toolgate::Stream::<EmptyBelowFlat>::__flat());
    for (text, needle, keyword) in [
        // A property: at its key's closing quote, before the `:` and the whitespace after it.
        (r#"{"gone": 1}"#, "gone\"", "false"),
        (r#"{"name": "a", "split"  :  "x"}"#, "split\"", "false"),
        (r#"{"g\u006Fne": null}"#, "ne\"", "false"),
    ] {
        dies_for::<EmptyBelow>(text, needle, needle.len() - 1, keyword);
    }
    // An object it closes: at the comma after its last declared name, or at the first
    // character no declared name continues.
    dies_for::<EmptyBelow>(r#"{"closed": {"x": 1, "y": 2}}"#, ", \"y", 0, "additionalProperties");
    dies_for::<EmptyBelow>(r#"{"closed": {"y": 2}}"#, "y\"", 0, "additionalProperties");
    dies_for::<EmptyBelow>(r#"{"unevaluated": {"a": 1, "b": 2}}"#, ", \"b", 0, "unevaluatedProperties");
    dies_for::<EmptyBelow>(r#"{"unevaluated": {"b": 2}}"#, "b\"", 0, "unevaluatedProperties");
    // An array it ends: at the `,` that promises one item more (as `items: false`), the item
    // named (its index; `maxItems` only where it is what ends the array).
    dies_for::<EmptyBelow>(r#"{"tuple": [1, 2]}"#, ", 2", 0, "false");
    dies_for::<EmptyBelow>(r#"{"short": [1, 2]}"#, ", 2", 0, "false");
    let Progress::Dead(d) = EmptyBelow::stream().feed(br#"{"tuple": [1,"#) else { panic!("alive") };
    let v = d.violation().expect("a violation");
    assert_eq!((v.pointer.as_str(), &v.kind), ("/tuple/1", &toolgate::ViolationKind::ForbiddenItem { index: 1 }));
    assert_eq!(v.kind.to_string(), "unexpected item 1: the schema allows no value for it (no more items here)");
    dies_for::<EmptyBelow>(r#"{"unevaluated_items": [1, 2]}"#, ", 2", 0, "unevaluatedItems");
    // A pattern of it: at the key's closing quote, as a `false` property.
    dies_for::<EmptyBelow>(r#"{"patterned": {"x1": 1, "tmp_a": 2}}"#, "tmp_a\"", 5, "false");
    dies_for::<EmptyBelowFlat>(r#"{"tmp": {"tmp": 1, "tmp_a": 2}}"#, "tmp_a\"", 5, "false");
    // A `contains` of it: no count of items satisfies it, dead at the `[`.
    dies_for::<EmptyBelow>(r#"{"never_contained": [1]}"#, "[", 0, "contains");
    lives_for::<EmptyBelow>(
        r#"{"name": "gone", "closed": {"x": [1]}, "tuple": [1], "never_contained": {}, "unevaluated": {"a": 1}, "unevaluated_items": [{}], "patterned": {"x": 1, "tmp": 2}, "short": [[]]}"#,
    );
    // The flat reader says the same at the same bytes.
    dies_for::<EmptyBelowFlat>(r#"{"name": "a", "gone" : 1}"#, "gone\"", 4, "false");
    dies_for::<EmptyBelowFlat>(r#"{"closed": {"x": 1, "y": 2}}"#, ", \"y", 0, "additionalProperties");
    dies_for::<EmptyBelowFlat>(r#"{"closed": {"y": 2}}"#, "y\"", 0, "additionalProperties");
    dies_for::<EmptyBelowFlat>(r#"{"pair": [1 , 2]}"#, ", 2", 0, "false");
    lives_for::<EmptyBelowFlat>(r#"{"name": "gone", "closed": {"x": 1}, "tmp": {"tmp": 1, "x_tmp_": 2}, "pair": [1]}"#);
}

tool_schema! {
    /// Subschemas that each accept something but together nothing: read as `false` as well.
    pub struct EmptyTogether = {
        "$defs": {"short": {"maxItems": 2}, "text": {"type": "string"}},
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "kinds": {"allOf": [{"$ref": "#/$defs/text"}, {"type": "integer"}]},
            "union": {"anyOf": [{"type": "string"}, {"type": "null"}], "allOf": [{"type": "integer"}]},
            "members": {"enum": [1, "a"], "allOf": [{"enum": [2, "b"]}]},
            "typed": {"enum": [1.5, "x"], "allOf": [{"type": ["integer", "boolean"]}]},
            "range": {"type": "number", "allOf": [{"minimum": 5}, {"exclusiveMaximum": 5}]},
            "length": {"type": "string", "allOf": [{"minLength": 5}, {"maxLength": 3}]},
            "items": {"type": "array", "$ref": "#/$defs/short", "minItems": 3},
            "needs": {"type": "array", "minItems": 1, "items": {"allOf": [{"type": "string"}, {"type": "null"}]}},
            "crowded": {"type": "object", "allOf": [{"required": ["a", "b"]}, {"maxProperties": 1}]},
            "barred": {"type": "object", "required": ["x"], "properties": {"x": {"not": {}}}},
            "closed": {"type": "object", "required": ["x"], "allOf": [{"additionalProperties": false}]},
            "deep": {
                "type": "object",
                "required": ["a"],
                "properties": {"a": {"type": "object", "required": ["b"], "properties": {"b": {"$ref": "#/properties/kinds"}}}}
            },
            "list": {"type": "array", "items": {"$ref": "#/properties/range"}},
            "maybe": {"type": ["number", "string"], "allOf": [{"minimum": 5}, {"maximum": 4}]},
            "near": {"type": "number", "allOf": [{"minimum": 5}, {"maximum": 5}]},
            "open": {"type": "object", "required": ["y1"], "patternProperties": {"^y": {}}, "additionalProperties": false}
        }
    };
}

tool_schema! {
    /// A root that accepts nothing although each of its parts does.
    pub struct EmptyRoot = {
        "type": "object",
        "allOf": [{"required": ["a", "b"]}, {"maxProperties": 1}]
    };
}

/// A member `name` of tool `T`'s root dies at its key's closing quote, in every reader, with a
/// `ForbiddenProperty` naming it.
fn forbidden_at_key<T: Tool>(name: &str) {
    let text = format!(r#"{{"name": "a", "{name}" : 1}}"#);
    let needle = format!("{name}\"");
    dies_for::<T>(&text, &needle, needle.len() - 1, "false");
    let Progress::Dead(d) = T::stream().feed(text.as_bytes()) else { panic!("{text}: alive") };
    let v = d.violation().expect("a violation");
    assert_eq!(
        (v.pointer.as_str(), &v.kind),
        (format!("/{name}").as_str(), &toolgate::ViolationKind::ForbiddenProperty { property: name.into() }),
    );
}

/// The properties of [`EmptyTogether`] that no value satisfies.
const EMPTY_TOGETHER: [&str; 12] =
    ["kinds", "union", "members", "typed", "range", "length", "items", "needs", "crowded", "barred", "closed", "deep"];

#[test]
fn subschemas_that_together_accept_nothing_are_read_as_false() {
    // A property: at its key's closing quote.
    for name in EMPTY_TOGETHER {
        forbidden_at_key::<EmptyTogether>(name);
    }
    // Each such property is truly empty: no value of each kind, at the edges of its bounds,
    // is valid (the validators' verdict, which the analysis must never contradict).
    let candidates = [
        "null",
        "true",
        "0",
        "1",
        "2",
        "4",
        "5",
        "5.0",
        "5.5",
        "1.5",
        "-1",
        r#""a""#,
        r#""b""#,
        r#""x""#,
        r#""abc""#,
        r#""abcd""#,
        r#""abcde""#,
        "[]",
        "[1]",
        "[1, 2]",
        "[1, 2, 3]",
        r#"["a", null]"#,
        "{}",
        r#"{"a": 1}"#,
        r#"{"b": 1}"#,
        r#"{"a": 1, "b": 2}"#,
        r#"{"x": 1}"#,
        r#"{"x": null}"#,
        r#"{"a": {"b": 1}}"#,
        r#"{"a": {"b": "s"}}"#,
    ];
    for name in EMPTY_TOGETHER {
        for value in candidates {
            let text = format!(r#"{{"{name}": {value}}}"#);
            assert!(!EmptyTogether::is_valid_json(&text), "{text}");
        }
    }
    // (And the candidates reach the properties left alive.)
    for text in [r#"{"maybe": "a"}"#, r#"{"near": 5.0}"#, r#"{"list": []}"#, r#"{"open": {"y1": 1}}"#] {
        assert!(EmptyTogether::is_valid_json(text), "{text}");
    }
    // An array whose items accept nothing ends at once: an item dies at its first byte (an
    // empty array is valid).
    dies_for::<EmptyTogether>(r#"{"list": [ 5]}"#, "5]", 0, "false");
    lives_for::<EmptyTogether>(r#"{"list": []}"#);
    // Where another kind is left, or the bounds leave a number, or a pattern may take the
    // required name: alive, and valid.
    lives_for::<EmptyTogether>(r#"{"maybe": "abc", "near": 5, "open": {"y1": 1}}"#);
    dies_for::<EmptyTogether>(r#"{"open": {"x": 1}}"#, "x\"", 0, "additionalProperties");
    lives_for::<EmptyTogether>(r#"{"name": "kinds", "maybe": "x"}"#);
    // A root: dead before its first byte.
    assert_eq!(sure_dies_at::<EmptyRoot>(r#"{"a": 1}"#), Some(0));
    assert!(!EmptyRoot::is_valid_json(r#"{"a": 1}"#) && !EmptyRoot::is_valid_json("{}"));
}

tool_schema! {
    /// Members whose subschemas in several subschemas applied to the object (its own
    /// `properties`, `allOf` parts, `$ref` targets) each accept something but together nothing.
    pub struct BarredTogether = {
        "$defs": {"base": {"properties": {"id": {"type": "string"}, "n": {"type": "integer", "minimum": 10}}}},
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string"},
            "ok": {"type": "integer"},
            "nested": {"allOf": [{"properties": {"x": {"enum": [1, 2]}}}, {"properties": {"x": {"enum": [3]}}}]},
            "rest": {"allOf": [{"properties": {"m": {"type": "integer"}}}, {"additionalProperties": {"type": "string"}}]},
            "patterned": {"allOf": [{"properties": {"zm": {"type": "integer"}}}, {"patternProperties": {"^z": {}}, "additionalProperties": {"type": "string"}}]},
            "req": {"type": "object", "required": ["a"], "allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"type": "null"}}}]}
        },
        "allOf": [{"$ref": "#/$defs/base"}, {"properties": {"n": {"maximum": 5}, "ok": {"minimum": 1}}}]
    };
}

#[test]
fn members_that_the_applied_subschemas_together_bar_die_at_their_key() {
    // `id` (an integer here, a string in the `$ref`), `n` (at least 10 there, at most 5 in the
    // `allOf` part), `req` (an object that needs `a`, which its parts bar together): at the
    // closing quote of their key, at the root.
    for name in ["id", "n", "req"] {
        forbidden_at_key::<BarredTogether>(name);
    }
    // Below the root: `x` (`enum`s with no member in common), `m` (an integer beside an
    // `additionalProperties` of strings).
    dies_for::<BarredTogether>(r#"{"nested": {"x" : 1}}"#, "x\"", 1, "false");
    dies_for::<BarredTogether>(r#"{"rest": {"y": "s", "m" : 1}}"#, "m\"", 1, "false");
    // Each is truly barred: no value of each kind is valid there (the validators' verdict).
    let values =
        ["null", "true", "0", "1", "3", "5", "7", "10", "12", r#""s""#, "[]", "{}", r#"{"a": "s"}"#, r#"{"a": null}"#];
    for value in values {
        for text in [
            format!(r#"{{"id": {value}}}"#),
            format!(r#"{{"n": {value}}}"#),
            format!(r#"{{"req": {value}}}"#),
            format!(r#"{{"nested": {{"x": {value}}}}}"#),
            format!(r#"{{"rest": {{"m": {value}}}}}"#),
        ] {
            assert!(!BarredTogether::is_valid_json(&text), "{text}");
        }
    }
    // A name the subschemas leave something (`ok`: an integer of at least 1), a name beside a
    // pattern (the `additionalProperties` of its part does not take `zm`, which `^z` matches),
    // and names only one subschema declares: alive, and valid.
    lives_for::<BarredTogether>(
        r#"{"name": "id", "ok": 3, "patterned": {"zm": 1, "w": "s"}, "nested": {"y": 1}, "rest": {"y": "s"}}"#,
    );
}

tool_schema! {
    /// Subschemas that no value of some kinds satisfies, another kind left: such a value dies at
    /// its first byte.
    pub struct VoidKinds = {
        "type": "object",
        "properties": {
            "text_or_number": {"type": ["string", "number"], "allOf": [{"minLength": 5}, {"maxLength": 3}]},
            "number_or_text": {"type": ["number", "string"], "allOf": [{"minimum": 5}, {"maximum": 4}]},
            "object_or_null": {"type": ["object", "null"], "allOf": [{"required": ["a", "b"]}, {"maxProperties": 1}]},
            "list": {"type": "array", "items": {"type": ["string", "integer"], "allOf": [{"minLength": 2}, {"maxLength": 1}]}},
            "branch": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "number", "allOf": [{"minimum": 5}, {"exclusiveMaximum": 5}]}]},
            "then": {"if": {"type": "string"}, "then": {"allOf": [{"minLength": 5}, {"maxLength": 3}]}},
            "then_none": {"if": {"type": ["string", "number"]}, "then": {"type": "number", "allOf": [{"minimum": 5}, {"exclusiveMaximum": 5}]}}
        }
    };
}

#[test]
fn values_of_a_kind_no_value_of_which_satisfies_the_subschema_die_at_their_first_byte() {
    for (text, needle, keyword) in [
        (r#"{"text_or_number": "abc"}"#, "\"abc", "false"),
        (r#"{"number_or_text": 4.5}"#, "4.5", "false"),
        (r#"{"object_or_null": {}}"#, "{}", "false"),
        (r#"{"list": [1, "a"]}"#, "\"a", "false"),
        (r#"{"branch": 5}"#, "5}", "anyOf"),
        (r#"{"then": "abcd"}"#, "\"abcd", "false"),
        // A subschema no value satisfies, met as a `then`: dead at the first byte, by its
        // `type` where that refuses the value, else as `false`.
        (r#"{"then_none": "s"}"#, "\"s", "type"),
        (r#"{"then_none": 7}"#, "7}", "false"),
    ] {
        dies_for::<VoidKinds>(text, needle, 0, keyword);
    }
    // No value of those kinds is valid there (the validators' verdict).
    for (name, values) in [
        ("text_or_number", ["\"\"", "\"a\"", "\"abcd\"", "\"abcde\""]),
        ("number_or_text", ["4", "4.5", "5", "-1"]),
        ("object_or_null", ["{}", r#"{"a": 1}"#, r#"{"a": 1, "b": 2}"#, r#"{"b": 2}"#]),
        ("branch", ["4.9", "5", "5.0", "6"]),
        ("then", ["\"\"", "\"abc\"", "\"abcd\"", "\"abcdef\""]),
    ] {
        for value in values {
            let text = format!(r#"{{"{name}": {value}}}"#);
            assert!(!VoidKinds::is_valid_json(&text), "{text}");
        }
    }
    for value in ["\"\"", "\"a\"", "\"ab\""] {
        let text = format!(r#"{{"list": [{value}]}}"#);
        assert!(!VoidKinds::is_valid_json(&text), "{text}");
    }
    // The kinds left: alive, and valid.
    lives_for::<VoidKinds>(
        r#"{"text_or_number": 4.5, "number_or_text": "abc", "object_or_null": null, "list": [1, 2], "branch": "ab", "then": 7}"#,
    );
}

tool_schema! {
    /// `required` beside `maxProperties`: each missing name needs a member of its own.
    pub struct Crowded = {
        "type": "object",
        "properties": {
            "pair": {"type": "object", "required": ["a", "b"], "maxProperties": 2},
            "three": {"properties": {"a": {"type": "integer"}, "d": {}}, "required": ["a", "b", "c"], "maxProperties": 4},
            "impossible": {"required": ["a", "b", "c"], "maxProperties": 2}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same, read by the flat reader (which hands such a member over to the automaton).
    pub struct CrowdedFlat = {
        "type": "object",
        "properties": {
            "pair": {"type": "object", "required": ["a", "b"], "maxProperties": 2},
            "three": {"type": "object", "properties": {"a": {"type": "integer"}, "d": {}}, "required": ["a", "b", "c"], "maxProperties": 4}
        },
        "additionalProperties": false
    };
}

#[test]
fn a_member_that_leaves_no_room_for_the_required_names_dies_at_its_key() {
    // The quick reader (an object that no object satisfies is not flat) and the flat one.
    assert!(!toolgate::Stream::<Crowded>::__flat() && toolgate::Stream::<CrowdedFlat>::__flat());
    for (text, needle) in [
        (r#"{"pair": {"x": 1}}"#, "x\""),
        (r#"{"pair": {"a": 1, "x": 1}}"#, "x\""),
        (r#"{"three": {"a": 1, "x": 1, "b": 2, "y": 2}}"#, "y\""),
        (r#"{"three": {"\u0061": 1, "b": 1, "x": 1, "y": 2}}"#, "y\""),
        (r#"{"three": {"x": 1, "d": 2}}"#, "d\""),
    ] {
        dies_for::<CrowdedFlat>(text, needle, needle.len() - 1, "required");
    }
    lives_for::<CrowdedFlat>(r#"{"pair": {"b": 1, "a": 2}, "three": {"x": 1, "c": 1, "a": 1, "b": 1}}"#);
    let dies = |text: &str, needle: &str| dies_for::<Crowded>(text, needle, needle.len() - 1, "required");
    dies(r#"{"pair": {"x": 1}}"#, "x\"");
    dies(r#"{"pair": {"a": 1, "x": 1}}"#, "x\"");
    dies(r#"{"pair": {"b": 1, "\u0078": 1}}"#, "78\"");
    dies(r#"{"three": {"x": 1, "y": 2}}"#, "y\"");
    dies(r#"{"three": {"a": 1, "x": 1, "b": 2, "y": 2}}"#, "y\"");
    dies(r#"{"three": {"x": 1, "d": 2}}"#, "d\"");
    // More names required than members allowed: at the `{`.
    dies_for::<Crowded>(r#"{"impossible": {"a": 1}}"#, "{\"a", 0, "required");
    dies_for::<Crowded>(r#"{"impossible": {}}"#, "{}", 0, "required");
    lives_for::<Crowded>(r#"{"impossible": "not an object"}"#);
    // The violation names a missing one.
    let Progress::Dead(d) = Crowded::stream().feed(br#"{"pair": {"a": 1, "x""#) else { panic!("alive") };
    let v = d.violation().expect("a violation");
    assert_eq!((v.pointer.as_str(), &v.kind), ("/pair/b", &toolgate::ViolationKind::Required { property: "b".into() }));
    lives_for::<Crowded>(r#"{"pair": {"b": 1, "a": 2}, "three": {"x": 1, "c": 1, "a": 1, "b": 1}}"#);
    lives_for::<Crowded>(r#"{"three": {"c": 1, "a": 1, "b": 1}}"#);
    // Where each member is a missing name, only the count decides.
    dies_for::<Crowded>(r#"{"pair": {"a": 1, "b": 2, "c": 3}}"#, ", \"c", 0, "maxProperties");
    assert_eq!(sure_dies_at::<Crowded>(r#"{"pair": {"a": 1}}"#), Some(at(r#"{"pair": {"a": 1}}"#, "}}", 0)));
}

tool_schema! {
    /// No value satisfies it.
    pub struct Nothing = false;
}
tool_schema! {
    /// No value satisfies it: its applicators say so.
    pub struct NothingApplied = {"$defs": {"no": false}, "anyOf": [{"$ref": "#/$defs/no"}, {"not": {}}]};
}
tool_schema! {
    /// No value satisfies it: two branches of its `oneOf` take every value.
    pub struct NothingOne = {"type": "object", "oneOf": [true, {}, {"required": ["a"]}]};
}

#[test]
fn a_schema_no_value_satisfies_is_dead_before_its_first_byte() {
    for text in [" ", "\n 1", "{}", "\"a\"", "[1]"] {
        assert_eq!(sure_dies_at::<Nothing>(text), Some(0), "{text:?}");
        assert_eq!(sure_dies_at::<NothingApplied>(text), Some(0), "{text:?}");
        assert_eq!(sure_dies_at::<NothingOne>(text), Some(0), "{text:?}");
    }
    // Nothing to allow, nothing to finish: a sampler stops at once.
    let vocab = toolgate::Vocabulary::new(&[b" ".to_vec(), b"{".to_vec(), b"1".to_vec(), Vec::new()]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let s = NothingApplied::stream();
    s.allowed(&vocab, &mut mask);
    assert_eq!((mask.count(), s.can_finish()), (0, false));
    assert!(NothingOne::stream().feed(b"").is_dead());
    // A schema some value satisfies reads whitespace as ever.
    assert_eq!(sure_dies_at::<Sure>(" \n {}"), None);
}

#[test]
fn applicators_die_with_their_branches() {
    // allOf: any branch dead.
    early(r#"{"n": 1, "all": 5}"#, "5", 0);
    early(r#"{"n": 1, "all": "abc"}"#, "c\"", 0);
    // anyOf: every branch dead ("ab" is too long for the string branch, and not an integer).
    early(r#"{"n": 1, "any": "ab"}"#, "b\"", 0);
    early(r#"{"n": 1, "any": true}"#, "t", 0);
    // oneOf: every branch dead.
    early(r#"{"n": 1, "one": 5}"#, "5", 0);
    // if/then/else: the string outcome (then: maxLength 1) dies at the second character; a
    // boolean fails `if`, and `else` (an integer) dies at its first byte.
    early(r#"{"n": 1, "cond": "ab"}"#, "b\"", 0);
    early(r#"{"n": 1, "cond": true}"#, "t", 0);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "cond": 7}"#), None);
}

#[test]
fn bad_bytes_and_cut_characters() {
    // A byte no continuation can make UTF-8 is dead at that byte.
    let mut s = Early::stream();
    assert!(!s.feed(b"{\"n\": 1, \"short\": \"").is_dead());
    let Progress::Dead(d) = s.feed(&[0xFF]) else { panic!("0xFF is never UTF-8") };
    assert_eq!(d.offset, 19);
    // A character cut between two fragments is not dead; nor a surrogate pair cut in halves.
    let text = "{\"n\": 1, \"short\": \"é💩\\ud83d\\udca9\"}".as_bytes();
    for cut in 0..text.len() {
        let mut s = Early::stream();
        assert!(!s.feed(&text[..cut]).is_dead(), "cut at {cut}");
        let p = s.feed(&text[cut..]);
        // Three characters: the maxLength of 3 holds.
        assert!(!p.is_dead(), "cut at {cut}: {p:?}");
        assert!(s.finish().is_ok());
    }
    // Overlong encodings and surrogates in UTF-8 are dead at the byte that shows it.
    let mut s = Early::stream();
    assert!(!s.feed(b"{\"n\": 1, \"short\": \"").is_dead());
    assert!(!s.feed(&[0xED]).is_dead());
    assert!(s.feed(&[0xA0]).is_dead(), "ED A0 starts a UTF-16 surrogate");
}

#[test]
fn feeding_after_dead_or_finish_is_a_no_op() {
    let mut s = Early::stream();
    let Progress::Dead(first) =
        s.feed(br#"{"n": "#.as_slice().iter().chain(b"\"").copied().collect::<Vec<_>>().as_slice())
    else {
        panic!("a string is never an integer")
    };
    let Progress::Dead(again) = s.feed(b"5}") else { panic!("still dead") };
    assert_eq!(first, again);
    assert_eq!(s.text(), br#"{"n": ""#);
    assert!(s.finish().is_err());

    let mut s = Early::stream();
    assert!(!s.feed(br#"{"n": 5}"#).is_dead());
    assert!(s.finish().is_ok());
    assert!(!s.feed(b"garbage").is_dead());
    // Fragments short enough for the first reader's short ways too.
    assert!(!s.feed(b"}").is_dead());
    assert!(!s.feed(b"]]").is_dead());
    assert_eq!(s.text(), br#"{"n": 5}"#);
    assert!(s.finish().is_ok());
    assert_eq!(s.into_tool().unwrap().n, 5);
}

/// `feed_text`: the accumulated text agrees with feeding its new parts; a text whose recently
/// read bytes differ (another reply, or one cut shorter) is refused at the first byte that
/// differs and changes nothing.
#[test]
fn feed_text_feeds_what_is_new_and_refuses_a_changed_text() {
    let text = br#"{"n": 5, "tags": ["alpha", "beta"], "short": "abc", "code": "ab-123456789012345"}"#;
    assert!(text.len() > 2 * toolgate::Stream::<Early>::FEED_TEXT_CHECKED);
    for step in [1, 3, 16, text.len()] {
        let mut s = Early::stream();
        let mut end = 0;
        while end < text.len() {
            end = (end + step).min(text.len());
            assert!(!s.feed_text(&text[..end]).is_dead(), "step {step}, at {end}");
            // The same text again feeds nothing.
            assert!(!s.feed_text(&text[..end]).is_dead(), "step {step}, again at {end}");
        }
        assert_eq!(s.text(), text);
        assert!(s.finish().is_ok());
    }
    let died = |s: &mut toolgate::Stream<Early>, so_far: &[u8]| match s.feed_text(so_far) {
        Progress::Dead(d) => Some(d.offset),
        Progress::Alive => None,
    };
    let mut s = Early::stream();
    assert_eq!(died(&mut s, &text[..60]), None);
    // A byte changed among the last bytes read.
    let mut changed = text.to_vec();
    changed[50] = b'X';
    assert_eq!(died(&mut s, &changed), Some(50));
    // Shorter than what was read: the first byte missing.
    assert_eq!(died(&mut s, &text[..55]), Some(55));
    assert_eq!(died(&mut s, &text[..10]), Some(10));
    // Nothing was fed: the text goes on.
    assert_eq!(s.text(), &text[..60]);
    assert!(s.dead().is_none());
    assert_eq!(died(&mut s, text), None);
    assert!(s.finish().is_ok());
}

/// `TextStream`: reads the caller's text; a text shorter than what was read is refused and
/// changes nothing; it ignores what it is fed once dead or finished; `finish` and `into_tool`
/// read what the whole text has beyond what was read.
#[test]
fn a_text_stream_reads_the_callers_text() {
    let text = br#"{"n": 5, "tags": ["alpha", "beta"], "short": "abc"}"#;
    let died = |s: &mut TextStream<Early>, so_far: &[u8]| match s.feed_text(so_far) {
        Progress::Dead(d) => Some(d.offset),
        Progress::Alive => None,
    };
    let mut s = TextStream::<Early>::new();
    assert_eq!(died(&mut s, &text[..20]), None);
    assert_eq!(s.read(), 20);
    assert!(!s.can_finish(&text[..20]));
    // Shorter than what was read: refused at its end, nothing read.
    assert_eq!(died(&mut s, &text[..12]), Some(12));
    assert_eq!(s.read(), 20);
    assert!(s.dead().is_none());
    // The same text again reads nothing.
    assert_eq!(died(&mut s, &text[..20]), None);
    // `finish` reads the rest first.
    let mut done = s.clone();
    assert!(done.finish(text).is_ok());
    assert_eq!(done.read(), text.len());
    assert!(done.can_finish(text));
    // Fed after `finish`: ignored (even a shorter text), and the verdict stays.
    assert_eq!(died(&mut done, b"{"), None);
    assert_eq!(died(&mut done, br#"{"n": 5} garbage"#), None);
    assert!(done.finish(text).is_ok());
    assert_eq!(s.clone().into_tool(text).map(|e| e.n), Ok(5));
    // A death: where the stream dies; then it stays dead, whatever it is given.
    let bad = br#"{"n": 5, "tags": 7"#;
    let mut s = TextStream::<Early>::new();
    assert_eq!(died(&mut s, &bad[..10]), None);
    assert_eq!(died(&mut s, bad), Some(17));
    assert_eq!(died(&mut s, b"{"), Some(17));
    assert_eq!(died(&mut s, text), Some(17));
    assert!(s.finish(text).is_err());
    assert!(s.clone().into_tool(text).is_err());
    // A reset forgets it all.
    s.reset();
    assert_eq!((s.read(), s.dead()), (0, None));
    assert_eq!(died(&mut s, text), None);
    // `finish` of a text shorter than what was read: a syntax error.
    assert!(matches!(s.finish(&text[..5]), Err(Error::Syntax { .. })));
}

#[test]
fn the_explanation_names_the_place_and_the_rule() {
    let mut s = Early::stream();
    let Progress::Dead(d) = s.feed(br#"{"n": 1, "tags": ["a", 7]}"#) else { panic!() };
    assert_eq!(d.to_string(), "at byte 23: /tags/1: expected string, found number 7…");
    let mut s = Early::stream();
    let Progress::Dead(d) = s.feed(br#"{"n": 1, "verbose": true}"#) else { panic!() };
    assert_eq!(d.violation().map(|v| v.pointer.as_str()), Some("/v…"));
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("additionalProperties"));
    let mut s = Early::stream();
    let Progress::Dead(d) =
        s.feed(br#"{"n": 1 "#.as_slice().iter().chain(b"x").copied().collect::<Vec<_>>().as_slice())
    else {
        panic!()
    };
    assert!(matches!(d.error, Error::Syntax { line: 1, column: 9, .. }), "{d}");
}

tool_schema! {
    /// A closed object through `$ref`, and a closed object with two properties.
    pub struct Refs = {
        "type": "object",
        "properties": {
            "line": {"$ref": "#/$defs/Line"},
            "pair": {"type": "object", "properties": {"a": {"type": "integer"}, "ab": {"type": "integer"}},
                     "additionalProperties": false},
            "e": {"enum": ["é", "ab"]},
            "short": {"type": "string", "maxLength": 1},
            "flag": {"const": false}
        },
        "$defs": {"Line": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": false}}
    };
}

fn early_refs(text: &str, needle: &str, k: usize) {
    assert_eq!(dies_at::<Refs>(text), Some(at(text, needle, k)), "{text}");
}

#[test]
fn members_of_a_referenced_object_are_followed_too() {
    // The member's value dies at its first byte, through the `$ref`.
    early_refs(r#"{"line": {"n": "x"}}"#, "\"x", 0);
    early_refs(r#"{"line": {"m": 1}}"#, "m", 0);
}

#[test]
fn closed_objects_know_repeats_and_a_full_house_early() {
    // "a" is present: a key that can only be "a" again (or undeclared) dies at its first byte.
    assert_eq!(dies_at::<Refs>(r#"{"pair": {"a": 1, "ab": 2}}"#), None);
    early_refs(r#"{"pair": {"a": 1, "ab": 2, "a": 3}}"#, ", \"a\": 3", 0);
    early_refs(r#"{"pair": {"ab": 1, "ab": 2}}"#, "ab\": 2", 1);
    // Every declared property present: the comma that promises another member is the end.
    early_refs(r#"{"pair": {"a": 1, "ab": 2, "x": 3}}"#, ", \"x", 0);
}

#[test]
fn escapes_decide_as_their_digits_arrive() {
    // `é` is U+00E9: "\u00" may still be it, "\u01" cannot be any member.
    assert_eq!(dies_at::<Refs>(r#"{"e": "\u00e9"}"#), None);
    early_refs(r#"{"e": "\u01e9"}"#, "1e9", 0);
    // maxLength 1: a second character is certain at its backslash.
    early_refs(r#"{"short": "a\n"}"#, "\\n", 0);
    // A lone low surrogate is certain at its second digit.
    early_refs(r#"{"short": "\udc00"}"#, "c00", 0);
    // After a high surrogate the low half must start with `\uD` and C..F.
    early_refs(r#"{"short": "\ud83d\u0041"}"#, "0041", 0);
}

tool_schema! {
    /// One `pattern`: flat, and read by the lean automaton.
    pub struct Coded = {"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[a-z]{2}-[0-9]+$"},
        "emoji": {"type": "string", "pattern": "^[😀-😂]+$"}
    }};
}

#[test]
fn a_pattern_is_narrowed_by_an_escape_as_its_digits_arrive() {
    assert!(toolgate::Stream::<Coded>::__lean() && toolgate::Stream::<Coded>::__flat());
    for (text, needle) in [
        (r#"{"code": "\u0161b-1"}"#, "161b"),
        (r#"{"code": "ab-\u0041"}"#, "41\""),
        (r#"{"emoji": "\ud83c\ude01"}"#, "c\\u"),
        (r#"{"emoji": "\ud83d\ude10"}"#, "10\""),
    ] {
        let at = Some(at(text, needle, 0));
        assert_eq!(dies_at::<Coded>(text), at, "{text}");
        assert_eq!(toolgate::Stream::<Coded>::__reference(text.as_bytes()).0, at, "{text}");
        // Dead at that very byte, fed one at a time: by the flat reader, and by the lean
        // automaton alone.
        let mut s = Coded::stream();
        assert_eq!(text.bytes().position(|b| s.feed(&[b]).is_dead()), at, "{text}: the flat reader");
        let mut s = Coded::stream().__automaton_only();
        let died = text.bytes().position(|b| s.feed(&[b]).is_dead());
        assert_eq!(died, at, "{text}: the lean automaton alone");
    }
    // `^[a-z]{2}-[0-9]+$`: "\u00" may still be a letter, "\u01" no character the pattern takes.
    assert!(Early::is_valid_json(r#"{"n": 1, "code": "\u0061b-1"}"#));
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "code": "\u0061b-1"}"#), None);
    early(r#"{"n": 1, "code": "\u0161b-1"}"#, "161b", 0);
    // A high surrogate stands for the characters beyond the BMP it begins: none is a letter.
    early(r#"{"n": 1, "code": "\ud83d\ude00"}"#, "d83d", 0);
    // At the backslash: after `ab-1` any character may be a digit; after the whole of an
    // anchored pattern with nothing left to take, none.
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "code": "ab-1\u0032"}"#), None);
    early(r#"{"n": 1, "fixed": "AB\u0041"}"#, "\\u0041", 0);
    early(r#"{"n": 1, "fixed": "A\u0031"}"#, "31", 0);
    // Beyond the BMP: `^[😀-😂]$` takes U+1F600..U+1F602, whose high half is D83D.
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "emoji": "\ud83d\ude01"}"#), None);
    // A high half at its last digit: U+1F000..U+1F3FF. So an `enum`'s: 💩 is U+1F4A9.
    early(r#"{"n": 1, "emoji": "\ud83c\ude01"}"#, "c\\u", 0);
    early(r#"{"n": 1, "u": "\ud83c\udca9"}"#, "c\\u", 0);
    assert_eq!(dies_at::<Early>(r#"{"n": 1, "u": "\ud83d\udca9"}"#), None);
    early(r#"{"n": 1, "emoji": "\ud83d\ude10"}"#, "10\"", 0);
    // Every reader alike (the flat one, and the automata alone).
    for text in
        [r#"{"n": 1, "code": "\u0161b-1"}"#, r#"{"n": 1, "emoji": "\ud83d\ude10"}"#, r#"{"n": 1, "fixed": "AB\u0041"}"#]
    {
        assert_eq!(toolgate::Stream::<Early>::__reference(text.as_bytes()).0, dies_at::<Early>(text), "{text}");
    }
}

#[test]
fn literals_of_an_enum_at_their_first_letter() {
    // `const: false`: a `t` can only become `true`.
    early_refs(r#"{"flag": true}"#, "true", 0);
    assert_eq!(dies_at::<Refs>(r#"{"flag": false}"#), None);
    early_refs(r#"{"flag": null}"#, "null", 0);
}

tool_schema! {
    /// A `contains` that accepts every item, below free-form values' extra levels.
    pub struct CountsAll = {"type": "object", "properties": {"any": {"contains": true, "minContains": 2}, "m": {}}};
}

#[test]
fn a_contains_that_accepts_everything_counts_every_item() {
    for (text, valid) in
        [(r#"{"any": [null, "x"]}"#, true), (r#"{"any": [{"a": 1}, [2]]}"#, true), (r#"{"any": [null]}"#, false)]
    {
        assert_eq!(CountsAll::is_valid_json(text), valid, "{text}");
        let mut s = CountsAll::stream();
        let alive = s.feed(text.as_bytes()) == Progress::Alive;
        assert_eq!(alive && s.finish().is_ok(), valid, "{text}");
        assert_eq!(dies_at::<CountsAll>(text), (!valid).then(|| at(text, "]}", 0)), "{text}");
    }
}

tool_schema! {
    /// `unevaluatedProperties: false` where only `properties` evaluate names: on the object's own
    /// keywords (with its own `patternProperties` too), on an object built from parts, on a
    /// choice of parts, beside a `not`, and where a part may evaluate any name; and
    /// `unevaluatedItems: false` where only `prefixItems` evaluate items, and beside `contains`.
    pub struct Unevaluated = {
        "type": "object",
        "properties": {
            "own": {"type": "object", "properties": {"a": {"type": "integer"}, "ab": {"type": "integer"}},
                    "unevaluatedProperties": false},
            "parts": {"$ref": "#/$defs/Base", "properties": {"kind": {"type": "string"}},
                      "unevaluatedProperties": false},
            "either": {"anyOf": [{"properties": {"x": {"type": "integer"}}, "required": ["x"]},
                                 {"properties": {"y": {"type": "integer"}}, "required": ["y"]}],
                       "unevaluatedProperties": false},
            "not": {"properties": {"p": true}, "not": {"properties": {"q": true}, "required": ["q"]},
                    "unevaluatedProperties": false},
            "pattern": {"allOf": [{"patternProperties": {"^x-": true}}], "properties": {"a": true},
                        "unevaluatedProperties": false},
            "own_pattern": {"properties": {"a": true}, "patternProperties": {"^x-": true}, "unevaluatedProperties": false},
            "inner": {"allOf": [{"properties": {"a": true}, "unevaluatedProperties": {"type": "integer"}}],
                      "unevaluatedProperties": false},
            "schema": {"$ref": "#/$defs/Base", "properties": {"kind": {"type": "string"}},
                       "unevaluatedProperties": {"type": "boolean"}},
            "own_schema": {"properties": {"a": {"type": "string"}}, "required": ["r"],
                           "unevaluatedProperties": {"type": "boolean"}},
            "items_schema": {"allOf": [{"prefixItems": [true, true]}], "prefixItems": [{"type": "string"}],
                             "unevaluatedItems": {"type": "integer"}},
            "tuple": {"prefixItems": [{"type": "integer"}, {"type": "string"}], "unevaluatedItems": false},
            "choice": {"allOf": [{"prefixItems": [true]}], "anyOf": [{"prefixItems": [true, true]}, {"minItems": 1}],
                       "unevaluatedItems": false},
            "counted": {"prefixItems": [true], "contains": {"type": "string"}, "unevaluatedItems": false}
        },
        "$defs": {"Base": {"properties": {"id": {"type": "integer"}}}}
    };
}

fn early_unevaluated(text: &str, needle: &str, k: usize) {
    assert_eq!(dies_at::<Unevaluated>(text), Some(at(text, needle, k)), "{text}");
}

#[test]
fn unevaluated_properties_false_closes_objects_as_additional_properties_does() {
    // Its own `properties` only: the first character no name continues, a repeat, the comma
    // past the last name.
    assert_eq!(dies_at::<Unevaluated>(r#"{"own": {"a": 1, "ab": 2}}"#), None);
    early_unevaluated(r#"{"own": {"a": 1, "b": 2}}"#, "b\"", 0);
    early_unevaluated(r#"{"own": {"ab": 1, "ab": 2}}"#, "ab\": 2", 1);
    early_unevaluated(r#"{"own": {"a": 1, "ab": 2, "x": 3}}"#, ", \"x", 0);
    // Built from parts: the names of the `$ref`'s target are evaluated too.
    assert_eq!(dies_at::<Unevaluated>(r#"{"parts": {"id": 1, "kind": "k"}}"#), None);
    early_unevaluated(r#"{"parts": {"id": 1, "name": "k"}}"#, "name", 0);
    early_unevaluated(r#"{"parts": {"ids": 1}}"#, "ids", 2);
    // A choice: each branch's names may be evaluated (if that branch holds), no other.
    assert_eq!(dies_at::<Unevaluated>(r#"{"either": {"x": 1}}"#), None);
    assert_eq!(dies_at::<Unevaluated>(r#"{"either": {"y": 1}}"#), None);
    early_unevaluated(r#"{"either": {"z": 1}}"#, "z", 0);
    // `not` evaluates nothing: "q" is unevaluated whatever the rest.
    assert_eq!(dies_at::<Unevaluated>(r#"{"not": {"p": 1}}"#), None);
    early_unevaluated(r#"{"not": {"q": 1}}"#, "q", 0);
    // Its own `patternProperties`: at the first character of a key that no declared name
    // continues and no pattern can match (as beside `additionalProperties: false`).
    assert_eq!(dies_at::<Unevaluated>(r#"{"own_pattern": {"a": 1, "x-b": 2}}"#), None);
    early_unevaluated(r#"{"own_pattern": {"a": 1, "b": 2}}"#, "b\"", 0);
    early_unevaluated(r#"{"own_pattern": {"a": 1, "x_": 2}}"#, "_\"", 0);
    // A part with `patternProperties` or its own `unevaluatedProperties` may evaluate any name:
    // decided when the object closes.
    assert_eq!(dies_at::<Unevaluated>(r#"{"pattern": {"a": 1, "x-b": 2}}"#), None);
    early_unevaluated(r#"{"pattern": {"a": 1, "b": 2}}"#, "}}", 0);
    // (The part's own `unevaluatedProperties` takes its unevaluated members as they come.)
    assert_eq!(dies_at::<Unevaluated>(r#"{"inner": {"a": 1, "b": 2}}"#), None);
    early_unevaluated(r#"{"inner": {"a": 1, "b": "2"}}"#, "\"2", 0);
}

tool_schema! {
    /// `unevaluatedProperties` with a schema, read by the lean automaton.
    pub struct UnevaluatedLean = {
        "type": "object",
        "properties": {
            "m": {"properties": {"a": {"type": "string"}}, "required": ["r"], "unevaluatedProperties": {"type": "boolean"}},
            "p": {"propertyNames": {"maxLength": 1}, "unevaluatedProperties": {"type": "number"}},
            "t": {"prefixItems": [{"type": "string"}], "unevaluatedItems": {"type": "boolean"}}
        }
    };
}

tool_schema! {
    /// `unevaluatedProperties` with a schema at the root, nothing else.
    pub struct UnevaluatedRoot = {"unevaluatedProperties": {"type": "boolean"}};
}

#[test]
fn unevaluated_properties_with_a_schema_takes_unevaluated_members_as_they_come() {
    // (The automaton has a place for the member's subschema.)
    assert_eq!(sure_dies_at::<UnevaluatedRoot>(r#"{"a": true, "b": 1}"#), Some(17));
    assert_eq!(sure_dies_at::<UnevaluatedRoot>(r#"{"a": true, "b": false}"#), None);
    let dies = |text: &str, needle: &str| {
        assert_eq!(sure_dies_at::<Unevaluated>(text), Some(at(text, needle, 0)), "{text}");
    };
    let lives = |text: &str| {
        assert_eq!(sure_dies_at::<Unevaluated>(text), None, "{text}");
        assert!(Unevaluated::is_valid_json(text), "{text}");
    };
    // The names of the `$ref`'s target and its own are evaluated; any other member is the
    // schema's, and dies at the byte that breaks it.
    lives(r#"{"schema": {"id": 1, "kind": "k", "n": true}}"#);
    dies(r#"{"schema": {"id": 1, "n": 1}}"#, "1}}");
    dies(r#"{"schema": {"kind": "k", "n": "x"}}"#, "\"x");
    // A name `required` lists and `properties` does not declare is unevaluated.
    lives(r#"{"own_schema": {"a": "x", "r": false}}"#);
    dies(r#"{"own_schema": {"a": "x", "r": 1}}"#, "1}}");

    assert!(toolgate::Stream::<UnevaluatedLean>::__lean());
    let lean = |text: &str, needle: Option<&str>| {
        assert_eq!(sure_dies_at::<UnevaluatedLean>(text), needle.map(|n| at(text, n, 0)), "{text}");
        assert_eq!(UnevaluatedLean::is_valid_json(text), needle.is_none(), "{text}");
    };
    lean(r#"{"m": {"a": "x", "r": true, "s": false}}"#, None);
    lean(r#"{"m": {"a": "x", "r": null}}"#, Some("null"));
    lean(r#"{"m": {"r": true, "a": 1}}"#, Some("1}"));
    lean(r#"{"p": {"a": 1, "b": 2.5}}"#, None);
    lean(r#"{"p": {"a": 1, "b": "2"}}"#, Some("\"2"));
    lean(r#"{"p": {"a": 1, "bc": 2}}"#, Some("c\""));
    lean(r#"{"t": ["a", true, false]}"#, None);
    lean(r#"{"t": ["a", true, 1]}"#, Some("1]"));
}

#[test]
fn unevaluated_items_with_a_schema_takes_items_past_every_prefix_as_they_come() {
    let check = |text: &str, needle: Option<&str>| {
        assert_eq!(sure_dies_at::<Unevaluated>(text), needle.map(|n| at(text, n, 0)), "{text}");
        assert_eq!(Unevaluated::is_valid_json(text), needle.is_none(), "{text}");
    };
    // The part's `prefixItems` evaluate the second item: any value; the third is the schema's.
    check(r#"{"items_schema": ["a", true, 1, 2]}"#, None);
    check(r#"{"items_schema": ["a", true, "x"]}"#, Some("\"x"));
    check(r#"{"items_schema": [1]}"#, Some("1]"));
}

#[test]
fn an_unevaluated_key_is_explained_by_its_keyword() {
    for (text, key) in [
        (r#"{"own": {"b": 1}}"#, "/own/b…"),
        (r#"{"parts": {"name": 1}}"#, "/parts/n…"),
        (r#"{"own": {"a": 1, "ab": 2, "x": 3}}"#, "/own"),
    ] {
        let mut s = Unevaluated::stream();
        let Progress::Dead(d) = s.feed(text.as_bytes()) else { panic!("{text}: alive") };
        assert_eq!(d.violation().map(|v| v.pointer.as_str()), Some(key), "{text}");
        assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("unevaluatedProperties"), "{text}");
    }
}

#[test]
fn unevaluated_items_false_bounds_arrays_as_items_false_does() {
    // Its own `prefixItems` only: the comma that promises a third item.
    assert_eq!(dies_at::<Unevaluated>(r#"{"tuple": [1, "a"]}"#), None);
    early_unevaluated(r#"{"tuple": [1, "a", 3]}"#, ", 3", 0);
    // Parts: the longest `prefixItems` applied in place (whether its branch holds or not).
    assert_eq!(dies_at::<Unevaluated>(r#"{"choice": [1, 2]}"#), None);
    early_unevaluated(r#"{"choice": [1, 2, 3]}"#, ", 3", 0);
    // `[1]`: the branch with two `prefixItems` holds too, but evaluates nothing more.
    assert_eq!(dies_at::<Unevaluated>(r#"{"choice": [1]}"#), None);
    // `contains` may evaluate any item: decided when the array closes.
    assert_eq!(dies_at::<Unevaluated>(r#"{"counted": [1, "a", "b"]}"#), None);
    early_unevaluated(r#"{"counted": [1, "a", 2]}"#, "]}", 0);
    let mut s = Unevaluated::stream();
    let Progress::Dead(d) = s.feed(br#"{"tuple": [1, "a", 3]}"#) else { panic!("alive") };
    assert_eq!(d.violation().map(|v| v.pointer.as_str()), Some("/tuple/2"));
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("unevaluatedItems"));
}

tool_schema! {
    /// Every asserted `format`, flat (read first by the flat reader), and beside applicators
    /// (read by the automata).
    #[tool(formats = assert)]
    pub struct Formats = {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date"},
            "time": {"type": "string", "format": "time"},
            "date-time": {"type": "string", "format": "date-time"},
            "duration": {"type": "string", "format": "duration"},
            "email": {"type": "string", "format": "email"},
            "ipv4": {"type": "string", "format": "ipv4"},
            "ipv6": {"type": "string", "format": "ipv6"},
            "uri": {"type": "string", "format": "uri"},
            "uri-reference": {"type": "string", "format": "uri-reference"},
            "uuid": {"type": "string", "format": "uuid"},
            "json-pointer": {"type": "string", "format": "json-pointer"},
            "relative-json-pointer": {"type": "string", "format": "relative-json-pointer"},
            "either": {"anyOf": [{"type": "string", "format": "date"}, {"type": "integer"}]},
            "patterned": {"type": "string", "format": "date", "pattern": "^2"},
            "merged": {"allOf": [{"type": "string"}, {"format": "uuid"}]},
            "same": {"allOf": [{"type": "string"}, {"pattern": "^2", "format": "date"}]},
            "ref": {"$ref": "#/$defs/day", "maxLength": 10}
        },
        "$defs": {
            "day": {"type": "string", "format": "date"}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A `pattern` and a `format` in two parts.
    #[tool(formats = assert)]
    pub struct FormatParts = {
        "type": "object",
        "properties": {"parts": {"allOf": [{"type": "string", "pattern": "^[0-9]"}, {"format": "ipv4"}]}}
    };
}

/// [`early`] for [`Formats`], checked against the stream without its first reader too.
fn early_format(text: &str, needle: &str, k: usize) {
    assert_eq!(dies_at::<Formats>(text), Some(at(text, needle, k)), "{text}");
    assert_eq!(toolgate::Stream::<Formats>::__reference(text.as_bytes()).0, Some(at(text, needle, k)), "{text}");
}

#[test]
fn formats_at_the_first_character_no_string_of_the_format_continues() {
    // (Read first by the flat reader; `early_format` checks the automata alone too.)
    assert!(toolgate::Stream::<Formats>::__flat());
    // Month 13.
    early_format(r#"{"date": "2024-13-01"}"#, "3-01", 0);
    // Each month its days: no April 31st, no February 30th; February 29th only in a leap year
    // (divisible by 4 but not by 100, or by 400), at its `9`.
    assert_eq!(dies_at::<Formats>(r#"{"date": "2024-01-31"}"#), None);
    early_format(r#"{"date": "2024-04-31"}"#, "1\"}", 0);
    early_format(r#"{"date": "2024-02-30"}"#, "30\"}", 0);
    // Every year: February 29th lives exactly in the leap years.
    for y in 0..10_000u32 {
        let text = format!(r#"{{"date": "{y:04}-02-29"}}"#);
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        assert_eq!(dies_at::<Formats>(&text), (!leap).then(|| at(&text, "9\"}", 0)), "{text}");
    }
    for leap in ["2024", "2000", "1600", "0000", "1904", "1996", "2012"] {
        let text = format!(r#"{{"date": "{leap}-02-29", "date-time": "{leap}-02-29T00:00:00Z"}}"#);
        assert_eq!(dies_at::<Formats>(&text), None, "{text}");
    }
    for common in ["2023", "1900", "2100", "0100", "2002", "1998", "2010"] {
        early_format(&format!(r#"{{"date": "{common}-02-29"}}"#), "9\"}", 0);
        early_format(&format!(r#"{{"date-time": "{common}-02-29T00:00:00Z"}}"#), "9T", 0);
    }
    // An e-mail address's domain literal is an IPv4 address or `IPv6:` and one.
    assert_eq!(dies_at::<Formats>(r#"{"email": "a@[127.0.0.1]"}"#), None);
    early_format(r#"{"email": "a@[80]"}"#, "]\"", 0);
    early_format(r#"{"email": "a@[IPv4:1]"}"#, "4:", 0);
    early_format(r#"{"date-time": "2024-01-01 10:00:00Z"}"#, " 10", 0);
    early_format(r#"{"time": "24:00:00Z"}"#, "4:", 0);
    // A unit only before the next one: nothing after days but the time part.
    early_format(r#"{"duration": "P1D2H"}"#, "2H", 0);
    early_format(r#"{"email": "joe bloggs@example.com"}"#, " bloggs", 0);
    // Dots only between the local part's characters; a host name's labels of letters, digits
    // and hyphens, a hyphen neither first nor last, nor third and fourth but after `xn`.
    early_format(r#"{"email": "a..b@example.com"}"#, "..", 1);
    early_format(r#"{"email": ".a@example.com"}"#, ".a", 0);
    early_format(r#"{"email": "a.@example.com"}"#, ".@", 1);
    early_format(r#"{"email": "a@-b.com"}"#, "-b", 0);
    early_format(r#"{"email": "a@b-.com"}"#, "-.", 1);
    early_format(r#"{"email": "a@b..com"}"#, "..", 1);
    early_format(r#"{"email": "a@ab--c.com"}"#, "--", 1);
    // (`""@b.c` may still be the quoted `"@b.c` of `""@b.c"@d.e`: it dies where it closes.)
    early_format(r#"{"email": "\"\"@b.c"}"#, "\"}", 0);
    for ok in ["a@xn--bcher-kva.ch", "a-b@c-d.e", "\"a@b\"@c.d", "\"\"\"@c.d", "a@b.c-om"] {
        let text = format!(r#"{{"email": {}}}"#, serde_json::to_string(ok).unwrap());
        assert_eq!(sure_dies_at::<Formats>(&text), None, "{text}");
    }
    early_format(r#"{"ipv4": "192.168.256.1"}"#, "6.1", 0);
    early_format(r#"{"ipv4": "192.168.01.1"}"#, "1.1", 0);
    early_format(r#"{"ipv6": "::g"}"#, "g", 0);
    // An IPv6 address exactly as `Ipv6Addr` reads it: groups of at most four digits, one `::`,
    // eight groups at most, an IPv4 address only last and without leading zeros.
    for ok in ["::1", "1::", "::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::ffff:192.168.0.1", "1:2:3:4:5:6:0.0.0.0"] {
        assert_eq!(sure_dies_at::<Formats>(&format!(r#"{{"ipv6": "{ok}"}}"#)), None, "{ok}");
    }
    early_format(r#"{"ipv6": "12345"}"#, "5\"", 0);
    early_format(r#"{"ipv6": ":::"}"#, ":\"", 0);
    early_format(r#"{"ipv6": "1::2::"}"#, ":\"", 0);
    early_format(r#"{"ipv6": "1:2:3:4:5:6:7:8:"}"#, ":\"", 0);
    early_format(r#"{"ipv6": "1:2:3:4::5:6:7:8"}"#, ":8", 0);
    early_format(r#"{"ipv6": "::1.2.3.04"}"#, "4\"", 0);
    early_format(r#"{"ipv6": "::01.2"}"#, ".2", 0);
    // (An IPv4 address comes only after six groups or a `::`.)
    early_format(r#"{"ipv6": "1.2.3.4::"}"#, ".2", 0);
    assert_eq!(sure_dies_at::<Formats>(r#"{"email": "a@[IPv6:::1]"}"#), None);
    early_format(r#"{"uri": "1http://x"}"#, "1", 0);
    early_format(r#"{"uri": "http://a b"}"#, " b", 0);
    // A port of digits, brackets only around an IP literal, one `@`, a scheme before a `:`.
    early_format(r#"{"uri": "http://h:8x/"}"#, "x/", 1);
    assert_eq!(sure_dies_at::<Formats>(r#"{"uri": "http://h:8x:9/"}"#), None);
    early_format(r#"{"uri": "a:b[c"}"#, "[c", 0);
    early_format(r#"{"uri": "http://a]"}"#, "]", 0);
    early_format(r#"{"uri": "http://u@v@w"}"#, "@w", 0);
    early_format(r#"{"uri": "http://[v1.x]y"}"#, "y", 0);
    early_format(r#"{"uri-reference": "1a:b"}"#, ":b", 0);
    early_format(r#"{"uri-reference": "a%4g"}"#, "g", 0);
    assert_eq!(sure_dies_at::<Formats>(r#"{"uri-reference": "//[::1]:8/a[b]?c#d"}"#), None);
    early_format(r#"{"uri-reference": "/a%zz"}"#, "zz", 0);
    early_format(r#"{"uuid": "2eb8aa08-aa98-11ea-b4aa-73b441d1638g"}"#, "g\"", 0);
    early_format(r#"{"uuid": "2eb8aa08aa98"}"#, "aa98", 0);
    early_format(r#"{"json-pointer": "/a~2"}"#, "2", 0);
    early_format(r#"{"relative-json-pointer": "01"}"#, "1\"", 0);
    // An escape is stepped as the character it stands for.
    early_format(r#"{"date": "2024\u002d1\u0033"}"#, "33\"", 1);
    // Beside an applicator: the automata step it too.
    early_format(r#"{"either": "2024-13-01"}"#, "3-01", 0);
    assert_eq!(dies_at::<Formats>(r#"{"either": 2024}"#), None);
    // With a `pattern`, the pattern is stepped, the format judged at the end.
    early_format(r#"{"patterned": "1999"}"#, "1999", 0);
    early_format(r#"{"patterned": "2024-13-01"}"#, "\"}", 0);
    // In a part of an `allOf` or behind a `$ref`: the part steps its own.
    early_format(r#"{"merged": "x"}"#, "x", 0);
    early_format(r#"{"ref": "2024-1x"}"#, "x", 0);
    early_format(r#"{"ref": "2024-11-01T"}"#, "T", 0);
    // A part with a `pattern` and a `format`: the pattern.
    early_format(r#"{"same": "1"}"#, "1", 0);
    early_format(r#"{"same": "2x"}"#, "\"}", 0);
    // A `pattern` and a `format` in two parts: each part steps its own (not flat).
    assert!(!toolgate::Stream::<FormatParts>::__flat());
    for (text, needle) in [(r#"{"parts": "x"}"#, "x"), (r#"{"parts": "1.2.3.04"}"#, "4")] {
        assert_eq!(dies_at::<FormatParts>(text), Some(at(text, needle, 0)), "{text}");
        assert_eq!(
            toolgate::Stream::<FormatParts>::__reference(text.as_bytes()).0,
            Some(at(text, needle, 0)),
            "{text}"
        );
    }
}

#[test]
fn a_format_death_is_explained_by_its_keyword() {
    for (text, pointer) in [(r#"{"date": "2024-13"#, "/date"), (r#"{"uuid": "zz"#, "/uuid")] {
        let mut s = Formats::stream();
        let Progress::Dead(d) = s.feed(text.as_bytes()) else { panic!("{text}: alive") };
        let v = d.violation().unwrap_or_else(|| panic!("{text}: no violation"));
        assert_eq!(v.pointer, pointer, "{text}");
        assert_eq!(v.keyword(), "format", "{text}");
        assert!(d.error.to_string().contains("format"), "{text}: {}", d.error);
    }
}

/// The automata a stream steps for a `format` hold every string of it: strings of each
/// format and thousands of edits of them, valid or not, fed at every cut and in one piece, are
/// never dead while valid, by the flat reader or by the automata alone.
#[test]
fn a_format_automaton_never_rejects_a_string_of_the_format() {
    let seeds: &[(&str, &[&str])] = &[
        ("date", &["2024-02-29", "1963-06-19", "0000-01-01", "9999-12-31", "2021-04-30", "2021-11-30", "2023-02-28"]),
        ("time", &["08:30:06.283185Z", "23:59:60Z", "15:59:60-08:00", "00:00:00+23:59", "12:00:00z"]),
        ("date-time", &["1963-06-19T08:30:06.283185Z", "1990-12-31t15:59:60-08:00", "2024-02-29T00:00:00+01:00"]),
        ("duration", &["P4DT12H30M5S", "P2W", "P1Y2M", "PT1M2S", "P1D", "PT36H", "P0Y0M0DT0H0M0S"]),
        ("email", &["joe.bloggs@example.com", "\"joe bloggs\"@example.com", "te~st@[127.0.0.1]", "a@[IPv6:::1]"]),
        ("ipv4", &["192.168.0.1", "0.0.0.0", "255.255.255.255", "87.10.0.1"]),
        ("ipv6", &["::1", "::", "1:2:3:4:5:6:7:8", "::ffff:192.168.0.1", "FE80::0202:B3FF:FE1E:8329"]),
        (
            "uri",
            &["http://foo.bar/?baz=qux#quux", "urn:isbn:0451450523", "http://[2001:db8::7]/c=GB?x", "mailto:a@b.c"],
        ),
        ("uri-reference", &["/abc", "#frag", "?q=1", "//example.com/a%20b", "", "a:b"]),
        ("uuid", &["2eb8aa08-aa98-11ea-b4aa-73b441d16380", "00000000-0000-0000-0000-000000000000"]),
        ("json-pointer", &["/a~1b", "", "/", "/foo/0", "/é~0/ \"x\\"]),
        ("relative-json-pointer", &["1/a", "0#", "0", "120/foo/bar"]),
    ];
    let alphabet: Vec<char> = "0123456789:-./@#%~+TtZzPYMWDHSabcdefABCDEFvI[] \"\\é".chars().collect();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        usize::try_from(rng % n as u64).unwrap_or(0)
    };
    let (mut valid, mut invalid) = (0, 0);
    for &(name, strings) in seeds {
        for &seed in strings {
            let mut cases = vec![seed.to_owned()];
            for _ in 0..300 {
                let mut s: Vec<char> = seed.chars().collect();
                for _ in 0..1 + next(2) {
                    let c = alphabet[next(alphabet.len())];
                    match next(3) {
                        0 if !s.is_empty() => {
                            let i = next(s.len());
                            s[i] = c;
                        }
                        1 if !s.is_empty() => {
                            s.remove(next(s.len()));
                        }
                        _ => s.insert(next(s.len() + 1), c),
                    }
                }
                cases.push(s.into_iter().collect());
            }
            for case in cases {
                let text =
                    format!("{{{}: {}}}", serde_json::to_string(name).unwrap(), serde_json::to_string(&case).unwrap());
                let ok = Formats::is_valid_json(&text);
                assert_eq!(ok, toolgate::__private::format_matches(name, &case), "{text}");
                if ok {
                    valid += 1;
                    for cut in 0..=text.len() {
                        let mut s = Formats::stream();
                        let first = s.feed(&text.as_bytes()[..cut]);
                        let second = s.feed(&text.as_bytes()[cut..]);
                        assert!(first == Progress::Alive && second == Progress::Alive, "{text} cut at {cut}");
                        assert!(s.finish().is_ok(), "{text}");
                    }
                    assert_eq!(dies_at::<Formats>(&text), None, "{text}");
                    assert_eq!(toolgate::Stream::<Formats>::__reference(text.as_bytes()).0, None, "{text}");
                } else {
                    invalid += 1;
                    let died = dies_at::<Formats>(&text);
                    assert_eq!(toolgate::Stream::<Formats>::__reference(text.as_bytes()).0, died, "{text}");
                    let mut s = Formats::stream();
                    let _ = s.feed(text.as_bytes());
                    assert!(s.finish().is_err(), "{text}");
                }
            }
        }
    }
    // The edits make both kinds, many of each.
    assert!(valid > 1_000 && invalid > 5_000, "{valid} valid, {invalid} invalid");
}

/// `HH:MM` of a number of minutes.
fn hhmm(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Where a string of format `time` or `date-time` (after `1998-12-31T`) begins, for each of its
/// fields in [`Formats`]: the text up to the seconds `60` of a leap second at `local` minutes.
fn leap_heads(local: u32) -> [String; 2] {
    [format!(r#"{{"time": "{}:60"#, hhmm(local)), format!(r#"{{"date-time": "1998-12-31T{}:60"#, hhmm(local))]
}

#[test]
fn a_leap_second_dies_at_the_first_offset_character_that_cannot_make_it_23_59_utc() {
    let mut wrong_texts = 0;
    for local in 0..24 * 60 {
        for head in leap_heads(local) {
            // UTC is the local time less the offset: one offset per sign puts it at 23:59.
            for (sign, target) in [('+', (local + 1) % 1440), ('-', (1439 + 1440 - local) % 1440)] {
                let offset = hhmm(target);
                for fraction in ["", ".25"] {
                    let text = format!("{head}{fraction}{sign}{offset}\"}}");
                    assert!(Formats::is_valid_json(&text), "{text}");
                    assert_eq!(sure_dies_at::<Formats>(&text), None, "{text}");
                }
                // Each digit of the offset replaced by another that the syntax allows there (each
                // one for every 61st minute, one of them for the others): dead at that digit.
                for (k, c) in offset.char_indices().filter(|&(_, c)| c != ':') {
                    let allowed = match k {
                        0 => "012",
                        1 if offset.starts_with('2') => "0123",
                        3 => "012345",
                        _ => "0123456789",
                    };
                    let others: Vec<char> = allowed.chars().filter(|&o| o != c).collect();
                    let take = if local % 61 == 0 { others.len() } else { 1 };
                    for other in others.iter().cycle().skip(local as usize % others.len()).take(take) {
                        let mut wrong = offset.clone();
                        wrong.replace_range(k..=k, &other.to_string());
                        let text = format!("{head}{sign}{wrong}\"}}");
                        assert!(!Formats::is_valid_json(&text), "{text}");
                        assert_eq!(sure_dies_at::<Formats>(&text), Some(head.len() + 1 + k), "{text}");
                        wrong_texts += 1;
                    }
                }
            }
            // `Z` (or `z`) only at 23:59 itself.
            for z in ["Z", "z"] {
                let text = format!("{head}.9{z}\"}}");
                assert_eq!(sure_dies_at::<Formats>(&text), (local != 1439).then_some(head.len() + 2), "{text}");
            }
        }
    }
    assert!(wrong_texts > 20_000, "{wrong_texts}");
    // Not a leap second: any offset.
    assert_eq!(
        sure_dies_at::<Formats>(r#"{"time": "12:00:59+07:13", "date-time": "1998-12-31T00:00:00.1-23:59"}"#),
        None
    );
    // An escape is judged as the character it stands for, as its digits arrive: at 15:59, `-`
    // needs `08:00`; `\u003` may still be `8`, `\u0037` is `7`.
    let text = r#"{"time": "15:59:60-0\u0038:00"}"#;
    assert_eq!(sure_dies_at::<Formats>(text), None);
    early_format(r#"{"time": "15:59:60-0\u0037:00"}"#, "7:", 0);
    assert_eq!(sure_dies_at::<Formats>(r#"{"time": "15:59:60\u002b16:00"}"#), None);
    early_format(r#"{"time": "15:59:60+1\u0037:00"}"#, "7:", 0);
    assert_eq!(sure_dies_at::<Formats>(r#"{"time": "23:59:6\u0030\u005a"}"#), None);
    // (`\u005` can only be `Z` here.)
    early_format(r#"{"time": "23:58:6\u0030\u005a"}"#, "5a", 0);
    // The death is the format's.
    let mut s = Formats::stream();
    let Progress::Dead(d) = s.feed(br#"{"date-time": "1998-12-31T23:59:60+01"#) else { panic!("alive") };
    let v = d.violation().expect("a violation");
    assert_eq!((v.pointer.as_str(), v.keyword()), ("/date-time", "format"));
}

#[test]
fn a_token_mask_never_leaves_a_leap_second_without_an_offset() {
    // A vocabulary of the printable ASCII bytes; walks from each leap second's `60` pick allowed
    // bytes at random (the closing quote as soon as it is allowed) until the string closes: the
    // mask never allows a byte after which nothing is allowed, and every walk ends valid.
    let vocab = toolgate::Vocabulary::new((0x20..0x7Fu8).map(|b| [b]));
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let (mut walks, mut zulu) = (0, 0);
    for local in (0..24 * 60).step_by(7).chain([1439]) {
        for head in leap_heads(local) {
            for _ in 0..3 {
                let mut s = Formats::stream();
                assert!(!s.feed(head.as_bytes()).is_dead(), "{head}");
                let mut closed = false;
                for _ in 0..200 {
                    s.allowed(&vocab, &mut mask);
                    let allowed: Vec<usize> = mask.allowed().collect();
                    assert!(!allowed.is_empty(), "stuck: {:?}", String::from_utf8_lossy(s.text()));
                    let close = allowed.iter().copied().find(|&t| vocab.bytes(t) == b"\"");
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let t = close.unwrap_or(allowed[(rng % allowed.len() as u64) as usize]);
                    zulu += usize::from(vocab.bytes(t) == b"Z");
                    assert!(!s.feed(vocab.bytes(t)).is_dead(), "{:?}", String::from_utf8_lossy(s.text()));
                    if close.is_some() {
                        closed = true;
                        break;
                    }
                }
                assert!(closed, "{:?}", String::from_utf8_lossy(s.text()));
                assert!(!s.feed(b"}").is_dead(), "{:?}", String::from_utf8_lossy(s.text()));
                let text = String::from_utf8_lossy(s.text()).into_owned();
                assert!(s.finish().is_ok() && Formats::is_valid_json(&text), "{text}");
                walks += 1;
            }
        }
    }
    assert!(walks > 1_000 && zulu > 0, "{walks} walks, {zulu} with Z");
}

tool_schema! {
    /// Arrays with `uniqueItems` of each kind of item (a flat tool: the flat reader reads it).
    pub struct UniqueFlat = {
        "type": "object",
        "properties": {
            "s": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "p": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "uniqueItems": true},
            "e": {"type": "array", "items": {"enum": ["x", "y", "z"]}, "uniqueItems": true},
            "nums": {"type": "array", "items": {"type": "number"}, "uniqueItems": true},
            "lits": {"type": "array", "items": {"type": ["boolean", "null"]}, "uniqueItems": true},
            "objs": {"type": "array", "uniqueItems": true,
                     "items": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}},
            "arrs": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}, "uniqueItems": true}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same keyword where several subschemas speak of the array (the general automaton),
    /// and in a tool the quick reader reads (its free-form items).
    pub struct UniqueApplied = {
        "type": "object",
        "properties": {
            "all": {"allOf": [{"type": "array", "uniqueItems": true}, {"maxItems": 100}]},
            "any": {"type": "array", "uniqueItems": true},
            "inner": {"type": "array", "items": {"type": "array", "uniqueItems": true}},
            "either": {"anyOf": [{"type": "array", "uniqueItems": true}, {"type": "array", "maxItems": 2}]},
            "rows": {"type": "array", "uniqueItems": true, "items": {"type": "object", "properties": {"a": {"type": "integer"}}}},
            "flags": {"type": "array", "items": {"type": ["boolean", "null", "string"]}, "uniqueItems": true},
            "either_kind": {"type": ["array", "object"], "uniqueItems": true, "maxProperties": 3}
        },
        "additionalProperties": false
    };
}

#[test]
fn a_repeated_item_dies_where_it_closes() {
    // (text, the needle whose byte `k` is where it dies; `None`: alive)
    // (Items past the first few, after a failed try of the whole text, are tried at once.)
    let obj = |i: i32| format!(r#"{{"a": {i}}}"#);
    let rows = format!(
        r#"{{"rows": [{}, {}, {}, {{}}]}}"#,
        (1..9).map(obj).collect::<Vec<_>>().join(", "),
        obj(3),
        (9..16).map(obj).collect::<Vec<_>>().join(", ")
    );
    let cases: &[(&str, Option<(&str, usize)>)] = &[
        // Strings: at the closing quote; compared decoded.
        (r#"{"s": ["a", "b", "a", "c"]}"#, Some(("a\", \"c", 1))),
        (r#"{"s": ["a", "\u0061", "c"]}"#, Some(("1\", \"c", 1))),
        (r#"{"s": ["a", "ab", "b", "é", "\u00e9"]}"#, Some(("9\"]", 1))),
        (r#"{"p": ["ab", "cd", "ab", "x"]}"#, Some(("ab\", \"x", 2))),
        (r#"{"e": ["x", "y", "x"]}"#, Some(("x\"]", 1))),
        // Numbers: at the byte after them (`1` may still become `10`); `1.0` equals `1`.
        (r#"{"nums": [1, 2, 1.0, 3]}"#, Some((", 3", 0))),
        (r#"{"nums": [1, 2, 10e-1 ]}"#, Some((" ]", 0))),
        (r#"{"nums": [1, 10, 100]}"#, None),
        // Literals: at their first letter, which decides them.
        (r#"{"lits": [true, null, true, false]}"#, Some(("true, false", 0))),
        (r#"{"lits": [true, null, false, nul"#, Some(("false, nul", 7))),
        (r#"{"all": [true, 1, true]}"#, Some(("true]", 0))),
        (r#"{"any": [[true], true, false, [false], true]}"#, Some(("true]}", 0))),
        (r#"{"flags": [true, "true", null, false, true, "x"]}"#, Some(("true, \"x", 0))),
        (r#"{"flags": [true, "true", null, false, "null", "x"]}"#, None),
        // `uniqueItems` speaks of arrays only: an object's members are no items.
        (r#"{"either_kind": {"a": 1, "b": 1, "c": true}}"#, None),
        (r#"{"either_kind": {"a": 1, "b": 1, "a": 2}}"#, Some(("\"a\": 2", 2))),
        (r#"{"either_kind": [1, [1], 1]}"#, Some(("1]}", 1))),
        // Objects and arrays: at their closing bracket; key order does not matter.
        (r#"{"objs": [{"a": 1, "b": 2}, {"b": 2, "a": 1}, {}]}"#, Some(("}, {}", 0))),
        (r#"{"objs": [{"a": 1}, {"a": 2}, {"b": 1}]}"#, None),
        (r#"{"arrs": [[1, 2], [2, 1], [1, 2], []]}"#, Some(("], []", 0))),
        // Several subschemas speak of the array.
        (r#"{"all": ["a", 1, "a", 2]}"#, Some(("a\", 2", 1))),
        (r#"{"all": [{"k": [1]}, {"k": [1.0]}, 3]}"#, Some(("]}, 3", 1))),
        (r#"{"any": [null, [null], null, 0]}"#, Some(("null, 0", 0))),
        (r#"{"inner": [[1, 2], [3, 3]]}"#, Some(("3]]", 1))),
        (r#"{"inner": [[1, 2], [1, 2]]}"#, None),
        // A branch of `anyOf` dies; the other may still hold (two items at most).
        (r#"{"either": ["a", "a"]}"#, None),
        (r#"{"either": ["a", "a", "b"]}"#, Some((", \"b", 0))),
        // Items complete within reach, which the lean automaton judges at once, are compared
        // too.
        (r#"{"rows": [{"a": 1}, {"a": 2}, {"a": 1}, {}]}"#, Some(("}, {}", 0))),
        (&rows, Some(("3}, {\"a\": 9", 1))),
        (r#"{"rows": [{"a": 1}, {"a": 2}, {"a": 3}]}"#, None),
    ];
    for &(text, expected) in cases {
        let want = expected.map(|(needle, k)| at(text, needle, k));
        let got = if ["all", "any", "inner", "either", "rows", "flags", "either_kind"]
            .iter()
            .any(|p| text.contains(&format!("{{\"{p}\"")))
        {
            sure_dies_at::<UniqueApplied>(text)
        } else {
            sure_dies_at::<UniqueFlat>(text)
        };
        assert_eq!(got, want, "{text}");
        if want.is_none() {
            let valid = if text.contains("\"s\"") || text.contains("\"nums\"") || text.contains("\"objs\"") {
                UniqueFlat::is_valid_json(text)
            } else {
                UniqueApplied::is_valid_json(text)
            };
            assert!(valid, "{text} should be valid");
        }
    }
    // Fed in pieces, a repeated item is dead in the piece that closes it, where an automaton
    // judges the items complete in a piece at once too.
    let cut = at(&rows, "13}", 3);
    let mut s = UniqueApplied::stream();
    assert!(s.feed(rows.as_bytes().get(..cut).unwrap_or_default()).is_dead(), "{rows}");
    let mut s = UniqueApplied::stream().__automaton_only();
    assert!(s.feed(rows.as_bytes().get(..cut).unwrap_or_default()).is_dead(), "{rows}");
    // A prefix that may still become another string is alive.
    assert_eq!(sure_dies_at::<UniqueFlat>(r#"{"s": ["ab", "a"#), None);
    // The tools are read as their comments say.
    assert!(toolgate::Stream::<UniqueApplied>::__lean());
    // The violation names both items.
    let mut s = UniqueFlat::stream();
    let Progress::Dead(d) = s.feed(br#"{"s": ["x", "y", "x", "z"]}"#) else { panic!() };
    assert_eq!(d.to_string(), "at byte 19: /s: expected unique items, found item 2 equal to item 0");
}

#[test]
fn a_long_array_past_its_filter_leaves_its_repeats_to_its_close() {
    // Past the filter's use (its bits set, its reads spent), a repeat is found no later than
    // where the array closes; every reader decides alike (`sure_dies_at`).
    let items: Vec<String> = (0..200).map(|i| format!("\"w{i}\"")).collect();
    let text = format!(r#"{{"s": [{}, "w0", "end"]}}"#, items.join(", "));
    let dead = sure_dies_at::<UniqueFlat>(&text).expect("a repeat");
    assert!(dead <= text.rfind(']').unwrap_or(0), "{dead}");
    // Early ones are found early.
    let text = format!(r#"{{"s": ["v0", "v1", "v0", {}]}}"#, items.join(", "));
    assert_eq!(sure_dies_at::<UniqueFlat>(&text), Some(at(&text, "v0\", \"w0", 2)));
    // Many distinct items are never dead.
    let text = format!(r#"{{"s": [{}]}}"#, items.join(", "));
    assert_eq!(sure_dies_at::<UniqueFlat>(&text), None);
}

tool_schema! {
    /// Numbers where the flat reader reads them.
    pub struct Ranges = {
        "type": "object",
        "properties": {
            "x": {"type": "number"},
            "free": {},
            "list": {"type": "array", "items": {"type": "number", "maximum": 1e300}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// Numbers where the quick reader and the lean automaton read them (an `anyOf`: the general
    /// automaton's).
    pub struct RangesLean = {
        "type": "object",
        "properties": {
            "x": {"type": "number"},
            "free": {"type": "array"},
            "either": {"anyOf": [{"type": "number"}, {"type": "string"}]},
            "nz": {"not": {"type": "string"}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A number at the root.
    pub struct RangesRoot = {"type": "number"};
}

#[test]
fn a_number_dies_at_the_exponent_digit_that_puts_it_beyond_the_f64_range() {
    let long = format!("1{}", "0".repeat(400));
    // (a number, the byte of it where it dies; `None`: alive and valid)
    let numbers: Vec<(String, Option<usize>)> = vec![
        // At the digit after which the exponent can only grow (f64::MAX is 1.79e308).
        ("1e309".into(), Some(4)),
        ("1E+309".into(), Some(5)),
        ("-1e400".into(), Some(5)),
        ("1e0000309".into(), Some(8)),
        ("12345678901234567890123e290".into(), Some(26)),
        ("0.1e310".into(), Some(6)),
        // At the edge, the conversion decides.
        ("1.8e308".into(), Some(6)),
        ("1.7e308".into(), None),
        ("0.01e310".into(), None),
        ("1e308".into(), None),
        // Whatever follows, these stay within it.
        ("0.001e310".into(), None),
        ("0e999999999999".into(), None),
        ("-0.000e999".into(), None),
        ("1e-999999999999".into(), None),
        ("6.02e23".into(), None),
        // A mantissa beyond the range alone is alive (an exponent may bring it back) ...
        (format!("{long}e-400"), None),
        (format!("{long}.5e-300"), None),
        // ... and dies at its exponent's first digit when that exponent cannot.
        (format!("{long}e0"), Some(402)),
        (format!("{long}e+1"), Some(403)),
    ];
    for (number, dies) in &numbers {
        for (prefix, suffix) in [(r#"{"x": "#, "}"), (r#"{"free": ["#, "]}"), (r#"{"list": [1, "#, "]}"), ("", "")] {
            let text = format!("{prefix}{number}{suffix}");
            let want = dies.map(|k| prefix.len() + k);
            // (The list's items have a `maximum`: a number within the range but past it dies
            // where it ends, which other tests check.)
            let maybe_past_maximum = prefix.contains("list") && dies.is_none();
            if prefix.is_empty() {
                assert_eq!(sure_dies_at::<RangesRoot>(&text), want, "{text}");
                assert_eq!(RangesRoot::is_valid_json(&text), dies.is_none(), "{text}");
            } else if !maybe_past_maximum {
                assert_eq!(sure_dies_at::<Ranges>(&text), want, "{text}");
                assert_eq!(Ranges::is_valid_json(&text), dies.is_none(), "{text}");
            }
            if !prefix.contains("list") && !prefix.is_empty() {
                assert_eq!(sure_dies_at::<RangesLean>(&text), want, "{text}");
                assert_eq!(RangesLean::is_valid_json(&text), dies.is_none(), "{text}");
            }
        }
        for text in [
            format!(r#"{{"either": {number}}}"#),
            format!(r#"{{"x": {number}, "free": [{number}]}}"#),
            format!(r#"{{"nz": [{number}]}}"#),
        ] {
            let first = text.find(number.as_str()).unwrap_or(0);
            assert_eq!(sure_dies_at::<RangesLean>(&text), dies.map(|k| first + k), "{text}");
        }
    }
    assert!(toolgate::Stream::<Ranges>::__flat());
    assert!(toolgate::Stream::<RangesLean>::__lean(), "lean");
    assert!(!toolgate::Stream::<RangesLean>::__flat(), "not flat");
    // Numbers are read as `f64`: a text whose digits differ from every member's may still be
    // one of them, and is never dead on the way (more in the next test).
    tool_schema! {
        /// A number const.
        pub struct Two = {"const": 2};
    }
    for text in ["1.99999999999999999999", "2.00000000000000000001", "0.2e1", "20e-1"] {
        assert!(Two::is_valid_json(text), "{text}");
        assert_eq!(sure_dies_at::<Two>(text), None, "{text}");
    }
    // The explanation.
    let mut s = Ranges::stream();
    let Progress::Dead(d) = s.feed(br#"{"x": 2e309}"#) else { panic!("beyond the range") };
    assert_eq!(d.to_string(), "at byte 10: not JSON: a number out of range at line 1 column 11");
    // A token mask lets a model write no digit that takes the number there, and lets it close.
    let vocab = toolgate::Vocabulary::new(["0", "8", "9", "}", "e"]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut s = Ranges::stream();
    s.feed(br#"{"x": 1e30"#);
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 3]);
    s.feed(b"8");
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [3]);
}

tool_schema! {
    /// `enum`s and `const`s of numbers where the flat reader reads them.
    pub struct Levels = {
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2, 4, 8]},
            "ratio": {"const": 0.25},
            "mode": {"oneOf": [{"const": 1, "description": "one"}, {"const": -3, "description": "minus three"}]},
            "list": {"type": "array", "items": {"enum": [10, 1e-7, 0]}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same where the quick reader and the lean automaton read them (an `anyOf` and a `not`
    /// beside: the general automaton's).
    pub struct LevelsLean = {
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2, 4, 8]},
            "ratio": {"const": 0.25},
            "mode": {"anyOf": [{"const": 1}, {"const": -3}]},
            "list": {"type": "array", "items": {"enum": [10, 1e-7, 0]}},
            "free": {"type": "array"},
            "odd": {"enum": [1, 2, 4, 8], "not": {"const": 2}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// An `enum` of numbers at the root.
    pub struct LevelsRoot = {"enum": [1, 2, 4, 8]};
}

/// `number` as property `prop`'s value (of `list`: an array's second item), in a text of tool
/// `F` (flat) and of tool `L` (read by the quick reader and the lean automaton): valid as
/// `valid` says, and dead, by every reader, at the number's byte `early`, else (invalid) where
/// the number ends. Returns the length of what comes before the number, and where the text dies.
fn placed<F: Tool, L: Tool>(prop: &str, number: &str, early: Option<usize>, valid: bool) -> (usize, Option<usize>) {
    let (prefix, suffix) =
        if prop == "list" { (r#"{"list": [0, "#.to_string(), "]}") } else { (format!(r#"{{"{prop}": "#), "}") };
    let want = match (early, valid) {
        (Some(k), _) => Some(prefix.len() + k),
        (None, false) => Some(prefix.len() + number.len()),
        (None, true) => None,
    };
    let text = format!("{prefix}{number}{suffix}");
    assert_eq!(F::is_valid_json(&text), valid, "{text}");
    assert_eq!(sure_dies_at::<F>(&text), want, "{text}");
    assert_eq!(L::is_valid_json(&text), valid, "{text}");
    assert_eq!(sure_dies_at::<L>(&text), want, "{text}");
    (prefix.len(), want)
}

#[test]
fn a_number_dies_at_the_first_byte_from_which_no_member_of_its_enum_is_reachable() {
    let long = format!("1{}", "0".repeat(70));
    // (the property, a number, the byte of it where it dies before it ends, whether it is valid)
    let cases: Vec<(&str, String, Option<usize>, bool)> = vec![
        ("level", "5".into(), Some(0), false),
        ("level", "-1".into(), Some(0), false),
        ("level", "1.5".into(), Some(2), false),
        ("level", "25".into(), Some(1), false),
        ("level", "2e5".into(), Some(2), false),
        ("level", "1e1".into(), Some(2), false),
        ("level", "20e-2".into(), Some(4), false),
        ("level", "20e+".into(), Some(3), false),
        ("level", "0e".into(), Some(1), false),
        ("level", "4.00000000001".into(), Some(12), false),
        // Numbers are read as `f64`: these are members.
        ("level", "80e-1".into(), None, true),
        ("level", "0.4e1".into(), None, true),
        ("level", "3.99999999999999999999".into(), None, true),
        ("level", "8.0000000000000000001".into(), None, true),
        ("level", "4E+0".into(), None, true),
        ("level", format!("{long}e-70"), None, true),
        // Alive until they end: `3` may become 3.99999999999999999999, `0` 0.4e1.
        ("level", "3".into(), None, false),
        ("level", "0".into(), None, false),
        // Beyond its first 64 bytes a number is judged where it ends.
        ("level", format!("{long}e-69"), None, false),
        // Within 10^-12 of a member, a mantissa lives on (more digits may make it one), but its
        // `e` ends it: then it is read at each exponent that may bring it to a member.
        ("level", "3.9999999999999".into(), None, false),
        ("level", "3.9999999999999e0".into(), Some(15), false),
        ("level", "39.999999999999e-1".into(), Some(15), false),
        ("level", "0.39999999999999999999e1".into(), None, true),
        ("level", "0.39999999999999999999e0".into(), None, false),
        ("level", "0.39999999999999999999e-".into(), Some(23), false),
        ("ratio", "0.2499999999999e0".into(), Some(15), false),
        ("ratio", "2.49999999999999999999e-1".into(), None, true),
        ("ratio", "0.25".into(), None, true),
        ("ratio", "25e-2".into(), None, true),
        ("ratio", "0.3".into(), Some(2), false),
        ("ratio", "-0.25".into(), Some(0), false),
        ("ratio", "2.5e-2".into(), Some(5), false),
        ("mode", "1".into(), None, true),
        ("mode", "-3".into(), None, true),
        ("mode", "-1".into(), Some(1), false),
        ("mode", "2".into(), Some(0), false),
        // Zero is a member: any mantissa may still read as 0 (5e-999) until its exponent is
        // known to be positive.
        ("list", "0".into(), None, true),
        ("list", "1e-7".into(), None, true),
        ("list", "1E1".into(), None, true),
        ("list", "5e-999".into(), None, true),
        ("list", "5".into(), None, false),
        ("list", "5e1".into(), Some(2), false),
        ("list", "-5e+".into(), Some(3), false),
    ];
    for (prop, number, early, valid) in &cases {
        let (prefix, want) = placed::<Levels, LevelsLean>(prop, number, *early, *valid);
        if *prop == "level" {
            // At the root, and under `not` (the general automaton's: the same death).
            assert_eq!(sure_dies_at::<LevelsRoot>(number), *early, "{number}");
            let odd = format!(r#"{{"odd": {number}}}"#);
            assert_eq!(sure_dies_at::<LevelsLean>(&odd), want.map(|w| w - prefix + 8), "{odd}");
        }
    }
    // Members at the edges: subnormals, the largest `f64`, the largest `u64` (compared exactly).
    tool_schema! {
        /// Numbers at the edges.
        pub struct Edges = {"enum": [5e-324, -1e-320, 1.7976931348623157e308, 18446744073709551615]};
    }
    for (number, early, valid) in [
        ("5e-324", None, true),
        ("4e-324", None, true),
        ("-1e-320", None, true),
        ("-0.00001e-315", None, true),
        ("1.7976931348623157e308", None, true),
        ("17976931348623157e292", None, true),
        ("18446744073709551615", None, true),
        ("18446744073709551616", None, false),
        // A subnormal member keeps any number of its sign alive until its exponent is positive.
        ("2", None, false),
        ("2e5", Some(2), false),
        ("-9e1", Some(3), false),
        ("-5e-324", None, false),
        ("0e", Some(1), false),
    ] {
        assert_eq!(Edges::is_valid_json(number), valid, "{number}");
        assert_eq!(sure_dies_at::<Edges>(number), early, "{number}");
    }
    // At most 64 numbers in one `enum` are watched; more are judged where the number ends.
    tool_schema! {
        /// 64 numbers: watched.
        pub struct Evens64 = {"enum": [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128]};
    }
    tool_schema! {
        /// 65 numbers: not watched.
        pub struct Evens65 = {"enum": [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130]};
    }
    assert_eq!(sure_dies_at::<Evens64>("-1"), Some(0));
    assert_eq!(sure_dies_at::<Evens65>("-1"), None);
    assert!(!Evens65::is_valid_json("-1"));
    assert!(toolgate::Stream::<Levels>::__flat());
    assert!(toolgate::Stream::<LevelsLean>::__lean(), "lean");
    assert!(!toolgate::Stream::<LevelsLean>::__flat(), "not flat");
    // The explanation: the `enum`, at the byte.
    let Progress::Dead(d) = Levels::stream().feed(br#"{"level": 5"#) else { panic!("5 is no level") };
    assert_eq!(d.offset, 10);
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("enum"));
    // A token mask lets a model write only what may still become a member.
    let vocab = toolgate::Vocabulary::new(["1", "2", "3", "5", "-", "8", "e", "}", ".5", ".0"]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut s = Levels::stream();
    s.feed(br#"{"level": "#);
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 2, 5]);
    s.feed(b"2");
    s.allowed(&vocab, &mut mask);
    // `2` then `e` (2e0), `}`, `.0`; not `.5`, nor a digit (`21`, say, becomes no member).
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [6, 7, 9]);
    // After a mantissa within 10^-13 of 8 only nines, which may make it read as 8; once it
    // does, anything that keeps it so.
    let vocab = toolgate::Vocabulary::new(["9", "99", "1", "e", "}", "e0", "e1"]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut s = Levels::stream();
    s.feed(br#"{"level": 7.9999999999999"#);
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1]);
    s.feed(b"9999999");
    s.allowed(&vocab, &mut mask);
    assert_eq!(mask.allowed().collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
}

tool_schema! {
    /// Bounds, read by the flat reader.
    pub struct Sizes = {
        "type": "object",
        "properties": {
            "max": {"type": "number", "maximum": 3},
            "below": {"exclusiveMaximum": 3},
            "min": {"type": "number", "minimum": -2.5},
            "pos": {"exclusiveMinimum": 0},
            "step": {"type": "integer", "maximum": 100, "multipleOf": 5},
            "list": {"type": "array", "items": {"maximum": 10}},
            "count": {"type": "integer", "minimum": 1, "maximum": 100},
            "open": {"type": "integer", "maximum": 100},
            "small": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 5},
            "tri": {"type": "number", "multipleOf": 1.5}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// The same where the quick reader and the lean automaton read them (an `anyOf` and a `not`
    /// beside: the general automaton's).
    pub struct SizesLean = {
        "type": "object",
        "properties": {
            "max": {"type": "number", "maximum": 3},
            "below": {"exclusiveMaximum": 3},
            "min": {"type": "number", "minimum": -2.5},
            "pos": {"exclusiveMinimum": 0},
            "step": {"type": "integer", "maximum": 100, "multipleOf": 5},
            "list": {"type": "array", "items": {"maximum": 10}},
            "count": {"type": "integer", "minimum": 1, "maximum": 100},
            "open": {"type": "integer", "maximum": 100},
            "small": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 5},
            "tri": {"type": "number", "multipleOf": 1.5},
            "free": {"type": "array"},
            "either": {"anyOf": [{"maximum": 3}, {"exclusiveMaximum": -5}]},
            "odd": {"maximum": 3, "not": {"const": 2}}
        },
        "additionalProperties": false
    };
}

tool_schema! {
    /// A bound at the root.
    pub struct SizesRoot = {"maximum": 3};
}

tool_schema! {
    /// A range split across subschemas (the general automaton's).
    pub struct SplitRange = {"allOf": [{"minimum": 20}, {"maximum": 30}]};
}

tool_schema! {
    /// A `multipleOf` at the root.
    pub struct TriRoot = {"multipleOf": 1.5};
}

tool_schema! {
    /// `multipleOf` in the branches of an `anyOf`, in an `allOf` beside a bound, and under a
    /// `not` (the general automaton's).
    pub struct TriApplied = {
        "type": "object",
        "properties": {
            "either": {"anyOf": [{"multipleOf": 1.5}, {"minimum": 0}]},
            "both": {"allOf": [{"multipleOf": 1.5}, {"minimum": 0}]},
            "neither": {"not": {"multipleOf": 1.5}}
        }
    };
}

tool_schema! {
    /// Subschemas whose being sure of a number kills another: a `not`'s, two branches of a
    /// `oneOf`, an `if`'s (whose `then` is dead), a `contains`' past its `maxContains`.
    pub struct Settled = {
        "type": "object",
        "properties": {
            "real": {"not": {"type": "integer"}},
            "pick": {"oneOf": [{"type": "integer"}, {"minimum": 2}]},
            "low": {"not": {"type": "integer", "maximum": 5}},
            "gate": {"if": {"type": "integer"}, "then": {"type": "string"}},
            "tall": {"if": {"minimum": 10}, "then": {"maximum": 50}, "else": {"maximum": 5}},
            "once": {"type": "array", "contains": {"type": "integer"}, "maxContains": 1}
        }
    };
}

#[test]
fn a_number_dies_where_its_exponent_makes_a_subschema_sure_of_it_that_it_must_not_satisfy() {
    // (the property, a number, the byte of it where it dies before it ends, whether it is valid)
    let cases: Vec<(&str, &str, Option<usize>, bool)> = vec![
        // In a positive exponent, the text so far is the least the number may become: an integer
        // there is one at every larger exponent, so `{"type": "integer"}` is sure of it.
        ("real", "73601e38", Some(6), false),
        ("real", "1.5e+1", Some(5), false),
        ("real", "1.25e02", Some(6), false),
        ("real", "1.25e01", None, true),
        ("real", "0e", Some(1), false),
        ("real", "1.5e-1", None, true),
        ("real", "1e-1", None, true),
        ("real", "1.5", None, true),
        ("real", "15", None, false),
        // A negative exponent that makes the number zero whatever follows: an integer for good
        // (`73601e-320` is 7.36e-316, not yet).
        ("real", "73601e-329", Some(9), false),
        ("real", "73601e-3200", Some(10), false),
        ("real", "73601e-320", None, true),
        ("real", "1.5e-324", Some(7), false),
        ("real", "3e-324", None, true),
        // Two branches sure of it: an integer of at least 2 for good.
        ("pick", "915E55", Some(4), false),
        ("pick", "1.5e89", Some(4), false),
        ("pick", "6E0218", Some(2), false),
        ("pick", "0.5e1", Some(4), false),
        ("pick", "1e0", None, true),
        ("pick", "2.5e0", None, true),
        // A `maximum` holds for good only of a negative number, which only falls.
        ("low", "-1e+1", Some(3), false),
        ("low", "1e+1", None, true),
        ("low", "4e0", None, false),
        // An `if` sure of it picks its `then`: dead since the first byte (no number is a
        // string), or dead where the exponent takes it past the `then`'s maximum (`1.3e+1` is
        // 13, at least 10; `1.3e+12` is past 50).
        ("gate", "1.5e+1", Some(5), false),
        ("gate", "2e1", Some(2), false),
        ("gate", "1.25e01", None, true),
        ("gate", "2.5", None, true),
        ("gate", "15", None, false),
        ("tall", "6e1", Some(2), false),
        ("tall", "1.3e+12", Some(6), false),
        ("tall", "1.3e+1", None, true),
        ("tall", "1.3e0", None, true),
        ("tall", "-7e0", None, true),
        // (6 fails both outcomes, but `6e-1` would be valid.)
        ("tall", "6e0", None, false),
        // An item a `contains` is sure of counts from there: a second integer for good exceeds
        // `maxContains: 1` at its exponent's digit, not where it ends (and is counted once).
        ("once", "[1, 2e1]", Some(6), false),
        ("once", "[1, 2.5e+1]", Some(9), false),
        ("once", "[1, 2.55e1]", None, true),
        ("once", "[2e1]", None, true),
        ("once", "[2e1, 1e-1]", None, true),
        ("once", "[2e1, 3]", Some(7), false),
    ];
    for (prop, number, early, valid) in &cases {
        let prefix = format!(r#"{{"{prop}": "#);
        let text = format!("{prefix}{number}}}");
        assert_eq!(Settled::is_valid_json(&text), *valid, "{text}");
        let want = match (early, valid) {
            (Some(k), _) => Some(prefix.len() + k),
            (None, false) => Some(prefix.len() + number.len()),
            (None, true) => None,
        };
        assert_eq!(sure_dies_at::<Settled>(&text), want, "{text}");
    }
    let Progress::Dead(d) = Settled::stream().feed(br#"{"real": 73601e3"#) else { panic!("alive") };
    assert_eq!((d.offset, d.violation().map(toolgate::Violation::keyword)), (15, Some("not")));
    let Progress::Dead(d) = Settled::stream().feed(br#"{"pick": 915E5"#) else { panic!("alive") };
    assert_eq!((d.offset, d.violation().map(toolgate::Violation::keyword)), (13, Some("oneOf")));
    let Progress::Dead(d) = Settled::stream().feed(br#"{"once": [1, 2e1"#) else { panic!("alive") };
    assert_eq!((d.offset, d.violation().map(toolgate::Violation::keyword)), (15, Some("contains")));
    let Progress::Dead(d) = Settled::stream().feed(br#"{"gate": 2e1"#) else { panic!("alive") };
    assert_eq!((d.offset, d.violation().map(toolgate::Violation::keyword)), (11, Some("type")));
}

/// Whether `serde_json` reads floats correctly rounded here (its `float_roundtrip` feature, which
/// the workspace's oracle turns on): 90071992547409930 × 10^-1 is a tie, which its fast parse
/// rounds up.
fn correctly_rounded() -> bool {
    serde_json::from_str::<f64>("90071992547409930e-1").is_ok_and(|f| f == 9_007_199_254_740_992.0)
}

#[test]
fn a_number_dies_at_the_byte_of_its_exponent_from_which_no_exponent_left_makes_a_multiple() {
    // (a number under `multipleOf: 1.5`, the byte of it where it dies before it ends, whether
    // it is valid)
    let cases: Vec<(&str, Option<usize>, bool)> = vec![
        // From its `+` or first digit, the exponent only grows: where the number read at the
        // largest exponent left within the `f64` range is no multiple, none is (13 × 10^k has
        // no factor 3; `e4` leaves 4 and 40 to 49).
        ("1.3e4", Some(4), false),
        ("1.3e+4", Some(4), false),
        ("13E00", Some(3), false),
        ("1e1", Some(2), false),
        ("-7E0", Some(3), false),
        // A mantissa past 15 digits is read at each exponent left, at most 40 of them: `e2`
        // leaves 111 (2, 20 to 29, 200 to 299), `e22` 11.
        ("1.0000000000000000001e22", Some(23), false),
        // Multiples at some exponent left: `3e2` is 300.
        ("3e+2", None, true),
        ("1.5e1", None, true),
        ("0.15e01", None, true),
        ("0e5", None, true),
        // An exponent that may still be negative may take any number to zero (`1.3e-400`).
        ("1.3e-1", None, false),
        ("1.3e-400", None, true),
        ("1.3", None, false),
    ];
    let roundtrip = correctly_rounded();
    for (number, early, valid) in &cases {
        // Without `float_roundtrip`, numbers far past 10^22 read only approximately, and no
        // single read decides: the earliness is checked where they read exactly.
        let early = if roundtrip { *early } else { None };
        let (prefix, want) = placed::<Sizes, SizesLean>("tri", number, early, *valid);
        if !roundtrip {
            continue;
        }
        assert_eq!(sure_dies_at::<TriRoot>(number), early, "{number}");
        let either = format!(r#"{{"either": {number}}}"#);
        // The `anyOf` dies where both branches do: a negative number, at the same byte.
        let both_dead = if number.starts_with('-') { want } else { None };
        assert_eq!(sure_dies_at::<TriApplied>(&either), both_dead.map(|w| w - prefix + 11), "{either}");
        let all = format!(r#"{{"both": {number}}}"#);
        assert_eq!(sure_dies_at::<TriApplied>(&all), want.map(|w| w - prefix + 9), "{all}");
        // Under `not`, a number dies where its exponent makes it a multiple for good (`3e+` is
        // 3, `3e+2` 300: the `not`'s subschema takes it whatever follows; `1.3e-400` is zero
        // from its last digit on, a multiple of everything).
        let neither = format!(r#"{{"neither": {number}}}"#);
        let settled = match *number {
            "3e+2" => Some(2),
            "1.5e1" => Some(4),
            "0.15e01" => Some(6),
            "0e5" => Some(1),
            "1.3e-400" => Some(7),
            _ => None,
        };
        let mid = sure_dies_at::<TriApplied>(&neither).filter(|&w| w < neither.len() - 1);
        assert_eq!(mid, settled.map(|k| k + 12), "{neither}");
    }
    // The explanation: `multipleOf`, at the byte, with the number so far.
    if roundtrip {
        for text in [r#"{"tri": 1.3e4"#, r#"{"tri": 1.3e+"#] {
            for dead in [Sizes::stream().feed(text.as_bytes()), SizesLean::stream().feed(text.as_bytes())] {
                let Progress::Dead(d) = dead else { panic!("{text}: alive") };
                assert_eq!(d.offset, 12, "{text}");
                let v = d.violation().unwrap_or_else(|| panic!("{text}: no violation"));
                assert_eq!(v.keyword(), "multipleOf", "{text}");
                assert!(v.to_string().contains("1.5"), "{text}: {v}");
            }
        }
        // A token mask lets a model write only an exponent that may still make a multiple.
        assert_eq!(masks_after::<Sizes>(&[br#"{"tri": 1.3"#, b"e"]), [vec![2, 3, 5, 6], vec![1]]);
    }
}

#[test]
fn a_number_dies_at_the_byte_of_its_exponent_that_settles_a_bound_it_breaks() {
    // (the property, a number, the byte of it where it dies before it ends, whether it is valid)
    let cases: Vec<(&str, &str, Option<usize>, bool)> = vec![
        // A positive exponent only makes the number larger: from its `+` or first digit on, the
        // text so far is the least it may become.
        ("max", "8e+0", Some(2), false),
        ("max", "8e2", Some(2), false),
        ("max", "8E5", Some(2), false),
        ("max", "4e0", Some(2), false),
        ("max", "0.4e1", Some(4), false),
        ("max", "1e1", Some(2), false),
        ("max", "3e+1", Some(3), false),
        ("max", "1e400", Some(2), false),
        // A leading zero of the exponent changes nothing.
        ("max", "3e0001", Some(5), false),
        ("max", "3e000", None, true),
        ("max", "3.0E+0", None, true),
        ("max", "30e-1", None, true),
        ("max", "8e-1", None, true),
        ("max", "0e5", None, true),
        // No exponent yet, or one that may still be negative: alive until the number ends.
        ("max", "8", None, false),
        ("max", "8000", None, false),
        ("max", "8e-0", None, false),
        ("below", "3e0", Some(2), false),
        ("below", "3e+", Some(2), false),
        ("below", "2.9e0", None, true),
        // A negative number's exponent makes it smaller: a minimum.
        ("min", "-3e+0", Some(3), false),
        ("min", "-0.26e1", Some(6), false),
        ("min", "-2.5e0", None, true),
        ("min", "-3e-1", None, true),
        ("min", "9e9", None, true),
        // A mantissa of zeros is zero whatever follows: at its `e`.
        ("pos", "0e5", Some(1), false),
        ("pos", "0.00E-5", Some(4), false),
        ("pos", "0.001e-2", None, true),
        ("pos", "0", None, false),
        // So is a number whose negative exponent makes it zero: at the digit that does (near
        // the edge, as its text reads: `2e-324` is zero, `3e-324` the least `f64`).
        ("pos", "1e-325", Some(5), false),
        ("pos", "1e-3250", Some(5), false),
        ("pos", "2e-324", Some(5), false),
        ("pos", "3e-324", None, true),
        ("pos", "1e-323", None, true),
        ("pos", "123.4e-327", Some(9), false),
        ("pos", "123.4e-0326", Some(10), false),
        ("pos", "123.4e-0324", None, true),
        ("pos", "0.00000001e-318", Some(14), false),
        ("step", "7e-400", None, true),
        ("min", "-3e-400", None, true),
        // A negative exponent only makes the number smaller in magnitude: the text so far, read
        // as if it ended there (`e-` as `e-0`), is the most it may still be, and a positive
        // number that breaks a `minimum` there breaks it for good.
        ("count", "5e-1", Some(3), false),
        ("count", "50e-1", None, true),
        ("count", "50e-0", None, true),
        ("count", "0.5e-", Some(4), false),
        ("count", "2e-01", Some(4), false),
        // Beside `multipleOf` (whose own verdict waits for the end).
        ("step", "5e2", Some(2), false),
        ("step", "5e1", None, true),
        ("step", "15e+0", None, true),
        // Judged with it where the exponent settles both: `1.1e1` is 11, no multiple of 5, and
        // `1.1e10` and on are past 100; `1.3e+` is 1.3, 13, then past 100.
        ("step", "1.1e1", Some(4), false),
        ("step", "1.3e+1", Some(4), false),
        ("step", "1.5e+1", None, true),
        ("step", "0.5e2", None, true),
        ("list", "2e1", Some(2), false),
        ("list", "1e1", None, true),
        // An integer whose bounds leave zero out: the least integer its mantissa may still read
        // as, the smaller of its significant digits and those plus one, without trailing zeros
        // (`119` may be 12, as `119.99999999999999999e-1`; `101` nothing below 101).
        ("count", "101", Some(2), false),
        ("count", "1010", Some(2), false),
        ("count", "10.1", Some(3), false),
        ("count", "100.5", Some(4), false),
        ("count", "18446744073709551615", Some(2), false),
        ("count", "119", None, false),
        ("count", "119.99999999999999999e-1", None, true),
        ("count", "1000e-1", None, true),
        ("count", "99.9999999999999999999", None, true),
        ("count", "101e-400", Some(2), false),
        // Bounds on both sides: a positive exponent dies where no exponent its digits may still
        // become brings the number within (`e1` is 0.5, `e10` and on far past 100).
        ("count", "0.05e1", Some(5), false),
        ("count", "0.05e2", None, true),
        ("count", "0.05e+2", None, true),
        ("count", "0.00000000005e1", None, false),
        ("count", "0.00000000005e11", None, true),
        ("count", "0.0000000000000000000005e1", Some(25), false),
        ("count", "0.0000000000000000000005e22", None, true),
        // Where zero is within them, any mantissa may still read as it (`101e-400` is 0).
        ("open", "101", None, false),
        ("open", "101e-400", None, true),
        ("small", "7", Some(0), false),
        ("small", "5", Some(0), false),
        ("small", "49", Some(1), false),
        ("small", "4", None, true),
        ("small", "0.4e1", None, true),
    ];
    for (prop, number, early, valid) in &cases {
        let (prefix, want) = placed::<Sizes, SizesLean>(prop, number, *early, *valid);
        if *prop == "max" {
            // At the root, under `not` and in an `anyOf` whose branches both die (the general
            // automaton's: the same death).
            assert_eq!(sure_dies_at::<SizesRoot>(number), *early, "{number}");
            let odd = format!(r#"{{"odd": {number}}}"#);
            let shift = |w: usize| w - prefix + 8;
            if *number != "3e000" && *number != "3.0E+0" {
                assert_eq!(sure_dies_at::<SizesLean>(&odd), want.map(shift), "{odd}");
            }
            let either = format!(r#"{{"either": {number}}}"#);
            assert_eq!(sure_dies_at::<SizesLean>(&either), want.map(|w| w - prefix + 11), "{either}");
        }
    }
    // A fragment that ends inside a dead mantissa, or in the exponent after it, dies in that
    // fragment, at the mantissa's byte.
    for text in [
        &br#"{"count": 101"#[..],
        br#"{"count": 101."#,
        br#"{"count": 101e-"#,
        br#"{"count": 1010.5"#,
        br#"{"small": 49"#,
    ] {
        // (`101e-` may still read as zero, which `minimum: 1` refuses.)
        for dead in [Sizes::stream().feed(text), SizesLean::stream().feed(text)] {
            let Progress::Dead(d) = dead else { panic!("{}: alive", String::from_utf8_lossy(text)) };
            assert_eq!(d.offset, if text.starts_with(br#"{"small"#) { 11 } else { 12 });
            assert_eq!(
                d.violation().map(toolgate::Violation::keyword),
                Some(if text.starts_with(br#"{"small"#) { "exclusiveMaximum" } else { "maximum" })
            );
        }
    }
    // A negative exponent only makes a number smaller in magnitude: a positive one below a
    // range's `minimum` at its `-` (read as `e-0`), or at the digit that takes it there; at its
    // `e` where neither sign leads within (`0.5e1` is 5, `0.5e2` 50).
    assert_eq!(sure_dies_at::<SplitRange>("0.5e-400"), Some(3));
    assert_eq!(sure_dies_at::<SplitRange>("2.1e-1"), Some(4));
    assert_eq!(sure_dies_at::<SplitRange>("25e-1"), Some(4));
    assert_eq!(sure_dies_at::<SplitRange>("25e-00 "), None);
    // The two parts' bounds are judged together: a range its powers of ten jump over is left
    // at the byte that leaves it, the `e` where neither sign reaches it (`0.5712e1` is 5.712,
    // `e2` 57.12, `e-1` 0.05712; `754e-1` 75.4, `e-2` 7.54, `e+0` 754).
    assert_eq!(sure_dies_at::<SplitRange>("0.5712e+1"), Some(6));
    assert_eq!(sure_dies_at::<SplitRange>("754E-1"), Some(3));
    assert_eq!(sure_dies_at::<SplitRange>("75.4E-1"), Some(4));
    assert_eq!(sure_dies_at::<SplitRange>("250e-1 "), None);
    assert_eq!(sure_dies_at::<SplitRange>("0.25e+2 "), None);
    let Progress::Dead(d) = SplitRange::stream().feed(b"754E-") else { panic!("alive") };
    assert_eq!(d.violation().map(toolgate::Violation::keyword), Some("maximum"));
    assert_eq!(sure_dies_at::<SplitRange>("2.5e+1"), None);
    // `3` is the `not`'s: valid as 3e000, still.
    assert!(SizesLean::is_valid_json(r#"{"odd": 3e000}"#));
    // A number below one branch's exclusive maximum lives: -8e+5 is below -5.
    assert_eq!(sure_dies_at::<SizesLean>(r#"{"either": -8e+5}"#), None);
    assert!(toolgate::Stream::<Sizes>::__flat());
    assert!(toolgate::Stream::<SizesLean>::__lean(), "lean");
    assert!(!toolgate::Stream::<SizesLean>::__flat(), "not flat");
    // The explanation: the bound, at the byte, with the number so far.
    for (text, keyword, offset) in [
        (r#"{"max": 8e+"#, "maximum", 10),
        (r#"{"below": 3e0"#, "exclusiveMaximum", 12),
        (r#"{"min": -3e+"#, "minimum", 11),
        (r#"{"pos": 0e"#, "exclusiveMinimum", 9),
    ] {
        for dead in [Sizes::stream().feed(text.as_bytes()), SizesLean::stream().feed(text.as_bytes())] {
            let Progress::Dead(d) = dead else { panic!("{text}: alive") };
            assert_eq!(d.offset, offset, "{text}");
            let v = d.violation().unwrap_or_else(|| panic!("{text}: no violation"));
            assert_eq!(v.keyword(), keyword, "{text}");
            assert!(v.to_string().contains('…'), "{text}: {v}");
        }
    }
    // A token mask lets a model write only an exponent that may still keep the number within.
    assert_eq!(masks_after::<Sizes>(&[br#"{"max": 8"#, b"e"]), [vec![2, 3, 5, 6], vec![1]]);
}

/// The tokens of `+`, `-`, `0`, `1`, `}`, `e`, `5` (by index) that a stream of `T` allows after
/// each of `pieces`, fed in turn.
fn masks_after<T: Tool>(pieces: &[&[u8]]) -> Vec<Vec<usize>> {
    let vocab = toolgate::Vocabulary::new(["+", "-", "0", "1", "}", "e", "5"]);
    let mut mask = toolgate::TokenMask::new(&vocab);
    let mut s = T::stream();
    let mut out = Vec::new();
    for piece in pieces {
        s.feed(piece);
        s.allowed(&vocab, &mut mask);
        out.push(mask.allowed().collect());
    }
    out
}

tool_schema! {
    /// A union of objects the flat reader reads, given an array (one branch with a
    /// `maxProperties`, which its members never make sure of the object).
    pub struct LooseUnion = {
        "type": "object",
        "properties": {"u": {"oneOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"], "maxProperties": 2}
        ]}}
    };
}

tool_schema! {
    /// "Exactly one of url and path" through `$ref`s.
    pub struct RefUnion = {
        "type": "object",
        "properties": {"u": {"oneOf": [{"$ref": "#/$defs/url"}, {"$ref": "#/$defs/path"}]}},
        "$defs": {
            "url": {"properties": {"url": {"type": "string"}}, "required": ["url"]},
            "path": {"properties": {"path": {"type": "string"}}, "required": ["path"]}
        }
    };
}

tool_schema! {
    /// The same where both branches ask only for members and their values: the automaton reads it.
    pub struct SureUnion = {
        "type": "object",
        "properties": {"u": {"oneOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "integer"}}, "required": ["b"]}
        ]}}
    };
}

#[test]
fn a_flat_union_of_objects_dies_where_both_branches_take_the_value() {
    assert!(toolgate::Stream::<LooseUnion>::__flat());
    // Neither branch says anything of arrays or strings: both take every one, at its first byte.
    for text in [r#"{"u": [1]}"#, r#"{"u": "s"}"#] {
        assert_eq!(sure_dies_at::<LooseUnion>(text), Some(6), "{text}");
    }
    lives_for::<LooseUnion>(r#"{"u": {"a": "x"}}"#);
    // Both objects, which their values decide: where the object closes.
    let both = r#"{"u": {"a": "x", "b": 1}}"#;
    assert_eq!(sure_dies_at::<LooseUnion>(both), Some(both.len() - 2));
    lives_for::<LooseUnion>(r#"{"u": {"a": "x", "b": 1, "c": 2}}"#);
    // Where both branches become sure of the object by its members, the automaton finds it dead
    // there: at the first byte of a string `a` after an integer `b`, at the end of an integer `b`
    // after a string `a`.
    assert!(!toolgate::Stream::<SureUnion>::__flat());
    dies_for::<SureUnion>(r#"{"u": {"b": 1, "a": "x"}}"#, "\"x", 0, "oneOf");
    dies_for::<SureUnion>(r#"{"u": {"a": "x", "b": 1 , "c": 2}}"#, "1 ", 1, "oneOf");
    lives_for::<SureUnion>(r#"{"u": {"a": "x", "b": 1.5}}"#);
    // A branch that is a `$ref` alone is sure where its target is.
    dies_for::<RefUnion>(r#"{"u": {"path": "a", "url": "b"}}"#, "\"b", 0, "oneOf");
    dies_for::<RefUnion>(r#"{"u": {"url": "b", "x": 1, "path": "a"}}"#, "\"a", 0, "oneOf");
    lives_for::<RefUnion>(r#"{"u": {"path": "a", "url": 1}}"#);
}
