//! The peer workloads of `scripts/peers/workloads.md` — `vadd`, `matmul_shared` (16×16 tiles, two
//! barriers per tile) and `reduce_shared` (256-thread tree, one barrier per level) — each as a
//! per-thread body (the coroutine engine's form) and as a hand-written block body in exactly the
//! shape `#[rumba::kernel]` emits for the work-item-loop engine (`rumba::kernel::wil`): regions
//! between barriers as `each` loops, uniform values as block scalars, values live across
//! barriers in context arrays, thread-index expressions recomputed per region, one monomorph per
//! global access mode and for the common block shapes, chosen per launch.
//!
//! Included with `#[path]` by the engine tests and the criterion bench. `#[rumba::kernel]` emits
//! this shape for the same kernels (`rumba bench` runs those); this file is its hand-written
//! reference, for measuring the engine without the macro.

#![allow(dead_code)]

use rumba::driver::{ArrayUse, HostLaunch};
use rumba::kernel::wil::{
    Access, Atomic, BarrierKind, BarrierSite, BlockCtx, BlockShape, Dyn, Fixed, GlobalIn, OwnOut,
    Plain, run_blocks,
};
use rumba::kernel::{Arr, GlobalView, Kernel, LaunchConfig, ThreadCtx};

/// Tile edge of `matmul_shared`.
pub const TPB: usize = 16;

/// The launch's configuration, as a block body's grid function rebuilds it.
pub fn config_of(launch: &HostLaunch<'_>) -> LaunchConfig {
    LaunchConfig::new(launch.grid(), launch.block())
        .with_dynamic_shared_bytes(launch.dynamic_shared_bytes())
}

// ----------------------------------------------------------------------------------------------
// vadd: c[i] = a[i] + b[i]

/// The per-thread body.
pub fn vadd_thread(
    t: &ThreadCtx<'_>,
    a: &GlobalView<'_, f32>,
    b: &GlobalView<'_, f32>,
    c: &GlobalView<'_, f32>,
) {
    let i = t.grid1();
    if i < c.size() {
        c.set(i, a.get(i) + b.get(i));
    }
}

/// The block body: one region, no barrier.
#[inline(always)]
pub fn vadd_block<S: BlockShape, R: Access, W: Access>(
    blk: &BlockCtx<'_, S>,
    a: &GlobalIn<'_, f32, 1, R>,
    b: &GlobalIn<'_, f32, 1, R>,
    c: &OwnOut<'_, f32, W>,
) {
    // Every global access is at the thread's own linear index (`i`, which is `t.grid1()` of a
    // 1-d launch): in a full block all of them are in bounds, and so is the guard `i < c.len()`;
    // the region then indexes the block's windows by work-item, without bounds checks against
    // the arrays, and the compiler vectorises it.
    if let (Some(aw), Some(bw), Some(cw)) =
        (a.own_window(blk), b.own_window(blk), c.own_window(blk))
    {
        blk.each(
            #[inline(always)]
            |w, _| cw.set(w, aw.at(w) + bw.at(w)),
        );
        return;
    }
    // Accessors are block scalars: copied into locals, so their fields stay in registers.
    let (a, b, c) = (*a, *b, c.block(blk));
    let base = blk.block_idx().x as usize * blk.block_dim().x as usize;
    blk.each(
        #[inline(always)]
        |_, tid| {
            let i = base + tid.x as usize;
            if i < c.len() {
                c.set(i, a.get(i) + b.get(i));
            }
        },
    );
}

/// The work-item-loop grid function: picks the access modes the simulator granted, then the
/// block shape.
pub fn vadd_grid(launch: &HostLaunch<'_>) -> rumba::Result<()> {
    let (args, cfg) = (launch.args(), config_of(launch));
    match OwnOut::<f32, Plain>::from_arg(&args[2], 2, &cfg) {
        Ok(c) => vadd_inputs(launch, &cfg, &c),
        Err(_) => vadd_inputs(
            launch,
            &cfg,
            &OwnOut::<f32, Atomic>::from_arg(&args[2], 2, &cfg)?,
        ),
    }
}

