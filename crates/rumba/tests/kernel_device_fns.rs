//! `#[rumba::device]` functions that take arrays of every space, tuples, and call each other,
//! on the backend `RUMBA_TEST_BACKEND` names (both of the simulator's engines there), after
//! Numba's `test_device_func.py`.

mod common;
mod engines;
mod macro_corpus;

use engines::each_engine;
use macro_corpus::device_fns as d;
use ndarray::{Array1, Array2, arr1};
use rumba::In;
use rumba::driver::HostEngine;

fn start() {
    common::start(|_| {});
}

#[test]
fn numba_add2f_and_indirect() {
    start();
    each_engine(d::use_add2f(), |k| {
        let mut ary = Array1::from_iter((0..10).map(|i| i as f32));
        let mut ind = ary.clone();
        k.configure(1, 16).launch((&mut ary, &mut ind)).unwrap();
        let want = Array1::from_iter((0..10).map(|i| 2.0 * i as f32));
        assert_eq!(ary, want);
        assert_eq!(ind, want);
    });
}

#[test]
fn device_functions_read_and_write_their_array_arguments() {
    start();
    let m = Array2::from_shape_fn((5, 3), |(r, c)| (r * 3 + c) as f32);
    each_engine(d::row_sums_dev(), |k| {
        let mut sums = Array1::<f32>::zeros(5);
        let mut pairs = Array1::<i32>::from_elem(10, -1);
        k.configure(1, 8)
            .launch((In(&m), &mut sums, &mut pairs))
            .unwrap();
        assert_eq!(sums, m.sum_axis(ndarray::Axis(1)));
        assert_eq!(pairs, arr1(&[0, 1, 10, 11, 20, 21, 30, 31, 40, 41]));
    });
}

#[test]
fn one_helper_reads_every_memory_space() {
    start();
    let g = arr1(&[1i64, 2, 3]);
    let c = rumba::const_array_like(&arr1(&[10i64, 20])).unwrap();
    each_engine(d::one_helper_every_space(), |k| {
        let mut out = arr1(&[5i64, 6, 7, 8, 0]);
        k.configure(1, 8).launch((In(&g), &c, &mut out)).unwrap();
        // global, shared (0 + 100 + … + 700), local of thread 0, constant, then out's own
        // first four after they were written.
        assert_eq!(out, arr1(&[6, 2800, 6, 30, 6 + 2800 + 6 + 30]));
    });
}

#[test]
fn atomics_through_a_device_function_in_shared_and_global_memory() {
    start();
    let x = Array1::from_iter((0..1000u32).map(|i| i * 3));
    each_engine(d::histogram_dev(), |k| {
        let mut hist = Array1::<u32>::zeros(4);
        k.configure(8, 128).launch((In(&x), &mut hist)).unwrap();
        let mut want = [0u32; 4];
        for v in &x {
            want[(*v % 4) as usize] += 1;
        }
        assert_eq!(hist.to_vec(), want);
    });
}

#[test]
fn tuples_in_and_out_and_arrays_passed_on() {
    start();
    let a = arr1(&[3.0, -1.0, 4.0, 1.5, -5.0, 9.0]);
    each_engine(d::tuples_dev(), |k| {
        let mut out = Array1::<f64>::zeros(5);
        k.configure(1, 4).launch((In(&a), &mut out)).unwrap();
        // Row 1 of a as 2 x 3 is [1.5, -5, 9]: spread 14.
        assert_eq!(out, arr1(&[-5.0, 9.0, -10.0 + 4.5, -1.0 + 3.0, 14.0]));
    });
}

#[test]
fn array_helpers_keep_the_loop_form() {
    for (name, e) in [
        ("row_sums_dev", d::row_sums_dev().engine()),
        (
            "one_helper_every_space",
            d::one_helper_every_space().engine(),
        ),
        ("histogram_dev", d::histogram_dev().engine()),
        ("tuples_dev", d::tuples_dev().engine()),
    ] {
        assert_eq!(e, HostEngine::WorkItemLoops, "{name}");
    }
}

#[test]
fn each_space_gets_its_own_opencl_instance() {
    let src = d::one_helper_every_space::opencl_source();
    for inst in ["g", "l", "p", "c"] {
        assert!(
            src.contains(&format!("static inline long dev_sum_first_i64_{inst}(")),
            "{inst}: {src}"
        );
    }
    // CUDA reaches every space with one instance.
    let cu = d::one_helper_every_space::cuda_source();
    assert_eq!(
        cu.matches("__device__ __forceinline__ long long dev_sum_first_i64(")
            .count(),
        1,
        "{cu}"
    );
    assert!(cu.contains("rb_unconst(c)"), "{cu}");
}

#[test]
fn a_device_function_reads_a_captured_array_its_kernel_passes() {
    start();
    d::SCALES.set(rumba::to_device(&[1.0f32, 10.0, 100.0]).unwrap());
    each_engine(d::scale_by_table(), |k| {
        let mut x = Array1::from_elem(7, 2.0f32);
        k.configure(1, 8).launch((&mut x,)).unwrap();
        assert_eq!(x, arr1(&[2.0, 20.0, 200.0, 2.0, 20.0, 200.0, 2.0]));
    });
}
