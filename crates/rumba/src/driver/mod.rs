//! Layer 1: one object-safe trait over a device API, in raw terms.
//!
//! [`Driver`] speaks in device pointers (integers), stream and event handles, byte counts and raw
//! host pointers — the vocabulary of CUDA's driver API. Two implementations exist: [`sim`] (a
//! simulated GPU in pure Rust, always available) and `cuda` (behind the `cuda` cargo feature).
//! Nothing above this layer knows which one it talks to; the safe, reference-counted types
//! ([`DeviceBuffer`](crate::memory::DeviceBuffer), [`Stream`](crate::Stream), …) are built on top.
//! A kernel reaches the driver as one backend-neutral [`KernelFunction`] from which each backend
//! takes the form it runs (a Rust body, CUDA C, OpenCL C; see [`KernelForm`]). The Rust form is
//! run by the kernel [`engine`], which lives with the simulator.
//!
//! Most programs never call the driver directly. It is public for the same reason cudarc's
//! `result` layer is: a reader who wants to know "what device call does this make" finds it here,
//! and a program that shares streams or memory with other libraries can reach the raw handles.
//!
//! This module may touch nothing above it: it depends only on [`crate::error`] and [`crate::config`].
//!
//! ```
//! use rumba::driver::{self, Driver};
//! let drv = driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
//! let ptr = drv.mem_alloc(0, 16).unwrap();
//! // SAFETY: `ptr` is a 16-byte device allocation that nothing else uses.
//! unsafe { drv.memcpy_htod(0, ptr, &[7u8; 16]) }.unwrap();
//! let mut back = [0u8; 16];
//! unsafe { drv.memcpy_dtoh(0, &mut back, ptr) }.unwrap();
//! assert_eq!(back, [7u8; 16]);
//! drv.mem_free(0, ptr).unwrap();
//! ```

pub mod sim;
/// The host kernel engine: the runtime of a kernel's Rust form (see [`sim::engine`]). It lives
/// with the simulator, the backend that runs kernels on the host; the kernel layer reaches it
/// here, by what it is rather than by the backend that hosts it.
pub use sim::engine;

mod kernel;
pub use kernel::{
    CudaKernelSource, HostArg, HostArray, HostKernel, HostKernelFn, HostLaunch, KernelArg,
    KernelArrayArg, KernelForm, KernelFunction, KernelLaunch, OpenClKernelSource,
};

#[cfg(feature = "cuda")]
pub mod cuda;

use std::any::Any;
use std::fmt;

use crate::config::{BackendChoice, Config};
use crate::error::{Error, Result};

/// A device address. Device pointers are plain integers: host code cannot dereference them.
pub type DevicePtr = u64;

/// A raw stream handle as the backend knows it.
///
/// The three built-in handles are [`StreamHandle::DEFAULT`] (0), [`StreamHandle::LEGACY`] (1) and
/// [`StreamHandle::PER_THREAD`] (2), exactly as in CUDA.
///
/// ```
/// use rumba::driver::StreamHandle;
/// assert_eq!(StreamHandle::LEGACY.0, 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamHandle(pub u64);

impl StreamHandle {
    /// The default stream (handle 0): behaves as the legacy default stream.
    pub const DEFAULT: StreamHandle = StreamHandle(0);
    /// The legacy default stream (handle 1), which synchronizes with every blocking stream.
    pub const LEGACY: StreamHandle = StreamHandle(1);
    /// The per-thread default stream (handle 2): one per host thread.
    pub const PER_THREAD: StreamHandle = StreamHandle(2);
}

/// A raw event handle.
///
/// ```
/// let e = rumba::driver::EventHandle(5);
/// assert_eq!(e.0, 5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventHandle(pub u64);

/// Which backend a driver implements.
///
/// ```
/// assert_eq!(rumba::driver::BackendKind::Sim.to_string(), "sim");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// The simulated GPU.
    Sim,
    /// NVIDIA GPUs through the CUDA driver API.
    Cuda,
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackendKind::Sim => "sim",
            BackendKind::Cuda => "cuda",
        })
    }
}

/// Flags for page-locked host allocations and registrations (CUDA's `CU_MEMHOSTALLOC_*`).
///
/// ```
/// let f = rumba::driver::HostAllocFlags { mapped: true, ..Default::default() };
/// assert!(f.mapped && !f.portable);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct HostAllocFlags {
    /// Usable from every device, not only the one current at allocation.
    pub portable: bool,
    /// Mapped into the device address space (the device reads and writes it directly).
    pub mapped: bool,
    /// Write-combined: fast for the host to write and the device to read, slow for the host to read.
    pub write_combined: bool,
}

