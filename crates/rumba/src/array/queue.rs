//! Where device-array work is queued, and when the caller gets control back.
//!
//! Every operation of a device array goes through one [`Queue`]:
//! - **wait** (no stream given, and for reads into host memory also a bound stream): the work is
//!   queued on the array's bound stream, or on the default stream (handle 0: the legacy default
//!   stream, or the calling thread's per-thread default stream when so configured) when it has
//!   none, and the queue synchronizes that stream before the operation returns — CUDA's
//!   semantics for synchronous calls, which keeps the order with earlier work of the bound
//!   stream. A guard synchronizes on every exit path (also an early `?`), so host memory handed
//!   to the device is never released while queued work may use it. Refused from a stream
//!   callback before anything is queued.
//! - **staged** (`*_on(&stream)`, and operations of a bound array that only take host data or
//!   stay on the device): asynchronous. Host memory is only borrowed for the call, so it is
//!   always taken before the call returns
//!   ([`Driver::memcpy_htod_staged`](crate::driver::Driver::memcpy_htod_staged)),
//!   whatever memory it is in. Device buffers are kept alive by the stream until the work has run.
//! - **scoped** (a [`StreamScope`](crate::StreamScope)): asynchronous, and host memory stays
//!   borrowed until the scope synchronizes, so copies from pinned memory are truly asynchronous.
//!
//! A queue holds a [`Lease`] of the reset gate for its whole life, and hands out the device
//! addresses of buffers only through it ([`Queue::addr`]): a handle from before a context reset is
//! refused there, before anything is queued (see [`crate::memory::gate`]).
//!
//! This module touches the driver and streams.

use std::sync::Arc;

use super::pageable;
use crate::driver::{
    DeviceCopy, DevicePtr, Driver, On, Order, StreamHandle, StridedCopy, StridedSource,
};
use crate::error::{Error, Result};
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Wait,
    Staged,
    Scoped,
}

/// A stream to queue device-array work on, with a completion rule.
pub(crate) struct Queue {
    driver: Arc<dyn Driver>,
    device: usize,
    handle: StreamHandle,
    stream: Option<Stream>,
    mode: Mode,
    /// Work was queued that the wait mode has not yet waited for.
    pending: bool,
    /// Wait mode: device buffers the queued work uses (temporaries the caller no longer holds),
    /// released only after the synchronization — when the queue is dropped (field order: after
    /// [`Drop::drop`] synchronized). A buffer released earlier could be freed by a deallocation
    /// flush (another thread's) while the work still reads it: a use after free on a backend
    /// whose free does not wait for the device (OpenCL's `clSVMFree`).
    held: Vec<DeviceBuffer>,
    /// Keeps a context reset out until the queue is done (dropped after `Drop::drop` waited).
    lease: Lease,
}

impl Queue {
    /// Synchronous work for `buf`: on `bound`, else on the default stream.
    ///
    /// # Errors
    /// Refused from a stream callback, before anything is queued: the operation would have to
    /// wait for device work from the thread that runs it. (Refusing only at the wait would leave
    /// the work queued behind an error — it would still run, into memory the caller got back.)
    pub(crate) fn wait(buf: &DeviceBuffer, bound: Option<&Stream>) -> Result<Queue> {
        match bound {
            Some(s) => Queue::on(s, buf, Mode::Wait),
            None => {
                refuse_waiting_in_callback()?;
                Ok(Queue {
                    driver: Arc::clone(buf.driver()),
                    device: buf.device(),
                    handle: StreamHandle::DEFAULT,
                    stream: None,
                    mode: Mode::Wait,
                    pending: false,
                    held: Vec::new(),
                    lease: Lease::enter()?,
                })
            }
        }
    }

    /// Work on `stream` for memory of `buf`'s device.
    ///
    /// # Errors
    /// A stream of another device; the wait mode from a stream callback (as [`Queue::wait`]).
    pub(crate) fn on(stream: &Stream, buf: &DeviceBuffer, mode: Mode) -> Result<Queue> {
        if mode == Mode::Wait {
            refuse_waiting_in_callback()?;
        }
        let device = stream.context().device_id();
        if device != buf.device() {
            return Err(Error::WrongDevice {
                what: "the array".into(),
                expected: device,
                found: buf.device(),
            });
        }
        Ok(Queue {
            driver: Arc::clone(stream.context().driver()),
            device,
            handle: stream.handle(),
            stream: Some(stream.clone()),
            mode,
            pending: false,
            held: Vec::new(),
            lease: Lease::enter()?,
        })
    }

