//! Where a recording keeps its events: every thread writes its own chunks of slots, with no lock,
//! and a snapshot gathers the chunks of all threads and merges them by sequence number.
//!
//! **Writing.** A thread's first event of a recording takes a chunk (a few hundred slots) and
//! registers it with the recording, under the recording's lock; so does the event that finds its
//! chunk full. Every other event takes its sequence number (one relaxed `fetch_add` on the
//! recording's counter: the total order of the recording), reads the coarse clock, writes its
//! slot and publishes it with a release store of the chunk's length. A slot below the published
//! length is never written again, and only the thread that owns a chunk writes it, so a reader
//! needs no lock to read it. A thread that exits leaves its chunks registered: its events stay.
//!
//! **The bound.** Chunks whose events are all older than the newest `max_entries` of the
//! recording (by sequence number), and that no thread writes any more, are dropped from time to
//! time (when the registered chunks have doubled since the last sweep) and counted; a snapshot
//! merges what is left and keeps exactly the newest `max_entries`. Memory stays within about
//! twice `max_entries` slots plus a chunk per recording thread.
//!
//! **Time.** `CLOCK_MONOTONIC_COARSE` (Linux): the time of the last scheduler tick, read in a few
//! nanoseconds where the precise clock costs tens, a sizeable part of a pool's allocation. Its
//! resolution is the tick, 1 to 10 ms (4 ms with the common `HZ=250`); the sequence number orders
//! the events within a tick. Elsewhere the precise monotonic clock is read.
//!
//! This module touches the chunks of the recordings and the thread-local state of its threads.

use std::cell::{RefCell, UnsafeCell};
use std::collections::BTreeMap;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::chain::ChainId;
use super::{EventKind, Extra, HistoryOptions};
use crate::sync::lock;

/// Slots per chunk (fewer when `max_entries` is smaller).
const CHUNK: usize = 512;

/// One event in a chunk: 64 bytes, one cache line; its sequence number lies beside it.
#[derive(Clone, Copy)]
#[repr(align(64))]
pub(super) struct Entry {
    /// Nanoseconds since the recording started (coarse: see the module docs).
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
    pub(super) pool: u16,
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

    /// The sequence number of the newest published slot; `None` when there is none.
    fn newest(&self) -> Option<u64> {
        let n = self.len.load(Ordering::Acquire);
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
    /// Sweep when `chunks` reaches this many.
    sweep_at: usize,
    /// Events in chunks dropped by sweeps.
    swept: u64,
    /// The distinct pools seen, by id.
    pub(super) pools: Vec<u64>,
    /// Details and backtraces by sequence number (the older ones dropped as events are).
    pub(super) extras: BTreeMap<u64, Extra>,
}

impl Recording {
    /// Registers `chunk`, sweeping when the chunks have doubled since the last sweep.
    fn add(&mut self, chunk: Arc<Chunk>) {
        self.chunks.push(chunk);
        if self.chunks.len() >= self.sweep_at {
            self.sweep();
            self.sweep_at = (2 * self.chunks.len()).max(self.min_sweep());
        }
    }

    /// Chunks at which the first sweep runs: those `max_entries` fill, and some.
    fn min_sweep(&self) -> usize {
        2 * self.options.max_entries.div_ceil(self.hot.slots) + 4
    }

