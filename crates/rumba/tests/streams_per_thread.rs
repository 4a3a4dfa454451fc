//! docs/design/behaviour.md §4 with `RUMBA_PER_THREAD_DEFAULT_STREAM=1`
//! (`Config::per_thread_default_stream`, Numba's `CUDA_PER_THREAD_DEFAULT_STREAM`): the default
//! stream — handle 0, and every operation given no stream — is the calling thread's per-thread
//! default stream. It synchronizes with the legacy default stream but not with other blocking
//! streams, and every host thread has its own. (A test binary of its own: the switch is
//! process-wide.)

mod common;

use std::sync::mpsc;
use std::time::Duration;

use rumba::driver::StreamHandle;
use rumba::interop::CudaArray;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| c.per_thread_default_stream = true);
    common::serial()
}

/// Queues on `s` a callback that holds the stream until the returned sender sends.
fn gate(s: &rumba::Stream) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = rx.recv_timeout(Duration::from_secs(20));
    })
    .unwrap();
    tx
}

#[test]
fn the_switch_is_on_and_the_default_stream_keeps_handle_zero() {
    let _s = setup();
    assert!(rumba::runtime_config().unwrap().per_thread_default_stream);
    let d = rumba::default_stream().unwrap();
    assert_eq!((d.handle().0, d.kind()), (0, rumba::StreamKind::Default));
    d.synchronize().unwrap();
    assert_eq!(
        common::block_on(d.async_done().unwrap())
            .unwrap()
            .handle()
            .0,
        0
    );
}

#[test]
fn default_stream_work_does_not_wait_for_other_blocking_streams() {
    let _s = setup();
    // The fill once before the gate: on CUDA, loading a built-in kernel's module may wait for
    // the device's queued work (CUDA's lazy loading), held stream included.
    rumba::to_device(&[0u8; 3]).unwrap().assign(1u8).unwrap();
    let blocking = rumba::stream().unwrap();
    let open = gate(&blocking);
    // Synchronous operations (no stream given) run on the default stream: they finish while the
    // blocking stream is held. Under legacy semantics they would wait for it.
    let got = common::within(10, "synchronous work on the default stream", || {
        let d = rumba::to_device(&[1u8, 2, 3]).unwrap();
        d.assign(9u8).unwrap();
        d.copy_to_host().unwrap().to_vec()
    });
    assert_eq!(got, [9, 9, 9]);
    let explicit = rumba::default_stream().unwrap();
    let buf = rumba::current_context().unwrap().memalloc(16).unwrap();
    explicit.memset(&buf, 1).unwrap();
    common::within(10, "the default stream", move || {
        explicit.synchronize().unwrap()
    });

    // The legacy default stream still waits for every blocking stream.
    let legacy = rumba::legacy_default_stream().unwrap();
    legacy.memset(&buf, 2).unwrap();
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || tx.send(legacy.synchronize()).unwrap());
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "legacy work waits for the held blocking stream"
    );
    open.send(()).unwrap();
    rx.recv_timeout(Duration::from_secs(10)).unwrap().unwrap();
    waiter.join().unwrap();
    blocking.synchronize().unwrap();
}

#[test]
fn each_thread_has_its_own_default_stream() {
    let _s = setup();
    // Hold this thread's default stream ...
    let mine = rumba::default_stream().unwrap();
    let open = gate(&mine);
    assert!(!mine.query().unwrap());
    // ... while another thread's default stream (and its synchronous copies) run freely.
    let other = common::within(10, "another thread's default stream", || {
        let s = rumba::default_stream().unwrap();
        let d = rumba::to_device(&[5u16; 4]).unwrap();
        s.synchronize().unwrap();
        (s.query().unwrap(), d.copy_to_host().unwrap().sum())
    });
    assert_eq!(other, (true, 20));
    open.send(()).unwrap();
    mine.synchronize().unwrap();
}

#[test]
fn arrays_bound_to_the_default_stream_describe_the_per_thread_stream() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "arrays_bound_to_the_default_stream_describe_the_per_thread_stream",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it (tests/opencl.rs)",
    ) {
        return;
    }
    let d = rumba::device_array::<f32, _>(4, rumba::Order::C)
        .unwrap()
        .bind(&rumba::default_stream().unwrap());
    // The interface forbids 0; under per-thread semantics handle 0 is stream 2.
    assert_eq!(d.cuda_array_interface().stream, Some(2));
    let m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new())
        .unwrap()
        .bind(&rumba::default_stream().unwrap());
    assert_eq!(m.describe().unwrap().stream, Some(2));
    assert_eq!(
        d.bind(&rumba::legacy_default_stream().unwrap())
            .cuda_array_interface()
            .stream,
        Some(1)
    );
}

#[test]
fn tracked_host_memory_refuses_the_per_thread_default_stream() {
    let _s = setup();
    let mut c = rumba::coarsegrain_array::<u8, _>(4, rumba::Order::C).unwrap();
    let err = c.fill_on(1, &rumba::default_stream().unwrap()).unwrap_err();
    assert!(
        err.to_string()
            .contains("different stream on every host thread"),
        "{err}"
    );
    assert_eq!(c.view().unwrap().to_vec(), [0; 4]);
}

#[test]
fn the_pool_reuses_default_stream_frees_like_per_thread_ones() {
    let _s = setup();
    use rumba::memory::{DeviceResource, PoolResource};
    let ctx = rumba::current_context().unwrap();
    let pool = PoolResource::new(&ctx.manager_context()).unwrap();
    use rumba::memory::BlockState;
    let s = rumba::default_stream().unwrap();
    let block = pool.allocate(1024, s.handle()).unwrap();
    let p = block.ptr();
    let state = |p| {
        let snap = pool.cache().unwrap().snapshot();
        snap.segments
            .iter()
            .flat_map(|seg| seg.blocks.iter())
            .find(|b| b.ptr == p)
            .map(|b| b.state)
            .unwrap()
    };
    assert!(
        matches!(state(p), BlockState::Allocated { stream, .. } if stream == StreamHandle::PER_THREAD),
        "{:?}",
        state(p)
    );
    pool.deallocate(block, s.handle()).unwrap();
    // Freed on the per-thread stream (not cached as the legacy stream's).
    match state(p) {
        BlockState::Free { stream } => assert_eq!(stream, Some(StreamHandle::PER_THREAD)),
        other => panic!("{other:?}"),
    }
    s.synchronize().unwrap();
    pool.deferral().unwrap().flush().unwrap();
}
