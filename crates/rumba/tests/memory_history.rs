//! The memory history: an entry for every kind of event, the bound on what is kept (across
//! threads too, exited ones included), one order for the events of all threads, the dump's
//! round trip, recording off, and `RUMBA_MEMORY_HISTORY` for a whole program (a child process,
//! this test binary run again, which also opens an IPC handle of the parent).
//!
//! The history is process-wide: every test takes the serial lock and looks only at the
//! addresses it allocated.

mod common;

use std::sync::{Arc, MutexGuard};

use rumba::config::BackendChoice;
use rumba::error::{Error, HistoryError};
use rumba::memory::history::{self, Event, EventKind, History, HistoryOptions};
use rumba::memory::{DeviceResource, DriverResource, MemoryManager, PoolResource};

fn setup() -> MutexGuard<'static, ()> {
    // 1 GiB of device memory (a cap on OpenCL): a request past it is out of memory, not past
    // the largest single allocation the device allows (PoCL: 8 GiB of 23).
    common::start(|c| c.sim_memory = Some(1 << 30));
    common::serial()
}

/// Runs `f` while recording with `options`; returns what was recorded.
fn record(options: HistoryOptions, f: impl FnOnce()) -> History {
    history::start(options).unwrap();
    f();
    history::stop();
    history::snapshot()
}

fn of(h: &History, ptr: u64) -> Vec<&Event> {
    h.events.iter().filter(|e| e.ptr == ptr).collect()
}

fn kinds(events: &[&Event]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

#[test]
fn the_default_manager_records_alloc_queued_and_flushed_frees_with_its_chain() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let s = rumba::stream().unwrap();
    let mut ptr = 0;
    let h = record(HistoryOptions::default(), || {
        ctx.flush_deallocations().unwrap();
        let buf = s.memalloc(1000).unwrap();
        ptr = buf.device_ptr();
        drop(buf);
        ctx.flush_deallocations().unwrap();
    });
    let events = of(&h, ptr);
    assert_eq!(
        kinds(&events),
        [
            EventKind::Alloc,
            EventKind::FreeQueued,
            EventKind::FreeFlushed
        ],
        "{events:#?}"
    );
    let alloc = events[0];
    assert_eq!(
        (alloc.bytes, alloc.device, alloc.stream),
        (1000, 0, s.handle().0)
    );
    assert_eq!(
        alloc.chain,
        ["DeferredAdaptor", "LimitingAdaptor", "DriverResource"]
    );
    assert!(
        events
            .windows(2)
            .all(|w| w[0].seq < w[1].seq && w[0].time_ns <= w[1].time_ns)
    );
}

#[test]
fn a_release_under_defer_cleanup_is_recorded_as_deferred() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let mut ptr = 0;
    let h = record(HistoryOptions::default(), || {
        let guard = ctx.defer_cleanup();
        let buf = ctx.memalloc(64).unwrap();
        ptr = buf.device_ptr();
        drop(buf);
        drop(guard);
        ctx.flush_deallocations().unwrap();
    });
    assert_eq!(
        kinds(&of(&h, ptr)),
        [
            EventKind::Alloc,
            EventKind::FreeDeferred,
            EventKind::FreeFlushed
        ]
    );
}

#[test]
fn a_resource_used_directly_records_its_own_chain() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let res = DriverResource::new(ctx.device_id(), ctx.driver().clone());
    let mut ptr = 0;
    let h = record(HistoryOptions::default(), || {
        let b = res.allocate_sync(300).unwrap();
        ptr = b.ptr();
        res.deallocate_sync(b).unwrap();
    });
    let events = of(&h, ptr);
    assert_eq!(kinds(&events), [EventKind::Alloc, EventKind::Free]);
    assert_eq!(events[0].chain, ["DriverResource"]);
    assert!(events[0].pool.is_none());
}

