//! docs/design/behaviour.md §2, `setitem`-style assignment with numpy broadcasting, ported from
//! Numba's `test_cuda_array_slicing.py` (`CudaArraySetting`). Each case applies the same assignment
//! to an ndarray and to a device array and compares the whole array.

mod common;

use ndarray::{Array, Array1, Array2, Array3, ArrayD, Axis, IxDyn, ShapeBuilder, s};
use rumba::Order;
use rumba::{device_array, to_device};

fn setup() {
    common::start(|_| {});
}

fn arange2(r: usize, c: usize) -> Array2<i64> {
    Array::from_iter(0..(r * c) as i64)
        .into_shape_with_order((r, c))
        .unwrap()
}

fn arange_d(shape: &[usize]) -> ArrayD<i64> {
    let n: usize = shape.iter().product();
    Array::from_iter(0..n as i64)
        .into_shape_with_order(IxDyn(shape))
        .unwrap()
}

#[test]
fn scalar_into_one_element() {
    setup();
    let mut host = arange2(5, 7);
    let d = to_device(&host).unwrap();
    host[[2, 2]] = 500;
    d.slice(s![2, 2]).unwrap().assign(500i64).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
    // The element API does the same.
    host[[4, 6]] = -1;
    d.set(&[-1, -1], -1).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn scalar_into_a_row_and_a_column() {
    setup();
    let mut host = arange2(5, 7);
    let d = to_device(&host).unwrap();
    host.row_mut(2).fill(500);
    d.slice(s![2, ..]).unwrap().assign(500i64).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
    host.column_mut(2).fill(400);
    d.slice(s![.., 2]).unwrap().assign(400i64).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn host_arrays_of_shape_7_and_5_into_a_row_and_a_column() {
    setup();
    let mut host = arange2(5, 7);
    let d = to_device(&host).unwrap();
    let row = Array1::from_elem(7, 400i64);
    host.row_mut(2).assign(&row);
    d.slice(s![2, ..]).unwrap().assign(&row).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
    let col = Array1::from_elem(5, 300i64);
    host.column_mut(2).assign(&col);
    d.slice(s![.., 2]).unwrap().assign(&col).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn host_subarray_6x7_into_index_2_of_5x6x7() {
    setup();
    let mut host = arange_d(&[5, 6, 7])
        .into_dimensionality::<ndarray::Ix3>()
        .unwrap();
    let d = to_device(&host).unwrap();
    let sub = Array2::from_elem((6, 7), 400i64);
    host.slice_mut(s![2, .., ..]).assign(&sub);
    d.slice(s![2, .., ..]).unwrap().assign(&sub).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn deep_subarray_5x6x8_into_axis_2_of_5x6x7x8() {
    setup();
    let mut host = arange_d(&[5, 6, 7, 8])
        .into_dimensionality::<ndarray::Ix4>()
        .unwrap();
    let d = to_device(&host).unwrap();
    let sub = Array3::from_elem((5, 6, 8), 400i64);
    host.slice_mut(s![.., .., 2, ..]).assign(&sub);
    d.slice(s![.., .., 2, ..]).unwrap().assign(&sub).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn everything_and_every_other_element() {
    setup();
    let mut host = arange2(5, 7);
    let d = to_device(&host).unwrap();
    let all = Array2::from_elem((5, 7), 400i64);
    host.assign(&all);
    d.slice(s![.., ..]).unwrap().assign(&all).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);

    let mut ones = Array1::<f64>::ones(20);
    let d = to_device(&ones).unwrap();
    ones.slice_mut(s![..;2]).fill(500.0);
    d.slice(s![..;2]).unwrap().assign(500.0f64).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), ones);
}

#[test]
fn broadcasting_sources_of_every_kind() {
    setup();
    let mut host = Array3::<i32>::zeros((3, 4, 5).f());
    let d = to_device(&host).unwrap();
    assert!(d.is_f_contiguous());
    // A host column (shape (3, 1, 1)) broadcast over two axes, into a strided, reversed view.
    let col = Array1::from_iter(0..3i32)
        .slice_move(s![..;-1])
        .insert_axis(Axis(1))
        .insert_axis(Axis(2));
    host.slice_mut(s![.., ..;-2, 1..;2]).assign(&col);
    d.slice(s![.., ..;-2, 1..;2]).unwrap().assign(&col).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
    // A device source broadcast along a new leading axis.
    let src = to_device(&Array2::from_shape_fn((4, 5), |(i, j)| (10 * i + j) as i32)).unwrap();
    host.assign(&src.copy_to_host().unwrap().broadcast((3, 4, 5)).unwrap());
    d.assign(&src).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn overlapping_device_assignment_behaves_like_numpy() {
    setup();
    let mut host = Array1::from_iter(0..10i64);
    let d = to_device(&host).unwrap();
    let tmp = host.slice(s![..9]).to_owned();
    host.slice_mut(s![1..]).assign(&tmp);
    d.slice(s![1..])
        .unwrap()
        .assign(&d.slice(s![..9]).unwrap())
        .unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
    // Reversal in place.
    let rev = host.slice(s![..;-1]).to_owned();
    host.assign(&rev);
    d.assign(&d.slice(s![..;-1]).unwrap()).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn the_two_error_texts() {
    setup();
    let d = to_device(&Array1::from_iter(0..35i64)).unwrap();
    let e = d
        .assign(&ArrayD::<i64>::ones(IxDyn(&[1, 2, 3])))
        .unwrap_err();
    assert_eq!(e.to_string(), "can't assign 3-D array to 1-D self");
    let d = to_device(&Array1::from_iter(0..5i64)).unwrap();
    let e = d.assign(&ndarray::arr1(&[1i64, 3])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "can't copy sequence with size 2 to array axis 0 with dimension 5"
    );
    // Device sources are checked the same way.
    let two = to_device(&[1i64, 3]).unwrap();
    assert_eq!(
        d.assign(&two).unwrap_err().to_string(),
        "can't copy sequence with size 2 to array axis 0 with dimension 5"
    );
}

#[test]
fn a_failed_assignment_leaves_the_destination_unchanged() {
    setup();
    let host = arange2(4, 6);
    let d = to_device(&host).unwrap();
    let s = rumba::stream().unwrap();
    let bad = Array2::<i64>::ones((3, 6));
    assert!(d.assign(&bad).is_err());
    assert!(d.assign_on(&bad, &s).is_err());
    assert!(d.assign(&to_device(&bad).unwrap()).is_err());
    assert!(matches!(
        s.auto_synchronize(|scope| scope.assign(&d, &bad)),
        Err(rumba::Error::Shape(
            rumba::error::ShapeError::Broadcast { .. }
        ))
    ));
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap(), host);
}

#[test]
fn assignments_on_streams_and_scopes() {
    setup();
    let s = rumba::stream().unwrap();
    let d = device_array::<f32, _>((64, 64), Order::C).unwrap();
    let mut expect = Array2::<f32>::zeros((64, 64));
    let rows = Array1::from_iter((0..64).map(|v| v as f32));
    // Queued: host data taken before return; the scope variant borrows it until the end.
    d.assign_on(1.0f32, &s).unwrap();
    d.slice(s![..;3, ..]).unwrap().assign_on(&rows, &s).unwrap();
    s.auto_synchronize(|scope| scope.assign(&d.slice(s![.., 5]).unwrap(), &rows))
        .unwrap();
    expect.fill(1.0);
    expect.slice_mut(s![..;3, ..]).assign(&rows);
    expect.column_mut(5).assign(&rows);
    assert_eq!(d.copy_to_host_on(&s).unwrap(), expect);
    // A bound array assigns on its stream and still completes before returning.
    let b = d.bind(&s);
    b.fill(2.0).unwrap();
    assert_eq!(b.get(&[63, 63]).unwrap(), 2.0);
}

#[test]
fn every_element_type_assigns() {
    setup();
    fn roundtrip<T>(v: T)
    where
        T: rumba::layout::Element + rumba::array::AssignSource<T> + PartialEq + std::fmt::Debug,
    {
        let d = device_array::<T, _>((3, 4), Order::F).unwrap();
        d.slice(s![1, ..]).unwrap().assign(v).unwrap();
        assert_eq!(d.get(&[1, 3]).unwrap(), v);
        let h = d.copy_to_host().unwrap();
        assert_eq!(h.row(1).iter().filter(|&&x| x == v).count(), 4);
    }
    roundtrip(-3i8);
    roundtrip(-3i16);
    roundtrip(-3i32);
    roundtrip(-3i64);
    roundtrip(-3i128);
    roundtrip(3u8);
    roundtrip(3u16);
    roundtrip(3u32);
    roundtrip(3u64);
    roundtrip(3u128);
    roundtrip(3usize);
    roundtrip(-3isize);
    roundtrip(1.5f32);
    roundtrip(1.5f64);
    roundtrip(true);
    roundtrip(half::f16::from_f32(1.5));
    roundtrip(half::bf16::from_f32(1.5));
    roundtrip(num_complex::Complex::new(1.0f32, -2.0));
    roundtrip(num_complex::Complex::new(1.0f64, -2.0));
}

/// Whole arrays and their dense views copied and filled on the device — what the GPU backends
/// queue as one plain copy or memset (a fill whose bytes are all one value) — next to a strided
/// slice of the same array, which takes the element kernel. Both orders, and fills of zeros,
/// of all-ones bytes and of a value whose bytes differ.
#[test]
fn dense_copies_and_fills_of_whole_arrays() {
    setup();
    for order in [Order::C, Order::F] {
        let host = arange2(6, 9);
        let mut want = if order == Order::C {
            host.clone()
        } else {
            let mut f = Array2::zeros((6, 9).f());
            f.assign(&host);
            f
        };
        let src = to_device(&want).unwrap();
        let d = device_array::<i64, _>((6, 9), order).unwrap();
        d.assign(&src).unwrap();
        assert_eq!(d.copy_to_host().unwrap(), want, "{order:?} copy");
        // Rows of a C array, or columns of an F one, are dense views.
        let (dense, from, to) = if order == Order::C {
            (s![1..3, ..], s![0..3, ..], s![3..6, ..])
        } else {
            (s![.., 1..3], s![.., 0..4], s![.., 4..8])
        };
        for value in [0i64, -1, 0x0102_0304_0506_0708] {
            d.assign(value).unwrap();
            want.fill(value);
            assert_eq!(d.copy_to_host().unwrap(), want, "{order:?} fill {value:#x}");
            d.slice(dense).unwrap().assign(7i64).unwrap();
            want.slice_mut(dense).fill(7);
            // Every other column is not dense.
            d.slice(s![.., ..;2]).unwrap().assign(0i64).unwrap();
            want.slice_mut(s![.., ..;2]).fill(0);
            let got = d.copy_to_host().unwrap();
            assert_eq!(got, want, "{order:?} views after {value:#x}");
        }
        // A dense view copied into another, apart, of the same array.
        d.slice(to)
            .unwrap()
            .assign(&d.slice(from).unwrap())
            .unwrap();
        let copied = want.slice(from).to_owned();
        want.slice_mut(to).assign(&copied);
        let got = d.copy_to_host().unwrap();
        assert_eq!(got, want, "{order:?} within one array");
    }
}
