//! DLPack export and import, with the stream handoff.
//!
//! The `#[repr(C)]` types mirror `dlpack.h` (v1.x) field for field — [`DLManagedTensorVersioned`]
//! (the current exchange structure), the legacy [`DLManagedTensor`], [`DLTensor`], [`DLDevice`],
//! [`DLDataType`] — so pointers to them can cross an FFI boundary (the layout is tested). Enum
//! fields are transparent integers ([`DLDeviceType`]), since a foreign producer may send values
//! rumba does not know.
//!
//! [`DlpackTensor`] owns one `DLManagedTensorVersioned*` and calls its deleter when dropped;
//! [`DeviceArray::to_dlpack`] makes one that keeps the array alive, [`from_dlpack`] turns one
//! into a device array (no copy) that keeps it alive.
//!
//! **Devices.** CUDA arrays are `kDLCUDA`; the simulator's memory is no CUDA memory, so sim arrays
//! use the reserved extension type `kDLExtDev`. Import accepts only the running backend's type:
//! host, pinned and managed memory (`kDLCPU`, `kDLCUDAHost`, `kDLCUDAManaged`) are refused,
//! because a [`DeviceArray`] must hold device memory.
//!
//! **Streams.** As in the Python array API's `__dlpack__(stream=…)`, the producer makes its pending
//! work visible to the consumer before handing the tensor over: with a consumer stream, that
//! stream waits (on the device) for an event recorded on the array's stream; without one, the
//! array's stream is synchronized. The import is then unbound (its work goes where the caller
//! sends it).
//!
//! **Safety.** [`DlpackTensor::from_raw`] is where a foreign pointer is trusted, so it is `unsafe`
//! and its contract includes "the data is device memory of the named device, valid until the
//! deleter runs". Everything after it — [`from_dlpack`] included — is safe and checks every field
//! it reads (version, device, dtype, null pointers, strides) without panicking.
//!
//! This module touches the array layer, streams and events, and the memory layer (foreign
//! buffers).

use std::ffi::c_void;
use std::ptr::NonNull;

use ndarray::Dimension;

use crate::array::DeviceArray;
use crate::driver::BackendKind;
use crate::error::{DlpackError, Error, Result};
use crate::layout::Layout;
use crate::layout::element::{Element, Kind};
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;

/// `DLPackVersion`: the ABI version of a [`DLManagedTensorVersioned`].
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLPackVersion {
    /// Major version; a consumer must not read other fields when it differs from its own.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

/// The DLPack version rumba produces and reads (1.1).
pub const DLPACK_VERSION: DLPackVersion = DLPackVersion { major: 1, minor: 1 };

/// `DLDeviceType`, as a transparent C `int` (the enum's size).
///
/// ```
/// use rumba::interop::dlpack::DLDeviceType;
/// assert_eq!(DLDeviceType::CUDA.0, 2);
/// ```
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DLDeviceType(pub i32);

impl DLDeviceType {
    /// `kDLCPU`.
    pub const CPU: DLDeviceType = DLDeviceType(1);
    /// `kDLCUDA`.
    pub const CUDA: DLDeviceType = DLDeviceType(2);
    /// `kDLCUDAHost`: pinned host memory.
    pub const CUDA_HOST: DLDeviceType = DLDeviceType(3);
    /// `kDLExtDev`: the reserved extension type, used for the simulated GPU.
    pub const EXT_DEV: DLDeviceType = DLDeviceType(12);
    /// `kDLCUDAManaged`.
    pub const CUDA_MANAGED: DLDeviceType = DLDeviceType(13);
    /// `kDLOpenCL`: memory of an OpenCL device (rumba's is shared virtual memory).
    pub const OPENCL: DLDeviceType = DLDeviceType(4);

    /// The device type of a backend's device memory.
    ///
    /// ```
    /// use rumba::interop::dlpack::DLDeviceType;
    /// assert_eq!(DLDeviceType::of(rumba::driver::BackendKind::Sim), DLDeviceType::EXT_DEV);
    /// assert_eq!(DLDeviceType::of(rumba::driver::BackendKind::OpenCl).0, 4);
    /// ```
    pub fn of(backend: BackendKind) -> DLDeviceType {
        match backend {
            BackendKind::Sim => DLDeviceType::EXT_DEV,
            BackendKind::Cuda => DLDeviceType::CUDA,
            BackendKind::OpenCl => DLDeviceType::OPENCL,
        }
    }
}

/// `DLDevice`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLDevice {
    /// The device type.
    pub device_type: DLDeviceType,
    /// The device ordinal.
    pub device_id: i32,
}

