//! Where a recording keeps its events: every thread writes its own chunks of slots, with no lock,
//! and a snapshot gathers the chunks of all threads and merges them by sequence number.
//!
//! **Writing.** A thread's first event of a recording takes a chunk (a few hundred slots) and
//! registers it with the recording, under the recording's lock; so does the event that finds its
//! chunk full. Every other event takes its sequence number (one relaxed `fetch_add` on the
//! recording's counter: the total order of the recording), reads the published time, writes its
//! slot and publishes it with a release store of the chunk's length. A slot below the published
//! length is never written again until the chunk is recycled, which needs the recording to be its
//! only holder, and only the thread that owns a chunk writes it (or a sweep, under the
//! recording's lock, one that no one else holds yet), so a reader needs no lock to read it. A thread that exits leaves its chunks registered: its events stay.
//!
//! **The bound.** Chunks whose events are all older than the newest `max_entries` of the
//! recording (by sequence number), and that no thread writes any more, are swept from time to
//! time (when the registered chunks have grown by a quarter since the last sweep) and counted;
//! the same sweep gathers the events of partly filled chunks no thread writes any more (those of
//! threads that exited) into full chunks of the recording's own, so that threads which record a
//! few events each and exit cost their events, not a chunk apiece. A snapshot merges what is
//! left and keeps exactly the newest `max_entries`. Swept chunks are written again (fresh memory
//! costs a page fault a page), by this recording or the next. Memory stays within about two and a
//! half times `max_entries` slots and eight chunks, plus a chunk per live thread that has recorded.
//! Two cases lie outside it: a thread that stays alive without recording keeps its chunk of an
//! earlier recording until its next event; an event noted after its thread's locals were dropped
//! (by another thread-local's destructor) is written to a shared chunk that is never let go.
//!
//! **Time.** The `clock` module's published time: a thread of the recording reads the monotonic
//! clock every millisecond while events flow, and an event reads the last value (one relaxed
//! load) instead of calling the clock, a sizeable part of a pool's allocation. Its resolution is
//! about a millisecond; the sequence number orders the events within one.
//!
//! This module touches the chunks of the recordings and the thread-local state of its threads.

use std::cell::{RefCell, UnsafeCell};
use std::collections::BTreeMap;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Arc, Mutex};

use super::chain::ChainId;
use super::clock;
use super::{EventKind, Extra, HistoryOptions, Note};
use crate::sync::{lock, try_lock};

/// Slots per chunk (fewer when `max_entries` is smaller).
const CHUNK: usize = 512;

/// One event in a chunk: 64 bytes, one cache line; its sequence number lies beside it.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(super) struct Entry {
    /// Nanoseconds since the recording started (to about a millisecond: see the module docs).
    pub(super) time_ns: u64,
    pub(super) stream: u64,
    pub(super) bytes: u64,
    pub(super) ptr: u64,
    /// The pool's reserved and used bytes after the event (when `pool > 0`).
    pub(super) pool_reserved: u64,
    pub(super) pool_used: u64,
    pub(super) device: u32,
    /// Index into the table of chains.
    pub(super) chain: ChainId,
    /// 1 + index into [`Recording::pools`]; 0: not a pool's event.
    pub(super) pool: u32,
    pub(super) kind: EventKind,
    /// A detail or backtrace of this event is in [`Recording::extras`].
    pub(super) extra: bool,
}

const _: () = assert!(size_of::<Entry>() == 64);

/// A run of slots one thread writes in order.
struct Chunk {
    seqs: Box<[UnsafeCell<MaybeUninit<u64>>]>,
    entries: Box<[UnsafeCell<MaybeUninit<Entry>>]>,
    /// Slots written and published (release store by the writer, acquire load by readers).
    len: AtomicUsize,
}

// SAFETY: the cells are written only by the chunk's one `Writer` (owned by one thread, or used
// under a lock), each slot once and before `len` is raised past it with a release store; readers
// read only slots below a `len` they loaded with acquire. No slot is read and written at once.
unsafe impl Sync for Chunk {}

impl Chunk {
    fn new(slots: usize) -> Self {
        Chunk {
            seqs: uninit(slots),
            entries: uninit(slots),
            len: AtomicUsize::new(0),
        }
    }

    fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The published slots, with their sequence numbers, appended to `out`.
    fn read(&self, out: &mut Vec<(u64, Entry)>) {
        let n = self.len.load(Ordering::Acquire);
        for i in 0..n {
            // SAFETY: slot `i` is below the published length: written once before the release
            // store that raised `len` past it (acquired above), and never written again.
            let row = unsafe {
                (
                    (*self.seqs[i].get()).assume_init(),
                    (*self.entries[i].get()).assume_init(),
                )
            };
            out.push(row);
        }
    }

    /// The sequence number of the newest of the first `n` slots (`n`: a published length
    /// loaded with acquire); `None` when `n` is 0. Slots are written in sequence order (a
    /// thread's own, and those a sweep gathers), so the last is the newest.
    fn newest(&self, n: usize) -> Option<u64> {
        // SAFETY: as in `read`: slot `n - 1` is published.
        (n > 0).then(|| unsafe { (*self.seqs[n - 1].get()).assume_init() })
    }
}

/// `n` unwritten cells.
fn uninit<T>(n: usize) -> Box<[UnsafeCell<MaybeUninit<T>>]> {
    (0..n)
        .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
        .collect()
}

/// The one writer of a chunk.
struct Writer {
    chunk: Arc<Chunk>,
    /// Slots written (the writer's copy of `chunk.len`).
    len: usize,
}

impl Writer {
    fn full(&self) -> bool {
        self.len == self.chunk.capacity()
    }

    /// Writes the next slot and publishes it (the chunk must not be full).
    #[inline(always)]
    fn push(&mut self, seq: u64, entry: Entry) {
        let i = self.len;
        assert!(i < self.chunk.capacity(), "a full chunk is replaced first");
        // SAFETY: slot `i` is not published (`len` is `i`), so no reader reads it, and this
        // writer is the chunk's only one; the store below publishes it.
        unsafe {
            (*self.chunk.seqs[i].get()).write(seq);
            (*self.chunk.entries[i].get()).write(entry);
        }
        self.len = i + 1;
        self.chunk.len.store(i + 1, Ordering::Release);
    }
}

/// What the writers of a recording share without its lock.
struct Hot {
    generation: u64,
    /// The next sequence number.
    seq: AtomicU64,
    /// The clock when the recording started.
    start_ns: u64,
    slots: usize,
}

/// A recording: its chunks and the tables its events point into.
pub(super) struct Recording {
    pub(super) options: HistoryOptions,
    pub(super) started_unix_ms: u64,
    hot: Arc<Hot>,
    chunks: Vec<Arc<Chunk>>,
    /// Swept chunks no one holds, emptied, for threads to write again (fresh memory costs a
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
}

impl Recording {
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

