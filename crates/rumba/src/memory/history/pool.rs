//! A pool's side of a memory history. A pool notes its events while it holds its state's lock, so
//! it keeps in that state its own hold on the running recording (the `track` module: a chunk of
//! its own), the places of its events and a run of sequence numbers, and writes its events there
//! itself: they reach no thread-local state but the thread's scope word (the `scope` module),
//! and most take no atomic read-modify-write. A recording that captures backtraces gets the
//! pool's events through the thread instead, with their backtraces (`PoolMet::refill` refuses
//! it), so that the pool's path reads no flag for it.
//!
//! **Why.** The pool is the resource whose events come fastest (a pool's allocation takes about
//! a hundred nanoseconds), and the history is meant to cost it a tenth at most. Written through
//! the thread's state (the `local` module), an event also reached the thread-local, borrowed it,
//! and compared the device and pool of its place; under the pool's lock none of that is needed:
//! a pool has one device and one id, and its lock already orders its events. Measured on the
//! pool benchmark's workload with builds alternated in one session, the pool's own track took
//! the history's cost from 1.130 to 1.121 (medians of 15 alternations), and with the scope
//! word and the refusal above to 1.108.
//!
//! **Quick and slow.** An event goes on a quick path ([`PoolHistory::quick`]) when all it needs
//! is at hand, which is nearly always: it calls nothing, and on any refusal it has changed
//! nothing, so the slow path ([`PoolHistory::record`]) starts over. The pool's path then stores
//! nothing for a call it does not make (the event's values went to the stack on every event
//! when the slow path's calls were inline with it); measured as above, about half a point.
//!
//! **Numbers.** The pool reserves a run of numbers from the recording's counter (one
//! `fetch_add`) and hands them out in the order its lock gives its events, while the counter
//! still stands where the reservation left it: no number has been handed out anywhere since.
//! When the counter moved (another writer's event), or the run is used up, it reserves again: a
//! run twice as long after a used-up one (up to [`MAX_RUN`]), a single number after one cut
//! short. The numbers of a run cut short are never used (gaps in `seq`).
//!
//! **Why the order stays true.** If one event happens before another, its number is the
//! smaller. Say the later event takes a number of the pool's run. An earlier event of this pool
//! took an earlier number of the run, or one of an earlier run (the lock orders them). Any other
//! earlier event took its number from a reservation; one made before this run's reservation gave
//! smaller numbers; one made after it happened before the later event, which then read the
//! counter past this run's end and reserved anew instead.
//!
//! This module touches a pool's history state (under the pool's lock) and, under the recording's
//! lock, the running recording's tables.

use std::sync::atomic::Ordering;

use super::chain::{ChainCell, ChainId};
use super::log::{Hot, RECORDING};
use super::slot::{Place, WIDE};
use super::track::{KINDS, Run, Track};
use super::{EventKind, Note};
use super::{clock, scope};
use crate::sync::lock;

/// The most sequence numbers a pool reserves at once.
const MAX_RUN: u64 = 64;

/// What a pool keeps of the memory history, in its state (under its lock): its track, from its
/// first event in a recording. The track lies in the state itself (about 350 bytes), not behind
/// a pointer that every event would follow: measured on the pool benchmark's workload, about
/// half a point of the history's cost, and nothing with the history off.
#[derive(Default)]
pub(crate) struct PoolHistory(Option<PoolTrack>);

impl PoolHistory {
    /// Writes `note`, an event of this history's pool (`cell`: the pool's chain), when all it
    /// needs is at hand: the thread outside every scope, the pool's chain known, a track whose
    /// chunk has room, the event's place the last of its kind, the pool's run of numbers going
    /// on, the clock published and the values fitting a slot. Otherwise it changes nothing and
    /// returns false, and the caller takes the slow path ([`record`](Self::record)).
    ///
    /// **Why a quick path.** It calls nothing, so the pool's path keeps the event's values in
    /// registers: the slow path, a call that takes them from memory, comes last.
    #[inline(always)]
    pub(super) fn quick(&mut self, note: &Note, cell: &ChainCell) -> bool {
        let Some(track) = &mut self.0 else {
            return false;
        };
        let Some(chain) = cell.known() else {
            return false;
        };
        if note.detail.is_some() || !scope::outside() {
            return false;
        }
        let PoolTrack { track, met } = track;
        let Some(run) = track.ready() else {
            return false;
        };
        let Some(place) = met.places[note.kind as usize].id(note.stream.0, chain) else {
            return false;
        };
        let Some(seq) = met.numbers.next(&run.hot) else {
            return false;
        };
        let Some(now) = clock::published() else {
            return false;
        };
        if run.writer.write(seq, now, &note.values(), place).is_err() {
            return false;
        }
        met.numbers.next = seq + 1;
        true
    }

    /// Writes `note`, an event of `kind` of this history's pool served by `chain`; false when
    /// it was not written here (no recording, or one that captures backtraces: the caller
    /// records it with its backtrace).
    #[inline(always)]
    pub(super) fn record(&mut self, note: &Note, kind: EventKind, chain: ChainId) -> bool {
        let track = match &mut self.0 {
            Some(track) => track,
            None => self.first(),
        };
        track.record(note, kind, chain)
    }

    /// The pool's track, made for its first event.
    #[cold]
    #[inline(never)]
    fn first(&mut self) -> &mut PoolTrack {
        self.0.insert(PoolTrack {
            track: Track::new(),
            met: PoolMet::new(),
        })
    }
}

/// A pool's hold on the running recording.
struct PoolTrack {
    track: Track,
    met: PoolMet,
}

