//! Global memory in block bodies: read-only inputs ([`GlobalIn`]) and the access modes of
//! global accessors, chosen per launch — [`Atomic`] (relaxed atomic words, always sound) or
//! [`Plain`] (ordinary loads and stores, only where the runtime proved nobody else touches the
//! memory). Own-index outputs are [`OwnOut`](super::OwnOut)s (`own`), a 2-d input's windows
//! with a margin [`Halo`](super::Halo)s (`halo`); arrays a body both reads and writes stay
//! [`GlobalView`](crate::kernel::GlobalView)s (atomic).
//!
//! # When plain accesses are sound
//!
//! * **Plain reads** ([`GlobalIn<_, _, _, Plain>`]): made only from an argument the simulator
//!   marked [`frozen`](crate::driver::HostArrayArg::frozen) — its stream scheduler saw no queued or
//!   running operation that may write the allocation and makes every later writer wait for this
//!   launch — or from a Rust shared borrow. The kernel itself cannot write it (the input is
//!   read-only). So nothing writes the memory while the reads happen: no data race.
//! * **Plain own-index accesses** ([`OwnOut<_, Plain>`](super::OwnOut)): see `own` — each
//!   element is read and written by one OS thread only, and by nothing else.
//!
//! This module touches only the memory of the arrays it is given.

use std::fmt;
use std::marker::PhantomData;
use std::mem::{align_of, size_of};

use bytemuck::Pod;

use super::arena::BlockIndex;
use super::block::{BlockCtx, BlockShape};
use crate::driver::sim::engine::view::GlobalView;
use crate::driver::sim::engine::{access, fault};
use crate::driver::{HostArg, HostArrayArg};
use crate::error::{ArgumentError, Error, Result, ShapeError, format_shape};

mod sealed {
    pub trait Sealed {}
}

/// How a [`GlobalIn`] loads and an [`OwnOut`](super::OwnOut) loads and stores: [`Atomic`] or
/// [`Plain`].
///
/// ```
/// use rumba::kernel::wil::{Access, Atomic, Plain};
/// assert_eq!((Atomic::NAME, Plain::NAME), ("atomic", "plain"));
/// ```
pub trait Access: sealed::Sealed + Copy + Send + Sync + 'static {
    /// `"atomic"` or `"plain"`, for reports.
    const NAME: &'static str;
    /// Whether this is [`Plain`].
    const PLAIN: bool;

    /// Loads the element at `p`.
    ///
    /// # Safety
    /// `p` is aligned and in bounds of live memory; for [`Atomic`] others reach it only
    /// atomically and the pointer has write permission, for [`Plain`] nobody else (no other OS
    /// thread, no other operation) writes it meanwhile.
    unsafe fn load<T: Pod>(p: *const T) -> T;

    /// Stores `v` at `p`.
    ///
    /// # Safety
    /// `p` is aligned and in bounds of live, writable memory; for [`Atomic`] others reach it
    /// only atomically, for [`Plain`] nobody else reads or writes it meanwhile.
    unsafe fn store<T: Pod>(p: *mut T, v: T);
}

/// Relaxed atomic words ([`access`](crate::kernel::access)): sound whatever else runs.
#[derive(Debug, Clone, Copy)]
pub struct Atomic;

/// Plain loads and stores, which the compiler may vectorise: only where proven race-free.
#[derive(Debug, Clone, Copy)]
pub struct Plain;

impl sealed::Sealed for Atomic {}
impl sealed::Sealed for Plain {}

impl Access for Atomic {
    const NAME: &'static str = "atomic";
    const PLAIN: bool = false;

    #[inline(always)]
    unsafe fn load<T: Pod>(p: *const T) -> T {
        // SAFETY: forwarded (the caller's contract is `access::load`'s).
        unsafe { access::load(p) }
    }

    #[inline(always)]
    unsafe fn store<T: Pod>(p: *mut T, v: T) {
        // SAFETY: forwarded (the caller's contract is `access::store`'s).
        unsafe { access::store(p, v) }
    }
}