    /// The device address of byte `offset` of `buf`, for work queued here.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed `buf`'s memory;
    /// [`Error::InvalidArgument`] for an offset past its end.
    pub(crate) fn addr(&self, buf: &DeviceBuffer, offset: usize) -> Result<DevicePtr> {
        buf.addr(&self.lease, offset, 0)
    }

    /// Queued on the queue's stream.
    fn queued(&self) -> On {
        On::stream(self.device, self.handle)
    }

    /// Refuses a copy between host and device memory on a capturing stream, before anything
    /// (a staging block's event, a copy) is queued: a graph does not own host memory.
    fn refuse_host_copy(&self, operation: &str) -> Result<()> {
        crate::driver::graph::refuse_if_capturing(
            &*self.driver,
            self.device,
            self.handle,
            operation,
            crate::driver::graph::HOST_COPY,
        )
    }

    /// Copies host bytes to the device.
    pub(crate) fn htod(&mut self, dst: DevicePtr, src: &[u8]) -> Result<()> {
        if src.is_empty() {
            return Ok(());
        }
        self.refuse_host_copy("a copy from host memory to the device")?;
        if self.mode == Mode::Wait && self.stream.is_none() {
            // A synchronous copy waits for the legacy stream itself and reads `src` right away.
            // SAFETY: `dst` addresses a device array's own allocation (device memory).
            return unsafe { self.driver.memcpy_htod(On::blocking(self.device), dst, src) };
        }
        self.pending = true;
        if self.mode == Mode::Staged {
            // The borrow of `src` ends when this returns: the bytes are taken now, whatever
            // memory they are in (not by the driver's table of pinned memory, which a leaked
            // guard can leave stale). More than a chunk goes through pinned chunks, pipelined
            // (not from a stream callback, where waiting for the stream could wait for itself).
            if let Some(stream) = &self.stream
                && src.len() > pageable::CHUNK
                && !crate::driver::callback::is_callback_thread()
            {
                // SAFETY: `dst..dst + src.len()` is a device array's own allocation (a run of a
                // checked copy plan), kept alive by the stream until the copy has run.
                return unsafe { pageable::upload(&self.driver, stream, dst, src) };
            }
            // SAFETY: `dst` is a device array's own allocation (device memory).
            return unsafe { self.driver.memcpy_htod_staged(self.queued(), dst, src) };
        }
        // SAFETY: `dst` is a device array's own allocation (device memory); wait mode
        // synchronizes (at `finish` or on drop) before `src`'s borrow can end; scoped mode borrows
        // `src` for the scope, which synchronizes before the borrow ends.
        unsafe { self.driver.memcpy_htod(self.queued(), dst, src) }
    }

