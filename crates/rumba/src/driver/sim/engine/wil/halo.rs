//! Halo windows: a frozen 2-d input's elements around a block's own rectangle (rows
//! `by·bdy .. (by+1)·bdy`, columns `bx·bdx .. (bx+1)·bdx`: the threads' `(y, x)` with
//! `(x, y) = t.grid2()`), for the block's **interior** — the work-items whose own element lies at
//! least `H` rows and columns inside the array ([`GlobalIn::halo_window`]). The window is
//! checked once, when made: a read at a constant offset of at most `H` from an interior
//! work-item's own element ([`Halo::at`]) then needs no bounds check, and since it cannot fault
//! and nothing writes the input, a block body may load it before the statements that use it.
//! The region runs its interior that way ([`BlockCtx::each_split`](super::BlockCtx::each_split))
//! and the other work-items (the array's outer `H` rows and columns) checked.
//!
//! This module touches only the memory of the arrays it is given.

use std::marker::PhantomData;
use std::mem::size_of;

use bytemuck::Pod;

use super::block::{BlockCtx, BlockShape};
use super::global::{Access, GlobalIn, InMarker};
use crate::driver::sim::engine::dim::Dim3;
use crate::driver::sim::engine::fault;

impl<T: Pod, R: Access> GlobalIn<'_, T, 2, R> {
    /// The elements within `H` rows and columns of block `blk`'s interior work-items' own
    /// elements (module docs), as a [`Halo`] indexed by `threadIdx` and a constant offset —
    /// when the input is read with plain loads (frozen: nothing writes it during the launch, so
    /// its reads may be made in any order), its rows are contiguous and the interior is not
    /// empty; else `None` (the checked path).
    ///
    /// ```
    /// use rumba::kernel::{Dim3, LaunchConfig};
    /// use rumba::kernel::wil::{run_blocks, Dyn, GlobalIn, Interior, Plain};
    /// let u: Vec<f32> = (0..10 * 10).map(|i| i as f32).collect();
    /// let uin = GlobalIn::<f32, 2, Plain>::from_slice(&u, [10, 10]).unwrap();
    /// let cfg = LaunchConfig::new(Dim3::new(2, 2, 1), Dim3::new(4, 4, 1));
    /// run_blocks::<Dyn, _>("k", &cfg, |blk| {
    ///     let h = uin.halo_window::<1, _>(blk).unwrap();
    ///     let (b, d) = (blk.block_idx(), blk.block_dim());
    ///     // Row and column 0 are on the edge; block (1, 1)'s rows and columns 4..8 are inside.
    ///     let first = |i: u32| if i == 0 { 1 } else { 0 };
    ///     assert_eq!(h.interior(), Interior { y: (first(b.y), 4), x: (first(b.x), 4) });
    ///     blk.each_split(
    ///         h.interior(),
    ///         |_, inside| {
    ///             let t = inside.tid();
    ///             let (y, x) = (b.y * d.y + t.y, b.x * d.x + t.x);
    ///             // One row up, one column right.
    ///             assert_eq!(h.at::<-1, 1>(inside), ((y - 1) * 10 + x + 1) as f32);
    ///         },
    ///         |_, t| assert!(b.x * d.x + t.x == 0 || b.y * d.y + t.y == 0),
    ///     );
    /// })
    /// .unwrap();
    /// ```
    #[inline(always)]
    pub fn halo_window<const H: usize, S: BlockShape>(
        &self,
        blk: &BlockCtx<'_, S>,
    ) -> Option<Halo<'_, T, R, H>> {
        if !R::PLAIN || self.strides[1] != size_of::<T>() as isize {
            return None;
        }
        let (b, d) = (blk.block_idx(), blk.block_dim());
        let y0 = (b.y as usize).checked_mul(d.y as usize)?;
        let x0 = (b.x as usize).checked_mul(d.x as usize)?;
        // The work-items `lo..hi` along an axis of `n` whose own index `start + t` lies in
        // `H .. len - H`.
        let inner = |start: usize, n: u32, len: usize| -> (u32, u32) {
            let lo = H.saturating_sub(start).min(n as usize);
            let hi = len.saturating_sub(H).saturating_sub(start).min(n as usize);
            (lo as u32, (hi as u32).max(lo as u32))
        };
        let interior = Interior {
            y: inner(y0, d.y, self.shape[0]),
            x: inner(x0, d.x, self.shape[1]),
        };
        if interior.is_empty() {
            return None;
        }
        Some(Halo {
            // The own rectangle's first element (in bounds where the interior is not empty).
            ptr: self
                .ptr
                .wrapping_offset((y0 as isize).wrapping_mul(self.strides[0]))
                .cast::<T>()
                .wrapping_add(x0),
            interior,
            row: self.strides[0],
            _marker: PhantomData,
        })
    }
}

