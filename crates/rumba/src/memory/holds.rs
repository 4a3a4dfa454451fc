//! Device memory that queued work holds: the buffers a stream keeps alive until its work has
//! run. When the program has dropped every handle of such a buffer, its memory is on its way back
//! — but only once the stream gets there. An allocation that fails for lack of memory therefore
//! waits for the streams holding such orphaned memory, flushes the deferred deallocations and
//! retries ([`Context::memalloc`](crate::Context::memalloc)); without this, memory released by
//! the program looks taken, and the out-of-memory report says "0 bytes pending".
//!
//! Every hold is registered here while it lives ([`Holds::hold`], one per queued operation); a
//! hold counts itself on each of its buffers, so "only holds reference it" is a comparison of two
//! counts.
//!
//! A hold also keeps its stream alive (the stream layer hands it a keep-alive): a stream the
//! program dropped is destroyed only once the work it holds memory for has run. Waiting for the
//! streams named here therefore always waits on a live stream — a destroyed one could be neither
//! waited for (the wait failed with `InvalidHandle`, failing the allocation) nor told apart from
//! a new stream that got its handle.
//!
//! A hold taken on a stream being captured is *graph-owned*: it moves into the recording, and
//! from there into the graph, which keeps it until the graph is destroyed and its last replay has
//! run — no point of its stream lets it go. Such holds are never orphans (an allocation short of
//! memory would wait for them forever) and keep no stream alive (the program's last handle to a
//! stream it drops mid-capture ends that capture). Touches the buffers' counts and a thread-local
//! list of the holds its thread is dropping.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use super::DeviceBuffer;
use super::buffer::WeakBuffer;
use crate::driver::StreamHandle;
use crate::sync::lock;

/// The live holds of one context's queued work.
#[derive(Default)]
pub(crate) struct Holds {
    state: Mutex<State>,
    next: AtomicU64,
    /// Notified when a hold has let its buffers go.
    gone: Condvar,
    /// Holds dropped so far (raised under the lock, as each leaves `State::dropping`).
    dropped: AtomicU64,
}

/// What [`Holds`] keeps under its lock.
#[derive(Default)]
struct State {
    /// Each held buffer, by entry id.
    entries: HashMap<u64, Entry>,
    /// The holds whose drop is under way, by their first entry id (see [`Holds::settle`]).
    dropping: HashSet<u64>,
}

