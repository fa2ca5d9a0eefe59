//! toolgate against `serde_json` + jsonschema (compile-time macro and runtime validator) and
//! plain `serde` derive, on the same inputs, in one run. See `bench/run.sh` for the table.
//!
//! Under `cargo test` criterion runs each benchmark once (a smoke test); the verdicts of every
//! competitor are checked against the expected one before anything is measured.

#![allow(missing_docs, clippy::pedantic)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value;
use toolgate::Tool;
use toolgate_bench::{cases, jsm, owned_structs as os, serde_structs as ss, Case, SCHEMAS};

type Check = fn(&str) -> bool;
type CheckValue = fn(&Value) -> bool;

fn parse(t: &str) -> Option<Value> {
    serde_json::from_str::<Value>(t).ok()
}

/// `(toolgate text, toolgate value, macro value, serde derive)` for one schema.
fn fns(schema: &str) -> (Check, CheckValue, CheckValue, Check) {
    match schema {
        "convert_units" => (ConvertUnitsT::is_valid_json, ConvertUnitsT::is_valid, jsm::ConvertUnits::is_valid, |t| {
            serde_json::from_str::<ss::ConvertUnits<'_>>(t).is_ok()
        }),
        "read_file" => (ReadFileT::is_valid_json, ReadFileT::is_valid, jsm::ReadFile::is_valid, |t| {
            serde_json::from_str::<ss::ReadFile<'_>>(t).is_ok()
        }),
        "flat30" => (Flat30T::is_valid_json, Flat30T::is_valid, jsm::Flat30::is_valid, |t| {
            serde_json::from_str::<ss::Flat30<'_>>(t).is_ok()
        }),
        "rows" => (RowsT::is_valid_json, RowsT::is_valid, jsm::Rows::is_valid, |t| {
            serde_json::from_str::<ss::Rows<'_>>(t).is_ok()
        }),
        _ => (PlaceOrderT::is_valid_json, PlaceOrderT::is_valid, jsm::PlaceOrder::is_valid, |t| {
            serde_json::from_str::<ss::PlaceOrder<'_>>(t).is_ok()
        }),
    }
}

/// Text → typed struct: `(toolgate from_json, serde derive into owned fields, from_str::<Value> +
/// jsonschema macro + from_value into the same owned struct)`; each says whether it got a struct.
fn typed(schema: &str) -> (Check, Check, Check) {
    macro_rules! route {
        ($t:ty, $os:ty, $jsm:path) => {
            (
                |t| <$t>::from_json(t).is_ok(),
                |t| serde_json::from_str::<$os>(t).is_ok(),
                |t| parse(t).filter(|v| $jsm(v)).is_some_and(|v| serde_json::from_value::<$os>(v).is_ok()),
            )
        };
    }
    match schema {
        "convert_units" => route!(ConvertUnitsT, os::ConvertUnits, jsm::ConvertUnits::is_valid),
        "read_file" => route!(ReadFileT, os::ReadFile, jsm::ReadFile::is_valid),
        "flat30" => route!(Flat30T, os::Flat30, jsm::Flat30::is_valid),
        "rows" => route!(RowsT, os::Rows, jsm::Rows::is_valid),
        _ => route!(PlaceOrderT, os::PlaceOrder, jsm::PlaceOrder::is_valid),
    }
}

use toolgate_bench::{
    ConvertUnits as ConvertUnitsT, Flat30 as Flat30T, PlaceOrder as PlaceOrderT, ReadFile as ReadFileT, Rows as RowsT,
};

fn runtime_validator(schema: &str) -> jsonschema::Validator {
    let text = SCHEMAS.iter().find(|(n, _)| *n == schema).map_or("true", |(_, t)| t);
    let schema: Value = serde_json::from_str(text).unwrap_or(Value::Bool(true));
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("jsonschema refused the schema: {e}"))
}

fn sanity(case: &Case, rt: &jsonschema::Validator) {
    let (text_fn, value_fn, macro_fn, _) = fns(case.schema);
    let v = parse(&case.text).unwrap_or_else(|| panic!("not JSON: {}", case.text));
    let got = [text_fn(&case.text), value_fn(&v), macro_fn(&v), rt.is_valid(&v)];
    assert_eq!(got, [case.valid; 4], "{}/{}: toolgate text, toolgate value, macro, runtime", case.schema, case.name);
    let (from_json, _, macro_route) = typed(case.schema);
    let got = [from_json(&case.text), macro_route(&case.text)];
    assert_eq!(got, [case.valid; 2], "{}/{}: toolgate from_json, macro + from_value", case.schema, case.name);
}

fn compare(c: &mut Criterion) {
    for case in cases() {
        let rt = runtime_validator(case.schema);
        sanity(&case, &rt);
        let (text_fn, value_fn, macro_fn, serde_fn) = fns(case.schema);
        let text = case.text.as_str();
        let value = parse(text).unwrap_or(Value::Null);
        let mut g = c.benchmark_group(format!("{}-{}", case.schema, case.name));
        g.bench_function("toolgate_text", |b| b.iter(|| text_fn(black_box(text))));
        g.bench_function("toolgate_value", |b| b.iter(|| value_fn(black_box(&value))));
        g.bench_function("jsonschema_macro_text", |b| b.iter(|| parse(black_box(text)).is_some_and(|v| macro_fn(&v))));
        g.bench_function("jsonschema_runtime_text", |b| {
            b.iter(|| parse(black_box(text)).is_some_and(|v| rt.is_valid(&v)))
        });
        g.bench_function("serde_derive", |b| b.iter(|| serde_fn(black_box(text))));
        g.bench_function("jsonschema_macro_value", |b| b.iter(|| macro_fn(black_box(&value))));
        g.bench_function("jsonschema_runtime_value", |b| b.iter(|| rt.is_valid(black_box(&value))));
        g.bench_function("syntax_only", |b| {
            b.iter(|| serde_json::from_str::<serde::de::IgnoredAny>(black_box(text)).is_ok())
        });
        let (from_json, owned, macro_route) = typed(case.schema);
        g.bench_function("toolgate_from_json", |b| b.iter(|| from_json(black_box(text))));
        g.bench_function("serde_derive_owned", |b| b.iter(|| owned(black_box(text))));
        g.bench_function("jsonschema_macro_from_value", |b| b.iter(|| macro_route(black_box(text))));
        g.finish();
    }
}

fn config() -> Criterion {
    // Modest times: the benchmark machine is shared. Override with criterion's CLI flags.
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(30)
}

criterion_group! { name = benches; config = config(); targets = compare }
criterion_main!(benches);
