#!/usr/bin/env python3
"""First contact with a GPU machine: one command that says everything, in a bounded time.

    scripts/gpu/run-suite.sh first-contact          (or: python3 scripts/gpu/first_contact.py)

Runs from the repository root with the kit of scripts/gpu/build-kit.sh (KIT, default gpu-kit),
in this order, each part with its own time cap and the whole within FC_BUDGET seconds (default
460, under the 8 minutes one call may take with room for the machine's start):

1. versions  machine (uname, CPUs), nvidia-smi, libcuda, every libnvrtc found (CUDA toolkits and
             the Python wheels' nvidia/cu13/lib and nvidia/cuda_nvrtc/lib, all put on
             LD_LIBRARY_PATH, newest first), the Python peers (numpy, CuPy, Numba, numba-cuda,
             PyTorch, cuda.core, cuda.bindings) and the kit's MANIFEST
2. detect    `rumba detect` on CUDA (driver version, NVRTC in use, devices, memory resources)
3. selftest  `rumba selftest` on CUDA
4. tests     the behaviour-test executables with RUMBA_TEST_BACKEND=cuda, most telling first
             (streams, events, copies, kernels, faults, memory, interop, …), each with its own
             cap; executables that cannot say anything about CUDA are listed as not run, why
5. bench     `rumba bench --quick` on CUDA beside CuPy and Numba-CUDA (peer_bench.py) and cudarc
6. peers     scripts/gpu/peer_ipc.py: IPC both ways, CUDA Array Interface, DLPack

Everything goes to $OUT (default gpu-out): one log per part (the executables' logs packed in
tests.tar.gz), results.json, and report.md — rewritten after every part, so a run cut short still leaves a
complete report of what ran. Its first line is `N passed, N failed, N skipped` over everything
that ran (selftest checks, tests, peer checks; detect and bench count as one check each; a
test that said `SKIPPED … on cuda` and an executable not run count as skipped); then the commit,
machine, versions, each failure with its first lines, the bench table and the details. Commit it
as docs/gpu-runs/<date>-<gpu>.md (the report names the file) before anything else.

Without a usable CUDA device the report says so after `detect`, and the GPU parts are listed as
not run: a dry run on a machine without a GPU takes seconds. FC_BACKEND=sim (or opencl) runs
every part on that backend instead, to try the machinery without a GPU. FC_TESTS=a,b runs only
those test executables (a second run of what failed). FC_TEST_THREADS=1 runs each executable's
tests one at a time, so a log names the test that hung (libtest prints a test's name as it starts
it). FC_CAP=S caps every executable at S seconds. FC_TEST_ARGS="--nocapture" passes more arguments to
every executable (with one thread, a hung test's own output then shows where it stopped). FC_BENCH="ARGS" replaces the bench's
`--quick --repeat 3` (e.g. FC_BENCH="--repeat 5" for every size, the copies included) and
FC_BENCH_CAP=S gives it S seconds. --nvrtc-dirs prints the NVRTC folders found and exits
(run-suite.sh's other parts use it).

At most eight files come back from a device call, so the per-executable logs are also packed
into $OUT/tests.tar.gz after each executable (they are written outside $OUT, in $OUT.tests/).
"""
import glob
import json
import os
import platform
import re
import signal
import site
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# The executables in the order they tell most about a first CUDA run: streams, events and copies
# (the driver's basic operations), then kernels (NVRTC, launch, the fault record), then memory
# management, host memory, interop, and the rest. Anything in the kit not named here and not in
# NOT_ON_CUDA runs last, in name order.
ORDER = [
    "streams", "events", "stream_graph", "transfer_copy", "device_array_copy", "kernel_launch",
    "kernel_exec", "kernel_exec_faults", "kernel_macro", "device_array_assign", "device_array_slicing",
    "device_array_shape", "host_transfer", "host_arrays", "deallocation", "memory_resources",
    "kernel_views", "kernel_atomics", "kernel_const", "kernel_types", "kernel_f16", "kernel_warp",
    "kernel_stack", "kernel_capture", "kernel_zero_copy", "kernel_macro_wil", "kernel_macro_regions",
    "kernel_wil",
    "interop_cai", "interop_dlpack", "interop_ipc", "interop_ipc_pool", "interop_smart",
    "interop_cai_host", "interop_cai_nosync", "host_guards", "host_grained", "pool_streams",
    "pool_limits", "pool_pinned", "pool_random", "out_of_memory", "memory_manager",
    "memory_foreign_manager", "memory_reset", "deallocation_ratio", "streams_per_thread",
    "threads", "devices", "soundness_queue", "soundness_input", "soundness_panics", "numba_table",
    "nvrtc", "cli",
]
# Executables that say nothing about CUDA, and why (listed in the report as not run).
NOT_ON_CUDA = {
    "kernel_macro_ui": "compile-error tests (trybuild): they need cargo, which the GPU machine lacks",
    "layout_cases": "pure layout arithmetic, no device",
    "layout_props": "pure layout properties, no device",
    "kernel_warp_engine": "the host kernel engine's own warp tests, no device",
    "kernel_wil_leases": "the host kernel engine's leases, no device",
    "golden": "generated source text compared with files, no device",
    "props_opencl": "OpenCL C properties (PoCL), not CUDA",
    "opencl": "the OpenCL backend",
    "kernel_opencl": "the OpenCL backend",
    "soak": "a long soak: run it on its own when there is time",
    "soak_pool": "a long soak: run it on its own when there is time",
    "memory_history": "its backtraces need symbols, which the kit strips (run it with cargo)",
    "memviz": "its backtraces need symbols, which the kit strips (run it with cargo)",
}
# Seconds each executable may take: the first ones a little more (NVRTC compiles their kernels).
CAP_FIRST, CAP_REST, N_FIRST = 60, 40, 8
# Seconds kept for the parts after the tests.
RESERVE = {"bench": int(os.environ.get("FC_BENCH_CAP", "80")), "peers": 50}
if os.environ.get("FC_CAP"):
    CAP_FIRST = CAP_REST = int(os.environ["FC_CAP"])


