//! The form an event takes in a chunk: 32 bytes, two to a cache line, written with no branch on
//! the values but checks that almost never fail.
//!
//! **Why 32 bytes.** Writing the history's events costs a pool's allocate/free benchmark less the
//! less memory they take: every slot written is a cache line filled, and the lines the recording
//! streams through push the pool's own data out of the caches. Measured on the pool benchmark's
//! workload (`max_entries` 100,000):
//! - writing 32 bytes an event instead of 72 took about 4 points off the recording's overhead;
//!   16 bytes (a slot without the address and the pool's figures, so not a real one) about 2 more;
//! - 24 bytes (three slots to a line and a half, without the pool's figures) took nothing off:
//!   a slot across two lines costs what the smaller one saves;
//! - the writer prefetches the lines its next events write, worth another 4;
//! - a packed, variable-length form (about 16 bytes an event) was slower: its arithmetic and
//!   branches cost more than the memory it saves;
//! - non-temporal stores (which skip the caches) made the recording cost 4.5 times the pool's
//!   work on the virtual machine measured: each half line went to memory alone.
//!
//! The memory is what is left of the cost: writing a word into each slot of a chunk as it is
//! taken (bringing its lines in ahead of the events) cost 6 points on that benchmark, about 10 ns
//! a line, and an event fills half a line.
//!
//! **What goes where.** A chunk has a [`Base`], the sequence number and time its slots count
//! from. A slot holds:
//! - the sequence number and the time, as 32-bit offsets from the base (time in units of
//!   [`1 << TIME_SHIFT`](TIME_SHIFT) ns: 1.024 µs, finer than the history's clock; a chunk covers
//!   about 73 minutes);
//! - the address;
//! - the size (40 bits: up to 1 TiB) and a *place* (24 bits): the index of the event's kind,
//!   device, stream, resource chain, pool and extra-flag in a table of the recording, which holds
//!   each distinct one once;
//! - the pool's used and reserved bytes in units of [`FIGURE_UNIT`] (a pool's granule; 32 bits
//!   each: up to 2 TiB).
//!
//! An event that does not fit (a size of 1 TiB or more, pool figures that are not whole units,
//! a full table of places) is kept whole beside the chunks, by sequence number, and its slot
//! carries only its order and the place [`WIDE`]. An offset that does not fit starts a new chunk.
//!
//! This module touches only the values it is given.

use std::collections::BTreeMap;

use super::EventKind;
use super::chain::ChainId;
use crate::memory::pool::GRANULE;

/// Where a chunk's offsets count from.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Base {
    pub(super) seq: u64,
    /// Nanoseconds since the recording started.
    pub(super) time_ns: u64,
}

/// One event in a chunk (see the module docs).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Slot {
    /// The sequence number's offset (low half) and the time's (high half).
    order: u64,
    ptr: u64,
    /// The size (low 40 bits) and the place (high 24 bits).
    sized: u64,
    /// The pool's used (low half) and reserved (high half) bytes, in [`FIGURE_UNIT`]s.
    figures: u64,
}

const _: () = assert!(size_of::<Slot>() == 32);

/// The time offset's unit: 2^10 ns.
const TIME_SHIFT: u32 = 10;

/// The unit of a pool's figures in a slot: the pool's granule (its blocks and segments are whole
/// units of it).
const FIGURE_UNIT: u64 = GRANULE as u64;

const SIZE_BITS: u32 = 40;

/// The place of an event kept whole beside the chunks; also the number of places a recording
/// can tell apart.
pub(super) const WIDE: u32 = (1 << (64 - SIZE_BITS)) - 1;

/// An event's kind, device, stream, resource chain, pool and extra-flag: what a recording's
/// events share many times over, held once in a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Place {
    pub(super) kind: EventKind,
    pub(super) device: u32,
    pub(super) stream: u64,
    pub(super) chain: ChainId,
    /// 1 + index into the recording's pools; 0: not a pool's event.
    pub(super) pool: u32,
    /// A detail or backtrace of this event is kept beside the chunks.
    pub(super) extra: bool,
}

/// One event as a snapshot reads it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// Nanoseconds since the recording started.
    pub(super) time_ns: u64,
    pub(super) ptr: u64,
    pub(super) bytes: u64,
    /// The pool's reserved and used bytes after the event (when `place.pool > 0`).
    pub(super) pool_reserved: u64,
    pub(super) pool_used: u64,
    pub(super) place: Place,
}

/// Why an event has no slot of its own form.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Misfit {
    /// Its sequence number or time is too far from the chunk's base: it goes in a new chunk.
    Base,
    /// A value does not fit: the event is kept whole, and its slot is [`Slot::wide`].
    Wide,
}

/// An event's values as its writer has them, its order and place apart.
#[derive(Clone, Copy)]
pub(super) struct Values {
    pub(super) ptr: u64,
    pub(super) bytes: u64,
    /// The pool's used and reserved bytes after the event (0 when not a pool's event).
    pub(super) used: u64,
    pub(super) reserved: u64,
}

