//! The CUDA Array Interface, version 3: arrays describing themselves to other libraries, and
//! device arrays built from such descriptions.
//!
//! [`CudaArrayInterface`] is the description (shape, typestr, data pointer and read-only flag,
//! strides or `None` when C-contiguous, mask, stream, version); `cai_map` gives it the
//! string-keyed map form a Python bridge needs. [`CudaArray`] is implemented by everything that
//! can describe itself — every [`DeviceArray`], and the host memory the device addresses directly
//! (mapped, managed and ROC host arrays, their device views: see `cai_host`).
//!
//! **Export.** The stream entry is never 0 (the interface forbids it): `None` for an array that
//! is not bound to a stream or is bound to the default stream (handle 0) — which is described as
//! 2 instead when per-thread default streams are configured (`RUMBA_PER_THREAD_DEFAULT_STREAM`) —
//! else the bound stream's handle: 1 for the legacy default stream, 2 for the per-thread one, or
//! a created stream's.
//! A size-0 array exports data pointer 0.
//!
//! **Import, and why it is `unsafe` or not.** A [`DeviceBuffer`]
//! promises that it always holds device memory, and the safe copy methods of every array rely on
//! it. A description is only numbers: nothing proves that the pointer is device memory, that it
//! stays allocated, or that it is not mapped host memory that safe Rust code also reaches through
//! references. So
//! - [`from_cuda_array_interface`] (a raw description plus an owner) is `unsafe`: the caller
//!   vouches for the memory;
//! - [`as_cuda_array`] is safe, because it only accepts a [`DeviceMemoryOwner`] — an `unsafe
//!   trait` whose implementor vouches, once, that its description names device memory it keeps
//!   alive. [`DeviceArray`] implements it (its memory is a `DeviceBuffer`). Mapped and managed
//!   host arrays should implement only [`CudaArray`]: their memory is also reachable through
//!   host references, so importing it as a device array stays the caller's `unsafe` decision.
//!
//! Either way the import keeps the owner alive for as long as any view of it exists and never
//! frees the memory itself; masked descriptions are refused ("masked arrays are not supported").
//! When the description names a stream, the import is bound to that stream and — unless the
//! caller opts out ([`ImportOptions::sync`]) or `RUMBA_CUDA_ARRAY_INTERFACE_SYNC=0` — the stream
//! is synchronized once, before the import returns.
//!
//! **OpenCL.** The interface is CUDA's: on the OpenCL backend, whose SVM addresses mean nothing to
//! a CUDA consumer, every description ([`CudaArray::describe`]) and every import is refused with
//! [`Error::Unsupported`], and [`is_cuda_array`] is false. (DLPack is the interchange there.)
//!
//! This module touches the array layer (layouts, arrays), the memory layer (foreign buffers) and
//! streams (binding, synchronizing).

use ndarray::Dimension;

use crate::array::DeviceArray;
use crate::driver::{BackendKind, DevicePtr, StreamHandle};
use crate::error::{ArrayInterfaceError, Error, Result, StridesError};
use crate::layout::Layout;
use crate::layout::element::Element;
use crate::layout::extent::reach;
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;

/// The interface version rumba produces.
pub const CAI_VERSION: u32 = 3;

/// A CUDA Array Interface (v3) description of an n-d array in device-addressable memory.
///
/// ```
/// use ndarray::s;
/// let d = rumba::device_array::<f64, _>((2, 3, 4), rumba::Order::C).unwrap();
/// let desc = d.cuda_array_interface();
/// assert_eq!((desc.shape.as_slice(), desc.typestr.as_str()), (&[2, 3, 4][..], "<f8"));
/// assert_eq!(desc.data, (d.device_ptr(), false));
/// assert_eq!((desc.strides.clone(), desc.stream, desc.version), (None, None, 3));
/// let v = d.slice(s![.., 1, ..]).unwrap().cuda_array_interface();
/// assert_eq!(v.strides, Some(vec![96, 8]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CudaArrayInterface {
    /// Number of elements along each axis.
    pub shape: Vec<usize>,
    /// numpy's type string: byte order, kind, item size (`"<f4"`).
    pub typestr: String,
    /// Device address of the element at index `(0, …, 0)` (0 for a size-0 array), and whether
    /// the memory is read-only.
    pub data: (DevicePtr, bool),
    /// Byte strides, or `None` for a C-contiguous array.
    pub strides: Option<Vec<isize>>,
    /// A mask array's description (masked arrays are refused on import).
    pub mask: Option<Box<CudaArrayInterface>>,
    /// The stream the producer's pending work is on: `None`, or a handle (never 0).
    pub stream: Option<u64>,
    /// Interface version (3).
    pub version: u32,
}

