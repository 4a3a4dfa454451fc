//! The peer workloads (`scripts/peers/workloads.md`) as rumba kernels, with the peers' sizes and
//! result checks: `vadd`, `matmul_shared` (16×16 tiles, two `syncthreads` per tile) and
//! `reduce_shared` (256-thread tree with one `syncthreads` per level), `reduce_warp` (the same
//! partial sums through warp shuffles: ten `shfl_down_sync` and one `syncthreads`), the 64 MiB `h2d` / `d2h`
//! copies from pageable memory and `h2d_pinned` / `d2h_pinned` from pinned memory, and `launch`:
//! the time per launch of an empty kernel, 1,000 launches queued back to back then synchronized.
//! The kernels are the `#[rumba::kernel]`s of [`kernels`](super::kernels); on the simulator each
//! runs in the form it picks (the generated block body, on the work-item-loop engine) and, as
//! extra `-coroutines` rows, its generated per-thread body on coroutines.
//!
//! Each runner puts its data on the device first, launches once to warm up, then times
//! `launch + synchronize` `repeat` times and reports the median, as the peer scripts do. The
//! plain-Rust reference, when it is timed, runs between rumba's runs, one of each in turn
//! ([`Opts::timed`]).
//!
//! This module touches the current backend through rumba's public API only (no files, no
//! processes).

use std::time::{Duration, Instant};

use rumba::Order;
use rumba::driver::HostEngine;
use rumba::kernel::{Arr, Kernel};
use rumba::{Result, Stream};

use super::Run;
use super::kernels::{self as peer, TPB};
use super::reference;

/// Uniform pseudo-random `f32`s in `[0, 1)` (xorshift64*), the same on every run.
pub fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            ((s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32) / (1u64 << 24) as f32
        })
        .collect()
}

/// Pseudo-random bytes (xorshift64*), the same on every run.
pub fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

/// Pseudo-random `u32`s (xorshift64*), the same on every run: large values, so that a prefix
/// sum wraps many times.
pub fn random_u32(n: usize, seed: u64) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        })
        .collect()
}

/// numpy's `allclose`: `|a - b| <= atol + rtol * |b|` everywhere.
pub fn allclose(a: &[f32], b: &[f32], rtol: f64, atol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(&x, &y)| ((x as f64) - (y as f64)).abs() <= atol + rtol * (y as f64).abs())
}

/// Median wall time of `launch` followed by synchronizing `stream`, after one warm-up.
pub(super) fn timed(
    stream: &Stream,
    repeat: usize,
    launch: impl FnMut() -> Result<()>,
) -> Result<f64> {
    Ok(timed_over(stream, repeat, Duration::ZERO, launch, None)?.0)
}

/// [`timed`] for at least `span` of timed runs (more than `repeat` when they are short, at most
/// [`MAX_RUNS`]) and, with a `reference`, that computation timed after each run of `launch`
/// (after the warm-up too): both medians.
fn timed_over(
    stream: &Stream,
    repeat: usize,
    span: Duration,
    mut launch: impl FnMut() -> Result<()>,
    mut reference: Option<&mut dyn FnMut()>,
) -> Result<(f64, Option<f64>)> {
    let mut run = || -> Result<f64> {
        let t = Instant::now();
        launch()?;
        stream.synchronize()?;
        Ok(t.elapsed().as_secs_f64())
    };
    run()?;
    if let Some(r) = reference.as_mut() {
        r();
    }
    let (mut ours, mut theirs) = (Vec::with_capacity(repeat), Vec::new());
    let start = Instant::now();
    while ours.len() < repeat.max(1) || (start.elapsed() < span && ours.len() < MAX_RUNS) {
        ours.push(run()?);
        if let Some(r) = reference.as_mut() {
            let t = Instant::now();
            r();
            theirs.push(t.elapsed().as_secs_f64());
        }
    }
    let theirs = reference.is_some().then(|| median(theirs));
    Ok((median(ours), theirs))
}

/// The most timed runs of a workload that [`Opts::span`] asks for.
const MAX_RUNS: usize = 100_000;

/// The median of `times`.
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The peer name of the plain-Rust computations ([`reference`](super::reference)).
pub const REFERENCE: &str = "rust-reference";

