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
//! This module touches only its own queue and the release closures it is given.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A queue of deferred releases with count and byte limits.
pub(crate) struct PendingQueue {
    items: Mutex<(Vec<Pending>, usize)>,
    /// Failed releases no caller has been told of yet: the next flush that runs reports them.
    unreported: Mutex<Vec<String>>,
    max_count: usize,
    max_bytes: usize,
    deferred: AtomicUsize,
}

impl PendingQueue {
    pub(crate) fn new(max_count: usize, max_bytes: usize) -> Self {
        PendingQueue {
            items: Mutex::new((Vec::new(), 0)),
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
            q.1 += item.bytes;
            q.0.push(item);
            q.0.len() > self.max_count || q.1 > self.max_bytes
        };
        if over { self.flush() } else { Ok(()) }
    }

    /// Keeps `err` (a failed release no caller can be told of now) for the next flush to report.
    pub(crate) fn keep(&self, err: Error) {
        let mut u = lock(&self.unreported);
        match err {
            Error::DeallocationFailed(v) => u.extend(v),
            other => u.push(other.to_string()),
        }
    }

    /// Carries out every pending release unless cleanup is deferred or this is a callback thread.
    pub(crate) fn flush(&self) -> Result<()> {
        if self.is_deferred() || callback::is_callback_thread() {
            return Ok(());
        }
        self.flush_all()
    }

    /// Carries out every pending release, deferred or not (for a context reset).
    pub(crate) fn flush_all(&self) -> Result<()> {
        let items = std::mem::take(&mut *lock(&self.items)).0;
        let mut failures = std::mem::take(&mut *lock(&self.unreported));
        super::history::flushing(|| {
            for item in items {
                if let Err(e) = (item.release)() {
                    tracing::error!("releasing {} failed: {e}", item.what);
                    failures.push(format!("{}: {e}", item.what));
                }
            }
        });
        if failures.is_empty() {
            Ok(())
        } else {
            Err(Error::DeallocationFailed(failures))
        }
    }

    pub(crate) fn stats(&self) -> PendingStats {
        let q = lock(&self.items);
        PendingStats {
            count: q.0.len(),
            bytes: q.1,
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
}