impl Values {
    /// The event with these values at `time_ns` (since the recording started), in `place`.
    pub(super) fn entry(self, time_ns: u64, place: Place) -> Entry {
        Entry {
            time_ns,
            ptr: self.ptr,
            bytes: self.bytes,
            pool_reserved: self.reserved,
            pool_used: self.used,
            place,
        }
    }
}

impl Entry {
    /// The event's values, its time and place apart.
    fn values(&self) -> Values {
        Values {
            ptr: self.ptr,
            bytes: self.bytes,
            used: self.pool_used,
            reserved: self.pool_reserved,
        }
    }
}

impl Slot {
    /// The slot of an event `seq` numbers and `time_ns` nanoseconds after its chunk's base,
    /// with `values`, in place `place`. A writer passes wrapped differences, which an event
    /// before the base fails.
    #[inline(always)]
    pub(super) fn pack(
        seq: u64,
        time_ns: u64,
        values: &Values,
        place: u32,
    ) -> Result<Slot, Misfit> {
        let Values {
            ptr,
            bytes,
            used,
            reserved,
        } = *values;
        // One test for all that must fit: the offsets; the figures whole units that fit 32 bits,
        // the size 40 bits, the place below `WIDE` (`place + 1` fits 24 bits).
        let (order, far) = order(seq, time_ns);
        let figures = used | reserved;
        let wide = (figures % FIGURE_UNIT)
            | ((figures / FIGURE_UNIT) >> 32)
            | (bytes >> SIZE_BITS)
            | ((u64::from(place) + 1) >> (64 - SIZE_BITS));
        if far | wide != 0 {
            return Err(if far != 0 { Misfit::Base } else { Misfit::Wide });
        }
        Ok(Slot {
            order,
            ptr,
            sized: bytes | u64::from(place) << SIZE_BITS,
            figures: (used / FIGURE_UNIT) | ((reserved / FIGURE_UNIT) << 32),
        })
    }

    /// [`pack`](Self::pack) for event `seq` as a snapshot reads it, in place `place`.
    pub(super) fn pack_entry(base: &Base, seq: u64, e: &Entry, place: u32) -> Result<Slot, Misfit> {
        Slot::pack_from(base, seq, e.time_ns, &e.values(), place)
    }

    /// [`pack`](Self::pack) for event `seq` at `time_ns` (since the recording started), in a
    /// chunk from `base`.
    fn pack_from(
        base: &Base,
        seq: u64,
        time_ns: u64,
        values: &Values,
        place: u32,
    ) -> Result<Slot, Misfit> {
        let (seq, time_ns) = since(base, seq, time_ns)?;
        Slot::pack(seq, time_ns, values, place)
    }

    /// The slot of an event kept whole beside the chunks: its order only.
    pub(super) fn wide(base: &Base, seq: u64, time_ns: u64) -> Result<Slot, Misfit> {
        let (seq, time_ns) = since(base, seq, time_ns)?;
        let (order, far) = order(seq, time_ns);
        if far != 0 {
            return Err(Misfit::Base);
        }
        Ok(Slot {
            order,
            ptr: 0,
            sized: u64::from(WIDE) << SIZE_BITS,
            figures: 0,
        })
    }

    /// The slot's sequence number.
    pub(super) fn seq(&self, base: &Base) -> u64 {
        base.seq + (self.order & u64::from(u32::MAX))
    }

    /// The event: from the slot and `places`, or from `wide` for an event kept whole; `None` for
    /// a place the table lacks or a whole event no longer kept.
    pub(super) fn unpack(
        &self,
        base: &Base,
        places: &[Place],
        wide: &BTreeMap<u64, Entry>,
    ) -> Option<(u64, Entry)> {
        let seq = self.seq(base);
        let place = (self.sized >> SIZE_BITS) as u32;
        if place == WIDE {
            return wide.get(&seq).map(|e| (seq, *e));
        }
        let entry = Entry {
            time_ns: base.time_ns + ((self.order >> 32) << TIME_SHIFT),
            ptr: self.ptr,
            bytes: self.sized & ((1 << SIZE_BITS) - 1),
            pool_used: (self.figures & u64::from(u32::MAX)) * FIGURE_UNIT,
            pool_reserved: (self.figures >> 32) * FIGURE_UNIT,
            place: *places.get(place as usize)?,
        };
        Some((seq, entry))
    }
}

/// An event's order in a slot, from its offsets from the chunk's base (`seq` numbers and
/// `time_ns` nanoseconds), and what of them does not fit: each must fit 32 bits (the time's in
/// units of [`1 << TIME_SHIFT`](TIME_SHIFT) ns), else (the second value is not 0) the event
/// belongs in a new chunk.
#[inline(always)]
fn order(seq: u64, time_ns: u64) -> (u64, u64) {
    let time = time_ns >> TIME_SHIFT;
    (seq | time << 32, (seq | time) >> 32)
}

