//! Behaviour tests for the kernel executor (docs/design/behaviour.md §5): shared, dynamic shared
//! and local memory, barriers and their reductions, atomics, and the fast path. Faults are in
//! `kernel_exec_faults.rs`.
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
// ---------------------------------------------------------------- shared memory

#[test]
fn shared_array_sizes() {
    let mut sizes = [0usize; 6];
    let out = GlobalView::from_slice_mut(&mut sizes);
    run_grid("sizes", &LaunchConfig::new(1, 1), |t| {
        out.set(0, t.shared_array::<f32>(2).size());
        out.set(1, t.shared_array::<f32>((2, 3)).size());
        out.set(2, t.shared_array::<f32>((2, 3, 4)).size());
        out.set(3, t.shared_array::<f16>(2).size());
        out.set(4, t.shared_array::<f16>((2, 3)).size());
        out.set(5, t.shared_array::<f16>((2, 3, 4)).size());
    })
    .unwrap();
    assert_eq!(sizes, [2, 6, 24, 2, 6, 24]);
}

#[test]
fn thread_zero_fills_shared_and_all_read_after_barrier() {
    let mut out = vec![-1i32; 100];
    let o = GlobalView::from_slice_mut(&mut out);
    both_paths(&LaunchConfig::new(1, 100), |t| {
        let sm = t.shared_array::<i32>(100);
        if t.thread_idx().x == 0 {
            for i in 0..100 {
                sm.set(i, i as i32);
            }
        }
        t.syncthreads();
        let i = t.thread_idx().x as usize;
        o.set(i, sm.get(i));
    })
    .unwrap();
    assert_eq!(out, (0..100).collect::<Vec<_>>());
}

#[test]
fn shared_2d_holds_ratios_after_barrier() {
    let mut out = vec![0.0f64; 200];
    let o = GlobalView::from_slice_mut_with_shape(&mut out, (10, 20)).unwrap();
    run_grid("ratios", &LaunchConfig::new(1, (10, 20)), |t| {
        let sm = t.shared_array::<f64>((10, 20));
        let (i, j) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
        sm.set((i, j), (i + 1) as f64 / (j + 1) as f64);
        t.syncthreads();
        // Read a neighbour's element: only correct if the barrier really waited.
        let (ni, nj) = ((i + 1) % 10, (j + 3) % 20);
        o.set((ni, nj), sm.get((ni, nj)));
    })
    .unwrap();
    for i in 0..10 {
        for j in 0..20 {
            assert_eq!(out[i * 20 + j], (i + 1) as f64 / (j + 1) as f64);
        }
    }
}

#[test]
fn static_shared_arrays_are_per_site_and_per_block() {
    let mut out = vec![0u32; 8];
    let o = GlobalView::from_slice_mut(&mut out);
    run_grid("sites", &LaunchConfig::new(4, 2), |t| {
        let a = t.shared_array::<u32>(2);
        let b = t.shared_array::<u32>(2);
        let i = t.thread_idx().x as usize;
        a.set(i, t.block_idx().x + 1);
        b.set(i, 100);
        t.syncthreads();
        // Same site in a loop is the same array; per block, not per launch.
        for _ in 0..3 {
            let again = t.shared_array::<u32>(2);
            again.atomic_add(i, 0);
        }
        o.set(t.grid1(), a.get(1 - i) + b.get(i) - 100);
    })
    .unwrap();
    assert_eq!(out, [1, 1, 2, 2, 3, 3, 4, 4]);
}

#[test]
fn redeclaring_a_site_with_another_shape_faults() {
    let (_, _, msg) = fault(run_grid("redeclare", &LaunchConfig::new(1, 1), |t| {
        for n in 1..3usize {
            let _ = t.shared_array::<u8>(n);
        }
    }));
    assert!(msg.contains("first declared as (1,) of u8"), "{msg}");
}

