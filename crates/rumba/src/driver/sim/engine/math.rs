//! The math library of kernels on the simulator: what `x.sin()`, `y.atan2(x)`, `x.erf()`,
//! `x.ln_gamma()`, `x.mul_hi(y)`, … in a `#[rumba::kernel]` compute when the simulator runs it.
//!
//! Functions that are not exact come from [`libm`] (a port of musl's math library), never from
//! the host's C library, so a kernel computes the same bits on every machine the simulator runs
//! on. Exact operations (`sqrt`, `mul_add`, `floor`, `ceil`, `trunc`, `round`, `abs`,
//! `copysign`, `min`, `max`, the classifications, `to_degrees` / `to_radians` / `recip` /
//! `signum` / `fract`, which are one correctly rounded operation) are std's, as are the integer
//! bit operations Rust has (`count_ones`, `leading_zeros`, …). [`Real`] holds the rest for `f32`
//! and `f64`; [`Bits`] the CUDA integer intrinsics Rust lacks (`ffs`, `mul_hi`, `sad`,
//! `byte_perm`); [`ComplexMath`] Numba's `cmath` on complex numbers.
//!
//! # Accuracy, per function and target
//!
//! `+ - * /`, `sqrt`, `mul_add`, conversions and every function marked exact below are correctly
//! rounded (or exact) on every target, so the simulator, CUDA and OpenCL agree bit for bit. The
//! others differ between targets within these bounds, in units in the last place (ulp) of the
//! result type: "sim" is what rumba's tests measure against a reference (`f64` for `f32`
//! functions; see `crates/rumba/tests/kernel_math.rs`), "CUDA" is CUDA's Math API documentation
//! (libdevice, full range, without `--use_fast_math`), "OpenCL" is the OpenCL C specification's
//! minimum accuracy (a device may do better; PoCL uses its own libm).
//!
//! | function | sim f32 | CUDA f32 | OpenCL f32 | sim f64 | CUDA f64 | OpenCL f64 |
//! |---|---|---|---|---|---|---|
//! | `sqrt mul_add floor ceil trunc round abs copysign min max fract recip signum to_degrees to_radians ldexp remainder frexp modf %` | exact | exact | exact | exact | exact | exact |
//! | `exp` | 1 | 2 | 3 | 1 | 1 | 3 |
//! | `exp2` | 1 | 2 | 3 | 1 | 1 | 3 |
//! | `exp_m1` | 1 | 1 | 3 | 1 | 1 | 3 |
//! | `ln` | 1 | 1 | 3 | 1 | 1 | 3 |
//! | `log2` | 1 | 1 | 3 | 1 | 1 | 3 |
//! | `log10` | 1 | 2 | 3 | 1 | 1 | 3 |
//! | `ln_1p` | 1 | 1 | 2 | 1 | 1 | 2 |
//! | `sin cos` | 1 | 2 | 4 | 1 | 2 | 4 |
//! | `tan` | 1 | 4 | 5 | 1 | 2 | 5 |
//! | `asin acos` | 1 | 2 | 4 | 1 | 2 | 4 |
//! | `atan` | 1 | 2 | 5 | 1 | 2 | 5 |
//! | `atan2` | 2 | 3 | 6 | 2 | 2 | 6 |
//! | `sinh cosh` | 2 | 3 | 4 | 2 | 2 | 4 |
//! | `tanh` | 2 | 2 | 5 | 2 | 2 | 5 |
//! | `asinh acosh` | 2 | 4 | 4 | 2 | 3 | 4 |
//! | `atanh` | 2 | 3 | 5 | 2 | 2 | 5 |
//! | `cbrt` | 1 | 1 | 2 | 1 | 1 | 2 |
//! | `hypot` | 1 | 3 | 4 | 1 | 2 | 4 |
//! | `powf` | 1 | 4 | 16 | 1 | 2 | 16 |
//! | `powi` | repeated multiplication (not a bound: rounding accumulates; CUDA and OpenCL use `pow`/`pown`) |||||||
//! | `erf` | 2 | 2 | 16 | 2 | 2 | 16 |
//! | `erfc` | 4 | 4 | 16 | 4 | 5 | 16 |
//! | `gamma` (`tgamma`) | 4 | 5 | 16 | 8 | 10 | 16 |
//! | `ln_gamma` (`lgamma`) | 4 (outside its zeros) | 6 (outside -10.001..-2.264) | unbounded | 8 (outside its zeros) | 4 (outside -23.0001..-2.2637) | unbounded |
//!
//! Near the zeros of `ln_gamma` and where `gamma` under- or overflows the error is absolute, not
//! relative, on every target.
//!
//! Complex functions ([`ComplexMath`]) are bounded norm-wise, `|z − exact| ≤ k·ε·|exact|`
//! (`ε` the part type's epsilon): `k` = 16 on the simulator and CUDA and 32 on OpenCL for `exp
//! ln sqrt sin cos sinh cosh` and for `tan` / `tanh` away from their poles (near a pole the
//! doubled-angle formula cancels on every target); `conj` is exact, `norm` and `arg` are
//! `hypot` and `atan2`. Measured on the simulator (`kernel_math.rs`): at most 10 ε. CUDA's `--use_fast_math` and OpenCL's `-cl-fast-relaxed-math`
//! (`#[rumba::kernel(fastmath)]`) loosen their columns; the simulator's do not change.
//!
//! This module touches nothing: pure functions.

