//! Differential tests: toolgate's generated validators against the `jsonschema` crate.
//!
//! For every fixture schema (`fixtures/*.json`, compiled by `tool_schema!`) and every suite
//! schema toolgate accepts (every draft: jsonschema and the reference validator are told the
//! draft of the suite directory, as toolgate is), proptest generates instances from the schema
//! itself, biased toward the places where validators go wrong: limits and limits ± 1, integers
//! written as floats (`5.0`), tuples cut short, strings of multi-byte characters around length limits, empty arrays and duplicate
//! items (also `1` next to `1.0`), missing and extra properties, wrong types at every depth. Our
//! verdict must equal `jsonschema`'s; on top, our own entry points must agree with each other
//! (`is_valid`, `validate`, `is_valid_json` on the instance's text), and the streaming validator
//! must hold its guarantees on the instance's text (fed byte by byte, then in one seeded random
//! chunking: never dead on a valid text, `finish()` equal to the verdict, the same death offset;
//! `toolgate_conformance::check_stream`). A disagreement passes only when a documented class
//! explains it: a known jsonschema deviation (`KNOWN`) or a documented choice of toolgate
//! (`CHOICES`), both listed in `docs/DIFFERENTIAL.md`.
//!
//! Seeded and bounded: the same instances on every run. `TOOLGATE_PROPTEST_CASES` sets the
//! number of instances per fixture (default 512; each suite schema gets a sixteenth of it, at least 8),
//! `TOOLGATE_PROPTEST_SEED` changes the seed for a long exploratory run.

mod oracle;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use oracle::Dialect;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Just, Union};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use serde_json::{Map, Number, Value};
use toolgate::{tool_schema, Tool};
use toolgate_conformance::generated::SUITE;
use toolgate_conformance::{check_stream, random_chunking, seed_of, stream_run, Earliness, StreamRun};

tool_schema! {
    /// fixtures/convert_units.json
    pub struct ConvertUnits = "fixtures/convert_units.json";
}
tool_schema! {
    /// fixtures/lookup_stock.json (declares draft-07)
    pub struct LookupStock = "fixtures/lookup_stock.json";
}
tool_schema! {
    /// fixtures/search_files.json
    pub struct SearchFiles = "fixtures/search_files.json";
}
tool_schema! {
    /// fixtures/create_event.json
    pub struct CreateEvent = "fixtures/create_event.json";
}
tool_schema! {
    /// fixtures/http_request.json
    pub struct HttpRequest = "fixtures/http_request.json";
}
tool_schema! {
    /// fixtures/set_thermostat.json
    pub struct SetThermostat = "fixtures/set_thermostat.json";
}
tool_schema! {
    /// fixtures/big_numbers.json
    pub struct BigNumbers = "fixtures/big_numbers.json";
}

/// The entry points of one of our validators.
#[derive(Clone, Copy)]
struct Ours {
    is_valid: fn(&Value) -> bool,
    validate: fn(&Value) -> Result<(), toolgate::Violations>,
    is_valid_json: fn(&str) -> bool,
    stream: fn(&str, &[usize]) -> StreamRun,
}

