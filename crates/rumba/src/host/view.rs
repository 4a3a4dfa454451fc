//! Device-side views of host memory that the device addresses directly (mapped or managed):
//! [`MappedView`] (shared) and [`MappedViewMut`] (exclusive), and the device operations on them.
//!
//! A view is a borrow: it comes from a [`MappedArray`](crate::MappedArray), a
//! [`ManagedArray`](crate::ManagedArray) or a [`MappedGuard`](crate::host::MappedGuard) and
//! lives no longer than that borrow. What the device may do follows Rust's borrow rules:
//! - through a [`MappedView`] (a shared borrow) the device only **reads** the memory, which the
//!   host may read at the same time — two reads never race;
//! - through a [`MappedViewMut`] (an exclusive borrow) the device **writes** it, and the host
//!   cannot look at it while the borrow lasts.
//!
//! The methods here are **synchronous**: the work is queued on the owner's bound stream (see
//! [`MappedArray::bind`](crate::MappedArray::bind)), or the default stream when it has none
//! (legacy, or per-thread when so configured), and waited for before the method returns, so no device work on the memory outlives the
//! borrow.
//! Asynchronous device work on mapped memory is offered only on a
//! [`StreamScope`](crate::StreamScope) (`memset_mapped`, `copy` with a mapped view on either side),
//! which takes the view for the scope's whole `'env` and synchronizes before `'env` ends — on
//! every exit path, with nothing a caller could leak to skip it.
//!
//! Element types whose bit patterns are not all valid (`bool`) are protected too: a byte memset
//! is refused for them, and a synchronous copy from the device normalises the bytes before the
//! host can see them; the scoped copy refuses them.
//!
//! Both views describe themselves through the CUDA Array Interface
//! ([`CudaArray`](crate::interop::CudaArray), implemented in the interop layer): the device
//! address of the first element on the owner's device (the bound stream's device when bound), byte
//! strides (`None` when C-contiguous), and the bound stream's handle (`None` for none or the
//! default stream, never 0). Importing such a description as a device array stays an `unsafe`
//! decision (see [`interop::cai`](crate::interop::cai)): the memory is host memory too.
//!
//! This module touches the driver (strided copies and fills through device addresses of host
//! memory, stream synchronization) and, to normalise bytes, the host memory of a view it holds
//! exclusively.

use std::marker::PhantomData;

use ndarray::{ArrayView, ArrayViewMut, Dimension};

use super::layout::HostLayout;
use crate::array::DeviceArray;
use crate::driver::{DevicePtr, StreamHandle, StridedCopy, StridedSource};
use crate::error::{Error, Result};
use crate::layout::element::refuse_invalid_bits;
use crate::layout::{Element, Layout};
use crate::memory::gate::Lease;
use crate::runtime::context::Context;
use crate::stream::Stream;

/// Raw parts shared by both views.
#[derive(Clone)]
pub(crate) struct Parts<D> {
    /// Lowest byte the view touches.
    pub(crate) base: *mut u8,
    pub(crate) shape: HostLayout<D>,
    pub(crate) ctx: Context,
    /// The stream the owner is bound to: synchronous operations run there.
    pub(crate) stream: Option<Stream>,
}

/// Device-side shared view of host memory the device addresses directly: the device may read it
/// while the host reads it too.
///
/// ```
/// use rumba::Order;
/// let mut m = rumba::mapped_array::<i32, _>(4, Order::C, rumba::MappedOptions::new()).unwrap();
/// m.view_mut().assign(&ndarray::array![1, 2, 3, 4]);
/// let d = rumba::device_array::<i32, _>(4, Order::C).unwrap();
/// rumba::copy(&d, m.device()).unwrap(); // the device reads the host memory directly
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [1, 2, 3, 4]);
/// ```
pub struct MappedView<'a, T: Element, D: Dimension> {
    parts: Parts<D>,
    _borrow: PhantomData<&'a [T]>,
}

impl<T: Element, D: Dimension> Clone for MappedView<'_, T, D> {
    fn clone(&self) -> Self {
        MappedView {
            parts: self.parts.clone(),
            _borrow: PhantomData,
        }
    }
}

