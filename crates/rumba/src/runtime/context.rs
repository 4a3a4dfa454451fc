//! Contexts: one per device, shared by every host thread that uses the device (like CUDA's
//! primary context), holding the device's memory manager and the deferred-release queue for
//! streams, events and modules.
//!
//! A context is created lazily by the first call that needs it ([`current_context`](crate::current_context)).
//! [`close`](crate::close) detaches the calling thread; when the last attached thread detaches, the
//! context is reset (device synchronized, every device allocation freed) and forgotten, and a later
//! call creates a fresh one. Objects created in the old context keep it alive as an object, but its
//! device memory is gone: every operation refuses their device arrays and buffers with
//! [`Error::StaleHandle`] on every backend, never undefined behaviour (see
//! `crate::memory::gate` for how, and why a reset is safe while other threads use the context).
//!
//! This module touches the driver and the memory layer.

use std::sync::Arc;

use crate::config::Config;
use crate::driver::callback::{self, Release};
use crate::driver::{Driver, HostAllocFlags, StreamHandle};
use crate::error::{Error, GraphError, ResourceError, Result};
use crate::memory::gate::Exclusive;
use crate::memory::holds::{Hold, Holds, Owner};
use crate::memory::resource::driver_id;
use crate::memory::{
    DeviceBuffer, ManagerContext, MemoryManager, MemoryManagerFactory, MemorySnapshot, MemoryStats,
    Pending, PendingQueue, PendingStats, PinnedBuffer, PinnedPool,
};

pub(crate) struct ContextInner {
    device: usize,
    driver: Arc<dyn Driver>,
    config: Config,
    manager: MemoryManager,
    /// Deferred destruction of streams, events and modules (count rule only).
    resources: PendingQueue,
    /// Buffers that queued work keeps alive (see [`crate::memory::holds`]).
    holds: Arc<Holds>,
    /// The device's shared memory per block, asked once.
    shared_per_block: std::sync::OnceLock<usize>,
    /// Pinned blocks that asynchronous copies from pageable memory are staged through
    /// (created on first use).
    staging: std::sync::OnceLock<Arc<PinnedPool>>,
}

/// The context of one device: memory manager, deferred releases, device-wide synchronization.
///
/// Cloning is cheap and shares the context.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let (free, total) = ctx.get_memory_info().unwrap();
/// assert!(free <= total);
/// ```
#[derive(Clone)]
pub struct Context {
    pub(crate) inner: Arc<ContextInner>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "<{} context on device {} with memory manager '{}'>",
            self.inner.driver.backend(),
            self.inner.device,
            self.inner.manager.name()
        )
    }
}

/// Pending releases of a context: memory (from its manager) and other resources.
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let _guard = ctx.defer_cleanup();
/// drop(ctx.memalloc(64).unwrap());
/// let stats = ctx.deallocations();
/// assert!(stats.memory.count >= 1 && stats.memory.bytes >= 64); // held back by the guard
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeallocStats {
    /// Device and pinned-host memory waiting to be freed.
    pub memory: PendingStats,
    /// Streams, events and modules waiting to be destroyed.
    pub resources: PendingStats,
}

/// While alive, no context releases anything (see [`defer_cleanup`](crate::defer_cleanup)).
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let guard = ctx.defer_cleanup();
/// drop(ctx.memalloc(8).unwrap());
/// assert!(ctx.deallocations().memory.count >= 1);
/// drop(guard);
/// ctx.flush_deallocations().unwrap();
/// ```
#[must_use = "cleanup is deferred only while the guard lives"]
pub struct DeferCleanup {
    ctx: Context,
}

impl Drop for DeferCleanup {
    fn drop(&mut self) {
        self.ctx.inner.manager.defer_exit();
        self.ctx.inner.resources.undefer();
    }
}

impl Context {
    pub(crate) fn create(device: usize, driver: Arc<dyn Driver>, config: Config) -> Result<Self> {
        let factory = crate::memory::factory_for(config.memory_manager.name())?;
        let mc = ManagerContext {
            device,
            driver: Arc::clone(&driver),
            config: config.clone(),
        };
        let manager = factory.create(&mc)?;
        if !manager.serves(device, &driver) {
            return Err(ResourceError::FactoryMismatch {
                factory: factory.name().to_owned(),
                device,
            }
            .into());
        }
        manager.initialize()?;
        let resources = PendingQueue::new(config.max_pending_deallocs_count, usize::MAX);
        Ok(Context {
            inner: Arc::new(ContextInner {
                device,
                driver,
                config,
                manager,
                resources,
                holds: Arc::default(),
                shared_per_block: std::sync::OnceLock::new(),
                staging: std::sync::OnceLock::new(),
            }),
        })
    }

