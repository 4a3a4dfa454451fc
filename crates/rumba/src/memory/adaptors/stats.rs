//! The statistics adaptor: counts what passes through it.
//!
//! Current / peak / total bytes and counts and out-of-memory failures are counted here; driver
//! figures (reserved bytes, device allocations and frees, retries) are taken from the wrapped
//! manager when it reports them.
//!
//! This module touches only the manager it wraps.

use std::sync::{Arc, Mutex, MutexGuard};

use super::forward_to_upstream;
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::Result;
use crate::memory::{ManagerContext, MemoryManager, MemoryManagerFactory, MemoryStats};

/// Wraps a manager and counts its allocations.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{DefaultMemoryManager, MemoryManager, StatisticsAdaptor};
/// let ctx = rumba::current_context().unwrap();
/// let mm = StatisticsAdaptor::new(Arc::new(DefaultMemoryManager::new(&ctx.manager_context()).unwrap()));
/// let a = mm.memalloc(10).unwrap();
/// let b = mm.memalloc(20).unwrap();
/// mm.memfree(a, 10);
/// let s = mm.memory_stats().unwrap();
/// assert_eq!((s.current_bytes, s.peak_bytes, s.total_bytes), (20, 30, 30));
/// assert_eq!((s.current_count, s.peak_count, s.total_count), (1, 2, 2));
/// mm.memfree(b, 20);
/// ```
pub struct StatisticsAdaptor {
    upstream: Arc<dyn MemoryManager>,
    name: String,
    stats: Mutex<MemoryStats>,
}

impl StatisticsAdaptor {
    /// Wraps `upstream`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::{MemoryManager, StatisticsAdaptor};
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = StatisticsAdaptor::new(ctx.memory_manager().clone());
    /// assert!(mm.name().starts_with("statistics("));
    /// ```
    pub fn new(upstream: Arc<dyn MemoryManager>) -> Self {
        StatisticsAdaptor {
            name: format!("statistics({})", upstream.name()),
            upstream,
            stats: Mutex::new(MemoryStats::default()),
        }
    }

    /// The wrapped manager.
    ///
    /// ```
    /// use rumba::memory::{MemoryManager, StatisticsAdaptor};
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = StatisticsAdaptor::new(ctx.memory_manager().clone());
    /// assert_eq!(mm.upstream().name(), ctx.memory_manager().name());
    /// ```
    pub fn upstream(&self) -> &Arc<dyn MemoryManager> {
        &self.upstream
    }

    fn lock(&self) -> MutexGuard<'_, MemoryStats> {
        self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn counted(&self, bytes: usize, r: Result<DevicePtr>) -> Result<DevicePtr> {
        let mut s = self.lock();
        match &r {
            Ok(_) => s.note_alloc(bytes),
            Err(e) if e.is_out_of_memory() => s.ooms += 1,
            Err(_) => {}
        }
        r
    }
}

// SAFETY: host memory is the upstream manager's (forwarded unchanged).
unsafe impl MemoryManager for StatisticsAdaptor {
    forward_to_upstream!();

    fn name(&self) -> &str {
        &self.name
    }

    fn memalloc(&self, bytes: usize) -> Result<DevicePtr> {
        self.counted(bytes, self.upstream.memalloc(bytes))
    }

    fn memfree(&self, ptr: DevicePtr, bytes: usize) {
        self.lock().note_free(bytes);
        self.upstream.memfree(ptr, bytes)
    }

    fn memalloc_on(&self, bytes: usize, stream: StreamHandle) -> Result<DevicePtr> {
        self.counted(bytes, self.upstream.memalloc_on(bytes, stream))
    }

    fn memfree_on(&self, ptr: DevicePtr, bytes: usize, stream: StreamHandle) {
        self.lock().note_free(bytes);
        self.upstream.memfree_on(ptr, bytes, stream)
    }

    fn reset(&self) -> Result<()> {
        {
            let mut s = self.lock();
            s.current_bytes = 0;
            s.current_count = 0;
        }
        self.upstream.reset()
    }

    fn memory_stats(&self) -> Result<MemoryStats> {
        let mut s = *self.lock();
        if let Ok(up) = self.upstream.memory_stats() {
            s.reserved_bytes = up.reserved_bytes;
            s.peak_reserved_bytes = up.peak_reserved_bytes;
            s.device_allocations = up.device_allocations;
            s.device_frees = up.device_frees;
            s.retries = up.retries;
        }
        Ok(s)
    }

    fn set_memory_limit(&self, limit: Option<usize>) -> Result<()> {
        self.upstream.set_memory_limit(limit)
    }
}

/// Wraps every manager another factory builds in a [`StatisticsAdaptor`].
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{MemoryManagerFactory, PoolManagerFactory, StatisticsFactory};
/// let f = StatisticsFactory::new(Arc::new(PoolManagerFactory::default()));
/// assert_eq!(f.name(), "statistics");
/// ```
pub struct StatisticsFactory {
    upstream: Arc<dyn MemoryManagerFactory>,
}

impl StatisticsFactory {
    /// Wraps `upstream`'s managers.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::MemoryManagerFactory;
    /// let f = rumba::memory::StatisticsFactory::new(Arc::new(rumba::memory::DefaultManagerFactory));
    /// let mm = f.create(&rumba::current_context().unwrap().manager_context()).unwrap();
    /// assert_eq!(mm.name(), "statistics(default)");
    /// assert_eq!(mm.memory_stats().unwrap().current_bytes, 0); // counters from the start
    /// ```
    pub fn new(upstream: Arc<dyn MemoryManagerFactory>) -> Self {
        StatisticsFactory { upstream }
    }
}

impl MemoryManagerFactory for StatisticsFactory {
    fn name(&self) -> &str {
        "statistics"
    }

    fn interface_version(&self) -> u32 {
        self.upstream.interface_version()
    }

    fn create(&self, ctx: &ManagerContext) -> Result<Arc<dyn MemoryManager>> {
        Ok(Arc::new(StatisticsAdaptor::new(self.upstream.create(ctx)?)))
    }
}
