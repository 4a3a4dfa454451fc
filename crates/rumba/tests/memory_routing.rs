//! Out-of-memory hooks and scoped routing: the failure-callback adaptor's retries and limits,
//! and `with_resource` / `with_resource_on_oom` scopes nested, unwound, and across threads —
//! memory always goes back to the resource that made it.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rumba::Error;
use rumba::memory::{
    DeviceResource, FailureCallbackAdaptor, LimitingAdaptor, MemoryManager, OnFailure,
    StatisticsAdaptor, current_resource, with_resource, with_resource_on_oom,
};

fn setup() {
    common::start(|c| c.sim_devices = 2);
}

/// A counted resource over the context's device upstream.
fn counted() -> Arc<StatisticsAdaptor> {
    let mc = rumba::current_context().unwrap().manager_context();
    Arc::new(StatisticsAdaptor::new(mc.device_upstream()))
}

fn live(r: &StatisticsAdaptor) -> usize {
    r.statistics().unwrap().current_bytes
}

fn limited(bytes: usize) -> Arc<LimitingAdaptor> {
    let mc = rumba::current_context().unwrap().manager_context();
    Arc::new(LimitingAdaptor::new(
        mc.device_upstream(),
        mc.device,
        Some(bytes),
    ))
}

#[test]
fn the_callback_frees_and_the_allocation_is_retried() {
    setup();
    let ctx = rumba::current_context().unwrap();
    let mc = ctx.manager_context();
    let up = limited(4096);
    let calls = Arc::new(Mutex::new(Vec::new()));
    // Memory of the program that the callback may spill: buffers of this same resource.
    let spillable: Arc<Mutex<Vec<rumba::memory::DeviceBuffer>>> = Arc::default();
    let (log, spill) = (calls.clone(), spillable.clone());
    let res: Arc<dyn DeviceResource> =
        Arc::new(FailureCallbackAdaptor::new(up.clone(), 5, move |f| {
            let Error::OutOfMemory { requested, .. } = f.error else {
                panic!("an out-of-memory error with figures: {:?}", f.error);
            };
            log.lock().unwrap().push((f.attempt, f.bytes, *requested));
            // Spill one buffer per call (re-entering the adaptor to give it back).
            match spill.lock().unwrap().pop() {
                Some(b) => {
                    drop(b);
                    OnFailure::Retry
                }
                None => OnFailure::Fail,
            }
        }));
    let mm = MemoryManager::new("spilling", &mc, res.clone(), mc.host_upstream());
    for _ in 0..4 {
        spillable.lock().unwrap().push(mm.memalloc(1000).unwrap());
    }
    let big = mm.memalloc(3000).unwrap(); // needs three spills
    assert_eq!(
        *calls.lock().unwrap(),
        [(1, 3000, 3000), (2, 3000, 3000), (3, 3000, 3000)]
    );
    assert_eq!(spillable.lock().unwrap().len(), 1);
    assert_eq!(up.used(), 4000);
    drop(big);
    spillable.lock().unwrap().clear();
    // Nothing left to spill: the callback says Fail, once, and the error is the upstream's.
    calls.lock().unwrap().clear();
    let err = mm.memalloc(5000).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfMemory {
                requested: 5000,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(calls.lock().unwrap().len(), 1);
}

#[test]
fn retries_stop_at_the_limit_and_other_errors_are_not_retried() {
    setup();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let res = FailureCallbackAdaptor::new(limited(100), 2, move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        OnFailure::Retry // frees nothing
    });
    let err = res.allocate_sync(1000).unwrap_err();
    assert!(err.is_out_of_memory());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "two retries, each asked first"
    );
    let none = FailureCallbackAdaptor::new(limited(100), 0, |_| panic!("never asked"));
    assert!(none.allocate_sync(1000).unwrap_err().is_out_of_memory());
    // Not an out-of-memory failure: passed on at once.
    let ctx = rumba::current_context().unwrap();
    let pool = Arc::new(rumba::memory::PoolResource::new(&ctx.manager_context()).unwrap());
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let res = FailureCallbackAdaptor::new(pool, 3, move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        OnFailure::Retry
    });
    assert!(matches!(
        res.allocate_sync(0),
        Err(Error::ZeroSizeAllocation { .. })
    ));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[test]
