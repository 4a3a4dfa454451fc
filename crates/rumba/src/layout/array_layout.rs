//! [`Layout`]: where the elements of an n-d array sit inside one allocation.
//!
//! A layout is a shape, one **byte** stride per axis (negative and zero allowed), the byte offset
//! of the logically first element from the start of the allocation, and the element size. It is
//! pure arithmetic: no device, no memory. Typed arrays (`DeviceArray<T, D>`) keep a `Layout` and
//! convert ndarray's `D` to and from it with [`Layout::from_dim`] and [`Layout::into_dim`]
//! (in [`dim`](super::dim)).
//!
//! # Invariants
//! Every `Layout` value, however it was made, satisfies:
//! - `itemsize > 0` and `strides.len() == shape.len()`;
//! - `size × itemsize` fits in `isize`;
//! - the packed strides of its shape (zero lengths counted as 1) fit in `isize`;
//! - every byte the layout touches lies in `[0, isize::MAX]` relative to the allocation start:
//!   the offset plus the most negative reach of negative strides is `>= 0`, and no address
//!   computation overflows. So [`Layout::alloc_extent`] never underflows. For an empty layout
//!   this holds as if its length-0 axes had length 1, so slicing it never moves the offset
//!   out of range either.
//!
//! Strides of axes whose length is 0 or 1 are never used to address anything, and operations do
//! not normalise them (ndarray zeroes them after slicing; we keep the parent's stride, numpy
//! would multiply it by the step) — the difference is invisible to every element offset, to
//! contiguity and to copy checks, which all ignore such axes.
//!
//! This file holds the type, constructors, attributes and contiguity. Slicing lives in
//! [`slice`](super::slice), reshape/ravel/view in [`reshape`](super::reshape), axis permutation
//! and squeeze in [`axes`](super::axes), broadcasting in [`broadcast`](super::broadcast), byte runs
//! in [`runs`](super::runs) and copy checks in [`copy`](super::copy).
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::element::DType;
use super::extent::{contiguous, extent, normalize_index, reach};
use super::order::Order;
use crate::error::{Error, Result};
use crate::error::{ShapeError, StridesError};

/// Shape, byte strides, byte offset and element size of an n-d array over one allocation.
///
/// ```
/// use rumba::layout::{Layout, Order};
/// let l = Layout::new(&[2, 3], Order::C, 8).unwrap();
/// assert_eq!(l.shape(), &[2, 3]);
/// assert_eq!(l.strides(), &[24, 8]);
/// assert_eq!((l.ndim(), l.size(), l.nbytes(), l.offset()), (2, 6, 48, 0));
/// assert!(l.is_c_contiguous() && !l.is_f_contiguous());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(super) shape: Vec<usize>,
    pub(super) strides: Vec<isize>,
    pub(super) offset: usize,
    pub(super) itemsize: usize,
}

/// Product of the lengths, or `None` on overflow.
fn checked_size(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n))
}

/// Byte strides of a packed array of `shape` in `order` (numpy's: zero lengths count as 1).
/// The caller has checked that the size fits.
pub(super) fn packed_strides(shape: &[usize], order: Order, itemsize: usize) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = itemsize as isize;
    let mut set = |i: usize| {
        strides[i] = acc;
        acc = acc.saturating_mul(shape[i].max(1) as isize);
    };
    match order {
        Order::F => (0..shape.len()).for_each(&mut set),
        Order::C | Order::A => (0..shape.len()).rev().for_each(&mut set),
    }
    strides
}

fn too_big(shape: &[usize], itemsize: usize) -> Error {
    ShapeError::TooLarge {
        shape: shape.to_vec(),
        itemsize,
    }
    .into()
}

