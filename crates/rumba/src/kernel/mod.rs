//! The user-facing kernel API: define a kernel with typed parameters, launch it on a
//! stream, and write its body against the in-kernel types.
//!
//! A kernel is one backend-neutral [`KernelFunction`](crate::driver::KernelFunction) handed to
//! the driver's [`launch_kernel`](crate::driver::Driver::launch_kernel); each backend takes the
//! form it runs from it, and nothing here names a backend. The launch API ([`launch`]:
//! [`Kernel`], [`const_array_like`], [`In`] / [`Out`] / [`InOut`]) wires device arrays, host
//! arrays and streams into that call.
//!
//! The types a Rust kernel body is written against — [`ThreadCtx`], the views ([`GlobalView`],
//! [`SharedArray`], [`LocalArray`], …), [`Dim3`], [`LaunchConfig`], atomics, and [`run_grid`] to
//! run a body directly on host memory — belong to the host kernel engine, which lives with the
//! simulator ([`driver::engine`](crate::driver::engine)); they are re-exported here so a kernel
//! author needs only `rumba::kernel`.
//!
//! | item | concept |
//! |---|---|
//! | [`launch`] | [`Kernel`]: typed definition and launch on a stream, arguments, transfers, constants |
//! | re-exported from the engine | [`ThreadCtx`], views, [`Dim3`] / [`LaunchConfig`] and limits, [`run_grid`] / [`ExecOptions`], [`access`], [`atomics`], [`exec`], the work-item-loop engine [`wil`], the kernels' [`math`] library |
//! | [`prelude`] | what `#[rumba::kernel]` code imports; the kernel subset |
//! | [`Number`], [`Int`], [`SignedInt`], [`UnsignedInt`], [`Float`] | the bounds of generic kernels and device functions |
//! | `__macro` | run-time support of the generated code (hidden) |
//!
//! A tiled kernel with shared memory and barriers, run directly on host memory:
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
//!
//! This module touches the driver (launches), streams and device arrays; the in-kernel types
//! touch only the memory their views describe.

#[doc(hidden)]
#[path = "macro_support.rs"]
pub mod __macro;
pub mod launch;
mod numeric;
pub mod prelude;
/// `#[rumba::kernel::record]`: a struct kernels take by value (see [`prelude`]).
pub use rumba_macros::record;

pub use crate::driver::engine::{
    AtomicInteger, AtomicSpace, AtomicValue, CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE,
    COROUTINE_STACK_SIZE, Const, Dim3, Dims, ExecOptions, FULL_MASK, Global, GlobalView, IntoShape,
    LOCAL_MEMORY_PER_THREAD, LaunchConfig, Local, LocalArray, MAX_BLOCK_DIM, MAX_DIMS,
    MAX_GRID_DIM, MAX_THREADS_PER_BLOCK, MemorySpace, NdIndex, Predicate, SHARED_MEMORY_PER_BLOCK,
    STACK_MARGIN, STACK_RESERVE, Shared, SharedArray, Slice, SliceArg, ThreadCtx, View, WARP_SIZE,
    WarpValue, access, atomics, check_stack, exec, math, run_grid, run_grid_with, wil,
};
/// The half-precision element type of kernels (`half::f16`, IEEE binary16). Kernels compute
/// each `f16` operation in `f32` and round the result to nearest even (what `half` does, and
/// what CUDA's `__hadd` / `__hsub` / `__hmul` give); see the [prelude] for the rules.
pub use half::f16;
pub use launch::{
    Arr, AutoTransfers, Cai, CaiNoSync, CaptureRef, Captured, ConstArr, ConstArray, ConstView,
    DeviceBool, HostTransfer, In, InOut, Kernel, KernelElement, LaunchArg, LaunchArgs, Launcher,
    Out, Param, Params, Scalar, auto_transfers, const_array_like,
};
/// The complex element type of kernels (`Complex<f32>`, `Complex<f64>`): num-complex's, whose
/// `repr(C)` layout (re, then im) the CUDA C and OpenCL C forms share.
pub use num_complex::Complex;
pub use numeric::{Float, Int, Number, SignedInt, UnsignedInt};
pub use rumba_kernel_ir::abi::{FaultInfo, KernelAbi, ParamAbi, ParamKind};
