//! Arguments a kernel reaches where they are, with no copy: host memory the device addresses
//! directly (mapped, managed, coarse- and fine-grained arrays and their device views), and
//! objects that describe device memory through the CUDA Array Interface.
//!
//! | argument for an `Arr<T>` parameter | the kernel reads | the kernel writes | the launch |
//! |---|---|---|---|
//! | `&MappedArray`, `&ManagedArray`, `&GrainedArray`, `&MappedView` (e.g. `guard.device()`) | yes | refused before anything is queued | waits for the kernel |
//! | `&mut` of the same, `&mut MappedViewMut` | yes | yes | waits for the kernel |
//! | [`Cai`]`(owner)` of a [`DeviceMemoryOwner`] | yes | yes | asynchronous, like a device array |
//!
//! **Host memory** is Numba's zero-copy case (`test_managed_alloc`, ROC's memory tests): the
//! device reads and writes the host's memory during the kernel. Rust code may read that memory
//! through a reference as soon as the borrow the argument holds ends, so a launch with such an
//! argument returns only when the kernel has finished (as the synchronous operations of
//! [`host::view`](crate::host) do) — which is also when Numba's programs may look at the array,
//! after synchronizing. A shared borrow lets the host read the memory meanwhile, so the kernel
//! must not write it: a `#[rumba::kernel]` that writes that parameter is refused at launch, and
//! a closure kernel's writes through it fault. Such a launch would wait for device work, so
//! it is refused inside a stream callback.
//!
//! **CUDA Array Interface objects** are imported at launch exactly as
//! [`as_cuda_array_with`] imports them: the producer's stream, when the description names one,
//! is synchronized once unless [`Cai::no_sync`] or `RUMBA_CUDA_ARRAY_INTERFACE_SYNC=0` says not
//! to (Numba's `test_launch_sync*`), and the owner stays alive until the kernel has run.
//!
//! Touches the driver (device addresses of host memory) and the CUDA Array Interface import.

use ndarray::{Dimension, IxDyn};

use super::LaunchArg;
use super::args::Plan;
use super::args::sealed::Prepare;
use super::elements::KernelElement;
use super::params::Arr;
use crate::error::Result;
use crate::host::grained::{Grain, GrainedArray};
use crate::host::view::{MappedView, MappedViewMut, Parts};
use crate::host::{ManagedArray, MappedArray};
use crate::interop::{DeviceMemoryOwner, ImportOptions, as_cuda_array_with};

/// A CUDA Array Interface object passed to a kernel (Numba imports such objects at launch).
///
/// The owner is moved into the launch and kept alive until the kernel has run; pass a clone to
/// keep using it. The producer's stream is synchronized once at launch unless
/// [`no_sync`](Self::no_sync) or `RUMBA_CUDA_ARRAY_INTERFACE_SYNC=0`.
///
/// ```
/// use rumba::kernel::prelude::*;
/// use rumba::kernel::Cai;
///
/// #[kernel]
/// fn inc(t: &Thread, a: &mut Arr<i32>) {
///     let i = t.grid1();
///     if i < a.len() {
///         a[i] += 1;
///     }
/// }
///
/// # fn main() {
/// let d = rumba::to_device(&[1i32, 2, 3]).unwrap();
/// // Any `DeviceMemoryOwner` (here a device array) passes by its interface.
/// let r = inc().configure(1, 32).launch((Cai(d.clone()),));
/// if rumba::backend().unwrap() == rumba::driver::BackendKind::OpenCl {
///     // The interface describes CUDA memory: OpenCL refuses it, before anything is queued.
///     assert!(matches!(r, Err(rumba::Error::Unsupported { .. })));
///     return;
/// }
/// r.unwrap();
/// assert_eq!(d.copy_to_host().unwrap().to_vec(), [2, 3, 4]);
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Cai<O>(pub O);

impl<O> Cai<O> {
    /// The same argument, imported without synchronizing the producer's stream (Numba's
    /// `sync=False` on the consumer side): the kernel is then not ordered after the producer's
    /// queued work.
    pub fn no_sync(self) -> CaiNoSync<O> {
        CaiNoSync(self.0)
    }
}