fn ours<T: Tool>() -> Ours {
    Ours { is_valid: T::is_valid, validate: T::validate, is_valid_json: T::is_valid_json, stream: stream_run::<T> }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

fn fixture_cases() -> u32 {
    env_u64("TOOLGATE_PROPTEST_CASES").map_or(512, |n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// FNV-1a of the schema's name, mixed with `TOOLGATE_PROPTEST_SEED`: a fixed seed per schema.
fn seed(name: &str) -> [u8; 32] {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ env_u64("TOOLGATE_PROPTEST_SEED").unwrap_or(0);
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut s = [0u8; 32];
    for (i, chunk) in s.chunks_mut(8).enumerate() {
        let x = h.rotate_left(u32::try_from(i).unwrap_or(0) * 16).wrapping_add(i as u64);
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    s
}

/// A known jsonschema deviation from the specification (documented in `docs/DIFFERENTIAL.md`):
/// an identifier and a predicate on (schema, instance) that recognises the class.
type Known = (&'static str, fn(&Value, &Value) -> bool);

/// The jsonschema bugs that the differential tests have found, by class. A disagreement in one
/// of these classes passes only when toolgate agrees with the reference validator
/// ([`oracle`]); a disagreement outside them fails the test.
const KNOWN: &[Known] = &[
    ("D1 multipleOf: fractional divisor, integer instance beyond 2^53", |s, v| {
        fractional_multiple_of(s)
            && any_number(v, &|n| {
                n.as_u64().is_some_and(|u| u > 1 << 53) || n.as_i64().is_some_and(|i| i.unsigned_abs() > 1 << 53)
            })
    }),
    ("D2 multipleOf: float instance beyond 2^53", |s, v| {
        has_multiple_of(s) && any_number(v, &|n| n.is_f64() && n.as_f64().is_some_and(|f| f.abs() >= TWO_53))
    }),
];

const TWO_53: f64 = 9_007_199_254_740_992.0;

/// Who a documented choice of toolgate disagrees with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Against {
    /// jsonschema alone: toolgate and the reference validator agree (the draft leaves room)
    Jsonschema,
    /// jsonschema and the reference validator: toolgate deviates from the draft on purpose
    Both,
}

/// A documented choice of toolgate (`docs/CONFORMANCE.md`, "Optional tests whose verdicts
/// differ on purpose"): an identifier, who it disagrees with, and a predicate on (dialect,
/// schema, instance) that recognises it.
type Choice = (&'static str, Against, fn(Dialect, &Value, &Value) -> bool);

/// The disagreements that toolgate's documented choices explain (listed in
/// `docs/DIFFERENTIAL.md`). Each one passes only when the three verdicts split the way it says.
const CHOICES: &[Choice] = &[
    // jsonschema asserts the content keywords in draft-07 and draft-06, as those drafts allow;
    // toolgate and the reference read them as annotations
    ("C1 content keywords are annotations in draft-07 and draft-06 too", Against::Jsonschema, |d, s, _| {
        matches!(d, Dialect::Draft7 | Dialect::Draft6) && has_keyword(s, &["contentMediaType", "contentEncoding"])
    }),
    // jsonschema and the reference apply draft-04's definition of `integer`
    ("C2 draft-04 `integer`: toolgate counts 1.0 as an integer", Against::Both, |d, s, v| {
        d == Dialect::Draft4
            && has_integer_type(s)
            && any_number(v, &|n| n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0))
    }),
];

/// The choice that explains a disagreement with `against`, if one does.
fn choice(against: Against, dialect: Dialect, schema: &Value, v: &Value) -> Option<&'static str> {
    CHOICES.iter().find(|(_, who, recognise)| *who == against && recognise(dialect, schema, v)).map(|(id, ..)| *id)
}

/// Whether some subschema of `s` uses one of `keys`.
fn has_keyword(s: &Value, keys: &[&str]) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| keys.contains(&k.as_str()) || has_keyword(v, keys)),
        Value::Array(a) => a.iter().any(|x| has_keyword(x, keys)),
        _ => false,
    }
}

/// Whether some subschema of `s` has `"integer"` among its types.
fn has_integer_type(s: &Value) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| {
            (k == "type" && (v == "integer" || v.as_array().is_some_and(|a| a.iter().any(|t| t == "integer"))))
                || has_integer_type(v)
        }),
        Value::Array(a) => a.iter().any(has_integer_type),
        _ => false,
    }
}

/// Whether some subschema of `s` has a `multipleOf`.
fn has_multiple_of(s: &Value) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| k == "multipleOf" || has_multiple_of(v)),
        Value::Array(a) => a.iter().any(has_multiple_of),
        _ => false,
    }
}

/// Whether some subschema of `s` has a `multipleOf` that is not an integer.
fn fractional_multiple_of(s: &Value) -> bool {
    match s {
        Value::Object(o) => o.iter().any(|(k, v)| {
            (k == "multipleOf" && v.as_f64().is_some_and(|m| m.fract() != 0.0)) || fractional_multiple_of(v)
        }),
        Value::Array(a) => a.iter().any(fractional_multiple_of),
        _ => false,
    }
}

/// Whether some number in `v` satisfies `f`.
fn any_number(v: &Value, f: &dyn Fn(&Number) -> bool) -> bool {
    match v {
        Value::Number(n) => f(n),
        Value::Array(a) => a.iter().any(|x| any_number(x, f)),
        Value::Object(o) => o.values().any(|x| any_number(x, f)),
        _ => false,
    }
}

