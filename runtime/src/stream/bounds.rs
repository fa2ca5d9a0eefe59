//! A number's bounds (`minimum`, `maximum` and their exclusive forms), judged before the number
//! ends where its exponent already settles them.
//!
//! A number's digits alone never break a bound for good: `8` may still become `8e-1`. But once
//! its exponent is known to be positive (its `+`, or its first digit), more exponent digits only
//! make the exponent larger, so the number's magnitude only grows: the text so far, read as it
//! would be if it ended here (`8e+` as `8e+0`), is the smallest magnitude it may still take.
//! A positive number that breaks a `maximum` (or `exclusiveMaximum`) there breaks it whatever
//! follows, and so does a negative one that breaks a `minimum`: reading is monotone (a larger
//! exponent never reads as a smaller magnitude), so the rule never says "broken" of a number
//! that may still end within. A negative exponent mirrors it: from its `-` (read as `e-0`) the
//! text so far is the largest magnitude the number may still take, and a positive number that
//! breaks a `minimum` there breaks it whatever follows. A mantissa of zeros is zero whatever its
//! exponent, and so is a number from the digit of its negative exponent that puts it below the
//! least `f64`: any bound that zero breaks is broken from there.
//!
//! The readers ask at the bytes that move that smallest magnitude (an `e` after zeros, a `+`, an
//! exponent digit that changes its value: `ExpStep::Moved` in `machine.rs`), a handful per
//! number, so the cost stays linear.

use crate::num::{Decimal, Limit};
use crate::text::{float_roundtrip, Num, Scanner};

use super::machine::{magnitude, ZERO_BELOW, ZERO_NEAR};

/// One bound of a subschema, as the macro emits it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// the limit's value
    pub limit: Limit,
    /// the limit as written in the schema, for messages
    pub text: &'static str,
    /// `exclusiveMinimum` or `exclusiveMaximum`
    pub exclusive: bool,
    /// a `maximum` (`false`: a `minimum`)
    pub upper: bool,
}

impl Bound {
    /// Whether `n` breaks the bound.
    fn broken(&self, n: Num) -> bool {
        let o = n.compare(self.limit);
        match (self.upper, self.exclusive) {
            (true, false) => o.is_gt(),
            (true, true) => o.is_ge(),
            (false, false) => o.is_lt(),
            (false, true) => o.is_le(),
        }
    }
}

/// The longest number whose `+` is judged: its text is read again with a `0` after it, from a
/// buffer of this size on the stack.
const WINDOW: usize = 64;

/// The first of `bounds` that the number whose text so far is `number` breaks whatever follows
/// (`None`: none of them, as far as its text tells: no exponent yet, or a value within them).
#[must_use]
pub fn outgrown<'a>(bounds: &'a [Bound], number: &[u8]) -> Option<&'a Bound> {
    if bounds.is_empty() {
        return None;
    }
    let (mantissa, exp) = split(number)?;
    let negative = mantissa.first() == Some(&b'-');
    let value = if zero_for_good(mantissa, exp, number) {
        // Zero, whatever follows.
        Num::U(0)
    } else if exp.is_empty() {
        // At its `e`: broken where the exponent breaks it whichever sign it takes (a range
        // that neither its powers of ten nor their inverses reach: `754e` under `minimum: 20,
        // maximum: 30`).
        let signed = |sign: u8| {
            let mut buf = [sign; WINDOW + 1];
            buf.get_mut(..number.len())?.copy_from_slice(number);
            outgrown(bounds, buf.get(..=number.len())?)
        };
        let grown = signed(b'+')?;
        return signed(b'-').map(|_| grown);
    } else if exp.first() == Some(&b'-') {
        // A negative exponent only makes the number smaller in magnitude: the text so far, read
        // as if it ended there (`e-` as `e-0`), is the most it may still be. A positive number
        // that breaks a `minimum` there breaks it whatever follows, and a negative one a
        // `maximum`.
        let value = if exp == b"-" { read_after(number, b'0')? } else { read(number)? };
        if let Some(b) = bounds.iter().find(|b| b.upper == negative && b.broken(value)) {
            return Some(b);
        }
        // (It may still shrink to zero: only where zero is out of them is there a range to
        // jump over.)
        if bounds.iter().all(|b| !b.broken(Num::U(0))) {
            return None;
        }
        return jumped(bounds, mantissa, exp, negative);
    } else if exp.last().is_some_and(u8::is_ascii_digit) {
        read(number)?
    } else if exp == b"+" {
        // As if its exponent were `+0` (a longer number is left to its exponent's digits).
        read_after(number, b'0')?
    } else {
        return None;
    };
    let zero = matches!(value, Num::U(0));
    if let Some(b) = bounds.iter().find(|b| (zero || b.upper != negative) && b.broken(value)) {
        return Some(b);
    }
    if zero {
        return None;
    }
    jumped(bounds, mantissa, exp, negative)
}

/// A bound of `bounds` that a number in an exponent (`mantissa`, not zero, and the exponent's
/// text after its `e`, `exp`: a sign or digits) breaks at every exponent that text may still
/// become, where bounds on both sides leave a range that the number's powers of ten jump over
/// (`0.5712e+` under `minimum: 20` and `maximum: 30`: `e1` is 5.712, `e2` 57.12; `754e-` there:
/// `e-1` is 75.4, `e-2` 7.54).
///
/// The exponents left are those that begin with its digits so far (any, after a sign or zeros
/// only), at most 400 (past that, nothing but a zero mantissa is within the `f64` range, and
/// a negative exponent has taken a mantissa of at most [`WINDOW`] bytes to zero, which the
/// caller judged). Read at a larger exponent, the number only grows in magnitude (a positive
/// exponent) or only shrinks (a negative one), so the bounds it moves into (a `minimum` of a
/// positive number growing, its `maximum` shrinking) hold from some exponent on, and the others
/// until some exponent: in each run of exponents with the same leading digits, the least at
/// which the first hold is found by bisection and judged by the others.
fn jumped<'a>(bounds: &'a [Bound], mantissa: &[u8], exp: &[u8], negative: bool) -> Option<&'a Bound> {
    let shrinking = exp.first() == Some(&b'-');
    // (Only where there are bounds on both sides: one side alone is what the caller judged.)
    let moves_into = |b: &&Bound| (b.upper == negative) != shrinking;
    let below = bounds.iter().find(moves_into)?;
    bounds.iter().find(|b| !moves_into(b))?;
    if mantissa.len() > WINDOW {
        return None;
    }
    // The number at exponent `e` (`None`: beyond the `f64` range, past every bound on the side
    // it grows to).
    let at = |e: u64| {
        let e = i64::try_from(e).unwrap_or(i64::MAX);
        read_with(&[mantissa], if shrinking { -e } else { e }, Read::Serde)
    };
    let holds = |e: u64| match at(e) {
        None => !shrinking,
        Some(n) => !bounds.iter().filter(moves_into).any(|b| b.broken(n)),
    };
    let within = |e: u64| at(e).is_some_and(|n| !bounds.iter().any(|b| b.broken(n)));
    for (lo, hi) in exponents_left(exp)? {
        // The least exponent of the run at which the bounds it grows into hold.
        let (mut a, mut b) = (lo, hi + 1);
        while a < b {
            let mid = a + (b - a) / 2;
            if holds(mid) {
                b = mid;
            } else {
                a = mid + 1;
            }
        }
        if a <= hi && within(a) {
            return None;
        }
    }
    Some(below)
}

