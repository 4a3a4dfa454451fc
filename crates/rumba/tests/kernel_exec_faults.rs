//! Behaviour tests for the kernel executor (docs/design/behaviour.md §5): faults — out-of-bounds
//! accesses, divergent barriers, panics — and what the executor leaves behind after them.
#![allow(unused_imports)]

use std::sync::atomic::{AtomicUsize, Ordering};

use half::f16;
use num_complex::Complex;
use rumba::Error;
use rumba::kernel::{
    Dim3, ExecOptions, GlobalView, LaunchConfig, Slice, ThreadCtx, run_grid, run_grid_with,
};

mod kernel_common;

use kernel_common::*;
// ---------------------------------------------------------------- faults

#[derive(Default)]
struct Census {
    made: AtomicUsize,
    dropped: AtomicUsize,
}
struct Guard<'a>(&'a Census);
impl<'a> Guard<'a> {
    fn new(c: &'a Census) -> Self {
        c.made.fetch_add(1, Ordering::Relaxed);
        Guard(c)
    }
}
impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn out_of_bounds_at_one_by_six_names_thread_and_leaves_nothing_behind() {
    for opts in [ExecOptions::default(), COROUTINES_ONLY] {
        let census = Census::default();
        let mut a = vec![0i32; 3];
        let av = GlobalView::from_slice_mut(&mut a);
        let r = run_grid_with("two_syncs", &LaunchConfig::new(1, 6), &opts, |t| {
            let _g = Guard::new(&census);
            let i = t.thread_idx().x as usize;
            av.set(i, i as i32);
            t.syncthreads();
            t.syncthreads();
        });
        let err = r.unwrap_err();
        assert!(matches!(&err, Error::KernelFault { kernel, .. } if kernel == "two_syncs"));
        let (block, thread, msg) = fault(Err(err));
        assert_eq!((block, thread), ([0, 0, 0], [3, 0, 0]));
        assert!(
            msg.contains("index (3,) is out of bounds for axis 0 with size 3"),
            "{msg}"
        );
        assert!(msg.contains("global array"), "{msg}");
        let made = census.made.load(Ordering::Relaxed);
        assert_eq!(made, 4, "threads 0..=3 started; 4 and 5 never ran");
        assert_eq!(
            census.dropped.load(Ordering::Relaxed),
            made,
            "every started thread was unwound"
        );
    }
    // The pool is healthy: the next launch works.
    let mut a = vec![0i32; 6];
    let av = GlobalView::from_slice_mut(&mut a);
    run_grid("after", &LaunchConfig::new(1, 6), |t| {
        t.syncthreads();
        av.set(t.thread_idx().x as usize, 1);
    })
    .unwrap();
    assert_eq!(a, [1; 6]);
}

#[test]
fn shared_and_local_out_of_bounds_are_reported() {
    let (_, thread, msg) = fault(both_paths(&LaunchConfig::new(1, 4), |t| {
        let s = t.shared_array::<f32>((2, 2));
        let i = t.thread_idx().x as usize;
        s.set((i / 2, i % 2 + (i / 3)), 1.0);
    }));
    assert_eq!(thread, [3, 0, 0]);
    assert!(
        msg.contains("index (1, 2) is out of bounds for axis 1 with size 2 of the shared array"),
        "{msg}"
    );
    let (_, _, msg) = fault(both_paths(&LaunchConfig::new(1, 1), |t| {
        t.local_array::<u8>(4).get(4);
    }));
    assert!(msg.contains("local array"), "{msg}");
}

#[test]
fn divergent_barrier_some_threads_exited() {
    let cfg = LaunchConfig::new(2, 8);
    let (block, thread, msg) = fault(both_paths(&cfg, |t| {
        if t.thread_idx().x < 3 {
            t.syncthreads();
        }
    }));
    assert_eq!((block, thread), ([0, 0, 0], [0, 0, 0]));
    assert!(msg.contains("divergent barrier"), "{msg}");
    assert!(
        msg.contains("thread (3, 0, 0) exited without reaching it (3 of 8 threads arrived)"),
        "{msg}"
    );
}

#[test]
fn divergent_barrier_on_the_fast_path_matches_coroutines() {
    // Thread 0 exits at once (fast path taken); later threads reach a barrier.
    let cfg = LaunchConfig::new(1, 8);
    let (_, thread, msg) = fault(both_paths(&cfg, |t| {
        if t.thread_idx().x >= 5 {
            t.syncthreads();
        }
    }));
    assert_eq!(thread, [5, 0, 0]);
    assert!(
        msg.contains("thread (0, 0, 0) exited without reaching it (3 of 8 threads arrived)"),
        "{msg}"
    );
    // A fault after the abandoned barrier takes precedence, on both paths.
    let (_, thread, msg) = fault(both_paths(&cfg, |t| match t.thread_idx().x {
        2 => t.syncthreads(),
        6 => panic!("late panic"),
        _ => {}
    }));
    assert_eq!(thread, [6, 0, 0]);
    assert_eq!(msg, "panicked: late panic");
}

