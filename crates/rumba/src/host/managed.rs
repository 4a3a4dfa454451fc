//! Managed (unified) arrays: [`ManagedArray`], made by [`managed_array`] and
//! [`managed_array_like`] — one allocation that the host and every device use directly.
//!
//! The memory comes straight from the driver
//! ([`Driver::mem_alloc_managed`](crate::driver::Driver::mem_alloc_managed)); memory managers
//! have no managed allocation in their interface (Numba's EMM has none either). On the sim it is
//! zeroed host memory, **not** page-locked, mapped into the address space of every device; on
//! CUDA it is `cuMemAllocManaged` memory. Access follows the same rules as mapped memory (see
//! [`MappedView`]): host views through `&self`/`&mut self`, device work through borrowed device
//! views that complete before the borrow ends. This also keeps programs correct on CUDA devices
//! without concurrent managed access, where touching managed memory from the host while a kernel
//! runs faults.
//!
//! The memory is released as soon as the array is dropped: no device work can still use it then.
//!
//! This module touches the driver (managed allocation) and the memory it owns.

use ndarray::{ArrayView, ArrayViewMut, Dimension, IntoDimension};

use super::array::{HostArray, HostKind, Managed};
use super::layout::HostLayout;
use super::view::{MappedView, MappedViewMut, Parts};
use crate::array::ArrayLike;
use std::sync::Mutex;

use crate::driver::{Advice, Location, ManagedAttach, Migrations, Residency};
use crate::error::{HostMemoryError, Result};
use crate::layout::{Element, Order};
use crate::memory::history::{self, EventKind, Note};
use crate::runtime::context::Context;
use crate::stream::Stream;
use crate::sync::lock;

/// An n-dimensional array of `T` in managed memory, usable from the host and every device.
///
/// ```
/// let mut a = rumba::managed_array::<i32, _>(5, rumba::Order::C).unwrap();
/// a.view_mut().assign(&ndarray::array![1, 2, 3, 4, 5]);
/// let d = rumba::device_array::<i32, _>(5, rumba::Order::C).unwrap();
/// rumba::copy(&d, a.device()).unwrap();   // the device reads it in place
/// a.device_mut().fill(0).unwrap();          // and writes it in place
/// assert_eq!(a.view().sum(), 0);
/// assert_eq!(d.copy_to_host().unwrap().sum(), 15);
/// ```
pub type ManagedArray<T, D> = HostArray<T, D, Managed>;

/// What a managed array holds: the allocation (freed when the array drops), how it is attached,
/// the context that made it and the stream it is bound to.
#[doc(hidden)]
pub struct ManagedMem {
    ptr: ManagedPtr,
    bytes: usize,
    attach: ManagedAttach,
    ctx: Context,
    stream: Option<Stream>,
    /// Where the last prefetch sent the memory.
    last: Mutex<Option<Location>>,
}

impl HostKind for Managed {
    type Memory = ManagedMem;
    const NAME: &'static str = "managed";
}

/// The managed allocation's address; the rest of [`ManagedMem`] keeps its own auto traits.
struct ManagedPtr(*mut u8);

// SAFETY: the array that holds this exclusively owns the memory (like a `Box<[T]>`) with
// `T: Send + Sync` elements; the pointer is only dereferenced through that array's views.
unsafe impl Send for ManagedPtr {}
// SAFETY: through `&ManagedPtr` nothing reads or writes the memory; the array's shared access
// only reads it (host views, device reads).
unsafe impl Sync for ManagedPtr {}

/// A new managed array of `shape` in `order` (`A` means C), zeroed.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Shape`](crate::Error::Shape)
/// when the byte size of `shape` overflows; [`Error::OutOfMemory`](crate::Error::OutOfMemory) when the allocation fails;
/// [`Error::Unsupported`](crate::Error::Unsupported) on a backend without managed memory (OpenCL devices without fine-grained
/// SVM).
///
/// ```
/// let a = rumba::managed_array::<f64, _>((2, 2), rumba::Order::F).unwrap();
/// assert_eq!(a.view().strides(), &[1, 2]);
/// ```
pub fn managed_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
) -> Result<ManagedArray<T, Sh::Dim>> {
    managed_array_attached(shape, order, ManagedAttach::Global)
}

