//! Shapes, n-d indices and Python-style slices: the pure layout arithmetic behind
//! [`View`](super::View). No memory, no execution; touches nothing else.

use std::fmt;
use std::ops::{Range, RangeFrom, RangeFull, RangeTo};

/// The most dimensions a view can have.
///
/// ```
/// assert_eq!(rumba::kernel::MAX_DIMS, 8);
/// ```
pub const MAX_DIMS: usize = 8;

/// A shape of up to [`MAX_DIMS`] dimensions, stored inline (no allocation).
///
/// ```
/// use rumba::kernel::IntoShape;
/// let d = (2, 3, 4).into_dims();
/// assert_eq!(d.as_slice(), &[2, 3, 4]);
/// assert_eq!(d.size(), Some(24));
/// assert_eq!(d.to_string(), "(2, 3, 4)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    len: usize,
    vals: [usize; MAX_DIMS],
}

impl Dims {
    /// Builds dims from a slice, or `None` if it has more than [`MAX_DIMS`] entries.
    ///
    /// ```
    /// assert!(rumba::kernel::Dims::from_slice(&[1; 9]).is_none());
    /// ```
    pub fn from_slice(s: &[usize]) -> Option<Dims> {
        if s.len() > MAX_DIMS {
            return None;
        }
        let mut vals = [0; MAX_DIMS];
        vals[..s.len()].copy_from_slice(s);
        Some(Dims { len: s.len(), vals })
    }

    /// The dimensions as a slice.
    ///
    /// ```
    /// use rumba::kernel::IntoShape;
    /// assert_eq!(5.into_dims().as_slice(), &[5]);
    /// ```
    pub fn as_slice(&self) -> &[usize] {
        &self.vals[..self.len]
    }

    /// The number of dimensions and the inline array (entries past it are zero).
    #[inline(always)]
    pub(crate) fn raw(&self) -> (usize, [usize; MAX_DIMS]) {
        (self.len, self.vals)
    }

    /// Whether `self` and `other` are the same shape, branch-free and without a `memcmp` call
    /// (unused entries are zero in both).
    #[inline(always)]
    pub(crate) fn same_as(&self, other: &Dims) -> bool {
        let diff = (0..MAX_DIMS).fold(self.len ^ other.len, |d, k| {
            d | (self.vals[k] ^ other.vals[k])
        });
        diff == 0
    }

    /// The product of the dimensions, or `None` on overflow.
    ///
    /// ```
    /// use rumba::kernel::IntoShape;
    /// assert_eq!((usize::MAX, 2).into_dims().size(), None);
    /// ```
    pub fn size(&self) -> Option<usize> {
        self.as_slice()
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::error::format_shape(self.as_slice()))
    }
}

impl fmt::Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Something usable as an array shape: `usize`, `()` (0-d), tuples of up to six `usize`,
/// `[usize; N]`.
///
/// ```
/// use rumba::kernel::IntoShape;
/// assert_eq!([2, 3].into_dims().as_slice(), &[2, 3]);
/// ```
pub trait IntoShape {
    /// The shape as [`Dims`].
    fn into_dims(self) -> Dims;
}

/// Something usable as an n-d index: `usize`, `()` (the element of a 0-d array), tuples of up to
/// six `usize`, `[usize; N]`.
///
/// ```
/// use rumba::kernel::NdIndex;
/// // Element (1, 2) of a C-ordered 2x3 array of 4-byte elements is 20 bytes in.
/// assert_eq!((1, 2).byte_offset(&[2, 3], &[12, 4]), Some(20));
/// assert_eq!((2, 0).byte_offset(&[2, 3], &[12, 4]), None);
/// ```
pub trait NdIndex: Copy {
    /// The byte offset of this index for `shape` / byte `strides`, or `None` if the index has
    /// the wrong number of components or is out of bounds.
    fn byte_offset(self, shape: &[usize], strides: &[isize]) -> Option<isize>;
    /// The index components, for messages.
    fn components(self) -> Dims;
}

