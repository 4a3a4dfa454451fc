//! A caching pool of page-locked host memory whose blocks are reused only after the device work
//! recorded on them has completed (the scheme of PyTorch's caching host allocator).
//!
//! Sizes are rounded up to a power of two (at least [`HOST_MIN_BLOCK`]) so that freed blocks fit
//! later requests of similar size; blocks are cached per size and flags. A block handed out as a
//! [`PooledPinned`] collects an event per [`record`](PooledPinned::record) call; when it is
//! dropped the block returns to the cache with those events, and an allocation takes a cached
//! block only once every one of its events has completed (`event_query`, never waiting).
//!
//! The pool is also a [`HostResource`] (the `pool` manager's host side): blocks given back
//! through [`HostResource::deallocate`] are, by that method's contract, used by no queued work, so
//! they carry no events.
//!
//! This module touches the driver's host-allocation and event calls only.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use crate::driver::{Driver, EventHandle, HostAllocFlags, StreamHandle};
use crate::error::{Error, HostMemoryError, ResourceError, Result};
use crate::memory::{HostBlock, HostResource, Origin};
use crate::sync::{get_mut, lock};

/// Smallest pinned block the pool hands out.
pub const HOST_MIN_BLOCK: usize = 512;

type Key = (u8, usize, usize); // (flags, size class, address)

fn flag_bits(f: HostAllocFlags) -> u8 {
    f.portable as u8 | (f.mapped as u8) << 1 | (f.write_combined as u8) << 2
}

#[derive(Default)]
struct HostState {
    cached: BTreeMap<Key, Vec<EventHandle>>,
    /// Live blocks: address → (size class, flags).
    live: HashMap<usize, (usize, HostAllocFlags)>,
    cached_bytes: usize,
    live_bytes: usize,
    host_allocations: u64,
    host_frees: u64,
}

/// A caching allocator of pinned host memory.
///
/// ```
/// use std::sync::Arc;
/// let ctx = rumba::current_context().unwrap();
/// let pool = Arc::new(rumba::memory::PinnedPool::new(ctx.device_id(), ctx.driver().clone()));
/// let a = pool.alloc(1000, Default::default()).unwrap();
/// let addr = a.as_ptr();
/// drop(a);
/// let b = pool.alloc(900, Default::default()).unwrap(); // same size class: reused
/// assert_eq!(b.as_ptr(), addr);
/// ```
pub struct PinnedPool {
    device: usize,
    driver: Arc<dyn Driver>,
    state: Mutex<HostState>,
    origin: Origin,
}

impl std::fmt::Debug for PinnedPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (live, cached) = self.usage();
        write!(
            f,
            "PinnedPool(device {}, {live} bytes live, {cached} bytes cached)",
            self.device
        )
    }
}

impl PinnedPool {
    /// An empty pool allocating through `driver` for `device`.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = rumba::memory::PinnedPool::new(0, ctx.driver().clone());
    /// assert_eq!(pool.usage(), (0, 0));
    /// ```
    pub fn new(device: usize, driver: Arc<dyn Driver>) -> Self {
        PinnedPool {
            device,
            origin: Origin::for_driver(&driver),
            driver,
            state: Mutex::new(HostState::default()),
        }
    }

    /// `(live, cached)` bytes (size classes, not requested sizes).
    ///
    /// ```
    /// use std::sync::Arc;
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
    /// let a = pool.alloc(3000, Default::default()).unwrap();
    /// assert_eq!(pool.usage(), (4096, 0));
    /// drop(a);
    /// assert_eq!(pool.usage(), (0, 4096));
    /// ```
    pub fn usage(&self) -> (usize, usize) {
        let st = lock(&self.state);
        (st.live_bytes, st.cached_bytes)
    }

    /// Host allocations and frees made through the driver so far.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = rumba::memory::PinnedPool::new(0, ctx.driver().clone());
    /// assert_eq!(pool.driver_calls(), (0, 0));
    /// ```
    pub fn driver_calls(&self) -> (u64, u64) {
        let st = lock(&self.state);
        (st.host_allocations, st.host_frees)
    }

