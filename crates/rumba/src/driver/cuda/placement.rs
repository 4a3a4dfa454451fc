//! Managed-memory placement for [`CudaDriver`]: `cuMemPrefetchAsync` and `cuMemAdvise` in their
//! `CUmemLocation` forms (`_v2` in CUDA 12.2+; CUDA 13 gives the plain names this signature).
//! On a device without concurrent managed access the prefetch is waited for before returning,
//! so the host never touches pages while they move (it would fault there).
//!
//! This module touches the CUDA driver only.

use cudarc::driver::sys;

use super::driver::CudaDriver;
use super::error::check;
use crate::driver::{Advice, Location, Migrations, Placement, StreamHandle};
use crate::error::Result;

/// `location` as CUDA names it.
fn cu_location(location: Location) -> sys::CUmemLocation {
    match location {
        Location::Host => sys::CUmemLocation {
            type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST,
            id: 0,
        },
        Location::Device(d) => sys::CUmemLocation {
            type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
            id: d as i32,
        },
    }
}

impl Placement for CudaDriver {
    fn prefetch(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        to: Location,
        stream: StreamHandle,
    ) -> Result<Migrations> {
        if let Location::Device(d) = to {
            if d >= self.devices.len() {
                return Err(crate::error::Error::InvalidDevice {
                    id: d,
                    count: self.devices.len(),
                });
            }
        }
        let dev = self.bind(device)?.dev;
        let s = self.stream(stream)?;
        // SAFETY: a hint on a range the driver checks; it reads and writes no memory of ours.
        check("cuMemPrefetchAsync", unsafe {
            sys::cuMemPrefetchAsync_v2(
                ptr as usize as sys::CUdeviceptr,
                bytes,
                cu_location(to),
                0,
                s,
            )
        })?;
        let mut concurrent = 0;
        // SAFETY: writes one int for a valid device.
        check("cuDeviceGetAttribute", unsafe {
            sys::cuDeviceGetAttribute(
                &mut concurrent,
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                dev,
            )
        })?;
        if concurrent == 0 {
            // SAFETY: a stream of the bound context.
            check("cuStreamSynchronize", unsafe {
                sys::cuStreamSynchronize(s)
            })?;
        }
        Ok(Migrations::default())
    }

    fn advise(&self, device: usize, ptr: *mut u8, bytes: usize, advice: Advice) -> Result<()> {
        use sys::CUmem_advise_enum as A;
        self.bind(device)?;
        let (what, at) = match advice {
            Advice::ReadMostly(true) => (A::CU_MEM_ADVISE_SET_READ_MOSTLY, Location::Host),
            Advice::ReadMostly(false) => (A::CU_MEM_ADVISE_UNSET_READ_MOSTLY, Location::Host),
            Advice::PreferredLocation(Some(at)) => (A::CU_MEM_ADVISE_SET_PREFERRED_LOCATION, at),
            Advice::PreferredLocation(None) => {
                (A::CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Location::Host)
            }
            Advice::AccessedBy(d, true) => (A::CU_MEM_ADVISE_SET_ACCESSED_BY, Location::Device(d)),
            Advice::AccessedBy(d, false) => {
                (A::CU_MEM_ADVISE_UNSET_ACCESSED_BY, Location::Device(d))
            }
        };
        // SAFETY: a hint on a range the driver checks; it reads and writes no memory of ours.
        check("cuMemAdvise", unsafe {
            sys::cuMemAdvise_v2(
                ptr as usize as sys::CUdeviceptr,
                bytes,
                what,
                cu_location(at),
            )
        })
    }
}
