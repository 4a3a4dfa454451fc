//! DLPack export and import: round trips keep shape, strides, dtype and data; foreign tensors
//! are checked field by field; the deleter runs exactly once.

mod common;

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

use ndarray::{Array2, Array3, Ix1, Ix2, Ix3, ShapeBuilder, array, s};
use num_complex::Complex;
use rumba::interop::dlpack::{
    DLDataType, DLDevice, DLDeviceType, DLManagedTensorVersioned, DLPACK_VERSION, DLTensor,
};
use rumba::interop::{DlpackTensor, from_dlpack};

/// Starts the runtime; tests here run one at a time, as some count process-wide pending frees.
fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

#[test]
fn round_trips_keep_shape_strides_dtype_and_data() {
    let _serial = setup();
    let host = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (i * 100 + j * 10 + k) as i32);
    let d = rumba::to_device(&host).unwrap();
    for view in [
        d.clone(),
        d.slice(s![.., 1.., ..;2]).unwrap(),
        d.slice(s![..;-1, .., ..]).unwrap(),
        d.permuted_axes_view(),
    ] {
        let t = view.to_dlpack(None).unwrap();
        assert_eq!(
            t.tensor().dtype,
            DLDataType {
                code: 0,
                bits: 32,
                lanes: 1
            }
        );
        let back = from_dlpack::<i32, Ix3>(t).unwrap();
        assert_eq!(back.shape(), view.shape());
        assert_eq!(back.strides(), view.strides());
        assert_eq!(back.device_ptr(), view.device_ptr());
        let packed = rumba::device_array::<i32, _>(view.raw_dim(), rumba::Order::C).unwrap();
        packed.assign(&back).unwrap();
        let expect = rumba::device_array::<i32, _>(view.raw_dim(), rumba::Order::C).unwrap();
        expect.assign(&view).unwrap();
        assert_eq!(
            packed.copy_to_host().unwrap(),
            expect.copy_to_host().unwrap()
        );
    }
}

trait PermutedView {
    fn permuted_axes_view(&self) -> Self;
}

impl PermutedView for rumba::DeviceArray<i32, Ix3> {
    fn permuted_axes_view(&self) -> Self {
        self.transpose(&[2, 0, 1]).unwrap()
    }
}

#[test]
fn f_order_complex_and_size_zero_round_trip() {
    let _serial = setup();
    let host = Array2::from_shape_fn((3, 2).f(), |(i, j)| Complex::new(i as f64, j as f64));
    let d = rumba::to_device(&host).unwrap();
    let t = d.to_dlpack(None).unwrap();
    assert_eq!(t.strides().unwrap(), Some(vec![1, 3]));
    let back = from_dlpack::<Complex<f64>, Ix2>(t).unwrap();
    assert_eq!(back.copy_to_host().unwrap(), host);

    let empty = rumba::device_array::<f32, _>(0, rumba::Order::C).unwrap();
    let t = empty.to_dlpack(None).unwrap();
    assert!(t.tensor().data.is_null());
    assert_eq!(from_dlpack::<f32, Ix1>(t).unwrap().size(), 0);
}

#[test]
fn the_consumer_stream_waits_for_the_producer() {
    let _serial = setup();
    let producer = rumba::stream().unwrap();
    let d = rumba::to_device_on(&vec![1u64; 1 << 16], &producer).unwrap();
    d.assign_on(5, &producer).unwrap();
    let consumer = rumba::stream().unwrap();
    let t = d.to_dlpack(Some(&consumer)).unwrap();
    let back = from_dlpack::<u64, Ix1>(t).unwrap();
    let out = back.copy_to_host_on(&consumer).unwrap();
    assert!(out.iter().all(|&v| v == 5));
}