/// A new managed array attached as `attach` says (Numba's `managed_array(.., attach_global=...)`:
/// [`ManagedAttach::Host`] is `attach_global=False`).
///
/// Host-attached memory is meant mostly for the host; on CUDA it is `cuMemAllocManaged` with
/// `CU_MEM_ATTACH_HOST`, which devices with concurrent managed access (compute capability 6.0 and
/// later on Linux) use from any stream as global memory, and older devices cannot use at all. The
/// sim models a device with concurrent managed access: both attachments behave alike there, and
/// the attachment is recorded ([`ManagedArray::attachment`]).
///
/// # Errors
/// A driver without host-attached managed memory ([`Error::Unsupported`](crate::Error::Unsupported)); out of memory.
///
/// ```
/// use rumba::driver::ManagedAttach;
/// let mut a = rumba::host::managed_array_attached::<f64, _>(100, rumba::Order::C, ManagedAttach::Host).unwrap();
/// assert_eq!(a.attachment(), ManagedAttach::Host);
/// a.view_mut().fill(123.456);
/// a.device_mut().fill(1.0).unwrap();        // the device writes it, the host sees it
/// assert!(a.view().iter().all(|&x| x == 1.0));
/// ```
pub fn managed_array_attached<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
    attach: ManagedAttach,
) -> Result<ManagedArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    ManagedArray::new(HostLayout::packed::<T>(&dim, order)?, attach)
}

/// A new managed array with the shape and element type of `like`, by numpy's `empty_like` rule.
///
/// # Errors
/// As [`managed_array`].
///
/// ```
/// let d = rumba::device_array::<u8, _>((3, 3), rumba::Order::C).unwrap();
/// assert_eq!(rumba::managed_array_like(&d).unwrap().shape(), &[3, 3]);
/// ```
pub fn managed_array_like<A: ArrayLike + ?Sized>(
    like: &A,
) -> Result<ManagedArray<A::Elem, A::Dim>> {
    ManagedArray::new(HostLayout::like(like)?, ManagedAttach::Global)
}

impl<T: Element, D: Dimension> ManagedArray<T, D> {
    fn new(shape: HostLayout<D>, attach: ManagedAttach) -> Result<Self> {
        let ctx = crate::runtime::current_context()?;
        let bytes = shape.extent().max(1);
        let ptr = ctx
            .driver()
            .mem_alloc_managed_attached(ctx.device_id(), bytes, attach)?;
        let array = ManagedArray::from_parts(
            ManagedMem {
                ptr: ManagedPtr(ptr),
                bytes,
                attach,
                ctx,
                stream: None,
                last: Mutex::new(None),
            },
            shape,
        );
        if (ptr as usize) % std::mem::align_of::<T>() != 0 {
            return Err(HostMemoryError::Misaligned {
                ptr: ptr as usize,
                memory: "managed".into(),
                dtype: T::DTYPE.name(),
            }
            .into());
        }
        Ok(array)
    }

    fn parts(&self) -> Parts<D> {
        Parts {
            base: self.mem.ptr.0,
            shape: self.shape.clone(),
            ctx: self.mem.ctx.clone(),
            stream: self.mem.stream.clone(),
        }
    }

    /// How the memory was attached when allocated (see [`managed_array_attached`]).
    ///
    /// ```
    /// let a = rumba::managed_array::<u8, _>(1, rumba::Order::C).unwrap();
    /// assert_eq!(a.attachment(), rumba::driver::ManagedAttach::Global);
    /// ```
    pub fn attachment(&self) -> ManagedAttach {
        self.mem.attach
    }

