//! Broadcasting assignment, numpy's `a[...] = b`: [`DeviceArray::assign`] from a scalar, a host
//! array or a device array, into any view (strided, negative strides, transposed).
//!
//! The right side is broadcast to the destination's shape by numpy's rules first; a right side of
//! higher rank is refused with "can't assign N-D array to M-D self", an axis that is neither 1 nor
//! equal with "can't copy sequence with size X to array axis K with dimension Y". Only then is
//! anything queued, so a refused assignment leaves the destination unchanged.
//!
//! The work runs **on the device**, as one strided copy ([`Driver::copy_strided_async`]):
//! - a scalar is a broadcast fill;
//! - a device array is copied element-wise; if it overlaps the destination (same allocation,
//!   intersecting bytes) it is first gathered into a packed temporary, so `a[1..] = a[..-1]`
//!   behaves as numpy's does;
//! - a host array is uploaded straight into the destination when the destination is contiguous and
//!   the shapes match, else into a packed temporary that the device then broadcasts into place.
//!
//! [`Driver::copy_strided_async`]: crate::driver::Driver::copy_strided_async
//!
//! This module touches the driver through the queue.

use ndarray::{ArrayBase, Data, Dimension};

use super::DeviceArray;
use super::host::{HostRef, gather, temp_like, upload};
use super::queue::Queue;
use crate::driver::{StridedCopy, StridedSource};
use crate::error::Result;
use crate::layout::array_layout::Layout;
use crate::layout::element::scalar_types;
use crate::layout::element::{Element, as_bytes};
use crate::memory::DeviceBuffer;
use crate::stream::Stream;

mod private {
    use super::*;

    /// What an assignment reads (the library's view of an [`AssignSource`](super::AssignSource)).
    pub enum Source<'a, T> {
        /// One value, broadcast everywhere.
        Scalar(T),
        /// A host array or view.
        Host(HostRef<'a, T>),
        /// A device array or view.
        Device(&'a DeviceBuffer, &'a Layout),
    }
}
use private::Source;

/// The right-hand side of an assignment: a scalar (`5.0f32`, or [`Scalar`] for records), a host
/// array or view (`&host`), or a device array (`&device`).
///
/// ```
/// let d = rumba::device_array::<i32, _>((2, 3), rumba::Order::C).unwrap();
/// d.assign(7).unwrap();                                            // scalar
/// d.assign(&ndarray::array![1, 2, 3]).unwrap();                    // host row, broadcast
/// d.assign(&rumba::to_device(&ndarray::array![[4], [5]]).unwrap()).unwrap(); // device column
/// assert_eq!(d.copy_to_host().unwrap(), ndarray::array![[4, 4, 4], [5, 5, 5]]);
/// ```
pub trait AssignSource<T: Element> {
    /// Describes the source (used by the library).
    #[doc(hidden)]
    fn source(&self) -> Result<Source<'_, T>>;
}

/// A scalar of any element type (records included) as an assignment source.
///
/// ```
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct P { x: f32, y: f32 }
/// rumba::record!(P);
/// let ps = rumba::device_array::<P, _>(3, rumba::Order::C).unwrap();
/// ps.assign(rumba::array::Scalar(P { x: 1.0, y: 2.0 })).unwrap();
/// assert_eq!(ps.get(&[2]).unwrap().y, 2.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalar<T>(pub T);

impl<T: Element> AssignSource<T> for Scalar<T> {
    fn source(&self) -> Result<Source<'_, T>> {
        Ok(Source::Scalar(self.0))
    }
}

macro_rules! scalar_source {
    (kernel: [$($k:ty => $kk:ident, $kn:expr;)*] host: [$($h:ty => $hk:ident, $hn:expr;)*]) => {
        scalar_source!(@each $($k,)* $($h,)* bool);
    };
    (@each $($t:ty),*) => {$(
        impl AssignSource<$t> for $t {
            fn source(&self) -> Result<Source<'_, $t>> {
                Ok(Source::Scalar(*self))
            }
        }
    )*};
}
scalar_types!(scalar_source);

impl<T: Element, S: Data<Elem = T>, E: Dimension> AssignSource<T> for &ArrayBase<S, E> {
    fn source(&self) -> Result<Source<'_, T>> {
        Ok(Source::Host(HostRef::new(*self)?))
    }
}

