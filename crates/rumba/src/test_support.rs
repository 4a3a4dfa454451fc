//! What the crate's unit tests share: running a test's body where a hang fails the test instead
//! of hanging the test run.
//!
//! This module touches only the threads it starts.

use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// Runs `f` on a thread of its own and returns what it returns. A panic of `f` fails the calling
/// test at once, a hang after a minute; the message names `what`.
pub(crate) fn within_a_minute<R: Send + 'static>(
    what: &str,
    f: impl FnOnce() -> R + Send + 'static,
) -> R {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(f());
    });
    match finished.recv_timeout(Duration::from_secs(60)) {
        Ok(r) => r,
        Err(RecvTimeoutError::Timeout) => panic!("{what} did not finish within a minute"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what} panicked (its message is above)"),
    }
}
