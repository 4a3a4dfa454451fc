//! One object-safe trait over a device API, in raw terms.
//!
//! [`Driver`] speaks in device pointers (integers), stream and event handles, byte counts and raw
//! host pointers — the vocabulary of CUDA's driver API. Three implementations exist: [`sim`] (a
//! simulated GPU in pure Rust, always available), `cuda` (behind the `cuda` cargo feature) and
//! `opencl` (behind the `opencl` cargo feature, on by default).
//! Nothing above this layer knows which one it talks to; the safe, reference-counted types
//! ([`DeviceBuffer`](crate::memory::DeviceBuffer), [`Stream`](crate::Stream), …) are built on top.
//! A kernel reaches the driver as one backend-neutral [`KernelFunction`] from which each backend
//! takes the form it runs (a Rust body, CUDA C, OpenCL C; see [`KernelForm`]). The Rust form is
//! run by the kernel [`engine`], which lives with the simulator.
//!
//! Most programs never call the driver directly. It is public for the same reason cudarc's
//! `result` layer is: a reader who wants to know "what device call does this make" finds it here,
//! and a program that shares streams or memory with other libraries can reach the raw handles.
//!
//! Where it sits among the floors of the library: the layer map in the crate docs.
//!
//! # Copies and memsets: one method per operation
//! CUDA spells each copy twice, `cuMemcpyHtoD` and `cuMemcpyHtoDAsync`, and the two differ only
//! in how the work is ordered and when the call returns. The [`Driver`] takes that difference as
//! an argument instead: every copy or memset names where it runs with an [`On`] — the issuing
//! device and its [`Order`], [`Blocking`](Order::Blocking) (after the default stream, complete
//! when the call returns) or [`Stream`](Order::Stream) (queued on that stream). A backend then
//! writes each operation once, with what is the same for both orders (the range checks, the copy
//! itself) shared and only what differs in a branch, instead of two methods with the same long
//! parameter list forwarding to helpers with that list again; each backend also writes "blocking"
//! once (the sim waits for the default stream's point and runs the work on the calling thread,
//! OpenCL queues on the default stream and waits, CUDA calls the synchronous entry point). Host
//! ranges are raw slice pointers (`*const [u8]`, `*mut [u8]`), which a borrowed slice coerces
//! to, so a blocking call from safe code passes its slice as before; a contiguous device copy
//! is one [`DeviceCopy`], shared by [`memcpy_dtod`](Driver::memcpy_dtod) and
//! [`memcpy_peer`](Driver::memcpy_peer).
//!
//! # Errors
//! Each [`Driver`] method's `# Errors` names its own failures; the variants mean the same for
//! every method and backend: [`Error::InvalidDevice`] for a `device` ordinal at or past
//! [`device_count`](Driver::device_count), [`Error::InvalidAddress`] for a device range outside a
//! live allocation (checked by the sim and OpenCL before anything is queued; CUDA reports its own
//! [`Error::Driver`]), [`Error::InvalidHandle`] for an unknown stream or event handle and
//! [`Error::NotReady`] for work not yet complete (the same on every backend), [`Error::Driver`] for
//! another failed backend call (CUDA and OpenCL name their own codes; the sim reports
//! [`Error::Simulator`] for its own failures), and [`Error::Unsupported`] for what a backend lacks.
//!
//! ```
//! use rumba::driver::{self, Driver, On};
//! let drv = driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
//! let ptr = drv.mem_alloc(0, 16).unwrap();
//! // SAFETY: `ptr` is a 16-byte device allocation that nothing else uses.
//! unsafe { drv.memcpy_htod(On::blocking(0), ptr, &[7u8; 16]) }.unwrap();
//! let mut back = [0u8; 16];
//! unsafe { drv.memcpy_dtoh(On::blocking(0), &mut back, ptr) }.unwrap();
//! assert_eq!(back, [7u8; 16]);
//! drv.mem_free(0, ptr).unwrap();
//! ```

pub(crate) mod callback;
pub mod sim;
/// The host kernel engine: the runtime of a kernel's Rust form (see [`sim::engine`]). It lives
/// with the simulator, the backend that runs kernels on the host; the kernel layer reaches it
/// here, by what it is rather than by the backend that hosts it.
pub use sim::engine;

mod kernel;
pub use kernel::{
    ArrayUse, CudaKernelSource, HostArg, HostArrayArg, HostEngine, HostKernel, HostKernelFn,
    HostLaunch, KernelArg, KernelArrayArg, KernelForm, KernelFunction, KernelLaunch,
    OpenClKernelSource,
};

