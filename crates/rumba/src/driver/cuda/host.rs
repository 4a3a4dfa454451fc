//! Page-locked host memory for [`CudaDriver`]: `cuMemHostAlloc` (zeroed, as the driver contract
//! promises) and `cuMemFreeHost`, registration of existing ranges (`cuMemHostRegister`), the
//! device address of mapped memory, and the table of pinned ranges that says whether a copy's
//! host side is page-locked.
//!
//! A registration whose guard was leaked stays in CUDA (and in the table) after the program
//! freed the memory; the allocator may hand the same bytes out again, and CUDA refuses to
//! register them a second time (`CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED`). The caller of
//! [`pin_range`](CudaDriver::pin_range) holds those bytes exclusively, so a registration of ours
//! that overlaps them is stale: it is undone and the range registered anew, as the simulator
//! replaces a stale registration. An allocation of ours there (page-locked already) is the
//! typed [`HostMemoryError::Overlap`]; a range someone else registered stays CUDA's error.
//!
//! This module touches the CUDA driver's host-memory calls.

use cudarc::driver::sys::{self, CUresult};

use super::driver::CudaDriver;
use super::error::{check, map};
use super::flags::host_alloc_flags;
use crate::driver::{DevicePtr, HostAllocFlags};
use crate::error::{Error, HostMemoryError, Result};

/// How a range of the table of pinned memory became page-locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pinned {
    /// `cuMemHostAlloc`: freed only with its allocation.
    Allocated(usize),
    /// `cuMemHostRegister` of the program's memory: undone by its guard, or replaced when stale.
    Registered(usize),
}

impl Pinned {
    pub(super) fn len(self) -> usize {
        match self {
            Pinned::Allocated(n) | Pinned::Registered(n) => n,
        }
    }
}

/// What registering `start .. start + len` meets in the table's entries (start → how it was
/// pinned): the starts of our stale registrations to undo when CUDA says the range is already
/// registered, or the refusal when one of ours is an allocation, checked before CUDA is asked
/// (`None` when none of ours overlaps: CUDA's answer stands).
fn stale_registrations(
    table: &std::collections::BTreeMap<usize, Pinned>,
    start: usize,
    len: usize,
) -> Option<std::result::Result<Vec<usize>, HostMemoryError>> {
    let end = start.saturating_add(len);
    let overlapping: Vec<(usize, Pinned)> = table
        .range(..end)
        .filter(|(s, p)| s.saturating_add(p.len()) > start)
        .map(|(s, p)| (*s, *p))
        .collect();
    if overlapping.is_empty() {
        return None;
    }
    if let Some((s, p)) = overlapping
        .iter()
        .find(|(_, p)| matches!(p, Pinned::Allocated(_)))
    {
        return Some(Err(HostMemoryError::Overlap {
            start,
            len,
            existing: Some((*s, p.len())),
        }));
    }
    Some(Ok(overlapping.into_iter().map(|(s, _)| s).collect()))
}

impl CudaDriver {
    fn pinned_insert(&self, p: *mut u8, how: Pinned) {
        crate::sync::write(&self.pinned).insert(p as usize, how);
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
                self.pinned_insert(p.cast(), Pinned::Allocated(bytes.max(1)));
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
    /// remembered as pinned; a stale registration of ours over the range is replaced (module
    /// docs).
    ///
    /// # Safety
    /// As for [`Driver::host_register`](crate::driver::Driver::host_register).
    pub(super) unsafe fn pin_range(&self, ptr: *mut u8, bytes: usize, flags: u32) -> Result<()> {
        // Memory we allocated pinned is refused from the table, with the typed overlap, whatever
        // CUDA would answer for it: a host guard leaves views of pinned arrays alone on it.
        let stale = match stale_registrations(&crate::sync::read(&self.pinned), ptr as usize, bytes)
        {
            Some(Err(overlap)) => return Err(overlap.into()),
            Some(Ok(starts)) => starts,
            None => Vec::new(),
        };
        // SAFETY: forwarded from the caller's contract.
        let register = || unsafe { sys::cuMemHostRegister_v2(ptr.cast(), bytes, flags) };
        let mut r = register();
        if r == CUresult::CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED && !stale.is_empty() {
            for s in stale {
                // SAFETY: `s` is the start of a registration of ours that overlaps bytes the
                // caller now holds exclusively: its guard is gone (leaked), and no queued work
                // reads it (copies from a guard's memory end before the guard does, and staged
                // copies never read it after returning).
                unsafe { self.host_unregister_range(s as *mut u8)? };
            }
            r = register();
        }
        check("cuMemHostRegister", r)?;
        self.pinned_insert(ptr, Pinned::Registered(bytes));
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
            .is_some_and(|(s, p)| {
                start
                    .checked_add(bytes)
                    .is_some_and(|end| end <= s + p.len())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn only_our_stale_registrations_over_the_range_are_undone() {
        let mut t = BTreeMap::new();
        t.insert(0x1000, Pinned::Registered(0x1000));
        t.insert(0x3000, Pinned::Registered(0x100));
        t.insert(0x8000, Pinned::Allocated(0x1000));
        // Overlaps the first two registrations, not the allocation.
        assert_eq!(
            stale_registrations(&t, 0x1800, 0x1900),
            Some(Ok(vec![0x1000, 0x3000]))
        );
        // Touching but not overlapping: nothing of ours (CUDA's error stands).
        assert_eq!(stale_registrations(&t, 0x2000, 0x1000), None);
        assert_eq!(stale_registrations(&t, 0x3100, 0x10), None);
        // Inside an allocation of ours: the typed overlap, nothing undone.
        assert_eq!(
            stale_registrations(&t, 0x7f00, 0x200),
            Some(Err(HostMemoryError::Overlap {
                start: 0x7f00,
                len: 0x200,
                existing: Some((0x8000, 0x1000)),
            }))
        );
    }
}
