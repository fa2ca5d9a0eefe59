//! `from_json` and `from_json_with` never panic and agree with `parse` + `from_value`; a built
//! value serialises back to a valid instance; limits refuse exactly what `parse_with` refuses.
//!
//! The first two bytes choose the limits (depth 0..=129, bytes in steps of 16 or none).

#![no_main]

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::Serialize;
use toolgate::{parse, parse_with, Error, LimitExceeded, Limits, Tool};
use toolgate_fuzz::for_each_tool;

fn check<T: Tool + PartialEq + Debug + Serialize>(text: &str, limits: &Limits) {
    let parsed = parse(text);
    let built = T::from_json(text);
    match (&parsed, &built) {
        (Ok(v), Ok(t)) => {
            assert_eq!(T::from_value(v).as_ref(), Ok(t), "{}: from_json vs from_value: {text:?}", T::NAME);
            let back = serde_json::to_value(t).expect("a built value serialises");
            assert!(T::is_valid(&back), "{}: {text:?} built {t:?}, which serialises to the invalid {back}", T::NAME);
        }
        (Ok(v), Err(Error::Invalid(a))) => {
            assert_eq!(T::validate(v).err().as_ref(), Some(a), "{}: from_json vs validate: {text:?}", T::NAME);
        }
        (Err(e), Err(f)) => assert_eq!(e, f, "{}: {text:?}", T::NAME),
        (p, b) => panic!("{}: parse {p:?}, from_json {b:?}: {text:?}", T::NAME),
    }
    let with = T::from_json_with(text, limits);
    if text.len() > limits.max_bytes {
        assert!(matches!(with, Err(Error::Limit(LimitExceeded::Bytes { .. }))), "{}: {with:?}", T::NAME);
        return;
    }
    match parse_with(text, limits) {
        Err(e) => assert_eq!(with.err(), Some(e), "{}: from_json_with vs parse_with: {text:?}", T::NAME),
        Ok(_) => assert_eq!(with, built, "{}: from_json_with vs from_json: {text:?}", T::NAME),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&[depth, bytes], rest)) = data.split_first_chunk::<2>() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let max_bytes = if bytes == 255 { usize::MAX } else { usize::from(bytes) * 16 };
    let limits = Limits::DEFAULT.with_max_depth(usize::from(depth % 130)).with_max_bytes(max_bytes);
    for_each_tool!(check(text, &limits));
});
