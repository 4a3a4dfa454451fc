//! Global memory in block bodies: read-only inputs ([`GlobalIn`]) and own-index outputs
//! ([`OwnOut`]), each in an access mode chosen per launch — [`Atomic`] (relaxed atomic words,
//! always sound) or [`Plain`] (ordinary loads and stores, only where the runtime proved nobody
//! else touches the memory). Arrays a body both reads and writes stay
//! [`GlobalView`](crate::kernel::GlobalView)s (atomic).
//!
//! # When plain accesses are sound
//!
//! * **Plain reads** ([`GlobalIn<_, _, _, Plain>`]): made only from an argument the simulator
//!   marked [`frozen`](crate::driver::HostArrayArg::frozen) — its stream scheduler saw no queued or
//!   running operation that may write the allocation and makes every later writer wait for this
//!   launch — or from a Rust shared borrow. The kernel itself cannot write it (the input is
//!   read-only). So nothing writes the memory while the reads happen: no data race.
//! * **Plain stores** ([`OwnOut<_, Plain>`]): made only from an argument the simulator marked
//!   exclusive ([`claim_exclusive`](crate::driver::HostArrayArg::claim_exclusive): no other
//!   operation touches the allocation while the launch runs, the kernel receives it once, in no
//!   other argument) or from a Rust exclusive borrow. Within the launch, block `b` may store only
//!   to its own elements `b·threads .. (b+1)·threads` ([`OwnBlock::set`] faults on any other
//!   index), blocks run once each, and an output serves a single [`run_blocks`](super::run_blocks)
//!   call. So every element is written by one OS thread only and read by none: no data race.
//!
//! This module touches only the memory of the arrays it is given.

use std::fmt;
use std::marker::PhantomData;
use std::mem::{align_of, size_of};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use bytemuck::Pod;

use super::arena::BlockIndex;
use super::block::{BlockCtx, BlockShape};
use crate::driver::sim::engine::dim::{Dim3, LaunchConfig};
use crate::driver::sim::engine::view::GlobalView;
use crate::driver::sim::engine::{access, fault};
use crate::driver::{HostArg, HostArrayArg};
use crate::error::{ArgumentError, Error, Result, ShapeError, format_shape};

mod sealed {
    pub trait Sealed {}
}

/// How a [`GlobalIn`] loads and an [`OwnOut`] stores: [`Atomic`] or [`Plain`].
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
    /// atomically and the pointer has write permission, for [`Plain`] nobody writes it.
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
        // SAFETY: aligned, in bounds and written by nobody (caller's contract): a plain read
        // cannot race.
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
fn array_arg<'a, T, const D: usize>(
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

fn claimed(position: usize) -> Error {
    Error::argument(position, ArgumentError::Claimed)
}

/// Variance and auto-trait marker of [`GlobalIn`]: borrows for `'a`, yields `T`s, mode `R`.
type InMarker<'a, T, R> = PhantomData<(&'a (), fn() -> T, R)>;

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
    ptr: *mut u8,
    shape: [usize; D],
    strides: [isize; D],
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
fn own_start<T, S: BlockShape>(blk: &BlockCtx<'_, S>, len: usize, stride: isize) -> Option<usize> {
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
fn window_miss(w: usize, n: usize) -> ! {
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

/// A 1-d global output that every thread writes only at its own linear index (block linear
/// index × threads per block + work-item, which is `t.grid1()` for a 1-d launch) and never
/// reads: the `&mut Arr<T>` parameter the macro proves that of. Stores go through the per-block
/// handle [`block`](Self::block) in access mode `W`.
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// use rumba::kernel::wil::{run_blocks, Dyn, OwnOut, Plain};
/// let mut out = vec![0u32; 10];
/// let o = OwnOut::<u32, Plain>::from_slice_mut(&mut out);
/// run_blocks::<Dyn, _>("k", &LaunchConfig::new(3, 4), |blk| {
///     let mine = o.block(blk);
///     let base = blk.block_idx().x as usize * 4;
///     blk.each(|w, _| {
///         let i = base + w as usize;
///         if i < mine.len() {
///             mine.set(i, i as u32 * 10);
///         }
///     });
/// })
/// .unwrap();
/// assert_eq!(out[9], 90);
/// ```
pub struct OwnOut<'a, T, W> {
    ptr: *mut T,
    len: usize,
    stride: isize,
    /// The `run_blocks` call this output serves (0: none yet); plain mode only.
    run: AtomicU64,
    _marker: PhantomData<(&'a mut [T], W)>,
}

// SAFETY: stores through it are atomic (`Atomic`) or confined to one block's own elements, each
// block running once on one OS thread, of memory nobody else touches (`Plain`, see the module
// docs); the run binding is an atomic.
unsafe impl<T: Pod, W: Access> Send for OwnOut<'_, T, W> {}
// SAFETY: as for `Send`.
unsafe impl<T: Pod, W: Access> Sync for OwnOut<'_, T, W> {}

impl<T, W: Access> fmt::Debug for OwnOut<'_, T, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnOut")
            .field("access", &W::NAME)
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .finish()
    }
}

