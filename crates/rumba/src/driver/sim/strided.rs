//! Strided device copies and broadcast fills on the simulator:
//! [`Driver::copy_strided_async`](crate::driver::Driver::copy_strided_async).
//!
//! This is the sim's stand-in for the built-in "strided copy" kernel a CUDA backend launches: for
//! every index of a shape, one element moves from a strided source (or a broadcast value) to a
//! strided destination. It runs on the stream's worker thread, as any queued work does.
//!
//! To be fast it first normalises the two layouts together into a loop nest ([`Plan`]):
//! length-1 axes are dropped, axes are ordered by decreasing destination stride (so writes walk
//! memory forwards), and neighbouring axes that continue each other on **both** sides are merged.
//! What remains is an odometer over the outer axes and one tight inner loop, which is either
//! - a contiguous run on both sides — one bulk [`bytes::device_to_device`] (or a word-wide fill),
//!   so a contiguous copy is a single memmove and "every other column" is one memmove per row;
//! - or an element loop with one relaxed atomic load and store per element, as wide as the
//!   alignment of every address allows (8, 4, 2 or 1 bytes).
//!
//! The normalisation is written here rather than borrowed from the array layer's
//! `ContiguousRuns`, because the driver layer depends on nothing above it and because it must
//! pair two layouts at once (runs of one layout alone do not say how to walk the other).
//!
//! All device memory is accessed through relaxed atomics, as everywhere in the sim (see
//! [`bytes`]); both ranges are resolved and bounds-checked when the operation is queued, and the
//! resolutions keep their regions alive until it has run.
//!
//! This module touches only simulator memory and the stream it queues on.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use super::inflight::Touch;
use super::{SendPtr, SimDriver, bytes};
use crate::driver::{StreamHandle, StridedCopy, StridedSource};
use crate::error::{Error, Result, ShapeError, StridesError};

/// One loop level: `n` iterations stepping `d` bytes in the destination and `s` in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Axis {
    n: usize,
    d: isize,
    s: isize,
}

/// A normalised loop nest for one strided copy or fill.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Plan {
    itemsize: usize,
    /// Outer loops, outermost first.
    outer: Vec<Axis>,
    /// The innermost loop.
    inner: Axis,
    /// The inner loop is one contiguous run on both sides.
    contiguous: bool,
    /// Access width in bytes for element loops: divides the item size, both start addresses and
    /// every stride.
    word: usize,
}

/// [`StridesError::Count`] for strides that do not match the copy's shape.
fn strides_count(shape: &[usize], strides: &[isize]) -> Error {
    StridesError::Count {
        shape: shape.to_vec(),
        strides: strides.to_vec(),
    }
    .into()
}

/// `(back, len)`: the touched range of a strided side is `[ptr - back, ptr - back + len)`.
fn reach(shape: &[usize], strides: &[isize], itemsize: usize) -> Result<(u64, usize)> {
    let overflow = || {
        Error::from(StridesError::Overflow {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
        })
    };
    let (mut lo, mut hi) = (0isize, 0isize);
    for (&n, &s) in shape.iter().zip(strides) {
        if n > 1 {
            let r = isize::try_from(n - 1)
                .ok()
                .and_then(|m| m.checked_mul(s))
                .ok_or_else(overflow)?;
            if r < 0 {
                lo = lo.checked_add(r).ok_or_else(overflow)?;
            } else {
                hi = hi.checked_add(r).ok_or_else(overflow)?;
            }
        }
    }
    let end = hi
        .checked_add(isize::try_from(itemsize).map_err(|_| overflow())?)
        .ok_or_else(overflow)?;
    let len = end.checked_sub(lo).ok_or_else(overflow)?;
    Ok((lo.unsigned_abs() as u64, len as usize))
}

