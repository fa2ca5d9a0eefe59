//! Framework fit: `schemars::JsonSchema` for every generated type, behind the `schemars` feature.
//!
//! The generated code always invokes `__impl_schemars!`; which definition it gets is decided here,
//! in the runtime crate, by the runtime's own feature (a `cfg` in generated code would be evaluated
//! in the user's crate, against the user's features).

/// Implement `schemars::JsonSchema` for a generated type, returning its exact schema.
/// Expands to nothing: the `schemars` feature of `toolgate` is off.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_schemars {
    ($ty:ident) => {};
}

/// Implement `schemars::JsonSchema` for a generated type, returning its exact schema
/// ([`Tool::SCHEMA`](crate::Tool::SCHEMA)); its schema name is the tool name.
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_schemars {
    ($ty:ident) => {
        impl $crate::gate::__schemars::JsonSchema for $ty {
            fn schema_name() -> $crate::gate::__Cow<'static, ::core::primitive::str> {
                $crate::gate::__Cow::Borrowed(<$ty as $crate::Tool>::NAME)
            }

            fn schema_id() -> $crate::gate::__Cow<'static, ::core::primitive::str> {
                $crate::gate::__Cow::Borrowed(::core::concat!(::core::module_path!(), "::", ::core::stringify!($ty)))
            }

            fn json_schema(_: &mut $crate::gate::__schemars::SchemaGenerator) -> $crate::gate::__schemars::Schema {
                $crate::gate::__schemars_schema(<$ty as $crate::Tool>::SCHEMA)
            }
        }
    };
}

#[doc(hidden)]
pub use std::borrow::Cow as __Cow;

#[cfg(feature = "schemars")]
#[doc(hidden)]
pub use schemars as __schemars;

/// The schema text as a `schemars::Schema`. (The text is always a JSON object written by the
/// compiler; if it were not, the result would be the schema `false`, which advertises nothing.)
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[must_use]
pub fn __schemars_schema(text: &str) -> schemars::Schema {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| schemars::Schema::try_from(v).ok())
        .unwrap_or_else(|| schemars::Schema::from(false))
}
