//! docs/design/behaviour.md §8: IPC from the pool memory manager, which exports the segment that
//! holds a block and the block's offset inside it.

mod common;
#[path = "common/ipc_child.rs"]
mod ipc_child;

use ndarray::{Array1, s};

use ipc_child::run_child;

fn setup() {
    // OpenCL cannot share device memory between processes: every IPC call is refused there
    // with a typed error (tests/opencl.rs asserts it), so these tests do not apply.
    common::binary_not_on(
        &[rumba::config::BackendChoice::OpenCl],
        &["ipc_child", "a_child_reads_a_pool_block_and_writes_back"],
        "OpenCL has no inter-process sharing of device memory",
    );
    common::start(|c| c.memory_manager = rumba::config::ManagerChoice::Pool);
}

/// Run by the parent's `run_child` in the child process; a no-op otherwise.
#[test]
fn ipc_child() {
    setup();
    ipc_child::child_main();
}

#[test]
fn a_child_reads_a_pool_block_and_writes_back() {
    setup();
    assert_eq!(
        rumba::current_context().unwrap().memory_manager().name(),
        "pool"
    );
    let _other = rumba::device_array::<u8, _>(5000, rumba::Order::C).unwrap();
    let h = Array1::from_iter((0..10).map(f64::from));
    let d = rumba::to_device(&h).unwrap();
    let handle = d.slice(s![3..8]).unwrap().get_ipc_handle().unwrap();
    assert!(
        handle.ipc().offset >= 5000 + 24,
        "offset in the segment: {}",
        handle.ipc().offset
    );
    assert_eq!(run_child("read", &handle), "3,4,5,6,7");
    assert_eq!(run_child("write", &handle), "written");
    let mut expect = h.clone();
    expect.slice_mut(s![3..8]).fill(-7.0);
    assert_eq!(d.copy_to_host().unwrap(), expect);
}
