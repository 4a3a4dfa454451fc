//! The pooling, stream-ordered device resource (`RUMBA_MEMORY_MANAGER=pool`).
//!
//! Device memory is taken from an upstream resource in large *segments* and carved into *blocks*:
//!
//! - **Granule**: every request is rounded up to [`GRANULE`] (512 bytes) — small enough that
//!   rounding wastes little, large enough to keep blocks aligned for any element type.
//! - **Segments grow**: a new segment is at least [`PoolOptions::min_segment`] (2 MiB) and at least
//!   as large as everything reserved so far, capped at [`PoolOptions::max_growth`] (256 MiB) and by
//!   the headroom of a [`LimitingAdaptor`](super::LimitingAdaptor) upstream, so the number of
//!   segments grows logarithmically with the footprint. If the upstream cannot give that much, the
//!   pool asks for just what the request needs.
//! - **Split and merge**: good fit over free blocks (segregated free lists, close to best fit, O(1):
//!   `bins`); the rest of a block is split off and merged back with free neighbours
//!   when freed (`arena`).
//! - **Stream order**: a block freed on stream A is reused by A at once and by other streams only
//!   after A has finished the work queued before the free, checked with `stream_query` or an event
//!   recorded on A and `event_query` (`stream_order`). The hot paths make no driver call. While A
//!   is being captured it reuses its own blocks no sooner than another stream would (a graph
//!   replays on any stream).
//! - **Out of memory**: flush held-back releases, reuse what completed events release, return
//!   whole free segments upstream, retry; then [`Error::PoolOutOfMemory`] with requested,
//!   allocated, reserved, cached, free, largest free block and fragmentation figures.
//! - **Limit**: by composition only — put a [`LimitingAdaptor`](super::LimitingAdaptor) under the
//!   pool (the built-in `pool` manager has one, set by `RUMBA_MEMORY_LIMIT`), and reserved bytes
//!   never exceed its limit.
//! - **Pinned host memory** comes from a [`PinnedPool`], the host resource paired with the pool
//!   by [`PoolManagerFactory`].
//!
//! On the sim, blocks inside a segment are not separate allocations: an access that overruns a
//! block but stays inside its segment is not reported (as on a GPU with any pooling allocator).
//!
//! This module touches the upstream resource (segments) and the driver (stream and event queries,
//! memory info, IPC export) only.
//!
//! ```
//! use rumba::memory::{DeviceResource, PoolResource};
//! let ctx = rumba::current_context().unwrap();
//! let pool = PoolResource::new(&ctx.manager_context()).unwrap();
//! let s = rumba::stream().unwrap();
//! let a = pool.allocate(1000, s.handle()).unwrap();
//! let addr = a.ptr();
//! pool.deallocate(a, s.handle()).unwrap();
//! let b = pool.allocate(1000, s.handle()).unwrap();
//! assert_eq!(b.ptr(), addr); // same stream: reused at once
//! pool.deallocate(b, s.handle()).unwrap();
//! ```

pub(crate) mod arena;
mod bins;
mod host;
mod int_hash;
mod segments;
pub(crate) mod stream_order;

pub use host::{HOST_MIN_BLOCK, PinnedPool, PooledPinned};

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use self::arena::{Arena, Owner, State};
use self::stream_order::{StreamOrder, alloc_key, free_key, key_handle};
use super::history::{self, ChainCell, EventKind, Note, PoolFigures, PoolHistory};
use super::report::fragmentation;
use super::{
    BlockInfo, BlockState, CacheControl, Deferral, DeviceBlock, DeviceResource, IpcHandle,
    ManagerContext, MemoryManager, MemoryManagerFactory, MemorySnapshot, MemoryStats, Origin,
    PendingStats, ResetToken, SegmentInfo,
};
use crate::driver::{DevicePtr, Driver, StreamHandle};
use crate::error::{Access, Error, OomReport, ResourceError, Result};
use crate::sync::{get_mut, lock};

/// Every block size is a multiple of this many bytes.
pub const GRANULE: usize = 512;

/// Tuning of a [`PoolResource`]. (A limit is not an option: put a
/// [`LimitingAdaptor`](super::LimitingAdaptor) under the pool.)
///
/// ```
/// let o = rumba::memory::PoolOptions::default();
/// assert_eq!(o.min_segment, 2 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolOptions {
    /// Smallest segment requested from the upstream.
    pub min_segment: usize,
    /// Largest growth step (a single request may still need a bigger segment).
    pub max_growth: usize,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            min_segment: 2 << 20,
            max_growth: 256 << 20,
        }
    }
}

