//! Simulated streams: an in-order queue of operations per stream, executed by a worker thread of its
//! own, so that work really runs asynchronously to the host and different streams really overlap.
//!
//! Every operation gets a sequence number when it is queued. A stream's `completed` counter says how
//! many of its operations have finished, so "operation *n* of stream *s* is done" is a single
//! comparison. Cross-stream ordering (events, the legacy default stream) is expressed as
//! dependencies `(stream, seq)` that the worker waits for before running an operation. Dependencies
//! only ever name operations queued earlier, so they cannot form a cycle.
//!
//! Errors: the first failing operation's error is kept on the stream; later work operations on that
//! stream are skipped (their inputs may be garbage) until the error is reported by a
//! synchronization, after which the stream is usable again. Notifications (event records, host
//! callbacks) always run, receiving the pending error as their status, so nothing waiting on them
//! can hang.
//!
//! Hand-offs: a worker that runs out of work, and a host thread waiting for an operation, spin for
//! a few microseconds (the `spin` module: pausing first, then yielding their core between
//! checks) before they sleep on their condition variable, and a condition variable is signalled
//! only when someone sleeps on it. A short operation queued on a busy stream, or waited for
//! right after it was queued, so costs no futex wake-up on either side —
//! the difference between about 4.6 µs and well under 2 µs for an empty operation's round trip.
//!
//! This module touches only the streams and the closures it is given.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use super::spin::spin_until;
use crate::driver::StreamHandle;
use crate::error::{Error, Result};
use crate::sync::{lock, wait};
use crate::unwind;

/// Work that may fail.
pub(crate) type Work = Box<dyn FnOnce() -> Result<()> + Send>;
/// A notification that always runs and receives the stream's status.
pub(crate) type Notify = Box<dyn FnOnce(Result<()>) + Send>;

enum Task {
    Work(Work),
    Notify(Notify),
}

/// "Operation `seq` of `stream` has completed."
pub(crate) struct Dep {
    pub(crate) stream: Arc<SimStream>,
    pub(crate) seq: u64,
}

struct Op {
    deps: Vec<Dep>,
    task: Task,
}

struct State {
    queue: VecDeque<Op>,
    enqueued: u64,
    completed: u64,
    error: Option<Error>,
    closing: bool,
    /// The worker sleeps on `work_cv` (a push must signal it).
    worker_asleep: bool,
    /// Threads sleeping on `done_cv` (a completion must signal them).
    waiters: usize,
    /// Why the worker stopped, if it did (an internal panic): every operation since counts as
    /// completed without running, and every synchronization reports this.
    dead: Option<String>,
}

/// One simulated stream.
pub(crate) struct SimStream {
    pub(crate) handle: StreamHandle,
    /// Blocking streams order against the legacy default stream.
    pub(crate) blocking: bool,
    state: Mutex<State>,
    work_cv: Condvar,
    done_cv: Condvar,
    /// Copies of `state.queue.len()`, `state.completed` and `state.closing`, stored under the
    /// lock whenever those change and read without it by spinning waiters (which take the lock
    /// to act on what they saw, so a stale copy only ends a spin early or late).
    queued_hint: AtomicUsize,
    done_hint: AtomicU64,
    closing_hint: AtomicBool,
}

thread_local! {
    /// The stream whose worker is running on this thread (address of its `SimStream`), if any.
    static WORKER_OF: Cell<usize> = const { Cell::new(0) };
}

impl SimStream {
    /// Creates a stream and starts its worker thread.
    pub(crate) fn spawn(handle: StreamHandle, blocking: bool) -> Result<Arc<SimStream>> {
        let stream = Arc::new(SimStream {
            handle,
            blocking,
            state: Mutex::new(State {
                queue: VecDeque::new(),
                enqueued: 0,
                completed: 0,
                error: None,
                closing: false,
                worker_asleep: false,
                waiters: 0,
                dead: None,
            }),
            work_cv: Condvar::new(),
            done_cv: Condvar::new(),
            queued_hint: AtomicUsize::new(0),
            done_hint: AtomicU64::new(0),
            closing_hint: AtomicBool::new(false),
        });
        let worker = Arc::clone(&stream);
        std::thread::Builder::new()
            .name(format!("rumba-stream-{}", handle.0))
            .stack_size(1 << 20)
            .spawn(move || worker.run())
            .map_err(|e| Error::Simulator {
                call: "stream_create".into(),
                message: format!("cannot start the stream's worker thread: {e}"),
            })?;
        Ok(stream)
    }

