//! Seven model replies through one gate: the good call runs, every bad one is rejected with a
//! reason. The logic is in `examples/src/gate.rs` (shared with the tests).
//!
//! `cargo run --example gate`

fn main() {
    for line in toolgate_examples::gate::run() {
        println!("{line}");
    }
}
