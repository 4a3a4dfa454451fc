//! Running the peer scripts (`scripts/peers/numba_sim.py`, `pocl.py`) with the Python of a
//! virtualenv made by `scripts/peers/setup.sh`, or a GPU peer script (`scripts/gpu/peer_bench.py`)
//! with a given Python, or this program itself on the OpenCL backend ([`opencl`]), and reading
//! their JSON lines.
//!
//! This module touches the file system (to find the scripts and the virtualenv's Python) and
//! runs those processes, reading their stdout; it never writes files.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::Run;

/// The peer scripts' folder inside a clone of the repository.
const IN_REPO: &str = "scripts/peers";

/// Where the peer scripts are: `explicit` if given (it must hold `numba_sim.py`), else the first
/// `scripts/peers` that holds them in the current directory or one above it, then next to the
/// executable or above it (`target/release/rumba` in a clone), then in the repository this binary
/// was built from.
///
/// # Errors
/// A message naming where it looked, when no folder holds the scripts.
pub fn scripts_dir(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return if p.join("numba_sim.py").is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(format!("no numba_sim.py in {}", p.display()))
        };
    }
    let mut starts: Vec<PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        starts.push(dir);
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    find_in(&starts, &built_from).ok_or_else(|| {
        format!(
            "cannot find the peer scripts ({IN_REPO}/ of a rumba clone: looked above the current \
             directory, above the executable and in {}); pass --peers-dir DIR",
            built_from.display()
        )
    })
}

/// The first `scripts/peers` holding `numba_sim.py` in one of `starts` or a folder above it,
/// else in `fallback`.
fn find_in(starts: &[PathBuf], fallback: &Path) -> Option<PathBuf> {
    starts
        .iter()
        .flat_map(|s| s.ancestors())
        .chain(std::iter::once(fallback))
        .map(|dir| dir.join(IN_REPO))
        .find(|c| c.join("numba_sim.py").is_file())
}

/// Runs `script` with `venv/bin/python` and parses every JSON line it prints.
pub fn run(venv: &Path, scripts: &Path, script: &str, args: &[String]) -> Result<Vec<Run>, String> {
    let python = venv.join("bin/python");
    if !python.is_file() {
        return Err(format!(
            "{} does not exist: make the virtualenv with scripts/peers/setup.sh {}",
            python.display(),
            venv.display()
        ));
    }
    run_with(&python, &scripts.join(script), args)
}

/// The peer scripts' `--only` argument: the suite workloads `wanted` keeps, so that a script
/// (Numba's simulator takes seconds a workload) runs only what the caller will read.
pub fn only(wanted: impl Fn(&str) -> bool) -> Vec<String> {
    let names: Vec<&str> = super::suite::WORKLOADS
        .iter()
        .map(|w| w.name)
        .filter(|n| wanted(n))
        .collect();
    vec!["--only".into(), names.join(",")]
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
/// (with `extra` arguments: `--quick`, `--suite`) with `RUMBA_BACKEND=opencl` (the same `#[rumba::kernel]`s, as their generated OpenCL C), its
/// runs renamed to peer `opencl`. Its coroutine rows do not exist (they are the simulator's).
pub fn opencl(repeat: usize, extra: &[String], only: &[String]) -> Result<Vec<Run>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut cmd = Command::new(&exe);
    cmd.args(["bench", "--json", "--repeat", &repeat.to_string()])
        .args(extra)
        .env("RUMBA_BACKEND", "opencl")
        .stderr(std::process::Stdio::inherit());
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

/// Parses one line of the peers' JSON form; `None` for anything else (a warning a script
/// printed, a line with a field missing or of the wrong type).
pub fn parse_line(line: &str) -> Option<Run> {
    serde_json::from_str(line.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_scripts_above_a_folder_of_the_clone() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let inside = repo.join("crates/rumba-cli/src");
        let found = find_in(&[inside], Path::new("/nonexistent")).unwrap();
        assert!(found.join("pocl.py").is_file(), "{}", found.display());
        assert!(find_in(&[PathBuf::from("/")], Path::new("/nonexistent")).is_none());
        let explicit = scripts_dir(Some(&found)).unwrap();
        assert_eq!(explicit, found);
        assert!(scripts_dir(Some(Path::new("/"))).is_err());
    }

    #[test]
    fn parses_the_peers_json() {
        let r = parse_line(r#"{"peer": "pocl", "workload": "vadd", "n": 65536, "seconds": 6.7e-05, "check": true}"#).unwrap();
        assert_eq!(
            (r.peer.as_str(), r.workload.as_str(), r.n, r.check),
            ("pocl", "vadd", 65536, true)
        );
        assert_eq!(r.seconds, 6.7e-05);
        assert!(parse_line("warning: something").is_none());
        // What the hand-written parser got wrong: commas and escapes inside strings, fields in
        // another order, and lines with a field missing.
        let r = parse_line(
            r#"{"check": false, "seconds": 1.5, "n": 3, "workload": "a, \"b\"", "peer": "x"}"#,
        )
        .unwrap();
        assert_eq!((r.workload.as_str(), r.check), ("a, \"b\"", false));
        assert!(parse_line(r#"{"peer": "x", "workload": "y", "n": 1, "seconds": 1.0}"#).is_none());
        // rumba's own lines read back as they were written.
        assert_eq!(parse_line(&r.json()), Some(r));
    }
}
