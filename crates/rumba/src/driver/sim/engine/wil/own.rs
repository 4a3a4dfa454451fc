//! Own-index outputs of block bodies ([`OwnOut`]): a `&mut Arr<T>` parameter that every thread
//! reads and stores only at its **own index** — its own linear index (block linear index ×
//! threads per block + work-item, which is `t.grid1()` in a 1-d launch) for a 1-d array, its own
//! `(y, x)` (`(x, y) = t.grid2()`) for a 2-d one: `y[i] = v`, and also `y[i] += v` or
//! `let old = y[i]`. Accesses go through a per-block handle ([`OwnOut::block`], checked) or, in
//! full blocks, a window over the block's own elements ([`OwnOut::own_window`], indexed by
//! work-item), in access mode [`Atomic`] or [`Plain`].
//!
//! # When plain accesses are sound
//!
//! An [`OwnOut<_, Plain, _>`] is made only from an argument the simulator marked exclusive
//! ([`claim_exclusive`](crate::driver::HostArrayArg::claim_exclusive): no other operation
//! touches the allocation while the launch runs, the kernel receives it once, in no other
//! argument) or from a Rust exclusive borrow. Within the launch, block `b` may reach only its
//! own elements ([`OwnBlock::set`] and [`OwnBlock::get`] fault on any other index):
//!
//! * 1-d: elements `b·threads .. (b+1)·threads` (`b` the block's linear index);
//! * 2-d: rows `by·bdy .. (by+1)·bdy`, columns `bx·bdx .. (bx+1)·bdx` (`(bx, by)` the block's
//!   index, `(bdx, bdy)` the block's extents), only in a launch one block and one grid layer
//!   deep along z — so no two blocks share a rectangle — and only for an array whose rows are
//!   contiguous and do not overlap, so that distinct indices are distinct bytes.
//!
//! Blocks run once each, and an output serves a single [`run_blocks`](super::run_blocks) call.
//! So every element is read and written by one OS thread only, and by nothing else: no data
//! race. (A block reading its own elements sees what its own work-items stored, in program
//! order on that one OS thread.)
//!
//! This module touches only the memory of the arrays it is given.

use std::fmt;
use std::marker::PhantomData;
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use bytemuck::Pod;

use super::arena::BlockIndex;
use super::block::{BlockCtx, BlockShape};
use super::global::{Access, Atomic, Plain, array_arg, claimed, own_start, window_miss};
use super::halo::Inside;
use crate::driver::HostArg;
use crate::driver::sim::engine::dim::{Dim3, LaunchConfig};
use crate::driver::sim::engine::fault;
use crate::driver::sim::engine::view::GlobalView;
use crate::error::{ArgumentError, Error, Result, format_shape};

/// Whether an array of `shape` with byte `strides` and `itemsize`-byte elements, in a launch of
/// `config`, can take plain own-index stores: a contiguous 1-d array in a 1-d launch, or a 2-d
/// array with contiguous rows that do not overlap in a launch one block and one grid layer deep
/// along z (see the module docs).
pub(crate) fn own_index_layout(
    shape: &[usize],
    strides: &[isize],
    itemsize: usize,
    config: &LaunchConfig,
) -> bool {
    let item = itemsize as isize;
    let flat = |d: Dim3| d.z == 1;
    let line = |d: Dim3| d.y == 1 && d.z == 1;
    match (shape, strides) {
        ([_], [s]) => *s == item && line(config.grid) && line(config.block),
        ([rows, cols], [s0, s1]) => {
            *s1 == item
                && (*rows <= 1 || s0.unsigned_abs() >= cols.saturating_mul(itemsize))
                && flat(config.grid)
                && flat(config.block)
        }
        _ => false,
    }
}

/// A global output of `D` dimensions (1 or 2) that every thread reads and writes only at its
/// own index: the `&mut Arr<T>` parameter the macro proves that of (module docs). Accesses go
/// through the per-block handle [`block`](Self::block) in access mode `W`.
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
pub struct OwnOut<'a, T, W, const D: usize = 1> {
    ptr: *mut T,
    shape: [usize; D],
    /// Byte strides.
    strides: [isize; D],
    /// The `run_blocks` call this output serves (0: none yet); plain mode only.
    run: AtomicU64,
    _marker: PhantomData<(&'a mut [T], W)>,
}