/// Device-side exclusive view of host memory the device addresses directly: the device may write
/// it, and the host cannot look at it until the view is gone.
///
/// ```
/// use rumba::Order;
/// let mut m = rumba::mapped_array::<u8, _>(8, Order::C, rumba::MappedOptions::new()).unwrap();
/// m.device_mut().memset(0xab).unwrap();               // the device writes the host memory
/// assert!(m.view().iter().all(|&b| b == 0xab));        // no copy back
/// ```
pub struct MappedViewMut<'a, T: Element, D: Dimension> {
    parts: Parts<D>,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: a `MappedView` is a shared borrow of `T`s (which are `Sync`): like `&[T]`.
unsafe impl<T: Element, D: Dimension> Send for MappedView<'_, T, D> {}
// SAFETY: as above.
unsafe impl<T: Element, D: Dimension> Sync for MappedView<'_, T, D> {}
// SAFETY: a `MappedViewMut` is an exclusive borrow of `T`s (which are `Send`): like `&mut [T]`.
unsafe impl<T: Element, D: Dimension> Send for MappedViewMut<'_, T, D> {}
// SAFETY: shared access to a `MappedViewMut` only reads, like `&&mut [T]`.
unsafe impl<T: Element, D: Dimension> Sync for MappedViewMut<'_, T, D> {}

impl<D: Dimension> Parts<D> {
    fn layout(&self) -> &Layout {
        &self.shape.layout
    }

    /// The device a synchronous operation without a device array runs on: the bound stream's,
    /// else the owner's context's.
    fn default_device(&self) -> usize {
        self.stream
            .as_ref()
            .map_or(self.ctx.device_id(), |s| s.context().device_id())
    }

    /// Device address of the base on `device`; fails when the memory is not mapped there
    /// (e.g. mapped without `portable` for another device).
    fn device_base(&self, device: usize) -> Result<DevicePtr> {
        self.ctx.driver().host_device_pointer(device, self.base)
    }

    /// What a kernel on `device` is given: the device address of element `(0, …, 0)` (0 when
    /// there is none) and the layout; an error when the memory is not mapped into `device`.
    pub(crate) fn kernel_side(&self, device: usize) -> Result<(DevicePtr, &Layout)> {
        if self.shape.size() == 0 {
            return Ok((0, self.layout()));
        }
        let (first, _) = self.device_side(device)?;
        Ok((first, self.layout()))
    }

    /// Address of the first element, byte strides.
    fn device_side(&self, device: usize) -> Result<(DevicePtr, &[isize])> {
        let base = self.device_base(device)?;
        Ok((
            base + self.layout().offset() as u64,
            self.layout().strides(),
        ))
    }

    /// Where a synchronous operation runs: the bound stream (which must belong to `device`), or
    /// `device`'s default stream (legacy, or per-thread when so configured).
    fn sync_target(&self, device: usize) -> Result<(usize, StreamHandle)> {
        match &self.stream {
            Some(s) if s.context().device_id() != device => Err(Error::WrongDevice {
                what: format!("host memory bound to {s} (bind it to a stream of device {device})"),
                expected: device,
                found: s.context().device_id(),
            }),
            Some(s) => Ok((device, s.handle())),
            None => Ok((device, StreamHandle::DEFAULT)),
        }
    }

    /// What a CUDA Array Interface description of the memory says: the device address of the
    /// first element on the device it is described on (the bound stream's, else the owner's; 0
    /// when there is no element), the byte layout, and the bound stream.
    pub(crate) fn description(&self) -> Result<(DevicePtr, &Layout, Option<&Stream>)> {
        let ptr = if self.shape.size() == 0 {
            0
        } else {
            self.device_side(self.default_device())?.0
        };
        Ok((ptr, self.layout(), self.stream.as_ref()))
    }

    /// Copies between this memory and the device array `array` (same shape, any layouts): into
    /// `array` when `to_array`, out of it otherwise; on `stream`, which holds `array`'s buffer
    /// until the copy ran, or when `None` on the bound stream or the default stream, waited for.
    fn copy_device<T: Element, E: Dimension>(
        &self,
        array: &DeviceArray<T, E>,
        to_array: bool,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.same_shape(array)?;
        if array.is_empty() {
            return Ok(());
        }
        let (device, handle) = target(self, stream, array.buffer().device())?;
        let mapped = self.device_side(device)?;
        let lease = Lease::enter()?;
        let on_device = (array.addr(&lease)?, array.strides());
        let ((dst, dst_strides), (ptr, strides)) = if to_array {
            (on_device, mapped)
        } else {
            (mapped, on_device)
        };
        let copy = StridedCopy {
            shape: array.shape(),
            itemsize: T::DTYPE.itemsize(),
            dst,
            dst_strides,
            src: StridedSource::Device { ptr, strides },
        };
        run(&self.ctx, device, &copy, handle, stream.is_none())?;
        if let Some(s) = stream {
            s.hold([array.buffer().clone()])?;
        }
        Ok(())
    }

