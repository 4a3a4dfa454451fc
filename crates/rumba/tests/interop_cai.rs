//! docs/design/behaviour.md §8: the CUDA Array Interface (ported from Numba's
//! `test_cuda_array_interface.py`).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use ndarray::{Array1, ArrayD, Ix1, Ix2, IxDyn, array, s};
use rumba::Order;
use rumba::interop::{
    CaiValue, CudaArray, CudaArrayInterface, DeviceMemoryOwner, ImportOptions, as_cuda_array,
    as_cuda_array_with, from_cuda_array_interface, is_cuda_array,
};
use rumba::{DeviceArray, Result};

/// Starts the runtime; tests here run one at a time, as some count process-wide pending frees.
fn setup() -> std::sync::MutexGuard<'static, ()> {
    // The interface is CUDA's: the OpenCL backend refuses export and import (tests/opencl.rs).
    common::binary_not_on(
        &[rumba::config::BackendChoice::OpenCl],
        &[
            "c_contiguous_arrays_export_no_strides_and_views_do",
            "a_wrapper_exposing_only_the_interface_imports_with_the_same_pointer_and_data",
            "views_of_an_import_equal_the_host",
            "writes_through_an_imported_view_show_in_the_original",
            "dropping_the_original_keeps_the_import_and_the_import_frees_exactly_once",
            "a_reversed_view_exports_offset_shape_and_strides_and_refuses_host_copies",
            "size_zero_arrays_export_pointer_zero_and_import",
            "the_stream_entry_is_none_on_the_default_stream_and_the_handle_otherwise",
            "an_import_with_a_stream_synchronizes_it_exactly_once",
            "an_import_that_opts_out_synchronizes_nothing",
            "an_import_without_a_stream_synchronizes_nothing",
            "masked_descriptions_wrong_types_and_stream_zero_are_refused",
            "an_import_from_the_map_form_reads_the_same_data",
            "device_arrays_are_send_and_sync_owners",
        ],
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it with a typed error",
    );
    common::start(|_| {});
    common::serial()
}

/// An object that exposes nothing but the interface (Numba's `MyArray` wrapper).
struct Wrapper {
    desc: CudaArrayInterface,
    _keep: DeviceArray<f64, IxDyn>,
}

impl CudaArray for Wrapper {
    fn describe(&self) -> Result<CudaArrayInterface> {
        Ok(self.desc.clone())
    }
}

// SAFETY: the description is that of the device array the wrapper owns and keeps alive.
unsafe impl DeviceMemoryOwner for Wrapper {}

fn wrap<D: ndarray::Dimension>(d: &DeviceArray<f64, D>) -> Wrapper {
    Wrapper {
        desc: d.cuda_array_interface(),
        _keep: d.clone().into_dyn(),
    }
}

fn host10() -> Array1<f64> {
    Array1::from_iter((0..10).map(f64::from))
}

#[test]
fn c_contiguous_arrays_export_no_strides_and_views_do() {
    let _serial = setup();
    let d = rumba::device_array::<f64, _>((2, 3, 4), Order::C).unwrap();
    let desc = d.cuda_array_interface();
    assert_eq!(desc.shape, vec![2, 3, 4]);
    assert_eq!(desc.strides, None);
    assert_eq!(desc.typestr, "<f8");
    assert_eq!(desc.version, 3);
    assert_eq!(desc.data, (d.device_ptr(), false));
    let v = d.slice(s![.., 1, ..]).unwrap();
    let vd = v.cuda_array_interface();
    assert_eq!(vd.shape, vec![2, 4]);
    assert_eq!(vd.strides, Some(vec![96, 8]));
    assert_eq!(vd.data.0, d.device_ptr() + 32);
    // The map form says the same.
    let map = vd.to_map();
    assert_eq!(map["strides"].to_string(), "(96, 8)");
    assert_eq!(map["stream"], CaiValue::None);
    assert_eq!(CudaArrayInterface::from_map(&map).unwrap(), vd);
}