    /// The same array bound to `stream` (Numba's `managed_array(.., stream=s)`): its synchronous
    /// device operations run on that stream, and its CUDA Array Interface description carries
    /// the stream's handle.
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let s = rumba::stream().unwrap();
    /// let a = rumba::managed_array::<u8, _>(4, rumba::Order::C).unwrap().bind(&s);
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    ///     assert!(matches!(a.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// } else {
    ///     assert_eq!(a.describe().unwrap().stream, Some(s.handle().0));
    /// }
    /// ```
    pub fn bind(mut self, stream: &Stream) -> Self {
        self.mem.stream = Some(stream.clone());
        self
    }

    /// The stream the array is bound to (see [`bind`](Self::bind)).
    ///
    /// ```
    /// assert!(rumba::managed_array::<u8, _>(4, rumba::Order::C).unwrap().stream().is_none());
    /// ```
    pub fn stream(&self) -> Option<&Stream> {
        self.mem.stream.as_ref()
    }

    /// A shared host view.
    ///
    /// ```
    /// let a = rumba::managed_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// assert_eq!(a.view().to_vec(), [0, 0]);
    /// ```
    pub fn view(&self) -> ArrayView<'_, T, D> {
        self.mem.touch(Location::Host);
        // SAFETY: live, owned, aligned memory of valid `T`s; device writes need `&mut self` and
        // complete before the borrow they hold ends.
        unsafe { self.shape.view(self.mem.ptr.0) }
    }

    /// An exclusive host view.
    ///
    /// ```
    /// let mut a = rumba::managed_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// a.view_mut().fill(1);
    /// assert_eq!(a.view().sum(), 2);
    /// ```
    pub fn view_mut(&mut self) -> ArrayViewMut<'_, T, D> {
        self.mem.touch(Location::Host);
        // SAFETY: as in `view`, and `&mut self` makes the access exclusive.
        unsafe { self.shape.view_mut(self.mem.ptr.0) }
    }

    /// The device side, shared: devices may read the memory.
    ///
    /// ```
    /// let a = rumba::managed_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// assert!(a.device().device_ptr(0).is_ok());
    /// ```
    pub fn device(&self) -> MappedView<'_, T, D> {
        self.mem.touch(Location::Device(self.mem.ctx.device_id()));
        MappedView::new(self.parts())
    }

    /// The device side, exclusive: devices may write the memory.
    ///
    /// ```
    /// let mut a = rumba::managed_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// a.device_mut().memset(9).unwrap();
    /// assert_eq!(a.view().to_vec(), [9, 9]);
    /// ```
    pub fn device_mut(&mut self) -> MappedViewMut<'_, T, D> {
        self.mem.touch(Location::Device(self.mem.ctx.device_id()));
        MappedViewMut::new(self.parts())
    }

    /// Queues a move of the array's pages to `to` on `stream` (`cuMemPrefetchAsync`): a hint that
    /// never changes values, so that the next accesses from `to` find the memory there. The sim
    /// moves its page table ([`residency`](Self::residency)); OpenCL takes it as a no-op. Recorded
    /// in the [memory history](crate::memory::history) with the pages it moved.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`](crate::Error::InvalidDevice) for a device that does not exist; the driver's errors.
    ///
    /// ```
    /// use rumba::driver::Location;
    /// let a = rumba::managed_array::<f32, _>(1 << 16, rumba::Order::C).unwrap();
    /// let s = rumba::stream().unwrap();
    /// a.prefetch(Location::Device(0), &s).unwrap();
    /// assert_eq!(a.location(), Some(Location::Device(0)));
    /// if let Some(r) = a.residency() { // the sim's page table
    ///     assert_eq!((r.host_pages, r.device_pages.clone()), (0, vec![(0, 4)]));
    /// }
    /// ```
    pub fn prefetch(&self, to: Location, stream: &Stream) -> Result<()> {
        let m = &self.mem;
        if let Some(p) = m.ctx.driver().placement() {
            let moved = p.prefetch(m.ctx.device_id(), m.ptr.0, m.bytes, to, stream.handle())?;
            m.note(EventKind::Prefetch, m.bytes, stream, format!("to {to}"));
            m.note_moves(moved, stream);
        }
        *lock(&m.last) = Some(to);
        Ok(())
    }

    /// Gives `advice` on the array's memory (`cuMemAdvise`): read-mostly, a preferred location,
    /// or a device that accesses it. A no-op on OpenCL.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`](crate::Error::InvalidDevice) for a device that does not exist; the driver's errors.
    ///
    /// ```
    /// use rumba::driver::{Advice, Location};
    /// let a = rumba::managed_array::<u8, _>(100, rumba::Order::C).unwrap();
    /// a.advise(Advice::ReadMostly(true)).unwrap();
    /// a.advise(Advice::PreferredLocation(Some(Location::Host))).unwrap();
    /// if let Some(r) = a.residency() {
    ///     assert!(r.read_mostly && r.preferred == Some(Location::Host));
    /// }
    /// ```
    pub fn advise(&self, advice: Advice) -> Result<()> {
        let m = &self.mem;
        if let Some(p) = m.ctx.driver().placement() {
            p.advise(m.ctx.device_id(), m.ptr.0, m.bytes, advice)?;
            let legacy = crate::stream::legacy_default_stream()?;
            m.note(EventKind::Advise, m.bytes, &legacy, format!("{advice:?}"));
        }
        Ok(())
    }

    /// Where the last [`prefetch`](Self::prefetch) sent the memory (`None`: never prefetched).
    ///
    /// ```
    /// assert_eq!(rumba::managed_array::<u8, _>(1, rumba::Order::C).unwrap().location(), None);
    /// ```
    pub fn location(&self) -> Option<Location> {
        *lock(&self.mem.last)
    }

    /// Where the array's pages are and every move of them, where the backend can tell (the sim's
    /// page table: pages move when prefetched, and when host views or device views touch them
    /// from the other side, unless advice keeps them).
    ///
    /// ```
    /// let a = rumba::managed_array::<u8, _>(1, rumba::Order::C).unwrap();
    /// if let Some(r) = a.residency() {
    ///     assert_eq!((r.host_pages, r.migrations.pages()), (1, 0));
    /// }
    /// ```
    pub fn residency(&self) -> Option<Residency> {
        let m = &self.mem;
        m.ctx.driver().placement()?.residency(m.ptr.0, m.bytes)
    }
}