#[test]
fn the_import_keeps_the_tensor_and_the_tensor_keeps_the_array() {
    let _serial = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let d = rumba::to_device(&array![1.5f32, 2.5]).unwrap();
    let raw = d.to_dlpack(None).unwrap().into_raw();
    drop(d);
    assert_eq!(
        ctx.deallocations().memory.count,
        0,
        "the export holds the array"
    );
    // SAFETY: `raw` came from `into_raw` above and is handed back once.
    let t = unsafe { DlpackTensor::from_raw(raw) }.unwrap();
    let back = from_dlpack::<f32, Ix1>(t).unwrap();
    assert_eq!(back.copy_to_host().unwrap(), array![1.5, 2.5]);
    drop(back);
    assert_eq!(
        ctx.deallocations().memory.count,
        1,
        "freed once the import is gone"
    );
    ctx.flush_deallocations().unwrap();
}

static DELETED: AtomicUsize = AtomicUsize::new(0);

/// A foreign producer's tensor: a boxed struct with its own shape array.
#[repr(C)]
struct Foreign {
    managed: DLManagedTensorVersioned,
    shape: [i64; 1],
}

unsafe extern "C" fn delete_foreign(p: *mut DLManagedTensorVersioned) {
    DELETED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: made by `foreign` with Box::into_raw; the managed tensor is the first field.
    drop(unsafe { Box::from_raw(p.cast::<Foreign>()) });
}

fn foreign(device_type: DLDeviceType, data: u64, dtype: DLDataType, major: u32) -> DlpackTensor {
    let f = Box::into_raw(Box::new(Foreign {
        managed: DLManagedTensorVersioned {
            version: rumba::interop::dlpack::DLPackVersion { major, minor: 0 },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete_foreign),
            flags: 0,
            dl_tensor: DLTensor {
                data: data as usize as *mut c_void,
                device: DLDevice {
                    device_type,
                    device_id: 0,
                },
                ndim: 1,
                dtype,
                shape: std::ptr::null_mut(),
                strides: std::ptr::null_mut(),
                byte_offset: 0,
            },
        },
        shape: [2],
    }));
    // SAFETY: `f` is a live, uniquely owned box; the shape pointer points into it.
    unsafe { (*f).managed.dl_tensor.shape = (*f).shape.as_mut_ptr() };
    // SAFETY: a valid tensor whose deleter frees it; the data pointer is only trusted for the
    // device types of rumba's backends, which the tests below pair with real device memory.
    unsafe { DlpackTensor::from_raw(f.cast()) }.unwrap()
}

#[test]
fn foreign_tensors_are_checked_and_deleted_exactly_once() {
    let _serial = setup();
    DELETED.store(0, Ordering::SeqCst);
    let f32_t = DLDataType {
        code: 2,
        bits: 32,
        lanes: 1,
    };
    let d = rumba::to_device(&[7.0f32, 8.0]).unwrap();
    let ours = DLDeviceType::of(d.buffer().driver().backend());

    // Host memory cannot become a device array.
    let err = from_dlpack::<f32, Ix1>(foreign(DLDeviceType::CPU, 0x1000, f32_t, 1)).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::Dlpack(rumba::error::DlpackError::DeviceType { found: 1, .. })
        ),
        "{err}"
    );
    // Another ABI version, another dtype.
    assert!(from_dlpack::<f32, Ix1>(foreign(ours, d.device_ptr(), f32_t, 2)).is_err());
    let i32_t = DLDataType {
        code: 0,
        bits: 32,
        lanes: 1,
    };
    assert!(from_dlpack::<f32, Ix1>(foreign(ours, d.device_ptr(), i32_t, 1)).is_err());
    assert_eq!(
        DELETED.load(Ordering::SeqCst),
        3,
        "every refused tensor was deleted once"
    );

    // A valid one (C-contiguous: null strides) over real device memory.
    let back = from_dlpack::<f32, Ix1>(foreign(ours, d.device_ptr(), f32_t, 1)).unwrap();
    assert_eq!(back.copy_to_host().unwrap(), array![7.0, 8.0]);
    assert_eq!(DELETED.load(Ordering::SeqCst), 3);
    drop(back);
    assert_eq!(DELETED.load(Ordering::SeqCst), 4);
    assert_eq!(DLPACK_VERSION.major, 1);
}