    /// Drops the chunks no thread writes any more whose events are all older than the newest
    /// `max_entries` (each has `max_entries` events after it), and gathers the events of the
    /// partly filled chunks no thread writes any more (of threads that exited) into full ones.
    fn sweep(&mut self) {
        let floor = self
            .hot
            .seq
            .load(Ordering::Relaxed)
            .saturating_sub(self.options.max_entries as u64);
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
            let old = c.newest(len).is_none_or(|s| s < floor);
            if done && old {
                self.swept += len as u64;
                self.recycle(c);
            } else if alone && len < c.capacity() {
                c.read(&mut loose);
                self.recycle(c);
            } else {
                self.chunks.push(c);
            }
        }
        self.compact(loose, floor);
    }

    /// Writes `rows` (events of chunks no thread writes any more) into chunks of the recording's
    /// own, in sequence order, dropping those older than `floor`; all but the last are full.
    fn compact(&mut self, mut rows: Vec<(u64, Entry)>, floor: u64) {
        rows.sort_unstable_by_key(|&(seq, _)| seq);
        let old = rows.partition_point(|&(seq, _)| seq < floor);
        self.swept += old as u64;
        for part in rows[old..].chunks(self.hot.slots) {
            let mut chunk = self
                .spare
                .pop()
                .and_then(Arc::into_inner)
                .unwrap_or_else(|| Chunk::new(self.hot.slots));
            for (i, &(seq, entry)) in part.iter().enumerate() {
                chunk.seqs[i].get_mut().write(seq);
                chunk.entries[i].get_mut().write(entry);
            }
            *chunk.len.get_mut() = part.len();
            self.chunks.push(Arc::new(chunk));
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
        for c in &self.chunks {
            c.read(&mut rows);
        }
        rows.sort_unstable_by_key(|&(seq, _)| seq);
        let keep = rows.len().min(self.options.max_entries);
        let refused = REFUSED
            .load(Ordering::Relaxed)
            .saturating_sub(self.refused_at_start);
        let dropped = self.swept + refused + (rows.len() - keep) as u64;
        rows.drain(..rows.len() - keep);
        (rows, dropped)
    }

    /// Keeps `extra` for event `seq`, dropping those of events older than the newest
    /// `max_entries`.
    fn keep_extra(&mut self, seq: u64, extra: Extra) {
        let floor = (seq + 1).saturating_sub(self.options.max_entries as u64);
        while let Some(e) = self.extras.first_entry()
            && *e.key() < floor
        {
            e.remove();
        }
        self.extras.insert(seq, extra);
    }

    /// 1 + the index of pool `id` in the table, added when new (0 past `u32::MAX` pools).
    fn pool_index(&mut self, id: u64) -> u32 {
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
/// The running recording's generation, read by every event to see whether its thread's chunk
/// belongs to it.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Replaces the recording with a new, empty one.
pub(super) fn begin(options: HistoryOptions, started_unix_ms: u64) {
    let mut r = lock(&RECORDING);
    let old = r.take();
    let generation = GENERATION.load(Ordering::Relaxed) + 1;
    let hot = Arc::new(Hot {
        generation,
        seq: AtomicU64::new(0),
        start_ns: clock::read(),
        slots: options.max_entries.clamp(16, CHUNK),
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
    };
    rec.sweep_at = rec.min_sweep();
    // The last recording's chunks that no thread holds are written again.
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

/// A thread's place in the running recording.
struct Local {
    generation: u64,
    hot: Option<Arc<Hot>>,
    writer: Option<Writer>,
    /// Pool id → 1 + its index in the recording's table.
    pools: Vec<(u64, u32)>,
    /// The last of `pools` used (index 0: none).
    last_pool: (u64, u32),
}

impl Local {
    const fn new() -> Self {
        Local {
            generation: 0,
            hot: None,
            writer: None,
            pools: Vec::new(),
            last_pool: (0, 0),
        }
    }

    /// Joins the running recording, or takes a fresh chunk in it; false when there is none.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> bool {
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut() else {
            return false;
        };
        if self.generation != rec.hot.generation {
            self.generation = rec.hot.generation;
            self.hot = Some(rec.hot.clone());
            self.writer = None;
            self.pools.clear();
            self.last_pool = (0, 0);
        }
        if self.writer.as_ref().is_none_or(Writer::full) {
            // The full chunk is let go first, so that a sweep may recycle it.
            self.writer = None;
            let chunk = rec.take_chunk();
            self.writer = Some(Writer { chunk, len: 0 });
        }
        true
    }

    /// 1 + the index of pool `id` in the recording's table (0 when the recording changed).
    #[inline(always)]
    fn pool(&mut self, id: u64) -> u32 {
        match self.last_pool {
            (last, index) if last == id && index > 0 => index,
            _ => self.other_pool(id),
        }
    }

    /// [`pool`](Self::pool) for a pool other than the last one.
    #[cold]
    #[inline(never)]
    fn other_pool(&mut self, id: u64) -> u32 {
        if let Some(&(_, index)) = self.pools.iter().find(|(p, _)| *p == id) {
            self.last_pool = (id, index);
            return index;
        }
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) else {
            return 0;
        };
        let index = rec.pool_index(id);
        self.pools.push((id, index));
        self.last_pool = (id, index);
        index
    }

    /// Keeps `extra` for event `seq` of this thread's recording; false when the recording
    /// changed.
    #[cold]
    fn keep_extra(&self, seq: u64, extra: Extra) -> bool {
        let mut r = lock(&RECORDING);
        match r.as_mut().filter(|r| r.hot.generation == self.generation) {
            Some(rec) => {
                rec.keep_extra(seq, extra);
                true
            }
            None => false,
        }
    }

    /// Writes the event; `extra(self, seq)` keeps what goes beside it and says whether it did.
    #[inline(always)]
    fn record(
        &mut self,
        note: &Note,
        kind: EventKind,
        chain: ChainId,
        extra: impl FnOnce(&Self, u64) -> bool,
    ) {
        if (self.generation != GENERATION.load(Ordering::Acquire)
            || self.writer.as_ref().is_none_or(Writer::full))
            && !self.refill()
        {
            return;
        }
        let (pool, pool_reserved, pool_used) = match &note.pool {
            Some(p) => (self.pool(p.id), p.reserved as u64, p.used as u64),
            None => (0, 0, 0),
        };
        let Some(hot) = &self.hot else {
            return;
        };
        let seq = hot.seq.fetch_add(1, Ordering::Relaxed);
        let time_ns = clock::now().saturating_sub(hot.start_ns);
        let extra = extra(self, seq);
        let Some(writer) = &mut self.writer else {
            return;
        };
        writer.push(
            seq,
            Entry {
                time_ns,
                stream: note.stream.0,
                bytes: note.bytes as u64,
                ptr: note.ptr,
                pool_reserved,
                pool_used,
                device: note.device as u32,
                chain,
                pool,
                kind,
                extra,
            },
        );
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = const { RefCell::new(Local::new()) };
}

/// Writes for threads whose own state is gone (an event recorded by a destructor that runs
/// after the thread's locals were dropped).
static ORPHANS: Mutex<Local> = Mutex::new(Local::new());

/// Events not recorded because [`ORPHANS`] was held by the thread noting them (an event noted
/// while another was being written); counted as dropped.
static REFUSED: AtomicU64 = AtomicU64::new(0);

/// Binds `$l` to this thread's state (or to the shared one of threads whose own is gone) and
/// runs `$body`. A macro, not a function taking a closure, and the thread-local is reached through
/// a pointer taken by a `try_with` that does nothing else: the body is then inlined in the
/// recording site with the caller's values in registers (std's `try_with` with the body inside
/// is not inlined, and across a call the note is in memory).
macro_rules! with_local {
    (|$l:ident| $body:expr) => {{
        let own = match LOCAL.try_with(|local| std::ptr::from_ref(local)) {
            // SAFETY: `LOCAL` is this thread's, alive (`try_with` succeeded) until the thread's
            // locals are dropped, which happens on this thread and not before this call returns:
            // the body neither exits the thread nor drops thread-locals.
            Ok(local) => match unsafe { &*local }.try_borrow_mut() {
                Ok(mut own) => {
                    let $l: &mut Local = &mut own;
                    $body;
                    true
                }
                Err(_) => false,
            },
            Err(_) => false,
        };
        if !own {
            // Never waits: the thread that holds the shared state may be this one.
            match try_lock(&ORPHANS) {
                Some(mut shared) => {
                    let $l: &mut Local = &mut shared;
                    $body;
                }
                None => {
                    REFUSED.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }};
}

/// Records `note` as an event of `kind` served by `chain`.
#[inline(always)]
pub(super) fn record(note: &Note, kind: EventKind, chain: ChainId) {
    with_local!(|l| l.record(note, kind, chain, |_, _| false));
}

/// Records `note` as an event of `kind` served by `chain`, with `extra` beside it.
#[cold]
pub(super) fn record_with(note: &Note, kind: EventKind, chain: ChainId, extra: Extra) {
    let mut extra = Some(extra);
    with_local!(|l| l.record(note, kind, chain, |l, seq| {
        extra.take().is_some_and(|x| l.keep_extra(seq, x))
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::StreamHandle;

    /// The recording is process-wide: these tests take turns.
    use super::super::TEST_TURN as TURN;

    fn options(max_entries: usize) -> HistoryOptions {
        HistoryOptions {
            max_entries,
            ..HistoryOptions::default()
        }
    }

    fn note(ptr: u64) -> Note {
        Note::new(EventKind::Alloc, 0, StreamHandle(0), 8, ptr)
    }

    /// The recording's events and dropped count, and the chunks it holds.
    fn events() -> (Vec<(u64, Entry)>, u64, usize) {
        let r = lock(&RECORDING);
        let rec = r.as_ref().unwrap();
        let (rows, dropped) = rec.events();
        (rows, dropped, rec.chunks.len())
    }

    /// Several threads, each records `each` events (ptr: thread × 1e6 + i), then exits.
    fn threads(count: u64, each: u64) {
        let handles: Vec<_> = (0..count)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..each {
                        record(&note(t * 1_000_000 + i), EventKind::Alloc, 0);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    #[test]
    fn threads_that_exited_keep_their_events_merged_in_sequence_order() {
        let _turn = lock(&TURN);
        let each = if cfg!(miri) { 40 } else { 300 };
        begin(options(1000), 0);
        threads(4, each);
        let (rows, dropped, _) = events();
        assert_eq!(rows.len() as u64, (4 * each).min(1000));
        assert_eq!(dropped, 4 * each - rows.len() as u64);
        let seqs: Vec<u64> = rows.iter().map(|(s, _)| *s).collect();
        let first = seqs[0];
        assert_eq!(seqs, (first..first + rows.len() as u64).collect::<Vec<_>>());
        // Each thread's events keep its order.
        for t in 0..4 {
            let mine: Vec<u64> = rows
                .iter()
                .map(|(_, e)| e.ptr)
                .filter(|p| p / 1_000_000 == t)
                .collect();
            assert!(mine.windows(2).all(|w| w[0] < w[1]), "{mine:?}");
        }
    }

    #[test]
    fn sweeps_keep_the_newest_events_and_bound_the_chunks() {
        let _turn = lock(&TURN);
        let (max, total) = if cfg!(miri) { (16, 400) } else { (64, 20_000) };
        begin(options(max), 0);
        threads(3, total / 3);
        for i in 0..total {
            record(&note(i), EventKind::Alloc, 0);
        }
        let recorded = total + total / 3 * 3;
        let (rows, dropped, chunks) = events();
        assert_eq!(rows.len(), max);
        assert_eq!(dropped, recorded - max as u64);
        assert_eq!(rows[0].0, recorded - max as u64);
        let ptrs: Vec<u64> = rows.iter().map(|(_, e)| e.ptr).collect();
        assert_eq!(ptrs, (total - max as u64..total).collect::<Vec<_>>());
        // One chunk holds max_entries; sweeps keep a handful (what the window needs, the three
        // writers' chunks, a quarter more), not the hundreds that were filled.
        assert!(chunks <= 12, "{chunks} chunks");
    }

    #[test]
    fn threads_that_record_a_few_events_each_and_exit_stay_within_the_bound() {
        let _turn = lock(&TURN);
        let (count, max) = if cfg!(miri) {
            (40, 64)
        } else {
            (2000, 100_000)
        };
        begin(options(max), 0);
        for _ in 0..count {
            threads(1, 1);
        }
        let (rows, dropped, _) = events();
        assert_eq!((rows.len(), dropped), (count as usize, 0));
        assert!(rows.windows(2).all(|w| w[0].0 < w[1].0));
        // The documented bound: two and a half times `max_entries` slots and eight chunks
        // (no thread that recorded is alive).
        let r = lock(&RECORDING);
        let rec = r.as_ref().unwrap();
        let bound = max * 5 / 2 + 8 * rec.hot.slots;
        assert!(rec.capacity() <= bound, "{} slots", rec.capacity());
    }

    #[test]
    fn a_snapshot_while_threads_record_sees_whole_events_in_order() {
        let _turn = lock(&TURN);
        let each = if cfg!(miri) { 30 } else { 2000 };
        begin(options(100), 0);
        let writers = std::thread::spawn(move || threads(3, each));
        let mut seen = 0;
        while !writers.is_finished() || seen == 0 {
            let (rows, _, _) = events();
            assert!(rows.len() <= 100);
            assert!(rows.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(
                rows.iter()
                    .all(|(_, e)| e.bytes == 8 && e.kind == EventKind::Alloc)
            );
            seen += 1;
        }
        writers.join().unwrap();
        assert_eq!(events().0.len() as u64, (3 * each).min(100));
    }

    #[test]
    fn a_new_recording_starts_empty_and_writes_the_old_chunks_again() {
        let _turn = lock(&TURN);
        begin(options(16), 0);
        for i in 0..100 {
            record(&note(i), EventKind::Alloc, 0);
        }
        begin(options(16), 0);
        assert_eq!(events().0.len(), 0);
        assert!(!lock(&RECORDING).as_ref().unwrap().spare.is_empty());
        record(&note(7), EventKind::Free, 0);
        let (rows, dropped, _) = events();
        assert_eq!((rows.len(), dropped), (1, 0));
        assert_eq!(
            (rows[0].0, rows[0].1.ptr, rows[0].1.kind),
            (0, 7, EventKind::Free)
        );
    }
}
