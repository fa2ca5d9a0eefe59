//! Exact number semantics: comparisons, integer test and `multipleOf` without rounding.
//!
//! JSON Schema compares numbers by mathematical value. `serde_json` holds a number as `u64`,
//! `i64` or `f64`; these helpers compare across the three exactly and decide `multipleOf` on the
//! decimal value of both numbers, never on a rounded quotient. None of them allocates.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::Number;

/// A numeric limit from a schema, in the narrowest exact representation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// a signed integer
    I(i64),
    /// an unsigned integer above `i64::MAX`
    U(u64),
    /// anything else
    F(f64),
}

#[derive(Clone, Copy)]
enum N {
    Int(i128),
    F(f64),
}

#[inline]
fn classify(n: &Number) -> N {
    if let Some(i) = n.as_i64() {
        N::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        N::Int(i128::from(u))
    } else {
        N::F(n.as_f64().unwrap_or(0.0))
    }
}

#[inline]
fn limit_n(l: Limit) -> N {
    match l {
        Limit::I(i) => N::Int(i128::from(i)),
        Limit::U(u) => N::Int(i128::from(u)),
        Limit::F(f) => N::F(f),
    }
}

/// Compare a finite `f64` with an integer, exactly.
#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
#[inline]
fn cmp_f_int(f: f64, i: i128) -> Ordering {
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f.is_nan() {
        return Ordering::Less;
    }
    // An integer within ±2^53 is exact as an `f64`: one float comparison decides.
    if i.unsigned_abs() <= 1 << 53 {
        return f.partial_cmp(&(i as f64)).unwrap_or(Ordering::Less);
    }
    if f >= TWO_127 {
        return Ordering::Greater;
    }
    if f < -TWO_127 {
        return Ordering::Less;
    }
    let t = f.trunc();
    let ti = t as i128; // exact: |t| < 2^127 and t is integral
    match ti.cmp(&i) {
        Ordering::Equal => {
            let frac = f - t;
            if frac > 0.0 {
                Ordering::Greater
            } else if frac < 0.0 {
                Ordering::Less
            } else {
                Ordering::Equal
            }
        }
        o => o,
    }
}

#[inline]
fn cmp_n(a: N, b: N) -> Ordering {
    match (a, b) {
        (N::Int(x), N::Int(y)) => x.cmp(&y),
        (N::F(x), N::Int(y)) => cmp_f_int(x, y),
        (N::Int(x), N::F(y)) => cmp_f_int(y, x).reverse(),
        (N::F(x), N::F(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Compare a JSON number with a schema limit by mathematical value.
#[inline]
#[must_use]
pub fn cmp_limit(n: &Number, limit: Limit) -> Ordering {
    cmp_n(classify(n), limit_n(limit))
}

/// Whether two JSON numbers are mathematically equal (`1` equals `1.0`).
#[must_use]
pub fn num_eq(a: &Number, b: &Number) -> bool {
    cmp_n(classify(a), classify(b)) == Ordering::Equal
}

/// Whether a JSON number is an integer in JSON Schema's sense (`1.0` is, `1.5` is not).
#[inline]
#[must_use]
pub fn is_integer(n: &Number) -> bool {
    match classify(n) {
        N::Int(_) => true,
        N::F(f) => f.is_finite() && f.fract() == 0.0,
    }
}

/// The value as `i64`, also for integral floats such as `5.0`.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub fn to_i64(n: &Number) -> Option<i64> {
    match classify(n) {
        N::Int(i) => i64::try_from(i).ok(),
        N::F(f) => {
            // i64::MIN is -2^63 (exact in f64); i64::MAX + 1 is 2^63.
            if f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
                Some(f as i64)
            } else {
                None
            }
        }
    }
}

/// The value as `u64`, also for integral floats such as `5.0`.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
pub fn to_u64(n: &Number) -> Option<u64> {
    match classify(n) {
        N::Int(i) => u64::try_from(i).ok(),
        N::F(f) => {
            if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                Some(f as u64)
            } else {
                None
            }
        }
    }
}

/// A positive decimal `mantissa × 10^exponent` (a schema's `multipleOf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decimal {
    /// the digits, without trailing zeros
    pub mantissa: u64,
    /// the power of ten
    pub exponent: i32,
}

