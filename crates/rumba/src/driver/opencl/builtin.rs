//! rumba's built-in OpenCL C kernels: their sources (compiled into the library with
//! `include_str!`), run-time compilation with the device's OpenCL compiler, and a per-device cache
//! of built programs and kernel objects.
//!
//! Programs are built once per device (PoCL also caches the binary on disk, so a second process
//! pays ~20 ms instead of ~0.8 s). A kernel object's arguments are not thread-safe, so each cached
//! kernel sits behind a mutex that the launcher holds from setting arguments to queuing the launch
//! (OpenCL captures the arguments when the launch is queued).
//!
//! This module touches OpenCL's program and kernel calls, and registers the exit wait after
//! each build (`exit.rs`).

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::{Arc, Mutex};

use opencl3::program::{
    CL_PROGRAM_BUILD_LOG, build_program, create_program_with_source, get_program_build_info,
};
use opencl3::types::{cl_context, cl_device_id};

use super::error::{check, map};
use super::raw::{ClKernel, ClProgram};
use crate::error::{Error, Result};
use crate::sync::lock;

/// `(file name, source)` of every built-in kernel.
pub const SOURCES: [(&str, &str); 1] = [(
    "strided_copy.cl",
    include_str!("../../../kernels/strided_copy.cl"),
)];

/// Options for every build: OpenCL C 1.2, the version every OpenCL 2.x/3.0 device accepts.
pub(crate) const BUILD_OPTIONS: &str = "-cl-std=CL1.2";

/// What a `#[rumba::kernel(fastmath)]` kernel adds to [`BUILD_OPTIONS`]: OpenCL's own fast-math
/// switch (`-cl-mad-enable`, `-cl-no-signed-zeros`, `-cl-unsafe-math-optimizations`,
/// `-cl-finite-math-only`). The generated source keeps `FP_CONTRACT OFF`.
pub(crate) const FAST_MATH_OPTIONS: &str = "-cl-fast-relaxed-math";

/// Builds `source` for `device`; a compile error carries the build log.
pub(crate) fn build(
    context: cl_context,
    device: cl_device_id,
    name: &str,
    source: &str,
    options: &str,
) -> Result<ClProgram> {
    let raw = check(
        "clCreateProgramWithSource",
        create_program_with_source(context, &[source]),
    )?;
    // SAFETY: a fresh program whose one reference we own.
    let program = unsafe { ClProgram::from_raw(raw) };
    let options =
        CString::new(options).map_err(|_| Error::interior_nul("build options", options))?;
    if let Err(code) = build_program(
        program.raw(),
        &[device],
        &options,
        None,
        std::ptr::null_mut(),
    ) {
        let log = get_program_build_info(program.raw(), device, CL_PROGRAM_BUILD_LOG)
            .map(String::from)
            .unwrap_or_default();
        let mut e = map(&format!("clBuildProgram({name})"), code);
        if let Error::Driver { message, .. } = &mut e {
            message.push_str(":\n");
            message.push_str(log.trim());
        }
        return Err(e);
    }
    super::exit::after_build();
    Ok(program)
}

/// A kernel object of a cached program.
pub(crate) fn kernel(program: &ClProgram, entry: &str) -> Result<ClKernel> {
    let name = CString::new(entry).map_err(|_| Error::interior_nul("kernel name", entry))?;
    let k = check(
        &format!("clCreateKernel({entry})"),
        opencl3::kernel::create_kernel(program.raw(), &name),
    )?;
    // SAFETY: a fresh kernel whose one reference we own.
    Ok(unsafe { ClKernel::from_raw(k) })
}

/// A built program and one kernel object of it.
pub(crate) struct Built {
    /// The program: kept alive for the kernel's sake, and the source of more kernel objects.
    program: ClProgram,
    /// The kernel; lock it from setting arguments to queuing the launch.
    pub(crate) kernel: Mutex<ClKernel>,
}

impl Built {
    pub(crate) fn new(program: ClProgram, kernel: ClKernel) -> Built {
        Built {
            program,
            kernel: Mutex::new(kernel),
        }
    }

    /// A new kernel object for `entry` of the program, owned by the caller alone (a graph's node
    /// sets its arguments once and queues it on every replay).
    pub(crate) fn new_kernel(&self, entry: &str) -> Result<ClKernel> {
        kernel(&self.program, entry)
    }
}

/// Built-in kernels per (device, kernel name).
#[derive(Default)]
pub(crate) struct Builtins {
    built: Mutex<HashMap<(usize, &'static str), Arc<Built>>>,
}

impl Builtins {
    /// The kernel `entry` from built-in source `file` for `device`, built on first use.
    pub(crate) fn get(
        &self,
        context: cl_context,
        device: usize,
        device_id: cl_device_id,
        file: &'static str,
        entry: &'static str,
    ) -> Result<Arc<Built>> {
        let mut built = lock(&self.built);
        if let Some(b) = built.get(&(device, entry)) {
            return Ok(Arc::clone(b));
        }
        let source = SOURCES
            .iter()
            .find(|(n, _)| *n == file)
            .map(|(_, s)| *s)
            .ok_or_else(|| Error::InvalidArgument(format!("no built-in kernel source {file}")))?;
        let program = build(context, device_id, file, source, BUILD_OPTIONS)?;
        let k = kernel(&program, entry)?;
        let b = Arc::new(Built::new(program, k));
        built.insert((device, entry), Arc::clone(&b));
        Ok(b)
    }
}