#[test]
#[allow(clippy::if_same_then_else)] // the two branches are two barrier call sites
fn divergent_barrier_different_call_sites() {
    let (_, thread, msg) = fault(both_paths(&LaunchConfig::new(1, 4), |t| {
        if t.thread_idx().x % 2 == 0 {
            t.syncthreads();
        } else {
            t.syncthreads();
        }
    }));
    assert_eq!(thread, [0, 0, 0]);
    assert!(
        msg.contains("but thread (1, 0, 0) waits at syncthreads at"),
        "{msg}"
    );
    assert!(msg.contains("kernel_exec_faults.rs"), "{msg}");
}

#[test]
#[allow(clippy::if_same_then_else)] // one call site reached from two branches
fn same_call_site_in_a_helper_is_one_barrier() {
    fn sync(t: &ThreadCtx<'_>) {
        t.syncthreads();
    }
    both_paths(&LaunchConfig::new(1, 4), |t| {
        if t.thread_idx().x % 2 == 0 {
            sync(t);
        } else {
            sync(t);
        }
    })
    .unwrap();
}

#[test]
fn a_panicking_thread_fails_the_launch_and_the_next_launch_works() {
    let (block, thread, msg) = fault(run_grid(
        "panics",
        &LaunchConfig::new((2, 2), (4, 4)),
        |t| {
            if t.block_idx() == Dim3::new(1, 1, 0) && t.thread_idx() == Dim3::new(2, 3, 0) {
                panic!("boom at {}", t.thread_idx());
            }
            t.syncthreads();
        },
    ));
    assert_eq!((block, thread), ([1, 1, 0], [2, 3, 0]));
    assert_eq!(msg, "panicked: boom at (2, 3, 0)");
    let mut out = vec![0u8; 64];
    let o = GlobalView::from_slice_mut(&mut out);
    run_grid("next", &LaunchConfig::new((2, 2), (4, 4)), |t| {
        t.syncthreads();
        let (x, y) = t.grid2();
        o.set(y * 8 + x, 1);
    })
    .unwrap();
    assert_eq!(out, vec![1; 64]);
}

#[test]
fn the_lowest_faulting_block_is_reported() {
    for _ in 0..5 {
        let (block, thread, _) = fault(run_grid("many", &LaunchConfig::new(512, 32), |t| {
            let b = t.block_idx().x;
            if b % 50 == 7 && t.thread_idx().x == b % 32 {
                t.fault(format!("block {b}"));
            }
        }));
        assert_eq!((block, thread), ([7, 0, 0], [7, 0, 0]));
    }
}

#[test]
fn invalid_configurations_are_refused() {
    let body = |_: &ThreadCtx<'_>| {};
    for cfg in [
        LaunchConfig::new(0, 1),
        LaunchConfig::new(1, (32, 33)),
        LaunchConfig::new(1, 1).with_dynamic_shared_bytes(1 << 20),
    ] {
        let r = run_grid("bad", &cfg, body);
        assert!(
            matches!(
                &r,
                Err(Error::InvalidLaunch { grid, block, dynamic_shared_bytes, .. })
                    if *grid == cfg.grid.to_array()
                        && *block == cfg.block.to_array()
                        && *dynamic_shared_bytes == cfg.dynamic_shared_bytes
            ),
            "{r:?}"
        );
    }
}

// ---------------------------------------------------------------- indexing and paths

#[test]
fn three_d_indices_cover_the_grid_once_per_launch() {
    let cfg = LaunchConfig::new((2, 3, 2), (4, 2, 3));
    let (gx, gy, gz) = (8, 6, 6);
    let mut hits = vec![0u32; gx * gy * gz];
    let h = GlobalView::from_slice_mut_with_shape(&mut hits, (gz, gy, gx)).unwrap();
    both_paths(&cfg, |t| {
        let (x, y, z) = t.grid3();
        assert_eq!(t.gridsize3(), (8, 6, 6));
        assert_eq!(t.warp_size(), 32);
        let linear = t.thread_idx().x + 4 * (t.thread_idx().y + 2 * t.thread_idx().z);
        assert_eq!(t.lane_id(), linear % 32);
        h.atomic_add((z, y, x), 1);
        t.syncthreads();
    })
    .unwrap();
    // `both_paths` launches twice.
    assert!(hits.iter().all(|&c| c == 2));
}

