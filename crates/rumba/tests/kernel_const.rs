//! Constant memory through the launch API (SPEC §5), ported from Numba's `test_constmem`:
//! `const_array_like` copies at definition time, keeps the layout, and cannot be written.

mod common;

use ndarray::{Array1, Array2, Array3, ShapeBuilder, arr1};
use num_complex::Complex;
use rumba::kernel::{Arr, Kernel};
use rumba::{Error, Out, const_array_like};

/// Starts the runtime on the sim, or returns from the calling test after saying it is skipped
/// (`common::sim_only`): these kernels are Rust closures, which only the simulator runs.
macro_rules! sim_only {
    () => {
        if common::sim_only(
            "these kernels are Rust closures without CUDA C or OpenCL C, which only the simulator runs (they reach the GPU backends once written with #[rumba::kernel])",
        ) {
            return;
        }
    };
}

/// The (block, thread, message) of a kernel fault.
fn fault(r: rumba::Result<()>) -> ([u32; 3], [u32; 3], String) {
    match r {
        Err(Error::KernelFault {
            block,
            thread,
            message,
            ..
        }) => (block, thread, message),
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}

// ---------------------------------------------------------------- constant memory

#[test]
fn const_1d_plus_one_over_a_two_by_five_grid() {
    sim_only!();
    let host = Array1::from_iter((0..10).map(|i| i as f32 * 0.5));
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<f32>,)>::new("const1d", move |t, (a,)| {
        let i = t.grid1();
        a.set(i, c.get(i) + 1.0);
    });
    let mut a = Array1::<f32>::zeros(10);
    k.configure(2, 5).launch((Out(&mut a),)).unwrap();
    assert_eq!(a, host.mapv(|v| v + 1.0));
}

#[test]
fn const_empty_array() {
    sim_only!();
    let c = const_array_like(&Array1::<f64>::zeros(0)).unwrap();
    let k = Kernel::<(Arr<usize>,)>::new("const_empty", move |_t, (a,)| a.set(0, c.view().len()));
    let mut a = arr1(&[99usize]);
    k.configure(1, 1).launch((&mut a,)).unwrap();
    assert_eq!(a[0], 0);
}

#[test]
fn const_2d_f_order_i32_copied_exactly() {
    sim_only!();
    let host = Array2::from_shape_fn((5, 7).f(), |(i, j)| (i * 7 + j) as i32 * 3);
    let c = const_array_like(&host).unwrap();
    assert_eq!(c.view().strides(), &[4, 20], "F order kept");
    let k = Kernel::<(Arr<i32>,)>::new("const2d", move |t, (b,)| {
        let (j, i) = t.grid2();
        b.set((i, j), c.get((i, j)));
    });
    let mut b = Array2::<i32>::zeros((5, 7));
    k.configure(1, (7, 5)).launch((Out(&mut b),)).unwrap();
    assert_eq!(b, host);
}

#[test]
fn const_3d_complex64_with_a_555_block() {
    sim_only!();
    let host = Array3::from_shape_fn((5, 5, 5), |(i, j, k)| {
        Complex::new(i as f32 + 0.5, (j * 5 + k) as f32)
    });
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<Complex<f32>>,)>::new("const3d", move |t, (b,)| {
        let i = t.thread_idx();
        let (x, y, z) = (i.x as usize, i.y as usize, i.z as usize);
        b.set((x, y, z), c.get((x, y, z)));
    });
    let mut b = Array3::from_elem((5, 5, 5), Complex::new(0.0f32, 0.0));
    k.configure(1, (5, 5, 5)).launch((Out(&mut b),)).unwrap();
    assert_eq!(b, host);
}

#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Rec {
    x: f64,
    y: i32,
    z: f32,
}
rumba::record!(Rec);