fn vadd_inputs<W: Access>(
    launch: &HostLaunch<'_>,
    cfg: &LaunchConfig,
    c: &OwnOut<'_, f32, W>,
) -> rumba::Result<()> {
    let args = launch.args();
    match (
        GlobalIn::<f32, 1, Plain>::from_arg(&args[0], 0),
        GlobalIn::<f32, 1, Plain>::from_arg(&args[1], 1),
    ) {
        (Ok(a), Ok(b)) => vadd_shapes(launch.name(), cfg, &a, &b, c),
        _ => {
            let a = GlobalIn::<f32, 1, Atomic>::from_arg(&args[0], 0)?;
            let b = GlobalIn::<f32, 1, Atomic>::from_arg(&args[1], 1)?;
            vadd_shapes(launch.name(), cfg, &a, &b, c)
        }
    }
}

fn vadd_shapes<R: Access, W: Access>(
    name: &str,
    cfg: &LaunchConfig,
    a: &GlobalIn<'_, f32, 1, R>,
    b: &GlobalIn<'_, f32, 1, R>,
    c: &OwnOut<'_, f32, W>,
) -> rumba::Result<()> {
    match cfg.block.to_array() {
        [256, 1, 1] => run_blocks::<Fixed<256, 1, 1>, _>(name, cfg, |blk| vadd_block(blk, a, b, c)),
        _ => run_blocks::<Dyn, _>(name, cfg, |blk| vadd_block(blk, a, b, c)),
    }
}

/// `vadd` with both forms.
pub fn vadd_kernel() -> Kernel<(Arr<f32>, Arr<f32>, Arr<f32>)> {
    Kernel::<(Arr<f32>, Arr<f32>, Arr<f32>)>::new("vadd", |t, (a, b, c)| vadd_thread(t, a, b, c))
        .with_work_item_loop(
            [ArrayUse::Read, ArrayUse::Read, ArrayUse::OwnIndexStore],
            vadd_grid,
        )
}

// ----------------------------------------------------------------------------------------------
// matmul_shared: C = A·B through two 16×16 shared tiles

/// The per-thread body.
pub fn matmul_thread(
    t: &ThreadCtx<'_>,
    a: &GlobalView<'_, f32>,
    b: &GlobalView<'_, f32>,
    c: &GlobalView<'_, f32>,
) {
    let sa = t.shared_array::<f32>((TPB, TPB));
    let sb = t.shared_array::<f32>((TPB, TPB));
    let (x, y) = t.grid2();
    let (tx, ty) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
    let n = c.shape()[0];
    let mut acc = 0.0f32;
    for tile in 0..t.grid_dim().x as usize {
        sa.set((ty, tx), 0.0);
        sb.set((ty, tx), 0.0);
        if y < n && tx + tile * TPB < n {
            sa.set((ty, tx), a.get((y, tx + tile * TPB)));
        }
        if x < n && ty + tile * TPB < n {
            sb.set((ty, tx), b.get((ty + tile * TPB, x)));
        }
        t.syncthreads();
        for j in 0..TPB {
            acc += sa.get((ty, j)) * sb.get((j, tx));
        }
        t.syncthreads();
    }
    if y < n && x < n {
        c.set((y, x), acc);
    }
}

const MM_SYNC0: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const MM_SYNC1: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

