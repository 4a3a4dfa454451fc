//! Captured device arrays (`#[rumba::kernel(capture(NAME: &Arr<T>))]` with a `static` cell
//! `Captured<T>`), on the backend `RUMBA_TEST_BACKEND` names: ports of Numba-CUDA's eight
//! `test_device_array_capture.py` cases, plus what Numba leaves to its garbage collector and
//! rumba must guarantee itself: the array a launch took stays alive until the kernel has run,
//! the array is the one in the cell at the launch, and an empty cell or a wrong rank is a typed
//! error with no effect.
//!
//! On the simulator each case runs on both engines (the work-item loops and the coroutines,
//! [`HostEngine`]); on OpenCL (PoCL in CI) and CUDA the kernel's C form runs.

#[path = "ported_kernels/capture.rs"]
mod capture;
#[path = "common/mod.rs"]
mod common;

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard, mpsc};

use capture::*;
use ndarray::{Array1, arr2};
use rumba::Error;
use rumba::Order;
use rumba::config::BackendChoice;
use rumba::driver::HostEngine;
use rumba::kernel::{Kernel, Params};

fn start() {
    common::start(|_| {});
}

/// Tests that hold a stream with a waiting callback take this exclusively; the others share it
/// (their transfers on the legacy default stream would wait for the held stream, and the holder's
/// work on its blocking streams for theirs).
static HOLD: RwLock<()> = RwLock::new(());

/// Both start the runtime on the test backend first: a test that used rumba before starting it
/// could start the default backend while another test is still opening the test backend (the
/// fifth H100 run: every other test then failed with `AlreadyStarted`).
fn shared() -> RwLockReadGuard<'static, ()> {
    start();
    HOLD.read().unwrap_or_else(PoisonError::into_inner)
}

fn exclusive() -> RwLockWriteGuard<'static, ()> {
    start();
    HOLD.write().unwrap_or_else(PoisonError::into_inner)
}

/// The forms of `k` to run: on the simulator each engine (checking the engine that ran), else
/// the backend's own.
fn each_engine<P: Params>(k: Kernel<P>, mut run: impl FnMut(&Kernel<P>)) {
    start();
    if common::test_backend() != BackendChoice::Sim {
        run(&k);
        return;
    }
    assert_eq!(
        k.engine(),
        HostEngine::WorkItemLoops,
        "{} has a block body",
        k.name()
    );
    for engine in [HostEngine::WorkItemLoops, HostEngine::Coroutines] {
        let k = k.clone().with_engine(engine);
        run(&k);
        assert_eq!(k.last_engine(), Some(engine), "{}", k.name());
    }
}

fn zeros_f32(n: usize) -> rumba::DeviceArray<f32, ndarray::Ix1> {
    rumba::to_device(&vec![0.0f32; n]).unwrap()
}

#[test]
fn basic_capture_reads_the_global_array() {
    let _hold = shared();
    let host = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    BASIC.set(rumba::to_device(&host).unwrap());
    each_engine(capture_basic(), |k| {
        let out = zeros_f32(host.len());
        k.configure(1, host.len() as u32).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), host);
    });
}

#[test]
fn captured_values_feed_computations() {
    let _hold = shared();
    let host = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    COMPUTE.set(rumba::to_device(&host).unwrap());
    each_engine(capture_computation(), |k| {
        let out = zeros_f32(host.len());
        k.configure(1, host.len() as u32).launch((&out,)).unwrap();
        assert_eq!(
            out.copy_to_host().unwrap().to_vec(),
            [2.0, 4.0, 6.0, 8.0, 10.0]
        );
    });
}

#[test]
fn a_kernel_writes_through_its_capture_and_the_host_sees_it() {
    let _hold = shared();
    each_engine(capture_write(), |k| {
        let mutable = zeros_f32(5);
        MUTABLE.set(mutable.clone());
        k.configure(1, 5).launch(()).unwrap();
        // The caller's handle shares the buffer with the cell's: the writes are visible through
        // it once the stream is synchronized (the copy waits for it).
        assert_eq!(
            mutable.copy_to_host().unwrap().to_vec(),
            [1.0, 2.0, 3.0, 4.0, 5.0]
        );
        assert_eq!(
            MUTABLE
                .get()
                .unwrap()
                .copy_to_host()
                .unwrap()
                .as_slice()
                .unwrap(),
            [1.0, 2.0, 3.0, 4.0, 5.0]
        );
    });
}

