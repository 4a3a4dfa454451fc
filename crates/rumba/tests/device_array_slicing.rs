//! docs/design/behaviour.md §2, indexing and slicing of device arrays, ported from Numba's
//! `test_cuda_array_slicing.py` (`CudaArrayIndexing`, `CudaArraySlicing`). NumPy's answers are
//! ndarray's answers here; every view is checked in values (real device data copied back),
//! shape and strides.

mod common;

use itertools_free::product;
use ndarray::{Array, ArrayD, ArrayView, Dimension, IxDyn, ShapeBuilder, SliceInfoElem, s};
use rumba::array::DeviceArray;
use rumba::layout::Element;
use rumba::{Error, to_device};

fn setup() {
    common::start(|_| {});
}

/// `0..n` reshaped to `shape` in C order, as i64.
fn arange(shape: &[usize]) -> ArrayD<i64> {
    let n: usize = shape.iter().product();
    Array::from_iter(0..n as i64)
        .into_shape_with_order(IxDyn(shape))
        .unwrap()
}

/// The same contents in F order.
fn fortran(a: &ArrayD<i64>) -> ArrayD<i64> {
    let mut f = ArrayD::zeros(a.raw_dim().f());
    f.assign(a);
    f
}

/// Device contents back on the host; views with negative strides are first copied on the device.
fn fetch<T: Element, D: Dimension>(d: &DeviceArray<T, D>) -> Array<T, D> {
    match d.copy_to_host() {
        Ok(a) => a,
        Err(Error::Strides(rumba::error::StridesError::NegativeToHost { .. })) => {
            let out = rumba::device_array_like(d).unwrap();
            out.assign(d).unwrap();
            out.copy_to_host().unwrap()
        }
        Err(e) => panic!("{e}"),
    }
}

/// Same shape; same byte strides on every axis longer than 1 (strides of length-0/1 axes
/// address nothing and ndarray normalises them differently).
fn assert_layout<T, D: Dimension, E: Dimension>(d: &DeviceArray<i64, D>, h: &ArrayView<'_, T, E>) {
    assert_eq!(d.shape(), h.shape());
    for k in 0..h.ndim() {
        if h.shape()[k] > 1 {
            assert_eq!(d.strides()[k], h.strides()[k] * 8, "axis {k}");
        }
    }
}

fn check<D: Dimension, E: Dimension>(d: &DeviceArray<i64, D>, h: ArrayView<'_, i64, E>) {
    assert_layout(d, &h);
    let got = fetch(d).into_dyn();
    assert_eq!(got, h.into_dyn());
}

/// A tiny local stand-in for `itertools::iproduct!`.
mod itertools_free {
    pub fn product(ranges: &[std::ops::Range<isize>]) -> Vec<Vec<isize>> {
        let mut out = vec![vec![]];
        for r in ranges {
            out = out
                .into_iter()
                .flat_map(|p| {
                    r.clone().map(move |i| {
                        let mut q = p.clone();
                        q.push(i);
                        q
                    })
                })
                .collect();
        }
        out
    }
}

#[test]
fn every_index_in_range_reads_the_element_and_the_two_outside_are_errors() {
    setup();
    for shape in [&[5usize][..], &[3, 4], &[2, 3, 4]] {
        let host = arange(shape);
        let d = to_device(&host).unwrap();
        let ranges: Vec<_> = shape.iter().map(|&n| -(n as isize)..n as isize).collect();
        for idx in product(&ranges) {
            let pos: Vec<usize> = idx
                .iter()
                .zip(shape)
                .map(|(&i, &n)| i.rem_euclid(n as isize) as usize)
                .collect();
            assert_eq!(d.get(&idx).unwrap(), host[IxDyn(&pos)], "{idx:?}");
        }
        for axis in 0..shape.len() {
            let n = shape[axis] as isize;
            for bad in [-n - 1, n] {
                let mut idx = vec![0isize; shape.len()];
                idx[axis] = bad;
                assert_eq!(
                    d.get(&idx).unwrap_err(),
                    Error::IndexOutOfRange {
                        index: bad,
                        axis,
                        size: n as usize
                    }
                );
                let mut info: Vec<SliceInfoElem> = vec![SliceInfoElem::from(..); shape.len()];
                info[axis] = SliceInfoElem::Index(bad);
                assert!(matches!(
                    d.slice(&info[..]),
                    Err(Error::IndexOutOfRange { .. })
                ));
            }
        }
    }
}

