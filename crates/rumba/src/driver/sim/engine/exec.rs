//! Running a grid: blocks in parallel on the calling thread and the block helpers (a rayon pool of
//! the engine's own), the threads of each block as coroutines with real barriers, and faults
//! turned into [`Error::KernelFault`].
//!
//! # How a block runs
//!
//! Each thread that runs blocks keeps its block resources (shared-memory arena, coroutine stack
//! pool, local-memory arenas) in a thread-local, taken for the duration of a block and put back
//! after, so blocks allocate nothing once a worker is warm.
//!
//! * **Fast path** (the default): thread 0 runs first, as a coroutine. If it returns without
//!   reaching a barrier, the other threads run as a plain loop on the worker's own stack — no
//!   coroutine, no switch — as HIP-CPU does. Should one of them reach a barrier after all, it
//!   cannot be completed (thread 0 has exited without reaching it), so the barrier is divergent:
//!   the arrival is recorded, that thread is unwound, and the loop goes on. When the loop ends
//!   the divergence is reported exactly as the coroutine path would report it.
//! * **Coroutine path**: once thread 0 reaches a barrier, every other thread gets a coroutine on
//!   a pooled stack. The block then runs in *rounds*: each live thread is resumed in linear order
//!   until it reaches a barrier or returns. After a round, if every thread waits at the same
//!   `syncthreads*` call site, the barrier completes (with its count/and/or value) and the next
//!   round starts; if all returned, the block is done; otherwise the barrier is divergent.
//!   Rounds run warp by warp: a lane that calls a warp operation (`syncwarp`, votes, shuffles)
//!   waits while the other lanes of its warp run, and the warp's operations are completed
//!   (the `warp` module) before the next warp runs. On the fast path a warp operation
//!   completes at once when no later lane is named in its mask, and is a fault otherwise.
//!
//! Both paths execute threads in the same order and report the same errors; tests check that
//! they agree.
//!
//! # Which fault is reported
//!
//! Within a block, the first fault in execution order (thread by thread, round by round) stops
//! the block; a divergent barrier is detected at the end of its round. Across blocks the fault of
//! the block with the **lowest linear index** is reported, deterministically: once a block has
//! faulted, blocks with higher indices that have not started are skipped, but lower ones still
//! run. After a fault every coroutine is unwound, stacks go back to the pool, and the next launch
//! runs normally.
//!
//! A kernel body may itself call [`run_grid`]: the nested launch gets its own resources, and
//! its thread waits (running nothing else) for the helpers that took some of its blocks.
//!
//! The block scheduling and fault choice (`schedule`) are shared with the work-item-loop engine
//! ([`wil`](super::wil)), so both report the same fault for the same kernel.
//!
//! This module touches the block helpers (through the `helpers` module), the per-worker
//! resources in a thread-local, and whatever memory the kernel body touches.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use super::barrier::{Outcome, Round};
use super::coro::{CoroSet, StackPool, Step, ThreadCoroutine};
use super::dim::{Dim3, LaunchConfig, WARP_SIZE};
use super::fault::{Unwound, describe, kernel_fault};
use super::helpers::{block_helpers, share};
use super::local::LocalArena;
use super::shared::SharedMemory;
use super::thread_ctx::{BlockInfo, ThreadCtx};
use super::warp::{Lane, Suspend, resolve};
use crate::error::{Error, Result};
use crate::sync::{into_inner, lock};

/// Options of the simulated executor. The defaults are what a launch should use; the switches
/// exist for testing and debugging.
///
/// ```
/// use rumba::kernel::ExecOptions;
/// let o = ExecOptions::default();
/// assert!(o.fast_path && o.parallel);
/// let debug = ExecOptions { fast_path: false, parallel: false };
/// # let _ = debug;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecOptions {
    /// Run a block's threads as a plain loop when thread 0 reaches no barrier (default `true`).
    /// `false` runs every thread as a coroutine.
    pub fast_path: bool,
    /// Spread blocks over the calling thread and the block helpers (default `true`). `false`
    /// runs blocks one after another, in linear order, on the calling thread.
    pub parallel: bool,
}

impl Default for ExecOptions {
    fn default() -> Self {
        ExecOptions {
            fast_path: true,
            parallel: true,
        }
    }
}

