//! Axis permutations and removals: [`Layout::permuted_axes`], [`Layout::transpose`],
//! [`Layout::t`], [`Layout::squeeze`]. All are views: only the shape and stride lists change.
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;
use crate::error::ShapeError;
use crate::error::{Error, Result};

impl Layout {
    /// The view whose axis `i` is this layout's axis `axes[i]` (numpy's `transpose(axes)`).
    /// `axes` must be a permutation of `0..ndim`, else [`Error::InvalidAxes`]; the identity
    /// permutation returns an equal layout.
    ///
    /// # Errors
    /// [`Error::InvalidAxes`] when `axes` is not a permutation of `0..ndim`, naming the list.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[2, 3, 4], 8).unwrap();
    /// let p = l.permuted_axes(&[2, 0, 1]).unwrap();
    /// assert_eq!((p.shape(), p.strides()), (&[4, 2, 3][..], &[8, 96, 32][..]));
    /// assert_eq!(l.permuted_axes(&[0, 1, 2]).unwrap(), l);
    /// assert_eq!(
    ///     l.permuted_axes(&[0, 0, 1]).unwrap_err().to_string(),
    ///     "invalid axes list: [0, 0, 1] is not a permutation of the 3 axes"
    /// );
    /// ```
    pub fn permuted_axes(&self, axes: &[usize]) -> Result<Layout> {
        let n = self.ndim();
        let mut seen = vec![false; n];
        let valid = axes.len() == n
            && axes
                .iter()
                .all(|&a| a < n && !std::mem::replace(&mut seen[a], true));
        if !valid {
            return Err(Error::InvalidAxes(format!(
                "{axes:?} is not a permutation of the {n} axes"
            )));
        }
        Ok(Layout {
            shape: axes.iter().map(|&a| self.shape[a]).collect(),
            strides: axes.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }

    /// Numba's `transpose(axes=None)`: `None` reverses the axes (as [`t`](Layout::t)), `Some`
    /// is [`permuted_axes`](Layout::permuted_axes).
    ///
    /// # Errors
    /// [`Error::InvalidAxes`] when `axes` is given and is not a permutation of `0..ndim`.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[2, 3], 8).unwrap();
    /// assert_eq!(l.transpose(None).unwrap(), l.t());
    /// assert!(l.transpose(Some(&[1])).is_err());
    /// ```
    pub fn transpose(&self, axes: Option<&[usize]>) -> Result<Layout> {
        match axes {
            Some(axes) => self.permuted_axes(axes),
            None => Ok(self.t()),
        }
    }

    /// The axes reversed (`a.T`): a C-contiguous layout becomes F-contiguous and vice versa.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let t = Layout::c_order(&[2, 3], 8).unwrap().t();
    /// assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[8, 24][..]));
    /// assert!(t.is_f_contiguous());
    /// ```
    pub fn t(&self) -> Layout {
        Layout {
            shape: self.shape.iter().rev().copied().collect(),
            strides: self.strides.iter().rev().copied().collect(),
            offset: self.offset,
            itemsize: self.itemsize,
        }
    }

    /// Removes length-1 axes: all of them (`None`) or the one given.
    ///
    /// Errors: axis ≥ ndim → [`Error::InvalidAxes`]; an axis whose length is not 1 →
    /// [`Error::Shape`].
    ///
    /// # Errors
    /// [`Error::InvalidAxes`] when `axis` is not below `ndim`; [`Error::Shape`] when that
    /// axis's length is not 1.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[1, 3, 1], 8).unwrap();
    /// assert_eq!(l.squeeze(None).unwrap().shape(), &[3]);
    /// assert_eq!(l.squeeze(Some(2)).unwrap().shape(), &[1, 3]);
    /// assert_eq!(
    ///     l.squeeze(Some(1)).unwrap_err().to_string(),
    ///     "cannot select an axis to squeeze out which has size not equal to one (axis 1 has length 3)"
    /// );
    /// ```
    pub fn squeeze(&self, axis: Option<usize>) -> Result<Layout> {
        let keep: Vec<usize> = match axis {
            None => (0..self.ndim()).filter(|&i| self.shape[i] != 1).collect(),
            Some(a) if a >= self.ndim() => {
                return Err(Error::InvalidAxes(format!(
                    "axis {a} is out of bounds for array of dimension {}",
                    self.ndim()
                )));
            }
            Some(a) if self.shape[a] != 1 => {
                return Err(ShapeError::SqueezeLength {
                    axis: a,
                    len: self.shape[a],
                }
                .into());
            }
            Some(a) => (0..self.ndim()).filter(|&i| i != a).collect(),
        };
        Ok(Layout {
            shape: keep.iter().map(|&i| self.shape[i]).collect(),
            strides: keep.iter().map(|&i| self.strides[i]).collect(),
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_axes_lists() {
        let l = Layout::c_order(&[2, 3], 8).unwrap();
        let e = |a: &[usize]| l.permuted_axes(a).unwrap_err().to_string();
        assert_eq!(
            e(&[0]),
            "invalid axes list: [0] is not a permutation of the 2 axes"
        );
        assert_eq!(
            e(&[0, 2]),
            "invalid axes list: [0, 2] is not a permutation of the 2 axes"
        );
        assert_eq!(
            e(&[1, 1]),
            "invalid axes list: [1, 1] is not a permutation of the 2 axes"
        );
        assert_eq!(
            e(&[0, 1, 2]),
            "invalid axes list: [0, 1, 2] is not a permutation of the 2 axes"
        );
        assert_eq!(l.permuted_axes(&[1, 0]).unwrap(), l.t());
        assert_eq!(l.t().t(), l);
    }

    #[test]
    fn squeeze_errors_and_zero_d() {
        let l = Layout::c_order(&[1, 1], 8).unwrap();
        let s = l.squeeze(None).unwrap();
        assert_eq!((s.ndim(), s.size()), (0, 1));
        assert_eq!(
            l.squeeze(Some(2)).unwrap_err().to_string(),
            "invalid axes list: axis 2 is out of bounds for array of dimension 2"
        );
        assert_eq!(Layout::scalar(8).unwrap().squeeze(None).unwrap().ndim(), 0);
    }
}