impl Layout {
    /// Checks the size invariants and builds a packed layout in `order` at offset 0.
    fn packed(shape: &[usize], order: Order, itemsize: usize) -> Result<Layout> {
        if itemsize == 0 {
            return Err(ShapeError::ZeroItemsize.into());
        }
        let nbytes = checked_size(shape)
            .and_then(|s| s.checked_mul(itemsize))
            .ok_or_else(|| too_big(shape, itemsize))?;
        // Strides are computed with zero lengths counted as 1; that product must fit too.
        let span = shape
            .iter()
            .try_fold(itemsize, |acc, &n| acc.checked_mul(n.max(1)));
        match span {
            Some(s) if s <= isize::MAX as usize && nbytes <= isize::MAX as usize => Ok(Layout {
                shape: shape.to_vec(),
                strides: packed_strides(shape, order, itemsize),
                offset: 0,
                itemsize,
            }),
            _ => Err(too_big(shape, itemsize)),
        }
    }

    /// A packed C-order (row-major) layout at offset 0.
    ///
    /// Errors: itemsize 0, or a size that overflows the address space ([`Error::Shape`]).
    ///
    /// # Errors
    /// [`Error::Shape`] when `itemsize` is 0 or the byte size overflows.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// assert_eq!(Layout::c_order(&[2, 3, 4], 4).unwrap().strides(), &[48, 16, 4]);
    /// assert!(Layout::c_order(&[usize::MAX, 2], 1).is_err());
    /// ```
    pub fn c_order(shape: &[usize], itemsize: usize) -> Result<Layout> {
        Layout::packed(shape, Order::C, itemsize)
    }

    /// A packed F-order (column-major) layout at offset 0.
    ///
    /// # Errors
    /// [`Error::Shape`] when `itemsize` is 0 or the byte size overflows.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// assert_eq!(Layout::f_order(&[2, 3, 4], 4).unwrap().strides(), &[4, 8, 24]);
    /// ```
    pub fn f_order(shape: &[usize], itemsize: usize) -> Result<Layout> {
        Layout::packed(shape, Order::F, itemsize)
    }

    /// The same elements seen as one field of each: the shape and strides stay, the first element
    /// moves `byte_offset` bytes into the record and each element is `itemsize` bytes (the
    /// caller checked that the field lies inside the record).
    ///
    /// ```
    /// use rumba::layout::{Layout, Order};
    /// let records = Layout::new(&[3], Order::C, 8).unwrap();     // 3 records of 8 bytes
    /// let y = records.field(4, 4);                              // their second f32
    /// assert_eq!((y.shape(), y.strides(), y.offset(), y.itemsize()), (&[3][..], &[8][..], 4, 4));
    /// ```
    pub fn field(&self, byte_offset: usize, itemsize: usize) -> Layout {
        Layout {
            shape: self.shape.clone(),
            strides: self.strides.clone(),
            offset: self.offset + byte_offset,
            itemsize,
        }
    }

    /// A 0-d layout of one element of this layout's size at byte `offset` (an offset this layout
    /// computed, for example by [`index_offset`](Self::index_offset)).
    ///
    /// ```
    /// use rumba::layout::{Layout, Order};
    /// let l = Layout::new(&[2, 3], Order::C, 4).unwrap();
    /// let one = l.element_at(l.index_offset(&[1, -1]).unwrap());
    /// assert_eq!((one.ndim(), one.offset(), one.itemsize()), (0, 20, 4));
    /// ```
    pub fn element_at(&self, offset: usize) -> Layout {
        Layout {
            shape: Vec::new(),
            strides: Vec::new(),
            offset,
            itemsize: self.itemsize,
        }
    }

    /// A packed layout in `order` (`A` allocates in C order) at offset 0.
    ///
    /// Zero lengths count as 1 in the strides, as numpy does.
    ///
    /// # Errors
    /// [`Error::Shape`] when `itemsize` is 0 or the byte size overflows.
    ///
    /// ```
    /// use rumba::layout::{Layout, Order};
    /// assert_eq!(Layout::new(&[0, 3], Order::C, 8).unwrap().strides(), &[24, 8]);
    /// assert_eq!(Layout::new(&[], Order::F, 8).unwrap().size(), 1);
    /// ```
    pub fn new(shape: &[usize], order: Order, itemsize: usize) -> Result<Layout> {
        Layout::packed(shape, order, itemsize)
    }