#[test]
fn shared_memory_limit_is_enforced() {
    let (_, _, msg) = fault(run_grid("big", &LaunchConfig::new(1, 1), |t| {
        let _ = t.shared_array::<f64>(7000);
    }));
    assert!(msg.contains("does not fit"), "{msg}");
}

// ---------------------------------------------------------------- dynamic shared memory

#[test]
fn dynamic_shared_fifty_floats() {
    let mut out = vec![0.0f32; 50];
    let o = GlobalView::from_slice_mut(&mut out);
    let cfg = LaunchConfig::new(1, 50).with_dynamic_shared_bytes(50 * 4);
    both_paths(&cfg, |t| {
        let sm = t.dynamic_shared::<f32>();
        let i = t.thread_idx().x as usize;
        sm.set(i, 2.0 * i as f32);
        t.syncthreads();
        o.set(i, sm.get(i));
    })
    .unwrap();
    assert_eq!(out, (0..50).map(|i| 2.0 * i as f32).collect::<Vec<_>>());
}

#[test]
fn dynshared_slices_are_views_of_the_same_bytes() {
    // Numba's `_test_dynshared_slice`: launch `[1, 1]` with `len(expected)` int32s of dynamic
    // shared memory and compare the output array.
    for case in kernel_common::dynshared::CASES {
        let mut out = vec![0i32; case.expected.len()];
        let x = GlobalView::from_slice_mut(&mut out);
        let cfg = LaunchConfig::new(1, 1).with_dynamic_shared_bytes(4 * case.expected.len());
        both_paths(&cfg, |t| (case.body)(t, &x)).unwrap();
        assert_eq!(out, case.expected, "{}", case.name);
    }
}

#[test]
fn dynshared_two_halves_over_many_blocks() {
    // Numba issue 5073: 64 blocks of 16 threads, each block's chunk loaded into two halves of
    // dynamic shared memory, then written back by thread 0.
    let x: Vec<i64> = (0..1024).collect();
    let mut y = vec![0i64; 1024];
    let (xv, yv) = (
        GlobalView::from_slice(&x),
        GlobalView::from_slice_mut(&mut y),
    );
    let chunk = 8usize;
    let cfg = LaunchConfig::new(64, 16).with_dynamic_shared_bytes(16 * 8);
    both_paths(&cfg, |t| {
        let dyn_ = t.dynamic_shared::<i64>();
        let sm1 = dyn_.slice(0..chunk as isize);
        let sm2 = dyn_.slice(chunk as isize..2 * chunk as isize);
        let (tx, bx, bd) = (
            t.thread_idx().x as usize,
            t.block_idx().x as usize,
            t.block_dim().x as usize,
        );
        let i = bx * bd + tx;
        if i < xv.len() {
            if tx < chunk {
                sm1.set(tx, xv.get(i));
            } else {
                sm2.set(tx - chunk, xv.get(i));
            }
        }
        t.syncthreads();
        if tx == 0 {
            for j in 0..chunk {
                yv.set(bd * bx + j, sm1.get(j));
                yv.set(bd * bx + j + chunk, sm2.get(j));
            }
        }
    })
    .unwrap();
    assert_eq!(y, x);
}

#[test]
fn dynamic_shared_of_different_types_aliases_the_same_bytes() {
    let mut out = [0u32; 2];
    let o = GlobalView::from_slice_mut(&mut out);
    let cfg = LaunchConfig::new(1, 2).with_dynamic_shared_bytes(8);
    run_grid("alias", &cfg, |t| {
        let bytes = t.dynamic_shared::<u8>();
        let words = t.dynamic_shared::<u32>();
        if t.thread_idx().x == 0 {
            for i in 0..8 {
                bytes.set(i, i as u8 + 1);
            }
        }
        t.syncthreads();
        o.set(
            t.thread_idx().x as usize,
            words.get(t.thread_idx().x as usize),
        );
    })
    .unwrap();
    assert_eq!(out, [0x0403_0201, 0x0807_0605]);
}

