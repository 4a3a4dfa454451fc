//! Streams on OpenCL: one in-order command queue per stream, with CUDA's ordering rules rebuilt
//! from event wait lists.
//!
//! Every queue of a device lives in one [`DeviceQueues`] table, each with the event of the last
//! command queued on it. Queuing an operation ([`DeviceQueues::submit`]) takes the table's lock,
//! computes what the operation must wait for, queues it with that wait list, records its event
//! as the queue's last, and flushes the queue (OpenCL only lets another queue wait for a command
//! that has been flushed). The rules, as in the simulator:
//! - the legacy default stream (handles 0 and 1) waits for the last command of every *blocking*
//!   stream (created blocking streams and every thread's per-thread default stream), and of
//!   blocking streams destroyed since its last command;
//! - a blocking stream waits for the legacy default stream's last command;
//! - a non-blocking stream waits for nothing but its own earlier commands.
//!
//! Several commands can be queued at once ([`DeviceQueues::submit_batch`], see
//! [`batch`](super::batch)): one lock, one wait list on the first, one flush. Host callbacks (a
//! command's event carries the callback, a barrier after it waits for the callback to return)
//! are [`stream_callback`](super::stream_callback)'s; [`DeviceQueues::add_callback`] queues one.
//! A batch may queue commands without events; should it fail to end them with one (a marker),
//! the stream's commands are *uncovered*: the table queues a marker at the next chance, and
//! until one is queued, what must wait for the stream is refused, a query says "not done", and a
//! synchronization waits for the whole queue (`clFinish`).
//!
//! Errors of queued work: a command that fails leaves a negative status on its event, which the
//! next synchronization reports (once). Checks that need the host after a command (a kernel's
//! fault record) are registered with [`DeviceQueues::submit_checked`] and run by the next
//! synchronization of that stream. The pending error and the checks have a lock of their own
//! ([`stream_status`](super::stream_status)), which a host callback takes for the status it
//! passes on.
//!
//! This module touches the queues and events it owns.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use opencl3::command_queue::{
    CL_QUEUE_CONTEXT, CL_QUEUE_DEVICE, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PROPERTIES,
    create_command_queue_with_properties, enqueue_marker_with_wait_list, get_command_queue_info,
    retain_command_queue,
};
use opencl3::types::{cl_command_queue, cl_context, cl_device_id, cl_event, cl_queue_properties};

use super::batch::Batch;
use super::error::check;
use super::inject::{Point, injected};
use super::raw::{ClEvent, ClQueue};
use super::stream_status::{Check, Status};
use crate::driver::StreamHandle;
use crate::error::{Error, Result};
use crate::sync::lock;

/// One stream's queue.
struct Slot {
    queue: ClQueue,
    blocking: bool,
    /// The last command with an event: with `uncovered` at zero, it completes after everything
    /// queued on the stream (the queue is in order).
    last: Option<ClEvent>,
    /// Batches whose commands came after `last` without an event of their own, because even the
    /// marker that ends a batch failed (see [`Slot::cover`]).
    uncovered: usize,
    /// Shared with the stream's host callbacks.
    status: Arc<Mutex<Status>>,
}

impl Slot {
    fn new(queue: ClQueue, blocking: bool) -> Slot {
        Slot {
            queue,
            blocking,
            last: None,
            uncovered: 0,
            status: Arc::default(),
        }
    }

    /// `event` is the stream's last command now: it covers everything queued before it.
    fn set_last(&mut self, event: ClEvent) {
        self.last = Some(event);
        self.uncovered = 0;
    }

