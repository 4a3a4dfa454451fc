//! The simulator's global-memory leases for work-item-loop kernels (`driver/sim/inflight.rs`),
//! decided when the kernel starts: a read-only argument is **frozen** (plain loads allowed) only
//! when no other registered operation may write it, an own-index output is **exclusive** (plain
//! stores allowed) only when nothing else touches it, shared memory (host-mapped, exported) is
//! never leased, and operations queued later that conflict with a lease wait for the kernel
//! instead of racing with it.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rumba::driver::sim::SimDriver;
use rumba::driver::{
    ArrayUse, DeviceCopy, Driver, HostAllocFlags, HostArg, HostEngine, HostKernel, KernelArg,
    KernelArrayArg, KernelFunction, KernelLaunch, On, StreamHandle,
};
use rumba::kernel::wil::{Atomic, GlobalIn};

/// What the probe saw of each array argument: frozen, claimed exclusive, and its element 0
/// read before and after waiting at the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    frozen: bool,
    exclusive: bool,
    first: u32,
    last: u32,
}

type Log = Arc<Mutex<Vec<Vec<Seen>>>>;

/// A gate for a probe: it says when it has started (holding its leases), then waits to be let go.
struct Gate {
    started: Sender<()>,
    go: Receiver<()>,
}

/// The host side of a [`Gate`].
struct Control {
    started: Receiver<()>,
    go: Sender<()>,
}

fn gate() -> (Control, Gate) {
    let (started_tx, started_rx) = channel();
    let (go_tx, go_rx) = channel();
    (
        Control {
            started: started_rx,
            go: go_tx,
        },
        Gate {
            started: started_tx,
            go: go_rx,
        },
    )
}

impl Control {
    /// Waits until the probe runs.
    fn started(&self) {
        self.started.recv_timeout(Duration::from_secs(10)).unwrap();
    }

    /// Lets the probe finish.
    fn open(&self) {
        self.go.send(()).unwrap();
    }
}

/// A kernel whose work-item-loop form records what the simulator granted, optionally stopping
/// at `gate` in between two reads of every argument.
fn probe(uses: &[ArrayUse], log: &Log, gate: Option<Gate>) -> KernelFunction {
    let log = Arc::clone(log);
    let gate = Mutex::new(gate);
    let read = |a: &HostArg<'_>| -> u32 {
        GlobalIn::<u32, 1, Atomic>::from_arg(a, 0)
            .map(|g| g.get(0))
            .unwrap_or(u32::MAX)
    };
    let host = HostKernel::per_thread(|_| Ok(()))
        .with_work_item_loop(move |launch| {
            let mut seen: Vec<Seen> = launch
                .args()
                .iter()
                .map(|a| match a {
                    HostArg::Array(h) => Seen {
                        frozen: h.frozen(),
                        exclusive: h.claim_exclusive(),
                        first: 0,
                        last: 0,
                    },
                    HostArg::Scalar(_) => unreachable!(),
                })
                .collect();
            for (s, a) in seen.iter_mut().zip(launch.args()) {
                if !s.exclusive {
                    s.first = read(a);
                }
            }
            if let Some(g) = gate.lock().unwrap().as_ref() {
                g.started.send(()).unwrap();
                g.go.recv().unwrap();
            }
            for (s, a) in seen.iter_mut().zip(launch.args()) {
                if !s.exclusive {
                    s.last = read(a);
                }
            }
            log.lock().unwrap().push(seen);
            Ok(())
        })
        .with_array_uses(uses.to_vec());
    KernelFunction::new("probe").with_form(host)
}

fn array(ptr: u64, n: usize) -> KernelArg {
    KernelArg::Array(KernelArrayArg {
        ptr,
        itemsize: 4,
        shape: vec![n],
        strides: vec![4],
        writable: true,
    })
}

fn launch(drv: &SimDriver, f: &KernelFunction, args: &[KernelArg], stream: StreamHandle) {
    let l = KernelLaunch {
        function: f,
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_shared_bytes: 0,
        args,
    };
    // SAFETY: every array argument is a live 64-element u32 device allocation of `drv`.
    unsafe { drv.launch_kernel(0, &l, stream) }.unwrap();
}

fn setup() -> (SimDriver, u64, u64) {
    let drv = SimDriver::new(&rumba::Config::default()).unwrap();
    let a = drv.mem_alloc(0, 256).unwrap();
    let c = drv.mem_alloc(0, 256).unwrap();
    (drv, a, c)
}

fn seen(frozen: bool, exclusive: bool) -> (bool, bool) {
    (frozen, exclusive)
}

