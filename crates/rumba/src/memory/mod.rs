//! Layer 2: memory managers and the reference-counted buffers they hand out.
//!
//! A [`MemoryManager`] is rumba's equivalent of Numba's External Memory Management (EMM) plugin
//! interface: it allocates device memory, page-locked host memory and pins existing host memory
//! for one context, and decides when released memory is really returned to the device. Managers
//! are created per context by a [`MemoryManagerFactory`]; installing a factory
//! ([`set_memory_manager`]) affects contexts created afterwards, and factories can be registered by
//! name ([`register_memory_manager`]) for selection with `RUMBA_MEMORY_MANAGER`. A factory whose
//! [`interface_version`](MemoryManagerFactory::interface_version) differs from
//! [`INTERFACE_VERSION`] is refused with [`Error::InterfaceVersion`].
//!
//! The [`DefaultMemoryManager`] implements SPEC §6: releases go through a deferred queue
//! ([`PendingStats`] makes it observable), flushed by count and byte limits, on out-of-memory
//! (flush, retry once, then [`Error::OutOfMemory`] with figures), or explicitly; `defer_cleanup`
//! guards suspend flushing.
//!
//! [`DeviceBuffer`] is the owning handle of a device allocation: cloning shares it, and the last
//! drop hands the pointer back to its manager. Queued device work holds a clone (see
//! [`Driver::stream_keepalive`]), so memory is released
//! only when the last handle is gone **and** no queued work uses it.
//!
//! Stream-ordered allocation: [`MemoryManager::memalloc_on`] / [`MemoryManager::memfree_on`] take
//! the stream the memory is used on. They were added to interface version 1 *with default
//! implementations* that forward to the stream-less methods (which mean the legacy default
//! stream), so managers written before them keep working unchanged and [`INTERFACE_VERSION`]
//! stays 1. The same holds for [`memory_stats`](MemoryManager::memory_stats),
//! [`memory_snapshot`](MemoryManager::memory_snapshot), [`empty_cache`](MemoryManager::empty_cache)
//! and [`set_memory_limit`](MemoryManager::set_memory_limit).
//!
//! Managers: [`DefaultMemoryManager`] (`RUMBA_MEMORY_MANAGER=default`) and the caching,
//! stream-ordered [`PoolMemoryManager`] (`pool`). Adaptors in the style of RMM's resources wrap any
//! manager to add one concern each: [`StatisticsAdaptor`], [`LimitingAdaptor`].
//!
//! This module depends on the driver layer only.
//!
//! ```
//! let ctx = rumba::current_context().unwrap();
//! let buf = ctx.memalloc(1024).unwrap();
//! buf.copy_from_host(&[1u8; 1024]).unwrap();
//! let mut out = vec![0u8; 1024];
//! buf.copy_to_host(&mut out).unwrap();
//! assert!(out.iter().all(|&b| b == 1));
//! ```

pub mod adaptors;
mod buffer;
mod default;
pub(crate) mod holds;
mod pending;
pub mod pool;
mod registry;
mod report;

pub use adaptors::{LimitingAdaptor, LimitingFactory, StatisticsAdaptor, StatisticsFactory};
pub use buffer::{DeviceBuffer, PinnedBuffer};
pub use default::{DefaultManagerFactory, DefaultMemoryManager};
pub use pending::PendingStats;
pub(crate) use pending::{Pending, PendingQueue};
pub use pool::{PinnedPool, PoolManagerFactory, PoolMemoryManager, PoolOptions, PooledPinned};
pub(crate) use registry::factory_for;
pub use registry::{register_memory_manager, set_memory_manager};
pub use report::{BlockInfo, BlockState, MemorySnapshot, MemoryStats, SegmentInfo};

use std::sync::Arc;

use crate::config::Config;
use crate::driver::{DevicePtr, Driver, HostAllocFlags, StreamHandle};
use crate::error::{Error, Result};