impl Plan {
    /// Builds the loop nest, or `None` when there is no element.
    fn new(
        shape: &[usize],
        itemsize: usize,
        dst: &[isize],
        src: Option<&[isize]>,
        addrs: (usize, usize),
    ) -> Option<Plan> {
        if shape.contains(&0) {
            return None;
        }
        let mut axes: Vec<Axis> = (0..shape.len())
            .filter(|&k| shape[k] != 1)
            .map(|k| Axis {
                n: shape[k],
                d: dst[k],
                s: src.map_or(0, |s| s[k]),
            })
            .collect();
        axes.sort_by_key(|a| (Reverse(a.d.unsigned_abs()), Reverse(a.s.unsigned_abs())));
        let mut merged: Vec<Axis> = Vec::with_capacity(axes.len());
        for a in axes {
            if let Some(outer) = merged.last_mut() {
                let n = a.n as isize;
                if a.d.checked_mul(n) == Some(outer.d) && a.s.checked_mul(n) == Some(outer.s) {
                    *outer = Axis {
                        n: outer.n * a.n,
                        d: a.d,
                        s: a.s,
                    };
                    continue;
                }
            }
            merged.push(a);
        }
        let unit = itemsize as isize;
        let inner = merged.pop().unwrap_or(Axis {
            n: 1,
            d: unit,
            s: if src.is_some() { unit } else { 0 },
        });
        let contiguous = inner.d == unit && (src.is_none() || inner.s == unit || inner.n == 1);
        let fits = |w: usize| {
            itemsize % w == 0
                && addrs.0 % w == 0
                && (src.is_none() || addrs.1 % w == 0)
                && merged
                    .iter()
                    .chain([&inner])
                    .all(|a| a.d.unsigned_abs() % w == 0 && a.s.unsigned_abs() % w == 0)
        };
        let word = [8, 4, 2].into_iter().find(|&w| fits(w)).unwrap_or(1);
        Some(Plan {
            itemsize,
            outer: merged,
            inner,
            contiguous,
            word,
        })
    }
}

/// A machine word the sim moves atomically.
trait Word: Copy {
    /// # Safety
    /// `p` is valid device memory aligned for `Self`.
    unsafe fn load(p: *const u8) -> Self;
    /// # Safety
    /// `p` is valid device memory aligned for `Self`.
    unsafe fn store(p: *mut u8, v: Self);
    /// Reads host bytes (unaligned).
    fn from_host(b: &[u8]) -> Self;
}

macro_rules! word {
    ($($t:ty => $a:ty),*) => {$(
        impl Word for $t {
            unsafe fn load(p: *const u8) -> Self {
                // SAFETY: valid and aligned by the caller's contract; device memory is only ever
                // accessed atomically.
                unsafe { (*p.cast::<$a>()).load(Relaxed) }
            }
            unsafe fn store(p: *mut u8, v: Self) {
                // SAFETY: as for `load`.
                unsafe { (*p.cast::<$a>()).store(v, Relaxed) }
            }
            fn from_host(b: &[u8]) -> Self {
                let mut w = [0u8; std::mem::size_of::<$t>()];
                w.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
                <$t>::from_ne_bytes(w)
            }
        }
    )*};
}
word!(u8 => AtomicU8, u16 => AtomicU16, u32 => AtomicU32, u64 => AtomicU64);

/// Copies `n` elements of `k` words each, stepping `d`/`s` bytes.
///
/// # Safety
/// Every touched address is valid device memory aligned for `W`.
unsafe fn copy_elems<W: Word>(
    dst: *mut u8,
    d: isize,
    src: *const u8,
    s: isize,
    n: usize,
    k: usize,
) {
    let w = std::mem::size_of::<W>();
    if k == 1 {
        // The common case (an element is one word): a tight loop the compiler strength-reduces.
        let (mut dp, mut sp) = (dst, src);
        for _ in 0..n {
            // SAFETY: inside the resolved ranges and aligned (the plan's `word` guarantees it).
            unsafe { W::store(dp, W::load(sp)) };
            dp = dp.wrapping_offset(d);
            sp = sp.wrapping_offset(s);
        }
        return;
    }
    for i in 0..n as isize {
        let (dp, sp) = (dst.wrapping_offset(i * d), src.wrapping_offset(i * s));
        for j in 0..k {
            // SAFETY: inside the resolved ranges and aligned (the plan's `word` guarantees it).
            unsafe { W::store(dp.wrapping_add(j * w), W::load(sp.wrapping_add(j * w))) };
        }
    }
}

/// Writes `pattern` (`k` words) into `n` elements stepping `d` bytes.
///
/// # Safety
/// Every touched address is valid device memory aligned for `W`.
unsafe fn fill_elems<W: Word>(dst: *mut u8, d: isize, n: usize, pattern: &[W]) {
    let w = std::mem::size_of::<W>();
    for i in 0..n as isize {
        let dp = dst.wrapping_offset(i * d);
        for (j, &v) in pattern.iter().enumerate() {
            // SAFETY: inside the resolved range and aligned.
            unsafe { W::store(dp.wrapping_add(j * w), v) };
        }
    }
}

