//! Shared set-up for the behaviour tests: each test binary is its own process, so each starts
//! the runtime once with the configuration it needs.
//!
//! The backend is the sim unless `RUMBA_TEST_BACKEND=cuda` or `=opencl`: then the same tests run
//! on that backend, and where it cannot be used (no driver, no device, or a build without its
//! cargo feature) the test binary says `SKIPPED` with the reason on stderr and exits successfully
//! without running its tests — it neither fails nor pretends to have passed them. With
//! `RUMBA_REQUIRE_OPENCL=1` (CI, which installs PoCL) an unusable OpenCL fails the binary instead.
//!
//! A test (or a whole binary) that cannot apply to a backend says so by name with
//! [`not_on`] / [`binary_not_on`], which print `SKIPPED <name> on <backend>: <reason>`; a test
//! whose kernels exist only as Rust closures uses [`sim_only`] (it says so on cuda and opencl).
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard, Once};

use rumba::config::{BackendChoice, Config};

static START: Once = Once::new();
static SERIAL: Mutex<()> = Mutex::new(());

/// Starts the runtime on the test backend with `adjust` applied to the environment's
/// configuration. Only the first call in a process has an effect.
pub fn start(adjust: impl FnOnce(&mut Config)) {
    one_test_at_a_time_on_cuda();
    START.call_once(|| {
        let mut cfg = Config::from_env().expect("valid RUMBA_* environment");
        cfg.backend = test_backend();
        let sim_memory = cfg.sim_memory;
        adjust(&mut cfg);
        // A test that sizes the device sizes it on OpenCL too (a cap on what rumba hands out).
        if cfg.sim_memory != sim_memory {
            cfg.opencl_memory = cfg.sim_memory;
        }
        if cfg.backend == BackendChoice::Cuda {
            if let Err(e) = rumba::driver::open(&cfg) {
                skip_binary(&format!("RUMBA_TEST_BACKEND=cuda, but {e}"));
            }
        }
        if cfg.backend == BackendChoice::OpenCl {
            if let Err(e) = rumba::driver::open(&cfg) {
                if std::env::var("RUMBA_REQUIRE_OPENCL").as_deref() == Ok("1") {
                    panic!("RUMBA_TEST_BACKEND=opencl with RUMBA_REQUIRE_OPENCL=1, but {e}");
                }
                skip_binary(&format!("RUMBA_TEST_BACKEND=opencl, but {e}"));
            }
        }
        rumba::configure(cfg).expect("configure before first use");
    });
}

/// For a test whose kernels are Rust closures only (no CUDA C or OpenCL C form yet, so only the
/// simulator can run them): on the sim, starts the runtime and returns false; with
/// `RUMBA_TEST_BACKEND=cuda` or `=opencl`, prints `SKIPPED <test> on <backend>: <why>` and returns
/// true, and the calling test returns without asserting anything.
///
/// `<test>` is the name of the calling thread, which the test harness names after the test.
///
/// ```ignore
/// if common::sim_only("closure kernels have no CUDA C or OpenCL C form yet") { return; }
/// ```
pub fn sim_only(why: &str) -> bool {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("<unnamed test>");
    if not_on(&[BackendChoice::Cuda, BackendChoice::OpenCl], test, why) {
        return true;
    }
    start(|_| {});
    false
}

/// The backend the behaviour tests run on: `RUMBA_TEST_BACKEND` = `sim` (default), `cuda` or
/// `opencl`.
pub fn test_backend() -> BackendChoice {
    match std::env::var("RUMBA_TEST_BACKEND").as_deref() {
        Ok("cuda") => BackendChoice::Cuda,
        Ok("opencl") => BackendChoice::OpenCl,
        Ok("sim") | Err(_) => BackendChoice::Sim,
        Ok(other) => panic!("RUMBA_TEST_BACKEND={other:?}: expected sim, cuda or opencl"),
    }
}

fn backend_name(b: BackendChoice) -> &'static str {
    match b {
        BackendChoice::Sim => "sim",
        BackendChoice::Cuda => "cuda",
        BackendChoice::OpenCl => "opencl",
        BackendChoice::Auto => "auto",
    }
}

/// True (after printing `SKIPPED <test> on <backend>: <why>`) when the test backend is one of
/// `backends`: the calling test then returns without asserting anything, having said why.
///
/// ```ignore
/// if common::not_on(&[BackendChoice::OpenCl], "host_ipc", "OpenCL has no IPC") { return; }
/// ```
pub fn not_on(backends: &[BackendChoice], test: &str, why: &str) -> bool {
    use std::io::Write;
    let b = test_backend();
    if backends.contains(&b) {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test} on {}: {why}",
            backend_name(b)
        );
        true
    } else {
        false
    }
}

/// True (after printing `SKIPPED <test> on <backend>: …`) when the backend has fewer than
/// `count` devices: the calling test then returns. The simulator has as many as the test asks
/// for; an OpenCL platform has what it has (PoCL: one).
pub fn needs_devices(count: usize, test: &str) -> bool {
    use std::io::Write;
    let have = rumba::gpus().map(|g| g.len()).unwrap_or(0);
    if have < count {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test} on {}: it needs {count} devices and the backend has {have}",
            backend_name(test_backend())
        );
        true
    } else {
        false
    }
}

/// Ends the whole test binary (successfully, before any test runs) when the test backend is one
/// of `backends`, printing `SKIPPED <binary> on <backend>: <why>` and the tests it leaves out.
pub fn binary_not_on(backends: &[BackendChoice], tests: &[&str], why: &str) {
    let b = test_backend();
    if backends.contains(&b) {
        skip_binary(&format!(
            "on {}: {why} (tests not run: {})",
            backend_name(b),
            tests.join(", ")
        ));
    }
}

