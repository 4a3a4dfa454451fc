//! [`CudaDriver`]: the [`Driver`] trait on the CUDA driver API, one thin call per operation.
//!
//! Each device is used through its primary context (retained when the driver opens, released when
//! it drops), made current on the calling thread before every call. With per-thread default
//! streams configured, handle 0 means `CU_STREAM_PER_THREAD` and synchronous copies and memsets
//! are ordered on it (the `_ptds` behaviour: queued there, then waited for), as CUDA code built
//! with `--default-stream per-thread` behaves; peer copies use `cuMemcpyPeer(Async)`. Handles of streams and events
//! created here (and external streams adopted through [`Driver::stream_adopt`]) are remembered, so
//! a made-up handle is a typed error instead of a pointer handed to CUDA. Host callbacks go
//! through `cuStreamAddCallback` (which passes the stream's status); their thread is marked as a
//! callback thread, so rumba never flushes deferred releases or waits for device work there, which
//! CUDA forbids (every driver call there is refused with [`Error::InCallback`]). Keep-alives are
//! not callbacks but events (`keepalive.rs`), because CUDA runs the callbacks of all streams on
//! one thread. Device memory (`pool.rs`: the stream-ordered pool or `cuMemAlloc`), page-locked
//! host memory (`host.rs`), copies and memsets (`copy.rs`), events (`events.rs`) and the
//! synchronizations that read kernel fault records back (`faults.rs`) live in their own files;
//! the trait methods here forward to them.
//!
//! This module touches the CUDA driver (through cudarc's `sys` layer) and the built-in kernels.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::CStr;
use std::sync::{Mutex, RwLock};

use cudarc::driver::sys::{self, CUdevice_attribute as Attr, CUresult};

use super::builtin::Modules;
use super::copy::{DTOD, DTOH, HTOD, MEMSET};
use super::error::{check, map};
use super::faults::{DeviceFaults, Peek};
use super::flags::{cu_stream, default_resolved, host_register_flags, stream_handle};
use super::keepalive::KeepAlives;
use super::launch::{self, UserKernels};
use super::pool::Pools;
use super::staging::{STAGE_MAX, Staging};
use crate::driver::graph::{ONE_SHOT, WAITS};
use crate::driver::{
    BackendKind, CudaKernelSource, DeviceCopy, DeviceInfo, DevicePtr, Driver, EventHandle,
    HostAllocFlags, HostCallback, KernelLaunch, ManagedAttach, On, Order, PageLocking,
    StreamHandle, StridedCopy,
};
use crate::error::{Error, Result};
use crate::sync::lock;

pub(super) struct CudaDevice {
    pub(super) dev: sys::CUdevice,
    /// Compute capability (major, minor): what NVRTC compiles for.
    pub(super) cc: (u32, u32),
    /// Shared memory per block (`CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK`), checked at
    /// every launch.
    max_shared: usize,
    /// The retained primary context (a `CUcontext`, kept as an integer so the driver is Send).
    pub(super) ctx: usize,
}

/// The CUDA backend's driver.
pub struct CudaDriver {
    pub(super) devices: Vec<CudaDevice>,
    streams: Mutex<HashSet<u64>>,
    /// Events created here: handle → what `cuEventElapsedTime` needs to know first, because
    /// CUDA answers both an untimed and a never-recorded event with `CUDA_ERROR_INVALID_HANDLE`.
    pub(super) events: Mutex<HashMap<u64, super::events::EventState>>,
    /// Host ranges pinned through this driver: start → length, and whether allocated or registered.
    pub(super) pinned: RwLock<BTreeMap<usize, super::host::Pinned>>,
    /// Managed allocations: start → length (their host and device addresses are the same).
    pub(super) managed: RwLock<BTreeMap<usize, usize>>,
    pub(super) modules: Modules,
    user_kernels: UserKernels,
    /// Values queued work keeps alive, dropped once an event behind the work completed.
    keepalives: KeepAlives,
    /// Page-locked blocks that uploads from pageable memory on a stream go through.
    pub(super) staging: Staging,
    /// Memory opened from IPC handles: mapped address → the handle's bytes.
    pub(super) ipc_opened: Mutex<HashMap<DevicePtr, Vec<u8>>>,
    /// Kernel fault records, per device.
    pub(super) faults: Vec<DeviceFaults>,
    /// The devices' stream-ordered memory pools and their live allocations.
    pub(super) pools: Pools,
    /// Handle 0 and synchronous calls use the per-thread default stream.
    pub(super) per_thread_default: bool,
    /// Stream capture and graphs (`graph.rs`).
    pub(super) graphs: super::graph::CudaGraphs,
    /// The driver has every graph entry point (CUDA 12.3 and later).
    has_graphs: bool,
}

