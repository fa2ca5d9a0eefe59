//! The allocation-free text path of every generated validator agrees with the parser and the
//! `&Value` validator: `is_valid_json(text)` is `parse(text)` followed by `is_valid`, and
//! `check_json` reports exactly `validate`'s violations (or `parse`'s error).

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolgate::{parse, Collect, Error, First, Tool};
use toolgate_fuzz::for_each_tool;

fn check<T: Tool>(text: &str, parsed: &Result<Value, Error>) {
    let fast = T::is_valid_json(text);
    let mut all = Collect::default();
    let checked = T::check_json(text, &mut all);
    let mut first = First::default();
    let first_res = T::check_json(text, &mut first);
    match parsed {
        Ok(v) => {
            let valid = T::is_valid(v);
            assert_eq!(fast, valid, "{}: is_valid_json {fast}, is_valid {valid}: {text:?}", T::NAME);
            assert!(checked.is_ok() && first_res.is_ok(), "{}: {text:?}", T::NAME);
            let expected = T::validate(v).err();
            let list = expected.as_ref().map_or(&[][..], |e| e.as_slice());
            assert_eq!(all.0.as_slice(), list, "{}: check_json vs validate: {text:?}", T::NAME);
            assert_eq!(first.0.as_ref(), list.first(), "{}: First vs validate: {text:?}", T::NAME);
        }
        Err(e) => {
            assert!(!fast, "{}: is_valid_json accepted what parse refuses ({e}): {text:?}", T::NAME);
            assert_eq!(checked.as_ref().err(), Some(e), "{}: {text:?}", T::NAME);
            assert!(all.0.is_empty() && first.0.is_none(), "{}: violations for text that is not JSON", T::NAME);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = parse(text);
    assert_eq!(toolgate::__private::is_json(text), parsed.is_ok(), "syntax-only scan vs parse: {text:?}");
    for_each_tool!(check(text, &parsed));
});
