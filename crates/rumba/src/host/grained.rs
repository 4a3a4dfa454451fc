//! ROC's host arrays: coarse- and fine-grained host memory that every device uses directly —
//! [`GrainedArray`] ([`CoarsegrainArray`], [`FinegrainArray`]), made by [`coarsegrain_array`],
//! [`finegrain_array`] and their `_like` forms (Numba's `roc.coarsegrain_array` /
//! `roc.finegrain_array`).
//!
//! HSA defines the two kinds by *when* host and device see each other's writes: fine-grained
//! memory is coherent while device work runs; coarse-grained memory only at synchronization
//! points. Where the memory comes from is the driver's
//! [`host_alloc_grained`](crate::driver::Driver::host_alloc_grained): on the sim and on CUDA,
//! fine-grained memory is page-locked, mapped, portable host memory (the device reads and writes
//! the host pages in place, from every device, while it runs) and coarse-grained memory is managed
//! memory; an OpenCL driver gives coarse- and fine-grained SVM.
//!
//! # What is enforced, and where a program can see it
//!
//! The host sees device writes **at synchronization points**, and may not touch the memory while
//! device work may use it. Both kinds keep that rule (it is all coarse-grained memory promises,
//! and the most a Rust program may rely on for either):
//!
//! - **Asynchronous device work without a scope.** [`fill_on`](GrainedArray::fill_on),
//!   [`copy_from_device_on`](GrainedArray::copy_from_device_on) and
//!   [`copy_to_device_on`](GrainedArray::copy_to_device_on) queue work on a stream and return at
//!   once — ROC's `copy_to_device(coarse, stream=s)` — and the array records the stream.
//! - **Host access is the synchronization point.** [`view`](GrainedArray::view),
//!   [`view_mut`](GrainedArray::view_mut), [`device`](GrainedArray::device) and
//!   [`device_mut`](GrainedArray::device_mut) first wait for every recorded stream (and report
//!   its errors), so the host sees the device's writes — and never sees memory that device work
//!   may still be writing. [`try_view`](GrainedArray::try_view) **refuses** instead of waiting
//!   while recorded work is still running, naming the stream; [`is_idle`](GrainedArray::is_idle)
//!   asks. This is observable: queue work behind a gate and `try_view` fails until it has run.
//! - **The borrow checker does the rest.** Queuing work that writes needs `&mut self`, so no host
//!   view can be alive across it (this does not compile):
//!   ```compile_fail,E0502
//!   let s = rumba::stream().unwrap();
//!   let mut c = rumba::coarsegrain_array::<f32, _>(4, rumba::Order::C).unwrap();
//!   let v = c.view().unwrap();
//!   c.fill_on(1.0, &s).unwrap(); // error: `c` is borrowed by `v`
//!   println!("{}", v[0]);
//!   ```
//!
//! Fine-grained memory's further promise — coherence *during* device work — is provided
//! physically (device work writes the host pages in place, on every device, as it runs; no copy
//! is made at a synchronization point), but safe Rust cannot observe it: the host may not look
//! while the device may write (that would be a data race), and host atomics racing the
//! simulator's word-sized device accesses would be mixed-size atomic accesses, which Rust's
//! memory model also forbids. Kernels that take these arrays as arguments belong to the kernel
//! layer.
//!
//! Why not give coarse-grained memory a device-side copy on the sim, synchronized at the
//! synchronization points? Because no safe program could tell the difference (the host cannot
//! look between the points), while the CUDA Array Interface description — which names the device
//! address of the memory — would then name memory the host never sees.
//!
//! Work queued on a per-thread default stream is refused: that stream is a different one on every
//! host thread, so another thread's synchronization would not wait for it.
//!
//! This module touches the driver (allocation, device addresses), streams and the memory it owns.

use std::sync::{Arc, Mutex};

use ndarray::{ArrayView, ArrayViewMut, Dimension, IntoDimension};

use super::array::{HostArray, HostKind};
use super::layout::HostLayout;
use super::view::{MappedView, MappedViewMut, Parts};
use crate::array::{ArrayLike, DeviceArray};
use crate::driver::{GrainKind, StreamHandle};
use crate::error::{Error, HostMemoryError, Result};
use crate::layout::element::refuse_invalid_bits;
use crate::layout::{Element, Layout, Order};
use crate::runtime::context::Context;
use crate::stream::Stream;
use crate::sync::lock;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Coarse {}
    impl Sealed for super::Fine {}
}

