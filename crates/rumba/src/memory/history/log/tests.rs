//! The recording's tests: threads that record and exit, sweeps and their bound, snapshots
//! while threads record, values that do not fit a slot, and pools' numbered events.

use super::super::TEST_TURN as TURN; // the recording is process-wide: these tests take turns
use super::super::chain::{ChainCell, ChainId};
use super::super::local::record;
use super::super::pool::PoolHistory;
use super::super::{EventKind, Note};
use super::*;
use crate::driver::StreamHandle;

fn options(max_entries: usize) -> HistoryOptions {
    HistoryOptions {
        max_entries,
        ..HistoryOptions::default()
    }
}

fn note(ptr: u64) -> Note {
    Note::new(EventKind::Alloc, 0, StreamHandle(0), 8, ptr)
}

/// Notes a pool's event of `kind` at `ptr` as a pool does: on the quick path when it can, else
/// on the slow one; true when the quick path took it.
fn pool_event(pool: &mut PoolHistory, ptr: u64, kind: EventKind) -> bool {
    let note = Note { kind, ..note(ptr) };
    if pool.quick(&note, &ChainCell::walked(0)) {
        return true;
    }
    assert!(pool.record(&note, kind, 0), "a pool's event is written");
    false
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
                .all(|(_, e)| e.bytes == 8 && e.place.kind == EventKind::Alloc)
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
        (rows[0].0, rows[0].1.ptr, rows[0].1.place.kind),
        (0, 7, EventKind::Free)
    );
}

/// A note of `kind` on `stream` of `bytes` at `ptr`, of pool `pool` (0: none) with figures.
fn full_note(
    kind: EventKind,
    stream: u64,
    bytes: usize,
    ptr: u64,
    pool: u64,
    (used, reserved): (usize, usize),
) -> Note {
    Note {
        pool: (pool > 0).then_some(super::super::PoolFigures {
            id: pool,
            reserved,
            used,
        }),
        ..Note::new(
            kind,
            (stream % 3) as usize,
            StreamHandle(stream),
            bytes,
            ptr,
        )
    }
}

#[test]
fn every_value_of_an_event_comes_back_whether_it_fits_a_slot_or_not() {
    let _turn = lock(&TURN);
    begin(options(1000), 0);
    let kinds = [
        EventKind::Alloc,
        EventKind::Free,
        EventKind::PoolGrow,
        EventKind::Oom,
    ];
    let mut sent = Vec::new();
    for i in 0..200u64 {
        let kind = kinds[(i % 4) as usize];
        // Every seventh size is 1 TiB or more, every fifth figure not a whole unit of a
        // pool's granule: those events are kept whole.
        let bytes = if i % 7 == 0 {
            (1 << 40) + i as usize
        } else {
            512 * i as usize + 1
        };
        let used = if i % 5 == 0 {
            1000 + i as usize
        } else {
            512 * i as usize
        };
        let pool = i % 3;
        let n = full_note(kind, i % 5, bytes, 0x1000 * i, pool, (used, 1 << 30));
        record(&n, kind, (i % 2) as ChainId);
        sent.push((kind, n));
    }
    let (rows, dropped, _) = events();
    assert_eq!((rows.len(), dropped), (200, 0));
    let pools = lock(&RECORDING).as_ref().unwrap().pools.clone();
    for (i, ((_, e), (kind, n))) in rows.iter().zip(&sent).enumerate() {
        assert_eq!(e.place.kind, *kind, "event {i}");
        assert_eq!(e.place.device as usize, n.device, "event {i}");
        assert_eq!(
            (e.place.stream, e.place.chain),
            (n.stream.0, (i % 2) as ChainId)
        );
        assert_eq!((e.ptr, e.bytes as usize), (n.ptr, n.bytes), "event {i}");
        match &n.pool {
            Some(p) => {
                assert_eq!(pools[e.place.pool as usize - 1], p.id, "event {i}");
                assert_eq!(
                    (e.pool_used as usize, e.pool_reserved as usize),
                    (p.used, p.reserved)
                );
            }
            None => assert_eq!(e.place.pool, 0, "event {i}"),
        }
    }
    let wide = lock(&RECORDING).as_ref().unwrap().wide.len();
    let pool_event = |i: &u64| i % 3 > 0;
    let whole = (0..200).filter(|i| i % 7 == 0 || (i % 5 == 0 && pool_event(i)));
    assert_eq!(wide, whole.count());
}