/// What the operation reads.
enum Src<'a> {
    Device(*const u8),
    Fill(&'a [u8]),
}

/// Runs the inner loop of `plan` at `dst`/`src` with access width `W`.
///
/// # Safety
/// The plan was built for these addresses and all of them are valid device memory.
unsafe fn inner<W: Word>(plan: &Plan, dst: *mut u8, src: &Src<'_>, pattern: &[W]) {
    let Axis { n, d, s } = plan.inner;
    let k = plan.itemsize / std::mem::size_of::<W>();
    match *src {
        // SAFETY (all arms): forwarded from the caller.
        Src::Device(sp) if plan.contiguous => unsafe {
            bytes::device_to_device(dst, sp, n * plan.itemsize)
        },
        Src::Device(sp) => unsafe { copy_elems::<W>(dst, d, sp, s, n, k) },
        Src::Fill(bytes) if plan.contiguous && bytes.len() <= 8 && 8 % bytes.len() == 0 => unsafe {
            fill_run::<W>(dst, bytes, n, pattern)
        },
        Src::Fill(_) => unsafe { fill_elems::<W>(dst, d, n, pattern) },
    }
}

/// Fills a contiguous run of `n` elements whose size divides 8: element stores up to 8-byte
/// alignment, then whole words of the repeated pattern, then element stores.
///
/// # Safety
/// `[dst, dst + n·itemsize)` is valid device memory aligned for `W`.
unsafe fn fill_run<W: Word>(dst: *mut u8, bytes: &[u8], n: usize, pattern: &[W]) {
    let size = bytes.len();
    if std::mem::size_of::<W>() != size {
        // SAFETY: forwarded.
        return unsafe { fill_elems::<W>(dst, size as isize, n, pattern) };
    }
    let head = (0..n)
        .find(|&i| (dst as usize + i * size) % 8 == 0)
        .unwrap_or(n);
    // SAFETY: forwarded; each part stays inside the run.
    unsafe { fill_elems::<W>(dst, size as isize, head, pattern) };
    let per = 8 / size;
    let words = (n - head) / per;
    let mut rep = [0u8; 8];
    for (i, b) in rep.iter_mut().enumerate() {
        *b = bytes[i % size];
    }
    let word = u64::from_ne_bytes(rep);
    let base = dst.wrapping_add(head * size);
    for i in 0..words {
        // SAFETY: 8-aligned (by the choice of `head`) and inside the run.
        unsafe { u64::store(base.wrapping_add(i * 8), word) };
    }
    let done = head + words * per;
    // SAFETY: the tail of the run.
    unsafe {
        fill_elems::<W>(
            dst.wrapping_add(done * size),
            size as isize,
            n - done,
            pattern,
        )
    };
}

/// Runs the whole nest with access width `W`.
///
/// # Safety
/// As for [`inner`].
unsafe fn execute_with<W: Word>(plan: &Plan, dst: *mut u8, src: Src<'_>) {
    let pattern: Vec<W> = match src {
        Src::Fill(b) => b
            .chunks_exact(std::mem::size_of::<W>())
            .map(W::from_host)
            .collect(),
        Src::Device(_) => Vec::new(),
    };
    let mut idx = vec![0usize; plan.outer.len()];
    let (mut dp, mut sp) = (dst, src);
    loop {
        // SAFETY: `dp`/`sp` are element addresses of the nest, valid by the caller's contract.
        unsafe { inner::<W>(plan, dp, &sp, &pattern) };
        // Odometer step over the outer axes, innermost first.
        let mut k = plan.outer.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            let a = plan.outer[k];
            idx[k] += 1;
            let (dd, ss) = if idx[k] < a.n {
                (a.d, a.s)
            } else {
                idx[k] = 0;
                (-(a.n as isize - 1) * a.d, -(a.n as isize - 1) * a.s)
            };
            dp = dp.wrapping_offset(dd);
            if let Src::Device(p) = sp {
                sp = Src::Device(p.wrapping_offset(ss));
            }
            if idx[k] != 0 {
                break;
            }
        }
    }
}

