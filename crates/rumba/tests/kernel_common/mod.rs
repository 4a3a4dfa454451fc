//! Helpers shared by the kernel executor tests.
#![allow(dead_code)]

pub mod dynshared;

use rumba::Error;
use rumba::kernel::{ExecOptions, LaunchConfig, ThreadCtx, run_grid, run_grid_with};

pub const COROUTINES_ONLY: ExecOptions = ExecOptions {
    fast_path: false,
    parallel: true,
};

/// The (block, thread, message) of a kernel fault.
pub fn fault(r: rumba::Result<()>) -> ([u32; 3], [u32; 3], String) {
    match r {
        Err(Error::KernelFault {
            block,
            thread,
            message,
            ..
        }) => (block, thread, message),
        other => panic!("expected a kernel fault, got {other:?}"),
    }
}

/// Runs `body` on both paths, asserts they agree, and returns the result.
pub fn both_paths<F>(cfg: &LaunchConfig, body: F) -> rumba::Result<()>
where
    F: Fn(&ThreadCtx<'_>) + Sync,
{
    let fast = run_grid("k", cfg, &body);
    let slow = run_grid_with("k", cfg, &COROUTINES_ONLY, &body);
    assert_eq!(fast, slow, "fast path and coroutine path disagree");
    fast
}
