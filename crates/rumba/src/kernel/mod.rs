//! The kernel executor of the simulated GPU: grids of blocks of GPU threads with real barriers,
//! shared and local memory, atomics and fault capture.
//!
//! The engine is self-contained: it takes a kernel body (a closure run once per GPU thread with
//! a [`ThreadCtx`]) and memory described as raw regions ([`GlobalView`]); it knows nothing of
//! devices, allocations or streams. The launch API ([`launch`]: [`Kernel`], [`const_array_like`],
//! [`In`] / [`Out`] / [`InOut`]) wires device arrays, host arrays and streams into it through the
//! driver's [`launch_kernel`](crate::driver::Driver::launch_kernel).
//!
//! Blocks run in parallel on rayon's pool; the threads of a block run as stackful coroutines on
//! pooled stacks, switched at each barrier, with a plain-loop fast path for blocks that never
//! synchronise ([`exec`]). Memory is reached only through bounds-checked [`View`]s whose element
//! accesses are relaxed atomics ([`access`]), so racing threads are defined behaviour.
//!
//! What the engine touches: rayon's global thread pool, per-worker resources (stacks, shared and
//! local memory arenas) kept in thread-locals, and the memory behind the views a kernel captures
//! — nothing from the driver, memory-manager, array or stream layers; only [`launch`] reaches
//! those.
//!
//! | file | concept |
//! |---|---|
//! | `dim` | [`Dim3`], [`LaunchConfig`] and device limits |
//! | [`exec`] | [`run_grid`]: block scheduling, fast path, fault choice |
//! | `coro` | coroutines on pooled stacks |
//! | `barrier` | barrier arrivals, values and divergence |
//! | `thread_ctx` | [`ThreadCtx`], the in-kernel API |
//! | `shared`, `local` | shared and local memory arenas |
//! | `shape` | [`Dims`], [`NdIndex`], [`Slice`]: layout arithmetic |
//! | `view` | [`View`]: n-d, bounds-checked element access |
//! | [`access`] | sound racy element loads and stores |
//! | [`atomics`] | atomic read-modify-write |
//! | `fault` | unwinding payloads and [`Error::KernelFault`](crate::Error::KernelFault) |
//! | [`launch`] | [`Kernel`]: typed definition and launch on a stream, arguments, transfers, constants |
//! | [`prelude`] | what `#[rumba::kernel]` code imports; the kernel subset |
//! | `__macro` | run-time support of the generated code (hidden) |
//!
//! A tiled kernel with shared memory and barriers:
//!
//! ```
//! use rumba::kernel::{run_grid, GlobalView, LaunchConfig};
//!
//! // Sum 1024 numbers per block with a shared-memory tree reduction.
//! let x: Vec<u64> = (0..4096).collect();
//! let mut partial = vec![0u64; 4];
//! let (xv, pv) = (GlobalView::from_slice(&x), GlobalView::from_slice_mut(&mut partial));
//! run_grid("reduce", &LaunchConfig::new(4, 1024), |t| {
//!     let s = t.shared_array::<u64>(1024);
//!     let i = t.thread_idx().x as usize;
//!     s.set(i, xv.get(t.grid1()));
//!     t.syncthreads();
//!     let mut stride = 512;
//!     while stride > 0 {
//!         if i < stride {
//!             s.set(i, s.get(i) + s.get(i + stride));
//!         }
//!         t.syncthreads();
//!         stride /= 2;
//!     }
//!     if i == 0 {
//!         pv.set(t.block_idx().x as usize, s.get(0));
//!     }
//! })
//! .unwrap();
//! assert_eq!(partial.iter().sum::<u64>(), 4095 * 4096 / 2);
//! ```

pub mod access;
pub mod atomics;
mod barrier;
mod buf;
mod coro;
mod dim;
pub mod exec;
mod fault;
pub mod launch;
mod local;
#[doc(hidden)]
#[path = "macro_support.rs"]
pub mod __macro;
pub mod prelude;
/// `#[rumba::kernel::record]`: a struct kernels take by value (see [`prelude`]).
pub use rumba_macros::record;
mod shape;
mod shared;
mod thread_ctx;
mod view;

pub use atomics::{AtomicInteger, AtomicValue};
pub use coro::COROUTINE_STACK_SIZE;
pub use dim::{
    Dim3, LaunchConfig, MAX_BLOCK_DIM, MAX_GRID_DIM, MAX_THREADS_PER_BLOCK,
    SHARED_MEMORY_PER_BLOCK, WARP_SIZE,
};
pub use exec::{ExecOptions, run_grid, run_grid_with};
pub use launch::{
    Arr, AutoTransfers, ConstArr, ConstArray, ConstView, In, InOut, Kernel, LaunchArg, LaunchArgs,
    Launcher, Out, Param, Params, Scalar, auto_transfers, const_array_like,
};
pub use rumba_kernel_ir::abi::{FaultInfo, KernelAbi, ParamAbi, ParamKind};
pub use local::LOCAL_MEMORY_PER_THREAD;
pub use shape::{Dims, IntoShape, MAX_DIMS, NdIndex, Slice};
pub use thread_ctx::{Predicate, ThreadCtx};
pub use view::{
    AtomicSpace, Const, Global, GlobalView, Local, LocalArray, MemorySpace, Shared, SharedArray,
    View,
};
