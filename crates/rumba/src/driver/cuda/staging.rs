//! Page-locked staging for uploads from pageable memory on a stream.
//!
//! CUDA performs `cuMemcpyHtoDAsync` from pageable memory by first *waiting for the stream* and
//! then copying through its own staging buffer: the call returns only once the stream has reached
//! the copy. A stream held back by earlier work (a long kernel, a host callback waiting for the
//! program) then holds the host thread too, and a program that releases the stream after queueing
//! the copy never gets there. rumba promises that a copy on a stream is queued, not waited for
//! (the simulator and OpenCL keep that promise), so the CUDA backend copies the bytes into a
//! page-locked block of its own at once, queues the DMA from that block, and keeps the block
//! until an event behind the copy has completed ([`super::keepalive`]). CuPy stages asynchronous
//! uploads from pageable memory through its pinned memory pool the same way.
//!
//! Blocks come in power-of-two sizes from 64 KiB to [`STAGE_MAX`], are reused once their copy has
//! run, and are freed when the driver goes away. An upload larger than `STAGE_MAX` is not staged
//! (pinning that much host memory for one copy costs more than it saves): it keeps CUDA's
//! behaviour, and the host waits for the stream before the copy is queued.
//!
//! The same blocks receive the fault records a host callback reads, downloaded in the stream's
//! order before the callback runs (`faults.rs` says why).
//!
//! This module touches `cuMemHostAlloc` / `cuMemFreeHost` and the bytes it copies.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::sys;

use super::error::check;
use crate::error::Result;
use crate::sync::lock;

/// The largest upload staged: 64 MiB.
pub(super) const STAGE_MAX: usize = 64 << 20;
/// The smallest block: 64 KiB.
const STAGE_MIN: usize = 64 << 10;

/// Free page-locked blocks by size. Shared with the blocks out on loan, which come back here
/// when dropped (no driver call: a block can drop on any thread).
#[derive(Default)]
struct Free(Mutex<HashMap<usize, Vec<usize>>>);

/// The staging blocks of one [`CudaDriver`](super::CudaDriver).
#[derive(Default)]
pub(super) struct Staging {
    free: Arc<Free>,
}

/// A page-locked block holding the bytes of one upload, or receiving those of one download
/// (the fault records a host callback reads: `faults.rs`), lent until its copy has run.
pub(super) struct Block {
    ptr: usize,
    size: usize,
    home: Arc<Free>,
}

impl Block {
    /// The block's address, as the source of a copy.
    pub(super) fn ptr(&self) -> *const u8 {
        self.ptr as *const u8
    }

    /// The block's size in bytes (at least what was asked for).
    pub(super) fn len(&self) -> usize {
        self.size
    }

    /// The block's address, as the destination of a copy.
    pub(super) fn ptr_mut(&mut self) -> *mut u8 {
        self.ptr as *mut u8
    }

    /// The block's first `len` bytes (at most its size).
    ///
    /// # Safety
    /// No copy into the block may be running, and the bytes must have been written (a queued
    /// download that completed before this call, in an order the driver guarantees).
    pub(super) unsafe fn bytes(&self, len: usize) -> &[u8] {
        assert!(
            len <= self.size,
            "{len} bytes of a {}-byte block",
            self.size
        );
        // SAFETY: `len` bytes of the block's page-locked memory, initialized and not written
        // meanwhile (the caller's promise); the borrow of `self` keeps the block lent.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, len) }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        lock(&self.home.0)
            .entry(self.size)
            .or_default()
            .push(self.ptr);
    }
}

impl Staging {
    /// A block holding a copy of `src` (at most [`STAGE_MAX`] bytes). A context is current.
    ///
    /// # Errors
    /// [`Error::Driver`](crate::error::Error::Driver) when page-locked memory cannot be allocated.
    pub(super) fn stage(&self, src: &[u8]) -> Result<Block> {
        let block = self.block(src.len())?;
        // SAFETY: the block is at least `src.len()` bytes of page-locked memory that nothing else
        // uses (fresh, or back from a copy that has run); `src` is a valid slice elsewhere.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), block.ptr as *mut u8, src.len()) };
        Ok(block)
    }

    /// A block of at least `bytes` bytes, its contents left over from its last use: the
    /// destination of a download. A context is current.
    ///
    /// # Errors
    /// [`Error::Driver`](crate::error::Error::Driver) when page-locked memory cannot be allocated.
    pub(super) fn block(&self, bytes: usize) -> Result<Block> {
        let size = bytes.max(STAGE_MIN).next_power_of_two();
        let reused = lock(&self.free.0).get_mut(&size).and_then(Vec::pop);
        let ptr = match reused {
            Some(p) => p,
            None => {
                let mut p = std::ptr::null_mut();
                // SAFETY: writes one pointer; portable so that every context may copy from it.
                check("cuMemHostAlloc(staging)", unsafe {
                    sys::cuMemHostAlloc(&mut p, size, sys::CU_MEMHOSTALLOC_PORTABLE)
                })?;
                p as usize
            }
        };
        Ok(Block {
            ptr,
            size,
            home: Arc::clone(&self.free),
        })
    }

    /// Frees the blocks that are back (those still lent out are leaked with their keep-alives).
    /// Called when the driver goes away, with a context current.
    pub(super) fn release(&self) {
        for (_, ptrs) in lock(&self.free.0).drain() {
            for p in ptrs {
                // SAFETY: a block of `cuMemHostAlloc` whose copy has run and that is not lent.
                let _ = unsafe { sys::cuMemFreeHost(p as *mut std::ffi::c_void) };
            }
        }
    }
}