/// Whether the host OS lets this process page-lock memory.
///
/// ```
/// let p = rumba::driver::PageLocking::Refused("RLIMIT_MEMLOCK is 64 KiB".into());
/// assert!(!p.is_available());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageLocking {
    /// `mlock` works: pinned memory is really page-locked.
    Available,
    /// The OS refused; pinned allocations still succeed but are ordinary pageable memory.
    Refused(String),
}

impl PageLocking {
    /// True when host memory can really be page-locked.
    ///
    /// ```
    /// assert!(rumba::driver::PageLocking::Available.is_available());
    /// ```
    pub fn is_available(&self) -> bool {
        matches!(self, PageLocking::Available)
    }
}

/// What a device is, as [`Driver::device_info`] reports it.
///
/// ```
/// use rumba::driver::{Driver, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let info = drv.device_info(0).unwrap();
/// assert_eq!(info.warp_size, 32);
/// assert!(info.compute_capability.is_none()); // the sim has none
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Device ordinal.
    pub ordinal: usize,
    /// Marketing or simulator name.
    pub name: String,
    /// Total device memory in bytes.
    pub total_memory: usize,
    /// `(major, minor)` on CUDA; `None` on the sim.
    pub compute_capability: Option<(u32, u32)>,
    /// Number of multiprocessors (on the sim: worker threads that run blocks).
    pub multiprocessors: u32,
    /// Threads per warp.
    pub warp_size: u32,
    /// Largest number of threads in one block.
    pub max_threads_per_block: u32,
    /// Largest static + dynamic shared memory per block, in bytes.
    pub max_shared_memory_per_block: usize,
    /// Whether pinned host memory is really page-locked.
    pub page_locking: PageLocking,
}

/// What a strided copy reads: another strided device range, or one element's bytes to broadcast.
///
/// ```
/// let fill = rumba::driver::StridedSource::Fill(&[1, 0, 0, 0]); // the i32 value 1
/// assert!(matches!(fill, rumba::driver::StridedSource::Fill(b) if b.len() == 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StridedSource<'a> {
    /// Device memory: the address of the element at index 0 and one byte stride per axis
    /// (negative and zero allowed). It may live on another device of the same driver.
    Device {
        /// Address of the element at index `(0, …, 0)`.
        ptr: DevicePtr,
        /// Byte strides, one per axis of [`StridedCopy::shape`].
        strides: &'a [isize],
    },
    /// One element's bytes (`itemsize` of them), written to every destination element.
    Fill(&'a [u8]),
}

/// One strided device operation: for every index `i` of `shape`, the `itemsize` bytes at
/// `dst + Σ i·dst_strides` receive the element `i` of `src`. This is the general device-side copy
/// behind assignment into strided views, broadcasting, transposing copies and gathers; a CUDA
/// backend implements it with one built-in kernel (one thread per element, shape and strides as
/// arguments).
///
/// Source and destination must not overlap unless every element maps onto itself; otherwise the
/// result is unspecified (as for any kernel that reads what it writes). Callers stage through a
/// temporary when they might overlap.
///
/// ```
/// use rumba::driver::{Driver, StreamHandle, StridedCopy, StridedSource, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let p = drv.mem_alloc(0, 8).unwrap();
/// // Every other byte of 8 set to 7: shape (4,), stride 2.
/// let copy = StridedCopy { shape: &[4], itemsize: 1, dst: p, dst_strides: &[2], src: StridedSource::Fill(&[7]) };
/// // SAFETY: `p` is an 8-byte device allocation that nothing else uses.
/// unsafe { drv.copy_strided_async(0, &copy, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// let mut out = [0u8; 8];
/// unsafe { drv.memcpy_dtoh(0, &mut out, p) }.unwrap();
/// assert_eq!(out, [7, 0, 7, 0, 7, 0, 7, 0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StridedCopy<'a> {
    /// Number of elements along each axis (the same for both sides).
    pub shape: &'a [usize],
    /// Bytes per element (> 0).
    pub itemsize: usize,
    /// Address of the destination element at index `(0, …, 0)`.
    pub dst: DevicePtr,
    /// Destination byte strides, one per axis (negative and zero allowed).
    pub dst_strides: &'a [isize],
    /// What each element receives.
    pub src: StridedSource<'a>,
}