    /// A 0-dimensional layout (one element) at offset 0.
    ///
    /// # Errors
    /// [`Error::Shape`] when `itemsize` is 0.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::scalar(4).unwrap();
    /// assert_eq!((l.ndim(), l.size(), l.nbytes()), (0, 1, 4));
    /// ```
    pub fn scalar(itemsize: usize) -> Result<Layout> {
        Layout::packed(&[], Order::C, itemsize)
    }

    /// A layout with explicit byte strides and offset, validated against an allocation of
    /// `alloc_len` bytes holding elements of `dtype`.
    ///
    /// Rules: one stride per axis; the offset and (unless the layout is empty) the stride of
    /// every axis longer than 1 are multiples of the element **alignment** (so every element is aligned; strides need not be
    /// multiples of the item size, as for a field of a record array); every byte of every element
    /// lies inside `[0, alloc_len)` (negative strides reach below the offset); nothing overflows.
    /// Zero strides are allowed (broadcast views). Failures are [`Error::Strides`] (or [`Error::Shape`] for the size).
    ///
    /// # Errors
    /// [`Error::Strides`] naming the case: `strides` of another length than `shape`
    /// ([`StridesError::Count`]), a stride or `offset` that is not a multiple of the element
    /// alignment ([`StridesError::Misaligned`]), elements reaching outside `alloc_len` bytes or an
    /// overflow of the reach ([`StridesError::OutOfAllocation`]); [`Error::Shape`] for a zero item
    /// size or a byte size that overflows.
    ///
    /// ```
    /// use rumba::layout::{Layout, element::Element};
    /// // A reversed view of 4 f64 in a 32-byte allocation: first element at byte 24.
    /// let l = Layout::with_strides(&[4], &[-8], 24, &f64::DTYPE, 32).unwrap();
    /// assert_eq!(l.alloc_extent(), (0, 32));
    /// assert!(Layout::with_strides(&[4], &[-8], 16, &f64::DTYPE, 32).is_err()); // reaches byte -8
    /// assert!(Layout::with_strides(&[4], &[12], 0, &f64::DTYPE, 64).is_err()); // misaligned
    /// ```
    pub fn with_strides(
        shape: &[usize],
        strides: &[isize],
        offset: usize,
        dtype: &DType,
        alloc_len: usize,
    ) -> Result<Layout> {
        let itemsize = dtype.itemsize();
        let align = dtype.align().max(1);
        if shape.len() != strides.len() {
            return Err(StridesError::Count {
                shape: shape.to_vec(),
                strides: strides.to_vec(),
            }
            .into());
        }
        // Size checks (and itemsize 0) as for a packed array.
        Layout::packed(shape, Order::C, itemsize)?;
        let empty = shape.contains(&0);
        let misaligned = offset % align != 0
            || (!empty
                && shape
                    .iter()
                    .zip(strides)
                    .any(|(&n, &s)| n > 1 && s.unsigned_abs() % align != 0));
        if misaligned {
            return Err(StridesError::Misaligned {
                offset,
                strides: strides.to_vec(),
                align,
                dtype: dtype.name(),
            }
            .into());
        }
        let outside = || StridesError::OutOfAllocation {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset,
            alloc_len,
        };
        let off = isize::try_from(offset).map_err(|_| outside())?;
        let (lo, hi) = reach(shape, strides, off, itemsize).ok_or_else(outside)?;
        // An empty layout needs only its offset inside the allocation (and no negative reach).
        let hi = if shape.contains(&0) { off } else { hi };
        if lo < 0 || hi as usize > alloc_len {
            return Err(outside().into());
        }
        Ok(Layout {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset,
            itemsize,
        })
    }

    /// A layout from parts the caller has derived from a valid layout of the same allocation
    /// (a record field's sub-array: one axis more, inside each record). Unchecked.
    pub(crate) fn from_parts(
        shape: Vec<usize>,
        strides: Vec<isize>,
        offset: usize,
        itemsize: usize,
    ) -> Layout {
        Layout {
            shape,
            strides,
            offset,
            itemsize,
        }
    }

