//! The deferred-deallocation adaptor (docs/design/behaviour.md §6; Numba's `_PendingDeallocs` in
//! `NumbaCUDAMemoryManager`). Over a [`DriverResource`](super::DriverResource) it is the
//! `default` memory manager.
//!
//! - Device and pinned-host releases go through one [`PendingQueue`] whose limits come from the
//!   configuration: more than `max_pending_deallocs_count` items, or more than
//!   `max_pending_deallocs_ratio` × device memory bytes, triggers a flush.
//! - An allocation that fails for lack of memory flushes the queue and retries once; if it fails
//!   again the error carries requested, free, total and pending bytes.
//! - `reset` carries out every held-back release (deferred or not), then resets the upstream.
//!   Pinned **host** memory is not freed by a reset: safe Rust code may still hold slices into it,
//!   so it lives until its buffer is dropped.
//!
//! This module touches its queue and the resources it wraps only.

use std::sync::Arc;

use super::history::{self, ChainCell, EventKind, Note};
use super::{
    Deferral, DeviceBlock, DeviceResource, HostBlock, HostResource, ManagerContext, Pending,
    PendingQueue, PendingStats, ResetToken,
};
use crate::driver::{HostAllocFlags, StreamHandle};
use crate::error::{Error, Result};

/// Holds releases back in a queue and carries them out in batches (docs/design/behaviour.md §6). It
/// adapts a device resource and a host resource, which share the queue.
///
/// - More than `max_pending_deallocs_count` held-back releases, or more than
///   `max_pending_deallocs_ratio` × device memory bytes, flush the queue (the crossing release
///   with the rest).
/// - An allocation that fails for lack of memory flushes the queue and retries once; if it fails
///   again the error carries requested, free, total and pending bytes.
/// - While a [`defer`](Deferral::defer) lasts nothing is released; a failed release is reported
///   by the flush that ran it ([`Error::DeallocationFailed`]) and not retried.
/// - [`reset`](DeviceResource::reset) carries out every held-back release, deferred or not, then
///   resets the upstream.
///
/// ```
/// use std::sync::Arc;
/// use rumba::memory::{DeferredAdaptor, DeviceResource, DriverHostResource, DriverResource};
/// let ctx = rumba::current_context().unwrap();
/// let (d, drv) = (ctx.device_id(), ctx.driver().clone());
/// let mm = DeferredAdaptor::with_limits(
///     Arc::new(DriverResource::new(d, drv.clone())),
///     Arc::new(DriverHostResource::new(d, drv)),
///     10,
///     usize::MAX,
/// );
/// mm.deallocate_sync(mm.allocate_sync(100).unwrap()).unwrap();
/// assert_eq!(mm.deferral().unwrap().pending().count, 1);
/// mm.deferral().unwrap().flush().unwrap();
/// assert_eq!(mm.deferral().unwrap().pending().count, 0);
/// ```
pub struct DeferredAdaptor {
    upstream: Arc<dyn DeviceResource>,
    host: Arc<dyn HostResource>,
    queue: PendingQueue,
    /// Its chain in the memory history, walked once.
    history: ChainCell,
}

impl DeferredAdaptor {
    /// Wraps `upstream` and `host` with the configured pending-deallocation limits of `ctx`.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] or [`Error::Driver`] when the device's memory size cannot be read (the
    /// pending-bytes limit is a fraction of it).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let mc = ctx.manager_context();
    /// let mm = rumba::memory::DeferredAdaptor::new(&mc, mc.device_upstream(), mc.host_upstream());
    /// assert!(mm.is_ok());
    /// ```
    pub fn new(
        ctx: &ManagerContext,
        upstream: Arc<dyn DeviceResource>,
        host: Arc<dyn HostResource>,
    ) -> Result<Self> {
        let (_, total) = ctx.driver.mem_info(ctx.device)?;
        let max_bytes = (total as f64 * ctx.config.max_pending_deallocs_ratio) as usize;
        Ok(Self::with_limits(
            upstream,
            host,
            ctx.config.max_pending_deallocs_count,
            max_bytes,
        ))
    }

