//! Stream graphs: capture, replay, kernel-node updates, joined streams, memory the graph owns,
//! and every refusal inside a capture. The same tests run on the sim and on OpenCL
//! (`RUMBA_TEST_BACKEND=opencl`) and CUDA.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rumba::error::GraphError;
use rumba::kernel::prelude::*;
use rumba::{DeviceArray, Error, Order, Stream};

/// The device's memory: small, so that a test can run out of it.
const MEMORY: usize = 64 << 20;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.sim_devices = 2;
        c.sim_memory = Some(MEMORY);
    });
    common::serial()
}

/// Free device memory once every pending release has been carried out.
fn free_memory() -> usize {
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    ctx.get_memory_info().unwrap().0
}

/// `x[i] = x[i] * a + b`.
#[kernel]
fn scale_add(t: &Thread, x: &mut Arr<f32>, a: f32, b: f32) {
    let i = t.grid1();
    if i < x.len() {
        x[i] = x[i] * a + b;
    }
}

/// `out[i] = out[i] + x[i]`.
#[kernel]
fn accumulate(t: &Thread, out: &mut Arr<f32>, x: &Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = out[i] + x[i];
    }
}

fn array(values: &[f32]) -> DeviceArray<f32, ndarray::Ix1> {
    rumba::to_device(&ndarray::arr1(values)).unwrap()
}

fn host(a: &DeviceArray<f32, ndarray::Ix1>) -> Vec<f32> {
    a.copy_to_host().unwrap().to_vec()
}

fn refused(e: &Error) -> bool {
    matches!(e, Error::Graph(GraphError::Refused { .. }))
}

/// The work both ways: scale, copy, accumulate, a memset of a scratch buffer.
fn sequence(
    s: &Stream,
    x: &DeviceArray<f32, ndarray::Ix1>,
    y: &DeviceArray<f32, ndarray::Ix1>,
) -> rumba::Result<()> {
    let n = x.len() as u32;
    scale_add()
        .configure(1, n)
        .stream(s)
        .launch((x, 2.0f32, 1.0f32))?;
    s.copy(y, x)?;
    accumulate().configure(1, n).stream(s).launch((y, x))?;
    scale_add()
        .configure(1, n)
        .stream(s)
        .launch((y, 0.5f32, 0.0f32))?;
    Ok(())
}

#[test]
fn replays_give_the_results_of_queuing_one_by_one() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let start = [1.0f32, 2.0, 3.0, 4.0, -1.0, 0.5, 7.0, 8.0];
    let (x1, y1) = (array(&start), array(&[0.0; 8]));
    let (x2, y2) = (array(&start), array(&[0.0; 8]));
    for _ in 0..3 {
        sequence(&s, &x1, &y1).unwrap();
    }
    let graph = s.capture(|s| sequence(s, &x2, &y2)).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x2), start, "nothing runs while it is captured");
    assert_eq!(graph.kernel_nodes().unwrap().len(), 3);
    for _ in 0..3 {
        graph.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(host(&x2), host(&x1));
    assert_eq!(host(&y2), host(&y1));
    // Another stream of the same device replays it too.
    let other = rumba::stream().unwrap();
    sequence(&s, &x1, &y1).unwrap();
    graph.launch(&other).unwrap();
    other.synchronize().unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x2), host(&x1));
    assert_eq!(host(&y2), host(&y1));
}

