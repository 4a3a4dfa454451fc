typedef struct { __global float* p; long sh[1]; long st[1]; } rb_g_float_1;
static inline float rb_ld_g_float_1(rb_g_float_1 a, ulong i0, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); float rb_z = {0}; return rb_z; }
#endif
    return *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0]));
}
static inline void rb_st_g_float_1(rb_g_float_1 a, ulong i0, float v, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); return; }
#endif
    *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0])) = v;
}
__kernel void vadd(__global float* a_ptr, long a_off, long a_sh0, long a_st0, __global float* b_ptr, long b_off, long b_sh0, long b_st0, __global float* c_ptr, long c_off, long c_sh0, long c_st0, __local ulong* rb_dyn_shared, ulong rb_dyn_bytes, __global uint* rb_fault) {
    rb_g_float_1 a = {(__global float*)((__global char*)a_ptr + a_off), {a_sh0}, {a_st0}};
    rb_g_float_1 b = {(__global float*)((__global char*)b_ptr + b_off), {b_sh0}, {b_st0}};
    rb_g_float_1 c = {(__global float*)((__global char*)c_ptr + c_off), {c_sh0}, {c_st0}};
    ulong i = ((ulong)get_group_id(0) * get_local_size(0) + get_local_id(0));
    if ((i < ((ulong)c.sh[0]))) {
        rb_st_g_float_1(c, i, (rb_ld_g_float_1(a, i, RB_AT(0)) + rb_ld_g_float_1(b, i, RB_AT(1))), RB_AT(2));
    }
}

