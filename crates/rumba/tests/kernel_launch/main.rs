//! End-to-end kernel tests through the launch API (docs/design/behaviour.md §5), ported from
//! Numba's CUDA test suite: device arrays, host arrays with automatic transfers, scalars, shared /
//! dynamic shared / local memory (constant memory: `kernel_const.rs`), barriers with values,
//! atomics, faults reported at synchronization, streams.
//!
//! The kernels are `#[rumba::kernel]` functions (`ported_kernels::launch`), so every test runs on
//! the backend `RUMBA_TEST_BACKEND` names: the simulator, OpenCL or CUDA. Where a backend reports
//! something differently (the simulator names device addresses in its faults; a GPU's threads
//! race to record the first fault) the test says which backend it checks. The `closure_kernels`
//! module keeps the low-level closure API (`Kernel::new`) for what only that API has (values a
//! thread holds, a Rust panic); those tests run on the simulator only and say why elsewhere.

#[path = "../common/mod.rs"]
mod common;
#[path = "../engines/mod.rs"]
mod engines;

use common::fault;
#[path = "../ported_kernels/mod.rs"]
mod ported_kernels;

use std::sync::Arc;

use ndarray::{Array1, Array2, arr1};
use num_complex::Complex;
use rumba::Order;
use rumba::config::BackendChoice;
use rumba::kernel::{Arr, Kernel, auto_transfers};
use rumba::{Error, In, InOut, Out};

use ported_kernels::launch as k;

fn start() {
    common::start(|_| {});
}

fn legacy() -> rumba::Stream {
    rumba::legacy_default_stream().unwrap()
}

fn on_sim() -> bool {
    common::test_backend() == BackendChoice::Sim
}

// ---------------------------------------------------------------- shared memory

#[test]
fn shared_array_sizes() {
    start();
    let mut sizes = Array1::<usize>::zeros(6);
    k::shared_sizes()
        .configure(1, 1)
        .launch((Out(&mut sizes),))
        .unwrap();
    assert_eq!(sizes.to_vec(), [2, 6, 24, 2, 6, 24]);
}

#[test]
fn thread_zero_fills_shared_then_all_read() {
    start();
    let d = rumba::device_array::<f32, _>(64, Order::C).unwrap();
    k::fill_then_read().configure(2, 32).launch((&d,)).unwrap();
    let got = d.copy_to_host().unwrap();
    for g in 0..64 {
        assert_eq!(got[g], (31 - g % 32) as f32 * 1.5);
    }
}

