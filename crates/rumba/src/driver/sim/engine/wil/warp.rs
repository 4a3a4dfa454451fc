//! Warp operations in block bodies: `syncwarp`, the votes, the shuffles and `activemask`, each
//! a step between two regions, as a barrier is.
//!
//! The region before a warp step stores every live work-item's operands (the predicate, or the
//! value and the lane argument) in context arrays; the step completes the operation for every
//! warp of the block in turn and writes each live work-item's result into the context array of
//! the local that takes it, which the next region reads. The mask is one value for the whole
//! block: `#[rumba::kernel]` gives a kernel a block body only when every warp operation's mask is
//! block-uniform and every warp operation is reached under block-uniform control (else the
//! kernel runs on coroutines), so all live lanes of a warp meet at the same operation with the
//! same mask, as the coroutine engine would make them.
//!
//! A full warp whose 32 lanes are all live and whose mask is the full mask takes a plain loop;
//! any other warp (a partial last warp, returned lanes, a partial mask) goes through the
//! coroutine engine's own rules (`warp::resolve`), so its results and faults — the caller not in
//! its mask, a shuffle from a lane that is not in the mask, has returned or does not exist —
//! are the coroutine engine's, naming the same thread with the same message.
//!
//! Also here: `each_lane`, the region over one lane of every warp that `#[rumba::kernel]` emits
//! for a region whose only work is `if t.lane_id() == k { … }`.
//!
//! Touches only the block's context arrays and the block's bookkeeping.

use std::fmt;

use bytemuck::Pod;

use super::arena::BlockArray;
use super::block::{BlockCtx, BlockShape};
use super::sites::Site;
use crate::driver::sim::engine::dim::{Dim3, WARP_SIZE};
use crate::driver::sim::engine::fault;
use crate::driver::sim::engine::thread_warp::{FULL_MASK, WarpValue};
use crate::driver::sim::engine::warp::{Lane, ShflMode, WarpCall, WarpOp, resolve};

/// Which warp operation a block body calls.
///
/// ```
/// use rumba::kernel::wil::WarpKind;
/// assert_ne!(WarpKind::ShflDown, WarpKind::ShflUp);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarpKind {
    /// `syncwarp(mask)`.
    Sync,
    /// `all_sync(mask, pred)`.
    All,
    /// `any_sync(mask, pred)`.
    Any,
    /// `ballot_sync(mask, pred)`.
    Ballot,
    /// `shfl_sync(mask, value, src_lane)`.
    Shfl,
    /// `shfl_up_sync(mask, value, delta)`.
    ShflUp,
    /// `shfl_down_sync(mask, value, delta)`.
    ShflDown,
    /// `shfl_xor_sync(mask, value, lane_mask)`.
    ShflXor,
    /// `activemask()`.
    ActiveMask,
}

impl WarpKind {
    fn op(self) -> WarpOp {
        match self {
            WarpKind::Sync => WarpOp::Sync,
            WarpKind::All => WarpOp::All,
            WarpKind::Any => WarpOp::Any,
            WarpKind::Ballot => WarpOp::Ballot,
            WarpKind::Shfl => WarpOp::Shfl(ShflMode::Idx),
            WarpKind::ShflUp => WarpOp::Shfl(ShflMode::Up),
            WarpKind::ShflDown => WarpOp::Shfl(ShflMode::Down),
            WarpKind::ShflXor => WarpOp::Shfl(ShflMode::Xor),
            WarpKind::ActiveMask => WarpOp::ActiveMask,
        }
    }
}

/// A warp operation of a block body: which one and where the kernel calls it.
///
/// ```
/// use rumba::kernel::wil::{WarpKind, WarpSite};
/// const W: WarpSite = WarpSite::new(WarpKind::ShflDown, "k.rs", 7, 14);
/// assert_eq!(W.to_string(), "ShflDown at k.rs:7:14");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarpSite {
    /// The operation.
    pub kind: WarpKind,
    /// Its call site.
    pub site: Site,
}

impl WarpSite {
    /// Warp operation `kind` at `file:line:column`.
    pub const fn new(kind: WarpKind, file: &'static str, line: u32, column: u32) -> Self {
        WarpSite {
            kind,
            site: Site { file, line, column },
        }
    }
}

