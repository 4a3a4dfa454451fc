//! [`detect`]: what the running backend and every device (and, on every backend, the machine's
//! OpenCL platforms) look like, as a report a program can read or print.

use std::fmt;

use super::runtime;
use crate::config::human_bytes;
use crate::driver::{BackendKind, DeviceInfo, PageLocking};
use crate::error::Result;

/// A printable summary of the backend and its devices.
///
/// ```
/// let report = rumba::detect().unwrap();
/// assert!(report.to_string().contains(&report.backend.to_string()));
/// ```
#[derive(Debug, Clone)]
pub struct DetectReport {
    /// The backend in use.
    pub backend: BackendKind,
    /// Why CUDA was not chosen, when `auto` fell back to the sim.
    pub fallback_reason: Option<String>,
    /// Each device with its `(free, total)` memory.
    pub devices: Vec<(DeviceInfo, (usize, usize))>,
    /// Every OpenCL platform and device of the machine with its capabilities, or why there is
    /// none (listed whatever backend runs; `None` in a build without the `opencl` feature).
    pub opencl: Option<std::result::Result<Vec<OpenClPlatform>, String>>,
}

/// One OpenCL platform as `detect` lists it.
#[cfg(feature = "opencl")]
pub type OpenClPlatform = crate::driver::opencl::PlatformSurvey;
/// One OpenCL platform as `detect` lists it (a build without the `opencl` feature has none).
#[cfg(not(feature = "opencl"))]
pub type OpenClPlatform = String;

#[cfg(feature = "opencl")]
fn opencl_survey() -> Option<std::result::Result<Vec<OpenClPlatform>, String>> {
    Some(crate::driver::opencl::survey())
}

#[cfg(not(feature = "opencl"))]
fn opencl_survey() -> Option<std::result::Result<Vec<OpenClPlatform>, String>> {
    None
}

/// Describes the backend and every device.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors); [`Error::Driver`](crate::error::Error::Driver) when a
/// device cannot be queried.
///
/// ```
/// let r = rumba::detect().unwrap();
/// assert!(!r.devices.is_empty());
/// ```
pub fn detect() -> Result<DetectReport> {
    let rt = runtime()?;
    let devices = (0..rt.driver.device_count())
        .map(|d| Ok((rt.driver.device_info(d)?, rt.driver.mem_info(d)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(DetectReport {
        backend: rt.driver.backend(),
        fallback_reason: rt.fallback.clone(),
        devices,
        opencl: opencl_survey(),
    })
}

impl fmt::Display for DetectReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Found {} device(s) on backend {}",
            self.devices.len(),
            self.backend
        )?;
        if let Some(why) = &self.fallback_reason {
            writeln!(f, "CUDA not used: {why}")?;
        }
        for (info, (free, total)) in &self.devices {
            writeln!(f, "id {}  {}", info.ordinal, info.name)?;
            writeln!(
                f,
                "      memory: {} total, {} free",
                human_bytes(*total),
                human_bytes(*free)
            )?;
            match (info.compute_capability, self.backend) {
                (Some((a, b)), _) => writeln!(f, "      compute capability: {a}.{b}")?,
                (None, BackendKind::OpenCl) => {
                    writeln!(f, "      compute capability: none (OpenCL)")?
                }
                (None, _) => writeln!(f, "      compute capability: sim")?,
            }
            writeln!(
                f,
                "      multiprocessors: {}, warp size: {}, max threads per block: {}, shared memory per block: {}",
                info.multiprocessors,
                info.warp_size,
                info.max_threads_per_block,
                human_bytes(info.max_shared_memory_per_block)
            )?;
            match &info.page_locking {
                PageLocking::Available => writeln!(f, "      pinned host memory: page-locked")?,
                PageLocking::Refused(why) => writeln!(
                    f,
                    "      pinned host memory: NOT page-locked ({why}); pinned copies stay asynchronous"
                )?,
            }
        }
        match &self.opencl {
            None => writeln!(f, "OpenCL: not built in (cargo feature `opencl`)")?,
            Some(Err(why)) => writeln!(f, "OpenCL: unavailable: {why}")?,
            Some(Ok(platforms)) => {
                writeln!(
                    f,
                    "OpenCL: {} platform(s) (RUMBA_BACKEND=opencl uses them)",
                    platforms.len()
                )?;
                for p in platforms {
                    write!(f, "{p}")?;
                }
            }
        }
        write!(
            f,
            "Summary: {}/{} devices usable",
            self.devices.len(),
            self.devices.len()
        )
    }
}
