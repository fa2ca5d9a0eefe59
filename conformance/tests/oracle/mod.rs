//! A deliberately naive reference validator for the keywords toolgate supports, written from the
//! text of JSON Schema draft 2020-12 (Validation vocabulary, sections 6.1 to 6.5, and Core
//! 10.3.1 / 10.3.2 for `items`, `properties`, `additionalProperties`). It decides nothing that
//! toolgate or jsonschema decides for it, and it is slow on purpose: it holds every number as
//! the decimal its JSON text denotes and compares those decimals digit by digit.
//!
//! When toolgate and jsonschema disagree, this is the third vote.
//!
//! Schemas of draft-07, draft-06 and draft-04 are read with their own meanings ([`Dialect`]):
//! `$ref` overrides its siblings, `items` may be an array (then `additionalItems` applies to
//! the rest), `dependencies`, and in draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` that
//! make `minimum`/`maximum` exclusive and an `integer` that is "a JSON number without a fraction
//! or exponent part" (draft-zyp-json-schema-04, section 3.5).

use serde_json::{Map, Number, Value};
use std::cmp::Ordering;

/// A JSON number as an exact decimal: `(-1)^negative × digits × 10^exponent`, `digits` without
/// leading or trailing zeros (empty for zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dec {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

impl Dec {
    /// The decimal that the number's JSON text denotes (serde_json writes an `f64` as its
    /// shortest round-trip decimal, which is the text a document holding it contains).
    pub fn of(n: &Number) -> Option<Self> {
        Self::parse(&n.to_string())
    }

    fn parse(text: &str) -> Option<Self> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (mantissa, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b.wrapping_sub(b'0')).collect();
        if digits.iter().any(|d| *d > 9) {
            return None;
        }
        let mut exponent = exp - i64::try_from(frac.len()).ok()?;
        while digits.first() == Some(&0) {
            digits.remove(0);
        }
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        if digits.is_empty() {
            return Some(Self { negative: false, digits, exponent: 0 });
        }
        Some(Self { negative, digits, exponent })
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether the value is an integer (Validation 6.1.1: "a number with a zero fractional part").
    pub fn is_integer(&self) -> bool {
        self.is_zero() || self.exponent >= 0
    }

    fn sign(&self) -> i8 {
        if self.is_zero() {
            0
        } else if self.negative {
            -1
        } else {
            1
        }
    }

    /// Compare by mathematical value.
    pub fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.sign(), other.sign());
        if a != b || a == 0 {
            return a.cmp(&b);
        }
        let len = |d: &Self| i64::try_from(d.digits.len()).unwrap_or(i64::MAX) + d.exponent;
        let mag = len(self).cmp(&len(other)).then_with(|| {
            let n = self.digits.len().max(other.digits.len());
            (0..n)
                .map(|i| self.digits.get(i).unwrap_or(&0).cmp(other.digits.get(i).unwrap_or(&0)))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        });
        if a < 0 {
            mag.reverse()
        } else {
            mag
        }
    }

    /// Whether `self / m` is an integer (Validation 6.2.1), `m > 0`.
    pub fn multiple_of(&self, m: &Self) -> bool {
        if self.is_zero() {
            return true;
        }
        // self = A × 10^ea, m = B × 10^eb, neither A nor B divisible by 10.
        let shift = self.exponent - m.exponent;
        if shift < 0 {
            // B × 10^k must divide A, but 10 does not divide A.
            return false;
        }
        // B divides A × 10^shift: long division of those digits by B.
        let mut rem: u128 = 0;
        let Some(b) = m.digits.iter().try_fold(0u128, |acc, d| acc.checked_mul(10)?.checked_add(u128::from(*d))) else {
            return false;
        };
        let zeros = usize::try_from(shift).unwrap_or(usize::MAX).min(4096);
        for d in self.digits.iter().copied().chain(std::iter::repeat_n(0, zeros)) {
            rem = (rem * 10 + u128::from(d)) % b;
        }
        rem == 0
    }
}

fn num(v: &Value) -> Option<Dec> {
    match v {
        Value::Number(n) => Dec::of(n),
        _ => None,
    }
}

/// JSON Schema equality (Core 4.2.2): numbers by value, objects regardless of member order.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (Dec::of(x), Dec::of(y)) {
            (Some(x), Some(y)) => x.cmp(&y).is_eq(),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// The dialect a schema is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// draft 2020-12 (and the fixtures, whatever they declare: they use no keyword whose meaning
    /// changed)
    Draft2020,
    /// draft-07
    Draft7,
    /// draft-06
    Draft6,
    /// draft-04
    Draft4,
}

impl Dialect {
    /// Before 2019-09: `$ref` overrides its siblings; tuple `items`, `additionalItems`,
    /// `dependencies`.
    fn legacy(self) -> bool {
        self != Self::Draft2020
    }
}