thread_local! {
    /// The holds this thread is dropping, innermost last: [`Holds::settle`] does not wait for
    /// them (a resource's give-back that allocates would otherwise wait for itself).
    static DROPPING_HERE: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One buffer of a hold: the buffer, its stream's handle and who lets it go.
type Entry = (WeakBuffer, StreamHandle, Owner);

/// Who lets a hold go.
#[derive(Clone)]
pub(crate) enum Owner {
    /// Its stream, when it reaches the hold; the value keeps the stream alive until then.
    Stream(Option<StreamKeepAlive>),
    /// A graph (the hold was taken on a capturing stream): when the graph is destroyed and its
    /// last replay has run.
    Graph,
}

/// Memory that only queued work still holds: its bytes, the streams holding it (each handle with
/// what keeps that stream alive while someone waits for it), and the holds.
#[derive(Default)]
pub(crate) struct Orphans {
    /// Bytes (each allocation counted once).
    pub(crate) bytes: usize,
    /// The streams whose work holds them.
    pub(crate) streams: Vec<(StreamHandle, Option<StreamKeepAlive>)>,
    /// The holds' entries (to wait until they are gone: [`Holds::wait_gone`]).
    entries: Vec<u64>,
}

/// What keeps a stream alive while a hold lives.
pub(crate) type StreamKeepAlive = Arc<dyn std::any::Any + Send + Sync>;

/// Keeps one operation's buffers alive for its work on a stream; registered in [`Holds`] while
/// it lives (one lock to register them, two to release them).
pub(crate) struct Hold {
    buffers: Vec<DeviceBuffer>,
    holds: Arc<Holds>,
    first: u64,
    /// Dropped after the buffers: the stream outlives the memory its work held.
    _stream: Option<StreamKeepAlive>,
}

impl Holds {
    /// A hold of `buffers` for work on `stream`, let go by `owner`: a stream owner's keep-alive
    /// (the stream's own handle object) lives as long as the hold.
    pub(crate) fn hold(
        self: &Arc<Self>,
        buffers: Vec<DeviceBuffer>,
        stream: StreamHandle,
        owner: Owner,
    ) -> Hold {
        // At least one id, so that every hold's first id is its own (`State::dropping`).
        let ids = (buffers.len() as u64).max(1);
        let first = self.next.fetch_add(ids, Ordering::Relaxed);
        let mut state = self.lock();
        for (id, b) in (first..).zip(&buffers) {
            state
                .entries
                .insert(id, (b.begin_hold(), stream, owner.clone()));
        }
        drop(state);
        let keep = match owner {
            Owner::Stream(keep) => keep,
            Owner::Graph => None,
        };
        Hold {
            buffers,
            holds: Arc::clone(self),
            first,
            _stream: keep,
        }
    }

    /// Memory that only queued work still references, and the streams holding it (kept alive
    /// while the caller holds the list, so that it can wait for them). Graph-owned holds are not
    /// counted: no stream lets them go.
    pub(crate) fn orphans(&self) -> Orphans {
        let state = self.lock();
        let mut seen = HashSet::new();
        let mut o = Orphans::default();
        for (&id, (weak, stream, owner)) in state.entries.iter() {
            let Owner::Stream(keep) = owner else {
                continue;
            };
            if let Some(b) = weak.orphaned_bytes() {
                if seen.insert(weak.id()) {
                    o.bytes += b;
                }
                o.entries.push(id);
                if !o.streams.iter().any(|(s, _)| s == stream) {
                    o.streams.push((*stream, keep.clone()));
                }
            }
        }
        o
    }

    /// Waits until the holds of `orphans` have let their buffers go (their streams have reached
    /// them: wait for the streams first). A hold goes when its stream reaches it, on a thread of
    /// the driver, a moment after the stream's own events complete.
    pub(crate) fn wait_gone(&self, orphans: &Orphans) {
        let mut state = self.lock();
        while orphans
            .entries
            .iter()
            .any(|id| state.entries.contains_key(id))
        {
            state = crate::sync::wait(&self.gone, state);
        }
    }

    /// Waits until the holds whose drop was under way when it was called (on other threads)
    /// are dropped, and returns how many holds have been dropped so far.
    ///
    /// A hold being dropped has ended its holds on its buffers but not yet given them back, so
    /// for a moment its memory is in none of the places an allocation short of memory looks:
    /// not orphaned (the hold's own handle still counts), not queued for release, not free.
    /// Called after [`orphans`](Self::orphans), this covers that moment: a drop that started
    /// before `orphans` took the lock is under way or done by now, and one that started after
    /// it had not ended its holds then, so its memory counted as orphaned if the program had let
    /// it go. Drops that start during the wait are not waited for.
    pub(crate) fn settle(&self) -> u64 {
        let mine = DROPPING_HERE
            .try_with(|d| d.borrow().clone())
            .unwrap_or_default();
        let mut state = self.lock();
        let under_way: Vec<u64> = state
            .dropping
            .iter()
            .filter(|id| !mine.contains(id))
            .copied()
            .collect();
        while under_way.iter().any(|id| state.dropping.contains(id)) {
            state = crate::sync::wait(&self.gone, state);
        }
        drop(state);
        self.dropped.load(Ordering::Acquire)
    }

    /// How many holds have been dropped so far (without the lock: a value a little old only
    /// makes a later [`settle`](Self::settle) look like a change).
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Acquire)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let buffers = std::mem::take(&mut self.buffers);
        // Under way (under the lock) from before its holds end until its entries go, which
        // `Going` does also when a buffer's drop unwinds.
        self.holds.lock().dropping.insert(self.first);
        let _ = DROPPING_HERE.try_with(|d| d.borrow_mut().push(self.first));
        let _going = Going {
            holds: &self.holds,
            first: self.first,
            count: buffers.len() as u64,
        };
        // Ending a hold before its entry goes only makes the buffer look less orphaned (its own
        // handle is still counted) for a moment.
        for b in &buffers {
            b.end_hold();
        }
        // Possibly the allocations' last handles: given back before the entries go, so that a
        // waiter that sees them gone (woken by any hold) finds the memory released or queued
        // for release, never still on its way.
        drop(buffers);
    }
}