/// The largest exponent a positive exponent is looked at up to: past it, nothing but a mantissa
/// of zeros is within the `f64` range.
const MAX_EXPONENT: u64 = 400;

/// Whether the number whose text so far is `number` (split at its `e` into `mantissa` and the
/// exponent's text after it, `exp`) reads as zero whatever follows: a mantissa of zeros, or a
/// negative exponent that makes it zero already, more digits only making it smaller (reading is
/// monotone; [`zero_at`]).
fn zero_for_good(mantissa: &[u8], exp: &[u8], number: &[u8]) -> bool {
    let Some(mag) = magnitude(mantissa) else { return true };
    let Some(digits) = exp.strip_prefix(b"-") else { return false };
    let e = digits.iter().fold(0i64, |e, &c| e.saturating_mul(10).saturating_add(i64::from(c.wrapping_sub(b'0'))));
    zero_at(mag, e, number)
}

/// Whether a number whose leading significant digit is at 10^`mag`, in a negative exponent
/// whose value so far is `e` (its text so far `number`), reads as zero whatever follows: far
/// from the edge its magnitude decides ([`ZERO_BELOW`]), near it the text read as if it ended
/// there (read only then: a few times a number at most).
pub(super) fn zero_at(mag: i64, e: i64, number: &[u8]) -> bool {
    let reads_zero = || {
        read(number).is_some_and(|n| match n {
            Num::U(u) => u == 0,
            Num::I(_) => false,
            Num::F(f) => f == 0.0,
        })
    };
    e >= mag.saturating_add(ZERO_BELOW) || (e >= mag.saturating_add(ZERO_NEAR) && reads_zero())
}

/// `number` (shorter than [`WINDOW`] bytes) read with byte `b` after it (`None`: longer, or no
/// number then).
fn read_after(number: &[u8], b: u8) -> Option<Num> {
    let mut buf = [b; WINDOW];
    buf.get_mut(..number.len())?.copy_from_slice(number);
    read(buf.get(..=number.len())?)
}

/// A number's text so far split at its `e`: its mantissa and its exponent's text after the `e`
/// (`None`: no `e` yet).
fn split(number: &[u8]) -> Option<(&[u8], &[u8])> {
    let e = number.iter().position(|&c| c | 0x20 == b'e')?;
    let (mantissa, exp) = number.split_at(e);
    Some((mantissa, exp.get(1..).unwrap_or_default()))
}

/// The value of a positive exponent's digits so far (`exp`: its text after the `e`, a `+`,
/// digits, or both; `None` once past [`MAX_EXPONENT`]): the least exponent it may still become.
fn least_exponent(exp: &[u8]) -> Option<u64> {
    let mut lead = 0u64;
    for &c in exp.strip_prefix(b"+").or_else(|| exp.strip_prefix(b"-")).unwrap_or(exp) {
        lead = lead * 10 + u64::from(c.wrapping_sub(b'0'));
        if lead > MAX_EXPONENT {
            return None;
        }
    }
    Some(lead)
}

/// The exponents up to [`MAX_EXPONENT`] that a positive exponent whose text after its `e` is
/// `exp` (a `+`, digits, or both) may still become, as runs `(lo, hi)`, smallest first: those
/// that begin with its digits (`1`, `10`–`19`, `100`–`199`), or all of them after a `+` or
/// zeros only (`None`: its digits are past [`MAX_EXPONENT`] already).
fn exponents_left(exp: &[u8]) -> Option<impl Iterator<Item = (u64, u64)>> {
    let lead = least_exponent(exp)?;
    let widths = std::iter::successors(Some(1u64), |w| w.checked_mul(10));
    Some(
        widths
            .map(move |w| if lead == 0 { (0, MAX_EXPONENT) } else { (lead * w, (lead * w + w - 1).min(MAX_EXPONENT)) })
            .take_while(|&(lo, _)| lo <= MAX_EXPONENT)
            .take(if lead == 0 { 1 } else { usize::MAX }),
    )
}

/// A subschema's `multipleOf`, as the macro emits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Multiple {
    /// the divisor's value
    pub divisor: Decimal,
    /// the divisor as written in the schema, for messages
    pub text: &'static str,
}

/// How many exponents [`indivisible`] reads a number at where one read cannot tell (beyond
/// them, it says nothing).
const BUDGET: usize = 40;