struct StackBuf {
    buf: [u8; 64],
    len: usize,
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The absolute value of a number as `mantissa × 10^exponent` (shortest round-trip digits for
/// floats), or `None` for a float that is not finite.
fn decimal_of(n: &Number) -> Option<(u128, i32)> {
    match classify(n) {
        N::Int(i) => Some((i.unsigned_abs(), 0)),
        N::F(f) => {
            if !f.is_finite() {
                return None;
            }
            let mut b = StackBuf { buf: [0; 64], len: 0 };
            write!(b, "{:e}", f.abs()).ok()?;
            let text = b.buf.get(..b.len)?;
            let (mant, exp) = match text.iter().position(|&c| c == b'e') {
                Some(p) => (text.get(..p)?, text.get(p + 1..)?),
                None => (text, &b"0"[..]),
            };
            let mut digits: u128 = 0;
            let mut frac_digits: i32 = 0;
            let mut after_point = false;
            for &c in mant {
                if c == b'.' {
                    after_point = true;
                } else {
                    digits = digits.checked_mul(10)?.checked_add(u128::from(c - b'0'))?;
                    if after_point {
                        frac_digits += 1;
                    }
                }
            }
            let exp: i32 = std::str::from_utf8(exp).ok()?.parse().ok()?;
            Some((digits, exp - frac_digits))
        }
    }
}

fn strip(mut m: u128, mut e: i32) -> (u128, i32) {
    if m == 0 {
        return (0, 0);
    }
    while m % 10 == 0 {
        m /= 10;
        e += 1;
    }
    (m, e)
}

fn pow10_mod(mut e: u32, m: u128) -> u128 {
    let mut result = 1 % m;
    let mut base = 10 % m;
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % m;
        }
        base = base * base % m;
        e >>= 1;
    }
    result
}

/// Whether `n` is an integer multiple of `divisor`, decided on decimal values (so `0.0075` is a
/// multiple of `0.0001`, and `1e308` is not a multiple of `0.123456789`).
#[must_use]
pub fn multiple_of(n: &Number, divisor: Decimal) -> bool {
    let Some((a, ea)) = decimal_of(n) else { return false };
    let (a, ea) = strip(a, ea);
    if a == 0 {
        return true;
    }
    let (b, eb) = strip(u128::from(divisor.mantissa), divisor.exponent);
    if b == 0 {
        return false;
    }
    let e = i64::from(ea) - i64::from(eb);
    if e >= 0 {
        // b | a * 10^e
        let Ok(e) = u32::try_from(e) else { return false };
        (a % b) * pow10_mod(e, b) % b == 0
    } else {
        // b * 10^-e | a
        let mut d = b;
        let mut k = -e;
        while k > 0 {
            match d.checked_mul(10) {
                Some(x) => d = x,
                None => return false, // d > a
            }
            k -= 1;
        }
        a % d == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        serde_json::from_str(s).unwrap_or_else(|_| Number::from(0))
    }

    #[test]
    fn compares_across_representations() {
        assert_eq!(cmp_limit(&n("1.0"), Limit::I(1)), Ordering::Equal);
        assert_eq!(cmp_limit(&n("1.5"), Limit::I(1)), Ordering::Greater);
        assert_eq!(cmp_limit(&n("-1.5"), Limit::I(-1)), Ordering::Less);
        assert_eq!(cmp_limit(&n("18446744073709551615"), Limit::I(i64::MAX)), Ordering::Greater);
        assert_eq!(cmp_limit(&n("9007199254740993"), Limit::F(9_007_199_254_740_992.0)), Ordering::Greater);
        assert_eq!(cmp_limit(&n("1e308"), Limit::U(u64::MAX)), Ordering::Greater);
        assert_eq!(cmp_limit(&n("-0"), Limit::I(0)), Ordering::Equal);
        assert!(num_eq(&n("1"), &n("1.0")));
        assert!(!num_eq(&n("1"), &n("1.0000001")));
    }

    #[test]
    fn integers() {
        assert!(is_integer(&n("1.0")));
        assert!(is_integer(&n("1e308")));
        assert!(!is_integer(&n("1.5")));
        assert_eq!(to_i64(&n("5.0")), Some(5));
        assert_eq!(to_i64(&n("9223372036854775808")), None);
        assert_eq!(to_u64(&n("9223372036854775808")), Some(9_223_372_036_854_775_808));
        assert_eq!(to_u64(&n("-1")), None);
    }

    #[test]
    fn multiple_of_is_decimal() {
        let d = |m, e| Decimal { mantissa: m, exponent: e };
        assert!(multiple_of(&n("0.0075"), d(1, -4)));
        assert!(!multiple_of(&n("0.00751"), d(1, -4)));
        assert!(multiple_of(&n("10"), d(2, 0)));
        assert!(!multiple_of(&n("7"), d(2, 0)));
        assert!(multiple_of(&n("4.5"), d(15, -1)));
        assert!(!multiple_of(&n("35"), d(15, -1)));
        assert!(!multiple_of(&n("1e308"), d(123_456_789, -9)));
        assert!(multiple_of(&n("12391239123"), d(1, -8)));
        assert!(multiple_of(&n("0"), d(7, 0)));
        assert!(multiple_of(&n("-6"), d(3, 0)));
        assert!(!multiple_of(&n("0.5"), d(1, 0)));
    }
}