fn has_type(v: &Value, t: &str, dialect: Dialect) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "number" => v.is_number(),
        // draft-04: written without a fraction or exponent (serde_json holds exactly those as
        // `u64`/`i64`, within 64 bits)
        "integer" if dialect == Dialect::Draft4 => v.as_number().is_some_and(|n| !n.is_f64()),
        "integer" => num(v).is_some_and(|d| d.is_integer()),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

fn count(v: Option<&Value>) -> Option<u64> {
    let d = num(v?)?;
    if !d.is_integer() || d.negative {
        return None;
    }
    let mut n: u64 = 0;
    for x in &d.digits {
        n = n.checked_mul(10)?.checked_add(u64::from(*x))?;
    }
    for _ in 0..d.exponent {
        n = n.checked_mul(10)?;
    }
    Some(n)
}

fn len64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// The keywords this reference implements. A schema using any other (or a `$ref` that is not a
/// JSON Pointer into the same document, or an asserted `format`) is not covered: [`valid`] gives
/// no verdict for it.
const KEYWORDS: &[&str] = &[
    "$schema",
    "$comment",
    "$defs",
    "definitions",
    "$ref",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "properties",
    "additionalProperties",
    "items",
    "prefixItems",
    "contains",
    "propertyNames",
    "dependentSchemas",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "format",
];

/// The keywords of draft-07, draft-06 and draft-04 this reference implements besides [`KEYWORDS`].
const LEGACY_KEYWORDS: &[&str] = &["additionalItems", "dependencies"];

/// Whether [`valid`] can judge `schema` read in `dialect` (see [`KEYWORDS`]); `formats_asserted`
/// when `format` is an assertion (this reference has no format checks).
pub fn covers(schema: &Value, formats_asserted: bool, dialect: Dialect) -> bool {
    let sub = |x: &Value| covers(x, formats_asserted, dialect);
    match schema {
        Value::Bool(_) => true,
        Value::Object(o) => {
            // before 2019-09 the siblings of `$ref` are ignored (`definitions` stays reachable)
            let ref_overrides = dialect.legacy() && o.contains_key("$ref");
            o.iter().filter(|(k, _)| !ref_overrides || matches!(k.as_str(), "$ref" | "definitions" | "$defs")).all(
                |(k, v)| {
                    let known = (KEYWORDS.contains(&k.as_str())
                        || (dialect.legacy() && LEGACY_KEYWORDS.contains(&k.as_str()))
                        || k.starts_with("x-"))
                        && !(formats_asserted && k == "format");
                    let ref_ok = k != "$ref" || v.as_str().is_some_and(|r| r == "#" || r.starts_with("#/"));
                    known
                        && ref_ok
                        && match (k.as_str(), v) {
                            ("properties" | "$defs" | "definitions" | "dependentSchemas", _) => {
                                v.as_object().is_some_and(|m| m.values().all(sub))
                            }
                            // string lists or schemas
                            ("dependencies", _) => {
                                v.as_object().is_some_and(|m| m.values().all(|x| x.is_array() || sub(x)))
                            }
                            ("allOf" | "anyOf" | "oneOf" | "prefixItems", _) => {
                                v.as_array().is_some_and(|a| a.iter().all(sub))
                            }
                            ("items", Value::Array(a)) if dialect.legacy() => a.iter().all(sub),
                            (
                                "additionalProperties"
                                | "additionalItems"
                                | "items"
                                | "contains"
                                | "propertyNames"
                                | "not"
                                | "if"
                                | "then"
                                | "else"
                                | "unevaluatedItems"
                                | "unevaluatedProperties",
                                _,
                            ) => sub(v),
                            _ => true,
                        }
                },
            )
        }
        _ => false,
    }
}

/// Whether `instance` is valid against the whole `schema` document read in `dialect`, or `None`
/// when the schema is not [covered](covers) or recursion does not end.
pub fn valid(schema: &Value, instance: &Value, dialect: Dialect) -> Option<bool> {
    Eval { root: schema, depth: 0, dialect }.eval(schema, instance).map(|r| r.valid)
}

/// The outcome of one subschema on one instance, with the annotations that
/// `unevaluatedItems`/`unevaluatedProperties` look at (Core 11.2, 11.3).
#[derive(Default)]
struct Outcome {
    valid: bool,
    items: std::collections::BTreeSet<usize>,
    props: std::collections::BTreeSet<String>,
}

struct Eval<'a> {
    root: &'a Value,
    depth: u32,
    dialect: Dialect,
}

