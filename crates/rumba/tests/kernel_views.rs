//! In-kernel array views (`reshape`, `view::<U>()`, `row` / `index_axis`, views over shared and
//! local arrays) on the backend `RUMBA_TEST_BACKEND` names, after Numba's array reshape and
//! reinterpret cases. Kernels with views run on the simulator's coroutine engine (the loop form
//! does not express them in this version: `views_run_on_coroutines` checks it says so).

mod common;
mod macro_corpus;

use macro_corpus::views as k;
use ndarray::{Array1, Array2, Array3, arr1, arr2};
use rumba::In;
use rumba::config::BackendChoice;
use rumba::driver::HostEngine;

fn start() {
    common::start(|_| {});
}

/// The CUDA backend passes a NULL fault record for now: fault tests skip there.
fn faults_reported() -> bool {
    !common::not_on(
        &[BackendChoice::Cuda],
        "view faults",
        "the CUDA backend does not record kernel faults yet",
    )
}

#[test]
fn views_run_on_coroutines() {
    assert_eq!(k::reshape_runtime().engine(), HostEngine::Coroutines);
    assert_eq!(k::shared_tile().engine(), HostEngine::Coroutines);
}

#[test]
fn reshape_with_a_run_time_shape() {
    start();
    let a = Array1::from_iter((0..24).map(|v| v as f32));
    let mut out = Array2::<f32>::zeros((3, 8));
    k::reshape_runtime()
        .configure((1, 1), (8, 4))
        .launch((In(&a), &mut out))
        .unwrap();
    let want = Array2::from_shape_fn((3, 8), |(r, c)| (r * 8 + c) as f32 * 2.0);
    assert_eq!(out, want);
}

#[test]
fn reshape_writes_reach_the_base() {
    start();
    let mut a = Array1::<i32>::zeros(32);
    k::reshape_write()
        .configure(1, 64)
        .launch((&mut a,))
        .unwrap();
    assert_eq!(a, Array1::from_iter((0..32).map(|i| i * 10)));
}

#[test]
fn reshape_of_a_reshape() {
    start();
    let a = Array2::from_shape_fn((3, 4), |(r, c)| (r * 4 + c) as u16);
    let mut flat = Array1::<u16>::zeros(12);
    let mut sizes = Array1::<usize>::zeros(3);
    k::reshape_chain()
        .configure(1, 16)
        .launch((In(&a), &mut flat, &mut sizes))
        .unwrap();
    assert_eq!(flat, Array1::from_iter(0..12u16));
    // (2, 3, 2): element (1, 2, 0) is 1 * 6 + 2 * 2 = 10.
    assert_eq!(sizes, arr1(&[2, 12, 10]));
}

#[test]
fn view_reinterprets_bits() {
    start();
    let x = arr1(&[1.0f32, -2.5, f32::INFINITY, f32::NAN, -0.0]);
    let mut bits = Array1::<u32>::zeros(5);
    k::view_bits()
        .configure(1, 8)
        .launch((In(&x), &mut bits))
        .unwrap();
    assert_eq!(bits, x.mapv(f32::to_bits));
}

#[test]
fn view_as_smaller_items_scales_the_last_axis() {
    start();
    let mut x = arr1(&[0u32, 0x1111_1111, u32::MAX]);
    let mut lens = Array1::<usize>::zeros(1);
    k::view_bytes()
        .configure(1, 4)
        .launch((&mut x, &mut lens))
        .unwrap();
    assert_eq!(lens[0], 12);
    let set = |v: u32| {
        let mut b = v.to_ne_bytes();
        b[1] = 0xab;
        u32::from_ne_bytes(b)
    };
    assert_eq!(x, arr1(&[set(0), set(0x1111_1111), set(u32::MAX)]));
}

#[test]
fn view_as_larger_items_halves_the_last_axis() {
    start();
    let x = Array1::from_iter(1..=8u8);
    let mut out = Array1::<u16>::zeros(4);
    k::view_wider()
        .configure(1, 4)
        .launch((In(&x), &mut out))
        .unwrap();
    let want: Vec<u16> = (0..4)
        .map(|i| u16::from_ne_bytes([2 * i as u8 + 1, 2 * i as u8 + 2]))
        .collect();
    assert_eq!(out.to_vec(), want);
}

#[test]
fn bool_view_of_any_byte_is_a_valid_bool() {
    start();
    let raw = arr1(&[0u8, 1, 7, 0xff, 0]);
    let mut out = Array1::<u32>::from_elem(5, 9);
    k::view_bool()
        .configure(1, 8)
        .launch((In(&raw), &mut out))
        .unwrap();
    assert_eq!(out, arr1(&[0, 1, 1, 1, 0]));
}