def now():
    return time.monotonic()


class Run:
    def __init__(self, out, budget):
        self.out = out
        self.start = now()
        self.deadline = self.start + budget
        self.budget = budget
        self.parts = {}      # name -> dict(status, seconds, summary)
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        self.failures = []   # (where, first lines)
        self.sections = []   # (title, markdown)
        self.header = {}
        self.tests = []      # rows of the tests table
        self.skips = []      # "executable: SKIPPED line" of tests that said why they skipped
        self.not_run = []    # (what, why)

    def left(self):
        return self.deadline - now()

    def count(self, passed=0, failed=0, skipped=0):
        self.counts["passed"] += passed
        self.counts["failed"] += failed
        self.counts["skipped"] += skipped

    def fail(self, where, text, lines=15):
        body = "\n".join(text.strip("\n").splitlines()[:lines])
        self.failures.append((where, body))

    def write(self):
        c = self.counts
        md = ["%d passed, %d failed, %d skipped" % (c["passed"], c["failed"], c["skipped"]), ""]
        h = self.header
        gpu = h.get("gpu", "no GPU")
        md.append("# First contact: %s, %s" % (gpu, h.get("date", "")))
        md.append("")
        md.append("Commit this report as `docs/gpu-runs/%s.md` before anything else." % h.get("file", "run"))
        md.append("")
        for key in ("kit", "machine", "gpus", "driver", "libcuda", "nvrtc found", "nvrtc used",
                    "python", "peers", "backend", "elapsed"):
            if key in h:
                md.append("- **%s**: %s" % (key, h[key]))
        md.append("")
        md.append("| part | result | seconds | log |")
        md.append("|---|---|---|---|")
        for name, p in self.parts.items():
            md.append("| %s | %s | %.0f | %s |" % (name, p["summary"], p["seconds"], p.get("log", "")))
        md.append("")
        md.append("## Failures (%d)" % len(self.failures))
        md.append("")
        if not self.failures:
            md.append("None.")
            md.append("")
        for where, body in self.failures:
            md.append("### %s" % where)
            md.append("")
            md.append("```text")
            md.append(body.replace("```", "'''"))
            md.append("```")
            md.append("")
        if self.not_run:
            md.append("## Not run")
            md.append("")
            for what, why in self.not_run:
                md.append("- %s: %s" % (what, why))
            md.append("")
        if self.skips:
            md.append("## Skipped, with the reasons the tests gave (%d)" % len(self.skips))
            md.append("")
            md.extend("- " + line.replace("|", "/") for line in self.skips)
            md.append("")
        if self.tests:
            md.append("## Behaviour tests")
            md.append("")
            md.append("| executable | exit | seconds | passed | failed | skipped | note |")
            md.append("|---|---|---|---|---|---|---|")
            md.extend(self.tests)
            md.append("")
        for title, text in self.sections:
            md.append("## %s" % title)
            md.append("")
            md.append(text.rstrip())
            md.append("")
        tmp = os.path.join(self.out, "report.md.tmp")
        with open(tmp, "w") as f:
            f.write("\n".join(md) + "\n")
        os.replace(tmp, os.path.join(self.out, "report.md"))
        with open(os.path.join(self.out, "results.json"), "w") as f:
            json.dump({"counts": self.counts, "parts": self.parts, "header": self.header,
                       "failures": self.failures, "not_run": self.not_run}, f, indent=1)


