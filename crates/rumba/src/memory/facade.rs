//! [`MemoryManager`]: one context's device and host resources under a name, speaking Numba's EMM
//! names (`memalloc`, `memhostalloc`, `mempin`, `get_ipc_handle`, `get_memory_info`,
//! `initialize`, `reset`, `defer_cleanup`, `interface_version`) as a thin facade over the
//! resource traits; and the factory of the `default` manager.
//!
//! This module touches the resources it holds and the driver (pinning).

use std::sync::Arc;

use super::chain::Chain;
use super::gate::Lease;
use super::history::{self, EventKind, Note};
use super::resource::{driver_id, require};
use super::routing;
use super::{
    DeferredAdaptor, DeviceBlock, DeviceBuffer, DeviceResource, HostResource, INTERFACE_VERSION,
    IpcHandle, ManagerContext, MemoryManagerFactory, MemorySnapshot, MemoryStats, PendingStats,
    PinnedBuffer, ResetToken,
};
use crate::driver::{Driver, HostAllocFlags, StreamHandle};
use crate::error::{Access, Error, ResourceError, Result};

/// Runs one resource's allocation (the context waits there for memory queued work holds).
type Attempt<'a> = dyn Fn(&dyn Fn() -> Result<DeviceBuffer>) -> Result<DeviceBuffer> + 'a;

/// One context's memory: a [`DeviceResource`] and a [`HostResource`], with Numba's EMM names.
/// Cloning is cheap and shares the resources.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let mm = ctx.memory_manager();
/// assert_eq!(mm.interface_version(), rumba::memory::INTERFACE_VERSION);
/// mm.initialize().unwrap(); // idempotent: a manager is ready when built
/// let buf = mm.memalloc(64).unwrap();
/// assert_eq!(buf.len(), 64);
/// let pinned = mm.memhostalloc(16, Default::default()).unwrap();
/// assert_eq!(&pinned[..], &[0; 16]);
/// ```
#[derive(Clone)]
pub struct MemoryManager {
    name: String,
    device: usize,
    driver: Arc<dyn Driver>,
    device_resource: Arc<dyn DeviceResource>,
    host_resource: Arc<dyn HostResource>,
}

impl std::fmt::Debug for MemoryManager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryManager")
            .field("name", &self.name)
            .field("device", &self.device)
            .finish()
    }
}

/// While alive, the manager's deferred releases are held back (see
/// [`MemoryManager::defer_cleanup`]).
#[must_use = "cleanup is deferred only while the guard lives"]
pub struct DeferGuard {
    resource: Arc<dyn DeviceResource>,
}

impl Drop for DeferGuard {
    fn drop(&mut self) {
        for d in Chain::of(&*self.resource).deferrals() {
            d.undefer();
        }
    }
}

impl MemoryManager {
    /// A manager named `name` for the context `ctx` describes, made of `device` and `host`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::{MemoryManager, StatisticsAdaptor};
    /// let mc = rumba::current_context().unwrap().manager_context();
    /// let mm = MemoryManager::new("counted", &mc,
    ///     Arc::new(StatisticsAdaptor::new(mc.device_upstream())), mc.host_upstream());
    /// drop(mm.memalloc(10).unwrap());
    /// assert_eq!(mm.memory_stats().unwrap().total_bytes, 10);
    /// ```
    pub fn new(
        name: impl Into<String>,
        ctx: &ManagerContext,
        device: Arc<dyn DeviceResource>,
        host: Arc<dyn HostResource>,
    ) -> Self {
        MemoryManager {
            name: name.into(),
            device: ctx.device,
            driver: Arc::clone(&ctx.driver),
            device_resource: device,
            host_resource: host,
        }
    }

    /// True when the manager allocates on `device` through `driver` (the context checks that the
    /// manager its factory built is its own).
    pub(crate) fn serves(&self, device: usize, driver: &Arc<dyn Driver>) -> bool {
        self.device == device && driver_id(&self.driver) == driver_id(driver)
    }

    /// Name used in messages and for selection.
    ///
    /// ```
    /// assert_eq!(rumba::current_context().unwrap().memory_manager().name(), "default");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The device resource.
    ///
    /// ```
    /// use rumba::memory::DeviceResource;
    /// let ctx = rumba::current_context().unwrap();
    /// assert!(ctx.memory_manager().device_resource().limiter().is_some());
    /// ```
    pub fn device_resource(&self) -> &Arc<dyn DeviceResource> {
        &self.device_resource
    }