    fn same_shape<T: Element, E: Dimension>(&self, other: &DeviceArray<T, E>) -> Result<()> {
        if self.layout().shape() == other.shape() {
            Ok(())
        } else {
            Err(Error::IncompatibleShape {
                left: self.layout().shape().to_vec(),
                right: other.shape().to_vec(),
            })
        }
    }
}

/// Queues `copy` on `stream` of `device` and, when `wait` (synchronous operations), waits for it.
fn run(
    ctx: &Context,
    device: usize,
    copy: &StridedCopy<'_>,
    stream: StreamHandle,
    wait: bool,
) -> Result<()> {
    let drv = ctx.driver();
    if wait {
        // Refused before anything is queued: the wait below would be refused, and the copy would
        // still run into (or out of) host memory whose borrow ends when this returns.
        crate::driver::callback::refuse_wait("a synchronous copy of mapped memory", "")?;
    }
    // SAFETY: every range of `copy` is either a live device array's own allocation or host memory
    // this module holds a borrow of (shared when the device only reads it, exclusive when it
    // writes); the borrow outlives the operation because the caller waits for it (`wait`, below)
    // or a scope synchronizes before the borrow ends.
    unsafe { drv.copy_strided_async(device, copy, stream) }?;
    if wait {
        drv.stream_synchronize(device, stream)?;
    }
    Ok(())
}

fn fill_copy<'c>(
    dst: DevicePtr,
    strides: &'c [isize],
    shape: &'c [usize],
    value: &'c [u8],
) -> StridedCopy<'c> {
    StridedCopy {
        shape,
        itemsize: value.len(),
        dst,
        dst_strides: strides,
        src: StridedSource::Fill(value),
    }
}

impl<'a, T: Element, D: Dimension> MappedView<'a, T, D> {
    pub(crate) fn new(parts: Parts<D>) -> Self {
        MappedView {
            parts,
            _borrow: PhantomData,
        }
    }

    /// The shape.
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>((2, 3), rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert_eq!(m.device().shape(), &[2, 3]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.parts.layout().shape()
    }

    /// The byte layout (strides in bytes, offset from the lowest byte).
    ///
    /// ```
    /// let m = rumba::mapped_array::<u32, _>((2, 3), rumba::Order::F, rumba::MappedOptions::new()).unwrap();
    /// assert_eq!(m.device().layout().strides(), &[4, 8]);
    /// ```
    pub fn layout(&self) -> &Layout {
        self.parts.layout()
    }

    /// The host side of the same memory, for as long as the view's borrow.
    ///
    /// ```
    /// let m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert_eq!(m.device().host().to_vec(), [0, 0, 0]);
    /// ```
    pub fn host(&self) -> ArrayView<'a, T, D> {
        // SAFETY: the view holds a shared borrow of live host memory holding valid `T`s for 'a;
        // the device only reads through shared views, so nobody writes it.
        unsafe { self.parts.shape.view(self.parts.base) }
    }

    /// The device address of the first element on `device` (an error when the memory is not
    /// mapped into that device). Using it needs the driver's `unsafe` calls.
    ///
    /// # Errors
    /// [`Error::HostMemory`] when the memory is not mapped into `device` (it is not portable and
    /// was allocated for another device), or `device` does not exist.
    ///
    /// ```
    /// use rumba::driver::BackendKind;
    /// let m = rumba::mapped_array::<u8, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// let ptr = m.device().device_ptr(0).unwrap();
    /// match rumba::backend().unwrap() {
    ///     BackendKind::Sim => assert!(ptr >= 1 << 63), // the sim's device addresses: upper half
    ///     BackendKind::OpenCl => assert_eq!(ptr, m.view().as_ptr() as u64), // SVM: the host address
    ///     _ => assert_ne!(ptr, 0),
    /// }
    /// ```
    pub fn device_ptr(&self, device: usize) -> Result<DevicePtr> {
        Ok(self.parts.device_side(device)?.0)
    }

