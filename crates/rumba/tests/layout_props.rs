//! Property tests of `rumba::array` layout arithmetic against `ndarray` as the oracle, plus the
//! SPEC / Numba issue cases ported as fixed tests.
//!
//! Base arrays hold `arange(n)` as `i64` in C or F memory order, so the value of every element
//! is its position in memory: a layout is right exactly when, for every multi-index, the byte
//! offset `offset + Σ idx·stride` equals `8 × value` of ndarray's element at that index.

use ndarray::{
    ArrayD, ArrayViewD, Axis, Dimension, IxDyn, NewAxis, ShapeBuilder, SliceInfo, SliceInfoElem, s,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rumba::Error;
use rumba::array::element::Element;
use rumba::array::{CopyKind, Layout, Order, check_copy};
use std::panic::{AssertUnwindSafe, catch_unwind};

type TestResult = Result<(), TestCaseError>;

// ---------------------------------------------------------------------------------------------
// helpers

/// `arange(n)` of `shape` in C or F memory order, and the matching rumba layout.
fn base(shape: &[usize], f: bool) -> (ArrayD<i64>, Layout) {
    let n: usize = shape.iter().product();
    let data: Vec<i64> = (0..n as i64).collect();
    let arr = if f {
        ArrayD::from_shape_vec(IxDyn(shape).f(), data)
    } else {
        ArrayD::from_shape_vec(IxDyn(shape), data)
    }
    .unwrap();
    let order = if f { Order::F } else { Order::C };
    (arr, Layout::new(shape, order, 8).unwrap())
}

/// Silences panic messages that come from inside ndarray (we provoke them on purpose to learn
/// where ndarray refuses a slice); every other panic is reported as usual.
fn quiet_ndarray_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let from_ndarray = info
                .location()
                .is_some_and(|l| l.file().contains("ndarray"));
            if !from_ndarray {
                default(info);
            }
        }));
    });
}

/// ndarray's slice, or `None` where ndarray panics.
fn nd_slice<'a>(v: &ArrayViewD<'a, i64>, info: &[SliceInfoElem]) -> Option<ArrayViewD<'a, i64>> {
    quiet_ndarray_panics();
    let info = SliceInfo::<Vec<SliceInfoElem>, IxDyn, IxDyn>::try_from(info.to_vec()).ok()?;
    let v = v.clone();
    catch_unwind(AssertUnwindSafe(move || v.slice_move(info))).ok()
}

/// Element offset of `idx` in `l`.
fn elem_offset(l: &Layout, idx: &[usize]) -> i64 {
    (l.offset() as isize
        + idx
            .iter()
            .zip(l.strides())
            .map(|(&i, &s)| i as isize * s)
            .sum::<isize>()) as i64
}

/// Values read through `l` from the arange base, in C index order.
fn values_via_runs(l: &Layout) -> Vec<i64> {
    let mut out = Vec::with_capacity(l.size());
    for (off, len) in l.runs().iter() {
        for k in 0..len / 8 {
            out.push(((off + 8 * k) / 8) as i64);
        }
    }
    out
}

/// Checks `l` against ndarray's `v` (values are memory positions; see the file docs).
fn assert_matches(
    l: &Layout,
    v: &ArrayViewD<i64>,
    strides_too: bool,
    base_bytes: usize,
) -> TestResult {
    prop_assert_eq!(l.shape(), v.shape());
    prop_assert_eq!(l.size(), v.len());
    prop_assert_eq!(l.nbytes(), v.len() * 8);
    if strides_too && !v.is_empty() {
        for k in 0..v.ndim() {
            if v.shape()[k] > 1 {
                prop_assert_eq!(l.strides()[k], v.strides()[k] * 8, "axis {}", k);
            }
        }
        prop_assert_eq!(l.is_c_contiguous(), v.is_standard_layout());
        prop_assert_eq!(l.is_f_contiguous(), v.t().is_standard_layout());
    }
    for (idx, &val) in v.indexed_iter() {
        let idx: Vec<usize> = (0..idx.ndim()).map(|k| idx[k]).collect();
        prop_assert_eq!(elem_offset(l, &idx), val * 8, "at {:?}", idx);
        let signed: Vec<isize> = idx.iter().map(|&i| i as isize).collect();
        prop_assert_eq!(l.index_offset(&signed).unwrap() as i64, val * 8);
    }
    let (lo, hi) = l.alloc_extent();
    prop_assert!(lo <= hi && hi <= base_bytes.max(l.offset()));
    if !v.is_empty() {
        let min = v.iter().min().copied().unwrap_or(0) as usize * 8;
        let max = v.iter().max().copied().unwrap_or(0) as usize * 8 + 8;
        prop_assert_eq!((lo, hi), (min, max));
    }
    prop_assert_eq!(values_via_runs(l), v.iter().copied().collect::<Vec<_>>());
    Ok(())
}

