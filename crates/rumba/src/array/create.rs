//! Making device arrays: from host data ([`to_device`], [`to_device_on`], [`to_device_alloc`]),
//! from a shape ([`device_array`], [`device_array_with_strides`]) and like another array
//! ([`device_array_like`]).
//!
//! A device array made from host data gets the **packed** layout numpy's `empty_like` rule gives
//! the host array: a C- or F-contiguous host array keeps its order; any other (sliced, transposed,
//! negative or zero strides) is packed with its axes ordered by stride magnitude. The library
//! packs the host side; the device array is always contiguous. Size-0 arrays allocate nothing.
//!
//! This module touches the runtime (the current context allocates) and the driver through
//! [`transfer`](super::transfer).

use ndarray::{ArrayBase, ArrayView, ArrayView1, Data, Dimension, IntoDimension, Ix1};

use super::DeviceArray;
use super::host::{HostRef, upload};
use super::queue::{Mode, Queue};
use crate::error::StridesError;
use crate::error::{Error, Result};
use crate::layout::array_layout::Layout;
use crate::layout::element::Element;
use crate::layout::extent::reach;
use crate::layout::order::Order;
use crate::runtime::context::Context;
use crate::stream::Stream;

/// Data that [`to_device`] accepts: any `ndarray` array or view (any layout), slices, vectors,
/// fixed-size arrays — and device arrays, which are returned as they are (same memory, no copy).
///
/// ```
/// use rumba::array::ToDevice;
/// fn ship<H: ToDevice + ?Sized>(h: &H) -> rumba::Result<usize> { Ok(rumba::to_device(h)?.size()) }
/// assert_eq!(ship(&[1u8, 2, 3][..]).unwrap(), 3);
/// assert_eq!(ship(&vec![1.0f32; 4]).unwrap(), 4);
/// assert_eq!(ship(&ndarray::Array2::<i64>::zeros((2, 2))).unwrap(), 4);
/// ```
pub trait ToDevice {
    /// The element type.
    type Elem: Element;
    /// The dimensionality.
    type Dim: Dimension;
    /// The data as a host view, or `None` when it already lives on the device.
    fn host_view(&self) -> Option<ArrayView<'_, Self::Elem, Self::Dim>>;
    /// The data as a device array, when it already lives on the device.
    fn device_array(&self) -> Option<&DeviceArray<Self::Elem, Self::Dim>>;
}

impl<T: Element, S: Data<Elem = T>, D: Dimension> ToDevice for ArrayBase<S, D> {
    type Elem = T;
    type Dim = D;
    fn host_view(&self) -> Option<ArrayView<'_, T, D>> {
        Some(self.view())
    }
    fn device_array(&self) -> Option<&DeviceArray<T, D>> {
        None
    }
}

/// Slices, `Vec`s and fixed-size arrays go to the device as one-dimensional arrays.
macro_rules! host_sequence {
    ($([$($generics:tt)*] $t:ty;)*) => {$(
        impl<$($generics)*> ToDevice for $t {
            type Elem = T;
            type Dim = Ix1;
            fn host_view(&self) -> Option<ArrayView1<'_, T>> {
                Some(ArrayView1::from(&self[..]))
            }
            fn device_array(&self) -> Option<&DeviceArray<T, Ix1>> {
                None
            }
        }
    )*};
}
host_sequence! {
    [T: Element] [T];
    [T: Element] Vec<T>;
    [T: Element, const N: usize] [T; N];
}

impl<T: Element, D: Dimension> ToDevice for DeviceArray<T, D> {
    type Elem = T;
    type Dim = D;
    fn host_view(&self) -> Option<ArrayView<'_, T, D>> {
        None
    }
    fn device_array(&self) -> Option<&DeviceArray<T, D>> {
        Some(self)
    }
}

/// Anything with a shape, an element type and strides that a new array can be made "like".
///
/// ```
/// use rumba::array::ArrayLike;
/// let h = ndarray::Array2::<f32>::zeros((2, 3));
/// assert_eq!(h.like_layout().unwrap().strides(), &[12, 4]);
/// ```
pub trait ArrayLike {
    /// The element type.
    type Elem: Element;
    /// The dimensionality.
    type Dim: Dimension;
    /// The layout (byte strides) of the array.
    ///
    /// # Errors
    /// [`Error::Shape`] when the shape's byte size overflows.
    fn like_layout(&self) -> Result<Layout>;
}

impl<T: Element, S: Data<Elem = T>, D: Dimension> ArrayLike for ArrayBase<S, D> {
    type Elem = T;
    type Dim = D;
    fn like_layout(&self) -> Result<Layout> {
        Layout::from_elem_strides(self.shape(), self.strides(), T::DTYPE.itemsize())
    }
}

