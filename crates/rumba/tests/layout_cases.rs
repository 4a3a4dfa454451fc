//! The SPEC / Numba issue cases of `rumba::array` layout arithmetic as fixed tests, checked
//! against `ndarray` (the property tests are in `layout_props.rs`).

mod layout_common;

use layout_common::*;

// ---------------------------------------------------------------------------------------------
// SPEC and Numba issue cases, fixed

/// Slices `shape` (C or F) with `info` on both sides and compares; `false` when both refused.
fn same_slice(shape: &[usize], f: bool, info: &[SliceInfoElem]) -> bool {
    let (arr, l) = base(shape, f);
    match (nd_slice(&arr.view(), info), l.slice(info)) {
        (Some(v), Ok(sl)) => {
            assert_matches(&sl, &v, true, arr.len() * 8).unwrap();
            true
        }
        (None, Err(_)) => false,
        (a, b) => panic!(
            "ndarray {:?} vs ours {b:?} for {info:?} on {shape:?}",
            a.map(|v| v.shape().to_vec())
        ),
    }
}

fn full() -> SliceInfoElem {
    SliceInfoElem::Slice {
        start: 0,
        end: None,
        step: 1,
    }
}

fn range(start: isize, end: Option<isize>, step: isize) -> SliceInfoElem {
    SliceInfoElem::Slice { start, end, step }
}

#[test]
fn every_index_in_range_and_just_outside() {
    for shape in [&[7usize][..], &[3, 5], &[2, 3, 4]] {
        for f in [false, true] {
            for axis in 0..shape.len() {
                let n = shape[axis] as isize;
                for i in -n - 1..=n {
                    let mut info = vec![full(); shape.len()];
                    info[axis] = SliceInfoElem::Index(i);
                    assert_eq!(same_slice(shape, f, &info), (-n..n).contains(&i));
                }
                let (_, l) = base(shape, f);
                for bad in [-n - 1, n] {
                    assert_eq!(
                        l.index_axis(axis, bad).unwrap_err(),
                        Error::IndexOutOfRange {
                            index: bad,
                            axis,
                            size: n as usize
                        }
                    );
                }
            }
        }
    }
}

#[test]
fn step_two_from_each_start_in_1_2_3_d() {
    for shape in [&[10usize][..], &[6, 7], &[4, 5, 6]] {
        for f in [false, true] {
            for i in 0..shape[0] as isize {
                let mut info = vec![full(); shape.len()];
                info[0] = range(i, None, 2);
                assert!(same_slice(shape, f, &info));
                // `i:` and `i:, j:`
                info[0] = range(i, None, 1);
                assert!(same_slice(shape, f, &info));
                if shape.len() > 1 {
                    for j in 0..shape[1] as isize {
                        info[1] = range(j, None, 1);
                        assert!(same_slice(shape, f, &info));
                    }
                }
            }
        }
    }
}

#[test]
fn select_lines_of_5x6x7_in_c_and_f() {
    for f in [false, true] {
        for i in 0..5isize {
            for j in 0..6isize {
                let (x, y) = (SliceInfoElem::Index(i), SliceInfoElem::Index(j));
                assert!(same_slice(&[5, 6, 7], f, &[x, y, full()]));
                assert!(same_slice(
                    &[5, 6, 7],
                    f,
                    &[x, full(), SliceInfoElem::Index(j)]
                ));
                assert!(same_slice(
                    &[5, 6, 7],
                    f,
                    &[full(), SliceInfoElem::Index(i), SliceInfoElem::Index(j)]
                ));
            }
        }
    }
    // `[:1, 1]` on an F 5×7 array.
    let (arr, l) = base(&[5, 7], true);
    let v = l.slice(s![..1, 1]).unwrap();
    assert_matches(&v, &arr.slice(s![..1, 1]).into_dyn(), true, 280).unwrap();
    assert_eq!((v.shape(), v.offset()), (&[1][..], 5 * 8));
}

