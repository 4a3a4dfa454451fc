//! Checks of streams, events, deferred deallocation and out-of-memory recovery
//! (docs/design/behaviour.md §4, §6).
//!
//! Ordering is shown with a *gate*: a stream callback that blocks until the host opens it, so
//! the work queued behind it provably has not run while the host looks. Nothing here needs two
//! callbacks to run at the same time (CUDA runs the callbacks of all streams on one thread), and
//! a gate opens when it is dropped, so a check that fails half-way never leaves a stream blocked.
//!
//! The out-of-memory check allocates close to all free device memory on purpose (that is the
//! situation it verifies), leaving a margin of half the pending block; on a GPU it takes the
//! figures from the driver at the time it runs.
//!
//! This module touches the current backend through rumba's public API only.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Check, Outcome, pass, skip};
use crate::{ensure, ensure_eq};

/// The checks of this module, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![
        Check {
            name: "stream.in-order",
            about: "100 memsets and callbacks on one stream run in queue order; the last memset wins",
            run: in_order,
        },
        Check {
            name: "stream.concurrent",
            about: "work on one stream completes while another stream is held back",
            run: concurrent,
        },
        Check {
            name: "stream.event-wait",
            about: "a stream waiting on another's event runs after it (data and callbacks); the host does not wait",
            run: event_wait,
        },
        Check {
            name: "stream.legacy-default",
            about: "the legacy default stream waits for earlier work on a blocking stream",
            run: legacy_default,
        },
        Check {
            name: "stream.callbacks-futures",
            about: "callbacks get their stream and status off the host thread; async_done resolves after the work",
            run: callbacks_and_futures,
        },
        Check {
            name: "event.timing",
            about: "timed events around 256 MiB of memsets measure a positive time; untimed events refuse",
            run: event_timing,
        },
        Check {
            name: "dealloc.deferred",
            about: "releases wait in the pending queue until it is over its count; defer_cleanup holds them; flush frees",
            run: deferred,
        },
        Check {
            name: "dealloc.in-flight",
            about: "memory dropped while queued work still uses it stays valid until the work ran",
            run: in_flight,
        },
        Check {
            name: "oom.flush-and-retry",
            about: "an allocation that fits only after the pending queue is flushed succeeds (near the device's limit)",
            run: flush_and_retry,
        },
        Check {
            name: "oom.error",
            about: "asking for more than the device has is a typed out-of-memory error with figures; the device stays usable",
            run: oom_error,
        },
    ]
}

/// A stream callback that blocks its stream until the gate is opened (or dropped).
struct Gate(Option<mpsc::Sender<()>>);

impl Gate {
    /// Queues the gate on `s`.
    fn on(s: &rumba::Stream) -> rumba::Result<Gate> {
        let (tx, rx) = mpsc::channel::<()>();
        s.add_callback(move |_, _| {
            // A safety net only: every gate is opened or dropped long before this.
            let _ = rx.recv_timeout(Duration::from_secs(30));
        })?;
        Ok(Gate(Some(tx)))
    }

    fn open(&mut self) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(());
        }
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
    }
}

