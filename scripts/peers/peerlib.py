"""What the peer scripts share: the workloads' sizes, timing, result checks and output form.

See workloads.md beside this file. Standard library and NumPy only.
"""
import argparse
import json
import statistics
import sys
import time

# Threads per block of the 1-D kernels, and the tile width of matmul_shared.
BLOCK = 256
TPB = 16
COPY_BYTES = 64 << 20

# (workload, quick sizes, all sizes): the sizes `rumba bench` uses (crates/rumba-cli/src/bench).
SIZES = {
    "vadd": ((65536,), (65536, 16777216)),
    "matmul_shared": ((64,), (64, 256, 512)),
    "reduce_shared": ((16384,), (16384, 1048576)),
    "transpose": ((100,), (100, 4096)),
    "stencil5": ((40,), (40, 4096)),
    "histogram": ((50000,), (50000, 16777216)),
    "scan": ((20000,), (20000, 16777216)),
    "nbody": ((300,), (300, 16384)),
    "sgemm": ((100,), (100, 1024)),
}


# The workloads `--only` names (None: every one); `sizes` gives no size to the others.
_only = None


def arguments(description, default_repeat, quick_flag):
    """Parses --repeat, --only and either --quick (run the small sizes only) or --all (run every
    size)."""
    global _only
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--only", metavar="NAMES",
                    help="comma-separated workloads to run (default: all of this script's)")
    ap.add_argument("--repeat", type=int, default=default_repeat,
                    help="timed runs per workload; the median is reported")
    if quick_flag == "quick":
        ap.add_argument("--quick", action="store_true", help="only the small sizes")
    else:
        ap.add_argument("--all", action="store_true", help="every size, not only the small ones")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    _only = None if args.only is None else set(filter(None, args.only.split(",")))
    return args


def sizes(workload, small_only):
    """The sizes to run `workload` at (none when `--only` leaves it out)."""
    if _only is not None and workload not in _only:
        return ()
    quick, every = SIZES[workload]
    return quick if small_only else every


def timed(run, finish, repeat, warm_up=True):
    """Median seconds of `run(); finish()` over `repeat` runs, after one warm-up run (which
    compiles what a first launch compiles) unless `warm_up` is false."""
    if warm_up:
        run()
        finish()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        finish()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def emit(peer, workload, n, seconds, check):
    print(json.dumps({"peer": peer, "workload": workload, "n": n,
                      "seconds": seconds, "check": bool(check)}), flush=True)


def note(message):
    print(message, file=sys.stderr, flush=True)


def inputs(n, seed):
    """Two `f32` vectors of `n` uniform values in [0, 1), the same on every run."""
    import numpy as np
    rng = np.random.default_rng(seed)
    return rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)


def block_sums(x):
    """The reference of reduce_shared: the sum of each block of BLOCK values (zero-padded)."""
    import numpy as np
    blocks = (x.size + BLOCK - 1) // BLOCK
    padded = np.zeros(blocks * BLOCK, dtype=np.float32)
    padded[:x.size] = x
    return padded.reshape(blocks, BLOCK).sum(axis=1)
