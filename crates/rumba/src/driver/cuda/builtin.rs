//! rumba's built-in CUDA C kernels: their sources (compiled into the library with `include_str!`),
//! run-time compilation with NVRTC, and a per-device cache of loaded modules.
//!
//! The sources live in `crates/rumba/kernels/` next to `rumba_device.h`, the header that gives
//! array arguments their shape and byte strides. CI compiles every `.cu` file of the repository
//! to PTX with NVRTC (see `tests/nvrtc.rs`), so a syntax error never waits for a GPU to show up.
//!
//! This module touches NVRTC and the driver's module-loading calls.

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::Mutex;

use cudarc::driver::{result, sys};

use super::error::map;
use crate::error::{Error, Result};

/// The device header, included by every built-in kernel.
pub const DEVICE_HEADER: &str = include_str!("../../../kernels/rumba_device.h");

/// `(file name, source)` of every built-in kernel.
pub const SOURCES: [(&str, &str); 1] = [(
    "strided_copy.cu",
    include_str!("../../../kernels/strided_copy.cu"),
)];

/// A built-in kernel source with its `#include "rumba_device.h"` replaced by the header itself, so
/// NVRTC needs no include path.
pub fn self_contained(source: &str) -> String {
    source.replace("#include \"rumba_device.h\"", DEVICE_HEADER)
}

/// True if the NVRTC library can be loaded (it is needed to compile the built-in kernels).
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to open the library; nothing is called through it.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Compiles a built-in source to PTX text.
pub fn compile(name: &str, source: &str) -> Result<String> {
    if !nvrtc_present() {
        return Err(Error::BackendUnavailable {
            backend: "cuda".into(),
            reason: format!(
                "the NVRTC library (libnvrtc) is needed to compile rumba's built-in kernel {name} and was not found; install the CUDA toolkit or the pip package nvidia-cuda-nvrtc-cu12 and put its lib folder on LD_LIBRARY_PATH"
            ),
        });
    }
    cudarc::nvrtc::compile_ptx(self_contained(source))
        .map(|ptx| ptx.to_src())
        .map_err(|e| Error::Driver {
            code: -1,
            name: "NVRTC_ERROR_COMPILATION".into(),
            call: format!("nvrtcCompileProgram({name})"),
            message: format!("{e:?}"),
        })
}

/// Loaded built-in functions per (device, kernel name).
#[derive(Default)]
pub(crate) struct Modules {
    functions: Mutex<HashMap<(usize, &'static str), usize>>,
}

impl Modules {
    /// The function `kernel` from built-in source `file`, compiled and loaded on first use in the
    /// current context (the caller has made `device`'s context current).
    pub(crate) fn function(
        &self,
        device: usize,
        file: &'static str,
        kernel: &'static str,
    ) -> Result<sys::CUfunction> {
        let mut map_ = self.functions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = map_.get(&(device, kernel)) {
            return Ok(*f as sys::CUfunction);
        }
        let source = SOURCES
            .iter()
            .find(|(n, _)| *n == file)
            .map(|(_, s)| *s)
            .ok_or_else(|| Error::InvalidArgument(format!("no built-in kernel source {file}")))?;
        let ptx = CString::new(compile(file, source)?)
            .map_err(|_| Error::InvalidArgument("PTX with an interior NUL".into()))?;
        // SAFETY: `ptx` is NUL-terminated PTX text produced by NVRTC; a context is current.
        let module = unsafe { result::module::load_data(ptx.as_ptr().cast()) }
            .map_err(|e| map("cuModuleLoadData", e.0))?;
        let name = CString::new(kernel)
            .map_err(|_| Error::InvalidArgument("kernel name with an interior NUL".into()))?;
        // SAFETY: `module` was just loaded and is never unloaded while the driver lives.
        let f = unsafe { result::module::get_function(module, name) }
            .map_err(|e| map("cuModuleGetFunction", e.0))?;
        map_.insert((device, kernel), f as usize);
        Ok(f)
    }
}