/// The `f32` / `f64` math functions of kernels that the simulator takes from [`libm`] (not the
/// host's C library): everything Numba's `math` list has that is not an exact std operation.
/// Kernels call them by their method names (`x.erf()`); the generated code names them
/// `<f32 as Real>::erf(x)`.
///
/// ```
/// use rumba::kernel::math::Real;
/// assert_eq!(<f64 as Real>::erf(0.0), 0.0);
/// assert_eq!(<f32 as Real>::gamma(5.0), 24.0);
/// assert_eq!(<f64 as Real>::remainder(5.0, 2.0), 1.0); // 5 = 2·2 + 1, ties to even quotient
/// assert_eq!(<f32 as Real>::ldexp(1.5, 4), 24.0);
/// assert_eq!(<f64 as Real>::frexp(24.0), (0.75, 5));
/// assert_eq!(<f32 as Real>::modf(-2.5), (-0.5, -2.0));
/// ```
#[allow(missing_docs)] // each function is the C function of the same meaning (see the table)
pub trait Real: Copy {
    fn exp(self) -> Self;
    fn exp2(self) -> Self;
    fn exp_m1(self) -> Self;
    fn ln(self) -> Self;
    fn log2(self) -> Self;
    fn log10(self) -> Self;
    fn ln_1p(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn asin(self) -> Self;
    fn acos(self) -> Self;
    fn atan(self) -> Self;
    fn atan2(self, x: Self) -> Self;
    fn sinh(self) -> Self;
    fn cosh(self) -> Self;
    fn tanh(self) -> Self;
    fn asinh(self) -> Self;
    fn acosh(self) -> Self;
    fn atanh(self) -> Self;
    fn cbrt(self) -> Self;
    fn hypot(self, y: Self) -> Self;
    fn powf(self, y: Self) -> Self;
    fn powi(self, n: i32) -> Self;
    fn erf(self) -> Self;
    fn erfc(self) -> Self;
    fn gamma(self) -> Self;
    fn ln_gamma(self) -> Self;
    fn ldexp(self, n: i32) -> Self;
    fn remainder(self, y: Self) -> Self;
    /// `(m, e)` with `self = m · 2^e` and `0.5 <= |m| < 1` (`(self, 0)` for 0, ∞ and NaN).
    fn frexp(self) -> (Self, i32);
    /// `(fractional, integral)` parts, both with `self`'s sign.
    fn modf(self) -> (Self, Self);
}

/// `acosh` below its domain (`x < 1`) is NaN, as in C: musl's formula (which `libm` ports)
/// returns a finite value for `x <= -2`.
fn acosh_f32(x: f32) -> f32 {
    if x < 1.0 { f32::NAN } else { libm::acoshf(x) }
}

fn acosh_f64(x: f64) -> f64 {
    if x < 1.0 { f64::NAN } else { libm::acosh(x) }
}

macro_rules! real {
    (@call acosh_f32) => { acosh_f32 };
    (@call acosh_f64) => { acosh_f64 };
    (@call $f:ident) => { libm::$f };
    ($t:ty, $scalbn:ident, $frexp:ident, $modf:ident, $($name:ident => $f:ident),+ ; $($name2:ident => $f2:ident),+) => {
        impl Real for $t {
            $(
                #[inline]
                fn $name(self) -> Self {
                    (real!(@call $f))(self)
                }
            )+
            $(
                #[inline]
                fn $name2(self, y: Self) -> Self {
                    libm::$f2(self, y)
                }
            )+
            #[inline]
            fn powi(self, n: i32) -> Self {
                <$t>::powi(self, n)
            }
            #[inline]
            fn ldexp(self, n: i32) -> Self {
                // `scalbn`: exact, ties of the final subnormal rounding to even, as C's `ldexp`.
                libm::$scalbn(self, n)
            }
            #[inline]
            fn frexp(self) -> (Self, i32) {
                libm::$frexp(self)
            }
            #[inline]
            fn modf(self) -> (Self, Self) {
                libm::$modf(self)
            }
        }
    };
}

real!(f32, scalbnf, frexpf, modff,
    exp => expf, exp2 => exp2f, exp_m1 => expm1f, ln => logf, log2 => log2f, log10 => log10f,
    ln_1p => log1pf, sin => sinf, cos => cosf, tan => tanf, asin => asinf, acos => acosf,
    atan => atanf, sinh => sinhf, cosh => coshf, tanh => tanhf, asinh => asinhf,
    acosh => acosh_f32, atanh => atanhf, cbrt => cbrtf, erf => erff, erfc => erfcf,
    gamma => tgammaf, ln_gamma => lgammaf;
    atan2 => atan2f, hypot => hypotf, powf => powf, remainder => remainderf);
real!(f64, scalbn, frexp, modf,
    exp => exp, exp2 => exp2, exp_m1 => expm1, ln => log, log2 => log2, log10 => log10,
    ln_1p => log1p, sin => sin, cos => cos, tan => tan, asin => asin, acos => acos,
    atan => atan, sinh => sinh, cosh => cosh, tanh => tanh, asinh => asinh,
    acosh => acosh_f64, atanh => atanh, cbrt => cbrt, erf => erf, erfc => erfc,
    gamma => tgamma, ln_gamma => lgamma;
    atan2 => atan2, hypot => hypot, powf => pow, remainder => remainder);

/// CUDA's integer intrinsics that Rust has no method for, with CUDA's meaning: `ffs` (1-based
/// position of the lowest set bit, 0 for 0; every integer type), `mul_hi` (the high half of the
/// full product: `__mulhi __umulhi __mul64hi __umul64hi`), `sad` (`|x - y| + z`, wrapping:
/// `__sad __usad`) and `byte_perm` (`__byte_perm`, selector nibbles of three bits). The others
/// have Rust names: `count_ones` (`popc`), `leading_zeros` (`clz`), `trailing_zeros`,
/// `reverse_bits` (`brev`), `rotate_left` / `rotate_right` (funnel shifts), `swap_bytes`.
///
/// ```
/// use rumba::kernel::math::Bits;
/// assert_eq!(<u32 as Bits>::ffs(0b1000), 4);
/// assert_eq!(<i32 as Bits>::ffs(0), 0);
/// assert_eq!(<u64 as Bits>::mul_hi(u64::MAX, 2), 1);
/// assert_eq!(<i32 as Bits>::mul_hi(-1, 1), -1);
/// assert_eq!(<i32 as Bits>::sad(-3, 4, 1), 8);
/// assert_eq!(<u32 as Bits>::byte_perm(0x4433_2211, 0x8877_6655, 0x0123), 0x1122_3344);
/// ```
pub trait Bits: Copy {
    /// The 1-based position of the lowest set bit; 0 when none is.
    fn ffs(self) -> u32;
    /// The high half of the double-width product (32- and 64-bit types).
    fn mul_hi(self, y: Self) -> Self {
        let _ = y;
        self
    }
    /// `|self - y| + z`, wrapping (32-bit types).
    fn sad(self, y: Self, z: u32) -> u32 {
        let _ = (y, z);
        0
    }
    /// Byte `n` of the result is byte `(s >> 4n) & 7` of the eight bytes `y:self` (`u32`).
    fn byte_perm(self, y: u32, s: u32) -> u32 {
        let _ = (y, s);
        0
    }
}

macro_rules! ffs {
    ($($t:ident),+) => {$(
        impl Bits for $t {
            #[inline]
            fn ffs(self) -> u32 {
                if self == 0 { 0 } else { self.trailing_zeros() + 1 }
            }
            mul_hi!($t);
            sad!($t);
            byte_perm!($t);
        }
    )+};
}

macro_rules! mul_hi {
    (i32) => {
        #[inline]
        fn mul_hi(self, y: Self) -> Self {
            ((i64::from(self) * i64::from(y)) >> 32) as i32
        }
    };
    (u32) => {
        #[inline]
        fn mul_hi(self, y: Self) -> Self {
            ((u64::from(self) * u64::from(y)) >> 32) as u32
        }
    };
    (i64) => {
        #[inline]
        fn mul_hi(self, y: Self) -> Self {
            ((i128::from(self) * i128::from(y)) >> 64) as i64
        }
    };
    (u64) => {
        #[inline]
        fn mul_hi(self, y: Self) -> Self {
            ((u128::from(self) * u128::from(y)) >> 64) as u64
        }
    };
    ($t:ident) => {};
}

macro_rules! sad {
    (i32) => {
        #[inline]
        fn sad(self, y: Self, z: u32) -> u32 {
            self.abs_diff(y).wrapping_add(z)
        }
    };
    (u32) => {
        #[inline]
        fn sad(self, y: Self, z: u32) -> u32 {
            self.abs_diff(y).wrapping_add(z)
        }
    };
    ($t:ident) => {};
}

macro_rules! byte_perm {
    (u32) => {
        #[inline]
        fn byte_perm(self, y: u32, s: u32) -> u32 {
            let all = (u64::from(y) << 32) | u64::from(self);
            (0..4).fold(0, |r, n| {
                let sel = (s >> (4 * n)) & 7;
                r | ((((all >> (8 * sel)) & 0xff) as u32) << (8 * n))
            })
        }
    };
    ($t:ident) => {};
}

ffs!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);

