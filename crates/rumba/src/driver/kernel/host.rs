//! The Rust form of a kernel ([`HostKernel`]) and what it receives: one launch with its
//! arguments resolved to host-addressable memory ([`HostLaunch`], [`HostArg`], [`HostArray`]),
//! for engines that run kernels on the host.
//!
//! The simulator is the backend that runs this form: on the stream worker that reaches a launch,
//! it resolves every array argument to the host memory behind it and calls the form once; the
//! form runs the whole grid (the kernel layer builds it around the engine's
//! [`run_grid`](crate::driver::engine::run_grid)) and returns its outcome.
//!
//! Room to grow: the per-thread body is the one Rust form today. The work-item-loop form (a
//! whole-block body with its regions between barriers as loops over the block's threads,
//! KERNELS.md §4) joins it as a second, optional grid function of the same [`HostKernel`], the
//! simulator choosing which one runs and saying which did.
//!
//! This module touches nothing: it only defines data and calls the form it holds.

use std::fmt;
use std::sync::Arc;

use super::KernelArrayArg;
use crate::driver::DevicePtr;
use crate::error::Result;

/// The grid function of a Rust form: called once per launch with the resolved arguments; runs
/// every thread of the grid and returns the outcome (a kernel fault, typically).
pub type HostKernelFn = Arc<dyn Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync>;

/// The Rust form of a kernel: code the host runs, against arguments resolved to host memory.
///
/// Built by [`Kernel::new`](crate::kernel::Kernel::new) from a typed per-thread body; run by the
/// simulator. Cloning shares the code.
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use std::sync::Arc;
/// use rumba::driver::{Driver, HostKernel, KernelFunction, KernelLaunch, StreamHandle};
/// let seen = Arc::new(AtomicU32::new(0));
/// let s = Arc::clone(&seen);
/// let f = KernelFunction::new("probe").with_form(HostKernel::per_thread(move |launch| {
///     s.store(launch.grid()[0] * launch.block()[0], Ordering::Relaxed);
///     Ok(())
/// }));
/// let launch = KernelLaunch { function: &f, grid: [3, 1, 1], block: [8, 1, 1], dynamic_shared_bytes: 0, args: &[] };
/// let drv = rumba::driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
/// // SAFETY: no arguments, so no memory is touched.
/// unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// assert_eq!(seen.load(Ordering::Relaxed), 24);
/// ```
#[derive(Clone)]
pub struct HostKernel {
    per_thread: HostKernelFn,
}

impl HostKernel {
    /// A Rust form whose grid function `run` runs one body per GPU thread (on the engine's
    /// coroutines, with [`run_grid`](crate::driver::engine::run_grid)).
    ///
    /// ```
    /// let k = rumba::driver::HostKernel::per_thread(|_launch| Ok(()));
    /// # let _ = k;
    /// ```
    pub fn per_thread(run: impl Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync + 'static) -> Self {
        HostKernel {
            per_thread: Arc::new(run),
        }
    }

    /// Runs one launch: calls the grid function with the resolved arguments.
    ///
    /// # Errors
    /// Whatever the grid function returns: typically [`Error::KernelFault`](crate::Error::KernelFault)
    /// or, for arguments that do not match the kernel's parameters,
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument).
    ///
    /// ```
    /// // Only the simulator makes `HostLaunch`es; it calls `run` on its stream worker.
    /// fn run(k: &rumba::driver::HostKernel, l: &rumba::driver::HostLaunch<'_>) -> rumba::Result<()> {
    ///     k.run(l)
    /// }
    /// ```
    pub fn run(&self, launch: &HostLaunch<'_>) -> Result<()> {
        (self.per_thread)(launch)
    }
}

impl fmt::Debug for HostKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HostKernel(per-thread)")
    }
}

/// One launch as a Rust form sees it: name, geometry and resolved arguments.
///
/// Only the simulator creates these; see [`Kernel::new`](crate::kernel::Kernel::new) for the
/// typed way to write a body.
///
/// ```
/// use rumba::driver::HostLaunch;
/// fn grid_of(l: &HostLaunch<'_>) -> [u32; 3] { l.grid() }
/// ```
pub struct HostLaunch<'a> {
    name: &'a str,
    grid: [u32; 3],
    block: [u32; 3],
    dynamic_shared_bytes: usize,
    args: &'a [HostArg<'a>],
}

