//! Copies and memsets for [`CudaDriver`]: one path that runs a call blocking or queued on a
//! stream ([`CudaDriver::issue`]), uploads from pageable memory staged through page-locked blocks
//! (`staging.rs` says why), and the built-in strided-copy kernel.
//!
//! Blocking means complete: CUDA's synchronous copies and memsets may return before the device
//! has finished (a device-to-device copy, a memset of device memory, the DMA of a pageable
//! upload), so a blocking operation waits for the stream it ran on.
//!
//! This module touches the CUDA driver's copy, memset and launch calls.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUresult};

use super::driver::CudaDriver;
use super::error::{check, map};
use super::flags::cu_stream;
use super::staging::STAGE_MAX;
use super::strided::{launch_shape, pack};
use crate::driver::graph::HOST_COPY;
use crate::driver::{DevicePtr, On, Order, StreamHandle, StridedCopy};
use crate::error::Result;

/// A copy or memset as [`CudaDriver::issue`] makes it: the name of its synchronous call (the
/// queued one adds `Async`) and, for a copy of host memory, the operation a capturing stream
/// refuses.
pub(super) type Call = (&'static str, Option<&'static str>);
pub(super) const HTOD: Call = ("cuMemcpyHtoD", Some("a copy from host memory"));
pub(super) const DTOH: Call = ("cuMemcpyDtoH", Some("a copy into host memory"));
pub(super) const DTOD: Call = ("cuMemcpyDtoD", None);
pub(super) const MEMSET: Call = ("cuMemsetD8", None);

impl CudaDriver {
    /// Runs the copy or memset `call` as `on` says; `op` makes the call: the synchronous one
    /// given no stream, the queued one given a stream. Blocking: the synchronous call followed by
    /// a wait for the legacy stream, or with per-thread default streams the queued one on
    /// `CU_STREAM_PER_THREAD`, waited for. On a stream: queued there, refused on a capturing
    /// stream when it copies host memory.
    pub(super) fn issue(
        &self,
        on: On,
        call: Call,
        op: impl FnOnce(Option<sys::CUstream>) -> CUresult,
    ) -> Result<()> {
        let (name, host) = call;
        let Order::Stream(stream) = on.order else {
            self.bind(on.device)?;
            if !self.per_thread_default {
                check(name, op(None))?;
                return self.finish_legacy();
            }
            let s = cu_stream(StreamHandle::PER_THREAD);
            check(name, op(Some(s)))?;
            // SAFETY: the per-thread default stream is always valid in a current context.
            return check("cuStreamSynchronize", unsafe {
                sys::cuStreamSynchronize(s)
            });
        };
        let s = self.stream(stream)?;
        self.bind(on.device)?;
        if let Some(operation) = host {
            self.graphs
                .captures
                .refuse(on.device, stream, operation, HOST_COPY)?;
        }
        match op(Some(s)) {
            CUresult::CUDA_SUCCESS => Ok(()),
            r => Err(map(&format!("{name}Async"), r)),
        }
    }

    /// Whether a stream-ordered upload of `n` bytes from `p` goes through a staging block:
    /// pageable memory, not empty, at most [`STAGE_MAX`] bytes (`staging.rs` says why).
    pub(super) fn stages(&self, p: *const u8, n: usize) -> bool {
        n > 0 && n <= STAGE_MAX && !self.pinned_contains(p, n)
    }

    /// Copies `src` into a page-locked block and queues its upload to `dst` on `stream`; the
    /// block is kept until an event behind the copy has completed.
    ///
    /// # Safety
    /// `dst..dst + src.len()` is device memory the caller may write in `stream`'s order.
    pub(super) unsafe fn upload_staged(
        &self,
        device: usize,
        stream: StreamHandle,
        dst: DevicePtr,
        src: &[u8],
    ) -> Result<()> {
        let s = self.stream(stream)?;
        self.bind(device)?; // the block is allocated in the device's context
        let block = self.staging.stage(src)?;
        let on = On {
            device,
            order: Order::Stream(stream),
        };
        // SAFETY: `dst` is the caller's promise; the block is page-locked, holds `src.len()`
        // bytes and is neither written nor reused until the keep-alive below drops it, after the
        // copy has run. On an error (a capture's refusal included) nothing was queued and the
        // block goes back.
        self.issue(on, HTOD, |q| unsafe {
            sys::cuMemcpyHtoDAsync_v2(dst, block.ptr().cast(), src.len(), q.unwrap_or(s))
        })?;
        if let Err((e, block)) = self.keep(device, stream, s, Box::new(block)) {
            std::mem::forget(block); // the queued copy may still read it: leaked, never reused
            return Err(e);
        }
        Ok(())
    }

    /// Waits for the bound context's legacy default stream. CUDA's synchronous copies and memsets
    /// return before a device-to-device copy, a memset of device memory or the DMA of a pageable
    /// upload has completed; a blocking operation promises completion, so it waits for it here.
    pub(super) fn finish_legacy(&self) -> Result<()> {
        // SAFETY: the null stream is the legacy default stream of the bound context.
        check("cuStreamSynchronize", unsafe {
            sys::cuStreamSynchronize(std::ptr::null_mut())
        })
    }

    pub(super) unsafe fn strided_copy(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let mut params = pack(copy)?;
        if params.count == 0 {
            return Ok(());
        }
        // One device-to-device copy or memset instead of the element kernel.
        // SAFETY: forwarded from the caller's contract (both ranges are device memory that lives
        // until the stream has run the copy).
        if let Some(r) = unsafe { copy.queue_plain(self, On::stream(device, stream)) } {
            return r;
        }
        let s = self.stream(stream)?;
        let cc = self.bind(device)?.cc;
        let f =
            self.modules
                .function(device, cc, "strided_copy.cu", "rumba_strided_copy_kernel")?;
        let (blocks, threads) = launch_shape(params.count);
        let mut args = [(&mut params as *mut super::strided::StridedCopyParams).cast::<c_void>()];
        // SAFETY: `f` takes exactly one argument, `struct rumba_strided_copy`, which
        // `StridedCopyParams` mirrors (#[repr(C)], layout unit-tested); the device ranges are the
        // caller's contract. The parameter block is copied by the launch call.
        check("cuLaunchKernel(rumba_strided_copy_kernel)", unsafe {
            sys::cuLaunchKernel(
                f,
                blocks,
                1,
                1,
                threads,
                1,
                1,
                0,
                s,
                args.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
    }
}
