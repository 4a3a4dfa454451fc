//! Sound element loads and stores on memory that simulated GPU threads share and race on.
//!
//! This is the only place where kernel memory (global, shared, local) is read or written. The
//! views ([`View`](super::View)) compute an element's address and bounds-check it, then call
//! [`load`] / [`store`] here. Nothing in this module allocates or knows which memory space it is in.
//!
//! # Soundness
//!
//! GPU threads of different blocks run on different OS threads and may read and write the same
//! global memory at the same time, exactly as on hardware. In Rust's memory model a data race —
//! two unsynchronised accesses to one location, at least one a write, at least one non-atomic — is
//! undefined behaviour. So:
//!
//! * **No references.** Kernel memory is only ever reached through raw pointers; no `&T` or
//!   `&mut T` to an element is ever created, so there are no aliasing claims to break.
//! * **Every access is atomic.** An element of 1, 2, 4 or 8 bytes is read or written with one
//!   `Relaxed` atomic load or store of that width (`AtomicU8`…`AtomicU64::from_ptr`). Racing
//!   relaxed atomics are defined behaviour: each load returns some value that was stored. On
//!   x86-64 and AArch64 a relaxed load/store is a plain `mov` / `ldr` / `str`, so this costs nothing.
//! * **Wider or oddly aligned elements are split** into words of `min(align_of::<T>(), 8)` bytes:
//!   a 16-byte `Complex<f64>` is two 8-byte halves, a `Complex<f32>` two 4-byte halves, a
//!   `#[repr(C)]` record of `u8`s is moved byte by byte. Each word is atomic; the element as a
//!   whole may tear under a race, as it can on a GPU. Elements are [`bytemuck::Pod`], so any
//!   combination of words is a valid value and there are no padding bytes to leak.
//! * **Provenance.** An atomic load goes through a shared atomic reference, which needs write
//!   permission, so memory only borrowed immutably (a `&[T]` handed to
//!   [`GlobalView::from_slice`](super::GlobalView::from_slice)) is read with plain loads
//!   instead; nobody can write it while the borrow lives, so those cannot race.
//! * **Alignment** is the caller's obligation (every view checks or guarantees that the base
//!   pointer and strides are multiples of `align_of::<T>()`), so each word pointer is aligned for
//!   its atomic type.
//!
//! One gap remains between the hardware and Rust's abstract machine: *mixed-size* racing accesses
//! (the same bytes written as `u32` by one OS thread while another reads them as `u64`) are not
//! given a meaning by Rust's memory model, although every CPU defines them. They can only arise
//! for global memory accessed through differently typed views by two blocks at the same time.
//! Shared and local memory cannot race at all: all threads of a block run as coroutines on one OS
//! thread, so their accesses are sequenced, never concurrent.

use std::mem::{MaybeUninit, align_of, size_of};
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use bytemuck::Pod;

/// The word size used to move a `T`: its alignment, capped at 8 bytes.
const fn word_size<T>() -> usize {
    let a = align_of::<T>();
    if a >= 8 { 8 } else { a }
}

/// Reads one element with relaxed atomic word loads.
///
/// # Safety
///
/// `src` must be aligned for `T`, and the `size_of::<T>()` bytes at `src` must be allocated,
/// initialised, writable memory reached through a pointer with write permission (an atomic load
/// creates a shared atomic reference), and, for the duration of the call, accessed by others
/// only through this module (or through plain reads when nobody writes).
///
/// ```
/// let mut x = [1.5f64, 2.5];
/// // SAFETY: `x` is live, aligned, writable and nobody else uses it.
/// let v = unsafe { rumba::kernel::access::load(x.as_mut_ptr().wrapping_add(1)) };
/// assert_eq!(v, 2.5);
/// ```
#[inline(always)]
pub unsafe fn load<T: Pod>(src: *const T) -> T {
    let mut out = MaybeUninit::<T>::uninit();
    let dst = out.as_mut_ptr().cast::<u8>();
    let src = src.cast::<u8>();
    let w = word_size::<T>();
    let mut off = 0;
    while off < size_of::<T>() {
        // SAFETY: `src + off` is inside the element and aligned to `w` (the element is aligned
        // to `align_of::<T>() >= w` and `off` is a multiple of `w`), so it is a valid atomic of
        // width `w` per the caller's contract; `dst + off` is inside the local `out`, likewise
        // aligned, and written non-atomically because nobody else can see it.
        unsafe {
            let (s, d) = (src.add(off).cast_mut(), dst.add(off));
            match w {
                8 => d
                    .cast::<u64>()
                    .write(AtomicU64::from_ptr(s.cast()).load(Relaxed)),
                4 => d
                    .cast::<u32>()
                    .write(AtomicU32::from_ptr(s.cast()).load(Relaxed)),
                2 => d
                    .cast::<u16>()
                    .write(AtomicU16::from_ptr(s.cast()).load(Relaxed)),
                _ => d.write(AtomicU8::from_ptr(s).load(Relaxed)),
            }
        }
        off += w;
    }
    // SAFETY: every byte of `out` was written above (size is a multiple of `w`), and `T: Pod`
    // accepts any bit pattern.
    unsafe { out.assume_init() }
}

