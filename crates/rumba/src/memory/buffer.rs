//! Owning handles of memory handed out by memory resources: [`DeviceBuffer`] (device memory) and
//! [`PinnedBuffer`] (page-locked host memory).
//!
//! Both are reference counted in the sense that matters for GPUs: a clone of a `DeviceBuffer`
//! shares the allocation, and queued device work holds a clone until it completes. The last drop
//! gives the block back to its resource, which decides when to really free it.
//!
//! A buffer is made from a block only after the checks that make the resource traits safe to
//! implement: the block is on the right device and large enough (and, for host memory, zeroed
//! here if the block does not say it is).
//!
//! This module touches the driver (copies, memsets) and the resources (release on drop).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use super::gate::{self, Lease};
use super::history::{self, EventKind, Note};
use super::resource::driver_id;
use super::{DeviceBlock, DeviceResource, HostBlock, HostResource};
use crate::driver::{DeviceCopy, DevicePtr, Driver, HostAllocFlags, On, StreamHandle};
use crate::error::{Error, ResourceError, Result};

struct BufferInner {
    ptr: DevicePtr,
    bytes: usize,
    device: usize,
    driver: Arc<dyn Driver>,
    /// The block and the resource it returns to; `None` for zero-size and foreign buffers,
    /// which own no allocation (and after the drop gave the block back).
    block: Option<DeviceBlock>,
    resource: Option<Arc<dyn DeviceResource>>,
    /// The stream the memory was allocated on; the last drop frees it on that stream.
    stream: StreamHandle,
    /// For memory the buffer does not own (imports through the interop layer): what keeps it
    /// alive, dropped with the last handle.
    owner: Option<Box<dyn std::any::Any + Send + Sync>>,
    /// For an import: the resets of its device's context before it was made (it is refused
    /// after another, see [`gate`]).
    resets: u64,
    /// How many of the strong references are holds of queued work (`super::holds`).
    holds: AtomicUsize,
}

impl Drop for BufferInner {
    fn drop(&mut self) {
        if let (Some(block), Some(resource)) = (self.block.take(), &self.resource) {
            let stream = self.stream;
            let given = history::serving(resource, || resource.deallocate(block, stream));
            if let Err(e) = given {
                tracing::error!(
                    "giving back device memory 0x{:x} ({} bytes) failed: {e}",
                    self.ptr,
                    self.bytes
                );
            }
        }
    }
}

/// A device allocation, or a byte range of one ([`view`](Self::view)). Cloning shares it; the
/// last drop of any handle of the allocation gives it back to its memory resource.
///
/// Invariant: a `DeviceBuffer` always owns (a share of) **device** memory, never mapped host
/// memory; its safe copy methods rely on that. Host memory the device can address has its own
/// types in the host-memory layer.
///
/// Byte-level copies here are synchronous (ordered after the default stream, as CUDA's
/// synchronous copies are). Typed, n-dimensional access is the job of the array layer.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let a = ctx.memalloc(8).unwrap();
/// a.memset(0xff).unwrap();
/// let b = ctx.memalloc(8).unwrap();
/// rumba::copy(&b, &a).unwrap();
/// let mut out = [0u8; 8];
/// rumba::copy(&mut out, &b).unwrap();
/// assert_eq!(out, [0xff; 8]);
/// ```
#[derive(Clone)]
pub struct DeviceBuffer {
    inner: Arc<BufferInner>,
    /// Start of this handle's range in the allocation (0 unless it is a [`view`](Self::view)).
    offset: usize,
    /// Bytes of this handle's range.
    len: usize,
}

impl std::fmt::Debug for DeviceBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeviceBuffer(0x{:x}, {} bytes, device {}",
            self.device_ptr(),
            self.len,
            self.inner.device
        )?;
        if self.is_view() {
            write!(
                f,
                ", view at offset {} of {} bytes",
                self.offset, self.inner.bytes
            )?;
        }
        f.write_str(")")
    }
}

/// A weak handle of an allocation, for the holds of queued work (`super::holds`).
pub(crate) struct WeakBuffer(Weak<BufferInner>);

