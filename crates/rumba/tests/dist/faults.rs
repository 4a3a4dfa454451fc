//! Bad input on every operation ends in the same typed error on every rank taking part, and the
//! communicator stays usable; a rank that stops calling ends in the timeout (child `mpirun`s).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::Case;
use rumba::Error;
use rumba::dist::{Communicator, ReduceOp};

/// `Ok` when `r` is an `Error::Dist` whose reason contains `needle` (on this rank).
fn dist_err(r: rumba::Result<()>, needle: &str) -> Result<(), String> {
    match r {
        Err(Error::Dist { reason, .. }) if reason.contains(needle) => Ok(()),
        Err(other) => Err(format!(
            "wanted a Dist error containing {needle:?}, got {other}"
        )),
        Ok(()) => Err(format!("wanted a Dist error containing {needle:?}, got Ok")),
    }
}

/// The communicator still works: a sum over every rank.
fn still_works(c: &Communicator) -> Result<(), String> {
    let a = rumba::to_device(&[1u32][..]).unwrap();
    c.all_reduce(&a, ReduceOp::Sum).map_err(|e| e.to_string())?;
    let got = a.copy_to_host().unwrap()[0];
    if got as usize != c.size() {
        return Err(format!("after the error, a sum gave {got}"));
    }
    Ok(())
}

fn case(cases: &mut Vec<Case>, name: &str, f: fn(&Communicator) -> Result<(), String>) {
    cases.push((
        format!("faults::{name}"),
        Box::new(move |c| {
            f(c)?;
            still_works(c)
        }),
    ));
}

pub fn in_process(cases: &mut Vec<Case>) {
    case(cases, "all_reduce_dtype_mismatch", |c| {
        let last = c.size() - 1;
        let r = if c.rank() == last && last > 0 {
            let a = rumba::to_device(&[1.0f64; 8][..]).unwrap();
            c.all_reduce(&a, ReduceOp::Sum)
        } else {
            let a = rumba::to_device(&[1.0f32; 8][..]).unwrap();
            c.all_reduce(&a, ReduceOp::Sum)
        };
        if last == 0 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "passed float64 while rank 0 passed float32")
    });
    case(cases, "all_reduce_count_mismatch", |c| {
        let n = if c.rank() == 1 { 9 } else { 8 };
        let a = rumba::to_device(&vec![1i32; n]).unwrap();
        let r = c.all_reduce(&a, ReduceOp::Sum);
        if c.size() == 1 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "rank 1 passed 9 elements per rank while rank 0 passed 8")?;
        // Nothing was written.
        if a.copy_to_host().unwrap().iter().any(|&x| x != 1) {
            return Err("a refused all_reduce wrote its array".into());
        }
        Ok(())
    });
    case(cases, "all_reduce_shape_mismatch", |c| {
        let a = if c.rank() == 1 {
            rumba::device_array::<f32, _>((4, 4), rumba::Order::C)
                .unwrap()
                .into_dyn()
        } else {
            rumba::device_array::<f32, _>(16, rumba::Order::C)
                .unwrap()
                .into_dyn()
        };
        let r = c.all_reduce(&a, ReduceOp::Max);
        if c.size() == 1 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "shape (4, 4) while rank 0 passed shape (16)")
    });
    case(cases, "reduce_operator_mismatch", |c| {
        let a = rumba::to_device(&[2u16; 3][..]).unwrap();
        let op = if c.rank() == 1 {
            ReduceOp::Max
        } else {
            ReduceOp::Sum
        };
        let r = c.reduce(&a, op, 0);
        if c.size() == 1 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "another reduction operator")
    });
    case(cases, "broadcast_root_mismatch", |c| {
        let a = rumba::to_device(&[5i8; 3][..]).unwrap();
        let root = usize::from(c.rank() == 1);
        let r = c.broadcast(&a, root);
        if c.size() == 1 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "passed root 1 while rank 0 passed root 0")
    });
    case(cases, "roots_out_of_range", |c| {
        let n = c.size();
        let a = rumba::to_device(&vec![1u8; n * 2]).unwrap();
        let b = rumba::to_device(&[1u8; 2][..]).unwrap();
        let want = format!("root {n} is out of range for {n} ranks");
        dist_err(c.broadcast(&a, n), &want)?;
        dist_err(c.reduce(&a, ReduceOp::Sum, n + 3), "is out of range")?;
        dist_err(c.gather(&b, Some(&a), n), &want)?;
        dist_err(c.scatter(Some(&a), &b, n), &want)
    });
    case(cases, "collective_output_size_refused_on_one_rank", |c| {
        // Rank 0 passes an output one element short: every rank fails, naming rank 0.
        let n = c.size();
        let a = rumba::to_device(&[3i64; 4][..]).unwrap();
        let len = if c.rank() == 0 { 4 * n - 1 } else { 4 * n };
        let out = rumba::device_array::<i64, _>(len, rumba::Order::C).unwrap();
        match c.all_gather(&a, &out) {
            Err(Error::Dist {
                rank: 0, reason, ..
            }) if reason.contains("rank 0 refused") => Ok(()),
            other => Err(format!("wanted a Dist error from rank 0, got {other:?}")),
        }
    });
    case(cases, "operation_mismatch", |c| {
        // Rank 1 calls broadcast while the others call all_reduce.
        let a = rumba::to_device(&[1.0f32; 4][..]).unwrap();
        let r = if c.rank() == 1 {
            c.broadcast(&a, 0)
        } else {
            c.all_reduce(&a, ReduceOp::Sum)
        };
        if c.size() == 1 {
            return r.map_err(|e| e.to_string());
        }
        dist_err(r, "rank 1 called broadcast while rank 0 called all_reduce")
    });
    case(cases, "complex_max_refused", |c| {
        let a = rumba::to_device(&[num_complex::Complex32::new(1.0, 1.0)][..]).unwrap();
        dist_err(
            c.all_reduce(&a, ReduceOp::Max),
            "complex numbers have sum and prod only",
        )
    });
    case(cases, "p2p_dtype_and_shape_mismatch", |c| {
        if c.size() < 2 {
            return Ok(());
        }
        match c.rank() {
            0 => {
                let a = rumba::to_device(&[1.0f32; 6][..]).unwrap();
                dist_err(
                    c.send(&a, 1, 5),
                    "rank 0 sent 6 float32 of shape (6), rank 1 receives into 6 float64",
                )?;
                let b = rumba::device_array::<u8, _>((2, 3), rumba::Order::C).unwrap();
                dist_err(c.send(&b, 1, 5), "receives into 6 uint8 of shape (3, 2)")
            }
            1 => {
                let a = rumba::to_device(&[9.0f64; 6][..]).unwrap();
                dist_err(c.recv(&a, 0, 5), "rank 0 sent 6 float32")?;
                if a.copy_to_host().unwrap().iter().any(|&x| x != 9.0) {
                    return Err("a refused recv wrote its array".into());
                }
                let b = rumba::device_array::<u8, _>((3, 2), rumba::Order::C).unwrap();
                dist_err(c.recv(&b, 0, 5), "sent 6 uint8 of shape (2, 3)")
            }
            _ => Ok(()),
        }
    });
    case(cases, "p2p_ranks_and_tags_out_of_range", |c| {
        let n = c.size();
        let a = rumba::to_device(&[1u8; 2][..]).unwrap();
        dist_err(c.send(&a, n, 0), &format!("rank {n} is out of range"))?;
        dist_err(c.recv(&a, n + 1, 0), "is out of range")?;
        dist_err(c.send(&a, 0, 1 << 20), "above the largest tag")
    });
}