    /// Ordinal of the context's device.
    ///
    /// ```
    /// assert_eq!(rumba::current_context().unwrap().device_id(), 0);
    /// ```
    pub fn device_id(&self) -> usize {
        self.inner.device
    }

    /// The driver behind the context.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert!(ctx.driver().device_count() >= 1);
    /// ```
    pub fn driver(&self) -> &Arc<dyn Driver> {
        &self.inner.driver
    }

    /// The context's memory manager.
    ///
    /// ```
    /// assert_eq!(rumba::current_context().unwrap().memory_manager().name(), "default");
    /// ```
    pub fn memory_manager(&self) -> &MemoryManager {
        &self.inner.manager
    }

    /// What a memory-manager factory receives for this context.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(ctx.manager_context().config.max_pending_deallocs_count, ctx.config().max_pending_deallocs_count);
    /// ```
    pub fn manager_context(&self) -> ManagerContext {
        ManagerContext {
            device: self.inner.device,
            driver: Arc::clone(&self.inner.driver),
            config: self.inner.config.clone(),
        }
    }

    /// A second memory manager for this context's device, built by `factory` (for tests and
    /// tools that compare managers beside the context's own).
    ///
    /// # Errors
    /// What `factory`'s [`create`](MemoryManagerFactory::create) returns.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = ctx.create_manager(&rumba::memory::DefaultManagerFactory).unwrap();
    /// assert_eq!(mm.name(), "default");
    /// ```
    pub fn create_manager(&self, factory: &dyn MemoryManagerFactory) -> Result<MemoryManager> {
        factory.create(&self.manager_context())
    }

    /// The device's shared memory per block (static and dynamic together), in bytes: what a
    /// launch is held to.
    ///
    /// # Errors
    /// The driver's device query's errors.
    pub(crate) fn shared_memory_per_block(&self) -> Result<usize> {
        if let Some(&n) = self.inner.shared_per_block.get() {
            return Ok(n);
        }
        let n = self
            .inner
            .driver
            .device_info(self.inner.device)?
            .max_shared_memory_per_block;
        Ok(*self.inner.shared_per_block.get_or_init(|| n))
    }

    /// The configuration the context was created with.
    ///
    /// ```
    /// assert!(rumba::current_context().unwrap().config().sim_devices >= 1);
    /// ```
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Runs `alloc`; when it fails for lack of memory, waits for the streams whose queued work
    /// holds memory the program has released (see [`crate::memory::holds`]) and for holds whose
    /// drop is under way, flushes the deferred deallocations, has caching resources wait for the
    /// streams that own cached blocks ([`CacheControl::settle`](crate::memory::CacheControl::settle))
    /// and tries again. An error that remains counts the memory still held that way among its
    /// pending bytes. (From a stream callback, which must not wait, the error comes at once,
    /// with those figures.)
    fn alloc_or_wait<T>(&self, alloc: impl Fn() -> Result<T>) -> Result<T> {
        // Holds dropped from here on may have given memory back that the attempt did not see.
        let mut dropped = self.inner.holds.dropped();
        let mut err = match alloc() {
            Err(e) if e.is_out_of_memory() => e,
            other => return other,
        };
        // Other threads may hand memory to queued work while this one waits: rounds, each of
        // which waits for what was held when it began, as long as something was (bounded, so
        // that a program that keeps the device full gets its error).
        for _ in 0..ALLOC_WAIT_ROUNDS {
            let orphans = self.inner.holds.orphans();
            let held = orphans.bytes;
            if crate::driver::callback::is_callback_thread() {
                return Err(count_held(err, held));
            }
            // Each stream named is kept alive by the list while it is waited for (a stream the
            // program dropped is destroyed only after the work holding memory has run); then the
            // holds themselves let the memory go.
            for (stream, _alive) in &orphans.streams {
                self.wait_for_point(*stream)?;
            }
            self.inner.holds.wait_gone(&orphans);
            drop(orphans);
            // Holds whose drop was under way when the list was made: their memory was in none
            // of the places looked at here, and is given back once they are done.
            let now = self.inner.holds.settle();
            let let_go = std::mem::replace(&mut dropped, now) != now;
            // Also when nothing was held at the failure: work may have let memory go since (into
            // a deferred queue, which a stream callback cannot flush).
            let queued = self.inner.manager.pending().count;
            if let Err(e) = self.inner.manager.flush() {
                tracing::warn!("flushing before an allocation retry: {e}");
            }
            // Cached blocks that streams still own come free once their work is done.
            let settled = self.inner.manager.settle();
            if held == 0 && queued == 0 && settled == 0 && !let_go {
                break; // nothing changed: the retry would fail the same way
            }
            match alloc() {
                Err(e) if e.is_out_of_memory() => err = e,
                other => return other,
            }
        }
        Err(count_held(err, self.inner.holds.orphans().bytes))
    }

