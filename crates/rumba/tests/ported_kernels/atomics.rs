//! The kernels of `kernel_atomics.rs`: Numba's `test_atomics.py` cases for `atomic.max`,
//! `atomic.min`, `atomic.nanmax` and `atomic.nanmin` (NaN location, NaN value, the old value
//! returned, integer and float element types, global and shared memory).

use rumba::kernel::prelude::*;

/// Which extreme operation a kernel applies (a `u32` selector: the kernel language has no
/// generics and no `match`).
pub const MAX: u32 = 0;
/// `atomic_min`.
pub const MIN: u32 = 1;
/// `atomic_nanmax`.
pub const NANMAX: u32 = 2;
/// `atomic_nanmin`.
pub const NANMIN: u32 = 3;

/// Numba's `gen_atomic_extreme_funcs(...).atomic` for the four operations at once: every thread
/// folds `ary[(tx, bx)]` into `res[0]` (max), `res[1]` (min), `res[2]` (nanmax), `res[3]` (nanmin).
macro_rules! extremes {
    ($($name:ident: $t:ident),+ $(,)?) => {$(
        /// The four extreme atomics of one element type over a `(block, grid)`-shaped array.
        #[kernel]
        pub fn $name(t: &Thread, res: &mut Arr<$t>, ary: &Arr<$t>) {
            let v = ary[(t.thread_idx().x as usize, t.block_idx().x as usize)];
            res.atomic_max(0, v);
            res.atomic_min(1, v);
            res.atomic_nanmax(2, v);
            res.atomic_nanmin(3, v);
        }
    )+};
}

extremes!(
    extremes_i32: i32,
    extremes_u32: u32,
    extremes_i64: i64,
    extremes_u64: u64,
    extremes_f32: f32,
    extremes_f64: f64,
);

/// Numba's `atomic_*_double_oneindex`-style kernel with a chosen operation on element 0 of a
/// one-element result, reading `ary[tx]` (the NaN location / NaN value cases use one thread).
#[kernel]
pub fn extreme_f64(t: &Thread, res: &mut Arr<f64>, ary: &Arr<f64>, op: u32) {
    let v = ary[t.thread_idx().x as usize];
    if op == MAX {
        res.atomic_max(0, v);
    } else if op == MIN {
        res.atomic_min(0, v);
    } else if op == NANMAX {
        res.atomic_nanmax(0, v);
    } else {
        res.atomic_nanmin(0, v);
    }
}

/// Numba's `test_atomic_*_returns_old*`: `x[1] = atomic_op(x, 0, v)`.
#[kernel]
pub fn returns_old(_t: &Thread, x: &mut Arr<f32>, v: f32, op: u32) {
    let old = if op == MAX {
        x.atomic_max(0, v)
    } else if op == MIN {
        x.atomic_min(0, v)
    } else if op == NANMAX {
        x.atomic_nanmax(0, v)
    } else {
        x.atomic_nanmin(0, v)
    };
    x[1] = old;
}

/// Numba's `atomic_*_double_shared`: the fold happens on a shared one-element array that thread
/// 0 loads from and stores back to `res[0]`.
#[kernel]
pub fn extreme_shared(t: &Thread, res: &mut Arr<f64>, ary: &Arr<f64>, op: u32) {
    let tid = t.thread_idx().x as usize;
    let smary = t.shared_array::<f64>(32);
    smary[tid] = ary[tid];
    let smres = t.shared_array::<f64>(1);
    if tid == 0 {
        smres[0] = res[0];
    }
    t.syncthreads();
    let v = smary[tid];
    if op == MAX {
        smres.atomic_max(0, v);
    } else if op == MIN {
        smres.atomic_min(0, v);
    } else if op == NANMAX {
        smres.atomic_nanmax(0, v);
    } else {
        smres.atomic_nanmin(0, v);
    }
    t.syncthreads();
    if tid == 0 {
        res[0] = smres[0];
    }
}
