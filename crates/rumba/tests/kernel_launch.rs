//! End-to-end kernel tests through the launch API (SPEC §5), ported from Numba's CUDA test suite:
//! device arrays, host arrays with automatic transfers, scalars, shared / dynamic shared / local
//! memory (constant memory: `kernel_const.rs`), barriers with values, atomics, faults reported at
//! synchronization, streams.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use half::f16;
use ndarray::{Array1, Array2, arr1};
use num_complex::Complex;
use rumba::array::Order;
use rumba::kernel::{Arr, GlobalView, Kernel, Predicate, Scalar, Slice, ThreadCtx, auto_transfers};
use rumba::{Error, In, InOut, Out};

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

fn legacy() -> rumba::Stream {
    rumba::legacy_default_stream().unwrap()
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

// ---------------------------------------------------------------- shared memory

#[test]
fn shared_array_sizes() {
    sim_only!();
    let k = Kernel::<(Arr<usize>,)>::new("sizes", |t, (out,)| {
        out.set(0, t.shared_array::<f32>(2).size());
        out.set(1, t.shared_array::<f32>((2, 3)).size());
        out.set(2, t.shared_array::<f32>((2, 3, 4)).size());
        out.set(3, t.shared_array::<f16>(2).size());
        out.set(4, t.shared_array::<f16>((2, 3)).size());
        out.set(5, t.shared_array::<f16>((2, 3, 4)).size());
    });
    let mut sizes = Array1::<usize>::zeros(6);
    k.configure(1, 1).launch((Out(&mut sizes),)).unwrap();
    assert_eq!(sizes.to_vec(), [2, 6, 24, 2, 6, 24]);
}

#[test]
fn thread_zero_fills_shared_then_all_read() {
    sim_only!();
    let k = Kernel::<(Arr<f32>,)>::new("fill_then_read", |t, (out,)| {
        let s = t.shared_array::<f32>(32);
        if t.thread_idx().x == 0 {
            for i in 0..32 {
                s.set(i, i as f32 * 1.5);
            }
        }
        t.syncthreads();
        let i = t.thread_idx().x as usize;
        out.set(t.grid1(), s.get(31 - i));
    });
    let d = rumba::device_array::<f32, _>(64, Order::C).unwrap();
    k.configure(2, 32).launch((&d,)).unwrap();
    let got = d.copy_to_host().unwrap();
    for g in 0..64 {
        assert_eq!(got[g], (31 - g % 32) as f32 * 1.5);
    }
}

#[test]
fn two_d_shared_holds_ratios() {
    sim_only!();
    let k = Kernel::<(Arr<f32>,)>::new("shared2d", |t, (out,)| {
        let s = t.shared_array::<f32>((4, 8));
        let (x, y) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
        s.set((y, x), x as f32 / (y + 1) as f32);
        t.syncthreads();
        out.set((y, x), s.get((y, 7 - x)));
    });
    let d = rumba::device_array::<f32, _>((4, 8), Order::C).unwrap();
    k.configure(1, (8, 4)).launch((&d,)).unwrap();
    let got = d.copy_to_host().unwrap();
    for y in 0..4 {
        for x in 0..8 {
            assert_eq!(got[[y, x]], (7 - x) as f32 / (y + 1) as f32);
        }
    }
}

// ---------------------------------------------------------------- dynamic shared memory

#[test]
fn dynamic_shared_fifty_floats() {
    sim_only!();
    let k = Kernel::<(Arr<f32>,)>::new("dyn50", |t, (out,)| {
        let sm = t.dynamic_shared::<f32>();
        let i = t.thread_idx().x as usize;
        sm.set(i, 2.0 * i as f32);
        t.syncthreads();
        out.set(i, sm.get(i));
    });
    let mut out = Array1::<f32>::zeros(50);
    k.configure(1, 50)
        .dynamic_shared_bytes(50 * 4)
        .launch((Out(&mut out),))
        .unwrap();
    assert_eq!(
        out.to_vec(),
        (0..50).map(|i| 2.0 * i as f32).collect::<Vec<_>>()
    );
}

/// Numba's `_test_dynshared_slice`: launch `[1, 1]` with `len(expected)` int32s of dynamic
/// shared memory through a real launch and compare the output array.
fn dynshared_case(
    expected: &[i32],
    body: impl Fn(&ThreadCtx<'_>, &GlobalView<'_, i32>) + Send + Sync + 'static,
) {
    let k = Kernel::<(Arr<i32>,)>::new("dynshared", move |t, (x,)| body(t, x));
    let d = rumba::device_array::<i32, _>(expected.len(), Order::C).unwrap();
    k.configure(1, 1)
        .dynamic_shared_bytes(4 * expected.len())
        .launch((&d,))
        .unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), expected);
}

