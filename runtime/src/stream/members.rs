//! The numbers of an `enum` or a `const`, and whether a number being read may still become one.
//!
//! A number is compared with the members by the value `serde_json` reads (`1.0` is `1`,
//! `1.99999999999999999999` is `2`, `1e-400` is `0`): its leading digits alone rule nothing
//! out, but they bound the values it may still take. A member stays reachable while, at some
//! scale, the values its leading significant digits can still become (at most [`DIGITS`] of them
//! are looked at) come within a relative [`EPS`] of it: far more than an `f64`'s rounding moves
//! a value (2^-53), far less than a digit of the twelfth place moves it (10^-11), so the rule
//! errs on the side of "reachable", never the other. Where that slack is too coarse to tell, the
//! number is read at each of the three exponents that bring its magnitude within one of the
//! member's (those the exponent's sign and digits so far may still become):
//!
//! - from its [`DIGITS`]th significant digit on, more digits take the mantissa between what it
//!   reads as and what the next decimal of its length reads as (`1.99999999999998` dies at its
//!   `8` under `{"const": 2}`; `1.99999999999999` lives, as `1.99999999999999999999` is 2);
//! - from its `e` on, nothing but the exponent is left to come: it is read as `serde_json` reads
//!   it and compared with the member exactly (`0.9999999999999e` dies at its `e` under
//!   `{"const": 1}`; `0.99999999999999999999e0` is 1).
//!
//! Zero and the subnormal members are reachable wherever the number may still round to them
//! (any mantissa with a negative exponent to come, `1e-400`).
//!
//! The check is a function of the number's text so far, read again at each byte while that text
//! is at most [`WATCHED`] bytes long (a constant cost a byte; beyond it the number is judged where
//! it ends, as every number was). It only ever says "unreachable" of a prefix whose every
//! continuation is unreachable too, so a number watched byte by byte dies at the first byte
//! that makes it so, whatever the chunking.

use super::bounds::{read_with, Read};
use super::machine::magnitude;
use crate::num::Limit;
use crate::text::{float_roundtrip, Num};

/// One number of an `enum` or `const`, as the macro emits it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumMember {
    /// zero (`0`, `-0`, `0.0`)
    Zero,
    /// a number so close to zero that an `f64` holds it only as a subnormal: reachable from any
    /// number of its sign that may still be that small
    Tiny {
        /// it is below zero
        negative: bool,
    },
    /// `lead × 10^scale`, its shortest decimal form (`lead` in [1, 10))
    Normal {
        /// it is below zero
        negative: bool,
        /// its leading digits, as a value in [1, 10)
        lead: f64,
        /// its decimal exponent
        scale: i32,
        /// its value, exactly as the validators compare a number with it
        value: Limit,
    },
}

/// The significant digits looked at (more only narrow a number by less than [`EPS`] allows for).
pub const DIGITS: u32 = 12;

/// How close, relatively, the values a number may take must come to a member for it to stay
/// reachable.
pub const EPS: f64 = 1e-12;

/// Where an exponent's value stops being counted (no member needs one near it).
const EXP_CAP: u64 = 1 << 40;

/// A number is watched while its text so far is at most this long.
pub const WATCHED: usize = 64;

/// The exponent of a number so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exp {
    /// no `e` yet: the mantissa may go on
    None,
    /// an `e`, and nothing after it
    Any,
    /// a sign (`true`: `-`), and no digit after it
    Sign(bool),
    /// digits (`true`: after a `-`), of value `v` so far (saturating; 0 while only zeros)
    Digits(bool, u64),
}

/// What a number's text so far says of the values it may take.
#[derive(Debug, Clone, Copy)]
struct Prefix {
    negative: bool,
    /// the first significant digits (at most [`DIGITS`]), as an integer, and how many
    digits: u64,
    n: u32,
    /// a digit other than 0 beyond those (zeros there change nothing)
    more: bool,
    /// the decimal magnitude of the leading significant digit (`12.5`: 1, `0.05`: -2), once the
    /// mantissa is complete
    mag: i64,
    /// where the mantissa ends (its `e`), once it is complete
    end: usize,
    exp: Exp,
}

