//! docs/design/behaviour.md §3: pinned, mapped and managed host arrays (ported from Numba's
//! `test_host_alloc.py`, plus the flags Numba ignores and we honour).

mod common;

use ndarray::{Array1, ArrayView1};
use rumba::Order;
use rumba::driver::PageLocking;

fn setup() {
    common::start(|c| {
        c.sim_devices = 2;
        c.sim_memory = Some(256 << 20);
    });
}

/// Numba's `test_host_operators`, on a host view holding 0..10.
fn check_operators(a: ArrayView1<'_, u32>) {
    assert_eq!((&a + 1).sum(), 55);
    assert_eq!(((&a + 1) * 2 - 1).sum(), 100);
    assert_eq!(a.iter().filter(|&&x| x < 5).count(), 5);
    assert_eq!(a.iter().filter(|&&x| x <= 5).count(), 6);
    assert_eq!(a.iter().filter(|&&x| x > 6).count(), 3);
    assert_eq!(a.iter().filter(|&&x| x >= 6).count(), 4);
    assert_eq!(a.mapv(|x| x * x).sum(), 285);
    assert_eq!((&a / 2).sum(), 20); // integer division
    assert_eq!(a.mapv(|x| x as f64 / 2.0).sum(), 22.5);
    assert_eq!((&a % 2).sum(), 5);
}

#[test]
fn arithmetic_on_mapped_and_pinned_arrays() {
    setup();
    let range = Array1::from_iter(0..10u32);
    let mut m = rumba::mapped_array::<u32, _>(10, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut().assign(&range);
    check_operators(m.view());
    let mut p = rumba::pinned_array::<u32, _>(10, Order::C).unwrap();
    p.view_mut().assign(&range);
    check_operators(p.view());
    let mut g = rumba::managed_array::<u32, _>(10, Order::C).unwrap();
    g.view_mut().assign(&range);
    check_operators(g.view());
}

#[test]
fn a_mapped_allocation_filled_by_a_device_memset_reads_back_without_a_copy() {
    setup();
    // Numba's test_host_alloc_driver: 32 bytes, memset 0xab on the device.
    let mut m = rumba::mapped_array::<u8, _>(32, Order::C, rumba::MappedOptions::new()).unwrap();
    m.device_mut().memset(0xab).unwrap();
    assert!(m.view().iter().all(|&b| b == 0xab));
    // The host writes; the device reads the same bytes.
    m.view_mut().fill(32);
    let d = rumba::device_array::<u8, _>(32, Order::C).unwrap();
    rumba::copy(&d, m.device()).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), m.view());
    assert!(m.view().iter().all(|&b| b == 32));
}

#[test]
fn a_pinned_array_changes_only_on_copy_back() {
    setup();
    // Numba's test_host_alloc_pinned.
    let mut p = rumba::pinned_array::<u32, _>(10, Order::C).unwrap();
    p.view_mut().fill(123);
    let d = rumba::to_device(&p).unwrap();
    d.buffer().memset(0).unwrap();
    assert!(p.view().iter().all(|&x| x == 123), "no copy yet");
    rumba::copy(&mut p.view_mut(), &d).unwrap();
    assert!(p.view().iter().all(|&x| x == 0));
}