impl<T: Element, D: Dimension> ArrayLike for DeviceArray<T, D> {
    type Elem = T;
    type Dim = D;
    fn like_layout(&self) -> Result<Layout> {
        Ok(self.layout.clone())
    }
}

/// Allocates a packed `layout` in `ctx` (nothing for size 0).
fn alloc<T: Element, D: Dimension>(
    ctx: &Context,
    layout: Layout,
    stream: Option<Stream>,
) -> Result<DeviceArray<T, D>> {
    let (_, hi) = layout.alloc_extent();
    let bytes = if layout.size() == 0 { 0 } else { hi };
    DeviceArray::from_parts(ctx.memalloc(bytes)?, layout, stream)
}

/// The layout of a device copy of a host array: packed by the `empty_like` rule — except for a
/// zero-length array, which keeps the host's byte strides exactly as Numba does (numba/numba#8477:
/// its `to_device` of a `(0,)` array with strides `(0,)` has strides `(0,)`). Nothing is
/// allocated either way; copies between zero-length arrays ignore strides.
fn device_layout<T: Element>(host: &Layout) -> Layout {
    if host.size() == 0 {
        if let Ok(kept) = Layout::with_strides(host.shape(), host.strides(), 0, &T::DTYPE, 0) {
            return kept;
        }
    }
    host.empty_like()
}

/// `to_device` on `stream` in `mode` (or waited for, without a stream); `copy: false` only
/// allocates.
pub(crate) fn to_device_impl<H: ToDevice + ?Sized>(
    host: &H,
    stream: Option<(&Stream, Mode)>,
    copy: bool,
) -> Result<DeviceArray<H::Elem, H::Dim>> {
    if let Some(d) = host.device_array() {
        return Ok(d.clone());
    }
    let view = host.host_view().ok_or_else(|| {
        Error::InvalidArgument("to_device was given neither host nor device data".into())
    })?;
    let src = HostRef::new(&view)?;
    let ctx = match stream {
        Some((s, _)) => s.context().clone(),
        None => crate::runtime::current_context()?,
    };
    let arr: DeviceArray<H::Elem, H::Dim> = alloc(
        &ctx,
        device_layout::<H::Elem>(&src.layout),
        stream.map(|(s, _)| s.clone()),
    )?;
    if copy {
        let mut q = match stream {
            Some((s, mode)) => Queue::on(s, &arr.buffer, mode)?,
            None => Queue::wait(&arr.buffer, None)?,
        };
        upload(&mut q, &arr.buffer, &arr.layout, &src)?;
        q.keep(vec![arr.buffer.clone()])?;
        q.finish()?;
    }
    Ok(arr)
}

/// Copies host data (any `ndarray` array or view, any layout, or a slice) to a new device array,
/// returning once the copy is complete. Given a device array, returns a handle to the same
/// memory (no copy).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::OutOfMemory`] /
/// [`Error::PoolOutOfMemory`] when the device memory cannot be had; [`Error::Shape`] when
/// the shape's byte size overflows; the copy's errors.
///
/// ```
/// use ndarray::{Array, s};
/// let host = Array::from_iter(0..20i32);
/// let d = rumba::to_device(&host.slice(s![..;2])).unwrap();   // strided host: packed
/// assert_eq!(d.copy_to_host().unwrap(), host.slice(s![..;2]));
/// assert!(rumba::to_device(&d).unwrap().same_memory(&d));     // already there
/// ```
pub fn to_device<H: ToDevice + ?Sized>(host: &H) -> Result<DeviceArray<H::Elem, H::Dim>> {
    to_device_impl(host, None, true)
}

/// Like [`to_device`], queued on `stream`; the new array is bound to it. The host data is taken
/// before this returns (so it may change right after); use
/// [`StreamScope::to_device`](crate::StreamScope::to_device) for a truly asynchronous copy from
/// pinned memory.
///
/// # Errors
/// As [`to_device`]; [`Error::WrongDevice`] when `stream` is of another device. The copy's own
/// failure is reported by `stream`'s next synchronization.
///
/// ```
/// let s = rumba::stream().unwrap();
/// let d = rumba::to_device_on(&vec![1u16, 2, 3], &s).unwrap();
/// assert_eq!(d.stream().unwrap().handle(), s.handle());
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 3]); // runs on `s`, after the copy
/// ```
pub fn to_device_on<H: ToDevice + ?Sized>(
    host: &H,
    stream: &Stream,
) -> Result<DeviceArray<H::Elem, H::Dim>> {
    to_device_impl(host, Some((stream, Mode::Staged)), true)
}

