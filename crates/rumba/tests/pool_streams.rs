//! docs/design/behaviour.md §7, pool: stream order. A block freed on stream A while A still has
//! queued work touching it is reused by A at once but not handed to stream B until that work has
//! completed. A's work is gated by a callback waiting on a channel, so the test observes it instead
//! of timing it.

mod common;

use std::sync::mpsc;

const SEG: usize = 2 << 20;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.memory_manager = rumba::config::ManagerChoice::Pool;
        c.sim_memory = Some(256 << 20);
    });
    common::serial()
}

/// Blocks `s` until the returned sender sends (or is dropped).
fn gate(s: &rumba::Stream) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    s.add_callback(move |_, _| {
        let _ = rx.recv();
    })
    .unwrap();
    tx
}

#[test]
fn a_block_freed_on_a_busy_stream_goes_to_another_stream_only_after_the_work() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.empty_cache().unwrap();
    let mm = ctx.memory_manager().device_resource().clone();
    let drv = ctx.driver().clone();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    // Only one segment's worth of memory, so B cannot simply grow the pool.
    let reserved = mm.statistics().unwrap().reserved_bytes;
    mm.limiter().unwrap().set_limit(Some(reserved + SEG));

    let block = mm.allocate(SEG, a.handle()).unwrap();
    let p = block.ptr();
    let open = gate(&a);
    // SAFETY: `p` is a device block of SEG bytes from the pool.
    unsafe { drv.memset(rumba::driver::On::stream(0, a.handle()), p, 7, SEG) }.unwrap(); // queued behind the gate
    mm.deallocate(block, a.handle()).unwrap(); // freed while A's work still touches it

    let err = mm.allocate(SEG, b.handle()).unwrap_err();
    assert!(
        err.is_out_of_memory(),
        "B must not get the block yet: {err}"
    );
    assert!(!a.query().unwrap(), "A's work is still queued");

    let again = mm.allocate(SEG, a.handle()).unwrap();
    assert_eq!(
        again.ptr(),
        p,
        "the same stream reuses it at once (stream order protects it)"
    );
    mm.deallocate(again, a.handle()).unwrap();
    assert!(mm.allocate(SEG, b.handle()).is_err(), "still guarded");

    open.send(()).unwrap();
    a.synchronize().unwrap();
    let mut back = vec![0u8; SEG];
    // SAFETY: `p` is still a device block of SEG bytes (now free in the pool, unused).
    unsafe { drv.memcpy_dtoh(rumba::driver::On::blocking(0), &mut back[..], p) }.unwrap();
    assert!(back.iter().all(|&x| x == 7), "A's work ran on the block");

    let q = mm.allocate(SEG, b.handle()).unwrap();
    assert_eq!(q.ptr(), p, "once A's work completed, B reuses the block");
    mm.deallocate(q, b.handle()).unwrap();
    mm.limiter().unwrap().set_limit(None);
    ctx.empty_cache().unwrap();
}

#[test]
fn a_fence_event_releases_the_block_when_a_is_not_idle() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    let mm = ctx.memory_manager().device_resource().clone();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let reserved = mm.statistics().unwrap().reserved_bytes;
    mm.limiter().unwrap().set_limit(Some(reserved + SEG));

    let block = mm.allocate(SEG, a.handle()).unwrap();
    let p = block.ptr();
    let first = gate(&a);
    mm.deallocate(block, a.handle()).unwrap();
    assert!(mm.allocate(SEG, b.handle()).is_err()); // records a fence behind the gate
    let second = gate(&a); // A stays busy after the fenced work
    first.send(()).unwrap();
    // The fence completes while A is still not idle; poll without timing anything.
    let bh = b.handle();
    let q = common::within(10, "fence release", move || {
        loop {
            match mm.allocate(SEG, bh) {
                Ok(q) => break (q, mm),
                Err(_) => std::thread::yield_now(),
            }
        }
    });
    assert_eq!(q.0.ptr(), p);
    assert!(
        !a.query().unwrap(),
        "A is still gated by the second callback"
    );
    second.send(()).unwrap();
    a.synchronize().unwrap();
    q.1.deallocate(q.0, b.handle()).unwrap();
    q.1.limiter().unwrap().set_limit(None);
    ctx.empty_cache().unwrap();
}

