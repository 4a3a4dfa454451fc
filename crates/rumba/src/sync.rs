//! Taking the library's locks: [`lock`], [`try_lock`], [`read`], [`write`], [`wait`],
//! [`wait_timeout`], [`get_mut`] and [`into_inner`], each of which recovers the data of a
//! *poisoned* lock instead of panicking.
//!
//! # Why recovering from poison is sound here
//!
//! A `std` lock is poisoned when a thread panicked while holding it; `lock()` then returns an
//! error carrying the guard. Taking the guard anyway is what every lock of this crate does, for
//! three reasons:
//!
//! - **Memory safety does not depend on it.** A poisoned lock still holds a valid, initialised
//!   value of its type; poisoning is a warning about the value's *logical* state, and no `unsafe`
//!   code of this crate relies on a lock's contents being logically complete (each `unsafe` block
//!   states its own conditions, checked where it runs).
//! - **The data stays consistent.** The critical sections are short and update their tables and
//!   counters so that every point where a panic could arise (an allocation, a user's memory
//!   manager creating a context's manager, a driver call) leaves a state the code already
//!   handles: an entry that is there or is not, a counter that was bumped or was not. A later
//!   caller then sees at worst a missing entry, which it reports as it reports any other (a typed
//!   error: an invalid handle, a block that is not live).
//! - **The runtime must survive a panic.** Panics of user code (kernel bodies, stream callbacks,
//!   queued work) are caught at the runtime's boundaries (`crate::unwind`), and the runtime stays
//!   usable afterwards. Propagating poison would turn one caught panic into a panic in every later
//!   call that takes the same lock, including the `Drop` impls of buffers and streams — and a
//!   panic in a `Drop` that runs while the thread is already unwinding aborts the process.
//!
//! New code keeps the second point true: no user code and no call that can panic between two
//! writes that only make sense together; do the fallible work first, then update the table.
//!
//! This module touches nothing but the lock it is given.

use std::sync::{
    Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
    TryLockError,
};

/// Locks `m`, recovering the data of a poisoned mutex (see the [module docs](self)).
pub(crate) fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Locks `m` if no one holds it, recovering the data of a poisoned mutex; `None` when it is held.
pub(crate) fn try_lock<T: ?Sized>(m: &Mutex<T>) -> Option<MutexGuard<'_, T>> {
    match m.try_lock() {
        Ok(g) => Some(g),
        Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// Read-locks `l`, recovering the data of a poisoned lock.
pub(crate) fn read<T: ?Sized>(l: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(PoisonError::into_inner)
}

/// Write-locks `l`, recovering the data of a poisoned lock.
pub(crate) fn write<T: ?Sized>(l: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(PoisonError::into_inner)
}

/// Waits on `cv` with `guard`, recovering the data if the mutex was poisoned meanwhile.
pub(crate) fn wait<'a, T>(cv: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    cv.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

/// Waits on `cv` with `guard` for at most `timeout`, recovering the data if the mutex was
/// poisoned meanwhile; `true` when the wait timed out.
// Only the OpenCL backend's callback pool waits with a timeout.
#[cfg_attr(not(feature = "opencl"), allow(dead_code))]
pub(crate) fn wait_timeout<'a, T>(
    cv: &Condvar,
    guard: MutexGuard<'a, T>,
    timeout: std::time::Duration,
) -> (MutexGuard<'a, T>, bool) {
    let (guard, result) = cv
        .wait_timeout(guard, timeout)
        .unwrap_or_else(PoisonError::into_inner);
    (guard, result.timed_out())
}

/// The data of a mutex held exclusively, poisoned or not.
pub(crate) fn get_mut<T: ?Sized>(m: &mut Mutex<T>) -> &mut T {
    m.get_mut().unwrap_or_else(PoisonError::into_inner)
}

/// The data of a mutex that is being taken apart, poisoned or not.
pub(crate) fn into_inner<T>(m: Mutex<T>) -> T {
    m.into_inner().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mutex poisoned by a panicking holder, which kept the value it had written.
    fn poisoned() -> Mutex<Vec<u32>> {
        let m = Mutex::new(vec![1]);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut g = m.lock().unwrap();
            g.push(2);
            panic!("while holding the lock");
        }));
        assert!(m.is_poisoned());
        m
    }

    #[test]
    fn a_poisoned_mutex_still_gives_its_data() {
        let mut m = poisoned();
        assert_eq!(*lock(&m), [1, 2]);
        get_mut(&mut m).push(3);
        assert_eq!(into_inner(m), [1, 2, 3]);
    }

    #[test]
    fn a_poisoned_rwlock_still_gives_its_data() {
        let l = RwLock::new(5);
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _g = l.write().unwrap();
            panic!("while holding the lock");
        }));
        *write(&l) += 1;
        assert_eq!(*read(&l), 6);
    }
}