    fn run(self: Arc<Self>) {
        WORKER_OF.with(|w| w.set(Arc::as_ptr(&self) as usize));
        crate::driver::callback::mark_thread();
        /// Marks the stream dead if the worker unwinds (user code runs contained, so only an
        /// internal error can get here): nothing may wait for a worker that is gone.
        struct Obituary<'a>(&'a SimStream);
        impl Drop for Obituary<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.die("its worker thread panicked".into());
                }
            }
        }
        let _obituary = Obituary(&self);
        loop {
            let op = {
                let mut st = lock(&self.state);
                loop {
                    if let Some(op) = st.queue.pop_front() {
                        self.queued_hint.store(st.queue.len(), Ordering::Release);
                        break op;
                    }
                    if st.closing {
                        return;
                    }
                    drop(st);
                    spin_until(|| {
                        self.queued_hint.load(Ordering::Acquire) > 0
                            || self.closing_hint.load(Ordering::Acquire)
                    });
                    st = lock(&self.state);
                    if !st.queue.is_empty() || st.closing {
                        continue;
                    }
                    st.worker_asleep = true;
                    st = wait(&self.work_cv, st);
                    st.worker_asleep = false;
                }
            };
            for dep in &op.deps {
                dep.stream.wait_for(dep.seq);
            }
            drop(op.deps);
            let status = lock(&self.state).error.clone();
            let failure = match op.task {
                Task::Work(work) => match status {
                    Some(_) => None, // skipped: an earlier failure is still unreported
                    None => match unwind::catch(work) {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(e),
                        Err(panic) => Some(Error::Simulator {
                            call: "stream operation".into(),
                            message: format!("panicked: {panic}"),
                        }),
                    },
                },
                Task::Notify(notify) => {
                    let status = status.map_or(Ok(()), Err);
                    if let Err(panic) = unwind::catch(move || notify(status)) {
                        tracing::error!(
                            stream = self.handle.0,
                            "a stream callback panicked: {panic}"
                        );
                    }
                    None
                }
            };
            let mut st = lock(&self.state);
            if let Some(e) = failure {
                st.error.get_or_insert(e);
            }
            if st.dead.is_none() {
                st.completed += 1; // (a dead stream counted everything as completed already)
                self.done_hint.store(st.completed, Ordering::Release);
            }
            let sleepers = st.waiters > 0;
            drop(st);
            if sleepers {
                self.done_cv.notify_all();
            }
        }
    }

    /// Queues an operation after `deps`; returns its sequence number.
    fn push(&self, deps: Vec<Dep>, task: Task) -> u64 {
        let mut st = lock(&self.state);
        st.enqueued += 1;
        let seq = st.enqueued;
        if let Some(why) = st.dead.clone() {
            st.completed = st.enqueued;
            self.done_hint.store(st.completed, Ordering::Release);
            drop(st);
            self.discard(task, &why);
            return seq;
        }
        st.queue.push_back(Op { deps, task });
        self.queued_hint.store(st.queue.len(), Ordering::Release);
        let asleep = st.worker_asleep;
        drop(st);
        if asleep {
            self.work_cv.notify_one();
        }
        seq
    }

    /// The stream can no longer run work: everything queued counts as completed, without
    /// running, so nothing waits for it; notifications still run (elsewhere) with the error.
    fn die(&self, why: String) {
        let queued = {
            let mut st = lock(&self.state);
            st.dead = Some(why.clone());
            st.completed = st.enqueued;
            self.done_hint.store(st.completed, Ordering::Release);
            self.queued_hint.store(0, Ordering::Release);
            std::mem::take(&mut st.queue)
        };
        self.done_cv.notify_all();
        tracing::error!(stream = self.handle.0, "a simulated stream stopped: {why}");
        for op in queued {
            self.discard(op.task, &why);
        }
    }

    /// Drops work that will never run; runs a notification on a thread of its own with the
    /// error, so that nothing waiting for it (a future, an event) hangs.
    fn discard(&self, task: Task, why: &str) {
        match task {
            Task::Work(work) => {
                let _ = unwind::catch(move || drop(work));
            }
            Task::Notify(notify) => {
                let error = self.dead_error(why);
                let spawned = std::thread::Builder::new()
                    .name(format!("rumba-stream-{}-notify", self.handle.0))
                    .spawn(move || {
                        crate::driver::callback::mark_thread();
                        let _ = unwind::catch(move || notify(Err(error)));
                    });
                if let Err(e) = spawned {
                    tracing::error!("a notification of a stopped stream was dropped: {e}");
                }
            }
        }
    }

    fn dead_error(&self, why: &str) -> Error {
        Error::StreamStopped {
            stream: self.handle.0,
            reason: why.to_owned(),
        }
    }

    /// Queues work that may fail.
    pub(crate) fn push_work(&self, deps: Vec<Dep>, work: Work) -> u64 {
        self.push(deps, Task::Work(work))
    }

    /// Queues a notification that always runs.
    pub(crate) fn push_notify(&self, deps: Vec<Dep>, notify: Notify) -> u64 {
        self.push(deps, Task::Notify(notify))
    }

    /// Counts an operation that has nothing to run (an event record) as queued and completed at
    /// once when the stream is idle: everything queued before it has completed, so the stream has
    /// reached it already. Returns its sequence number, or `None` (queue it) when the stream is
    /// busy or stopped. No allocation and no hop to the worker.
    pub(crate) fn complete_if_idle(&self) -> Option<u64> {
        let mut st = lock(&self.state);
        if st.completed != st.enqueued || st.dead.is_some() {
            return None;
        }
        st.enqueued += 1;
        st.completed = st.enqueued;
        self.done_hint.store(st.completed, Ordering::Release);
        Some(st.enqueued)
    }

    /// Sequence number of the last queued operation.
    pub(crate) fn enqueued(&self) -> u64 {
        lock(&self.state).enqueued
    }

    /// True if operation `seq` has completed.
    pub(crate) fn is_done(&self, seq: u64) -> bool {
        lock(&self.state).completed >= seq
    }

    /// True if every queued operation has completed.
    pub(crate) fn is_idle(&self) -> bool {
        let st = lock(&self.state);
        st.completed == st.enqueued
    }

    /// A dependency on everything queued so far, or `None` if that is already done.
    pub(crate) fn current_point(self: &Arc<Self>) -> Option<Dep> {
        let st = lock(&self.state);
        (st.completed < st.enqueued).then(|| Dep {
            stream: Arc::clone(self),
            seq: st.enqueued,
        })
    }

    /// Blocks until operation `seq` has completed.
    pub(crate) fn wait_for(&self, seq: u64) {
        if spin_until(|| self.done_hint.load(Ordering::Acquire) >= seq) {
            return;
        }
        let mut st = lock(&self.state);
        while st.completed < seq {
            st.waiters += 1;
            st = wait(&self.done_cv, st);
            st.waiters -= 1;
        }
    }

    /// True when called from this stream's own worker (a callback), where waiting would deadlock.
    pub(crate) fn is_own_worker(&self) -> bool {
        WORKER_OF.with(|w| w.get()) == self as *const SimStream as usize
    }

    /// Waits for everything queued so far, then reports (and clears) the first unreported error.
    pub(crate) fn synchronize(&self) -> Result<()> {
        if self.is_own_worker() {
            return Err(Error::InCallback {
                operation: format!("synchronizing stream {}", self.handle.0),
                reason: "it is the stream that runs the callback, so it would wait forever",
                instead: "",
            });
        }
        let target = self.enqueued();
        self.wait_for(target);
        if let Some(why) = lock(&self.state).dead.clone() {
            return Err(self.dead_error(&why));
        }
        self.take_error()
    }

    /// Reports (and clears) the first unreported error without waiting.
    pub(crate) fn take_error(&self) -> Result<()> {
        lock(&self.state).error.take().map_or(Ok(()), Err)
    }

    /// Lets the worker exit once the queue is empty.
    pub(crate) fn close(&self) {
        lock(&self.state).closing = true;
        self.closing_hint.store(true, Ordering::Release);
        self.work_cv.notify_all();
    }
}

