//! Launch arguments: what a caller may pass for each kernel parameter ([`LaunchArg`] says), and
//! how it becomes a raw [`KernelArg`]. Automatic transfers are counted in
//! [`transfer`](super::transfer); host memory the device addresses directly and CUDA Array
//! Interface objects are in [`direct`](super::direct).
//!
//! Preparing the arguments of one launch builds a plan: the raw arguments for the driver, the
//! device buffers the stream must keep alive until the kernel has run, and the copies back to
//! host arrays to make once the kernel is queued.
//!
//! This module touches device arrays (allocation and copies of temporaries) and streams.

use bytemuck::Pod;
use ndarray::{ArrayBase, Data, DataMut, Dimension};

use super::constant::ConstArray;
use super::elements::KernelElement;
use super::params::{Arr, ConstArr, Param, Params, Scalar};
use super::transfer::{HostTransfer, In, InOut, Out, count_to_device, count_to_host};
use crate::array::DeviceArray;
use crate::driver::{KernelArg, KernelArrayArg};
use crate::error::{ArgumentError, Error, Result};
use crate::layout::element::Element;
use crate::layout::element::scalar_types;
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;
use rumba_kernel_ir::abi::{KernelAbi, ParamKind};

/// A copy back to the host, run after the kernel is queued.
type After<'h> = Box<dyn FnOnce() -> Result<()> + 'h>;

/// What one launch needs besides the kernel: raw arguments, buffers to keep alive and copies
/// back. (Public only so the sealed argument traits can name it; not reachable from outside.)
pub struct Plan<'h> {
    stream: Stream,
    /// What a bare `&mut` host array means for this kernel.
    policy: HostTransfer,
    /// The kernel's signature, when it has one (`#[rumba::kernel]`).
    abi: Option<&'static KernelAbi>,
    /// An argument is memory the host reaches too: the launch returns when the kernel is done.
    pub(crate) wait: bool,
    pub(crate) args: Vec<KernelArg>,
    pub(crate) keep: Vec<DeviceBuffer>,
    pub(crate) after: Vec<After<'h>>,
    /// Keeps a context reset out from the first argument's address until the kernel is queued
    /// (see [`crate::memory::gate`]); dropped with the plan, before the launch waits.
    lease: Lease,
    /// Set when the launch goes into a graph (a capture, or an update of a kernel node): host
    /// arguments are refused before anything is uploaded or allocated. What it names is the
    /// operation, for the refusal.
    device_only: Option<String>,
}

impl<'h> Plan<'h> {
    ///
    /// # Errors
    /// [`Error::ResetInProgress`] on a stream callback while a context reset runs.
    pub(crate) fn new(
        stream: &Stream,
        policy: HostTransfer,
        abi: Option<&'static KernelAbi>,
    ) -> Result<Self> {
        Ok(Plan {
            stream: stream.clone(),
            policy,
            abi,
            wait: false,
            args: Vec::new(),
            keep: Vec::new(),
            after: Vec::new(),
            lease: Lease::enter()?,
            device_only: None,
        })
    }

    /// A plan that takes only device arguments: a host argument is refused (with
    /// [`GraphError::Refused`](crate::error::GraphError::Refused) naming `operation` and the
    /// stream) before anything is uploaded or allocated.
    pub(super) fn device_only(mut self, operation: String) -> Self {
        self.device_only = Some(operation);
        self
    }

    /// Refuses a host argument (`what`) of a plan that takes only device arguments.
    pub(super) fn refuse_host(&self, what: &str) -> Result<()> {
        match &self.device_only {
            Some(operation) => Err(crate::driver::graph::refused(
                format!("{operation} with {what} as argument {}", self.args.len()),
                self.stream.handle(),
                "a graph's kernels take device arrays: the host memory would be uploaded once, or read and written after the call returned",
            )),
            None => Ok(()),
        }
    }

    /// The launch's stream.
    pub(super) fn stream(&self) -> &Stream {
        &self.stream
    }

    /// Makes the launch return only once the kernel has finished.
    pub(super) fn wait_for_kernel(&mut self) {
        self.wait = true;
    }

    /// Refuses argument `position` when the kernel's signature says the kernel writes it;
    /// `what` says what the argument is and what to pass instead.
    pub(super) fn refuse_written(&self, position: usize, what: &str) -> Result<()> {
        let Some(abi) = self.abi else { return Ok(()) };
        match abi.params.get(position) {
            Some(p) if matches!(p.kind, ParamKind::Array { writes: true, .. }) => {
                Err(Error::KernelArgument {
                    kernel: abi.name.to_owned(),
                    position,
                    parameter: Some(p.name.to_owned()),
                    problem: ArgumentError::Written {
                        what: what.to_owned(),
                    },
                })
            }
            _ => Ok(()),
        }
    }