impl fmt::Display for WarpSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at {}", self.kind, self.site)
    }
}

/// The shuffle source of `lane` for argument `arg` (as `WarpCall::source`), or `lane` itself
/// when the source lies beyond the warp.
#[inline(always)]
fn source(mode: WarpKind, lane: u32, arg: u32) -> u32 {
    let j = match mode {
        WarpKind::Shfl => arg % WARP_SIZE,
        WarpKind::ShflUp => lane.checked_sub(arg).unwrap_or(lane),
        WarpKind::ShflDown => lane.checked_add(arg).unwrap_or(lane),
        _ => lane ^ arg,
    };
    if j < WARP_SIZE { j } else { lane }
}

/// A shuffle with one lane argument `d` for every lane of `n / 32` full warps: `op[w]` gets
/// `vp[source(w)]`, as contiguous runs where the pattern has them (so the loops vectorise).
///
/// # Safety
/// `vp` and `op` must address `n` (a multiple of 32) elements each of distinct memory this
/// thread may read and write.
#[inline(always)]
unsafe fn shuffle_block<T: Copy>(kind: WarpKind, d: u32, n: usize, vp: *const T, op: *mut T) {
    // The offsets of tree reductions and scans as constants, so that each warp's copies have
    // fixed lengths and unroll into a few vector moves (with `d` unknown, every warp ran two
    // variable-length loops and their remainders).
    // SAFETY (all arms): forwarded from the caller.
    unsafe {
        match d {
            1 => shuffle_warps(kind, 1, n, vp, op),
            2 => shuffle_warps(kind, 2, n, vp, op),
            4 => shuffle_warps(kind, 4, n, vp, op),
            8 => shuffle_warps(kind, 8, n, vp, op),
            16 => shuffle_warps(kind, 16, n, vp, op),
            _ => shuffle_warps(kind, d, n, vp, op),
        }
    }
}

/// [`shuffle_block`]'s loop, inlined into each of its arms.
///
/// # Safety
/// As for [`shuffle_block`].
#[inline(always)]
unsafe fn shuffle_warps<T: Copy>(kind: WarpKind, d: u32, n: usize, vp: *const T, op: *mut T) {
    let copy = |dst: usize, src: usize, len: usize| {
        for k in 0..len {
            // SAFETY: the caller's ranges (see `shuffle_block`).
            unsafe { op.add(dst + k).write(vp.add(src + k).read()) }
        }
    };
    let d = d as usize;
    for base in (0..n).step_by(WARP_SIZE as usize) {
        match kind {
            WarpKind::Shfl => {
                // SAFETY: as above.
                let v = unsafe { vp.add(base + d % 32).read() };
                for l in 0..32 {
                    // SAFETY: as above.
                    unsafe { op.add(base + l).write(v) }
                }
            }
            WarpKind::ShflDown if d < 32 => {
                copy(base, base + d, 32 - d);
                copy(base + 32 - d, base + 32 - d, d);
            }
            WarpKind::ShflUp if d < 32 => {
                copy(base, base, d);
                copy(base + d, base, 32 - d);
            }
            WarpKind::ShflXor if d < 32 => {
                for l in 0..32 {
                    // SAFETY: as above (`l ^ d < 32`).
                    unsafe { op.add(base + l).write(vp.add(base + (l ^ d)).read()) }
                }
            }
            // Every source lies beyond the warp: each lane keeps its own value.
            _ => copy(base, base, 32),
        }
    }
}

/// One full warp's shuffle: lane `l` reads `v[source(l, a[l])]`. When every lane passes the same
/// argument (the usual case: a loop's offset), the sources are a fixed pattern the compiler can
/// vectorise.
#[inline(always)]
fn shuffle<T: Copy>(kind: WarpKind, v: &[T; 32], a: &[u32; 32]) -> [T; 32] {
    let mut r = *v;
    let d = a[0];
    if a.iter().all(|&x| x == d) {
        match kind {
            WarpKind::Shfl => r = [v[(d % WARP_SIZE) as usize]; 32],
            WarpKind::ShflDown if d < WARP_SIZE => {
                r[..32 - d as usize].copy_from_slice(&v[d as usize..])
            }
            WarpKind::ShflUp if d < WARP_SIZE => {
                r[d as usize..].copy_from_slice(&v[..32 - d as usize])
            }
            WarpKind::ShflXor if d < WARP_SIZE => {
                for (l, x) in r.iter_mut().enumerate() {
                    *x = v[l ^ d as usize];
                }
            }
            _ => {}
        }
        return r;
    }
    for (l, x) in r.iter_mut().enumerate() {
        *x = v[source(kind, l as u32, a[l]) as usize];
    }
    r
}