fn grants(log: &Log, k: usize) -> Vec<(bool, bool)> {
    log.lock().unwrap()[k]
        .iter()
        .map(|s| seen(s.frozen, s.exclusive))
        .collect()
}

#[test]
fn leases_are_granted_when_nothing_else_touches_the_memory() {
    let (drv, a, c) = setup();
    let log = Log::default();
    let f = probe(
        &[ArrayUse::Read, ArrayUse::OwnIndexStore, ArrayUse::ReadWrite],
        &log,
        None,
    );
    let b = drv.mem_alloc(0, 256).unwrap();
    launch(
        &drv,
        &f,
        &[array(a, 64), array(c, 64), array(b, 64)],
        StreamHandle::LEGACY,
    );
    drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    assert_eq!(
        grants(&log, 0),
        [(true, false), (false, true), (false, false)]
    );

    // On coroutines nothing is leased (the per-thread body would not use it).
    let coro = KernelFunction::new("probe").with_form(
        f.form::<HostKernel>()
            .unwrap()
            .clone()
            .with_engine(HostEngine::Coroutines),
    );
    launch(
        &drv,
        &coro,
        &[array(a, 64), array(c, 64), array(b, 64)],
        StreamHandle::LEGACY,
    );
    drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    assert_eq!(
        log.lock().unwrap().len(),
        1,
        "the work-item-loop form did not run"
    );
}

#[test]
fn one_allocation_in_two_arguments() {
    let (drv, a, _) = setup();
    let log = Log::default();
    // Read twice: nobody writes it, both frozen.
    let f = probe(&[ArrayUse::Read, ArrayUse::Read], &log, None);
    launch(
        &drv,
        &f,
        &[array(a, 64), array(a + 128, 32)],
        StreamHandle::LEGACY,
    );
    // Read and written: the reader is not frozen, the writer not exclusive.
    let f = probe(&[ArrayUse::Read, ArrayUse::OwnIndexStore], &log, None);
    launch(
        &drv,
        &f,
        &[array(a, 64), array(a, 64)],
        StreamHandle::LEGACY,
    );
    drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    assert_eq!(grants(&log, 0), [(true, false), (true, false)]);
    assert_eq!(grants(&log, 1), [(false, false), (false, false)]);
}

#[test]
fn a_running_writer_denies_the_frozen_lease_and_a_finished_one_does_not() {
    let (drv, a, _) = setup();
    let log = Log::default();
    let (s1, s2) = (
        drv.stream_create(0, true).unwrap(),
        drv.stream_create(0, true).unwrap(),
    );
    // A writer of `a` held up on s1.
    let (ctl, g) = gate();
    let writer = probe(&[ArrayUse::ReadWrite], &log, Some(g));
    launch(&drv, &writer, &[array(a, 64)], s1);
    ctl.started();
    // A reader on s2, unordered with it: not frozen.
    let reader = probe(&[ArrayUse::Read], &log, None);
    launch(&drv, &reader, &[array(a, 64)], s2);
    drv.stream_synchronize(0, s2).unwrap();
    assert_eq!(grants(&log, 0), [(false, false)]);
    ctl.open();
    drv.stream_synchronize(0, s1).unwrap();

    // A writer earlier on the reader's own stream has finished when it starts: frozen.
    // SAFETY: `a` is a live 256-byte allocation.
    unsafe { drv.memset(On::stream(0, s2), a, 1, 256) }.unwrap();
    launch(&drv, &reader, &[array(a, 64)], s2);
    drv.stream_synchronize(0, s2).unwrap();
    assert!(log.lock().unwrap()[2][0].frozen);
    assert_eq!(log.lock().unwrap()[2][0].first, 0x0101_0101);

    // A writer queued after the reader on its own stream, before it started, cannot run before
    // it ends: frozen. (s2 is held up by a probe of another allocation meanwhile.)
    let b = drv.mem_alloc(0, 256).unwrap();
    let (ctl, g) = gate();
    let hold = probe(&[ArrayUse::ReadWrite], &log, Some(g));
    launch(&drv, &hold, &[array(b, 64)], s2);
    launch(&drv, &reader, &[array(a, 64)], s2);
    // SAFETY: `a` is a live 256-byte allocation.
    unsafe { drv.memset(On::stream(0, s2), a, 2, 256) }.unwrap();
    ctl.started();
    ctl.open();
    drv.stream_synchronize(0, s2).unwrap();
    let l = log.lock().unwrap();
    assert_eq!((l[4][0].frozen, l[4][0].first), (true, 0x0101_0101));
}

