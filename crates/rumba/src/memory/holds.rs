//! Device memory that queued work holds: the buffers a stream keeps alive until its work has
//! run. When the program has dropped every handle of such a buffer, its memory is on its way back
//! — but only once the stream gets there. An allocation that fails for lack of memory therefore
//! waits for the streams holding such orphaned memory, flushes the deferred deallocations and
//! retries ([`Context::memalloc`](crate::Context::memalloc)); without this, memory released by
//! the program looks taken, and the out-of-memory report says "0 bytes pending".
//!
//! Every hold is registered here while it lives ([`Holds::hold`]); a hold counts itself on its
//! buffer, so "only holds reference it" is a comparison of two counts. Touches the buffers' counts
//! and nothing else.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use super::DeviceBuffer;
use super::buffer::WeakBuffer;
use crate::driver::StreamHandle;

/// The live holds of one context's queued work.
#[derive(Default)]
pub(crate) struct Holds {
    entries: Mutex<HashMap<u64, (WeakBuffer, StreamHandle)>>,
    next: std::sync::atomic::AtomicU64,
}

/// Keeps a buffer alive for queued work on a stream; registered in [`Holds`] while it lives.
pub(crate) struct Hold {
    buffer: DeviceBuffer,
    holds: Arc<Holds>,
    id: u64,
}

impl Holds {
    /// A hold of `buffer` for work on `stream`.
    pub(crate) fn hold(self: &Arc<Self>, buffer: DeviceBuffer, stream: StreamHandle) -> Hold {
        let id = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let weak = buffer.begin_hold();
        self.lock().insert(id, (weak, stream));
        Hold {
            buffer,
            holds: Arc::clone(self),
            id,
        }
    }

    /// Bytes that only queued work still references, and the streams holding them.
    pub(crate) fn orphans(&self) -> (usize, Vec<StreamHandle>) {
        let entries = self.lock();
        let (mut bytes, mut seen, mut streams) = (0, HashSet::new(), Vec::new());
        for (weak, stream) in entries.values() {
            if let Some(b) = weak.orphaned_bytes() {
                if seen.insert(weak.id()) {
                    bytes += b;
                }
                if !streams.contains(stream) {
                    streams.push(*stream);
                }
            }
        }
        (bytes, streams)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, (WeakBuffer, StreamHandle)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        self.holds.lock().remove(&self.id);
        self.buffer.end_hold();
        // The buffer itself drops after this, possibly as the allocation's last handle.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_memory_that_nothing_but_holds_references_is_orphaned() {
        let ctx = crate::current_context().unwrap();
        let holds = Arc::new(Holds::default());
        let a = ctx.memalloc(1000).unwrap();
        let b = ctx.memalloc(24).unwrap();
        let h1 = holds.hold(a.clone(), StreamHandle(7));
        let h2 = holds.hold(a.view(0..10).unwrap(), StreamHandle(8));
        let h3 = holds.hold(b.clone(), StreamHandle(7));
        assert_eq!(holds.orphans(), (0, vec![]), "the program still has both");
        drop(a);
        let (bytes, mut streams) = holds.orphans();
        streams.sort_by_key(|s| s.0);
        assert_eq!(bytes, 1000, "counted once for its two holds");
        assert_eq!(streams, [StreamHandle(7), StreamHandle(8)]);
        drop((h1, h2));
        drop(b);
        assert_eq!(holds.orphans(), (24, vec![StreamHandle(7)]));
        drop(h3);
        assert_eq!(holds.orphans(), (0, vec![]));
    }
}
