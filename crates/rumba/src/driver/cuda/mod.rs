//! The CUDA backend (cargo feature `cuda`).
//!
//! This build carries the backend's entry point and its driver probe only: the probe looks for the
//! NVIDIA driver library with the dynamic loader *before* anything touches CUDA, so a machine
//! without a driver gets a typed [`Error::BackendUnavailable`] that says what was looked for, and
//! `RUMBA_BACKEND=auto` falls back to the sim. The cudarc-based implementation of
//! [`Driver`](super::Driver) lands with the CUDA backend issue; until then even a machine with a
//! driver is told so in the same typed error.
//!
//! This module touches only the dynamic loader.
//!
//! ```
//! let err = rumba::driver::cuda::open(&rumba::Config::default()).err().unwrap();
//! assert!(matches!(err, rumba::Error::BackendUnavailable { .. }));
//! ```

use std::ffi::CStr;
use std::sync::Arc;

use super::Driver;
use crate::config::Config;
use crate::error::{Error, Result};

/// Names under which the dynamic loader may find the NVIDIA driver library.
pub const DRIVER_LIBRARIES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// True if the dynamic loader can find the NVIDIA driver library.
///
/// ```
/// let _maybe = rumba::driver::cuda::driver_library_present();
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
pub fn open(_config: &Config) -> Result<Arc<dyn Driver>> {
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
    Err(Error::BackendUnavailable {
        backend: "cuda".into(),
        reason: "an NVIDIA driver is present, but this rumba build has no CUDA driver implementation yet".into(),
    })
}
