//! Kernel faults on CUDA: the fault records of `#[rumba::kernel]` launches, read back when their
//! stream (or the device) is synchronized, so that an out-of-bounds index, a failed `assert!` or
//! a bad view is the same [`Error::KernelFault`] — kernel, block, thread, index, site — at the
//! same synchronization as on the simulator and OpenCL.
//!
//! How (`crates/rumba-kernel-ir/ABI.md` §5): every launch of a kernel with a generated signature
//! ([`KernelFunction::abi`](crate::driver::KernelFunction::abi)) gets its own zeroed 128-byte
//! record in device memory as its hidden last parameter; the first faulting thread fills it.
//! Records come from *arenas* of [`ARENA_SLOTS`] records, handed out in order per stream, so
//! that a synchronization reads every record of its stream with one copy per arena — nothing is
//! queued per launch (no memset, no copy), which keeps the launch as cheap as without records.
//!
//! Why it is sound and reports at the right synchronization:
//! - A record is handed out, the kernel queued and the record registered as pending on its
//!   stream under one lock ([`DeviceFaults`]); a synchronization takes the stream's pending
//!   records *and their arenas* under that lock before it waits. So every record it takes
//!   belongs to a launch queued on that stream before the wait began, which the wait covers, and
//!   no launch can be handed a slot of an arena that a synchronization is about to read and
//!   recycle (later launches get other arenas).
//! - Streams are keyed as the driver orders them: the legacy default stream (handles 0 and 1),
//!   each thread's per-thread default stream (handle 2, or 0 with per-thread default streams
//!   configured), and each created stream.
//! - Reading back and re-zeroing use a private non-blocking stream, waited for at once: they
//!   never wait for (or deadlock with) the program's streams, and a recycled arena is zero
//!   before any launch can get it. An arena goes back to the free list only after its records
//!   were read (and zeroed again where a fault was recorded).
//! - `stream_query` that finds a stream idle reads its records too (a program that only polls
//!   does not pile them up); what it finds waits for that stream's next synchronization. A
//!   stream destroyed with records pending or work left has an event recorded before it goes:
//!   its records are read once the event has completed, at the latest by the next device
//!   synchronization, which reports their faults (as the simulator reports faults of destroyed
//!   streams there) and waits for the event (`cuCtxSynchronize` does not wait for a destroyed
//!   stream's host callbacks).
//!
//! - A host callback (`async_done` among them) is told of a fault of the kernels queued before
//!   it, as on the simulator and OpenCL, although CUDA forbids driver calls on its callback
//!   thread and a callback that waits for device work can deadlock the driver (the fourth H100
//!   run hung so: an earlier version read the records from a thread of ours while the callback
//!   waited for it). So when the callback is queued, the stream's pending records are downloaded
//!   on the stream itself, behind the kernels, into a page-locked staging block ([`Peek`]); when
//!   the callback runs they have arrived, and it decodes them without a driver call. They stay
//!   pending, so the stream's next synchronization reports the fault too.
//!
//! The bookkeeping ([`Records`], [`Batch`]) is pure and unit-tested; the driver calls are below.
//!
//! This module touches the CUDA driver (record arenas, their private stream, the waits).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use cudarc::driver::sys::{self, CUresult};
use rumba_kernel_ir::abi::{FAULT_RECORD_BYTES, KernelAbi};

use super::driver::CudaDriver;
use super::error::{check, map};
use super::flags::default_resolved;
use super::staging::Block;
use crate::driver::kernel::device_fault;
use crate::driver::{DevicePtr, StreamHandle};
use crate::error::{Error, Result};

/// Bytes of one fault record.
pub(crate) const RECORD_BYTES: usize = FAULT_RECORD_BYTES;
/// Records per arena: 256 × 128 bytes = 32 KiB of device memory.
pub(crate) const ARENA_SLOTS: usize = 256;

/// The stream whose synchronization reports a launch's fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// The legacy default stream (handles 0 and 1).
    Legacy,
    /// One thread's per-thread default stream.
    PerThread(u64),
    /// A created (or adopted) stream.
    Stream(u64),
}

