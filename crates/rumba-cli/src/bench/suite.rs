//! The workload list of `rumba bench` with each workload's sizes, and `rumba bench --suite`:
//! every workload at its suite size on the backend in use, timed next to the plain-Rust
//! reference (peer `rust-reference`, the CPU limit), the same `#[rumba::kernel]`s' generated
//! OpenCL C on PoCL (peer `opencl`, a child run on the OpenCL backend, unless the backend in use
//! is OpenCL already) and, with `--peers`, the hand-written OpenCL C of `scripts/peers/pocl.py`
//! and Numba's simulator at the small sizes (`scripts/peers/numba_sim.py`, every workload but
//! `reduce_warp`: that simulator has no warp shuffles; `pocl.py` has the first three). Then one
//! table of time ratios with their geometric means, and the goals the suite is held to.
//!
//! Each workload's timed runs (rumba's, the reference's in turns with them, and those of the
//! same kernels on PoCL) go on for at least a second, not only `--repeat` times (but with
//! `--quick`): the median of five runs of a few milliseconds or less is a moment of a noisy
//! machine, where Numba's simulator's one run at the small size takes seconds. The `pocl` column is the script's time where it has the
//! workload, else the generated OpenCL C's: PoCL running the same kernel either way.
//!
//! Every result is checked against the reference; a wrong one has no ratio and makes the
//! command fail.
//!
//! This module touches the current backend (through the workloads), stdout/stderr, the peer
//! scripts' processes and, with `--plot`, the one file it names.

use std::time::Duration;

use rumba::Result;

use super::workloads::{self as wl, Form, Opts, REFERENCE};
use super::{BenchArgs, Run, fmt_time, peers, suite_workloads as sw};

/// One workload of `rumba bench`.
pub struct Workload {
    /// Its name in the table and the JSON (the peer scripts use the same).
    pub name: &'static str,
    /// Runs it at size `n`: rumba's run, and the reference's when asked.
    pub run: fn(usize, &Opts) -> Result<Vec<Run>>,
    /// The sizes `rumba bench` runs without `--quick` (the last is the suite's).
    pub sizes: &'static [usize],
    /// The small size: `--quick`, the tests, and Numba's simulator (every workload but
    /// `reduce_warp`). The suite's own workloads' small sizes are not multiples of their tiles
    /// and span several blocks, so that the edges and the cross-block steps are checked.
    pub small: usize,
}

impl Workload {
    /// The size `--suite` runs it at (against PoCL and the reference).
    pub fn suite_size(&self) -> usize {
        self.sizes.last().copied().unwrap_or(self.small)
    }
}

/// Every workload, in table order. `n` is the element count of the 1-D workloads, the edge of
/// the square matrices and grids, and the number of bodies (`scripts/peers/workloads.md`).
pub const WORKLOADS: [Workload; 10] = [
    Workload {
        name: "vadd",
        run: wl::vadd,
        sizes: &[65_536, 16_777_216],
        small: 65_536,
    },
    Workload {
        name: "matmul_shared",
        run: wl::matmul,
        sizes: &[64, 256, 512],
        small: 64,
    },
    Workload {
        name: "reduce_shared",
        run: wl::reduce,
        sizes: &[16_384, 1_048_576],
        small: 16_384,
    },
    Workload {
        name: "reduce_warp",
        run: wl::reduce_warp,
        sizes: &[16_777_216],
        small: 16_384,
    },
    Workload {
        name: "transpose",
        run: sw::transpose,
        sizes: &[4096],
        small: 100,
    },
    Workload {
        name: "stencil5",
        run: sw::stencil5,
        sizes: &[4096],
        small: 40,
    },
    Workload {
        name: "histogram",
        run: sw::histogram,
        sizes: &[16_777_216],
        small: 50_000,
    },
    Workload {
        name: "scan",
        run: sw::scan,
        sizes: &[16_777_216],
        small: 20_000,
    },
    Workload {
        name: "nbody",
        run: sw::nbody,
        sizes: &[16_384],
        small: 300,
    },
    Workload {
        name: "sgemm",
        run: sw::sgemm,
        sizes: &[1024],
        small: 100,
    },
];

/// The workloads the suite added to the first three peer workloads and `reduce_warp`: each is
/// held to half PoCL's time.
const NEW: [&str; 6] = [
    "transpose",
    "stencil5",
    "histogram",
    "scan",
    "nbody",
    "sgemm",
];