impl Prefix {
    /// Read a number's text so far (a prefix of JSON's number grammar).
    fn read(text: &[u8]) -> Self {
        let mut p = Self { negative: false, digits: 0, n: 0, more: false, mag: 0, end: 0, exp: Exp::None };
        for (i, &c) in text.iter().enumerate() {
            match (p.exp, c) {
                (Exp::None, b'-') => p.negative = true,
                (Exp::None, b'e' | b'E') => {
                    p.exp = Exp::Any;
                    p.mag = magnitude(text.get(..i).unwrap_or_default()).unwrap_or(0);
                    p.end = i;
                }
                (Exp::None, b'0'..=b'9') => {
                    if p.n == 0 && c == b'0' {
                        continue;
                    }
                    if p.n < DIGITS {
                        p.digits = p.digits * 10 + u64::from(c - b'0');
                        p.n += 1;
                    } else if c != b'0' {
                        p.more = true;
                    }
                }
                (Exp::Any, b'+' | b'-') => p.exp = Exp::Sign(c == b'-'),
                (Exp::Any, b'0'..=b'9') => p.exp = Exp::Digits(false, u64::from(c - b'0')),
                (Exp::Sign(neg), b'0'..=b'9') => p.exp = Exp::Digits(neg, u64::from(c - b'0')),
                (Exp::Digits(neg, v), b'0'..=b'9') => {
                    // (Capped far beyond any exponent a member needs.)
                    p.exp = Exp::Digits(neg, (v * 10 + u64::from(c - b'0')).min(EXP_CAP));
                }
                _ => {}
            }
        }
        p
    }

    /// Whether the exponent may still become `e` (signed).
    fn exponent_may_be(&self, e: i64) -> bool {
        let (neg, v) = match self.exp {
            Exp::None | Exp::Any => return true,
            Exp::Sign(neg) => return e == 0 || (e < 0) == neg,
            Exp::Digits(neg, v) => (neg, v),
        };
        if e != 0 && (e < 0) != neg {
            return false;
        }
        if v == 0 {
            // Only zeros so far: any value of this sign is still to come.
            return true;
        }
        // Its digits must begin with those so far (`12` may become `12` or `120`..).
        let mut x = e.unsigned_abs();
        while x > v {
            x /= 10;
        }
        x == v
    }

    /// Whether the number may still round to zero or to a subnormal (of either sign).
    fn may_be_tiny(&self) -> bool {
        match self.exp {
            // A mantissa of zeros so far may go on with any digits, or end as zero.
            _ if self.n == 0 => true,
            Exp::None | Exp::Any => true,
            Exp::Sign(neg) | Exp::Digits(neg, _) => neg,
        }
    }

    /// Whether the number may still read as `member`.
    fn may_be(&self, member: NumMember) -> bool {
        let complete = self.exp != Exp::None;
        match member {
            NumMember::Zero => self.may_be_tiny(),
            // A complete mantissa of zeros is zero.
            _ if self.n == 0 && complete => false,
            NumMember::Tiny { negative } => negative == self.negative && self.may_be_tiny(),
            NumMember::Normal { negative, lead, scale, .. } => {
                if negative != self.negative {
                    return false;
                }
                if self.n == 0 {
                    // No significant digit yet: any may come.
                    return true;
                }
                // The leading digits, as a value in [1, 10), and how far more digits may raise it.
                let low = POW10.get(self.n as usize - 1).map_or(1.0, |p| self.digits as f64 / p);
                let width =
                    if complete && !self.more { 0.0 } else { POW10.get(self.n as usize - 1).map_or(1.0, |p| 1.0 / p) };
                let (lo, hi) = (lead * (1.0 - EPS), lead * (1.0 + EPS));
                // At its own scale, or one lower: `9.99999999999999999999e-1` is 1. (Never one
                // higher: a number whose digits begin `1` that reads as a member just below a
                // power of ten would make that power its shortest form, and its `lead` 1.)
                [(-1i64, 0.1), (0, 1.0)].into_iter().any(|(shift, f)| {
                    hi >= low * f
                        && lo <= (low + width) * f
                        && (!complete || self.exponent_may_be(i64::from(scale) + shift - self.mag))
                })
            }
        }
    }
}