#[test]
fn kernel_nodes_take_new_arrays_and_scalars_of_the_same_shape() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let (a, b) = (array(&[1.0; 4]), array(&[10.0; 4]));
    let k = scale_add();
    let graph = s
        .capture(|s| k.configure(1, 4).stream(s).launch((&a, 2.0f32, 0.0f32)))
        .unwrap();
    graph.launch(&s).unwrap();
    k.update_graph_node(&graph, 0, (&b, 3.0f32, 1.0f32))
        .unwrap();
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(
        host(&a),
        [2.0; 4],
        "the first replay used the captured arguments"
    );
    assert_eq!(host(&b), [31.0; 4], "the second the new ones");
    let node = &graph.kernel_nodes().unwrap()[0];
    assert_eq!(node.name, "scale_add");

    let e = k
        .update_graph_node(&graph, 0, (&array(&[0.0; 5]), 1.0f32, 1.0f32))
        .unwrap_err();
    match &e {
        Error::Graph(GraphError::ArgumentMismatch {
            node: 0,
            position: 0,
            captured,
            given,
            ..
        }) => {
            assert!(captured.contains("[4]") && given.contains("[5]"), "{e}");
        }
        other => panic!("{other}"),
    }
    let e = k
        .update_graph_node(&graph, 1, (&b, 1.0f32, 1.0f32))
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Graph(GraphError::NoSuchNode { node: 1, count: 1 })
        ),
        "{e}"
    );
    let e = accumulate()
        .update_graph_node(&graph, 0, (&b, &a))
        .unwrap_err();
    assert!(
        matches!(e, Error::Graph(GraphError::OtherKernel { .. })),
        "{e}"
    );
    // After the refused updates the node still has the last good arguments.
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&b), [94.0; 4]);
    assert_eq!(host(&a), [2.0; 4]);
}

#[test]
fn memory_allocated_inside_the_capture_belongs_to_the_graph() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let out = array(&[0.0; 16]);
    let graph = s
        .capture(|s| {
            let tmp = rumba::device_array::<f32, _>(16, Order::C)?;
            s.memset(tmp.buffer(), 0)?;
            scale_add()
                .configure(1, 16)
                .stream(s)
                .launch((&tmp, 1.0f32, 2.5f32))?;
            accumulate()
                .configure(1, 16)
                .stream(s)
                .launch((&out, &tmp))?;
            Ok(()) // `tmp` is dropped here: the graph keeps its memory
        })
        .unwrap();
    for _ in 0..4 {
        graph.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(host(&out), [10.0; 16]);
    drop(graph);
    s.synchronize().unwrap();
}

#[test]
fn arrays_dropped_after_the_capture_stay_valid_for_replays() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    // 8 MiB: CUDA's free-memory figure moves in 2 MiB pages, so a smaller array may not show.
    let n = 1 << 21;
    let bytes = n * 4;
    let values: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let src = array(&values);
    let dst = array(&vec![0.0; n]);
    let graph = s.capture(|s| s.copy(&dst, &src)).unwrap();
    let before = free_memory();
    drop(src);
    assert!(
        free_memory() < before + bytes,
        "the graph keeps the memory of the array the program dropped"
    );
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&dst), values);
    drop(graph);
    s.synchronize().unwrap();
    assert!(
        free_memory() >= before + bytes,
        "the graph's memory is freed once the graph is dropped"
    );
}

#[test]
fn dropping_the_graph_before_its_queued_replays_ran() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let x = array(&[0.0; 256]);
    let bytes = 8 << 20; // whole 2 MiB pages, which CUDA's free-memory figure counts in
    let start = free_memory();
    let graph = s
        .capture(|s| {
            let tmp = rumba::device_array::<f32, _>(bytes / 4, Order::C)?;
            s.memset(tmp.buffer(), 0)?;
            scale_add()
                .configure(1, 256)
                .stream(s)
                .launch((&x, 2.0f32, 1.0f32))?;
            Ok(())
        })
        .unwrap();
    // The stream waits for the test before it runs the replays.
    let (open, gate) = std::sync::mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = gate.recv();
    })
    .unwrap();
    for _ in 0..3 {
        graph.launch(&s).unwrap();
    }
    drop(graph);
    assert!(
        free_memory() + bytes <= start,
        "queued replays keep the graph's memory"
    );
    open.send(()).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x), [7.0; 256]);
    assert!(free_memory() >= start, "freed once the last replay has run");
}

