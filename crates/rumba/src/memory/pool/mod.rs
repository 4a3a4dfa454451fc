//! The pooling, stream-ordered memory manager (`RUMBA_MEMORY_MANAGER=pool`).
//!
//! Device memory is taken from the driver in large *segments* and carved into *blocks*:
//!
//! - **Granule**: every request is rounded up to [`GRANULE`] (512 bytes) — small enough that
//!   rounding wastes little, large enough to keep blocks aligned for any element type.
//! - **Segments grow**: a new segment is at least [`PoolOptions::min_segment`] (2 MiB) and at least
//!   as large as everything reserved so far, capped at [`PoolOptions::max_growth`] (256 MiB) and by
//!   the limit, so the number of segments grows logarithmically with the footprint. If the device
//!   cannot give that much, the pool asks for just what the request needs.
//! - **Split and merge**: good fit over free blocks (segregated free lists, close to best fit, O(1):
//!   `bins`); the rest of a block is split off and merged back with free neighbours
//!   when freed (`arena`).
//! - **Stream order**: a block freed on stream A is reused by A at once and by other streams only
//!   after A has finished the work queued before the free, checked with `stream_query` or an event
//!   recorded on A and `event_query` (`stream_order`). The hot paths make no driver call.
//! - **Out of memory**: flush held-back releases, reuse what completed events release, return
//!   whole free segments to the device, retry; then [`Error::PoolOutOfMemory`] with requested,
//!   allocated, reserved, cached, free, largest free block and fragmentation figures.
//! - **Limit**: reserved bytes never exceed [`PoolOptions::limit`] (`RUMBA_MEMORY_LIMIT`, or
//!   [`MemoryManager::set_memory_limit`]).
//! - **Pinned host memory** comes from a [`PinnedPool`].
//!
//! On the sim, blocks inside a segment are not separate allocations: an access that overruns a
//! block but stays inside its segment is not reported (as on a GPU with any pooling allocator).
//!
//! This module touches the driver (segments, host blocks, stream and event queries) only.
//!
//! ```
//! use rumba::memory::{MemoryManager, PoolMemoryManager};
//! let ctx = rumba::current_context().unwrap();
//! let pool = PoolMemoryManager::new(&ctx.manager_context()).unwrap();
//! let s = rumba::stream().unwrap();
//! let a = pool.memalloc_on(1000, s.handle()).unwrap();
//! pool.memfree_on(a, 1000, s.handle());
//! assert_eq!(pool.memalloc_on(1000, s.handle()).unwrap(), a); // same stream: reused at once
//! ```

pub(crate) mod arena;
mod bins;
mod host;
mod int_hash;
pub(crate) mod stream_order;

pub use host::{HOST_MIN_BLOCK, PinnedPool, PooledPinned};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use self::arena::{Arena, Owner, State};
use self::stream_order::{StreamOrder, alloc_key, free_key, key_handle};
use super::report::fragmentation;
use super::{
    BlockInfo, BlockState, IpcHandle, ManagerContext, MemoryManager, MemoryManagerFactory,
    MemorySnapshot, MemoryStats, PendingStats, SegmentInfo,
};
use crate::driver::{DevicePtr, Driver, HostAllocFlags, StreamHandle};
use crate::error::{Error, OomReport, Result};

/// Every block size is a multiple of this many bytes.
pub const GRANULE: usize = 512;

/// Tuning of a [`PoolMemoryManager`].
///
/// ```
/// let o = rumba::memory::PoolOptions::default();
/// assert_eq!(o.min_segment, 2 << 20);
/// assert!(o.limit.is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolOptions {
    /// Most bytes the pool may reserve from the device; `None`: no limit.
    pub limit: Option<usize>,
    /// Smallest segment requested from the device.
    pub min_segment: usize,
    /// Largest growth step (a single request may still need a bigger segment).
    pub max_growth: usize,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            limit: None,
            min_segment: 2 << 20,
            max_growth: 256 << 20,
        }
    }
}

struct PoolState {
    arena: Arena,
    order: StreamOrder,
    stats: MemoryStats,
    /// Released while cleanup was deferred: (address, stream).
    pending: Vec<(DevicePtr, StreamHandle)>,
    pending_bytes: usize,
    limit: Option<usize>,
}

