//! The C entry point CUDA calls for a stream callback (`cuStreamAddCallback`): it runs the boxed
//! [`HostCallback`] once on CUDA's callback thread, marked as a callback thread, with panics
//! contained.
//!
//! This module touches only the callback it is handed.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUresult};

use super::error::check;
use crate::driver::HostCallback;

/// Runs a boxed [`HostCallback`] on CUDA's callback thread.
pub(super) unsafe extern "C" fn callback_trampoline(
    _stream: sys::CUstream,
    status: CUresult,
    user: *mut c_void,
) {
    crate::driver::callback::mark_thread();
    // SAFETY: `user` is the `Box<HostCallback>` leaked by `stream_add_callback`; CUDA calls each
    // callback exactly once, so it is reclaimed exactly once.
    let callback = unsafe { Box::from_raw(user.cast::<HostCallback>()) };
    let status = check("stream callback", status);
    // A panic must not unwind into the driver (nor may its payload's drop: `crate::unwind`).
    if let Err(panic) = crate::unwind::catch(move || callback(status)) {
        tracing::error!("a stream callback panicked: {panic}");
    }
}
