//! The suite's kernels beyond the first peer workloads (`scripts/peers/workloads.md`): a
//! transpose through a shared tile, a 5-point stencil (10 Jacobi steps), a 256-bin histogram with
//! shared-memory atomics, an exclusive prefix sum (block scans, the scan of the block sums, and
//! the offsets added back), an n-body step with shared tiles and a register-tiled sgemm. Each
//! runner makes its inputs, times the kernel(s) as [`workloads`](super::workloads) does, checks
//! the result against the plain-Rust computation of [`reference`](super::reference) and, when
//! asked, times that computation as peer `rust-reference`, its runs taking turns with rumba's.
//!
//! Where a kernel updates its data in place (the stencil's two buffers, sgemm's C, the
//! histogram's bins), every timed repetition starts from the same state: a device copy or fill
//! before the launches, inside the timed region, as the reference and the PoCL peer do.
//!
//! This module touches the current backend through rumba's public API only.

use rumba::Order;
use rumba::array::Scalar;
use rumba::ndarray::Array2;
use rumba::{DeviceArray, Result};

use super::Run;
use super::kernels::{self as peer, BINS, HIST_CHUNK, NBODY_TILE, SCAN_THREADS, SCAN_TILE};
use super::reference as host;
use super::workloads::{Opts, allclose, random, random_bytes, random_u32, shape_err};

/// Jacobi steps of the `stencil5` workload.
pub const STENCIL_STEPS: usize = 10;
/// The time step of the `nbody` workload.
pub const NBODY_DT: f32 = 0.01;
/// `alpha` and `beta` of the `sgemm` workload.
pub const SGEMM_AB: (f32, f32) = (1.5, 0.5);

/// `b = aᵀ`, `a` a random `n×n` matrix, 32×32-thread blocks.
pub fn transpose(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let a = random(n * n, 21);
    let da = rumba::to_device(&Array2::from_shape_vec((n, n), a.clone()).map_err(shape_err)?)?;
    let db = rumba::device_array::<f32, _>((n, n), Order::C)?;
    let k = o.form.apply(peer::transpose());
    let g = n.div_ceil(peer::TILE) as u32;
    let tile = peer::TILE as u32;
    let mut want = vec![0.0f32; n * n];
    let (s, r) = o.timed(
        &stream,
        || k.configure((g, g), (tile, tile)).launch((&da, &db)),
        || host::transpose(&a, &mut want, n, n),
    )?;
    let got = flat(&db)?;
    Ok(o.runs("transpose", n, s, got == want, r))
}

/// `STENCIL_STEPS` Jacobi steps of the 5-point stencil on a random `n×n` grid, 256×1 blocks,
/// ping-ponging between two device arrays (the grid restored from a copy first).
pub fn stencil5(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let u0 = random(n * n, 22);
    let shape = (n, n);
    let d0 = rumba::to_device(&Array2::from_shape_vec(shape, u0.clone()).map_err(shape_err)?)?;
    let du = rumba::device_array::<f32, _>(shape, Order::C)?;
    let dv = rumba::device_array::<f32, _>(shape, Order::C)?;
    let k = o.form.apply(peer::stencil5());
    let grid = (n.div_ceil(256) as u32, n as u32);
    let last = if STENCIL_STEPS % 2 == 0 { &du } else { &dv };
    let (mut u, mut v) = (u0.clone(), vec![0.0f32; n * n]);
    let (s, r) = o.timed(
        &stream,
        || {
            stream.copy(&du, &d0)?;
            for step in 0..STENCIL_STEPS {
                let (from, to) = if step % 2 == 0 {
                    (&du, &dv)
                } else {
                    (&dv, &du)
                };
                k.configure(grid, 256).launch((from, to))?;
            }
            Ok(())
        },
        || {
            u.copy_from_slice(&u0);
            for _ in 0..STENCIL_STEPS {
                host::stencil5(&u, &mut v, n, n);
                std::mem::swap(&mut u, &mut v);
            }
        },
    )?;
    let got = flat(last)?;
    Ok(o.runs("stencil5", n, s, got == u, r))
}

/// The 256-bin histogram of `n` random bytes, one block of 256 threads per `HIST_CHUNK` bytes
/// (the bins zeroed on the device first).
pub fn histogram(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let data = random_bytes(n, 23);
    let dd = rumba::to_device(&data)?;
    let dbins = rumba::device_array::<u32, _>(BINS, Order::C)?;
    let k = o.form.apply(peer::histogram());
    let blocks = n.div_ceil(HIST_CHUNK).max(1) as u32;
    let mut want = [0u32; BINS];
    let (s, r) = o.timed(
        &stream,
        || {
            dbins.assign_on(Scalar(0u32), &stream)?;
            k.configure(blocks, BINS as u32).launch((&dd, &dbins))
        },
        || host::histogram(&data, &mut want),
    )?;
    let got = dbins.copy_to_host()?.to_vec();
    Ok(o.runs("histogram", n, s, got[..] == want[..], r))
}

