//! `rumba bench`: the peer workloads on the backend in use, optionally side by side with peers —
//! on a CPU, Numba's CUDA simulator and PoCL (`scripts/peers/`); on a GPU, CuPy and Numba-CUDA
//! (`scripts/gpu/peer_bench.py`, `--gpu-peers`) and cudarc's own launch path — as a table, JSON
//! lines and an SVG chart.
//!
//! | file | concept |
//! |---|---|
//! | [`kernels`] | the workloads' kernels (`#[rumba::kernel]`; also rumba's test corpus) |
//! | [`workloads`] | the first peer workloads' runs, copies and launches: timing and result checks |
//! | [`suite_workloads`] | the suite's other workloads: transpose, stencil, histogram, scan, n-body, sgemm |
//! | [`reference`] | the same computations in plain Rust over rayon (peer `rust-reference`) |
//! | [`suite`] | the list of workloads and their sizes; `--suite`: every workload with every peer, the ratio table and geometric means |
//! | [`peers`] | running the peer scripts (and this program on OpenCL, `--opencl-peer`) and reading their JSON |
//! | `cudarc` | the launch-latency baseline through cudarc (feature `cuda`, CUDA backend only) |
//! | `dist` | `--dist`: all-reduce and send/recv through `rumba::dist` next to MPI on host buffers (feature `mpi`, under `mpirun`) |
//! | [`plot`] | the SVG chart (`plotters`) |
//!
//! This module touches the current backend (through [`workloads`]), stdout/stderr, the peer
//! scripts' processes (through [`peers`]) and, with `--plot`, the one file it names.

#[cfg(feature = "cuda")]
mod cudarc;
#[cfg(feature = "mpi")]
mod dist;
pub mod kernels;
pub mod peers;
pub mod plot;
pub mod reference;
pub mod suite;
pub mod suite_workloads;
pub mod workloads;

use workloads::Form;

use std::path::PathBuf;

/// One measurement, in the peers' JSON form (`scripts/peers/workloads.md`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// `rumba-sim`, `rumba-cuda`, `rust-reference`, `pocl`, `opencl`, `numba-cudasim`, `cupy`,
    /// `numba-cuda` or `cudarc`.
    pub peer: String,
    /// Workload name.
    pub workload: String,
    /// Problem size.
    pub n: usize,
    /// Median seconds of launch + synchronize.
    pub seconds: f64,
    /// Whether the result matched the host reference.
    pub check: bool,
}

impl Run {
    /// The peers' JSON line.
    pub fn json(&self) -> String {
        crate::json::to_line(self)
    }
}

/// Options of `rumba bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Print one JSON line per run (the peers' format) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// A virtualenv made by scripts/peers/setup.sh: also run Numba's simulator and PoCL.
    #[arg(long, value_name = "DIR")]
    pub peers: Option<PathBuf>,
    /// Where numba_sim.py and pocl.py are (default: scripts/peers of the clone the command runs
    /// in, or was built in).
    #[arg(long, value_name = "DIR", alias = "peers-scripts")]
    pub peers_dir: Option<PathBuf>,
    /// Write a chart of the times (SVG) to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Timed repetitions per workload (the median is reported), 1 to 100,000; with --suite
    /// (but not --quick) short runs are repeated further, until they fill a second.
    #[arg(long, default_value_t = 5, value_parser = parse_repeat)]
    pub repeat: usize,
    /// Only the small sizes (the sizes Numba's simulator runs) and the launch latency.
    #[arg(long)]
    pub quick: bool,
    /// Every workload at its suite size with every peer in one run — the plain-Rust reference,
    /// the same kernels' OpenCL C on PoCL, and with `--peers` the hand-written PoCL and Numba's
    /// simulator scripts (at the small sizes) — then the table of time ratios and their
    /// geometric means, and the goals.
    #[arg(long)]
    pub suite: bool,
    /// On a GPU: also run this script (scripts/gpu/peer_bench.py), which times the same
    /// workloads in CuPy and Numba-CUDA.
    #[arg(long, value_name = "SCRIPT")]
    pub gpu_peers: Option<PathBuf>,
    /// The Python that runs --gpu-peers.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: PathBuf,
    /// Run under mpirun: all-reduce and send/recv bandwidth, 4 KiB to 256 MiB, through
    /// rumba::dist next to the same MPI calls on host buffers (needs the `mpi` feature).
    #[arg(long)]
    pub dist: bool,
    /// Run only these workloads (comma-separated names as the table shows them, e.g.
    /// `reduce_warp,reduce_warp-coroutines`); the copies and launches run only when named.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Also run the same workloads — the same `#[rumba::kernel]`s, as their generated OpenCL C —
    /// on the OpenCL backend (PoCL on a CPU), in a child `rumba bench` with
    /// `RUMBA_BACKEND=opencl`, reported as peer `opencl` (`--suite` always does, unless the
    /// backend in use is OpenCL).
    #[arg(long)]
    pub opencl_peer: bool,
    /// With `--suite`: do not time the plain-Rust reference (it still checks the results). The
    /// suite's OpenCL child run uses it; the parent times the reference once.
    #[arg(long, hide = true)]
    pub no_reference: bool,
}

