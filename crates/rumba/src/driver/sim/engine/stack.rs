//! Stack checks: a simulated thread that is about to run out of stack faults like any other
//! thread, instead of crashing the process on the stack's guard page.
//!
//! Kernel code runs on two kinds of stack: the pooled coroutine stacks of the per-thread engine
//! ([`COROUTINE_STACK_SIZE`](super::COROUTINE_STACK_SIZE) bytes each; the fast path's plain loop
//! runs on one too) and the stacks of the threads that run blocks of the work-item-loop engine.
//! The engine keeps, per OS thread, the lowest stack address that kernel code may reach — the
//! *floor*: the stack's usable bottom plus [`STACK_MARGIN`] — and switches it with every
//! coroutine switch. [`check_stack`] compares the current stack position with it and, below it,
//! raises an ordinary fault, so [`Error::KernelFault`](crate::Error::KernelFault) names kernel,
//! block and thread, the launch's other threads are cleaned up, and the runtime goes on. The
//! margin is what the fault itself needs: formatting the message and unwinding to the thread's
//! root.
//!
//! `#[rumba::device]` functions that call other device functions — the only way a kernel of the
//! kernel language can recurse — begin with a check. Leaf device functions and kernel bodies
//! need none: their frames are small and bounded (local arrays live in the engine's arenas, not
//! on the stack), so only call depth can exhaust a stack.
//!
//! Closure kernels (the low-level [`run_grid`](super::run_grid) API) run arbitrary Rust, which
//! cannot be stopped safely at an arbitrary instruction (it may hold a lock or be half-way
//! through the allocator), so a coroutine stack has a **reserve** below its usable bottom:
//! [`STACK_RESERVE`] bytes of address space, inaccessible until touched, above the real guard
//! page. The first touch — an overflow no check caught, such as a large local array — is taken
//! by the overflow handler ([`overflow`](super::overflow)), which opens the reserve, marks this
//! stack *tripped* and lets the instruction run again. The thread goes on, on the reserve, to the
//! next point where the engine regains control — a [`check_stack`], a barrier or warp operation,
//! the end of the thread's body — and faults there, an ordinary fault at an ordinary call: no
//! frame is abandoned. The stack's reserve is closed (and its pages returned) before the stack
//! is used again. Only an overflow past the reserve too (unbounded recursion that never returns
//! to the engine) still reaches the guard page, where the handler names kernel, block and thread
//! before the process aborts.
//!
//! Where the running stack's bounds are unknown (a platform without `pthread_getattr_np`, or a
//! thread that is not on a stack the engine knows) the floor is 0 and the check never fires.
//! Touches thread-locals and, once per OS thread, the thread's stack attributes.

use std::cell::Cell;

use super::fault::raise;

/// Bytes of stack kept free below the floor: room for reporting the fault (formatting its
/// message, unwinding to the thread's root) and for the frames a checked function calls before
/// the next check.
///
/// ```
/// assert_eq!(rumba::kernel::STACK_MARGIN, 64 * 1024);
/// ```
pub const STACK_MARGIN: usize = 64 * 1024;

/// Bytes of address space below each coroutine stack's usable bottom that an overflow no check
/// caught may still use before the thread faults at the engine's next check (see the module
/// docs). Inaccessible, and so costing no memory, until an overflow touches it.
///
/// ```
/// assert_eq!(rumba::kernel::STACK_RESERVE, 16 << 20);
/// ```
pub const STACK_RESERVE: usize = 16 << 20;

/// The reserve of the stack kernel code runs on now: `[lo, hi)`, `(0, 0)` when it has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reserve {
    pub(crate) lo: usize,
    pub(crate) hi: usize,
}

impl Reserve {
    /// No reserve (a thread's own stack).
    pub(crate) const NONE: Reserve = Reserve { lo: 0, hi: 0 };
}