#[test]
fn buffers_allocated_on_a_stream_are_kept_alive_by_its_work_and_freed_on_it() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let open = gate(&a);
    let buf = a.memalloc(4096).unwrap();
    let ptr = buf.device_ptr();
    a.memset(&buf, 3).unwrap();
    let live = ctx.memory_stats().unwrap().current_count;
    drop(buf); // the queued memset keeps it alive
    assert_eq!(ctx.memory_stats().unwrap().current_count, live);
    let other = b.memalloc(4096).unwrap();
    assert_ne!(other.device_ptr(), ptr);
    drop(other);
    open.send(()).unwrap();
    a.synchronize().unwrap();
    assert_eq!(ctx.memory_stats().unwrap().current_count, live - 1);
    let snap = ctx.memory_snapshot().unwrap();
    let freed = snap
        .segments
        .iter()
        .flat_map(|s| &s.blocks)
        .find(|blk| blk.ptr <= ptr && ptr < blk.ptr + blk.size as u64)
        .unwrap();
    assert!(
        matches!(freed.state, rumba::memory::BlockState::Free { .. }),
        "{:?}",
        freed.state
    );
}

#[test]
fn defer_cleanup_holds_pool_releases_back() {
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    {
        let _guard = rumba::defer_cleanup().unwrap();
        let buf = ctx.memalloc(1000).unwrap();
        let ptr = buf.device_ptr();
        drop(buf);
        assert_eq!(ctx.deallocations().memory.count, 1);
        assert_eq!(ctx.deallocations().memory.bytes, 1000);
        ctx.flush_deallocations().unwrap();
        assert_eq!(ctx.deallocations().memory.count, 1, "no-op under the guard");
        assert_ne!(ctx.memalloc(1000).unwrap().device_ptr(), ptr, "not reused");
    }
    assert_eq!(
        ctx.deallocations().memory.count,
        2,
        "leaving does not flush"
    );
    ctx.flush_deallocations().unwrap();
    assert_eq!(ctx.deallocations().memory.count, 0);
}

#[test]
fn blocks_freed_on_destroyed_streams_come_back_with_one_empty_cache() {
    // Issue 14 item 8: after a device synchronize and a flush, one `empty_cache` returns them.
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    rumba::synchronize().unwrap();
    ctx.flush_deallocations().unwrap();
    rumba::empty_cache().unwrap();
    let (free0, _) = ctx.get_memory_info().unwrap();
    let s = rumba::stream().unwrap();
    let open = gate(&s);
    let bufs: Vec<_> = (0..3).map(|_| s.memalloc(SEG).unwrap()).collect();
    for b in &bufs {
        s.memset(b, 7).unwrap();
    }
    drop(bufs); // freed on `s`, behind its gated work
    drop(s); // destroyed (deferred) while its work is still queued
    ctx.flush_deallocations().unwrap();
    open.send(()).unwrap();
    rumba::synchronize().unwrap();
    ctx.flush_deallocations().unwrap();
    rumba::empty_cache().unwrap();
    assert_eq!(ctx.memory_stats().unwrap().reserved_bytes, 0);
    assert_eq!(ctx.get_memory_info().unwrap().0, free0);
}

#[test]
fn an_allocation_short_of_memory_waits_for_blocks_that_a_busy_stream_owns() {
    // Issue 24 item 5: the pool refused small requests as out of memory while its cache, owned
    // by streams whose work had not been seen to complete, held the memory. A context
    // allocation now waits for those streams (`CacheControl::settle`) before it fails.
    let _g = setup();
    let ctx = rumba::current_context().unwrap();
    ctx.empty_cache().unwrap();
    let mm = ctx.memory_manager().device_resource().clone();
    let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    let reserved = mm.statistics().unwrap().reserved_bytes;
    mm.limiter().unwrap().set_limit(Some(reserved + SEG));
    // Lifted on every way out, so that a failure here does not starve the other tests.
    struct Unlimit(std::sync::Arc<dyn rumba::memory::DeviceResource>);
    impl Drop for Unlimit {
        fn drop(&mut self) {
            self.0.limiter().unwrap().set_limit(None);
        }
    }
    let _unlimit = Unlimit(mm.clone());
    let open = gate(&a);
    drop(a.memalloc(SEG).unwrap()); // cached, owned by A, whose work is held by the gate
    // The direct resource call does not wait: the block is A's until A's work is done.
    assert!(
        mm.allocate(4096, b.handle())
            .unwrap_err()
            .is_out_of_memory()
    );
    let opener = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        open.send(()).unwrap();
    });
    let small = ctx
        .memalloc_on(4096, b.handle())
        .expect("the allocation waits for A instead of failing with memory cached");
    opener.join().unwrap();
    drop(small);
    b.synchronize().unwrap();
    drop(_unlimit);
    ctx.empty_cache().unwrap();
}
