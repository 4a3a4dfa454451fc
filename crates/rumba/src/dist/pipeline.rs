//! The chunk pipeline of the staged transport: device → pinned host slot → exchange → pinned
//! host slot → device, a few chunks in flight so that the device copies of one chunk overlap the
//! exchange of another, in a fixed amount of pinned memory whatever the array's size.
//!
//! An operation's data is `send_blocks` input blocks and `recv_blocks` output blocks of the same
//! size (one block per rank for gathers, scatters and all-to-all, else one). A chunk is the same
//! byte range of every block; the pipeline stages chunk `c`'s ranges into the send region of
//! slot `c % SLOTS`, block after block (the layout MPI's collectives expect), hands the slot to
//! the [`Exchange`], and stages the recv region back out. Every copy is queued on the
//! operation's stream, so it runs after the work queued there before the operation and the
//! work queued after it sees the result. Slot reuse needs no host wait: chunk `c + SLOTS`'s
//! stage-in is queued after chunk `c`'s stage-out on the same stream, and the exchange of a
//! chunk starts only once an event recorded after its stage-in has completed.
//!
//! The pipeline is a state machine advanced by [`Pipeline::step`], so a caller can drive several
//! at once (a `sendrecv`, pending `isend`s) from one loop. A pipeline dropped before it finished
//! (an error, a timeout) leaks its pinned slots when an exchange may still use them: leaking is
//! safe, freeing memory MPI may still write is not.

use std::sync::Arc;

use crate::driver::{DevicePtr, Driver, EventHandle, On, StreamHandle};
use crate::error::Result;
use crate::memory::gate::Lease;
use crate::memory::{DeviceBuffer, PinnedPool, PooledPinned};

/// Chunks in flight (pinned slots) per operation.
pub(crate) const SLOTS: usize = 3;

/// How the blocks of an operation are cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChunkPlan {
    /// Bytes per block.
    pub block_bytes: usize,
    /// Bytes per block per chunk (a multiple of the item size; the last chunk may be shorter).
    pub chunk: usize,
}

impl ChunkPlan {
    /// Chunks of about `target` bytes in all over `blocks` blocks, whole elements of `itemsize`.
    pub(crate) fn new(block_bytes: usize, itemsize: usize, blocks: usize, target: usize) -> Self {
        let itemsize = itemsize.max(1);
        let per_block = (target / blocks.max(1)) / itemsize * itemsize;
        let chunk = per_block.max(itemsize).min(block_bytes.max(itemsize));
        ChunkPlan { block_bytes, chunk }
    }

    /// Number of chunks (0 for empty blocks).
    pub(crate) fn chunks(&self) -> usize {
        self.block_bytes.div_ceil(self.chunk)
    }

    /// `(offset, len)` of chunk `c` within each block.
    pub(crate) fn range(&self, c: usize) -> (usize, usize) {
        let off = c * self.chunk;
        (off, self.chunk.min(self.block_bytes - off))
    }
}

/// What moves a staged chunk between ranks (an MPI operation, or a test's stand-in). Up to
/// [`SLOTS`] chunks are in flight at once, one per slot; they are started and completed in
/// chunk order.
pub(crate) trait Exchange {
    /// Starts the exchange of one chunk in `slot`: `send` holds the staged input blocks, `recv`
    /// receives the output blocks, `block_len` bytes each.
    ///
    /// # Safety
    /// `send` stays valid and unwritten, and `recv` valid and otherwise unaccessed, until
    /// [`poll`](Exchange::poll) of the slot has returned `true` — or forever, if the exchange is
    /// abandoned.
    unsafe fn start(
        &mut self,
        slot: usize,
        send: *const u8,
        recv: *mut u8,
        block_len: usize,
    ) -> Result<()>;
    /// Advances the exchange started in `slot`; `Ok(true)` once it is complete.
    fn poll(&mut self, slot: usize) -> Result<bool>;
}

/// A side of the data in device memory: blocks of `block_bytes` at `ptr + b * stride`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Side {
    pub ptr: DevicePtr,
    pub stride: usize,
}

