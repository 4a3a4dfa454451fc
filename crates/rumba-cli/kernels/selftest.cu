// The kernels of `rumba selftest` (crates/rumba-cli/src/selftest/kernels.rs) in CUDA C, so the
// kernel checks run on the cuda backend too: the same kernels as the Rust bodies there, written
// against rumba's device header. NVRTC-checked in CI with every other .cu file.
#include "rumba_device.h"

// One partial sum per block of 256 through a shared-memory tree (one barrier per level).
extern "C" __global__ void st_block_sum(rumba_array<float, 1> x, rumba_array<float, 1> partial) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    rumba_index i = rumba_grid1();
    s[tid] = i < x.shape[0] ? x(i) : 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partial(blockIdx.x) = s[0];
}

// Each block reverses its slice of `a` through dynamic shared memory.
extern "C" __global__ void st_dyn_reverse(rumba_array<int, 1> a, rumba_array<int, 1> out) {
    extern __shared__ int buf[];
    int tid = threadIdx.x, n = blockDim.x;
    rumba_index i = rumba_grid1();
    buf[tid] = a(i);
    __syncthreads();
    out(i) = buf[n - 1 - tid];
}

// A private 16-element local array per thread, read back in an order that depends on the thread
// (so it cannot live in registers).
extern "C" __global__ void st_local(rumba_array<double, 1> out) {
    double l[16];
    rumba_index i = rumba_grid1();
    if (i >= out.shape[0]) return;
    for (int k = 0; k < 16; ++k) l[k] = (double)i + k;
    double acc = 0.0;
    for (int k = 0; k < 16; ++k) acc += l[(5 * k + (int)(i % 16)) % 16] * (k + 1);
    out(i) = acc;
}

// A lookup table in constant memory, filled by the launch from a `const_array_like`.
__constant__ float st_lut[64];

extern "C" __global__ void st_const(rumba_array<float, 1> out) {
    rumba_index i = rumba_grid1();
    if (i < out.shape[0]) out(i) = st_lut[i % 64] * 2.0f + (float)i;
}

// Block-wide barrier values: every thread receives the count, the and and the or.
extern "C" __global__ void st_barrier_values(rumba_array<int, 1> pred, rumba_array<int, 1> count,
                                             rumba_array<int, 1> all, rumba_array<int, 1> any) {
    rumba_index i = rumba_grid1();
    int p = pred(i);
    count(i) = __syncthreads_count(p);
    all(i) = __syncthreads_and(p);
    any(i) = __syncthreads_or(p);
}

// Atomics on global memory from every thread, and a shared-memory histogram per block.
extern "C" __global__ void st_atomics(rumba_array<unsigned long long, 1> sum,
                                      rumba_array<int, 1> minmax, rumba_array<float, 1> fsum,
                                      rumba_array<unsigned int, 1> bits,
                                      rumba_array<unsigned int, 1> hist) {
    __shared__ unsigned int h[16];
    int tid = threadIdx.x;
    if (tid < 16) h[tid] = 0;
    __syncthreads();
    rumba_index i = rumba_grid1();
    atomicAdd(&sum(0), (unsigned long long)i);
    atomicMax(&minmax(0), (int)i);
    atomicMin(&minmax(1), -(int)i);
    atomicAdd(&fsum(0), 0.5f);
    atomicOr(&bits(0), 1u << (i % 32));
    atomicInc(&bits(1), 0xffffffffu);
    atomicAdd(&h[i % 16], 1u);
    __syncthreads();
    if (tid < 16) atomicAdd(&hist(tid), h[tid]);
}

// A maximum through a compare-and-swap loop.
extern "C" __global__ void st_cas_max(rumba_array<int, 1> res, rumba_array<int, 1> values) {
    int v = values(rumba_grid1());
    int old = res(0);
    while (old < v) {
        int seen = atomicCAS(&res(0), old, v);
        if (seen == old) break;
        old = seen;
    }
}

// b = 2 * a + 1 on 2-d views of any layout (sliced, negative strides, transposed).
extern "C" __global__ void st_strided(rumba_array<float, 2> a, rumba_array<float, 2> b) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < b.shape[0] && x < b.shape[1]) b(y, x) = 2.0f * a(y, x) + 1.0f;
}
