//! The block helpers: a rayon pool of the engine's own whose threads run a launch's blocks
//! beside its calling thread, and [`share`], which lends them a launch's work.
//!
//! **A helper that comes late is sent away.** A launch offers its work to the helpers and runs
//! it itself too. Once the calling thread has run out of blocks, it waits only for the helpers
//! that started in the meantime; an offer no helper has taken by then is withdrawn, and the
//! helper that takes it later finds nothing to do. A sleeping helper takes tens of microseconds
//! to wake on a virtual machine (its virtual CPU is halted), often longer than a small launch
//! runs. With a rayon scope, which waited for every offer, the suite's 40×40 stencil (ten
//! launches of 40 short blocks) took 207-348 µs and its scan of 20,000 numbers 60-129 µs;
//! sending late helpers away, 150-176 µs and 60-69 µs (six alternations of each binary).
//!
//! This module touches the helpers' pool and the calling thread's park token.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::Thread;

use super::super::spin::spin_until;
use crate::sync::lock;

/// How many threads run a launch's blocks, the calling thread included: as many as rayon's
/// global pool has (`RAYON_NUM_THREADS`, or the pool a program built with
/// `ThreadPoolBuilder::build_global`).
pub(crate) fn block_workers() -> usize {
    static WORKERS: OnceLock<usize> = OnceLock::new();
    *WORKERS.get_or_init(|| {
        // rayon names the global pool's size only to a thread outside every pool (inside one it
        // names that pool's), so a thread of some pool asks from a thread of its own.
        let global = if rayon::current_thread_index().is_none() {
            rayon::current_num_threads()
        } else {
            std::thread::spawn(rayon::current_num_threads)
                .join()
                .unwrap_or(1)
        };
        global.max(1)
    })
}

/// The threads that run a launch's blocks beside its calling thread: one fewer than
/// [`block_workers`]; `None` on one core (or where the pool cannot be built: blocks then run one
/// after another).
///
/// A pool of its own, not rayon's global one: a launch wants exactly that many helpers, and the
/// global pool's threads that found no block went on looking for work, yielding in a loop on the
/// core where a helper ran a block. On two cores n-body's second block (of two, at 300 bodies)
/// took 150-160 µs on its helper against 103 µs for the first on the calling thread; with a pool
/// of one helper both take about 110 µs.
pub(super) fn block_helpers() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let helpers = block_workers() - 1;
        if helpers == 0 {
            return None;
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .thread_name(|i| format!("rumba-blocks-{i}"))
            .build()
            .inspect_err(|e| tracing::warn!(%e, "no block helpers: blocks run one after another"))
            .ok()
    })
    .as_ref()
}

/// Set in [`Offer::state`] once the calling thread has run out of work: a helper that has not
/// taken the offer by then never does.
const CLOSED: u64 = 1 << 63;

/// A launch's work as its helpers' jobs see it.
struct Offer {
    /// How many helpers are running the work, and [`CLOSED`].
    state: AtomicU64,
    /// The calling thread, woken by the last helper to finish after [`CLOSED`].
    caller: Thread,
    /// The calling thread's `work` (a `W: Fn() + Sync` of [`share`]), called as `run(work)`.
    work: *const (),
    run: unsafe fn(*const ()),
    /// The first panic of a helper's run, raised again on the calling thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

// SAFETY: an `Offer` is built only in `share`, which pairs `run` with the type `work` points to.
// `work` is read only by a helper that registered in `state` before `CLOSED` was set, and
// `share` does not return (so the closure it points to lives) until every registered helper has
// left. The closure is `Sync`, so calling it by shared reference from several threads at once
// is sound. The other fields are `Send + Sync`. (The helpers' work happens before `share`
// returns because every change to `state` is a read-modify-write: each helper's release
// `fetch_sub` heads a release sequence that the caller's acquire reads end. A plain store to
// `state` would break that.)
unsafe impl Send for Offer {}
// SAFETY: as for `Send`.
unsafe impl Sync for Offer {}

impl Offer {
    /// Registers a helper; false once the offer is closed.
    fn take(&self) -> bool {
        let mut s = self.state.load(Relaxed);
        while s & CLOSED == 0 {
            match self.state.compare_exchange_weak(s, s + 1, Acquire, Relaxed) {
                Ok(_) => return true,
                Err(now) => s = now,
            }
        }
        false
    }

    /// Whether every registered helper has left (the offer being closed).
    fn done(&self) -> bool {
        self.state.load(Acquire) == CLOSED
    }
}

/// Calls the `W` at `work`.
///
/// # Safety
/// `work` must point to a live `W`.
unsafe fn run_erased<W: Fn()>(work: *const ()) {
    // SAFETY: the caller passes a pointer to a live `W`.
    unsafe { (*work.cast::<W>())() }
}

/// Deregisters a helper when dropped (also when its work unwinds), waking the calling thread
/// when it is the last after the offer closed.
struct Leave<'a>(&'a Offer);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let before = self.0.state.fetch_sub(1, Release);
        if before == CLOSED | 1 {
            self.0.caller.unpark();
        }
    }
}

/// Closes the offer and waits for the helpers that took it, when dropped (also when the calling
/// thread's work unwinds: the helpers may be calling it). It spins briefly before it sleeps: a
/// helper that finishes within the spin then wakes no one, where a wake-up of the sleeping
/// caller cost 15-40 µs of a 110 µs launch (n-body at 300 bodies) on a two-core virtual machine.
struct Close<'a>(&'a Offer);