    /// The layout of a host array (an ndarray view) given its shape and **element** strides, as
    /// ndarray reports them: byte strides are `stride × itemsize` and the offset is the distance
    /// from the lowest-addressed element to the logically first one (nonzero only with negative
    /// strides). So `view.as_ptr() - offset` is the start of the memory the view spans.
    ///
    /// # Errors
    /// [`Error::Strides`] when `elem_strides` has another length than `shape`
    /// ([`StridesError::Count`]) or the byte extent overflows ([`StridesError::Overflow`]).
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use rumba::layout::Layout;
    /// let a = Array2::<i32>::zeros((3, 4));
    /// let v = a.slice(s![.., ..;-2]);
    /// let l = Layout::from_elem_strides(v.shape(), v.strides(), 4).unwrap();
    /// assert_eq!(l.strides(), &[16, -8]);
    /// assert_eq!(l.offset(), 8);
    /// assert_eq!(l.alloc_extent(), (0, 44));
    /// ```
    pub fn from_elem_strides(
        shape: &[usize],
        elem_strides: &[isize],
        itemsize: usize,
    ) -> Result<Layout> {
        Layout::packed(shape, Order::C, itemsize)?;
        if shape.len() != elem_strides.len() {
            return Err(StridesError::Count {
                shape: shape.to_vec(),
                strides: elem_strides.to_vec(),
            }
            .into());
        }
        let overflow = || StridesError::Overflow {
            shape: shape.to_vec(),
            strides: elem_strides.to_vec(),
        };
        let mut strides = Vec::with_capacity(shape.len());
        for &s in elem_strides {
            strides.push(s.checked_mul(itemsize as isize).ok_or_else(overflow)?);
        }
        let mut offset = 0isize;
        for (&n, &s) in shape.iter().zip(&strides) {
            if s < 0 && n > 1 {
                let back = (n as isize - 1).checked_mul(s).ok_or_else(overflow)?;
                offset = offset.checked_sub(back).ok_or_else(overflow)?;
            }
        }
        reach(shape, &strides, offset, itemsize).ok_or_else(overflow)?;
        Ok(Layout {
            shape: shape.to_vec(),
            strides,
            offset: offset as usize,
            itemsize,
        })
    }

    /// A fresh packed layout (offset 0) for a new array "like" this one, by numpy's `empty_like`
    /// rule as Numba applies it: if this layout is C-contiguous, or ndim ≤ 1, C order; else if it
    /// is F-contiguous, F order; else the axes sorted by ascending stride magnitude (stable: ties
    /// keep axis order) get packed strides in that order, smallest first.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let f = Layout::f_order(&[2, 3], 8).unwrap();
    /// assert_eq!(f.empty_like().strides(), &[8, 16]);
    /// // Axes (1, 0, 2) of a C array: strides (4·3·…) sorted → packed in that permuted order.
    /// let p = Layout::c_order(&[2, 3, 4], 4).unwrap().permuted_axes(&[1, 0, 2]).unwrap();
    /// assert_eq!(p.empty_like().strides(), &[16, 48, 4]);
    /// ```
    pub fn empty_like(&self) -> Layout {
        let c = self.is_c_contiguous();
        let f = self.is_f_contiguous();
        // The size invariants hold for `self`, so packing the same shape cannot overflow.
        let mut out = Layout {
            shape: self.shape.clone(),
            strides: packed_strides(&self.shape, Order::C, self.itemsize),
            offset: 0,
            itemsize: self.itemsize,
        };
        if c || self.ndim() <= 1 {
            return out;
        }
        if f {
            out.strides = packed_strides(&self.shape, Order::F, self.itemsize);
            return out;
        }
        let mut perm: Vec<usize> = (0..self.ndim()).collect();
        perm.sort_by_key(|&i| self.strides[i].unsigned_abs());
        let mut acc = self.itemsize as isize;
        for &i in &perm {
            out.strides[i] = acc;
            acc = acc.saturating_mul(self.shape[i].max(1) as isize);
        }
        out
    }