def run_cmd(cmd, log, cap, env=None, cwd=ROOT):
    """Runs `cmd` in its own process group with output to `log`; kills the group after `cap`
    seconds. Returns (exit status or None when killed, seconds)."""
    t = now()
    with open(log, "w") as f:
        try:
            p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                 start_new_session=True)
        except OSError as e:
            f.write("cannot start %s: %s\n" % (cmd[0], e))
            return 127, now() - t
        try:
            rc = p.wait(timeout=max(1, cap))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
            f.write("\n[first-contact: killed after %d s (its cap)]\n" % cap)
            rc = None
    return rc, now() - t


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def tail(text, n=15):
    return "\n".join(text.rstrip("\n").splitlines()[-n:])


def fence(text):
    return "```text\n%s\n```" % text.rstrip().replace("```", "'''")


def nvrtc_dirs():
    """Folders holding libnvrtc.so.<major>: newest major first (CUDA 13 wheels: nvidia/cu13/lib;
    CUDA 12 wheels: nvidia/cuda_nvrtc/lib; toolkits: /usr/local/cuda*/lib64)."""
    places = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    places += glob.glob("/usr/local/cuda*/lib64") + glob.glob("/usr/local/cuda*/targets/*/lib")
    places += ["/usr/lib/x86_64-linux-gnu", "/usr/lib64"]
    roots = []
    try:
        roots += site.getsitepackages()
    except AttributeError:
        pass
    try:
        roots.append(site.getusersitepackages())
    except AttributeError:
        pass
    roots += [p for p in sys.path if p.endswith("-packages")]
    for r in roots:
        places += glob.glob(os.path.join(r, "nvidia", "*", "lib"))
    found = {}
    for d in places:
        for lib in glob.glob(os.path.join(d, "libnvrtc.so.[0-9]*")):
            m = re.match(r"libnvrtc\.so\.(\d+)$", os.path.basename(lib))
            if m:
                found.setdefault(os.path.realpath(d), int(m.group(1)))
    return sorted(found.items(), key=lambda kv: -kv[1])


PEER_VERSIONS = r"""
import importlib
for m in ("numpy", "cupy", "numba", "numba_cuda", "torch", "cuda.core", "cuda.bindings", "mpi4py"):
    try:
        mod = importlib.import_module(m)
        v = getattr(mod, "__version__", None)
        if v is None and m == "cuda.core":
            v = getattr(importlib.import_module("cuda.core.experimental"), "__version__", "?")
        extra = ""
        if m == "cupy":
            try:
                rt = mod.cuda.runtime
                extra = " (CUDA runtime %s, driver %s)" % (rt.runtimeGetVersion(), rt.driverGetVersion())
            except Exception as e:
                extra = " (no CUDA: %s)" % type(e).__name__
        if m == "torch":
            extra = " (CUDA %s, available %s)" % (mod.version.cuda, mod.cuda.is_available())
        print("%s %s%s" % (m, v, extra))
    except Exception as e:
        print("%s NOT AVAILABLE: %s: %s" % (m, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
"""


