//! `rumba selftest`: the library's conformance checks, run on the backend in use (the sim, a GPU
//! through CUDA, or a device through OpenCL), as a table of check, result and time; the exit status is non-zero when any
//! check fails. It is what a user with a new GPU, driver or device runs first.
//!
//! Every check verifies values — what came back from the device, what a second process read and
//! wrote, which callback ran before which — not only that no call returned an error. A check
//! that cannot apply to the backend says so as `skip` with the reason in the table (on OpenCL:
//! what the backend refuses by design, with its own reason — see [`opencl_refusal`]); a kernel
//! that has no form for the backend is a failure, never a skip.
//!
//! | file | checks |
//! |---|---|
//! | [`memory`] | devices, device arrays, copies in every direction and layout, pinned / mapped / managed memory |
//! | [`ordering`] | streams and events, deferred deallocation, out-of-memory recovery |
//! | [`kernels`] | kernels: shared / dynamic shared / local / constant memory, barriers, atomics, faults |
//! | [`interop`] | IPC with a second process, CUDA Array Interface, DLPack |
//! | [`report`] | the table, the progress line and the JSON form |
//!
//! Each check runs on its own thread with a time limit, so a check that hangs (a driver that
//! never completes a stream, say) is reported as a failure and ends the run instead of hanging
//! it. A panic inside a check is caught and reported as that check's failure.
//!
//! This module touches the current backend (through the check modules), stdout/stderr (through
//! [`report`]), and the process table (the IPC check runs this executable again).

pub mod interop;
pub mod kernels;
pub mod memory;
pub mod ordering;
pub mod report;

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Options of `rumba selftest`.
#[derive(Debug, Clone, clap::Args)]
pub struct SelftestArgs {
    /// Print one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Run only the checks whose name contains this text (repeat to select several).
    #[arg(long, value_name = "TEXT")]
    pub filter: Vec<String>,
    /// List the checks and what each verifies, without running them.
    #[arg(long)]
    pub list: bool,
    /// Seconds each check may take before it counts as hung (and the run stops).
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    pub timeout: u64,
    /// Adds a check that always fails (for testing the exit status and the failure report).
    #[arg(long, hide = true)]
    pub inject_failure: bool,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The check passed; the text says what it measured or saw.
    Pass(String),
    /// The check does not apply to this backend or configuration; the text says why.
    Skip(String),
    /// The check failed; the text says what was expected and what was found.
    Fail(String),
}

impl Verdict {
    /// `ok`, `skip` or `FAIL`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass(_) => "ok",
            Verdict::Skip(_) => "skip",
            Verdict::Fail(_) => "FAIL",
        }
    }

    /// The explanation.
    pub fn detail(&self) -> &str {
        match self {
            Verdict::Pass(s) | Verdict::Skip(s) | Verdict::Fail(s) => s,
        }
    }
}

/// Why a check failed: a rumba error on the way, or a value that was not what it should be.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure(pub String);

impl From<rumba::Error> for Failure {
    fn from(e: rumba::Error) -> Self {
        Failure(format!("error: {e}"))
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a check returns: `Ok(Verdict::Pass(..))` or `Ok(Verdict::Skip(..))`, or the failure.
pub type Outcome = Result<Verdict, Failure>;

/// A passing outcome with a detail text.
pub fn pass(detail: impl Into<String>) -> Outcome {
    Ok(Verdict::Pass(detail.into()))
}

/// A skipping outcome with its reason.
pub fn skip(reason: impl Into<String>) -> Outcome {
    Ok(Verdict::Skip(reason.into()))
}

/// The backend the checks run on.
///
/// # Errors
/// When the runtime cannot start (the check fails with it).
pub fn backend() -> Result<rumba::driver::BackendKind, Failure> {
    Ok(rumba::backend_driver()?.backend())
}

/// Sorts out an error from a step the backend may refuse by design: on the opencl backend an
/// [`rumba::Error::Unsupported`] (IPC, the CUDA Array Interface, write-combined memory, mapping
/// existing memory without system SVM) gives its reason, for the check to skip or note; anything
/// else — and any refusal on the sim or CUDA, where every check applies — is the check's failure.
pub fn opencl_refusal(e: rumba::Error) -> Result<String, Failure> {
    match (e, backend()?) {
        (e @ rumba::Error::Unsupported { .. }, rumba::driver::BackendKind::OpenCl) => {
            Ok(e.to_string())
        }
        (e, _) => Err(e.into()),
    }
}

/// [`opencl_refusal`] as the check's outcome: a skip with the backend's reason, or a failure.
pub fn refused(e: rumba::Error) -> Outcome {
    skip(opencl_refusal(e)?)
}

/// Fails the check with a formatted message unless `cond` holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err($crate::selftest::Failure(format!($($fmt)+)));
        }
    };
}

/// Fails the check unless the two values are equal, naming what was compared.
#[macro_export]
macro_rules! ensure_eq {
    ($found:expr, $want:expr, $what:expr) => {{
        let (found, want) = (&$found, &$want);
        if found != want {
            return Err($crate::selftest::Failure(format!(
                "{}: expected {:?}, found {:?}",
                $what, want, found
            )));
        }
    }};
}

