//! [`OpenClDriver`]: the [`Driver`] trait on OpenCL, one context over the chosen devices of one
//! platform.
//!
//! Device memory is coarse-grained SVM (`clSVMAlloc`): a device pointer is the SVM address, so
//! offsets, views and pointer arithmetic work exactly as on the other backends, and one allocation
//! is valid on every device of the context (cross-device copies need nothing special). Copies and
//! fills are `clEnqueueSVMMemcpy` / `clEnqueueSVMMemFill` on in-order queues (see
//! [`stream`](super::stream) for the ordering rules); synchronous variants queue on the default
//! stream (handle 0: the legacy one, or the thread's own with per-thread default streams) and
//! wait, as CUDA's do. Every device range is checked against the backend's
//! table first ([`memory`](super::memory)), so a wild pointer is a typed error, not a crash.
//!
//! Host → device copies from pageable memory are staged: the bytes are copied into a buffer the
//! stream owns until the copy has run, so the call returns once the data has been taken (CUDA's
//! behaviour). Device → host copies into pageable memory wait for the copy. Fresh device memory
//! is zeroed before it is handed out, so safe code never reads a previous allocation's bytes.
//!
//! This module touches OpenCL through the backend's other modules.

use std::sync::Arc;

use opencl3::command_queue::enqueue_marker_with_wait_list;
use opencl3::memory::svm_free;
use opencl3::types::{cl_context, cl_device_id};

use super::builtin::Builtins;
use super::copy::DeviceOp;
use super::error::check;
use super::event::Events;
use super::graph_node::{ClNode, NodeKernel};
use super::host::{self, HostCaps};
use super::launch;
use super::memory::{Kind, Table};
use super::platform::DeviceSurvey;
use super::raw::{ClContext, ClEvent};
use super::stream::{DeviceQueues, wait_ptr};
use super::strided;
use crate::driver::graph::ONE_SHOT;
use crate::driver::graph::{HOST_COPY, INTERNAL_EVENT, WAITS};
use crate::driver::{
    BackendKind, DeviceCopy, DeviceInfo, DevicePtr, Driver, EventHandle, GrainKind, HostAllocFlags,
    HostCallback, KernelLaunch, ManagedAttach, On, Order, PageLocking, StreamHandle, StridedCopy,
};
use crate::error::{Error, Result};

/// One device of the driver.
pub(crate) struct OclDevice {
    pub(crate) id: cl_device_id,
    pub(crate) survey: DeviceSurvey,
    pub(crate) queues: Arc<DeviceQueues>,
}

/// The OpenCL backend's driver.
pub struct OpenClDriver {
    pub(crate) platform: String,
    /// Declared before `context` so that queues are released first.
    pub(crate) devices: Vec<OclDevice>,
    pub(crate) table: Table,
    pub(crate) events: Events,
    pub(crate) builtins: Builtins,
    pub(crate) kernels: launch::UserKernels,
    pub(crate) page_locking: PageLocking,
    /// `RUMBA_OPENCL_MEMORY`: a cap on each device's memory.
    pub(crate) memory_cap: Option<usize>,
    /// Stream capture and graph replay (`graph.rs`, `replay.rs`).
    pub(crate) graphs: super::replay::ClGraphs,
    pub(crate) context: ClContext,
}

// SAFETY: the raw device ids are immutable handles passed only to thread-safe OpenCL calls; all
// mutable state is behind locks.
unsafe impl Send for OpenClDriver {}
// SAFETY: as above.
unsafe impl Sync for OpenClDriver {}

impl std::fmt::Debug for OpenClDriver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenClDriver")
            .field("platform", &self.platform)
            .field("devices", &self.devices.len())
            .finish()
    }
}

impl Drop for OpenClDriver {
    fn drop(&mut self) {
        for d in &self.devices {
            let _ = d.queues.synchronize_all();
        }
        self.kernels.release(self.context.raw());
        for (p, range) in self.table.drain() {
            if !matches!(range.kind, Kind::Registered { .. }) {
                host::release_leftover(self.context.raw(), p, &range);
            }
        }
    }
}

impl OpenClDriver {
    pub(crate) fn device(&self, device: usize) -> Result<&OclDevice> {
        self.devices.get(device).ok_or(Error::InvalidDevice {
            id: device,
            count: self.devices.len(),
        })
    }

