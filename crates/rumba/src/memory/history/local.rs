//! A thread's side of a memory history: its place in the running recording (the chunk it
//! writes, the pools and places it has met), and the recording of one event, inlined in the
//! resource that notes it.
//!
//! **An event.** A thread's first event in a recording, and the event that finds its chunk full,
//! take a chunk under the recording's lock (the `log` module). Every other event finds its place
//! among the last one met of its kind, takes its sequence number (the total order of the
//! recording: one relaxed `fetch_add` on the recording's counter, or, for a pool's event, the
//! next number of a run the pool reserved: [`SeqBlock`]), reads the published time (the `clock`
//! module), and writes a 32-byte slot (the `slot` module), published with a release store of the
//! chunk's length. An event whose values do not fit a slot is kept whole under the recording's
//! lock; one too far from its chunk's base starts a new chunk.
//!
//! This module touches the thread-local state of the threads that record, and, under the
//! recording's lock, the running recording's tables.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::chain::ChainId;
use super::clock;
use super::log::{GENERATION, Hot, RECORDING, REFUSED, Writer};
use super::slot::{self, Base, Entry, Misfit, Place, Slot, WIDE};
use super::{EventKind, Extra, Note};
use crate::sync::{lock, try_lock};

/// The most sequence numbers a [`SeqBlock`] reserves at once.
const MAX_BLOCK: u64 = 64;

/// Sequence numbers for the events of one resource that notes them all while it holds one lock
/// of its own (a pool: its state's mutex). Most of them then take no atomic read-modify-write,
/// which costs a pool's allocation more than the rest of its recording (it waits for the pool's
/// own writes to reach the cache). Its fields are atomics only so that the resource can keep it
/// beside the lock rather than behind it (a field more in a pool's state slowed the pool by
/// about 1.5 % with the history off); they are read and written under that lock, and two
/// threads numbering events with one block without it could hand out a number twice.
///
/// **How.** The block reserves a run of numbers from the recording's counter (one `fetch_add`),
/// and hands them out in the order the lock gives its events, while the counter still stands
/// where the reservation left it: no number has been handed out anywhere since. When the counter
/// moved (another resource's event), or the run is used up, it reserves again: a run twice as
/// long after a used-up one (up to [`MAX_BLOCK`]), a single number after one cut short. The
/// numbers of a run cut short are never used (gaps in `seq`).
///
/// **Why the order stays true.** If one event happens before another, its number is the
/// smaller. Say the later event takes a number of this block's run. An earlier event of this
/// resource took an earlier number of the run, or one of an earlier run (the lock orders them).
/// Any other earlier event took its number from a reservation; one made before this run's
/// reservation gave smaller numbers; one made after it happened before the later event, which
/// then read the counter past this run's end and reserved anew instead.
#[derive(Debug, Default)]
pub(crate) struct SeqBlock {
    /// The recording the run belongs to.
    generation: AtomicU64,
    next: AtomicU64,
    end: AtomicU64,
    /// The run's length.
    size: AtomicU64,
}

impl SeqBlock {
    /// The next number for an event of this block's resource in the recording of `hot`.
    #[inline(always)]
    fn take(&self, hot: &Hot) -> u64 {
        let (next, end) = (
            self.next.load(Ordering::Relaxed),
            self.end.load(Ordering::Relaxed),
        );
        if next < end
            && self.generation.load(Ordering::Relaxed) == hot.generation
            && hot.seq.load(Ordering::Relaxed) == end
        {
            self.next.store(next + 1, Ordering::Relaxed);
            return next;
        }
        self.reserve(hot)
    }

    /// Reserves a new run and takes its first number.
    #[cold]
    #[inline(never)]
    fn reserve(&self, hot: &Hot) -> u64 {
        let used_up = self.generation.load(Ordering::Relaxed) == hot.generation
            && self.next.load(Ordering::Relaxed) == self.end.load(Ordering::Relaxed);
        let size = if used_up {
            (self.size.load(Ordering::Relaxed) * 2).clamp(1, MAX_BLOCK)
        } else {
            1
        };
        let start = hot.seq.fetch_add(size, Ordering::Relaxed);
        self.generation.store(hot.generation, Ordering::Relaxed);
        self.next.store(start + 1, Ordering::Relaxed);
        self.end.store(start + size, Ordering::Relaxed);
        self.size.store(size, Ordering::Relaxed);
        start
    }
}

