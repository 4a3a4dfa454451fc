//! The [`Driver`] trait: every call a backend answers, in raw terms (device pointers, handles,
//! byte counts, host pointers), with the safety contract its implementors and callers share.
//!
//! It stays one trait in one file; each method's documentation is its contract, beside its
//! signature. The meaning of each error variant is in the `driver` module's docs, the refusal of
//! a missing capability is written once ([`BackendKind::unsupported`]), and managed-memory
//! placement, inter-process sharing and stream graphs are capability objects of their own
//! ([`Placement`] through [`Driver::placement`], [`Ipc`] through [`Driver::ipc`], [`Graphs`]
//! through [`Driver::graphs`]).

use std::any::Any;
use std::fmt;

use super::{
    BackendKind, DeviceCopy, DeviceInfo, DevicePtr, EventHandle, GrainKind, Graphs, HostAllocFlags,
    HostCallback, Ipc, KernelLaunch, ManagedAttach, On, Order, PageLocking, Placement,
    StreamHandle, StridedCopy,
};
#[cfg(doc)]
use crate::error::Error;
use crate::error::Result;

/// One object-safe trait over a device API.
///
/// All sizes are in bytes; all device addresses are [`DevicePtr`]s. Calls that take a `device`
/// ordinal act on that device's (primary) context. Asynchronous calls return once the work is
/// queued; errors of the work itself surface at the next synchronization of that stream.
///
/// # Safety
/// rumba's safe types read and write host memory that a driver hands out, so an implementor
/// promises that on success [`host_alloc`](Driver::host_alloc),
/// [`mem_alloc_managed`](Driver::mem_alloc_managed),
/// [`mem_alloc_managed_attached`](Driver::mem_alloc_managed_attached) and
/// [`host_alloc_grained`](Driver::host_alloc_grained) return a non-null pointer to
/// `bytes` of zeroed host memory that nothing else uses, readable and writable from any thread
/// until it is passed to [`host_free`](Driver::host_free) /
/// [`mem_free_managed`](Driver::mem_free_managed) / [`host_free_grained`](Driver::host_free_grained);
/// and that the device touches host memory only
/// in the operations and within the bounds that the callers of its `unsafe` methods allow.
///
/// # Device ranges
/// Device addresses are plain integers that Rust's borrow rules cannot see, so every method
/// that reads or writes device memory is `unsafe` for its caller, with one rule (each method's
/// `# Safety` refers here and adds what is particular to it): every device range touched must
/// be device memory, or mapped host memory that no Rust reference uses while the operation runs
/// (on CUDA with unified addressing, any pinned host pointer is a valid device address).
///
/// # Errors
/// Each method's `# Errors` names its own failures; each variant means the same for every method
/// and backend (the [driver module](crate::driver#errors) says what).
pub unsafe trait Driver: Send + Sync + fmt::Debug {
    /// Which backend this is.
    fn backend(&self) -> BackendKind;
    /// Number of devices.
    fn device_count(&self) -> usize;
    /// Static facts about one device.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] for a `device` at or past [`device_count`](Driver::device_count);
    /// [`Error::Driver`] when the backend cannot answer a query about it.
    fn device_info(&self, device: usize) -> Result<DeviceInfo>;
    /// `(free, total)` bytes of device memory.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] for an unknown `device`; [`Error::Driver`] when the backend's query
    /// fails.
    fn mem_info(&self, device: usize) -> Result<(usize, usize)>;

