//! Running a grid of block bodies: [`run_blocks`], what a body receives ([`BlockCtx`]), the
//! region loop ([`BlockCtx::each`]), barriers, uniform decisions and block shapes.
//!
//! This module touches the worker's arena (a thread-local), the block helpers' pool (through the
//! shared block scheduler) and whatever memory the block body touches.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::marker::PhantomData;
use std::mem::size_of;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering, Ordering::Relaxed, compiler_fence, fence};

use bytemuck::Pod;

use super::arena::{Arena, BlockArray, LocalArrays, Space};
use super::halo::{Inside, Interior};
use super::sites::{BarrierSite, Decision, DecisionSite};
use crate::driver::sim::engine::barrier::BarrierKind;
use crate::driver::sim::engine::dim::{Dim3, LaunchConfig, WARP_SIZE};
use crate::driver::sim::engine::exec::{ExecOptions, ThreadFault, schedule};
use crate::driver::sim::engine::fault::{self, Unwound, describe};
use crate::error::{Error, Result};

/// A block shape a body is compiled for: [`Dyn`] (any shape, read at run time) or
/// [`Fixed<X, Y, Z>`] (one shape, known to the compiler, so region loops have constant trip
/// counts — as PoCL compiles one work-group function per local size).
///
/// ```
/// use rumba::kernel::Dim3;
/// use rumba::kernel::wil::{BlockShape, Dyn, Fixed};
/// assert!(Fixed::<16, 16, 1>::fits(Dim3::new(16, 16, 1)));
/// assert!(!Fixed::<16, 16, 1>::fits(Dim3::new(256, 1, 1)));
/// assert!(Dyn::fits(Dim3::new(7, 3, 2)));
/// ```
///
/// The trait is sealed: the own-index windows trust `extents` to give every block of a launch
/// the same shape (their plain stores are race-free because the blocks' own rectangles are
/// disjoint), so only these two implement it.
pub trait BlockShape: sealed::Sealed + Copy + Send + Sync + 'static {
    /// Whether a launch with block shape `block` may run this specialisation.
    fn fits(block: Dim3) -> bool;
    /// The block extents along x, y, z (`actual` is the launch's block shape).
    fn extents(actual: Dim3) -> (u32, u32, u32);
}

mod sealed {
    /// Implemented by [`Dyn`](super::Dyn) and [`Fixed`](super::Fixed) only.
    pub trait Sealed {}
    impl Sealed for super::Dyn {}
    impl<const X: u32, const Y: u32, const Z: u32> Sealed for super::Fixed<X, Y, Z> {}
}

/// Any block shape, read from the launch at run time.
#[derive(Debug, Clone, Copy)]
pub struct Dyn;

/// Exactly the block shape `(X, Y, Z)`, a compile-time constant.
#[derive(Debug, Clone, Copy)]
pub struct Fixed<const X: u32, const Y: u32, const Z: u32>;

impl BlockShape for Dyn {
    #[inline(always)]
    fn fits(_block: Dim3) -> bool {
        true
    }

    #[inline(always)]
    fn extents(actual: Dim3) -> (u32, u32, u32) {
        (actual.x, actual.y, actual.z)
    }
}

impl<const X: u32, const Y: u32, const Z: u32> BlockShape for Fixed<X, Y, Z> {
    #[inline(always)]
    fn fits(block: Dim3) -> bool {
        block == Dim3::new(X, Y, Z)
    }

    #[inline(always)]
    fn extents(_actual: Dim3) -> (u32, u32, u32) {
        (X, Y, Z)
    }
}

static NEXT_RUN: AtomicU64 = AtomicU64::new(1);

/// What every block of one [`run_blocks`] call shares, and the per-block state the body
/// reaches through [`BlockCtx`].
struct BlockData<'b> {
    kernel: &'b str,
    grid_dim: Dim3,
    block_dim: Dim3,
    block_idx: Dim3,
    block_linear: u64,
    /// The linear index of the block this thread runs next, when known (`next_block_idx`).
    next_block: Option<u64>,
    threads: u32,
    run: u64,
    /// The work-item running now (named by a fault).
    current: Cell<u32>,
    /// How many work-items have returned.
    exited: Cell<u32>,
    arena: &'b Arena,
}

