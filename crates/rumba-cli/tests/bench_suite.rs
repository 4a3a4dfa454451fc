//! `rumba bench` over the workload suite as a user runs it: every workload's result checked
//! against the plain-Rust reference at the small sizes (the simulator's two engines, or the
//! backend of `RUMBA_TEST_BACKEND`), and `rumba bench --suite`'s table, JSON rows and chart.
//! No timing is asserted: only which rows exist and that every result agreed.
//!
//! As in `cli.rs`: `RUMBA_TEST_BACKEND=opencl` runs the command on OpenCL (PoCL here), and where
//! that backend cannot be used the binary says `SKIPPED` and exits successfully, unless
//! `RUMBA_REQUIRE_OPENCL=1`.

use std::process::Command;
use std::sync::Once;

/// The suite's workloads, in table order.
const WORKLOADS: [&str; 10] = [
    "vadd",
    "matmul_shared",
    "reduce_shared",
    "reduce_warp",
    "transpose",
    "stencil5",
    "histogram",
    "scan",
    "nbody",
    "sgemm",
];

fn exe() -> std::path::PathBuf {
    std::env::var_os("RUMBA_BIN")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_rumba").into())
}

/// `sim`, `cuda` or `opencl`, from `RUMBA_TEST_BACKEND` (ends the binary, saying why, when that
/// backend cannot be used here and it is not required).
fn test_backend() -> &'static str {
    static CHECK: Once = Once::new();
    let backend = match std::env::var("RUMBA_TEST_BACKEND").as_deref() {
        Ok("sim") | Err(_) => return "sim",
        Ok("cuda") => "cuda",
        Ok("opencl") => "opencl",
        Ok(other) => panic!("RUMBA_TEST_BACKEND={other:?}: expected sim, cuda or opencl"),
    };
    CHECK.call_once(|| {
        let out = Command::new(exe())
            .arg("detect")
            .env("RUMBA_BACKEND", backend)
            .output()
            .expect("run rumba detect");
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            if backend == "opencl" && std::env::var("RUMBA_REQUIRE_OPENCL").as_deref() == Ok("1") {
                panic!("RUMBA_TEST_BACKEND=opencl with RUMBA_REQUIRE_OPENCL=1, but {why}");
            }
            eprintln!("SKIPPED: RUMBA_TEST_BACKEND={backend}, but {}", why.trim());
            std::process::exit(0);
        }
    });
    backend
}

/// Runs `rumba bench ARGS` on the test backend; returns status, stdout, stderr.
fn bench(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(exe())
        .arg("bench")
        .args(args)
        .env_remove("RUMBA_SIM_MEMORY")
        .env_remove("RUMBA_MEMORY_MANAGER")
        .env("RUMBA_BACKEND", test_backend())
        .output()
        .expect("run rumba bench");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// One JSON row: (peer, workload, n, check).
fn row(line: &str) -> (String, String, u64, bool) {
    let v: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    (
        v["peer"].as_str().expect("peer").to_string(),
        v["workload"].as_str().expect("workload").to_string(),
        v["n"].as_u64().expect("n"),
        v["check"].as_bool().expect("check"),
    )
}

#[test]
fn every_workload_agrees_with_the_reference_on_each_engine() {
    let backend = test_backend();
    let (code, out, err) = bench(&["--quick", "--repeat", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<_> = out.lines().map(row).collect();
    // The block bodies (work-item loops on the sim, the generated C elsewhere), and on the sim
    // the per-thread bodies on coroutines too.
    let mut names: Vec<String> = WORKLOADS.iter().map(|w| w.to_string()).collect();
    if backend == "sim" {
        names.extend(WORKLOADS.iter().map(|w| format!("{w}-coroutines")));
    }
    let peer = format!("rumba-{backend}");
    for name in &names {
        let found: Vec<_> = rows
            .iter()
            .filter(|(p, w, _, _)| *p == peer && w == name)
            .collect();
        assert_eq!(found.len(), 1, "{name}: {out}");
        assert!(found[0].3, "{name} disagreed with the reference: {out}");
    }
}

#[test]
fn suite_prints_the_ratio_table_with_geometric_means() {
    let (code, out, err) = bench(&["--suite", "--quick", "--repeat", "1"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("workload"))
        .unwrap_or_else(|| panic!("no table: {out}"));
    for col in ["rumba", "pocl", "rust-reference", "/pocl", "/reference"] {
        assert!(lines[head].contains(col), "{}", lines[head]);
    }
    for w in WORKLOADS {
        let line = lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(w))
            .unwrap_or_else(|| panic!("no row for {w}: {out}"));
        assert!(!line.contains("WRONG"), "{line}");
        // The ratio to the reference is a number (the last-but-one column when Numba's
        // simulator did not run).
        let cols: Vec<&str> = line.split_whitespace().collect();
        let x: f64 = cols[cols.len() - 2]
            .parse()
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(x > 0.0, "{line}");
    }
    let geo = lines
        .iter()
        .find(|l| l.starts_with("geomean"))
        .unwrap_or_else(|| panic!("no geometric means: {out}"));
    assert!(
        geo.split_whitespace().any(|c| c.parse::<f64>().is_ok()),
        "{geo}"
    );
    assert!(out.contains("goals:"), "{out}");
}

#[test]
fn suite_json_has_one_row_per_peer_workload_and_size_and_plot_draws_them() {
    let backend = test_backend();
    let svg = std::env::temp_dir().join(format!("rumba-suite-{}.svg", std::process::id()));
    let plot = svg.to_str().expect("utf-8 path");
    let (code, out, err) = bench(&[
        "--suite", "--quick", "--repeat", "1", "--json", "--plot", plot,
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<_> = out.lines().map(row).collect();
    let mut keys: Vec<_> = rows.iter().map(|(p, w, n, _)| (p, w, n)).collect();
    keys.sort();
    let before = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), before, "a (peer, workload, n) twice: {out}");
    assert!(rows.iter().all(|r| r.3), "a wrong result: {out}");
    let peers: Vec<String> = if backend == "opencl" {
        vec!["rumba-opencl".into(), "rust-reference".into()]
    } else {
        // The child run on OpenCL adds peer `opencl` where PoCL is installed.
        vec![format!("rumba-{backend}"), "rust-reference".into()]
    };
    for w in WORKLOADS {
        for p in &peers {
            assert!(
                rows.iter().any(|(rp, rw, _, _)| rp == p && rw == w),
                "no {p} row for {w}: {out}"
            );
        }
    }
    let chart = std::fs::read_to_string(&svg).expect("the chart was written");
    let _ = std::fs::remove_file(&svg);
    assert!(
        chart.starts_with("<svg"),
        "{}",
        &chart[..chart.len().min(200)]
    );
    for w in ["transpose", "sgemm", "rust-reference"] {
        assert!(chart.contains(w), "the chart has no {w}");
    }
}