    /// Allocates `bytes` (> 0) of device memory.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (with the device's free and total bytes) when `bytes` do not fit;
    /// [`Error::ZeroSizeAllocation`] for `bytes == 0`; [`Error::InvalidDevice`] for an unknown `device`.
    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr>;
    /// Frees memory returned by [`mem_alloc`](Driver::mem_alloc).
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when `ptr` is not the start of a live allocation of `device`
    /// (already freed, an offset into one, or memory of another device); [`Error::InvalidDevice`].
    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()>;
    /// Allocates `bytes` (> 0) of device memory for work on `stream`. A driver with a
    /// stream-ordered allocator serves it in `stream`'s order (CUDA: `cuMemAllocFromPoolAsync` on
    /// the device's memory pool): the memory may hold blocks that earlier work *queued on
    /// `stream`* freed, so work on other streams must be ordered after `stream` before it uses
    /// the memory (as for data written on `stream`). The default is
    /// [`mem_alloc`](Driver::mem_alloc), which any stream may use at once.
    ///
    /// # Errors
    /// As [`mem_alloc`](Driver::mem_alloc); [`Error::InvalidHandle`] for an unknown `stream`.
    ///
    /// ```
    /// use rumba::driver::{Driver, StreamHandle, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let s = drv.stream_create(0, true).unwrap();
    /// let p = drv.mem_alloc_async(0, 64, s).unwrap();
    /// drv.mem_free_async(0, p, s).unwrap();
    /// ```
    fn mem_alloc_async(
        &self,
        device: usize,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<DevicePtr> {
        let _ = stream;
        self.mem_alloc(device, bytes)
    }

    /// Frees memory of [`mem_alloc`](Driver::mem_alloc) or
    /// [`mem_alloc_async`](Driver::mem_alloc_async) in `stream`'s order: no work queued on
    /// another stream may still use it, and work queued on `stream` before this call may (the
    /// memory is reused only after it, in stream order). An unknown (destroyed) `stream` frees in
    /// the legacy default stream's order. The default is [`mem_free`](Driver::mem_free).
    ///
    /// # Errors
    /// As [`mem_free`](Driver::mem_free).
    fn mem_free_async(&self, device: usize, ptr: DevicePtr, stream: StreamHandle) -> Result<()> {
        let _ = stream;
        self.mem_free(device, ptr)
    }

    /// How the driver allocates device memory on `device`, in words (`rumba detect` prints it).
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// assert!(!drv.allocator(0).is_empty());
    /// ```
    fn allocator(&self, device: usize) -> String {
        let _ = device;
        format!("{} mem_alloc / mem_free", self.backend())
    }

    /// Allocates `bytes` of page-locked host memory (zeroed).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the host cannot provide `bytes`; [`Error::ZeroSizeAllocation`] for
    /// `bytes == 0`; [`Error::Unsupported`] for flags the backend cannot honour (OpenCL: write-combined,
    /// or mapped memory without fine-grained SVM); [`Error::InvalidDevice`].
    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8>;
    /// Frees memory returned by [`host_alloc`](Driver::host_alloc).
    ///
    /// # Errors
    /// [`Error::HostMemory`] when `ptr` was not returned by [`host_alloc`](Driver::host_alloc)
    /// (or was freed already); nothing is freed then.
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()>;
    /// Page-locks (and with `flags.mapped`, maps) an existing host range. A registration that
    /// overlaps it is stale — the caller owns the bytes now, so their earlier registrant's
    /// memory was freed without unregistering (a leaked guard) — and is dropped, as it is when
    /// [`host_alloc`](Driver::host_alloc) hands out memory it overlaps.
    ///
    /// # Errors
    /// [`Error::HostMemory`] for a null or already registered range; [`Error::Unsupported`]
    /// when the backend cannot map existing memory (OpenCL without fine-grained system SVM);
    /// [`Error::Driver`] when the OS or backend refuses to lock the pages; [`Error::InvalidDevice`].
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of `bytes` bytes until
    /// [`host_unregister`](Driver::host_unregister) is called.
    unsafe fn host_register(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<()>;
    /// Undoes [`host_register`](Driver::host_register), immediately.
    ///
    /// # Errors
    /// [`Error::HostMemory`] when `ptr` is not the start of a registered range.
    ///
    /// # Safety
    /// No queued device work may still use the range (it may be freed by its owner afterwards).
    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()>;
    /// The device address of mapped host memory (allocated or registered with `mapped`). Device
    /// operations through it read and write the host memory directly; they are `unsafe` for that
    /// reason.
    ///
    /// # Errors
    /// [`Error::HostMemory`] when `ptr` is not in mapped (or managed, or grained) host memory, or
    /// the memory is not portable and `device` is not the one it was mapped into;
    /// [`Error::InvalidDevice`].
    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr>;
    /// True if `[ptr, ptr + bytes)` lies inside page-locked (allocated or registered) host memory.
    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool;

    /// Copies host → device (`cuMemcpyHtoD`, or on a stream `cuMemcpyHtoDAsync`). On a stream,
    /// from pageable memory the data is staged (taken before this returns); from page-locked
    /// memory it is read when the stream reaches the copy.
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when `[dst, dst + src.len())` is not inside one live allocation;
    /// [`Error::InvalidDevice`]. Blocking: [`Error::InCallback`] when called from a stream
    /// callback; the error of earlier failed work on the legacy default stream, which the copy
    /// waits for. On a stream: [`Error::Driver`] (`CUDA_ERROR_INVALID_HANDLE`) for an unknown
    /// stream; failures of the copy itself are reported by the stream's next synchronization.
    /// After an error nothing was queued.
    ///
    /// # Safety
    /// `src` must be valid for reads of `src.len()` bytes, and unwritten, until the copy has
    /// completed: blocking, until this call returns (a borrowed slice is); on a stream, until the
    /// stream has completed the copy (or this call returned, for pageable memory). The device
    /// range follows the [device-range rule](Driver#device-ranges).
    unsafe fn memcpy_htod(&self, on: On, dst: DevicePtr, src: *const [u8]) -> Result<()>;
    /// Copies device → host (`cuMemcpyDtoH`, or on a stream `cuMemcpyDtoHAsync`). On a stream,
    /// into pageable memory the call waits for the copy (as CUDA does); into page-locked memory
    /// it returns at once.
    ///
    /// # Errors
    /// As [`memcpy_htod`](Driver::memcpy_htod), for the source range `[src, src + dst.len())`;
    /// on a stream into pageable memory (where the call waits) also the error of earlier work on
    /// the stream, and [`Error::InCallback`] when called from any stream callback.
    ///
    /// # Safety
    /// `dst` must be valid for writes of `dst.len()` bytes, and otherwise unaccessed, until the
    /// copy has completed: blocking, until this call returns (an exclusively borrowed slice is);
    /// on a stream, until the stream has completed the copy. The device range follows the
    /// [device-range rule](Driver#device-ranges).
    unsafe fn memcpy_dtoh(&self, on: On, dst: *mut [u8], src: DevicePtr) -> Result<()>;
    /// Copies device → device (`cuMemcpyDtoD`, or on a stream `cuMemcpyDtoDAsync`).
    ///
    /// # Errors
    /// As [`memcpy_htod`](Driver::memcpy_htod), for both ranges.
    ///
    /// # Safety
    /// Every device range touched follows the [device-range rule](Driver#device-ranges).
    unsafe fn memcpy_dtod(&self, on: On, copy: DeviceCopy) -> Result<()>;
    /// Sets `bytes` bytes at `dst` to `value` (`cuMemsetD8`, or on a stream `cuMemsetD8Async`).
    ///
    /// # Errors
    /// As [`memcpy_htod`](Driver::memcpy_htod), for `[dst, dst + bytes)`.
    ///
    /// # Safety
    /// Every device range touched follows the [device-range rule](Driver#device-ranges).
    unsafe fn memset(&self, on: On, dst: DevicePtr, value: u8, bytes: usize) -> Result<()>;

    /// A host → device copy of bytes lent only for this call: the driver takes them before it
    /// returns, whatever memory they are in (pageable, page-locked, mapped). Blocking, it is
    /// [`memcpy_htod`](Driver::memcpy_htod).
    ///
    /// The safe layers use this, not [`memcpy_htod`](Driver::memcpy_htod), for a copy on a stream
    /// whose source borrow ends at the return: whether that method reads its source later
    /// depends on the driver's table of page-locked memory, and a leaked pin guard leaves a stale
    /// entry there — memory freed and reused since would then be read after the borrow ended.
    /// The default takes an owned copy and has the stream keep it until the copy has run; a
    /// driver with its own staging buffers overrides it.
    ///
    /// # Errors
    /// As [`memcpy_htod`](Driver::memcpy_htod); after an error nothing was queued.
    ///
    /// # Safety
    /// The [device-range rule](Driver#device-ranges).
    unsafe fn memcpy_htod_staged(&self, on: On, dst: DevicePtr, src: &[u8]) -> Result<()> {
        if src.is_empty() {
            return Ok(());
        }
        let Order::Stream(stream) = on.order else {
            // SAFETY: the device range is the caller's promise; a blocking copy has read the
            // borrowed `src` when it returns.
            return unsafe { self.memcpy_htod(on, dst, src) };
        };
        let owned: std::sync::Arc<[u8]> = src.into();
        // SAFETY: the device range is the caller's promise; `owned` stays valid and unwritten
        // until the stream has run the copy: `keep_or_leak` has the stream hold it, or leaks it.
        unsafe { self.memcpy_htod(on, dst, &*owned)? };
        keep_or_leak(self, on.device, stream, owned)
    }

    /// Queues a strided copy or broadcast fill (see [`StridedCopy`]) on `stream`. Both ranges are
    /// bounds-checked when queued. Like every device operation it is asynchronous; a synchronous
    /// variant is this call on the legacy default stream followed by a synchronization.
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when a range the copy touches (from its shape and strides) leaves its
    /// allocation; [`Error::Strides`], [`Error::Shape`] or [`Error::Limit`] for a malformed
    /// description (different element counts, an item size the kernels do not handle); otherwise as
    /// [`memcpy_htod`](Driver::memcpy_htod) on a stream.
    ///
    /// # Safety
    /// Every device range touched follows the [device-range rule](Driver#device-ranges).
    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()>;

    /// Whether `device` can access memory of `peer` directly (`cuDeviceCanAccessPeer`): kernels
    /// and strided copies on `device` may then read and write `peer`'s memory once peer access
    /// is enabled. A device is not its own peer (`false`, as CUDA answers). Peer copies
    /// ([`memcpy_peer`](Driver::memcpy_peer)) work either way. The default is
    /// [`Error::Unsupported`] naming the backend.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] when `device` or `peer` does not exist; [`Error::Unsupported`] from the
    /// default implementation.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config { sim_devices: 2, ..Default::default() }).unwrap();
    /// assert!(drv.device_can_access_peer(0, 1).unwrap());
    /// assert!(!drv.device_can_access_peer(0, 0).unwrap());
    /// assert!(drv.device_can_access_peer(0, 2).is_err()); // no device 2
    /// ```
    fn device_can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        let _ = (device, peer);
        Err(self.backend().unsupported("peer-access queries"))
    }

    /// Copies `copy.bytes` from `copy.src` on `src_device` to `copy.dst` on `on.device`
    /// (`cuMemcpyPeer`, or on a stream `cuMemcpyPeerAsync`); it needs no peer access. Blocking,
    /// it is ordered after earlier work of both devices' legacy default streams (as synchronous
    /// copies are) and returns when the copy is complete. On a stream (of the destination
    /// device) it is ordered with that stream only: work of `src_device` that writes the source
    /// must be waited for first (an event, or a synchronization). The default is
    /// [`Error::Unsupported`] naming the backend.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] for an unknown device; [`Error::InvalidAddress`] for a range outside its
    /// device's allocations; [`Error::InvalidHandle`] for an unknown stream; [`Error::Unsupported`]
    /// from the default implementation.
    ///
    /// # Safety
    /// As for [`memcpy_dtod`](Driver::memcpy_dtod): both ranges must be device memory (of their
    /// devices) that stays allocated, and unused by Rust references, until the copy has
    /// completed (blocking: until this call returns; on a stream: until the stream has run it).
    ///
    /// ```
    /// use rumba::driver::{DeviceCopy, Driver, On, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config { sim_devices: 2, ..Default::default() }).unwrap();
    /// let (a, b) = (drv.mem_alloc(0, 4).unwrap(), drv.mem_alloc(1, 4).unwrap());
    /// // SAFETY: two fresh device allocations of 4 bytes that nothing else uses.
    /// unsafe { drv.memset(On::blocking(0), a, 7, 4) }.unwrap();
    /// let copy = DeviceCopy { dst: b, src: a, bytes: 4 };
    /// unsafe { drv.memcpy_peer(On::blocking(1), 0, copy) }.unwrap();
    /// let mut out = [0u8; 4];
    /// unsafe { drv.memcpy_dtoh(On::blocking(1), &mut out, b) }.unwrap();
    /// assert_eq!(out, [7; 4]);
    /// ```
    unsafe fn memcpy_peer(&self, on: On, src_device: usize, copy: DeviceCopy) -> Result<()> {
        let _ = (on, src_device, copy);
        Err(self.backend().unsupported("copies between devices"))
    }

    /// Creates a stream. A blocking stream (`non_blocking == false`) synchronizes with the legacy
    /// default stream; a non-blocking one does not.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`]; [`Error::Driver`] when the backend cannot create the stream (on the
    /// sim: its worker thread cannot be spawned).
    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle>;
    /// Destroys a created stream; work already queued still completes.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for a handle that is not a live created stream
    /// (the built-in streams 0, 1 and 2 cannot be destroyed); [`Error::InvalidDevice`].
    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()>;
    /// Waits for all work queued on `stream`, then reports the first unreported error of that work.
    ///
    /// # Errors
    /// The first unreported error of the stream's work (a [`Error::KernelFault`], a failed copy);
    /// [`Error::InvalidHandle`] for an unknown `stream`;
    /// [`Error::InCallback`] when called from a stream callback, which would wait for itself.
    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()>;
    /// True when all work queued on `stream` has completed.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `stream`; [`Error::InvalidDevice`].
    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool>;
    /// Makes all future work on `stream` wait for the event's most recent record.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `stream` or `event`;
    /// [`Error::InvalidDevice`].
    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()>;
    /// Queues `callback` to run (off the host thread) once all earlier work on `stream` is done.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `stream`; [`Error::InvalidDevice`].
    /// The callback is dropped, not run, after an error.
    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()>;
    /// Keeps `value` alive until the stream reaches this point, then drops it (off the host thread).
    ///
    /// This is how queued work keeps the buffers it uses alive.
    ///
    /// # Errors
    /// As [`stream_add_callback`](Driver::stream_add_callback); `value` is dropped at once after an error.
    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn Any + Send>,
    ) -> Result<()> {
        self.stream_add_callback(device, stream, Box::new(move |_| drop(value)))
    }

