//! The OpenCL backend (cargo feature `opencl`, on by default).
//!
//! [`OpenClDriver`] implements [`Driver`] on OpenCL 2.0+ through cl3's thin calls
//! (as re-exported by opencl3), with the OpenCL library loaded at run time: the crate builds where
//! no OpenCL is installed, and [`open`] turns a missing library (no ICD loader), a loader without
//! platforms (no driver), or a platform without a usable device into a typed
//! [`Error::BackendUnavailable`] that says what was looked for. `RUMBA_BACKEND=opencl` selects
//! it; `auto` never does (it prefers CUDA, then the simulator). `RUMBA_OPENCL_PLATFORM` and
//! `RUMBA_OPENCL_DEVICE` pick the platform and device; [`survey`] lists them for `rumba detect`.
//!
//! Memory model: device memory is **coarse-grained shared virtual memory**, and a device pointer
//! is the SVM address. The alternative — `cl_mem` buffers addressed as (buffer, offset) handles —
//! would give every device pointer a second meaning that only this backend understands, and views
//! that cross allocation boundaries or arithmetic on pointers (which rumba's layers do freely)
//! would need a lookup on every use; SVM keeps the pointer an integer with the same arithmetic as
//! on CUDA and the simulator. A device without coarse-grained SVM (OpenCL 1.2, some 3.0 drivers)
//! is reported as unusable, with the reason. Host memory uses fine-grained SVM where the device
//! has it ([`host`](self) module table).
//!
//! | file | what |
//! |---|---|
//! | `platform.rs` | discovery, capabilities, choice of platform and devices (choice unit-tested) |
//! | `driver.rs` | [`OpenClDriver`]: one thin OpenCL call per [`Driver`] operation |
//! | `error.rs` | OpenCL status codes → [`Error::Driver`] (pure, unit-tested) |
//! | `raw.rs` | owned contexts, queues, events, programs, kernels (released without panicking) |
//! | `memory.rs` | the table of allocations: accounting and bounds checks (unit-tested) |
//! | `alloc.rs` | device memory (coarse-grained SVM within the cap) |
//! | `host.rs` | pinned, mapped, managed and registered host memory |
//! | `stream.rs` | in-order queues with CUDA's legacy-default-stream ordering |
//! | `stream_callback.rs` | host callbacks on a stream: an event's callback and the gate after it |
//! | `stream_status.rs` | a stream's pending error and checks, in a lock of their own |
//! | `batch.rs` | several commands queued on a stream at once (a graph's replay), events only where needed |
//! | `event.rs` | events as markers; timing from profiling |
//! | `callback.rs` | the threads that run host callbacks |
//! | `exit.rs` | waiting (bounded) for queued work at process exit, which PoCL needs |
//! | `inject.rs` | failures made on purpose, in the unit tests only |
//! | `failures.rs` | unit tests: what a failure partway leaves (a replay's, a capture's end) |
//! | `launch.rs` | user kernels: OpenCL C built per device, ABI argument packing, fault records (unit-tested) |
//! | `copy.rs` | copies and memsets blocking or on a stream; the SVM copy; copies between devices |
//! | `graph.rs` | stream graphs: rumba's capture of checked, prepared commands |
//! | `graph_node.rs` | a graph's nodes: kernels with objects of their own, arguments set; one fault record array per graph |
//! | `replay.rs` | a graph's replay: one batch, one check of the fault records, one end event |
//! | `grid_widths.rs` | launch ordering that keeps PoCL's cache of work-group functions consistent |
//! | `strided.rs` | `copy_strided_async` with the built-in kernel (range checks unit-tested) |
//! | [`builtin`] | built-in OpenCL C kernels: sources, compilation, cache |
//!
//! This module touches the OpenCL library (through its submodules).
//!
//! ```
//! // Without OpenCL (or without a usable device) the error is typed, never a panic.
//! match rumba::driver::opencl::open(&rumba::Config::default()) {
//!     Ok(drv) => assert_eq!(drv.backend(), rumba::driver::BackendKind::OpenCl),
//!     Err(e) => assert!(matches!(e, rumba::Error::BackendUnavailable { .. })),
//! }
//! ```