    /// Makes `last` cover every queued command again after a batch left some without an event:
    /// a marker, flushed (what orders after the stream needs it). Until it succeeds, what must
    /// wait for the stream is refused, a query says "not done", and a synchronization waits for
    /// the whole queue (`clFinish`): nothing ever takes the stream for finished while commands
    /// of it may still run.
    ///
    /// # Errors
    /// The marker's or the flush's error (the commands stay uncovered).
    fn cover(&mut self) -> Result<()> {
        if self.uncovered == 0 {
            return Ok(());
        }
        let q = self.queue.raw();
        let marker = match injected(Point::Enqueue) {
            Some(code) => Err(code),
            // SAFETY: `q` is the slot's live queue; an empty wait list (the queue is in order).
            None => unsafe { enqueue_marker_with_wait_list(q, 0, std::ptr::null()) },
        };
        let marker = check("clEnqueueMarkerWithWaitList", marker)?;
        // SAFETY: we own the marker's event.
        self.set_last(unsafe { ClEvent::from_raw(marker) });
        self.queue.flush()
    }
}

/// Which slot a handle names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Legacy,
    Stream(u64),
    PerThread(u64),
}

struct Queues {
    legacy: Slot,
    streams: HashMap<u64, Slot>,
    per_thread: HashMap<u64, Slot>,
    /// Last commands of blocking streams destroyed since the legacy stream's last command.
    retired: Vec<ClEvent>,
    /// Last commands of non-blocking streams destroyed while they may still run: nothing orders
    /// after them, but the device's synchronization and idleness wait for them, as for every
    /// stream's work (`cuCtxSynchronize` does). Those found complete are let go.
    detached: Vec<ClEvent>,
}

impl Queues {
    /// Every live stream's slot with its key: the legacy stream, created streams, per-thread
    /// default streams (destroyed streams' last commands are in `retired` and `detached`).
    fn slots_mut(&mut self) -> impl Iterator<Item = (Key, &mut Slot)> {
        std::iter::once((Key::Legacy, &mut self.legacy))
            .chain(self.streams.iter_mut().map(|(h, s)| (Key::Stream(*h), s)))
            .chain(
                self.per_thread
                    .iter_mut()
                    .map(|(t, s)| (Key::PerThread(*t), s)),
            )
    }

    fn slot(&mut self, key: Key) -> Option<&mut Slot> {
        match key {
            Key::Legacy => Some(&mut self.legacy),
            Key::Stream(h) => self.streams.get_mut(&h),
            Key::PerThread(t) => self.per_thread.get_mut(&t),
        }
    }

    /// What an operation on `key` waits for under the legacy-default-stream rules; the streams
    /// it waits for are covered first ([`Slot::cover`]).
    ///
    /// # Errors
    /// A stream it must wait for has commands that no event covers, and no marker could be
    /// queued after them: the operation is refused (nothing is queued).
    fn ordering(&mut self, key: Key) -> Result<Vec<cl_event>> {
        match key {
            Key::Legacy => {
                let blocking = self.streams.values_mut().filter(|s| s.blocking);
                for s in blocking.chain(self.per_thread.values_mut()) {
                    s.cover()?;
                }
            }
            Key::Stream(h) if !self.streams.get(&h).is_some_and(|s| s.blocking) => {}
            Key::Stream(_) | Key::PerThread(_) => self.legacy.cover()?,
        }
        let last = |s: &Slot| s.last.as_ref().map(ClEvent::raw);
        Ok(match key {
            Key::Legacy => self
                .streams
                .values()
                .filter(|s| s.blocking)
                .chain(self.per_thread.values())
                .filter_map(last)
                .chain(self.retired.iter().map(ClEvent::raw))
                .collect(),
            Key::Stream(h) if !self.streams.get(&h).is_some_and(|s| s.blocking) => Vec::new(),
            Key::Stream(_) | Key::PerThread(_) => last(&self.legacy).into_iter().collect(),
        })
    }

    fn retire(&mut self, mut slot: Slot) {
        let Some(e) = slot.last.take() else {
            return;
        };
        if slot.blocking {
            self.retired.push(e);
        } else {
            self.detached.retain(|d| !matches!(d.is_done(), Ok(true)));
            self.detached.push(e);
        }
    }
}

