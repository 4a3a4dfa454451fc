//! The simulated GPU: a pure-Rust implementation of [`Driver`](crate::driver::Driver).
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
//! | `mod.rs` | [`SimDriver`]: its devices, handles and the helpers its operations share |
//! | `driver` | `impl Driver for SimDriver`: every driver call, each a thin step into the files below |
//! | `device` | one device: address space, legacy and created streams, events |
//! | `memory` | the address space: allocation table, bounds-checked resolution of device pointers |
//! | `bytes` | sound byte movers over memory that kernels may touch concurrently |
//! | `host` | page-locked host memory: allocation, registration, the pinned-range registry |
//! | `order` | how a copy or memset runs: blocking after the default stream, or on a stream |
//! | `stream`, `staging` | stream workers, ordering points, staged pageable copies |
//! | `spin` | the short spin every hand-off between the simulator's threads waits with |
//! | `event` | events with real time stamps |
//! | `strided` | strided (n-d) copies and broadcast fills |
//! | `ipc` | inter-process sharing: OS shared-memory objects and the handles that name them |
//! | `inflight` | which queued operations touch each allocation; the frozen and exclusive leases |
//! | `launch` | kernel launches: argument resolution, leases, running the Rust form |
//! | `graph` | stream capture and graph replay: recorded nodes, one queue entry per replay |
//! | [`engine`] | the kernel engine: grids, blocks, coroutine threads, barriers, shared/local memory, views, atomics |
//!
//! This module touches only simulator state: its address spaces, streams, events and host
//! registry, and (through the engine) the block helpers' pool for kernels.

pub(crate) mod bytes;
mod device;
mod driver;
pub mod engine;
mod event;
mod graph;
pub(crate) mod host;
mod inflight;
pub(crate) mod ipc;
mod launch;
pub(crate) mod memory;
mod order;
mod placement;
mod spin;
mod staging;
pub(crate) mod stream;
mod strided;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use device::SimDevice;
use event::SimEvent;
use host::HostRegistry;
use inflight::Tracker;
use memory::AddressSpace;
use stream::{SimStream, StreamOwner};

use crate::config::Config;
use crate::driver::{DevicePtr, EventHandle, PageLocking, StreamHandle};
use crate::error::{Error, Result};
use crate::sync::lock;

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
/// use rumba::driver::{Driver, On, sim::SimDriver};
/// let drv = SimDriver::new(&rumba::Config::default()).unwrap();
/// let s = drv.stream_create(0, false).unwrap();
/// let p = drv.mem_alloc(0, 4).unwrap();
/// // SAFETY: `p` is a 4-byte device allocation that nothing else uses.
/// unsafe { drv.memset(On::stream(0, s), p, 9, 4) }.unwrap();
/// drv.stream_synchronize(0, s).unwrap();
/// let mut out = [0u8; 4];
/// unsafe { drv.memcpy_dtoh(On::blocking(0), &mut out, p) }.unwrap();
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
    /// Where the pages of managed memory are.
    pages: placement::PageTable,
    captures: crate::driver::capture::Captures<graph::SimNode>,
    graphs: graph::SimGraphs,
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
            pages: Default::default(),
            captures: Default::default(),
            graphs: Default::default(),
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
// SAFETY: sharing the wrapper shares only the address; every dereference is an `unsafe` operation
// of the one operation (or graph node) that carries it, under that operation's contract — a
// graph node runs on one stream worker at a time per replay, and replays of the same node write
// the same bytes the caller lent to the graph for as long as it lives.
unsafe impl<T> Sync for SendPtr<T> {}