#[test]
fn a_wrapper_exposing_only_the_interface_imports_with_the_same_pointer_and_data() {
    let _serial = setup();
    let host = host10();
    let d = rumba::to_device(&host).unwrap();
    let w = wrap(&d);
    assert!(is_cuda_array(&w));
    let imported: DeviceArray<f64, Ix1> = as_cuda_array(w).unwrap();
    assert_eq!(imported.device_ptr(), d.device_ptr());
    assert!(
        !imported.same_memory(&d),
        "an import has its own (foreign) buffer"
    );
    assert!(imported.buffer().is_foreign());
    assert_eq!(imported.copy_to_host().unwrap(), host);
}

#[test]
fn views_of_an_import_equal_the_host() {
    let _serial = setup();
    let host = host10();
    let d = rumba::to_device(&host).unwrap();
    let imp: DeviceArray<f64, Ix1> = as_cuda_array(wrap(&d)).unwrap();
    assert_eq!(imp.slice(s![..]).unwrap().copy_to_host().unwrap(), host);
    assert_eq!(
        imp.slice(s![..5]).unwrap().copy_to_host().unwrap(),
        host.slice(s![..5])
    );
    assert_eq!(
        imp.slice(s![..;2]).unwrap().copy_to_host().unwrap(),
        host.slice(s![..;2])
    );
}

#[test]
fn writes_through_an_imported_view_show_in_the_original() {
    let _serial = setup();
    let host = host10();
    let d = rumba::to_device(&host).unwrap();
    let imp: DeviceArray<f64, Ix1> = as_cuda_array(wrap(&d)).unwrap();
    let mut expect = host.clone();

    // One element.
    imp.set(&[2], 100.0).unwrap();
    expect[2] = 100.0;
    assert_eq!(d.copy_to_host().unwrap(), expect);

    // View to view.
    imp.slice(s![..5])
        .unwrap()
        .assign(&imp.slice(s![5..]).unwrap())
        .unwrap();
    let tail = expect.slice(s![5..]).to_owned();
    expect.slice_mut(s![..5]).assign(&tail);
    assert_eq!(d.copy_to_host().unwrap(), expect);

    // The whole array.
    let fresh = Array1::from_iter((0..10).map(|i| f64::from(i) * 3.0));
    rumba::copy(&imp, &fresh).unwrap();
    expect.assign(&fresh);
    assert_eq!(d.copy_to_host().unwrap(), expect);

    // A strided view.
    imp.slice(s![..;2]).unwrap().assign(-1.0).unwrap();
    expect.slice_mut(s![..;2]).fill(-1.0);
    assert_eq!(d.copy_to_host().unwrap(), expect);
}

#[test]
fn dropping_the_original_keeps_the_import_and_the_import_frees_exactly_once() {
    let _serial = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let host = host10();
    let d = rumba::to_device(&host).unwrap();
    let imp: DeviceArray<f64, Ix1> = as_cuda_array(d.clone()).unwrap();
    let before = ctx.deallocations().memory.count;
    drop(d);
    assert_eq!(ctx.deallocations().memory.count, before, "nothing pending");
    assert_eq!(imp.copy_to_host().unwrap(), host, "still readable");
    let view = imp.slice(s![1..]).unwrap();
    drop(imp);
    assert_eq!(ctx.deallocations().memory.count, before, "a view keeps it");
    drop(view);
    assert_eq!(
        ctx.deallocations().memory.count,
        before + 1,
        "freed once, by the original allocation's manager"
    );
    ctx.flush_deallocations().unwrap();
    assert_eq!(ctx.deallocations().memory.count, 0);
}

