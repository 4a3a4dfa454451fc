//! Warp kernels for the engine comparison and the C targets: every shuffle and vote with
//! operands from memory and masks and lane arguments from parameters (block-uniform, so the
//! simulator runs them as work-item loops), warp operations after thread-dependent returns, and
//! kernels that must stay on coroutines (a warp operation under thread-dependent control, a
//! per-thread mask, a loop a thread may leave early).

use rumba::kernel::prelude::*;

/// The four shuffles of `x[i]` and the votes of `p[i]` with a mask and lane argument from
/// parameters: `f[4i..4i+4]` the shuffles, `u[4i..4i+4]` ballot, all, any and activemask.
#[rumba::kernel]
pub fn warp_mix(
    t: &Thread,
    x: &Arr<f32>,
    p: &Arr<i32>,
    mask: u32,
    arg: u32,
    f: &mut Arr<f32>,
    u: &mut Arr<u32>,
) {
    let i = t.grid1();
    let v = x[i];
    let a = t.shfl_sync(mask, v, arg);
    let b = t.shfl_up_sync(mask, v, arg);
    let c = t.shfl_down_sync(mask, v * 2.0, arg);
    let d = t.shfl_xor_sync(mask, v, arg);
    f[4 * i] = a;
    f[4 * i + 1] = b;
    f[4 * i + 2] = c;
    f[4 * i + 3] = d;
    u[4 * i] = t.ballot_sync(mask, p[i]);
    u[4 * i + 1] = t.all_sync(mask, p[i] != 0) as u32;
    u[4 * i + 2] = t.any_sync(mask, p[i] > 1) as u32;
    u[4 * i + 3] = t.activemask();
}

/// Lane `gone` of every warp returns; the others shuffle from lane `src` and vote.
#[rumba::kernel]
pub fn warp_after_return(t: &Thread, out: &mut Arr<i64>, gone: u32, src: u32) {
    let i = t.grid1();
    if t.lane_id() == gone {
        return;
    }
    let v = t.shfl_sync(0xffff_ffff, (i * 3) as i64, src);
    let b = t.ballot_sync(0xffff_ffff, true);
    let m = t.activemask();
    t.syncwarp(0xffff_ffff);
    out[i] = v + ((b as i64) << 32) + m as i64;
}

/// A shuffle reduction whose loop bound comes from a parameter, `u64` values, and a barrier.
#[rumba::kernel]
pub fn warp_sum_u64(t: &Thread, x: &Arr<u64>, levels: u32, out: &mut Arr<u64>) {
    let i = t.grid1();
    let mut v = if i < x.len() { x[i] } else { 0 };
    for k in 0..levels {
        v = v.wrapping_add(t.shfl_xor_sync(0xffff_ffff, v, 1 << k));
    }
    t.syncthreads();
    if i < out.len() {
        out[i] = v;
    }
}

/// Stays on coroutines: the loop may be left early by some threads.
#[rumba::kernel]
pub fn warp_early_break(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    let mut v = x[i];
    for d in 0..5u32 {
        if v > 100.0 {
            break;
        }
        v += t.shfl_xor_sync(0xffff_ffff, v, 1 << d);
    }
    out[i] = v;
}

/// Stays on coroutines: a per-thread mask.
#[rumba::kernel]
pub fn warp_own_mask(t: &Thread, out: &mut Arr<u32>) {
    let i = t.grid1();
    let m = t.activemask();
    out[i] = t.ballot_sync(m, i % 2 == 0);
}

/// Regions whose only work is an `if` on the thread's lane, in every form the loop form narrows
/// to one lane of every warp (`lane_id() == 0`, mirrored, a local holding the lane against a
/// parameter, a cast, the right side of `&&`, a lane that does not exist), in blocks with a
/// partial last warp and 2-d blocks. Each region adds a different power of two. The last one is
/// not narrowed: the left side of its `&&` writes (`hits` counts every work-item).
#[rumba::kernel]
pub fn narrowed_lanes(t: &Thread, out: &mut Arr<i64>, hits: &mut Arr<u32>, k: u32) {
    let n = (t.block_dim().x * t.block_dim().y) as usize;
    let lin = t.thread_idx().y as usize * t.block_dim().x as usize + t.thread_idx().x as usize;
    let lane = t.lane_id();
    let s = t.shared_array::<i64>(96);
    s[lin] = 0;
    t.syncthreads();
    if t.lane_id() == 0 {
        s[lin] += 1;
    }
    t.syncthreads();
    if 3 == t.lane_id() {
        s[lin] += 2;
    }
    t.syncthreads();
    if lane == k {
        s[lin] += 4;
    }
    t.syncthreads();
    if t.lane_id() as usize == 31 {
        s[lin] += 8;
    }
    t.syncthreads();
    if lin % 3 == 1 && lane == 7 {
        s[lin] += 16;
    }
    t.syncthreads();
    if lane == k + 32 {
        s[lin] += 32;
    }
    t.syncthreads();
    if hits.atomic_add(0, 1) < 1_000_000 && lane == 2 {
        s[lin] += 64;
    }
    t.syncthreads();
    out[t.block_idx().x as usize * n + lin] = s[lin];
}
