//! Views with a new shape or element size: [`Layout::reshape`], [`Layout::ravel`],
//! [`Layout::view_as`].
//!
//! All three only ever return views: a request that would need the elements moved is an error,
//! never a silent copy. `reshape` tries numpy's no-copy rule (a from-scratch rewrite of the idea of
//! numpy's `_attempt_nocopy_reshape`): drop length-1 axes, split both shapes into the shortest
//! groups of axes with equal products, and accept when the old axes of each group are contiguous
//! with each other in the requested index order; the group's new strides then follow from the
//! stride of its innermost old axis. This handles non-contiguous views too (e.g. reshaping
//! `a[:, ::2]` of shape `(4, 3)` into `(2, 2, 3)`), and it does not copy Numba's shortcut of
//! giving any contiguous array fresh C or F strides (which reads the wrong elements when the
//! index order differs from the memory order).
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::{Layout, packed_strides};
use super::order::Order;
use crate::error::ShapeError;
use crate::error::{Error, Result, format_shape};

/// Resolves one `-1` and checks that the size is `size`.
fn resolve_shape(request: &[isize], size: usize) -> Result<Vec<usize>> {
    let cannot = || ShapeError::ReshapeSize {
        size,
        shape: request.to_vec(),
    };
    let mut unknown = None;
    let mut known = 1usize;
    for (i, &d) in request.iter().enumerate() {
        if d == -1 {
            if unknown.replace(i).is_some() {
                return Err(ShapeError::MultipleUnknown {
                    shape: request.to_vec(),
                }
                .into());
            }
        } else if d < 0 {
            return Err(ShapeError::NegativeDimension {
                shape: request.to_vec(),
            }
            .into());
        } else {
            known = known.checked_mul(d as usize).ok_or_else(cannot)?;
        }
    }
    let mut shape: Vec<usize> = request.iter().map(|&d| d.max(0) as usize).collect();
    if let Some(i) = unknown {
        if known == 0 || size % known != 0 {
            return Err(cannot().into());
        }
        shape[i] = size / known;
    } else if known != size {
        return Err(cannot().into());
    }
    Ok(shape)
}

/// New strides for viewing (`old_shape`, `old_strides`) as `new_shape` in C index order, or
/// `None` when that needs a copy. Length-1 axes get the stride a packed C array would give them.
fn nocopy_c(
    old_shape: &[usize],
    old_strides: &[isize],
    new_shape: &[usize],
    itemsize: usize,
) -> Option<Vec<isize>> {
    let old: Vec<(usize, isize)> = old_shape
        .iter()
        .zip(old_strides)
        .filter(|&(&n, _)| n != 1)
        .map(|(&n, &s)| (n, s))
        .collect();
    let new_idx: Vec<usize> = (0..new_shape.len())
        .filter(|&i| new_shape[i] != 1)
        .collect();
    let mut strides = vec![0isize; new_shape.len()];
    let (mut oi, mut ni) = (0, 0);
    while oi < old.len() && ni < new_idx.len() {
        let (mut op, mut np) = (old[oi].0, new_shape[new_idx[ni]]);
        let (mut oj, mut nj) = (oi + 1, ni + 1);
        while op != np {
            // Both remaining products equal the remaining size, so a smaller side has more axes.
            if op < np {
                op = op.checked_mul(old.get(oj)?.0)?;
                oj += 1;
            } else {
                np = np.checked_mul(new_shape[*new_idx.get(nj)?])?;
                nj += 1;
            }
        }
        for k in oi..oj - 1 {
            if old[k].1 != (old[k + 1].0 as isize).saturating_mul(old[k + 1].1) {
                return None;
            }
        }
        let mut st = old[oj - 1].1;
        for &k in new_idx[ni..nj].iter().rev() {
            strides[k] = st;
            st = st.saturating_mul(new_shape[k] as isize);
        }
        oi = oj;
        ni = nj;
    }
    if oi != old.len() || ni != new_idx.len() {
        return None;
    }
    let mut next = itemsize as isize;
    for k in (0..new_shape.len()).rev() {
        if new_shape[k] == 1 {
            strides[k] = next;
        } else {
            next = strides[k].saturating_mul(new_shape[k] as isize);
        }
    }
    Some(strides)
}