/// A caching, stream-ordered memory manager (see the [module docs](self)).
///
/// ```
/// use rumba::memory::{MemoryManager, PoolMemoryManager};
/// let ctx = rumba::current_context().unwrap();
/// let pool = PoolMemoryManager::new(&ctx.manager_context()).unwrap();
/// let p = pool.memalloc(100).unwrap();
/// pool.memfree(p, 100);
/// let stats = pool.memory_stats().unwrap();
/// assert_eq!((stats.total_count, stats.current_bytes), (1, 0));
/// assert!(stats.reserved_bytes >= 512);
/// ```
pub struct PoolMemoryManager {
    device: usize,
    driver: Arc<dyn Driver>,
    options: PoolOptions,
    state: Mutex<PoolState>,
    deferred: AtomicUsize,
    host: PinnedPool,
    /// Handle 0 is the per-thread default stream (`Config::per_thread_default_stream`).
    per_thread_default: bool,
}

impl PoolMemoryManager {
    /// A pool for one context, limited by the configuration's `memory_limit`.
    ///
    /// # Errors
    /// As [`with_options`](Self::with_options).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert!(rumba::memory::PoolMemoryManager::new(&ctx.manager_context()).is_ok());
    /// ```
    pub fn new(ctx: &ManagerContext) -> Result<Self> {
        Self::with_options(
            ctx,
            PoolOptions {
                limit: ctx.config.memory_limit,
                ..PoolOptions::default()
            },
        )
    }