#[test]
fn two_d_shared_holds_ratios() {
    start();
    let d = rumba::device_array::<f32, _>((4, 8), Order::C).unwrap();
    k::shared2d().configure(1, (8, 4)).launch((&d,)).unwrap();
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
    start();
    let mut out = Array1::<f32>::zeros(50);
    k::dyn50()
        .configure(1, 50)
        .dynamic_shared_bytes(50 * 4)
        .launch((Out(&mut out),))
        .unwrap();
    assert_eq!(
        out.to_vec(),
        (0..50).map(|i| 2.0 * i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn dynshared_two_halves_over_many_blocks() {
    start();
    // Numba issue 5073 through a launch: each block stages its chunk through two halves.
    let x = Array1::from_iter(0..1024i64);
    let mut y = Array1::<i64>::zeros(1024);
    k::halves()
        .configure(64, 16)
        .dynamic_shared_bytes(16 * 8)
        .launch((In(&x), Out(&mut y)))
        .unwrap();
    assert_eq!(x, y);
}

/// Numba's `_test_dynshared_slice`: launch `[1, 1]` with `len(expected)` int32s of dynamic
/// shared memory and compare the output array.
/// On the simulator, on both of its engines.
fn dynshared_case(kernel: Kernel<(Arr<i32>,)>, expected: &[i32]) {
    engines::each_engine(kernel, |k| {
        let d = rumba::device_array::<i32, _>(expected.len(), Order::C).unwrap();
        k.configure(1, 1)
            .dynamic_shared_bytes(4 * expected.len())
            .launch((&d,))
            .unwrap();
        assert_eq!(d.copy_to_host().unwrap().to_vec(), expected, "{}", k.name());
    });
}

#[test]
fn dynshared_slice_write_and_read() {
    start();
    dynshared_case(ported_kernels::dynshared::dynshared_slice_write(), &[1, 2]);
    dynshared_case(ported_kernels::dynshared::dynshared_slice_read(), &[1, 2]);
}

#[test]
fn dynshared_slice_diff_sizes_and_overlap() {
    start();
    dynshared_case(
        ported_kernels::dynshared::dynshared_slice_diff_sizes(),
        &[1, 2, 3],
    );
    dynshared_case(
        ported_kernels::dynshared::dynshared_slice_overlap(),
        &[1, 2, 2, 3, 4],
    );
}

#[test]
fn dynshared_slice_gaps_backwards_and_strides() {
    start();
    use ported_kernels::dynshared as ds;
    dynshared_case(ds::dynshared_slice_gaps(), &[99, 1, 2, 99, 3, 4, 99]);
    dynshared_case(ds::dynshared_slice_backwards(), &[2, 1, 4, 3]);
    dynshared_case(ds::dynshared_slice_strides(), &[1, 99, 2, 99, 3, 99]);
    dynshared_case(
        ds::dynshared_slice_negative_strides(),
        &[99, 3, 99, 2, 99, 1],
    );
}

// ---------------------------------------------------------------- barriers with values

#[test]
fn syncthreads_count_over_72_with_two_zeros() {
    start();
    let mut input = Array1::<i32>::ones(72);
    input[31] = 0;
    input[42] = 0;
    let mut out = Array1::<i32>::zeros(72);
    k::count()
        .configure(1, 72)
        .launch((&input, Out(&mut out)))
        .unwrap();
    assert_eq!(out.to_vec(), vec![70; 72]);
}

fn and_or<T>(
    kernel: Kernel<(Arr<T>, Arr<i32>, Arr<i32>)>,
    input: &Array1<T>,
) -> (Vec<i32>, Vec<i32>)
where
    T: rumba::kernel::KernelElement,
{
    let n = input.len();
    let (mut a, mut o) = (Array1::from_elem(n, -1), Array1::from_elem(n, -1));
    kernel
        .configure(1, n as u32)
        .launch((input, &mut a, &mut o))
        .unwrap();
    (a.to_vec(), o.to_vec())
}

#[test]
fn syncthreads_and_or_for_i16_i32_i64() {
    start();
    fn check<T>(kernel: Kernel<(Arr<T>, Arr<i32>, Arr<i32>)>)
    where
        T: rumba::kernel::KernelElement + From<i8>,
    {
        let n = 100;
        let ones = Array1::from_elem(n, T::from(1));
        let zeros = Array1::from_elem(n, T::from(0));
        let mut one_zero = ones.clone();
        one_zero[57] = T::from(0);
        let mut one_one = zeros.clone();
        one_one[3] = T::from(-5);
        assert_eq!(and_or(kernel.clone(), &ones), (vec![1; n], vec![1; n]));
        assert_eq!(and_or(kernel.clone(), &zeros), (vec![0; n], vec![0; n]));
        assert_eq!(and_or(kernel.clone(), &one_zero), (vec![0; n], vec![1; n]));
        assert_eq!(and_or(kernel, &one_one), (vec![0; n], vec![1; n]));
    }
    check::<i16>(k::and_or_i16());
    check::<i32>(k::and_or_i32());
    check::<i64>(k::and_or_i64());
}

// ---------------------------------------------------------------- local memory

#[test]
fn local_array_of_1000_i32_copies_a_to_b() {
    start();
    let a = Array1::from_iter((0..1000).map(|i| i * 3 - 7));
    let mut b = Array1::<i32>::zeros(1000);
    k::local_copy()
        .configure(1, 1)
        .launch((In(&a), Out(&mut b)))
        .unwrap();
    assert_eq!(a, b);
}

#[test]
fn local_complex128() {
    start();
    let mut out = Array1::from_elem(64, Complex::new(0.0f64, 0.0));
    k::local_c128()
        .configure(2, 32)
        .launch((Out(&mut out),))
        .unwrap();
    for (i, z) in out.iter().enumerate() {
        assert_eq!(*z, Complex::new(-10.0, 5.0 * i as f64));
    }
}

// ---------------------------------------------------------------- atomics

#[test]
fn atomics_from_every_thread_of_a_large_grid_give_exact_totals() {
    start();
    let n: usize = 1024 * 256;
    let sum = rumba::to_device(&[0u64]).unwrap();
    let minmax = rumba::to_device(&[i32::MIN, i32::MAX]).unwrap();
    let fsum = rumba::to_device(&[0.0f64]).unwrap();
    let bits = rumba::to_device(&[0u32, 0]).unwrap();
    k::atomics()
        .configure(1024, 256)
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
    start();
    let ary = Array1::from_iter((0..4096).map(|i| ((i * 7919) % 4096) as f64 - 100.0));
    let mut res = arr1(&[f64::MIN]);
    k::cas_max()
        .configure(16, 256)
        .launch((&mut res, In(&ary)))
        .unwrap();
    assert_eq!(res[0], 3995.0);
}

// ---------------------------------------------------------------- faults

#[test]
fn two_syncthreads_complete_at_one_by_three_and_fail_at_one_by_six() {
    start();
    let two_syncs = k::two_syncs();
    let a = rumba::device_array::<i32, _>(3, Order::C).unwrap();
    two_syncs.configure(1, 3).launch((&a,)).unwrap();
    legacy().synchronize().unwrap();
    assert_eq!(a.copy_to_host().unwrap().to_vec(), [0, 1, 2]);

    let s = rumba::stream().unwrap();
    two_syncs.configure(1, 6).stream(&s).launch((&a,)).unwrap(); // queued: no error yet
    let err = s.synchronize().unwrap_err();
    let text = err.to_string();
    let (block, thread, msg) = fault(Err(err));
    assert_eq!(block, [0, 0, 0]);
    assert!(text.contains("kernel 'two_syncs'"), "{text}");
    if on_sim() {
        // The simulator runs the block's threads in order and names device addresses.
        assert_eq!(thread, [3, 0, 0]);
        assert!(msg.contains("global array at device address 0x8"), "{msg}");
        assert!(msg.contains("(device address 0x8"), "{msg}");
    } else {
        // On a GPU threads 3, 4 and 5 race to record the first fault.
        assert!(
            (3..6).contains(&thread[0]) && thread[1..] == [0, 0],
            "{text}"
        );
    }
    let index = thread[0];
    assert!(
        msg.contains(&format!(
            "index ({index},) is out of bounds for axis 0 with size 3"
        )),
        "{msg}"
    );

    // The stream and the runtime keep working.
    s.synchronize().unwrap();
    let b = rumba::device_array::<i32, _>(6, Order::C).unwrap();
    two_syncs.configure(1, 6).stream(&s).launch((&b,)).unwrap();
    s.synchronize().unwrap();
    assert_eq!(b.copy_to_host().unwrap().to_vec(), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn a_fault_with_host_arrays_is_reported_by_the_launch() {
    start();
    let mut a = Array1::<i32>::zeros(8);
    let s = rumba::stream().unwrap(); // own stream: the legacy one is shared by parallel tests
    let (_, thread, msg) = fault(k::gives_up().configure(2, 4).stream(&s).launch((&mut a,)));
    assert_eq!(thread, [1, 0, 0]);
    assert!(msg.contains("thread five gives up"), "{msg}");
    assert_eq!(a.to_vec(), [0; 8], "the failed launch copied nothing back");
    let mut ok = Array1::<i32>::zeros(5);
    k::fine()
        .configure(1, 5)
        .stream(&s)
        .launch((&mut ok,))
        .unwrap();
    assert_eq!(ok.to_vec(), [2; 5]);
}

#[test]
fn bad_configurations_and_arguments_are_typed_errors() {
    start();
    let noop = k::noop();
    let d = rumba::device_array::<f32, _>(4, Order::C).unwrap();
    let e = noop.configure(0, 32).launch((&d,)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch {
                grid: [0, 1, 1],
                block: [32, 1, 1],
                ..
            }
        ),
        "{e}"
    );
    let e = noop.configure(1, 4096).launch((&d,)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch {
                block: [4096, 1, 1],
                ..
            }
        ),
        "{e}"
    );
    let e = noop
        .configure(1, 1)
        .dynamic_shared_bytes(1 << 26) // past every device's limit (PoCL's is 2 MiB)
        .launch((&d,))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch {
                dynamic_shared_bytes: 67108864,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("dynamic shared memory"), "{e}");
}

// ---------------------------------------------------------------- arguments, streams, lifetimes

#[test]
fn arrays_index_with_their_own_shape_and_strides() {
    start();
    // A transposed, sliced view: the kernel sees shape (3, 2) and the view's byte strides.
    let host = Array2::from_shape_fn((4, 3), |(i, j)| (10 * i + j) as i64);
    let d = rumba::to_device(&host).unwrap();
    let v = d.t().slice(ndarray::s![.., 1..3]).unwrap();
    assert_eq!(v.shape(), &[3, 2]);
    let mut out = Array2::<i64>::zeros((3, 2));
    k::strided()
        .configure(1, (2, 3))
        .launch((&v, Out(&mut out)))
        .unwrap();
    assert_eq!(
        out,
        host.t().slice(ndarray::s![.., 1..3]).mapv(|x| x + 1000)
    );
}

#[test]
fn scalars_and_records_are_passed_by_value() {
    start();
    let a = rumba::device_array::<f64, _>(4, Order::C).unwrap();
    let line = k::Line {
        slope: 2.0,
        offset: 0.5,
    };
    k::scalars()
        .configure(1, 4)
        .launch((&a, line, 3u8, Complex::new(0.0f32, 10.0)))
        .unwrap();
    assert_eq!(a.copy_to_host().unwrap().to_vec(), [13.5, 15.5, 17.5, 19.5]);
}

#[test]
fn in_out_inout_transfer_counts() {
    start();
    let inc = k::inc();
    let mut host = Array1::from_elem(16, 1.0f32);

    let before = auto_transfers();
    inc.configure(1, 16).launch((InOut(&mut host),)).unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!(
        (d.to_device, d.to_host, d.bytes_to_device, d.bytes_to_host),
        (1, 1, 64, 64)
    );
    assert_eq!(host[0], 2.0);

    let before = auto_transfers();
    inc.configure(1, 16).launch((&mut host,)).unwrap(); // the default: InOut
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (1, 1));
    assert_eq!(host[0], 3.0);

    let before = auto_transfers();
    inc.configure(1, 16).launch((In(&host),)).unwrap();
    legacy().synchronize().unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (1, 0));
    assert_eq!(host[0], 3.0, "In never copies back");

    let before = auto_transfers();
    inc.configure(1, 16).launch((Out(&mut host),)).unwrap();
    let d = auto_transfers().since(&before);
    assert_eq!((d.to_device, d.to_host), (0, 1));
    assert_eq!(host[0], 1.0, "Out copies nothing in: the kernel saw zeros");

    let dev = rumba::to_device(&host).unwrap();
    let before = auto_transfers();
    inc.configure(1, 16).launch((&dev,)).unwrap();
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
    start();
    let inc = k::inc();
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
    start();
    let src = rumba::to_device(&(0..256u32).collect::<Vec<_>>()).unwrap();
    let dst = rumba::device_array::<u32, _>(256, Order::C).unwrap();
    let keep = dst.clone();
    // Load the kernel first: on CUDA, loading a module may wait for the device's queued work
    // (CUDA's lazy loading), which would wait for the held stream below.
    k::twice().configure(1, 256).launch((&src, &dst)).unwrap();
    // Hold the stream in a callback (nothing may wait on the legacy stream meanwhile: it would
    // wait for this blocking stream).
    let gate = Arc::new(std::sync::Barrier::new(2));
    let s = rumba::stream().unwrap();
    let g = Arc::clone(&gate);
    s.add_callback(move |_, _| {
        g.wait();
    })
    .unwrap();
    k::twice()
        .configure(1, 256)
        .stream(&s)
        .launch((&src, &dst))
        .unwrap();
    assert!(!s.query().unwrap(), "the kernel waits behind the callback");
    drop((src, dst)); // the queued kernel keeps both buffers alive
    gate.wait();
    s.synchronize().unwrap();
    assert_eq!(keep.copy_to_host().unwrap()[255], 510);
}

#[test]
fn launch_order_on_one_stream_and_the_legacy_stream() {
    start();
    let (add, mul) = (k::add(), k::mul());
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
fn a_kernel_without_code_for_the_backend_is_refused() {
    use rumba::driver::{
        CudaKernelSource, KernelFunction, KernelLaunch, OpenClKernelSource, StreamHandle,
    };
    start();
    // A kernel with one form, not the one the backend under test runs.
    let (f, lacks, backend) = match common::test_backend() {
        BackendChoice::Cuda => (
            KernelFunction::new("other_only").with_form(OpenClKernelSource::new("", "other_only")),
            "no CUDA C source",
            "cuda backend",
        ),
        BackendChoice::OpenCl => (
            KernelFunction::new("other_only").with_form(CudaKernelSource::new("", "other_only")),
            "no OpenCL C source",
            "opencl backend",
        ),
        _ => (
            KernelFunction::new("other_only").with_form(CudaKernelSource::new("", "other_only")),
            "no Rust body",
            "sim backend",
        ),
    };
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
    assert!(matches!(e, Error::MissingKernelForm { .. }), "{e}");
    let m = e.to_string();
    for part in ["kernel 'other_only'", lacks, backend, "#[rumba::kernel]"] {
        assert!(m.contains(part), "{m:?} lacks {part:?}");
    }
}

#[test]
fn array_arguments_outside_their_allocation_are_refused_when_queued() {
    use rumba::driver::{KernelArg, KernelArrayArg, StreamHandle};
    if common::not_on(
        &[BackendChoice::Cuda],
        "array_arguments_outside_their_allocation_are_refused_when_queued",
        "the CUDA backend does not check array arguments against their allocations",
    ) {
        return;
    }
    start();
    let noop = k::noop();
    let d = rumba::device_array::<f32, _>(4, Order::C).unwrap();
    let arg = KernelArg::Array(KernelArrayArg {
        ptr: d.device_ptr(),
        itemsize: 4,
        shape: vec![5],
        strides: vec![4],
        writable: true,
    });
    let launch = rumba::driver::KernelLaunch {
        function: noop.function(),
        grid: [1; 3],
        block: [1; 3],
        dynamic_shared_bytes: 0,
        args: std::slice::from_ref(&arg),
    };
    let drv = rumba::backend_driver().unwrap();
    // SAFETY: refused before anything runs.
    let e = unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap_err();
    assert!(
        matches!(&e, rumba::Error::KernelArgument {
            kernel,
            position: 0,
            problem: rumba::error::ArgumentError::Placement(_),
            ..
        } if kernel == "noop"),
        "{e}"
    );
}

/// Starts the runtime on the sim, or returns from the calling test after saying it is skipped
/// with `why` (`common::sim_only`).
macro_rules! closure_only {
    ($why:expr) => {
        if common::sim_only(&format!(
            "a Rust closure kernel, which only the simulator runs: {}",
            $why
        )) {
            return;
        }
    };
}

mod closure_kernels;

/// Shared `f16` arrays of one, two and three dimensions have their shapes' sizes.
#[test]
fn shared_arrays_of_f16() {
    start();
    let k = ported_kernels::fp16::f16_shared_sizes();
    let mut sizes = Array1::<usize>::zeros(3);
    k.configure(1, 1).launch((rumba::Out(&mut sizes),)).unwrap();
    assert_eq!(sizes.to_vec(), [2, 6, 24]);
}
