//! [`ThreadCtx`]: what a kernel body sees of the GPU — its coordinates, barriers, fences,
//! shared and local memory, and a way to fail.
//!
//! A context is created by the block runner for each GPU thread and lent to the kernel body for
//! the thread's lifetime. It reaches the block's shared memory and the thread's local arena, and
//! suspends the thread's coroutine at barriers; it touches nothing else.

use std::panic::Location;
use std::sync::atomic::{Ordering, compiler_fence, fence};

use bytemuck::Pod;
use corosensei::Yielder;

use super::barrier::{Arrival, BarrierKind};
use super::dim::{Dim3, WARP_SIZE};
use super::fault::{self, PlainBarrier};
use super::local::LocalArena;
use super::shape::IntoShape;
use super::shared::{SharedMemory, SiteKey};
use super::view::{LocalArray, SharedArray};
use super::warp::Suspend;

/// ROC's `CLK_LOCAL_MEM_FENCE`, a flag of [`ThreadCtx::barrier`] (OpenCL's value).
pub const CLK_LOCAL_MEM_FENCE: u32 = 1;

/// ROC's `CLK_GLOBAL_MEM_FENCE`, a flag of [`ThreadCtx::barrier`] (OpenCL's value).
pub const CLK_GLOBAL_MEM_FENCE: u32 = 2;

/// What every thread of a block shares.
pub(crate) struct BlockInfo<'a> {
    pub(crate) kernel: &'a str,
    pub(crate) grid_dim: Dim3,
    pub(crate) block_dim: Dim3,
    pub(crate) block_idx: Dim3,
    pub(crate) shared: &'a SharedMemory,
}

/// A barrier predicate: `bool`, or an integer that counts as true when non-zero (as in CUDA).
///
/// ```
/// use rumba::kernel::Predicate;
/// assert!(3i16.truth());
/// assert!(!0u64.truth());
/// assert!(true.truth());
/// ```
pub trait Predicate: Copy {
    /// Whether the predicate holds.
    fn truth(self) -> bool;
}

impl Predicate for bool {
    fn truth(self) -> bool {
        self
    }
}

macro_rules! int_predicates {
    ($($t:ty),+) => {$(
        impl Predicate for $t {
            fn truth(self) -> bool {
                self != 0
            }
        }
    )+};
}
int_predicates!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// The in-kernel view of one GPU thread: Numba's `cuda.threadIdx`, `cuda.syncthreads()`,
/// `cuda.shared.array(...)` and friends.
///
/// A body written against it runs on the coroutine engine, one coroutine per GPU thread. The
/// faster work-item-loop engine runs whole-block bodies written against
/// [`BlockCtx`](super::wil::BlockCtx) instead (what `#[rumba::kernel]` generates next to the
/// per-thread body); see [`wil`](super::wil).
///
/// ```
/// use rumba::kernel::{run_grid, GlobalView, LaunchConfig};
/// let mut out = vec![0u32; 8];
/// let v = GlobalView::from_slice_mut(&mut out);
/// run_grid("ids", &LaunchConfig::new(2, 4), |t| {
///     v.set(t.grid1(), t.block_idx().x * 10 + t.thread_idx().x);
/// })
/// .unwrap();
/// assert_eq!(out, [0, 1, 2, 3, 10, 11, 12, 13]);
/// ```
pub struct ThreadCtx<'a> {
    pub(crate) block: &'a BlockInfo<'a>,
    pub(crate) thread_idx: Dim3,
    pub(crate) linear: u32,
    pub(crate) yielder: Option<&'a Yielder<u64, Suspend>>,
    pub(crate) local: &'a LocalArena,
}

