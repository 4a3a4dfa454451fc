//! How `rumba selftest` shows its results: a header naming the backend and devices, one table
//! row per check as it finishes (check, result, time, what it saw), a summary, and the details of
//! every failure; or, with `--json`, one JSON document at the end (serialized by serde, laid out
//! as the bench's lines are: [`crate::json`]).
//!
//! While a check runs, a progress line (`[ 3/27] copy.pinned …`) is written to stderr — only when
//! stderr is a terminal, so logs and pipes get plain output.
//!
//! This module touches stdout and stderr only.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use serde::Serialize;

use super::{Check, CheckResult, Verdict};

/// Width of the check-name column.
const NAME: usize = 30;
/// The longest detail shown in a table row; failures are repeated in full after the table.
const DETAIL: usize = 110;

/// Prints the checks and what each verifies.
pub fn list(checks: &[Check]) {
    for c in checks {
        println!("{:<NAME$} {}", c.name, c.about);
    }
}

/// Writes the rows and the progress line of one run.
pub struct Reporter {
    json: bool,
    total: usize,
    progress: bool,
    backend: String,
    devices: Vec<String>,
}

impl Reporter {
    /// Prints the header (table mode) for a run of `total` checks on the backend `detect` names.
    pub fn new(json: bool, total: usize, detect: &rumba::DetectReport) -> Reporter {
        let devices: Vec<String> = detect
            .devices
            .iter()
            .map(|(d, _)| {
                format!(
                    "{} ({} MiB{})",
                    d.name,
                    d.total_memory >> 20,
                    d.compute_capability
                        .map(|(a, b)| format!(", compute {a}.{b}"))
                        .unwrap_or_default()
                )
            })
            .collect();
        let r = Reporter {
            json,
            total,
            progress: !json && std::io::stderr().is_terminal(),
            backend: detect.backend.to_string(),
            devices,
        };
        if !json {
            println!(
                "rumba selftest on backend {}: {} device(s): {}",
                r.backend,
                r.devices.len(),
                r.devices.join("; ")
            );
            if let Some(why) = &detect.fallback_reason {
                println!("(CUDA not used: {why})");
            }
            println!();
            println!("{:<NAME$} {:<6} {:>10}  detail", "check", "result", "time");
            println!("{}", "-".repeat(NAME + 20 + 40));
        }
        r
    }

    /// Shows that check `i` (0-based) is running.
    pub fn progress(&self, i: usize, name: &str) {
        if self.progress {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K[{:>2}/{}] {name} …", i + 1, self.total);
            let _ = e.flush();
        }
    }

    fn clear_progress(&self) {
        if self.progress {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K");
            let _ = e.flush();
        }
    }

    /// Prints one finished check (table mode).
    pub fn row(&self, r: &CheckResult) {
        if self.json {
            return;
        }
        self.clear_progress();
        let detail = one_line(r.verdict.detail());
        println!(
            "{:<NAME$} {:<6} {:>10}  {}",
            r.name,
            r.verdict.word(),
            fmt_time(r.time),
            shorten(&detail, DETAIL)
        );
        let _ = std::io::stdout().flush();
    }

    /// Prints the summary (and every failure in full), or the JSON document.
    pub fn finish(&self, results: &[CheckResult], planned: usize) {
        self.clear_progress();
        let count = |w: &str| results.iter().filter(|r| r.verdict.word() == w).count();
        let (ok, skipped, failed) = (count("ok"), count("skip"), count("FAIL"));
        let not_run = planned - results.len();
        if self.json {
            println!("{}", json(&self.backend, &self.devices, results, not_run));
            return;
        }
        println!();
        println!(
            "{} check(s): {ok} passed, {failed} failed, {skipped} skipped{}",
            results.len(),
            if not_run > 0 {
                format!(", {not_run} not run")
            } else {
                String::new()
            }
        );
        for r in results {
            if let Verdict::Fail(why) = &r.verdict {
                println!("\nFAIL {}:\n  {}", r.name, why.replace('\n', "\n  "));
            }
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

/// A duration in a readable unit.
pub fn fmt_time(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.0} µs")
    } else if us < 1e6 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// One check in the JSON form.
#[derive(Serialize)]
struct CheckJson<'a> {
    name: &'a str,
    result: &'static str,
    seconds: f64,
    detail: &'a str,
}

/// The JSON form's document.
#[derive(Serialize)]
struct ReportJson<'a> {
    backend: &'a str,
    devices: &'a [String],
    checks: Vec<CheckJson<'a>>,
    passed: usize,
    failed: usize,
    skipped: usize,
    not_run: usize,
}

/// The JSON form: backend, devices, one object per check, and the counts.
pub fn json(backend: &str, devices: &[String], results: &[CheckResult], not_run: usize) -> String {
    let count = |w: &str| results.iter().filter(|r| r.verdict.word() == w).count();
    crate::json::to_line(&ReportJson {
        backend,
        devices,
        checks: results
            .iter()
            .map(|r| CheckJson {
                name: r.name,
                result: match r.verdict {
                    Verdict::Pass(_) => "pass",
                    Verdict::Skip(_) => "skip",
                    Verdict::Fail(_) => "fail",
                },
                seconds: r.time.as_secs_f64(),
                detail: r.verdict.detail(),
            })
            .collect(),
        passed: count("ok"),
        failed: count("FAIL"),
        skipped: count("skip"),
        not_run,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_counts() {
        let results = vec![
            CheckResult {
                name: "a.b",
                verdict: Verdict::Pass("said \"hi\"\n".into()),
                time: Duration::from_millis(2),
            },
            CheckResult {
                name: "c.d",
                verdict: Verdict::Fail("no\\".into()),
                time: Duration::from_micros(5),
            },
        ];
        let j = json("sim", &["dev".into()], &results, 1);
        assert!(j.contains(r#""detail": "said \"hi\"\n""#), "{j}");
        assert!(j.contains(r#""detail": "no\\""#), "{j}");
        assert!(
            j.ends_with(r#""passed": 1, "failed": 1, "skipped": 0, "not_run": 1}"#),
            "{j}"
        );
        let parsed: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(parsed["checks"][0]["detail"], "said \"hi\"\n");
        assert_eq!(parsed["checks"][1]["result"], "fail");
        assert_eq!(parsed["devices"][0], "dev");
    }

    #[test]
    fn times_and_details_are_short() {
        assert_eq!(fmt_time(Duration::from_micros(12)), "12 µs");
        assert_eq!(fmt_time(Duration::from_millis(12)), "12.0 ms");
        assert_eq!(fmt_time(Duration::from_secs(3)), "3.00 s");
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(one_line(" a\n  b "), "a b");
    }
}