impl ManagedMem {
    /// Records the pages an access from `by` moves (the sim's page table).
    fn touch(&self, by: Location) {
        if let Some(p) = self.ctx.driver().placement() {
            let moved = p.touch(self.ptr.0, self.bytes, by);
            if moved.pages() > 0 && history::is_recording() {
                if let Ok(s) = crate::stream::legacy_default_stream() {
                    self.note_moves(moved, &s);
                }
            }
        }
    }

    fn note(&self, kind: EventKind, bytes: usize, stream: &Stream, detail: String) {
        if history::is_recording() {
            let note = Note {
                detail: Some(detail),
                ..Note::new(
                    kind,
                    self.ctx.device_id(),
                    stream.handle(),
                    bytes,
                    self.ptr.0 as u64,
                )
            };
            history::note(note, None);
        }
    }

    fn note_moves(&self, moved: Migrations, stream: &Stream) {
        if moved.pages() > 0 {
            let detail = format!(
                "{} page(s) to the host, {} to a device",
                moved.to_host, moved.to_device
            );
            self.note(EventKind::Migrate, moved.bytes as usize, stream, detail);
        }
    }
}

impl Drop for ManagedMem {
    fn drop(&mut self) {
        // SAFETY: only the array that owns this drops it (the field is private to the host
        // layer), so no view of the array remains, and device work on it only ever ran while a
        // view was borrowed and completed before that borrow ended.
        if let Err(e) = unsafe { self.ctx.driver().mem_free_managed(self.ptr.0) } {
            tracing::warn!("freeing managed memory at {:p}: {e}", self.ptr.0);
        }
    }
}

crate::host::host_array_conversions!(ManagedArray);