static NEXT_THREAD: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static THREAD: u64 = NEXT_THREAD.fetch_add(1, Ordering::Relaxed);
}

/// The key of `handle` on the calling thread.
pub(crate) fn key(handle: StreamHandle, per_thread_default: bool) -> Key {
    match default_resolved(handle, per_thread_default).0 {
        0 | 1 => Key::Legacy,
        2 => Key::PerThread(THREAD.with(|t| *t)),
        h => Key::Stream(h),
    }
}

/// A launch whose record has not been read yet.
#[derive(Debug, Clone)]
struct Pending {
    addr: DevicePtr,
    kernel: String,
    abi: &'static KernelAbi,
}

/// Records to read together: arenas (base, records handed out) and the launches using them.
#[derive(Debug, Default, Clone)]
pub(crate) struct Batch {
    arenas: Vec<(DevicePtr, usize)>,
    pending: Vec<Pending>,
}

impl Batch {
    fn append(&mut self, other: Batch) {
        self.arenas.extend(other.arenas);
        self.pending.extend(other.pending);
    }

    fn is_empty(&self) -> bool {
        self.arenas.is_empty()
    }

    /// Each arena's base and the bytes of records handed out from it, in order.
    fn layout(&self) -> impl Iterator<Item = (DevicePtr, usize)> + '_ {
        self.arenas
            .iter()
            .map(|&(base, used)| (base, used * RECORD_BYTES))
    }

    /// Reads every arena with `read(base, bytes)` and decodes the records of the pending
    /// launches: the first fault (in launch order) and the arenas holding any fault (to be zeroed
    /// before reuse). Later faults are logged.
    fn decode(
        &self,
        mut read: impl FnMut(DevicePtr, usize) -> Result<Vec<u8>>,
    ) -> Result<(Option<Error>, Vec<DevicePtr>)> {
        let mut bytes = HashMap::new();
        for (base, n) in self.layout().filter(|&(_, n)| n > 0) {
            bytes.insert(base, read(base, n)?);
        }
        let (mut first, mut dirty) = (None, Vec::new());
        for p in &self.pending {
            let Some((&base, data)) = bytes
                .iter()
                .find(|(b, d)| p.addr >= **b && p.addr < **b + d.len() as u64)
            else {
                continue;
            };
            let off = (p.addr - base) as usize;
            let Some(rec) = data.get(off..off + RECORD_BYTES) else {
                continue;
            };
            let Some(e) = device_fault(&p.kernel, p.abi, rec) else {
                continue;
            };
            if !dirty.contains(&base) {
                dirty.push(base);
            }
            if first.is_none() {
                first = Some(e);
            } else {
                tracing::warn!("a later kernel fault in the same synchronization: {e}");
            }
        }
        Ok((first, dirty))
    }
}

/// Per device: free arenas, each stream's records, records of destroyed streams, and faults
/// found before their synchronization (pure bookkeeping).
#[derive(Debug, Default)]
pub(crate) struct Records {
    /// Zeroed arenas, free for any stream.
    free: Vec<DevicePtr>,
    open: HashMap<Key, Batch>,
    /// Records of destroyed streams, with the event recorded before the destruction (0: none;
    /// read by the next device synchronization).
    retired: Vec<(usize, Batch)>,
    /// Faults found by a query, waiting for their stream's synchronization.
    found: HashMap<Key, Error>,
    /// Faults of destroyed streams, waiting for the device's synchronization.
    found_retired: Option<Error>,
}

impl Records {
    /// A zeroed record for a launch on `key`: the next one of the stream's arena, or the first of
    /// a free arena (from `fresh` when none is free).
    fn slot(&mut self, key: Key, fresh: impl FnOnce() -> Result<DevicePtr>) -> Result<DevicePtr> {
        let batch = self.open.entry(key).or_default();
        match batch.arenas.last_mut() {
            Some((base, used)) if *used < ARENA_SLOTS => {
                let addr = *base + (*used * RECORD_BYTES) as u64;
                *used += 1;
                Ok(addr)
            }
            _ => {
                let base = match self.free.pop() {
                    Some(b) => b,
                    None => fresh()?,
                };
                let batch = self.open.entry(key).or_default();
                batch.arenas.push((base, 1));
                Ok(base)
            }
        }
    }

