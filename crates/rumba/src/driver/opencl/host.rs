//! Host memory on OpenCL: pinned, mapped and managed allocations, and registration of existing
//! memory — each as far as OpenCL can honestly provide it.
//!
//! | request | where the device has fine-grained buffer SVM | where it has only coarse-grained SVM |
//! |---|---|---|
//! | pinned (`host_alloc`) | a fine-grained SVM allocation: host memory the driver shares with the device | page-aligned `mmap` memory |
//! | mapped (`mapped` flag) | the same allocation; its device address is its host address | refused: [`Error::Unsupported`] |
//! | write-combined | refused: OpenCL has no write-combined host memory | refused |
//! | managed | a fine-grained SVM allocation | refused |
//! | `register` (page-lock existing memory) | `mlock` the range; copies from it are queued asynchronously | same |
//! | `register` with `mapped` | only with fine-grained **system** SVM (any host address is a device address) | refused |
//!
//! Every pinned range is page-locked with `mlock(2)` where the OS allows (as on the simulator);
//! when it refuses, the range still counts as pinned and the refusal is reported per range. Two
//! pinned ranges that share a page: unlocking one unlocks the shared page (mlock does not stack);
//! the other range still counts as locked.
//!
//! The ROC host arrays (`coarsegrain_array`, `finegrain_array`: `Driver::host_alloc_grained`) are
//! portable mapped allocations of the same kind: fine-grained SVM is coherent while kernels run,
//! which satisfies both contracts; where the devices lack it they are refused.
//!
//! This module touches the host memory it allocates or is given and the backend's table.

use std::ffi::c_void;

use opencl3::memory::{CL_MEM_READ_WRITE, CL_MEM_SVM_FINE_GRAIN_BUFFER, svm_alloc, svm_free};
use opencl3::types::{cl_context, cl_svm_mem_flags};

use super::memory::{Kind, Range, Table};
use crate::driver::sim::host::{mlock, page_size};
use crate::driver::{DevicePtr, HostAllocFlags, PageLocking};
use crate::error::{Error, HostMemoryError, Result};

/// What the devices offer for host memory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HostCaps {
    /// Fine-grained buffer SVM on the allocating device (and, for portable memory, on all).
    pub(crate) fine_buffer: bool,
    /// Fine-grained system SVM on the device.
    pub(crate) fine_system: bool,
}

fn write_combined_refusal() -> Error {
    Error::Unsupported {
        backend: "opencl".into(),
        feature: "write-combined host memory".into(),
        reason:
            "OpenCL has none (it is CUDA's cuMemHostAlloc flag); allocate without write_combined"
                .into(),
    }
}

fn lock_pages(locking: &PageLocking, p: *mut u8, len: usize) -> Option<String> {
    match locking {
        PageLocking::Refused(why) => Some(why.clone()),
        PageLocking::Available => mlock(p, len).err(),
    }
}

fn unlock_pages(range: &Range, p: usize) {
    if range.not_locked.is_none() && range.len > 0 {
        // SAFETY: the range was locked by us; munlock reads no memory.
        unsafe { libc::munlock(p as *mut c_void, range.len) };
    }
}

/// The refusal of `bytes` of host memory for `device` (no free or total figures: the host's
/// memory is not the device's).
fn no_host_memory(device: usize, bytes: usize) -> Error {
    Error::OutOfMemory {
        device,
        requested: bytes,
        free: 0,
        total: 0,
        pending: 0,
    }
}

/// A zeroed fine-grained SVM allocation of `bytes`.
fn svm_host(context: cl_context, bytes: usize, device: usize) -> Result<*mut u8> {
    let flags: cl_svm_mem_flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
    // SAFETY: valid flags for a context whose devices offer fine-grained buffer SVM.
    let p = unsafe { svm_alloc(context, flags, bytes, 0) }
        .map_err(|_| no_host_memory(device, bytes))?;
    // SAFETY: fine-grained SVM is host-accessible without mapping; the allocation is `bytes`
    // long and ours alone.
    unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, bytes) };
    Ok(p.cast())
}

