//! References, combinators, conditionals, arrays and objects beyond the basics, patterns.

use serde_json::{json, Value};
use toolgate::{tool_schema, Tool};

fn check<T: Tool>(valid: &[Value], invalid: &[(Value, &str, &str)]) {
    for v in valid {
        assert!(T::is_valid(v), "{} should accept {v}: {:?}", T::NAME, T::validate(v));
        assert!(T::from_value(v).is_ok(), "{} should build from {v}", T::NAME);
    }
    for (v, pointer, keyword) in invalid {
        assert!(!T::is_valid(v), "{} should reject {v}", T::NAME);
        let errs = T::validate(v).expect_err("invalid");
        assert!(
            errs.iter().any(|e| e.pointer == *pointer && e.keyword() == *keyword),
            "{} on {v}: expected `{keyword}` at `{pointer}`, got:\n{errs}",
            T::NAME
        );
    }
}

tool_schema! {
    pub struct Tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "pattern": "^[a-z]+$"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    "parent": {"$ref": "#/$defs/node"}
                },
                "required": ["name"],
                "additionalProperties": false
            }
        },
        "$ref": "#/$defs/node"
    };
}

#[test]
fn recursive_refs_and_patterns() {
    check::<Tree>(
        &[json!({"name": "a"}), json!({"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]})],
        &[
            (json!({"name": "A"}), "/name", "pattern"),
            (
                json!({"name": "a", "children": [{"name": "b", "children": [{"name": "9"}]}]}),
                "/children/0/children/0/name",
                "pattern",
            ),
            (json!({"name": "a", "children": [{}]}), "/children/0/name", "required"),
        ],
    );
    let t =
        Tree::from_value(&json!({"name": "a", "children": [{"name": "b"}], "parent": {"name": "p"}})).expect("valid");
    let child: &Node = &t.0.children.as_ref().expect("children")[0];
    assert_eq!(child.name, "b");
    let parent: Option<&Box<Node>> = t.0.parent.as_ref();
    assert_eq!(parent.map(|p| p.name.as_str()), Some("p"));
}

tool_schema! {
    pub struct Shapes = {
        "type": "object",
        "properties": {
            "any": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer"}]},
            "one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 2}]},
            "all": {"allOf": [{"minimum": 1}, {"maximum": 3}]},
            "not": {"not": {"type": "null"}},
            "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "cond": {
                "if": {"properties": {"kind": {"const": "circle"}}, "required": ["kind"]},
                "then": {"required": ["radius"]},
                "else": {"required": ["width"]}
            }
        }
    };
}

#[test]
fn combinators_and_conditionals() {
    check::<Shapes>(
        &[
            json!({"any": "ab", "one": 1, "all": 2, "not": 0, "maybe": null, "cond": {"kind": "circle", "radius": 1}}),
            json!({"any": 5, "one": 2.5, "maybe": "x", "cond": {"kind": "square", "width": 1}}),
        ],
        &[
            (json!({"any": "abc"}), "/any", "anyOf"),
            (json!({"one": 3}), "/one", "oneOf"),
            (json!({"one": 1.5}), "/one", "oneOf"),
            (json!({"all": 4}), "/all", "maximum"),
            (json!({"not": null}), "/not", "not"),
            (json!({"cond": {"kind": "circle"}}), "/cond/radius", "required"),
            (json!({"cond": {}}), "/cond/width", "required"),
        ],
    );
    let s = Shapes::from_value(&json!({"maybe": "x"})).expect("valid");
    let maybe: Option<String> = s.maybe;
    assert_eq!(maybe.as_deref(), Some("x"));
}

tool_schema! {
    pub struct Arrays2 = {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "integer"}],
        "items": {"type": "boolean"},
        "contains": {"const": true},
        "maxContains": 2
    };
}

#[test]
fn prefix_items_and_contains() {
    check::<Arrays2>(
        &[json!(["a", 1, true]), json!(["a", 1, true, false, true])],
        &[
            (json!(["a", "b", true]), "/1", "type"),
            (json!(["a", 1, 2]), "/2", "type"),
            (json!(["a", 1, false]), "", "contains"),
            (json!(["a", 1, true, true, true]), "", "contains"),
        ],
    );
}

