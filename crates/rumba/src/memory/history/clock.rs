//! The clock of a memory history: while events flow, a thread of the recording reads the monotonic
//! clock every millisecond and publishes the value; an event reads the published value, one
//! relaxed load of a cache line that changes a thousand times a second, instead of calling the
//! clock itself.
//!
//! **Why a ticking thread.** A pool's allocation takes well under a microsecond, and the history
//! is meant to cost it a tenth at most. `clock_gettime(CLOCK_MONOTONIC_COARSE)` costs about 5 % of
//! a pool's allocation on the machines this was measured on (the precise clock and the time-stamp
//! counter, read in a virtual machine, cost more still), so the clock is read once a millisecond
//! rather than once an event.
//!
//! **Resolution.** An event's time is that of the last tick: 1 ms plus the ticking thread's
//! scheduling delay, finer than the coarse clock's scheduler tick (4 ms with the common
//! `HZ=250`). Published values never decrease.
//!
//! **Idle.** A ticker that sees no event for [`IDLE_TICKS`] ticks marks the clock idle and parks,
//! so that a program recording nothing for a while costs nothing. The first event to find the
//! clock idle reads the clock itself, publishes it and wakes the ticker. If the ticking thread
//! cannot be started (or under Miri, where a thread may not outlive its test), the clock stays
//! idle and every event reads the clock itself (correct, only slower).
//!
//! **Fork.** A child process has no ticking thread (only the forking thread goes on in it), and
//! a time published once would stay its events' time. A handler the fork runs in the child marks
//! the clock idle and the ticker gone, so that the child's events read the clock themselves
//! (taking no lock, which another thread of the parent could have held at the fork) until a
//! recording started in the child starts a ticker of its own.
//!
//! This module touches its published time and its ticking thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::Duration;

use crate::sync::lock;

/// How often the ticker publishes the clock.
const TICK: Duration = Duration::from_millis(1);

/// Ticks without an event after which the ticker parks.
const IDLE_TICKS: u32 = 100;

/// The published time, and whether the ticker is parked; one cache line of its own, read by every
/// event.
#[repr(align(64))]
struct Published {
    /// [`read`]'s value at the last tick (or at the last wake-up), in nanoseconds.
    now: AtomicU64,
    /// The ticker is parked (or there is none): an event must read the clock itself.
    idle: AtomicBool,
}

static PUBLISHED: Published = Published {
    now: AtomicU64::new(0),
    idle: AtomicBool::new(true),
};

/// The running ticker, to wake or stop.
static TICKER: Mutex<Option<Ticker>> = Mutex::new(None);

/// Set in a child process until it starts a ticker of its own: the ticker of [`TICKER`] is its
/// parent's, and events read the clock without waking it.
static FORKED: AtomicBool = AtomicBool::new(false);

struct Ticker {
    thread: Thread,
    /// Set to send the ticker away.
    done: Arc<AtomicBool>,
}

/// The time of an event, in nanoseconds of [`read`]'s clock: the last published value, or the
/// clock itself when the ticker is idle (waking it).
#[inline(always)]
pub(super) fn now() -> u64 {
    published().unwrap_or_else(wake)
}

/// The last published time, when the ticker is not idle (else [`now`] reads the clock).
#[inline(always)]
pub(super) fn published() -> Option<u64> {
    if PUBLISHED.idle.load(Ordering::Relaxed) {
        return None;
    }
    Some(PUBLISHED.now.load(Ordering::Relaxed))
}

/// Reads the clock, publishes it and wakes the ticker (if there is one).
#[cold]
#[inline(never)]
fn wake() -> u64 {
    let t = read();
    let before = PUBLISHED.now.fetch_max(t, Ordering::Relaxed);
    if FORKED.load(Ordering::Relaxed) {
        return t.max(before);
    }
    if let Some(ticker) = lock(&TICKER).as_ref() {
        PUBLISHED.idle.store(false, Ordering::Relaxed);
        ticker.thread.unpark();
    }
    t.max(before)
}

/// Starts a ticker for a recording; `events` counts its events (the ticker parks when the count
/// stops moving). A ticker already running is sent away first.
pub(super) fn start(events: impl Fn() -> u64 + Send + 'static) {
    stop();
    if cfg!(miri) {
        // Under Miri a thread that outlives its test is an error: events read the clock.
        return;
    }
    let done = Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    let spawned = std::thread::Builder::new()
        .name("rumba-history-clock".into())
        .spawn(move || tick(&events, &flag));
    match spawned {
        Ok(handle) => {
            on_fork();
            FORKED.store(false, Ordering::Relaxed);
            PUBLISHED.now.fetch_max(read(), Ordering::Relaxed);
            *lock(&TICKER) = Some(Ticker {
                thread: handle.thread().clone(),
                done,
            });
            PUBLISHED.idle.store(false, Ordering::Relaxed);
        }
        Err(e) => {
            tracing::warn!("memory history: no clock thread ({e}); every event reads the clock");
        }
    }
}

/// Registers, once, the handler that a fork runs in the child (see the module docs).
fn on_fork() {
    #[cfg(unix)]
    {
        extern "C" fn in_child() {
            // Only atomic stores: the child runs this before anything else, with one thread.
            FORKED.store(true, Ordering::Relaxed);
            PUBLISHED.idle.store(true, Ordering::Relaxed);
        }
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: `in_child` is a plain function that lives as long as the process and does
            // only atomic stores, which are async-signal-safe, as a child's fork handler must be.
            let rc = unsafe { libc::pthread_atfork(None, None, Some(in_child)) };
            if rc != 0 {
                tracing::warn!(
                    "memory history: no fork handler ({rc}); a child's events keep the fork's time"
                );
            }
        });
    }
}

