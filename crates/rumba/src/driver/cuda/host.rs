//! Page-locked host memory for [`CudaDriver`]: `cuMemHostAlloc` (zeroed, as the driver contract
//! promises) and `cuMemFreeHost`, registration of existing ranges (`cuMemHostRegister`), the
//! device address of mapped memory, and the table of pinned ranges that says whether a copy's
//! host side is page-locked.
//!
//! This module touches the CUDA driver's host-memory calls.

use cudarc::driver::sys::{self, CUresult};

use super::driver::CudaDriver;
use super::error::{check, map};
use super::flags::host_alloc_flags;
use crate::driver::{DevicePtr, HostAllocFlags};
use crate::error::{Error, Result};

impl CudaDriver {
    fn pinned_insert(&self, p: *mut u8, bytes: usize) {
        crate::sync::write(&self.pinned).insert(p as usize, bytes);
    }

    fn pinned_remove(&self, p: *mut u8) {
        crate::sync::write(&self.pinned).remove(&(p as usize));
    }

    pub(super) fn host_alloc_pinned(
        &self,
        device: usize,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<*mut u8> {
        self.bind(device)?;
        let out_of_memory = Error::OutOfMemory {
            device,
            requested: bytes,
            free: 0,
            total: 0,
            pending: 0,
        };
        if bytes > isize::MAX as usize {
            // No host allocation can be that large (CUDA answers such a size with
            // CUDA_ERROR_INVALID_VALUE rather than out of memory).
            return Err(out_of_memory);
        }
        let mut p = std::ptr::null_mut();
        // SAFETY: writes one host pointer; a context is current.
        match unsafe { sys::cuMemHostAlloc(&mut p, bytes.max(1), host_alloc_flags(flags)) } {
            CUresult::CUDA_SUCCESS => {
                // cuMemHostAlloc does not zero; `Driver::host_alloc` promises zeroed memory (and
                // safe code reads it as elements, some of which, like `bool`, forbid stray bytes).
                // SAFETY: `p` is a fresh host allocation of `bytes.max(1)` bytes, ours alone.
                unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, bytes.max(1)) };
                self.pinned_insert(p.cast(), bytes.max(1));
                Ok(p.cast())
            }
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => Err(out_of_memory),
            r => Err(map("cuMemHostAlloc", r)),
        }
    }

    /// # Safety
    /// As for [`Driver::host_free`](crate::driver::Driver::host_free).
    pub(super) unsafe fn host_free_pinned(&self, ptr: *mut u8) -> Result<()> {
        self.pinned_remove(ptr);
        // SAFETY: forwarded from the caller's contract.
        check("cuMemFreeHost", unsafe { sys::cuMemFreeHost(ptr.cast()) })
    }

    /// `cuMemHostRegister` of `bytes` at `ptr` with the CUDA `flags`, in the current context,
    /// remembered as pinned.
    ///
    /// # Safety
    /// As for [`Driver::host_register`](crate::driver::Driver::host_register).
    pub(super) unsafe fn pin_range(&self, ptr: *mut u8, bytes: usize, flags: u32) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        check("cuMemHostRegister", unsafe {
            sys::cuMemHostRegister_v2(ptr.cast(), bytes, flags)
        })?;
        self.pinned_insert(ptr, bytes);
        Ok(())
    }

    /// # Safety
    /// As for [`Driver::host_unregister`](crate::driver::Driver::host_unregister).
    pub(super) unsafe fn host_unregister_range(&self, ptr: *mut u8) -> Result<()> {
        self.pinned_remove(ptr);
        // SAFETY: forwarded from the caller's contract.
        check("cuMemHostUnregister", unsafe {
            sys::cuMemHostUnregister(ptr.cast())
        })
    }

    pub(super) fn mapped_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr> {
        self.bind(device)?;
        let p = ptr as usize;
        let in_managed = crate::sync::read(&self.managed)
            .range(..=p)
            .next_back()
            .is_some_and(|(s, len)| p < s + len);
        if in_managed {
            // Managed memory has one address for the host and every device.
            return Ok(p as DevicePtr);
        }
        let mut d = 0;
        // SAFETY: only queries the mapping; CUDA reports unmapped pointers as errors.
        check("cuMemHostGetDevicePointer", unsafe {
            sys::cuMemHostGetDevicePointer_v2(&mut d, ptr.cast(), 0)
        })?;
        Ok(d)
    }

    pub(super) fn pinned_contains(&self, ptr: *const u8, bytes: usize) -> bool {
        let start = ptr as usize;
        crate::sync::read(&self.pinned)
            .range(..=start)
            .next_back()
            .is_some_and(|(s, len)| start.checked_add(bytes).is_some_and(|end| end <= s + len))
    }
}
