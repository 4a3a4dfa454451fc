//! Waiting for queued OpenCL work when the process exits.
//!
//! A program may return from `main` with work still queued (CUDA lets it). PoCL compiles a
//! kernel's work-group function when the kernel is first run, on its own threads; if the process
//! exits meanwhile, the compiler's static objects are destroyed under that compilation and the
//! process aborts ("Failed to create kernel compiler pass …") or crashes — 8 of 20 runs of a
//! one-launch program with a cold kernel cache, here. So every device's queues are registered
//! here ([`drain_at_exit`]) and an `atexit` handler waits for their last commands, for at most
//! [`LIMIT`] (work held by a callback that never returns must not keep the process alive).
//!
//! Exit handlers and the destructors of C++ statics run in the reverse order of their
//! registration, and the compiler registers its statics when it first compiles. So the handler
//! is registered (again) after every program build ([`after_build`]), which puts it ahead of
//! them; registering it once when the backend opened was not enough (it then ran last, after the
//! statics were gone: every run crashed). `tests/opencl.rs::exiting_with_a_launch_in_flight_is_clean`
//! runs such programs in child processes with a cold cache.
//!
//! It then waits, within the same limit, until no stream callback is still running on a
//! callback thread: a callback completes its stream's last event (it opens the stream's gate)
//! before it has released its own events, and such a release racing the library's static
//! destructors is the likeliest cause of the rare exit crash still seen after the first fix (1 of
//! about 170 cold-cache runs of the `auto_transfers` doctest under parallel load here, and once
//! in CI).
//!
//! What is still not covered: PoCL compiles a kernel's work-group function when the kernel
//! first runs, and the compiler may register static objects then, after the last registration
//! of this wait; if the process exits during that compilation, they are destroyed first (seen
//! as "LLVM ERROR: Do not know how to split the result of this operator!" in 1 of 64 cold-cache
//! runs under parallel load here). A program that synchronizes before it exits never meets it.
//!
//! This module touches the queues' last events, the callback threads' state and `atexit`.

use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use super::stream::DeviceQueues;
use crate::sync::lock;

/// The longest the exit waits for queued work.
const LIMIT: Duration = Duration::from_secs(10);

static LIVE: Mutex<Vec<Weak<DeviceQueues>>> = Mutex::new(Vec::new());

/// Registers `queues` for the wait at exit.
pub(crate) fn drain_at_exit(queues: &Arc<DeviceQueues>) {
    let mut live = lock(&LIVE);
    live.retain(|w| w.strong_count() > 0);
    live.push(Arc::downgrade(queues));
}

/// Registers the exit wait (again) now that a program was built: handlers run in the reverse
/// order of registration, so it runs before the destructors of whatever the compiler set up.
pub(crate) fn after_build() {
    // SAFETY: `at_exit` is an `extern "C" fn()` that never unwinds (it contains panics).
    if unsafe { libc::atexit(at_exit) } != 0 {
        tracing::warn!("could not register the OpenCL exit wait (atexit failed)");
    }
}

extern "C" fn at_exit() {
    let _ = crate::unwind::catch(|| {
        let live: Vec<_> = lock(&LIVE).iter().filter_map(Weak::upgrade).collect();
        let deadline = Instant::now() + LIMIT;
        for e in live.iter().flat_map(|q| q.last_events()) {
            while !e.is_done().unwrap_or(true) {
                if Instant::now() >= deadline {
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // A stream callback opens its gate (completing the stream's last event) and then still
        // releases its events on its thread: wait for those threads to leave the library too.
        while !super::callback::quiet() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}