/// The work-items of a block that a faster body may run ([`BlockCtx::each_split`](
/// super::BlockCtx::each_split)): those with `threadIdx.y` in `y.0 .. y.1` and `threadIdx.x` in
/// `x.0 .. x.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interior {
    /// Rows: `threadIdx.y` from `y.0` up to, not including, `y.1`.
    pub y: (u32, u32),
    /// Columns: `threadIdx.x` from `x.0` up to, not including, `x.1`.
    pub x: (u32, u32),
}

impl Interior {
    /// The work-items in both `self` and `other`.
    ///
    /// ```
    /// use rumba::kernel::wil::Interior;
    /// let a = Interior { y: (0, 4), x: (1, 8) };
    /// let b = Interior { y: (1, 5), x: (0, 6) };
    /// assert_eq!(a.and(b), Interior { y: (1, 4), x: (1, 6) });
    /// ```
    #[inline(always)]
    pub fn and(self, other: Interior) -> Interior {
        let meet = |a: (u32, u32), b: (u32, u32)| {
            let lo = a.0.max(b.0);
            (lo, a.1.min(b.1).max(lo))
        };
        Interior {
            y: meet(self.y, other.y),
            x: meet(self.x, other.x),
        }
    }

    /// Whether every work-item of `other` is one of `self`'s.
    #[inline(always)]
    pub fn holds(&self, other: Interior) -> bool {
        other.is_empty()
            || (self.y.0 <= other.y.0
                && other.y.1 <= self.y.1
                && self.x.0 <= other.x.0
                && other.x.1 <= self.x.1)
    }

    /// Whether it holds no work-item.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.y.0 >= self.y.1 || self.x.0 >= self.x.1
    }
}

/// A frozen 2-d input's elements around a block's own rectangle, `H` on every side
/// ([`GlobalIn::halo_window`]).
#[derive(Clone, Copy)]
pub struct Halo<'w, T, R, const H: usize> {
    /// The block's first own element.
    ptr: *mut T,
    /// The work-items it serves.
    interior: Interior,
    /// Byte stride between rows.
    row: isize,
    _marker: InMarker<'w, T, R>,
}

impl<T: Pod, R: Access, const H: usize> Halo<'_, T, R, H> {
    /// The work-items this window serves.
    #[inline(always)]
    pub fn interior(&self) -> Interior {
        self.interior
    }

    /// The element at offset `(DY, DX)` from the own element of the interior work-item `at`
    /// (an offset more than `H` away, or a work-item of an interior that is not within this
    /// window's, faults).
    #[inline(always)]
    pub fn at<const DY: isize, const DX: isize>(&self, at: Inside) -> T {
        if DY.unsigned_abs() > H || DX.unsigned_abs() > H {
            halo_miss(DY, DX, H);
        }
        // The same for every work-item of a region: the compiler checks it once.
        if !self.interior.holds(at.interior) {
            interior_miss(at.interior, self.interior);
        }
        let (y, x) = (at.tid.y as isize, at.tid.x as isize);
        // SAFETY: the work-item lies in `at.interior` (`Inside`'s guarantee), which lies in this
        // window's interior (checked above), and `|DY|, |DX| <= H`: the element is at most `H`
        // rows and columns from an own element that is `H` inside the array, so in bounds of
        // the live, aligned input with contiguous rows (checked when made); plain loads of an
        // input nobody writes during the launch (`GlobalIn`'s construction) cannot race.
        unsafe {
            R::load(
                self.ptr
                    .wrapping_byte_offset((y + DY).wrapping_mul(self.row))
                    .wrapping_offset(x + DX),
            )
        }
    }
}

/// A work-item of a block's interior, as [`BlockCtx::each_split`](super::BlockCtx::each_split)
/// hands it to the interior's body: its `threadIdx` lies in `interior`, and `interior` in the
/// block. Only `each_split` makes one.
#[derive(Debug, Clone, Copy)]
pub struct Inside {
    tid: Dim3,
    interior: Interior,
}

impl Inside {
    /// Made by `each_split` only, for a `tid` in `interior` and an interior within the block.
    #[inline(always)]
    pub(super) fn new(tid: Dim3, interior: Interior) -> Inside {
        Inside { tid, interior }
    }

    /// The work-item's `threadIdx`.
    #[inline(always)]
    pub fn tid(&self) -> Dim3 {
        self.tid
    }

    /// The interior it belongs to.
    #[inline(always)]
    pub fn interior(&self) -> Interior {
        self.interior
    }
}

#[cold]
#[inline(never)]
fn interior_miss(inner: Interior, window: Interior) -> ! {
    fault::raise(format!(
        "a work-item of the interior {inner:?} used a window whose interior is {window:?}"
    ))
}

#[cold]
#[inline(never)]
fn halo_miss(dy: isize, dx: isize, h: usize) -> ! {
    fault::raise(format!(
        "offset ({dy}, {dx}) is outside a halo window of margin {h}"
    ))
}