#[test]
fn replays_of_one_graph_on_two_streams_run_one_after_the_other() {
    let _s = setup();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let n = 1 << 16;
    let x = array(&vec![0.0; n]);
    let graph = a
        .capture(|s| {
            for _ in 0..2 {
                scale_add()
                    .configure(n.div_ceil(256) as u32, 256)
                    .stream(s)
                    .launch((&x, 2.0f32, 1.0f32))?;
            }
            Ok(())
        })
        .unwrap();
    // x -> 2x + 1, twice a replay, ten replays: 2^20 - 1 from zero (exact in f32), only when no
    // two replays run at once.
    for i in 0..10 {
        graph.launch(if i % 2 == 0 { &a } else { &b }).unwrap();
    }
    a.synchronize().unwrap();
    b.synchronize().unwrap();
    let want = ((1u32 << 20) - 1) as f32;
    let wrong = host(&x).iter().filter(|&&v| v != want).count();
    assert_eq!(wrong, 0, "{wrong} of {n} elements are not {want}");
}

#[test]
fn out_of_memory_with_a_graph_holding_dropped_memory_is_reported_not_waited_for() {
    let _s = setup();
    if common::not_on(
        &[rumba::config::BackendChoice::Cuda],
        "out_of_memory_with_a_graph_holding_dropped_memory_is_reported_not_waited_for",
        "it runs the device out of memory at 64 MiB, the simulator's size (and OpenCL's cap): a CUDA device's memory cannot be capped",
    ) {
        return;
    }
    let ctx = rumba::current_context().unwrap();
    let s = rumba::stream().unwrap();
    let big = MEMORY / 2 + MEMORY / 8;
    let start = free_memory();
    let graph = s
        .capture(|s| {
            let tmp = s.memalloc(big)?;
            s.memset(&tmp, 3) // `tmp` is dropped: only the graph holds it
        })
        .unwrap();
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    let err = ctx.memalloc(big).unwrap_err();
    assert!(err.is_out_of_memory(), "{err}");
    drop(graph);
    s.synchronize().unwrap();
    drop(ctx.memalloc(big).unwrap());
    assert_eq!(free_memory(), start);
}

#[test]
fn dropping_the_stream_mid_capture_ends_the_capture() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let x = array(&[1.0; 64]);
    let start = free_memory();
    let s = rumba::stream().unwrap();
    s.begin_capture().unwrap();
    let tmp = s.memalloc(1 << 20).unwrap();
    s.memset(&tmp, 0).unwrap();
    drop(tmp);
    scale_add()
        .configure(1, 64)
        .stream(&s)
        .launch((&x, 2.0f32, 1.0f32))
        .unwrap();
    drop(s);
    ctx.synchronize().unwrap();
    assert_eq!(host(&x), [1.0; 64], "nothing recorded ran");
    assert_eq!(free_memory(), start, "what the capture held is freed");
}

#[test]
fn the_pool_reuses_no_block_of_a_capturing_stream_before_its_work_ran() {
    use rumba::memory::{DeviceResource, PoolResource};
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let pool = PoolResource::new(&ctx.manager_context()).unwrap();
    let s = rumba::stream().unwrap();
    let (open, gate) = std::sync::mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = gate.recv();
    })
    .unwrap();
    let a = pool.allocate(1000, s.handle()).unwrap();
    let freed = a.ptr();
    pool.deallocate(a, s.handle()).unwrap();
    s.begin_capture().unwrap();
    let b = pool.allocate(1000, s.handle()).unwrap();
    assert_ne!(
        b.ptr(),
        freed,
        "work queued on the stream before the free has not run; a replay may run elsewhere"
    );
    drop(s.end_capture().unwrap());
    pool.deallocate(b, s.handle()).unwrap();
    open.send(()).unwrap();
    s.synchronize().unwrap();
}

#[test]
fn streams_join_a_capture_through_events() {
    let _s = setup();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let (x, y) = (array(&[1.0; 8]), array(&[1.0; 8]));
    let (fork, join) = (
        rumba::event(rumba::EventOptions::untimed()).unwrap(),
        rumba::event(rumba::EventOptions::untimed()).unwrap(),
    );
    let graph = a
        .capture(|a| {
            scale_add()
                .configure(1, 8)
                .stream(a)
                .launch((&x, 2.0f32, 0.0f32))?;
            fork.record(a)?;
            fork.wait(&b)?;
            assert!(b.is_capturing(), "b joined the capture");
            scale_add()
                .configure(1, 8)
                .stream(&b)
                .launch((&y, 3.0f32, 0.0f32))?;
            join.record(&b)?;
            join.wait(a)?;
            accumulate().configure(1, 8).stream(a).launch((&x, &y))
        })
        .unwrap();
    assert!(!b.is_capturing(), "b left it at the end");
    assert_eq!(graph.kernel_nodes().unwrap().len(), 3);
    graph.launch(&a).unwrap();
    a.synchronize().unwrap();
    assert_eq!(host(&x), [5.0; 8]);
    assert_eq!(host(&y), [3.0; 8]);
    // The events of the graph complete with its replay.
    graph.launch(&a).unwrap();
    join.synchronize().unwrap();
    a.synchronize().unwrap();
    assert_eq!(host(&x), [5.0 * 2.0 + 9.0; 8]);
}

