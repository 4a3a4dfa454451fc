//! Warp-level operations on the coroutine engine: `syncwarp`, the votes (`all_sync`,
//! `any_sync`, `ballot_sync`), the shuffles (`shfl_sync`, `shfl_up/down/xor_sync`) and
//! `activemask`.
//!
//! A warp is 32 consecutive linear thread ids of a block ([`WARP_SIZE`]); the last warp of a
//! block whose size is not a multiple of 32 has fewer lanes, and the missing lanes count as
//! exited. A lane that calls a warp operation suspends its coroutine with a [`WarpCall`]; the
//! block runner ([`exec`](super::exec)) runs the other lanes of the warp until each has
//! exited, reached a block barrier or reached a warp operation, then [`resolve`]s: a lane's call
//! completes once every *non-exited* lane named in its mask waits at the same operation with the
//! same mask (for `syncwarp` the call sites may differ, as on Volta and later), and every lane of
//! that group resumes with its result. Lanes whose groups cannot complete while nothing else can
//! run are a fault instead of a hang. Where CUDA leaves the result undefined the simulator
//! faults, naming kernel, block and thread:
//!
//! * the calling lane is not in its own mask;
//! * a lane named in the mask waits elsewhere (another warp operation, another mask, a block
//!   barrier) and can never get here;
//! * a shuffle reads a lane that is not in the mask, has exited or does not exist. A source
//!   beyond the warp for `shfl_up/down/xor_sync` yields the caller's own value, as in CUDA.
//!
//! `activemask` does not synchronise on hardware: here it returns the lanes of the warp that
//! wait at the same `activemask` call site when the warp is resolved (the converged lanes).
//!
//! On the fast path (thread 0 exited without reaching a barrier, so the other threads run one
//! after another without coroutines) a warp operation completes at once when no lane after the
//! caller is named in its mask, and is otherwise a fault that says to launch without the fast
//! path; `#[rumba::kernel]` kernels that use warp operations never take it.
//!
//! Pure bookkeeping: touches no memory and runs no threads.

use std::panic::Location;

use super::barrier::Arrival;
use super::dim::{Dim3, WARP_SIZE};
use super::wil::Site;

/// Which shuffle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShflMode {
    /// `shfl_sync`: from lane `arg % 32`.
    Idx,
    /// `shfl_up_sync`: from lane `lane - arg`, own value below lane 0.
    Up,
    /// `shfl_down_sync`: from lane `lane + arg`, own value beyond lane 31.
    Down,
    /// `shfl_xor_sync`: from lane `lane ^ arg`, own value beyond lane 31.
    Xor,
}

/// Which warp operation a lane calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WarpOp {
    /// `syncwarp(mask)`.
    Sync,
    /// `all_sync(mask, pred)`.
    All,
    /// `any_sync(mask, pred)`.
    Any,
    /// `ballot_sync(mask, pred)`.
    Ballot,
    /// A shuffle.
    Shfl(ShflMode),
    /// `activemask()`.
    ActiveMask,
}

impl WarpOp {
    fn name(self) -> &'static str {
        match self {
            WarpOp::Sync => "syncwarp",
            WarpOp::All => "all_sync",
            WarpOp::Any => "any_sync",
            WarpOp::Ballot => "ballot_sync",
            WarpOp::Shfl(ShflMode::Idx) => "shfl_sync",
            WarpOp::Shfl(ShflMode::Up) => "shfl_up_sync",
            WarpOp::Shfl(ShflMode::Down) => "shfl_down_sync",
            WarpOp::Shfl(ShflMode::Xor) => "shfl_xor_sync",
            WarpOp::ActiveMask => "activemask",
        }
    }
}

/// A lane's call of a warp operation: where, which, its mask, its value (the predicate as 0/1
/// for votes, the bits of the shuffled value) and its lane argument (source lane, delta or xor
/// mask).
#[derive(Debug, Clone, Copy)]
pub(crate) struct WarpCall {
    pub(crate) site: Site,
    pub(crate) op: WarpOp,
    pub(crate) mask: u32,
    pub(crate) value: u64,
    pub(crate) arg: u32,
}

impl WarpCall {
    fn describe(&self) -> String {
        match self.op {
            WarpOp::ActiveMask => format!("activemask at {}", self.site),
            op => format!("{}({:#010x}) at {}", op.name(), self.mask, self.site),
        }
    }

    /// Whether `other` (another lane's call) completes the same operation as this one.
    fn matches(&self, other: &WarpCall) -> bool {
        self.op == other.op && self.mask == other.mask
    }

