//! The Rust form of a kernel ([`HostKernel`]) and what it receives: one launch with its
//! arguments resolved to host-addressable memory ([`HostLaunch`], [`HostArg`], [`HostArrayArg`]),
//! for engines that run kernels on the host.
//!
//! The simulator is the backend that runs this form: on the stream worker that reaches a launch,
//! it resolves every array argument to the host memory behind it and calls the form once; the
//! form runs the whole grid (the kernel layer builds it around the engine's
//! [`run_grid`](crate::driver::engine::run_grid)) and returns its outcome.
//!
//! A form has a per-thread grid function (always) and optionally a work-item-loop one (a
//! whole-block body with its regions between barriers as loops over the block's threads,
//! docs/design/kernels.md §4); the simulator chooses which one runs ([`HostEngine`]) and records
//! which did. The form also declares how it uses each array argument ([`ArrayUse`]), which lets the
//! simulator pass read-only arrays read-only and grant plain (non-atomic) access where its stream
//! scheduler proves nothing else touches the memory ([`HostArrayArg::frozen`],
//! [`HostArrayArg::claim_exclusive`]).
//!
//! This module touches nothing: it only defines data and calls the form it holds.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::KernelArrayArg;
use crate::driver::DevicePtr;
use crate::error::Result;

/// The grid function of a Rust form: called once per launch with the resolved arguments; runs
/// every thread of the grid and returns the outcome (a kernel fault, typically).
pub type HostKernelFn = Arc<dyn Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync>;

/// How a kernel uses one array argument, as its Rust form declares it
/// ([`HostKernel::with_array_uses`]). The simulator passes a [`Read`](Self::Read) argument
/// read-only (a write faults) and, when the work-item-loop form runs, may let the form use plain
/// loads and stores where no other work touches the memory ([`HostArrayArg::frozen`],
/// [`HostArrayArg::claim_exclusive`]).
///
/// ```
/// assert_eq!(rumba::driver::ArrayUse::default(), rumba::driver::ArrayUse::ReadWrite);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ArrayUse {
    /// Read and written in any way (the default for arguments not declared).
    #[default]
    ReadWrite,
    /// Only read.
    Read,
    /// Read and stored to by each GPU thread only at its own index (stores plain or compound,
    /// `y[i] = v` or `y[i] += v`; reads optional): for a 1-d array its linear index (block
    /// linear index × threads per block + thread linear index: `t.grid1()` in a 1-d launch),
    /// for a 2-d array its `(y, x)` with `(x, y) = t.grid2()`.
    OwnIndexStore,
}

/// Which engine of the simulator runs a kernel's Rust form.
///
/// ```
/// use rumba::driver::HostEngine;
/// assert_eq!(HostEngine::WorkItemLoops.to_string(), "work-item loops");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostEngine {
    /// The per-thread body, each GPU thread a coroutine switched at barriers
    /// ([`run_grid`](crate::driver::engine::run_grid)).
    Coroutines,
    /// The block body, regions between barriers as loops over the block's threads
    /// ([`run_blocks`](crate::driver::engine::wil::run_blocks)).
    WorkItemLoops,
}

impl fmt::Display for HostEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostEngine::Coroutines => "coroutines",
            HostEngine::WorkItemLoops => "work-item loops",
        })
    }
}

/// The Rust form of a kernel: code the host runs, against arguments resolved to host memory.
///
/// It has one or two grid functions: the **per-thread** one (always; run on the engine's
/// coroutines) and optionally a **work-item-loop** one (a whole-block body whose regions between
/// barriers are loops over the block's threads, docs/design/kernels.md §4), which the simulator
/// runs instead when present — unless told otherwise with [`with_engine`](Self::with_engine). Both
/// must compute the same thing; the per-thread one is the fallback and the oracle. The simulator
/// records which engine ran the last launch ([`last_engine`](Self::last_engine)) and says so in a
/// `tracing` debug event.
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
    work_item_loop: Option<HostKernelFn>,
    uses: Arc<[ArrayUse]>,
    engine: Option<HostEngine>,
    /// The engine of the last launch: 0 none yet, 1 coroutines, 2 work-item loops.
    last: Arc<AtomicU8>,
}

