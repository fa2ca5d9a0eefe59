//! Toolboxes: the allowed tools, declared once, as an enum of typed calls.

use serde_json::Value;

use crate::{Tool, Violations};

use super::declare::Provider;

/// A tool's name, description and schema text, as its [`Tool`] impl defines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ToolSpec {
    /// [`Tool::NAME`]
    pub name: &'static str,
    /// [`Tool::DESCRIPTION`]
    pub description: &'static str,
    /// [`Tool::SCHEMA`]: the schema the validator enforces, as JSON text.
    pub schema: &'static str,
}

impl ToolSpec {
    /// The spec of tool `T`.
    #[must_use]
    pub const fn of<T: Tool>() -> Self {
        Self { name: T::NAME, description: T::DESCRIPTION, schema: T::SCHEMA }
    }
}

/// A set of allowed tools: an enum with one variant per tool, holding the tool's typed arguments.
///
/// Implemented by [`toolbox!`](crate::toolbox!); see there.
pub trait Toolbox: Sized {
    /// The tools, in declaration order.
    const TOOLS: &'static [ToolSpec];

    /// The name of the tool this call is for.
    fn tool_name(&self) -> &'static str;

    /// Validate `arguments` for the tool named exactly `name` and build the typed call.
    /// `None` when no tool of the toolbox has that name.
    ///
    /// # Errors
    /// `Some(Err(_))` with every violation when the arguments do not match the tool's schema.
    fn decode(name: &str, arguments: &Value) -> Option<Result<Self, Violations>>;

    /// Whether `name` is exactly the name of one of the tools (the allowlist).
    #[must_use]
    fn allows(name: &str) -> bool {
        Self::TOOLS.iter().any(|t| t.name == name)
    }

    /// The tool names, in declaration order.
    #[must_use]
    fn names() -> Vec<&'static str> {
        Self::TOOLS.iter().map(|t| t.name).collect()
    }

    /// The tool declarations for `provider`, as a JSON array: for OpenAI the `tools` request
    /// parameter, for Anthropic the `tools` parameter, for MCP the `tools` of a `tools/list` result.
    #[must_use]
    fn declarations(provider: Provider) -> Value {
        Value::Array(Self::TOOLS.iter().map(|t| t.declaration(provider)).collect())
    }

    /// [`Toolbox::declarations`] as JSON text, with each schema copied verbatim from
    /// [`Tool::SCHEMA`] (member order included).
    #[must_use]
    fn declarations_json(provider: Provider) -> String {
        let items: Vec<String> = Self::TOOLS.iter().map(|t| t.declaration_json(provider)).collect();
        format!("[{}]", items.join(","))
    }
}

/// A toolbox enum that has a variant for tool `T` (implemented by [`toolbox!`](crate::toolbox!)).
pub trait Holds<T>: Toolbox {
    /// The arguments, if this call is for `T`.
    fn get(&self) -> Option<&T>;
}

/// A handler of the checked calls of tool `T`: what [`toolbox!`](crate::toolbox!)'s generated
/// `dispatch` method calls. Implement it once per tool of the toolbox for one handler type; a
/// missing tool is a compile error at the `dispatch` call.
///
/// ```
/// # toolgate::tool_schema! { pub struct Echo = {"type": "object", "properties": {"text": {"type": "string"}},
/// #     "required": ["text"], "additionalProperties": false}; }
/// # toolgate::toolbox! { pub enum Call { Echo } }
/// struct Tools;
///
/// impl toolgate::gate::Handle<Echo> for Tools {
///     type Output = String;
///     fn handle(&mut self, args: Echo) -> String {
///         args.text
///     }
/// }
///
/// let call = Call::Echo(Echo { text: "hi".into() });
/// assert_eq!(call.dispatch(&mut Tools), "hi");
/// ```
pub trait Handle<T> {
    /// What running the tool gives.
    type Output;
    /// Run the tool with checked arguments.
    fn handle(&mut self, args: T) -> Self::Output;
}

/// Whether all `names` differ (used by [`toolbox!`](crate::toolbox!) in a constant).
#[doc(hidden)]
#[must_use]
pub const fn __names_unique(names: &[&str]) -> bool {
    let mut rest = names;
    while let [first, tail @ ..] = rest {
        let mut others = tail;
        while let [second, more @ ..] = others {
            if str_eq(first, second) {
                return false;
            }
            others = more;
        }
        rest = tail;
    }
    true
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a, b) {
            ([], []) => return true,
            ([x, ra @ ..], [y, rb @ ..]) if *x == *y => {
                a = ra;
                b = rb;
            }
            _ => return false,
        }
    }
}