// ---------------------------------------------------------------- barriers with values

#[test]
fn syncthreads_count_in_every_thread() {
    let mut input = vec![1i32; 72];
    input[31] = 0;
    input[42] = 0;
    let mut out = vec![0i32; 72];
    let (iv, o) = (
        GlobalView::from_slice(&input),
        GlobalView::from_slice_mut(&mut out),
    );
    both_paths(&LaunchConfig::new(1, 72), |t| {
        let i = t.thread_idx().x as usize;
        o.set(i, t.syncthreads_count(iv.get(i)));
    })
    .unwrap();
    assert_eq!(out, vec![70; 72]);
}

fn and_or_case<T: bytemuck::Pod + rumba::kernel::Predicate + Sync>(
    input: &[T],
) -> (Vec<i32>, Vec<i32>) {
    let n = input.len();
    let (mut and, mut or) = (vec![-1i32; n], vec![-1i32; n]);
    let iv = GlobalView::from_slice(input);
    let (av, ov) = (
        GlobalView::from_slice_mut(&mut and),
        GlobalView::from_slice_mut(&mut or),
    );
    both_paths(&LaunchConfig::new(1, n as u32), |t| {
        let i = t.thread_idx().x as usize;
        av.set(i, t.syncthreads_and(iv.get(i)));
        ov.set(i, t.syncthreads_or(iv.get(i)));
    })
    .unwrap();
    (and, or)
}

#[test]
fn syncthreads_and_or_for_integer_widths() {
    fn check<T: bytemuck::Pod + rumba::kernel::Predicate + Sync + From<i8>>() {
        let n = 100;
        let ones = vec![T::from(1); n];
        let zeros = vec![T::from(0); n];
        let mut one_zero = ones.clone();
        one_zero[57] = T::from(0);
        let mut one_one = zeros.clone();
        one_one[3] = T::from(-5);
        assert_eq!(and_or_case(&ones), (vec![1; n], vec![1; n]));
        assert_eq!(and_or_case(&zeros), (vec![0; n], vec![0; n]));
        assert_eq!(and_or_case(&one_zero), (vec![0; n], vec![1; n]));
        assert_eq!(and_or_case(&one_one), (vec![0; n], vec![1; n]));
    }
    check::<i16>();
    check::<i32>();
    check::<i64>();
}

#[test]
fn two_barriers_complete_at_one_by_three() {
    let mut a = vec![0i32; 3];
    let av = GlobalView::from_slice_mut(&mut a);
    both_paths(&LaunchConfig::new(1, 3), |t| {
        let i = t.thread_idx().x as usize;
        av.set(i, i as i32);
        t.syncthreads();
        let next = av.get((i + 1) % 3);
        t.syncthreads();
        av.set(i, next * 10);
    })
    .unwrap();
    assert_eq!(a, [10, 20, 0]);
}

// ---------------------------------------------------------------- local memory

#[test]
fn local_array_copies_a_to_b() {
    let a: Vec<i32> = (0..1000).map(|i| i * 3 - 7).collect();
    let mut b = vec![0i32; 1000];
    let (av, bv) = (
        GlobalView::from_slice(&a),
        GlobalView::from_slice_mut(&mut b),
    );
    both_paths(&LaunchConfig::new(1, 1), |t| {
        let l = t.local_array::<i32>(1000);
        for i in 0..1000 {
            l.set(i, av.get(i));
        }
        for i in 0..1000 {
            bv.set(i, l.get(i));
        }
    })
    .unwrap();
    assert_eq!(a, b);
}