/// The version of the [`MemoryManager`] interface this rumba implements.
///
/// ```
/// assert_eq!(rumba::memory::INTERFACE_VERSION, 1);
/// ```
pub const INTERFACE_VERSION: u32 = 1;

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
        Ok(IpcHandle {
            device,
            bytes,
            offset: (ptr - base) as usize,
            handle: driver.ipc_get_mem_handle(device, base)?,
        })
    }
}

/// The memory-manager plugin interface (Numba's EMM `BaseCUDAMemoryManager`).
///
/// One manager serves one context. All methods may be called from any thread.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{MemoryManager, DefaultMemoryManager};
/// let ctx = rumba::current_context().unwrap();
/// let mm: Arc<dyn MemoryManager> = Arc::new(DefaultMemoryManager::new(&ctx.manager_context()).unwrap());
/// mm.initialize().unwrap();
/// let p = mm.memalloc(64).unwrap();
/// mm.memfree(p, 64);
/// assert_eq!(mm.pending().count, 1); // released into the deferred queue
/// mm.flush().unwrap();
/// assert_eq!(mm.pending().count, 0);
/// ```
///
/// # Safety
/// rumba's safe types (pinned and mapped arrays, [`PinnedBuffer`]) read and write the host memory
/// a manager hands out, so an implementor promises that on success
/// [`memhostalloc`](Self::memhostalloc) returns a non-null pointer to `bytes` of zeroed host
/// memory that nothing else uses and that stays valid (and is
/// reachable by the device only in the operations rumba queues) until
/// [`memhostfree`](Self::memhostfree) takes it back. Forwarding to another manager or to a
/// [`Driver`]'s `host_alloc` keeps the promise. A manager that only forwards must still say so
/// with `unsafe impl`; a plain `impl` does not compile:
///
/// ```compile_fail,E0200
/// use rumba::driver::{DevicePtr, HostAllocFlags};
/// use rumba::memory::{DefaultMemoryManager, MemoryManager};
/// struct Forward(DefaultMemoryManager);
/// impl MemoryManager for Forward {
///     fn name(&self) -> &str { "forward" }
///     fn initialize(&self) -> rumba::Result<()> { self.0.initialize() }
///     fn memalloc(&self, bytes: usize) -> rumba::Result<DevicePtr> { self.0.memalloc(bytes) }
///     fn memfree(&self, ptr: DevicePtr, bytes: usize) { self.0.memfree(ptr, bytes) }
///     fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> rumba::Result<*mut u8> {
///         self.0.memhostalloc(bytes, flags)
///     }
///     unsafe fn memhostfree(&self, ptr: *mut u8, bytes: usize) {
///         unsafe { self.0.memhostfree(ptr, bytes) }
///     }
///     unsafe fn mempin(&self, p: *mut u8, n: usize, f: HostAllocFlags) -> rumba::Result<()> {
///         unsafe { self.0.mempin(p, n, f) }
///     }
///     unsafe fn memunpin(&self, ptr: *mut u8) -> rumba::Result<()> {
///         unsafe { self.0.memunpin(ptr) }
///     }
///     fn get_memory_info(&self) -> rumba::Result<(usize, usize)> { self.0.get_memory_info() }
///     fn reset(&self) -> rumba::Result<()> { self.0.reset() }
///     fn defer_cleanup_enter(&self) { self.0.defer_cleanup_enter() }
///     fn defer_cleanup_exit(&self) { self.0.defer_cleanup_exit() }
/// }
/// ```
pub unsafe trait MemoryManager: Send + Sync {
    /// Name used in messages and for selection.
    fn name(&self) -> &str;
    /// The interface version this manager implements.
    fn interface_version(&self) -> u32 {
        INTERFACE_VERSION
    }
    /// Prepares the manager; called once when its context is created, before any allocation.
    /// Must be idempotent.
    ///
    /// # Errors
    /// What the manager reports; rumba refuses to create the context with it.
    fn initialize(&self) -> Result<()>;
    /// Allocates `bytes` (> 0) of device memory.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] (or [`Error::PoolOutOfMemory`]) with the figures when the memory cannot
    /// be had after flushing pending releases; [`Error::Driver`] for other driver failures.
    fn memalloc(&self, bytes: usize) -> Result<DevicePtr>;
    /// Takes back memory from [`memalloc`](Self::memalloc) whose last handle was dropped and whose
    /// queued work has completed. The manager decides when to really free it.
    fn memfree(&self, ptr: DevicePtr, bytes: usize);
    /// Allocates `bytes` of page-locked host memory with `flags`.
    ///
    /// # Errors
    /// As [`Driver::host_alloc`](crate::driver::Driver::host_alloc).
    fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8>;
    /// Takes back host memory from [`memhostalloc`](Self::memhostalloc).
    ///
    /// # Safety
    /// No reference to the memory and no queued device work using it may remain.
    unsafe fn memhostfree(&self, ptr: *mut u8, bytes: usize);
    /// Page-locks (and with `mapped`, maps) existing host memory.
    ///
    /// # Errors
    /// As [`Driver::host_register`](crate::driver::Driver::host_register).
    ///
    /// # Safety
    /// `ptr` must be valid for `bytes` bytes until [`memunpin`](Self::memunpin).
    unsafe fn mempin(&self, ptr: *mut u8, bytes: usize, flags: HostAllocFlags) -> Result<()>;
    /// Undoes [`mempin`](Self::mempin) immediately (never deferred, so re-pinning always works).
    ///
    /// # Errors
    /// As [`Driver::host_unregister`](crate::driver::Driver::host_unregister).
    ///
    /// # Safety
    /// No queued device work may still use the range.
    unsafe fn memunpin(&self, ptr: *mut u8) -> Result<()>;
    /// Exports an IPC handle for `[ptr, ptr + bytes)`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] from the default implementation; a manager that exports reports the
    /// driver's errors ([`Error::InvalidAddress`] when `ptr` is not in one of its allocations).
    fn get_ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        let _ = (ptr, bytes);
        Err(Error::Unsupported(format!(
            "memory manager '{}' cannot export IPC handles",
            self.name()
        )))
    }
    /// `(free, total)` device memory as this manager sees it; may be unsupported.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the manager cannot tell (the context then asks the driver).
    fn get_memory_info(&self) -> Result<(usize, usize)>;
    /// Frees all device memory of the context (called by [`Context::reset`](crate::Context::reset)).
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each allocation the driver could not free.
    fn reset(&self) -> Result<()>;
    /// Suspends releasing until the matching [`defer_cleanup_exit`](Self::defer_cleanup_exit).
    /// Calls nest and may come from any thread.
    fn defer_cleanup_enter(&self);
    /// Ends one [`defer_cleanup_enter`](Self::defer_cleanup_enter). Does not flush by itself.
    fn defer_cleanup_exit(&self);
    /// Carries out pending releases now (a no-op while cleanup is deferred).
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each release that failed; they are not retried.
    fn flush(&self) -> Result<()> {
        Ok(())
    }
    /// Releases waiting in the manager's queue.
    fn pending(&self) -> PendingStats {
        PendingStats::default()
    }

    /// Allocates `bytes` (> 0) of device memory for work on `stream` (stream-ordered allocation).
    ///
    /// Added to interface version 1 with this default, which ignores the stream and calls
    /// [`memalloc`](Self::memalloc); a stream-less `memalloc` means the legacy default stream.
    ///
    /// # Errors
    /// As [`memalloc`](Self::memalloc).
    ///
    /// ```
    /// use rumba::memory::MemoryManager;
    /// let ctx = rumba::current_context().unwrap();
    /// let s = rumba::stream().unwrap();
    /// let p = ctx.memory_manager().memalloc_on(64, s.handle()).unwrap();
    /// ctx.memory_manager().memfree_on(p, 64, s.handle());
    /// s.synchronize().unwrap();
    /// ctx.flush_deallocations().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0); // freed (or back in the pool's cache)
    /// ```
    fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DevicePtr> {
        let _ = stream;
        self.memalloc(bytes)
    }

    /// Takes back memory whose last use was queued on `stream` — work on `stream` may still be
    /// using it. A stream-ordered manager lets `stream` reuse it at once and other streams only
    /// after that work has completed. The default forwards to [`memfree`](Self::memfree) (whose
    /// callers guarantee that no queued work uses the memory any more).
    ///
    /// ```
    /// use rumba::memory::MemoryManager;
    /// let mm = rumba::current_context().unwrap().memory_manager().clone();
    /// let p = mm.memalloc(8).unwrap();
    /// mm.memfree_on(p, 8, rumba::driver::StreamHandle::LEGACY);
    /// mm.flush().unwrap();
    /// assert_eq!(mm.pending().count, 0);
    /// ```
    fn memfree_on(&self, ptr: DevicePtr, bytes: usize, stream: StreamHandle) {
        let _ = stream;
        self.memfree(ptr, bytes)
    }

    /// Counters of the manager, when it keeps them ([`Error::Unsupported`] by default).
    ///
    /// # Errors
    /// [`Error::Unsupported`] from a manager that keeps no counters (the default implementation).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let stats = ctx.memory_manager().memory_stats();
    /// if ctx.memory_manager().name() == "default" {
    ///     assert!(matches!(stats, Err(rumba::Error::Unsupported(_)))); // it keeps none
    /// }
    /// ```
    fn memory_stats(&self) -> Result<MemoryStats> {
        Err(Error::Unsupported(format!(
            "memory manager '{}' keeps no statistics (wrap it in a StatisticsAdaptor)",
            self.name()
        )))
    }

    /// Segments and blocks of a caching manager ([`Error::Unsupported`] by default).
    ///
    /// # Errors
    /// [`Error::Unsupported`] from a manager that caches nothing (the default implementation).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let snap = ctx.memory_manager().memory_snapshot();
    /// if ctx.memory_manager().name() == "default" {
    ///     assert!(matches!(snap, Err(rumba::Error::Unsupported(_)))); // it caches nothing
    /// }
    /// ```
    fn memory_snapshot(&self) -> Result<MemorySnapshot> {
        Err(Error::Unsupported(format!(
            "memory manager '{}' has no cache to describe",
            self.name()
        )))
    }

    /// Returns cached, unused device memory to the device. The default carries out pending
    /// releases ([`flush`](Self::flush)).
    ///
    /// # Errors
    /// As [`flush`](Self::flush) by default; a caching manager also reports [`Error::Driver`] from
    /// freeing a segment.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// drop(ctx.memalloc(64).unwrap());
    /// ctx.memory_manager().empty_cache().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    fn empty_cache(&self) -> Result<()> {
        self.flush()
    }

    /// Limits the bytes the manager may hold from the device (`None`: no limit).
    /// [`Error::Unsupported`] by default.
    ///
    /// # Errors
    /// [`Error::Unsupported`] from a manager that cannot be limited (the default implementation).
    ///
    /// ```
    /// let mm = rumba::current_context().unwrap().memory_manager().clone();
    /// if mm.name() == "default" {
    ///     assert!(mm.set_memory_limit(Some(1 << 20)).is_err());
    /// }
    /// ```
    fn set_memory_limit(&self, limit: Option<usize>) -> Result<()> {
        let _ = limit;
        Err(Error::Unsupported(format!(
            "memory manager '{}' cannot be limited (wrap it in a LimitingAdaptor)",
            self.name()
        )))
    }
}

/// Creates a [`MemoryManager`] for each new context.
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
    /// Builds the manager of one context.
    ///
    /// # Errors
    /// The manager's set-up errors ([`Error::InvalidArgument`] for impossible options,
    /// [`Error::Driver`] when the device cannot be queried); the context is not created then.
    fn create(&self, ctx: &ManagerContext) -> Result<Arc<dyn MemoryManager>>;
}

/// Checks a factory's interface version.
pub(crate) fn check_version(factory: &dyn MemoryManagerFactory) -> Result<()> {
    check_interface(factory.name(), factory.interface_version())
}

/// Checks a created manager's interface version.
pub(crate) fn check_version_of(manager: &dyn MemoryManager) -> Result<()> {
    check_interface(manager.name(), manager.interface_version())
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
