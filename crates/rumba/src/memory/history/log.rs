//! Where a recording keeps its events: every writer (a thread, or a pool under its lock) writes
//! its own chunks of slots, with no lock of the recording's, and a snapshot gathers the chunks of
//! all writers and merges them by sequence number.
//!
//! **Chunks.** A chunk is a run of 32-byte slots (the `slot` module) and the base their offsets
//! count from, written by one writer in order (the `track` module) and published slot by slot
//! with a release store of its length. A writer takes a chunk under the recording's lock: for
//! its first event of a recording, and when its chunk is full. A slot below the published length
//! is never written again until the chunk is recycled, which needs the recording to be its only
//! holder, and only the writer that owns a chunk writes it (or a sweep, under the recording's
//! lock, one that no one else holds yet), so a reader needs no lock to read it. A thread that
//! exits, or a pool that is dropped, leaves its chunks registered: its events stay.
//!
//! **Tables.** The recording holds what slots point into: the distinct places of its events
//! (kind, device, stream, chain, pool), its pools, the events kept whole (values that do not fit
//! a slot) and the extras (details, backtraces), the last two by sequence number and only for
//! the newest `max_entries` events.
//!
//! **The bound.** Chunks whose events are all older than the newest `max_entries` of the
//! recording (by sequence number), and that no writer writes any more, are swept from time to
//! time (when the registered chunks have grown by a quarter since the last sweep) and counted;
//! the same sweep gathers the events of partly filled chunks no writer writes any more (those of
//! threads that exited, pools that were dropped) into full chunks of the recording's own, so that
//! threads which record a few events each and exit cost their events, not a chunk apiece. A
//! snapshot merges what is left and keeps exactly the newest `max_entries`. Swept chunks are
//! written again (fresh memory costs a page fault a page), by this recording or the next. Memory
//! stays within about two and a half times `max_entries` slots and eight chunks, plus a chunk per
//! live thread and pool that has recorded. Two cases lie outside it: a thread or pool that stays
//! alive without recording keeps its chunk of an earlier recording until its next event; an event
//! noted after its thread's locals were dropped (by another thread-local's destructor) is written
//! to a shared chunk that is never let go.
//!
//! This module touches the chunks and tables of the recordings.

use std::cell::UnsafeCell;
use std::collections::{BTreeMap, HashMap};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Arc, Mutex};

use super::clock;
use super::slot::{Base, Entry, Misfit, Place, Slot, WIDE};
use super::{Extra, HistoryOptions};
use crate::sync::lock;

/// Slots per chunk (fewer when `max_entries` is smaller, down to [`MIN_CHUNK`]).
const CHUNK: usize = 512;

/// The fewest slots per chunk. A writer takes a chunk under the recording's lock, and a sweep
/// runs every few chunks: with chunks of 16 slots (`max_entries` 16), the history cost the pool
/// benchmark's workload 1.16–1.21 times its time without, against 1.10–1.11 with 64. A chunk of
/// 64 slots is 2 KiB.
const MIN_CHUNK: usize = 64;

/// A slot's cell in a chunk: aligned so that a cache line holds two whole slots. The slot's own
/// alignment stays that of its fields, so that one on the writer's stack needs no realigned
/// frame.
#[repr(align(32))]
struct SlotCell(UnsafeCell<MaybeUninit<Slot>>);

/// A run of slots one writer writes in order.
struct Chunk {
    /// Where the slots' offsets count from (written with the first slot).
    base: UnsafeCell<Base>,
    slots: Box<[SlotCell]>,
    /// Slots written and published (release store by the writer, acquire load by readers).
    len: AtomicUsize,
}

// SAFETY: the cells are written only by the chunk's one `Writer` (owned by one thread, or used
// under a lock), each slot once and before `len` is raised past it with a release store, and the
// base before the first slot; readers read only slots below a `len` they loaded with acquire,
// and the base only when that `len` is above 0. No cell is read and written at once.
unsafe impl Sync for Chunk {}

impl Chunk {
    fn new(slots: usize) -> Self {
        Chunk {
            base: UnsafeCell::new(Base::default()),
            slots: uninit(slots),
            len: AtomicUsize::new(0),
        }
    }

    fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The base and the first `n` slots (`n`: a published length loaded with acquire).
    fn published(&self, n: usize) -> (Base, &[SlotCell]) {
        if n == 0 {
            return (Base::default(), &[]);
        }
        // SAFETY: a published length above 0 means the base was written before the release
        // store that raised it (acquired by the caller), and is not written again while the
        // chunk is published.
        let base = unsafe { *self.base.get() };
        (base, &self.slots[..n])
    }

    /// The published events, appended to `out` (`places` and `wide`: the recording's tables);
    /// returns how many could not be read: events kept whole that were dropped since, being
    /// older than the newest `max_entries`.
    fn read(
        &self,
        places: &[Place],
        wide: &BTreeMap<u64, Entry>,
        out: &mut Vec<(u64, Entry)>,
    ) -> u64 {
        let (base, slots) = self.published(self.len.load(Ordering::Acquire));
        let before = out.len();
        for cell in slots {
            // SAFETY: the slot is below the published length: written once before the release
            // store that raised `len` past it (acquired above), and never written again.
            let slot = unsafe { (*cell.0.get()).assume_init() };
            out.extend(slot.unpack(&base, places, wide));
        }
        (slots.len() - (out.len() - before)) as u64
    }

    /// The sequence numbers of the oldest and the newest of the first `n` slots (`n`: a
    /// published length loaded with acquire); `None` when `n` is 0. Slots are written in
    /// sequence order (a writer's own, and those a sweep gathers), so they are the first and
    /// the last.
    fn span(&self, n: usize) -> Option<(u64, u64)> {
        let (base, slots) = self.published(n);
        // SAFETY: as in `read`: the slots are published.
        let seq = |cell: &SlotCell| unsafe { (*cell.0.get()).assume_init() }.seq(&base);
        Some((seq(slots.first()?), seq(slots.last()?)))
    }
}

/// `n` unwritten cells.
fn uninit(n: usize) -> Box<[SlotCell]> {
    (0..n)
        .map(|_| SlotCell(UnsafeCell::new(MaybeUninit::uninit())))
        .collect()
}

/// The one writer of a chunk.
pub(super) struct Writer {
    chunk: Arc<Chunk>,
    /// The chunk's base (the writer's copy).
    pub(super) base: Base,
    /// The clock's reading at the base (the recording's start plus `base.time_ns`).
    pub(super) base_clock: u64,
    /// Slots written (the writer's copy of `chunk.len`).
    len: usize,
    /// The chunk's capacity (the writer's copy).
    capacity: usize,
}

impl Writer {
    /// Writes `chunk` (empty) from `base`: the sequence numbers and times of its events are
    /// not below it.
    fn new(chunk: Arc<Chunk>, base: Base, start_ns: u64) -> Self {
        assert_eq!(
            chunk.len.load(Ordering::Relaxed),
            0,
            "a fresh chunk is empty"
        );
        // SAFETY: the chunk has no published slot, so no reader reads the base, and this writer
        // is its only one.
        unsafe { *chunk.base.get() = base };
        Writer {
            capacity: chunk.capacity(),
            chunk,
            base,
            base_clock: start_ns + base.time_ns,
            len: 0,
        }
    }

    #[inline(always)]
    pub(super) fn full(&self) -> bool {
        self.len >= self.capacity
    }

    /// Writes the next slot and publishes it (the chunk must not be full).
    #[inline(always)]
    pub(super) fn push(&mut self, slot: Slot) {
        let i = self.len;
        let chunk = &*self.chunk;
        let cells = &chunk.slots[..];
        // A full chunk is replaced first: a caller holds a writer it found not `full`, or a
        // fresh one (the compiler drops this check after the caller's).
        assert!(i < self.capacity, "a full chunk is replaced first");
        // SAFETY: `capacity` is the chunk's length (set in `new`; neither changes), and `i` is
        // below it.
        let cell = unsafe { cells.get_unchecked(i) };
        // SAFETY: slot `i` is not published (`len` is `i`), so no reader reads it, and this
        // writer is the chunk's only one; the store below publishes it.
        unsafe { (*cell.0.get()).write(slot) };
        self.len = i + 1;
        chunk.len.store(i + 1, Ordering::Release);
        // A line this writer's next events write is fetched while the program runs on: the one
        // two lines after this slot's (`AHEAD` slots on). A line fetched one event ahead, or one
        // line ahead, often comes late: measured on the pool benchmark's workload, prefetching
        // the next slot cost about a point more than this.
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            use std::arch::x86_64::{_MM_HINT_ET0, _mm_prefetch};
            const AHEAD: usize = 4;
            // Past the last slot it names memory of no one's, which a prefetch may: a wrapping
            // pointer is never dereferenced.
            let next = cells.as_ptr().wrapping_add(i + AHEAD);
            // SAFETY: a prefetch is a hint: it reads and writes no memory and cannot fault, at
            // any address, and SSE, which it needs, is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_ET0>(next.cast()) };
        }
    }
}

