//! The deferred-release queue (Numba's `_PendingDeallocs`), used twice per context: once by the
//! [`DeferredAdaptor`](super::DeferredAdaptor) (the default manager) for memory, once by the
//! context for streams, events and modules.
//!
//! Releases are appended and carried out in batches ("flushes"). A flush happens when the number of
//! pending items **exceeds** the count limit or their bytes **exceed** the byte limit — the item
//! that crosses the line is appended first and flushed with the rest — when an allocation fails for
//! lack of memory, or when asked explicitly. While any [`defer_cleanup`](crate::defer_cleanup)
//! guard lives, nothing is flushed (an explicit flush is a no-op too); leaving the guard does not
//! flush by itself.
//!
//! A release that fails is logged (`tracing::error!`) and reported by the flush that ran it, as
//! [`Error::DeallocationFailed`]; the item is dropped from the queue either way, because retrying
//! a failed free on every later flush could repeat the failure forever (a driver refuses a free
//! when the pointer is already invalid, e.g. after a context reset).
//!
//! Flushing never happens on a driver callback thread (CUDA forbids driver calls there): such
//! releases wait for the next trigger on an ordinary thread.
//!
//! A flush takes the queue's items and carries them out with the lock released, so that a
//! release may queue another. Until it is done, its items still count in
//! [`stats`](PendingQueue::stats), and a [`flush`](PendingQueue::flush) on another thread waits
//! for it (a flush that a limit triggers does not: its caller may hold locks). So when a flush
//! returns, everything queued before it was released, which an allocation that failed for lack
//! of memory relies on before it retries: without this, a second thread short of memory saw an
//! empty queue and memory not yet freed, and gave up.
//!
//! This module touches only its own queue and the release closures it is given.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use crate::driver::callback;
use crate::error::{Error, Result};
use crate::sync::lock;

/// Number and bytes of releases waiting in a queue.
///
/// ```
/// let s = rumba::memory::PendingStats::default();
/// assert_eq!((s.count, s.bytes), (0, 0));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PendingStats {
    /// Number of pending releases.
    pub count: usize,
    /// Bytes they will free.
    pub bytes: usize,
}

/// A release waiting to be carried out.
pub(crate) struct Pending {
    pub(crate) bytes: usize,
    pub(crate) what: String,
    pub(crate) release: Box<dyn FnOnce() -> Result<()> + Send>,
}

/// The queue's items and the flushes under way.
#[derive(Default)]
struct Items {
    queued: Vec<Pending>,
    /// Bytes of `queued`.
    bytes: usize,
    /// Flushes carrying out items they took; the items and bytes they took.
    flushing: usize,
    flushing_items: usize,
    flushing_bytes: usize,
}

thread_local! {
    /// How many flushes this thread is inside (a release may flush again: it must not wait for
    /// the flush it runs in).
    static FLUSHING: Cell<usize> = const { Cell::new(0) };
}

/// A flush under way: counted in its queue, and in this thread's [`FLUSHING`], until dropped
/// (also when a release panics, so that no later flush waits for it forever).
struct UnderWay<'a> {
    queue: &'a PendingQueue,
    items: usize,
    bytes: usize,
}

impl Drop for UnderWay<'_> {
    fn drop(&mut self) {
        FLUSHING.set(FLUSHING.get() - 1);
        let mut q = lock(&self.queue.items);
        q.flushing -= 1;
        q.flushing_items -= self.items;
        q.flushing_bytes -= self.bytes;
        drop(q);
        self.queue.flushed.notify_all();
    }
}

/// A queue of deferred releases with count and byte limits.
pub(crate) struct PendingQueue {
    items: Mutex<Items>,
    /// Notified when a flush has carried out what it took.
    flushed: Condvar,
    /// Failed releases no caller has been told of yet: the next flush that runs reports them.
    unreported: Mutex<Vec<String>>,
    max_count: usize,
    max_bytes: usize,
    deferred: AtomicUsize,
}

impl PendingQueue {
    pub(crate) fn new(max_count: usize, max_bytes: usize) -> Self {
        PendingQueue {
            items: Mutex::new(Items::default()),
            flushed: Condvar::new(),
            unreported: Mutex::new(Vec::new()),
            max_count,
            max_bytes,
            deferred: AtomicUsize::new(0),
        }
    }