/// What a block body receives: the block's coordinates and shape, the region loop over its
/// work-items, barriers and uniform decisions, and its memory (shared, dynamic shared, context
/// and local arrays) as plain [`BlockArray`]s.
///
/// `S` is the block shape the body was compiled for ([`Dyn`] or [`Fixed`]). A work-item is
/// named by its linear index `w` in the block (x fastest, as CUDA's linear thread id).
///
/// ```
/// use rumba::kernel::{GlobalView, LaunchConfig};
/// use rumba::kernel::wil::{run_blocks, BarrierKind, BarrierSite, Dyn};
/// // Reverse each block of 4, as a per-thread kernel with one barrier would.
/// let mut d = [1, 2, 3, 4, 5, 6, 7, 8];
/// let v = GlobalView::from_slice_mut(&mut d);
/// const SYNC: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
/// run_blocks::<Dyn, _>("rev", &LaunchConfig::new(2, 4), |blk| {
///     let s = blk.shared_array::<i32, 1>([4]);
///     let base = blk.block_idx().x as usize * 4;
///     blk.each(|w, tid| s.set(tid.x as usize, v.get(base + w as usize)));
///     if blk.barrier(&SYNC, 0).is_none() {
///         return;
///     }
///     blk.each(|w, tid| v.set(base + w as usize, s.get(3 - tid.x as usize)));
/// })
/// .unwrap();
/// assert_eq!(d, [4, 3, 2, 1, 8, 7, 6, 5]);
/// ```
pub struct BlockCtx<'b, S: BlockShape = Dyn> {
    data: &'b BlockData<'b>,
    _shape: PhantomData<S>,
}

impl<'b, S: BlockShape> BlockCtx<'b, S> {
    /// `blockIdx`.
    #[inline(always)]
    pub fn block_idx(&self) -> Dim3 {
        self.data.block_idx
    }

    /// `blockDim` (constant for a [`Fixed`] shape).
    #[inline(always)]
    pub fn block_dim(&self) -> Dim3 {
        let (x, y, z) = S::extents(self.data.block_dim);
        Dim3::new(x, y, z)
    }

    /// `gridDim`.
    #[inline(always)]
    pub fn grid_dim(&self) -> Dim3 {
        self.data.grid_dim
    }

    /// The block's linear index in the grid (x fastest).
    #[inline(always)]
    pub fn block_linear(&self) -> u64 {
        self.data.block_linear
    }

    /// The `blockIdx` of the block this OS thread runs right after this one, when it knows it
    /// (the next block of the run of blocks it claimed): what a body may ask the memory system
    /// to fetch ahead ([`GlobalIn::prefetch_run`](super::GlobalIn::prefetch_run)). Only a hint
    /// of what comes next: a fault may stop the run first.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use rumba::kernel::{Dim3, LaunchConfig};
    /// use rumba::kernel::wil::{run_blocks_with, Dyn};
    /// use rumba::kernel::ExecOptions;
    /// let seen = Mutex::new(Vec::new());
    /// let serial = ExecOptions { parallel: false, ..ExecOptions::default() };
    /// run_blocks_with::<Dyn, _>("k", &LaunchConfig::new(3, 1), &serial, |blk| {
    ///     seen.lock().unwrap().push((blk.block_idx().x, blk.next_block_idx().map(|b| b.x)));
    /// })
    /// .unwrap();
    /// assert_eq!(seen.into_inner().unwrap(), [(0, Some(1)), (1, Some(2)), (2, None)]);
    /// ```
    #[inline(always)]
    pub fn next_block_idx(&self) -> Option<Dim3> {
        // Turned into an index only here: most bodies never ask.
        let b = self.data.next_block?;
        Some(Dim3::from_linear(b, self.data.grid_dim))
    }

    /// Work-items in the block.
    #[inline(always)]
    pub fn threads(&self) -> u32 {
        let (x, y, z) = S::extents(self.data.block_dim);
        x * y * z
    }

