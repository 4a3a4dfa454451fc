//! The status of an OpenCL stream ([`Status`]): its first unreported error, and the checks still
//! to run once their commands have completed (a kernel's fault record read back). Each stream's
//! status has a lock of its own, apart from the stream table's, and nothing holds it while
//! waiting: a host callback takes it for the status it passes on ([`pending_error`]), while a
//! graph's replay may hold the table's lock for the whole replay.
//!
//! This module touches the events of the checks it holds.

use std::sync::Mutex;

use super::raw::ClEvent;
use crate::error::Error;
use crate::sync::lock;

/// A check run on the host after a command completed (e.g. reading a kernel's fault record).
pub(crate) type Check = Box<dyn FnOnce() -> crate::error::Result<()> + Send>;

/// What a stream's synchronization reports: its first unreported error, and the checks still to
/// run after its commands. It has a lock of its own, never held while waiting: a host callback
/// reads it for the status it passes on without the stream table's lock, which a graph's replay
/// holds for the whole replay (a callback never waits for the table).
#[derive(Default)]
pub(crate) struct Status {
    pub(super) error: Option<Error>,
    pub(super) checks: Vec<(ClEvent, Check)>,
}

impl Drop for Status {
    /// A pending check may own host memory that a queued copy still writes (a kernel's fault
    /// record): wait for it before dropping it. On a callback thread, where waiting is not
    /// allowed, leak it instead (a leak is safe; a freed buffer under a running copy is not).
    fn drop(&mut self) {
        for (event, check) in self.checks.drain(..) {
            if event.is_done().unwrap_or(false) {
                continue;
            }
            if crate::driver::callback::is_callback_thread() {
                std::mem::forget(check);
            } else {
                let _ = event.wait();
            }
        }
    }
}

impl Status {
    /// Runs the checks whose command has completed, keeping their first error.
    pub(super) fn run_due_checks(&mut self) {
        let mut due = Vec::new();
        let mut keep = Vec::new();
        for (event, check) in self.checks.drain(..) {
            if event.is_done().unwrap_or(true) {
                due.push(check);
            } else {
                keep.push((event, check));
            }
        }
        self.checks = keep;
        for check in due {
            if let Err(e) = check() {
                self.error.get_or_insert(e);
            }
        }
    }
}

/// The pending (unreported) error of the stream whose status is `status`, if any, without
/// taking it: after the checks of completed commands have run (a kernel's fault record is read
/// by one — without them, a callback after a faulting kernel saw `Ok`). For a host callback: the
/// lock is only ever held briefly, by threads that do not wait meanwhile.
pub(super) fn pending_error(status: &Mutex<Status>) -> Option<Error> {
    let mut status = lock(status);
    status.run_due_checks();
    status.error.clone()
}
