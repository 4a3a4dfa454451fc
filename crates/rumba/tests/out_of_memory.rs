//! docs/design/behaviour.md §6: an allocation that fails for lack of memory flushes the pending
//! queue and retries once; then it reports out-of-memory with figures. Free memory returns to its
//! start afterwards.

mod common;

use rumba::{Error, current_context, defer_cleanup};

const MEMORY: usize = 1 << 20;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.sim_memory = Some(MEMORY);
        c.max_pending_deallocs_count = 1000;
        c.max_pending_deallocs_ratio = 1.0;
    });
    common::serial()
}

/// True (after saying so) on CUDA, whose device cannot be given the 1 MiB these tests run out of.
fn sized_device(test: &str) -> bool {
    common::not_on(
        &[rumba::config::BackendChoice::Cuda],
        test,
        "it runs a 1 MiB device out of memory (the simulator's size here, OpenCL's cap): a CUDA device's memory cannot be capped",
    )
}

#[test]
fn an_allocation_that_fits_after_a_flush_succeeds() {
    let _g = setup();
    if sized_device("an_allocation_that_fits_after_a_flush_succeeds") {
        return;
    }
    let ctx = current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let (start_free, total) = ctx.get_memory_info().unwrap();
    assert_eq!(total, MEMORY);

    let big = 600 * 1024;
    drop(ctx.memalloc(big).unwrap());
    assert_eq!(ctx.deallocations().memory.bytes, big);
    assert!(
        ctx.get_memory_info().unwrap().0 < big,
        "still held by the queue"
    );
    let again = ctx.memalloc(big).unwrap();
    assert_eq!(
        ctx.deallocations().memory.count,
        0,
        "the failure flushed the queue"
    );
    drop(again);
    ctx.flush_deallocations().unwrap();
    assert_eq!(ctx.get_memory_info().unwrap().0, start_free);
}

#[test]
fn too_big_reports_the_figures() {
    let _g = setup();
    if sized_device("too_big_reports_the_figures") {
        return;
    }
    let ctx = current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let err = ctx.memalloc(2 * MEMORY).unwrap_err();
    match &err {
        Error::OutOfMemory {
            requested,
            total,
            free,
            ..
        } => {
            assert_eq!(*requested, 2 * MEMORY);
            assert_eq!(*total, MEMORY);
            assert_eq!(*free, MEMORY);
        }
        other => panic!("expected OutOfMemory, got {other}"),
    }
    let msg = err.to_string();
    for figure in [
        "requested 2097152 bytes",
        "1048576 bytes free",
        "1048576 total",
        "pending",
    ] {
        assert!(msg.contains(figure), "{msg}");
    }
}

#[test]
fn under_a_guard_the_pending_bytes_are_named() {
    let _g = setup();
    if sized_device("under_a_guard_the_pending_bytes_are_named") {
        return;
    }
    let ctx = current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let (start_free, _) = ctx.get_memory_info().unwrap();
    {
        let _guard = defer_cleanup().unwrap();
        drop(ctx.memalloc(700 * 1024).unwrap());
        let err = ctx.memalloc(700 * 1024).unwrap_err();
        assert!(
            matches!(err, Error::OutOfMemory { pending, .. } if pending == 700 * 1024),
            "{err}"
        );
    }
    ctx.flush_deallocations().unwrap();
    assert_eq!(ctx.get_memory_info().unwrap().0, start_free);
}

#[test]
fn free_memory_moves_with_allocations() {
    let _g = setup();
    let ctx = current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let (f0, _) = rumba::get_memory_info().unwrap();
    let a = ctx.memalloc(4096).unwrap();
    let (f1, t1) = rumba::get_memory_info().unwrap();
    assert!(f1 <= f0 - 4096 && f1 <= t1);
    drop(a);
    ctx.flush_deallocations().unwrap();
    assert_eq!(rumba::get_memory_info().unwrap().0, f0);
}

#[test]
fn host_allocations_near_usize_max_are_out_of_memory_not_a_panic() {
    let _g = setup();
    let ctx = current_context().unwrap();
    let mapped = rumba::driver::HostAllocFlags {
        mapped: true,
        ..Default::default()
    };
    for flags in [Default::default(), mapped] {
        let err = ctx.memhostalloc(usize::MAX, flags).unwrap_err();
        assert!(err.is_out_of_memory(), "{err}");
    }
    let drv = ctx.driver();
    assert!(drv.mem_alloc_managed(0, usize::MAX).is_err());
    let p = ctx.memhostalloc(16, Default::default()).unwrap();
    assert!(drv.is_host_pinned(p.as_ptr(), 16));
    assert!(!drv.is_host_pinned(p.as_ptr(), usize::MAX));
}

#[test]
fn memory_held_only_by_queued_work_is_waited_for() {
    let _g = setup();
    if sized_device("memory_held_only_by_queued_work_is_waited_for") {
        return;
    }
    common::memory_held_by_queued_work_is_waited_for(MEMORY * 3 / 4);
}
