//! Device memory of the OpenCL driver: coarse-grained SVM within the device's cap, zeroed before
//! it is handed out.
//!
//! This module touches the allocation table and the OpenCL context's SVM.

use opencl3::memory::{CL_MEM_READ_WRITE, svm_alloc, svm_free};

use super::OpenClDriver;
use super::memory::{Kind, Range};
use crate::driver::DevicePtr;
use crate::error::{Error, Result};

impl OpenClDriver {
    /// `Driver::mem_alloc`: coarse-grained SVM within the device's cap, zeroed.
    pub(super) fn alloc_device(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        let d = self.device(device)?;
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "device memory",
            });
        }
        if bytes as u64 > d.survey.max_allocation {
            return Err(Error::AllocationTooLarge {
                memory: format!(
                    "device memory on OpenCL device {device} (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"
                ),
                bytes,
                largest: usize::try_from(d.survey.max_allocation).unwrap_or(usize::MAX),
            });
        }
        let total = self.total(d);
        self.table.reserve(device, bytes, total)?;
        // SAFETY: valid flags (coarse-grained read-write SVM) for a context whose devices all
        // offer coarse-grained SVM (checked when the driver opened).
        let p = match unsafe { svm_alloc(self.ctx(), CL_MEM_READ_WRITE, bytes, 0) } {
            Ok(p) => p,
            Err(_) => {
                self.table.unreserve(device, bytes);
                return Err(Error::OutOfMemory {
                    device,
                    requested: bytes,
                    free: total.saturating_sub(self.table.used(device)),
                    total,
                    pending: 0,
                });
            }
        };
        let range = Range {
            len: bytes,
            kind: Kind::Device { device },
            not_locked: None,
        };
        if let Err(e) = d
            .queues
            .zero_now(p, bytes)
            .and_then(|()| self.table.insert_fresh(p as usize, range))
        {
            // SAFETY: just allocated, never handed out.
            unsafe {
                let _ = svm_free(self.ctx(), p);
            }
            self.table.unreserve(device, bytes);
            return Err(e);
        }
        Ok(p as usize as DevicePtr)
    }
}