/// Something that describes itself through the CUDA Array Interface.
///
/// Safe to implement: a description alone grants nothing. Importing one as a device array
/// needs the stronger, `unsafe` [`DeviceMemoryOwner`] promise (or an `unsafe` call).
///
/// ```
/// use rumba::interop::{CudaArray, is_cuda_array};
/// let d = rumba::device_array::<u8, _>(4, rumba::Order::C).unwrap();
/// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
///     // OpenCL memory is not CUDA memory: the description is refused.
///     assert!(matches!(d.describe(), Err(rumba::Error::Unsupported { .. })));
///     assert!(!is_cuda_array(&d));
/// } else {
///     assert!(is_cuda_array(&d));
///     assert_eq!(d.describe().unwrap().shape, vec![4]);
/// }
/// ```
pub trait CudaArray {
    /// The description (`__cuda_array_interface__`); an error when the object cannot describe
    /// itself now.
    ///
    /// # Errors
    /// [`Error::Unsupported`] on backends without the interface (OpenCL); an implementor's own error
    /// when the object cannot describe itself now.
    fn describe(&self) -> Result<CudaArrayInterface>;
}

/// A [`CudaArray`] whose description names **device** memory that it keeps alive.
///
/// # Safety
/// An implementor promises that, for as long as the value lives (and whenever
/// [`describe`](CudaArray::describe) succeeds):
/// - the data pointer, shape, strides and typestr describe memory of the **current device** of the
///   running backend in which every element the layout reaches is allocated;
/// - that memory is device memory, not host memory (mapped, managed or otherwise) that Rust code
///   may reach through references;
/// - a stream handle in the description names a live stream of the current device;
/// - the memory is not freed before the value is dropped (the import keeps the value alive).
///
/// ```
/// use rumba::interop::{CudaArray, DeviceMemoryOwner, CudaArrayInterface};
/// // A wrapper that exposes only the interface of an array it owns.
/// struct Wrapper(rumba::DeviceArray<f32, ndarray::Ix1>);
/// impl CudaArray for Wrapper {
///     fn describe(&self) -> rumba::Result<CudaArrayInterface> { Ok(self.0.cuda_array_interface()) }
/// }
/// // SAFETY: the description is the owned device array's own, which the wrapper keeps alive.
/// unsafe impl DeviceMemoryOwner for Wrapper {}
/// let w = Wrapper(rumba::to_device(&[1.0f32, 2.0]).unwrap());
/// let ptr = w.0.device_ptr();
/// let imported = rumba::interop::as_cuda_array::<f32, ndarray::Ix1, _>(w);
/// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
/// #     assert!(matches!(imported, Err(rumba::Error::Unsupported { .. }))); // no CUDA interface on OpenCL
/// #     return;
/// # }
/// assert_eq!(imported.unwrap().device_ptr(), ptr);
/// ```
pub unsafe trait DeviceMemoryOwner: CudaArray + Send + Sync + 'static {}

/// How an import treats the producer's stream.
///
/// ```
/// let o = rumba::interop::ImportOptions::default();
/// assert!(o.sync);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Synchronize the description's stream before returning (once), unless
    /// `RUMBA_CUDA_ARRAY_INTERFACE_SYNC=0`. `false` opts out: later work on the import is still
    /// ordered after the producer's, because the import is bound to the producer's stream.
    pub sync: bool,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { sync: true }
    }
}

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// The array's CUDA Array Interface description (`__cuda_array_interface__`).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<i32, _>(3, rumba::Order::C).unwrap();
    /// assert_eq!(d.cuda_array_interface().stream, None);
    /// assert_eq!(d.bind(&s).cuda_array_interface().stream, Some(s.handle().0));
    /// let legacy = d.bind(&rumba::legacy_default_stream().unwrap());
    /// assert_eq!(legacy.cuda_array_interface().stream, Some(1));
    /// let default = d.bind(&rumba::default_stream().unwrap());
    /// assert_eq!(default.cuda_array_interface().stream, None); // never 0
    /// ```
    pub fn cuda_array_interface(&self) -> CudaArrayInterface {
        let ptr = if self.size() == 0 {
            0
        } else {
            self.device_ptr()
        };
        CudaArrayInterface {
            shape: self.shape().to_vec(),
            typestr: T::DTYPE.typestr(),
            data: (ptr, false),
            strides: (!self.is_c_contiguous()).then(|| self.strides().to_vec()),
            mask: None,
            stream: self.stream().and_then(Stream::interface_handle),
            version: CAI_VERSION,
        }
    }
}

