//! Memory resources, the managers built of them, and the buffers they hand out.
//!
//! Memory comes from **resources** in the shape of RMM's: a [`DeviceResource`] has two operations,
//! [`allocate(bytes, stream)`](DeviceResource::allocate) and
//! [`deallocate(block, stream)`](DeviceResource::deallocate) (the stream-less
//! [`allocate_sync`](DeviceResource::allocate_sync) / [`deallocate_sync`](DeviceResource::deallocate_sync)
//! are provided); a [`HostResource`] does the same for pinned host memory. Every other concern is
//! an **adaptor** — a resource over an upstream resource — and optional **capabilities**
//! (statistics, cache control, deferral, a limit, IPC export, memory info, reset) are provided
//! methods that ask the upstream unless a resource offers them itself.
//!
//! | Type | Trait | What it adds |
//! |------|-------|--------------|
//! | [`DriverResource`] | [`DeviceResource`] | the base: driver `mem_alloc` / `mem_free`; IPC export, memory info, reset |
//! | [`DriverHostResource`] | [`HostResource`] | the base for pinned memory: driver `host_alloc` / `host_free` |
//! | [`LimitingAdaptor`] | [`DeviceResource`] | a byte limit (the only one: `RUMBA_MEMORY_LIMIT` sets it); capability [`limiter`](DeviceResource::limiter) |
//! | [`DeferredAdaptor`] | both | docs/design/behaviour.md §6 deferred releases (count / bytes thresholds, OOM flush-and-retry, `defer_cleanup`); capability [`deferral`](DeviceResource::deferral) |
//! | [`PoolResource`] | [`DeviceResource`] | caching, stream-ordered sub-allocation of upstream segments; capabilities [`cache`](DeviceResource::cache), [`statistics`](DeviceResource::statistics), [`deferral`](DeviceResource::deferral) |
//! | [`PinnedPool`] | [`HostResource`] | caching of pinned blocks |
//! | [`StatisticsAdaptor`] | [`DeviceResource`] | counters; capability [`statistics`](DeviceResource::statistics) |
//!
//! Both traits are safe to implement: memory travels as [`DeviceBlock`] / [`HostBlock`] tokens
//! that safe code cannot forge or copy, and rumba checks every block before it becomes a buffer
//! (see [`resource`] for the argument). The one `unsafe` door is
//! [`DeviceBlock::from_raw`] / [`HostBlock::from_raw`], for a base resource over another allocator.
//!
//! A **[`MemoryManager`]** is one context's pair of resources with a name, and speaks Numba's EMM
//! names as a thin facade (for people porting Numba plugins and code):
//!
//! | Numba EMM | rumba |
//! |-----------|-------|
//! | `memalloc(size)` | [`MemoryManager::memalloc`] → [`DeviceResource::allocate`] |
//! | `memhostalloc(size, mapped, portable, wc)` | [`MemoryManager::memhostalloc`] → [`HostResource::allocate`] |
//! | `mempin(owner, ptr, size, mapped)` | [`MemoryManager::mempin`] (driver registration) |
//! | `get_ipc_handle(memory)` | [`MemoryManager::get_ipc_handle`] → [`DeviceResource::ipc_handle`] |
//! | `get_memory_info()` | [`MemoryManager::get_memory_info`] → [`DeviceResource::memory_info`] |
//! | `initialize()` | [`MemoryManagerFactory::create`] (a manager is ready when built); [`MemoryManager::initialize`] is an idempotent no-op |
//! | `reset()` | [`Context::reset`](crate::Context::reset) (through the manager's crate-private `reset`) → [`DeviceResource::reset`] |
//! | `defer_cleanup()` | [`MemoryManager::defer_cleanup`] → [`Deferral`] |
//! | `interface_version` | [`MemoryManagerFactory::interface_version`], checked against [`INTERFACE_VERSION`] |
//!
//! Managers are created per context by a [`MemoryManagerFactory`]; installing a factory
//! ([`set_memory_manager`]) affects contexts created afterwards, and factories registered by
//! name ([`register_memory_manager`]) are selected with `RUMBA_MEMORY_MANAGER`. Built in:
//! `default` = [`DeferredAdaptor`] over [`ManagerContext::device_upstream`] (a [`LimitingAdaptor`]
//! over a [`DriverResource`]) and a [`DriverHostResource`]; `pool` = [`PoolResource`] over the same
//! upstream, with a [`PinnedPool`].
//!
//! [`DeviceBuffer`] is the owning handle of a device allocation: cloning shares it, and the last
//! drop gives the block back to its resource on the stream it was allocated on. Queued device work
//! holds a clone (see [`Driver::stream_keepalive`]), so memory is released only when the last
//! handle is gone **and** no queued work uses it.
//!
//! **Migrating from interface version 1** (the `unsafe trait MemoryManager` with 22 methods):
//! implement [`DeviceResource`] (`memalloc_on` → `allocate`, `memfree_on` → `deallocate`, which
//! now moves a [`DeviceBlock`] instead of a raw pointer) and, if you allocated host memory
//! yourself, [`HostResource`]; forwarding methods disappear (return your upstream from
//! [`upstream`](DeviceResource::upstream)); `memory_stats` / `memory_snapshot` / `empty_cache` /
//! `flush` / `pending` / `defer_cleanup_*` become the capabilities [`statistics`](DeviceResource::statistics),
//! [`cache`](DeviceResource::cache) and [`deferral`](DeviceResource::deferral);
//! `set_memory_limit` and `PoolOptions::limit` are gone — compose a [`LimitingAdaptor`] (or set
//! `RUMBA_MEMORY_LIMIT`) and change it through [`limiter`](DeviceResource::limiter);
//! `DefaultMemoryManager` is [`DeferredAdaptor`], `PoolMemoryManager` is [`PoolResource`];
//! a factory's `create` returns a [`MemoryManager`] built with [`MemoryManager::new`].
//!
//! This module depends on the driver layer only.
//!
//! ```
//! use std::sync::Arc;
//! use rumba::memory::{DeviceResource, LimitingAdaptor, StatisticsAdaptor};
//! let ctx = rumba::current_context().unwrap();
//! let buf = ctx.memalloc(1024).unwrap();
//! rumba::copy(&buf, &[1u8; 1024]).unwrap();
//! let mut out = vec![0u8; 1024];
//! rumba::copy(&mut out, &buf).unwrap();
//! assert!(out.iter().all(|&b| b == 1));
//!
//! // Composing resources: statistics over a limit over the context's resource.
//! let res = StatisticsAdaptor::new(Arc::new(LimitingAdaptor::new(
//!     ctx.memory_manager().device_resource().clone(), ctx.device_id(), Some(4096))));
//! let block = res.allocate_sync(1000).unwrap();
//! assert!(res.allocate_sync(4000).unwrap_err().is_out_of_memory());
//! res.deallocate_sync(block).unwrap();
//! assert_eq!(res.statistics().unwrap().ooms, 1);
//! ```

