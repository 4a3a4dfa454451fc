//! Stack overflows that no [`check_stack`](super::check_stack) caught.
//!
//! A closure kernel is arbitrary Rust, and Rust code cannot be abandoned safely at an arbitrary
//! instruction — it may hold a lock, or be half-way through the allocator or a thread-local
//! structure its OS thread goes on using. So the first touch of a coroutine stack's *reserve*
//! (the inaccessible [`STACK_RESERVE`](super::STACK_RESERVE) bytes below it, see
//! [`stack`](super::stack)) is not a crash: the handler opens the reserve, marks the stack
//! tripped and returns, the instruction runs again, and the thread faults at the engine's next
//! check — an ordinary fault, at an ordinary call.
//!
//! What goes past the reserve too reaches the guard page and cannot become a fault the program
//! continues after (`#[rumba::device]` recursion never gets there: it is checked). Without this
//! module that crash is a bare "Segmentation fault" (the guard pages of coroutine stacks are not
//! the thread's own, so the standard library's overflow message does not recognise them). With
//! it, a `SIGSEGV`/`SIGBUS` whose address lies just below the bottom of the stack (or its
//! reserve) a kernel is running on prints
//!
//! ```text
//! rumba: kernel `big_frame` overflowed its stack in block (1, 0, 0), thread (5, 0, 0) …
//! ```
//!
//! and aborts. Every other fault goes to the handler that was installed before (the standard
//! library's, or the default action), unchanged.
//!
//! The handler is installed once, when the first grid is scheduled, and runs on the alternate signal
//! stack that the standard library gives every thread it starts (a thread without one gets a
//! small one here). It reads and writes only thread-locals with constant initialisers (plain
//! loads and stores) and calls only `mprotect(2)` (a system call), `write(2)` and `abort(3)`.
//!
//! Touches the process's `SIGSEGV` and `SIGBUS` dispositions, each kernel thread's alternate
//! signal stack, and thread-locals.
#![cfg_attr(
    not(any(target_os = "linux", target_os = "android")),
    allow(dead_code, unused_imports)
)]

use std::cell::Cell;

use super::dim::Dim3;
use super::stack::{STACK_MARGIN, current_floor, current_reserve, trip, tripped};

/// The block a thread is running now, for the message. Plain data: the handler only loads it.
#[derive(Clone, Copy)]
struct Running {
    kernel: *const u8,
    kernel_len: usize,
    block: Dim3,
    block_dim: Dim3,
}

const IDLE: Running = Running {
    kernel: std::ptr::null(),
    kernel_len: 0,
    block: Dim3 { x: 0, y: 0, z: 0 },
    block_dim: Dim3 { x: 1, y: 1, z: 1 },
};

/// "No thread tracked" (a block body of the work-item-loop engine runs all its work-items).
const NO_THREAD: u32 = u32::MAX;

thread_local! {
    static RUNNING: Cell<Running> = const { Cell::new(IDLE) };
    /// Linear id of the simulated thread running now, or [`NO_THREAD`]: one plain store per
    /// thread on the engine's hot paths.
    static THREAD: Cell<u32> = const { Cell::new(NO_THREAD) };
}

/// Records that this thread runs blocks of `kernel` (whose blocks are `block_dim`) until the
/// guard drops; [`next_block`] names each block as it starts. The launch has called [`install`].
pub(crate) fn running(kernel: &str, block_dim: Dim3) -> Restore {
    ensure_altstack_once();
    let now = Running {
        kernel: kernel.as_ptr(),
        kernel_len: kernel.len(),
        block_dim,
        ..IDLE
    };
    Restore(
        RUNNING.with(|r| r.replace(now)),
        THREAD.with(|t| t.replace(NO_THREAD)),
    )
}

/// Records that this thread has moved on to block `block` of the kernel [`running`] named,
/// with no simulated thread tracked yet: one guard covers a run of blocks.
#[inline]
pub(crate) fn next_block(block: Dim3) {
    RUNNING.with(|r| {
        let mut now = r.get();
        now.block = block;
        r.set(now);
    });
    THREAD.with(|t| t.set(NO_THREAD));
}

/// Records that linear thread `t` of the current block runs now.
#[inline(always)]
pub(crate) fn thread(t: u32) {
    THREAD.with(|c| c.set(t));
}