    /// Appends a release; flushes if a limit is now exceeded.
    ///
    /// # Errors
    /// As [`flush`](Self::flush), when the crossing release ran one.
    pub(crate) fn add(&self, item: Pending) -> Result<()> {
        let over = {
            let mut q = lock(&self.items);
            q.bytes += item.bytes;
            q.queued.push(item);
            q.queued.len() > self.max_count || q.bytes > self.max_bytes
        };
        // Without waiting for other threads' flushes: the caller may hold locks (a buffer's last
        // handle dropped anywhere), and nothing here needs their memory back.
        if over && self.may_flush() {
            self.flush_all()
        } else {
            Ok(())
        }
    }

    /// Whether this thread may carry out releases now: cleanup is not deferred and this is not
    /// a driver callback thread.
    fn may_flush(&self) -> bool {
        !self.is_deferred() && !callback::is_callback_thread()
    }

    /// Keeps `err` (a failed release no caller can be told of now) for the next flush to report.
    pub(crate) fn keep(&self, err: Error) {
        let mut u = lock(&self.unreported);
        match err {
            Error::DeallocationFailed(v) => u.extend(v),
            other => u.push(other.to_string()),
        }
    }

    /// Carries out every pending release unless cleanup is deferred or this is a callback thread;
    /// then waits for the flushes other threads began to finish theirs (so that an allocation
    /// retried after it finds their memory back).
    pub(crate) fn flush(&self) -> Result<()> {
        if !self.may_flush() {
            return Ok(());
        }
        let flushed = self.flush_all();
        if FLUSHING.get() == 0 {
            let mut q = lock(&self.items);
            while q.flushing > 0 {
                q = crate::sync::wait(&self.flushed, q);
            }
        }
        flushed
    }

