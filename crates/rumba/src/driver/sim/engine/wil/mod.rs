//! The work-item-loop engine: kernels as whole-block bodies whose regions between barriers are
//! loops over the block's threads (docs/design/kernels.md §4), the way PoCL runs OpenCL on a CPU. A
//! barrier costs the end of one loop and the start of the next instead of a coroutine switch per
//! thread, and block memory is plain memory the compiler can keep in registers and vectorise.
//!
//! [`run_blocks`] runs a grid: blocks are spread over the calling thread and the block helpers
//! by the same scheduler as the coroutine engine ([`run_grid`](super::run_grid)), with the same
//! choice of the reported fault (lowest faulting block). Each block gets a [`BlockCtx`] over the
//! worker's arena. The coroutine engine stays: it runs what a block body cannot express, and it
//! is the oracle block bodies are tested against.
//!
//! # The shape of a block body
//!
//! This is what `#[rumba::kernel]` emits next to the per-thread closure, and what the
//! hand-written bodies in the tests and benches follow:
//!
//! * the body is generic over the block shape `S` ([`Dyn`], or [`Fixed`] for the common shapes,
//!   chosen per launch) and over the access mode of its global inputs and outputs ([`Atomic`] or
//!   [`Plain`], chosen per launch from what the simulator grants);
//! * shared arrays (with their constant shapes), local arrays ([`BlockCtx::local_arrays`]) and
//!   context arrays ([`BlockCtx::context`]) are declared once at the top;
//! * block-uniform values (from parameters, constants, block index and shape, barrier results)
//!   are ordinary locals of the body, one per block;
//! * each region between barriers is one [`BlockCtx::each`] call: `|w, tid|` is the work-item's
//!   linear index and coordinates; thread-index expressions (`tid.x`, `grid1`) are recomputed
//!   there; values live across a barrier go to context arrays indexed by `w`; a `return` under
//!   thread-dependent control is [`BlockCtx::exit`];
//! * a barrier is [`BlockCtx::barrier`] (with the count of true predicates of
//!   `syncthreads_count/and/or`, summed in the region before); `None` means every work-item has
//!   returned and the body returns;
//! * an in-kernel view (`reshape`, `view::<U>()`, `row`, `index_axis`) is made inside a region
//!   with the per-thread [`View`](super::View) methods — of a shared or local array through
//!   [`BlockArray::shared_view`] / [`BlockArray::local_view`] — and made again from the same
//!   arguments in each later region that uses it (a view never crosses a barrier itself);
//! * control flow that contains a barrier runs outside the regions, once per block: its
//!   per-thread decision (condition, bound, `break`) is gathered in the region before into a
//!   [`Decision`] and taken with [`BlockCtx::uniform`], which faults when live work-items
//!   disagree — the divergent-barrier fault of the coroutine engine, naming block and thread;
//! * for the optimiser: accessors are copied into locals at the top (their fields then stay in
//!   registers) and region closures are `#[inline(always)]`, so each region is one loop the
//!   compiler sees whole (constant trip counts and shared-array shapes with [`Fixed`]);
//! * a region whose global accesses are all at the thread's own index — `t.grid1()` of a 1-d
//!   launch for 1-d arrays; `(y, x)` with `(x, y) = t.grid2()` for 2-d outputs, and constant
//!   offsets from it for frozen 2-d inputs — first asks for the block's **own windows**
//!   ([`GlobalIn::own_window`], [`OwnOut::own_window`], [`GlobalIn::halo_window`]): in a full
//!   block they exist, every such access is in bounds and so is a guard `i < x.len()` (`y <
//!   x.shape()[0]`, `x < ….shape()[1]`) on those arrays, and the region runs indexed by work-item
//!   (2-d: by `threadIdx`; each block row is a contiguous run of the array) without bounds
//!   checks against the arrays — a loop the compiler vectorises; otherwise (the ragged last
//!   block, a launch the windows do not fit) the checked region runs. A halo window serves the
//!   block's interior (the work-items whose reads stay inside the array): the region then runs
//!   as [`BlockCtx::each_split`], its interior through the windows (reached with the
//!   [`Inside`] token, checked once per region; the halo's reads loaded first, and guards the
//!   interior decides folded), the other work-items checked.
//!
//! A race-free kernel computes the same on both engines, bit for bit. A kernel whose threads
//! race inside a block (one writes a shared element another reads, with no barrier between) may
//! not: the coroutine engine runs each thread up to its next barrier in turn, this engine runs
//! each region for all threads in turn — two legal schedules, as two GPUs may differ.
//!
//! ```
//! use rumba::kernel::{GlobalView, LaunchConfig};
//! use rumba::kernel::wil::{run_blocks, BarrierKind, BarrierSite, Fixed};
//! // reduce_shared: one partial sum per block of 256, a tree with a barrier per level.
//! const SYNC0: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
//! const SYNC1: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
//! let x: Vec<f32> = (0..1024).map(|i| i as f32).collect();
//! let mut partial = vec![0.0f32; 4];
//! let (xv, pv) = (GlobalView::from_slice(&x), GlobalView::from_slice_mut(&mut partial));
//! run_blocks::<Fixed<256, 1, 1>, _>("reduce", &LaunchConfig::new(4, 256), |blk| {
//!     let s = blk.shared_array::<f32, 1>([256]);
//!     let base = blk.block_idx().x as usize * 256;
//!     blk.each(|_, tid| {
//!         let i = base + tid.x as usize;
//!         s.set(tid.x as usize, if i < xv.len() { xv.get(i) } else { 0.0 });
//!     });
//!     if blk.barrier(&SYNC0, 0).is_none() {
//!         return;
//!     }
//!     let mut stride = 128;
//!     while stride > 0 {
//!         blk.each(|_, tid| {
//!             let t = tid.x as usize;
//!             if t < stride {
//!                 s.set(t, s.get(t) + s.get(t + stride));
//!             }
//!         });
//!         if blk.barrier(&SYNC1, 0).is_none() {
//!             return;
//!         }
//!         stride /= 2;
//!     }
//!     blk.each(|_, tid| {
//!         if tid.x == 0 {
//!             pv.set(blk.block_idx().x as usize, s.get(0));
//!         }
//!     });
//! })
//! .unwrap();
//! assert_eq!(partial[1], (256..512).sum::<i32>() as f32);
//! ```
//!
//! # Soundness
//!
//! * **Block memory** — shared, dynamic shared, local and context arrays — lives in an arena
//!   that belongs to the one OS thread running the block (a thread-local while idle), and is
//!   reached through raw-pointer handles ([`BlockArray`]) that are neither `Send` nor `Sync` and
//!   die with the block body. No other OS thread can reach it, so plain loads and stores cannot
//!   race; no reference to an element is ever made, so handles may alias freely (see `arena`).
//! * **Global memory** stays relaxed atomic words by default ([`GlobalView`](super::GlobalView),
//!   [`Atomic`]): blocks run on different OS threads and may race, which is then defined
//!   behaviour. Plain global accesses exist only where the runtime proved them race-free: reads
//!   of an input nothing writes during the launch, and stores of a block to its own elements of
//!   an output nobody else touches (see `global` for the argument, and the simulator's
//!   `inflight` tracker for how the proof is made).
//! * **Faults** unwind out of the body to the block runner, which names the work-item recorded
//!   by the region loop; the arena is reset, not freed, and the next block runs normally.
//!
//! | file | concept |
//! |---|---|
//! | `block` | [`run_blocks`], [`BlockCtx`], regions, barriers, decisions, block shapes |
//! | `sites` | [`BarrierSite`], [`DecisionSite`], [`Site`]: where barriers and decisions stand; [`Decision`] |
//! | `arena` | the per-worker block memory and [`BlockArray`] |
//! | `global` | [`GlobalIn`], [`OwnOut`]: global inputs and outputs with an access mode |
//! | `warp` | warp operations between regions ([`BlockCtx::warp_shfl`] and friends, [`WarpSite`]) |
//!
//! This module touches the worker's arena (a thread-local), the block helpers' pool, and the
//! memory of the arrays a block body is given.

mod arena;
mod block;
mod global;
mod halo;
mod own;
mod sites;
mod warp;

pub use super::barrier::BarrierKind;
pub use arena::{BlockArray, BlockIndex, LocalArrays, Space};
pub use block::{BlockCtx, BlockShape, Dyn, Fixed, run_blocks, run_blocks_with};
pub use global::{Access, Atomic, GlobalIn, Plain, Window};
pub use halo::{Halo, Inside, Interior};
pub(crate) use own::own_index_layout;
pub use own::{OwnBlock, OwnOut, OwnWindow};
pub use sites::{BarrierSite, Decision, DecisionSite, Site};
pub use warp::{WarpKind, WarpSite};
