// The peer workloads of shared/peers/workloads.md in CUDA C, as `rumba bench` runs them on the
// cuda backend: the same kernels as the sim bodies, the Numba simulator and PoCL; and the empty
// kernel whose launches `rumba bench` times (the `launch` workload).
#include "rumba_device.h"

#define TPB 16

extern "C" __global__ void vadd(rumba_array<float, 1> a, rumba_array<float, 1> b,
                                rumba_array<float, 1> c) {
    rumba_index i = rumba_grid1();
    if (i < c.shape[0]) c(i) = a(i) + b(i);
}

extern "C" __global__ void matmul_shared(rumba_array<float, 2> A, rumba_array<float, 2> B,
                                         rumba_array<float, 2> C) {
    __shared__ float sA[TPB][TPB];
    __shared__ float sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    rumba_index n = C.shape[0];
    float acc = 0.0f;
    for (int t = 0; t < (int)gridDim.x; ++t) {
        sA[ty][tx] = 0.0f;
        sB[ty][tx] = 0.0f;
        if (y < n && tx + t * TPB < n) sA[ty][tx] = A(y, tx + t * TPB);
        if (x < n && ty + t * TPB < n) sB[ty][tx] = B(ty + t * TPB, x);
        __syncthreads();
        for (int j = 0; j < TPB; ++j) acc += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (y < n && x < n) C(y, x) = acc;
}

extern "C" __global__ void reduce_shared(rumba_array<float, 1> x, rumba_array<float, 1> partial) {
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

extern "C" __global__ void empty() {}
