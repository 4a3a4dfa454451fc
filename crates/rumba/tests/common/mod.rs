//! Shared set-up for the behaviour tests: each test binary is its own process, so each starts
//! the runtime once with the configuration it needs, on the sim.
#![allow(dead_code)]

use std::sync::{Mutex, MutexGuard, Once};

use rumba::config::{BackendChoice, Config};

static START: Once = Once::new();
static SERIAL: Mutex<()> = Mutex::new(());

/// Starts the runtime on the sim with `adjust` applied to the environment's configuration.
/// Only the first call in a process has an effect.
pub fn start(adjust: impl FnOnce(&mut Config)) {
    START.call_once(|| {
        let mut cfg = Config::from_env().expect("valid RUMBA_* environment");
        cfg.backend = BackendChoice::Sim;
        adjust(&mut cfg);
        rumba::configure(cfg).expect("configure before first use");
    });
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