impl Layout {
    /// The same elements seen with shape `shape`, read in index order `order` (`A`: F if the
    /// layout is F- and not C-contiguous, else C), without copying.
    ///
    /// One entry may be `-1` (inferred). An unchanged shape returns an equal layout.
    /// Errors: more than one `-1`, other negative entries, or a different size →
    /// [`Error::Shape`] ("cannot reshape array of size 10 into shape (3, 4)"); a reshape
    /// that cannot be a view → [`Error::NotContiguous`].
    ///
    /// # Errors
    /// [`Error::Shape`] for more than one `-1`, another negative length, or a shape of
    /// another size; [`Error::NotContiguous`] when the reshape would need a copy.
    ///
    /// ```
    /// use rumba::layout::{Layout, Order};
    /// let a = Layout::c_order(&[10], 8).unwrap();
    /// assert_eq!(a.reshape(&[2, -1], Order::C).unwrap().strides(), &[40, 8]);
    /// assert_eq!(a.reshape(&[2, 5], Order::F).unwrap().strides(), &[8, 16]);
    /// let c = Layout::c_order(&[2, 5], 8).unwrap();
    /// assert!(c.reshape(&[5, 2], Order::F).is_err()); // needs a copy
    /// assert_eq!(
    ///     a.reshape(&[3, 4], Order::C).unwrap_err().to_string(),
    ///     "cannot reshape array of size 10 into shape (3, 4)"
    /// );
    /// ```
    pub fn reshape(&self, shape: &[isize], order: Order) -> Result<Layout> {
        let shape = resolve_shape(shape, self.size())?;
        if shape == self.shape {
            return Ok(self.clone());
        }
        let order = order.resolve(self.is_c_contiguous(), self.is_f_contiguous());
        let strides = if self.size() == 0 {
            // Any shape of size 0 is a view, as long as its packed strides fit.
            Layout::new(&shape, order, self.itemsize)?;
            packed_strides(&shape, order, self.itemsize)
        } else if order == Order::F {
            let rev = |v: &[usize]| v.iter().rev().copied().collect::<Vec<_>>();
            let old_strides: Vec<isize> = self.strides.iter().rev().copied().collect();
            nocopy_c(&rev(&self.shape), &old_strides, &rev(&shape), self.itemsize)
                .map(|mut s| {
                    s.reverse();
                    s
                })
                .ok_or_else(|| self.reshape_needs_copy(&shape, order))?
        } else {
            nocopy_c(&self.shape, &self.strides, &shape, self.itemsize)
                .ok_or_else(|| self.reshape_needs_copy(&shape, order))?
        };
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }

    fn reshape_needs_copy(&self, shape: &[usize], order: Order) -> Error {
        Error::NotContiguous(format!(
            "reshape would require copy: shape {} with strides {:?} cannot be viewed as shape {} in {order} order",
            format_shape(&self.shape),
            self.strides,
            format_shape(shape)
        ))
    }