    /// The launch's kernel name.
    pub fn kernel_name(&self) -> &str {
        self.data.kernel
    }

    /// Identifies the [`run_blocks`] call this block belongs to (unique per call).
    #[inline(always)]
    pub(crate) fn run_id(&self) -> u64 {
        self.data.run
    }

    /// Coordinates of work-item `w`.
    #[inline(always)]
    pub fn thread_idx(&self, w: u32) -> Dim3 {
        let (x, y, _) = S::extents(self.data.block_dim);
        Dim3::new(w % x, (w / x) % y, w / (x * y))
    }

    /// One region: calls `f(w, thread_idx)` for every live work-item in linear order (x
    /// fastest), recording `w` so that a fault inside names that thread.
    #[inline(always)]
    pub fn each(&self, f: impl FnMut(u32, Dim3)) {
        let bx = S::extents(self.data.block_dim).0;
        self.each_x_from(0, bx, f);
    }

    /// A region whose work is all under a condition that only work-items with `x` in
    /// `lo..hi` can meet (for example `if tid < stride`, its body still testing it): calls
    /// `f(w, thread_idx)` for the live work-items with `thread_idx.x` in `lo..hi` (clamped to
    /// the block), in linear order. The others would have done nothing; skipping them is what
    /// saves a tree reduction's halving steps most of their iterations.
    #[inline(always)]
    pub fn each_x(&self, lo: i128, hi: i128, f: impl FnMut(u32, Dim3)) {
        let bx = S::extents(self.data.block_dim).0;
        let clamp = |v: i128| v.clamp(0, i128::from(bx)) as u32;
        let (lo, hi) = (clamp(lo), clamp(hi));
        if lo < hi {
            self.each_x_from(lo, hi, f);
        } else {
            self.data.current.set(self.first_live());
        }
    }

    /// [`each`](Self::each) over `x` in `lo..hi` (`hi` at most the block's width).
    #[inline(always)]
    fn each_x_from(&self, lo: u32, hi: u32, mut f: impl FnMut(u32, Dim3)) {
        let (bx, by, bz) = S::extents(self.data.block_dim);
        let current = &self.data.current;
        // One call site for `f`, so that it is inlined into the loop; the liveness test is
        // loop-invariant until the first `exit`, which is rare.
        let some_exited = self.data.exited.get() != 0;
        let alive = &self.data.arena.alive;
        for z in 0..bz {
            for y in 0..by {
                let row = (z * by + y) * bx;
                for x in lo..hi {
                    let w = row + x;
                    if !some_exited || alive[w as usize].get() {
                        current.set(w);
                        f(w, Dim3::new(x, y, z));
                    }
                }
            }
        }
        // Code between regions runs once for every live work-item: a fault there is the first
        // live one's, as on the coroutine engine, where thread 0 (or the first live) runs first.
        current.set(self.first_live());
    }

    /// One region as groups of `L` work-items side by side (a lane loop, whose code the kernel
    /// compiler made so that a group's arithmetic becomes SIMD): `group(w0, n)` for work-items
    /// `w0..w0 + n` in linear order, `n` being `L` except for a last, smaller group. A group
    /// faults only where each of its work-items would, at the same point, so a fault inside
    /// names its first work-item, the one the per-work-item order meets first. A block some of
    /// whose work-items have exited runs `single` per live work-item instead, as
    /// [`each`](Self::each) does.
    #[inline(always)]
    pub fn each_lanes<const L: usize, G: FnMut(u32, usize), F: FnMut(u32, Dim3)>(
        &self,
        mut group: G,
        single: F,
    ) {
        const { assert!(L > 0, "a group has at least one work-item") };
        if self.data.exited.get() != 0 {
            return self.each(single);
        }
        let n = self.threads();
        let width = L as u32;
        let current = &self.data.current;
        let mut w0 = 0u32;
        while n - w0 >= width {
            current.set(w0);
            group(w0, L);
            w0 += width;
        }
        if w0 < n {
            current.set(w0);
            group(w0, (n - w0) as usize);
        }
        current.set(0);
    }

