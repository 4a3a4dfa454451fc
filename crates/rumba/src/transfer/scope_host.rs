//! [`StreamScope`] methods for pinned and mapped host arrays: copies the device runs while the
//! scope holds the host memory's borrow (truly asynchronous for pinned memory).

use ndarray::Dimension;

use crate::array::DeviceArray;
use crate::array::{HostMut, HostRef, Mode, Queue, download, upload};
use crate::error::Result;
use crate::host::{MappedView, MappedViewMut, PinnedArray};
use crate::layout::Element;
use crate::layout::element::refuse_invalid_bits;
use crate::transfer::StreamScope;

impl<'scope, 'env> StreamScope<'scope, 'env> {
    /// Queues a copy of the pinned array `src` into the contiguous device array `dst`, truly
    /// asynchronously; `src` stays borrowed (read-only) until the scope has synchronized.
    ///
    /// # Errors
    /// As [`Stream::upload`](crate::Stream::upload), returned as a plain
    /// [`Error`](crate::error::Error) (`src` is only borrowed).
    ///
    /// ```
    /// use rumba::Order;
    /// let s = rumba::stream().unwrap();
    /// let mut p = rumba::pinned_array::<i64, _>(3, Order::C).unwrap();
    /// p.as_slice_memory_order_mut().copy_from_slice(&[7, 8, 9]);
    /// let d = rumba::device_array::<i64, _>(3, Order::C).unwrap();
    /// s.auto_synchronize(|scope| scope.copy(&d, &p)).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [7, 8, 9]);
    /// ```
    #[deprecated(note = "use scope.copy(&d, &pinned)")]
    pub fn copy_from_pinned<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        src: &'env PinnedArray<T, D>,
    ) -> Result<()> {
        self.copy_from_pinned_impl(dst, src)
    }

    /// What `scope.copy(&d, &pinned)` runs.
    pub(crate) fn copy_from_pinned_impl<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        src: &'env PinnedArray<T, D>,
    ) -> Result<()> {
        let view = src.view();
        let host = HostRef::new(&view)?;
        let mut q = Queue::on(self.stream(), dst.buffer(), Mode::Scoped)?;
        upload(&mut q, dst.buffer(), dst.layout(), &host)?;
        q.keep(vec![dst.buffer().clone()])
    }

    /// Queues a copy of the device array `src` into the pinned array `dst`, truly asynchronously;
    /// `dst` stays exclusively borrowed until the scope has synchronized, so the host cannot read
    /// it before the data has arrived.
    ///
    /// # Errors
    /// As [`Stream::download`](crate::Stream::download), returned as a plain
    /// [`Error`](crate::error::Error) (`dst` is only borrowed).
    ///
    /// ```
    /// use rumba::Order;
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::to_device(&[1u16, 2]).unwrap();
    /// let mut p = rumba::pinned_array::<u16, _>(2, Order::C).unwrap();
    /// s.auto_synchronize(|scope| scope.copy(&mut p, &d)).unwrap();
    /// assert_eq!(p.view().to_vec(), [1, 2]);
    /// ```
    #[deprecated(note = "use scope.copy(&mut pinned, &d)")]
    pub fn copy_to_pinned<T: Element, D: Dimension, E: Dimension>(
        &self,
        src: &DeviceArray<T, E>,
        dst: &'env mut PinnedArray<T, D>,
    ) -> Result<()> {
        self.copy_to_pinned_impl(src, dst)
    }

    /// What `scope.copy(&mut pinned, &d)` runs.
    pub(crate) fn copy_to_pinned_impl<T: Element, D: Dimension, E: Dimension>(
        &self,
        src: &DeviceArray<T, E>,
        dst: &'env mut PinnedArray<T, D>,
    ) -> Result<()> {
        let mut view = dst.view_mut();
        let host = HostMut::new(&mut view)?;
        let mut q = Queue::on(self.stream(), src.buffer(), Mode::Scoped)?;
        download(&mut q, src.buffer(), src.layout(), &host)?;
        q.keep(vec![src.buffer().clone()])
    }
}

