//! Examples of toolgate; run them with `cargo run --example NAME`.
//!
//! The tools shared by the `gate` and `retry` examples are in [`tools`]. Each gate example has a
//! `run()` that returns the lines it prints, which `tests/output.rs` checks.

pub mod tools;