    /// A pool with explicit options.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `min_segment` or `max_growth` is zero.
    ///
    /// ```
    /// use rumba::memory::{MemoryManager, PoolMemoryManager, PoolOptions};
    /// let ctx = rumba::current_context().unwrap();
    /// let opts = PoolOptions { limit: Some(1 << 20), ..Default::default() };
    /// let pool = PoolMemoryManager::with_options(&ctx.manager_context(), opts).unwrap();
    /// assert!(pool.memalloc(2 << 20).unwrap_err().is_out_of_memory());
    /// ```
    pub fn with_options(ctx: &ManagerContext, options: PoolOptions) -> Result<Self> {
        if options.min_segment == 0 || options.max_growth == 0 {
            return Err(Error::InvalidArgument(
                "pool segment sizes must be positive".into(),
            ));
        }
        Ok(PoolMemoryManager {
            device: ctx.device,
            driver: Arc::clone(&ctx.driver),
            options,
            state: Mutex::new(PoolState {
                arena: Arena::default(),
                order: StreamOrder::new(ctx.device, Arc::clone(&ctx.driver)),
                stats: MemoryStats::default(),
                pending: Vec::new(),
                pending_bytes: 0,
                limit: options.limit,
            }),
            deferred: AtomicUsize::new(0),
            host: PinnedPool::new(ctx.device, Arc::clone(&ctx.driver)),
            per_thread_default: ctx.config.per_thread_default_stream,
        })
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The pinned host pool behind [`memhostalloc`](MemoryManager::memhostalloc).
    ///
    /// ```
    /// use rumba::memory::{MemoryManager, PoolMemoryManager};
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = PoolMemoryManager::new(&ctx.manager_context()).unwrap();
    /// let p = pool.memhostalloc(100, Default::default()).unwrap();
    /// unsafe { pool.memhostfree(p, 100) };
    /// assert_eq!(pool.host_pool().usage(), (0, 512));
    /// ```
    pub fn host_pool(&self) -> &PinnedPool {
        &self.host
    }

    /// Returns every segment that holds no live block (and whose streams have finished with it)
    /// to the device; returns the bytes given back. Also empties the pinned host cache.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each segment the driver could not free (the rest are freed).
    ///
    /// ```
    /// use rumba::memory::{MemoryManager, PoolMemoryManager};
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = PoolMemoryManager::new(&ctx.manager_context()).unwrap();
    /// let p = pool.memalloc(4096).unwrap();
    /// pool.memfree(p, 4096);
    /// assert_eq!(pool.release_cached().unwrap(), 2 << 20); // one 2 MiB segment
    /// assert_eq!(pool.memory_stats().unwrap().reserved_bytes, 0);
    /// ```
    pub fn release_cached(&self) -> Result<usize> {
        self.host.empty_cache();
        let mut st = self.lock();
        self.reclaim(&mut st, None);
        self.free_segments(&mut st)
    }

    /// Moves blocks of streams other than `except` whose work has completed to the global cache.
    fn reclaim(&self, st: &mut PoolState, except: Option<u64>) {
        for key in st.arena.owning_streams() {
            if Some(key) == except {
                continue;
            }
            if let Some(upto) = st.order.released(key) {
                st.arena.promote(key, upto);
            }
        }
    }

    fn free_segments(&self, st: &mut PoolState) -> Result<usize> {
        let mut freed = 0;
        let mut failures = Vec::new();
        for (ptr, size) in st.arena.take_free_segments() {
            match self.driver.mem_free(self.device, ptr) {
                Ok(()) => {
                    st.stats.device_frees += 1;
                    freed += size;
                }
                Err(e) => failures.push(format!("pool segment 0x{ptr:x} ({size} bytes): {e}")),
            }
        }
        st.stats.reserved_bytes = st.arena.reserved();
        if failures.is_empty() {
            Ok(freed)
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    fn take(
        st: &mut PoolState,
        size: usize,
        stream: StreamHandle,
        bytes: usize,
    ) -> Option<DevicePtr> {
        alloc_key(stream)
            .and_then(|k| st.arena.take(Owner::Stream(k), size, stream.0, bytes))
            .or_else(|| st.arena.take(Owner::Global, size, stream.0, bytes))
    }

    /// Adds a segment able to hold `size` bytes. `Ok(false)`: the device or the limit refused.
    fn grow(&self, st: &mut PoolState, size: usize, exact: bool) -> Result<bool> {
        let reserved = st.arena.reserved();
        let headroom = st.limit.map_or(usize::MAX, |l| l.saturating_sub(reserved));
        if headroom < size {
            return Ok(false);
        }
        let aligned = size
            .checked_next_multiple_of(self.options.min_segment)
            .unwrap_or(size);
        let growth = reserved.clamp(self.options.min_segment, self.options.max_growth);
        let mut tries = vec![size];
        if !exact {
            tries = vec![aligned.max(growth), aligned, size];
        }
        tries.dedup();
        for want in tries {
            let want = want.min(headroom).max(size);
            match self.driver.mem_alloc(self.device, want) {
                Ok(ptr) => {
                    st.arena.add_segment(ptr, want);
                    st.stats.device_allocations += 1;
                    st.stats.reserved_bytes = st.arena.reserved();
                    st.stats.peak_reserved_bytes =
                        st.stats.peak_reserved_bytes.max(st.stats.reserved_bytes);
                    return Ok(true);
                }
                Err(e) if e.is_out_of_memory() => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// The stream handle 0 stands for: the per-thread default stream when so configured (its
    /// frees are then ordered like any per-thread stream's), else the legacy one.
    fn resolve(&self, stream: StreamHandle) -> StreamHandle {
        if stream == StreamHandle::DEFAULT && self.per_thread_default {
            StreamHandle::PER_THREAD
        } else {
            stream
        }
    }

    /// Carries out releases held back by `defer_cleanup`.
    fn release_pending(&self, st: &mut PoolState) {
        let pending = std::mem::take(&mut st.pending);
        st.pending_bytes = 0;
        for (ptr, stream) in pending {
            if let Some(id) = st.arena.live(ptr) {
                let key = free_key(stream);
                let epoch = st.order.on_free(key);
                st.arena.release(id, Owner::Stream(key), epoch);
            }
        }
    }

    fn out_of_memory(&self, st: &PoolState, requested: usize) -> Error {
        let (free, total) = self.driver.mem_info(self.device).unwrap_or((0, 0));
        let largest = st.arena.largest_free();
        let cached = st.arena.cached();
        Error::PoolOutOfMemory(Box::new(OomReport {
            device: self.device,
            manager: self.name().to_string(),
            requested,
            allocated: st.arena.allocated(),
            reserved: st.arena.reserved(),
            cached,
            free,
            total,
            largest_free_block: largest,
            fragmentation: fragmentation(largest, cached),
            pending: st.pending_bytes,
            limit: st.limit,
        }))
    }

    fn snapshot(st: &PoolState) -> MemorySnapshot {
        let segments = st
            .arena
            .walk()
            .into_iter()
            .map(|(ptr, size, blocks)| SegmentInfo {
                ptr,
                size,
                blocks: blocks
                    .into_iter()
                    .map(|b| BlockInfo {
                        ptr: b.ptr,
                        size: b.size,
                        state: match b.state {
                            State::Used { stream, requested } => BlockState::Allocated {
                                stream: StreamHandle(stream),
                                requested,
                            },
                            State::Pending { .. } => BlockState::Pending,
                            State::Free { owner, .. } => BlockState::Free {
                                stream: match owner {
                                    Owner::Global => None,
                                    Owner::Stream(k) => Some(key_handle(k)),
                                },
                            },
                        },
                    })
                    .collect(),
            })
            .collect();
        MemorySnapshot { segments }
    }
}

// SAFETY: host memory comes from the pinned pool: fresh driver `host_alloc` blocks, or cached
// ones (no handle left, queued work completed) zeroed again before reuse.
unsafe impl MemoryManager for PoolMemoryManager {
    fn name(&self) -> &str {
        "pool"
    }

    fn initialize(&self) -> Result<()> {
        Ok(())
    }

    fn memalloc(&self, bytes: usize) -> Result<DevicePtr> {
        self.memalloc_on(bytes, StreamHandle::LEGACY)
    }

    fn memfree(&self, ptr: DevicePtr, bytes: usize) {
        self.memfree_on(ptr, bytes, StreamHandle::LEGACY)
    }

    fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DevicePtr> {
        let stream = self.resolve(stream);
        if bytes == 0 {
            return Err(Error::InvalidArgument(
                "cannot allocate 0 bytes of device memory".into(),
            ));
        }
        let size = bytes.checked_next_multiple_of(GRANULE).ok_or_else(|| {
            Error::InvalidArgument(format!("{bytes} bytes cannot be rounded to a block size"))
        })?;
        let mut st = self.lock();
        let st = &mut *st;
        let mut found = Self::take(st, size, stream, bytes);
        if found.is_none() {
            self.reclaim(st, alloc_key(stream));
            found = Self::take(st, size, stream, bytes);
        }
        if found.is_none() && self.grow(st, size, false)? {
            found = Self::take(st, size, stream, bytes);
        }
        if found.is_none() {
            // Escalation: held-back releases, completed events, cached segments; then retry.
            st.stats.retries += 1;
            if self.deferred.load(Ordering::SeqCst) == 0 {
                self.release_pending(st);
            }
            self.reclaim(st, None);
            found = Self::take(st, size, stream, bytes);
            if found.is_none() {
                if let Err(e) = self.free_segments(st) {
                    tracing::warn!("returning cached segments before a retry: {e}");
                }
                if self.grow(st, size, true)? {
                    found = Self::take(st, size, stream, bytes);
                }
            }
        }
        match found {
            Some(p) => {
                st.stats.note_alloc(bytes);
                Ok(p)
            }
            None => {
                st.stats.retries -= 1;
                st.stats.ooms += 1;
                Err(self.out_of_memory(st, bytes))
            }
        }
    }

    fn memfree_on(&self, ptr: DevicePtr, _bytes: usize, stream: StreamHandle) {
        let stream = self.resolve(stream);
        let mut st = self.lock();
        let st = &mut *st;
        let Some(id) = st.arena.live(ptr) else {
            return; // freed by a reset, or not ours
        };
        if self.deferred.load(Ordering::SeqCst) > 0 {
            if let Some(requested) = st.arena.hold(id) {
                st.pending.push((ptr, stream));
                st.pending_bytes += requested;
                st.stats.note_free(requested);
            }
            return;
        }
        let key = free_key(stream);
        let epoch = st.order.on_free(key);
        if let Some(requested) = st.arena.release(id, Owner::Stream(key), epoch) {
            st.stats.note_free(requested);
        }
    }

    fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.host.alloc_raw(bytes, flags)
    }

    unsafe fn memhostfree(&self, ptr: *mut u8, _bytes: usize) {
        // The caller guarantees that no queued work uses the block: no events needed.
        self.host.free_raw(ptr, Vec::new());
    }

    unsafe fn mempin(&self, ptr: *mut u8, bytes: usize, flags: HostAllocFlags) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_register(self.device, ptr, bytes, flags) }
    }

    unsafe fn memunpin(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_unregister(ptr) }
    }

    /// Exports the segment that holds the range, with the range's offset inside it.
    fn get_ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        let segment = self.lock().arena.segment_of(ptr, bytes);
        let (base, _) = segment.ok_or_else(|| {
            Error::InvalidArgument(format!(
                "[0x{ptr:x}, +{bytes}) is not memory of this pool on device {}",
                self.device
            ))
        })?;
        IpcHandle::export(&*self.driver, self.device, base, ptr, bytes)
    }

    fn get_memory_info(&self) -> Result<(usize, usize)> {
        self.driver.mem_info(self.device)
    }

    fn reset(&self) -> Result<()> {
        let mut st = self.lock();
        st.pending.clear();
        st.pending_bytes = 0;
        st.order.clear();
        let mut failures = Vec::new();
        for (ptr, size) in st.arena.clear() {
            match self.driver.mem_free(self.device, ptr) {
                Ok(()) => st.stats.device_frees += 1,
                Err(e) => failures.push(format!("pool segment 0x{ptr:x} ({size} bytes): {e}")),
            }
        }
        st.stats.reserved_bytes = 0;
        st.stats.current_bytes = 0;
        st.stats.current_count = 0;
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    fn defer_cleanup_enter(&self) {
        self.deferred.fetch_add(1, Ordering::SeqCst);
    }

    fn defer_cleanup_exit(&self) {
        let _ = self
            .deferred
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    fn flush(&self) -> Result<()> {
        if self.deferred.load(Ordering::SeqCst) == 0 {
            self.release_pending(&mut self.lock());
        }
        Ok(())
    }

    fn pending(&self) -> PendingStats {
        let st = self.lock();
        PendingStats {
            count: st.pending.len(),
            bytes: st.pending_bytes,
        }
    }

    fn memory_stats(&self) -> Result<MemoryStats> {
        let st = self.lock();
        let mut s = st.stats;
        s.reserved_bytes = st.arena.reserved();
        Ok(s)
    }

    fn memory_snapshot(&self) -> Result<MemorySnapshot> {
        Ok(Self::snapshot(&self.lock()))
    }

    fn empty_cache(&self) -> Result<()> {
        self.release_cached().map(drop)
    }

    fn set_memory_limit(&self, limit: Option<usize>) -> Result<()> {
        self.lock().limit = limit;
        Ok(())
    }
}

impl Drop for PoolMemoryManager {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        for (ptr, _) in st.arena.clear() {
            let _ = self.driver.mem_free(self.device, ptr);
        }
    }
}

/// Builds a [`PoolMemoryManager`] per context; registered as `pool`.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{MemoryManagerFactory, PoolManagerFactory};
/// assert_eq!(PoolManagerFactory::default().name(), "pool");
/// // Install it for contexts created from now on:
/// rumba::memory::register_memory_manager(Arc::new(PoolManagerFactory::default())).unwrap();
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PoolManagerFactory {
    /// Options for every pool; `None`: defaults with the configured `memory_limit`.
    pub options: Option<PoolOptions>,
}

impl MemoryManagerFactory for PoolManagerFactory {
    fn name(&self) -> &str {
        "pool"
    }

    fn create(&self, ctx: &ManagerContext) -> Result<Arc<dyn MemoryManager>> {
        Ok(Arc::new(match self.options {
            Some(o) => PoolMemoryManager::with_options(ctx, o)?,
            None => PoolMemoryManager::new(ctx)?,
        }))
    }
}