/// Memory-bound workloads, held to 1.3× the reference.
const MEMORY_BOUND: [&str; 2] = ["vadd", "stencil5"];

/// The least wall time of each workload's timed runs, but with `--quick` ([`Opts::span`]).
const SPAN: Duration = Duration::from_secs(1);

/// Runs the suite (`rumba bench --suite`); `Ok(false)` when a result (rumba's or a peer's)
/// disagreed with the host reference — each is named on stderr and has no ratio in the table.
///
/// # Errors
/// A failure of rumba's own runs (the peers' failures are reported and skipped), or of writing
/// the chart.
pub fn run(args: &BenchArgs) -> Result<bool> {
    let wanted = |name: &str| args.only.is_empty() || args.only.iter().any(|o| o == name);
    let mut runs: Vec<Run> = Vec::new();
    let emit = |rs: Vec<Run>, runs: &mut Vec<Run>| {
        for r in rs {
            if args.json {
                println!("{}", r.json());
            } else {
                eprintln!(
                    "  {:<16} {:<14} {:>10}  {}{}",
                    r.peer,
                    r.workload,
                    r.n,
                    fmt_time(r.seconds),
                    if r.check { "" } else { " (WRONG)" }
                );
            }
            runs.push(r);
        }
    };
    let timed = Opts {
        repeat: args.repeat,
        form: Form::BlockBody,
        reference: !args.no_reference,
        span: if args.quick { Duration::ZERO } else { SPAN },
    };
    let small = Opts {
        reference: false,
        ..timed
    };
    for w in WORKLOADS.iter().filter(|w| wanted(w.name)) {
        let n = if args.quick { w.small } else { w.suite_size() };
        emit((w.run)(n, &timed)?, &mut runs);
        if n != w.small && args.peers.is_some() {
            // The size Numba's simulator runs, for the ratio to it.
            emit((w.run)(w.small, &small)?, &mut runs);
        }
    }
    let on_opencl =
        rumba::backend_driver().is_ok_and(|d| d.backend() == rumba::driver::BackendKind::OpenCl);
    if !on_opencl {
        // The same kernels' generated OpenCL C on PoCL, in a child on the OpenCL backend.
        let mut extra = vec!["--suite".to_string(), "--no-reference".into()];
        if args.quick {
            extra.push("--quick".into());
        }
        if !args.json {
            eprintln!("opencl (the same kernels' OpenCL C) ...");
        }
        match peers::opencl(args.repeat, &extra, &args.only) {
            Ok(rs) => emit(rs, &mut runs),
            Err(e) => eprintln!("rumba bench: OpenCL peer skipped: {e}"),
        }
    }
    if let Some(venv) = &args.peers {
        let scripts = peers::scripts_dir(args.peers_dir.as_deref()).map_err(super::peer_err)?;
        let mut pocl = vec!["--repeat".into(), args.repeat.to_string()];
        if args.quick {
            pocl.push("--quick".into());
        }
        let mut numba = vec!["--repeat".to_string(), "1".into()];
        pocl.extend(peers::only(wanted));
        numba.extend(peers::only(wanted));
        for (script, extra) in [("pocl.py", pocl), ("numba_sim.py", numba)] {
            if !args.json {
                eprintln!("{script} ...");
            }
            match peers::run(venv, &scripts, script, &extra) {
                // The scripts run every workload they have: keep the suite's.
                Ok(rs) => emit(
                    rs.into_iter()
                        .filter(|r| {
                            WORKLOADS.iter().any(|w| w.name == r.workload) && wanted(&r.workload)
                        })
                        .collect(),
                    &mut runs,
                ),
                Err(e) => eprintln!("rumba bench: peer {script} skipped: {e}"),
            }
        }
    }
    if !args.json {
        print!("{}", table(&runs, args.quick));
        print!("{}", goals(&runs, args.quick));
    }
    if let Some(path) = &args.plot {
        super::write_chart(path, &runs)?;
        if !args.json {
            println!("chart written to {}", path.display());
        }
    }
    Ok(super::all_right(&runs))
}

/// rumba's run (on any backend) of `workload` at `n`.
fn rumba_run<'a>(runs: &'a [Run], workload: &str, n: usize) -> Option<&'a Run> {
    runs.iter()
        .find(|r| r.peer.starts_with("rumba-") && r.workload == workload && r.n == n)
}

