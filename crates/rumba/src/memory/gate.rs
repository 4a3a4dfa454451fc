//! The reset gate: why a handle from before [`Context::reset`](crate::Context::reset) can never
//! reach memory the reset freed, on any backend, and why a reset is safe while other threads queue
//! work.
//!
//! A reset frees every allocation of its context, and the addresses come back in later
//! allocations (a driver reuses them; OpenCL's and CUDA's do at once). A raw device address
//! cannot say which allocation it meant, so the check lives where a *handle* becomes an address
//! for the driver:
//!
//! - Every operation that hands device addresses to the driver holds a [`Lease`] from before it
//!   takes the first address until the work is queued (for a synchronous operation, until it is
//!   done). Addresses of a [`DeviceBuffer`](super::DeviceBuffer) are only given out against a
//!   lease ([`DeviceBuffer::addr`](super::DeviceBuffer::addr)), which first refuses a buffer whose
//!   memory a reset freed with [`Error::StaleHandle`]. (`device_ptr()` stays, as a number for
//!   people and for descriptions; `tests/handles.rs` checks that the library itself never feeds
//!   one to the driver.)
//! - A reset holds the gate [`exclusively`](Exclusive): it waits until the operations holding
//!   leases have queued their work, synchronizes the device (so the queued work has run), frees
//!   the memory and retires its origins, and only then lets new leases through — which see the
//!   retirement and refuse the old handles. No operation can check a handle before the reset and
//!   use its address after it.
//! - A buffer of memory that rumba imports (CUDA Array Interface, DLPack, IPC) has no block whose
//!   origin a reset retires; it records the device's reset count instead ([`resets`]) and is
//!   refused after any reset of that device's context: re-import such memory after a reset.
//!
//! Leases nest on one thread (an operation that allocates a temporary or launches a kernel with
//! host arrays takes more), and never wait on a driver callback thread: there, a reset in progress
//! makes the operation fail with [`Error::ResetInProgress`] instead of waiting, because the reset
//! may itself be waiting for that callback to finish. A reset is refused on a callback thread and
//! inside an operation that holds a lease ([`Error::ResetRefused`]).
//!
//! The gate is one for the process: resets are rare, and one gate keeps operations that touch two
//! devices (peer copies) free of lock-order questions.
//!
//! This module touches only its own lock; the driver layer is asked whether this is a callback
//! thread.

use std::cell::Cell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

use crate::error::{Error, Result};

static GATE: RwLock<()> = RwLock::new(());

/// Resets so far per `(driver identity, device)`: imports compare it with their own.
static RESETS: Mutex<Option<HashMap<(usize, usize), u64>>> = Mutex::new(None);

thread_local! {
    /// Leases (and exclusive holds) this thread has open: a nested one takes no lock.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Proof that no reset runs while it lives: the device addresses an operation took under it stay
/// the memory of the handles they came from until its work is queued. Not `Send`: dropped on the
/// thread that took it.
pub(crate) struct Lease {
    _guard: Option<RwLockReadGuard<'static, ()>>,
    _thread: PhantomData<*const ()>,
}

impl Lease {
    /// Takes a lease: waits while a reset runs (or, on a driver callback thread, refuses).
    ///
    /// # Errors
    /// [`Error::ResetInProgress`] on a driver callback thread while a reset holds or waits for
    /// the gate.
    pub(crate) fn enter() -> Result<Lease> {
        let guard = if DEPTH.get() > 0 {
            None
        } else if crate::driver::callback::is_callback_thread() {
            match GATE.try_read() {
                Ok(g) => Some(g),
                Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
                Err(TryLockError::WouldBlock) => return Err(Error::ResetInProgress),
            }
        } else {
            Some(crate::sync::read(&GATE))
        };
        DEPTH.set(DEPTH.get() + 1);
        Ok(Lease {
            _guard: guard,
            _thread: PhantomData,
        })
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get() - 1);
    }
}

/// The gate held by a reset: no lease exists while it lives.
pub(crate) struct Exclusive {
    _guard: RwLockWriteGuard<'static, ()>,
    _thread: PhantomData<*const ()>,
}

impl Exclusive {
    /// Waits until no operation holds a lease, and keeps new ones out (for a reset of `device`).
    ///
    /// # Errors
    /// [`Error::ResetRefused`] on a driver callback thread (the reset would wait for device work
    /// that may need this thread) and inside an operation that holds a lease (it would wait for
    /// itself).
    pub(crate) fn enter(device: usize) -> Result<Exclusive> {
        if crate::driver::callback::is_callback_thread() {
            return Err(Error::ResetRefused {
                device,
                reason: "called from a stream callback, which must not wait for device work",
            });
        }
        if DEPTH.get() > 0 {
            return Err(Error::ResetRefused {
                device,
                reason: "called inside an operation on device memory (for instance from a memory resource's allocate), which the reset would wait for",
            });
        }
        let guard = crate::sync::write(&GATE);
        // What the reset itself calls may take leases: they nest inside this hold.
        DEPTH.set(DEPTH.get() + 1);
        Ok(Exclusive {
            _guard: guard,
            _thread: PhantomData,
        })
    }

    /// Counts a reset of `device` of the driver identified by `driver`: imports made before it
    /// are refused from now on.
    pub(crate) fn count_reset(&self, driver: usize, device: usize) {
        let mut r = crate::sync::lock(&RESETS);
        *r.get_or_insert_with(HashMap::new)
            .entry((driver, device))
            .or_insert(0) += 1;
    }
}

impl Drop for Exclusive {
    fn drop(&mut self) {
        DEPTH.set(DEPTH.get() - 1);
    }
}

/// Resets of `device` of the driver identified by `driver` so far.
pub(crate) fn resets(driver: usize, device: usize) -> u64 {
    let r = crate::sync::lock(&RESETS);
    r.as_ref()
        .and_then(|r| r.get(&(driver, device)).copied())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leases_nest_and_a_reset_inside_one_is_refused() {
        let a = Lease::enter().unwrap();
        let b = Lease::enter().unwrap(); // no second read lock: no deadlock with a waiting writer
        assert!(matches!(
            Exclusive::enter(0),
            Err(Error::ResetRefused { device: 0, .. })
        ));
        drop((b, a));
        let x = Exclusive::enter(0).unwrap();
        let inner = Lease::enter().unwrap(); // the reset's own calls pass
        drop(inner);
        x.count_reset(usize::MAX, 7);
        drop(x);
        assert_eq!(resets(usize::MAX, 7), 1);
        assert_eq!(resets(usize::MAX, 8), 0);
    }
}