impl std::fmt::Debug for CudaDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudaDriver")
            .field("devices", &self.devices.len())
            .finish()
    }
}

impl CudaDriver {
    /// Initialises the driver API and retains every device's primary context.
    ///
    /// # Safety
    /// The NVIDIA driver library must be loadable (cudarc panics otherwise); see
    /// [`driver_library_present`](super::driver_library_present).
    pub(crate) unsafe fn new(per_thread_default: bool) -> Result<CudaDriver> {
        // SAFETY: the caller checked that the library is present; cuInit has no other contract.
        check("cuInit", unsafe { sys::cuInit(0) })?;
        let mut count = 0;
        // SAFETY: writes one int.
        check("cuDeviceGetCount", unsafe {
            sys::cuDeviceGetCount(&mut count)
        })?;
        if count <= 0 {
            return Err(map("cuDeviceGetCount", CUresult::CUDA_ERROR_NO_DEVICE));
        }
        let mut devices = Vec::new();
        for ordinal in 0..count {
            let mut dev = 0;
            // SAFETY: writes one device handle for a valid ordinal.
            check("cuDeviceGet", unsafe {
                sys::cuDeviceGet(&mut dev, ordinal)
            })?;
            let mut ctx = std::ptr::null_mut();
            // SAFETY: retains the primary context of a valid device; released in Drop.
            check("cuDevicePrimaryCtxRetain", unsafe {
                sys::cuDevicePrimaryCtxRetain(&mut ctx, dev)
            })?;
            let attr = |a| {
                let mut v = 0;
                // SAFETY: writes one int for a valid device.
                check("cuDeviceGetAttribute", unsafe {
                    sys::cuDeviceGetAttribute(&mut v, a, dev)
                })
                .map(|()| v as u32)
            };
            let cc = (
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            );
            let max_shared = attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)? as usize;
            devices.push(CudaDevice {
                dev,
                cc,
                max_shared,
                ctx: ctx as usize,
            });
        }
        let contexts = devices.iter().map(|d| d.ctx).collect();
        Ok(CudaDriver {
            staging: Staging::default(),
            ipc_opened: Mutex::new(HashMap::new()),
            keepalives: KeepAlives::new(contexts),
            devices,
            streams: Mutex::new(HashSet::new()),
            events: Mutex::new(HashMap::new()),
            pinned: RwLock::new(BTreeMap::new()),
            managed: RwLock::new(BTreeMap::new()),
            modules: Modules::default(),
            user_kernels: UserKernels::default(),
            faults: (0..count).map(|_| DeviceFaults::default()).collect(),
            pools: Pools::new(count as usize),
            per_thread_default,
            graphs: Default::default(),
            // SAFETY: the driver library is present (this function's contract).
            has_graphs: unsafe { super::libraries::has_graphs() },
        })
    }

    /// Makes `device`'s primary context current on this thread.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`]; [`Error::InCallback`] on a callback thread (CUDA forbids driver
    /// calls in host callbacks and answers them with `CUDA_ERROR_NOT_PERMITTED`), so every
    /// operation tried there is refused before anything is queued.
    pub(super) fn bind(&self, device: usize) -> Result<&CudaDevice> {
        let d = self.devices.get(device).ok_or(Error::InvalidDevice {
            id: device,
            count: self.devices.len(),
        })?;
        if crate::driver::callback::is_callback_thread() {
            return Err(Error::InCallback {
                operation: "a CUDA driver call".into(),
                reason: "CUDA forbids driver calls in host callbacks",
                instead: "",
            });
        }
        let mut cur = std::ptr::null_mut();
        // SAFETY: writes one context handle.
        check("cuCtxGetCurrent", unsafe { sys::cuCtxGetCurrent(&mut cur) })?;
        if cur as usize != d.ctx {
            // SAFETY: `d.ctx` is a retained primary context.
            check("cuCtxSetCurrent", unsafe {
                sys::cuCtxSetCurrent(d.ctx as sys::CUcontext)
            })?;
        }
        Ok(d)
    }

    pub(super) fn stream(&self, handle: StreamHandle) -> Result<sys::CUstream> {
        let handle = default_resolved(handle, self.per_thread_default);
        if handle.0 <= 2 || lock(&self.streams).contains(&handle.0) {
            Ok(cu_stream(handle))
        } else {
            Err(unknown("stream", handle.0))
        }
    }

    /// Keeps `value` until `stream`'s work queued so far has run (`keepalive.rs`); on an error
    /// `value` comes back with it.
    pub(super) fn keep(
        &self,
        device: usize,
        stream: StreamHandle,
        s: sys::CUstream,
        value: Box<dyn std::any::Any + Send>,
    ) -> std::result::Result<(), (Error, Box<dyn std::any::Any + Send>)> {
        let key = default_resolved(stream, self.per_thread_default).0;
        self.keepalives.keep(device, key, s, value)
    }

    /// Drops the values kept for `stream`'s completed work (every stream's with `None`) once a
    /// synchronization has waited for it.
    pub(super) fn settle(&self, device: usize, stream: Option<StreamHandle>) {
        let key = stream.map(|h| default_resolved(h, self.per_thread_default).0);
        self.keepalives.settle(device, key);
    }

    /// The retained primary context of `device` as a `CUcontext`.
    pub(super) fn context(&self, device: usize) -> Result<sys::CUcontext> {
        self.devices
            .get(device)
            .map(|d| d.ctx as sys::CUcontext)
            .ok_or(Error::InvalidDevice {
                id: device,
                count: self.devices.len(),
            })
    }

    fn attribute(&self, dev: sys::CUdevice, attr: Attr) -> Result<i32> {
        let mut v = 0;
        // SAFETY: writes one int for a valid device.
        check("cuDeviceGetAttribute", unsafe {
            sys::cuDeviceGetAttribute(&mut v, attr, dev)
        })?;
        Ok(v)
    }
}

