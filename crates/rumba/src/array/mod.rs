//! [`DeviceArray<T, D>`]: an n-dimensional array in device memory (docs/design/behaviour.md §2).
//!
//! A device array is three things: a [`DeviceBuffer`] (the reference-counted allocation), a
//! [`Layout`] (shape, **byte** strides, offset — the pure arithmetic of [`crate::layout`]) and the
//! stream it is bound to, if any. Views (slices, transposes, reshapes, `view::<U>()`) share the
//! buffer and only change the layout, so they are free and keep the allocation alive.
//!
//! | file | concept |
//! | --- | --- |
//! | `mod.rs` | the type, its attributes and conversions between dimensionalities |
//! | [`create`] | [`to_device`], [`device_array`], [`device_array_like`] and friends |
//! | [`transfer`] | `copy_to_host`, and the host and device copies that `rumba::copy` runs (SPEC copy rules) |
//! | [`views`] | slicing, element access, reshape, ravel, `view`, transposes, split, squeeze |
//! | [`assign`] | broadcasting assignment from scalars, host and device arrays |
//! | (`crate::transfer`) | the scoped transfers on a [`StreamScope`](crate::StreamScope), and `copy(dst, src)` over every pair |
//! | [`record`] | [`DeviceRecord`] and record fields ([`Field`], [`field!`](crate::field)) |
//! | `host.rs`, `queue.rs`, `pageable.rs` | packing of strided host views; where work is queued and awaited; pageable uploads staged through pinned chunks |
//!
//! **Where work runs.** Transfers move bytes with the driver's copies; everything that rearranges
//! elements on the device (assignment into strided views, broadcasting, `transpose_copy`, gathers
//! of strided sources) is one [`Driver::copy_strided_async`](crate::driver::Driver::copy_strided_async)
//! on the device — never a round trip through the host.
//!
//! **When it completes.** Without a stream, an operation completes before it returns: it is
//! queued on the array's bound stream (see [`DeviceArray::bind`]) or the default stream and
//! that stream is synchronized, as CUDA's synchronous calls behave. The `*_on(&stream)` variants
//! are asynchronous; host memory they read is taken before they return. On a
//! [`StreamScope`](crate::StreamScope), host memory stays borrowed until the scope synchronizes,
//! so copies from pinned memory are truly asynchronous. Device buffers used by queued work are
//! kept alive by the stream until it has run.
//!
//! **Validation first.** Every check (dtype, shape, broadcasting, contiguity, bounds) happens
//! before anything is queued, so a refused operation leaves the destination unchanged.
//!
//! ```
//! use ndarray::{array, s};
//! let host = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let d = rumba::to_device(&host).unwrap();
//! d.slice(s![.., 1]).unwrap().assign(0.0f32).unwrap();        // on the device
//! assert_eq!(d.copy_to_host().unwrap(), array![[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]);
//! let r = d.reshape_dyn(&[3, -1], rumba::Order::C).unwrap(); // a view, never a copy
//! assert_eq!(r.shape(), &[3, 2]);
//! ```
//!
pub mod assign;
pub mod create;
mod host;
mod pageable;
mod queue;
pub mod record;
pub mod transfer;
pub mod views;

use std::fmt;
use std::marker::PhantomData;

use ndarray::{Dimension, IxDyn};

use crate::driver::DevicePtr;
use crate::error::Result;
use crate::error::{ShapeError, StridesError};
use crate::layout::dim::HasAxes;

use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;

pub use assign::{AssignSource, Scalar};
pub use create::{
    ArrayLike, ToDevice, device_array, device_array_like, device_array_with_strides, to_device,
    to_device_alloc, to_device_on,
};
/// For the host-memory layer's owned and scoped transfers of pinned arrays.
pub(crate) use host::{HostMut, HostRef, download, upload};
pub(crate) use queue::{Mode, Queue};
pub use record::{DeviceRecord, Field};

// The layout vocabulary under the paths earlier versions had (`rumba::Order`, …); it lives
// in [`crate::layout`].
pub use crate::layout::{
    ContiguousRuns, CopyKind, CopyPlan, DType, Element, Kind, Layout, Order, Record, RunBlock,
    check_copy, dim, element,
};

/// An n-dimensional array of `T` in device memory, with `ndarray`-style dimensionality `D`
/// (`Ix1` … `IxDyn`). Strides are in **bytes** and may be negative or zero in views.
///
/// Cloning is cheap and shares the memory (like a view); the allocation is released when the
/// last array or view using it is dropped and no queued work uses it any more.
///
/// ```
/// use ndarray::{Array2, ShapeBuilder};
/// let host = Array2::<f64>::zeros((3, 4).f());
/// let d = rumba::to_device(&host).unwrap();
/// assert_eq!((d.shape(), d.strides()), (&[3, 4][..], &[8, 24][..]));
/// assert_eq!((d.ndim(), d.size(), d.len(), d.nbytes()), (2, 12, 3, 96));
/// assert!(d.is_f_contiguous() && !d.is_c_contiguous());
/// ```
pub struct DeviceArray<T: Element, D: Dimension> {
    buffer: DeviceBuffer,
    layout: Layout,
    dim: D,
    stream: Option<Stream>,
    _elem: PhantomData<fn() -> T>,
}