    /// Registers the launch that uses the record at `addr` on `key`.
    fn launched(&mut self, key: Key, addr: DevicePtr, kernel: &str, abi: &'static KernelAbi) {
        self.open.entry(key).or_default().pending.push(Pending {
            addr,
            kernel: kernel.to_string(),
            abi,
        });
    }

    /// The stream's records and arenas (it starts afresh).
    fn take(&mut self, key: Key) -> Batch {
        self.open.remove(&key).unwrap_or_default()
    }

    /// Puts records back (a query found the stream busy).
    fn restore(&mut self, key: Key, mut batch: Batch) {
        if let Some(newer) = self.open.remove(&key) {
            batch.append(newer);
        }
        if !batch.is_empty() {
            self.open.insert(key, batch);
        }
    }

    /// Every record of the device, destroyed streams' included, and the events of the latter.
    fn take_all(&mut self) -> (Batch, Vec<usize>) {
        let mut all = Batch::default();
        for (_, b) in self.open.drain() {
            all.append(b);
        }
        let mut events = Vec::new();
        for (e, b) in self.retired.drain(..) {
            events.push(e);
            all.append(b);
        }
        (all, events)
    }

    /// Arenas whose records were read (and zeroed where they held a fault): free again.
    fn give_back(&mut self, arenas: impl IntoIterator<Item = DevicePtr>) {
        self.free.extend(arenas);
    }

    /// The first fault found for `key` before its synchronization.
    fn found(&mut self, key: Key) -> Option<Error> {
        self.found.remove(&key)
    }
}

/// One device's fault records and the private stream that reads and zeroes them.
#[derive(Default)]
pub(crate) struct DeviceFaults {
    records: Mutex<Records>,
    /// A non-blocking stream of rumba's own (a `CUstream`; 0 until first needed).
    private: Mutex<usize>,
}

impl DeviceFaults {
    fn lock(&self) -> MutexGuard<'_, Records> {
        crate::sync::lock(&self.records)
    }
}

impl CudaDriver {
    fn faults(&self, device: usize) -> Result<&DeviceFaults> {
        self.faults.get(device).ok_or(Error::InvalidDevice {
            id: device,
            count: self.faults.len(),
        })
    }

    /// The key of the stream `handle`, its device's records and the stream's pending records,
    /// taken out of them.
    fn take_batch(
        &self,
        device: usize,
        handle: StreamHandle,
    ) -> Result<(Key, &DeviceFaults, Batch)> {
        let k = key(handle, self.per_thread_default);
        let f = self.faults(device)?;
        let batch = f.lock().take(k);
        Ok((k, f, batch))
    }

    /// The private stream of `device` (its context is current).
    fn private_stream(&self, device: usize) -> Result<sys::CUstream> {
        let f = self.faults(device)?;
        let mut s = crate::sync::lock(&f.private);
        if *s == 0 {
            let mut h = std::ptr::null_mut();
            // SAFETY: writes one stream handle; the device's context is current.
            check("cuStreamCreate(fault records)", unsafe {
                sys::cuStreamCreate(&mut h, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32)
            })?;
            *s = h as usize;
        }
        Ok(*s as sys::CUstream)
    }

    /// Zeroes `bytes` at `ptr` on the private stream and waits.
    fn zero(&self, device: usize, ptr: DevicePtr, bytes: usize) -> Result<()> {
        let s = self.private_stream(device)?;
        // SAFETY: `ptr` is an arena of ours that no queued work uses (fresh, or read back after
        // its stream completed).
        check("cuMemsetD8Async(fault records)", unsafe {
            sys::cuMemsetD8Async(ptr, 0, bytes, s)
        })?;
        // SAFETY: a stream of ours.
        check("cuStreamSynchronize(fault records)", unsafe {
            sys::cuStreamSynchronize(s)
        })
    }

