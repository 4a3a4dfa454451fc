//! Bulk byte movement in and out of simulated device memory, free of data races.
//!
//! Simulated device memory is shared by stream workers and kernel threads that may touch the same
//! bytes at the same time (as on a GPU, where such races give unspecified values but are not
//! undefined). To keep that sound in Rust's memory model, every access to the *device side* goes
//! through relaxed atomic loads and stores: 8-byte words for the aligned middle of a range and
//! single bytes for the unaligned head and tail. On x86-64 and AArch64 relaxed atomic loads and
//! stores are plain moves, and measured on a 64 MiB copy they run at memcpy's throughput (the copy
//! is bound by memory bandwidth, not by instruction choice).
//!
//! The *host side* of a copy is ordinary memory that the caller guarantees is not concurrently
//! written (a borrowed slice, or page-locked memory owned by the operation), so it is read and
//! written with plain unaligned accesses.
//!
//! This module touches only the raw pointers it is given.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

const WORD: usize = 8;

/// Number of leading bytes before `addr` reaches 8-byte alignment, capped at `len`.
fn head_len(addr: usize, len: usize) -> usize {
    ((WORD - addr % WORD) % WORD).min(len)
}

/// Copies `len` bytes from host memory `src` into device memory `dst`.
///
/// # Safety
/// `src` must be valid for reads of `len` bytes and not written concurrently; `dst` must be valid
/// device memory (only ever accessed through this module's atomics or other atomics) of `len` bytes.
pub(crate) unsafe fn host_to_device(dst: *mut u8, src: *const u8, len: usize) {
    let head = head_len(dst as usize, len);
    for i in 0..head {
        // SAFETY: in bounds by the caller's contract; device bytes are accessed atomically.
        unsafe { (*dst.add(i).cast::<AtomicU8>()).store(*src.add(i), Relaxed) };
    }
    let words = (len - head) / WORD;
    // SAFETY: `head <= len`, so both offsets stay inside (or one past) the caller's ranges.
    let dw = unsafe { dst.add(head) }.cast::<AtomicU64>();
    // SAFETY: as above.
    let sw = unsafe { src.add(head) }.cast::<u64>();
    for i in 0..words {
        // SAFETY: `dw` is 8-aligned and in bounds; the host side is read unaligned.
        unsafe { (*dw.add(i)).store(sw.add(i).read_unaligned(), Relaxed) };
    }
    for i in head + words * WORD..len {
        // SAFETY: in bounds by the caller's contract.
        unsafe { (*dst.add(i).cast::<AtomicU8>()).store(*src.add(i), Relaxed) };
    }
}

/// Copies `len` bytes from device memory `src` into host memory `dst`.
///
/// # Safety
/// `dst` must be valid for writes of `len` bytes and not accessed concurrently; `src` must be valid
/// device memory of `len` bytes.
pub(crate) unsafe fn device_to_host(dst: *mut u8, src: *const u8, len: usize) {
    let head = head_len(src as usize, len);
    for i in 0..head {
        // SAFETY: in bounds by the caller's contract.
        unsafe { *dst.add(i) = (*src.add(i).cast::<AtomicU8>()).load(Relaxed) };
    }
    let words = (len - head) / WORD;
    // SAFETY: `head <= len`, so both offsets stay inside (or one past) the caller's ranges.
    let sw = unsafe { src.add(head) }.cast::<AtomicU64>();
    // SAFETY: as above.
    let dw = unsafe { dst.add(head) }.cast::<u64>();
    for i in 0..words {
        // SAFETY: `sw` is 8-aligned and in bounds; the host side is written unaligned.
        unsafe { dw.add(i).write_unaligned((*sw.add(i)).load(Relaxed)) };
    }
    for i in head + words * WORD..len {
        // SAFETY: in bounds by the caller's contract.
        unsafe { *dst.add(i) = (*src.add(i).cast::<AtomicU8>()).load(Relaxed) };
    }
}

