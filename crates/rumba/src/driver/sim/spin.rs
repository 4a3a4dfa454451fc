//! Waiting for a hand-off between the simulator's threads by spinning for a few microseconds
//! before sleeping: a stream worker out of work, a host thread waiting for an operation, and a
//! launch's calling thread waiting for its block helpers. A hand-off that comes within the
//! spin costs no futex wake-up, which on a virtual machine costs tens of microseconds (a halted
//! virtual CPU has to be woken).
//!
//! This module touches nothing but the clock and the calling thread's core.

use std::time::{Duration, Instant};

/// How long a hand-off is awaited by spinning before the waiter sleeps.
const SPIN: Duration = Duration::from_micros(20);

/// How long of [`SPIN`] the waiter only pauses between checks; for the rest it yields its core
/// between them. On a machine with no idle core, the thread a hand-off is waiting for may be
/// the one a pausing waiter keeps off its core: a launch's block helper that must run before
/// the launch (and so the host's wait) can end, or the stream worker a host thread is waiting
/// for. Small launches on two cores took about 1.4 times as long while their waiters paused
/// for the whole spin.
const PAUSE: Duration = Duration::from_micros(2);

/// Spins until `ready` (checked between pauses, then between yields) or [`SPIN`] has passed;
/// whether it became ready.
pub(crate) fn spin_until(mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    let mut polite = false;
    for i in 1u32.. {
        if ready() {
            return true;
        }
        if polite || i % 16 == 0 {
            let waited = start.elapsed();
            if waited > SPIN {
                return false;
            }
            polite = waited > PAUSE;
        }
        if polite {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_hand_off_ends_the_spin_and_a_missing_one_gives_up_after_the_spin() {
        assert!(spin_until(|| true));
        let start = Instant::now();
        assert!(!spin_until(|| false));
        assert!(start.elapsed() >= SPIN);
    }
}