impl Prefix {
    /// Whether the number may still read as `member` exactly, once the slack of
    /// [`Prefix::may_be`] is too coarse to tell: at one of the three exponents that bring its
    /// magnitude within one of the member's (and that the exponent so far may still become),
    ///
    /// - a complete mantissa (at its `e`) is read as `serde_json` reads it and compared with the
    ///   member: nothing but the exponent is left to come;
    /// - a mantissa of at least [`DIGITS`] significant digits may still take the values between
    ///   what it reads as now and what the next decimal of its length (`0.99` → `1.00`) reads as
    ///   ([`within_reach`]).
    fn exactly(&self, member: NumMember, number: &[u8]) -> bool {
        let NumMember::Normal { scale, value, .. } = member else { return true };
        let (mantissa, mag) = match self.exp {
            Exp::None if self.n < DIGITS => return true,
            Exp::None => match magnitude(number) {
                Some(mag) => (number, mag),
                None => return true,
            },
            _ => match number.get(..self.end) {
                Some(mantissa) => (mantissa, self.mag),
                None => return true,
            },
        };
        (-1..=1).any(|shift| {
            let e = i64::from(scale) + shift - mag;
            self.exponent_may_be(e)
                && if self.exp == Exp::None {
                    within_reach(mantissa, e, value)
                } else {
                    read_with(&[mantissa], e, Read::Serde).is_some_and(|n| n.compare(value).is_eq())
                }
        })
    }
}

/// Whether a mantissa so far, `mantissa` (complete but for more digits), with the exponent `e`
/// may still read as `value`. More digits take it anywhere in `[m, m')`, `m'` the next decimal
/// of its length. Read correctly rounded (`serde_json` with `float_roundtrip`), the values they
/// take are every `f64` from what `m` reads as to what `m'` reads as (the last one too, unless
/// `m'` is a tie exactly: erring on the side of "reachable"). Without `float_roundtrip`,
/// `serde_json` keeps the first 19 or 20 significant digits, rounds them to an `f64` and
/// multiplies or divides by a power of ten (twice below 10^-308): at most four roundings of
/// the value and two of the powers, under six units in the last place from the correctly
/// rounded value, so eight are allowed for on either side; and once its digits no longer fit a
/// `u64`, later ones change nothing, so the mantissa is read as it stands.
fn within_reach(mantissa: &[u8], e: i64, value: Limit) -> bool {
    let dot: &[u8] = if mantissa.last() == Some(&b'.') { b"0" } else { b"" };
    let fast = !float_roundtrip();
    if fast && saturated(mantissa) {
        return read_with(&[mantissa, dot], e, Read::Serde).is_some_and(|n| n.compare(value).is_eq());
    }
    let mut next = [0u8; WATCHED + 2];
    let Some(next) = next_decimal(mantissa, &mut next) else { return true };
    let (Some(Num::F(low)), Some(Num::F(high))) =
        (read_with(&[mantissa, dot], e, Read::Exact), read_with(&[next], e, Read::Exact))
    else {
        // (Beyond the `f64` range: left to the exponent's own watch.)
        return true;
    };
    let (low, high) = if fast { (ulps(low, -8), ulps(high, 8)) } else { (low, high) };
    let (below, above) = if low <= high { (low, high) } else { (high, low) };
    !Num::F(below).compare(value).is_gt() && !Num::F(above).compare(value).is_lt()
}