/// The exclusive prefix sum of `n` random `u32`s: `scan_blocks` on the data, on its block
/// sums, and so on until one block holds them all; then `scan_add` from the top level down.
pub fn scan(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let x = random_u32(n, 24);
    let dx = rumba::to_device(&x)?;
    // Level l scans `len` elements (the data, then the block sums of level l - 1) into `ys[l]`,
    // leaving its blocks' totals in `sums[l]`.
    let (mut ys, mut sums) = (Vec::new(), Vec::new());
    let mut len = n;
    loop {
        let blocks = len.div_ceil(SCAN_TILE).max(1);
        ys.push(rumba::device_array::<u32, _>(len, Order::C)?);
        sums.push(rumba::device_array::<u32, _>(blocks, Order::C)?);
        if blocks == 1 {
            break;
        }
        len = blocks;
    }
    let (kb, ka) = (
        o.form.apply(peer::scan_blocks()),
        o.form.apply(peer::scan_add()),
    );
    let mut want = vec![0u32; n];
    let (s, r) = o.timed(
        &stream,
        || {
            for l in 0..ys.len() {
                let x = if l == 0 { &dx } else { &sums[l - 1] };
                let blocks = x.size().div_ceil(SCAN_TILE).max(1) as u32;
                kb.configure(blocks, SCAN_THREADS as u32)
                    .launch((x, &ys[l], &sums[l]))?;
            }
            for l in (1..ys.len()).rev() {
                let blocks = ys[l - 1].size().div_ceil(SCAN_THREADS).max(1) as u32;
                ka.configure(blocks, SCAN_THREADS as u32)
                    .launch((&ys[l - 1], &ys[l]))?;
            }
            Ok(())
        },
        || host::exclusive_scan(&x, &mut want),
    )?;
    let got = ys[0].copy_to_host()?.to_vec();
    Ok(o.runs("scan", n, s, got == want, r))
}

/// One n-body step of `n` bodies in the unit cube with random masses and small random
/// velocities, `NBODY_TILE` threads per block.
pub fn nbody(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let mut pos = random(4 * n, 25);
    for m in pos.iter_mut().skip(3).step_by(4) {
        *m = (*m + 0.5) / n as f32;
    }
    let mut vel: Vec<f32> = random(4 * n, 26).iter().map(|v| v - 0.5).collect();
    for w in vel.iter_mut().skip(3).step_by(4) {
        *w = 0.0;
    }
    let as2 = |v: &[f32]| Array2::from_shape_vec((n, 4), v.to_vec()).map_err(shape_err);
    let (dp, dv) = (
        rumba::to_device(&as2(&pos)?)?,
        rumba::to_device(&as2(&vel)?)?,
    );
    let dpo = rumba::device_array::<f32, _>((n, 4), Order::C)?;
    let dvo = rumba::device_array::<f32, _>((n, 4), Order::C)?;
    let k = o.form.apply(peer::nbody());
    let blocks = n.div_ceil(NBODY_TILE) as u32;
    let (mut po, mut vo) = (vec![0.0f32; 4 * n], vec![0.0f32; 4 * n]);
    let (s, r) = o.timed(
        &stream,
        || {
            k.configure(blocks, NBODY_TILE as u32)
                .launch((&dp, &dv, &dpo, &dvo, NBODY_DT))
        },
        || host::nbody(&pos, &vel, &mut po, &mut vo, NBODY_DT),
    )?;
    let ok = allclose(&flat(&dpo)?, &po, 1e-4, 1e-5) && allclose(&flat(&dvo)?, &vo, 1e-4, 1e-5);
    Ok(o.runs("nbody", n, s, ok, r))
}

/// `C = 1.5·A·B + 0.5·C` for random `n×n` matrices, 16×16-thread blocks of 64×64 tiles (C
/// restored from a copy first).
pub fn sgemm(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let (a, b, c0) = (random(n * n, 27), random(n * n, 28), random(n * n, 29));
    let as2 = |v: &[f32]| Array2::from_shape_vec((n, n), v.to_vec()).map_err(shape_err);
    let (da, db, dc0) = (
        rumba::to_device(&as2(&a)?)?,
        rumba::to_device(&as2(&b)?)?,
        rumba::to_device(&as2(&c0)?)?,
    );
    let dc = rumba::device_array::<f32, _>((n, n), Order::C)?;
    let k = o.form.apply(peer::sgemm());
    let g = n.div_ceil(peer::SG_TILE) as u32;
    let t = peer::SG_THREADS as u32;
    let (alpha, beta) = SGEMM_AB;
    let mut want = c0.clone();
    let (s, r) = o.timed(
        &stream,
        || {
            stream.copy(&dc, &dc0)?;
            k.configure((g, g), (t, t))
                .launch((&da, &db, &dc, alpha, beta))
        },
        || {
            want.copy_from_slice(&c0);
            host::gemm(&a, &b, &mut want, n, alpha, beta);
        },
    )?;
    let ok = allclose(&flat(&dc)?, &want, 1e-4, 1e-3);
    Ok(o.runs("sgemm", n, s, ok, r))
}

/// A C-ordered device array's elements, in order.
fn flat<T: rumba::layout::Element, D: rumba::ndarray::Dimension>(
    d: &DeviceArray<T, D>,
) -> Result<Vec<T>> {
    Ok(d.copy_to_host()?.iter().copied().collect())
}