    /// Copies the elements into the device array `dst` (same shape, any layouts), on `dst`'s
    /// device: the device reads the host memory directly. Complete when it returns. Spelled
    /// [`rumba::copy(&d, view)`](crate::copy) now.
    ///
    /// # Errors
    /// [`Error::IncompatibleShape`] when the shapes differ (length-1 axes aside);
    /// [`Error::HostMemory`] when the memory is not mapped into `dst`'s device;
    /// [`Error::WrongDevice`] when it is bound to a stream of another device; [`Error::InCallback`] when called from a stream callback; the
    /// error of the copy.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<f32, _>((2, 2), rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.view_mut().fill(2.5);
    /// let d = rumba::device_array::<f32, _>((2, 2), rumba::Order::F).unwrap();
    /// rumba::copy(&d, m.device()).unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().sum(), 10.0);
    /// assert!(rumba::copy(&rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap(), m.device()).is_err());
    /// ```
    #[deprecated(note = "use rumba::copy(&d, view)")]
    pub fn copy_to_device<E: Dimension>(&self, dst: &DeviceArray<T, E>) -> Result<()> {
        self.copy_to_device_on(dst, None)
    }

    /// Copies the elements into `dst` on `stream` (`None`: on the bound stream or the default
    /// stream, waited for); what `copy` and `scope.copy` run.
    pub(crate) fn copy_to_device_on<E: Dimension>(
        &self,
        dst: &DeviceArray<T, E>,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.parts.copy_device(dst, true, stream)
    }
}

/// The device and stream an operation runs on: a scope's `stream`, or for a synchronous
/// operation on `device` the bound stream or the default stream.
fn target<D: Dimension>(
    parts: &Parts<D>,
    stream: Option<&Stream>,
    device: usize,
) -> Result<(usize, StreamHandle)> {
    match stream {
        Some(s) => Ok((s.context().device_id(), s.handle())),
        None => parts.sync_target(device),
    }
}

impl<'a, T: Element, D: Dimension> MappedViewMut<'a, T, D> {
    pub(crate) fn new(parts: Parts<D>) -> Self {
        MappedViewMut {
            parts,
            _borrow: PhantomData,
        }
    }