static NEXT_THREAD_KEY: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static THREAD_KEY: u64 = NEXT_THREAD_KEY.fetch_add(1, Ordering::Relaxed);
    /// This thread's per-thread default streams; dropping them (at thread exit) retires them.
    static PER_THREAD_OWNERS: RefCell<Vec<PerThreadOwner>> = const { RefCell::new(Vec::new()) };
}

struct PerThreadOwner {
    queues: Weak<DeviceQueues>,
    key: u64,
}

impl Drop for PerThreadOwner {
    fn drop(&mut self) {
        if let Some(q) = self.queues.upgrade() {
            let mut table = lock(&q.table);
            // A stream whose last commands no event covers stays (a leak), so the legacy
            // stream and the device's synchronization still find them.
            let covered = (table.per_thread.get_mut(&self.key)).is_some_and(|s| s.cover().is_ok());
            if covered && let Some(slot) = table.per_thread.remove(&self.key) {
                table.retire(slot);
            }
        }
    }
}

/// Every queue of one device.
pub(crate) struct DeviceQueues {
    context: cl_context,
    device: cl_device_id,
    profiling: bool,
    /// `RUMBA_PER_THREAD_DEFAULT_STREAM`: handle 0 is the calling thread's per-thread stream.
    per_thread_default: bool,
    table: Mutex<Queues>,
    /// A private queue, ordered against nothing, that zeroes fresh allocations.
    zeroer: Mutex<ClQueue>,
}

// SAFETY: the raw context and device ids are only passed to thread-safe OpenCL calls; the context
// is kept alive by the driver that owns this table.
unsafe impl Send for DeviceQueues {}
// SAFETY: as above; all mutable state is behind the mutex.
unsafe impl Sync for DeviceQueues {}

fn create_queue(context: cl_context, device: cl_device_id, profiling: bool) -> Result<ClQueue> {
    let props: [cl_queue_properties; 3] = [
        CL_QUEUE_PROPERTIES as cl_queue_properties,
        if profiling {
            CL_QUEUE_PROFILING_ENABLE as cl_queue_properties
        } else {
            0
        },
        0,
    ];
    // SAFETY: `device` belongs to `context`; the property list is zero-terminated.
    let q = check("clCreateCommandQueueWithProperties", unsafe {
        create_command_queue_with_properties(context, device, props.as_ptr())
    })?;
    // SAFETY: a fresh queue whose one reference we own.
    Ok(unsafe { ClQueue::from_raw(q) })
}

impl DeviceQueues {
    /// The table of `device` (in `context`) with its legacy default stream.
    pub(crate) fn new(
        context: cl_context,
        device: cl_device_id,
        profiling: bool,
        per_thread_default: bool,
    ) -> Result<Arc<DeviceQueues>> {
        let legacy = Slot::new(create_queue(context, device, profiling)?, true);
        let zeroer = Mutex::new(create_queue(context, device, false)?);
        let queues = Arc::new(DeviceQueues {
            context,
            device,
            profiling,
            per_thread_default,
            zeroer,
            table: Mutex::new(Queues {
                legacy,
                streams: HashMap::new(),
                per_thread: HashMap::new(),
                retired: Vec::new(),
                detached: Vec::new(),
            }),
        });
        super::exit::drain_at_exit(&queues);
        Ok(queues)
    }

    /// The slot key for `handle`, creating this thread's per-thread stream on first use.
    fn key(self: &Arc<Self>, table: &mut Queues, handle: StreamHandle) -> Result<Key> {
        match handle.0 {
            0 if !self.per_thread_default => Ok(Key::Legacy),
            1 => Ok(Key::Legacy),
            0 | 2 => {
                let t = THREAD_KEY.with(|k| *k);
                if let std::collections::hash_map::Entry::Vacant(slot) = table.per_thread.entry(t) {
                    let q = create_queue(self.context, self.device, self.profiling)?;
                    slot.insert(Slot::new(q, true));
                    let owner = PerThreadOwner {
                        queues: Arc::downgrade(self),
                        key: t,
                    };
                    // At thread exit the owner retires the stream; if thread-locals are already
                    // gone the stream simply lives as long as the driver.
                    let _ = PER_THREAD_OWNERS.try_with(|o| o.borrow_mut().push(owner));
                }
                Ok(Key::PerThread(t))
            }
            h if table.streams.contains_key(&h) => Ok(Key::Stream(h)),
            h => Err(unknown_stream(h)),
        }
    }

