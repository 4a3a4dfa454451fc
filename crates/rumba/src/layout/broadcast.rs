//! Broadcasting a source layout to a destination shape for assignment (`a[..] = b`).
//!
//! numpy's rule as Numba's `__setitem__` applies it: the source may not have more axes than the
//! destination; it is padded with leading length-1 axes; each source axis must equal the
//! destination's or be 1, and length-1 axes are repeated with a zero stride. The error texts are
//! Numba's, lower-cased as in the SPEC.
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;
use crate::error::Result;
use crate::error::ShapeError;

impl Layout {
    /// This (source) layout repeated to `shape` for assignment into an array of that shape.
    ///
    /// Errors ([`Error::Shape`](crate::Error::Shape)): more source than destination axes → "can't assign
    /// N-D array to M-D self"; an axis neither 1 nor equal → "can't copy sequence with size X to
    /// array axis K with dimension Y" (K counts destination axes).
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when `shape` has fewer axes than the layout, or an axis of the
    /// layout is neither 1 nor the target length (numpy's broadcasting rule), naming both shapes.
    ///
    /// ```
    /// use rumba::layout::Layout;
    /// let row = Layout::c_order(&[3], 8).unwrap();
    /// let b = row.broadcast_to(&[4, 3]).unwrap();
    /// assert_eq!((b.shape(), b.strides()), (&[4, 3][..], &[0, 8][..]));
    /// assert_eq!(
    ///     row.broadcast_to(&[3, 2]).unwrap_err().to_string(),
    ///     "can't copy sequence with size 3 to array axis 1 with dimension 2"
    /// );
    /// assert_eq!(
    ///     Layout::c_order(&[2, 3], 8).unwrap().broadcast_to(&[3]).unwrap_err().to_string(),
    ///     "can't assign 2-D array to 1-D self"
    /// );
    /// ```
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<Layout> {
        let (src, dst) = (self.ndim(), shape.len());
        if src > dst {
            return Err(ShapeError::BroadcastRank { from: src, to: dst }.into());
        }
        // The result must be a valid layout of its own: size and packed span fit.
        Layout::new(shape, super::Order::C, self.itemsize)?;
        let pad = dst - src;
        let mut strides = vec![0isize; dst];
        for (k, &want) in shape.iter().enumerate() {
            let (have, stride) = if k < pad {
                (1, 0)
            } else {
                (self.shape[k - pad], self.strides[k - pad])
            };
            if have != 1 && have != want {
                return Err(ShapeError::Broadcast {
                    axis: k,
                    from: have,
                    to: want,
                }
                .into());
            }
            strides[k] = if have == 1 && want != 1 { 0 } else { stride };
        }
        // A repeated axis of a 1-element source over an empty destination: still no element,
        // and an empty layout keeps the invariants whatever its strides.
        Ok(Layout {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_and_ones_broadcast_everywhere() {
        let s = Layout::scalar(4).unwrap();
        let b = s.broadcast_to(&[2, 3]).unwrap();
        assert_eq!(b.strides(), &[0, 0]);
        assert_eq!(b.alloc_extent(), (0, 4));
        let col = Layout::c_order(&[2, 1], 4).unwrap();
        let b = col.broadcast_to(&[5, 2, 3]).unwrap();
        assert_eq!((b.shape(), b.strides()), (&[5, 2, 3][..], &[0, 4, 0][..]));
        assert_eq!(col.broadcast_to(&[2, 1]).unwrap(), col);
        let e = col.broadcast_to(&[3, 1]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "can't copy sequence with size 2 to array axis 0 with dimension 3"
        );
        assert_eq!(
            Layout::c_order(&[0], 4)
                .unwrap()
                .broadcast_to(&[1])
                .unwrap_err()
                .to_string(),
            "can't copy sequence with size 0 to array axis 0 with dimension 1"
        );
        assert_eq!(
            Layout::c_order(&[1], 4)
                .unwrap()
                .broadcast_to(&[0])
                .unwrap()
                .size(),
            0
        );
        assert!(s.broadcast_to(&[usize::MAX, 2]).is_err());
    }
}