/// Ends a hold's drop, when dropped itself: removes its entries, takes it out of
/// `State::dropping` and counts it dropped.
struct Going<'a> {
    holds: &'a Holds,
    first: u64,
    count: u64,
}

impl Drop for Going<'_> {
    fn drop(&mut self) {
        let mut state = self.holds.lock();
        for id in self.first..self.first + self.count {
            state.entries.remove(&id);
        }
        state.dropping.remove(&self.first);
        self.holds.dropped.fetch_add(1, Ordering::Release);
        drop(state);
        let _ = DROPPING_HERE.try_with(|d| d.borrow_mut().retain(|&id| id != self.first));
        self.holds.gone.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::within_a_minute;

    #[test]
    fn only_memory_that_nothing_but_holds_references_is_orphaned() {
        let ctx = crate::runtime::current_context().unwrap();
        let holds = Arc::new(Holds::default());
        let a = ctx.memalloc(1000).unwrap();
        let b = ctx.memalloc(24).unwrap();
        let h1 = holds.hold(
            vec![a.clone(), b.clone()],
            StreamHandle(7),
            Owner::Stream(None),
        );
        let h2 = holds.hold(
            vec![a.view(0..10).unwrap()],
            StreamHandle(8),
            Owner::Stream(None),
        );
        let orphans = || {
            let o = holds.orphans();
            let mut handles: Vec<u64> = o.streams.iter().map(|(s, _)| s.0).collect();
            handles.sort();
            (o.bytes, handles)
        };
        assert_eq!(orphans(), (0, vec![]), "the program still has both");
        drop(a);
        assert_eq!(
            orphans(),
            (1000, vec![7, 8]),
            "counted once for its two holds"
        );
        drop(h2);
        assert_eq!(orphans(), (1000, vec![7]));
        drop(b);
        assert_eq!(orphans(), (1024, vec![7]));
        drop(h1);
        assert_eq!(orphans(), (0, vec![]));
        assert_eq!((holds.settle(), holds.dropped()), (2, 2));
    }

    #[test]
    fn settle_waits_for_the_drops_under_way_when_it_is_called() {
        let holds = Arc::new(Holds::default());
        // Hold 1's drop is under way (its holds ended, its buffers not yet given back).
        holds.lock().dropping.insert(1);
        let (started, waiting) = std::sync::mpsc::channel();
        let on = Arc::clone(&holds);
        let settled = std::thread::spawn(move || {
            started.send(()).unwrap();
            on.settle()
        });
        waiting.recv().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(
            !settled.is_finished(),
            "settle returned with a drop under way"
        );
        // A drop that starts now is not waited for; hold 1's ending ends the wait.
        holds.lock().dropping.insert(2);
        drop(Going {
            holds: &holds,
            first: 1,
            count: 0,
        });
        let dropped = within_a_minute("settle", move || settled.join().unwrap());
        assert_eq!(dropped, 1);
    }

    #[test]
    fn settle_does_not_wait_for_a_drop_of_its_own_thread() {
        let holds = Arc::new(Holds::default());
        let dropped = within_a_minute("settle", move || {
            holds.lock().dropping.insert(5);
            DROPPING_HERE.with(|d| d.borrow_mut().push(5));
            holds.settle()
        });
        assert_eq!(dropped, 0);
    }
}