    /// A fresh, zeroed arena (the device's context is current).
    fn new_arena(&self, device: usize) -> Result<DevicePtr> {
        let bytes = ARENA_SLOTS * RECORD_BYTES;
        let mut p = 0;
        // SAFETY: writes one device pointer; a context is current.
        check("cuMemAlloc(fault records)", unsafe {
            sys::cuMemAlloc_v2(&mut p, bytes)
        })?;
        if let Err(e) = self.zero(device, p, bytes) {
            // SAFETY: nothing used the arena yet.
            let _ = unsafe { sys::cuMemFree_v2(p) };
            return Err(e);
        }
        Ok(p)
    }

    /// Queues a kernel with a fault record: `launch(record)` queues it on the stream of `key`
    /// (the device's context is current). The record is handed out, the kernel queued and the
    /// record registered under one lock (see the module docs).
    pub(super) fn launch_with_record(
        &self,
        device: usize,
        handle: StreamHandle,
        kernel: &str,
        abi: &'static KernelAbi,
        launch: impl FnOnce(DevicePtr) -> Result<()>,
    ) -> Result<()> {
        let k = key(handle, self.per_thread_default);
        let f = self.faults(device)?;
        let mut records = f.lock();
        let addr = records.slot(k, || self.new_arena(device))?;
        launch(addr)?;
        records.launched(k, addr, kernel, abi);
        Ok(())
    }

    /// Reads `batch` on the private stream: the first fault; its arenas are free again.
    fn read_back(&self, device: usize, batch: Batch) -> Result<Option<Error>> {
        if batch.is_empty() {
            return Ok(None);
        }
        // The arena's records were written by kernels that completed (their stream was waited
        // for).
        let (first, dirty) = batch.decode(copy_back(self.private_stream(device)?))?;
        for &(base, used) in batch.arenas.iter().filter(|(b, _)| dirty.contains(b)) {
            self.zero(device, base, used * RECORD_BYTES)?;
        }
        self.faults(device)?
            .lock()
            .give_back(batch.arenas.iter().map(|(b, _)| *b));
        Ok(first)
    }

    /// What a host callback queued now on `handle` checks when it runs: the records of the
    /// launches queued on the stream before it, downloaded on that stream into a page-locked
    /// block (so they have arrived when the callback runs, which then makes no driver call), and
    /// a fault a query already found (module docs); `None` when there is nothing to check. The
    /// device's context is current, `stream` is `handle`'s `CUstream`.
    ///
    /// The downloads are queued here: the caller must queue the callback next, and if it cannot,
    /// must leak the [`Peek`] (its block may still be written).
    pub(super) fn peek_before_callback(
        &self,
        device: usize,
        handle: StreamHandle,
        stream: sys::CUstream,
    ) -> Result<Option<Peek>> {
        let k = key(handle, self.per_thread_default);
        let f = self.faults(device)?;
        // The block is allocated without the records' lock (`cuMemHostAlloc` may wait), then
        // the batch is read again and its downloads queued under the lock: a synchronization or
        // query that takes the batch to recycle its arenas then waits for the downloads (they
        // are on the stream it waits for), never the other way round.
        let mut block: Option<Block> = None;
        loop {
            let r = f.lock();
            if let Some(found) = r.found.get(&k).cloned() {
                return Ok(Some(Peek {
                    found: Some(found),
                    ..Peek::default()
                }));
            }
            let Some(batch) = r.open.get(&k).filter(|b| !b.pending.is_empty()) else {
                return Ok(None);
            };
            let total: usize = batch.layout().map(|(_, n)| n).sum();
            match block.take() {
                Some(b) if total <= b.len() => {
                    let batch = batch.clone();
                    let block = download(b, &batch, stream);
                    drop(r);
                    return Ok(Some(Peek {
                        batch,
                        block: Some(block?),
                        found: None,
                    }));
                }
                // First pass, or more records arrived meanwhile: a block of the new size.
                _ => {
                    drop(r);
                    block = Some(self.staging.block(total)?);
                }
            }
        }
    }

