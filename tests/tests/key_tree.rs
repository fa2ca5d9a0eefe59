//! Object keys of an object with many names (9 or more: the generated code classifies them by a
//! decision tree on length and bytes rather than a `match` on the string). Each property has a
//! `const` of its own index, so a key taken for the wrong property makes a valid member invalid
//! and the other way round. Every entry point must find each declared name (written plainly or
//! with escapes) and no other key: names of one length that differ at one byte, names that are
//! prefixes of others, multi-byte names, the empty name, a name with a quote, and every near miss
//! of each (one character changed, dropped or added).

use toolgate::{tool_schema, Progress, Tool};

tool_schema! {
    /// Names that a careless classifier would confuse.
    pub struct ManyKeys = {
        "type": "object",
        "properties": {
            "abcd0": {"const": 0},
            "abcd1": {"const": 1},
            "abcd2": {"const": 2},
            "abce0": {"const": 3},
            "bbcd0": {"const": 4},
            "abc": {"const": 5},
            "ab": {"const": 6},
            "abcd00": {"const": 7},
            "é": {"const": 8},
            "éé": {"const": 9},
            "a\"b": {"const": 10},
            "": {"const": 11},
            "zzzzz": {"const": 12}
        },
        "additionalProperties": false
    };
}

const NAMES: [&str; 13] =
    ["abcd0", "abcd1", "abcd2", "abce0", "bbcd0", "abc", "ab", "abcd00", "é", "éé", "a\"b", "", "zzzzz"];

/// The verdict of every entry point on `text`: `&Value` verdict and report, text verdict, typed
/// value, and the stream fed whole and byte by byte.
fn verdicts(text: &str) -> [bool; 6] {
    let v: serde_json::Value = serde_json::from_str(text).expect("the test writes JSON");
    let mut whole = ManyKeys::stream();
    let _ = whole.feed(text.as_bytes());
    let mut bytes = ManyKeys::stream();
    let mut died = false;
    for b in text.as_bytes() {
        died |= matches!(bytes.feed(std::slice::from_ref(b)), Progress::Dead(_));
    }
    [
        ManyKeys::is_valid(&v),
        ManyKeys::validate(&v).is_ok(),
        ManyKeys::is_valid_json(text),
        ManyKeys::from_json(text).is_ok(),
        whole.finish().is_ok(),
        !died && bytes.finish().is_ok(),
    ]
}

fn member(key: &str, value: usize) -> String {
    format!("{{{}: {value}}}", serde_json::to_string(key).expect("a string"))
}

/// `key` with its first character written as a `\u` escape.
fn escaped(key: &str) -> Option<String> {
    let c = key.chars().next()?;
    let rest = serde_json::to_string(&key[c.len_utf8()..]).expect("a string");
    let mut units = [0u16; 2];
    let esc: String = c.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect();
    Some(format!("\"{esc}{}", &rest[1..]))
}

#[test]
fn every_declared_name_is_found_by_every_entry_point() {
    for (i, name) in NAMES.iter().enumerate() {
        let right = member(name, i);
        assert_eq!(verdicts(&right), [true; 6], "{right}");
        let wrong = member(name, (i + 1) % NAMES.len());
        assert_eq!(verdicts(&wrong), [false; 6], "{wrong}: the key was taken for another property");
        if let Some(e) = escaped(name) {
            let text = format!("{{{e}: {i}}}");
            assert_eq!(verdicts(&text), [true; 6], "{text}");
        }
    }
    let all: Vec<String> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{}: {i}", serde_json::to_string(n).expect("a string")))
        .collect();
    let text = format!("{{{}}}", all.join(", "));
    assert_eq!(verdicts(&text), [true; 6], "{text}");
}

#[test]
fn near_misses_are_no_declared_name() {
    let mut misses = 0;
    for name in NAMES {
        let chars: Vec<char> = name.chars().collect();
        let mut near = Vec::new();
        for k in 0..chars.len() {
            for delta in [1u32, 2] {
                let mut c = chars.clone();
                c[k] = char::from_u32(c[k] as u32 + delta).unwrap_or('x');
                near.push(c.iter().collect::<String>());
            }
            let mut dropped = chars.clone();
            dropped.remove(k);
            near.push(dropped.iter().collect());
        }
        for extra in ['0', 'a', 'é'] {
            near.push(format!("{name}{extra}"));
            near.push(format!("{extra}{name}"));
        }
        for key in near.iter().filter(|k| !NAMES.contains(&k.as_str())) {
            let text = member(key, 0);
            assert_eq!(verdicts(&text), [false; 6], "{text}: an undeclared key was taken for a declared one");
            misses += 1;
        }
    }
    assert!(misses > 100, "only {misses} near misses");
}
