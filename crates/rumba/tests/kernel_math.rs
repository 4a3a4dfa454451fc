//! The math library of `#[rumba::kernel]` (Numba's `test_math.py` and `test_intrinsics.py`):
//! every function of the `math` list on `f32` and `f64` with Rust's names, and CUDA's integer
//! intrinsics at every width, on the backend `RUMBA_TEST_BACKEND` names, over special values
//! (±0, ±∞, NaN, subnormals, the edges of each domain) and random inputs.
//!
//! * Exact functions (`sqrt floor ceil trunc round abs copysign % remainder ldexp min max
//!   to_degrees to_radians recip signum fract mul_add`, the classifications, the integer
//!   intrinsics) agree bit for bit with Rust's own result computed on the host.
//! * The others agree with a reference within the bound the math library documents for the
//!   backend (`rumba::kernel::math`): for `f32`, the function computed in `f64` and rounded; for
//!   `f64`, the host C library's (whose own error, at most 1 ulp, is added to the bound), and
//!   exact values where neither has the function (`erf erfc gamma ln_gamma`).
//! * With PoCL present, the simulator's exact results equal OpenCL's bit for bit, and OpenCL's
//!   others meet the OpenCL C specification's bounds.

mod common;
mod macro_corpus;
#[path = "ported_kernels/math.rs"]
mod math;
mod opencl_common;

use macro_corpus::case::{Agree, Case, HostArg, run_backend};
use rumba::config::BackendChoice;

/// Where results come from, for the bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    Sim,
    OpenCl,
    Cuda,
}

fn target() -> Target {
    match common::test_backend() {
        BackendChoice::OpenCl => Target::OpenCl,
        BackendChoice::Cuda => Target::Cuda,
        _ => Target::Sim,
    }
}

/// The documented bound of `name` in ulp (`None`: exact), for `f64` when `wide`.
fn bound(name: &str, wide: bool, t: Target) -> Option<u64> {
    // (sim f32, CUDA f32, OpenCL f32, sim f64, CUDA f64, OpenCL f64)
    let row: [u64; 6] = match name {
        "exp" | "exp2" => [1, 2, 3, 1, 1, 3],
        "exp_m1" | "ln" | "log2" => [1, 1, 3, 1, 1, 3],
        "log10" => [1, 2, 3, 1, 1, 3],
        "ln_1p" => [1, 1, 2, 1, 1, 2],
        "sin" | "cos" => [1, 2, 4, 1, 2, 4],
        "tan" => [1, 4, 5, 1, 2, 5],
        "asin" | "acos" => [1, 2, 4, 1, 2, 4],
        "atan" => [1, 2, 5, 1, 2, 5],
        "atan2" => [2, 3, 6, 2, 2, 6],
        "sinh" | "cosh" => [2, 3, 4, 2, 2, 4],
        "tanh" => [2, 2, 5, 2, 2, 5],
        "asinh" | "acosh" => [2, 4, 4, 2, 3, 4],
        "atanh" => [2, 3, 5, 2, 2, 5],
        "cbrt" => [1, 1, 2, 1, 1, 2],
        "hypot" => [1, 3, 4, 1, 2, 4],
        "powf" => [1, 4, 16, 1, 2, 16],
        "erf" => [2, 2, 16, 2, 2, 16],
        "erfc" => [4, 4, 16, 4, 5, 16],
        "gamma" => [4, 5, 16, 8, 10, 16],
        "ln_gamma" => [4, 6, 64, 8, 4, 64],
        _ => return None,
    };
    let k = match t {
        Target::Sim => 0,
        Target::Cuda => 1,
        Target::OpenCl => 2,
    };
    Some(row[k + if wide { 3 } else { 0 }])
}

/// Units in the last place between `a` and `b` (two NaNs agree; ±0 are one value).
fn ulps(a: f64, b: f64, wide: bool) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let ord = |x: f64| -> i128 {
        if wide {
            let i = x.to_bits() as i64;
            if i < 0 {
                i128::from(i64::MIN) - i128::from(i)
            } else {
                i128::from(i)
            }
        } else {
            let i = (x as f32).to_bits() as i32;
            if i < 0 {
                i128::from(i32::MIN) - i128::from(i)
            } else {
                i128::from(i)
            }
        }
    };
    (ord(a) - ord(b)).unsigned_abs() as u64
}

/// `f32` inputs: special values, domain edges, then random ones of every magnitude and sign.
fn inputs_f32() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        3.0,
        -3.0,
        -2.5,
        10.0,
        -10.0,
        100.0,
        -100.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        1.0 - f32::EPSILON / 2.0,
        1.0 + f32::EPSILON,
        -1.0 + f32::EPSILON / 2.0,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        88.72,
        89.0,
        -87.3,
        -103.9,
        1e-8,
        -1e-8,
        1e10,
        1e30,
        -1e30,
        35.0,
        0.1,
        1e-30,
        5.5,
        -4.75,
    ];
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        s.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for k in 0..3000 {
        let r = next();
        let unit = (r >> 40) as f64 / (1u64 << 24) as f64;
        let sign = if r & 1 == 0 { 1.0 } else { -1.0 };
        let x = match k % 3 {
            0 => sign * 2f64.powf(unit * 40.0 - 20.0),
            1 => sign * unit,
            _ => sign * unit * 12.0,
        };
        v.push(x as f32);
    }
    v
}