/// A function run by a stream once all work queued before it has completed.
///
/// It receives `Ok(())`, or the error of earlier failed work that has not yet been reported. It runs
/// off the calling host thread and must not wait on its own stream.
pub type HostCallback = Box<dyn FnOnce(Result<()>) + Send + 'static>;

/// One object-safe trait over a device API.
///
/// All sizes are in bytes; all device addresses are [`DevicePtr`]s. Calls that take a `device`
/// ordinal act on that device's (primary) context. Asynchronous calls return once the work is
/// queued; errors of the work itself surface at the next synchronization of that stream.
///
/// # Safety
/// rumba's safe types read and write host memory that a driver hands out, so an implementor
/// promises that on success [`host_alloc`](Driver::host_alloc) and
/// [`mem_alloc_managed`](Driver::mem_alloc_managed) return a non-null pointer to
/// `bytes` of zeroed host memory that nothing else uses, readable and writable from any thread
/// until it is passed to [`host_free`](Driver::host_free) /
/// [`mem_free_managed`](Driver::mem_free_managed); and that the device touches host memory only
/// in the operations and within the bounds that the callers of its `unsafe` methods allow.
pub unsafe trait Driver: Send + Sync + fmt::Debug {
    /// Which backend this is.
    fn backend(&self) -> BackendKind;
    /// Number of devices.
    fn device_count(&self) -> usize;
    /// Static facts about one device.
    fn device_info(&self, device: usize) -> Result<DeviceInfo>;
    /// `(free, total)` bytes of device memory.
    fn mem_info(&self, device: usize) -> Result<(usize, usize)>;

    /// Allocates `bytes` (> 0) of device memory.
    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr>;
    /// Frees memory returned by [`mem_alloc`](Driver::mem_alloc).
    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()>;

    /// Allocates `bytes` of page-locked host memory (zeroed).
    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8>;
    /// Frees memory returned by [`host_alloc`](Driver::host_alloc).
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()>;
    /// Page-locks (and with `flags.mapped`, maps) an existing host range.
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
    /// # Safety
    /// No queued device work may still use the range (it may be freed by its owner afterwards).
    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()>;
    /// The device address of mapped host memory (allocated or registered with `mapped`). Device
    /// operations through it read and write the host memory directly; they are `unsafe` for that
    /// reason.
    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr>;
    /// True if `[ptr, ptr + bytes)` lies inside page-locked (allocated or registered) host memory.
    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool;

    /// Copies host → device, returning when the copy is complete.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memcpy_htod(&self, device: usize, dst: DevicePtr, src: &[u8]) -> Result<()>;
    /// Copies device → host, returning when the copy is complete.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memcpy_dtoh(&self, device: usize, dst: &mut [u8], src: DevicePtr) -> Result<()>;
    /// Copies device → device, returning when the copy is complete.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memcpy_dtod(
        &self,
        device: usize,
        dst: DevicePtr,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()>;
    /// Sets `bytes` bytes at `dst` to `value`, returning when done.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memset(&self, device: usize, dst: DevicePtr, value: u8, bytes: usize) -> Result<()>;

