//! Records in kernels — field assignment, record literals, records as locals and device-function
//! arguments, sub-array and byte-string fields — on the backend `RUMBA_TEST_BACKEND` names (both
//! of the simulator's engines there), after Numba's `test_record_dtype.py`; and the host side:
//! `DeviceArray::field_array`, `DeviceRecord::get_bytes` / `set_bytes`.

mod common;
mod engines;
mod macro_corpus;

use engines::{each_engine, faults_reported, same_fault};
use macro_corpus::records::{self as k, Rec, WithArray, WithChars};
use ndarray::{Array1, arr1};
use rumba::In;
use rumba::driver::HostEngine;

fn start() {
    common::start(|_| {});
}

fn recs() -> Array1<Rec> {
    Array1::from_iter((0..4).map(|i| Rec {
        a: i as f64,
        b: 10 * i,
        c: 100 + i as u32,
    }))
}

#[test]
fn numba_set_a_set_b_set_record() {
    start();
    each_engine(k::set_a(), |kern| {
        let mut a = recs();
        kern.configure(1, 1).launch((&mut a, 2usize, 9.5)).unwrap();
        let mut want = recs();
        want[2].a = 9.5;
        assert_eq!(a, want);
    });
    each_engine(k::set_b(), |kern| {
        let mut a = recs();
        kern.configure(1, 1)
            .launch((&mut a, 1usize, -4i32))
            .unwrap();
        let mut want = recs();
        want[1].b = -4;
        assert_eq!(a, want);
    });
    each_engine(k::set_record(), |kern| {
        let mut a = recs();
        kern.configure(1, 1)
            .launch((&mut a, 0usize, 3usize))
            .unwrap();
        let mut want = recs();
        want[0] = want[3];
        assert_eq!(a, want);
    });
}

#[test]
fn threads_writing_different_fields_of_one_record_keep_each_others() {
    start();
    each_engine(k::fields_per_thread(), |kern| {
        let mut a = recs();
        kern.configure(1, 12).launch((&mut a,)).unwrap();
        let want: Vec<Rec> = (0..4)
            .map(|i| Rec {
                a: 0.1,
                b: -3,
                c: 100 + 2 * i as u32,
            })
            .collect();
        assert_eq!(a.to_vec(), want);
    });
}

#[test]
fn record_literals_locals_and_device_function_records() {
    start();
    each_engine(k::records_as_values(), |kern| {
        let mut out = Array1::from_elem(3, Rec { a: 0.0, b: 0, c: 0 });
        let mut got = Array1::<f64>::zeros(1);
        kern.configure(1, 1)
            .launch((&mut out, 0.25, &mut got))
            .unwrap();
        assert_eq!(
            out.to_vec(),
            [
                Rec {
                    a: 0.25,
                    b: 7,
                    c: 9
                },
                Rec {
                    a: 0.25,
                    b: 107,
                    c: 9
                },
                Rec {
                    a: -2.5,
                    b: -1,
                    c: 2
                },
            ]
        );
        assert_eq!(got[0], 0.25);
    });
}

#[test]
fn numba_record_write_and_read_array() {
    start();
    each_engine(k::record_write_array(), |kern| {
        let mut a = arr1(&[WithArray {
            h: [0.0; 2],
            g: 0,
            pad: 77,
        }]);
        kern.configure(1, 1).launch((&mut a,)).unwrap();
        assert_eq!(
            a[0],
            WithArray {
                h: [3.0, 4.0],
                g: 2,
                pad: 77
            }
        );
    });
    let a = arr1(&[WithArray {
        h: [1.5, -2.0],
        g: 0,
        pad: 0,
    }]);
    each_engine(k::record_read_array(), |kern| {
        let mut out = Array1::<f32>::zeros(3);
        kern.configure(1, 1).launch((In(&a), &mut out)).unwrap();
        assert_eq!(out, arr1(&[1.5, -2.0, 15.0]));
    });
}