/// `x` moved `k` units in the last place away from zero (toward it when `k` is negative, at
/// most to zero).
fn ulps(x: f64, k: i64) -> f64 {
    const SIGN: u64 = 1 << 63;
    let magnitude = x.to_bits() & !SIGN;
    let moved = if k < 0 { magnitude.saturating_sub(k.unsigned_abs()) } else { magnitude + k.unsigned_abs() };
    f64::from_bits((x.to_bits() & SIGN) | moved.min(f64::INFINITY.to_bits()))
}

/// Whether `serde_json` without `float_roundtrip` reads a mantissa so far the same whatever
/// digits follow (its significand no longer takes one: each is skipped, or only counted).
fn saturated(mantissa: &[u8]) -> bool {
    let (mut sig, mut point) = (0u64, false);
    for &c in mantissa {
        match c {
            b'.' => point = true,
            b'0'..=b'9' => match sig.checked_mul(10).and_then(|s| s.checked_add(u64::from(c - b'0'))) {
                Some(s) => sig = s,
                // In its fraction, a digit that does not fit ends the significand for good;
                // in its integer part, only a digit is counted (a fraction digit may still fit).
                None if point => return true,
                None => {}
            },
            _ => {}
        }
    }
    sig > u64::MAX / 10
}

/// The next decimal of the same length as the mantissa so far `mantissa` (`0.99` → `1.00`,
/// `-12.` → `-13`), written into `buf`.
fn next_decimal<'b>(mantissa: &[u8], buf: &'b mut [u8; WATCHED + 2]) -> Option<&'b [u8]> {
    let digits = mantissa.strip_suffix(b".").unwrap_or(mantissa);
    let sign = usize::from(digits.first() == Some(&b'-'));
    // One place kept for a carry out of the first digit.
    buf.get_mut(1..=digits.len())?.copy_from_slice(digits);
    let mut at = digits.len();
    while at > sign {
        let c = buf.get_mut(at)?;
        match *c {
            b'9' => *c = b'0',
            b'0'..=b'8' => {
                *c += 1;
                return buf.get(1..=digits.len());
            }
            _ => {}
        }
        at -= 1;
    }
    // Every digit was 9: a 1 before them (after the sign).
    buf.copy_within(..=sign, 0);
    *buf.get_mut(sign)? = b'1';
    buf.get(..=digits.len())
}

/// Powers of ten that an `f64` holds exactly, up to 10^[`DIGITS`].
const POW10: [f64; DIGITS as usize + 1] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];

/// Whether the number whose text so far is `number` (a prefix of JSON's number grammar) may
/// still read as one of `members`, as far as its first [`WATCHED`] bytes tell (a reader that
/// looks only where a fragment cuts a number finds what one that looks at each byte finds:
/// once unreachable, a prefix stays so).
#[must_use]
pub fn reachable(members: &[NumMember], number: &[u8]) -> bool {
    let number = number.get(..WATCHED).unwrap_or(number);
    let p = Prefix::read(number);
    members.iter().any(|&m| p.may_be(m) && p.exactly(m, number))
}

#[cfg(test)]
mod tests {
    use super::{reachable, NumMember, WATCHED};
    use crate::num::Limit;

    // (As the macro emits it.)
    impl NumMember {
        /// The member whose value (as an `f64`) is `v`; `None` for a value no number reads as
        /// (beyond the `f64` range, or not a number).
        fn of(v: f64) -> Option<Self> {
            if !v.is_finite() {
                return None;
            }
            if v == 0.0 {
                return Some(Self::Zero);
            }
            let negative = v < 0.0;
            if v.abs() < f64::MIN_POSITIVE {
                return Some(Self::Tiny { negative });
            }
            // `{:e}` writes the shortest form that reads back as `v`: `1.5e3`.
            let text = format!("{:e}", v.abs());
            let (lead, scale) = text.split_once('e')?;
            Some(Self::Normal { negative, lead: lead.parse().ok()?, scale: scale.parse().ok()?, value: Limit::F(v) })
        }
    }