/// Allocates pinned host memory (see the module table).
pub(crate) fn alloc(
    table: &Table,
    context: cl_context,
    locking: &PageLocking,
    caps: HostCaps,
    device: usize,
    bytes: usize,
    flags: HostAllocFlags,
) -> Result<*mut u8> {
    if flags.write_combined {
        return Err(write_combined_refusal());
    }
    let bytes = bytes.max(1);
    let (p, kind) = if caps.fine_buffer {
        (
            svm_host(context, bytes, device)?,
            Kind::HostSvm {
                managed: false,
                mapped: flags.mapped,
            },
        )
    } else if flags.mapped {
        return Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "mapped host memory".into(),
            reason: format!(
                "OpenCL device {device} has no fine-grained buffer SVM, so host memory cannot be mapped into its address space; use device arrays and copies"
            ),
        });
    } else {
        let page = page_size();
        let size = bytes
            .div_ceil(page)
            .checked_mul(page)
            .ok_or_else(|| no_host_memory(device, bytes))?;
        let p = crate::driver::sim::memory::map_anonymous(size)
            .ok_or_else(|| no_host_memory(device, bytes))?;
        (p, Kind::HostPages { mapped: size })
    };
    let range = Range {
        len: bytes,
        kind,
        not_locked: lock_pages(locking, p, bytes),
    };
    if let Err(e) = table.insert_fresh(p as usize, range.clone()) {
        release(context, p as usize, &range);
        return Err(e);
    }
    Ok(p)
}

/// Allocates managed memory: fine-grained SVM, not page-locked.
pub(crate) fn alloc_managed(
    table: &Table,
    context: cl_context,
    caps: HostCaps,
    device: usize,
    bytes: usize,
) -> Result<*mut u8> {
    if bytes == 0 {
        return Err(Error::ZeroSizeAllocation {
            memory: "managed memory",
        });
    }
    if !caps.fine_buffer {
        return Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "managed memory".into(),
            reason: format!("it needs fine-grained buffer SVM, which OpenCL device {device} lacks"),
        });
    }
    let p = svm_host(context, bytes, device)?;
    let range = Range {
        len: bytes,
        kind: Kind::HostSvm {
            managed: true,
            mapped: true,
        },
        not_locked: Some("managed memory is not page-locked".into()),
    };
    if let Err(e) = table.insert_fresh(p as usize, range.clone()) {
        release(context, p as usize, &range);
        return Err(e);
    }
    Ok(p)
}

fn release(context: cl_context, p: usize, range: &Range) {
    match range.kind {
        // SAFETY: allocated by clSVMAlloc in `context`; no longer in the table.
        Kind::HostSvm { .. } => unsafe {
            let _ = svm_free(context, p as *mut c_void);
        },
        // SAFETY: mapped by `alloc` with this length; no longer in the table.
        Kind::HostPages { mapped } => unsafe {
            libc::munmap(p as *mut c_void, mapped);
        },
        Kind::Device { .. } | Kind::Registered { .. } => {}
    }
}

/// Frees pinned (`managed == false`) or managed memory allocated here.
pub(crate) fn free(table: &Table, context: cl_context, p: *mut u8, managed: bool) -> Result<()> {
    let range = table
        .remove(p as usize, |r| match r.kind {
            Kind::HostSvm { managed: m, .. } => m == managed,
            Kind::HostPages { .. } => !managed,
            _ => false,
        })
        .ok_or(HostMemoryError::NotAllocated {
            ptr: p as usize,
            memory: if managed { "managed" } else { "pinned" },
        })?;
    unlock_pages(&range, p as usize);
    release(context, p as usize, &range);
    Ok(())
}