/// The fault cases that need the timeout: each runs in a child `mpirun -n 2`.
const CHILD_CASES: &[&str] = &[
    "stalled_collective",
    "recv_without_send",
    "send_without_recv",
];

/// Runs each child case with `RUMBA_DIST_TIMEOUT=2` under a 60 s limit; every rank must print
/// a typed `Dist` error.
pub fn parent(_args: &[String]) -> i32 {
    let exe = std::env::current_exe().unwrap();
    let (mut passed, mut failed) = (0, 0);
    for name in CHILD_CASES {
        let mut child = Command::new("mpirun")
            .args(["-n", "2", "--oversubscribe"])
            .arg(&exe)
            .args(["--fault-child", name])
            .env("RUMBA_DIST_TIMEOUT", "2")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mpirun starts (install OpenMPI)");
        let start = Instant::now();
        let limit = Duration::from_secs(60);
        let timed_out = loop {
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                break true;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let every_rank = (0..2).all(|r| {
            out.lines()
                .any(|l| l.starts_with(&format!("rank {r}: Dist ")))
        });
        let aborted_with_message = err.contains("aborts the MPI job");
        if !timed_out && every_rank && aborted_with_message {
            passed += 1;
            println!(
                "test faults::{name} ... ok ({:.1} s)",
                start.elapsed().as_secs_f64()
            );
        } else {
            failed += 1;
            println!("test faults::{name} ... FAILED (timed out: {timed_out})");
            println!("--- stdout\n{out}--- stderr\n{err}---");
        }
    }
    println!("{passed} passed, {failed} failed");
    i32::from(failed > 0)
}

/// One child case; prints `rank R: Dist …` for the error each rank got.
pub fn child(name: &str) -> i32 {
    let universe = rumba::dist::init().expect("MPI starts");
    let c = universe.world().expect("world");
    let a = rumba::to_device(&[1.0f32; 1000][..]).unwrap();
    let result = match (name, c.rank()) {
        ("stalled_collective", 0) => c.all_reduce(&a, ReduceOp::Sum),
        ("stalled_collective", _) => {
            // Stops calling for longer than the timeout (rank 0 poisons the communicator), then
            // calls while rank 0 still runs: the poison notice is waiting.
            std::thread::sleep(Duration::from_secs(3));
            c.all_reduce(&a, ReduceOp::Sum)
        }
        ("recv_without_send", 0) => c.recv(&a, 1, 0),
        ("recv_without_send", _) => {
            std::thread::sleep(Duration::from_secs(3));
            c.barrier()
        }
        ("send_without_recv", 0) => c.send(&a, 1, 0),
        ("send_without_recv", _) => c.barrier(),
        _ => panic!("no child case {name}"),
    };
    match result {
        Err(e @ Error::Dist { .. }) => println!("rank {}: Dist {e}", c.rank()),
        other => println!("rank {}: not a Dist error: {other:?}", c.rank()),
    }
    drop(c);
    drop(universe); // poisoned: MPI_Abort with a message
    0
}