/// `DLDataType`: type code, bits per lane, lanes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLDataType {
    /// `kDLInt` 0, `kDLUInt` 1, `kDLFloat` 2, `kDLBfloat` 4, `kDLComplex` 5, `kDLBool` 6, …
    pub code: u8,
    /// Bits of one lane.
    pub bits: u8,
    /// Lanes (1 for scalars).
    pub lanes: u16,
}

impl DLDataType {
    /// The DLPack type of an element type; `None` for records, which DLPack cannot describe.
    ///
    /// ```
    /// use rumba::interop::dlpack::DLDataType;
    /// assert_eq!(DLDataType::of::<f32>(), Some(DLDataType { code: 2, bits: 32, lanes: 1 }));
    /// assert_eq!(DLDataType::of::<half::bf16>().unwrap().code, 4);
    /// ```
    pub fn of<T: Element>() -> Option<DLDataType> {
        let d = T::DTYPE;
        let code = match d.kind() {
            Kind::Int => 0,
            Kind::Uint => 1,
            Kind::Float => 2,
            Kind::Complex => 5,
            Kind::Bool => 6,
            Kind::Void if d.name() == "bfloat16" => 4,
            Kind::Void => return None,
        };
        Some(DLDataType {
            code,
            bits: u8::try_from(d.itemsize() * 8).ok()?,
            lanes: 1,
        })
    }
}

/// `DLTensor`: a plain description that does not manage memory.
#[repr(C)]
#[derive(Debug)]
pub struct DLTensor {
    /// Device address of the data (plus `byte_offset`); null for a size-0 tensor.
    pub data: *mut c_void,
    /// Where the data lives.
    pub device: DLDevice,
    /// Number of axes.
    pub ndim: i32,
    /// Element type.
    pub dtype: DLDataType,
    /// `ndim` lengths.
    pub shape: *mut i64,
    /// `ndim` strides in **elements**, or null for C-contiguous.
    pub strides: *mut i64,
    /// Bytes from `data` to the first element.
    pub byte_offset: u64,
}

/// `DLManagedTensor`: the legacy (pre-1.0) managed tensor; layout provided for FFI.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// The producer's context.
    pub manager_ctx: *mut c_void,
    /// Frees `manager_ctx` and the structure itself.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// `DLManagedTensorVersioned`: the current exchange structure.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// ABI version.
    pub version: DLPackVersion,
    /// The producer's context.
    pub manager_ctx: *mut c_void,
    /// Frees `manager_ctx` and the structure itself.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `DLPACK_FLAG_BITMASK_*` bits.
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

/// `DLPACK_FLAG_BITMASK_READ_ONLY`.
pub const FLAG_READ_ONLY: u64 = 1;
/// `DLPACK_FLAG_BITMASK_IS_COPIED`.
pub const FLAG_IS_COPIED: u64 = 1 << 1;

/// What rumba allocates for an export: the managed tensor first (so a pointer to it is a pointer
/// to the whole), then what its pointers point into and what keeps the data alive.
#[repr(C)]
struct Export {
    managed: DLManagedTensorVersioned,
    shape: Vec<i64>,
    strides: Vec<i64>,
    _owner: Box<dyn std::any::Any + Send + Sync>,
    /// The exported array's buffer: an import of the export refuses it after a context reset.
    buffer: DeviceBuffer,
}

/// The buffer of rumba's own export behind `m`, if it is one (its deleter is rumba's).
fn own_export(m: &DLManagedTensorVersioned) -> Option<&DeviceBuffer> {
    let ours: unsafe extern "C" fn(*mut DLManagedTensorVersioned) = delete_export;
    if !m.deleter.is_some_and(|d| std::ptr::fn_addr_eq(d, ours)) || m.manager_ctx.is_null() {
        return None;
    }
    // SAFETY: only `to_dlpack` installs `delete_export`, and it sets `manager_ctx` to the
    // `Export` that holds the managed tensor; the export lives while the tensor is owned.
    Some(unsafe { &(*m.manager_ctx.cast::<Export>()).buffer })
}

unsafe extern "C" fn delete_export(p: *mut DLManagedTensorVersioned) {
    if !p.is_null() {
        // SAFETY: `p` came from `Box::into_raw` of an `Export` (whose first field is the managed
        // tensor) in `to_dlpack`, and DLPack calls the deleter once.
        drop(unsafe { Box::from_raw(p.cast::<Export>()) });
    }
}