/// The kind of a [`GrainedArray`]: [`Coarse`] or [`Fine`].
///
/// ```
/// use rumba::host::{Grain, Coarse, Fine};
/// assert_eq!(Coarse::KIND, rumba::driver::GrainKind::Coarse);
/// assert_eq!(Fine::KIND, rumba::driver::GrainKind::Fine);
/// ```
pub trait Grain: sealed::Sealed + HostKind<Memory = GrainedMem> {
    /// The driver's name for the kind.
    const KIND: GrainKind;
}

/// Coarse-grained memory: host and device see each other's writes at synchronization points.
///
/// ```
/// let c = rumba::coarsegrain_array::<u8, _>(1, rumba::Order::C).unwrap();
/// assert_eq!(c.grain(), rumba::driver::GrainKind::Coarse);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Coarse;

/// Fine-grained memory: coherent while device work runs.
///
/// ```
/// let f = rumba::finegrain_array::<u8, _>(1, rumba::Order::C).unwrap();
/// assert_eq!(f.grain(), rumba::driver::GrainKind::Fine);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Fine;

impl Grain for Coarse {
    const KIND: GrainKind = GrainKind::Coarse;
}

impl Grain for Fine {
    const KIND: GrainKind = GrainKind::Fine;
}

impl HostKind for Coarse {
    type Memory = GrainedMem;
    const NAME: &'static str = "coarse-grained";
}

impl HostKind for Fine {
    type Memory = GrainedMem;
    const NAME: &'static str = "fine-grained";
}

/// The allocation, shared with the streams whose queued work uses it.
struct Alloc {
    ptr: *mut u8,
    grain: GrainKind,
    ctx: Context,
}

// SAFETY: the allocation is owned host memory (like a `Box<[u8]>`) that is only freed in `Drop`.
unsafe impl Send for Alloc {}
// SAFETY: `Alloc` itself never reads or writes the memory.
unsafe impl Sync for Alloc {}

/// A pointer that the deferred free may carry to the thread that runs it.
struct FreePtr(*mut u8);
// SAFETY: only `host_free_grained` uses it, once, when no one else holds the memory.
unsafe impl Send for FreePtr {}

impl Drop for Alloc {
    fn drop(&mut self) {
        let (driver, grain) = (Arc::clone(self.ctx.driver()), self.grain);
        // The last user may be queued work, released on a callback thread: then the memory is
        // freed with the context's next flush.
        let ptr = FreePtr(self.ptr);
        self.ctx.release_or_defer(
            format!("{grain} host memory at {:p}", self.ptr),
            Box::new(move || {
                let ptr = ptr;
                // SAFETY: the array and every stream that used the memory have let go of it.
                unsafe { driver.host_free_grained(ptr.0, grain) }
            }),
        );
    }
}

/// An n-dimensional array of `T` in coarse- or fine-grained host memory (see the
/// [module docs](self) for what each promises and what is enforced).
///
/// ```
/// let s = rumba::stream().unwrap();
/// let mut c = rumba::coarsegrain_array::<i32, _>(4, rumba::Order::C).unwrap();
/// c.view_mut().unwrap().assign(&ndarray::array![1, 2, 3, 4]);
/// let d = rumba::device_array::<i32, _>(4, rumba::Order::C).unwrap();
/// s.copy(&d, &c).unwrap();        // asynchronous: returns at once
/// c.fill_on(0, &s).unwrap();                   // ordered after the copy on `s`
/// assert_eq!(c.view().unwrap().to_vec(), [0; 4]); // host access: a synchronization point
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 3, 4]);
/// ```
pub type GrainedArray<T, D, G> = HostArray<T, D, G>;

/// What a coarse- or fine-grained array holds besides its shape.
#[doc(hidden)]
pub struct GrainedMem {
    alloc: Arc<Alloc>,
    stream: Option<Stream>,
    /// Streams with device work on the memory that the host has not synchronized with yet.
    pending: Mutex<Vec<Stream>>,
}
// Dropping an array with queued work needs no waiting: the streams hold the allocation (not the
// array) until their work has run, and free it then.

