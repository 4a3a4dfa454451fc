//! The simulated GPU: a pure-Rust implementation of [`Driver`].
//!
//! Each simulated device has its own address space (`memory`), a legacy default stream and any
//! number of created streams, each run by a worker thread (`stream`), and events that stamp real
//! times (`event`). Page-locked host memory (`host`) is shared by all devices of the driver.
//!
//! Ordering follows CUDA:
//! - operations on one stream run in order; different streams run concurrently;
//! - the legacy default stream (handle 1, and handle 0 by default) waits for all earlier work of
//!   every *blocking* stream of its device, and blocking streams wait for earlier legacy work;
//!   non-blocking streams order against nothing;
//! - the per-thread default stream (handle 2) is a blocking stream private to each host thread;
//!   with [`Config::per_thread_default_stream`] handle 0 is that stream too (CUDA's
//!   `--default-stream per-thread`);
//! - synchronous copies and memsets wait for the default stream (as CUDA's do: the legacy one, or
//!   the calling thread's per-thread one, which itself waits for earlier legacy work), then run
//!   on the calling thread;
//! - peer copies between devices read one device's memory and write another's; the synchronous
//!   one waits for both devices' legacy default streams.
//! - asynchronous copies from pinned host memory run when the stream reaches them; from pageable
//!   memory the data is staged first (host → device) or the call waits (device → host).
//!
//! Kernels: a launch is checked against the address space when queued and run on the stream
//! worker by the kernel's Rust form ([`HostKernel`](crate::driver::HostKernel)) on the kernel
//! [`engine`], with its array arguments resolved to host memory (`launch`).
//!
//! | file | concept |
//! |---|---|
//! | `device` | one device: address space, legacy and created streams, events |
//! | `memory` | the address space: allocation table, bounds-checked resolution of device pointers |
//! | `bytes` | sound byte movers over memory that kernels may touch concurrently |
//! | `host` | page-locked host memory: allocation, registration, the pinned-range registry |
//! | `stream`, `staging` | stream workers, ordering points, staged pageable copies |
//! | `event` | events with real time stamps |
//! | `strided` | strided (n-d) copies and broadcast fills |
//! | `ipc` | inter-process sharing: OS shared-memory objects and the handles that name them |
//! | `inflight` | which queued operations touch each allocation; the frozen and exclusive leases |
//! | `launch` | kernel launches: argument resolution, leases, running the Rust form |
//! | [`engine`] | the kernel engine: grids, blocks, coroutine threads, barriers, shared/local memory, views, atomics |
//!
//! This module touches only simulator state: its address spaces, streams, events and host
//! registry, and (through the engine) rayon's pool for kernels.

pub(crate) mod bytes;
mod device;
pub mod engine;
mod event;
pub(crate) mod host;
mod inflight;
pub(crate) mod ipc;
mod launch;
pub(crate) mod memory;
mod peer;
mod staging;
pub(crate) mod stream;
mod strided;

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use device::SimDevice;
use event::SimEvent;
use host::HostRegistry;
use inflight::{Touch, Tracker};
use memory::{AddressSpace, lock};
use stream::{SimStream, StreamOwner};

use crate::config::Config;
use crate::driver::{
    BackendKind, DeviceInfo, DevicePtr, Driver, EventHandle, HostAllocFlags, HostCallback,
    KernelLaunch, ManagedAttach, PageLocking, StreamHandle, StridedCopy,
};
use crate::error::{Error, Result};

/// Created stream and event handles start here, well clear of the built-in handles 0, 1, 2.
const FIRST_HANDLE: u64 = 0x100;

static NEXT_DRIVER_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// Per-thread default streams of this host thread, keyed by (driver id, device).
    static PER_THREAD: RefCell<HashMap<(u64, usize), StreamOwner>> = RefCell::new(HashMap::new());
}