impl<'b, S: BlockShape> BlockCtx<'b, S> {
    /// The lanes of the warp starting at work-item `base`, and whether it takes the plain loop
    /// (32 live lanes, the full mask).
    #[inline(always)]
    fn warp_lanes(&self, base: u32, mask: u32) -> (u32, bool) {
        let count = (self.threads() - base).min(WARP_SIZE);
        (
            count,
            count == WARP_SIZE && mask == FULL_MASK && !self.some_exited(),
        )
    }

    /// Completes `site`'s operation for the warp at `base` by the coroutine engine's rules:
    /// `call(w)` is live work-item `w`'s call; `done(w, result)` receives each live lane's
    /// result. Raises the engine's fault, naming its thread, where the operation is undefined.
    #[cold]
    #[inline(never)]
    fn resolve_warp(
        &self,
        base: u32,
        count: u32,
        call: impl Fn(u32) -> WarpCall,
        mut done: impl FnMut(u32, u64),
    ) {
        let mut lanes = [Lane::Exited; WARP_SIZE as usize];
        for i in 0..count {
            if self.is_alive(base + i) {
                lanes[i as usize] = Lane::Warp(call(base + i));
            }
        }
        let lanes = &mut lanes[..count as usize];
        // Every live lane waits here, so one round completes them all; a second round only
        // turns a lane whose group could not complete into the engine's divergence fault.
        while lanes.iter().any(|l| matches!(l, Lane::Warp(_))) {
            if let Err((tid, message)) = resolve(lanes, base, self.block_dim()) {
                self.set_current(tid);
                fault::raise(message);
            }
        }
        for (i, lane) in lanes.iter().enumerate() {
            if let Lane::Ready(v) = *lane {
                done(base + i as u32, v);
            }
        }
    }

    fn call(site: &WarpSite, mask: u32, value: u64, arg: u32) -> WarpCall {
        WarpCall {
            site: site.site,
            op: site.kind.op(),
            mask,
            value,
            arg,
        }
    }

    /// `syncwarp(mask)` for every warp of the block (`site.kind` is [`WarpKind::Sync`]). The
    /// block's work-items run on one OS thread, so it orders memory as it is; what it checks is
    /// that the mask is valid for every live lane.
    #[inline]
    pub fn warp_sync(&self, site: &WarpSite, mask: u32) {
        for base in (0..self.threads()).step_by(WARP_SIZE as usize) {
            let (count, plain) = self.warp_lanes(base, mask);
            if !plain {
                self.resolve_warp(base, count, |_| Self::call(site, mask, 0, 0), |_, _| {});
            }
        }
    }

    /// `all_sync` / `any_sync` (`site.kind`): `preds[w]` is work-item `w`'s predicate (0 or 1);
    /// `out[w]` receives 1 or 0.
    #[inline]
    pub fn warp_vote(
        &self,
        site: &WarpSite,
        mask: u32,
        preds: BlockArray<'b, u8, 1>,
        out: BlockArray<'b, i32, 1>,
    ) {
        let whole = |p: [u8; 32]| {
            i32::from(match site.kind {
                WarpKind::All => p.iter().all(|&x| x != 0),
                _ => p.iter().any(|&x| x != 0),
            })
        };
        self.warp_predicate(site, mask, preds, out, whole, |v| v as i32);
    }

    /// `ballot_sync(mask, pred)`: `preds[w]` is work-item `w`'s predicate (0 or 1); `out[w]`
    /// receives the ballot.
    #[inline]
    pub fn warp_ballot(
        &self,
        site: &WarpSite,
        mask: u32,
        preds: BlockArray<'b, u8, 1>,
        out: BlockArray<'b, u32, 1>,
    ) {
        let whole = |p: [u8; 32]| (0..32).fold(0u32, |m, l| m | (u32::from(p[l] != 0) << l));
        self.warp_predicate(site, mask, preds, out, whole, |v| v as u32);
    }

