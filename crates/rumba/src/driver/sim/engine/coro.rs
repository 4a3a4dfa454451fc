//! GPU threads as stackful coroutines (corosensei) on pooled, reused stacks.
//!
//! A [`ThreadCoroutine`] runs one GPU thread's kernel body; it suspends at each barrier or warp
//! operation, yielding a [`Suspend`], and is resumed with the barrier's or operation's value.
//! Stacks come from a per-worker [`StackPool`] and go back to it when the coroutine finishes, so after warm-up launching a
//! block maps no memory. [`CoroSet`] owns the coroutines of the running block and guarantees, in
//! its `Drop`, that none outlives the block: a coroutine still suspended (the block faulted) is
//! force-unwound — its frames' destructors run exactly once, the unwind ends at the thread's
//! root (where faults are caught) and nothing is reported for it — and its stack is recycled.
//! Faults (panics, bounds, divergence raised in the thread) are caught on the coroutine's own
//! stack, once per thread, and returned as the coroutine's result. Touches only the stacks.

use std::panic::{AssertUnwindSafe, catch_unwind};

use corosensei::stack::{DefaultStack, STACK_ALIGNMENT, Stack, StackPointer};
use corosensei::{Coroutine, CoroutineResult, Yielder};

use super::barrier::Arrival;
use super::fault::{Unwound, describe};
use super::stack::{self, STACK_RESERVE};
use super::warp::{Suspend, WarpCall};

/// Size of each coroutine stack in bytes. Stacks are mapped lazily by the OS, so only the pages
/// a kernel touches cost memory. Kernel code may use all but the last
/// [`STACK_MARGIN`](crate::kernel::STACK_MARGIN) bytes: [`check_stack`](crate::kernel::check_stack)
/// (which recursive `#[rumba::device]` functions call) faults below that. An overflow that
/// skips every check runs on into the [`STACK_RESERVE`](crate::kernel::STACK_RESERVE) below the
/// stack and faults at the engine's next check (see the `stack` module); only one past the
/// reserve too reaches the guard page, and the process aborts with a message naming kernel, block
/// and thread, never corrupting memory.
///
/// ```
/// assert_eq!(rumba::kernel::COROUTINE_STACK_SIZE, 256 * 1024);
/// ```
pub const COROUTINE_STACK_SIZE: usize = 256 * 1024;

/// A GPU thread: resumed with a barrier value, yields its next barrier arrival, returns `None`
/// when the kernel body returned and `Some(message)` when it faulted.
pub(crate) struct ThreadCoroutine {
    co: Coroutine<u64, Suspend, Option<String>, ColoredStack>,
    /// The stack floor ([`stack`](super::stack)) made current while it runs.
    floor: usize,
    /// Its stack's reserve, and whether an overflow has opened it.
    reserve: stack::Reserve,
    tripped: bool,
}

/// Number of distinct starting offsets ("colours") given to pooled stacks, 64 bytes apart.
const COLORS: usize = 64;

/// A [`DefaultStack`] whose usable top is lowered by a per-stack multiple of 64 bytes.
///
/// Every mapped stack starts at a page boundary, so without colouring the hot top frames of all
/// the coroutines of a block share the same L1 cache sets and evict each other at every switch.
/// Spreading the tops over 64 cache lines keeps a block's working set cache-resident.
pub(crate) struct ColoredStack {
    inner: DefaultStack,
    offset: usize,
}

impl ColoredStack {
    fn new(color: usize) -> std::io::Result<Self> {
        let offset = (color % COLORS) * 64;
        debug_assert_eq!(offset % STACK_ALIGNMENT, 0);
        let stack = ColoredStack {
            inner: DefaultStack::new(COROUTINE_STACK_SIZE + STACK_RESERVE + COLORS * 64)?,
            offset,
        };
        stack.close_reserve()?;
        Ok(stack)
    }

    /// The reserve: [`STACK_RESERVE`] bytes above the guard page, below the usable stack.
    fn reserve(&self) -> stack::Reserve {
        let lo = self.inner.limit().get() + page_size();
        stack::Reserve {
            lo,
            hi: lo + STACK_RESERVE,
        }
    }

    /// The lowest address kernel code may use without touching the reserve.
    fn usable_bottom(&self) -> usize {
        self.reserve().hi
    }

