//! docs/design/behaviour.md §3: `pinned` / `mapped` guards over existing host arrays (ported from
//! Numba's `test_pinned_contextmanager` / `test_mapped_contextmanager`), ROC `register` /
//! `deregister`, and real page locking (`VmLck`).

mod common;

use ndarray::{Array1, Array2, s};

fn setup() -> std::sync::MutexGuard<'static, ()> {
    common::start(|_| {});
    common::serial()
}

#[derive(Debug)]
struct PinnedException;

/// Runs the Numba sequence: twice in a row, twice under `defer_cleanup`, and again after an error
/// escaped the guarded block.
fn reenter(enter: &dyn Fn(&mut Array1<f64>) -> rumba::Result<()>) {
    let ctx = rumba::current_context().unwrap();
    ctx.flush_deallocations().unwrap();
    let mut arr = Array1::<f64>::zeros(1);
    enter(&mut arr).unwrap();
    enter(&mut arr).unwrap();
    {
        let _defer = rumba::defer_cleanup().unwrap();
        enter(&mut arr).unwrap();
        enter(&mut arr).unwrap();
    }
    let escaped = (|| -> Result<(), PinnedException> {
        let _g = rumba::pinned([&mut arr]).map_err(|_| PinnedException)?;
        Err(PinnedException)
    })();
    assert!(escaped.is_err());
    enter(&mut arr).unwrap();
    ctx.flush_deallocations().unwrap();
}

fn pin_once(a: &mut Array1<f64>) -> rumba::Result<()> {
    let g = rumba::pinned([a])?;
    assert!(
        rumba::current_context()?
            .driver()
            .is_host_pinned(g.view(0)?.as_ptr().cast(), 8)
    );
    Ok(())
}

/// True when `r` is the OpenCL backend's refusal to map existing host memory: OpenCL can give a
/// device address to memory it did not allocate only with fine-grained system SVM (PoCL and most
/// GPUs lack it), so `mapped` guards are refused there, by design, with this error.
fn refused_on_opencl<T>(r: &rumba::Result<T>) -> bool {
    common::test_backend() == rumba::config::BackendChoice::OpenCl
        && matches!(r, Err(rumba::Error::Unsupported { feature, .. }) if feature == "mapping existing host memory")
}

fn map_once(a: &mut Array1<f64>) -> rumba::Result<()> {
    let r = rumba::mapped([a]);
    if refused_on_opencl(&r) {
        return Ok(());
    }
    let mut g = r?;
    g.device_mut(0)?.fill(1.0)?;
    assert_eq!(g.view(0)?[0], 1.0);
    Ok(())
}

#[test]
fn pinned_and_mapped_reenter_cleanly() {
    let _g = setup();
    reenter(&pin_once);
    reenter(&map_once);
}

/// The same sequences in a child process, whose stderr must stay empty (Numba's
/// `check_ignored_exception`).
#[test]
fn reentering_reports_nothing_on_stderr() {
    if std::env::var_os("RUMBA_HOST_GUARDS_CHILD").is_some() {
        return; // we are the child: the parent checks the other test's output
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "pinned_and_mapped_reenter_cleanly",
            "--test-threads=1",
        ])
        .env("RUMBA_HOST_GUARDS_CHILD", "1")
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1 passed"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

fn vm_lck_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmLck:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn pinning_raises_locked_memory_while_the_guard_lives() {
    let _g = setup();
    let Some(before) = vm_lck_kib() else {
        eprintln!("no /proc/self/status VmLck: skipping");
        return;
    };
    let mut v = vec![1u8; 1 << 20];
    let g = rumba::pinned([&mut v]).unwrap();
    let during = vm_lck_kib().unwrap();
    if common::test_backend() == rumba::config::BackendChoice::Cuda {
        // CUDA pins pages through its own driver, which VmLck does not count: ask the driver.
        let drv = rumba::current_context().unwrap().driver().clone();
        let p = g.view(0).unwrap().as_ptr();
        assert!(
            drv.is_host_pinned(p, 1 << 20),
            "pinned while the guard lives"
        );
        drop(g);
        assert!(!drv.is_host_pinned(p, 1 << 20), "unpinned at drop");
        return;
    }
    if g.page_locking().is_available() {
        assert!(during >= before + 1000, "VmLck {before} -> {during} kB");
    } else {
        eprintln!(
            "page locking refused ({:?}): VmLck unchanged",
            g.page_locking()
        );
        assert_eq!(during, before);
    }
    drop(g);
    assert_eq!(vm_lck_kib().unwrap(), before, "unlocked at drop");
}

#[test]
fn register_and_deregister_are_pinning() {
    let _g = setup();
    let drv = rumba::current_context().unwrap().driver().clone();
    let mut a = Array2::<i32>::zeros((4, 4));
    // `b` has a page to itself: pinning is by page, and a heap neighbour that another test
    // registers at the same time would keep a shared page pinned after `deregister`.
    #[repr(C, align(4096))]
    struct Page([i32; 1024]);
    let mut b = Box::new(Page([0; 1024]));
    let g = rumba::register([
        a.view_mut(),
        ndarray::ArrayViewMut2::from_shape((4, 4), &mut b.0[..16]).unwrap(),
    ])
    .unwrap();
    let p = g.view(1).unwrap().as_ptr();
    assert!(drv.is_host_pinned(p.cast(), 64));
    rumba::deregister(g).unwrap();
    assert!(!drv.is_host_pinned(p.cast(), 64));
    let _again = rumba::register([&mut a]).unwrap();
}

