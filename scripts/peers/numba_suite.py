"""The suite's workloads (workloads.md: transpose, stencil5, histogram, scan, nbody, sgemm) as
Numba CUDA kernels, with their NumPy references, for `numba_sim.py`.

Each kernel has the block shape, shared and local arrays and barriers of the `#[rumba::kernel]`
of the same name (crates/rumba-cli/src/bench/kernels.rs), so that Numba's simulator runs the same
threads rumba's simulator does. Each `run_*` function builds its inputs, times the launches with
`timed` and returns `(seconds, check)`.

`reduce_warp` is not here: Numba's simulator has no warp shuffles.
"""
import warnings

import numpy as np
from numba import cuda, float32, uint32

from peerlib import BLOCK, timed

TILE, TILE_PAD = 32, 33
BINS, HIST_CHUNK = 256, 16384
SCAN_THREADS, SCAN_PER_THREAD, SCAN_TILE = 256, 4, 1024
NBODY_TILE, SOFTENING2, NBODY_DT = 256, 0.01, 0.01
SG_TILE, SG_DEPTH, SG_THREADS, SG_WORK = 64, 16, 16, 4
STENCIL_STEPS = 10


@cuda.jit
def transpose(a, b):
    tile = cuda.shared.array(shape=(TILE, TILE_PAD), dtype=float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    bx, by = cuda.blockIdx.x * TILE, cuda.blockIdx.y * TILE
    rows, cols = a.shape
    if by + ty < rows and bx + tx < cols:
        tile[ty, tx] = a[by + ty, bx + tx]
    cuda.syncthreads()
    if bx + ty < cols and by + tx < rows:
        b[bx + ty, by + tx] = tile[tx, ty]


@cuda.jit
def stencil5(u, v):
    x, y = cuda.grid(2)
    rows, cols = u.shape
    if y < rows and x < cols:
        if y == 0 or x == 0 or y + 1 == rows or x + 1 == cols:
            v[y, x] = u[y, x]
        else:
            s = u[y, x] + u[y - 1, x] + u[y + 1, x] + u[y, x - 1] + u[y, x + 1]
            v[y, x] = float32(0.2) * s


@cuda.jit
def histogram(data, bins):
    h = cuda.shared.array(BINS, dtype=uint32)
    tid = cuda.threadIdx.x
    h[tid] = 0
    cuda.syncthreads()
    start = cuda.blockIdx.x * HIST_CHUNK
    end = min(start + HIST_CHUNK, data.size)
    i = start + tid
    while i < end:
        cuda.atomic.add(h, data[i], 1)
        i += BINS
    cuda.syncthreads()
    if h[tid] != 0:
        cuda.atomic.add(bins, tid, h[tid])


@cuda.jit
def scan_blocks(x, y, sums):
    s = cuda.shared.array(SCAN_THREADS, dtype=uint32)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * SCAN_TILE + tid * SCAN_PER_THREAD
    n = x.size
    total = uint32(0)
    for k in range(SCAN_PER_THREAD):
        if base + k < n:
            total = uint32(total + x[base + k])
    s[tid] = total
    cuda.syncthreads()
    d = 1
    while d < SCAN_THREADS:
        left = s[tid - d] if tid >= d else uint32(0)
        cuda.syncthreads()
        s[tid] = uint32(s[tid] + left)
        cuda.syncthreads()
        d *= 2
    run = uint32(s[tid] - total)
    for k in range(SCAN_PER_THREAD):
        if base + k < n:
            v = x[base + k]
            y[base + k] = run
            run = uint32(run + v)
    if tid == SCAN_THREADS - 1:
        sums[cuda.blockIdx.x] = s[tid]


@cuda.jit
def scan_add(y, offsets):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = uint32(y[i] + offsets[i // SCAN_TILE])


@cuda.jit
def nbody(pos, vel, pos_out, vel_out, dt):
    sp = cuda.shared.array(shape=(NBODY_TILE, 4), dtype=float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    n = pos.shape[0]
    px = py = pz = float32(0.0)
    if i < n:
        px, py, pz = pos[i, 0], pos[i, 1], pos[i, 2]
    ax = ay = az = float32(0.0)
    for tile in range(cuda.gridDim.x):
        j = tile * NBODY_TILE + tid
        for c in range(4):
            sp[tid, c] = pos[j, c] if j < n else 0.0
        cuda.syncthreads()
        for k in range(NBODY_TILE):
            dx, dy, dz = sp[k, 0] - px, sp[k, 1] - py, sp[k, 2] - pz
            d2 = dx * dx + dy * dy + dz * dz + float32(SOFTENING2)
            inv = float32(1.0) / np.sqrt(d2)
            f = sp[k, 3] * (inv * inv * inv)
            ax += dx * f
            ay += dy * f
            az += dz * f
        cuda.syncthreads()
    if i < n:
        vx, vy, vz = vel[i, 0] + ax * dt, vel[i, 1] + ay * dt, vel[i, 2] + az * dt
        vel_out[i, 0], vel_out[i, 1], vel_out[i, 2], vel_out[i, 3] = vx, vy, vz, 0.0
        pos_out[i, 0], pos_out[i, 1], pos_out[i, 2] = px + vx * dt, py + vy * dt, pz + vz * dt
        pos_out[i, 3] = pos[i, 3]


@cuda.jit
def sgemm(a, b, c, alpha, beta):
    sa = cuda.shared.array(shape=(SG_TILE, SG_DEPTH), dtype=float32)
    sb = cuda.shared.array(shape=(SG_DEPTH, SG_TILE), dtype=float32)
    acc = cuda.local.array(shape=(SG_WORK, SG_WORK), dtype=float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    tid = ty * SG_THREADS + tx
    row0, col0 = cuda.blockIdx.y * SG_TILE, cuda.blockIdx.x * SG_TILE
    n = c.shape[0]
    for r in range(SG_WORK):
        for q in range(SG_WORK):
            acc[r, q] = 0.0
    k0 = 0
    while k0 < n:
        for lane in range(SG_WORK):
            e = tid + lane * SG_THREADS * SG_THREADS
            ar, ak = e // SG_DEPTH, e % SG_DEPTH
            sa[ar, ak] = a[row0 + ar, k0 + ak] if row0 + ar < n and k0 + ak < n else 0.0
            bk, bc = e // SG_TILE, e % SG_TILE
            sb[bk, bc] = b[k0 + bk, col0 + bc] if k0 + bk < n and col0 + bc < n else 0.0
        cuda.syncthreads()
        for k in range(SG_DEPTH):
            for r in range(SG_WORK):
                av = sa[ty + r * SG_THREADS, k]
                for q in range(SG_WORK):
                    acc[r, q] += av * sb[k, tx + q * SG_THREADS]
        cuda.syncthreads()
        k0 += SG_DEPTH
    for r in range(SG_WORK):
        for q in range(SG_WORK):
            i, j = row0 + ty + r * SG_THREADS, col0 + tx + q * SG_THREADS
            if i < n and j < n:
                c[i, j] = alpha * acc[r, q] + beta * c[i, j]


def run_transpose(n, repeat, warm_up):
    a = np.random.default_rng(4).random((n, n), dtype=np.float32)
    da, db = cuda.to_device(a), cuda.device_array((n, n), np.float32)
    g = (n + TILE - 1) // TILE
    s = timed(lambda: transpose[(g, g), (TILE, TILE)](da, db), cuda.synchronize, repeat, warm_up)
    return s, np.array_equal(db.copy_to_host(), a.T)


def run_stencil5(n, repeat, warm_up):
    u0 = np.random.default_rng(5).random((n, n), dtype=np.float32)
    d0, du, dv = cuda.to_device(u0), cuda.device_array((n, n), np.float32), cuda.device_array(
        (n, n), np.float32)
    grid = ((n + BLOCK - 1) // BLOCK, n)

    def steps():
        du.copy_to_device(d0)  # the grid restored on the device, as the Rust workload does
        src, dst = du, dv
        for _ in range(STENCIL_STEPS):
            stencil5[grid, (BLOCK, 1)](src, dst)
            src, dst = dst, src

    s = timed(steps, cuda.synchronize, repeat, warm_up)
    u = u0.copy()
    for _ in range(STENCIL_STEPS):
        v = u.copy()
        v[1:-1, 1:-1] = np.float32(0.2) * (
            u[1:-1, 1:-1] + u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        u = v
    got = (du if STENCIL_STEPS % 2 == 0 else dv).copy_to_host()
    return s, np.array_equal(got, u)


def run_histogram(n, repeat, warm_up):
    data = np.random.default_rng(6).integers(0, 256, n, dtype=np.uint8)
    dd, dbins = cuda.to_device(data), cuda.device_array(BINS, np.uint32)
    dzero = cuda.to_device(np.zeros(BINS, np.uint32))
    blocks = max(1, (n + HIST_CHUNK - 1) // HIST_CHUNK)

    def once():
        dbins.copy_to_device(dzero)
        histogram[blocks, BINS](dd, dbins)

    s = timed(once, cuda.synchronize, repeat, warm_up)
    return s, np.array_equal(dbins.copy_to_host(), np.bincount(data, minlength=BINS))


def run_scan(n, repeat, warm_up):
    x = np.random.default_rng(7).integers(0, 2**32, n, dtype=np.uint32)
    # Level l scans `length` elements (the data, then level l - 1's block totals).
    xs, ys, sums = [cuda.to_device(x)], [], []
    length = n
    while True:
        blocks = max(1, (length + SCAN_TILE - 1) // SCAN_TILE)
        ys.append(cuda.device_array(length, np.uint32))
        sums.append(cuda.device_array(blocks, np.uint32))
        if blocks == 1:
            break
        xs.append(sums[-1])
        length = blocks

    def once():
        for lx, ly, ls in zip(xs, ys, sums):
            scan_blocks[ls.size, SCAN_THREADS](lx, ly, ls)
        for lvl in range(len(ys) - 1, 0, -1):
            blocks = max(1, (ys[lvl - 1].size + SCAN_THREADS - 1) // SCAN_THREADS)
            scan_add[blocks, SCAN_THREADS](ys[lvl - 1], ys[lvl])

    # The kernels' `u32` sums wrap, and NumPy warns about each wrap of a scalar.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=RuntimeWarning, message="overflow")
        s = timed(once, cuda.synchronize, repeat, warm_up)
    want = np.concatenate(([0], np.cumsum(x, dtype=np.uint32)[:-1])).astype(np.uint32)
    return s, np.array_equal(ys[0].copy_to_host(), want)


def run_nbody(n, repeat, warm_up):
    # As the Rust workload builds them: masses (m + 0.5) / n, velocities in [-0.5, 0.5).
    rng = np.random.default_rng(8)
    pos = rng.random((n, 4), dtype=np.float32)
    pos[:, 3] = (pos[:, 3] + np.float32(0.5)) / np.float32(n)
    vel = np.zeros((n, 4), np.float32)
    vel[:, :3] = rng.random((n, 3), dtype=np.float32) - np.float32(0.5)
    dp, dv = cuda.to_device(pos), cuda.to_device(vel)
    dpo, dvo = cuda.device_array((n, 4), np.float32), cuda.device_array((n, 4), np.float32)
    blocks = (n + NBODY_TILE - 1) // NBODY_TILE
    dt = np.float32(NBODY_DT)
    s = timed(lambda: nbody[blocks, NBODY_TILE](dp, dv, dpo, dvo, dt), cuda.synchronize,
              repeat, warm_up)
    d = pos[None, :, :3] - pos[:, None, :3]
    inv = 1.0 / np.sqrt((d * d).sum(axis=2) + np.float32(SOFTENING2))
    acc = (d * (pos[None, :, 3] * inv ** 3)[:, :, None]).sum(axis=1)
    v = vel[:, :3] + acc * dt
    ok = np.allclose(dvo.copy_to_host()[:, :3], v, rtol=1e-3, atol=1e-4) and np.allclose(
        dpo.copy_to_host()[:, :3], pos[:, :3] + v * dt, rtol=1e-3, atol=1e-4)
    return s, ok


def run_sgemm(n, repeat, warm_up):
    rng = np.random.default_rng(9)
    a, b, c0 = (rng.random((n, n), dtype=np.float32) for _ in range(3))
    da, db, dc, dc0 = (cuda.to_device(m) for m in (a, b, c0, c0))
    g = (n + SG_TILE - 1) // SG_TILE
    alpha, beta = np.float32(1.5), np.float32(0.5)

    def once():
        dc.copy_to_device(dc0)
        sgemm[(g, g), (SG_THREADS, SG_THREADS)](da, db, dc, alpha, beta)

    s = timed(once, cuda.synchronize, repeat, warm_up)
    return s, np.allclose(dc.copy_to_host(), alpha * (a @ b) + beta * c0, rtol=1e-3, atol=1e-3)


# Workload name -> its runner, in the table's order.
RUNNERS = {
    "transpose": run_transpose,
    "stencil5": run_stencil5,
    "histogram": run_histogram,
    "scan": run_scan,
    "nbody": run_nbody,
    "sgemm": run_sgemm,
}
