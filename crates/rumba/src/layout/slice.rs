//! Slicing and single-axis indexing of a [`Layout`] with ndarray's `s![..]` syntax.
//!
//! Semantics are ndarray's, exactly, wherever ndarray returns a view:
//! - `start..end;step`: negative `start`/`end` count from the end; `end < start` gives an empty
//!   axis; a **negative step takes the range `start..end` first and then walks it backwards**
//!   from its last element (`s![..;-2]` of `0..5` is `4, 2, 0`; numpy's `[::-2]` agrees here, but
//!   `s![1..4;-1]` is `3, 2, 1` where numpy's `[1:4:-1]` is empty);
//! - a single index drops its axis; `NewAxis` inserts a length-1 axis (stride 0);
//! - fewer entries than axes: the remaining axes are taken whole (ndarray panics instead).
//!
//! Where ndarray **panics** we return an error instead, never a panic:
//! - a single index outside `[-n, n)` → [`Error::IndexOutOfRange`];
//! - a range bound outside `[-n, n]` (after the `end < start` correction, as ndarray checks it)
//!   → [`Error::IndexOutOfRange`] naming that bound, axis and length;
//! - step 0, or more (non-`NewAxis`) entries than axes → [`Error::Shape`].
//!
//! [`Layout::slice_clipped`] offers numpy's forgiving alternative for range bounds: they are
//! clipped into `[0, n]` instead of refused (single indices stay strict).
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;
use super::extent::normalize_index;
use crate::error::ShapeError;
use crate::error::{Error, Result};
use ndarray::SliceInfoElem;

/// What to do with a range bound outside `[-n, n]`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bounds {
    /// ndarray: refuse (ndarray panics; we return an error).
    Strict,
    /// numpy: clip into `[0, n]`.
    Clip,
}

/// Resolves one range bound to `[0, n]`.
fn bound(b: isize, n: usize, axis: usize, mode: Bounds) -> Result<usize> {
    let abs = if b < 0 {
        n.checked_sub(b.unsigned_abs())
    } else {
        Some(b as usize)
    };
    match (abs, mode) {
        (Some(v), Bounds::Strict) if v <= n => Ok(v),
        (_, Bounds::Strict) => Err(Error::IndexOutOfRange {
            index: b,
            axis,
            size: n,
        }),
        (Some(v), Bounds::Clip) => Ok(v.min(n)),
        (None, Bounds::Clip) => Ok(0),
    }
}

impl Layout {
    /// The view selected by `info` (ndarray's `s![..]`, or any `[SliceInfoElem]`), with ndarray's
    /// semantics; see the [module docs](self) for the exact rules and errors.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a single index or range bound outside the axis;
    /// [`Error::Shape`] for a step of 0 or more entries than axes.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[4, 6], 8).unwrap(); // 4×6 f64
    /// let v = l.slice(s![1.., ..;-2]).unwrap();
    /// assert_eq!(v.shape(), &[3, 3]);
    /// assert_eq!(v.strides(), &[48, -16]);
    /// assert_eq!(v.offset(), 48 + 5 * 8);
    /// let row = l.slice(s![-1, ..]).unwrap();
    /// assert_eq!((row.shape(), row.offset()), (&[6][..], 144));
    /// assert_eq!(
    ///     l.slice(s![4, ..]).unwrap_err().to_string(),
    ///     "index 4 is out of bounds for axis 0 with size 4"
    /// );
    /// ```
    pub fn slice(&self, info: impl AsRef<[SliceInfoElem]>) -> Result<Layout> {
        self.slice_with(info.as_ref(), Bounds::Strict)
    }

    /// Like [`slice`](Layout::slice), but range bounds outside the axis are clipped into it as
    /// numpy does (`[-10:10]` of a length-3 axis is the whole axis) instead of refused. Steps
    /// keep ndarray's meaning and single indices are still checked.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] for a single index outside `[-n, n)` (range bounds are clipped);
    /// [`Error::Shape`] for a step of 0 or more entries than axes.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[3], 8).unwrap();
    /// assert!(l.slice(s![-10..10]).is_err());
    /// assert_eq!(l.slice_clipped(s![-10..10]).unwrap(), l);
    /// assert_eq!(l.slice_clipped(s![5..]).unwrap().shape(), &[0]);
    /// ```
    pub fn slice_clipped(&self, info: impl AsRef<[SliceInfoElem]>) -> Result<Layout> {
        self.slice_with(info.as_ref(), Bounds::Clip)
    }

