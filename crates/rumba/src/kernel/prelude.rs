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
//! A kernel is `fn name(t: &Thread, params…)` — generic over element types bounded by rumba's
//! numeric traits and over const sizes if it likes (see below) — with parameters `&Arr<T>`
//! (read), `&mut Arr<T>` (written — *not* exclusive: every GPU thread holds it, as in CUDA),
//! `&ConstArr<T>`, element types by value and `#[rumba::record]` structs by value. Element
//! types are the integers,
//! `f32`, `f64`, `bool` and `Complex<f32>` / `Complex<f64>` (num-complex's, re-exported here):
//! complex values are made with `Complex::new(re, im)`, read with `.re` / `.im`, and take
//! `+ - * /`, unary `-`, `==` and `!=` (with num-complex's formulas on every target, so the
//! results agree bit for bit) and the complex math methods below; they have no atomics or
//! casts. A `bool` array
//! element (argument, shared or local) is one byte: read as `byte != 0`, stored as 0 or 1 (the
//! simulator's views hold [`DeviceBool`](crate::kernel::DeviceBool), CUDA C and OpenCL C an
//! `unsigned char` / `uchar`), so host arrays of `bool` only ever hold valid values;
//! `&ConstArr<bool>` is not supported. `f16` (`half::f16`, re-exported here) is an element of
//! arrays (argument, shared, local), a scalar parameter and a local: it takes `+ - * / %`,
//! comparisons, unary `-`, `min`, `max`, `is_nan`, the constants `f16::ZERO`, `ONE`, `MAX`, …,
//! and converts with `f16::from_f32` / `f16::from_f64` and `.to_f32()` / `.to_f64()` (it has no
//! literals, no `as` and no other math: compute in `f32`). Each operation is computed in `f32`
//! and rounded to the nearest `f16`, ties to even, on every target (so `+ - * /` are correctly
//! rounded and agree bit for bit): the simulator through `half`, CUDA C with the PTX conversions
//! cuda_fp16.h uses, OpenCL C (which has no `half` arithmetic without `cl_khr_fp16`) on `float`s
//! rounded by `vstore_half` / `vload_half` after every operation. `f16` has no atomics and is not
//! a record field type. The body uses `let` (with flat tuple
//! patterns and annotations), arithmetic / bitwise / comparison / logical operators, `as`,
//! `if` (also as a value), `for` over `a..b`, `a..=b`, `(a..b).step_by(k)`, `while`, `loop`,
//! `break`, `continue`, `return`, `assert!`, indexing `a[i]` / `a[(i, j)]` / … (arrays have 0
//! to 6 dimensions everywhere an array is; a 0-d array's element is `x[()]`) with compound
//! assignment, `len()`, `size()`, `shape()[k]`, the thread context (`thread_idx`,
//! `block_idx`, `block_dim`, `grid_dim`, `grid1-3`, `gridsize1-3`, `warp_size`, `lane_id`),
//! `shared_array` / `local_array` with const shapes, `dynamic_shared`, `atomic_*`,
//! `syncthreads*`, `threadfence*`, the warp operations (below), the math methods (below),
//! consts by path, tuples (`(a, b)`, `p.0`),
//! records (literals, field reads and assignments, below), in-kernel views and slices (below)
//! and calls of `#[rumba::device]` functions, which take arrays and tuples too (below).
//! Anything else is a compile error at its span saying what to write instead.
//!
//! What is still outside the subset, each refused at compile time (or, where the subset cannot
//! see it, by rustc at the same span):
//! - closures, `match`, `?`, `if let` / `while let`, labelled `break` / `continue`, iterators
//!   other than integer ranges, macros other than `assert!`, items and `static`s declared inside
//!   a kernel (use module-level consts, `#[rumba::device]` functions and captures), references
//!   other than array parameters, raw pointers and the heap;
//! - recursion: a device function calling itself is refused; mutual recursion through device
//!   functions runs on the simulator only (a stack overflow there is a kernel fault) — OpenCL C
//!   refuses it and it does not compile as CUDA C;
//! - in a device function: barriers, warp operations and shared-memory declarations (the kernel
//!   does those and passes the arrays), captures of its own (the kernel passes them), const
//!   generic parameters;
//! - bounds other than rumba's numeric traits, and more than 64 instances of one generic
//!   function; a literal passed to a device function keeps Rust's default type (`8usize`);
//! - arrays of more than 6 dimensions, arrays of tuples, `Dim3` or records inside records; a
//!   view chained inline (`a.reshape(…).row(i)`: bind each to a name) or a range inside an index
//!   (`a[1..3]`: slice it); `NewAxis`, integer-array and boolean indexing;
//! - record fields of `bool`, complex, record or multi-dimensional array type; a sub-array field
//!   given by an array literal; a field's value used where nothing fixes its type (annotate);
//! - `f16` arithmetic beyond `+ - * / %`, comparisons, `min`, `max`, `is_nan`; on complex
//!   numbers `log10`, `powf`, the inverse trigonometric and hyperbolic functions and
//!   `from_polar` / `to_polar` (see *Math* below).
//!
//! # Math
//! The math methods are Numba's `math` list for `f32` and `f64` with Rust's names: `sqrt cbrt
//! exp exp2 exp_m1 ln log2 log10 ln_1p powf powi sin cos tan asin acos atan atan2 sinh cosh tanh
//! asinh acosh atanh hypot erf erfc gamma ln_gamma floor ceil trunc round fract abs signum
//! copysign recip min max mul_add ldexp remainder frexp modf to_degrees to_radians is_nan
//! is_infinite is_finite`, and `%` (C's `fmod`); Numba's names without a Rust one keep Numba's (`erf`,
//! `gamma`, …). CUDA's integer intrinsics are `count_ones` (`popc`), `leading_zeros` (`clz`),
//! `trailing_zeros`, `ffs`, `reverse_bits` (`brev`), `swap_bytes`, `rotate_left` /
//! `rotate_right` (funnel shifts) on every integer type, `mul_hi` (`__mulhi` and friends) on 32-
//! and 64-bit ones, `sad` on `i32` / `u32`, `byte_perm` on `u32`, plus `min max abs
//! wrapping_*`. `+ - * /`, `sqrt`, `mul_add`, conversions and the exact functions agree bit for
//! bit on every target; the others are within the bounds [`math`](crate::kernel::math) lists
//! per function and target. On the simulator they come from the `libm` crate, not the host's C
//! library, so results do not depend on the machine. A math method on a type it is not defined
//! for is a compile error (`erf` on an `i32`, `mul_hi` on a `u8`). Complex numbers take
//! Numba's `cmath` with num-complex's names: `exp ln sqrt sin cos tan sinh cosh tanh`, `norm`
//! (`abs`) and `arg` (`phase`, both of the part type), `conj`, `is_nan is_infinite is_finite`
//! (one set of formulas on every target, see
//! [`ComplexMath`](crate::kernel::math::ComplexMath)). `frexp` and `modf` give tuples, bound
//! with `let (m, e) = x.frexp();` / `let (frac, int) = x.modf();` (exact everywhere). Still
//! outside the subset: `log10`, `powf`, the inverse trigonometric and hyperbolic functions and
//! `from_polar` / `to_polar` on complex numbers (write `Complex::new(r * t.cos(), r *
//! t.sin())`, `z.norm()`, `z.arg()`).
//!
//! `#[rumba::kernel(fastmath)]` is Numba's `fastmath=True`: CUDA compiles the kernel with
//! NVRTC's `--use_fast_math` (approximate `/`, `sqrt`, `sin`, `exp`, … — `div.approx`,
//! `sin.approx` in the PTX — flush-to-zero, contraction into FMAs), OpenCL builds it with
//! `-cl-fast-relaxed-math` (the generated source keeps `FP_CONTRACT OFF`), and the simulator
//! computes exactly as without it: its results are the IEEE ones, within every fast bound. The
//! bit-for-bit promises above then hold between the simulator and kernels without the option
//! only; `name::FASTMATH` says which a kernel is.
//!
//! # Generic kernels and device functions
//! A kernel or device function may take type parameters bounded by rumba's numeric traits —
//! [`Number`] (the integers, `f32`, `f64`), [`Int`],
//! [`SignedInt`], [`UnsignedInt`],
//! [`Float`] (`f32`, `f64`), and the atomics' `AtomicValue` /
//! `AtomicInteger` (several bounds admit what all of them admit) — and a kernel may take const
//! parameters of integer type (`const TPB: usize`), usable wherever a const item is (shared and
//! local array shapes among them):
//!
//! ```
//! use rumba::kernel::prelude::*;
//!
//! #[kernel]
//! fn axpy<T: Float>(t: &Thread, a: T, x: &Arr<T>, y: &mut Arr<T>) {
//!     let i = t.grid1();
//!     if i < y.len() {
//!         y[i] = a * x[i] + y[i];
//!     }
//! }
//!
//! # fn main() {
//! let x = rumba::to_device(&[1.0f64, 2.0]).unwrap();
//! let y = rumba::to_device(&[10.0f64, 10.0]).unwrap();
//! axpy::<f64>().configure(1, 2).launch((0.5, &x, &y)).unwrap();
//! assert_eq!(y.copy_to_host().unwrap().to_vec(), [10.5, 11.0]);
//! assert!(axpy::cuda_source::<f32>().contains("float a"));
//! # }
//! ```
//!
//! The macro compiles the function once per type its bounds admit (an *instance*), as if each
//! copy had been written by hand: every instance has its own simulator bodies, CUDA C and OpenCL
//! C (`axpy::cuda_source::<f32>()`, `opencl_source`, `abi`), `axpy::<f32>()` makes its kernel
//! once per type and const value, and each backend compiles each instance's program once per
//! device. In the body a type parameter is that type: literals take it (`2.0 * a`), `x as T`,
//! `T::MAX` and `t.shared_array::<T>(TPB)` work, and whatever an admitted type does not have is
//! a compile error at the construct naming the instance (`sqrt` under `T: Number` fails for
//! `T = i8`: bound it by `Float`). A bound admits at most 64 combinations of types in all. A
//! generic device function is called like any other (`clamp(x, lo, hi)`); each call reaches the
//! instance of its argument types. Device functions take no const parameters (a C `#define` is
//! one value per program).
//!
//! # Records
//! A `#[record] struct` (fields of number types, `[T; N]` arrays of them, `[u8; N]` byte
//! strings; no `bool`, which device memory cannot be trusted to hold) is an array element, a
//! scalar parameter, a local, a device-function argument and result. Records are built with
//! literals (`Rec { a: 1.5, b: 7, c }`, every field named), read field by field (`r.a`,
//! `a[i].b`, `a[i].v[k]`) and assigned field by field: `a[i].b = v`, `a[i].b += 1u32`,
//! `r.v[k] = x`, `a[i].name = bytes(b"abc")` (a byte string, padded with zeros as NumPy's `S`
//! dtype; one longer than the field is a fault). A field store to an array element writes the
//! field's bytes only, as Numba does, so threads writing different fields of one record keep
//! each other's. The fields' types are rustc's: a bare literal given to a field takes the field's
//! type, as in Rust; a value read from a field gets its type from its use (annotate its `let`
//! where nothing fixes it), and a compound update computes in its operand's type (`+= 1u32`).
//! An index out of a sub-array field's length is a fault; a record literal cannot give a
//! sub-array field (copy a record and set its elements). On the host, `DeviceArray::field` /
//! `field_array` and `DeviceRecord::get_field` / `set_field` / `get_bytes` / `set_bytes` read and
//! write single fields.
//!
//! # Device functions
//! `#[device] fn` helpers take and return what a kernel's locals hold — numbers, complex
//! numbers, records, tuples of them (`-> (f64, f64)`, `p: (f32, f32)`, read with `p.0` or
//! `let (a, b) = f(x);`) — and arrays: `a: &Arr<T>` (read), `a: &mut Arr<T>` (read and
//! written) or `a: &ConstArr<T>`, each one reachable as a whole like a kernel's own (indexing,
//! `len`, `shape()[k]`, views, atomics), and passed as `f(a)`, `f(&a)` or `f(&mut s)`. The array
//! may live anywhere — a parameter, constant memory, a shared or local array, a view of one, a
//! captured array — and one helper serves them all (on OpenCL, whose C has no generic address
//! space, the linker emits one copy per combination of spaces a program calls it with). A
//! read-only array (`&Arr`, `&ConstArr`, or a view of one) cannot go to a `&mut Arr`
//! parameter, and a helper using atomics on a parameter cannot be given a local array: both are
//! compile errors at the argument. The number of dimensions of an array parameter comes from
//! its use in the helper, and a caller's array must have as many — an array the kernel only
//! passes on takes its rank from the kernel's own use of it (1 if none; `a.shape()[1]` fixes
//! 2), and a disagreement is a compile error at the call. Helpers call each other; a helper
//! calling itself is a compile error. Literal arguments keep Rust's defaults (`i32`, `f64`):
//! pass `8usize` to a `usize` parameter. A device function does not capture: the kernel
//! captures the array and passes it on (`lookup(TABLE, i)`).
//!
//! # Captured device arrays
//! Numba's kernels may name a device array of the enclosing module. In Rust that array lives in
//! a `static` cell, [`Captured<T>`](crate::kernel::Captured), which the kernel declares on its
//! attribute and names in its body like an array parameter:
//! `#[kernel(capture(TABLE: &Arr<f32>, HIST: &mut Arr<u32>))]`. Each capture is a trailing array
//! parameter on every target (`cap_TABLE` in the C sources); the launch reads the cell, passes its
//! array and keeps it alive until the kernel has run; an empty cell is
//! [`Error::EmptyCapture`](crate::Error::EmptyCapture) and nothing is queued. `#[rumba::device]`
//! functions do not capture: the kernel passes them the array (`f(TABLE)`). See
//! [`Captured`] for the rules.
//!
//! # Views of arrays
//! `let m = a.reshape((rows, cols));` (run-time or const `usize` extents, 0 to 6 of them, one of
//! which may be `-1`: NumPy's inferred extent), `let w = a.view::<u32>();`, `let r = a.row(i);`
//! / `let c = a.index_axis(1, j);` and `let s = a.slice(s![i, lo..hi, ..;2]);` make new arrays
//! over the same memory, usable everywhere an array is (indexing, `len`, `shape()[k]`, `size`,
//! atomics, device-function arguments) — parameters, shared and local arrays alike (a
//! `reshape` or `view` of a shared or local array is Numba's `carray`-like use). The rules are
//! NumPy's: `reshape` needs a C-contiguous array of the same size (with `-1`, the other extents'
//! product must divide it); `view::<U>()` with another item size needs a C-contiguous array
//! whose last axis's bytes divide into `U`s (the last extent scales), and memory aligned for
//! `U`; `row` / `index_axis` need an index in range (of a 1-d array they give the 0-d view of
//! one element). `slice` is NumPy's basic slicing through ndarray's `s!` syntax, one component
//! per leading axis (the others are kept whole): an integer index (`isize` or `usize`; negative
//! counts from the end) drops its axis and must be in range, a range `lo..hi`, `lo..`, `..hi`,
//! `..` with an optional step `;k` keeps it with Python's clamping — `s![lo..hi;k]` is NumPy's
//! `a[lo:hi:k]`, so a negative step starts from the end (`s![..;-1]` reverses), unlike
//! ndarray's own `slice`. Anything else (sizes that differ, a non-contiguous base, an index out
//! of range, a zero step) is a kernel fault naming the kernel, block and thread, on every target
//! (a literal `reshape` of a shared or local array to another size, and a slice with more
//! components than the array has dimensions, are compile errors). `view::<bool>()` reads each
//! byte as `!= 0`, so no invalid `bool` is ever seen; records cannot be reinterpreted. A view is
//! bound with `let` to a name, one at a time (`let v = a.reshape(8); let w = v.view::<u8>();`);
//! writing through it writes its base, so a view of a `&Arr` is read-only like the `&Arr`.
//! Kernels with views run on both of the simulator's engines (the loop form and coroutines).
//!
//! The atomics are `atomic_add sub min max nanmin nanmax and or xor exch cas inc dec` on
//! `i32 u32 i64 u64` (`f32 f64` for all but the bitwise ones and `inc`/`dec`), each returning the
//! old value. NaN follows Numba's `cuda.atomic`: `atomic_max` / `atomic_min` keep a NaN already
//! stored and ignore a NaN operand (like Python's `max`), `atomic_nanmax` / `atomic_nanmin` treat
//! NaN as missing data (like NumPy's `nanmax`); equal values (`-0.0` against `0.0` too) keep the
//! stored one. The table: [`atomics`](crate::kernel::atomics).
//!
//! ROC's work-group barrier `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)` (either
//! flag, or both) is `syncthreads()`; any other argument is a compile error.
//!
//! The warp operations are `syncwarp(mask)`, `wavebarrier()` (ROC's name for a full-warp
//! `syncwarp`), `all_sync any_sync ballot_sync (mask, pred)`, `shfl_sync shfl_up_sync
//! shfl_down_sync shfl_xor_sync (mask, value, lane)` on `i32 u32 i64 u64 f32 f64`, and
//! `activemask()`; masks and lane arguments are `u32` ([`FULL_MASK`] is the whole warp). A warp
//! is 32 consecutive linear thread ids on every target. On CUDA they are the `__*_sync`
//! intrinsics. On the simulator the lanes of a warp meet at each one, and what CUDA leaves
//! undefined is a fault naming the thread (the caller not in its mask, a named lane waiting
//! elsewhere, a shuffle from a lane outside the mask, exited or absent), on both engines (see
//! below for which kernels run on which).
//! On OpenCL devices (PoCL has no subgroups) they are emulated in local memory with work-group
//! barriers: **the whole work-group must reach each warp operation in uniform control flow**,
//! like `syncthreads`. A warp operation under thread-dependent control (a varying `if`, loop
//! or early `return` around it) is refused when the kernel is built for OpenCL — a build error
//! naming its line — instead of running as a barrier in divergent code; the simulator and CUDA
//! run it as written. The other undefined cases above are not checked on OpenCL.
//!
//! Integer arithmetic wraps (release-Rust semantics) on every target; integer division by zero
//! and `MIN / -1`, out-of-bounds indices and failed `assert!`s are kernel faults naming kernel,
//! block and thread. Kernels must be declared at module level.
//!
//! # On the simulator
//! A kernel gets two Rust bodies: a per-thread one (each GPU thread a coroutine, switched at
//! every barrier) and a block body for the work-item-loop engine (`rumba::kernel::wil`): the
//! statements between barriers run as loops over the block's threads, so a barrier costs about
//! a nanosecond per thread instead of a coroutine switch. Warp operations cut the body the same
//! way: the region before stores each thread's operands, the operation is completed warp by
//! warp, and the next region reads each thread's result. Block memory and (where the
//! simulator proves nothing else touches them) global inputs and own-index outputs are plain
//! memory the compiler vectorises. The simulator runs the block body; `Kernel::engine()` says
//! which one a kernel runs, `Kernel::with_engine` picks.
//!
//! The block body evaluates a thread-dependent condition, loop bound or `break` that controls a
//! barrier once per thread and checks that all threads agree (as CUDA requires); a mismatch is
//! the divergent-barrier fault naming block and thread. A kernel whose threads race inside a
//! block (one writes a shared element another reads with no barrier between) may give
//! different results on the two bodies, as on two GPUs.
//!
//! These constructs have no block body, so a kernel using them **runs on coroutines only**
//! (slower, same results): calling a `#[rumba::device]` function that takes the thread context
//! (`&Thread`); a barrier nested in an expression other than a statement of its own, a `let`
//! initialiser or an assignment's value, except where everything else in the expression is
//! pure and cannot fault (`v += t.shfl_down_sync(m, v, d)`, `x = t.syncthreads_count(p) + 1`
//! and `u = t.ballot_sync(m, p) as u64` are fine, `x = a[i] + t.shfl_sync(m, v, 0)` is not: the
//! read could fault first); a by-value parameter reassigned under thread-dependent control; a
//! `Dim3` value live across a barrier; a warp operation under thread-dependent control (a
//! varying `if` or loop bound around it, or a loop around it that some threads may leave early
//! with `break` / `continue`) or whose mask is not block-uniform (these two let the lanes of a
//! warp meet while other lanes are elsewhere, which coroutines do; such kernels also skip the
//! coroutine engine's fast path, see [`Kernel::new_with_options`]).

pub use super::launch::{Arr, Captured, ConstArr};
pub use super::{
    AtomicInteger, AtomicValue, CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE, Complex, Dim3,
    FULL_MASK, Float, Int, Kernel, Number, SignedInt, ThreadCtx, UnsignedInt, f16,
};
pub use rumba_macros::{device, kernel, record};

/// The thread context a kernel receives (an alias of [`ThreadCtx`]).
pub type Thread<'a> = ThreadCtx<'a>;
