//! Constant memory: [`const_array_like`] makes a read-only copy of a host array for kernels
//! (Numba's `cuda.const.array_like`), a [`ConstArray`], whose documentation says what kernels see.
//!
//! This module touches only the memory it owns.

use std::fmt;
use std::sync::Arc;

use bytemuck::Pod;
use ndarray::{ArrayBase, Data, Dimension};

use crate::error::{Error, Result};
use crate::kernel::View;
use crate::kernel::{Const, MAX_DIMS, NdIndex};
use crate::layout::element::Element;

/// A read-only view of constant memory: n-d, bounds-checked reads; no writes.
///
/// ```
/// let c = rumba::const_array_like(&ndarray::arr2(&[[1u8, 2], [3, 4]])).unwrap();
/// let v = c.view();
/// assert_eq!(v.get((1, 0)), 3);
/// assert_eq!(v.shape(), &[2, 2]);
/// ```
///
/// Writing is not possible:
/// ```compile_fail
/// let c = rumba::const_array_like(&ndarray::arr1(&[1u8])).unwrap();
/// c.view().set(0, 5);
/// ```
#[derive(Clone, Copy)]
pub struct ConstView<'a, T> {
    inner: View<'a, T, Const>,
}

impl<T: Pod> fmt::Debug for ConstView<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

impl<'a, T: Pod> ConstView<'a, T> {
    /// Reads element `index`. Faults the calling GPU thread if it is out of bounds.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[5i32, 6])).unwrap();
    /// assert_eq!(c.view().get(1), 6);
    /// ```
    #[inline(always)]
    pub fn get<I: NdIndex>(&self, index: I) -> T {
        self.inner.get(index)
    }

    /// The shape.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::Array3::<f32>::zeros((2, 3, 4))).unwrap();
    /// assert_eq!(c.view().shape(), &[2, 3, 4]);
    /// ```
    #[inline]
    pub fn shape(&self) -> &[usize] {
        self.inner.shape()
    }

    /// The byte strides.
    ///
    /// ```
    /// use ndarray::ShapeBuilder;
    /// let c = rumba::const_array_like(&ndarray::Array2::<i32>::zeros((2, 3).f())).unwrap();
    /// assert_eq!(c.view().strides(), &[4, 8]);
    /// ```
    #[inline]
    pub fn strides(&self) -> &[isize] {
        self.inner.strides()
    }

    /// Number of dimensions.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1u8])).unwrap();
    /// assert_eq!(c.view().ndim(), 1);
    /// ```
    #[inline]
    pub fn ndim(&self) -> usize {
        self.inner.ndim()
    }

    /// Length of the first axis.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1u8, 2, 3])).unwrap();
    /// assert_eq!(c.view().len(), 3);
    /// ```
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// The same elements with another shape; see [`View::reshape`]. Faults the thread when the
    /// sizes differ.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1u8, 2, 3, 4])).unwrap();
    /// assert_eq!(c.view().reshape((2, 2)).get((1, 0)), 3);
    /// ```
    pub fn reshape(&self, shape: impl crate::kernel::IntoShape) -> Self {
        ConstView {
            inner: self.inner.reshape(shape),
        }
    }

    /// The same bytes as `U`s; see [`View::view`].
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1u16, 2])).unwrap();
    /// assert_eq!(c.view().view::<u8>().shape(), &[4]);
    /// ```
    pub fn view<U: Pod>(&self) -> ConstView<'a, U> {
        ConstView {
            inner: self.inner.view::<U>(),
        }
    }

    /// Index `i` of axis `axis`, that axis dropped; see [`View::index_axis`].
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr2(&[[1u8, 2], [3, 4]])).unwrap();
    /// assert_eq!(c.view().index_axis(0, 1).get(0), 3);
    /// ```
    pub fn index_axis(&self, axis: usize, i: usize) -> Self {
        ConstView {
            inner: self.inner.index_axis(axis, i),
        }
    }

    /// Row `i`; see [`View::row`].
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr2(&[[1u8, 2], [3, 4]])).unwrap();
    /// assert_eq!(c.view().row(1).get(1), 4);
    /// ```
    pub fn row(&self, i: usize) -> Self {
        self.index_axis(0, i)
    }

    /// Number of elements.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::Array2::<u8>::zeros((2, 5))).unwrap();
    /// assert_eq!(c.view().size(), 10);
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        self.inner.size()
    }
}