/// The offsets of `seq` and `time_ns` from `base`. A time before the base (another thread's,
/// met when merging chunks) counts as the base's.
fn since(base: &Base, seq: u64, time_ns: u64) -> Result<(u64, u64), Misfit> {
    let seq = seq.checked_sub(base.seq).ok_or(Misfit::Base)?;
    Ok((seq, time_ns.saturating_sub(base.time_ns)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Slot::pack`] for event `seq` at `time_ns`, in a chunk from `base`.
    #[allow(clippy::too_many_arguments)]
    fn pack_at(
        base: &Base,
        seq: u64,
        time_ns: u64,
        ptr: u64,
        bytes: u64,
        place: u32,
        used: u64,
        reserved: u64,
    ) -> Result<Slot, Misfit> {
        let values = Values {
            ptr,
            bytes,
            used,
            reserved,
        };
        Slot::pack_from(base, seq, time_ns, &values, place)
    }

    fn place(pool: u32) -> Place {
        Place {
            kind: EventKind::Alloc,
            device: 3,
            stream: 77,
            chain: 2,
            pool,
            extra: false,
        }
    }

    #[test]
    fn an_event_comes_back_as_it_went_in() {
        let base = Base {
            seq: 1000,
            time_ns: 5_000_000,
        };
        let places = [place(0), place(1)];
        let slot = pack_at(
            &base,
            1042,
            5_000_000 + 3 * 1024,
            0xdead_b000,
            12345,
            1,
            4096 * 512,
            7 << 21,
        )
        .unwrap();
        let (seq, e) = slot.unpack(&base, &places, &BTreeMap::new()).unwrap();
        assert_eq!(seq, 1042);
        assert_eq!(
            (e.time_ns, e.ptr, e.bytes, e.pool_used, e.pool_reserved),
            (
                5_000_000 + 3 * 1024,
                0xdead_b000,
                12345,
                4096 * 512,
                7 << 21
            )
        );
        assert_eq!(e.place, place(1));
        // The largest values that fit.
        let max = u64::from(u32::MAX);
        let slot = pack_at(
            &base,
            1000 + max,
            5_000_000 + (max << TIME_SHIFT),
            u64::MAX,
            (1 << 40) - 1,
            0,
            max * 512,
            max * 512,
        )
        .unwrap();
        let (seq, e) = slot.unpack(&base, &places, &BTreeMap::new()).unwrap();
        assert_eq!((seq, e.ptr, e.bytes), (1000 + max, u64::MAX, (1 << 40) - 1));
        assert_eq!((e.pool_used, e.pool_reserved), (max * 512, max * 512));
        assert_eq!(e.time_ns, 5_000_000 + (max << TIME_SHIFT));
    }

    #[test]
    fn what_does_not_fit_is_refused_by_reason() {
        let base = Base {
            seq: 10,
            time_ns: 1 << 20,
        };
        let pack = |seq, time, bytes, place, used, reserved| {
            pack_at(&base, seq, time, 1, bytes, place, used, reserved).map(|_| ())
        };
        let t = 1 << 20;
        assert_eq!(pack(10 + (1 << 32), t, 1, 0, 0, 0), Err(Misfit::Base));
        assert_eq!(pack(9, t, 1, 0, 0, 0), Err(Misfit::Base));
        assert_eq!(pack(10, t + (1 << 42), 1, 0, 0, 0), Err(Misfit::Base));
        assert_eq!(pack(10, t, 1 << 40, 0, 0, 0), Err(Misfit::Wide));
        assert_eq!(pack(10, t, 1, WIDE, 0, 0), Err(Misfit::Wide));
        assert_eq!(pack(10, t, 1, 0, 100, 0), Err(Misfit::Wide));
        assert_eq!(pack(10, t, 1, 0, 0, 512 << 32), Err(Misfit::Wide));
        // A time before the base reads as the base's.
        let slot = pack_at(&base, 11, 5, 1, 1, 0, 0, 0).unwrap();
        let (_, e) = slot.unpack(&base, &[place(0)], &BTreeMap::new()).unwrap();
        assert_eq!(e.time_ns, 1 << 20);
    }

    #[test]
    fn a_wide_slot_reads_the_event_kept_whole() {
        let base = Base::default();
        let whole = Entry {
            time_ns: 9,
            ptr: 1,
            bytes: u64::MAX,
            pool_reserved: 3,
            pool_used: 1,
            place: place(1),
        };
        let slot = Slot::wide(&base, 4, 9).unwrap();
        let mut wide = BTreeMap::new();
        assert!(slot.unpack(&base, &[], &wide).is_none());
        wide.insert(4, whole);
        let (seq, e) = slot.unpack(&base, &[], &wide).unwrap();
        assert_eq!((seq, e.bytes, e.pool_used), (4, u64::MAX, 1));
    }
}
