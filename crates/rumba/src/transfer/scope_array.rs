//! Asynchronous device-array transfers that borrow host memory: methods of
//! [`StreamScope`] (see [`Stream::auto_synchronize`](crate::Stream::auto_synchronize)).
//!
//! Host arrays passed here stay borrowed for the scope's `'env`: shared borrows for data the device
//! reads, exclusive borrows for data it writes. The scope synchronizes its stream before `'env`
//! ends (on every exit path), so the device can read pinned host memory long after the call
//! returned, and the host cannot look at a destination before the data has arrived — all checked
//! by the borrow checker, with no `unsafe` for the caller. Device arrays used by queued work are
//! kept alive by the stream.
//!
//! Copies that need host-side unpacking into a strided destination (or `bool` normalisation)
//! wait for their data before returning; everything else returns once queued.
//!
//! This module touches the driver through the queue.

use ndarray::{ArrayBase, ArrayView1, ArrayViewMut1, Data, DataMut, Dimension};

use crate::array::DeviceArray;
use crate::array::create::{ToDevice, to_device_impl};
use crate::array::{AssignSource, HostMut, HostRef, Mode, Queue, download, upload};
use crate::error::Result;
use crate::layout::element::Element;
use crate::transfer::StreamScope;

impl<'scope, 'env> StreamScope<'scope, 'env> {
    /// Copies host data to a new device array bound to the scope's stream. From pinned memory the
    /// copy is truly asynchronous; `host` stays borrowed until the scope ends.
    ///
    /// # Errors
    /// As [`to_device_on`](crate::to_device_on); the copy's own failure is reported by the scope's
    /// synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let host = ndarray::array![[1u32, 2], [3, 4]];
    /// let back = s.auto_synchronize(|scope| -> rumba::Result<_> {
    ///     let d = scope.to_device(&host)?;
    ///     d.copy_to_host()          // runs on the bound stream, after the copy
    /// }).unwrap();
    /// assert_eq!(back, host);
    /// ```
    pub fn to_device<H: ToDevice + ?Sized>(
        &self,
        host: &'env H,
    ) -> Result<DeviceArray<H::Elem, H::Dim>> {
        to_device_impl(host, Some((self.stream(), Mode::Scoped)), true)
    }