impl IntoShape for Dims {
    fn into_dims(self) -> Dims {
        self
    }
}

impl IntoShape for usize {
    fn into_dims(self) -> Dims {
        [self].into_dims()
    }
}

impl<const N: usize> IntoShape for [usize; N] {
    fn into_dims(self) -> Dims {
        const { assert!(N <= MAX_DIMS, "too many dimensions") };
        let mut vals = [0; MAX_DIMS];
        vals[..N].copy_from_slice(&self);
        Dims { len: N, vals }
    }
}

impl NdIndex for usize {
    #[inline(always)]
    fn byte_offset(self, shape: &[usize], strides: &[isize]) -> Option<isize> {
        match (shape, strides) {
            ([n], [s]) if self < *n => Some(self as isize * *s),
            _ => None,
        }
    }
    fn components(self) -> Dims {
        [self].into_dims()
    }
}

impl<const N: usize> NdIndex for [usize; N] {
    #[inline(always)]
    fn byte_offset(self, shape: &[usize], strides: &[isize]) -> Option<isize> {
        if shape.len() != N {
            return None;
        }
        let mut off = 0isize;
        for k in 0..N {
            if self[k] >= shape[k] {
                return None;
            }
            off += self[k] as isize * strides[k];
        }
        Some(off)
    }
    fn components(self) -> Dims {
        self.into_dims()
    }
}

macro_rules! usize_of {
    ($x:ident) => {
        usize
    };
}

macro_rules! tuple_shapes {
    ($(($($t:ident),+) => $n:literal),+ $(,)?) => {$(
        impl IntoShape for ($(usize_of!($t),)+) {
                        fn into_dims(self) -> Dims {
                let ($($t,)+) = self;
                [$($t),+].into_dims()
            }
        }
        impl NdIndex for ($(usize_of!($t),)+) {
            #[inline(always)]
                        fn byte_offset(self, shape: &[usize], strides: &[isize]) -> Option<isize> {
                let ($($t,)+) = self;
                <[usize; $n] as NdIndex>::byte_offset([$($t),+], shape, strides)
            }
                        fn components(self) -> Dims {
                let ($($t,)+) = self;
                [$($t),+].into_dims()
            }
        }
    )+};
}

tuple_shapes!(
    (a) => 1,
    (a, b) => 2,
    (a, b, c) => 3,
    (a, b, c, d) => 4,
    (a, b, c, d, e) => 5,
    (a, b, c, d, e, f) => 6,
);

/// The shape of a 0-d array (one element).
impl IntoShape for () {
    fn into_dims(self) -> Dims {
        [0usize; 0].into_dims()
    }
}

/// The index of a 0-d array's one element (`x[()]`).
impl NdIndex for () {
    #[inline(always)]
    fn byte_offset(self, shape: &[usize], _strides: &[isize]) -> Option<isize> {
        shape.is_empty().then_some(0)
    }
    fn components(self) -> Dims {
        [0usize; 0].into_dims()
    }
}

/// A Python-style slice `start:stop:step` of one axis; negative `start`/`stop` count from the
/// end, `None` means "from the beginning / to the end" in the direction of `step`.
///
/// ```
/// use rumba::kernel::Slice;
/// assert_eq!(Slice::from(1..3).resolve(5), (1, 2));          // [1:3]
/// assert_eq!(Slice::new(None, None, 2).resolve(6), (0, 3));  // [::2]
/// assert_eq!(Slice::new(Some(-1), None, -2).resolve(6), (5, 3)); // [-1::-2]
/// assert_eq!(Slice::new(Some(3), Some(1), -1).resolve(4), (3, 2)); // [3:1:-1]
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    /// First index (inclusive).
    pub start: Option<isize>,
    /// Last index (exclusive).
    pub stop: Option<isize>,
    /// Step; must not be 0.
    pub step: isize,
}

impl Slice {
    /// `start:stop:step`.
    ///
    /// ```
    /// let s = rumba::kernel::Slice::new(Some(1), None, -1); // [1::-1]
    /// assert_eq!(s.resolve(4), (1, 2));
    /// ```
    pub const fn new(start: Option<isize>, stop: Option<isize>, step: isize) -> Self {
        Slice { start, stop, step }
    }