    fn members(values: &[f64]) -> Vec<NumMember> {
        values.iter().filter_map(|&v| NumMember::of(v)).collect()
    }

    /// Every prefix of `text` (a number that reads as one of `values`) is reachable.
    fn all_reachable(values: &[f64], text: &str) {
        let m = members(values);
        for end in 1..=text.len() {
            assert!(reachable(&m, &text.as_bytes()[..end]), "{values:?}: {:?} of {text:?}", &text[..end]);
        }
    }

    /// The first byte of `text` at which it is unreachable (its offset), if any.
    fn dies_at(values: &[f64], text: &str) -> Option<usize> {
        let m = members(values);
        (1..=text.len()).find(|&end| !reachable(&m, &text.as_bytes()[..end])).map(|end| end - 1)
    }

    #[test]
    fn every_text_that_reads_as_a_member_is_reachable_at_every_byte() {
        for (values, texts) in [
            (
                &[2.0][..],
                &[
                    "2",
                    "2.0",
                    "20e-1",
                    "0.2e1",
                    "0.2E+1",
                    "2e0",
                    "2e-0",
                    "2e+00",
                    "1.99999999999999999999",
                    "2.00000000000000000001",
                    "200000000000000000000e-20",
                ][..],
            ),
            (
                &[0.1],
                &[
                    "0.1",
                    "1e-1",
                    "0.1000000000000000055511151231257827",
                    "0.09999999999999999999",
                    "100e-3",
                    "0.0001e3",
                ],
            ),
            (&[-1.5, 7.0], &["-1.5", "-15e-1", "-0.15e1", "7", "70e-1", "6.99999999999999999999"]),
            (&[9_007_199_254_740_993.0], &["9007199254740993", "9007199254740992", "9.007199254740993e15"]),
            (&[1e308], &["1e308", "10e307", "0.1e309", "99999999999999999999e288"]),
            (&[0.0], &["0", "-0", "0.0", "0e5", "-0.0e-7", "1e-400", "-1e-400", "123e-999"]),
            (&[5e-324], &["5e-324", "3e-324", "4.9406564584124654e-324", "1e-400"]),
            (&[1.0], &["1", "9.99999999999999999999e-1", "99999999999999999999e-20", "0.99999999999999999999"]),
            (&[10.0], &["10", "9.99999999999999999999", "1e1", "1E+1", "100e-1", "0.01e3"]),
            (&[1e22, 1e-7], &["1e22", "10000000000000000000000", "1e-7", "0.0000001", "100e-9"]),
        ] {
            for text in texts {
                all_reachable(values, text);
            }
        }
        // Zero is the value of a long enough negative exponent, for any mantissa.
        all_reachable(&[0.0, 3.0], "-42.5e-999");
    }

