//! Constant memory through the launch API (docs/design/behaviour.md §5), ported from Numba's
//! `test_constmem`: `const_array_like` copies at definition time, keeps the layout, and cannot be
//! written.
//!
//! The kernels are `#[rumba::kernel]` functions (`ported_kernels::constant`) taking the constant
//! array as a `&ConstArr<T>` parameter, so every test runs on the backend `RUMBA_TEST_BACKEND`
//! names. The `closure_kernels` section keeps the closure API's form (a closure that captures
//! its `ConstArray`), which only the simulator runs.

mod common;

use common::fault;
mod ported_kernels;

use ndarray::{Array1, Array2, Array3, ShapeBuilder, arr1};
use num_complex::Complex;
use rumba::kernel::{Arr, Kernel};
use rumba::{Out, const_array_like};

use ported_kernels::constant as k;

fn start() {
    common::start(|_| {});
}

// ---------------------------------------------------------------- constant memory

#[test]
fn const_1d_plus_one_over_a_two_by_five_grid() {
    start();
    let host = Array1::from_iter((0..10).map(|i| i as f32 * 0.5));
    let c = const_array_like(&host).unwrap();
    let mut a = Array1::<f32>::zeros(10);
    k::const1d()
        .configure(2, 5)
        .launch((&c, Out(&mut a)))
        .unwrap();
    assert_eq!(a, host.mapv(|v| v + 1.0));
}

#[test]
fn const_empty_array() {
    start();
    let c = const_array_like(&Array1::<f64>::zeros(0)).unwrap();
    let mut a = arr1(&[99usize]);
    k::const_empty()
        .configure(1, 1)
        .launch((&c, &mut a))
        .unwrap();
    assert_eq!(a[0], 0);
}

#[test]
fn const_2d_f_order_i32_copied_exactly() {
    start();
    let host = Array2::from_shape_fn((5, 7).f(), |(i, j)| (i * 7 + j) as i32 * 3);
    let c = const_array_like(&host).unwrap();
    assert_eq!(c.view().strides(), &[4, 20], "F order kept");
    let mut b = Array2::<i32>::zeros((5, 7));
    k::const2d()
        .configure(1, (7, 5))
        .launch((&c, Out(&mut b)))
        .unwrap();
    assert_eq!(b, host);
}

#[test]
fn const_3d_complex64_with_a_555_block() {
    start();
    let host = Array3::from_shape_fn((5, 5, 5), |(i, j, k)| {
        Complex::new(i as f32 + 0.5, (j * 5 + k) as f32)
    });
    let c = const_array_like(&host).unwrap();
    let mut b = Array3::from_elem((5, 5, 5), Complex::new(0.0f32, 0.0));
    k::const3d()
        .configure(1, (5, 5, 5))
        .launch((&c, Out(&mut b)))
        .unwrap();
    assert_eq!(b, host);
}

#[test]
fn const_record_fields() {
    start();
    let host = Array1::from_iter((0..3usize).map(|i| k::Rec {
        x: i as f64 + 0.25,
        y: -(i as i32),
        z: i as f32 * 2.0,
    }));
    let c = const_array_like(&host).unwrap();
    let (mut x, mut y, mut z) = (Array1::zeros(3), Array1::zeros(3), Array1::zeros(3));
    k::const_rec()
        .configure(1, 3)
        .launch((&c, Out(&mut x), Out(&mut y), Out(&mut z)))
        .unwrap();
    assert_eq!(x.to_vec(), [0.25, 1.25, 2.25]);
    assert_eq!(y.to_vec(), [0, -1, -2]);
    assert_eq!(z.to_vec(), [0.0, 2.0, 4.0]);
}

