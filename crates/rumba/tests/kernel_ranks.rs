//! Arrays of 0 to 6 dimensions, `reshape` with `-1`, `x[()]` and NumPy's basic slicing inside
//! kernels, on the backend `RUMBA_TEST_BACKEND` names (both of the simulator's engines there),
//! after Numba's `test_array.py` 0-d and multi-dimensional cases and `test_slicing.py`; an
//! out-of-range slice or a zero step is a fault naming kernel, block and thread.

mod common;
mod engines;
mod macro_corpus;

use engines::{each_engine, faults_reported, same_fault};
use macro_corpus::ranks as k;
use ndarray::{Array, Array0, Array1, Array2, Array5, ArrayD, IxDyn, arr0, arr1};
use rumba::In;
use rumba::driver::HostEngine;

fn start() {
    common::start(|_| {});
}

#[test]
fn zero_dim_arrays_are_indexed_with_unit() {
    start();
    each_engine(k::zero_dim(), |kern| {
        let mut x = arr0(1.5f64);
        let y = arr0(4i32);
        kern.configure(1, 4).launch((&mut x, In(&y))).unwrap();
        assert_eq!(x[()], 7.0);
    });
    // The ABI says rank 0; a 1-d array is refused before it runs.
    let abi = k::zero_dim::ABI.params[0].kind;
    assert_eq!(
        abi,
        rumba::kernel::ParamKind::Array {
            rank: 0,
            writes: true
        }
    );
    let mut wrong = arr1(&[1.0f64]);
    let y = arr0(4i32);
    assert!(
        k::zero_dim()
            .configure(1, 1)
            .launch((&mut wrong, In(&y)))
            .is_err()
    );
}

#[test]
fn six_dimensional_arrays() {
    start();
    let shape = [2, 1, 3, 2, 2, 3];
    let a = ArrayD::from_shape_fn(IxDyn(&shape), |i| {
        (i[5] + 3 * (i[4] + 2 * (i[3] + 2 * (i[2] + 3 * (i[1] + i[0]))))) as i32
    });
    let want = a.mapv(|v| v * 10) + ArrayD::from_shape_fn(IxDyn(&shape), |i| i[0] as i32);
    each_engine(k::six_dims(), |kern| {
        let mut b = ArrayD::<i32>::zeros(IxDyn(&shape));
        kern.configure(1, 128).launch((In(&a), &mut b)).unwrap();
        assert_eq!(b, want);
    });
}

#[test]
fn shared_local_and_zero_dim_block_arrays() {
    start();
    each_engine(k::many_dims_block(), |kern| {
        let mut out = Array5::<u32>::zeros((2, 2, 2, 2, 1));
        let mut last = Array0::<u32>::zeros(());
        kern.configure(1, 32).launch((&mut out, &mut last)).unwrap();
        let got: Vec<u32> = out.iter().copied().collect();
        // s holds 0..16; element 15 - tid, plus 700, plus l[(0,1,0,1,0,1)] = 7 + tid.
        let want: Vec<u32> = (0..16).map(|t| (15 - t) + 700 + 7 + t).collect();
        assert_eq!(got, want);
        assert_eq!(last[()], 16 + 8 + 1);
    });
}

#[test]
fn reshape_infers_the_minus_one_extent() {
    start();
    let a = Array1::from_iter((0..24).map(|v| v as f32));
    each_engine(k::reshape_infer(), |kern| {
        let mut out = Array1::<f32>::zeros(3);
        let mut dims = Array1::<usize>::zeros(4);
        kern.configure(1, 2)
            .launch((In(&a), &mut out, &mut dims))
            .unwrap();
        assert_eq!(dims, arr1(&[4, 3, 24, 24]));
        // (3, 1, 2) of (4, 2, 3) is 3*6 + 1*3 + 2 = 23; (1, 2, 1, 0) of (2, 3, 2, 2) is 12+8+2.
        assert_eq!(out, arr1(&[23.0, 22.0, 5.0]));
    });
}

#[test]
fn reshape_to_zero_dims_and_a_bad_minus_one() {
    start();
    each_engine(k::reshape_zero_dim(), |kern| {
        let mut a = arr1(&[41i64]);
        kern.configure(1, 1).launch((&mut a, 0usize)).unwrap();
        assert_eq!(a[0], 42);
    });
    if !faults_reported("reshape_to_zero_dims_and_a_bad_minus_one") {
        return;
    }
    // Faults are reported at the next synchronization of the launch's stream: its own here.
    let s = rumba::stream().unwrap();
    let a = rumba::to_device(&Array1::<i64>::zeros(1)).unwrap();
    let (block, thread, msg) = same_fault(k::reshape_zero_dim(), |kern| {
        kern.configure(1, 1)
            .stream(&s)
            .launch((&a, 2usize))
            .unwrap();
        s.synchronize()
    });
    assert_eq!((block, thread), ([0, 0, 0], [0, 0, 0]));
    assert!(msg.contains("reshape"), "{msg}");
}

