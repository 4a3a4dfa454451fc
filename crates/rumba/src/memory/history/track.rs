//! A writer's hold on the running recording: the recording it joined and the chunk it writes
//! there. Two kinds of writers hold one: a thread, for the events it notes (the `local` module),
//! and a pool, for its own events, which it notes under its lock (the `pool` module). This module
//! has what they share: joining a recording and taking chunks, writing an event's slot, and the
//! events that do not fit one.
//!
//! This module touches the writer's chunk and, under the recording's lock, the recording's tables.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::clock;
use super::log::{GENERATION, Hot, RECORDING, Recording, Writer};
use super::slot::{Base, Misfit, Place, Slot, Values};
use super::{EventKind, Extra};
use crate::sync::lock;

/// Entries of a writer's cache of the places it met: one per kind of event (indexed by the
/// kind's number).
pub(super) const KINDS: usize = 16;
const _: () = assert!(
    EventKind::Migrate as usize + 1 == KINDS,
    "an entry per kind"
);

/// The running recording as a writer holds it.
pub(super) struct Run {
    pub(super) hot: Arc<Hot>,
    pub(super) writer: Writer,
}

impl Run {
    /// The recording's generation.
    pub(super) fn generation(&self) -> u64 {
        self.hot.generation
    }
}

/// A writer's hold on a recording (see the module docs).
pub(super) struct Track {
    /// The recording `run` belongs to (0: none yet).
    pub(super) generation: u64,
    pub(super) run: Option<Run>,
}

impl Track {
    pub(super) const fn new() -> Self {
        Track {
            generation: 0,
            run: None,
        }
    }

    /// The track's chunk when it is the running recording's and has room for an event.
    #[inline(always)]
    pub(super) fn ready(&mut self) -> Option<&mut Run> {
        let generation = GENERATION.load(Ordering::Acquire);
        match &mut self.run {
            Some(run) if self.generation == generation && !run.writer.full() => Some(run),
            _ => None,
        }
    }

    /// Joins `rec` (the running recording) and takes a fresh chunk in it when the track holds
    /// none or a full one; true when the track joined: what its holder keeps of the last
    /// recording (places, pools, numbers) is then stale. `lowest` is the lowest sequence number
    /// the writer may still take from a run it holds in the track's recording (`u64::MAX`:
    /// none): a fresh chunk's base is not above it.
    pub(super) fn refill(&mut self, rec: &mut Recording, lowest: u64) -> bool {
        let joined = self.generation != rec.hot.generation;
        if joined {
            self.generation = rec.hot.generation;
            self.run = None;
        }
        if self.run.as_ref().is_none_or(|r| r.writer.full()) {
            // The full chunk is let go first, so that a sweep may recycle it. The base is below
            // every sequence number and time this writer takes later (the counter and the
            // published time never go back, and the writer reads them after; numbers of a run
            // it holds are not below `lowest`).
            self.run = None;
            let counter = rec.hot.seq.load(Ordering::Relaxed);
            let base = Base {
                seq: if joined { counter } else { counter.min(lowest) },
                time_ns: clock::now().saturating_sub(rec.hot.start_ns),
            };
            self.run = Some(Run {
                hot: rec.hot.clone(),
                writer: rec.writer(base),
            });
        }
        joined
    }

    /// The recording this track holds, when it is `rec`.
    pub(super) fn own<'a>(&self, rec: &'a mut Option<Recording>) -> Option<&'a mut Recording> {
        rec.as_mut().filter(|r| r.hot.generation == self.generation)
    }

    /// Keeps `extra` for event `seq` of this track's recording (not when the recording
    /// changed: the event is then not written either).
    #[cold]
    pub(super) fn keep_extra(&self, seq: u64, extra: Extra) {
        if let Some(rec) = self.own(&mut lock(&RECORDING)) {
            rec.keep_extra(seq, extra);
        }
    }

    /// Writes event `seq`, read at clock reading `now`, with `values`, which does not fit the
    /// track's chunk (`misfit`): in a new chunk that starts at it, or, when a value does not fit
    /// a slot, kept whole beside the chunks. `place` is its place index, `whole` the place.
    #[cold]
    #[inline(never)]
    pub(super) fn misfit(
        &mut self,
        misfit: Misfit,
        seq: u64,
        now: u64,
        values: Values,
        place: u32,
        whole: Place,
    ) {
        let Some(run) = &self.run else {
            return;
        };
        let whole = values.entry(now.saturating_sub(run.hot.start_ns), whole);
        let mut r = lock(&RECORDING);
        let Some(rec) = self.own(&mut r) else {
            return;
        };
        let mut misfit = Some(misfit);
        while let Some(m) = misfit.take() {
            let Some(run) = self.run.as_mut() else {
                return;
            };
            let slot = match m {
                Misfit::Base => {
                    // A new chunk whose base is this event: its offsets are 0. The old one is
                    // let go first, so that a sweep may recycle it.
                    let base = Base {
                        seq,
                        time_ns: whole.time_ns,
                    };
                    let hot = run.hot.clone();
                    self.run = None;
                    let run = self.run.insert(Run {
                        hot,
                        writer: rec.writer(base),
                    });
                    Slot::pack_entry(&run.writer.base, seq, &whole, place)
                }
                Misfit::Wide => {
                    rec.keep_wide(seq, whole);
                    Slot::wide(&run.writer.base, seq, whole.time_ns)
                }
            };
            match slot {
                Ok(slot) => {
                    if let Some(run) = self.run.as_mut() {
                        run.writer.push(slot);
                    }
                }
                Err(m) => misfit = Some(m),
            }
        }
    }
}

impl Writer {
    /// Writes event `seq`, read at clock reading `now`, with `values`, in place index `place`;
    /// a misfit when it does not fit a slot of this chunk (nothing is written then).
    #[inline(always)]
    pub(super) fn write(
        &mut self,
        seq: u64,
        now: u64,
        values: &Values,
        place: u32,
    ) -> Result<(), Misfit> {
        // Wrapped offsets: a writer's events are not before its chunk's base (see `refill`).
        let slot = Slot::pack(
            seq.wrapping_sub(self.base.seq),
            now.wrapping_sub(self.base_clock),
            values,
            place,
        )?;
        self.push(slot);
        Ok(())
    }
}