struct PoolState {
    arena: Arena,
    order: StreamOrder,
    stats: MemoryStats,
    /// The upstream's blocks behind the arena's segments, by address.
    segments: HashMap<DevicePtr, DeviceBlock>,
    /// Released while cleanup was deferred: (address, stream).
    pending: Vec<(DevicePtr, StreamHandle)>,
    pending_bytes: usize,
    /// Stamped on the blocks handed out; replaced by a reset.
    origin: Origin,
    /// Origins before each reset (their blocks were freed by it).
    retired: Vec<Origin>,
    /// Where the pool writes its events in the memory history (the events are noted under this
    /// state's lock).
    history: PoolHistory,
}

/// A caching, stream-ordered device resource over an upstream (see the [module docs](self)).
///
/// ```
/// use rumba::memory::{DeviceResource, PoolResource};
/// let ctx = rumba::current_context().unwrap();
/// let pool = PoolResource::new(&ctx.manager_context()).unwrap();
/// pool.deallocate_sync(pool.allocate_sync(100).unwrap()).unwrap();
/// let stats = pool.statistics().unwrap();
/// assert_eq!((stats.total_count, stats.current_bytes), (1, 0));
/// assert!(stats.reserved_bytes >= 512);
/// ```
pub struct PoolResource {
    device: usize,
    driver: Arc<dyn Driver>,
    upstream: Arc<dyn DeviceResource>,
    options: PoolOptions,
    state: Mutex<PoolState>,
    deferred: AtomicUsize,
    /// Handle 0 is the per-thread default stream (`Config::per_thread_default_stream`).
    per_thread_default: bool,
    /// Its chain in the memory history, walked once.
    history: ChainCell,
}

impl PoolResource {
    /// A pool for one context over [`ManagerContext::device_upstream`] (the driver, limited by
    /// the configuration's `memory_limit`).
    ///
    /// # Errors
    /// As [`with_options`](Self::with_options).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert!(rumba::memory::PoolResource::new(&ctx.manager_context()).is_ok());
    /// ```
    pub fn new(ctx: &ManagerContext) -> Result<Self> {
        Self::with_options(ctx, ctx.device_upstream(), PoolOptions::default())
    }

    /// A pool over `upstream` with explicit options.
    ///
    /// # Errors
    /// [`Error::Inaccessible`] when `upstream`'s memory is not device-accessible (its
    /// [`properties`](DeviceResource::properties)); [`Error::InvalidConfig`] when `min_segment`
    /// or `max_growth` is zero.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::{DeviceResource, DriverResource, LimitingAdaptor, PoolOptions, PoolResource};
    /// let ctx = rumba::current_context().unwrap();
    /// let driver = Arc::new(DriverResource::new(0, ctx.driver().clone()));
    /// let limited = Arc::new(LimitingAdaptor::new(driver, 0, Some(1 << 20)));
    /// let pool = PoolResource::with_options(&ctx.manager_context(), limited, PoolOptions::default()).unwrap();
    /// assert!(pool.allocate_sync(2 << 20).unwrap_err().is_out_of_memory());
    /// ```
    pub fn with_options(
        ctx: &ManagerContext,
        upstream: Arc<dyn DeviceResource>,
        options: PoolOptions,
    ) -> Result<Self> {
        super::resource::require(&*upstream, Access::Device, "the upstream of PoolResource")?;
        if options.min_segment == 0 || options.max_growth == 0 {
            let (variable, value) = if options.min_segment == 0 {
                ("PoolOptions::min_segment", options.min_segment)
            } else {
                ("PoolOptions::max_growth", options.max_growth)
            };
            return Err(Error::InvalidConfig {
                variable: variable.into(),
                value: value.to_string(),
                expected: "a positive segment size in bytes".into(),
            });
        }
        Ok(PoolResource {
            device: ctx.device,
            driver: Arc::clone(&ctx.driver),
            upstream,
            options,
            state: Mutex::new(PoolState {
                arena: Arena::default(),
                order: StreamOrder::new(ctx.device, Arc::clone(&ctx.driver)),
                stats: MemoryStats::default(),
                segments: HashMap::new(),
                pending: Vec::new(),
                pending_bytes: 0,
                origin: Origin::for_driver(&ctx.driver),
                retired: Vec::new(),
                history: PoolHistory::default(),
            }),
            deferred: AtomicUsize::new(0),
            per_thread_default: ctx.config.per_thread_default_stream,
            history: ChainCell::new(),
        })
    }