// SAFETY: accesses through it are atomic (`Atomic`) or confined to one block's own elements, each
// block running once on one OS thread, of memory nobody else touches (`Plain`, see the module
// docs); the run binding is an atomic.
unsafe impl<T: Pod, W: Access, const D: usize> Send for OwnOut<'_, T, W, D> {}
// SAFETY: as for `Send`.
unsafe impl<T: Pod, W: Access, const D: usize> Sync for OwnOut<'_, T, W, D> {}

impl<T, W: Access, const D: usize> fmt::Debug for OwnOut<'_, T, W, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnOut")
            .field("access", &W::NAME)
            .field("ptr", &self.ptr)
            .field("shape", &self.shape)
            .field("strides", &self.strides)
            .finish()
    }
}

impl<'a, T: Pod, W: Access, const D: usize> OwnOut<'a, T, W, D> {
    /// Kernel argument `position` of `config`'s launch. [`Atomic`] accesses take any writable
    /// array of `D` dimensions (and any in-bounds index). [`Plain`] stores need the layout and
    /// launch of the module docs — a contiguous 1-d array in a 1-d launch, or a 2-d array with
    /// contiguous, non-overlapping rows in a launch one block and one grid layer deep along z —
    /// and an argument the simulator gives this launch exclusively
    /// ([`HostArrayArg::claim_exclusive`](crate::driver::HostArrayArg::claim_exclusive); the
    /// claim is taken here, once).
    ///
    /// # Errors
    /// [`Error::KernelArgument`] unless the argument is a writable array of `D` dimensions of
    /// `size_of::<T>()`-byte elements, suitably aligned; for plain stores also
    /// ([`ArgumentError::OwnIndexLayout`]) when its layout or the launch does not allow them, or
    /// ([`ArgumentError::NotExclusive`]) when the argument is not exclusive — fall back to
    /// [`Atomic`] then.
    pub fn from_arg(arg: &HostArg<'a>, position: usize, config: &LaunchConfig) -> Result<Self> {
        let a = array_arg::<T, D>(arg, position)?;
        if !a.writable() {
            return Err(Error::argument(position, ArgumentError::ReadOnly));
        }
        if W::PLAIN {
            if !own_index_layout(a.shape(), a.strides(), size_of::<T>(), config) {
                return Err(Error::argument(
                    position,
                    ArgumentError::OwnIndexLayout { ndim: D },
                ));
            }
            if !a.claim_exclusive() {
                return Err(Error::argument(position, ArgumentError::NotExclusive));
            }
        } else if !a.use_shared() {
            return Err(claimed(position));
        }
        let mut shape = [0; D];
        let mut strides = [0; D];
        shape.copy_from_slice(a.shape());
        strides.copy_from_slice(a.strides());
        Ok(OwnOut {
            ptr: a.addr().cast(),
            shape,
            strides,
            run: AtomicU64::new(0),
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod, const D: usize> OwnOut<'a, T, Atomic, D> {
    /// A writable global view of `D` dimensions as an own-index output with atomic stores.
    ///
    /// # Errors
    /// [`Error::KernelView`] if the view is not writable or does not have `D` dimensions.
    ///
    /// ```
    /// use rumba::kernel::GlobalView;
    /// use rumba::kernel::wil::{Atomic, OwnOut};
    /// let mut d = [0u8; 4];
    /// assert_eq!(OwnOut::<u8, Atomic>::from_view(&GlobalView::from_slice_mut(&mut d)).unwrap().len(), 4);
    /// ```
    pub fn from_view(view: &GlobalView<'a, T>) -> Result<Self> {
        if view.ndim() != D || !view.is_writable() {
            return Err(Error::KernelView {
                ndim: view.ndim(),
                access: if view.is_writable() {
                    "writable"
                } else {
                    "read-only"
                },
                expected_ndim: D,
                expected_access: "writable",
            });
        }
        let mut shape = [0; D];
        let mut strides = [0; D];
        shape.copy_from_slice(view.shape());
        strides.copy_from_slice(view.strides());
        Ok(OwnOut {
            ptr: view.as_ptr(),
            shape,
            strides,
            run: AtomicU64::new(0),
            _marker: PhantomData,
        })
    }
}

impl<'a, T: Pod> OwnOut<'a, T, Plain, 1> {
    /// A host slice as an own-index output with plain stores (the exclusive borrow keeps
    /// everyone else off it).
    pub fn from_slice_mut(s: &'a mut [T]) -> Self {
        OwnOut {
            ptr: s.as_mut_ptr(),
            shape: [s.len()],
            strides: [size_of::<T>() as isize],
            run: AtomicU64::new(0),
            _marker: PhantomData,
        }
    }
}

impl<'a, T: Pod> OwnOut<'a, T, Plain, 2> {
    /// A host slice as a C-ordered 2-d own-index output of `[rows, cols]` with plain stores
    /// (the exclusive borrow keeps everyone else off it).
    ///
    /// # Errors
    /// [`Error::Shape`] if `rows × cols` is not `s.len()`.
    ///
    /// ```
    /// use rumba::kernel::{Dim3, LaunchConfig};
    /// use rumba::kernel::wil::{run_blocks, Dyn, OwnOut, Plain};
    /// let mut out = vec![0u32; 6 * 5];
    /// let o = OwnOut::<u32, Plain, 2>::from_slice_mut_2d(&mut out, [6, 5]).unwrap();
    /// let cfg = LaunchConfig::new(Dim3::new(2, 3, 1), Dim3::new(4, 2, 1));
    /// run_blocks::<Dyn, _>("k", &cfg, |blk| {
    ///     let mine = o.block(blk);
    ///     let (b, d) = (blk.block_idx(), blk.block_dim());
    ///     blk.each(|_, t| {
    ///         let (x, y) = ((b.x * d.x + t.x) as usize, (b.y * d.y + t.y) as usize);
    ///         if y < mine.shape()[0] && x < mine.shape()[1] {
    ///             mine.set((y, x), (10 * y + x) as u32);
    ///         }
    ///     });
    /// })
    /// .unwrap();
    /// assert_eq!(out[5 * 5 + 4], 54);
    /// ```
    pub fn from_slice_mut_2d(s: &'a mut [T], dims: [usize; 2]) -> Result<Self> {
        if dims[0].checked_mul(dims[1]) != Some(s.len()) {
            return Err(crate::error::ShapeError::ReshapeSize {
                size: s.len(),
                shape: dims.iter().map(|&d| d as isize).collect(),
            }
            .into());
        }
        let item = size_of::<T>() as isize;
        Ok(OwnOut {
            ptr: s.as_mut_ptr(),
            shape: dims,
            strides: [item.wrapping_mul(dims[1] as isize), item],
            run: AtomicU64::new(0),
            _marker: PhantomData,
        })
    }
}

/// Block `blk`'s own elements of an array of `shape`, as index ranges `lo .. hi` per axis
/// (clamped to the shape): see the module docs. Nothing for a 2-d array in a launch with a z
/// extent, or another rank.
#[inline(always)]
fn own_range<S: BlockShape, const D: usize>(
    blk: &BlockCtx<'_, S>,
    shape: [usize; D],
) -> ([usize; D], [usize; D]) {
    let (mut lo, mut hi) = ([0; D], [0; D]);
    if D == 1 {
        let n = blk.threads() as u64;
        let l = blk.block_linear().saturating_mul(n);
        lo[0] = usize::try_from(l).unwrap_or(usize::MAX).min(shape[0]);
        hi[0] = lo[0].saturating_add(n as usize).min(shape[0]);
    } else if D == 2 && flat(blk) {
        let (b, d) = (blk.block_idx(), blk.block_dim());
        for (k, (i, n)) in [(b.y, d.y), (b.x, d.x)].into_iter().enumerate() {
            lo[k] = (i as usize).saturating_mul(n as usize).min(shape[k]);
            hi[k] = lo[k].saturating_add(n as usize).min(shape[k]);
        }
    }
    (lo, hi)
}

/// Whether `blk`'s launch is one block and one grid layer deep along z, so that a thread's own
/// 2-d index `(y, x)` is its block's alone.
#[inline(always)]
fn flat<S: BlockShape>(blk: &BlockCtx<'_, S>) -> bool {
    blk.block_dim().z == 1 && blk.grid_dim().z == 1
}

impl<T: Pod, W: Access, const D: usize> OwnOut<'_, T, W, D> {
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

    /// Length of the first axis.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.shape.first().copied().unwrap_or(1)
    }

    /// The shape.
    #[inline(always)]
    pub fn shape(&self) -> [usize; D] {
        self.shape
    }

    /// The handle block `blk` stores through. In plain mode it covers the block's own elements
    /// only (module docs), and the output is bound to `blk`'s [`run_blocks`](super::run_blocks)
    /// call (a block of any other call faults).
    #[inline]
    pub fn block<S: BlockShape>(&self, blk: &BlockCtx<'_, S>) -> OwnBlock<'_, T, W, D> {
        let (lo, hi) = if W::PLAIN {
            self.bind(blk.run_id());
            own_range(blk, self.shape)
        } else {
            ([0; D], self.shape)
        };
        OwnBlock {
            ptr: self.ptr,
            shape: self.shape,
            strides: self.strides,
            lo,
            hi,
            _marker: PhantomData,
        }
    }
}

impl<T: Pod, W: Access> OwnOut<'_, T, W, 1> {
    /// Block `blk`'s own elements as an [`OwnWindow`] indexed by work-item, when the launch is
    /// 1-d, the output contiguous and they are all in bounds (a full block), else `None` (see
    /// [`GlobalIn::own_window`](super::GlobalIn::own_window)). In plain mode, binds the output
    /// to `blk`'s launch as [`block`](Self::block) does.
    #[inline(always)]
    pub fn own_window<S: BlockShape>(
        &self,
        blk: &BlockCtx<'_, S>,
    ) -> Option<OwnWindow<'_, T, W, 1>> {
        let lo = own_start::<T, S>(blk, self.shape[0], self.strides[0])?;
        if W::PLAIN {
            self.bind(blk.run_id());
        }
        Some(OwnWindow {
            // In bounds: `lo + n <= len`.
            ptr: self.ptr.wrapping_add(lo),
            n: [blk.threads() as usize],
            row: 0,
            _marker: PhantomData,
        })
    }
}