/// What the writers of a recording share without its lock.
pub(super) struct Hot {
    pub(super) generation: u64,
    /// The next sequence number.
    pub(super) seq: AtomicU64,
    /// The clock when the recording started.
    pub(super) start_ns: u64,
    slots: usize,
}

/// A recording: its chunks and the tables its events point into.
pub(super) struct Recording {
    pub(super) options: HistoryOptions,
    pub(super) started_unix_ms: u64,
    pub(super) hot: Arc<Hot>,
    chunks: Vec<Arc<Chunk>>,
    /// Swept chunks no one holds, emptied, for writers to write again (fresh memory costs a
    /// page fault a page).
    spare: Vec<Arc<Chunk>>,
    /// Sweep when `chunks` reaches this many.
    sweep_at: usize,
    /// Events in chunks dropped by sweeps.
    swept: u64,
    /// [`REFUSED`] when the recording began.
    refused_at_start: u64,
    /// The distinct pools seen, by id.
    pub(super) pools: Vec<u64>,
    /// Details and backtraces by sequence number (the older ones dropped as events are).
    pub(super) extras: BTreeMap<u64, Extra>,
    /// The distinct places of the recording's events (see the `slot` module), and their indices.
    places: Vec<Place>,
    place_ids: HashMap<Place, u32>,
    /// Events kept whole by sequence number (those whose values do not fit a slot).
    wide: BTreeMap<u64, Entry>,
}

/// Drops the oldest entries of `map` (by sequence number) so that one more leaves `max_entries`:
/// the events of the window number `max_entries` at most and are the newest, so the entries
/// of theirs stay.
fn prune<T>(map: &mut BTreeMap<u64, T>, max_entries: usize) {
    while map.len() >= max_entries {
        map.pop_first();
    }
}

impl Recording {
    /// The writer of a fresh chunk whose offsets count from `base` (no event it takes may be
    /// below it).
    pub(super) fn writer(&mut self, base: Base) -> Writer {
        Writer::new(self.take_chunk(), base, self.hot.start_ns)
    }

    /// A chunk to write: a spare one, or a new one.
    fn take_chunk(&mut self) -> Arc<Chunk> {
        let chunk = self
            .spare
            .pop()
            .unwrap_or_else(|| Arc::new(Chunk::new(self.hot.slots)));
        self.chunks.push(chunk.clone());
        if self.chunks.len() >= self.sweep_at {
            self.sweep();
            let left = self.chunks.len();
            self.sweep_at = (left + left / 4 + 1).max(self.min_sweep());
        }
        chunk
    }

    /// Chunks at which the first sweep runs: those `max_entries` fill, a quarter more, and a
    /// few (also the most spare ones kept).
    fn min_sweep(&self) -> usize {
        let need = self.options.max_entries.div_ceil(self.hot.slots);
        need + need / 4 + 4
    }

    /// Keeps `chunk` to be written again when no one else holds it (and there are not already
    /// enough spare ones).
    fn recycle(&mut self, mut chunk: Arc<Chunk>) {
        if chunk.capacity() == self.hot.slots
            && self.spare.len() < self.min_sweep()
            && let Some(c) = Arc::get_mut(&mut chunk)
        {
            *c.len.get_mut() = 0;
            self.spare.push(chunk);
        }
    }