/// The shape of one operation's data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    pub block_bytes: usize,
    pub itemsize: usize,
    /// Blocks in the send region of a slot.
    pub send_blocks: usize,
    /// Blocks in the recv region of a slot.
    pub recv_blocks: usize,
    /// Send and recv regions are one (a broadcast's buffer).
    pub shared: bool,
    /// Blocks a chunk is cut for: the same on every rank (a root's recv blocks count too), so
    /// that every rank cuts the same chunks.
    pub plan_blocks: usize,
    /// Staged into the send region (`send_blocks` blocks), if this rank has input.
    pub input: Option<Side>,
    /// Staged out of the recv region (`recv_blocks` blocks), if this rank has output.
    pub output: Option<Side>,
    /// Target bytes of a chunk over all its blocks.
    pub chunk_bytes: usize,
}

/// Where a pipeline queues its copies.
#[derive(Clone)]
pub(crate) struct Target {
    pub driver: Arc<dyn Driver>,
    pub device: usize,
    pub stream: StreamHandle,
    pub pool: Arc<PinnedPool>,
}

impl Target {
    /// Ordered on the pipeline's stream.
    fn on(&self) -> On {
        On::stream(self.device, self.stream)
    }
}

/// One operation's chunks in flight.
pub(crate) struct Pipeline {
    t: Target,
    spec: Spec,
    plan: ChunkPlan,
    /// Bytes of one slot (send region, then recv region unless shared).
    region: usize,
    slots: Option<PooledPinned>,
    events: Vec<EventHandle>,
    /// The next chunk whose exchange starts.
    next_start: usize,
    /// The oldest chunk whose exchange has not completed (chunks `next_done..next_start` are in
    /// flight).
    next_done: usize,
    ex: Box<dyn Exchange>,
    /// Device buffers the queued copies use, kept alive by the stream at the end.
    keep: Vec<DeviceBuffer>,
    finished: bool,
}

impl Pipeline {
    /// Allocates the slots and queues the stage-in of the first chunks.
    ///
    /// # Safety
    /// Every block range the spec names lies in device memory of `t.device` that `keep` keeps
    /// alive.
    pub(crate) unsafe fn new(
        t: Target,
        spec: Spec,
        ex: Box<dyn Exchange>,
        keep: Vec<DeviceBuffer>,
    ) -> Result<Pipeline> {
        let plan = ChunkPlan::new(
            spec.block_bytes,
            spec.itemsize,
            spec.plan_blocks,
            spec.chunk_bytes,
        );
        let n = plan.chunks();
        let recv_region = if spec.shared { 0 } else { spec.recv_blocks };
        let region = (spec.send_blocks + recv_region) * plan.chunk;
        let k = SLOTS.min(n);
        let mut p = Pipeline {
            t,
            spec,
            plan,
            region,
            slots: None,
            events: Vec::new(),
            next_start: 0,
            next_done: 0,
            ex,
            keep,
            finished: false,
        };
        if n == 0 {
            return Ok(p);
        }
        p.slots = Some(p.t.pool.alloc((region * k).max(1), Default::default())?);
        for _ in 0..k {
            let ev = p.t.driver.event_create(p.t.device, false)?;
            p.events.push(ev);
        }
        let lease = p.lease()?;
        for c in 0..k {
            p.stage_in(c)?;
        }
        drop(lease);
        Ok(p)
    }

    fn slot_base(&self, c: usize) -> *mut u8 {
        let slots = self
            .slots
            .as_ref()
            .expect("slots exist while chunks remain");
        // SAFETY: `(c % k) * region` is inside the block of `region * k` bytes.
        unsafe { (slots.as_ptr() as *mut u8).add((c % self.events.len()) * self.region) }
    }

    fn send_ptr(&self, c: usize) -> *mut u8 {
        self.slot_base(c)
    }

    fn recv_ptr(&self, c: usize) -> *mut u8 {
        if self.spec.shared {
            return self.slot_base(c);
        }
        // SAFETY: the recv region follows the send region inside the slot.
        unsafe {
            self.slot_base(c)
                .add(self.spec.send_blocks * self.plan.chunk)
        }
    }