impl<T: Pod, W: Access> OwnOut<'_, T, W, 2> {
    /// Block `blk`'s own elements (its rectangle of rows and columns, module docs) as an
    /// [`OwnWindow`] indexed by `threadIdx`, when the launch is one block and one grid layer
    /// deep along z, the output's rows are contiguous and the whole rectangle is in bounds (a
    /// full block), else `None`. Each row of the window is a contiguous run of the output, so
    /// a region that stores through it can be vectorised along x. In plain mode, binds the
    /// output to `blk`'s launch as [`block`](Self::block) does.
    #[inline(always)]
    pub fn own_window<S: BlockShape>(
        &self,
        blk: &BlockCtx<'_, S>,
    ) -> Option<OwnWindow<'_, T, W, 2>> {
        let item = size_of::<T>() as isize;
        if !flat(blk) || self.strides[1] != item {
            return None;
        }
        let (b, d) = (blk.block_idx(), blk.block_dim());
        let y0 = (b.y as usize).checked_mul(d.y as usize)?;
        let x0 = (b.x as usize).checked_mul(d.x as usize)?;
        let full = y0.checked_add(d.y as usize)? <= self.shape[0]
            && x0.checked_add(d.x as usize)? <= self.shape[1];
        if !full {
            return None;
        }
        if W::PLAIN {
            self.bind(blk.run_id());
        }
        Some(OwnWindow {
            // In bounds: the rectangle lies inside the shape.
            ptr: self
                .ptr
                .wrapping_byte_offset((y0 as isize).wrapping_mul(self.strides[0]))
                .wrapping_add(x0),
            n: [d.y as usize, d.x as usize],
            row: self.strides[0],
            _marker: PhantomData,
        })
    }
}

