//! The math methods of the kernel subset, as one table: Numba's `math` list for `f32` and `f64`
//! with Rust's names (`x.sin()`, `y.atan2(x)`, `x.ln_1p()`, `x.erf()`, `x.ln_gamma()`, …), and
//! CUDA's integer intrinsics (`x.count_ones()` is `popc`, `leading_zeros` `clz`, `reverse_bits`
//! `brev`, `x.ffs()`, `x.mul_hi(y)`, `x.sad(y, z)`, `x.byte_perm(y, s)`, …), with what each
//! takes and gives. Parsing checks calls against it; every emitter maps each function to its
//! target (the simulator's `rumba::kernel::math`, CUDA's libdevice names, OpenCL's built-ins).
//!
//! On `Complex<f32>` / `Complex<f64>` (Numba's `cmath`, num-complex's names): `exp ln sqrt sin
//! cos tan sinh cosh tanh`, `norm` (`abs`), `arg` (`phase`), `conj` and `is_nan is_infinite
//! is_finite`.
//!
//! Numba's names without a Rust method keep Numba's name: `erf erfc gamma ln_gamma ldexp
//! remainder frexp modf` (the last two give a tuple, bound with `let (m, e) = x.frexp();`); `fmod` is Rust's `%`, `fabs` is `abs`, `pow` is `powf` / `powi`, `log` is `ln`,
//! `log1p` is `ln_1p`, `expm1` is `exp_m1`, `degrees`/`radians` are `to_degrees`/`to_radians`,
//! `isnan`/`isinf`/`isfinite` are `is_nan`/`is_infinite`/`is_finite`.

/// A math method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // each variant is the method of the same name (see `name`)
pub enum MathFn {
    Min,
    Max,
    Abs,
    Sqrt,
    Exp,
    Ln,
    Sin,
    Cos,
    Tan,
    Powf,
    Powi,
    Floor,
    Ceil,
    Round,
    MulAdd,
    IsNan,
    WrappingAdd,
    WrappingSub,
    WrappingMul,
    WrappingNeg,
    Acos,
    Acosh,
    Asin,
    Asinh,
    Atan,
    Atan2,
    Atanh,
    Cbrt,
    Copysign,
    Cosh,
    Erf,
    Erfc,
    Exp2,
    ExpM1,
    Gamma,
    Hypot,
    IsFinite,
    IsInfinite,
    Ldexp,
    LnGamma,
    Ln1p,
    Log10,
    Log2,
    Remainder,
    Sinh,
    Tanh,
    Trunc,
    ToDegrees,
    ToRadians,
    Signum,
    Recip,
    Fract,
    CountOnes,
    LeadingZeros,
    TrailingZeros,
    ReverseBits,
    Ffs,
    MulHi,
    Sad,
    BytePerm,
    RotateLeft,
    RotateRight,
    SwapBytes,
    Norm,
    Arg,
    Conj,
    Frexp,
    Modf,
}

/// Which receiver types a math method is defined for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathDomain {
    /// `f32`, `f64`.
    Float,
    /// `f32`, `f64`, `f16`.
    FloatOrF16,
    /// Every number.
    Number,
    /// Signed integers and floats.
    Signed,
    /// Every integer.
    Int,
    /// `i32 u32 i64 u64`.
    Int32Or64,
    /// `i32 u32`.
    Int32,
    /// `u32`.
    U32,
    /// `f32`, `f64` and `Complex<f32/f64>`.
    FloatOrComplex,
    /// `f32`, `f64`, `f16` and `Complex<f32/f64>` (`is_nan`).
    Classify,
    /// `Complex<f32/f64>`.
    Complex,
}

/// The type of an argument after the receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathArg {
    /// The receiver's type.
    Same,
    /// `i32`.
    I32,
    /// `u32`.
    U32,
}

/// The result type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathRet {
    /// The receiver's type.
    Same,
    /// `bool`.
    Bool,
    /// `u32`.
    U32,
    /// The part type of the complex receiver (`norm`, `arg`).
    Part,
    /// `(receiver's type, i32)` (`frexp`: mantissa and exponent).
    WithExponent,
    /// `(receiver's type, receiver's type)` (`modf`: fractional and integral parts).
    Pair,
}