#[test]
fn step_two_from_every_start_in_1_2_3_d() {
    setup();
    let h1 = arange(&[10]).into_dimensionality::<ndarray::Ix1>().unwrap();
    let d1 = to_device(&h1).unwrap();
    for i in 0..10 {
        check(&d1.slice(s![i..;2]).unwrap(), h1.slice(s![i..;2]));
    }
    let h2 = arange(&[6, 7])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d2 = to_device(&h2).unwrap();
    for i in 0..6 {
        check(&d2.slice(s![i..;2, ..]).unwrap(), h2.slice(s![i..;2, ..]));
        check(&d2.slice(s![.., i..;2]).unwrap(), h2.slice(s![.., i..;2]));
    }
    let h3 = arange(&[4, 5, 6])
        .into_dimensionality::<ndarray::Ix3>()
        .unwrap();
    let d3 = to_device(&h3).unwrap();
    for i in 0..4 {
        check(
            &d3.slice(s![i..;2, .., i..;2]).unwrap(),
            h3.slice(s![i..;2, .., i..;2]),
        );
    }
}

#[test]
fn prefixes_in_1_and_2_d() {
    setup();
    let h1 = arange(&[5]).into_dimensionality::<ndarray::Ix1>().unwrap();
    let d1 = to_device(&h1).unwrap();
    for i in 0..5 {
        check(&d1.slice(s![i..]).unwrap(), h1.slice(s![i..]));
    }
    let h2 = arange(&[3, 3])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d2 = to_device(&h2).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            check(&d2.slice(s![i.., j..]).unwrap(), h2.slice(s![i.., j..]));
        }
    }
    // Selecting two leading axes of a 3-D array.
    let h3 = arange(&[3, 3, 3])
        .into_dimensionality::<ndarray::Ix3>()
        .unwrap();
    let d3 = to_device(&h3).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            check(&d3.slice(s![i, j.., ..]).unwrap(), h3.slice(s![i, j.., ..]));
        }
    }
}

#[test]
fn selecting_two_axes_of_c_and_f_5x6x7() {
    setup();
    let c = arange(&[5, 6, 7])
        .into_dimensionality::<ndarray::Ix3>()
        .unwrap();
    let f = fortran(&c.clone().into_dyn())
        .into_dimensionality::<ndarray::Ix3>()
        .unwrap();
    for host in [c, f] {
        let d = to_device(&host).unwrap();
        assert_eq!(
            (d.is_c_contiguous(), d.is_f_contiguous()),
            (host.is_standard_layout(), host.t().is_standard_layout())
        );
        for i in 0..5 {
            for j in 0..6 {
                check(&d.slice(s![i, j, ..]).unwrap(), host.slice(s![i, j, ..]));
            }
            for j in 0..7 {
                check(&d.slice(s![i, .., j]).unwrap(), host.slice(s![i, .., j]));
            }
        }
        for i in 0..6 {
            for j in 0..7 {
                check(&d.slice(s![.., i, j]).unwrap(), host.slice(s![.., i, j]));
            }
        }
    }
}

#[test]
fn prefix_then_index_on_f_5x7() {
    setup();
    let host = fortran(&arange(&[5, 7]))
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d = to_device(&host).unwrap();
    check(&d.slice(s![..1, 1]).unwrap(), host.slice(s![..1, 1]));
}

#[test]
fn every_i_to_j_in_minus_10_to_10() {
    setup();
    let host = arange(&[10]).into_dimensionality::<ndarray::Ix1>().unwrap();
    let d = to_device(&host).unwrap();
    for i in -10..10isize {
        for j in -10..10isize {
            check(&d.slice(s![i..j]).unwrap(), host.slice(s![i..j]));
        }
    }
}

/// numpy clips slice bounds into the axis; `slice_clipped` does the same.
fn clip(b: isize, n: usize) -> isize {
    if b < 0 {
        (n as isize + b).max(0)
    } else {
        b.min(n as isize)
    }
}