/// Whether the number whose text so far is `number` is a multiple of `multiple` within `bounds`
/// (its subschema's) at no exponent it may still take (`false` too where that is not known: no
/// exponent yet, or one that may still be negative, which may take any mantissa to zero, a
/// multiple of everything).
///
/// In a positive exponent, the exponents left are runs of those that begin with its digits
/// (`exponents_left`), and a larger one only makes the number larger in magnitude: the bounds
/// its growth breaks (a `maximum` of a positive number) hold up to some exponent, the others
/// from some exponent on. A multiple of the divisor at one exponent is one at every larger one
/// where the number is read exactly: where `serde_json` rounds correctly (`float_roundtrip`), a
/// mantissa of at most 15 significant digits reads as an `f64` whose shortest digits are its
/// own (if it is no smaller than 10^-290). So there one read decides, at the largest exponent
/// left within the `f64` range and the bounds its growth breaks: no multiple within the others
/// there, none at any smaller exponent (`1.3e4` under `multipleOf: 3`: `1.3e49` is no multiple,
/// so no exponent of `4`, `40`–`49` makes one; `1.1e1` under `multipleOf: 5, maximum: 100`:
/// 11 is none, 1.1e10 is past 100). Elsewhere (a longer mantissa, or `serde_json`'s
/// approximate parse) the number is read at each of those exponents, largest first, up to
/// `BUDGET` (40) of them.
#[must_use]
pub fn indivisible(bounds: &[Bound], multiple: Option<&Multiple>, number: &[u8]) -> bool {
    let Some(m) = multiple else { return false };
    let Some((mantissa, exp)) = split(number) else { return false };
    let Some(mag) = magnitude(mantissa) else { return false };
    if exp.is_empty() || exp.first() == Some(&b'-') || mantissa.len() > WINDOW {
        return false;
    }
    let Some(runs) = exponents_left(exp) else { return false };
    let mut left = [(0, 0); 4];
    let mut n = 0;
    for (slot, run) in left.iter_mut().zip(runs) {
        *slot = run;
        n += 1;
    }
    let negative = mantissa.first() == Some(&b'-');
    let at = |e: u64| read_with(&[mantissa], i64::try_from(e).unwrap_or(i64::MAX), Read::Serde);
    // Within the `f64` range and the bounds its growth breaks.
    let under = |e: u64| at(e).is_some_and(|x| !bounds.iter().any(|b| b.upper != negative && b.broken(x)));
    let fits = |x: Num| !bounds.iter().any(|b| b.broken(x)) && crate::num::multiple_of(&x.to_number(), m.divisor);
    let exact = float_roundtrip() && significant(mantissa) <= 15 && mag >= -290;
    let mut budget = BUDGET;
    for &(lo, hi) in left.get(..n).unwrap_or_default().iter().rev() {
        if !under(lo) {
            continue;
        }
        // The largest exponent of the run still under them.
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = b - (b - a) / 2;
            if under(mid) {
                a = mid;
            } else {
                b = mid - 1;
            }
        }
        if exact {
            return !at(a).is_some_and(fits);
        }
        for e in (lo..=a).rev() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            if at(e).is_none_or(fits) {
                return false;
            }
        }
    }
    true
}

/// Whether every value the number whose text so far is `number` may still take satisfies
/// `bounds`, `multiple` and, if `integer`, being an integer (`false` too where that is not
/// known): its exponent settled them for good.
///
/// A mantissa of zeros is zero from its `e` on, and a number in a negative exponent from the digit
/// that makes it zero whatever follows; zero is an integer and a multiple of every divisor.
/// Otherwise (never in a negative exponent, which may still take the number to zero), in a
/// positive exponent, the text so
/// far (read as if it ended there: `e+` as `e+0`) is the least magnitude the number may take, and
/// a larger exponent only makes it larger: digits that make an integer there do at every larger
/// exponent (and an `f64` of an integer is one; so is every `f64` past 2^53), a bound it grows into (a `minimum` of a positive number) holds
/// at every larger one, and so does a multiple of the divisor where one read decides (as for
/// [`indivisible`]). A bound its growth may break (a `maximum` of a positive number) is never
/// settled, nor a `multipleOf` where the read is not exact.
#[must_use]
pub fn settled(bounds: &[Bound], multiple: Option<&Multiple>, integer: bool, number: &[u8]) -> bool {
    let Some((mantissa, exp)) = split(number) else { return false };
    let negative = mantissa.first() == Some(&b'-');
    if zero_for_good(mantissa, exp, number) {
        // Zero, whatever follows: an integer, and a multiple of every divisor.
        return !bounds.iter().any(|b| b.broken(Num::U(0)));
    }
    let Some(mag) = magnitude(mantissa) else { return false };
    if exp.is_empty() || exp.first() == Some(&b'-') || mantissa.len() > WINDOW {
        return false;
    }
    let Some(least) = least_exponent(exp) else { return false };
    let Some(value) = read_with(&[mantissa], i64::try_from(least).unwrap_or(i64::MAX), Read::Serde) else {
        return false;
    };
    // An integer for good: its digits make one there (then they do at every larger exponent, and
    // an `f64` of an integer is one), or its `f64` is past 2^53 (every one is an integer). (An
    // `f64` that rounds to an integer does not do: `1.00000000000000007` reads as 1, `…7e3` not
    // as 1000.)
    let point = mantissa.iter().position(|&c| c == b'.');
    let fraction = point.and_then(|p| mantissa.get(p + 1..)).unwrap_or_default();
    let decimals = fraction.len() - fraction.iter().rev().take_while(|&&c| c == b'0').count();
    let whole = u64::try_from(decimals).is_ok_and(|d| d <= least)
        || match value {
            Num::F(f) => f.abs() >= 9_007_199_254_740_992.0,
            Num::U(_) | Num::I(_) => true,
        };
    let exact = float_roundtrip() && significant(mantissa) <= 15 && mag >= -290;
    bounds.iter().all(|b| b.upper == negative && !b.broken(value))
        && (!integer || whole)
        && multiple.is_none_or(|m| exact && crate::num::multiple_of(&value.to_number(), m.divisor))
}

/// The significant digits of a mantissa's text (`0.0120`: 2).
fn significant(mantissa: &[u8]) -> usize {
    let digits = || mantissa.iter().enumerate().filter(|(_, c)| c.is_ascii_digit() && **c != b'0');
    match (digits().next(), digits().next_back()) {
        (Some((first, _)), Some((last, _))) => {
            let point = mantissa.get(first..last).is_some_and(|s| s.contains(&b'.'));
            last - first + 1 - usize::from(point)
        }
        _ => 0,
    }
}

/// A bound of `bounds` that the number whose text so far is `number`, in a subschema that
/// requires an integer, breaks whatever follows but where it reads as zero, which another of
/// them breaks, judged on its mantissa (`None`: none of them as
/// far as its mantissa tells; an exponent only narrows the scales left, and [`outgrown`] judges
/// it).
///
/// Until its exponent, a number may still be shifted to any scale, so the integers its mantissa
/// may still read as (as an `f64`) are those whose digits begin with its significant digits `S`
/// and end in zeros, and those that `S` followed by nines rounds up to: the least is the smaller
/// of `S` and `S + 1`, each without its trailing zeros (`119` may become 12, as
/// `119.99999999999999999e-1`; `101` nothing below 101). That holds while `S` has at most 15
/// digits (no `f64` rounding then reaches another integer below 2^53); a longer mantissa is
/// judged on its first 15, which it may become no more than they may (so a mantissa once dead
/// stays dead, whatever its length).
/// Any mantissa may also still read as zero (`101e-400`), so only where zero is out of bounds
/// (`minimum: 1`) is a positive number whose least integer breaks a `maximum` dead, as a
/// negative one whose least magnitude breaks a `minimum`.
#[must_use]
pub fn integral<'a>(bounds: &'a [Bound], number: &[u8]) -> Option<&'a Bound> {
    // Any mantissa may still read as zero (`101e-400`): only where zero is out of bounds is
    // there anything to judge.
    if bounds.iter().all(|b| !b.broken(Num::U(0))) {
        return None;
    }
    let mut digits = 0u64;
    let mut n = 0u32;
    for &c in number {
        match c {
            b'0'..=b'9' if n > 0 || c != b'0' => {
                if n == 15 {
                    // Judged on its first 15 (what a longer mantissa may become, they may).
                    break;
                }
                digits = digits * 10 + u64::from(c - b'0');
                n += 1;
            }
            b'e' | b'E' => break,
            _ => {}
        }
    }
    if n == 0 {
        return None;
    }
    let strip = |mut x: u64| {
        while x % 10 == 0 {
            x /= 10;
        }
        x
    };
    let least = strip(digits).min(strip(digits + 1));
    let negative = number.first() == Some(&b'-');
    let value = if negative { Num::I(-i64::try_from(least).ok()?) } else { Num::U(least) };
    bounds.iter().find(|b| b.upper != negative && b.broken(value))
}