    /// The elements as a 1-D view, in `order` (`A`: either contiguous order). Only for a layout
    /// contiguous in that order; otherwise [`Error::NotContiguous`] (use a copy instead).
    ///
    /// # Errors
    /// [`Error::NotContiguous`] when the layout is not contiguous in `order`.
    ///
    /// ```
    /// use rumba::layout::{Layout, Order};
    /// let c = Layout::c_order(&[3, 4], 8).unwrap();
    /// assert_eq!(c.ravel(Order::C).unwrap().shape(), &[12]);
    /// assert!(c.ravel(Order::A).is_ok());
    /// assert_eq!(
    ///     c.ravel(Order::F).unwrap_err().to_string(),
    ///     "ravel in F order needs an F-contiguous array; shape (3, 4) with strides [32, 8] would require a copy"
    /// );
    /// ```
    pub fn ravel(&self, order: Order) -> Result<Layout> {
        let (c, f) = (self.is_c_contiguous(), self.is_f_contiguous());
        let ok = match order {
            Order::C => c,
            Order::F => f,
            Order::A => c || f,
        };
        if !ok {
            let need = match order {
                Order::C => "a C-contiguous",
                Order::F => "an F-contiguous",
                Order::A => "a contiguous",
            };
            return Err(Error::NotContiguous(format!(
                "ravel in {order} order needs {need} array; shape {} with strides {:?} would require a copy",
                format_shape(&self.shape),
                self.strides
            )));
        }
        Ok(Layout {
            shape: vec![self.size()],
            strides: vec![self.itemsize as isize],
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }

    /// The same bytes seen as elements of `new_itemsize` bytes (`view::<U>()`), as numpy's
    /// `ndarray.view(dtype)`: the same item size keeps shape and strides; a different one needs
    /// a C-contiguous layout whose last axis spans a multiple of `new_itemsize` bytes, and
    /// rescales that axis. Alignment of the new type is the caller's to check
    /// ([`is_aligned`](Layout::is_aligned)).
    ///
    /// # Errors
    /// [`Error::Shape`] for a zero item size, a 0-dimensional layout or a last axis whose byte
    /// length is not a multiple of `new_itemsize`; [`Error::NotContiguous`] when the item size changes
    /// and the layout is not C-contiguous.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::Layout;
    /// let a = Layout::c_order(&[3, 4], 2).unwrap(); // i16 3×4
    /// let b = a.view_as(4).unwrap(); // as i32
    /// assert_eq!((b.shape(), b.strides()), (&[3, 2][..], &[8, 4][..]));
    /// assert_eq!(a.view_as(8).unwrap().shape(), &[3, 1]);
    /// assert!(a.slice(s![.., ..;2]).unwrap().view_as(2).is_ok());
    /// assert_eq!(
    ///     a.slice(s![.., ..;2]).unwrap().view_as(4).unwrap_err().to_string(),
    ///     "to change to a dtype of a different size, the array must be C-contiguous"
    /// );
    /// ```
    pub fn view_as(&self, new_itemsize: usize) -> Result<Layout> {
        if new_itemsize == 0 {
            return Err(ShapeError::ZeroItemsize.into());
        }
        let mut out = self.clone();
        out.itemsize = new_itemsize;
        if new_itemsize == self.itemsize {
            return Ok(out);
        }
        if self.ndim() == 0 {
            return Err(ShapeError::ViewOfScalar {
                from: self.itemsize,
                to: new_itemsize,
            }
            .into());
        }
        if !self.is_c_contiguous() {
            return Err(Error::NotContiguous(
                "to change to a dtype of a different size, the array must be C-contiguous".into(),
            ));
        }
        let last = self.ndim() - 1;
        // Fits: the last axis is part of the array's own bytes.
        let bytes = self.shape[last] * self.itemsize;
        if bytes % new_itemsize != 0 {
            return Err(ShapeError::ViewSize {
                itemsize: new_itemsize,
                last_axis_bytes: bytes,
            }
            .into());
        }
        out.shape[last] = bytes / new_itemsize;
        out.strides[last] = new_itemsize as isize;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::s;

    #[test]
    fn reshape_shape_errors() {
        let a = Layout::c_order(&[10], 8).unwrap();
        let e = |x: Result<Layout>| x.unwrap_err().to_string();
        assert_eq!(
            e(a.reshape(&[-1, -1], Order::C)),
            "can only specify one unknown dimension: (-1, -1)"
        );
        assert_eq!(
            e(a.reshape(&[-2, 5], Order::C)),
            "negative dimensions not allowed: (-2, 5)"
        );
        assert_eq!(
            e(a.reshape(&[3, -1], Order::C)),
            "cannot reshape array of size 10 into shape (3, -1)"
        );
        assert_eq!(
            e(a.reshape(&[0, -1], Order::C)),
            "cannot reshape array of size 10 into shape (0, -1)"
        );
        assert_eq!(
            e(a.reshape(&[11], Order::C)),
            "cannot reshape array of size 10 into shape (11,)"
        );
        assert_eq!(
            e(a.reshape(&[isize::MAX, 4], Order::C)),
            format!(
                "cannot reshape array of size 10 into shape ({}, 4)",
                isize::MAX
            )
        );
    }

    #[test]
    fn reshape_of_arange_10_in_c_and_f() {
        let a = Layout::c_order(&[10], 8).unwrap();
        let c = a.reshape(&[2, 5], Order::C).unwrap();
        assert_eq!(c, Layout::c_order(&[2, 5], 8).unwrap());
        let f = a.reshape(&[2, 5], Order::F).unwrap();
        assert_eq!(f, Layout::f_order(&[2, 5], 8).unwrap());
        assert_eq!(a.reshape(&[10], Order::F).unwrap(), a);
    }

    #[test]
    fn reshape_of_strided_views() {
        let a = Layout::c_order(&[4, 6], 8).unwrap();
        let v = a.slice(s![.., ..;2]).unwrap(); // (4, 3) strides (48, 16)
        let r = v.reshape(&[2, 2, 3], Order::C).unwrap();
        assert_eq!(r.strides(), &[96, 48, 16]);
        // Every other element of the whole buffer: flattening is a view too.
        assert_eq!(v.reshape(&[12], Order::C).unwrap().strides(), &[16]);
        let w = a.slice(s![.., ..2]).unwrap(); // (4, 2) strides (48, 8)
        let e = w.reshape(&[8], Order::C).unwrap_err();
        assert_eq!(
            e.to_string(),
            "reshape would require copy: shape (4, 2) with strides [48, 8] cannot be viewed as shape (8,) in C order"
        );
        assert_eq!(
            w.reshape(&[2, 2, 2], Order::C).unwrap().strides(),
            &[96, 48, 8]
        );
        // Length-1 axes come and go freely.
        let r = v.reshape(&[1, 4, 1, 3, 1], Order::C).unwrap();
        assert_eq!(r.reshape(&[4, 3], Order::C).unwrap().strides(), &[48, 16]);
        // A order on an F array reads in F order.
        let f = Layout::f_order(&[3, 4], 8).unwrap();
        assert_eq!(f.reshape(&[12], Order::A).unwrap().strides(), &[8]);
        assert!(f.reshape(&[12], Order::C).is_err());
        // Size 0: any shape of size 0 is a view.
        let z = Layout::c_order(&[0, 3], 8).unwrap();
        assert_eq!(z.reshape(&[3, 0, 5], Order::C).unwrap().shape(), &[3, 0, 5]);
        let huge = isize::MAX / 4;
        assert!(z.reshape(&[0, huge, huge], Order::C).is_err());
        // Negative strides inside a group.
        let rv = Layout::c_order(&[6], 8).unwrap().slice(s![..;-1]).unwrap();
        let r = rv.reshape(&[2, 3], Order::C).unwrap();
        assert_eq!((r.strides(), r.offset()), (&[-24, -8][..], 40));
    }

    #[test]
    fn ravel_cases() {
        let c = Layout::c_order(&[3, 4], 8).unwrap();
        let f = Layout::f_order(&[3, 4], 8).unwrap();
        assert!(c.ravel(Order::C).is_ok() && c.ravel(Order::A).is_ok());
        assert!(f.ravel(Order::F).is_ok() && f.ravel(Order::A).is_ok());
        assert_eq!(
            f.ravel(Order::C).unwrap_err().to_string(),
            "ravel in C order needs a C-contiguous array; shape (3, 4) with strides [8, 24] would require a copy"
        );
        let s = c.slice(s![.., ..2]).unwrap();
        assert_eq!(
            s.ravel(Order::A).unwrap_err().to_string(),
            "ravel in A order needs a contiguous array; shape (3, 2) with strides [32, 8] would require a copy"
        );
        let one = Layout::c_order(&[5], 8).unwrap();
        for o in [Order::C, Order::F, Order::A] {
            assert_eq!(one.ravel(o).unwrap(), one);
        }
    }

    #[test]
    fn view_as_cases() {
        let a = Layout::c_order(&[3, 4], 2).unwrap();
        assert_eq!(a.view_as(4).unwrap().shape(), &[3, 2]);
        assert_eq!(a.view_as(8).unwrap().shape(), &[3, 1]);
        let small = a.view_as(1).unwrap();
        assert_eq!((small.shape(), small.strides()), (&[3, 8][..], &[8, 1][..]));
        let b = Layout::c_order(&[4, 3], 2).unwrap();
        assert_eq!(
            b.view_as(4).unwrap_err().to_string(),
            "when changing to a dtype of a different size, its size (4 bytes) must be a divisor of the total size in bytes of the last axis of the array (6 bytes)"
        );
        assert_eq!(
            Layout::scalar(4)
                .unwrap()
                .view_as(2)
                .unwrap_err()
                .to_string(),
            "changing the dtype of a 0d array is only supported if the itemsize is unchanged (4 to 2 bytes)"
        );
        assert!(Layout::scalar(4).unwrap().view_as(4).is_ok());
        assert!(a.view_as(0).is_err());
    }
}