#[test]
fn an_event_too_far_from_its_chunks_base_starts_a_new_chunk() {
    let _turn = lock(&TURN);
    begin(options(1000), 0);
    record(&note(1), EventKind::Alloc, 0);
    // Four billion events later (the counter moved on; their slots are elsewhere).
    let hot = lock(&RECORDING).as_ref().unwrap().hot.clone();
    hot.seq.fetch_add(1 << 32, Ordering::Relaxed);
    record(&note(2), EventKind::Alloc, 0);
    record(&note(3), EventKind::Alloc, 0);
    let (rows, _, chunks) = events();
    let got: Vec<(u64, u64)> = rows.iter().map(|(s, e)| (*s, e.ptr)).collect();
    assert_eq!(got, [(0, 1), ((1 << 32) + 1, 2), ((1 << 32) + 2, 3)]);
    assert_eq!(chunks, 2);
}

#[test]
fn threads_that_exit_after_events_kept_whole_keep_them_through_sweeps() {
    let _turn = lock(&TURN);
    let (count, max) = if cfg!(miri) { (20, 16) } else { (300, 64) };
    begin(options(max), 0);
    for t in 0..count {
        std::thread::spawn(move || {
            let n = full_note(EventKind::Alloc, 1, (1 << 41) + t, t as u64, 0, (0, 0));
            record(&n, EventKind::Alloc, 0);
            record(&note(t as u64), EventKind::Free, 0);
        })
        .join()
        .unwrap();
    }
    let (rows, dropped, _) = events();
    assert_eq!((rows.len(), dropped as usize), (max, 2 * count - max));
    for pair in rows.chunks(2) {
        let (alloc, free) = (&pair[0].1, &pair[1].1);
        assert_eq!(alloc.bytes, (1 << 41) + alloc.ptr);
        assert_eq!(
            (free.place.kind, free.ptr, free.bytes),
            (EventKind::Free, alloc.ptr, 8)
        );
    }
    // The whole events kept are those of the window (and a few older ones not yet pruned).
    let wide = lock(&RECORDING).as_ref().unwrap().wide.len();
    assert!(wide >= max / 2 && wide <= max, "{wide} events kept whole");
}

#[test]
fn numbers_of_a_pools_events_follow_what_happened_before_across_threads() {
    let _turn = lock(&TURN);
    begin(options(100_000), 0);
    // A pool's lock and its history; an event of another resource in between.
    let pool = Arc::new(Mutex::new(PoolHistory::default()));
    let rounds = if cfg!(miri) { 20 } else { 2000 };
    let (to_b, at_b) = std::sync::mpsc::channel::<u64>();
    let (to_a, at_a) = std::sync::mpsc::channel::<u64>();
    let p = pool.clone();
    let b = std::thread::spawn(move || {
        for ptr in at_b {
            // Another resource's event, then the pool's, both after A's (the channel).
            record(&note(ptr), EventKind::IpcExport, 0);
            pool_event(&mut lock(&p), ptr, EventKind::Free);
            to_a.send(ptr).unwrap();
        }
    });
    for ptr in 0..rounds {
        pool_event(&mut lock(&pool), ptr, EventKind::Alloc);
        to_b.send(ptr).unwrap();
        assert_eq!(at_a.recv().unwrap(), ptr);
        // After B's events (the channel back): A's next event of another resource is later.
        record(&note(ptr), EventKind::IpcClose, 0);
    }
    drop(to_b);
    b.join().unwrap();
    let (rows, dropped, _) = events();
    assert_eq!((rows.len() as u64, dropped), (4 * rounds, 0));
    let order: Vec<(u64, EventKind)> = rows.iter().map(|(_, e)| (e.ptr, e.place.kind)).collect();
    let expected: Vec<(u64, EventKind)> = (0..rounds)
        .flat_map(|p| {
            [
                EventKind::Alloc,
                EventKind::IpcExport,
                EventKind::Free,
                EventKind::IpcClose,
            ]
            .map(|k| (p, k))
        })
        .collect();
    if let Some(i) = (0..order.len()).find(|&i| order[i] != expected[i]) {
        panic!(
            "event {i} is {:?} where {:?} happened",
            order[i], expected[i]
        );
    }
    assert!(rows.windows(2).all(|w| w[0].0 < w[1].0));
}

