#!/usr/bin/env python3
"""The peer workloads (workloads.md) on PoCL, OpenCL on the CPU, through pyopencl.

Prints one JSON line per workload and size. Usage: pocl.py [--quick] [--repeat R]
The device is PoCL's CPU device; PYOPENCL_CTX, when set, chooses another as pyopencl does.
"""
import os
import sys

import numpy as np
import pyopencl as cl

from peerlib import BLOCK, COPY_BYTES, TPB, arguments, block_sums, emit, inputs, note, sizes, timed

PEER = "pocl"

SOURCE = r"""
#define TPB %(tpb)d
#define BLOCK %(block)d
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
__kernel void matmul_shared(__global const float* A, __global const float* B, __global float* C,
                            int n) {
  __local float sA[TPB][TPB];
  __local float sB[TPB][TPB];
  int tx = get_local_id(0), ty = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  float acc = 0.f;
  for (int t = 0; t < (int)get_num_groups(0); ++t) {
    sA[ty][tx] = 0.f;
    sB[ty][tx] = 0.f;
    if (y < n && tx + t * TPB < n) sA[ty][tx] = A[y * n + tx + t * TPB];
    if (x < n && ty + t * TPB < n) sB[ty][tx] = B[(ty + t * TPB) * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < TPB; ++j) acc += sA[ty][j] * sB[j][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (y < n && x < n) C[y * n + x] = acc;
}
__kernel void reduce_shared(__global const float* x, __global float* partial, int n) {
  __local float s[BLOCK];
  int tid = get_local_id(0), i = get_global_id(0);
  s[tid] = i < n ? x[i] : 0.f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) partial[get_group_id(0)] = s[0];
}
""" % {"tpb": TPB, "block": BLOCK}


def context():
    """PoCL's context (or the one PYOPENCL_CTX names); exits with a reason when there is none."""
    if os.environ.get("PYOPENCL_CTX"):
        return cl.create_some_context(interactive=False)
    for platform in cl.get_platforms():
        if "portable" in platform.name.lower() or "pocl" in platform.vendor.lower():
            devices = platform.get_devices()
            if devices:
                return cl.Context(devices)
    sys.exit("no PoCL platform found (install pocl-opencl-icd, or set PYOPENCL_CTX)")


def round_up(n, k):
    return (n + k - 1) // k * k


def main():
    args = arguments(__doc__.splitlines()[0], default_repeat=5, quick_flag="quick")
    ctx = context()
    note(f"pocl.py: {ctx.devices[0].name}")
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, SOURCE).build()
    mf = cl.mem_flags

    def upload(host):
        return cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=host)

    def launch(kernel, global_size, local_size):
        return lambda: cl.enqueue_nd_range_kernel(q, kernel, global_size, local_size)

    k_vadd = cl.Kernel(prg, "vadd")
    for n in sizes("vadd", args.quick):
        a, b = inputs(n, 0)
        # The buffers stay referenced while the kernel uses them: a kernel argument does not
        # keep its memory object alive.
        da, db, dc = upload(a), upload(b), cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
        k_vadd.set_args(da, db, dc, np.int32(n))
        s = timed(launch(k_vadd, (round_up(n, BLOCK),), (BLOCK,)), q.finish, args.repeat)
        c = np.empty_like(a)
        cl.enqueue_copy(q, c, dc)
        emit(PEER, "vadd", n, s, np.allclose(c, a + b))

    k_mm = cl.Kernel(prg, "matmul_shared")
    for n in sizes("matmul_shared", args.quick):
        a, b = inputs(n * n, 1)
        A, B = a.reshape(n, n), b.reshape(n, n)
        dA, dB, dC = upload(A), upload(B), cl.Buffer(ctx, mf.WRITE_ONLY, A.nbytes)
        k_mm.set_args(dA, dB, dC, np.int32(n))
        g = round_up(n, TPB)
        s = timed(launch(k_mm, (g, g), (TPB, TPB)), q.finish, args.repeat)
        C = np.empty_like(A)
        cl.enqueue_copy(q, C, dC)
        emit(PEER, "matmul_shared", n, s, np.allclose(C, A @ B, rtol=1e-3, atol=1e-3))

    k_red = cl.Kernel(prg, "reduce_shared")
    for n in sizes("reduce_shared", args.quick):
        x, _ = inputs(n, 2)
        blocks = (n + BLOCK - 1) // BLOCK
        dx, dp = upload(x), cl.Buffer(ctx, mf.WRITE_ONLY, blocks * 4)
        k_red.set_args(dx, dp, np.int32(n))
        s = timed(launch(k_red, (blocks * BLOCK,), (BLOCK,)), q.finish, args.repeat)
        p = np.empty(blocks, np.float32)
        cl.enqueue_copy(q, p, dp)
        emit(PEER, "reduce_shared", n, s, np.allclose(p, block_sums(x), rtol=1e-4))

    if args.quick:
        note("pocl.py: --quick: the 64 MiB copies are skipped")
        return
    host = np.random.default_rng(3).integers(0, 255, COPY_BYTES, dtype=np.uint8)
    dev = cl.Buffer(ctx, mf.READ_WRITE, COPY_BYTES)
    back = np.empty_like(host)
    s = timed(lambda: cl.enqueue_copy(q, dev, host), q.finish, args.repeat)
    emit(PEER, "h2d", COPY_BYTES, s, True)
    s = timed(lambda: cl.enqueue_copy(q, back, dev), q.finish, args.repeat)
    emit(PEER, "d2h", COPY_BYTES, s, np.array_equal(back, host))


if __name__ == "__main__":
    main()