    /// Drops the chunks no thread writes any more whose events are all older than the newest
    /// `max_entries` (each has `max_entries` events after it).
    fn sweep(&mut self) {
        let floor = self
            .hot
            .seq
            .load(Ordering::Relaxed)
            .saturating_sub(self.options.max_entries as u64);
        let mut swept = 0;
        self.chunks.retain(|c| {
            // Only the registry holds a chunk whose writer is gone (it is not cloned elsewhere
            // but under the recording's lock, which the caller holds).
            let done = c.len.load(Ordering::Acquire) == c.capacity() || Arc::strong_count(c) == 1;
            let old = c.newest().is_none_or(|s| s < floor);
            if done && old {
                swept += c.len.load(Ordering::Acquire) as u64;
            }
            !(done && old)
        });
        self.swept += swept;
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
        let dropped = self.swept + (rows.len() - keep) as u64;
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

    /// 1 + the index of pool `id` in the table, added when new (0 past `u16::MAX` pools).
    fn pool_index(&mut self, id: u64) -> u16 {
        if let Some(i) = self.pools.iter().position(|&p| p == id) {
            return (i + 1) as u16;
        }
        if self.pools.len() >= usize::from(u16::MAX) {
            return 0;
        }
        self.pools.push(id);
        self.pools.len() as u16
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
    let generation = GENERATION.load(Ordering::Relaxed) + 1;
    let hot = Arc::new(Hot {
        generation,
        seq: AtomicU64::new(0),
        start_ns: clock_ns(),
        slots: options.max_entries.clamp(16, CHUNK),
    });
    let mut rec = Recording {
        options,
        started_unix_ms,
        hot,
        chunks: Vec::new(),
        sweep_at: 0,
        swept: 0,
        pools: Vec::new(),
        extras: BTreeMap::new(),
    };
    rec.sweep_at = rec.min_sweep();
    *r = Some(rec);
    GENERATION.store(generation, Ordering::Release);
}

/// A thread's place in the running recording.
struct Local {
    generation: u64,
    hot: Option<Arc<Hot>>,
    writer: Option<Writer>,
    /// Pool id → 1 + its index in the recording's table.
    pools: Vec<(u64, u16)>,
}

impl Local {
    const fn new() -> Self {
        Local {
            generation: 0,
            hot: None,
            writer: None,
            pools: Vec::new(),
        }
    }

    /// Joins the running recording, or takes a fresh chunk in it; false when there is none.
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
        }
        if self.writer.as_ref().is_none_or(Writer::full) {
            let chunk = Arc::new(Chunk::new(rec.hot.slots));
            rec.add(chunk.clone());
            self.writer = Some(Writer { chunk, len: 0 });
        }
        true
    }

    /// 1 + the index of pool `id` in the recording's table (0 when the recording changed).
    fn pool(&mut self, id: u64) -> u16 {
        if let Some(&(_, index)) = self.pools.iter().find(|(p, _)| *p == id) {
            return index;
        }
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) else {
            return 0;
        };
        let index = rec.pool_index(id);
        self.pools.push((id, index));
        index
    }

    fn record(&mut self, mut entry: Entry, pool: Option<u64>, extra: Option<Extra>) {
        if (self.generation != GENERATION.load(Ordering::Acquire)
            || self.writer.as_ref().is_none_or(Writer::full))
            && !self.refill()
        {
            return;
        }
        if let Some(id) = pool {
            entry.pool = self.pool(id);
        }
        let (Some(hot), Some(writer)) = (&self.hot, &mut self.writer) else {
            return;
        };
        let seq = hot.seq.fetch_add(1, Ordering::Relaxed);
        if let Some(extra) = extra {
            let mut r = lock(&RECORDING);
            if let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) {
                rec.keep_extra(seq, extra);
                entry.extra = true;
            }
        }
        entry.time_ns = clock_ns().saturating_sub(hot.start_ns);
        writer.push(seq, entry);
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = const { RefCell::new(Local::new()) };
}

/// Writes for threads whose own state is gone (an event recorded by a destructor that runs
/// after the thread's locals were dropped).
static ORPHANS: Mutex<Local> = Mutex::new(Local::new());

/// Records `entry` (its time, sequence number, pool index and `extra` flag are set here).
pub(super) fn record(entry: Entry, pool: Option<u64>, extra: Option<Extra>) {
    let mut args = Some((entry, pool, extra));
    let _ = LOCAL.try_with(|l| {
        if let (Some((entry, pool, extra)), Ok(mut l)) = (args.take(), l.try_borrow_mut()) {
            l.record(entry, pool, extra);
        }
    });
    if let Some((entry, pool, extra)) = args {
        lock(&ORPHANS).record(entry, pool, extra);
    }
}

/// The monotonic clock the history reads (see the module docs), in nanoseconds.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn clock_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given, which lives for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_COARSE, &mut ts) };
    if rc != 0 {
        return 0; // not on Linux since 2.6.32; the event reads as the recording's start
    }
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// The monotonic clock the history reads (see the module docs), in nanoseconds.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn clock_ns() -> u64 {
    static BASE: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    BASE.get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}
