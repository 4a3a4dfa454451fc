//! Host-side layouts of host-memory arrays: an `ndarray` dimension with element strides, and
//! the byte [`Layout`] that the device side (strided copies, fills) uses for the same elements.
//!
//! Pure code: this module computes and never touches memory except in the two `unsafe`
//! view constructors, whose callers vouch for the memory.

use ndarray::{ArrayView, ArrayViewMut, Axis, Dimension, ShapeBuilder};

use crate::array::ArrayLike;
use crate::error::Result;
use crate::layout::{Element, Layout, Order};

/// The shape of a host array in both vocabularies. `layout`'s offsets are bytes from the lowest
/// address the array touches (its *base*).
#[derive(Clone, Debug)]
pub(crate) struct HostLayout<D> {
    pub(crate) dim: D,
    pub(crate) layout: Layout,
}

impl<D: Dimension> HostLayout<D> {
    pub(crate) fn from_layout(layout: Layout) -> Result<Self> {
        Ok(HostLayout {
            dim: layout.into_dim()?,
            layout,
        })
    }

    /// A packed layout of `dim` in `order` for `T`.
    pub(crate) fn packed<T: Element>(dim: &D, order: Order) -> Result<Self> {
        Self::from_layout(Layout::from_dim(dim, order, T::DTYPE.itemsize())?)
    }

    /// A packed layout like `like`'s, by numpy's `empty_like` rule.
    pub(crate) fn like<A: ArrayLike<Dim = D> + ?Sized>(like: &A) -> Result<Self> {
        Self::from_layout(like.like_layout()?.empty_like())
    }

    /// The layout of an existing host view.
    pub(crate) fn of_view<T: Element>(v: &ArrayView<'_, T, D>) -> Result<Self> {
        Ok(HostLayout {
            dim: v.raw_dim(),
            layout: Layout::from_elem_strides(v.shape(), v.strides(), T::DTYPE.itemsize())?,
        })
    }

    /// Number of elements.
    pub(crate) fn size(&self) -> usize {
        self.layout.size()
    }

    /// Bytes between the base and the end of the last element (0 for an empty array).
    pub(crate) fn extent(&self) -> usize {
        if self.layout.size() == 0 {
            0
        } else {
            self.layout.alloc_extent().1
        }
    }

    /// Element strides with every axis made non-negative, and the axes that were negative.
    fn abs_strides(&self) -> (D, Vec<usize>) {
        let itemsize = self.layout.itemsize() as isize;
        let mut strides = D::zeros(self.dim.ndim());
        let mut flipped = Vec::new();
        for (k, &s) in self.layout.strides().iter().enumerate() {
            strides[k] = (s / itemsize).unsigned_abs();
            if s < 0 {
                flipped.push(k);
            }
        }
        (strides, flipped)
    }

    /// A shared view of the elements at `base`.
    ///
    /// # Safety
    /// `base` must be aligned for `T` and point at the lowest byte of live memory holding the
    /// layout's elements as valid `T`s, not written by anyone for `'a`.
    pub(crate) unsafe fn view<'a, T: Element>(&self, base: *const u8) -> ArrayView<'a, T, D> {
        let (strides, flipped) = self.abs_strides();
        // SAFETY: with non-negative strides the first element is the lowest one, at `base`
        // (flipping axes below restores the caller's order); the caller vouches for the memory.
        let mut v = unsafe {
            ArrayView::from_shape_ptr(self.dim.clone().strides(strides), base.cast::<T>())
        };
        for k in flipped {
            v.invert_axis(Axis(k));
        }
        v
    }

    /// An exclusive view of the elements at `base`.
    ///
    /// # Safety
    /// As for [`view`](Self::view), and nobody else may read or write the memory for `'a`.
    pub(crate) unsafe fn view_mut<'a, T: Element>(&self, base: *mut u8) -> ArrayViewMut<'a, T, D> {
        let (strides, flipped) = self.abs_strides();
        // SAFETY: as in `view`; exclusivity is the caller's promise.
        let mut v = unsafe {
            ArrayViewMut::from_shape_ptr(self.dim.clone().strides(strides), base.cast::<T>())
        };
        for k in flipped {
            v.invert_axis(Axis(k));
        }
        v
    }
}

/// The lowest address an ndarray view touches.
pub(crate) fn base_of<T: Element, D: Dimension>(
    v: &ArrayView<'_, T, D>,
    layout: &HostLayout<D>,
) -> *const u8 {
    v.as_ptr().cast::<u8>().wrapping_sub(layout.layout.offset())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, s};

    #[test]
    fn views_round_trip_any_strides() {
        let a = Array2::from_shape_fn((4, 5), |(i, j)| (i * 10 + j) as i32);
        for v in [
            a.view(),
            a.slice(s![..;-1, ..]),
            a.slice(s![1..;2, ..;-2]),
            a.t(),
        ] {
            let hl = HostLayout::of_view(&v).unwrap();
            let base = base_of(&v, &hl);
            // SAFETY: `a` is alive and unwritten for this scope.
            let back = unsafe { hl.view::<i32>(base) };
            assert_eq!(back, v);
        }
    }
}
