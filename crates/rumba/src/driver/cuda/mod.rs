//! The CUDA backend (cargo feature `cuda`).
//!
//! [`CudaDriver`] implements [`Driver`] on the CUDA driver API through cudarc's
//! `sys` layer, loaded at run time (`dynamic-loading`), so the crate builds and runs where no CUDA
//! is installed. [`open`] probes for the NVIDIA driver library with the dynamic loader *before*
//! anything touches cudarc (which panics when the library is missing): a machine without a driver
//! gets a typed [`Error::BackendUnavailable`] saying what was looked for, and
//! `RUMBA_BACKEND=auto` falls back to the sim.
//!
//! | file | what |
//! |---|---|
//! | `driver.rs` | [`CudaDriver`]: one thin driver call per [`Driver`] operation |
//! | `error.rs` | `CUresult` → [`Error::Driver`] (pure, unit-tested) |
//! | `flags.rs` | host-memory / event flags and stream handles (pure, unit-tested) |
//! | `../strided_pack.rs` | the parameter block of the built-in strided-copy kernel (pure, unit-tested; shared with OpenCL) |
//! | `launch.rs` | user kernels: NVRTC compilation, constants, argument packing (unit-tested), launch |
//! | `managed.rs` | managed memory (global or host-attached) |
//! | `peer.rs` | copies between devices and peer-access queries |
//! | `ipc.rs` | inter-process handles, and finding the allocation that contains an address |
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

use std::ffi::CStr;
use std::sync::Arc;

pub mod builtin;
mod driver;
mod error;
mod flags;
mod ipc;
mod launch;
mod managed;
mod peer;
use super::strided_pack as strided;

pub use driver::CudaDriver;

use super::Driver;
use crate::config::Config;
use crate::error::{Error, Result};

/// Names under which the dynamic loader may find the NVIDIA driver library.
pub const DRIVER_LIBRARIES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// True if the dynamic loader can find the NVIDIA driver library.
///
/// ```
/// use rumba::driver::cuda;
/// // Without the library, opening the backend is refused before cudarc is touched.
/// if !cuda::driver_library_present() {
///     assert!(cuda::open(&rumba::Config::default()).is_err());
/// }
/// ```
pub fn driver_library_present() -> bool {
    DRIVER_LIBRARIES.iter().any(|name| {
        let cname = std::ffi::CString::new(*name).unwrap_or_default();
        // SAFETY: dlopen with a valid C string; RTLD_LAZY | RTLD_NOLOAD would miss unloaded
        // libraries, so load it and close the handle again at once.
        let h = unsafe { libc::dlopen(cname.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL) };
        if h.is_null() {
            false
        } else {
            // SAFETY: `h` came from dlopen above.
            unsafe { libc::dlclose(h) };
            true
        }
    })
}

fn loader_error() -> String {
    // SAFETY: dlerror returns a thread-local C string or null.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        String::new()
    } else {
        // SAFETY: non-null C string from dlerror.
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

/// Opens the CUDA backend, or explains why it cannot be used.
///
/// # Errors
/// [`Error::BackendUnavailable`] with the reason: no NVIDIA driver library found by the dynamic
/// loader (naming the libraries looked for), or a library that cannot be initialized or reports no
/// device.
pub fn open(config: &Config) -> Result<Arc<dyn Driver>> {
    if !driver_library_present() {
        let detail = loader_error();
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
    // SAFETY: the driver library is present (checked above), which is cudarc's precondition.
    match unsafe { CudaDriver::new(config.per_thread_default_stream) } {
        Ok(d) => Ok(Arc::new(d)),
        Err(e) => Err(Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!("the NVIDIA driver library was found but CUDA cannot be used: {e}"),
        }),
    }
}