    /// The lane this shuffle reads, or `None` when it keeps its own value.
    pub(crate) fn source(&self, lane: u32) -> Option<u32> {
        let WarpOp::Shfl(mode) = self.op else {
            return Some(lane);
        };
        let j = match mode {
            ShflMode::Idx => self.arg % WARP_SIZE,
            ShflMode::Up => lane.checked_sub(self.arg)?,
            ShflMode::Down => lane.checked_add(self.arg)?,
            ShflMode::Xor => lane ^ self.arg,
        };
        (j < WARP_SIZE).then_some(j)
    }
}

impl From<&'static Location<'static>> for Site {
    fn from(l: &'static Location<'static>) -> Self {
        Site {
            file: l.file(),
            line: l.line(),
            column: l.column(),
        }
    }
}

/// What a suspended GPU thread waits at.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Suspend {
    /// A block barrier (`syncthreads*`).
    Block(Arrival),
    /// A warp operation.
    Warp(WarpCall),
}

/// Where a lane of the block stands between two resumptions.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Lane {
    /// Runnable: resume it with this value.
    Ready(u64),
    /// Waits at a block barrier.
    AtBarrier(&'static Location<'static>),
    /// Waits at a warp operation.
    Warp(WarpCall),
    /// Returned from the kernel body.
    Exited,
}

/// A lane's fault: its linear thread id in the block and the message.
pub(crate) type LaneFault = (u32, String);

/// Completes the warp operations of one warp whose lanes all wait or have exited:
/// `lanes[i]` is lane `i` (linear thread id `base + i`) and `lanes.len()` is the warp's lane
/// count. Completed lanes become [`Lane::Ready`] with their results. Returns whether any lane
/// completed; `Err` when some lane's operation can never complete or is undefined.
pub(crate) fn resolve(lanes: &mut [Lane], base: u32, block_dim: Dim3) -> Result<bool, LaneFault> {
    let count = lanes.len().min(WARP_SIZE as usize);
    let mut results: [Option<u64>; WARP_SIZE as usize] = [None; WARP_SIZE as usize];
    let coord = |i: usize| Dim3::from_linear(u64::from(base) + i as u64, block_dim);
    let tid = |i: usize| base + i as u32;
    let mut stuck: Option<(usize, String)> = None;
    for i in 0..count {
        let Lane::Warp(call) = lanes[i] else { continue };
        if call.op == WarpOp::ActiveMask {
            let mut m = 0u32;
            for (j, l) in lanes.iter().enumerate().take(count) {
                if let Lane::Warp(c) = l {
                    if c.op == WarpOp::ActiveMask && c.site == call.site {
                        m |= 1 << j;
                    }
                }
            }
            results[i] = Some(u64::from(m));
            continue;
        }
        if call.mask & (1 << i) == 0 {
            return Err((
                tid(i),
                format!(
                    "{}: thread {} is not in its own mask (lane {i})",
                    call.describe(),
                    coord(i)
                ),
            ));
        }
        // The group: the non-exited lanes named in the mask; all must wait here.
        let mut group = 0u32;
        let mut blocker = None;
        for (j, lane) in lanes.iter().enumerate().take(count) {
            if call.mask & (1 << j) == 0 {
                continue;
            }
            match *lane {
                Lane::Exited => {}
                Lane::Warp(c) if c.matches(&call) => group |= 1 << j,
                other => {
                    blocker = Some((j, other));
                    break;
                }
            }
        }
        if let Some((j, other)) = blocker {
            if stuck.is_none() {
                let elsewhere = match other {
                    Lane::Warp(c) => format!("waits at {}", c.describe()),
                    Lane::AtBarrier(site) => format!("waits at a block barrier at {site}"),
                    Lane::Ready(_) | Lane::Exited => "has not arrived".to_string(),
                };
                stuck = Some((
                    i,
                    format!(
                        "divergent warp operation: thread {} waits at {} but thread {} (lane {j}, named in the mask) {elsewhere}",
                        coord(i),
                        call.describe(),
                        coord(j)
                    ),
                ));
            }
            continue;
        }
        let lane_call = |j: u32| match lanes[j as usize] {
            Lane::Warp(c) => c,
            _ => call,
        };
        let preds = (0..count as u32).filter(|&j| group & (1 << j) != 0);
        results[i] = Some(match call.op {
            WarpOp::Sync => 0,
            WarpOp::All => u64::from(preds.clone().all(|j| lane_call(j).value != 0)),
            WarpOp::Any => u64::from(preds.clone().any(|j| lane_call(j).value != 0)),
            WarpOp::Ballot => preds
                .filter(|&j| lane_call(j).value != 0)
                .fold(0u64, |m, j| m | 1 << j),
            WarpOp::Shfl(_) => match call.source(i as u32) {
                None => call.value,
                Some(j) if group & (1 << j) != 0 => lane_call(j).value,
                Some(j) => {
                    let why = if call.mask & (1 << j) == 0 {
                        "which is not in the mask"
                    } else if (j as usize) < count {
                        "which has exited"
                    } else {
                        "which does not exist (the block has fewer threads)"
                    };
                    return Err((
                        tid(i),
                        format!(
                            "{}: thread {} reads lane {j}, {why}",
                            call.describe(),
                            coord(i)
                        ),
                    ));
                }
            },
            WarpOp::ActiveMask => 0,
        });
    }
    let mut progressed = false;
    for (lane, r) in lanes.iter_mut().zip(results).take(count) {
        if let Some(v) = r {
            *lane = Lane::Ready(v);
            progressed = true;
        }
    }
    match stuck {
        Some((i, message)) if !progressed => Err((tid(i), message)),
        _ => Ok(progressed),
    }
}

