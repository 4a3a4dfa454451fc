//! `f16` (`half::f16`) kernels on the backend `RUMBA_TEST_BACKEND` names, after Numba's fp16
//! cases (`test_intrinsics.py`: hadd, hsub, hmul, hdiv, hneg, hmax, hmin, hfma, the float16
//! comparisons; shared and local float16 arrays).
//!
//! The rule every target follows: each `f16` operation is computed in `f32` and rounded to the
//! nearest `f16` (ties to even). `f32` holds more than twice `f16`'s precision, so for `+ - * /`
//! this is the correctly rounded `f16` result — what CUDA's `__hadd` / `__hsub` / `__hmul`
//! give, and what OpenCL's `vstore_half` rounding gives. The expectations below compute that rule
//! on the host, independently of the kernels, and compare bits (NaN by being NaN).

#[path = "common/mod.rs"]
mod common;
#[path = "ported_kernels/fp16.rs"]
mod fp16;

use half::f16;
use ndarray::{Array1, Array2};
use rumba::In;

fn start() {
    common::start(|_| {});
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

/// `op` on `f32` values, rounded once to `f16`: the rule.
fn rule(a: f16, b: f16, op: impl Fn(f32, f32) -> f32) -> f16 {
    f16::from_f32(op(a.to_f32(), b.to_f32()))
}

/// `x` rounded once to the nearest `f16`, ties to even: the nearest of the candidates around
/// `f16::from_f32(x as f32)`, compared in `f64`.
fn nearest(x: f64) -> f16 {
    let c = f16::from_f32(x as f32);
    if !c.is_finite() || x == 0.0 {
        return c;
    }
    let mut best = c;
    for d in [-1i32, 1] {
        let n = f16::from_bits((c.to_bits() as i32 + d) as u16);
        let (dn, db) = ((n.to_f64() - x).abs(), (best.to_f64() - x).abs());
        if n.is_finite() && (dn < db || (dn == db && n.to_bits() & 1 == 0)) {
            best = n;
        }
    }
    best
}

fn same(got: f16, want: f16) -> bool {
    (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits()
}

/// Operand pairs: Numba's (3, 4) and (2, 3), values that round, overflow, underflow into
/// subnormals, signed zeros, infinities, NaN, and pseudo-random bit patterns.
fn operands() -> (Vec<f16>, Vec<f16>) {
    let mut a = vec![
        h(3.0),
        h(2.0),
        h(0.1),
        h(1.0 / 3.0),
        f16::MAX,
        h(-2.5),
        h(1.0e-4),
        h(0.0),
        h(-0.0),
        f16::INFINITY,
        f16::NAN,
        h(1.0) + f16::EPSILON,
        h(6.1e-5),
        h(-7.0),
        h(100.0),
    ];
    let mut b = vec![
        h(4.0),
        h(3.0),
        h(0.2),
        h(3.0),
        h(2.0),
        h(0.75),
        h(3.0e-3),
        h(-0.0),
        h(0.0),
        h(1.0),
        h(1.0),
        h(3.0),
        h(0.5),
        h(0.0),
        h(7.0),
    ];
    let mut s = 0x2545_f491_u32;
    while a.len() < 64 {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let x = f16::from_bits((s >> 16) as u16 & 0x7bff);
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let y = f16::from_bits(((s >> 16) as u16 & 0x7bff) | 0x0400);
        a.push(if s & 1 == 0 { x } else { -x });
        b.push(y);
    }
    (a, b)
}

#[test]
fn arithmetic_is_computed_in_f32_and_rounded_once() {
    start();
    let (a, b) = operands();
    let n = a.len();
    let mut out = Array2::from_elem((10, n), f16::ZERO);
    fp16::f16_arith()
        .configure(1, 64)
        .launch((
            In(&Array1::from(a.clone())),
            In(&Array1::from(b.clone())),
            &mut out,
        ))
        .unwrap();
    // Numba's hadd / hsub / hmul / hdiv / hmax / hmin on (3, 4), hfma's 2 * 3 + 4 as two steps.
    assert_eq!(out[(0, 0)], h(7.0));
    assert_eq!(out[(1, 0)], h(-1.0));
    assert_eq!(out[(2, 0)], h(12.0));
    assert_eq!(out[(3, 0)], h(0.75));
    assert_eq!(out[(4, 0)], h(-3.0));
    assert_eq!(out[(5, 0)], h(4.0));
    assert_eq!(out[(6, 0)], h(3.0));
    assert_eq!(out[(7, 1)], h(8.0));
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let mul = rule(x, y, |p, q| p * q);
        let want = [
            rule(x, y, |p, q| p + q),
            rule(x, y, |p, q| p - q),
            mul,
            rule(x, y, |p, q| p / q),
            f16::from_bits(x.to_bits() ^ 0x8000),
            if x.is_nan() || y > x { y } else { x },
            if x.is_nan() || y < x { y } else { x },
            rule(mul, x, |p, q| p + q),
            rule(x, y, |p, q| p % q),
            rule(rule(x, y, |p, q| p + q), y, |p, q| p * q),
        ];
        for (row, w) in want.into_iter().enumerate() {
            assert!(
                same(out[(row, i)], w),
                "row {row}, {x} op {y}: got {} ({:#06x}), want {w} ({:#06x})",
                out[(row, i)],
                out[(row, i)].to_bits(),
                w.to_bits()
            );
        }
    }
    // Rounding happens per operation: 2049 is not an f16, so (2048 + 1) + 1 stays 2048.
    assert_eq!(rule(h(2048.0), h(1.0), |p, q| p + q), h(2048.0));
}

#[test]
fn comparisons_follow_ieee() {
    start();
    let (a, b) = operands();
    let n = a.len();
    let mut out = Array2::from_elem((7, n), false);
    fp16::f16_compare()
        .configure(1, 64)
        .launch((
            In(&Array1::from(a.clone())),
            In(&Array1::from(b.clone())),
            &mut out,
        ))
        .unwrap();
    for i in 0..n {
        let (x, y) = (a[i].to_f32(), b[i].to_f32());
        let want = [x < y, x <= y, x > y, x >= y, x == y, x != y, x.is_nan()];
        for (row, w) in want.into_iter().enumerate() {
            assert_eq!(out[(row, i)], w, "row {row}, {x} vs {y}");
        }
    }
    // -0 == +0, NaN != NaN-free operands.
    assert!(out[(4, 7)] && out[(5, 10)]);
}

#[test]
fn conversions_round_once_to_nearest_even() {
    start();
    let x: Vec<f32> = vec![
        0.1,
        1.0 / 3.0,
        65504.0,
        65520.0, // the overflow threshold: rounds to infinity
        1.0e-8,
        -2.0f32.powi(-24), // the smallest subnormal
        2049.0,            // a tie: to even (2048)
        2051.0,            // a tie: to even (2052)
        f32::NAN,
        f32::NEG_INFINITY,
    ];
    // 1 + 2^-11 + 2^-40 is just above the tie: rounded once from f64 it goes up, while a
    // rounding through f32 (which drops the 2^-40) would make it a tie that goes to even.
    let mut y: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    y[0] = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    y[1] = 1.0 / 3.0;
    let n = x.len();
    let (mut h32, mut h64) = (
        Array1::from_elem(n, f16::ZERO),
        Array1::from_elem(n, f16::ZERO),
    );
    let (mut back, mut back64) = (Array1::from_elem(n, 0f32), Array1::from_elem(n, 0f64));
    fp16::f16_convert()
        .configure(1, 16)
        .launch((
            In(&Array1::from(x.clone())),
            In(&Array1::from(y.clone())),
            &mut h32,
            &mut h64,
            &mut back,
            &mut back64,
        ))
        .unwrap();
    for i in 0..n {
        let w = f16::from_f32(x[i]);
        assert!(same(h32[i], w), "from_f32({}) = {}", x[i], h32[i]);
        assert!(
            same(h64[i], nearest(y[i])),
            "from_f64({}) = {}",
            y[i],
            h64[i]
        );
        assert!(back[i].to_bits() == w.to_f32().to_bits() || (back[i].is_nan() && x[i].is_nan()));
        assert!(back64[i] == h64[i].to_f64() || (back64[i].is_nan() && h64[i].is_nan()));
    }
    assert_eq!(h32[3], f16::INFINITY);
    assert_eq!(h32[6], h(2048.0));
    assert_eq!(h32[7], h(2052.0));
    assert_eq!(h64[0].to_bits(), 0x3c01);
}

#[test]
fn scalar_parameters_and_constants() {
    start();
    let inp = Array1::from_iter((0..8).map(|i| h(i as f32 * 0.5)));
    let mut out = Array1::from_elem(12, f16::ZERO);
    fp16::f16_scalar()
        .configure(1, 8)
        .launch((h(1.5), In(&inp), &mut out))
        .unwrap();
    for i in 0..8 {
        assert_eq!(
            out[i],
            rule(rule(inp[i], h(1.5), |p, q| p * q), f16::ONE, |p, q| p + q)
        );
    }
    assert_eq!(out[8], f16::MAX);
    assert_eq!(out[9], f16::EPSILON);
    assert_eq!(out[10], h(0.1));
    assert_eq!(out[11], h(0.25));
}

#[test]
fn shared_f16_array() {
    start();
    let inp = Array1::from_iter((0..32).map(|i| h(i as f32 / 3.0)));
    let mut out = Array1::from_elem(32, f16::ZERO);
    fp16::f16_shared()
        .configure(1, 32)
        .launch((In(&inp), &mut out))
        .unwrap();
    for i in 0..32 {
        assert_eq!(out[i], inp[31 - i] + inp[i], "element {i}");
    }
}

#[test]
fn local_f16_array() {
    start();
    let inp = Array1::from_iter((0..40).map(|i| h(i as f32 * 0.3 - 5.0)));
    let mut out = Array1::from_elem(40, f16::ZERO);
    fp16::f16_local()
        .configure(2, 32)
        .launch((In(&inp), &mut out))
        .unwrap();
    for i in 0..40 {
        let x = inp[i];
        let mut l = [f16::ZERO; 4];
        for k in 0..4 {
            l[k] += x * h(k as f32);
            if k > 0 {
                let prev = l[k - 1];
                l[k] += prev;
            }
        }
        assert_eq!(out[i], l[3] - l[0], "element {i}");
    }
}