fn inputs_f64() -> Vec<f64> {
    let mut v: Vec<f64> = inputs_f32().into_iter().map(f64::from).collect();
    v.extend([
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::MAX,
        1.0 - f64::EPSILON / 2.0,
        1.0 + f64::EPSILON,
        709.7,
        710.0,
        -745.0,
        171.5,
        172.0,
        1e300,
        1e-300,
    ]);
    v
}

/// The reference of unary `name` at `x` (`None`: no reference; exact functions are checked
/// against Rust's own result instead). Rust's `asinh`, `acosh` and `atanh` are naive formulas
/// (they overflow and cancel), so those three come from the host C library's `log1p` through
/// cancellation-free forms (a few ulp in `f64`, see `reference_slack`).
fn reference(name: &str, x: f64) -> Option<f64> {
    Some(match name {
        "acos" => x.acos(),
        "acosh" if x < 1.0 => f64::NAN,
        "acosh" if x > 1e150 => x.ln() + std::f64::consts::LN_2,
        "acosh" => {
            let t = x - 1.0;
            (t + (2.0 * t + t * t).sqrt()).ln_1p()
        }
        "asin" => x.asin(),
        "asinh" if x.abs() > 1e150 => (x.abs().ln() + std::f64::consts::LN_2).copysign(x),
        "asinh" => {
            let a = x.abs();
            (a + a * a / (1.0 + (1.0 + a * a).sqrt()))
                .ln_1p()
                .copysign(x)
        }
        "atan" => x.atan(),
        "atanh" => {
            let a = x.abs();
            (0.5 * (2.0 * a / (1.0 - a)).ln_1p()).copysign(x)
        }
        "cbrt" => x.cbrt(),
        "cos" => x.cos(),
        "cosh" => x.cosh(),
        "erf" => libm::erf(x),
        "erfc" => libm::erfc(x),
        "exp" => x.exp(),
        "exp2" => x.exp2(),
        "exp_m1" => x.exp_m1(),
        "gamma" => libm::tgamma(x),
        "ln_gamma" => libm::lgamma(x),
        "ln" => x.ln(),
        "log10" => x.log10(),
        "ln_1p" => x.ln_1p(),
        "log2" => x.log2(),
        "sin" => x.sin(),
        "sinh" => x.sinh(),
        "tan" => x.tan(),
        "tanh" => x.tanh(),
        _ => return None,
    })
}

/// Rust's own result of exact unary `name` (`f32` when not `wide`, through `f64` losslessly).
fn exact_unary(name: &str, x: f64, wide: bool) -> f64 {
    macro_rules! by {
        ($t:ty) => {{
            let x = x as $t;
            f64::from(match name {
                "ceil" => x.ceil(),
                "abs" => x.abs(),
                "floor" => x.floor(),
                "sqrt" => x.sqrt(),
                "trunc" => x.trunc(),
                "to_degrees" => x.to_degrees(),
                "to_radians" => x.to_radians(),
                "round" => x.round(),
                "signum" => x.signum(),
                "recip" => x.recip(),
                "fract" => x.fract(),
                other => panic!("{other} is not exact"),
            })
        }};
    }
    if wide { by!(f64) } else { by!(f32) }
}

/// How far the `f64` reference of `name` may itself be from the exact result, in ulp: the host
/// C library's functions are within 1; the `log1p` forms of `asinh acosh atanh` within 3.
fn reference_slack(name: &str) -> u64 {
    match name {
        "asinh" | "acosh" | "atanh" => 3,
        _ => 1,
    }
}

fn same_bits(a: f64, b: f64, wide: bool) -> bool {
    (a.is_nan() && b.is_nan())
        || if wide {
            a.to_bits() == b.to_bits()
        } else {
            (a as f32).to_bits() == (b as f32).to_bits()
        }
}

/// `lgamma`'s error near its zeros (1, 2, and one in every interval of the negative axis) is
/// absolute, not relative: skip inputs whose result is that small.
fn checked_point(name: &str, x: f64, r: f64) -> bool {
    !(name == "ln_gamma" && (r.abs() < 0.5 || x < 0.0))
}