    /// The first live work-item (0 when none is).
    #[inline(always)]
    pub(super) fn first_live(&self) -> u32 {
        if self.data.exited.get() == 0 {
            return 0;
        }
        let alive = &self.data.arena.alive[..self.threads() as usize];
        alive.iter().position(Cell::get).unwrap_or(0) as u32
    }

    /// One region over a block part of whose work-items may take a faster body: `inner(w,
    /// inside)` for the live work-items whose `(thread_idx.y, thread_idx.x)` lies in `interior`
    /// (`inside` says so: the windows of [`Halo`](super::Halo) and
    /// [`OwnWindow`](super::OwnWindow) then check only once per region that `interior` is theirs),
    /// `outer(w, thread_idx)` for the others — every one once, in linear order (x fastest),
    /// recording `w` as [`each`](Self::each) does. An interior that is empty or does not fit the
    /// block serves nothing. The interior's work-items of a row are one counted loop, which the
    /// compiler can vectorise.
    #[inline(always)]
    pub fn each_split(
        &self,
        interior: Interior,
        mut inner: impl FnMut(u32, Inside),
        mut outer: impl FnMut(u32, Dim3),
    ) {
        let (bx, by, bz) = S::extents(self.data.block_dim);
        let ((ys, ye), (xs, xe)) = (interior.y, interior.x);
        if !(xs < xe && xe <= bx && ys < ye && ye <= by) {
            // An interior that is empty or does not fit the block serves nothing.
            return self.each(outer);
        }
        let current = &self.data.current;
        let some_exited = self.data.exited.get() != 0;
        let alive = &self.data.arena.alive;
        let mut w = 0u32;
        for z in 0..bz {
            for y in 0..by {
                // The interior's rows and columns in the form windows check them, so that the
                // compiler sees their checks hold.
                if y.wrapping_sub(ys) >= ye - ys {
                    for x in 0..bx {
                        if !some_exited || alive[w as usize].get() {
                            current.set(w);
                            outer(w, Dim3::new(x, y, z));
                        }
                        w += 1;
                    }
                    continue;
                }
                let mut x = 0;
                while x < bx {
                    if x == xs {
                        for x in xs..xe {
                            let w = w + (x - xs);
                            if !some_exited || alive[w as usize].get() {
                                current.set(w);
                                inner(w, Inside::new(Dim3::new(x, y, z), interior));
                            }
                        }
                        w += xe - xs;
                        x = xe;
                        continue;
                    }
                    if !some_exited || alive[w as usize].get() {
                        current.set(w);
                        outer(w, Dim3::new(x, y, z));
                    }
                    w += 1;
                    x += 1;
                }
            }
        }
        current.set(self.first_live());
    }

    /// Work-item `w` returns from the kernel (a `return` in thread-dependent control flow): it
    /// runs no later region. Returning twice is returning once.
    #[inline]
    pub fn exit(&self, w: u32) {
        if let Some(a) = self.data.arena.alive.get(w as usize) {
            if a.replace(false) {
                self.data.exited.set(self.data.exited.get() + 1);
                self.data.arena.alive_dirty.set(true);
            }
        }
    }

    /// Whether every work-item has returned (the block is done).
    #[inline]
    pub fn all_exited(&self) -> bool {
        self.data.exited.get() == self.threads()
    }

    /// Whether some work-item has returned.
    #[inline(always)]
    pub(super) fn some_exited(&self) -> bool {
        self.data.exited.get() != 0
    }

    /// Names work-item `w` as the one running: a fault raised next names it.
    #[inline]
    pub(super) fn set_current(&self, w: u32) {
        self.data.current.set(w);
    }

    /// Whether work-item `w` is still running.
    #[inline]
    pub fn is_alive(&self, w: u32) -> bool {
        self.data.arena.alive.get(w as usize).is_some_and(Cell::get)
    }