    /// A shorter exclusive view of the same memory.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// let mut v = m.device_mut();
    /// v.reborrow().memset(1).unwrap();
    /// v.memset(2).unwrap();
    /// assert_eq!(m.view().to_vec(), [2, 2]);
    /// ```
    pub fn reborrow(&mut self) -> MappedViewMut<'_, T, D> {
        MappedViewMut::new(self.parts.clone())
    }

    /// A shared view of the same memory, for as long as this borrow of the exclusive one.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// let v = m.device_mut();
    /// assert_eq!(v.as_view().shape(), &[2]);
    /// ```
    pub fn as_view(&self) -> MappedView<'_, T, D> {
        MappedView::new(self.parts.clone())
    }

    /// The host side of the same memory, exclusively, for as long as this borrow.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// let mut v = m.device_mut();
    /// v.host_mut().fill(9);
    /// v.memset(1).unwrap();
    /// assert_eq!(v.host_mut().to_vec(), [1, 1]);
    /// ```
    pub fn host_mut(&mut self) -> ArrayViewMut<'_, T, D> {
        // SAFETY: the view holds an exclusive borrow of live host memory; no device work on it is
        // pending (synchronous methods wait; scoped ones consume the view).
        unsafe { self.parts.shape.view_mut(self.parts.base) }
    }

    /// Sets every byte of every element to `value`, on the device, writing the host memory
    /// directly (on the bound stream, else the default stream of the memory's context). Complete
    /// when it returns.
    /// Refused for element types that not every byte pattern is valid for (`bool`).
    ///
    /// # Errors
    /// [`Error::InvalidBits`] for an element type for which some byte pattern is invalid (`bool`,
    /// `char`): use [`fill`](Self::fill); otherwise as [`fill`](Self::fill).
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<u16, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.device_mut().memset(1).unwrap();
    /// assert_eq!(m.view().to_vec(), [0x0101; 3]);
    /// let mut b = rumba::mapped_array::<bool, _>(3, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// assert!(b.device_mut().memset(7).is_err());
    /// ```
    pub fn memset(&mut self, value: u8) -> Result<()> {
        let device = self.parts.default_device();
        let (device, stream) = self.parts.sync_target(device)?;
        self.memset_on(value, device, stream, true)
    }

    pub(crate) fn memset_on(
        &mut self,
        value: u8,
        device: usize,
        stream: StreamHandle,
        wait: bool,
    ) -> Result<()> {
        refuse_invalid_bits::<T>("a byte memset", "use fill")?;
        let bytes = vec![value; T::DTYPE.itemsize()];
        self.fill_bytes(&bytes, device, stream, wait)
    }

    pub(crate) fn fill_bytes(
        &mut self,
        value: &[u8],
        device: usize,
        stream: StreamHandle,
        wait: bool,
    ) -> Result<()> {
        if self.parts.shape.size() == 0 {
            return Ok(());
        }
        let (dst, strides) = self.parts.device_side(device)?;
        let copy = fill_copy(dst, strides, self.parts.layout().shape(), value);
        run(&self.parts.ctx, device, &copy, stream, wait)
    }

    /// Sets every element to `value`, on the device. Complete when it returns.
    ///
    /// # Errors
    /// [`Error::HostMemory`] when the memory is not mapped into the device of its context (or of
    /// its bound stream); [`Error::InCallback`] when called from a stream callback; the error of
    /// the device work.
    ///
    /// ```
    /// let mut m = rumba::mapped_array::<f64, _>((2, 2), rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// m.device_mut().fill(0.5).unwrap();
    /// assert_eq!(m.view().sum(), 2.0);
    /// ```
    pub fn fill(&mut self, value: T) -> Result<()> {
        let (device, stream) = self.parts.sync_target(self.parts.default_device())?;
        let bytes = crate::layout::element::as_bytes(std::slice::from_ref(&value)).to_vec();
        self.fill_bytes(&bytes, device, stream, true)
    }

    /// Copies the device array `src` (same shape, any layouts) into the host memory, on `src`'s
    /// device: the device writes the host memory directly. Complete when it returns. Spelled
    /// [`rumba::copy(&mut view, &d)`](crate::copy) now.
    ///
    /// # Errors
    /// As [`MappedView::copy_to_device`], with `src`'s device.
    ///
    /// ```
    /// let src = rumba::to_device(&ndarray::array![[1i64, 2], [3, 4]]).unwrap();
    /// let mut m = rumba::mapped_array::<i64, _>((2, 2), rumba::Order::F, rumba::MappedOptions::new()).unwrap();
    /// rumba::copy(&mut m.device_mut(), &src).unwrap();
    /// assert_eq!(m.view(), ndarray::array![[1, 2], [3, 4]]);
    /// ```
    #[deprecated(note = "use rumba::copy(&mut view, &d)")]
    pub fn copy_from_device<E: Dimension>(&mut self, src: &DeviceArray<T, E>) -> Result<()> {
        self.copy_from_device_impl(src)
    }

    /// Copies `src` into the host memory, complete when it returns; what `copy` runs.
    pub(crate) fn copy_from_device_impl<E: Dimension>(
        &mut self,
        src: &DeviceArray<T, E>,
    ) -> Result<()> {
        self.copy_from_device_on(src, None)?;
        if !T::ANY_BIT_PATTERN {
            self.normalize();
        }
        Ok(())
    }

    pub(crate) fn copy_from_device_on<E: Dimension>(
        &mut self,
        src: &DeviceArray<T, E>,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.parts.copy_device(src, false, stream)
    }

    /// Rewrites the bytes of every element into valid `T`s (after the device wrote them).
    fn normalize(&mut self) {
        let hi = self.parts.shape.extent();
        for (start, len) in self.parts.layout().runs().iter() {
            debug_assert!(start + len <= hi);
            // SAFETY: each run lies inside the elements of this exclusively borrowed view, and no
            // device work on it is pending (the copy was waited for).
            let bytes = unsafe { std::slice::from_raw_parts_mut(self.parts.base.add(start), len) };
            T::normalize_bytes(bytes);
        }
    }
}

impl<T: Element, D: Dimension> MappedView<'_, T, D> {
    pub(crate) fn parts(&self) -> &Parts<D> {
        &self.parts
    }
}

impl<T: Element, D: Dimension> MappedViewMut<'_, T, D> {
    pub(crate) fn parts(&self) -> &Parts<D> {
        &self.parts
    }
}