impl HostKernel {
    /// A Rust form whose grid function `run` runs one body per GPU thread (on the engine's
    /// coroutines, with [`run_grid`](crate::driver::engine::run_grid)).
    ///
    /// ```
    /// let k = rumba::driver::HostKernel::per_thread(|_launch| Ok(()));
    /// assert_eq!(format!("{k:?}"), "HostKernel(per-thread)"); // no work-item-loop body
    /// ```
    pub fn per_thread(run: impl Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync + 'static) -> Self {
        HostKernel {
            per_thread: Arc::new(run),
            work_item_loop: None,
            uses: Arc::new([]),
            engine: None,
            last: Arc::new(AtomicU8::new(0)),
        }
    }

    /// Adds the work-item-loop grid function `run` (built around
    /// [`run_blocks`](crate::driver::engine::wil::run_blocks)), which the simulator then runs
    /// instead of the per-thread one. Like any kernel it must not wait for other device work:
    /// while it runs, operations that conflict with its global-memory leases wait for it.
    ///
    /// ```
    /// use rumba::driver::{HostEngine, HostKernel};
    /// let k = HostKernel::per_thread(|_| Ok(())).with_work_item_loop(|_| Ok(()));
    /// assert_eq!(k.engine(), HostEngine::WorkItemLoops);
    /// ```
    pub fn with_work_item_loop(
        mut self,
        run: impl Fn(&HostLaunch<'_>) -> Result<()> + Send + Sync + 'static,
    ) -> Self {
        self.work_item_loop = Some(Arc::new(run));
        self
    }

    /// Declares how the kernel uses its arguments, by position (undeclared positions and
    /// scalars: [`ArrayUse::ReadWrite`]). Both grid functions must keep to it: the simulator
    /// passes `Read` arrays read-only and may let other work read them meanwhile.
    ///
    /// ```
    /// use rumba::driver::{ArrayUse, HostKernel};
    /// let k = HostKernel::per_thread(|_| Ok(())).with_array_uses([ArrayUse::Read, ArrayUse::OwnIndexStore]);
    /// assert_eq!((k.array_use(0), k.array_use(1), k.array_use(2)), (ArrayUse::Read, ArrayUse::OwnIndexStore, ArrayUse::ReadWrite));
    /// ```
    pub fn with_array_uses(mut self, uses: impl Into<Vec<ArrayUse>>) -> Self {
        self.uses = uses.into().into();
        self
    }

    /// Asks for an engine: [`HostEngine::Coroutines`] runs the per-thread function even when
    /// there is a work-item-loop one (for differential tests and debugging);
    /// [`HostEngine::WorkItemLoops`] is the default whenever that function exists.
    ///
    /// ```
    /// use rumba::driver::{HostEngine, HostKernel};
    /// let k = HostKernel::per_thread(|_| Ok(())).with_work_item_loop(|_| Ok(()));
    /// assert_eq!(k.with_engine(HostEngine::Coroutines).engine(), HostEngine::Coroutines);
    /// ```
    pub fn with_engine(mut self, engine: HostEngine) -> Self {
        self.engine = Some(engine);
        self
    }

    /// The engine a launch runs: work-item loops when the form has them and coroutines were
    /// not asked for, else coroutines.
    ///
    /// ```
    /// use rumba::driver::{HostEngine, HostKernel};
    /// assert_eq!(HostKernel::per_thread(|_| Ok(())).engine(), HostEngine::Coroutines);
    /// ```
    pub fn engine(&self) -> HostEngine {
        match (self.engine, &self.work_item_loop) {
            (Some(HostEngine::Coroutines), _) | (_, None) => HostEngine::Coroutines,
            (_, Some(_)) => HostEngine::WorkItemLoops,
        }
    }

    /// How the kernel uses argument `position` (see [`with_array_uses`](Self::with_array_uses)).
    ///
    /// ```
    /// let k = rumba::driver::HostKernel::per_thread(|_| Ok(()));
    /// assert_eq!(k.array_use(3), rumba::driver::ArrayUse::ReadWrite);
    /// ```
    pub fn array_use(&self, position: usize) -> ArrayUse {
        self.uses.get(position).copied().unwrap_or_default()
    }

    /// The engine that ran the last launch of this form (or of a clone of it), if any has run.
    ///
    /// ```
    /// assert_eq!(rumba::driver::HostKernel::per_thread(|_| Ok(())).last_engine(), None);
    /// ```
    pub fn last_engine(&self) -> Option<HostEngine> {
        match self.last.load(Ordering::Relaxed) {
            1 => Some(HostEngine::Coroutines),
            2 => Some(HostEngine::WorkItemLoops),
            _ => None,
        }
    }

    /// Runs one launch on `engine` (work-item loops only when the form has them, else
    /// coroutines) and records which one ran.
    ///
    /// # Errors
    /// Whatever the grid function returns: typically [`Error::KernelFault`](crate::Error::KernelFault)
    /// or, for arguments that do not match the kernel's parameters,
    /// [`Error::KernelArgument`](crate::Error::KernelArgument) and
    /// [`Error::KernelArity`](crate::Error::KernelArity) naming the kernel.
    ///
    /// ```
    /// // Only the simulator makes `HostLaunch`es; it calls `run` on its stream worker.
    /// fn run(k: &rumba::driver::HostKernel, l: &rumba::driver::HostLaunch<'_>) -> rumba::Result<()> {
    ///     k.run(k.engine(), l)
    /// }
    /// ```
    pub fn run(&self, engine: HostEngine, launch: &HostLaunch<'_>) -> Result<()> {
        let result = match (engine, &self.work_item_loop) {
            (HostEngine::WorkItemLoops, Some(wil)) => {
                self.last.store(2, Ordering::Relaxed);
                wil(launch)
            }
            _ => {
                self.last.store(1, Ordering::Relaxed);
                (self.per_thread)(launch)
            }
        };
        // Argument refusals taken by the body's accessors do not know the kernel: name it.
        result.map_err(|e| e.in_kernel(launch.name()))
    }
}

impl fmt::Debug for HostKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.work_item_loop {
            Some(_) => f.write_str("HostKernel(per-thread, work-item loops)"),
            None => f.write_str("HostKernel(per-thread)"),
        }
    }
}

