//! Examples of toolgate; run them with `cargo run --example NAME`.