    /// The host (pinned memory) resource.
    ///
    /// ```
    /// use rumba::memory::HostResource;
    /// let ctx = rumba::current_context().unwrap();
    /// let host = ctx.memory_manager().host_resource();
    /// host.deallocate(host.allocate(1, Default::default()).unwrap()).unwrap();
    /// ```
    pub fn host_resource(&self) -> &Arc<dyn HostResource> {
        &self.host_resource
    }

    /// Numba's `interface_version`: the version of this interface, [`INTERFACE_VERSION`].
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(ctx.memory_manager().interface_version(), 2);
    /// ```
    pub fn interface_version(&self) -> u32 {
        INTERFACE_VERSION
    }

    /// Numba's `initialize`: a no-op, because a manager is ready when its factory built it (the
    /// factory's [`create`](MemoryManagerFactory::create) is the place for set-up). Idempotent.
    ///
    /// # Errors
    /// None; the `Result` keeps Numba's shape.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// ctx.memory_manager().initialize().unwrap();
    /// ```
    pub fn initialize(&self) -> Result<()> {
        Ok(())
    }

    /// Numba's `memalloc`: `bytes` of device memory on the legacy default stream, as an owning
    /// buffer (zero bytes allocate nothing). Inside a [`with_resource`](super::with_resource)
    /// scope the memory comes from the scope's resource.
    ///
    /// # Errors
    /// As [`DeviceResource::allocate`]; [`Error::Resource`] when the resource returned a
    /// block of another device or smaller than asked for; [`Error::Inaccessible`] for a resource
    /// whose memory is not device-accessible (nothing is allocated).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(ctx.memory_manager().memalloc(100).unwrap().len(), 100);
    /// ```
    pub fn memalloc(&self, bytes: usize) -> Result<DeviceBuffer> {
        self.memalloc_on(bytes, StreamHandle::LEGACY)
    }

    /// `bytes` of device memory for work on `stream` (stream-ordered); the buffer's last drop
    /// gives it back on that stream.
    ///
    /// # Errors
    /// As [`memalloc`](Self::memalloc).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let s = rumba::stream().unwrap();
    /// let buf = ctx.memory_manager().memalloc_on(64, s.handle()).unwrap();
    /// assert_eq!(buf.stream(), s.handle());
    /// ```
    pub fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBuffer> {
        if bytes == 0 {
            return Ok(DeviceBuffer::empty(
                self.device,
                Arc::clone(&self.driver),
                stream,
            ));
        }
        self.allocate_with(bytes, stream, |alloc| alloc())
    }

    /// Allocates `bytes` (> 0) for `stream` where the thread's [routing](super::routing) sends
    /// it (the manager's device resource outside every scope): each resource in turn while they
    /// fail for lack of memory. `attempt` runs one resource's allocation (the context waits there
    /// for memory that queued work still holds).
    pub(crate) fn allocate_with(
        &self,
        bytes: usize,
        stream: StreamHandle,
        attempt: impl Fn(&dyn Fn() -> Result<DeviceBuffer>) -> Result<DeviceBuffer>,
    ) -> Result<DeviceBuffer> {
        let Some(plan) = routing::plan(&self.device_resource) else {
            return self.allocate_from(&self.device_resource, bytes, stream, &attempt);
        };
        let mut failure = None;
        for resource in &plan {
            match self.allocate_from(resource, bytes, stream, &attempt) {
                Err(e) if e.is_out_of_memory() => failure = Some(e),
                other => return other,
            }
        }
        Err(failure.unwrap_or(Error::OutOfMemory {
            device: self.device,
            requested: bytes,
            free: 0,
            total: 0,
            pending: 0,
        }))
    }

    fn allocate_from(
        &self,
        resource: &Arc<dyn DeviceResource>,
        bytes: usize,
        stream: StreamHandle,
        attempt: &Attempt<'_>,
    ) -> Result<DeviceBuffer> {
        let top = &**resource;
        require(top, Access::Device, "a source of device memory")?;
        let buffer = attempt(&|| {
            // No reset between the allocation and the buffer's check of its block.
            let _lease = Lease::enter()?;
            let block = history::serving(resource, || top.allocate(bytes, stream))?;
            self.buffer(block, bytes, stream, resource)
        });
        self.note_oom(buffer, resource, bytes, stream)
    }