    /// `cuStreamSynchronize`, then the first fault of the kernels it covered (or one a query
    /// found earlier). The device's context is current.
    pub(super) fn synchronize_stream(
        &self,
        device: usize,
        handle: StreamHandle,
        stream: sys::CUstream,
    ) -> Result<()> {
        let (k, f, batch) = self.take_batch(device, handle)?;
        // SAFETY: a valid stream handle.
        check("cuStreamSynchronize", unsafe {
            sys::cuStreamSynchronize(stream)
        })?;
        let fault = self.read_back(device, batch)?;
        let earlier = f.lock().found(k);
        earlier.or(fault).map_or(Ok(()), Err)
    }

    /// `cuStreamQuery`; when the stream is idle its records are read, and a fault waits for its
    /// next synchronization.
    pub(super) fn query_stream(
        &self,
        device: usize,
        handle: StreamHandle,
        stream: sys::CUstream,
    ) -> Result<bool> {
        if crate::driver::callback::is_callback_thread() {
            // No copies from a callback: the records wait for the next synchronization.
            self.faults(device)?;
            return stream_idle(stream);
        }
        let (k, f, batch) = self.take_batch(device, handle)?;
        let idle = stream_idle(stream);
        if !matches!(idle, Ok(true)) {
            // Busy (or the query failed): the records wait for a later look.
            f.lock().restore(k, batch);
            return idle;
        }
        if let Some(e) = self.read_back(device, batch)? {
            f.lock().found.entry(k).or_insert(e);
        }
        Ok(true)
    }

    /// Before `stream` is destroyed: if it has pending records or work left, an event is
    /// recorded on it now; its records are read once the event has completed (by a later
    /// destruction) or by the next device synchronization, which also waits for the event. The
    /// device's context is current.
    pub(super) fn retire_stream(
        &self,
        device: usize,
        handle: StreamHandle,
        stream: sys::CUstream,
    ) -> Result<()> {
        let (k, f, batch) = self.take_batch(device, handle)?;
        let earlier = f.lock().found(k);
        if let Some(e) = earlier {
            f.lock().found_retired.get_or_insert(e);
        }
        if crate::driver::callback::is_callback_thread() {
            // No driver calls beyond the destruction itself: the next device synchronization
            // reads them.
            if !batch.is_empty() {
                f.lock().retired.push((0, batch));
            }
            return Ok(());
        }
        // A stream with work left gets an event even without records: `cuCtxSynchronize` does
        // not wait for the host callbacks of a destroyed stream (the fourth H100 run), so the
        // device's synchronization waits for the event.
        if batch.is_empty() && stream_idle(stream).unwrap_or(false) {
            return Ok(());
        }
        let mut e = std::ptr::null_mut();
        // SAFETY: writes one event handle; a context is current.
        let made = check("cuEventCreate(fault records)", unsafe {
            sys::cuEventCreate(&mut e, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32)
        })
        // SAFETY: a fresh event and a valid stream.
        .and_then(|()| check("cuEventRecord", unsafe { sys::cuEventRecord(e, stream) }));
        if let Err(err) = made {
            if !e.is_null() {
                // SAFETY: the event created above, recorded nowhere; destroyed once.
                unsafe { sys::cuEventDestroy_v2(e) };
            }
            // The arenas cannot be known idle: they are leaked, never reused.
            tracing::error!(
                "a stream destroyed with work left cannot be waited for by the device's synchronization, nor its fault records read: {err}"
            );
            return Ok(());
        }
        let done = {
            let mut r = f.lock();
            r.retired.push((e as usize, batch));
            let mut done = Vec::new();
            let mut keep = Vec::new();
            for (ev, b) in r.retired.drain(..) {
                // Event 0: none; the device synchronization reads those.
                let complete = ev != 0 && {
                    // SAFETY: an event of ours.
                    let r = unsafe { sys::cuEventQuery(ev as sys::CUevent) };
                    r == CUresult::CUDA_SUCCESS
                };
                if complete {
                    done.push((ev, b));
                } else {
                    keep.push((ev, b));
                }
            }
            r.retired = keep;
            done
        };
        for (ev, b) in done {
            // SAFETY: an event of ours, no longer needed.
            unsafe { sys::cuEventDestroy_v2(ev as sys::CUevent) };
            if let Some(err) = self.read_back(device, b)? {
                f.lock().found_retired.get_or_insert(err);
            }
        }
        Ok(())
    }