thread_local! {
    /// How often each known class was hit (for the summary line).
    static HITS: RefCell<BTreeMap<&'static str, u32>> = const { RefCell::new(BTreeMap::new()) };
    /// How early the stream rejected the invalid instances (for the summary line).
    static EARLY: RefCell<Earliness> = RefCell::new(Earliness::default());
}

/// Run `cases` generated instances of `schema` through toolgate, jsonschema and the reference
/// validator. Returns the minimal disagreement, if any, as a readable report.
/// The dialect a suite directory's schemas are read in, by jsonschema (`None`: detected from
/// `$schema`, draft 2020-12 by default) and by the reference validator.
fn dialect_of(dir: &str) -> (Option<jsonschema::Draft>, Dialect) {
    match dir {
        "draft7" => (Some(jsonschema::Draft::Draft7), Dialect::Draft7),
        "draft6" => (Some(jsonschema::Draft::Draft6), Dialect::Draft6),
        "draft4" => (Some(jsonschema::Draft::Draft4), Dialect::Draft4),
        _ => (None, Dialect::Draft2020),
    }
}

fn differential(
    name: &str,
    schema_text: &str,
    formats: bool,
    (draft, dialect): (Option<jsonschema::Draft>, Dialect),
    o: Ours,
    cases: u32,
) -> Result<u32, String> {
    let schema: Value = serde_json::from_str(schema_text).map_err(|e| format!("{name}: schema is not JSON: {e}"))?;
    let mut options = jsonschema::options().should_validate_formats(formats);
    if let Some(d) = draft {
        options = options.with_draft(d);
    }
    let theirs = options.build(&schema).map_err(|e| format!("{name}: jsonschema refuses the schema: {e}"))?;
    let judged = oracle::covers(&schema, formats, dialect);
    let config = Config { cases, failure_persistence: None, max_shrink_iters: 4096, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed(name)));
    let strategy = instance(&schema, dialect, 0);
    let result = runner.run(&strategy, |v| {
        let a = (o.is_valid)(&v);
        let text = serde_json::to_string(&v).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if (o.validate)(&v).is_ok() != a {
            return Err(TestCaseError::fail(format!("toolgate: validate().is_ok() = {} but is_valid = {a}", !a)));
        }
        if (o.is_valid_json)(&text) != a {
            return Err(TestCaseError::fail(format!("toolgate: is_valid_json(text) = {} but is_valid = {a}", !a)));
        }
        let chunks = random_chunking(seed_of(&[name, &text]));
        let streamed = check_stream(o.stream, o.is_valid_json, &text, Some(a), &[chunks]);
        if !streamed.wrong.is_empty() {
            return Err(TestCaseError::fail(format!("toolgate stream: {}", streamed.wrong.join("; "))));
        }
        if !a {
            EARLY.with(|e| e.borrow_mut().add(streamed.dead, streamed.len));
        }
        let b = theirs.is_valid(&v);
        if a == b {
            return Ok(());
        }
        let Some(spec) = oracle::valid(&schema, &v, dialect).filter(|_| judged) else {
            // a deviation of toolgate's own is recognised by its instance, whoever judges it
            if let Some(id) = choice(Against::Both, dialect, &schema, &v) {
                HITS.with(|h| *h.borrow_mut().entry(id).or_default() += 1);
                return Ok(());
            }
            return Err(TestCaseError::fail(format!(
                "toolgate says {a}, jsonschema says {b}, and the schema is beyond the reference validator: \
                 find out which one is wrong"
            )));
        };
        if a != spec {
            // toolgate against both: only a documented deviation of toolgate explains that
            if let Some(id) = choice(Against::Both, dialect, &schema, &v) {
                HITS.with(|h| *h.borrow_mut().entry(id).or_default() += 1);
                return Ok(());
            }
            return Err(TestCaseError::fail(format!(
                "toolgate says {a}, jsonschema says {b}, the reference validator says {spec}: toolgate (or the reference) is wrong"
            )));
        }
        let explained = KNOWN
            .iter()
            .find(|(_, recognise)| recognise(&schema, &v))
            .map(|(id, _)| *id)
            .or_else(|| choice(Against::Jsonschema, dialect, &schema, &v));
        match explained {
            Some(id) => {
                HITS.with(|h| *h.borrow_mut().entry(id).or_default() += 1);
                Ok(())
            }
            None => Err(TestCaseError::fail(format!(
                "jsonschema says {b}, toolgate and the reference validator say {a}: a jsonschema deviation \
                 that docs/DIFFERENTIAL.md does not know yet"
            ))),
        }
    });
    match result {
        Ok(()) => Ok(cases),
        Err(TestError::Fail(why, v)) => Err(format!(
            "{name}: {why}\n  schema:   {}\n  instance: {}",
            compact(schema_text),
            serde_json::to_string(&v).unwrap_or_default()
        )),
        Err(TestError::Abort(why)) => Err(format!("{name}: aborted: {why}")),
    }
}