#[test]
fn dynshared_slice_write_and_read() {
    sim_only!();
    dynshared_case(&[1, 2], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
        sm1.set(0, 1);
        sm2.set(0, 2);
        x.set(0, d.get(0));
        x.set(1, d.get(1));
    });
    dynshared_case(&[1, 2], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..2));
        d.set(0, 1);
        d.set(1, 2);
        x.set(0, sm1.get(0));
        x.set(1, sm2.get(0));
    });
}

#[test]
fn dynshared_slice_diff_sizes_and_overlap() {
    sim_only!();
    dynshared_case(&[1, 2, 3], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..1), d.slice(1..3));
        for i in 0..3 {
            d.set(i, i as i32 + 1);
        }
        x.set(0, sm1.get(0));
        x.set(1, sm2.get(0));
        x.set(2, sm2.get(1));
    });
    dynshared_case(&[1, 2, 2, 3, 4], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(0..2), d.slice(1..4));
        for i in 0..4 {
            d.set(i, i as i32 + 1);
        }
        x.set(0, sm1.get(0));
        x.set(1, sm1.get(1));
        x.set(2, sm2.get(0));
        x.set(3, sm2.get(1));
        x.set(4, sm2.get(2));
    });
}

#[test]
fn dynshared_slice_gaps_backwards_and_strides() {
    sim_only!();
    dynshared_case(&[99, 1, 2, 99, 3, 4, 99], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let (sm1, sm2) = (d.slice(1..3), d.slice(4..6));
        for i in 0..7 {
            d.set(i, 99);
        }
        sm1.set(0, 1);
        sm1.set(1, 2);
        sm2.set(0, 3);
        sm2.set(1, 4);
        for i in 0..7 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[2, 1, 4, 3], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::new(Some(1), None, -1));
        let sm2 = d.slice(Slice::new(Some(3), Some(1), -1));
        sm1.set(0, 1);
        sm1.set(1, 2);
        sm2.set(0, 3);
        sm2.set(1, 4);
        for i in 0..4 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[1, 99, 2, 99, 3, 99], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::from(..).step_by(2));
        for i in 0..6 {
            d.set(i, 99);
        }
        for i in 0..3 {
            sm1.set(i, i as i32 + 1);
        }
        for i in 0..6 {
            x.set(i, d.get(i));
        }
    });
    dynshared_case(&[99, 3, 99, 2, 99, 1], |t, x| {
        let d = t.dynamic_shared::<i32>();
        let sm1 = d.slice(Slice::new(Some(-1), None, -2));
        for i in 0..6 {
            d.set(i, 99);
        }
        for i in 0..3 {
            sm1.set(i, i as i32 + 1);
        }
        for i in 0..6 {
            x.set(i, d.get(i));
        }
    });
}

#[test]
fn dynshared_two_halves_over_many_blocks() {
    sim_only!();
    // Numba issue 5073 through a launch: each block stages its chunk through two halves.
    let k = Kernel::<(Arr<i64>, Arr<i64>)>::new("halves", |t, (x, y)| {
        let d = t.dynamic_shared::<i64>();
        let half = d.len() / 2;
        let (lo, hi) = (d.slice(0..half as isize), d.slice(half as isize..));
        let (b, tid) = (t.block_idx().x as usize, t.thread_idx().x as usize);
        let base = b * 2 * half;
        if tid < half {
            lo.set(tid, x.get(base + tid));
            hi.set(tid, x.get(base + half + tid));
        }
        t.syncthreads();
        if tid == 0 {
            for i in 0..2 * half {
                y.set(base + i, d.get(i));
            }
        }
    });
    let x = Array1::from_iter(0..1024i64);
    let mut y = Array1::<i64>::zeros(1024);
    k.configure(64, 16)
        .dynamic_shared_bytes(16 * 8)
        .launch((In(&x), Out(&mut y)))
        .unwrap();
    assert_eq!(x, y);
}