/// Registers (page-locks) an existing range.
///
/// # Safety
/// `p` must be valid for `len` bytes until [`unregister`].
pub(crate) unsafe fn register(
    table: &Table,
    locking: &PageLocking,
    caps: HostCaps,
    device: usize,
    p: *mut u8,
    len: usize,
    flags: HostAllocFlags,
) -> Result<()> {
    if p.is_null() {
        return Err(HostMemoryError::Null.into());
    }
    if table.overlaps_allocated(p as usize, len) {
        // Memory the backend allocated (pinned or mapped): never replaced by a registration.
        return Err(HostMemoryError::Overlap {
            start: p as usize,
            len,
            existing: None,
        }
        .into());
    }
    if flags.write_combined {
        return Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "write-combined memory made from existing host memory".into(),
            reason: "write-combined memory can only be allocated (and OpenCL has none)".into(),
        });
    }
    if flags.mapped && !caps.fine_system {
        return Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "mapping existing host memory".into(),
            reason: format!(
                "OpenCL maps existing host memory into a device's address space only with fine-grained system SVM, which OpenCL device {device} lacks; allocate mapped memory (mapped_array) instead"
            ),
        });
    }
    let range = Range {
        len,
        kind: Kind::Registered {
            device_addressable: caps.fine_system,
        },
        not_locked: None,
    };
    // The caller owns these bytes now (the safety contract): a registration overlapping them is
    // stale (a leaked guard) and is replaced.
    table.insert_fresh(p as usize, range)?;
    if let Some(why) = lock_pages(locking, p, len) {
        if let Some(mut r) = table.remove(p as usize, |_| true) {
            r.not_locked = Some(why);
            table.insert(p as usize, r)?;
        }
    }
    Ok(())
}

/// Undoes [`register`], immediately.
pub(crate) fn unregister(table: &Table, p: *mut u8) -> Result<()> {
    let range = table
        .remove(p as usize, |r| matches!(r.kind, Kind::Registered { .. }))
        .ok_or(HostMemoryError::NotRegistered { ptr: p as usize })?;
    unlock_pages(&range, p as usize);
    Ok(())
}

/// The device address of device-addressable host memory (the same address: SVM is shared).
pub(crate) fn device_pointer(table: &Table, p: *mut u8, device: usize) -> Result<DevicePtr> {
    let ptr = p as usize;
    let not_mapped = |reason: &str| HostMemoryError::NotMapped {
        ptr,
        device,
        reason: reason.to_owned(),
    };
    Err(match table.find(ptr) {
        Some((_, r)) => match r.kind {
            Kind::HostSvm { mapped: true, .. }
            | Kind::Registered {
                device_addressable: true,
            } => return Ok(ptr as DevicePtr),
            Kind::HostSvm { mapped: false, .. } | Kind::HostPages { .. } => {
                not_mapped("it was pinned without `mapped`")
            }
            Kind::Registered { .. } => not_mapped("it was registered without `mapped`"),
            Kind::Device { .. } => HostMemoryError::DeviceMemory { ptr },
        },
        None => HostMemoryError::NotPinned { ptr },
    }
    .into())
}

/// Whether the pinned range containing `p` is page-locked (`None`: not pinned host memory).
pub(crate) fn page_locking(table: &Table, p: *const u8) -> Option<PageLocking> {
    table
        .find(p as usize)
        .filter(|(_, r)| !matches!(r.kind, Kind::Device { .. }))
        .map(|(_, r)| match r.not_locked {
            None => PageLocking::Available,
            Some(why) => PageLocking::Refused(why),
        })
}

/// Releases a range left in the table when the driver drops.
pub(crate) fn release_leftover(context: cl_context, p: usize, range: &Range) {
    unlock_pages(range, p);
    match range.kind {
        // SAFETY: allocated by clSVMAlloc in `context`; the driver is going away.
        Kind::Device { .. } => unsafe {
            let _ = svm_free(context, p as *mut c_void);
        },
        _ => release(context, p, range),
    }
}
