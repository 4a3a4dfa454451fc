//! The kernels of `kernel_f16.rs`: `f16` (`half::f16`) arithmetic, comparisons, conversions,
//! scalar parameters, and `f16` in shared and local arrays (after Numba's `test_intrinsics.py`
//! fp16 cases and its float16 arithmetic / comparison tests).

use rumba::kernel::prelude::*;

/// The binary operators, unary `-`, `min`, `max` and a multiply-add written as two operations
/// (each rounded), one row per operation.
#[kernel]
pub fn f16_arith(t: &Thread, a: &Arr<f16>, b: &Arr<f16>, out: &mut Arr<f16>) {
    let i = t.grid1();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        out[(0, i)] = x + y;
        out[(1, i)] = x - y;
        out[(2, i)] = x * y;
        out[(3, i)] = x / y;
        out[(4, i)] = -x;
        out[(5, i)] = x.max(y);
        out[(6, i)] = x.min(y);
        out[(7, i)] = x * y + x;
        out[(8, i)] = x % y;
        let mut acc = x;
        acc += y;
        acc *= y;
        out[(9, i)] = acc;
    }
}

/// The comparisons and `is_nan`, one row each.
#[kernel]
pub fn f16_compare(t: &Thread, a: &Arr<f16>, b: &Arr<f16>, out: &mut Arr<bool>) {
    let i = t.grid1();
    if i < a.len() {
        let (x, y) = (a[i], b[i]);
        out[(0, i)] = x < y;
        out[(1, i)] = x <= y;
        out[(2, i)] = x > y;
        out[(3, i)] = x >= y;
        out[(4, i)] = x == y;
        out[(5, i)] = x != y;
        out[(6, i)] = x.is_nan();
    }
}

/// Conversions: `f16::from_f32`, `f16::from_f64` (each rounded once, to nearest even) and back.
#[kernel]
pub fn f16_convert(
    t: &Thread,
    x: &Arr<f32>,
    y: &Arr<f64>,
    h32: &mut Arr<f16>,
    h64: &mut Arr<f16>,
    back: &mut Arr<f32>,
    back64: &mut Arr<f64>,
) {
    let i = t.grid1();
    if i < x.len() {
        let h = f16::from_f32(x[i]);
        h32[i] = h;
        h64[i] = f16::from_f64(y[i]);
        back[i] = h.to_f32();
        back64[i] = h64[i].to_f64();
    }
}

/// An `f16` const item named by path (its `#define` is the exact value).
pub const QUARTER: f16 = f16::from_f32_const(0.25);

/// An `f16` scalar parameter and `f16` constants: `out[i] = inp[i] * s + ONE`, then `MAX`,
/// `EPSILON`, `from_f32(0.1)` and `QUARTER` in the last four elements.
#[kernel]
pub fn f16_scalar(t: &Thread, s: f16, inp: &Arr<f16>, out: &mut Arr<f16>) {
    let i = t.grid1();
    let n = inp.len();
    if i < n {
        out[i] = inp[i] * s + f16::ONE;
    }
    if i == 0 {
        out[n] = f16::MAX;
        out[n + 1] = f16::EPSILON;
        out[n + 2] = f16::from_f32(0.1);
        out[n + 3] = QUARTER;
    }
}

/// The sizes of 1-, 2- and 3-D shared `f16` arrays (Numba's shared-array shape cases, in half
/// precision).
#[kernel]
pub fn f16_shared_sizes(t: &Thread, out: &mut Arr<usize>) {
    let a = t.shared_array::<f16>(2);
    let b = t.shared_array::<f16>((2, 3));
    let c = t.shared_array::<f16>((2, 3, 4));
    out[0] = a.size();
    out[1] = b.size();
    out[2] = c.size();
}

/// A shared `f16` array: each thread stores its element, and after a barrier reads its mirror
/// image and adds it to its own (Numba's shared-array reversal, in half precision).
#[kernel]
pub fn f16_shared(t: &Thread, inp: &Arr<f16>, out: &mut Arr<f16>) {
    let tid = t.thread_idx().x as usize;
    let sm = t.shared_array::<f16>(32);
    sm[tid] = inp[tid];
    t.syncthreads();
    out[tid] = sm[31 - tid] + sm[tid];
}

/// A local `f16` array (zeroed like every local array): a running sum of the first four
/// multiples of the input, read back in reverse.
#[kernel]
pub fn f16_local(t: &Thread, inp: &Arr<f16>, out: &mut Arr<f16>) {
    let i = t.grid1();
    if i < inp.len() {
        let l = t.local_array::<f16>(4);
        let x = inp[i];
        for k in 0..4 {
            l[k] += x * f16::from_f32(k as f32);
            if k > 0 {
                l[k] += l[k - 1];
            }
        }
        out[i] = l[3] - l[0];
    }
}