    /// A warp operation on predicates (`preds[w]`, 0 or 1) whose result every lane shares:
    /// a plain warp stores `whole(its 32 predicates)` for all its lanes; any other goes through
    /// the warp resolver, each lane storing `from_call` of what it returns.
    #[inline]
    fn warp_predicate<R: Pod>(
        &self,
        site: &WarpSite,
        mask: u32,
        preds: BlockArray<'b, u8, 1>,
        out: BlockArray<'b, R, 1>,
        whole: impl Fn([u8; 32]) -> R,
        from_call: impl Fn(u64) -> R,
    ) {
        for base in (0..self.threads()).step_by(WARP_SIZE as usize) {
            let (count, plain) = self.warp_lanes(base, mask);
            let b = base as usize;
            if plain {
                out.store_run(b, [whole(preds.load_run(b)); 32]);
            } else {
                let call = |w: u32| Self::call(site, mask, u64::from(preds.get(w as usize)), 0);
                self.resolve_warp(base, count, call, |w, v| out.set(w as usize, from_call(v)));
            }
        }
    }

    /// A shuffle (`site.kind`: `Shfl`, `ShflUp`, `ShflDown` or `ShflXor`): `values[w]` and
    /// `args[w]` are work-item `w`'s value and lane argument; `out[w]` receives the value it
    /// reads.
    #[inline]
    pub fn warp_shfl<T: WarpValue + Pod>(
        &self,
        site: &WarpSite,
        mask: u32,
        values: BlockArray<'b, T, 1>,
        args: BlockArray<'b, u32, 1>,
        out: BlockArray<'b, T, 1>,
    ) {
        let kind = site.kind;
        for base in (0..self.threads()).step_by(WARP_SIZE as usize) {
            let (count, plain) = self.warp_lanes(base, mask);
            let b = base as usize;
            if plain {
                let (v, a): ([T; 32], [u32; 32]) = (values.load_run(b), args.load_run(b));
                out.store_run(b, shuffle(kind, &v, &a));
            } else {
                let call = |w: u32| {
                    let v = values.get(w as usize).to_bits64();
                    Self::call(site, mask, v, args.get(w as usize))
                };
                self.resolve_warp(base, count, call, |w, v| {
                    out.set(w as usize, T::from_bits64(v))
                });
            }
        }
    }

    /// A region whose work is all under a condition that only work-items of warp lane `lane`
    /// can meet (`if t.lane_id() == 0`, its body still testing it): calls `f(w, thread_idx)` for
    /// the live work-items whose linear index is `lane` modulo the warp size, in linear order
    /// (none when `lane` is not a lane), as [`each_x`](Self::each_x) does for an x range. A warp
    /// reduction's "lane 0 keeps the warp's sum" step visits 8 work-items of a block of 256
    /// instead of 256.
    #[inline(always)]
    pub fn each_lane(&self, lane: i128, mut f: impl FnMut(u32, Dim3)) {
        if (0..i128::from(WARP_SIZE)).contains(&lane) {
            let some_exited = self.some_exited();
            for w in (lane as u32..self.threads()).step_by(WARP_SIZE as usize) {
                if !some_exited || self.is_alive(w) {
                    self.set_current(w);
                    f(w, self.thread_idx(w));
                }
            }
        }
        // Code between regions runs once for every live work-item: a fault there is the first
        // live one's (as after `each`).
        self.set_current(self.first_live());
    }

    /// A shuffle whose lane argument `arg` is the same for every work-item (a block-uniform
    /// expression): as [`warp_shfl`](Self::warp_shfl), without an array of arguments. In a
    /// block of whole warps with every work-item live and the full mask, one loop over the
    /// block.
    #[inline]
    pub fn warp_shfl_uniform<T: WarpValue + Pod>(
        &self,
        site: &WarpSite,
        mask: u32,
        values: BlockArray<'b, T, 1>,
        arg: u32,
        out: BlockArray<'b, T, 1>,
    ) {
        let kind = site.kind;
        let n = self.threads() as usize;
        if mask == FULL_MASK
            && !self.some_exited()
            && n % WARP_SIZE as usize == 0
            && values.as_ptr() != out.as_ptr()
        {
            let (vp, op) = (values.run_ptr(0, n), out.run_ptr(0, n));
            // SAFETY: both arrays hold `n` elements (checked by `run_ptr`) and are distinct
            // arrays of the block, which only this OS thread touches, with no reference to
            // them alive; every offset below is `base + l` or `base + j` with `l, j < 32` and
            // `base + 32 <= n`.
            unsafe { shuffle_block(kind, arg, n, vp, op) };
            return;
        }
        for base in (0..self.threads()).step_by(WARP_SIZE as usize) {
            let (count, _) = self.warp_lanes(base, mask);
            let call = |w: u32| Self::call(site, mask, values.get(w as usize).to_bits64(), arg);
            self.resolve_warp(base, count, call, |w, v| {
                out.set(w as usize, T::from_bits64(v))
            });
        }
    }

