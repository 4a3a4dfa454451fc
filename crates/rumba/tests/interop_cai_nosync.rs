//! docs/design/behaviour.md §8: `RUMBA_CUDA_ARRAY_INTERFACE_SYNC=0` turns the import's stream
//! synchronization off.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ndarray::Ix1;

#[test]
fn with_sync_disabled_an_import_does_not_wait_for_the_producer() {
    common::binary_not_on(
        &[rumba::config::BackendChoice::OpenCl],
        &["with_sync_disabled_an_import_does_not_wait_for_the_producer"],
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it with a typed error",
    );
    common::start(|c| c.cuda_array_interface_sync = false);
    assert!(!rumba::runtime_config().unwrap().cuda_array_interface_sync);
    let s = rumba::stream().unwrap();
    let d = rumba::to_device_on(&[5u32, 6], &s).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&done);
    s.add_callback(move |_, _| {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::SeqCst);
    })
    .unwrap();
    let imp = rumba::as_cuda_array::<u32, Ix1, _>(d).unwrap();
    assert!(!done.load(Ordering::SeqCst), "the import did not wait");
    assert_eq!(imp.copy_to_host().unwrap().to_vec(), vec![5, 6]);
    assert!(
        done.load(Ordering::SeqCst),
        "later work is ordered after the producer's"
    );
}