#[test]
fn all_i_j_slices_in_minus_10_to_10() {
    // On arange(10) every bound is in range; on shorter arrays ndarray panics where we refuse.
    for len in [10usize, 4, 1, 0] {
        let mut accepted = 0;
        for i in -10..10 {
            for j in -10..10 {
                accepted += usize::from(same_slice(&[len], false, &[range(i, Some(j), 1)]));
            }
        }
        if len == 10 {
            assert_eq!(accepted, 400);
        }
        // Numpy's clipping alternative always succeeds and agrees with Python's slicing.
        let (_, l) = base(&[len], false);
        for i in -10..10isize {
            for j in -10..10isize {
                let v = l.slice_clipped([range(i, Some(j), 1)]).unwrap();
                let clip = |b: isize| if b < 0 { (b + len as isize).max(0) } else { b.min(len as isize) } as usize;
                let (lo, hi) = (clip(i), clip(j));
                assert_eq!(v.shape(), &[hi.saturating_sub(lo)]);
                if hi > lo {
                    assert_eq!(v.offset(), lo * 8);
                }
            }
        }
    }
}

#[test]
fn two_d_bounds_minus_4_to_4() {
    let (_, l) = base(&[3, 4], false);
    let arr = ndarray::Array2::from_shape_vec((3, 4), (0..12i64).collect()).unwrap();
    for x in -4..4isize {
        for y in -4..4isize {
            for w in -4..4isize {
                for z in -4..4isize {
                    let info = [range(x, Some(y), 1), range(w, Some(z), 1)];
                    same_slice(&[3, 4], false, &info);
                    // Clipped like numpy: compare against numpy's rule applied by hand.
                    let v = l.slice_clipped(info).unwrap();
                    let clip =
                        |b: isize, n: isize| (if b < 0 { b + n } else { b }).clamp(0, n) as usize;
                    let (r0, r1) = (clip(x, 3), clip(y, 3).max(clip(x, 3)));
                    let (c0, c1) = (clip(w, 4), clip(z, 4).max(clip(w, 4)));
                    let want = arr.slice(s![r0..r1, c0..c1]);
                    assert_matches(&v, &want.into_dyn(), false, 96).unwrap();
                }
            }
        }
    }
}

#[test]
fn empty_slices() {
    for i in 0..5isize {
        assert!(same_slice(&[5], false, &[range(i, Some(i), 1)]));
        assert!(same_slice(&[5, 3], true, &[range(i, Some(i), 1), full()]));
    }
    let (_, l) = base(&[5, 4], false);
    let v = l.slice(s![..0, ..]).unwrap().slice(s![..0, ..]).unwrap();
    assert_eq!((v.shape(), v.size(), v.alloc_size()), (&[0, 4][..], 0, 0));
    assert!(same_slice(&[5, 4], false, s![3, ..0].as_ref()));
    assert_eq!(l.slice(s![3, ..0]).unwrap().shape(), &[0]);
}

#[test]
fn negative_steps() {
    for step in [-1isize, -2, -3, -7] {
        for (a, b) in [
            (0, None),
            (1, Some(4)),
            (-3, None),
            (2, Some(2)),
            (0, Some(0)),
        ] {
            assert!(same_slice(&[7], false, &[range(a, b, step)]));
            assert!(same_slice(
                &[7, 3],
                true,
                &[range(a, b, step), range(0, None, -1)]
            ));
        }
    }
    assert!(same_slice(
        &[4, 5, 6],
        false,
        s![..;-1, 1..;-2, NewAxis, ..;3].as_ref()
    ));
}

#[test]
fn contiguity_of_c_and_f_arrays() {
    for shape in [
        &[2usize, 3][..],
        &[2, 3, 4],
        &[2, 3, 4, 5],
        &[1, 4],
        &[4, 1],
    ] {
        for f in [false, true] {
            let (arr, l) = base(shape, f);
            assert_eq!(
                l.is_c_contiguous(),
                arr.is_standard_layout(),
                "{shape:?} f={f}"
            );
            assert_eq!(
                l.is_f_contiguous(),
                arr.t().is_standard_layout(),
                "{shape:?} f={f}"
            );
            let one = shape.iter().filter(|&&n| n > 1).count() <= 1;
            assert_eq!(l.is_c_contiguous(), !f || one);
            assert_eq!(l.is_f_contiguous(), f || one);
        }
    }
    let b = Layout::with_strides(&[1, 10], &[800, 8], 0, &f64::DTYPE, 80).unwrap();
    assert!(b.is_c_contiguous() && b.is_f_contiguous());
}