/// Polls `done` until it is true or `secs` have passed.
fn eventually(secs: u64, mut done: impl FnMut() -> rumba::Result<bool>) -> rumba::Result<bool> {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(secs) {
        if done()? {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(false)
}

/// `len` bytes of `buf` from `offset`, read on a stream of their own.
fn read_bytes(
    buf: &rumba::memory::DeviceBuffer,
    offset: usize,
    len: usize,
) -> rumba::Result<Vec<u8>> {
    let mut out = vec![0u8; len];
    let part = buf.view(offset..offset + len)?;
    rumba::stream()?.auto_synchronize(|scope| scope.copy(&mut out, &part))?;
    Ok(out)
}

fn in_order() -> Outcome {
    let s = rumba::stream()?;
    let log = Arc::new(Mutex::new(Vec::new()));
    let buf = rumba::current_context()?.memalloc(1 << 16)?;
    for i in 0..100u8 {
        s.memset(&buf, i)?;
        let log = Arc::clone(&log);
        s.add_callback(move |_, status| {
            if status.is_ok() {
                log.lock().unwrap_or_else(|e| e.into_inner()).push(i);
            }
        })?;
    }
    s.synchronize()?;
    ensure!(s.query()?, "the stream is not idle after synchronize");
    let seen = log.lock().unwrap_or_else(|e| e.into_inner()).clone();
    ensure_eq!(seen, (0..100).collect::<Vec<u8>>(), "callback order");
    let mut out = vec![0u8; 1 << 16];
    rumba::copy(&mut out, &buf)?;
    ensure!(out.iter().all(|&b| b == 99), "the last memset did not win");
    pass("100 memsets + 100 callbacks in order")
}

fn concurrent() -> Outcome {
    let (a, b) = (rumba::stream()?, rumba::stream()?);
    let mut gate = Gate::on(&a)?;
    let done_a = rumba::event(rumba::EventOptions::untimed())?;
    done_a.record(&a)?;
    let buf = rumba::current_context()?.memalloc(8 << 20)?;
    b.memset(&buf, 42)?;
    let done_b = rumba::event(rumba::EventOptions::untimed())?;
    done_b.record(&b)?;
    let b_finished = eventually(10, || done_b.query())?;
    let a_held = !done_a.query()?;
    gate.open();
    a.synchronize()?;
    b.synchronize()?;
    ensure!(
        b_finished,
        "stream b did not finish its memset within 10 s while stream a was held back"
    );
    ensure!(a_held, "stream a ran past its gate");
    let mut out = vec![0u8; 8 << 20];
    rumba::copy(&mut out, &buf)?;
    ensure!(out.iter().all(|&x| x == 42), "stream b's memset");
    pass("b completed while a was held")
}

fn event_wait() -> Outcome {
    let (a, b) = (rumba::stream()?, rumba::stream()?);
    let ctx = rumba::current_context()?;
    let (src, dst) = (ctx.memalloc(4 << 20)?, ctx.memalloc(4 << 20)?);
    src.memset(1)?;
    dst.memset(0)?;
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut gate = Gate::on(&a)?;
    let la = Arc::clone(&log);
    a.add_callback(move |_, _| la.lock().unwrap_or_else(|e| e.into_inner()).push("a"))?;
    a.memset(&src, 7)?;
    let e = rumba::event(rumba::EventOptions::untimed())?;
    e.record(&a)?;
    let t = Instant::now();
    e.wait(&b)?; // the host does not wait
    let returned = t.elapsed();
    b.copy(&dst, &src)?;
    let lb = Arc::clone(&log);
    b.add_callback(move |_, _| lb.lock().unwrap_or_else(|e| e.into_inner()).push("b"))?;
    std::thread::sleep(Duration::from_millis(50));
    let early = log.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let event_done_early = e.query()?;
    gate.open();
    b.synchronize()?;
    a.synchronize()?;
    ensure!(early.is_empty(), "ran before the gate opened: {early:?}");
    ensure!(
        !event_done_early,
        "the event completed before its stream's work"
    );
    ensure!(
        returned < Duration::from_secs(1),
        "Event::wait blocked the host for {returned:?}"
    );
    let seen = log.lock().unwrap_or_else(|e| e.into_inner()).clone();
    ensure_eq!(seen, vec!["a", "b"], "callback order across the streams");
    let mut out = vec![0u8; 4 << 20];
    rumba::copy(&mut out, &dst)?;
    ensure!(
        out.iter().all(|&x| x == 7),
        "stream b copied before stream a's memset (found byte {})",
        out[0]
    );
    pass("b's copy saw a's memset; callbacks a then b")
}

fn legacy_default() -> Outcome {
    let s = rumba::stream()?;
    let legacy = rumba::legacy_default_stream()?;
    let buf = rumba::current_context()?.memalloc(1 << 20)?;
    buf.memset(0)?;
    let mut gate = Gate::on(&s)?;
    s.memset(&buf, 5)?;
    let e = rumba::event(rumba::EventOptions::untimed())?;
    legacy.memset(&buf, 6)?;
    e.record(&legacy)?;
    std::thread::sleep(Duration::from_millis(50));
    let early = e.query()?;
    gate.open();
    legacy.synchronize()?;
    s.synchronize()?;
    ensure!(
        !early,
        "work on the legacy default stream finished before earlier work on a blocking stream"
    );
    let mut out = vec![0u8; 1 << 20];
    rumba::copy(&mut out, &buf)?;
    ensure!(
        out.iter().all(|&x| x == 6),
        "the legacy stream's memset did not come last (found {})",
        out[0]
    );
    pass("legacy stream waited for the blocking stream")
}

fn callbacks_and_futures() -> Outcome {
    let s = rumba::stream()?;
    let (tx, rx) = mpsc::channel();
    let caller = std::thread::current().id();
    s.add_callback(move |stream, status| {
        let _ = tx.send((
            stream.handle(),
            status.is_ok(),
            std::thread::current().id() != caller,
        ));
    })?;
    let (handle, ok, off_thread) = rx
        .recv_timeout(Duration::from_secs(10))
        .map_err(|_| super::Failure("the callback did not run within 10 s".into()))?;
    ensure_eq!(handle, s.handle(), "the stream the callback received");
    ensure!(ok, "the callback received an error status");
    ensure!(off_thread, "the callback ran on the host thread");
    let buf = rumba::current_context()?.memalloc(16 << 20)?;
    let mut gate = Gate::on(&s)?;
    s.memset(&buf, 3)?;
    let done = s.async_done()?;
    let opened = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = Arc::clone(&opened);
    let opener = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        gate.open();
    });
    crate::demo::block_on(done)?;
    let waited = opened.load(std::sync::atomic::Ordering::SeqCst);
    let _ = opener.join();
    ensure!(
        waited,
        "async_done resolved while the stream was still held"
    );
    let out = read_bytes(&buf, (16 << 20) - 64, 64)?;
    ensure!(out.iter().all(|&x| x == 3), "the memset before async_done");
    pass("callback off-thread with status; future resolved after the work")
}

