//! Numba's `test_math.py` and `test_intrinsics.py` (the cudapy cases) as `#[rumba::kernel]`
//! functions, with Rust's names: every function of the `math` list on `f32` and `f64` (one
//! output row per function, in the order of [`UNARY`], [`BINARY`] and [`CLASSIFY`]) and CUDA's
//! integer intrinsics at every width (the order of [`INTRINSICS`]).

use rumba::kernel::prelude::*;

/// The unary functions, in the order of the rows `unary_f32` / `unary_f64` write.
pub const UNARY: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cbrt",
    "ceil",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "exp_m1",
    "abs",
    "floor",
    "gamma",
    "ln_gamma",
    "ln",
    "log10",
    "ln_1p",
    "log2",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
    "to_degrees",
    "to_radians",
    "round",
    "signum",
    "recip",
    "fract",
];

/// The binary functions (`x.f(y)`; `fmod` is `x % y`, `ldexp` and `powi` take `y as i32`).
pub const BINARY: &[&str] = &[
    "atan2",
    "hypot",
    "powf",
    "copysign",
    "fmod",
    "remainder",
    "min",
    "max",
    "ldexp",
    "powi",
    "mul_add",
];

/// The classifications (0 or 1).
pub const CLASSIFY: &[&str] = &["is_nan", "is_infinite", "is_finite"];

macro_rules! float_kernels {
    ($unary:ident, $binary:ident, $classify:ident, $t:ident) => {
        /// Every unary function of `x[i]`, one row each.
        #[rumba::kernel]
        pub fn $unary(t: &Thread, x: &Arr<$t>, out: &mut Arr<$t>) {
            let i = t.grid1();
            if i < x.len() {
                let v = x[i];
                out[(0, i)] = v.acos();
                out[(1, i)] = v.acosh();
                out[(2, i)] = v.asin();
                out[(3, i)] = v.asinh();
                out[(4, i)] = v.atan();
                out[(5, i)] = v.atanh();
                out[(6, i)] = v.cbrt();
                out[(7, i)] = v.ceil();
                out[(8, i)] = v.cos();
                out[(9, i)] = v.cosh();
                out[(10, i)] = v.erf();
                out[(11, i)] = v.erfc();
                out[(12, i)] = v.exp();
                out[(13, i)] = v.exp2();
                out[(14, i)] = v.exp_m1();
                out[(15, i)] = v.abs();
                out[(16, i)] = v.floor();
                out[(17, i)] = v.gamma();
                out[(18, i)] = v.ln_gamma();
                out[(19, i)] = v.ln();
                out[(20, i)] = v.log10();
                out[(21, i)] = v.ln_1p();
                out[(22, i)] = v.log2();
                out[(23, i)] = v.sin();
                out[(24, i)] = v.sinh();
                out[(25, i)] = v.sqrt();
                out[(26, i)] = v.tan();
                out[(27, i)] = v.tanh();
                out[(28, i)] = v.trunc();
                out[(29, i)] = v.to_degrees();
                out[(30, i)] = v.to_radians();
                out[(31, i)] = v.round();
                out[(32, i)] = v.signum();
                out[(33, i)] = v.recip();
                out[(34, i)] = v.fract();
            }
        }

        /// Every binary function of `x[i]` and `y[i]`, one row each.
        #[rumba::kernel]
        pub fn $binary(t: &Thread, x: &Arr<$t>, y: &Arr<$t>, out: &mut Arr<$t>) {
            let i = t.grid1();
            if i < x.len() {
                let (a, b) = (x[i], y[i]);
                // An exponent in i32's range (saturating, NaN to 0).
                let n = b as i32;
                out[(0, i)] = a.atan2(b);
                out[(1, i)] = a.hypot(b);
                out[(2, i)] = a.powf(b);
                out[(3, i)] = a.copysign(b);
                out[(4, i)] = a % b;
                out[(5, i)] = a.remainder(b);
                out[(6, i)] = a.min(b);
                out[(7, i)] = a.max(b);
                out[(8, i)] = a.ldexp(n);
                out[(9, i)] = a.powi(n % 64);
                out[(10, i)] = a.mul_add(b, a);
            }
        }

        /// `is_nan`, `is_infinite`, `is_finite` of `x[i]` as 0 or 1.
        #[rumba::kernel]
        pub fn $classify(t: &Thread, x: &Arr<$t>, out: &mut Arr<i32>) {
            let i = t.grid1();
            if i < x.len() {
                let v = x[i];
                out[(0, i)] = v.is_nan() as i32;
                out[(1, i)] = v.is_infinite() as i32;
                out[(2, i)] = v.is_finite() as i32;
            }
        }
    };
}

