//! `impl Driver for SimDriver`: each call of the driver trait, checked and handed to the file that
//! does the work (the address space, stream workers, the host registry, the kernel engine).

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::event::SimEvent;
use super::inflight::Touch;
use super::stream::{SimStream, StreamOwner};
use super::{SendPtr, SimDriver, bytes, invalid_handle, stream};
use crate::driver::graph::{INTERNAL_EVENT, WAITS};
use crate::driver::{
    BackendKind, DeviceCopy, DeviceInfo, DevicePtr, Driver, EventHandle, HostAllocFlags,
    HostCallback, KernelLaunch, ManagedAttach, On, Order, PageLocking, StreamHandle, StridedCopy,
};
use crate::error::{Error, Result};
use crate::sync::lock;

// SAFETY: host and managed memory come from fresh anonymous mappings (zeroed, exclusively
// ours) that live until freed; the device reaches host memory only through the
// registry's bounds-checked mappings, in the operations callers queue.
unsafe impl Driver for SimDriver {
    fn backend(&self) -> BackendKind {
        BackendKind::Sim
    }

    fn device_count(&self) -> usize {
        self.devices.len()
    }

    fn device_info(&self, device: usize) -> Result<DeviceInfo> {
        let dev = self.device(device)?;
        Ok(DeviceInfo {
            ordinal: dev.ordinal,
            name: format!("rumba simulated GPU {}", dev.ordinal),
            total_memory: dev.memory.capacity(),
            compute_capability: None,
            multiprocessors: crate::driver::sim::engine::helpers::block_workers() as u32,
            warp_size: 32,
            max_threads_per_block: 1024,
            max_shared_memory_per_block: 48 * 1024,
            page_locking: self.host.page_locking().clone(),
        })
    }

    fn mem_info(&self, device: usize) -> Result<(usize, usize)> {
        Ok(self.device(device)?.memory.info())
    }

    fn allocator(&self, device: usize) -> String {
        let _ = device;
        "sim: simulated device memory (mem_alloc / mem_free)".into()
    }

    fn mem_alloc(&self, device: usize, bytes: usize) -> Result<DevicePtr> {
        self.device(device)?.memory.alloc(bytes)
    }

    fn mem_free(&self, device: usize, ptr: DevicePtr) -> Result<()> {
        self.device(device)?.memory.free(ptr)
    }

    fn host_alloc(&self, device: usize, bytes: usize, flags: HostAllocFlags) -> Result<*mut u8> {
        self.device(device)?;
        let spaces = self.spaces();
        self.host.alloc(bytes, flags, device, &spaces)
    }

    unsafe fn host_free(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        self.host.free(ptr, &spaces)
    }