#[test]
fn a_mapped_array_sees_a_device_memset_directly() {
    setup();
    // Numba's test_host_alloc_mapped.
    let mut m = rumba::mapped_array::<u32, _>(10, Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut().fill(123);
    assert!(m.view().iter().all(|&x| x == 123));
    m.device_mut().memset(0).unwrap();
    assert!(m.view().iter().all(|&x| x == 0));
    assert_eq!(m.view().iter().filter(|&&x| x != 0).count(), 0);
}

#[test]
fn pinned_arrays_report_page_locking_and_are_registered() {
    setup();
    let ctx = rumba::current_context().unwrap();
    let p = rumba::pinned_array::<f64, _>((64, 64), Order::F).unwrap();
    assert!(
        ctx.driver()
            .is_host_pinned(p.view().as_ptr().cast(), 64 * 64 * 8)
    );
    let detect = rumba::detect().unwrap().to_string();
    match p.page_locking() {
        PageLocking::Available => assert!(detect.contains("page-locked")),
        PageLocking::Refused(why) => {
            assert!(!why.is_empty());
            assert!(!p.is_page_locked());
        }
    }
    // Beyond RLIMIT_MEMLOCK, the allocation still succeeds and says why it is not locked.
    let big = rumba::pinned_array::<u8, _>(64 << 20, Order::C).unwrap();
    if let PageLocking::Refused(why) = big.page_locking() {
        assert!(why.contains("mlock") || why.contains("RLIMIT"), "{why}");
    }
    let like = rumba::pinned_array_like(&p).unwrap();
    assert_eq!(like.view().strides(), p.view().strides());
}

#[test]
fn portable_mapped_memory_is_usable_from_every_device() {
    setup();
    if common::needs_devices(2, "portable_mapped_memory_is_usable_from_every_device") {
        return;
    }
    let mut local =
        rumba::mapped_array::<i32, _>(4, Order::C, rumba::MappedOptions::new()).unwrap();
    let mut portable =
        rumba::mapped_array::<i32, _>(4, Order::C, rumba::MappedOptions::new().portable(true))
            .unwrap();
    local.view_mut().fill(1);
    portable.view_mut().fill(2);
    std::thread::scope(|s| {
        s.spawn(|| {
            rumba::select_device(1).unwrap();
            let d1 = rumba::device_array::<i32, _>(4, Order::C).unwrap();
            assert_eq!(d1.buffer().device(), 1);
            rumba::copy(&d1, portable.device()).unwrap();
            assert_eq!(d1.copy_to_host().unwrap().to_vec(), [2; 4]);
            let err = rumba::copy(&d1, local.device()).unwrap_err();
            assert!(
                matches!(&err, rumba::Error::HostMemory(rumba::error::HostMemoryError::NotMapped {
                    device: 1,
                    reason,
                    ..
                }) if reason.contains("not portable")),
                "{err}"
            );
        });
    });
    // Managed memory is usable from every device too.
    let mut g = rumba::managed_array::<i32, _>(4, Order::C).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            rumba::select_device(1).unwrap();
            let src = rumba::to_device(&[5i32, 6, 7, 8]).unwrap();
            rumba::copy(&mut g.device_mut(), &src).unwrap();
        });
    });
    assert_eq!(g.view().to_vec(), [5, 6, 7, 8]);
}

#[test]
fn write_combined_is_recorded_and_behaves_as_memory() {
    setup();
    if common::test_backend() == rumba::config::BackendChoice::OpenCl {
        // OpenCL has no write-combined memory: honoured by refusing, not by ignoring the flag.
        let err = rumba::mapped_array::<u64, _>(
            8,
            Order::C,
            rumba::MappedOptions::new().write_combined(true),
        )
        .unwrap_err();
        assert!(
            matches!(err, rumba::Error::Unsupported { ref feature, .. } if feature.contains("write-combined")),
            "{err}"
        );
        return;
    }
    let mut wc = rumba::mapped_array::<u64, _>(
        8,
        Order::C,
        rumba::MappedOptions::new().write_combined(true),
    )
    .unwrap();
    assert!(wc.is_write_combined() && wc.flags().write_combined && wc.flags().mapped);
    wc.view_mut().fill(7);
    wc.device_mut().fill(9).unwrap();
    assert_eq!(wc.view().sum(), 72);
}

#[test]
fn device_copies_through_mapped_views_follow_layouts_and_bool_rules() {
    setup();
    let src = rumba::to_device(&ndarray::array![[1u8, 2, 3], [4, 5, 6]]).unwrap();
    let mut m =
        rumba::mapped_array::<u8, _>((2, 3), Order::F, rumba::MappedOptions::new()).unwrap();
    rumba::copy(&mut m.device_mut(), &src).unwrap();
    assert_eq!(m.view(), ndarray::array![[1, 2, 3], [4, 5, 6]]);
    let wrong = rumba::device_array::<u8, _>((3, 2), Order::C).unwrap();
    let err = rumba::copy(&mut m.device_mut(), &wrong).unwrap_err();
    assert!(err.to_string().starts_with("incompatible shape"), "{err}");

    // A device buffer holding byte 7 copied into mapped bools arrives as `true`, never as an
    // invalid bool; a byte memset of bools is refused.
    let bytes = rumba::device_array::<bool, _>(4, Order::C).unwrap();
    bytes.buffer().memset(7).unwrap();
    let mut b = rumba::mapped_array::<bool, _>(4, Order::C, rumba::MappedOptions::new()).unwrap();
    rumba::copy(&mut b.device_mut(), &bytes).unwrap();
    assert_eq!(b.view().to_vec(), [true; 4]);
    assert!(b.device_mut().memset(1).is_err());
    let s = rumba::stream().unwrap();
    let r = s.auto_synchronize(|scope| scope.copy(b.device_mut(), &bytes));
    assert!(
        matches!(r, Err(rumba::Error::InvalidBits { dtype: "bool", .. })),
        "the asynchronous copy refuses bools: {r:?}"
    );
}

