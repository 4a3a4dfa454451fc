//! Warp-level operations through `#[rumba::kernel]`, ported from Numba's `test_warp_ops.py` and
//! the syncwarp cases of `test_sync.py`, on the backend `RUMBA_TEST_BACKEND` names (the sim —
//! work-item loops where every warp operation is under block-uniform control with a uniform
//! mask, coroutines otherwise — and PoCL in CI, CUDA on a GPU machine).
//! Cases with warp operations under thread-dependent control skip OpenCL, whose local-memory
//! emulation needs the whole work-group at each operation.

#[path = "common/mod.rs"]
mod common;
#[path = "ported_kernels/mod.rs"]
mod ported_kernels;

use ndarray::Array1;
use ported_kernels::warp as k;
use rumba::In;
use rumba::config::BackendChoice;

fn start() {
    common::start(|_| {});
}

/// Whether warp operations under thread-dependent control run on the test backend. On OpenCL
/// (no subgroups on PoCL) such a kernel is refused when it is built: `r` must be that typed
/// refusal, naming the rule, and nothing else is checked.
fn divergent_ok<T: std::fmt::Debug>(r: &rumba::Result<T>) -> bool {
    if common::test_backend() != BackendChoice::OpenCl {
        return true;
    }
    let text = format!("{r:?}");
    assert!(
        r.is_err() && text.contains("thread-dependent control"),
        "expected the OpenCL build to refuse a divergent warp operation, got {text}"
    );
    false
}

#[test]
fn warp_kernels_under_uniform_control_run_on_work_item_loops() {
    use rumba::driver::HostEngine;
    // Under thread-dependent control (`if i < 16`), or with per-thread masks: coroutines.
    assert_eq!(k::coop_syncwarp().engine(), HostEngine::Coroutines);
    assert_eq!(k::independent_scheduling().engine(), HostEngine::Coroutines);
    // Under control that depends only on parameters: work-item loops.
    for (name, kernel) in [
        ("shfl_modes", k::shfl_modes().engine()),
        ("votes", k::votes().engine()),
        ("useless_syncwarp", k::useless_syncwarp().engine()),
        ("useful_syncwarp", k::useful_syncwarp().engine()),
        ("wavebarrier_rotate", k::wavebarrier_rotate().engine()),
        ("warp_reduce", k::warp_reduce().engine()),
        ("shfl_with_val_f64", k::shfl_with_val_f64().engine()),
    ] {
        assert_eq!(kernel, HostEngine::WorkItemLoops, "{name}");
    }
}

#[test]
fn useless_syncwarp_and_with_mask() {
    start();
    for kernel in [k::useless_syncwarp(), k::useless_syncwarp_with_mask()] {
        let mut ary = Array1::from(vec![0i32; 10]);
        kernel.configure(1, 10).launch((&mut ary,)).unwrap();
        assert_eq!(ary.to_vec(), (0..10).collect::<Vec<i32>>());
    }
}

#[test]
fn coop_syncwarp_sums_to_496() {
    start();
    let mut res = Array1::from(vec![0i32; 1]);
    let r = k::coop_syncwarp().configure(1, 32).launch((&mut res,));
    if divergent_ok(&r) {
        r.unwrap();
        assert_eq!(res[0], 496);
    }
}

#[test]
fn useful_syncwarp_publishes_lane_0() {
    start();
    let mut ary = Array1::from(vec![0i32; 32]);
    k::useful_syncwarp()
        .configure(1, 32)
        .launch((&mut ary,))
        .unwrap();
    assert!(ary.iter().all(|&v| v == 42));
}

#[test]
fn shuffles_idx_up_down_xor() {
    start();
    let run = |mode: i32, arg: u32| {
        let mut ary = Array1::from(vec![0i32; 32]);
        k::shfl_modes()
            .configure(1, 32)
            .launch((&mut ary, mode, arg))
            .unwrap();
        ary
    };
    assert!(run(0, 4).iter().all(|&v| v == 4));
    let up: Vec<i32> = (0..32).map(|i| if i < 4 { i } else { i - 4 }).collect();
    assert_eq!(run(1, 4).to_vec(), up);
    let down: Vec<i32> = (0..32).map(|i| if i >= 28 { i } else { i + 4 }).collect();
    assert_eq!(run(2, 4).to_vec(), down);
    let xor: Vec<i32> = (0..32).map(|i| i ^ 16).collect();
    assert_eq!(run(3, 16).to_vec(), xor);
}