use MathArg as A;
use MathDomain as D;
use MathFn as F;
use MathRet as R;

/// `(function, Rust name, arguments after the receiver, domain, result, whether every target
/// computes it exactly or correctly rounded)`.
type Row = (
    MathFn,
    &'static str,
    &'static [MathArg],
    MathDomain,
    MathRet,
    bool,
);

#[rustfmt::skip]
const TABLE: &[Row] = &[
    (F::Min, "min", &[A::Same], D::Number, R::Same, true),
    (F::Max, "max", &[A::Same], D::Number, R::Same, true),
    (F::Abs, "abs", &[], D::Signed, R::Same, true),
    (F::Sqrt, "sqrt", &[], D::FloatOrComplex, R::Same, true),
    (F::Exp, "exp", &[], D::FloatOrComplex, R::Same, false),
    (F::Ln, "ln", &[], D::FloatOrComplex, R::Same, false),
    (F::Sin, "sin", &[], D::FloatOrComplex, R::Same, false),
    (F::Cos, "cos", &[], D::FloatOrComplex, R::Same, false),
    (F::Tan, "tan", &[], D::FloatOrComplex, R::Same, false),
    (F::Powf, "powf", &[A::Same], D::Float, R::Same, false),
    (F::Powi, "powi", &[A::I32], D::Float, R::Same, false),
    (F::Floor, "floor", &[], D::Float, R::Same, true),
    (F::Ceil, "ceil", &[], D::Float, R::Same, true),
    (F::Round, "round", &[], D::Float, R::Same, true),
    (F::MulAdd, "mul_add", &[A::Same, A::Same], D::Float, R::Same, true),
    (F::IsNan, "is_nan", &[], D::Classify, R::Bool, true),
    (F::WrappingAdd, "wrapping_add", &[A::Same], D::Int, R::Same, true),
    (F::WrappingSub, "wrapping_sub", &[A::Same], D::Int, R::Same, true),
    (F::WrappingMul, "wrapping_mul", &[A::Same], D::Int, R::Same, true),
    (F::WrappingNeg, "wrapping_neg", &[], D::Int, R::Same, true),
    (F::Acos, "acos", &[], D::Float, R::Same, false),
    (F::Acosh, "acosh", &[], D::Float, R::Same, false),
    (F::Asin, "asin", &[], D::Float, R::Same, false),
    (F::Asinh, "asinh", &[], D::Float, R::Same, false),
    (F::Atan, "atan", &[], D::Float, R::Same, false),
    (F::Atan2, "atan2", &[A::Same], D::Float, R::Same, false),
    (F::Atanh, "atanh", &[], D::Float, R::Same, false),
    (F::Cbrt, "cbrt", &[], D::Float, R::Same, false),
    (F::Copysign, "copysign", &[A::Same], D::Float, R::Same, true),
    (F::Cosh, "cosh", &[], D::FloatOrComplex, R::Same, false),
    (F::Erf, "erf", &[], D::Float, R::Same, false),
    (F::Erfc, "erfc", &[], D::Float, R::Same, false),
    (F::Exp2, "exp2", &[], D::Float, R::Same, false),
    (F::ExpM1, "exp_m1", &[], D::Float, R::Same, false),
    (F::Gamma, "gamma", &[], D::Float, R::Same, false),
    (F::Hypot, "hypot", &[A::Same], D::Float, R::Same, false),
    (F::IsFinite, "is_finite", &[], D::FloatOrComplex, R::Bool, true),
    (F::IsInfinite, "is_infinite", &[], D::FloatOrComplex, R::Bool, true),
    (F::Ldexp, "ldexp", &[A::I32], D::Float, R::Same, true),
    (F::LnGamma, "ln_gamma", &[], D::Float, R::Same, false),
    (F::Ln1p, "ln_1p", &[], D::Float, R::Same, false),
    (F::Log10, "log10", &[], D::Float, R::Same, false),
    (F::Log2, "log2", &[], D::Float, R::Same, false),
    (F::Remainder, "remainder", &[A::Same], D::Float, R::Same, true),
    (F::Sinh, "sinh", &[], D::FloatOrComplex, R::Same, false),
    (F::Tanh, "tanh", &[], D::FloatOrComplex, R::Same, false),
    (F::Trunc, "trunc", &[], D::Float, R::Same, true),
    (F::ToDegrees, "to_degrees", &[], D::Float, R::Same, true),
    (F::ToRadians, "to_radians", &[], D::Float, R::Same, true),
    (F::Signum, "signum", &[], D::Float, R::Same, true),
    (F::Recip, "recip", &[], D::Float, R::Same, true),
    (F::Fract, "fract", &[], D::Float, R::Same, true),
    (F::CountOnes, "count_ones", &[], D::Int, R::U32, true),
    (F::LeadingZeros, "leading_zeros", &[], D::Int, R::U32, true),
    (F::TrailingZeros, "trailing_zeros", &[], D::Int, R::U32, true),
    (F::ReverseBits, "reverse_bits", &[], D::Int, R::Same, true),
    (F::Ffs, "ffs", &[], D::Int, R::U32, true),
    (F::MulHi, "mul_hi", &[A::Same], D::Int32Or64, R::Same, true),
    (F::Sad, "sad", &[A::Same, A::U32], D::Int32, R::U32, true),
    (F::BytePerm, "byte_perm", &[A::U32, A::U32], D::U32, R::Same, true),
    (F::RotateLeft, "rotate_left", &[A::U32], D::Int, R::Same, true),
    (F::RotateRight, "rotate_right", &[A::U32], D::Int, R::Same, true),
    (F::SwapBytes, "swap_bytes", &[], D::Int, R::Same, true),
    (F::Norm, "norm", &[], D::Complex, R::Part, false),
    (F::Arg, "arg", &[], D::Complex, R::Part, false),
    (F::Conj, "conj", &[], D::Complex, R::Same, true),
    (F::Frexp, "frexp", &[], D::Float, R::WithExponent, true),
    (F::Modf, "modf", &[], D::Float, R::Pair, true),
];

