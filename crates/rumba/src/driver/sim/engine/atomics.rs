//! Atomic read-modify-write operations on global and shared memory, CUDA style: each returns
//! the value the element held before the operation.
//!
//! | operation | types |
//! |---|---|
//! | `add`, `sub`, `max`, `min`, `nanmax`, `nanmin`, `exch`, `cas` | `i32`, `u32`, `i64`, `u64`, `f32`, `f64` |
//! | `and`, `or`, `xor`, `inc`, `dec` | `i32`, `u32`, `i64`, `u64` |
//!
//! Integer `add`/`sub` wrap. `inc(bound)` stores `old >= bound ? 0 : old + 1` and
//! `dec(bound)` stores `(old == 0 || old > bound) ? bound : old - 1` (CUDA's `atomicInc` /
//! `atomicDec`; comparisons are signed for signed types). Float operations are compare-and-swap
//! loops on the bits, and float `cas` compares bit patterns. All operations are `Relaxed`, as on
//! the GPU; order them with [`ThreadCtx::threadfence`](super::ThreadCtx::threadfence).
//!
//! NaN follows Numba's `cuda.atomic` exactly:
//!
//! | stored `old`, operand `v` | `max` / `min` | `nanmax` / `nanmin` |
//! |---|---|---|
//! | neither NaN | `v` if `old < v` (`v < old` for min), else `old` | the same |
//! | `old` NaN | `old` (NaN stays) | `v` |
//! | `v` NaN | `old` | `old` |
//!
//! So `max`/`min` behave like Python's `max(old, v)` (a NaN already stored wins, and a NaN
//! operand leaves the element alone), while `nanmax`/`nanmin` treat NaN as missing data like
//! NumPy's `nanmax` (a NaN is replaced by the first number). The comparison is strict: an equal
//! value, `-0.0` against `0.0` included, keeps what is stored. When nothing changes nothing is
//! written. For integers `nanmax`/`nanmin` are `max`/`min`. Every operation returns the old
//! value.
//!
//! The operations are methods of [`View`] for the memory spaces in [`AtomicSpace`]; the bounds
//! and writability checks of [`View::set`] apply. This module touches only the addressed element.

use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed};

use bytemuck::Pod;

use super::shape::NdIndex;
use super::view::{AtomicSpace, View};

pub(crate) mod sealed {
    /// The element types of the atomic traits, and the values their add and subtract store,
    /// computed without touching memory: for memory that only one OS thread can reach (a block's
    /// arena in the work-item-loop engine), where a plain read and write do what the atomic
    /// operation does.
    pub trait Sealed: Copy {
        /// `old + v` as `fetch_add` stores it (wrapping for integers).
        fn sum(old: Self, v: Self) -> Self;
        /// `old - v` as `fetch_sub` stores it (wrapping for integers).
        fn difference(old: Self, v: Self) -> Self;
    }
}

/// Element types with atomic `add`, `sub`, `max`, `min`, `exch` and `cas`.
///
/// The functions take a raw element pointer; kernels use the [`View`] methods instead.
///
/// ```
/// use rumba::kernel::AtomicValue;
/// let mut x = 5i32;
/// // SAFETY: `x` is live and aligned.
/// assert_eq!(unsafe { i32::fetch_add(&mut x, 2) }, 5);
/// assert_eq!(x, 7);
/// ```
pub trait AtomicValue: Pod + sealed::Sealed {
    /// `*p += v` (wrapping for integers); returns the old value.
    ///
    /// # Safety
    /// `p` must be aligned, live, and accessed by others only atomically for the call.
    unsafe fn fetch_add(p: *mut Self, v: Self) -> Self;
    /// `*p -= v` (wrapping for integers); returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn fetch_sub(p: *mut Self, v: Self) -> Self;
    /// `*p = max(*p, v)`, keeping a stored NaN and ignoring a NaN `v`; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn fetch_max(p: *mut Self, v: Self) -> Self;
    /// `*p = min(*p, v)`, keeping a stored NaN and ignoring a NaN `v`; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn fetch_min(p: *mut Self, v: Self) -> Self;
    /// `*p = max(*p, v)` with NaN as missing data; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn fetch_nanmax(p: *mut Self, v: Self) -> Self;
    /// `*p = min(*p, v)` with NaN as missing data; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn fetch_nanmin(p: *mut Self, v: Self) -> Self;
    /// `*p = v`; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn swap(p: *mut Self, v: Self) -> Self;
    /// `if *p == expected { *p = new }`; returns the old value.
    ///
    /// # Safety
    /// As [`fetch_add`](Self::fetch_add).
    unsafe fn compare_swap(p: *mut Self, expected: Self, new: Self) -> Self;
}

