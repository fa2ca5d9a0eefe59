//! Structured extraction from two support emails through an Anthropic-shaped gate, an alert only
//! for the urgent one, the transcript after the tool loop, and the framework fit (schemars and
//! serde). The logic is in `examples/src/email_triage.rs` (shared with the tests).
//!
//! `cargo run --example email_triage`

fn main() {
    for line in toolgate_examples::email_triage::run() {
        println!("{line}");
    }
}
