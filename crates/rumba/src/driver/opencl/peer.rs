//! Copies between devices of the OpenCL backend. Every device of the driver shares one context,
//! so an SVM address is valid on all of them: a peer copy is an SVM copy on the destination
//! device's queue, ordered after the source device's work as CUDA orders `cuMemcpyPeer`.
//!
//! This module touches the queues of the two devices.

use opencl3::command_queue::enqueue_svm_mem_cpy;
use opencl3::types::CL_NON_BLOCKING;

use super::driver::{OpenClDriver, as_mut};
use super::error::check;
use super::raw::ClEvent;
use super::stream::wait_ptr;
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::Result;

/// `Driver::memcpy_peer`: waits for both devices' legacy default streams, copies, and waits.
///
/// # Safety
/// Both ranges are device memory that no Rust reference uses while the copy runs.
pub(crate) unsafe fn memcpy_peer(
    drv: &OpenClDriver,
    dst_device: usize,
    dst: DevicePtr,
    src_device: usize,
    src: DevicePtr,
    bytes: usize,
) -> Result<()> {
    crate::driver::callback::refuse_wait("a synchronous copy", "")?;
    drv.check_dev(dst, bytes)?;
    drv.check_dev(src, bytes)?;
    if bytes == 0 {
        return Ok(());
    }
    // Ordered after both devices' legacy default streams, as a synchronous copy is.
    let src_done = drv.enqueue_marker(src_device, StreamHandle::LEGACY)?;
    let q = &drv.device(dst_device)?.queues;
    q.submit_after(StreamHandle::LEGACY, &[src_done], |q, deps| {
        // SAFETY: both ranges were checked; SVM addresses are valid on every device of the
        // context.
        let e = check("clEnqueueSVMMemcpy(peer)", unsafe {
            enqueue_svm_mem_cpy(
                q,
                CL_NON_BLOCKING,
                as_mut(dst).cast(),
                as_mut(src).cast(),
                bytes,
                deps.len() as u32,
                wait_ptr(deps),
            )
        })?;
        // SAFETY: we own the command's event.
        Ok(unsafe { ClEvent::from_raw(e) })
    })?
    .wait()
}