    /// Returns every segment that holds no live block (and whose streams have finished with it)
    /// upstream; returns the bytes given back.
    ///
    /// # Errors
    /// [`Error::DeallocationFailed`] naming each segment the upstream could not free (the rest are freed).
    ///
    /// ```
    /// use rumba::memory::{DeviceResource, PoolResource};
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = PoolResource::new(&ctx.manager_context()).unwrap();
    /// pool.deallocate_sync(pool.allocate_sync(4096).unwrap()).unwrap();
    /// assert_eq!(pool.release_cached().unwrap(), 2 << 20); // one 2 MiB segment
    /// assert_eq!(pool.statistics().unwrap().reserved_bytes, 0);
    /// ```
    pub fn release_cached(&self) -> Result<usize> {
        let mut st = lock(&self.state);
        self.reclaim(&mut st, None);
        self.give_back_free_segments(st).1
    }

    /// Moves blocks of streams other than `except` whose work has completed to the global cache;
    /// the bytes moved.
    fn reclaim(&self, st: &mut PoolState, except: Option<u64>) -> usize {
        let mut moved = 0;
        for key in st.arena.owning_streams() {
            if Some(key) == except {
                continue;
            }
            if let Some(upto) = st.order.released(key) {
                moved += st.arena.promote(key, upto);
            }
        }
        moved
    }

    /// Takes a block for `stream`: one of `own` (the key whose blocks it may reuse at once, see
    /// [`own_key`](Self::own_key)) or a global one.
    fn take(
        st: &mut PoolState,
        size: usize,
        stream: StreamHandle,
        bytes: usize,
        own: Option<u64>,
    ) -> Option<DevicePtr> {
        own.and_then(|k| st.arena.take(Owner::Stream(k), size, stream.0, bytes))
            .or_else(|| st.arena.take(Owner::Global, size, stream.0, bytes))
    }