// ---------------------------------------------------------------- barriers with values

#[test]
fn syncthreads_count_over_72_with_two_zeros() {
    sim_only!();
    let k = Kernel::<(Arr<i32>, Arr<i32>)>::new("count", |t, (input, out)| {
        let i = t.thread_idx().x as usize;
        out.set(i, t.syncthreads_count(input.get(i)));
    });
    let mut input = Array1::<i32>::ones(72);
    input[31] = 0;
    input[42] = 0;
    let mut out = Array1::<i32>::zeros(72);
    k.configure(1, 72).launch((&input, Out(&mut out))).unwrap();
    assert_eq!(out.to_vec(), vec![70; 72]);
}

fn and_or<T: rumba::array::element::Element + bytemuck::Pod + Predicate + Sync>(
    input: &Array1<T>,
) -> (Vec<i32>, Vec<i32>) {
    let k = Kernel::<(Arr<T>, Arr<i32>, Arr<i32>)>::new("and_or", |t, (x, a, o)| {
        let i = t.thread_idx().x as usize;
        a.set(i, t.syncthreads_and(x.get(i)));
        o.set(i, t.syncthreads_or(x.get(i)));
    });
    let n = input.len();
    let (mut a, mut o) = (Array1::from_elem(n, -1), Array1::from_elem(n, -1));
    k.configure(1, n as u32)
        .launch((input, &mut a, &mut o))
        .unwrap();
    (a.to_vec(), o.to_vec())
}

#[test]
fn syncthreads_and_or_for_i16_i32_i64() {
    sim_only!();
    fn check<T>()
    where
        T: rumba::array::element::Element + bytemuck::Pod + Predicate + Sync + From<i8>,
    {
        let n = 100;
        let ones = Array1::from_elem(n, T::from(1));
        let zeros = Array1::from_elem(n, T::from(0));
        let mut one_zero = ones.clone();
        one_zero[57] = T::from(0);
        let mut one_one = zeros.clone();
        one_one[3] = T::from(-5);
        assert_eq!(and_or(&ones), (vec![1; n], vec![1; n]));
        assert_eq!(and_or(&zeros), (vec![0; n], vec![0; n]));
        assert_eq!(and_or(&one_zero), (vec![0; n], vec![1; n]));
        assert_eq!(and_or(&one_one), (vec![0; n], vec![1; n]));
    }
    check::<i16>();
    check::<i32>();
    check::<i64>();
}

// ---------------------------------------------------------------- local memory

#[test]
fn local_array_of_1000_i32_copies_a_to_b() {
    sim_only!();
    let k = Kernel::<(Arr<i32>, Arr<i32>)>::new("local_copy", |t, (a, b)| {
        let l = t.local_array::<i32>(1000);
        for i in 0..1000 {
            l.set(i, a.get(i));
        }
        for i in 0..1000 {
            b.set(i, l.get(i));
        }
    });
    let a = Array1::from_iter((0..1000).map(|i| i * 3 - 7));
    let mut b = Array1::<i32>::zeros(1000);
    k.configure(1, 1).launch((In(&a), Out(&mut b))).unwrap();
    assert_eq!(a, b);
}

#[test]
fn local_complex128() {
    sim_only!();
    let k = Kernel::<(Arr<Complex<f64>>,)>::new("local_c128", |t, (o,)| {
        let i = t.grid1();
        let l = t.local_array::<Complex<f64>>((2, 5));
        for k in 0..5 {
            l.set((0, k), Complex::new(i as f64, k as f64));
        }
        t.syncthreads();
        let mut acc = Complex::new(0.0, 0.0);
        for k in 0..5 {
            l.set((1, k), l.get((0, k)) * Complex::new(0.0, 1.0));
            acc += l.get((1, k));
        }
        o.set(i, acc);
    });
    let mut out = Array1::from_elem(64, Complex::new(0.0f64, 0.0));
    k.configure(2, 32).launch((Out(&mut out),)).unwrap();
    for (i, z) in out.iter().enumerate() {
        assert_eq!(*z, Complex::new(-10.0, 5.0 * i as f64));
    }
}

