//! [`Kernel<P>`]: a kernel definition with typed parameters, and its launch.
//!
//! A kernel is usually written with `#[rumba::kernel]` (see [`prelude`](crate::kernel::prelude)),
//! which generates a function returning its `Kernel` with every form the backends run. Below it,
//! a kernel is defined from a name, a parameter tuple `P` (see [`Params`]) and a body — a
//! closure run once per GPU thread with the thread's [`ThreadCtx`] and the launch's arguments as
//! the views `P` declares ([`Kernel::new`]; the simulator's form only). Launching it ([`Kernel::configure`] … [`Launcher::launch`]) checks the
//! configuration, prepares the arguments (device arrays as they are; host arrays through
//! automatic transfers), hands one [`Driver::launch_kernel`](crate::driver::Driver::launch_kernel)
//! to the stream, keeps the device buffers alive until the kernel has run, and makes the copies
//! back that were asked for.
//!
//! The kernel reaches the driver as one [`KernelFunction`] holding every form it has: the Rust
//! body as a [`HostKernel`] (what the simulator runs), and the CUDA C and OpenCL C sources
//! attached with [`Kernel::with_cuda_source`] and [`Kernel::with_opencl_source`]. Which one runs
//! is the backend's choice; nothing here names a backend.
//!
//! This module touches the driver (one launch), streams and, through the argument module, device
//! arrays.

use std::marker::PhantomData;
use std::sync::Arc;

use super::args::{LaunchArgs, Plan};
use super::capture::CaptureRef;
use super::constant::ConstArray;
use super::launcher::Launcher;
use super::params::Params;
use super::transfer::HostTransfer;
use crate::driver::KernelArg;
use crate::driver::{
    ArrayUse, CudaKernelSource, HostEngine, HostKernel, HostLaunch, KernelFunction, KernelLaunch,
    OpenClKernelSource,
};
use crate::error::Result;
use crate::error::{ArgumentError, Error};
use crate::kernel::{Dim3, ExecOptions, KernelAbi, LaunchConfig, ThreadCtx, run_grid_with};
use crate::stream::Stream;
use rumba_kernel_ir::abi::ParamKind;

/// A kernel with parameter list `P`: Numba's `@cuda.jit` function.
///
/// `#[rumba::kernel] fn name(t: &Thread, …)` generates `name()`, which returns the kernel: `P`
/// lists the function's parameters after `&Thread` ([`Arr<T>`](crate::kernel::Arr) for
/// `&Arr<T>` and `&mut Arr<T>`, [`ConstArr<T>`](crate::kernel::ConstArr), the scalar types,
/// [`Scalar<R>`](crate::kernel::Scalar) for a record). The body runs once per GPU thread.
/// Launches are asynchronous on a stream (the default stream unless told otherwise); a fault is
/// reported at the stream's next synchronization. Cloning shares the definition.
///
/// ```
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn vadd(t: &Thread, a: &Arr<f32>, b: &Arr<f32>, c: &mut Arr<f32>) {
///     let i = t.grid1();
///     if i < c.len() {
///         c[i] = a[i] + b[i];
///     }
/// }
///
/// # fn main() {
/// let k: Kernel<(Arr<f32>, Arr<f32>, Arr<f32>)> = vadd();
/// let n = 1000;
/// let a = rumba::to_device(&vec![1.0f32; n]).unwrap();
/// let b = rumba::to_device(&vec![2.0f32; n]).unwrap();
/// let c = rumba::device_array::<f32, _>(n, rumba::Order::C).unwrap();
/// k.configure(n.div_ceil(256) as u32, 256).launch((&a, &b, &c)).unwrap();
/// assert!(c.copy_to_host().unwrap().iter().all(|&x| x == 3.0));
/// # }
/// ```
///
/// [`Kernel::new`] makes a kernel from a closure instead, for the simulator only.
pub struct Kernel<P: Params> {
    pub(super) function: Arc<KernelFunction>,
    /// What a bare `&mut` host array argument means.
    pub(super) transfer: HostTransfer,
    /// The device arrays the kernel captures (trailing arguments the launch adds).
    pub(super) captures: Arc<[CaptureRef]>,
    _params: PhantomData<fn() -> P>,
}

impl<P: Params> Clone for Kernel<P> {
    fn clone(&self) -> Self {
        Kernel {
            function: Arc::clone(&self.function),
            transfer: self.transfer,
            captures: Arc::clone(&self.captures),
            _params: PhantomData,
        }
    }
}

impl<P: Params> std::fmt::Debug for Kernel<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Kernel<{}>({:?})",
            std::any::type_name::<P>(),
            self.function
        )
    }
}

