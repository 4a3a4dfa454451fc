//! docs/design/behaviour.md §6: the pending-deallocation queue and its count rule, `defer_cleanup`,
//! failures while releasing. (The byte-ratio rule is in `deallocation_ratio.rs`: it needs its own
//! configuration.)

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use rumba::{Error, current_context, defer_cleanup};

const COUNT: usize = 10;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.max_pending_deallocs_count = COUNT;
        c.max_pending_deallocs_ratio = 0.2;
    });
    let g = common::serial();
    current_context().unwrap().flush_deallocations().unwrap();
    g
}

fn pending() -> usize {
    current_context().unwrap().deallocations().memory.count
}

#[test]
fn count_rule_is_strict_and_the_crossing_drop_flushes() {
    let _g = setup();
    let ctx = current_context().unwrap();
    assert_eq!(pending(), 0);
    for expect in 1..=COUNT {
        drop(ctx.memalloc(1).unwrap());
        assert_eq!(pending(), expect);
    }
    drop(ctx.memalloc(1).unwrap());
    assert_eq!(
        pending(),
        0,
        "the drop that exceeds COUNT flushes everything"
    );
}

#[test]
fn a_shared_buffer_is_released_once_by_its_last_handle() {
    let _g = setup();
    let ctx = current_context().unwrap();
    let a = ctx.memalloc(8).unwrap();
    let b = a.clone();
    drop(a);
    assert_eq!(pending(), 0);
    drop(b);
    assert_eq!(pending(), 1);
}

#[test]
fn defer_cleanup_holds_releases_and_does_not_flush_on_exit() {
    let _g = setup();
    let ctx = current_context().unwrap();
    {
        let _guard = defer_cleanup().unwrap();
        drop(ctx.memalloc(1).unwrap());
        drop(ctx.memalloc(1).unwrap());
        assert_eq!(pending(), 2);
        ctx.flush_deallocations().unwrap();
        assert_eq!(pending(), 2, "explicit flush is a no-op under the guard");
    }
    assert_eq!(pending(), 2, "leaving the guard does not flush");
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 0);
}

#[test]
fn nested_guards_keep_everything_until_the_outer_one_ends() {
    let _g = setup();
    let ctx = current_context().unwrap();
    {
        let _outer = defer_cleanup().unwrap();
        {
            let _inner = defer_cleanup().unwrap();
            drop(ctx.memalloc(1).unwrap());
            drop(ctx.memalloc(1).unwrap());
            ctx.flush_deallocations().unwrap();
            assert_eq!(pending(), 2);
        }
        ctx.flush_deallocations().unwrap();
        assert_eq!(pending(), 2, "the outer guard still defers");
        // Even crossing the count limit does not flush under a guard.
        for _ in 0..COUNT {
            drop(ctx.memalloc(1).unwrap());
        }
        assert_eq!(pending(), COUNT + 2);
    }
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 0);
}

#[test]
fn a_guard_held_on_another_thread_defers_this_one_too() {
    let _g = setup();
    let ctx = current_context().unwrap();
    let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<()>();
    let t = std::thread::spawn(move || {
        let _guard = defer_cleanup().unwrap();
        ready_tx.send(()).unwrap();
        hold_rx.recv().unwrap();
    });
    ready_rx.recv().unwrap();
    drop(ctx.memalloc(1).unwrap());
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 1);
    hold_tx.send(()).unwrap();
    t.join().unwrap();
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 0);
}

#[test]
fn an_error_or_panic_leaving_the_scope_re_enables_cleanup() {
    let _g = setup();
    let ctx = current_context().unwrap();
    fn failing(ctx: &rumba::Context) -> rumba::Result<()> {
        let _guard = defer_cleanup()?;
        drop(ctx.memalloc(1)?);
        Err(Error::TransferTaken)
    }
    assert!(failing(&ctx).is_err());
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 0);

    let r = catch_unwind(AssertUnwindSafe(|| {
        let _guard = defer_cleanup().unwrap();
        drop(ctx.memalloc(1).unwrap());
        panic!("escaping");
    }));
    assert!(r.is_err());
    assert_eq!(pending(), 1);
    ctx.flush_deallocations().unwrap();
    assert_eq!(pending(), 0);
}

#[test]
fn a_failing_release_is_reported_not_panicked_and_not_retried() {
    let _g = setup();
    let ctx = current_context().unwrap();
    let buf = ctx.memalloc(16).unwrap();
    // Free the memory behind the manager's back, so its own release will fail.
    ctx.driver().mem_free(0, buf.device_ptr()).unwrap();
    drop(buf);
    let err = ctx.flush_deallocations().unwrap_err();
    assert!(
        matches!(err, Error::DeallocationFailed(ref v) if v.len() == 1),
        "{err}"
    );
    assert!(err.to_string().contains("device allocation"), "{err}");
    assert_eq!(pending(), 0, "failed items leave the queue");
    ctx.flush_deallocations().unwrap();
}

#[test]
fn streams_and_events_go_through_the_resource_queue() {
    let _g = setup();
    let ctx = current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let _guard = defer_cleanup().unwrap();
    drop(rumba::stream().unwrap());
    drop(rumba::event(rumba::EventOptions::new()).unwrap());
    assert_eq!(ctx.deallocations().resources.count, 2);
    drop(_guard);
    ctx.flush_deallocations().unwrap();
    assert_eq!(ctx.deallocations().resources.count, 0);
}

/// Numba's `MemoryPointer.view(start, stop)`: a view shares the allocation, which is released
/// once, by the last of the parent and its views.
#[test]
fn buffer_views_share_the_allocation_and_keep_it_alive() {
    let _g = setup();
    let ctx = current_context().unwrap();
    let parent = ctx.memalloc(64).unwrap();
    rumba::copy(&parent, &(0..64).collect::<Vec<u8>>()).unwrap();
    let tail = parent.view(48..).unwrap();
    let inner = tail.view(4..8).unwrap(); // bytes 52..56 of the parent
    assert_eq!(
        (tail.len(), inner.len(), inner.device_ptr()),
        (16, 4, parent.device_ptr() + 52)
    );
    assert!(inner.same_allocation(&parent) && inner.is_view());
    let empty = parent.view(64..64).unwrap();
    assert!(empty.is_empty());
    for bad in [parent.view(60..65), tail.view(17..), parent.view(..=64)] {
        let err = bad.unwrap_err();
        assert!(matches!(err, Error::BufferRange { .. }), "{err}");
    }
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = parent.view(10..5);
    assert!(reversed.is_err());

    // Writes through a view land in the parent's bytes, and only there.
    inner.memset(0xee).unwrap();
    let mut all = [0u8; 64];
    rumba::copy(&mut all, &parent).unwrap();
    assert_eq!(&all[50..58], &[50, 51, 0xee, 0xee, 0xee, 0xee, 56, 57]);
    let mut four = [0u8; 4];
    rumba::copy(&mut four, &inner).unwrap();
    assert_eq!(four, [0xee; 4]);
    assert!(
        rumba::copy(&inner, &[1; 5]).is_err(),
        "the view's own length bounds it"
    );

    // The parent's last handle is not the allocation's last handle.
    drop((parent, tail, empty));
    assert_eq!(pending(), 0, "a live view keeps the allocation");
    drop(inner);
    assert_eq!(pending(), 1, "released once, by the last view");
    ctx.flush_deallocations().unwrap();
}