    /// Carries out every pending release, deferred or not (for a context reset).
    pub(crate) fn flush_all(&self) -> Result<()> {
        let (items, under_way) = {
            let mut q = lock(&self.items);
            let items = std::mem::take(&mut q.queued);
            let bytes = std::mem::take(&mut q.bytes);
            q.flushing += 1;
            q.flushing_items += items.len();
            q.flushing_bytes += bytes;
            FLUSHING.set(FLUSHING.get() + 1);
            let under_way = UnderWay {
                queue: self,
                items: items.len(),
                bytes,
            };
            (items, under_way)
        };
        let mut failures = std::mem::take(&mut *lock(&self.unreported));
        super::history::flushing(|| {
            for item in items {
                if let Err(e) = (item.release)() {
                    tracing::error!("releasing {} failed: {e}", item.what);
                    failures.push(format!("{}: {e}", item.what));
                }
            }
        });
        drop(under_way);
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    pub(crate) fn stats(&self) -> PendingStats {
        let q = lock(&self.items);
        PendingStats {
            count: q.queued.len() + q.flushing_items,
            bytes: q.bytes + q.flushing_bytes,
        }
    }

    pub(crate) fn defer(&self) {
        self.deferred.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn undefer(&self) {
        let _ = self
            .deferred
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    pub(crate) fn is_deferred(&self) -> bool {
        self.deferred.load(Ordering::SeqCst) > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn item(bytes: usize, log: &Arc<Mutex<Vec<usize>>>) -> Pending {
        let log = Arc::clone(log);
        Pending {
            bytes,
            what: format!("{bytes} bytes"),
            release: Box::new(move || {
                log.lock().unwrap().push(bytes);
                Ok(())
            }),
        }
    }

    #[test]
    fn count_limit_is_strict_and_the_crossing_item_is_flushed() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let q = PendingQueue::new(3, usize::MAX);
        for n in 1..=3 {
            q.add(item(1, &log)).unwrap();
            assert_eq!(q.stats().count, n);
        }
        q.add(item(1, &log)).unwrap();
        assert_eq!(q.stats(), PendingStats::default());
        assert_eq!(log.lock().unwrap().len(), 4);
    }

    #[test]
    fn byte_limit_is_strict() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let q = PendingQueue::new(100, 1000);
        q.add(item(500, &log)).unwrap();
        q.add(item(500, &log)).unwrap();
        assert_eq!(
            q.stats(),
            PendingStats {
                count: 2,
                bytes: 1000
            }
        );
        q.add(item(1, &log)).unwrap();
        assert_eq!(q.stats().count, 0);
    }

    #[test]
    fn deferral_nests_and_failures_are_reported_and_dropped() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let q = PendingQueue::new(10, usize::MAX);
        q.defer();
        q.defer();
        q.add(item(1, &log)).unwrap();
        q.undefer();
        q.flush().unwrap();
        assert_eq!(q.stats().count, 1, "still deferred by the outer guard");
        q.undefer();
        assert_eq!(q.stats().count, 1, "leaving the guard does not flush");
        q.add(Pending {
            bytes: 0,
            what: "a bad pointer".into(),
            release: Box::new(|| Err(Error::TransferTaken)),
        })
        .unwrap();
        let err = q.flush().unwrap_err();
        assert!(err.to_string().contains("a bad pointer"), "{err}");
        assert_eq!(q.stats().count, 0);
        assert_eq!(*log.lock().unwrap(), vec![1]);
    }

    #[test]
    fn a_failure_of_a_threshold_flush_is_returned_by_the_crossing_add() {
        let q = PendingQueue::new(1, usize::MAX);
        let bad = || Pending {
            bytes: 0,
            what: "a bad pointer".into(),
            release: Box::new(|| Err(Error::TransferTaken)),
        };
        q.add(bad()).unwrap();
        let err = q.add(bad()).unwrap_err();
        assert!(
            matches!(err, Error::DeallocationFailed(ref v) if v.len() == 2),
            "{err}"
        );
    }

    #[test]
    fn a_kept_failure_is_reported_by_the_next_flush() {
        let q = PendingQueue::new(10, usize::MAX);
        q.keep(Error::NotReady("earlier".into()));
        let err = q.flush().unwrap_err();
        assert!(err.to_string().contains("earlier"), "{err}");
        q.flush().unwrap();
    }

    #[test]
    fn a_flush_under_way_still_counts_and_another_flush_waits_for_it() {
        use std::sync::mpsc;
        let q = Arc::new(PendingQueue::new(10, usize::MAX));
        let (started_tx, started) = mpsc::channel();
        let (go, go_rx) = mpsc::channel::<()>();
        let released = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&released);
        q.add(Pending {
            bytes: 4096,
            what: "a slow free".into(),
            release: Box::new(move || {
                started_tx.send(()).unwrap();
                go_rx.recv().unwrap();
                r.store(1, Ordering::SeqCst);
                Ok(())
            }),
        })
        .unwrap();
        let first = {
            let q = Arc::clone(&q);
            std::thread::spawn(move || q.flush())
        };
        started.recv().unwrap();
        // The first flush took the item and is carrying it out: it still counts.
        assert_eq!(
            q.stats(),
            PendingStats {
                count: 1,
                bytes: 4096
            }
        );
        let second = {
            let q = Arc::clone(&q);
            let released = Arc::clone(&released);
            std::thread::spawn(move || {
                q.flush().unwrap();
                released.load(Ordering::SeqCst)
            })
        };
        // Time for a second flush that does not wait to return first (with the wait, the result
        // is the same however long this is).
        std::thread::sleep(std::time::Duration::from_millis(50));
        go.send(()).unwrap();
        assert_eq!(
            second.join().unwrap(),
            1,
            "the second flush returned too early"
        );
        first.join().unwrap().unwrap();
        assert_eq!(q.stats(), PendingStats::default());
    }

    #[test]
    fn a_release_that_flushes_again_does_not_wait_for_itself() {
        let q = Arc::new(PendingQueue::new(10, usize::MAX));
        let inner = Arc::clone(&q);
        q.add(Pending {
            bytes: 1,
            what: "a release that flushes".into(),
            release: Box::new(move || inner.flush()),
        })
        .unwrap();
        q.flush().unwrap();
        assert_eq!(q.stats(), PendingStats::default());
    }
}
