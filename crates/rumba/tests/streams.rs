//! docs/design/behaviour.md §4: streams — built-in handles, Display, external streams, ordering,
//! overlap, callbacks, futures, scoped asynchronous copies, legacy-default-stream ordering.

mod common;

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rumba::{StreamKind, current_context};

/// Tests here gate streams with callbacks that wait for each other; run them one at a time so a
/// gated stream of one test never sits between the legacy-stream work of another.
fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

#[test]
fn built_in_handles_and_display_texts() {
    let _serial = setup();
    let d = rumba::default_stream().unwrap();
    let l = rumba::legacy_default_stream().unwrap();
    let p = rumba::per_thread_default_stream().unwrap();
    assert_eq!((d.handle().0, l.handle().0, p.handle().0), (0, 1, 2));
    assert_eq!(d.to_string(), "<default stream on device 0>");
    assert_eq!(l.to_string(), "<legacy default stream on device 0>");
    assert_eq!(p.to_string(), "<per-thread default stream on device 0>");
    let s = rumba::stream().unwrap();
    assert_eq!(s.kind(), StreamKind::Created);
    assert_eq!(
        s.to_string(),
        format!("<stream 0x{:x} on device 0>", s.handle().0)
    );
    for st in [d, l, p, s] {
        st.synchronize().unwrap();
    }
}

#[test]
fn an_external_stream_keeps_its_handle_and_is_never_destroyed() {
    let _serial = setup();
    let ctx = current_context().unwrap();
    let raw = ctx.driver().stream_create(0, false).unwrap();
    // SAFETY: `raw` lives until it is destroyed at the end of this test, after `ext` is dropped.
    let ext = unsafe { rumba::external_stream(raw) }.unwrap();
    assert_eq!(ext.handle(), raw);
    assert_eq!(ext.kind(), StreamKind::External);
    assert_eq!(
        ext.to_string(),
        format!("<external stream 0x{:x} on device 0>", raw.0)
    );
    drop(ext);
    ctx.flush_deallocations().unwrap();
    // Still alive: the creator owns it.
    ctx.driver().stream_synchronize(0, raw).unwrap();
    ctx.driver().stream_destroy(0, raw).unwrap();
}

#[test]
fn work_on_one_stream_runs_in_order() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let buf = current_context().unwrap().memalloc(1 << 16).unwrap();
    for i in 0..100u8 {
        s.memset(&buf, i).unwrap();
        let log = Arc::clone(&log);
        s.add_callback(move |_, status| {
            status.unwrap();
            log.lock().unwrap().push(i);
        })
        .unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), (0..100).collect::<Vec<u8>>());
    let mut out = vec![0u8; 1 << 16];
    rumba::copy(&mut out, &buf).unwrap();
    assert!(out.iter().all(|&b| b == 99), "the last memset wins");
}

#[test]
fn two_streams_run_concurrently() {
    let _serial = setup();
    // A callback holds stream a until the host lets it go; stream b's memset must complete in the
    // meantime. (Progress is observed with an event, not with b's own callback: CUDA runs the
    // callbacks of all streams on one thread, so a callback can never wait for another one.)
    // `within` turns a serialised pair of streams into a failure, not a hang.
    common::within(20, "two streams overlapping", || {
        let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
        let (open_tx, open_rx) = mpsc::channel::<()>();
        a.add_callback(move |_, _| {
            let _ = open_rx.recv_timeout(Duration::from_secs(15));
        })
        .unwrap();
        let a_done = rumba::event(rumba::EventOptions::untimed()).unwrap();
        a_done.record(&a).unwrap();
        let buf = current_context().unwrap().memalloc(1 << 20).unwrap();
        b.memset(&buf, 3).unwrap();
        let b_done = rumba::event(rumba::EventOptions::untimed()).unwrap();
        b_done.record(&b).unwrap();
        b_done.synchronize().unwrap(); // completes although a is held
        assert!(!a_done.query().unwrap(), "a ran past its held callback");
        open_tx.send(()).unwrap();
        a.synchronize().unwrap();
        let mut out = vec![0u8; 1 << 20];
        rumba::copy(&mut out, &buf).unwrap();
        assert!(out.iter().all(|&x| x == 3));
    });
}

#[test]
fn a_callback_gets_the_stream_and_a_status_within_a_second() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let (tx, rx) = mpsc::channel();
    let caller = std::thread::current().id();
    s.add_callback(move |stream, status| {
        tx.send((
            stream.handle(),
            status.is_ok(),
            std::thread::current().id() != caller,
        ))
        .unwrap();
    })
    .unwrap();
    let (handle, ok, off_thread) = rx.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(handle, s.handle());
    assert!(ok && off_thread);
}