    /// Fails unless `handle` names a stream of this device (a per-thread default stream is
    /// created on first use).
    ///
    /// # Errors
    /// [`Error::InvalidHandle`].
    pub(crate) fn check(self: &Arc<Self>, handle: StreamHandle) -> Result<()> {
        let mut table = lock(&self.table);
        self.key(&mut table, handle).map(drop)
    }

    /// Queues one operation on `handle`: `op` receives the raw queue and the events it must wait
    /// for, and returns the event of what it queued (which becomes the stream's last command).
    pub(crate) fn submit(
        self: &Arc<Self>,
        handle: StreamHandle,
        op: impl FnOnce(cl_command_queue, &[cl_event]) -> Result<ClEvent>,
    ) -> Result<ClEvent> {
        self.submit_after(handle, &[], op)
    }

    /// [`submit`](Self::submit), also waiting for `extra` (commands of other devices' queues).
    pub(crate) fn submit_after(
        self: &Arc<Self>,
        handle: StreamHandle,
        extra: &[ClEvent],
        op: impl FnOnce(cl_command_queue, &[cl_event]) -> Result<ClEvent>,
    ) -> Result<ClEvent> {
        let mut table = lock(&self.table);
        let key = self.key(&mut table, handle)?;
        let mut deps = table.ordering(key)?;
        deps.extend(extra.iter().map(ClEvent::raw));
        let slot = table.slot(key).ok_or_else(|| unknown_stream(handle.0))?;
        let event = op(slot.queue.raw(), &deps)?;
        slot.set_last(event.clone());
        slot.queue.flush()?;
        if key == Key::Legacy {
            table.retired.clear();
        }
        Ok(event)
    }

    /// Queues several commands on `handle` under one lock of the table and one flush (a graph's
    /// replay): `op` queues them through the [`Batch`], whose first command waits for what the
    /// stream's ordering requires. Whatever `op` returns, what it noted in the batch (its last
    /// command, checks) is kept on the stream, and host callbacks it queued are armed once the
    /// table is unlocked (OpenCL may run one at once, on this thread). Commands `op` queued after
    /// the batch's last event (its end failed) are covered by a marker, or, failing that, left
    /// for the stream's next operations to cover ([`Slot::cover`]).
    ///
    /// # Errors
    /// [`Error::InvalidHandle`] for an unknown stream, or the refusal of the stream's ordering
    /// (nothing is queued); `op`'s error; the flush's or arming's error.
    pub(crate) fn submit_batch<T>(
        self: &Arc<Self>,
        handle: StreamHandle,
        op: impl FnOnce(&mut Batch) -> Result<T>,
    ) -> Result<T> {
        let (result, flushed, callbacks) = {
            let mut table = lock(&self.table);
            let key = self.key(&mut table, handle)?;
            let deps = table.ordering(key)?;
            let slot = table.slot(key).ok_or_else(|| unknown_stream(handle.0))?;
            let status = Arc::downgrade(&slot.status);
            let mut batch = Batch::new(self, slot.queue.raw(), status, deps);
            let result = op(&mut batch);
            let done = batch.finish();
            if let Some(last) = done.last {
                slot.set_last(last);
            }
            lock(&slot.status).checks.extend(done.checks);
            if done.uncovered {
                slot.uncovered += 1;
                // Else a later operation covers them (or waits for the whole queue).
                if let Err(e) = slot.cover() {
                    tracing::warn!("commands of a batch stay without an event: {e}");
                }
            }
            let flushed = if done.queued {
                slot.queue.flush()
            } else {
                Ok(())
            };
            // The retired streams' last commands: the first command waited for them.
            if done.queued && key == Key::Legacy {
                table.retired.clear();
            }
            (result, flushed, done.callbacks)
        };
        let mut armed = Ok(());
        for c in callbacks {
            let r = c.arm();
            armed = armed.and(r);
        }
        let value = result?;
        flushed.and(armed)?;
        Ok(value)
    }