/// The block body: the tile loop is uniform (bound from `gridDim`), so it runs once per block
/// around two regions and two barriers; `acc` lives across barriers in a context array.
#[inline(always)]
pub fn matmul_block<S: BlockShape, R: Access>(
    blk: &BlockCtx<'_, S>,
    a: &GlobalIn<'_, f32, 2, R>,
    b: &GlobalIn<'_, f32, 2, R>,
    c: &GlobalView<'_, f32>,
) {
    let (a, b, c) = (*a, *b, *c);
    let sa = blk.shared_array::<f32, 2>([TPB, TPB]);
    let sb = blk.shared_array::<f32, 2>([TPB, TPB]);
    let acc = blk.context::<f32>();
    let (bdx, bdy) = (blk.block_dim().x as usize, blk.block_dim().y as usize);
    let (bx, by) = (blk.block_idx().x as usize, blk.block_idx().y as usize);
    let n = c.shape()[0];
    blk.each(
        #[inline(always)]
        |w, _| acc.set(w as usize, 0.0),
    );
    for tile in 0..blk.grid_dim().x as usize {
        blk.each(
            #[inline(always)]
            |_, tid| {
                let (tx, ty) = (tid.x as usize, tid.y as usize);
                let (x, y) = (bx * bdx + tx, by * bdy + ty);
                sa.set((ty, tx), 0.0);
                sb.set((ty, tx), 0.0);
                if y < n && tx + tile * TPB < n {
                    sa.set((ty, tx), a.get((y, tx + tile * TPB)));
                }
                if x < n && ty + tile * TPB < n {
                    sb.set((ty, tx), b.get((ty + tile * TPB, x)));
                }
            },
        );
        if blk.barrier(&MM_SYNC0, 0).is_none() {
            return;
        }
        blk.each(
            #[inline(always)]
            |w, tid| {
                let (tx, ty) = (tid.x as usize, tid.y as usize);
                let mut a_ = acc.get(w as usize);
                for j in 0..TPB {
                    a_ += sa.get((ty, j)) * sb.get((j, tx));
                }
                acc.set(w as usize, a_);
            },
        );
        if blk.barrier(&MM_SYNC1, 0).is_none() {
            return;
        }
    }
    blk.each(
        #[inline(always)]
        |w, tid| {
            let (x, y) = (bx * bdx + tid.x as usize, by * bdy + tid.y as usize);
            if y < n && x < n {
                c.set((y, x), acc.get(w as usize));
            }
        },
    );
}

/// The work-item-loop grid function.
pub fn matmul_grid(launch: &HostLaunch<'_>) -> rumba::Result<()> {
    let (args, cfg) = (launch.args(), config_of(launch));
    let c = <Arr<f32> as rumba::kernel::Param>::view(&args[2], 2)?;
    match (
        GlobalIn::<f32, 2, Plain>::from_arg(&args[0], 0),
        GlobalIn::<f32, 2, Plain>::from_arg(&args[1], 1),
    ) {
        (Ok(a), Ok(b)) => matmul_shapes(launch.name(), &cfg, &a, &b, &c),
        _ => {
            let a = GlobalIn::<f32, 2, Atomic>::from_arg(&args[0], 0)?;
            let b = GlobalIn::<f32, 2, Atomic>::from_arg(&args[1], 1)?;
            matmul_shapes(launch.name(), &cfg, &a, &b, &c)
        }
    }
}

fn matmul_shapes<R: Access>(
    name: &str,
    cfg: &LaunchConfig,
    a: &GlobalIn<'_, f32, 2, R>,
    b: &GlobalIn<'_, f32, 2, R>,
    c: &GlobalView<'_, f32>,
) -> rumba::Result<()> {
    match cfg.block.to_array() {
        [16, 16, 1] => {
            run_blocks::<Fixed<16, 16, 1>, _>(name, cfg, |blk| matmul_block(blk, a, b, c))
        }
        [32, 32, 1] => {
            run_blocks::<Fixed<32, 32, 1>, _>(name, cfg, |blk| matmul_block(blk, a, b, c))
        }
        _ => run_blocks::<Dyn, _>(name, cfg, |blk| matmul_block(blk, a, b, c)),
    }
}

/// `matmul_shared` with both forms.
pub fn matmul_kernel() -> Kernel<(Arr<f32>, Arr<f32>, Arr<f32>)> {
    Kernel::<(Arr<f32>, Arr<f32>, Arr<f32>)>::new("matmul_shared", |t, (a, b, c)| {
        matmul_thread(t, a, b, c)
    })
    .with_work_item_loop(
        [ArrayUse::Read, ArrayUse::Read, ArrayUse::ReadWrite],
        matmul_grid,
    )
}