/// Runs `plan` with the widest access its alignment allows.
///
/// # Safety
/// `dst` (and a device `src`) are the host addresses of the index-0 elements of ranges that
/// contain every element the plan touches.
unsafe fn execute(plan: &Plan, dst: *mut u8, src: Src<'_>) {
    // SAFETY (all arms): forwarded; `plan.word` divides every address and stride.
    match plan.word {
        8 => unsafe { execute_with::<u64>(plan, dst, src) },
        4 => unsafe { execute_with::<u32>(plan, dst, src) },
        2 => unsafe { execute_with::<u16>(plan, dst, src) },
        _ => unsafe { execute_with::<u8>(plan, dst, src) },
    }
}

impl SimDriver {
    /// `Driver::copy_strided_async` for the sim: validate, resolve both ranges, queue the nest.
    pub(super) fn copy_strided(
        &self,
        device: usize,
        copy: &StridedCopy<'_>,
        stream: StreamHandle,
    ) -> Result<()> {
        let StridedCopy {
            shape,
            itemsize,
            dst,
            dst_strides,
            src,
        } = *copy;
        if itemsize == 0 {
            return Err(ShapeError::ZeroItemsize.into());
        }
        if dst_strides.len() != shape.len() {
            return Err(strides_count(shape, dst_strides));
        }
        match src {
            StridedSource::Device { strides, .. } if strides.len() != shape.len() => {
                return Err(strides_count(shape, strides));
            }
            StridedSource::Fill(b) if b.len() != itemsize => {
                return Err(ShapeError::Itemsize {
                    layout: itemsize,
                    dtype: "the fill value",
                    itemsize: b.len(),
                }
                .into());
            }
            _ => {}
        }
        if shape.contains(&0) {
            // Still check the stream exists, as CUDA would when launching an empty grid.
            return self.stream(device, stream).map(drop);
        }
        let out_of_range = |ptr: u64| Error::InvalidAddress {
            ptr,
            len: 0,
            reason: "a strided range reaches below address 0".into(),
        };
        let (back, len) = reach(shape, dst_strides, itemsize)?;
        let dres = self.resolve(device, dst.checked_sub(back).ok_or(out_of_range(dst))?, len)?;
        let (sres, src_strides, fill, src_back) = match src {
            StridedSource::Device { ptr, strides } => {
                let (back, len) = reach(shape, strides, itemsize)?;
                let r = self.resolve_any(ptr.checked_sub(back).ok_or(out_of_range(ptr))?, len)?;
                (Some(r), Some(strides), Vec::new(), back as usize)
            }
            StridedSource::Fill(b) => (None, None, b.to_vec(), 0),
        };
        let dst_addr = dres.addr().wrapping_add(back as usize);
        let src_addr = sres.as_ref().map_or(0, |r| r.addr() as usize + src_back);
        let Some(plan) = Plan::new(
            shape,
            itemsize,
            dst_strides,
            src_strides,
            (dst_addr as usize, src_addr),
        ) else {
            return Ok(());
        };
        let (dst_ptr, src_ptr) = (SendPtr(dst_addr), SendPtr(src_addr as *mut u8));
        let mut touches = vec![Touch::write(&dres)];
        touches.extend(sres.as_ref().map(Touch::read));
        let run = move || {
            let (dst_ptr, src_ptr) = (&dst_ptr, &src_ptr);
            let _keep = (&dres, &sres);
            let src = if sres.is_some() {
                Src::Device(src_ptr.0)
            } else {
                Src::Fill(&fill)
            };
            // SAFETY: both ranges were resolved (bounds-checked, kept alive by `dres`/`sres`)
            // to cover every element the plan touches; device memory is accessed atomically.
            unsafe { execute(&plan, dst_ptr.0, src) };
            Ok(())
        };
        self.queue(device, stream, touches, run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(shape: &[usize], d: &[isize], s: Option<&[isize]>, size: usize) -> Plan {
        Plan::new(shape, size, d, s, (0, 0)).unwrap()
    }

    #[test]
    fn contiguous_layouts_become_one_run() {
        let p = plan(&[4, 5, 6], &[240, 48, 8], Some(&[240, 48, 8]), 8);
        assert!(p.outer.is_empty() && p.contiguous);
        assert_eq!(p.inner.n, 120);
        // Every other column of 4×6: the source steps evenly, so it is one element loop.
        let p = plan(&[4, 3], &[24, 8], Some(&[48, 16]), 8);
        assert!(!p.contiguous && p.outer.is_empty());
        assert_eq!(p.inner, Axis { n: 12, d: 8, s: 16 });
        // Of 4×7 it is not: an element loop per row.
        let p = plan(&[4, 3], &[24, 8], Some(&[56, 16]), 8);
        assert_eq!(p.outer, [Axis { n: 4, d: 24, s: 56 }]);
        // Row slices of a wider array: runs of 3 per row.
        let p = plan(&[4, 3], &[24, 8], Some(&[48, 8]), 8);
        assert!(p.contiguous && p.inner.n == 3);
        // A fill of a C array is one run; with a 0-d shape too.
        let p = plan(&[2, 3], &[12, 4], None, 4);
        assert!(p.contiguous && p.outer.is_empty() && p.inner.n == 6);
        assert!(plan(&[], &[], None, 4).contiguous);
        assert!(Plan::new(&[3, 0], 4, &[4, 4], None, (0, 0)).is_none());
    }

    #[test]
    fn access_width_follows_alignment() {
        assert_eq!(
            Plan::new(&[4], 8, &[8], Some(&[8]), (0, 0)).unwrap().word,
            8
        );
        assert_eq!(
            Plan::new(&[4], 8, &[8], Some(&[8]), (0, 4)).unwrap().word,
            4
        );
        assert_eq!(
            Plan::new(&[4], 2, &[6], Some(&[2]), (0, 0)).unwrap().word,
            2
        );
        assert_eq!(Plan::new(&[4], 3, &[3], None, (0, 0)).unwrap().word, 1);
    }

    fn run(shape: &[usize], d: &[isize], s: Option<&[isize]>, size: usize, fill: &[u8]) -> Vec<u8> {
        run_at(shape, d, s, 0, size, fill)
    }

    fn run_at(
        shape: &[usize],
        d: &[isize],
        s: Option<&[isize]>,
        src_off: usize,
        size: usize,
        fill: &[u8],
    ) -> Vec<u8> {
        let mut dst = vec![0u64; 16];
        let src: Vec<u8> = (0..128u8).collect();
        let mut srcw = vec![0u64; 16];
        // SAFETY: test buffers of 128 bytes.
        unsafe { bytes::host_to_device(srcw.as_mut_ptr().cast(), src.as_ptr(), 128) };
        let dp = dst.as_mut_ptr().cast::<u8>();
        let sp = srcw.as_ptr().cast::<u8>().wrapping_add(src_off);
        let p = Plan::new(shape, size, d, s, (dp as usize, sp as usize)).unwrap();
        let src = match s {
            Some(_) => Src::Device(sp),
            None => Src::Fill(fill),
        };
        // SAFETY: every case below stays within the 128-byte buffers.
        unsafe { execute(&p, dp, src) };
        let mut out = vec![0u8; 128];
        // SAFETY: as above.
        unsafe { bytes::device_to_host(out.as_mut_ptr(), dp, 128) };
        out
    }

    #[test]
    fn copies_and_fills_match_a_reference_loop() {
        // 4×3 of u16 gathered from every other column of a 4×6 source.
        let out = run(&[4, 3], &[6, 2], Some(&[24, 4]), 2, &[]);
        let src: Vec<u8> = (0..128u8).collect();
        let mut want = vec![0u8; 128];
        for i in 0..4 {
            for j in 0..3 {
                let (d, s) = (i * 6 + j * 2, i * 24 + j * 4);
                want[d..d + 2].copy_from_slice(&src[s..s + 2]);
            }
        }
        assert_eq!(out, want);
        // A 3-byte element fill with a stride, and a contiguous u16 fill that uses whole words.
        let out = run(&[5], &[4], None, 3, &[1, 2, 3]);
        for i in 0..5 {
            assert_eq!(&out[i * 4..i * 4 + 4], &[1, 2, 3, 0]);
        }
        let out = run(&[2, 17], &[34, 2], None, 2, &[9, 8]);
        assert!(out[..68].chunks(2).all(|c| c == [9, 8]) && out[68..].iter().all(|&b| b == 0));
        // Reversed copy (negative strides start at the last element).
        let out = run_at(&[4], &[8], Some(&[-8]), 24, 8, &[]);
        assert_eq!(&out[..8], &src[24..32]);
        assert_eq!(&out[24..32], &src[0..8]);
    }
}
