//! Several commands queued on one stream at once ([`DeviceQueues::submit_batch`]): one lock of
//! the stream table, one wait list (on the first command: the in-order queue orders the rest),
//! one flush. A graph's replay is one batch; a host callback (marker, gate) is a small one.
//!
//! Commands that nothing outside the batch waits for are queued without an event of their own
//! (OpenCL then creates and releases none for the program); the batch keeps the event of the last
//! command that has one, and [`Batch::end`] adds a marker when commands without one came after
//! it, so the stream's last command always covers everything queued.
//!
//! This module touches the queue of the batch's stream and the events it creates.

use std::ffi::c_void;
use std::sync::Arc;

use cl3::error_codes::{DLOPEN_FUNCTION_NOT_AVAILABLE, DLOPEN_RUNTIME_LOAD_FAILED};
use opencl3::command_queue::enqueue_marker_with_wait_list;
use opencl3::types::{CL_NON_BLOCKING, cl_command_queue, cl_event, cl_int, cl_kernel};

use super::error::{check, map};
use super::raw::ClEvent;
use super::stream::{Check, DeviceQueues, wait_ptr};
use super::stream_callback::{Pending, queue_gate};
#[cfg(doc)]
use crate::driver::Driver;
use crate::driver::{HostCallback, StreamHandle};
use crate::error::Result;

/// The loaded OpenCL library, for the calls that queue a command without an event (opencl3's
/// wrappers always ask for one).
fn runtime(call: &str) -> Result<&'static cl3::OpenClRuntime> {
    cl3::load_library()
        .as_ref()
        .map_err(|_| map(call, DLOPEN_RUNTIME_LOAD_FAILED))
}

/// A call's status as a result (`None`: the library lacks the function); `call` names it, and is
/// only asked on an error (a replay makes a call per node).
fn status<S: AsRef<str>>(status: Option<cl_int>, call: impl FnOnce() -> S) -> Result<()> {
    match status {
        Some(0) => Ok(()),
        Some(code) => Err(map(call().as_ref(), code)),
        None => Err(map(call().as_ref(), DLOPEN_FUNCTION_NOT_AVAILABLE)),
    }
}

/// `clEnqueueSVMMemcpy` through the loaded library `cl`, non-blocking.
///
/// # Safety
/// `q` is a live queue, `wait` holds live events, `event` is null or a valid place for one; both
/// ranges stay valid until the copy has run.
unsafe fn svm_copy(
    cl: &cl3::OpenClRuntime,
    q: cl_command_queue,
    dst: *mut u8,
    src: *const u8,
    bytes: usize,
    wait: &[cl_event],
    event: *mut cl_event,
) -> Result<()> {
    let s = cl.clEnqueueSVMMemcpy(
        q,
        CL_NON_BLOCKING,
        dst.cast::<c_void>(),
        src.cast::<c_void>(),
        bytes,
        wait.len() as u32,
        wait_ptr(wait),
        event,
    );
    status(s, || "clEnqueueSVMMemcpy")
}

/// The commands of one batch on one stream (see the [module docs](self)).
pub(crate) struct Batch<'a> {
    queues: &'a Arc<DeviceQueues>,
    handle: StreamHandle,
    q: cl_command_queue,
    /// What the first command waits for, until it is queued.
    wait: Option<Vec<cl_event>>,
    /// The last command queued with an event.
    last: Option<ClEvent>,
    /// Whether commands without an event were queued after `last`.
    uncovered: bool,
    checks: Vec<(ClEvent, Check)>,
    callbacks: Vec<Pending>,
}

impl<'a> Batch<'a> {
    /// A batch on `q`, the queue of stream `handle`, whose first command waits for `deps`.
    pub(super) fn new(
        queues: &'a Arc<DeviceQueues>,
        handle: StreamHandle,
        q: cl_command_queue,
        deps: Vec<cl_event>,
    ) -> Self {
        Batch {
            queues,
            handle,
            q,
            wait: Some(deps),
            last: None,
            uncovered: false,
            checks: Vec::new(),
            callbacks: Vec::new(),
        }
    }

    /// The last command with an event, the checks and the callbacks to arm.
    pub(super) fn finish(self) -> (Option<ClEvent>, Vec<(ClEvent, Check)>, Vec<Pending>) {
        (self.last, self.checks, self.callbacks)
    }

    /// The context of the batch's queue.
    pub(crate) fn context(&self) -> opencl3::types::cl_context {
        self.queues.context()
    }

    /// Adds `events` to what the first command waits for (before it is queued).
    pub(crate) fn wait_also(&mut self, events: impl IntoIterator<Item = cl_event>) {
        if let Some(w) = &mut self.wait {
            w.extend(events);
        }
    }

    /// Queues one command with `enqueue`, which receives the wait list and where to put the
    /// command's event (null: nowhere, OpenCL then makes none for us).
    fn quiet(
        &mut self,
        enqueue: impl FnOnce(&[cl_event], *mut cl_event) -> Result<()>,
    ) -> Result<()> {
        enqueue(self.wait.as_deref().unwrap_or(&[]), std::ptr::null_mut())?;
        self.wait = None;
        self.uncovered = true;
        Ok(())
    }

    /// [`quiet`](Self::quiet), asking for the command's event, which becomes the batch's last.
    fn evented(
        &mut self,
        enqueue: impl FnOnce(&[cl_event], *mut cl_event) -> Result<()>,
    ) -> Result<ClEvent> {
        let mut raw: cl_event = std::ptr::null_mut();
        enqueue(self.wait.as_deref().unwrap_or(&[]), &raw mut raw)?;
        self.wait = None;
        // SAFETY: the command was queued and wrote its event, whose reference we own.
        let e = unsafe { ClEvent::from_raw(raw) };
        self.last = Some(e.clone());
        self.uncovered = false;
        Ok(e)
    }

