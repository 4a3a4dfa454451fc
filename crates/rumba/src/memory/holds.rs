//! Device memory that queued work holds: the buffers a stream keeps alive until its work has
//! run. When the program has dropped every handle of such a buffer, its memory is on its way back
//! — but only once the stream gets there. An allocation that fails for lack of memory therefore
//! waits for the streams holding such orphaned memory, flushes the deferred deallocations and
//! retries ([`Context::memalloc`](crate::Context::memalloc)); without this, memory released by
//! the program looks taken, and the out-of-memory report says "0 bytes pending".
//!
//! Every hold is registered here while it lives ([`Holds::hold`], one per queued operation); a
//! hold counts itself on each of its buffers, so "only holds reference it" is a comparison of two
//! counts. Touches the buffers' counts and nothing else.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::DeviceBuffer;
use super::buffer::WeakBuffer;
use crate::driver::StreamHandle;
use crate::sync::lock;

/// The live holds of one context's queued work.
#[derive(Default)]
pub(crate) struct Holds {
    entries: Mutex<HashMap<u64, (WeakBuffer, StreamHandle)>>,
    next: AtomicU64,
}

/// Keeps one operation's buffers alive for its work on a stream; registered in [`Holds`] while
/// it lives (one lock to register them, one to release them).
pub(crate) struct Hold {
    buffers: Vec<DeviceBuffer>,
    holds: Arc<Holds>,
    first: u64,
}

impl Holds {
    /// A hold of `buffers` for work on `stream`.
    pub(crate) fn hold(self: &Arc<Self>, buffers: Vec<DeviceBuffer>, stream: StreamHandle) -> Hold {
        let first = self.next.fetch_add(buffers.len() as u64, Ordering::Relaxed);
        let mut entries = lock(&self.entries);
        for (id, b) in (first..).zip(&buffers) {
            entries.insert(id, (b.begin_hold(), stream));
        }
        drop(entries);
        Hold {
            buffers,
            holds: Arc::clone(self),
            first,
        }
    }

    /// Bytes that only queued work still references, and the streams holding them.
    pub(crate) fn orphans(&self) -> (usize, Vec<StreamHandle>) {
        let entries = lock(&self.entries);
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
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut entries = lock(&self.holds.entries);
        for (id, b) in (self.first..).zip(&self.buffers) {
            entries.remove(&id);
            b.end_hold();
        }
        // The buffers drop after this, possibly as their allocations' last handles.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_memory_that_nothing_but_holds_references_is_orphaned() {
        let ctx = crate::runtime::current_context().unwrap();
        let holds = Arc::new(Holds::default());
        let a = ctx.memalloc(1000).unwrap();
        let b = ctx.memalloc(24).unwrap();
        let h1 = holds.hold(vec![a.clone(), b.clone()], StreamHandle(7));
        let h2 = holds.hold(vec![a.view(0..10).unwrap()], StreamHandle(8));
        assert_eq!(holds.orphans(), (0, vec![]), "the program still has both");
        drop(a);
        let (bytes, mut streams) = holds.orphans();
        streams.sort_by_key(|s| s.0);
        assert_eq!(bytes, 1000, "counted once for its two holds");
        assert_eq!(streams, [StreamHandle(7), StreamHandle(8)]);
        drop(h2);
        assert_eq!(holds.orphans(), (1000, vec![StreamHandle(7)]));
        drop(b);
        assert_eq!(holds.orphans(), (1024, vec![StreamHandle(7)]));
        drop(h1);
        assert_eq!(holds.orphans(), (0, vec![]));
    }
}