    /// Queues a copy of `src` (any layout) into the contiguous device array `dst`.
    ///
    /// # Errors
    /// As [`DeviceArray::copy_from_host`], except that the copy's own failure is reported by the scope's
    /// synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<f32, _>(3, rumba::Order::C).unwrap();
    /// let host = ndarray::array![1.0f32, 2.0, 3.0];
    /// s.auto_synchronize(|scope| scope.copy(&d, &host)).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap(), host);
    /// ```
    #[deprecated(note = "use scope.copy(&d, &host)")]
    pub fn copy_from_host<T: Element, D: Dimension, S: Data<Elem = T>, E: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &'env ArrayBase<S, E>,
    ) -> Result<()> {
        self.copy_from_host_impl(dst, src)
    }

    /// What `scope.copy(&d, &host)` runs.
    pub(crate) fn copy_from_host_impl<T: Element, D: Dimension, S: Data<Elem = T>, E: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &'env ArrayBase<S, E>,
    ) -> Result<()> {
        self.upload_scoped(dst, &HostRef::new(src)?)
    }

    /// Queues a copy of `src` into the host array or view `dst`, which stays exclusively borrowed
    /// until the scope has synchronized.
    ///
    /// # Errors
    /// As [`DeviceArray::copy_to_host_into`], except that the copy's own failure is reported by the
    /// scope's synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::to_device(&[5i32, 6, 7]).unwrap();
    /// let mut host = ndarray::Array1::<i32>::zeros(3);
    /// s.auto_synchronize(|scope| scope.copy(&mut host, &d)).unwrap();
    /// assert_eq!(host.to_vec(), [5, 6, 7]);
    /// ```
    #[deprecated(note = "use scope.copy(&mut host, &d)")]
    pub fn copy_to_host_into<T: Element, D: Dimension, S: DataMut<Elem = T>, E: Dimension>(
        &self,
        src: &DeviceArray<T, D>,
        dst: &'env mut ArrayBase<S, E>,
    ) -> Result<()> {
        self.copy_to_host_into_impl(src, dst)
    }

    /// What `scope.copy(&mut host, &d)` runs.
    pub(crate) fn copy_to_host_into_impl<
        T: Element,
        D: Dimension,
        S: DataMut<Elem = T>,
        E: Dimension,
    >(
        &self,
        src: &DeviceArray<T, D>,
        dst: &'env mut ArrayBase<S, E>,
    ) -> Result<()> {
        self.download_scoped(src, &HostMut::new(dst)?)
    }

    /// Queues [`DeviceArray::copy_from_device`].
    ///
    /// # Errors
    /// As [`DeviceArray::copy_from_device`], except that the copy's own failure is reported by the
    /// scope's synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let a = rumba::to_device(&[1u8, 2]).unwrap();
    /// let b = rumba::device_array::<u8, _>(2, rumba::Order::C).unwrap();
    /// s.auto_synchronize(|scope| scope.copy(&b, &a)).unwrap();
    /// assert_eq!(b.copy_to_host().unwrap().to_vec(), [1, 2]);
    /// ```
    #[deprecated(note = "use scope.copy(&dst, &src)")]
    pub fn copy_from_device<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &DeviceArray<T, E>,
    ) -> Result<()> {
        self.copy_from_device_impl(dst, src)
    }

    /// What `scope.copy(&dst, &src)` runs.
    pub(crate) fn copy_from_device_impl<T: Element, D: Dimension, E: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &DeviceArray<T, E>,
    ) -> Result<()> {
        dst.copy_from_device_impl(src, Some(self.stream()))
    }

    /// Queues [`DeviceArray::assign`]; a host source stays borrowed until the scope ends. (Scalar
    /// and device sources borrow no host memory; [`DeviceArray::assign_on`] with
    /// [`stream`](StreamScope::stream) queues them without tying them to the scope.)
    ///
    /// # Errors
    /// As [`DeviceArray::assign`], except that the work's own failure is reported by the scope's
    /// synchronization.
    ///
    /// ```
    /// use ndarray::s;
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::device_array::<i64, _>((2, 4), rumba::Order::C).unwrap();
    /// let row = ndarray::array![1i64, 2];
    /// s.auto_synchronize(|scope| scope.assign(&d.slice(s![.., ..;2])?, &row)).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap(), ndarray::array![[1, 0, 2, 0], [1, 0, 2, 0]]);
    /// ```
    pub fn assign<T: Element, D: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: impl AssignSource<T> + 'env,
    ) -> Result<()> {
        let mut q = Queue::on(self.stream(), dst.buffer(), Mode::Scoped)?;
        dst.assign_with(&mut q, &src.source()?)
    }

    /// [`copy_from_host`](Self::copy_from_host) from a slice (a 1-D host array), for
    /// [`StreamScope::copy`].
    pub(crate) fn copy_from_slice<T: Element, D: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &'env [T],
    ) -> Result<()> {
        self.upload_scoped(dst, &HostRef::new(&ArrayView1::from(src))?)
    }

    /// [`copy_to_host_into`](Self::copy_to_host_into) a slice (a 1-D host array), for
    /// [`StreamScope::copy`].
    pub(crate) fn copy_to_slice<T: Element, D: Dimension>(
        &self,
        src: &DeviceArray<T, D>,
        dst: &'env mut [T],
    ) -> Result<()> {
        self.download_scoped(src, &HostMut::new(&mut ArrayViewMut1::from(dst))?)
    }

    /// Queues host → device in scoped mode. `src` points at memory the caller borrowed for
    /// `'env` (every caller takes it as `&'env`), which the scope outlives.
    fn upload_scoped<T: Element, D: Dimension>(
        &self,
        dst: &DeviceArray<T, D>,
        src: &HostRef<'_, T>,
    ) -> Result<()> {
        let mut q = Queue::on(self.stream(), dst.buffer(), Mode::Scoped)?;
        upload(&mut q, dst.buffer(), dst.layout(), src)?;
        q.keep(vec![dst.buffer().clone()])
    }

    /// Queues device → host in scoped mode. `dst` points at memory the caller borrowed
    /// exclusively for `'env` (every caller takes it as `&'env mut`), which the scope outlives.
    fn download_scoped<T: Element, D: Dimension>(
        &self,
        src: &DeviceArray<T, D>,
        dst: &HostMut<'_, T>,
    ) -> Result<()> {
        let mut q = Queue::on(self.stream(), src.buffer(), Mode::Scoped)?;
        download(&mut q, src.buffer(), src.layout(), dst)?;
        q.keep(vec![src.buffer().clone()])
    }
}