/// Runs `kernel` on `x` (and `y`) on the test backend; returns the output rows.
fn run_float(
    case_of: impl Fn(Vec<HostArg>) -> Case,
    x: HostArg,
    y: Option<HostArg>,
    rows: usize,
    n: usize,
    out_zeros: HostArg,
) -> Vec<HostArg> {
    let mut args = vec![x];
    args.extend(y);
    args.push(out_zeros);
    let _ = (rows, n);
    let case = case_of(args);
    run_backend(&case).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

macro_rules! case_of {
    ($k:ident, $n:expr) => {
        |args: Vec<HostArg>| Case {
            name: stringify!($k),
            function: math::$k().function().clone(),
            abi: &math::$k::ABI,
            opencl: math::$k::opencl_source(),
            cuda: math::$k::cuda_source(),
            grid: [$n.div_ceil(256), 1, 1],
            block: [256, 1, 1],
            dynamic_shared_bytes: 0,
            args,
            agree: Agree::Exact,
        }
    };
}

/// Checks every unary function's row of `out` (inputs `xs`) on target `t`; returns the largest
/// ulp error seen per function.
fn check_unary(xs: &[f64], out: &[f64], wide: bool, t: Target) -> Vec<(&'static str, u64)> {
    let n = xs.len();
    let mut worst = Vec::new();
    let mut failures = Vec::new();
    for (k, name) in math::UNARY.iter().enumerate() {
        let row = &out[k * n..(k + 1) * n];
        let mut max = 0u64;
        for (&x, &got) in xs.iter().zip(row) {
            match (bound(name, wide, t), reference(name, x)) {
                (Some(b), Some(r)) => {
                    if !checked_point(name, x, r) {
                        continue;
                    }
                    // The f64 reference (the host's C library) may itself be 1 ulp off.
                    let b = b + if wide { reference_slack(name) } else { 0 };
                    let d = ulps(got, r, wide);
                    max = max.max(d);
                    if d > b {
                        failures.push(format!(
                            "{name}({x:e}) = {got:e}, reference {r:e}: {d} ulp > {b}"
                        ));
                    }
                }
                _ => {
                    let want = exact_unary(name, x, wide);
                    if !same_bits(got, want, wide) {
                        failures.push(format!(
                            "{name}({x:e}) = {got:e}, Rust gives {want:e} (exact)"
                        ));
                    }
                }
            }
        }
        worst.push((*name, max));
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    worst
}

#[test]
fn unary_f32_functions_meet_their_bounds() {
    common::start(|_| {});
    let xs = inputs_f32();
    let n = xs.len();
    let rows = math::UNARY.len();
    let out = run_float(
        case_of!(unary_f32, n),
        HostArg::array(&xs, &[n]),
        None,
        rows,
        n,
        HostArg::array(&vec![0f32; rows * n], &[rows, n]),
    );
    let got: Vec<f64> = out[1].values::<f32>().into_iter().map(f64::from).collect();
    let xs: Vec<f64> = xs.into_iter().map(f64::from).collect();
    let worst = check_unary(&xs, &got, false, target());
    eprintln!("f32 max ulp on {:?}: {worst:?}", target());
}

#[test]
fn unary_f64_functions_meet_their_bounds() {
    common::start(|_| {});
    let xs = inputs_f64();
    let n = xs.len();
    let rows = math::UNARY.len();
    let out = run_float(
        case_of!(unary_f64, n),
        HostArg::array(&xs, &[n]),
        None,
        rows,
        n,
        HostArg::array(&vec![0f64; rows * n], &[rows, n]),
    );
    let got = out[1].values::<f64>();
    // erf, erfc, gamma and ln_gamma have no independent f64 reference on the host: their rows
    // are checked at exact values below; here only against libm's own (the simulator's).
    let worst = check_unary(&xs, &got, true, target());
    eprintln!("f64 max ulp on {:?}: {worst:?}", target());
    let row = |name: &str| {
        let k = math::UNARY.iter().position(|u| *u == name).unwrap();
        &got[k * n..(k + 1) * n]
    };
    let at = |x: f64| xs.iter().position(|&v| v.to_bits() == x.to_bits()).unwrap();
    // gamma(n) = (n - 1)! exactly; gamma(1/2) = √π; erf(0) = 0; erfc(0) = 1; erf(±∞) = ±1.
    let b = |name: &str| bound(name, true, target()).unwrap_or(0);
    assert!(ulps(row("gamma")[at(5.5)], 52.342_777_784_553_52, true) <= b("gamma"));
    assert!(ulps(row("gamma")[at(3.0)], 2.0, true) <= b("gamma"));
    assert!(ulps(row("gamma")[at(10.0)], 362_880.0, true) <= b("gamma"));
    assert!(row("gamma")[at(-3.0)].is_nan());
    assert!(ulps(row("gamma")[at(0.5)], std::f64::consts::PI.sqrt(), true) <= b("gamma"));
    assert_eq!(row("ln_gamma")[at(1.0)], 0.0);
    assert_eq!(row("ln_gamma")[at(2.0)], 0.0);
    assert_eq!(row("ln_gamma")[at(f64::NEG_INFINITY)], f64::INFINITY);
    assert_eq!(row("erf")[at(0.0)], 0.0);
    assert_eq!(row("erf")[at(f64::INFINITY)], 1.0);
    assert_eq!(row("erf")[at(f64::NEG_INFINITY)], -1.0);
    assert_eq!(row("erfc")[at(0.0)], 1.0);
    assert!(ulps(row("erf")[at(0.5)], 0.520_499_877_813_046_5, true) <= b("erf"));
    assert!(ulps(row("erfc")[at(2.0)], 0.004_677_734_981_047_266, true) <= b("erfc"));
    assert!(ulps(row("ln_gamma")[at(10.0)], 12.801_827_480_081_469, true) <= b("ln_gamma"));
}

/// Pairs of inputs: every special value against a few, then random pairs.
fn pairs_f64(wide: bool) -> (Vec<f64>, Vec<f64>) {
    let xs: Vec<f64> = if wide {
        inputs_f64()
    } else {
        inputs_f32().into_iter().map(f64::from).collect()
    };
    let specials = &xs[..44];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in specials {
        for &y in &[
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            -3.0,
            f64::INFINITY,
            f64::NAN,
            1e-30,
            7.25,
        ] {
            a.push(x);
            b.push(y);
            a.push(y);
            b.push(x);
        }
    }
    for k in 44..xs.len() {
        a.push(xs[k]);
        b.push(xs[xs.len() - 1 - (k - 44)]);
    }
    (a, b)
}

fn check_binary(
    a: &[f64],
    b: &[f64],
    out: &[f64],
    wide: bool,
    t: Target,
) -> Vec<(&'static str, u64)> {
    let n = a.len();
    let mut failures = Vec::new();
    let mut worst = Vec::new();
    for (k, name) in math::BINARY.iter().enumerate() {
        let row = &out[k * n..(k + 1) * n];
        let mut max = 0u64;
        for i in 0..n {
            let (x, y, got) = (a[i], b[i], row[i]);
            let exp = y as i32;
            macro_rules! rust {
                ($t:ty) => {{
                    let (x, y) = (x as $t, y as $t);
                    f64::from(match *name {
                        "copysign" => x.copysign(y),
                        "fmod" => x % y,
                        "remainder" => (libm::remainder(f64::from(x), f64::from(y))) as $t,
                        "min" => x.min(y),
                        "max" => x.max(y),
                        "powi" => x.powi(exp % 64),
                        "mul_add" => x.mul_add(y, x),
                        _ => unreachable!(),
                    })
                }};
            }
            let check = match *name {
                "atan2" | "hypot" | "powf" => {
                    let r = match *name {
                        "atan2" => x.atan2(y),
                        "hypot" => x.hypot(y),
                        _ => x.powf(y),
                    };
                    let b = bound(name, wide, t).unwrap_or(0) + u64::from(wide);
                    let d = ulps(got, r, wide);
                    max = max.max(d);
                    (d <= b).then_some(()).ok_or(format!(
                        "{name}({x:e}, {y:e}) = {got:e}, reference {r:e}: {d} ulp > {b}"
                    ))
                }
                "ldexp" => {
                    // Exact: x · 2^n, rounded once (computed in f64 where that is exact).
                    if exp.unsigned_abs() > 200 {
                        continue;
                    }
                    let r = x * 2f64.powi(exp);
                    let r = if wide { r } else { f64::from(r as f32) };
                    same_bits(got, r, wide)
                        .then_some(())
                        .ok_or(format!("ldexp({x:e}, {exp}) = {got:e}, exactly {r:e}"))
                }
                // pown on OpenCL and pow on CUDA, against the correctly rounded power: within
                // pown's bound (16 ulp). (The simulator's `powi` is Rust's repeated
                // multiplication, checked against Rust's own above: not a bounded function.)
                "powi" if t != Target::Sim => {
                    let n = exp % 64;
                    let r = x.powf(f64::from(n));
                    let r = if wide { r } else { f64::from(r as f32) };
                    let d = ulps(got, r, wide);
                    (d <= 16 + u64::from(wide)).then_some(()).ok_or(format!(
                        "powi({x:e}, {n}) = {got:e}, reference {r:e}: {d} ulp"
                    ))
                }
                "min" | "max" => {
                    // fmin/fmax may order ±0 either way.
                    let r = if wide { rust!(f64) } else { rust!(f32) };
                    (got == r || (got.is_nan() && r.is_nan()))
                        .then_some(())
                        .ok_or(format!("{name}({x:e}, {y:e}) = {got:e}, Rust {r:e}"))
                }
                _ => {
                    let r = if wide { rust!(f64) } else { rust!(f32) };
                    same_bits(got, r, wide).then_some(()).ok_or(format!(
                        "{name}({x:e}, {y:e}) = {got:e}, Rust {r:e} (exact)"
                    ))
                }
            };
            if let Err(m) = check {
                failures.push(m);
            }
        }
        worst.push((*name, max));
    }
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
    worst
}

#[test]
fn binary_functions_meet_their_bounds() {
    common::start(|_| {});
    let rows = math::BINARY.len();
    for wide in [false, true] {
        let (a, b) = pairs_f64(wide);
        let n = a.len();
        let got: Vec<f64> = if wide {
            let out = run_float(
                case_of!(binary_f64, n),
                HostArg::array(&a, &[n]),
                Some(HostArg::array(&b, &[n])),
                rows,
                n,
                HostArg::array(&vec![0f64; rows * n], &[rows, n]),
            );
            out[2].values::<f64>()
        } else {
            let (a32, b32): (Vec<f32>, Vec<f32>) = (
                a.iter().map(|&v| v as f32).collect(),
                b.iter().map(|&v| v as f32).collect(),
            );
            let out = run_float(
                case_of!(binary_f32, n),
                HostArg::array(&a32, &[n]),
                Some(HostArg::array(&b32, &[n])),
                rows,
                n,
                HostArg::array(&vec![0f32; rows * n], &[rows, n]),
            );
            out[2].values::<f32>().into_iter().map(f64::from).collect()
        };
        let worst = check_binary(&a, &b, &got, wide, target());
        eprintln!("binary (f64: {wide}) max ulp on {:?}: {worst:?}", target());
    }
}

#[test]
fn classifications_are_exact() {
    common::start(|_| {});
    let xs = inputs_f64();
    let n = xs.len();
    let out = run_float(
        case_of!(classify_f64, n),
        HostArg::array(&xs, &[n]),
        None,
        3,
        n,
        HostArg::array(&vec![0i32; 3 * n], &[3, n]),
    );
    let got = out[1].values::<i32>();
    assert_eq!(math::CLASSIFY.len(), 3);
    let xs32: Vec<f32> = xs.iter().map(|&v| v as f32).collect();
    let out32 = run_float(
        case_of!(classify_f32, n),
        HostArg::array(&xs32, &[n]),
        None,
        3,
        n,
        HostArg::array(&vec![0i32; 3 * n], &[3, n]),
    );
    let got32 = out32[1].values::<i32>();
    for i in 0..n {
        let (x, y) = (xs[i], xs32[i]);
        assert_eq!(
            [got[i], got[n + i], got[2 * n + i]],
            [x.is_nan(), x.is_infinite(), x.is_finite()].map(i32::from),
            "{x:e}"
        );
        assert_eq!(
            [got32[i], got32[n + i], got32[2 * n + i]],
            [y.is_nan(), y.is_infinite(), y.is_finite()].map(i32::from),
            "{y:e}"
        );
    }
}

/// Integer inputs of every bit pattern class: 0, 1, all ones, the sign bit, alternating bits,
/// and random.
fn int_inputs() -> Vec<u64> {
    let mut v = vec![
        0,
        1,
        2,
        u64::MAX,
        1 << 63,
        1 << 31,
        1 << 15,
        1 << 7,
        0x5555_5555_5555_5555,
        0xaaaa_aaaa_aaaa_aaaa,
        0x0123_4567_89ab_cdef,
        0x8000_0001,
        0xff,
        0x7fff_ffff,
    ];
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..500 {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        v.push(s.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
    v
}

macro_rules! check_ints {
    ($k:ident, $t:ident, $u:ident, $wide:expr, $sad:expr) => {{
        let raw = int_inputs();
        let xs: Vec<$t> = raw.iter().map(|&v| v as $t).collect();
        let ys: Vec<$t> = raw.iter().rev().map(|&v| (v >> 3) as $t).collect();
        let n = xs.len();
        let rows = math::INTRINSICS.len();
        let out = run_float(
            case_of!($k, n),
            HostArg::array(&xs, &[n]),
            Some(HostArg::array(&ys, &[n])),
            rows,
            n,
            HostArg::array(&vec![0u64; rows * n], &[rows, n]),
        );
        let got = out[2].values::<u64>();
        let bits = <$t>::BITS;
        for i in 0..n {
            let (a, b) = (xs[i], ys[i]);
            let k = b as u32;
            let ua = a as $u;
            let mut want = vec![
                u64::from(a.count_ones()),
                u64::from(a.leading_zeros()),
                u64::from(a.trailing_zeros()),
                if ua == 0 {
                    0
                } else {
                    u64::from(ua.trailing_zeros() + 1)
                },
                a.reverse_bits() as $u as u64,
                a.swap_bytes() as $u as u64,
                a.rotate_left(k) as $u as u64,
                a.rotate_right(k) as $u as u64,
            ];
            // mul_hi: the high half of the full product; sad: |a - b| + k, wrapping.
            want.push(if $wide {
                ((i128::from(a) * i128::from(b)) >> bits) as $t as $u as u64
            } else {
                0
            });
            want.push(if $sad {
                let d = (i128::from(a) - i128::from(b)).unsigned_abs() as u32;
                u64::from(d.wrapping_add(k))
            } else {
                0
            });
            want.push(0);
            let row: Vec<u64> = (0..rows).map(|r| got[r * n + i]).collect();
            assert_eq!(row, want, "{} of {a:#x}, {b:#x}", stringify!($t));
        }
    }};
}

#[test]
fn integer_intrinsics_are_cudas_at_every_width() {
    common::start(|_| {});
    check_ints!(intrinsics_u8, u8, u8, false, false);
    check_ints!(intrinsics_i16, i16, u16, false, false);
    check_ints!(intrinsics_i32, i32, u32, true, true);
    check_ints!(intrinsics_u32, u32, u32, true, true);
    check_ints!(intrinsics_i64, i64, u64, true, false);
    check_ints!(intrinsics_u64, u64, u64, true, false);
}

#[test]
fn byte_perm_picks_bytes_by_nibble() {
    common::start(|_| {});
    let raw = int_inputs();
    let x: Vec<u32> = raw.iter().map(|&v| v as u32).collect();
    let y: Vec<u32> = raw.iter().map(|&v| (v >> 32) as u32).collect();
    let s: Vec<u32> = raw.iter().rev().map(|&v| (v >> 7) as u32).collect();
    let n = x.len();
    let case = Case {
        name: "byte_perm",
        function: math::byte_perm().function().clone(),
        abi: &math::byte_perm::ABI,
        opencl: math::byte_perm::opencl_source(),
        cuda: math::byte_perm::cuda_source(),
        grid: [n.div_ceil(256), 1, 1],
        block: [256, 1, 1],
        dynamic_shared_bytes: 0,
        args: vec![
            HostArg::array(&x, &[n]),
            HostArg::array(&y, &[n]),
            HostArg::array(&s, &[n]),
            HostArg::zeros::<u32>(n),
        ],
        agree: Agree::Exact,
    };
    let got = run_backend(&case).unwrap()[3].values::<u32>();
    for i in 0..n {
        let all = (u64::from(y[i]) << 32) | u64::from(x[i]);
        let want = (0..4).fold(0u32, |r, k| {
            let sel = (s[i] >> (4 * k)) & 7;
            r | ((((all >> (8 * sel)) & 0xff) as u32) << (8 * k))
        });
        assert_eq!(
            got[i], want,
            "byte_perm({:#x}, {:#x}, {:#x})",
            x[i], y[i], s[i]
        );
    }
    assert_eq!(
        <u32 as rumba::kernel::math::Bits>::byte_perm(0x4433_2211, 0x8877_6655, 0x0123),
        0x1122_3344
    );
}

/// PoCL runs every math kernel: exact results equal the simulator's bit for bit (the same
/// expectations as above), the others meet the OpenCL C specification's bounds.
#[test]
fn opencl_meets_the_specification_and_agrees_exactly_where_exact() {
    common::start(|_| {});
    if target() != Target::Sim {
        return;
    }
    let Some(mut cl) = opencl_common::cl() else {
        return;
    };
    let xs = inputs_f32();
    let n = xs.len();
    let rows = math::UNARY.len();
    let case = case_of!(unary_f32, n)(vec![
        HostArg::array(&xs, &[n]),
        HostArg::array(&vec![0f32; rows * n], &[rows, n]),
    ]);
    let mut ocl = case.args.clone();
    cl.run(case.opencl, case.abi, case.grid, case.block, 0, &mut ocl)
        .unwrap();
    let got: Vec<f64> = ocl[1].values::<f32>().into_iter().map(f64::from).collect();
    let x64: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    let worst = check_unary(&x64, &got, false, Target::OpenCl);
    eprintln!("f32 max ulp on PoCL: {worst:?}");
    let xs = inputs_f64();
    let n = xs.len();
    let case = case_of!(unary_f64, n)(vec![
        HostArg::array(&xs, &[n]),
        HostArg::array(&vec![0f64; rows * n], &[rows, n]),
    ]);
    let mut ocl = case.args.clone();
    cl.run(case.opencl, case.abi, case.grid, case.block, 0, &mut ocl)
        .unwrap();
    let worst = check_unary(&xs, &ocl[1].values::<f64>(), true, Target::OpenCl);
    eprintln!("f64 max ulp on PoCL: {worst:?}");
    for wide in [false, true] {
        let (a, b) = pairs_f64(wide);
        let n = a.len();
        let brow = math::BINARY.len();
        let got: Vec<f64> = if wide {
            let case = case_of!(binary_f64, n)(vec![
                HostArg::array(&a, &[n]),
                HostArg::array(&b, &[n]),
                HostArg::array(&vec![0f64; brow * n], &[brow, n]),
            ]);
            let mut ocl = case.args.clone();
            cl.run(case.opencl, case.abi, case.grid, case.block, 0, &mut ocl)
                .unwrap();
            ocl[2].values::<f64>()
        } else {
            let (a32, b32): (Vec<f32>, Vec<f32>) = (
                a.iter().map(|&v| v as f32).collect(),
                b.iter().map(|&v| v as f32).collect(),
            );
            let case = case_of!(binary_f32, n)(vec![
                HostArg::array(&a32, &[n]),
                HostArg::array(&b32, &[n]),
                HostArg::array(&vec![0f32; brow * n], &[brow, n]),
            ]);
            let mut ocl = case.args.clone();
            cl.run(case.opencl, case.abi, case.grid, case.block, 0, &mut ocl)
                .unwrap();
            ocl[2].values::<f32>().into_iter().map(f64::from).collect()
        };
        check_binary(&a, &b, &got, wide, Target::OpenCl);
    }
}

/// `#[rumba::kernel(fastmath)]` (Numba's `test_fastmath.py`): the simulator computes exactly as
/// without it; OpenCL (`-cl-fast-relaxed-math`) and CUDA (`--use_fast_math`) stay close to the
/// exact results on ordinary inputs (relative 2⁻¹⁰, the loosest of their fast bounds here;
/// absolute 2⁻¹⁶ for sine and cosine, whose fast bounds are absolute).
#[test]
fn fastmath_is_exact_on_the_simulator_and_close_elsewhere() {
    common::start(|_| {});
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| 0.1 + i as f32 * 0.08).collect();
    let y: Vec<f32> = (0..n).map(|i| 0.5 + (i % 7) as f32 * 0.25).collect();
    let run = |fast: bool| -> Vec<f32> {
        let args = vec![
            HostArg::array(&x, &[n]),
            HostArg::array(&y, &[n]),
            HostArg::array(&vec![0f32; 8 * n], &[8, n]),
        ];
        let case = if fast {
            case_of!(fast_ops, n)(args)
        } else {
            case_of!(exact_ops, n)(args)
        };
        run_backend(&case).unwrap()[2].values::<f32>()
    };
    let (fast, exact) = (run(true), run(false));
    if target() == Target::Sim {
        assert_eq!(
            fast.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            exact.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        return;
    }
    let differ = fast
        .iter()
        .zip(&exact)
        .filter(|(f, e)| f.to_bits() != e.to_bits())
        .count();
    eprintln!(
        "fastmath: {differ} of {} results differ from the exact kernel's",
        fast.len()
    );
    for (i, (f, e)) in fast.iter().zip(&exact).enumerate() {
        if !e.is_finite() {
            continue; // -cl-finite-math-only / ftz: no promise beyond the finite range
        }
        // The fast sine and cosine (rows 2 and 3) have absolute error bounds, which grow with
        // |x| outside [-π, π] (CUDA's __sinf: 2^-21.41 inside it): near a zero of the function
        // a relative bound means nothing (the first H100 runs: sin(37.7), 0.000881 vs 0.000885).
        let tol = if matches!(i / n, 2 | 3) {
            2f32.powi(-16)
        } else {
            e.abs() * 2f32.powi(-10) + 1e-6
        };
        assert!(
            (f - e).abs() <= tol,
            "row {}, x = {}: fast {f} vs {e}",
            i / n,
            x[i % n]
        );
    }
}

/// The reference of complex function `name` at `(a, b)`: the same formulas in `f64` over the
/// host C library.
fn cref(name: &str, a: f64, b: f64) -> (f64, f64) {
    let norm = a.hypot(b);
    match name {
        "exp" => (a.exp() * b.cos(), a.exp() * b.sin()),
        "ln" => (norm.ln(), b.atan2(a)),
        "sqrt" => {
            if a == 0.0 && b == 0.0 {
                return (0.0, b);
            }
            let t = ((a.abs() + norm) * 0.5).sqrt();
            if a >= 0.0 {
                (t, b / (2.0 * t))
            } else {
                (b.abs() / (2.0 * t), t.copysign(b))
            }
        }
        "sin" => (a.sin() * b.cosh(), a.cos() * b.sinh()),
        "cos" => (a.cos() * b.cosh(), -(a.sin() * b.sinh())),
        "tan" => {
            let d = (2.0 * a).cos() + (2.0 * b).cosh();
            ((2.0 * a).sin() / d, (2.0 * b).sinh() / d)
        }
        "sinh" => (a.sinh() * b.cos(), a.cosh() * b.sin()),
        "cosh" => (a.cosh() * b.cos(), a.sinh() * b.sin()),
        "tanh" => {
            let d = (2.0 * a).cosh() + (2.0 * b).cos();
            ((2.0 * a).sinh() / d, (2.0 * b).sin() / d)
        }
        _ => (a, -b),
    }
}

macro_rules! check_cmath {
    ($k:ident, $t:ident, $eps_bound:expr) => {{
        type C = rumba::kernel::Complex<$t>;
        let mut zs: Vec<C> = vec![
            C::new(0.0, 0.0),
            C::new(-0.0, 0.0),
            C::new(1.0, 0.0),
            C::new(0.0, 1.0),
            C::new(-1.0, 0.0),
            C::new(0.0, -1.0),
            C::new(-2.0, -0.0),
            C::new(3.0, 4.0),
            C::new($t::NAN, 0.0),
            C::new($t::INFINITY, 1.0),
            C::new(1.0, $t::NEG_INFINITY),
        ];
        let specials = zs.len();
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..1000 {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let r = s.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let u = |k: u32| ((r >> k) & 0xffff) as f64 / 65536.0 * 8.0 - 4.0;
            zs.push(C::new(u(0) as $t, u(20) as $t));
        }
        let n = zs.len();
        let rows = math::CMATH.len();
        let case = case_of!($k, n)(vec![
            HostArg::array(&zs, &[n]),
            HostArg::array(&vec![C::new(0.0, 0.0); rows * n], &[rows, n]),
            HostArg::array(&vec![0 as $t; 2 * n], &[2, n]),
            HostArg::array(&vec![0i32; 3 * n], &[3, n]),
        ]);
        let out = run_backend(&case).unwrap();
        let (got, parts, flags) = (
            out[1].values::<C>(),
            out[2].values::<$t>(),
            out[3].values::<i32>(),
        );
        let eps = f64::from($t::EPSILON);
        let mut worst = Vec::new();
        for (k, name) in math::CMATH.iter().enumerate() {
            let mut max = 0f64;
            for i in specials..n {
                let (a, b) = (f64::from(zs[i].re), f64::from(zs[i].im));
                let (re, im) = cref(name, a, b);
                // The doubled-angle forms of tan / tanh cancel near their poles (where the
                // denominator is small): the error there is the formula's, on every target.
                let denom = match *name {
                    "tan" => (2.0 * a).cos() + (2.0 * b).cosh(),
                    "tanh" => (2.0 * a).cosh() + (2.0 * b).cos(),
                    _ => 1.0,
                };
                if denom.abs() < 0.1 {
                    continue;
                }
                let g = got[k * n + i];
                // Norm-wise: |got - ref| against |ref| in units of the type's epsilon.
                let err = (f64::from(g.re) - re).hypot(f64::from(g.im) - im);
                let e = err / (re.hypot(im) * eps).max(f64::from($t::MIN_POSITIVE));
                max = max.max(e);
                assert!(
                    e <= $eps_bound,
                    "{name}({a} + {b}i) = {g}, reference {re} + {im}i: {e:.1} eps"
                );
            }
            worst.push((*name, max.ceil() as u64));
        }
        for i in 0..n {
            let z = zs[i];
            let (a, b) = (f64::from(z.re), f64::from(z.im));
            if i >= specials {
                for (row, r) in [a.hypot(b), b.atan2(a)].into_iter().enumerate() {
                    let g = f64::from(parts[row * n + i]);
                    assert!(
                        (g - r).abs() <= 4.0 * eps * r.abs().max(f64::MIN_POSITIVE),
                        "part {row} of {z}: {g} vs {r}"
                    );
                }
            }
            let nan = z.re.is_nan() || z.im.is_nan();
            assert_eq!(
                [flags[i], flags[n + i], flags[2 * n + i]],
                [
                    nan,
                    !nan && (z.re.is_infinite() || z.im.is_infinite()),
                    z.re.is_finite() && z.im.is_finite()
                ]
                .map(i32::from),
                "{z}"
            );
        }
        // The specials: conj is exact; exp(0) = 1, ln(1) = 0, sqrt(-2) = i√2, ln(-1) = iπ.
        let at = |k: &str, i: usize| got[math::CMATH.iter().position(|c| *c == k).unwrap() * n + i];
        assert_eq!(at("conj", 7), C::new(3.0, -4.0));
        assert_eq!(at("exp", 0), C::new(1.0, 0.0));
        assert_eq!(at("ln", 2), C::new(0.0, 0.0));
        assert!((f64::from(at("sqrt", 6).im) + 2f64.sqrt()).abs() < 4.0 * eps);
        assert!((f64::from(at("ln", 4).im) - std::f64::consts::PI).abs() < 4.0 * eps);
        assert_eq!(parts[7], 5.0);
        worst
    }};
}

/// Numba's `test_complex.py` (`cmath`) on the test backend: each function of `Complex<f32>` and
/// `Complex<f64>` within a norm-wise error of the same formulas computed in `f64` (16 ε on the
/// simulator and CUDA, 32 ε on OpenCL, whose real functions have looser bounds; `tan` / `tanh`
/// away from their poles), classifications exact, `norm` / `arg` within 4 ε.
#[test]
fn complex_functions_meet_their_bounds() {
    common::start(|_| {});
    let bound = if target() == Target::OpenCl {
        32.0
    } else {
        16.0
    };
    let w32 = check_cmath!(cmath_c32, f32, bound);
    let w64 = check_cmath!(cmath_c64, f64, bound);
    eprintln!(
        "complex max eps on {:?}: f32 {w32:?}, f64 {w64:?}",
        target()
    );
}

/// Numba's `math.frexp` / `math.modf` (`let (m, e) = x.frexp();`, `let (f, n) = x.modf();`):
/// exact, so bit for bit what C's `frexp` / `modf` give (checked against their definitions).
#[test]
fn frexp_and_modf_are_exact() {
    common::start(|_| {});
    let xs = inputs_f64();
    let n = xs.len();
    let case = case_of!(frexp_modf, n)(vec![
        HostArg::array(&xs, &[n]),
        HostArg::zeros::<f64>(n),
        HostArg::zeros::<i32>(n),
        HostArg::zeros::<f64>(n),
        HostArg::zeros::<f64>(n),
    ]);
    let out = run_backend(&case).unwrap();
    let (m, e, f, i) = (
        out[1].values::<f64>(),
        out[2].values::<i32>(),
        out[3].values::<f64>(),
        out[4].values::<f64>(),
    );
    for k in 0..n {
        let x = xs[k];
        if x.is_nan() {
            assert!(m[k].is_nan() && f[k].is_nan() && i[k].is_nan(), "{x}");
            continue;
        }
        if x == 0.0 || x.is_infinite() {
            assert_eq!((m[k].to_bits(), e[k]), (x.to_bits(), 0), "frexp({x})");
        } else {
            assert!((0.5..1.0).contains(&m[k].abs()), "frexp({x}) = {}", m[k]);
            assert_eq!(libm::ldexp(m[k], e[k]), x, "frexp({x})");
        }
        let int = if x.is_infinite() { x } else { x.trunc() };
        let frac = if x.is_infinite() {
            0.0f64.copysign(x)
        } else {
            x - x.trunc()
        };
        assert_eq!(
            (f[k].to_bits(), i[k].to_bits()),
            (frac.copysign(x).to_bits(), int.to_bits()),
            "modf({x})"
        );
    }
    let x32: Vec<f32> = inputs_f32();
    let n = x32.len();
    let case = case_of!(frexp_modf_f32, n)(vec![
        HostArg::array(&x32, &[n]),
        HostArg::zeros::<f32>(n),
        HostArg::zeros::<i32>(n),
        HostArg::zeros::<f32>(n),
        HostArg::zeros::<f32>(n),
    ]);
    let out = run_backend(&case).unwrap();
    let (m, e) = (out[1].values::<f32>(), out[2].values::<i32>());
    for k in 0..n {
        let x = x32[k];
        if x.is_finite() && x != 0.0 {
            assert_eq!(
                f64::from(m[k]) * 2f64.powi(e[k]),
                f64::from(x),
                "frexp({x})"
            );
        }
    }
}
