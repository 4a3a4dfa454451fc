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
/// Tile edge of `transpose` (its blocks are `TILE`×`TILE` threads).
pub const TILE: usize = 32;
/// Row length of `transpose`'s shared tile: one more than [`TILE`], so that a column of the tile
/// falls in 32 different banks of a GPU's shared memory.
pub const TILE_PAD: usize = 33;
/// Bins of `histogram` (one per byte value; its blocks have this many threads).
pub const BINS: usize = 256;
/// Bytes each block of `histogram` counts.
pub const HIST_CHUNK: usize = 16_384;
/// Threads per block of `scan_blocks` and `scan_add`.
pub const SCAN_THREADS: usize = 256;
/// Consecutive elements each thread of `scan_blocks` scans.
pub const SCAN_PER_THREAD: usize = 4;
/// Elements one block of `scan_blocks` scans (`SCAN_THREADS * SCAN_PER_THREAD`).
pub const SCAN_TILE: usize = 1024;
/// Bodies per shared tile of `nbody` (its blocks have this many threads).
pub const NBODY_TILE: usize = 256;
/// The softening of `nbody`, squared: keeps the force finite between close bodies.
pub const SOFTENING2: f32 = 0.01;
/// Block tile edge of `sgemm`: each 16×16-thread block computes a 64×64 tile of C.
pub const SG_TILE: usize = 64;
/// Depth of the slices of A and B `sgemm` stages through shared memory per step.
pub const SG_DEPTH: usize = 16;
/// Threads along each edge of `sgemm`'s block.
pub const SG_THREADS: usize = 16;
/// Rows and columns of C each thread of `sgemm` computes (`SG_TILE / SG_THREADS`).
pub const SG_WORK: usize = 4;

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

/// `b = aᵀ` through a shared `TILE`×`TILE` tile: a block reads a tile of `a` along its rows
/// (coalesced), and after one barrier writes it transposed along the rows of `b` (coalesced
/// too). Blocks are `TILE`×`TILE` threads; `a` may have any shape.
#[kernel]
pub fn transpose(t: &Thread, a: &Arr<f32>, b: &mut Arr<f32>) {
    let tile = t.shared_array::<f32>((TILE, TILE_PAD));
    let (tx, ty) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
    let bx = t.block_idx().x as usize * TILE;
    let by = t.block_idx().y as usize * TILE;
    let rows = a.shape()[0];
    let cols = a.shape()[1];
    if by + ty < rows && bx + tx < cols {
        tile[(ty, tx)] = a[(by + ty, bx + tx)];
    }
    t.syncthreads();
    if bx + ty < cols && by + tx < rows {
        b[(bx + ty, by + tx)] = tile[(tx, ty)];
    }
}

/// One Jacobi step of the 5-point stencil on a 2-D grid: each interior point becomes the mean
/// of itself and its four neighbours, summed in the order centre, up, down, left, right; the
/// boundary is copied. A 2-D grid of 256×1 blocks, one point per thread.
#[kernel]
pub fn stencil5(t: &Thread, u: &Arr<f32>, v: &mut Arr<f32>) {
    let (x, y) = t.grid2();
    let rows = u.shape()[0];
    let cols = u.shape()[1];
    if y < rows && x < cols {
        if y == 0 || x == 0 || y + 1 == rows || x + 1 == cols {
            v[(y, x)] = u[(y, x)];
        } else {
            let s = u[(y, x)] + u[(y - 1, x)] + u[(y + 1, x)] + u[(y, x - 1)] + u[(y, x + 1)];
            v[(y, x)] = 0.2 * s;
        }
    }
}

