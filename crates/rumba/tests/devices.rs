//! SPEC §1: devices, selection per thread, contexts, close, detect.

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
        assert!(buf.copy_from_host(&[0; 4096]).is_err());
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
    assert!(err.to_string().contains("already started"), "{err}");
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
