//! docs/design/behaviour.md §7, pool: pinned host memory is pooled too, and a block is reused only
//! after the events recorded on it have completed.

mod common;

use std::sync::{Arc, mpsc};

use rumba::memory::PinnedPool;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| c.memory_manager = rumba::config::ManagerChoice::Pool);
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

#[test]
fn a_reused_pinned_block_is_zeroed_so_new_arrays_start_at_zero() {
    // A block cached by the pool held other data; `pinned_array` promises zeroes, and for
    // `bool` any other byte would be an invalid value.
    let _g = setup();
    let order = rumba::Order::C;
    let mut a = rumba::pinned_array::<u8, _>(1000, order).unwrap();
    a.view_mut().fill(2);
    let addr = a.view().as_ptr() as usize;
    drop(a);
    let b = rumba::pinned_array::<bool, _>(1000, order).unwrap();
    assert_eq!(b.view().as_ptr() as usize, addr, "same size class, reused");
    // Read the raw bytes without forming a `bool` from them.
    // SAFETY: the array owns 1000 initialised bytes at `addr`.
    let raw = unsafe { std::slice::from_raw_parts(addr as *const u8, 1000) };
    assert!(raw.iter().all(|&x| x == 0), "stale bytes survived reuse");
    drop(b);

    let mut m = rumba::mapped_array::<u32, _>(100, order, rumba::MappedOptions::new()).unwrap();
    m.view_mut().fill(7);
    drop(m);
    let m = rumba::mapped_array::<u32, _>(100, order, rumba::MappedOptions::new()).unwrap();
    assert!(m.view().iter().all(|&x| x == 0));
}