    /// Queues kernel `k` over `global` with `local` work-groups (`dims` of the three used),
    /// without an event.
    ///
    /// # Safety
    /// Every argument of `k` is set, and what they point at stays valid until the kernel has run;
    /// nothing sets `k`'s arguments meanwhile.
    pub(crate) unsafe fn kernel(
        &mut self,
        name: &str,
        k: cl_kernel,
        dims: u32,
        global: &[usize; 3],
        local: &[usize; 3],
    ) -> Result<()> {
        let cl = runtime("clEnqueueNDRangeKernel")?;
        let q = self.q;
        self.quiet(|wait, event| {
            let s = cl.clEnqueueNDRangeKernel(
                q,
                k,
                dims,
                std::ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                wait.len() as u32,
                wait_ptr(wait),
                event,
            );
            status(s, || format!("clEnqueueNDRangeKernel({name})"))
        })
    }

    /// Queues an SVM copy of `bytes` from `src` to `dst`, without an event.
    ///
    /// # Safety
    /// Both ranges are SVM (or host) memory that stays valid, and unused by Rust references,
    /// until the copy has run.
    pub(crate) unsafe fn copy(&mut self, dst: *mut u8, src: *const u8, bytes: usize) -> Result<()> {
        let cl = runtime("clEnqueueSVMMemcpy")?;
        let q = self.q;
        // SAFETY: the batch's queue and wait list; the caller vouches for the ranges.
        self.quiet(|wait, event| unsafe { svm_copy(cl, q, dst, src, bytes, wait, event) })
    }

    /// [`copy`](Self::copy) with an event, which becomes the batch's last.
    ///
    /// # Safety
    /// As [`copy`](Self::copy).
    pub(crate) unsafe fn copy_evented(
        &mut self,
        dst: *mut u8,
        src: *const u8,
        bytes: usize,
    ) -> Result<ClEvent> {
        let cl = runtime("clEnqueueSVMMemcpy")?;
        let q = self.q;
        // SAFETY: the batch's queue and wait list; the caller vouches for the ranges.
        self.evented(|wait, event| unsafe { svm_copy(cl, q, dst, src, bytes, wait, event) })
    }

    /// Queues an SVM fill of `bytes` at `dst` with the byte `value`, without an event.
    ///
    /// # Safety
    /// The range is SVM memory that stays valid, and unused by Rust references, until the fill
    /// has run.
    pub(crate) unsafe fn fill(&mut self, dst: *mut u8, value: u8, bytes: usize) -> Result<()> {
        let cl = runtime("clEnqueueSVMMemFill")?;
        let q = self.q;
        let pattern = [value];
        self.quiet(|wait, event| {
            // OpenCL copies the one-byte pattern when the command is queued.
            let s = cl.clEnqueueSVMMemFill(
                q,
                dst.cast::<c_void>(),
                pattern.as_ptr().cast(),
                1,
                bytes,
                wait.len() as u32,
                wait_ptr(wait),
                event,
            );
            status(s, || "clEnqueueSVMMemFill")
        })
    }

    /// Queues a marker: its event completes when everything queued before it has.
    ///
    /// # Errors
    /// The marker's error.
    pub(crate) fn marker(&mut self) -> Result<ClEvent> {
        let q = self.q;
        self.evented(|wait, event| {
            // SAFETY: `q` is a live queue; the wait list holds live events.
            let raw = check("clEnqueueMarkerWithWaitList", unsafe {
                enqueue_marker_with_wait_list(q, wait.len() as u32, wait_ptr(wait))
            })?;
            // SAFETY: `evented` passes a valid place for the event.
            unsafe { *event = raw };
            Ok(())
        })
    }

    /// An event that completes when everything queued so far has: the last command's, or a new
    /// marker's when commands without an event came after it (or nothing was queued yet).
    ///
    /// # Errors
    /// The marker's error.
    pub(crate) fn end(&mut self) -> Result<ClEvent> {
        match &self.last {
            Some(e) if !self.uncovered => Ok(e.clone()),
            _ => self.marker(),
        }
    }

    /// `check` runs on the host at the stream's next synchronization once `event` (a command of
    /// the batch) has completed.
    pub(crate) fn check(&mut self, event: ClEvent, check: Check) {
        self.checks.push((event, check));
    }

    /// Runs `callback` on a callback thread once `after` (a command of the batch, the last
    /// queued) has completed; later commands of the stream wait for it to return.
    ///
    /// # Errors
    /// As [`queue_gate`]: the callback will not run.
    pub(crate) fn callback_after(&mut self, after: ClEvent, callback: HostCallback) -> Result<()> {
        let (barrier, pending) = queue_gate(self.queues, self.q, self.handle, after, callback)?;
        self.last = Some(barrier);
        self.uncovered = false;
        self.callbacks.push(pending);
        Ok(())
    }
}

impl DeviceQueues {
    /// Queues `callback` on `handle`: it runs once the work queued before has completed, and
    /// later work waits for it ([`Driver::stream_add_callback`]).
    ///
    /// # Errors
    /// [`crate::error::Error::InvalidHandle`] for an unknown stream; the marker's, gate's or
    /// arming's error.
    pub(crate) fn add_callback(
        self: &Arc<Self>,
        handle: StreamHandle,
        callback: HostCallback,
    ) -> Result<()> {
        self.submit_batch(handle, |b| {
            let marker = b.marker()?;
            b.callback_after(marker, callback)
        })
    }
}