impl<P: Params> Kernel<P> {
    /// Defines a kernel named `name` (used in errors) with `body` as its Rust form, the code the
    /// simulator runs. The closure has no CUDA C or OpenCL C form, so those backends refuse to
    /// launch it ([`Error::Unsupported`] naming the kernel) unless a source is attached with
    /// [`with_cuda_source`](Self::with_cuda_source) / [`with_opencl_source`](Self::with_opencl_source);
    /// `#[rumba::kernel]` generates every form from one function.
    ///
    /// A closure body runs once per GPU thread on the simulator's **coroutine** engine: every
    /// barrier switches coroutines per thread (several nanoseconds each) and global memory is
    /// reached through relaxed atomics. Kernels written with `#[rumba::kernel]` also get a
    /// block body for the faster work-item-loop engine; one can be added by hand with
    /// [`with_work_item_loop`](Self::with_work_item_loop). [`engine`](Self::engine) says which
    /// engine a kernel runs on.
    ///
    /// Name the parameter tuple with a turbofish so the closure's arguments are inferred:
    /// `Kernel::<(Arr<f32>, f32)>::new("k", |t, (x, s)| …)`. The body borrows the launch's
    /// argument tuple (`&P::Views`): a tuple pattern binds each argument by reference, so views
    /// are used as they are and a scalar `s` is read as `*s`. (Borrowing instead of copying the
    /// views into every GPU thread matters: a view is ~150 bytes, and copying three of them per
    /// thread made `vadd` five times slower.)
    ///
    /// ```
    /// use rumba::kernel::{Arr, Kernel};
    /// let fill = Kernel::<(Arr<u8>, u8)>::new("fill", |t, (a, v)| {
    ///     let (x, y) = t.grid2();
    ///     if x < a.shape()[1] && y < a.shape()[0] {
    ///         a.set((y, x), *v);
    ///     }
    /// });
    /// let d = rumba::device_array::<u8, _>((3, 5), rumba::Order::C).unwrap();
    /// let launched = fill.configure((1, 1), (8, 4)).launch((&d, 7));
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::Sim {
    ///     launched.unwrap();
    ///     assert!(d.copy_to_host().unwrap().iter().all(|&v| v == 7));
    /// } else {
    ///     // CUDA and OpenCL run C, and this kernel has none: the launch is refused.
    ///     let err = launched.unwrap_err();
    ///     assert!(matches!(err, rumba::Error::MissingKernelForm { ref kernel, .. } if kernel == "fill"), "{err}");
    /// }
    /// ```
    pub fn new<F>(name: &str, body: F) -> Self
    where
        F: for<'v> Fn(&ThreadCtx<'_>, &P::Views<'v>) + Send + Sync + 'static,
    {
        Self::new_with_options(name, ExecOptions::default(), body)
    }

    /// [`new`](Self::new) with the coroutine engine's [`ExecOptions`] for every launch: a
    /// body whose warp operations (`syncwarp`, votes, shuffles) thread 0 may skip needs
    /// `fast_path: false` (see [`ThreadCtx::syncwarp`]); `#[rumba::kernel]` asks for it when a
    /// kernel uses warp operations.
    ///
    /// ```
    /// use rumba::kernel::{Arr, ExecOptions, Kernel, FULL_MASK};
    /// let no_fast_path = ExecOptions { fast_path: false, parallel: true };
    /// let k = Kernel::<(Arr<u32>,)>::new_with_options("odd_lanes", no_fast_path, |t, (o,)| {
    ///     if t.lane_id() % 2 == 1 {
    ///         o.set(t.grid1(), t.ballot_sync(0xaaaa_aaaa, true));
    ///     }
    /// });
    /// let d = rumba::device_array::<u32, _>(32, rumba::Order::C).unwrap();
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::Sim {
    ///     k.configure(1, 32).launch((&d,)).unwrap();
    ///     assert_eq!(d.copy_to_host().unwrap()[1], 0xaaaa_aaaa);
    /// }
    /// # let _ = FULL_MASK;
    /// ```
    pub fn new_with_options<F>(name: &str, options: ExecOptions, body: F) -> Self
    where
        F: for<'v> Fn(&ThreadCtx<'_>, &P::Views<'v>) + Send + Sync + 'static,
    {
        Self::new_with_captures::<P, F>(name, options, Vec::new(), body)
    }

    /// A kernel that also reads the device arrays of `captures` (see
    /// [`Captured`](super::Captured)): the caller passes the arguments of `P`, the launch appends
    /// one array per capture, in order, and the body sees them all as `Full`'s views — `Full` is
    /// `P` followed by one [`Arr<T>`](super::Arr) per capture (a launch whose arguments do not
    /// match `Full` fails with [`Error::KernelArgument`] or [`Error::KernelArity`]). `#[rumba::kernel(capture(…))]`
    /// generates this call.
    ///
    /// ```
    /// use rumba::kernel::{Arr, Captured, ExecOptions, Kernel};
    /// static OFFSETS: Captured<u32> = Captured::new();
    /// let k = Kernel::<(Arr<u32>,)>::new_with_captures::<(Arr<u32>, Arr<u32>), _>(
    ///     "add_offsets",
    ///     ExecOptions::default(),
    ///     vec![OFFSETS.capture("OFFSETS", 1)],
    ///     |t, (out, offsets)| {
    ///         let i = t.grid1();
    ///         out.set(i, out.get(i) + offsets.get(i));
    ///     },
    /// );
    /// let d = rumba::to_device(&[1u32, 2]).unwrap();
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::Sim {
    ///     OFFSETS.set(rumba::to_device(&[10u32, 20]).unwrap());
    ///     k.configure(1, 2).launch((&d,)).unwrap();
    ///     assert_eq!(d.copy_to_host().unwrap().to_vec(), [11, 22]);
    /// }
    /// ```
    pub fn new_with_captures<Full: Params, F>(
        name: &str,
        options: ExecOptions,
        captures: Vec<CaptureRef>,
        body: F,
    ) -> Self
    where
        F: for<'v> Fn(&ThreadCtx<'_>, &Full::Views<'v>) + Send + Sync + 'static,
    {
        let host = HostKernel::per_thread(move |launch: &HostLaunch<'_>| {
            let views = Full::views(launch.args())?;
            let config = LaunchConfig::new(launch.grid(), launch.block())
                .with_dynamic_shared_bytes(launch.dynamic_shared_bytes());
            run_grid_with(launch.name(), &config, &options, |t| body(t, &views))
        });
        Kernel {
            function: Arc::new(KernelFunction::new(name).with_form(host)),
            transfer: HostTransfer::InOut,
            captures: captures.into(),
            _params: PhantomData,
        }
    }

    /// The device arrays the kernel captures, in the order the launch appends them.
    ///
    /// ```
    /// use rumba::kernel::{Arr, Kernel};
    /// let k = Kernel::<(Arr<f32>,)>::new("plain", |_t, _a| {});
    /// assert!(k.captures().is_empty());
    /// ```
    pub fn captures(&self) -> &[CaptureRef] {
        &self.captures
    }

    /// Adds a work-item-loop form: `run`, a grid function built around
    /// [`run_blocks`](crate::kernel::wil::run_blocks), which the simulator runs instead of the
    /// per-thread body ([`engine`](Self::engine)); `uses` declares how the kernel uses each
    /// argument, by position, for both forms (see [`ArrayUse`]). `#[rumba::kernel]` generates
    /// both; writing one by hand must follow the shape in the
    /// [`wil` module docs](crate::kernel::wil) and compute exactly what the per-thread body does.
    ///
    /// ```
    /// use rumba::driver::{ArrayUse, HostEngine};
    /// use rumba::kernel::{Arr, Kernel, LaunchConfig};
    /// use rumba::kernel::wil::{run_blocks, Atomic, Dyn, OwnOut};
    /// let iota = Kernel::<(Arr<u32>,)>::new("iota", |t, (o,)| {
    ///     let i = t.grid1();
    ///     if i < o.len() {
    ///         o.set(i, i as u32);
    ///     }
    /// })
    /// .with_work_item_loop([ArrayUse::OwnIndexStore], |launch| {
    ///     let cfg = LaunchConfig::new(launch.grid(), launch.block());
    ///     let o = OwnOut::<u32, Atomic>::from_arg(&launch.args()[0], 0, &cfg)?;
    ///     run_blocks::<Dyn, _>(launch.name(), &cfg, |blk| {
    ///         let (o, base) = (o.block(blk), blk.block_idx().x as usize * blk.block_dim().x as usize);
    ///         blk.each(|_, tid| {
    ///             let i = base + tid.x as usize;
    ///             if i < o.len() {
    ///                 o.set(i, i as u32);
    ///             }
    ///         });
    ///     })
    /// });
    /// let d = rumba::device_array::<u32, _>(100, rumba::Order::C).unwrap();
    /// let launched = iota.configure(4, 32).launch((&d,));
    /// if rumba::backend().unwrap() == rumba::driver::BackendKind::Sim {
    ///     launched.unwrap();
    ///     assert_eq!(d.copy_to_host().unwrap()[99], 99);
    ///     assert_eq!(iota.last_engine(), Some(HostEngine::WorkItemLoops));
    /// } else {
    ///     // Both forms are the simulator's: CUDA and OpenCL refuse the launch.
    ///     assert!(matches!(launched, Err(rumba::Error::MissingKernelForm { .. })));
    /// }
    /// ```
    pub fn with_work_item_loop(
        mut self,
        uses: impl Into<Vec<ArrayUse>>,
        run: impl Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync + 'static,
    ) -> Self {
        let uses = uses.into();
        self.update_host(|h| h.with_work_item_loop(run).with_array_uses(uses));
        self
    }

    /// Asks the simulator for an engine: [`HostEngine::Coroutines`] runs the per-thread body
    /// even when the kernel has a work-item-loop form (for comparing the two, and for
    /// debugging); [`HostEngine::WorkItemLoops`] restores the default.
    ///
    /// ```
    /// use rumba::driver::HostEngine;
    /// let k = rumba::kernel::Kernel::<()>::new("k", |_, ()| {}).with_engine(HostEngine::Coroutines);
    /// assert_eq!(k.engine(), HostEngine::Coroutines);
    /// ```
    pub fn with_engine(mut self, engine: HostEngine) -> Self {
        self.update_host(|h| h.with_engine(engine));
        self
    }

    /// The engine the simulator runs this kernel on: work-item loops when it has that form
    /// (written with `#[rumba::kernel]`, or added with
    /// [`with_work_item_loop`](Self::with_work_item_loop)) and coroutines were not asked for;
    /// coroutines otherwise — a kernel made from a closure alone always runs on coroutines.
    ///
    /// ```
    /// use rumba::driver::HostEngine;
    /// assert_eq!(rumba::kernel::Kernel::<()>::new("k", |_, ()| {}).engine(), HostEngine::Coroutines);
    /// ```
    pub fn engine(&self) -> HostEngine {
        self.host()
            .map_or(HostEngine::Coroutines, HostKernel::engine)
    }

    /// The engine that ran this kernel's last launch on the simulator (`None` before the first
    /// has run). The simulator also reports it, with the global-memory leases it granted, in a
    /// `tracing` event at debug level ("kernel engine").
    ///
    /// ```
    /// use rumba::driver::{BackendKind, HostEngine};
    /// use rumba::kernel::prelude::*;
    ///
    /// #[kernel]
    /// fn nothing(_t: &Thread) {}
    ///
    /// # fn main() {
    /// let k = nothing();
    /// assert_eq!(k.last_engine(), None);
    /// k.configure(1, 1).launch(()).unwrap();
    /// rumba::legacy_default_stream().unwrap().synchronize().unwrap();
    /// let on_sim = rumba::backend().unwrap() == BackendKind::Sim;
    /// // The simulator ran the block body; CUDA and OpenCL run the generated C, no Rust form.
    /// assert_eq!(k.last_engine(), on_sim.then_some(HostEngine::WorkItemLoops));
    /// # }
    /// ```
    pub fn last_engine(&self) -> Option<HostEngine> {
        self.host().and_then(HostKernel::last_engine)
    }

    fn host(&self) -> Option<&HostKernel> {
        self.function.form::<HostKernel>()
    }

    fn update_host(&mut self, f: impl FnOnce(HostKernel) -> HostKernel) {
        if let Some(h) = Arc::make_mut(&mut self.function).form_mut::<HostKernel>() {
            *h = f(h.clone());
        }
    }

    /// Sets what a bare `&mut` host array argument means for this kernel — its default transfer
    /// policy (Numba's `In` by configuration): [`HostTransfer::InOut`] (the default: copied in
    /// and back), [`HostTransfer::In`] (copied in only; the launch stays asynchronous) or
    /// [`HostTransfer::Out`] (only allocated, copied back). [`In`](crate::In),
    /// [`Out`](crate::Out) and [`InOut`](crate::InOut) still choose per argument.
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    /// use rumba::kernel::{auto_transfers, HostTransfer};
    ///
    /// #[kernel]
    /// fn twice(t: &Thread, a: &mut Arr<f32>) {
    ///     let i = t.grid1();
    ///     a[i] = 2.0 * a[i];
    /// }
    ///
    /// # fn main() {
    /// let k = twice().with_host_transfer(HostTransfer::Out);
    /// assert_eq!(k.host_transfer(), HostTransfer::Out);
    /// let mut host = ndarray::arr1(&[1.0f32, 2.0]);
    /// let before = auto_transfers();
    /// k.configure(1, 2).launch((&mut host,)).unwrap();
    /// assert_eq!(host.to_vec(), [0.0, 0.0]); // the kernel saw zeros: nothing was copied in
    /// assert_eq!(auto_transfers().since(&before).to_device, 0);
    /// # }
    /// ```
    pub fn with_host_transfer(mut self, policy: HostTransfer) -> Self {
        self.transfer = policy;
        self
    }

    /// The kernel's default transfer policy for bare `&mut` host arrays.
    ///
    /// ```
    /// let k = rumba::kernel::Kernel::<()>::new("k", |_, ()| {});
    /// assert_eq!(k.host_transfer(), rumba::kernel::HostTransfer::InOut);
    /// ```
    pub fn host_transfer(&self) -> HostTransfer {
        self.transfer
    }

    /// Attaches CUDA C source for the CUDA backend (the sim keeps running the Rust body).
    ///
    /// ```
    /// use rumba::{driver::CudaKernelSource, kernel::{Arr, Kernel}};
    /// let k = Kernel::<(Arr<f32>,)>::new("zero", |t, (a,)| a.set(t.grid1(), 0.0))
    ///     .with_cuda_source(CudaKernelSource::new(
    ///         r#"extern "C" __global__ void zero(rumba_array<float, 1> a) { a[rumba_grid1()] = 0.f; }"#,
    ///         "zero",
    ///     ));
    /// assert_eq!(k.function().form::<CudaKernelSource>().unwrap().entry, "zero");
    /// ```
    pub fn with_cuda_source(mut self, source: CudaKernelSource) -> Self {
        Arc::make_mut(&mut self.function).set_form(source);
        self
    }

    /// Registers a constant array as the `__constant__` global `name` of the CUDA source (the
    /// sim body reads the [`ConstArray`] it captured). Without CUDA source this does nothing.
    ///
    /// ```
    /// use rumba::{driver::CudaKernelSource, kernel::{Arr, Kernel}};
    /// let lut = rumba::const_array_like(&ndarray::arr1(&[1.0f32, 2.0])).unwrap();
    /// let l = lut.clone();
    /// let k = Kernel::<(Arr<f32>,)>::new("k", move |t, (a,)| a.set(t.grid1(), l.get(t.grid1())))
    ///     .with_cuda_source(CudaKernelSource::new("__constant__ float lut[2]; /* … */", "k"))
    ///     .with_cuda_constant("lut", &lut);
    /// assert_eq!(k.function().form::<CudaKernelSource>().unwrap().constants[0].1.len(), 8);
    /// ```
    pub fn with_cuda_constant<T: bytemuck::Pod>(
        mut self,
        name: &str,
        array: &ConstArray<T>,
    ) -> Self {
        if let Some(cuda) = Arc::make_mut(&mut self.function).form_mut::<CudaKernelSource>() {
            cuda.constants
                .push((name.to_owned(), array.as_bytes().to_vec()));
        }
        self
    }

    /// Attaches the signature `#[rumba::kernel]` generated (parameter kinds and index ranks,
    /// fault sites): launches then refuse array arguments whose number of dimensions differs
    /// from the rank the kernel indexes them with, before anything runs.
    ///
    /// ```
    /// use rumba::kernel::{Arr, Kernel, KernelAbi, ParamAbi, ParamKind};
    /// static P: [ParamAbi; 1] = [ParamAbi { name: "a", kind: ParamKind::Array { rank: 2, writes: true } }];
    /// static ABI: KernelAbi = KernelAbi { name: "k", params: &P, uses_dynamic_shared: false, sites: &[] };
    /// let k = Kernel::<(Arr<f32>,)>::new("k", |_, _| {}).with_abi(&ABI);
    /// let d = rumba::device_array::<f32, _>(4, rumba::Order::C).unwrap();
    /// let err = k.configure(1, 1).launch((&d,)).unwrap_err();
    /// assert!(matches!(
    ///     err,
    ///     rumba::Error::KernelArgument {
    ///         position: 0,
    ///         problem: rumba::error::ArgumentError::Rank { found: 1, expected: 2, .. },
    ///         ..
    ///     }
    /// ), "{err}");
    /// assert!(err.to_string().contains("2 index component(s)"), "{err}");
    /// ```
    pub fn with_abi(mut self, abi: &'static KernelAbi) -> Self {
        Arc::make_mut(&mut self.function).set_abi(abi);
        self
    }

    /// The signature attached by [`with_abi`](Self::with_abi) (set for macro kernels).
    ///
    /// ```
    /// assert!(rumba::kernel::Kernel::<()>::new("k", |_, ()| {}).abi().is_none());
    /// ```
    pub fn abi(&self) -> Option<&'static KernelAbi> {
        self.function.abi()
    }

    /// Attaches OpenCL C source for an OpenCL backend (the sim keeps running the Rust body).
    ///
    /// ```
    /// use rumba::{driver::OpenClKernelSource, kernel::{Arr, Kernel}};
    /// let k = Kernel::<(Arr<f32>,)>::new("zero", |t, (a,)| a.set(t.grid1(), 0.0))
    ///     .with_opencl_source(OpenClKernelSource::new(
    ///         "__kernel void zero(__global float *a) { a[get_global_id(0)] = 0.f; }",
    ///         "zero",
    ///     ));
    /// assert_eq!(k.function().form::<OpenClKernelSource>().unwrap().entry, "zero");
    /// ```
    pub fn with_opencl_source(mut self, source: OpenClKernelSource) -> Self {
        Arc::make_mut(&mut self.function).set_form(source);
        self
    }

    /// Registers a constant array as the constant data `name` of the OpenCL source (the sim
    /// body reads the [`ConstArray`] it captured). Without OpenCL source this does nothing.
    ///
    /// ```
    /// use rumba::{driver::OpenClKernelSource, kernel::{Arr, Kernel}};
    /// let lut = rumba::const_array_like(&ndarray::arr1(&[1i32, 2, 3])).unwrap();
    /// let l = lut.clone();
    /// let k = Kernel::<(Arr<i32>,)>::new("k", move |t, (a,)| a.set(t.grid1(), l.get(t.grid1())))
    ///     .with_opencl_source(OpenClKernelSource::new("/* … */", "k"))
    ///     .with_opencl_constant("lut", &lut);
    /// let cl = k.function().form::<OpenClKernelSource>().unwrap();
    /// assert_eq!((cl.constants[0].0.as_str(), cl.constants[0].1.len()), ("lut", 12));
    /// ```
    pub fn with_opencl_constant<T: bytemuck::Pod>(
        mut self,
        name: &str,
        array: &ConstArray<T>,
    ) -> Self {
        if let Some(cl) = Arc::make_mut(&mut self.function).form_mut::<OpenClKernelSource>() {
            cl.constants
                .push((name.to_owned(), array.as_bytes().to_vec()));
        }
        self
    }

    /// The kernel's name.
    ///
    /// ```
    /// assert_eq!(rumba::kernel::Kernel::<()>::new("k", |_, ()| {}).name(), "k");
    /// ```
    pub fn name(&self) -> &str {
        &self.function.name
    }

    /// The driver-level description of the kernel: its name and every form it has.
    ///
    /// ```
    /// let k = rumba::kernel::Kernel::<()>::new("k", |_, ()| {});
    /// assert_eq!(k.function().forms(), ["Rust body"]);
    /// ```
    pub fn function(&self) -> &KernelFunction {
        &self.function
    }

    /// Numba's `kernel[grid, block]`: a launcher with this geometry, on the default stream
    /// and without dynamic shared memory until told otherwise.
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    ///
    /// #[kernel]
    /// fn ids(t: &Thread, o: &mut Arr<i32>) {
    ///     let i = t.grid1();
    ///     o[i] = i as i32;
    /// }
    ///
    /// # fn main() {
    /// let d = rumba::device_array::<i32, _>(8, rumba::Order::C).unwrap();
    /// let s = rumba::stream().unwrap();
    /// ids().configure(2, 4).stream(&s).launch((&d,)).unwrap();
    /// s.synchronize().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap().to_vec(), (0..8).collect::<Vec<_>>());
    /// # }
    /// ```
    pub fn configure(&self, grid: impl Into<Dim3>, block: impl Into<Dim3>) -> Launcher<'_, P> {
        Launcher {
            kernel: self,
            config: LaunchConfig::new(grid, block),
            stream: None,
        }
    }