    /// Queues a host → device copy on `stream`. From pageable memory the data is staged (taken
    /// before this returns); from page-locked memory it is read when the stream reaches the copy.
    ///
    /// # Safety
    /// `src` must stay valid, and unwritten, for `bytes` bytes until the stream has completed the
    /// copy (or this call returned, for pageable memory); the device range as for
    /// [`memcpy_htod`](Driver::memcpy_htod).
    unsafe fn memcpy_htod_async(
        &self,
        device: usize,
        dst: DevicePtr,
        src: *const u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()>;
    /// Queues a device → host copy on `stream`. Into pageable memory the call waits for the copy
    /// (as CUDA does); into page-locked memory it returns at once.
    ///
    /// # Safety
    /// `dst` must stay valid, and otherwise unaccessed, for `bytes` bytes until the stream has
    /// completed the copy; the device range as for [`memcpy_htod`](Driver::memcpy_htod).
    unsafe fn memcpy_dtoh_async(
        &self,
        device: usize,
        dst: *mut u8,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()>;
    /// Queues a device → device copy on `stream`.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memcpy_dtod_async(
        &self,
        device: usize,
        dst: DevicePtr,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()>;
    /// Queues a memset on `stream`.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn memset_async(
        &self,
        device: usize,
        dst: DevicePtr,
        value: u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()>;

    /// Queues a strided copy or broadcast fill (see [`StridedCopy`]) on `stream`. Both ranges are
    /// bounds-checked when queued. Like every device operation it is asynchronous; a synchronous
    /// variant is this call on the legacy default stream followed by a synchronization.
    ///
    /// # Safety
    /// Device addresses are plain integers that Rust's borrow rules cannot see. Every device range
    /// touched must be device memory, or mapped host memory that no Rust reference uses while
    /// the operation runs (on CUDA with unified addressing, any pinned host pointer is a valid
    /// device address).
    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()>;

    /// Creates a stream. A blocking stream (`non_blocking == false`) synchronizes with the legacy
    /// default stream; a non-blocking one does not.
    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle>;
    /// Destroys a created stream; work already queued still completes.
    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()>;
    /// Waits for all work queued on `stream`, then reports the first unreported error of that work.
    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()>;
    /// True when all work queued on `stream` has completed.
    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool>;
    /// Makes all future work on `stream` wait for the event's most recent record.
    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()>;
    /// Queues `callback` to run (off the host thread) once all earlier work on `stream` is done.
    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()>;
    /// Keeps `value` alive until the stream reaches this point, then drops it (off the host thread).
    ///
    /// This is how queued work keeps the buffers it uses alive.
    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn Any + Send>,
    ) -> Result<()> {
        self.stream_add_callback(device, stream, Box::new(move |_| drop(value)))
    }

    /// Creates an event; `timing` enables [`event_elapsed_ms`](Driver::event_elapsed_ms).
    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle>;
    /// Destroys an event.
    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()>;
    /// Records the event on `stream`: it completes when the stream reaches this point.
    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()>;
    /// Waits until the event's most recent record has completed.
    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()>;
    /// True when the event's most recent record has completed (or it was never recorded).
    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool>;
    /// Milliseconds between two completed, timing-enabled events.
    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32>;

    /// Waits for all work on every stream of the device; reports the first unreported error.
    fn device_synchronize(&self, device: usize) -> Result<()>;

    /// Accepts a stream handle created outside rumba for use with this driver.
    ///
    /// # Safety
    /// `stream` must be a live stream of `device`'s context for as long as it is used here; the
    /// sim checks it, CUDA cannot.
    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        let _ = (device, stream);
        Ok(())
    }

    /// Exports an inter-process handle for the device allocation that **starts** at `ptr`
    /// (`cuIpcGetMemHandle`). The bytes name the whole allocation; a sub-range is described by an
    /// offset kept next to them (see [`IpcHandle`](crate::memory::IpcHandle)). On the sim the
    /// allocation moves into an OS shared-memory object on first export (all streams are waited
    /// for, without taking their errors); its device address does not change.
    ///
    /// The default is [`Error::Unsupported`], for drivers written before IPC existed.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc(0, 64).unwrap();
    /// let handle = drv.ipc_get_mem_handle(0, p).unwrap();
    /// assert!(!handle.is_empty());
    /// assert!(drv.ipc_get_mem_handle(0, p + 8).is_err()); // not the start of an allocation
    /// // Opening it here, in the exporting process, is refused.
    /// assert!(drv.ipc_open_mem_handle(0, &handle).is_err());
    /// ```
    fn ipc_get_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<Vec<u8>> {
        let _ = (device, ptr);
        Err(Error::Unsupported(format!(
            "the {} driver cannot export IPC handles",
            self.backend()
        )))
    }

    /// Opens a handle exported by **another** process (`cuIpcOpenMemHandle`); returns the device
    /// address of the shared allocation in this process and its length in bytes. Opening a handle
    /// in the process that exported it, or opening the same allocation twice in one process, is
    /// an error.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// assert!(drv.ipc_open_mem_handle(0, b"not a handle").is_err());
    /// ```
    fn ipc_open_mem_handle(&self, device: usize, handle: &[u8]) -> Result<(DevicePtr, usize)> {
        let _ = (device, handle);
        Err(Error::Unsupported(format!(
            "the {} driver cannot open IPC handles",
            self.backend()
        )))
    }