    /// Queues the copies of chunk `c` into its slot, then the slot's event.
    fn stage_in(&mut self, c: usize) -> Result<()> {
        let (off, len) = self.plan.range(c);
        if let Some(inp) = self.spec.input {
            for b in 0..self.spec.send_blocks {
                let src = inp.ptr + (b * inp.stride + off) as u64;
                // SAFETY: `dst` is `len` bytes of this pipeline's pinned slot, unaccessed by the
                // host until the event below completes and kept until the stream passed its
                // last use (finish) or leaked; `src` is in live device memory (`new`'s promise).
                unsafe {
                    let dst =
                        std::ptr::slice_from_raw_parts_mut(self.send_ptr(c).add(b * len), len);
                    self.t.driver.memcpy_dtoh(self.t.on(), dst, src)?;
                }
            }
        }
        let ev = self.events[c % self.events.len()];
        self.t.driver.event_record(self.t.device, ev, self.t.stream)
    }

    /// Queues the copies of chunk `c` out of its slot.
    fn stage_out(&mut self, c: usize) -> Result<()> {
        let (off, len) = self.plan.range(c);
        if let Some(out) = self.spec.output {
            for b in 0..self.spec.recv_blocks {
                let dst = out.ptr + (b * out.stride + off) as u64;
                // SAFETY: the slot is pinned memory this pipeline keeps unwritten until the
                // stream has run the copy (the next stage-in of the slot is queued after it, and
                // the block is recorded on the stream when the pipeline ends); `dst` is live
                // device memory (`new`'s promise).
                unsafe {
                    let src = std::ptr::slice_from_raw_parts(self.recv_ptr(c).add(b * len), len);
                    self.t.driver.memcpy_htod(self.t.on(), dst, src)?;
                }
            }
        }
        Ok(())
    }

    /// Advances as far as possible without waiting; `Ok(true)` once every chunk is exchanged
    /// and its stage-out queued.
    pub(crate) fn step(&mut self) -> Result<bool> {
        if self.finished {
            return Ok(true);
        }
        let _lease = self.lease()?;
        let n = self.plan.chunks();
        let k = self.events.len();
        loop {
            let mut moved = false;
            // Start every chunk whose slot is staged, up to one per slot.
            while self.next_start < n && self.next_start < self.next_done + k {
                let c = self.next_start;
                if !self
                    .t
                    .driver
                    .event_query(self.t.device, self.events[c % k])?
                {
                    break;
                }
                let (_, len) = self.plan.range(c);
                // SAFETY: the slot's regions belong to this pipeline; the host touches them
                // again only after `poll` returned true, and leaks them if it never does (Drop).
                unsafe {
                    self.ex
                        .start(c % k, self.send_ptr(c), self.recv_ptr(c), len)?
                };
                self.next_start += 1;
                moved = true;
            }
            // Complete in order: stage the chunk out, and the slot's next chunk in.
            while self.next_done < self.next_start {
                let c = self.next_done;
                if !self.ex.poll(c % k)? {
                    break;
                }
                self.stage_out(c)?;
                if c + k < n {
                    self.stage_in(c + k)?;
                }
                self.next_done += 1;
                moved = true;
            }
            if self.next_done == n {
                self.finish()?;
                return Ok(true);
            }
            if !moved {
                return Ok(false);
            }
        }
    }

    /// A lease under which the spec's device addresses are still the kept buffers' memory: every
    /// step queues copies to them, and a context reset since the addresses were taken freed it.
    ///
    /// # Errors
    /// [`Error::StaleHandle`](crate::Error::StaleHandle) when a reset freed a kept buffer.
    fn lease(&self) -> Result<Lease> {
        let lease = Lease::enter()?;
        for b in &self.keep {
            b.addr(&lease, 0, 0)?;
        }
        Ok(lease)
    }

    /// Hands the slots back (reused once the stream passed its copies) and lets the stream keep
    /// the device buffers.
    fn finish(&mut self) -> Result<()> {
        self.finished = true;
        self.release()
    }

    fn release(&mut self) -> Result<()> {
        let mut first = Ok(());
        if let Some(slots) = self.slots.take() {
            if let Err(e) = slots.record(self.t.stream) {
                // Without the record the pool could hand the block out while copies still read
                // it: leak it instead.
                std::mem::forget(slots);
                first = Err(e);
            }
        }
        for ev in self.events.drain(..) {
            let _ = self.t.driver.event_destroy(self.t.device, ev);
        }
        let keep = std::mem::take(&mut self.keep);
        if !keep.is_empty() {
            let boxed: Box<dyn std::any::Any + Send> = Box::new(keep);
            if let Err(e) = self
                .t
                .driver
                .stream_keepalive(self.t.device, self.t.stream, boxed)
            {
                first = first.and(Err(e));
            }
        }
        first
    }