    pub(super) fn ctx(&self) -> cl_context {
        self.context.raw()
    }

    /// What a kernel launch on `device` needs of the driver.
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] for an ordinal past the driver's devices.
    pub(super) fn launch_target(&self, device: usize) -> Result<launch::Target<'_>> {
        let d = self.device(device)?;
        Ok(launch::Target {
            context: self.ctx(),
            device,
            device_id: d.id,
            survey: &d.survey,
            queues: &d.queues,
            table: &self.table,
            kernels: &self.kernels,
        })
    }

    pub(super) fn host_caps(&self, device: usize, all: bool) -> Result<HostCaps> {
        let d = self.device(device)?;
        let fine_buffer = if all {
            self.devices.iter().all(|d| d.survey.svm.fine_buffer)
        } else {
            d.survey.svm.fine_buffer
        };
        Ok(HostCaps {
            fine_buffer,
            fine_system: d.survey.svm.fine_system,
        })
    }

    /// A marker on `stream` (completes when everything before it has).
    pub(crate) fn enqueue_marker(&self, device: usize, stream: StreamHandle) -> Result<ClEvent> {
        self.device(device)?.queues.submit(stream, |q, deps| {
            // SAFETY: `q` is live; the wait list holds live events.
            let e = check("clEnqueueMarkerWithWaitList", unsafe {
                enqueue_marker_with_wait_list(q, deps.len() as u32, wait_ptr(deps))
            })?;
            // SAFETY: we own the marker's event.
            Ok(unsafe { ClEvent::from_raw(e) })
        })
    }

    /// The device memory rumba may hand out: the global memory, capped by `RUMBA_OPENCL_MEMORY`.
    pub(super) fn total(&self, d: &OclDevice) -> usize {
        let global = d.survey.global_memory as usize;
        self.memory_cap.map_or(global, |cap| cap.min(global))
    }

    pub(crate) fn check_dev(&self, ptr: DevicePtr, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.table.check_device_range(ptr, bytes)
    }
}

pub(crate) fn as_mut(ptr: DevicePtr) -> *mut u8 {
    ptr as usize as *mut u8
}