/// `rumba bench --dist`: the distributed benchmark, then the chart from rank 0.
fn run_dist(args: &BenchArgs) -> rumba::Result<()> {
    #[cfg(feature = "mpi")]
    {
        let (runs, wrong) = dist::run(args.repeat, args.quick)?;
        if let Some(path) = &args.plot
            && !runs.is_empty()
        {
            write_chart(path, &runs)?;
            println!("chart written to {}", path.display());
        }
        if args.json {
            runs.iter().for_each(|r| println!("{}", r.json()));
        }
        if let Some(rank) = wrong {
            return Err(rumba::Error::Dist {
                rank,
                op: "bench --dist".into(),
                reason: "a distributed benchmark computed a wrong result".into(),
            });
        }
        Ok(())
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = args;
        Err(rumba::Error::Unsupported {
            backend: rumba::backend().map_or_else(|_| "current".into(), |b| b.to_string()),
            feature: "rumba bench --dist".into(),
            reason: "it needs the CLI built with `--features mpi` (and run under mpirun)".into(),
        })
    }
}

/// Most timed repetitions per workload `--repeat` accepts.
pub const MAX_REPEAT: usize = 100_000;

/// Parses `--repeat` (clap reports a refusal as an invalid value, exit status 2).
fn parse_repeat(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_REPEAT).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} repetitions: expected 1 to {MAX_REPEAT}")),
        Err(e) => Err(format!("{text:?} is not a whole number ({e})")),
    }
}

