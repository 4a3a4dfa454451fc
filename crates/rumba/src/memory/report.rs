//! What memory managers report about themselves: counters ([`MemoryStats`]) and a picture of
//! the cache ([`MemorySnapshot`]: segments and the blocks they are split into).
//!
//! These are plain data with `Display` impls; resources fill them in (the capabilities
//! [`DeviceResource::statistics`](super::DeviceResource::statistics) and
//! [`CacheControl::snapshot`](super::CacheControl::snapshot)) and the CLI prints them.
//!
//! This module touches nothing: it is data only.

use std::fmt;

use crate::driver::{DevicePtr, StreamHandle};

/// Counters of a memory manager or statistics adaptor.
///
/// Byte figures count the bytes callers asked for (not rounded), except `reserved_bytes` and
/// `peak_reserved_bytes`, which count device memory the manager holds from the driver.
///
/// ```
/// let s = rumba::memory::MemoryStats::default();
/// assert_eq!(s.current_bytes, 0);
/// assert!(s.to_string().contains("current"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Bytes in live allocations.
    pub current_bytes: usize,
    /// Highest `current_bytes` seen.
    pub peak_bytes: usize,
    /// Bytes of every allocation ever made.
    pub total_bytes: u64,
    /// Number of live allocations.
    pub current_count: usize,
    /// Highest `current_count` seen.
    pub peak_count: usize,
    /// Number of allocations ever made.
    pub total_count: u64,
    /// Device memory held from the driver (in use or cached).
    pub reserved_bytes: usize,
    /// Highest `reserved_bytes` seen.
    pub peak_reserved_bytes: usize,
    /// Driver allocations (segments, for a pool) made.
    pub device_allocations: u64,
    /// Driver frees made.
    pub device_frees: u64,
    /// Allocations that succeeded only after the manager released memory and retried.
    pub retries: u64,
    /// Allocations that failed for lack of memory.
    pub ooms: u64,
}

impl MemoryStats {
    /// Records one allocation of `bytes` in the current/peak/total figures.
    ///
    /// ```
    /// let mut s = rumba::memory::MemoryStats::default();
    /// s.note_alloc(10);
    /// s.note_free(10);
    /// assert_eq!((s.current_bytes, s.peak_bytes, s.total_count), (0, 10, 1));
    /// ```
    pub fn note_alloc(&mut self, bytes: usize) {
        self.current_bytes += bytes;
        self.current_count += 1;
        self.total_bytes += bytes as u64;
        self.total_count += 1;
        self.peak_bytes = self.peak_bytes.max(self.current_bytes);
        self.peak_count = self.peak_count.max(self.current_count);
    }

    /// Records the release of an allocation of `bytes`.
    ///
    /// ```
    /// let mut s = rumba::memory::MemoryStats::default();
    /// s.note_free(5); // never underflows
    /// assert_eq!(s.current_bytes, 0);
    /// ```
    pub fn note_free(&mut self, bytes: usize) {
        self.current_bytes = self.current_bytes.saturating_sub(bytes);
        self.current_count = self.current_count.saturating_sub(1);
    }
}

impl fmt::Display for MemoryStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "allocations: {} current ({} bytes), {} peak ({} bytes), {} total ({} bytes)",
            self.current_count,
            self.current_bytes,
            self.peak_count,
            self.peak_bytes,
            self.total_count,
            self.total_bytes
        )?;
        writeln!(
            f,
            "reserved: {} bytes (peak {} bytes); device allocations {}, device frees {}",
            self.reserved_bytes,
            self.peak_reserved_bytes,
            self.device_allocations,
            self.device_frees
        )?;
        write!(f, "retries: {}, out-of-memory: {}", self.retries, self.ooms)
    }
}

/// The state of one block in a [`MemorySnapshot`].
///
/// ```
/// use rumba::memory::BlockState;
/// assert_eq!(BlockState::Free { stream: None }.to_string(), "free");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockState {
    /// Handed out for work on `stream`; `requested` is what the caller asked for.
    Allocated {
        /// Stream the block was allocated on.
        stream: StreamHandle,
        /// Bytes asked for (the block may be larger: sizes are rounded).
        requested: usize,
    },
    /// Released by its owner but held back while a `defer_cleanup` guard lives.
    Pending,
    /// Cached. `stream: Some(s)` — freed on `s` and reusable by `s` at once, by other streams only
    /// after `s` has finished the work queued before the free; `None` — reusable by any stream.
    Free {
        /// Owning stream, if any.
        stream: Option<StreamHandle>,
    },
}

