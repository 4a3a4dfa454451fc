//! Issue 24 item 8: one kernel launched from several threads with one block size and many grid
//! sizes. PoCL (3.x) keeps one compiled work-group function per kernel, block size and widest
//! grid it was first used for; a launch wider than any so far adds another, and a launch that
//! finishes gives its reference back to the first of them in the cache's order — which, when
//! launches of two widths overlap, is not always the one it took, so PoCL aborted
//! (`pocl_release_dlhandle_cache`: `found->ref_count > 0`). The OpenCL backend orders a launch
//! after the unfinished launches of the same kernel and block size that have another width.
//! (Every backend runs the test; only OpenCL had the failure.)

mod common;

use rumba::kernel::prelude::*;

/// Writes `v` after `spin` rounds of arithmetic (so that narrow launches outlast wide ones).
#[kernel]
fn mark(t: &Thread, o: &mut Arr<u32>, v: u32, spin: u32) {
    let i = t.grid1();
    let mut x = v;
    for _k in 0..spin {
        x = x * 1664525 + 1013904223;
    }
    if i < o.len() {
        o[i] = if x == 7 && spin == 3 { 0 } else { v };
    }
}

#[test]
fn launches_of_one_kernel_with_many_grid_sizes_from_many_threads() {
    common::start(|_| {});
    const ROUNDS: u32 = 100;
    // Narrow launches must outlast wide ones on PoCL; elsewhere the arithmetic only costs time.
    let work = if common::test_backend() == rumba::config::BackendChoice::OpenCl {
        200_000
    } else {
        2_000
    };
    let start = std::sync::Arc::new(std::sync::Barrier::new(4));
    let threads: Vec<_> = (0..4u32)
        .map(|t| {
            let start = std::sync::Arc::clone(&start);
            std::thread::spawn(move || {
                let s = rumba::stream().unwrap();
                // Allocated first: no work on the legacy default stream, which would order the
                // threads' streams after each other, while the launches run.
                let a =
                    rumba::device_array::<u32, _>((4 * ROUNDS as usize + 4) * 32, rumba::Order::C)
                        .unwrap();
                rumba::synchronize().unwrap();
                start.wait();
                for round in 0..ROUNDS {
                    // Ever wider grids, interleaved between the threads: every launch is the
                    // widest so far while narrower ones still run.
                    let blocks = 4 * round + t + 1;
                    mark()
                        .configure(blocks, 32)
                        .stream(&s)
                        .launch((&a, t << 16 | round, work / blocks))
                        .unwrap();
                }
                s.synchronize().unwrap();
                let back = a.copy_to_host_on(&s).unwrap();
                let last = 4 * (ROUNDS - 1) + t + 1;
                assert!(
                    back.iter()
                        .take(last as usize * 32)
                        .all(|&x| x == t << 16 | (ROUNDS - 1)),
                    "thread {t}: the last launch's values"
                );
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}