/// Integer element types with atomic `and`, `or`, `xor`, `inc` and `dec`.
///
/// ```
/// use rumba::kernel::AtomicInteger;
/// let mut x = 3u32;
/// // SAFETY: `x` is live and aligned.
/// assert_eq!(unsafe { u32::fetch_inc(&mut x, 3) }, 3);
/// assert_eq!(x, 0); // wrapped at the bound
/// ```
pub trait AtomicInteger: AtomicValue {
    /// `*p &= v`; returns the old value.
    ///
    /// # Safety
    /// As [`AtomicValue::fetch_add`].
    unsafe fn fetch_and(p: *mut Self, v: Self) -> Self;
    /// `*p |= v`; returns the old value.
    ///
    /// # Safety
    /// As [`AtomicValue::fetch_add`].
    unsafe fn fetch_or(p: *mut Self, v: Self) -> Self;
    /// `*p ^= v`; returns the old value.
    ///
    /// # Safety
    /// As [`AtomicValue::fetch_add`].
    unsafe fn fetch_xor(p: *mut Self, v: Self) -> Self;
    /// `*p = if *p >= bound { 0 } else { *p + 1 }`; returns the old value.
    ///
    /// # Safety
    /// As [`AtomicValue::fetch_add`].
    unsafe fn fetch_inc(p: *mut Self, bound: Self) -> Self;
    /// `*p = if *p == 0 || *p > bound { bound } else { *p - 1 }`; returns the old value.
    ///
    /// # Safety
    /// As [`AtomicValue::fetch_add`].
    unsafe fn fetch_dec(p: *mut Self, bound: Self) -> Self;
}