fn hits() -> String {
    HITS.with(|h| h.borrow().iter().map(|(k, n)| format!("{k}: {n}")).collect::<Vec<_>>().join(", "))
}

/// The stream's earliness over the invalid instances run so far (proptest's shrinking included).
fn early() -> String {
    EARLY.with(|e| {
        let e = e.borrow();
        format!(
            "stream rejected {} of {} invalid instances before their last byte, median saved {:.1}%",
            e.early,
            e.invalid,
            e.median_saved().unwrap_or(0.0) * 100.0
        )
    })
}

fn compact(s: &str) -> String {
    serde_json::from_str::<Value>(s).map_or_else(|_| s.to_owned(), |v| v.to_string())
}

#[test]
fn fixtures_agree_with_jsonschema() {
    let fixtures: [(&str, &str, Ours); 7] = [
        ("convert_units", ConvertUnits::SCHEMA, ours::<ConvertUnits>()),
        ("lookup_stock", LookupStock::SCHEMA, ours::<LookupStock>()),
        ("search_files", SearchFiles::SCHEMA, ours::<SearchFiles>()),
        ("create_event", CreateEvent::SCHEMA, ours::<CreateEvent>()),
        ("http_request", HttpRequest::SCHEMA, ours::<HttpRequest>()),
        ("set_thermostat", SetThermostat::SCHEMA, ours::<SetThermostat>()),
        ("big_numbers", BigNumbers::SCHEMA, ours::<BigNumbers>()),
    ];
    let cases = fixture_cases();
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, schema, o) in fixtures {
        match differential(name, schema, false, dialect_of(""), o, cases) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("differential (fixtures): {total} instances; known jsonschema deviations hit: [{}]; {}", hits(), early());
    assert!(failures.is_empty(), "toolgate and jsonschema disagree:\n{}", failures.join("\n"));
}

#[test]
fn suite_schemas_agree_with_jsonschema() {
    if !SUITE.present {
        eprintln!("=== SKIPPED: the JSON Schema Test Suite was not found ({}) ===", SUITE.location);
        return;
    }
    let cases = (fixture_cases() / 16).max(8);
    let mut failures = Vec::new();
    let (mut total, mut schemas) = (0, 0);
    for file in SUITE.files {
        for group in file.groups {
            let Some(ops) = group.ops else { continue };
            let o = Ours {
                is_valid: ops.is_valid,
                validate: ops.validate,
                is_valid_json: ops.is_valid_json,
                stream: ops.stream,
            };
            let name = format!("{} / {}", file.path, group.description);
            schemas += 1;
            match differential(&name, group.schema, group.formats_asserted, dialect_of(file.draft), o, cases) {
                Ok(n) => total += n,
                Err(e) => failures.push(e),
            }
        }
    }
    eprintln!(
        "differential (suite): {total} instances of {schemas} schemas; known jsonschema deviations hit: [{}]; {}",
        hits(),
        early()
    );
    assert!(schemas > 0, "the suite is present but no schema was accepted");
    assert!(failures.is_empty(), "toolgate and jsonschema disagree:\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Instance generation, driven by the schema.
// ---------------------------------------------------------------------------------------------

const MAX_DEPTH: u32 = 4;

fn num_i(i: i128) -> Option<Value> {
    if let Ok(x) = i64::try_from(i) {
        Some(Value::from(x))
    } else {
        u64::try_from(i).ok().map(Value::from)
    }
}

fn num_f(f: f64) -> Option<Value> {
    Number::from_f64(f).map(Value::Number)
}

/// Numbers near a schema number `n`: itself, ± 1, ± 0.5, ± a tiny step, and as a float.
#[allow(clippy::cast_precision_loss)]
fn around(n: &Number, out: &mut Vec<Value>) {
    if let Some(i) = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)) {
        out.extend(
            [num_i(i), num_i(i - 1), num_i(i + 1), num_f(i as f64), num_f(i as f64 + 0.5), num_f(i as f64 - 0.5)]
                .into_iter()
                .flatten(),
        );
    }
    if let Some(f) = n.as_f64() {
        out.extend(
            [
                num_f(f),
                num_f(f + 1.0),
                num_f(f - 1.0),
                num_f(f + f.abs() * 1e-15 + 1e-300),
                num_f(f - f.abs() * 1e-15 - 1e-300),
                num_f(next_up(f)),
                num_f(next_down(f)),
            ]
            .into_iter()
            .flatten(),
        );
    }
}

