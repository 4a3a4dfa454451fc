//! docs/design/behaviour.md §3/§8: host memory the device addresses directly describes itself
//! through the CUDA Array Interface, and can be bound to a stream whose handle the description
//! carries. Ported from Numba's `test_cuda_array_interface.py` (`test_produce_no_stream`,
//! `test_produce_stream`, `test_produce_managed_no_stream`, `test_produce_managed_stream`,
//! `test_strides`, `test_zero_size_array`), extended to the device views of `mapped` guards.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use ndarray::{Array2, ShapeBuilder, s};
use rumba::Order;
use rumba::interop::{CudaArray, CudaArrayInterface, is_cuda_array};

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.sim_devices = 2;
        c.sim_memory = Some(64 << 20);
    });
    common::serial()
}

/// Reads the `n` bytes a description's data pointer names, through the driver (as a consumer
/// of the interface would), on device `device`.
fn read_through(desc: &CudaArrayInterface, device: usize, n: usize) -> Vec<u8> {
    let drv = rumba::backend_driver().unwrap();
    let mut out = vec![0u8; n];
    // SAFETY: the description names mapped host memory that the test only reads while this copy
    // runs (no `&mut` to it exists); the copy completes before it returns.
    unsafe {
        drv.memcpy_dtoh(
            rumba::driver::On::blocking(device),
            &mut out[..],
            desc.data.0,
        )
    }
    .unwrap();
    out
}

/// Bytes as elements.
fn pod<T: bytemuck::Pod>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(std::mem::size_of::<T>())
        .map(bytemuck::pod_read_unaligned)
        .collect()
}

#[test]
fn mapped_and_managed_arrays_describe_themselves_without_a_stream() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "mapped_and_managed_arrays_describe_themselves_without_a_stream",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it (tests/opencl.rs)",
    ) {
        return;
    }
    let mut m = rumba::mapped_array::<f64, _>(10, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut()
        .iter_mut()
        .enumerate()
        .for_each(|(i, x)| *x = i as f64);
    assert!(is_cuda_array(&m));
    let desc = m.describe().unwrap();
    assert_eq!(desc.stream, None, "test_produce_no_stream");
    assert_eq!(
        (&desc.shape[..], desc.typestr.as_str(), desc.strides.clone()),
        (&[10][..], "<f8", None)
    );
    assert_eq!((desc.data.1, desc.version), (false, 3));
    assert_eq!(desc.data.0, m.device().device_ptr(0).unwrap());
    let bytes = read_through(&desc, 0, 80);
    let back: Vec<f64> = pod(&bytes);
    assert_eq!(back, (0..10).map(f64::from).collect::<Vec<_>>());

    let mut a = rumba::managed_array::<i32, _>((2, 3), Order::C).unwrap();
    a.view_mut().assign(&ndarray::array![[1, 2, 3], [4, 5, 6]]);
    let desc = a.describe().unwrap();
    assert_eq!(desc.stream, None, "test_produce_managed_no_stream");
    assert_eq!(
        (desc.shape.clone(), desc.strides.clone()),
        (vec![2, 3], None)
    );
    let back: Vec<i32> = pod(&read_through(&desc, 0, 24));
    assert_eq!(back, [1, 2, 3, 4, 5, 6]);
    // The map form a Python bridge would hand out.
    assert_eq!(desc.to_map()["stream"].to_string(), "None");
}

#[test]
fn bound_arrays_carry_their_streams_handle_and_never_zero() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "bound_arrays_carry_their_streams_handle_and_never_zero",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it (tests/opencl.rs)",
    ) {
        return;
    }
    let s = rumba::stream().unwrap();
    let m = rumba::mapped_array::<f32, _>(10, Order::C, rumba::MappedOptions::new())
        .unwrap()
        .bind(&s);
    assert_eq!(
        m.describe().unwrap().stream,
        Some(s.handle().0),
        "test_produce_stream"
    );
    let a = rumba::managed_array::<f32, _>(10, Order::C)
        .unwrap()
        .bind(&s);
    assert_eq!(
        a.describe().unwrap().stream,
        Some(s.handle().0),
        "test_produce_managed_stream"
    );
    // The device views inherit the binding.
    assert_eq!(a.device().describe().unwrap().stream, Some(s.handle().0));
    let cases = [
        (rumba::legacy_default_stream().unwrap(), Some(1)),
        (rumba::per_thread_default_stream().unwrap(), Some(2)),
        (rumba::default_stream().unwrap(), None), // 0 is forbidden by the interface
    ];
    for (stream, expect) in cases {
        let m = rumba::mapped_array::<u8, _>(4, Order::C, rumba::MappedOptions::new())
            .unwrap()
            .bind(&stream);
        assert_eq!(m.describe().unwrap().stream, expect, "{stream}");
    }
}