/// One launch as a Rust form sees it: name, geometry and resolved arguments.
///
/// Only the simulator creates these; see [`Kernel::new`](crate::kernel::Kernel::new) for the
/// typed way to write a body.
///
/// What a form sees, recorded by a per-thread form and checked after the launch:
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use rumba::driver::{Driver, HostArg, HostKernel, KernelArg, KernelArrayArg, KernelFunction, KernelLaunch, StreamHandle};
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = Arc::clone(&seen);
/// let f = KernelFunction::new("probe").with_form(HostKernel::per_thread(move |l| {
///     let mut log = log.lock().unwrap();
///     log.push(format!("{} {:?} {:?} {}", l.name(), l.grid(), l.block(), l.dynamic_shared_bytes()));
///     for arg in l.args() {
///         match arg {
///             HostArg::Array(a) => log.push(format!(
///                 "array {:?} {:?} {} writable={} frozen={} at 0x{:x}",
///                 a.shape(), a.strides(), a.itemsize(), a.writable(), a.frozen(), a.device_ptr()
///             )),
///             HostArg::Scalar(bytes) => log.push(format!("scalar {bytes:?}")),
///         }
///     }
///     Ok(())
/// }));
/// let drv = rumba::driver::sim::SimDriver::new(&rumba::Config::default()).unwrap();
/// let ptr = drv.mem_alloc(0, 16).unwrap();
/// let args = [
///     KernelArg::Array(KernelArrayArg { ptr, itemsize: 4, shape: vec![2, 2], strides: vec![8, 4], writable: true }),
///     KernelArg::Scalar(7u16.to_ne_bytes().to_vec()),
/// ];
/// let launch = KernelLaunch { function: &f, grid: [2, 1, 1], block: [4, 1, 1], dynamic_shared_bytes: 64, args: &args };
/// // SAFETY: the array is a live 16-byte allocation that nothing else uses.
/// unsafe { drv.launch_kernel(0, &launch, StreamHandle::LEGACY) }.unwrap();
/// drv.stream_synchronize(0, StreamHandle::LEGACY).unwrap();
/// let seen = seen.lock().unwrap();
/// assert_eq!(seen[0], "probe [2, 1, 1] [4, 1, 1] 64");
/// // Written by the kernel, so never frozen; the device address it stands for is kept.
/// assert_eq!(seen[1], format!("array [2, 2] [8, 4] 4 writable=true frozen=false at 0x{ptr:x}"));
/// assert_eq!(seen[2], format!("scalar {:?}", 7u16.to_ne_bytes()));
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
    /// (See the [`HostLaunch`] example.)
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Blocks along x, y, z.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn grid(&self) -> [u32; 3] {
        self.grid
    }

    /// Threads per block along x, y, z.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn block(&self) -> [u32; 3] {
        self.block
    }

    /// Bytes of dynamic shared memory per block.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn dynamic_shared_bytes(&self) -> usize {
        self.dynamic_shared_bytes
    }

    /// The arguments, in order.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn args(&self) -> &'a [HostArg<'a>] {
        self.args
    }
}

