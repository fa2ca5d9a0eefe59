//! The OpenAI-shaped round trip with a `get_weather` tool: a checked call run by the program and
//! answered with a `tool` message, then the three ways a call arrives broken (prose, truncated
//! arguments, an unknown tool). The logic is in `examples/src/round_trip.rs` (shared with the tests).
//!
//! `cargo run --example round_trip`

fn main() {
    for line in toolgate_examples::round_trip::run() {
        println!("{line}");
    }
}