/// The run of `peer` for `workload` at `n`. For `pocl`, the hand-written OpenCL C of
/// `scripts/peers/pocl.py` where it has the workload, else the same `#[rumba::kernel]`'s
/// generated OpenCL C on PoCL (peer `opencl`): PoCL's time on the same kernel either way.
fn peer_run<'a>(runs: &'a [Run], peer: &str, workload: &str, n: usize) -> Option<&'a Run> {
    let of = |peer: &str| {
        runs.iter()
            .find(|r| r.peer == peer && r.workload == workload && r.n == n)
    };
    of(peer).or_else(|| if peer == "pocl" { of("opencl") } else { None })
}

/// time(rumba) / time(`peer`) for `workload` at `n`, when both ran and both results were right.
fn ratio(runs: &[Run], peer: &str, workload: &str, n: usize) -> Option<f64> {
    let r = rumba_run(runs, workload, n)?;
    let p = peer_run(runs, peer, workload, n)?;
    (r.check && p.check && p.seconds > 0.0 && r.seconds > 0.0).then(|| r.seconds / p.seconds)
}

/// The geometric mean of `xs` (`None` when empty).
pub fn geomean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// The columns of the ratio table: peer, and at which size it is compared.
const COLUMNS: [(&str, bool); 3] = [("pocl", false), (REFERENCE, false), ("numba-cudasim", true)];

fn size_of(w: &Workload, quick: bool, small_column: bool) -> usize {
    if quick || small_column {
        w.small
    } else {
        w.suite_size()
    }
}

/// The ratio table: per workload rumba's time, each peer's, the ratios rumba / peer (PoCL and the
/// reference at the suite size, Numba's simulator at the small size), and a last row with the
/// geometric mean of each ratio column.
pub fn table(runs: &[Run], quick: bool) -> String {
    let mut out = String::new();
    let cell = |r: Option<&Run>| {
        r.map_or("-".to_string(), |r| {
            format!(
                "{}{}",
                fmt_time(r.seconds),
                if r.check { "" } else { " WRONG" }
            )
        })
    };
    let rat = |x: Option<f64>| match x {
        Some(x) if x < 0.01 => format!("{x:.1e}"),
        Some(x) => format!("{x:.3}"),
        None => "-".into(),
    };
    out += &format!(
        "\n{:<14} {:>9} {:>11} {:>11} {:>11} {:>7} {:>11} {:>10} {:>10} {:>10}\n",
        "workload",
        "n",
        "rumba",
        "pocl",
        REFERENCE,
        "small n",
        "numba-sim",
        "/pocl",
        "/reference",
        "/numba-sim"
    );
    out += &format!("{}\n", "-".repeat(114));
    let mut cols: [Vec<f64>; 3] = Default::default();
    for w in &WORKLOADS {
        let (n, sn) = (size_of(w, quick, false), w.small);
        if rumba_run(runs, w.name, n).is_none() {
            continue;
        }
        let ratios: Vec<Option<f64>> = COLUMNS
            .iter()
            .map(|(p, small)| ratio(runs, p, w.name, size_of(w, quick, *small)))
            .collect();
        for (c, x) in cols.iter_mut().zip(&ratios) {
            c.extend(*x);
        }
        out += &format!(
            "{:<14} {:>9} {:>11} {:>11} {:>11} {:>7} {:>11} {:>10} {:>10} {:>10}\n",
            w.name,
            n,
            cell(rumba_run(runs, w.name, n)),
            cell(peer_run(runs, "pocl", w.name, n)),
            cell(peer_run(runs, REFERENCE, w.name, n)),
            sn,
            cell(peer_run(runs, "numba-cudasim", w.name, sn)),
            rat(ratios[0]),
            rat(ratios[1]),
            rat(ratios[2]),
        );
    }
    out += &format!("{}\n", "-".repeat(114));
    out += &format!(
        "{:<14} {:>9} {:>11} {:>11} {:>11} {:>7} {:>11} {:>10} {:>10} {:>10}\n",
        "geomean",
        "",
        "",
        "",
        "",
        "",
        "",
        rat(geomean(&cols[0])),
        rat(geomean(&cols[1])),
        rat(geomean(&cols[2])),
    );
    out
}