    /// [`submit`](Self::submit), then `check` runs on the host at the stream's next
    /// synchronization once the operation has completed; its error is that synchronization's.
    pub(crate) fn submit_checked(
        self: &Arc<Self>,
        handle: StreamHandle,
        op: impl FnOnce(cl_command_queue, &[cl_event]) -> Result<ClEvent>,
        check: Check,
    ) -> Result<ClEvent> {
        let event = self.submit(handle, op)?;
        let mut table = lock(&self.table);
        let key = self.key(&mut table, handle)?;
        if let Some(slot) = table.slot(key) {
            lock(&slot.status).checks.push((event.clone(), check));
        }
        Ok(event)
    }

    /// Zeroes a fresh allocation and waits: device memory never shows a previous allocation's
    /// bytes (OpenCL, like CUDA, does not clear what it hands out). The private queue has no
    /// dependencies, so the wait is safe even on a callback thread.
    pub(crate) fn zero_now(&self, ptr: *mut c_void, bytes: usize) -> Result<()> {
        let pattern = [0u8];
        let event = {
            let q = lock(&self.zeroer);
            // SAFETY: `ptr` is a fresh allocation of `bytes` bytes that nothing else uses; OpenCL
            // copies the pattern when the command is queued.
            let e = check("clEnqueueSVMMemFill", unsafe {
                opencl3::command_queue::enqueue_svm_mem_fill(
                    q.raw(),
                    ptr,
                    pattern.as_ptr().cast(),
                    1,
                    bytes,
                    0,
                    std::ptr::null(),
                )
            })?;
            // SAFETY: we own the fill's event.
            let e = unsafe { ClEvent::from_raw(e) };
            q.flush()?;
            e
        };
        event.wait()
    }

    /// Creates a stream; its handle is the `cl_command_queue` itself (so other OpenCL code can
    /// use it, as CUDA streams are shared).
    pub(crate) fn create(&self, non_blocking: bool) -> Result<StreamHandle> {
        let q = create_queue(self.context, self.device, self.profiling)?;
        let h = q.raw() as usize as u64;
        lock(&self.table)
            .streams
            .insert(h, Slot::new(q, !non_blocking));
        Ok(StreamHandle(h))
    }

    /// Accepts a queue created elsewhere: it must be a queue of this device's context and device.
    /// It is retained (and released when destroyed or when the driver drops) and treated as a
    /// blocking stream, as CUDA treats external streams without flags.
    ///
    /// # Safety
    /// `handle` must be a live `cl_command_queue` (OpenCL cannot validate a made-up pointer).
    pub(crate) unsafe fn adopt(&self, handle: StreamHandle) -> Result<()> {
        if handle.0 <= 2 || lock(&self.table).streams.contains_key(&handle.0) {
            return Ok(());
        }
        let q = handle.0 as usize as cl_command_queue;
        let ctx = check(
            "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)",
            get_command_queue_info(q, CL_QUEUE_CONTEXT),
        )?
        .to_ptr();
        let dev = check(
            "clGetCommandQueueInfo(CL_QUEUE_DEVICE)",
            get_command_queue_info(q, CL_QUEUE_DEVICE),
        )?
        .to_ptr();
        if ctx as usize != self.context as usize || dev as usize != self.device as usize {
            return Err(Error::InvalidHandle {
                kind: "stream",
                handle: handle.0,
                reason: "the command queue belongs to another OpenCL context or device".into(),
            });
        }
        // SAFETY: `q` is a live queue (checked by the queries above and the caller's contract);
        // the reference taken here is owned by the slot.
        check("clRetainCommandQueue", unsafe { retain_command_queue(q) })?;
        // SAFETY: we own the reference retained just above.
        let owned = unsafe { ClQueue::from_raw(q) };
        lock(&self.table)
            .streams
            .insert(handle.0, Slot::new(owned, true));
        Ok(())
    }

