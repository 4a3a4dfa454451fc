//! The warp-level methods of [`ThreadCtx`]: `syncwarp`, votes, shuffles and `activemask`
//! (Numba's `cuda.syncwarp`, `cuda.all_sync`, …, CUDA's `__shfl_sync` family). How lanes meet
//! and what is a fault: [`warp`](super::warp).

use std::panic::Location;

use super::thread_ctx::{Predicate, ThreadCtx};
use super::warp::{ShflMode, Suspend, WarpCall, WarpOp, resolve_alone};

/// A value a shuffle can move between lanes: `i32 u32 i64 u64 f32 f64`, as in Numba.
///
/// ```
/// use rumba::kernel::WarpValue;
/// assert_eq!(f32::from_bits64((-1.5f32).to_bits64()), -1.5);
/// assert_eq!(i64::from_bits64((1i64 << 42).to_bits64()), 1 << 42);
/// ```
pub trait WarpValue: Copy {
    /// The value's bits, zero-extended to 64.
    fn to_bits64(self) -> u64;
    /// The value back from [`to_bits64`](Self::to_bits64).
    fn from_bits64(bits: u64) -> Self;
}

macro_rules! warp_values {
    ($($t:ty => $u:ty),+) => {$(
        impl WarpValue for $t {
            fn to_bits64(self) -> u64 {
                u64::from(<$u>::from_ne_bytes(self.to_ne_bytes()))
            }
            fn from_bits64(bits: u64) -> Self {
                <$t>::from_ne_bytes((bits as $u).to_ne_bytes())
            }
        }
    )+};
}
warp_values!(i32 => u32, u32 => u32, i64 => u64, u64 => u64, f32 => u32, f64 => u64);

/// The mask of a whole warp.
pub const FULL_MASK: u32 = u32::MAX;

