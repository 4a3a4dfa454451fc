//! Asynchronous host → device copies from pageable memory, staged through pinned chunks with the
//! copy pipelined.
//!
//! A copy queued on a stream from pageable memory borrows its source only for the call, so the
//! bytes must be taken before the call returns (as CUDA's `cuMemcpyHtoDAsync` does from pageable
//! memory). Taking all of them first and copying afterwards costs two full passes over the data,
//! one after the other. Here the source is cut into chunks of [`CHUNK`] bytes that go through
//! [`SLOTS`] pinned blocks from the context's staging pool in turn: the calling thread copies
//! chunk k+1 into its block while the stream copies chunk k from its block to the device, so
//! the two passes overlap and the pinned memory in use stays at `SLOTS` chunks whatever the size.
//!
//! Ordering and reuse: each chunk's device copy is queued on the copy's stream, in chunk order, so
//! it runs after the work queued before the copy and before the work queued after it. A block is
//! refilled only after the event recorded behind its previous chunk's copy has completed; when
//! the call returns, each block goes back to the pool with the event of its last copy, and the
//! pool hands it out again only once that event has completed. The call returns when the last
//! chunk has been staged; the stream may still be copying the last chunks.
//!
//! Waiting for a block is bounded: the call waits only once the stream has finished the work
//! queued before the copy (an event recorded first says so), when what remains ahead of the block
//! is the copy's own chunks. While the stream is still busy with earlier work — which may itself
//! wait for something the host does after this call — the next chunk goes into one more block
//! instead, so the call never waits for earlier work, and never holds more pinned memory than the
//! copy's size (what staging it whole would take).
//!
//! Every resource (blocks and events) is taken before the first chunk is queued, so a refusal
//! leaves nothing queued. A failure after that (which the driver reports only for a stream or
//! device gone in the meantime) leaks the blocks whose copies may still run rather than let the
//! pool reuse them.
//!
//! This module touches the driver (copies and events) and the context's staging pool.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::driver::{DevicePtr, Driver, EventHandle, On, StreamHandle};
use crate::error::Result;
use crate::memory::PooledPinned;
use crate::stream::Stream;

/// Bytes per staged chunk.
pub(crate) const CHUNK: usize = 4 << 20;
/// Chunks in flight (pinned blocks) per copy.
pub(crate) const SLOTS: usize = 3;

/// One pinned block and the event recorded behind its last queued copy.
struct Slot {
    block: PooledPinned,
    event: EventHandle,
    /// A copy from the block has been queued since the event was last recorded.
    recorded: bool,
}

/// The blocks and events of one pipelined copy; gives them back on drop.
struct Slots<'a> {
    driver: &'a Arc<dyn Driver>,
    device: usize,
    /// In the order of their last use, oldest first.
    slots: VecDeque<Slot>,
    /// The event recorded before the first chunk.
    start: Option<EventHandle>,
    /// A chunk was queued and the copy did not finish its queueing: the blocks may still be
    /// read by queued work, so they are leaked, not returned.
    abandoned: bool,
}

impl Drop for Slots<'_> {
    fn drop(&mut self) {
        if let Some(e) = self.start {
            let _ = self.driver.event_destroy(self.device, e);
        }
        for slot in self.slots.drain(..) {
            if self.abandoned {
                std::mem::forget(slot.block);
                continue;
            }
            if slot.recorded {
                // The pool reuses the block once the stream has passed its last copy.
                slot.block.keep_event(slot.event);
            } else {
                let _ = self.driver.event_destroy(self.device, slot.event);
            }
        }
    }
}

/// Copies `src` to the device at `dst` in `stream`'s order, staged through pinned chunks; returns
/// once every byte of `src` has been taken.
///
/// # Errors
/// Out of pinned memory, or the event calls' errors, before anything is queued; the driver's
/// queueing errors.
///
/// # Safety
/// `dst..dst + src.len()` is device memory of `stream`'s device that stays allocated until the
/// stream has run the copy (the [device-range rule](crate::driver::Driver#device-ranges)).
pub(crate) unsafe fn upload(
    driver: &Arc<dyn Driver>,
    stream: &Stream,
    dst: DevicePtr,
    src: &[u8],
) -> Result<()> {
    let device = stream.context().device_id();
    let handle: StreamHandle = stream.handle();
    let pool = stream.context().staging_pool();
    let chunks = src.len().div_ceil(CHUNK);
    let block_len = CHUNK.min(src.len());
    let mut slots = Slots {
        driver,
        device,
        slots: VecDeque::with_capacity(SLOTS),
        start: None,
        abandoned: false,
    };
    let new_slot = || -> Result<Slot> {
        let block = pool.alloc_staging(block_len)?;
        let event = driver.event_create(device, false)?;
        Ok(Slot {
            block,
            event,
            recorded: false,
        })
    };
    for _ in 0..chunks.min(SLOTS) {
        slots.slots.push_back(new_slot()?);
    }
    // Complete once the stream has finished the work queued before this copy: from then on it
    // runs the chunks, so waiting for one of them ends.
    let start = driver.event_create(device, false)?;
    slots.start = Some(start);
    driver.event_record(device, start, handle)?;
    for (k, piece) in src.chunks(CHUNK).enumerate() {
        let mut slot = match slots.slots.pop_front() {
            Some(s) => s,
            None => new_slot()?, // (unreachable: there is at least one slot)
        };
        if slot.recorded && !driver.event_query(device, slot.event).unwrap_or(false) {
            let started = driver.event_query(device, start).unwrap_or(false);
            // Still behind earlier work (which may wait for the host): never wait for it here,
            // stage into one more block instead, as much pinned memory at most as the copy.
            let extra = if started { None } else { new_slot().ok() };
            match extra {
                Some(fresh) => slots.slots.push_front(std::mem::replace(&mut slot, fresh)),
                None => {
                    if let Err(e) = driver.event_synchronize(device, slot.event) {
                        slots.slots.push_back(slot);
                        slots.abandoned = true;
                        return Err(e);
                    }
                }
            }
        }
        slot.block[..piece.len()].copy_from_slice(piece);
        let to: DevicePtr = dst + (k * CHUNK) as u64;
        let from = std::ptr::slice_from_raw_parts(slot.block.as_ptr(), piece.len());
        // SAFETY: the device range lies inside the caller's (`upload`'s contract); the block is
        // pinned memory of the staging pool that nothing else uses, and it is not written again
        // before the event recorded below has completed, nor reused by the pool before then.
        let queued = unsafe { driver.memcpy_htod(On::stream(device, handle), to, from) };
        if let Err(e) = queued {
            slots.slots.push_back(slot);
            slots.abandoned = k > 0;
            return Err(e);
        }
        slot.recorded = true; // (the copy is queued: the block must not be reused before it ran)
        let recorded = driver.event_record(device, slot.event, handle);
        slots.slots.push_back(slot);
        if let Err(e) = recorded {
            slots.abandoned = true;
            return Err(e);
        }
    }
    Ok(())
}
