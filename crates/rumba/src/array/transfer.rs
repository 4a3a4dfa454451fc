//! Copies between a device array and host arrays or other device arrays, with the rules of
//! docs/design/behaviour.md §2 (checked by [`check_copy`] before anything is queued):
//! equal dtypes ("incompatible dtype"), equal shapes once length-1 axes are removed
//! ("incompatible shape: A vs. B"), a contiguous device destination, no negative strides on a
//! device source copied to the host, and size 0 as a no-op. Strided **host** sides are packed and
//! unpacked by the library.
//!
//! Device ↔ device (`copy(&dst, &src)`, `DeviceArray::copy_from_device_impl`) follows Numba for contiguous arrays: both
//! sides must have the same strides (once length-1 axes are ignored), so a C array is not
//! silently filled from an F array ("incompatible strides"). We go one step further than Numba
//! for a **non-contiguous source** (e.g. `a[::2]`), which Numba refuses: it is gathered into the
//! contiguous destination by one strided copy on the device. (Element-wise copies between any
//! layouts, with broadcasting, are what [`assign`](DeviceArray::assign) is for.)
//!
//! This module touches the driver through the queue and host memory it is given.

use ndarray::{Array, ArrayBase, Data, DataMut, Dimension, ShapeBuilder};

use super::DeviceArray;
use super::host::{HostMut, HostRef, download, upload};
use super::queue::{Mode, Queue};
use crate::driver::{StridedCopy, StridedSource};
use crate::error::{Error, Result};
use crate::layout::array_layout::Layout;
use crate::layout::copy::{CopyKind, check_copy};
use crate::layout::element::Element;
use crate::layout::order::Order;
use crate::stream::Stream;

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// The queue for an operation that gives host memory back (it waits for its device → host
    /// copies whatever the mode): on `stream`, else on the bound stream or the default stream,
    /// waited for.
    pub(crate) fn queue(&self, stream: Option<&Stream>) -> Result<Queue> {
        match stream {
            Some(s) => Queue::on(s, &self.buffer, Mode::Staged),
            None => Queue::wait(&self.buffer, self.stream.as_ref()),
        }
    }

    /// The queue for an operation that only takes host data (copied before it returns) or stays
    /// on the device: asynchronous on `stream`, else on the bound stream — in Numba, that is what
    /// binding an array to a stream is for — and waited for only on the default stream.
    pub(crate) fn queue_async(&self, stream: Option<&Stream>) -> Result<Queue> {
        match stream.or(self.stream.as_ref()) {
            Some(s) => Queue::on(s, &self.buffer, Mode::Staged),
            None => Queue::wait(&self.buffer, None),
        }
    }

    /// Copies the array into a new host array with the same shape and contents (F order when the
    /// device array is F-contiguous only, else C order). Complete when it returns.
    ///
    /// Errors: an array with negative strides cannot be copied directly (copy it into a new
    /// device array, e.g. with [`transpose_copy`](Self::transpose_copy) or `assign`, first).
    ///
    /// # Errors
    /// [`Error::Strides`] for an array with negative strides; [`Error::InCallback`] when
    /// called from a stream callback; the copy's errors (and the first unreported error of the stream
    /// it runs on, which it waits for).
    ///
    /// ```
    /// use ndarray::{array, s};
    /// let d = rumba::to_device(&array![[1u8, 2, 3], [4, 5, 6]]).unwrap();
    /// assert_eq!(d.slice(s![.., 1..]).unwrap().copy_to_host().unwrap(), array![[2, 3], [5, 6]]);
    /// assert!(d.slice(s![.., ..;-1]).unwrap().copy_to_host().is_err());
    /// ```
    pub fn copy_to_host(&self) -> Result<Array<T, D>> {
        self.copy_to_host_impl(None)
    }

    /// [`copy_to_host`](Self::copy_to_host) after the work queued on `stream` (returns once the
    /// data has arrived).
    ///
    /// # Errors
    /// As [`copy_to_host`](Self::copy_to_host); [`Error::WrongDevice`] when `stream` is of another
    /// device.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::to_device_on(&[1i64, 2], &s).unwrap();
    /// assert_eq!(d.copy_to_host_on(&s).unwrap().to_vec(), [1, 2]);
    /// ```
    pub fn copy_to_host_on(&self, stream: &Stream) -> Result<Array<T, D>> {
        self.copy_to_host_impl(Some(stream))
    }

    fn copy_to_host_impl(&self, stream: Option<&Stream>) -> Result<Array<T, D>> {
        let fortran = self.is_f_contiguous() && !self.is_c_contiguous();
        let order = if fortran { Order::F } else { Order::C };
        let host_layout = Layout::new(self.shape(), order, T::DTYPE.itemsize())?;
        let size = self.size();
        let mut data: Vec<T> = Vec::with_capacity(size);
        {
            let dst = HostMut::<T>::raw(data.as_mut_ptr().cast::<u8>(), host_layout);
            let mut q = self.queue(stream)?;
            download(&mut q, &self.buffer, &self.layout, &dst)?;
            q.finish()?;
        }
        // SAFETY: `download` completed (it waits outside scoped mode) and wrote every one of the
        // `size` elements of the packed host layout with valid `T` bytes.
        unsafe { data.set_len(size) };
        Array::from_shape_vec(self.raw_dim().set_f(fortran), data)
            .map_err(|e| Error::InvalidArgument(format!("cannot build the host array: {e}")))
    }

    /// Copies the array into an existing host array or view of the same shape (length-1 axes
    /// aside); the host side may be strided. Complete when it returns. Spelled
    /// [`rumba::copy(&mut host, &d)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::IncompatibleShape`] when the shapes differ after removing length-1 axes; otherwise as
    /// [`copy_to_host`](Self::copy_to_host).
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// let d = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
    /// let mut host = Array2::<f32>::zeros((2, 6));
    /// rumba::copy(&mut host.slice_mut(s![1, ..;2]), &d).unwrap();
    /// assert_eq!(host.row(1).to_vec(), [1.0, 0.0, 2.0, 0.0, 3.0, 0.0]);
    /// let mut wrong = Array2::<f32>::zeros((2, 2));
    /// assert_eq!(
    ///     rumba::copy(&mut wrong, &d).unwrap_err().to_string(),
    ///     "incompatible shape: (2, 2) vs. (3,)"
    /// );
    /// ```
    #[deprecated(note = "use rumba::copy(&mut host, &d)")]
    pub fn copy_to_host_into<S: DataMut<Elem = T>, E: Dimension>(
        &self,
        dst: &mut ArrayBase<S, E>,
    ) -> Result<()> {
        self.copy_to_host_into_on(dst, None)
    }

    /// Copies the array into `dst` after the work queued on `stream` (or, with `None`, on the
    /// bound or default stream, waited for); returns once the data has arrived. What `copy`,
    /// `Stream::copy` and the deprecated `copy_to_host_into` run.
    pub(crate) fn copy_to_host_into_on<S: DataMut<Elem = T>, E: Dimension>(
        &self,
        dst: &mut ArrayBase<S, E>,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let dst = HostMut::new(dst)?;
        let mut q = self.queue(stream)?;
        download(&mut q, &self.buffer, &self.layout, &dst)?;
        q.finish()
    }

    /// Copies a host array or view (any layout) into this array, which must be contiguous.
    /// Complete when it returns — or, for an array [bound](DeviceArray::bind) to a stream, queued
    /// on that stream, with `src` copied before this returns. Spelled
    /// [`rumba::copy(&d, &host)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::IncompatibleShape`] when the shapes differ after removing length-1 axes;
    /// [`Error::NotContiguous`] when this array is not contiguous (broadcast axes aside); the copy's
    /// errors.
    ///
    /// ```
    /// use ndarray::{Array, s};
    /// let host = Array::from_iter(0..20i32);
    /// let d = rumba::device_array::<i32, _>(10, rumba::Order::C).unwrap();
    /// rumba::copy(&d, &host.slice(s![..;2])).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap(), host.slice(s![..;2]));
    /// ```
    ///
    /// A dtype mismatch is caught by the compiler (the element types are part of the types):
    /// ```compile_fail
    /// let d = rumba::device_array::<i32, _>(10, rumba::Order::C).unwrap();
    /// rumba::copy(&d, &ndarray::Array::from_iter(0..10i64)).unwrap();
    /// ```
    #[deprecated(note = "use rumba::copy(&d, &host)")]
    pub fn copy_from_host<S: Data<Elem = T>, E: Dimension>(
        &self,
        src: &ArrayBase<S, E>,
    ) -> Result<()> {
        self.copy_from_host_impl(src, None)
    }

    /// [`copy_from_host`](Self::copy_from_host) queued on `stream`; the host data is taken before
    /// this returns. Spelled [`stream.copy(&d, &host)`](Stream::copy) now.
    ///
    /// # Errors
    /// As [`copy_from_host`](Self::copy_from_host); [`Error::WrongDevice`] when `stream` is of
    /// another device. The copy's own failure is reported by `stream`'s next synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<u8, _>(3, rumba::Order::C).unwrap();
    /// s.copy(&d, &ndarray::arr1(&[7u8, 8, 9])).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [7, 8, 9]);
    /// ```
    #[deprecated(note = "use stream.copy(&d, &host)")]
    pub fn copy_from_host_on<S: Data<Elem = T>, E: Dimension>(
        &self,
        src: &ArrayBase<S, E>,
        stream: &Stream,
    ) -> Result<()> {
        self.copy_from_host_impl(src, Some(stream))
    }

    /// Copies `src` into this array on `stream` (`None`: on the bound stream, else on the default
    /// stream, waited for); what `copy` and `Stream::copy` run.
    pub(crate) fn copy_from_host_impl<S: Data<Elem = T>, E: Dimension>(
        &self,
        src: &ArrayBase<S, E>,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let src = HostRef::new(src)?;
        let mut q = self.queue_async(stream)?;
        upload(&mut q, &self.buffer, &self.layout, &src)?;
        q.keep(vec![self.buffer.clone()])?;
        q.finish()
    }

    /// Copies another device array of the same dtype and shape (length-1 axes aside) into this
    /// one, which must be contiguous. Contiguous sources must have the same strides ("incompatible
    /// strides", as Numba); a non-contiguous source is gathered on the device (see the
    /// [module docs](self)). Complete when it returns, or queued on the array's
    /// [bound](DeviceArray::bind) stream. Spelled [`rumba::copy(&dst, &src)`](crate::copy) now.
    ///
    /// The source may live on **another device**: the copy is then a peer copy
    /// ([`Driver::memcpy_peer`](crate::driver::Driver::memcpy_peer), CUDA's `cuMemcpyPeer`) of
    /// contiguous bytes — both arrays contiguous with the same strides, else
    /// [`Error::NotContiguous`] — ordered after earlier work of both devices' default streams
    /// (Numba's `test_with_context_peer_copy`). No peer access is needed.
    ///
    /// # Errors
    /// [`Error::IncompatibleShape`] when the shapes differ after removing length-1 axes;
    /// [`Error::IncompatibleStrides`] / [`Error::NotContiguous`] when the layouts cannot be copied
    /// byte for byte and this array is not contiguous; the copy's errors.
    ///
    /// ```
    /// use ndarray::{Array, s};
    /// use rumba::Order;
    /// let src = rumba::to_device(&Array::from_iter(0..20u32)).unwrap();
    /// let dst = rumba::device_array::<u32, _>(10, Order::C).unwrap();
    /// rumba::copy(&dst, &src.slice(s![..;2]).unwrap()).unwrap();  // gathered on the device
    /// assert_eq!(dst.copy_to_host().unwrap().to_vec(), (0..20).step_by(2).collect::<Vec<_>>());
    /// let c = rumba::device_array::<u32, _>((2, 3), Order::C).unwrap();
    /// let f = rumba::device_array::<u32, _>((2, 3), Order::F).unwrap();
    /// assert!(matches!(rumba::copy(&c, &f), Err(rumba::Error::IncompatibleStrides { .. })));
    /// ```
    #[deprecated(note = "use rumba::copy(&dst, &src)")]
    pub fn copy_from_device<E: Dimension>(&self, src: &DeviceArray<T, E>) -> Result<()> {
        self.copy_from_device_impl(src, None)
    }

    /// [`copy_from_device`](Self::copy_from_device) queued on `stream` (asynchronous; the stream
    /// keeps both arrays' memory alive until the copy has run). A peer copy from another device
    /// is ordered with `stream` only: wait for the source device's work first. Spelled
    /// [`stream.copy(&dst, &src)`](Stream::copy) now.
    ///
    /// # Errors
    /// As [`copy_from_device`](Self::copy_from_device); the copy's own failure is reported by
    /// `stream`'s next synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let a = rumba::to_device(&[5i8, 6]).unwrap();
    /// let b = rumba::device_array::<i8, _>(2, rumba::Order::C).unwrap();
    /// s.copy(&b, &a).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(b.copy_to_host().unwrap().to_vec(), [5, 6]);
    /// ```
    #[deprecated(note = "use stream.copy(&dst, &src)")]
    pub fn copy_from_device_on<E: Dimension>(
        &self,
        src: &DeviceArray<T, E>,
        stream: &Stream,
    ) -> Result<()> {
        self.copy_from_device_impl(src, Some(stream))
    }

    /// Copies `src` into this array on `stream` (`None`: on the bound stream, else on the default
    /// stream, waited for); what `copy` and `Stream::copy` run.
    pub(crate) fn copy_from_device_impl<E: Dimension>(
        &self,
        src: &DeviceArray<T, E>,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let d = &T::DTYPE;
        let checked = check_copy(&self.layout, d, &src.layout, d, CopyKind::DeviceToDevice);
        let gather = match checked {
            Err(Error::IncompatibleStrides { .. }) if !src.layout.is_contiguous() => {
                // Same checks as a host source (dtype, shape, contiguous destination), without
                // the strides rule: the source is gathered element by element on the device.
                check_copy(&self.layout, d, &src.layout, d, CopyKind::HostToDevice)?;
                true
            }
            Err(e) => return Err(e),
            Ok(plan) if plan.is_noop() => return Ok(()),
            Ok(_) => false,
        };
        let mut q = self.queue_async(stream)?;
        let (dsq, ssq) = (self.layout.squeeze(None)?, src.layout.squeeze(None)?);
        let contiguous = !gather && dsq.is_contiguous() && ssq.is_contiguous();
        let (dst_device, src_device) = (self.buffer.device(), src.buffer.device());
        if dst_device != src_device {
            // A peer copy: contiguous bytes only (a gather would read the other device's memory
            // from a kernel, which needs peer access).
            if !contiguous {
                return Err(Error::NotContiguous(format!(
                    "copying between devices {src_device} and {dst_device} moves contiguous bytes; the source (strides {:?}) and destination (strides {:?}) must be contiguous with the same strides",
                    src.strides(),
                    self.strides()
                )));
            }
            let (dlo, dhi) = self.layout.alloc_extent();
            let (slo, _) = src.layout.alloc_extent();
            let (to, from) = (q.addr(&self.buffer, dlo)?, q.addr(&src.buffer, slo)?);
            q.peer(to, src_device, from, dhi - dlo)?;
        } else if contiguous {
            // Same strides, both contiguous: one copy of the span.
            let (dlo, dhi) = self.layout.alloc_extent();
            let (slo, _) = src.layout.alloc_extent();
            let (to, from) = (q.addr(&self.buffer, dlo)?, q.addr(&src.buffer, slo)?);
            q.strided(&StridedCopy {
                shape: &[dhi - dlo],
                itemsize: 1,
                dst: to,
                dst_strides: &[1],
                src: StridedSource::Device {
                    ptr: from,
                    strides: &[1],
                },
            })?;
        } else {
            let to = q.addr(&self.buffer, dsq.offset())?;
            let from = q.addr(&src.buffer, ssq.offset())?;
            q.strided(&StridedCopy {
                shape: dsq.shape(),
                itemsize: d.itemsize(),
                dst: to,
                dst_strides: dsq.strides(),
                src: StridedSource::Device {
                    ptr: from,
                    strides: ssq.strides(),
                },
            })?;
        }
        q.keep(vec![self.buffer.clone(), src.buffer.clone()])?;
        q.finish()
    }
}
