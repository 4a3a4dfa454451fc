//! Several commands queued on one stream at once ([`DeviceQueues::submit_batch`]): one lock of
//! the stream table, one wait list (on the first command: the in-order queue orders the rest),
//! one flush. A graph's replay is one batch; a host callback (marker, gate) is a small one.
//!
//! Commands that nothing outside the batch waits for are queued without an event of their own
//! (OpenCL then creates and releases none for the program); the batch keeps the event of the last
//! command that has one, and [`Batch::end`] adds a marker when commands without one came after
//! it, so the stream's last command always covers everything queued. Should even that marker
//! fail, [`Batch::finish`] says so and the stream covers them later (or waits for its whole
//! queue).
//!
//! This module touches the queue of the batch's stream and the events it creates.

use std::ffi::c_void;
use std::sync::{Arc, Mutex, Weak};

use cl3::error_codes::{DLOPEN_FUNCTION_NOT_AVAILABLE, DLOPEN_RUNTIME_LOAD_FAILED};
use opencl3::command_queue::enqueue_marker_with_wait_list;
use opencl3::types::{CL_NON_BLOCKING, cl_command_queue, cl_event, cl_int, cl_kernel};

use super::error::{check, map};
use super::inject::{Point, injected};
use super::raw::ClEvent;
use super::stream::{DeviceQueues, wait_ptr};
use super::stream_callback::{Pending, queue_gate};
use super::stream_status::{Check, Status};
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

/// `clEnqueueSVMMemcpy` (named `call` in errors), non-blocking, of `bytes` from `src` to `dst` on
/// `q` after `wait`; its event goes to `event` (null: OpenCL makes none).
///
/// # Safety
/// `q` is a live queue, `wait` holds live events, `event` is null or a valid place for one; both
/// ranges are SVM (or host) memory that stays valid, and unused by Rust references, until the
/// copy has run.
pub(super) unsafe fn svm_copy(
    call: &str,
    q: cl_command_queue,
    dst: *mut u8,
    src: *const u8,
    bytes: usize,
    wait: &[cl_event],
    event: *mut cl_event,
) -> Result<()> {
    let cl = runtime(call)?;
    // SAFETY (cl3's loaded functions are not marked `unsafe`, but OpenCL dereferences what they
    // are given): this function's contract covers every pointer the call reads or writes — the
    // queue, the wait list (`wait.len()` live events, or null when empty), the event's place and
    // both ranges.
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
    status(s, || call)
}

/// What a batch queued, for its stream ([`Batch::finish`]).
pub(super) struct Finished {
    /// The last command queued with an event.
    pub(super) last: Option<ClEvent>,
    /// Whether any command was queued.
    pub(super) queued: bool,
    /// Whether commands were queued after `last` without an event (even the end's marker
    /// failed): nothing the batch made covers them.
    pub(super) uncovered: bool,
    /// Checks to run once their command has completed.
    pub(super) checks: Vec<(ClEvent, Check)>,
    /// Host callbacks to arm once the stream table is unlocked.
    pub(super) callbacks: Vec<Pending>,
}

/// The commands of one batch on one stream (see the [module docs](self)).
pub(crate) struct Batch<'a> {
    queues: &'a Arc<DeviceQueues>,
    q: cl_command_queue,
    /// The stream's status, which its host callbacks pass on.
    status: Weak<Mutex<Status>>,
    /// What the first command waits for, until it is queued.
    wait: Option<Vec<cl_event>>,
    /// References to the events of `wait` that the stream table does not hold.
    wait_kept: Vec<ClEvent>,
    /// The last command queued with an event.
    last: Option<ClEvent>,
    /// Whether commands without an event were queued after `last`.
    uncovered: bool,
    checks: Vec<(ClEvent, Check)>,
    callbacks: Vec<Pending>,
}

impl<'a> Batch<'a> {
    /// A batch on `q`, the queue of the stream whose status is `status`; its first command waits
    /// for `deps` (events the stream table holds while the batch is queued).
    pub(super) fn new(
        queues: &'a Arc<DeviceQueues>,
        q: cl_command_queue,
        status: Weak<Mutex<Status>>,
        deps: Vec<cl_event>,
    ) -> Self {
        Batch {
            queues,
            q,
            status,
            wait: Some(deps),
            wait_kept: Vec::new(),
            last: None,
            uncovered: false,
            checks: Vec::new(),
            callbacks: Vec::new(),
        }
    }