#[test]
fn a_pool_alone_reserves_runs_and_the_bound_counts_events_not_numbers() {
    let _turn = lock(&TURN);
    let (max, total) = if cfg!(miri) {
        (16, 200)
    } else {
        (1000, 20_000)
    };
    begin(options(max), 0);
    let mut pool = PoolHistory::default();
    let hot = lock(&RECORDING).as_ref().unwrap().hot.clone();
    for i in 0..total {
        pool_event(&mut pool, i, EventKind::Alloc);
    }
    // Used alone, the runs are used up: few numbers are left over.
    let alone = hot.seq.load(Ordering::Relaxed);
    assert!(alone < total + 64, "{alone} numbers for {total} events");
    // Another resource's event every fourth cuts the runs short: gaps.
    for i in total..2 * total {
        pool_event(&mut pool, i, EventKind::Alloc);
        if i % 4 == 3 {
            record(&note(i), EventKind::Oom, 0);
        }
    }
    let recorded = 2 * total + total / 4;
    let counter = hot.seq.load(Ordering::Relaxed);
    assert!(
        counter > recorded + total / 4,
        "{counter} numbers: few gaps"
    );
    // A sweep now leaves the newest `max` events: it counts events, not numbers.
    lock(&RECORDING).as_mut().unwrap().sweep();
    let (rows, dropped, chunks) = events();
    assert_eq!((rows.len(), dropped), (max, recorded - max as u64));
    assert_eq!(rows.last().unwrap().1.ptr, 2 * total - 1);
    assert!(rows.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(chunks <= 8, "{chunks} chunks");
}

#[test]
fn a_dropped_pools_events_stay_through_a_sweep() {
    let _turn = lock(&TURN);
    begin(options(100_000), 0);
    let mut pool = PoolHistory::default();
    for i in 0..10 {
        pool_event(&mut pool, i, EventKind::Alloc);
    }
    drop(pool);
    // The pool's chunk is now the recording's alone: a sweep gathers its events (or keeps the
    // chunk) and does not drop them.
    lock(&RECORDING).as_mut().unwrap().sweep();
    let (rows, dropped, chunks) = events();
    assert_eq!(dropped, 0);
    assert_eq!(
        rows.iter().map(|(_, e)| e.ptr).collect::<Vec<_>>(),
        (0..10).collect::<Vec<_>>()
    );
    assert_eq!(chunks, 1, "one chunk holds them");
}

#[test]
fn a_pool_that_fills_its_chunks_takes_one_chunk_each_time() {
    let _turn = lock(&TURN);
    begin(options(100_000), 0);
    let mut pool = PoolHistory::default();
    let n = 5 * CHUNK as u64;
    let quick = (0..n)
        .filter(|&i| pool_event(&mut pool, i, EventKind::Alloc))
        .count() as u64;
    // The slow path takes the first event, the first of each chunk and of each run of numbers
    // (and, under Miri, where the clock has no ticker and stays idle, every event).
    if !cfg!(miri) {
        assert!(
            quick > n - n / 16,
            "{quick} of {n} events on the quick path"
        );
    }
    // The run of numbers the pool holds when a chunk fills starts below the next chunk's base:
    // without care, each chunk taken would be followed by another for the event that misfits.
    let (rows, dropped, chunks) = events();
    assert_eq!((rows.len() as u64, dropped), (n, 0));
    assert_eq!(chunks, 5, "{chunks} chunks for {n} events");
}