    /// A barrier at `site`, after the region that computed its predicate: `trues` is how many
    /// live work-items passed a true predicate (ignored by `syncthreads`).
    ///
    /// Returns the barrier's value for every work-item (0 for `syncthreads`, the count, or 1/0
    /// for `and`/`or`), or `None` when every work-item has returned (the block is done: the
    /// body returns). Faults — a divergent barrier naming a waiting thread — when some
    /// work-items returned and others reach the barrier, exactly as the coroutine engine does.
    #[inline]
    pub fn barrier(&self, site: &BarrierSite, trues: u32) -> Option<i32> {
        let exited = self.data.exited.get();
        let n = self.threads();
        if exited != 0 {
            if exited == n {
                return None;
            }
            self.divergent_exit(site);
        }
        Some(match site.kind {
            BarrierKind::Sync => 0,
            BarrierKind::Count => trues as i32,
            BarrierKind::And => (trues == n) as i32,
            BarrierKind::Or => (trues > 0) as i32,
        })
    }

    #[cold]
    #[inline(never)]
    fn divergent_exit(&self, site: &BarrierSite) -> ! {
        let alive = &self.data.arena.alive[..self.threads() as usize];
        let waiting = alive.iter().position(Cell::get).unwrap_or(0) as u32;
        let gone = alive.iter().position(|a| !a.get()).unwrap_or(0) as u32;
        let arrived = alive.iter().filter(|a| a.get()).count();
        self.data.current.set(waiting);
        fault::raise(format!(
            "divergent barrier: thread {} waits at {site} but thread {} exited without reaching it ({arrived} of {} threads arrived)",
            self.thread_idx(waiting),
            self.thread_idx(gone),
            self.threads()
        ))
    }

    /// The value every live work-item decided at `site`, or `None` when none is live (the
    /// block is done: the body returns). Faults with a divergent-barrier fault naming the first
    /// live work-item when two decided differently.
    #[inline]
    pub fn uniform<T: Copy + PartialEq + fmt::Debug>(
        &self,
        decision: Decision<T>,
        site: &DecisionSite,
    ) -> Option<T> {
        match (decision.first, decision.other) {
            (None, _) => None,
            (Some((_, v)), None) => Some(v),
            (Some(a), Some(b)) => self.divergent_decision(a, b, site),
        }
    }

    #[cold]
    #[inline(never)]
    fn divergent_decision<T: fmt::Debug>(
        &self,
        (w0, v0): (u32, T),
        (w1, v1): (u32, T),
        site: &DecisionSite,
    ) -> ! {
        self.data.current.set(w0);
        fault::raise(format!(
            "divergent barrier: the threads of the block disagree on {site}, which controls a barrier: thread {} has {v0:?} but thread {} has {v1:?}",
            self.thread_idx(w0),
            self.thread_idx(w1),
        ))
    }

    /// `laneid` of work-item `w`: its linear index modulo the warp size (32).
    #[inline(always)]
    pub fn lane_id(&self, w: u32) -> u32 {
        w % WARP_SIZE
    }

    /// `threadfence()` in a region: a sequentially consistent fence (blocks run on different OS
    /// threads), as [`ThreadCtx::threadfence`](crate::kernel::ThreadCtx::threadfence).
    #[inline]
    pub fn threadfence(&self) {
        fence(Ordering::SeqCst);
    }

    /// `threadfence_block()`: the block's work-items run on one OS thread, in order, so a
    /// compiler fence is the exact equivalent.
    #[inline]
    pub fn threadfence_block(&self) {
        compiler_fence(Ordering::SeqCst);
    }

    /// `threadfence_system()`: a sequentially consistent fence.
    #[inline]
    pub fn threadfence_system(&self) {
        fence(Ordering::SeqCst);
    }

    /// Fails the launch naming the work-item running now, like
    /// [`ThreadCtx::fault`](crate::kernel::ThreadCtx::fault).
    pub fn fault(&self, message: impl Into<String>) -> ! {
        fault::raise(message.into())
    }