pub mod adaptors;
mod base;
mod buffer;
mod chain;
mod default;
mod facade;
pub(crate) mod gate;
pub mod history;
pub(crate) mod holds;
mod pending;
pub mod pool;
mod registry;
mod report;
pub mod resource;
pub mod routing;

pub use adaptors::{
    FailedAllocation, FailureCallbackAdaptor, LimitingAdaptor, OnFailure, StatisticsAdaptor,
    StatisticsFactory,
};
pub use base::{DriverHostResource, DriverResource};
pub use buffer::{DeviceBuffer, PinnedBuffer};
pub use default::DeferredAdaptor;
pub use facade::{DefaultManagerFactory, DeferGuard, MemoryManager};
pub use pending::PendingStats;
pub(crate) use pending::{Pending, PendingQueue};
pub use pool::{PinnedPool, PoolManagerFactory, PoolOptions, PoolResource, PooledPinned};
pub(crate) use registry::factory_for;
pub use registry::{register_memory_manager, set_memory_manager};
pub use report::{BlockInfo, BlockState, MemorySnapshot, MemoryStats, SegmentInfo};
pub use resource::{
    CacheControl, Deferral, DeviceBlock, DeviceResource, HostBlock, HostResource, Origin,
    ResetToken, ResourceProperties, describe_chain,
};
pub use routing::{SharedResource, current_resource, with_resource, with_resource_on_oom};

use std::sync::Arc;

use crate::config::Config;
use crate::driver::{DevicePtr, Driver};
use crate::error::{Error, Result};

/// The version of the memory-manager plugin interface this rumba implements (checked when a
/// factory is installed or registered).
///
/// Version 2 is the resource interface ([`DeviceResource`], [`HostResource`], factories that
/// build a [`MemoryManager`]); version 1 was the 22-method `MemoryManager` trait.
///
/// ```
/// assert_eq!(rumba::memory::INTERFACE_VERSION, 2);
/// ```
pub const INTERFACE_VERSION: u32 = 2;

