//! The work-item-loop engine against the coroutine engine (its oracle): the same kernels as
//! per-thread bodies (`run_grid`) and as hand-written block bodies in the shape
//! `#[rumba::kernel]` emits (`run_blocks`), bit for bit — the peer workloads at ragged sizes,
//! 2-D and 3-D blocks, barriers in uniform loops and ifs, early returns, `syncthreads_count/
//! and/or`, atomics — and the same faults: divergent barriers and decisions, and faults inside
//! regions naming the right block and thread. The peer workloads also run end to end as
//! `Kernel`s with both forms on the simulator.

use rumba::Error;
use rumba::driver::HostEngine;
use rumba::kernel::wil::{
    Atomic, BarrierKind, BarrierSite, BlockCtx, BlockShape, Decision, DecisionSite, Dyn, Fixed,
    GlobalIn, OwnOut, Plain, run_blocks, run_blocks_with,
};
use rumba::kernel::{Dim3, ExecOptions, GlobalView, LaunchConfig, ThreadCtx, run_grid};

#[path = "../kernels/examples/peer_workloads_wil.rs"]
mod peer;

mod common;

use common::fault;

fn data(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2_654_435_761) ^ seed) as f32 / u32::MAX as f32 - 0.5)
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

const SERIAL: ExecOptions = ExecOptions {
    fast_path: true,
    parallel: false,
};

// ------------------------------------------------------------------------ peer workloads

fn vadd_both(n: usize, block: u32) {
    let (a, b) = (data(n, 1), data(n, 2));
    let cfg = LaunchConfig::new((n as u32).div_ceil(block).max(1), block);
    let mut want = vec![0.0f32; n];
    {
        let (av, bv) = (GlobalView::from_slice(&a), GlobalView::from_slice(&b));
        let cv = GlobalView::from_slice_mut(&mut want);
        run_grid("vadd", &cfg, |t| peer::vadd_thread(t, &av, &bv, &cv)).unwrap();
    }
    // Plain inputs and own-index plain stores.
    let mut got = vec![0.0f32; n];
    {
        let av = GlobalIn::<f32, 1, Plain>::from_slice(&a, [n]).unwrap();
        let bv = GlobalIn::<f32, 1, Plain>::from_slice(&b, [n]).unwrap();
        let cv = OwnOut::<f32, Plain>::from_slice_mut(&mut got);
        run_blocks::<Dyn, _>("vadd", &cfg, |blk| peer::vadd_block(blk, &av, &bv, &cv)).unwrap();
    }
    assert_eq!(bits(&got), bits(&want), "plain, n = {n}, block = {block}");
    // Atomic everything.
    let mut got = vec![0.0f32; n];
    {
        let (mut a2, mut b2) = (a.clone(), b.clone());
        let av =
            GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut a2)).unwrap();
        let bv =
            GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut b2)).unwrap();
        let ov = GlobalView::from_slice_mut(&mut got);
        let cv = OwnOut::<f32, Atomic>::from_view(&ov).unwrap();
        run_blocks::<Dyn, _>("vadd", &cfg, |blk| peer::vadd_block(blk, &av, &bv, &cv)).unwrap();
    }
    assert_eq!(bits(&got), bits(&want), "atomic, n = {n}, block = {block}");
}

#[test]
fn vadd_matches_the_per_thread_body_at_ragged_sizes() {
    for (n, block) in [
        (1, 256),
        (255, 256),
        (256, 256),
        (1000, 256),
        (65_543, 256),
        (1000, 100),
        (7, 3),
    ] {
        vadd_both(n, block);
    }
}

#[test]
fn vadd_in_a_two_dimensional_grid_takes_the_checked_path_and_matches() {
    // `t.grid1()` ignores the grid's y, so blocks (x, 1) redo blocks (x, 0): the block body must
    // not use its own-index windows (own linear index != grid1 here).
    let n = 1000;
    let (a, b) = (data(n, 8), data(n, 9));
    let cfg = LaunchConfig::new((4, 2), 256);
    let mut want = vec![0.0f32; n];
    {
        let (av, bv) = (GlobalView::from_slice(&a), GlobalView::from_slice(&b));
        let cv = GlobalView::from_slice_mut(&mut want);
        run_grid("vadd", &cfg, |t| peer::vadd_thread(t, &av, &bv, &cv)).unwrap();
    }
    let mut got = vec![0.0f32; n];
    {
        let (mut a2, mut b2) = (a.clone(), b.clone());
        let av =
            GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut a2)).unwrap();
        let bv =
            GlobalIn::<f32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut b2)).unwrap();
        let ov = GlobalView::from_slice_mut(&mut got);
        let cv = OwnOut::<f32, Atomic>::from_view(&ov).unwrap();
        run_blocks::<Fixed<256, 1, 1>, _>("vadd", &cfg, |blk| {
            assert!(av.own_window(blk).is_none() && cv.own_window(blk).is_none());
            peer::vadd_block(blk, &av, &bv, &cv)
        })
        .unwrap();
    }
    assert_eq!(bits(&got), bits(&want));
}