/// Sends the running ticker away (it exits at its next tick); events read the clock themselves
/// until the next [`start`].
pub(super) fn stop() {
    if let Some(ticker) = lock(&TICKER).take() {
        ticker.done.store(true, Ordering::Relaxed);
        ticker.thread.unpark();
    }
    PUBLISHED.idle.store(true, Ordering::Relaxed);
}

/// The ticker's loop: publish, sleep a tick, park after [`IDLE_TICKS`] ticks without an event.
fn tick(events: &dyn Fn() -> u64, done: &AtomicBool) {
    let mut seen = events();
    let mut quiet = 0;
    while !done.load(Ordering::Relaxed) {
        PUBLISHED.now.fetch_max(read(), Ordering::Relaxed);
        std::thread::park_timeout(TICK);
        let count = events();
        if count != seen {
            seen = count;
            quiet = 0;
            continue;
        }
        quiet += 1;
        if quiet < IDLE_TICKS {
            continue;
        }
        // Idle: publish once more, then park until an event (or `stop`) wakes this thread. An
        // event that read `idle` as false before the store reads a time at most a tick old.
        PUBLISHED.now.fetch_max(read(), Ordering::Relaxed);
        PUBLISHED.idle.store(true, Ordering::Relaxed);
        while PUBLISHED.idle.load(Ordering::Relaxed) && !done.load(Ordering::Relaxed) {
            std::thread::park();
        }
        quiet = 0;
        seen = events();
    }
}

/// The monotonic clock, in nanoseconds.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn read() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given, which lives for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    if rc != 0 {
        return 0; // not on Linux since 2.6; the event reads as the recording's start
    }
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// The monotonic clock, in nanoseconds.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn read() -> u64 {
    static BASE: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    BASE.get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    // The clock is process-wide: the history's tests that start clocks take turns.

    /// Bumps `events` every 2 ms for `span` (the ticker keeps ticking), then returns how far
    /// the published time lags the clock. Published once and never again, it would lag `span`.
    fn lag_after_events(events: &AtomicU64, span: Duration) -> u64 {
        let end = std::time::Instant::now() + span;
        while std::time::Instant::now() < end {
            events.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(2));
        }
        read().saturating_sub(PUBLISHED.now.load(Ordering::Relaxed))
    }

    #[test]
    #[cfg_attr(miri, ignore = "no ticker under Miri")]
    fn events_read_a_recent_time_while_ticking_and_after_the_ticker_went_idle() {
        let _turn = crate::sync::lock(&super::super::TEST_TURN);
        let events = Arc::new(AtomicU64::new(0));
        let count = events.clone();
        start(move || count.load(Ordering::Relaxed));
        // The bounds leave room for a loaded machine: they only need to be below the span.
        let span = Duration::from_millis(300);
        let lag = lag_after_events(&events, span);
        assert!(
            lag < 200_000_000,
            "ticking, the published time lags {lag} ns"
        );
        // No event for IDLE_TICKS ticks: the ticker parks.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !PUBLISHED.idle.load(Ordering::Relaxed) {
            assert!(
                std::time::Instant::now() < deadline,
                "the ticker did not park"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(50));
        // The first event reads the clock itself and wakes the ticker.
        let before = read();
        assert!(
            now() >= before,
            "after idling, an event's time is the clock's own"
        );
        assert!(
            !PUBLISHED.idle.load(Ordering::Relaxed),
            "an event woke the ticker"
        );
        let lag = lag_after_events(&events, span);
        assert!(lag < 200_000_000, "woken, the published time lags {lag} ns");
        stop();
        assert!(PUBLISHED.idle.load(Ordering::Relaxed));
        let before = read();
        assert!(now() >= before, "without a ticker, events read the clock");
    }

    #[test]
    #[cfg_attr(miri, ignore = "no ticker or fork under Miri")]
    fn a_forked_child_reads_the_clock_itself() {
        let _turn = crate::sync::lock(&super::super::TEST_TURN);
        start(|| 0);
        // Ticking (the ticker runs while events, here none, have not idled it for 100 ticks).
        std::thread::sleep(Duration::from_millis(5));
        assert!(!PUBLISHED.idle.load(Ordering::Relaxed));
        // SAFETY: the child calls only `now` (atomics and `clock_gettime`), `nanosleep` through
        // `thread::sleep`, and `_exit`: nothing that needs a lock another thread may hold.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork");
        if pid == 0 {
            let first = now();
            std::thread::sleep(Duration::from_millis(30));
            let second = now();
            let code = if second - first >= 20_000_000 { 0 } else { 1 };
            // SAFETY: ends the child without running the parent's destructors or test harness.
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: waits for the child just forked, writing only `status`.
        let waited = unsafe { libc::waitpid(pid, &mut status, 0) };
        stop();
        assert_eq!(waited, pid);
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "in the child, 30 ms later an event's time had not moved (status {status})"
        );
    }

    #[test]
    #[cfg_attr(miri, ignore = "no ticker under Miri")]
    fn published_times_never_decrease() {
        let _turn = crate::sync::lock(&super::super::TEST_TURN);
        start(|| 0);
        let mut last = 0;
        for _ in 0..20_000 {
            let t = now();
            assert!(t >= last, "{t} after {last}");
            last = t;
        }
        stop();
    }
}