impl<T: Element, D: Dimension> CudaArray for DeviceArray<T, D> {
    /// The array's description; refused for an array on the OpenCL backend, whose memory no
    /// CUDA consumer can address (export it with DLPack instead).
    /// A handle from before a context reset is refused ([`Error::StaleHandle`]): its memory
    /// may belong to another allocation by now.
    fn describe(&self) -> Result<CudaArrayInterface> {
        refuse_opencl(self.buffer().driver().backend())?;
        let lease = Lease::enter()?;
        self.addr(&lease)?;
        Ok(self.cuda_array_interface())
    }
}

/// The CUDA Array Interface is CUDA's: an OpenCL backend neither exports nor imports it.
pub(crate) fn refuse_opencl(backend: BackendKind) -> Result<()> {
    if backend == BackendKind::OpenCl {
        return Err(Error::Unsupported {
            backend: backend.to_string(),
            feature: "the CUDA Array Interface".into(),
            reason: "it describes CUDA device memory, and OpenCL's SVM addresses mean nothing to a CUDA consumer (use DLPack, device type kDLOpenCL)".into(),
        });
    }
    Ok(())
}

// SAFETY: a device array's memory is a `DeviceBuffer` (device memory by that type's invariant)
// of the device it was made on, which the array keeps allocated; its bound stream is kept alive by
// the array. The description is computed from exactly that buffer and layout.
unsafe impl<T: Element, D: Dimension + 'static> DeviceMemoryOwner for DeviceArray<T, D> {}

/// True when `obj` can describe itself through the interface now.
///
/// ```
/// let d = rumba::device_array::<f32, _>(2, rumba::Order::C).unwrap();
/// let on_opencl = rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl;
/// assert_eq!(rumba::interop::is_cuda_array(&d), !on_opencl); // OpenCL memory is not CUDA memory
/// ```
pub fn is_cuda_array<O: CudaArray + ?Sized>(obj: &O) -> bool {
    obj.describe().is_ok()
}

/// A device array over `obj`'s memory (no copy), keeping `obj` alive; the producer's stream is
/// synchronized once if the description names one (see [`ImportOptions`]).
///
/// # Errors
/// As [`as_cuda_array_with`].
///
/// ```
/// use ndarray::array;
/// let d = rumba::to_device(&array![1i64, 2, 3]).unwrap();
/// let view = match rumba::interop::as_cuda_array::<i64, ndarray::Ix1, _>(d.clone()) {
///     Ok(view) => view,
///     // The interface is CUDA's: the OpenCL backend refuses it.
///     Err(rumba::Error::Unsupported { backend, .. }) if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl => {
///         assert_eq!(backend, "opencl");
///         return;
///     }
///     Err(e) => panic!("{e}"),
/// };
/// assert_eq!(view.device_ptr(), d.device_ptr());
/// view.set(&[0], 10).unwrap();
/// assert_eq!(d.copy_to_host().unwrap(), array![10, 2, 3]);
/// ```
pub fn as_cuda_array<T: Element, D: Dimension, O: DeviceMemoryOwner>(
    obj: O,
) -> Result<DeviceArray<T, D>> {
    as_cuda_array_with(obj, ImportOptions::default())
}

/// [`as_cuda_array`] with explicit [`ImportOptions`].
///
/// # Errors
/// The error of `obj`'s [`describe`](CudaArray::describe); otherwise as
/// [`from_cuda_array_interface`].
///
/// ```
/// use rumba::interop::{as_cuda_array_with, ImportOptions};
/// let s = rumba::stream().unwrap();
/// let d = rumba::device_array::<u8, _>(4, rumba::Order::C).unwrap().bind(&s);
/// let v = as_cuda_array_with::<u8, ndarray::Ix1, _>(d, ImportOptions { sync: false });
/// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
/// #     assert!(matches!(v, Err(rumba::Error::Unsupported { .. }))); // no CUDA interface on OpenCL
/// #     return;
/// # }
/// let v = v.unwrap();
/// assert_eq!(v.stream().unwrap().handle(), s.handle()); // ordered after the producer's work
/// ```
pub fn as_cuda_array_with<T: Element, D: Dimension, O: DeviceMemoryOwner>(
    obj: O,
    options: ImportOptions,
) -> Result<DeviceArray<T, D>> {
    // No reset between the description and the import (which a later reset refuses).
    let _lease = Lease::enter()?;
    let desc = obj.describe()?;
    // SAFETY: `O: DeviceMemoryOwner` vouches for the description, and `obj` is kept alive by the
    // import.
    unsafe { from_cuda_array_interface(&desc, obj, options) }
}

