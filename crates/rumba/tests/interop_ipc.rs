//! docs/design/behaviour.md §8: IPC — a child process opens the parent's device array (ported from
//! Numba's `test_ipc.py`). The child is this test binary, run again with only `ipc_child` selected.

mod common;
#[path = "common/ipc_child.rs"]
mod ipc_child;

use ndarray::{Array1, Ix1, s};
use rumba::error::IpcError;
use rumba::interop::IpcArrayHandle;

use ipc_child::run_child;

fn setup() {
    // OpenCL cannot share device memory between processes: every IPC call is refused there
    // with a typed error (tests/opencl.rs asserts it), so these tests do not apply.
    common::binary_not_on(
        &[rumba::config::BackendChoice::OpenCl],
        &[
            "ipc_child",
            "a_child_reads_the_whole_array",
            "a_child_reads_slices_with_their_offsets",
            "a_large_array_written_by_queued_work_is_shared_in_place",
            "memory_allocated_for_a_stream_is_shared_or_refused_saying_why",
            "a_childs_write_is_visible_to_the_parent",
            "exporting_twice_shares_the_same_memory",
            "opening_twice_and_closing_twice_are_errors_in_the_child",
            "opening_in_the_exporting_process_and_closing_unopened_are_errors",
            "a_freed_allocation_can_no_longer_be_opened",
            "size_zero_arrays_cannot_be_exported",
            "arrays_imported_through_the_interface_are_exported_with_their_offsets",
            "dlpack_imports_are_exported_too",
            "memory_that_cannot_be_exported_is_unsupported_and_says_why",
            "a_write_racing_the_first_export_is_never_lost",
        ],
        "OpenCL has no inter-process sharing of device memory",
    );
    common::start(|_| {});
}

fn host() -> Array1<f64> {
    Array1::from_iter((0..10).map(f64::from))
}