/// How a workload runs: repetitions, the kernels' form, and whether the plain-Rust reference is
/// timed too (it always runs once: it is what the kernel's result is checked against).
#[derive(Debug, Clone, Copy)]
pub struct Opts {
    /// Timed repetitions (the median is reported).
    pub repeat: usize,
    /// The kernels' form on the simulator.
    pub form: Form,
    /// Also report the reference's time, as peer [`REFERENCE`].
    pub reference: bool,
    /// The least wall time the timed runs take together: short runs are repeated more than
    /// `repeat` times. Five runs of a few hundred microseconds are a few milliseconds of the
    /// machine: from one suite run to the next, one slow spell moved n-body's time at 300 bodies
    /// from 157 to 295 µs and vadd's ratio to the reference from 1.15 to 1.36.
    pub span: Duration,
}

impl Opts {
    /// Times `launch` (each run followed by synchronizing `stream`) as [`timed`] does, for at
    /// least [`span`](Self::span), and, when the reference is timed, the reference computation
    /// `reference` with it, one run of each in turn, so that a slow spell of the machine falls on
    /// both alike: their median times. A reference that is not timed runs once (rumba's result
    /// is checked against what it leaves).
    ///
    /// Timed one after the other (all of rumba's runs, then all of the reference's), a spell
    /// that caught one side only decided the ratio: over three suite runs the stencil's
    /// reference took 51 to 81 ms and rumba's kernels 73 to 86 ms, and their ratio went from
    /// 1.18 to 1.44.
    ///
    /// # Errors
    /// A failure of a launch or of synchronizing.
    pub(super) fn timed(
        &self,
        stream: &Stream,
        launch: impl FnMut() -> Result<()>,
        mut reference: impl FnMut(),
    ) -> Result<(f64, Option<f64>)> {
        if self.reference {
            return timed_over(stream, self.repeat, self.span, launch, Some(&mut reference));
        }
        let (s, _) = timed_over(stream, self.repeat, self.span, launch, None)?;
        reference();
        Ok((s, None))
    }

    /// The runs of one workload: rumba's (named with the form's suffix) and, when it was
    /// timed, the reference's, which checks as rumba's result agreed with it.
    pub(super) fn runs(
        &self,
        workload: &str,
        n: usize,
        seconds: f64,
        check: bool,
        reference: Option<f64>,
    ) -> Vec<Run> {
        let mut out = vec![run(
            &format!("{workload}{}", self.form.suffix()),
            n,
            seconds,
            check,
        )];
        if let Some(s) = reference {
            out.push(Run {
                peer: REFERENCE.into(),
                workload: workload.into(),
                n,
                seconds: s,
                check,
            });
        }
        out
    }
}

/// `rumba-sim` or `rumba-cuda`: the name this run reports as its peer.
fn peer_name() -> String {
    rumba::backend_driver()
        .map(|d| format!("rumba-{}", d.backend()))
        .unwrap_or_else(|_| "rumba-sim".into())
}

fn run(workload: &str, n: usize, seconds: f64, check: bool) -> Run {
    Run {
        peer: peer_name(),
        workload: workload.to_owned(),
        n,
        seconds,
        check,
    }
}

/// Which of a kernel's Rust forms the simulator runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The generated block body, on the work-item-loop engine (the default for these kernels).
    BlockBody,
    /// The generated per-thread body, on coroutines (the extra rows).
    PerThread,
}

impl Form {
    /// The suffix of this form's workload names: none for block bodies, `-coroutines` else.
    pub fn suffix(self) -> &'static str {
        match self {
            Form::BlockBody => "",
            Form::PerThread => "-coroutines",
        }
    }

    pub(super) fn apply<P: rumba::kernel::Params>(self, k: Kernel<P>) -> Kernel<P> {
        match self {
            Form::BlockBody => k,
            Form::PerThread => k.with_engine(HostEngine::Coroutines),
        }
    }
}

/// `c[i] = a[i] + b[i]`, 256 threads per block.
pub fn vadd_kernel() -> Kernel<(Arr<f32>, Arr<f32>, Arr<f32>)> {
    peer::vadd()
}