/// How many bytes an integer's text (its sign included) must have before [`integral`] may find
/// its mantissa past `bounds`: as many as the digits before the point of the bound on its sign's
/// side (a mantissa of fewer significant digits only ever reads as a smaller integer; 1 if that
/// bound is below 1 in magnitude or across zero), or never (`usize::MAX`: no such bound, or one
/// past 15 digits, the most [`integral`] looks at).
#[must_use]
pub fn integral_due(bounds: &[Bound], negative: bool) -> usize {
    let digits = |b: &Bound| {
        // A bound on the other side of zero (a negative `maximum` of a positive number) is
        // broken from the first digit (the sign rule finds it sooner).
        let across = match b.limit {
            Limit::I(i) => {
                if negative {
                    i >= 0
                } else {
                    i <= 0
                }
            }
            Limit::U(_) => negative,
            Limit::F(f) => {
                if negative {
                    f > -1.0
                } else {
                    f < 1.0
                }
            }
        };
        if across {
            return 1;
        }
        let whole = match b.limit {
            Limit::I(i) => i.unsigned_abs(),
            Limit::U(u) => u,
            // (A limit past 10^15 is past what 15 digits are looked at for.)
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Limit::F(f) => f.abs().min(1e16).floor() as u64,
        };
        match whole.checked_ilog10() {
            None => 1,
            Some(d) if d < 15 => d as usize + 1,
            Some(_) => usize::MAX,
        }
    };
    bounds.iter().filter(|b| b.upper != negative).map(digits).min().unwrap_or(usize::MAX)
}

/// A number's text read as `serde_json` reads it (`None`: beyond the `f64` range, which the
/// exponent's own watch judges).
fn read(text: &[u8]) -> Option<Num> {
    Scanner::new(std::str::from_utf8(text).ok()?).num().ok()
}

/// How [`read_with`] reads a number.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Read {
    /// as `serde_json` does (the value the validators compare)
    Serde,
    /// correctly rounded (`str::parse`)
    Exact,
}

/// The number written `parts` (at most [`WINDOW`] + 2 bytes in all) with the exponent `e`, read
/// as `how` says (`None`: beyond the `f64` range, or too long).
pub(super) fn read_with(parts: &[&[u8]], e: i64, how: Read) -> Option<Num> {
    let mut buf = [0u8; WINDOW + 24];
    let mut at = 0;
    let mut put = |c: u8| -> Option<()> {
        *buf.get_mut(at)? = c;
        at += 1;
        Some(())
    };
    for &c in parts.iter().copied().flatten() {
        put(c)?;
    }
    put(b'e')?;
    if e < 0 {
        put(b'-')?;
    }
    let digits = e.unsigned_abs();
    let mut scale = 1u64;
    while scale <= digits / 10 {
        scale *= 10;
    }
    while scale > 0 {
        put(b'0' + u8::try_from(digits / scale % 10).ok()?)?;
        scale /= 10;
    }
    let text = std::str::from_utf8(buf.get(..at)?).ok()?;
    match how {
        Read::Serde => Scanner::new(text).num().ok(),
        Read::Exact => text.parse::<f64>().ok().filter(|f| f.is_finite()).map(Num::F),
    }
}

#[cfg(test)]
mod tests {
    use super::{indivisible, integral, integral_due, outgrown, settled, significant, Bound, Multiple};
    use crate::num::Decimal;
    use crate::num::Limit;
    use crate::stream::machine::in_bounds;
    use crate::text::float_roundtrip;

    const fn bound(limit: Limit, text: &'static str, exclusive: bool, upper: bool) -> Bound {
        Bound { limit, text, exclusive, upper }
    }

    /// Whether `n` is within `bounds` (and an integer if `integer`), as the validators judge it.
    fn within(n: crate::text::Num, bounds: &[Bound], integer: bool) -> bool {
        bounds.iter().all(|b| {
            let mut four = [None; 4];
            if let Some(slot) = four.get_mut(usize::from(b.upper) * 2 + usize::from(b.exclusive)) {
                *slot = Some(b.limit);
            }
            in_bounds(n, &four, integer)
        })
    }

