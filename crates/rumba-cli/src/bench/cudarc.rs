//! The launch-latency baseline on CUDA: the same empty kernel as rumba's `launch` workload,
//! compiled with NVRTC and launched through cudarc's own API (`CudaStream::launch_builder`) on
//! the legacy default stream, timed the same way — so `rumba bench` can state rumba's launch
//! overhead as a difference to cudarc's, measured in one run.
//!
//! Only built with the `cuda` feature and only run when the backend in use is CUDA.
//!
//! This module touches CUDA through cudarc (its own handle on the primary context of device 0).

use std::time::Instant;

use cudarc::driver::{CudaContext, LaunchConfig};

use super::Run;
use super::workloads::LAUNCHES;

/// Seconds per launch of an empty kernel through cudarc: the median over `repeat` runs of 1,000
/// launches followed by one synchronize, after one warm-up run.
pub fn launch(repeat: usize) -> Result<Run, String> {
    let err = |what: &str, e: &dyn std::fmt::Debug| format!("cudarc baseline: {what}: {e:?}");
    let ctx = CudaContext::new(0).map_err(|e| err("CudaContext::new(0)", &e))?;
    // Compiled by rumba's NVRTC loader (NVRTC 12 or 13, whichever rumba uses), loaded by cudarc.
    let ptx =
        rumba::driver::cuda::builtin::compile("empty", r#"extern "C" __global__ void empty() {}"#)
            .map_err(|e| err("NVRTC", &e))?;
    let module = ctx
        .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
        .map_err(|e| err("load_module", &e))?;
    let f = module
        .load_function("empty")
        .map_err(|e| err("load_function", &e))?;
    let stream = ctx.default_stream();
    let cfg = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (1, 1, 1),
        shared_mem_bytes: 0,
    };
    let once = || -> Result<f64, String> {
        let t = Instant::now();
        for _ in 0..LAUNCHES {
            let mut b = stream.launch_builder(&f);
            // SAFETY: the kernel takes no parameters and touches no memory.
            unsafe { b.launch(cfg) }.map_err(|e| err("launch", &e))?;
        }
        stream.synchronize().map_err(|e| err("synchronize", &e))?;
        Ok(t.elapsed().as_secs_f64())
    };
    once()?;
    let mut times = (0..repeat.max(1))
        .map(|_| once())
        .collect::<Result<Vec<_>, _>>()?;
    times.sort_by(f64::total_cmp);
    Ok(Run {
        peer: "cudarc".into(),
        workload: "launch".into(),
        n: LAUNCHES,
        seconds: times[times.len() / 2] / LAUNCHES as f64,
        check: true,
    })
}