    #[test]
    fn a_number_dies_at_the_first_byte_no_member_continues() {
        for (values, text, at) in [
            // `3.99999999999999999999` is 4.
            (&[1.0, 2.0, 4.0][..], "3", None),
            (&[1.0, 2.0, 4.0], "3.5", Some(2)),
            (&[1.0, 2.0, 4.0], "5", Some(0)),
            (&[1.0, 2.0, 4.0], "-1", Some(0)),
            (&[1.0, 2.0, 4.0], "1.5", Some(2)),
            (&[1.0, 2.0, 4.0], "25", Some(1)),
            (&[1.0, 2.0, 4.0], "20", None),
            (&[1.0, 2.0, 4.0], "2e5", Some(2)),
            (&[1.0, 2.0, 4.0], "2e00", None),
            (&[1.0, 2.0, 4.0], "20e-2", Some(4)),
            (&[1.0, 2.0, 4.0], "20e+", Some(3)),
            (&[1.0, 2.0, 4.0], "0e", Some(1)),
            (&[0.0, 2.0], "0e", None),
            (&[0.0, 2.0], "0.000", None),
            (&[2.0], "0.000", None),
            (&[2.0], "0.0003", Some(5)),
            (&[2.0], "2.00000000001", Some(12)),
            // From the twelfth significant digit on, the values more digits may give are read
            // at their ends: none of these is ever 2.
            (&[2.0], "2.000000000001", Some(13)),
            (&[2.0], "2.0000000000001", Some(14)),
            (&[2.0], "2.00000000000001", Some(15)),
            (&[2.0], "2.00000000000000001", None),
            (&[2.0], "1.99999999999999999", None),
            (&[2.0], "1.9999999999999", None),
            (&[2.0], "1.99999999999998", Some(15)),
            (&[-2.0], "-1.99999999999998", Some(16)),
            (&[-2.0], "-1.99999999999999", None),
            (&[2.0], "1.99999999999", None),
            (&[2.0], "1.9999999998", Some(11)),
            // Within 10^-12 of a member: alive though it reads as no member (the rule's slack),
            // until its `e` ends the mantissa: then it is read at each exponent that may bring
            // it to a member.
            (&[1.0], "0.9999999999999", None),
            (&[1.0], "0.9999999999999e0", Some(15)),
            (&[1.0], "9.99999999999e-01", Some(13)),
            (&[1.0], "0.99999999999999999999e0", None),
            (&[1.0], "0.99999999999999999999e-0", None),
            (&[1.0], "0.99999999999999999999e-01", Some(25)),
            (&[1.0], "9.99999999999999999999e-1", None),
            (&[1.0], "9.99999999999999999999e-", None),
            (&[1.0], "9.99999999999999999999e+", Some(23)),
            (&[1.0], "9.99999999999999999999e00", Some(23)),
            (&[2.0], "1.99999999999e0", Some(13)),
            (&[9_007_199_254_740_992.0], "0.90071992547409e16", Some(16)),
            (&[9_007_199_254_740_992.0], "0.9007199254740993e16", None),
            (&[-2.0], "2", Some(0)),
            (&[-2.0], "-", None),
            (&[2.0], "-", Some(0)),
            (&[0.0], "-", None),
            (&[0.0], "1e", None),
            (&[0.0], "1e-", None),
            (&[0.0], "1e+", Some(2)),
            (&[0.0], "1e1", Some(2)),
            (&[5e-324], "-", Some(0)),
            (&[5e-324], "1e2", Some(2)),
            (&[5e-324], "0e", Some(1)),
            (&[150.0], "15e", None),
            (&[150.0], "15e2", Some(3)),
            (&[150.0], "15e1", None),
            (&[150.0], "15e10", Some(4)),
            (&[1.5e12], "15e11", None),
            (&[1.5e12], "15e1", None),
            (&[1.5e12], "15e2", Some(3)),
            (&[1.5e-12], "15e-13", None),
            (&[1.5e-12], "15e-12", Some(5)),
        ] {
            assert_eq!(dies_at(values, text), at, "{values:?} {text:?}");
        }
        // Read correctly rounded, `2.000000000000001` is 2 + 2 ulps whatever follows, and
        // `1.9999999999999997` at most 2 - 1 ulp; `serde_json` without `float_roundtrip` is
        // allowed eight ulps either way.
        let exact = crate::text::float_roundtrip();
        assert_eq!(dies_at(&[2.0], "2.000000000000001"), exact.then_some(16));
        assert_eq!(dies_at(&[2.0], "1.9999999999999997"), exact.then_some(17));
        assert_eq!(dies_at(&[2.0], "1.9999999999999998"), None);
        assert_eq!(dies_at(&[2.0], "2.0000000000000004"), exact.then_some(17));
        // (Else at its `e`: nothing but the exponent is left to come.)
        assert_eq!(dies_at(&[9_007_199_254_740_992.0], "0.9007199254740994e16"), Some(if exact { 17 } else { 18 }));
    }