/// A [`Cai`] argument imported without synchronizing the producer's stream.
#[derive(Debug, Clone)]
pub struct CaiNoSync<O>(pub O);

impl<'h> Plan<'h> {
    /// Adds host memory the device addresses directly, as an argument the kernel may write
    /// (`writable`) or only read. The launch then waits for the kernel.
    fn host_direct<D: Dimension>(
        &mut self,
        parts: &Parts<D>,
        itemsize: usize,
        writable: bool,
    ) -> Result<()> {
        self.refuse_host("host memory the device addresses directly")?;
        let position = self.args.len();
        if !writable {
            self.refuse_written(position, "a shared borrow of host memory (the host may read it while the kernel runs): pass it by `&mut`")?;
        }
        let device = self.stream().context().device_id();
        let (ptr, layout) = parts.kernel_side(device)?;
        self.args.push(crate::driver::KernelArg::Array(
            crate::driver::KernelArrayArg {
                ptr,
                itemsize,
                shape: layout.shape().to_vec(),
                strides: layout.strides().to_vec(),
                writable,
            },
        ));
        self.wait_for_kernel();
        Ok(())
    }

    /// Imports a CUDA Array Interface object and adds it as a device array.
    fn cai<T: KernelElement, O: DeviceMemoryOwner>(&mut self, owner: O, sync: bool) -> Result<()> {
        let d = as_cuda_array_with::<T, IxDyn, O>(owner, ImportOptions { sync })?;
        // The import's buffer keeps `owner` alive; the plan keeps the buffer until the kernel ran.
        self.device_array(&d)
    }
}

macro_rules! host_direct_args {
    ($( [$($gen:tt)*] $ty:ty, $writable:expr, |$a:ident| $parts:expr; )+) => {$(
        impl<$($gen)*> Prepare<Arr<T>> for $ty {
            fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
            where
                Self: 'h,
            {
                let $a = self;
                plan.host_direct($parts, size_of::<T>(), $writable)
            }
        }
        impl<$($gen)*> LaunchArg<Arr<T>> for $ty {}
    )+};
}

host_direct_args! {
    [T: KernelElement, D: Dimension] &MappedArray<T, D>, false, |a| a.device().parts();
    [T: KernelElement, D: Dimension] &mut MappedArray<T, D>, true, |a| a.device_mut().parts();
    [T: KernelElement, D: Dimension] &ManagedArray<T, D>, false, |a| a.device().parts();
    [T: KernelElement, D: Dimension] &mut ManagedArray<T, D>, true, |a| a.device_mut().parts();
    ['a, T: KernelElement, D: Dimension] &MappedView<'a, T, D>, false, |a| a.parts();
    ['a, T: KernelElement, D: Dimension] &mut MappedViewMut<'a, T, D>, true, |a| a.parts();
}

impl<T: KernelElement, D: Dimension, G: Grain> Prepare<Arr<T>> for &GrainedArray<T, D, G> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.host_direct(self.device()?.parts(), size_of::<T>(), false)
    }
}
impl<T: KernelElement, D: Dimension, G: Grain> LaunchArg<Arr<T>> for &GrainedArray<T, D, G> {}

impl<T: KernelElement, D: Dimension, G: Grain> Prepare<Arr<T>> for &mut GrainedArray<T, D, G> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.host_direct(self.device_mut()?.parts(), size_of::<T>(), true)
    }
}
impl<T: KernelElement, D: Dimension, G: Grain> LaunchArg<Arr<T>> for &mut GrainedArray<T, D, G> {}

impl<T: KernelElement, O: DeviceMemoryOwner> Prepare<Arr<T>> for Cai<O> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.cai::<T, O>(self.0, true)
    }
}
impl<T: KernelElement, O: DeviceMemoryOwner> LaunchArg<Arr<T>> for Cai<O> {}

impl<T: KernelElement, O: DeviceMemoryOwner> Prepare<Arr<T>> for CaiNoSync<O> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.cai::<T, O>(self.0, false)
    }
}
impl<T: KernelElement, O: DeviceMemoryOwner> LaunchArg<Arr<T>> for CaiNoSync<O> {}
