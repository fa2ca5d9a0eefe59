//! The typed mapping: what Rust type each schema shape becomes, and that the struct round-trips.

use std::collections::BTreeMap;

use serde_json::{json, Number, Value};
use toolgate::{tool_schema, Tool};

tool_schema! {
    /// Read a file.
    pub struct ReadFile = {
        "type": "object",
        "description": "ignored: the doc comment wins",
        "properties": {
            "path": {"type": "string", "description": "Path of the file."},
            "max_lines": {"type": "integer", "minimum": 1, "maximum": 10000},
            "offset": {"type": "integer"},
            "huge": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            "ratio": {"type": "number"},
            "options": {
                "type": "object",
                "properties": {
                    "follow_symlinks": {"type": "boolean"},
                    "encoding": {"enum": ["utf-8", "latin-1"]}
                },
                "required": ["follow_symlinks"],
                "additionalProperties": false
            },
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": ["string", "null"]},
            "type": {"type": "string"},
            "fromUnit": {"type": "string"},
            "anything": {},
            "nothing": {"type": "null"},
            "env": {"type": "object", "additionalProperties": {"type": "string"}},
            "level": {"enum": ["low", "high", null]}
        },
        "required": ["path", "note"],
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 9}
    };
}

tool_schema! {
    #[tool(name = "pick-one")]
    pub struct Pick = {"description": "Pick a colour.", "enum": ["red", "green", "light blue", "2nd"]};
}

tool_schema! {
    pub struct Count = {"type": "integer", "minimum": 0, "maximum": 10};
}

#[test]
fn fields_have_the_mapped_types() {
    let v = json!({
        "path": "/etc/hosts", "max_lines": 10, "offset": -5, "huge": 18_446_744_073_709_551_615_u64,
        "ratio": 0.5, "options": {"follow_symlinks": true, "encoding": "utf-8"}, "tags": ["a", "b"],
        "note": null, "type": "t", "fromUnit": "km", "anything": [1, {"x": 2}], "nothing": null,
        "env": {"HOME": "/root"}, "level": "high", "x-extra": 3
    });
    let r = ReadFile::from_value(&v).expect("valid");
    let path: &String = &r.path;
    let max_lines: Option<i64> = r.max_lines;
    let offset: Option<&Number> = r.offset.as_ref();
    let huge: Option<u64> = r.huge;
    let ratio: Option<f64> = r.ratio;
    let options: &ReadFileOptions = r.options.as_ref().expect("present");
    let follow: bool = options.follow_symlinks;
    let encoding: Option<ReadFileOptionsEncoding> = options.encoding;
    let tags: Option<&Vec<String>> = r.tags.as_ref();
    let note: &Option<String> = &r.note;
    let ty: Option<&String> = r.r#type.as_ref();
    let from_unit: Option<&String> = r.from_unit.as_ref();
    let anything: Option<&Value> = r.anything.as_ref();
    let nothing: Option<()> = r.nothing;
    let env: Option<&BTreeMap<String, String>> = r.env.as_ref();
    let level: Option<ReadFileLevel> = r.level;
    let extra: &BTreeMap<String, i64> = &r.extra;

    assert_eq!(path, "/etc/hosts");
    assert_eq!(max_lines, Some(10));
    assert_eq!(offset.and_then(Number::as_i64), Some(-5));
    assert_eq!(huge, Some(u64::MAX));
    assert_eq!(ratio, Some(0.5));
    assert!(follow);
    assert_eq!(encoding, Some(ReadFileOptionsEncoding::Utf8));
    assert_eq!(encoding.map(|e| e.as_str()), Some("utf-8"));
    assert_eq!(ReadFileOptionsEncoding::Latin1.to_string(), "latin-1");
    assert_eq!(tags.map(Vec::len), Some(2));
    assert_eq!(note, &None);
    assert_eq!(ty.map(String::as_str), Some("t"));
    assert_eq!(from_unit.map(String::as_str), Some("km"));
    assert_eq!(anything, Some(&json!([1, {"x": 2}])));
    assert_eq!(nothing, Some(()));
    assert_eq!(env.and_then(|e| e.get("HOME")).map(String::as_str), Some("/root"));
    assert_eq!(level, Some(ReadFileLevel::High));
    assert_eq!(extra.get("x-extra"), Some(&3));

    // Serialising gives back the same JSON value.
    let back = serde_json::to_value(&r).expect("serialize");
    assert!(toolgate::__private::json_eq(&back, &v), "{back} != {v}");
}

