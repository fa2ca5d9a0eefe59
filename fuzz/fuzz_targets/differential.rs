//! Differential: toolgate's verdict against the `jsonschema` crate's on the same instance, for
//! every tool of the fuzz crate; and toolgate's own entry points against each other.
//!
//! Instances are built from the fuzzer's bytes (structure-aware): objects whose keys and strings
//! come mostly from the schemas' own names and values, numbers from their edges. A disagreement
//! fails, except the two jsonschema deviations recorded in `docs/DIFFERENTIAL.md` (D1, D2).

#![no_main]

use std::collections::HashMap;
use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Number, Value};
use toolgate::Tool;
use toolgate_fuzz::{asserts_formats, for_each_tool, known_deviation, WORDS};

type Theirs = HashMap<&'static str, (Value, jsonschema::Validator)>;

fn add<T: Tool>(m: &mut Theirs) {
    let schema: Value = serde_json::from_str(T::SCHEMA).expect("the schema is JSON");
    let v = jsonschema::options()
        .should_validate_formats(asserts_formats::<T>())
        .build(&schema)
        .expect("jsonschema takes the schema");
    m.insert(T::NAME, (schema, v));
}

fn theirs() -> &'static Theirs {
    static THEIRS: OnceLock<Theirs> = OnceLock::new();
    THEIRS.get_or_init(|| {
        let mut m = HashMap::new();
        for_each_tool!(add(&mut m));
        m
    })
}

const NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.1,
    0.01,
    0.3,
    1.5,
    2.5,
    3.0,
    5.0,
    15.0,
    24.0,
    35.0,
    35.05,
    -10.5,
    -10.6,
    100.0,
    1e2,
    1440.0,
    1e6,
    1_000_000.5,
    -1e6,
    1e300,
    1e308,
    -1e308,
    1.7976931348623157e308,
    4.9e-324,
    9_007_199_254_740_992.0,
    18_446_744_073_709_551_616.0,
    -9_223_372_036_854_775_808.0,
    0.07,
    0.14,
    20.1,
    33.3,
];

fn number(u: &mut Unstructured) -> Result<Number> {
    Ok(match u.int_in_range(0..=5)? {
        0 => Number::from(u.int_in_range(-3i64..=20)?),
        1 => Number::from(u.arbitrary::<i64>()?),
        2 => Number::from(u.arbitrary::<u64>()?),
        3 => Number::from_f64(f64::from(u.int_in_range(-2000i32..=2000)?) / 100.0).unwrap_or_else(|| 0.into()),
        4 => Number::from_f64(*u.choose(NUMBERS)?).unwrap_or_else(|| 0.into()),
        _ => Number::from_f64(u.arbitrary::<f64>()?).unwrap_or_else(|| 1.into()),
    })
}

fn string(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=3)? {
        0..=2 => (*u.choose(WORDS)?).to_owned(),
        _ => u.arbitrary::<String>()?,
    })
}

fn value(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let top = if depth >= 5 { 3 } else { 5 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(number(u)?),
        3 => Value::String(string(u)?),
        4 => {
            let n = u.int_in_range(0..=6)?;
            Value::Array((0..n).map(|_| value(u, depth + 1)).collect::<Result<_>>()?)
        }
        _ => object(u, depth)?,
    })
}

fn object(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let n = u.int_in_range(0..=7)?;
    let mut m = Map::new();
    for _ in 0..n {
        m.insert(string(u)?, value(u, depth + 1)?);
    }
    Ok(Value::Object(m))
}

fn check<T: Tool>(v: &Value) {
    let ours = T::is_valid(v);
    assert_eq!(ours, T::validate(v).is_ok(), "{}: is_valid vs validate on {v}", T::NAME);
    // The text path on the instance's text (as it parses back: serde_json's float parser may
    // round a float's shortest text to a neighbour).
    let text = v.to_string();
    if let Ok(back) = toolgate::parse(&text) {
        assert_eq!(T::is_valid_json(&text), T::is_valid(&back), "{}: text path on {text}", T::NAME);
    }
    let Some((schema, validator)) = theirs().get(T::NAME) else { return };
    let verdict = validator.is_valid(v);
    if ours != verdict && known_deviation(schema, v).is_none() {
        panic!("{}: toolgate says {ours}, jsonschema says {verdict}\nschema: {}\ninstance: {v}", T::NAME, T::SCHEMA);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    // Mostly objects at the root, as tool arguments are.
    let v = match u.int_in_range(0..=7u8) {
        Ok(0) => value(&mut u, 0),
        _ => object(&mut u, 0),
    };
    let Ok(v) = v else { return };
    for_each_tool!(check(&v));
});
