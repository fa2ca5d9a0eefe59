//! Compile errors are part of the product: one user mistake per file under `tests/ui/<category>/`,
//! each with its reviewed `.stderr`.

#[test]
fn ui() {
    // trybuild builds in its own directory; schema files are looked up relative to this crate.
    std::env::set_var("TOOLGATE_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*/*.rs");
}