fn event_timing() -> Outcome {
    let ctx = rumba::current_context()?;
    let s = rumba::stream()?;
    let (start, end) = (
        rumba::event(rumba::EventOptions::new())?,
        rumba::event(rumba::EventOptions::new())?,
    );
    let buf = ctx.memalloc(64 << 20)?;
    start.record(&s)?;
    for v in 0..4 {
        s.memset(&buf, v)?;
    }
    end.record(&s)?;
    end.synchronize()?;
    ensure!(end.query()?, "a synchronized event is not complete");
    let ms = start.elapsed_time(&end)?;
    ensure!(ms > 0.0 && ms.is_finite(), "elapsed time {ms} ms");
    let untimed = rumba::event(rumba::EventOptions::untimed())?;
    untimed.record(&s)?;
    s.synchronize()?;
    ensure!(
        untimed.elapsed_time(&end).is_err(),
        "an event without timing measured a time"
    );
    let never = rumba::event(rumba::EventOptions::new())?;
    ensure!(
        start.elapsed_time(&never).is_err(),
        "an event never recorded measured a time"
    );
    pass(format!(
        "256 MiB of memsets in {ms:.3} ms ({:.1} GB/s)",
        (256u64 << 20) as f64 / (ms as f64 / 1e3) / 1e9
    ))
}

fn deferred() -> Outcome {
    let ctx = rumba::current_context()?;
    let manager = ctx.memory_manager().name().to_string();
    if manager != "default" {
        return skip(format!(
            "the count rule belongs to the default memory manager; this context uses '{manager}'"
        ));
    }
    ctx.flush_deallocations()?;
    let limit = ctx.config().max_pending_deallocs_count;
    let count = |c: &rumba::Context| c.deallocations().memory.count;
    let mut seen = Vec::new();
    for _ in 0..=limit {
        drop(ctx.memalloc(1024)?);
        seen.push(count(&ctx));
    }
    let want: Vec<usize> = (1..=limit).chain([0]).collect();
    ensure_eq!(seen, want, "pending releases after each drop");
    let guard = rumba::defer_cleanup()?;
    for _ in 0..=limit + 5 {
        drop(ctx.memalloc(1024)?);
    }
    ctx.flush_deallocations()?; // a no-op under the guard
    let held = count(&ctx);
    drop(guard);
    ensure_eq!(held, limit + 6, "releases held under defer_cleanup");
    ensure_eq!(
        count(&ctx),
        limit + 6,
        "leaving defer_cleanup flushed by itself"
    );
    ctx.flush_deallocations()?;
    ensure_eq!(count(&ctx), 0, "pending after an explicit flush");
    pass(format!(
        "flushed when over {limit}; {held} held under defer_cleanup, then freed"
    ))
}

fn in_flight() -> Outcome {
    let s = rumba::stream()?;
    let ctx = rumba::current_context()?;
    let n = 4 << 20;
    let d = rumba::to_device(&(0..n as u32).collect::<Vec<_>>())?;
    let mut gate = Gate::on(&s)?;
    let p = rumba::pinned_array::<u32, _>(n, rumba::Order::C)?;
    let t = s.download(&d, p).map_err(|r| r.error)?;
    drop(d); // the queued copy keeps the device memory alive
    ctx.flush_deallocations()?;
    // Reuse the freed addresses, if they were freed, with other data: on a stream of its own
    // (work on the legacy default stream would wait for the gated stream).
    let other = ctx.memalloc(n * 4)?;
    let s2 = rumba::stream()?;
    s2.memset(&other, 0xee)?;
    s2.synchronize()?;
    ensure!(!t.is_done(), "the download finished behind a closed gate");
    gate.open();
    let p = t.wait()?;
    drop(other);
    ensure!(
        p.as_slice_memory_order()
            .iter()
            .enumerate()
            .all(|(i, &v)| v == i as u32),
        "the queued copy read memory that had been handed back"
    );
    pass("16 MiB stayed valid until the queued copy ran")
}