/// The simulated GPU driver.
///
/// ```
/// use rumba::driver::{Driver, StreamHandle, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let s = drv.stream_create(0, false).unwrap();
/// let p = drv.mem_alloc(0, 4).unwrap();
/// // SAFETY: `p` is a 4-byte device allocation that nothing else uses.
/// unsafe { drv.memset_async(0, p, 9, 4, s) }.unwrap();
/// drv.stream_synchronize(0, s).unwrap();
/// let mut out = [0u8; 4];
/// unsafe { drv.memcpy_dtoh(0, &mut out, p) }.unwrap();
/// assert_eq!(out, [9; 4]);
/// ```
pub struct SimDriver {
    id: u64,
    devices: Vec<SimDevice>,
    host: HostRegistry,
    next_handle: AtomicU64,
    /// Memory opened from other processes' IPC handles: (exporter pid, object id) → (device, address).
    opened: Mutex<HashMap<(u32, u64), (usize, DevicePtr)>>,
    /// Reused buffers for asynchronous copies from pageable memory.
    staging: Arc<staging::StagingPool>,
    /// Which queued operations touch each allocation (the leases of plain kernel accesses).
    inflight: Tracker,
    /// Handle 0 is the calling thread's per-thread default stream (else the legacy one).
    per_thread_default: bool,
}

impl std::fmt::Debug for SimDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimDriver")
            .field("devices", &self.devices.len())
            .field("page_locking", self.host.page_locking())
            .finish()
    }
}