def part_versions(r, kit, manifest):
    log = os.path.join(r.out, "versions.log")
    t = now()
    lines = []

    def cmd(title, argv, cap=20):
        lines.append("== " + title)
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=cap)
            text = p.stdout.decode(errors="replace")
        except (OSError, subprocess.TimeoutExpired) as e:
            text = "not available: %s" % e
        lines.append(text.rstrip())
        return text

    lines.append("== uname\n" + " ".join(platform.uname()))
    lines.append("== cpus\n%s" % os.cpu_count())
    smi = cmd("nvidia-smi", ["nvidia-smi"])
    q = cmd("nvidia-smi query", ["nvidia-smi", "--query-gpu=name,driver_version,memory.total,compute_cap",
                                 "--format=csv,noheader"])
    cmd("libcuda (ldconfig)", ["sh", "-c", "ldconfig -p | grep -E 'libcuda\\.so' || echo 'not in the ldconfig cache'"])
    dirs = nvrtc_dirs()
    lines.append("== libnvrtc found (on LD_LIBRARY_PATH for everything below, newest first)")
    lines.extend("libnvrtc.so.%d in %s" % (m, d) for d, m in dirs)
    if not dirs:
        lines.append("NONE: rumba cannot compile kernels")
    lines.append("== python\n%s %s" % (sys.executable, sys.version.split()[0]))
    peers = cmd("python peers", [sys.executable, "-c", PEER_VERSIONS], cap=max(10, min(60, r.left() - 300)))
    lines.append("== kit MANIFEST\n" + read(manifest))
    with open(log, "w") as f:
        f.write("\n".join(lines) + "\n")
    gpus = [g.strip() for g in q.splitlines() if g.strip() and "," in g]
    h = r.header
    h["machine"] = "%s, %s CPUs, %s" % (platform.node(), os.cpu_count(), " ".join(platform.uname()[2:3]))
    h["gpus"] = "; ".join(gpus) if gpus else "none found by nvidia-smi (%s)" % (smi.strip().splitlines() or ["no output"])[0]
    if gpus:
        name = gpus[0].split(",")[0]
        h["gpu"] = name
        short = re.sub(r"^nvidia\s+", "", name.lower())
        h["slug"] = re.sub(r"[^a-z0-9]+", "-", short).strip("-")[:40]
    m = re.search(r"CUDA Version:\s*([\d.]+)", smi)
    drv = re.search(r"Driver Version:\s*([\d.]+)", smi)
    if drv:
        h["driver"] = "%s (CUDA %s)" % (drv.group(1), m.group(1) if m else "?")
    h["nvrtc found"] = ", ".join("%d in %s" % (mj, d) for d, mj in dirs) or "none"
    h["python"] = "%s %s" % (sys.executable, sys.version.split()[0])
    h["peers"] = "; ".join(l.strip() for l in peers.splitlines() if l.strip())
    r.parts["versions"] = {"summary": "written", "seconds": now() - t, "log": "versions.log"}
    r.sections.append(("Versions", fence(read(log))))
    return dirs


def part_detect(r, rumba, env):
    log = os.path.join(r.out, "detect.log")
    rc, secs = run_cmd([rumba, "detect", "--memory"], log, min(30, r.left()), env)
    text = read(log)
    for line in text.splitlines():
        if line.startswith("CUDA driver:"):
            r.header["libcuda"] = line.split(":", 1)[1].strip()
        if line.startswith("NVRTC"):
            r.header["nvrtc used"] = line
    ok = rc == 0
    r.count(passed=1 if ok else 0, failed=0 if ok else 1)
    if not ok:
        r.fail("detect (exit %s)" % rc, text)
    r.parts["detect"] = {"summary": "ok" if ok else "FAILED (exit %s)" % rc, "seconds": secs, "log": "detect.log"}
    r.sections.append(("rumba detect", fence(text)))
    return ok, text