/// Coarse-grained host memory (ROC's `coarsegrain_array`).
pub type CoarsegrainArray<T, D> = GrainedArray<T, D, Coarse>;
/// Fine-grained host memory (ROC's `finegrain_array`).
pub type FinegrainArray<T, D> = GrainedArray<T, D, Fine>;

/// A new coarse-grained array of `shape` in `order` (`A` means C), zeroed.
///
/// # Errors
/// An invalid shape; out of memory; a driver without such memory.
///
/// ```
/// let c = rumba::coarsegrain_array::<f32, _>(1024, rumba::Order::C).unwrap();
/// assert_eq!(c.view().unwrap().len(), 1024);
/// ```
pub fn coarsegrain_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
) -> Result<CoarsegrainArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    GrainedArray::new(HostLayout::packed::<T>(&dim, order)?)
}

/// A new coarse-grained array with the shape and element type of `like`, by numpy's
/// `empty_like` rule.
///
/// # Errors
/// As for [`coarsegrain_array`].
///
/// ```
/// let like = ndarray::Array2::<u16>::zeros((2, 3));
/// assert_eq!(rumba::coarsegrain_array_like(&like).unwrap().shape(), &[2, 3]);
/// ```
pub fn coarsegrain_array_like<A: ArrayLike + ?Sized>(
    like: &A,
) -> Result<CoarsegrainArray<A::Elem, A::Dim>> {
    GrainedArray::new(HostLayout::like(like)?)
}

/// A new fine-grained array of `shape` in `order` (`A` means C), zeroed.
///
/// # Errors
/// An invalid shape; out of memory; a driver without such memory.
///
/// ```
/// let f = rumba::finegrain_array::<f64, _>((2, 2), rumba::Order::F).unwrap();
/// assert_eq!(f.layout().strides(), &[8, 16]);
/// ```
pub fn finegrain_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
) -> Result<FinegrainArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    GrainedArray::new(HostLayout::packed::<T>(&dim, order)?)
}

/// A new fine-grained array like `like` (numpy's `empty_like` rule).
///
/// # Errors
/// As for [`finegrain_array`].
///
/// ```
/// let d = rumba::device_array::<i8, _>(5, rumba::Order::C).unwrap();
/// assert_eq!(rumba::finegrain_array_like(&d).unwrap().shape(), &[5]);
/// ```
pub fn finegrain_array_like<A: ArrayLike + ?Sized>(
    like: &A,
) -> Result<FinegrainArray<A::Elem, A::Dim>> {
    GrainedArray::new(HostLayout::like(like)?)
}

impl<T: Element, D: Dimension, G: Grain> GrainedArray<T, D, G> {
    fn new(shape: HostLayout<D>) -> Result<Self> {
        let ctx = crate::runtime::current_context()?;
        let ptr =
            ctx.driver()
                .host_alloc_grained(ctx.device_id(), shape.extent().max(1), G::KIND)?;
        let alloc = Arc::new(Alloc {
            ptr,
            grain: G::KIND,
            ctx,
        });
        if (ptr as usize) % std::mem::align_of::<T>() != 0 {
            return Err(HostMemoryError::Misaligned {
                ptr: ptr as usize,
                memory: G::KIND.to_string(),
                dtype: T::DTYPE.name(),
            }
            .into());
        }
        Ok(GrainedArray::from_parts(
            GrainedMem {
                alloc,
                stream: None,
                pending: Mutex::new(Vec::new()),
            },
            shape,
        ))
    }