#[test]
fn two_d_bounds_in_minus_4_to_4_are_clipped_like_numpy() {
    setup();
    let host = arange(&[3, 4])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d = to_device(&host).unwrap();
    let r = -4..4isize;
    for p in product(&[r.clone(), r.clone(), r.clone(), r]) {
        let (x, y, w, z) = (p[0], p[1], p[2], p[3]);
        let got = d.slice_clipped(s![x..y, w..z]).unwrap();
        let (x, y, w, z) = (clip(x, 3), clip(y, 3), clip(w, 4), clip(z, 4));
        check(&got, host.slice(s![x..y.max(x), w..z.max(w)]));
    }
}

#[test]
fn empty_slices() {
    setup();
    let h1 = arange(&[5]).into_dimensionality::<ndarray::Ix1>().unwrap();
    let d1 = to_device(&h1).unwrap();
    for i in 0..5 {
        let v = d1.slice(s![i..i]).unwrap();
        check(&v, h1.slice(s![i..i]));
        assert_eq!(v.copy_to_host().unwrap().len(), 0);
    }
    let e = d1.slice(s![..0]).unwrap().slice(s![..0]).unwrap();
    assert_eq!(e.copy_to_host().unwrap().shape(), &[0]);
    // Out-of-bound bounds of an empty slice just give empty slices (numpy's clipping).
    let e = d1.slice(s![..0]).unwrap();
    assert_eq!(e.slice_clipped(s![..1]).unwrap().shape(), &[0]);
    assert_eq!(e.slice_clipped(s![-1..]).unwrap().shape(), &[0]);
    assert!(
        e.slice(s![..1]).is_err(),
        "strict slicing refuses, as ndarray does"
    );

    let h2 = arange(&[5, 7])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d2 = to_device(&h2).unwrap();
    check(&d2.slice(s![..0, ..]).unwrap(), h2.slice(s![..0, ..]));
    check(&d2.slice(s![3, ..0]).unwrap(), h2.slice(s![3, ..0]));
    let e = d2.slice(s![..0, ..]).unwrap().slice(s![..0, ..]).unwrap();
    assert_eq!(e.copy_to_host().unwrap().shape(), &[0, 7]);
}

#[test]
fn negative_steps() {
    setup();
    let h1 = arange(&[10]).into_dimensionality::<ndarray::Ix1>().unwrap();
    let d1 = to_device(&h1).unwrap();
    for step in [-1isize, -2, -3] {
        check(&d1.slice(s![..;step]).unwrap(), h1.slice(s![..;step]));
        check(&d1.slice(s![2..8;step]).unwrap(), h1.slice(s![2..8;step]));
    }
    let h2 = arange(&[4, 6])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d2 = to_device(&h2).unwrap();
    let v = d2.slice(s![..;-1, 1..;-2]).unwrap();
    check(&v, h2.slice(s![..;-1, 1..;-2]));
    // Copying a negative-stride view to the host directly is refused with a clear error.
    let e = v.copy_to_host().unwrap_err();
    assert!(
        matches!(
            e,
            rumba::Error::Strides(rumba::error::StridesError::NegativeToHost { .. })
        ),
        "{e}"
    );
    // Reversing twice is the identity view again.
    let back = v.slice(s![..;-1, ..;-1]).unwrap();
    check(&back, h2.slice(s![.., 1..;2]));
}

#[test]
fn views_share_memory_and_keep_it_alive() {
    setup();
    let host = arange(&[4, 4])
        .into_dimensionality::<ndarray::Ix2>()
        .unwrap();
    let d = to_device(&host).unwrap();
    let v = d.slice(s![1.., ..;2]).unwrap();
    assert!(v.same_memory(&d));
    drop(d);
    check(&v, host.slice(s![1.., ..;2]));
    // Element reads of a view go through its layout.
    assert_eq!(v.get(&[0, 1]).unwrap(), host[[1, 2]]);
    // Slicing an `IxDyn` array with a dynamic slice list.
    let dy = to_device(&host.clone().into_dyn()).unwrap();
    let info = [SliceInfoElem::Index(2), SliceInfoElem::from(1..)];
    check(&dy.slice(&info[..]).unwrap(), host.slice(s![2, 1..]));
}
