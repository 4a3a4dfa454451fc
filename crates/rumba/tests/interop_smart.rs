//! docs/design/behaviour.md §9: SmartArray moves data lazily; chained device work does not bounce
//! it.

mod common;

use ndarray::{Array1, s};
use rumba::interop::{Side, SmartArray, Transfers};

fn setup() {
    common::start(|_| {});
}

#[test]
fn two_chained_kernels_cost_one_transfer_each_way() {
    setup();
    let mut a = SmartArray::from_host(Array1::from_iter(0..1000i32));
    // "Kernel" 1: on the device.
    a.get(Side::Device).unwrap();
    a.device()
        .unwrap()
        .slice(s![..;2])
        .unwrap()
        .fill(-1)
        .unwrap();
    a.mark_changed(Side::Device);
    // "Kernel" 2: on the device again; no copy in between.
    a.device()
        .unwrap()
        .slice(s![..10])
        .unwrap()
        .assign(7)
        .unwrap();
    a.mark_changed(Side::Device);
    assert_eq!(
        a.transfers(),
        Transfers {
            host_to_device: 1,
            device_to_host: 0
        }
    );
    let mut expect = Array1::from_iter(0..1000i32);
    expect.slice_mut(s![..;2]).fill(-1);
    expect.slice_mut(s![..10]).fill(7);
    assert_eq!(a.host().unwrap(), &expect);
    assert_eq!(a.host().unwrap(), &expect);
    assert_eq!(
        a.transfers(),
        Transfers {
            host_to_device: 1,
            device_to_host: 1
        }
    );
}

#[test]
fn host_writes_make_the_device_stale_and_vice_versa() {
    setup();
    let mut a = SmartArray::from_host(Array1::from_elem(4, 1.0f64));
    a.get(Side::Device).unwrap();
    assert!(a.is_current(Side::Host) && a.is_current(Side::Device));
    a.host_mut().unwrap()[0] = 5.0;
    assert!(!a.is_current(Side::Device));
    assert_eq!(a.device().unwrap().copy_to_host().unwrap()[0], 5.0);
    assert_eq!(a.transfers().host_to_device, 2);
    // Starting on the device: the host copy is made on first use only.
    let mut b = SmartArray::from_device(rumba::to_device(&[1u8, 2]).unwrap());
    assert_eq!(b.transfers(), Transfers::default());
    assert_eq!(b.host().unwrap().to_vec(), vec![1, 2]);
    assert_eq!(b.transfers().device_to_host, 1);
}
