//! `copy_strided_async` on OpenCL: the built-in `rumba_strided_copy_kernel`
//! (`kernels/strided_copy.cl`) launched with the parameter block that the CUDA backend uses too
//! (`driver/strided_pack.rs`), after both ranges are bounds-checked against the backend's table.
//!
//! This module touches the built-in kernel's arguments and the stream it queues on.

use std::ffi::c_void;
use std::sync::Arc;

use opencl3::command_queue::enqueue_nd_range_kernel;

use super::grid_widths::Slot;
use opencl3::kernel::{set_kernel_arg, set_kernel_arg_svm_pointer};
use opencl3::types::cl_kernel;

use super::builtin::Built;
use super::error::check;
use super::memory::Table;
use super::raw::ClEvent;
use super::stream::{DeviceQueues, wait_ptr};
use crate::driver::strided_pack::{MAX_BLOCKS, StridedCopyParams, pack};
use crate::driver::{DevicePtr, StreamHandle, StridedCopy, StridedSource};
use crate::error::{Error, Result, StridesError};
use crate::sync::lock;

/// Work-items per work-group (capped by the device's limit).
const GROUP: usize = 256;

/// The byte range `[lo, hi)` the elements span relative to the element at index 0.
pub(crate) fn extent(shape: &[usize], strides: &[isize], itemsize: usize) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (0i128, 0i128);
    for (&n, &s) in shape.iter().zip(strides) {
        let reach = (n as i128 - 1) * s as i128;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    Some((lo, hi + itemsize as i128))
}

/// Checks that every byte of a strided range lies in one device-addressable allocation.
pub(crate) fn check_range(
    table: &Table,
    ptr: DevicePtr,
    shape: &[usize],
    strides: &[isize],
    itemsize: usize,
) -> Result<()> {
    let (lo, hi) = extent(shape, strides, itemsize).ok_or_else(|| StridesError::Overflow {
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    })?;
    let start = ptr as i128 + lo;
    if start < 0 || start > u64::MAX as i128 {
        return Err(Error::InvalidAddress {
            ptr,
            len: (hi - lo) as usize,
            reason: "the strided range starts below address 0".into(),
        });
    }
    table.check_device_range(start as u64, (hi - lo) as usize)
}

/// Validates `copy` and packs its parameters; `None` when there is nothing to do.
pub(crate) fn prepare(table: &Table, copy: &StridedCopy<'_>) -> Result<Option<StridedCopyParams>> {
    let params = pack(copy)?;
    if params.count == 0 {
        return Ok(None);
    }
    check_range(table, copy.dst, copy.shape, copy.dst_strides, copy.itemsize)?;
    if let StridedSource::Device { ptr, strides } = copy.src {
        check_range(table, ptr, copy.shape, strides, copy.itemsize)?;
    }
    Ok(Some(params))
}

/// The name of the built-in kernel.
pub(crate) const ENTRY: &str = "rumba_strided_copy_kernel";

/// The global and local size (one dimension) of the kernel for `params`.
pub(crate) fn sizes(params: &StridedCopyParams, max_work_group: usize) -> (usize, usize) {
    let local = GROUP.min(max_work_group.max(1));
    let groups = (params.count as u64).div_ceil(local as u64).min(MAX_BLOCKS) as usize;
    (groups * local, local)
}

/// Sets the kernel's arguments for `params`.
///
/// # Safety
/// Nothing else sets `k`'s arguments meanwhile; `params` was made by [`prepare`].
pub(crate) unsafe fn set_args(k: cl_kernel, params: &StridedCopyParams) -> Result<()> {
    let dst = params.dst as usize as *const c_void;
    let src = if params.fill != 0 {
        dst
    } else {
        params.src as usize as *const c_void
    };
    // SAFETY: argument 0 and 1 are `__global char*` (SVM pointers inside checked allocations);
    // argument 2 is `struct rumba_strided_copy`, which `StridedCopyParams` mirrors (#[repr(C)],
    // layout unit-tested); OpenCL copies the value.
    unsafe {
        check(
            "clSetKernelArgSVMPointer(dst)",
            set_kernel_arg_svm_pointer(k, 0, dst),
        )?;
        check(
            "clSetKernelArgSVMPointer(src)",
            set_kernel_arg_svm_pointer(k, 1, src),
        )?;
        check(
            "clSetKernelArg(params)",
            set_kernel_arg(
                k,
                2,
                std::mem::size_of::<StridedCopyParams>(),
                (params as *const StridedCopyParams).cast(),
            ),
        )
    }
}

/// Queues the kernel for `params` on `stream`.
///
/// # Safety
/// The ranges were checked by [`prepare`] and stay allocated until the stream has run the copy.
pub(crate) unsafe fn launch(
    queues: &Arc<DeviceQueues>,
    built: &Built,
    max_work_group: usize,
    params: &StridedCopyParams,
    stream: StreamHandle,
) -> Result<()> {
    let (global, local) = sizes(params, max_work_group);
    queues.submit(stream, |q, deps| {
        let kernel = lock(&built.kernel);
        let k = kernel.raw();
        // SAFETY: the kernel's lock is held; `params` was prepared.
        unsafe { set_args(k, params)? };
        let (g, l) = ([global], [local]);
        // Ordered after running copies with another grid width (PoCL's cache of work-group
        // functions, see `grid_widths`).
        let slot = Slot::take(queues.context(), ENTRY, &g, &l);
        let wait = slot.wait_list(deps);
        // SAFETY: the kernel's arguments are all set; sizes are one-dimensional arrays; the wait
        // list holds live events.
        let e = check(
            "clEnqueueNDRangeKernel(rumba_strided_copy_kernel)",
            unsafe {
                enqueue_nd_range_kernel(
                    q,
                    k,
                    1,
                    std::ptr::null(),
                    g.as_ptr(),
                    l.as_ptr(),
                    wait.len() as u32,
                    wait_ptr(&wait),
                )
            },
        )?;
        // SAFETY: we own the launch event's reference.
        let e = unsafe { ClEvent::from_raw(e) };
        slot.launched(&e);
        Ok(e)
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::opencl::memory::{Kind, Range};

    #[test]
    fn extents_cover_negative_and_zero_strides() {
        assert_eq!(extent(&[4, 3], &[24, 8], 8), Some((0, 96)));
        assert_eq!(extent(&[3], &[-8], 8), Some((-16, 8)));
        assert_eq!(extent(&[5, 2], &[0, 4], 4), Some((0, 8)));
    }

    #[test]
    fn ranges_outside_allocations_are_refused_before_anything_is_queued() {
        let t = Table::new(1);
        t.insert(
            0x1000,
            Range {
                len: 64,
                kind: Kind::Device { device: 0 },
                not_locked: None,
            },
        )
        .unwrap();
        assert!(check_range(&t, 0x1000, &[8], &[8], 8).is_ok());
        assert!(check_range(&t, 0x1000 + 56, &[8], &[-8], 8).is_ok());
        assert!(matches!(
            check_range(&t, 0x1000, &[9], &[8], 8),
            Err(Error::InvalidAddress { .. })
        ));
        assert!(check_range(&t, 0x1000, &[8], &[-8], 8).is_err());
        let copy = StridedCopy {
            shape: &[0],
            itemsize: 4,
            dst: 0xdead,
            dst_strides: &[4],
            src: StridedSource::Fill(&[0; 4]),
        };
        assert!(
            prepare(&t, &copy).unwrap().is_none(),
            "size 0 queues nothing"
        );
    }
}