/// A place a thread has met (see [`Local::places`]).
#[derive(Clone, Copy)]
struct Met {
    device: usize,
    stream: u64,
    chain: ChainId,
    /// The pool's id (0: none).
    pool: u64,
    extra: bool,
    /// Index in the recording's table of places ([`WIDE`]: none yet).
    id: u32,
}

impl Met {
    const NONE: Met = Met {
        device: 0,
        stream: 0,
        chain: 0,
        pool: 0,
        extra: false,
        id: WIDE,
    };

    fn same(&self, other: &Met) -> bool {
        (self.device, self.stream, self.chain, self.pool, self.extra)
            == (
                other.device,
                other.stream,
                other.chain,
                other.pool,
                other.extra,
            )
    }
}

/// Entries of [`Local::places`]: one per kind of event.
const MET: usize = 16;

/// A thread's place in the running recording.
struct Local {
    generation: u64,
    hot: Option<Arc<Hot>>,
    writer: Option<Writer>,
    /// Pool id → 1 + its index in the recording's table.
    pools: Vec<(u64, u32)>,
    /// The last place met of each kind (by the kind's number, modulo [`MET`]).
    places: [Met; MET],
}

impl Local {
    const fn new() -> Self {
        Local {
            generation: 0,
            hot: None,
            writer: None,
            pools: Vec::new(),
            places: [Met::NONE; MET],
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
            self.places = [Met::NONE; MET];
        }
        if self.writer.as_ref().is_none_or(Writer::full) {
            // The full chunk is let go first, so that a sweep may recycle it. The base is below
            // every sequence number and time this thread takes later (the counter and the
            // published time never go back, and this thread reads them after).
            self.writer = None;
            let base = Base {
                seq: rec.hot.seq.load(Ordering::Relaxed),
                time_ns: clock::now().saturating_sub(rec.hot.start_ns),
            };
            self.writer = Some(rec.writer(base));
        }
        true
    }

    /// 1 + the index of pool `id` in the recording's table (0 when the recording changed).
    #[cold]
    #[inline(never)]
    fn pool(&mut self, id: u64) -> u32 {
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

    /// The index of the place of an event of `kind` in the recording's table ([`WIDE`] when it
    /// has none).
    #[inline(always)]
    fn place(&mut self, kind: EventKind, met: Met) -> u32 {
        let last = &self.places[kind as usize % MET];
        if last.id != WIDE && last.same(&met) {
            return last.id;
        }
        self.other_place(kind, met)
    }

    /// [`place`](Self::place) for a place other than the last one of its kind.
    #[cold]
    #[inline(never)]
    fn other_place(&mut self, kind: EventKind, met: Met) -> u32 {
        let place = self.resolve(kind, &met);
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) else {
            return WIDE;
        };
        let id = rec.place_index(place);
        self.places[kind as usize % MET] = Met { id, ..met };
        id
    }

    /// The place an event of `kind` met at `met` has in the recording's tables.
    fn resolve(&mut self, kind: EventKind, met: &Met) -> Place {
        Place {
            kind,
            device: u32::try_from(met.device).unwrap_or(u32::MAX),
            stream: met.stream,
            chain: met.chain,
            pool: if met.pool == 0 {
                0
            } else {
                self.pool(met.pool)
            },
            extra: met.extra,
        }
    }