/// A block's own elements of an [`OwnOut`] in a full block ([`OwnOut::own_window`]): indexed
/// by work-item (1-d) or by `threadIdx` (2-d).
pub struct OwnWindow<'o, T, W, const D: usize = 1> {
    /// The block's first own element.
    ptr: *mut T,
    /// The window's extents, outermost first.
    n: [usize; D],
    /// Byte stride between rows (2-d).
    row: isize,
    _marker: PhantomData<(&'o (), W)>,
}

impl<T: Pod, W: Access> OwnWindow<'_, T, W, 1> {
    /// Work-item `w`'s own element.
    #[inline(always)]
    pub fn at(&self, w: u32) -> T {
        let w = w as usize;
        if w >= self.n[0] {
            window_miss(w, self.n[0]);
        }
        // SAFETY: `w < n`: one of this block's own elements, in bounds of the contiguous,
        // writable, aligned output (checked when made); plain mode: nobody else writes it
        // (module docs), atomic mode: everyone else reaches it atomically.
        unsafe { W::load(self.ptr.add(w)) }
    }

    /// Stores `value` at work-item `w`'s own element.
    #[inline(always)]
    pub fn set(&self, w: u32, value: T) {
        let w = w as usize;
        if w >= self.n[0] {
            window_miss(w, self.n[0]);
        }
        // SAFETY: `w < n`: one of this block's own elements, in bounds of the contiguous,
        // writable, aligned output (checked when made); plain mode: nobody else touches it
        // (module docs), atomic mode: everyone else reaches it atomically.
        unsafe { W::store(self.ptr.add(w), value) }
    }
}