/// Builds a device array over the memory a description names, keeping `owner` alive until the
/// last view of the import is dropped (the memory itself is never freed by rumba).
///
/// Checks: no mask; the typestr matches `T` (kind and size; byte order native or irrelevant);
/// the number of axes fits `D`; the data pointer is aligned for `T`; strides are aligned and their
/// extent does not overflow; stream is not 0. Then, if the description names a stream, the import
/// is bound to it and synchronized as [`ImportOptions`] and the configuration say.
///
/// # Errors
/// [`Error::ArrayInterface`] for a masked description, a misaligned or null pointer, strides
/// reaching below address 0, or stream 0; [`Error::Unsupported`] on backends without the interface
/// (OpenCL); [`Error::IncompatibleDtype`] when the typestr is not `T`'s; [`Error::Shape`] /
/// [`Error::Strides`] for a number of axes that does not fit `D`, a misaligned stride or an
/// overflowing extent; the errors of [`current_context`](crate::current_context#errors) and of the
/// producer stream's synchronization.
///
/// # Safety
/// The caller vouches for the description as a [`DeviceMemoryOwner`] implementor does: it names
/// device memory of the current device (not host memory that Rust code reaches by reference),
/// every element is allocated and stays so while `owner` lives, and a stream handle, if any, is
/// a live stream of the current device.
///
/// ```
/// use ndarray::array;
/// let d = rumba::to_device(&array![[1u16, 2], [3, 4]]).unwrap();
/// let desc = d.cuda_array_interface();
/// // SAFETY: the description is `d`'s own, and `d` is the owner kept alive by the import.
/// let imp = unsafe {
///     rumba::interop::from_cuda_array_interface::<u16, ndarray::Ix2, _>(&desc, d, Default::default())
/// };
/// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
/// #     assert!(matches!(imp, Err(rumba::Error::Unsupported { .. }))); // no CUDA interface on OpenCL
/// #     return;
/// # }
/// let imp = imp.unwrap();
/// assert_eq!(imp.copy_to_host().unwrap(), array![[1, 2], [3, 4]]);
/// ```
pub unsafe fn from_cuda_array_interface<T: Element, D: Dimension, O: Send + Sync + 'static>(
    desc: &CudaArrayInterface,
    owner: O,
    options: ImportOptions,
) -> Result<DeviceArray<T, D>> {
    refuse_opencl(crate::runtime::current_context()?.driver().backend())?;
    // SAFETY: forwarded from the caller's contract.
    unsafe { import_described(desc, owner, options) }
}