    /// The key whose blocks an allocation on `stream` may reuse at once. None while `stream` is
    /// being captured: what it allocates belongs to a graph that may replay on any stream, so a
    /// block freed on `stream` (whose earlier work may not have run) is no safer for it than for
    /// another stream.
    fn own_key(&self, stream: StreamHandle) -> Option<u64> {
        match self.driver.graphs() {
            Some(g) if g.is_capturing(self.device, stream) => None,
            _ => alloc_key(stream),
        }
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
                let requested = st.arena.release(id, Owner::Stream(key), epoch);
                if let Some(bytes) = requested {
                    self.note(st, EventKind::FreeFlushed, stream, bytes, ptr);
                }
            }
        }
    }

    /// Records an event of the pool with its figures afterwards (when a history records).
    fn note(
        &self,
        st: &mut PoolState,
        kind: EventKind,
        stream: StreamHandle,
        bytes: usize,
        ptr: u64,
    ) {
        if history::is_recording() {
            let pool = PoolFigures {
                id: std::ptr::from_ref(self) as usize as u64,
                reserved: st.arena.reserved(),
                used: st.arena.allocated(),
            };
            let note = Note {
                pool: Some(pool),
                ..Note::new(kind, self.device, stream, bytes, ptr)
            };
            history::note_pool(&mut st.history, note, (self, &self.history));
        }
    }

    fn out_of_memory(&self, st: &PoolState, requested: usize) -> Error {
        let (free, total) = self.driver.mem_info(self.device).unwrap_or((0, 0));
        let largest = st.arena.largest_free();
        let cached = st.arena.cached();
        Error::PoolOutOfMemory(Box::new(OomReport {
            device: self.device,
            manager: "pool".to_string(),
            requested,
            allocated: st.arena.allocated(),
            reserved: st.arena.reserved(),
            cached,
            free,
            total,
            largest_free_block: largest,
            fragmentation: fragmentation(largest, cached),
            pending: st.pending_bytes,
            limit: self.upstream.limiter().and_then(|l| l.limit()),
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
impl DeviceResource for PoolResource {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        let stream = self.resolve(stream);
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "device memory",
            });
        }
        let size =
            bytes
                .checked_next_multiple_of(GRANULE)
                .ok_or_else(|| Error::AllocationTooLarge {
                    memory: format!("device memory from the pool on device {}", self.device),
                    bytes,
                    largest: usize::MAX / GRANULE * GRANULE,
                })?;
        let own = self.own_key(stream);
        let mut st = lock(&self.state);
        let mut found = Self::take(&mut st, size, stream, bytes, own);
        if found.is_none() {
            self.reclaim(&mut st, own);
            found = Self::take(&mut st, size, stream, bytes, own);
        }
        if found.is_none() {
            (st, found) = self.grow_and_take(st, size, stream, bytes, own, false)?;
        }
        if found.is_none() {
            // Escalation: held-back releases, completed events, cached segments; then retry.
            st.stats.retries += 1;
            if self.deferred.load(Ordering::SeqCst) == 0 {
                self.release_pending(&mut st);
            }
            self.reclaim(&mut st, None);
            found = Self::take(&mut st, size, stream, bytes, own);
            if found.is_none() {
                let given;
                (st, given) = self.give_back_free_segments(st);
                if let Err(e) = given {
                    tracing::warn!("returning cached segments before a retry: {e}");
                }
                (st, found) = self.grow_and_take(st, size, stream, bytes, own, true)?;
            }
        }
        match found {
            Some(p) => {
                st.stats.note_alloc(bytes);
                self.note(&mut st, EventKind::Alloc, stream, bytes, p);
                // SAFETY: `[p, p + bytes)` lies in a block the arena just marked used, inside a
                // segment the pool holds from its upstream: `grow_and_take` admitted it only as a
                // live block of at least the segment's size, on `self.device`, of `self.driver`.
                // The segment stays allocated while the block is used (`Drop` leaks a busy
                // segment; only a crate-internal reset frees it, retiring this origin). It is
                // handed out once and returns through `deallocate`, which checks the origin.
                Ok(unsafe { DeviceBlock::from_raw(p, bytes, self.device, st.origin) })
            }
            None => {
                st.stats.retries -= 1;
                st.stats.ooms += 1;
                Err(self.out_of_memory(&st, bytes))
            }
        }
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        let stream = self.resolve(stream);
        let ptr = block.ptr();
        let mut st = lock(&self.state);
        let st = &mut *st;
        if st.retired.contains(&block.origin()) {
            return Ok(()); // freed by a reset
        }
        let id = match st.arena.live(ptr) {
            Some(id) if block.origin() == st.origin => id,
            _ => {
                return Err(ResourceError::ForeignBlock {
                    memory: "device",
                    ptr,
                    len: block.len(),
                    owner: format!("this pool on device {}", self.device),
                }
                .into());
            }
        };
        if self.deferred.load(Ordering::SeqCst) > 0 {
            if let Some(requested) = st.arena.hold(id) {
                st.pending.push((ptr, stream));
                st.pending_bytes += requested;
                st.stats.note_free(requested);
                self.note(st, EventKind::FreeDeferred, stream, requested, ptr);
            }
            return Ok(());
        }
        let key = free_key(stream);
        let epoch = st.order.on_free(key);
        if let Some(requested) = st.arena.release(id, Owner::Stream(key), epoch) {
            st.stats.note_free(requested);
            self.note(st, EventKind::Free, stream, requested, ptr);
        }
        Ok(())
    }

    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }

    fn statistics(&self) -> Option<MemoryStats> {
        let st = lock(&self.state);
        let mut s = st.stats;
        s.reserved_bytes = st.arena.reserved();
        Some(s)
    }

    fn cache(&self) -> Option<&dyn CacheControl> {
        Some(self)
    }

    fn deferral(&self) -> Option<&dyn Deferral> {
        Some(self)
    }

    /// Exports the segment that holds the range, with the range's offset inside it.
    fn ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        let segment = lock(&self.state).arena.segment_of(ptr, bytes);
        let (base, _) = segment.ok_or_else(|| ResourceError::ForeignBlock {
            memory: "device",
            ptr,
            len: bytes,
            owner: format!("this pool on device {}", self.device),
        })?;
        IpcHandle::export(&*self.driver, self.device, base, ptr, bytes)
    }

    fn memory_info(&self) -> Result<(usize, usize)> {
        self.driver.mem_info(self.device)
    }

    fn reset(&self, _token: &ResetToken) -> Result<()> {
        let segments: Vec<(DevicePtr, usize, DeviceBlock)> = {
            let mut st = lock(&self.state);
            st.pending.clear();
            st.pending_bytes = 0;
            st.order.clear();
            let old = st.origin;
            st.origin = old.retire();
            st.retired.push(old);
            let cleared = st.arena.clear();
            st.stats.reserved_bytes = 0;
            st.stats.current_bytes = 0;
            st.stats.current_count = 0;
            cleared
                .into_iter()
                .filter_map(|(ptr, size)| st.segments.remove(&ptr).map(|b| (ptr, size, b)))
                .collect()
        };
        // The upstream is called without the pool's lock (it may be a program's resource that
        // asks for the pool's statistics).
        let (freed, failures) = self.give_back(segments);
        lock(&self.state).stats.device_frees += freed.len() as u64;
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }
}