impl Access for Plain {
    const NAME: &'static str = "plain";
    const PLAIN: bool = true;

    #[inline(always)]
    unsafe fn load<T: Pod>(p: *const T) -> T {
        // SAFETY: aligned, in bounds and written by no one else meanwhile (caller's contract):
        // a plain read cannot race.
        unsafe { p.read() }
    }

    #[inline(always)]
    unsafe fn store<T: Pod>(p: *mut T, v: T) {
        // SAFETY: aligned, in bounds, writable and touched by nobody else (caller's contract).
        unsafe { p.write(v) }
    }
}

/// The array behind argument `position`, with the checks every global accessor makes: an
/// array, `size_of::<T>()`-byte elements, `D` dimensions, aligned base and strides.
pub(super) fn array_arg<'a, T, const D: usize>(
    arg: &HostArg<'a>,
    position: usize,
) -> Result<HostArrayArg<'a>> {
    let HostArg::Array(a) = arg else {
        return Err(Error::argument(
            position,
            ArgumentError::Kind {
                expected: "an array",
            },
        ));
    };
    ArgumentError::check_item_size::<T>(position, a.itemsize())?;
    if a.shape().len() != D || a.strides().len() != D {
        return Err(Error::argument(
            position,
            ArgumentError::Rank {
                found: a.shape().len(),
                expected: D,
                shape: a.shape().to_vec(),
            },
        ));
    }
    let align = align_of::<T>();
    let misaligned = (a.addr() as usize) % align != 0
        || (0..D).any(|k| a.shape()[k] > 1 && a.strides()[k] % align as isize != 0);
    if misaligned && a.shape().iter().all(|&n| n > 0) {
        return Err(Error::argument(
            position,
            ArgumentError::Misaligned {
                align,
                element: std::any::type_name::<T>(),
            },
        ));
    }
    Ok(*a)
}

/// [`array_arg`] for an accessor that is not the exclusive claimer.
fn shared_arg<'a, T, const D: usize>(
    arg: &HostArg<'a>,
    position: usize,
) -> Result<HostArrayArg<'a>> {
    let a = array_arg::<T, D>(arg, position)?;
    if !a.use_shared() {
        return Err(claimed(position));
    }
    Ok(a)
}

pub(super) fn claimed(position: usize) -> Error {
    Error::argument(position, ArgumentError::Claimed)
}

/// Variance and auto-trait marker of [`GlobalIn`]: borrows for `'a`, yields `T`s, mode `R`.
pub(super) type InMarker<'a, T, R> = PhantomData<(&'a (), fn() -> T, R)>;

/// A read-only global array of `T` with `D` dimensions, loaded with access mode `R`: a `&Arr<T>`
/// parameter of a block body. `get` bounds-checks every index (a fault names the work-item, as
/// a view's does).
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// use rumba::kernel::wil::{run_blocks, Dyn, GlobalIn, Plain};
/// let x = [1.0f32, 2.0, 3.0, 4.0];
/// let xin = GlobalIn::<f32, 1, Plain>::from_slice(&x, [4]).unwrap();
/// let sum = std::sync::Mutex::new(0.0);
/// run_blocks::<Dyn, _>("k", &LaunchConfig::new(1, 4), |blk| {
///     blk.each(|w, _| *sum.lock().unwrap() += xin.get(w as usize));
/// })
/// .unwrap();
/// assert_eq!(*sum.lock().unwrap(), 10.0);
/// ```
pub struct GlobalIn<'a, T, const D: usize, R> {
    pub(super) ptr: *mut u8,
    pub(super) shape: [usize; D],
    pub(super) strides: [isize; D],
    _marker: InMarker<'a, T, R>,
}

impl<T, const D: usize, R> Clone for GlobalIn<'_, T, D, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const D: usize, R> Copy for GlobalIn<'_, T, D, R> {}