#[cfg(feature = "cuda")]
pub mod cuda;

mod api;
pub use api::Driver;

mod ipc;
pub use ipc::Ipc;

pub mod graph;
pub use graph::{GraphCallback, GraphHandle, Graphs, KernelNode, check_update};

pub(crate) mod capture;
pub(crate) mod graph_table;
pub(crate) mod replay_chain;

pub mod placement;
pub use placement::{Advice, Location, Migrations, Placement, Residency};

mod types;
pub use types::{
    DeviceCopy, DeviceInfo, DevicePtr, EventHandle, GrainKind, HostAllocFlags, HostCallback,
    ManagedAttach, On, Order, PageLocking, StreamHandle, StridedCopy, StridedSource, WARP_SIZE,
};

#[cfg(feature = "opencl")]
pub mod opencl;

#[cfg(any(feature = "cuda", feature = "opencl"))]
mod strided_pack;

use std::fmt;

use crate::config::{BackendChoice, Config};
use crate::error::{Error, Result};

/// Which backend a driver implements.
///
/// ```
/// assert_eq!(rumba::driver::BackendKind::Sim.to_string(), "sim");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// The simulated GPU.
    Sim,
    /// NVIDIA GPUs through the CUDA driver API.
    Cuda,
    /// Any OpenCL device with shared virtual memory (AMD and Intel GPUs, CPUs through PoCL).
    OpenCl,
}

impl BackendKind {
    /// The refusal of a capability this backend's driver lacks, as the [`Driver`]'s default
    /// implementations give it: [`Error::Unsupported`] naming the backend and `feature`, e.g.
    /// "the opencl backend does not support exporting IPC handles: its driver does not implement it".
    pub(crate) fn unsupported(self, feature: &str) -> Error {
        Error::Unsupported {
            backend: self.to_string(),
            feature: feature.to_owned(),
            reason: "its driver does not implement it".to_owned(),
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackendKind::Sim => "sim",
            BackendKind::Cuda => "cuda",
            BackendKind::OpenCl => "opencl",
        })
    }
}

/// Builds the driver that `config` selects: `sim`, `cuda`, `opencl`, or `auto` (CUDA when a
/// driver and a device are present, else sim; OpenCL is only ever chosen explicitly). Returns the
/// driver and, for `auto`, why CUDA was not chosen.
///
/// # Errors
/// [`Error::BackendUnavailable`] when the chosen backend (`cuda` or `opencl`) cannot be used,
/// with the reason; errors of the simulator's set-up.
///
/// ```
/// let cfg = rumba::Config { backend: rumba::config::BackendChoice::Sim, ..Default::default() };
/// let (drv, why_not_cuda) = rumba::driver::open(&cfg).unwrap();
/// assert_eq!(drv.backend(), rumba::driver::BackendKind::Sim);
/// assert!(why_not_cuda.is_none());
/// ```
pub fn open(config: &Config) -> Result<(std::sync::Arc<dyn Driver>, Option<String>)> {
    match config.backend {
        BackendChoice::Sim => Ok((std::sync::Arc::new(sim::SimDriver::new(config)?), None)),
        BackendChoice::Cuda => open_cuda(config).map(|d| (d, None)),
        BackendChoice::OpenCl => open_opencl(config).map(|d| (d, None)),
        BackendChoice::Auto => match open_cuda(config) {
            Ok(d) => Ok((d, None)),
            Err(e) => {
                let why = match e {
                    Error::BackendUnavailable { reason, .. } => reason,
                    other => other.to_string(),
                };
                Ok((std::sync::Arc::new(sim::SimDriver::new(config)?), Some(why)))
            }
        },
    }
}

#[cfg(feature = "cuda")]
fn open_cuda(config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    cuda::open(config)
}

#[cfg(not(feature = "cuda"))]
fn open_cuda(_config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    Err(Error::BackendUnavailable {
        backend: "cuda".into(),
        reason: "this rumba was built without the `cuda` cargo feature".into(),
    })
}

#[cfg(feature = "opencl")]
fn open_opencl(config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    opencl::open(config)
}

#[cfg(not(feature = "opencl"))]
fn open_opencl(_config: &Config) -> Result<std::sync::Arc<dyn Driver>> {
    Err(Error::BackendUnavailable {
        backend: "opencl".into(),
        reason: "this rumba was built without the `opencl` cargo feature".into(),
    })
}
