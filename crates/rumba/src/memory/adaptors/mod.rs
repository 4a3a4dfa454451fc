//! Composable adaptors in the style of RMM's resource adaptors: each wraps any
//! `Arc<dyn MemoryManager>` and adds one concern, and is itself a [`MemoryManager`](super::MemoryManager), so they stack.
//!
//! - [`StatisticsAdaptor`]: current / peak / total bytes and counts, and out-of-memory failures.
//! - [`LimitingAdaptor`]: refuses allocations that would take the bytes handed out through it
//!   above a limit.
//!
//! Factories ([`StatisticsFactory`], [`LimitingFactory`]) wrap a factory the same way, for
//! installation with [`set_memory_manager`](super::set_memory_manager).
//!
//! This module touches only the managers it wraps.
//!
//! ```
//! use std::sync::Arc;
//! use rumba::memory::{LimitingAdaptor, MemoryManager, PoolMemoryManager, StatisticsAdaptor};
//! let ctx = rumba::current_context().unwrap();
//! let pool = Arc::new(PoolMemoryManager::new(&ctx.manager_context()).unwrap());
//! let mm = StatisticsAdaptor::new(Arc::new(LimitingAdaptor::new(pool, 0, 1 << 20)));
//! let p = mm.memalloc(1000).unwrap();
//! assert!(mm.memalloc(1 << 20).is_err()); // over the limit
//! mm.memfree(p, 1000);
//! let s = mm.memory_stats().unwrap();
//! assert_eq!((s.total_count, s.ooms, s.current_bytes), (1, 1, 0));
//! ```

mod limit;
mod stats;

pub use limit::{LimitingAdaptor, LimitingFactory};
pub use stats::{StatisticsAdaptor, StatisticsFactory};

/// Implements the [`MemoryManager`](super::MemoryManager) methods an adaptor does not change by
/// forwarding them to `self.upstream`.
macro_rules! forward_to_upstream {
    () => {
        fn initialize(&self) -> $crate::error::Result<()> {
            self.upstream.initialize()
        }
        fn memhostalloc(
            &self,
            bytes: usize,
            flags: $crate::driver::HostAllocFlags,
        ) -> $crate::error::Result<*mut u8> {
            self.upstream.memhostalloc(bytes, flags)
        }
        unsafe fn memhostfree(&self, ptr: *mut u8, bytes: usize) {
            // SAFETY: forwarded from the caller's contract.
            unsafe { self.upstream.memhostfree(ptr, bytes) }
        }
        unsafe fn mempin(
            &self,
            ptr: *mut u8,
            bytes: usize,
            flags: $crate::driver::HostAllocFlags,
        ) -> $crate::error::Result<()> {
            // SAFETY: forwarded from the caller's contract.
            unsafe { self.upstream.mempin(ptr, bytes, flags) }
        }
        unsafe fn memunpin(&self, ptr: *mut u8) -> $crate::error::Result<()> {
            // SAFETY: forwarded from the caller's contract.
            unsafe { self.upstream.memunpin(ptr) }
        }
        fn get_ipc_handle(
            &self,
            ptr: $crate::driver::DevicePtr,
            bytes: usize,
        ) -> $crate::error::Result<$crate::memory::IpcHandle> {
            self.upstream.get_ipc_handle(ptr, bytes)
        }
        fn get_memory_info(&self) -> $crate::error::Result<(usize, usize)> {
            self.upstream.get_memory_info()
        }
        fn defer_cleanup_enter(&self) {
            self.upstream.defer_cleanup_enter()
        }
        fn defer_cleanup_exit(&self) {
            self.upstream.defer_cleanup_exit()
        }
        fn flush(&self) -> $crate::error::Result<()> {
            self.upstream.flush()
        }
        fn pending(&self) -> $crate::memory::PendingStats {
            self.upstream.pending()
        }
        fn memory_snapshot(&self) -> $crate::error::Result<$crate::memory::MemorySnapshot> {
            self.upstream.memory_snapshot()
        }
        fn empty_cache(&self) -> $crate::error::Result<()> {
            self.upstream.empty_cache()
        }
    };
}
pub(crate) use forward_to_upstream;
