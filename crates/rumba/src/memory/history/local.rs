//! A thread's side of a memory history: its hold on the running recording (the `track` module),
//! the pools and places it has met, and the recording of one event, inlined in the resource that
//! notes it. A pool's own events do not come here: the pool writes them under its lock (the
//! `pool` module).
//!
//! **An event.** A thread's first event in a recording, and the event that finds its chunk full,
//! take a chunk under the recording's lock (the `log` module). Every other event finds its place
//! among the last one met of its kind, takes its sequence number (the total order of the
//! recording: one relaxed `fetch_add` on the recording's counter), reads the published time (the
//! `clock` module), and writes a 32-byte slot (the `slot` module), published with a release store
//! of the chunk's length. An event whose values do not fit a slot is kept whole under the
//! recording's lock; one too far from its chunk's base starts a new chunk.
//!
//! This module touches the thread-local state of the threads that record, and, under the
//! recording's lock, the running recording's tables.

use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use super::chain::ChainId;
use super::clock;
use super::log::{RECORDING, REFUSED};
use super::slot::{Place, WIDE};
use super::track::{KINDS, Track};
use super::{EventKind, Extra, Note};
use crate::sync::{lock, try_lock};

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

/// A thread's place in the running recording.
struct Local {
    track: Track,
    /// Pool id → 1 + its index in the recording's table.
    pools: Vec<(u64, u32)>,
    /// The last place met of each kind (by the kind's number).
    places: [Met; KINDS],
}

impl Local {
    const fn new() -> Self {
        Local {
            track: Track::new(),
            pools: Vec::new(),
            places: [Met::NONE; KINDS],
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
        if self.track.refill(rec, u64::MAX) {
            self.pools.clear();
            self.places = [Met::NONE; KINDS];
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
        let Some(index) = self
            .track
            .own(&mut lock(&RECORDING))
            .map(|rec| rec.pool_index(id))
        else {
            return 0;
        };
        self.pools.push((id, index));
        index
    }

    /// The index of the place of an event of `kind` in the recording's table ([`WIDE`] when it
    /// has none).
    #[inline(always)]
    fn place(&mut self, kind: EventKind, met: Met) -> u32 {
        let last = &self.places[kind as usize];
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
        let Some(id) = self
            .track
            .own(&mut lock(&RECORDING))
            .map(|rec| rec.place_index(place))
        else {
            return WIDE;
        };
        self.places[kind as usize] = Met { id, ..met };
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

    /// Writes the event; `extra` says whether a detail or backtrace goes beside it, and
    /// `keep(self, seq)` keeps it.
    ///
    /// The place is found before the event takes its number and time: its lookup may call out
    /// (a new place), and fewer values are then live across that call.
    #[inline(always)]
    fn record(
        &mut self,
        note: &Note,
        kind: EventKind,
        chain: ChainId,
        extra: bool,
        keep: impl FnOnce(&Self, u64),
    ) {
        if self.track.ready().is_none() && !self.refill() {
            return;
        }
        let pool = note.pool.as_ref().map_or(0, |p| p.id);
        let met = Met {
            device: note.device,
            stream: note.stream.0,
            chain,
            pool,
            extra,
            id: WIDE,
        };
        let place = self.place(kind, met);
        let Some(run) = &self.track.run else {
            return;
        };
        let seq = run.hot.seq.fetch_add(1, Ordering::Relaxed);
        let now = clock::now();
        if extra {
            keep(self, seq);
        }
        let Some(run) = &mut self.track.run else {
            return;
        };
        let values = note.values();
        if let Err(misfit) = run.writer.write(seq, now, &values, place) {
            let whole = self.resolve(kind, &met);
            self.track.misfit(misfit, seq, now, values, place, whole);
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

/// Records `note` as an event of `kind` served by `chain`.
#[inline(always)]
pub(super) fn record(note: &Note, kind: EventKind, chain: ChainId) {
    with_local!(|l| l.record(note, kind, chain, false, |_, _| {}));
}

/// Records `note` as an event of `kind` served by `chain`, with `extra` beside it.
#[cold]
pub(super) fn record_with(note: &Note, kind: EventKind, chain: ChainId, extra: Extra) {
    let mut extra = Some(extra);
    with_local!(|l| l.record(note, kind, chain, true, |l, seq| {
        if let Some(x) = extra.take() {
            l.track.keep_extra(seq, x);
        }
    }));
}
