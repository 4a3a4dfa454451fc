//! Numba's NaN rules for the extreme atomics, ported from `test_atomics.py`: `atomic_max` /
//! `atomic_min` keep a NaN already stored and ignore a NaN operand (the `*_nan_location` and
//! `*_nan_val` cases), `atomic_nanmax` / `atomic_nanmin` treat NaN as missing data, all four
//! return the old value (`*_returns_old*`), on integer and float element types, in global and in
//! shared memory.
//!
//! The kernels are `#[rumba::kernel]` functions (`ported_kernels::atomics`), so the tests run on
//! the backend `RUMBA_TEST_BACKEND` names and the results must be the same on every one of them
//! (the sim and PoCL in CI).

#[path = "common/mod.rs"]
mod common;
#[path = "ported_kernels/mod.rs"]
mod ported_kernels;

use ndarray::{Array1, Array2};
use rumba::In;

use ported_kernels::atomics::{self as k, MAX, MIN, NANMAX, NANMIN};

fn start() {
    common::start(|_| {});
}

/// Numba's `np.random.randint(lo, hi, ...)`, deterministic: a 32 x 32 array of integers in
/// `lo..hi` (a linear congruential generator).
fn randint(lo: i64, hi: i64, seed: u64) -> Vec<i64> {
    let mut x = seed;
    (0..32 * 32)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + ((x >> 33) % (hi - lo) as u64) as i64
        })
        .collect()
}

macro_rules! int_case {
    ($test:ident, $kernel:ident, $t:ty, $lo:expr) => {
        /// Numba's `test_atomic_{max,min,nanmax,nanmin}_<int>`: 32 x 32 threads fold random
        /// values into `0` (max) and `65535` (min).
        #[test]
        fn $test() {
            start();
            let vals: Vec<$t> = randint($lo, 65535, 7)
                .into_iter()
                .map(|v| v as $t)
                .collect();
            let ary = Array2::from_shape_vec((32, 32), vals.clone()).unwrap();
            let mut res = Array1::<$t>::from(vec![0, 65535, 0, 65535]);
            k::$kernel()
                .configure(32, 32)
                .launch((&mut res, In(&ary)))
                .unwrap();
            let max = vals.iter().copied().fold(0, <$t>::max);
            let min = vals.iter().copied().fold(65535, <$t>::min);
            assert_eq!(res.to_vec(), [max, min, max, min]);
        }
    };
}

int_case!(atomic_extremes_int32, extremes_i32, i32, -65535);
int_case!(atomic_extremes_uint32, extremes_u32, u32, 0);
int_case!(atomic_extremes_int64, extremes_i64, i64, -65535);
int_case!(atomic_extremes_uint64, extremes_u64, u64, 0);

macro_rules! float_case {
    ($test:ident, $kernel:ident, $t:ty) => {
        /// Numba's `check_atomic_{max,min}` and `check_atomic_nan{max,min}` for one float type:
        /// every other row of the values is NaN. A NaN operand changes nothing under all four
        /// operations, so from a number every one of them ends at the extreme of the numbers.
        #[test]
        fn $test() {
            start();
            let mut vals: Vec<$t> = randint(-65535, 65535, 11)
                .into_iter()
                .map(|v| v as $t)
                .collect();
            let plain = Array2::from_shape_vec((32, 32), vals.clone()).unwrap();
            for row in (1..32).step_by(2) {
                vals[row * 32..(row + 1) * 32].fill(<$t>::NAN);
            }
            let with_nans = Array2::from_shape_vec((32, 32), vals.clone()).unwrap();
            let numbers: Vec<$t> = vals.iter().copied().filter(|v| !v.is_nan()).collect();
            for (ary, data) in [
                (&plain, plain.iter().copied().collect::<Vec<_>>()),
                (&with_nans, numbers),
            ] {
                let mut res = Array1::<$t>::from(vec![0.0, 65535.0, 0.0, 65535.0]);
                k::$kernel()
                    .configure(32, 32)
                    .launch((&mut res, In(ary)))
                    .unwrap();
                let max = data.iter().copied().fold(0.0, <$t>::max);
                let min = data.iter().copied().fold(65535.0, <$t>::min);
                assert_eq!(res.to_vec(), [max, min, max, min]);
            }
        }
    };
}

float_case!(atomic_extremes_float32, extremes_f32, f32);
float_case!(atomic_extremes_float64, extremes_f64, f64);

/// Runs `extreme_f64` with one thread on `res = [stored]`, `ary = [operand]`.
fn one(op: u32, stored: f64, operand: f64) -> f64 {
    let mut res = Array1::from(vec![stored]);
    let ary = Array1::from(vec![operand]);
    k::extreme_f64()
        .configure(1, 1)
        .launch((&mut res, In(&ary), op))
        .unwrap();
    res[0]
}