impl<T: Pod, W: Access> OwnWindow<'_, T, W, 2> {
    /// The own element of the work-item `at` of a region's interior (a check, as for
    /// [`set_inside`](Self::set_inside), the same for every work-item of the region).
    #[inline(always)]
    pub fn get_inside(&self, at: Inside) -> T {
        let i = at.interior();
        if i.y.1 as usize > self.n[0] || i.x.1 as usize > self.n[1] {
            window_miss(i.y.1 as usize * self.n[1], self.n[0] * self.n[1]);
        }
        // SAFETY: as for `set_inside`: one of this block's own elements, in bounds of the
        // output; plain mode: nobody else writes it, atomic mode: everyone else reaches it
        // atomically.
        unsafe { W::load(self.elem(at.tid())) }
    }

    /// The own element of the work-item with `threadIdx` `tid`.
    #[inline(always)]
    pub fn get(&self, tid: Dim3) -> T {
        let (y, x) = (tid.y as usize, tid.x as usize);
        if y >= self.n[0] || x >= self.n[1] {
            window_miss(y * self.n[1] + x, self.n[0] * self.n[1]);
        }
        // SAFETY: as for `set`: `y < n[0]`, `x < n[1]`, one of this block's own elements in
        // bounds of the output; plain mode: nobody else writes it, atomic mode: everyone else
        // reaches it atomically.
        unsafe { W::load(self.elem(tid)) }
    }

    /// The address of the window's element `(tid.y, tid.x)` (in bounds when they are below
    /// the extents: the callers check).
    #[inline(always)]
    fn elem(&self, tid: Dim3) -> *mut T {
        self.ptr
            .wrapping_byte_offset((tid.y as isize).wrapping_mul(self.row))
            .wrapping_add(tid.x as usize)
    }

    /// Stores `value` at the own element of the interior work-item `at` of
    /// [`BlockCtx::each_split`](super::BlockCtx::each_split) (faults unless its interior lies in
    /// this window, a check the same for every work-item of a region).
    #[inline(always)]
    pub fn set_inside(&self, at: Inside, value: T) {
        let i = at.interior();
        if i.y.1 as usize > self.n[0] || i.x.1 as usize > self.n[1] {
            window_miss(i.y.1 as usize * self.n[1], self.n[0] * self.n[1]);
        }
        let tid = at.tid();
        // SAFETY: the work-item lies in its interior (`Inside`'s guarantee), which lies in this
        // window (checked above): one of this block's own elements, in bounds of the writable,
        // aligned output whose rows are contiguous (checked when made); plain mode: nobody
        // else touches it (module docs), atomic mode: everyone else reaches it atomically.
        unsafe { W::store(self.elem(tid), value) }
    }

    /// Stores `value` at the own element of the work-item with `threadIdx` `tid`.
    #[inline(always)]
    pub fn set(&self, tid: Dim3, value: T) {
        let (y, x) = (tid.y as usize, tid.x as usize);
        if y >= self.n[0] || x >= self.n[1] {
            window_miss(y * self.n[1] + x, self.n[0] * self.n[1]);
        }
        // SAFETY: `y < n[0]`, `x < n[1]`: one of this block's own elements, in bounds of the
        // writable, aligned output whose rows are contiguous (checked when made); plain mode:
        // nobody else touches it (module docs), atomic mode: everyone else reaches it atomically.
        unsafe { W::store(self.elem(tid), value) }
    }
}

