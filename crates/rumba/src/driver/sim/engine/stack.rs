//! Stack checks: a simulated thread that is about to run out of stack faults like any other
//! thread, instead of crashing the process on the stack's guard page.
//!
//! Kernel code runs on two kinds of stack: the pooled coroutine stacks of the per-thread engine
//! ([`COROUTINE_STACK_SIZE`](super::COROUTINE_STACK_SIZE) bytes each) and the stacks of the
//! threads that run blocks (the fast path's plain loop, the work-item-loop engine). The engine
//! keeps, per OS thread, the lowest stack address that kernel code may reach — the *floor*: the
//! stack's usable bottom plus [`STACK_MARGIN`] — and switches it with every coroutine switch.
//! [`check_stack`] compares the current stack position with it and, below it, raises an
//! ordinary fault, so [`Error::KernelFault`](crate::Error::KernelFault) names kernel, block and
//! thread, the launch's other threads are cleaned up, and the runtime goes on. The margin is
//! what the fault itself needs: formatting the message and unwinding to the thread's root.
//!
//! `#[rumba::device]` functions that call other device functions — the only way a kernel of the
//! kernel language can recurse — begin with a check. Leaf device functions and kernel bodies
//! need none: their frames are small and bounded (local arrays live in the engine's arenas, not
//! on the stack), so only call depth can exhaust a stack. Closure kernels (the low-level
//! [`run_grid`](super::run_grid) API) run arbitrary Rust; a recursive helper there should call
//! [`check_stack`] itself. Rust code cannot be stopped safely at an arbitrary instruction (it
//! may hold a lock or be half-way through the allocator), so an overflow that skips every check
//! — a multi-megabyte local array, unchecked recursion — still ends the process on the guard
//! page; [`overflow`](super::overflow) then names the kernel, block and thread before it aborts.
//!
//! Where the running stack's bounds are unknown (a platform without `pthread_getattr_np`, or a
//! thread that is not on a stack the engine knows) the floor is 0 and the check never fires.
//! Touches a thread-local and, once per OS thread, the thread's stack attributes.

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

thread_local! {
    /// The floor of the stack kernel code is running on now; 0 when unknown (no check).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
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
    if stack_position() < floor {
        overflowing(floor);
    }
}

#[cold]
#[inline(never)]
fn overflowing(floor: usize) -> ! {
    let left = stack_position().saturating_sub(floor.saturating_sub(STACK_MARGIN));
    raise(format!(
        "stack overflow: {left} bytes of the thread's stack left, less than the {STACK_MARGIN} \
         the engine keeps for reporting a fault (recursion too deep?)"
    ))
}

/// The floor of the stack kernel code runs on now (0: unknown). A plain thread-local load, so
/// the overflow reporter's signal handler may call it.
pub(crate) fn current_floor() -> usize {
    FLOOR.with(Cell::get)
}

/// Makes `floor` the current floor until the returned guard is dropped (which restores the
/// previous one). The engine calls it with a coroutine's floor around each resumption.
pub(crate) fn enter(floor: usize) -> Restore {
    Restore(FLOOR.with(|f| f.replace(floor)))
}

/// Restores the previous floor when dropped.
pub(crate) struct Restore(usize);

impl Drop for Restore {
    fn drop(&mut self) {
        FLOOR.with(|f| f.set(self.0));
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
    enter(if on_own { own } else { current_floor() })
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