fn scopes_nest_and_memory_returns_to_the_resource_that_made_it() {
    setup();
    let ctx = rumba::current_context().unwrap();
    let (a, b) = (counted(), counted());
    assert!(current_resource().is_none());
    let (in_a, in_b, after_b) = with_resource(&a, || {
        let in_a = ctx.memalloc(100).unwrap();
        let in_b = with_resource(&b, || {
            assert!(current_resource().is_some());
            rumba::device_array::<u8, _>(200, rumba::Order::C).unwrap()
        });
        let after_b = rumba::stream().unwrap().memalloc(300).unwrap();
        (in_a, in_b, after_b)
    });
    assert!(current_resource().is_none());
    assert_eq!((live(&a), live(&b)), (400, 200));
    let outside = ctx.memalloc(50).unwrap();
    assert_eq!(
        (live(&a), live(&b)),
        (400, 200),
        "outside every scope: the context's own"
    );
    drop(in_b);
    assert_eq!(live(&b), 0);
    drop((in_a, after_b, outside));
    assert_eq!(live(&a), 0);
}

#[test]
fn a_fallback_serves_only_what_the_usual_resource_cannot() {
    setup();
    let ctx = rumba::current_context().unwrap();
    let (primary, outer, inner) = (limited(1000), counted(), counted());
    with_resource(&primary, || {
        with_resource_on_oom(&outer, || {
            let first = ctx.memalloc(800).unwrap();
            assert_eq!((primary.used(), live(&outer)), (800, 0));
            let second = ctx.memalloc(800).unwrap();
            assert_eq!(live(&outer), 800, "the primary is full");
            with_resource_on_oom(&inner, || {
                let third = ctx.memalloc(800).unwrap();
                assert_eq!(
                    (live(&inner), live(&outer)),
                    (800, 800),
                    "the innermost fallback is tried first"
                );
                drop(third);
            });
            // A scope that replaces the resource drops the fallbacks before it.
            let only = limited(10);
            with_resource(&only, || {
                assert!(ctx.memalloc(800).unwrap_err().is_out_of_memory());
            });
            drop((first, second));
        })
    });
    assert_eq!((primary.used(), live(&outer), live(&inner)), (0, 0, 0));
}

#[test]
fn scopes_are_per_thread_and_buffers_go_home_from_any_thread() {
    setup();
    let a = counted();
    let (buffer, spawned_live) = with_resource(&a, || {
        let buffer = rumba::current_context().unwrap().memalloc(640).unwrap();
        // A thread started inside the scope is not routed.
        let spawned = std::thread::spawn(|| {
            assert!(current_resource().is_none());
            rumba::current_context()
                .unwrap()
                .memalloc(10)
                .unwrap()
                .len()
        })
        .join()
        .unwrap();
        (buffer, spawned)
    });
    assert_eq!((live(&a), spawned_live), (640, 10));
    std::thread::spawn(move || drop(buffer)).join().unwrap();
    assert_eq!(
        live(&a),
        0,
        "dropped on another thread, given back to its resource"
    );
    // A scope whose closure unwinds is closed all the same.
    let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        with_resource(&a, || panic!("inside a scope"))
    }));
    assert!(unwound.is_err());
    assert!(current_resource().is_none());
}

#[test]
fn a_routed_block_of_another_device_is_refused_and_given_back() {
    setup();
    if common::needs_devices(
        2,
        "a_routed_block_of_another_device_is_refused_and_given_back",
    ) {
        return;
    }
    let other =
        rumba::memory::DriverResource::new(1, rumba::current_context().unwrap().driver().clone());
    let other = Arc::new(other);
    let err = with_resource(&other, || rumba::current_context().unwrap().memalloc(64)).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Resource(rumba::error::ResourceError::WrongBlock {
                device: 1,
                expected_device: 0,
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(
        other.live(),
        (0, 0),
        "the block went back to the resource that made it"
    );
}
