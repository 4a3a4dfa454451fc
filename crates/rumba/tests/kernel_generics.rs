//! Generic kernels and device functions (`fn axpy<T: Float>`, `fn block_sum<T: Number, const
//! TPB: usize>`) on the backend `RUMBA_TEST_BACKEND` names, every test on both of the
//! simulator's engines there: each instance runs its own body and C, results match the
//! hand-written copies bit for bit, instances are cached per type and const value.

mod common;
mod engines;
mod macro_corpus;

use engines::each_engine;
use macro_corpus::generics as g;
use ndarray::{Array1, arr1};
use rumba::In;

fn start() {
    common::start(|_| {});
}

fn ramp<T: Copy>(n: usize, f: impl Fn(usize) -> T) -> Array1<T> {
    Array1::from_iter((0..n).map(f))
}

#[test]
fn generic_axpy_matches_the_hand_written_copies_bit_for_bit() {
    start();
    let n = 1000;
    let x32 = ramp(n, |i| (i as f32).sin());
    let y32 = ramp(n, |i| 1.0 / (i as f32 + 0.5));
    let x64 = x32.mapv(f64::from) * 1.000_000_1;
    let y64 = y32.mapv(f64::from);
    let mut want32 = y32.clone();
    g::axpy_f32()
        .configure(4, 256)
        .launch((0.3f32, In(&x32), &mut want32))
        .unwrap();
    let mut want64 = y64.clone();
    g::axpy_f64()
        .configure(4, 256)
        .launch((0.3f64, In(&x64), &mut want64))
        .unwrap();
    assert_eq!(want32[7], 0.3f32 * x32[7] + y32[7]);
    each_engine(g::axpy::<f32>(), |k| {
        let mut y = y32.clone();
        k.configure(4, 256)
            .launch((0.3f32, In(&x32), &mut y))
            .unwrap();
        assert_eq!(y.mapv(f32::to_bits), want32.mapv(f32::to_bits));
    });
    each_engine(g::axpy::<f64>(), |k| {
        let mut y = y64.clone();
        k.configure(4, 256)
            .launch((0.3f64, In(&x64), &mut y))
            .unwrap();
        assert_eq!(y.mapv(f64::to_bits), want64.mapv(f64::to_bits));
    });
}

#[test]
fn an_instance_runs_on_the_engine_its_hand_written_copy_runs_on() {
    start();
    // The same block form (work-item loop) or the same fallback: an instance is not slower by
    // construction.
    assert_eq!(g::axpy::<f32>().engine(), g::axpy_f32().engine());
    assert_eq!(g::axpy::<f64>().engine(), g::axpy_f64().engine());
    assert_eq!(
        g::axpy_f32().engine(),
        rumba::driver::HostEngine::WorkItemLoops
    );
}

#[test]
fn each_instance_has_its_own_sources_and_is_made_once() {
    let (c32, c64) = (g::axpy::cuda_source::<f32>(), g::axpy::cuda_source::<f64>());
    assert!(
        c32.contains("extern \"C\" __global__ void axpy(float a, rumba_array<float, 1> x"),
        "{c32}"
    );
    assert!(
        c64.contains("extern \"C\" __global__ void axpy(double a, rumba_array<double, 1> x"),
        "{c64}"
    );
    let (o32, o64) = (
        g::axpy::opencl_source::<f32>(),
        g::axpy::opencl_source::<f64>(),
    );
    assert!(
        o32.contains("__kernel void axpy(float a, __global float* x_ptr"),
        "{o32}"
    );
    assert!(
        o64.contains("__kernel void axpy(double a, __global double* x_ptr"),
        "{o64}"
    );
    // The same sources the kernel objects carry, so each backend compiles one program per
    // instance (its cache is keyed by the text).
    let k32 = g::axpy::<f32>();
    assert_eq!(k32.abi().map(|a| a.name), Some("axpy"));
    assert!(std::ptr::eq(k32.abi().unwrap(), g::axpy::abi::<f32>()));
    assert!(!std::ptr::eq(g::axpy::abi::<f32>(), g::axpy::abi::<f64>()));
    // Made once per instance: the same definition every call.
    assert!(std::ptr::eq(g::axpy::<f32>().function(), k32.function()));
    assert!(!std::ptr::eq(g::axpy::<f64>().function(), k32.function()));
    // Const parameters split instances too.
    assert!(!std::ptr::eq(
        g::block_sum::<i32, 32>().function(),
        g::block_sum::<i32, 64>().function()
    ));
    assert!(g::block_sum::cuda_source::<i32, 32>().contains("#define TPB 32ull"));
    assert!(g::block_sum::opencl_source::<i32, 64>().contains("#define TPB 64ul"));
}

#[test]
fn fill_runs_for_every_integer_width() {
    start();
    each_engine(g::fill::<u8>(), |k| {
        let mut out = Array1::<u8>::zeros(5);
        k.configure(1, 8).launch((200u8, &mut out)).unwrap();
        assert_eq!(out, Array1::from_elem(5, 200));
    });
    each_engine(g::fill::<i64>(), |k| {
        let mut out = Array1::<i64>::zeros(5);
        k.configure(1, 8).launch((-(1i64 << 40), &mut out)).unwrap();
        assert_eq!(out, Array1::from_elem(5, -(1i64 << 40)));
    });
    each_engine(g::fill::<usize>(), |k| {
        let mut out = Array1::<usize>::zeros(3);
        k.configure(1, 4).launch((usize::MAX, &mut out)).unwrap();
        assert_eq!(out, Array1::from_elem(3, usize::MAX));
    });
}