    /// Allocates a block of at least `bytes` (the first `bytes` zeroed) with `flags`, reusing a
    /// cached one whose events have all completed.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the host cannot provide a new block; [`Error::Unsupported`] for flags
    /// the backend cannot honour (OpenCL: write-combined).
    ///
    /// ```
    /// use std::sync::Arc;
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
    /// let mut p = pool.alloc(8, Default::default()).unwrap();
    /// p.copy_from_slice(&[1; 8]);
    /// assert_eq!(&p[..], &[1; 8]);
    /// ```
    pub fn alloc(self: &Arc<Self>, bytes: usize, flags: HostAllocFlags) -> Result<PooledPinned> {
        let ptr = self.alloc_raw(bytes, flags)?;
        Ok(PooledPinned {
            pool: Arc::clone(self),
            ptr,
            len: bytes,
            events: Mutex::new(Vec::new()),
        })
    }

    /// A block of at least `bytes` for the library's own staging of pageable copies: as
    /// [`alloc`](Self::alloc), but a reused block is not zeroed. Its bytes are whatever its last
    /// user left; the caller reads back only bytes it wrote itself.
    pub(crate) fn alloc_staging(self: &Arc<Self>, bytes: usize) -> Result<PooledPinned> {
        let ptr = self.take_raw(bytes, HostAllocFlags::default(), false)?;
        Ok(PooledPinned {
            pool: Arc::clone(self),
            ptr,
            len: bytes,
            events: Mutex::new(Vec::new()),
        })
    }

    /// Size class of a request.
    fn class(bytes: usize) -> Result<usize> {
        bytes
            .max(HOST_MIN_BLOCK)
            .checked_next_power_of_two()
            .ok_or(Error::AllocationTooLarge {
                memory: "pinned memory from the pinned pool (rounded up to a power of two)".into(),
                bytes,
                largest: 1 << (usize::BITS - 1),
            })
    }

    pub(crate) fn alloc_raw(&self, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.take_raw(bytes, flags, true)
    }

    /// A live block of at least `bytes`, reused from the cache when one is ready; `zero` clears
    /// the first `bytes` of a reused block (fresh driver memory is zeroed already).
    fn take_raw(&self, bytes: usize, flags: HostAllocFlags, zero: bool) -> Result<*mut u8> {
        let class = Self::class(bytes)?;
        let bits = flag_bits(flags);
        {
            let mut st = lock(&self.state);
            let candidates: Vec<Key> = st
                .cached
                .range((bits, class, 0)..=(bits, class, usize::MAX))
                .map(|(k, _)| *k)
                .collect();
            for key in candidates {
                let ready = st.cached.get(&key).is_some_and(|evs| {
                    evs.iter()
                        .all(|&e| self.driver.event_query(self.device, e).unwrap_or(false))
                });
                if ready {
                    let events = st.cached.remove(&key).unwrap_or_default();
                    for e in events {
                        let _ = self.driver.event_destroy(self.device, e);
                    }
                    st.cached_bytes -= class;
                    st.live_bytes += class;
                    st.live.insert(key.2, (class, flags));
                    drop(st);
                    let ptr = key.2 as *mut u8;
                    // Fresh driver memory is zeroed; a reused block still holds its last user's
                    // bytes, which callers must not see (and which need not be valid `bool`s) —
                    // except the library's staging, which reads back only what it wrote.
                    if zero {
                        // SAFETY: the block is `class >= bytes` bytes of live host memory that no
                        // handle refers to (it was cached) and no queued work uses (its events
                        // have completed); it is now live again and not yet handed out.
                        unsafe { std::ptr::write_bytes(ptr, 0, bytes) };
                    }
                    return Ok(ptr);
                }
            }
        }
        let ptr = match self.driver.host_alloc(self.device, class, flags) {
            Ok(p) => p,
            Err(e) if e.is_out_of_memory() => {
                self.empty_cache();
                self.driver.host_alloc(self.device, class, flags)?
            }
            Err(e) => return Err(e),
        };
        let mut st = lock(&self.state);
        st.host_allocations += 1;
        st.live_bytes += class;
        st.live.insert(ptr as usize, (class, flags));
        Ok(ptr)
    }