// ---------------------------------------------------------------- atomics

#[test]
fn atomics_from_every_thread_of_a_large_grid_give_exact_totals() {
    sim_only!();
    let k = Kernel::<(Arr<u64>, Arr<i32>, Arr<f64>, Arr<u32>)>::new(
        "atomics",
        |t, (sum, minmax, fsum, bits)| {
            let i = t.grid1();
            sum.atomic_add(0, i as u64);
            minmax.atomic_max(0, i as i32);
            minmax.atomic_min(1, -(i as i32));
            fsum.atomic_add(0, 0.5);
            bits.atomic_or(0, 1 << (i % 32));
            bits.atomic_inc(1, u32::MAX);
        },
    );
    let n: usize = 1024 * 256;
    let sum = rumba::to_device(&[0u64]).unwrap();
    let minmax = rumba::to_device(&[i32::MIN, i32::MAX]).unwrap();
    let fsum = rumba::to_device(&[0.0f64]).unwrap();
    let bits = rumba::to_device(&[0u32, 0]).unwrap();
    k.configure(1024, 256)
        .launch((&sum, &minmax, &fsum, &bits))
        .unwrap();
    assert_eq!(
        sum.copy_to_host().unwrap()[0],
        (n as u64 - 1) * n as u64 / 2
    );
    assert_eq!(
        minmax.copy_to_host().unwrap().to_vec(),
        [n as i32 - 1, -(n as i32 - 1)]
    );
    assert_eq!(fsum.copy_to_host().unwrap()[0], n as f64 * 0.5);
    assert_eq!(bits.copy_to_host().unwrap().to_vec(), [u32::MAX, n as u32]);
}

#[test]
fn cas_based_max() {
    sim_only!();
    let k = Kernel::<(Arr<f64>, Arr<f64>)>::new("cas_max", |t, (res, ary)| {
        let v = ary.get(t.grid1());
        let mut old = res.get(0);
        while old < v {
            let seen = res.atomic_cas(0, old, v);
            if seen == old {
                break;
            }
            old = seen;
        }
    });
    let ary = Array1::from_iter((0..4096).map(|i| ((i * 7919) % 4096) as f64 - 100.0));
    let mut res = arr1(&[f64::MIN]);
    k.configure(16, 256).launch((&mut res, In(&ary))).unwrap();
    assert_eq!(res[0], 3995.0);
}

// ---------------------------------------------------------------- faults

static STARTED: AtomicUsize = AtomicUsize::new(0);
static ENDED: AtomicUsize = AtomicUsize::new(0);
struct Census;
impl Census {
    fn new() -> Self {
        STARTED.fetch_add(1, Ordering::SeqCst);
        Census
    }
}
impl Drop for Census {
    fn drop(&mut self) {
        ENDED.fetch_add(1, Ordering::SeqCst);
    }
}

fn two_syncs() -> Kernel<(Arr<i32>,)> {
    Kernel::<(Arr<i32>,)>::new("two_syncs", |t, (a,)| {
        let _c = Census::new();
        let i = t.thread_idx().x as usize;
        a.set(i, i as i32);
        t.syncthreads();
        t.syncthreads();
    })
}