macro_rules! int_atomics {
    ($($t:ty => $a:ty),+) => {$(
        impl sealed::Sealed for $t {
            #[inline(always)]
            fn sum(old: Self, v: Self) -> Self {
                old.wrapping_add(v)
            }
            #[inline(always)]
            fn difference(old: Self, v: Self) -> Self {
                old.wrapping_sub(v)
            }
        }
        // SAFETY (all functions): `from_ptr` needs an aligned pointer to memory that is only
        // accessed atomically for the duration, which is the functions' contract.
        impl AtomicValue for $t {
            #[inline]
            unsafe fn fetch_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_add(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_sub(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_max(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_min(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_nanmax(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { Self::fetch_max(p, v) }
            }
            #[inline]
            unsafe fn fetch_nanmin(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { Self::fetch_min(p, v) }
            }
            #[inline]
            unsafe fn swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).swap(v, Relaxed) }
            }
            #[inline]
            unsafe fn compare_swap(p: *mut Self, expected: Self, new: Self) -> Self {
                // SAFETY: see the impl comment.
                let r = unsafe { <$a>::from_ptr(p).compare_exchange(expected, new, Relaxed, Relaxed) };
                r.unwrap_or_else(|old| old)
            }
        }
        impl AtomicInteger for $t {
            #[inline]
            unsafe fn fetch_and(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_and(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_or(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_or(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_xor(p: *mut Self, v: Self) -> Self {
                // SAFETY: see the impl comment.
                unsafe { <$a>::from_ptr(p).fetch_xor(v, Relaxed) }
            }
            #[inline]
            unsafe fn fetch_inc(p: *mut Self, bound: Self) -> Self {
                let step = |old: $t| Some(if old >= bound { 0 } else { old.wrapping_add(1) });
                // SAFETY: see the impl comment.
                let r = unsafe { <$a>::from_ptr(p).fetch_update(Relaxed, Relaxed, step) };
                r.unwrap_or_else(|old| old)
            }
            #[inline]
            unsafe fn fetch_dec(p: *mut Self, bound: Self) -> Self {
                let step = |old: $t| Some(if old == 0 || old > bound { bound } else { old.wrapping_sub(1) });
                // SAFETY: see the impl comment.
                let r = unsafe { <$a>::from_ptr(p).fetch_update(Relaxed, Relaxed, step) };
                r.unwrap_or_else(|old| old)
            }
        }
    )+};
}

int_atomics!(i32 => AtomicI32, u32 => AtomicU32, i64 => AtomicI64, u64 => AtomicU64);

macro_rules! float_atomics {
    ($($t:ty => $a:ty),+) => {$(
        impl sealed::Sealed for $t {
            #[inline(always)]
            fn sum(old: Self, v: Self) -> Self {
                old + v
            }
            #[inline(always)]
            fn difference(old: Self, v: Self) -> Self {
                old - v
            }
        }
        impl AtomicValue for $t {
            #[inline]
            unsafe fn fetch_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { update(p, |old| <Self as sealed::Sealed>::sum(old, v)) }
            }
            #[inline]
            unsafe fn fetch_sub(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { update(p, |old| <Self as sealed::Sealed>::difference(old, v)) }
            }
            #[inline]
            unsafe fn fetch_max(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { update_if(p, v, |old| old < v) }
            }
            #[inline]
            unsafe fn fetch_min(p: *mut Self, v: Self) -> Self {
                // SAFETY: forwarded contract.
                unsafe { update_if(p, v, |old| v < old) }
            }
            #[inline]
            unsafe fn fetch_nanmax(p: *mut Self, v: Self) -> Self {
                if v.is_nan() {
                    // SAFETY: forwarded contract (an atomic read of the element).
                    return unsafe { update_if(p, v, |_| false) };
                }
                // SAFETY: forwarded contract.
                unsafe { update_if(p, v, |old| old.is_nan() || old < v) }
            }
            #[inline]
            unsafe fn fetch_nanmin(p: *mut Self, v: Self) -> Self {
                if v.is_nan() {
                    // SAFETY: forwarded contract (an atomic read of the element).
                    return unsafe { update_if(p, v, |_| false) };
                }
                // SAFETY: forwarded contract.
                unsafe { update_if(p, v, |old| old.is_nan() || v < old) }
            }
            #[inline]
            unsafe fn swap(p: *mut Self, v: Self) -> Self {
                // SAFETY: aligned (same alignment as the float) and atomically accessed per contract.
                <$t>::from_bits(unsafe { <$a>::from_ptr(p.cast()).swap(v.to_bits(), Relaxed) })
            }
            #[inline]
            unsafe fn compare_swap(p: *mut Self, expected: Self, new: Self) -> Self {
                // SAFETY: as for `swap`.
                let a = unsafe { <$a>::from_ptr(p.cast()) };
                let r = a.compare_exchange(expected.to_bits(), new.to_bits(), Relaxed, Relaxed);
                <$t>::from_bits(r.unwrap_or_else(|old| old))
            }
        }
    )+};
}

float_atomics!(f32 => AtomicU32, f64 => AtomicU64);

/// A float's bits as the matching unsigned integer, for the CAS loops.
trait FloatBits: Copy {
    fn rmw(p: *mut Self, f: impl Fn(Self) -> Self) -> Self;
    fn store_if(p: *mut Self, v: Self, pred: impl Fn(Self) -> bool) -> Self;
}

/// `*p = f(*p)` as a compare-and-swap loop; returns the old value.
///
/// # Safety
/// `p` must be aligned, live, and accessed by others only atomically for the call.
unsafe fn update<F: FloatBits>(p: *mut F, f: impl Fn(F) -> F) -> F {
    F::rmw(p, f)
}

/// `if pred(*p) { *p = v }` as a compare-and-swap loop (no write when `pred` is false); returns
/// the old value.
///
/// # Safety
/// As [`update`].
unsafe fn update_if<F: FloatBits>(p: *mut F, v: F, pred: impl Fn(F) -> bool) -> F {
    F::store_if(p, v, pred)
}

macro_rules! float_bits {
    ($($t:ty => $a:ty),+) => {$(
        impl FloatBits for $t {
            #[inline]
            fn rmw(p: *mut Self, f: impl Fn(Self) -> Self) -> Self {
                // SAFETY: only reached through `update`, whose contract makes `p` a valid,
                // aligned, atomically accessed float (same size and alignment as `$a`).
                let a = unsafe { <$a>::from_ptr(p.cast()) };
                let mut old = a.load(Relaxed);
                loop {
                    let new = f(<$t>::from_bits(old)).to_bits();
                    match a.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(_) => return <$t>::from_bits(old),
                        Err(seen) => old = seen,
                    }
                }
            }

            #[inline]
            fn store_if(p: *mut Self, v: Self, pred: impl Fn(Self) -> bool) -> Self {
                // SAFETY: only reached through `update_if`, whose contract is `update`'s.
                let a = unsafe { <$a>::from_ptr(p.cast()) };
                let mut old = a.load(Relaxed);
                while pred(<$t>::from_bits(old)) {
                    match a.compare_exchange_weak(old, v.to_bits(), Relaxed, Relaxed) {
                        Ok(_) => break,
                        Err(seen) => old = seen,
                    }
                }
                <$t>::from_bits(old)
            }
        }
    )+};
}

float_bits!(f32 => AtomicU32, f64 => AtomicU64);

impl<T: AtomicValue, S: AtomicSpace> View<'_, T, S> {
    /// Atomically adds `v` to element `index`; returns the old value.
    ///
    /// ```
    /// let mut d = [1.5f32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_add(0, 1.0), 1.5);
    /// assert_eq!(v.get(0), 2.5);
    /// ```
    #[inline]
    pub fn atomic_add<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: `p` is a checked, aligned element of live memory only accessed atomically.
        unsafe { T::fetch_add(p, v) }
    }

    /// Atomically subtracts `v` from element `index`; returns the old value.
    ///
    /// ```
    /// let mut d = [0u32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_sub(0, 1), 0);
    /// assert_eq!(v.get(0), u32::MAX); // wraps
    /// ```
    #[inline]
    pub fn atomic_sub<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_sub(p, v) }
    }

    /// Atomically stores `max(old, v)`; returns the old value. Numba's `cuda.atomic.max`: a
    /// NaN already stored stays, and a NaN `v` changes nothing (see the [module docs](self)).
    ///
    /// ```
    /// let mut d = [1.0f64, f64::NAN];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_max(0, 2.0), 1.0);
    /// assert_eq!(v.atomic_max(0, f64::NAN), 2.0); // a NaN operand changes nothing
    /// assert!(v.atomic_max(1, 2.0).is_nan()); // a stored NaN stays
    /// assert_eq!(v.get(0), 2.0);
    /// assert!(v.get(1).is_nan());
    /// ```
    #[inline]
    pub fn atomic_max<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_max(p, v) }
    }

    /// Atomically stores `min(old, v)`; returns the old value. Numba's `cuda.atomic.min`: a
    /// NaN already stored stays, and a NaN `v` changes nothing (see the [module docs](self)).
    ///
    /// ```
    /// let mut d = [5i64];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_min(0, -3), 5);
    /// assert_eq!(v.get(0), -3);
    /// let mut f = [f32::NAN];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut f);
    /// assert!(v.atomic_min(0, 1.0).is_nan());
    /// assert!(v.get(0).is_nan()); // a stored NaN stays
    /// ```
    #[inline]
    pub fn atomic_min<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_min(p, v) }
    }

    /// Atomically stores `max(old, v)` treating NaN as missing data (Numba's
    /// `cuda.atomic.nanmax`, like NumPy's `nanmax`): a stored NaN is replaced by `v`, a NaN `v`
    /// changes nothing; returns the old value. For integers it is [`atomic_max`](Self::atomic_max).
    ///
    /// ```
    /// let mut d = [f64::NAN, 1.0];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert!(v.atomic_nanmax(0, 2.0).is_nan());
    /// assert_eq!(v.atomic_nanmax(1, f64::NAN), 1.0);
    /// assert_eq!(v.get(0), 2.0);
    /// assert_eq!(v.get(1), 1.0);
    /// ```
    #[inline]
    pub fn atomic_nanmax<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_nanmax(p, v) }
    }

    /// Atomically stores `min(old, v)` treating NaN as missing data (Numba's
    /// `cuda.atomic.nanmin`, like NumPy's `nanmin`): a stored NaN is replaced by `v`, a NaN `v`
    /// changes nothing; returns the old value. For integers it is [`atomic_min`](Self::atomic_min).
    ///
    /// ```
    /// let mut d = [f32::NAN, 3.0];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert!(v.atomic_nanmin(0, 2.0).is_nan());
    /// assert_eq!(v.atomic_nanmin(1, -1.0), 3.0);
    /// assert_eq!(d, [2.0, -1.0]);
    /// ```
    #[inline]
    pub fn atomic_nanmin<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_nanmin(p, v) }
    }

    /// Atomically stores `v`; returns the old value.
    ///
    /// ```
    /// let mut d = [1u64];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_exch(0, 9), 1);
    /// assert_eq!(v.get(0), 9);
    /// ```
    #[inline]
    pub fn atomic_exch<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::swap(p, v) }
    }

    /// Atomically stores `new` if the element equals `expected`; returns the old value (so the
    /// swap happened iff the result equals `expected`).
    ///
    /// ```
    /// let mut d = [4i32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_cas(0, 3, 10), 4); // no swap
    /// assert_eq!(v.atomic_cas(0, 4, 10), 4); // swapped
    /// assert_eq!(v.get(0), 10);
    /// ```
    #[inline]
    pub fn atomic_cas<I: NdIndex>(&self, index: I, expected: T, new: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::compare_swap(p, expected, new) }
    }
}