/// A kernel argument resolved to host-addressable memory.
///
/// [`HostLaunch`]'s example matches on both kinds.
#[derive(Clone, Copy)]
pub enum HostArg<'a> {
    /// An array, resolved to host memory.
    Array(HostArrayArg<'a>),
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
/// **Obligations of a form** that uses the raw address: never write the array when
/// [`writable`](Self::writable) is false (the kernel declared it read-only, and the simulator
/// may have let other work read it with plain loads); read it with plain loads only when
/// [`frozen`](Self::frozen); read or write it with plain accesses only after
/// [`claim_exclusive`](Self::claim_exclusive) returned true, and then never touch one element
/// from two OS threads without synchronisation.
///
/// [`HostLaunch`]'s example reads one in a form.
#[derive(Clone, Copy)]
pub struct HostArrayArg<'a> {
    addr: *mut u8,
    desc: &'a KernelArrayArg,
    writable: bool,
    lease: Lease<'a>,
}

/// States of an exclusive lease's claim (see [`Lease::Exclusive`]).
pub(crate) const UNUSED: u8 = 0;
const EXCLUSIVE: u8 = 1;
const SHARED: u8 = 2;

/// What the simulator's stream scheduler guarantees about the other work touching an array
/// while the launch runs.
#[derive(Clone, Copy)]
enum Lease<'a> {
    /// Nothing beyond the type's guarantee: others may read and write it (atomically).
    Shared,
    /// Nobody writes it.
    Frozen,
    /// Nobody else reads or writes it. The state says how the form reaches it: `UNUSED`, or
    /// `EXCLUSIVE` (claimed once for plain accesses), or `SHARED` (through atomics).
    Exclusive(&'a AtomicU8),
}

impl<'a> HostArrayArg<'a> {
    /// The array `desc` describes, with element `(0, …, 0)` at host address `addr`.
    ///
    /// # Safety
    /// `addr` and `desc` must uphold the type's guarantee for `'a`.
    pub(crate) unsafe fn new(addr: *mut u8, desc: &'a KernelArrayArg) -> Self {
        HostArrayArg {
            addr,
            desc,
            writable: desc.writable,
            lease: Lease::Shared,
        }
    }

