//! Keep-alives on CUDA: values that queued work needs until it has run (the buffers a copy or a
//! kernel uses, staged host bytes), dropped once an event recorded behind that work has
//! completed — not through a host callback.
//!
//! **Why not a callback** (what the [`Driver`](crate::driver::Driver) trait's default does, and
//! what this backend did until its first run on a GPU): CUDA runs the host callbacks of all the
//! streams of a context on one thread, one after another. A keep-alive written as a callback
//! waits for every callback queued before it on *any* stream, and its own stream waits for it in
//! turn, so one program callback that blocks (a host-side gate, a long computation) held every
//! stream of the device, and each copy or launch cost a round trip through CUDA's callback
//! thread. cudarc and CuPy keep memory alive with events for the same reasons.
//!
//! **How.** [`KeepAlives::keep`] records an event (from a pool of untimed events) on the stream
//! and queues `(event, value)` in that stream's queue; entries of one stream complete in queue
//! order, so only the front of each queue is ever asked. A reaper thread, started at the first
//! keep-alive, polls the fronts with `cuEventQuery` (backing off to 2 ms while nothing completes,
//! parked while nothing is queued) and drops what completed. It is marked as a callback thread,
//! so a drop there defers driver releases exactly as it did on CUDA's callback thread
//! ([`crate::driver::callback`]). A thread that synchronizes calls [`KeepAlives::settle`] after
//! its wait: it takes the completed entries itself and drops them, under the same mark, and waits
//! for a batch the reaper is dropping — so a synchronization returns with the values of the work
//! it waited for dropped, as it did when it waited for their callbacks.
//!
//! **Safety.** A value is dropped only after `cuEventQuery` returned `CUDA_SUCCESS` for an event
//! recorded after the work that uses it. An entry whose event cannot be asked (a context that
//! failed) is leaked, never dropped; so is every entry left when the driver goes away.
//!
//! This module touches CUDA's event calls and the values it is given.

use std::any::Any;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use cudarc::driver::sys::{self, CUresult};

use super::error::check;
use crate::error::Result;
use crate::sync::lock;

/// A value kept until its event completes.
struct Entry {
    /// A `CUevent` (as an integer, so entries are `Send`), recorded behind the work.
    event: usize,
    value: Box<dyn Any + Send>,
}

#[derive(Default)]
struct State {
    /// Per (device, stream handle): the entries in queue order.
    queues: HashMap<(usize, u64), VecDeque<Entry>>,
    /// Per device: completed events, to record again.
    free_events: HashMap<usize, Vec<usize>>,
    /// Set when the driver goes away: the reaper stops and touches no context again.
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the reaper when the first entry is queued or the driver closes.
    wake: Condvar,
    /// Held while completed values are dropped (by the reaper or a settling thread).
    dropping: Mutex<()>,
    /// Per device: its primary context (a `CUcontext` as an integer).
    contexts: Vec<usize>,
}

/// The keep-alives of one [`CudaDriver`](super::CudaDriver).
pub(super) struct KeepAlives {
    shared: Arc<Shared>,
    /// Set once the reaper thread has been started (or failed to start).
    reaper: OnceLock<()>,
}

impl KeepAlives {
    /// Keep-alives for the devices whose primary contexts are `contexts`.
    pub(super) fn new(contexts: Vec<usize>) -> Self {
        KeepAlives {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
                dropping: Mutex::new(()),
                contexts,
            }),
            reaper: OnceLock::new(),
        }
    }

    /// Keeps `value` until `stream`'s work queued so far has run. The caller made `device`'s
    /// context current.
    ///
    /// # Errors
    /// [`Error::Driver`](crate::error::Error::Driver) when no event can be created or recorded; `value`
    /// comes back with it (nothing was queued), for the caller to drop or leak.
    pub(super) fn keep(
        &self,
        device: usize,
        stream: u64,
        cu_stream: sys::CUstream,
        value: Box<dyn Any + Send>,
    ) -> std::result::Result<(), (crate::error::Error, Box<dyn Any + Send>)> {
        let reused = lock(&self.shared.state)
            .free_events
            .get_mut(&device)
            .and_then(Vec::pop);
        let event = match reused {
            Some(e) => e,
            None => match create_event() {
                Ok(e) => e,
                Err(e) => return Err((e, value)),
            },
        };
        // SAFETY: an event of this context and a valid stream handle.
        let recorded = check("cuEventRecord", unsafe {
            sys::cuEventRecord(event as sys::CUevent, cu_stream)
        });
        let mut state = lock(&self.shared.state);
        if let Err(e) = recorded {
            state.free_events.entry(device).or_default().push(event);
            return Err((e, value));
        }
        let queue = state.queues.entry((device, stream)).or_default();
        queue.push_back(Entry { event, value });
        drop(state);
        self.start_reaper();
        self.shared.wake.notify_one();
        Ok(())
    }

    /// Drops the values of `stream`'s completed entries (of every stream with `None`) on this
    /// thread, marked as a callback thread, and waits for a batch the reaper is dropping. Called
    /// after a synchronization; the caller made `device`'s context current.
    pub(super) fn settle(&self, device: usize, stream: Option<u64>) {
        let done = lock(&self.shared.state)
            .take_completed(|d, s| d == device && stream.is_none_or(|want| want == s));
        let _dropping = lock(&self.shared.dropping);
        crate::driver::callback::as_callback_thread(|| drop_values(done));
    }

    fn start_reaper(&self) {
        self.reaper.get_or_init(|| {
            let shared = Arc::clone(&self.shared);
            if let Err(e) = std::thread::Builder::new()
                .name("rumba-cuda-keepalive".into())
                .spawn(move || reap(&shared))
            {
                // Values are still dropped by the threads that synchronize.
                tracing::error!("the CUDA keep-alive thread could not start: {e}");
            }
        });
    }
}