    /// Copies device bytes into host memory at `dst`, and (except in scoped mode) waits for it.
    ///
    /// # Safety
    /// `dst` must be valid for writes of `len` bytes and not otherwise accessed until the copy
    /// has completed: until this returns, or in scoped mode until the scope synchronizes.
    pub(crate) unsafe fn dtoh(&mut self, dst: *mut u8, src: DevicePtr, len: usize) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        self.refuse_host_copy("a copy from the device to host memory")?;
        if self.mode != Mode::Scoped {
            // This waits for the copy below: refused before it is queued (a staged copy into
            // pinned memory would otherwise still run after the refused wait).
            refuse_waiting_in_callback()?;
        }
        self.pending = true;
        let dst = std::ptr::slice_from_raw_parts_mut(dst, len);
        // SAFETY: forwarded from the caller.
        unsafe { self.driver.memcpy_dtoh(self.queued(), dst, src)? };
        if self.mode != Mode::Scoped {
            self.sync_now()?;
        }
        Ok(())
    }

    /// Queues a strided device copy or fill.
    pub(crate) fn strided(&mut self, copy: &StridedCopy<'_>) -> Result<()> {
        self.pending = true;
        // SAFETY: callers pass device arrays' own allocations (device memory), kept alive by the
        // stream until the copy has run.
        unsafe {
            self.driver
                .copy_strided_async(self.device, copy, self.handle)
        }
    }

    /// Copies `bytes` contiguous bytes from `src` on another device into `dst` (a peer copy).
    /// Synchronous without a stream (ordered after both devices' default streams); otherwise
    /// queued on the queue's stream, ordered with it only.
    pub(crate) fn peer(
        &mut self,
        dst: DevicePtr,
        src_device: usize,
        src: DevicePtr,
        bytes: usize,
    ) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let order = if self.mode == Mode::Wait && self.stream.is_none() {
            Order::Blocking
        } else {
            self.pending = true;
            Order::Stream(self.handle)
        };
        let on = On {
            device: self.device,
            order,
        };
        // SAFETY: both ranges are device arrays' own allocations (device memory); on a stream the
        // caller keeps both buffers alive until the stream has run the copy.
        unsafe {
            self.driver
                .memcpy_peer(on, src_device, DeviceCopy { dst, src, bytes })
        }
    }

    /// Queues a fill of `dst` described by its shape and strides with `value`.
    pub(crate) fn fill(
        &mut self,
        shape: &[usize],
        dst: DevicePtr,
        dst_strides: &[isize],
        value: &[u8],
    ) -> Result<()> {
        self.strided(&StridedCopy {
            shape,
            itemsize: value.len(),
            dst,
            dst_strides,
            src: StridedSource::Fill(value),
        })
    }

    /// Waits for everything queued so far on the queue's stream.
    pub(crate) fn sync_now(&mut self) -> Result<()> {
        self.pending = false;
        self.driver.stream_synchronize(self.device, self.handle)
    }

    /// Keeps device buffers used by queued work alive until the stream has run it: the stream
    /// holds them in the asynchronous modes, the queue until it has synchronized in the wait
    /// mode.
    pub(crate) fn keep(&mut self, buffers: Vec<DeviceBuffer>) -> Result<()> {
        if !self.pending {
            return Ok(());
        }
        match (&self.stream, self.mode) {
            (Some(s), Mode::Staged | Mode::Scoped) => s.hold(buffers),
            (_, Mode::Wait) => {
                self.held.extend(buffers);
                Ok(())
            }
            (None, _) => Ok(()),
        }
    }

    /// Completes the operation: the wait mode synchronizes; the others return at once.
    pub(crate) fn finish(mut self) -> Result<()> {
        if self.mode == Mode::Wait && self.pending {
            return self.sync_now();
        }
        Ok(())
    }
}

/// The refusal of an operation that waits for device work, when called from a stream callback.
fn refuse_waiting_in_callback() -> Result<()> {
    crate::driver::callback::refuse_wait(
        "a synchronous array operation",
        "queue it on a stream with the *_on form instead",
    )
}

impl Drop for Queue {
    fn drop(&mut self) {
        // An operation that failed half-way in wait mode still must not return while queued work
        // may read host memory it borrowed.
        if self.mode == Mode::Wait && self.pending {
            let _ = self.driver.stream_synchronize(self.device, self.handle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wait mode keeps the buffers its work uses until it has synchronized: a temporary
    /// handed back earlier could be freed by a deallocation flush on another thread while the
    /// work still reads it (a use after free where the free does not wait for the device, as
    /// OpenCL's `clSVMFree`; the simulator's queued work owns its ranges, so it cannot show it).
    #[test]
    fn the_wait_mode_holds_kept_buffers_until_it_has_synchronized() {
        let ctx = crate::runtime::current_context().unwrap();
        let dst = ctx.memalloc(64).unwrap();
        let mut idle = Queue::wait(&dst, None).unwrap();
        idle.keep(vec![ctx.memalloc(16).unwrap()]).unwrap();
        assert!(idle.held.is_empty(), "nothing queued, nothing to hold");
        let mut q = Queue::wait(&dst, None).unwrap();
        let at = q.addr(&dst, 0).unwrap();
        q.fill(&[64], at, &[1], &[7]).unwrap();
        q.keep(vec![ctx.memalloc(16).unwrap(), dst.clone()])
            .unwrap();
        assert_eq!(q.held.len(), 2, "held until the queue has waited");
        q.finish().unwrap();
        let mut out = [0u8; 64];
        dst.copy_to_host_at_impl(0, &mut out).unwrap();
        assert_eq!(out, [7u8; 64]);
    }
}
