//! The coroutine engine's warp operations through `run_grid` closures: Numba's warp-op and
//! syncwarp cases (test_warp_ops.py, test_sync.py), independent scheduling with disjoint masks,
//! and the faults where CUDA is undefined.

use rumba::Error;
use rumba::kernel::{
    ExecOptions, FULL_MASK, GlobalView, LaunchConfig, ThreadCtx, run_grid, run_grid_with,
};

const SLOW: ExecOptions = ExecOptions {
    fast_path: false,
    parallel: true,
};

fn run_both(n: u32, body: impl Fn(&ThreadCtx<'_>) + Sync) -> rumba::Result<()> {
    run_grid_with("warp", &LaunchConfig::new(1, n), &SLOW, &body)?;
    run_grid("warp", &LaunchConfig::new(1, n), &body)
}

#[test]
fn coop_syncwarp_sums_0_to_31() {
    let mut res = [0i32; 1];
    let r = GlobalView::from_slice_mut(&mut res);
    run_both(32, |t| {
        let sm = t.shared_array::<i32>(32);
        let i = t.grid1();
        sm.set(i, i as i32);
        t.syncwarp(FULL_MASK);
        for (half, mask) in [(16, 0xffffu32), (8, 0xff), (4, 0xf), (2, 0x3)] {
            if i < half {
                sm.set(i, sm.get(i) + sm.get(i + half));
                t.syncwarp(mask);
            }
        }
        if i == 0 {
            r.set(0, sm.get(0) + sm.get(1));
        }
    })
    .unwrap();
    assert_eq!(res[0], 496);
}

#[test]
fn useless_syncwarp_with_a_mask_beyond_the_block() {
    let mut out = [0i32; 10];
    let o = GlobalView::from_slice_mut(&mut out);
    run_both(10, |t| {
        t.syncwarp(0xffff);
        o.set(t.grid1(), t.grid1() as i32);
    })
    .unwrap();
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn shuffles_votes_and_ballots_of_two_warps() {
    let mut out = vec![0u32; 64 * 6];
    let o = GlobalView::from_slice_mut(&mut out);
    run_both(64, |t| {
        let i = t.grid1();
        let l = t.lane_id();
        o.set(i, t.shfl_sync(FULL_MASK, i as u32, 4));
        o.set(64 + i, t.shfl_up_sync(FULL_MASK, i as u32, 4));
        o.set(128 + i, t.shfl_down_sync(FULL_MASK, i as u32, 4));
        o.set(192 + i, t.shfl_xor_sync(FULL_MASK, i as u32, 16));
        o.set(256 + i, t.ballot_sync(FULL_MASK, l % 3 == 0 || i >= 32));
        o.set(
            320 + i,
            (t.all_sync(FULL_MASK, i >= 32) * 2 + t.any_sync(FULL_MASK, i == 40)) as u32,
        );
    })
    .unwrap();
    for i in 0..64u32 {
        let (l, w) = (i % 32, i - i % 32);
        let at = |k: u32| out[(k * 64 + i) as usize];
        assert_eq!(at(0), w + 4);
        assert_eq!(at(1), if l < 4 { i } else { i - 4 });
        assert_eq!(at(2), if l >= 28 { i } else { i + 4 });
        assert_eq!(at(3), i ^ 16);
        assert_eq!(at(4), if i < 32 { 0x4924_9249 } else { u32::MAX });
        assert_eq!(at(5), if i < 32 { 0 } else { 3 });
    }
}

#[test]
fn shuffles_of_every_type() {
    let mut out = [0f64; 4];
    let o = GlobalView::from_slice_mut(&mut out);
    run_both(32, |t| {
        let i = t.grid1();
        if i == 0 {
            o.set(0, f64::from(t.shfl_sync(FULL_MASK, -1i32, 0)));
        } else {
            t.shfl_sync(FULL_MASK, 0i32, 0);
        }
        let a = t.shfl_sync(FULL_MASK, if i == 0 { 1i64 << 42 } else { 0 }, 0);
        let b = t.shfl_sync(
            FULL_MASK,
            if i == 0 { std::f32::consts::PI } else { 0.0 },
            0,
        );
        let c = t.shfl_sync(
            FULL_MASK,
            if i == 0 { std::f64::consts::PI } else { 0.0 },
            0,
        );
        if i == 31 {
            o.set(1, a as f64);
            o.set(2, f64::from(b));
            o.set(3, c);
        }
    })
    .unwrap();
    assert_eq!(
        out,
        [
            -1.0,
            (1i64 << 42) as f64,
            f64::from(std::f32::consts::PI),
            std::f64::consts::PI
        ]
    );
}

#[test]
fn independent_scheduling_with_disjoint_masks() {
    let mut out = [0u32; 32];
    let o = GlobalView::from_slice_mut(&mut out);
    run_both(32, |t| {
        let i = t.thread_idx().x;
        let ballot = match i % 4 {
            0 => t.ballot_sync(0x1111_1111, true),
            1 => t.ballot_sync(0x2222_2222, true),
            2 => t.ballot_sync(0x4444_4444, true),
            _ => t.ballot_sync(0x8888_8888, true),
        };
        o.set(i as usize, ballot);
    })
    .unwrap();
    let want = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
    assert!(out.iter().enumerate().all(|(i, &b)| b == want[i % 4]));
}

#[test]
fn warp_ops_between_block_barriers() {
    let mut out = [0i32; 96];
    let o = GlobalView::from_slice_mut(&mut out);
    run_both(96, |t| {
        let i = t.grid1();
        let s = t.shared_array::<i32>(96);
        s.set(i, i as i32);
        t.syncthreads();
        let mut v = s.get(95 - i);
        let mut d = 16;
        while d > 0 {
            v += t.shfl_down_sync(FULL_MASK, v, d);
            d /= 2;
        }
        let n = t.syncthreads_count(v > 0);
        o.set(i, if t.lane_id() == 0 { v } else { n });
    })
    .unwrap();
    // Warp w holds 95-i for i in its lanes; lane 0's tree sum is the warp's total.
    assert_eq!(out[0], (64..96).sum::<i32>());
    assert_eq!(out[32], (32..64).sum::<i32>());
    assert_eq!(out[64], (0..32).sum::<i32>());
    assert!(out.iter().enumerate().all(|(i, &v)| i % 32 == 0 || v > 0));
}

fn fault_of(r: rumba::Result<()>) -> ([u32; 3], String) {
    match r {
        Err(Error::KernelFault {
            thread,
            message,
            kernel,
            ..
        }) => {
            assert_eq!(kernel, "warp");
            (thread, message)
        }
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}

#[test]
fn undefined_uses_are_faults_naming_the_thread() {
    let cfg = LaunchConfig::new(1, 32);
    // Not in its own mask.
    let (th, m) = fault_of(run_grid_with("warp", &cfg, &SLOW, |t| {
        t.ballot_sync(0x0000_ffff, true);
    }));
    assert_eq!(th, [16, 0, 0]);
    assert!(m.contains("not in its own mask"), "{m}");
    // Reads an exited lane.
    let (th, m) = fault_of(run_grid_with("warp", &cfg, &SLOW, |t| {
        if t.lane_id() != 3 {
            t.shfl_sync(FULL_MASK, 1u32, 3);
        }
    }));
    assert_eq!(th, [0, 0, 0]);
    assert!(m.contains("reads lane 3, which has exited"), "{m}");
    // A named lane waits at a block barrier instead.
    let (_, m) = fault_of(run_grid_with("warp", &cfg, &SLOW, |t| {
        if t.lane_id() == 7 {
            t.syncthreads();
        } else {
            t.syncwarp(FULL_MASK);
        }
    }));
    assert!(
        m.contains("divergent warp operation") && m.contains("block barrier"),
        "{m}"
    );
    // A shuffle beyond the block's threads.
    let (th, m) = fault_of(run_grid_with(
        "warp",
        &LaunchConfig::new(1, 10),
        &SLOW,
        |t| {
            t.shfl_down_sync(FULL_MASK, 1i32, 4);
        },
    ));
    assert_eq!(th, [6, 0, 0]);
    assert!(m.contains("does not exist"), "{m}");
}

#[test]
fn the_fast_path_completes_what_it_can_and_names_what_it_cannot() {
    let cfg = LaunchConfig::new(1, 32);
    let mut out = [0u32; 32];
    let o = GlobalView::from_slice_mut(&mut out);
    // Thread 0 exits at once; the last lane's ballot of itself completes.
    run_grid("warp", &cfg, |t| {
        if t.lane_id() == 31 {
            o.set(31, t.ballot_sync(0x8000_0001, true));
        }
    })
    .unwrap();
    assert_eq!(out[31], 0x8000_0000);
    let (th, m) = fault_of(run_grid("warp", &cfg, |t| {
        if t.lane_id() > 0 {
            t.syncwarp(0xffff_fffe);
        }
    }));
    assert_eq!(th, [1, 0, 0]);
    assert!(m.contains("fast_path: false"), "{m}");
    run_grid_with("warp", &cfg, &SLOW, |t| {
        if t.lane_id() > 0 {
            t.syncwarp(0xffff_fffe);
        }
    })
    .unwrap();
}