/// Runs the benchmark; `Ok(false)` when a result disagreed with the host reference (each such
/// run is named on stderr: a wrong result is a failure, not a number).
///
/// # Errors
/// A failure of rumba's own runs (a peer's failure is reported and skipped), of `--dist`, or of
/// writing the chart.
pub fn run(args: &BenchArgs) -> rumba::Result<bool> {
    if args.dist {
        return run_dist(args).map(|()| true);
    }
    if args.suite {
        return suite::run(args);
    }
    let mut runs = Vec::new();
    let emit = |r: &Run, runs: &mut Vec<Run>| {
        if args.json {
            println!("{}", r.json());
        } else {
            eprintln!("  {:<14} {:>10}  {}", r.workload, r.n, fmt_time(r.seconds));
        }
        runs.push(r.clone());
    };
    if !args.json {
        let backend = rumba::backend_driver()
            .map(|d| d.backend().to_string())
            .unwrap_or_else(|_| "sim".into());
        eprintln!("rumba-{backend}:");
    }
    // Block bodies (what the simulator runs for these kernels), then, on the simulator, the
    // per-thread bodies on coroutines as extra rows.
    let sim = rumba::backend_driver().is_ok_and(|d| d.backend() == rumba::driver::BackendKind::Sim);
    let forms: &[Form] = if sim {
        &[Form::BlockBody, Form::PerThread]
    } else {
        &[Form::BlockBody]
    };
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    for &form in forms {
        let opts = workloads::Opts {
            repeat: args.repeat,
            form,
            reference: false,
            span: std::time::Duration::ZERO,
        };
        for w in &suite::WORKLOADS {
            if !wanted(&format!("{}{}", w.name, form.suffix())) {
                continue;
            }
            let sizes = if args.quick { &[w.small][..] } else { w.sizes };
            for &n in sizes {
                for r in (w.run)(n, &opts)? {
                    emit(&r, &mut runs);
                }
            }
        }
    }
    if wanted("launch") {
        emit(&workloads::launch(args.repeat)?, &mut runs);
    }
    if !args.quick && args.only.is_empty() {
        for r in workloads::copies(args.repeat)? {
            emit(&r, &mut runs);
        }
        for r in workloads::pinned_copies(args.repeat)? {
            emit(&r, &mut runs);
        }
    }
    #[cfg(feature = "cuda")]
    if wanted("launch") && rumba::backend_driver()?.backend() == rumba::driver::BackendKind::Cuda {
        match cudarc::launch(args.repeat) {
            Ok(r) => emit(&r, &mut runs),
            Err(e) => eprintln!("rumba bench: {e}"),
        }
    }
    if let Some(script) = &args.gpu_peers {
        let mut extra = vec!["--repeat".to_string(), args.repeat.to_string()];
        if args.quick {
            extra.push("--quick".into());
        }
        if !args.json {
            eprintln!("{} ...", script.display());
        }
        match peers::run_with(&args.python, script, &extra) {
            Ok(rs) => {
                for r in rs {
                    emit(&r, &mut runs);
                }
            }
            Err(e) => eprintln!("rumba bench: GPU peers skipped: {e}"),
        }
    }

    if args.opencl_peer {
        if !args.json {
            eprintln!("opencl (the same kernels' OpenCL C) ...");
        }
        let extra: &[String] = if args.quick {
            &["--quick".to_string()][..]
        } else {
            &[]
        };
        match peers::opencl(args.repeat, extra, &args.only) {
            Ok(rs) => {
                for r in rs {
                    emit(&r, &mut runs);
                }
            }
            Err(e) => eprintln!("rumba bench: OpenCL peer skipped: {e}"),
        }
    }
    if let Some(venv) = &args.peers {
        let scripts = peers::scripts_dir(args.peers_dir.as_deref()).map_err(peer_err)?;
        let mut pocl = vec!["--repeat".to_string(), args.repeat.to_string()];
        if args.quick {
            pocl.push("--quick".into());
        }
        // Numba's simulator runs once per size: it is slow, and its small sizes only.
        let mut numba = vec!["--repeat".to_string(), "1".to_string()];
        pocl.extend(peers::only(wanted));
        // Only where rumba runs the small size too, so that each of its rows has a ratio.
        numba.extend(peers::only(|name| {
            wanted(name)
                && suite::WORKLOADS
                    .iter()
                    .any(|w| w.name == name && (args.quick || w.sizes.contains(&w.small)))
        }));
        for (script, extra) in [("pocl.py", pocl), ("numba_sim.py", numba)] {
            if !args.json {
                eprintln!("{script} ...");
            }
            match peers::run(venv, &scripts, script, &extra) {
                Ok(rs) => {
                    for r in rs {
                        emit(&r, &mut runs);
                    }
                }
                Err(e) => eprintln!("rumba bench: peer {script} skipped: {e}"),
            }
        }
    }

    if !args.json {
        print_table(&runs);
        print_goals(&runs);
    }
    if let Some(path) = &args.plot {
        write_chart(path, &runs)?;
        if !args.json {
            println!("chart written to {}", path.display());
        }
    }
    Ok(all_right(&runs))
}