/// Numba's `cmath` on `Complex<f32>` / `Complex<f64>` with num-complex's names: the same
/// formulas on every target (here over [`Real`], in the device header and the OpenCL prelude
/// over the targets' real functions), so each result part is within a few ulp of its
/// counterpart elsewhere: `exp(a+bi) = eᵃ(cos b + i sin b)`, `ln z = ln|z| + i arg z`,
/// `sqrt` with `t = √((|a| + |z|)/2)`, `sin cos sinh cosh` by their real and imaginary parts,
/// `tan` and `tanh` through the doubled angle, `norm` = `hypot(a, b)`, `arg` = `atan2(b, a)`.
/// C99's table of special values (Annex G) is not applied: infinite and NaN parts follow the
/// formulas, identically on every target.
///
/// ```
/// use rumba::kernel::Complex;
/// use rumba::kernel::math::ComplexMath;
/// let z = Complex::new(0.0f64, std::f64::consts::PI);
/// let e = ComplexMath::exp(z);
/// assert!((e.re + 1.0).abs() < 1e-15 && e.im.abs() < 1e-15);
/// assert_eq!(ComplexMath::norm(Complex::new(3.0f32, 4.0)), 5.0);
/// assert_eq!(ComplexMath::conj(Complex::new(1.0f32, 2.0)), Complex::new(1.0, -2.0));
/// ```
#[allow(missing_docs)] // each function is the cmath function of the same meaning
pub trait ComplexMath: Copy {
    type Part;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tan(self) -> Self;
    fn sinh(self) -> Self;
    fn cosh(self) -> Self;
    fn tanh(self) -> Self;
    fn norm(self) -> Self::Part;
    fn arg(self) -> Self::Part;
    fn conj(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_finite(self) -> bool;
}

macro_rules! complex_math {
    ($t:ty) => {
        impl ComplexMath for num_complex::Complex<$t> {
            type Part = $t;
            #[inline]
            fn exp(self) -> Self {
                let r = Real::exp(self.re);
                Self::new(r * Real::cos(self.im), r * Real::sin(self.im))
            }
            #[inline]
            fn ln(self) -> Self {
                Self::new(Real::ln(ComplexMath::norm(self)), ComplexMath::arg(self))
            }
            #[inline]
            fn sqrt(self) -> Self {
                if self.re == 0.0 && self.im == 0.0 {
                    return Self::new(0.0, self.im);
                }
                let t = ((self.re.abs() + ComplexMath::norm(self)) * 0.5).sqrt();
                if self.re >= 0.0 {
                    Self::new(t, self.im / (2.0 * t))
                } else {
                    Self::new(self.im.abs() / (2.0 * t), t.copysign(self.im))
                }
            }
            #[inline]
            fn sin(self) -> Self {
                Self::new(
                    Real::sin(self.re) * Real::cosh(self.im),
                    Real::cos(self.re) * Real::sinh(self.im),
                )
            }
            #[inline]
            fn cos(self) -> Self {
                Self::new(
                    Real::cos(self.re) * Real::cosh(self.im),
                    -(Real::sin(self.re) * Real::sinh(self.im)),
                )
            }
            #[inline]
            fn tan(self) -> Self {
                let (a, b) = (2.0 * self.re, 2.0 * self.im);
                let d = Real::cos(a) + Real::cosh(b);
                Self::new(Real::sin(a) / d, Real::sinh(b) / d)
            }
            #[inline]
            fn sinh(self) -> Self {
                Self::new(
                    Real::sinh(self.re) * Real::cos(self.im),
                    Real::cosh(self.re) * Real::sin(self.im),
                )
            }
            #[inline]
            fn cosh(self) -> Self {
                Self::new(
                    Real::cosh(self.re) * Real::cos(self.im),
                    Real::sinh(self.re) * Real::sin(self.im),
                )
            }
            #[inline]
            fn tanh(self) -> Self {
                let (a, b) = (2.0 * self.re, 2.0 * self.im);
                let d = Real::cosh(a) + Real::cos(b);
                Self::new(Real::sinh(a) / d, Real::sin(b) / d)
            }
            #[inline]
            fn norm(self) -> $t {
                Real::hypot(self.re, self.im)
            }
            #[inline]
            fn arg(self) -> $t {
                Real::atan2(self.im, self.re)
            }
            #[inline]
            fn conj(self) -> Self {
                Self::new(self.re, -self.im)
            }
            #[inline]
            fn is_nan(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            #[inline]
            fn is_infinite(self) -> bool {
                !ComplexMath::is_nan(self) && (self.re.is_infinite() || self.im.is_infinite())
            }
            #[inline]
            fn is_finite(self) -> bool {
                self.re.is_finite() && self.im.is_finite()
            }
        }
    };
}

complex_math!(f32);
complex_math!(f64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_match_cuda_semantics() {
        assert_eq!(<u8 as Bits>::ffs(0x80), 8);
        assert_eq!(<i64 as Bits>::ffs(i64::MIN), 64);
        assert_eq!(<i64 as Bits>::mul_hi(i64::MIN, i64::MIN), 1 << 62);
        assert_eq!(
            <u32 as Bits>::sad(1, u32::MAX, 5),
            (u32::MAX - 1).wrapping_add(5)
        );
        assert_eq!(
            <u32 as Bits>::byte_perm(0x0302_0100, 0x0706_0504, 0x7654),
            0x0706_0504
        );
        assert_eq!(
            <u32 as Bits>::byte_perm(0x0302_0100, 0x0706_0504, 0xfedc),
            0x0706_0504
        );
    }

    #[test]
    fn real_is_libm_not_std() {
        // Spot values where libm's results are known exactly.
        assert_eq!(<f32 as Real>::exp(0.0), 1.0);
        assert_eq!(<f64 as Real>::ln(1.0), 0.0);
        assert_eq!(<f64 as Real>::ldexp(1.0, -1074), f64::from_bits(1));
        assert!(<f32 as Real>::ln_gamma(1.0) == 0.0);
        assert!(<f64 as Real>::gamma(-1.0).is_nan());
    }
}