    /// Texts of numbers near `v` (its shortest forms, its decimal point moved and the exponent
    /// made up for it, its exact expansion with digits after the 17th changed), with whether
    /// each reads as the member written `member`, by `serde_json` and `num_eq`.
    fn near_texts(v: f64, seed: &mut u64) -> Vec<String> {
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let sci = format!("{v:e}");
        let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i64 = exp.parse().unwrap_or(0);
        let (sign, mant) = mant.strip_prefix('-').map_or(("", mant), |m| ("-", m));
        let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
        let mut out = vec![format!("{v}"), sci.clone(), format!("{v:.25e}")];
        for shift in [-3i64, -1, 1, 2, 5] {
            // digits × 10^(exp - (len - 1)), written with `shift` more digits before the point.
            let lead = i64::try_from(digits.len()).unwrap_or(0) - 1;
            let e = exp - lead;
            let zeros = shift.max(0) as usize;
            let body = format!("{digits}{}", "0".repeat(zeros));
            out.push(format!("{sign}{body}e{}", e - shift.max(0)));
            if shift < 0 {
                out.push(format!("{sign}0.{}{digits}e{}", "0".repeat((-shift) as usize), e + lead + 1 - shift));
            }
        }
        let long = format!("{:.30e}", v.abs());
        let (m, e) = long.split_once('e').unwrap_or((&long, "0"));
        // Digits changed from the 17th, 18th or 20th significant one on (`m` is `d.ddd…`): the
        // first may keep the value or not, and no `e` may follow, where a value is read from
        // the range more digits may take.
        for skip in [17, 18, 18, 20, 20, 20] {
            let mut m: Vec<u8> = m.bytes().collect();
            for d in m.iter_mut().skip(skip).filter(|d| d.is_ascii_digit()) {
                *d = b'0' + (next() % 10) as u8;
            }
            out.push(format!("{sign}{}e{e}", String::from_utf8_lossy(&m)));
            if e == "0" {
                out.push(format!("{sign}{}", String::from_utf8_lossy(&m)));
            }
        }
        out
    }

    #[test]
    fn every_prefix_of_a_text_equal_to_a_member_is_reachable() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for i in 0..3000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let v = match i % 4 {
                0 => f64::from_bits(seed),
                1 => (seed % 2001) as f64 - 1000.0,
                2 => ((seed % 100_000) as f64 - 50_000.0) / 1000.0,
                _ => f64::from_bits(seed) * 1e-300,
            };
            let Ok(written) = serde_json::from_str::<serde_json::Value>(&format!("{v:e}")) else { continue };
            // (The member as the macro would write it for the value `serde_json` reads: without
            // `float_roundtrip` that may be an ulp off `v`.)
            let Some(member) = written.as_f64().and_then(NumMember::of) else { continue };
            for text in near_texts(v, &mut seed) {
                let Ok(read) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
                let (Some(a), Some(b)) = (read.as_number(), written.as_number()) else { continue };
                if !crate::num::num_eq(a, b) {
                    continue;
                }
                checked += 1;
                for end in 1..=text.len() {
                    assert!(reachable(&[member], &text.as_bytes()[..end]), "{v:e}: {:?} of {text:?}", &text[..end]);
                }
            }
        }
        // (Most texts read as their member: the checks above ran.)
        assert!(checked > 20_000, "{checked}");
    }

    #[test]
    fn a_number_is_watched_for_its_first_bytes() {
        let m = members(&[2.0]);
        // `2`, zeros, `e5`: 2e5 and more.
        let watched = |zeros: usize| format!("2{}e5", "0".repeat(zeros));
        assert!(!reachable(&m, watched(10).as_bytes()));
        assert!(!reachable(&m, watched(WATCHED - 3).as_bytes()));
        // Its `5` is beyond the bytes watched: it is judged where it ends.
        assert!(reachable(&m, watched(WATCHED - 2).as_bytes()));
        // A number dead within them stays dead past them.
        let dead = format!("3{}", "0".repeat(70));
        assert!(!reachable(&m, dead.as_bytes()));
    }
}