    /// Frees the free arenas and the private streams (the driver is going away; arenas still in
    /// use go with the primary context).
    pub(super) fn release_faults(&self) {
        for (device, f) in self.faults.iter().enumerate() {
            if self.bind(device).is_err() {
                continue;
            }
            for p in f.lock().free.drain(..) {
                // SAFETY: a free arena: read back, no queued work uses it.
                let _ = unsafe { sys::cuMemFree_v2(p) };
            }
            let s = std::mem::take(&mut *crate::sync::lock(&f.private));
            if s != 0 {
                // SAFETY: our private stream; CUDA finishes its (waited-for) work first.
                let _ = unsafe { sys::cuStreamDestroy_v2(s as sys::CUstream) };
            }
        }
    }

    /// `cuCtxSynchronize`, then the first fault of every stream of the device, destroyed ones
    /// included. The device's context is current.
    pub(super) fn synchronize_device(&self, device: usize) -> Result<()> {
        let f = self.faults(device)?;
        let (batch, events) = f.lock().take_all();
        // SAFETY: a context is current.
        check("cuCtxSynchronize", unsafe { sys::cuCtxSynchronize() })?;
        // Destroyed streams' events: `cuCtxSynchronize` does not wait for their host callbacks.
        let mut waited = Ok(());
        for ev in events.into_iter().filter(|e| *e != 0) {
            // SAFETY: events of ours, waited for and then destroyed exactly once.
            let r = unsafe { sys::cuEventSynchronize(ev as sys::CUevent) };
            waited = waited.and(check("cuEventSynchronize(destroyed stream)", r));
            // SAFETY: as above.
            unsafe { sys::cuEventDestroy_v2(ev as sys::CUevent) };
        }
        let fault = self.read_back(device, batch)?;
        let earlier = {
            let mut r = f.lock();
            let keys: Vec<Key> = r.found.keys().copied().collect();
            let mut first = r.found_retired.take();
            for k in keys {
                let e = r.found.remove(&k);
                first = first.or(e);
            }
            first
        };
        // A kernel fault first: a failed wait for a destroyed stream's event comes second.
        earlier.or(fault).map_or(waited, Err)
    }
}

/// The fault records a host callback reads when it runs ([`CudaDriver::peek_before_callback`]).
#[derive(Default)]
pub(super) struct Peek {
    /// The records noted; each arena's handed-out part is in the block, in order.
    batch: Batch,
    /// The downloaded records (none when a fault was already found).
    block: Option<Block>,
    /// A fault a query found before the callback was queued.
    found: Option<Error>,
}

impl Peek {
    /// Whether downloads into a block were queued for it (the block must then outlive them).
    pub(super) fn downloads(&self) -> bool {
        self.block.is_some()
    }

    /// The first fault of the launches noted, decoded from the records downloaded before the
    /// callback (this runs on CUDA's callback thread, where driver calls are refused and waiting
    /// for device work may deadlock: nothing here calls the driver or waits).
    pub(super) fn first_fault(self) -> Option<Error> {
        if self.found.is_some() {
            return self.found;
        }
        let block = self.block.as_ref()?;
        let total: usize = self.batch.layout().map(|(_, n)| n).sum();
        // SAFETY: the downloads into the block were queued on the callback's stream before it,
        // so they completed before this callback began, and nothing writes the block again
        // until it is dropped with this `Peek`.
        let all = unsafe { block.bytes(total) };
        let mut at = 0;
        let mut offsets = HashMap::new();
        for (base, bytes) in self.batch.layout() {
            offsets.insert(base, (at, bytes));
            at += bytes;
        }
        // Every arena of the batch was downloaded.
        let read = |base: DevicePtr, bytes: usize| -> Result<Vec<u8>> {
            Ok(offsets
                .get(&base)
                .map(|&(at, len)| all[at..at + len.min(bytes)].to_vec())
                .unwrap_or_default())
        };
        match self.batch.decode(read) {
            Ok((first, _)) => first,
            Err(e) => {
                tracing::warn!("reading fault records for a stream callback: {e}");
                None
            }
        }
    }
}