use std::sync::Arc;

use cl3::context::create_context;
use cl3::platform::get_platform_ids;

mod alloc;
mod batch;
pub mod builtin;
mod callback;
mod copy;
mod driver;
mod error;
mod event;
mod exit;
#[cfg(test)]
mod failures;
mod graph;
mod graph_node;
mod grid_widths;
mod host;
mod inject;
mod launch;
pub(crate) mod memory;
mod platform;
mod raw;
mod replay;
mod stream;
mod stream_callback;
mod stream_status;
mod strided;

pub use driver::OpenClDriver;
pub use platform::{DeviceSurvey, NOTABLE_EXTENSIONS, PlatformSurvey, SvmCaps, select, survey};

use super::Driver;
use crate::config::Config;
use crate::error::{Error, Result};

fn unavailable(reason: String) -> Error {
    Error::BackendUnavailable {
        backend: "opencl".into(),
        reason,
    }
}

/// Opens the OpenCL backend on the platform and devices `config` selects, or explains why it
/// cannot be used.
///
/// # Errors
/// [`Error::BackendUnavailable`] naming the reason: no OpenCL library, no platform, a selector
/// that matches nothing, no device with coarse-grained SVM, or a context or queue that could not
/// be created.
pub fn open(config: &Config) -> Result<Arc<dyn Driver>> {
    Ok(open_driver(config)?)
}

/// [`open`], as the backend's own driver type.
fn open_driver(config: &Config) -> Result<Arc<OpenClDriver>> {
    let platforms = survey().map_err(unavailable)?;
    let (p_index, chosen) = select(&platforms, config).map_err(unavailable)?;
    let ids = get_platform_ids()
        .map_err(|c| unavailable(error::map("clGetPlatformIDs", c).to_string()))?;
    let raw_platform = *ids
        .get(p_index)
        .ok_or_else(|| unavailable("the platform list changed while rumba opened it".into()))?;
    let (survey, raw_devices) = platform::survey_platform(p_index, raw_platform);
    let mut picked = Vec::new();
    for &i in &chosen {
        let (Some(d), Some(&id)) = (survey.devices.get(i), raw_devices.get(i)) else {
            return Err(unavailable(
                "the device list changed while rumba opened it".into(),
            ));
        };
        picked.push((id, d.clone()));
    }
    let device_ids: Vec<_> = picked.iter().map(|(id, _)| *id).collect();
    let ctx =
        create_context(&device_ids, std::ptr::null(), None, std::ptr::null_mut()).map_err(|c| {
            unavailable(format!(
                "platform {} has usable devices but no context could be created: {}",
                survey.name,
                error::map("clCreateContext", c)
            ))
        })?;
    // SAFETY: a fresh context whose one reference we own.
    let context = unsafe { raw::ClContext::from_raw(ctx) };
    let mut devices = Vec::new();
    for (id, s) in picked {
        let queues = stream::DeviceQueues::new(
            context.raw(),
            id,
            s.profiling,
            config.per_thread_default_stream,
        )
        .map_err(|e| {
            unavailable(format!(
                "device {} cannot create a command queue: {e}",
                s.name
            ))
        })?;
        devices.push(driver::OclDevice {
            id,
            survey: s,
            queues,
        });
    }
    let count = devices.len();
    Ok(Arc::new(OpenClDriver {
        platform: survey.name.clone(),
        devices,
        table: memory::Table::new(count),
        events: event::Events::new(),
        builtins: builtin::Builtins::default(),
        kernels: launch::UserKernels::default(),
        page_locking: crate::driver::sim::host::probe_page_locking(),
        memory_cap: config.opencl_memory,
        graphs: Default::default(),
        context,
    }))
}