#[test]
fn conversions_saturate_per_instance() {
    start();
    let x = arr1(&[1.5, -1.5, 300.0, -300.0, f64::NAN, 1e20]);
    each_engine(g::convert_to::<u8>(), |k| {
        let (mut out, mut top) = (Array1::<u8>::zeros(6), Array1::<u8>::zeros(3));
        k.configure(1, 8)
            .launch((In(&x), &mut out, &mut top))
            .unwrap();
        assert_eq!(out, arr1(&[1, 0, 255, 0, 0, 255]));
        assert_eq!(top, arr1(&[u8::MAX, u8::MIN, 3]));
    });
    each_engine(g::convert_to::<i16>(), |k| {
        let (mut out, mut top) = (Array1::<i16>::zeros(6), Array1::<i16>::zeros(3));
        k.configure(1, 8)
            .launch((In(&x), &mut out, &mut top))
            .unwrap();
        assert_eq!(out, arr1(&[1, -1, 300, -300, 0, i16::MAX]));
        assert_eq!(top, arr1(&[i16::MAX, i16::MIN, 3]));
    });
    each_engine(g::convert_to::<f32>(), |k| {
        let (mut out, mut top) = (Array1::<f32>::zeros(6), Array1::<f32>::zeros(3));
        k.configure(1, 8)
            .launch((In(&x), &mut out, &mut top))
            .unwrap();
        assert_eq!(out.mapv(f32::to_bits), x.mapv(|v| (v as f32).to_bits()));
        assert_eq!(top, arr1(&[f32::MAX, f32::MIN, 3.0]));
    });
}

#[test]
fn generic_device_functions_are_instanced_per_call() {
    start();
    each_engine(g::clamp_all::<u16>(), |k| {
        let mut a = arr1(&[0u16, 5, 10, 65535]);
        k.configure(1, 4).launch((3u16, 9u16, &mut a)).unwrap();
        assert_eq!(a, arr1(&[3, 5, 9, 9]));
    });
    each_engine(g::clamp_all::<f64>(), |k| {
        let mut a = arr1(&[-1.0, 0.25, 2.0, f64::INFINITY]);
        k.configure(1, 4).launch((0.0, 1.0, &mut a)).unwrap();
        assert_eq!(a, arr1(&[0.0, 0.25, 1.0, 1.0]));
    });
    each_engine(g::clamp_mixed(), |k| {
        let mut a = arr1(&[-9, 3, 9]);
        let mut f = arr1(&[-3.0, 0.5, f64::MAX]);
        k.configure(1, 4).launch((&mut a, &mut f)).unwrap();
        assert_eq!(a, arr1(&[-5, 3, 5]));
        assert_eq!(f, arr1(&[-3.0, 1.0, 3.0]));
    });
    // One C function per instance reached: `clamp` for i32 and f64, `twice` for f64.
    let src = g::clamp_mixed::opencl_source();
    for name in ["dev_clamp_i32(", "dev_clamp_f64(", "dev_twice_f64("] {
        assert_eq!(
            src.matches(&format!("static inline int {name}")).count()
                + src.matches(&format!("static inline double {name}")).count(),
            1,
            "{name} in {src}"
        );
    }
}

#[test]
fn const_parameters_size_shared_tiles() {
    start();
    let x = ramp(200, |i| i as i32 - 50);
    let sums =
        |tpb: usize| -> Vec<i32> { x.to_vec().chunks(tpb).map(|c| c.iter().sum()).collect() };
    each_engine(g::block_sum::<i32, 32>(), |k| {
        let mut p = Array1::<i32>::zeros(7);
        k.configure(7, 32).launch((In(&x), &mut p)).unwrap();
        assert_eq!(p.to_vec(), sums(32));
    });
    each_engine(g::block_sum::<i32, 64>(), |k| {
        let mut p = Array1::<i32>::zeros(4);
        k.configure(4, 64).launch((In(&x), &mut p)).unwrap();
        assert_eq!(p.to_vec(), sums(64));
    });
    let xf = x.mapv(f64::from);
    each_engine(g::block_sum::<f64, 64>(), |k| {
        let mut p = Array1::<f64>::zeros(4);
        k.configure(4, 64).launch((In(&xf), &mut p)).unwrap();
        assert_eq!(
            p.to_vec(),
            sums(64).iter().map(|&s| f64::from(s)).collect::<Vec<_>>()
        );
    });
}

#[test]
fn two_type_parameters_and_generic_atomics() {
    start();
    let x = arr1(&[1i64, -2, 3]);
    each_engine(g::scale_into::<i64, f32>(), |k| {
        let mut out = Array1::<f32>::zeros(3);
        k.configure(1, 4)
            .launch((In(&x), 0.5f32, &mut out))
            .unwrap();
        assert_eq!(out, arr1(&[0.5, -1.0, 1.5]));
    });
    let v = ramp(100, |i| (i * 7) as u32);
    each_engine(g::count_into::<f32>(), |k| {
        let mut bins = Array1::<f32>::zeros(5);
        k.configure(1, 128).launch((In(&v), &mut bins)).unwrap();
        assert_eq!(bins.sum(), 100.0);
        assert_eq!(bins, arr1(&[20.0; 5]));
    });
    each_engine(g::count_into::<u64>(), |k| {
        let mut bins = Array1::<u64>::zeros(3);
        k.configure(1, 128).launch((In(&v), &mut bins)).unwrap();
        assert_eq!(bins, arr1(&[34, 33, 33]));
    });
}
