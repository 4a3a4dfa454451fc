//! Kernels end to end: define a kernel with typed parameters, launch it on a stream with device
//! arrays, host arrays and scalars, and read constant memory — the launch API of
//! `docs/design/behaviour.md` §5 on top of the kernel engine
//! ([`driver::engine`](crate::driver::engine)).
//!
//! | file | concept |
//! |---|---|
//! | `params` | [`Param`] / [`Params`]: what a kernel takes ([`Arr<T>`], numbers, [`Scalar<R>`]) and what its body sees |
//! | `args` | [`LaunchArg`] / [`LaunchArgs`]: what a caller may pass, turned into raw driver arguments |
//! | `transfer` | [`In`], [`Out`], [`InOut`], the per-kernel [`HostTransfer`] policy: automatic transfers of host arrays, and [`auto_transfers`] |
//! | `capture` | [`Captured`]: `static` cells of device arrays that kernels capture (Numba's global device arrays) |
//! | `constant` | [`const_array_like`], [`ConstArray`], [`ConstView`]: read-only constant memory |
//! | `kernel` | [`Kernel`] and [`Launcher`]: definition and launch |
//!
//! A launch is one [`Driver::launch_kernel`](crate::driver::Driver::launch_kernel) on a stream:
//! asynchronous, ordered with the stream's other work, and failing — on a kernel fault — at the
//! stream's next synchronization, after which the stream and the runtime work normally. The
//! stream keeps the device arrays a queued kernel uses alive until it has run.
//!
//! ```
//! use rumba::kernel::prelude::*;
//!
//! /// Numba's `cuda.grid(1)` + shared memory + a barrier: reverse each block of 4.
//! #[kernel]
//! fn rev(t: &Thread, a: &mut Arr<i32>) {
//!     let s = t.shared_array::<i32>(4);
//!     let (i, tx) = (t.grid1(), t.thread_idx().x as usize);
//!     s[tx] = a[i];
//!     t.syncthreads();
//!     a[i] = s[3 - tx];
//! }
//!
//! /// Stores at every thread's index, with no bounds test of its own.
//! #[kernel]
//! fn oob(t: &Thread, a: &mut Arr<i32>) {
//!     a[t.grid1()] = 0;
//! }
//!
//! # fn main() {
//! let d = rumba::to_device(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
//! rev().configure(2, 4).launch((&d,)).unwrap();
//! assert_eq!(d.copy_to_host().unwrap().to_vec(), [4, 3, 2, 1, 8, 7, 6, 5]);
//!
//! // An out-of-bounds index: the store is skipped, and the fault is reported at the next
//! // synchronization (on the simulator and OpenCL; the CUDA backend skips the store but does
//! // not read the fault back yet).
//! oob().configure(1, 16).launch((&d,)).unwrap();
//! let synced = rumba::legacy_default_stream().unwrap().synchronize();
//! if rumba::backend().unwrap() != rumba::driver::BackendKind::Cuda {
//!     let err = synced.unwrap_err().to_string();
//!     assert!(err.contains("kernel 'oob' faulted in block (0, 0, 0) thread ("), "{err}");
//! }
//! # }
//! ```
//!
//! This module touches the driver (launches), streams and device arrays; the simulator runs a
//! kernel's Rust body with the engine under [`driver::engine`](crate::driver::engine).

mod args;
mod capture;
mod constant;
mod direct;
mod elements;
mod graph_node;
mod kernel;
mod launcher;
mod params;
mod transfer;

pub use args::{LaunchArg, LaunchArgs};
pub use capture::{CaptureRef, Captured};
pub use constant::{ConstArray, ConstView, const_array_like};
pub use direct::{Cai, CaiNoSync};
pub use elements::{DeviceBool, KernelElement};
pub use kernel::Kernel;
pub use launcher::Launcher;
pub use params::{Arr, ConstArr, Param, Params, Scalar};
pub use transfer::{AutoTransfers, HostTransfer, In, InOut, Out, auto_transfers};
