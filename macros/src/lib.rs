//! The `tool_schema!` procedural macro. Use it through the `toolgate` crate, which passes its own
//! path so that generated code works under any dependency name.

use proc_macro::TokenStream;

/// Implementation of `toolgate::tool_schema!`; see that macro's documentation.
#[proc_macro]
pub fn tool_schema_impl(input: TokenStream) -> TokenStream {
    toolgate_compiler::expand(input.into()).into()
}