/// [`from_cuda_array_interface`] without the refusal on OpenCL: the description is rumba's own
/// vocabulary for "device memory at this address", which DLPack imports use on every backend.
///
/// # Safety
/// As for [`from_cuda_array_interface`].
pub(crate) unsafe fn import_described<T: Element, D: Dimension, O: Send + Sync + 'static>(
    desc: &CudaArrayInterface,
    owner: O,
    options: ImportOptions,
) -> Result<DeviceArray<T, D>> {
    if desc.mask.is_some() {
        return Err(ArrayInterfaceError::Masked.into());
    }
    check_typestr::<T>(&desc.typestr)?;
    if desc.stream == Some(0) {
        return Err(ArrayInterfaceError::Stream0.into());
    }
    let ctx = crate::runtime::current_context()?;
    let dtype = T::DTYPE;
    let itemsize = dtype.itemsize();
    let size = desc.shape.iter().try_fold(1usize, |a, &n| a.checked_mul(n));
    let (buffer, layout) = if size == Some(0) {
        let layout = Layout::c_order(&desc.shape, itemsize)?;
        let empty = ctx.memalloc(0)?;
        (empty, layout)
    } else {
        let (ptr, _) = desc.data;
        if ptr == 0 || ptr % dtype.align() as u64 != 0 {
            return Err(ArrayInterfaceError::DataPointer {
                ptr,
                align: dtype.align(),
                dtype: dtype.name(),
            }
            .into());
        }
        let strides = match &desc.strides {
            Some(s) => s.clone(),
            None => Layout::c_order(&desc.shape, itemsize)?.strides().to_vec(),
        };
        let (lo, hi) =
            extent(&desc.shape, &strides, itemsize).ok_or_else(|| StridesError::Overflow {
                shape: desc.shape.clone(),
                strides: strides.clone(),
            })?;
        let base =
            ptr.checked_add_signed(lo as i64)
                .ok_or_else(|| ArrayInterfaceError::BelowZero {
                    shape: desc.shape.clone(),
                    strides: strides.clone(),
                    ptr,
                })?;
        let bytes = (hi - lo) as usize;
        let layout = Layout::with_strides(&desc.shape, &strides, (-lo) as usize, &dtype, bytes)?;
        // SAFETY: forwarded from the caller: `[base, base + bytes)` — exactly the bytes the
        // layout reaches — is device memory of the current device kept allocated by `owner`.
        let buffer = unsafe {
            DeviceBuffer::foreign(
                base,
                bytes,
                ctx.device_id(),
                std::sync::Arc::clone(ctx.driver()),
                Box::new(owner),
            )
        };
        (buffer, layout)
    };
    let stream = match desc.stream {
        None => None,
        Some(1) => Some(crate::stream::legacy_default_stream()?),
        Some(2) => Some(crate::stream::per_thread_default_stream()?),
        // SAFETY: forwarded from the caller: the handle is a live stream of the current device.
        Some(h) => Some(unsafe { crate::stream::external_stream(StreamHandle(h)) }?),
    };
    if let Some(s) = &stream {
        if options.sync && ctx.config().cuda_array_interface_sync {
            synchronize_producer(s)?;
        }
    }
    DeviceArray::from_parts(buffer, layout, stream)
}

/// Synchronizes the producer's stream of an import (one call per import; traced so that tests
/// and users can count them).
fn synchronize_producer(s: &Stream) -> Result<()> {
    s.synchronize()?;
    tracing::debug!(
        target: "rumba::interop::cai",
        stream = s.handle().0,
        "synchronized the producer's stream of a CUDA Array Interface import"
    );
    Ok(())
}

/// `[lo, hi)` bytes relative to the first element that a non-empty layout touches (`None` on
/// overflow).
fn extent(shape: &[usize], strides: &[isize], itemsize: usize) -> Option<(isize, isize)> {
    if shape.len() != strides.len() {
        // Layout::with_strides reports the mismatch with its own message.
        return Some((0, isize::try_from(itemsize).ok()?));
    }
    reach(shape, strides, 0, itemsize)
}

/// Checks that a typestr describes `T`: same kind letter and size; byte order `|`, `=` or native.
fn check_typestr<T: Element>(typestr: &str) -> Result<()> {
    let ours = T::DTYPE.typestr();
    let mismatch = || Error::IncompatibleDtype {
        left: T::DTYPE.name().to_string(),
        right: format!("typestr '{typestr}'"),
    };
    let mut chars = typestr.chars();
    let order = chars.next().ok_or_else(mismatch)?;
    let native = if cfg!(target_endian = "little") {
        '<'
    } else {
        '>'
    };
    let order_ok = matches!(order, '|' | '=') || order == native;
    if order_ok && chars.as_str() == &ours[1..] {
        Ok(())
    } else {
        Err(mismatch())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typestrs_match_by_kind_and_size_in_native_order() {
        assert!(check_typestr::<f32>("<f4").is_ok());
        assert!(check_typestr::<f32>("=f4").is_ok());
        assert!(check_typestr::<u8>("|u1").is_ok());
        assert!(check_typestr::<u8>("<u1").is_ok());
        assert!(check_typestr::<f32>("<i4").is_err());
        assert!(check_typestr::<f32>(">f4").is_err());
        assert!(check_typestr::<f32>("").is_err());
    }

    #[test]
    fn extents_cover_negative_strides() {
        assert_eq!(extent(&[4], &[-8], 8), Some((-24, 8)));
        assert_eq!(extent(&[2, 3], &[24, 8], 8), Some((0, 48)));
        assert_eq!(extent(&[usize::MAX], &[8], 8), None);
    }
}