/// A 256-bin histogram of bytes: each block counts its `HIST_CHUNK` bytes into a shared
/// histogram with shared-memory atomics, then adds its non-zero bins to the global one with
/// global atomics. Blocks are `BINS` threads; `bins` must start zeroed.
#[kernel]
pub fn histogram(t: &Thread, data: &Arr<u8>, bins: &mut Arr<u32>) {
    let h = t.shared_array::<u32>(BINS);
    let tid = t.thread_idx().x as usize;
    h[tid] = 0;
    t.syncthreads();
    let start = t.block_idx().x as usize * HIST_CHUNK;
    let end = if start + HIST_CHUNK < data.len() {
        start + HIST_CHUNK
    } else {
        data.len()
    };
    let mut i = start + tid;
    while i < end {
        h.atomic_add(data[i] as usize, 1u32);
        i += BINS;
    }
    t.syncthreads();
    if h[tid] != 0 {
        bins.atomic_add(tid, h[tid]);
    }
}

/// The first pass of an exclusive prefix sum (`u32`, wrapping): each block scans its
/// `SCAN_TILE` elements — every thread sums its `SCAN_PER_THREAD` consecutive ones, the block
/// scans those totals in shared memory (Hillis–Steele, two barriers a step), and every thread
/// writes its elements' exclusive prefixes — and leaves its total in `sums`. Blocks are
/// `SCAN_THREADS` threads. Scanning `sums` the same way and adding it back with [`scan_add`]
/// completes the scan.
#[kernel]
pub fn scan_blocks(t: &Thread, x: &Arr<u32>, y: &mut Arr<u32>, sums: &mut Arr<u32>) {
    let s = t.shared_array::<u32>(SCAN_THREADS);
    let tid = t.thread_idx().x as usize;
    let base = t.block_idx().x as usize * SCAN_TILE + tid * SCAN_PER_THREAD;
    let n = x.len();
    let mut total = 0u32;
    for k in 0..SCAN_PER_THREAD {
        if base + k < n {
            total += x[base + k];
        }
    }
    s[tid] = total;
    t.syncthreads();
    let mut d = 1usize;
    while d < SCAN_THREADS {
        let left = if tid >= d { s[tid - d] } else { 0u32 };
        t.syncthreads();
        s[tid] += left;
        t.syncthreads();
        d *= 2;
    }
    let mut run = s[tid] - total;
    for k in 0..SCAN_PER_THREAD {
        if base + k < n {
            let v = x[base + k];
            y[base + k] = run;
            run += v;
        }
    }
    if tid == SCAN_THREADS - 1 {
        sums[t.block_idx().x as usize] = s[tid];
    }
}

/// The last pass of the prefix sum: adds to every element the scanned total of the blocks
/// before its `SCAN_TILE` (`offsets[i / SCAN_TILE]`).
#[kernel]
pub fn scan_add(t: &Thread, y: &mut Arr<u32>, offsets: &Arr<u32>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] += offsets[i / SCAN_TILE];
    }
}

/// One step of an all-pairs n-body simulation with shared tiles. `pos` and `vel` are `(n, 4)`:
/// x, y, z and the mass (positions), or the velocity and 0. Each thread owns one body; the block
/// stages `NBODY_TILE` bodies at a time in shared memory and accumulates the softened
/// gravitational acceleration from each, then the thread advances its body by `dt`
/// (semi-implicit Euler) into `pos_out` / `vel_out`. Blocks are `NBODY_TILE` threads and the
/// grid covers the bodies exactly once (`n` need not be a multiple of the tile: missing bodies
/// have mass 0).
#[kernel]
pub fn nbody(
    t: &Thread,
    pos: &Arr<f32>,
    vel: &Arr<f32>,
    pos_out: &mut Arr<f32>,
    vel_out: &mut Arr<f32>,
    dt: f32,
) {
    let sp = t.shared_array::<f32>((NBODY_TILE, 4));
    let tid = t.thread_idx().x as usize;
    let i = t.grid1();
    let n = pos.shape()[0];
    let mut px = 0.0f32;
    let mut py = 0.0f32;
    let mut pz = 0.0f32;
    if i < n {
        px = pos[(i, 0)];
        py = pos[(i, 1)];
        pz = pos[(i, 2)];
    }
    let mut ax = 0.0f32;
    let mut ay = 0.0f32;
    let mut az = 0.0f32;
    for tile in 0..t.grid_dim().x as usize {
        let j = tile * NBODY_TILE + tid;
        for c in 0..4 {
            sp[(tid, c)] = if j < n { pos[(j, c)] } else { 0.0 };
        }
        t.syncthreads();
        for k in 0..NBODY_TILE {
            let dx = sp[(k, 0)] - px;
            let dy = sp[(k, 1)] - py;
            let dz = sp[(k, 2)] - pz;
            let d2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
            let inv = 1.0f32 / d2.sqrt();
            let f = sp[(k, 3)] * (inv * inv * inv);
            ax += dx * f;
            ay += dy * f;
            az += dz * f;
        }
        t.syncthreads();
    }
    if i < n {
        let vx = vel[(i, 0)] + ax * dt;
        let vy = vel[(i, 1)] + ay * dt;
        let vz = vel[(i, 2)] + az * dt;
        vel_out[(i, 0)] = vx;
        vel_out[(i, 1)] = vy;
        vel_out[(i, 2)] = vz;
        vel_out[(i, 3)] = 0.0;
        pos_out[(i, 0)] = px + vx * dt;
        pos_out[(i, 1)] = py + vy * dt;
        pos_out[(i, 2)] = pz + vz * dt;
        pos_out[(i, 3)] = pos[(i, 3)];
    }
}