impl Drop for CudaDriver {
    fn drop(&mut self) {
        self.keepalives.close();
        if self.bind(0).is_ok() {
            self.staging.release();
        }
        self.release_faults();
        for d in &self.devices {
            // SAFETY: balances the retain in `new`.
            let _ = unsafe { sys::cuDevicePrimaryCtxRelease_v2(d.dev) };
        }
    }
}

pub(super) fn unknown(kind: &'static str, handle: u64) -> Error {
    Error::InvalidHandle {
        kind,
        handle,
        reason: format!("not a {kind} created by rumba or adopted with external_stream"),
    }
}

// SAFETY: host and managed memory come from cuMemHostAlloc / cuMemAllocManaged (exclusively
// ours, zeroed before they are returned) and live until freed; the device reaches
// host memory only in the operations callers queue.
unsafe impl Driver for CudaDriver {
    fn backend(&self) -> BackendKind {
        BackendKind::Cuda
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_info(&self, device: usize) -> Result<DeviceInfo> {
        let d = self.bind(device)?;
        let mut name = [0 as std::ffi::c_char; 256];
        // SAFETY: writes at most 256 bytes, NUL-terminated.
        check("cuDeviceGetName", unsafe {
            sys::cuDeviceGetName(name.as_mut_ptr(), name.len() as i32, d.dev)
        })?;
        // SAFETY: NUL-terminated by the driver within the buffer.
        let name = unsafe { CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let mut total = 0;
        // SAFETY: writes one usize.
        check("cuDeviceTotalMem", unsafe {
            sys::cuDeviceTotalMem_v2(&mut total, d.dev)
        })?;
        Ok(DeviceInfo {
            ordinal: device,
            name,
            total_memory: total,
            compute_capability: Some((
                self.attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)? as u32,
                self.attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)? as u32,
            )),
            multiprocessors: self
                .attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?
                as u32,
            warp_size: self.attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_WARP_SIZE)? as u32,
            max_threads_per_block: self
                .attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?
                as u32,
            max_shared_memory_per_block: self
                .attribute(d.dev, Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?
                as usize,
            page_locking: PageLocking::Available,
        })
    }

