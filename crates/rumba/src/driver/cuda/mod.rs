//! The CUDA backend (cargo feature `cuda`).
//!
//! [`CudaDriver`] implements [`Driver`] on the CUDA driver API through cudarc's
//! `sys` layer, loaded at run time (`dynamic-loading`), so the crate builds and runs where no CUDA
//! is installed. [`open`] probes for the NVIDIA driver library with the dynamic loader *before*
//! anything touches cudarc (which panics when the library is missing, or at the first call of an
//! entry point it lacks): a machine without a driver, or with one older than CUDA 12, gets a
//! typed [`Error::BackendUnavailable`] saying what was looked for, and `RUMBA_BACKEND=auto` falls
//! back to the sim. The same binary works with CUDA 12 and CUDA 13 drivers, and with NVRTC 12 or
//! 13, whichever is found ([`nvrtc`]); [`Libraries::survey`] says which (`rumba detect` prints it).
//!
//! | file | what |
//! |---|---|
//! | `driver.rs` | [`CudaDriver`]: devices and contexts, streams, and the [`Driver`] operations, each one thin call or a forward to the file that owns it |
//! | `copy.rs` | copies and memsets, blocking or on a stream; staged uploads; the strided-copy kernel |
//! | `events.rs` | events: the table of those created here, records, waits, elapsed time |
//! | `error.rs` | `CUresult` → [`Error::Driver`] (pure, unit-tested) |
//! | `flags.rs` | host-memory / event flags and stream handles (pure, unit-tested) |
//! | `../strided_pack.rs` | the parameter block of the built-in strided-copy kernel (pure, unit-tested; shared with OpenCL) |
//! | `launch.rs` | user kernels: compilation and loading, constants, argument packing (unit-tested), launch |
//! | `loaded.rs` | the per-kernel load cache: loading one kernel never holds up another's launch (why) |
//! | `keepalive.rs` | values queued work needs, dropped once an event behind the work completed (why not host callbacks) |
//! | `staging.rs` | page-locked blocks that uploads from pageable memory on a stream go through (why) |
//! | `faults.rs` | kernel fault records: one per launch, read back at synchronization (bookkeeping unit-tested) |
//! | `host.rs` | page-locked host memory: allocation, registration, mapped addresses, the pinned table |
//! | `managed.rs` | managed memory (global or host-attached) |
//! | `peer.rs` | copies between devices and peer-access queries |
//! | `graph.rs` | stream graphs: `cuStreamBeginCapture` … `cuGraphLaunch`, kernel-node updates |
//! | `pool.rs` | device memory: the stream-ordered pool for memory of a stream, `cuMemAlloc` otherwise (why it is sound) |
//! | `ipc.rs` | inter-process handles, and finding the allocation that contains an address |
//! | `libraries.rs` | the driver library: presence, entry points, versions ([`Libraries`]) |
//! | [`nvrtc`] | NVRTC 12 or 13, loaded by rumba: which library, compiling to PTX or machine code |
//! | [`builtin`] | built-in CUDA C kernels: sources, NVRTC compilation, module cache |
//!
//! This module touches the dynamic loader and, once a driver is found, CUDA.
//!
//! ```
//! use rumba::driver::cuda;
//! match cuda::open(&rumba::Config::default()) {
//!     // A driver and at least one device: CUDA is usable here.
//!     Ok(drv) => assert!(drv.device_count() >= 1),
//!     // Anything else is a typed refusal saying what was missing, never a panic.
//!     Err(e) => assert!(matches!(e, rumba::Error::BackendUnavailable { .. }), "{e}"),
//! }
//! ```

use std::sync::Arc;

pub mod builtin;
mod callback;
mod copy;
mod driver;
mod error;
mod events;
mod faults;
mod flags;
mod graph;
mod host;
mod ipc;
mod keepalive;
mod launch;
mod libraries;
mod loaded;
mod managed;
pub mod nvrtc;
mod peer;
mod placement;
mod pool;
mod staging;
use super::strided_pack as strided;

pub use driver::CudaDriver;
pub use libraries::{
    DRIVER_LIBRARIES, ENTRY_POINTS, GRAPH_ENTRY_POINTS, Libraries, driver_library_present,
    driver_version, version_text,
};

use super::Driver;
use crate::config::Config;
use crate::error::{Error, Result};

/// Opens the CUDA backend, or explains why it cannot be used.
///
/// # Errors
/// [`Error::BackendUnavailable`] with the reason: no NVIDIA driver library found by the dynamic
/// loader (naming the libraries looked for), one without an entry point rumba calls (naming
/// them), or a library that cannot be initialized or reports no device.
pub fn open(config: &Config) -> Result<Arc<dyn Driver>> {
    if !driver_library_present() {
        let detail = libraries::loader_error();
        return Err(Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!(
                "no NVIDIA driver library found (looked for {} with the dynamic loader{})",
                DRIVER_LIBRARIES.join(", "),
                if detail.is_empty() {
                    String::new()
                } else {
                    format!(": {detail}")
                }
            ),
        });
    }
    // SAFETY: the driver library is present (checked above).
    let missing = unsafe { libraries::missing_entry_points() };
    if !missing.is_empty() {
        return Err(Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!(
                "the NVIDIA driver library lacks entry points rumba calls ({}); it is older than CUDA 12.0",
                missing.join(", ")
            ),
        });
    }
    // NVRTC newer than the driver's CUDA major version would make code the driver refuses.
    if let Ok(v) = driver_version() {
        nvrtc::note_driver_version(v);
    }
    // SAFETY: the driver library is present with every entry point rumba calls (checked above),
    // which is cudarc's precondition.
    match unsafe { CudaDriver::new(config.per_thread_default_stream) } {
        Ok(d) => Ok(Arc::new(d)),
        Err(e) => Err(Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!("the NVIDIA driver library was found but CUDA cannot be used: {e}"),
        }),
    }
}