impl fmt::Display for BlockState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockState::Allocated { stream, requested } => {
                write!(f, "allocated ({requested} bytes on stream {})", stream.0)
            }
            BlockState::Pending => f.write_str("pending"),
            BlockState::Free { stream: None } => f.write_str("free"),
            BlockState::Free { stream: Some(s) } => write!(f, "free (stream {})", s.0),
        }
    }
}

/// One block of a segment.
///
/// ```
/// let b = rumba::memory::BlockInfo { ptr: 0x100, size: 512, state: rumba::memory::BlockState::Pending };
/// assert_eq!(b.size, 512);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// Device address of the block.
    pub ptr: DevicePtr,
    /// Size in bytes (a multiple of the manager's granule).
    pub size: usize,
    /// In use, pending or cached.
    pub state: BlockState,
}

/// One driver allocation of a caching manager and the blocks it is split into (address order).
///
/// ```
/// let s = rumba::memory::SegmentInfo { ptr: 0x100, size: 0, blocks: vec![] };
/// assert!(s.blocks.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SegmentInfo {
    /// Device address of the segment.
    pub ptr: DevicePtr,
    /// Size in bytes.
    pub size: usize,
    /// Blocks covering the segment, in address order.
    pub blocks: Vec<BlockInfo>,
}

/// Every segment of a caching manager, with figures derived from them.
///
/// ```
/// let snap = rumba::memory::MemorySnapshot::default();
/// assert_eq!(snap.reserved(), 0);
/// assert_eq!(snap.fragmentation(), 0.0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemorySnapshot {
    /// Segments in address order.
    pub segments: Vec<SegmentInfo>,
}

impl MemorySnapshot {
    fn blocks(&self) -> impl Iterator<Item = &BlockInfo> {
        self.segments.iter().flat_map(|s| s.blocks.iter())
    }

    /// Bytes of all segments.
    ///
    /// ```
    /// assert_eq!(rumba::memory::MemorySnapshot::default().reserved(), 0);
    /// ```
    pub fn reserved(&self) -> usize {
        self.segments.iter().map(|s| s.size).sum()
    }

    /// Bytes in free (cached) blocks.
    ///
    /// ```
    /// assert_eq!(rumba::memory::MemorySnapshot::default().cached(), 0);
    /// ```
    pub fn cached(&self) -> usize {
        self.blocks()
            .filter(|b| matches!(b.state, BlockState::Free { .. }))
            .map(|b| b.size)
            .sum()
    }

    /// The largest free block.
    ///
    /// ```
    /// assert_eq!(rumba::memory::MemorySnapshot::default().largest_free_block(), 0);
    /// ```
    pub fn largest_free_block(&self) -> usize {
        self.blocks()
            .filter(|b| matches!(b.state, BlockState::Free { .. }))
            .map(|b| b.size)
            .max()
            .unwrap_or(0)
    }

    /// `1 - largest_free_block / cached` (0 when nothing is cached).
    ///
    /// ```
    /// assert_eq!(rumba::memory::MemorySnapshot::default().fragmentation(), 0.0);
    /// ```
    pub fn fragmentation(&self) -> f64 {
        fragmentation(self.largest_free_block(), self.cached())
    }
}

/// `1 - largest / cached`, or 0 when nothing is cached.
pub(crate) fn fragmentation(largest: usize, cached: usize) -> f64 {
    if cached == 0 {
        0.0
    } else {
        1.0 - largest as f64 / cached as f64
    }
}

impl fmt::Display for MemorySnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} segment(s), {} bytes reserved, {} cached, largest free block {} bytes, fragmentation {:.1}%",
            self.segments.len(),
            self.reserved(),
            self.cached(),
            self.largest_free_block(),
            self.fragmentation() * 100.0
        )?;
        for s in &self.segments {
            writeln!(
                f,
                "  segment 0x{:x}: {} bytes, {} block(s)",
                s.ptr,
                s.size,
                s.blocks.len()
            )?;
            for b in &s.blocks {
                writeln!(f, "    0x{:x} {:>12} bytes  {}", b.ptr, b.size, b.state)?;
            }
        }
        Ok(())
    }
}