#[test]
fn interleaved_views_and_already_pinned_memory_are_handled() {
    let _g = setup();
    let mut a = Array1::<u16>::zeros(100);
    let (even, odd) = a.multi_slice_mut((s![..;2], s![1..;2]));
    let mut g = rumba::pinned([even, odd]).unwrap(); // overlapping spans: merged
    g.view_mut(1).unwrap().fill(1);
    drop(g);
    assert_eq!(a.sum(), 50);

    let mut p = rumba::pinned_array::<u16, _>(10, rumba::Order::C).unwrap();
    let g = rumba::pinned([p.view_mut()]).unwrap(); // already pinned: left alone
    drop(g);
    assert!(p.page_locking() == rumba::driver::PageLocking::Available || !p.is_page_locked());
    let drv = rumba::current_context().unwrap().driver().clone();
    assert!(
        drv.is_host_pinned(p.view().as_ptr().cast(), 20),
        "still pinned after the guard"
    );

    // Pinned without `mapped`: the device cannot address it, so `mapped` refuses it.
    if let Some(err) = refused_unless_unified(rumba::mapped([p.view_mut()])) {
        assert!(
            matches!(
                err,
                rumba::Error::HostMemory(rumba::error::HostMemoryError::NotMapped { .. })
            ),
            "{err}"
        );
        assert!(err.to_string().contains("without `mapped`"), "{err}");
    }
}

/// The refusal of mapping memory allocated pinned without `mapped` — except on CUDA, where
/// unified addressing makes all page-locked memory addressable by the device under its host
/// address, so mapping it succeeds (`None`).
fn refused_unless_unified<G: std::fmt::Debug>(r: rumba::Result<G>) -> Option<rumba::Error> {
    if common::test_backend() == rumba::config::BackendChoice::Cuda {
        r.expect("on CUDA (unified addressing) page-locked memory is mapped");
        return None;
    }
    Some(r.unwrap_err())
}

#[test]
fn mapped_guards_give_device_views_of_strided_arrays() {
    let _g = setup();
    let mut a = Array2::<i64>::zeros((4, 6));
    {
        let r = rumba::mapped([a.slice_mut(s![1..3, ..;-2])]);
        if refused_on_opencl(&r) {
            return;
        }
        let mut g = r.unwrap();
        let src = rumba::to_device(&ndarray::array![[1i64, 2, 3], [4, 5, 6]]).unwrap();
        rumba::copy(&mut g.device_mut(0).unwrap(), &src).unwrap();
        let back = rumba::device_array::<i64, _>((2, 3), rumba::Order::C).unwrap();
        rumba::copy(&back, g.device(0).unwrap()).unwrap();
        assert_eq!(
            back.copy_to_host().unwrap(),
            ndarray::array![[1, 2, 3], [4, 5, 6]]
        );
        assert!(g.device(1).is_err());
    }
    assert_eq!(a.row(1).to_vec(), [0, 3, 0, 2, 0, 1]);
    assert_eq!(a.row(2).to_vec(), [0, 6, 0, 5, 0, 4]);
    assert_eq!(a.row(0).sum() + a.row(3).sum(), 0);
}

/// A new vector at the address of one that a leaked `pinned` guard covered: the driver's table
/// still holds that guard's registration, stale, over the vector's bytes.
fn at_a_leaked_guards_address() -> Vec<u32> {
    let n = 1024; // a heap block the allocator hands out again (larger ones are mapped afresh)
    let mut old = vec![1u32; n];
    let at = old.as_ptr() as usize;
    std::mem::forget(rumba::pinned([&mut old]).unwrap());
    drop(old);
    // Allocations of the same size until one lands where the leaked guard's array was.
    let mut kept = Vec::new();
    loop {
        let v = vec![2u32; n];
        if v.as_ptr() as usize == at {
            return v;
        }
        assert!(kept.len() < 4096, "the allocator never reused the address");
        kept.push(v);
    }
}

#[test]
fn a_leaked_pinned_guard_does_not_stop_mapping_new_memory_at_its_address() {
    // Issue 24 item 14: a `pinned` guard leaked over memory freed since left its registration;
    // `mapped` of a new array at those addresses took it for memory "pinned without mapped".
    // The new array's owner holds the bytes exclusively, so the registration is stale: it is
    // replaced, and the mapping works.
    let _g = setup();
    let mut fresh = at_a_leaked_guards_address();
    let r = rumba::mapped([&mut fresh]);
    if refused_on_opencl(&r) {
        return;
    }
    let mut g = r.unwrap_or_else(|e| panic!("mapping new memory at a stale registration: {e}"));
    g.device_mut(0).unwrap().fill(7).unwrap();
    drop(g);
    assert!(fresh.iter().all(|&x| x == 7));
    // Memory allocated pinned (not mapped) still refuses, naming why.
    let mut p = rumba::pinned_array::<u32, _>(8, rumba::Order::C).unwrap();
    if let Some(err) = refused_unless_unified(rumba::mapped([p.view_mut()])) {
        assert!(err.to_string().contains("without `mapped`"), "{err}");
    }
}

#[test]
fn a_guard_over_a_leaked_guards_memory_replaces_its_registration() {
    // CI, once on PoCL: a guard took memory under a leaked guard's stale registration for
    // memory already pinned, registered nothing, and the memory still seemed pinned after
    // `deregister` (and after the guard, for as long as the process lived).
    let _g = setup();
    let drv = rumba::current_context().unwrap().driver().clone();
    let mut fresh = at_a_leaked_guards_address();
    let (p, bytes) = (fresh.as_ptr().cast::<u8>(), 4 * fresh.len());
    assert!(drv.is_host_pinned(p, bytes), "the stale registration");
    let g = rumba::register([&mut fresh]).unwrap();
    assert!(drv.is_host_pinned(p, bytes));
    rumba::deregister(g).unwrap();
    assert!(!drv.is_host_pinned(p, bytes), "unpinned with the guard");
}