    /// Records an out-of-memory failure of an allocation of `bytes` from `top` (when a history
    /// records), and passes the result on.
    fn note_oom(
        &self,
        result: Result<DeviceBuffer>,
        top: &Arc<dyn DeviceResource>,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<DeviceBuffer> {
        if let Err(e) = &result {
            if e.is_out_of_memory() && history::is_recording() {
                let note = Note {
                    detail: Some(e.to_string()),
                    ..Note::new(EventKind::Oom, self.device, stream, bytes, 0)
                };
                history::serving(top, || history::note(note, None));
            }
        }
        result
    }

    /// Makes a buffer of `block`, which `resource` made, after checking it (the checks that let
    /// resources be safe); a refused block goes back to `resource`.
    fn buffer(
        &self,
        block: DeviceBlock,
        bytes: usize,
        stream: StreamHandle,
        resource: &Arc<dyn DeviceResource>,
    ) -> Result<DeviceBuffer> {
        if block.origin().is_retired() {
            // A reset freed its memory already (a cache held it across the reset): refuse it;
            // there is nothing left to give back.
            let (ptr, len) = (block.ptr(), block.len());
            return Err(ResourceError::ResetBlock {
                manager: self.name.clone(),
                ptr,
                len,
            }
            .into());
        }
        if block.origin().driver() != driver_id(&self.driver) {
            // Memory of another driver instance: its addresses mean nothing to this context's
            // driver (and may alias its allocations). Give it back to whoever handed it out.
            let (ptr, len) = (block.ptr(), block.len());
            if let Err(e) = resource.deallocate(block, stream) {
                tracing::error!("giving back a refused block failed: {e}");
            }
            return Err(ResourceError::ForeignDriver {
                manager: self.name.clone(),
                memory: "device",
                ptr,
                len,
            }
            .into());
        }
        if block.device() != self.device || block.len() < bytes {
            let (device, len) = (block.device(), block.len());
            let give_back = resource.deallocate(block, stream).err();
            if let Some(e) = &give_back {
                tracing::error!("giving back a refused block failed: {e}");
            }
            return Err(ResourceError::WrongBlock {
                manager: format!("memory manager '{}'", self.name),
                len,
                device,
                requested: bytes,
                expected_device: self.device,
                give_back: give_back.map(|e| e.to_string()),
            }
            .into());
        }
        Ok(DeviceBuffer::from_block(
            block,
            bytes,
            Arc::clone(&self.driver),
            Arc::clone(resource),
            stream,
        ))
    }

    /// Numba's `memhostalloc`: `bytes` of zeroed page-locked host memory with `flags`.
    ///
    /// # Errors
    /// As [`HostResource::allocate`]; [`Error::Resource`](crate::Error::Resource) when the resource returned a
    /// block smaller than asked for, or not mapped / portable when `flags` ask for it.
    ///
    /// ```
    /// use rumba::driver::HostAllocFlags;
    /// let ctx = rumba::current_context().unwrap();
    /// let p = ctx.memory_manager().memhostalloc(8, HostAllocFlags::default()).unwrap();
    /// assert_eq!(p.len(), 8);
    /// ```
    pub fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> Result<PinnedBuffer> {
        let block = self.host_resource.allocate(bytes, flags)?;
        if block.origin().driver() != driver_id(&self.driver) || block.origin().is_retired() {
            let (addr, len) = (block.as_ptr(), block.len());
            if let Err(e) = self.host_resource.deallocate(block) {
                tracing::error!("giving back a refused pinned block failed: {e}");
            }
            return Err(ResourceError::ForeignDriver {
                manager: self.name.clone(),
                memory: "pinned",
                ptr: addr as u64,
                len,
            }
            .into());
        }
        PinnedBuffer::from_block(
            block,
            bytes,
            flags,
            self.device,
            Arc::clone(&self.host_resource),
        )
    }

    /// Numba's `mempin`: page-locks (and with `mapped`, maps) existing host memory. A driver
    /// registration, not an allocation, so no resource is involved.
    ///
    /// # Errors
    /// As [`Driver::host_register`](crate::driver::Driver::host_register).
    ///
    /// # Safety
    /// `ptr` must be valid for `bytes` bytes until [`memunpin`](Self::memunpin).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let mut v = vec![0u8; 4096];
    /// // SAFETY: `v` outlives the registration, which is undone below.
    /// unsafe {
    ///     ctx.memory_manager().mempin(v.as_mut_ptr(), v.len(), Default::default()).unwrap();
    ///     ctx.memory_manager().memunpin(v.as_mut_ptr()).unwrap();
    /// }
    /// ```
    pub unsafe fn mempin(&self, ptr: *mut u8, bytes: usize, flags: HostAllocFlags) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_register(self.device, ptr, bytes, flags) }
    }

    /// Undoes [`mempin`](Self::mempin) immediately (never deferred, so re-pinning always works).
    ///
    /// # Errors
    /// As [`Driver::host_unregister`](crate::driver::Driver::host_unregister).
    ///
    /// # Safety
    /// No queued device work may still use the range.
    pub unsafe fn memunpin(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_unregister(ptr) }
    }

    /// Numba's `get_ipc_handle`: exports `buffer` (a view keeps its offset) through the resource
    /// that owns it.
    ///
    /// # Errors
    /// [`Error::Resource`](crate::Error::Resource) ([`ResourceError::ForeignBlock`]) for a zero-size or foreign buffer; as
    /// [`DeviceResource::ipc_handle`] otherwise ([`Error::Unsupported`](crate::Error::Unsupported) on OpenCL).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let buf = ctx.memalloc(64).unwrap();
    /// match ctx.memory_manager().get_ipc_handle(&buf.view(16..).unwrap()) {
    ///     Ok(h) => assert_eq!((h.offset, h.bytes), (16, 48)),
    ///     Err(e) => assert!(matches!(e, rumba::Error::Unsupported { .. })), // OpenCL has no IPC
    /// }
    /// ```
    pub fn get_ipc_handle(&self, buffer: &DeviceBuffer) -> Result<IpcHandle> {
        match buffer.resource() {
            Some(r) if !buffer.is_empty() => {
                let lease = Lease::enter()?;
                r.ipc_handle(buffer.addr(&lease, 0, buffer.len())?, buffer.len())
            }
            _ => Err(ResourceError::ForeignBlock {
                memory: "device",
                ptr: buffer.device_ptr(),
                len: buffer.len(),
                owner: "a memory resource (the buffer is zero-size or imported)".into(),
            }
            .into()),
        }
    }

    /// Numba's `get_memory_info`: `(free, total)` device memory as the resources see it.
    ///
    /// # Errors
    /// [`Error::Resource`](crate::Error::Resource) ([`ResourceError::Unsupported`]) when no resource in the chain can
    /// tell; the driver's errors.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let (free, total) = ctx.memory_manager().get_memory_info().unwrap();
    /// assert!(free <= total);
    /// ```
    pub fn get_memory_info(&self) -> Result<(usize, usize)> {
        self.device_resource.memory_info()
    }

    /// Numba's `reset`: frees every device allocation (pinned host memory lives until its
    /// buffer drops, since safe code may hold slices of it).
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`](crate::Error::DeallocationFailed) naming each allocation that could not be freed.
    ///
    /// Crate-internal: only [`Context::reset`](crate::Context::reset) calls it, after
    /// synchronizing the device.
    pub(crate) fn reset(&self) -> Result<()> {
        self.device_resource.reset(&ResetToken::new())
    }

    /// Numba's `defer_cleanup`: held-back releases stay held while the guard lives (nestable,
    /// any thread); a no-op guard when no resource defers.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = ctx.memory_manager();
    /// let guard = mm.defer_cleanup();
    /// drop(mm.memalloc(8).unwrap());
    /// mm.flush().unwrap();
    /// assert!(mm.pending().count >= 1);
    /// drop(guard);
    /// mm.flush().unwrap();
    /// assert_eq!(mm.pending().count, 0);
    /// ```
    pub fn defer_cleanup(&self) -> DeferGuard {
        self.defer_enter();
        DeferGuard {
            resource: Arc::clone(&self.device_resource),
        }
    }

    /// Carries out held-back releases now (a no-op under a guard or without a deferral): of
    /// every deferring resource in the chain, outermost first.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`](crate::Error::DeallocationFailed) naming each release that failed; they are not retried.
    pub fn flush(&self) -> Result<()> {
        Chain::of(&*self.device_resource).flush()
    }

    /// Number and bytes of held-back releases.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// ctx.memory_manager().flush().unwrap();
    /// assert_eq!(ctx.memory_manager().pending().count, 0);
    /// ```
    pub fn pending(&self) -> PendingStats {
        Chain::of(&*self.device_resource).pending()
    }

    /// Counters of a [`statistics`](DeviceResource::statistics)-keeping resource in the chain.
    ///
    /// # Errors
    /// [`Error::Resource`](crate::Error::Resource) ([`ResourceError::Unsupported`]) when none keeps them (the `default`
    /// manager).
    ///
    /// ```
    /// use rumba::error::{Error, ResourceError};
    /// let ctx = rumba::current_context().unwrap();
    /// if ctx.memory_manager().name() == "default" {
    ///     let e = ctx.memory_manager().memory_stats().unwrap_err();
    ///     assert!(matches!(e, Error::Resource(ResourceError::Unsupported { .. })));
    /// }
    /// ```
    pub fn memory_stats(&self) -> Result<MemoryStats> {
        self.device_resource.statistics().ok_or_else(|| {
            ResourceError::Unsupported {
                resource: format!("memory manager '{}'", self.name),
                feature: "statistics (wrap its resource in a StatisticsAdaptor)",
            }
            .into()
        })
    }

    /// Segments and blocks of a caching resource in the chain.
    ///
    /// # Errors
    /// [`Error::Resource`](crate::Error::Resource) ([`ResourceError::Unsupported`]) when none caches (the `default`
    /// manager).
    ///
    /// ```
    /// use rumba::error::{Error, ResourceError};
    /// let ctx = rumba::current_context().unwrap();
    /// if ctx.memory_manager().name() == "default" {
    ///     let e = ctx.memory_manager().memory_snapshot().unwrap_err();
    ///     assert!(matches!(e, Error::Resource(ResourceError::Unsupported { .. })));
    /// }
    /// ```
    pub fn memory_snapshot(&self) -> Result<MemorySnapshot> {
        self.device_resource
            .cache()
            .map(|c| c.snapshot())
            .ok_or_else(|| {
                ResourceError::Unsupported {
                    resource: format!("memory manager '{}'", self.name),
                    feature: "a cache snapshot",
                }
                .into()
            })
    }

    /// Carries out held-back releases and returns cached memory (device and pinned host) to the
    /// system: every deferral and every cache of the chain, outermost first (a pool over a pool
    /// or over a deferred adaptor gives everything back).
    ///
    /// # Errors
    /// As [`flush`](Self::flush) and [`CacheControl::empty_cache`](super::CacheControl::empty_cache),
    /// gathered in one [`Error::DeallocationFailed`].
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// drop(ctx.memalloc(64).unwrap());
    /// ctx.memory_manager().empty_cache().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    pub fn empty_cache(&self) -> Result<()> {
        let emptied = Chain::of(&*self.device_resource).empty();
        self.host_resource.empty_cache();
        emptied
    }

    /// For an allocation that ran out of memory: waits until the streams owning cached blocks
    /// have finished with them, so that a retry can use them; the bytes made available.
    pub(crate) fn settle(&self) -> usize {
        Chain::of(&*self.device_resource).settle()
    }

    /// Enters a deferral without a guard (the context pairs it with its own queue): every
    /// deferring resource of the chain.
    pub(crate) fn defer_enter(&self) {
        for d in Chain::of(&*self.device_resource).deferrals() {
            d.defer();
        }
    }

    /// Ends a deferral entered with [`defer_enter`](Self::defer_enter).
    pub(crate) fn defer_exit(&self) {
        for d in Chain::of(&*self.device_resource).deferrals() {
            d.undefer();
        }
    }
}

/// Builds the `default` manager per context: a [`DeferredAdaptor`] over
/// [`ManagerContext::device_upstream`] and [`ManagerContext::host_upstream`].
///
/// ```
/// use rumba::memory::{MemoryManagerFactory, DefaultManagerFactory};
/// assert_eq!(DefaultManagerFactory.name(), "default");
/// assert_eq!(DefaultManagerFactory.interface_version(), rumba::memory::INTERFACE_VERSION);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultManagerFactory;

impl MemoryManagerFactory for DefaultManagerFactory {
    fn name(&self) -> &str {
        "default"
    }

    fn create(&self, ctx: &ManagerContext) -> Result<MemoryManager> {
        let deferred = Arc::new(DeferredAdaptor::new(
            ctx,
            ctx.device_upstream(),
            ctx.host_upstream(),
        )?);
        Ok(MemoryManager::new(
            "default",
            ctx,
            deferred.clone(),
            deferred,
        ))
    }
}