    /// Adds a device array argument (the stream keeps its buffer until the kernel has run).
    pub(super) fn device_array<T: Element, D: Dimension>(
        &mut self,
        a: &DeviceArray<T, D>,
    ) -> Result<()> {
        let device = self.stream.context().device_id();
        let position = self.args.len();
        if !a.is_empty() && a.buffer().device() != device {
            return Err(Error::WrongDevice {
                what: format!("kernel argument {position}"),
                expected: device,
                found: a.buffer().device(),
            });
        }
        self.args.push(KernelArg::Array(KernelArrayArg {
            ptr: a.addr(&self.lease)?,
            itemsize: a.itemsize(),
            shape: a.shape().to_vec(),
            strides: a.strides().to_vec(),
            writable: true,
        }));
        if !a.is_empty() {
            self.keep.push(a.buffer().clone());
        }
        Ok(())
    }

    /// Copies a host array to a new device array on the launch's stream (staged: the data is
    /// taken before this returns) and adds it as an argument.
    fn host_in<T: Element, S: Data<Elem = T>, D: Dimension>(
        &mut self,
        host: &ArrayBase<S, D>,
    ) -> Result<DeviceArray<T, D>> {
        self.refuse_host("a host array")?;
        let d = crate::array::to_device_on(host, &self.stream)?;
        if d.nbytes() > 0 {
            count_to_device(d.nbytes());
        }
        self.device_array(&d)?;
        Ok(d)
    }

    /// Allocates a device array like a host array, bound to the launch's stream, and adds it.
    fn host_alloc<T: Element, S: Data<Elem = T>, D: Dimension>(
        &mut self,
        host: &ArrayBase<S, D>,
    ) -> Result<DeviceArray<T, D>> {
        self.refuse_host("a host array")?;
        let d = crate::array::to_device_alloc(host)?.bind(&self.stream);
        self.device_array(&d)?;
        Ok(d)
    }

    /// After the kernel: copies `dev` back into `host` (waiting for the stream).
    fn copy_back<T: Element, S: DataMut<Elem = T> + 'h, D: Dimension + 'h>(
        &mut self,
        dev: DeviceArray<T, D>,
        host: &'h mut ArrayBase<S, D>,
    ) {
        self.after.push(Box::new(move || {
            crate::transfer::copy(&mut *host, &dev)?;
            if dev.nbytes() > 0 {
                count_to_host(dev.nbytes());
            }
            Ok(())
        }));
    }

    /// Uploads a constant array's bytes on the launch's stream and adds them as a read-only
    /// array argument with the constant array's shape and byte strides.
    fn const_array<T: Element + Pod>(&mut self, c: &ConstArray<T>) -> Result<()> {
        self.refuse_host("a constant array")?;
        let d = crate::array::to_device_on(&ndarray::ArrayView1::from(c.data()), &self.stream)?;
        self.args.push(KernelArg::Array(KernelArrayArg {
            ptr: d.addr(&self.lease)?,
            itemsize: size_of::<T>(),
            shape: c.shape().to_vec(),
            strides: c.view().strides().to_vec(),
            writable: false,
        }));
        if !d.is_empty() {
            self.keep.push(d.buffer().clone());
        }
        Ok(())
    }

    /// Adds a scalar argument.
    fn scalar<T: Pod>(&mut self, v: T) {
        self.args
            .push(KernelArg::Scalar(bytemuck::bytes_of(&v).to_vec()));
    }
}

pub(crate) mod sealed {
    use super::Plan;
    use crate::error::Result;

    /// Turns one argument into raw form.
    pub trait Prepare<P> {
        fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
        where
            Self: 'h;
    }

    /// Turns a tuple of arguments into raw form.
    pub trait PrepareAll<P> {
        fn prepare_all<'h>(self, plan: &mut Plan<'h>) -> Result<()>
        where
            Self: 'h;
    }
}
use sealed::{Prepare, PrepareAll};

/// A value that can be passed for a kernel parameter of type `P`.
///
/// For an [`Arr<T>`] parameter: a device array `&DeviceArray<T, D>` (any dimensionality, any
/// layout — the kernel sees its own shape and strides), or a host `ndarray` array, transferred
/// automatically: `InOut(&mut a)`, `In(&a)` or `&a`, `Out(&mut a)`, or `&mut a`, which follows the
/// kernel's [`HostTransfer`] policy (`InOut` unless set otherwise; it says when the copies
/// happen). Host memory the device addresses directly (mapped, managed, grained arrays) and CUDA
/// Array Interface objects ([`Cai`](super::Cai)) pass with no copy. For a scalar parameter: a value
/// of that type. The compiler checks the element type of every argument against the kernel's
/// parameter list.
///
/// ```
/// use rumba::kernel::{Arr, LaunchArg};
/// fn accepts<A: LaunchArg<Arr<f32>>>(_a: A) {}
/// let d = rumba::to_device(&[1.0f32]).unwrap();
/// accepts(&d);
/// accepts(rumba::In(&ndarray::arr1(&[1.0f32])));
/// ```
pub trait LaunchArg<P: Param>: Prepare<P> {}

