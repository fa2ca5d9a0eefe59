//! Cross-keyword rules: schemas that can never validate anything useful are refused.

use crate::diag::Diagnostics;
use crate::json::{JsonValue, Num};
use crate::lower::describe;
use crate::model::{Body, Checks, Ir, Kw};

/// Check every node of `ir`, reporting into `diags`.
pub fn check(ir: &Ir, diags: &mut Diagnostics) {
    for node in &ir.nodes {
        if let Body::Checks(c) = &node.body {
            check_node(ir, c, &node.pointer, diags);
        }
    }
}

fn range(diags: &mut Diagnostics, ptr: &str, min: Option<&Kw<u64>>, max: Option<&Kw<u64>>, names: (&str, &str)) {
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo.value > hi.value {
            diags.error(
                lo.loc,
                Some(&format!("{ptr}/{}", names.0)),
                format!(
                    "`{}` {} is greater than `{}` {}: no value can satisfy both",
                    names.0, lo.value, names.1, hi.value
                ),
            );
        }
    }
}

fn check_node(ir: &Ir, c: &Checks, ptr: &str, diags: &mut Diagnostics) {
    range(diags, ptr, c.min_length.as_ref(), c.max_length.as_ref(), ("minLength", "maxLength"));
    range(diags, ptr, c.min_items.as_ref(), c.max_items.as_ref(), ("minItems", "maxItems"));
    range(diags, ptr, c.min_properties.as_ref(), c.max_properties.as_ref(), ("minProperties", "maxProperties"));
    numeric_range(c, ptr, diags);

    // A required property that a closed object forbids.
    if let Some(add) = c.additional {
        if matches!(ir.node(add).body, Body::Never) {
            for (name, loc) in &c.required {
                if !c.properties.iter().any(|p| &p.name == name) {
                    diags.error(
                        *loc,
                        Some(&format!("{ptr}/required")),
                        format!(
                            "{name:?} is required but not declared in `properties`, and \
                             `additionalProperties` is false: no object can be valid"
                        ),
                    );
                }
            }
        }
    }

    // enum / const members that fail the schema's own `type`.
    if let Some(types) = c.type_list() {
        let fits = |v: &JsonValue| types.iter().any(|t| t.matches(v));
        let names = types.iter().map(|t| t.name()).collect::<Vec<_>>().join(" or ");
        if let Some(e) = &c.enum_values {
            for (i, (v, loc)) in e.value.iter().enumerate() {
                if !fits(v) {
                    diags.error(
                        *loc,
                        Some(&format!("{ptr}/enum/{i}")),
                        format!("`enum` value {} can never be valid: `type` is {names}", describe(v)),
                    );
                }
            }
        }
        if let Some(k) = &c.const_value {
            if !fits(&k.value) {
                diags.error(
                    k.loc,
                    Some(&format!("{ptr}/const")),
                    format!("`const` {} can never be valid: `type` is {names}", describe(&k.value)),
                );
            }
        }
    }
}

fn numeric_range(c: &Checks, ptr: &str, diags: &mut Diagnostics) {
    // The tightest lower and upper bounds, with exclusivity.
    let lower = tighter(c.minimum.as_ref().map(|k| (k, false)), c.exclusive_minimum.as_ref().map(|k| (k, true)), true);
    let upper = tighter(c.maximum.as_ref().map(|k| (k, false)), c.exclusive_maximum.as_ref().map(|k| (k, true)), false);
    if let (Some((lo, lx)), Some((hi, hx))) = (lower, upper) {
        let ord = lo.value.cmp_value(&hi.value);
        if ord.is_gt() || (ord.is_eq() && (lx || hx)) {
            let name = |x: bool, base: &str| {
                if x {
                    format!("exclusive{}{}", base[..1].to_ascii_uppercase(), &base[1..])
                } else {
                    base.to_owned()
                }
            };
            diags.error(
                lo.loc,
                Some(&format!("{ptr}/{}", name(lx, "minimum"))),
                format!(
                    "`{}` {} and `{}` {} leave no number that satisfies both",
                    name(lx, "minimum"),
                    lo.value.text(),
                    name(hx, "maximum"),
                    hi.value.text()
                ),
            );
        }
    }
}

fn tighter<'a>(
    a: Option<(&'a Kw<Num>, bool)>,
    b: Option<(&'a Kw<Num>, bool)>,
    is_lower: bool,
) -> Option<(&'a Kw<Num>, bool)> {
    match (a, b) {
        (Some(x), Some(y)) => {
            let ord = x.0.value.cmp_value(&y.0.value);
            let pick_x = if is_lower { ord.is_gt() } else { ord.is_lt() };
            if pick_x || (ord.is_eq() && x.1) {
                Some(x)
            } else {
                Some(y)
            }
        }
        (x, None) => x,
        (None, y) => y,
    }
}
