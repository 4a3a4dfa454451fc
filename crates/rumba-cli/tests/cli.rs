//! The `rumba` command as a user runs it.
//!
//! The command runs on the sim unless `RUMBA_TEST_BACKEND=cuda` or `=opencl`: then the
//! backend-dependent tests (selftest, bench, ipc) run it with that `RUMBA_BACKEND`, and where the
//! backend cannot be used this test binary says `SKIPPED` with the reason and exits successfully
//! without running its tests (with `RUMBA_REQUIRE_OPENCL=1`, an unusable OpenCL fails it). A test
//! that cannot apply to the backend (IPC on OpenCL) says `SKIPPED <test> on <backend>: <why>`.
//! Tests of what only the sim has (simulated device counts and sizes, fault reports) always ask
//! for the sim.
//!
//! `RUMBA_BIN` points the tests at a `rumba` executable other than the one cargo built next to
//! them (the GPU kit carries both to a machine without cargo).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Once;

fn exe() -> std::path::PathBuf {
    std::env::var_os("RUMBA_BIN")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_rumba").into())
}

/// `sim`, `cuda` or `opencl`, from `RUMBA_TEST_BACKEND`; with `cuda` or `opencl`, ends the binary
/// (successfully, saying why) when `rumba` cannot use that backend here, except that with
/// `RUMBA_REQUIRE_OPENCL=1` an unusable OpenCL fails instead (CI installs PoCL).
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
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {}: RUMBA_TEST_BACKEND={backend}, but {}",
                std::env::args().next().unwrap_or_default(),
                why.trim()
            );
            std::process::exit(0);
        }
    });
    backend
}

fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(exe());
    cmd.args(args);
    for var in [
        "RUMBA_BACKEND",
        "RUMBA_SIM_MEMORY",
        "RUMBA_SIM_DEVICES",
        "RUMBA_MAX_PENDING_DEALLOCS_COUNT",
        "RUMBA_MAX_PENDING_DEALLOCS_RATIO",
        "RUMBA_MEMORY_MANAGER",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("RUMBA_BACKEND", "sim");
    // What the CLI writes to the temporary folder (the demo's memory history) stays in target/.
    cmd.env("TMPDIR", scratch());
    cmd.envs(env.iter().copied());
    cmd
}

/// The test target's temporary folder, made if missing (a copy of the test executable run on
/// another machine, as the GPU kit does, finds no `target/` there).
fn scratch() -> &'static str {
    let dir = env!("CARGO_TARGET_TMPDIR");
    std::fs::create_dir_all(dir).expect("create the tests' temporary folder");
    dir
}

