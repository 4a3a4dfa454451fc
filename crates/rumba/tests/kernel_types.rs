//! `bool` elements in kernel arguments, shared arrays and local arrays (Numba's `test_sm.py`
//! shared bool case), on the backend `RUMBA_TEST_BACKEND` names: a `bool` is one byte, read as
//! `byte != 0` and stored as 0 or 1, so the host never sees another byte in a `bool`.

#[path = "common/mod.rs"]
mod common;
#[path = "ported_kernels/types.rs"]
mod types;

use ndarray::Array1;
use rumba::In;

use types as k;

fn start() {
    common::start(|_| {});
}

#[test]
fn shared_bool() {
    // Numba's test_shared_bool: a shared bool array written by every thread, read reversed.
    start();
    let mut arr = Array1::from(vec![false; 32]);
    k::shared_bool()
        .configure(1, 32)
        .launch((&mut arr,))
        .unwrap();
    let want: Vec<bool> = (0..32).map(|i| (31 - i) % 2 == 0).collect();
    assert_eq!(arr.to_vec(), want);
}

#[test]
fn local_bool() {
    start();
    let inp = Array1::from_iter((0..16).map(|i| i % 3 == 0));
    let mut out = Array1::from(vec![false; 16]);
    k::not_bool()
        .configure(1, 16)
        .launch((In(&inp), &mut out))
        .unwrap();
    assert_eq!(out.to_vec(), inp.iter().map(|b| !b).collect::<Vec<_>>());
}

#[test]
fn any_nonzero_byte_reads_as_true_and_stores_as_one() {
    start();
    // Bytes other than 0 and 1 in device memory (written through a `u8` view), read by a kernel
    // as `bool`: the kernel sees `true`, stores 1, and the host sees valid `bool`s.
    let bytes = [0u8, 1, 2, 255, 0, 128, 7, 0];
    let raw = rumba::to_device(&bytes).unwrap();
    let inp = raw.view::<bool>().unwrap();
    let out = rumba::device_array::<bool, _>(8, rumba::Order::C).unwrap();
    let count = rumba::to_device(&[0u32]).unwrap();
    k::bool_copy_count()
        .configure(1, 8)
        .launch((&inp, &out, &count))
        .unwrap();
    let want: Vec<bool> = bytes.iter().map(|&b| b != 0).collect();
    assert_eq!(count.copy_to_host().unwrap()[0], 5);
    assert_eq!(out.copy_to_host().unwrap().to_vec(), want);
    let stored = out.view::<u8>().unwrap().copy_to_host().unwrap().to_vec();
    assert_eq!(
        stored,
        want.iter().map(|&b| u8::from(b)).collect::<Vec<_>>()
    );
    // The input's own copy to the host normalises too.
    assert_eq!(inp.copy_to_host().unwrap().to_vec(), want);
}