fn next_up(f: f64) -> f64 {
    if !f.is_finite() {
        return f;
    }
    if f == 0.0 {
        return f64::from_bits(1);
    }
    let b = f.to_bits();
    f64::from_bits(if f > 0.0 { b + 1 } else { b - 1 })
}

fn next_down(f: f64) -> f64 {
    -next_up(-f)
}

/// Numbers that stress any number handling.
#[allow(clippy::cast_precision_loss)]
fn special_numbers() -> Vec<Value> {
    let mut v: Vec<Value> = vec![
        Value::from(0),
        Value::from(1),
        Value::from(-1),
        Value::from(5),
        Value::from(i64::MAX),
        Value::from(i64::MIN),
        Value::from(u64::MAX),
        Value::from(9_007_199_254_740_993_u64),
    ];
    for f in
        [0.0, -0.0, 5.0, 1.5, -2.5, 0.1, 0.3, 1e-300, 1e308, -1e308, 9_007_199_254_740_992.0, 1.8446744073709552e19]
    {
        v.extend(num_f(f));
    }
    v
}

fn as_u64(v: Option<&Value>) -> Option<u64> {
    v.and_then(|x| x.as_u64().or_else(|| x.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64)))
}

/// Interesting lengths around optional `min` / `max` limits (capped to keep instances small).
fn lengths(min: Option<u64>, max: Option<u64>, cap: u64) -> Vec<usize> {
    let mut set = BTreeSet::from([0, 1, 2]);
    for l in [min, max].into_iter().flatten() {
        for d in [-1_i64, 0, 1] {
            let x = i64::try_from(l).unwrap_or(i64::MAX).saturating_add(d);
            if x >= 0 {
                set.insert(u64::try_from(x).unwrap_or(0).min(cap));
            }
        }
    }
    set.into_iter().filter_map(|x| usize::try_from(x).ok()).collect()
}

/// Characters of 1 to 4 UTF-8 bytes, and the ones that need escaping.
const CHARS: &[char] = &['a', 'Z', '0', ' ', 'é', '€', '💩', '\u{301}', '\u{0}', '"', '\\', '/', '~', '\n'];

fn string_of(len: usize) -> BoxedStrategy<Value> {
    // two characters mixed by the bits of a number: cheap to draw at any length, and a string of
    // one repeated multi-byte character (`bits` all ones or zeros) has a byte length far from
    // its length in code points
    let pick = proptest::sample::select(CHARS);
    (pick.clone(), pick, prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>()])
        .prop_map(move |(a, b, bits)| {
            Value::String((0..len).map(|i| if (bits >> (i % 64)) & 1 == 1 { a } else { b }).collect())
        })
        .boxed()
}

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        proptest::sample::select(special_numbers()),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", num_f),
        (0usize..6).prop_flat_map(string_of),
    ]
    .boxed()
}

/// Any JSON value (the wrong type for most schemas).
fn any_value(depth: u32) -> BoxedStrategy<Value> {
    if depth >= MAX_DEPTH {
        return leaf();
    }
    leaf()
        .prop_recursive(2, 12, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((proptest::sample::select(vec!["a", "b", "", "x/y"]), inner), 0..3)
                    .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
            ]
        })
        .boxed()
}