/// Owns a stream's lifetime: dropping it lets the worker finish the queue and exit.
pub(crate) struct StreamOwner(pub(crate) Arc<SimStream>);

impl Drop for StreamOwner {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A human-readable panic payload.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::unwind::Nasty;
    use std::sync::mpsc;

    /// Queues work on `s` that waits until the returned sender sends or is dropped; returns the
    /// work's sequence number and the sender.
    fn gated(s: &SimStream) -> (u64, mpsc::Sender<()>) {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate = Mutex::new(gate_rx);
        let seq = s.push_work(
            vec![],
            Box::new(move || {
                let _ = gate.lock().unwrap().recv();
                Ok(())
            }),
        );
        (seq, gate_tx)
    }

    #[test]
    fn runs_in_order_and_reports_errors_once() {
        let s = SimStream::spawn(StreamHandle(100), true).unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        for i in 0..50 {
            let log = Arc::clone(&log);
            s.push_work(
                vec![],
                Box::new(move || {
                    log.lock().unwrap().push(i);
                    Ok(())
                }),
            );
        }
        s.synchronize().unwrap();
        assert_eq!(*log.lock().unwrap(), (0..50).collect::<Vec<_>>());

        s.push_work(vec![], Box::new(|| Err(Error::TransferTaken)));
        let ran = Arc::new(Mutex::new(false));
        let r = Arc::clone(&ran);
        s.push_work(
            vec![],
            Box::new(move || {
                *r.lock().unwrap() = true;
                Ok(())
            }),
        );
        let (tx, rx) = mpsc::channel();
        s.push_notify(
            vec![],
            Box::new(move |status| tx.send(status.is_err()).unwrap()),
        );
        assert_eq!(s.synchronize().unwrap_err(), Error::TransferTaken);
        assert!(!*ran.lock().unwrap(), "work after a failure is skipped");
        assert!(rx.recv().unwrap(), "notifications see the failure");
        s.synchronize().unwrap();
        s.push_work(vec![], Box::new(|| panic!("kaput")));
        assert!(s.synchronize().unwrap_err().to_string().contains("kaput"));
        s.close();
    }