float_kernels!(unary_f32, binary_f32, classify_f32, f32);
float_kernels!(unary_f64, binary_f64, classify_f64, f64);

/// The integer intrinsics, in the order of the rows the `intrinsics_*` kernels write (each
/// result as `u64`; a function a width lacks writes 0).
pub const INTRINSICS: &[&str] = &[
    "count_ones",
    "leading_zeros",
    "trailing_zeros",
    "ffs",
    "reverse_bits",
    "swap_bytes",
    "rotate_left",
    "rotate_right",
    "mul_hi",
    "sad",
    "byte_perm",
];

macro_rules! int_kernel {
    ($name:ident, $t:ident, $u:ident, narrow) => {
        /// CUDA's integer intrinsics of `x[i]` (and `y[i]`, and `k = y[i]` as a `u32` shift).
        #[rumba::kernel]
        pub fn $name(t: &Thread, x: &Arr<$t>, y: &Arr<$t>, out: &mut Arr<u64>) {
            let i = t.grid1();
            if i < x.len() {
                let (a, b) = (x[i], y[i]);
                let k = b as u32;
                out[(0, i)] = a.count_ones() as u64;
                out[(1, i)] = a.leading_zeros() as u64;
                out[(2, i)] = a.trailing_zeros() as u64;
                out[(3, i)] = a.ffs() as u64;
                out[(4, i)] = a.reverse_bits() as $u as u64;
                out[(5, i)] = a.swap_bytes() as $u as u64;
                out[(6, i)] = a.rotate_left(k) as $u as u64;
                out[(7, i)] = a.rotate_right(k) as $u as u64;
            }
        }
    };
    ($name:ident, $t:ident, $u:ident, wide) => {
        /// CUDA's integer intrinsics of `x[i]` (and `y[i]`, and `k = y[i]` as a `u32` shift).
        #[rumba::kernel]
        pub fn $name(t: &Thread, x: &Arr<$t>, y: &Arr<$t>, out: &mut Arr<u64>) {
            let i = t.grid1();
            if i < x.len() {
                let (a, b) = (x[i], y[i]);
                let k = b as u32;
                out[(0, i)] = a.count_ones() as u64;
                out[(1, i)] = a.leading_zeros() as u64;
                out[(2, i)] = a.trailing_zeros() as u64;
                out[(3, i)] = a.ffs() as u64;
                out[(4, i)] = a.reverse_bits() as $u as u64;
                out[(5, i)] = a.swap_bytes() as $u as u64;
                out[(6, i)] = a.rotate_left(k) as $u as u64;
                out[(7, i)] = a.rotate_right(k) as $u as u64;
                out[(8, i)] = a.mul_hi(b) as $u as u64;
            }
        }
    };
    ($name:ident, $t:ident, $u:ident, word) => {
        /// CUDA's integer intrinsics of `x[i]` (and `y[i]`, and `k = y[i]` as a `u32` shift).
        #[rumba::kernel]
        pub fn $name(t: &Thread, x: &Arr<$t>, y: &Arr<$t>, out: &mut Arr<u64>) {
            let i = t.grid1();
            if i < x.len() {
                let (a, b) = (x[i], y[i]);
                let k = b as u32;
                out[(0, i)] = a.count_ones() as u64;
                out[(1, i)] = a.leading_zeros() as u64;
                out[(2, i)] = a.trailing_zeros() as u64;
                out[(3, i)] = a.ffs() as u64;
                out[(4, i)] = a.reverse_bits() as $u as u64;
                out[(5, i)] = a.swap_bytes() as $u as u64;
                out[(6, i)] = a.rotate_left(k) as $u as u64;
                out[(7, i)] = a.rotate_right(k) as $u as u64;
                out[(8, i)] = a.mul_hi(b) as $u as u64;
                out[(9, i)] = a.sad(b, k) as u64;
            }
        }
    };
}

int_kernel!(intrinsics_u8, u8, u8, narrow);
int_kernel!(intrinsics_i16, i16, u16, narrow);
int_kernel!(intrinsics_i32, i32, u32, word);
int_kernel!(intrinsics_u32, u32, u32, word);
int_kernel!(intrinsics_i64, i64, u64, wide);
int_kernel!(intrinsics_u64, u64, u64, wide);

