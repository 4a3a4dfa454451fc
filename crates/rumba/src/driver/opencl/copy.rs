//! Copies and memsets of the OpenCL driver: how each runs blocking or on a stream ([`On`]), the
//! SVM copy command, and copies between devices.
//!
//! A blocking copy or memset is refused in a stream callback, queued on the default stream (handle
//! 0: the legacy one, or the thread's own with per-thread default streams) and waited for, as
//! CUDA's synchronous calls behave; [`issue`](OpenClDriver::issue) runs both orders of the
//! operations that touch only device memory ([`DeviceOp`]). Every device of the driver shares one
//! context, so an SVM address is valid on all of them: a peer copy is an SVM copy on the
//! destination device's queue, and the blocking one runs on the destination's legacy default
//! stream, ordered after the source device's legacy default stream too, as CUDA orders
//! `cuMemcpyPeer`.
//!
//! This module touches the queues of the driver's devices.

use opencl3::command_queue::enqueue_svm_mem_fill;
use opencl3::types::{cl_command_queue, cl_event};

use super::batch;
use super::driver::{OpenClDriver, as_mut};
use super::error::check;
use super::graph_node::ClNode;
use super::raw::ClEvent;
use super::stream::wait_ptr;
use crate::driver::{DeviceCopy, DevicePtr, On, Order, StreamHandle};
use crate::error::Result;

/// The refusal of a blocking operation (`what`) in a stream callback, which may not wait.
fn refuse_blocking(on: On, what: &str) -> Result<()> {
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
    let mut event: cl_event = std::ptr::null_mut();
    // SAFETY: the caller vouches for the queue, the wait list and both ranges; `event` is a
    // place for the command's event.
    unsafe { batch::svm_copy(call, q, dst, src, bytes, deps, &raw mut event)? };
    // SAFETY: the copy was queued and wrote its event, whose reference we own.
    Ok(unsafe { ClEvent::from_raw(event) })
}

/// A copy or memset that touches only device memory, as [`OpenClDriver::issue`] runs it.
#[derive(Debug, Clone, Copy)]
pub(super) enum DeviceOp {
    /// `Driver::memcpy_dtod`.
    Copy(DeviceCopy),
    /// `Driver::memset`: `bytes` at `dst` set to `value`.
    Set {
        dst: DevicePtr,
        value: u8,
        bytes: usize,
    },
}

impl DeviceOp {
    /// What it is called when refused blocking in a stream callback.
    fn what(self) -> &'static str {
        match self {
            DeviceOp::Copy(_) => "a synchronous copy",
            DeviceOp::Set { .. } => "a synchronous memset",
        }
    }
}

impl OpenClDriver {
    /// Runs `op` as `on` says: its ranges checked against the table, then nothing for no bytes;
    /// on a stream being captured it is recorded instead of queued. Blocking, it is refused first
    /// in a stream callback, runs on the default stream, and is waited for.
    ///
    /// # Safety
    /// The ranges stay allocated, and unused by Rust references, until it has run.
    pub(super) unsafe fn issue(&self, on: On, op: DeviceOp) -> Result<()> {
        let stream = match on.order {
            Order::Blocking => {
                refuse_blocking(on, op.what())?;
                StreamHandle::DEFAULT
            }
            Order::Stream(stream) => stream,
        };
        let (node, bytes) = match op {
            DeviceOp::Copy(copy) => {
                self.check_dev(copy.dst, copy.bytes)?;
                self.check_dev(copy.src, copy.bytes)?;
                (ClNode::Copy(copy), copy.bytes)
            }
            DeviceOp::Set { dst, value, bytes } => {
                self.check_dev(dst, bytes)?;
                (ClNode::Memset { dst, value, bytes }, bytes)
            }
        };
        if bytes == 0 {
            return Ok(());
        }
        match self
            .graphs
            .captures
            .capture_node(on.device, stream, || node)
        {
            Some(recorded) => recorded?,
            // SAFETY: the ranges were checked against live allocations; their lifetime is the
            // caller's contract.
            None => unsafe { self.enqueue(on.device, stream, op) }?,
        }
        match on.order {
            Order::Blocking => self
                .enqueue_marker(on.device, StreamHandle::DEFAULT)?
                .wait(),
            Order::Stream(_) => Ok(()),
        }
    }

    /// Queues the command of `op` on `stream`: an SVM copy or an SVM fill.
    ///
    /// # Safety
    /// The ranges must stay valid until it has run.
    unsafe fn enqueue(&self, device: usize, stream: StreamHandle, op: DeviceOp) -> Result<()> {
        let (dst, value, bytes) = match op {
            DeviceOp::Copy(c) => {
                // SAFETY: forwarded from the caller's contract.
                let e = unsafe {
                    self.enqueue_copy(device, as_mut(c.dst), as_mut(c.src), c.bytes, stream)
                };
                return e.map(drop);
            }
            DeviceOp::Set { dst, value, bytes } => (dst, value, bytes),
        };
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

    /// The checks a copy between host memory and the device range `[ptr, ptr + len)` starts
    /// with: refused when blocking in a stream callback, then the range checked against the
    /// table; `false` when there is nothing to copy.
    pub(super) fn check_host_copy(&self, on: On, ptr: DevicePtr, len: usize) -> Result<bool> {
        refuse_blocking(on, "a synchronous copy")?;
        self.check_dev(ptr, len)?;
        Ok(len > 0)
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
