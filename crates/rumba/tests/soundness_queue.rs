//! Issue 14, items 2, 3 and 12: an operation that returns an error has no effect; a leaked pin
//! guard cannot make a copy read memory after its borrow ended; operations of an array bound to
//! a stream are asynchronous on it. (Item 1, a stream scope used from another thread, is refused
//! by the compiler: see the `compile_fail` example on `StreamScope`.)

mod common;

use std::sync::mpsc;
use std::time::Duration;

use ndarray::Array1;
use rumba::Order;

fn setup() {
    common::start(|_| {});
}

/// Runs `f` inside a callback of a fresh stream and hands its result back.
fn in_callback<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let s = rumba::stream().unwrap();
    let (tx, rx) = mpsc::channel();
    s.add_callback(move |_, _| tx.send(f()).unwrap()).unwrap();
    let out = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the callback ran");
    s.synchronize().unwrap();
    out
}

#[test]
fn a_copy_into_pinned_memory_refused_in_a_callback_never_happens() {
    setup();
    let n = 64 * 1024;
    let d = rumba::to_device(&vec![0xA5u8; n]).unwrap();
    let pinned = rumba::pinned_array::<u8, _>(n, Order::C).unwrap();
    let (pinned, refused) = in_callback(move || {
        let mut p = pinned;
        let r = rumba::copy(&mut p.view_mut(), &d);
        (p, r)
    });
    let err = refused.expect_err("a copy that waits is refused in a callback");
    assert!(matches!(err, rumba::Error::InCallback { .. }), "{err}");
    rumba::synchronize().unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let arrived = pinned
        .as_slice_memory_order()
        .iter()
        .filter(|&&b| b != 0)
        .count();
    assert_eq!(arrived, 0, "{arrived} bytes arrived after the refusal");
}

#[test]
fn a_fill_refused_in_a_callback_never_happens() {
    setup();
    let d = rumba::device_array::<u32, _>(1000, Order::C).unwrap();
    let d2 = d.clone();
    let refused = in_callback(move || d2.fill(7));
    assert!(matches!(
        refused.unwrap_err(),
        rumba::Error::InCallback { .. }
    ));
    rumba::synchronize().unwrap();
    assert!(d.copy_to_host().unwrap().iter().all(|&x| x == 0));
}

#[test]
fn a_bound_arrays_upload_in_a_callback_is_queued_and_happens() {
    setup();
    let s = rumba::stream().unwrap();
    let d = rumba::device_array::<i64, _>(256, Order::C)
        .unwrap()
        .bind(&s);
    let d2 = d.clone();
    let host = Array1::from_iter(0..256i64);
    let done = in_callback(move || rumba::copy(&d2, &host).map_err(|e| e.to_string()));
    if common::test_backend() == rumba::config::BackendChoice::Cuda {
        // CUDA forbids every driver call in a host callback: refused before anything is queued.
        let why = done.unwrap_err();
        assert!(why.contains("CUDA forbids driver calls"), "{why}");
        return;
    }
    done.expect("asynchronous on the bound stream: nothing to wait for");
    assert_eq!(d.copy_to_host().unwrap(), Array1::from_iter(0..256i64));
}

