//! Conversions between a [`Layout`]'s dynamic shape and ndarray's dimension types (`Ix1` …
//! `IxDyn`), for the typed `DeviceArray<T, D>` built on top of `Layout`: the layout stores plain
//! vectors, the typed array converts `D` into it ([`Layout::from_dim`]) and back
//! ([`Layout::into_dim`]).
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;
use super::order::Order;
use crate::error::Result;
use crate::error::ShapeError;
use ndarray::Dimension;

impl Layout {
    /// A packed layout in `order` for an ndarray dimension value (`Ix2`, `IxDyn`, ...).
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when the byte size of `dim` with `itemsize` overflows.
    ///
    /// ```
    /// use ndarray::Ix2;
    /// use rumba::layout::{Layout, Order};
    /// let l = Layout::from_dim(&Ix2(2, 5), Order::F, 4).unwrap();
    /// assert_eq!(l.strides(), &[4, 8]);
    /// ```
    pub fn from_dim<D: Dimension>(dim: &D, order: Order, itemsize: usize) -> Result<Layout> {
        let shape: Vec<usize> = (0..dim.ndim()).map(|i| dim[i]).collect();
        Layout::new(&shape, order, itemsize)
    }

    /// The shape as an ndarray dimension value of type `D`; [`Error::Shape`](crate::Error::Shape) when `D`
    /// has a fixed number of axes different from [`ndim`](Layout::ndim).
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when the number of axes is not `D`'s.
    ///
    /// ```
    /// use ndarray::{Ix2, Ix3, IxDyn};
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[2, 5], 8).unwrap();
    /// assert_eq!(l.into_dim::<Ix2>().unwrap(), Ix2(2, 5));
    /// assert_eq!(l.into_dim::<IxDyn>().unwrap(), IxDyn(&[2, 5]));
    /// assert!(l.into_dim::<Ix3>().is_err());
    /// ```
    pub fn into_dim<D: Dimension>(&self) -> Result<D> {
        dim_from_shape(&self.shape)
    }
}

/// Converts a shape to an ndarray dimension value of type `D`.
///
/// # Errors
/// [`Error::Shape`](crate::Error::Shape) when `shape` has another number of axes than `D`.
///
/// ```
/// use ndarray::Ix1;
/// assert_eq!(rumba::layout::dim::dim_from_shape::<Ix1>(&[7]).unwrap(), Ix1(7));
/// assert!(rumba::layout::dim::dim_from_shape::<Ix1>(&[7, 1]).is_err());
/// ```
pub fn dim_from_shape<D: Dimension>(shape: &[usize]) -> Result<D> {
    if let Some(n) = D::NDIM {
        if n != shape.len() {
            return Err(ShapeError::Rank {
                shape: shape.to_vec(),
                expected: n,
            }
            .into());
        }
    }
    let mut d = D::zeros(shape.len());
    for (i, &n) in shape.iter().enumerate() {
        d[i] = n;
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_convert_both_ways() {
        let l = Layout::from_dim(&ndarray::Ix3(2, 3, 4), Order::C, 2).unwrap();
        assert_eq!(l.shape(), &[2, 3, 4]);
        assert_eq!(l.into_dim::<ndarray::Ix3>().unwrap(), ndarray::Ix3(2, 3, 4));
        assert_eq!(
            l.into_dim::<ndarray::Ix2>().unwrap_err().to_string(),
            "cannot use shape (2, 3, 4) with 3 axes as a 2-dimensional array"
        );
        let z = Layout::scalar(1).unwrap();
        assert_eq!(z.into_dim::<ndarray::Ix0>().unwrap(), ndarray::Ix0());
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Dimension types that fix at least one axis (`Ix1` … `Ix6`): arrays of these have a first
/// axis, so [`DeviceArray::len`](crate::DeviceArray::len) needs no error case. Sealed: rumba
/// implements it for exactly these six types.
///
/// ```
/// fn first_len<D: rumba::layout::dim::HasAxes>(d: &rumba::DeviceArray<f32, D>) -> usize {
///     d.len()
/// }
/// let d = rumba::device_array::<f32, _>((3, 2), rumba::Order::C).unwrap();
/// assert_eq!(first_len(&d), 3);
/// ```
pub trait HasAxes: Dimension + sealed::Sealed {}

macro_rules! has_axes {
    ($($ix:ident),*) => {$(
        impl sealed::Sealed for ndarray::$ix {}
        impl HasAxes for ndarray::$ix {}
    )*};
}
has_axes!(Ix1, Ix2, Ix3, Ix4, Ix5, Ix6);
