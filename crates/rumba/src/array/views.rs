//! Views and element access: slicing with `s![..]`, single elements, `reshape`, `ravel`,
//! `view::<U>()`, transposes, `split`, `squeeze`, `bind`.
//!
//! Every view shares the array's memory and only changes the [`Layout`]; the layout module
//! decides (and property-tests) what is possible, and nothing here ever copies silently. The one
//! operation that makes new memory, [`DeviceArray::transpose_copy`], says so in its name and runs
//! on the device.
//!
//! This module touches the driver only for element reads/writes and `transpose_copy`.

use ndarray::{Dimension, IntoDimension, Ix1, IxDyn, RemoveAxis, SliceArg};

use super::DeviceArray;
use crate::driver::{StridedCopy, StridedSource};
use crate::error::Result;
use crate::error::{ShapeError, StridesError};
use crate::layout::array_layout::Layout;
use crate::layout::element::{Element, as_bytes};
use crate::layout::order::Order;
use crate::stream::Stream;

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// The view selected by `info` (ndarray's `s![..]`: ranges, steps including negative ones,
    /// single indices that drop an axis, `NewAxis`). Out-of-range indices and bounds are errors,
    /// never panics.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for a single index or range bound outside the axis (naming index,
    /// axis and length); [`Error::Shape`](crate::Error::Shape) for a step of 0 or more entries than axes.
    ///
    /// ```
    /// use ndarray::{Array, s};
    /// let host = Array::from_iter(0..30i32).into_shape_with_order((5, 6)).unwrap();
    /// let d = rumba::to_device(&host).unwrap();
    /// let v = d.slice(s![1..;2, ..;-3]).unwrap();
    /// let e = v.copy_to_host().unwrap_err();
    /// assert!(matches!(e, rumba::Error::Strides(rumba::error::StridesError::NegativeToHost { .. })));
    /// let v = d.slice(s![1..;2, 1..;3]).unwrap();
    /// assert_eq!(v.copy_to_host().unwrap(), host.slice(s![1..;2, 1..;3]));
    /// assert_eq!(
    ///     d.slice(s![5, ..]).unwrap_err().to_string(),
    ///     "index 5 is out of bounds for axis 0 with size 5"
    /// );
    /// ```
    pub fn slice<I: SliceArg<D>>(&self, info: I) -> Result<DeviceArray<T, I::OutDim>> {
        let layout = self.layout.slice(info.as_ref())?;
        self.with_layout(layout)
    }

    /// Like [`slice`](Self::slice), but range bounds outside an axis are clipped into it, as numpy
    /// does (`[-10:10]` of a length-3 axis is the whole axis); single indices are still checked.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for a single index outside `[-n, n)` (range bounds are clipped);
    /// [`Error::Shape`](crate::Error::Shape) for a step of 0 or more entries than axes.
    ///
    /// ```
    /// use ndarray::s;
    /// let d = rumba::device_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// assert!(d.slice(s![..5]).is_err());
    /// assert_eq!(d.slice_clipped(s![-10..5]).unwrap().shape(), &[3]);
    /// ```
    pub fn slice_clipped<I: SliceArg<D>>(&self, info: I) -> Result<DeviceArray<T, I::OutDim>> {
        let layout = self.layout.slice_clipped(info.as_ref())?;
        self.with_layout(layout)
    }

    /// The sub-array at `index` along `axis` (that axis removed).
    ///
    /// # Errors
    /// [`Error::InvalidAxes`](crate::Error::InvalidAxes) when `axis` is not below `ndim`; [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for an
    /// `index` outside `[-n, n)`.
    ///
    /// ```
    /// let d = rumba::to_device(&ndarray::array![[1u8, 2], [3, 4]]).unwrap();
    /// assert_eq!(d.index_axis(1, -1).unwrap().copy_to_host().unwrap().to_vec(), [2, 4]);
    /// ```
    pub fn index_axis(&self, axis: usize, index: isize) -> Result<DeviceArray<T, D::Smaller>>
    where
        D: RemoveAxis,
    {
        let layout = self.layout.index_axis(axis, index)?;
        self.with_layout(layout)
    }

    /// Reads one element back to the host. Each index may count from the end (`-1` is the last)
    /// and must lie in `[-n, n)`, else [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange).
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when `index` has another length than the number of axes;
    /// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for an index outside `[-n, n)`; the copy's errors.
    ///
    /// ```
    /// let d = rumba::to_device(&ndarray::array![[1.5f64, 2.5], [3.5, 4.5]]).unwrap();
    /// assert_eq!(d.get(&[1, -2]).unwrap(), 3.5);
    /// assert_eq!(d.get(&[2, 0]).unwrap_err().to_string(), "index 2 is out of bounds for axis 0 with size 2");
    /// ```
    pub fn get(&self, index: &[isize]) -> Result<T> {
        let off = self.layout.index_offset(index)?;
        let size = T::DTYPE.itemsize();
        let mut bytes = vec![0u8; size];
        let mut q = self.queue(None)?;
        let from = q.addr(&self.buffer, off)?;
        // SAFETY: `bytes` is ours and `dtoh` waits for the copy (wait mode).
        unsafe { q.dtoh(bytes.as_mut_ptr(), from, size)? };
        q.finish()?;
        T::normalize_bytes(&mut bytes);
        // SAFETY: `bytes` holds `size_of::<T>()` bytes that `normalize_bytes` made a valid `T`
        // (the `Element` contract); the read is unaligned-safe.
        Ok(unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<T>()) })
    }

    /// Writes one element (same index rules as [`get`](Self::get)); complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)).
    ///
    /// # Errors
    /// As [`get`](Self::get).
    ///
    /// ```
    /// let d = rumba::device_array::<i16, _>((2, 2), rumba::Order::C).unwrap();
    /// d.set(&[-1, -1], 7).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap(), ndarray::array![[0, 0], [0, 7]]);
    /// ```
    pub fn set(&self, index: &[isize], value: T) -> Result<()> {
        let off = self.layout.index_offset(index)?;
        let mut q = self.queue_async(None)?;
        let to = q.addr(&self.buffer, off)?;
        q.htod(to, as_bytes(std::slice::from_ref(&value)))?;
        q.keep(vec![self.buffer.clone()])?;
        q.finish()
    }

    /// The same elements with a new shape, read in `order` (`A`: F if the array is F-contiguous
    /// only, else C). The result has the dimension type of `shape` (`(2, 5)` gives an `Ix2`
    /// array); [`reshape_dyn`](Self::reshape_dyn) takes numpy's `-1` for one inferred length.
    /// Never copies: a reshape that would need a copy is an error, as is a size change.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) for a shape of another size ([`ShapeError::ReshapeSize`]);
    /// [`Error::NotContiguous`](crate::Error::NotContiguous) when the reshape would need a copy (never made silently).
    ///
    /// ```
    /// use rumba::Order;
    /// use rumba::error::{Error, ShapeError};
    /// let d = rumba::to_device(&ndarray::Array::from_iter(0..10i32)).unwrap();
    /// let m: rumba::DeviceArray<i32, ndarray::Ix2> = d.reshape((2, 5), Order::C).unwrap();
    /// assert_eq!(m.copy_to_host().unwrap(), ndarray::Array::from_iter(0..10).into_shape_with_order((2, 5)).unwrap());
    /// let e = d.reshape((3, 4), Order::C).unwrap_err();
    /// assert!(matches!(e, Error::Shape(ShapeError::ReshapeSize { size: 10, .. })));
    /// ```
    pub fn reshape<Sh: IntoDimension>(
        &self,
        shape: Sh,
        order: Order,
    ) -> Result<DeviceArray<T, Sh::Dim>> {
        let dim = shape.into_dimension();
        let request = dim
            .slice()
            .iter()
            .map(|&n| isize::try_from(n))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|_| ShapeError::TooLarge {
                shape: dim.slice().to_vec(),
                itemsize: self.itemsize(),
            })?;
        let layout = self.layout.reshape(&request, order)?;
        self.with_layout(layout)
    }

    /// [`reshape`](Self::reshape) to a run-time shape in which one entry may be `-1` (inferred
    /// from the size, as in numpy), giving an `IxDyn` array.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape): more than one `-1` ([`ShapeError::MultipleUnknown`]), another negative
    /// length ([`ShapeError::NegativeDimension`]), or a shape of another size
    /// ([`ShapeError::ReshapeSize`]); [`Error::NotContiguous`](crate::Error::NotContiguous) when the reshape would need a copy.
    ///
    /// ```
    /// use rumba::Order;
    /// let d = rumba::to_device(&ndarray::Array::from_iter(0..10i32)).unwrap();
    /// let c = d.reshape_dyn(&[2, -1], Order::C).unwrap().copy_to_host().unwrap();
    /// assert_eq!(c, ndarray::Array::from_iter(0..10).into_shape_with_order((2, 5)).unwrap().into_dyn());
    /// assert_eq!(
    ///     d.reshape_dyn(&[-1, -1], Order::C).unwrap_err().to_string(),
    ///     "can only specify one unknown dimension: (-1, -1)"
    /// );
    /// ```
    pub fn reshape_dyn(&self, shape: &[isize], order: Order) -> Result<DeviceArray<T, IxDyn>> {
        let layout = self.layout.reshape(shape, order)?;
        self.with_layout(layout)
    }

    /// The elements as a 1-D view in `order`; only for an array contiguous in that order
    /// (`A`: either), else an error (never a copy).
    ///
    /// # Errors
    /// [`Error::NotContiguous`](crate::Error::NotContiguous) when the array is not contiguous in `order`.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::Order;
    /// let d = rumba::device_array::<f32, _>((3, 4), Order::F).unwrap();
    /// assert_eq!(d.ravel(Order::F).unwrap().shape(), &[12]);
    /// assert!(d.ravel(Order::C).is_err());
    /// assert!(d.slice(s![..;2, ..]).unwrap().ravel(Order::A).is_err());
    /// ```
    pub fn ravel(&self, order: Order) -> Result<DeviceArray<T, Ix1>> {
        let layout = self.layout.ravel(order)?;
        self.with_layout(layout)
    }

    /// The same bytes as elements of type `U` (numpy's `view(dtype)`). A different item size
    /// needs a C-contiguous array whose last axis spans a multiple of `U`'s size; the result must
    /// also be aligned for `U`.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when the item sizes differ and the last axis's byte length is not a
    /// multiple of `U`'s size, or the array is 0-dimensional; [`Error::NotContiguous`](crate::Error::NotContiguous) when the item
    /// sizes differ and the array is not C-contiguous.
    ///
    /// ```
    /// let d = rumba::to_device(&ndarray::array![[1i16, 0, 2, 0]]).unwrap();
    /// let w = d.view::<i32>().unwrap();
    /// assert_eq!(w.shape(), &[1, 2]);
    /// assert_eq!(w.copy_to_host().unwrap().into_iter().collect::<Vec<_>>(), [1, 2].map(|v: i32| if cfg!(target_endian = "little") { v } else { v << 16 }));
    /// ```
    pub fn view<U: Element>(&self) -> Result<DeviceArray<U, D>> {
        let layout = self.layout.view_as(U::DTYPE.itemsize())?;
        if layout.size() > 0 && !layout.is_aligned(U::DTYPE.align()) {
            return Err(StridesError::Misaligned {
                offset: layout.offset(),
                strides: layout.strides().to_vec(),
                align: U::DTYPE.align(),
                dtype: U::DTYPE.name(),
            }
            .into());
        }
        self.with_layout(layout)
    }

    /// The transposed view (axes reversed), sharing memory — Numba copies here; we don't need to.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((2, 3), rumba::Order::C).unwrap();
    /// let t = d.t();
    /// assert_eq!((t.shape(), t.strides()), (&[3, 2][..], &[4, 12][..]));
    /// assert!(t.same_memory(&d));
    /// ```
    pub fn t(&self) -> DeviceArray<T, D> {
        let mut dim = self.dim.clone();
        dim.slice_mut().reverse();
        DeviceArray {
            buffer: self.buffer.clone(),
            layout: self.layout.t(),
            dim,
            stream: self.stream.clone(),
            _elem: std::marker::PhantomData,
        }
    }

    /// The view with axis `i` taken from axis `axes[i]` (a permutation, else "invalid axes list");
    /// the identity returns the same array.
    ///
    /// # Errors
    /// [`Error::InvalidAxes`](crate::Error::InvalidAxes) when `axes` is not a permutation of `0..ndim`.
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>((2, 3, 4), rumba::Order::C).unwrap();
    /// assert_eq!(d.transpose(&[2, 0, 1]).unwrap().shape(), &[4, 2, 3]);
    /// assert_eq!(d.transpose(&[0, 0, 1]).unwrap_err().to_string(),
    ///            "invalid axes list: [0, 0, 1] is not a permutation of the 3 axes");
    /// ```
    pub fn transpose(&self, axes: &[usize]) -> Result<DeviceArray<T, D>> {
        let layout = self.layout.permuted_axes(axes)?;
        self.with_layout(layout)
    }

    /// A **new** C-contiguous array holding the transpose (`axes` as in
    /// [`transpose`](Self::transpose), `None` reverses them), computed on the device by one
    /// strided copy. Complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)); the new array is bound to the same stream.
    ///
    /// # Errors
    /// [`Error::InvalidAxes`](crate::Error::InvalidAxes) for a bad `axes` list; [`Error::OutOfMemory`](crate::Error::OutOfMemory) /
    /// [`Error::PoolOutOfMemory`](crate::Error::PoolOutOfMemory) for the new array; the errors of the device transpose.
    ///
    /// ```
    /// use ndarray::array;
    /// let d = rumba::to_device(&array![[1u32, 2, 3], [4, 5, 6]]).unwrap();
    /// let t = d.transpose_copy(None).unwrap();
    /// assert!(t.is_c_contiguous() && !t.same_memory(&d));
    /// assert_eq!(t.copy_to_host().unwrap(), array![[1, 4], [2, 5], [3, 6]]);
    /// ```
    pub fn transpose_copy(&self, axes: Option<&[usize]>) -> Result<DeviceArray<T, D>> {
        let view = self.layout.transpose(axes)?;
        let packed = Layout::c_order(view.shape(), T::DTYPE.itemsize())?;
        let bytes = if packed.size() == 0 {
            0
        } else {
            packed.nbytes()
        };
        let ctx = crate::runtime::context_for(self.buffer.device())?;
        let out: DeviceArray<T, D> =
            DeviceArray::from_parts(ctx.memalloc(bytes)?, packed, self.stream.clone())?;
        if out.size() > 0 {
            let mut q = self.queue_async(None)?;
            let (to, from) = (
                q.addr(&out.buffer, 0)?,
                q.addr(&self.buffer, view.offset())?,
            );
            q.strided(&StridedCopy {
                shape: view.shape(),
                itemsize: T::DTYPE.itemsize(),
                dst: to,
                dst_strides: out.layout.strides(),
                src: StridedSource::Device {
                    ptr: from,
                    strides: view.strides(),
                },
            })?;
            q.keep(vec![self.buffer.clone(), out.buffer.clone()])?;
            q.finish()?;
        }
        Ok(out)
    }

    /// Numba's `split(n)`: consecutive views of `n` elements (the last may be shorter) of a 1-D,
    /// unit-stride array.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when the array is not 1-D or `n` is 0; [`Error::NotContiguous`](crate::Error::NotContiguous) when
    /// its stride is not one element.
    ///
    /// ```
    /// let d = rumba::to_device(&ndarray::Array::from_iter(0..100i32)).unwrap();
    /// let halves = d.split(50).unwrap();
    /// assert_eq!(halves.len(), 2);
    /// assert_eq!(halves[1].copy_to_host().unwrap().to_vec(), (50..100).collect::<Vec<_>>());
    /// ```
    pub fn split(&self, n: usize) -> Result<Vec<DeviceArray<T, Ix1>>> {
        self.layout
            .split(n)?
            .into_iter()
            .map(|l| self.with_layout(l))
            .collect()
    }

    /// Removes length-1 axes: all (`None`) or the one given.
    ///
    /// # Errors
    /// [`Error::InvalidAxes`](crate::Error::InvalidAxes) when `axis` is not below `ndim`; [`Error::Shape`](crate::Error::Shape) when that
    /// axis's length is not 1.
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>((1, 3, 1), rumba::Order::C).unwrap();
    /// assert_eq!(d.squeeze(None).unwrap().shape(), &[3]);
    /// assert!(d.squeeze(Some(1)).is_err());
    /// ```
    pub fn squeeze(&self, axis: Option<usize>) -> Result<DeviceArray<T, IxDyn>> {
        let layout = self.layout.squeeze(axis)?;
        self.with_layout(layout)
    }

    /// The same memory bound to `stream`: operations without an explicit stream run there, as in
    /// Numba. The rule for when they return:
    /// - operations that only take host data or stay on the device — `copy` into it from the host
    ///   or another device array, `assign`, `fill`, `set`, `transpose_copy` — are **asynchronous** on
    ///   the stream: host data is copied before they return, and the stream keeps the device
    ///   memory alive until the work has run;
    /// - operations that give host memory back — `copy_to_host`, `copy` out of it, `get` —
    ///   wait for the stream (the data must have arrived before the caller can look at it; use a
    ///   [`StreamScope`](crate::StreamScope) or an owned transfer for asynchronous reads).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<u8, _>(4, rumba::Order::C).unwrap().bind(&s);
    /// d.assign(3u8).unwrap();                       // queued on `s`; returns at once
    /// rumba::copy(&d, &ndarray::array![1u8, 2, 0, 0].view()).unwrap(); // after the fill, on `s`
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 0, 0]); // waits for `s`
    /// ```
    pub fn bind(&self, stream: &Stream) -> DeviceArray<T, D> {
        let mut out = self.clone();
        out.stream = Some(stream.clone());
        out
    }
}