fn pointer<'v>(root: &'v Value, r: &str) -> Option<&'v Value> {
    let p = r.strip_prefix('#')?;
    let decoded = percent_decode(p)?;
    root.pointer(&decoded)
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl Eval<'_> {
    #[allow(clippy::too_many_lines)]
    fn eval(&mut self, schema: &Value, instance: &Value) -> Option<Outcome> {
        let s: &Map<String, Value> = match schema {
            Value::Bool(b) => return Some(Outcome { valid: *b, ..Outcome::default() }),
            Value::Object(s) => s,
            _ => return None,
        };
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let mut out = Outcome { valid: true, ..Outcome::default() };
        let fail = |out: &mut Outcome| out.valid = false;

        // In-place applicators: their annotations count only when they pass.
        let absorb = |out: &mut Outcome, r: Outcome| {
            out.items.extend(r.items);
            out.props.extend(r.props);
        };
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let target = pointer(self.root, r)?;
            if self.dialect.legacy() {
                // before 2019-09 `$ref` is the whole schema: its siblings are ignored
                let r = self.eval(target, instance);
                self.depth -= 1;
                return r;
            }
            let r = self.eval(target, instance)?;
            if r.valid {
                absorb(&mut out, r);
            } else {
                fail(&mut out);
            }
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            for sub in all {
                let r = self.eval(sub, instance)?;
                if r.valid {
                    absorb(&mut out, r);
                } else {
                    fail(&mut out);
                }
            }
        }
        if let Some(Value::Array(any)) = s.get("anyOf") {
            let mut one = false;
            for sub in any {
                let r = self.eval(sub, instance)?;
                if r.valid {
                    one = true;
                    absorb(&mut out, r);
                }
            }
            if !one {
                fail(&mut out);
            }
        }
        if let Some(Value::Array(one_of)) = s.get("oneOf") {
            let mut passing = Vec::new();
            for sub in one_of {
                let r = self.eval(sub, instance)?;
                if r.valid {
                    passing.push(r);
                }
            }
            if passing.len() == 1 {
                if let Some(r) = passing.pop() {
                    absorb(&mut out, r);
                }
            } else {
                fail(&mut out);
            }
        }
        if let Some(n) = s.get("not") {
            if self.eval(n, instance)?.valid {
                fail(&mut out);
            }
        }
        if let Some(i) = s.get("if") {
            let r = self.eval(i, instance)?;
            let branch = if r.valid {
                absorb(&mut out, r);
                s.get("then")
            } else {
                s.get("else")
            };
            if let Some(b) = branch {
                let r = self.eval(b, instance)?;
                if r.valid {
                    absorb(&mut out, r);
                } else {
                    fail(&mut out);
                }
            }
        }

        let dialect = self.dialect;
        let type_ok = s.get("type").is_none_or(|t| match t {
            Value::String(t) => has_type(instance, t, dialect),
            Value::Array(ts) => ts.iter().any(|t| t.as_str().is_some_and(|t| has_type(instance, t, dialect))),
            _ => false,
        });
        let enum_ok = s.get("enum").is_none_or(|e| e.as_array().is_some_and(|e| e.iter().any(|x| equal(x, instance))));
        let const_ok = s.get("const").is_none_or(|c| equal(c, instance));
        if !(type_ok && enum_ok && const_ok) {
            fail(&mut out);
        }

        if let Some(n) = num(instance) {
            let bound = |k: &str, pass: &dyn Fn(Ordering) -> bool| {
                s.get(k).and_then(num).is_none_or(|limit| pass(n.cmp(&limit)))
            };
            // draft-04: `"exclusiveMinimum": true` makes `minimum` exclusive (a boolean is no
            // number, so the numeric checks below pass over it)
            let exclusive = |k: &str| s.get(k) == Some(&Value::Bool(true));
            let (min_ok, max_ok): (&dyn Fn(Ordering) -> bool, &dyn Fn(Ordering) -> bool) = (
                if exclusive("exclusiveMinimum") { &Ordering::is_gt } else { &Ordering::is_ge },
                if exclusive("exclusiveMaximum") { &Ordering::is_lt } else { &Ordering::is_le },
            );
            let fine = bound("minimum", min_ok)
                && bound("maximum", max_ok)
                && bound("exclusiveMinimum", &Ordering::is_gt)
                && bound("exclusiveMaximum", &Ordering::is_lt)
                && s.get("multipleOf").and_then(num).is_none_or(|m| n.multiple_of(&m));
            if !fine {
                fail(&mut out);
            }
        }

        if let Value::String(x) = instance {
            let chars = len64(x.chars().count());
            if count(s.get("minLength")).is_some_and(|m| chars < m)
                || count(s.get("maxLength")).is_some_and(|m| chars > m)
            {
                fail(&mut out);
            }
        }

        if let Value::Array(a) = instance {
            let n = len64(a.len());
            if count(s.get("minItems")).is_some_and(|m| n < m) || count(s.get("maxItems")).is_some_and(|m| n > m) {
                fail(&mut out);
            }
            if s.get("uniqueItems") == Some(&Value::Bool(true))
                && a.iter().enumerate().any(|(i, x)| a.iter().skip(i + 1).any(|y| equal(x, y)))
            {
                fail(&mut out);
            }
            // before 2019-09 an array of `items` is what 2020-12 writes `prefixItems`, and
            // `additionalItems` then plays the part of 2020-12 `items`
            let (prefix, rest) = match (s.get("items"), self.dialect.legacy()) {
                (Some(Value::Array(tuple)), true) => (Some(tuple), s.get("additionalItems")),
                (items, true) => (None, items),
                (items, false) => (s.get("prefixItems").and_then(Value::as_array), items),
            };
            let prefix = prefix.map_or(&[][..], Vec::as_slice);
            for (i, (sub, x)) in prefix.iter().zip(a).enumerate() {
                out.items.insert(i);
                if !self.eval(sub, x)?.valid {
                    fail(&mut out);
                }
            }
            if let Some(items) = rest {
                for (i, x) in a.iter().enumerate().skip(prefix.len()) {
                    out.items.insert(i);
                    if !self.eval(items, x)?.valid {
                        fail(&mut out);
                    }
                }
            }
            if let Some(c) = s.get("contains") {
                let mut matched = 0u64;
                for (i, x) in a.iter().enumerate() {
                    if self.eval(c, x)?.valid {
                        matched += 1;
                        out.items.insert(i);
                    }
                }
                let min = count(s.get("minContains")).unwrap_or(1);
                if matched < min || count(s.get("maxContains")).is_some_and(|m| matched > m) {
                    fail(&mut out);
                }
            }
        }

        if let Value::Object(o) = instance {
            let n = len64(o.len());
            if count(s.get("minProperties")).is_some_and(|m| n < m)
                || count(s.get("maxProperties")).is_some_and(|m| n > m)
            {
                fail(&mut out);
            }
            if let Some(Value::Array(req)) = s.get("required") {
                if !req.iter().all(|r| r.as_str().is_some_and(|r| o.contains_key(r))) {
                    fail(&mut out);
                }
            }
            if let Some(Value::Object(dr)) = s.get("dependentRequired") {
                for (k, names) in dr {
                    if o.contains_key(k)
                        && !names
                            .as_array()
                            .is_some_and(|ns| ns.iter().all(|r| r.as_str().is_some_and(|r| o.contains_key(r))))
                    {
                        fail(&mut out);
                    }
                }
            }
            if let Some(Value::Object(deps)) = s.get("dependencies").filter(|_| self.dialect.legacy()) {
                for (_, dep) in deps.iter().filter(|(k, _)| o.contains_key(*k)) {
                    let ok = match dep {
                        Value::Array(names) => names.iter().all(|r| r.as_str().is_some_and(|r| o.contains_key(r))),
                        sub => self.eval(sub, instance)?.valid,
                    };
                    if !ok {
                        fail(&mut out);
                    }
                }
            }
            if let Some(Value::Object(ds)) = s.get("dependentSchemas") {
                for (k, sub) in ds {
                    if o.contains_key(k) {
                        let r = self.eval(sub, instance)?;
                        if r.valid {
                            absorb(&mut out, r);
                        } else {
                            fail(&mut out);
                        }
                    }
                }
            }
            if let Some(pn) = s.get("propertyNames") {
                for k in o.keys() {
                    if !self.eval(pn, &Value::String(k.clone()))?.valid {
                        fail(&mut out);
                    }
                }
            }
            let props = s.get("properties").and_then(Value::as_object);
            for (k, v) in o {
                if let Some(p) = props.and_then(|p| p.get(k)) {
                    out.props.insert(k.clone());
                    if !self.eval(p, v)?.valid {
                        fail(&mut out);
                    }
                } else if let Some(add) = s.get("additionalProperties") {
                    out.props.insert(k.clone());
                    if !self.eval(add, v)?.valid {
                        fail(&mut out);
                    }
                }
            }
        }

        // Last: what no other keyword of this schema (or its passing in-place subschemas) evaluated.
        if let (Some(u), Value::Array(a)) = (s.get("unevaluatedItems"), instance) {
            for (i, x) in a.iter().enumerate() {
                if !out.items.contains(&i) {
                    if !self.eval(u, x)?.valid {
                        fail(&mut out);
                    }
                    out.items.insert(i);
                }
            }
        }
        if let (Some(u), Value::Object(o)) = (s.get("unevaluatedProperties"), instance) {
            for (k, v) in o {
                if !out.props.contains(k) {
                    if !self.eval(u, v)?.valid {
                        fail(&mut out);
                    }
                    out.props.insert(k.clone());
                }
            }
        }
        if !out.valid {
            // a failing schema produces no annotations
            out.items.clear();
            out.props.clear();
        }
        self.depth -= 1;
        Some(out)
    }
}
