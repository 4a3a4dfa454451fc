//! The default memory manager: direct driver allocations with deferred, batched releases
//! (Numba's `NumbaCUDAMemoryManager`).
//!
//! - Device and pinned-host releases go through one [`PendingQueue`] whose limits come from the
//!   configuration: more than `max_pending_deallocs_count` items, or more than
//!   `max_pending_deallocs_ratio` × device memory bytes, triggers a flush.
//! - An allocation that fails for lack of memory flushes the queue and retries once; if it fails
//!   again the error carries requested, free, total and pending bytes.
//! - Unpinning is immediate (never queued), so pinning the same memory again always works, even
//!   under `defer_cleanup` — Numba queues it, which makes a second pin fail; we don't copy that.
//! - `reset` frees every live device allocation at once. Pinned **host** memory is not freed by a
//!   reset: safe Rust code may still hold slices into it, so it lives until its buffer is dropped.
//!
//! This module touches the driver (allocation calls) and its own bookkeeping only.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::{
    IpcHandle, ManagerContext, MemoryManager, MemoryManagerFactory, Pending, PendingQueue,
    PendingStats,
};
use crate::driver::{DevicePtr, Driver, HostAllocFlags};
use crate::error::{Error, Result};

/// The default manager (SPEC §6).
///
/// ```
/// use rumba::memory::{DefaultMemoryManager, MemoryManager};
/// let ctx = rumba::current_context().unwrap();
/// let mm = DefaultMemoryManager::new(&ctx.manager_context()).unwrap();
/// let p = mm.memalloc(100).unwrap();
/// mm.memfree(p, 100);
/// assert_eq!(mm.pending().count, 1);
/// mm.flush().unwrap();
/// assert_eq!(mm.pending().count, 0);
/// ```
pub struct DefaultMemoryManager {
    device: usize,
    driver: Arc<dyn Driver>,
    queue: PendingQueue,
    live: Mutex<HashMap<DevicePtr, usize>>,
    initialized: AtomicBool,
}

impl DefaultMemoryManager {
    /// Creates the manager for one context, with the configured pending-deallocation limits.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] or [`Error::Driver`] when the device's memory size cannot be read (the
    /// pending-bytes limit is a fraction of it).
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// assert!(rumba::memory::DefaultMemoryManager::new(&ctx.manager_context()).is_ok());
    /// ```
    pub fn new(ctx: &ManagerContext) -> Result<Self> {
        let (_, total) = ctx.driver.mem_info(ctx.device)?;
        let max_bytes = (total as f64 * ctx.config.max_pending_deallocs_ratio) as usize;
        Ok(DefaultMemoryManager {
            device: ctx.device,
            driver: Arc::clone(&ctx.driver),
            queue: PendingQueue::new(ctx.config.max_pending_deallocs_count, max_bytes),
            live: Mutex::new(HashMap::new()),
            initialized: AtomicBool::new(false),
        })
    }

    fn live(&self) -> std::sync::MutexGuard<'_, HashMap<DevicePtr, usize>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn out_of_memory(&self, requested: usize) -> Error {
        let (free, total) = self.driver.mem_info(self.device).unwrap_or((0, 0));
        Error::OutOfMemory {
            device: self.device,
            requested,
            free,
            total,
            pending: self.queue.stats().bytes,
        }
    }
}

// SAFETY: host memory comes straight from the driver's `host_alloc`, whose contract is the one
// `MemoryManager` asks for, and goes back through `host_free`.
unsafe impl MemoryManager for DefaultMemoryManager {
    fn name(&self) -> &str {
        "default"
    }

    fn initialize(&self) -> Result<()> {
        self.initialized.store(true, Ordering::SeqCst);
        Ok(())
    }

