//! The CUDA libraries of the machine: finding the NVIDIA driver library before anything touches
//! cudarc (which panics when it is missing), checking that it has every entry point the backend
//! calls (cudarc panics on a missing one, at the first call), and the survey `rumba detect`
//! prints — driver version and file, NVRTC version and file.
//!
//! Why one binary works with CUDA 12 and 13 drivers: cudarc's bindings are those of CUDA 12.8,
//! and rumba calls only entry points that every driver since CUDA 12.2 exports (a driver keeps
//! the entry points of older CUDA versions for the programs built with them), listed in
//! [`ENTRY_POINTS`] and checked when the backend opens. NVRTC is loaded by [`super::nvrtc`].
//!
//! This module touches the dynamic loader and `cuDriverGetVersion`.

use std::ffi::{CStr, c_void};

use cudarc::driver::sys;

use super::error::check;
use super::nvrtc;

/// Names under which the dynamic loader may find the NVIDIA driver library.
pub const DRIVER_LIBRARIES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// Every driver entry point the CUDA backend calls (through cudarc's `sys` layer, or its
/// `result` layer for `cuModuleLoadData` / `cuModuleGetFunction`), stream graphs apart
/// ([`GRAPH_ENTRY_POINTS`]). All exist in every driver since CUDA 12.2 (the `_v2` managed-memory
/// placement calls are the newest); the backend checks them when it opens. A unit test keeps the
/// two lists complete.
pub const ENTRY_POINTS: &[&str] = &[
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuCtxSynchronize",
    "cuDeviceCanAccessPeer",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDeviceGetDefaultMemPool",
    "cuDeviceGetName",
    "cuDevicePrimaryCtxRelease_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDeviceTotalMem_v2",
    "cuDriverGetVersion",
    "cuEventCreate",
    "cuEventDestroy_v2",
    "cuEventElapsedTime",
    "cuEventQuery",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuFuncGetAttribute",
    "cuInit",
    "cuIpcCloseMemHandle",
    "cuIpcGetMemHandle",
    "cuIpcOpenMemHandle_v2",
    "cuLaunchKernel",
    "cuMemAdvise_v2",
    "cuMemAllocFromPoolAsync",
    "cuMemAllocManaged",
    "cuMemAlloc_v2",
    "cuMemFreeAsync",
    "cuMemFreeHost",
    "cuMemFree_v2",
    "cuMemGetAddressRange_v2",
    "cuMemGetInfo_v2",
    "cuMemHostAlloc",
    "cuMemHostGetDevicePointer_v2",
    "cuMemHostRegister_v2",
    "cuMemHostUnregister",
    "cuMemPoolSetAccess",
    "cuMemPoolSetAttribute",
    "cuMemPoolTrimTo",
    "cuMemPrefetchAsync_v2",
    "cuMemcpyDtoDAsync_v2",
    "cuMemcpyDtoD_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoH_v2",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyHtoD_v2",
    "cuMemcpyPeer",
    "cuMemcpyPeerAsync",
    "cuMemsetD8Async",
    "cuMemsetD8_v2",
    "cuModuleGetFunction",
    "cuModuleGetGlobal_v2",
    "cuModuleLoadData",
    "cuPointerGetAttribute",
    "cuStreamAddCallback",
    "cuStreamCreate",
    "cuStreamDestroy_v2",
    "cuStreamQuery",
    "cuStreamSynchronize",
    "cuStreamWaitEvent",
];

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

/// The dynamic loader's last error message (empty if none).
pub(super) fn loader_error() -> String {
    // SAFETY: dlerror returns a thread-local C string or null.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        String::new()
    } else {
        // SAFETY: non-null C string from dlerror.
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

/// The entry points stream graphs call (capture, instantiation, launch, kernel-node updates,
/// host nodes). `cuStreamGetCaptureInfo_v3`, which finds a captured launch's node, needs a CUDA
/// 12.3 driver: an older one opens the backend without graphs ([`Driver::graphs`] is `None`, and
/// a capture is [`Error::Unsupported`](crate::error::Error::Unsupported)).
///
/// [`Driver::graphs`]: crate::driver::Driver::graphs
pub const GRAPH_ENTRY_POINTS: &[&str] = &[
    "cuGraphDestroy",
    "cuGraphExecDestroy",
    "cuGraphExecKernelNodeSetParams_v2",
    "cuGraphInstantiateWithFlags",
    "cuGraphLaunch",
    "cuLaunchHostFunc",
    "cuStreamBeginCapture_v2",
    "cuStreamEndCapture",
    "cuStreamGetCaptureInfo_v3",
];

/// The entry points of [`ENTRY_POINTS`] that the driver library lacks.
///
/// # Safety
/// The driver library must be present ([`driver_library_present`]); cudarc panics otherwise.
pub(super) unsafe fn missing_entry_points() -> Vec<&'static str> {
    // SAFETY: forwarded from the caller's contract.
    unsafe { missing_of(ENTRY_POINTS) }
}

/// Whether the driver library has every entry point of [`GRAPH_ENTRY_POINTS`].
///
/// # Safety
/// As [`missing_entry_points`].
pub(super) unsafe fn has_graphs() -> bool {
    // SAFETY: forwarded from the caller's contract.
    unsafe { missing_of(GRAPH_ENTRY_POINTS) }.is_empty()
}

