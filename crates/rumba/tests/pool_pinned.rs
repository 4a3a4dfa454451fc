//! SPEC §7, pool: pinned host memory is pooled too, and a block is reused only after the events
//! recorded on it have completed.

mod common;

use std::sync::{Arc, mpsc};

use rumba::memory::PinnedPool;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| c.memory_manager = "pool".into());
    common::serial()
}

#[test]
fn a_pinned_block_is_reused_only_after_its_events_complete() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    let pool = Arc::new(PinnedPool::new(0, ctx.driver().clone()));
    let a = rumba::stream().unwrap();
    let (tx, rx) = mpsc::channel::<()>();
    a.add_callback(move |_, _| {
        let _ = rx.recv();
    })
    .unwrap();

    let p = pool.alloc(3000, Default::default()).unwrap();
    let addr = p.as_ptr();
    p.record(a.handle()).unwrap(); // as after queueing an asynchronous copy from it
    drop(p);
    assert_eq!(pool.usage(), (0, 4096));
    let q = pool.alloc(3000, Default::default()).unwrap();
    assert_ne!(q.as_ptr(), addr, "its event has not completed");
    tx.send(()).unwrap();
    a.synchronize().unwrap();
    let r = pool.alloc(3000, Default::default()).unwrap();
    assert_eq!(r.as_ptr(), addr, "reused once the stream passed the event");
    assert_eq!(pool.driver_calls(), (2, 0));
    drop((q, r));
    assert_eq!(pool.empty_cache(), 8192);
    assert_eq!(pool.driver_calls(), (2, 2));
}

#[test]
fn the_pool_manager_serves_memhostalloc_from_its_pinned_pool() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    let mut a = ctx.memhostalloc(100, Default::default()).unwrap();
    a[..3].copy_from_slice(&[1, 2, 3]);
    let addr = a.as_ptr();
    drop(a);
    let b = ctx.memhostalloc(200, Default::default()).unwrap();
    assert_eq!(b.as_ptr(), addr, "same size class, reused");
    let mapped = ctx
        .memhostalloc(
            200,
            rumba::driver::HostAllocFlags {
                mapped: true,
                ..Default::default()
            },
        )
        .unwrap();
    assert_ne!(mapped.as_ptr(), addr, "flags must match");
    drop((b, mapped));
    ctx.memory_manager().empty_cache().unwrap();
}