impl WeakBuffer {
    /// The allocation's bytes when queued work's holds are its only references (the program has
    /// dropped every handle); `None` otherwise or when it is gone.
    pub(crate) fn orphaned_bytes(&self) -> Option<usize> {
        let inner = self.0.upgrade()?;
        // `inner` itself is one more strong reference.
        let holds = inner.holds.load(Ordering::SeqCst);
        (holds > 0 && Arc::strong_count(&inner) == holds + 1 && inner.resource.is_some())
            .then_some(inner.bytes)
    }

    /// Identifies the allocation (to count it once).
    pub(crate) fn id(&self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl DeviceBuffer {
    /// A zero-size buffer: no allocation, pointer 0; "freed" on `stream`.
    pub(crate) fn empty(device: usize, driver: Arc<dyn Driver>, stream: StreamHandle) -> Self {
        Self::with_inner(0, 0, device, driver, None, None, stream)
    }

    /// A buffer of the first `bytes` of `block`, which goes back to `resource` on `stream` when
    /// the last handle drops. The caller checked the block's device and size.
    pub(crate) fn from_block(
        block: DeviceBlock,
        bytes: usize,
        driver: Arc<dyn Driver>,
        resource: Arc<dyn DeviceResource>,
        stream: StreamHandle,
    ) -> Self {
        let (ptr, device) = (block.ptr(), block.device());
        Self::with_inner(
            ptr,
            bytes,
            device,
            driver,
            Some(block),
            Some(resource),
            stream,
        )
    }

    fn with_inner(
        ptr: DevicePtr,
        bytes: usize,
        device: usize,
        driver: Arc<dyn Driver>,
        block: Option<DeviceBlock>,
        resource: Option<Arc<dyn DeviceResource>>,
        stream: StreamHandle,
    ) -> Self {
        DeviceBuffer {
            inner: Arc::new(BufferInner {
                ptr,
                bytes,
                device,
                driver,
                block,
                resource,
                stream,
                owner: None,
                resets: 0,
                holds: AtomicUsize::new(0),
            }),
            offset: 0,
            len: bytes,
        }
    }

    /// A buffer over memory that something else owns: `owner` is kept alive until the last handle
    /// drops, and no memory manager is told about the memory.
    ///
    /// # Safety
    /// `[ptr, ptr + bytes)` must be device memory of `device` (never host memory, mapped or not:
    /// see the type's invariant) that stays allocated while `owner` lives, and that Rust code does
    /// not access except through device operations.
    pub(crate) unsafe fn foreign(
        ptr: DevicePtr,
        bytes: usize,
        device: usize,
        driver: Arc<dyn Driver>,
        owner: Box<dyn std::any::Any + Send + Sync>,
    ) -> Self {
        let resets = gate::resets(driver_id(&driver), device);
        DeviceBuffer {
            inner: Arc::new(BufferInner {
                ptr,
                bytes,
                device,
                driver,
                block: None,
                resource: None,
                stream: StreamHandle::LEGACY,
                owner: Some(owner),
                resets,
                holds: AtomicUsize::new(0),
            }),
            offset: 0,
            len: bytes,
        }
    }

    /// A handle to bytes `range` of this buffer, sharing the allocation (Numba's
    /// `MemoryPointer.view(start, stop)`): no copy; the allocation stays alive while any view of
    /// it does. A range of a view is relative to the view. An empty range is allowed anywhere up
    /// to the end (its pointer is the address of that position).
    ///
    /// # Errors
    /// [`Error::BufferRange`] when the range is reversed or runs past the end, naming the
    /// range and the buffer's length.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(16).unwrap();
    /// rumba::copy(&buf, &(0..16).collect::<Vec<u8>>()).unwrap();
    /// let mid = buf.view(4..12).unwrap();
    /// assert_eq!((mid.len(), mid.device_ptr()), (8, buf.device_ptr() + 4));
    /// assert!(mid.same_allocation(&buf));
    /// mid.view(2..).unwrap().memset(0xff).unwrap();      // bytes 6..12 of `buf`
    /// let mut out = [0u8; 16];
    /// rumba::copy(&mut out, &buf).unwrap();
    /// assert_eq!(&out[4..8], &[4, 5, 0xff, 0xff]);
    /// assert!(buf.view(8..17).is_err() && mid.view(9..).is_err());
    /// ```
    pub fn view(&self, range: impl std::ops::RangeBounds<usize>) -> Result<DeviceBuffer> {
        use std::ops::Bound;
        let start = match range.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => s.checked_add(1),
            Bound::Unbounded => Some(0),
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.checked_add(1),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => Some(self.len),
        };
        match (start, end) {
            (Some(start), Some(end)) if start <= end && end <= self.len => Ok(DeviceBuffer {
                inner: Arc::clone(&self.inner),
                offset: self.offset + start,
                len: end - start,
            }),
            _ => Err(Error::BufferRange {
                start: start.unwrap_or(usize::MAX),
                end: end.unwrap_or(usize::MAX),
                len: self.len,
            }),
        }
    }

    /// Counts a hold of queued work on the allocation (see `super::holds`); returns a weak
    /// handle by which the holds tell whether only queued work still references it.
    pub(crate) fn begin_hold(&self) -> WeakBuffer {
        self.inner.holds.fetch_add(1, Ordering::SeqCst);
        WeakBuffer(Arc::downgrade(&self.inner))
    }

    /// Ends a hold counted by [`begin_hold`](Self::begin_hold).
    pub(crate) fn end_hold(&self) {
        self.inner.holds.fetch_sub(1, Ordering::SeqCst);
    }

    /// True when this handle covers only part of its allocation (made by [`view`](Self::view)).
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(8).unwrap();
    /// assert!(!buf.is_view() && buf.view(1..).unwrap().is_view());
    /// ```
    pub fn is_view(&self) -> bool {
        self.offset != 0 || self.len != self.inner.bytes
    }

    /// True if the buffer wraps memory owned elsewhere (an import), not an allocation of a
    /// memory manager.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(8).unwrap();
    /// assert!(!buf.is_foreign());
    /// ```
    pub fn is_foreign(&self) -> bool {
        self.inner.owner.is_some()
    }

    /// The resource the allocation returns to (`None` for zero-size and foreign buffers).
    pub(crate) fn resource(&self) -> Option<&Arc<dyn DeviceResource>> {
        self.inner.resource.as_ref()
    }

    /// The stream the buffer was allocated on (the legacy default stream for
    /// [`Context::memalloc`](crate::Context::memalloc)); its memory is freed on that stream.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = s.memalloc(16).unwrap();
    /// assert_eq!(buf.stream(), s.handle());
    /// let legacy = rumba::current_context().unwrap().memalloc(16).unwrap();
    /// assert_eq!(legacy.stream(), rumba::driver::StreamHandle::LEGACY);
    /// ```
    pub fn stream(&self) -> StreamHandle {
        self.inner.stream
    }

    /// Size in bytes.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(10).unwrap();
    /// assert_eq!(buf.len(), 10);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a zero-size buffer (which owns no allocation and has pointer 0).
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(0).unwrap();
    /// assert!(buf.is_empty());
    /// assert_eq!(buf.device_ptr(), 0);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device address of the first byte.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(10).unwrap();
    /// assert_ne!(buf.device_ptr(), 0);
    /// ```
    pub fn device_ptr(&self) -> DevicePtr {
        self.inner.ptr + self.offset as u64
    }

    /// Ordinal of the device that holds the buffer.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(1).unwrap();
    /// assert_eq!(buf.device(), 0);
    /// ```
    pub fn device(&self) -> usize {
        self.inner.device
    }

    /// The driver the buffer belongs to.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(1).unwrap();
    /// let running = rumba::backend_driver().unwrap();
    /// assert_eq!(buf.driver().backend(), running.backend()); // sim, or cuda on a GPU machine
    /// assert!(std::sync::Arc::ptr_eq(buf.driver(), &running));
    /// ```
    pub fn driver(&self) -> &Arc<dyn Driver> {
        &self.inner.driver
    }

    /// True if both handles share one allocation.
    ///
    /// ```
    /// let a = rumba::current_context().unwrap().memalloc(1).unwrap();
    /// assert!(a.same_allocation(&a.clone()));
    /// ```
    pub fn same_allocation(&self, other: &DeviceBuffer) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// True when a reset of the context freed the buffer's memory: the origin of its block was
    /// retired, or (an import) its device's context was reset since it was made.
    fn is_stale(&self) -> bool {
        match (&self.inner.block, &self.inner.owner) {
            (Some(block), _) => block.origin().is_retired(),
            (None, Some(_)) => {
                gate::resets(driver_id(&self.inner.driver), self.inner.device) != self.inner.resets
            }
            (None, None) => false,
        }
    }

    /// The device address of byte `offset` of this handle, for `len` bytes that an operation
    /// holding `lease` hands to the driver: the one way the library turns a buffer into an
    /// address for the driver (see [`gate`]).
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a reset freed the memory; [`Error::BufferRange`] when
    /// `[offset, offset + len)` runs past the end of the handle's range.
    pub(crate) fn addr(&self, _lease: &Lease, offset: usize, len: usize) -> Result<DevicePtr> {
        if self.is_stale() {
            return Err(Error::StaleHandle {
                device: self.inner.device,
                ptr: self.device_ptr(),
                len: self.len,
            });
        }
        match offset.checked_add(len) {
            Some(end) if end <= self.len => Ok(self.device_ptr() + offset as u64),
            _ => Err(Error::BufferRange {
                start: offset,
                end: offset.saturating_add(len),
                len: self.len,
            }),
        }
    }

    /// Copies `src` into the buffer starting at `offset`, returning when done. Spelled
    /// [`rumba::copy(&buf.view(offset..offset + src.len())?, src)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed the memory; [`Error::BufferRange`]
    /// when `offset + src.len()` runs past the end of the buffer; the driver's copy errors.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
    /// rumba::copy(&buf.view(2..4).unwrap(), &[5, 6][..]).unwrap();
    /// assert!(buf.view(3..5).is_err()); // runs past the end
    /// ```
    #[deprecated(note = "use rumba::copy(&buf.view(offset..offset + src.len())?, src)")]
    pub fn copy_from_host_at(&self, offset: usize, src: &[u8]) -> Result<()> {
        self.copy_from_host_at_impl(offset, src)
    }

    /// Copies `src` into the buffer at `offset`, returning when done (what `copy` runs).
    pub(crate) fn copy_from_host_at_impl(&self, offset: usize, src: &[u8]) -> Result<()> {
        let lease = Lease::enter()?;
        let dst = self.addr(&lease, offset, src.len())?;
        // SAFETY: the range lies inside this buffer's own allocation, which is device memory.
        unsafe { self.inner.driver.memcpy_htod(self.blocking(), dst, src) }
    }

    /// Copies `src` (exactly [`len`](Self::len) bytes) into the buffer, returning when done.
    /// Spelled [`rumba::copy(&buf, src)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::BufferLength`] when `src.len()` is not the buffer's length; as
    /// [`copy_from_host_at`](Self::copy_from_host_at).
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(2).unwrap();
    /// rumba::copy(&buf, &[1, 2][..]).unwrap();
    /// assert!(rumba::copy(&buf, &[1][..]).is_err());
    /// ```
    #[deprecated(note = "use rumba::copy(&buf, src)")]
    pub fn copy_from_host(&self, src: &[u8]) -> Result<()> {
        self.same_len(src.len())?;
        self.copy_from_host_at_impl(0, src)
    }

    /// Copies bytes starting at `offset` into `dst`, returning when done. Spelled
    /// [`rumba::copy(dst, &buf.view(offset..offset + dst.len())?)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed the memory; [`Error::BufferRange`]
    /// when `offset + dst.len()` runs past the end of the buffer; the driver's copy errors.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
    /// rumba::copy(&buf, &[1, 2, 3, 4][..]).unwrap();
    /// let mut two = [0u8; 2];
    /// rumba::copy(&mut two[..], &buf.view(2..4).unwrap()).unwrap();
    /// assert_eq!(two, [3, 4]);
    /// ```
    #[deprecated(note = "use rumba::copy(dst, &buf.view(offset..offset + dst.len())?)")]
    pub fn copy_to_host_at(&self, offset: usize, dst: &mut [u8]) -> Result<()> {
        self.copy_to_host_at_impl(offset, dst)
    }

    /// Copies bytes from `offset` into `dst`, returning when done (what `copy` runs).
    pub(crate) fn copy_to_host_at_impl(&self, offset: usize, dst: &mut [u8]) -> Result<()> {
        let lease = Lease::enter()?;
        let src = self.addr(&lease, offset, dst.len())?;
        // SAFETY: the range lies inside this buffer's own allocation, which is device memory.
        unsafe { self.inner.driver.memcpy_dtoh(self.blocking(), dst, src) }
    }

    /// Copies the whole buffer into `dst` (exactly [`len`](Self::len) bytes), returning when done.
    /// Spelled [`rumba::copy(dst, &buf)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::BufferLength`] when `dst.len()` is not the buffer's length; as
    /// [`copy_to_host_at`](Self::copy_to_host_at).
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(3).unwrap();
    /// let mut out = [9u8; 3];
    /// rumba::copy(&mut out[..], &buf).unwrap();
    /// assert_eq!(out, [0; 3]); // the sim hands out zeroed memory
    /// ```
    #[deprecated(note = "use rumba::copy(dst, &buf)")]
    pub fn copy_to_host(&self, dst: &mut [u8]) -> Result<()> {
        self.same_len(dst.len())?;
        self.copy_to_host_at_impl(0, dst)
    }

    /// Copies another buffer of the same length into this one, returning when done. A buffer of
    /// another device is copied with a peer copy
    /// ([`Driver::memcpy_peer`](crate::driver::Driver::memcpy_peer)). Spelled
    /// [`rumba::copy(&dst, &src)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::BufferLength`] when the lengths differ; [`Error::StaleHandle`] when a context
    /// reset freed either buffer's memory; the driver's copy errors ([`Error::Unsupported`] for a
    /// peer copy on a backend without them).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let (a, b) = (ctx.memalloc(2).unwrap(), ctx.memalloc(3).unwrap());
    /// assert!(matches!(rumba::copy(&b, &a), Err(rumba::Error::BufferLength { expected: 3, found: 2 })));
    /// ```
    #[deprecated(note = "use rumba::copy(&dst, &src)")]
    pub fn copy_from_device(&self, src: &DeviceBuffer) -> Result<()> {
        self.copy_from_device_impl(src)
    }

    /// Copies `src` (of the same length) into this buffer, returning when done (what `copy`
    /// runs).
    pub(crate) fn copy_from_device_impl(&self, src: &DeviceBuffer) -> Result<()> {
        self.same_len(src.len())?;
        if self.len == 0 {
            return Ok(());
        }
        let lease = Lease::enter()?;
        let (to, from) = (
            self.addr(&lease, 0, self.len)?,
            src.addr(&lease, 0, self.len)?,
        );
        let copy = DeviceCopy {
            dst: to,
            src: from,
            bytes: self.len,
        };
        let driver = &self.inner.driver;
        if src.device() != self.device() {
            // SAFETY: both ranges lie inside live device allocations (of their devices; the lease
            // keeps a reset out until the copy is done) and have equal lengths.
            return unsafe { driver.memcpy_peer(self.blocking(), src.device(), copy) };
        }
        // SAFETY: both ranges lie inside live device allocations and have equal lengths.
        unsafe { driver.memcpy_dtod(self.blocking(), copy) }
    }

    /// Sets every byte to `value`, returning when done.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed the memory; the driver's memset errors.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(2).unwrap();
    /// buf.memset(7).unwrap();
    /// let mut out = [0u8; 2];
    /// rumba::copy(&mut out[..], &buf).unwrap();
    /// assert_eq!(out, [7, 7]);
    /// ```
    pub fn memset(&self, value: u8) -> Result<()> {
        let lease = Lease::enter()?;
        let dst = self.addr(&lease, 0, self.len)?;
        // SAFETY: this handle's range of its own live allocation, which is device memory.
        unsafe {
            self.inner
                .driver
                .memset(self.blocking(), dst, value, self.len)
        }
    }

    /// A blocking operation in the context of the buffer's device.
    fn blocking(&self) -> On {
        On::blocking(self.inner.device)
    }

    /// [`Error::BufferLength`] unless `other` is the buffer's length.
    pub(crate) fn same_len(&self, other: usize) -> Result<()> {
        if other == self.len {
            Ok(())
        } else {
            Err(Error::BufferLength {
                expected: self.len,
                found: other,
            })
        }
    }
}

/// Page-locked host memory from a host resource; derefs to `[u8]`.
///
/// Copies from pinned memory on a stream are truly asynchronous. Dropping the buffer gives the
/// block back to its resource (the default manager frees it through the deferred queue).
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let mut p = ctx.memhostalloc(16, Default::default()).unwrap();
/// p[..4].copy_from_slice(&[1, 2, 3, 4]);
/// assert_eq!(p.len(), 16);
/// assert_eq!(&p[..4], &[1, 2, 3, 4]);
/// ```
pub struct PinnedBuffer {
    ptr: *mut u8,
    bytes: usize,
    flags: HostAllocFlags,
    /// The device whose manager allocated it (for the memory history).
    device: usize,
    /// `None` only during the drop.
    block: Option<HostBlock>,
    resource: Arc<dyn HostResource>,
}

// SAFETY: the buffer exclusively owns its host memory (like a `Box<[u8]>`); the resource is Sync.
unsafe impl Send for PinnedBuffer {}
// SAFETY: shared access only hands out `&[u8]`.
unsafe impl Sync for PinnedBuffer {}

impl PinnedBuffer {
    /// A buffer of the first `bytes` of `block`, zeroed. Refused (and the block given back)
    /// when the block is smaller than `bytes`, or lacks the `mapped` or `portable` property that
    /// `flags` ask for.
    pub(crate) fn from_block(
        mut block: HostBlock,
        bytes: usize,
        flags: HostAllocFlags,
        device: usize,
        resource: Arc<dyn HostResource>,
    ) -> Result<Self> {
        let got = block.flags();
        let short = block.len() < bytes;
        let lacking = (flags.mapped && !got.mapped) || (flags.portable && !got.portable);
        if short || lacking {
            let len = block.len();
            if let Err(e) = resource.deallocate(block) {
                tracing::error!("giving back a refused pinned block failed: {e}");
            }
            return Err(ResourceError::WrongFlags {
                len,
                flags: format!("{got:?}"),
                requested: bytes,
                requested_flags: format!("{flags:?}"),
            }
            .into());
        }
        if !block.is_zeroed() {
            // SAFETY: the block owns `len` bytes of host memory that nothing else uses (the
            // contract of `HostBlock::from_raw`).
            unsafe { std::ptr::write_bytes(block.as_ptr(), 0, block.len()) };
            // SAFETY: every byte was zeroed just above.
            unsafe { block.set_zeroed() };
        }
        if history::is_recording() {
            let (ptr, len) = (block.as_ptr() as u64, block.len());
            let note = Note::new(
                EventKind::PinnedAlloc,
                device,
                StreamHandle::LEGACY,
                len,
                ptr,
            );
            history::note(note, None);
        }
        Ok(PinnedBuffer {
            ptr: block.as_ptr(),
            bytes,
            flags: block.flags(),
            device,
            block: Some(block),
            resource,
        })
    }

