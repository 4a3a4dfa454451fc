//! `rumba bench --dist` (feature `mpi`, run under `mpirun`): all-reduce and send/recv bandwidth
//! from 4 KiB to 256 MiB through `rumba::dist` on device arrays, next to the same MPI calls on
//! plain host buffers, in one run.
//!
//! All-reduce: every rank reduces `n` bytes of `f32` (sum); bandwidth is NCCL's bus bandwidth,
//! `2 (size - 1) / size · n / time`. Send/recv: ranks pair up (0 with 1, 2 with 3, …), the even
//! rank sends `n` bytes to the odd one; bandwidth is `n / time`. Each figure is the median of
//! `--repeat` timed runs, each started after a barrier; rank 0 prints the table.

use std::time::Instant;

use mpi::collective::SystemOperation;
use mpi::traits::{Communicator as _, CommunicatorCollectives as _, Destination as _, Source as _};
use rumba::dist::{Communicator, ReduceOp};

use super::{Run, fmt_time};

const KIB: usize = 1 << 10;
const MIB: usize = 1 << 20;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn timed(
    host: &mpi::topology::SimpleCommunicator,
    repeat: usize,
    mut f: impl FnMut() -> rumba::Result<()>,
) -> rumba::Result<f64> {
    f()?; // warm-up: staging slots, MPI connections
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        host.barrier();
        let t = Instant::now();
        f()?;
        times.push(t.elapsed().as_secs_f64());
    }
    // Every rank reports the slowest rank's time.
    let mine = median(times);
    let mut worst = 0.0f64;
    host.all_reduce_into(&mine, &mut worst, SystemOperation::max());
    Ok(worst)
}

fn all_reduce_pair(
    world: &Communicator,
    host: &mpi::topology::SimpleCommunicator,
    bytes: usize,
    repeat: usize,
) -> rumba::Result<(f64, f64, bool)> {
    let len = bytes / 4;
    let size = world.size() as f32;
    let d = rumba::to_device(&vec![1.0f32; len][..])?;
    let s = rumba::stream()?;
    let rumba_t = timed(host, repeat, || {
        world.on(&s).all_reduce(&d, ReduceOp::Sum)?;
        s.synchronize()
    })?;
    // The last result: 1 summed (repeat + 1) times over the ranks, exact in f32 here.
    let want = size.powi(repeat as i32 + 1);
    let ok = d.copy_to_host()?.iter().all(|&x| x == want);
    let send = vec![1.0f32; len];
    let mut recv = vec![0.0f32; len];
    let mpi_t = timed(host, repeat, || {
        host.all_reduce_into(&send[..], &mut recv[..], SystemOperation::sum());
        Ok(())
    })?;
    Ok((rumba_t, mpi_t, ok && recv.iter().all(|&x| x == size)))
}

fn send_recv_pair(
    world: &Communicator,
    host: &mpi::topology::SimpleCommunicator,
    bytes: usize,
    repeat: usize,
) -> rumba::Result<(f64, f64, bool)> {
    let r = world.rank();
    let peer = r ^ 1;
    let active = peer < world.size();
    let d = rumba::to_device(&vec![r as u8; bytes][..])?;
    let rumba_t = timed(host, repeat, || {
        if !active {
            Ok(())
        } else if r % 2 == 0 {
            world.send(&d, peer, 0)
        } else {
            world.recv(&d, peer, 0)
        }
    })?;
    let ok = !active || r % 2 == 0 || d.copy_to_host()?.iter().all(|&x| x as usize == peer);
    let mut buf = vec![r as u8; bytes];
    let mpi_t = timed(host, repeat, || {
        if active {
            let p = host.process_at_rank(peer as i32);
            if r % 2 == 0 {
                p.send(&buf[..]);
            } else {
                p.receive_into(&mut buf[..]);
            }
        }
        Ok(())
    })?;
    Ok((rumba_t, mpi_t, ok))
}

/// Runs the distributed benchmark; rank 0 returns the runs (times per workload and size) and
/// prints the table. Every rank also gets the first rank whose result was wrong, if any.
pub fn run(repeat: usize, quick: bool) -> rumba::Result<(Vec<Run>, Option<usize>)> {
    let universe = rumba::dist::init()?;
    let world = universe.world()?;
    let host = mpi::topology::SimpleCommunicator::world();
    let sizes: Vec<usize> = if quick {
        vec![4 * KIB, 64 * KIB, MIB]
    } else {
        vec![4 * KIB, 64 * KIB, MIB, 16 * MIB, 64 * MIB, 256 * MIB]
    };
    let root = world.rank() == 0;
    let n = world.size() as f64;
    if root {
        eprintln!(
            "rumba bench --dist: {} ranks, backend {:?}, {:?} transport, median of {repeat}",
            world.size(),
            universe.backend()?,
            world.transport()
        );
        println!(
            "{:<10} {:>9} | {:>10} {:>10} | {:>11} {:>11} | {:>6}",
            "workload", "bytes", "rumba", "MPI host", "rumba GB/s", "MPI GB/s", "ratio"
        );
    }
    let mut runs = Vec::new();
    let mut wrong: Option<usize> = None;
    for (workload, factor) in [("allreduce", 2.0 * (n - 1.0) / n), ("sendrecv", 1.0)] {
        for &bytes in &sizes {
            let (rt, mt, ok) = if workload == "allreduce" {
                all_reduce_pair(&world, &host, bytes, repeat)?
            } else {
                send_recv_pair(&world, &host, bytes, repeat)?
            };
            let mut oks = vec![0u8; world.size()];
            host.all_gather_into(&u8::from(ok), &mut oks[..]);
            let first_wrong = oks.iter().position(|&b| b != 1);
            let ok = first_wrong.is_none();
            wrong = wrong.or(first_wrong);
            let bw = |t: f64| factor * bytes as f64 / t / 1e9;
            if root {
                println!(
                    "{workload:<10} {bytes:>9} | {:>10} {:>10} | {:>11.3} {:>11.3} | {:>6.2}{}",
                    fmt_time(rt),
                    fmt_time(mt),
                    bw(rt),
                    bw(mt),
                    mt / rt,
                    if ok { "" } else { " WRONG" }
                );
            }
            for (peer, t) in [("rumba-dist", rt), ("mpi-host", mt)] {
                runs.push(Run {
                    peer: peer.into(),
                    workload: workload.into(),
                    n: bytes,
                    seconds: t,
                    check: ok,
                });
            }
        }
    }
    if root && !quick {
        println!("\ngoals (bandwidth ratio rumba / MPI on host buffers, 64 MiB):");
        for (w, goal) in [("allreduce", 0.7), ("sendrecv", 0.8)] {
            let get = |p: &str| {
                runs.iter()
                    .find(|r| r.peer == p && r.workload == w && r.n == 64 * MIB)
            };
            if let (Some(r), Some(m)) = (get("rumba-dist"), get("mpi-host")) {
                let x = m.seconds / r.seconds;
                println!(
                    "  {w:<10} {x:.2} vs >= {goal}: {}",
                    if x >= goal { "met" } else { "MISSED" }
                );
            }
        }
    }
    if !root {
        runs.clear();
    }
    Ok((runs, wrong))
}