    unsafe fn host_register(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> Result<()> {
        self.device(device)?;
        let spaces = self.spaces();
        // SAFETY: forwarded from the caller's contract.
        unsafe { self.host.register(ptr, bytes, flags, device, &spaces) }
    }

    unsafe fn host_unregister(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        self.host.unregister(ptr, &spaces)
    }

    fn host_device_pointer(&self, device: usize, ptr: *mut u8) -> Result<DevicePtr> {
        self.device(device)?;
        self.host.device_pointer(ptr, device)
    }

    fn is_host_pinned(&self, ptr: *const u8, bytes: usize) -> bool {
        self.host.contains(ptr, bytes)
    }

    unsafe fn memcpy_htod(&self, on: On, dst: DevicePtr, src: *const [u8]) -> Result<()> {
        let len = src.len();
        if len == 0 {
            return Ok(());
        }
        self.refuse_host_copy(on, "a copy from host memory")?;
        if on.order != Order::Blocking && !self.is_host_pinned(src.cast(), len) {
            // SAFETY: the caller guarantees `src` is valid for `len` bytes during this call; the
            // device range is the caller's promise.
            return unsafe { self.memcpy_htod_staged(on, dst, &*src) };
        }
        let d = self.resolve(on.device, dst, len)?;
        let touches = vec![Touch::write(&d)];
        let src = SendPtr(src.cast::<u8>().cast_mut());
        let copy = move || {
            let src = &src;
            // SAFETY: `d` is a live, bounds-checked device range of `len` bytes; the caller keeps
            // `src` valid until the copy has completed (until this call returns, or until the
            // stream has run it from pinned memory).
            unsafe { bytes::host_to_device(d.addr(), src.0, len) };
        };
        self.run_host_copy(on, touches, copy).map(drop)
    }

    unsafe fn memcpy_htod_staged(&self, on: On, dst: DevicePtr, src: &[u8]) -> Result<()> {
        let Order::Stream(stream) = on.order else {
            // SAFETY: the device range is the caller's promise; a blocking copy has read the
            // borrowed `src` when it returns.
            return unsafe { self.memcpy_htod(on, dst, src) };
        };
        if src.is_empty() {
            return Ok(());
        }
        self.refuse_host_copy(on, "a copy from host memory")?;
        let d = self.resolve(on.device, dst, src.len())?;
        let touches = vec![Touch::write(&d)];
        let staged = self.staging.stage(src);
        let work: stream::Work = Box::new(move || {
            // SAFETY: the staged buffer and the device range are both owned by this operation.
            unsafe {
                bytes::host_to_device(d.addr(), staged.bytes().as_ptr(), staged.bytes().len())
            };
            Ok(())
        });
        self.enqueue(on.device, stream, touches, work).map(drop)
    }

    unsafe fn memcpy_dtoh(&self, on: On, dst: *mut [u8], src: DevicePtr) -> Result<()> {
        let len = dst.len();
        if len == 0 {
            return Ok(());
        }
        self.refuse_host_copy(on, "a copy into host memory")?;
        // Blocking, the source is memory of `on.device`; queued, of any device.
        let s = match on.order {
            Order::Blocking => self.resolve(on.device, src, len)?,
            Order::Stream(_) => self.resolve_any(src, len)?,
        };
        let touches = vec![Touch::read(&s)];
        let pinned = self.is_host_pinned(dst.cast(), len);
        if on.order != Order::Blocking && !pinned {
            crate::driver::callback::refuse_wait("a copy into pageable host memory", "")?;
        }
        let dst = SendPtr(dst.cast::<u8>());
        let copy = move || {
            let dst = &dst;
            // SAFETY: `s` is a live, bounds-checked device range; the caller keeps `dst` valid and
            // otherwise unaccessed until the copy has completed.
            unsafe { bytes::device_to_host(dst.0, s.addr(), len) };
        };
        let Some((st, seq)) = self.run_host_copy(on, touches, copy)? else {
            return Ok(());
        };
        if !pinned {
            // Pageable destination: CUDA returns only once the copy is done. (Not from a stream
            // callback, which would wait for itself: `refuse_wait` refused that above.)
            st.wait_for(seq);
            st.take_error()?;
        }
        Ok(())
    }

    unsafe fn memcpy_dtod(&self, on: On, copy: DeviceCopy) -> Result<()> {
        if copy.bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(on.device, copy.dst, copy.bytes)?;
        let s = self.resolve_any(copy.src, copy.bytes)?;
        self.copy_resolved(on, d, s, copy.bytes)
    }

    unsafe fn memset(&self, on: On, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(on.device, dst, bytes)?;
        self.run_on(on, vec![Touch::write(&d)], move || {
            // SAFETY: live and bounds-checked.
            unsafe { bytes::fill(d.addr(), value, bytes) };
        })
    }

    unsafe fn copy_strided_async(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        self.copy_strided(device, copy, stream)
    }

    fn device_can_access_peer(&self, device: usize, peer: usize) -> Result<bool> {
        self.can_access_peer(device, peer)
    }

    unsafe fn memcpy_peer(&self, on: On, src_device: usize, copy: DeviceCopy) -> Result<()> {
        if copy.bytes == 0 {
            return Ok(());
        }
        let d = self.resolve(on.device, copy.dst, copy.bytes)?;
        let s = self.resolve(src_device, copy.src, copy.bytes)?;
        if on.order == Order::Blocking {
            // A synchronous peer copy waits for both devices' default streams.
            self.wait_default_point(src_device)?;
        }
        self.copy_resolved(on, d, s, copy.bytes)
    }

    fn stream_create(&self, device: usize, non_blocking: bool) -> Result<StreamHandle> {
        let dev = self.device(device)?;
        let handle = StreamHandle(self.next_handle.fetch_add(1, Ordering::Relaxed));
        let s = SimStream::spawn(handle, !non_blocking)?;
        if s.blocking {
            dev.register_blocking(&s);
        }
        lock(&dev.streams).insert(handle.0, StreamOwner(s));
        Ok(handle)
    }

    fn stream_destroy(&self, device: usize, stream: StreamHandle) -> Result<()> {
        let dev = self.device(device)?;
        let removed = lock(&dev.streams).remove(&stream.0);
        match removed {
            Some(owner) => {
                dev.retire(&owner.0);
                self.captures.forget_stream(device, stream);
                Ok(()) // dropping the owner lets the worker drain and exit
            }
            None => Err(invalid_handle("stream", stream.0, device)),
        }
    }

    fn stream_synchronize(&self, device: usize, stream: StreamHandle) -> Result<()> {
        crate::driver::callback::refuse_wait("stream synchronize", "")?;
        self.captures
            .refuse(device, stream, "stream synchronize", WAITS)?;
        let (_, s) = self.stream(device, stream)?;
        s.synchronize()
    }

    fn stream_query(&self, device: usize, stream: StreamHandle) -> Result<bool> {
        self.captures
            .refuse(device, stream, "stream query", WAITS)?;
        let (_, s) = self.stream(device, stream)?;
        Ok(s.is_idle())
    }

    fn stream_wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<()> {
        let ev = self.event(device, event)?;
        let (dev, s) = self.stream(device, stream)?;
        if self.captures.wait_event(device, stream, event)? {
            return Ok(()); // an edge inside a graph, or `stream` joined a capture
        }
        if let Some(dep) = ev.dependency() {
            let mut deps = dev.ordering_deps(&s);
            deps.push(dep);
            s.push_work(deps, Box::new(|| Ok(())));
        }
        Ok(())
    }

    fn stream_add_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        callback: HostCallback,
    ) -> Result<()> {
        let (dev, s) = self.stream(device, stream)?;
        self.captures.refuse(
            device,
            stream,
            "a one-shot host callback",
            "a graph runs its callbacks on every replay; record a repeatable one",
        )?;
        let deps = dev.ordering_deps(&s);
        s.push_notify(deps, callback);
        Ok(())
    }

