//! The threads that run host callbacks on the OpenCL backend.
//!
//! OpenCL runs an event callback on a thread of its choosing — PoCL even runs it on the calling
//! thread, inside `clSetEventCallback`, when the event has already completed — and forbids
//! blocking calls there. rumba's callbacks must run off the calling thread, may block (a callback
//! that waits for another stream's callback is legal), and their threads are marked as callback
//! threads. So the OpenCL callback only hands the job to this pool, which runs it on one of its
//! own threads: an idle one if there is one, else a new one (threads idle for a while exit).
//! Ordering within a stream is kept by the stream itself (its next callback cannot start before
//! the previous one has opened the stream's gate).
//!
//! This module touches only its threads and the jobs it is given.

use crate::sync::{lock, wait_timeout};
use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

type Job = Box<dyn FnOnce() + Send + 'static>;

struct State {
    jobs: VecDeque<Job>,
    idle: usize,
    /// Jobs taken by a thread and not finished yet.
    running: usize,
}

struct Pool {
    state: Mutex<State>,
    work: Condvar,
}

/// How long an idle callback thread waits for work before it exits.
const IDLE_EXIT: Duration = Duration::from_secs(10);

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        state: Mutex::new(State {
            jobs: VecDeque::new(),
            idle: 0,
            running: 0,
        }),
        work: Condvar::new(),
    })
}

/// Runs `job` on a callback thread (never the calling one).
pub(crate) fn run(job: Job) {
    let p = pool();
    let mut st = lock(&p.state);
    st.jobs.push_back(job);
    if st.idle >= st.jobs.len() {
        p.work.notify_one();
        return;
    }
    drop(st);
    let spawned = std::thread::Builder::new()
        .name("rumba-opencl-callback".into())
        .spawn(worker);
    if let Err(e) = spawned {
        // No new thread: an existing one will get to the job when it is free.
        tracing::error!("cannot start a callback thread ({e}); the callback waits for a busy one");
        p.work.notify_one();
    }
}

/// Whether no job is queued or running: nothing of ours is inside the OpenCL library on a
/// callback thread (the exit wait, [`exit`](super::exit), checks it before returning, since a job
/// still releasing an event when the process exits would run into the library's destroyed
/// statics).
pub(crate) fn quiet() -> bool {
    let st = lock(&pool().state);
    st.jobs.is_empty() && st.running == 0
}

fn worker() {
    crate::driver::callback::mark_thread();
    let p = pool();
    let mut st = lock(&p.state);
    loop {
        if let Some(job) = st.jobs.pop_front() {
            st.running += 1;
            drop(st);
            job();
            st = lock(&p.state);
            st.running -= 1;
            continue;
        }
        st.idle += 1;
        let (guard, timed_out) = wait_timeout(&p.work, st, IDLE_EXIT);
        st = guard;
        st.idle -= 1;
        if timed_out && st.jobs.is_empty() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_blocked_job_does_not_hold_up_the_next_and_jobs_run_off_the_caller() {
        let (tx, rx) = mpsc::channel::<()>();
        let (done_tx, done_rx) = mpsc::channel();
        let caller = std::thread::current().id();
        let d1 = done_tx.clone();
        run(Box::new(move || {
            rx.recv().unwrap();
            d1.send(std::thread::current().id()).unwrap();
        }));
        run(Box::new(move || tx.send(()).unwrap()));
        let ran_on = done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_ne!(ran_on, caller);
        run(Box::new(move || {
            done_tx.send(std::thread::current().id()).unwrap();
        }));
        done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    }
}