thread_local! {
    /// The floor of the stack kernel code is running on now; 0 when unknown (no check).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
    /// The reserve of that stack, and whether an overflow has opened it (plain loads and stores:
    /// the overflow handler uses them).
    static RESERVE: Cell<Reserve> = const { Cell::new(Reserve::NONE) };
    static TRIPPED: Cell<bool> = const { Cell::new(false) };
    /// This OS thread's own stack as (floor, top), computed once: `None` not yet, `(0, 0)`
    /// unknown.
    static OWN: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// An address inside the caller's frame: the current stack position, to within a frame.
#[inline(always)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Faults the calling simulated thread if less than [`STACK_MARGIN`] bytes of its stack are
/// left. Outside a kernel, or where the engine does not know the stack's bounds, it does
/// nothing.
///
/// `#[rumba::device]` functions that call other device functions begin with this check, so
/// runaway recursion in a kernel is a
/// [`KernelFault`](crate::Error::KernelFault) naming kernel, block and thread, not a crash. A
/// closure kernel's recursive helper calls it itself:
///
/// ```
/// use rumba::kernel::{check_stack, run_grid, LaunchConfig};
///
/// fn depth(n: u64) -> u64 {
///     check_stack();
///     let pad = std::hint::black_box([n; 16]); // a frame of some size
///     if n == 0 { 0 } else { 1 + depth(pad[0] - 1) }
/// }
///
/// // Shallow recursion runs; unbounded recursion faults instead of crashing the process.
/// run_grid("shallow", &LaunchConfig::new(1, 4), |_| assert_eq!(depth(10), 10)).unwrap();
/// let err = run_grid("deep", &LaunchConfig::new(1, 4), |_| {
///     depth(u64::MAX);
/// })
/// .unwrap_err();
/// assert!(matches!(&err, rumba::Error::KernelFault { kernel, message, .. }
///     if kernel == "deep" && message.contains("stack overflow")));
/// ```
#[inline(always)]
pub fn check_stack() {
    let floor = FLOOR.with(Cell::get);
    if stack_position() < floor || TRIPPED.with(Cell::get) {
        overflowing(floor);
    }
}

#[cold]
#[inline(never)]
fn overflowing(floor: usize) -> ! {
    if TRIPPED.with(Cell::get) {
        raise(tripped_message());
    }
    let left = stack_position().saturating_sub(floor.saturating_sub(STACK_MARGIN));
    raise(format!(
        "stack overflow: {left} bytes of the thread's stack left, less than the {STACK_MARGIN} \
         the engine keeps for reporting a fault (recursion too deep?)"
    ))
}

/// The fault of a thread whose stack's reserve an overflow opened.
pub(crate) fn tripped_message() -> String {
    format!(
        "stack overflow: the thread's frames went past its {} bytes of stack into the {STACK_RESERVE}-byte reserve below it (a large local array or deep recursion; keep large arrays in local or shared memory, and call rumba::kernel::check_stack() in recursive code)",
        super::COROUTINE_STACK_SIZE
    )
}

/// Faults the calling thread if an overflow opened its stack's reserve (the engine's checks at
/// barriers and warp operations).
#[inline(always)]
pub(crate) fn check_tripped() {
    if TRIPPED.with(Cell::get) {
        overflowing(0);
    }
}

/// True when an overflow opened the current stack's reserve.
#[inline(always)]
pub(crate) fn tripped() -> bool {
    TRIPPED.with(Cell::get)
}

/// Marks the current stack's reserve open (the overflow handler, after opening it). A plain
/// thread-local store.
pub(crate) fn trip() {
    TRIPPED.with(|t| t.set(true));
}

/// Sets whether the current stack's reserve has been touched: a run of blocks gives each block
/// the state the run started with, as a guard of [`enter_own`] per block would.
pub(crate) fn set_tripped(tripped: bool) {
    TRIPPED.with(|t| t.set(tripped));
}

/// The current stack's reserve (a plain thread-local load, for the overflow handler).
pub(crate) fn current_reserve() -> Reserve {
    RESERVE.with(Cell::get)
}

/// The floor of the stack kernel code runs on now (0: unknown). A plain thread-local load, so
/// the overflow reporter's signal handler may call it.
pub(crate) fn current_floor() -> usize {
    FLOOR.with(Cell::get)
}

/// Makes `floor` the current floor (of a stack without a reserve) until the returned guard is
/// dropped, which restores the previous one.
pub(crate) fn enter(floor: usize) -> Restore {
    enter_stack(floor, Reserve::NONE, false)
}

/// Makes `floor` and `reserve` (open if `tripped`) current until the returned guard is dropped,
/// which restores the previous ones. The engine calls it with a coroutine's stack around each
/// resumption; [`Restore::tripped`] then says whether an overflow opened the reserve meanwhile.
pub(crate) fn enter_stack(floor: usize, reserve: Reserve, tripped: bool) -> Restore {
    Restore {
        floor: FLOOR.with(|f| f.replace(floor)),
        reserve: RESERVE.with(|r| r.replace(reserve)),
        tripped: TRIPPED.with(|t| t.replace(tripped)),
    }
}

/// Restores the previous floor and reserve when dropped.
pub(crate) struct Restore {
    floor: usize,
    reserve: Reserve,
    tripped: bool,
}

impl Restore {
    /// Whether the stack entered with this guard has its reserve open now.
    pub(crate) fn tripped(&self) -> bool {
        TRIPPED.with(Cell::get)
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        FLOOR.with(|f| f.set(self.floor));
        RESERVE.with(|r| r.set(self.reserve));
        TRIPPED.with(|t| t.set(self.tripped));
    }
}

/// The floor of a stack whose lowest usable address is `limit`.
pub(crate) fn floor_above(limit: usize) -> usize {
    limit.saturating_add(STACK_MARGIN)
}

/// Makes this OS thread's own stack floor current, when the caller is running on that stack
/// (a block runner called on a coroutine stack — a nested launch — keeps that coroutine's
/// floor). The guard restores the previous floor.
pub(crate) fn enter_own() -> Restore {
    let (own, top) = own_stack();
    let here = stack_position();
    // On its own stack the thread is between its floor and its top (stacks grow down);
    // anywhere else it runs on a coroutine stack, whose floor stays current.
    let on_own = own < here && here < top;
    if on_own {
        enter(own)
    } else {
        // On a coroutine's stack (a nested launch): that stack stays current, reserve and all.
        enter_stack(current_floor(), current_reserve(), tripped())
    }
}

/// This OS thread's own stack as (floor, top); (0, 0) where its bounds are unknown.
fn own_stack() -> (usize, usize) {
    OWN.with(|c| match c.get() {
        Some(known) => known,
        None => {
            let known = own_bounds().map_or((0, 0), |(lo, hi)| (floor_above(lo), hi));
            c.set(Some(known));
            known
        }
    })
}

/// The lowest usable address (above the guard) and the top of this OS thread's stack.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn own_bounds() -> Option<(usize, usize)> {
    // SAFETY: a zeroed `pthread_attr_t` is what `pthread_getattr_np` initialises; it is
    // destroyed below on the success path only, as the manual requires.
    let mut attr: libc::pthread_attr_t = unsafe { std::mem::zeroed() };
    // SAFETY: `pthread_self()` is the calling thread, alive for the call; `attr` is writable.
    if unsafe { libc::pthread_getattr_np(libc::pthread_self(), &mut attr) } != 0 {
        return None;
    }
    let (mut addr, mut size, mut guard) = (std::ptr::null_mut(), 0usize, 0usize);
    // SAFETY: `attr` was initialised by `pthread_getattr_np`; the out-pointers are valid.
    let ok = unsafe {
        libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0
            && libc::pthread_attr_getguardsize(&attr, &mut guard) == 0
    };
    // SAFETY: `attr` was initialised by `pthread_getattr_np` and is not used after this.
    unsafe { libc::pthread_attr_destroy(&mut attr) };
    if !ok || addr.is_null() {
        return None;
    }
    // glibc may or may not count the guard inside the reported range: assume the worse case.
    let lo = (addr as usize).checked_add(guard)?;
    let hi = (addr as usize).checked_add(size)?;
    (lo < hi).then_some((lo, hi))
}

