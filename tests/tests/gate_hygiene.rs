//! `toolbox!` output compiles cleanly where prelude names are shadowed and warnings, missing docs
//! and `clippy::pedantic` are denied; it reaches everything through `$crate` and absolute paths.
#![deny(warnings, missing_docs, clippy::all, clippy::pedantic)]

mod gate_common;

/// Names that generated code must not pick up.
pub mod shadowed {
    #![allow(dead_code)]
    /// Shadows `Result`.
    pub struct Result;
    /// Shadows `Option`.
    pub struct Option;
    /// Shadows `Some`.
    pub struct Some;
    /// Shadows `None`.
    pub struct None;
    /// Shadows `Ok`.
    pub struct Ok;
    /// Shadows `Err`.
    pub struct Err;
    /// Shadows `String`.
    pub struct String;
    /// Shadows `Vec`.
    pub struct Vec;
    /// Shadows `Value`.
    pub struct Value;
    /// Shadows `From`.
    pub trait From {}
    /// Shadows `Into`.
    pub trait Into {}
    /// Shadows `Toolbox`.
    pub trait Toolbox {}
    /// Shadows `Holds`.
    pub trait Holds {}
    /// Shadows `Handle`.
    pub trait Handle {}
    /// Shadows `Tool`.
    pub trait Tool {}
    /// Shadows `serde_json`.
    pub mod serde_json {}
    /// Shadows `core` for relative paths.
    pub mod core {}
    /// Shadows `std` for relative paths.
    pub mod std {}

    toolgate::toolbox! {
        /// Tools under shadowed names, one with a renamed variant.
        pub enum Shadowed {
            Convert(super::gate_common::ConvertUnits),
            LookupStock(super::gate_common::LookupStock),
        }
    }
}

#[test]
fn toolbox_is_hygienic() {
    use shadowed::Shadowed;
    use toolgate::gate::Toolbox;
    assert_eq!(Shadowed::names(), ["convert_units", "lookup_stock"]);
    let c = Shadowed::decode("lookup_stock", &serde_json::json!({"ticker": "MSFT"})).expect("known").expect("valid");
    assert!(matches!(c, Shadowed::LookupStock(_)));
    assert_eq!(c.dispatch(&mut gate_common::Tools::default()), "quote MSFT");
    let gate = toolgate::Gate::<Shadowed>::plain();
    let a = gate.check_one(r#"{"tool": "convert_units", "arguments": {"value": 1, "from_unit": "m", "to_unit": "m"}}"#);
    assert!(matches!(a.map(|a| a.call), Ok(Shadowed::Convert(_))));
}