    /// Launches with `config` on `stream` (`None`: the default stream — the legacy default
    /// stream, or the calling thread's per-thread one with `RUMBA_PER_THREAD_DEFAULT_STREAM=1`).
    ///
    /// # Errors
    /// [`Error::InvalidLaunch`] for a launch configuration the device cannot run (see
    /// [`LaunchConfig::validate_for`]: dynamic shared memory beyond the device's shared memory
    /// per block; on OpenCL and CUDA also the kernel's static shared memory with it — on the
    /// simulator, a static shared array that does not fit beside the dynamic memory is the
    /// kernel's fault when the array is made); [`Error::KernelArgument`] / [`Error::KernelArity`]
    /// for arguments that do not fit the kernel's signature; [`Error::CaptureRank`] /
    /// [`Error::EmptyCapture`] for a captured array that does not fit or is missing; the errors of
    /// preparing the arguments (copying host arrays in); [`Error::MissingKernelForm`] when the kernel has no
    /// form the backend runs (a closure kernel on CUDA or OpenCL); the driver's queueing errors. With
    /// host arrays the launch synchronizes and copies them back, and then also reports the kernel's own
    /// failure ([`Error::KernelFault`]); otherwise that failure comes from `stream`'s next
    /// synchronization.
    ///
    /// ```
    /// use rumba::kernel::prelude::*;
    /// use rumba::kernel::LaunchConfig;
    ///
    /// #[kernel]
    /// fn nothing(_t: &Thread) {}
    ///
    /// # fn main() {
    /// let k = nothing();
    /// k.launch(&LaunchConfig::new(4, 64), None, ()).unwrap();
    /// let err = k.launch(&LaunchConfig::new(1, 4096), None, ()).unwrap_err();
    /// assert!(matches!(err, rumba::Error::InvalidLaunch { block: [4096, 1, 1], .. }));
    /// # }
    /// ```
    pub fn launch<A: LaunchArgs<P>>(
        &self,
        config: &LaunchConfig,
        stream: Option<&Stream>,
        args: A,
    ) -> Result<()> {
        let stream = match stream {
            Some(s) => s.clone(),
            None => crate::stream::default_stream()?,
        };
        // The device's limit on shared memory per block, not the simulator's.
        config.validate_for(stream.context().shared_memory_per_block()?)?;
        // The captured arrays first: an empty cell refuses the launch before anything (a
        // transfer of a host argument) is queued. Each is the launch's own handle.
        let captured = self
            .captures
            .iter()
            .map(|c| c.take(&self.function.name, stream.context().device_id()))
            .collect::<Result<Vec<_>>>()?;
        let mut plan = Plan::new(&stream, self.transfer, self.function.abi())?;
        if stream.is_capturing() {
            // Host arguments are refused before anything is uploaded or allocated.
            plan = plan.device_only(format!("the launch of kernel '{}'", self.function.name));
        }
        args.prepare_all(&mut plan)?;
        for t in &captured {
            t.add_to(&mut plan)?;
        }
        super::graph_node::refuse_waiting_launch(&self.function.name, &plan, &stream)?;
        if plan.wait {
            // Host memory the device addresses directly: the launch waits for the kernel.
            crate::driver::callback::refuse_wait(
                &format!("the launch of kernel '{}'", self.function.name),
                "it takes host memory the device addresses directly, so its launch waits for the kernel",
            )?;
        }
        if let Some(abi) = self.function.abi() {
            check_signature(abi, &plan.args)?;
        }
        let launch = KernelLaunch {
            function: &self.function,
            grid: config.grid.to_array(),
            block: config.block.to_array(),
            dynamic_shared_bytes: config.dynamic_shared_bytes,
            args: &plan.args,
        };
        let (driver, device) = (stream.context().driver(), stream.context().device_id());
        // SAFETY: every array argument describes a live device array of this device (checked in
        // `Plan::device_array` under the plan's lease, which keeps a reset out until the kernel is
        // queued; its layout lies inside its buffer and is aligned for its element type by
        // `DeviceArray`'s invariants); the stream keeps those buffers alive until it has run the
        // kernel (`keep_alive` below).
        unsafe { driver.launch_kernel(device, &launch, stream.handle()) }?;
        if !plan.keep.is_empty() {
            // If the stream cannot take the buffers, `hold` lets them go only after the kernel
            // has run (with host-memory arguments, the launch then has not returned early).
            stream.hold(std::mem::take(&mut plan.keep))?;
        }
        // The kernel is queued: the plan's lease ends here, before the launch waits.
        let (after, wait) = (std::mem::take(&mut plan.after), plan.wait);
        drop(plan);
        // A kernel fault surfaces here, before anything is copied back: a failed launch leaves
        // the caller's host arrays as they were on every backend (a GPU reports a recorded
        // fault only when the stream is synchronized, and would otherwise copy the partial
        // results first). The copies wait for the stream anyway.
        if !after.is_empty() || wait {
            stream.synchronize()?;
        }
        for copy_back in after {
            copy_back()?;
        }
        Ok(())
    }
}

/// Checks a launch's arguments against the kernel's signature: their number, and that each array
/// parameter gets an array of the rank the kernel indexes it with.
pub(super) fn check_signature(abi: &KernelAbi, args: &[KernelArg]) -> Result<()> {
    if args.len() != abi.params.len() {
        return Err(Error::KernelArity {
            kernel: abi.name.to_owned(),
            expected: abi.params.len(),
            given: args.len(),
        });
    }
    for (position, (p, arg)) in abi.params.iter().zip(args).enumerate() {
        let rank = match p.kind {
            ParamKind::Array { rank, .. } | ParamKind::ConstArray { rank } => rank,
            ParamKind::Value => continue,
        };
        let problem = match arg {
            KernelArg::Array(a) if a.shape.len() == rank => continue,
            KernelArg::Array(a) => ArgumentError::Rank {
                found: a.shape.len(),
                expected: rank,
                shape: a.shape.clone(),
            },
            KernelArg::Scalar(_) => ArgumentError::Kind {
                expected: "an array",
            },
        };
        return Err(Error::KernelArgument {
            kernel: abi.name.to_owned(),
            position,
            parameter: Some(p.name.to_owned()),
            problem,
        });
    }
    Ok(())
}
