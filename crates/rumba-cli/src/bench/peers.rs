//! Running the peer scripts (`shared/peers/numba_sim.py`, `pocl.py`) with the Python of a
//! virtualenv made by `shared/peers/setup.sh`, or a GPU peer script (`scripts/gpu/peer_bench.py`)
//! with a given Python, or this program itself on the OpenCL backend ([`opencl`]), and reading
//! their JSON lines.
//!
//! This module touches the file system (to find the scripts and the virtualenv's Python) and
//! runs those processes, reading their stdout; it never writes files.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::Run;

/// Where the peer scripts are: `explicit` if given, else the first of `../shared/peers`,
/// `shared/peers` (from the working directory) and the repository's `../shared/peers` (from
/// where this binary was built) that holds `numba_sim.py`.
pub fn scripts_dir(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return if p.join("numba_sim.py").is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(format!("no numba_sim.py in {}", p.display()))
        };
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/peers");
    let candidates = [
        PathBuf::from("../shared/peers"),
        PathBuf::from("shared/peers"),
        built_from,
    ];
    candidates
        .iter()
        .find(|c| c.join("numba_sim.py").is_file())
        .cloned()
        .ok_or_else(|| {
            "cannot find the peer scripts (looked in ../shared/peers, shared/peers and next to the repository); pass --peers-scripts DIR".into()
        })
}

/// Runs `script` with `venv/bin/python` and parses every JSON line it prints.
pub fn run(venv: &Path, scripts: &Path, script: &str, args: &[String]) -> Result<Vec<Run>, String> {
    let python = venv.join("bin/python");
    if !python.is_file() {
        return Err(format!(
            "{} does not exist: make the virtualenv with shared/peers/setup.sh {}",
            python.display(),
            venv.display()
        ));
    }
    run_with(&python, &scripts.join(script), args)
}

/// Runs `script` with `python` and parses every JSON line it prints. The script's stderr goes to
/// ours (it says which peers it skipped and why). A script that fails after printing some runs
/// keeps them (with a warning); one that printed none is an error.
pub fn run_with(python: &Path, script: &Path, args: &[String]) -> Result<Vec<Run>, String> {
    let out = Command::new(python)
        .arg(script)
        .args(args)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let runs: Vec<Run> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(parse_line)
        .collect();
    if !out.status.success() {
        if runs.is_empty() {
            return Err(format!("{} failed ({})", script.display(), out.status));
        }
        eprintln!(
            "rumba bench: {} exited with {}; keeping the {} run(s) it printed",
            script.display(),
            out.status,
            runs.len()
        );
    }
    Ok(runs)
}

/// The workloads on the OpenCL backend: this very program, run again as `rumba bench --json`
/// with `RUMBA_BACKEND=opencl` (the same `#[rumba::kernel]`s, as their generated OpenCL C), its
/// runs renamed to peer `opencl`. Its coroutine rows do not exist (they are the simulator's).
pub fn opencl(repeat: usize, quick: bool, only: &[String]) -> Result<Vec<Run>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut cmd = Command::new(&exe);
    cmd.args(["bench", "--json", "--repeat", &repeat.to_string()])
        .env("RUMBA_BACKEND", "opencl")
        .stderr(std::process::Stdio::inherit());
    if quick {
        cmd.arg("--quick");
    }
    if !only.is_empty() {
        cmd.arg("--only").arg(only.join(","));
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let runs: Vec<Run> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(parse_line)
        .filter(|r| r.peer == "rumba-opencl")
        .map(|r| Run {
            peer: "opencl".into(),
            ..r
        })
        .collect();
    if runs.is_empty() {
        return Err(format!(
            "the OpenCL run printed no results ({}); is an OpenCL driver (PoCL) installed?",
            out.status
        ));
    }
    Ok(runs)
}

/// Parses one flat JSON object of the peers' form; `None` for anything else.
pub fn parse_line(line: &str) -> Option<Run> {
    let body = line.trim().strip_prefix('{')?.strip_suffix('}')?;
    let (mut peer, mut workload, mut n, mut seconds, mut check) = (None, None, None, None, None);
    for field in body.split(',') {
        let (k, v) = field.split_once(':')?;
        let (k, v) = (k.trim().trim_matches('"'), v.trim());
        match k {
            "peer" => peer = Some(v.trim_matches('"').to_string()),
            "workload" => workload = Some(v.trim_matches('"').to_string()),
            "n" => n = v.parse().ok(),
            "seconds" => seconds = v.parse().ok(),
            "check" => check = Some(v == "true"),
            _ => {}
        }
    }
    Some(Run {
        peer: peer?,
        workload: workload?,
        n: n?,
        seconds: seconds?,
        check: check?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_peers_json() {
        let r = parse_line(r#"{"peer": "pocl", "workload": "vadd", "n": 65536, "seconds": 6.7e-05, "check": true}"#).unwrap();
        assert_eq!(
            (r.peer.as_str(), r.workload.as_str(), r.n, r.check),
            ("pocl", "vadd", 65536, true)
        );
        assert_eq!(r.seconds, 6.7e-05);
        assert!(parse_line("warning: something").is_none());
    }
}