impl<T: AtomicInteger, S: AtomicSpace> View<'_, T, S> {
    /// Atomic bitwise and; returns the old value.
    ///
    /// ```
    /// let mut d = [0b1100u32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_and(0, 0b1010), 0b1100);
    /// assert_eq!(v.get(0), 0b1000);
    /// ```
    #[inline]
    pub fn atomic_and<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_and(p, v) }
    }

    /// Atomic bitwise or; returns the old value.
    ///
    /// ```
    /// let mut d = [0b0100i32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// v.atomic_or(0, 0b0001);
    /// assert_eq!(v.get(0), 0b0101);
    /// ```
    #[inline]
    pub fn atomic_or<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_or(p, v) }
    }

    /// Atomic bitwise xor; returns the old value.
    ///
    /// ```
    /// let mut d = [0b0110u64];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// v.atomic_xor(0, 0b0011);
    /// assert_eq!(v.get(0), 0b0101);
    /// ```
    #[inline]
    pub fn atomic_xor<I: NdIndex>(&self, index: I, v: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_xor(p, v) }
    }

    /// CUDA `atomicInc`: stores `old >= bound ? 0 : old + 1`; returns the old value.
    ///
    /// ```
    /// let mut d = [1u32];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// v.atomic_inc(0, 2);
    /// v.atomic_inc(0, 2);
    /// assert_eq!(v.get(0), 0);
    /// ```
    #[inline]
    pub fn atomic_inc<I: NdIndex>(&self, index: I, bound: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_inc(p, bound) }
    }

    /// CUDA `atomicDec`: stores `(old == 0 || old > bound) ? bound : old - 1`; returns the old
    /// value.
    ///
    /// ```
    /// let mut d = [0u64];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.atomic_dec(0, 5), 0);
    /// assert_eq!(v.get(0), 5);
    /// ```
    #[inline]
    pub fn atomic_dec<I: NdIndex>(&self, index: I, bound: T) -> T {
        let p = self.element_ptr_mut(index);
        // SAFETY: as in `atomic_add`.
        unsafe { T::fetch_dec(p, bound) }
    }
}