#[test]
fn two_syncthreads_complete_at_one_by_three_and_fail_at_one_by_six() {
    sim_only!();
    let k = two_syncs();
    let a = rumba::device_array::<i32, _>(3, Order::C).unwrap();
    k.configure(1, 3).launch((&a,)).unwrap();
    legacy().synchronize().unwrap();
    assert_eq!(a.copy_to_host().unwrap().to_vec(), [0, 1, 2]);

    let s = rumba::stream().unwrap();
    let before = (STARTED.load(Ordering::SeqCst), ENDED.load(Ordering::SeqCst));
    k.configure(1, 6).stream(&s).launch((&a,)).unwrap(); // queued: no error yet
    let err = s.synchronize().unwrap_err();
    let text = err.to_string();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!((block, thread), ([0, 0, 0], [3, 0, 0]));
    assert!(text.contains("kernel 'two_syncs'"), "{text}");
    assert!(
        msg.contains("index (3,) is out of bounds for axis 0 with size 3"),
        "{msg}"
    );
    assert!(msg.contains("global array at device address 0x8"), "{msg}");
    assert!(msg.contains("(device address 0x8"), "{msg}");
    let started = STARTED.load(Ordering::SeqCst) - before.0;
    let ended = ENDED.load(Ordering::SeqCst) - before.1;
    assert!(started >= 4, "threads 0..=3 ran");
    assert_eq!(
        started, ended,
        "every started thread was unwound: nothing left behind"
    );

    // The stream and the runtime keep working.
    s.synchronize().unwrap();
    let b = rumba::device_array::<i32, _>(6, Order::C).unwrap();
    k.configure(1, 6).stream(&s).launch((&b,)).unwrap();
    s.synchronize().unwrap();
    assert_eq!(b.copy_to_host().unwrap().to_vec(), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn a_fault_with_host_arrays_is_reported_by_the_launch() {
    sim_only!();
    let k = Kernel::<(Arr<i32>,)>::new("panics", |t, (a,)| {
        if t.grid1() == 5 {
            panic!("thread five gives up");
        }
        a.set(t.grid1(), 1);
    });
    let mut a = Array1::<i32>::zeros(8);
    let s = rumba::stream().unwrap(); // own stream: the legacy one is shared by parallel tests
    let (_, thread, msg) = fault(k.configure(2, 4).stream(&s).launch((&mut a,)));
    assert_eq!(thread, [1, 0, 0]);
    assert!(msg.contains("thread five gives up"), "{msg}");
    assert_eq!(a.to_vec(), [0; 8], "the failed launch copied nothing back");
    let mut ok = Array1::<i32>::zeros(5);
    let k2 = Kernel::<(Arr<i32>,)>::new("fine", |t, (a,)| a.set(t.grid1(), 2));
    k2.configure(1, 5).stream(&s).launch((&mut ok,)).unwrap();
    assert_eq!(ok.to_vec(), [2; 5]);
}

#[test]
fn bad_configurations_and_arguments_are_typed_errors() {
    sim_only!();
    let k = Kernel::<(Arr<f32>,)>::new("k", |_t, _a| {});
    let d = rumba::device_array::<f32, _>(4, Order::C).unwrap();
    let e = k.configure(0, 32).launch((&d,)).unwrap_err();
    assert!(
        matches!(e, Error::InvalidArgument(ref m) if m.contains("grid dimension x is 0")),
        "{e}"
    );
    let e = k.configure(1, 4096).launch((&d,)).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
    let e = k
        .configure(1, 1)
        .dynamic_shared_bytes(1 << 20)
        .launch((&d,))
        .unwrap_err();
    assert!(e.to_string().contains("dynamic shared memory"), "{e}");
}

// ---------------------------------------------------------------- arguments, streams, lifetimes

#[test]
fn arrays_index_with_their_own_shape_and_strides() {
    sim_only!();
    // A transposed, sliced view: the kernel sees shape (3, 2) and the view's byte strides.
    let host = Array2::from_shape_fn((4, 3), |(i, j)| (10 * i + j) as i64);
    let d = rumba::to_device(&host).unwrap();
    let v = d.t().slice(ndarray::s![.., 1..3]).unwrap();
    assert_eq!(v.shape(), &[3, 2]);
    let k = Kernel::<(Arr<i64>, Arr<i64>)>::new("strided", |t, (v, out)| {
        let (x, y) = t.grid2();
        if y < v.shape()[0] && x < v.shape()[1] {
            out.set((y, x), v.get((y, x)) + 1000);
        }
    });
    let mut out = Array2::<i64>::zeros((3, 2));
    k.configure(1, (2, 3)).launch((&v, Out(&mut out))).unwrap();
    assert_eq!(
        out,
        host.t().slice(ndarray::s![.., 1..3]).mapv(|x| x + 1000)
    );
}

#[test]
fn scalars_and_records_are_passed_by_value() {
    sim_only!();
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    #[repr(C)]
    struct Line {
        slope: f64,
        offset: f64,
    }
    let k = Kernel::<(Arr<f64>, Scalar<Line>, u8, Complex<f32>)>::new(
        "scalars",
        |t, (a, line, k, z)| {
            let i = t.grid1();
            a.set(
                i,
                line.slope * i as f64 + line.offset + *k as f64 + z.im as f64,
            );
        },
    );
    let a = rumba::device_array::<f64, _>(4, Order::C).unwrap();
    let line = Line {
        slope: 2.0,
        offset: 0.5,
    };
    k.configure(1, 4)
        .launch((&a, line, 3u8, Complex::new(0.0f32, 10.0)))
        .unwrap();
    assert_eq!(a.copy_to_host().unwrap().to_vec(), [13.5, 15.5, 17.5, 19.5]);
}

#[test]
fn in_out_inout_transfer_counts() {
    sim_only!();
    let k = Kernel::<(Arr<f32>,)>::new("inc", |t, (a,)| a.set(t.grid1(), a.get(t.grid1()) + 1.0));
    let mut host = Array1::from_elem(16, 1.0f32);

    let before = auto_transfers();
    k.configure(1, 16).launch((InOut(&mut host),)).unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!(
        (d.to_device, d.to_host, d.bytes_to_device, d.bytes_to_host),
        (1, 1, 64, 64)
    );
    assert_eq!(host[0], 2.0);

    let before = auto_transfers();
    k.configure(1, 16).launch((&mut host,)).unwrap(); // the default: InOut
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (1, 1));
    assert_eq!(host[0], 3.0);

    let before = auto_transfers();
    k.configure(1, 16).launch((In(&host),)).unwrap();
    legacy().synchronize().unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (1, 0));
    assert_eq!(host[0], 3.0, "In never copies back");

    let before = auto_transfers();
    k.configure(1, 16).launch((Out(&mut host),)).unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (0, 1));
    assert_eq!(host[0], 1.0, "Out copies nothing in: the kernel saw zeros");

    let dev = rumba::to_device(&host).unwrap();
    let before = auto_transfers();
    k.configure(1, 16).launch((&dev,)).unwrap();
    legacy().synchronize().unwrap();
    assert_eq!(
        auto_transfers().since(&before),
        Default::default(),
        "device arrays: none"
    );
}