/// C = A·B through two 16×16 shared tiles, two barriers per tile (the peers' kernel).
pub fn matmul_kernel() -> Kernel<(Arr<f32>, Arr<f32>, Arr<f32>)> {
    peer::matmul_shared()
}

/// One partial sum per block of 256 through a shared-memory tree.
pub fn reduce_kernel() -> Kernel<(Arr<f32>, Arr<f32>)> {
    peer::reduce_shared()
}

/// One partial sum per block of 256 through warp shuffles.
pub fn reduce_warp_kernel() -> Kernel<(Arr<f32>, Arr<f32>)> {
    peer::reduce_warp()
}

/// `c = a + b` on `n` random numbers, 256 threads per block.
pub fn vadd(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let (a, b) = (random(n, 1), random(n, 2));
    let (da, db) = (rumba::to_device(&a)?, rumba::to_device(&b)?);
    let dc = rumba::device_array::<f32, _>(n, Order::C)?;
    let k = o.form.apply(vadd_kernel());
    let blocks = n.div_ceil(256) as u32;
    let mut want = vec![0.0f32; n];
    let (s, r) = o.timed(
        &stream,
        || k.configure(blocks, 256).launch((&da, &db, &dc)),
        || reference::vadd(&a, &b, &mut want),
    )?;
    let c = dc.copy_to_host()?;
    Ok(o.runs("vadd", n, s, c.as_slice() == Some(&want[..]), r))
}

/// `C = A·B` for random `n×n` matrices through 16×16 shared tiles.
pub fn matmul(n: usize, o: &Opts) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let (a, b) = (random(n * n, 3), random(n * n, 4));
    let as2 =
        |v: &[f32]| rumba::ndarray::Array2::from_shape_vec((n, n), v.to_vec()).map_err(shape_err);
    let (da, db) = (rumba::to_device(&as2(&a)?)?, rumba::to_device(&as2(&b)?)?);
    let dc = rumba::device_array::<f32, _>((n, n), Order::C)?;
    let k = o.form.apply(matmul_kernel());
    let g = n.div_ceil(TPB) as u32;
    let mut want = vec![0.0f32; n * n];
    let (s, r) = o.timed(
        &stream,
        || {
            k.configure((g, g), (TPB as u32, TPB as u32))
                .launch((&da, &db, &dc))
        },
        || reference::matmul(&a, &b, &mut want, n),
    )?;
    let c = dc.copy_to_host()?;
    let ok = allclose(c.as_slice().unwrap_or(&[]), &want, 1e-3, 1e-3);
    Ok(o.runs("matmul_shared", n, s, ok, r))
}

/// The partial sums of `n` random numbers, one per block of 256, through a shared-memory tree.
pub fn reduce(n: usize, o: &Opts) -> Result<Vec<Run>> {
    partial_sums("reduce_shared", reduce_kernel(), n, o)
}

/// The partial sums of `n` random numbers, one per block of 256, through warp shuffles.
pub fn reduce_warp(n: usize, o: &Opts) -> Result<Vec<Run>> {
    partial_sums("reduce_warp", reduce_warp_kernel(), n, o)
}

/// Runs `kernel`, which leaves one partial sum per block of 256, on `n` random numbers.
fn partial_sums(
    name: &str,
    kernel: Kernel<(Arr<f32>, Arr<f32>)>,
    n: usize,
    o: &Opts,
) -> Result<Vec<Run>> {
    let stream = rumba::legacy_default_stream()?;
    let x = random(n, 5);
    let blocks = n.div_ceil(256);
    let dx = rumba::to_device(&x)?;
    let dp = rumba::device_array::<f32, _>(blocks, Order::C)?;
    let k = o.form.apply(kernel);
    let mut want = vec![0.0f32; blocks];
    let (s, r) = o.timed(
        &stream,
        || k.configure(blocks as u32, 256).launch((&dx, &dp)),
        || reference::block_sums(&x, 256, &mut want),
    )?;
    let p = dp.copy_to_host()?;
    let ok = allclose(p.as_slice().unwrap_or(&[]), &want, 1e-4, 1e-6);
    Ok(o.runs(name, n, s, ok, r))
}

/// An empty kernel: what a launch costs by itself.
pub fn empty_kernel() -> Kernel<()> {
    peer::empty()
}