#[test]
fn the_legacy_stream_orders_after_blocking_streams_so_their_writers_do_not_deny() {
    let (drv, a, _) = setup();
    let log = Log::default();
    let s1 = drv.stream_create(0, false).unwrap(); // blocking
    let (ctl, g) = gate();
    let writer = probe(&[ArrayUse::ReadWrite], &log, Some(g));
    launch(&drv, &writer, &[array(a, 64)], s1);
    let reader = probe(&[ArrayUse::Read], &log, None);
    launch(&drv, &reader, &[array(a, 64)], StreamHandle::LEGACY);
    ctl.started();
    ctl.open();
    drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    assert_eq!(grants(&log, 1), [(true, false)]);
}

#[test]
fn writers_wait_for_a_frozen_lease_holder() {
    let (drv, a, _) = setup();
    let drv = Arc::new(drv);
    let log = Log::default();
    let (s1, s2) = (
        drv.stream_create(0, true).unwrap(),
        drv.stream_create(0, true).unwrap(),
    );
    let (ctl, g) = gate();
    let reader = probe(&[ArrayUse::Read], &log, Some(g));
    launch(&drv, &reader, &[array(a, 64)], s1);
    ctl.started();
    // An asynchronous writer on another stream, and a synchronous one on another thread.
    // SAFETY: `a` is a live 256-byte allocation.
    unsafe { drv.memset(On::stream(0, s2), a, 7, 256) }.unwrap();
    let (done_tx, done_rx) = channel();
    let d = Arc::clone(&drv);
    std::thread::spawn(move || {
        // SAFETY: `a` is a live 256-byte allocation.
        unsafe { d.memcpy_htod(On::blocking(0), a + 4, &[9u8; 4]) }.unwrap();
        done_tx.send(()).unwrap();
    });
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !drv.stream_query(0, s2).unwrap(),
        "the memset waits for the reader"
    );
    assert!(
        done_rx.try_recv().is_err(),
        "the synchronous copy waits for the reader"
    );
    ctl.open();
    drv.stream_synchronize(0, s1).unwrap();
    drv.stream_synchronize(0, s2).unwrap();
    done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    let l = log.lock().unwrap();
    assert_eq!(
        l[0][0],
        Seen {
            frozen: true,
            exclusive: false,
            first: 0,
            last: 0
        }
    );
    let mut back = [0u8; 8];
    // SAFETY: `a` is a live 256-byte allocation.
    unsafe { drv.memcpy_dtoh(On::blocking(0), &mut back, a) }.unwrap();
    assert_eq!(back[..4], [7; 4]);
}

#[test]
fn an_exclusive_output_needs_no_other_user_and_holds_later_readers_back() {
    let (drv, a, c) = setup();
    let log = Log::default();
    let (s1, s2) = (
        drv.stream_create(0, true).unwrap(),
        drv.stream_create(0, true).unwrap(),
    );
    // Another user of `c` held up on s1 (holding no lease, so nothing waits for it) denies
    // exclusivity to a kernel on s2.
    let (ctl, g) = gate();
    let user = probe(&[ArrayUse::ReadWrite], &log, Some(g));
    launch(&drv, &user, &[array(c, 64)], s1);
    ctl.started();
    let writer = probe(&[ArrayUse::OwnIndexStore], &log, None);
    launch(&drv, &writer, &[array(c, 64)], s2);
    drv.stream_synchronize(0, s2).unwrap();
    assert_eq!(grants(&log, 0), [(false, false)]);
    ctl.open();
    drv.stream_synchronize(0, s1).unwrap();

    // A writer waits for a frozen lease holder, so it is ordered after it: exclusive.
    let (ctl, g) = gate();
    let reader = probe(&[ArrayUse::Read], &log, Some(g));
    launch(&drv, &reader, &[array(c, 64)], s1);
    ctl.started();
    let writer2 = probe(&[ArrayUse::OwnIndexStore], &log, None);
    launch(&drv, &writer2, &[array(c, 64)], s2);
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !drv.stream_query(0, s2).unwrap(),
        "the writer waits for the frozen reader"
    );
    ctl.open();
    drv.stream_synchronize(0, s1).unwrap();
    drv.stream_synchronize(0, s2).unwrap();
    assert_eq!(grants(&log, 2), [(true, false)]);
    assert_eq!(grants(&log, 3), [(false, true)]);

    // An exclusive holder on s1 holds back a copy reading `c` on s2.
    let (ctl, g) = gate();
    let writer = probe(&[ArrayUse::OwnIndexStore], &log, Some(g));
    launch(&drv, &writer, &[array(c, 64)], s1);
    ctl.started();
    // SAFETY: both are live 256-byte allocations.
    unsafe {
        drv.memcpy_dtod(
            On::stream(0, s2),
            DeviceCopy {
                dst: a,
                src: c,
                bytes: 256,
            },
        )
    }
    .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !drv.stream_query(0, s2).unwrap(),
        "the copy waits for the exclusive holder"
    );
    ctl.open();
    drv.stream_synchronize(0, s1).unwrap();
    drv.stream_synchronize(0, s2).unwrap();
    assert_eq!(grants(&log, 4), [(false, true)]);
}

