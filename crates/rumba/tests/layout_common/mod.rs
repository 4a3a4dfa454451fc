//! Helpers shared by the layout property tests and the fixed layout cases.
#![allow(dead_code, unused_imports)]

pub use ndarray::{
    ArrayD, ArrayViewD, Axis, Dimension, IxDyn, NewAxis, ShapeBuilder, SliceInfo, SliceInfoElem, s,
};
pub use proptest::prelude::*;
pub use proptest::test_runner::TestCaseError;
pub use rumba::Error;
pub use rumba::layout::element::Element;
pub use rumba::layout::{CopyKind, Layout, Order, check_copy};
pub use std::panic::{AssertUnwindSafe, catch_unwind};

pub type TestResult = Result<(), TestCaseError>;

// ---------------------------------------------------------------------------------------------
// helpers

/// `arange(n)` of `shape` in C or F memory order, and the matching rumba layout.
pub fn base(shape: &[usize], f: bool) -> (ArrayD<i64>, Layout) {
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
pub fn quiet_ndarray_panics() {
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
pub fn nd_slice<'a>(
    v: &ArrayViewD<'a, i64>,
    info: &[SliceInfoElem],
) -> Option<ArrayViewD<'a, i64>> {
    quiet_ndarray_panics();
    let info = SliceInfo::<Vec<SliceInfoElem>, IxDyn, IxDyn>::try_from(info.to_vec()).ok()?;
    let v = v.clone();
    catch_unwind(AssertUnwindSafe(move || v.slice_move(info))).ok()
}

/// Element offset of `idx` in `l`.
pub fn elem_offset(l: &Layout, idx: &[usize]) -> i64 {
    (l.offset() as isize
        + idx
            .iter()
            .zip(l.strides())
            .map(|(&i, &s)| i as isize * s)
            .sum::<isize>()) as i64
}

/// Values read through `l` from the arange base, in C index order.
pub fn values_via_runs(l: &Layout) -> Vec<i64> {
    let mut out = Vec::with_capacity(l.size());
    for (off, len) in l.runs().iter() {
        for k in 0..len / 8 {
            out.push(((off + 8 * k) / 8) as i64);
        }
    }
    out
}

/// Checks `l` against ndarray's `v` (values are memory positions; see the file docs).
pub fn assert_matches(
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
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn range(&mut self, lo: isize, hi_incl: isize) -> isize {
        lo + self.below((hi_incl - lo + 1) as usize) as isize
    }
}

/// A random `s![..]` for `shape`: one entry per axis (indices, ranges with steps of either sign,
/// bounds sometimes out of range) and occasional `NewAxis`.
pub fn random_slice(shape: &[usize], rng: &mut Rng) -> Vec<SliceInfoElem> {
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
pub fn random_shape_of(size: usize, rng: &mut Rng) -> Vec<isize> {
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

pub fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..=6, 0..=4)
}

/// A strided view of a base: random shape, order, then a random valid slice.
pub fn strided<'a>(
    arr: &'a ArrayD<i64>,
    l: &Layout,
    rng: &mut Rng,
) -> (ArrayViewD<'a, i64>, Layout) {
    for _ in 0..4 {
        let info = random_slice(arr.shape(), rng);
        if let (Some(v), Ok(sl)) = (nd_slice(&arr.view(), &info), l.slice(&info)) {
            return (v, sl);
        }
    }
    (arr.view(), l.clone())
}
