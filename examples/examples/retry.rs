//! The repair loop: a scripted model answers with an unknown tool, then a wrong type, then a good
//! call; the gate re-asks with feedback until the call passes. The logic is in
//! `examples/src/retry.rs` (shared with the tests).
//!
//! `cargo run --example retry`

fn main() {
    for line in toolgate_examples::retry::run() {
        println!("{line}");
    }
}
