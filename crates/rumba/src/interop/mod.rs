//! Interchange with other libraries and processes.
//!
//! | file | concept |
//! | --- | --- |
//! | [`cai`] | the CUDA Array Interface v3: [`CudaArrayInterface`], [`CudaArray`], [`as_cuda_array`] |
//! | `cai_map` | the interface's string-keyed map form ([`CaiValue`]) for Python bridges |
//! | `cai_host` | the interface of mapped, managed and ROC host arrays and their device views |
//! | [`ipc`] | sharing device memory with another process: [`IpcArrayHandle`] |
//! | [`dlpack`] | DLPack export and import: the `#[repr(C)]` ABI and [`DlpackTensor`] |
//! | [`smart`] | [`SmartArray`]: host and device copies that move lazily |
//!
//! Imports of foreign memory are where safety is decided; [`cai`] explains the rule (a raw
//! description is `unsafe` to import; an object that vouches through the `unsafe` trait
//! [`DeviceMemoryOwner`] is not). [`dlpack`] and [`ipc`] follow it: DLPack imports of a raw
//! tensor are `unsafe`; IPC imports are memory the driver itself mapped, so they are safe.
//!
//! This module may touch every layer below it, and nothing touches it.
//!
//! ```
//! use rumba::interop::{as_cuda_array, CudaArray};
//! let d = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
//! if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
//!     // IPC and the CUDA Array Interface are CUDA's (and the sim's): OpenCL refuses them.
//!     assert!(matches!(d.describe(), Err(rumba::Error::Unsupported { .. })));
//!     assert!(matches!(d.get_ipc_handle(), Err(rumba::Error::Unsupported { .. })));
//! } else {
//!     println!("{}", d.describe().unwrap()); // {'data': (…, False), 'descr': …, 'shape': (3,), …}
//!     let same = as_cuda_array::<f32, ndarray::Ix1, _>(d.clone()).unwrap();
//!     assert!(same.copy_to_host().unwrap().iter().eq([1.0, 2.0, 3.0].iter()));
//! }
//! ```

pub mod cai;
mod cai_host;
mod cai_map;
pub mod dlpack;
pub mod ipc;
pub mod smart;

pub use cai::{
    CAI_VERSION, CudaArray, CudaArrayInterface, DeviceMemoryOwner, ImportOptions, as_cuda_array,
    as_cuda_array_with, from_cuda_array_interface, is_cuda_array,
};
pub use cai_map::CaiValue;
pub use dlpack::{DlpackTensor, from_dlpack};
pub use ipc::IpcArrayHandle;
pub use smart::{Side, SmartArray, Transfers};

use crate::error::{Error, Result};
use crate::runtime::context::Context;

/// The context of `device` (the current one when it is current, without changing the current
/// device otherwise).
pub(crate) fn context_of(device: usize) -> Result<Context> {
    let current = crate::runtime::current_context()?;
    if current.device_id() == device {
        return Ok(current);
    }
    let dev = crate::runtime::gpus()?
        .into_iter()
        .find(|d| d.id() == device)
        .ok_or(Error::InvalidDevice {
            id: device,
            count: current.driver().device_count(),
        })?;
    dev.context()
}
