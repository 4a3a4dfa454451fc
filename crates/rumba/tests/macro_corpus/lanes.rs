//! Kernels whose regions the loop form runs as lane loops (groups of work-items side by side,
//! the loop outside; the golden `corpus_lanes.wil.rs` shows which regions are), for the engine
//! comparison and the C targets.

use rumba::kernel::prelude::*;

/// Three loops over a block-uniform range after a tile of `x` is staged in shared memory. The
/// first two run as lane loops: their work-items' values (`a`, `b`, `odd`, `c`) live across
/// regions, and every read is at an index all work-items compute alike (`s[k % wrap]`,
/// `x[(3k) % span]`), so `wrap` = 0 is a division fault, `m` > `wrap` > 64 an out-of-bounds
/// read of shared memory and `span` > `x.len()` one of `x` — each the same for every
/// work-item. The third reads at an index that depends on the
/// thread and stays per work-item. Work-item `skip` of each block returns first (none when
/// `skip` is at least the block's size), so its block runs the lane loops per work-item. Warp
/// barriers end the regions.
/// `out[3i..3i + 3]`: `a`, `b`, `c` of global work-item `i`.
#[rumba::kernel]
pub fn lane_loops(
    t: &Thread,
    x: &Arr<f32>,
    out: &mut Arr<f32>,
    m: usize,
    wrap: usize,
    span: usize,
    skip: u32,
) {
    let n = (t.block_dim().x * t.block_dim().y) as usize;
    let lin = t.thread_idx().y as usize * t.block_dim().x as usize + t.thread_idx().x as usize;
    let s = t.shared_array::<f32>(64);
    let mut j = lin;
    while j < 64 {
        s[j] = x[j];
        j += n;
    }
    t.syncthreads();
    let mut a = x[64 + lin % 16];
    let mut b = lin as i32 - 7;
    let mut odd = lin % 2 == 1;
    let mut c = 0.0f32;
    if lin as u32 == skip {
        return;
    }
    // Warp barriers end the regions (work-items that returned do not hold them up), so that
    // each loop is its region's only work.
    t.syncwarp(0xffff_ffff);
    let last = m.wrapping_sub(1);
    for k in 0..m {
        let v = s[k % wrap] * 0.5 + x[(k * 3) % span];
        let w = if odd { v } else { -v };
        a = a.mul_add(0.75, w);
        b = b.wrapping_mul(3) + (k as i32) / 3 - (b >> 2);
        odd = (b & 4) != 0 || a < 0.0;
        a = a + (last as f32) * 0.001 + (k as f32).sqrt() / (1.0 + a.abs());
    }
    t.syncwarp(0xffff_ffff);
    let stride = m / 4 + 1;
    for k in (1..=m).step_by(stride) {
        c += x[k % 64] * a - (k as f32).ln_1p() * (b as f32);
    }
    t.syncwarp(0xffff_ffff);
    let rows = stride * 2;
    for k in 0..rows {
        c += s[(k + lin) % 64];
    }
    t.syncwarp(0xffff_ffff);
    let base = t.block_idx().x as usize * n;
    out[3 * (base + lin)] = a;
    out[3 * (base + lin) + 1] = b as f32;
    out[3 * (base + lin) + 2] = c;
}

/// A lane loop's region whose top computes a local the loop does not use, and that divides by
/// zero for work-item `d`, which returns before a later region uses it: the per-work-item form
/// faults at the region's top, so the loop must not run as lanes (which would skip it).
#[rumba::kernel]
pub fn lane_loop_beside_fault(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>, m: usize, d: i32) {
    let lin = t.thread_idx().x as usize;
    let mut a = x[lin % 64];
    t.syncwarp(0xffff_ffff);
    let q = 7 / (lin as i32 - d);
    for k in 0..m {
        a += x[k % 64];
    }
    t.syncwarp(0xffff_ffff);
    if lin as i32 == d {
        return;
    }
    t.syncwarp(0xffff_ffff);
    out[lin] = a + q as f32;
}

/// A local array's length used across a barrier and in a loop over a block-uniform range: each
/// work-item has its own array, so neither is a block-uniform value (the block body has no
/// handle of it), and the loop stays per work-item. `out[i]`: work-item `i`'s sum.
#[rumba::kernel]
pub fn local_lengths(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>, m: usize) {
    let lin = t.thread_idx().x as usize;
    let loc = t.local_array::<f32>(4);
    loc[lin % 4] = 1.5;
    let span = loc.len();
    t.syncthreads();
    let mut a = x[lin % 64] + loc[lin % 4];
    for k in 0..m {
        a += x[k % 64] + (span + loc.len()) as f32;
    }
    out[lin] = a;
}