    /// What the batch queued.
    pub(super) fn finish(self) -> Finished {
        Finished {
            queued: self.queued(),
            last: self.last,
            uncovered: self.uncovered,
            checks: self.checks,
            callbacks: self.callbacks,
        }
    }

    /// Whether any command was queued.
    pub(crate) fn queued(&self) -> bool {
        self.wait.is_none()
    }

    /// The context of the batch's queue.
    pub(crate) fn context(&self) -> opencl3::types::cl_context {
        self.queues.context()
    }

    /// Adds `events` to what the first command waits for (before it is queued); the batch holds
    /// them until then.
    pub(crate) fn wait_also(&mut self, events: impl IntoIterator<Item = ClEvent>) {
        if let Some(w) = &mut self.wait {
            for e in events {
                w.push(e.raw());
                self.wait_kept.push(e);
            }
        }
    }

    /// The first command was queued: it no longer needs the wait list.
    fn started(&mut self) {
        self.wait = None;
        self.wait_kept.clear();
    }

    /// Queues one command with `enqueue`, which receives the wait list and where to put the
    /// command's event (null: nowhere, OpenCL then makes none for us).
    fn quiet(
        &mut self,
        call: &str,
        enqueue: impl FnOnce(&[cl_event], *mut cl_event) -> Result<()>,
    ) -> Result<()> {
        if let Some(code) = injected(Point::Enqueue) {
            return Err(map(call, code));
        }
        enqueue(self.wait.as_deref().unwrap_or(&[]), std::ptr::null_mut())?;
        self.started();
        self.uncovered = true;
        Ok(())
    }

    /// [`quiet`](Self::quiet), asking for the command's event, which becomes the batch's last.
    fn evented(
        &mut self,
        call: &str,
        enqueue: impl FnOnce(&[cl_event], *mut cl_event) -> Result<()>,
    ) -> Result<ClEvent> {
        if let Some(code) = injected(Point::Enqueue) {
            return Err(map(call, code));
        }
        let mut raw: cl_event = std::ptr::null_mut();
        enqueue(self.wait.as_deref().unwrap_or(&[]), &raw mut raw)?;
        self.started();
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
        self.quiet("clEnqueueNDRangeKernel", |wait, event| {
            // SAFETY (cl3's loaded functions are not marked `unsafe`, but OpenCL dereferences
            // what they are given): `q` is the batch's live queue; `wait` holds `wait.len()`
            // events that the stream table or the batch keeps alive (null when empty); `event` is
            // null (`quiet`); `global` and `local` hold the three sizes `dims` reads; no global
            // offset. This function's contract covers the kernel: every argument set, what they
            // point at valid until it has run, and no one setting its arguments meanwhile.
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
        let (q, call) = (self.q, "clEnqueueSVMMemcpy");
        // SAFETY: the batch's queue and wait list, no event; the caller vouches for the ranges.
        self.quiet(call, |wait, event| unsafe {
            svm_copy(call, q, dst, src, bytes, wait, event)
        })
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
        let (q, call) = (self.q, "clEnqueueSVMMemcpy");
        // SAFETY: the batch's queue and wait list, a place for the event; the caller vouches for
        // the ranges.
        self.evented(call, |wait, event| unsafe {
            svm_copy(call, q, dst, src, bytes, wait, event)
        })
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
        self.quiet("clEnqueueSVMMemFill", |wait, event| {
            // SAFETY (cl3's loaded functions are not marked `unsafe`, but OpenCL dereferences
            // what they are given): `q` is the batch's live queue; `wait` holds `wait.len()`
            // events that the stream table or the batch keeps alive (null when empty); `event` is
            // null (`quiet`); the one-byte pattern is copied while the command is queued. This
            // function's contract covers the range written.
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
        self.evented("clEnqueueMarkerWithWaitList", |wait, event| {
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
        let status = self.status.clone();
        let (barrier, pending) = queue_gate(self.queues, self.q, status, after, callback)?;
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