/// Restores what the thread ran before (a nested launch's caller), when dropped.
pub(crate) struct Restore(Running, u32);

impl Drop for Restore {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.0));
        THREAD.with(|t| t.set(self.1));
    }
}

/// How far from a stack's bottom a fault still counts as that stack's overflow: the guard page
/// (or pages), wherever the platform reports them, and the frame that jumped into them.
const GUARD_SLACK: usize = 64 * 1024;

#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) use unix::{ensure_altstack_once, install};

/// No reporter on this platform (only Linux's is written and tested): an overflow is whatever
/// the platform makes of it.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn install() {}

/// Nothing to do without the reporter.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn ensure_altstack_once() {}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod unix {
    use std::sync::{Once, OnceLock};

    use super::*;

    static INSTALL: Once = Once::new();
    static PREVIOUS_SEGV: OnceLock<libc::sigaction> = OnceLock::new();
    static PREVIOUS_BUS: OnceLock<libc::sigaction> = OnceLock::new();

    thread_local! {
        static ALTSTACK_CHECKED: Cell<bool> = const { Cell::new(false) };
    }

    /// Installs the handler (once per process; every launch calls it).
    pub(crate) fn install() {
        INSTALL.call_once(|| {
            for (sig, slot) in [
                (libc::SIGSEGV, &PREVIOUS_SEGV),
                (libc::SIGBUS, &PREVIOUS_BUS),
            ] {
                // SAFETY: a zeroed `sigaction` is a valid value to fill in; the mask is then
                // initialised by `sigemptyset`.
                let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
                action.sa_sigaction = on_fault as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                // SAFETY: `action.sa_mask` is a valid, writable `sigset_t`.
                unsafe { libc::sigemptyset(&mut action.sa_mask) };
                // SAFETY: as above, a zeroed `sigaction` is a valid out-value.
                let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                // SAFETY: `action` is fully initialised and `on_fault` has the `SA_SIGINFO`
                // signature; `old` is writable.
                if unsafe { libc::sigaction(sig, &action, &mut old) } == 0 {
                    let _ = slot.set(old);
                }
            }
        });
    }

    /// Makes sure this thread has an alternate signal stack (checked once per thread).
    pub(crate) fn ensure_altstack_once() {
        if !ALTSTACK_CHECKED.with(|c| c.replace(true)) {
            ensure_altstack();
        }
    }

    /// Gives this thread an alternate signal stack if it has none (the standard library gives
    /// one to every thread it starts; threads started otherwise may lack it). It is never
    /// freed: the kernel might deliver a signal on it until the thread ends.
    fn ensure_altstack() {
        // SAFETY: a zeroed `stack_t` is a valid out-value.
        let mut old: libc::stack_t = unsafe { std::mem::zeroed() };
        // SAFETY: a null new stack only queries; `old` is writable.
        if unsafe { libc::sigaltstack(std::ptr::null(), &mut old) } != 0
            || old.ss_flags & libc::SS_DISABLE == 0
        {
            return;
        }
        let size = (libc::SIGSTKSZ).max(64 * 1024);
        let Some(mem) = crate::driver::sim::memory::map_anonymous(size) else {
            return;
        };
        let stack = libc::stack_t {
            ss_sp: mem.cast(),
            ss_flags: 0,
            ss_size: size,
        };
        // SAFETY: `stack` describes the mapping just made, which is never unmapped.
        unsafe { libc::sigaltstack(&stack, std::ptr::null_mut()) };
    }

    extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO` handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let reserve = current_reserve();
        if reserve.lo != 0 && (reserve.lo..reserve.hi).contains(&addr) && !tripped() {
            // An overflow into the running stack's reserve: open it and let the instruction run
            // again; the thread faults at the engine's next check.
            // SAFETY: `[lo, hi)` is the reserve of the stack this thread runs on, part of that
            // stack's own mapping; making it accessible touches nothing else.
            let opened = unsafe {
                libc::mprotect(
                    reserve.lo as *mut libc::c_void,
                    reserve.hi - reserve.lo,
                    libc::PROT_READ | libc::PROT_WRITE,
                )
            } == 0;
            if opened {
                trip();
                return;
            }
        }
        let floor = current_floor();
        let now = RUNNING.with(Cell::get);
        if floor != 0 && !now.kernel.is_null() {
            // The guard page lies below the reserve where the stack has one.
            let bottom = if reserve.lo != 0 {
                reserve.lo
            } else {
                floor - STACK_MARGIN
            };
            // `bottom` is the guard's start on a coroutine stack, just above it on a thread's
            // own stack (where the guard's place is not reported exactly): look both ways.
            if addr.abs_diff(bottom) < GUARD_SLACK {
                report(&now, THREAD.with(Cell::get));
                // SAFETY: `abort` is async-signal-safe and does not return.
                unsafe { libc::abort() };
            }
        }
        chain(sig, info, ctx);
    }

    /// Passes a fault that is not a kernel's overflow to the handler installed before.
    fn chain(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let previous = if sig == libc::SIGBUS {
            PREVIOUS_BUS.get()
        } else {
            PREVIOUS_SEGV.get()
        };
        match previous.map(|p| (p.sa_sigaction, p.sa_flags)) {
            Some((f, flags)) if f != libc::SIG_DFL && f != libc::SIG_IGN => {
                if flags & libc::SA_SIGINFO != 0 {
                    // SAFETY: installed with `SA_SIGINFO`, so it has this signature; the
                    // arguments are the ones the kernel gave us.
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        unsafe { std::mem::transmute(f) };
                    f(sig, info, ctx);
                } else {
                    // SAFETY: installed without `SA_SIGINFO`: a plain one-argument handler.
                    let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(f) };
                    f(sig);
                }
            }
            _ => {
                // The default action: restore it and return, so the faulting instruction runs
                // again and the signal kills the process as it would have without us.
                // SAFETY: a zeroed `sigaction` with `SIG_DFL` (0) is the default disposition.
                let mut dfl: libc::sigaction = unsafe { std::mem::zeroed() };
                dfl.sa_sigaction = libc::SIG_DFL;
                // SAFETY: `dfl` is a valid disposition; `sigaction` is async-signal-safe.
                unsafe { libc::sigaction(sig, &dfl, std::ptr::null_mut()) };
            }
        }
    }

    /// Writes the message with `write(2)` only.
    fn report(now: &Running, thread: u32) {
        // SAFETY: `kernel`/`kernel_len` come from a `&str` that outlives the block being run
        // (the launch borrows it), and this thread is inside that block.
        let kernel = unsafe { std::slice::from_raw_parts(now.kernel, now.kernel_len) };
        let mut msg = Message::default();
        msg.put(b"\nrumba: kernel `");
        msg.put(kernel);
        msg.put(b"` overflowed its stack in block ");
        msg.dim(now.block);
        if thread != NO_THREAD {
            msg.put(b", thread ");
            msg.dim(Dim3::from_linear(u64::from(thread), now.block_dim));
        }
        msg.put(
            b", past its reserve too. Rust code cannot be stopped safely at an arbitrary \
              instruction, so the process aborts. Call rumba::kernel::check_stack() in recursive \
              code (it faults instead), and keep large arrays in local or shared memory, not on \
              the stack.\n",
        );
        msg.flush();
    }

    /// A fixed buffer written with `write(2)` when full and at the end.
    struct Message {
        buf: [u8; 512],
        len: usize,
    }

    impl Default for Message {
        fn default() -> Self {
            Message {
                buf: [0; 512],
                len: 0,
            }
        }
    }

    impl Message {
        fn put(&mut self, bytes: &[u8]) {
            for &b in bytes {
                if self.len == self.buf.len() {
                    self.flush();
                }
                self.buf[self.len] = b;
                self.len += 1;
            }
        }

        fn number(&mut self, mut n: u32) {
            let mut digits = [0u8; 10];
            let mut k = digits.len();
            loop {
                k -= 1;
                digits[k] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.put(&digits[k..]);
        }

        fn dim(&mut self, d: Dim3) {
            self.put(b"(");
            self.number(d.x);
            self.put(b", ");
            self.number(d.y);
            self.put(b", ");
            self.number(d.z);
            self.put(b")");
        }

        fn flush(&mut self) {
            let mut done = 0;
            while done < self.len {
                // SAFETY: writes initialised bytes of `buf` to stderr; `write` is
                // async-signal-safe.
                let n =
                    unsafe { libc::write(2, self.buf[done..].as_ptr().cast(), self.len - done) };
                if n <= 0 {
                    break;
                }
                done += n as usize;
            }
            self.len = 0;
        }
    }
}
