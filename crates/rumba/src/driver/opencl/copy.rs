//! Copies and fills of the OpenCL driver: the SVM commands they queue, how each runs blocking or
//! on a stream ([`On`]), and copies between devices.
//!
//! A blocking copy or memset is refused in a stream callback, queued on the default stream (handle
//! 0: the legacy one, or the thread's own with per-thread default streams) and waited for, as
//! CUDA's synchronous calls behave; [`issue`](OpenClDriver::issue) writes that once for the
//! operations whose stream form does all the checking. Every device of the driver shares one
//! context, so an SVM address is valid on all of them: a peer copy is an SVM copy on the
//! destination device's queue, and the blocking one is ordered after the source device's legacy
//! default stream too, as CUDA orders `cuMemcpyPeer`.
//!
//! This module touches the queues of the driver's devices.

use opencl3::command_queue::{enqueue_svm_mem_cpy, enqueue_svm_mem_fill};
use opencl3::types::{CL_NON_BLOCKING, cl_command_queue, cl_event};

use super::driver::{OpenClDriver, as_mut};
use super::error::check;
use super::raw::ClEvent;
use super::stream::wait_ptr;
use crate::driver::{DeviceCopy, DevicePtr, On, Order, StreamHandle};
use crate::error::Result;

/// The refusal of a blocking operation (`what`) in a stream callback, which may not wait.
pub(super) fn refuse_blocking(on: On, what: &str) -> Result<()> {
    if on.order == Order::Blocking {
        crate::driver::callback::refuse_wait(what, "")?;
    }
    Ok(())
}

/// `clEnqueueSVMMemcpy` (named `call` in errors) of `bytes` from `src` to `dst` on `q`, after
/// `deps`; its event.
///
/// # Safety
/// `q` and the events of `deps` are live; both ranges stay valid until the copy has run.
unsafe fn svm_copy(
    call: &str,
    q: cl_command_queue,
    deps: &[cl_event],
    dst: *mut u8,
    src: *const u8,
    bytes: usize,
) -> Result<ClEvent> {
    let n = deps.len() as u32;
    // SAFETY: the caller vouches for the queue, the wait list and both ranges.
    let e = check(call, unsafe {
        enqueue_svm_mem_cpy(
            q,
            CL_NON_BLOCKING,
            dst.cast(),
            src.cast(),
            bytes,
            n,
            wait_ptr(deps),
        )
    })?;
    // SAFETY: we own the command's event.
    Ok(unsafe { ClEvent::from_raw(e) })
}

impl OpenClDriver {
    /// Runs an operation that `queue` puts on a stream (checks included) as `on` says: on its
    /// stream; or blocking — refused in a stream callback (as `what`), queued on the default
    /// stream and, unless it has no `bytes`, waited for.
    pub(super) fn issue(
        &self,
        on: On,
        what: &str,
        bytes: usize,
        queue: impl FnOnce(StreamHandle) -> Result<()>,
    ) -> Result<()> {
        let Order::Stream(stream) = on.order else {
            refuse_blocking(on, what)?;
            queue(StreamHandle::DEFAULT)?;
            if bytes == 0 {
                return Ok(());
            }
            return self
                .enqueue_marker(on.device, StreamHandle::DEFAULT)?
                .wait();
        };
        queue(stream)
    }

    /// Queues an SVM copy on `stream` and returns its event.
    ///
    /// # Safety
    /// Both ranges must stay valid until the copy has run.
    pub(super) unsafe fn enqueue_copy(
        &self,
        device: usize,
        dst: *mut u8,
        src: *const u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<ClEvent> {
        self.device(device)?.queues.submit(stream, |q, deps| {
            // SAFETY: the caller vouches for both ranges; `q` and `deps` are live.
            unsafe { svm_copy("clEnqueueSVMMemcpy", q, deps, dst, src, bytes) }
        })
    }

    /// Queues a fill of `bytes` at `dst` with `value` on `stream`.
    ///
    /// # Safety
    /// The range must stay valid until the fill has run.
    pub(super) unsafe fn enqueue_fill(
        &self,
        device: usize,
        dst: DevicePtr,
        value: u8,
        bytes: usize,
        stream: StreamHandle,
    ) -> Result<()> {
        let pattern = [value];
        self.device(device)?.queues.submit(stream, |q, deps| {
            // SAFETY: the caller vouches for the range; OpenCL copies the one-byte pattern when
            // queued.
            let e = check("clEnqueueSVMMemFill", unsafe {
                enqueue_svm_mem_fill(
                    q,
                    as_mut(dst).cast(),
                    pattern.as_ptr().cast(),
                    1,
                    bytes,
                    deps.len() as u32,
                    wait_ptr(deps),
                )
            })?;
            // SAFETY: we own the command's event.
            Ok(unsafe { ClEvent::from_raw(e) })
        })?;
        Ok(())
    }
}

/// A blocking `Driver::memcpy_peer` into `dst_device`: waits for both devices' legacy default
/// streams, copies, and waits.
///
/// # Safety
/// Both ranges are device memory that no Rust reference uses while the copy runs.
pub(super) unsafe fn copy_blocking(
    drv: &OpenClDriver,
    dst_device: usize,
    src_device: usize,
    copy: DeviceCopy,
) -> Result<()> {
    let DeviceCopy { dst, src, bytes } = copy;
    crate::driver::callback::refuse_wait("a synchronous copy", "")?;
    drv.check_dev(dst, bytes)?;
    drv.check_dev(src, bytes)?;
    if bytes == 0 {
        return Ok(());
    }
    // Ordered after both devices' legacy default streams, as a synchronous copy is.
    let src_done = drv.enqueue_marker(src_device, StreamHandle::LEGACY)?;
    let q = &drv.device(dst_device)?.queues;
    let (dst, src) = (as_mut(dst), as_mut(src));
    q.submit_after(StreamHandle::LEGACY, &[src_done], |q, deps| {
        // SAFETY: both ranges were checked; SVM addresses are valid on every device of the
        // context; `q` and `deps` are live.
        unsafe { svm_copy("clEnqueueSVMMemcpy(peer)", q, deps, dst, src, bytes) }
    })?
    .wait()
}