#[test]
fn atomic_min_max_nan_location() {
    // Numba's test_atomic_{min,max}_nan_location: a NaN already stored stays.
    start();
    for op in [MAX, MIN] {
        assert!(one(op, f64::NAN, 97.0).is_nan(), "op {op}");
    }
}

#[test]
fn atomic_min_max_nan_val() {
    // Numba's test_atomic_{min,max}_nan_val: a NaN operand changes nothing.
    start();
    for op in [MAX, MIN] {
        assert_eq!(one(op, 44.0, f64::NAN), 44.0, "op {op}");
    }
}

#[test]
fn atomic_nanmin_nanmax_treat_nan_as_missing() {
    start();
    for op in [NANMAX, NANMIN] {
        assert_eq!(one(op, f64::NAN, 97.0), 97.0, "op {op}");
        assert_eq!(one(op, 44.0, f64::NAN), 44.0, "op {op}");
        assert!(one(op, f64::NAN, f64::NAN).is_nan(), "op {op}");
    }
    assert_eq!(one(NANMAX, 3.0, 5.0), 5.0);
    assert_eq!(one(NANMIN, 3.0, 5.0), 3.0);
}

#[test]
fn atomic_extremes_return_the_old_value() {
    // Numba's test_atomic_{max,min,nanmax,nanmin}_returns_old*: `x[1] = op(x, 0, v)` with
    // (op, x[0] before, v, x[0] after).
    start();
    let nan = f32::NAN;
    let cases = [
        (MAX, 10.0, 1.0, 10.0),
        (MAX, 1.0, 10.0, 10.0),
        (MAX, nan, 1.0, nan),
        (MAX, 10.0, nan, 10.0),
        (MIN, 10.0, 11.0, 10.0),
        (MIN, 11.0, 10.0, 10.0),
        (MIN, nan, 11.0, nan),
        (MIN, 11.0, nan, 11.0),
        (NANMAX, 10.0, 1.0, 10.0),
        (NANMAX, 1.0, 10.0, 10.0),
        (NANMAX, nan, 1.0, 1.0),
        (NANMAX, 10.0, nan, 10.0),
        (NANMIN, 10.0, 11.0, 10.0),
        (NANMIN, 11.0, 10.0, 10.0),
        (NANMIN, nan, 11.0, 11.0),
        (NANMIN, 11.0, nan, 11.0),
    ];
    for (op, before, v, after) in cases {
        let mut x = Array1::from(vec![before, 0.0f32]);
        k::returns_old()
            .configure(1, 1)
            .launch((&mut x, v, op))
            .unwrap();
        let what = format!("op {op} on {before} with {v}");
        assert_eq!(x[0].to_bits(), after.to_bits(), "{what}: stored");
        assert_eq!(x[1].to_bits(), before.to_bits(), "{what}: returned");
    }
}

#[test]
fn atomic_extremes_in_shared_memory() {
    // Numba's test_atomic_{max,min,nanmax,nanmin}_double_shared (the nan variants with every
    // odd value NaN).
    start();
    let vals: Vec<f64> = randint(0, 32, 3)[..32].iter().map(|&v| v as f64).collect();
    let mut with_nans = vals.clone();
    for v in with_nans.iter_mut().skip(1).step_by(2) {
        *v = f64::NAN;
    }
    for data in [vals, with_nans] {
        let numbers: Vec<f64> = data.iter().copied().filter(|v| !v.is_nan()).collect();
        let max = numbers.iter().copied().fold(0.0, f64::max);
        let min = numbers.iter().copied().fold(32.0, f64::min);
        let ary = Array1::from(data);
        for (op, init, want) in [
            (MAX, 0.0, max),
            (MIN, 32.0, min),
            (NANMAX, 0.0, max),
            (NANMIN, 32.0, min),
        ] {
            let mut res = Array1::from(vec![init]);
            k::extreme_shared()
                .configure(1, 32)
                .launch((&mut res, In(&ary), op))
                .unwrap();
            assert_eq!(res[0], want, "op {op}");
        }
        // A NaN stored first stays under max / min and is replaced under nanmax / nanmin.
        for (op, nan_stays) in [(MAX, true), (MIN, true), (NANMAX, false), (NANMIN, false)] {
            let mut res = Array1::from(vec![f64::NAN]);
            k::extreme_shared()
                .configure(1, 32)
                .launch((&mut res, In(&ary), op))
                .unwrap();
            assert_eq!(res[0].is_nan(), nan_stays, "op {op}");
        }
    }
}