def part_selftest(r, rumba, env):
    log = os.path.join(r.out, "selftest.log")
    cap = min(100, r.left() - sum(RESERVE.values()) - 60)
    if cap < 10:
        r.not_run.append(("selftest", "no time left"))
        return
    rc, secs = run_cmd([rumba, "selftest", "--timeout", "30"], log, cap, env)
    text = read(log)
    rows = re.findall(r"^(\S+)\s+(ok|skip|FAIL)\s", text, re.M)
    p = sum(1 for _, w in rows if w == "ok")
    s = sum(1 for _, w in rows if w == "skip")
    f = sum(1 for _, w in rows if w == "FAIL")
    for block in re.findall(r"^FAIL (\S+):\n((?:  .*\n?)+)", text, re.M):
        r.fail("selftest %s" % block[0], block[1])
    extra = 0
    if rc is None or (rc != 0 and f == 0):
        extra = 1
        r.fail("selftest (exit %s)" % ("killed after %d s" % cap if rc is None else rc), tail(text))
    r.count(passed=p, failed=f + extra, skipped=s)
    summary = "%d ok, %d FAIL, %d skip" % (p, f, s) + ("" if rc == 0 else " (exit %s)" % rc)
    r.parts["selftest"] = {"summary": summary, "seconds": secs, "log": "selftest.log"}
    r.sections.append(("rumba selftest", fence(text)))


