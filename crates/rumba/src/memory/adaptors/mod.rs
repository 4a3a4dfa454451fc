//! Composable adaptors in the style of RMM's resource adaptors: each wraps any
//! `Arc<dyn DeviceResource>`, adds one concern, and is itself a
//! [`DeviceResource`](super::DeviceResource), so they stack. Each implements `allocate`,
//! `deallocate` and `upstream`, plus the one capability it adds; the rest are found upstream.
//!
//! - [`StatisticsAdaptor`]: current / peak / total bytes and counts, and out-of-memory failures.
//! - [`LimitingAdaptor`]: refuses allocations that would take the bytes handed out through it
//!   above a limit.
//! - [`FailureCallbackAdaptor`]: on out-of-memory, calls a function of the program that may free
//!   or spill memory and ask for a retry (at most N times).
//! - [`DeferredAdaptor`](super::DeferredAdaptor) (docs/design/behaviour.md §6) and
//!   [`PoolResource`](super::PoolResource) are adaptors too, over their upstream.
//!
//! [`StatisticsFactory`] wraps a factory's managers the same way, for installation with
//! [`set_memory_manager`](super::set_memory_manager).
//!
//! This module touches only the resources it wraps.
//!
//! ```
//! use std::sync::Arc;
//! use rumba::memory::{DeviceResource, LimitingAdaptor, PoolResource, StatisticsAdaptor};
//! let ctx = rumba::current_context().unwrap();
//! let pool = Arc::new(PoolResource::new(&ctx.manager_context()).unwrap());
//! let mm = StatisticsAdaptor::new(Arc::new(LimitingAdaptor::new(pool, 0, Some(1 << 20))));
//! let p = mm.allocate_sync(1000).unwrap();
//! assert!(mm.allocate_sync(1 << 20).is_err()); // over the limit
//! mm.deallocate_sync(p).unwrap();
//! let s = mm.statistics().unwrap();
//! assert_eq!((s.total_count, s.ooms, s.current_bytes), (1, 1, 0));
//! ```

mod failure;
mod limit;
mod stats;

pub use failure::{FailedAllocation, FailureCallbackAdaptor, OnFailure};
pub use limit::LimitingAdaptor;
pub use stats::{StatisticsAdaptor, StatisticsFactory};