    fn stream_keepalive(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn Any + Send>,
    ) -> Result<()> {
        let (_, s) = self.stream(device, stream)?;
        let Err(value) = self.captures.keep(device, stream, value) else {
            return Ok(()); // the graph keeps it
        };
        // No ordering dependencies needed: the stream's own order is what matters.
        s.push_notify(Vec::new(), Box::new(move |_| drop(value)));
        Ok(())
    }

    fn event_create(&self, device: usize, timing: bool) -> Result<EventHandle> {
        let dev = self.device(device)?;
        let handle = self.next_handle.fetch_add(1, Ordering::Relaxed);
        lock(&dev.events).insert(handle, Arc::new(SimEvent::new(timing)));
        Ok(EventHandle(handle))
    }

    fn event_destroy(&self, device: usize, event: EventHandle) -> Result<()> {
        lock(&self.device(device)?.events)
            .remove(&event.0)
            .map(drop)
            .ok_or_else(|| invalid_handle("event", event.0, device))
    }

    fn event_record(&self, device: usize, event: EventHandle, stream: StreamHandle) -> Result<()> {
        let ev = self.event(device, event)?;
        let (dev, s) = self.stream(device, stream)?;
        self.captures
            .refuse(device, stream, "recording an event", INTERNAL_EVENT)?;
        // Outside a capture: an earlier record of the event inside one is forgotten.
        self.captures.record_event(device, event, stream);
        let deps = dev.ordering_deps(&s);
        ev.record(&s, deps);
        Ok(())
    }