#[test]
fn numba_test_slice_as_arg() {
    start();
    let inp = Array::from_iter(0..100)
        .into_shape_with_order((10, 10))
        .unwrap();
    each_engine(k::numba_slice_copy(), |kern| {
        let mut out = Array2::<i32>::zeros((10, 10));
        kern.configure(1, 10).launch((In(&inp), &mut out)).unwrap();
        assert_eq!(out, inp);
    });
}

#[test]
fn slices_follow_numpy() {
    start();
    let a = Array::from_iter(0..24i64)
        .into_shape_with_order((4, 6))
        .unwrap();
    each_engine(k::slice_rules(), |kern| {
        let mut out = Array1::<i64>::zeros(20);
        let mut sizes = Array1::<usize>::zeros(5);
        kern.configure(1, 1)
            .launch((In(&a), &mut out, &mut sizes))
            .unwrap();
        assert_eq!(sizes, arr1(&[6, 23, 2, 4, 6]));
        let want: Vec<i64> = [23, 22, 21, 20, 19, 18, 7, 9, 11, 13, 15, 17, 22, 10, 23, 16]
            .into_iter()
            .chain([0, 0, 0, -7])
            .collect();
        assert_eq!(out.to_vec(), want);
    });
}

#[test]
fn an_out_of_range_slice_faults_naming_the_thread() {
    start();
    if !faults_reported("an_out_of_range_slice_faults_naming_the_thread") {
        return;
    }
    let s = rumba::stream().unwrap();
    let a = rumba::to_device(&Array2::<f32>::zeros((3, 4))).unwrap();
    let out = rumba::to_device(&Array1::<f32>::zeros(8)).unwrap();
    let (block, thread, msg) = same_fault(k::bad_slice(), |kern| {
        kern.configure(1, 8).stream(&s).launch((&a, &out)).unwrap();
        s.synchronize()
    });
    assert_eq!(block, [0, 0, 0]);
    assert_eq!(thread, [3, 0, 0], "the first thread out of range");
    assert!(
        msg.contains("out of bounds for axis 0 with size 3"),
        "{msg}"
    );
    let z = rumba::to_device(&Array1::<f32>::zeros(4)).unwrap();
    let (_, thread, msg) = same_fault(k::zero_step(), |kern| {
        kern.configure(1, 1)
            .stream(&s)
            .launch((&z, 0isize))
            .unwrap();
        s.synchronize()
    });
    assert_eq!(thread, [0, 0, 0]);
    assert!(
        msg.contains("step") || msg.contains("invalid array view"),
        "{msg}"
    );
}

#[test]
fn shared_slices_across_a_barrier() {
    start();
    each_engine(k::shared_slices(), |kern| {
        let mut out = Array1::<i32>::zeros(32);
        kern.configure(1, 32).launch((&mut out,)).unwrap();
        // Thread t reads column t % 8 at row 3 - t / 8, which thread (3 - t/8) * 8 + t % 8 wrote.
        let want: Vec<i32> = (0..32).map(|t| (3 - t / 8) * 8 + t % 8).collect();
        assert_eq!(out.to_vec(), want);
    });
}

#[test]
fn ranked_kernels_keep_the_loop_form() {
    for (name, e) in [
        ("six_dims", k::six_dims().engine()),
        ("many_dims_block", k::many_dims_block().engine()),
        ("slice_rules", k::slice_rules().engine()),
        ("shared_slices", k::shared_slices().engine()),
        ("numba_slice_copy", k::numba_slice_copy().engine()),
    ] {
        assert_eq!(e, HostEngine::WorkItemLoops, "{name}");
    }
}

#[test]
fn an_index_of_five_components_out_of_bounds_faults_with_every_component() {
    start();
    if !faults_reported("an_index_of_five_components_out_of_bounds_faults_with_every_component") {
        return;
    }
    let s = rumba::stream().unwrap();
    let a = rumba::to_device(&ndarray::Array5::<u16>::zeros((1, 2, 1, 2, 1))).unwrap();
    let out = rumba::to_device(&Array1::<u16>::zeros(4)).unwrap();
    let (block, thread, msg) = same_fault(k::oob_five_dims(), |kern| {
        kern.configure(1, 4).stream(&s).launch((&a, &out)).unwrap();
        s.synchronize()
    });
    assert_eq!((block, thread), ([0, 0, 0], [2, 0, 0]));
    assert!(
        msg.contains("index (0, 1, 0, 2, 0) is out of bounds for axis 3 with size 2"),
        "{msg}"
    );
}

#[test]
fn constant_arrays_of_four_and_zero_dimensions() {
    start();
    let host = ndarray::Array4::from_shape_fn((2, 3, 2, 4), |(a, b, c, d)| {
        (1000 * a + 100 * b + 10 * c + d) as i32
    });
    let c = rumba::const_array_like(&host).unwrap();
    let z = rumba::const_array_like(&arr0(5i32)).unwrap();
    each_engine(k::const_ranks(), |kern| {
        let mut out = Array1::<i32>::zeros(4);
        kern.configure(1, 8).launch((&c, &z, &mut out)).unwrap();
        // c[1, 2, 0, :] + 5
        assert_eq!(out, arr1(&[1205, 1206, 1207, 1208]));
    });
}