#[test]
fn repeatable_callbacks_run_on_every_replay() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let runs = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&runs);
    let graph = s
        .capture(|s| {
            s.add_graph_callback(move |status| {
                assert!(status.is_ok());
                r.fetch_add(1, Ordering::SeqCst);
            })
        })
        .unwrap();
    for _ in 0..5 {
        graph.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 5);
}

#[test]
fn waiting_operations_are_refused_inside_a_capture_and_nothing_is_recorded() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let ctx = rumba::current_context().unwrap();
    let x = array(&[1.0; 4]);
    let ev = rumba::event(rumba::EventOptions::untimed()).unwrap();
    s.begin_capture().unwrap();
    let e = s.synchronize().unwrap_err();
    assert!(refused(&e), "{e}");
    assert!(
        e.to_string().contains(&format!("0x{:x}", s.handle().0)),
        "{e}"
    );
    assert!(refused(&s.query().unwrap_err()));
    assert!(refused(&ctx.synchronize().unwrap_err()));
    ev.record(&s).unwrap();
    assert!(refused(&ev.synchronize().unwrap_err()));
    assert!(refused(&ev.query().unwrap_err()));
    let e = s.add_callback(|_, _| {}).unwrap_err();
    assert!(refused(&e), "{e}");
    // Pageable host memory, both ways.
    let e = x.copy_to_host_on(&s).unwrap_err();
    assert!(refused(&e), "{e}");
    let e = s.copy(&x, &ndarray::arr1(&[2.0f32; 4])).unwrap_err();
    assert!(refused(&e), "{e}");
    // A launch with a host array would wait for the kernel.
    let mut h = ndarray::arr1(&[0.0f32; 4]);
    let e = scale_add()
        .configure(1, 4)
        .stream(&s)
        .launch((&mut h, 1.0f32, 1.0f32))
        .unwrap_err();
    assert!(refused(&e), "{e}");
    let graph = s.end_capture().unwrap();
    assert!(
        graph.kernel_nodes().unwrap().is_empty(),
        "nothing was recorded"
    );
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x), [1.0; 4]);
    assert_eq!(h.to_vec(), [0.0; 4]);
}

#[test]
fn an_error_inside_the_capture_ends_it_and_the_stream_runs_work_again() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let x = array(&[1.0; 4]);
    let e = s
        .capture(|s| {
            scale_add()
                .configure(1, 4)
                .stream(s)
                .launch((&x, 2.0f32, 0.0f32))?;
            s.synchronize()
        })
        .unwrap_err();
    assert!(refused(&e), "{e}");
    assert!(!s.is_capturing());
    let e = s.end_capture().unwrap_err();
    assert!(
        matches!(e, Error::Graph(GraphError::NotCapturing { .. })),
        "{e}"
    );
    scale_add()
        .configure(1, 4)
        .stream(&s)
        .launch((&x, 3.0f32, 0.0f32))
        .unwrap();
    s.synchronize().unwrap();
    assert_eq!(
        host(&x),
        [3.0; 4],
        "the captured launch never ran; the new one did"
    );
    // A panic inside the closure ends the capture too.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = s.capture(|_| -> rumba::Result<()> { panic!("inside") });
    }));
    assert!(r.is_err());
    assert!(!s.is_capturing());
}