#[test]
fn ravel_cases() {
    let (_, one) = base(&[10], false);
    for o in [Order::C, Order::F, Order::A] {
        assert_eq!(one.ravel(o).unwrap(), one);
    }
    let (_, c) = base(&[3, 4], false);
    let (_, f) = base(&[3, 4], true);
    assert!(c.ravel(Order::C).is_ok() && c.ravel(Order::A).is_ok() && c.ravel(Order::F).is_err());
    assert!(f.ravel(Order::F).is_ok() && f.ravel(Order::A).is_ok() && f.ravel(Order::C).is_err());
    assert!(matches!(
        c.slice(s![.., ..;2]).unwrap().ravel(Order::A),
        Err(Error::NotContiguous(_))
    ));
}

#[test]
fn reshape_arange_10_to_2x5() {
    let a = ndarray::Array1::from_iter(0..10i64).into_dyn();
    let (_, l) = base(&[10], false);
    for (order, nd) in [
        (Order::C, ndarray::Order::RowMajor),
        (Order::F, ndarray::Order::ColumnMajor),
    ] {
        let r = l.reshape(&[2, 5], order).unwrap();
        let want = a.to_shape(((2, 5), nd)).unwrap();
        assert!(want.is_view());
        assert_matches(&r, &want.view().into_dyn(), true, 80).unwrap();
    }
}

#[test]
fn views_with_other_item_sizes() {
    let a = Layout::c_order(&[3, 4], i16::DTYPE.itemsize()).unwrap();
    for (d, shape) in [
        (i32::DTYPE, [3, 2]),
        (u32::DTYPE, [3, 2]),
        (i64::DTYPE, [3, 1]),
        (f64::DTYPE, [3, 1]),
    ] {
        let v = a.view_as(d.itemsize()).unwrap();
        assert_eq!(v.shape(), &shape);
        assert_eq!(v.strides()[1], d.itemsize() as isize);
    }
    let cols = a.slice(s![.., ..;2]).unwrap();
    assert_eq!(
        cols.view_as(u16::DTYPE.itemsize()).unwrap().shape(),
        &[3, 2]
    );
    assert_eq!(
        cols.view_as(4).unwrap_err().to_string(),
        "to change to a dtype of a different size, the array must be C-contiguous"
    );
    let b = Layout::c_order(&[4, 3], 2).unwrap();
    assert_eq!(
        b.view_as(4).unwrap_err().to_string(),
        "when changing to a dtype of a different size, its size (4 bytes) must be a divisor of the total size in bytes of the last axis of the array (6 bytes)"
    );
}

#[test]
fn empty_like_cases() {
    let shapes: [&[usize]; 3] = [&[5], &[3, 4], &[2, 3, 4]];
    for shape in shapes {
        for f in [false, true] {
            let (_, l) = base(shape, f);
            for src in [l.clone(), l.t()] {
                let e = src.empty_like();
                assert_eq!(e.shape(), src.shape());
                // Contiguous sources keep their strides exactly.
                assert_eq!(e.strides(), src.strides(), "{shape:?} f={f}");
            }
        }
    }
    let (_, l1) = base(&[10], false);
    let e = l1.slice(s![..;2]).unwrap().empty_like();
    assert_eq!((e.shape(), e.strides()), (&[5][..], &[8][..]));
    let (_, l2) = base(&[6, 8], false);
    let e = l2.slice(s![..;2, ..;2]).unwrap().empty_like();
    assert_eq!((e.shape(), e.strides()), (&[3, 4][..], &[32, 8][..]));
    let (_, f2) = base(&[6, 8], true);
    let e = f2.slice(s![..;2, ..;2]).unwrap().empty_like();
    assert_eq!((e.shape(), e.strides()), (&[3, 4][..], &[8, 24][..]));
    // A permuted 3-D array that is neither C nor F: axes packed by ascending |stride|.
    let (_, l3) = base(&[2, 3, 4], false);
    let p = l3.permuted_axes(&[1, 0, 2]).unwrap();
    assert_eq!(p.empty_like().strides(), &[32, 96, 8]);
}
