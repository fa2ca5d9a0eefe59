//! Compact JSON text of a tree (what `Tool::SCHEMA` advertises).

use std::fmt::Write as _;

use super::{Json, JsonValue};

/// Render compact JSON, members in source order, numbers as written.
#[must_use]
pub fn to_compact(j: &Json) -> String {
    let mut s = String::new();
    write_value(&j.value, &mut s);
    s
}

/// Render one value.
pub fn write_value(v: &JsonValue, out: &mut String) {
    match v {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsonValue::Number(n) => out.push_str(n.text()),
        JsonValue::String(s) => write_string(s, out),
        JsonValue::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(&x.value, out);
            }
            out.push(']');
        }
        JsonValue::Object(m) => {
            out.push('{');
            for (i, x) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(&x.key, out);
                out.push(':');
                write_value(&x.value.value, out);
            }
            out.push('}');
        }
    }
}

/// Render a JSON string literal.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