    /// The shape.
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4], 1).unwrap().shape(), &[4]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Byte strides, one per axis.
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4, 2], 2).unwrap().strides(), &[4, 2]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// Byte offset of the logically first element from the start of the allocation.
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[10], 4).unwrap();
    /// assert_eq!(l.slice(s![3..]).unwrap().offset(), 12);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Size of one element in bytes.
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4], 2).unwrap().itemsize(), 2);
    /// ```
    pub fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// Number of axes.
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4, 1, 2], 2).unwrap().ndim(), 3);
    /// ```
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements (1 for a 0-d layout).
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4, 0], 2).unwrap().size(), 0);
    /// ```
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// `size × itemsize`: bytes of data the array holds (not the span it covers; see
    /// [`alloc_extent`](Layout::alloc_extent)).
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[4, 3], 2).unwrap().nbytes(), 24);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.size() * self.itemsize
    }

    /// The byte range `[lo, hi)` of the allocation the elements actually touch, accounting for
    /// negative strides; `(offset, offset)` when the layout has no element.
    /// `hi - lo` is Numba's `alloc_size`.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[4, 5], 8).unwrap();
    /// assert_eq!(l.alloc_extent(), (0, 160));
    /// assert_eq!(l.slice(s![1..3, ..;-2]).unwrap().alloc_extent(), (40, 120));
    /// ```
    pub fn alloc_extent(&self) -> (usize, usize) {
        let off = self.offset as isize;
        match extent(&self.shape, &self.strides, off, self.itemsize) {
            Some((lo, hi)) => (lo as usize, hi as usize),
            // Unreachable by the invariants; an empty range is the harmless answer.
            None => (self.offset, self.offset),
        }
    }

    /// `hi - lo` of [`alloc_extent`](Layout::alloc_extent): Numba's `alloc_size`.
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[10], 4).unwrap();
    /// assert_eq!(l.slice(s![..;3]).unwrap().alloc_size(), 9 * 4 + 4);
    /// ```
    pub fn alloc_size(&self) -> usize {
        let (lo, hi) = self.alloc_extent();
        hi - lo
    }

    /// numpy's relaxed C-contiguity: length-1 axes are ignored, any length-0 axis makes the
    /// layout contiguous, otherwise strides must be exactly the packed row-major ones (a zero
    /// stride on an axis longer than 1 is therefore never contiguous).
    ///
    /// ```
    /// use rumba::layout::{Layout, element::Element};
    /// let l = Layout::with_strides(&[1, 10], &[800, 8], 0, &f64::DTYPE, 80).unwrap();
    /// assert!(l.is_c_contiguous() && l.is_f_contiguous());
    /// ```
    pub fn is_c_contiguous(&self) -> bool {
        contiguous(
            self.shape.iter().rev().zip(self.strides.iter().rev()),
            self.itemsize,
        )
    }

    /// numpy's relaxed F-contiguity (see [`is_c_contiguous`](Layout::is_c_contiguous)).
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// assert!(Layout::f_order(&[3, 4], 8).unwrap().is_f_contiguous());
    /// assert!(!Layout::c_order(&[3, 4], 8).unwrap().is_f_contiguous());
    /// assert!(Layout::c_order(&[3, 0], 8).unwrap().is_f_contiguous());
    /// ```
    pub fn is_f_contiguous(&self) -> bool {
        contiguous(self.shape.iter().zip(self.strides.iter()), self.itemsize)
    }

    /// C- or F-contiguous: the elements fill `[lo, hi)` of the allocation without gaps.
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[4, 4], 8).unwrap();
    /// assert!(l.is_contiguous());
    /// assert!(!l.slice(s![.., ..2]).unwrap().is_contiguous());
    /// ```
    pub fn is_contiguous(&self) -> bool {
        self.is_c_contiguous() || self.is_f_contiguous()
    }

    /// `true` when the offset and every used stride are multiples of `align` (what a typed view
    /// with that alignment needs).
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[4], 4).unwrap();
    /// assert!(l.is_aligned(4) && !l.is_aligned(8));
    /// assert!(l.slice(s![..;2]).unwrap().is_aligned(8));
    /// assert!(!l.slice(s![1..;2]).unwrap().is_aligned(8));
    /// ```
    pub fn is_aligned(&self, align: usize) -> bool {
        let align = align.max(1);
        self.offset % align == 0
            && self
                .shape
                .iter()
                .zip(&self.strides)
                .all(|(&n, &s)| n <= 1 || s.unsigned_abs() % align == 0)
    }

    /// Byte offset (from the allocation start) of the element at `index`; each index may be
    /// negative, counting from the end, and must lie in `[-n, n)`.
    ///
    /// Errors: wrong number of indices → [`Error::Shape`]; an index outside its axis →
    /// [`Error::IndexOutOfRange`].
    ///
    /// # Errors
    /// [`Error::Shape`] when `index` has another length than the number of axes;
    /// [`Error::IndexOutOfRange`] for an index outside `[-n, n)`.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[3, 4], 8).unwrap();
    /// assert_eq!(l.index_offset(&[1, 2]).unwrap(), 48);
    /// assert_eq!(l.index_offset(&[-1, -1]).unwrap(), 88);
    /// assert_eq!(
    ///     l.index_offset(&[3, 0]).unwrap_err().to_string(),
    ///     "index 3 is out of bounds for axis 0 with size 3"
    /// );
    /// ```
    pub fn index_offset(&self, index: &[isize]) -> Result<usize> {
        if index.len() != self.ndim() {
            return Err(ShapeError::IndexCount {
                given: index.len(),
                ndim: self.ndim(),
            }
            .into());
        }
        let mut off = self.offset as isize;
        for (axis, (&i, (&n, &s))) in index
            .iter()
            .zip(self.shape.iter().zip(&self.strides))
            .enumerate()
        {
            let i = normalize_index(i, axis, n)?;
            // In range by the invariants: the element is inside the touched extent.
            off += i as isize * s;
        }
        Ok(off as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::element::Element;

    #[test]
    fn c_and_f_strides_follow_numpy_for_zero_lengths() {
        assert_eq!(Layout::c_order(&[3, 0], 8).unwrap().strides(), &[8, 8]);
        assert_eq!(Layout::f_order(&[0, 3], 8).unwrap().strides(), &[8, 8]);
        assert_eq!(Layout::c_order(&[0, 3], 8).unwrap().strides(), &[24, 8]);
    }

    #[test]
    fn construction_errors_name_the_problem() {
        assert_eq!(
            Layout::c_order(&[2], 0).unwrap_err().to_string(),
            "element size must be nonzero"
        );
        assert_eq!(
            Layout::c_order(&[usize::MAX / 2, 4], 1)
                .unwrap_err()
                .to_string(),
            format!(
                "array is too big: shape ({}, 4) of 1-byte elements does not fit in the address space",
                usize::MAX / 2
            )
        );
        let d = f64::DTYPE;
        assert_eq!(
            Layout::with_strides(&[2, 2], &[8], 0, &d, 100)
                .unwrap_err()
                .to_string(),
            "strides [8] do not match shape (2, 2): 1 stride(s) for 2 axes"
        );
        assert_eq!(
            Layout::with_strides(&[2], &[4], 0, &d, 100)
                .unwrap_err()
                .to_string(),
            "offset 0 and strides [4] must be multiples of the 8-byte alignment of float64"
        );
        assert_eq!(
            Layout::with_strides(&[3], &[8], 8, &d, 24)
                .unwrap_err()
                .to_string(),
            "shape (3,) with strides [8] at offset 8 reaches outside the allocation of 24 bytes"
        );
        assert!(Layout::with_strides(&[3], &[-8], 8, &d, 24).is_err());
        assert!(Layout::with_strides(&[3], &[-8], 16, &d, 24).is_ok());
        assert!(Layout::with_strides(&[2], &[isize::MAX - 7], 0, &d, usize::MAX).is_err());
        // Size 0: any alignment, offset within the allocation, no overflow or negative reach.
        assert!(Layout::with_strides(&[0, 5], &[7, 3], 24, &d, 24).is_ok());
        assert!(Layout::with_strides(&[0], &[8], 32, &d, 24).is_err());
        assert!(Layout::with_strides(&[0, 5], &[8, isize::MAX], 0, &d, 24).is_err());
        assert!(Layout::with_strides(&[0, 5], &[8, -8], 0, &d, 24).is_err());
        let z = Layout::with_strides(&[0, 5], &[8, -8], 32, &d, 32).unwrap();
        assert_eq!(z.slice(ndarray::s![.., 4]).unwrap().offset(), 0);
        // Zero stride (broadcast) is fine.
        let b = Layout::with_strides(&[4, 3], &[0, 8], 0, &d, 24).unwrap();
        assert!(!b.is_c_contiguous() && !b.is_f_contiguous());
        assert_eq!(b.alloc_extent(), (0, 24));
    }

    #[test]
    fn relaxed_contiguity() {
        let d = f64::DTYPE;
        let l = Layout::with_strides(&[1, 10], &[800, 8], 0, &d, 80).unwrap();
        assert!(l.is_c_contiguous() && l.is_f_contiguous());
        for shape in [[1usize, 4], [4, 1]] {
            let c = Layout::c_order(&shape, 8).unwrap();
            let f = Layout::f_order(&shape, 8).unwrap();
            for l in [c, f] {
                assert!(l.is_c_contiguous() && l.is_f_contiguous(), "{shape:?}");
            }
        }
        for shape in [&[2usize, 3][..], &[2, 3, 4], &[2, 3, 4, 5]] {
            let c = Layout::c_order(shape, 4).unwrap();
            let f = Layout::f_order(shape, 4).unwrap();
            assert!(c.is_c_contiguous() && !c.is_f_contiguous());
            assert!(f.is_f_contiguous() && !f.is_c_contiguous());
            assert!(c.t().is_f_contiguous() && f.t().is_c_contiguous());
        }
        let z = Layout::with_strides(&[2, 0], &[0, 0], 0, &d, 0).unwrap();
        assert!(z.is_c_contiguous() && z.is_f_contiguous());
        let bcast = Layout::with_strides(&[2, 1], &[0, 8], 0, &d, 8).unwrap();
        assert!(!bcast.is_c_contiguous());
        let s = Layout::scalar(8).unwrap();
        assert!(s.is_c_contiguous() && s.is_f_contiguous());
    }

    #[test]
    fn every_index_in_range_and_the_two_just_outside() {
        for shape in [&[5usize][..], &[3, 4], &[2, 3, 4]] {
            let l = Layout::c_order(shape, 8).unwrap();
            let nd = shape.len();
            for axis in 0..nd {
                let n = shape[axis] as isize;
                for i in -n..n {
                    let mut idx = vec![0isize; nd];
                    idx[axis] = i;
                    let want = (i.rem_euclid(n)) * l.strides()[axis];
                    assert_eq!(l.index_offset(&idx).unwrap(), want as usize);
                }
                for bad in [-n - 1, n] {
                    let mut idx = vec![0isize; nd];
                    idx[axis] = bad;
                    assert_eq!(
                        l.index_offset(&idx).unwrap_err(),
                        Error::IndexOutOfRange {
                            index: bad,
                            axis,
                            size: n as usize
                        }
                    );
                }
            }
        }
        let l = Layout::c_order(&[2, 2], 8).unwrap();
        assert_eq!(
            l.index_offset(&[0]).unwrap_err().to_string(),
            "1 index/indices given for an array with 2 axes"
        );
        assert_eq!(Layout::scalar(4).unwrap().index_offset(&[]).unwrap(), 0);
    }

    #[test]
    fn from_elem_strides_places_the_first_element() {
        let l = Layout::from_elem_strides(&[3, 2], &[-2, -1], 8).unwrap();
        assert_eq!(l.offset(), 40);
        assert_eq!(l.alloc_extent(), (0, 48));
        let e = Layout::from_elem_strides(&[0, 2], &[-2, -1], 8).unwrap();
        assert_eq!(e.offset(), 8);
        assert!(Layout::from_elem_strides(&[3], &[isize::MAX], 8).is_err());
        assert!(Layout::from_elem_strides(&[3], &[1, 1], 8).is_err());
    }

    #[test]
    fn len_and_sizes() {
        let l = Layout::c_order(&[0], 8).unwrap();
        assert_eq!((l.shape()[0], l.nbytes(), l.alloc_extent()), (0, 0, (0, 0)));
    }
}