#[test]
fn const_aligned_record() {
    start();
    assert_eq!(
        (size_of::<k::Aligned>(), std::mem::offset_of!(k::Aligned, d)),
        (12, 4)
    );
    let host = Array1::from_iter((0..4u8).map(|i| k::Aligned {
        a: i,
        b: i + 1,
        c: i + 2,
        _pad0: 0,
        d: 1000 + i as u32,
        e: 200 + i,
        _pad1: [0; 3],
    }));
    let c = const_array_like(&host).unwrap();
    let mut out = Array1::<u32>::zeros(4);
    k::const_aligned()
        .configure(1, 4)
        .launch((&c, Out(&mut out)))
        .unwrap();
    let want: Vec<u32> = host
        .iter()
        .map(|r| r.a as u32 + r.b as u32 + r.c as u32 + r.d + r.e as u32)
        .collect();
    assert_eq!(out.to_vec(), want);
}

#[test]
fn const_mixed_u64_and_f64_arrays() {
    start();
    let ints = Array1::from_iter((0..8u64).map(|i| i << 40));
    let floats = Array1::from_iter((0..8).map(|i| i as f64 / 3.0));
    let (ci, cf) = (
        const_array_like(&ints).unwrap(),
        const_array_like(&floats).unwrap(),
    );
    let (mut a, mut b) = (Array1::zeros(8), Array1::zeros(8));
    k::const_mixed()
        .configure(1, 8)
        .launch((&ci, &cf, Out(&mut a), Out(&mut b)))
        .unwrap();
    assert_eq!(a, ints.mapv(|v| v + 1));
    assert_eq!(b, floats.mapv(|v| v * 2.0));
}

#[test]
fn changing_the_host_array_after_definition_does_not_reach_the_kernel() {
    start();
    let mut host = arr1(&[1i32, 2, 3]);
    let c = const_array_like(&host).unwrap();
    host.fill(-1);
    let mut a = Array1::<i32>::zeros(3);
    k::const_snapshot()
        .configure(1, 3)
        .launch((&c, Out(&mut a)))
        .unwrap();
    assert_eq!(a.to_vec(), [1, 2, 3]);
}

#[test]
fn const_out_of_bounds_faults_naming_constant_memory() {
    start();
    let c = const_array_like(&arr1(&[1u8, 2])).unwrap();
    let s = rumba::stream().unwrap(); // own stream: the legacy one is shared by parallel tests
    k::const_oob()
        .configure(1, 3)
        .stream(&s)
        .launch((&c,))
        .unwrap();
    let (_, thread, msg) = fault(s.synchronize());
    assert_eq!(thread, [2, 0, 0]);
    assert!(
        msg.contains("index (2,) is out of bounds for axis 0 with size 2"),
        "{msg}"
    );
    assert!(msg.contains("constant array"), "{msg}");
}

// ---------------------------------------------------------------- closure_kernels

#[test]
fn closure_kernels_capture_their_constant_arrays() {
    if common::sim_only(
        "a Rust closure kernel, which only the simulator runs: the closure API's constant arrays are captured, not passed",
    ) {
        return;
    }
    let host = Array2::from_shape_fn((3, 4).f(), |(i, j)| (i * 4 + j) as u16);
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<u16>,)>::new("const_captured", move |t, (b,)| {
        let (j, i) = t.grid2();
        b.set((i, j), c.get((i, j)) + c.size() as u16);
    });
    let mut b = Array2::<u16>::zeros((3, 4));
    k.configure(1, (4, 3)).launch((Out(&mut b),)).unwrap();
    assert_eq!(b, host.mapv(|v| v + 12));
    let oob = const_array_like(&arr1(&[1u8, 2])).unwrap();
    let k = Kernel::<()>::new("const_oob", move |t, ()| {
        let _ = oob.get(t.grid1());
    });
    let s = rumba::stream().unwrap();
    k.configure(1, 3).stream(&s).launch(()).unwrap();
    let (_, thread, msg) = fault(s.synchronize());
    assert_eq!(thread, [2, 0, 0]);
    assert!(msg.contains("constant array"), "{msg}");
}
