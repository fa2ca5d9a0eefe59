//! Judging tool-call arguments while they stream in. Two recorded delta streams of a `read_file`
//! call (the tool is in `examples/src/tools.rs`), judged as they arrive:
//!
//! - one goes wrong half-way (`"max_lines": "200"`, a string where an integer belongs), fed to
//!   a `Stream` delta by delta: the stream is dead at the opening quote, so the program can stop the generation there and never
//!   wait for the rest;
//! - one is good: alive after every delta, complete only after the last, then the typed value.
//!   Its caller keeps the text itself and gives it to a `TextStream`, which reads it where it
//!   lies instead of copying it, and shows what the arguments so far stand for
//!   (`toolgate::partial_value`), as a user interface would while the call streams.
//!
//! The deltas are bytes as they come off the wire, split at odd places: inside a key, inside a
//! number, inside the two bytes of `é`. `feed` takes any split.
//!
//! `cargo run --example streaming`

use toolgate::{Progress, TextStream, Tool};

use toolgate_examples::tools::ReadFile;

/// The bad call, as recorded: `{"path": "notes/café.txt", "max_lines": "200", "encoding": "utf-8"}`.
pub const BAD: [&[u8]; 8] = [
    b"{\"pa",
    b"th\": \"notes/caf\xc3",
    b"\xa9.txt\", \"max_",
    b"lines\": ",
    b"\"20",
    b"0\", \"enc",
    b"oding\": \"utf",
    b"-8\"}",
];

/// The good call, as recorded: `{"path": "src/main.rs", "max_lines": 40}`.
pub const GOOD: [&[u8]; 5] = [b"{\"path\": \"src/ma", b"in.rs\", \"max_li", b"nes", b"\": 4", b"0}"];

/// A delta as a byte-string literal: `"th\": \"notes/caf\xc3"`.
fn show(delta: &[u8]) -> String {
    format!("\"{}\"", delta.escape_ascii())
}

/// The lines the example prints.
#[must_use]
pub fn run() -> Vec<String> {
    let mut lines = Vec::new();

    lines.push("== a read_file call that goes wrong half-way".to_owned());
    let full: usize = BAD.iter().map(|d| d.len()).sum();
    let mut s = ReadFile::stream();
    for (i, delta) in BAD.iter().enumerate() {
        match s.feed(delta) {
            Progress::Alive => lines.push(format!("delta {} {:<26} Alive", i + 1, show(delta))),
            Progress::Dead(d) => {
                lines.push(format!("delta {} {:<26} Dead", i + 1, show(delta)));
                lines.push(format!("abort {d}"));
                if let Some(v) = d.violation() {
                    lines.push(format!("violation: keyword `{}` at pointer {}", v.keyword(), v.pointer));
                }
                let unfed = BAD.len() - i - 1;
                lines.push(format!(
                    "never needed: {} of the {full} bytes of the recorded reply ({unfed} deltas never fed)",
                    full - d.offset - 1
                ));
                break;
            }
        }
    }

    // This caller keeps the arguments' text itself: a `TextStream` judges that text where it
    // lies (a `Stream` would keep a copy of its own).
    lines.push("== a good read_file call, accepted only at its end".to_owned());
    let mut args: Vec<u8> = Vec::new();
    let mut s = TextStream::<ReadFile>::new();
    for (i, delta) in GOOD.iter().enumerate() {
        args.extend_from_slice(delta);
        let progress = match s.feed_text(&args) {
            Progress::Alive => "Alive",
            Progress::Dead(_) => "Dead",
        };
        let complete = if s.can_finish(&args) { "complete" } else { "not complete yet" };
        lines.push(format!("delta {} {:<26} {progress}, {complete}", i + 1, show(delta)));
        // What the arguments so far stand for, to show while the call streams.
        if let Some(so_far) = toolgate::partial_value(&args) {
            lines.push(format!("        so far: {so_far}"));
        }
    }
    match s.into_tool(&args) {
        Ok(call) => lines.push(format!("call: {call:?}")),
        Err(e) => lines.push(format!("refused: {e}")),
    }
    lines
}

fn main() {
    for line in run() {
        println!("{line}");
    }
}