    /// Creates an event; `timing` enables [`event_elapsed_ms`](Driver::event_elapsed_ms).
    ///
    /// # Errors
    /// [`Error::InvalidDevice`]; [`Error::Driver`] when the backend cannot create the event.
    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle>;
    /// Destroys an event.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `event`; [`Error::InvalidDevice`].
    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()>;
    /// Records the event on `stream`: it completes when the stream reaches this point. On a
    /// stream being captured into a graph it is refused: only a program's own records
    /// ([`Graphs::record_event`](super::Graphs::record_event)) become part of a graph, never
    /// rumba's bookkeeping (fences of the pool, waits before an allocation retry).
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `event` or `stream`;
    /// [`Error::InvalidDevice`]; [`GraphError::Refused`](crate::error::GraphError::Refused) on a
    /// capturing stream.
    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()>;
    /// Waits until the event's most recent record has completed.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `event`;
    /// [`Error::InCallback`] when called from a stream callback.
    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()>;
    /// True when the event's most recent record has completed (or it was never recorded).
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown `event`; [`Error::InvalidDevice`].
    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool>;
    /// Milliseconds between two completed, timing-enabled events.
    ///
    /// # Errors
    /// [`Error::EventNotRecorded`] / [`Error::EventNotTimed`] when either event was never recorded
    /// or was created without timing; [`Error::NotReady`] when one has not completed;
    /// [`Error::InvalidHandle`] for an unknown handle.
    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32>;

