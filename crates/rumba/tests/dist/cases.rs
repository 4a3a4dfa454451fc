//! What the cases share: element types made from small integers, each rank's data as every
//! rank can compute it, and arrays that are contiguous or strided views.

use std::fmt::Debug;

use half::f16;
use ndarray::{Array1, Array2, Ix1, Ix2, s};
use num_complex::{Complex32, Complex64};
use rumba::DeviceArray;
use rumba::array::Element;

/// Element types the suite moves, made from small integers.
pub trait TestElem: Element + PartialEq + Debug {
    fn from_i(v: i64) -> Self;
}

macro_rules! ints {
    ($($t:ty),*) => {$(impl TestElem for $t { fn from_i(v: i64) -> Self { v as $t } })*};
}
ints!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl TestElem for f16 {
    fn from_i(v: i64) -> Self {
        f16::from_f32(v as f32)
    }
}
impl TestElem for Complex32 {
    fn from_i(v: i64) -> Self {
        Complex32::new(v as f32, (v % 2) as f32)
    }
}
impl TestElem for Complex64 {
    fn from_i(v: i64) -> Self {
        Complex64::new(v as f64, -((v % 2) as f64))
    }
}
impl TestElem for bool {
    fn from_i(v: i64) -> Self {
        v % 2 == 1
    }
}

/// Rank `rank`'s `n` values for a case (`salt` tells cases apart): small integers 1..=3, so
/// products over four ranks fit every integer type and every float sum is exact.
pub fn values<T: TestElem>(rank: usize, n: usize, salt: i64) -> Vec<T> {
    (0..n)
        .map(|i| T::from_i(((rank * 7 + i * 3) as i64 + salt).rem_euclid(3) + 1))
        .collect()
}

/// A device array holding `vals`: contiguous, or a strided view (every third element of a
/// larger array whose other elements hold a guard value).
pub struct Dev<T: TestElem> {
    pub view: DeviceArray<T, Ix1>,
    base: Option<DeviceArray<T, Ix2>>,
    guard: T,
}

impl<T: TestElem> Dev<T> {
    pub fn new(vals: &[T], strided: bool) -> Self {
        let guard = T::from_i(7);
        if !strided {
            let view = rumba::to_device(&Array1::from(vals.to_vec())).unwrap();
            return Dev {
                view,
                base: None,
                guard,
            };
        }
        let mut host = Array2::from_elem((vals.len(), 3), T::from_i(7));
        host.column_mut(1).assign(&Array1::from(vals.to_vec()));
        let base = rumba::to_device(&host).unwrap();
        let view = base.slice(s![.., 1]).unwrap();
        assert!(!view.is_c_contiguous() || vals.len() <= 1);
        Dev {
            view,
            base: Some(base),
            guard,
        }
    }

    /// The view's values; checks that no guard element was touched.
    pub fn get(&self) -> Result<Vec<T>, String> {
        if let Some(b) = &self.base {
            let h = b.copy_to_host().map_err(|e| e.to_string())?;
            for c in [0, 2] {
                if h.column(c).iter().any(|x| *x != self.guard) {
                    return Err(format!("a strided write touched column {c}"));
                }
            }
            return Ok(h.column(1).to_vec());
        }
        Ok(self
            .view
            .copy_to_host()
            .map_err(|e| e.to_string())?
            .to_vec())
    }
}

/// `Ok` when equal, else the first differing index.
pub fn expect_eq<T: PartialEq + Debug>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}: element {i} is {:?}, expected {:?}",
            got[i], want[i]
        )),
    }
}

/// Runs `f` once per element type the suite moves, with the type's name.
#[macro_export]
macro_rules! each_type {
    ($f:ident, $cases:expr) => {
        $f::<i8>($cases, "i8");
        $f::<u8>($cases, "u8");
        $f::<i16>($cases, "i16");
        $f::<u16>($cases, "u16");
        $f::<i32>($cases, "i32");
        $f::<u32>($cases, "u32");
        $f::<i64>($cases, "i64");
        $f::<u64>($cases, "u64");
        $f::<half::f16>($cases, "f16");
        $f::<f32>($cases, "f32");
        $f::<f64>($cases, "f64");
        $f::<num_complex::Complex32>($cases, "c64");
        $f::<num_complex::Complex64>($cases, "c128");
    };
}