#[test]
fn a_reversed_view_exports_offset_shape_and_strides_and_refuses_host_copies() {
    let _serial = setup();
    let d = rumba::to_device(&host10()).unwrap();
    let r = d.slice(s![..;-1]).unwrap();
    let desc = r.cuda_array_interface();
    assert_eq!(desc.data.0, d.device_ptr() + 9 * 8);
    assert_eq!(desc.shape, vec![10]);
    assert_eq!(desc.strides, Some(vec![-8]));
    let err = r.copy_to_host().unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::Strides(rumba::error::StridesError::NegativeToHost { .. })
        ),
        "{err}"
    );
    // Imported, it still reads the right elements once copied on the device.
    let imp: DeviceArray<f64, Ix1> = as_cuda_array(r).unwrap();
    assert!(
        imp.copy_to_host()
            .unwrap_err()
            .to_string()
            .contains("negative strides")
    );
    let packed = rumba::device_array::<f64, _>(10, Order::C).unwrap();
    packed.assign(&imp).unwrap();
    assert_eq!(
        packed.copy_to_host().unwrap(),
        Array1::from_iter((0..10).rev().map(f64::from))
    );
}

#[test]
fn size_zero_arrays_export_pointer_zero_and_import() {
    let _serial = setup();
    let d = rumba::device_array::<f32, _>((0, 4), Order::C).unwrap();
    assert_eq!(d.cuda_array_interface().data, (0, false));
    let full = rumba::device_array::<f32, _>(8, Order::C).unwrap();
    assert_eq!(
        full.slice(s![3..3]).unwrap().cuda_array_interface().data.0,
        0
    );
    let imp: DeviceArray<f32, Ix2> = as_cuda_array(d).unwrap();
    assert_eq!(imp.shape(), &[0, 4]);
    assert_eq!(imp.copy_to_host().unwrap().len(), 0);
}

#[test]
fn the_stream_entry_is_none_on_the_default_stream_and_the_handle_otherwise() {
    let _serial = setup();
    let d = rumba::device_array::<u8, _>(4, Order::C).unwrap();
    assert_eq!(d.cuda_array_interface().stream, None);
    let s = rumba::stream().unwrap();
    let on = rumba::to_device_on(&[1u8, 2, 3], &s).unwrap();
    assert_eq!(on.cuda_array_interface().stream, Some(s.handle().0));
    let legacy = d.bind(&rumba::legacy_default_stream().unwrap());
    assert_eq!(legacy.cuda_array_interface().stream, Some(1));
    let per_thread = d.bind(&rumba::per_thread_default_stream().unwrap());
    assert_eq!(per_thread.cuda_array_interface().stream, Some(2));
    let default = d.bind(&rumba::default_stream().unwrap());
    assert_eq!(default.cuda_array_interface().stream, None, "never 0");
}

/// Counts the import's "synchronized the producer's stream" events on this thread.
struct SyncCounter(Arc<AtomicUsize>);

impl tracing::Subscriber for SyncCounter {
    fn enabled(&self, m: &tracing::Metadata<'_>) -> bool {
        m.target() == "rumba::interop::cai"
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, e: &tracing::Event<'_>) {
        if e.metadata().target() == "rumba::interop::cai" {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A producer array on its own stream with slow work pending: the flag is set when it is done.
fn slow_producer() -> (DeviceArray<i32, Ix1>, Arc<AtomicBool>) {
    let s = rumba::stream().unwrap();
    let d = rumba::to_device_on(&[1i32, 2, 3], &s).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&done);
    s.add_callback(move |_, _| {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::SeqCst);
    })
    .unwrap();
    (d, done)
}

fn count_syncs<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let n = Arc::new(AtomicUsize::new(0));
    let r = tracing::subscriber::with_default(SyncCounter(Arc::clone(&n)), f);
    (r, n.load(Ordering::SeqCst))
}

