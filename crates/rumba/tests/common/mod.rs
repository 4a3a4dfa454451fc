//! Shared set-up for the behaviour tests: each test binary is its own process, so each starts
//! the runtime once with the configuration it needs.
//!
//! The backend is the sim unless `RUMBA_TEST_BACKEND=cuda`: then the same tests run on CUDA, and
//! where CUDA cannot be used (no driver, no device, or a build without the `cuda` feature) the
//! test binary says `SKIPPED` with the reason on stderr and exits successfully without running its
//! tests — it neither fails nor pretends to have passed them.
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard, Once};

use rumba::config::{BackendChoice, Config};

static START: Once = Once::new();
static SERIAL: Mutex<()> = Mutex::new(());

/// Starts the runtime on the test backend with `adjust` applied to the environment's
/// configuration. Only the first call in a process has an effect.
pub fn start(adjust: impl FnOnce(&mut Config)) {
    START.call_once(|| {
        let mut cfg = Config::from_env().expect("valid RUMBA_* environment");
        cfg.backend = test_backend();
        adjust(&mut cfg);
        if cfg.backend == BackendChoice::Cuda {
            if let Err(e) = rumba::driver::open(&cfg) {
                skip_binary(&format!("RUMBA_TEST_BACKEND=cuda, but {e}"));
            }
        }
        rumba::configure(cfg).expect("configure before first use");
    });
}

/// Starts the runtime on the sim for tests that only the simulator can run; with
/// `RUMBA_TEST_BACKEND=cuda` the test binary says `SKIPPED` and `why`, and ends successfully.
pub fn start_sim_only(why: &str) {
    if test_backend() == BackendChoice::Cuda {
        skip_binary(&format!("RUMBA_TEST_BACKEND=cuda, but {why}"));
    }
    start(|_| {});
}

/// The backend the behaviour tests run on: `RUMBA_TEST_BACKEND` = `sim` (default) or `cuda`.
pub fn test_backend() -> BackendChoice {
    match std::env::var("RUMBA_TEST_BACKEND").as_deref() {
        Ok("cuda") => BackendChoice::Cuda,
        Ok("sim") | Err(_) => BackendChoice::Sim,
        Ok(other) => panic!("RUMBA_TEST_BACKEND={other:?}: expected sim or cuda"),
    }
}

/// Ends this test binary successfully after saying why its tests cannot run here.
fn skip_binary(why: &str) -> ! {
    use std::io::Write;
    let name = std::env::args().next().unwrap_or_default();
    // Written to the process's stderr directly: the test harness captures `eprintln!`.
    let _ = writeln!(std::io::stderr(), "SKIPPED {name}: {why}");
    std::process::exit(0)
}

/// Serialises tests that observe process-wide state (queue lengths, free memory).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
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
