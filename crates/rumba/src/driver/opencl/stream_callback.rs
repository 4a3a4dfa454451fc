//! Host callbacks on an OpenCL stream.
//!
//! A command's event (a marker, or the last command of a batch) carries an OpenCL event callback,
//! and a barrier queued right after it waits for a user event — the *gate* — that the callback
//! opens once the host function has returned. So, as on CUDA, later work on the stream — and its
//! synchronization — waits for the callback, which matters for keep-alive values that must be
//! dropped by the time a synchronization returns. The host function runs on one of rumba's own
//! callback threads ([`callback`](super::callback)), marked as such
//! ([`mark_thread`](crate::driver::callback::mark_thread)), so no waiting call is made from it
//! and a callback blocked on another stream's callback holds up nothing else.
//!
//! A callback is queued in two steps: the gate's barrier while the stream table is locked
//! ([`queue_gate`]), and the event callback once it is unlocked ([`Pending::arm`]): OpenCL may
//! run the callback at once, on the calling thread. The callback reads the stream's status (its
//! pending error) from the status's own lock, never the table's. A callback that cannot be armed
//! (or is never armed) opens its gate, so nothing stays blocked on it, and is leaked, not
//! dropped: it may own what the commands queued before it use (a graph replay's keep-alive), and
//! those commands still run.
//!
//! This module touches the events it creates and the callbacks it arms.

use std::ffi::c_void;
use std::sync::{Arc, Mutex, Weak};

use opencl3::command_queue::enqueue_barrier_with_wait_list;
use opencl3::event::{CL_COMPLETE, create_user_event, set_event_callback, set_user_event_status};
use opencl3::types::{cl_command_queue, cl_event, cl_int};

use super::error::{check, map};
use super::inject::{Point, injected};
use super::raw::ClEvent;
use super::stream::DeviceQueues;
use super::stream_status::{Status, pending_error};
use crate::driver::HostCallback;
use crate::error::Result;

/// What the callback thread needs: the host function, the gate to open, and the status of the
/// stream, which it passes on.
struct CallbackData {
    callback: HostCallback,
    gate: ClEvent,
    status: Weak<Mutex<Status>>,
}

impl CallbackData {
    /// The callback will never run: opens its gate and leaks the host function (what it owns
    /// may be in use by commands queued before it).
    fn abandon(self) {
        let CallbackData { callback, gate, .. } = self;
        open(gate.raw());
        std::mem::forget(callback);
    }
}

/// A callback whose gate is queued, to be armed on `after` once the stream table is unlocked.
pub(crate) struct Pending {
    after: ClEvent,
    data: Option<Box<CallbackData>>,
}

/// Opens `gate` (nothing may stay blocked on a gate whose callback will never run).
fn open(gate: cl_event) {
    if let Err(code) = set_user_event_status(gate, CL_COMPLETE as cl_int) {
        tracing::error!(
            "a stream stays blocked: {}",
            map("clSetUserEventStatus", code)
        );
    }
}

/// Queues on `q` (the queue of the stream whose status is `status`) the gate of `callback`,
/// which runs once `after` (a command queued on `q`) has completed: a barrier that waits for the
/// gate. Returns the barrier's event (the stream's last command now) and the callback, to arm
/// once the stream table is unlocked.
///
/// # Errors
/// The user event's or the barrier's error (the gate is opened then, nothing waits for it, and
/// `callback` is dropped: whoever queued commands that use what it owns keeps that alive).
pub(crate) fn queue_gate(
    queues: &Arc<DeviceQueues>,
    q: cl_command_queue,
    status: Weak<Mutex<Status>>,
    after: ClEvent,
    callback: HostCallback,
) -> Result<(ClEvent, Pending)> {
    // SAFETY: a user event of our context, owned here.
    let gate = unsafe {
        ClEvent::from_raw(check(
            "clCreateUserEvent",
            create_user_event(queues.context()),
        )?)
    };
    let gates = [gate.raw()];
    // SAFETY: `q` is a live queue; the wait list holds a live event.
    let barrier = check("clEnqueueBarrierWithWaitList", unsafe {
        enqueue_barrier_with_wait_list(q, 1, gates.as_ptr())
    })
    .inspect_err(|_| open(gate.raw()))?;
    // SAFETY: we own the barrier's reference.
    let barrier = unsafe { ClEvent::from_raw(barrier) };
    let data = CallbackData {
        callback,
        gate,
        status,
    };
    Ok((
        barrier,
        Pending {
            after,
            data: Some(Box::new(data)),
        },
    ))
}

impl Pending {
    /// Arms the callback on its event.
    ///
    /// # Errors
    /// `clSetEventCallback`'s error: the callback will not run, its gate is open, and the host
    /// function is leaked (not dropped: see the [module docs](self)).
    pub(crate) fn arm(mut self) -> Result<()> {
        let Some(data) = self.data.take() else {
            return Ok(());
        };
        if let Some(code) = injected(Point::Arm) {
            data.abandon();
            return Err(map("clSetEventCallback", code));
        }
        let user = Box::into_raw(data);
        let r = set_event_callback(
            self.after.raw(),
            CL_COMPLETE as cl_int,
            callback_trampoline,
            user.cast(),
        );
        if let Err(code) = r {
            // SAFETY: OpenCL refused the callback, so it will never run: reclaim it here.
            let data = unsafe { Box::from_raw(user) };
            data.abandon();
            return Err(map("clSetEventCallback", code));
        }
        Ok(())
    }
}

impl Drop for Pending {
    /// Never armed: the callback will not run, so its gate opens (and the host function is
    /// leaked, as when arming fails).
    fn drop(&mut self) {
        if let Some(data) = self.data.take() {
            data.abandon();
        }
    }
}

/// OpenCL's callback for a stream callback's event: hands the host function to a callback
/// thread ([`callback`](super::callback)), which runs it and then opens the stream's gate. It
/// does nothing that blocks, since OpenCL may call it on any thread, the caller's included.
extern "C" fn callback_trampoline(_event: cl_event, status: cl_int, user: *mut c_void) {
    // SAFETY: `user` is the `Box<CallbackData>` leaked by `Pending::arm`; OpenCL calls each
    // callback exactly once, so it is reclaimed exactly once.
    let data = unsafe { Box::from_raw(user.cast::<CallbackData>()) };
    super::callback::run(Box::new(move || data.run(status)));
}

impl CallbackData {
    /// Runs the host function with the stream's status, then opens the gate.
    fn run(self, status: cl_int) {
        let CallbackData {
            callback,
            gate,
            status: stream,
        } = self;
        let status = if status < 0 {
            Err(map("earlier work on the stream", status))
        } else {
            match stream.upgrade().and_then(|s| pending_error(&s)) {
                Some(e) => Err(e),
                None => Ok(()),
            }
        };
        // A panic must not take the callback thread down (nor may its payload's drop:
        // `crate::unwind`).
        if let Err(panic) = crate::unwind::catch(move || callback(status)) {
            tracing::error!("a stream callback panicked: {panic}");
        }
        open(gate.raw());
    }
}
