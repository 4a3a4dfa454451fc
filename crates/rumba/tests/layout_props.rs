//! Property tests of `rumba::array` layout arithmetic against `ndarray` as the oracle, plus the
//! SPEC / Numba issue cases ported as fixed tests.
//!
//! Base arrays hold `arange(n)` as `i64` in C or F memory order, so the value of every element
//! is its position in memory: a layout is right exactly when, for every multi-index, the byte
//! offset `offset + Σ idx·stride` equals `8 × value` of ndarray's element at that index.

mod layout_common;

use layout_common::*;
use rumba::error::{ShapeError, StridesError};

// ---------------------------------------------------------------------------------------------
// properties

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Slicing equals ndarray's, and fails exactly where ndarray panics.
    #[test]
    fn slicing_matches_ndarray(shape in shape_strategy(), f: bool, seed: u64) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let info = random_slice(&shape, &mut rng);
        let bytes = arr.len() * 8;
        match (nd_slice(&arr.view(), &info), l.slice(&info)) {
            (Some(v), Ok(sl)) => {
                assert_matches(&sl, &v, true, bytes)?;
                // And a second slice of the result.
                let info2 = random_slice(v.shape(), &mut rng);
                match (nd_slice(&v, &info2), sl.slice(&info2)) {
                    (Some(v2), Ok(sl2)) => assert_matches(&sl2, &v2, true, bytes)?,
                    (None, Err(_)) => {}
                    (a, b) => prop_assert!(false, "ndarray {:?} vs ours {:?} for {:?}", a.map(|v| v.shape().to_vec()), b, info2),
                }
            }
            (None, Err(e)) => {
                let typed = matches!(e, Error::IndexOutOfRange { .. } | Error::Shape(_));
                prop_assert!(typed, "{}", e);
            }
            (a, b) => prop_assert!(false, "ndarray {:?} vs ours {:?} for {:?}", a.map(|v| v.shape().to_vec()), b, info),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Reshape of (strided) views: whenever ndarray can reshape without copying, so can we, and
    /// whenever we succeed the elements are the ones ndarray's (possibly copied) result holds.
    #[test]
    fn reshape_matches_ndarray(shape in shape_strategy(), f: bool, seed: u64, ord in 0usize..3) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let (v, sl) = strided(&arr, &l, &mut rng);
        let request = random_shape_of(v.len(), &mut rng);
        let order = [Order::C, Order::F, Order::A][ord];
        let ours = sl.reshape(&request, order);
        let size_ok = {
            let known: usize = request.iter().filter(|&&d| d >= 0).map(|&d| d as usize).product();
            let unknown = request.iter().filter(|&&d| d < 0).count();
            if unknown == 0 { known == v.len() } else { known != 0 && v.len() % known == 0 }
        };
        if !size_ok {
            prop_assert!(matches!(ours, Err(Error::Shape(ShapeError::ReshapeSize { .. }))), "{:?}", ours);
            return Ok(());
        }
        let nd_order = match order.resolve(sl.is_c_contiguous(), sl.is_f_contiguous()) {
            Order::F => ndarray::Order::ColumnMajor,
            _ => ndarray::Order::RowMajor,
        };
        let resolved: Vec<usize> = {
            let known: usize = request.iter().filter(|&&d| d >= 0).map(|&d| d as usize).product();
            request.iter().map(|&d| if d < 0 { v.len() / known } else { d as usize }).collect()
        };
        let cow = v.to_shape((IxDyn(&resolved), nd_order)).unwrap();
        match ours {
            Ok(r) => assert_matches(&r, &cow.view(), cow.is_view(), arr.len() * 8)?,
            Err(e) => {
                prop_assert!(!cow.is_view() || v.is_empty(), "ndarray reshapes {:?} to {:?} as a view, we said {}", sl, resolved, e);
                prop_assert!(matches!(e, Error::NotContiguous(_)));
            }
        }
    }

    /// Transposes (any permutation, and `t()`) equal ndarray's `permuted_axes` / `reversed_axes`.
    #[test]
    fn transpose_matches_ndarray(shape in shape_strategy(), f: bool, seed: u64) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let (v, sl) = strided(&arr, &l, &mut rng);
        let mut perm: Vec<usize> = (0..v.ndim()).collect();
        for k in (1..perm.len()).rev() {
            perm.swap(k, rng.below(k + 1));
        }
        let p = sl.permuted_axes(&perm).unwrap();
        assert_matches(&p, &v.clone().permuted_axes(IxDyn(&perm)), true, arr.len() * 8)?;
        assert_matches(&sl.t(), &v.clone().reversed_axes(), true, arr.len() * 8)?;
        let mut bad = perm.clone();
        if !bad.is_empty() { bad[0] = v.ndim(); } else { bad.push(0); }
        prop_assert!(matches!(sl.permuted_axes(&bad), Err(Error::InvalidAxes(_))));
    }

    /// ravel succeeds exactly when the view is contiguous in that order, and yields the elements
    /// in that order; squeeze equals dropping the length-1 axes.
    #[test]
    fn ravel_and_squeeze_match_ndarray(shape in shape_strategy(), f: bool, seed: u64) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let (v, sl) = strided(&arr, &l, &mut rng);
        let c = v.is_standard_layout();
        let fc = v.t().is_standard_layout();
        for (order, ok, logical) in [
            (Order::C, c, v.iter().copied().collect::<Vec<_>>()),
            (Order::F, fc, v.t().iter().copied().collect()),
            (Order::A, c || fc, if c { v.iter().copied().collect() } else { v.t().iter().copied().collect() }),
        ] {
            match sl.ravel(order) {
                Ok(r) => {
                    prop_assert!(ok);
                    prop_assert_eq!(r.shape(), &[v.len()][..]);
                    prop_assert_eq!(values_via_runs(&r), logical);
                }
                Err(e) => {
                    prop_assert!(!ok);
                    prop_assert!(matches!(e, Error::NotContiguous(_)));
                }
            }
        }
        let mut sq = v.clone();
        for k in (0..sq.ndim()).rev() {
            if sq.shape()[k] == 1 {
                sq = sq.index_axis_move(Axis(k), 0);
            }
        }
        assert_matches(&sl.squeeze(None).unwrap(), &sq, true, arr.len() * 8)?;
    }

    /// empty_like: packed (fills `[0, nbytes)`), same shape, C/F when the source is, else the
    /// same axis order as the source.
    #[test]
    fn empty_like_packs(shape in shape_strategy(), f: bool, seed: u64) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let (_, sl) = strided(&arr, &l, &mut rng);
        let e = sl.empty_like();
        prop_assert_eq!(e.shape(), sl.shape());
        prop_assert_eq!(e.offset(), 0);
        prop_assert!(e.is_contiguous());
        prop_assert_eq!(e.alloc_extent(), (0, e.nbytes()));
        if sl.is_c_contiguous() || sl.ndim() <= 1 {
            prop_assert!(e.is_c_contiguous());
        } else if sl.is_f_contiguous() {
            prop_assert!(e.is_f_contiguous());
        }
        // Axes keep their relative stride order (for axes that matter).
        for i in 0..sl.ndim() {
            for j in 0..sl.ndim() {
                let (a, b) = (sl.strides()[i].unsigned_abs(), sl.strides()[j].unsigned_abs());
                if sl.shape()[i] > 1 && sl.shape()[j] > 1 && a < b && !(sl.is_c_contiguous() || sl.is_f_contiguous()) {
                    prop_assert!(e.strides()[i] < e.strides()[j]);
                }
            }
        }
    }

    /// view_as: a C-contiguous view seen with another item size reads the same bytes in the
    /// same order; otherwise the documented errors.
    #[test]
    fn view_as_keeps_the_bytes(shape in shape_strategy(), f: bool, seed: u64, k in 0usize..4) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let (_, sl) = strided(&arr, &l, &mut rng);
        let new = [1usize, 2, 4, 16][k];
        let bytes_of = |l: &Layout| -> Vec<(usize, usize)> {
            // (byte address, run len) flattened to individual byte addresses
            l.runs().iter().flat_map(|(o, n)| (o..o + n).map(|b| (b, 1))).collect()
        };
        match sl.view_as(new) {
            Ok(w) => {
                prop_assert!(sl.is_c_contiguous() && sl.ndim() > 0);
                prop_assert_eq!(w.nbytes(), sl.nbytes());
                prop_assert_eq!(bytes_of(&w), bytes_of(&sl));
                prop_assert_eq!(w.alloc_extent(), sl.alloc_extent());
            }
            Err(Error::NotContiguous(m)) => {
                prop_assert!(!sl.is_c_contiguous());
                prop_assert_eq!(m, "to change to a dtype of a different size, the array must be C-contiguous");
            }
            Err(Error::Shape(ShapeError::ViewOfScalar { .. })) => prop_assert!(sl.ndim() == 0),
            Err(Error::Shape(ShapeError::ViewSize { last_axis_bytes, .. })) => {
                prop_assert!(sl.ndim() > 0 && last_axis_bytes % new != 0);
                prop_assert_eq!(last_axis_bytes, sl.shape()[sl.ndim() - 1] * 8);
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }

    /// broadcast_to equals ndarray's `broadcast` (which follows numpy's rule).
    #[test]
    fn broadcast_matches_ndarray(shape in proptest::collection::vec(0usize..=3, 0..=3), target in proptest::collection::vec(0usize..=3, 0..=4), seed: u64) {
        let (arr, l) = base(&shape, false);
        let mut rng = Rng(seed);
        let (v, sl) = strided(&arr, &l, &mut rng);
        let ours = sl.broadcast_to(&target);
        match v.broadcast(IxDyn(&target)) {
            Some(b) => {
                let b = b.to_owned();
                let r = ours.map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(r.shape(), b.shape());
                for (idx, &val) in b.indexed_iter() {
                    let idx: Vec<usize> = (0..idx.ndim()).map(|k| idx[k]).collect();
                    prop_assert_eq!(elem_offset(&r, &idx), val * 8);
                }
            }
            None => prop_assert!(matches!(ours, Err(Error::Shape(ShapeError::Broadcast { .. } | ShapeError::BroadcastRank { .. }))), "{:?}", ours),
        }
    }

    /// Copy plans move exactly the elements of the source into the matching elements of the
    /// destination (checked by running the plan over byte buffers).
    #[test]
    fn copy_plans_move_the_right_elements(shape in shape_strategy(), f1: bool, f2: bool, seed: u64, kind in 0usize..3) {
        let kind = [CopyKind::HostToDevice, CopyKind::DeviceToHost, CopyKind::DeviceToDevice][kind];
        let (a, la) = base(&shape, f1);
        let mut rng = Rng(seed);
        let (va, sa) = strided(&a, &la, &mut rng);
        // Destination: a fresh array of the view's shape (C or F), sometimes with a length-1
        // axis inserted, or a strided view of the same shape.
        let (b, lb) = base(va.shape(), f2);
        let (dst_l, dst_v) = if rng.below(3) == 0 {
            (lb.slice(s![NewAxis]).unwrap(), b.view().insert_axis(Axis(0)))
        } else {
            (lb.clone(), b.view())
        };
        let d = i64::DTYPE;
        match check_copy(&dst_l, &d, &sa, &d, kind) {
            Ok(plan) => {
                let src_mem: Vec<i64> = (0..a.len() as i64).map(|x| x + 1000).collect();
                let mut dst_mem = vec![-1i64; b.len()];
                for (doff, soff, len) in plan.chunks() {
                    prop_assert!(len % 8 == 0 && doff % 8 == 0 && soff % 8 == 0);
                    for k in 0..len / 8 {
                        dst_mem[doff / 8 + k] = src_mem[soff / 8 + k];
                    }
                }
                prop_assert_eq!(plan.nbytes(), va.len() * 8);
                // Destination elements in logical order equal source elements in logical order.
                let got: Vec<i64> = dst_v.iter().map(|&pos| dst_mem[pos as usize]).collect();
                let want: Vec<i64> = va.iter().map(|&pos| pos + 1000).collect();
                prop_assert_eq!(got, want);
            }
            Err(Error::IncompatibleStrides { .. }) => prop_assert!(kind == CopyKind::DeviceToDevice),
            Err(Error::Strides(StridesError::NegativeToHost { .. })) => {
                prop_assert!(kind == CopyKind::DeviceToHost);
                prop_assert!(sa.shape().iter().zip(sa.strides()).any(|(&n, &s)| n > 1 && s < 0));
            }
            Err(e) => prop_assert!(false, "{} for dst {:?} src {:?}", e, dst_l, sa),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Chains of operations (slice, reshape, transpose, squeeze) keep matching ndarray's logical
    /// result (elements compared; ndarray may have copied where we kept a view).
    #[test]
    fn operation_chains_match_ndarray(shape in shape_strategy(), f: bool, seed: u64, steps in 1usize..5) {
        let (arr, l) = base(&shape, f);
        let mut rng = Rng(seed);
        let mut cur: ArrayD<i64> = arr.clone();
        let mut lay = l;
        for _ in 0..steps {
            match rng.below(4) {
                0 => {
                    let info = random_slice(cur.shape(), &mut rng);
                    match (nd_slice(&cur.view(), &info), lay.slice(&info)) {
                        (Some(v), Ok(n)) => { cur = v.to_owned(); lay = n; }
                        (None, Err(_)) => {}
                        (a, b) => prop_assert!(false, "{:?} vs {:?}", a.map(|v| v.shape().to_vec()), b),
                    }
                }
                1 => {
                    let req = random_shape_of(cur.len(), &mut rng);
                    if let Ok(n) = lay.reshape(&req, Order::C) {
                        cur = cur.to_shape((IxDyn(n.shape()), ndarray::Order::RowMajor)).unwrap().to_owned();
                        lay = n;
                    }
                }
                2 => {
                    let mut perm: Vec<usize> = (0..cur.ndim()).collect();
                    for k in (1..perm.len()).rev() { perm.swap(k, rng.below(k + 1)); }
                    lay = lay.permuted_axes(&perm).unwrap();
                    cur = cur.permuted_axes(IxDyn(&perm));
                }
                _ => {
                    lay = lay.squeeze(None).unwrap();
                    let mut v = cur.view();
                    for k in (0..v.ndim()).rev() {
                        if v.shape()[k] == 1 {
                            v = v.index_axis_move(Axis(k), 0);
                        }
                    }
                    let next = v.to_owned();
                    cur = next;
                }
            }
            prop_assert_eq!(lay.shape(), cur.shape());
            for (idx, &val) in cur.indexed_iter() {
                let idx: Vec<usize> = (0..idx.ndim()).map(|k| idx[k]).collect();
                prop_assert_eq!(elem_offset(&lay, &idx), val * 8);
            }
            prop_assert_eq!(values_via_runs(&lay), cur.iter().copied().collect::<Vec<_>>());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// robustness: arbitrary (often invalid) input never panics

fn wild_stride(rng: &mut Rng) -> isize {
    match rng.below(8) {
        0 => 0,
        1 => isize::MAX,
        2 => isize::MIN,
        3 => rng.range(-5, 5) * (1 << 40),
        _ => rng.range(-6, 6) * 8,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Layouts from explicit strides, then every operation with random arguments: results are
    /// values or typed errors, never panics, and every layout produced stays inside the
    /// allocation.
    #[test]
    fn arbitrary_input_never_panics(shape in proptest::collection::vec(0usize..=5, 0..=4), seed: u64) {
        let mut rng = Rng(seed);
        let strides: Vec<isize> = (0..shape.len() + usize::from(rng.below(10) == 0)).map(|_| wild_stride(&mut rng)).collect();
        let offset = if rng.below(10) == 0 { usize::MAX - rng.below(3) } else { rng.below(64) * 8 };
        let alloc = if rng.below(10) == 0 { usize::MAX } else { rng.below(4096) };
        let Ok(l) = Layout::with_strides(&shape, &strides, offset, &f64::DTYPE, alloc) else {
            return Ok(());
        };
        let inside = |x: &Layout| {
            let (lo, hi) = x.alloc_extent();
            x.size() == 0 || (lo <= hi && hi <= alloc)
        };
        prop_assert!(inside(&l));
        let mut outs = vec![];
        for _ in 0..6 {
            let info = random_slice(l.shape(), &mut rng);
            outs.push(l.slice(&info));
            outs.push(l.slice_clipped(&info));
        }
        let req: Vec<isize> = (0..rng.below(4))
            .map(|_| {
                let scale = if rng.below(9) == 0 { isize::MAX / 3 } else { 1 };
                rng.range(-2, 7).saturating_mul(scale)
            })
            .collect();
        for o in [Order::C, Order::F, Order::A] {
            outs.push(l.reshape(&req, o));
            outs.push(l.ravel(o));
        }
        outs.push(l.view_as(1 + rng.below(20)));
        let axes: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(5)).collect();
        outs.push(l.permuted_axes(&axes));
        outs.push(l.squeeze(Some(rng.below(5))));
        outs.push(l.squeeze(None));
        outs.push(l.index_axis(rng.below(5), rng.range(-7, 7)));
        let target: Vec<usize> = (0..rng.below(5)).map(|_| if rng.below(9) == 0 { usize::MAX / 2 } else { rng.below(6) }).collect();
        outs.push(l.broadcast_to(&target));
        outs.extend(l.split(rng.below(4)).into_iter().flatten().map(Ok));
        let fresh = l.empty_like();
        prop_assert_eq!(fresh.alloc_extent(), (0, fresh.nbytes()));
        outs.push(Ok(l.t()));
        for r in outs.into_iter().flatten() {
            prop_assert!(inside(&r), "{:?} from {:?}", r, l);
            let _ = r.runs().iter().take(100).count();
            let _ = r.index_offset(&vec![rng.range(-3, 3); r.ndim()]);
            let d = f64::DTYPE;
            for k in [CopyKind::HostToDevice, CopyKind::DeviceToHost, CopyKind::DeviceToDevice] {
                if let Ok(p) = check_copy(&r, &d, &l, &d, k) {
                    let _ = p.chunks().take(100).count();
                }
            }
        }
    }
}