impl CacheControl for PoolResource {
    fn snapshot(&self) -> MemorySnapshot {
        Self::snapshot(&lock(&self.state))
    }

    fn empty_cache(&self) -> Result<usize> {
        self.release_cached()
    }

    /// Waits, outside the pool's lock, for the fences of the blocks that streams own, then
    /// makes the blocks whose work has completed global. Nothing on a stream callback.
    fn settle(&self) -> usize {
        if crate::driver::callback::is_callback_thread() {
            return 0;
        }
        let fences = {
            let mut st = lock(&self.state);
            let keys = st.arena.owning_streams();
            st.order.fences(&keys)
        };
        if fences.is_empty() {
            return 0;
        }
        for ev in fences {
            if let Err(e) = self.driver.event_synchronize(self.device, ev) {
                tracing::debug!("waiting for a pool fence: {e}");
            }
        }
        let mut st = lock(&self.state);
        st.order.returned();
        self.reclaim(&mut st, None)
    }
}

impl Deferral for PoolResource {
    fn flush(&self) -> Result<()> {
        if self.deferred.load(Ordering::SeqCst) == 0 {
            self.release_pending(&mut lock(&self.state));
        }
        Ok(())
    }

    fn pending(&self) -> PendingStats {
        let st = lock(&self.state);
        PendingStats {
            count: st.pending.len(),
            bytes: st.pending_bytes,
        }
    }

    fn defer(&self) {
        self.deferred.fetch_add(1, Ordering::SeqCst);
    }

    fn undefer(&self) {
        let _ = self
            .deferred
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}

impl Drop for PoolResource {
    fn drop(&mut self) {
        let st = get_mut(&mut self.state);
        // A segment that still holds a block handed out (not given back) is leaked: the block's
        // holder may still use it. Blocks given back but held back by a deferral are not live.
        let busy: HashSet<DevicePtr> = st
            .arena
            .walk()
            .into_iter()
            .filter(|(_, _, blocks)| blocks.iter().any(|b| matches!(b.state, State::Used { .. })))
            .map(|(ptr, _, _)| ptr)
            .collect();
        let _ = st.arena.clear();
        for (ptr, block) in st.segments.drain() {
            if busy.contains(&ptr) {
                tracing::warn!(
                    "dropping a pool whose segment 0x{ptr:x} ({} bytes) still holds live blocks: leaked",
                    block.len()
                );
                continue;
            }
            if let Err(e) = self.upstream.deallocate_sync(block) {
                tracing::error!("returning a pool segment upstream failed: {e}");
            }
        }
    }
}

/// Builds the `pool` manager per context: a [`PoolResource`] over
/// [`ManagerContext::device_upstream`] and a [`PinnedPool`] for pinned memory.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{MemoryManagerFactory, PoolManagerFactory};
/// assert_eq!(PoolManagerFactory::default().name(), "pool");
/// // Make it selectable by name (it is built in already):
/// rumba::memory::register_memory_manager(Arc::new(PoolManagerFactory::default())).unwrap();
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PoolManagerFactory {
    /// Options for every pool; `None`: the defaults.
    pub options: Option<PoolOptions>,
}

impl MemoryManagerFactory for PoolManagerFactory {
    fn name(&self) -> &str {
        "pool"
    }

    fn create(&self, ctx: &ManagerContext) -> Result<MemoryManager> {
        let pool = PoolResource::with_options(
            ctx,
            ctx.device_upstream(),
            self.options.unwrap_or_default(),
        )?;
        Ok(MemoryManager::new(
            "pool",
            ctx,
            Arc::new(pool),
            Arc::new(PinnedPool::new(ctx.device, Arc::clone(&ctx.driver))),
        ))
    }
}