/// Runs `rumba` on the sim (unless `env` sets `RUMBA_BACKEND`); returns status, stdout, stderr.
fn rumba(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = command(args, env).output().expect("run rumba");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `rumba` on the test backend.
fn rumba_on_test_backend(args: &[&str]) -> (i32, String, String) {
    rumba(args, &[("RUMBA_BACKEND", test_backend())])
}

#[test]
fn detect_prints_the_backend_and_devices() {
    let (code, out, err) = rumba(
        &["detect"],
        &[("RUMBA_SIM_DEVICES", "2"), ("RUMBA_SIM_MEMORY", "512MiB")],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("backend sim"), "{out}");
    assert!(out.contains("id 0") && out.contains("id 1"), "{out}");
    assert!(out.contains("512.0 MiB total"), "{out}");
    // The chain of memory resources, down to the driver's allocator.
    assert!(
        out.contains("memory resources: manager 'default': DeferredAdaptor → LimitingAdaptor (no limit) → driver (device 0: sim: simulated device memory (mem_alloc / mem_free))"),
        "{out}"
    );
    // The CUDA libraries of the machine, whatever the backend: the driver's version (or why
    // there is none) and the NVRTC library rumba would use (or what it looked for).
    if out.contains("CUDA: not built in") {
        return;
    }
    let driver = out
        .lines()
        .find(|l| l.starts_with("CUDA driver: "))
        .unwrap_or_else(|| panic!("no CUDA driver line in:\n{out}"));
    assert!(
        driver.contains("CUDA driver: CUDA ")
            || driver.contains("CUDA driver: none (no NVIDIA driver library (libcuda.so.1"),
        "{driver}"
    );
    let nvrtc = out
        .lines()
        .find(|l| l.starts_with("NVRTC"))
        .unwrap_or_else(|| panic!("no NVRTC line in:\n{out}"));
    assert!(
        (nvrtc.starts_with("NVRTC 1") && nvrtc.contains("libnvrtc.so"))
            || nvrtc.contains("none, so no kernel can be compiled (tried libnvrtc.so.13: "),
        "{nvrtc}"
    );
}

#[test]
fn auto_picks_cuda_or_falls_back_to_the_sim_and_says_why() {
    let (code, out, err) = rumba(&["detect"], &[("RUMBA_BACKEND", "auto")]);
    assert_eq!(code, 0, "{err}");
    if out.contains("on backend cuda") {
        // A driver and a device: auto chose CUDA, and the devices are real GPUs.
        assert!(out.contains("compute capability: "), "{out}");
        assert!(!out.contains("CUDA not used"), "{out}");
    } else {
        assert!(out.contains("on backend sim"), "{out}");
        assert!(out.contains("CUDA not used:"), "{out}");
    }
}

#[test]
fn malformed_variables_exit_non_zero_naming_the_variable() {
    for (var, value, form) in [
        ("RUMBA_BACKEND", "gpu", "one of sim, cuda, opencl, auto"),
        ("RUMBA_OPENCL_PLATFORM", "a;b", "fragment of the name"),
        ("RUMBA_OPENCL_MEMORY", "lots", "byte size"),
        ("RUMBA_SIM_MEMORY", "lots", "byte size"),
        ("RUMBA_SIM_DEVICES", "zero", "whole number"),
        ("RUMBA_MAX_PENDING_DEALLOCS_COUNT", "ten", "whole number"),
        ("RUMBA_MAX_PENDING_DEALLOCS_RATIO", "2", "fraction"),
        ("RUMBA_MEMORY_MANAGER", "a b", "name of a memory manager"),
        // Well-formed, but no manager has that name: refused when the runtime starts, so by
        // every entry point, not only by the first allocation.
        (
            "RUMBA_MEMORY_MANAGER",
            "nonsense",
            "registered memory manager: ",
        ),
        ("RUMBA_MEMORY_LIMIT", "lots", "byte size"),
        ("RUMBA_CUDA_ARRAY_INTERFACE_SYNC", "yes", "1 (synchronize"),
        ("RUMBA_PER_THREAD_DEFAULT_STREAM", "on", "0"),
    ] {
        let (code, _, err) = rumba(&["detect"], &[(var, value)]);
        assert_eq!(code, 2, "{var}={value}: {err}");
        assert!(err.contains(var) && err.contains(form), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn cuda_requested_is_used_or_refused_with_a_typed_error() {
    let (code, out, err) = rumba(&["detect"], &[("RUMBA_BACKEND", "cuda")]);
    if code == 0 {
        assert!(out.contains("on backend cuda"), "{out}");
    } else {
        // No driver, no device, or a build without the `cuda` feature: exit 2, saying which.
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("backend 'cuda' is unavailable"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn demo_runs_and_reports_each_step() {
    let (code, out, err) = rumba(
        &["demo"],
        &[("RUMBA_BACKEND", "sim"), ("RUMBA_SIM_MEMORY", "1GiB")],
    );
    assert_eq!(code, 0, "{err}");
    for step in [
        "copy 64 MiB host -> device",
        "data intact: true",
        "deferred deallocation",
        "out of memory",
        "async_done() resolved",
    ] {
        assert!(out.contains(step), "missing {step:?} in:\n{out}");
    }
}

#[test]
fn detect_memory_prints_the_limit_and_the_pool_statistics_and_snapshot() {
    let (code, out, err) = rumba(
        &["detect", "--memory"],
        &[
            ("RUMBA_MEMORY_MANAGER", "pool"),
            ("RUMBA_SIM_MEMORY", "256MiB"),
            ("RUMBA_MEMORY_LIMIT", "64MiB"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("memory manager: pool"), "{out}");
    assert!(out.contains("memory limit: 67108864 bytes"), "{out}");
    assert!(
        out.contains("reserved:") && out.contains("segment(s)"),
        "{out}"
    );
    let (code, out, _) = rumba(
        &["detect", "--memory"],
        &[("RUMBA_MEMORY_MANAGER", "default")],
    );
    assert_eq!(code, 0);
    assert!(out.contains("memory manager: default"), "{out}");
    assert!(out.contains("memory limit: none"), "{out}");
}

#[test]
fn bench_prints_the_peers_json_form() {
    let backend = test_backend();
    let (code, out, err) = rumba_on_test_backend(&["bench", "--quick", "--repeat", "1", "--json"]);
    assert_eq!(code, 0, "{err}");
    // The kernels in the form the backend runs (the block bodies on the sim's work-item loops,
    // the generated C on CUDA and OpenCL), then, on the sim only, the per-thread bodies on
    // coroutines, then the cost of one empty launch; on CUDA, cudarc's own launch may follow.
    let suite = [
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
    let mut workloads: Vec<String> = suite.iter().map(|w| w.to_string()).collect();
    if backend == "sim" {
        workloads.extend(suite.iter().map(|w| format!("{w}-coroutines")));
    }
    workloads.push("launch".into());
    let peer = format!(r#"{{"peer": "rumba-{backend}", "#);
    let (ours, others): (Vec<&str>, Vec<&str>) = out.lines().partition(|l| l.starts_with(&peer));
    assert_eq!(ours.len(), workloads.len(), "{out}");
    for (line, workload) in ours.iter().zip(workloads) {
        let start = format!(r#"{peer}"workload": "{workload}", "#);
        assert!(line.starts_with(&start), "{line}");
        assert!(line.ends_with(r#""check": true}"#), "{line}");
    }
    let cudarc = |l: &&str| backend == "cuda" && l.starts_with(r#"{"peer": "cudarc", "#);
    assert!(others.iter().all(cudarc), "{out}");
}

#[test]
fn bench_runs_only_the_named_workloads() {
    let (code, out, err) = rumba_on_test_backend(&[
        "bench",
        "--quick",
        "--repeat",
        "1",
        "--json",
        "--only",
        "reduce_warp",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].contains(r#""workload": "reduce_warp", "n": 16384"#),
        "{out}"
    );
    assert!(lines[0].ends_with(r#""check": true}"#), "{out}");
}

#[test]
fn demo_shows_a_kernel_and_a_caught_fault() {
    let (code, out, err) = rumba(&["demo"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sum 524288 (expected 524288)"), "{out}");
    assert!(
        out.contains("kernel 'oob' faulted in block (0, 0, 0) thread (3, 0, 0)"),
        "{out}"
    );
}

#[test]
fn detect_lists_opencl_and_without_it_still_works() {
    // A build without the `opencl` feature says so, and refuses the backend naming the feature.
    let (code, out, err) = rumba(&["detect"], &[]);
    assert_eq!(code, 0, "{err}");
    if out.contains("OpenCL: not built in") {
        let (code, _, err) = rumba(&["detect"], &[("RUMBA_BACKEND", "opencl")]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("backend 'opencl' is unavailable")
                && err.contains("`opencl` cargo feature"),
            "{err}"
        );
        return;
    }
    let empty = std::env::temp_dir().join(format!("rumba-cli-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let none = empty.to_str().unwrap();
    // No OpenCL platform: detect still works on the default backend and says why.
    let (code, out, err) = rumba(&["detect"], &[("OCL_ICD_VENDORS", none)]);
    assert_eq!(code, 0, "{err}");
    if !out.contains("OpenCL: unavailable")
        && std::env::var("RUMBA_TEST_BACKEND").as_deref() == Ok("cuda")
    {
        // Seen on the GPU machines: their OpenCL loader ignores OCL_ICD_VENDORS, so OpenCL
        // cannot be hidden there. CI's loader honours it, and the check below runs there.
        eprintln!(
            "SKIPPED detect_lists_opencl_and_without_it_still_works on cuda: this machine's OpenCL loader ignores OCL_ICD_VENDORS"
        );
        return;
    }
    assert!(out.contains("OpenCL: unavailable"), "{out}");
    // Asking for OpenCL there is a typed refusal (exit 2), not a panic.
    let (code, _, err) = rumba(
        &["detect"],
        &[("OCL_ICD_VENDORS", none), ("RUMBA_BACKEND", "opencl")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("backend 'opencl' is unavailable"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir(&empty);
    // With an OpenCL platform (PoCL in CI), the listing names what rumba needs.
    let (code, out, _) = rumba(&["detect"], &[]);
    assert_eq!(code, 0);
    if out.contains("OpenCL: unavailable") {
        eprintln!("SKIPPED the OpenCL listing part: {out}");
        return;
    }
    assert!(out.contains("shared virtual memory:"), "{out}");
    assert!(out.contains("usable by rumba:"), "{out}");
    let (code, out, err) = rumba(&["detect"], &[("RUMBA_BACKEND", "opencl")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("on backend opencl"), "{out}");
}

// ---------------------------------------------------------------- selftest

/// The names `rumba selftest --list` prints.
fn check_names() -> Vec<String> {
    let (code, out, err) = rumba(&["selftest", "--list"], &[]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn selftest_lists_its_checks() {
    let names = check_names();
    for area in [
        "device.", "array.", "copy.", "host.", "stream.", "event.", "dealloc.", "oom.", "kernel.",
        "interop.",
    ] {
        assert!(
            names.iter().any(|n| n.starts_with(area)),
            "no {area} check in {names:?}"
        );
    }
    assert!(names.iter().all(|n| n != "selftest.injected-failure"));
}

#[test]
fn selftest_passes_and_prints_the_table() {
    let names = check_names();
    // PoCL (the opencl backend here) runs work-groups on several threads, and then now and then
    // one work-group's `__local` counts show another's in `kernel.barrier-values` (about 1 run in
    // 100; never in 150 runs on one thread). That is PoCL's race, not rumba's: one PoCL thread
    // keeps this test about rumba. The variable means nothing to the other backends.
    let (code, out, err) = rumba(
        &["selftest"],
        &[
            ("RUMBA_BACKEND", test_backend()),
            ("POCL_MAX_PTHREAD_COUNT", "1"),
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.starts_with(&format!("rumba selftest on backend {}", test_backend())),
        "{out}"
    );
    let header = out
        .lines()
        .find(|l| l.starts_with("check"))
        .unwrap_or_else(|| panic!("no table header in\n{out}"));
    assert!(
        header.contains("result") && header.contains("time"),
        "{header}"
    );
    for name in &names {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name.as_str()))
            .unwrap_or_else(|| panic!("no row for {name} in\n{out}"));
        let result = row.split_whitespace().nth(1);
        assert!(matches!(result, Some("ok" | "skip")), "{row}");
    }
    assert!(
        out.contains(&format!("{} check(s): ", names.len())) && out.contains(" 0 failed"),
        "{out}"
    );
    // Not a terminal: no progress line on stderr.
    assert!(!err.contains('\r'), "{err:?}");
}

#[test]
fn a_failing_check_gives_a_non_zero_exit_and_its_details() {
    let (code, out, err) =
        rumba_on_test_backend(&["selftest", "--filter", "device.info", "--inject-failure"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("selftest.injected-failure"))
        .unwrap_or_else(|| panic!("no row for the injected check in\n{out}"));
    assert!(row.contains("FAIL"), "{row}");
    assert!(out.contains("1 passed, 1 failed"), "{out}");
    assert!(
        out.contains("FAIL selftest.injected-failure:")
            && out.contains("expected [1, 2, 4], found [1, 2, 3]"),
        "{out}"
    );
    let (code, out, _) = rumba_on_test_backend(&[
        "selftest",
        "--json",
        "--filter",
        "device.info",
        "--inject-failure",
    ]);
    assert_eq!(code, 1);
    assert!(
        out.contains(r#""result": "fail""#) && out.contains(r#""failed": 1"#),
        "{out}"
    );
}

#[test]
fn selftest_json_and_filter() {
    let (code, out, err) = rumba_on_test_backend(&["selftest", "--json", "--filter", "copy."]);
    assert_eq!(code, 0, "{out}\n{err}");
    let line = out.trim();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        line.starts_with(&format!(r#"{{"backend": "{}""#, test_backend())),
        "{line}"
    );
    assert!(line.contains(r#""name": "copy.pinned""#), "{line}");
    assert!(!line.contains(r#""name": "kernel."#), "{line}");
    assert!(line.contains(r#""failed": 0"#), "{line}");
    let (code, _, err) = rumba(&["selftest", "--filter", "no-such-check"], &[]);
    assert_ne!(code, 0);
    assert!(err.contains("no check matches"), "{err}");
}

// ---------------------------------------------------------------- ipc

#[test]
fn ipc_export_and_open_share_one_array_between_processes() {
    if test_backend() == "opencl" {
        // Straight to the process's stderr: the test harness captures `eprintln!`.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED ipc_export_and_open_share_one_array_between_processes on opencl: OpenCL has no inter-process memory sharing"
        );
        return;
    }
    let mut export = command(
        &[
            "ipc",
            "export",
            "--dtype",
            "f32",
            "--shape",
            "4,6",
            "--strided",
        ],
        &[("RUMBA_BACKEND", test_backend())],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .spawn()
    .expect("start rumba ipc export");
    let mut lines = BufReader::new(export.stdout.take().expect("stdout")).lines();
    let handle = lines.next().expect("a handle line").expect("read");
    let handle = handle
        .strip_prefix("handle: ")
        .expect("handle: …")
        .to_string();
    let cai = lines.next().expect("a cai line").expect("read");
    assert!(
        cai.starts_with("cai: {") && cai.contains("'strides': (24, 8)"),
        "{cai}"
    );
    // [1:, ::2] of a 4x6 array holding 0..24.
    let want = [6.0f32, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 22.0];
    let (code, out, err) = rumba(
        &["ipc", "open", &handle, "--scale", "2", "--shift", "-1"],
        &[("RUMBA_BACKEND", test_backend())],
    );
    assert_eq!(code, 0, "{err}");
    let read: Vec<f32> = out
        .lines()
        .find_map(|l| l.strip_prefix("values: "))
        .expect("values")
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(read, want);
    assert!(out.contains("written"), "{out}");
    writeln!(export.stdin.as_mut().expect("stdin")).expect("signal the exporter");
    let values = lines.next().expect("a values line").expect("read");
    let after: Vec<f32> = values
        .strip_prefix("values: ")
        .expect("values: …")
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(after, want.map(|v| 2.0 * v - 1.0));
    assert!(export.wait().expect("exporter exit").success());
}

#[test]
fn arguments_out_of_range_get_a_message_and_exit_status_2() {
    // Issue 24 item 9: huge shapes aborted (the host copy could not be allocated) or overflowed,
    // and a huge --repeat panicked. Every argument the command cannot honour is one message
    // naming it and exit status 2 — never a panic (101) or a signal.
    let sim = [("RUMBA_SIM_MEMORY", "64MiB")];
    let cases: &[(&[&str], &str)] = &[
        (&["ipc", "export", "--shape", "1000000000000"], "--shape"),
        (
            &["ipc", "export", "--shape", "18446744073709551615,2"],
            "--shape",
        ),
        (
            &["ipc", "export", "--shape", "99999999999999999999"],
            "--shape",
        ),
        (&["ipc", "export", "--shape", "4,,6"], "--shape"),
        (
            &[
                "ipc",
                "export",
                "--shape",
                "100000,100000",
                "--dtype",
                "i64",
            ],
            "--shape",
        ),
        (&["ipc", "export", "--dtype", "f16"], "--dtype"),
        (
            &["ipc", "export", "--shape", "2,3,4", "--strided"],
            "--strided",
        ),
        (&["bench", "--repeat", "18446744073709551615"], "--repeat"),
        (&["bench", "--repeat", "0"], "--repeat"),
        (
            &["selftest", "--timeout", "99999999999999999999"],
            "--timeout",
        ),
        (
            &["selftest", "--filter", "no-check-has-this-name"],
            "--filter",
        ),
        (&["ipc", "open", "not-a-handle"], "IPC array handle"),
        (&["ipc", "open", "x", "--scale", "y"], "--scale"),
    ];
    for (args, names) in cases {
        let (code, _, err) = rumba(args, &sim);
        assert_eq!(code, 2, "rumba {args:?}: exit status {code}, stderr: {err}");
        assert!(
            err.contains(names) && !err.contains("panicked"),
            "rumba {args:?}: the message names {names:?}: {err}"
        );
    }
}