/// Declare the allowed tools once: a `Call` enum with one variant per tool holding its typed
/// arguments, with the allowlist, dispatch, and the declarations for OpenAI, Anthropic and MCP.
///
/// Each variant is `Variant(Type)`, or just `Type` when the variant has the type's name. Every
/// type is a [`tool_schema!`](crate::tool_schema!) type; tool names must differ (a compile error
/// otherwise).
///
/// ```
/// use toolgate::gate::{Gate, Provider, Toolbox};
///
/// toolgate::tool_schema! {
///     /// Convert a value between two units of the same kind.
///     pub struct ConvertUnits = {
///         "type": "object",
///         "properties": {
///             "value": {"type": "number"},
///             "from_unit": {"enum": ["m", "km", "g", "kg"]},
///             "to_unit": {"enum": ["m", "km", "g", "kg"]}
///         },
///         "required": ["value", "from_unit", "to_unit"],
///         "additionalProperties": false
///     };
/// }
///
/// toolgate::toolbox! {
///     /// The tools this program runs.
///     #[derive(Debug, Clone, PartialEq)]
///     pub enum Call {
///         ConvertUnits,
///     }
/// }
///
/// assert!(Call::allows("convert_units"));
/// assert_eq!(Call::declarations(Provider::Anthropic)[0]["name"], "convert_units");
///
/// let gate = Gate::<Call>::plain();
/// let call = gate.check_one(r#"{"tool": "convert_units", "arguments": {"value": 5, "from_unit": "km", "to_unit": "m"}}"#);
/// assert!(matches!(call.map(|c| c.call), Ok(Call::ConvertUnits(_))));
/// ```
///
/// Generated for `enum Call`: the enum (attributes and visibility as written; each variant gets a
/// doc line), `impl Toolbox for Call`, `impl Holds<T> for Call` and `From<T> for Call` for each
/// tool type `T`, and an inherent `fn dispatch<H>(self, handler: &mut H) -> O` that passes the
/// arguments to `<H as Handle<T>>::handle`.
#[macro_export]
macro_rules! toolbox {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident $( ( $ty:ty ) )? ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                #[doc = ::core::concat!("A checked call of the `", ::core::stringify!($variant), "` tool.")]
                $(#[$vmeta])*
                $variant($crate::__toolbox_ty!($variant $(($ty))?)),
            )+
        }

        const _: () = ::core::assert!(
            $crate::gate::__names_unique(&[$(<$crate::__toolbox_ty!($variant $(($ty))?) as $crate::Tool>::NAME),+]),
            "toolbox: two tools have the same name",
        );

        impl $crate::gate::Toolbox for $name {
            const TOOLS: &'static [$crate::gate::ToolSpec] = &[
                $($crate::gate::ToolSpec::of::<$crate::__toolbox_ty!($variant $(($ty))?)>()),+
            ];

            fn tool_name(&self) -> &'static ::core::primitive::str {
                match self {
                    $(Self::$variant(_) => <$crate::__toolbox_ty!($variant $(($ty))?) as $crate::Tool>::NAME,)+
                }
            }

            fn decode(
                name: &::core::primitive::str,
                arguments: &$crate::__private::serde_json::Value,
            ) -> ::core::option::Option<::core::result::Result<Self, $crate::Violations>> {
                $(
                    if name == <$crate::__toolbox_ty!($variant $(($ty))?) as $crate::Tool>::NAME {
                        return ::core::option::Option::Some(
                            ::core::result::Result::map(
                                <$crate::__toolbox_ty!($variant $(($ty))?) as $crate::Tool>::from_value(arguments),
                                Self::$variant,
                            ),
                        );
                    }
                )+
                ::core::option::Option::None
            }
        }

        $(
            impl $crate::gate::Holds<$crate::__toolbox_ty!($variant $(($ty))?)> for $name {
                #[allow(unreachable_patterns)]
                fn get(&self) -> ::core::option::Option<&$crate::__toolbox_ty!($variant $(($ty))?)> {
                    match self {
                        Self::$variant(args) => ::core::option::Option::Some(args),
                        _ => ::core::option::Option::None,
                    }
                }
            }

            impl ::core::convert::From<$crate::__toolbox_ty!($variant $(($ty))?)> for $name {
                fn from(args: $crate::__toolbox_ty!($variant $(($ty))?)) -> Self {
                    Self::$variant(args)
                }
            }
        )+

        impl $name {
            /// Run this call with the handler's `toolgate::gate::Handle` impl for its tool.
            #[allow(dead_code)]
            $vis fn dispatch<H, O>(self, handler: &mut H) -> O
            where
                $(H: $crate::gate::Handle<$crate::__toolbox_ty!($variant $(($ty))?), Output = O>,)+
            {
                match self {
                    $(
                        Self::$variant(args) => <H as $crate::gate::Handle<
                            $crate::__toolbox_ty!($variant $(($ty))?),
                        >>::handle(handler, args),
                    )+
                }
            }
        }
    };
}

/// The argument type of a `toolbox!` variant: the written type, else the variant's name.
#[doc(hidden)]
#[macro_export]
macro_rules! __toolbox_ty {
    ($variant:ident) => {
        $variant
    };
    ($variant:ident ($ty:ty)) => {
        $ty
    };
}