tool_schema! {
    pub struct Objects2 = {
        "type": "object",
        "properties": {"credit_card": {"type": "string"}, "billing_address": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "integer"}},
        "propertyNames": {"maxLength": 15},
        "dependentRequired": {"credit_card": ["billing_address"]},
        "dependentSchemas": {"billing_address": {"properties": {"zip": {"type": "string"}}, "required": ["zip"]}},
        "unevaluatedProperties": false
    };
}

#[test]
fn object_applicators_and_unevaluated_properties() {
    check::<Objects2>(
        &[json!({"x-a": 1}), json!({"credit_card": "1", "billing_address": "x", "zip": "1"})],
        &[
            (json!({"x-a": "1"}), "/x-a", "type"),
            (json!({"a-very-long-name-indeed": 1}), "/a-very-long-name-indeed", "propertyNames"),
            (json!({"credit_card": "1"}), "/billing_address", "dependentRequired"),
            (json!({"billing_address": "x"}), "/zip", "required"),
            (json!({"other": 1}), "/other", "unevaluatedProperties"),
        ],
    );
}

tool_schema! {
    /// `propertyNames` beside an `enum` without strings elsewhere in the schema: the check of a
    /// name against every node once generated `matches!(x, )` for it, a compile error (stop 47).
    pub struct NamesBesideNumbers = {
        "type": "object",
        "properties": {
            "level": {"enum": [1, 2.5, null]},
            "keyed": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$", "maxLength": 4}, "additionalProperties": {"type": "integer"}},
            "numbered": {"type": "object", "propertyNames": {"enum": [1, 2]}}
        }
    };
}

#[test]
fn property_names_beside_an_enum_without_strings() {
    check::<NamesBesideNumbers>(
        &[json!({"level": 2.5, "keyed": {"ab": 1}, "numbered": {}})],
        &[
            (json!({"keyed": {"abcde": 1}}), "/keyed/abcde", "propertyNames"),
            (json!({"keyed": {"A": 1}}), "/keyed/A", "propertyNames"),
            (json!({"numbered": {"1": true}}), "/numbered/1", "propertyNames"),
            (json!({"level": 3}), "/level", "enum"),
        ],
    );
}

tool_schema! {
    pub struct Draft07 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"pos": {"type": "integer", "minimum": 1}},
        "type": "object",
        "properties": {
            "n": {"$ref": "#/definitions/pos", "maximum": 0},
            "pair": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}
        },
        "dependencies": {"n": ["pair"]}
    };
}

#[test]
fn draft07_meanings() {
    // `$ref` overrides its siblings in draft-07: `maximum: 0` is ignored.
    check::<Draft07>(
        &[json!({"n": 5, "pair": ["a"]})],
        &[
            (json!({"n": 0, "pair": []}), "/n", "minimum"),
            (json!({"pair": ["a", "b"]}), "/pair/1", "false"),
            (json!({"n": 1}), "/pair", "dependentRequired"),
        ],
    );
}

tool_schema! {
    pub struct Search = {
        "type": "object",
        "properties": {
            "query": {"oneOf": [
                {"type": "string", "minLength": 1},
                {"type": "array", "items": {"type": "string"}},
                {"$ref": "#/$defs/range"},
                {"type": "null"}
            ]},
            "limit": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 100}, {"type": "boolean"}]}
        },
        "$defs": {
            "range": {"type": "object", "properties": {"from": {"type": "integer", "minimum": 0, "maximum": 9}}, "required": ["from"]}
        }
    };
}

#[test]
fn branches_told_apart_by_type_become_an_enum() {
    let s = Search::from_value(&json!({"query": ["a", "b"], "limit": 5})).expect("valid");
    assert_eq!(s.query, Some(SearchQuery::Array(vec!["a".to_owned(), "b".to_owned()])));
    assert_eq!(s.limit, Some(SearchLimit::Integer(5)));
    let s = Search::from_value(&json!({"query": {"from": 3}, "limit": true})).expect("valid");
    assert_eq!(s.query, Some(SearchQuery::Range(Range { from: 3 })));
    assert_eq!(s.limit, Some(SearchLimit::Boolean(true)));
    let s = Search::from_value(&json!({"query": null})).expect("valid");
    assert_eq!(s.query, None);
    assert!(Search::from_value(&json!({"query": ""})).is_err());
    let back = serde_json::to_value(Search::from_value(&json!({"query": "x", "limit": false})).expect("valid"))
        .expect("serialize");
    assert_eq!(back, json!({"query": "x", "limit": false}));
}