impl MathFn {
    fn row(
        self,
    ) -> &'static (
        MathFn,
        &'static str,
        &'static [MathArg],
        MathDomain,
        MathRet,
        bool,
    ) {
        TABLE.iter().find(|r| r.0 == self).unwrap_or(&TABLE[0])
    }

    /// Looks a method name up.
    pub fn from_name(name: &str) -> Option<MathFn> {
        TABLE.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// Every method name, in table order (for messages and documentation).
    pub fn names() -> impl Iterator<Item = &'static str> {
        TABLE.iter().map(|r| r.1)
    }

    /// The Rust method name.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The types of the arguments besides the receiver.
    pub fn args(self) -> &'static [MathArg] {
        self.row().2
    }

    /// Number of arguments besides the receiver.
    pub fn arity(self) -> usize {
        self.args().len()
    }

    /// The receiver types it is defined for.
    pub fn domain(self) -> MathDomain {
        self.row().3
    }

    /// The result type.
    pub fn ret(self) -> MathRet {
        self.row().4
    }

    /// Whether every target computes it exactly (or correctly rounded), so that the simulator,
    /// CUDA and OpenCL agree bit for bit.
    pub fn exact(self) -> bool {
        self.row().5
    }

    /// Float-only functions (complex numbers aside).
    pub fn float_only(self) -> bool {
        matches!(
            self.domain(),
            MathDomain::Float | MathDomain::FloatOrF16 | MathDomain::FloatOrComplex
        )
    }

    /// Integer-only functions.
    pub fn int_only(self) -> bool {
        matches!(
            self.domain(),
            MathDomain::Int | MathDomain::Int32Or64 | MathDomain::Int32 | MathDomain::U32
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for (f, name, ..) in TABLE {
            assert!(seen.insert(*name), "{name} twice");
            assert_eq!(MathFn::from_name(name), Some(*f));
            assert_eq!(f.name(), *name);
        }
        assert_eq!(MathFn::from_name("erf"), Some(MathFn::Erf));
        assert_eq!(MathFn::Sad.arity(), 2);
    }
}