    fn parts(&self) -> Parts<D> {
        Parts {
            base: self.mem.alloc.ptr,
            shape: self.shape.clone(),
            ctx: self.mem.alloc.ctx.clone(),
            stream: self.mem.stream.clone(),
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Vec<Stream>> {
        lock(&self.mem.pending)
    }

    /// Coarse- or fine-grained.
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>(1, rumba::Order::C).unwrap();
    /// assert_eq!(c.grain().to_string(), "coarse-grained");
    /// ```
    pub fn grain(&self) -> GrainKind {
        G::KIND
    }

    /// The same array bound to `stream`: the synchronous device operations of its views run
    /// there, and its CUDA Array Interface description carries the stream's handle.
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let s = rumba::stream().unwrap();
    /// let f = rumba::finegrain_array::<u8, _>(4, rumba::Order::C).unwrap().bind(&s);
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    ///     assert!(matches!(f.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// } else {
    ///     assert_eq!(f.describe().unwrap().stream, Some(s.handle().0));
    /// }
    /// ```
    pub fn bind(mut self, stream: &Stream) -> Self {
        self.mem.stream = Some(stream.clone());
        self
    }

    /// The stream the array is bound to.
    ///
    /// ```
    /// assert!(rumba::finegrain_array::<u8, _>(4, rumba::Order::C).unwrap().stream().is_none());
    /// ```
    pub fn stream(&self) -> Option<&Stream> {
        self.mem.stream.as_ref()
    }

    /// Waits for all device work queued on the memory by the `*_on` methods — a synchronization
    /// point: afterwards the host sees what the device wrote.
    ///
    /// # Errors
    /// The first error of that work (each error is reported once), or a refusal to wait (from a
    /// stream callback); work that is still running then stays recorded.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let mut c = rumba::coarsegrain_array::<u8, _>(8, rumba::Order::C).unwrap();
    /// c.fill_on(3, &s).unwrap();
    /// c.synchronize().unwrap();
    /// assert!(c.is_idle().unwrap());
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        let mut pending = self.pending();
        let mut first = Ok(());
        let mut busy = Vec::new();
        for s in pending.drain(..) {
            if let Err(e) = s.synchronize() {
                if first.is_ok() {
                    first = Err(e);
                }
                // A failed synchronization may not have waited (a callback thread): keep the
                // stream until it is known to be idle.
                if !s.query().unwrap_or(false) {
                    busy.push(s);
                }
            }
        }
        *pending = busy;
        first
    }

    /// True when no device work queued by the `*_on` methods may still use the memory (without
    /// waiting; errors of finished work stay with their streams).
    ///
    /// # Errors
    /// A stream query that fails.
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>(8, rumba::Order::C).unwrap();
    /// assert!(c.is_idle().unwrap());
    /// ```
    pub fn is_idle(&self) -> Result<bool> {
        let mut pending = self.pending();
        let mut still = Vec::new();
        for s in pending.drain(..) {
            if !s.query()? {
                still.push(s);
            }
        }
        let idle = still.is_empty();
        *pending = still;
        Ok(idle)
    }

    /// A shared host view, after waiting for recorded device work (a synchronization point).
    ///
    /// # Errors
    /// As for [`synchronize`](Self::synchronize); no view is returned then.
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// assert_eq!(c.view().unwrap().to_vec(), [0, 0, 0]);
    /// ```
    pub fn view(&self) -> Result<ArrayView<'_, T, D>> {
        self.synchronize()?;
        // SAFETY: live, owned, aligned memory of valid `T`s; recorded device work has completed,
        // and new device writes need `&mut self`, which this borrow excludes.
        Ok(unsafe { self.shape.view(self.mem.alloc.ptr) })
    }

