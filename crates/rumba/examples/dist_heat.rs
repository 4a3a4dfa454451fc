//! A 2-D heat-diffusion stencil split in row bands across MPI ranks: every step each rank
//! exchanges its edge rows with its neighbours (`sendrecv` ordered on a stream, no host wait in
//! between) and updates its band with a `#[rumba::kernel]`. The final grid is gathered on rank
//! 0, which prints a checksum of its bits: the same for any number of ranks.
//!
//! ```sh
//! cargo build --release -p rumba --features mpi --example dist_heat
//! mpirun -n 4 target/release/examples/dist_heat            # 4096 x 4096, 20 steps
//! mpirun -n 4 target/release/examples/dist_heat --check 512 50
//! target/release/examples/dist_heat 4096 20                # one rank: the same checksum
//! ```
//!
//! Arguments: grid size N (divisible by the number of ranks), steps, and `--check`, with which
//! rank 0 also runs the whole grid alone and compares the two bit for bit (exit status 1 if they
//! differ).

use std::time::Instant;

use ndarray::{Array2, s};
use rumba::DeviceArray;
use rumba::dist::Communicator;
use rumba::kernel::prelude::*;

const ALPHA: f32 = 0.2;
const BLOCK: (u32, u32) = (16, 16);

/// One explicit Euler step on the owned rows (local rows 1..rows-1) of a band whose local row 0
/// is global row `row0`; the grid's outer rows and columns stay fixed.
#[kernel]
fn heat_step(t: &Thread, u: &Arr<f32>, v: &mut Arr<f32>, row0: i64, n: i64, alpha: f32) {
    let (j, i) = t.grid2();
    let rows = u.shape()[0];
    let cols = u.shape()[1];
    if i >= 1 && i + 1 < rows && j < cols {
        let g = row0 + i as i64;
        if g == 0 || g == n - 1 || j == 0 || j + 1 == cols {
            v[(i, j)] = u[(i, j)];
        } else {
            let c = u[(i, j)];
            let lap = u[(i - 1, j)] + u[(i + 1, j)] + u[(i, j - 1)] + u[(i, j + 1)] - 4.0 * c;
            v[(i, j)] = c + alpha * lap;
        }
    }
}

fn initial(n: usize) -> Array2<f32> {
    Array2::from_shape_fn((n, n), |(i, j)| ((i * 31 + j * 17) % 97) as f32 / 97.0)
}

/// Runs `steps` steps on the band of global rows `[lo, hi)`, with neighbours `up` / `down`;
/// returns the owned rows.
fn run_band(
    comm: Option<&Communicator>,
    grid: &Array2<f32>,
    lo: usize,
    hi: usize,
    steps: usize,
) -> rumba::Result<DeviceArray<f32, ndarray::Ix2>> {
    let n = grid.ncols();
    let rows = hi - lo + 2;
    // Local row k is global row lo - 1 + k; rows outside the grid stay zero (never read).
    let mut host = Array2::<f32>::zeros((rows, n));
    let first = lo.saturating_sub(1);
    let last = (hi + 1).min(grid.nrows());
    host.slice_mut(s![first + 1 - lo..last + 1 - lo, ..])
        .assign(&grid.slice(s![first..last, ..]));
    let stream = rumba::stream()?;
    let mut u = rumba::to_device(&host)?;
    let mut v = rumba::to_device(&host)?;
    let (up, down) = match comm {
        Some(c) => (
            (c.rank() > 0).then(|| c.rank() - 1),
            (c.rank() + 1 < c.size()).then(|| c.rank() + 1),
        ),
        None => (None, None),
    };
    let grid_dim = (
        n.div_ceil(BLOCK.0 as usize) as u32,
        rows.div_ceil(BLOCK.1 as usize) as u32,
    );
    for _ in 0..steps {
        if let Some(c) = comm {
            let on = c.on(&stream);
            let first_owned = u.slice(s![1, ..])?;
            let last_owned = u.slice(s![rows - 2, ..])?;
            let top_halo = u.slice(s![0, ..])?;
            let bottom_halo = u.slice(s![rows - 1, ..])?;
            // Upwards: my first row to `up`, `down`'s first row into my bottom halo.
            match (up, down) {
                (Some(a), Some(b)) => on.sendrecv(&first_owned, a, &bottom_halo, b, 1)?,
                (Some(a), None) => on.send(&first_owned, a, 1)?,
                (None, Some(b)) => on.recv(&bottom_halo, b, 1)?,
                (None, None) => {}
            }
            // Downwards: my last row to `down`, `up`'s last row into my top halo.
            match (down, up) {
                (Some(b), Some(a)) => on.sendrecv(&last_owned, b, &top_halo, a, 2)?,
                (Some(b), None) => on.send(&last_owned, b, 2)?,
                (None, Some(a)) => on.recv(&top_halo, a, 2)?,
                (None, None) => {}
            }
        }
        heat_step()
            .configure(grid_dim, BLOCK)
            .stream(&stream)
            .launch((&u, &v, lo as i64 - 1, n as i64, ALPHA))?;
        std::mem::swap(&mut u, &mut v);
    }
    stream.synchronize()?;
    let owned = u.slice(s![1..rows - 1, ..])?;
    let out = rumba::device_array::<f32, _>((hi - lo, n), rumba::Order::C)?;
    rumba::copy(&out, &owned)?;
    Ok(out)
}

fn checksum(a: &Array2<f32>) -> u64 {
    // FNV-1a over the bits, row by row.
    a.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| {
        (h ^ x.to_bits() as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() -> rumba::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let nums: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let n = nums.first().copied().unwrap_or(4096);
    let steps = nums.get(1).copied().unwrap_or(20);

    let universe = rumba::dist::init()?;
    let world = universe.world()?;
    let (rank, size) = (world.rank(), world.size());
    if n % size != 0 || n < 3 {
        if rank == 0 {
            eprintln!("the grid size {n} must be at least 3 and divisible by {size} ranks");
        }
        std::process::exit(2);
    }
    let grid = initial(n);
    let band = n / size;
    let (lo, hi) = (rank * band, (rank + 1) * band);
    world.barrier()?;
    let start = Instant::now();
    let mine = run_band(Some(&world), &grid, lo, hi, steps)?;
    world.barrier()?;
    let elapsed = start.elapsed();
    let whole = rumba::device_array::<f32, _>((n, n), rumba::Order::C)?;
    world.gather(&mine, (rank == 0).then_some(&whole), 0)?;
    if rank == 0 {
        let result = whole.copy_to_host()?;
        println!(
            "dist_heat: {n} x {n}, {steps} steps on {size} rank(s) ({:?}): {:.3} s, checksum {:#018x}",
            universe.backend()?,
            elapsed.as_secs_f64(),
            checksum(&result)
        );
        if check {
            let t = Instant::now();
            let alone = run_band(None, &grid, 0, n, steps)?.copy_to_host()?;
            let same = alone
                .iter()
                .zip(result.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits());
            println!(
                "one rank alone: {:.3} s, checksum {:#018x}: {}",
                t.elapsed().as_secs_f64(),
                checksum(&alone),
                if same {
                    "the same grid, bit for bit"
                } else {
                    "DIFFERENT"
                }
            );
            if !same {
                std::process::exit(1);
            }
        }
    }
    Ok(())
}