#[test]
fn an_import_with_a_stream_synchronizes_it_exactly_once() {
    let _serial = setup();
    let (d, done) = slow_producer();
    let handle = d.stream().unwrap().handle();
    let (imp, syncs) = count_syncs(|| as_cuda_array::<i32, Ix1, _>(d).unwrap());
    assert_eq!(syncs, 1);
    assert!(
        done.load(Ordering::SeqCst),
        "the producer's work finished first"
    );
    assert_eq!(
        imp.stream().unwrap().handle(),
        handle,
        "bound to the producer's stream"
    );
    // Later operations do not synchronize it again through the import path.
    let (host, again) = count_syncs(|| imp.copy_to_host().unwrap());
    assert_eq!((host.to_vec(), again), (vec![1, 2, 3], 0));
}

#[test]
fn an_import_that_opts_out_synchronizes_nothing() {
    let _serial = setup();
    let (d, done) = slow_producer();
    let (imp, syncs) = count_syncs(|| {
        as_cuda_array_with::<i32, Ix1, _>(d, ImportOptions { sync: false }).unwrap()
    });
    assert_eq!(syncs, 0);
    assert!(
        !done.load(Ordering::SeqCst),
        "returned before the producer's work"
    );
    // Ordered after it all the same: the import runs on the producer's stream.
    assert_eq!(imp.copy_to_host().unwrap().to_vec(), vec![1, 2, 3]);
    assert!(done.load(Ordering::SeqCst));
}

#[test]
fn an_import_without_a_stream_synchronizes_nothing() {
    let _serial = setup();
    let d = rumba::to_device(&[1u8]).unwrap();
    let (_imp, syncs) = count_syncs(|| as_cuda_array::<u8, Ix1, _>(d).unwrap());
    assert_eq!(syncs, 0);
}

#[test]
fn masked_descriptions_wrong_types_and_stream_zero_are_refused() {
    let _serial = setup();
    let d = rumba::to_device(&host10()).unwrap();
    let mut desc = d.cuda_array_interface();
    desc.mask = Some(Box::new(desc.clone()));
    // SAFETY: the description names `d`'s memory and `d` is the owner (the call fails anyway).
    let err = unsafe {
        from_cuda_array_interface::<f64, Ix1, _>(&desc, d.clone(), ImportOptions::default())
    }
    .unwrap_err();
    assert_eq!(
        err,
        rumba::Error::ArrayInterface(rumba::error::ArrayInterfaceError::Masked)
    );

    let err = as_cuda_array::<f32, Ix1, _>(d.clone()).unwrap_err();
    assert!(
        matches!(err, rumba::Error::IncompatibleDtype { .. }),
        "{err}"
    );
    let err = as_cuda_array::<f64, Ix2, _>(d.clone()).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::Shape(rumba::error::ShapeError::Rank { expected: 2, .. })
        ),
        "{err}"
    );

    let mut zero = d.cuda_array_interface();
    zero.stream = Some(0);
    // SAFETY: as above.
    let err =
        unsafe { from_cuda_array_interface::<f64, Ix1, _>(&zero, d, ImportOptions::default()) }
            .unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::ArrayInterface(rumba::error::ArrayInterfaceError::Stream0)
        ),
        "{err}"
    );
}

#[test]
fn an_import_from_the_map_form_reads_the_same_data() {
    let _serial = setup();
    let host: ArrayD<i16> = array![[1i16, 2, 3], [4, 5, 6]].into_dyn();
    let d = rumba::to_device(&host).unwrap();
    let t = d.t();
    let map = t.describe().unwrap().to_map();
    let desc = CudaArrayInterface::from_map(&map).unwrap();
    assert_eq!(desc.strides, Some(vec![2, 6]));
    // SAFETY: the description names `t`'s memory and `t` is the owner kept alive by the import.
    let imp = unsafe {
        from_cuda_array_interface::<i16, IxDyn, _>(&desc, t.clone(), ImportOptions::default())
    }
    .unwrap();
    assert_eq!(imp.copy_to_host().unwrap(), host.t());
}

#[test]
fn device_arrays_are_send_and_sync_owners() {
    fn owner<O: DeviceMemoryOwner>() {}
    owner::<DeviceArray<f32, Ix1>>();
    owner::<DeviceArray<u8, IxDyn>>();
}
