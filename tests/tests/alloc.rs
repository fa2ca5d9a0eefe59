//! Deciding valid/invalid allocates nothing: `is_valid` on a parsed `&Value`, and `is_valid_json`
//! (and `check_json` with a `Verdict`) straight from the text, on valid and on schema-invalid
//! input, for every fixture; and feeding a `Stream` (with its text buffer reserved) or a
//! `TextStream` (which has none), every feed up to the one that finds the text dead. Counted by a global allocator (this binary only), per thread so that
//! the test harness's other threads do not interfere. Run with and without serde_json's
//! `float_roundtrip` feature: `cargo test --workspace` turns it on (through the benchmarks'
//! jsonschema), `cargo test -p toolgate-tests` leaves it off.

#![allow(clippy::pedantic)]

mod fixtures;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Debug;

use fixtures::{nested, Visit, MALFORMED};
use toolgate::{parse, tool_schema, Progress, Stream, Tool, Verdict};

struct Counting;

thread_local! {
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static A: Counting = Counting;

/// The allocations made by `f` on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let before = COUNT.with(Cell::get);
    let r = f();
    (COUNT.with(Cell::get) - before, r)
}

struct NoAlloc {
    checked: usize,
    invalid: usize,
}

impl Visit for NoAlloc {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, name: &str, texts: &[&str]) {
        let mut reused = toolgate::Stream::<T>::with_capacity(texts.iter().map(|t| t.len()).max().unwrap_or(0));
        for text in texts {
            let Ok(value) = parse(text) else { panic!("fixture is not JSON: {name}: {text}") };
            let (n, valid) = allocations(|| T::is_valid(&value));
            assert_eq!(n, 0, "is_valid allocated {n} times: {name}: {text}");
            let (n, valid_json) = allocations(|| T::is_valid_json(text));
            assert_eq!(n, 0, "is_valid_json allocated {n} times: {name}: {text}");
            assert_eq!(valid, valid_json, "{name}: {text}");
            let (n, v) = allocations(|| {
                let mut v = Verdict::new();
                let r = T::check_json(text, &mut v);
                (r.is_ok(), v.valid)
            });
            assert_eq!(n, 0, "check_json(Verdict) allocated {n} times: {name}: {text}");
            assert_eq!(v, (true, valid), "{name}: {text}");
            // Streaming: every feed that leaves the text alive allocates nothing, in 1-byte and
            // in 16-byte chunks; only a death builds its explanation. A valid text finishes
            // without allocating either. The 16-byte chunks go to one stream per schema, reset
            // before each text (which allocates nothing either, and forgets the last text).
            for chunk in [1, 16] {
                let mut fresh;
                let s = if chunk == 1 {
                    fresh = toolgate::Stream::<T>::with_capacity(text.len());
                    &mut fresh
                } else {
                    let (n, ()) = allocations(|| reused.reset());
                    assert_eq!(n, 0, "reset allocated {n} times: {name}");
                    &mut reused
                };
                let mut alive = true;
                for piece in text.as_bytes().chunks(chunk) {
                    let (n, p) = allocations(|| s.feed(piece).is_dead());
                    if p {
                        alive = false;
                        break;
                    }
                    assert_eq!(n, 0, "a {chunk}-byte feed allocated {n} times: {name}: {text}");
                }
                if alive {
                    let (n, ok) = allocations(|| s.finish().is_ok());
                    if ok {
                        assert_eq!(n, 0, "finish allocated {n} times: {name}: {text}");
                    }
                    assert_eq!(ok, valid, "{name}: {text}");
                } else {
                    assert!(!valid, "{name}: {text}");
                }
            }
            // A `TextStream` keeps no buffer: making one, every feed that leaves the text alive
            // and a valid text's finish allocate nothing, with no capacity reserved.
            for chunk in [1, 16] {
                let (n, mut over) = allocations(toolgate::TextStream::<T>::new);
                assert_eq!(n, 0, "TextStream::new allocated {n} times: {name}");
                let mut alive = true;
                let mut end = 0;
                while end < text.len() {
                    end = (end + chunk).min(text.len());
                    let (n, p) = allocations(|| over.feed_text(&text.as_bytes()[..end]).is_dead());
                    if p {
                        alive = false;
                        break;
                    }
                    assert_eq!(n, 0, "a {chunk}-byte text feed allocated {n} times: {name}: {text}");
                }
                if alive {
                    let (n, ok) = allocations(|| over.finish(text.as_bytes()).is_ok());
                    if ok {
                        assert_eq!(n, 0, "the text stream's finish allocated {n} times: {name}: {text}");
                    }
                    assert_eq!(ok, valid, "{name}: {text}");
                } else {
                    assert!(!valid, "{name}: {text}");
                }
            }
            self.checked += 1;
            if !valid {
                self.invalid += 1;
            }
        }
        for text in MALFORMED {
            // Not JSON: the verdict still allocates nothing (only the error message would).
            let (n, valid) = allocations(|| T::is_valid_json(text));
            assert_eq!((n, valid), (0, false), "{name}: {text:?}");
            // The stream is alive, allocation-free, up to the byte that breaks the syntax.
            let mut s = toolgate::Stream::<T>::with_capacity(text.len());
            for b in text.as_bytes() {
                let (n, dead) = allocations(|| s.feed(std::slice::from_ref(b)).is_dead());
                if dead {
                    break;
                }
                assert_eq!(n, 0, "a feed allocated {n} times: {name}: {text:?}");
            }
        }
    }
}