/// The entry points of `names` that the driver library lacks.
///
/// # Safety
/// As [`missing_entry_points`].
unsafe fn missing_of(names: &[&'static str]) -> Vec<&'static str> {
    // SAFETY: the library is present (the caller's contract), so cudarc's loader finds it.
    let lib = unsafe { sys::culib() };
    names
        .iter()
        .copied()
        .filter(|name| {
            // SAFETY: only looks the symbol up; it is never called through this pointer.
            unsafe { lib.get::<*const c_void>(name.as_bytes()) }.is_err()
        })
        .collect()
}

/// Where the loader found the code at `addr` (`dladdr`).
pub(super) fn file_of(addr: *const c_void) -> Option<String> {
    // SAFETY: a zeroed `Dl_info` is a valid out-parameter.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only writes `info`; any address is accepted.
    if unsafe { libc::dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr set a NUL-terminated file name owned by the loader.
    Some(
        unsafe { CStr::from_ptr(info.dli_fname) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// `cuDriverGetVersion` (e.g. 13000 for CUDA 13.0). Needs no `cuInit`.
///
/// # Errors
/// Why it cannot be had: no driver library, or the call failed.
pub fn driver_version() -> std::result::Result<i32, String> {
    if !driver_library_present() {
        return Err(format!(
            "no NVIDIA driver library ({})",
            DRIVER_LIBRARIES.join(", ")
        ));
    }
    let mut v = 0;
    // SAFETY: the library is present (checked above); writes one int.
    check("cuDriverGetVersion", unsafe {
        sys::cuDriverGetVersion(&mut v)
    })
    .map_err(|e| e.to_string())?;
    Ok(v)
}

/// `13000` → `"13.0"`.
///
/// ```
/// assert_eq!(rumba::driver::cuda::version_text(12080), "12.8");
/// ```
pub fn version_text(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// The CUDA libraries of this machine, as `rumba detect` prints them.
///
/// ```
/// let libs = rumba::driver::cuda::Libraries::survey();
/// let text = libs.to_string();
/// assert!(text.contains("CUDA driver") && text.contains("NVRTC"));
/// ```
#[derive(Debug)]
pub struct Libraries {
    /// The driver's CUDA version (`cuDriverGetVersion`) and the library file, or why not.
    pub driver: std::result::Result<(i32, String), String>,
    /// The NVRTC library rumba uses, or the libraries tried and why each was not used.
    pub nvrtc: std::result::Result<&'static nvrtc::Nvrtc, &'static str>,
}

impl Libraries {
    /// Looks for both libraries (loading NVRTC if it is not loaded yet).
    pub fn survey() -> Libraries {
        let driver = driver_version().map(|v| {
            // SAFETY: `driver_version` succeeded, so the library is present.
            let lib = unsafe { sys::culib() };
            // SAFETY: only looks the symbol up.
            let addr = unsafe { lib.get::<*const c_void>(b"cuDriverGetVersion") }
                .map(|s| *s)
                .unwrap_or(std::ptr::null());
            let file = file_of(addr).unwrap_or_else(|| DRIVER_LIBRARIES[0].to_string());
            (v, file)
        });
        if let Ok((v, _)) = &driver {
            nvrtc::note_driver_version(*v);
        }
        Libraries {
            driver,
            nvrtc: nvrtc::find(),
        }
    }
}

impl std::fmt::Display for Libraries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.driver {
            Ok((v, file)) => writeln!(f, "CUDA driver: CUDA {} ({file})", version_text(*v))?,
            Err(why) => writeln!(f, "CUDA driver: none ({why})")?,
        }
        match &self.nvrtc {
            Ok(n) => {
                write!(f, "{n}")?;
                if let Ok((v, _)) = &self.driver {
                    if n.version.0 as i32 * 1000 + n.version.1 as i32 * 10 > *v {
                        write!(
                            f,
                            " — newer than the driver: kernels are compiled to machine code for each device, which the driver loads (PTX of a newer version it would refuse)"
                        )?;
                    }
                }
                Ok(())
            }
            Err(why) => write!(f, "NVRTC: none, so no kernel can be compiled (tried {why})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `sys::cu…` call of the backend's source (and the two module calls of cudarc's
    /// `result` layer) is in [`ENTRY_POINTS`], so opening the backend checks it.
    #[test]
    fn every_called_entry_point_is_checked_when_the_backend_opens() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/driver/cuda");
        let mut called = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            for (i, _) in text.match_indices("sys::cu") {
                let name: String = text[i + 5..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // Types and constants (`CUresult`, `CU_…`) are not entry points.
                if name.len() > 3
                    && name.starts_with("cu")
                    && name.as_bytes()[2].is_ascii_uppercase()
                {
                    called.insert(name);
                }
            }
        }
        assert!(called.len() > 40, "the scan found the calls: {called:?}");
        let missing: Vec<_> = called
            .iter()
            .filter(|n| {
                !ENTRY_POINTS.contains(&n.as_str()) && !GRAPH_ENTRY_POINTS.contains(&n.as_str())
            })
            .collect();
        assert!(
            missing.is_empty(),
            "not in ENTRY_POINTS or GRAPH_ENTRY_POINTS: {missing:?}"
        );
        for name in ["cuModuleLoadData", "cuModuleGetFunction"] {
            assert!(ENTRY_POINTS.contains(&name));
        }
    }

    #[test]
    fn versions_print_as_major_dot_minor() {
        assert_eq!(version_text(13000), "13.0");
        assert_eq!(version_text(12090), "12.9");
    }
}