/// A kernel's default transfer policy (Numba's `In` by configuration) decides what a bare
/// `&mut` host array means; the wrappers still choose per argument.
#[test]
fn a_kernels_transfer_policy_governs_bare_host_arrays() {
    use rumba::kernel::HostTransfer;
    sim_only!();
    let inc = Kernel::<(Arr<f32>,)>::new("inc", |t, (a,)| a.set(t.grid1(), a.get(t.grid1()) + 1.0));
    let mut host = Array1::from_elem(16, 1.0f32);

    let read_only = inc.clone().with_host_transfer(HostTransfer::In);
    assert_eq!(
        (inc.host_transfer(), read_only.host_transfer()),
        (HostTransfer::InOut, HostTransfer::In)
    );
    let before = auto_transfers();
    read_only.configure(1, 16).launch((&mut host,)).unwrap();
    legacy().synchronize().unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host, d.bytes_to_device), (1, 0, 64));
    assert_eq!(
        host[0], 1.0,
        "policy In: the kernel's writes are not copied back"
    );
    // An explicit wrapper overrides the policy.
    read_only
        .configure(1, 16)
        .launch((InOut(&mut host),))
        .unwrap();
    assert_eq!(host[0], 2.0);

    let write_only = inc.clone().with_host_transfer(HostTransfer::Out);
    let before = auto_transfers();
    write_only.configure(1, 16).launch((&mut host,)).unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (0, 1));
    assert_eq!(
        host[0], 1.0,
        "policy Out: nothing copied in, the kernel saw zeros"
    );
    // A shared host array can only be read: copied in whatever the policy.
    let before = auto_transfers();
    write_only.configure(1, 16).launch((&host,)).unwrap();
    legacy().synchronize().unwrap();
    assert_eq!(auto_transfers().since(&before).to_device, 1);

    // The original kernel keeps the conservative default.
    inc.configure(1, 16).launch((&mut host,)).unwrap();
    assert_eq!(host[0], 2.0);
}

