//! Issue 24 item 7: `async_done()` after a faulting kernel resolves to the fault on every
//! backend (on OpenCL it resolved `Ok`: the kernel's fault record is read by a check that only
//! a synchronization ran). The fault is still reported by the stream's next synchronization,
//! once, and the stream works afterwards.
//!
//! One test, alone in its binary: the fault is reported at the stream's next synchronization.

mod common;

use rumba::kernel::prelude::*;

/// Thread 5 of block 1 writes past the end.
#[kernel]
fn overrun(t: &Thread, o: &mut Arr<u32>) {
    let i = t.grid1();
    if i == 37 {
        o[i + 1000] = 1;
    } else if i < o.len() {
        o[i] = 2;
    }
}

#[test]
fn async_done_after_a_faulting_kernel_resolves_to_the_fault() {
    common::start(|_| {});
    let s = rumba::stream().unwrap();
    let out = rumba::device_array::<u32, _>(64, rumba::Order::C).unwrap();
    overrun()
        .configure(2, 32)
        .stream(&s)
        .launch((&out,))
        .unwrap();
    let done = s.async_done().unwrap();
    let r = common::within(60, "async_done", move || common::block_on(done).map(drop));
    let (block, thread, message) = common::fault(r);
    assert_eq!((block, thread), ([1, 0, 0], [5, 0, 0]), "{message}");
    // The synchronization reports it too (once); then the stream is healthy.
    common::fault(s.synchronize());
    s.synchronize().unwrap();
    overrun()
        .configure(1, 32)
        .stream(&s)
        .launch((&out,))
        .unwrap();
    s.synchronize().unwrap();
    let done = s.async_done().unwrap();
    let finished = common::within(60, "async_done", move || common::block_on(done)).unwrap();
    assert_eq!(finished.handle(), s.handle());
}