    /// Wraps `upstream` and `host`, flushing when more than `max_count` releases or more than
    /// `max_bytes` bytes are held back.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use rumba::memory::{DeferredAdaptor, DeviceResource, DriverHostResource, DriverResource};
    /// let ctx = rumba::current_context().unwrap();
    /// let drv = ctx.driver().clone();
    /// let mm = DeferredAdaptor::with_limits(Arc::new(DriverResource::new(0, drv.clone())),
    ///     Arc::new(DriverHostResource::new(0, drv)), 1, usize::MAX);
    /// mm.deallocate_sync(mm.allocate_sync(1).unwrap()).unwrap();
    /// mm.deallocate_sync(mm.allocate_sync(1).unwrap()).unwrap(); // the second crosses the limit
    /// assert_eq!(mm.deferral().unwrap().pending().count, 0);
    /// ```
    pub fn with_limits(
        upstream: Arc<dyn DeviceResource>,
        host: Arc<dyn HostResource>,
        max_count: usize,
        max_bytes: usize,
    ) -> Self {
        DeferredAdaptor {
            upstream,
            host,
            queue: PendingQueue::new(max_count, max_bytes),
            history: ChainCell::new(),
        }
    }

    fn out_of_memory(&self, err: Error, requested: usize) -> Error {
        match err {
            Error::OutOfMemory { device, .. } => {
                let (free, total) = self.upstream.memory_info().unwrap_or((0, 0));
                Error::OutOfMemory {
                    device,
                    requested,
                    free,
                    total,
                    pending: self.queue.stats().bytes,
                }
            }
            other => other,
        }
    }
}

impl DeviceResource for DeferredAdaptor {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        match self.upstream.allocate(bytes, stream) {
            Err(e) if e.is_out_of_memory() => {
                if let Err(e) = self.queue.flush() {
                    // Reported by the next flush (the allocation has no place for it).
                    tracing::warn!("flushing before an allocation retry: {e}");
                    self.queue.keep(e);
                }
                self.upstream
                    .allocate(bytes, stream)
                    .map_err(|e| self.out_of_memory(e, bytes))
            }
            other => other,
        }
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        let upstream = Arc::clone(&self.upstream);
        let (bytes, ptr) = (block.len(), block.ptr());
        if history::is_recording() {
            let kind = if self.queue.is_deferred() {
                EventKind::FreeDeferred
            } else {
                EventKind::FreeQueued
            };
            let note = Note::new(kind, block.device(), stream, bytes, ptr);
            history::note(note, Some((self, &self.history)));
        }
        self.queue.add(Pending {
            bytes,
            what: format!("device allocation 0x{ptr:x} ({bytes} bytes)"),
            release: Box::new(move || upstream.deallocate(block, stream)),
        })
    }

    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }

    fn deferral(&self) -> Option<&dyn Deferral> {
        Some(self)
    }

    fn reset(&self, token: &ResetToken) -> Result<()> {
        let flushed = self.queue.flush_all();
        let reset = self.upstream.reset(token);
        flushed.and(reset)
    }
}

impl HostResource for DeferredAdaptor {
    fn allocate(&self, bytes: usize, flags: HostAllocFlags) -> Result<HostBlock> {
        self.host.allocate(bytes, flags)
    }

    fn deallocate(&self, block: HostBlock) -> Result<()> {
        let host = Arc::clone(&self.host);
        let (bytes, addr) = (block.len(), block.as_ptr() as usize);
        self.queue.add(Pending {
            bytes,
            what: format!("pinned host allocation 0x{addr:x} ({bytes} bytes)"),
            release: Box::new(move || host.deallocate(block)),
        })
    }

    fn empty_cache(&self) -> usize {
        self.host.empty_cache()
    }
}

impl Deferral for DeferredAdaptor {
    fn flush(&self) -> Result<()> {
        self.queue.flush()
    }

    fn pending(&self) -> PendingStats {
        self.queue.stats()
    }

    fn defer(&self) {
        self.queue.defer();
    }

    fn undefer(&self) {
        self.queue.undefer();
    }
}