    /// Waits until `stream` has reached the work queued so far, without taking its errors (they
    /// stay for the program's own synchronization).
    fn wait_for_point(&self, stream: StreamHandle) -> Result<()> {
        let (d, drv) = (self.inner.device, &self.inner.driver);
        let event = drv.event_create(d, false)?;
        let waited = match drv.event_record(d, event, stream) {
            Ok(()) => drv.event_synchronize(d, event),
            // A stream being captured takes no fence of rumba's own: the holds of its work
            // queued before the capture still go when that work runs (the caller waits for
            // them), and what was captured belongs to the graph.
            Err(Error::Graph(GraphError::Refused { .. })) => Ok(()),
            Err(e) => Err(e),
        };
        let destroyed = drv.event_destroy(d, event);
        waited.and(destroyed)
    }

    /// Keeps `buffers` alive for work queued on `stream` until the returned hold is dropped
    /// (by the stream, once it has run that work, or by a graph: see [`Owner`]); a stream
    /// owner's keep-alive (the stream's handle object) lives as long: the stream is not destroyed
    /// while it holds memory.
    pub(crate) fn hold(
        &self,
        buffers: Vec<DeviceBuffer>,
        stream: StreamHandle,
        owner: Owner,
    ) -> Hold {
        self.inner.holds.hold(buffers, stream, owner)
    }

    /// Allocates `bytes` of device memory through the memory manager. Zero bytes allocate nothing.
    ///
    /// When the manager is out of memory (after its own flush and retry), this waits for the
    /// streams whose queued work holds memory the program has dropped, and for the streams that
    /// own blocks a caching manager holds, and tries again (a few rounds, while there was
    /// something to wait for); an error that remains counts memory still held by queued work as
    /// pending.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] / [`Error::PoolOutOfMemory`] with the figures, or the manager's
    /// error.
    ///
    /// ```
    /// let buf = rumba::current_context().unwrap().memalloc(256).unwrap();
    /// assert_eq!(buf.len(), 256);
    /// ```
    pub fn memalloc(&self, bytes: usize) -> Result<DeviceBuffer> {
        self.memalloc_on(bytes, StreamHandle::LEGACY)
    }

    /// Allocates `bytes` of device memory for work on `stream` (stream-ordered). The buffer's
    /// last drop frees it on that stream: a stream-ordered manager (the `pool`) lets `stream`
    /// reuse it at once and other streams once the work queued before the free has completed.
    /// [`Stream::memalloc`](crate::Stream::memalloc) is the usual way to call this.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] / [`Error::PoolOutOfMemory`] with the figures when `bytes` do not fit even
    /// after pending releases are flushed (a limiting adaptor's refusal is an
    /// [`Error::OutOfMemory`] too); the memory manager's own errors, and
    /// [`Error::Resource`] when it returns a block rumba refuses (too small, of another
    /// device or driver, or freed by a reset).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let s = rumba::stream().unwrap();
    /// let buf = ctx.memalloc_on(256, s.handle()).unwrap();
    /// assert_eq!(buf.stream(), s.handle());
    /// ```
    pub fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBuffer> {
        if bytes == 0 {
            return self.inner.manager.memalloc_on(0, stream);
        }
        self.inner
            .manager
            .allocate_with(bytes, stream, |alloc| self.alloc_or_wait(alloc))
    }

