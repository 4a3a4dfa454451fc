//! Inter-process sharing for [`CudaDriver`]: `cuIpcGetMemHandle`, `cuIpcOpenMemHandle`,
//! `cuIpcCloseMemHandle`, and `cuMemGetAddressRange` to find the allocation that contains an
//! address (how memory rumba did not allocate is exported).
//!
//! CUDA's answers are turned into rumba's typed IPC errors, as found on an H100 with driver 580:
//! opening a handle in the process that exported it is `CUDA_ERROR_INVALID_CONTEXT`
//! ([`IpcError::SameProcess`]), opening memory that was freed is `CUDA_ERROR_INVALID_VALUE`
//! ([`IpcError::Gone`]) — though the fourth and fifth H100 runs opened the handle of a freed
//! 80-byte array, most likely because CUDA serves small allocations from larger chunks that
//! other live allocations keep — and a second open of one handle succeeds in CUDA (it counts
//! references) but is refused here ([`IpcError::MemoryAlreadyOpen`]), since each of rumba's
//! handles owns its mapping. Mapped host memory has a device address range but is no device
//! allocation: its export is refused before CUDA is asked.
//!
//! This module touches the CUDA driver.

use cudarc::driver::sys::{self, CUresult};

use super::driver::CudaDriver;
use super::error::{check, map};
use crate::driver::{DevicePtr, Ipc};
use crate::error::{Error, IpcError, Result};
use crate::sync::lock;

/// A number naming the shared allocation a CUDA IPC handle describes (its bytes folded by
/// FNV-1a): what [`IpcError::MemoryAlreadyOpen`] and [`IpcError::Gone`] show of it.
fn object_number(handle: &[u8]) -> u64 {
    handle.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

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
        if lock(&self.ipc_opened).contains_key(&ptr) {
            // CUDA answers CUDA_ERROR_INVALID_VALUE; say why instead.
            return Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: "memory opened from another process's IPC handle cannot be exported again (CUDA refuses it)".into(),
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
        let mut opened = lock(&self.ipc_opened);
        if opened.values().any(|k| k.as_slice() == handle) {
            // CUDA would hand out the same mapping again (reference-counted); rumba's handles
            // each own their mapping, so a second one is refused as on every backend.
            return Err(IpcError::MemoryAlreadyOpen {
                pid: 0, // the interop layer names the exporting process
                object: object_number(handle),
            }
            .into());
        }
        let mut ptr = 0;
        // SAFETY: writes one device pointer; CUDA validates the handle.
        let r = unsafe {
            sys::cuIpcOpenMemHandle_v2(
                &mut ptr,
                h,
                sys::CUipcMem_flags::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS as u32,
            )
        };
        match r {
            CUresult::CUDA_SUCCESS => {}
            // A context is current (bound above): this is CUDA's answer to a handle of this very
            // process.
            CUresult::CUDA_ERROR_INVALID_CONTEXT => return Err(IpcError::SameProcess.into()),
            // The exporter freed the allocation or exited.
            CUresult::CUDA_ERROR_INVALID_VALUE => {
                return Err(IpcError::Gone {
                    handle: format!("cuda:{:016x}", object_number(handle)),
                    pid: 0, // the interop layer names the exporting process
                    reason: map("cuIpcOpenMemHandle", r).to_string(),
                }
                .into());
            }
            r => return Err(map("cuIpcOpenMemHandle", r)),
        }
        opened.insert(ptr, handle.to_vec());
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
        })?;
        lock(&self.ipc_opened).remove(&ptr);
        Ok(())
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
        let mut kind = 0u32;
        // SAFETY: writes one unsigned int; CUDA reports an address it does not know as an error,
        // which leaves `kind` 0 and falls through to the range query below.
        let known = unsafe {
            sys::cuPointerGetAttribute(
                (&raw mut kind).cast(),
                sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                ptr,
            )
        };
        if known == CUresult::CUDA_SUCCESS && kind == sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32 {
            // Mapped host memory has a device address range too, but no device allocation.
            return Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason:
                    "host memory mapped into the device's address space, not a device allocation"
                        .into(),
            });
        }
        let (mut base, mut size) = (0, 0usize);
        // SAFETY: writes one pointer and one size; CUDA reports an address outside every device
        // allocation as an error.
        check("cuMemGetAddressRange", unsafe {
            sys::cuMemGetAddressRange_v2(&mut base, &mut size, ptr)
        })?;
        Ok((base, size))
    }
}
