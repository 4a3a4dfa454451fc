//! Numba's warp-level cases (`test_warp_ops.py`, the syncwarp cases of `test_sync.py`) as
//! `#[rumba::kernel]` functions.

use rumba::kernel::prelude::*;

/// test_sync: a `syncwarp` that orders nothing.
#[rumba::kernel]
pub fn useless_syncwarp(t: &Thread, ary: &mut Arr<i32>) {
    let i = t.grid1();
    t.syncwarp(0xffff_ffff);
    ary[i] = i as i32;
}

/// test_sync: a partial mask that names lanes the block does not have.
#[rumba::kernel]
pub fn useless_syncwarp_with_mask(t: &Thread, ary: &mut Arr<i32>) {
    let i = t.grid1();
    t.syncwarp(0xffff);
    ary[i] = i as i32;
}

/// test_sync: a tree sum in shared memory with ever smaller masks (under thread-dependent
/// control, so simulator and CUDA only: the OpenCL emulation needs uniform control).
#[rumba::kernel]
pub fn coop_syncwarp(t: &Thread, res: &mut Arr<i32>) {
    let sm = t.shared_array::<i32>(32);
    let i = t.grid1();
    sm[i] = i as i32;
    t.syncwarp(0xffff_ffff);
    if i < 16 {
        sm[i] = sm[i] + sm[i + 16];
        t.syncwarp(0xffff);
    }
    if i < 8 {
        sm[i] = sm[i] + sm[i + 8];
        t.syncwarp(0xff);
    }
    if i < 4 {
        sm[i] = sm[i] + sm[i + 4];
        t.syncwarp(0xf);
    }
    if i < 2 {
        sm[i] = sm[i] + sm[i + 2];
        t.syncwarp(0x3);
    }
    if i == 0 {
        res[0] = sm[0] + sm[1];
    }
}

/// test_warp_ops: lane 0 writes, everyone reads after a full `syncwarp`.
#[rumba::kernel]
pub fn useful_syncwarp(t: &Thread, ary: &mut Arr<i32>) {
    let i = t.grid1();
    if i == 0 {
        ary[0] = 42;
    }
    t.syncwarp(0xffff_ffff);
    ary[i] = ary[0];
}

/// test_warp_ops: the four shuffles of the thread index (`mode` 0 idx, 1 up, 2 down, 3 xor).
#[rumba::kernel]
pub fn shfl_modes(t: &Thread, ary: &mut Arr<i32>, mode: i32, arg: u32) {
    let i = t.grid1();
    let v = i as i32;
    let r = if mode == 0 {
        t.shfl_sync(0xffff_ffff, v, arg)
    } else if mode == 1 {
        t.shfl_up_sync(0xffff_ffff, v, arg)
    } else if mode == 2 {
        t.shfl_down_sync(0xffff_ffff, v, arg)
    } else {
        t.shfl_xor_sync(0xffff_ffff, v, arg)
    };
    ary[i] = r;
}

/// test_warp_ops: `shfl_sync` of a value of each type from lane 0.
#[rumba::kernel]
pub fn shfl_with_val_i32(t: &Thread, ary: &mut Arr<i32>, into: i32) {
    ary[t.grid1()] = t.shfl_sync(0xffff_ffff, into, 0);
}

/// As [`shfl_with_val_i32`] for `i64`.
#[rumba::kernel]
pub fn shfl_with_val_i64(t: &Thread, ary: &mut Arr<i64>, into: i64) {
    ary[t.grid1()] = t.shfl_sync(0xffff_ffff, into, 0);
}

/// As [`shfl_with_val_i32`] for `f32`.
#[rumba::kernel]
pub fn shfl_with_val_f32(t: &Thread, ary: &mut Arr<f32>, into: f32) {
    ary[t.grid1()] = t.shfl_sync(0xffff_ffff, into, 0);
}

/// As [`shfl_with_val_i32`] for `f64`.
#[rumba::kernel]
pub fn shfl_with_val_f64(t: &Thread, ary: &mut Arr<f64>, into: f64) {
    ary[t.grid1()] = t.shfl_sync(0xffff_ffff, into, 0);
}

/// test_warp_ops: `all_sync`, `any_sync` and `ballot_sync` of `ary_in[i]`, and `activemask`.
#[rumba::kernel]
pub fn votes(
    t: &Thread,
    ary_in: &Arr<i32>,
    all: &mut Arr<i32>,
    any: &mut Arr<i32>,
    ballot: &mut Arr<u32>,
    active: &mut Arr<u32>,
) {
    let i = t.grid1();
    let p = ary_in[i];
    all[i] = t.all_sync(0xffff_ffff, p);
    any[i] = t.any_sync(0xffff_ffff, p);
    ballot[i] = t.ballot_sync(0xffff_ffff, p != 0);
    active[i] = t.activemask();
}

/// ROC's spelling: `wavebarrier()`.
#[rumba::kernel]
pub fn wavebarrier_rotate(t: &Thread, out: &mut Arr<i32>) {
    let s = t.shared_array::<i32>(64);
    let i = t.thread_idx().x as usize;
    s[i] = i as i32;
    t.wavebarrier();
    let l = t.lane_id() as usize;
    out[i] = s[i - l + (l + 1) % 32];
}

/// ROC's work-group barrier: `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)` (ROC's
/// `test_barrier` reverses through shared memory across the whole block).
#[rumba::kernel]
pub fn roc_barrier_reverse(t: &Thread, out: &mut Arr<i32>) {
    let s = t.shared_array::<i32>(256);
    let i = t.thread_idx().x as usize;
    let n = t.block_dim().x as usize;
    s[i] = i as i32;
    t.barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[i] = s[n - 1 - i];
    t.barrier(CLK_GLOBAL_MEM_FENCE);
    s[i] = 0;
}

/// test_warp_ops: independent scheduling — four disjoint masks under divergent control (sim
/// and CUDA only).
#[rumba::kernel]
pub fn independent_scheduling(t: &Thread, arr: &mut Arr<u32>) {
    let i = t.thread_idx().x as usize;
    if i % 4 == 0 {
        arr[i] = t.ballot_sync(0x1111_1111, true);
    } else if i % 4 == 1 {
        arr[i] = t.ballot_sync(0x2222_2222, true);
    } else if i % 4 == 2 {
        arr[i] = t.ballot_sync(0x4444_4444, true);
    } else {
        arr[i] = t.ballot_sync(0x8888_8888, true);
    }
}

/// A warp-shuffle reduction per warp between block barriers.
#[rumba::kernel]
pub fn warp_reduce(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    let mut v = x[i];
    let mut d = 16u32;
    while d > 0 {
        v += t.shfl_down_sync(0xffff_ffff, v, d);
        d /= 2;
    }
    t.syncthreads();
    if t.lane_id() == 0 {
        out[i / 32] = v;
    }
}