    #[test]
    fn panics_whose_payloads_panic_when_dropped_leave_the_worker_running() {
        let s = SimStream::spawn(StreamHandle(103), true).unwrap();
        s.push_work(vec![], Box::new(|| std::panic::panic_any(Nasty(3))));
        assert!(
            s.synchronize()
                .unwrap_err()
                .to_string()
                .contains("panicked")
        );
        s.push_notify(vec![], Box::new(|_| std::panic::panic_any(Nasty(3))));
        s.synchronize().unwrap();
        let (tx, rx) = mpsc::channel();
        s.push_notify(vec![], Box::new(move |st| tx.send(st.is_ok()).unwrap()));
        s.synchronize().unwrap();
        assert!(rx.recv().unwrap(), "the worker still runs callbacks");
        s.close();
    }

    #[test]
    fn a_stream_whose_worker_stopped_reports_it_and_never_hangs() {
        let s = SimStream::spawn(StreamHandle(104), true).unwrap();
        let (_, gate_tx) = gated(&s);
        let (tx, rx) = mpsc::channel();
        let tx2 = tx.clone();
        s.push_notify(vec![], Box::new(move |st| tx.send(st.is_err()).unwrap()));
        s.die("a test stopped it".into()); // as the worker's unwinding would
        assert!(
            rx.recv().unwrap(),
            "a queued notification runs, with the error"
        );
        s.push_notify(vec![], Box::new(move |st| tx2.send(st.is_err()).unwrap()));
        assert!(rx.recv().unwrap(), "so does a later one");
        s.push_work(vec![], Box::new(|| Ok(())));
        let e = s.synchronize().unwrap_err().to_string();
        assert!(
            e.contains("can no longer run work: a test stopped it"),
            "{e}"
        );
        assert!(s.synchronize().is_err(), "every time");
        drop(gate_tx);
        s.close();
    }

    #[test]
    fn an_operation_with_nothing_to_run_completes_at_once_only_on_an_idle_stream() {
        let s = SimStream::spawn(StreamHandle(105), true).unwrap();
        let seq = s.complete_if_idle().expect("idle");
        assert!(s.is_done(seq) && s.is_idle());
        let (_, gate_tx) = gated(&s);
        assert_eq!(s.complete_if_idle(), None, "busy: it must be queued");
        drop(gate_tx);
        s.synchronize().unwrap();
        assert_eq!(s.complete_if_idle(), Some(seq + 2));
        s.close();
    }

    #[test]
    fn dependencies_order_across_streams() {
        let a = SimStream::spawn(StreamHandle(101), true).unwrap();
        let b = SimStream::spawn(StreamHandle(102), true).unwrap();
        let (seq, gate_tx) = gated(&a);
        let (tx, rx) = mpsc::channel();
        b.push_notify(
            vec![Dep {
                stream: Arc::clone(&a),
                seq,
            }],
            Box::new(move |_| tx.send(()).unwrap()),
        );
        assert!(rx.try_recv().is_err(), "b waits for a");
        assert!(!a.is_done(seq));
        gate_tx.send(()).unwrap();
        rx.recv().unwrap();
        assert!(a.is_done(seq));
        a.close();
        b.close();
    }
}