#[test]
fn waiting_from_inside_a_callback_is_an_error_not_a_hang() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let (tx, rx) = mpsc::channel();
    s.add_callback(move |stream, _| tx.send(stream.synchronize()).unwrap())
        .unwrap();
    let r = rx.recv_timeout(Duration::from_secs(5)).unwrap();
    assert!(
        r.unwrap_err()
            .to_string()
            .contains("inside a stream callback")
    );
}

#[test]
fn async_done_completes_under_a_minimal_executor_after_the_work() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let flag = Arc::new(Mutex::new(false));
    let f2 = Arc::clone(&flag);
    s.add_callback(move |_, _| {
        gate_rx.recv().unwrap();
        *f2.lock().unwrap() = true;
    })
    .unwrap();
    let done = s.async_done().unwrap();
    gate_tx.send(()).unwrap();
    let finished = common::within(10, "async_done", move || common::block_on(done)).unwrap();
    assert!(
        *flag.lock().unwrap(),
        "the future completed only after earlier work"
    );
    // Numba's future resolves to the stream: which stream finished is known from the result.
    assert_eq!(finished.handle(), s.handle());
    assert_eq!(finished.kind(), rumba::StreamKind::Created);
}

#[test]
fn async_done_futures_of_several_streams_each_resolve_to_their_own_stream() {
    let _serial = setup();
    let streams: Vec<rumba::Stream> = (0..3).map(|_| rumba::stream().unwrap()).collect();
    let mut all: Vec<rumba::Stream> = streams.clone();
    all.push(rumba::legacy_default_stream().unwrap());
    all.push(rumba::per_thread_default_stream().unwrap());
    for s in &all {
        let done = s.async_done().unwrap();
        assert_eq!(done.stream().handle(), s.handle());
        let got = common::block_on(done).unwrap();
        assert_eq!((got.handle(), got.kind()), (s.handle(), s.kind()));
    }
}

#[test]
fn scoped_copies_round_trip_and_keep_buffers_alive() {
    let _serial = setup();
    let ctx = current_context().unwrap();
    let s = rumba::stream().unwrap();
    let data: Vec<u8> = (0..=255).cycle().take(1 << 20).collect();
    let mut back = vec![0u8; data.len()];
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        let buf = ctx.memalloc(data.len())?;
        scope.copy(&buf, &data)?;
        scope.copy(&mut back, &buf)
        // `buf` is dropped here, while the copies may still be queued: the stream keeps it alive.
    })
    .unwrap();
    assert_eq!(back, data);
}

#[test]
fn scoped_copies_from_pinned_memory_are_asynchronous_and_correct() {
    let _serial = setup();
    let ctx = current_context().unwrap();
    let s = rumba::stream().unwrap();
    let mut pinned = ctx.memhostalloc(1 << 20, Default::default()).unwrap();
    pinned
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = (i % 251) as u8);
    let buf = ctx.memalloc(1 << 20).unwrap();
    let mut back = ctx.memhostalloc(1 << 20, Default::default()).unwrap();
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        scope.copy(&buf, &pinned[..])?;
        scope.copy(&mut back[..], &buf)
    })
    .unwrap();
    assert_eq!(&back[..], &pinned[..]);
}

#[test]
fn a_panic_inside_auto_synchronize_still_synchronizes() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let ran = Arc::new(Mutex::new(false));
    let r2 = Arc::clone(&ran);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.auto_synchronize(|scope| -> rumba::Result<()> {
            let r3 = Arc::clone(&r2);
            scope
                .stream()
                .add_callback(move |_, _| {
                    std::thread::sleep(Duration::from_millis(20));
                    *r3.lock().unwrap() = true;
                })
                .unwrap();
            panic!("closure failed");
        })
    }));
    assert!(r.is_err());
    assert!(
        *ran.lock().unwrap(),
        "the scope waited for queued work before unwinding"
    );
}

#[test]
fn an_error_inside_auto_synchronize_is_returned_after_the_stream_synchronized() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
    let ran = Arc::new(Mutex::new(false));
    let r2 = Arc::clone(&ran);
    let r: rumba::Result<u32> = s.auto_synchronize(|scope| {
        scope.stream().add_callback(move |_, _| {
            std::thread::sleep(Duration::from_millis(20));
            *r2.lock().unwrap() = true;
        })?;
        scope.copy(&buf.view(2..5)?, &[1, 2, 3])?; // runs past the end: refused
        Ok(7)
    });
    assert!(
        matches!(r, Err(rumba::Error::BufferRange { start: 2, .. })),
        "{r:?}"
    );
    assert!(
        *ran.lock().unwrap(),
        "the scope waited for queued work before returning the error"
    );
    // The closure's value comes back unwrapped once: no nested result.
    assert_eq!(s.auto_synchronize(|_| Ok(7u32)).unwrap(), 7);
}