#[test]
fn captures_are_refused_where_they_cannot_be() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let e = rumba::legacy_default_stream()
        .unwrap()
        .begin_capture()
        .unwrap_err();
    assert!(refused(&e), "{e}");
    s.begin_capture().unwrap();
    let e = s.begin_capture().unwrap_err();
    assert!(
        matches!(e, Error::Graph(GraphError::AlreadyCapturing { .. })),
        "{e}"
    );
    // Waiting for an event recorded outside the capture.
    let other = rumba::stream().unwrap();
    let ev = rumba::event(rumba::EventOptions::untimed()).unwrap();
    ev.record(&other).unwrap();
    let e = ev.wait(&s).unwrap_err();
    assert!(
        matches!(e, Error::Graph(GraphError::ExternalEvent { .. })),
        "{e}"
    );
    // A graph is not launched into a capture.
    let g = other.capture(|_| Ok(())).unwrap();
    assert!(refused(&g.launch(&s).unwrap_err()));
    drop(s.end_capture().unwrap());
}

#[test]
fn a_graph_runs_only_on_its_own_device() {
    let _s = setup();
    if common::needs_devices(2, "a_graph_runs_only_on_its_own_device") {
        return;
    }
    let s = rumba::stream().unwrap();
    let g = s.capture(|_| Ok(())).unwrap();
    let device = s.context().device_id();
    let other = std::thread::spawn(move || {
        rumba::select_device(1 - device).unwrap();
        rumba::stream().unwrap()
    })
    .join()
    .unwrap();
    let e = g.launch(&other).unwrap_err();
    assert!(
        matches!(e, Error::Graph(GraphError::OtherDevice { .. })),
        "{e}"
    );
}

#[test]
fn a_replay_after_a_reset_is_refused() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let x = array(&[1.0; 4]);
    let g = s
        .capture(|s| {
            scale_add()
                .configure(1, 4)
                .stream(s)
                .launch((&x, 2.0f32, 0.0f32))
        })
        .unwrap();
    g.launch(&s).unwrap();
    s.synchronize().unwrap();
    rumba::current_context().unwrap().reset().unwrap();
    let e = g.launch(&s).unwrap_err();
    assert!(matches!(e, Error::Graph(GraphError::Reset { .. })), "{e}");
}

#[test]
fn host_copies_are_refused_inside_a_capture_and_nothing_is_recorded() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let d = array(&[0.0; 4]);
    let mut pinned = rumba::pinned_array::<f32, _>(4, Order::C).unwrap();
    pinned.view_mut().fill(5.0);
    let buf = s.memalloc(8).unwrap();
    // More than one pageable staging chunk (4 MiB).
    let n = (5 << 20) / 4;
    let big = rumba::device_array::<f32, _>(n, Order::C).unwrap();
    let big_host = ndarray::Array1::from_elem(n, 7.0f32);
    s.begin_capture().unwrap();
    let r = s.upload(pinned, &d).unwrap_err();
    assert!(refused(&r.error), "{}", r.error);
    let pinned = r.buffer;
    let r = s.download(&d, pinned).unwrap_err();
    assert!(refused(&r.error), "{}", r.error);
    let mut pinned = r.buffer;
    let bytes = [9u8; 8];
    let e = s
        .auto_synchronize(|scope| scope.copy(&buf, &bytes[..]))
        .unwrap_err();
    assert!(refused(&e), "{e}");
    let e = s.copy(&big, &big_host).unwrap_err();
    assert!(refused(&e), "{e}");
    let e = big.copy_to_host_on(&s).unwrap_err();
    assert!(refused(&e), "{e}");
    let graph = s.end_capture().unwrap();
    pinned.view_mut().fill(3.0);
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&d), [0.0; 4], "no upload was recorded");
    assert_eq!(pinned.view().to_vec(), [3.0; 4], "no download was recorded");
    let mut out = [1u8; 8];
    rumba::copy(&mut out[..], &buf).unwrap();
    assert_ne!(out, [9; 8], "no scoped copy was recorded");
    assert!(
        big.copy_to_host().unwrap().iter().all(|&v| v != 7.0),
        "no pageable copy was recorded"
    );
}