/// What a pool keeps of the recording its track holds.
struct PoolMet {
    /// 1 + the pool's index in the recording's table of pools (0: not looked up yet).
    pool: u32,
    /// The last place met of each kind (by the kind's number): the device and pool are the
    /// pool's own, and its events carry no extras here.
    places: [Met; KINDS],
    numbers: Numbers,
}

/// A place a pool has met.
#[derive(Clone, Copy)]
struct Met {
    stream: u64,
    chain: ChainId,
    /// Index in the recording's table of places ([`WIDE`]: none yet).
    id: u32,
}

impl Met {
    const NONE: Met = Met {
        stream: 0,
        chain: 0,
        id: WIDE,
    };

    /// The place's index, when this is the place on `stream` served by `chain`.
    #[inline(always)]
    fn id(&self, stream: u64, chain: ChainId) -> Option<u32> {
        (self.id != WIDE && self.stream == stream && self.chain == chain).then_some(self.id)
    }
}

/// The pool's run of sequence numbers (see the module docs): the next one, the end, and the
/// run's length.
#[derive(Default)]
struct Numbers {
    next: u64,
    end: u64,
    size: u64,
}

impl Numbers {
    /// The run's next number for an event in the recording of `hot` (the run belongs to it),
    /// when the run goes on: it has numbers left and no number was handed out anywhere since it
    /// was reserved (see the module docs). Taking it is the caller's.
    #[inline(always)]
    fn next(&self, hot: &Hot) -> Option<u64> {
        (self.next < self.end && hot.seq.load(Ordering::Relaxed) == self.end).then_some(self.next)
    }

    /// The next number for an event in the recording of `hot` (the run belongs to it), taken:
    /// the run's, or the first of a new one.
    fn take(&mut self, hot: &Hot) -> u64 {
        match self.next(hot) {
            Some(next) => {
                self.next = next + 1;
                next
            }
            None => self.reserve(hot),
        }
    }

    /// Reserves a new run and takes its first number.
    #[cold]
    #[inline(never)]
    fn reserve(&mut self, hot: &Hot) -> u64 {
        let size = if self.next == self.end {
            (self.size * 2).clamp(1, MAX_RUN)
        } else {
            1
        };
        let start = hot.seq.fetch_add(size, Ordering::Relaxed);
        *self = Numbers {
            next: start + 1,
            end: start + size,
            size,
        };
        start
    }
}

impl PoolTrack {
    #[inline(always)]
    fn record(&mut self, note: &Note, kind: EventKind, chain: ChainId) -> bool {
        let PoolTrack { track, met } = self;
        let run = match track.ready() {
            Some(run) => run,
            None => match met.refill(track) {
                Some(run) => run,
                None => return false,
            },
        };
        let stream = note.stream.0;
        let place = match met.places[kind as usize].id(stream, chain) {
            Some(id) => id,
            None => {
                let pool = note.pool.as_ref().map_or(0, |p| p.id);
                met.other_place(run.generation(), kind, note.device, stream, chain, pool)
            }
        };
        let seq = met.numbers.take(&run.hot);
        let now = clock::now();
        let values = note.values();
        if let Err(misfit) = run.writer.write(seq, now, &values, place) {
            let whole = place_of(met.pool, kind, note.device, stream, chain);
            track.misfit(misfit, seq, now, values, place, whole);
        }
        true
    }
}

impl PoolMet {
    fn new() -> Self {
        PoolMet {
            pool: 0,
            places: [Met::NONE; KINDS],
            numbers: Numbers::default(),
        }
    }

    /// Joins `track` to the running recording, or takes a fresh chunk in it; `None` when there
    /// is none, or when it captures backtraces (the pool's events then go with theirs).
    #[cold]
    #[inline(never)]
    fn refill<'a>(&mut self, track: &'a mut Track) -> Option<&'a mut Run> {
        let mut r = lock(&RECORDING);
        let rec = r.as_mut().filter(|rec| !rec.options.backtraces)?;
        // A fresh chunk's base must not be above the rest of the pool's run, which the pool
        // goes on using (the run belongs to the track's recording; on joining another it goes).
        let lowest = self.numbers.next.min(self.numbers.end);
        if track.refill(rec, lowest) {
            *self = PoolMet::new();
        }
        track.run.as_mut()
    }

    /// The place of an event of `kind` on `device` and `stream` served by `chain`, the pool's
    /// (`pool`: its id), in the table of recording `generation` ([`WIDE`] when it has none, or
    /// the recording changed).
    #[cold]
    #[inline(never)]
    fn other_place(
        &mut self,
        generation: u64,
        kind: EventKind,
        device: usize,
        stream: u64,
        chain: ChainId,
        pool: u64,
    ) -> u32 {
        let mut r = lock(&RECORDING);
        let Some(rec) = r.as_mut().filter(|r| r.hot.generation == generation) else {
            return WIDE;
        };
        if self.pool == 0 {
            self.pool = rec.pool_index(pool);
        }
        let id = rec.place_index(place_of(self.pool, kind, device, stream, chain));
        self.places[kind as usize] = Met { stream, chain, id };
        id
    }
}

/// The place of an event of `kind` of the pool `pool` (1 + its index in the recording's table)
/// on `device` and `stream`, served by `chain`.
fn place_of(pool: u32, kind: EventKind, device: usize, stream: u64, chain: ChainId) -> Place {
    Place {
        kind,
        device: u32::try_from(device).unwrap_or(u32::MAX),
        stream,
        chain,
        pool,
        extra: false,
    }
}