#[test]
fn the_legacy_default_stream_waits_for_blocking_streams() {
    let _serial = setup();
    let a = rumba::stream().unwrap();
    let legacy = rumba::legacy_default_stream().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let la = Arc::clone(&log);
    a.add_callback(move |_, _| {
        gate_rx.recv().unwrap();
        la.lock().unwrap().push("a");
    })
    .unwrap();
    let ll = Arc::clone(&log);
    legacy
        .add_callback(move |_, _| ll.lock().unwrap().push("legacy"))
        .unwrap();
    // Give a legacy stream that (wrongly) did not wait every chance to run first.
    std::thread::sleep(Duration::from_millis(50));
    gate_tx.send(()).unwrap();
    legacy.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), vec!["a", "legacy"]);

    // And a blocking stream waits for earlier legacy work.
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let ll = Arc::clone(&log);
    legacy
        .add_callback(move |_, _| {
            gate_rx.recv().unwrap();
            ll.lock().unwrap().push("legacy2");
        })
        .unwrap();
    let la = Arc::clone(&log);
    a.add_callback(move |_, _| la.lock().unwrap().push("a2"))
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    gate_tx.send(()).unwrap();
    a.synchronize().unwrap();
    assert_eq!(&log.lock().unwrap()[2..], ["legacy2", "a2"]);
}

#[test]
fn a_stream_in_use_survives_its_last_handle() {
    let _serial = setup();
    let ctx = current_context().unwrap();
    let buf = ctx.memalloc(1 << 20).unwrap();
    let (tx, rx) = mpsc::channel();
    {
        let s = rumba::stream().unwrap();
        s.memset(&buf, 5).unwrap();
        s.add_callback(move |_, status| tx.send(status.is_ok()).unwrap())
            .unwrap();
    }
    ctx.flush_deallocations().unwrap();
    assert!(rx.recv_timeout(Duration::from_secs(5)).unwrap());
    let mut out = vec![0u8; 1 << 20];
    rumba::copy(&mut out, &buf).unwrap();
    assert!(out.iter().all(|&b| b == 5));
}

/// The contrast to `streams_per_thread.rs`: without `RUMBA_PER_THREAD_DEFAULT_STREAM`, the default
/// stream is the legacy one, and synchronous work waits for earlier work of blocking streams.
#[test]
fn without_the_switch_synchronous_work_waits_for_blocking_streams() {
    let _serial = setup();
    assert!(!rumba::runtime_config().unwrap().per_thread_default_stream);
    let d = rumba::to_device(&[1u8, 2, 3]).unwrap();
    let blocking = rumba::stream().unwrap();
    let (open_tx, open_rx) = mpsc::channel::<()>();
    blocking
        .add_callback(move |_, _| {
            let _ = open_rx.recv_timeout(Duration::from_secs(20));
        })
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || tx.send(d.copy_to_host().unwrap().to_vec()).unwrap());
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
    open_tx.send(()).unwrap();
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), [1, 2, 3]);
    worker.join().unwrap();
}

/// A device synchronization waits for the work of every stream, destroyed ones included and
/// whatever their kind (as `cuCtxSynchronize` does): a non-blocking stream destroyed while its
/// callback still runs is waited for.
#[test]
fn a_device_synchronization_waits_for_destroyed_streams_of_both_kinds() {
    let _serial = setup();
    let ctx = current_context().unwrap();
    let drv = ctx.driver();
    for non_blocking in [false, true] {
        let s = drv.stream_create(0, non_blocking).unwrap();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = Arc::clone(&done);
        drv.stream_add_callback(
            0,
            s,
            Box::new(move |_| {
                std::thread::sleep(Duration::from_millis(300));
                flag.store(true, std::sync::atomic::Ordering::SeqCst);
            }),
        )
        .unwrap();
        drv.stream_destroy(0, s).unwrap();
        drv.device_synchronize(0).unwrap();
        assert!(
            done.load(std::sync::atomic::Ordering::SeqCst),
            "non-blocking {non_blocking}: the destroyed stream's callback had not finished"
        );
        // CUDA's driver cannot tell idleness without waiting: it answers "maybe busy".
        if common::test_backend() != rumba::config::BackendChoice::Cuda {
            assert!(drv.device_idle(0).unwrap(), "non-blocking {non_blocking}");
        }
    }
}