/// Launches queued per timed repetition of the `launch` workload.
pub const LAUNCHES: usize = 1000;

/// Seconds per launch of an empty kernel (one block of one thread) on the legacy default stream:
/// the median over `repeat` runs of 1,000 launches followed by one synchronize.
pub fn launch(repeat: usize) -> Result<Run> {
    let stream = rumba::legacy_default_stream()?;
    let k = empty_kernel();
    let s = timed(&stream, repeat, || {
        for _ in 0..LAUNCHES {
            k.configure(1, 1).launch(())?;
        }
        Ok(())
    })?;
    Ok(run("launch", LAUNCHES, s / LAUNCHES as f64, true))
}

/// 64 MiB host → device and device → host between pinned memory and the device, each copy
/// queued on a stream and synchronized.
pub fn pinned_copies(repeat: usize) -> Result<Vec<Run>> {
    let n = 64 << 20;
    let ctx = rumba::current_context()?;
    let mut pinned = ctx.memhostalloc(n, Default::default())?;
    for (i, b) in pinned.iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    let want: Vec<u8> = pinned.to_vec();
    let buf = ctx.memalloc(n)?;
    let stream = rumba::stream()?;
    let h2d = timed(&stream, repeat, || {
        stream.auto_synchronize(|scope| scope.copy(&buf, &pinned[..]))
    })?;
    pinned.fill(0);
    let d2h = timed(&stream, repeat, || {
        stream.auto_synchronize(|scope| scope.copy(&mut pinned[..], &buf))
    })?;
    Ok(vec![
        run("h2d_pinned", n, h2d, true),
        run("d2h_pinned", n, d2h, pinned[..] == want[..]),
    ])
}

/// 64 MiB host → device and device → host from pageable memory.
pub fn copies(repeat: usize) -> Result<Vec<Run>> {
    let n = 64 << 20;
    let host: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
    let mut back = vec![0u8; n];
    let buf = rumba::current_context()?.memalloc(n)?;
    let stream = rumba::legacy_default_stream()?;
    let h2d = timed(&stream, repeat, || rumba::copy(&buf, &host))?;
    let d2h = timed(&stream, repeat, || rumba::copy(&mut back, &buf))?;
    Ok(vec![
        run("h2d", n, h2d, true),
        run("d2h", n, d2h, back == host),
    ])
}

pub(super) fn shape_err(e: rumba::ndarray::ShapeError) -> rumba::Error {
    rumba::Error::InvalidArgument(e.to_string())
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    #[test]
    fn the_timed_reference_takes_turns_with_rumbas_runs() {
        let stream = rumba::legacy_default_stream().unwrap();
        let order = RefCell::new(String::new());
        // A warm-up of each, then one of each per repetition; untimed, the reference runs once
        // after rumba's runs.
        for (reference, want) in [(true, "KRKRKRKR"), (false, "KKKKR")] {
            order.borrow_mut().clear();
            let o = Opts {
                repeat: 3,
                form: Form::BlockBody,
                reference,
                span: Duration::ZERO,
            };
            let (s, r) = o
                .timed(
                    &stream,
                    || {
                        order.borrow_mut().push('K');
                        Ok(())
                    },
                    || order.borrow_mut().push('R'),
                )
                .unwrap();
            assert_eq!(*order.borrow(), want);
            assert!(s >= 0.0);
            assert_eq!(r.is_some(), reference);
        }
    }

    #[test]
    fn short_runs_are_repeated_until_they_fill_the_span() {
        let stream = rumba::legacy_default_stream().unwrap();
        let span = Duration::from_millis(30);
        for reference in [false, true] {
            let runs = RefCell::new(0);
            let o = Opts {
                repeat: 3,
                form: Form::BlockBody,
                reference,
                span,
            };
            let start = Instant::now();
            o.timed(
                &stream,
                || {
                    *runs.borrow_mut() += 1;
                    std::thread::sleep(Duration::from_millis(1));
                    Ok(())
                },
                || {},
            )
            .unwrap();
            // More runs than the warm-up and `repeat`, for at least the span.
            let runs = runs.into_inner();
            assert!(runs > 4, "{runs} runs");
            assert!(start.elapsed() >= span);
        }
    }
}