#[test]
fn rows_and_columns() {
    start();
    let m = Array2::from_shape_fn((3, 5), |(r, c)| (r * 10 + c) as f64);
    let mut out = Array1::<f64>::zeros(3);
    k::row_sums()
        .configure(1, 4)
        .launch((In(&m), &mut out))
        .unwrap();
    assert_eq!(out, arr1(&[10.0, 60.0, 110.0]));

    let mi = Array2::from_shape_fn((4, 3), |(r, c)| (r * 3 + c) as i32);
    let mut col = Array1::<i32>::zeros(4);
    let mut cube = Array3::<i32>::zeros((2, 2, 3));
    k::columns()
        .configure(1, 4)
        .launch((In(&mi), 2usize, &mut col, &mut cube))
        .unwrap();
    assert_eq!(col, arr1(&[2, 5, 8, 11]));
    let mut want = Array3::<i32>::zeros((2, 2, 3));
    for i in 0..3 {
        want[(1, 0, i)] = i as i32 + 100;
    }
    assert_eq!(cube, want);
}

#[test]
fn views_over_shared_and_local_memory() {
    start();
    let mut out = Array1::<f32>::zeros(64);
    let mut counts = Array1::<u32>::zeros(4);
    k::shared_tile()
        .configure(1, 64)
        .launch((&mut out, &mut counts))
        .unwrap();
    let want = Array1::from_iter((0..64).map(|t| ((t % 8) * 8 + t / 8) as f32));
    assert_eq!(out, want);
    assert_eq!(counts, arr1(&[16, 16, 16, 16]));

    let mut bytes = Array2::<u8>::zeros((3, 8));
    k::local_bytes()
        .configure(1, 3)
        .launch((&mut bytes,))
        .unwrap();
    for i in 0..3 {
        let mut want = 0x0403_0201u32.to_ne_bytes().to_vec();
        want.extend((i as u32).to_ne_bytes());
        assert_eq!(bytes.row(i).to_vec(), want, "thread {i}");
    }
}

#[test]
fn reshape_of_another_size_is_a_fault() {
    start();
    if !faults_reported() {
        return;
    }
    let a = rumba::to_device(&Array1::<f32>::zeros(6)).unwrap();
    let out = rumba::to_device(&Array1::<f32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    // 2 x 3 is the size: no fault.
    k::bad_reshape()
        .configure(1, 2)
        .stream(&s)
        .launch((&a, 2usize, &out))
        .unwrap();
    s.synchronize().unwrap();
    k::bad_reshape()
        .configure(1, 2)
        .stream(&s)
        .launch((&a, 3usize, &out))
        .unwrap();
    let (_, _, msg) = common::fault(s.synchronize());
    assert!(msg.contains("reshape"), "{msg}");
}

#[test]
fn row_out_of_range_is_a_fault() {
    start();
    if !faults_reported() {
        return;
    }
    let m = rumba::to_device(&arr2(&[[1i32, 2], [3, 4]])).unwrap();
    let out = rumba::to_device(&Array1::<i32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    k::bad_row()
        .configure(1, 1)
        .stream(&s)
        .launch((&m, 1usize, &out))
        .unwrap();
    s.synchronize().unwrap();
    assert_eq!(out.copy_to_host().unwrap(), arr1(&[3]));
    k::bad_row()
        .configure(1, 1)
        .stream(&s)
        .launch((&m, 2usize, &out))
        .unwrap();
    let (_, thread, msg) = common::fault(s.synchronize());
    assert_eq!(thread, [0, 0, 0]);
    assert!(msg.contains("index 2") || msg.contains("(2,)"), "{msg}");
    assert!(msg.contains("axis 0 with size 2"), "{msg}");
}

#[test]
fn view_whose_bytes_do_not_divide_is_a_fault() {
    start();
    if !faults_reported() {
        return;
    }
    let out = rumba::to_device(&Array1::<u32>::zeros(1)).unwrap();
    let s = rumba::stream().unwrap();
    let ok = rumba::to_device(&Array1::<u8>::zeros(8)).unwrap();
    k::bad_view()
        .configure(1, 1)
        .stream(&s)
        .launch((&ok, &out))
        .unwrap();
    s.synchronize().unwrap();
    assert_eq!(out.copy_to_host().unwrap(), arr1(&[2]));
    let bad = rumba::to_device(&Array1::<u8>::zeros(6)).unwrap();
    k::bad_view()
        .configure(1, 1)
        .stream(&s)
        .launch((&bad, &out))
        .unwrap();
    let (_, _, msg) = common::fault(s.synchronize());
    assert!(msg.contains("view"), "{msg}");
}