#[test]
fn vadd_fixed_shape_matches_dyn() {
    let n = 10_000;
    let (a, b) = (data(n, 3), data(n, 4));
    let cfg = LaunchConfig::new((n as u32).div_ceil(256), 256);
    let av = GlobalIn::<f32, 1, Plain>::from_slice(&a, [n]).unwrap();
    let bv = GlobalIn::<f32, 1, Plain>::from_slice(&b, [n]).unwrap();
    let (mut x, mut y) = (vec![0.0f32; n], vec![0.0f32; n]);
    {
        let cv = OwnOut::<f32, Plain>::from_slice_mut(&mut x);
        run_blocks::<Fixed<256, 1, 1>, _>("vadd", &cfg, |blk| peer::vadd_block(blk, &av, &bv, &cv))
            .unwrap();
    }
    {
        let cv = OwnOut::<f32, Plain>::from_slice_mut(&mut y);
        run_blocks::<Dyn, _>("vadd", &cfg, |blk| peer::vadd_block(blk, &av, &bv, &cv)).unwrap();
    }
    assert_eq!(bits(&x), bits(&y));
    // A specialised body refuses another shape.
    let other = LaunchConfig::new(1, 128);
    let err = run_blocks::<Fixed<256, 1, 1>, _>("vadd", &other, |_| {}).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidLaunch {
                block: [128, 1, 1],
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("(256, 1, 1)"), "{err}");
}

fn matmul_both<S: BlockShape>(n: usize) {
    let (a, b) = (data(n * n, 5), data(n * n, 6));
    let g = n.div_ceil(peer::TPB).max(1) as u32;
    let cfg = LaunchConfig::new((g, g), (16, 16));
    let mut want = vec![0.0f32; n * n];
    {
        // SAFETY: `a` and `b` are live slices of n*n f32 borrowed for the views' lifetime, and
        // nothing writes them meanwhile (the views are read-only).
        let av = unsafe {
            GlobalView::from_raw_parts(a.as_ptr().cast_mut(), &[n, n], &[4 * n as isize, 4], false)
        }
        .unwrap();
        // SAFETY: as above.
        let bv = unsafe {
            GlobalView::from_raw_parts(b.as_ptr().cast_mut(), &[n, n], &[4 * n as isize, 4], false)
        }
        .unwrap();
        let cv = GlobalView::from_slice_mut_with_shape(&mut want, (n, n)).unwrap();
        run_grid("mm", &cfg, |t| peer::matmul_thread(t, &av, &bv, &cv)).unwrap();
    }
    let mut got = vec![0.0f32; n * n];
    {
        let av = GlobalIn::<f32, 2, Plain>::from_slice(&a, [n, n]).unwrap();
        let bv = GlobalIn::<f32, 2, Plain>::from_slice(&b, [n, n]).unwrap();
        let cv = GlobalView::from_slice_mut_with_shape(&mut got, (n, n)).unwrap();
        run_blocks::<S, _>("mm", &cfg, |blk| peer::matmul_block(blk, &av, &bv, &cv)).unwrap();
    }
    assert_eq!(bits(&got), bits(&want), "n = {n}");
}

#[test]
fn matmul_shared_matches_the_per_thread_body() {
    for n in [1, 15, 16, 17, 50, 64] {
        matmul_both::<Dyn>(n);
        matmul_both::<Fixed<16, 16, 1>>(n);
    }
}

#[test]
fn reduce_shared_matches_the_per_thread_body() {
    for n in [1, 255, 256, 1000, 1 << 16] {
        let x = data(n, 7);
        let blocks = n.div_ceil(256);
        let cfg = LaunchConfig::new(blocks as u32, 256);
        let mut want = vec![0.0f32; blocks];
        {
            let (xv, pv) = (
                GlobalView::from_slice(&x),
                GlobalView::from_slice_mut(&mut want),
            );
            run_grid("red", &cfg, |t| peer::reduce_thread(t, &xv, &pv)).unwrap();
        }
        let mut got = vec![0.0f32; blocks];
        {
            let xv = GlobalIn::<f32, 1, Plain>::from_slice(&x, [n]).unwrap();
            let pv = GlobalView::from_slice_mut(&mut got);
            run_blocks::<Fixed<256, 1, 1>, _>("red", &cfg, |blk| peer::reduce_block(blk, &xv, &pv))
                .unwrap();
        }
        assert_eq!(bits(&got), bits(&want), "n = {n}");
    }
}

// ------------------------------------------------------------- 2-D / 3-D blocks, reductions

const ROT_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const ROT_COUNT: BarrierSite = BarrierSite::new(BarrierKind::Count, file!(), line!(), column!());
const ROT_AND: BarrierSite = BarrierSite::new(BarrierKind::And, file!(), line!(), column!());
const ROT_OR: BarrierSite = BarrierSite::new(BarrierKind::Or, file!(), line!(), column!());

/// Every thread stores its linear id in shared memory, then reads its neighbour's (a barrier in
/// between), and records the three reducing barriers' values.
fn rotate_thread(t: &ThreadCtx<'_>, out: &GlobalView<'_, i32>) {
    let d = t.block_dim();
    let n = d.count() as usize;
    let s = t.shared_array::<i32>(1024);
    let tid = t.thread_idx();
    let w = tid.linear_in(d) as usize;
    let b = t.block_idx().linear_in(t.grid_dim()) as usize;
    s.set(w, (w * 7) as i32);
    t.syncthreads();
    let got = s.get((w + 1) % n);
    let count = t.syncthreads_count(tid.x % 2 == 0);
    let all = t.syncthreads_and(tid.z == 0 || tid.y < 2);
    let any = t.syncthreads_or(tid.x == d.x - 1 && tid.z == d.z - 1);
    let base = (b * n + w) * 4;
    out.set(base, got);
    out.set(base + 1, count);
    out.set(base + 2, all);
    out.set(base + 3, any);
}