    /// `cuda.shared.array(dims, T)`: a zeroed shared array for the whole block. Faults when the
    /// block's shared memory is exhausted. A block body declares its shared arrays once, at its
    /// start.
    #[inline(always)]
    pub fn shared_array<T: Pod, const D: usize>(&self, dims: [usize; D]) -> BlockArray<'b, T, D> {
        self.data.arena.shared(dims)
    }

    /// `cuda.shared.array(0, T)`: the launch's dynamic shared memory as a 1-d array of `T`.
    #[inline]
    pub fn dynamic_shared<T: Pod>(&self) -> BlockArray<'b, T, 1> {
        self.data.arena.dynamic()
    }

    /// A zeroed context array: one `T` per work-item, for a thread-varying value that lives
    /// across a barrier. Index it with `w`.
    #[inline(always)]
    pub fn context<T: Pod>(&self) -> BlockArray<'b, T, 1> {
        self.context_array([self.threads() as usize])
    }

    /// A zeroed context array of `D`-dimensional values per work-item: `dims[0]` should be
    /// [`threads`](Self::threads) (index `(w, …)`). Context arrays hold what a GPU keeps in a
    /// thread's registers or local memory, so their bytes, spread over the block's threads,
    /// count against [`LOCAL_MEMORY_PER_THREAD`](crate::kernel::LOCAL_MEMORY_PER_THREAD).
    #[inline(always)]
    pub fn context_array<T: Pod, const D: usize>(&self, dims: [usize; D]) -> BlockArray<'b, T, D> {
        let bytes = dims
            .iter()
            .try_fold(size_of::<T>(), |a, &d| a.checked_mul(d))
            .map(|b| b.div_ceil(self.threads() as usize));
        self.data.arena.add_local(bytes, || {
            format!(
                "context array of shape {} of {}",
                crate::error::format_shape(&dims),
                std::any::type_name::<T>()
            )
        });
        self.data.arena.scratch(dims, Space::Context)
    }

    /// `cuda.local.array(dims, T)` for every work-item: work-item `w`'s array is
    /// [`of(w)`](LocalArrays::of). Counts against each thread's
    /// [`LOCAL_MEMORY_PER_THREAD`](crate::kernel::LOCAL_MEMORY_PER_THREAD).
    pub fn local_arrays<T: Pod, const D: usize>(&self, dims: [usize; D]) -> LocalArrays<'b, T, D> {
        let each = dims
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .and_then(|n| n.checked_mul(size_of::<T>()));
        self.data.arena.add_local(each, || {
            format!(
                "local array of shape {} of {}",
                crate::error::format_shape(&dims),
                std::any::type_name::<T>()
            )
        });
        let total = dims
            .iter()
            .product::<usize>()
            .saturating_mul(self.threads() as usize);
        let all = self.data.arena.scratch([total], Space::Local);
        LocalArrays::new(all, self.threads(), dims)
    }
}

/// Runs `body` once per block of the grid described by `config`, with the default
/// [`ExecOptions`]: the work-item-loop engine. See [`run_blocks_with`].
///
/// # Errors
/// As [`run_blocks_with`].
pub fn run_blocks<S, F>(kernel_name: &str, config: &LaunchConfig, body: F) -> Result<()>
where
    S: BlockShape,
    F: for<'b> Fn(&BlockCtx<'b, S>) + Sync,
{
    run_blocks_with(kernel_name, config, &ExecOptions::default(), body)
}