impl<T: Element, E: Dimension> AssignSource<T> for &DeviceArray<T, E> {
    fn source(&self) -> Result<Source<'_, T>> {
        Ok(Source::Device(&self.buffer, &self.layout))
    }
}

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// Assigns `src` to every element with numpy broadcasting (see the [module docs](self));
    /// complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)). A refused assignment changes nothing.
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) ([`ShapeError::BroadcastRank`](crate::error::ShapeError::BroadcastRank), [`ShapeError::Broadcast`](crate::error::ShapeError::Broadcast)) when the right side cannot be broadcast to this array ("can't assign
    /// N-D array to M-D self", or "can't copy sequence with size X to array axis K with dimension Y");
    /// [`Error::OutOfMemory`](crate::Error::OutOfMemory) / [`Error::PoolOutOfMemory`](crate::Error::PoolOutOfMemory) for a host source staged on the device;
    /// the errors of the device work, reported here since it completes before returning.
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// let d = rumba::to_device(&Array2::<f32>::zeros((4, 4))).unwrap();
    /// d.slice(s![..;2, 1]).unwrap().assign(1.0f32).unwrap();
    /// assert_eq!(d.get(&[2, 1]).unwrap(), 1.0);
    /// let e = d.assign(&Array2::<f32>::zeros((3, 4))).unwrap_err();
    /// assert_eq!(e.to_string(), "can't copy sequence with size 3 to array axis 0 with dimension 4");
    /// let e = d.slice(s![0, ..]).unwrap().assign(&Array2::<f32>::zeros((1, 4))).unwrap_err();
    /// assert_eq!(e.to_string(), "can't assign 2-D array to 1-D self");
    /// ```
    pub fn assign(&self, src: impl AssignSource<T>) -> Result<()> {
        let mut q = self.queue_async(None)?;
        self.assign_with(&mut q, &src.source()?)?;
        q.finish()
    }

    /// [`assign`](Self::assign) queued on `stream` (asynchronous; host data is taken before this
    /// returns, device buffers are kept alive by the stream).
    ///
    /// # Errors
    /// As [`assign`](Self::assign), except that the work's own failure is reported by `stream`'s next
    /// synchronization; [`Error::WrongDevice`](crate::Error::WrongDevice) when `stream` belongs to another device.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<u16, _>(3, rumba::Order::C).unwrap();
    /// d.assign_on(&ndarray::array![1u16, 2, 3], &s).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 3]);
    /// ```
    pub fn assign_on(&self, src: impl AssignSource<T>, stream: &Stream) -> Result<()> {
        let mut q = self.queue_async(Some(stream))?;
        self.assign_with(&mut q, &src.source()?)?;
        q.finish()
    }

    /// Sets every element to `value` (a broadcast fill on the device); complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)).
    ///
    /// # Errors
    /// The errors of the device fill (an [`Error::InvalidAddress`](crate::Error::InvalidAddress) if the memory is gone).
    ///
    /// ```
    /// let d = rumba::device_array::<bool, _>(3, rumba::Order::C).unwrap();
    /// d.fill(true).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [true; 3]);
    /// ```
    pub fn fill(&self, value: T) -> Result<()> {
        self.assign(Scalar(value))
    }

    /// True if `layout` over `buffer` shares bytes with this array.
    fn overlaps(&self, buffer: &DeviceBuffer, layout: &Layout) -> bool {
        if !self.buffer.same_allocation(buffer) || self.size() == 0 || layout.size() == 0 {
            return false;
        }
        let (a0, a1) = self.layout.alloc_extent();
        let (b0, b1) = layout.alloc_extent();
        a0 < b1 && b0 < a1
    }

    /// Validates and queues an assignment on `q`.
    pub(crate) fn assign_with(&self, q: &mut Queue, src: &Source<'_, T>) -> Result<()> {
        let shape = self.layout.shape();
        // Both sides' handles are checked before anything is queued.
        let dst = q.addr(&self.buffer, self.layout.offset())?;
        if let Source::Device(buffer, layout) = src {
            q.addr(buffer, layout.offset())?;
        }
        let itemsize = T::DTYPE.itemsize();
        let to_dst = |q: &mut Queue, from: &DeviceBuffer, layout: &Layout| {
            let ptr = q.addr(from, layout.offset())?;
            q.strided(&StridedCopy {
                shape,
                itemsize,
                dst,
                dst_strides: self.layout.strides(),
                src: StridedSource::Device {
                    ptr,
                    strides: layout.strides(),
                },
            })
        };
        match src {
            Source::Scalar(v) => {
                if self.size() == 0 {
                    return Ok(());
                }
                let bytes = as_bytes(std::slice::from_ref(v));
                q.fill(shape, dst, self.layout.strides(), bytes)?;
                q.keep(vec![self.buffer.clone()])
            }
            Source::Device(buffer, layout) => {
                let wide = layout.broadcast_to(shape)?;
                if self.size() == 0 {
                    return Ok(());
                }
                if !self.overlaps(buffer, layout) {
                    to_dst(q, buffer, &wide)?;
                    return q.keep(vec![self.buffer.clone(), (*buffer).clone()]);
                }
                let packed = layout.empty_like();
                let tmp = gather(q, buffer, layout, &packed)?;
                to_dst(q, &tmp, &packed.broadcast_to(shape)?)?;
                q.keep(vec![self.buffer.clone(), (*buffer).clone(), tmp])
            }
            Source::Host(host) => {
                host.layout.broadcast_to(shape)?; // validation only
                if self.size() == 0 {
                    return Ok(());
                }
                if self.layout.is_contiguous() && host.layout.shape() == shape {
                    upload(q, &self.buffer, &self.layout, host)?;
                    return q.keep(vec![self.buffer.clone()]);
                }
                let packed = host.layout.empty_like();
                let tmp = temp_like(&self.buffer, packed.nbytes())?;
                upload(q, &tmp, &packed, host)?;
                to_dst(q, &tmp, &packed.broadcast_to(shape)?)?;
                q.keep(vec![self.buffer.clone(), tmp])
            }
        }
    }
}