/// One block's handle on an [`OwnOut`]: reads and stores the elements of index ranges
/// `lo .. hi` per axis (plain mode: the block's own) or any element (atomic mode).
pub struct OwnBlock<'o, T, W, const D: usize = 1> {
    ptr: *mut T,
    shape: [usize; D],
    strides: [isize; D],
    lo: [usize; D],
    hi: [usize; D],
    _marker: PhantomData<(&'o (), W)>,
}

impl<T: Pod, W: Access, const D: usize> OwnBlock<'_, T, W, D> {
    /// Length of the whole output's first axis.
    #[inline(always)]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.shape.first().copied().unwrap_or(1)
    }

    /// Number of elements of the whole output.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// The output's shape.
    #[inline(always)]
    pub fn shape(&self) -> [usize; D] {
        self.shape
    }

    /// Element `index`, which must be the running work-item's own index. Faults when it is
    /// out of bounds, or (plain mode) another block's element.
    #[inline(always)]
    pub fn get<I: BlockIndex<D>>(&self, index: I) -> T {
        let p = self.element(index, "read of");
        // SAFETY: `element` checked `lo <= index < hi <= shape` on every axis: in bounds of the
        // live, writable, aligned output (construction); plain mode: one of this block's own
        // elements, which nobody else writes (module docs); atomic mode: everyone else reaches
        // it atomically.
        unsafe { W::load(p) }
    }

    /// Stores `value` at element `index`, which must be the running work-item's own index.
    /// Faults when it is out of bounds, or (plain mode) another block's element.
    #[inline(always)]
    pub fn set<I: BlockIndex<D>>(&self, index: I, value: T) {
        let p = self.element(index, "store to");
        // SAFETY: `element` checked `lo <= index < hi <= shape` on every axis: in bounds of the
        // live, writable, aligned output (construction); plain mode: one of this block's own
        // elements, which nobody else touches (module docs); atomic mode: everyone else
        // reaches it atomically.
        unsafe { W::store(p, value) }
    }

    /// The address of element `index`, after checking that it lies in `lo .. hi` on every
    /// axis (a fault naming the access, `what`, otherwise).
    #[inline(always)]
    fn element<I: BlockIndex<D>>(&self, index: I, what: &str) -> *mut T {
        let idx = index.components();
        let mut off = 0isize;
        for k in 0..D {
            if idx[k].wrapping_sub(self.lo[k]) >= self.hi[k] - self.lo[k] {
                own_miss(
                    &idx,
                    &self.shape,
                    &self.lo,
                    &self.hi,
                    self.ptr as usize,
                    &self.strides,
                    what,
                );
            }
            off = off.wrapping_add((idx[k] as isize).wrapping_mul(self.strides[k]));
        }
        self.ptr.wrapping_byte_offset(off)
    }
}

#[cold]
#[inline(never)]
fn own_miss(
    idx: &[usize],
    shape: &[usize],
    lo: &[usize],
    hi: &[usize],
    ptr: usize,
    strides: &[isize],
    what: &str,
) -> ! {
    if let Some(axis) = (0..idx.len()).find(|&k| idx[k] >= shape[k]) {
        let addr = (0..idx.len()).fold(ptr, |a, k| {
            a.wrapping_add((idx[k] as isize).wrapping_mul(strides[k]) as usize)
        });
        fault::raise(format!(
            "index {} is out of bounds for axis {axis} with size {} of the global array at {:p} with shape {} (address {addr:#x})",
            format_shape(idx),
            shape[axis],
            std::ptr::without_provenance::<u8>(ptr),
            format_shape(shape)
        ))
    }
    let ranges: Vec<String> = lo
        .iter()
        .zip(hi)
        .map(|(l, h)| format!("{l}..{h}"))
        .collect();
    let (index, own) = if idx.len() == 1 {
        (idx[0].to_string(), ranges[0].clone())
    } else {
        (format_shape(idx), format!("[{}]", ranges.join(", ")))
    };
    fault::raise(format!(
        "{what} element {index} of an own-index output outside this block's own elements {own}"
    ))
}