#[test]
fn memory_the_host_or_another_process_can_write_is_never_leased() {
    let (drv, a, _) = setup();
    let log = Log::default();
    let flags = HostAllocFlags {
        portable: false,
        mapped: true,
        write_combined: false,
    };
    let host = drv.host_alloc(0, 256, flags).unwrap();
    let mapped = drv.host_device_pointer(0, host).unwrap();
    let f = probe(&[ArrayUse::Read, ArrayUse::OwnIndexStore], &log, None);
    launch(
        &drv,
        &f,
        &[array(mapped, 64), array(mapped + 128, 32)],
        StreamHandle::LEGACY,
    );
    drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    assert_eq!(grants(&log, 0), [(false, false), (false, false)]);
    // SAFETY: nothing uses `host` any more.
    unsafe { drv.host_free(host) }.unwrap();

    // Exported for IPC: another process may write it from now on.
    if drv.ipc().is_ok_and(|ipc| ipc.get_mem_handle(0, a).is_ok()) {
        let f = probe(&[ArrayUse::Read], &log, None);
        launch(&drv, &f, &[array(a, 64)], StreamHandle::LEGACY);
        drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
        assert_eq!(grants(&log, 1), [(false, false)]);
    }
}

#[test]
fn a_read_only_argument_cannot_be_written_by_either_form() {
    let (drv, a, _) = setup();
    let f = KernelFunction::new("writes").with_form(
        HostKernel::per_thread(|launch| {
            let v = <rumba::kernel::Arr<u32> as rumba::kernel::Param>::view(&launch.args()[0], 0)?;
            rumba::kernel::run_grid(
                launch.name(),
                &rumba::kernel::LaunchConfig::new(1, 1),
                |_| v.set(0, 1),
            )
        })
        .with_array_uses([ArrayUse::Read]),
    );
    launch(&drv, &f, &[array(a, 64)], StreamHandle::LEGACY);
    let err = drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap_err();
    assert!(
        err.to_string()
            .contains("write to index (0,) of a read-only global array"),
        "{err}"
    );
    // The block-body accessors for outputs refuse it outright.
    let f = KernelFunction::new("writes").with_form(
        HostKernel::per_thread(|_| Ok(()))
            .with_work_item_loop(|launch| {
                let cfg = rumba::kernel::LaunchConfig::new(1, 1);
                rumba::kernel::wil::OwnOut::<u32, Atomic>::from_arg(&launch.args()[0], 0, &cfg)
                    .map(drop)
            })
            .with_array_uses([ArrayUse::Read]),
    );
    launch(&drv, &f, &[array(a, 64)], StreamHandle::LEGACY);
    let err = drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap_err();
    assert!(
        err.to_string()
            .contains("argument 0 is read-only but the kernel writes it"),
        "{err}"
    );
}

/// A `rows × cols` C-ordered u32 array at `ptr`.
fn array2(ptr: u64, rows: usize, cols: usize) -> KernelArg {
    KernelArg::Array(KernelArrayArg {
        ptr,
        itemsize: 4,
        shape: vec![rows, cols],
        strides: vec![4 * cols as isize, 4],
        writable: true,
    })
}

/// A kernel whose work-item-loop form asks for a plain 2-d own-index output at argument 1 and
/// returns the refusal, if any.
fn plain_2d_output() -> KernelFunction {
    KernelFunction::new("own2").with_form(
        HostKernel::per_thread(|_| Ok(()))
            .with_work_item_loop(|launch| {
                let cfg = rumba::kernel::LaunchConfig::new(launch.grid(), launch.block());
                rumba::kernel::wil::OwnOut::<u32, rumba::kernel::wil::Plain, 2>::from_arg(
                    &launch.args()[1],
                    1,
                    &cfg,
                )
                .map(drop)
            })
            .with_array_uses([ArrayUse::Read, ArrayUse::OwnIndexStore]),
    )
}