    /// The same slice with another step.
    ///
    /// ```
    /// use rumba::kernel::Slice;
    /// assert_eq!(Slice::from(..).step_by(2), Slice::new(None, None, 2));
    /// ```
    pub const fn step_by(mut self, step: isize) -> Self {
        self.step = step;
        self
    }

    /// The first index and the number of elements this slice selects from an axis of length
    /// `len`, with Python's clamping rules. `step` must not be 0 (a zero step selects nothing).
    ///
    /// ```
    /// assert_eq!(rumba::kernel::Slice::from(-2..).resolve(5), (3, 2));
    /// ```
    pub fn resolve(&self, len: usize) -> (isize, usize) {
        let n = len as isize;
        let step = self.step;
        if step > 0 {
            let clamp = |i: isize| if i < 0 { (i + n).max(0) } else { i.min(n) };
            let start = self.start.map_or(0, clamp);
            let stop = self.stop.map_or(n, clamp);
            let count = if stop > start {
                (stop - start + step - 1) / step
            } else {
                0
            };
            (start, count as usize)
        } else if step < 0 {
            let clamp = |i: isize| if i < 0 { (i + n).max(-1) } else { i.min(n - 1) };
            let start = self.start.map_or(n - 1, clamp);
            let stop = self.stop.map_or(-1, clamp);
            let count = if start > stop {
                (start - stop - step - 1) / -step
            } else {
                0
            };
            (start, count as usize)
        } else {
            (0, 0)
        }
    }
}

/// One component of an n-d slice ([`View::slice_nd`](super::View::slice_nd), NumPy's
/// `a[i, 1:3, ::2]`): an integer index, which drops its axis (negative counts from the end), or
/// a [`Slice`] of the axis.
///
/// ```
/// use rumba::kernel::{Slice, SliceArg};
/// let s = [SliceArg::Index(-1), SliceArg::Range(Slice::from(1..3))];
/// assert_eq!(s[0], SliceArg::Index(-1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceArg {
    /// `i`: the sub-array at index `i` of the axis, which is dropped.
    Index(isize),
    /// `start:stop:step` of the axis.
    Range(Slice),
}

impl From<Range<isize>> for Slice {
    fn from(r: Range<isize>) -> Self {
        Slice::new(Some(r.start), Some(r.end), 1)
    }
}
impl From<RangeFrom<isize>> for Slice {
    fn from(r: RangeFrom<isize>) -> Self {
        Slice::new(Some(r.start), None, 1)
    }
}
impl From<RangeTo<isize>> for Slice {
    fn from(r: RangeTo<isize>) -> Self {
        Slice::new(None, Some(r.end), 1)
    }
}
impl From<RangeFull> for Slice {
    fn from(_: RangeFull) -> Self {
        Slice::new(None, None, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_slices() {
        let py = |s: Slice, n: usize| {
            let (start, count) = s.resolve(n);
            (0..count as isize)
                .map(|i| start + i * s.step)
                .collect::<Vec<_>>()
        };
        assert_eq!(py(Slice::from(0..2), 4), [0, 1]);
        assert_eq!(py(Slice::new(Some(1), None, -1), 4), [1, 0]);
        assert_eq!(py(Slice::new(Some(3), Some(1), -1), 4), [3, 2]);
        assert_eq!(py(Slice::from(..).step_by(2), 6), [0, 2, 4]);
        assert_eq!(py(Slice::new(Some(-1), None, -2), 6), [5, 3, 1]);
        assert_eq!(py(Slice::from(-100..100), 3), [0, 1, 2]);
        assert_eq!(py(Slice::new(Some(100), Some(-100), -1), 3), [2, 1, 0]);
        assert_eq!(py(Slice::new(Some(2), Some(1), 1), 3), Vec::<isize>::new());
        assert_eq!(py(Slice::from(..), 0), Vec::<isize>::new());
    }
}
