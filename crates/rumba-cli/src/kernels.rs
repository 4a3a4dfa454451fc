//! The kernels of `rumba selftest` and `rumba demo` (the peer workloads are in
//! [`bench::kernels`](crate::bench::kernels)), written once with `#[rumba::kernel]`: the simulator
//! runs their generated Rust, the CUDA backend their generated CUDA C, the OpenCL backend their
//! generated OpenCL C. Nothing else is a source of them.
//!
//! rumba's kernel corpus (`crates/rumba/tests/macro_corpus`) includes this very file, so NVRTC
//! compiles, and PoCL builds, exactly what the self-test runs.
//!
//! This module defines kernels only; it touches nothing until one is launched.

use rumba::kernel::prelude::*;

/// Each block reverses its slice through dynamic shared memory (one `i32` per thread).
#[kernel]
pub fn st_dyn_reverse(t: &Thread, a: &Arr<i32>, out: &mut Arr<i32>) {
    let buf = t.dynamic_shared::<i32>();
    let (tid, n) = (t.thread_idx().x as usize, t.block_dim().x as usize);
    let i = t.grid1();
    buf[tid] = a[i];
    t.syncthreads();
    out[i] = buf[n - 1 - tid];
}

/// Elements of `st_local`'s private array.
pub const LOCAL_LEN: usize = 16;

/// A private local array per thread, filled, then read back in a thread-dependent order:
/// `out[i] = Σ_k (i + (5k + i mod 16) mod 16) · (k + 1)`.
#[kernel]
pub fn st_local(t: &Thread, out: &mut Arr<f64>) {
    let l = t.local_array::<f64>(LOCAL_LEN);
    let i = t.grid1();
    if i < out.len() {
        for k in 0..LOCAL_LEN {
            l[k] = (i + k) as f64;
        }
        let mut acc = 0.0f64;
        for k in 0..LOCAL_LEN {
            acc += l[(5 * k + i % LOCAL_LEN) % LOCAL_LEN] * (k + 1) as f64;
        }
        out[i] = acc;
    }
}

/// A lookup in a constant table: `out[i] = lut[i mod len] · 2 + i`.
#[kernel]
pub fn st_const(t: &Thread, lut: &ConstArr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = lut[i % lut.len()] * 2.0 + i as f32;
    }
}

/// `syncthreads_count` / `_and` / `_or` of `pred` (non-zero is true), written by every thread.
#[kernel]
pub fn st_barrier_values(
    t: &Thread,
    pred: &Arr<i32>,
    count: &mut Arr<i32>,
    all: &mut Arr<i32>,
    any: &mut Arr<i32>,
) {
    let i = t.grid1();
    let p = pred[i];
    count[i] = t.syncthreads_count(p);
    all[i] = t.syncthreads_and(p != 0);
    any[i] = t.syncthreads_or(p != 0);
}

/// Atomics on global memory from every thread (`u64` add, `i32` max and min, `f32` add, `u32` or
/// and wrapping increment) and a 16-bin histogram in shared memory, added to global memory.
#[kernel]
pub fn st_atomics(
    t: &Thread,
    sum: &mut Arr<u64>,
    minmax: &mut Arr<i32>,
    fsum: &mut Arr<f32>,
    bits: &mut Arr<u32>,
    hist: &mut Arr<u32>,
) {
    // Shared memory starts uninitialised on a GPU: clear the histogram first.
    let h = t.shared_array::<u32>(16);
    let tid = t.thread_idx().x as usize;
    if tid < 16 {
        h[tid] = 0;
    }
    t.syncthreads();
    let i = t.grid1();
    sum.atomic_add(0, i as u64);
    minmax.atomic_max(0, i as i32);
    minmax.atomic_min(1, -(i as i32));
    fsum.atomic_add(0, 0.5f32);
    bits.atomic_or(0, 1u32 << (i % 32) as u32);
    bits.atomic_inc(1, u32::MAX);
    h.atomic_add(i % 16, 1u32);
    t.syncthreads();
    if tid < 16 {
        hist.atomic_add(tid, h[tid]);
    }
}

/// The maximum of `values` into `res[0]` through a compare-and-swap loop.
#[kernel]
pub fn st_cas_max(t: &Thread, res: &mut Arr<i32>, values: &Arr<i32>) {
    let v = values[t.grid1()];
    let mut old = res[0];
    while old < v {
        let seen = res.atomic_cas(0, old, v);
        if seen == old {
            break;
        }
        old = seen;
    }
}

/// `b = 2a + 1` over a 2-d grid, through whatever strides the two arrays have.
#[kernel]
pub fn st_strided(t: &Thread, a: &Arr<f32>, b: &mut Arr<f32>) {
    let (x, y) = t.grid2();
    if y < b.shape()[0] && x < b.shape()[1] {
        b[(y, x)] = 2.0 * a[(y, x)] + 1.0;
    }
}

/// Writes 1 at every thread's global index, with no bounds test of its own: launched with more
/// threads than `a` has elements, the generated bounds check skips the stores past the end and
/// reports the first as a fault (the self-test's and the demo's out-of-bounds kernel).
#[kernel]
pub fn oob(t: &Thread, a: &mut Arr<i32>) {
    a[t.grid1()] = 1;
}