/// Queues the downloads of `batch`'s records ([`Batch::layout`]) into `block`, one after the
/// other, on `stream`, and hands the block back. On an error the block is dropped if nothing was
/// queued, else leaked (a queued copy may still write it).
fn download(mut block: Block, batch: &Batch, stream: sys::CUstream) -> Result<Block> {
    let mut at = 0;
    for (base, bytes) in batch.layout() {
        // SAFETY: `bytes` bytes of records at `base` (an arena of ours) into the block at `at`
        // (the layout sums to at most its size); queued on the stream behind the kernels that
        // write them, so the block holds them before a callback queued next runs. The arena is
        // not recycled before the stream passes this copy (the caller holds the records' lock,
        // and every recycling takes the batch under it and then waits for the stream).
        let r = unsafe {
            sys::cuMemcpyDtoHAsync_v2(block.ptr_mut().add(at).cast(), base, bytes, stream)
        };
        if let Err(e) = check("cuMemcpyDtoHAsync(fault records)", r) {
            if at > 0 {
                std::mem::forget(block);
            }
            return Err(e);
        }
        at += bytes;
    }
    Ok(block)
}

/// Copies `bytes` of records at `base` to the host on the private stream `s` and waits: the
/// reader [`Batch::decode`] takes. The caller makes sure the kernels that wrote them completed
/// and that nothing recycles the arena meanwhile.
fn copy_back(s: sys::CUstream) -> impl FnMut(DevicePtr, usize) -> Result<Vec<u8>> {
    move |base, bytes| {
        let mut host = vec![0u8; bytes];
        // SAFETY: `host` has `bytes` bytes and `base` is an arena of ours of at least `bytes`
        // (the caller's records); the copy is waited for at once.
        check("cuMemcpyDtoHAsync(fault records)", unsafe {
            sys::cuMemcpyDtoHAsync_v2(host.as_mut_ptr().cast(), base, bytes, s)
        })?;
        // SAFETY: a stream of ours.
        check("cuStreamSynchronize(fault records)", unsafe {
            sys::cuStreamSynchronize(s)
        })?;
        Ok(host)
    }
}

