//! Work that reaches a callback thread: which threads those are, what is refused there, and how
//! a release that happens there waits for a thread where it may run.
//!
//! A *callback thread* runs work a stream reached: the simulator's stream workers, the thread
//! CUDA runs host callbacks on, the threads of the OpenCL backend's callback pool. Each backend
//! marks its threads with [`mark_thread`]. Two kinds of work are wrong there:
//!
//! - **Waiting for device work.** The thread may be the one that would do the work waited for
//!   (a simulated stream waiting for itself never returns), CUDA forbids driver calls in its
//!   callbacks, and OpenCL leaves blocking calls in event callbacks undefined. Every call that
//!   waits — a synchronize, a synchronous copy, a launch that waits for its kernel, a transfer's
//!   `wait`, a stream scope — asks [`refuse_wait`] first and returns its typed refusal, before
//!   anything is queued.
//! - **Releasing driver resources.** The last handle of a buffer, an event or a mapping can drop
//!   on a callback thread (a stream kept it alive until its work ran). Its release is not made
//!   there: [`release_or_defer`] hands it to a queue that a later call on an ordinary thread
//!   empties (the context's queue of streams, events and modules), and a resource that frees its
//!   own blocks keeps them in a [`Later`] until its next call on an ordinary thread. Where nothing
//!   could run the release later (a cache dropped with its owner), the memory is leaked: a leak is
//!   safe, a free under running work is not.
//!
//! This module touches nothing but a thread-local flag and the queues it is given.

use std::cell::Cell;
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::sync::lock;

thread_local! {
    static CALLBACK_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as one that runs driver callbacks (a stream worker).
pub(crate) fn mark_thread() {
    CALLBACK_THREAD.with(|c| c.set(true));
}

/// Runs `f` marked as a callback thread, then restores the mark (also when `f` panics): for a
/// thread that drops values queued work kept alive, which must defer releases exactly as the
/// thread that would otherwise have dropped them (a backend's callback thread) does.
#[cfg_attr(not(feature = "cuda"), allow(dead_code))] // the CUDA keep-alives
pub(crate) fn as_callback_thread<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CALLBACK_THREAD.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CALLBACK_THREAD.with(|c| c.replace(true)));
    f()
}

/// True on threads that run driver callbacks.
pub(crate) fn is_callback_thread() -> bool {
    CALLBACK_THREAD.with(Cell::get)
}

/// The refusal of `what`, a call that waits for device work, on a callback thread; `Ok` on any
/// other thread. `instead`, when not empty, says what to do instead.
///
/// # Errors
/// [`Error::InCallback`] naming `what`, on a callback thread.
pub(crate) fn refuse_wait(what: &str, instead: &'static str) -> Result<()> {
    if !is_callback_thread() {
        return Ok(());
    }
    Err(Error::InCallback {
        operation: what.to_owned(),
        reason: "it would wait for device work from the thread that runs it",
        instead,
    })
}

/// A release of a driver resource, to run on a thread that may call the driver.
pub(crate) type Release = Box<dyn FnOnce() -> Result<()> + Send>;

/// Runs `release` now (logging a failure, which has no caller to go to), or — on a callback
/// thread — hands it with its description to `defer`, which queues it for an ordinary thread.
pub(crate) fn release_or_defer(
    what: String,
    release: Release,
    defer: impl FnOnce(String, Release),
) {
    if is_callback_thread() {
        defer(what, release);
    } else if let Err(e) = release() {
        tracing::warn!("releasing {what}: {e}");
    }
}

/// Things given back on callback threads, kept until a call on an ordinary thread releases them.
pub(crate) struct Later<T>(Mutex<Vec<T>>);

impl<T> Later<T> {
    /// An empty list.
    pub(crate) const fn new() -> Self {
        Later(Mutex::new(Vec::new()))
    }

    /// `item` back, to release now; on a callback thread it is kept instead (`None`).
    pub(crate) fn now_or_keep(&self, item: T) -> Option<T> {
        if is_callback_thread() {
            lock(&self.0).push(item);
            None
        } else {
            Some(item)
        }
    }

    /// Everything kept, to release now; nothing on a callback thread.
    pub(crate) fn take(&self) -> Vec<T> {
        if is_callback_thread() {
            Vec::new()
        } else {
            std::mem::take(&mut *lock(&self.0))
        }
    }

    /// Releases everything kept with `release` (nothing on a callback thread), each item once
    /// whatever the others' outcome; the first failure.
    pub(crate) fn release_each(&self, mut release: impl FnMut(T) -> Result<()>) -> Result<()> {
        let mut first = Ok(());
        for item in self.take() {
            first = first.and(release(item));
        }
        first
    }

    /// How many are kept.
    pub(crate) fn len(&self) -> usize {
        lock(&self.0).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callback_thread_refuses_waits_and_keeps_releases() {
        assert!(refuse_wait("x", "").is_ok());
        let later = Later::new();
        assert_eq!(later.now_or_keep(1), Some(1));
        std::thread::spawn(move || {
            mark_thread();
            let err = refuse_wait("stream synchronize", "do y").unwrap_err();
            assert!(
                matches!(&err, Error::InCallback { operation, instead: "do y", .. }
                    if operation == "stream synchronize"),
                "{err}"
            );
            assert!(
                err.to_string()
                    .contains("stream synchronize cannot run inside a stream callback"),
                "{err}"
            );
            assert!(err.to_string().ends_with("(do y)"), "{err}");
            assert_eq!(later.now_or_keep(2), None);
            assert!(
                later.take().is_empty(),
                "nothing is released on a callback thread"
            );
            let mut deferred = Vec::new();
            release_or_defer("r".into(), Box::new(|| Ok(())), |what, _| {
                deferred.push(what)
            });
            assert_eq!(deferred, ["r"]);
            later
        })
        .join()
        .map(|later| {
            assert_eq!(later.len(), 1);
            assert_eq!(
                later.take(),
                [2],
                "an ordinary thread releases what was kept"
            );
        })
        .unwrap();
    }
}