/// A read-only copy of a host array for kernels (constant memory), made by [`const_array_like`].
///
/// The copy is taken when `const_array_like` is called — in Numba, when the kernel is compiled —
/// so later changes to the host array do not reach the kernel. A `#[rumba::kernel]` takes it as
/// a `&ConstArr<T>` parameter (the launch passes `&lut`, on every backend); a closure body
/// captures the [`ConstArray`] (move it into the closure) and reads it with
/// [`ConstArray::get`] or through a [`ConstView`]. Neither type has any way to write: there is no
/// `set`, no atomic and no mutable access, so writing constant memory does not compile.
///
/// On the simulator the data lives in an immutable, reference-counted host allocation shared by
/// every block (constant memory is read-only for the device, so plain loads are race-free). The
/// layout is kept: a C- or F-ordered source keeps its order and byte strides; any other layout is
/// packed in C order. A CUDA kernel gets the same bytes as a `__constant__` global (see
/// [`Kernel::with_cuda_constant`](crate::kernel::Kernel::with_cuda_constant)), an OpenCL kernel
/// as named constant data (see
/// [`Kernel::with_opencl_constant`](crate::kernel::Kernel::with_opencl_constant)).
///
/// Cloning shares the data.
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn lookup(t: &Thread, lut: &ConstArr<i32>, out: &mut Arr<i32>) {
///     let i = t.grid1();
///     out[i] = lut[i];
/// }
///
/// # fn main() {
/// let mut table = ndarray::arr1(&[10i32, 20, 30]);
/// let lut = rumba::const_array_like(&table).unwrap();
/// table[0] = -1; // too late: the constant array has its own copy
/// let out = rumba::device_array::<i32, _>(3, rumba::Order::C).unwrap();
/// lookup().configure(1, 3).launch((&lut, &out)).unwrap();
/// assert_eq!(out.copy_to_host().unwrap().to_vec(), [10, 20, 30]);
/// # }
/// ```
#[derive(Clone)]
pub struct ConstArray<T> {
    /// Elements in memory order; never written after construction.
    data: Arc<[T]>,
    /// A view into `data`, valid as long as `data` lives (the heap block never moves). Only
    /// handed out with the lifetime of `&self`.
    view: View<'static, T, Const>,
}

impl<T: Pod> fmt::Debug for ConstArray<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ConstArray(shape {:?}, strides {:?})",
            self.view.shape(),
            self.view.strides()
        )
    }
}

/// Copies a host array into a new [`ConstArray`] (which says what kernels see). Fails for more
/// than [`MAX_DIMS`] dimensions.
///
/// # Errors
/// [`Error::Limit`] for more than [`MAX_DIMS`] dimensions; [`Error::OutOfMemory`] /
/// [`Error::PoolOutOfMemory`] and the copy's errors for the device copy.
///
/// ```
/// use num_complex::Complex;
/// let host = ndarray::Array3::from_shape_fn((5, 5, 5), |(i, j, k)| Complex::new(i as f32, (j * k) as f32));
/// let c = rumba::const_array_like(&host).unwrap();
/// assert_eq!(c.get((4, 2, 3)), Complex::new(4.0, 6.0));
/// assert_eq!(rumba::const_array_like(&ndarray::Array1::<u8>::zeros(0)).unwrap().size(), 0);
/// ```
pub fn const_array_like<T, S, D>(host: &ArrayBase<S, D>) -> Result<ConstArray<T>>
where
    T: Element + Pod,
    S: Data<Elem = T>,
    D: Dimension,
{
    if host.ndim() > MAX_DIMS {
        return Err(Error::Limit {
            what: "dimensions of a constant array",
            value: host.ndim(),
            max: MAX_DIMS,
        });
    }
    let item = size_of::<T>() as isize;
    let (data, strides): (Arc<[T]>, Vec<isize>) = match host.as_slice_memory_order() {
        // C- or F-contiguous (and no negative strides): keep the layout exactly.
        Some(s) if host.strides().iter().all(|&st| st >= 0) => (
            Arc::from(s),
            host.strides().iter().map(|&st| st * item).collect(),
        ),
        _ => {
            let data: Arc<[T]> = host.iter().copied().collect();
            let mut strides = vec![0isize; host.ndim()];
            let mut acc = item;
            for k in (0..host.ndim()).rev() {
                strides[k] = acc;
                acc *= host.shape()[k].max(1) as isize;
            }
            (data, strides)
        }
    };
    // SAFETY: `data` holds every element the layout addresses (a contiguous layout of its
    // elements in memory order); it is aligned for `T`, never written (it is an `Arc<[T]>` we
    // never hand out mutably), and lives as long as the `ConstArray`, which only lends the view
    // for the lifetime of `&self`.
    let view = unsafe { View::frozen(data.as_ptr().cast(), host.shape(), &strides) };
    Ok(ConstArray { data, view })
}

impl<T: Pod> ConstArray<T> {
    /// A view for reading, borrowed from the array.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1.5f64])).unwrap();
    /// assert_eq!(c.view().get(0), 1.5);
    /// ```
    #[inline]
    pub fn view(&self) -> ConstView<'_, T> {
        ConstView { inner: self.view }
    }

    /// Reads element `index`. Faults the calling GPU thread if it is out of bounds.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr2(&[[1u16, 2, 3], [4, 5, 6]])).unwrap();
    /// assert_eq!(c.get((1, 2)), 6);
    /// ```
    #[inline(always)]
    pub fn get<I: NdIndex>(&self, index: I) -> T {
        self.view.get(index)
    }

    /// The shape.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::Array2::<u8>::zeros((2, 5))).unwrap();
    /// assert_eq!(c.shape(), &[2, 5]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.view.shape()
    }

    /// Number of elements.
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::Array2::<u8>::zeros((2, 5))).unwrap();
    /// assert_eq!(c.size(), 10);
    /// ```
    pub fn size(&self) -> usize {
        self.view.size()
    }

    /// The elements in memory order.
    pub(crate) fn data(&self) -> &[T] {
        &self.data
    }

    /// The elements' bytes in memory order (what a CUDA `__constant__` global receives).
    ///
    /// ```
    /// let c = rumba::const_array_like(&ndarray::arr1(&[1u16, 2])).unwrap();
    /// assert_eq!(c.as_bytes(), &[1, 0, 2, 0]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.data)
    }
}