    /// Counters of the memory manager ([`Error::Resource`] for a
    /// manager that keeps none, such as `default`; wrap it in a
    /// [`StatisticsAdaptor`](crate::memory::StatisticsAdaptor)).
    ///
    /// # Errors
    /// [`Error::Resource`] ([`ResourceError::Unsupported`]) from a manager that keeps no counters
    /// (the `default` manager).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// match ctx.memory_stats() {
    ///     Ok(stats) => println!("{stats}"),
    ///     Err(e) => assert!(matches!(e, rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. }))),
    /// }
    /// ```
    pub fn memory_stats(&self) -> Result<MemoryStats> {
        self.inner.manager.memory_stats()
    }

    /// Segments and blocks of a caching memory manager.
    ///
    /// # Errors
    /// [`Error::Resource`] ([`ResourceError::Unsupported`]) from a manager that caches nothing
    /// (the `default` manager).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// match ctx.memory_snapshot() {
    ///     Ok(snap) => println!("{snap}"), // a caching manager (the `pool`)
    ///     Err(e) => assert!(matches!(e, rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. })), "{e}"),
    /// }
    /// ```
    pub fn memory_snapshot(&self) -> Result<MemorySnapshot> {
        self.inner.manager.memory_snapshot()
    }

    /// Returns cached, unused device memory to the device (for the default manager: carries out
    /// pending releases).
    ///
    /// # Errors
    /// The manager's release errors ([`Error::DeallocationFailed`] naming each failed release; a
    /// caching manager passes on [`Error::Driver`] from freeing a segment).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// drop(ctx.memalloc(1 << 20).unwrap());
    /// ctx.empty_cache().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    pub fn empty_cache(&self) -> Result<()> {
        self.inner.manager.empty_cache()
    }

    /// Allocates `bytes` of page-locked host memory with `flags` through the memory manager.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the host cannot provide `bytes`; [`Error::Unsupported`] for flags the
    /// backend cannot honour (OpenCL: write-combined; mapped memory without fine-grained SVM).
    ///
    /// ```
    /// let p = rumba::current_context().unwrap().memhostalloc(64, Default::default()).unwrap();
    /// assert_eq!(p.len(), 64);
    /// ```
    pub fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> Result<PinnedBuffer> {
        self.inner.manager.memhostalloc(bytes, flags)
    }

    /// `(free, total)` bytes of device memory; `free` moves with allocations.
    ///
    /// # Errors
    /// [`Error::Driver`] when the backend's query fails (a manager that cannot answer is passed over
    /// for the driver, not reported).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let (free, total) = ctx.get_memory_info().unwrap();
    /// assert!(free <= total);
    /// ```
    pub fn get_memory_info(&self) -> Result<(usize, usize)> {
        match self.inner.manager.get_memory_info() {
            Err(Error::Resource(ResourceError::Unsupported { .. })) => {
                self.inner.driver.mem_info(self.inner.device)
            }
            other => other,
        }
    }

    /// Waits for all work on every stream of the device; reports the first unreported error.
    ///
    /// # Errors
    /// The first unreported error of work on any stream of the device ([`Error::KernelFault`], a failed
    /// copy); [`Error::InCallback`] when called from a stream callback.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let s = rumba::stream().unwrap();
    /// s.memset(&s.memalloc(1 << 16).unwrap(), 1).unwrap();
    /// ctx.synchronize().unwrap(); // every stream of the device
    /// assert!(s.query().unwrap());
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.inner.driver.device_synchronize(self.inner.device)
    }

    /// Pending releases (memory and resources).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// ctx.flush_deallocations().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    pub fn deallocations(&self) -> DeallocStats {
        DeallocStats {
            memory: self.inner.manager.pending(),
            resources: self.inner.resources.stats(),
        }
    }

    /// Carries out every pending release now (a no-op under a [`DeferCleanup`] guard). Releases
    /// that fail are logged and returned together as [`Error::DeallocationFailed`];
    /// they are not retried.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] listing every release that failed (memory and resources together).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// drop(ctx.memalloc(64).unwrap());
    /// ctx.flush_deallocations().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    pub fn flush_deallocations(&self) -> Result<()> {
        let a = self.inner.manager.flush();
        let b = self.inner.resources.flush();
        a.and(b)
    }

    /// Suspends all releases of this context while the returned guard lives (nestable, any thread).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let outer = ctx.defer_cleanup();
    /// let inner = ctx.defer_cleanup();
    /// drop(ctx.memalloc(64).unwrap());
    /// drop(inner);
    /// ctx.flush_deallocations().unwrap(); // a no-op: `outer` still defers
    /// assert!(ctx.deallocations().memory.count >= 1);
    /// drop(outer);
    /// ctx.flush_deallocations().unwrap();
    /// assert_eq!(ctx.deallocations().memory.count, 0);
    /// ```
    pub fn defer_cleanup(&self) -> DeferCleanup {
        self.inner.manager.defer_enter();
        self.inner.resources.defer();
        DeferCleanup { ctx: self.clone() }
    }

    /// Resets the context: waits for the device, destroys pending resources, and has the memory
    /// manager free every device allocation. Existing device buffers and arrays (views and
    /// imports included) become invalid: every operation refuses them with
    /// [`Error::StaleHandle`] from then on, whatever memory their addresses hold later.
    ///
    /// Safe while other threads use the context: the reset waits until the operations being
    /// queued are queued, lets no new one start until it is done, and waits for the device before
    /// it frees anything.
    ///
    /// # Errors
    /// [`Error::ResetRefused`] from a stream callback, inside an operation on device memory
    /// (a memory resource's `allocate`), or while a stream of the device is being captured into
    /// a graph, before anything happens. Otherwise the first of: the
    /// device synchronization's error (unreported work errors), the resources'
    /// [`Error::DeallocationFailed`], the memory manager's reset error. Every step runs even when
    /// an earlier one failed.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let buf = ctx.memalloc(16).unwrap();
    /// ctx.reset().unwrap();
    /// let err = rumba::copy(&buf, &[0; 16]).unwrap_err(); // its memory is gone
    /// assert!(matches!(err, rumba::Error::StaleHandle { len: 16, .. }));
    /// ```
    pub fn reset(&self) -> Result<()> {
        let gate = Exclusive::enter(self.inner.device)?;
        let synced = self.synchronize();
        if let Err(Error::Graph(GraphError::Refused { .. })) = &synced {
            // A stream is being captured: its graph would use memory the reset frees. (A capture
            // begins under a lease of the gate, so none begins while this reset runs.)
            return Err(Error::ResetRefused {
                device: self.inner.device,
                reason: "a stream of the device is being captured into a graph: end the capture first",
            });
        }
        let resources = self.inner.resources.flush_all();
        let memory = self.inner.manager.reset();
        gate.count_reset(driver_id(&self.inner.driver), self.inner.device);
        drop(gate);
        synced.and(resources).and(memory)
    }

    /// Releases a driver resource now, or with the next flush when this is a callback thread
    /// (see [`callback`](crate::driver::callback)).
    pub(crate) fn release_or_defer(&self, what: String, release: Release) {
        callback::release_or_defer(what, release, |what, release| {
            self.defer_release(what, release)
        });
    }

    /// Defers the destruction of a stream, event or module.
    pub(crate) fn defer_release(&self, what: String, release: Release) {
        let added = self.inner.resources.add(Pending {
            bytes: 0,
            what,
            release,
        });
        if let Err(e) = added {
            // No caller to return it to: the next flush of the queue reports it.
            self.inner.resources.keep(e);
        }
    }

    /// The pool of pinned blocks that asynchronous copies from pageable memory are staged
    /// through: a block returns to it with an event after its last queued copy, and is reused
    /// only once the stream has passed that event.
    pub(crate) fn staging_pool(&self) -> &Arc<PinnedPool> {
        self.inner.staging.get_or_init(|| {
            Arc::new(PinnedPool::new(
                self.inner.device,
                Arc::clone(&self.inner.driver),
            ))
        })
    }

    pub(crate) fn same(&self, other: &Context) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

/// At most how many times an allocation short of memory waits for queued work and tries again.
const ALLOC_WAIT_ROUNDS: usize = 64;

/// `err` with `held` more bytes counted as pending: memory released by the program that queued
/// work still holds.
fn count_held(mut err: Error, held: usize) -> Error {
    match &mut err {
        Error::OutOfMemory { pending, .. } => *pending += held,
        Error::PoolOutOfMemory(report) => report.pending += held,
        _ => {}
    }
    err
}