    /// Keeps `extra` for event `seq` of this thread's recording (not when the recording
    /// changed: the event is then not written either).
    #[cold]
    fn keep_extra(&self, seq: u64, extra: Extra) {
        let mut r = lock(&RECORDING);
        if let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) {
            rec.keep_extra(seq, extra);
        }
    }

    /// Writes the event, numbered by `block` when given; `extra` says whether a detail or
    /// backtrace goes beside it, and `keep(self, seq)` keeps it.
    ///
    /// The place is found before the event takes its number and time: its lookup may call out
    /// (a new place), and fewer values are then live across that call.
    #[inline(always)]
    fn record(
        &mut self,
        note: &Note,
        kind: EventKind,
        chain: ChainId,
        block: Option<&SeqBlock>,
        extra: bool,
        keep: impl FnOnce(&Self, u64),
    ) {
        if (self.generation != GENERATION.load(Ordering::Acquire)
            || self.writer.as_ref().is_none_or(Writer::full))
            && !self.refill()
        {
            return;
        }
        let (pool, reserved, used) = match &note.pool {
            Some(p) => (p.id, p.reserved as u64, p.used as u64),
            None => (0, 0, 0),
        };
        let met = Met {
            device: note.device,
            stream: note.stream.0,
            chain,
            pool,
            extra,
            id: WIDE,
        };
        let place = self.place(kind, met);
        let Some(hot) = &self.hot else {
            return;
        };
        let seq = match block {
            Some(block) => block.take(hot),
            None => hot.seq.fetch_add(1, Ordering::Relaxed),
        };
        let now = clock::now();
        if extra {
            keep(self, seq);
        }
        let Some(writer) = &mut self.writer else {
            return;
        };
        let (ptr, bytes) = (note.ptr, note.bytes as u64);
        // Wrapped offsets: the writer's events are not before its chunk's base (see `refill`).
        let slot = match slot::offsets(
            seq.wrapping_sub(writer.base.seq),
            now.wrapping_sub(writer.base_clock),
        ) {
            Ok(order) => Slot::pack(order, ptr, bytes, place, used, reserved),
            Err(misfit) => Err(misfit),
        };
        match slot {
            Ok(slot) => writer.push(slot),
            Err(misfit) => {
                let time_ns = now.saturating_sub(self.hot.as_ref().map_or(0, |h| h.start_ns));
                let whole = Entry {
                    time_ns,
                    ptr,
                    bytes,
                    pool_reserved: reserved,
                    pool_used: used,
                    place: self.resolve(kind, &met),
                };
                self.misfit(misfit, seq, place, whole);
            }
        }
    }

    /// Writes an event that does not fit its chunk: in a new chunk that starts at it, or, when a
    /// value does not fit, kept whole beside the chunks.
    #[cold]
    #[inline(never)]
    fn misfit(&mut self, misfit: Misfit, seq: u64, place: u32, whole: Entry) {
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut().filter(|r| r.hot.generation == self.generation) else {
            return;
        };
        let mut misfit = Some(misfit);
        while let Some(m) = misfit.take() {
            let Some(writer) = self.writer.as_mut() else {
                return;
            };
            let slot = match m {
                Misfit::Base => {
                    // A new chunk whose base is this event: its offsets are 0.
                    self.writer = None;
                    let base = Base {
                        seq,
                        time_ns: whole.time_ns,
                    };
                    self.writer = Some(rec.writer(base));
                    Slot::pack_entry(&base, seq, &whole, place)
                }
                Misfit::Wide => {
                    rec.keep_wide(seq, whole);
                    Slot::wide(&writer.base, seq, whole.time_ns)
                }
            };
            match slot {
                Ok(slot) => {
                    if let Some(writer) = self.writer.as_mut() {
                        writer.push(slot);
                    }
                }
                Err(m) => misfit = Some(m),
            }
        }
    }
}

thread_local! {
    static LOCAL: RefCell<Local> = const { RefCell::new(Local::new()) };
}

/// Writes for threads whose own state is gone (an event recorded by a destructor that runs
/// after the thread's locals were dropped).
static ORPHANS: Mutex<Local> = Mutex::new(Local::new());

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

/// Records `note` as an event of `kind` served by `chain`, numbered by `block` when given.
#[inline(always)]
pub(super) fn record(note: &Note, kind: EventKind, chain: ChainId, block: Option<&SeqBlock>) {
    with_local!(|l| l.record(note, kind, chain, block, false, |_, _| {}));
}

/// Records `note` as an event of `kind` served by `chain`, numbered by `block` when given, with
/// `extra` beside it.
#[cold]
pub(super) fn record_with(
    note: &Note,
    kind: EventKind,
    chain: ChainId,
    block: Option<&SeqBlock>,
    extra: Extra,
) {
    let mut extra = Some(extra);
    with_local!(|l| l.record(note, kind, chain, block, true, |l, seq| {
        if let Some(x) = extra.take() {
            l.keep_extra(seq, x);
        }
    }));
}