impl KeepAlives {
    /// Stops the reaper from touching any context again (it checks under the same lock), and
    /// leaks whatever is still queued: that work may still be running when the driver releases
    /// its contexts. The pooled events go with the contexts. Idempotent.
    pub(super) fn close(&self) {
        let mut state = lock(&self.shared.state);
        state.closed = true;
        // Whatever is left may still be in use by work the driver no longer tracks: leaked.
        for (_, queue) in state.queues.drain() {
            for entry in queue {
                std::mem::forget(entry.value);
            }
        }
        drop(state);
        self.shared.wake.notify_all();
    }
}

impl Drop for KeepAlives {
    fn drop(&mut self) {
        self.close();
    }
}

impl State {
    /// The values of the completed front entries of every queue `visit` accepts (given its
    /// device and stream; it also makes the device's context current), their events back in the
    /// pool; empty queues are dropped.
    fn take_completed(
        &mut self,
        mut visit: impl FnMut(usize, u64) -> bool,
    ) -> Vec<Box<dyn Any + Send>> {
        let mut done = Vec::new();
        for (&(device, stream), queue) in self.queues.iter_mut() {
            if visit(device, stream) {
                let free = self.free_events.entry(device).or_default();
                take_completed(queue, free, &mut done);
            }
        }
        self.queues.retain(|_, q| !q.is_empty());
        done
    }
}

/// A fresh untimed event in the current context.
fn create_event() -> Result<usize> {
    let mut e = std::ptr::null_mut();
    // SAFETY: writes one event handle; the caller made a context current.
    check("cuEventCreate(keep-alive)", unsafe {
        sys::cuEventCreate(&mut e, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32)
    })?;
    Ok(e as usize)
}

/// Moves the completed front entries of `queue` into `done`, their events into `free`. An entry
/// whose event fails to answer is leaked with every entry behind it (their work may never run).
fn take_completed(
    queue: &mut VecDeque<Entry>,
    free: &mut Vec<usize>,
    done: &mut Vec<Box<dyn Any + Send>>,
) {
    while let Some(front) = queue.front() {
        // SAFETY: an event created by this module in the current context, not destroyed.
        match unsafe { sys::cuEventQuery(front.event as sys::CUevent) } {
            CUresult::CUDA_SUCCESS => {
                if let Some(entry) = queue.pop_front() {
                    free.push(entry.event);
                    done.push(entry.value);
                }
            }
            CUresult::CUDA_ERROR_NOT_READY => return,
            r => {
                tracing::error!(
                    "a keep-alive's event cannot be queried ({r:?}): its values are leaked"
                );
                for entry in queue.drain(..) {
                    std::mem::forget(entry.value);
                }
            }
        }
    }
}

/// Drops `values`, each under its own panic guard (a panicking drop is logged, not spread).
fn drop_values(values: Vec<Box<dyn Any + Send>>) {
    for value in values {
        if let Err(panic) = crate::unwind::catch(move || drop(value)) {
            tracing::error!("dropping a value kept alive for queued work panicked: {panic}");
        }
    }
}

/// The reaper thread: drops completed values until the driver closes.
fn reap(shared: &Shared) {
    crate::driver::callback::mark_thread();
    let mut pause = Duration::from_micros(20);
    let mut current: Option<usize> = None;
    loop {
        let done = {
            let mut state = lock(&shared.state);
            while state.queues.is_empty() && !state.closed {
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if state.closed {
                return;
            }
            state.take_completed(|device, _| {
                if current != Some(device) {
                    let Some(&ctx) = shared.contexts.get(device) else {
                        return false;
                    };
                    // SAFETY: a primary context the driver retains while it is open (and it is:
                    // `closed` is checked under this lock).
                    if unsafe { sys::cuCtxSetCurrent(ctx as sys::CUcontext) }
                        != CUresult::CUDA_SUCCESS
                    {
                        return false;
                    }
                    current = Some(device);
                }
                true
            })
        };
        if done.is_empty() {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        } else {
            pause = Duration::from_micros(20);
            let _dropping = lock(&shared.dropping);
            drop_values(done);
        }
    }
}