#[test]
fn launches_are_asynchronous_and_keep_their_arrays_alive() {
    sim_only!();
    let k = Kernel::<(Arr<u32>, Arr<u32>)>::new("copy", |t, (src, dst)| {
        dst.set(t.grid1(), src.get(t.grid1()) * 2);
    });
    let src = rumba::to_device(&(0..256u32).collect::<Vec<_>>()).unwrap();
    let dst = rumba::device_array::<u32, _>(256, Order::C).unwrap();
    let keep = dst.clone();
    // Hold the stream in a callback (nothing may wait on the legacy stream meanwhile: it would
    // wait for this blocking stream).
    let gate = Arc::new(std::sync::Barrier::new(2));
    let s = rumba::stream().unwrap();
    let g = Arc::clone(&gate);
    s.add_callback(move |_, _| {
        g.wait();
    })
    .unwrap();
    k.configure(1, 256).stream(&s).launch((&src, &dst)).unwrap();
    assert!(!s.query().unwrap(), "the kernel waits behind the callback");
    drop((src, dst)); // the queued kernel keeps both buffers alive
    gate.wait();
    s.synchronize().unwrap();
    assert_eq!(keep.copy_to_host().unwrap()[255], 510);
}

#[test]
fn launch_order_on_one_stream_and_the_legacy_stream() {
    sim_only!();
    let add =
        Kernel::<(Arr<i64>, i64)>::new("add", |t, (a, v)| a.set(t.grid1(), a.get(t.grid1()) + *v));
    let mul =
        Kernel::<(Arr<i64>, i64)>::new("mul", |t, (a, v)| a.set(t.grid1(), a.get(t.grid1()) * *v));
    let a = rumba::to_device(&[1i64; 64]).unwrap();
    for _ in 0..10 {
        add.configure(2, 32).launch((&a, 1)).unwrap();
        mul.configure(2, 32).launch((&a, 2)).unwrap();
    }
    let mut want = 1i64;
    for _ in 0..10 {
        want = (want + 1) * 2;
    }
    assert!(a.copy_to_host().unwrap().iter().all(|&x| x == want));
}

#[test]
fn a_kernel_without_sim_code_is_refused() {
    sim_only!();
    use rumba::driver::{CudaKernelSource, KernelFunction, KernelLaunch, StreamHandle};
    let f = KernelFunction::new("cuda_only").with_form(CudaKernelSource::new("", "cuda_only"));
    let launch = KernelLaunch {
        function: &f,
        grid: [1; 3],
        block: [1; 3],
        dynamic_shared_bytes: 0,
        args: &[],
    };
    let drv = rumba::backend_driver().unwrap();
    // SAFETY: no arguments.
    let e = unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)), "{e}");
    let m = e.to_string();
    for part in [
        "kernel 'cuda_only'",
        "no Rust body",
        "sim backend",
        "#[rumba::kernel]",
    ] {
        assert!(m.contains(part), "{m:?} lacks {part:?}");
    }
}

#[test]
fn array_arguments_outside_their_allocation_are_refused_when_queued() {
    sim_only!();
    use rumba::driver::{KernelArg, KernelArrayArg, StreamHandle};
    let k = Kernel::<(Arr<u8>,)>::new("k", |_t, _a| {});
    let d = rumba::device_array::<u8, _>(16, Order::C).unwrap();
    let arg = KernelArg::Array(KernelArrayArg {
        ptr: d.device_ptr(),
        itemsize: 1,
        shape: vec![17],
        strides: vec![1],
        writable: true,
    });
    let launch = rumba::driver::KernelLaunch {
        function: k.function(),
        grid: [1; 3],
        block: [1; 3],
        dynamic_shared_bytes: 0,
        args: std::slice::from_ref(&arg),
    };
    let drv = rumba::backend_driver().unwrap();
    // SAFETY: refused before anything runs.
    let e = unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap_err();
    assert!(e.to_string().contains("argument 0 of kernel 'k'"), "{e}");
}