    fn event_synchronize(&self, device: usize, event: EventHandle) -> Result<()> {
        crate::driver::callback::refuse_wait("event synchronize", "")?;
        self.captures
            .refuse_captured_event(device, event, "event synchronize")?;
        self.event(device, event)?.synchronize()
    }

    fn event_query(&self, device: usize, event: EventHandle) -> Result<bool> {
        self.captures
            .refuse_captured_event(device, event, "event query")?;
        Ok(self.event(device, event)?.query())
    }

    fn event_elapsed_ms(&self, device: usize, start: EventHandle, end: EventHandle) -> Result<f32> {
        let a = self.event(device, start)?;
        let b = self.event(device, end)?;
        a.elapsed_ms(&b)
    }

    fn device_idle(&self, device: usize) -> Result<bool> {
        Ok(self
            .device(device)?
            .all_streams()
            .iter()
            .all(|s| s.is_idle()))
    }

    fn device_synchronize(&self, device: usize) -> Result<()> {
        let dev = self.device(device)?;
        self.captures.refuse_device_sync(device)?;
        let streams = dev.all_streams();
        if streams.iter().any(|s| s.is_own_worker()) {
            return Err(Error::InCallback {
                operation: "device synchronize".into(),
                reason: "it would wait forever for the stream that runs the callback",
                instead: "",
            });
        }
        let mut first = Ok(());
        for s in streams {
            let r = s.synchronize();
            if first.is_ok() {
                first = r;
            }
        }
        first
    }

    unsafe fn stream_adopt(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.stream(device, stream).map(drop)
    }

    fn mem_get_address_range(&self, device: usize, ptr: DevicePtr) -> Result<(DevicePtr, usize)> {
        self.device(device)?.memory.allocation_of(ptr)
    }

    fn ipc(&self) -> Result<&dyn crate::driver::Ipc> {
        Ok(self)
    }

    fn host_page_locking(&self, ptr: *const u8) -> Option<PageLocking> {
        self.host.locking(ptr)
    }

    /// Managed memory on the sim: zeroed host pages (not page-locked) mapped into the address
    /// space of every device, so any device addresses it through
    /// [`host_device_pointer`](Driver::host_device_pointer).
    fn mem_alloc_managed(&self, device: usize, bytes: usize) -> Result<*mut u8> {
        self.device(device)?;
        if bytes == 0 {
            return Err(Error::ZeroSizeAllocation {
                memory: "managed memory",
            });
        }
        let spaces = self.spaces();
        let ptr = self
            .host
            .alloc_with(bytes, HostAllocFlags::SHARED, device, &spaces, false)?;
        self.pages.add(ptr, bytes);
        Ok(ptr)
    }

    /// The sim models a device with concurrent managed access: host-attached managed memory is
    /// allocated and addressed exactly like globally attached memory.
    fn mem_alloc_managed_attached(
        &self,
        device: usize,
        bytes: usize,
        _attach: ManagedAttach,
    ) -> Result<*mut u8> {
        self.mem_alloc_managed(device, bytes)
    }

    unsafe fn mem_free_managed(&self, ptr: *mut u8) -> Result<()> {
        let spaces = self.spaces();
        // Out of the page table first: once freed, the address may be another allocation's.
        let pages = self.pages.take(ptr);
        let freed = self.host.free(ptr, &spaces);
        if freed.is_err()
            && let Some(pages) = pages
        {
            self.pages.put(ptr, pages);
        }
        freed
    }

    fn placement(&self) -> Option<&dyn crate::driver::Placement> {
        Some(self)
    }

    fn graphs(&self) -> Option<&dyn crate::driver::Graphs> {
        Some(self)
    }

    unsafe fn launch_kernel(
        &self,
        device: usize,
        launch: &KernelLaunch<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        self.launch(device, launch, stream)
    }
}