impl<'a> HostLaunch<'a> {
    /// A launch of kernel `name` with resolved `args`.
    pub(crate) fn new(
        name: &'a str,
        grid: [u32; 3],
        block: [u32; 3],
        dynamic_shared_bytes: usize,
        args: &'a [HostArg<'a>],
    ) -> Self {
        HostLaunch {
            name,
            grid,
            block,
            dynamic_shared_bytes,
            args,
        }
    }

    /// The kernel's name.
    ///
    /// ```
    /// fn name<'a>(l: &'a rumba::driver::HostLaunch<'a>) -> &'a str { l.name() }
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Blocks along x, y, z.
    ///
    /// ```
    /// fn g(l: &rumba::driver::HostLaunch<'_>) -> u32 { l.grid()[0] }
    /// ```
    pub fn grid(&self) -> [u32; 3] {
        self.grid
    }

    /// Threads per block along x, y, z.
    ///
    /// ```
    /// fn b(l: &rumba::driver::HostLaunch<'_>) -> u32 { l.block()[0] }
    /// ```
    pub fn block(&self) -> [u32; 3] {
        self.block
    }

    /// Bytes of dynamic shared memory per block.
    ///
    /// ```
    /// fn d(l: &rumba::driver::HostLaunch<'_>) -> usize { l.dynamic_shared_bytes() }
    /// ```
    pub fn dynamic_shared_bytes(&self) -> usize {
        self.dynamic_shared_bytes
    }

    /// The arguments, in order.
    ///
    /// ```
    /// fn n(l: &rumba::driver::HostLaunch<'_>) -> usize { l.args().len() }
    /// ```
    pub fn args(&self) -> &'a [HostArg<'a>] {
        self.args
    }
}

/// A kernel argument resolved to host-addressable memory.
///
/// ```
/// use rumba::driver::HostArg;
/// fn is_array(a: &HostArg<'_>) -> bool { matches!(a, HostArg::Array(_)) }
/// ```
#[derive(Clone, Copy)]
pub enum HostArg<'a> {
    /// An array, resolved to host memory.
    Array(HostArray<'a>),
    /// A scalar's native-endian bytes.
    Scalar(&'a [u8]),
}

/// An array argument resolved to the host memory behind it.
///
/// **Guarantee** (upheld by the simulator, the only place these are made): every element the
/// layout addresses — `addr() + Σ i_k·strides()[k]` for in-bounds indices, `itemsize()` bytes
/// each — lies inside one live allocation that stays alive for `'a`, is writable memory reached
/// with write permission, and is accessed by everyone else only through atomics (the sim's byte
/// movers and kernel views). `addr()` is aligned as the launch layer arranged. For size 0,
/// `addr()` is a dangling pointer aligned to 64 bytes.
///
/// ```
/// fn size(a: &rumba::driver::HostArray<'_>) -> usize { a.shape().iter().product() }
/// ```
#[derive(Clone, Copy)]
pub struct HostArray<'a> {
    addr: *mut u8,
    desc: &'a KernelArrayArg,
}

impl<'a> HostArray<'a> {
    /// The array `desc` describes, with element `(0, …, 0)` at host address `addr`.
    ///
    /// # Safety
    /// `addr` and `desc` must uphold the type's guarantee for `'a`.
    pub(crate) unsafe fn new(addr: *mut u8, desc: &'a KernelArrayArg) -> Self {
        HostArray { addr, desc }
    }

    /// Host address of element `(0, …, 0)`.
    ///
    /// ```
    /// fn p(a: &rumba::driver::HostArray<'_>) -> *mut u8 { a.addr() }
    /// ```
    pub fn addr(&self) -> *mut u8 {
        self.addr
    }

    /// The device address `addr()` stands for (for messages: a host address means nothing to
    /// the caller).
    ///
    /// ```
    /// fn d(a: &rumba::driver::HostArray<'_>) -> u64 { a.device_ptr() }
    /// ```
    pub fn device_ptr(&self) -> DevicePtr {
        self.desc.ptr
    }

    /// Elements along each axis.
    ///
    /// ```
    /// fn s<'a>(a: &rumba::driver::HostArray<'a>) -> &'a [usize] { a.shape() }
    /// ```
    pub fn shape(&self) -> &'a [usize] {
        &self.desc.shape
    }

    /// Byte strides.
    ///
    /// ```
    /// fn s<'a>(a: &rumba::driver::HostArray<'a>) -> &'a [isize] { a.strides() }
    /// ```
    pub fn strides(&self) -> &'a [isize] {
        &self.desc.strides
    }

    /// Bytes per element.
    ///
    /// ```
    /// fn s(a: &rumba::driver::HostArray<'_>) -> usize { a.itemsize() }
    /// ```
    pub fn itemsize(&self) -> usize {
        self.desc.itemsize
    }

    /// Whether the kernel may write it.
    ///
    /// ```
    /// fn w(a: &rumba::driver::HostArray<'_>) -> bool { a.writable() }
    /// ```
    pub fn writable(&self) -> bool {
        self.desc.writable
    }
}