    fn slice_with(&self, info: &[SliceInfoElem], mode: Bounds) -> Result<Layout> {
        let used = info
            .iter()
            .filter(|e| !matches!(e, SliceInfoElem::NewAxis))
            .count();
        if used > self.ndim() {
            return Err(ShapeError::TooManyIndices {
                given: used,
                ndim: self.ndim(),
            }
            .into());
        }
        let mut shape = Vec::with_capacity(info.len() + self.ndim() - used);
        let mut strides = Vec::with_capacity(shape.capacity());
        // Offsets stay inside the touched extent, so `isize` arithmetic cannot overflow.
        let mut offset = self.offset as isize;
        let mut axis = 0;
        for elem in info {
            match *elem {
                SliceInfoElem::NewAxis => {
                    shape.push(1);
                    strides.push(0);
                }
                SliceInfoElem::Index(i) => {
                    let i = normalize_index(i, axis, self.shape[axis])?;
                    offset += i as isize * self.strides[axis];
                    axis += 1;
                }
                SliceInfoElem::Slice { start, end, step } => {
                    let n = self.shape[axis];
                    let s = self.strides[axis];
                    if step == 0 {
                        return Err(ShapeError::ZeroStep { axis }.into());
                    }
                    let lo = bound(start, n, axis, mode)?;
                    let hi = match end {
                        Some(e) => bound(e, n, axis, mode)?.max(lo),
                        None => n.max(lo),
                    };
                    let m = hi - lo;
                    if m > 0 {
                        let first = if step < 0 { hi - 1 } else { lo };
                        offset += first as isize * s;
                    }
                    let k = step.unsigned_abs();
                    let len = m.div_ceil(k);
                    shape.push(len);
                    // With len >= 2, |step| < n, so the product stays within the extent.
                    strides.push(if len > 1 { s * step } else { s });
                    axis += 1;
                }
            }
        }
        shape.extend_from_slice(&self.shape[axis..]);
        strides.extend_from_slice(&self.strides[axis..]);
        Ok(Layout {
            shape,
            strides,
            offset: offset as usize,
            itemsize: self.itemsize,
        })
    }

    /// The sub-view at `index` along `axis` (that axis is removed): `a[.., index, ..]`.
    ///
    /// Errors: `axis >= ndim` → [`Error::InvalidAxes`]; index outside `[-n, n)` →
    /// [`Error::IndexOutOfRange`].
    ///
    /// # Errors
    /// [`Error::InvalidAxes`] when `axis` is not below `ndim`; [`Error::IndexOutOfRange`] for an
    /// `index` outside `[-n, n)`.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[5, 6, 7], 4).unwrap();
    /// let v = l.index_axis(1, -2).unwrap();
    /// assert_eq!((v.shape(), v.strides(), v.offset()), (&[5, 7][..], &[168, 4][..], 4 * 28));
    /// assert!(l.index_axis(3, 0).is_err());
    /// ```
    pub fn index_axis(&self, axis: usize, index: isize) -> Result<Layout> {
        if axis >= self.ndim() {
            return Err(Error::InvalidAxes(format!(
                "axis {axis} is out of bounds for array of dimension {}",
                self.ndim()
            )));
        }
        let i = normalize_index(index, axis, self.shape[axis])?;
        let mut out = self.clone();
        out.offset = (self.offset as isize + i as isize * self.strides[axis]) as usize;
        out.shape.remove(axis);
        out.strides.remove(axis);
        Ok(out)
    }