/// Runs `body` once for every thread of the grid described by `config`, with the default
/// [`ExecOptions`].
///
/// # Errors
/// [`Error::InvalidLaunch`] for an invalid configuration (see
/// [`LaunchConfig::validate`]) and [`Error::KernelFault`] naming `kernel_name`, block, thread
/// and reason if a thread panics, indexes out of bounds, calls
/// [`ThreadCtx::fault`] or reaches a divergent barrier. If several threads fault, the reported
/// one is the first fault (in execution order) of the faulting block with the lowest linear
/// index; see the [module docs](self).
///
/// ```
/// use rumba::kernel::{run_grid, GlobalView, LaunchConfig};
/// let a: Vec<f32> = (0..1000).map(|i| i as f32).collect();
/// let mut c = vec![0.0f32; 1000];
/// let (av, cv) = (GlobalView::from_slice(&a), GlobalView::from_slice_mut(&mut c));
/// run_grid("double", &LaunchConfig::new(4, 256), |t| {
///     let i = t.grid1();
///     if i < av.len() {
///         cv.set(i, 2.0 * av.get(i));
///     }
/// })
/// .unwrap();
/// assert_eq!(c[999], 1998.0);
/// ```
pub fn run_grid<F>(kernel_name: &str, config: &LaunchConfig, body: F) -> Result<()>
where
    F: Fn(&ThreadCtx<'_>) + Sync,
{
    run_grid_with(kernel_name, config, &ExecOptions::default(), body)
}

/// [`run_grid`] with explicit [`ExecOptions`].
///
/// # Errors
/// As [`run_grid`].
///
/// ```
/// use rumba::kernel::{run_grid_with, ExecOptions, GlobalView, LaunchConfig};
/// let mut order = vec![0u32; 4];
/// let next = std::sync::atomic::AtomicU32::new(0);
/// let o = GlobalView::from_slice_mut(&mut order);
/// let serial = ExecOptions { fast_path: false, parallel: false };
/// run_grid_with("order", &LaunchConfig::new(4, 1), &serial, |t| {
///     o.set(t.block_idx().x as usize, next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
/// })
/// .unwrap();
/// assert_eq!(order, [0, 1, 2, 3]);
/// ```
pub fn run_grid_with<F>(
    kernel_name: &str,
    config: &LaunchConfig,
    options: &ExecOptions,
    body: F,
) -> Result<()>
where
    F: Fn(&ThreadCtx<'_>) + Sync,
{
    config.validate()?;
    tracing::trace!(kernel = kernel_name, grid = %config.grid, block = %config.block, "launch");
    let launch = Launch {
        kernel: kernel_name,
        config: *config,
        fast_path: options.fast_path,
        body: &body,
    };
    schedule(kernel_name, config, options.parallel, |block_idx, _| {
        with_resources(|res| launch.run_block(block_idx, res))
    })
}

/// Runs `run_block` once for every block of `config`'s grid — in parallel on the calling thread
/// and the block helpers, or one after another in linear order — with the linear index of the
/// block the same thread runs right after it, when it knows one (the next of its run of blocks),
/// and turns the fault of the lowest faulting block into [`Error::KernelFault`]. Shared by both
/// engines (the coroutine engine here and the work-item-loop engine in [`wil`](super::wil)), so
/// they schedule blocks and choose the reported fault identically.
pub(crate) fn schedule(
    kernel_name: &str,
    config: &LaunchConfig,
    parallel: bool,
    run_block: impl Fn(Dim3, Option<u64>) -> std::result::Result<(), ThreadFault> + Sync,
) -> Result<()> {
    super::overflow::install();
    let lowest_faulted = AtomicU64::new(u64::MAX);
    let first_fault: Mutex<Option<(u64, Error)>> = Mutex::new(None);
    let flat = config.grid.y == 1 && config.grid.z == 1;
    let index = |b: u64| {
        if flat {
            Dim3::new(b as u32, 0, 0)
        } else {
            Dim3::from_linear(b, config.grid)
        }
    };
    let record = |b: u64, tid: u32, message: String| {
        lowest_faulted.fetch_min(b, Relaxed);
        let (block_idx, thread) = (index(b), Dim3::from_linear(u64::from(tid), config.block));
        tracing::debug!(kernel = kernel_name, block = %block_idx, thread = %thread, %message, "kernel fault");
        let err = kernel_fault(kernel_name, block_idx, thread, message);
        let mut slot = lock(&first_fault);
        if slot.as_ref().is_none_or(|(fb, _)| b < *fb) {
            *slot = Some((b, err));
        }
    };
    // Runs blocks `range` in order, skipping those above a faulted block. What every block of
    // the run shares is set up once: the stack floor, the record an overflow report reads (the
    // block index changes per block), and the safety net that turns a panic of the block runner
    // itself (thread faults are caught per thread) into a failed launch instead of unwinding
    // into the caller. Set up per block, these took more than half of what an empty one-thread
    // block costs, and most of what `vadd` (16M elements, 256 threads a block) took over the
    // plain-Rust loop.
    let run_range = |range: std::ops::Range<u64>| {
        // Kernel code on this thread's own stack (the fast path's plain loop, work-item loops)
        // is checked against that stack's floor; coroutines switch to their own. A block that
        // touched the floor's reserve without faulting leaves it touched for itself only.
        let _floor = super::stack::enter_own();
        let tripped = super::stack::tripped();
        let _running = super::overflow::running(kernel_name, config.block);
        let at = Cell::new(range.start);
        let ran = crate::unwind::catch(|| {
            let end = range.end;
            for b in range {
                if b > lowest_faulted.load(Relaxed) {
                    return;
                }
                at.set(b);
                let block_idx = index(b);
                super::stack::set_tripped(tripped);
                super::overflow::next_block(block_idx);
                let next = (b + 1 < end).then_some(b + 1);
                if let Err((tid, message)) = run_block(block_idx, next) {
                    record(b, tid, message);
                }
            }
        });
        if let Err(panic) = ran {
            // The blocks after it in the range are above a faulted block: none is owed a run.
            let message = format!("internal error: the block runner panicked: {panic}");
            record(at.get(), 0, message);
        }
    };
    let blocks = config.num_blocks();
    let pool = (parallel && blocks > 1).then(block_helpers).flatten();
    if let Some(pool) = pool {
        // The calling thread (usually a stream worker) runs blocks itself, with the helper
        // pool's threads: no hand-off before the first block starts, one thread fewer to wake,
        // and no more threads computing than rayon's pool has. Everyone claims chunks of blocks
        // in increasing order from one counter, so every block below a faulted one has been
        // claimed (and runs) before it.
        //
        // A launch from a block running on a helper (a nested launch) has that helper as its
        // caller: the other helpers are the pool less one. Helpers that come after the caller
        // has run out of blocks are sent away (`helpers::share`).
        let nested = pool.current_thread_index().is_some();
        let workers = pool.current_num_threads() as u64 + u64::from(!nested);
        // Eight chunks a worker or more, for balance, of up to 1,024 blocks: neighbouring
        // blocks usually touch neighbouring memory (a stencil's blocks share their rows'
        // neighbours), so a worker that runs long runs of them keeps its cache and its
        // prefetcher's streams, where interleaving short runs with another worker's splits both.
        // With runs of at most 64 blocks, the suite's 4096² stencil (65,536 blocks) took 82-95 ms
        // against 64-86 ms with these, alternating four times.
        let chunk = (blocks / (workers * 8)).clamp(1, 1024);
        let helpers = (workers - 1).min(blocks.div_ceil(chunk) - 1);
        let next = AtomicU64::new(0);
        let work = || {
            loop {
                let start = next.fetch_add(chunk, Relaxed);
                if start >= blocks {
                    break;
                }
                run_range(start..(start + chunk).min(blocks));
            }
        };
        share(pool, helpers as usize, &work);
    } else {
        // In order, stopping at the first fault (every later block is above it).
        run_range(0..blocks);
    }
    match into_inner(first_fault) {
        Some((_, err)) => Err(err),
        None => Ok(()),
    }
}

/// Per-worker block resources, reused across blocks and launches.
struct Resources {
    shared: SharedMemory,
    stacks: StackPool,
    coros: Vec<Option<ThreadCoroutine>>,
    locals: Vec<LocalArena>,
    lanes: Vec<Lane>,
}

thread_local! {
    static RESOURCES: Cell<Option<Box<Resources>>> = const { Cell::new(None) };
}

/// Runs `f` with this worker's resources, taken out of the thread-local for the duration (a
/// nested use, e.g. a kernel that launches a kernel, gets fresh ones).
fn with_resources<R>(f: impl FnOnce(&mut Resources) -> R) -> R {
    let mut res = RESOURCES.take().unwrap_or_else(|| {
        Box::new(Resources {
            shared: SharedMemory::new(),
            stacks: StackPool::new(),
            coros: Vec::new(),
            locals: Vec::new(),
            lanes: Vec::new(),
        })
    });
    let r = f(&mut res);
    RESOURCES.set(Some(res));
    r
}

/// A thread failure: linear thread id and message.
pub(crate) type ThreadFault = (u32, String);

struct Launch<'l, F> {
    kernel: &'l str,
    config: LaunchConfig,
    fast_path: bool,
    body: &'l F,
}

/// Coordinates of linear thread `t` in a block of size `dim`.
#[inline(always)]
fn coord(t: u32, dim: Dim3) -> Dim3 {
    if dim.y == 1 && dim.z == 1 {
        Dim3::new(t, 0, 0)
    } else {
        Dim3::from_linear(t as u64, dim)
    }
}

impl<F> Launch<'_, F>
where
    F: Fn(&ThreadCtx<'_>) + Sync,
{
    fn run_block(
        &self,
        block_idx: Dim3,
        res: &mut Resources,
    ) -> std::result::Result<(), ThreadFault> {
        let Resources {
            shared,
            stacks,
            coros,
            locals,
            lanes,
        } = res;
        let n = self.config.threads_per_block() as u32;
        if locals.len() < n as usize {
            locals.resize_with(n as usize, LocalArena::new);
        }
        shared.begin_block(self.config.dynamic_shared_bytes);
        let info = BlockInfo {
            kernel: self.kernel,
            grid_dim: self.config.grid,
            block_dim: self.config.block,
            block_idx,
            shared,
        };
        let locals = &locals[..];
        // What the fast path's plain loop returned (it runs on a coroutine; see below).
        let plain: Cell<Option<std::result::Result<(), ThreadFault>>> = Cell::new(None);
        // Declared after `info` and `plain` (and borrowing `locals` and `self.body`, which
        // outlive it), so it is dropped — every coroutine finished or unwound — before anything
        // they borrow.
        let mut set = CoroSet::new(stacks, coros);
        let mut round = Round::new();
        lanes.clear();
        lanes.resize(n as usize, Lane::Ready(0));
        if self.fast_path {
            // SAFETY: `info` and `locals` outlive `set` (declared before it).
            unsafe { self.spawn(&mut set, &info, locals, 0) }?;
            match set.resume(0, 0) {
                Step::Faulted(m) => return Err((0, m)),
                Step::Arrived(a) => {
                    round.arrive(0, a);
                    lanes[0] = Lane::AtBarrier(a.site);
                }
                Step::Warp(c) => lanes[0] = Lane::Warp(c),
                Step::Exited => {
                    round.exit(0);
                    // Threads 1.. as a plain loop — on a coroutine stack too, whose reserve
                    // turns an overflow no check caught into the thread's fault (see `stack`).
                    let (info, plain) = (&info, &plain);
                    let body = move |_: &corosensei::Yielder<u64, Suspend>, _: u64| {
                        plain.set(Some(self.run_plain(info, &locals[0], round)));
                    };
                    // SAFETY: the coroutine borrows `info`, `plain` and `locals`, declared before
                    // `set`, and `self`, which outlives the launch.
                    unsafe { set.spawn(0, body) }.map_err(|m| (0, m))?;
                    let step = set.resume(0, 0);
                    return match (plain.take(), step) {
                        (Some(r), _) => r,
                        (None, Step::Faulted(m)) => Err((0, m)),
                        (None, _) => Err((
                            0,
                            "internal error: the plain loop ended without a result".into(),
                        )),
                    };
                }
            }
        }
        let first = u32::from(self.fast_path);
        for t in first..n {
            // SAFETY: as above.
            unsafe { self.spawn(&mut set, &info, locals, t) }?;
        }
        self.run_rounds(&mut set, round, lanes)
    }

    /// Creates thread `t`'s coroutine in `set`.
    ///
    /// # Safety
    /// `info` and `locals` must outlive `set` (the coroutine borrows them until `set` drops).
    unsafe fn spawn<'s>(
        &'s self,
        set: &mut CoroSet<'_>,
        info: &'s BlockInfo<'s>,
        locals: &'s [LocalArena],
        t: u32,
    ) -> std::result::Result<(), ThreadFault> {
        let body = self.body;
        let local = &locals[t as usize];
        let thread_idx = coord(t, info.block_dim);
        let thread = move |y: &corosensei::Yielder<u64, Suspend>, _first_input: u64| {
            local.reset();
            let ctx = ThreadCtx {
                block: info,
                thread_idx,
                linear: t,
                yielder: Some(y),
                local,
            };
            body(&ctx);
        };
        // SAFETY: the closure borrows `info` and `locals`, which outlive `set` per this
        // function's contract, and `body`, which outlives the whole launch.
        unsafe { set.spawn(t as usize, thread) }.map_err(|m| (t, m))
    }

    /// The coroutine path: rounds until every thread has exited. `lanes` holds where each
    /// thread stands (thread 0 may already wait, with its barrier arrival in `round`).
    ///
    /// Each round runs the block warp by warp: the runnable lanes of a warp run in linear order
    /// until each exits or waits; while some wait at warp operations, those are
    /// [`resolve`]d and the completed lanes run again. Then the block barrier is decided.
    fn run_rounds(
        &self,
        set: &mut CoroSet<'_>,
        mut round: Round,
        lanes: &mut [Lane],
    ) -> std::result::Result<(), ThreadFault> {
        let n = self.config.threads_per_block() as u32;
        loop {
            for base in (0..n).step_by(WARP_SIZE as usize) {
                let warp = &mut lanes[base as usize..(base + WARP_SIZE).min(n) as usize];
                loop {
                    let mut waiting = false;
                    for (i, lane) in warp.iter_mut().enumerate() {
                        let Lane::Ready(input) = *lane else {
                            waiting |= matches!(lane, Lane::Warp(_));
                            continue;
                        };
                        let t = base + i as u32;
                        *lane = match set.resume(t as usize, input) {
                            Step::Arrived(a) => {
                                round.arrive(t, a);
                                Lane::AtBarrier(a.site)
                            }
                            Step::Warp(c) => {
                                waiting = true;
                                Lane::Warp(c)
                            }
                            Step::Exited => {
                                round.exit(t);
                                Lane::Exited
                            }
                            Step::Faulted(m) => return Err((t, m)),
                        };
                    }
                    if !waiting {
                        break;
                    }
                    resolve(warp, base, self.config.block)?;
                }
            }
            match round.outcome(self.config.block, n) {
                Outcome::Finished => return Ok(()),
                Outcome::Release(v) => {
                    for lane in lanes.iter_mut() {
                        *lane = Lane::Ready(u64::from(v as u32));
                    }
                }
                Outcome::Divergent { thread, message } => return Err((thread, message)),
            }
            round = Round::new();
        }
    }

    /// The fast path after thread 0 exited: threads `1..n` as a plain loop.
    fn run_plain(
        &self,
        info: &BlockInfo<'_>,
        local: &LocalArena,
        mut round: Round,
    ) -> std::result::Result<(), ThreadFault> {
        let n = self.config.threads_per_block() as u32;
        let dim = self.config.block;
        let mut t = 1u32;
        while t < n {
            let ran = catch_unwind(AssertUnwindSafe(|| {
                while t < n {
                    super::overflow::thread(t);
                    local.reset();
                    let ctx = ThreadCtx {
                        block: info,
                        thread_idx: coord(t, dim),
                        linear: t,
                        yielder: None,
                        local,
                    };
                    (self.body)(&ctx);
                    // An overflow into the stack's reserve is this thread's fault.
                    super::stack::check_tripped();
                    t += 1;
                }
            }));
            match ran {
                Ok(()) => break,
                Err(payload) => match describe(payload) {
                    Unwound::Barrier(a) => {
                        round.arrive(t, a);
                        t += 1;
                    }
                    Unwound::Fault(m) => return Err((t, m)),
                },
            }
        }
        match round.outcome(dim, n) {
            Outcome::Divergent { thread, message } => Err((thread, message)),
            // Thread 0 exited, so a barrier can never be released here.
            Outcome::Finished | Outcome::Release(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::{Acquire, Release};

    use super::*;
    use crate::test_support::within_a_minute;

    #[test]
    fn resources_are_reused_across_launches() {
        let cfg = LaunchConfig::new(1, 64);
        let opts = ExecOptions {
            fast_path: false,
            parallel: false,
        };
        let body = |t: &ThreadCtx<'_>| t.syncthreads();
        run_grid_with("warm", &cfg, &opts, body).unwrap();
        let before = RESOURCES.take().map(|r| r.stacks.len()).unwrap_or(0);
        assert_eq!(before, 64);
        run_grid_with("again", &cfg, &opts, body).unwrap();
        let after = RESOURCES.take().map(|r| r.stacks.len()).unwrap_or(0);
        assert_eq!(after, 64);
    }

    /// Whether the current thread is one of the block helpers.
    fn on_a_helper() -> bool {
        std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with("rumba-blocks-"))
    }

    /// Holds the block that calls it until a block has started on the launch's calling thread
    /// and one on a helper (or five seconds have passed), so that both take blocks however the
    /// machine schedules them.
    fn meet(caller: std::thread::ThreadId, started: &[std::sync::atomic::AtomicBool; 2]) {
        started[usize::from(std::thread::current().id() != caller)].store(true, Release);
        let t = std::time::Instant::now();
        while !(started[0].load(Acquire) && started[1].load(Acquire))
            && t.elapsed() < std::time::Duration::from_secs(5)
        {
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    }

    /// Blocks run on the calling thread and the block helpers, never on rayon's global pool;
    /// with more than one core both take blocks.
    #[test]
    fn blocks_run_on_the_caller_and_the_block_helpers_only() {
        let cfg = LaunchConfig::new(16, 1);
        let caller = std::thread::current().id();
        let started = Default::default();
        // Per block: on the caller, on a helper, and the thread's name for the message.
        let ran: Mutex<Vec<(bool, bool, Option<String>)>> = Mutex::new(Vec::new());
        run_grid_with(
            "where",
            &cfg,
            &ExecOptions::default(),
            |_t: &ThreadCtx<'_>| {
                if block_helpers().is_some() {
                    meet(caller, &started);
                }
                let me = std::thread::current();
                let name = me.name().map(str::to_owned);
                lock(&ran).push((me.id() == caller, on_a_helper(), name));
            },
        )
        .unwrap();
        let ran = into_inner(ran);
        assert_eq!(ran.len(), 16);
        for (on_caller, on_helper, name) in &ran {
            assert!(*on_caller || *on_helper, "a block ran on {name:?}");
        }
        let on_helpers = ran.iter().filter(|(c, _, _)| !c).count();
        if block_helpers().is_some() {
            assert!(
                on_helpers > 0 && on_helpers < 16,
                "{on_helpers} of 16 on helpers"
            );
        } else {
            assert_eq!(on_helpers, 0);
        }
    }

    /// A kernel that launches a kernel from every block, on the calling thread and on a helper:
    /// the nested launches share the block helpers with the outer one (a thread waiting for the
    /// helpers that took its nested blocks runs nothing meanwhile) and every block of both
    /// levels runs once. A hang fails the test after a minute instead of hanging it.
    #[test]
    fn launches_nested_in_blocks_all_complete() {
        let (ran, inner_blocks, outer_on_helpers) = within_a_minute("the nested launches", || {
            let opts = ExecOptions::default();
            let caller = std::thread::current().id();
            let started = Default::default();
            let inner_blocks = AtomicU64::new(0);
            let outer_on_helpers = AtomicU64::new(0);
            let ran = run_grid_with(
                "outer",
                &LaunchConfig::new(8, 1),
                &opts,
                |_t: &ThreadCtx<'_>| {
                    if block_helpers().is_some() {
                        meet(caller, &started);
                    }
                    outer_on_helpers.fetch_add(u64::from(on_a_helper()), Relaxed);
                    let inner = |_t: &ThreadCtx<'_>| {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        inner_blocks.fetch_add(1, Relaxed);
                    };
                    run_grid_with("inner", &LaunchConfig::new(8, 1), &opts, inner).unwrap();
                },
            );
            (
                ran,
                inner_blocks.into_inner(),
                outer_on_helpers.into_inner(),
            )
        });
        ran.unwrap();
        assert_eq!(inner_blocks, 64);
        assert_eq!(outer_on_helpers > 0, block_helpers().is_some());
    }
}