/// Ends this test binary successfully after saying why its tests cannot run here.
fn skip_binary(why: &str) -> ! {
    use std::io::Write;
    // Test threads may get here together: one prints and exits, the others wait for the exit.
    static ONE: Mutex<()> = Mutex::new(());
    let _one = ONE.lock();
    let name = std::env::args().next().unwrap_or_default();
    // Written to the process's stderr directly: the test harness captures `eprintln!`.
    let _ = writeln!(std::io::stderr(), "SKIPPED {name}: {why}");
    std::process::exit(0)
}

/// Serialises tests that observe process-wide state (queue lengths, free memory).
pub fn serial() -> MutexGuard<'static, ()> {
    // The whole-test lock first, always: the two are then taken in one order.
    one_test_at_a_time_on_cuda();
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// On CUDA, the tests of one binary run one at a time, whatever `--test-threads` says: the first
/// call on a test's thread takes a process-wide lock that the thread keeps until it ends.
///
/// Why: tests that hold a blocking stream back with a callback ([`gated_stream`]) hold back the
/// legacy default stream of every other test too, and CUDA may wait for the whole context where
/// a test cannot see it (loading a kernel on first use, unregistering host memory). Two such
/// tests in parallel can wait for each other forever: the fourth and fifth H100 runs hung in
/// four executables whose tests all pass one at a time. The simulator and OpenCL keep running
/// tests in parallel, which is coverage worth having there.
///
/// Only threads the test harness made (named after their test) take the lock: an unnamed thread
/// a test starts runs under its test's lock (a *named* one calling `start` would wait for its own
/// test's lock forever: name no such thread). `RUMBA_TEST_SERIAL=1` does the same on every backend.
fn one_test_at_a_time_on_cuda() {
    static WHOLE_TEST: Mutex<()> = Mutex::new(());
    thread_local! {
        static HELD: std::cell::RefCell<Option<MutexGuard<'static, ()>>> =
            const { std::cell::RefCell::new(None) };
    }
    let forced = std::env::var("RUMBA_TEST_SERIAL").as_deref() == Ok("1");
    if test_backend() != BackendChoice::Cuda && !forced {
        return;
    }
    let thread = std::thread::current();
    if thread.name().is_none_or(|n| n == "main") {
        return;
    }
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        if held.is_none() {
            *held = Some(WHOLE_TEST.lock().unwrap_or_else(|e| e.into_inner()));
        }
    });
}

/// Runs `f` on a thread and fails (instead of hanging) if it does not finish within `secs`.
pub fn within<T: Send + 'static>(
    secs: u64,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what} did not finish within {secs} s"))
}

/// A minimal executor (park/unpark): rumba's futures need no async runtime.
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark()
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

/// Issue 14 item 6, for whichever memory manager the binary runs: `size` bytes fit once but not
/// twice. Memory that only queued work still holds (its array dropped) is waited for by an
/// allocation that needs it; where waiting is not allowed (a stream callback) the out-of-memory
/// error counts it as pending.
pub fn memory_held_by_queued_work_is_waited_for(size: usize) {
    use std::sync::mpsc;
    use std::time::Duration;
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    // A stream held by a callback until a gate opens: memory it holds is not back before then.
    let (s, open) = gated_stream();
    let a = ctx.memalloc(size).unwrap();
    s.memset(&a, 1).unwrap();
    drop(a); // only the queued memset holds it now
    let opener = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        open.send(()).unwrap();
    });
    let b = ctx
        .memalloc(size)
        .expect("the allocation waits for the work holding the released memory");
    opener.join().unwrap();
    s.synchronize().unwrap();
    drop(b);
    ctx.flush_deallocations().unwrap();

    // From a callback, which must not wait: the error names the held bytes as pending.
    if test_backend() == BackendChoice::Cuda {
        // CUDA runs the callbacks of all streams on one thread: a callback on another stream
        // cannot run while the gate's callback holds that thread.
        eprintln!(
            "SKIPPED memory_held_by_queued_work_is_waited_for (from a callback) on cuda: CUDA runs the callbacks of all streams on one thread, which the gate holds"
        );
        return;
    }
    let (s, open) = gated_stream();
    let a = ctx.memalloc(size).unwrap();
    s.memset(&a, 1).unwrap();
    drop(a);
    let (tx, result) = mpsc::channel();
    let other = rumba::stream().unwrap();
    let c = ctx.clone();
    other
        .add_callback(move |_, _| tx.send(c.memalloc(size).map(drop)).unwrap())
        .unwrap();
    let err = result
        .recv_timeout(Duration::from_secs(30))
        .unwrap()
        .unwrap_err();
    open.send(()).unwrap();
    s.synchronize().unwrap();
    other.synchronize().unwrap();
    let pending = match &err {
        rumba::Error::OutOfMemory { pending, .. } => *pending,
        rumba::Error::PoolOutOfMemory(r) => r.pending,
        other => panic!("expected out of memory, got {other}"),
    };
    assert!(pending >= size, "{err}");
    ctx.flush_deallocations().unwrap();
}

/// A new stream held by a callback until the returned sender sends (or is dropped, or 30 s
/// pass): work queued on it after this runs only then.
pub fn gated_stream() -> (rumba::Stream, std::sync::mpsc::Sender<()>) {
    one_test_at_a_time_on_cuda();
    let s = rumba::stream().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = rx.recv_timeout(std::time::Duration::from_secs(30));
    })
    .unwrap();
    (s, tx)
}

/// The (block, thread, message) of a kernel fault; panics naming what came instead.
pub fn fault(r: rumba::Result<()>) -> ([u32; 3], [u32; 3], String) {
    match r {
        Err(rumba::Error::KernelFault {
            block,
            thread,
            message,
            ..
        }) => (block, thread, message),
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}