    /// Returns a block to the cache, to be reused once `events` have completed.
    pub(crate) fn free_raw(&self, ptr: *mut u8, events: Vec<EventHandle>) {
        let mut st = lock(&self.state);
        let Some((class, flags)) = st.live.remove(&(ptr as usize)) else {
            drop(st);
            for e in events {
                let _ = self.driver.event_destroy(self.device, e);
            }
            return;
        };
        st.live_bytes -= class;
        st.cached_bytes += class;
        st.cached
            .insert((flag_bits(flags), class, ptr as usize), events);
    }

    /// Frees every cached block whose events have completed; returns the bytes freed.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
    /// drop(pool.alloc(100, Default::default()).unwrap());
    /// assert_eq!(pool.empty_cache(), 512);
    /// assert_eq!(pool.usage(), (0, 0));
    /// ```
    pub fn empty_cache(&self) -> usize {
        let mut st = lock(&self.state);
        let ready: Vec<Key> = st
            .cached
            .iter()
            .filter(|(_, evs)| {
                evs.iter()
                    .all(|&e| self.driver.event_query(self.device, e).unwrap_or(false))
            })
            .map(|(k, _)| *k)
            .collect();
        let mut freed = 0;
        for key in ready {
            let events = st.cached.remove(&key).unwrap_or_default();
            for e in events {
                let _ = self.driver.event_destroy(self.device, e);
            }
            // SAFETY: the block is cached (no handle to it exists) and its events completed.
            match unsafe { self.driver.host_free(key.2 as *mut u8) } {
                Ok(()) => st.host_frees += 1,
                Err(e) => tracing::error!("freeing cached pinned memory failed: {e}"),
            }
            st.cached_bytes -= key.1;
            freed += key.1;
        }
        freed
    }
}

impl HostResource for PinnedPool {
    fn allocate(&self, bytes: usize, flags: HostAllocFlags) -> Result<HostBlock> {
        let ptr = self.alloc_raw(bytes, flags)?;
        let Some(nn) = std::ptr::NonNull::new(ptr) else {
            return Err(HostMemoryError::NullAllocation {
                bytes,
                memory: "pinned",
            }
            .into());
        };
        // SAFETY: `alloc_raw` hands out a live block of at least `bytes` bytes that no handle
        // refers to and no queued work uses, zeroed (fresh from the driver, or zeroed on reuse);
        // it returns to the pool only through `deallocate`, which checks the origin.
        Ok(unsafe { HostBlock::from_raw(nn, bytes, flags, true, self.origin) })
    }

    fn deallocate(&self, block: HostBlock) -> Result<()> {
        let addr = block.as_ptr() as usize;
        if block.origin() != self.origin || !lock(&self.state).live.contains_key(&addr) {
            return Err(ResourceError::ForeignBlock {
                memory: "pinned",
                ptr: addr as u64,
                len: block.len(),
                owner: "this pinned pool".into(),
            }
            .into());
        }
        // The contract of `deallocate`: no queued work uses the block, so it needs no events.
        self.free_raw(block.as_ptr(), Vec::new());
        Ok(())
    }

    fn empty_cache(&self) -> usize {
        PinnedPool::empty_cache(self)
    }
}