/// An owned `DLManagedTensorVersioned*`: dropping it calls the producer's deleter.
///
/// ```
/// use ndarray::array;
/// let d = rumba::to_device(&array![[1i32, 2], [3, 4]]).unwrap();
/// let t = d.to_dlpack(None).unwrap();
/// assert_eq!(t.tensor().ndim, 2);
/// let back = rumba::interop::from_dlpack::<i32, ndarray::Ix2>(t).unwrap();
/// assert_eq!(back.copy_to_host().unwrap(), array![[1, 2], [3, 4]]);
/// ```
#[derive(Debug)]
pub struct DlpackTensor {
    ptr: NonNull<DLManagedTensorVersioned>,
}

// SAFETY: `from_raw`'s contract makes the deleter callable from any thread; rumba's own exports
// hold only `Send + Sync` values.
unsafe impl Send for DlpackTensor {}
// SAFETY: shared access only reads the structure, which nobody mutates while it is owned here.
unsafe impl Sync for DlpackTensor {}

impl DlpackTensor {
    /// Takes ownership of a managed tensor from a producer.
    ///
    /// # Errors
    /// [`Error::Dlpack`] for a null `ptr` (nothing is taken over then).
    ///
    /// # Safety
    /// `ptr` must point to a valid `DLManagedTensorVersioned` whose major version is 1 (or whose
    /// deleter, at least, may be called), owned by the caller and handed over here; its `shape`
    /// and `strides` (if not null) must point to `ndim` values; for the device types of rumba's
    /// backends, `data + byte_offset` must be device memory of that device holding every element
    /// the shape and strides reach, valid until the deleter runs; the deleter (if any) must be
    /// callable once, from any thread; nobody else mutates the structure while it is owned here.
    ///
    /// ```
    /// let d = rumba::to_device(&[1u8, 2]).unwrap();
    /// let raw = d.to_dlpack(None).unwrap().into_raw();
    /// // SAFETY: `raw` came from `into_raw` just above and is handed back once.
    /// let t = unsafe { rumba::interop::DlpackTensor::from_raw(raw) }.unwrap();
    /// assert_eq!(t.tensor().ndim, 1);
    /// ```
    pub unsafe fn from_raw(ptr: *mut DLManagedTensorVersioned) -> Result<DlpackTensor> {
        NonNull::new(ptr)
            .map(|ptr| DlpackTensor { ptr })
            .ok_or(DlpackError::NullTensor.into())
    }

    /// Gives the pointer to a consumer, who must call its deleter once.
    ///
    /// ```
    /// let raw = rumba::to_device(&[1u8]).unwrap().to_dlpack(None).unwrap().into_raw();
    /// // SAFETY: the deleter of a rumba export is set; called once here.
    /// unsafe { ((*raw).deleter.unwrap())(raw) };
    /// ```
    pub fn into_raw(self) -> *mut DLManagedTensorVersioned {
        let p = self.ptr.as_ptr();
        std::mem::forget(self);
        p
    }

    /// The managed structure.
    ///
    /// ```
    /// let t = rumba::to_device(&[1u8]).unwrap().to_dlpack(None).unwrap();
    /// assert_eq!(t.managed().version.major, 1);
    /// ```
    pub fn managed(&self) -> &DLManagedTensorVersioned {
        // SAFETY: valid until the deleter runs, which only `drop` does.
        unsafe { self.ptr.as_ref() }
    }

    /// The tensor description.
    ///
    /// ```
    /// let t = rumba::to_device(&[1u8, 2, 3]).unwrap().to_dlpack(None).unwrap();
    /// assert_eq!(t.shape().unwrap(), vec![3]);
    /// ```
    pub fn tensor(&self) -> &DLTensor {
        &self.managed().dl_tensor
    }

    /// The shape, checked (no negative lengths, no null pointer for `ndim > 0`).
    ///
    /// # Errors
    /// [`Error::Dlpack`] for a negative length, or a null shape pointer with `ndim > 0`.
    ///
    /// ```
    /// let t = rumba::to_device(&[1u8, 2, 3]).unwrap().to_dlpack(None).unwrap();
    /// assert_eq!(t.shape().unwrap(), vec![3]);
    /// ```
    pub fn shape(&self) -> Result<Vec<usize>> {
        let t = self.tensor();
        let raw = read_i64s(t.shape, t.ndim, "shape")?.unwrap_or_default();
        raw.iter()
            .map(|&n| {
                usize::try_from(n)
                    .map_err(|_| Error::from(DlpackError::NegativeLength { shape: raw.clone() }))
            })
            .collect()
    }

