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

    // A required property that a closed object forbids (one a pattern may take is left alone).
    if let Some(add) = c.additional {
        if matches!(ir.node(add).body, Body::Never) && c.pattern_properties.is_empty() {
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

/// Whether the tightest lower and upper bounds of a subschema (each with whether it is
/// exclusive; see [`tighter`]) leave no number, as the validators compare a number with them:
/// an integer limit exactly, another as its nearest `f64`. So only where the limits are equal
/// (the same limit then: one exclusive leaves nothing), or where both their values and their
/// nearest `f64`s are in the wrong order: rounding to an `f64` is monotone and leaves an `f64`
/// as it is, so a limit above the other is then above it however each is compared.
pub(crate) fn no_number_between(lower: Option<(&Kw<Num>, bool)>, upper: Option<(&Kw<Num>, bool)>) -> bool {
    let Some(((lo, lx), (hi, hx))) = lower.zip(upper) else { return false };
    let ord = lo.value.cmp_value(&hi.value);
    (ord.is_eq() && (lx || hx)) || (ord.is_gt() && lo.value.as_f64() > hi.value.as_f64())
}

/// The tighter of two lower (`is_lower`) or upper bounds, each with whether it is exclusive (of
/// equal limits, the exclusive one).
pub(crate) fn tighter<'a>(
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

#[cfg(test)]
mod tests {
    use super::{no_number_between, Kw};
    use crate::json::{Loc, Num};

    /// Whether a lower bound `lo` and an upper bound `hi` (each exclusive or not) leave no number.
    fn empty(lo: &str, lx: bool, hi: &str, hx: bool) -> bool {
        let kw = |s: &str| Num::parse(s).map(|value| Kw { value, loc: Loc::Bytes { start: 0, end: 0 } });
        let (Some(lo), Some(hi)) = (kw(lo), kw(hi)) else { panic!("not numbers: {lo}, {hi}") };
        no_number_between(Some((&lo, lx)), Some((&hi, hx)))
    }

    #[test]
    fn bounds_that_leave_no_number() {
        // Equal limits: empty where one is exclusive.
        assert!(!empty("5", false, "5.0", false));
        assert!(empty("5", true, "5", false) && empty("5", false, "5.0", true) && empty("0.1", true, "0.10", true));
        // In the wrong order, as values and as `f64`s.
        assert!(
            empty("6", false, "5", false) && empty("-1", false, "-1.5", false) && empty("1e400", false, "1", false)
        );
        assert!(!empty("5", false, "6", true) && !empty("-2", true, "-1", false));
        // In the wrong order as values, but not as `f64`s: `0.1` (the `f64`) is within both.
        assert!(!empty("0.10000000000000000001", false, "0.1", false));
        // An integer limit compared exactly, the other as an `f64` that rounds to it: left.
        assert!(!empty("9007199254740993", false, "9007199254740992.5", false));
        // No bound on one side: never empty.
        let five = Kw { value: Num::parse("5").unwrap_or_else(|| panic!("5")), loc: Loc::Bytes { start: 0, end: 0 } };
        assert!(!no_number_between(Some((&five, true)), None) && !no_number_between(None, Some((&five, true))));
    }
}