def parse_tests(text, backend):
    """(passed, failed, skipped, failures, note) of one libtest log."""
    res = re.findall(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", text, re.M)
    skipped_tests = set(re.findall(r"^SKIPPED (\S+) on %s: " % re.escape(backend), text, re.M))
    whole = re.search(r"^SKIPPED (\S+): (.*)$", text, re.M)
    failures = []
    for m in re.finditer(r"^---- (\S+) stdout ----\n(.*?)(?=^---- |^failures:|\Z)", text, re.M | re.S):
        failures.append((m.group(1), m.group(2)))
    if res:
        p, f, ig = (sum(int(x[i]) for x in res) for i in range(3))
        return max(0, p - len(skipped_tests)), f, len(skipped_tests) + ig, failures, ""
    if whole and not re.search(r"^test .* \.\.\. ", text, re.M):
        return 0, 0, 1, failures, "whole executable SKIPPED: " + whole.group(2)[:200]
    ok = len(re.findall(r"^test \S+ \.\.\. ok$", text, re.M))
    bad = len(re.findall(r"^test \S+ \.\.\. FAILED$", text, re.M))
    return max(0, ok - len(skipped_tests)), bad, len(skipped_tests), failures, "no result line"


def part_tests(r, kit, env, backend, only):
    names = sorted(os.listdir(os.path.join(kit, "tests")))
    order = [n for n in ORDER if n in names] + [n for n in names if n not in ORDER]
    if only:
        order = [n for n in order if n in only]
        for n in only:
            if n not in names:
                r.not_run.append(("tests/" + n, "not in the kit"))
    logs = r.out.rstrip("/") + ".tests"
    os.makedirs(logs, exist_ok=True)
    threads = os.environ.get("FC_TEST_THREADS")
    t0 = now()
    tot = [0, 0, 0]
    for i, name in enumerate(order):
        if name in NOT_ON_CUDA and not only:
            r.not_run.append(("tests/" + name, NOT_ON_CUDA[name]))
            continue
        left = r.left() - sum(RESERVE.values())
        cap = min(CAP_FIRST if i < N_FIRST else CAP_REST, left)
        if cap < 5:
            r.not_run.append(("tests/" + name, "the tests' share of the time budget was used up"))
            r.count(skipped=1)
            tot[2] += 1
            continue
        log = os.path.join(logs, name + ".log")
        argv = [os.path.join(kit, "tests", name)] + (["--test-threads=" + threads] if threads else [])
        argv += os.environ.get("FC_TEST_ARGS", "").split()
        rc, secs = run_cmd(argv, log, cap, env)
        subprocess.run(["tar", "-C", logs, "-czf", os.path.join(r.out, "tests.tar.gz"), "."],
                       check=False)
        text = read(log)
        p, f, s, failures, note = parse_tests(text, backend)
        if rc is None:
            f += 1
            hung = re.findall(r"^test (\S+) has been running for over", text, re.M)
            note = "killed after %d s (cap)%s" % (cap, "; running: " + ", ".join(hung) if hung else "")
            r.fail("tests/%s: killed after %d s" % (name, cap), "\n".join(hung) + "\n" + tail(text))
        elif rc != 0 and f == 0:
            f += 1
            how = "killed by signal %d" % -rc if rc < 0 else "exit %d" % rc
            note = (note + "; " if note else "") + "%s without a failed test (crash?)" % how
            r.fail("tests/%s: %s" % (name, how), tail(text))
        for test, body in failures:
            r.fail("tests/%s: %s" % (name, test), body)
        for line in sorted(set(re.findall(r"^SKIPPED (\S+ on \S+: .*)$", text, re.M))):
            r.skips.append("%s: %s" % (name, line[:240]))
        r.count(passed=p, failed=f, skipped=s)
        tot[0] += p
        tot[1] += f
        tot[2] += s
        r.tests.append("| %s | %s | %.0f | %d | %d | %d | %s |" % (
            name, "killed" if rc is None else rc, secs, p, f, s, note.replace("|", "/")))
        r.parts["tests"] = {"summary": "%d passed, %d failed, %d skipped (running)" % tuple(tot),
                            "seconds": now() - t0, "log": "tests.tar.gz"}
        r.write()
    r.parts["tests"] = {"summary": "%d passed, %d failed, %d skipped" % tuple(tot),
                        "seconds": now() - t0, "log": "tests.tar.gz"}


def part_bench(r, rumba, env, backend):
    log = os.path.join(r.out, "bench.log")
    cap = min(RESERVE["bench"] - 5, r.left() - RESERVE["peers"])
    if cap < 10:
        r.not_run.append(("bench", "no time left"))
        return
    argv = [rumba, "bench"] + os.environ.get("FC_BENCH", "--quick --repeat 3").split()
    if backend == "cuda":
        argv += ["--gpu-peers", os.path.join(ROOT, "scripts/gpu/peer_bench.py"), "--python", sys.executable]
    rc, secs = run_cmd(argv, log, cap, env)
    text = read(log)
    ok = rc == 0
    r.count(passed=1 if ok else 0, failed=0 if ok else 1)
    if not ok:
        r.fail("bench (exit %s)" % ("killed after %d s" % cap if rc is None else rc), tail(text, 25))
    r.parts["bench"] = {"summary": "ok" if ok else "FAILED (exit %s)" % rc, "seconds": secs, "log": "bench.log"}
    r.sections.insert(0, ("Bench (`rumba bench %s`, %s)" % (" ".join(argv[2:]), backend), fence(text)))


def part_peers(r, rumba, env):
    log = os.path.join(r.out, "peers.log")
    cap = min(RESERVE["peers"] - 5, r.left())
    if cap < 10:
        r.not_run.append(("peers", "no time left"))
        return
    rc, secs = run_cmd([sys.executable, os.path.join(ROOT, "scripts/gpu/peer_ipc.py"), "--rumba", rumba],
                       log, cap, env)
    text = read(log)
    p = f = s = 0
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if d.get("ok"):
                p += 1
            else:
                f += 1
                r.fail("peers %s: %s" % (d.get("peer"), d.get("check")), str(d.get("detail", "")))
        elif line.startswith("SKIPPED"):
            s += 1
    if rc is None or (rc not in (0, 1) and f == 0):
        f += 1
        r.fail("peers (exit %s)" % ("killed after %d s" % cap if rc is None else rc), tail(text))
    r.count(passed=p, failed=f, skipped=s)
    r.parts["peers"] = {"summary": "%d ok, %d failed, %d peers skipped" % (p, f, s), "seconds": secs,
                        "log": "peers.log"}
    r.sections.append(("Peers (IPC, CUDA Array Interface, DLPack)", fence(text)))


def unpack_kit(kit):
    """The kit folder holding `rumba` and `tests/`, unpacking kit.tar.xz if that is what it has."""
    packed = os.path.join(kit, "kit.tar.xz")
    if os.path.isfile(packed):
        dest = os.path.join(os.environ.get("TMPDIR", "/tmp"), "rumba-gpu-kit")
        subprocess.run(["rm", "-rf", dest], check=False)
        os.makedirs(dest)
        subprocess.run("xz -dc '%s' | tar -C '%s' -xf -" % (packed, dest), shell=True, check=True,
                       timeout=120)
        return dest
    return kit


def main():
    if "--nvrtc-dirs" in sys.argv[1:]:
        for d, _ in nvrtc_dirs():
            print(d)
        return 0
    out = os.path.abspath(os.environ.get("OUT") or "gpu-out")
    os.makedirs(out, exist_ok=True)
    budget = float(os.environ.get("FC_BUDGET", "460"))
    backend = os.environ.get("FC_BACKEND", "cuda")
    only = [t for t in os.environ.get("FC_TESTS", "").split(",") if t]
    r = Run(out, budget)
    r.header["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    r.header["backend"] = backend + ("" if backend == "cuda" else " (FC_BACKEND: a dry run of the machinery, not CUDA)")
    kit_dir = os.environ.get("KIT", "gpu-kit")
    manifest = os.path.join(kit_dir, "MANIFEST")
    r.header["kit"] = " ".join(read(manifest).splitlines()[1:2]) or "no MANIFEST in %s" % kit_dir
    try:
        kit = unpack_kit(kit_dir)
    except (OSError, subprocess.SubprocessError) as e:
        kit = kit_dir
        r.fail("kit", "cannot unpack %s: %s" % (kit_dir, e))
    rumba = os.path.join(kit, "rumba")
    dirs = part_versions(r, kit, manifest)
    r.header["file"] = "%s-%s" % (time.strftime("%Y-%m-%d", time.gmtime()), r.header.get("slug", "no-gpu"))
    r.write()
    if not os.access(rumba, os.X_OK):
        r.fail("kit", "no rumba in %s: build the kit with scripts/gpu/build-kit.sh and carry it (carry=[\"gpu-kit\"])" % kit)
        r.count(failed=1)
        r.write()
        return 2
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = ":".join([d for d, _ in dirs] + [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p])
    env["RUMBA_BACKEND"] = backend
    env["RUMBA_TEST_BACKEND"] = backend
    env["RUMBA_BIN"] = rumba
    env["RUMBA_SOURCE_ROOT"] = ROOT
    env["RUST_BACKTRACE"] = "0"
    ok, detect = part_detect(r, rumba, env)
    r.write()
    if not ok:
        why = ([l for l in detect.splitlines() if l.startswith("rumba:")] or ["rumba detect failed"])[0]
        r.header["gpu"] = "NO USABLE %s DEVICE" % backend.upper()
        for p in ("selftest", "tests", "bench", "peers"):
            r.not_run.append((p, "no usable %s device: %s" % (backend, why)))
    else:
        part_selftest(r, rumba, env)
        r.write()
        part_tests(r, kit, env, backend, only)
        r.write()
        part_bench(r, rumba, env, backend)
        r.write()
        if backend == "cuda":
            part_peers(r, rumba, env)
        else:
            r.not_run.append(("peers", "needs CUDA and the Python peers"))
    r.header["elapsed"] = "%.0f s of a %.0f s budget" % (now() - r.start, budget)
    r.write()
    print(read(os.path.join(out, "report.md")).splitlines()[0])
    print("report: %s" % os.path.join(out, "report.md"))
    return 0 if r.counts["failed"] == 0 and ok else 1


if __name__ == "__main__":
    sys.exit(main())