#[test]
fn two_captured_arrays_in_one_kernel() {
    let _hold = shared();
    ARR_A.set(rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap());
    ARR_B.set(rumba::to_device(&[10.0f32, 20.0, 30.0]).unwrap());
    each_engine(capture_multiple(), |k| {
        let out = zeros_f32(3);
        k.configure(1, 3).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), [11.0, 22.0, 33.0]);
    });
}

#[test]
fn a_two_dimensional_capture() {
    let _hold = shared();
    let host = arr2(&[[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]]);
    ARR_2D.set(rumba::to_device(&host).unwrap());
    each_engine(capture_2d(), |k| {
        let out = zeros_f32(6);
        k.configure(1, 6).launch((&out,)).unwrap();
        assert_eq!(
            out.copy_to_host().unwrap().to_vec(),
            host.iter().copied().collect::<Vec<_>>()
        );
    });
    // A transposed (non-contiguous) view in the cell: the kernel sees its strides.
    ARR_2D.set(
        rumba::to_device(&arr2(&[[1.0f32, 3.0, 5.0], [2.0, 4.0, 6.0]]))
            .unwrap()
            .t(),
    );
    each_engine(capture_2d(), |k| {
        let out = zeros_f32(6);
        k.configure(1, 6).launch((&out,)).unwrap();
        assert_eq!(
            out.copy_to_host().unwrap().to_vec(),
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
    });
}

#[test]
fn captures_of_other_dtypes() {
    let _hold = shared();
    let ints = [10i32, 20, 30, 40];
    INTS.set(rumba::to_device(&ints).unwrap());
    each_engine(capture_i32(), |k| {
        let out = rumba::to_device(&[0i32; 4]).unwrap();
        k.configure(1, 4).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), ints);
    });
    let doubles = [1.5f64, 2.5, 3.5, 4.5];
    DOUBLES.set(rumba::to_device(&doubles).unwrap());
    each_engine(capture_f64(), |k| {
        let out = rumba::to_device(&[0.0f64; 4]).unwrap();
        k.configure(1, 4).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), doubles);
    });
}

#[test]
fn direct_kernel_access() {
    let _hold = shared();
    DIRECT.set(rumba::to_device(&[7.0f32, 8.0, 9.0]).unwrap());
    each_engine(capture_direct(), |k| {
        let out = zeros_f32(3);
        k.configure(1, 3).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), [8.0, 9.0, 10.0]);
    });
}

/// Numba captures a 0-d array and indexes it with `()`; kernels index with 1–3 components, so the
/// port holds the scalar in a one-element array.
#[test]
fn a_one_element_capture_holds_a_scalar() {
    let _hold = shared();
    SCALAR_CELL.set(rumba::to_device(&[42.0f32]).unwrap());
    each_engine(capture_scalar(), |k| {
        let out = zeros_f32(1);
        k.configure(1, 1).launch((&out,)).unwrap();
        assert_eq!(out.copy_to_host().unwrap().to_vec(), [84.0]);
    });
}

