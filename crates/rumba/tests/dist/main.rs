//! The distributed suite: run it under `mpirun -n 2` or `-n 4` (its own runner; every rank runs
//! every case in the same order, and rank 0 prints each case's outcome over all ranks and a
//! closing `N passed, N failed` line).
//!
//! ```sh
//! cargo test -p rumba --features mpi --test dist --no-run   # prints the executable's path
//! mpirun -n 4 --oversubscribe target/debug/deps/dist-…      # the suite
//! cargo test -p rumba --features mpi --test dist -- --faults  # the timeout cases, each in a child mpirun
//! ```
//!
//! Arguments: a word filters the cases by name; `--faults` runs the fault cases that need a
//! time limit, each in a child `mpirun -n 2` (the parent itself is not under `mpirun`).

mod cases;
mod collectives;
mod faults;
#[cfg(feature = "nccl")]
mod nccl;
mod p2p;

use std::time::Instant;

use mpi::traits::CommunicatorCollectives as _;
use rumba::dist::Communicator;

/// A case: `Err` carries what this rank saw go wrong.
pub type Case = (String, Box<dyn Fn(&Communicator) -> Result<(), String>>);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--faults") {
        std::process::exit(faults::parent(&args));
    }
    if let Some(i) = args.iter().position(|a| a == "--fault-child") {
        std::process::exit(faults::child(args.get(i + 1).map_or("", String::as_str)));
    }
    // Small chunks, so that arrays of a few hundred kilobytes cross many of them.
    if std::env::var_os("RUMBA_DIST_CHUNK").is_none() {
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("RUMBA_DIST_CHUNK", "64KiB") };
    }
    let filter: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let universe = rumba::dist::init().expect("MPI starts");
    let world = universe.world().expect("the world communicator");
    let host_world = mpi::topology::SimpleCommunicator::world();
    let mut cases: Vec<Case> = Vec::new();
    p2p::cases(&mut cases);
    collectives::cases(&mut cases);
    faults::in_process(&mut cases);
    #[cfg(feature = "nccl")]
    nccl::cases(&mut cases);
    let (mut passed, mut failed) = (0usize, 0usize);
    let rank = world.rank();
    if rank == 0 {
        println!(
            "rumba dist suite: {} ranks, backend {:?}, {} cases",
            world.size(),
            universe.backend().unwrap(),
            cases.len()
        );
    }
    let start = Instant::now();
    for (name, case) in &cases {
        let t0 = Instant::now();
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| case(&world)))
            .unwrap_or_else(|p| {
                Err(p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panicked".into()))
            });
        // Every rank's verdict, gathered on the host (the suite must not rely on what it tests).
        let mine = u8::from(outcome.is_ok()) | u8::from(world.poisoned().is_some()) << 1;
        let mut all = vec![0u8; world.size()];
        host_world.all_gather_into(&mine, &mut all[..]);
        if all.iter().all(|&b| b & 1 == 1) {
            passed += 1;
            if rank == 0 {
                println!("test {name} ... ok ({} ms)", t0.elapsed().as_millis());
            }
        } else {
            failed += 1;
            if rank == 0 {
                println!("test {name} ... FAILED");
            }
        }
        if let Err(e) = &outcome {
            eprintln!("  rank {rank}: {name}: {e}");
        }
        if all.iter().any(|&b| b & 2 != 0) {
            eprintln!(
                "rank {rank}: a communicator is poisoned ({:?}); stopping",
                world.poisoned()
            );
            break;
        }
    }
    host_world.barrier();
    if rank == 0 {
        println!("suite time: {:.1} s", start.elapsed().as_secs_f64());
        println!("{passed} passed, {failed} failed");
    }
    drop(world);
    drop(universe);
    std::process::exit(i32::from(failed > 0));
}
