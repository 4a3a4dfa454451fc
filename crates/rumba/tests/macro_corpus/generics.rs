//! Generic kernels and device functions: type parameters bounded by rumba's numeric traits,
//! const parameters for tile sizes. Numba compiles one specialisation per argument type; these
//! are the same kernels written once, with the Rust bounds saying which types they take.

use rumba::kernel::prelude::*;

/// BLAS's axpy: `y = a * x + y`, for `f32` and `f64`.
#[kernel]
pub fn axpy<T: Float>(t: &Thread, a: T, x: &Arr<T>, y: &mut Arr<T>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// The hand-written `f32` copy of [`axpy`] (what a generic kernel must match).
#[kernel]
pub fn axpy_f32(t: &Thread, a: f32, x: &Arr<f32>, y: &mut Arr<f32>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// The hand-written `f64` copy of [`axpy`].
#[kernel]
pub fn axpy_f64(t: &Thread, a: f64, x: &Arr<f64>, y: &mut Arr<f64>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// Fills `out` with `v` (any number type).
#[kernel]
pub fn fill<T: Number>(t: &Thread, v: T, out: &mut Arr<T>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = v;
    }
}

/// Numba's `x.astype(T)` inside a kernel: `as` saturates (NaN to 0) for integer targets, and
/// literals and `T::MAX` take the instance's type.
#[kernel]
pub fn convert_to<T: Number>(t: &Thread, x: &Arr<f64>, out: &mut Arr<T>, top: &mut Arr<T>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = x[i] as T;
    }
    if i == 0 {
        top[0] = T::MAX;
        top[1] = T::MIN;
        top[2] = 1 as T + 2 as T;
    }
}

/// The larger of two values, clamped into `[lo, hi]` (a generic device function).
#[device]
pub fn clamp<T: Number>(x: T, lo: T, hi: T) -> T {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// Twice a float, through a generic device function calling another.
#[device]
pub fn twice<T: Float>(x: T) -> T {
    clamp(x + x, T::MIN, T::MAX)
}

/// Clamps every element into `[lo, hi]` and doubles the floats of `f`.
#[kernel]
pub fn clamp_all<T: Number>(t: &Thread, lo: T, hi: T, a: &mut Arr<T>) {
    let i = t.grid1();
    if i < a.len() {
        a[i] = clamp(a[i], lo, hi);
    }
}

/// A concrete kernel calling two instances of one generic device function.
#[kernel]
pub fn clamp_mixed(t: &Thread, a: &mut Arr<i32>, f: &mut Arr<f64>) {
    let i = t.grid1();
    if i < a.len() {
        a[i] = clamp(a[i], -5, 5);
        let c: f64 = clamp(f[i], -1.5, 1.5);
        f[i] = twice(c);
    }
}

/// A block sum over a shared tile of `TPB` elements (a const parameter): one partial sum per
/// block, a tree reduction with barriers.
#[kernel]
pub fn block_sum<T: Number, const TPB: usize>(t: &Thread, x: &Arr<T>, partial: &mut Arr<T>) {
    let s = t.shared_array::<T>(TPB);
    let tid = t.thread_idx().x as usize;
    let i = t.grid1();
    s[tid] = if i < x.len() { x[i] } else { 0 as T };
    t.syncthreads();
    let mut stride = TPB / 2;
    while stride > 0 {
        if tid < stride {
            s[tid] = s[tid] + s[tid + stride];
        }
        t.syncthreads();
        stride /= 2;
    }
    if tid == 0 {
        partial[t.block_idx().x as usize] = s[0];
    }
}

/// Two type parameters: `out[i] = x[i] as U * k`, with the scale as a `U`.
#[kernel]
pub fn scale_into<T: Int, U: Float>(t: &Thread, x: &Arr<T>, k: U, out: &mut Arr<U>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = x[i] as U * k;
    }
}

/// Atomics over a generic type: a histogram of `x` in `bins` (bounded by `AtomicValue`).
#[kernel]
pub fn count_into<T: Number + AtomicValue>(t: &Thread, x: &Arr<u32>, bins: &mut Arr<T>) {
    let i = t.grid1();
    if i < x.len() {
        bins.atomic_add(x[i] as usize % bins.len(), 1 as T);
    }
}
