//! The kernel engine of the simulated GPU: grids of blocks of GPU threads with real barriers,
//! shared and local memory, atomics and fault capture.
//!
//! The engine is self-contained: it takes a kernel body (a closure run once per GPU thread with
//! a [`ThreadCtx`]) and memory described as raw regions ([`GlobalView`]); it knows nothing of
//! devices, allocations or streams. It is the host engine that runs the Rust form of a kernel
//! ([`HostKernel`](crate::driver::HostKernel)): the kernel layer wraps a typed body into that
//! form with [`run_grid`], and the simulator calls it on a stream worker with the launch's
//! arguments resolved to host memory. The types a Rust body is written against ([`ThreadCtx`],
//! the views, [`Dim3`], [`LaunchConfig`], …) live here because the engine defines them; users
//! reach them as `rumba::kernel::…`, which re-exports them.
//!
//! Blocks run in parallel on the calling thread and a rayon pool of block helpers; the threads of
//! a block run as stackful coroutines on pooled stacks, switched at each barrier, with a
//! plain-loop fast path for blocks that never synchronise ([`exec`]). A kernel may also come as a
//! whole-block body in work-item-loop form, which the second engine, [`wil`], runs without
//! coroutines (docs/design/kernels.md §4). Memory is
//! reached only through bounds-checked [`View`]s whose element accesses are relaxed atomics
//! ([`access`]), so racing threads are defined behaviour.
//!
//! What the engine touches: the block helpers' thread pool, per-worker resources (stacks, shared
//! and local memory arenas) kept in thread-locals, and the memory behind the views a kernel
//! captures — nothing from the simulator's address spaces or streams, nor from any layer above
//! the driver.
//!
//! | file | concept |
//! |---|---|
//! | `dim` | [`Dim3`], [`LaunchConfig`] and device limits |
//! | [`exec`] | [`run_grid`]: block scheduling, fast path, fault choice |
//! | `coro` | coroutines on pooled stacks |
//! | `barrier` | barrier arrivals, values and divergence |
//! | `warp` | warp operations: `syncwarp`, votes, shuffles, `activemask` |
//! | `thread_ctx` | [`ThreadCtx`], the in-kernel API |
//! | `thread_warp` | its warp-level methods; [`WarpValue`] |
//! | `shared`, `local` | shared and local memory arenas |
//! | `stack` | stack checks: running out of stack is a fault, not a crash |
//! | `overflow` | an unchecked overflow names kernel, block and thread before the process aborts |
//! | `buf` | zeroed, aligned raw buffers behind the arenas |
//! | `shape` | [`Dims`], [`NdIndex`], [`Slice`], [`SliceArg`]: layout arithmetic |
//! | `view` | [`View`]: n-d, bounds-checked element access |
//! | [`access`] | sound racy element loads and stores |
//! | [`atomics`] | atomic read-modify-write |
//! | `fault` | unwinding payloads and [`Error::KernelFault`](crate::Error::KernelFault) |
//! | [`math`] | the math library of kernels (libm, not the host's C library) and its accuracy |
//! | [`wil`] | the work-item-loop engine: whole-block bodies, regions as loops over the threads |
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
pub(crate) mod helpers;
mod local;
pub mod math;
mod overflow;
mod shape;
mod shared;
mod stack;
mod thread_ctx;
mod thread_warp;
mod view;
mod warp;
pub mod wil;

pub use atomics::{AtomicInteger, AtomicValue};
pub use coro::COROUTINE_STACK_SIZE;
pub use dim::{
    Dim3, LaunchConfig, MAX_BLOCK_DIM, MAX_GRID_DIM, MAX_THREADS_PER_BLOCK,
    SHARED_MEMORY_PER_BLOCK, WARP_SIZE,
};
pub use exec::{ExecOptions, run_grid, run_grid_with};
pub use local::LOCAL_MEMORY_PER_THREAD;
pub use shape::{Dims, IntoShape, MAX_DIMS, NdIndex, Slice, SliceArg};
pub use stack::{STACK_MARGIN, STACK_RESERVE, check_stack};
pub use thread_ctx::{CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, Predicate, ThreadCtx};
pub use thread_warp::{FULL_MASK, WarpValue};
pub use view::{
    AtomicSpace, Const, Global, GlobalView, Local, LocalArray, MemorySpace, Shared, SharedArray,
    View,
};