// SAFETY: host and managed memory come from clSVMAlloc (fine-grained, host-accessible) or mmap,
// exclusively ours and zeroed before they are returned, and live until freed; the device reaches
// host memory only in the operations callers queue, and every device range is bounds-checked.
unsafe impl Driver for OpenClDriver {
    fn backend(&self) -> BackendKind {
        BackendKind::OpenCl
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_info(&self, device: usize) -> Result<DeviceInfo> {
        let d = &self.device(device)?.survey;
        Ok(DeviceInfo {
            ordinal: device,
            name: format!("{} ({})", d.name, self.platform),
            total_memory: self.total(self.device(device)?),
            compute_capability: None,
            multiprocessors: d.compute_units,
            // The warps rumba's OpenCL C emulates (the kernel prelude's `rb_warp_*`), not the
            // hardware's SIMD width (`d.warp_size`, where an extension tells it).
            warp_size: crate::driver::WARP_SIZE,
            max_threads_per_block: d.max_work_group.min(u32::MAX as u64) as u32,
            max_shared_memory_per_block: d.local_memory as usize,
            page_locking: self.page_locking.clone(),
        })
    }

    fn mem_info(&self, device: usize) -> Result<(usize, usize)> {
        let total = self.total(self.device(device)?);
        Ok((total.saturating_sub(self.table.used(device)), total))
    }

    fn allocator(&self, device: usize) -> String {
        let _ = device;
        "opencl: coarse-grained SVM (clSVMAlloc / clSVMFree), zeroed when allocated".into()
    }

    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        self.alloc_device(device, bytes)
    }

    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.device(device)?;
        let range = self
            .table
            .remove(ptr as usize, |r| r.kind == Kind::Device { device })
            .ok_or_else(|| Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!("not the start of a live allocation of OpenCL device {device}"),
            })?;
        // SAFETY: allocated by clSVMAlloc in this context; the caller guarantees no queued work
        // still uses it (rumba's keep-alives), and it is out of the table.
        unsafe { check("clSVMFree", svm_free(self.ctx(), as_mut(ptr).cast()))? };
        self.table.unreserve(device, range.len);
        Ok(())
    }

    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        let caps = self.host_caps(device, flags.portable)?;
        host::alloc(
            &self.table,
            self.ctx(),
            &self.page_locking,
            caps,
            device,
            bytes,
            flags,
        )
    }

    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()> {
        host::free(&self.table, self.ctx(), ptr, false)
    }

    unsafe fn host_register(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<()> {
        let caps = self.host_caps(device, flags.portable)?;
        // SAFETY: forwarded from the caller's contract.
        unsafe {
            host::register(
                &self.table,
                &self.page_locking,
                caps,
                device,
                ptr,
                bytes,
                flags,
            )
        }
    }

    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()> {
        host::unregister(&self.table, ptr)
    }

    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr> {
        self.device(device)?;
        host::device_pointer(&self.table, ptr, device)
    }

    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool {
        self.table.is_pinned_host(ptr as usize, bytes)
    }

    fn host_page_locking(&self, ptr: *const u8) -> Option<PageLocking> {
        host::page_locking(&self.table, ptr)
    }

    unsafe fn memcpy_htod(&self, on: On, dst: DevicePtr, src: *const [u8]) -> Result<()> {
        let (p, len) = (src.cast::<u8>(), src.len());
        if !self.check_host_copy(on, dst, len)? {
            return Ok(());
        }
        let Order::Stream(stream) = on.order else {
            // SAFETY: `dst` was checked; the caller keeps `src` valid until the wait returns.
            let e = unsafe {
                self.enqueue_copy(on.device, as_mut(dst), p, len, StreamHandle::DEFAULT)
            }?;
            return e.wait();
        };
        self.graphs
            .captures
            .refuse(on.device, stream, "a copy from host memory", HOST_COPY)?;
        if self.is_host_pinned(p, len) {
            // SAFETY: the caller keeps pinned `src` valid until the stream has run the copy.
            unsafe { self.enqueue_copy(on.device, as_mut(dst), p, len, stream) }?;
            return Ok(());
        }
        // Pageable: the bytes are taken now.
        // SAFETY: the caller guarantees `src` is valid for `len` bytes during this call; the
        // device range was checked.
        unsafe { self.memcpy_htod_staged(on, dst, &*src) }
    }

    unsafe fn memcpy_htod_staged(&self, on: On, dst: DevicePtr, src: &[u8]) -> Result<()> {
        let Order::Stream(stream) = on.order else {
            // SAFETY: the device range is the caller's promise; a blocking copy has read the
            // borrowed `src` when it returns.
            return unsafe { self.memcpy_htod(on, dst, src) };
        };
        let len = src.len();
        if !self.check_host_copy(on, dst, len)? {
            return Ok(());
        }
        self.graphs
            .captures
            .refuse(on.device, stream, "a copy from host memory", HOST_COPY)?;
        // One copy of the bytes, which the stream keeps until the copy has run.
        let staged: Arc<[u8]> = src.into();
        // SAFETY: `dst` was checked; `staged` stays valid and unwritten until the stream has run
        // the copy (`keep_or_leak` has the stream hold it, or leaks it).
        unsafe { self.enqueue_copy(on.device, as_mut(dst), staged.as_ptr(), len, stream) }?;
        crate::driver::api::keep_or_leak(self, on.device, stream, staged)
    }

    unsafe fn memcpy_dtoh(&self, on: On, dst: *mut [u8], src: DevicePtr) -> Result<()> {
        let (p, len) = (dst.cast::<u8>(), dst.len());
        if !self.check_host_copy(on, src, len)? {
            return Ok(());
        }
        let (stream, wait) = match on.order {
            Order::Blocking => (StreamHandle::DEFAULT, true),
            Order::Stream(stream) => {
                self.graphs.captures.refuse(
                    on.device,
                    stream,
                    "a copy into host memory",
                    HOST_COPY,
                )?;
                let pinned = self.is_host_pinned(p, len);
                if !pinned {
                    crate::driver::callback::refuse_wait("a copy into pageable host memory", "")?;
                }
                (stream, !pinned)
            }
        };
        // SAFETY: `src` was checked; the caller keeps `dst` valid and otherwise unaccessed until
        // the copy has run (this call waits for it unless it is queued into pinned memory).
        let e = unsafe { self.enqueue_copy(on.device, p, as_mut(src), len, stream) }?;
        if wait { e.wait() } else { Ok(()) }
    }

    unsafe fn memcpy_dtod(&self, on: On, copy: DeviceCopy) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.issue(on, DeviceOp::Copy(copy)) }
    }

    unsafe fn memset(&self, on: On, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.issue(on, DeviceOp::Set { dst, value, bytes }) }
    }

    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let d = self.device(device)?;
        let Some(params) = strided::prepare(&self.table, copy)? else {
            return Ok(());
        };
        // One SVM copy or fill instead of the element kernel, which decomposes every index (on
        // PoCL a 64 MiB copy took several times a 5-point stencil pass over the same array).
        // SAFETY: `prepare` checked both ranges; their lifetime is the caller's contract.
        if let Some(r) = unsafe { copy.queue_plain(self, On::stream(device, stream)) } {
            return r;
        }
        let built =
            self.builtins
                .get(self.ctx(), device, d.id, "strided_copy.cl", strided::ENTRY)?;
        let max_work_group = d.survey.max_work_group as usize;
        if self.graphs.captures.is_capturing(device, stream) {
            let node = NodeKernel::strided(&built, &params, max_work_group)?;
            if let Some(r) = (self.graphs.captures)
                .capture_node(device, stream, || ClNode::Kernel(Arc::new(node)))
            {
                return r;
            }
        }
        // SAFETY: the ranges were checked by `prepare`; their lifetime is the caller's contract.
        unsafe { strided::launch(&d.queues, &built, max_work_group, &params, stream) }
    }

    fn device_can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        self.device(device)?;
        self.device(peer)?;
        // One context holds every device: an SVM allocation is valid on all of them.
        Ok(device != peer)
    }

    unsafe fn memcpy_peer(&self, on: On, src_device: usize, copy: DeviceCopy) -> Result<()> {
        if on.order == Order::Blocking {
            // SAFETY: forwarded from the caller's contract.
            return unsafe { super::copy::copy_blocking(self, on.device, src_device, copy) };
        }
        self.device(src_device)?;
        // SAFETY: forwarded; SVM addresses are valid on every device of the context, and the
        // ranges are checked inside.
        unsafe { self.memcpy_dtod(on, copy) }
    }

    fn mem_get_address_range(&self, device: usize, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        self.device(device)?;
        match self.table.find(ptr as usize) {
            Some((start, r))
                if r.kind == Kind::Device { device } && (ptr as usize) < start + r.len =>
            {
                Ok((start as DevicePtr, r.len))
            }
            _ => Err(Error::InvalidAddress {
                ptr,
                len: 0,
                reason: format!("not inside a live allocation of OpenCL device {device}"),
            }),
        }
    }

    fn mem_alloc_managed_attached(
        &self,
        device: usize,
        bytes: usize,
        attach: ManagedAttach,
    ) -> Result<*mut u8> {
        // Fine-grained SVM is coherent for host and device at all times, so host-attached
        // managed memory needs nothing more than globally attached memory.
        let _ = attach;
        self.mem_alloc_managed(device, bytes)
    }

    /// Fine-grained SVM for both kinds: coherent while device work runs, which keeps the
    /// coarse-grained promise too. Coarse-grained SVM would need the host to map and unmap it
    /// around every access, and rumba's host arrays read their memory directly.
    fn host_alloc_grained(&self, device: usize, bytes: usize, grain: GrainKind) -> Result<*mut u8> {
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "grained host memory",
            });
        }
        if !self.host_caps(device, true)?.fine_buffer {
            return Err(Error::Unsupported {
                backend: "opencl".into(),
                feature: format!("{grain} host memory"),
                reason: "it needs fine-grained buffer SVM on every device, which this platform's devices lack".into(),
            });
        }
        self.host_alloc(device, bytes, HostAllocFlags::SHARED)
    }

    unsafe fn host_free_grained(&self, ptr: *mut u8, grain: GrainKind) -> Result<()> {
        let _ = grain;
        host::free(&self.table, self.ctx(), ptr, false)
    }

    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle> {
        self.device(device)?.queues.create(non_blocking)
    }

    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.device(device)?.queues.destroy(stream)?;
        self.graphs.captures.forget_stream(device, stream);
        Ok(())
    }

    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.graphs
            .captures
            .refuse(device, stream, "stream synchronize", WAITS)?;
        self.device(device)?.queues.synchronize(stream)
    }

    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool> {
        self.graphs
            .captures
            .refuse(device, stream, "stream query", WAITS)?;
        self.device(device)?.queues.query(stream)
    }

    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()> {
        let d = self.device(device)?;
        self.events.check(device, event)?;
        if self.graphs.captures.wait_event(device, stream, event)? {
            return Ok(()); // an edge inside a graph, or `stream` joined a capture
        }
        let Some(record) = self.events.record(device, event)? else {
            return Ok(()); // never recorded: nothing to wait for, as on CUDA
        };
        d.queues.submit(stream, |q, deps| {
            let mut list: Vec<_> = deps.to_vec();
            list.push(record.raw());
            // SAFETY: `q` is live; every event in the list is live (`record` is held).
            let e = check("clEnqueueBarrierWithWaitList", unsafe {
                opencl3::command_queue::enqueue_barrier_with_wait_list(
                    q,
                    list.len() as u32,
                    list.as_ptr(),
                )
            })?;
            // SAFETY: we own the barrier's event.
            Ok(unsafe { ClEvent::from_raw(e) })
        })?;
        Ok(())
    }

    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()> {
        self.graphs
            .captures
            .refuse(device, stream, "a one-shot host callback", ONE_SHOT)?;
        self.device(device)?.queues.add_callback(stream, callback)
    }

    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn std::any::Any + Send>,
    ) -> Result<()> {
        match self.graphs.captures.keep(device, stream, value) {
            Ok(()) => Ok(()),
            Err(value) => self
                .device(device)?
                .queues
                .add_callback(stream, Box::new(move |_| drop(value))),
        }
    }

    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle> {
        self.device(device)?;
        Ok(self.events.create(device, timing))
    }

    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()> {
        self.device(device)?;
        self.events.destroy(device, event)
    }

    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        self.events.check(device, event)?;
        self.graphs
            .captures
            .refuse(device, stream, "recording an event", INTERNAL_EVENT)?;
        // Outside a capture: an earlier record of the event inside one is forgotten.
        self.graphs.captures.record_event(device, event, stream);
        let marker = self.enqueue_marker(device, stream)?;
        self.events.set_record(device, event, marker)
    }

    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()> {
        self.graphs
            .captures
            .refuse_captured_event(device, event, "event synchronize")?;
        match self.events.record(device, event)? {
            Some(r) if !r.is_done()? => {
                crate::driver::callback::refuse_wait("event synchronize", "")?;
                r.wait()
            }
            Some(r) => r.wait(),
            None => Ok(()),
        }
    }

    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool> {
        self.graphs
            .captures
            .refuse_captured_event(device, event, "event query")?;
        match self.events.record(device, event)? {
            Some(r) => {
                let s = r.status()?;
                if s < 0 {
                    Err(super::error::map("the work before the event", s))
                } else {
                    Ok(s == 0)
                }
            }
            None => Ok(true),
        }
    }

    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32> {
        if !self.device(device)?.survey.profiling {
            return Err(Error::Unsupported {
                backend: "opencl".into(),
                feature: "event timing".into(),
                reason: format!(
                    "OpenCL device {device} cannot time commands (no CL_QUEUE_PROFILING_ENABLE)"
                ),
            });
        }
        self.events.elapsed_ms(device, start, end)
    }

    fn device_synchronize(&self, device: usize) -> Result<()> {
        self.graphs.captures.refuse_device_sync(device)?;
        self.device(device)?.queues.synchronize_all()
    }

    fn device_idle(&self, device: usize) -> Result<bool> {
        self.device(device)?.queues.idle()
    }

    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.device(device)?.queues.adopt(stream) }
    }

    fn ipc(&self) -> Result<&dyn crate::driver::Ipc> {
        Err(Error::Unsupported {
            backend: "opencl".into(),
            feature: "IPC memory handles".into(),
            reason: "OpenCL has no inter-process sharing of device memory".into(),
        })
    }

    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        let caps = self.host_caps(device, false)?;
        host::alloc_managed(&self.table, self.ctx(), caps, device, bytes)
    }

    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        host::free(&self.table, self.ctx(), ptr, true)
    }

    unsafe fn launch_kernel(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let target = self.launch_target(device)?;
        if let Some(r) = self.capture_launch(&target, launch, stream) {
            return r;
        }
        // SAFETY: forwarded from the caller's contract; array ranges are checked inside.
        unsafe { launch::launch(&target, launch, stream) }
    }

    fn graphs(&self) -> Option<&dyn crate::driver::Graphs> {
        Some(self)
    }
}