/// The launch keeps the array it took alive until the kernel has run: the cell is cleared and the
/// caller's handle dropped while the kernel is still queued behind a callback that waits. The
/// context's pending releases (deferred, so they can be counted) show that the buffer is released
/// only once the kernel has run, and the kernel reads the values. (Nothing here touches the legacy
/// default stream, which would wait for the held stream.)
#[test]
fn the_captured_array_outlives_the_cell_and_the_callers_handle() {
    let _hold = exclusive();
    start();
    let n = 4096;
    let src: Vec<u32> = (0..n as u32).collect();
    let stream = rumba::stream().unwrap();
    let ctx = rumba::current_context().unwrap();
    for engine in engines() {
        let k = capture_keep().with_engine(engine);
        let out = rumba::device_array::<u32, _>(n, Order::C).unwrap();
        let d = rumba::to_device(&src).unwrap();
        KEEP.set(d.clone());
        // Load the kernel first: on CUDA, loading a module may wait for the device's queued
        // work (CUDA's lazy loading), which would wait for the held stream below.
        k.configure(n.div_ceil(256) as u32, 256)
            .launch((&out, 0u32))
            .unwrap();
        rumba::synchronize().unwrap();
        let defer = ctx.defer_cleanup();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        stream
            .add_callback(move |_, _| {
                let _ = go_rx.recv_timeout(std::time::Duration::from_secs(30));
            })
            .unwrap();
        k.configure(n.div_ceil(256) as u32, 256)
            .stream(&stream)
            .launch((&out, 1u32))
            .unwrap();
        let pending = ctx.deallocations().memory.count;
        assert!(KEEP.clear().is_some());
        drop(d);
        assert_eq!(
            ctx.deallocations().memory.count,
            pending,
            "the captured buffer was released while the kernel was queued"
        );
        go_tx.send(()).unwrap();
        stream.synchronize().unwrap();
        assert_eq!(
            ctx.deallocations().memory.count,
            pending + 1,
            "the stream releases the captured buffer once the kernel has run"
        );
        drop(defer);
        let got = out.copy_to_host().unwrap();
        assert!(
            got.iter().zip(&src).all(|(g, s)| *g == s + 1),
            "{:?}",
            &got.as_slice().unwrap()[..8]
        );
    }
}

/// The array a launch uses is the one in the cell when the launch is made: setting another one
/// right after an asynchronous launch changes the next launch only.
#[test]
fn each_launch_uses_the_array_in_the_cell_at_the_launch() {
    let _hold = exclusive();
    start();
    let (stream, side) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    for engine in engines() {
        let k = capture_snapshot().with_engine(engine);
        let (first, second) = (
            rumba::device_array::<u32, _>(3, Order::C).unwrap(),
            rumba::device_array::<u32, _>(3, Order::C).unwrap(),
        );
        let (a, b) = (
            rumba::to_device_on(&[1u32, 2, 3], &side).unwrap(),
            rumba::to_device_on(&[7u32, 8, 9], &side).unwrap(),
        );
        side.synchronize().unwrap();
        // Load the kernel first: on CUDA, loading a module may wait for the device's queued
        // work (CUDA's lazy loading), which would wait for the held stream below.
        drop(SNAP.set(rumba::to_device(&[0u32; 3]).unwrap()));
        k.configure(1, 3).launch((&first,)).unwrap();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        stream
            .add_callback(move |_, _| {
                let _ = go_rx.recv_timeout(std::time::Duration::from_secs(30));
            })
            .unwrap();
        drop(SNAP.set(a));
        k.configure(1, 3).stream(&stream).launch((&first,)).unwrap();
        let old = SNAP.set(b).unwrap();
        drop(old);
        k.configure(1, 3)
            .stream(&stream)
            .launch((&second,))
            .unwrap();
        go_tx.send(()).unwrap();
        stream.synchronize().unwrap();
        assert_eq!(first.copy_to_host().unwrap().to_vec(), [1, 2, 3]);
        assert_eq!(second.copy_to_host().unwrap().to_vec(), [7, 8, 9]);
    }
}

/// The engines to run a hand-made launch sequence on.
fn engines() -> Vec<HostEngine> {
    if common::test_backend() == BackendChoice::Sim {
        vec![HostEngine::WorkItemLoops, HostEngine::Coroutines]
    } else {
        vec![HostEngine::WorkItemLoops]
    }
}

#[test]
fn an_empty_cell_is_a_typed_error_and_nothing_runs() {
    let _hold = shared();
    start();
    assert!(!NEVER_SET.is_set());
    let out = rumba::to_device(&[5.0f32; 4]).unwrap();
    let err = reads_empty().configure(1, 4).launch((&out,)).unwrap_err();
    assert_eq!(
        err,
        Error::EmptyCapture {
            kernel: "reads_empty".into(),
            capture: "NEVER_SET".into()
        }
    );
    assert!(err.to_string().contains("'reads_empty'"), "{err}");
    assert!(err.to_string().contains("`NEVER_SET`"), "{err}");
    // With a host argument the refusal is the same (the cells are read before the arguments
    // are prepared, see `Kernel::launch`), and the host array is left as it was.
    let mut host = Array1::from(vec![3.0f32; 4]);
    let err = reads_empty()
        .configure(1, 4)
        .launch((rumba::InOut(&mut host),))
        .unwrap_err();
    assert!(matches!(err, Error::EmptyCapture { .. }), "{err}");
    assert_eq!(host.to_vec(), [3.0; 4]);
    rumba::synchronize().unwrap();
    assert_eq!(out.copy_to_host().unwrap().to_vec(), [5.0; 4]);
}