    /// `split(section)`, Numba's `DeviceNDArray.split`: consecutive views of `section` elements
    /// each (the last may be shorter), `ceil(size / section)` of them. Only for 1-D layouts
    /// with unit stride (stride == itemsize; arrays of length ≤ 1 always qualify).
    ///
    /// Errors ([`Error::Shape`] / [`Error::NotContiguous`]): `section == 0`, ndim ≠ 1,
    /// non-unit stride.
    ///
    /// # Errors
    /// [`Error::Shape`] when the layout is not 1-D or `section` is 0;
    /// [`Error::NotContiguous`] when its stride is not one element.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let parts = Layout::c_order(&[10], 4).unwrap().split(4).unwrap();
    /// let lens: Vec<_> = parts.iter().map(|p| (p.offset(), p.shape()[0])).collect();
    /// assert_eq!(lens, [(0, 4), (16, 4), (32, 2)]);
    /// ```
    pub fn split(&self, section: usize) -> Result<Vec<Layout>> {
        if section == 0 {
            return Err(ShapeError::SplitSection.into());
        }
        if self.ndim() != 1 {
            return Err(ShapeError::SplitRank { ndim: self.ndim() }.into());
        }
        let n = self.shape[0];
        if n > 1 && self.strides[0] != self.itemsize as isize {
            return Err(Error::NotContiguous(format!(
                "split only supports unit stride: stride is {} bytes for {}-byte elements",
                self.strides[0], self.itemsize
            )));
        }
        let mut parts = Vec::with_capacity(n.div_ceil(section));
        let mut begin = 0;
        while begin < n {
            let len = section.min(n - begin);
            parts.push(Layout {
                shape: vec![len],
                strides: vec![self.itemsize as isize],
                offset: self.offset + begin * self.itemsize,
                itemsize: self.itemsize,
            });
            begin += len;
        }
        Ok(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{NewAxis, s};

    fn c(shape: &[usize]) -> Layout {
        Layout::c_order(shape, 8).unwrap()
    }

    #[test]
    fn ndarray_negative_step_semantics() {
        let l = c(&[5]);
        let v = l.slice(s![1..4;-1]).unwrap();
        assert_eq!(
            (v.shape(), v.strides(), v.offset()),
            (&[3][..], &[-8][..], 24)
        );
        let v = l.slice(s![..;-2]).unwrap();
        assert_eq!((v.shape(), v.offset()), (&[3][..], 32));
        let v = l.slice(s![..0;-1]).unwrap();
        assert_eq!((v.shape(), v.offset()), (&[0][..], 0));
    }

    #[test]
    fn out_of_range_bounds_are_errors_not_panics() {
        let l = c(&[3]);
        let e = |x: Result<Layout>| x.unwrap_err().to_string();
        assert_eq!(
            e(l.slice(s![-4..])),
            "index -4 is out of bounds for axis 0 with size 3"
        );
        assert_eq!(
            e(l.slice(s![..4])),
            "index 4 is out of bounds for axis 0 with size 3"
        );
        assert_eq!(
            e(l.slice([SliceInfoElem::Slice {
                start: 5,
                end: Some(2),
                step: 1
            }])),
            "index 5 is out of bounds for axis 0 with size 3"
        );
        assert_eq!(
            e(l.slice([SliceInfoElem::Slice {
                start: 0,
                end: None,
                step: 0
            }])),
            "slice step cannot be zero (axis 0)"
        );
        assert_eq!(
            e(l.slice(s![0, 0])),
            "too many indices for array: array is 1-dimensional, but 2 were indexed"
        );
        assert_eq!(
            e(l.slice(s![isize::MIN..])),
            format!(
                "index {} is out of bounds for axis 0 with size 3",
                isize::MIN
            )
        );
        assert!(l.slice(s![3..]).is_ok());
        assert!(l.slice(s![-3..3]).is_ok());
    }

    #[test]
    fn clipped_bounds() {
        let l = c(&[3, 4]);
        let v = l
            .slice_clipped([
                SliceInfoElem::Slice {
                    start: -4,
                    end: Some(4),
                    step: 1,
                },
                SliceInfoElem::Slice {
                    start: 2,
                    end: Some(-9),
                    step: 1,
                },
            ])
            .unwrap();
        assert_eq!(v.shape(), &[3, 0]);
        let v = l.slice_clipped(s![isize::MIN..isize::MAX;-1, ..]).unwrap();
        assert_eq!(
            (v.shape(), v.strides(), v.offset()),
            (&[3, 4][..], &[-32, 8][..], 64)
        );
        assert!(l.slice_clipped(s![3, ..]).is_err());
    }

    #[test]
    fn empty_slices() {
        let l = c(&[4, 5]);
        for i in 0..4 {
            let v = l.slice(s![i..i, ..]).unwrap();
            assert_eq!(v.shape(), &[0, 5]);
            assert_eq!(v.size(), 0);
        }
        let v = l.slice(s![..0, ..]).unwrap().slice(s![..0, ..]).unwrap();
        assert_eq!(v.shape(), &[0, 5]);
        let v = l.slice(s![3, ..0]).unwrap();
        assert_eq!(v.shape(), &[0]);
        assert_eq!(v.alloc_extent().1 - v.alloc_extent().0, 0);
    }

    #[test]
    fn new_axis_and_implicit_trailing_axes() {
        let l = c(&[2, 3]);
        let v = l.slice(s![NewAxis, 1]).unwrap();
        assert_eq!(
            (v.shape(), v.strides(), v.offset()),
            (&[1, 3][..], &[0, 8][..], 24)
        );
        let v = l.slice([SliceInfoElem::Index(-1)]).unwrap();
        assert_eq!(v.shape(), &[3]);
    }

    #[test]
    fn index_axis_and_split_errors() {
        let l = c(&[2, 3]);
        assert_eq!(
            l.index_axis(2, 0).unwrap_err().to_string(),
            "invalid axes list: axis 2 is out of bounds for array of dimension 2"
        );
        assert_eq!(
            l.index_axis(1, 3).unwrap_err(),
            Error::IndexOutOfRange {
                index: 3,
                axis: 1,
                size: 3
            }
        );
        assert_eq!(
            l.split(1).unwrap_err().to_string(),
            "split only supports 1-d arrays, this one has 2 axes"
        );
        assert_eq!(
            c(&[6])
                .slice(s![..;2])
                .unwrap()
                .split(1)
                .unwrap_err()
                .to_string(),
            "split only supports unit stride: stride is 16 bytes for 8-byte elements"
        );
        assert_eq!(
            c(&[6]).split(0).unwrap_err().to_string(),
            "split section size must be at least 1"
        );
        assert!(c(&[0]).split(3).unwrap().is_empty());
        let halves = c(&[100]).split(50).unwrap();
        assert_eq!(halves.len(), 2);
        assert_eq!(halves[1].offset(), 400);
    }
}