// SAFETY: a pointer plus layout; loads through it are atomic (`Atomic`) or of memory nobody
// writes while it lives (`Plain`, by construction), so using it from several OS threads at once
// cannot race. `T: Pod` has no thread affinity.
unsafe impl<T: Pod, const D: usize, R: Access> Send for GlobalIn<'_, T, D, R> {}
// SAFETY: as for `Send`.
unsafe impl<T: Pod, const D: usize, R: Access> Sync for GlobalIn<'_, T, D, R> {}

impl<T, const D: usize, R: Access> fmt::Debug for GlobalIn<'_, T, D, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GlobalIn")
            .field("access", &R::NAME)
            .field("ptr", &self.ptr)
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .finish()
    }
}

impl<'a, T: Pod, const D: usize, R: Access> GlobalIn<'a, T, D, R> {
    /// Kernel argument `position` of a launch. [`Plain`] loads need an argument the simulator
    /// marked [`frozen`](HostArrayArg::frozen) (nothing writes it during the launch); [`Atomic`]
    /// ones take any.
    ///
    /// # Errors
    /// [`Error::KernelArgument`] if the argument is not an array of `D` dimensions of
    /// `size_of::<T>()`-byte elements, suitably aligned, or (plain) not frozen — fall back to
    /// [`Atomic`] then.
    pub fn from_arg(arg: &HostArg<'a>, position: usize) -> Result<Self> {
        let a = shared_arg::<T, D>(arg, position)?;
        if R::PLAIN && !a.frozen() {
            return Err(Error::argument(position, ArgumentError::MayBeWritten));
        }
        let mut shape = [0; D];
        let mut strides = [0; D];
        shape.copy_from_slice(a.shape());
        strides.copy_from_slice(a.strides());
        Ok(GlobalIn {
            ptr: a.addr(),
            shape,
            strides,
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod, const D: usize, R: Access> GlobalIn<'a, T, D, R> {
    /// The same memory as a `D`-dimensional global view, read through: plain loads need a view
    /// of a Rust shared borrow ([`GlobalView::from_slice`]: nobody writes it), atomic loads a
    /// view of memory reached with write permission (any other view).
    ///
    /// # Errors
    /// [`Error::KernelView`] if the view does not have `D` dimensions or the access mode
    /// does not fit it.
    ///
    /// ```
    /// use rumba::kernel::GlobalView;
    /// use rumba::kernel::wil::{Atomic, GlobalIn, Plain};
    /// let mut d = [1u32, 2, 3];
    /// assert!(GlobalIn::<u32, 1, Plain>::from_view(&GlobalView::from_slice(&d)).is_ok());
    /// assert!(GlobalIn::<u32, 1, Atomic>::from_view(&GlobalView::from_slice_mut(&mut d)).is_ok());
    /// assert!(GlobalIn::<u32, 2, Atomic>::from_view(&GlobalView::from_slice_mut(&mut d)).is_err());
    /// ```
    pub fn from_view(view: &GlobalView<'a, T>) -> Result<Self> {
        if view.ndim() != D || view.is_frozen() != R::PLAIN {
            return Err(Error::KernelView {
                ndim: view.ndim(),
                access: if view.is_frozen() {
                    "plain-load"
                } else {
                    "atomic-load"
                },
                expected_ndim: D,
                expected_access: if R::PLAIN {
                    "plain-load"
                } else {
                    "atomic-load"
                },
            });
        }
        let mut shape = [0; D];
        let mut strides = [0; D];
        shape.copy_from_slice(view.shape());
        strides.copy_from_slice(view.strides());
        Ok(GlobalIn {
            ptr: view.as_ptr().cast(),
            shape,
            strides,
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod, const D: usize> GlobalIn<'a, T, D, Plain> {
    /// A C-ordered view of a host slice with shape `dims`, read with plain loads (the shared
    /// borrow keeps anyone from writing it).
    ///
    /// # Errors
    /// [`Error::Shape`] if `dims` does not have `s.len()` elements.
    pub fn from_slice(s: &'a [T], dims: [usize; D]) -> Result<Self> {
        if dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) != Some(s.len()) {
            return Err(ShapeError::ReshapeSize {
                size: s.len(),
                shape: dims.iter().map(|&d| d as isize).collect(),
            }
            .into());
        }
        let mut strides = [0isize; D];
        let mut acc = size_of::<T>() as isize;
        for k in (0..D).rev() {
            strides[k] = acc;
            acc = acc.wrapping_mul(dims[k] as isize);
        }
        Ok(GlobalIn {
            ptr: s.as_ptr().cast_mut().cast(),
            shape: dims,
            strides,
            _marker: PhantomData,
        })
    }
}

impl<T: Pod, R: Access> GlobalIn<'_, T, 1, R> {
    /// The elements of block `blk`'s own linear indices (`lo .. lo + threads` with `lo` the
    /// block's linear index × threads per block) as a [`Window`] indexed by work-item — when
    /// the launch is 1-d (grid and block: the own linear index is then `t.grid1()`), the input
    /// is contiguous and all of them are in bounds (a full block); else `None`.
    ///
    /// A region whose global accesses are all at the own index can then run without per-element
    /// bounds checks against the arrays' lengths (the window's own check, `w < threads`, is the
    /// region's loop bound), which lets the compiler vectorise it; the ragged last block takes
    /// the checked path.
    #[inline(always)]
    pub fn own_window<S: BlockShape>(&self, blk: &BlockCtx<'_, S>) -> Option<Window<'_, T, R>> {
        let lo = own_start::<T, S>(blk, self.shape[0], self.strides[0])?;
        Some(Window {
            // In bounds: `lo + n <= len`.
            ptr: self.ptr.cast::<T>().wrapping_add(lo),
            n: blk.threads() as usize,
            _marker: PhantomData,
        })
    }
}

/// Where `blk`'s own elements (its work-items' `t.grid1()`, `n` of them) start in a 1-d array of
/// `len` elements `stride` bytes apart: `Some(lo)` with `lo + n <= len` when the launch is 1-d,
/// the array contiguous for `T` and the whole block in bounds; else `None`.
#[inline(always)]
pub(super) fn own_start<T, S: BlockShape>(
    blk: &BlockCtx<'_, S>,
    len: usize,
    stride: isize,
) -> Option<usize> {
    if !one_d(blk) || stride != size_of::<T>() as isize {
        return None;
    }
    let n = blk.threads() as usize;
    let lo = usize::try_from(blk.block_linear()).ok()?.checked_mul(n)?;
    lo.checked_add(n)
        .is_some_and(|end| end <= len)
        .then_some(lo)
}

/// Whether `blk`'s launch is 1-d in grid and block, so that a thread's own linear index is its
/// `t.grid1()`.
#[inline(always)]
fn one_d<S: BlockShape>(blk: &BlockCtx<'_, S>) -> bool {
    let (b, g) = (blk.block_dim(), blk.grid_dim());
    b.y == 1 && b.z == 1 && g.y == 1 && g.z == 1
}

/// A block's own elements of a contiguous 1-d input, indexed by work-item
/// ([`GlobalIn::own_window`]).
#[derive(Clone, Copy)]
pub struct Window<'w, T, R> {
    ptr: *mut T,
    n: usize,
    _marker: InMarker<'w, T, R>,
}

impl<T: Pod, R: Access> Window<'_, T, R> {
    /// Element `w` of the window (work-item `w`'s own element).
    #[inline(always)]
    pub fn at(&self, w: u32) -> T {
        let w = w as usize;
        if w >= self.n {
            window_miss(w, self.n);
        }
        // SAFETY: `w < n` and the window's `n` elements lie in bounds of the input (checked when
        // made), contiguous and aligned; the access mode's condition holds as for the input.
        unsafe { R::load(self.ptr.add(w)) }
    }
}

#[cold]
#[inline(never)]
pub(super) fn window_miss(w: usize, n: usize) -> ! {
    fault::raise(format!(
        "work-item {w} is outside a block window of {n} elements"
    ))
}

impl<T: Pod, const D: usize, R: Access> GlobalIn<'_, T, D, R> {
    /// The shape.
    #[inline(always)]
    pub fn shape(&self) -> [usize; D] {
        self.shape
    }

    /// Length of the first axis (1 for 0-d).
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        if D == 0 { 1 } else { self.shape[0] }
    }

    /// Number of elements.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Reads element `index`; faults the running work-item when it is out of bounds.
    #[inline(always)]
    pub fn get<I: BlockIndex<D>>(&self, index: I) -> T {
        let idx = index.components();
        let mut off = 0isize;
        for (k, &i) in idx.iter().enumerate() {
            if i >= self.shape[k] {
                // By value: the accessor's address does not escape, its fields stay in registers.
                global_out_of_bounds(index, self.shape, self.strides, self.ptr as usize);
            }
            off = off.wrapping_add((i as isize).wrapping_mul(self.strides[k]));
        }
        // SAFETY: the index is in bounds, so the element lies in the live memory the argument
        // describes (HostArrayArg's guarantee, or the borrowed slice), aligned (checked when
        // built); the access mode's own condition holds by construction (module docs).
        unsafe { R::load(self.ptr.wrapping_offset(off).cast::<T>()) }
    }

    /// Asks the CPU to fetch the cache lines of the `n` elements from `index` on along the last
    /// axis (clamped to the array: nothing past the row's end, nothing for an index out of
    /// bounds, nothing unless the last axis is contiguous) — what a block about to read them a
    /// little later can ask ahead. A hint: it reads no memory, cannot fault, and costs about one
    /// instruction a cache line.
    ///
    /// ```
    /// use rumba::kernel::wil::{GlobalIn, Plain};
    /// let d = [1.0f32; 100];
    /// let a = GlobalIn::<f32, 2, Plain>::from_slice(&d, [10, 10]).unwrap();
    /// a.prefetch_run((3, 4), 32); // the rest of row 3
    /// a.prefetch_run((10, 0), 8); // out of bounds: nothing
    /// assert_eq!(a.get((3, 4)), 1.0);
    /// ```
    #[inline(always)]
    pub fn prefetch_run<I: BlockIndex<D>>(&self, index: I, n: usize) {
        let idx = index.components();
        let Some(last) = D.checked_sub(1) else {
            return;
        };
        if self.strides[last] != size_of::<T>() as isize {
            return;
        }
        let mut off = 0isize;
        for (k, &i) in idx.iter().enumerate() {
            if i >= self.shape[k] {
                return;
            }
            off = off.wrapping_add((i as isize).wrapping_mul(self.strides[k]));
        }
        // Contiguous elements `idx[last] ..` of the row, at most `n` of them: whole lines from
        // the first one's.
        let n = n.clamp(1, self.shape[last] - idx[last]);
        let first = (self.ptr as usize).wrapping_add_signed(off);
        let lines = (first % 64 + n * size_of::<T>()).div_ceil(64);
        for k in 0..lines {
            prefetch((first & !63).wrapping_add(k * 64));
        }
    }
}

/// Asks the CPU to fetch the cache line at address `at` (a hint: no access is made).
#[inline(always)]
fn prefetch(at: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads no memory the program can observe and never faults, whatever
    // the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::without_provenance::<i8>(at));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// The fault of an out-of-bounds global access, worded as a view's (the simulator rewrites the
/// host addresses into device addresses).
#[cold]
#[inline(never)]
fn global_out_of_bounds<I: BlockIndex<D>, const D: usize>(
    index: I,
    shape: [usize; D],
    strides: [isize; D],
    ptr: usize,
) -> ! {
    let idx = index.components();
    let axis = (0..D).find(|&k| idx[k] >= shape[k]).unwrap_or(0);
    let addr = (0..D).fold(ptr, |a, k| {
        a.wrapping_add((idx[k] as isize).wrapping_mul(strides[k]) as usize)
    });
    fault::raise(format!(
        "index {} is out of bounds for axis {axis} with size {} of the global array at {:p} with shape {} (address {addr:#x})",
        format_shape(&idx),
        shape[axis],
        std::ptr::without_provenance::<u8>(ptr),
        format_shape(&shape)
    ))
}