#[test]
fn shuffles_of_each_type() {
    start();
    let mut a = Array1::from(vec![0i32; 32]);
    k::shfl_with_val_i32()
        .configure(1, 32)
        .launch((&mut a, -1))
        .unwrap();
    assert!(a.iter().all(|&v| v == -1));
    let mut b = Array1::from(vec![0i64; 32]);
    k::shfl_with_val_i64()
        .configure(1, 32)
        .launch((&mut b, 1i64 << 42))
        .unwrap();
    assert!(b.iter().all(|&v| v == 1 << 42));
    let mut c = Array1::from(vec![0f32; 32]);
    k::shfl_with_val_f32()
        .configure(1, 32)
        .launch((&mut c, std::f32::consts::PI))
        .unwrap();
    assert!(c.iter().all(|&v| v == std::f32::consts::PI));
    let mut d = Array1::from(vec![0f64; 32]);
    k::shfl_with_val_f64()
        .configure(1, 32)
        .launch((&mut d, std::f64::consts::PI))
        .unwrap();
    assert!(d.iter().all(|&v| v == std::f64::consts::PI));
}

#[test]
fn votes_all_any_ballot() {
    start();
    let run = |input: &Array1<i32>| {
        let (mut all, mut any) = (Array1::from(vec![0i32; 32]), Array1::from(vec![0i32; 32]));
        let (mut ballot, mut active) = (Array1::from(vec![0u32; 32]), Array1::from(vec![0u32; 32]));
        k::votes()
            .configure(1, 32)
            .launch((In(input), &mut all, &mut any, &mut ballot, &mut active))
            .unwrap();
        assert!(active.iter().all(|&m| m == u32::MAX), "{active:?}");
        (all[0], any[0], ballot[0], all.iter().all(|&v| v == all[0]))
    };
    let mut ones = Array1::from(vec![1i32; 32]);
    assert_eq!(run(&ones), (1, 1, u32::MAX, true));
    ones[31] = 0;
    assert_eq!(run(&ones), (0, 1, 0x7fff_ffff, true));
    let mut zeros = Array1::from(vec![0i32; 32]);
    assert_eq!(run(&zeros), (0, 0, 0, true));
    zeros[2] = 1;
    zeros[5] = 1;
    assert_eq!(run(&zeros), (0, 1, 0b100100, true));
}

#[test]
fn wavebarrier_is_a_full_syncwarp() {
    start();
    let mut out = Array1::from(vec![0i32; 64]);
    k::wavebarrier_rotate()
        .configure(1, 64)
        .launch((&mut out,))
        .unwrap();
    for (i, &v) in out.iter().enumerate() {
        assert_eq!(v as usize, i - i % 32 + (i % 32 + 1) % 32);
    }
}

#[test]
fn rocs_barrier_with_fence_flags_is_the_block_barrier() {
    start();
    let mut out = Array1::from(vec![0i32; 256]);
    k::roc_barrier_reverse()
        .configure(1, 256)
        .launch((&mut out,))
        .unwrap();
    assert_eq!(out.to_vec(), (0..256).rev().collect::<Vec<i32>>());
}

#[test]
fn independent_scheduling_with_four_masks() {
    start();
    let mut arr = Array1::from(vec![0u32; 32]);
    let r = k::independent_scheduling()
        .configure(1, 32)
        .launch((&mut arr,));
    if !divergent_ok(&r) {
        return;
    }
    r.unwrap();
    let want = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
    assert!(
        arr.iter().enumerate().all(|(i, &b)| b == want[i % 4]),
        "{arr:x?}"
    );
}

#[test]
fn warp_reduce_between_barriers() {
    start();
    let x: Array1<f32> = (0..256).map(|i| i as f32).collect();
    let mut out = Array1::from(vec![0f32; 8]);
    k::warp_reduce()
        .configure(2, 128)
        .launch((In(&x), &mut out))
        .unwrap();
    for (w, &v) in out.iter().enumerate() {
        assert_eq!(v, (w * 32..w * 32 + 32).sum::<usize>() as f32);
    }
}