    /// Drops the chunks no writer writes any more whose events are all older than the newest
    /// `max_entries` (each has `max_entries` events after it), and gathers the events of the
    /// partly filled chunks no writer writes any more (of threads that exited, pools that were
    /// dropped) into full ones.
    fn sweep(&mut self) {
        let floor = self.floor();
        let mut loose = Vec::new();
        for c in std::mem::take(&mut self.chunks) {
            // Only the registry holds a chunk whose writer is gone (chunks are cloned only under
            // the recording's lock, which the caller holds), and then its length is final: the
            // fence pairs with the release of the writer's reference, so the length read below
            // is the last one written. The count is read first: a writer that lets go after its
            // length was read could have written more.
            let alone = Arc::strong_count(&c) == 1;
            if alone {
                fence(Ordering::Acquire);
            }
            let len = c.len.load(Ordering::Acquire);
            let done = alone || len == c.capacity();
            let old = c.span(len).is_none_or(|(_, newest)| newest < floor);
            if done && old {
                self.swept += len as u64;
                self.recycle(c);
            } else if alone && len < c.capacity() {
                self.swept += c.read(&self.places, &self.wide, &mut loose);
                self.recycle(c);
            } else {
                self.chunks.push(c);
            }
        }
        self.compact(loose, floor);
    }

    /// A sequence number below which no event is among the newest `max_entries` published
    /// (0 when fewer are published): the oldest event of the chunks that hold the newest events,
    /// taken newest chunk first until they hold `max_entries`. Counted, not computed from the
    /// counter: the numbers a pool reserves and does not use leave gaps.
    fn floor(&self) -> u64 {
        let mut spans: Vec<(u64, u64, usize)> = self
            .chunks
            .iter()
            .filter_map(|c| {
                let len = c.len.load(Ordering::Acquire);
                c.span(len).map(|(oldest, newest)| (newest, oldest, len))
            })
            .collect();
        spans.sort_unstable_by(|a, b| b.cmp(a));
        let (mut count, mut floor) = (0, u64::MAX);
        for (_, oldest, len) in spans {
            if count >= self.options.max_entries {
                return floor;
            }
            count += len;
            floor = floor.min(oldest);
        }
        if count >= self.options.max_entries {
            floor
        } else {
            0
        }
    }

    /// Writes `rows` (events of chunks no writer writes any more) into chunks of the recording's
    /// own, in sequence order, dropping those older than `floor`; all but the last are full
    /// (unless an offset from a chunk's base does not fit: see the `slot` module).
    fn compact(&mut self, mut rows: Vec<(u64, Entry)>, floor: u64) {
        rows.sort_unstable_by_key(|&(seq, _)| seq);
        let old = rows.partition_point(|&(seq, _)| seq < floor);
        self.swept += old as u64;
        let mut rows = rows[old..].iter().peekable();
        while let Some(&&(seq, first)) = rows.peek() {
            let mut chunk = self
                .spare
                .pop()
                .and_then(Arc::into_inner)
                .unwrap_or_else(|| Chunk::new(self.hot.slots));
            let base = Base {
                seq,
                time_ns: first.time_ns,
            };
            *chunk.base.get_mut() = base;
            let mut n = 0;
            // The first row always fits: its offsets are 0.
            while n < chunk.capacity()
                && let Some(&&(seq, entry)) = rows.peek()
                && let Some(slot) = self.repack(&base, seq, &entry)
            {
                chunk.slots[n].0.get_mut().write(slot);
                n += 1;
                rows.next();
            }
            *chunk.len.get_mut() = n;
            self.chunks.push(Arc::new(chunk));
        }
    }

    /// The slot of a read event in a chunk from `base`; `None` when it belongs in a new chunk.
    fn repack(&mut self, base: &Base, seq: u64, e: &Entry) -> Option<Slot> {
        let place = self.place_ids.get(&e.place).copied().unwrap_or(WIDE);
        match Slot::pack_entry(base, seq, e, place) {
            Ok(slot) => Some(slot),
            Err(Misfit::Base) => None,
            Err(Misfit::Wide) => {
                self.wide.entry(seq).or_insert(*e);
                Slot::wide(base, seq, e.time_ns).ok()
            }
        }
    }