#[test]
fn the_pool_records_growth_blocks_deferred_frees_and_trims_but_not_its_segments_twice() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let mc = ctx.manager_context();
    let pool = Arc::new(PoolResource::new(&mc).unwrap());
    let mm = MemoryManager::new("pool", &mc, pool.clone(), mc.host_upstream());
    let (mut a, mut b) = (0, 0);
    let h = record(HistoryOptions::default(), || {
        let buf = mm.memalloc(100).unwrap();
        a = buf.device_ptr();
        drop(buf);
        let q = pool.deferral().unwrap();
        q.defer();
        let buf = mm.memalloc(5000).unwrap();
        b = buf.device_ptr();
        drop(buf);
        q.undefer();
        q.flush().unwrap();
        pool.release_cached().unwrap();
    });
    let grow: Vec<_> = h
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PoolGrow)
        .collect();
    assert_eq!(grow.len(), 1, "{:#?}", h.events);
    let segment = grow[0].ptr;
    assert_eq!(grow[0].bytes, 2 << 20);
    assert_eq!(grow[0].pool.unwrap().reserved, 2 << 20);
    // The first block starts the segment: the growth and the trim share its address.
    let at: Vec<&Event> = of(&h, a)
        .into_iter()
        .filter(|e| !matches!(e.kind, EventKind::PoolGrow | EventKind::PoolTrim))
        .collect();
    assert_eq!(
        kinds(&at),
        [
            EventKind::Alloc,
            EventKind::Free,
            EventKind::Alloc,
            EventKind::FreeDeferred,
            EventKind::FreeFlushed
        ]
    );
    let first = at[0];
    assert_eq!(first.chain[0], "PoolResource");
    let fig = first.pool.unwrap();
    assert_eq!((fig.reserved, fig.used), (2 << 20, 512));
    assert_eq!(a, b, "the second block reuses the first's address");
    assert_eq!(at[2].bytes, 5000);
    let trim: Vec<_> = of(&h, segment)
        .into_iter()
        .filter(|e| e.kind == EventKind::PoolTrim)
        .collect();
    assert_eq!(trim.len(), 1);
    assert_eq!(trim[0].pool.unwrap().reserved, 0);
    // The segment's own allocation in the driver resource is the growth, not a block.
    assert!(
        !h.events
            .iter()
            .any(|e| e.kind == EventKind::Alloc && e.bytes == 2 << 20),
        "{:#?}",
        h.events
    );
}

#[test]
fn pinned_memory_and_out_of_memory_are_recorded() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let (_, total) = ctx.get_memory_info().unwrap();
    let mut addr = 0;
    let h = record(HistoryOptions::default(), || {
        let p = ctx.memhostalloc(4096, Default::default()).unwrap();
        addr = p.as_ptr() as u64;
        drop(p);
        let e = ctx.memalloc(total + 1).unwrap_err();
        assert!(e.is_out_of_memory(), "{e:?}");
    });
    let pinned = of(&h, addr);
    assert_eq!(
        kinds(&pinned),
        [EventKind::PinnedAlloc, EventKind::PinnedFree]
    );
    assert_eq!(pinned[0].bytes, 4096);
    let oom: Vec<_> = h
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Oom)
        .collect();
    assert_eq!(oom.len(), 1, "{:#?}", h.events);
    assert_eq!(oom[0].bytes, total + 1);
    assert_eq!(oom[0].chain[0], "DeferredAdaptor");
    assert!(oom[0].detail.as_deref().unwrap().contains("out of memory"));
}

#[test]
fn the_ring_buffer_keeps_the_newest_entries_and_counts_the_dropped() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let res = DriverResource::new(ctx.device_id(), ctx.driver().clone());
    let h = record(
        HistoryOptions {
            max_entries: 5,
            ..Default::default()
        },
        || {
            for _ in 0..10 {
                res.deallocate_sync(res.allocate_sync(8).unwrap()).unwrap();
            }
        },
    );
    assert_eq!(h.events.len(), 5);
    assert_eq!(h.max_entries, 5);
    assert_eq!(h.dropped, 15);
    let seqs: Vec<u64> = h.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [15, 16, 17, 18, 19]);
    assert_eq!(h.events.last().unwrap().kind, EventKind::Free);
}

/// Allocates `n` blocks of `bytes` from `res`, then frees them (2n events); their addresses.
fn churn(res: &DriverResource, n: usize, bytes: usize) -> Vec<u64> {
    let blocks: Vec<_> = (0..n).map(|_| res.allocate_sync(bytes).unwrap()).collect();
    let ptrs = blocks.iter().map(|b| b.ptr()).collect();
    for b in blocks {
        res.deallocate_sync(b).unwrap();
    }
    ptrs
}

fn driver_resource() -> Arc<DriverResource> {
    let ctx = rumba::current_context().unwrap();
    Arc::new(DriverResource::new(ctx.device_id(), ctx.driver().clone()))
}