impl<T: Element, D: Dimension + HasAxes> DeviceArray<T, D> {
    /// Length of the first axis (Numba's `len()`).
    ///
    /// Only arrays whose type fixes at least one axis (`Ix1` … `Ix6`) have it, so numpy's "len()
    /// of unsized object" is a compile error instead of a run-time one; for an `IxDyn` array use
    /// `shape().first()`.
    ///
    /// ```
    /// let d = rumba::device_array::<i32, _>((7, 5), rumba::Order::C).unwrap();
    /// assert_eq!(d.len(), 7);
    /// assert_eq!(d.into_dyn().shape().first(), Some(&7));
    /// ```
    ///
    /// ```compile_fail,E0599
    /// let s = rumba::device_array::<i32, _>((), rumba::Order::C).unwrap();
    /// s.len(); // a 0-d array has no first axis
    /// ```
    #[allow(clippy::len_without_is_empty)] // `is_empty` (no element) is defined for every rank
    pub fn len(&self) -> usize {
        self.layout.shape().first().copied().unwrap_or(0)
    }
}

impl<T: Element, D: Dimension> Clone for DeviceArray<T, D> {
    fn clone(&self) -> Self {
        DeviceArray {
            buffer: self.buffer.clone(),
            layout: self.layout.clone(),
            dim: self.dim.clone(),
            stream: self.stream.clone(),
            _elem: PhantomData,
        }
    }
}