/// One conformance check.
#[derive(Clone, Copy)]
pub struct Check {
    /// Dotted name (`area.what`), unique, used by `--filter`.
    pub name: &'static str,
    /// What the check verifies, in one line (`--list`).
    pub about: &'static str,
    /// The check.
    pub run: fn() -> Outcome,
}

/// Every check, in the order they run: foundations first, so a broken copy shows up as such
/// before the checks that rely on copies.
pub fn all_checks() -> Vec<Check> {
    let mut v = Vec::new();
    v.extend(memory::checks());
    v.extend(ordering::checks());
    v.extend(kernels::checks());
    v.extend(interop::checks());
    v
}

/// The result of one check.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// The check's name.
    pub name: &'static str,
    /// What it found.
    pub verdict: Verdict,
    /// How long it ran.
    pub time: Duration,
}

/// Runs `check` on its own thread, catching panics, for at most `limit`; `None` if it did not
/// finish in time (the thread is left behind; the caller stops the run).
fn run_one(check: &Check, limit: Duration) -> Option<CheckResult> {
    let (tx, rx) = mpsc::channel();
    let run = check.run;
    let name = check.name;
    let started = Instant::now();
    let spawned = std::thread::Builder::new()
        .name(format!("selftest {name}"))
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(run));
            let _ = tx.send(outcome);
        });
    if let Err(e) = spawned {
        return Some(CheckResult {
            name,
            verdict: Verdict::Fail(format!("cannot start a thread for the check: {e}")),
            time: Duration::ZERO,
        });
    }
    let outcome = rx.recv_timeout(limit).ok()?;
    let verdict = match outcome {
        Ok(Ok(v)) => v,
        Ok(Err(f)) => Verdict::Fail(f.0),
        Err(panic) => Verdict::Fail(format!("panicked: {}", panic_text(&panic))),
    };
    Some(CheckResult {
        name,
        verdict,
        time: started.elapsed(),
    })
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a non-text panic payload)".into()
    }
}

/// The check that `--inject-failure` adds: it compares a value with a wrong expectation, so the
/// failure path (table, JSON, exit status) can be tested on any backend.
fn injected_failure() -> Outcome {
    let d = rumba::to_device(&[1i32, 2, 3])?;
    let back = d.copy_to_host()?.to_vec();
    ensure_eq!(back, vec![1, 2, 4], "injected failure: values read back");
    pass("unreachable")
}

/// Whether `name` is selected by the `--filter` texts (all names when there are none).
pub fn selected(name: &str, filters: &[String]) -> bool {
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// Runs `rumba selftest`; `Ok(true)` when no check failed.
pub fn run(args: &SelftestArgs) -> rumba::Result<bool> {
    let mut checks = all_checks();
    checks.retain(|c| selected(c.name, &args.filter));
    if args.inject_failure {
        // Whatever the filter: the option exists to see a failure.
        checks.push(Check {
            name: "selftest.injected-failure",
            about: "a check that always fails (hidden option --inject-failure)",
            run: injected_failure,
        });
    }
    if args.list {
        report::list(&checks);
        return Ok(true);
    }
    if checks.is_empty() {
        return Err(rumba::Error::InvalidArgument(format!(
            "no check matches --filter {:?}; `rumba selftest --list` shows their names",
            args.filter
        )));
    }
    let detect = rumba::detect()?;
    let out = report::Reporter::new(args.json, checks.len(), &detect);
    let limit = Duration::from_secs(args.timeout.max(1));
    let mut results = Vec::new();
    for (i, check) in checks.iter().enumerate() {
        out.progress(i, check.name);
        match run_one(check, limit) {
            Some(r) => {
                out.row(&r);
                results.push(r);
            }
            None => {
                let r = CheckResult {
                    name: check.name,
                    verdict: Verdict::Fail(format!(
                        "did not finish within {} s (hung?); the remaining {} check(s) were not run",
                        limit.as_secs(),
                        checks.len() - i - 1
                    )),
                    time: limit,
                };
                out.row(&r);
                results.push(r);
                break;
            }
        }
    }
    out.finish(&results, checks.len());
    Ok(results
        .iter()
        .all(|r| !matches!(r.verdict, Verdict::Fail(_)))
        && results.len() == checks.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_are_unique_and_dotted() {
        let checks = all_checks();
        let mut names: Vec<_> = checks.iter().map(|c| c.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "duplicate check names");
        for c in &checks {
            assert!(c.name.contains('.') && !c.about.is_empty(), "{}", c.name);
        }
    }

    #[test]
    fn filters_select_by_substring() {
        let f = vec!["copy".to_string(), "ipc".to_string()];
        assert!(selected("copy.host-strided", &f));
        assert!(selected("interop.ipc-two-processes", &f));
        assert!(!selected("kernel.atomics", &f));
        assert!(selected("kernel.atomics", &[]));
    }

    #[test]
    fn a_panicking_check_is_a_failure_and_a_slow_one_times_out() {
        let panics = Check {
            name: "t.panics",
            about: "x",
            run: || panic!("boom"),
        };
        let r = run_one(&panics, Duration::from_secs(5)).unwrap();
        assert_eq!(r.verdict, Verdict::Fail("panicked: boom".into()));
        let slow = Check {
            name: "t.slow",
            about: "x",
            run: || {
                std::thread::sleep(Duration::from_secs(3));
                pass("late")
            },
        };
        assert!(run_one(&slow, Duration::from_millis(100)).is_none());
    }
}
