//! Stream graph replays: what a replay must keep of queuing one by one once it is cut down to a
//! batch of commands (on OpenCL: a kernel object per node with its arguments set at capture, one
//! fault record array per graph zeroed and read back once per replay). A fault in a replayed
//! kernel names that kernel, block and thread, on every replay and on the stream that ran it; a
//! callback in the graph sees the faults of the kernels before it; new arguments for one node
//! leave the other nodes of the same kernel alone. The same tests run on the sim, OpenCL
//! (`RUMBA_TEST_BACKEND=opencl`) and CUDA, where a replay's faults are not reported yet (the
//! tests say `SKIPPED` for those parts).

mod common;

use std::sync::{Arc, Mutex};

use rumba::config::BackendChoice;
use rumba::kernel::prelude::*;
use rumba::{DeviceArray, Error};

/// `x[i] = x[i] * a + b`.
#[kernel]
fn scale_add(t: &Thread, x: &mut Arr<u32>, a: u32, b: u32) {
    let i = t.grid1();
    if i < x.len() {
        x[i] = x[i] * a + b;
    }
}

/// Thread 37 writes `reach` elements further on (past the end when `reach` is large); every
/// thread of the array adds `v`.
#[kernel]
fn poke(t: &Thread, x: &mut Arr<u32>, v: u32, reach: u32) {
    let i = t.grid1();
    if i == 37 {
        x[i + reach as usize] = v;
    } else if i < x.len() {
        x[i] += v;
    }
}

/// As [`poke`], another kernel: thread 3 writes `reach` elements further on.
#[kernel]
fn prod(t: &Thread, x: &mut Arr<u32>, reach: u32) {
    let i = t.grid1();
    if i == 3 {
        x[i + reach as usize] = 9;
    } else if i < x.len() {
        x[i] += 1;
    }
}

fn array(n: usize, v: u32) -> DeviceArray<u32, ndarray::Ix1> {
    rumba::to_device(&ndarray::Array1::from_elem(n, v)).unwrap()
}

fn host(a: &DeviceArray<u32, ndarray::Ix1>) -> Vec<u32> {
    a.copy_to_host().unwrap().to_vec()
}