/// What a factory gets to build a manager for one context.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let mc = ctx.manager_context();
/// assert_eq!(mc.device, ctx.device_id());
/// ```
#[derive(Clone)]
pub struct ManagerContext {
    /// Device ordinal of the context.
    pub device: usize,
    /// The driver the context talks to.
    pub driver: Arc<dyn Driver>,
    /// The runtime's configuration (pending-deallocation limits, …).
    pub config: Config,
}

impl ManagerContext {
    /// The device resource built-in managers build on: a [`LimitingAdaptor`] (limit from
    /// `RUMBA_MEMORY_LIMIT`, [`Config::memory_limit`](crate::Config::memory_limit); none by
    /// default) over a [`DriverResource`]. A plugin that builds on it honours the limit too.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let mc = rumba::current_context().unwrap().manager_context();
    /// let up = mc.device_upstream();
    /// assert_eq!(up.limiter().unwrap().limit(), mc.config.memory_limit);
    /// ```
    pub fn device_upstream(&self) -> Arc<dyn DeviceResource> {
        let driver = Arc::new(DriverResource::new(self.device, Arc::clone(&self.driver)));
        Arc::new(LimitingAdaptor::configured(self, driver))
    }

    /// The host resource built-in managers build on: a [`DriverHostResource`].
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let mc = rumba::current_context().unwrap().manager_context();
    /// let host = mc.host_upstream();
    /// host.deallocate(host.allocate(8, Default::default()).unwrap()).unwrap();
    /// ```
    pub fn host_upstream(&self) -> Arc<dyn HostResource> {
        Arc::new(DriverHostResource::new(
            self.device,
            Arc::clone(&self.driver),
        ))
    }
}

impl std::fmt::Debug for ManagerContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ManagerContext")
            .field("device", &self.device)
            .field("backend", &self.driver.backend())
            .finish()
    }
}

/// An exported handle for sharing a device allocation with another process.
///
/// ```
/// let h = rumba::memory::IpcHandle { device: 0, bytes: 16, offset: 0, handle: vec![1, 2] };
/// assert_eq!(h.bytes, 16);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcHandle {
    /// Device the allocation lives on.
    pub device: usize,
    /// Size of the shared range in bytes.
    pub bytes: usize,
    /// Offset of the shared range from the start of the allocation.
    pub offset: usize,
    /// Backend-specific handle bytes.
    pub handle: Vec<u8>,
}

impl IpcHandle {
    /// Exports `[ptr, ptr + bytes)` of the allocation starting at `base` (found by the manager).
    pub(crate) fn export(
        driver: &dyn Driver,
        device: usize,
        base: DevicePtr,
        ptr: DevicePtr,
        bytes: usize,
    ) -> Result<IpcHandle> {
        let handle = driver.ipc()?.get_mem_handle(device, base)?;
        if history::is_recording() {
            let note = history::Note::new(
                history::EventKind::IpcExport,
                device,
                crate::driver::StreamHandle::LEGACY,
                bytes,
                ptr,
            );
            history::note(note, None);
        }
        Ok(IpcHandle {
            device,
            bytes,
            offset: (ptr - base) as usize,
            handle,
        })
    }
}

/// Creates a [`MemoryManager`] (a device and a host resource) for each new context.
///
/// ```
/// use rumba::memory::{MemoryManagerFactory, DefaultManagerFactory};
/// assert_eq!(DefaultManagerFactory.name(), "default");
/// ```
pub trait MemoryManagerFactory: Send + Sync {
    /// Name for selection with `RUMBA_MEMORY_MANAGER`.
    fn name(&self) -> &str;
    /// The interface version the managers implement; checked at installation.
    fn interface_version(&self) -> u32 {
        INTERFACE_VERSION
    }
    /// Builds the manager of one context: its device and host resources, ready to allocate
    /// (this is Numba's `initialize`: it runs once per context, before the first allocation).
    ///
    /// # Errors
    /// The manager's set-up errors ([`Error::InvalidConfig`] for impossible options,
    /// [`Error::Driver`] when the device cannot be queried); the context is not created then.
    fn create(&self, ctx: &ManagerContext) -> Result<MemoryManager>;
}

/// Checks a factory's interface version.
pub(crate) fn check_version(factory: &dyn MemoryManagerFactory) -> Result<()> {
    check_interface(factory.name(), factory.interface_version())
}

fn check_interface(name: &str, found: u32) -> Result<()> {
    if found == INTERFACE_VERSION {
        Ok(())
    } else {
        Err(Error::InterfaceVersion {
            name: name.to_string(),
            expected: INTERFACE_VERSION,
            found,
        })
    }
}