#[test]
fn a_sub_array_index_out_of_range_faults() {
    start();
    if !faults_reported("a_sub_array_index_out_of_range_faults") {
        return;
    }
    let s = rumba::stream().unwrap();
    let a = rumba::to_device(&arr1(&[WithArray {
        h: [0.0; 2],
        g: 0,
        pad: 0,
    }]))
    .unwrap();
    let (block, thread, msg) = same_fault(k::sub_index_oob(), |kern| {
        kern.configure(1, 1)
            .stream(&s)
            .launch((&a, 2usize))
            .unwrap();
        s.synchronize()
    });
    assert_eq!((block, thread), ([0, 0, 0], [0, 0, 0]));
    assert!(msg.contains("out of bounds"), "{msg}");
    // Nothing was written.
    assert_eq!(a.copy_to_host().unwrap()[0].h, [0.0; 2]);
}

#[test]
fn numba_set_and_get_charseq() {
    start();
    each_engine(k::set_charseq(), |kern| {
        let mut a = Array1::from_elem(2, WithChars { m: 0, n: *b"????" });
        kern.configure(1, 1).launch((&mut a, 0usize)).unwrap();
        assert_eq!(a[0], WithChars { m: 5, n: *b"abc\0" });
        assert_eq!(a[1], WithChars { m: 0, n: *b"Vxyz" });
    });
    let a = arr1(&[WithChars { m: 1, n: *b"hi!\0" }]);
    each_engine(k::get_charseq(), |kern| {
        let mut out = Array1::<u8>::zeros(4);
        kern.configure(1, 4).launch((In(&a), &mut out)).unwrap();
        assert_eq!(out.to_vec(), b"hi!\0");
    });
}

#[test]
fn records_in_shared_memory() {
    start();
    each_engine(k::shared_records(), |kern| {
        let mut out = Array1::from_elem(8, Rec { a: 9.0, b: 9, c: 9 });
        kern.configure(1, 8).launch((&mut out,)).unwrap();
        let want: Vec<Rec> = (0..8)
            .map(|t| Rec {
                a: 0.5,
                b: 7 - t,
                c: 0,
            })
            .collect();
        assert_eq!(out.to_vec(), want);
    });
    assert_eq!(k::shared_records().engine(), HostEngine::WorkItemLoops);
}

#[test]
fn host_side_sub_array_and_byte_string_fields() {
    start();
    let d = rumba::to_device(&arr1(&[
        WithArray {
            h: [1.0, 2.0],
            g: 3,
            pad: 0,
        },
        WithArray {
            h: [4.0, 5.0],
            g: 6,
            pad: 0,
        },
    ]))
    .unwrap();
    let h = d.field_array(rumba::field!(WithArray, h)).unwrap();
    assert_eq!(h.shape(), &[2, 2]);
    assert_eq!(
        h.copy_to_host().unwrap().into_raw_vec_and_offset().0,
        [1.0, 2.0, 4.0, 5.0]
    );
    let r = d.record(&[1]).unwrap();
    assert_eq!(
        r.get_field_array(rumba::field!(WithArray, h)).unwrap(),
        [4.0, 5.0]
    );
    r.set_field_array(rumba::field!(WithArray, h), [7.0, 8.0])
        .unwrap();
    assert_eq!(d.get(&[1]).unwrap().h, [7.0, 8.0]);
    let c = rumba::array::DeviceRecord::new(WithChars { m: 1, n: *b"abcd" }).unwrap();
    assert_eq!(c.get_bytes(rumba::field!(WithChars, n)).unwrap(), b"abcd");
    c.set_bytes(rumba::field!(WithChars, n), b"xy").unwrap();
    assert_eq!(
        c.get().unwrap(),
        WithChars {
            m: 1,
            n: *b"xy\0\0"
        }
    );
    let e = c
        .set_bytes(rumba::field!(WithChars, n), b"12345")
        .unwrap_err();
    assert!(
        matches!(e, rumba::Error::InvalidArgument(ref m) if m.contains("5 bytes")),
        "{e}"
    );
    assert_eq!(
        c.get().unwrap().n,
        *b"xy\0\0",
        "a refused write has no effect"
    );
}
