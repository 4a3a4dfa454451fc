//! The figures of a caching manager's out-of-memory failure ([`OomReport`]), carried by
//! [`Error::PoolOutOfMemory`](super::Error::PoolOutOfMemory).

use std::fmt;

/// The figures of a caching manager's out-of-memory failure.
///
/// `fragmentation` is `1 - largest_free_block / cached` (0 when nothing is cached): the share of
/// cached memory that cannot serve a request as large as the largest free block.
///
/// ```
/// let r = rumba::error::OomReport {
///     device: 0, manager: "pool".into(), requested: 4096, allocated: 1024, reserved: 2048,
///     cached: 1024, free: 0, total: 2048, largest_free_block: 512, fragmentation: 0.5,
///     pending: 0, limit: None,
/// };
/// let msg = rumba::Error::PoolOutOfMemory(Box::new(r)).to_string();
/// assert!(msg.contains("requested 4096 bytes") && msg.contains("fragmentation 50.0%"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OomReport {
    /// Device ordinal.
    pub device: usize,
    /// Name of the manager that failed.
    pub manager: String,
    /// Bytes asked for.
    pub requested: usize,
    /// Bytes in live blocks (handed out and not yet returned).
    pub allocated: usize,
    /// Bytes the manager holds from the device (segments), in use or cached.
    pub reserved: usize,
    /// Bytes reserved but not in use (free blocks in the manager's cache).
    pub cached: usize,
    /// Free bytes on the device.
    pub free: usize,
    /// Total bytes on the device.
    pub total: usize,
    /// The largest free block in the cache.
    pub largest_free_block: usize,
    /// `1 - largest_free_block / cached`, from 0 (one free block) towards 1 (many small ones).
    pub fragmentation: f64,
    /// Bytes released but held back: a `defer_cleanup` guard is alive, or queued work still
    /// holds them (see [`Context::memalloc`](crate::Context::memalloc)).
    pub pending: usize,
    /// The manager's limit on reserved bytes, if any.
    pub limit: Option<usize>,
}

impl fmt::Display for OomReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out of memory on device {} in memory manager '{}': requested {} bytes; {} bytes allocated, {} bytes reserved ({} cached), {} bytes free of {} total on the device, largest free block {} bytes, fragmentation {:.1}%, {} bytes pending deallocation",
            self.device,
            self.manager,
            self.requested,
            self.allocated,
            self.reserved,
            self.cached,
            self.free,
            self.total,
            self.largest_free_block,
            self.fragmentation * 100.0,
            self.pending,
        )?;
        if let Some(limit) = self.limit {
            write!(f, ", limit {limit} bytes")?;
        }
        Ok(())
    }
}