#[test]
fn const_record_fields() {
    sim_only!();
    let host = Array1::from_iter((0..3usize).map(|i| Rec {
        x: i as f64 + 0.25,
        y: -(i as i32),
        z: i as f32 * 2.0,
    }));
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<f64>, Arr<i32>, Arr<f32>)>::new("const_rec", move |t, (x, y, z)| {
        let i = t.grid1();
        let r = c.get(i);
        x.set(i, r.x);
        y.set(i, r.y);
        z.set(i, r.z);
    });
    let (mut x, mut y, mut z) = (Array1::zeros(3), Array1::zeros(3), Array1::zeros(3));
    k.configure(1, 3)
        .launch((Out(&mut x), Out(&mut y), Out(&mut z)))
        .unwrap();
    assert_eq!(x.to_vec(), [0.25, 1.25, 2.25]);
    assert_eq!(y.to_vec(), [0, -1, -2]);
    assert_eq!(z.to_vec(), [0.0, 2.0, 4.0]);
}

/// numpy's aligned record `[('a', u1), ('b', u1), ('c', u1), ('d', u4), ('e', u1)]`, align=True:
/// the padding is explicit, so the record is plain data.
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Aligned {
    a: u8,
    b: u8,
    c: u8,
    _pad0: u8,
    d: u32,
    e: u8,
    _pad1: [u8; 3],
}
rumba::record!(Aligned);

#[test]
fn const_aligned_record() {
    sim_only!();
    assert_eq!(
        (size_of::<Aligned>(), std::mem::offset_of!(Aligned, d)),
        (12, 4)
    );
    let host = Array1::from_iter((0..4u8).map(|i| Aligned {
        a: i,
        b: i + 1,
        c: i + 2,
        _pad0: 0,
        d: 1000 + i as u32,
        e: 200 + i,
        _pad1: [0; 3],
    }));
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<u32>,)>::new("const_aligned", move |t, (out,)| {
        let i = t.grid1();
        let r = c.get(i);
        out.set(i, r.a as u32 + r.b as u32 + r.c as u32 + r.d + r.e as u32);
    });
    let mut out = Array1::<u32>::zeros(4);
    k.configure(1, 4).launch((Out(&mut out),)).unwrap();
    let want: Vec<u32> = host
        .iter()
        .map(|r| r.a as u32 + r.b as u32 + r.c as u32 + r.d + r.e as u32)
        .collect();
    assert_eq!(out.to_vec(), want);
}

#[test]
fn const_mixed_u64_and_f64_arrays() {
    sim_only!();
    let ints = Array1::from_iter((0..8u64).map(|i| i << 40));
    let floats = Array1::from_iter((0..8).map(|i| i as f64 / 3.0));
    let (ci, cf) = (
        const_array_like(&ints).unwrap(),
        const_array_like(&floats).unwrap(),
    );
    let k = Kernel::<(Arr<u64>, Arr<f64>)>::new("const_mixed", move |t, (a, b)| {
        let i = t.grid1();
        a.set(i, ci.get(i) + 1);
        b.set(i, cf.get(i) * 2.0);
    });
    let (mut a, mut b) = (Array1::zeros(8), Array1::zeros(8));
    k.configure(1, 8)
        .launch((Out(&mut a), Out(&mut b)))
        .unwrap();
    assert_eq!(a, ints.mapv(|v| v + 1));
    assert_eq!(b, floats.mapv(|v| v * 2.0));
}

#[test]
fn changing_the_host_array_after_definition_does_not_reach_the_kernel() {
    sim_only!();
    let mut host = arr1(&[1i32, 2, 3]);
    let c = const_array_like(&host).unwrap();
    let k = Kernel::<(Arr<i32>,)>::new("const_snapshot", move |t, (a,)| {
        a.set(t.grid1(), c.get(t.grid1()));
    });
    host.fill(-1);
    let mut a = Array1::<i32>::zeros(3);
    k.configure(1, 3).launch((Out(&mut a),)).unwrap();
    assert_eq!(a.to_vec(), [1, 2, 3]);
}

#[test]
fn const_out_of_bounds_faults_naming_constant_memory() {
    sim_only!();
    let c = const_array_like(&arr1(&[1u8, 2])).unwrap();
    let k = Kernel::<()>::new("const_oob", move |t, ()| {
        let _ = c.get(t.grid1());
    });
    let s = rumba::stream().unwrap(); // own stream: the legacy one is shared by parallel tests
    k.configure(1, 3).stream(&s).launch(()).unwrap();
    let (_, thread, msg) = fault(s.synchronize());
    assert_eq!(thread, [2, 0, 0]);
    assert!(msg.contains("constant array"), "{msg}");
}