#[test]
fn a_capture_of_the_wrong_rank_is_refused_like_an_argument() {
    let _hold = shared();
    start();
    RANKED.set(rumba::to_device(&[1.0f32, 2.0]).unwrap());
    let out = zeros_f32(2);
    let err = reads_ranked().configure(1, 2).launch((&out,)).unwrap_err();
    match &err {
        Error::CaptureRank {
            kernel,
            capture,
            rank,
            ndim,
        } => {
            assert_eq!(
                (kernel.as_str(), capture.as_str()),
                ("reads_ranked", "RANKED")
            );
            assert_eq!((*rank, *ndim), (2, 1));
        }
        other => panic!("expected CaptureRank, got {other:?}"),
    }
    // With a 2-d array it runs.
    RANKED.set(rumba::to_device(&arr2(&[[4.0f32, 0.0], [5.0, 0.0]])).unwrap());
    reads_ranked().configure(1, 2).launch((&out,)).unwrap();
    assert_eq!(out.copy_to_host().unwrap().to_vec(), [4.0, 5.0]);
}

/// Two kernels capture one cell and write it: an atomic histogram, then a doubling.
#[test]
fn two_kernels_write_one_captured_array() {
    let _hold = shared();
    let keys: Vec<u32> = (0..1000u32).map(|i| (i * 7) % 10).collect();
    let dkeys = rumba::to_device(&keys).unwrap();
    each_engine(capture_count(), |k| {
        let counts = rumba::to_device(&[0u32; 10]).unwrap();
        SHARED_COUNTS.set(counts.clone());
        k.configure(4, 256).launch((&dkeys,)).unwrap();
        capture_double_counts().configure(1, 16).launch(()).unwrap();
        assert_eq!(counts.copy_to_host().unwrap().to_vec(), [200u32; 10]);
    });
}

/// A capture is an array like a parameter: an in-kernel view of it reads its memory (kernels
/// with views run on the simulator's coroutines).
#[test]
fn a_view_of_a_capture() {
    // Exclusive: it faults a kernel, and a fault is reported at the next synchronization of the
    // stream, which another test's synchronization could otherwise take.
    let _hold = exclusive();
    start();
    GRID.set(rumba::to_device(&[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap());
    let out = zeros_f32(6);
    capture_reshaped().configure(1, 6).launch((&out,)).unwrap();
    assert_eq!(
        out.copy_to_host().unwrap().to_vec(),
        [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    );
    // A cell whose array cannot be reshaped (5 elements) faults the kernel, naming it.
    let s = rumba::stream().unwrap();
    GRID.set(rumba::to_device(&[0.0f32; 5]).unwrap());
    capture_reshaped()
        .configure(1, 6)
        .stream(&s)
        .launch((&out,))
        .unwrap();
    let err = s.synchronize().unwrap_err();
    assert!(err.to_string().contains("capture_reshaped"), "{err}");
}

/// The captures are trailing array parameters in the generated sources and the signature.
#[test]
fn captures_are_trailing_parameters_of_the_generated_kernel() {
    let _hold = shared();
    let params: Vec<&str> = capture_keep::ABI.params.iter().map(|p| p.name).collect();
    assert_eq!(params, ["out", "add", "KEEP"]);
    assert!(
        capture_keep::CUDA_SOURCE.contains("rumba_array<unsigned int, 1> cap_KEEP"),
        "{}",
        *capture_keep::CUDA_SOURCE
    );
    assert!(
        capture_keep::OPENCL_SOURCE.contains("cap_KEEP_ptr"),
        "{}",
        *capture_keep::OPENCL_SOURCE
    );
    assert_eq!(capture_keep().captures().len(), 1);
    assert_eq!(capture_keep().captures()[0].name(), "KEEP");
    assert_eq!(capture_multiple().captures().len(), 2);
}