    /// The slots the recording holds, registered and spare.
    #[cfg(test)]
    fn capacity(&self) -> usize {
        self.chunks
            .iter()
            .chain(&self.spare)
            .map(|c| c.capacity())
            .sum()
    }

    /// The events (published so far), oldest first: the newest `max_entries` of them, and how
    /// many others the recording dropped.
    pub(super) fn events(&self) -> (Vec<(u64, Entry)>, u64) {
        let mut rows = Vec::new();
        let mut lost = 0;
        for c in &self.chunks {
            lost += c.read(&self.places, &self.wide, &mut rows);
        }
        rows.sort_unstable_by_key(|&(seq, _)| seq);
        let keep = rows.len().min(self.options.max_entries);
        let refused = REFUSED
            .load(Ordering::Relaxed)
            .saturating_sub(self.refused_at_start);
        let dropped = self.swept + refused + lost + (rows.len() - keep) as u64;
        rows.drain(..rows.len() - keep);
        (rows, dropped)
    }

    /// Keeps `extra` for event `seq`, and the newest `max_entries` others.
    pub(super) fn keep_extra(&mut self, seq: u64, extra: Extra) {
        prune(&mut self.extras, self.options.max_entries);
        self.extras.insert(seq, extra);
    }

    /// Keeps event `seq` whole (it has no slot of its own form), and the newest `max_entries`
    /// others.
    pub(super) fn keep_wide(&mut self, seq: u64, entry: Entry) {
        prune(&mut self.wide, self.options.max_entries);
        self.wide.insert(seq, entry);
    }

    /// The index of `place` in the table, added when new ([`WIDE`] when the table is full).
    pub(super) fn place_index(&mut self, place: Place) -> u32 {
        if let Some(&id) = self.place_ids.get(&place) {
            return id;
        }
        let id = self.places.len() as u32;
        if id >= WIDE {
            return WIDE;
        }
        self.places.push(place);
        self.place_ids.insert(place, id);
        id
    }

    /// 1 + the index of pool `id` in the table, added when new (0 past `u32::MAX` pools).
    pub(super) fn pool_index(&mut self, id: u64) -> u32 {
        if let Some(i) = self.pools.iter().position(|&p| p == id) {
            return u32::try_from(i + 1).unwrap_or(0);
        }
        let Ok(index) = u32::try_from(self.pools.len() + 1) else {
            return 0;
        };
        self.pools.push(id);
        index
    }
}

/// The recording (the running one, or the last one after `stop`).
pub(super) static RECORDING: Mutex<Option<Recording>> = Mutex::new(None);
/// The running recording's generation, read by every event to see whether its writer's chunk
/// belongs to it.
pub(super) static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Replaces the recording with a new, empty one.
pub(super) fn begin(options: HistoryOptions, started_unix_ms: u64) {
    let mut r = lock(&RECORDING);
    let old = r.take();
    let generation = GENERATION.load(Ordering::Relaxed) + 1;
    let hot = Arc::new(Hot {
        generation,
        seq: AtomicU64::new(0),
        start_ns: clock::read(),
        slots: options.max_entries.clamp(MIN_CHUNK, CHUNK),
    });
    let mut rec = Recording {
        options,
        started_unix_ms,
        hot,
        chunks: Vec::new(),
        spare: Vec::new(),
        sweep_at: 0,
        swept: 0,
        refused_at_start: REFUSED.load(Ordering::Relaxed),
        pools: Vec::new(),
        extras: BTreeMap::new(),
        places: Vec::new(),
        place_ids: HashMap::new(),
        wide: BTreeMap::new(),
    };
    rec.sweep_at = rec.min_sweep();
    // The last recording's chunks that no writer holds are written again.
    if let Some(old) = old {
        for c in old.spare.into_iter().chain(old.chunks) {
            rec.recycle(c);
        }
    }
    let events = rec.hot.clone();
    *r = Some(rec);
    GENERATION.store(generation, Ordering::Release);
    clock::start(move || events.seq.load(Ordering::Relaxed));
}

/// Events not recorded because the shared state of threads whose own is gone was held by the
/// thread noting them (an event noted while another was being written); counted as dropped.
pub(super) static REFUSED: AtomicU64 = AtomicU64::new(0);

#[cfg(test)]
mod tests;