fn rotate_block<S: BlockShape>(blk: &BlockCtx<'_, S>, out: &GlobalView<'_, i32>) {
    let out = *out;
    let d = blk.block_dim();
    let n = blk.threads() as usize;
    let s = blk.shared_array::<i32, 1>([1024]);
    let got = blk.context::<i32>();
    let b = blk.block_linear() as usize;
    blk.each(
        #[inline(always)]
        |w, _| s.set(w as usize, (w as usize * 7) as i32),
    );
    if blk.barrier(&ROT_SYNC, 0).is_none() {
        return;
    }
    let mut trues = 0;
    blk.each(
        #[inline(always)]
        |w, tid| {
            got.set(w as usize, s.get((w as usize + 1) % n));
            trues += (tid.x % 2 == 0) as u32;
        },
    );
    let Some(count) = blk.barrier(&ROT_COUNT, trues) else {
        return;
    };
    let mut trues = 0;
    blk.each(
        #[inline(always)]
        |_, tid| trues += (tid.z == 0 || tid.y < 2) as u32,
    );
    let Some(all) = blk.barrier(&ROT_AND, trues) else {
        return;
    };
    let mut trues = 0;
    blk.each(
        #[inline(always)]
        |_, tid| trues += (tid.x == d.x - 1 && tid.z == d.z - 1) as u32,
    );
    let Some(any) = blk.barrier(&ROT_OR, trues) else {
        return;
    };
    blk.each(
        #[inline(always)]
        |w, _| {
            let base = (b * n + w as usize) * 4;
            out.set(base, got.get(w as usize));
            out.set(base + 1, count);
            out.set(base + 2, all);
            out.set(base + 3, any);
        },
    );
}

#[test]
fn two_and_three_dimensional_blocks_with_reducing_barriers_match() {
    for (grid, block) in [
        (Dim3::new(2, 3, 1), Dim3::new(4, 3, 2)),
        (Dim3::new(1, 1, 2), Dim3::new(16, 16, 1)),
        (Dim3::new(3, 1, 1), Dim3::new(1, 5, 7)),
        (Dim3::new(2, 2, 2), Dim3::new(8, 8, 4)),
    ] {
        let cfg = LaunchConfig::new(grid, block);
        let total = (grid.count() * block.count()) as usize * 4;
        let mut want = vec![-1i32; total];
        {
            let v = GlobalView::from_slice_mut(&mut want);
            run_grid("rot", &cfg, |t| rotate_thread(t, &v)).unwrap();
        }
        let mut got = vec![-1i32; total];
        {
            let v = GlobalView::from_slice_mut(&mut got);
            run_blocks::<Dyn, _>("rot", &cfg, |blk| rotate_block(blk, &v)).unwrap();
        }
        assert_eq!(got, want, "grid {grid}, block {block}");
        if block == Dim3::new(16, 16, 1) {
            let mut fixed = vec![-1i32; total];
            let v = GlobalView::from_slice_mut(&mut fixed);
            run_blocks::<Fixed<16, 16, 1>, _>("rot", &cfg, |blk| rotate_block(blk, &v)).unwrap();
            assert_eq!(fixed, want);
        }
    }
}

// ----------------------------------------------- barriers in uniform loops and ifs, decisions

const LOOP_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const IF_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const IF_SYNC2: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const WHILE_COND: DecisionSite =
    DecisionSite::new("the condition of the `while`", file!(), line!(), column!());

/// A shuffle through shared memory: `iters` rounds (a uniform loop) with two barriers each, a
/// uniform `if` with barriers, and a `while` whose bound each thread computes from its index
/// (uniform in value though not by construction: checked at run time). Race-free: every shared
/// element is read and rewritten only across a barrier (a racy kernel may legitimately give
/// different results on the two engines, as on two GPUs).
fn loops_thread(t: &ThreadCtx<'_>, out: &GlobalView<'_, u64>, iters: usize, flag: bool) {
    let n = t.block_dim().x as usize;
    let s = t.shared_array::<u64>(256);
    let i = t.thread_idx().x as usize;
    let mut v = (i as u64 + 1) * 3;
    for k in 0..iters {
        s.set(i, v);
        t.syncthreads();
        v = v.wrapping_mul(31).wrapping_add(s.get((i + k + 1) % n));
        t.syncthreads();
    }
    if flag {
        s.set(i, v);
        t.syncthreads();
        v ^= s.get(n - 1 - i);
        t.syncthreads();
    }
    let mut left = 2 + i / 1024; // 2 for every thread of a block of at most 1024
    while left > 0 {
        s.set(i, v);
        t.syncthreads();
        v = v.wrapping_add(s.get((i + left) % n));
        t.syncthreads();
        left -= 1;
    }
    out.set(t.grid1(), v);
}