    /// Waits for all work on every stream of the device (also streams destroyed while work was
    /// queued on them); reports the first unreported error.
    ///
    /// # Errors
    /// The first unreported error of work on any of the device's streams; [`Error::InCallback`]
    /// when called from a stream callback; [`Error::InvalidDevice`].
    fn device_synchronize(&self, device: usize) -> Result<()>;
    /// True when no work is queued or running on any stream of the device, destroyed ones
    /// included; never waits. The default, for drivers that cannot tell without waiting, is
    /// `false` ("maybe busy"), which callers must treat as the safe answer.
    ///
    /// # Errors
    /// An invalid device.
    fn device_idle(&self, device: usize) -> Result<bool> {
        let _ = device;
        Ok(false)
    }

    /// Accepts a stream handle created outside rumba for use with this driver.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] where the backend can tell that `stream` is not a
    /// live stream of `device` (the sim can; the default accepts every handle); [`Error::InvalidDevice`].
    ///
    /// # Safety
    /// `stream` must be a live stream of `device`'s context for as long as it is used here; the
    /// sim checks it, CUDA cannot.
    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        let _ = (device, stream);
        Ok(())
    }

    /// The device allocation that contains `ptr` (`cuMemGetAddressRange`): its base address and
    /// length in bytes. This is how memory that rumba did not allocate (an import through the
    /// CUDA Array Interface or DLPack) is found for IPC export. Host memory that the device
    /// addresses (mapped, managed) is not a device allocation and is an error. The default is
    /// [`Error::Unsupported`].
    ///
    /// # Errors
    /// [`Error::InvalidAddress`] when `ptr` is in no live device allocation (or in host memory the
    /// device addresses); [`Error::Unsupported`] from the default implementation.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc(0, 100).unwrap();
    /// assert_eq!(drv.mem_get_address_range(0, p + 40).unwrap(), (p, 100));
    /// assert!(drv.mem_get_address_range(0, p + 100).is_err()); // one past the end
    /// ```
    fn mem_get_address_range(&self, device: usize, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        let _ = (device, ptr);
        Err(self
            .backend()
            .unsupported("finding the allocation that contains a device address"))
    }

    /// Whether the pinned host range containing `ptr` is really page-locked, and if not, why
    /// (`None`: not pinned memory). The default reports every pinned range as locked.
    ///
    /// ```
    /// use rumba::driver::{Driver, HostAllocFlags, PageLocking, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.host_alloc(0, 4096, HostAllocFlags::default()).unwrap();
    /// let locking = drv.host_page_locking(p).unwrap();
    /// assert_eq!(locking.is_available(), drv.page_locking().is_available());
    /// assert_eq!(drv.host_page_locking(std::ptr::null()), None);
    /// // SAFETY: nothing refers to `p` any more.
    /// unsafe { drv.host_free(p) }.unwrap();
    /// ```
    fn host_page_locking(&self, ptr: *const u8) -> Option<PageLocking> {
        self.is_host_pinned(ptr, 1)
            .then_some(PageLocking::Available)
    }

    /// Allocates `bytes` (> 0) of managed (unified) memory, zeroed: one allocation that the host
    /// reads and writes at the returned address and every device addresses at
    /// [`host_device_pointer`](Driver::host_device_pointer). [`Error::Unsupported`] by default.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when `bytes` do not fit; [`Error::ZeroSizeAllocation`] for `bytes == 0`;
    /// [`Error::InvalidDevice`]; [`Error::Unsupported`] from the default implementation (and on OpenCL
    /// devices without fine-grained SVM).
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc_managed(0, 64).unwrap();
    /// let d = drv.host_device_pointer(0, p).unwrap();
    /// // SAFETY: no Rust reference to the managed memory exists while the memset runs.
    /// unsafe { drv.memset(rumba::driver::On::blocking(0), d, 5, 64) }.unwrap();
    /// // SAFETY: the memset has completed; nothing else uses the memory.
    /// assert_eq!(unsafe { *p }, 5);
    /// unsafe { drv.mem_free_managed(p) }.unwrap();
    /// ```
    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        let _ = (device, bytes);
        Err(self.backend().unsupported("managed memory"))
    }

    /// Frees memory returned by [`mem_alloc_managed`](Driver::mem_alloc_managed).
    ///
    /// # Errors
    /// [`Error::HostMemory`] when `ptr` was not returned by
    /// [`mem_alloc_managed`](Driver::mem_alloc_managed); [`Error::Unsupported`] from the default
    /// implementation.
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        let _ = ptr;
        Err(self.backend().unsupported("managed memory"))
    }

    /// [`mem_alloc_managed`](Driver::mem_alloc_managed) with an explicit attachment. The default
    /// allocates globally attached memory through `mem_alloc_managed` and refuses
    /// [`ManagedAttach::Host`] with [`Error::Unsupported`] naming the backend.
    ///
    /// # Errors
    /// As [`mem_alloc_managed`](Driver::mem_alloc_managed); the default also refuses
    /// [`ManagedAttach::Host`] with [`Error::Unsupported`].
    ///
    /// ```
    /// use rumba::driver::{Driver, ManagedAttach, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc_managed_attached(0, 64, ManagedAttach::Host).unwrap();
    /// assert!(drv.host_device_pointer(0, p).is_ok()); // the sim has concurrent managed access
    /// // SAFETY: nothing refers to the memory any more.
    /// unsafe { drv.mem_free_managed(p) }.unwrap();
    /// ```
    fn mem_alloc_managed_attached(
        &self,
        device: usize,
        bytes: usize,
        attach: ManagedAttach,
    ) -> Result<*mut u8> {
        match attach {
            ManagedAttach::Global => self.mem_alloc_managed(device, bytes),
            ManagedAttach::Host => Err(self.backend().unsupported("host-attached managed memory")),
        }
    }

    /// Managed-memory placement (prefetch, advice, page residency); `None` without managed memory.
    fn placement(&self) -> Option<&dyn Placement> {
        None
    }

    /// Inter-process sharing of device memory (export, open, close), or the refusal saying why
    /// this backend has none. The default refuses ([`Error::Unsupported`]).
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the backend cannot share device memory between processes.
    fn ipc(&self) -> Result<&dyn Ipc> {
        Err(self.backend().unsupported("IPC memory handles"))
    }

    /// Stream capture and graph replay ([`Graphs`]); `None` where the backend has none.
    fn graphs(&self) -> Option<&dyn Graphs> {
        None
    }

    /// Allocates `bytes` (> 0) of zeroed **coarse- or fine-grained** host memory that every
    /// device addresses directly at [`host_device_pointer`](Driver::host_device_pointer) (the
    /// memory of [`GrainedArray`](crate::host::GrainedArray)).
    ///
    /// The default builds both kinds from the other host-memory calls: fine-grained memory is
    /// page-locked, mapped, portable host memory ([`host_alloc`](Driver::host_alloc)) — device
    /// work reads and writes the host pages in place, as it runs; coarse-grained memory is
    /// managed memory ([`mem_alloc_managed`](Driver::mem_alloc_managed)), which the host may use
    /// only between device work. The sim and CUDA use the default. The OpenCL driver gives both
    /// kinds as fine-grained SVM (`clSVMAlloc` with `CL_MEM_SVM_FINE_GRAIN_BUFFER`), coherent while
    /// device work runs, which keeps the coarse-grained promise too (coarse-grained SVM would need
    /// a map and unmap around every host access, and the host arrays read their memory directly).
    ///
    /// # Errors
    /// As [`host_alloc`](Driver::host_alloc) (fine) or [`mem_alloc_managed`](Driver::mem_alloc_managed)
    /// (coarse), whose errors the default passes on.
    ///
    /// ```
    /// use rumba::driver::{Driver, GrainKind, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config { sim_devices: 2, ..Default::default() }).unwrap();
    /// let p = drv.host_alloc_grained(0, 64, GrainKind::Fine).unwrap();
    /// assert!(drv.host_device_pointer(1, p).is_ok()); // every device addresses it
    /// // SAFETY: nothing refers to the memory any more.
    /// unsafe { drv.host_free_grained(p, GrainKind::Fine) }.unwrap();
    /// ```
    fn host_alloc_grained(&self, device: usize, bytes: usize, grain: GrainKind) -> Result<*mut u8> {
        match grain {
            GrainKind::Fine => self.host_alloc(device, bytes, HostAllocFlags::SHARED),
            GrainKind::Coarse => self.mem_alloc_managed(device, bytes),
        }
    }

    /// Frees memory returned by [`host_alloc_grained`](Driver::host_alloc_grained) with the same
    /// `grain`.
    ///
    /// # Errors
    /// [`Error::HostMemory`] when `ptr` was not returned by
    /// [`host_alloc_grained`](Driver::host_alloc_grained) with this `grain`.
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn host_free_grained(&self, ptr: *mut u8, grain: GrainKind) -> Result<()> {
        match grain {
            // SAFETY: forwarded from the caller.
            GrainKind::Fine => unsafe { self.host_free(ptr) },
            // SAFETY: forwarded from the caller.
            GrainKind::Coarse => unsafe { self.mem_free_managed(ptr) },
        }
    }

    /// Queues a kernel launch on `stream` (see [`KernelLaunch`]).
    ///
    /// Array arguments are checked against the device's allocations when queued where the backend
    /// can (the sim refuses a range outside one live allocation with an error at once); the launch
    /// itself runs asynchronously, and its failure — a kernel fault naming kernel, block, thread
    /// and address on the sim — is reported at the stream's next synchronization. Each backend
    /// takes the form of the kernel it runs ([`KernelFunction::require`](super::KernelFunction::require)): the sim runs its
    /// [`HostKernel`](super::HostKernel) (resolving array pointers to host addresses on the stream worker); the CUDA
    /// backend compiles its [`CudaKernelSource`](super::CudaKernelSource) with NVRTC and packs each array as a pointer +
    /// shape/stride descriptor followed by the scalars. A function without the form the backend
    /// runs is refused with [`Error::Unsupported`] before anything is queued.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the kernel has no form this backend runs (a closure kernel on CUDA or
    /// OpenCL); [`Error::InvalidAddress`] when an array argument leaves its allocation (sim, OpenCL);
    /// [`Error::InvalidLaunch`] for a launch shape or shared-memory size the device cannot run;
    /// [`Error::Driver`] for a compilation (NVRTC, OpenCL C) or launch failure, with the log;
    /// [`Error::InvalidHandle`] for an unknown `stream`. Faults while the kernel
    /// runs ([`Error::KernelFault`]) are reported at the stream's next synchronization.
    ///
    /// # Safety
    /// Every array argument must describe device memory (or mapped host memory that no Rust
    /// reference uses while the kernel runs) that stays allocated until the stream has run the
    /// kernel, and whose `ptr` and strides are multiples of the element's alignment.
    unsafe fn launch_kernel(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()>;
}

/// Has `stream` keep `bytes` until the work queued on it so far has run. If even that cannot be
/// queued (unreachable in practice: the work was just queued on the same stream), the bytes are
/// leaked: queued work may still read them, so they are never freed under it.
///
/// # Errors
/// The driver's refusal of the keep-alive (the bytes are leaked then).
pub(crate) fn keep_or_leak(
    driver: &(impl Driver + ?Sized),
    device: usize,
    stream: StreamHandle,
    bytes: std::sync::Arc<[u8]>,
) -> Result<()> {
    if let Err(e) = driver.stream_keepalive(device, stream, Box::new(bytes.clone())) {
        std::mem::forget(bytes);
        return Err(e);
    }
    Ok(())
}