#[test]
fn names_and_descriptions() {
    assert_eq!(ReadFile::NAME, "read_file");
    assert_eq!(ReadFile::DESCRIPTION, "Read a file.");
    assert_eq!(Pick::NAME, "pick-one");
    assert_eq!(Pick::DESCRIPTION, "Pick a colour.");
    assert_eq!(Pick::SCHEMA, r#"{"description":"Pick a colour.","enum":["red","green","light blue","2nd"]}"#);
    assert_eq!(Pick::LightBlue.as_str(), "light blue");
    assert_eq!(Pick::V2nd.as_str(), "2nd");
    assert_eq!(Pick::from_json(r#""green""#).ok(), Some(Pick::Green));
}

#[test]
fn a_root_that_is_not_an_object_is_a_newtype() {
    assert_eq!(Count::from_json("7").ok(), Some(Count(7)));
    assert!(Count::from_json("11").is_err());
    assert_eq!(serde_json::to_string(&Count(3)).ok().as_deref(), Some("3"));
}

#[test]
fn deserialize_validates() {
    let ok: Result<Pick, _> = serde_json::from_str(r#""red""#);
    assert_eq!(ok.ok(), Some(Pick::Red));
    let bad: Result<Pick, _> = serde_json::from_str(r#""blue""#);
    let msg = bad.expect_err("invalid").to_string();
    assert!(msg.contains("expected one of"), "{msg}");
    let dup: Result<ReadFile, _> = serde_json::from_str(r#"{"path": "a", "path": "b", "note": null}"#);
    assert!(dup.expect_err("duplicate").to_string().contains("duplicate key"));
    let nested: Result<Vec<Count>, _> = serde_json::from_str("[1, 2, 30]");
    assert!(nested.is_err());
}

#[test]
fn optional_absent_and_null() {
    let r = ReadFile::from_value(&json!({"path": "p", "note": "n"})).expect("valid");
    assert_eq!(r.note.as_deref(), Some("n"));
    assert_eq!(r.max_lines, None);
    assert!(r.extra.is_empty());
    assert_eq!(serde_json::to_value(&r).ok(), Some(json!({"path": "p", "note": "n"})));
    // `note` is required even though it may be null.
    assert!(ReadFile::from_value(&json!({"path": "p"})).is_err());
}

// ---------------------------------------------------------------------------------------------
// Tagged unions: `oneOf`/`anyOf` of object schemas told apart by a required `const` property.

tool_schema! {
    pub struct Draw = {
        "type": "object",
        "properties": {
            "shape": {"oneOf": [
                {"$ref": "#/$defs/circle"},
                {"$ref": "#/$defs/rect"},
                {
                    "type": "object",
                    "properties": {"kind": {"enum": ["dot"]}, "at": {"type": "integer", "minimum": 0, "maximum": 99}},
                    "required": ["kind"],
                    "additionalProperties": false
                }
            ]},
            "outline": {"anyOf": [{"$ref": "#/$defs/circle"}, {"$ref": "#/$defs/rect"}, {"type": "null"}]},
            "last": {"$ref": "#/$defs/circle"}
        },
        "required": ["shape"],
        "$defs": {
            "circle": {
                "type": "object",
                "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "minimum": 0}},
                "required": ["kind", "radius"],
                "additionalProperties": false
            },
            "rect": {
                "type": "object",
                "description": "A rectangle.",
                "properties": {
                    "kind": {"type": "string", "const": "rect"},
                    "w": {"type": "number"},
                    "h": {"type": "number"},
                    "label": {"type": "string"}
                },
                "required": ["kind", "w", "h"]
            }
        }
    };
}

#[test]
fn a_const_tag_selects_the_variant() {
    let d = Draw::from_value(&json!({"shape": {"kind": "circle", "radius": 2.5}})).expect("valid");
    // The payload struct has no `kind` field: the literal below lists every field.
    assert_eq!(d.shape, DrawShape::Circle(Circle { radius: 2.5 }));
    assert_eq!(d.outline, None);
    assert_eq!(d.last, None);

    let d = Draw::from_value(
        &json!({"shape": {"kind": "rect", "w": 1, "h": 2}, "outline": {"kind": "circle", "radius": 0}}),
    )
    .expect("valid");
    assert_eq!(d.shape, DrawShape::Rect(Rect { w: 1.0, h: 2.0, label: None }));
    let outline: Option<DrawOutline> = d.outline;
    assert_eq!(outline, Some(DrawOutline::Circle(Circle { radius: 0.0 })));

    // An inline branch is named after its tag value.
    let d = Draw::from_value(&json!({"shape": {"kind": "dot", "at": 7}})).expect("valid");
    assert_eq!(d.shape, DrawShape::Dot(DrawShapeDot { at: Some(7) }));
}

#[test]
fn the_tag_comes_back_when_serialising() {
    for v in [
        json!({"shape": {"kind": "circle", "radius": 2.5}}),
        json!({"shape": {"kind": "rect", "w": 1.5, "h": 2.0, "label": "door"}, "outline": {"kind": "rect", "w": 0.5, "h": 0.5}}),
        json!({"shape": {"kind": "dot"}, "outline": {"kind": "circle", "radius": 1.0}, "last": {"kind": "circle", "radius": 3.0}}),
    ] {
        let d = Draw::from_value(&v).expect("valid");
        let back = serde_json::to_value(&d).expect("serialize");
        assert!(toolgate::__private::json_eq(&back, &v), "{back} != {v}");
        assert!(Draw::is_valid(&back));
    }
    // The struct writes its tag wherever it is used, also outside the union (`last`), and a value
    // built by hand serialises to a valid instance.
    let d = Draw {
        shape: DrawShape::Dot(DrawShapeDot { at: None }),
        outline: Some(DrawOutline::Rect(Rect { w: 1.0, h: 2.0, label: None })),
        last: Some(Circle { radius: 4.0 }),
    };
    let v = serde_json::to_value(&d).expect("serialize");
    assert_eq!(
        v,
        json!({
            "shape": {"kind": "dot"},
            "outline": {"kind": "rect", "w": 1.0, "h": 2.0},
            "last": {"kind": "circle", "radius": 4.0}
        })
    );
    assert_eq!(Draw::from_value(&v).ok(), Some(d));
}

fn pointers(r: Result<impl std::fmt::Debug, toolgate::Violations>) -> Vec<String> {
    r.expect_err("invalid").iter().map(|v| v.pointer.clone()).collect()
}

#[test]
fn an_instance_outside_every_branch_is_rejected() {
    // Unknown tag, a member a closed branch forbids, a branch's own constraint, no tag at all.
    for bad in [
        json!({"shape": {"kind": "hexagon"}}),
        json!({"shape": {"kind": "circle", "radius": 1, "w": 2}}),
        json!({"shape": {"kind": "circle", "radius": -1}}),
        json!({"shape": {"radius": 1}}),
        json!({"shape": {"kind": "rect", "w": 1}}),
        json!({"shape": null}),
    ] {
        let p = pointers(Draw::from_value(&bad));
        assert!(!p.is_empty() && p.iter().all(|p| p.starts_with("/shape")), "{bad}: {p:?}");
    }
    assert_eq!(
        pointers(Draw::from_value(&json!({"shape": {"kind": "dot"}, "outline": {"kind": "dot"}}))),
        ["/outline"]
    );
    let err = Draw::from_json(r#"{"shape": {"kind": "circle", "radius": "big"}}"#).expect_err("invalid");
    assert!(matches!(err, toolgate::Error::Invalid(_)), "{err:?}");
}

tool_schema! {
    /// What to do with a file (a zod `discriminatedUnion` as a root).
    pub struct FileAction = {"anyOf": [
        {
            "type": "object",
            "properties": {"action": {"type": "string", "const": "move"}, "to": {"type": "string", "minLength": 1}},
            "required": ["action", "to"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "properties": {"action": {"type": "string", "const": "delete"}, "force": {"type": "boolean"}},
            "required": ["action"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "properties": {"action": {"type": "string", "const": "set-mode"}, "mode": {"type": "integer", "minimum": 0, "maximum": 511}},
            "required": ["action", "mode"],
            "additionalProperties": false
        }
    ]};
}

#[test]
fn a_tagged_root_is_the_enum_itself() {
    assert_eq!(
        FileAction::from_json(r#"{"action": "move", "to": "archive/x"}"#).ok(),
        Some(FileAction::Move(FileActionMove { to: "archive/x".to_owned() }))
    );
    assert_eq!(
        FileAction::from_json(r#"{"force": true, "action": "delete"}"#).ok(),
        Some(FileAction::Delete(FileActionDelete { force: Some(true) }))
    );
    assert_eq!(
        FileAction::from_json(r#"{"action": "set-mode", "mode": 420}"#).ok(),
        Some(FileAction::SetMode(FileActionSetMode { mode: 420 }))
    );
    // serde's internally tagged layout: the tag first, then the fields.
    let text = serde_json::to_string(&FileAction::Move(FileActionMove { to: "a".to_owned() })).expect("serialize");
    assert_eq!(text, r#"{"action":"move","to":"a"}"#);
    let text = serde_json::to_string(&FileAction::Delete(FileActionDelete { force: None })).expect("serialize");
    assert_eq!(text, r#"{"action":"delete"}"#);
    // Deserialize validates against the whole schema.
    let ok: FileAction = serde_json::from_str(r#"{"action": "set-mode", "mode": 7}"#).expect("valid");
    assert_eq!(ok, FileAction::SetMode(FileActionSetMode { mode: 7 }));
    for bad in [
        r#"{"action": "move", "to": ""}"#,
        r#"{"action": "move"}"#,
        r#"{"action": "delete", "to": "x"}"#,
        r#"{"action": "set-mode", "mode": 512}"#,
        r#"{"action": "copy"}"#,
        r#""move""#,
    ] {
        assert!(serde_json::from_str::<FileAction>(bad).is_err(), "{bad}");
        assert!(!FileAction::is_valid_json(bad), "{bad}");
    }
    assert_eq!(FileAction::NAME, "file_action");
}

tool_schema! {
    /// Branches without `type` are objects because the union says so.
    pub struct Event = {
        "type": "object",
        "oneOf": [
            {"properties": {"type": {"const": "click"}, "x": {"type": "integer", "minimum": 0, "maximum": 4096}}, "required": ["type", "x"]},
            {"properties": {"type": {"enum": ["key"]}, "key": {"type": "string"}}, "required": ["type", "key"]}
        ]
    };
}

#[test]
fn branches_typed_by_the_union() {
    assert_eq!(Event::from_json(r#"{"type": "click", "x": 3}"#).ok(), Some(Event::Click(EventClick { x: 3 })));
    assert_eq!(
        Event::from_json(r#"{"type": "key", "key": "Enter", "repeat": 2}"#).ok(),
        Some(Event::Key(EventKey { key: "Enter".to_owned() }))
    );
    assert!(Event::from_json(r#""click""#).is_err());
    assert!(Event::from_json(r#"{"type": "click"}"#).is_err());
    assert_eq!(serde_json::to_value(Event::Click(EventClick { x: 1 })).ok(), Some(json!({"type": "click", "x": 1})));
}

tool_schema! {
    /// A recursive tagged union: `left`/`right` refer back to the enum being defined.
    pub struct Calc = {
        "$ref": "#/$defs/expr",
        "$defs": {
            "expr": {"oneOf": [{"$ref": "#/$defs/num"}, {"$ref": "#/$defs/add"}]},
            "num": {"type": "object", "properties": {"op": {"const": "num"}, "value": {"type": "number"}}, "required": ["op", "value"]},
            "add": {
                "type": "object",
                "properties": {"op": {"const": "add"}, "left": {"$ref": "#/$defs/expr"}, "right": {"$ref": "#/$defs/expr"}},
                "required": ["op", "left", "right"]
            }
        }
    };
}

fn eval(e: &Expr) -> f64 {
    match e {
        Expr::Num(n) => n.value,
        Expr::Add(a) => eval(&a.left) + eval(&a.right),
    }
}

#[test]
fn a_recursive_tagged_union() {
    let v = json!({"op": "add", "left": {"op": "num", "value": 1}, "right": {"op": "add", "left": {"op": "num", "value": 2}, "right": {"op": "num", "value": 3.5}}});
    let c = Calc::from_value(&v).expect("valid");
    let left: Box<Expr> = match &c.0 {
        Expr::Add(a) => a.left.clone(),
        Expr::Num(_) => panic!("not an addition"),
    };
    assert_eq!(*left, Expr::Num(Num { value: 1.0 }));
    assert!((eval(&c.0) - 6.5).abs() < f64::EPSILON);
    let back = serde_json::to_value(&c).expect("serialize");
    assert!(toolgate::__private::json_eq(&back, &v), "{back} != {v}");
    assert_eq!(
        pointers(Calc::from_value(&json!({"op": "add", "left": {"op": "num", "value": 1}, "right": {"op": "num"}}))),
        [""]
    );
}

// ---------------------------------------------------------------------------------------------
// Closed branches told apart by a required property that no other branch declares.

tool_schema! {
    /// Read from a path or a URL, never both.
    pub struct Fetch = {
        "type": "object",
        "properties": {
            "from": {"oneOf": [
                {
                    "type": "object",
                    "properties": {"path": {"type": "string"}, "encoding": {"enum": ["utf-8", "latin-1"]}},
                    "required": ["path"],
                    "additionalProperties": false
                },
                {"$ref": "#/$defs/remote"},
                {"type": "null"}
            ]}
        },
        "required": ["from"],
        "$defs": {
            "remote": {
                "type": "object",
                "properties": {"url": {"type": "string"}, "timeout": {"type": "integer", "minimum": 1, "maximum": 60}, "encoding": {"enum": ["utf-8"]}},
                "required": ["url"],
                "additionalProperties": false
            }
        }
    };
}

tool_schema! {
    /// Open branches: `{"a": "x", "b": "y"}` matches both, so neither variant could hold it.
    pub struct OpenKeys = {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
    ]};
}

#[test]
fn a_required_key_selects_the_variant() {
    let f = Fetch::from_json(r#"{"from": {"path": "/a", "encoding": "latin-1"}}"#).expect("valid");
    assert_eq!(
        f.from,
        Some(FetchFrom::Path(FetchFromPath { path: "/a".to_owned(), encoding: Some(FetchFromPathEncoding::Latin1) }))
    );
    let f = Fetch::from_json(r#"{"from": {"timeout": 5, "url": "https://x"}}"#).expect("valid");
    assert_eq!(
        f.from,
        Some(FetchFrom::Remote(Remote { url: "https://x".to_owned(), timeout: Some(5), encoding: None }))
    );
    assert_eq!(Fetch::from_json(r#"{"from": null}"#).ok(), Some(Fetch { from: None }));
    for v in [json!({"from": {"path": "p"}}), json!({"from": {"url": "u", "encoding": "utf-8"}}), json!({"from": null})]
    {
        let back = serde_json::to_value(Fetch::from_value(&v).expect("valid")).expect("serialize");
        assert_eq!(back, v);
    }
    // Both keys, neither key, a member the branch does not declare, a branch's own constraint.
    for bad in [
        json!({"from": {"path": "p", "url": "u"}}),
        json!({"from": {"encoding": "utf-8"}}),
        json!({"from": {"path": "p", "timeout": 5}}),
        json!({"from": {"url": "u", "encoding": "latin-1"}}),
        json!({}),
    ] {
        assert!(Fetch::from_value(&bad).is_err(), "{bad}");
    }

    let o = OpenKeys::from_json(r#"{"a": "x", "b": "y"}"#).expect("valid");
    let inner: &Value = &o.0;
    assert_eq!(inner, &json!({"a": "x", "b": "y"}));
    assert!(OpenKeys::from_json(r#"{"c": 1}"#).is_err());
}

// ---------------------------------------------------------------------------------------------
// `allOf` of object schemas: one struct when the merge is exact.

tool_schema! {
    pub struct Employee = {
        "allOf": [
            {"$ref": "#/$defs/person"},
            {
                "type": "object",
                "properties": {
                    "salary": {"type": "number", "minimum": 0},
                    "manager": {"type": ["string", "null"]},
                    "name": {}
                },
                "required": ["salary", "manager"]
            }
        ],
        "properties": {"team": {"type": "string"}},
        "$defs": {
            "person": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "age": {"type": "integer", "minimum": 0, "maximum": 200},
                    "address": {"$ref": "#/$defs/address"}
                },
                "required": ["name"]
            },
            "address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
        }
    };
}

tool_schema! {
    /// `$ref` beside `properties` (draft 2020-12) merges like `allOf`; a closed base may be
    /// re-constrained by a part that declares only its properties.
    pub struct Admin = {
        "$ref": "#/$defs/user",
        "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 1000000}, "level": {"enum": ["ops", "root"]}},
        "required": ["id", "level"],
        "allOf": [{"properties": {"id": {"type": "integer", "minimum": 1, "maximum": 1000000}}}],
        "$defs": {
            "user": {
                "type": "object",
                "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 1000000}, "level": {}, "email": {"type": "string"}},
                "additionalProperties": false
            }
        }
    };
}

#[test]
fn all_of_objects_merge_into_one_struct() {
    let e = Employee::from_value(&json!({
        "name": "Ada", "age": 36, "salary": 10.5, "manager": null, "team": "core", "address": {"city": "London"}
    }))
    .expect("valid");
    // Every field with its Option-ness: required in any part → plain, nullable → Option.
    let name: &String = &e.name;
    let age: Option<i64> = e.age;
    let salary: f64 = e.salary;
    let manager: &Option<String> = &e.manager;
    let team: Option<&String> = e.team.as_ref();
    let address: Option<&Address> = e.address.as_ref();
    assert_eq!(name, "Ada");
    assert_eq!(age, Some(36));
    assert!((salary - 10.5).abs() < f64::EPSILON);
    assert_eq!(manager, &None);
    assert_eq!(team.map(String::as_str), Some("core"));
    assert_eq!(address, Some(&Address { city: "London".to_owned() }));
    let expected = Employee {
        team: Some("core".to_owned()),
        name: "Ada".to_owned(),
        age: Some(36),
        address: Some(Address { city: "London".to_owned() }),
        salary: 10.5,
        manager: None,
    };
    assert_eq!(e, expected);
    let back = serde_json::to_value(&e).expect("serialize");
    assert_eq!(
        back,
        json!({"name": "Ada", "age": 36, "salary": 10.5, "manager": null, "team": "core", "address": {"city": "London"}})
    );
    // Each part is still checked: `salary` (second part), `name` (the `$ref`), `manager` required.
    assert_eq!(pointers(Employee::from_value(&json!({"name": "A", "salary": -1, "manager": "B"}))), ["/salary"]);
    assert_eq!(pointers(Employee::from_value(&json!({"name": "", "salary": 1, "manager": "B"}))), ["/name"]);
    assert!(Employee::from_value(&json!({"name": "A", "salary": 1})).is_err());
    assert!(Employee::from_json(r#"{"name": "A", "salary": 1, "manager": "B", "team": 5}"#).is_err());
}

#[test]
fn a_ref_beside_properties_merges() {
    let a = Admin::from_json(r#"{"id": 7, "level": "ops", "email": "a@b.c"}"#).expect("valid");
    assert_eq!(a, Admin { id: 7, level: AdminLevel::Ops, email: Some("a@b.c".to_owned()) });
    assert_eq!(serde_json::to_value(&a).ok(), Some(json!({"id": 7, "level": "ops", "email": "a@b.c"})));
    // Closed by the base, required and the enum by the referring schema.
    assert!(Admin::from_json(r#"{"id": 7, "level": "ops", "x": 1}"#).is_err());
    assert!(Admin::from_json(r#"{"id": 7}"#).is_err());
    assert!(Admin::from_json(r#"{"id": 7, "level": "dev"}"#).is_err());
}

// ---------------------------------------------------------------------------------------------
// What cannot be typed exactly stays `serde_json::Value`, and is still validated.

tool_schema! {
    /// A closed part rejects the other part's property: no struct can be exact.
    pub struct ClosedMerge = {"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        {"properties": {"b": {"type": "integer"}}}
    ]};
}

tool_schema! {
    /// `n` is bounded in one part, unbounded in the other: two different Rust types.
    pub struct ClashingMerge = {"allOf": [
        {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 5}}},
        {"properties": {"n": {"type": "number"}}}
    ]};
}

tool_schema! {
    /// Two branches share the tag value: it does not tell them apart.
    pub struct SameTag = {"oneOf": [
        {"type": "object", "properties": {"k": {"const": "a"}, "x": {"type": "string"}}, "required": ["k", "x"]},
        {"type": "object", "properties": {"k": {"const": "a"}, "y": {"type": "string"}}, "required": ["k", "y"]}
    ]};
}

tool_schema! {
    /// The tag is optional in one branch: an instance without it matches that branch.
    pub struct OptionalTag = {"anyOf": [
        {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
        {"type": "object", "properties": {"k": {"const": "b"}}}
    ]};
}

tool_schema! {
    /// Branches without `type` and no `type` on the union: `"x"` is valid too.
    pub struct UntypedBranches = {"anyOf": [
        {"properties": {"k": {"const": "a"}}, "required": ["k"]},
        {"properties": {"k": {"const": "b"}}, "required": ["k"]}
    ]};
}

tool_schema! {
    pub struct Holder = {
        "type": "object",
        "properties": {
            "u": {"oneOf": [
                {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
                {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]}
            ]}
        }
    };
}

#[test]
fn inexact_shapes_stay_values_and_are_validated() {
    let c = ClosedMerge::from_json(r#"{"a": "x"}"#).expect("valid");
    let inner: &Value = &c.0;
    assert_eq!(inner, &json!({"a": "x"}));
    assert!(ClosedMerge::from_json(r#"{"a": "x", "b": 1}"#).is_err());
    assert!(ClosedMerge::from_json(r#"{"a": 1}"#).is_err());

    let c = ClashingMerge::from_json(r#"{"n": 3}"#).expect("valid");
    let inner: &Value = &c.0;
    assert_eq!(inner, &json!({"n": 3}));
    assert!(ClashingMerge::from_json(r#"{"n": 6}"#).is_err());
    assert!(ClashingMerge::from_json(r#"{"n": 2.5}"#).is_err());

    let s = SameTag::from_json(r#"{"k": "a", "x": "1"}"#).expect("valid");
    let inner: &Value = &s.0;
    assert_eq!(inner, &json!({"k": "a", "x": "1"}));
    // Both branches match: `oneOf` fails.
    assert!(SameTag::from_json(r#"{"k": "a", "x": "1", "y": "2"}"#).is_err());

    let o = OptionalTag::from_json("{}").expect("valid");
    let inner: &Value = &o.0;
    assert_eq!(inner, &json!({}));
    assert!(OptionalTag::from_json(r#"{"k": "c"}"#).is_err());

    let u = UntypedBranches::from_json(r#""x""#).expect("valid");
    assert_eq!(u.0, json!("x"));
    assert!(UntypedBranches::from_json(r#"{"k": "c"}"#).is_err());

    let h = Holder::from_json(r#"{"u": {"k": "a"}}"#);
    // `oneOf` of two identical branches never holds; the field is a `Value`.
    assert!(h.is_err());
    let h = Holder::from_json("{}").expect("valid");
    let u: Option<&Value> = h.u.as_ref();
    assert_eq!(u, None);
}

tool_schema! {
    pub struct MaybeGroups = {"type": ["object", "null"], "properties": {"groups": {}}};
}

tool_schema! {
    pub struct MaybeLevel = {"enum": ["low", "high", null]};
}

/// A nullable root is a tuple struct around `Option` of its own type, named `<Root>Inner`
/// (it used to take the root's name too, and the generated code did not compile).
#[test]
fn a_nullable_root_is_an_option_of_its_inner_type() {
    let some = MaybeGroups::from_json(r#"{"groups": [1]}"#).expect("valid");
    let inner: &Option<MaybeGroupsInner> = &some.0;
    assert_eq!(inner.as_ref().and_then(|g| g.groups.clone()), Some(json!([1])));
    assert_eq!(MaybeGroups::from_json("null").expect("valid").0, None);
    assert!(MaybeGroups::from_json("[]").is_err());
    assert_eq!(serde_json::to_value(&some).expect("serialises"), json!({"groups": [1]}));

    let level: Option<MaybeLevelInner> = MaybeLevel::from_json(r#""high""#).expect("valid").0;
    assert_eq!(level, Some(MaybeLevelInner::High));
    assert_eq!(MaybeLevel::from_json("null").expect("valid").0, None);
    assert!(MaybeLevel::from_json(r#""mid""#).is_err());
}
