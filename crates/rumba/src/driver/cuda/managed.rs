//! Managed (unified) memory for [`CudaDriver`]: `cuMemAllocManaged` with a global or host
//! attachment, zeroed (CUDA does not zero it; rumba's driver contract does), and `cuMemFree`.
//! The driver remembers the ranges: their host and device addresses are the same.
//!
//! This module touches the CUDA driver and the memory it allocates.

use cudarc::driver::sys;

use super::driver::CudaDriver;
use super::error::check;
use super::flags::managed_attach_flags;
use crate::driver::{DevicePtr, ManagedAttach};
use crate::error::{Error, Result};
use crate::sync::write;

impl CudaDriver {
    /// `cuMemAllocManaged` with the attachment's flag, zeroed and remembered (its host and
    /// device addresses are the same).
    pub(super) fn managed_alloc(
        &self,
        device: usize,
        bytes: usize,
        attach: ManagedAttach,
    ) -> Result<*mut u8> {
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "managed memory",
            });
        }
        self.bind(device)?;
        let mut p = 0;
        // SAFETY: writes one pointer; a context is current.
        check("cuMemAllocManaged", unsafe {
            sys::cuMemAllocManaged(&mut p, bytes, managed_attach_flags(attach))
        })?;
        // CUDA does not zero managed memory; rumba's contract (and the sim) does.
        // SAFETY: `p` is a fresh managed allocation of `bytes` bytes, valid on the host.
        unsafe { std::ptr::write_bytes(p as usize as *mut u8, 0, bytes) };
        write(&self.managed).insert(p as usize, bytes);
        Ok(p as usize as *mut u8)
    }

    /// Frees managed memory.
    ///
    /// # Safety
    /// As for [`Driver::mem_free_managed`](crate::driver::Driver::mem_free_managed).
    pub(super) unsafe fn managed_free(&self, ptr: *mut u8) -> Result<()> {
        write(&self.managed).remove(&(ptr as usize));
        // SAFETY: forwarded from the caller's contract.
        check("cuMemFree(managed)", unsafe {
            sys::cuMemFree_v2(ptr as usize as DevicePtr)
        })
    }
}
