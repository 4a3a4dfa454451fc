//! Inter-process sharing for [`CudaDriver`]: `cuIpcGetMemHandle`, `cuIpcOpenMemHandle`,
//! `cuIpcCloseMemHandle`, and `cuMemGetAddressRange` to find the allocation that contains an
//! address (how memory rumba did not allocate is exported).
//!
//! This module touches the CUDA driver.

use cudarc::driver::sys;

use super::driver::CudaDriver;
use super::error::check;
use crate::driver::{DevicePtr, Ipc};
use crate::error::{Error, IpcError, Result};

impl Ipc for CudaDriver {
    /// `cuIpcGetMemHandle` of the allocation starting at `ptr`; memory of the stream-ordered
    /// pool is refused (a CUDA IPC handle cannot name it; see `pool.rs`).
    fn get_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<Vec<u8>> {
        if self.is_pool_memory(ptr) {
            return Err(Error::Unsupported {
                backend: "cuda".into(),
                feature: format!("an IPC handle of device memory 0x{ptr:x}"),
                reason: "it was allocated for a stream, from CUDA's stream-ordered memory pool, which a CUDA IPC handle cannot name; allocate memory to share with another process without a stream (e.g. rumba::to_device rather than to_device_on), which uses cuMemAlloc".into(),
            });
        }
        self.bind(device)?;
        let mut handle = sys::CUipcMemHandle_st { reserved: [0; 64] };
        // SAFETY: writes one handle; CUDA validates the pointer.
        check("cuIpcGetMemHandle", unsafe {
            sys::cuIpcGetMemHandle(&mut handle, ptr)
        })?;
        Ok(handle.reserved.iter().map(|&c| c as u8).collect())
    }

    /// `cuIpcOpenMemHandle`, and the length of what was opened.
    fn open_mem_handle(&self, device: usize, handle: &[u8]) -> Result<(DevicePtr, usize)> {
        let mut h = sys::CUipcMemHandle_st { reserved: [0; 64] };
        if handle.len() != h.reserved.len() {
            return Err(IpcError::Malformed {
                format: "a CUDA IPC handle",
                reason: format!("{} bytes instead of {}", handle.len(), h.reserved.len()),
            }
            .into());
        }
        for (d, &b) in h.reserved.iter_mut().zip(handle) {
            *d = b as std::ffi::c_char;
        }
        self.bind(device)?;
        let mut ptr = 0;
        // SAFETY: writes one device pointer; CUDA validates the handle.
        check("cuIpcOpenMemHandle", unsafe {
            sys::cuIpcOpenMemHandle_v2(
                &mut ptr,
                h,
                sys::CUipcMem_flags::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS as u32,
            )
        })?;
        let (mut base, mut size) = (0, 0usize);
        // SAFETY: writes one pointer and one size for a pointer CUDA just returned.
        check("cuMemGetAddressRange", unsafe {
            sys::cuMemGetAddressRange_v2(&mut base, &mut size, ptr)
        })?;
        Ok((ptr, size.saturating_sub((ptr - base) as usize)))
    }

    /// `cuIpcCloseMemHandle`.
    fn close_mem_handle(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.bind(device)?;
        // SAFETY: CUDA validates that `ptr` was opened from an IPC handle.
        check("cuIpcCloseMemHandle", unsafe {
            sys::cuIpcCloseMemHandle(ptr)
        })
    }
}

impl CudaDriver {
    /// `cuMemGetAddressRange`: the allocation containing `ptr`.
    pub(super) fn address_range(
        &self,
        device: usize,
        ptr: DevicePtr,
    ) -> Result<(DevicePtr, usize)> {
        self.bind(device)?;
        let (mut base, mut size) = (0, 0usize);
        // SAFETY: writes one pointer and one size; CUDA reports an address outside every device
        // allocation as an error.
        check("cuMemGetAddressRange", unsafe {
            sys::cuMemGetAddressRange_v2(&mut base, &mut size, ptr)
        })?;
        Ok((base, size))
    }
}