    /// The strides in elements, or `None` when the tensor says C-contiguous (null).
    ///
    /// # Errors
    /// [`Error::Dlpack`] for a negative `ndim`.
    ///
    /// ```
    /// let t = rumba::to_device(&[1u8, 2, 3]).unwrap().to_dlpack(None).unwrap();
    /// assert_eq!(t.strides().unwrap(), Some(vec![1]));
    /// ```
    pub fn strides(&self) -> Result<Option<Vec<i64>>> {
        let t = self.tensor();
        read_i64s(t.strides, t.ndim, "strides")
    }
}

fn read_i64s(p: *const i64, ndim: i32, what: &'static str) -> Result<Option<Vec<i64>>> {
    let n = usize::try_from(ndim).map_err(|_| DlpackError::Ndim { ndim })?;
    if p.is_null() {
        return if n == 0 || what == "strides" {
            Ok(None)
        } else {
            Err(DlpackError::NullPointer {
                ndim: n,
                field: what,
            }
            .into())
        };
    }
    // SAFETY: `from_raw`'s contract: a non-null shape/strides pointer points to `ndim` values.
    Ok(Some(unsafe { std::slice::from_raw_parts(p, n) }.to_vec()))
}

impl Drop for DlpackTensor {
    fn drop(&mut self) {
        let p = self.ptr.as_ptr();
        // SAFETY: we own the tensor; its deleter (if any) is called exactly once, here.
        if let Some(deleter) = unsafe { (*p).deleter } {
            // SAFETY: as above.
            unsafe { deleter(p) };
        }
    }
}

impl<T: Element, D: Dimension + 'static> DeviceArray<T, D> {
    /// Exports the array as a DLPack tensor that keeps it alive (no copy).
    ///
    /// Stream handoff: with `consumer`, that stream waits (on the device) for the work queued so
    /// far on the array's stream (its bound stream, else the legacy default stream); without
    /// one, the array's stream is synchronized first.
    ///
    /// # Errors
    /// [`Error::Dlpack`] for record element types (DLPack has no record dtype), for strides that
    /// are not whole elements (record-field views) and for more axes than DLPack holds; the errors of the stream handoff (recording or
    /// waiting for an event, or synchronizing the array's stream).
    ///
    /// ```
    /// use ndarray::s;
    /// let d = rumba::to_device(&[0u32, 1, 2, 3, 4, 5]).unwrap();
    /// let consumer = rumba::stream().unwrap();
    /// let t = d.slice(s![..;-2]).unwrap().to_dlpack(Some(&consumer)).unwrap();
    /// assert_eq!(t.strides().unwrap(), Some(vec![-2])); // in elements
    /// // EXT_DEV on the sim, CUDA on a GPU:
    /// let backend = rumba::backend().unwrap();
    /// let want = rumba::interop::dlpack::DLDeviceType::of(backend);
    /// assert_eq!(t.tensor().device.device_type, want);
    /// ```
    pub fn to_dlpack(&self, consumer: Option<&Stream>) -> Result<DlpackTensor> {
        let dtype = DLDataType::of::<T>().ok_or_else(|| DlpackError::RecordType {
            dtype: T::DTYPE.name(),
        })?;
        let itemsize = T::DTYPE.itemsize() as isize;
        let strides = self
            .strides()
            .iter()
            .map(|&s| (s % itemsize == 0).then_some((s / itemsize) as i64))
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| DlpackError::ByteStrides {
                strides: self.strides().to_vec(),
                itemsize: itemsize as usize,
            })?;
        let shape: Vec<i64> = self.shape().iter().map(|&n| n as i64).collect();
        let ndim = i32::try_from(shape.len())
            .map_err(|_| DlpackError::TooManyAxes { ndim: shape.len() })?;
        handoff(self, consumer)?;
        let buffer = self.buffer();
        // A handle from before a reset is refused (its memory may be another allocation's).
        let lease = Lease::enter()?;
        let first = self.addr(&lease)?;
        let device = DLDevice {
            device_type: DLDeviceType::of(buffer.driver().backend()),
            device_id: i32::try_from(buffer.device()).unwrap_or(i32::MAX),
        };
        let data = if self.size() == 0 {
            std::ptr::null_mut()
        } else {
            first as usize as *mut c_void
        };
        let mut export = Box::new(Export {
            managed: DLManagedTensorVersioned {
                version: DLPACK_VERSION,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_export),
                flags: 0,
                dl_tensor: DLTensor {
                    data,
                    device,
                    ndim,
                    dtype,
                    shape: std::ptr::null_mut(),
                    strides: std::ptr::null_mut(),
                    byte_offset: 0,
                },
            },
            shape,
            strides,
            _owner: Box::new(self.clone()),
            buffer: buffer.clone(),
        });
        // The vectors' heap buffers do not move when the box is turned into a raw pointer.
        export.managed.dl_tensor.shape = export.shape.as_mut_ptr();
        export.managed.dl_tensor.strides = export.strides.as_mut_ptr();
        let raw = Box::into_raw(export);
        // SAFETY: `raw` is a live, uniquely owned `Export`; the field pointer is derived from it.
        unsafe { (*raw).managed.manager_ctx = raw.cast() };
        // SAFETY: `Export` is `repr(C)` with the managed tensor first; the tensor is valid and its
        // deleter frees exactly this allocation.
        unsafe { DlpackTensor::from_raw(raw.cast()) }
    }
}

