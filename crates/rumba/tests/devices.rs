//! docs/design/behaviour.md §1: devices, selection per thread, contexts, close, detect.

#[path = "ported_kernels/behaviour.rs"]
mod behaviour_kernels;
mod common;

use rumba::Error;

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|c| {
        c.sim_devices = 4;
        c.sim_memory = Some(64 << 20);
    });
    common::serial()
}

#[test]
fn gpus_lists_every_device_and_ids_are_checked() {
    let _s = setup();
    if common::needs_devices(4, "gpus_lists_every_device_and_ids_are_checked") {
        return;
    }
    let gpus = rumba::gpus().unwrap();
    assert_eq!(
        gpus.iter().map(|d| d.id()).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    let err = rumba::select_device(4).unwrap_err();
    assert!(matches!(err, Error::InvalidDevice { id: 4, count: 4 }));
    assert!(
        err.to_string().contains("device id 4 is out of range"),
        "{err}"
    );
}

#[test]
fn each_thread_has_its_own_current_device_and_devices_have_separate_memory() {
    let _s = setup();
    if common::needs_devices(
        3,
        "each_thread_has_its_own_current_device_and_devices_have_separate_memory",
    ) {
        return;
    }
    rumba::select_device(2).unwrap();
    assert_eq!(rumba::current_device().unwrap().id(), 2);
    let on2 = rumba::current_context().unwrap().memalloc(1 << 20).unwrap();
    assert_eq!(on2.device(), 2);
    let other = std::thread::spawn(|| rumba::current_device().unwrap().id())
        .join()
        .unwrap();
    assert_eq!(other, 0, "a new thread starts on device 0");
    let (free2, _) = rumba::get_memory_info().unwrap();
    rumba::select_device(1).unwrap();
    let (free1, total1) = rumba::get_memory_info().unwrap();
    assert_eq!(total1, 64 << 20);
    assert!(free1 > free2, "device 1 does not see device 2's allocation");
    rumba::select_device(0).unwrap();
}

#[test]
fn close_resets_and_a_later_call_recreates_the_context() {
    let _s = setup();
    if common::needs_devices(4, "close_resets_and_a_later_call_recreates_the_context") {
        return;
    }
    std::thread::spawn(|| {
        // Device 3 is used by no other test: threads that ended stay attached to the contexts
        // they used (contexts live for the process), so only here is this thread the last user.
        rumba::select_device(3).unwrap();
        let ctx = rumba::current_context().unwrap();
        let buf = ctx.memalloc(4096).unwrap();
        let (before, total) = rumba::get_memory_info().unwrap();
        assert!(before < total);
        rumba::close().unwrap();
        // The old context freed its memory; the buffer's pointer is no longer valid.
        assert!(rumba::copy(&buf, &[0; 4096]).is_err());
        let fresh = rumba::current_context().unwrap();
        assert_eq!(fresh.device_id(), 3);
        drop(buf);
        rumba::close().unwrap();
    })
    .join()
    .unwrap();
}

#[test]
fn detect_names_the_backend_and_every_device() {
    let _s = setup();
    let r = rumba::detect().unwrap();
    let text = r.to_string();
    if common::test_backend() == rumba::config::BackendChoice::Cuda {
        // A real device: its own size and compute capability.
        assert!(text.contains("backend cuda"), "{text}");
        assert!(text.contains("compute capability"), "{text}");
        return;
    }
    assert!(text.contains("64.0 MiB total"), "{text}");
    if common::test_backend() == rumba::config::BackendChoice::OpenCl {
        assert!(text.contains("backend opencl"), "{text}");
        assert_eq!(r.devices.len(), rumba::gpus().unwrap().len());
        assert!(text.contains("compute capability: none (OpenCL)"), "{text}");
        return;
    }
    assert!(text.contains("backend sim"), "{text}");
    assert_eq!(r.devices.len(), 4);
    assert!(text.contains("compute capability: sim"), "{text}");
    assert!(text.contains("warp size: 32"), "{text}");
}

#[test]
fn configure_after_start_is_refused() {
    let _s = setup();
    rumba::gpus().unwrap(); // starts the runtime
    let err = rumba::configure(rumba::Config::default()).unwrap_err();
    assert!(matches!(err, rumba::Error::AlreadyStarted), "{err}");
}

#[test]
fn device_side_temporaries_follow_the_array_not_the_current_device() {
    let _s = setup();
    if common::needs_devices(
        3,
        "device_side_temporaries_follow_the_array_not_the_current_device",
    ) {
        return;
    }
    use rumba::ndarray::{array, s};
    rumba::select_device(2).unwrap();
    let host = array![[1i32, 2, 3], [4, 5, 6]];
    let d = rumba::to_device(&host).unwrap();
    rumba::select_device(0).unwrap();
    // A transposing copy and an overlapping assignment both need a device temporary.
    let t = d.transpose_copy(None).unwrap();
    assert_eq!(t.copy_to_host().unwrap(), host.t());
    d.slice(s![.., 1..])
        .unwrap()
        .assign(&d.slice(s![.., ..2]).unwrap())
        .unwrap();
    assert_eq!(d.copy_to_host().unwrap(), array![[1, 1, 2], [4, 4, 5]]);
}

/// Numba's `test_gpus_cudevice_indexing` and `test_accepted_context_switch`: `with cuda.gpus[i]`
/// as a guard that makes a device current and restores the previous one when dropped.
#[test]
fn a_device_guard_makes_a_device_current_and_restores_the_previous_one() {
    let _s = setup();
    if common::needs_devices(
        3,
        "a_device_guard_makes_a_device_current_and_restores_the_previous_one",
    ) {
        return;
    }
    rumba::select_device(0).unwrap();
    // Device 3 is the close/reset test's alone (a thread that uses it stays attached to it).
    for d in rumba::gpus().unwrap().into_iter().take(3) {
        let g = d.activate().unwrap();
        assert_eq!(rumba::current_device().unwrap().id(), d.id());
        assert_eq!(rumba::current_context().unwrap().device_id(), d.id());
        assert_eq!(g.previous().id(), 0);
        drop(g);
        assert_eq!(rumba::current_device().unwrap().id(), 0);
    }
    fn switch_gpu() -> usize {
        let _on1 = rumba::gpus().unwrap()[1].activate().unwrap();
        rumba::current_context().unwrap().device_id()
    }
    let outer = rumba::gpus().unwrap()[0].activate().unwrap();
    assert_eq!(switch_gpu(), 1);
    assert_eq!(
        rumba::current_device().unwrap().id(),
        0,
        "restored on return"
    );
    drop(outer);

    // Nested guards unwind in order, and a select_device inside a guard is undone by it.
    let g1 = rumba::gpus().unwrap()[1].activate().unwrap();
    let g2 = rumba::gpus().unwrap()[2].activate().unwrap();
    rumba::select_device(0).unwrap();
    drop(g2);
    assert_eq!(rumba::current_device().unwrap().id(), 1);
    drop(g1);
    assert_eq!(rumba::current_device().unwrap().id(), 0);
}

#[test]
fn a_device_guard_restores_the_previous_device_when_the_scope_panics() {
    let _s = setup();
    if common::needs_devices(
        3,
        "a_device_guard_restores_the_previous_device_when_the_scope_panics",
    ) {
        return;
    }
    rumba::select_device(2).unwrap();
    let r = std::panic::catch_unwind(|| {
        let _on1 = rumba::gpus().unwrap()[1].activate().unwrap();
        assert_eq!(rumba::current_device().unwrap().id(), 1);
        panic!("inside the guarded scope");
    });
    assert!(r.is_err());
    assert_eq!(rumba::current_device().unwrap().id(), 2);
    // And when a `?` leaves the scope early.
    fn fails() -> rumba::Result<()> {
        let _on0 = rumba::gpus()?[0].activate()?;
        rumba::select_device(99)?;
        Ok(())
    }
    assert!(fails().is_err());
    assert_eq!(rumba::current_device().unwrap().id(), 2);
    rumba::select_device(0).unwrap();
}

/// Numba's `test_multigpu_context` and `test_with_context`: work inside a guard runs on its
/// device, with host arguments copied in and out.
#[test]
fn kernels_and_arrays_inside_guards_use_the_guarded_device() {
    let _s = setup();
    if common::needs_devices(2, "kernels_and_arrays_inside_guards_use_the_guarded_device") {
        return;
    }
    let copy_plus_1 = behaviour_kernels::copy_plus_1();
    let n = 32;
    let a = ndarray::Array1::from_iter((0..n).map(f64::from));
    let mut b = a.clone();
    {
        let _g = rumba::gpus().unwrap()[0].activate().unwrap();
        copy_plus_1
            .configure(1, n as u32)
            .launch((&a, &mut b))
            .unwrap();
    }
    assert_eq!(b, &a + 1.0);
    let (mut b0, mut b1) = (a.clone(), a.clone());
    let (on0, on1);
    {
        let _g0 = rumba::gpus().unwrap()[0].activate().unwrap();
        copy_plus_1
            .configure(1, n as u32)
            .launch((&a, &mut b0))
            .unwrap();
        on0 = rumba::to_device(&a).unwrap();
        {
            let _g1 = rumba::gpus().unwrap()[1].activate().unwrap();
            copy_plus_1
                .configure(1, n as u32)
                .launch((&a, &mut b1))
                .unwrap();
            on1 = rumba::to_device(&a).unwrap();
        }
    }
    assert_eq!((b0, b1), (&a + 1.0, &a + 1.0));
    assert_eq!((on0.buffer().device(), on1.buffer().device()), (0, 1));
    let add = behaviour_kernels::vector_add_scalar();
    {
        let _g = rumba::gpus().unwrap()[1].activate().unwrap();
        add.configure(1, n as u32).launch((&on1, 2.0)).unwrap();
        assert_eq!(on1.copy_to_host().unwrap(), &a + 2.0);
    }
    // A device array of another device is refused as a kernel argument, naming both devices.
    let err = add.configure(1, n as u32).launch((&on1, 1.0)).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::WrongDevice {
                expected: 0,
                found: 1,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "kernel argument 0 is on device 1, but the work runs on device 0"
    );
}

/// Numba's `test_with_context_peer_copy`: an array on device 1 receives device 0's data.
#[test]
fn peer_access_and_copies_between_devices() {
    let _s = setup();
    if common::needs_devices(2, "peer_access_and_copies_between_devices") {
        return;
    }
    let gpus = rumba::gpus().unwrap();
    assert!(gpus[0].can_access_peer(&gpus[1]).unwrap());
    assert!(gpus[1].can_access_peer(&gpus[0]).unwrap());
    assert!(
        !gpus[1].can_access_peer(&gpus[1]).unwrap(),
        "not its own peer"
    );

    let host = ndarray::Array1::from_iter((0..10).map(|i| i as f32));
    let arr1 = {
        let _g = gpus[0].activate().unwrap();
        rumba::to_device(&host).unwrap()
    };
    let arr2 = {
        let _g = gpus[1].activate().unwrap();
        rumba::to_device(&ndarray::Array1::<f32>::zeros(10)).unwrap()
    };
    {
        let _g = gpus[0].activate().unwrap();
        rumba::copy(&arr2, &arr1).unwrap();
        assert_eq!(arr2.copy_to_host().unwrap(), host);
    }
    // The other way, asynchronously on a stream of the destination device.
    let back = {
        let _g = gpus[0].activate().unwrap();
        rumba::device_array::<f32, _>(10, rumba::Order::C).unwrap()
    };
    arr2.slice(ndarray::s![..5])
        .unwrap()
        .assign(-1.0f32)
        .unwrap();
    let s0 = {
        let _g = gpus[0].activate().unwrap();
        rumba::stream().unwrap()
    };
    s0.copy(&back, &arr2).unwrap();
    s0.synchronize().unwrap();
    let mut expect = host.clone();
    expect.slice_mut(ndarray::s![..5]).fill(-1.0);
    assert_eq!(back.copy_to_host().unwrap(), expect);

    // Bytes between buffers of two devices, synchronously and on a stream.
    let b1 = arr1.buffer().view(0..8).unwrap();
    let b2 = arr2.buffer().view(32..40).unwrap();
    rumba::copy(&b2, &b1).unwrap();
    s0.copy(&arr1.buffer().view(8..16).unwrap(), &b2).unwrap();
    s0.synchronize().unwrap();
    let got = arr1.copy_to_host().unwrap();
    assert_eq!(&got.to_vec()[..4], &[0.0, 1.0, 0.0, 1.0]);
    let into_other = s0.copy(&b2, &b1).unwrap_err();
    assert!(into_other.to_string().contains("device 1"), "{into_other}");

    // A strided copy between devices is refused before anything is queued.
    let strided = arr1.slice(ndarray::s![..;2]).unwrap();
    let dst = arr2.slice(ndarray::s![..5]).unwrap();
    let before = arr2.copy_to_host().unwrap();
    let err = rumba::copy(&dst, &strided).unwrap_err();
    assert!(matches!(err, rumba::Error::NotContiguous(_)), "{err}");
    assert_eq!(arr2.copy_to_host().unwrap(), before);
}

#[test]
fn a_synchronous_peer_copy_waits_for_the_source_devices_queued_work() {
    let _s = setup();
    if common::needs_devices(
        2,
        "a_synchronous_peer_copy_waits_for_the_source_devices_queued_work",
    ) {
        return;
    }
    use std::sync::mpsc;
    use std::time::Duration;
    let gpus = rumba::gpus().unwrap();
    let (src, s0) = {
        let _g = gpus[0].activate().unwrap();
        (
            rumba::device_array::<u32, _>(1024, rumba::Order::C).unwrap(),
            rumba::stream().unwrap(),
        )
    };
    let dst = {
        let _g = gpus[1].activate().unwrap();
        rumba::device_array::<u32, _>(1024, rumba::Order::C).unwrap()
    };
    let (open_tx, open_rx) = mpsc::channel::<()>();
    s0.add_callback(move |_, _| {
        let _ = open_rx.recv_timeout(Duration::from_secs(20));
    })
    .unwrap();
    src.assign_on(7u32, &s0).unwrap(); // behind the gate, on a blocking stream of device 0
    let (done_tx, done_rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        rumba::copy(&dst, &src).unwrap();
        done_tx.send(dst.copy_to_host().unwrap()).unwrap();
    });
    assert!(
        done_rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "the peer copy waited for the source device's earlier work"
    );
    open_tx.send(()).unwrap();
    let got = done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(got.iter().all(|&x| x == 7));
    worker.join().unwrap();
}