impl Drop for PinnedPool {
    fn drop(&mut self) {
        let st = std::mem::take(&mut *lock(&self.state));
        if crate::driver::callback::is_callback_thread() {
            // No driver calls here (CUDA forbids them on its callback threads): leak the cache.
            if !st.cached.is_empty() {
                tracing::error!(
                    "dropping a pinned pool on a driver callback thread: {} cached block(s) leaked",
                    st.cached.len()
                );
            }
            return;
        }
        for ((_, _, addr), events) in st.cached {
            for e in events {
                let _ = self.driver.event_synchronize(self.device, e);
                if let Err(err) = self.driver.event_destroy(self.device, e) {
                    tracing::warn!("dropping a pinned pool: destroying an event failed: {err}");
                }
            }
            // SAFETY: no handle refers to a cached block and its work has completed.
            if let Err(e) = unsafe { self.driver.host_free(addr as *mut u8) } {
                tracing::error!("dropping a pinned pool: freeing 0x{addr:x} failed: {e}");
            }
        }
    }
}

/// A pinned block from a [`PinnedPool`]; derefs to `[u8]`. Dropping it returns the block to the
/// pool, which reuses it only after the events [`record`](Self::record)ed on it have completed.
///
/// ```
/// use std::sync::Arc;
/// let ctx = rumba::current_context().unwrap();
/// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
/// let p = pool.alloc(16, Default::default()).unwrap();
/// let s = rumba::stream().unwrap();
/// let addr = p.as_ptr();
/// p.record(s.handle()).unwrap(); // e.g. after queueing an asynchronous copy from it
/// drop(p);
/// s.synchronize().unwrap();
/// let again = pool.alloc(16, Default::default()).unwrap();
/// assert_eq!(again.as_ptr(), addr); // reused once the stream passed the record
/// assert_eq!(pool.driver_calls(), (1, 0));
/// ```
pub struct PooledPinned {
    pool: Arc<PinnedPool>,
    ptr: *mut u8,
    len: usize,
    events: Mutex<Vec<EventHandle>>,
}

// SAFETY: the handle exclusively owns its block (like a `Box<[u8]>`); the pool is Sync.
unsafe impl Send for PooledPinned {}
// SAFETY: shared access only hands out `&[u8]`; the event list is behind a mutex.
unsafe impl Sync for PooledPinned {}

impl PooledPinned {
    /// Records an event on `stream` now: the block is not reused before the stream reaches this
    /// point. Call it after queueing work that reads or writes the block without waiting for it.
    ///
    /// # Errors
    /// [`Error::Driver`] when the backend cannot create or record the event;
    /// [`Error::InvalidHandle`] for an unknown `stream`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
    /// let p = pool.alloc(4, Default::default()).unwrap();
    /// p.record(rumba::driver::StreamHandle::LEGACY).unwrap();
    /// drop(p);
    /// let (live, cached) = pool.usage();
    /// assert!(live == 0 && cached >= 4); // cached, reusable once the stream passes the record
    /// ```
    pub fn record(&self, stream: StreamHandle) -> Result<()> {
        let drv = &self.pool.driver;
        let ev = drv.event_create(self.pool.device, false)?;
        if let Err(e) = drv.event_record(self.pool.device, ev, stream) {
            let _ = drv.event_destroy(self.pool.device, ev);
            return Err(e);
        }
        lock(&self.events).push(ev);
        Ok(())
    }

    /// Hands an event already recorded after the last queued use of the block to the block:
    /// the pool reuses it only once the event has completed, and destroys the event then.
    pub(crate) fn keep_event(&self, event: EventHandle) {
        lock(&self.events).push(event);
    }

    /// Host address of the first byte.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let ctx = rumba::current_context().unwrap();
    /// let pool = Arc::new(rumba::memory::PinnedPool::new(0, ctx.driver().clone()));
    /// assert!(!pool.alloc(1, Default::default()).unwrap().as_ptr().is_null());
    /// ```
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr
    }
}

impl std::ops::Deref for PooledPinned {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` is a live block of at least `len` bytes owned by this handle.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl std::ops::DerefMut for PooledPinned {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl std::fmt::Debug for PooledPinned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PooledPinned({:p}, {} bytes)", self.ptr, self.len)
    }
}

impl Drop for PooledPinned {
    fn drop(&mut self) {
        let events = std::mem::take(get_mut(&mut self.events));
        self.pool.free_raw(self.ptr, events);
    }
}
