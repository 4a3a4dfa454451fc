"""`rumba bench`'s workloads on a GPU, timed in CuPy and in Numba-CUDA the way rumba times them.

Prints one JSON line per run in the peers' form (scripts/peers/workloads.md):
{"peer": "cupy" | "numba-cuda", "workload": ..., "n": ..., "seconds": ..., "check": ...}
`rumba bench --gpu-peers scripts/gpu/peer_bench.py` runs this and puts the runs next to its own.

Workloads, sizes and timing match crates/rumba-cli/src/bench/workloads.rs: the median of
`--repeat` timed runs after one warm-up, each run = launch (or copy) + synchronize, data already
on the device:
  vadd 65,536 and 16,777,216 | matmul_shared 64, 256, 512 (16x16 shared tiles) |
  reduce_shared 16,384 and 1,048,576 (256-thread shared tree) |
  launch: seconds per launch of an empty kernel, 1,000 launches then one synchronize |
  h2d / d2h: 64 MiB from / to pageable memory | h2d_pinned / d2h_pinned: 64 MiB, pinned, on a stream.
`--quick` runs only the small sizes and the launch latency (as `rumba bench --quick`).

Usage: python3 peer_bench.py [--repeat R] [--quick] [--peer cupy --peer numba]
With NUMBA_ENABLE_CUDASIM=1 the Numba part runs on Numba's simulator (a smoke test of this script
without a GPU); its runs are then labelled "numba-cudasim".
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

TPB = 16
LAUNCHES = 1000
COPY_BYTES = 64 << 20

CUDA_SRC = r"""
#define TPB 16
extern "C" __global__ void vadd(const float* a, const float* b, float* c, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void matmul_shared(const float* A, const float* B, float* C, int n) {
    __shared__ float sA[TPB][TPB];
    __shared__ float sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < (int)gridDim.x; ++t) {
        sA[ty][tx] = 0.0f; sB[ty][tx] = 0.0f;
        if (y < n && tx + t * TPB < n) sA[ty][tx] = A[y * n + tx + t * TPB];
        if (x < n && ty + t * TPB < n) sB[ty][tx] = B[(ty + t * TPB) * n + x];
        __syncthreads();
        for (int j = 0; j < TPB; ++j) acc += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < n && x < n) C[y * n + x] = acc;
}
extern "C" __global__ void reduce_shared(const float* x, float* partial, long long n) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}
extern "C" __global__ void empty() {}
"""


def emit(peer, workload, n, seconds, check):
    print(json.dumps({"peer": peer, "workload": workload, "n": n, "seconds": seconds,
                      "check": bool(check)}), flush=True)


def timed(run, sync, repeat):
    run()
    sync()
    times = []
    for _ in range(max(repeat, 1)):
        t = time.perf_counter()
        run()
        sync()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def sizes(quick):
    return {
        "vadd": (65_536,) if quick else (65_536, 16_777_216),
        "matmul_shared": (64,) if quick else (64, 256, 512),
        "reduce_shared": (16_384,) if quick else (16_384, 1_048_576),
    }


def inputs(n, seed):
    return np.random.default_rng(seed).random(n, dtype=np.float32)


def copy_data():
    return (np.arange(COPY_BYTES, dtype=np.int64) % 251).astype(np.uint8)


# ------------------------------------------------------------------------------------ CuPy

def run_cupy(repeat, quick):
    import cupy
    mod = cupy.RawModule(code=CUDA_SRC)
    k_vadd, k_mm = mod.get_function("vadd"), mod.get_function("matmul_shared")
    k_red, k_empty = mod.get_function("reduce_shared"), mod.get_function("empty")
    sync = cupy.cuda.Device().synchronize
    sz = sizes(quick)
    for n in sz["vadd"]:
        a, b = inputs(n, 1), inputs(n, 2)
        da, db, dc = cupy.asarray(a), cupy.asarray(b), cupy.empty(n, cupy.float32)
        s = timed(lambda: k_vadd(((n + 255) // 256,), (256,), (da, db, dc, np.int64(n))), sync, repeat)
        emit("cupy", "vadd", n, s, np.allclose(cupy.asnumpy(dc), a + b))
    for n in sz["matmul_shared"]:
        A, B = inputs(n * n, 3).reshape(n, n), inputs(n * n, 4).reshape(n, n)
        dA, dB, dC = cupy.asarray(A), cupy.asarray(B), cupy.empty((n, n), cupy.float32)
        g = (n + TPB - 1) // TPB
        s = timed(lambda: k_mm((g, g), (TPB, TPB), (dA, dB, dC, np.int32(n))), sync, repeat)
        emit("cupy", "matmul_shared", n, s, np.allclose(cupy.asnumpy(dC), A @ B, rtol=1e-3, atol=1e-3))
    for n in sz["reduce_shared"]:
        x = inputs(n, 5)
        blocks = (n + 255) // 256
        dx, dp = cupy.asarray(x), cupy.empty(blocks, cupy.float32)
        s = timed(lambda: k_red((blocks,), (256,), (dx, dp, np.int64(n))), sync, repeat)
        emit("cupy", "reduce_shared", n, s,
             np.allclose(cupy.asnumpy(dp), x.reshape(blocks, 256).sum(axis=1, dtype=np.float64), rtol=1e-4))

    def launches():
        for _ in range(LAUNCHES):
            k_empty((1,), (1,), ())
    emit("cupy", "launch", LAUNCHES, timed(launches, sync, repeat) / LAUNCHES, True)
    if quick:
        return
    host = copy_data()
    back = np.empty_like(host)
    d = cupy.empty(COPY_BYTES, cupy.uint8)
    emit("cupy", "h2d", COPY_BYTES, timed(lambda: d.set(host), sync, repeat), True)
    emit("cupy", "d2h", COPY_BYTES, timed(lambda: d.get(out=back), sync, repeat),
         np.array_equal(back, host))
    mem = cupy.cuda.alloc_pinned_memory(COPY_BYTES)
    pinned = np.frombuffer(mem, np.uint8, COPY_BYTES)
    pinned[:] = host
    stream = cupy.cuda.Stream(non_blocking=False)
    emit("cupy", "h2d_pinned", COPY_BYTES, timed(lambda: d.set(pinned, stream=stream), stream.synchronize, repeat), True)
    pinned[:] = 0
    emit("cupy", "d2h_pinned", COPY_BYTES,
         timed(lambda: d.get(stream=stream, out=pinned), stream.synchronize, repeat),
         np.array_equal(pinned, host))


# ------------------------------------------------------------------------------------ Numba

def run_numba(repeat, quick):
    # Module globals, so that the kernels below see them as globals (as Numba's simulator needs).
    global cuda, float32
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import numpy_compat

    numpy_compat.patch()
    from numba import cuda, float32
    peer = "numba-cudasim" if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" else "numba-cuda"

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
        s = cuda.shared.array(256, dtype=float32)
        tid = cuda.threadIdx.x
        i = cuda.grid(1)
        s[tid] = x[i] if i < x.size else 0.0
        cuda.syncthreads()
        stride = 128
        while stride > 0:
            if tid < stride:
                s[tid] += s[tid + stride]
            cuda.syncthreads()
            stride //= 2
        if tid == 0:
            partial[cuda.blockIdx.x] = s[0]

    @cuda.jit
    def empty():
        pass

    sync = cuda.synchronize
    sz = sizes(quick)
    for n in sz["vadd"]:
        a, b = inputs(n, 1), inputs(n, 2)
        da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n, np.float32)
        s = timed(lambda: vadd[(n + 255) // 256, 256](da, db, dc), sync, repeat)
        emit(peer, "vadd", n, s, np.allclose(dc.copy_to_host(), a + b))
    for n in sz["matmul_shared"]:
        A, B = inputs(n * n, 3).reshape(n, n), inputs(n * n, 4).reshape(n, n)
        dA, dB, dC = cuda.to_device(A), cuda.to_device(B), cuda.device_array((n, n), np.float32)
        g = (n + TPB - 1) // TPB
        s = timed(lambda: matmul_shared[(g, g), (TPB, TPB)](dA, dB, dC), sync, repeat)
        emit(peer, "matmul_shared", n, s, np.allclose(dC.copy_to_host(), A @ B, rtol=1e-3, atol=1e-3))
    for n in sz["reduce_shared"]:
        x = inputs(n, 5)
        blocks = (n + 255) // 256
        dx, dp = cuda.to_device(x), cuda.device_array(blocks, np.float32)
        s = timed(lambda: reduce_shared[blocks, 256](dx, dp), sync, repeat)
        emit(peer, "reduce_shared", n, s,
             np.allclose(dp.copy_to_host(), x.reshape(blocks, 256).sum(axis=1, dtype=np.float64), rtol=1e-4))

    def launches():
        for _ in range(LAUNCHES):
            empty[1, 1]()
    emit(peer, "launch", LAUNCHES, timed(launches, sync, repeat) / LAUNCHES, True)
    if quick:
        return
    host = copy_data()
    back = np.empty_like(host)
    d = cuda.device_array(COPY_BYTES, np.uint8)
    emit(peer, "h2d", COPY_BYTES, timed(lambda: d.copy_to_device(host), sync, repeat), True)
    emit(peer, "d2h", COPY_BYTES, timed(lambda: d.copy_to_host(back), sync, repeat), np.array_equal(back, host))
    pinned = cuda.pinned_array(COPY_BYTES, np.uint8)
    pinned[:] = host
    stream = cuda.stream()
    emit(peer, "h2d_pinned", COPY_BYTES,
         timed(lambda: d.copy_to_device(pinned, stream=stream), stream.synchronize, repeat), True)
    pinned[:] = 0
    emit(peer, "d2h_pinned", COPY_BYTES,
         timed(lambda: d.copy_to_host(pinned, stream=stream), stream.synchronize, repeat),
         np.array_equal(pinned, host))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--peer", action="append", choices=["cupy", "numba"])
    args = ap.parse_args()
    ran, failed = 0, 0
    for name, fn in (("cupy", run_cupy), ("numba", run_numba)):
        if args.peer and name not in args.peer:
            continue
        try:
            fn(args.repeat, args.quick)
            ran += 1
        except ImportError as e:
            print(f"SKIPPED {name}: {e}", file=sys.stderr, flush=True)
        except Exception as e:  # report and go on with the other peer
            print(f"FAILED {name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            failed += 1
    if ran == 0 and failed == 0:
        print("no peer could run", file=sys.stderr)
        sys.exit(2)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