impl Drop for Close<'_> {
    fn drop(&mut self) {
        // Acquire: what the helpers that already left did happens before this thread goes on.
        let before = self.0.state.fetch_or(CLOSED, AcqRel);
        if before == 0 || spin_until(|| self.0.done()) {
            return;
        }
        while !self.0.done() {
            std::thread::park();
        }
    }
}

/// Runs `work` on the calling thread and offers it to `helpers` threads of `pool`, returning
/// once the calling thread's run and those of the helpers that took the offer have returned.
/// A helper that takes the offer after the calling thread's run returned does nothing (see the
/// module docs), so `work` must leave nothing undone when it returns on the calling thread: a
/// loop that claims pieces from a shared counter until none is left does that. A panic of a
/// helper's run is raised again on the calling thread once every helper has left.
pub(super) fn share<W: Fn() + Sync>(pool: &rayon::ThreadPool, helpers: usize, work: &W) {
    if helpers == 0 {
        return work();
    }
    let offer = Arc::new(Offer {
        state: AtomicU64::new(0),
        caller: std::thread::current(),
        work: std::ptr::from_ref(work).cast(),
        run: run_erased::<W>,
        panic: Mutex::new(None),
    });
    let close = Close(&offer);
    for _ in 0..helpers {
        let offer = Arc::clone(&offer);
        pool.spawn(move || {
            if offer.take() {
                let _leave = Leave(&offer);
                // SAFETY: this helper registered before the offer closed, so `share` has not
                // returned and `work` lives until `_leave` is dropped (see `Offer`).
                let ran = catch_unwind(AssertUnwindSafe(|| unsafe { (offer.run)(offer.work) }));
                // Kept, not raised: a panic out of a pool's job aborts the process.
                if let Err(panic) = ran {
                    lock(&offer.panic).get_or_insert(panic);
                }
            }
        });
    }
    work();
    drop(close);
    if let Some(panic) = lock(&offer.panic).take() {
        resume_unwind(panic);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc::channel;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::test_support::within_a_minute;

    fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
        Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap(),
        )
    }

    #[test]
    fn every_piece_runs_once_and_share_returns_after_the_helpers_that_took_it() {
        let pool = pool(3);
        within_a_minute("share", move || {
            for _ in 0..if cfg!(miri) { 4 } else { 200 } {
                let next = AtomicUsize::new(0);
                let done: Vec<AtomicUsize> = (0..64).map(|_| AtomicUsize::new(0)).collect();
                share(&pool, 3, &|| {
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        if i >= done.len() {
                            break;
                        }
                        std::hint::black_box(0..if cfg!(miri) { 10 } else { 1000 }).for_each(drop);
                        done[i].fetch_add(1, Relaxed);
                    }
                });
                assert!(done.iter().all(|d| d.load(Relaxed) == 1));
            }
        });
    }

    #[test]
    fn an_offer_taken_after_the_caller_finished_runs_nothing() {
        let pool = pool(1);
        // The pool's one thread is busy until released, so it takes the offer late.
        let (hold, release) = channel::<()>();
        pool.spawn(move || {
            let _ = release.recv();
        });
        let (returned, share_returned) = channel();
        let (go, gone) = channel::<()>();
        let on = Arc::clone(&pool);
        let runs = std::thread::spawn(move || {
            let runs = AtomicUsize::new(0);
            share(&on, 1, &|| {
                runs.fetch_add(1, Relaxed);
            });
            returned.send(()).unwrap();
            // The work stays alive until the late helper has come and gone.
            let _ = gone.recv();
            runs.into_inner()
        });
        let waited = share_returned.recv_timeout(Duration::from_secs(60));
        assert!(
            waited.is_ok(),
            "the caller waited for a helper that had not started"
        );
        drop(hold);
        // The pool's queue is in order: the late offer's job runs before this one.
        pool.install(|| {});
        drop(go);
        assert_eq!(runs.join().unwrap(), 1, "the late helper ran the work");
    }

    #[test]
    fn the_caller_waits_for_a_helper_that_took_the_offer() {
        let pool = pool(1);
        let finished = within_a_minute("share", move || {
            let started = AtomicUsize::new(0);
            let finished = AtomicUsize::new(0);
            share(&pool, 1, &|| {
                if rayon::current_thread_index().is_some() {
                    // The helper: slow, after telling the caller it has started.
                    started.store(1, Relaxed);
                    std::thread::sleep(Duration::from_millis(50));
                    finished.store(1, Relaxed);
                } else {
                    // The caller: returns only once the helper is inside the work.
                    let deadline = Instant::now() + Duration::from_secs(30);
                    while started.load(Relaxed) == 0 && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
            });
            finished.into_inner()
        });
        assert_eq!(finished, 1);
    }

    #[test]
    fn a_helpers_panic_is_raised_on_the_caller_after_every_helper_left() {
        let pool = pool(1);
        let message = within_a_minute("share", move || {
            let started = AtomicUsize::new(0);
            let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
                share(&pool, 1, &|| {
                    if rayon::current_thread_index().is_some() {
                        started.store(1, Relaxed);
                        std::panic::panic_any("helper failed");
                    }
                    let deadline = Instant::now() + Duration::from_secs(30);
                    while started.load(Relaxed) == 0 && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                });
            }));
            // The pool is still there and runs jobs: the panic did not abort the process.
            pool.install(|| {});
            ran.err().and_then(|p| p.downcast_ref::<&str>().copied())
        });
        assert_eq!(message, Some("helper failed"));
    }
}