/// The suite's goals, each with its measured value and whether it was met (only those whose
/// runs are present).
pub fn goals(runs: &[Run], quick: bool) -> String {
    let mut lines = Vec::new();
    let mut goal = |what: String, x: Option<f64>, limit: f64, at_most: bool| {
        if let Some(x) = x {
            let met = if at_most { x <= limit } else { x >= limit };
            let op = if at_most { "<=" } else { ">=" };
            lines.push(format!(
                "  {what:<44} {x:>10.3} {op} {limit:<8} {}",
                if met { "met" } else { "MISSED" }
            ));
        }
    };
    let at = |w: &Workload| size_of(w, quick, false);
    for w in WORKLOADS.iter().filter(|w| NEW.contains(&w.name)) {
        goal(
            format!("{} / pocl", w.name),
            ratio(runs, "pocl", w.name, at(w)),
            0.5,
            true,
        );
    }
    let all = |peer: &str, small: bool| -> Vec<f64> {
        WORKLOADS
            .iter()
            .filter_map(|w| ratio(runs, peer, w.name, size_of(w, quick, small)))
            .collect()
    };
    goal(
        "geomean / pocl".into(),
        geomean(&all("pocl", false)),
        0.4,
        true,
    );
    goal(
        format!("geomean / {REFERENCE}"),
        geomean(&all(REFERENCE, false)),
        2.0,
        true,
    );
    for w in WORKLOADS.iter().filter(|w| MEMORY_BOUND.contains(&w.name)) {
        goal(
            format!("{} / {REFERENCE}", w.name),
            ratio(runs, REFERENCE, w.name, at(w)),
            1.3,
            true,
        );
    }
    for w in &WORKLOADS {
        goal(
            format!("{} speed-up over numba-cudasim (n={})", w.name, w.small),
            ratio(runs, "numba-cudasim", w.name, w.small).map(|x| 1.0 / x),
            1e4,
            false,
        );
    }
    if lines.is_empty() {
        return String::new();
    }
    format!("\ngoals:\n{}\n", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(peer: &str, workload: &str, n: usize, seconds: f64) -> Run {
        Run {
            peer: peer.into(),
            workload: workload.into(),
            n,
            seconds,
            check: true,
        }
    }

    #[test]
    fn ratios_and_geometric_means_come_from_the_right_rows() {
        assert!((geomean(&[0.25, 4.0, 1.0]).unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(geomean(&[]), None);
        let runs = vec![
            r("rumba-sim", "transpose", 4096, 0.01),
            r("pocl", "transpose", 4096, 0.04),
            r(REFERENCE, "transpose", 4096, 0.01),
            r("rumba-sim", "transpose", 100, 1e-5),
            r("numba-cudasim", "transpose", 100, 1.0),
            r("rumba-sim", "sgemm", 1024, 0.2),
            r("pocl", "sgemm", 1024, 0.2),
        ];
        assert_eq!(ratio(&runs, "pocl", "transpose", 4096), Some(0.25));
        assert_eq!(ratio(&runs, "numba-cudasim", "transpose", 100), Some(1e-5));
        let t = table(&runs, false);
        let geo = t.lines().last().unwrap();
        // sqrt(0.25 * 1.0) for PoCL, 1.0 for the reference (one workload), 1e-5 for Numba.
        assert!(
            geo.contains("0.500") && geo.contains("1.000") && geo.contains("1.0e-5"),
            "{t}"
        );
        let g = goals(&runs, false);
        assert!(
            g.contains("transpose / pocl") && g.contains("0.250 <= 0.5"),
            "{g}"
        );
        assert!(g.contains("sgemm / pocl") && g.contains("MISSED"), "{g}");
        assert!(g.contains("100000.000 >= 10000"), "{g}");
        // A wrong result has no ratio.
        let mut wrong = runs.clone();
        wrong[1].check = false;
        assert_eq!(ratio(&wrong, "pocl", "transpose", 4096), None);
        // Without the script's row, the `pocl` column is the generated OpenCL C on PoCL; with
        // it, the script's.
        let mut generated = runs.clone();
        generated[1].peer = "opencl".into();
        assert_eq!(ratio(&generated, "pocl", "transpose", 4096), Some(0.25));
        generated.push(r("pocl", "transpose", 4096, 0.02));
        assert_eq!(ratio(&generated, "pocl", "transpose", 4096), Some(0.5));
    }
}