#[test]
fn host_kernel_arguments_are_refused_before_anything_is_uploaded() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let n = (5 << 20) / 4;
    let host_big = ndarray::Array1::from_elem(n, 1.0f32);
    let mut out = ndarray::Array1::from_elem(4, 0.0f32);
    let x = array(&[1.0; 4]);
    let k = scale_add();
    let before = rumba::kernel::auto_transfers();
    s.begin_capture().unwrap();
    let e = k
        .configure(1, 4)
        .stream(&s)
        .launch((rumba::In(&host_big), 1.0f32, 1.0f32))
        .unwrap_err();
    assert!(refused(&e), "{e}");
    let e = k
        .configure(1, 4)
        .stream(&s)
        .launch((rumba::Out(&mut out), 1.0f32, 1.0f32))
        .unwrap_err();
    assert!(refused(&e), "{e}");
    k.configure(1, 4)
        .stream(&s)
        .launch((&x, 2.0f32, 0.0f32))
        .unwrap();
    let graph = s.end_capture().unwrap();
    assert_eq!(
        rumba::kernel::auto_transfers().since(&before),
        rumba::kernel::AutoTransfers::default(),
        "nothing was uploaded"
    );
    assert_eq!(graph.kernel_nodes().unwrap().len(), 1);
    let e = k
        .update_graph_node(&graph, 0, (rumba::In(&host_big), 1.0f32, 1.0f32))
        .unwrap_err();
    assert!(refused(&e), "{e}");
    assert_eq!(
        rumba::kernel::auto_transfers().since(&before),
        rumba::kernel::AutoTransfers::default(),
        "the update uploaded nothing"
    );
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x), [2.0; 4]);
}

#[test]
fn only_a_programs_own_event_records_enter_a_capture() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let ctx = rumba::current_context().unwrap();
    let (drv, dev) = (ctx.driver().clone(), ctx.device_id());
    let internal = drv.event_create(dev, false).unwrap();
    let user = rumba::event(rumba::EventOptions::untimed()).unwrap();
    let pool = Arc::new(rumba::memory::PinnedPool::new(dev, drv.clone()));
    let block = pool.alloc(4, Default::default()).unwrap();
    s.begin_capture().unwrap();
    // rumba's bookkeeping (a pool's fence, a wait before an allocation retry) is refused.
    let e = drv.event_record(dev, internal, s.handle()).unwrap_err();
    assert!(refused(&e), "{e}");
    let e = block.record(s.handle()).unwrap_err();
    assert!(refused(&e), "{e}");
    user.record(&s).unwrap();
    let graph = s.end_capture().unwrap();
    drop(block);
    assert!(
        drv.event_query(dev, internal).unwrap(),
        "the refused record left the event as it was"
    );
    graph.launch(&s).unwrap();
    user.synchronize().unwrap();
    drv.event_destroy(dev, internal).unwrap();
}

#[test]
fn a_reset_during_a_capture_is_refused_and_frees_nothing() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let ctx = rumba::current_context().unwrap();
    let x = array(&[1.0; 4]);
    s.begin_capture().unwrap();
    scale_add()
        .configure(1, 4)
        .stream(&s)
        .launch((&x, 2.0f32, 1.0f32))
        .unwrap();
    let e = ctx.reset().unwrap_err();
    assert!(matches!(e, Error::ResetRefused { .. }), "{e}");
    let graph = s.end_capture().unwrap();
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&x), [3.0; 4], "the reset freed nothing");
}

#[test]
fn an_event_destroyed_after_the_capture_leaves_the_replays_working() {
    let _s = setup();
    let s = rumba::stream().unwrap();
    let x = array(&[1.0; 4]);
    let ev = rumba::event(rumba::EventOptions::untimed()).unwrap();
    let graph = s
        .capture(|s| {
            scale_add()
                .configure(1, 4)
                .stream(s)
                .launch((&x, 2.0f32, 0.0f32))?;
            ev.record(s)
        })
        .unwrap();
    drop(ev);
    rumba::current_context()
        .unwrap()
        .flush_deallocations()
        .unwrap();
    graph.launch(&s).unwrap();
    graph.launch(&s).unwrap();
    drop(graph);
    s.synchronize().unwrap();
    assert_eq!(host(&x), [4.0; 4]);
}