/// Whether every run's result agreed with the host reference; names those that did not on
/// stderr.
fn all_right(runs: &[Run]) -> bool {
    let wrong: Vec<&Run> = runs.iter().filter(|r| !r.check).collect();
    // The reference's own row carries the check of the kernel it was compared with: name the
    // kernel's run only.
    for r in wrong.iter().filter(|r| r.peer != workloads::REFERENCE) {
        eprintln!(
            "rumba bench: {} computed a wrong {} (n = {}): it disagrees with the host reference",
            r.peer, r.workload, r.n
        );
    }
    wrong.is_empty()
}

fn peer_err(e: String) -> rumba::Error {
    rumba::Error::InvalidArgument(e)
}

/// Draws the chart of `runs` into the SVG file `path`.
fn write_chart(path: &std::path::Path, runs: &[Run]) -> rumba::Result<()> {
    let chart = plot::svg(runs).map_err(rumba::Error::InvalidArgument)?;
    std::fs::write(path, chart)
        .map_err(|e| rumba::Error::InvalidArgument(format!("cannot write {}: {e}", path.display())))
}

/// Seconds in a readable unit.
pub fn fmt_time(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// The run of `peer` (`"rumba"` matches rumba on any backend: `rumba-sim`, `rumba-cuda`).
fn find<'a>(runs: &'a [Run], peer: &str, workload: &str, n: usize) -> Option<&'a Run> {
    runs.iter().find(|r| {
        let same_peer = r.peer == peer || (peer == "rumba" && r.peer.starts_with("rumba-"));
        same_peer && r.workload == workload && r.n == n
    })
}

/// The time ratio rumba / peer, as text.
fn ratio(runs: &[Run], peer: &str, workload: &str, n: usize) -> String {
    match (
        find(runs, "rumba", workload, n),
        find(runs, peer, workload, n),
    ) {
        (Some(r), Some(p)) if p.seconds > 0.0 => {
            let x = r.seconds / p.seconds;
            if x < 0.01 {
                format!("{x:.1e} ({:.0}× faster)", 1.0 / x)
            } else {
                format!("{x:.2}")
            }
        }
        _ => "-".into(),
    }
}

/// The peers present in `runs`, in order of appearance (rumba's own runs excluded).
fn peers_of(runs: &[Run]) -> Vec<String> {
    let mut peers: Vec<String> = Vec::new();
    for r in runs {
        if !r.peer.starts_with("rumba-") && !peers.contains(&r.peer) {
            peers.push(r.peer.clone());
        }
    }
    peers
}

fn print_table(runs: &[Run]) {
    let mut keys: Vec<(String, usize)> = Vec::new();
    for r in runs {
        if !keys.iter().any(|(w, n)| *w == r.workload && *n == r.n) {
            keys.push((r.workload.clone(), r.n));
        }
    }
    let peers = peers_of(runs);
    let cell = |peer: &str, w: &str, n: usize| {
        find(runs, peer, w, n).map_or("-".to_string(), |r| {
            format!(
                "{}{}",
                fmt_time(r.seconds),
                if r.check { "" } else { " (WRONG)" }
            )
        })
    };
    let mut head = format!("{:<14} {:>10} | {:>12}", "workload", "n", "rumba");
    for p in &peers {
        head += &format!(" {p:>14}");
    }
    if !peers.is_empty() {
        head += " |";
        for p in &peers {
            head += &format!(" {:>20}", format!("rumba/{p}"));
        }
    }
    println!("{head}");
    println!("{}", "-".repeat(head.chars().count()));
    for (w, n) in &keys {
        let mut line = format!("{:<14} {:>10} | {:>12}", w, n, cell("rumba", w, *n));
        for p in &peers {
            line += &format!(" {:>14}", cell(p, w, *n));
        }
        if !peers.is_empty() {
            line += " |";
            for p in &peers {
                line += &format!(" {:>20}", ratio(runs, p, w, *n));
            }
        }
        println!("{line}");
    }
}