fn loops_block<S: BlockShape>(
    blk: &BlockCtx<'_, S>,
    out: &GlobalView<'_, u64>,
    iters: usize,
    flag: bool,
) {
    let out = *out;
    let n = blk.block_dim().x as usize;
    let base = blk.block_idx().x as usize * n;
    let s = blk.shared_array::<u64, 1>([256]);
    let v = blk.context::<u64>();
    let left = blk.context::<usize>();
    blk.each(|w, _| v.set(w as usize, (w as u64 + 1) * 3));
    for k in 0..iters {
        blk.each(|w, _| s.set(w as usize, v.get(w as usize)));
        if blk.barrier(&LOOP_SYNC, 0).is_none() {
            return;
        }
        blk.each(|w, _| {
            let i = w as usize;
            v.set(
                i,
                v.get(i)
                    .wrapping_mul(31)
                    .wrapping_add(s.get((i + k + 1) % n)),
            );
        });
        if blk.barrier(&LOOP_SYNC, 0).is_none() {
            return;
        }
    }
    if flag {
        blk.each(|w, _| s.set(w as usize, v.get(w as usize)));
        if blk.barrier(&IF_SYNC, 0).is_none() {
            return;
        }
        blk.each(|w, _| {
            let i = w as usize;
            v.set(i, v.get(i) ^ s.get(n - 1 - i));
        });
        if blk.barrier(&IF_SYNC2, 0).is_none() {
            return;
        }
    }
    let mut d = Decision::new();
    blk.each(|w, _| {
        let l = 2 + w as usize / 1024;
        left.set(w as usize, l);
        d.see(w, l > 0);
    });
    loop {
        match blk.uniform(d, &WHILE_COND) {
            None => return,
            Some(false) => break,
            Some(true) => {}
        }
        blk.each(|w, _| s.set(w as usize, v.get(w as usize)));
        if blk.barrier(&LOOP_SYNC, 0).is_none() {
            return;
        }
        d = Decision::new();
        blk.each(|w, _| {
            let i = w as usize;
            v.set(i, v.get(i).wrapping_add(s.get((i + left.get(i)) % n)));
        });
        if blk.barrier(&LOOP_SYNC, 0).is_none() {
            return;
        }
        blk.each(|w, _| {
            let l = left.get(w as usize) - 1;
            left.set(w as usize, l);
            d.see(w, l > 0);
        });
    }
    blk.each(|w, _| out.set(base + w as usize, v.get(w as usize)));
}

#[test]
fn barriers_in_uniform_loops_and_ifs_match() {
    for (blocks, threads, iters, flag) in [
        (3, 64, 3, true),
        (2, 256, 0, false),
        (1, 1, 5, true),
        (4, 100, 1, false),
    ] {
        let cfg = LaunchConfig::new(blocks, threads);
        let total = (blocks * threads) as usize;
        let mut want = vec![0u64; total];
        {
            let v = GlobalView::from_slice_mut(&mut want);
            run_grid("loops", &cfg, |t| loops_thread(t, &v, iters, flag)).unwrap();
        }
        let mut got = vec![0u64; total];
        {
            let v = GlobalView::from_slice_mut(&mut got);
            run_blocks::<Dyn, _>("loops", &cfg, |blk| loops_block(blk, &v, iters, flag)).unwrap();
        }
        assert_eq!(
            got, want,
            "{blocks} x {threads}, {iters} iterations, flag {flag}"
        );
    }
}

const DIV_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const DIV_IF: DecisionSite =
    DecisionSite::new("the condition of the `if`", file!(), line!(), column!());
const DIV_FOR: DecisionSite =
    DecisionSite::new("the bound of the `for`", file!(), line!(), column!());