impl ThreadCtx<'_> {
    /// A shuffle of `value` in `mode` with its lane argument `arg`.
    #[track_caller]
    fn shfl<T: WarpValue>(&self, mode: ShflMode, mask: u32, value: T, arg: u32) -> T {
        T::from_bits64(self.warp_op(WarpOp::Shfl(mode), mask, value.to_bits64(), arg))
    }

    #[track_caller]
    fn warp_op(&self, op: WarpOp, mask: u32, value: u64, arg: u32) -> u64 {
        let call = WarpCall {
            site: Location::caller().into(),
            op,
            mask,
            value,
            arg,
        };
        match self.yielder {
            Some(y) => y.suspend(Suspend::Warp(call)),
            None => {
                let threads = self.block.block_dim.count() as u32;
                match resolve_alone(call, self.linear, threads) {
                    Ok(v) => v,
                    Err(m) => self.fault(m),
                }
            }
        }
    }

    /// `syncwarp(mask)`: waits until every non-exited lane named in `mask` reaches a
    /// `syncwarp` with the same mask (any call site), and orders their memory accesses. The
    /// caller must be in `mask`; a named lane that waits elsewhere is a divergent-warp
    /// [`KernelFault`](crate::Error::KernelFault), never a hang.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// let mut out = [0i32; 32];
    /// let o = GlobalView::from_slice_mut(&mut out);
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     let s = t.shared_array::<i32>(32);
    ///     let i = t.thread_idx().x as usize;
    ///     s.set(i, i as i32);
    ///     t.syncwarp(FULL_MASK);
    ///     o.set(i, s.get(31 - i));
    /// })
    /// .unwrap();
    /// assert_eq!(out[0], 31);
    /// ```
    #[track_caller]
    pub fn syncwarp(&self, mask: u32) {
        self.warp_op(WarpOp::Sync, mask, 0, 0);
    }

    /// ROC's `wavebarrier()`: [`syncwarp`](Self::syncwarp) of the whole warp.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 64), |t| t.wavebarrier()).unwrap();
    /// ```
    #[track_caller]
    pub fn wavebarrier(&self) {
        self.warp_op(WarpOp::Sync, FULL_MASK, 0, 0);
    }

    /// `all_sync(mask, pred)`: 1 in every lane of `mask` if the predicate holds in all of its
    /// non-exited lanes, else 0.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     assert_eq!(t.all_sync(FULL_MASK, t.lane_id() < 31), 0);
    ///     assert_eq!(t.all_sync(FULL_MASK, 1i32), 1);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn all_sync(&self, mask: u32, pred: impl Predicate) -> i32 {
        self.warp_op(WarpOp::All, mask, u64::from(pred.truth()), 0) as i32
    }

    /// `any_sync(mask, pred)`: 1 in every lane of `mask` if the predicate holds in any of its
    /// non-exited lanes, else 0.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     assert_eq!(t.any_sync(FULL_MASK, t.lane_id() == 5), 1);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn any_sync(&self, mask: u32, pred: impl Predicate) -> i32 {
        self.warp_op(WarpOp::Any, mask, u64::from(pred.truth()), 0) as i32
    }

    /// `ballot_sync(mask, pred)`: bit `j` set for each non-exited lane `j` of `mask` whose
    /// predicate holds.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     assert_eq!(t.ballot_sync(FULL_MASK, t.lane_id() % 2 == 1), 0xaaaa_aaaa);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn ballot_sync(&self, mask: u32, pred: impl Predicate) -> u32 {
        self.warp_op(WarpOp::Ballot, mask, u64::from(pred.truth()), 0) as u32
    }

    /// `shfl_sync(mask, value, src_lane)`: `value` as lane `src_lane % 32` passed it. Reading a
    /// lane that is not in `mask` or has exited is a fault (undefined in CUDA).
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     assert_eq!(t.shfl_sync(FULL_MASK, t.lane_id() as f64 * 0.5, 4), 2.0);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn shfl_sync<T: WarpValue>(&self, mask: u32, value: T, src_lane: u32) -> T {
        self.shfl(ShflMode::Idx, mask, value, src_lane)
    }

    /// `shfl_up_sync(mask, value, delta)`: `value` from lane `lane - delta`; lanes below
    /// `delta` keep their own.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     let l = t.lane_id();
    ///     assert_eq!(t.shfl_up_sync(FULL_MASK, l, 4), if l < 4 { l } else { l - 4 });
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn shfl_up_sync<T: WarpValue>(&self, mask: u32, value: T, delta: u32) -> T {
        self.shfl(ShflMode::Up, mask, value, delta)
    }

    /// `shfl_down_sync(mask, value, delta)`: `value` from lane `lane + delta`; lanes whose
    /// source is beyond lane 31 keep their own.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     let l = t.lane_id() as i64;
    ///     assert_eq!(t.shfl_down_sync(FULL_MASK, l, 4), if l >= 28 { l } else { l + 4 });
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn shfl_down_sync<T: WarpValue>(&self, mask: u32, value: T, delta: u32) -> T {
        self.shfl(ShflMode::Down, mask, value, delta)
    }

    /// `shfl_xor_sync(mask, value, lane_mask)`: `value` from lane `lane ^ lane_mask` (a
    /// butterfly); a source beyond lane 31 keeps the caller's own.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid("k", &LaunchConfig::new(1, 32), |t| {
    ///     assert_eq!(t.shfl_xor_sync(FULL_MASK, t.lane_id(), 16), t.lane_id() ^ 16);
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn shfl_xor_sync<T: WarpValue>(&self, mask: u32, value: T, lane_mask: u32) -> T {
        self.shfl(ShflMode::Xor, mask, value, lane_mask)
    }

    /// `activemask()`: the lanes of this warp that are converged here — on the simulator, the
    /// lanes that reach this same call site together. Does not synchronise on a GPU.
    ///
    /// ```
    /// # use rumba::kernel::*;
    /// run_grid_with("k", &LaunchConfig::new(1, 32), &ExecOptions { fast_path: false, parallel: true }, |t| {
    ///     if t.lane_id() < 8 {
    ///         assert_eq!(t.activemask(), 0xff);
    ///     }
    /// })
    /// .unwrap();
    /// ```
    #[track_caller]
    pub fn activemask(&self) -> u32 {
        self.warp_op(WarpOp::ActiveMask, 0, 0, 0) as u32
    }
}