/// Allocates a device array for `host` without copying anything (Numba's `to_device(copy=False)`):
/// same shape and element type, packed by the `empty_like` rule.
///
/// # Errors
/// As [`to_device`], without the copy's errors.
///
/// ```
/// use ndarray::ShapeBuilder;
/// let host = ndarray::Array2::<f32>::zeros((3, 2).f());
/// let d = rumba::to_device_alloc(&host).unwrap();
/// assert!(d.is_f_contiguous());
/// ```
pub fn to_device_alloc<H: ToDevice + ?Sized>(host: &H) -> Result<DeviceArray<H::Elem, H::Dim>> {
    to_device_impl(host, None, false)
}

/// A new device array of `shape` in `order` (`A` means C). Device memory is zeroed on the sim;
/// treat it as uninitialised, as on CUDA. Size 0 allocates nothing; `()` makes a 0-d array.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Shape`]
/// when the shape's byte size overflows; [`Error::OutOfMemory`] / [`Error::PoolOutOfMemory`] when
/// the device memory cannot be had.
///
/// ```
/// use rumba::Order;
/// let c = rumba::device_array::<f64, _>((2, 3), Order::C).unwrap();
/// let f = rumba::device_array::<f64, _>((2, 3), Order::F).unwrap();
/// assert_eq!((c.strides(), f.strides()), (&[24, 8][..], &[8, 16][..]));
/// assert_eq!(rumba::device_array::<f64, _>((0, 3), Order::C).unwrap().buffer().len(), 0);
/// ```
pub fn device_array<T: Element, Sh: IntoDimension>(
    shape: Sh,
    order: Order,
) -> Result<DeviceArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    let layout = Layout::from_dim(&dim, order, T::DTYPE.itemsize())?;
    alloc(&crate::runtime::current_context()?, layout, None)
}

/// A new device array of `shape` with explicit **byte** strides (negative and zero allowed),
/// validated: one stride per axis, aligned to `T`, nothing overflows. The allocation is exactly
/// the span the strides reach.
///
/// # Errors
/// [`Error::Strides`] when `strides` has another length than the shape, a stride is not a
/// multiple of the element alignment, or the reach overflows; otherwise as [`device_array`].
///
/// ```
/// let d = rumba::device_array_with_strides::<f64, _>((1, 10), &[800, 8]).unwrap();
/// assert!(d.is_c_contiguous() && d.is_f_contiguous());
/// let r = rumba::device_array_with_strides::<f64, _>(4, &[-8]).unwrap();
/// assert_eq!(r.buffer().len(), 32);
/// assert!(rumba::device_array_with_strides::<f64, _>(4, &[12]).is_err()); // misaligned
/// assert!(rumba::device_array_with_strides::<f64, _>((2, 2), &[8]).is_err());
/// ```
pub fn device_array_with_strides<T: Element, Sh: IntoDimension>(
    shape: Sh,
    strides: &[isize],
) -> Result<DeviceArray<T, Sh::Dim>> {
    let dim = shape.into_dimension();
    let shape = dim.slice().to_vec();
    let itemsize = T::DTYPE.itemsize();
    let (lo, hi) = if shape.len() == strides.len() {
        reach(&shape, strides, 0, itemsize)
    } else {
        Some((0, 0)) // with_strides reports the mismatch
    }
    .ok_or_else(|| StridesError::Overflow {
        shape: shape.clone(),
        strides: strides.to_vec(),
    })?;
    let (offset, span) = if shape.contains(&0) {
        (0, 0)
    } else {
        (lo.unsigned_abs(), (hi - lo) as usize)
    };
    let layout = Layout::with_strides(&shape, strides, offset, &T::DTYPE, span)?;
    let ctx = crate::runtime::current_context()?;
    DeviceArray::from_parts(ctx.memalloc(span)?, layout, None)
}

/// A new device array with the shape and element type of `like` (a host or device array) and
/// numpy's `empty_like` strides: C- or F-contiguous sources (and ndim ≤ 1) keep their order;
/// others are packed with their axes ordered by stride magnitude.
///
/// # Errors
/// As [`device_array`].
///
/// ```
/// use ndarray::s;
/// let h = ndarray::Array3::<f32>::zeros((2, 3, 4));
/// let t = rumba::device_array_like(&h.view().reversed_axes()).unwrap();
/// assert!(t.is_f_contiguous());
/// let v = rumba::device_array_like(&h.slice(s![.., ..;2, ..])).unwrap();
/// assert!(v.is_c_contiguous());
/// ```
pub fn device_array_like<A: ArrayLike + ?Sized>(like: &A) -> Result<DeviceArray<A::Elem, A::Dim>> {
    let layout = like.like_layout()?.empty_like();
    alloc(&crate::runtime::current_context()?, layout, None)
}