fn join(a: ndarray::ArrayView1<'_, f64>) -> String {
    a.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Run by the parent's `run_child` in the child process; a no-op otherwise.
#[test]
fn ipc_child() {
    setup();
    ipc_child::child_main();
}

#[test]
fn a_child_reads_the_whole_array() {
    setup();
    let h = host();
    let d = rumba::to_device(&h).unwrap();
    let handle = d.get_ipc_handle().unwrap();
    assert_eq!(run_child("read", &handle), join(h.view()));
}

#[test]
fn a_child_reads_slices_with_their_offsets() {
    setup();
    let h = host();
    let d = rumba::to_device(&h).unwrap();
    for (view, expect) in [
        (d.slice(s![3..]).unwrap(), h.slice(s![3..])),
        (d.slice(s![3..8]).unwrap(), h.slice(s![3..8])),
        (d.slice(s![..8]).unwrap(), h.slice(s![..8])),
        (d.slice(s![1..;3]).unwrap(), h.slice(s![1..;3])),
    ] {
        let handle = view.get_ipc_handle().unwrap();
        assert_eq!(handle.ipc().offset, view.layout().offset());
        assert_eq!(run_child("read", &handle), join(expect));
    }
}

#[test]
fn a_large_array_written_by_queued_work_is_shared_in_place() {
    setup();
    // Large enough for mapped (not heap) storage on the sim: shared over the same host range.
    // Allocated without a stream (memory of a stream may come from CUDA's stream-ordered pool,
    // which IPC cannot share: see the next test), written by work queued on a stream.
    let n = 100_000usize;
    let s = rumba::stream().unwrap();
    let d = rumba::to_device(&Array1::from_elem(n, 1.0f64)).unwrap();
    d.slice(s![..;2]).unwrap().assign_on(3.0, &s).unwrap(); // still queued at export time
    let handle = d.get_ipc_handle().unwrap();
    s.synchronize().unwrap(); // the child reads after the write
    assert_eq!(
        run_child("sum", &handle),
        format!("{n} values, sum {}", 2.0 * n as f64)
    );
    // Written after the export: still shared.
    d.slice(s![..10]).unwrap().assign_on(0.0, &s).unwrap();
    s.synchronize().unwrap();
    let expect = 2.0 * n as f64 - (3.0 * 5.0 + 5.0);
    assert_eq!(
        run_child("sum", &handle),
        format!("{n} values, sum {expect}")
    );
}

/// Memory allocated for a stream that comes from CUDA's stream-ordered pool, which a CUDA IPC
/// handle cannot name, is refused with a typed error saying what to do instead; memory that can
/// be shared (the sim's, or CUDA memory the manager took from `cuMemAlloc`) is shared.
#[test]
fn memory_allocated_for_a_stream_is_shared_or_refused_saying_why() {
    setup();
    let s = rumba::stream().unwrap();
    let h = host();
    let d = rumba::to_device_on(&h, &s).unwrap();
    s.synchronize().unwrap();
    match d.get_ipc_handle() {
        // Shared: a backend without such a pool, or (on CUDA, as seen on an H100) memory the
        // memory manager served from its `cuMemAlloc` segments; either way the child reads it.
        Ok(handle) => {
            assert_eq!(run_child("read", &handle), join(h.view()));
        }
        Err(e) => {
            assert_eq!(
                common::test_backend(),
                rumba::config::BackendChoice::Cuda,
                "{e}"
            );
            assert!(
                matches!(&e, rumba::Error::Unsupported { backend, .. } if backend == "cuda"),
                "{e}"
            );
        }
    }
}

#[test]
fn a_childs_write_is_visible_to_the_parent() {
    setup();
    let d = rumba::to_device(&host()).unwrap();
    let handle = d.slice(s![2..5]).unwrap().get_ipc_handle().unwrap();
    assert_eq!(run_child("write", &handle), "written");
    let mut expect = host();
    expect.slice_mut(s![2..5]).fill(-7.0);
    assert_eq!(d.copy_to_host().unwrap(), expect);
}

#[test]
fn exporting_twice_shares_the_same_memory() {
    setup();
    let d = rumba::to_device(&host()).unwrap();
    let first = d.get_ipc_handle().unwrap();
    d.set(&[0], 42.0).unwrap(); // written after the first export: still shared
    let second = d.get_ipc_handle().unwrap();
    assert_eq!(first.ipc().handle, second.ipc().handle);
    assert!(run_child("read", &first).starts_with("42,1,2"));
}

#[test]
fn opening_twice_and_closing_twice_are_errors_in_the_child() {
    setup();
    let d = rumba::to_device(&host()).unwrap();
    let report = run_child("open-twice", &d.get_ipc_handle().unwrap());
    let parts: Vec<&str> = report.split(" | ").collect();
    assert_eq!(parts[0], "Ipc(AlreadyOpen)", "{report}");
    assert!(parts[1].starts_with("Ipc(MemoryAlreadyOpen {"), "{report}");
    assert_eq!(parts[2], "Ipc(NotOpen)", "{report}");
}

#[test]
fn opening_in_the_exporting_process_and_closing_unopened_are_errors() {
    setup();
    let d = rumba::to_device(&host()).unwrap();
    let handle = d.get_ipc_handle().unwrap();
    let err = handle.open::<f64, Ix1>().unwrap_err();
    assert!(
        matches!(err, rumba::Error::Ipc(IpcError::SameProcess)),
        "{err}"
    );
    // Also when a copy of the handle is forged to look foreign: the driver checks the process.
    let forged: IpcArrayHandle = handle
        .to_string()
        .replace(&format!("pid={}", std::process::id()), "pid=1")
        .parse()
        .unwrap();
    let err = forged.open::<f64, Ix1>().unwrap_err();
    assert!(
        matches!(err, rumba::Error::Ipc(IpcError::SameProcess)),
        "{err}"
    );
    let err = handle.close().unwrap_err();
    assert!(matches!(err, rumba::Error::Ipc(IpcError::NotOpen)), "{err}");
}

#[test]
fn a_freed_allocation_can_no_longer_be_opened() {
    setup();
    let _serial = common::serial();
    // 8 MiB, an allocation of its own: the fourth and fifth H100 runs opened the handle of a
    // freed 80-byte array, most likely because CUDA serves small `cuMemAlloc`s from larger
    // chunks that other live allocations keep.
    let d = rumba::to_device(&vec![1.0f64; 1 << 20]).unwrap();
    let handle = d.get_ipc_handle().unwrap();
    drop(d);
    rumba::synchronize().unwrap();
    rumba::current_context()
        .unwrap()
        .flush_deallocations()
        .unwrap();
    let report = run_child("open", &handle);
    assert!(
        report.starts_with("error:") && report.contains("no longer shared"),
        "{report}"
    );
}

#[test]
fn size_zero_arrays_cannot_be_exported() {
    setup();
    let empty = rumba::device_array::<f64, _>(0, rumba::Order::C).unwrap();
    assert!(empty.get_ipc_handle().is_err());
}

/// An object that exposes nothing but the interface (Numba's `ForeignArray`).
struct Foreign(rumba::DeviceArray<f64, Ix1>);

impl rumba::interop::CudaArray for Foreign {
    fn describe(&self) -> rumba::Result<rumba::CudaArrayInterface> {
        Ok(self.0.cuda_array_interface())
    }
}

// SAFETY: the description is that of the device array the wrapper owns and keeps alive.
unsafe impl rumba::interop::DeviceMemoryOwner for Foreign {}

/// Numba's `test_ipc_array` / `test_ipc_handle_serialization` with `foreign=True`: arrays imported
/// through the CUDA Array Interface — whole, and views `[3:]`, `[3:8]`, `[:8]` — are exported
/// through the allocation that contains them, offset kept.
#[test]
fn arrays_imported_through_the_interface_are_exported_with_their_offsets() {
    setup();
    let h = host();
    let d = rumba::to_device(&h).unwrap();
    let cases = [
        (d.clone(), h.view()),
        (d.slice(s![3..]).unwrap(), h.slice(s![3..])),
        (d.slice(s![3..8]).unwrap(), h.slice(s![3..8])),
        (d.slice(s![..8]).unwrap(), h.slice(s![..8])),
        (d.slice(s![1..;3]).unwrap(), h.slice(s![1..;3])),
    ];
    for (view, expect) in cases {
        let foreign = rumba::as_cuda_array::<f64, Ix1, _>(Foreign(view.clone())).unwrap();
        assert!(foreign.buffer().is_foreign());
        let handle = foreign.get_ipc_handle().unwrap();
        let owned = view.get_ipc_handle().unwrap();
        // The same allocation and range as exporting the original view.
        assert_eq!(handle.ipc(), owned.ipc());
        assert_eq!(handle.ipc().offset, view.layout().offset());
        assert_eq!(run_child("read", &handle), join(expect));
        // Serialised and parsed, as Numba pickles it.
        let text = handle.to_string();
        let back: IpcArrayHandle = text.parse().unwrap();
        assert_eq!(run_child("read", &back), join(expect));
    }
}

#[test]
fn dlpack_imports_are_exported_too() {
    setup();
    let h = host();
    let d = rumba::to_device(&h).unwrap();
    let tensor = d.slice(s![2..]).unwrap().to_dlpack(None).unwrap();
    let imported = rumba::from_dlpack::<f64, Ix1>(tensor).unwrap();
    let handle = imported.get_ipc_handle().unwrap();
    assert_eq!(handle.ipc().offset, 16);
    assert_eq!(run_child("read", &handle), join(h.slice(s![2..])));
}

#[test]
fn memory_that_cannot_be_exported_is_unsupported_and_says_why() {
    setup();
    // Mapped host memory described through the interface and imported (unsafely) as a device
    // array: it is host memory, not a device allocation.
    let mut m =
        rumba::mapped_array::<f64, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    m.view_mut().fill(1.0);
    let desc = rumba::interop::CudaArray::describe(&m).unwrap();
    // SAFETY: only the export below looks at the import; `m` outlives it and is not written.
    let imp =
        unsafe { rumba::from_cuda_array_interface::<f64, Ix1, _>(&desc, (), Default::default()) }
            .unwrap();
    let err = imp.get_ipc_handle().unwrap_err();
    assert!(
        matches!(&err, rumba::Error::Ipc(rumba::error::IpcError::ForeignMemory(inner))
            if matches!(**inner, rumba::Error::InvalidAddress { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("not a device allocation"), "{err}");
    drop(imp);
    drop(m);
    // Memory a child opened from our handle cannot be exported again by the child.
    let d = rumba::to_device(&host()).unwrap();
    let report = run_child("reexport", &d.get_ipc_handle().unwrap());
    assert!(report.contains("cannot be exported again"), "{report}");
}

#[test]
fn a_write_racing_the_first_export_is_never_lost() {
    // Issue 14 item 4: the first export moves the allocation into shared storage; a write that
    // returned `Ok` on another thread at the same moment must be in it afterwards.
    setup();
    for (n, trials) in [(512usize, 200u64), (1 << 20, 20)] {
        // 4 KiB (heap storage, replaced) and 8 MiB (mapped storage, remapped in place: copies
        // long enough to overlap the export's).
        for trial in 0..trials {
            let d = rumba::device_array::<u64, _>(n, rumba::Order::C).unwrap();
            let want = Array1::from_elem(n, trial + 1);
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let exporter = std::thread::spawn({
                let (d, barrier) = (d.clone(), barrier.clone());
                move || {
                    barrier.wait();
                    d.get_ipc_handle().unwrap()
                }
            });
            barrier.wait();
            rumba::copy(&d, &want).unwrap();
            let _handle = exporter.join().unwrap();
            let got = d.copy_to_host().unwrap();
            let lost = got.iter().filter(|&&x| x != trial + 1).count();
            assert_eq!(lost, 0, "{n} elements, trial {trial}: {lost} lost");
        }
    }
}
