//! Everything a `#[rumba::kernel]` needs in scope: `use rumba::kernel::prelude::*;`.
//!
//! ```
//! use rumba::kernel::prelude::*;
//!
//! #[kernel]
//! fn axpy(t: &Thread, a: f32, x: &Arr<f32>, y: &mut Arr<f32>) {
//!     let i = t.grid1();
//!     if i < y.len() {
//!         y[i] += a * x[i];
//!     }
//! }
//!
//! fn main() {
//!     let x = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
//!     let y = rumba::to_device(&[10.0f32, 10.0, 10.0]).unwrap();
//!     axpy().configure(1, 32).launch((2.0f32, &x, &y)).unwrap();
//!     assert_eq!(y.copy_to_host().unwrap().to_vec(), [12.0, 14.0, 16.0]);
//!     assert!(axpy::OPENCL_SOURCE.contains("__kernel void axpy("));
//!     assert!(axpy::CUDA_SOURCE.contains("extern \"C\" __global__ void axpy("));
//! }
//! ```
//!
//! # The subset
//! A kernel is `fn name(t: &Thread, params…)` with parameters `&Arr<T>` (read), `&mut Arr<T>`
//! (written — *not* exclusive: every GPU thread holds it, as in CUDA), `&ConstArr<T>`, element
//! types by value and `#[rumba::record]` structs by value. The body uses `let` (with flat tuple
//! patterns and annotations), arithmetic / bitwise / comparison / logical operators, `as`,
//! `if` (also as a value), `for` over `a..b`, `a..=b`, `(a..b).step_by(k)`, `while`, `loop`,
//! `break`, `continue`, `return`, `assert!`, indexing `a[i]` / `a[(i, j)]` / `a[(i, j, k)]` with
//! compound assignment, `len()`, `size()`, `shape()[k]`, the thread context (`thread_idx`,
//! `block_idx`, `block_dim`, `grid_dim`, `grid1-3`, `gridsize1-3`, `warp_size`, `lane_id`),
//! `shared_array` / `local_array` with const shapes, `dynamic_shared`, `atomic_*`,
//! `syncthreads*`, `threadfence*`, the math methods `min max abs sqrt exp ln sin cos tan powf
//! powi floor ceil round mul_add is_nan wrapping_*`, consts by path and calls of
//! `#[rumba::device]` functions. Anything else is a compile error at its span saying what to
//! write instead.
//!
//! Integer arithmetic wraps (release-Rust semantics) on every target; integer division by zero
//! and `MIN / -1`, out-of-bounds indices and failed `assert!`s are kernel faults naming kernel,
//! block and thread. Kernels must be declared at module level.

pub use super::launch::{Arr, ConstArr};
pub use super::{Dim3, Kernel, ThreadCtx};
pub use rumba_macros::{device, kernel, record};

/// The thread context a kernel receives (an alias of [`ThreadCtx`]).
pub type Thread<'a> = ThreadCtx<'a>;