    fn mem_info(&self, device: usize) -> Result<(usize, usize)> {
        self.bind(device)?;
        let (mut free, mut total) = (0, 0);
        // SAFETY: writes two usizes; a context is current.
        check("cuMemGetInfo", unsafe {
            sys::cuMemGetInfo_v2(&mut free, &mut total)
        })?;
        Ok((free, total))
    }

    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        self.alloc_legacy(device, bytes)
    }

    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.free_on(device, ptr, StreamHandle::LEGACY)
    }

    fn mem_alloc_async(
        &self,
        device: usize,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<DevicePtr> {
        self.alloc_on(device, bytes, stream)
    }

    fn mem_free_async(&self, device: usize, ptr: DevicePtr, stream: StreamHandle) -> Result<()> {
        self.free_on(device, ptr, stream)
    }

    fn allocator(&self, device: usize) -> String {
        self.allocator_text(device)
    }

    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.host_alloc_pinned(device, bytes, flags)
    }

    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.host_free_pinned(ptr) }
    }

    unsafe fn host_register(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<()> {
        let flags = host_register_flags(flags)?;
        self.bind(device)?;
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.pin_range(ptr, bytes, flags) }
    }

    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.host_unregister_range(ptr) }
    }

    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr> {
        self.mapped_device_pointer(device, ptr)
    }

    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool {
        self.pinned_contains(ptr, bytes)
    }

    unsafe fn memcpy_htod(&self, on: On, dst: DevicePtr, src: *const [u8]) -> Result<()> {
        let (p, n) = (src.cast::<u8>(), src.len());
        if let Order::Stream(stream) = on.order {
            if self.stages(p, n) {
                // SAFETY: the caller's contract: `src` is readable now, `dst` a device range.
                return unsafe { self.upload_staged(on.device, stream, dst, &*src) };
            }
        }
        // SAFETY: forwarded from the caller's contract (`src` stays readable until the copy has
        // completed; blocking, the queued form is waited for).
        self.issue(on, HTOD, |s| unsafe {
            match s {
                None => sys::cuMemcpyHtoD_v2(dst, p.cast(), n),
                Some(s) => sys::cuMemcpyHtoDAsync_v2(dst, p.cast(), n, s),
            }
        })
    }

    unsafe fn memcpy_htod_staged(&self, on: On, dst: DevicePtr, src: &[u8]) -> Result<()> {
        let Order::Stream(stream) = on.order else {
            // SAFETY: the device range is the caller's promise; a blocking copy has read `src`
            // when it returns.
            return unsafe { self.memcpy_htod(on, dst, src) };
        };
        if src.is_empty() {
            return Ok(());
        }
        if src.len() <= STAGE_MAX {
            // Taken into a page-locked block now, whether `src` is pageable or pinned: the bytes
            // are the caller's only until this returns, so the driver's table of pinned memory
            // (which a leaked guard can leave stale) decides nothing here.
            // SAFETY: the device range is the caller's promise.
            return unsafe { self.upload_staged(on.device, stream, dst, src) };
        }
        // Too large to stage: an owned copy the stream keeps until the DMA has run (CUDA waits
        // for the stream before it copies from pageable memory).
        let owned: std::sync::Arc<[u8]> = src.into();
        // SAFETY: the device range is the caller's promise; `owned` stays valid and unwritten
        // until the stream has run the copy: `keep_or_leak` has the stream hold it, or leaks it.
        unsafe { self.memcpy_htod(on, dst, &*owned)? };
        crate::driver::api::keep_or_leak(self, on.device, stream, owned)
    }

    unsafe fn memcpy_dtoh(&self, on: On, dst: *mut [u8], src: DevicePtr) -> Result<()> {
        let (p, n) = (dst.cast(), dst.len());
        // SAFETY: forwarded from the caller's contract (`dst` stays writable and otherwise
        // unaccessed until the copy has completed; blocking, the queued form is waited for).
        self.issue(on, DTOH, |s| unsafe {
            match s {
                None => sys::cuMemcpyDtoH_v2(p, src, n),
                Some(s) => sys::cuMemcpyDtoHAsync_v2(p, src, n, s),
            }
        })
    }

    unsafe fn memcpy_dtod(&self, on: On, copy: DeviceCopy) -> Result<()> {
        let DeviceCopy { dst, src, bytes } = copy;
        // SAFETY: forwarded from the caller's contract; blocking, the queued form is waited for.
        self.issue(on, DTOD, |s| unsafe {
            match s {
                None => sys::cuMemcpyDtoD_v2(dst, src, bytes),
                Some(s) => sys::cuMemcpyDtoDAsync_v2(dst, src, bytes, s),
            }
        })
    }

    unsafe fn memset(&self, on: On, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        // SAFETY: forwarded from the caller's contract; blocking, the queued form is waited for.
        self.issue(on, MEMSET, |s| unsafe {
            match s {
                None => sys::cuMemsetD8_v2(dst, value, bytes),
                Some(s) => sys::cuMemsetD8Async(dst, value, bytes, s),
            }
        })
    }

    fn device_can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        self.can_access_peer(device, peer)
    }

    unsafe fn memcpy_peer(&self, on: On, src_device: usize, copy: DeviceCopy) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.peer_copy(on, src_device, copy) }
    }

    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.strided_copy(device, copy, stream) }
    }

    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle> {
        self.bind(device)?;
        let mut s = std::ptr::null_mut();
        let flags = if non_blocking {
            sys::CUstream_flags::CU_STREAM_NON_BLOCKING
        } else {
            sys::CUstream_flags::CU_STREAM_DEFAULT
        };
        // SAFETY: writes one stream handle; a context is current.
        check("cuStreamCreate", unsafe {
            sys::cuStreamCreate(&mut s, flags as u32)
        })?;
        let h = stream_handle(s);
        lock(&self.streams).insert(h.0);
        Ok(h)
    }

    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()> {
        let s = self.stream(stream)?;
        if stream.0 <= 2 {
            return Err(Error::InvalidHandle {
                kind: "stream",
                handle: stream.0,
                reason: "a built-in stream cannot be destroyed".into(),
            });
        }
        self.bind(device)?;
        // A capture it began ends (what it recorded is dropped); a capture it joined goes on
        // without it.
        crate::driver::Graphs::abort_capture(self, device, stream);
        self.graphs.captures.forget_stream(device, stream);
        self.free_after_captures();
        // Its kernels' fault records are read once its work is done (or by a device sync).
        self.retire_stream(device, stream, s)?;
        lock(&self.streams).remove(&stream.0);
        // SAFETY: a stream created (or adopted) here; CUDA finishes its queued work first.
        check("cuStreamDestroy", unsafe { sys::cuStreamDestroy_v2(s) })
    }

    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()> {
        crate::driver::callback::refuse_wait("stream synchronize", "")?;
        self.graphs
            .captures
            .refuse(device, stream, "stream synchronize", WAITS)?;
        let s = self.stream(stream)?;
        self.bind(device)?;
        // Waits, then reports the first fault recorded by the kernels it waited for.
        let waited = self.synchronize_stream(device, stream, s);
        self.settle(device, Some(stream));
        waited
    }

    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool> {
        self.graphs
            .captures
            .refuse(device, stream, "stream query", WAITS)?;
        let s = self.stream(stream)?;
        self.bind(device)?;
        let idle = self.query_stream(device, stream, s)?;
        if idle {
            self.settle(device, Some(stream));
        }
        Ok(idle)
    }

    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()> {
        let (s, e) = (self.stream(stream)?, self.event(event)?);
        self.bind(device)?;
        // rumba's bookkeeping of joins (CUDA joins the stream to the capture itself).
        self.graphs.captures.wait_event(device, stream, event)?;
        // SAFETY: valid handles.
        check("cuStreamWaitEvent", unsafe {
            sys::cuStreamWaitEvent(s, e, 0)
        })
    }

    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()> {
        let s = self.stream(stream)?;
        self.bind(device)?;
        self.graphs
            .captures
            .refuse(device, stream, "a one-shot host callback", ONE_SHOT)?;
        // A fault of the kernels before the callback is its status, as on the other backends.
        let peek = self.peek_before_callback(device, stream, s)?;
        let downloads = peek.as_ref().is_some_and(Peek::downloads);
        let callback: HostCallback = match peek {
            None => callback,
            Some(peek) => Box::new(move |status| {
                let status = status.and_then(|()| peek.first_fault().map_or(Ok(()), Err));
                callback(status)
            }),
        };
        let user = Box::into_raw(Box::new(callback));
        // SAFETY: the trampoline reclaims `user` exactly once when CUDA runs it.
        let r = unsafe {
            sys::cuStreamAddCallback(
                s,
                Some(super::callback::callback_trampoline),
                user.cast(),
                0,
            )
        };
        if r != CUresult::CUDA_SUCCESS && !downloads {
            // SAFETY: CUDA refused the callback, so it will never run: reclaim it here.
            drop(unsafe { Box::from_raw(user) });
        }
        // A refused callback with downloads queued is leaked: they may still write its block.
        check("cuStreamAddCallback", r)
    }

    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle> {
        self.create_event(device, timing)
    }

    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()> {
        self.destroy_event(device, event)
    }

    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        self.record_event(device, event, stream)
    }

    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()> {
        self.synchronize_event(device, event)
    }

    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool> {
        self.query_event(device, event)
    }

    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32> {
        self.elapsed_ms(device, start, end)
    }

    fn device_synchronize(&self, device: usize) -> Result<()> {
        crate::driver::callback::refuse_wait("device synchronize", "")?;
        self.graphs.captures.refuse_device_sync(device)?;
        self.bind(device)?;
        let waited = self.synchronize_device(device);
        self.settle(device, None);
        waited
    }

    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        self.mem_alloc_managed_attached(device, bytes, ManagedAttach::Global)
    }

    fn mem_alloc_managed_attached(
        &self,
        device: usize,
        bytes: usize,
        attach: ManagedAttach,
    ) -> Result<*mut u8> {
        self.managed_alloc(device, bytes, attach)
    }

    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.managed_free(ptr) }
    }

    fn placement(&self) -> Option<&dyn crate::driver::Placement> {
        Some(self)
    }

    unsafe fn launch_kernel(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        launch::check_geometry(launch)?;
        let src = launch
            .function
            .require::<CudaKernelSource>(BackendKind::Cuda)?;
        let s = self.stream(stream)?;
        let d = self.bind(device)?;
        let (cc, limit) = (d.cc, d.max_shared);
        let (f, declared) = self.user_kernels.function(device, cc, src)?;
        launch::check_shared(launch, declared, limit)?;
        // SAFETY: forwarded from the caller's contract.
        if let Some(r) = unsafe { self.capture_launch(device, launch, stream, f, s) } {
            return r;
        }
        match launch.function.abi() {
            // A kernel #[rumba::kernel] generated: its own fault record, read at synchronization.
            Some(abi) => {
                self.launch_with_record(device, stream, &launch.function.name, abi, |rec| {
                    // SAFETY: forwarded from the caller's contract; the parameters are packed as the
                    // device header's `rumba_array` and scalar types, then the record's address.
                    unsafe { launch::launch(f, launch, s, rec) }
                })
            }
            // SAFETY: as above; a hand-written kernel gets a NULL record (ABI.md §2).
            None => unsafe { launch::launch(f, launch, s, 0) },
        }
    }

    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn std::any::Any + Send>,
    ) -> Result<()> {
        let value = match self.graphs.captures.keep(device, stream, value) {
            Ok(()) => return Ok(()), // the graph keeps it: a host node would drop it on every replay
            Err(v) => v,
        };
        let s = self.stream(stream)?;
        self.bind(device)?;
        // An event, not a host callback: see keepalive.rs for why.
        self.keep(device, stream, s, value).map_err(|(e, value)| {
            drop(value); // nothing was queued that uses it
            e
        })
    }

    fn graphs(&self) -> Option<&dyn crate::driver::Graphs> {
        self.has_graphs
            .then_some(self as &dyn crate::driver::Graphs)
    }

    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.bind(device)?;
        if stream.0 > 2 {
            lock(&self.streams).insert(stream.0);
        }
        Ok(())
    }

    fn mem_get_address_range(&self, device: usize, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        self.address_range(device, ptr)
    }

    fn ipc(&self) -> Result<&dyn crate::driver::Ipc> {
        Ok(self)
    }
}