    /// Pinned bytes this pipeline holds (for tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn pinned_bytes(&self) -> usize {
        self.slots.as_ref().map_or(0, |s| s.len())
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        if self.next_start > self.next_done {
            // An exchange may still read or write the slots: they must never be reused.
            if let Some(slots) = self.slots.take() {
                std::mem::forget(slots);
            }
        }
        let _ = self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::{DeviceArray, Order, device_array, to_device};
    use crate::layout::Element;
    use ndarray::Ix1;

    #[test]
    fn plans_cover_every_byte_in_whole_elements() {
        for (bytes, item, blocks, target) in [
            (0, 4, 1, 64),
            (4, 4, 1, 64),
            (100, 4, 1, 64),
            (1000, 8, 4, 64),
            (24, 8, 16, 64), // target smaller than one element per block
            (64 << 20, 4, 1, 4 << 20),
        ] {
            let p = ChunkPlan::new(bytes, item, blocks, target);
            assert_eq!(p.chunk % item, 0);
            let mut covered = 0;
            for c in 0..p.chunks() {
                let (off, len) = p.range(c);
                assert_eq!(off, covered);
                assert!(len > 0 && len % item == 0);
                assert!(len * blocks <= target.max(item * blocks));
                covered += len;
            }
            assert_eq!(covered, bytes);
        }
        assert_eq!(ChunkPlan::new(64 << 20, 4, 1, 4 << 20).chunks(), 16);
    }

    /// A stand-in for MPI: the "other ranks" add `delta` to every byte and answer only after
    /// `delay` polls, so chunks are really in flight while the stream works.
    struct AddBytes {
        delta: u8,
        delay: usize,
        pending: [Option<(*const u8, *mut u8, usize, usize)>; SLOTS],
        blocks_out: usize,
        blocks_in: usize,
        most_in_flight: std::rc::Rc<std::cell::Cell<usize>>,
    }

    impl AddBytes {
        fn new(delta: u8, delay: usize, blocks_in: usize, blocks_out: usize) -> Self {
            AddBytes {
                delta,
                delay,
                pending: [None; SLOTS],
                blocks_out,
                blocks_in,
                most_in_flight: Default::default(),
            }
        }
    }

    impl Exchange for AddBytes {
        unsafe fn start(
            &mut self,
            slot: usize,
            send: *const u8,
            recv: *mut u8,
            len: usize,
        ) -> Result<()> {
            assert!(self.pending[slot].is_none(), "slot {slot} started twice");
            self.pending[slot] = Some((send, recv, len, self.delay));
            let now = self.pending.iter().flatten().count();
            self.most_in_flight.set(self.most_in_flight.get().max(now));
            Ok(())
        }
        fn poll(&mut self, slot: usize) -> Result<bool> {
            let Some((send, recv, len, left)) = self.pending[slot].take() else {
                return Ok(true);
            };
            if left > 0 {
                self.pending[slot] = Some((send, recv, len, left - 1));
                return Ok(false);
            }
            for b in 0..self.blocks_out {
                for i in 0..len {
                    // SAFETY: the pipeline lent both regions until this poll returns true.
                    unsafe {
                        let x = *send.add((b % self.blocks_in) * len + i);
                        *recv.add(b * len + i) = x.wrapping_add(self.delta);
                    }
                }
            }
            Ok(true)
        }
    }

    fn target(stream: &crate::stream::Stream) -> Target {
        let ctx = stream.context();
        Target {
            driver: ctx.driver().clone(),
            device: ctx.device_id(),
            stream: stream.handle(),
            pool: Arc::new(PinnedPool::new(ctx.device_id(), ctx.driver().clone())),
        }
    }

    fn side<T: Element>(a: &DeviceArray<T, Ix1>, stride: usize) -> Side {
        Side {
            ptr: a.device_ptr(),
            stride,
        }
    }

    fn run(p: &mut Pipeline) {
        let mut steps = 0;
        while !p.step().unwrap() {
            steps += 1;
            assert!(steps < 10_000_000, "pipeline stuck");
            std::thread::yield_now();
        }
    }