    /// The same array, which the kernel must not write (it declared the argument read-only).
    pub(crate) fn read_only(mut self) -> Self {
        self.writable = false;
        self
    }

    /// The same array, marked as written by nobody while the launch runs.
    ///
    /// # Safety
    /// Nothing may write the memory for `'a`: no other operation (the caller's scheduler
    /// guarantees it) and not this launch (the array must be [`read_only`](Self::read_only)).
    pub(crate) unsafe fn frozen_for_launch(mut self) -> Self {
        debug_assert!(!self.writable);
        self.lease = Lease::Frozen;
        self
    }

    /// The same array, marked as touched by nobody but this launch while it runs; `claim` (fresh,
    /// [`UNUSED`]) hands the exclusivity out once, to the first claimer, if nobody used the
    /// array otherwise before.
    ///
    /// # Safety
    /// Nothing outside this launch may read or write the memory for `'a`, and no other argument
    /// of the launch may address it.
    pub(crate) unsafe fn exclusive_for_launch(mut self, claim: &'a AtomicU8) -> Self {
        self.lease = Lease::Exclusive(claim);
        self
    }

    /// Host address of element `(0, …, 0)`.
    pub fn addr(&self) -> *mut u8 {
        self.addr
    }

    /// The device address `addr()` stands for (for messages: a host address means nothing to
    /// the caller).
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn device_ptr(&self) -> DevicePtr {
        self.desc.ptr
    }

    /// Elements along each axis.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn shape(&self) -> &'a [usize] {
        &self.desc.shape
    }

    /// Byte strides.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn strides(&self) -> &'a [isize] {
        &self.desc.strides
    }

    /// Bytes per element.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn itemsize(&self) -> usize {
        self.desc.itemsize
    }

    /// Whether the kernel may write it: the argument is writable and the kernel did not
    /// declare it read-only ([`ArrayUse::Read`]).
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn writable(&self) -> bool {
        self.writable
    }

    /// Whether nothing writes the array while this launch runs — no other queued or running
    /// operation and not this kernel — so it may be read with plain loads. Only ever true for a
    /// read-only argument ([`ArrayUse::Read`]) of a kernel whose work-item-loop form runs.
    ///
    /// (See the [`HostLaunch`] example.)
    pub fn frozen(&self) -> bool {
        matches!(self.lease, Lease::Frozen)
    }

    /// Claims the array for plain reads and writes by this launch: true (once per launch and
    /// argument) when nothing else reads or writes it while the launch runs, no other argument
    /// addresses it and the form has not reached it otherwise ([`use_shared`](Self::use_shared))
    /// — only for an [`ArrayUse::OwnIndexStore`] argument of a kernel whose work-item-loop form
    /// runs. The claimer must still keep two OS threads from touching one element without
    /// synchronisation, and nothing else in the form may touch the array afterwards.
    pub fn claim_exclusive(&self) -> bool {
        match self.lease {
            Lease::Exclusive(state) => state
                .compare_exchange(UNUSED, EXCLUSIVE, Ordering::AcqRel, Ordering::Acquire)
                .is_ok(),
            _ => false,
        }
    }

    /// Whether [`claim_exclusive`](Self::claim_exclusive) would succeed now (without claiming).
    pub fn exclusive(&self) -> bool {
        matches!(self.lease, Lease::Exclusive(state) if state.load(Ordering::Acquire) == UNUSED)
    }

    /// Records that the form reaches the array the ordinary way (atomics, or plain loads when
    /// [`frozen`](Self::frozen)); false when it was [claimed](Self::claim_exclusive) for plain
    /// accesses, and must then be left alone. Every accessor made from a `HostArrayArg` calls this
    /// first.
    pub fn use_shared(&self) -> bool {
        match self.lease {
            Lease::Exclusive(state) => {
                match state.compare_exchange(UNUSED, SHARED, Ordering::AcqRel, Ordering::Acquire) {
                    Ok(_) => true,
                    Err(now) => now == SHARED,
                }
            }
            _ => true,
        }
    }
}