/// The kernel, block and thread of a kernel fault; panics naming what came instead.
fn fault(r: rumba::Result<()>) -> (String, [u32; 3], [u32; 3]) {
    match r {
        Err(Error::KernelFault {
            kernel,
            block,
            thread,
            ..
        }) => (kernel, block, thread),
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}

const N: usize = 64;
/// How far `poke`'s thread 37 and `prod`'s thread 3 reach: past the end.
const FAR: u32 = 1000;

/// Starts the runtime and serializes the tests: on CUDA a capture on a blocking stream makes
/// another test's work on the legacy default stream fail (`CUDA_ERROR_STREAM_CAPTURE_IMPLICIT`,
/// the fifth H100 run).
fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

/// False (after saying `SKIPPED <test> on cuda`, the test named after its thread) where a
/// replay's kernel faults are not reported: kernels in a CUDA graph have no fault record yet (the
/// CUDA graph module's docs).
fn replay_faults_reported() -> bool {
    let thread = std::thread::current();
    !common::not_on(
        &[BackendChoice::Cuda],
        thread.name().unwrap_or("<unnamed test>"),
        "kernels in a CUDA graph have no fault record yet: a replay's out-of-bounds accesses are skipped, not reported",
    )
}

#[test]
fn a_fault_in_the_second_of_three_replayed_kernels_names_it_on_every_replay() {
    let _serial = setup();
    if !replay_faults_reported() {
        return;
    }
    let s = rumba::stream().unwrap();
    let (a, x, y) = (array(N, 1), array(N, 0), array(N, 0));
    let p = poke();
    // Three generated kernels, each with a fault record; the second and third fault.
    let graph = s
        .capture(|s| {
            scale_add()
                .configure(2, 32)
                .stream(s)
                .launch((&a, 2u32, 1u32))?;
            p.configure(2, 32).stream(s).launch((&x, 5u32, FAR))?;
            prod().configure(1, 32).stream(s).launch((&y, FAR))
        })
        .unwrap();
    for _ in 0..2 {
        graph.launch(&s).unwrap();
        let (kernel, block, thread) = fault(s.synchronize());
        assert_eq!(
            kernel, "poke",
            "the first kernel that faulted, in capture order"
        );
        assert_eq!((block, thread), ([1, 0, 0], [5, 0, 0]));
        s.synchronize().expect("a fault is reported once");
    }
    // New arguments for the faulting node: the next replay is clean (its records were zeroed).
    p.update_graph_node(&graph, 1, (&x, 5u32, 0u32)).unwrap();
    graph.launch(&s).unwrap();
    let (kernel, block, thread) = fault(s.synchronize());
    assert_eq!(
        (kernel.as_str(), block, thread),
        ("prod", [0, 0, 0], [3, 0, 0]),
        "now the third kernel's fault is the first"
    );
    assert_eq!(
        host(&a),
        vec![15u32; N],
        "three replays of the first kernel ran"
    );
}

#[test]
fn new_arguments_for_one_node_leave_the_other_nodes_of_its_kernel_alone() {
    let _serial = setup();
    let s = rumba::stream().unwrap();
    let xs: Vec<_> = (0..3).map(|_| array(N, 1)).collect();
    let other = array(N, 100);
    let k = scale_add();
    let graph = s
        .capture(|s| {
            for x in &xs {
                k.configure(2, 32).stream(s).launch((x, 2u32, 0u32))?;
            }
            Ok(())
        })
        .unwrap();
    graph.launch(&s).unwrap();
    k.update_graph_node(&graph, 1, (&other, 3u32, 1u32))
        .unwrap();
    graph.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(host(&xs[0]), vec![4u32; N], "node 0 ran twice as captured");
    assert_eq!(host(&xs[1]), vec![2u32; N], "node 1 ran once as captured");
    assert_eq!(host(&xs[2]), vec![4u32; N], "node 2 ran twice as captured");
    assert_eq!(
        host(&other),
        vec![301u32; N],
        "node 1 ran once with the update"
    );
    let nodes = graph.kernel_nodes().unwrap();
    assert_eq!(nodes.len(), 3);
    assert!(nodes.iter().all(|n| n.name == "scale_add"));
}

#[test]
fn a_graph_replayed_on_two_streams_gives_one_streams_results_and_faults_on_each() {
    let _serial = setup();
    let (s1, s2) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let (x, y) = (array(N, 1), array(N, 0));
    let (x1, y1) = (array(N, 1), array(N, 0));
    let work = |s: &rumba::Stream, x: &DeviceArray<u32, _>, y: &DeviceArray<u32, _>| {
        scale_add()
            .configure(2, 32)
            .stream(s)
            .launch((x, 3u32, 1u32))?;
        s.copy(y, x)?;
        poke().configure(2, 32).stream(s).launch((y, 2u32, 0u32))
    };
    let graph = s1.capture(|s| work(s, &x, &y)).unwrap();
    for i in 0..6 {
        graph.launch(if i % 2 == 0 { &s1 } else { &s2 }).unwrap();
        work(&s1, &x1, &y1).unwrap();
    }
    s1.synchronize().unwrap();
    s2.synchronize().unwrap();
    assert_eq!(host(&x), host(&x1));
    assert_eq!(host(&y), host(&y1));

    // A faulting replay on each stream: each stream's synchronization reports its own.
    if !replay_faults_reported() {
        return;
    }
    let bad = s1
        .capture(|s| poke().configure(2, 32).stream(s).launch((&y, 1u32, FAR)))
        .unwrap();
    bad.launch(&s1).unwrap();
    bad.launch(&s2).unwrap();
    for s in [&s1, &s2] {
        let (kernel, block, thread) = fault(s.synchronize());
        assert_eq!(
            (kernel.as_str(), block, thread),
            ("poke", [1, 0, 0], [5, 0, 0])
        );
    }
}

#[test]
fn a_callback_in_a_graph_sees_the_fault_of_a_kernel_before_it() {
    let _serial = setup();
    if !replay_faults_reported() {
        return;
    }
    let s = rumba::stream().unwrap();
    let x = array(N, 0);
    let seen: Arc<Mutex<Vec<Option<String>>>> = Arc::default();
    let log = Arc::clone(&seen);
    let graph = s
        .capture(|s| {
            poke().configure(2, 32).stream(s).launch((&x, 1u32, FAR))?;
            s.add_graph_callback(move |status| {
                let kernel = match status {
                    Err(Error::KernelFault { kernel, .. }) => Some(kernel),
                    _ => None,
                };
                log.lock().unwrap().push(kernel);
            })
        })
        .unwrap();
    for _ in 0..2 {
        graph.launch(&s).unwrap();
        let (kernel, _, _) = fault(s.synchronize());
        assert_eq!(kernel, "poke");
    }
    assert_eq!(
        *seen.lock().unwrap(),
        [Some("poke".into()), Some("poke".into())]
    );
}