    /// `activemask()`: `out[w]` receives the live lanes of `w`'s warp (every live lane of a
    /// block body reaches the same call together).
    #[inline]
    pub fn warp_activemask(&self, site: &WarpSite, out: BlockArray<'b, u32, 1>) {
        for base in (0..self.threads()).step_by(WARP_SIZE as usize) {
            let (count, plain) = self.warp_lanes(base, FULL_MASK);
            if plain {
                out.store_run(base as usize, [FULL_MASK; 32]);
            } else {
                let call = |_| Self::call(site, 0, 0, 0);
                self.resolve_warp(base, count, call, |w, v| out.set(w as usize, v as u32));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sim::engine::LaunchConfig;
    use crate::driver::sim::engine::wil::{Dyn, run_blocks};

    const DOWN: WarpSite = WarpSite::new(WarpKind::ShflDown, "t.rs", 1, 1);

    #[test]
    fn sources_match_the_coroutine_rules() {
        for l in 0..32 {
            for arg in [0u32, 1, 4, 16, 31, 32, 33, u32::MAX] {
                for (kind, mode) in [
                    (WarpKind::Shfl, ShflMode::Idx),
                    (WarpKind::ShflUp, ShflMode::Up),
                    (WarpKind::ShflDown, ShflMode::Down),
                    (WarpKind::ShflXor, ShflMode::Xor),
                ] {
                    let c = WarpCall {
                        site: DOWN.site,
                        op: WarpOp::Shfl(mode),
                        mask: FULL_MASK,
                        value: 0,
                        arg,
                    };
                    let want = c.source(l).unwrap_or(l);
                    assert_eq!(source(kind, l, arg), want, "{kind:?} lane {l} arg {arg}");
                }
            }
        }
    }

    #[test]
    fn full_warp_shuffles_match_the_lane_rule() {
        let v: [u32; 32] = std::array::from_fn(|l| 100 + l as u32);
        for kind in [
            WarpKind::Shfl,
            WarpKind::ShflUp,
            WarpKind::ShflDown,
            WarpKind::ShflXor,
        ] {
            for d in [0u32, 1, 3, 16, 31, 32, 40, u32::MAX] {
                for uniform in [true, false] {
                    let a: [u32; 32] =
                        std::array::from_fn(|l| if uniform || l != 7 { d } else { 2 });
                    let want: [u32; 32] =
                        std::array::from_fn(|l| v[source(kind, l as u32, a[l]) as usize]);
                    assert_eq!(shuffle(kind, &v, &a), want, "{kind:?} {d} {uniform}");
                }
            }
        }
    }

    #[test]
    fn a_partial_warp_reading_a_missing_lane_faults_naming_the_reader() {
        let err = run_blocks::<Dyn, _>("k", &LaunchConfig::new(1, 40), |blk| {
            let (v, a, o) = (
                blk.context::<i32>(),
                blk.context::<u32>(),
                blk.context::<i32>(),
            );
            blk.each(|w, _| {
                v.set(w as usize, w as i32);
                a.set(w as usize, 9);
            });
            const IDX: WarpSite = WarpSite::new(WarpKind::Shfl, "t.rs", 2, 3);
            blk.warp_shfl(&IDX, FULL_MASK, v, a, o);
        })
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("does not exist"), "{text}");
        assert!(
            matches!(
                err,
                crate::Error::KernelFault {
                    thread: [32, 0, 0],
                    ..
                }
            ),
            "{err:?}"
        );
    }
}