/// A value equal to `v` in JSON Schema's sense but written differently (`1` ↔ `1.0`), or `v`.
#[allow(clippy::cast_precision_loss)]
fn twin(v: &Value) -> Value {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                num_f(i as f64).unwrap_or_else(|| v.clone())
            } else if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15) {
                Value::from(f as i64)
            } else {
                v.clone()
            }
        }
        Value::Array(a) => Value::Array(a.iter().map(twin).collect()),
        Value::Object(o) => Value::Object(o.iter().rev().map(|(k, x)| (k.clone(), twin(x))).collect()),
        other => other.clone(),
    }
}

/// Values near an `enum` or `const` value: itself, its twin, and small mutations.
fn near_value(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone(), twin(v)];
    match v {
        Value::String(s) => {
            out.push(Value::String(format!("{s}x")));
            out.push(Value::String(s.to_uppercase()));
            out.push(Value::String(s.chars().skip(1).collect()));
        }
        Value::Number(n) => around(n, &mut out),
        Value::Bool(b) => out.push(Value::from(u8::from(*b))),
        Value::Null => out.push(Value::from(0)),
        Value::Array(a) => {
            let mut longer = a.clone();
            longer.push(Value::Null);
            out.push(Value::Array(longer));
            out.push(Value::Array(a.iter().rev().cloned().collect()));
        }
        Value::Object(o) => {
            let mut more = o.clone();
            more.insert("extra".to_owned(), Value::Null);
            out.push(Value::Object(more));
            out.push(Value::Object(o.iter().skip(1).map(|(k, x)| (k.clone(), x.clone())).collect()));
        }
    }
    out
}

/// `pool` split by the reference validator into values valid for `schema` and the rest, as one
/// strategy that picks a valid value `valid_weight` times out of `valid_weight + invalid_weight`.
fn split(
    schema: &Value,
    dialect: Dialect,
    pool: Vec<Value>,
    valid_weight: u32,
    invalid_weight: u32,
) -> Option<BoxedStrategy<Value>> {
    let (good, bad): (Vec<Value>, Vec<Value>) =
        pool.into_iter().partition(|v| oracle::valid(schema, v, dialect) == Some(true));
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = Vec::new();
    if !good.is_empty() {
        options.push((valid_weight, proptest::sample::select(good).boxed()));
    }
    if !bad.is_empty() {
        options.push((invalid_weight, proptest::sample::select(bad).boxed()));
    }
    (!options.is_empty()).then(|| Union::new_weighted(options).boxed())
}

/// Instances for `schema`: mostly valid, each node with a small chance of one defect (a value
/// across a limit, a wrong type, a missing or an extra member, a duplicate), so that the
/// instances sit on both sides of the line the validators draw.
fn instance(schema: &Value, dialect: Dialect, depth: u32) -> BoxedStrategy<Value> {
    let Value::Object(s) = schema else { return any_value(depth) };
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = vec![(1, any_value(depth))];

    let mut known = Vec::new();
    if let Some(Value::Array(e)) = s.get("enum") {
        for v in e {
            known.extend(near_value(v));
        }
    }
    if let Some(c) = s.get("const") {
        known.extend(near_value(c));
    }
    let constrained = !known.is_empty();
    if let Some(k) = split(schema, dialect, known, 6, 1) {
        options.push((30, k));
    }

    let declared: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let has = |keys: &[&str]| keys.iter().any(|k| s.contains_key(*k));
    let mut types: BTreeSet<&str> = declared.into_iter().collect();
    if types.is_empty() {
        if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) {
            types.insert("number");
        }
        if has(&["minLength", "maxLength"]) {
            types.insert("string");
        }
        if has(&["items", "minItems", "maxItems", "uniqueItems"]) {
            types.insert("array");
        }
        if has(&["properties", "required", "additionalProperties", "minProperties", "maxProperties"]) {
            types.insert("object");
        }
    }
    // with `enum`/`const` the typed values are mostly wrong; keep them rarer
    let typed_weight = if constrained { 4 } else { 30 };
    for t in types {
        let strategy = match t {
            "number" | "integer" => numbers(schema, dialect, s, t == "integer"),
            "string" => strings(s),
            "array" if depth < MAX_DEPTH => arrays(s, dialect, depth),
            "object" if depth < MAX_DEPTH => objects(s, dialect, depth),
            "array" => Just(Value::Array(Vec::new())).boxed(),
            "object" => Just(Value::Object(Map::new())).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            _ => Just(Value::Null).boxed(),
        };
        options.push((typed_weight, strategy));
    }
    Union::new_weighted(options).boxed()
}