/// The lowest usable address and the top of this OS thread's stack.
#[cfg(target_os = "macos")]
fn own_bounds() -> Option<(usize, usize)> {
    // SAFETY: both functions only read the calling thread's descriptor.
    let (top, size) = unsafe {
        let me = libc::pthread_self();
        (
            libc::pthread_get_stackaddr_np(me) as usize,
            libc::pthread_get_stacksize_np(me),
        )
    };
    // One guard page below the reported range, as the system allocates it.
    Some((top.checked_sub(size)?, top))
}

/// Unknown elsewhere: no check on the threads' own stacks.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos")))]
fn own_bounds() -> Option<(usize, usize)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_fires_below_the_floor_and_the_guard_restores() {
        let here = stack_position();
        {
            let _g = enter(here + 4096);
            let r = std::panic::catch_unwind(check_stack);
            assert!(r.is_err(), "the check fires below the floor");
        }
        assert_eq!(FLOOR.with(Cell::get), 0, "the previous floor is back");
        {
            let g = enter_stack(0, Reserve { lo: 1, hi: 2 }, false);
            trip();
            assert!(g.tripped());
            let r = std::panic::catch_unwind(check_stack);
            assert!(r.is_err(), "the check fires once the reserve is open");
        }
        assert!(!tripped() && current_reserve() == Reserve::NONE, "restored");
        check_stack();
    }

    #[test]
    fn this_threads_own_stack_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            let _g = enter_own();
            let floor = FLOOR.with(Cell::get);
            let here = stack_position();
            assert!(
                floor != 0 && floor < here,
                "floor {floor:#x}, here {here:#x}"
            );
            // A test thread has at least 2 MiB; the margin leaves most of it usable.
            assert!(
                here - floor > 256 * 1024,
                "{} bytes above the floor",
                here - floor
            );
        }
    }
}