/// Runs `body` once per block of `config`'s grid: blocks spread over the calling thread and
/// the block helpers exactly as [`run_grid_with`](crate::kernel::run_grid_with) spreads them
/// (`options.parallel`; `fast_path` does not apply), each with a fresh [`BlockCtx`] over the
/// worker's arena.
///
/// # Errors
/// [`Error::InvalidLaunch`] for an invalid configuration or a block shape `S` does not fit;
/// [`Error::KernelFault`] naming `kernel_name`, the block and the work-item that was running
/// when the body faulted (out of bounds, a panic, [`BlockCtx::fault`], a divergent barrier or
/// decision). With several faulting blocks, the one with the lowest linear index is reported.
///
/// ```
/// use rumba::kernel::LaunchConfig;
/// use rumba::kernel::wil::{run_blocks, Fixed};
/// let err = run_blocks::<Fixed<8, 1, 1>, _>("k", &LaunchConfig::new(2, 8), |blk| {
///     blk.each(|w, _| if w == 5 && blk.block_idx().x == 1 { blk.fault("five") });
/// })
/// .unwrap_err();
/// assert!(matches!(err, rumba::Error::KernelFault { block: [1, 0, 0], thread: [5, 0, 0], .. }));
/// assert!(run_blocks::<Fixed<8, 1, 1>, _>("k", &LaunchConfig::new(1, 4), |_| {}).is_err());
/// ```
pub fn run_blocks_with<S, F>(
    kernel_name: &str,
    config: &LaunchConfig,
    options: &ExecOptions,
    body: F,
) -> Result<()>
where
    S: BlockShape,
    F: for<'b> Fn(&BlockCtx<'b, S>) + Sync,
{
    config.validate()?;
    if !S::fits(config.block) {
        return Err(Error::InvalidLaunch {
            grid: config.grid.to_array(),
            block: config.block.to_array(),
            dynamic_shared_bytes: config.dynamic_shared_bytes,
            reason: format!(
                "kernel '{kernel_name}' has a block body specialised for block shape {:?}",
                S::extents(config.block)
            ),
        });
    }
    tracing::trace!(kernel = kernel_name, grid = %config.grid, block = %config.block, "launch (work-item loops)");
    let run = NEXT_RUN.fetch_add(1, Relaxed);
    let threads = config.threads_per_block() as u32;
    schedule(
        kernel_name,
        config,
        options.parallel,
        |block_idx, next_block| {
            with_arena(|arena| {
                arena.begin_block(threads as usize, config.dynamic_shared_bytes);
                let data = BlockData {
                    kernel: kernel_name,
                    grid_dim: config.grid,
                    block_dim: config.block,
                    block_idx,
                    block_linear: block_idx.linear_in(config.grid),
                    next_block,
                    threads,
                    run,
                    current: Cell::new(0),
                    exited: Cell::new(0),
                    arena,
                };
                let ctx = BlockCtx::<S> {
                    data: &data,
                    _shape: PhantomData,
                };
                run_one(&ctx, &body)
            })
        },
    )
}

/// Runs one block body, catching its fault and naming the work-item that was running.
fn run_one<S: BlockShape, F>(
    ctx: &BlockCtx<'_, S>,
    body: &F,
) -> std::result::Result<(), ThreadFault>
where
    F: for<'b> Fn(&BlockCtx<'b, S>),
{
    match catch_unwind(AssertUnwindSafe(|| body(ctx))) {
        Ok(()) => Ok(()),
        Err(payload) => {
            let w = ctx
                .data
                .current
                .get()
                .min(ctx.data.threads.saturating_sub(1));
            Err((
                w,
                match describe(payload) {
                    Unwound::Fault(m) => m,
                    Unwound::Barrier(_) => "a per-thread barrier (ThreadCtx::syncthreads) was reached inside a block body, which has no per-thread context".into(),
                },
            ))
        }
    }
}

thread_local! {
    static ARENA: RefCell<Option<Box<Arena>>> = const { RefCell::new(None) };
}

/// Runs `f` with this worker's arena, taken out of the thread-local for the duration (a nested
/// launch from inside a block body gets a fresh one).
fn with_arena<R>(f: impl FnOnce(&mut Arena) -> R) -> R {
    let mut arena = ARENA
        .with(|a| a.borrow_mut().take())
        .unwrap_or_else(|| Box::new(Arena::new()));
    let r = f(&mut arena);
    ARENA.with(|a| *a.borrow_mut() = Some(arena));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_is_reused_across_blocks_and_launches() {
        let cfg = LaunchConfig::new(4, 64);
        let opts = ExecOptions {
            fast_path: true,
            parallel: false,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        for _ in 0..2 {
            run_blocks_with::<Dyn, _>("a", &cfg, &opts, |blk| {
                let c = blk.context::<u64>();
                blk.each(|w, _| {
                    assert_eq!(c.get(w as usize), 0, "context arrays start zeroed");
                    c.set(w as usize, 1);
                });
                seen.lock().unwrap().push(c.as_ptr() as usize);
            })
            .unwrap();
        }
        let seen = seen.into_inner().unwrap();
        assert!(seen.iter().all(|&p| p == seen[0]), "{seen:?}");
    }
}