/// On OpenCL, an allocation larger than the device's largest single allocation
/// (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`, often a quarter of its memory) is refused before memory runs
/// out: the reason to skip an out-of-memory check, with how to make it run. `None` for any other
/// error and on any other backend.
fn over_single_allocation(e: &rumba::Error) -> Result<Option<String>, super::Failure> {
    Ok(match (e, super::backend()?) {
        (why @ rumba::Error::AllocationTooLarge { .. }, rumba::driver::BackendKind::OpenCl) => {
            Some(format!(
                "{why}; with RUMBA_OPENCL_MEMORY at or under that size, the device's memory runs out first and this check runs"
            ))
        }
        _ => None,
    })
}

fn flush_and_retry() -> Outcome {
    let ctx = rumba::current_context()?;
    let manager = ctx.memory_manager().name().to_string();
    if manager != "default" {
        return skip(format!(
            "flush-and-retry is the default memory manager's; this context uses '{manager}'"
        ));
    }
    ctx.flush_deallocations()?;
    let (free0, total) = ctx.get_memory_info()?;
    let cfg = ctx.config();
    // A block small enough to wait in the pending queue (under the ratio rule) ...
    let by_ratio = (cfg.max_pending_deallocs_ratio * total as f64 * 0.5) as usize;
    let chunk = by_ratio.min(free0 / 4) & !((2 << 20) - 1);
    if chunk < (4 << 20) || cfg.max_pending_deallocs_count < 1 {
        return skip(format!(
            "the configuration leaves no room for a pending block (ratio {}, count {}, {} MiB free)",
            cfg.max_pending_deallocs_ratio,
            cfg.max_pending_deallocs_count,
            free0 >> 20
        ));
    }
    drop(ctx.memalloc(chunk)?);
    let pending = ctx.deallocations().memory;
    ensure_eq!(
        (pending.count, pending.bytes),
        (1, chunk),
        "pending queue after dropping the block"
    );
    // ... then ask for more than is free now, but less than is free once it is released.
    let (free1, _) = ctx.get_memory_info()?;
    let request = free1 + chunk / 2;
    let big = match ctx.memalloc(request) {
        Ok(big) => big,
        Err(e) => {
            if let Some(why) = over_single_allocation(&e)? {
                return skip(why);
            }
            return Err(super::Failure(format!(
                "{request} bytes ({free1} free + half of the {chunk}-byte pending block) did not fit after the flush: {e}"
            )));
        }
    };
    ensure_eq!(
        ctx.deallocations().memory.count,
        0,
        "pending releases after the retried allocation"
    );
    let probe = [0x11u8; 64];
    let end = request - 64;
    // The view is a handle on `big`'s memory: it goes before `big` does.
    let tail = big.view(end..end + probe.len())?;
    rumba::stream()?.auto_synchronize(|scope| scope.copy(&tail, &probe))?;
    drop(tail);
    ensure_eq!(
        read_bytes(&big, end, 64)?,
        probe.to_vec(),
        "the end of the big allocation"
    );
    drop(big);
    ctx.flush_deallocations()?;
    let (free2, _) = ctx.get_memory_info()?;
    ensure!(
        free2 + chunk / 2 >= free0,
        "free memory did not come back: {free0} before, {free2} after"
    );
    pass(format!(
        "{} MiB allocated with {} MiB free after flushing a {} MiB pending block",
        request >> 20,
        free1 >> 20,
        chunk >> 20
    ))
}

fn oom_error() -> Outcome {
    let ctx = rumba::current_context()?;
    let (_, total) = ctx.get_memory_info()?;
    let err = match ctx.memalloc(total + (1 << 20)) {
        Ok(_) => {
            return Err(super::Failure(format!(
                "{} bytes on a {total}-byte device were allocated",
                total + (1 << 20)
            )));
        }
        Err(e) => e,
    };
    if let Some(why) = over_single_allocation(&err)? {
        return skip(why);
    }
    ensure!(err.is_out_of_memory(), "not an out-of-memory error: {err}");
    let text = err.to_string();
    ensure!(
        text.contains(&(total + (1 << 20)).to_string()),
        "the error does not name the requested size: {text}"
    );
    let small = ctx.memalloc(4096)?;
    small.memset(1)?;
    let mut b = [0u8; 4096];
    rumba::copy(&mut b, &small)?;
    ensure!(b.iter().all(|&x| x == 1), "an allocation after the failure");
    pass(text)
}
