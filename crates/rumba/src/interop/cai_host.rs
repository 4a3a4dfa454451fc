//! The CUDA Array Interface of host memory the device addresses directly: mapped and managed
//! arrays, their device views, and the device views of [`mapped`](crate::mapped) guards.
//!
//! Each describes the device address of its first element on the owner's device (the bound
//! stream's device when it is bound), its byte strides (`None` when C-contiguous), read-only
//! `false`, and the bound stream's handle — `None` when unbound or bound to the default stream
//! (handle 0, which the interface forbids). A size-0 array describes data pointer 0. Numba's
//! `test_produce_no_stream` / `test_produce_stream` cases for `mapped_array` and `managed_array`
//! are the model.
//!
//! These types implement only [`CudaArray`], never
//! [`DeviceMemoryOwner`](super::DeviceMemoryOwner): their memory is also reachable through host
//! references, so turning a description into a device array stays an `unsafe` call
//! ([`from_cuda_array_interface`](super::from_cuda_array_interface)) whose caller vouches for
//! the host side.
//!
//! On the OpenCL backend every description here is refused ([`Error::Unsupported`](crate::Error::Unsupported)),
//! as for device arrays: the interface is CUDA's.
//!
//! This module touches the host-memory layer (views' device addresses) and the description type.

use ndarray::Dimension;

use super::cai::{CAI_VERSION, CudaArray, CudaArrayInterface};
use crate::error::Result;
use crate::host::view::Parts;
use crate::host::{Grain, GrainedArray, ManagedArray, MappedArray, MappedView, MappedViewMut};
use crate::layout::Element;
use crate::stream::Stream;

/// The description of elements `T` laid out as `parts` say.
/// Refused on the OpenCL backend, whose addresses mean nothing to a CUDA consumer.
fn describe<T: Element, D: Dimension>(parts: &Parts<D>) -> Result<CudaArrayInterface> {
    super::cai::refuse_opencl(crate::runtime::backend_driver()?.backend())?;
    let (ptr, layout, stream) = parts.description()?;
    Ok(CudaArrayInterface {
        shape: layout.shape().to_vec(),
        typestr: T::DTYPE.typestr(),
        data: (ptr, false),
        strides: (!layout.is_c_contiguous()).then(|| layout.strides().to_vec()),
        mask: None,
        stream: stream.and_then(Stream::interface_handle),
        version: CAI_VERSION,
    })
}

impl<T: Element, D: Dimension> CudaArray for MappedView<'_, T, D> {
    /// The view's description; an error when the memory is not mapped into the device it is
    /// described on.
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// use ndarray::s;
    /// let mut v = vec![0i32; 12];
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     // OpenCL: the description is refused (and mapping existing memory needs fine-grained
    /// #     // system SVM, which PoCL lacks).
    /// #     let refused = |r: rumba::Result<_>| matches!(r, Err(rumba::Error::Unsupported { .. }));
    /// #     match rumba::mapped([&mut v]) {
    /// #         Ok(g) => assert!(refused(g.device(0).unwrap().describe().map(|_| ()))),
    /// #         Err(e) => assert!(refused(Err::<(), _>(e))),
    /// #     }
    /// #     return;
    /// # }
    /// let guard = rumba::mapped([&mut v]).unwrap();
    /// let desc = guard.device(0).unwrap().describe().unwrap();
    /// assert_eq!((desc.shape.clone(), desc.typestr.as_str(), desc.strides.clone()), (vec![12], "<i4", None));
    /// assert_eq!(desc.data.0, guard.device(0).unwrap().device_ptr(0).unwrap());
    /// ```
    fn describe(&self) -> Result<CudaArrayInterface> {
        describe::<T, D>(self.parts())
    }
}

impl<T: Element, D: Dimension> CudaArray for MappedViewMut<'_, T, D> {
    /// As for [`MappedView`].
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let mut m = rumba::mapped_array::<u16, _>((2, 3), rumba::Order::F, rumba::MappedOptions::new()).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(m.device_mut().describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// #     return;
    /// # }
    /// assert_eq!(m.device_mut().describe().unwrap().strides, Some(vec![2, 4]));
    /// ```
    fn describe(&self) -> Result<CudaArrayInterface> {
        describe::<T, D>(self.parts())
    }
}

impl<T: Element, D: Dimension> CudaArray for MappedArray<T, D> {
    /// The array's description (`__cuda_array_interface__` of Numba's `mapped_array`).
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let m = rumba::mapped_array::<f64, _>(10, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(m.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// #     return;
    /// # }
    /// let desc = m.describe().unwrap();
    /// assert_eq!((desc.stream, desc.version, desc.data.1), (None, 3, false));
    /// assert_eq!(desc.data.0, m.device().device_ptr(0).unwrap());
    /// ```
    fn describe(&self) -> Result<CudaArrayInterface> {
        self.device().describe()
    }
}

impl<T: Element, D: Dimension> CudaArray for ManagedArray<T, D> {
    /// The array's description (`__cuda_array_interface__` of Numba's `managed_array`).
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let a = rumba::managed_array::<u8, _>(0, rumba::Order::C).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(a.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// #     return;
    /// # }
    /// assert_eq!(a.describe().unwrap().data, (0, false)); // size 0: pointer 0
    /// ```
    fn describe(&self) -> Result<CudaArrayInterface> {
        self.device().describe()
    }
}

impl<T: Element, D: Dimension, G: Grain> CudaArray for GrainedArray<T, D, G> {
    /// The array's description, after waiting for the device work its `*_on` methods queued
    /// (the consumer uses the memory next).
    ///
    /// ```
    /// use rumba::interop::CudaArray;
    /// let c = rumba::coarsegrain_array::<f32, _>((2, 2), rumba::Order::F).unwrap();
    /// # if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
    /// #     assert!(matches!(c.describe(), Err(rumba::Error::Unsupported { .. }))); // CUDA's interface
    /// #     return;
    /// # }
    /// let desc = c.describe().unwrap();
    /// assert_eq!((desc.strides, desc.stream), (Some(vec![4, 8]), None));
    /// assert_eq!(desc.data.0, c.device().unwrap().device_ptr(0).unwrap());
    /// ```
    fn describe(&self) -> Result<CudaArrayInterface> {
        describe::<T, D>(&self.description_parts()?)
    }
}