#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
fn numbers(schema: &Value, dialect: Dialect, s: &Map<String, Value>, integer: bool) -> BoxedStrategy<Value> {
    let mut pool = special_numbers();
    for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(Value::Number(n)) = s.get(k) {
            around(n, &mut pool);
        }
    }
    if let Some(m) = s.get("multipleOf").and_then(Value::as_f64) {
        let base = ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"]
            .iter()
            .find_map(|k| s.get(*k).and_then(Value::as_f64))
            .map_or(0.0, |b| (b / m).round());
        for k in -4..=4 {
            let x = (base + f64::from(k)) * m;
            pool.extend(num_f(x));
            pool.extend(num_f(x + m / 2.0));
            pool.extend(num_f(x + m / 10.0));
            // the decimal a model would write, not the float product (0.3, not 0.30000000000000004)
            pool.extend(format!("{x:.6}").parse::<f64>().ok().and_then(num_f));
            if x.fract() == 0.0 && x.abs() < 9e15 {
                pool.push(Value::from(x as i64));
            }
        }
    }
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = Vec::new();
    if let Some(p) = split(schema, dialect, pool, 6, 1) {
        options.push((10, p));
    }
    let lo = s.get("minimum").or_else(|| s.get("exclusiveMinimum")).and_then(Value::as_f64).unwrap_or(-1000.0);
    let hi = s.get("maximum").or_else(|| s.get("exclusiveMaximum")).and_then(Value::as_f64).unwrap_or(1000.0);
    let (lo, hi) = (lo.max(-1e15) as i64, hi.min(1e15) as i64);
    if lo < hi {
        options.push((2, (lo..=hi).prop_map(Value::from).boxed()));
        if integer {
            options.push((1, (lo..=hi).prop_filter_map("float", |i| num_f(i as f64)).boxed()));
        } else {
            let (a, b) = (lo.saturating_mul(10), hi.saturating_mul(10));
            options.push((2, (a..=b).prop_filter_map("tenths", |i| num_f(i as f64 / 10.0)).boxed()));
        }
    }
    options.push((1, any::<f64>().prop_filter_map("finite", num_f).boxed()));
    Union::new_weighted(options).boxed()
}

fn strings(s: &Map<String, Value>) -> BoxedStrategy<Value> {
    let (min, max) = (as_u64(s.get("minLength")), as_u64(s.get("maxLength")));
    let (good, bad): (Vec<usize>, Vec<usize>) = lengths(min, max, 300).into_iter().partition(|l| {
        let l = u64::try_from(*l).unwrap_or(u64::MAX);
        min.is_none_or(|m| l >= m) && max.is_none_or(|m| l <= m)
    });
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = Vec::new();
    if !good.is_empty() {
        options.push((8, proptest::sample::select(good).prop_flat_map(string_of).boxed()));
    }
    if !bad.is_empty() {
        options.push((1, proptest::sample::select(bad).prop_flat_map(string_of).boxed()));
    }
    Union::new_weighted(options).boxed()
}