impl<T: Element, D: Dimension> fmt::Debug for DeviceArray<T, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DeviceArray<{}>(shape {}, strides {:?}, offset {}, {:?}",
            T::DTYPE.name(),
            crate::error::format_shape(self.layout.shape()),
            self.layout.strides(),
            self.layout.offset(),
            self.buffer
        )?;
        match &self.stream {
            Some(s) => write!(f, ", bound to {s})"),
            None => f.write_str(")"),
        }
    }
}

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// Wraps a buffer and a layout. The layout's element size must be `T`'s, its number of axes
    /// must fit `D`, and every byte it touches must lie inside the buffer.
    pub(crate) fn from_parts(
        buffer: DeviceBuffer,
        layout: Layout,
        stream: Option<Stream>,
    ) -> Result<Self> {
        if layout.itemsize() != T::DTYPE.itemsize() {
            return Err(ShapeError::Itemsize {
                layout: layout.itemsize(),
                dtype: T::DTYPE.name(),
                itemsize: T::DTYPE.itemsize(),
            }
            .into());
        }
        let (_, hi) = layout.alloc_extent();
        if layout.size() > 0 && hi > buffer.len() {
            return Err(StridesError::OutOfAllocation {
                shape: layout.shape().to_vec(),
                strides: layout.strides().to_vec(),
                offset: layout.offset(),
                alloc_len: buffer.len(),
            }
            .into());
        }
        let dim = layout.into_dim::<D>()?;
        Ok(DeviceArray {
            buffer,
            layout,
            dim,
            stream,
            _elem: PhantomData,
        })
    }

    /// The same memory with another layout (a view); keeps the bound stream.
    pub(crate) fn with_layout<E: Dimension, U: Element>(
        &self,
        layout: Layout,
    ) -> Result<DeviceArray<U, E>> {
        DeviceArray::from_parts(self.buffer.clone(), layout, self.stream.clone())
    }

    /// The shape.
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>((2, 5), rumba::Order::C).unwrap();
    /// assert_eq!(d.shape(), &[2, 5]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The shape as an ndarray dimension.
    ///
    /// ```
    /// let d = rumba::device_array::<u8, _>((2, 5), rumba::Order::C).unwrap();
    /// assert_eq!(d.raw_dim(), ndarray::Ix2(2, 5));
    /// ```
    pub fn raw_dim(&self) -> D {
        self.dim.clone()
    }

    /// Byte strides, one per axis (Numba's `strides`).
    ///
    /// ```
    /// let d = rumba::device_array::<i32, _>((2, 5), rumba::Order::C).unwrap();
    /// assert_eq!(d.strides(), &[20, 4]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// Number of axes.
    ///
    /// ```
    /// let d = rumba::device_array::<i32, _>((2, 5, 1), rumba::Order::C).unwrap();
    /// assert_eq!(d.ndim(), 3);
    /// ```
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }

    /// Number of elements (1 for a 0-d array).
    ///
    /// ```
    /// let d = rumba::device_array::<i32, _>((2, 5), rumba::Order::C).unwrap();
    /// assert_eq!(d.size(), 10);
    /// ```
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// True when the array has no element.
    ///
    /// ```
    /// let d = rumba::device_array::<i32, _>((0, 5), rumba::Order::C).unwrap();
    /// assert!(d.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.size() == 0
    }

    /// `itemsize × size`: bytes of data.
    ///
    /// ```
    /// let d = rumba::device_array::<f64, _>(4, rumba::Order::C).unwrap();
    /// assert_eq!(d.nbytes(), 32);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.layout.nbytes()
    }

    /// Bytes of the allocation the elements span (Numba's `alloc_size`).
    ///
    /// ```
    /// use ndarray::s;
    /// let d = rumba::device_array::<f64, _>(10, rumba::Order::C).unwrap();
    /// assert_eq!(d.slice(s![..;3]).unwrap().alloc_size(), 9 * 8 + 8);
    /// ```
    pub fn alloc_size(&self) -> usize {
        self.layout.alloc_size()
    }

    /// Bytes per element.
    ///
    /// ```
    /// let d = rumba::device_array::<u16, _>(4, rumba::Order::C).unwrap();
    /// assert_eq!(d.itemsize(), 2);
    /// ```
    pub fn itemsize(&self) -> usize {
        self.layout.itemsize()
    }

    /// The element type's runtime description.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// assert_eq!(d.dtype().name(), "float32");
    /// ```
    pub fn dtype(&self) -> DType {
        T::DTYPE
    }

    /// The stream the array is bound to: its operations run there (see [`bind`](Self::bind)).
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// assert!(d.stream().is_none());
    /// let s = rumba::stream().unwrap();
    /// assert_eq!(d.bind(&s).stream().unwrap().handle(), s.handle());
    /// ```
    pub fn stream(&self) -> Option<&Stream> {
        self.stream.as_ref()
    }

    /// numpy's relaxed C-contiguity (length-1 axes ignored; size 0 is contiguous).
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((1, 4), rumba::Order::F).unwrap();
    /// assert!(d.is_c_contiguous() && d.is_f_contiguous());
    /// ```
    pub fn is_c_contiguous(&self) -> bool {
        self.layout.is_c_contiguous()
    }

    /// numpy's relaxed F-contiguity.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((3, 4), rumba::Order::F).unwrap();
    /// assert!(d.is_f_contiguous());
    /// ```
    pub fn is_f_contiguous(&self) -> bool {
        self.layout.is_f_contiguous()
    }

    /// The layout: shape, byte strides, byte offset into the buffer, item size.
    ///
    /// ```
    /// use ndarray::s;
    /// let d = rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap();
    /// assert_eq!(d.slice(s![2..]).unwrap().layout().offset(), 8);
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The allocation the array is a view of.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap();
    /// assert_eq!(d.buffer().len(), 32);
    /// assert!(d.t().buffer().same_allocation(d.buffer()));
    /// ```
    pub fn buffer(&self) -> &DeviceBuffer {
        &self.buffer
    }

    /// Device address of the logically first element (index `(0, …, 0)`); 0 for an array
    /// without allocation (size 0).
    ///
    /// ```
    /// use ndarray::s;
    /// let d = rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap();
    /// assert_eq!(d.slice(s![1..]).unwrap().device_ptr(), d.device_ptr() + 4);
    /// ```
    pub fn device_ptr(&self) -> DevicePtr {
        if self.buffer.is_empty() {
            return 0;
        }
        self.buffer.device_ptr() + self.layout.offset() as u64
    }

    /// [`device_ptr`](Self::device_ptr) for an operation that hands it to the driver under
    /// `lease` (see [`crate::memory::gate`]).
    ///
    /// # Errors
    /// [`Error::StaleHandle`](crate::Error::StaleHandle) when a context reset freed the memory.
    pub(crate) fn addr(&self, lease: &Lease) -> Result<DevicePtr> {
        let ptr = self.buffer.addr(lease, self.layout.offset(), 0)?;
        Ok(if self.buffer.is_empty() { 0 } else { ptr })
    }

    /// True if both arrays view the same allocation.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>(8, rumba::Order::C).unwrap();
    /// assert!(d.same_memory(&rumba::to_device(&d).unwrap()));
    /// ```
    pub fn same_memory<U: Element, E: Dimension>(&self, other: &DeviceArray<U, E>) -> bool {
        self.buffer.same_allocation(&other.buffer)
    }

    /// The same array with dynamic dimensionality.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((2, 3), rumba::Order::C).unwrap();
    /// let dy = d.into_dyn();
    /// assert_eq!(dy.raw_dim(), ndarray::IxDyn(&[2, 3]));
    /// ```
    pub fn into_dyn(self) -> DeviceArray<T, IxDyn> {
        let dim = self.dim.into_dyn();
        DeviceArray {
            buffer: self.buffer,
            layout: self.layout,
            dim,
            stream: self.stream,
            _elem: PhantomData,
        }
    }

    /// The same array with dimensionality `E`, or an error when the number of axes differs.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when the number of axes is not `E`'s.
    ///
    /// ```
    /// let d = rumba::device_array::<f32, _>((2, 3), rumba::Order::C).unwrap().into_dyn();
    /// assert!(d.clone().into_dimensionality::<ndarray::Ix2>().is_ok());
    /// assert!(d.into_dimensionality::<ndarray::Ix1>().is_err());
    /// ```
    pub fn into_dimensionality<E: Dimension>(self) -> Result<DeviceArray<T, E>> {
        DeviceArray::from_parts(self.buffer, self.layout, self.stream)
    }
}