/// A performance goal: rumba's time on a workload against a peer's.
enum Goal {
    /// time(rumba) / time(peer) at most this.
    Ratio(f64),
    /// time(rumba) - time(peer) at most this many seconds.
    Difference(f64),
    /// time(rumba) / time(rumba's own run of this other workload, same size) at most this.
    Against(&'static str, f64),
}

fn print_goals(runs: &[Run]) {
    const MIB64: usize = 64 << 20;
    let goals: [(&str, usize, &str, Goal); 12] = [
        ("vadd", 65_536, "numba-cudasim", Goal::Ratio(1e-4)),
        ("matmul_shared", 64, "numba-cudasim", Goal::Ratio(1e-4)),
        ("reduce_shared", 16_384, "numba-cudasim", Goal::Ratio(1e-4)),
        ("vadd", 16_777_216, "pocl", Goal::Ratio(1.0)),
        ("matmul_shared", 512, "pocl", Goal::Ratio(0.5)),
        ("reduce_shared", 1_048_576, "pocl", Goal::Ratio(0.5)),
        // The warp-shuffle reduction: half PoCL's time on the same kernel, and a tenth of the
        // time its per-thread body takes on coroutines (the `-coroutines` row of this run).
        ("reduce_warp", 16_777_216, "opencl", Goal::Ratio(0.5)),
        (
            "reduce_warp",
            16_777_216,
            "rumba-sim",
            Goal::Against("reduce_warp-coroutines", 0.1),
        ),
        // On a GPU: pinned bandwidth at least 0.9x CuPy's, launches within 2 µs of cudarc's.
        ("h2d_pinned", MIB64, "cupy", Goal::Ratio(1.0 / 0.9)),
        ("d2h_pinned", MIB64, "cupy", Goal::Ratio(1.0 / 0.9)),
        (
            "launch",
            workloads::LAUNCHES,
            "cudarc",
            Goal::Difference(2e-6),
        ),
        (
            "launch",
            workloads::LAUNCHES,
            "cupy",
            Goal::Difference(2e-6),
        ),
    ];
    let peers = peers_of(runs);
    let relevant: Vec<_> = goals
        .iter()
        .filter(|(w, n, peer, goal)| match goal {
            Goal::Against(other, _) => {
                runs.iter()
                    .any(|r| r.peer == *peer && r.workload == *w && r.n == *n)
                    && find(runs, peer, other, *n).is_some()
            }
            _ => peers.iter().any(|p| p == peer),
        })
        .collect();
    if relevant.is_empty() {
        return;
    }
    println!("\ngoals:");
    for (w, n, peer, goal) in relevant {
        let against = match goal {
            Goal::Against(other, _) => find(runs, peer, other, *n),
            _ => find(runs, peer, w, *n),
        };
        let verdict = match (find(runs, "rumba", w, *n), against) {
            (Some(r), Some(p)) => match goal {
                Goal::Against(other, limit) => {
                    let x = r.seconds / p.seconds;
                    format!(
                        "time ratio to {other} {x:.3e} vs <= {limit:.3e}: {}",
                        if x <= *limit { "met" } else { "MISSED" }
                    )
                }
                Goal::Ratio(limit) => {
                    let x = r.seconds / p.seconds;
                    format!(
                        "time ratio {x:.3e} vs <= {limit:.3e}: {}",
                        if x <= *limit { "met" } else { "MISSED" }
                    )
                }
                Goal::Difference(limit) => {
                    let d = r.seconds - p.seconds;
                    format!(
                        "difference {:.2} µs vs <= {:.2} µs: {}",
                        d * 1e6,
                        limit * 1e6,
                        if d <= *limit { "met" } else { "MISSED" }
                    )
                }
            },
            _ => "not measured".into(),
        };
        println!("  {w:<14} {n:>10} vs {peer:<14} {verdict}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_result_fails_the_run() {
        let run = |peer: &str, check| Run {
            peer: peer.into(),
            workload: "scan".into(),
            n: 20_000,
            seconds: 1e-3,
            check,
        };
        assert!(all_right(&[]));
        assert!(all_right(&[run("rumba-sim", true), run("opencl", true)]));
        assert!(!all_right(&[run("rumba-sim", true), run("opencl", false)]));
        assert!(!all_right(&[run("rumba-sim", false)]));
    }
}