#[test]
fn the_events_of_a_thread_that_has_exited_are_kept() {
    let _s = setup();
    let res = driver_resource();
    let mut ptrs = Vec::new();
    let h = record(HistoryOptions::default(), || {
        let r = res.clone();
        ptrs = std::thread::spawn(move || churn(&r, 3, 8)).join().unwrap();
    });
    assert_eq!(ptrs.len(), 3);
    for p in ptrs {
        let events = of(&h, p);
        assert_eq!(
            kinds(&events),
            [EventKind::Alloc, EventKind::Free],
            "{p:#x}"
        );
        assert_eq!(events[0].chain, ["DriverResource"]);
    }
}

#[test]
fn the_newest_entries_of_all_threads_are_kept_within_the_bound() {
    let _s = setup();
    let res = driver_resource();
    let h = record(
        HistoryOptions {
            max_entries: 50,
            ..Default::default()
        },
        || {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    let r = res.clone();
                    std::thread::spawn(move || churn(&r, 30, 8))
                })
                .collect();
            for t in threads {
                t.join().unwrap();
            }
        },
    );
    // 4 threads × 60 events: the last 50 by sequence number are kept.
    assert_eq!(h.events.len(), 50);
    assert_eq!(h.dropped, 190);
    let seqs: Vec<u64> = h.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (190..240).collect::<Vec<_>>());
    assert!(h.events.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
}

#[test]
fn events_of_all_threads_are_ordered_by_sequence_and_time() {
    let _s = setup();
    let res = driver_resource();
    // Three phases, one after the other: two threads (each joined) and this one; each phase
    // allocates its own size (an address may be reused by a later phase).
    let h = record(HistoryOptions::default(), || {
        for bytes in [8, 16] {
            let r = res.clone();
            std::thread::spawn(move || churn(&r, 5, bytes))
                .join()
                .unwrap();
        }
        churn(&res, 5, 24);
    });
    assert!(h.events.windows(2).all(|w| w[0].seq < w[1].seq));
    assert!(h.events.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
    let phase = |bytes: usize| {
        let mine: Vec<&Event> = h.events.iter().filter(|e| e.bytes == bytes).collect();
        assert_eq!(mine.len(), 10, "{mine:#?}");
        (mine[0], mine[9])
    };
    // Each phase happened after the one before it: all of its events come later in the order,
    // at a time no earlier.
    for (before, after) in [(8, 16), (16, 24)] {
        let (_, last) = phase(before);
        let (first, _) = phase(after);
        assert!(last.seq < first.seq, "{last:?} {first:?}");
        assert!(first.time_ns >= last.time_ns, "{last:?} {first:?}");
    }
}

#[test]
fn details_stay_with_their_events_after_the_ring_wraps() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let (_, total) = ctx.get_memory_info().unwrap();
    let res = DriverResource::new(ctx.device_id(), ctx.driver().clone());
    let h = record(
        HistoryOptions {
            max_entries: 4,
            ..Default::default()
        },
        || {
            for round in 0..3 {
                for _ in 0..5 {
                    res.deallocate_sync(res.allocate_sync(8).unwrap()).unwrap();
                }
                // An event with a detail, after the ring has wrapped; in the last round it is
                // followed by two more, so it is neither first nor last of what is kept.
                assert!(ctx.memalloc(total + 1).unwrap_err().is_out_of_memory());
                if round == 2 {
                    res.deallocate_sync(res.allocate_sync(8).unwrap()).unwrap();
                }
            }
        },
    );
    assert_eq!(h.events.len(), 4);
    let kinds: Vec<_> = h.events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Free,
            EventKind::Oom,
            EventKind::Alloc,
            EventKind::Free
        ]
    );
    for e in &h.events {
        assert_eq!(e.detail.is_some(), e.kind == EventKind::Oom, "{e:?}");
    }
    let seqs: Vec<u64> = h.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs[3] - seqs[0], 3);
    assert_eq!(h.dropped, seqs[0]);
}

#[test]
fn a_dump_reads_back_equal_with_its_backtraces() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let h = record(
        HistoryOptions {
            backtraces: true,
            ..Default::default()
        },
        || drop(ctx.memalloc(77).unwrap()),
    );
    let alloc = h
        .events
        .iter()
        .find(|e| e.kind == EventKind::Alloc && e.bytes == 77)
        .unwrap();
    assert!(h.backtraces);
    assert!(
        alloc.frames[0].contains("tests/memory_history.rs"),
        "the innermost frame outside rumba's memory layer is this test: {:?}",
        alloc.frames
    );
    let path = std::env::temp_dir().join(format!("rumba-history-{}.json", std::process::id()));
    history::dump(&path).unwrap();
    let back = History::load(&path).unwrap();
    assert_eq!(back, h);
    std::fs::write(&path, b"{\"format\":\"something else\"}").unwrap();
    assert!(matches!(
        History::load(&path),
        Err(Error::History(HistoryError::Format { .. }))
    ));
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        history::dump("/nonexistent-dir/h.json"),
        Err(Error::History(HistoryError::Io {
            action: "write",
            ..
        }))
    ));
}