#[test]
fn a_2d_own_index_output_takes_plain_stores_only_alone_and_in_a_flat_launch() {
    use rumba::error::ArgumentError;
    let (drv, a, c) = setup();
    let f = plain_2d_output();
    let run = |args: &[KernelArg], grid: [u32; 3], block: [u32; 3]| {
        let l = KernelLaunch {
            function: &f,
            grid,
            block,
            dynamic_shared_bytes: 0,
            args,
        };
        // SAFETY: every array argument lies in a live 256-byte u32 device allocation of `drv`.
        unsafe { drv.launch_kernel(0, &l, StreamHandle::LEGACY) }.unwrap();
        drv.stream_synchronize(0, StreamHandle::LEGACY)
    };
    // Alone, with contiguous rows, in a launch without a z extent: granted.
    run(&[array2(a, 8, 8), array2(c, 8, 8)], [2, 2, 1], [4, 4, 1]).unwrap();
    // The same allocation passed twice: not this launch's alone.
    let err = run(&[array2(a, 8, 8), array2(a, 8, 8)], [2, 2, 1], [4, 4, 1]).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::KernelArgument {
                position: 1,
                problem: ArgumentError::NotExclusive,
                ..
            }
        ),
        "{err}"
    );
    // A launch with a z extent: two blocks would share a rectangle of rows and columns.
    for (grid, block) in [([2, 2, 2], [4, 4, 1]), ([2, 2, 1], [4, 4, 2])] {
        let err = run(&[array2(a, 8, 8), array2(c, 8, 8)], grid, block).unwrap_err();
        assert!(
            matches!(
                err,
                rumba::Error::KernelArgument {
                    position: 1,
                    problem: ArgumentError::OwnIndexLayout { ndim: 2 },
                    ..
                }
            ),
            "{err}"
        );
    }
    // Rows that overlap (a row stride shorter than a row): refused too.
    let overlapping = KernelArg::Array(KernelArrayArg {
        ptr: c,
        itemsize: 4,
        shape: vec![8, 8],
        strides: vec![16, 4],
        writable: true,
    });
    let err = run(&[array2(a, 8, 8), overlapping], [2, 2, 1], [4, 4, 1]).unwrap_err();
    assert!(
        err.to_string().contains(
            "argument 1 is a 2-d array whose layout or launch does not allow plain own-index stores"
        ),
        "{err}"
    );
}

/// Every thread adds one to its own `(y, x)`: race-free even in place.
#[rumba::kernel]
fn bump2(
    t: &rumba::kernel::prelude::Thread,
    u: &rumba::kernel::Arr<u32>,
    v: &mut rumba::kernel::Arr<u32>,
) {
    let (x, y) = t.grid2();
    if y < v.shape()[0] && x < v.shape()[1] {
        v[(y, x)] = u[(y, x)] + 1;
    }
}

#[test]
fn a_2d_own_index_kernel_given_one_array_twice_falls_back_to_atomic_stores() {
    let (drv, a, c) = setup();
    let start: Vec<u32> = (0..64).collect();
    // SAFETY: `a` and `c` are live 256-byte allocations of `drv`.
    unsafe {
        drv.memcpy_htod(On::blocking(0), a, bytemuck::cast_slice(&start))
            .unwrap();
        drv.memcpy_htod(On::blocking(0), c, &[0u8; 256]).unwrap();
    }
    let f = bump2().function().clone();
    assert_eq!(
        f.form::<HostKernel>().unwrap().array_use(1),
        ArrayUse::OwnIndexStore
    );
    let run = |args: &[KernelArg]| {
        let l = KernelLaunch {
            function: &f,
            grid: [2, 4, 1],
            block: [4, 2, 1],
            dynamic_shared_bytes: 0,
            args,
        };
        // SAFETY: every array argument is a live 8×8 u32 device allocation of `drv`.
        unsafe { drv.launch_kernel(0, &l, StreamHandle::LEGACY) }.unwrap();
        drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
    };
    // Apart (plain stores), then in place (the output is not the launch's alone: atomic).
    run(&[array2(a, 8, 8), array2(c, 8, 8)]);
    run(&[array2(c, 8, 8), array2(c, 8, 8)]);
    let mut back = [0u32; 64];
    // SAFETY: `c` is a live 256-byte allocation of `drv`.
    unsafe { drv.memcpy_dtoh(On::blocking(0), bytemuck::cast_slice_mut(&mut back), c) }.unwrap();
    let want: Vec<u32> = (2..66).collect();
    assert_eq!(back.to_vec(), want);
}
