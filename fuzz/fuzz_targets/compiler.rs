//! The schema compiler fed arbitrary schema text: diagnostics or code, never a panic; it accepts
//! exactly what it has no diagnostic for, and what it generates is valid Rust.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let diags = toolgate_compiler::diagnose_text(text);
    let compiled = toolgate_compiler::compile_text("Fuzzed", text, &quote::quote!(::toolgate));
    assert_eq!(diags.is_empty(), compiled.is_ok(), "diagnose_text and compile_text disagree on {text:?}");
    if let Ok(ts) = compiled {
        if let Err(e) = syn::parse2::<syn::File>(ts) {
            panic!("generated code is not Rust ({e}) for {text:?}");
        }
    }
});