    /// A xorshift generator from `seed`: `next(n)` draws below `n`.
    fn draws(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// Every exponent a number with `mantissa` whose exponent's text after its `e` is `exp` (a
    /// `+`, digits, or both) may still become, up to 420 (those that begin with its digits, any
    /// after a `+` or zeros; with `any`, every one from -420), and the number read there as the
    /// validators read it, where that is within the `f64` range.
    fn reads_left(mantissa: &str, exp: &str, any: bool) -> Vec<(i32, crate::text::Num)> {
        let (negative, rest) = match exp.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, exp.trim_start_matches('+')),
        };
        let digits = rest.trim_start_matches('0');
        (-420..=420i32)
            .filter(|&e| any || ((e <= 0) == negative || e == 0) && e.unsigned_abs().to_string().starts_with(digits))
            .filter_map(|e| Some((e, crate::text::Scanner::new(&format!("{mantissa}e{e}")).num().ok()?)))
            .collect()
    }

    /// The text of the first bound broken, if any.
    fn broken<'a>(bounds: &'a [Bound], number: &str) -> Option<&'a str> {
        outgrown(bounds, number.as_bytes()).map(|b| b.text)
    }

    #[test]
    fn a_positive_exponent_settles_the_bound_its_growth_breaks() {
        let max3 = [bound(Limit::I(3), "3", false, true)];
        // No exponent, or one that may still be negative: anything may follow.
        for alive in ["8", "8000", "8e", "8E", "8e-", "8e-5", "8e-0", "-8e+5", "3e0", "3e+", "3.0e+00", "0.3e1", "2e0"]
        {
            assert_eq!(broken(&max3, alive), None, "{alive}");
        }
        for dead in ["8e+", "8E+", "8e0", "8e+0", "4e0", "0.4e1", "3.0000001e+", "1e1", "3e00001"] {
            assert_eq!(broken(&max3, dead), Some("3"), "{dead}");
        }
        // Exclusive: the limit itself breaks it.
        let below3 = [bound(Limit::I(3), "3", true, true)];
        assert_eq!(broken(&below3, "3e+"), Some("3"));
        assert_eq!(broken(&below3, "2.9e0"), None);
        // A minimum, by negative numbers.
        let min = [bound(Limit::F(-2.5), "-2.5", false, false), bound(Limit::I(10), "10", false, true)];
        assert_eq!(broken(&min, "-3e+"), Some("-2.5"));
        assert_eq!(broken(&min, "-2.5e0"), None);
        assert_eq!(broken(&min, "-3e-0"), None);
        assert_eq!(broken(&min, "-0.26e1"), Some("-2.5"));
        assert_eq!(broken(&min, "5e+"), None);
        assert_eq!(broken(&min, "5e1"), Some("10"));
        // A number beyond the `f64` range is the exponent watch's to judge.
        assert_eq!(broken(&max3, "1e999"), None);
    }

    #[test]
    fn zero_is_zero_whatever_its_exponent() {
        let above = [bound(Limit::I(0), "0", true, false)];
        for dead in ["0e", "-0e", "0.000E", "0e-5", "0e+"] {
            assert_eq!(broken(&above, dead), Some("0"), "{dead}");
        }
        assert_eq!(broken(&above, "0.001e"), None);
        let min0 = [bound(Limit::I(0), "0", false, false)];
        assert_eq!(broken(&min0, "-0e"), None);
    }

    #[test]
    fn a_bound_broken_at_a_prefix_is_broken_by_every_number_that_begins_so() {
        let mut next = draws(0x2545_F491_4F6C_DD1D);
        let (mut judged, mut broken_seen) = (0, 0);
        for _ in 0..4000 {
            // A bound: an integer, a decimal or a large integer, either side, either kind.
            let (limit, text) = match next(3) {
                0 => {
                    let i = next(2001) as i64 - 1000;
                    (Limit::I(i), i.to_string())
                }
                1 => {
                    let f = (next(200_001) as f64 - 100_000.0) / 1000.0;
                    (Limit::F(f), f.to_string())
                }
                _ => (Limit::U(u64::MAX - next(1000)), String::new()),
            };
            let text: &'static str = Box::leak(text.into_boxed_str());
            let b = [bound(limit, text, next(2) == 0, next(2) == 0)];
            // A number with an exponent: sign, mantissa, `e` or `E`, sign, digits; now and then
            // the limit itself (`-25e+0`), where an inclusive bound holds and an exclusive breaks.
            if let (Limit::I(i), 0) = (limit, next(4)) {
                // (the number, whether its exponent is positive)
                let tenths = if i == 0 { "0.0e-1".to_string() } else { format!("{i}0e-1") };
                for (number, positive) in [(format!("{i}e+0"), true), (format!("{i}E00"), true), (tenths, false)] {
                    // Complete, it breaks an exclusive bound on the side a positive exponent grows
                    // it to, or the side a negative one shrinks it from (zero grows and shrinks
                    // to neither: any bound zero breaks), and an inclusive one never.
                    let side = i == 0 || ((i > 0) == b[0].upper) == positive;
                    let complete = outgrown(&b, number.as_bytes()).is_some();
                    assert_eq!(complete, b[0].exclusive && side, "{number:?}: {b:?}");
                    for end in 1..=number.len() {
                        let (prefix, rest) = number.split_at(end);
                        if let Some(hit) = outgrown(&b, prefix.as_bytes()) {
                            judged += 1;
                            assert!(hit.exclusive, "{number:?} at {prefix:?} ({rest:?} to come): {hit:?}");
                        }
                    }
                }
            }
            let mut number = String::from(if next(2) == 0 { "-" } else { "" });
            if next(4) == 0 {
                number.push('0');
            } else {
                number.push(char::from(b'1' + next(9) as u8));
                for _ in 0..next(5) {
                    number.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(2) == 0 {
                number.push('.');
                for _ in 0..=next(4) {
                    number.push(char::from(b'0' + next(10) as u8));
                }
            }
            number.push(if next(2) == 0 { 'e' } else { 'E' });
            match next(3) {
                0 => number.push('+'),
                1 => number.push('-'),
                _ => {}
            }
            for _ in 0..next(4) {
                number.push(char::from(b'0' + next(10) as u8));
            }
            let Ok(_) = serde_json::from_str::<serde_json::Value>(&format!("{number}0")) else { continue };
            for end in 1..=number.len() {
                let prefix = &number[..end];
                let Some(hit) = outgrown(&b, prefix.as_bytes()) else { continue };
                judged += 1;
                // Every way the number may end from here breaks the bound.
                for more in ["", "0", "1", "9", "00", "12", "05", "99", "307"] {
                    let mut whole = format!("{prefix}{more}");
                    if !whole.ends_with(|c: char| c.is_ascii_digit()) {
                        whole.push('0');
                    }
                    // (Past the `f64` range it is a syntax error, which the exponent's watch finds.)
                    let Ok(n) = crate::text::Scanner::new(&whole).num() else { continue };
                    assert!(
                        !within(n, std::slice::from_ref(hit), false),
                        "{whole:?} ({prefix:?} said broken) within {hit:?}"
                    );
                    broken_seen += 1;
                }
            }
        }
        // (The rule fired, and its claims were checked.)
        assert!(judged > 1000 && broken_seen > 5000, "{judged} {broken_seen}");
    }

    #[test]
    fn an_integer_mantissa_is_judged_by_the_least_integer_it_may_still_read_as() {
        let max = [bound(Limit::I(100), "100", false, true), bound(Limit::I(1), "1", false, false)];
        let broken = |number: &str| integral(&max, number.as_bytes()).map(|b| b.text);
        // `119` may still be 12 (`119.99999999999999999e-1`), `1000` 1, `99` 1, `0.05` 5.
        for alive in ["1", "10", "100", "119", "1000", "99", "999", "0.05", "10.0", "-0", "0", "12e", "1e-"] {
            assert_eq!(broken(alive), None, "{alive}");
        }
        // `101` nothing below 101; `-101` nothing above -101.
        for dead in ["101", "1010", "10.1", "0.00101", "102", "-101", "-1.01", "101e-", "101E-1"] {
            assert!(broken(dead).is_some(), "{dead}");
        }
        assert_eq!(broken("-101"), Some("1"));
        // Where zero is within the bounds, any mantissa may still read as it: nothing dies.
        let open = [bound(Limit::I(100), "100", false, true)];
        assert!(integral(&open, b"101").is_none());
        assert!(integral(&[bound(Limit::I(0), "0", false, false)], b"-6").is_none());
        // Beyond 15 significant digits, an `f64` may round to another integer: judged on the
        // first 15 (once dead, dead however long it grows).
        assert_eq!(broken("101000000000000"), Some("100"));
        assert_eq!(broken("1010000000000000"), Some("100"));
        assert_eq!(broken("18446744073709551615"), Some("100"));
        assert_eq!(broken("100000000000000"), None);
        assert_eq!(broken("1000000000000000000001"), None);
        // Below a small maximum, the first digit decides: `7` may be 7 or 8, nothing less.
        let five = [bound(Limit::I(5), "5", false, true), bound(Limit::I(1), "1", false, false)];
        assert!(integral(&five, b"7").is_some());
        assert!(integral(&five, b"4").is_none());
        assert!(integral(&five, b"49").is_none());
        let below = [bound(Limit::F(0.5), "0.5", true, true), bound(Limit::I(0), "0", true, false)];
        assert!(integral(&below, b"0.1").is_some());
        assert!(integral(&below, b"0.0").is_none());
        // Bytes it takes before a bound on the number's side may be broken.
        assert_eq!(integral_due(&max, false), 3);
        assert_eq!(integral_due(&max, true), 1);
        assert_eq!(integral_due(&open, true), usize::MAX);
        assert_eq!(integral_due(&five, false), 1);
        assert_eq!(integral_due(&below, false), 1);
        assert_eq!(integral_due(&[bound(Limit::F(-1234.5), "-1234.5", false, false)], true), 4);
        assert_eq!(integral_due(&[bound(Limit::U(u64::MAX), "", false, true)], false), usize::MAX);
        assert_eq!(integral_due(&[bound(Limit::I(999_999_999_999_999), "", false, true)], false), 15);
    }

    #[test]
    fn an_integer_said_out_of_bounds_is_so_however_the_number_goes_on() {
        let mut next = draws(0x9E6C_63D0_676A_9A99);
        let (mut judged, mut checked) = (0, 0);
        for _ in 0..3000 {
            let limit = i64::try_from(next(2000)).unwrap_or(0) - 1000;
            // (With a minimum above zero beside it now and then: zero, which any mantissa may
            // still read as, out of bounds.)
            let floor = i64::try_from(next(50)).unwrap_or(0) + 1;
            let b = [
                bound(Limit::I(limit), "", next(2) == 0, next(2) == 0),
                bound(Limit::I(floor), "", next(2) == 0, false),
            ];
            let b = if next(3) == 0 { &b[..1] } else { &b[..] };
            let mut number = String::from(if next(2) == 0 { "-" } else { "" });
            number.push(char::from(b'1' + next(9) as u8));
            for _ in 0..next(4) {
                number.push(char::from(b'0' + next(10) as u8));
            }
            if next(3) == 0 {
                number.push('.');
                number.push(char::from(b'0' + next(10) as u8));
            }
            // A reader that asks only from `integral_due` bytes on misses no prefix it fires on.
            let due = integral_due(b, number.starts_with('-'));
            for end in 1..=number.len() {
                if integral(b, number.as_bytes().get(..end).unwrap_or_default()).is_some() {
                    assert!(end >= due, "{number:?} fired at {end} bytes, due at {due}: {b:?}");
                }
            }
            let Some(hit) = integral(b, number.as_bytes()) else { continue };
            judged += 1;
            // Every way it may go on, read as the validators read it, is no integer within.
            let point = if number.contains('.') { "" } else { "." };
            for more in ["", "0", "00", "9", "99", "5"] {
                for nines in ["", "9999999999999999999", "0000000000000000001"] {
                    for exp in ["", "e0", "e1", "e-1", "e-2", "e-3", "e-4", "e-5", "e-6", "e2", "e-330", "e-400"] {
                        let dot = if nines.is_empty() { "" } else { point };
                        let whole = format!("{number}{more}{dot}{nines}{exp}");
                        let Ok(n) = crate::text::Scanner::new(&whole).num() else { continue };
                        assert!(!within(n, b, true), "{whole:?} ({number:?} said out of bounds): {hit:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(judged > 500 && checked > 50_000, "{judged} {checked}");
    }

    #[test]
    fn a_range_its_powers_of_ten_jump_over_is_left_at_the_exponent() {
        let range = [bound(Limit::I(20), "20", false, false), bound(Limit::I(30), "30", false, true)];
        // `e1` is 5.712, `e10` and on far past 30.
        for dead in ["0.5712e+", "0.5712e1", "0.5712e0", "0.5712e00", "5.712e+", "1e+", "3.1e+"] {
            assert_eq!(broken(&range, dead), Some("20"), "{dead}");
        }
        for alive in ["2.5e+", "2.5e0", "0.25e+", "0.25e0", "3e+", "25e-", "0.00025e0", "0.00025e+", "250e-", "2500e-0"]
        {
            assert_eq!(broken(&range, alive), None, "{alive}");
        }
        // A negative exponent only shrinks it: `0.5712` is below 20 already; `754e-1` is 75.4,
        // `754e-10` and on far below 20; `2500e-1` 250, and `e-1x` far below.
        // (Named: the bound it breaks now.)
        for (dead, bound) in [("0.5712e-", "20"), ("9e-", "20"), ("754e-1", "30"), ("754E-", "30"), ("2500e-1", "30")] {
            assert_eq!(broken(&range, dead), Some(bound), "{dead}");
        }
        // At its `e`, where neither sign leads within: `754e` (75.4 at best below, 754 and up
        // above), `5e` (50 and up, 0.5 and down); `25e`, `250e`, `2.5e` lead within one way.
        for (dead, bound) in [("754e", "30"), ("5E", "20"), ("13239542E", "30")] {
            assert_eq!(broken(&range, dead), Some(bound), "{dead}");
        }
        for alive in ["25e", "250e", "2.5e", "0.025E"] {
            assert_eq!(broken(&range, alive), None, "{alive}");
        }
        // `0.00025e5` is 25; `0.00025e1` 0.0025, but `e1x` past 30.
        assert_eq!(broken(&range, "0.00025e1"), Some("20"));
        let open = [bound(Limit::I(20), "20", false, false), bound(Limit::I(30), "30", true, true)];
        assert_eq!(broken(&open, "3e+"), Some("20"));
        // Negative numbers grow the other way.
        let minus = [bound(Limit::I(-30), "-30", false, false), bound(Limit::I(-20), "-20", false, true)];
        assert_eq!(broken(&minus, "-0.5712e+"), Some("-20"));
        assert_eq!(broken(&minus, "-2.5e+"), None);
        // One side alone: the number may still grow into it.
        assert_eq!(broken(&range[..1], "0.5712e+"), None);
    }

    #[test]
    fn a_range_said_jumped_over_is_so_at_every_exponent_left() {
        let mut next = draws(0x2545_F491_4F6C_DD1D);
        let (mut judged, mut checked) = (0, 0);
        for _ in 0..3000 {
            let low = i64::try_from(next(200)).unwrap_or(0) - 100;
            let high = low + i64::try_from(next(300)).unwrap_or(0);
            let b = [bound(Limit::I(low), "", next(2) == 0, false), bound(Limit::I(high), "", next(2) == 0, true)];
            let mut mantissa = String::from(if next(3) == 0 { "-" } else { "" });
            // (Small mantissas too: the range is then met at exponents of two digits.)
            if next(4) != 0 {
                mantissa.push_str("0.");
                mantissa.push_str(&"0".repeat(next(30) as usize));
            }
            mantissa.push(char::from(b'1' + next(9) as u8));
            for _ in 0..next(3) {
                mantissa.push(char::from(b'0' + next(10) as u8));
            }
            let exp: String = match next(7) {
                0 => "+".into(),
                1 => "0".into(),
                2 => (next(3) + 1).to_string(),
                3 => "-".into(),
                4 => format!("-{}", next(40)),
                _ => (next(40)).to_string(),
            };
            let number = format!("{mantissa}e{exp}");
            if outgrown(&b, number.as_bytes()).is_none() {
                continue;
            }
            judged += 1;
            // Every exponent it may still become (those that begin with its digits, any after
            // a `+` or zeros), read as the validators read it, is outside.
            for (e, n) in reads_left(&mantissa, &exp, false) {
                assert!(!within(n, &b, false), "{mantissa}e{e} ({number:?} said outside): {b:?}");
                checked += 1;
            }
            // (A negative exponent past those read takes it to zero.)
            if exp.starts_with('-') {
                assert!(!within(crate::text::Num::U(0), &b, false), "{number:?} said outside: {b:?}, zero");
            }
        }
        assert!(judged > 300 && checked > 10_000, "{judged} {checked}");
    }

    const fn divisor(mantissa: u64, exponent: i32, text: &'static str) -> Multiple {
        Multiple { divisor: Decimal { mantissa, exponent }, text }
    }

    #[test]
    fn a_positive_exponent_may_settle_a_multiple_of() {
        let dead = |m: &Multiple, number: &str| indivisible(&[], Some(m), number.as_bytes());
        let three = divisor(3, 0, "3");
        let seven = divisor(7, 0, "7");
        // No exponent, or one that may still be negative (`e-400` reads as zero): anything
        // may follow. A mantissa of zeros is zero, a multiple of everything.
        for alive in ["1.3", "1.3e", "1.3E-", "1.3e-4", "0.0e+", "0e5", "-0.00e12"] {
            assert!(!dead(&three, alive), "{alive}");
        }
        assert!(!indivisible(&[], None, b"1.3e4"));
        // Multiples at some exponent left (`7e+2` is 700, a multiple of 4).
        let four = divisor(4, 0, "4");
        for alive in ["7e+", "7e0", "7e2", "1.25e1", "-2e+"] {
            assert!(!dead(&four, alive), "{alive}");
        }
        assert!(!dead(&divisor(15, -1, "1.5"), "79420.8E3"));
        // Within bounds: `1.1e1` is 11, no multiple of 5, and `1.1e10` is past 100.
        let five = divisor(5, 0, "5");
        let max = [bound(Limit::I(100), "100", false, true)];
        assert!(!indivisible(&max, Some(&five), b"1e1"));
        assert!(!indivisible(&[], Some(&five), b"1.1e1"));
        // (Few exponents are left under the maximum: read at each, in either parse.)
        assert!(indivisible(&max, Some(&five), b"1.1e1"));
        assert!(indivisible(&max, Some(&five), b"1.3e+"));
        assert!(!indivisible(&max, Some(&five), b"1.5e+"));
        // `e-` may still come.
        assert!(!indivisible(&max, Some(&five), b"1.3e"));
        // Where one read decides (a short mantissa, read correctly rounded): no exponent left
        // makes one (`1.3e4`: `4`, `40`–`49`; 13 has no factor 3, and 10 none of 3 or 7).
        if float_roundtrip() {
            for number in ["1.3e4", "1.3e+", "-1.3e0", "1.3e00", "1.3e4", "13e1", "130e"] {
                assert_eq!(dead(&three, number), !number.ends_with('e'), "{number}");
            }
            assert!(dead(&seven, "3e+"));
            assert!(dead(&divisor(15, -1, "1.5"), "79420.825E3"));
            assert!(dead(&divisor(123_456_789, -9, "0.123456789"), "87E4"));
        }
        // A mantissa past 15 digits is read at each exponent left (`e22`: 22, 220–229).
        assert!(dead(&seven, "3.0000000000000001e22"));
    }

    #[test]
    fn a_number_said_indivisible_is_a_multiple_at_no_exponent_left() {
        let mut next = draws(0x9E37_79B9_7F4A_7C15);
        let divisors = [
            divisor(3, 0, "3"),
            divisor(7, 0, "7"),
            divisor(15, -1, "1.5"),
            divisor(123_456_789, -9, "0.123456789"),
            divisor(2, 0, "2"),
            divisor(1, -2, "0.01"),
            divisor(25, 0, "25"),
            divisor(1, -8, "1e-8"),
            divisor(3, -1, "0.3"),
            divisor(11, 2, "1100"),
        ];
        let (mut judged, mut checked, mut exact) = (0, 0, 0);
        for _ in 0..4000 {
            let m = divisors.get(next(divisors.len() as u64) as usize).copied().unwrap_or(divisors[0]);
            let mut mantissa = String::from(if next(3) == 0 { "-" } else { "" });
            if next(4) == 0 {
                mantissa.push_str("0.");
                mantissa.push_str(&"0".repeat(next(5) as usize));
            }
            mantissa.push(char::from(b'1' + next(9) as u8));
            // Short mantissas, and some past 15 digits.
            let more = if next(4) == 0 { 14 + next(8) } else { next(4) };
            for i in 0..more {
                if i + 1 == more && next(2) == 0 && !mantissa.contains('.') {
                    mantissa.push('.');
                }
                mantissa.push(char::from(b'0' + next(10) as u8));
            }
            let exp: String = match next(6) {
                0 => "+".into(),
                1 => "0".into(),
                2 => (next(3) + 1).to_string(),
                3 => format!("+{}", next(40)),
                _ => (next(300)).to_string(),
            };
            // Bounds of every scale, on one side or both, or none.
            let a: f64 = format!("{}e{}", 1 + next(9), next(300)).parse().unwrap_or(1.0);
            let b = (a * 10f64.powi(next(40) as i32)).min(1e308);
            let mut bounds = Vec::new();
            match next(5) {
                0 => bounds.push(bound(Limit::F(a), "", next(2) == 0, false)),
                1 => bounds.push(bound(Limit::F(b), "", next(2) == 0, true)),
                2 => {
                    bounds.push(bound(Limit::F(a), "", next(2) == 0, false));
                    bounds.push(bound(Limit::F(b), "", next(2) == 0, true));
                }
                3 => {
                    bounds.push(bound(Limit::F(-b), "", next(2) == 0, false));
                    bounds.push(bound(Limit::F(-a), "", next(2) == 0, true));
                }
                _ => {}
            }
            let number = format!("{mantissa}e{exp}");
            let said = indivisible(&bounds, Some(&m), number.as_bytes());
            // Every exponent it may still become (those that begin with its digits, any after
            // a `+` or zeros), read as the validators read it, within the range.
            let digits = exp.trim_start_matches('+').trim_start_matches('0');
            let mut any = false;
            for (e, n) in reads_left(&mantissa, &exp, false) {
                let fits = within(n, &bounds, false) && crate::num::multiple_of(&n.to_number(), m.divisor);
                assert!(
                    !(said && fits),
                    "{mantissa}e{e} ({number:?} said no multiple of {} within {bounds:?})",
                    m.text
                );
                any |= fits;
                checked += 1;
            }
            judged += usize::from(said);
            // Where one read decides, it says so exactly.
            let one_read = float_roundtrip()
                && significant(mantissa.as_bytes()) <= 15
                && !digits.is_empty()
                && crate::stream::machine::magnitude(mantissa.as_bytes()).is_some_and(|g| g >= -290);
            if one_read {
                assert_eq!(said, !any, "{number} by {}", m.text);
                exact += 1;
            }
        }
        assert!(judged > 300 && checked > 50_000, "{judged} {checked}");
        assert!(!float_roundtrip() || exact > 1000, "{exact}");
    }

    #[test]
    fn a_number_said_settled_satisfies_its_keywords_at_every_exponent_left() {
        let mut next = draws(0x5851_F42D_4C95_7F2D);
        let divisors = [divisor(3, 0, "3"), divisor(15, -1, "1.5"), divisor(1, -2, "0.01"), divisor(25, 0, "25")];
        let (mut judged, mut checked) = (0, 0);
        for _ in 0..4000 {
            let multiple = (next(3) == 0).then(|| divisors.get(next(4) as usize).copied()).flatten();
            let integer = next(2) == 0;
            let mut mantissa = String::from(if next(3) == 0 { "-" } else { "" });
            if next(5) == 0 {
                mantissa.push('0');
            } else if next(4) == 0 {
                // Past 15 digits: an `f64`'s digits at larger exponents are not its own.
                mantissa.push_str(&format!("{}.{}{}", 1 + next(9), "0".repeat(14 + next(3) as usize), 1 + next(9)));
            } else {
                if next(4) == 0 {
                    mantissa.push_str("0.");
                    mantissa.push_str(&"0".repeat(next(4) as usize));
                }
                mantissa.push(char::from(b'1' + next(9) as u8));
                for i in 0..next(4) {
                    if i == 0 && next(2) == 0 && !mantissa.contains('.') {
                        mantissa.push('.');
                    }
                    mantissa.push(char::from(b'0' + next(10) as u8));
                }
            }
            let exp: String = match next(6) {
                0 => "+".into(),
                1 => "0".into(),
                2 => "-".into(),
                3 => format!("+{}", next(12)),
                _ => next(30).to_string(),
            };
            let (a, b) = (next(200) as i64 - 100, next(2000) as i64);
            let mut bounds = Vec::new();
            match next(4) {
                0 => bounds.push(bound(Limit::I(a), "", next(2) == 0, false)),
                1 => bounds.push(bound(Limit::I(a), "", next(2) == 0, true)),
                2 => bounds.push(bound(Limit::I(a), "", next(2) == 0, false)),
                _ => {
                    bounds.push(bound(Limit::I(a), "", next(2) == 0, false));
                    bounds.push(bound(Limit::I(a + b), "", next(2) == 0, true));
                }
            }
            let number = format!("{mantissa}e{exp}");
            if !settled(&bounds, multiple.as_ref(), integer, number.as_bytes()) {
                continue;
            }
            judged += 1;
            // Every exponent it may still become, read as the validators read it (a mantissa of
            // zeros: any).
            let zero = mantissa.trim_start_matches('-') == "0";
            assert!(zero || !exp.starts_with('-'), "{number}: said settled in a negative exponent");
            for (e, n) in reads_left(&mantissa, &exp, zero) {
                let whole = match n {
                    crate::text::Num::F(f) => f.fract() == 0.0,
                    _ => true,
                };
                let fits = within(n, &bounds, false)
                    && (!integer || whole)
                    && multiple.is_none_or(|m| crate::num::multiple_of(&n.to_number(), m.divisor));
                assert!(fits, "{mantissa}e{e} ({number:?} said settled: {bounds:?} {multiple:?} {integer})");
                checked += 1;
            }
        }
        assert!(judged > 300 && checked > 10_000, "{judged} {checked}");
    }

    #[test]
    fn significant_digits_are_counted_between_the_first_and_last_not_zero() {
        for (text, n) in [("0.0120", 2), ("100", 1), ("-1.05", 3), ("0", 0), ("0.000", 0), ("12.34", 4), ("-7", 1)] {
            assert_eq!(significant(text.as_bytes()), n, "{text}");
        }
    }

    #[test]
    fn a_value_is_read_as_an_f64_where_it_has_an_exponent() {
        // 2^53 + 1 reads as 2^53 with an exponent: within a maximum of 2^53.
        let max = [bound(Limit::I(9_007_199_254_740_992), "9007199254740992", false, true)];
        assert_eq!(broken(&max, "9007199254740993e+"), None);
        assert_eq!(broken(&max, "9007199254740993e0"), None);
        assert_eq!(broken(&max, "9007199254740994e0"), Some("9007199254740992"));
        // A `+` past the window is left to the digits after it.
        let long = format!("1.{}e+", "0".repeat(70));
        assert_eq!(broken(&[bound(Limit::I(0), "0", false, true)], &long), None);
        assert_eq!(broken(&[bound(Limit::I(0), "0", false, true)], &format!("{long}0")), Some("0"));
    }
}
