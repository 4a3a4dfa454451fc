//! Containing panics of code the runtime runs for its users: stream callbacks, queued work,
//! kernel bodies.
//!
//! Catching a panic is not enough. The caught payload is a user value whose `Drop` may panic in
//! turn — on a stream's worker thread that would end the worker (and every later synchronize
//! would wait for it forever), and inside an `extern "C"` driver callback it would abort the
//! process. So a payload is only ever read through [`message`] and then handed to [`dispose`],
//! which drops it under `catch_unwind` and leaks whatever a panicking drop throws (leaking is
//! safe; a second unwind is not). Touches nothing else.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The text of a panic payload (`&str` or `String`), or a placeholder.
pub(crate) fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".into()
    }
}

/// Drops a caught panic payload; a panic from its `Drop` is caught and its own payload leaked.
pub(crate) fn dispose(payload: Box<dyn Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        std::mem::forget(again);
    }
}

/// Runs `f`; a panic becomes `Err` with its message, and its payload is disposed of safely.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> std::result::Result<R, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let text = message(&*payload);
        dispose(payload);
        text
    })
}

/// For tests: a panic payload whose drop panics, with a payload whose drop panics, … `n` deep.
#[cfg(test)]
pub(crate) struct Nasty(pub(crate) u32);

#[cfg(test)]
impl Drop for Nasty {
    fn drop(&mut self) {
        if self.0 > 0 {
            std::panic::panic_any(Nasty(self.0 - 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // The payloads of the panicking drops are leaked on purpose, which Miri reports.
    #[cfg_attr(miri, ignore)]
    fn a_payload_whose_drop_panics_is_contained() {
        let r = catch(|| -> u8 { std::panic::panic_any(Nasty(3)) });
        assert_eq!(r.unwrap_err(), "a non-string panic payload");
        assert_eq!(catch(|| panic!("plain {}", 1)).unwrap_err(), "plain 1");
        assert_eq!(catch(|| 5).unwrap(), 5);
    }
}