    /// A shared host view if no recorded device work may still use the memory; otherwise the
    /// host is **refused**, with an error naming the stream (it does not wait).
    ///
    /// # Errors
    /// [`Error::InUse`] while device work may still use the memory.
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// assert!(c.try_view().is_ok());
    /// ```
    pub fn try_view(&self) -> Result<ArrayView<'_, T, D>> {
        if !self.is_idle()? {
            let on = self
                .pending()
                .first()
                .map_or_else(|| "a stream".to_string(), |s| s.to_string());
            return Err(Error::InUse {
                memory: G::KIND.to_string(),
                stream: on,
            });
        }
        self.view()
    }

    /// An exclusive host view, after waiting for recorded device work.
    ///
    /// # Errors
    /// As for [`synchronize`](Self::synchronize).
    ///
    /// ```
    /// let mut f = rumba::finegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// f.view_mut().unwrap().fill(9);
    /// assert_eq!(f.view().unwrap().to_vec(), [9; 3]);
    /// ```
    pub fn view_mut(&mut self) -> Result<ArrayViewMut<'_, T, D>> {
        self.synchronize()?;
        // SAFETY: as in `view`; recorded device reads have completed too, and `&mut self`
        // excludes new device work while the view lives.
        Ok(unsafe { self.shape.view_mut(self.mem.alloc.ptr) })
    }

    /// The device side, shared (the device may read), after waiting for recorded device work:
    /// synchronous device operations and scoped ones ([`StreamScope`](crate::StreamScope)), as
    /// for mapped memory.
    ///
    /// # Errors
    /// As for [`synchronize`](Self::synchronize).
    ///
    /// ```
    /// let mut c = rumba::coarsegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// c.view_mut().unwrap().fill(9);
    /// let d = rumba::device_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// rumba::copy(&d, c.device().unwrap()).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [9, 9, 9]);
    /// ```
    pub fn device(&self) -> Result<MappedView<'_, T, D>> {
        self.synchronize()?;
        Ok(MappedView::new(self.parts()))
    }

    /// The device side, exclusive (the device may write), after waiting for recorded device work.
    ///
    /// # Errors
    /// As for [`synchronize`](Self::synchronize).
    ///
    /// ```
    /// let mut f = rumba::finegrain_array::<u16, _>(3, rumba::Order::C).unwrap();
    /// f.device_mut().unwrap().fill(7).unwrap();
    /// assert_eq!(f.view().unwrap().to_vec(), [7; 3]);
    /// ```
    pub fn device_mut(&mut self) -> Result<MappedViewMut<'_, T, D>> {
        self.synchronize()?;
        Ok(MappedViewMut::new(self.parts()))
    }

    /// Checks that work on `stream` can be tracked, and records it **before** anything is
    /// queued (a recorded stream that then gets no work only costs a synchronization).
    fn track(&self, stream: &Stream) -> Result<()> {
        let ptd = stream.handle() == StreamHandle::PER_THREAD
            || (stream.handle() == StreamHandle::DEFAULT
                && stream.context().config().per_thread_default_stream);
        if ptd {
            return Err(Error::ThreadLocalStream {
                memory: G::KIND.to_string(),
                stream: stream.to_string(),
            });
        }
        let mut pending = self.pending();
        let known = pending.iter().any(|s| {
            s.handle() == stream.handle() && s.context().device_id() == stream.context().device_id()
        });
        if !known {
            pending.push(stream.clone());
        }
        Ok(())
    }

    /// After queuing: the stream keeps the allocation alive until it has run the work. If even
    /// that fails, the stream is waited for so the memory cannot be freed under the work.
    fn keep(&self, stream: &Stream) -> Result<()> {
        match stream.keep_alive(Arc::clone(&self.mem.alloc)) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = stream.synchronize();
                Err(e)
            }
        }
    }

    /// Queues setting every element to `value` on `stream` and returns at once; the host sees it
    /// at the next synchronization point.
    ///
    /// # Errors
    /// A per-thread default stream; memory not addressable by the stream's device; a driver
    /// refusal (nothing is queued then).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let mut c = rumba::coarsegrain_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// c.fill_on(2.5, &s).unwrap();
    /// assert_eq!(c.view().unwrap().sum(), 10.0);
    /// ```
    pub fn fill_on(&mut self, value: T, stream: &Stream) -> Result<()> {
        self.track(stream)?;
        let bytes = crate::layout::element::as_bytes(std::slice::from_ref(&value)).to_vec();
        let mut view = MappedViewMut::<T, D>::new(self.parts());
        view.fill_bytes(&bytes, stream.context().device_id(), stream.handle(), false)?;
        self.keep(stream)
    }

    /// Queues a copy of the device array `src` (same shape, any layouts) into the memory on
    /// `stream` and returns at once (ROC's `copy_to_host(coarse, stream=s)`). Refused for element
    /// types that not every byte pattern is valid for (`bool`). Spelled
    /// [`stream.copy(&mut grained, &d)`](Stream::copy) now.
    ///
    /// # Errors
    /// A shape mismatch, `bool` elements, a per-thread default stream, or a driver refusal
    /// (nothing is queued then).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let src = rumba::to_device(&[1u64, 2, 3]).unwrap();
    /// let mut c = rumba::coarsegrain_array::<u64, _>(3, rumba::Order::C).unwrap();
    /// s.copy(&mut c, &src).unwrap();
    /// drop(src); // the stream keeps it alive until the copy has run
    /// assert_eq!(c.view().unwrap().to_vec(), [1, 2, 3]);
    /// ```
    #[deprecated(note = "use stream.copy(&mut grained, &d)")]
    pub fn copy_from_device_on<E: Dimension>(
        &mut self,
        src: &DeviceArray<T, E>,
        stream: &Stream,
    ) -> Result<()> {
        self.copy_from_device_on_impl(src, stream)
    }

    /// Queues the copy of `src` into the memory on `stream`; what `Stream::copy` runs.
    pub(crate) fn copy_from_device_on_impl<E: Dimension>(
        &mut self,
        src: &DeviceArray<T, E>,
        stream: &Stream,
    ) -> Result<()> {
        refuse_invalid_bits::<T>(
            "an asynchronous device copy",
            "copy into device_mut()? synchronously with rumba::copy",
        )?;
        if self.shape() != src.shape() {
            return Err(Error::IncompatibleShape {
                left: self.shape().to_vec(),
                right: src.shape().to_vec(),
            });
        }
        self.track(stream)?;
        let mut view = MappedViewMut::<T, D>::new(self.parts());
        view.copy_from_device_on(src, Some(stream))?;
        self.keep(stream)
    }

    /// Queues a copy of the memory into the device array `dst` (same shape, any layouts) on
    /// `stream` and returns at once (ROC's `copy_to_device(coarse, stream=s)`); the host may
    /// keep reading the memory meanwhile, and writes wait for the copy. Spelled
    /// [`stream.copy(&d, &grained)`](Stream::copy) now.
    ///
    /// # Errors
    /// A shape mismatch, a per-thread default stream, or a driver refusal (nothing is queued
    /// then).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let mut c = rumba::coarsegrain_array::<i16, _>(2, rumba::Order::C).unwrap();
    /// c.view_mut().unwrap().fill(-3);
    /// let d = rumba::device_array::<i16, _>(2, rumba::Order::C).unwrap();
    /// s.copy(&d, &c).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [-3, -3]);
    /// ```
    #[deprecated(note = "use stream.copy(&d, &grained)")]
    pub fn copy_to_device_on<E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        stream: &Stream,
    ) -> Result<()> {
        self.copy_to_device_on_impl(dst, stream)
    }

    /// Queues the copy of the memory into `dst` on `stream`; what `Stream::copy` runs.
    pub(crate) fn copy_to_device_on_impl<E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        stream: &Stream,
    ) -> Result<()> {
        if self.shape() != dst.shape() {
            return Err(Error::IncompatibleShape {
                left: self.shape().to_vec(),
                right: dst.shape().to_vec(),
            });
        }
        self.track(stream)?;
        MappedView::<T, D>::new(self.parts()).copy_to_device_on(dst, Some(stream))?;
        self.keep(stream)
    }

    /// True when the memory is really page-locked (fine-grained memory is, where the OS allows;
    /// coarse-grained memory is not — except on OpenCL, where both are fine-grained shared
    /// virtual memory, page-locked alike).
    ///
    /// ```
    /// let c = rumba::coarsegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    ///     let f = rumba::finegrain_array::<u8, _>(3, rumba::Order::C).unwrap();
    ///     assert_eq!(c.is_page_locked(), f.is_page_locked()); // one kind of memory for both
    /// } else {
    ///     assert!(!c.is_page_locked());
    /// }
    /// ```
    pub fn is_page_locked(&self) -> bool {
        self.mem
            .alloc
            .ctx
            .driver()
            .host_page_locking(self.mem.alloc.ptr)
            .is_some_and(|p| p.is_available())
    }

    /// The description for the CUDA Array Interface (after waiting for recorded work, as the
    /// consumer will use the memory next).
    pub(crate) fn description_parts(&self) -> Result<Parts<D>> {
        self.synchronize()?;
        Ok(self.parts())
    }
}

impl<T: Element, D: Dimension, G: Grain> ArrayLike for GrainedArray<T, D, G> {
    type Elem = T;
    type Dim = D;
    fn like_layout(&self) -> Result<Layout> {
        Ok(self.shape.layout.clone())
    }
}
