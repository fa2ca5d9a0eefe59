//! Differential: toolgate's verdict against the `jsonschema` crate's on the same instance, for
//! every tool of the fuzz crate; and toolgate's own entry points against each other.
//!
//! Instances are built from the fuzzer's bytes, driven by the tool's schema (the first byte
//! picks the tool): at and around every bound, length, multiple and enum member, with declared
//! properties present or missing and undeclared ones added, and now and then any value at all.
//! A disagreement fails, except the two jsonschema deviations recorded in
//! `docs/DIFFERENTIAL.md` (D1, D2: `multipleOf` and numbers beyond 2^53).

#![no_main]

use std::sync::OnceLock;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolgate::Tool;
use toolgate_fuzz::{asserts_formats, for_each_tool, instance, known_deviation};

struct Entry {
    schema: Value,
    theirs: jsonschema::Validator,
    check: fn(&Value, &Value, &jsonschema::Validator),
}

fn add<T: Tool>(all: &mut Vec<Entry>) {
    let schema: Value = serde_json::from_str(T::SCHEMA).expect("the schema is JSON");
    let theirs = jsonschema::options()
        .should_validate_formats(asserts_formats::<T>())
        .build(&schema)
        .expect("jsonschema takes the schema");
    all.push(Entry { schema, theirs, check: check::<T> });
}

fn entries() -> &'static [Entry] {
    static ALL: OnceLock<Vec<Entry>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for_each_tool!(add(&mut all));
        all
    })
}

fn check<T: Tool>(schema: &Value, v: &Value, theirs: &jsonschema::Validator) {
    let ours = T::is_valid(v);
    assert_eq!(ours, T::validate(v).is_ok(), "{}: is_valid vs validate on {v}", T::NAME);
    // The text path on the instance's text (as it parses back: serde_json's float parser may
    // round a float's shortest text to a neighbour).
    let text = v.to_string();
    if let Ok(back) = toolgate::parse(&text) {
        assert_eq!(T::is_valid_json(&text), T::is_valid(&back), "{}: text path on {text}", T::NAME);
    }
    let verdict = theirs.is_valid(v);
    if ours != verdict && known_deviation(schema, v).is_none() {
        panic!("{}: toolgate says {ours}, jsonschema says {verdict}\nschema: {}\ninstance: {v}", T::NAME, T::SCHEMA);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let all = entries();
    let Ok(e) = u.choose(all) else { return };
    let Ok(v) = instance(&mut u, &e.schema, &e.schema, 0) else { return };
    (e.check)(&e.schema, &v, &e.theirs);
});