    /// The flags it was allocated with.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let p = ctx.memhostalloc(1, Default::default()).unwrap();
    /// assert!(!p.flags().mapped);
    /// ```
    pub fn flags(&self) -> HostAllocFlags {
        self.flags
    }

    /// The host address of the first byte.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let p = ctx.memhostalloc(1, Default::default()).unwrap();
    /// assert!(!p.as_ptr().is_null());
    /// ```
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr
    }
}

impl std::ops::Deref for PinnedBuffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` is a live allocation of at least `bytes` bytes owned by this buffer's block.
        unsafe { std::slice::from_raw_parts(self.ptr, self.bytes) }
    }
}

impl std::ops::DerefMut for PinnedBuffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.bytes) }
    }
}

impl std::fmt::Debug for PinnedBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PinnedBuffer({:p}, {} bytes, {:?})",
            self.ptr, self.bytes, self.flags
        )
    }
}

impl Drop for PinnedBuffer {
    fn drop(&mut self) {
        // Queued work that used the buffer holds its own keep-alive, which is what is being
        // dropped last here: nothing uses the memory any more.
        if let Some(mut block) = self.block.take() {
            block.set_dirty();
            if history::is_recording() {
                let (ptr, len) = (block.as_ptr() as u64, block.len());
                let note = Note::new(
                    EventKind::PinnedFree,
                    self.device,
                    StreamHandle::LEGACY,
                    len,
                    ptr,
                );
                history::note(note, None);
            }
            if let Err(e) = self.resource.deallocate(block) {
                tracing::error!("giving back pinned memory {:p} failed: {e}", self.ptr);
            }
        }
    }
}
