//! Segments from the upstream and back, without holding the pool's lock across the upstream's
//! calls.
//!
//! The upstream may be a program's own [`DeviceResource`] that asks for the pool's statistics or
//! snapshot (`rumba::memory_stats()` from its `allocate`): with the lock held across the call,
//! that deadlocked. So growing takes the sizes to try under the lock, calls the upstream without
//! it, and adds the segment under it again; giving segments back takes them out of the arena
//! under the lock and hands them to the upstream after. A segment in transit is in neither state
//! nor arena, so no other thread can carve it or give it back twice.
//!
//! This module touches the upstream resource only.

use std::sync::MutexGuard;

use super::{PoolResource, PoolState};
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::{Error, ResourceError, Result};
use crate::memory::DeviceBlock;
use crate::memory::history::{self, EventKind};
use crate::memory::resource::driver_id;

/// A segment taken out of the pool, on its way back upstream: (address, size, block).
pub(super) type Outgoing = Vec<(DevicePtr, usize, DeviceBlock)>;

impl PoolResource {
    /// The segment sizes to ask the upstream for, best first, for a request of `size` bytes
    /// (`exact`: only `size`).
    fn growth_sizes(&self, st: &PoolState, size: usize, exact: bool) -> Vec<usize> {
        let reserved = st.arena.reserved();
        let headroom = self.upstream.limiter().map_or(usize::MAX, |l| l.headroom());
        if headroom < size {
            return Vec::new();
        }
        let aligned = size
            .checked_next_multiple_of(self.options.min_segment)
            .unwrap_or(size);
        let growth = reserved.clamp(self.options.min_segment, self.options.max_growth);
        let mut tries = if exact {
            vec![size]
        } else {
            vec![aligned.max(growth), aligned, size]
        };
        tries.dedup();
        tries
            .into_iter()
            .map(|w| w.min(headroom).max(size))
            .collect()
    }

    /// Asks the upstream for the first of `sizes` it grants (the pool's lock not held).
    /// `Ok(None)`: every size was refused for lack of memory.
    fn fetch_segment(&self, sizes: &[usize]) -> Result<Option<(DeviceBlock, usize)>> {
        for &want in sizes {
            // The pool's own traffic upstream is not the program's: the history shows growth.
            match history::quiet(|| self.upstream.allocate_sync(want)) {
                Ok(block) => {
                    if block.len() < want
                        || block.device() != self.device
                        || block.origin().driver() != driver_id(&self.driver)
                        || block.origin().is_retired()
                    {
                        // A segment the pool cannot carve safely: give it back, use none of it.
                        let (len, device) = (block.len(), block.device());
                        let back = history::quiet(|| self.upstream.deallocate_sync(block));
                        return Err(ResourceError::WrongBlock {
                            manager: "the pool's upstream".into(),
                            len,
                            device,
                            requested: want,
                            expected_device: self.device,
                            give_back: back.err().map(|e| e.to_string()),
                        }
                        .into());
                    }
                    return Ok(Some((block, want)));
                }
                Err(e) if e.is_out_of_memory() => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Grows the pool by a segment able to hold `size` bytes and takes the request from it;
    /// `None` when the upstream (or its limit) refused. The lock is released while the upstream
    /// works and held again on return.
    pub(super) fn grow_and_take<'a>(
        &'a self,
        st: MutexGuard<'a, PoolState>,
        size: usize,
        stream: StreamHandle,
        bytes: usize,
        own: Option<u64>,
        exact: bool,
    ) -> Result<(MutexGuard<'a, PoolState>, Option<DevicePtr>)> {
        let sizes = self.growth_sizes(&st, size, exact);
        if sizes.is_empty() {
            return Ok((st, None));
        }
        drop(st);
        let fetched = self.fetch_segment(&sizes)?;
        let mut st = crate::sync::lock(&self.state);
        let Some((block, want)) = fetched else {
            return Ok((st, None));
        };
        let ptr = block.ptr();
        st.arena.add_segment(ptr, want);
        st.segments.insert(ptr, block);
        st.stats.device_allocations += 1;
        st.stats.reserved_bytes = st.arena.reserved();
        st.stats.peak_reserved_bytes = st.stats.peak_reserved_bytes.max(st.stats.reserved_bytes);
        self.note(
            &mut st,
            EventKind::PoolGrow,
            StreamHandle::LEGACY,
            want,
            ptr,
        );
        // The new segment may serve the stream's own cached blocks first; either way it fits.
        let found = Self::take(&mut st, size, stream, bytes, own);
        Ok((st, found))
    }

    /// Gives every segment that holds no block in use back upstream (without the lock); the
    /// lock again and the bytes given back, or the failures.
    pub(super) fn give_back_free_segments<'a>(
        &'a self,
        mut st: MutexGuard<'a, PoolState>,
    ) -> (MutexGuard<'a, PoolState>, Result<usize>) {
        let outgoing: Outgoing = st
            .arena
            .take_free_segments()
            .into_iter()
            .filter_map(|(ptr, size)| st.segments.remove(&ptr).map(|b| (ptr, size, b)))
            .collect();
        st.stats.reserved_bytes = st.arena.reserved();
        if outgoing.is_empty() {
            return (st, Ok(0));
        }
        drop(st);
        let (freed, failures) = self.give_back(outgoing);
        let mut st = crate::sync::lock(&self.state);
        st.stats.device_frees += freed.len() as u64;
        for &(ptr, size) in &freed {
            self.note(
                &mut st,
                EventKind::PoolTrim,
                StreamHandle::LEGACY,
                size,
                ptr,
            );
        }
        let bytes = freed.iter().map(|(_, size)| size).sum();
        if failures.is_empty() {
            (st, Ok(bytes))
        } else {
            (st, Err(Error::DeallocationFailed(failures)))
        }
    }

    /// Hands segments taken out of the pool to the upstream (the pool's lock not held); the
    /// segments freed (address, size) and the failures.
    pub(super) fn give_back(&self, outgoing: Outgoing) -> (Vec<(DevicePtr, usize)>, Vec<String>) {
        let (mut freed, mut failures) = (Vec::new(), Vec::new());
        for (ptr, size, block) in outgoing {
            match history::quiet(|| self.upstream.deallocate_sync(block)) {
                Ok(()) => freed.push((ptr, size)),
                Err(e) => failures.push(format!("pool segment 0x{ptr:x} ({size} bytes): {e}")),
            }
        }
        (freed, failures)
    }
}
