//! SPEC §8: IPC — a child process opens the parent's device array (ported from Numba's
//! `test_ipc.py`). The child is this test binary, run again with only `ipc_child` selected.

mod common;
#[path = "common/ipc_child.rs"]
mod ipc_child;

use ndarray::{Array1, Ix1, s};
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
            "a_childs_write_is_visible_to_the_parent",
            "exporting_twice_shares_the_same_memory",
            "opening_twice_and_closing_twice_are_errors_in_the_child",
            "opening_in_the_exporting_process_and_closing_unopened_are_errors",
            "a_freed_allocation_can_no_longer_be_opened",
            "size_zero_arrays_and_imports_cannot_be_exported",
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
    let n = 100_000usize;
    let s = rumba::stream().unwrap();
    let d = rumba::to_device_on(&Array1::from_elem(n, 1.0f64), &s).unwrap();
    d.slice(s![..;2]).unwrap().assign_on(3.0, &s).unwrap(); // still queued at export time
    let handle = d.get_ipc_handle().unwrap();
    assert_eq!(
        run_child("sum", &handle),
        format!("{n} values, sum {}", 2.0 * n as f64)
    );
    d.slice(s![..10]).unwrap().assign(0.0).unwrap(); // written after the export: still shared
    let expect = 2.0 * n as f64 - (3.0 * 5.0 + 5.0);
    assert_eq!(
        run_child("sum", &handle),
        format!("{n} values, sum {expect}")
    );
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
    assert!(parts[0].contains("already open"), "{report}");
    assert!(
        parts[1].contains("already open in this process"),
        "{report}"
    );
    assert!(parts[2].contains("not open"), "{report}");
}

#[test]
fn opening_in_the_exporting_process_and_closing_unopened_are_errors() {
    setup();
    let d = rumba::to_device(&host()).unwrap();
    let handle = d.get_ipc_handle().unwrap();
    let err = handle.open::<f64, Ix1>().unwrap_err().to_string();
    assert!(err.contains("process that exported it"), "{err}");
    // Also when a copy of the handle is forged to look foreign: the driver checks the process.
    let forged: IpcArrayHandle = handle
        .to_string()
        .replace(&format!("pid={}", std::process::id()), "pid=1")
        .parse()
        .unwrap();
    let err = forged.open::<f64, Ix1>().unwrap_err().to_string();
    assert!(err.contains("process that exported it"), "{err}");
    let err = handle.close().unwrap_err().to_string();
    assert!(err.contains("not open"), "{err}");
}

#[test]
fn a_freed_allocation_can_no_longer_be_opened() {
    setup();
    let _serial = common::serial();
    let d = rumba::to_device(&host()).unwrap();
    let handle = d.get_ipc_handle().unwrap();
    drop(d);
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
fn size_zero_arrays_and_imports_cannot_be_exported() {
    setup();
    let empty = rumba::device_array::<f64, _>(0, rumba::array::Order::C).unwrap();
    assert!(empty.get_ipc_handle().is_err());
    let d = rumba::to_device(&host()).unwrap();
    let imp = rumba::as_cuda_array::<f64, Ix1, _>(d).unwrap();
    let err = imp.get_ipc_handle().unwrap_err();
    assert!(matches!(err, rumba::Error::Unsupported(_)), "{err}");
}
