//! Running a macro kernel on every engine a backend has: the simulator's two (the loop form and
//! coroutines), or the one run of another backend (`RUMBA_TEST_BACKEND`), checking which engine
//! ran and that faults agree between engines.
#![allow(dead_code)]

use rumba::config::BackendChoice;
use rumba::driver::HostEngine;
use rumba::kernel::{Kernel, Params};

use crate::common;

/// The engines each test runs on: the simulator's two, or the one run of another backend.
pub fn engines() -> Vec<Option<HostEngine>> {
    if common::test_backend() == BackendChoice::Sim {
        vec![
            Some(HostEngine::WorkItemLoops),
            Some(HostEngine::Coroutines),
        ]
    } else {
        vec![None]
    }
}

/// Runs `run` with `kernel` set to each engine of [`engines`], and checks the engine that ran.
pub fn each_engine<P: Params>(kernel: Kernel<P>, mut run: impl FnMut(&Kernel<P>)) {
    for engine in engines() {
        let k = match engine {
            Some(e) => kernel.clone().with_engine(e),
            None => kernel.clone(),
        };
        run(&k);
        if engine.is_some() {
            assert_eq!(k.last_engine(), engine, "{}", k.name());
        }
    }
}

/// A fault message with its addresses blanked (each engine allocates its own block memory).
pub fn without_addresses(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(k) = rest.find("0x") {
        out.push_str(&rest[..k]);
        out.push_str("ADDR");
        rest = rest[k + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// The fault of `run` on each engine, checked equal across them: `(block, thread, message)`.
pub fn same_fault<P: Params>(
    kernel: Kernel<P>,
    mut run: impl FnMut(&Kernel<P>) -> rumba::Result<()>,
) -> ([u32; 3], [u32; 3], String) {
    let mut seen: Option<([u32; 3], [u32; 3], String)> = None;
    each_engine(kernel, |k| {
        let (block, thread, msg) = common::fault(run(k));
        let now = (block, thread, without_addresses(&msg));
        if let Some(first) = &seen {
            assert_eq!(first, &now, "the engines fault differently");
        }
        seen = Some(now);
    });
    seen.expect("at least one engine")
}

/// Whether the backend reports kernel faults (the CUDA backend passes a NULL fault record for
/// now: fault tests skip there, saying so).
pub fn faults_reported(test: &str) -> bool {
    !common::not_on(
        &[BackendChoice::Cuda],
        test,
        "the CUDA backend does not record kernel faults yet",
    )
}