/// `C = alpha·A·B + beta·C` for `n×n` matrices, tiled twice: a block of `SG_THREADS`² threads
/// computes a `SG_TILE`² tile of C, staging `SG_DEPTH`-deep slices of A and B in shared memory,
/// and each thread accumulates `SG_WORK`² elements of the tile (rows `ty + 16·r`, columns
/// `tx + 16·c`) in a local array, reusing each value it loads from shared memory `SG_WORK`
/// times.
#[kernel]
pub fn sgemm(t: &Thread, a: &Arr<f32>, b: &Arr<f32>, c: &mut Arr<f32>, alpha: f32, beta: f32) {
    let sa = t.shared_array::<f32>((SG_TILE, SG_DEPTH));
    let sb = t.shared_array::<f32>((SG_DEPTH, SG_TILE));
    let acc = t.local_array::<f32>((SG_WORK, SG_WORK));
    let tx = t.thread_idx().x as usize;
    let ty = t.thread_idx().y as usize;
    let tid = ty * SG_THREADS + tx;
    let row0 = t.block_idx().y as usize * SG_TILE;
    let col0 = t.block_idx().x as usize * SG_TILE;
    let n = c.shape()[0];
    for r in 0..SG_WORK {
        for q in 0..SG_WORK {
            acc[(r, q)] = 0.0;
        }
    }
    let mut k0 = 0usize;
    while k0 < n {
        // 1024 elements of each slice, four per thread.
        for l in 0..SG_WORK {
            let e = tid + l * SG_THREADS * SG_THREADS;
            let (ar, ak) = (e / SG_DEPTH, e % SG_DEPTH);
            sa[(ar, ak)] = if row0 + ar < n && k0 + ak < n {
                a[(row0 + ar, k0 + ak)]
            } else {
                0.0
            };
            let (bk, bc) = (e / SG_TILE, e % SG_TILE);
            sb[(bk, bc)] = if k0 + bk < n && col0 + bc < n {
                b[(k0 + bk, col0 + bc)]
            } else {
                0.0
            };
        }
        t.syncthreads();
        for k in 0..SG_DEPTH {
            for r in 0..SG_WORK {
                let av = sa[(ty + r * SG_THREADS, k)];
                for q in 0..SG_WORK {
                    acc[(r, q)] += av * sb[(k, tx + q * SG_THREADS)];
                }
            }
        }
        t.syncthreads();
        k0 += SG_DEPTH;
    }
    for r in 0..SG_WORK {
        for q in 0..SG_WORK {
            let (i, j) = (row0 + ty + r * SG_THREADS, col0 + tx + q * SG_THREADS);
            if i < n && j < n {
                c[(i, j)] = alpha * acc[(r, q)] + beta * c[(i, j)];
            }
        }
    }
}

/// A kernel that does nothing: what a launch costs by itself.
#[kernel]
pub fn empty(_t: &Thread) {}