typedef struct { __global float* p; long sh[2]; long st[2]; } rb_g_float_2;
typedef struct { __local float* p; long sh[2]; long st[2]; } rb_l_float_2;
static inline rb_l_float_2 rb_mk_l_float_2(__local float* p, long d0, long d1) {
    rb_l_float_2 a;
    a.p = p;
    a.sh[1] = d1;
    a.st[1] = (long)sizeof(float);
    a.sh[0] = d0;
    a.st[0] = (long)sizeof(float) * d1;
    return a;
}
static inline float rb_ld_g_float_2(rb_g_float_2 a, ulong i0, ulong i1, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0] || i1 >= (ulong)a.sh[1]) { rb_oob(rb_f, rb_site, 2, i0, i1, 0, a.sh[0], a.sh[1], 0); float rb_z = {0}; return rb_z; }
#endif
    return *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0] + (long)i1 * a.st[1]));
}
static inline float rb_ld_l_float_2(rb_l_float_2 a, ulong i0, ulong i1, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0] || i1 >= (ulong)a.sh[1]) { rb_oob(rb_f, rb_site, 2, i0, i1, 0, a.sh[0], a.sh[1], 0); float rb_z = {0}; return rb_z; }
#endif
    return *((__local float*)(((__local char*)a.p) + (long)i0 * a.st[0] + (long)i1 * a.st[1]));
}
static inline void rb_st_g_float_2(rb_g_float_2 a, ulong i0, ulong i1, float v, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0] || i1 >= (ulong)a.sh[1]) { rb_oob(rb_f, rb_site, 2, i0, i1, 0, a.sh[0], a.sh[1], 0); return; }
#endif
    *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0] + (long)i1 * a.st[1])) = v;
}
static inline void rb_st_l_float_2(rb_l_float_2 a, ulong i0, ulong i1, float v, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0] || i1 >= (ulong)a.sh[1]) { rb_oob(rb_f, rb_site, 2, i0, i1, 0, a.sh[0], a.sh[1], 0); return; }
#endif
    *((__local float*)(((__local char*)a.p) + (long)i0 * a.st[0] + (long)i1 * a.st[1])) = v;
}
__kernel void matmul_shared(__global float* a_ptr, long a_off, long a_sh0, long a_sh1, long a_st0, long a_st1, __global float* b_ptr, long b_off, long b_sh0, long b_sh1, long b_st0, long b_st1, __global float* c_ptr, long c_off, long c_sh0, long c_sh1, long c_st0, long c_st1, __local ulong* rb_dyn_shared, ulong rb_dyn_bytes, __global uint* rb_fault) {
    rb_g_float_2 a = {(__global float*)((__global char*)a_ptr + a_off), {a_sh0, a_sh1}, {a_st0, a_st1}};
    rb_g_float_2 b = {(__global float*)((__global char*)b_ptr + b_off), {b_sh0, b_sh1}, {b_st0, b_st1}};
    rb_g_float_2 c = {(__global float*)((__global char*)c_ptr + c_off), {c_sh0, c_sh1}, {c_st0, c_st1}};
    __local float sa_mem[TPB * TPB];
    __local float sb_mem[TPB * TPB];
    rb_l_float_2 sa = rb_mk_l_float_2(sa_mem, TPB, TPB);
    rb_l_float_2 sb = rb_mk_l_float_2(sb_mem, TPB, TPB);
    ulong x = ((ulong)get_group_id(0) * get_local_size(0) + get_local_id(0));
    ulong y = ((ulong)get_group_id(1) * get_local_size(1) + get_local_id(1));
    ulong tx = ((ulong)((uint)get_local_id(0)));
    ulong ty = ((ulong)((uint)get_local_id(1)));
    ulong n = ((ulong)c.sh[0]);
    float acc = 0.0f;
    for (ulong tile = 0ul, rb_end1 = ((ulong)((uint)get_num_groups(0))); tile < rb_end1; tile++) {
        rb_st_l_float_2(sa, ty, tx, (((y < n) && ((tx + (tile * TPB)) < n)) ? rb_ld_g_float_2(a, y, (tx + (tile * TPB)), RB_AT(0)) : 0.0f), RB_AT(1));
        rb_st_l_float_2(sb, ty, tx, (((x < n) && ((ty + (tile * TPB)) < n)) ? rb_ld_g_float_2(b, (ty + (tile * TPB)), x, RB_AT(2)) : 0.0f), RB_AT(3));
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (ulong j = 0ul, rb_end2 = TPB; j < rb_end2; j++) {
            acc = (acc + (rb_ld_l_float_2(sa, ty, j, RB_AT(4)) * rb_ld_l_float_2(sb, j, tx, RB_AT(5))));
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (((y < n) && (x < n))) {
        rb_st_g_float_2(c, y, x, acc, RB_AT(6));
    }
}

typedef struct { __global float* p; long sh[1]; long st[1]; } rb_g_float_1;
typedef struct { __local float* p; long sh[1]; long st[1]; } rb_l_float_1;
static inline rb_l_float_1 rb_mk_l_float_1(__local float* p, long d0) {
    rb_l_float_1 a;
    a.p = p;
    a.sh[0] = d0;
    a.st[0] = (long)sizeof(float);
    return a;
}
static inline float rb_ld_g_float_1(rb_g_float_1 a, ulong i0, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); float rb_z = {0}; return rb_z; }
#endif
    return *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0]));
}
static inline float rb_ld_l_float_1(rb_l_float_1 a, ulong i0, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); float rb_z = {0}; return rb_z; }
#endif
    return *((__local float*)(((__local char*)a.p) + (long)i0 * a.st[0]));
}
static inline void rb_st_g_float_1(rb_g_float_1 a, ulong i0, float v, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); return; }
#endif
    *((__global float*)(((__global char*)a.p) + (long)i0 * a.st[0])) = v;
}
static inline void rb_st_l_float_1(rb_l_float_1 a, ulong i0, float v, __global uint* rb_f, uint rb_site) {
#ifndef RUMBA_UNCHECKED
    if (i0 >= (ulong)a.sh[0]) { rb_oob(rb_f, rb_site, 1, i0, 0, 0, a.sh[0], 0, 0); return; }
#endif
    *((__local float*)(((__local char*)a.p) + (long)i0 * a.st[0])) = v;
}
__kernel void reduce_shared(__global float* x_ptr, long x_off, long x_sh0, long x_st0, __global float* partial_ptr, long partial_off, long partial_sh0, long partial_st0, __local ulong* rb_dyn_shared, ulong rb_dyn_bytes, __global uint* rb_fault) {
    rb_g_float_1 x = {(__global float*)((__global char*)x_ptr + x_off), {x_sh0}, {x_st0}};
    rb_g_float_1 partial = {(__global float*)((__global char*)partial_ptr + partial_off), {partial_sh0}, {partial_st0}};
    __local float s_mem[256];
    rb_l_float_1 s = rb_mk_l_float_1(s_mem, 256);
    ulong tid = ((ulong)((uint)get_local_id(0)));
    ulong i = ((ulong)get_group_id(0) * get_local_size(0) + get_local_id(0));
    rb_st_l_float_1(s, tid, ((i < ((ulong)x.sh[0])) ? rb_ld_g_float_1(x, i, RB_AT(0)) : 0.0f), RB_AT(1));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    ulong stride = 128ul;
    while ((stride > 0ul)) {
        if ((tid < stride)) {
            {
                ulong rb_i1 = tid;
                float rb_v2 = rb_ld_l_float_1(s, (tid + stride), RB_AT(2));
                rb_st_l_float_1(s, rb_i1, (rb_ld_l_float_1(s, rb_i1, RB_AT(3)) + rb_v2), RB_AT(3));
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        stride = rb_div_u64(stride, 2ul, RB_AT(4));
    }
    if ((tid == 0ul)) {
        rb_st_g_float_1(partial, ((ulong)((uint)get_group_id(0))), rb_ld_l_float_1(s, 0ul, RB_AT(5)), RB_AT(6));
    }
}

