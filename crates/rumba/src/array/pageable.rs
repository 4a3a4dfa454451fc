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
//! chunk has been staged; the stream may still be copying the last `SLOTS` chunks.
//!
//! Every resource (blocks and events) is taken before the first chunk is queued, so a refusal
//! leaves nothing queued. A failure after that (which the driver reports only for a stream or
//! device gone in the meantime) leaks the blocks whose copies may still run rather than let the
//! pool reuse them.
//!
//! This module touches the driver (copies and events) and the context's staging pool.

use std::sync::Arc;

use crate::driver::{DevicePtr, Driver, EventHandle, StreamHandle};
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
    slots: Vec<Slot>,
    /// A chunk was queued and the copy did not finish its queueing: the blocks may still be
    /// read by queued work, so they are leaked, not returned.
    abandoned: bool,
}

impl Drop for Slots<'_> {
    fn drop(&mut self) {
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
        slots: Vec::with_capacity(SLOTS),
        abandoned: false,
    };
    for _ in 0..chunks.min(SLOTS) {
        let block = pool.alloc_staging(block_len)?;
        let event = driver.event_create(device, false)?;
        slots.slots.push(Slot {
            block,
            event,
            recorded: false,
        });
    }
    let n = slots.slots.len();
    for (k, piece) in src.chunks(CHUNK).enumerate() {
        let slot = &mut slots.slots[k % n];
        if slot.recorded {
            if let Err(e) = driver.event_synchronize(device, slot.event) {
                slots.abandoned = true;
                return Err(e);
            }
        }
        slot.block[..piece.len()].copy_from_slice(piece);
        let to: DevicePtr = dst + (k * CHUNK) as u64;
        // SAFETY: the device range lies inside the caller's (`upload`'s contract); the block is
        // pinned memory of the staging pool that nothing else uses, and it is not written again
        // before the event recorded below has completed, nor reused by the pool before then.
        let queued = unsafe {
            driver.memcpy_htod_async(device, to, slot.block.as_ptr(), piece.len(), handle)
        };
        if let Err(e) = queued {
            slots.abandoned = k > 0;
            return Err(e);
        }
        slot.recorded = true; // (the copy is queued: the block must not be reused before it ran)
        if let Err(e) = driver.event_record(device, slot.event, handle) {
            slots.abandoned = true;
            return Err(e);
        }
    }
    Ok(())
}
