//! Examples of toolgate; run them with `cargo run --example NAME`.
//!
//! The gate examples keep their logic here, returning the lines they print, so that the tests can
//! check them: `gate`, `retry`, `round_trip` and `email_triage` (tools shared by the first two
//! are in [`tools`]).

pub mod email_triage;
pub mod gate;
pub mod retry;
pub mod round_trip;
pub mod tools;