// ----------------------------------------------------------------------------------------------
// reduce_shared: one partial sum per block of 256

/// The per-thread body.
pub fn reduce_thread(t: &ThreadCtx<'_>, x: &GlobalView<'_, f32>, partial: &GlobalView<'_, f32>) {
    let s = t.shared_array::<f32>(256);
    let tid = t.thread_idx().x as usize;
    let i = t.grid1();
    s.set(tid, if i < x.size() { x.get(i) } else { 0.0 });
    t.syncthreads();
    let mut stride = 128;
    while stride > 0 {
        if tid < stride {
            s.set(tid, s.get(tid) + s.get(tid + stride));
        }
        t.syncthreads();
        stride /= 2;
    }
    if tid == 0 {
        partial.set(t.block_idx().x as usize, s.get(0));
    }
}

const RED_SYNC0: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());
const RED_SYNC1: BarrierSite = BarrierSite::new(BarrierKind::Sync, file!(), line!(), column!());

/// The block body: `stride` is uniform, so the `while` runs once per block with a region and a
/// barrier per level.
#[inline(always)]
pub fn reduce_block<S: BlockShape, R: Access>(
    blk: &BlockCtx<'_, S>,
    x: &GlobalIn<'_, f32, 1, R>,
    partial: &GlobalView<'_, f32>,
) {
    let (x, partial) = (*x, *partial);
    let s = blk.shared_array::<f32, 1>([256]);
    let base = blk.block_idx().x as usize * blk.block_dim().x as usize;
    blk.each(
        #[inline(always)]
        |_, tid| {
            let (tid, i) = (tid.x as usize, base + tid.x as usize);
            s.set(tid, if i < x.size() { x.get(i) } else { 0.0 });
        },
    );
    if blk.barrier(&RED_SYNC0, 0).is_none() {
        return;
    }
    let mut stride = 128;
    while stride > 0 {
        blk.each(
            #[inline(always)]
            |_, tid| {
                let tid = tid.x as usize;
                if tid < stride {
                    s.set(tid, s.get(tid) + s.get(tid + stride));
                }
            },
        );
        if blk.barrier(&RED_SYNC1, 0).is_none() {
            return;
        }
        stride /= 2;
    }
    blk.each(
        #[inline(always)]
        |_, tid| {
            if tid.x == 0 {
                partial.set(blk.block_idx().x as usize, s.get(0));
            }
        },
    );
}

/// The work-item-loop grid function.
pub fn reduce_grid(launch: &HostLaunch<'_>) -> rumba::Result<()> {
    let (args, cfg) = (launch.args(), config_of(launch));
    let partial = <Arr<f32> as rumba::kernel::Param>::view(&args[1], 1)?;
    match GlobalIn::<f32, 1, Plain>::from_arg(&args[0], 0) {
        Ok(x) => reduce_shapes(launch.name(), &cfg, &x, &partial),
        Err(_) => reduce_shapes(
            launch.name(),
            &cfg,
            &GlobalIn::<f32, 1, Atomic>::from_arg(&args[0], 0)?,
            &partial,
        ),
    }
}

fn reduce_shapes<R: Access>(
    name: &str,
    cfg: &LaunchConfig,
    x: &GlobalIn<'_, f32, 1, R>,
    partial: &GlobalView<'_, f32>,
) -> rumba::Result<()> {
    match cfg.block.to_array() {
        [256, 1, 1] => {
            run_blocks::<Fixed<256, 1, 1>, _>(name, cfg, |blk| reduce_block(blk, x, partial))
        }
        _ => run_blocks::<Dyn, _>(name, cfg, |blk| reduce_block(blk, x, partial)),
    }
}

/// `reduce_shared` with both forms.
pub fn reduce_kernel() -> Kernel<(Arr<f32>, Arr<f32>)> {
    Kernel::<(Arr<f32>, Arr<f32>)>::new("reduce_shared", |t, (x, p)| reduce_thread(t, x, p))
        .with_work_item_loop([ArrayUse::Read, ArrayUse::ReadWrite], reduce_grid)
}