#[test]
fn a_pools_events_carry_backtraces_only_in_a_recording_that_asks() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let pool = PoolResource::new(&ctx.manager_context()).unwrap();
    let plain = HistoryOptions::default();
    let traced = HistoryOptions {
        backtraces: true,
        ..plain
    };
    // The pool writes its own events; in a recording with backtraces it hands them over, and
    // takes them back in the next one.
    for (options, traced) in [(plain, false), (traced, true), (plain, false)] {
        let h = record(options, || {
            for _ in 0..3 {
                pool.deallocate_sync(pool.allocate_sync(4096).unwrap())
                    .unwrap();
            }
        });
        let events: Vec<&Event> = h
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Alloc | EventKind::Free))
            .collect();
        assert_eq!(
            kinds(&events),
            [EventKind::Alloc, EventKind::Free].repeat(3),
            "backtraces: {traced}"
        );
        for e in events {
            assert!(e.pool.is_some() && e.bytes == 4096, "{e:?}");
            assert_eq!(
                e.frames
                    .iter()
                    .any(|f| f.contains("tests/memory_history.rs")),
                traced,
                "{e:?}"
            );
        }
    }
}

#[test]
fn nothing_is_recorded_when_off_and_an_empty_ring_is_refused() {
    let _s = setup();
    let ctx = rumba::current_context().unwrap();
    let before = record(HistoryOptions::default(), || {});
    assert!(!history::is_recording());
    drop(ctx.memalloc(55).unwrap());
    ctx.flush_deallocations().unwrap();
    assert_eq!(history::snapshot(), before);
    assert_eq!(
        history::start(HistoryOptions {
            max_entries: 0,
            ..Default::default()
        }),
        Err(Error::History(HistoryError::NoEntries))
    );
    assert!(!history::is_recording());
}

const CHILD_HANDLE: &str = "RUMBA_HISTORY_TEST_HANDLE";

/// The child of the next test (a no-op as an ordinary test): opens the parent's handle, reads
/// it and closes it, recorded through `RUMBA_MEMORY_HISTORY`.
#[test]
fn history_child() {
    let Ok(text) = std::env::var(CHILD_HANDLE) else {
        return;
    };
    common::start(|_| {});
    let handle: rumba::interop::IpcArrayHandle = text.parse().unwrap();
    let a = handle.open::<f32, ndarray::IxDyn>().unwrap();
    assert_eq!(a.copy_to_host().unwrap().sum(), 6.0);
    drop(a);
    handle.close().unwrap();
    let _ = rumba::current_context().unwrap().memalloc(123).unwrap();
    // Exits without close(): the history is written when the process exits.
}

#[test]
fn a_whole_program_is_recorded_through_the_environment_with_its_ipc() {
    let _s = setup();
    if common::not_on(
        &[BackendChoice::OpenCl],
        "a_whole_program_is_recorded_through_the_environment_with_its_ipc",
        "OpenCL has no IPC",
    ) {
        return;
    }
    let d = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
    let h = record(HistoryOptions::default(), || {
        let handle = d.get_ipc_handle().unwrap();
        let path =
            std::env::temp_dir().join(format!("rumba-history-child-{}.json", std::process::id()));
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "history_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_HANDLE, handle.to_string())
            .env("RUMBA_MEMORY_HISTORY", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let child = History::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let seen: Vec<EventKind> = child.events.iter().map(|e| e.kind).collect();
        for kind in [EventKind::IpcImport, EventKind::IpcClose, EventKind::Alloc] {
            assert!(seen.contains(&kind), "{kind:?} in {seen:?}");
        }
        let import = child
            .events
            .iter()
            .find(|e| e.kind == EventKind::IpcImport)
            .unwrap();
        assert_eq!(import.bytes, 12);
    });
    let export: Vec<_> = h
        .events
        .iter()
        .filter(|e| e.kind == EventKind::IpcExport)
        .collect();
    assert_eq!(export.len(), 1);
    assert_eq!((export[0].ptr, export[0].bytes), (d.device_ptr(), 12));
}
