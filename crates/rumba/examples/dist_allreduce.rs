//! Data-parallel gradient averaging: every rank holds its own gradient, an all-reduce sums them
//! on every rank and a kernel divides by the number of ranks, all ordered on one stream; every
//! rank checks that it holds the same average, then rank 0 prints the bus bandwidth (NCCL's
//! convention: the bytes each rank moves in a ring all-reduce, `2 (n - 1) / n` times the array,
//! per second).
//!
//! ```sh
//! cargo build --release -p rumba --features mpi --example dist_allreduce
//! mpirun -n 4 target/release/examples/dist_allreduce 64MiB 5
//! ```
//!
//! Arguments: bytes of `f32` gradient per rank (default 64MiB) and iterations (default 5).

use std::time::Instant;

use rumba::dist::ReduceOp;
use rumba::kernel::prelude::*;

#[kernel]
fn scale(t: &Thread, x: &mut Arr<f32>, k: f32) {
    let i = t.grid1();
    if i < x.len() {
        x[i] *= k;
    }
}

/// Rank `r`'s gradient: small integers, so every sum is exact whatever order MPI adds in.
fn gradient(r: usize, len: usize) -> Vec<f32> {
    (0..len).map(|i| ((i * 7 + r * 3) % 11) as f32).collect()
}

fn main() -> rumba::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes = args
        .first()
        .map(|a| rumba::config::parse_size(a).expect("a size such as 64MiB"))
        .unwrap_or(64 << 20);
    let iters: usize = args.get(1).map_or(5, |a| a.parse().expect("a count"));
    let len = bytes / 4;

    let universe = rumba::dist::init()?;
    let world = universe.world()?;
    let (rank, size) = (world.rank(), world.size());
    let stream = rumba::stream()?;
    let mine = gradient(rank, len);
    let grad = rumba::to_device(&mine[..])?;

    // The expected average, computed on the host from every rank's gradient.
    let mut want = vec![0.0f32; len];
    for r in 0..size {
        for (w, g) in want.iter_mut().zip(gradient(r, len)) {
            *w += g;
        }
    }
    let k = 1.0 / size as f32;
    want.iter_mut().for_each(|w| *w *= k);

    let mut best = f64::INFINITY;
    for _ in 0..iters {
        grad.assign_on(&rumba::to_device(&mine[..])?, &stream)?;
        stream.synchronize()?;
        world.barrier()?;
        let t = Instant::now();
        world.on(&stream).all_reduce(&grad, ReduceOp::Sum)?;
        scale()
            .configure(len.div_ceil(256) as u32, 256)
            .stream(&stream)
            .launch((&grad, k))?;
        stream.synchronize()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    let got = grad.copy_to_host()?;
    let wrong = got.iter().zip(&want).filter(|(a, b)| a != b).count();
    let a = rumba::to_device(&[wrong as u64][..])?;
    world.all_reduce(&a, ReduceOp::Sum)?;
    let wrong_anywhere = a.copy_to_host()?[0];
    if rank == 0 {
        let alg = bytes as f64 / best / 1e9;
        let bus = alg * 2.0 * (size as f64 - 1.0) / size as f64;
        println!(
            "dist_allreduce: {size} rank(s), {:.2} MiB of f32 per rank, best of {iters}: {:.3} ms, algbw {alg:.2} GB/s, busbw {bus:.2} GB/s ({:?}, {:?} transport)",
            bytes as f64 / f64::from(1 << 20),
            best * 1e3,
            universe.backend()?,
            world.transport(),
        );
        if wrong_anywhere == 0 {
            println!("every rank holds the same average: ok");
        } else {
            println!("{wrong_anywhere} element(s) differ from the average: FAILED");
        }
    }
    drop(world);
    drop(universe);
    std::process::exit(i32::from(wrong_anywhere != 0));
}