/// A tuple of launch arguments matching a kernel's parameter tuple `P`.
///
/// ```
/// use rumba::kernel::{Arr, LaunchArgs};
/// fn accepts<A: LaunchArgs<(Arr<i32>, u32)>>(_a: A) {}
/// accepts((&rumba::to_device(&[1i32]).unwrap(), 7u32));
/// ```
pub trait LaunchArgs<P: Params>: PrepareAll<P> {}

impl<T: KernelElement, D: Dimension> Prepare<Arr<T>> for &DeviceArray<T, D> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.device_array(self)
    }
}
impl<T: KernelElement, D: Dimension> LaunchArg<Arr<T>> for &DeviceArray<T, D> {}

impl<T: KernelElement, S: Data<Elem = T>, D: Dimension> Prepare<Arr<T>> for In<&ArrayBase<S, D>> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        let d = plan.host_in(self.0)?;
        drop(d); // the plan keeps its buffer alive until the kernel has run
        Ok(())
    }
}
impl<T: KernelElement, S: Data<Elem = T>, D: Dimension> LaunchArg<Arr<T>> for In<&ArrayBase<S, D>> {}

impl<T: KernelElement, S: Data<Elem = T>, D: Dimension> Prepare<Arr<T>> for &ArrayBase<S, D> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        In(self).prepare(plan)
    }
}
impl<T: KernelElement, S: Data<Elem = T>, D: Dimension> LaunchArg<Arr<T>> for &ArrayBase<S, D> {}

impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> Prepare<Arr<T>>
    for Out<&mut ArrayBase<S, D>>
{
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        let d = plan.host_alloc(self.0)?;
        plan.copy_back(d, self.0);
        Ok(())
    }
}
impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> LaunchArg<Arr<T>>
    for Out<&mut ArrayBase<S, D>>
{
}

impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> Prepare<Arr<T>>
    for InOut<&mut ArrayBase<S, D>>
{
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        let d = plan.host_in(self.0)?;
        plan.copy_back(d, self.0);
        Ok(())
    }
}
impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> LaunchArg<Arr<T>>
    for InOut<&mut ArrayBase<S, D>>
{
}

impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> Prepare<Arr<T>>
    for &mut ArrayBase<S, D>
{
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        match plan.policy {
            HostTransfer::InOut => InOut(self).prepare(plan),
            HostTransfer::In => {
                let shared: &ArrayBase<S, D> = self;
                In(shared).prepare(plan)
            }
            HostTransfer::Out => Out(self).prepare(plan),
        }
    }
}
impl<T: KernelElement, S: DataMut<Elem = T>, D: Dimension> LaunchArg<Arr<T>>
    for &mut ArrayBase<S, D>
{
}

impl<T: Element + Pod> Prepare<ConstArr<T>> for &ConstArray<T> {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.const_array(self)
    }
}
impl<T: Element + Pod> LaunchArg<ConstArr<T>> for &ConstArray<T> {}

impl<R: Pod + Send + Sync> Prepare<Scalar<R>> for R {
    fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
    where
        Self: 'h,
    {
        plan.scalar(self);
        Ok(())
    }
}
impl<R: Pod + Send + Sync> LaunchArg<Scalar<R>> for R {}

macro_rules! scalar_args {
    (kernel: [$($t:ty => $kk:ident, $kn:expr;)*] host: [$($h:ty => $hk:ident, $hn:expr;)*]) => {$(
        impl Prepare<$t> for $t {
            fn prepare<'h>(self, plan: &mut Plan<'h>) -> Result<()>
            where
                Self: 'h,
            {
                plan.scalar(self);
                Ok(())
            }
        }
        impl LaunchArg<$t> for $t {}
    )+};
}
scalar_types!(scalar_args);

macro_rules! args_tuple {
    ($($p:ident $a:ident $i:tt),*) => {
        impl<$($p: Param, $a: LaunchArg<$p>),*> PrepareAll<($($p,)*)> for ($($a,)*) {
            #[allow(unused_variables)]
            fn prepare_all<'h>(self, plan: &mut Plan<'h>) -> Result<()>
            where
                Self: 'h,
            {
                $(self.$i.prepare(plan)?;)*
                Ok(())
            }
        }
        impl<$($p: Param, $a: LaunchArg<$p>),*> LaunchArgs<($($p,)*)> for ($($a,)*) {}
    };
}
args_tuple!();
args_tuple!(PA A 0);
args_tuple!(PA A 0, PB B 1);
args_tuple!(PA A 0, PB B 1, PC C 2);
args_tuple!(PA A 0, PB B 1, PC C 2, PD D 3);
args_tuple!(PA A 0, PB B 1, PC C 2, PD D 3, PE E 4);
args_tuple!(PA A 0, PB B 1, PC C 2, PD D 3, PE E 4, PF F 5);
args_tuple!(PA A 0, PB B 1, PC C 2, PD D 3, PE E 4, PF F 5, PG G 6);
args_tuple!(PA A 0, PB B 1, PC C 2, PD D 3, PE E 4, PF F 5, PG G 6, PH H 7);