#[test]
fn fast_and_coroutine_paths_agree_on_results() {
    // A mix of barrier-free and barrier blocks, and per-thread local memory.
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let run = |opts: &ExecOptions| {
        let mut y = vec![0.0f32; n];
        let (xv, yv) = (
            GlobalView::from_slice(&x),
            GlobalView::from_slice_mut(&mut y),
        );
        run_grid_with("mix", &LaunchConfig::new(8, 128), opts, |t| {
            let i = t.grid1();
            let l = t.local_array::<f32>(2);
            if t.block_idx().x % 2 == 0 {
                let s = t.shared_array::<f32>(128);
                let j = t.thread_idx().x as usize;
                s.set(j, if i < n { xv.get(i) } else { 0.0 });
                t.syncthreads();
                l.set(0, s.get(127 - j));
            } else if i < n {
                l.set(0, xv.get(i) + 1.0);
            }
            if i < n {
                yv.set(i, l.get(0));
            }
        })
        .unwrap();
        y
    };
    let fast = run(&ExecOptions::default());
    let slow = run(&COROUTINES_ONLY);
    let serial = run(&ExecOptions {
        fast_path: true,
        parallel: false,
    });
    assert_eq!(fast, slow);
    assert_eq!(fast, serial);
    assert_eq!(fast[0], x[127]);
    assert_eq!(fast[128], x[128] + 1.0);
}

#[test]
fn full_blocks_of_1024_threads_synchronise() {
    let mut out = vec![0u32; 2048];
    let o = GlobalView::from_slice_mut(&mut out);
    both_paths(&LaunchConfig::new(2, (32, 32)), |t| {
        let s = t.shared_array::<u32>((32, 32));
        let (x, y) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
        s.set((y, x), (y * 32 + x) as u32);
        t.syncthreads();
        // Transpose through shared memory.
        o.set(t.block_idx().x as usize * 1024 + y * 32 + x, s.get((x, y)));
    })
    .unwrap();
    for (i, v) in out.iter().enumerate() {
        let (y, x) = ((i % 1024) / 32, i % 32);
        assert_eq!(*v as usize, x * 32 + y);
    }
}

#[test]
fn a_type_erased_body_can_be_launched() {
    let hits = AtomicUsize::new(0);
    let body: &(dyn Fn(&ThreadCtx<'_>) + Sync) = &|t| {
        t.syncthreads();
        hits.fetch_add(1, Ordering::Relaxed);
    };
    run_grid("dyn", &LaunchConfig::new(3, 5), body).unwrap();
    assert_eq!(hits.load(Ordering::Relaxed), 15);
}

#[test]
fn a_kernel_may_launch_a_kernel() {
    let total = AtomicUsize::new(0);
    run_grid("outer", &LaunchConfig::new(2, 2), |t| {
        t.syncthreads();
        run_grid("inner", &LaunchConfig::new(2, 3), |u| {
            u.syncthreads();
            total.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
    })
    .unwrap();
    assert_eq!(total.load(Ordering::Relaxed), 4 * 6);
}

#[test]
fn named_shared_arrays_are_shared_across_call_sites() {
    fn producer(t: &ThreadCtx<'_>) {
        t.shared_array_named::<i32>("buf", 4)
            .set(t.thread_idx().x as usize, 7);
    }
    fn consumer(t: &ThreadCtx<'_>) -> i32 {
        t.shared_array_named::<i32>("buf", 4)
            .get(3 - t.thread_idx().x as usize)
    }
    let mut out = [0i32; 4];
    let o = GlobalView::from_slice_mut(&mut out);
    both_paths(&LaunchConfig::new(1, 4), |t| {
        producer(t);
        t.syncthreads();
        o.set(t.thread_idx().x as usize, consumer(t));
    })
    .unwrap();
    assert_eq!(out, [7; 4]);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Each thread reaches `barriers[t]` barriers (possibly at two call sites) and may panic
        /// at one point: both paths must report the same outcome.
        #[test]
        #[allow(clippy::if_same_then_else)] // two barrier call sites
        fn paths_agree(
            barriers in proptest::collection::vec(0u8..3, 1..40),
            split_site in any::<bool>(),
            panic_at in proptest::option::of((0usize..40, 0u8..3)),
        ) {
            let n = barriers.len();
            let body = |t: &ThreadCtx<'_>| {
                let i = t.thread_idx().x as usize;
                for k in 0..barriers[i] {
                    if panic_at == Some((i, k)) {
                        t.fault(format!("fault in {i} at {k}"));
                    }
                    if split_site && i % 3 == 1 {
                        t.syncthreads();
                    } else {
                        t.syncthreads();
                    }
                }
            };
            let cfg = LaunchConfig::new(2, n as u32);
            let fast = run_grid("prop", &cfg, body);
            let slow = run_grid_with("prop", &cfg, &COROUTINES_ONLY, body);
            prop_assert_eq!(&fast, &slow);
            let uniform = barriers.iter().all(|&b| b == barriers[0]);
            if uniform && !(split_site && n > 1 && barriers[0] > 0) && panic_at.is_none_or(|(i, k)| i >= n || k >= barriers[i]) {
                prop_assert!(fast.is_ok(), "{:?}", fast);
            }
        }
    }
}
