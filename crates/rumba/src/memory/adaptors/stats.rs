//! The statistics adaptor: counts what passes through it.
//!
//! Current / peak / total bytes and counts and out-of-memory failures are counted here; driver
//! figures (reserved bytes, device allocations and frees, retries) are taken from the upstream
//! chain when a resource there reports them.
//!
//! This module touches only the resource it wraps.

use std::sync::{Arc, Mutex};

use crate::driver::StreamHandle;
use crate::error::Result;
use crate::memory::{
    DeviceBlock, DeviceResource, ManagerContext, MemoryManager, MemoryManagerFactory, MemoryStats,
    ResetToken,
};
use crate::sync::lock;

/// Wraps a device resource and counts its allocations.
///
/// ```
/// use rumba::memory::{DeviceResource, StatisticsAdaptor};
/// let ctx = rumba::current_context().unwrap();
/// let mm = StatisticsAdaptor::new(ctx.manager_context().device_upstream());
/// let a = mm.allocate_sync(10).unwrap();
/// let b = mm.allocate_sync(20).unwrap();
/// mm.deallocate_sync(a).unwrap();
/// let s = mm.statistics().unwrap();
/// assert_eq!((s.current_bytes, s.peak_bytes, s.total_bytes), (20, 30, 30));
/// assert_eq!((s.current_count, s.peak_count, s.total_count), (1, 2, 2));
/// mm.deallocate_sync(b).unwrap();
/// ```
pub struct StatisticsAdaptor {
    upstream: Arc<dyn DeviceResource>,
    stats: Mutex<MemoryStats>,
}

impl StatisticsAdaptor {
    /// Wraps `upstream`.
    ///
    /// ```
    /// use rumba::memory::{DeviceResource, StatisticsAdaptor};
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = StatisticsAdaptor::new(ctx.memory_manager().device_resource().clone());
    /// assert_eq!(mm.statistics().unwrap().total_count, 0);
    /// ```
    pub fn new(upstream: Arc<dyn DeviceResource>) -> Self {
        StatisticsAdaptor {
            upstream,
            stats: Mutex::new(MemoryStats::default()),
        }
    }
}

impl DeviceResource for StatisticsAdaptor {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        let r = self.upstream.allocate(bytes, stream);
        let mut s = lock(&self.stats);
        match &r {
            // The block's length, which `deallocate` subtracts again (rumba's resources hand
            // out blocks of exactly the bytes asked for).
            Ok(block) => s.note_alloc(block.len()),
            Err(e) if e.is_out_of_memory() => s.ooms += 1,
            Err(_) => {}
        }
        r
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        // A block handed out before a reset was counted off by it already.
        if !block.origin().is_retired() {
            lock(&self.stats).note_free(block.len());
        }
        self.upstream.deallocate(block, stream)
    }

    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }

    fn statistics(&self) -> Option<MemoryStats> {
        let mut s = *lock(&self.stats);
        if let Some(up) = self.upstream.statistics() {
            s.reserved_bytes = up.reserved_bytes;
            s.peak_reserved_bytes = up.peak_reserved_bytes;
            s.device_allocations = up.device_allocations;
            s.device_frees = up.device_frees;
            s.retries = up.retries;
        }
        Some(s)
    }

    fn reset(&self, token: &ResetToken) -> Result<()> {
        {
            let mut s = lock(&self.stats);
            s.current_bytes = 0;
            s.current_count = 0;
        }
        self.upstream.reset(token)
    }
}

/// Wraps the device resource of every manager another factory builds in a [`StatisticsAdaptor`].
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

    fn create(&self, ctx: &ManagerContext) -> Result<MemoryManager> {
        let inner = self.upstream.create(ctx)?;
        let name = format!("statistics({})", inner.name());
        let device: Arc<dyn DeviceResource> =
            Arc::new(StatisticsAdaptor::new(Arc::clone(inner.device_resource())));
        Ok(MemoryManager::new(
            name,
            ctx,
            device,
            Arc::clone(inner.host_resource()),
        ))
    }
}