fn arrays(s: &Map<String, Value>, dialect: Dialect, depth: u32) -> BoxedStrategy<Value> {
    // a tuple (`prefixItems`; before 2019-09 an array of `items`): its positions come first
    let tuple = match (s.get("items"), s.get("prefixItems")) {
        (Some(Value::Array(t)), _) | (_, Some(Value::Array(t))) => t.clone(),
        _ => Vec::new(),
    };
    let rest = match s.get("items") {
        Some(Value::Array(_)) => s.get("additionalItems"),
        other => other,
    };
    let item = rest.map_or_else(|| any_value(depth + 1), |i| instance(i, dialect, depth + 1));
    let head: Vec<BoxedStrategy<Value>> = tuple.iter().map(|t| instance(t, dialect, depth + 1)).collect();
    let (min, max) = (as_u64(s.get("minItems")), as_u64(s.get("maxItems")));
    let (good, bad): (Vec<usize>, Vec<usize>) = lengths(min, max, 8).into_iter().partition(|l| {
        let l = u64::try_from(*l).unwrap_or(u64::MAX);
        min.is_none_or(|m| l >= m) && max.is_none_or(|m| l <= m)
    });
    let mut lens: Vec<(u32, BoxedStrategy<usize>)> = Vec::new();
    if !good.is_empty() {
        lens.push((8, proptest::sample::select(good).boxed()));
    }
    if !bad.is_empty() {
        lens.push((1, proptest::sample::select(bad).boxed()));
    }
    let base = Union::new_weighted(lens).prop_flat_map(move |n| proptest::collection::vec(item.clone(), n));
    let full = head.len();
    // mostly the whole tuple and then the rest; sometimes the tuple cut short (and no rest)
    let cut = prop_oneof![6 => Just(full), 1 => 0..=full];
    (head, cut, base, 0u8..16, any::<proptest::sample::Index>())
        .prop_map(move |(head, cut, rest, dup, at)| {
            let mut a: Vec<Value> = head.into_iter().take(cut).collect();
            if cut == full {
                a.extend(rest);
            }
            // one array in eight gets a duplicate item (half of those as the twin: 1 next to 1.0)
            if !a.is_empty() && dup < 2 {
                let x = a[at.index(a.len())].clone();
                a.push(if dup == 0 { x } else { twin(&x) });
            }
            Value::Array(a)
        })
        .boxed()
}

fn objects(s: &Map<String, Value>, dialect: Dialect, depth: u32) -> BoxedStrategy<Value> {
    let props: Vec<(String, Value)> = match s.get("properties") {
        Some(Value::Object(p)) => p.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Vec::new(),
    };
    let required: Vec<String> = match s.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    };
    // declared and required names: required ones almost always present, optional ones often
    let mut names: Vec<(String, Value, bool)> =
        props.into_iter().map(|(k, v)| (k.clone(), v, required.contains(&k))).collect();
    for r in required {
        if !names.iter().any(|(k, _, _)| *k == r) {
            let sch = s.get("additionalProperties").cloned().unwrap_or(Value::Bool(true));
            names.push((r, sch, true));
        }
    }
    let members: Vec<BoxedStrategy<Option<(String, Value)>>> = names
        .into_iter()
        .map(|(k, sch, req)| {
            let v = instance(&sch, dialect, depth + 1);
            let (absent, present) = if req { (1, 40) } else { (1, 2) };
            prop_oneof![absent => Just(None), present => v.prop_map(move |v| Some((k.clone(), v)))].boxed()
        })
        .collect();
    // undeclared members, valued from `additionalProperties` when it is a schema
    let closed = s.get("additionalProperties") == Some(&Value::Bool(false));
    let extra_value = match s.get("additionalProperties") {
        Some(a @ Value::Object(_)) => {
            prop_oneof![6 => instance(a, dialect, depth + 1), 1 => any_value(depth + 1)].boxed()
        }
        _ => any_value(depth + 1),
    };
    let extra_names: Vec<String> = {
        let mut v: Vec<String> = ["extra", "", "a/b", "~0", "💩", "value", "Value", "title", "query_"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        if let Some(Value::Object(p)) = s.get("properties") {
            v.extend(p.keys().map(|k| format!("{k}_")));
            v.extend(p.keys().map(|k| k.to_uppercase()));
        }
        v
    };
    let max_extra = as_u64(s.get("maxProperties")).map_or(3, |m| usize::try_from(m.min(4)).unwrap_or(4) + 1);
    let some_extras = proptest::collection::vec((proptest::sample::select(extra_names), extra_value), 1..=max_extra);
    let extras = if closed {
        prop_oneof![20 => Just(Vec::new()), 1 => some_extras].boxed()
    } else {
        prop_oneof![1 => Just(Vec::new()), 1 => some_extras].boxed()
    };
    (members, extras)
        .prop_map(|(members, extras)| {
            let mut o = Map::new();
            for (k, v) in extras {
                o.insert(k, v);
            }
            for (k, v) in members.into_iter().flatten() {
                o.insert(k, v);
            }
            Value::Object(o)
        })
        .boxed()
}
