#!/usr/bin/env python3
"""The peer workloads (workloads.md) on Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1): the
first three here, the suite's in numba_suite.py (every one but reduce_warp: the simulator has no
warp shuffles).

Prints one JSON line per workload and size. Usage: numba_sim.py [--all] [--repeat R]
Only the small sizes run by default: the simulator takes seconds where PoCL takes microseconds.
"""
import os

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import numpy as np  # noqa: E402
from numba import cuda, float32  # noqa: E402

from numba_suite import RUNNERS  # noqa: E402
from peerlib import BLOCK, TPB, arguments, block_sums, emit, inputs, note, sizes, timed  # noqa: E402

PEER = "numba-cudasim"
# The simulator compiles nothing at the first launch, and a launch takes seconds: no warm-up.
WARM_UP = False


@cuda.jit
def vadd(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


@cuda.jit
def matmul_shared(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    n = C.shape[0]
    acc = float32(0.0)
    for t in range(cuda.gridDim.x):
        sA[ty, tx] = 0.0
        sB[ty, tx] = 0.0
        if y < n and tx + t * TPB < n:
            sA[ty, tx] = A[y, tx + t * TPB]
        if x < n and ty + t * TPB < n:
            sB[ty, tx] = B[ty + t * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < n and x < n:
        C[y, x] = acc


@cuda.jit
def reduce_shared(x, partial):
    s = cuda.shared.array(BLOCK, dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    s[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    stride = BLOCK // 2
    while stride > 0:
        if tid < stride:
            s[tid] += s[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = s[0]


def main():
    args = arguments(__doc__.splitlines()[0], default_repeat=1, quick_flag="all")
    small = not args.all
    for n in sizes("vadd", small):
        a, b = inputs(n, 0)
        da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n, np.float32)
        blocks = (n + BLOCK - 1) // BLOCK
        s = timed(lambda: vadd[blocks, BLOCK](da, db, dc), cuda.synchronize, args.repeat, WARM_UP)
        emit(PEER, "vadd", n, s, np.allclose(dc.copy_to_host(), a + b))
    for n in sizes("matmul_shared", small):
        a, b = inputs(n * n, 1)
        A, B = a.reshape(n, n), b.reshape(n, n)
        dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
        g = (n + TPB - 1) // TPB
        s = timed(lambda: matmul_shared[(g, g), (TPB, TPB)](dA, dB, dC), cuda.synchronize,
                  args.repeat, WARM_UP)
        emit(PEER, "matmul_shared", n, s,
             np.allclose(dC.copy_to_host(), A @ B, rtol=1e-3, atol=1e-3))
    for n in sizes("reduce_shared", small):
        x, _ = inputs(n, 2)
        blocks = (n + BLOCK - 1) // BLOCK
        dx, dp = cuda.to_device(x), cuda.device_array(blocks, np.float32)
        s = timed(lambda: reduce_shared[blocks, BLOCK](dx, dp), cuda.synchronize, args.repeat, WARM_UP)
        emit(PEER, "reduce_shared", n, s, np.allclose(dp.copy_to_host(), block_sums(x), rtol=1e-4))
    note("numba_sim.py: reduce_warp skipped: Numba's simulator has no warp shuffles")
    for name, run in RUNNERS.items():
        for n in sizes(name, small):
            s, check = run(n, args.repeat, WARM_UP)
            emit(PEER, name, n, s, check)


if __name__ == "__main__":
    main()