impl SimDriver {
    /// Creates a simulator with `config.sim_devices` devices of `config.sim_memory_bytes()` each.
    ///
    /// # Errors
    /// [`Error::Simulator`] when a device's stream worker thread cannot be spawned.
    ///
    /// ```
    /// let cfg = rumba::Config { sim_devices: 2, sim_memory: Some(1 << 20), ..Default::default() };
    /// let drv = rumba::driver::sim::SimDriver::new(&cfg).unwrap();
    /// use rumba::driver::Driver;
    /// assert_eq!(drv.device_count(), 2);
    /// assert_eq!(drv.mem_info(1).unwrap(), (1 << 20, 1 << 20));
    /// ```
    pub fn new(config: &Config) -> Result<SimDriver> {
        let capacity = config.sim_memory_bytes();
        let devices = (0..config.sim_devices)
            .map(|ordinal| {
                Ok(SimDevice {
                    ordinal,
                    memory: AddressSpace::new(ordinal, capacity),
                    legacy: StreamOwner(SimStream::spawn(StreamHandle::LEGACY, true)?),
                    streams: Mutex::new(HashMap::new()),
                    retiring: Mutex::new(Vec::new()),
                    blocking: Mutex::new(Vec::new()),
                    events: Mutex::new(HashMap::new()),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SimDriver {
            id: NEXT_DRIVER_ID.fetch_add(1, Ordering::Relaxed),
            devices,
            host: HostRegistry::new(),
            next_handle: AtomicU64::new(FIRST_HANDLE),
            opened: Mutex::new(HashMap::new()),
            staging: Arc::default(),
            inflight: Tracker::default(),
            per_thread_default: config.per_thread_default_stream,
        })
    }

    /// Whether the OS lets this process page-lock memory (`rumba detect` reports it).
    ///
    /// ```
    /// let drv = rumba::driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
    /// if let rumba::driver::PageLocking::Refused(why) = drv.page_locking() {
    ///     assert!(!why.is_empty()); // the reason is spelled out (e.g. RLIMIT_MEMLOCK)
    /// }
    /// ```
    pub fn page_locking(&self) -> &PageLocking {
        self.host.page_locking()
    }

    /// Whether the pinned range containing `ptr` is really page-locked (`None`: not pinned).
    ///
    /// ```
    /// use rumba::driver::{Driver, HostAllocFlags};
    /// let drv = rumba::driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
    /// let p = drv.host_alloc(0, 4096, HostAllocFlags::default()).unwrap();
    /// assert_eq!(drv.is_page_locked(p), Some(drv.page_locking().is_available()));
    /// // SAFETY: nothing refers to `p` any more.
    /// unsafe { drv.host_free(p) }.unwrap();
    /// ```
    pub fn is_page_locked(&self, ptr: *const u8) -> Option<bool> {
        self.host.is_locked(ptr)
    }

    fn spaces(&self) -> Vec<&AddressSpace> {
        self.devices.iter().map(|d| &d.memory).collect()
    }

    fn device(&self, device: usize) -> Result<&SimDevice> {
        self.devices.get(device).ok_or(Error::InvalidDevice {
            id: device,
            count: self.devices.len(),
        })
    }

    fn stream(&self, device: usize, handle: StreamHandle) -> Result<(&SimDevice, Arc<SimStream>)> {
        let dev = self.device(device)?;
        let per_thread = handle == StreamHandle::PER_THREAD
            || (handle == StreamHandle::DEFAULT && self.per_thread_default);
        let stream = match handle {
            _ if per_thread => PER_THREAD.with(|m| -> Result<Arc<SimStream>> {
                let mut map = m.borrow_mut();
                if let Some(owner) = map.get(&(self.id, device)) {
                    return Ok(Arc::clone(&owner.0));
                }
                let s = SimStream::spawn(StreamHandle::PER_THREAD, true)?;
                dev.register_blocking(&s);
                map.insert((self.id, device), StreamOwner(Arc::clone(&s)));
                Ok(s)
            })?,
            StreamHandle::DEFAULT | StreamHandle::LEGACY => Arc::clone(&dev.legacy.0),
            StreamHandle(h) => lock(&dev.streams)
                .get(&h)
                .map(|o| Arc::clone(&o.0))
                .ok_or_else(|| invalid_handle("stream", h, device))?,
        };
        Ok((dev, stream))
    }

    fn event(&self, device: usize, handle: EventHandle) -> Result<Arc<SimEvent>> {
        lock(&self.device(device)?.events)
            .get(&handle.0)
            .cloned()
            .ok_or_else(|| invalid_handle("event", handle.0, device))
    }

    fn resolve(&self, device: usize, ptr: DevicePtr, len: usize) -> Result<memory::Resolved> {
        self.device(device)?.memory.resolve(ptr, len)
    }
}

/// Refuses a call that waits for device work when made from a stream callback: the callback runs
/// on a stream worker, so waiting there can wait for itself (and CUDA forbids it outright).
fn no_wait_in_callback(what: &str) -> Result<()> {
    if crate::driver::on_callback_thread() {
        Err(Error::InvalidOperation(format!(
            "{what} cannot be called from inside a stream callback: it would wait for device work from the thread that runs it"
        )))
    } else {
        Ok(())
    }
}

fn invalid_handle(kind: &'static str, handle: u64, device: usize) -> Error {
    Error::InvalidHandle {
        kind,
        handle,
        reason: format!("no live {kind} with this handle on simulated device {device}"),
    }
}

/// A raw pointer that a queued operation may carry to its worker thread.
struct SendPtr<T>(*mut T);
// SAFETY: the async-copy contracts make the caller keep the memory valid and otherwise untouched
// until the operation completes; the pointer is only dereferenced by that operation.
unsafe impl<T> Send for SendPtr<T> {}

// SAFETY: host and managed memory come from fresh anonymous mappings (zeroed, exclusively
// ours) that live until freed; the device reaches host memory only through the
// registry's bounds-checked mappings, in the operations callers queue.
unsafe impl Driver for SimDriver {
    fn backend(&self) -> BackendKind {
        BackendKind::Sim
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_info(&self, device: usize) -> Result<DeviceInfo> {
        let dev = self.device(device)?;
        Ok(DeviceInfo {
            ordinal: dev.ordinal,
            name: format!("rumba simulated GPU {}", dev.ordinal),
            total_memory: dev.memory.capacity(),
            compute_capability: None,
            multiprocessors: rayon::current_num_threads() as u32,
            warp_size: 32,
            max_threads_per_block: 1024,
            max_shared_memory_per_block: 48 * 1024,
            page_locking: self.host.page_locking().clone(),
        })
    }

    fn mem_info(&self, device: usize) -> Result<(usize, usize)> {
        Ok(self.device(device)?.memory.info())
    }

    fn allocator(&self, device: usize) -> String {
        let _ = device;
        "sim: simulated device memory (mem_alloc / mem_free)".into()
    }

    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        self.device(device)?.memory.alloc(bytes)
    }

    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.device(device)?.memory.free(ptr)
    }

    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.device(device)?;
        let spaces = self.spaces();
        self.host.alloc(bytes, flags, device, &spaces)
    }

    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        self.host.free(ptr, &spaces)
    }

