//! How a simulated thread fails, and how the failure becomes [`Error::KernelFault`].
//!
//! A thread fails by unwinding: out-of-bounds accesses, barrier misuse and
//! [`ThreadCtx::fault`](super::ThreadCtx::fault) unwind with a private [`FaultPayload`] through
//! [`std::panic::resume_unwind`] (so the panic hook does not print anything for them); an
//! ordinary `panic!` in the kernel body unwinds with its own payload. The block runner catches the
//! unwind where it resumes the thread and turns the payload into a message with [`describe`];
//! [`kernel_fault`] attaches kernel, block and thread. Touches nothing else.

use std::any::Any;

use super::barrier::Arrival;
use super::dim::Dim3;
use crate::error::Error;

/// The private unwinding payload of a fault raised by the simulator itself.
pub(crate) struct FaultPayload(pub(crate) String);

/// The private unwinding payload of a barrier reached by a thread running on the fast path,
/// where it cannot suspend (see `exec`).
pub(crate) struct PlainBarrier(pub(crate) Arrival);

/// Fails the current simulated thread with `message`, without running the panic hook.
#[cold]
#[inline(never)]
pub(crate) fn raise(message: String) -> ! {
    std::panic::resume_unwind(Box::new(FaultPayload(message)))
}

/// What an unwinding thread was carrying.
pub(crate) enum Unwound {
    /// A fault (simulator check or user panic) with its message.
    Fault(String),
    /// A barrier on the fast path: not a fault by itself.
    Barrier(Arrival),
}

/// Classifies a caught payload.
pub(crate) fn describe(payload: Box<dyn Any + Send>) -> Unwound {
    let payload = match payload.downcast::<FaultPayload>() {
        Ok(f) => return Unwound::Fault(f.0),
        Err(p) => p,
    };
    let payload = match payload.downcast::<PlainBarrier>() {
        Ok(b) => return Unwound::Barrier(b.0),
        Err(p) => p,
    };
    // A user's panic: its payload may panic again when dropped (see `crate::unwind`).
    let text = crate::unwind::message(&*payload);
    crate::unwind::dispose(payload);
    Unwound::Fault(format!("panicked: {text}"))
}

/// The launch error for a fault in `block` / `thread`.
pub(crate) fn kernel_fault(kernel: &str, block: Dim3, thread: Dim3, message: String) -> Error {
    Error::KernelFault {
        kernel: kernel.to_owned(),
        block: block.to_array(),
        thread: thread.to_array(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_told_apart() {
        let msg = |p: Box<dyn Any + Send>| match describe(p) {
            Unwound::Fault(m) => m,
            Unwound::Barrier(_) => "barrier".into(),
        };
        assert_eq!(msg(Box::new(FaultPayload("oob".into()))), "oob");
        assert_eq!(msg(Box::new("boom")), "panicked: boom");
        assert_eq!(msg(Box::new(String::from("bang"))), "panicked: bang");
        assert_eq!(msg(Box::new(3u8)), "panicked: a non-string panic payload");
        let r = std::panic::catch_unwind(|| raise("x".into()));
        assert_eq!(msg(r.unwrap_err()), "x");
    }
}