    /// Makes the reserve inaccessible again and gives its pages back (after an overflow opened
    /// it; also on creation).
    fn close_reserve(&self) -> std::io::Result<()> {
        let r = self.reserve();
        // SAFETY: `[lo, hi)` lies inside this stack's own mapping, below every frame of a
        // finished coroutine (the stack is not in use); dropping its pages only zeroes memory
        // nothing refers to.
        let ok = unsafe {
            libc::madvise(r.lo as *mut libc::c_void, r.hi - r.lo, libc::MADV_DONTNEED) == 0
                && libc::mprotect(r.lo as *mut libc::c_void, r.hi - r.lo, libc::PROT_NONE) == 0
        };
        if ok {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

/// The system's page size.
fn page_size() -> usize {
    // SAFETY: `sysconf` only reads a system constant.
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

// SAFETY: the stack is the inner stack minus at most `COLORS * 64` bytes at its top (which the
// inner stack was enlarged by), so it still has a guard page (the inner one, below `limit`) and
// more than `MIN_STACK_SIZE` usable bytes; the base stays `STACK_ALIGNMENT`-aligned because the
// offset is a multiple of 64.
unsafe impl Stack for ColoredStack {
    fn base(&self) -> StackPointer {
        match StackPointer::new(self.inner.base().get() - self.offset) {
            Some(p) => p,
            None => self.inner.base(),
        }
    }

    fn limit(&self) -> StackPointer {
        self.inner.limit()
    }

    #[cfg(windows)]
    fn teb_fields(&self) -> corosensei::stack::StackTebFields {
        self.inner.teb_fields()
    }

    #[cfg(windows)]
    fn update_teb_fields(&mut self, stack_limit: usize, guaranteed_stack_bytes: usize) {
        self.inner
            .update_teb_fields(stack_limit, guaranteed_stack_bytes)
    }
}

/// What a thread did when resumed.
pub(crate) enum Step {
    /// Reached a barrier.
    Arrived(Arrival),
    /// Reached a warp operation.
    Warp(WarpCall),
    /// Returned from the kernel body.
    Exited,
    /// Faulted (panic, bounds, explicit fault).
    Faulted(String),
}

/// Free coroutine stacks of one worker thread.
pub(crate) struct StackPool {
    free: Vec<ColoredStack>,
    made: usize,
}

impl StackPool {
    pub(crate) fn new() -> Self {
        StackPool {
            free: Vec::new(),
            made: 0,
        }
    }

    fn take(&mut self) -> std::io::Result<ColoredStack> {
        match self.free.pop() {
            Some(s) => Ok(s),
            None => {
                self.made += 1;
                ColoredStack::new(self.made)
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.free.len()
    }
}

/// The coroutines of one block, indexed by linear thread id, and the pool their stacks return to.
pub(crate) struct CoroSet<'r> {
    pool: &'r mut StackPool,
    slots: &'r mut Vec<Option<ThreadCoroutine>>,
    /// One past the highest slot used by this set (slots beyond are `None`).
    used: usize,
}

impl<'r> CoroSet<'r> {
    /// A set over the worker's slot vector (all `None`; its length is kept between blocks so
    /// that the fast path, which needs one slot, does not touch the others).
    pub(crate) fn new(
        pool: &'r mut StackPool,
        slots: &'r mut Vec<Option<ThreadCoroutine>>,
    ) -> Self {
        debug_assert!(slots.iter().all(Option::is_none));
        CoroSet {
            pool,
            slots,
            used: 0,
        }
    }

    /// Creates thread `tid`'s coroutine running `f` on a pooled stack.
    ///
    /// # Safety
    /// Everything `f` borrows must stay valid until this set is dropped (the set unwinds or
    /// finishes every coroutine no later than its own drop).
    pub(crate) unsafe fn spawn<F>(&mut self, tid: usize, f: F) -> Result<(), String>
    where
        F: FnOnce(&Yielder<u64, Suspend>, u64),
    {
        let stack = self.pool.take().map_err(|e| {
            format!("could not allocate a {COROUTINE_STACK_SIZE}-byte coroutine stack: {e}")
        })?;
        // Faults are caught on the coroutine's own stack, once per thread, so resuming needs no
        // `catch_unwind` per switch. When a suspended thread is force-unwound during cleanup,
        // this also catches corosensei's unwind payload; corosensei then sees a normal return,
        // which it accepts, and the message is discarded (cleanup reports nothing).
        let thread = move |y: &Yielder<u64, Suspend>, input: u64| match catch_unwind(
            AssertUnwindSafe(|| {
                f(y, input);
                // The body returned: an overflow into the reserve is its fault now.
                stack::check_tripped();
            }),
        ) {
            Ok(()) => None,
            Err(payload) => Some(match describe(payload) {
                Unwound::Fault(m) => m,
                Unwound::Barrier(_) => {
                    "internal error: a coroutine thread took the plain barrier path".into()
                }
            }),
        };
        let floor = stack::floor_above(stack.usable_bottom());
        let reserve = stack.reserve();
        // SAFETY: the borrow obligation is forwarded to our caller; the coroutine is never
        // leaked (`mem::forget`) — it is finished or dropped by `retire`/`Drop` below.
        let co = unsafe { Coroutine::with_stack_unchecked(stack, thread) };
        let co = ThreadCoroutine {
            co,
            floor,
            reserve,
            tripped: false,
        };
        if self.slots.len() <= tid {
            self.slots.resize_with(tid + 1, || None);
        }
        self.slots[tid] = Some(co);
        self.used = self.used.max(tid + 1);
        Ok(())
    }

    /// Resumes thread `tid` with `input` and reports what it did. An exited or faulted thread's
    /// stack goes back to the pool at once.
    #[inline(always)]
    pub(crate) fn resume(&mut self, tid: usize, input: u64) -> Step {
        let Some(co) = self.slots[tid].as_mut() else {
            return Step::Faulted(format!(
                "internal error: thread {tid} resumed after it finished"
            ));
        };
        let resumed = {
            let on = stack::enter_stack(co.floor, co.reserve, co.tripped);
            super::overflow::thread(tid as u32);
            let r = co.co.resume(input);
            co.tripped = on.tripped();
            r
        };
        let step = match resumed {
            // A thread that overflowed into its stack's reserve and then reached a barrier or
            // warp operation faults there (it is unwound by `retire`, from that call).
            CoroutineResult::Yield(_) if co.tripped => Step::Faulted(stack::tripped_message()),
            CoroutineResult::Yield(Suspend::Block(a)) => return Step::Arrived(a),
            CoroutineResult::Yield(Suspend::Warp(c)) => return Step::Warp(c),
            CoroutineResult::Return(None) if co.tripped => Step::Faulted(stack::tripped_message()),
            CoroutineResult::Return(None) => Step::Exited,
            CoroutineResult::Return(Some(m)) => Step::Faulted(m),
        };
        self.retire(tid);
        step
    }

    /// Finishes thread `tid`'s coroutine (unwinding it if suspended) and recycles its stack.
    fn retire(&mut self, tid: usize) {
        if let Some(ThreadCoroutine {
            mut co,
            floor,
            reserve,
            mut tripped,
        }) = self.slots[tid].take()
        {
            if !co.done() {
                // Unwind the suspended thread's frames (on its own stack, so with its floor).
                // Corosensei catches its own unwind payload; anything else (a destructor that
                // panics) is caught here and ignored: the block has already failed and this is
                // cleanup.
                let on = stack::enter_stack(floor, reserve, tripped);
                if let Err(payload) = catch_unwind(AssertUnwindSafe(|| co.force_unwind())) {
                    crate::unwind::dispose(payload);
                }
                tripped = on.tripped();
            }
            if co.done() {
                let stack = co.into_stack();
                // A stack whose reserve could not be closed again is dropped (unmapped) here.
                if !tripped || stack.close_reserve().is_ok() {
                    self.pool.free.push(stack);
                }
            }
            // A coroutine that could not be finished is dropped (its stack unmapped) here.
        }
    }
}

impl Drop for CoroSet<'_> {
    fn drop(&mut self) {
        for tid in 0..self.used {
            self.retire(tid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sim::engine::barrier::BarrierKind;
    use std::cell::Cell;
    use std::panic::Location;

    struct Flag<'a>(&'a Cell<u32>);
    impl Drop for Flag<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    #[test]
    fn suspended_coroutines_are_unwound_and_stacks_recycled() {
        let mut pool = StackPool::new();
        let mut slots = Vec::new();
        let dropped = Cell::new(0);
        {
            let mut set = CoroSet::new(&mut pool, &mut slots);
            for tid in 0..2 {
                let d = &dropped;
                // SAFETY: `dropped` outlives `set`.
                unsafe {
                    set.spawn(tid, move |y, _| {
                        let _f = Flag(d);
                        y.suspend(Suspend::Block(Arrival {
                            site: Location::caller(),
                            kind: BarrierKind::Sync,
                            pred: false,
                        }));
                    })
                }
                .unwrap();
            }
            assert!(matches!(set.resume(0, 0), Step::Arrived(_)));
            // Thread 1 never started; thread 0 is suspended.
        }
        assert_eq!(
            dropped.get(),
            1,
            "the suspended frame's destructor ran exactly once"
        );
        assert_eq!(pool.len(), 2);
        assert!(slots.iter().all(Option::is_none));
    }

    #[test]
    fn panics_become_faults() {
        let mut pool = StackPool::new();
        let mut slots = Vec::new();
        let mut set = CoroSet::new(&mut pool, &mut slots);
        // SAFETY: the closure borrows nothing.
        unsafe { set.spawn(0, |_, _| std::panic::resume_unwind(Box::new("boom"))) }.unwrap();
        assert!(matches!(set.resume(0, 0), Step::Faulted(m) if m == "panicked: boom"));
        drop(set);
        assert_eq!(pool.len(), 1);
    }
}