/// `cuStreamQuery`: whether `stream` has finished its work.
fn stream_idle(stream: sys::CUstream) -> Result<bool> {
    // SAFETY: a valid stream handle.
    match unsafe { sys::cuStreamQuery(stream) } {
        CUresult::CUDA_SUCCESS => Ok(true),
        CUresult::CUDA_ERROR_NOT_READY => Ok(false),
        r => Err(map("cuStreamQuery", r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::kernel::fault_parts;

    static ABI: KernelAbi = KernelAbi {
        name: "vadd",
        params: &[],
        uses_dynamic_shared: false,
        sites: &["c[i] = … at src/lib.rs:12:9"],
    };

    /// A fault record as the device header writes it (ABI.md §5): index out of bounds.
    fn record(block: u32, thread: u32, index: u64, extent: u64) -> [u8; RECORD_BYTES] {
        let mut r = [0u8; RECORD_BYTES];
        let put = |r: &mut [u8; RECORD_BYTES], o: usize, v: u32| {
            r[o..o + 4].copy_from_slice(&v.to_ne_bytes())
        };
        put(&mut r, 0, 1); // flag
        put(&mut r, 4, 1); // code: index out of bounds
        put(&mut r, 8, 0); // site
        put(&mut r, 12, 1); // ndim
        put(&mut r, 16, block);
        put(&mut r, 28, thread);
        r[40..48].copy_from_slice(&index.to_ne_bytes());
        r[64..72].copy_from_slice(&extent.to_ne_bytes());
        r
    }

    fn fresh(next: &mut u64) -> impl FnOnce() -> Result<DevicePtr> + '_ {
        move || {
            *next += 0x10_0000;
            Ok(*next)
        }
    }

    #[test]
    fn records_are_handed_out_in_order_per_stream_and_arena() {
        let mut r = Records::default();
        let mut next = 0u64;
        let a = Key::Stream(7);
        let first = r.slot(a, fresh(&mut next)).unwrap();
        let second = r.slot(a, fresh(&mut next)).unwrap();
        assert_eq!(
            second - first,
            RECORD_BYTES as u64,
            "contiguous in one arena"
        );
        let other = r.slot(Key::Legacy, fresh(&mut next)).unwrap();
        assert_ne!(
            other - other % 0x10_0000,
            first - first % 0x10_0000,
            "own arena"
        );
        for _ in 2..ARENA_SLOTS {
            r.slot(a, fresh(&mut next)).unwrap();
        }
        let next_arena = r.slot(a, fresh(&mut next)).unwrap();
        assert_eq!(
            next_arena % 0x10_0000,
            0,
            "a full arena is followed by a new one"
        );
        let batch = r.take(a);
        assert_eq!(batch.arenas, [(first, ARENA_SLOTS), (next_arena, 1)]);
        // After a synchronization took them, the stream starts a new arena; freed arenas are
        // reused before new ones are made.
        r.give_back([first]);
        assert_eq!(r.slot(a, || panic!("no allocation")).unwrap(), first);
    }

    #[test]
    fn the_first_fault_in_launch_order_names_its_kernel_block_and_thread() {
        let mut r = Records::default();
        let mut next = 0u64;
        let k = Key::PerThread(3);
        let mut addrs = Vec::new();
        for name in ["a", "b", "c"] {
            let addr = r.slot(k, fresh(&mut next)).unwrap();
            r.launched(k, addr, name, &ABI);
            addrs.push(addr);
        }
        let batch = r.take(k);
        let base = batch.arenas[0].0;
        let mut bytes = vec![0u8; 3 * RECORD_BYTES];
        bytes[RECORD_BYTES..2 * RECORD_BYTES].copy_from_slice(&record(2, 5, 7, 4));
        bytes[2 * RECORD_BYTES..].copy_from_slice(&record(0, 1, 9, 4));
        let (first, dirty) = batch
            .decode(|b, n| {
                assert_eq!((b, n), (base, 3 * RECORD_BYTES), "one read per arena");
                Ok(bytes.clone())
            })
            .unwrap();
        assert_eq!(dirty, [base]);
        let first = first.unwrap();
        let (kernel, block, thread, message) = fault_parts(&first);
        assert_eq!((kernel, block, thread), ("b", [2, 0, 0], [5, 0, 0]));
        assert!(
            message.contains("(7,)") && message.contains("src/lib.rs:12:9"),
            "{message}"
        );
        // Nothing recorded: no fault, and nothing to zero.
        let addr = r.slot(k, fresh(&mut next)).unwrap();
        r.launched(k, addr, "d", &ABI);
        let (none, dirty) = r.take(k).decode(|_, n| Ok(vec![0; n])).unwrap();
        assert!(none.is_none() && dirty.is_empty());
    }

    #[test]
    fn a_busy_stream_keeps_its_records_and_newer_ones_follow_them() {
        let mut r = Records::default();
        let mut next = 0u64;
        let k = Key::Stream(9);
        let a = r.slot(k, fresh(&mut next)).unwrap();
        r.launched(k, a, "a", &ABI);
        let taken = r.take(k);
        let b = r.slot(k, fresh(&mut next)).unwrap();
        r.launched(k, b, "b", &ABI);
        r.restore(k, taken);
        let all = r.take(k);
        let names: Vec<_> = all.pending.iter().map(|p| p.kernel.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(all.arenas.len(), 2);
    }

    #[test]
    fn streams_are_keyed_as_the_driver_orders_them() {
        assert_eq!(key(StreamHandle(0), false), Key::Legacy);
        assert_eq!(key(StreamHandle(1), true), Key::Legacy);
        assert_eq!(key(StreamHandle(0x7f00), false), Key::Stream(0x7f00));
        let here = key(StreamHandle(2), false);
        assert_eq!(
            key(StreamHandle(0), true),
            here,
            "0 is the per-thread stream"
        );
        let there = std::thread::spawn(|| key(StreamHandle(2), false))
            .join()
            .unwrap();
        assert_ne!(here, there, "each thread has its own per-thread stream");
    }
}
