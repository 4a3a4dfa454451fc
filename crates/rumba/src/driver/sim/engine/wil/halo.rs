//! Halo windows: in a full block, a frozen 2-d input's elements around the block's own
//! rectangle (rows `by·bdy .. (by+1)·bdy`, columns `bx·bdx .. (bx+1)·bdx`: the threads'
//! `(y, x)` with `(x, y) = t.grid2()`), widened by a margin of `H` rows and columns on every
//! side ([`GlobalIn::halo_window`]). The window is checked once, when made: a read at a constant
//! offset of at most `H` from a work-item's own element ([`Halo::at`]) then needs no bounds
//! check, and since it cannot fault and nothing writes the input, a block body may load it
//! before the statements that use it — which lets a stencil's region run branch-free and be
//! vectorised. Blocks whose widened rectangle leaves the array take the checked path.
//!
//! This module touches only the memory of the arrays it is given.

use std::marker::PhantomData;
use std::mem::size_of;

use bytemuck::Pod;

use super::block::{BlockCtx, BlockShape};
use super::global::{Access, GlobalIn, window_miss};
use crate::driver::sim::engine::dim::Dim3;
use crate::driver::sim::engine::fault;

impl<T: Pod, R: Access> GlobalIn<'_, T, 2, R> {
    /// The elements of block `blk`'s own rectangle widened by `H` on every side, as a [`Halo`]
    /// indexed by `threadIdx` and a constant offset — when the input is read with plain loads
    /// (frozen: nothing writes it during the launch, so its reads may be made in any order),
    /// its rows are contiguous and the whole widened rectangle is in bounds; else `None` (the
    /// checked path).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
    /// use rumba::kernel::{Dim3, LaunchConfig};
    /// use rumba::kernel::wil::{run_blocks, Dyn, GlobalIn, Plain};
    /// let u: Vec<f32> = (0..10 * 10).map(|i| i as f32).collect();
    /// let uin = GlobalIn::<f32, 2, Plain>::from_slice(&u, [10, 10]).unwrap();
    /// let cfg = LaunchConfig::new(Dim3::new(2, 2, 1), Dim3::new(4, 4, 1));
    /// let windows = AtomicU32::new(0);
    /// run_blocks::<Dyn, _>("k", &cfg, |blk| {
    ///     // Only block (1, 1) keeps a margin of 1 inside the array on every side.
    ///     if let Some(h) = uin.halo_window::<1, _>(blk) {
    ///         assert_eq!(blk.block_idx(), Dim3::new(1, 1, 0));
    ///         // threadIdx (2, 1): own element (5, 6); one row up, one column right: (4, 7).
    ///         assert_eq!(h.at::<-1, 1>(Dim3::new(2, 1, 0)), 47.0);
    ///         windows.fetch_add(1, Relaxed);
    ///     }
    /// })
    /// .unwrap();
    /// assert_eq!(windows.load(Relaxed), 1);
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
        let inside = |lo: usize, n: u32, len: usize| {
            lo >= H
                && lo
                    .checked_add(n as usize)
                    .and_then(|e| e.checked_add(H))
                    .is_some_and(|e| e <= len)
        };
        if !inside(y0, d.y, self.shape[0]) || !inside(x0, d.x, self.shape[1]) {
            return None;
        }
        Some(Halo {
            // The own rectangle's first element; in bounds (checked above).
            ptr: self
                .ptr
                .wrapping_offset((y0 as isize).wrapping_mul(self.strides[0]))
                .cast::<T>()
                .wrapping_add(x0),
            n: [d.y as usize, d.x as usize],
            row: self.strides[0],
            _marker: PhantomData,
        })
    }
}

/// A frozen 2-d input's elements around a block's own rectangle, `H` on every side
/// ([`GlobalIn::halo_window`]).
#[derive(Clone, Copy)]
pub struct Halo<'w, T, R, const H: usize> {
    /// The block's first own element.
    ptr: *mut T,
    /// The block's extents, `[y, x]`.
    n: [usize; 2],
    /// Byte stride between rows.
    row: isize,
    _marker: PhantomData<(&'w (), fn() -> T, R)>,
}

impl<T: Pod, R: Access, const H: usize> Halo<'_, T, R, H> {
    /// The element at offset `(DY, DX)` from the own element of the work-item with `threadIdx`
    /// `tid` (both offsets at most `H` away: a larger one faults).
    #[inline(always)]
    pub fn at<const DY: isize, const DX: isize>(&self, tid: Dim3) -> T {
        if DY.unsigned_abs() > H || DX.unsigned_abs() > H {
            halo_miss(DY, DX, H);
        }
        let (y, x) = (tid.y as usize, tid.x as usize);
        if y >= self.n[0] || x >= self.n[1] {
            window_miss(y * self.n[1] + x, self.n[0] * self.n[1]);
        }
        let r = (y as isize + DY).wrapping_mul(self.row);
        // SAFETY: `y < n[0]`, `x < n[1]` and `|DY|, |DX| <= H`, so the element lies in the
        // block's rectangle widened by `H`, which is in bounds of the live, aligned input with
        // contiguous rows (checked when made); plain loads of an input nobody writes during the
        // launch (`GlobalIn`'s construction) cannot race.
        unsafe {
            R::load(
                self.ptr
                    .wrapping_byte_offset(r)
                    .wrapping_offset(x as isize + DX),
            )
        }
    }
}

#[cold]
#[inline(never)]
fn halo_miss(dy: isize, dx: isize, h: usize) -> ! {
    fault::raise(format!(
        "offset ({dy}, {dx}) is outside a halo window of margin {h}"
    ))
}
