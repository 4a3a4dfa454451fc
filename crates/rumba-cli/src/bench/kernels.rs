//! The peer workloads' kernels (`scripts/peers/workloads.md`), written once with
//! `#[rumba::kernel]`: the simulator runs their generated block bodies (work-item loops) or, asked
//! to, their per-thread bodies (coroutines); the CUDA and OpenCL backends run their generated C.
//!
//! This file is the only source of these kernels. `rumba bench` and `rumba demo` run them, and
//! rumba's kernel corpus (`crates/rumba/tests/macro_corpus`) includes this very file, so the
//! checks there — NVRTC compiles every generated CUDA source, PoCL builds every OpenCL source and
//! runs the workloads bit-exact against the simulator, the golden files of the lowering — are
//! checks of the kernels that ship.
//!
//! This module defines kernels only; it touches nothing until one is launched.

use rumba::kernel::prelude::*;

/// Tile edge of `matmul_shared`.
pub const TPB: usize = 16;

/// `c[i] = a[i] + b[i]`.
#[kernel]
pub fn vadd(t: &Thread, a: &Arr<f32>, b: &Arr<f32>, c: &mut Arr<f32>) {
    let i = t.grid1();
    if i < c.len() {
        c[i] = a[i] + b[i];
    }
}

/// C = A·B through two 16×16 shared tiles, two barriers per tile.
#[kernel]
pub fn matmul_shared(t: &Thread, a: &Arr<f32>, b: &Arr<f32>, c: &mut Arr<f32>) {
    let sa = t.shared_array::<f32>((TPB, TPB));
    let sb = t.shared_array::<f32>((TPB, TPB));
    let (x, y) = t.grid2();
    let (tx, ty) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
    let n = c.shape()[0];
    let mut acc = 0.0f32;
    for tile in 0..t.grid_dim().x as usize {
        sa[(ty, tx)] = if y < n && tx + tile * TPB < n {
            a[(y, tx + tile * TPB)]
        } else {
            0.0
        };
        sb[(ty, tx)] = if x < n && ty + tile * TPB < n {
            b[(ty + tile * TPB, x)]
        } else {
            0.0
        };
        t.syncthreads();
        for j in 0..TPB {
            acc += sa[(ty, j)] * sb[(j, tx)];
        }
        t.syncthreads();
    }
    if y < n && x < n {
        c[(y, x)] = acc;
    }
}

/// One partial sum per block of 256 through a shared-memory tree.
#[kernel]
pub fn reduce_shared(t: &Thread, x: &Arr<f32>, partial: &mut Arr<f32>) {
    let s = t.shared_array::<f32>(256);
    let tid = t.thread_idx().x as usize;
    let i = t.grid1();
    s[tid] = if i < x.len() { x[i] } else { 0.0 };
    t.syncthreads();
    let mut stride = 128usize;
    while stride > 0 {
        if tid < stride {
            s[tid] += s[tid + stride];
        }
        t.syncthreads();
        stride /= 2;
    }
    if tid == 0 {
        partial[t.block_idx().x as usize] = s[0];
    }
}

/// One partial sum per block of 256 through warp shuffles: each warp sums its 32 values with
/// five `shfl_down_sync`, lane 0 of each warp leaves its sum in shared memory, and after one
/// barrier thread 0 adds the block's eight. Every warp operation runs under block-uniform
/// control with the full mask, so the simulator runs it as work-item loops and OpenCL devices
/// without subgroups can emulate it.
#[kernel]
pub fn reduce_warp(t: &Thread, x: &Arr<f32>, partial: &mut Arr<f32>) {
    let s = t.shared_array::<f32>(32);
    let tid = t.thread_idx().x as usize;
    let i = t.grid1();
    let mut v = if i < x.len() { x[i] } else { 0.0 };
    let mut d = 16u32;
    while d > 0 {
        v += t.shfl_down_sync(0xffff_ffff, v, d);
        d >>= 1;
    }
    if t.lane_id() == 0 {
        s[tid / 32] = v;
    }
    t.syncthreads();
    if tid == 0 {
        let mut sum = 0.0f32;
        for w in 0..t.block_dim().x as usize / 32 {
            sum += s[w];
        }
        partial[t.block_idx().x as usize] = sum;
    }
}

/// A kernel that does nothing: what a launch costs by itself.
#[kernel]
pub fn empty(_t: &Thread) {}