#[test]
fn scoped_device_work_on_mapped_memory_is_visible_after_the_scope() {
    setup();
    let s = rumba::stream().unwrap();
    let mut m =
        rumba::mapped_array::<u32, _>(1 << 20, Order::C, rumba::MappedOptions::new()).unwrap();
    let src = rumba::to_device(&Array1::from_iter(0..1u32 << 20)).unwrap();
    let dst = rumba::device_array::<u32, _>(1 << 20, Order::C).unwrap();
    s.auto_synchronize(|scope| -> rumba::Result<()> {
        scope.copy(m.device_mut(), &src)?;
        Ok(())
    })
    .unwrap();
    drop(src);
    assert_eq!(m.view()[12345], 12345);
    s.auto_synchronize(|scope| scope.copy(&dst, m.device()))
        .unwrap();
    assert_eq!(dst.copy_to_host().unwrap(), m.view());
}

#[test]
fn size_zero_and_like_constructors() {
    setup();
    let p = rumba::pinned_array::<f32, _>((0, 3), Order::C).unwrap();
    assert_eq!(p.view().len(), 0);
    let mut m = rumba::mapped_array::<f32, _>(0, Order::C, rumba::MappedOptions::new()).unwrap();
    m.device_mut().memset(1).unwrap();
    let d = rumba::device_array::<f32, _>((3, 4), Order::F).unwrap();
    let ml = rumba::mapped_array_like(&d, rumba::MappedOptions::new()).unwrap();
    assert_eq!(ml.layout().strides(), d.strides());
    let gl = rumba::managed_array_like(&d).unwrap();
    assert_eq!(gl.layout().strides(), d.strides());
}

/// Numba's `test_managed_alloc_driver_host_attach` and `test_managed_array_attach_host`: managed
/// memory attached to the host (`attach_global=False`) is written by the device and read by the
/// host after synchronization, like globally attached memory (the sim, like CUDA 6.0+ devices on
/// Linux, has concurrent managed access).
#[test]
fn managed_memory_attached_to_the_host() {
    setup();
    use rumba::driver::ManagedAttach;
    let drv = rumba::backend_driver().unwrap();
    let n = 4096;
    let p = drv
        .mem_alloc_managed_attached(0, n, ManagedAttach::Host)
        .unwrap();
    let d = drv.host_device_pointer(0, p).unwrap();
    // SAFETY: no Rust reference to the managed memory exists while the device writes it.
    unsafe { drv.memset(rumba::driver::On::blocking(0), d, 0xab, n) }.unwrap();
    rumba::synchronize().unwrap();
    // SAFETY: the memset has completed; nothing else uses the memory.
    let bytes = unsafe { std::slice::from_raw_parts(p, n) };
    assert!(bytes.iter().all(|&b| b == 0xab));
    // SAFETY: `bytes` is no longer used.
    unsafe { drv.mem_free_managed(p) }.unwrap();

    for attach in [ManagedAttach::Global, ManagedAttach::Host] {
        let mut a = rumba::host::managed_array_attached::<f64, _>(100, Order::C, attach).unwrap();
        assert_eq!(a.attachment(), attach);
        a.view_mut().fill(123.456);
        assert!(a.view().iter().all(|&x| x == 123.456));
        a.device_mut().fill(1.0).unwrap();
        rumba::current_context().unwrap().synchronize().unwrap();
        assert!(a.view().iter().all(|&x| x == 1.0), "{attach:?}");
    }
}