/// Writes one element with relaxed atomic word stores.
///
/// # Safety
///
/// `dst` must be aligned for `T`, and the `size_of::<T>()` bytes at `dst` must be allocated,
/// writable and, for the duration of the call, accessed by others only through this module.
///
/// ```
/// let mut x = [0u16; 4];
/// // SAFETY: `x` is live, aligned and exclusively ours.
/// unsafe { rumba::kernel::access::store(x.as_mut_ptr().wrapping_add(2), 7u16) };
/// assert_eq!(x, [0, 0, 7, 0]);
/// ```
#[inline(always)]
pub unsafe fn store<T: Pod>(dst: *mut T, value: T) {
    let src = (&raw const value).cast::<u8>();
    let dst = dst.cast::<u8>();
    let w = word_size::<T>();
    let mut off = 0;
    while off < size_of::<T>() {
        // SAFETY: as in `load`, with the roles swapped: `src + off` reads the local `value`,
        // `dst + off` is an aligned atomic of width `w` inside the caller's element.
        unsafe {
            let (s, d) = (src.add(off), dst.add(off));
            match w {
                8 => AtomicU64::from_ptr(d.cast()).store(s.cast::<u64>().read(), Relaxed),
                4 => AtomicU32::from_ptr(d.cast()).store(s.cast::<u32>().read(), Relaxed),
                2 => AtomicU16::from_ptr(d.cast()).store(s.cast::<u16>().read(), Relaxed),
                _ => AtomicU8::from_ptr(d).store(s.read(), Relaxed),
            }
        }
        off += w;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;
    use num_complex::Complex;

    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
    struct Rec {
        a: [u8; 3],
        b: u8,
        c: u16,
    }

    fn round_trip<T: Pod + PartialEq + std::fmt::Debug>(v: T) {
        let mut slot = [T::zeroed(); 3];
        // SAFETY: `slot` is a local, aligned array we own.
        unsafe {
            store(slot.as_mut_ptr().add(1), v);
            assert_eq!(load(slot.as_mut_ptr().add(1)), v);
        }
        assert_eq!(slot[0], T::zeroed());
        assert_eq!(slot[2], T::zeroed());
    }

    #[test]
    fn every_width_round_trips() {
        round_trip(0xabu8);
        round_trip(-3i16);
        round_trip(f16::from_f32(1.5));
        round_trip(7.25f32);
        round_trip(-1i64);
        round_trip(u128::MAX - 5);
        round_trip(Complex::new(1.0f64, -2.0));
        round_trip(Complex::new(1.0f32, -2.0));
        round_trip(Rec {
            a: [1, 2, 3],
            b: 4,
            c: 500,
        });
        round_trip([1u8, 2, 3]);
    }

    #[test]
    fn word_sizes_follow_alignment() {
        assert_eq!(word_size::<u8>(), 1);
        assert_eq!(word_size::<f16>(), 2);
        assert_eq!(word_size::<Complex<f32>>(), 4);
        assert_eq!(word_size::<Complex<f64>>(), 8);
        assert_eq!(word_size::<u128>(), 8);
        assert_eq!(word_size::<Rec>(), 2);
    }
}
