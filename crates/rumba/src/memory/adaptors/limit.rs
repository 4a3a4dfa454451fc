//! The limiting adaptor: caps the bytes handed out through it — the one place a memory limit
//! lives. `RUMBA_MEMORY_LIMIT` ([`Config::memory_limit`](crate::Config::memory_limit)) sets the
//! limit of the adaptor every built-in manager has directly over the driver
//! ([`ManagerContext::device_upstream`]), so it caps the device memory a manager holds, cached or
//! in use; [`set_limit`](LimitingAdaptor::set_limit) changes it later.
//!
//! An allocation that would take the live bytes above the limit is refused with
//! [`Error::OutOfMemory`] whose `total` is the limit and whose `free` is what is left under it;
//! the upstream is not asked.
//!
//! This module touches only the resource it wraps.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::driver::StreamHandle;
use crate::error::{Error, Result};
use crate::memory::{DeviceBlock, DeviceResource, ManagerContext, ResetToken};

/// Wraps a device resource and refuses allocations above a byte limit.
///
/// ```
/// use rumba::memory::{DeviceResource, LimitingAdaptor};
/// let ctx = rumba::current_context().unwrap();
/// let mm = LimitingAdaptor::new(ctx.memory_manager().device_resource().clone(), 0, Some(1000));
/// let p = mm.allocate_sync(600).unwrap();
/// let err = mm.allocate_sync(600).unwrap_err();
/// assert!(matches!(err, rumba::Error::OutOfMemory { requested: 600, free: 400, total: 1000, .. }));
/// mm.deallocate_sync(p).unwrap();
/// assert_eq!(mm.used(), 0);
/// ```
pub struct LimitingAdaptor {
    upstream: Arc<dyn DeviceResource>,
    device: usize,
    /// `usize::MAX`: no limit.
    limit: AtomicUsize,
    used: AtomicUsize,
}

impl LimitingAdaptor {
    /// Wraps `upstream` (serving `device`) with a limit of `limit` bytes (`None`: no limit yet).
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, Some(1 << 20));
    /// assert_eq!(mm.limit(), Some(1 << 20));
    /// ```
    pub fn new(upstream: Arc<dyn DeviceResource>, device: usize, limit: Option<usize>) -> Self {
        LimitingAdaptor {
            upstream,
            device,
            limit: AtomicUsize::new(limit.unwrap_or(usize::MAX)),
            used: AtomicUsize::new(0),
        }
    }

    /// The limit of `ctx`'s configuration (`RUMBA_MEMORY_LIMIT`) over `upstream`.
    pub(crate) fn configured(ctx: &ManagerContext, upstream: Arc<dyn DeviceResource>) -> Self {
        Self::new(upstream, ctx.device, ctx.config.memory_limit)
    }

    /// The limit in bytes (`None`: no limit).
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, None);
    /// assert_eq!(mm.limit(), None);
    /// ```
    pub fn limit(&self) -> Option<usize> {
        match self.limit.load(Ordering::SeqCst) {
            usize::MAX => None,
            l => Some(l),
        }
    }

    /// Changes the limit (`None`: no limit). Memory already handed out stays; a limit below it
    /// refuses every allocation until enough is given back.
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// let mm = LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, Some(5));
    /// mm.set_limit(Some(7));
    /// assert_eq!(mm.limit(), Some(7));
    /// ```
    pub fn set_limit(&self, limit: Option<usize>) {
        self.limit
            .store(limit.unwrap_or(usize::MAX), Ordering::SeqCst);
    }

    /// Bytes handed out through the adaptor and not yet given back.
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, Some(5)).used(), 0);
    /// ```
    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }

    /// Bytes that may still be allocated under the limit (`usize::MAX` without one).
    ///
    /// ```
    /// use rumba::memory::LimitingAdaptor;
    /// let ctx = rumba::current_context().unwrap();
    /// assert_eq!(LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, Some(5)).headroom(), 5);
    /// ```
    pub fn headroom(&self) -> usize {
        self.limit
            .load(Ordering::SeqCst)
            .saturating_sub(self.used())
    }
}

impl DeviceResource for LimitingAdaptor {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        let limit = self.limit.load(Ordering::SeqCst);
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
                pending: self.deferral().map_or(0, |d| d.pending().bytes),
            });
        }
        let r = self.upstream.allocate(bytes, stream);
        match &r {
            // `deallocate` gives back the block's length: count a larger block's extra bytes too.
            Ok(block) if block.len() > bytes => {
                self.used.fetch_add(block.len() - bytes, Ordering::SeqCst);
            }
            // ... and a smaller block's missing bytes not (the manager refuses it, but whoever
            // gives it back gives back only its length).
            Ok(block) if block.len() < bytes => self.give_back(bytes - block.len()),
            Ok(_) => {}
            Err(_) => self.give_back(bytes),
        }
        r
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        // A block handed out before a reset was counted off by it already.
        if !block.origin().is_retired() {
            self.give_back(block.len());
        }
        self.upstream.deallocate(block, stream)
    }

    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }

    fn description(&self) -> String {
        match self.limit.load(Ordering::SeqCst) {
            usize::MAX => "LimitingAdaptor (no limit)".into(),
            n => format!("LimitingAdaptor ({n} bytes)"),
        }
    }

    fn limiter(&self) -> Option<&LimitingAdaptor> {
        Some(self)
    }

    /// The upstream's figures, capped by the limit when there is one.
    fn memory_info(&self) -> Result<(usize, usize)> {
        let up = self.upstream.memory_info();
        match (self.limit(), up) {
            (None, up) => up,
            (Some(limit), Ok((free, total))) => Ok((free.min(self.headroom()), total.min(limit))),
            (Some(limit), Err(_)) => Ok((self.headroom(), limit)),
        }
    }

    fn reset(&self, token: &ResetToken) -> Result<()> {
        self.used.store(0, Ordering::SeqCst);
        self.upstream.reset(token)
    }
}

impl LimitingAdaptor {
    fn give_back(&self, bytes: usize) {
        let _ = self
            .used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |u| {
                Some(u.saturating_sub(bytes))
            });
    }
}