/// A warp operation reached on the fast path by linear thread `linear` of a block of `threads`
/// threads: every earlier lane of its warp has exited and no later one has started. Completes it
/// if no later lane is named in the mask, else returns the fault message.
pub(crate) fn resolve_alone(call: WarpCall, linear: u32, threads: u32) -> Result<u64, String> {
    let lane = linear % WARP_SIZE;
    let warp_base = linear - lane;
    let lanes_here = (threads - warp_base).min(WARP_SIZE);
    let mut lanes = [Lane::Exited; WARP_SIZE as usize];
    lanes[lane as usize] = Lane::Warp(call);
    if call.op != WarpOp::ActiveMask && call.mask & (1 << lane) != 0 {
        let later = (lane + 1..lanes_here).find(|&j| call.mask & (1 << j) != 0);
        if let Some(j) = later {
            return Err(format!(
                "{} cannot complete on the fast path: thread 0 exited without reaching a barrier, so the block runs its threads one after another and lane {j}, named in the mask, has not started; launch with `ExecOptions {{ fast_path: false, .. }}` (`#[rumba::kernel]` kernels do)",
                call.describe()
            ));
        }
    }
    let dim = Dim3::new(threads, 1, 1);
    match resolve(&mut lanes[..lanes_here as usize], warp_base, dim) {
        Ok(_) => match lanes[lane as usize] {
            Lane::Ready(v) => Ok(v),
            _ => Err(format!(
                "internal error: {} did not complete",
                call.describe()
            )),
        },
        Err((_, m)) => Err(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(op: WarpOp, mask: u32, value: u64, arg: u32) -> Lane {
        Lane::Warp(WarpCall {
            site: Location::caller().into(),
            op,
            mask,
            value,
            arg,
        })
    }

    #[test]
    fn shuffles_and_votes_of_a_full_warp() {
        let dim = Dim3::new(32, 1, 1);
        let mut lanes: Vec<Lane> = (0..32)
            .map(|i| call(WarpOp::Shfl(ShflMode::Up), u32::MAX, i, 4))
            .collect();
        assert!(resolve(&mut lanes, 0, dim).unwrap());
        let got: Vec<u64> = lanes
            .iter()
            .map(|l| match l {
                Lane::Ready(v) => *v,
                _ => u64::MAX,
            })
            .collect();
        let want: Vec<u64> = (0..32).map(|i| if i < 4 { i } else { i - 4 }).collect();
        assert_eq!(got, want);
        let mut lanes: Vec<Lane> = (0..32)
            .map(|i| call(WarpOp::Ballot, u32::MAX, u64::from(i % 2 == 0), 0))
            .collect();
        resolve(&mut lanes, 0, dim).unwrap();
        assert!(matches!(lanes[5], Lane::Ready(0x5555_5555)));
    }

    #[test]
    fn a_lane_elsewhere_is_a_fault_and_exited_lanes_are_skipped() {
        let dim = Dim3::new(32, 1, 1);
        let mut lanes = vec![Lane::Exited; 32];
        lanes[0] = call(WarpOp::Sync, 0b11, 0, 0);
        assert!(resolve(&mut lanes, 0, dim).unwrap());
        lanes[0] = call(WarpOp::Sync, 0b11, 0, 0);
        lanes[1] = Lane::AtBarrier(Location::caller());
        let (t, m) = resolve(&mut lanes, 0, dim).unwrap_err();
        assert_eq!(t, 0);
        assert!(m.contains("divergent warp operation"), "{m}");
        lanes[1] = Lane::Exited;
        lanes[0] = call(WarpOp::Shfl(ShflMode::Idx), 0b11, 7, 1);
        let (_, m) = resolve(&mut lanes, 0, dim).unwrap_err();
        assert!(m.contains("has exited"), "{m}");
        lanes[0] = call(WarpOp::Ballot, 0b10, 1, 0);
        let (_, m) = resolve(&mut lanes, 0, dim).unwrap_err();
        assert!(m.contains("not in its own mask"), "{m}");
    }
}