/// Makes the producer's queued work visible to the consumer (see [`DeviceArray::to_dlpack`]).
fn handoff<T: Element, D: Dimension>(
    a: &DeviceArray<T, D>,
    consumer: Option<&Stream>,
) -> Result<()> {
    let producer = match a.stream() {
        Some(s) => s.clone(),
        None => crate::stream::legacy_default_stream()?,
    };
    match consumer {
        None => producer.synchronize(),
        Some(c) if c.handle() == producer.handle() => Ok(()),
        Some(c) => {
            let e = crate::stream::event::event(rumba::EventOptions::untimed())?;
            e.record(&producer)?;
            e.wait(c)
        }
    }
}

/// A device array over a DLPack tensor's memory (no copy) that keeps the tensor alive; its
/// deleter runs when the last view is dropped. The array is not bound to a stream.
///
/// # Errors
/// [`Error::Dlpack`] for another major version, a device type other than the running backend's
/// (host, pinned and managed memory included), a device that is not the current one, a negative
/// length or a null shape pointer; [`Error::InvalidDevice`] for a device that does not exist;
/// [`Error::IncompatibleDtype`] for a dtype other than `T`'s; [`Error::Shape`] /
/// [`Error::ArrayInterface`] for more or fewer axes than `D` or misaligned data. The tensor's deleter runs (it is dropped) after an error.
///
/// ```
/// use ndarray::{array, s};
/// let d = rumba::to_device(&array![[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]]).unwrap();
/// let t = d.slice(s![.., 1..]).unwrap().to_dlpack(None).unwrap();
/// let v = rumba::interop::from_dlpack::<f64, ndarray::Ix2>(t).unwrap();
/// assert_eq!(v.copy_to_host().unwrap(), array![[2.0, 3.0], [5.0, 6.0]]);
/// assert!(rumba::interop::from_dlpack::<f32, ndarray::Ix2>(d.to_dlpack(None).unwrap()).is_err());
/// ```
pub fn from_dlpack<T: Element, D: Dimension>(tensor: DlpackTensor) -> Result<DeviceArray<T, D>> {
    let m = tensor.managed();
    if m.version.major != DLPACK_VERSION.major {
        return Err(DlpackError::Version {
            major: m.version.major,
            minor: m.version.minor,
            supported: DLPACK_VERSION.major,
        }
        .into());
    }
    let t = &m.dl_tensor;
    let ctx = super::context_of(usize::try_from(t.device.device_id).map_err(|_| {
        DlpackError::DeviceId {
            id: t.device.device_id,
        }
    })?)?;
    let backend = ctx.driver().backend();
    if t.device.device_type != DLDeviceType::of(backend) {
        return Err(DlpackError::DeviceType {
            found: t.device.device_type.0,
            backend: backend.to_string(),
            expected: DLDeviceType::of(backend).0,
        }
        .into());
    }
    let expected = DLDataType::of::<T>();
    if expected != Some(t.dtype) {
        return Err(Error::IncompatibleDtype {
            left: T::DTYPE.name().to_string(),
            right: format!(
                "DLPack dtype (code {}, {} bits, {} lanes)",
                t.dtype.code, t.dtype.bits, t.dtype.lanes
            ),
        });
    }
    let shape = tensor.shape()?;
    let itemsize = T::DTYPE.itemsize();
    let strides: Vec<isize> = match tensor.strides()? {
        Some(s) => s
            .iter()
            .map(|&x| isize::try_from(x).ok()?.checked_mul(itemsize as isize))
            .collect::<Option<Vec<isize>>>()
            .ok_or_else(|| DlpackError::StridesOverflow { strides: s.clone() })?,
        None => Layout::c_order(&shape, itemsize)?.strides().to_vec(),
    };
    let first =
        (t.data as usize as u64)
            .checked_add(t.byte_offset)
            .ok_or(DlpackError::OffsetOverflow {
                data: t.data as usize as u64,
                offset: t.byte_offset,
            })?;
    let desc = super::CudaArrayInterface {
        shape,
        typestr: T::DTYPE.typestr(),
        data: (first, false),
        strides: Some(strides),
        mask: None,
        stream: None,
        version: super::CAI_VERSION,
    };
    // The description's device must be the current one for the shared import path.
    let current = crate::runtime::current_context()?.device_id();
    if ctx.device_id() != current {
        return Err(DlpackError::NotCurrent {
            device: ctx.device_id(),
            current,
        }
        .into());
    }
    // The import counts as made now: a later reset of the context refuses it. Rumba's own export
    // of an array freed by a reset since is refused now.
    let lease = Lease::enter()?;
    if let Some(exported) = own_export(tensor.managed()) {
        exported.addr(&lease, 0, 0)?;
    }
    // SAFETY: `DlpackTensor::from_raw`'s contract: for this backend's device type the data is
    // device memory of the named device (checked to be the current one), valid until the
    // deleter runs — which happens only when `tensor`, the owner kept by the import, is dropped.
    // For rumba's own export, the memory was checked just above not to have been freed by a
    // reset, and the lease keeps a reset out until the import is made.
    unsafe { super::cai::import_described(&desc, tensor, super::ImportOptions { sync: false }) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// The layouts of `dlpack.h` on a 64-bit target.
    #[test]
    fn abi_layout_matches_dlpack_h() {
        assert_eq!(
            (size_of::<DLPackVersion>(), align_of::<DLPackVersion>()),
            (8, 4)
        );
        assert_eq!((size_of::<DLDeviceType>(), size_of::<DLDevice>()), (4, 8));
        assert_eq!(offset_of!(DLDevice, device_id), 4);
        assert_eq!((size_of::<DLDataType>(), align_of::<DLDataType>()), (4, 2));
        assert_eq!(
            (offset_of!(DLDataType, bits), offset_of!(DLDataType, lanes)),
            (1, 2)
        );
        assert_eq!(size_of::<DLTensor>(), 48);
        assert_eq!(offset_of!(DLTensor, data), 0);
        assert_eq!(offset_of!(DLTensor, device), 8);
        assert_eq!(offset_of!(DLTensor, ndim), 16);
        assert_eq!(offset_of!(DLTensor, dtype), 20);
        assert_eq!(offset_of!(DLTensor, shape), 24);
        assert_eq!(offset_of!(DLTensor, strides), 32);
        assert_eq!(offset_of!(DLTensor, byte_offset), 40);
        assert_eq!(size_of::<DLManagedTensor>(), 64);
        assert_eq!(offset_of!(DLManagedTensor, manager_ctx), 48);
        assert_eq!(offset_of!(DLManagedTensor, deleter), 56);
        assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
        assert_eq!(offset_of!(DLManagedTensorVersioned, manager_ctx), 8);
        assert_eq!(offset_of!(DLManagedTensorVersioned, deleter), 16);
        assert_eq!(offset_of!(DLManagedTensorVersioned, flags), 24);
        assert_eq!(offset_of!(DLManagedTensorVersioned, dl_tensor), 32);
        assert_eq!(offset_of!(Export, managed), 0);
    }

    #[test]
    fn dtypes_map_to_dlpack_codes() {
        assert_eq!(
            DLDataType::of::<i8>().map(|d| (d.code, d.bits)),
            Some((0, 8))
        );
        assert_eq!(
            DLDataType::of::<u64>().map(|d| (d.code, d.bits)),
            Some((1, 64))
        );
        assert_eq!(
            DLDataType::of::<half::f16>().map(|d| (d.code, d.bits)),
            Some((2, 16))
        );
        assert_eq!(
            DLDataType::of::<num_complex::Complex<f64>>().map(|d| (d.code, d.bits)),
            Some((5, 128))
        );
        assert_eq!(
            DLDataType::of::<bool>().map(|d| (d.code, d.bits)),
            Some((6, 8))
        );
    }
}