impl ThreadCtx<'_> {
    /// `threadIdx`: this thread's coordinates in its block.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, (2, 2)), |t| assert!(t.thread_idx().y < 2)).unwrap();
    /// ```
    #[inline]
    pub fn thread_idx(&self) -> Dim3 {
        self.thread_idx
    }

    /// `blockIdx`: this block's coordinates in the grid.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((1, 3), 1), |t| assert!(t.block_idx().y < 3)).unwrap();
    /// ```
    #[inline]
    pub fn block_idx(&self) -> Dim3 {
        self.block.block_idx
    }

    /// `blockDim`: the block's size.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 8), |t| assert_eq!(t.block_dim(), Dim3::new(8, 1, 1))).unwrap();
    /// ```
    #[inline]
    pub fn block_dim(&self) -> Dim3 {
        self.block.block_dim
    }

    /// `gridDim`: the grid's size in blocks.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((4, 2), 1), |t| assert_eq!(t.grid_dim().count(), 8)).unwrap();
    /// ```
    #[inline]
    pub fn grid_dim(&self) -> Dim3 {
        self.block.grid_dim
    }

    /// The launch's kernel name.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("named", &LaunchConfig::new(1, 1), |t| assert_eq!(t.kernel_name(), "named")).unwrap();
    /// ```
    pub fn kernel_name(&self) -> &str {
        self.block.kernel
    }

    /// `cuda.grid(1)`: the absolute thread index along x.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(3, 4), |t| assert!(t.grid1() < 12)).unwrap();
    /// ```
    #[inline]
    pub fn grid1(&self) -> usize {
        let (b, d, t) = (self.block.block_idx, self.block.block_dim, self.thread_idx);
        b.x as usize * d.x as usize + t.x as usize
    }

    /// `cuda.grid(2)`: the absolute thread index along x and y.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((2, 2), (2, 2)), |t| {
    ///     let (x, y) = t.grid2();
    ///     assert!(x < 4 && y < 4);
    /// })
    /// .unwrap();
    /// ```
    #[inline]
    pub fn grid2(&self) -> (usize, usize) {
        let (b, d, t) = (self.block.block_idx, self.block.block_dim, self.thread_idx);
        (
            b.x as usize * d.x as usize + t.x as usize,
            b.y as usize * d.y as usize + t.y as usize,
        )
    }

    /// `cuda.grid(3)`: the absolute thread index along x, y and z.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((1, 1, 2), (1, 1, 3)), |t| assert!(t.grid3().2 < 6)).unwrap();
    /// ```
    #[inline]
    pub fn grid3(&self) -> (usize, usize, usize) {
        let (x, y) = self.grid2();
        let (b, d, t) = (self.block.block_idx, self.block.block_dim, self.thread_idx);
        (x, y, b.z as usize * d.z as usize + t.z as usize)
    }

    /// `cuda.gridsize(1)`: threads in the whole grid along x (the stride of a grid-stride loop).
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(3, 4), |t| assert_eq!(t.gridsize1(), 12)).unwrap();
    /// ```
    #[inline]
    pub fn gridsize1(&self) -> usize {
        self.block.grid_dim.x as usize * self.block.block_dim.x as usize
    }

    /// `cuda.gridsize(2)`: threads in the whole grid along x and y.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((3, 2), (4, 5)), |t| assert_eq!(t.gridsize2(), (12, 10))).unwrap();
    /// ```
    #[inline]
    pub fn gridsize2(&self) -> (usize, usize) {
        let (g, d) = (self.block.grid_dim, self.block.block_dim);
        (g.x as usize * d.x as usize, g.y as usize * d.y as usize)
    }

    /// `cuda.gridsize(3)`: threads in the whole grid along x, y and z.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new((1, 1, 2), (1, 1, 3)), |t| assert_eq!(t.gridsize3(), (1, 1, 6))).unwrap();
    /// ```
    #[inline]
    pub fn gridsize3(&self) -> (usize, usize, usize) {
        let (x, y) = self.gridsize2();
        let (g, d) = (self.block.grid_dim, self.block.block_dim);
        (x, y, g.z as usize * d.z as usize)
    }

    /// `warpSize`: 32.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 1), |t| assert_eq!(t.warp_size(), 32)).unwrap();
    /// ```
    #[inline]
    pub fn warp_size(&self) -> u32 {
        WARP_SIZE
    }

    /// `laneid`: this thread's position in its warp (linear thread index modulo 32).
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 64), |t| assert_eq!(t.lane_id(), t.thread_idx().x % 32)).unwrap();
    /// ```
    #[inline]
    pub fn lane_id(&self) -> u32 {
        self.linear % WARP_SIZE
    }

    #[track_caller]
    #[inline]
    fn block_barrier(&self, kind: BarrierKind, pred: bool) -> i32 {
        let arrival = Arrival {
            site: Location::caller(),
            kind,
            pred,
        };
        match self.yielder {
            Some(y) => y.suspend(Suspend::Block(arrival)) as u32 as i32,
            // The fast path runs this thread without a coroutine; it cannot wait. Unwind to the
            // block runner, which records the arrival (see `exec`).
            None => std::panic::resume_unwind(Box::new(PlainBarrier(arrival))),
        }
    }

    /// `syncthreads()`: waits until every thread of the block reaches this same call site.
    ///
    /// If some threads of the block have exited, or wait at a different `syncthreads*` call,
    /// the launch fails with a divergent-barrier [`KernelFault`](crate::Error::KernelFault)
    /// instead of hanging.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// let mut out = [0i32; 4];
    /// let o = GlobalView::from_slice_mut(&mut out);
    /// run_grid("rotate", &LaunchConfig::new(1, 4), |t| {
    ///     let s = t.shared_array::<i32>(4);
    ///     let i = t.thread_idx().x as usize;
    ///     s.set(i, i as i32);
    ///     t.syncthreads();
    ///     o.set(i, s.get((i + 1) % 4));
    /// })
    /// .unwrap();
    /// assert_eq!(out, [1, 2, 3, 0]);
    /// ```
    #[track_caller]
    #[inline]
    pub fn syncthreads(&self) {
        self.block_barrier(BarrierKind::Sync, false);
    }

    /// ROC's `barrier(flags)`: the work-group barrier, here [`syncthreads`](Self::syncthreads).
    /// `flags` is [`CLK_LOCAL_MEM_FENCE`], [`CLK_GLOBAL_MEM_FENCE`] or both (`|`); every
    /// barrier of the simulator orders both memories, so the flags change nothing.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// let mut out = [0i32; 4];
    /// let o = GlobalView::from_slice_mut(&mut out);
    /// run_grid("rotate", &LaunchConfig::new(1, 4), |t| {
    ///     let s = t.shared_array::<i32>(4);
    ///     let i = t.thread_idx().x as usize;
    ///     s.set(i, 10 * i as i32);
    ///     t.barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    ///     o.set(i, s.get(3 - i));
    /// })
    /// .unwrap();
    /// assert_eq!(out, [30, 20, 10, 0]);
    /// ```
    #[track_caller]
    #[inline]
    pub fn barrier(&self, flags: u32) {
        let _ = flags;
        self.block_barrier(BarrierKind::Sync, false);
    }

    /// `syncthreads_count(pred)`: a barrier that returns, in every thread, how many threads
    /// passed a true predicate.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 10), |t| {
    ///     assert_eq!(t.syncthreads_count(t.thread_idx().x < 3), 3);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    #[inline]
    pub fn syncthreads_count(&self, pred: impl Predicate) -> i32 {
        self.block_barrier(BarrierKind::Count, pred.truth())
    }

    /// `syncthreads_and(pred)`: a barrier that returns 1 in every thread if all predicates were
    /// true, else 0.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 10), |t| assert_eq!(t.syncthreads_and(1i32), 1)).unwrap();
    /// ```
    #[track_caller]
    #[inline]
    pub fn syncthreads_and(&self, pred: impl Predicate) -> i32 {
        self.block_barrier(BarrierKind::And, pred.truth())
    }

    /// `syncthreads_or(pred)`: a barrier that returns 1 in every thread if any predicate was
    /// true, else 0.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 10), |t| {
    ///     assert_eq!(t.syncthreads_or(t.thread_idx().x == 9), 1);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    #[inline]
    pub fn syncthreads_or(&self, pred: impl Predicate) -> i32 {
        self.block_barrier(BarrierKind::Or, pred.truth())
    }

    /// `threadfence()`: orders this thread's memory accesses for every thread of the device —
    /// a sequentially consistent hardware fence, since blocks run on different OS threads.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 1), |t| t.threadfence()).unwrap();
    /// ```
    pub fn threadfence(&self) {
        fence(Ordering::SeqCst);
    }

    /// `threadfence_block()`: orders this thread's memory accesses for the threads of its block.
    /// All threads of a block run on one OS thread, so a compiler fence is the exact equivalent.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 1), |t| t.threadfence_block()).unwrap();
    /// ```
    pub fn threadfence_block(&self) {
        compiler_fence(Ordering::SeqCst);
    }

    /// `threadfence_system()`: orders this thread's memory accesses for the device and the host
    /// — a sequentially consistent hardware fence.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 1), |t| t.threadfence_system()).unwrap();
    /// ```
    pub fn threadfence_system(&self) {
        fence(Ordering::SeqCst);
    }

    /// `cuda.shared.array(shape, dtype)`: a static shared array, zeroed, allocated once per block
    /// for the whole kernel. Every thread of the block calling from the same source location
    /// gets the same array; different call sites get different arrays. Faults if the block's
    /// shared memory ([`SHARED_MEMORY_PER_BLOCK`](super::SHARED_MEMORY_PER_BLOCK)) is exhausted
    /// or the same site is reached with another shape or type.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 2), |t| {
    ///     let a = t.shared_array::<f32>((2, 3));
    ///     let b = t.shared_array::<f32>((2, 3));
    ///     assert_eq!(a.size(), 6);
    ///     assert_ne!(a.as_ptr(), b.as_ptr()); // two declarations, two arrays
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn shared_array<T: Pod>(&self, shape: impl IntoShape) -> SharedArray<'_, T> {
        let key = SiteKey::Caller(Location::caller());
        self.block.shared.static_array(key, shape.into_dims())
    }

    /// A static shared array identified by `name` instead of the call site — for helpers that
    /// must share one array across several call sites.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 1), |t| {
    ///     let a = t.shared_array_named::<u8>("tile", 4);
    ///     let b = t.shared_array_named::<u8>("tile", 4);
    ///     assert_eq!(a.as_ptr(), b.as_ptr());
    /// })
    /// .unwrap();
    /// ```
    pub fn shared_array_named<T: Pod>(
        &self,
        name: &'static str,
        shape: impl IntoShape,
    ) -> SharedArray<'_, T> {
        self.block
            .shared
            .static_array(SiteKey::Named(name), shape.into_dims())
    }

    /// `cuda.shared.array(0, dtype)`: the launch's dynamic shared memory as a 1-d array of `T`
    /// (`dynamic_shared_bytes / size_of::<T>()` elements). Every call, with any `T`, aliases the
    /// same bytes; slices of it are views of those bytes.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// let cfg = LaunchConfig::new(1, 1).with_dynamic_shared_bytes(16);
    /// run_grid("k", &cfg, |t| {
    ///     let words = t.dynamic_shared::<u32>();
    ///     let bytes = t.dynamic_shared::<u8>();
    ///     words.set(1, 0x0102_0304);
    ///     assert_eq!((words.len(), bytes.len()), (4, 16));
    ///     assert_eq!(bytes.get(4), 0x04); // little-endian
    /// })
    /// .unwrap();
    /// ```
    pub fn dynamic_shared<T: Pod>(&self) -> SharedArray<'_, T> {
        self.block.shared.dynamic_array()
    }

    /// `cuda.local.array(shape, dtype)`: a zeroed array private to this thread. Faults beyond
    /// [`LOCAL_MEMORY_PER_THREAD`](super::LOCAL_MEMORY_PER_THREAD) bytes per thread.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 4), |t| {
    ///     let l = t.local_array::<i64>(3);
    ///     l.set(0, t.thread_idx().x as i64);
    ///     assert_eq!(l.get(0), t.thread_idx().x as i64);
    /// })
    /// .unwrap();
    /// ```
    pub fn local_array<T: Pod>(&self, shape: impl IntoShape) -> LocalArray<'_, T> {
        self.local.alloc(shape.into_dims())
    }

    /// Fails this thread — and the launch — with `message`, like a device-side trap with a
    /// reason. The launch returns [`KernelFault`](crate::Error::KernelFault) naming this thread.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// let err = run_grid("k", &LaunchConfig::new(1, 4), |t| {
    ///     if t.thread_idx().x == 2 {
    ///         t.fault("bad input");
    ///     }
    /// })
    /// .unwrap_err();
    /// assert!(matches!(err, rumba::Error::KernelFault { thread: [2, 0, 0], ref message, .. } if message == "bad input"));
    /// ```
    pub fn fault(&self, message: impl Into<String>) -> ! {
        fault::raise(message.into())
    }
}