/// The checks of an output argument: a writable 1-d array of `T`.
fn output_arg<'a, T>(arg: &HostArg<'a>, position: usize) -> Result<HostArrayArg<'a>> {
    let a = array_arg::<T, 1>(arg, position)?;
    if !a.writable() {
        return Err(Error::argument(position, ArgumentError::ReadOnly));
    }
    Ok(a)
}

impl<'a, T: Pod, W: Access> OwnOut<'a, T, W> {
    /// Kernel argument `position` of `config`'s launch. [`Atomic`] stores take any writable
    /// 1-d array (and any in-bounds index). [`Plain`] stores need a contiguous 1-d argument of
    /// a 1-d launch (grid and block) that the simulator gives this launch exclusively
    /// ([`HostArrayArg::claim_exclusive`]; the claim is taken here, once).
    ///
    /// # Errors
    /// [`Error::KernelArgument`] unless the argument is a writable 1-d array of
    /// `size_of::<T>()`-byte elements, suitably aligned; for plain stores also when it is not
    /// contiguous, the launch is not 1-d, or the argument is not exclusive — fall back to
    /// [`Atomic`] then.
    pub fn from_arg(arg: &HostArg<'a>, position: usize, config: &LaunchConfig) -> Result<Self> {
        let a = output_arg::<T>(arg, position)?;
        if W::PLAIN {
            let one_d = |d: Dim3| d.y == 1 && d.z == 1;
            if a.strides()[0] != size_of::<T>() as isize
                || !one_d(config.grid)
                || !one_d(config.block)
            {
                return Err(Error::argument(position, ArgumentError::OwnIndexLayout));
            }
            if !a.claim_exclusive() {
                return Err(Error::argument(position, ArgumentError::NotExclusive));
            }
        } else if !a.use_shared() {
            return Err(claimed(position));
        }
        Ok(OwnOut {
            ptr: a.addr().cast(),
            len: a.shape()[0],
            stride: a.strides()[0],
            run: AtomicU64::new(0),
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod> OwnOut<'a, T, Atomic> {
    /// A writable 1-d global view as an own-index output with atomic stores.
    ///
    /// # Errors
    /// [`Error::KernelView`] if the view is not writable or not 1-d.
    ///
    /// ```
    /// use rumba::kernel::GlobalView;
    /// use rumba::kernel::wil::{Atomic, OwnOut};
    /// let mut d = [0u8; 4];
    /// assert_eq!(OwnOut::<u8, Atomic>::from_view(&GlobalView::from_slice_mut(&mut d)).unwrap().len(), 4);
    /// ```
    pub fn from_view(view: &GlobalView<'a, T>) -> Result<Self> {
        if view.ndim() != 1 || !view.is_writable() {
            return Err(Error::KernelView {
                ndim: view.ndim(),
                access: if view.is_writable() {
                    "writable"
                } else {
                    "read-only"
                },
                expected_ndim: 1,
                expected_access: "writable",
            });
        }
        Ok(OwnOut {
            ptr: view.as_ptr(),
            len: view.shape()[0],
            stride: view.strides()[0],
            run: AtomicU64::new(0),
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod> OwnOut<'a, T, Plain> {
    /// A host slice as an own-index output with plain stores (the exclusive borrow keeps
    /// everyone else off it).
    pub fn from_slice_mut(s: &'a mut [T]) -> Self {
        OwnOut {
            ptr: s.as_mut_ptr(),
            len: s.len(),
            stride: size_of::<T>() as isize,
            run: AtomicU64::new(0),
            _marker: PhantomData,
        }
    }
}

impl<T: Pod, W: Access> OwnOut<'_, T, W> {
    /// Binds a plain-mode output to the `run_blocks` call `run`; faults if another one has it.
    #[inline(always)]
    fn bind(&self, run: u64) {
        // A load first: only the first block of the run pays for the read-modify-write.
        let bound = self.run.load(Relaxed) == run
            || match self.run.compare_exchange(0, run, Relaxed, Relaxed) {
                Ok(_) => true,
                Err(current) => current == run,
            };
        if !bound {
            fault::raise(
                "an own-index output with plain stores serves one launch, and was used by another"
                    .to_owned(),
            );
        }
    }

    /// Number of elements.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// The handle block `blk` stores through. In plain mode it covers the block's own elements
    /// only, and the output is bound to `blk`'s [`run_blocks`](super::run_blocks) call (a
    /// block of any other call faults).
    #[inline]
    pub fn block<S: BlockShape>(&self, blk: &BlockCtx<'_, S>) -> OwnBlock<'_, T, W> {
        let (lo, hi) = if W::PLAIN {
            self.bind(blk.run_id());
            let n = blk.threads() as u64;
            let lo = blk.block_linear().saturating_mul(n);
            let lo = usize::try_from(lo).unwrap_or(usize::MAX).min(self.len);
            (lo, lo.saturating_add(n as usize).min(self.len))
        } else {
            (0, self.len)
        };
        OwnBlock {
            ptr: self.ptr,
            len: self.len,
            stride: self.stride,
            lo,
            hi,
            _marker: PhantomData,
        }
    }
}

impl<T: Pod, W: Access> OwnOut<'_, T, W> {
    /// Block `blk`'s own elements as an [`OwnWindow`] indexed by work-item, when the output is
    /// contiguous and they are all in bounds (a full block), else `None` (see
    /// [`GlobalIn::own_window`]). In plain mode, binds the output to `blk`'s launch as
    /// [`block`](Self::block) does.
    #[inline(always)]
    pub fn own_window<S: BlockShape>(&self, blk: &BlockCtx<'_, S>) -> Option<OwnWindow<'_, T, W>> {
        let lo = own_start::<T, S>(blk, self.len, self.stride)?;
        if W::PLAIN {
            self.bind(blk.run_id());
        }
        Some(OwnWindow {
            // In bounds: `lo + n <= len`.
            ptr: self.ptr.wrapping_add(lo),
            n: blk.threads() as usize,
            _marker: PhantomData,
        })
    }
}

/// A block's own elements of a contiguous [`OwnOut`], indexed by work-item
/// ([`OwnOut::own_window`]).
pub struct OwnWindow<'o, T, W> {
    ptr: *mut T,
    n: usize,
    _marker: PhantomData<(&'o (), W)>,
}

impl<T: Pod, W: Access> OwnWindow<'_, T, W> {
    /// Stores `value` at work-item `w`'s own element.
    #[inline(always)]
    pub fn set(&self, w: u32, value: T) {
        let w = w as usize;
        if w >= self.n {
            window_miss(w, self.n);
        }
        // SAFETY: `w < n`: one of this block's own elements, in bounds of the contiguous,
        // writable, aligned output (checked when made); plain mode: nobody else touches it
        // (module docs), atomic mode: everyone else stores atomically.
        unsafe { W::store(self.ptr.add(w), value) }
    }
}

/// One block's handle on an [`OwnOut`]: stores elements `lo..hi` (plain mode: the block's own)
/// or any element (atomic mode).
pub struct OwnBlock<'o, T, W> {
    ptr: *mut T,
    len: usize,
    stride: isize,
    lo: usize,
    hi: usize,
    _marker: PhantomData<(&'o (), W)>,
}

impl<T: Pod, W: Access> OwnBlock<'_, T, W> {
    /// Number of elements of the whole output.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Number of elements of the whole output (as [`len`](Self::len): it is 1-d).
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.len
    }

    /// The output's shape.
    #[inline(always)]
    pub fn shape(&self) -> [usize; 1] {
        [self.len]
    }

    /// Stores `value` at element `index`, which must be the running work-item's own linear
    /// index. Faults when it is out of bounds, or (plain mode) another block's element.
    #[inline(always)]
    pub fn set(&self, index: usize, value: T) {
        if index.wrapping_sub(self.lo) >= self.hi - self.lo {
            own_miss(
                index,
                self.len,
                self.lo,
                self.hi,
                self.ptr as usize,
                self.stride,
            );
        }
        // SAFETY: `lo <= index < hi <= len`: in bounds of the live, writable, aligned output
        // (construction); plain mode: one of this block's own elements, which nobody else
        // touches (module docs); atomic mode: everyone else stores atomically.
        unsafe {
            W::store(
                self.ptr.wrapping_byte_offset(index as isize * self.stride),
                value,
            )
        }
    }
}

#[cold]
#[inline(never)]
fn own_miss(index: usize, len: usize, lo: usize, hi: usize, ptr: usize, stride: isize) -> ! {
    if index >= len {
        let addr = ptr.wrapping_add((index as isize).wrapping_mul(stride) as usize);
        fault::raise(format!(
            "index {} is out of bounds for axis 0 with size {len} of the global array at {:p} with shape {} (address {addr:#x})",
            format_shape(&[index]),
            std::ptr::without_provenance::<u8>(ptr),
            format_shape(&[len])
        ))
    }
    fault::raise(format!(
        "store to element {index} of an own-index output outside this block's own elements {lo}..{hi}"
    ))
}