    #[test]
    fn chunks_are_staged_through_a_bounded_pinned_ring_in_stream_order() {
        let s = crate::stream::stream().unwrap();
        let n = 10_000usize; // 40 000 bytes in chunks of 4 096: 10 chunks through 3 slots
        let host: Vec<u32> = (0..n as u32).collect();
        let src = to_device(&host[..]).unwrap();
        let dst = device_array::<u32, _>(n, Order::C).unwrap();
        // Work queued before the operation must be seen by it: overwrite the source first.
        src.bind(&s).assign(7u32).unwrap();
        let spec = Spec {
            block_bytes: n * 4,
            itemsize: 4,
            send_blocks: 1,
            recv_blocks: 1,
            shared: false,
            plan_blocks: 1,
            input: Some(side(&src, 0)),
            output: Some(side(&dst, 0)),
            chunk_bytes: 4096,
        };
        let ex = AddBytes::new(1, 3, 1, 1);
        let in_flight = ex.most_in_flight.clone();
        let keep = vec![src.buffer().clone(), dst.buffer().clone()];
        // SAFETY: both ranges are the arrays' own allocations, kept by `keep`.
        let mut p = unsafe { Pipeline::new(target(&s), spec, Box::new(ex), keep).unwrap() };
        assert_eq!(p.pinned_bytes(), 3 * 2 * 4096); // three slots, whatever the array's size
        run(&mut p);
        drop(p);
        // Chunks overlapped: several exchanges were in flight at once, never more than the slots.
        assert!(
            (2..=SLOTS).contains(&in_flight.get()),
            "{}",
            in_flight.get()
        );
        // Later work on the stream sees the result.
        let out = dst.bind(&s).copy_to_host().unwrap();
        // 7 is the bytes 07 00 00 00; the exchange adds 1 to every byte.
        let want = u32::from_le_bytes([8, 1, 1, 1]);
        assert!(out.iter().all(|&x| x == want), "{:x}", out[0]);
    }

    #[test]
    fn blocks_are_gathered_per_chunk_and_scattered_back() {
        // Three blocks of 1 000 bytes in, three out (an all-to-all's layout), chunks of 100
        // bytes per block: each chunk's slot holds the same range of every block, in order.
        let s = crate::stream::stream().unwrap();
        let host: Vec<u8> = (0..3000).map(|i| (i / 1000 * 50 + i % 7) as u8).collect();
        let src = to_device(&host[..]).unwrap();
        let dst = device_array::<u8, _>(3000, Order::C).unwrap();
        let spec = Spec {
            block_bytes: 1000,
            itemsize: 1,
            send_blocks: 3,
            recv_blocks: 3,
            shared: false,
            plan_blocks: 3,
            input: Some(side(&src, 1000)),
            output: Some(side(&dst, 1000)),
            chunk_bytes: 300,
        };
        let ex = AddBytes::new(2, 1, 3, 3);
        let keep = vec![src.buffer().clone(), dst.buffer().clone()];
        // SAFETY: as above.
        let mut p = unsafe { Pipeline::new(target(&s), spec, Box::new(ex), keep).unwrap() };
        run(&mut p);
        drop(p);
        let want: Vec<u8> = host.iter().map(|b| b + 2).collect();
        assert_eq!(dst.bind(&s).copy_to_host().unwrap().to_vec(), want);
    }

    #[test]
    fn an_abandoned_exchange_leaks_its_slots_instead_of_reusing_them() {
        let s = crate::stream::stream().unwrap();
        let src = to_device(&[1u8; 64][..]).unwrap();
        let t = target(&s);
        let pool = t.pool.clone();
        let spec = Spec {
            block_bytes: 64,
            itemsize: 1,
            send_blocks: 1,
            recv_blocks: 1,
            shared: false,
            plan_blocks: 1,
            input: Some(side(&src, 0)),
            output: None,
            chunk_bytes: 64,
        };
        let ex = AddBytes::new(0, usize::MAX, 1, 0);
        // SAFETY: as above.
        let mut p =
            unsafe { Pipeline::new(t, spec, Box::new(ex), vec![src.buffer().clone()]).unwrap() };
        s.synchronize().unwrap();
        assert!(!p.step().unwrap()); // started, never completes
        drop(p);
        s.synchronize().unwrap();
        let (live, cached) = pool.usage();
        assert!(live > 0 && cached == 0, "live {live}, cached {cached}");
    }
}
