//! The limiting adaptor: caps the bytes handed out through it.
//!
//! An allocation that would take the live bytes (as requested, not rounded) above the limit is
//! refused with [`Error::OutOfMemory`] whose `total` is the limit and whose `free` is what is
//! left under it; the wrapped manager is not asked.
//!
//! This module touches only the manager it wraps.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::forward_to_upstream;
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::{Error, Result};
use crate::memory::{ManagerContext, MemoryManager, MemoryManagerFactory, MemoryStats};

/// Wraps a manager and refuses allocations above a byte limit.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{LimitingAdaptor, MemoryManager};
/// let ctx = rumba::current_context().unwrap();
/// let mm = LimitingAdaptor::new(ctx.memory_manager().clone(), 0, 1000);
/// let p = mm.memalloc(600).unwrap();
/// let err = mm.memalloc(600).unwrap_err();
/// assert!(matches!(err, rumba::Error::OutOfMemory { requested: 600, free: 400, total: 1000, .. }));
/// mm.memfree(p, 600);
/// assert_eq!(mm.used(), 0);
/// ```
pub struct LimitingAdaptor {
    upstream: Arc<dyn MemoryManager>,
    name: String,
    device: usize,
    limit: AtomicUsize,
    used: AtomicUsize,
}

impl LimitingAdaptor {
    /// Wraps `upstream` (serving `device`) with a limit of `limit` bytes.
    ///
    /// ```
    /// use rumba::memory::{LimitingAdaptor, MemoryManager};
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = LimitingAdaptor::new(ctx.memory_manager().clone(), 0, 1 << 20);
    /// assert_eq!(mm.limit(), 1 << 20);
    /// ```
    pub fn new(upstream: Arc<dyn MemoryManager>, device: usize, limit: usize) -> Self {
        LimitingAdaptor {
            name: format!("limiting({})", upstream.name()),
            upstream,
            device,
            limit: AtomicUsize::new(limit),
            used: AtomicUsize::new(0),
        }
    }

    /// The limit in bytes.
    ///
    /// ```
    /// use rumba::memory::{LimitingAdaptor, MemoryManager};
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = LimitingAdaptor::new(ctx.memory_manager().clone(), 0, 5);
    /// mm.set_memory_limit(Some(7)).unwrap();
    /// assert_eq!(mm.limit(), 7);
    /// ```
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::SeqCst)
    }

    /// Bytes handed out through the adaptor and not yet returned.
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(LimitingAdaptor::new(ctx.memory_manager().clone(), 0, 5).used(), 0);
    /// ```
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    fn admit(&self, bytes: usize, alloc: impl FnOnce() -> Result<DevicePtr>) -> Result<DevicePtr> {
        let limit = self.limit();
        let admitted = self
            .used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                u.checked_add(bytes).filter(|&n| n <= limit)
            });
        if let Err(used) = admitted {
            return Err(Error::OutOfMemory {
                device: self.device,
                requested: bytes,
                free: limit.saturating_sub(used),
                total: limit,
                pending: self.upstream.pending().bytes,
            });
        }
        let r = alloc();
        if r.is_err() {
            self.used.fetch_sub(bytes, Ordering::SeqCst);
        }
        r
    }

    fn give_back(&self, bytes: usize) {
        let _ = self
            .used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                Some(u.saturating_sub(bytes))
            });
    }
}

// SAFETY: host memory is the upstream manager's (forwarded unchanged).
unsafe impl MemoryManager for LimitingAdaptor {
    forward_to_upstream!();

    fn name(&self) -> &str {
        &self.name
    }

    fn memalloc(&self, bytes: usize) -> Result<DevicePtr> {
        self.admit(bytes, || self.upstream.memalloc(bytes))
    }

    fn memfree(&self, ptr: DevicePtr, bytes: usize) {
        self.give_back(bytes);
        self.upstream.memfree(ptr, bytes)
    }

    fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DevicePtr> {
        self.admit(bytes, || self.upstream.memalloc_on(bytes, stream))
    }

    fn memfree_on(&self, ptr: DevicePtr, bytes: usize, stream: StreamHandle) {
        self.give_back(bytes);
        self.upstream.memfree_on(ptr, bytes, stream)
    }

    fn reset(&self) -> Result<()> {
        self.used.store(0, Ordering::SeqCst);
        self.upstream.reset()
    }

    fn memory_stats(&self) -> Result<MemoryStats> {
        self.upstream.memory_stats()
    }

    /// Changes the adaptor's own limit (`None`: unlimited).
    fn set_memory_limit(&self, limit: Option<usize>) -> Result<()> {
        self.limit
            .store(limit.unwrap_or(usize::MAX), Ordering::SeqCst);
        Ok(())
    }
}

/// Wraps every manager another factory builds in a [`LimitingAdaptor`].
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{LimitingFactory, MemoryManagerFactory, DefaultManagerFactory};
/// let f = LimitingFactory::new(Arc::new(DefaultManagerFactory), 1 << 30);
/// assert_eq!(f.name(), "limiting");
/// ```
pub struct LimitingFactory {
    upstream: Arc<dyn MemoryManagerFactory>,
    limit: usize,
}

impl LimitingFactory {
    /// Wraps `upstream`'s managers with a limit of `limit` bytes each.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::MemoryManagerFactory;
    /// let f = rumba::memory::LimitingFactory::new(Arc::new(rumba::memory::DefaultManagerFactory), 1);
    /// let mm = f.create(&rumba::current_context().unwrap().manager_context()).unwrap();
    /// assert!(mm.memalloc(2).unwrap_err().is_out_of_memory()); // over the 1-byte limit
    /// ```
    pub fn new(upstream: Arc<dyn MemoryManagerFactory>, limit: usize) -> Self {
        LimitingFactory { upstream, limit }
    }
}

impl MemoryManagerFactory for LimitingFactory {
    fn name(&self) -> &str {
        "limiting"
    }

    fn interface_version(&self) -> u32 {
        self.upstream.interface_version()
    }

    fn create(&self, ctx: &ManagerContext) -> Result<Arc<dyn MemoryManager>> {
        Ok(Arc::new(LimitingAdaptor::new(
            self.upstream.create(ctx)?,
            ctx.device,
            self.limit,
        )))
    }
}