    /// Destroys a created (or adopted) stream; work already queued still completes.
    ///
    /// # Errors
    /// [`Error::InvalidHandle`]; the error covering the stream's last commands with an event
    /// ([`Slot::cover`]), which the legacy stream and the device's synchronization need: the
    /// stream stays then.
    pub(crate) fn destroy(&self, handle: StreamHandle) -> Result<()> {
        if handle.0 <= 2 {
            return Err(Error::InvalidHandle {
                kind: "stream",
                handle: handle.0,
                reason: "a built-in stream cannot be destroyed".into(),
            });
        }
        let mut table = lock(&self.table);
        let slot = (table.streams.get_mut(&handle.0)).ok_or_else(|| unknown_stream(handle.0))?;
        slot.cover()?;
        if let Some(slot) = table.streams.remove(&handle.0) {
            table.retire(slot);
        }
        Ok(())
    }

    /// Waits for everything queued on `handle`, then reports its first unreported error.
    pub(crate) fn synchronize(self: &Arc<Self>, handle: StreamHandle) -> Result<()> {
        crate::driver::callback::refuse_wait("stream synchronize", "")?;
        let end = {
            let mut table = lock(&self.table);
            let key = self.key(&mut table, handle)?;
            table.slot(key).map(Slot::end)
        };
        let Some(end) = end else {
            return Err(unknown_stream(handle.0));
        };
        let waited = end.wait();
        let mut table = lock(&self.table);
        let key = self.key(&mut table, handle)?;
        let slot = table.slot(key).ok_or_else(|| unknown_stream(handle.0))?;
        settle(slot, &end, waited)
    }

    /// True when everything queued on `handle` has completed.
    pub(crate) fn query(self: &Arc<Self>, handle: StreamHandle) -> Result<bool> {
        let last = {
            let mut table = lock(&self.table);
            let key = self.key(&mut table, handle)?;
            match table.slot(key) {
                Some(s) => {
                    if s.cover().is_err() {
                        // Commands without an event: their end cannot be known.
                        return Ok(false);
                    }
                    s.last.clone()
                }
                None => None,
            }
        };
        let done = match &last {
            Some(e) => e.is_done()?,
            None => true,
        };
        if done {
            // Run the checks that are due (their errors wait for the next synchronization), so
            // a program that only polls does not accumulate them.
            let mut table = lock(&self.table);
            let key = self.key(&mut table, handle)?;
            if let Some(slot) = table.slot(key) {
                lock(&slot.status).run_due_checks();
            }
        }
        Ok(done)
    }