#[test]
fn strides_offsets_and_size_zero_follow_the_interface() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "strides_offsets_and_size_zero_follow_the_interface",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it (tests/opencl.rs)",
    ) {
        return;
    }
    // test_strides: C-contiguous describes no strides; F order and views do.
    let c =
        rumba::mapped_array::<f64, _>((2, 3, 4), Order::C, rumba::MappedOptions::new()).unwrap();
    assert_eq!(c.describe().unwrap().strides, None);
    let f = rumba::managed_array::<f64, _>((2, 3, 4), Order::F).unwrap();
    assert_eq!(f.describe().unwrap().strides, Some(vec![8, 16, 48]));
    // test_zero_size_array: data pointer 0.
    let z = rumba::mapped_array::<f64, _>(0, Order::C, rumba::MappedOptions::new()).unwrap();
    assert_eq!(z.describe().unwrap().data.0, 0);

    // A strided host view mapped through a guard: the description points at its first element,
    // with the view's byte strides, and reading through it gives the view's elements.
    let mut host = Array2::<i64>::from_shape_fn((4, 6), |(i, j)| (10 * i + j) as i64);
    let expect = host.slice(s![1.., ..;2]).to_owned();
    let guard = rumba::mapped([host.slice_mut(s![1.., ..;2])]).unwrap();
    let view = guard.device(0).unwrap();
    let desc = view.describe().unwrap();
    assert_eq!(desc.shape, vec![3, 3]);
    assert_eq!(desc.strides, Some(vec![48, 16]));
    assert_eq!(desc.data.0, view.device_ptr(0).unwrap());
    // The elements are (row r, column 2k) at data + 48 r + 16 k.
    let bytes = read_through(&desc, 0, 2 * 48 + 2 * 16 + 8);
    let words: Vec<i64> = pod(&bytes);
    for ((r, k), &x) in expect.indexed_iter() {
        assert_eq!(words[r * 6 + k * 2], x);
    }
    // Negative strides (a reversed view) describe the first logical element.
    let mut v = [1u16, 2, 3, 4];
    let mut arr = ndarray::ArrayViewMut1::from(&mut v[..]);
    arr.invert_axis(ndarray::Axis(0));
    let g = rumba::mapped([arr]).unwrap();
    let d = g.device(0).unwrap().describe().unwrap();
    assert_eq!(d.strides, Some(vec![-2]));
    assert_eq!(read_through(&d, 0, 2), 4u16.to_ne_bytes());
    // F-ordered host memory through the mutable view.
    let mut fo = Array2::<u8>::zeros((2, 3).f());
    let mut g = rumba::mapped([&mut fo]).unwrap();
    assert_eq!(
        g.device_mut(0).unwrap().describe().unwrap().strides,
        Some(vec![1, 2])
    );
}

#[test]
fn portable_memory_is_described_on_the_bound_streams_device_and_unmapped_memory_is_an_error() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "portable_memory_is_described_on_the_bound_streams_device_and_unmapped_memory_is_an_error",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it (tests/opencl.rs)",
    ) {
        return;
    }
    if rumba::gpus().unwrap().len() < 2 {
        eprintln!("skipped: needs two devices");
        return;
    }
    let sim = rumba::backend().unwrap() == rumba::driver::BackendKind::Sim;
    rumba::select_device(1).unwrap();
    let s1 = rumba::stream().unwrap();
    rumba::select_device(0).unwrap();
    let portable =
        rumba::mapped_array::<u8, _>(8, Order::C, rumba::MappedOptions::new().portable(true))
            .unwrap()
            .bind(&s1);
    let desc = portable.describe().unwrap();
    assert_eq!(desc.stream, Some(s1.handle().0));
    assert_eq!(desc.data.0, portable.device().device_ptr(1).unwrap());
    if sim {
        // Each simulated device has its own address space (CUDA's unified addressing gives one).
        assert_ne!(desc.data.0, portable.device().device_ptr(0).unwrap());
    }
    let local = rumba::mapped_array::<u8, _>(8, Order::C, rumba::MappedOptions::new())
        .unwrap()
        .bind(&s1);
    let err = local.describe().unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::HostMemory(rumba::error::HostMemoryError::NotMapped { device: 1, .. })
        ),
        "{err}"
    );
    assert!(!is_cuda_array(&local));
}

#[test]
fn synchronous_operations_of_a_bound_array_run_on_its_stream() {
    let _s = setup();
    // A non-blocking stream: nothing but the binding orders work against it.
    let ctx = rumba::current_context().unwrap();
    let raw = ctx.driver().stream_create(0, true).unwrap();
    // SAFETY: `raw` is a live stream of device 0, destroyed at the end after all its work.
    let ns = unsafe { rumba::external_stream(raw) }.unwrap();
    // Allocate and fill once first: on CUDA, loading the fill's module may wait for the device's
    // queued work (CUDA's lazy loading), which would wait for the held stream below.
    let mut free = rumba::mapped_array::<u32, _>(4, Order::C, rumba::MappedOptions::new()).unwrap();
    free.device_mut().fill(0).unwrap();
    let bound = rumba::mapped_array::<u32, _>(4, Order::C, rumba::MappedOptions::new()).unwrap();
    let (open_tx, open_rx) = mpsc::channel::<()>();
    ns.add_callback(move |_, _| {
        let _ = open_rx.recv_timeout(Duration::from_secs(20));
    })
    .unwrap();

    // Unbound: runs on the legacy default stream, which a non-blocking stream does not hold up.
    common::within(10, "an unbound fill", move || {
        free.device_mut().fill(1).unwrap();
        free.view().to_vec()
    });

    // Bound: queued behind the closed gate, so it cannot finish until the gate opens.
    let mut bound = bound.bind(&ns);
    let (done_tx, done_rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        bound.device_mut().fill(7).unwrap();
        done_tx.send(bound.view().to_vec()).unwrap();
    });
    assert!(
        done_rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "the bound fill waited for earlier work on its stream"
    );
    open_tx.send(()).unwrap();
    assert_eq!(
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        [7; 4]
    );
    worker.join().unwrap();
    ns.synchronize().unwrap();
    drop(ns);
    ctx.driver().stream_destroy(0, raw).unwrap();
}