#[cfg(test)]
mod tests {
    use crate::driver::sim::engine::view::GlobalView;

    #[test]
    fn inc_dec_follow_cuda() {
        let mut d = [0u32, 7, 0i32 as u32];
        let v = GlobalView::from_slice_mut(&mut d);
        let seq: Vec<u32> = (0..5).map(|_| v.atomic_inc(0, 2)).collect();
        assert_eq!(seq, [0, 1, 2, 0, 1]);
        let seq: Vec<u32> = (0..4).map(|_| v.atomic_dec(1, 5)).collect();
        assert_eq!(seq, [7, 5, 4, 3]);
        let mut s = [-1i32];
        let v = GlobalView::from_slice_mut(&mut s);
        assert_eq!(v.atomic_inc(0, 3), -1);
        assert_eq!(v.get(0), 0);
    }

    #[test]
    fn float_ops() {
        let mut d = [1.0f64, 2.0, f64::NAN];
        let v = GlobalView::from_slice_mut(&mut d);
        assert_eq!(v.atomic_sub(0, 0.5), 1.0);
        assert_eq!(v.atomic_min(1, -1.0), 2.0);
        assert!(v.atomic_min(2, 3.0).is_nan());
        assert!(v.atomic_nanmin(2, 3.0).is_nan());
        assert_eq!(v.atomic_exch(0, 8.0), 0.5);
        assert_eq!(v.atomic_cas(0, 8.0, 9.0), 8.0);
        assert_eq!(d, [9.0, -1.0, 3.0]);
    }

