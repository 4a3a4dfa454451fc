// The kernels of `rumba selftest` (crates/rumba-cli/src/selftest/kernels.rs) in OpenCL C, so the
// kernel checks run on the opencl backend too: the same kernels as the Rust bodies there and as
// selftest.cu. Replaced by what #[rumba::kernel] generates when it lands.
//
// Every kernel takes the kernel ABI's generated layout (crates/rumba-kernel-ir/ABI.md §3): each
// array as 2N + 2 arguments (pointer of element (0,…,0), byte offset, N extents, N byte strides,
// negative allowed), scalars by value, then the hidden dynamic local memory, its size in bytes
// and the 128-byte fault record (§5). Built with -cl-std=CL1.2.

#pragma OPENCL FP_CONTRACT OFF

#define RB_HIDDEN __local ulong *rb_dyn_shared, ulong rb_dyn_bytes, __global uint *rb_fault
#define ARR1(T, a) __global T *a, long a##_off, long a##_n, long a##_st
#define ARR2(T, a) \
    __global T *a, long a##_off, long a##_n0, long a##_n1, long a##_s0, long a##_s1
// Pointer to element i (or (i, j)) of an array argument, through its offset and byte strides.
#define PTR1(T, a, i) ((__global T *)((__global char *)a + a##_off + (long)(i) * a##_st))
#define PTR2(T, a, i, j) \
    ((__global T *)((__global char *)a + a##_off + (long)(i) * a##_s0 + (long)(j) * a##_s1))
#define AT1(T, a, i) (*PTR1(T, a, i))
#define AT2(T, a, i, j) (*PTR2(T, a, i, j))

// One partial sum per block of 256 through a local-memory tree (one barrier per level).
__kernel void st_block_sum(ARR1(float, x), ARR1(float, partial), RB_HIDDEN) {
    __local float s[256];
    int tid = get_local_id(0);
    long i = get_global_id(0);
    s[tid] = i < x_n ? AT1(float, x, i) : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) AT1(float, partial, get_group_id(0)) = s[0];
}

// Each block reverses its slice of `a` through the dynamic local memory sized at launch.
__kernel void st_dyn_reverse(ARR1(int, a), ARR1(int, out), RB_HIDDEN) {
    __local int *buf = (__local int *)rb_dyn_shared;
    int tid = get_local_id(0), n = get_local_size(0);
    long i = get_global_id(0);
    buf[tid] = AT1(int, a, i);
    barrier(CLK_LOCAL_MEM_FENCE);
    AT1(int, out, i) = buf[n - 1 - tid];
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// A private 16-element array per thread, read back in an order that depends on the thread (so
// it cannot live in registers). Needs doubles: absent on a device without cl_khr_fp64.
__kernel void st_local(ARR1(double, out), RB_HIDDEN) {
    double l[16];
    long i = get_global_id(0);
    if (i >= out_n) return;
    for (int k = 0; k < 16; ++k) l[k] = (double)(i + k);
    double acc = 0.0;
    for (int k = 0; k < 16; ++k) acc += l[(5 * k + (int)(i % 16)) % 16] * (double)(k + 1);
    AT1(double, out, i) = acc;
}
#endif

#ifdef ST_LUT
// A lookup table in constant memory. The launch cannot fill a program global on OpenCL (the ABI
// passes constant data as read-only arguments), so kernels.rs defines ST_LUT as the values of
// the `const_array_like` table, taken when the kernel is defined, and builds this form apart.
__constant float st_lut[64] = {ST_LUT};

__kernel void st_const(ARR1(float, out), RB_HIDDEN) {
    long i = get_global_id(0);
    if (i < out_n) AT1(float, out, i) = st_lut[i % 64] * 2.0f + (float)i;
}
#endif

// Block-wide barrier values: every thread receives the count, the and and the or of its block's
// predicates (OpenCL C 1.2 has no work-group reductions: one local counter, two barriers).
// (`all` and `any` are OpenCL C built-ins, hence the names `every` and `some`.)
__kernel void st_barrier_values(ARR1(int, pred), ARR1(int, count), ARR1(int, every),
                                ARR1(int, some), RB_HIDDEN) {
    __local int n;
    if (get_local_id(0) == 0) n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long i = get_global_id(0);
    if (AT1(int, pred, i) != 0) atomic_inc(&n);
    barrier(CLK_LOCAL_MEM_FENCE);
    int c = n;
    AT1(int, count, i) = c;
    AT1(int, every, i) = c == (int)get_local_size(0);
    AT1(int, some, i) = c > 0;
}

// f32 add as a compare-and-swap loop (OpenCL C 1.2 has no float atomics).
void st_atomic_add_f32(__global float *p, float v) {
    volatile __global uint *u = (volatile __global uint *)p;
    uint old = *u, seen;
    while ((seen = atomic_cmpxchg(u, old, as_uint(as_float(old) + v))) != old) old = seen;
}

#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
// Atomics on global memory from every thread, and a local-memory histogram per block. The u64
// add needs cl_khr_int64_base_atomics: absent on a device without it.
__kernel void st_atomics(ARR1(ulong, sum), ARR1(int, minmax), ARR1(float, fsum), ARR1(uint, bits),
                         ARR1(uint, hist), RB_HIDDEN) {
    __local uint h[16];
    int tid = get_local_id(0);
    if (tid < 16) h[tid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long i = get_global_id(0);
    atom_add(PTR1(ulong, sum, 0), (ulong)i);
    atomic_max(PTR1(int, minmax, 0), (int)i);
    atomic_min(PTR1(int, minmax, 1), -(int)i);
    st_atomic_add_f32(PTR1(float, fsum, 0), 0.5f);
    atomic_or(PTR1(uint, bits, 0), 1u << (i % 32));
    atomic_inc(PTR1(uint, bits, 1));  // CUDA's atomicInc(p, 0xffffffff): wraps at the top
    atomic_inc(&h[i % 16]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid < 16) atomic_add(PTR1(uint, hist, tid), h[tid]);
}
#endif

// A maximum through a compare-and-swap loop.
__kernel void st_cas_max(ARR1(int, res), ARR1(int, values), RB_HIDDEN) {
    int v = AT1(int, values, get_global_id(0));
    volatile __global int *r = PTR1(int, res, 0);
    int old = *r;
    while (old < v) {
        int seen = atomic_cmpxchg(r, old, v);
        if (seen == old) break;
        old = seen;
    }
}

// b = 2 * a + 1 on 2-d views of any layout (sliced, negative strides, transposed).
__kernel void st_strided(ARR2(float, a), ARR2(float, b), RB_HIDDEN) {
    long x = get_global_id(0), y = get_global_id(1);
    if (y < b_n0 && x < b_n1) AT2(float, b, y, x) = 2.0f * AT2(float, a, y, x) + 1.0f;
}

// Writes 1 at its global index, checking the index as generated code does: the first thread out
// of bounds fills the fault record (code 1, index and extent), which the backend reports at the
// stream's next synchronization naming kernel, block and thread.
__kernel void st_oob(ARR1(int, a), RB_HIDDEN) {
    long i = get_global_id(0);
    if (i >= 0 && i < a_n) {
        AT1(int, a, i) = 1;
    } else if (atomic_cmpxchg(&rb_fault[0], 0u, 1u) == 0u) {
        rb_fault[1] = 1u;  // code: index out of bounds
        rb_fault[2] = 0u;  // site
        rb_fault[3] = 1u;  // ndim
        for (int k = 0; k < 3; ++k) {
            rb_fault[4 + k] = get_group_id(k);
            rb_fault[7 + k] = get_local_id(k);
        }
        __global ulong *wide = (__global ulong *)(rb_fault + 10);
        wide[0] = (ulong)i;    // index
        wide[3] = (ulong)a_n;  // extent
    }
}