/// `byte_perm` (`__byte_perm`) of `x[i]`, `y[i]` with selector `s[i]`.
#[rumba::kernel]
pub fn byte_perm(t: &Thread, x: &Arr<u32>, y: &Arr<u32>, s: &Arr<u32>, out: &mut Arr<u32>) {
    let i = t.grid1();
    if i < x.len() {
        out[i] = x[i].byte_perm(y[i], s[i]);
    }
}

/// Numba's `test_fastmath.py`: division, square root and transcendentals with `fastmath`
/// (`--use_fast_math` on CUDA, `-cl-fast-relaxed-math` on OpenCL; the simulator computes as
/// without it).
#[rumba::kernel(fastmath)]
pub fn fast_ops(t: &Thread, x: &Arr<f32>, y: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < x.len() {
        out[(0, i)] = x[i] / y[i];
        out[(1, i)] = x[i].sqrt();
        out[(2, i)] = x[i].sin();
        out[(3, i)] = x[i].cos();
        out[(4, i)] = x[i].exp();
        out[(5, i)] = x[i].ln();
        out[(6, i)] = x[i].powf(y[i]);
        out[(7, i)] = x[i] * y[i] + x[i];
    }
}

/// [`fast_ops`] without `fastmath`.
#[rumba::kernel]
pub fn exact_ops(t: &Thread, x: &Arr<f32>, y: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < x.len() {
        out[(0, i)] = x[i] / y[i];
        out[(1, i)] = x[i].sqrt();
        out[(2, i)] = x[i].sin();
        out[(3, i)] = x[i].cos();
        out[(4, i)] = x[i].exp();
        out[(5, i)] = x[i].ln();
        out[(6, i)] = x[i].powf(y[i]);
        out[(7, i)] = x[i] * y[i] + x[i];
    }
}

/// The complex functions (Numba's `cmath`), in the order of the rows `cmath_*` write.
pub const CMATH: &[&str] = &[
    "exp", "ln", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "conj",
];

macro_rules! cmath_kernel {
    ($name:ident, $t:ident) => {
        /// Numba's `test_complex.py` (`cmath`): every complex function of `z[i]` (rows of
        /// `out`, in the order of [`CMATH`]), `norm` and `arg` (`parts`), and `is_nan`,
        /// `is_infinite`, `is_finite` (`flags`).
        #[rumba::kernel]
        pub fn $name(
            t: &Thread,
            z: &Arr<Complex<$t>>,
            out: &mut Arr<Complex<$t>>,
            parts: &mut Arr<$t>,
            flags: &mut Arr<i32>,
        ) {
            let i = t.grid1();
            if i < z.len() {
                let v = z[i];
                out[(0, i)] = v.exp();
                out[(1, i)] = v.ln();
                out[(2, i)] = v.sqrt();
                out[(3, i)] = v.sin();
                out[(4, i)] = v.cos();
                out[(5, i)] = v.tan();
                out[(6, i)] = v.sinh();
                out[(7, i)] = v.cosh();
                out[(8, i)] = v.tanh();
                out[(9, i)] = v.conj();
                parts[(0, i)] = v.norm();
                parts[(1, i)] = v.arg();
                flags[(0, i)] = v.is_nan() as i32;
                flags[(1, i)] = v.is_infinite() as i32;
                flags[(2, i)] = v.is_finite() as i32;
            }
        }
    };
}

cmath_kernel!(cmath_c32, f32);
cmath_kernel!(cmath_c64, f64);

/// Numba's `math.frexp` and `math.modf` (tuple results): `m[i]`, `e[i]` with `x[i] = m·2^e`,
/// and the fractional and integral parts `f[i]`, `n[i]`.
#[rumba::kernel]
pub fn frexp_modf(
    t: &Thread,
    x: &Arr<f64>,
    m: &mut Arr<f64>,
    e: &mut Arr<i32>,
    f: &mut Arr<f64>,
    n: &mut Arr<f64>,
) {
    let i = t.grid1();
    if i < x.len() {
        let (mant, exp) = x[i].frexp();
        let (frac, int) = x[i].modf();
        m[i] = mant;
        e[i] = exp;
        f[i] = frac;
        n[i] = int;
    }
}

/// [`frexp_modf`] for `f32`.
#[rumba::kernel]
pub fn frexp_modf_f32(
    t: &Thread,
    x: &Arr<f32>,
    m: &mut Arr<f32>,
    e: &mut Arr<i32>,
    f: &mut Arr<f32>,
    n: &mut Arr<f32>,
) {
    let i = t.grid1();
    if i < x.len() {
        let (mant, exp) = x[i].frexp();
        let (frac, int) = x[i].modf();
        m[i] = mant;
        e[i] = exp;
        f[i] = frac;
        n[i] = int;
    }
}