#[test]
fn a_barrier_under_a_thread_dependent_condition_is_a_fault_naming_block_and_thread() {
    let cfg = LaunchConfig::new(3, 32);
    // Per-thread: threads below 5 of block 1 wait at a barrier the others never reach.
    let err = run_grid("div", &cfg, |t| {
        if t.block_idx().x == 1 && t.thread_idx().x < 5 {
            t.syncthreads();
        }
    })
    .unwrap_err();
    let (block, _, msg) = fault(Err(err));
    assert_eq!(block, [1, 0, 0]);
    assert!(msg.starts_with("divergent barrier"), "{msg}");
    // Block body: the decision is gathered in a region and checked before the `if`.
    let err = run_blocks::<Dyn, _>("div", &cfg, |blk| {
        let mut d = Decision::new();
        blk.each(|w, _| d.see(w, blk.block_idx().x == 1 && w < 5));
        match blk.uniform(d, &DIV_IF) {
            None => (),
            Some(true) => {
                let _ = blk.barrier(&DIV_SYNC, 0);
            }
            Some(false) => {}
        }
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([1, 0, 0], [0, 0, 0]));
    assert!(
        msg.starts_with(
            "divergent barrier: the threads of the block disagree on the condition of the `if` at"
        ),
        "{msg}"
    );
    assert!(
        msg.contains("thread (0, 0, 0) has true but thread (5, 0, 0) has false"),
        "{msg}"
    );
}

#[test]
fn a_barrier_in_a_loop_with_a_thread_dependent_bound_is_a_fault() {
    let cfg = LaunchConfig::new(2, (4, 2));
    let err = run_blocks::<Dyn, _>("div_for", &cfg, |blk| {
        let bound = blk.context::<u32>();
        blk.each(|w, tid| bound.set(w as usize, 1 + (tid.y == 1 && tid.x == 2) as u32));
        let mut k = 0u32;
        loop {
            let mut d = Decision::new();
            blk.each(|w, _| d.see(w, k < bound.get(w as usize)));
            match blk.uniform(d, &DIV_FOR) {
                Some(true) => {}
                _ => break,
            }
            if blk.barrier(&DIV_SYNC, 0).is_none() {
                return;
            }
            k += 1;
        }
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([0, 0, 0], [0, 0, 0]));
    assert!(
        msg.contains("thread (0, 0, 0) has false but thread (2, 1, 0) has true"),
        "{msg}"
    );
}

// ------------------------------------------------------------------------- early returns

const RET_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

#[test]
fn early_returns_after_the_last_barrier_match_and_before_one_fault_alike() {
    let n = 300usize;
    let cfg = LaunchConfig::new(2, 256);
    // Return after the last barrier: fine on both engines, same result.
    let mut want = vec![0u32; 512];
    {
        let v = GlobalView::from_slice_mut(&mut want);
        run_grid("ret", &cfg, |t| {
            let s = t.shared_array::<u32>(256);
            let tx = t.thread_idx().x as usize;
            s.set(tx, tx as u32);
            t.syncthreads();
            if t.grid1() >= n {
                return;
            }
            v.set(t.grid1(), s.get(255 - tx) + 1);
        })
        .unwrap();
    }
    let mut got = vec![0u32; 512];
    {
        let v = GlobalView::from_slice_mut(&mut got);
        run_blocks::<Dyn, _>("ret", &cfg, |blk| {
            let s = blk.shared_array::<u32, 1>([256]);
            let base = blk.block_idx().x as usize * 256;
            blk.each(|_, tid| s.set(tid.x as usize, tid.x));
            if blk.barrier(&RET_SYNC, 0).is_none() {
                return;
            }
            blk.each(|w, tid| {
                if base + tid.x as usize >= n {
                    blk.exit(w);
                    return;
                }
                v.set(base + tid.x as usize, s.get(255 - tid.x as usize) + 1);
            });
        })
        .unwrap();
    }
    assert_eq!(got, want);

    // Return before a barrier by some threads of block 1: the same fault on both engines.
    let per_thread = run_grid("ret2", &cfg, |t| {
        if t.grid1() >= n {
            return;
        }
        t.syncthreads();
    });
    let block_body = run_blocks::<Dyn, _>("ret2", &cfg, |blk| {
        let base = blk.block_idx().x as usize * 256;
        blk.each(|w, tid| {
            if base + tid.x as usize >= n {
                blk.exit(w);
            }
        });
        let _ = blk.barrier(&RET_SYNC, 0);
    });
    let (b1, t1, m1) = fault(per_thread);
    let (b2, t2, m2) = fault(block_body);
    assert_eq!((b1, t1), ([1, 0, 0], [0, 0, 0]));
    assert_eq!((b2, t2), (b1, t1));
    let tail = "but thread (44, 0, 0) exited without reaching it (44 of 256 threads arrived)";
    assert!(m1.ends_with(tail), "{m1}");
    assert!(m2.ends_with(tail), "{m2}");

    // Every thread of a block returns: the block is done, the barrier never completes.
    let mut hits = vec![0u32; 2];
    {
        let v = GlobalView::from_slice_mut(&mut hits);
        run_blocks::<Dyn, _>("ret3", &cfg, |blk| {
            blk.each(|w, _| {
                if blk.block_idx().x == 0 {
                    blk.exit(w);
                }
            });
            if blk.barrier(&RET_SYNC, 0).is_none() {
                return;
            }
            blk.each(|w, _| {
                if w == 0 {
                    v.set(blk.block_idx().x as usize, 1);
                }
            });
        })
        .unwrap();
    }
    assert_eq!(hits, [0, 1]);
}

// ------------------------------------------------------------------------------- atomics

const HIST_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

#[test]
fn global_and_shared_atomics_match() {
    let n = 5000usize;
    let x: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 28)
        .collect();
    let cfg = LaunchConfig::new((n as u32).div_ceil(128), 128);
    let mut want = vec![0u32; 16];
    let mut want_max = vec![0i32; cfg.num_blocks() as usize];
    {
        let (xv, hv) = (
            GlobalView::from_slice(&x),
            GlobalView::from_slice_mut(&mut want),
        );
        let mv = GlobalView::from_slice_mut(&mut want_max);
        run_grid("hist", &cfg, |t| {
            let local = t.shared_array::<u32>(16);
            let best = t.shared_array::<i32>(1);
            let i = t.grid1();
            if i < n {
                local.atomic_add(xv.get(i) as usize, 1);
                best.atomic_max(0, (xv.get(i) as i32) * 3 - (i % 7) as i32);
            }
            t.syncthreads();
            let tx = t.thread_idx().x as usize;
            if tx < 16 {
                hv.atomic_add(tx, local.get(tx));
            }
            if tx == 0 {
                mv.set(t.block_idx().x as usize, best.get(0));
            }
        })
        .unwrap();
    }
    let mut got = vec![0u32; 16];
    let mut got_max = vec![0i32; cfg.num_blocks() as usize];
    {
        let xv = GlobalIn::<u32, 1, Plain>::from_slice(&x, [n]).unwrap();
        let (hv, mv) = (
            GlobalView::from_slice_mut(&mut got),
            GlobalView::from_slice_mut(&mut got_max),
        );
        run_blocks::<Dyn, _>("hist", &cfg, |blk| {
            let local = blk.shared_array::<u32, 1>([16]);
            let best = blk.shared_array::<i32, 1>([1]);
            let base = blk.block_idx().x as usize * 128;
            blk.each(|_, tid| {
                let i = base + tid.x as usize;
                if i < n {
                    local.atomic_add(xv.get(i) as usize, 1);
                    best.atomic_max(0, (xv.get(i) as i32) * 3 - (i % 7) as i32);
                }
            });
            if blk.barrier(&HIST_SYNC, 0).is_none() {
                return;
            }
            blk.each(|_, tid| {
                let tx = tid.x as usize;
                if tx < 16 {
                    hv.atomic_add(tx, local.get(tx));
                }
                if tx == 0 {
                    mv.set(blk.block_idx().x as usize, best.get(0));
                }
            });
        })
        .unwrap();
    }
    assert_eq!(got, want);
    assert_eq!(got_max, want_max);
    assert_eq!(got.iter().sum::<u32>(), n as u32);
}

#[test]
fn shared_add_and_sub_return_the_old_value_and_wrap() {
    // Each work-item takes a ticket from a shared counter (the old values are 0..64, each once),
    // a `u32` counted down from 0 wraps, and an `f32` sum is exact for these small values.
    let cfg = LaunchConfig::new(3, 64);
    let mut tickets = vec![u32::MAX; 3 * 64];
    let mut totals = vec![0u32; 3];
    let mut sums = vec![0.0f32; 3];
    {
        let (tv, ov, sv) = (
            GlobalView::from_slice_mut(&mut tickets),
            GlobalView::from_slice_mut(&mut totals),
            GlobalView::from_slice_mut(&mut sums),
        );
        run_blocks::<Dyn, _>("tickets", &cfg, |blk| {
            let counter = blk.shared_array::<u32, 1>([2]);
            let sum = blk.shared_array::<f32, 1>([1]);
            let b = blk.block_idx().x as usize;
            blk.each(|_, tid| {
                let t = tid.x as usize;
                tv.set(b * 64 + t, counter.atomic_add(0, 1));
                assert_eq!(counter.atomic_sub(1, 1), 0u32.wrapping_sub(t as u32));
                sum.atomic_add(0, 0.5);
            });
            if blk.barrier(&HIST_SYNC, 0).is_none() {
                return;
            }
            blk.each(|_, tid| {
                if tid.x == 0 {
                    ov.set(b, counter.get(1));
                    sv.set(b, sum.get(0));
                }
            });
        })
        .unwrap();
    }
    for b in 0..3 {
        let mut mine = tickets[b * 64..(b + 1) * 64].to_vec();
        mine.sort_unstable();
        assert_eq!(mine, (0..64).collect::<Vec<u32>>(), "block {b}");
    }
    assert_eq!(totals, [u32::MAX - 63; 3]);
    assert_eq!(sums, [32.0; 3]);
}

// ------------------------------------------------------------------- faults inside regions

const OOB_SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

#[test]
fn a_fault_inside_a_region_names_the_same_block_and_thread_as_the_coroutine_engine() {
    let mut data = vec![0.0f32; 40];
    let cfg = LaunchConfig::new((2, 2), (8, 4));
    for opts in [ExecOptions::default(), SERIAL] {
        let v = GlobalView::from_slice_mut(&mut data);
        // Thread (5, 1, 0) of block (1, 1, 0) reads past the end, after a barrier.
        let index = |b: Dim3, t: Dim3| {
            if b == Dim3::new(1, 1, 0) && t == Dim3::new(5, 1, 0) {
                40
            } else {
                3
            }
        };
        let per_thread = rumba::kernel::run_grid_with("oob", &cfg, &opts, |t| {
            t.syncthreads();
            let x = v.get(index(t.block_idx(), t.thread_idx()));
            v.set(0, x);
        })
        .unwrap_err();
        let block_body = run_blocks_with::<Dyn, _>("oob", &cfg, &opts, |blk| {
            if blk.barrier(&OOB_SYNC, 0).is_none() {
                return;
            }
            blk.each(|_, tid| {
                let x = v.get(index(blk.block_idx(), tid));
                v.set(0, x);
            });
        })
        .unwrap_err();
        assert_eq!(block_body, per_thread);
        let (block, thread, msg) = fault(Err(block_body));
        assert_eq!((block, thread), ([1, 1, 0], [5, 1, 0]));
        assert!(
            msg.contains("index (40,) is out of bounds for axis 0 with size 40"),
            "{msg}"
        );
    }
    // Plain inputs, shared arrays and explicit faults name the thread too.
    let x = vec![1u32; 10];
    let xv = GlobalIn::<u32, 1, Plain>::from_slice(&x, [10]).unwrap();
    let err = run_blocks::<Fixed<4, 1, 1>, _>("oob2", &LaunchConfig::new(3, 4), |blk| {
        let s = blk.shared_array::<u32, 2>([2, 2]);
        blk.each(|w, tid| {
            let i = blk.block_idx().x as usize * 4 + w as usize;
            s.set((tid.x as usize / 2, tid.x as usize % 2), xv.get(i));
        });
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([2, 0, 0], [2, 0, 0]));
    assert!(
        msg.contains("index (10,) is out of bounds for axis 0 with size 10 of the global array"),
        "{msg}"
    );
    let err = run_blocks::<Dyn, _>("oob3", &LaunchConfig::new(1, 8), |blk| {
        let s = blk.shared_array::<u32, 2>([2, 3]);
        blk.each(|w, _| s.set((w as usize / 3, w as usize % 3), w));
    })
    .unwrap_err();
    let (_, thread, msg) = fault(Err(err));
    assert_eq!(thread, [6, 0, 0]);
    assert!(
        msg.contains("index (2, 0) is out of bounds for axis 0 with size 2 of the shared array"),
        "{msg}"
    );
    let err = run_blocks::<Dyn, _>("explicit", &LaunchConfig::new(2, (3, 3)), |blk| {
        blk.each(|_, tid| {
            if blk.block_idx().x == 1 && tid == Dim3::new(1, 2, 0) {
                blk.fault("bad input");
            }
        });
    })
    .unwrap_err();
    assert_eq!(
        fault(Err(err)),
        ([1, 0, 0], [1, 2, 0], "bad input".to_owned())
    );
    // An ordinary panic in a region is a fault too, and the engine runs normally afterwards.
    let err = run_blocks::<Dyn, _>("panic", &LaunchConfig::new(1, 4), |blk| {
        blk.each(|w, _| assert!(w != 3, "three"));
    })
    .unwrap_err();
    let (_, thread, msg) = fault(Err(err));
    assert_eq!((thread, msg.as_str()), ([3, 0, 0], "panicked: three"));
    vadd_both(100, 32);
}

#[test]
fn own_index_outputs_refuse_other_blocks_elements_and_other_launches() {
    let mut out = vec![0u32; 16];
    let o = OwnOut::<u32, Plain>::from_slice_mut(&mut out);
    let cfg = LaunchConfig::new(2, 8);
    let err = run_blocks::<Dyn, _>("own", &cfg, |blk| {
        let o = o.block(blk);
        blk.each(|w, _| o.set((w as usize + 4) % 16, 1));
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([0, 0, 0], [4, 0, 0]));
    assert!(
        msg.contains("outside this block's own elements 0..8"),
        "{msg}"
    );
    let err = run_blocks::<Dyn, _>("own2", &cfg, |blk| {
        o.block(blk);
    })
    .unwrap_err();
    assert!(fault(Err(err)).2.contains("serves one launch"));
}

#[test]
fn two_d_own_index_outputs_own_their_blocks_rectangle_and_window_only_full_blocks() {
    // 5 rows of 6 columns in 4×2 blocks: block (1, y) covers columns 4..6 only (partial), block
    // (x, 2) row 4 only.
    let mut out = vec![0u32; 5 * 6];
    let o = OwnOut::<u32, Plain, 2>::from_slice_mut_2d(&mut out, [5, 6]).unwrap();
    let cfg = LaunchConfig::new(Dim3::new(2, 3, 1), Dim3::new(4, 2, 1));
    let full = std::sync::Mutex::new(Vec::new());
    run_blocks::<Dyn, _>("own2", &cfg, |blk| {
        let (b, d) = (blk.block_idx(), blk.block_dim());
        let own = |t: Dim3| ((b.y * d.y + t.y) as usize, (b.x * d.x + t.x) as usize);
        if let Some(w) = o.own_window(blk) {
            full.lock().unwrap().push((b.x, b.y));
            blk.each(|_, t| w.set(t, (own(t).0 * 10 + own(t).1) as u32));
        } else {
            let h = o.block(blk);
            blk.each(|_, t| {
                let (y, x) = own(t);
                if y < 5 && x < 6 {
                    h.set((y, x), (y * 10 + x) as u32);
                }
            });
        }
    })
    .unwrap();
    let mut full = full.into_inner().unwrap();
    full.sort_unstable();
    assert_eq!(full, [(0, 0), (0, 1)]);
    let want: Vec<u32> = (0..30).map(|k| ((k / 6) * 10 + k % 6) as u32).collect();
    assert_eq!(out, want);

    // Another block's element (one row down) faults, naming the block's own rectangle.
    let mut out = vec![0u32; 8 * 8];
    let o = OwnOut::<u32, Plain, 2>::from_slice_mut_2d(&mut out, [8, 8]).unwrap();
    let cfg = LaunchConfig::new(Dim3::new(2, 2, 1), Dim3::new(4, 4, 1));
    let err = run_blocks::<Dyn, _>("own2", &cfg, |blk| {
        let h = o.block(blk);
        let (b, d) = (blk.block_idx(), blk.block_dim());
        blk.each(|_, t| {
            let (y, x) = ((b.y * d.y + t.y) as usize, (b.x * d.x + t.x) as usize);
            h.set(((y + 1) % 8, x), 1);
        });
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([0, 0, 0], [0, 3, 0]));
    assert!(
        msg.contains("store to element (4, 0) of an own-index output outside this block's own elements [0..4, 0..4]"),
        "{msg}"
    );
    // A launch with a z extent gives no block a rectangle of its own.
    let mut out = vec![0u32; 2 * 2];
    let o = OwnOut::<u32, Plain, 2>::from_slice_mut_2d(&mut out, [2, 2]).unwrap();
    let err = run_blocks::<Dyn, _>("own2", &LaunchConfig::new(1, Dim3::new(2, 2, 2)), |blk| {
        assert!(o.own_window(blk).is_none());
        let h = o.block(blk);
        blk.each(|_, t| h.set((t.y as usize, t.x as usize), 1));
    });
    let (_, thread, msg) = fault(err);
    assert_eq!(thread, [0, 0, 0]);
    assert!(msg.contains("own elements [0..0, 0..0]"), "{msg}");
    assert_eq!(out, [0; 4]);
}

// ------------------------------------------------------------- Kernels with both forms

#[test]
fn peer_kernels_run_on_work_item_loops_and_match_coroutines() {
    common::start(|_| {});
    if common::test_backend() != rumba::config::BackendChoice::Sim {
        return;
    }
    let stream = rumba::legacy_default_stream().unwrap();
    for n in [1usize, 1000, 70_000] {
        let (a, b) = (data(n, 11), data(n, 12));
        let (da, db) = (rumba::to_device(&a).unwrap(), rumba::to_device(&b).unwrap());
        let mut outs = Vec::new();
        for engine in [HostEngine::WorkItemLoops, HostEngine::Coroutines] {
            let k = peer::vadd_kernel().with_engine(engine);
            let dc = rumba::device_array::<f32, _>(n, rumba::Order::C).unwrap();
            k.configure((n as u32).div_ceil(256), 256)
                .launch((&da, &db, &dc))
                .unwrap();
            stream.synchronize().unwrap();
            assert_eq!(k.last_engine(), Some(engine));
            outs.push(bits(&dc.copy_to_host().unwrap().to_vec()));
        }
        assert_eq!(outs[0], outs[1], "vadd {n}");
    }
    for n in [16usize, 40, 64] {
        let (a, b) = (data(n * n, 13), data(n * n, 14));
        let a = rumba::ndarray::Array2::from_shape_vec((n, n), a).unwrap();
        let b = rumba::ndarray::Array2::from_shape_vec((n, n), b).unwrap();
        let (da, db) = (rumba::to_device(&a).unwrap(), rumba::to_device(&b).unwrap());
        let g = n.div_ceil(16) as u32;
        let mut outs = Vec::new();
        for engine in [HostEngine::WorkItemLoops, HostEngine::Coroutines] {
            let k = peer::matmul_kernel().with_engine(engine);
            let dc = rumba::device_array::<f32, _>((n, n), rumba::Order::C).unwrap();
            k.configure((g, g), (16, 16))
                .launch((&da, &db, &dc))
                .unwrap();
            stream.synchronize().unwrap();
            assert_eq!(k.last_engine(), Some(engine));
            outs.push(bits(
                &dc.copy_to_host()
                    .unwrap()
                    .iter()
                    .copied()
                    .collect::<Vec<_>>(),
            ));
        }
        assert_eq!(outs[0], outs[1], "matmul {n}");
    }
    for n in [300usize, 1 << 15] {
        let x = data(n, 15);
        let dx = rumba::to_device(&x).unwrap();
        let blocks = n.div_ceil(256);
        let mut outs = Vec::new();
        for engine in [HostEngine::WorkItemLoops, HostEngine::Coroutines] {
            let k = peer::reduce_kernel().with_engine(engine);
            assert_eq!(k.engine(), engine);
            let dp = rumba::device_array::<f32, _>(blocks, rumba::Order::C).unwrap();
            k.configure(blocks as u32, 256).launch((&dx, &dp)).unwrap();
            stream.synchronize().unwrap();
            outs.push(bits(&dp.copy_to_host().unwrap().to_vec()));
        }
        assert_eq!(outs[0], outs[1], "reduce {n}");
    }
}

#[test]
fn kernel_faults_on_work_item_loops_name_device_addresses_like_coroutines() {
    common::start(|_| {});
    if common::test_backend() != rumba::config::BackendChoice::Sim {
        return;
    }
    let stream = rumba::legacy_default_stream().unwrap();
    let a = rumba::to_device(&[1.0f32; 300]).unwrap();
    let c = rumba::device_array::<f32, _>(300, rumba::Order::C).unwrap();
    let mut errs = Vec::new();
    for engine in [HostEngine::WorkItemLoops, HostEngine::Coroutines] {
        // `b` is shorter than `c`: thread 200 of the first block reads past its end.
        let b = rumba::to_device(&[2.0f32; 200]).unwrap();
        let k = peer::vadd_kernel().with_engine(engine);
        k.configure(2, 256).launch((&a, &b, &c)).unwrap();
        let err = stream.synchronize().unwrap_err();
        errs.push((err, b.device_ptr()));
    }
    for (err, b_ptr) in &errs {
        let (block, thread, msg) = fault(Err(err.clone()));
        assert_eq!((block, thread), ([0, 0, 0], [200, 0, 0]));
        let expect = format!("of the global array at device address {b_ptr:#x} with shape (200,)");
        assert!(msg.contains(&expect), "{msg}");
    }
}

#[test]
fn block_memory_limits_are_faults_not_aborts() {
    let cfg = LaunchConfig::new(2, 64);
    let err = run_blocks::<Dyn, _>("ctx", &cfg, |blk| {
        let huge = blk.context_array::<f64, 2>([64, 1 << 20]);
        huge.set((0, 0), 1.0);
    })
    .unwrap_err();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([0, 0, 0], [0, 0, 0]));
    assert!(msg.contains("context array of shape (64, 1048576) of f64 does not fit in the 524288 bytes of local memory per thread"), "{msg}");
    let err = run_blocks::<Dyn, _>("loc", &cfg, |blk| {
        let _ok = blk.local_arrays::<u8, 1>([300_000]);
        let _too_much = blk.local_arrays::<u8, 1>([300_000]);
    })
    .unwrap_err();
    assert!(fault(Err(err)).2.contains("(300000 bytes already in use)"));
    let err = run_blocks::<Dyn, _>("shared", &cfg, |blk| {
        let _a = blk.shared_array::<f32, 2>([64, 64]);
        let _b = blk.shared_array::<f32, 2>([64, 64]);
        let _c = blk.shared_array::<f32, 2>([64, 64]);
        let _d = blk.shared_array::<f32, 1>([1]);
    })
    .unwrap_err();
    assert!(
        fault(Err(err))
            .2
            .contains("does not fit: 4 bytes requested, 49152 of the 49152 bytes")
    );
    // The worker's arena is fine afterwards.
    vadd_both(1000, 64);
}