/// A small deterministic generator driven by proptest's seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, lo: isize, hi_incl: isize) -> isize {
        lo + self.below((hi_incl - lo + 1) as usize) as isize
    }
}

/// A random `s![..]` for `shape`: one entry per axis (indices, ranges with steps of either sign,
/// bounds sometimes out of range) and occasional `NewAxis`.
fn random_slice(shape: &[usize], rng: &mut Rng) -> Vec<SliceInfoElem> {
    let mut info = Vec::new();
    for &n in shape {
        let n = n as isize;
        if rng.below(8) == 0 {
            info.push(SliceInfoElem::NewAxis);
        }
        match rng.below(10) {
            0 | 1 => info.push(SliceInfoElem::Index(rng.range(-n - 1, n))),
            _ => {
                let start = if rng.below(3) == 0 {
                    0
                } else {
                    rng.range(-n - 2, n + 2)
                };
                let end = if rng.below(3) == 0 {
                    None
                } else {
                    Some(rng.range(-n - 2, n + 2))
                };
                let step = [-3, -2, -1, 1, 1, 1, 2, 3][rng.below(8)];
                info.push(SliceInfoElem::Slice { start, end, step });
            }
        }
    }
    if rng.below(8) == 0 {
        info.push(SliceInfoElem::NewAxis);
    }
    info
}

/// A random shape of `size` elements (some axes 1), or, rarely, a wrong-size shape.
fn random_shape_of(size: usize, rng: &mut Rng) -> Vec<isize> {
    let ndim = rng.below(5);
    let mut out = Vec::new();
    let mut rest = size;
    for k in 0..ndim {
        if k + 1 == ndim {
            out.push(rest as isize);
            break;
        }
        let divisors: Vec<usize> = if rest == 0 {
            vec![0, 1, 2, 3]
        } else {
            (1..=rest).filter(|d| rest % d == 0).collect()
        };
        let d = divisors[rng.below(divisors.len())];
        out.push(d as isize);
        rest = rest.checked_div(d).unwrap_or(0);
        if d == 0 {
            rest = rng.below(4);
        }
    }
    if ndim == 0 && size != 1 {
        out.push(size as isize);
    }
    let n = out.len();
    if n > 0 && rng.below(4) == 0 {
        out[rng.below(n)] = -1;
    }
    if rng.below(10) == 0 {
        out.push(2 + rng.below(3) as isize);
    }
    out
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..=6, 0..=4)
}

/// A strided view of a base: random shape, order, then a random valid slice.
fn strided<'a>(arr: &'a ArrayD<i64>, l: &Layout, rng: &mut Rng) -> (ArrayViewD<'a, i64>, Layout) {
    for _ in 0..4 {
        let info = random_slice(arr.shape(), rng);
        if let (Some(v), Ok(sl)) = (nd_slice(&arr.view(), &info), l.slice(&info)) {
            return (v, sl);
        }
    }
    (arr.view(), l.clone())
}

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
                let typed = matches!(e, Error::IndexOutOfRange { .. } | Error::InvalidArgument(_));
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
            prop_assert!(matches!(ours, Err(Error::InvalidArgument(_))), "{:?}", ours);
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
            Err(Error::InvalidArgument(m)) => {
                prop_assert!(sl.ndim() == 0 || (sl.shape()[sl.ndim() - 1] * 8) % new != 0, "{}", m);
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
            None => prop_assert!(matches!(ours, Err(Error::InvalidArgument(_))), "{:?}", ours),
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
            Err(Error::Unsupported(_)) => {
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