impl<'scope, 'env> StreamScope<'scope, 'env> {
    /// Queues a byte memset of mapped (or managed) host memory on the scope's stream. The view is
    /// taken for the whole scope, so the host cannot look at the memory before the scope has
    /// synchronized.
    ///
    /// # Errors
    /// As [`MappedViewMut::memset`], except that the work is queued on the scope's stream and its
    /// failure comes from the scope's synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let mut m = rumba::mapped_array::<u8, _>(4, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// s.auto_synchronize(|scope| scope.memset_mapped(m.device_mut(), 3)).unwrap();
    /// assert_eq!(m.view().to_vec(), [3; 4]);
    /// ```
    pub fn memset_mapped<T: Element, D: Dimension>(
        &self,
        mut view: MappedViewMut<'env, T, D>,
        value: u8,
    ) -> Result<()> {
        let s = self.stream();
        view.memset_on(value, s.context().device_id(), s.handle(), false)
    }

    /// Queues a copy of the device array `src` into mapped (or managed) host memory on the
    /// scope's stream; the host sees it once the scope has synchronized. Refused for `bool`
    /// (copy synchronously with [`rumba::copy`](crate::copy), which normalises).
    ///
    /// # Errors
    /// [`Error::InvalidBits`](crate::error::Error::InvalidBits) for `bool` elements (a byte copy
    /// could leave invalid values); as the synchronous [`copy`](crate::copy) otherwise, with the
    /// copy's own failure reported by the scope's synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let src = rumba::to_device(&[5u32, 6, 7]).unwrap();
    /// let mut m = rumba::mapped_array::<u32, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// s.auto_synchronize(|scope| scope.copy(m.device_mut(), &src)).unwrap();
    /// drop(src);
    /// assert_eq!(m.view().to_vec(), [5, 6, 7]);
    /// ```
    #[deprecated(note = "use scope.copy(view, &d)")]
    pub fn copy_to_mapped<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: MappedViewMut<'env, T, D>,
        src: &DeviceArray<T, E>,
    ) -> Result<()> {
        self.copy_to_mapped_impl(dst, src)
    }

    /// What `scope.copy(view, &d)` runs.
    pub(crate) fn copy_to_mapped_impl<T: Element, D: Dimension, E: Dimension>(
        &self,
        mut dst: MappedViewMut<'env, T, D>,
        src: &DeviceArray<T, E>,
    ) -> Result<()> {
        refuse_invalid_bits::<T>(
            "an asynchronous device copy",
            "copy synchronously with rumba::copy",
        )?;
        dst.copy_from_device_on(src, Some(self.stream()))
    }

    /// Queues a copy of mapped (or managed) host memory into the device array `dst` on the scope's
    /// stream; the host may keep reading the memory meanwhile, but not write it.
    ///
    /// # Errors
    /// As [`MappedView::copy_to_device`], with the copy's own failure reported by the scope's
    /// synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let mut m = rumba::mapped_array::<i8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.view_mut().fill(-1);
    /// let d = rumba::device_array::<i8, _>(2, rumba::Order::C).unwrap();
    /// s.auto_synchronize(|scope| scope.copy(&d, m.device())).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), [-1, -1]);
    /// ```
    #[deprecated(note = "use scope.copy(&d, view)")]
    pub fn copy_from_mapped<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        src: MappedView<'env, T, D>,
    ) -> Result<()> {
        self.copy_from_mapped_impl(dst, src)
    }

    /// What `scope.copy(&d, view)` runs.
    pub(crate) fn copy_from_mapped_impl<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        src: MappedView<'env, T, D>,
    ) -> Result<()> {
        src.copy_to_device_on(dst, Some(self.stream()))
    }
}