    fn memalloc(&self, bytes: usize) -> Result<DevicePtr> {
        let ptr = match self.driver.mem_alloc(self.device, bytes) {
            Ok(p) => p,
            Err(Error::OutOfMemory { .. }) => {
                if let Err(e) = self.queue.flush() {
                    tracing::warn!("flushing before an allocation retry: {e}");
                }
                match self.driver.mem_alloc(self.device, bytes) {
                    Ok(p) => p,
                    Err(Error::OutOfMemory { .. }) => return Err(self.out_of_memory(bytes)),
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        self.live().insert(ptr, bytes);
        Ok(ptr)
    }

    fn memfree(&self, ptr: DevicePtr, bytes: usize) {
        if self.live().remove(&ptr).is_none() {
            return; // already freed by a reset
        }
        let (driver, device) = (Arc::clone(&self.driver), self.device);
        self.queue.add(Pending {
            bytes,
            what: format!("device allocation 0x{ptr:x} ({bytes} bytes)"),
            release: Box::new(move || driver.mem_free(device, ptr)),
        });
    }

    fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.driver.host_alloc(self.device, bytes, flags)
    }

    unsafe fn memhostfree(&self, ptr: *mut u8, bytes: usize) {
        let driver = Arc::clone(&self.driver);
        let addr = ptr as usize;
        self.queue.add(Pending {
            bytes,
            what: format!("pinned host allocation 0x{addr:x} ({bytes} bytes)"),
            // SAFETY: the caller handed the memory back: nothing refers to it any more.
            release: Box::new(move || unsafe { driver.host_free(addr as *mut u8) }),
        });
    }

    unsafe fn mempin(&self, ptr: *mut u8, bytes: usize, flags: HostAllocFlags) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_register(self.device, ptr, bytes, flags) }
    }

    unsafe fn memunpin(&self, ptr: *mut u8) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.driver.host_unregister(ptr) }
    }

    /// Exports the allocation that holds the range, with the range's offset inside it.
    fn get_ipc_handle(&self, ptr: DevicePtr, bytes: usize) -> Result<IpcHandle> {
        let base = self
            .live()
            .iter()
            .map(|(&p, &size)| (p, size))
            .find(|&(p, size)| ptr >= p && ptr - p + bytes as u64 <= size as u64)
            .map(|(p, _)| p)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "[0x{ptr:x}, +{bytes}) is not a live allocation of this manager on device {}",
                    self.device
                ))
            })?;
        IpcHandle::export(&*self.driver, self.device, base, ptr, bytes)
    }

    fn get_memory_info(&self) -> Result<(usize, usize)> {
        self.driver.mem_info(self.device)
    }

    fn reset(&self) -> Result<()> {
        let flushed = self.queue.flush_all();
        let live: Vec<DevicePtr> = self.live().drain().map(|(p, _)| p).collect();
        let mut failures = Vec::new();
        for p in live {
            if let Err(e) = self.driver.mem_free(self.device, p) {
                failures.push(format!("device allocation 0x{p:x}: {e}"));
            }
        }
        flushed?;
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    fn defer_cleanup_enter(&self) {
        self.queue.defer();
    }

    fn defer_cleanup_exit(&self) {
        self.queue.undefer();
    }

    fn flush(&self) -> Result<()> {
        self.queue.flush()
    }

    fn pending(&self) -> PendingStats {
        self.queue.stats()
    }
}

/// Builds a [`DefaultMemoryManager`] per context; registered as `default`.
///
/// ```
/// use rumba::memory::MemoryManagerFactory;
/// let f = rumba::memory::DefaultManagerFactory;
/// assert_eq!(f.interface_version(), rumba::memory::INTERFACE_VERSION);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultManagerFactory;

impl MemoryManagerFactory for DefaultManagerFactory {
    fn name(&self) -> &str {
        "default"
    }

    fn create(&self, ctx: &ManagerContext) -> Result<Arc<dyn MemoryManager>> {
        Ok(Arc::new(DefaultMemoryManager::new(ctx)?))
    }
}