/// Runs every entry point once, counting nothing.
struct Warm;

impl Visit for Warm {
    fn visit<T: Tool + PartialEq + Debug>(&mut self, _: &str, texts: &[&str]) {
        for text in texts {
            if let Ok(value) = parse(text) {
                let _ = T::is_valid(&value);
            }
            let _ = T::is_valid_json(text);
            let mut s = T::stream();
            let _ = s.feed(text.as_bytes());
            let _ = s.finish();
        }
    }
}

#[test]
fn deciding_allocates_nothing() {
    // The counter must see allocations at all, or the test proves nothing.
    let (n, v) = allocations(|| vec![1u8; 16]);
    assert!(n >= 1 && v.len() == 16);

    // One uncounted pass first, for the two kinds of lazy state: a probe for serde_json's
    // `float_roundtrip` feature (the workspace gets it through jsonschema's macros in the
    // benchmarks), taken once per process the first time a number outside the float fast path
    // reads differently under serde_json's two parsers (that feature's parser may allocate
    // there); and each `pattern`'s automaton, read from the bytes the macro generated on its
    // first use.
    fixtures::all(&mut Warm);
    let mut c = NoAlloc { checked: 0, invalid: 0 };
    fixtures::all(&mut c);
    assert!(c.checked >= 100 && c.invalid >= 60, "{} {}", c.checked, c.invalid);

    for depth in [127, 128] {
        let t = nested(depth);
        let (n, _) = allocations(|| fixtures::Loose::is_valid_json(&t));
        assert_eq!(n, 0, "depth {depth}");
    }
}

#[test]
fn collecting_from_text_allocates_only_the_report() {
    // A sanity check that the counter works through the generated code: reporting allocates.
    let text = r#"{"path": "", "max_lines": "42"}"#;
    let (n, r) = allocations(|| {
        let mut c = toolgate::Collect::default();
        let r = fixtures::ReadFile::check_json(text, &mut c);
        (r.is_ok(), c.0.len())
    });
    assert_eq!(r, (true, 2));
    assert!(n > 0);
}

tool_schema! {
    /// An object that takes any other key.
    pub struct Open = {"type": "object", "properties": {"a": {"type": "integer"}}};
}

#[test]
fn streaming_repeated_key_checks_allocate_nothing() {
    // 64 undeclared keys, a third of them escaped: their hashes fill the filter until keys hit
    // it and the object's keys are read again (decoded), and no feed allocates.
    let keys: Vec<String> =
        (0..64).map(|i| if i % 3 == 0 { format!(r#""\u006b{i}": {i}"#) } else { format!(r#""k{i}": {i}"#) }).collect();
    let text = format!("{{{}}}", keys.join(", "));
    assert!(Open::is_valid_json(&text));
    for repeat in [false, true] {
        let text = if repeat { text.replace(r#""k62""#, r#""\u006b0""#) } else { text.clone() };
        let mut s = Stream::<Open>::with_capacity(text.len());
        for (i, b) in text.as_bytes().iter().enumerate() {
            let (n, p) = allocations(|| s.feed(std::slice::from_ref(b)));
            if let Progress::Dead(d) = p {
                assert!(repeat, "dead at {i}: {d}");
                assert_eq!(i, text.find(r#""\u006b0": 62"#).map(|k| k + 8).unwrap_or(0), "{d}");
                break;
            }
            assert_eq!(n, 0, "a feed allocated {n} times at byte {i}");
        }
        if !repeat {
            let (n, ok) = allocations(|| s.finish().is_ok());
            assert_eq!((n, ok), (0, true));
        }
    }
}