    /// True when the last command of every stream of the device, destroyed ones included, has
    /// completed; never waits. A stream with commands that no event covers is not idle.
    pub(crate) fn idle(&self) -> Result<bool> {
        let (lasts, covered) = self.lasts();
        if !covered {
            return Ok(false);
        }
        for e in lasts {
            if !e.is_done()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The last command of every stream of the device, destroyed ones included (those of
    /// streams whose last commands no event covers are missing).
    pub(crate) fn last_events(&self) -> Vec<ClEvent> {
        self.lasts().0
    }

    /// [`last_events`](Self::last_events), and whether they cover every queued command.
    fn lasts(&self) -> (Vec<ClEvent>, bool) {
        let mut table = lock(&self.table);
        let mut covered = true;
        let mut lasts = Vec::new();
        for (_, s) in table.slots_mut() {
            covered &= s.cover().is_ok();
            lasts.extend(s.last.clone());
        }
        lasts.extend(table.retired.iter().cloned());
        lasts.extend(table.detached.iter().cloned());
        (lasts, covered)
    }

    /// Waits for every stream of the device; reports the first unreported error.
    pub(crate) fn synchronize_all(self: &Arc<Self>) -> Result<()> {
        crate::driver::callback::refuse_wait("device synchronize", "")?;
        let ends: Vec<(Key, End)> = {
            let mut table = lock(&self.table);
            let mut ends: Vec<(Key, End)> = table.slots_mut().map(|(k, s)| (k, s.end())).collect();
            let destroyed = table.retired.iter().chain(&table.detached);
            ends.extend(destroyed.map(|e| (Key::Legacy, End::Event(e.clone()))));
            ends
        };
        let waited: Vec<(Key, End, Result<()>)> = ends
            .into_iter()
            .map(|(k, e)| {
                let r = e.wait();
                (k, e, r)
            })
            .collect();
        let mut first = Ok(());
        let mut table = lock(&self.table);
        // Waited for: a destroyed non-blocking stream's work is done (its error reported here).
        let waited_for = |d: &ClEvent| {
            waited
                .iter()
                .any(|(_, end, _)| matches!(end, End::Event(e) if e.raw() == d.raw()))
        };
        table.detached.retain(|d| !waited_for(d));
        for (key, end, r) in waited {
            let outcome = match table.slot(key) {
                Some(slot) => settle(slot, &end, r),
                None => r,
            };
            if first.is_ok() {
                first = outcome;
            }
        }
        first
    }

    /// Holds the table's lock until the result is dropped (for tests of what runs meanwhile).
    #[cfg(test)]
    pub(super) fn hold_table(&self) -> impl Sized + '_ {
        lock(&self.table)
    }

    /// The context the queues belong to.
    pub(crate) fn context(&self) -> cl_context {
        self.context
    }
}

/// What a synchronization of one stream waits for ([`Slot::end`]).
enum End {
    /// Nothing was queued.
    Nothing,
    /// The last command, which covers every other.
    Event(ClEvent),
    /// The whole queue (commands no event covers), and how many uncovered batches that covers.
    Queue(ClQueue, usize),
}

impl End {
    /// Waits for it.
    fn wait(&self) -> Result<()> {
        match self {
            End::Nothing => Ok(()),
            End::Event(e) => e.wait(),
            End::Queue(q, _) => q.finish(),
        }
    }
}

impl Slot {
    /// What a synchronization waits for: the last command, after covering the uncovered ones
    /// ([`cover`](Self::cover)), or else the whole queue.
    fn end(&mut self) -> End {
        if self.cover().is_err() {
            match self.queue.retain() {
                Ok(q) => return End::Queue(q, self.uncovered),
                Err(e) => tracing::error!("waiting for a stream's uncovered commands: {e}"),
            }
        }
        self.last.clone().map_or(End::Nothing, End::Event)
    }
}

/// After `end` was waited for (`waited`): runs the slot's due checks and takes its first
/// unreported error. A failed last command is reported once (then forgotten); a queue that was
/// finished covers the batches that were uncovered when it was.
fn settle(slot: &mut Slot, end: &End, waited: Result<()>) -> Result<()> {
    let mut status = lock(&slot.status);
    status.run_due_checks();
    match (end, &waited) {
        (End::Event(l), Err(_)) if slot.last.as_ref().is_some_and(|c| c.raw() == l.raw()) => {
            slot.last = None;
        }
        (End::Queue(_, n), Ok(())) => slot.uncovered = slot.uncovered.saturating_sub(*n),
        _ => {}
    }
    if let Err(e) = waited {
        status.error.get_or_insert(e);
    }
    match status.error.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// A wait list pointer (null when empty, as OpenCL requires).
pub(crate) fn wait_ptr(deps: &[cl_event]) -> *const cl_event {
    if deps.is_empty() {
        std::ptr::null()
    } else {
        deps.as_ptr()
    }
}

fn unknown_stream(handle: u64) -> Error {
    Error::InvalidHandle {
        kind: "stream",
        handle,
        reason: "not a stream created by rumba or adopted with external_stream".into(),
    }
}