/// Copies `len` bytes between two device ranges, which may overlap (memmove semantics).
///
/// # Safety
/// Both ranges must be valid device memory of `len` bytes.
pub(crate) unsafe fn device_to_device(dst: *mut u8, src: *const u8, len: usize) {
    // SAFETY (both closures): only called with `i < len`, inside the caller's device ranges,
    // which are only ever accessed atomically.
    let load = |i: usize| unsafe { (*src.add(i).cast::<AtomicU8>()).load(Relaxed) };
    let store = |i: usize, v: u8| unsafe { (*dst.add(i).cast::<AtomicU8>()).store(v, Relaxed) };
    let same_phase = (dst as usize) % WORD == (src as usize) % WORD;
    let overlapping =
        (src as usize) < (dst as usize) + len && (dst as usize) < (src as usize) + len;
    if overlapping && (dst as usize) > (src as usize) {
        // Copy backwards so that bytes are read before they are overwritten.
        for i in (0..len).rev() {
            store(i, load(i));
        }
        return;
    }
    if !same_phase || overlapping {
        for i in 0..len {
            store(i, load(i));
        }
        return;
    }
    let head = head_len(dst as usize, len);
    for i in 0..head {
        store(i, load(i));
    }
    let words = (len - head) / WORD;
    // SAFETY: `head <= len`, so both offsets stay inside (or one past) the caller's ranges.
    let dw = unsafe { dst.add(head) }.cast::<AtomicU64>();
    // SAFETY: as above.
    let sw = unsafe { src.add(head) }.cast::<AtomicU64>();
    for i in 0..words {
        // SAFETY: both word pointers are 8-aligned (same phase) and in bounds.
        unsafe { (*dw.add(i)).store((*sw.add(i)).load(Relaxed), Relaxed) };
    }
    for i in head + words * WORD..len {
        store(i, load(i));
    }
}

/// Sets `len` bytes of device memory at `dst` to `value`.
///
/// # Safety
/// `dst` must be valid device memory of `len` bytes.
pub(crate) unsafe fn fill(dst: *mut u8, value: u8, len: usize) {
    let head = head_len(dst as usize, len);
    // SAFETY: only called with `i < len`, inside the caller's device range (accessed atomically).
    let store = |i: usize| unsafe { (*dst.add(i).cast::<AtomicU8>()).store(value, Relaxed) };
    (0..head).for_each(store);
    let words = (len - head) / WORD;
    let pattern = u64::from_ne_bytes([value; WORD]);
    // SAFETY: `head <= len`, so the offset stays inside (or one past) the caller's range.
    let dw = unsafe { dst.add(head) }.cast::<AtomicU64>();
    for i in 0..words {
        // SAFETY: 8-aligned and in bounds.
        unsafe { (*dw.add(i)).store(pattern, Relaxed) };
    }
    (head + words * WORD..len).for_each(store);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(len: usize) -> Vec<u64> {
        vec![0; len.div_ceil(8) + 1]
    }

    #[test]
    fn round_trips_at_every_alignment() {
        let src: Vec<u8> = (0..100u8).collect();
        for off in 0..9 {
            for len in [0, 1, 7, 8, 9, 31, 64, 91] {
                let mut dev = device(100);
                let d = unsafe { dev.as_mut_ptr().cast::<u8>().add(off) };
                unsafe { host_to_device(d, src.as_ptr(), len) };
                let mut back = vec![0u8; len];
                unsafe { device_to_host(back.as_mut_ptr(), d, len) };
                assert_eq!(back, src[..len], "off {off} len {len}");
            }
        }
    }

    #[test]
    fn device_copies_handle_overlap_both_ways() {
        for (from, to) in [(0usize, 3usize), (3, 0), (1, 9), (9, 1), (0, 16)] {
            let mut dev = device(64);
            let base = dev.as_mut_ptr().cast::<u8>();
            let init: Vec<u8> = (0..64u8).collect();
            unsafe { host_to_device(base, init.as_ptr(), 64) };
            unsafe { device_to_device(base.add(to), base.add(from), 40) };
            let mut expect = init.clone();
            expect.copy_within(from..from + 40, to);
            let mut back = vec![0u8; 64];
            unsafe { device_to_host(back.as_mut_ptr(), base, 64) };
            assert_eq!(back, expect, "{from} -> {to}");
        }
    }

    #[test]
    fn fill_sets_exactly_the_range() {
        let mut dev = device(40);
        let base = dev.as_mut_ptr().cast::<u8>();
        unsafe { fill(base.add(3), 0xAB, 29) };
        let mut back = vec![0u8; 40];
        unsafe { device_to_host(back.as_mut_ptr(), base, 40) };
        for (i, b) in back.iter().enumerate() {
            assert_eq!(*b, if (3..32).contains(&i) { 0xAB } else { 0 }, "byte {i}");
        }
    }
}