#[test]
fn local_complex128_arrays_are_private_per_thread() {
    let mut out = vec![Complex::new(0.0f64, 0.0); 64];
    let o = GlobalView::from_slice_mut(&mut out);
    both_paths(&LaunchConfig::new(2, 32), |t| {
        let i = t.grid1();
        let l = t.local_array::<Complex<f64>>((2, 5));
        for k in 0..5 {
            l.set((0, k), Complex::new(i as f64, k as f64));
        }
        t.syncthreads(); // other threads' local arrays live at the same time
        let mut acc = Complex::new(0.0, 0.0);
        for k in 0..5 {
            l.set((1, k), l.get((0, k)) * Complex::new(0.0, 1.0));
            acc += l.get((1, k));
        }
        o.set(i, acc);
    })
    .unwrap();
    for (i, z) in out.iter().enumerate() {
        assert_eq!(*z, Complex::new(-10.0, 5.0 * i as f64));
    }
}

// ---------------------------------------------------------------- atomics

#[test]
fn atomics_from_a_large_grid_give_exact_totals() {
    let cfg = LaunchConfig::new(1024, 256); // 262,144 threads
    let total = cfg.num_blocks() * cfg.threads_per_block();
    let mut ints = [0i32; 4];
    let mut wide = [0u64, 0, u64::MAX];
    let mut floats = [0.0f64, 0.0, f64::INFINITY];
    let mut counters = [0u32; 2];
    let iv = GlobalView::from_slice_mut(&mut ints);
    let wv = GlobalView::from_slice_mut(&mut wide);
    let fv = GlobalView::from_slice_mut(&mut floats);
    let cv = GlobalView::from_slice_mut(&mut counters);
    run_grid("atomics", &cfg, |t| {
        let i = t.grid1();
        iv.atomic_add(0, 1);
        iv.atomic_sub(1, 2);
        iv.atomic_max(2, (i % 1000) as i32);
        iv.atomic_xor(3, 1);
        wv.atomic_add(0, i as u64);
        wv.atomic_or(1, 1 << (i % 64));
        wv.atomic_min(2, u64::MAX - i as u64);
        fv.atomic_add(0, 1.0);
        fv.atomic_max(1, i as f64);
        fv.atomic_min(2, -(i as f64));
        cv.atomic_inc(0, 99);
        cv.atomic_dec(1, 999);
        // Shared atomics: a block-local counter.
        let s = t.shared_array::<u32>(1);
        s.atomic_add(0, 1);
        t.syncthreads();
        if t.thread_idx().x == 0 && s.get(0) != 256 {
            t.fault("shared counter wrong");
        }
    })
    .unwrap();
    let n = total as i64;
    assert_eq!(ints, [n as i32, -2 * n as i32, 999, 0]);
    assert_eq!(
        wide,
        [
            (n * (n - 1) / 2) as u64,
            u64::MAX,
            u64::MAX - (n as u64 - 1)
        ]
    );
    assert_eq!(floats, [n as f64, (n - 1) as f64, -(n - 1) as f64]);
    assert_eq!(counters[0], (n % 100) as u32);
    // dec from 0 wraps to 999, then counts down: value after n decrements with bound 999.
    assert_eq!(counters[1], ((1000 - n % 1000) % 1000) as u32);
}

#[test]
fn exch_and_cas_max() {
    let mut m = [i64::MIN];
    let mut winner = [u32::MAX];
    let values: Vec<i64> = (0..4096).map(|i| (i * 7919) % 4093).collect();
    let vv = GlobalView::from_slice(&values);
    let (mv, wv) = (
        GlobalView::from_slice_mut(&mut m),
        GlobalView::from_slice_mut(&mut winner),
    );
    run_grid("cas_max", &LaunchConfig::new(16, 256), |t| {
        let v = vv.get(t.grid1());
        // Maximum through a CAS loop.
        let mut old = mv.get(0);
        while old < v {
            let seen = mv.atomic_cas(0, old, v);
            if seen == old {
                break;
            }
            old = seen;
        }
        wv.atomic_exch(0, t.grid1() as u32);
    })
    .unwrap();
    assert_eq!(m[0], *values.iter().max().unwrap());
    assert!(winner[0] < 4096);
}