#[test]
fn operations_of_a_bound_array_are_asynchronous_on_its_stream() {
    setup();
    // The same operations once before the gate: on CUDA, loading the built-in kernels' modules
    // may wait for the device's queued work (CUDA's lazy loading), gated stream included.
    let warm = rumba::device_array::<f32, _>(4, Order::C).unwrap();
    warm.fill(1.0).unwrap();
    warm.assign(&warm.slice(ndarray::s![..;-1]).unwrap())
        .unwrap();
    drop(warm.transpose_copy(None).unwrap());
    let (s, open) = common::gated_stream();
    let d = rumba::device_array::<f32, _>(4, Order::C).unwrap().bind(&s);
    let e = rumba::device_array::<f32, _>(4, Order::C).unwrap().bind(&s);
    let (d2, e2) = (d.clone(), e.clone());
    // Every one of these would wait for the gated stream if it were synchronous.
    common::within(10, "operations on a held bound stream", move || {
        let mut host = Array1::from_elem(4, 2.0f32);
        rumba::copy(&d2, &host).unwrap();
        host.fill(-1.0); // the data was taken when the call returned
        drop(host);
        d2.set(&[0], 5.0).unwrap();
        e2.fill(1.0).unwrap();
        e2.assign(&d2.slice(ndarray::s![..;-1]).unwrap()).unwrap();
        let t = d2.transpose_copy(None).unwrap();
        assert!(t.stream().is_some(), "the copy is bound to the same stream");
    });
    assert!(!s.query().unwrap(), "the stream is still held");
    open.send(()).unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [5.0, 2.0, 2.0, 2.0]);
    assert_eq!(e.copy_to_host().unwrap().to_vec(), [2.0, 2.0, 2.0, 5.0]);
}

#[test]
fn reads_of_a_bound_array_wait_for_its_stream() {
    setup();
    let (s, open) = common::gated_stream();
    let d = rumba::device_array::<u8, _>(8, Order::C).unwrap().bind(&s);
    d.fill(9).unwrap();
    let opener = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        open.send(()).unwrap();
    });
    // Returns only after the gate opened and the fill ran.
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [9; 8]);
    opener.join().unwrap();
}

/// Occupies freed memory so that a stale read would see these bytes.
fn scribble(bytes: usize, rounds: usize) -> Vec<Vec<u8>> {
    (0..rounds).map(|_| vec![0xEEu8; bytes]).collect()
}

#[test]
fn a_leaked_pin_guard_cannot_make_a_staged_copy_read_freed_memory() {
    setup();
    // Below the allocator's mmap threshold, so that a freed block is handed out again at once.
    let n = 64 * 1024;
    let d = rumba::device_array::<u8, _>(n, Order::C).unwrap();
    let mut p = rumba::pinned_array::<u8, _>(n, Order::C).unwrap();
    for round in 1..=8u8 {
        // A guard pins a host array, is leaked, and the array is freed: the driver's table of
        // pinned memory keeps a stale entry for a block the allocator hands out again.
        let mut v = vec![0u8; n];
        std::mem::forget(rumba::pinned([&mut v]).unwrap());
        drop(v);
        // The gate only now: on CUDA, replacing the last round's stale registration
        // (`cuMemHostUnregister`) waits for the device, so a gate taken before it would never
        // open (the seventh H100 run hung here).
        let (s, open) = common::gated_stream();
        p.as_slice_memory_order_mut().fill(round);
        // From pinned memory, the staged copy takes the data before it returns — possibly into
        // the freed block; the held stream runs it later.
        s.copy(&d, &p.view()).unwrap();
        p.as_slice_memory_order_mut().fill(0xCC);
        let junk = scribble(n, 4);
        open.send(()).unwrap();
        s.synchronize().unwrap();
        drop(junk);
        let back = d.copy_to_host().unwrap();
        let wrong = back.iter().filter(|&&b| b != round).count();
        assert_eq!(wrong, 0, "round {round}: {wrong} bytes differ");
    }
}

#[test]
fn a_mapped_memset_refused_in_a_callback_never_happens() {
    setup();
    let n = 64 * 1024;
    let m = rumba::mapped_array::<u8, _>(n, Order::C, rumba::MappedOptions::new()).unwrap();
    let (m, refused) = in_callback(move || {
        let mut m = m;
        let r = m.device_mut().memset(0x5A);
        (m, r)
    });
    assert!(matches!(
        refused.unwrap_err(),
        rumba::Error::InCallback { .. }
    ));
    rumba::synchronize().unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let arrived = m.view().iter().filter(|&&b| b != 0).count();
    assert_eq!(arrived, 0, "{arrived} bytes changed after the refusal");
}