    #[test]
    fn nan_rules_follow_numba() {
        let nan = f32::NAN;
        // (stored, operand) -> (max, min, nanmax, nanmin) results stored; the old value is
        // always returned.
        let cases: [(f32, f32, [f32; 4]); 5] = [
            (1.0, 2.0, [2.0, 1.0, 2.0, 1.0]),
            (nan, 2.0, [nan, nan, 2.0, 2.0]),
            (2.0, nan, [2.0, 2.0, 2.0, 2.0]),
            (nan, nan, [nan, nan, nan, nan]),
            (-0.0, 0.0, [-0.0, -0.0, -0.0, -0.0]),
        ];
        for (stored, operand, want) in cases {
            let mut d = [stored; 4];
            let v = GlobalView::from_slice_mut(&mut d);
            let olds = [
                v.atomic_max(0, operand),
                v.atomic_min(1, operand),
                v.atomic_nanmax(2, operand),
                v.atomic_nanmin(3, operand),
            ];
            for (k, (got, old)) in d.iter().zip(olds).enumerate() {
                assert_eq!(
                    got.to_bits(),
                    want[k].to_bits(),
                    "op {k} on ({stored}, {operand})"
                );
                assert_eq!(old.to_bits(), stored.to_bits());
            }
        }
        let mut i = [3i64, 3];
        let v = GlobalView::from_slice_mut(&mut i);
        assert_eq!(v.atomic_nanmax(0, 7), 3);
        assert_eq!(v.atomic_nanmin(1, -7), 3);
        assert_eq!(i, [7, -7]);
    }

    #[test]
    fn read_only_views_refuse_atomics() {
        let d = [1i32];
        let v = GlobalView::from_slice(&d);
        assert!(std::panic::catch_unwind(|| v.atomic_add(0, 1)).is_err());
    }
}
