//! Staging buffers for asynchronous copies from pageable host memory.
//!
//! CUDA copies pageable memory through page-locked staging buffers that it keeps and reuses; the
//! sim does the same. A queued host → device copy from pageable memory takes the data into a
//! staging buffer before the call returns (so the caller may reuse its memory at once), and the
//! buffer goes back to the pool when the stream has copied it. Reuse matters: a fresh buffer pays
//! a page fault per 4 KiB on first touch, which made a 64 MiB pageable copy several times slower
//! than the copy itself.
//!
//! This module touches only the buffers it owns.

use crate::sync::lock;
use std::sync::{Arc, Mutex};

/// Most bytes of idle staging buffers kept for reuse.
const KEEP_BYTES: usize = 256 << 20;

/// Idle staging buffers.
#[derive(Default)]
pub(crate) struct StagingPool {
    idle: Mutex<Vec<Vec<u8>>>,
}

/// A staging buffer holding a copy of some host bytes; returns to its pool when dropped.
pub(crate) struct Staged {
    buf: Vec<u8>,
    pool: Arc<StagingPool>,
}

impl StagingPool {
    /// Copies `src` into a staging buffer, reusing an idle one that is large enough.
    pub(crate) fn stage(self: &Arc<Self>, src: &[u8]) -> Staged {
        let reused = {
            let mut idle = lock(&self.idle);
            let best = idle
                .iter()
                .enumerate()
                .filter(|(_, b)| b.capacity() >= src.len())
                .min_by_key(|(_, b)| b.capacity())
                .map(|(i, _)| i);
            best.map(|i| idle.swap_remove(i))
        };
        let mut buf = reused.unwrap_or_else(|| Vec::with_capacity(src.len()));
        buf.clear();
        buf.extend_from_slice(src);
        Staged {
            buf,
            pool: Arc::clone(self),
        }
    }
}

impl Staged {
    /// The staged bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.buf
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        let mut idle = lock(&self.pool.idle);
        let kept: usize = idle.iter().map(Vec::capacity).sum();
        if kept + buf.capacity() <= KEEP_BYTES {
            idle.push(buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_reused_and_hold_exactly_the_data() {
        let pool = Arc::new(StagingPool::default());
        let a = pool.stage(&[1, 2, 3]);
        assert_eq!(a.bytes(), &[1, 2, 3]);
        let ptr = a.bytes().as_ptr();
        drop(a);
        let b = pool.stage(&[9, 8]);
        assert_eq!(b.bytes(), &[9, 8]);
        assert_eq!(b.bytes().as_ptr(), ptr, "the idle buffer was reused");
        let c = pool.stage(&[0; 100]);
        assert_ne!(c.bytes().as_ptr(), ptr, "too small buffers are not used");
    }
}