    unsafe fn host_register(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<()> {
        self.device(device)?;
        let spaces = self.spaces();
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.host.register(ptr, bytes, flags, device, &spaces) }
    }

    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        self.host.unregister(ptr, &spaces)
    }

    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr> {
        self.device(device)?;
        self.host.device_pointer(ptr, device)
    }

    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool {
        self.host.contains(ptr, bytes)
    }

    unsafe fn memcpy_htod(&self, device: usize, dst: DevicePtr, src: &[u8]) -> Result<()> {
        if src.is_empty() {
            return Ok(());
        }
        let d = self.resolve(device, dst, src.len())?;
        self.wait_default_point(device)?;
        let _touch = self.inflight.begin_sync(vec![Touch::write(&d)]);
        // SAFETY: `d` is a live, bounds-checked device range of `src.len()` bytes.
        unsafe { bytes::host_to_device(d.addr(), src.as_ptr(), src.len()) };
        Ok(())
    }

    unsafe fn memcpy_dtoh(&self, device: usize, dst: &mut [u8], src: DevicePtr) -> Result<()> {
        if dst.is_empty() {
            return Ok(());
        }
        let s = self.resolve(device, src, dst.len())?;
        self.wait_default_point(device)?;
        let _touch = self.inflight.begin_sync(vec![Touch::read(&s)]);
        // SAFETY: `s` is a live, bounds-checked device range; `dst` is exclusively borrowed.
        unsafe { bytes::device_to_host(dst.as_mut_ptr(), s.addr(), dst.len()) };
        Ok(())
    }

    unsafe fn memcpy_dtod(
        &self,
        device: usize,
        dst: DevicePtr,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(device, dst, bytes)?;
        let s = self.resolve_any(src, bytes)?;
        self.wait_default_point(device)?;
        let _touch = self
            .inflight
            .begin_sync(vec![Touch::write(&d), Touch::read(&s)]);
        // SAFETY: both ranges are live and bounds-checked.
        unsafe { bytes::device_to_device(d.addr(), s.addr(), bytes) };
        Ok(())
    }

    unsafe fn memset(&self, device: usize, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(device, dst, bytes)?;
        self.wait_default_point(device)?;
        let _touch = self.inflight.begin_sync(vec![Touch::write(&d)]);
        // SAFETY: live and bounds-checked.
        unsafe { bytes::fill(d.addr(), value, bytes) };
        Ok(())
    }

    unsafe fn memcpy_htod_async(
        &self,
        device: usize,
        dst: DevicePtr,
        src: *const u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        if !self.is_host_pinned(src, bytes) {
            // SAFETY: the caller guarantees `src` is valid for `bytes` bytes during this call.
            let src = unsafe { std::slice::from_raw_parts(src, bytes) };
            // SAFETY: the device range is the caller's promise.
            return unsafe { self.memcpy_htod_async_staged(device, dst, src, stream) };
        }
        let d = self.resolve(device, dst, bytes)?;
        let touches = vec![Touch::write(&d)];
        let src = SendPtr(src as *mut u8);
        let work: stream::Work = Box::new(move || {
            let src = src;
            // SAFETY: the caller keeps pinned `src` valid until the stream completes the copy.
            unsafe { bytes::host_to_device(d.addr(), src.0, bytes) };
            Ok(())
        });
        self.enqueue(device, stream, touches, work).map(drop)
    }

    unsafe fn memcpy_htod_async_staged(
        &self,
        device: usize,
        dst: DevicePtr,
        src: &[u8],
        stream: StreamHandle,
    ) -> Result<()> {
        if src.is_empty() {
            return Ok(());
        }
        let d = self.resolve(device, dst, src.len())?;
        let touches = vec![Touch::write(&d)];
        let staged = self.staging.stage(src);
        let work: stream::Work = Box::new(move || {
            // SAFETY: the staged buffer and the device range are both owned by this operation.
            unsafe {
                bytes::host_to_device(d.addr(), staged.bytes().as_ptr(), staged.bytes().len())
            };
            Ok(())
        });
        self.enqueue(device, stream, touches, work).map(drop)
    }

    unsafe fn memcpy_dtoh_async(
        &self,
        device: usize,
        dst: *mut u8,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let s = self.resolve_any(src, bytes)?;
        let pinned = self.is_host_pinned(dst, bytes);
        if !pinned {
            no_wait_in_callback("a copy into pageable host memory")?;
        }
        let dst = SendPtr(dst);
        let touches = vec![Touch::read(&s)];
        let (st, seq) = self.enqueue(
            device,
            stream,
            touches,
            Box::new(move || {
                let dst = dst;
                // SAFETY: the caller keeps `dst` valid and untouched until the copy completes.
                unsafe { bytes::device_to_host(dst.0, s.addr(), bytes) };
                Ok(())
            }),
        )?;
        if !pinned {
            // Pageable destination: CUDA returns only once the copy is done.
            if st.is_own_worker() {
                return Err(Error::InvalidOperation(
                    "a copy into pageable memory was issued from a callback of the same stream"
                        .into(),
                ));
            }
            st.wait_for(seq);
            st.take_error()?;
        }
        Ok(())
    }

    unsafe fn memcpy_dtod_async(
        &self,
        device: usize,
        dst: DevicePtr,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(device, dst, bytes)?;
        let s = self.resolve_any(src, bytes)?;
        let touches = vec![Touch::write(&d), Touch::read(&s)];
        self.enqueue(
            device,
            stream,
            touches,
            Box::new(move || {
                // SAFETY: both ranges are live (kept by the resolutions) and bounds-checked.
                unsafe { bytes::device_to_device(d.addr(), s.addr(), bytes) };
                Ok(())
            }),
        )
        .map(drop)
    }

    unsafe fn memset_async(
        &self,
        device: usize,
        dst: DevicePtr,
        value: u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(device, dst, bytes)?;
        let touches = vec![Touch::write(&d)];
        self.enqueue(
            device,
            stream,
            touches,
            Box::new(move || {
                // SAFETY: live and bounds-checked.
                unsafe { bytes::fill(d.addr(), value, bytes) };
                Ok(())
            }),
        )
        .map(drop)
    }

    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        self.copy_strided(device, copy, stream)
    }

    fn device_can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        self.can_access_peer(device, peer)
    }

    unsafe fn memcpy_peer(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()> {
        self.peer_copy(dst_device, dst, src_device, src, bytes)
    }

    unsafe fn memcpy_peer_async(
        &self,
        dst_device: usize,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        self.peer_copy_async(dst_device, dst, src_device, src, bytes, stream)
    }

    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle> {
        let dev = self.device(device)?;
        let handle = StreamHandle(self.next_handle.fetch_add(1, Ordering::Relaxed));
        let s = SimStream::spawn(handle, !non_blocking)?;
        if s.blocking {
            dev.register_blocking(&s);
        }
        lock(&dev.streams).insert(handle.0, StreamOwner(s));
        Ok(handle)
    }

    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()> {
        let dev = self.device(device)?;
        let removed = lock(&dev.streams).remove(&stream.0);
        match removed {
            Some(owner) => {
                dev.retire(&owner.0);
                Ok(()) // dropping the owner lets the worker drain and exit
            }
            None => Err(invalid_handle("stream", stream.0, device)),
        }
    }

    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()> {
        no_wait_in_callback("stream synchronize")?;
        let (_, s) = self.stream(device, stream)?;
        s.synchronize()
    }

    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool> {
        let (_, s) = self.stream(device, stream)?;
        Ok(s.is_idle())
    }

    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()> {
        let ev = self.event(device, event)?;
        let (dev, s) = self.stream(device, stream)?;
        if let Some(dep) = ev.dependency() {
            let mut deps = dev.ordering_deps(&s);
            deps.push(dep);
            s.push_work(deps, Box::new(|| Ok(())));
        }
        Ok(())
    }

    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()> {
        let (dev, s) = self.stream(device, stream)?;
        let deps = dev.ordering_deps(&s);
        s.push_notify(deps, callback);
        Ok(())
    }

    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn Any + Send>,
    ) -> Result<()> {
        let (_, s) = self.stream(device, stream)?;
        // No ordering dependencies needed: the stream's own order is what matters.
        s.push_notify(Vec::new(), Box::new(move |_| drop(value)));
        Ok(())
    }

    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle> {
        let dev = self.device(device)?;
        let handle = self.next_handle.fetch_add(1, Ordering::Relaxed);
        lock(&dev.events).insert(handle, Arc::new(SimEvent::new(timing)));
        Ok(EventHandle(handle))
    }

    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()> {
        lock(&self.device(device)?.events)
            .remove(&event.0)
            .map(drop)
            .ok_or_else(|| invalid_handle("event", event.0, device))
    }

    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        let ev = self.event(device, event)?;
        let (dev, s) = self.stream(device, stream)?;
        let deps = dev.ordering_deps(&s);
        ev.record(&s, deps);
        Ok(())
    }

    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()> {
        no_wait_in_callback("event synchronize")?;
        self.event(device, event)?.synchronize()
    }

    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool> {
        Ok(self.event(device, event)?.query())
    }

    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32> {
        let a = self.event(device, start)?;
        let b = self.event(device, end)?;
        a.elapsed_ms(&b)
    }

    fn device_idle(&self, device: usize) -> Result<bool> {
        Ok(self
            .device(device)?
            .all_streams()
            .iter()
            .all(|s| s.is_idle()))
    }

    fn device_synchronize(&self, device: usize) -> Result<()> {
        let dev = self.device(device)?;
        let streams = dev.all_streams();
        if streams.iter().any(|s| s.is_own_worker()) {
            return Err(Error::InvalidOperation(
                "the device was synchronized from a stream callback, which would wait forever"
                    .into(),
            ));
        }
        let mut first = Ok(());
        for s in streams {
            let r = s.synchronize();
            if first.is_ok() {
                first = r;
            }
        }
        first
    }

    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.stream(device, stream).map(drop)
    }

    fn ipc_get_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<Vec<u8>> {
        self.ipc_export(device, ptr)
    }

    fn mem_get_address_range(&self, device: usize, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        self.device(device)?.memory.allocation_of(ptr)
    }

    fn ipc_open_mem_handle(&self, device: usize, handle: &[u8]) -> Result<(DevicePtr, usize)> {
        self.ipc_open(device, handle)
    }

    fn ipc_close_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.ipc_close(device, ptr)
    }

    fn host_page_locking(&self, ptr: *const u8) -> Option<PageLocking> {
        self.host.locking(ptr)
    }

    /// Managed memory on the sim: zeroed host pages (not page-locked) mapped into the address
    /// space of every device, so any device addresses it through
    /// [`host_device_pointer`](Driver::host_device_pointer).
    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        self.device(device)?;
        if bytes == 0 {
            return Err(Error::InvalidArgument(
                "cannot allocate 0 bytes of managed memory".into(),
            ));
        }
        let flags = HostAllocFlags {
            portable: true,
            mapped: true,
            write_combined: false,
        };
        let spaces = self.spaces();
        self.host.alloc_with(bytes, flags, device, &spaces, false)
    }

    /// The sim models a device with concurrent managed access: host-attached managed memory is
    /// allocated and addressed exactly like globally attached memory.
    fn mem_alloc_managed_attached(
        &self,
        device: usize,
        bytes: usize,
        _attach: ManagedAttach,
    ) -> Result<*mut u8> {
        self.mem_alloc_managed(device, bytes)
    }

    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        self.host.free(ptr, &spaces)
    }

    unsafe fn launch_kernel(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        self.launch(device, launch, stream)
    }
}

impl SimDriver {
    /// Resolves a device range that may live on any device of this driver (for copy sources).
    fn resolve_any(&self, ptr: DevicePtr, len: usize) -> Result<memory::Resolved> {
        let dev = memory::device_of(ptr)
            .filter(|d| *d < self.devices.len())
            .ok_or(Error::InvalidAddress {
                ptr,
                len,
                reason: "not a device address of this simulator".into(),
            })?;
        self.devices[dev].memory.resolve(ptr, len)
    }
}
