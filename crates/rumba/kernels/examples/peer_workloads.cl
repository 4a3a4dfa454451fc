// The peer workloads (shared/peers/workloads.md) in OpenCL C, for `rumba bench` on the opencl
// backend until they are written with #[rumba::kernel]. Arrays follow the kernel ABI's layout
// without hidden parameters (crates/rumba-kernel-ir/ABI.md §3): pointer of element 0, byte
// offset, extents, byte strides.

#define AT1(p, off, st, i) (*(__global float*)((__global char*)(p) + (off) + (i) * (st)))
#define AT2(p, off, s0, s1, i, j) \
    (*(__global float*)((__global char*)(p) + (off) + (i) * (s0) + (j) * (s1)))
#define TPB 16

__kernel void vadd(__global float* a, long a_off, long a_n, long a_st,
                   __global float* b, long b_off, long b_n, long b_st,
                   __global float* c, long c_off, long c_n, long c_st) {
    long i = get_global_id(0);
    if (i < c_n) {
        AT1(c, c_off, c_st, i) = AT1(a, a_off, a_st, i) + AT1(b, b_off, b_st, i);
    }
}

__kernel void matmul_shared(__global float* A, long A_off, long A_n0, long A_n1, long A_s0, long A_s1,
                            __global float* B, long B_off, long B_n0, long B_n1, long B_s0, long B_s1,
                            __global float* C, long C_off, long C_n0, long C_n1, long C_s0, long C_s1) {
    __local float sa[TPB][TPB];
    __local float sb[TPB][TPB];
    long x = get_global_id(0), y = get_global_id(1);
    int tx = get_local_id(0), ty = get_local_id(1);
    long n = C_n0;
    float acc = 0.0f;
    for (long tile = 0; tile < (long)get_num_groups(0); ++tile) {
        sa[ty][tx] = 0.0f;
        sb[ty][tx] = 0.0f;
        if (y < n && tx + tile * TPB < n) sa[ty][tx] = AT2(A, A_off, A_s0, A_s1, y, tx + tile * TPB);
        if (x < n && ty + tile * TPB < n) sb[ty][tx] = AT2(B, B_off, B_s0, B_s1, ty + tile * TPB, x);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TPB; ++j) acc += sa[ty][j] * sb[j][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (y < n && x < n) AT2(C, C_off, C_s0, C_s1, y, x) = acc;
}

__kernel void reduce_shared(__global float* x, long x_off, long x_n, long x_st,
                            __global float* partial, long p_off, long p_n, long p_st) {
    __local float s[256];
    int tid = get_local_id(0);
    long i = get_global_id(0);
    s[tid] = i < x_n ? AT1(x, x_off, x_st, i) : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = 128; stride > 0; stride /= 2) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) AT1(partial, p_off, p_st, (long)get_group_id(0)) = s[0];
}
