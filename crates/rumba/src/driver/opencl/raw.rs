//! Owned OpenCL handles: contexts, command queues, events, programs and kernels, each released
//! exactly once when dropped.
//!
//! rumba wraps cl3's raw calls (which opencl3 re-exports) instead of using opencl3's own owning
//! types because those `expect` on a failed release, and a library must not panic in `Drop`: here
//! a failed release is logged and otherwise ignored. Every OpenCL object is reference counted and
//! thread-safe for retain, release and queries, so the wrappers are `Send + Sync`; the one
//! exception (setting a kernel's arguments) is serialised by the users of [`ClKernel`].
//!
//! This module touches the OpenCL objects it owns.

use std::ffi::c_void;

use cl3::context::{release_context, retain_context};
use opencl3::command_queue::{finish, flush, release_command_queue, retain_command_queue};
use opencl3::event::{
    CL_COMPLETE, CL_EVENT_COMMAND_EXECUTION_STATUS, get_event_info, get_event_profiling_info,
    release_event, retain_event, wait_for_events,
};
use opencl3::kernel::release_kernel;
use opencl3::program::release_program;
use opencl3::types::{
    cl_command_queue, cl_context, cl_event, cl_int, cl_kernel, cl_profiling_info, cl_program,
};

use super::error::{check, map};
use crate::error::Result;

macro_rules! owned_handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $release:path, $what:literal) => {
        $(#[$doc])*
        pub(crate) struct $name($raw);

        // SAFETY: OpenCL objects may be retained, released and queried from any thread.
        unsafe impl Send for $name {}
        // SAFETY: as above; no method takes `&self` for a call OpenCL does not make thread-safe.
        unsafe impl Sync for $name {}

        impl $name {
            /// Takes ownership of one reference to `raw`.
            ///
            /// # Safety
            /// `raw` must be a valid object whose reference the caller hands over.
            pub(crate) unsafe fn from_raw(raw: $raw) -> Self {
                $name(raw)
            }

            /// The raw handle (still owned by `self`).
            pub(crate) fn raw(&self) -> $raw {
                self.0
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: `self` owns one reference, released exactly once here.
                if let Err(code) = unsafe { $release(self.0) } {
                    tracing::warn!("releasing an OpenCL {} failed: {}", $what, map("release", code));
                }
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:p})", stringify!($name), self.0 as *const c_void)
            }
        }
    };
}

owned_handle!(
    /// An OpenCL context.
    ClContext, cl_context, release_context, "context"
);
owned_handle!(
    /// An in-order command queue.
    ClQueue, cl_command_queue, release_command_queue, "command queue"
);
owned_handle!(
    /// A command's (or user) event.
    ClEvent, cl_event, release_event, "event"
);
owned_handle!(
    /// A built program.
    ClProgram, cl_program, release_program, "program"
);
owned_handle!(
    /// A kernel object. Setting its arguments is not thread-safe: callers serialise it.
    ClKernel, cl_kernel, release_kernel, "kernel"
);

impl ClContext {
    /// Another reference to `raw`, owned by the result (what must outlive the driver's own
    /// reference holds one).
    ///
    /// # Safety
    /// `raw` is a valid context.
    pub(crate) unsafe fn retain(raw: cl_context) -> Result<ClContext> {
        // SAFETY: the caller vouches for `raw`.
        check("clRetainContext", unsafe { retain_context(raw) })?;
        Ok(ClContext(raw))
    }
}

impl Clone for ClEvent {
    fn clone(&self) -> Self {
        // SAFETY: `self.0` is a valid event; the new reference is owned by the clone.
        if let Err(code) = unsafe { retain_event(self.0) } {
            // Retaining a valid event cannot fail short of memory corruption; keep going with
            // a logged warning rather than a panic (the clone then over-releases at worst by one,
            // which OpenCL reports as CL_INVALID_EVENT on a later call).
            tracing::error!("clRetainEvent failed: {}", map("clRetainEvent", code));
        }
        ClEvent(self.0)
    }
}

impl ClEvent {
    /// The command's execution status: `CL_COMPLETE` (0), a positive state on the way there,
    /// or a negative error code when it failed.
    pub(crate) fn status(&self) -> Result<cl_int> {
        check(
            "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)",
            get_event_info(self.0, CL_EVENT_COMMAND_EXECUTION_STATUS),
        )
        .map(|v| v.to_int())
    }

    /// True when the command has completed (successfully or not).
    pub(crate) fn is_done(&self) -> Result<bool> {
        Ok(self.status()? <= CL_COMPLETE as cl_int)
    }

    /// Blocks until the command has completed; a failed command is an error.
    pub(crate) fn wait(&self) -> Result<()> {
        let r = wait_for_events(&[self.0]);
        let status = self.status()?;
        if status < 0 {
            return Err(map("command execution", status));
        }
        check("clWaitForEvents", r)
    }

    /// A profiling time stamp in nanoseconds.
    pub(crate) fn profiling(&self, what: cl_profiling_info) -> Result<u64> {
        check(
            "clGetEventProfilingInfo",
            get_event_profiling_info(self.0, what),
        )
        .map(|v| v.to_ulong())
    }
}

impl ClQueue {
    /// Submits everything queued so far to the device (needed before another queue waits on
    /// one of these commands).
    pub(crate) fn flush(&self) -> Result<()> {
        check("clFlush", flush(self.0))
    }

    /// Blocks until everything queued so far has completed (`clFinish`): for commands that no
    /// event of ours covers.
    pub(crate) fn finish(&self) -> Result<()> {
        check("clFinish", finish(self.0))
    }

    /// Another reference to the queue, owned by the result (to wait on it without the lock of
    /// the table that owns it).
    ///
    /// # Errors
    /// `clRetainCommandQueue`'s error.
    pub(crate) fn retain(&self) -> Result<ClQueue> {
        // SAFETY: `self.0` is a valid queue; the new reference is owned by the result.
        check("clRetainCommandQueue", unsafe {
            retain_command_queue(self.0)
        })?;
        Ok(ClQueue(self.0))
    }
}