    /// Closes memory opened by [`ipc_open_mem_handle`](Driver::ipc_open_mem_handle)
    /// (`cuIpcCloseMemHandle`). Closing anything else is an error. As with
    /// [`mem_free`](Driver::mem_free), device work must no longer use the range.
    ///
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc(0, 64).unwrap();
    /// assert!(drv.ipc_close_mem_handle(0, p).is_err()); // never opened
    /// ```
    fn ipc_close_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        let _ = (device, ptr);
        Err(Error::Unsupported(format!(
            "the {} driver cannot close IPC handles",
            self.backend()
        )))
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
    /// ```
    /// use rumba::driver::{Driver, sim::SimDriver};
    /// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.mem_alloc_managed(0, 64).unwrap();
    /// let d = drv.host_device_pointer(0, p).unwrap();
    /// // SAFETY: no Rust reference to the managed memory exists while the memset runs.
    /// unsafe { drv.memset(0, d, 5, 64) }.unwrap();
    /// // SAFETY: the memset has completed; nothing else uses the memory.
    /// assert_eq!(unsafe { *p }, 5);
    /// unsafe { drv.mem_free_managed(p) }.unwrap();
    /// ```
    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        let _ = (device, bytes);
        Err(Error::Unsupported(format!(
            "the {} backend has no managed memory",
            self.backend()
        )))
    }

    /// Frees memory returned by [`mem_alloc_managed`](Driver::mem_alloc_managed).
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        let _ = ptr;
        Err(Error::Unsupported(format!(
            "the {} backend has no managed memory",
            self.backend()
        )))
    }

    /// Queues a kernel launch on `stream` (see [`KernelLaunch`]).
    ///
    /// Array arguments are checked against the device's allocations when queued where the backend
    /// can (the sim refuses a range outside one live allocation with an error at once); the launch
    /// itself runs asynchronously, and its failure — a kernel fault naming kernel, block, thread
    /// and address on the sim — is reported at the stream's next synchronization. Each backend
    /// takes the form of the kernel it runs ([`KernelFunction::require`]): the sim runs its
    /// [`HostKernel`] (resolving array pointers to host addresses on the stream worker); the CUDA
    /// backend compiles its [`CudaKernelSource`] with NVRTC and packs each array as a pointer +
    /// shape/stride descriptor followed by the scalars. A function without the form the backend
    /// runs is refused with [`Error::Unsupported`] before anything is queued.
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

/// Builds the driver that `config` selects: `sim`, `cuda`, or `auto` (CUDA when a driver and a
/// device are present, else sim). Returns the driver and, for `auto`, why CUDA was not chosen.
///
/// ```
/// let cfg = rumba::Config { backend: rumba::config::BackendChoice::Sim, ..Default::default() };
/// let (drv, why_not_cuda) = rumba::driver::open(&cfg).unwrap();
/// assert_eq!(drv.backend(), rumba::driver::BackendKind::Sim);
/// assert!(why_not_cuda.is_none());
/// ```
pub fn open(config: &Config) -> Result<(std::sync::Arc<dyn Driver>, Option<String>)> {
    match config.backend {
        BackendChoice::Sim => Ok((std::sync::Arc::new(sim::SimDriver::new(config)?), None)),
        BackendChoice::Cuda => open_cuda(config).map(|d| (d, None)),
        BackendChoice::Auto => match open_cuda(config) {
            Ok(d) => Ok((d, None)),
            Err(e) => {
                let why = match e {
                    Error::BackendUnavailable { reason, .. } => reason,
                    other => other.to_string(),
                };
                Ok((std::sync::Arc::new(sim::SimDriver::new(config)?), Some(why)))
            }
        },
    }
}

#[cfg(feature = "cuda")]
fn open_cuda(config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    cuda::open(config)
}

#[cfg(not(feature = "cuda"))]
fn open_cuda(_config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    Err(Error::BackendUnavailable {
        backend: "cuda".into(),
        reason: "this rumba was built without the `cuda` cargo feature".into(),
    })
}

thread_local! {
    static CALLBACK_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the current thread as one that runs driver callbacks (a stream worker). Driver calls that
/// may block or that CUDA forbids in callbacks (flushing deallocations) are avoided there.
pub(crate) fn mark_callback_thread() {
    CALLBACK_THREAD.with(|c| c.set(true));
}

/// True on threads that run driver callbacks.
pub(crate) fn on_callback_thread() -> bool {
    CALLBACK_THREAD.with(|c| c.get())
}
