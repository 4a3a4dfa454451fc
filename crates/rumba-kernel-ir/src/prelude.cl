// rumba's OpenCL C prelude for #[rumba::kernel] programs (see crates/rumba-kernel-ir/ABI.md).
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#ifdef cl_khr_int64_extended_atomics
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif

// The fault record and site of a checked operation: `RB_AT(7)` is "at site 7".
#define RB_AT(site) rb_fault, (site)

// Records the first fault (ABI.md §5): the first thread to set the flag writes the rest.
static inline void rb_record(__global uint* f, uint site, uint code, uint ndim, ulong i0,
                             ulong i1, ulong i2, long s0, long s1, long s2) {
    if (atomic_cmpxchg((volatile __global int*)f, 0, 1) != 0) return;
    f[1] = code;
    f[2] = site;
    f[3] = ndim;
    f[4] = (uint)get_group_id(0);
    f[5] = (uint)get_group_id(1);
    f[6] = (uint)get_group_id(2);
    f[7] = (uint)get_local_id(0);
    f[8] = (uint)get_local_id(1);
    f[9] = (uint)get_local_id(2);
    __global ulong* w = (__global ulong*)(f + 10);
    w[0] = i0;
    w[1] = i1;
    w[2] = i2;
    w[3] = (ulong)s0;
    w[4] = (ulong)s1;
    w[5] = (ulong)s2;
}

static inline void rb_oob(__global uint* f, uint site, uint ndim, ulong i0, ulong i1, ulong i2,
                          long s0, long s1, long s2) {
    rb_record(f, site, 1, ndim, i0, i1, i2, s0, s1, s2);
}

// An index out of bounds of an array of more than three dimensions: every component (six
// slots from byte 40), the extent of the first axis it exceeds (byte 88) and that axis (byte 96).
static inline void rb_oob_nd(__global uint* f, uint site, uint ndim, const ulong* i, long extent,
                             uint axis) {
    if (atomic_cmpxchg((volatile __global int*)f, 0, 1) != 0) return;
    f[1] = 1;
    f[2] = site;
    f[3] = ndim;
    f[4] = (uint)get_group_id(0);
    f[5] = (uint)get_group_id(1);
    f[6] = (uint)get_group_id(2);
    f[7] = (uint)get_local_id(0);
    f[8] = (uint)get_local_id(1);
    f[9] = (uint)get_local_id(2);
    __global ulong* w = (__global ulong*)(f + 10);
    for (uint k = 0; k < ndim; k++) w[k] = i[k];
    w[6] = (ulong)extent;
    f[24] = axis;
}

static inline void rb_fail(__global uint* f, uint site, uint code) {
#ifndef RUMBA_UNCHECKED
    rb_record(f, site, code, 0, 0, 0, 0, 0, 0, 0);
#endif
}

// Integer division and remainder with Rust's faults: a zero divisor, and MIN / -1 for signed
// types, record a fault and yield 0 (C would be undefined).
#define RB_DIV_SIGNED(tag, T, MIN)                                                          \
    static inline T rb_div_##tag(T a, T b, __global uint* f, uint site) {                   \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                       \
        if (b == -1 && a == MIN) { rb_fail(f, site, 3); return 0; }                         \
        return a / b;                                                                         \
    }                                                                                         \
    static inline T rb_rem_##tag(T a, T b, __global uint* f, uint site) {                   \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                       \
        if (b == -1 && a == MIN) { rb_fail(f, site, 3); return 0; }                         \
        return a % b;                                                                         \
    }
#define RB_DIV_UNSIGNED(tag, T)                                                             \
    static inline T rb_div_##tag(T a, T b, __global uint* f, uint site) {                   \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                       \
        return a / b;                                                                         \
    }                                                                                         \
    static inline T rb_rem_##tag(T a, T b, __global uint* f, uint site) {                   \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                       \
        return a % b;                                                                         \
    }
RB_DIV_SIGNED(i8, char, CHAR_MIN)
RB_DIV_SIGNED(i16, short, SHRT_MIN)
RB_DIV_SIGNED(i32, int, INT_MIN)
RB_DIV_SIGNED(i64, long, LONG_MIN)
RB_DIV_UNSIGNED(u8, uchar)
RB_DIV_UNSIGNED(u16, ushort)
RB_DIV_UNSIGNED(u32, uint)
RB_DIV_UNSIGNED(u64, ulong)

// Rust's wrapping_abs: MIN stays MIN (the builtin `abs` of some implementations folds it to 0).
#define RB_WABS(tag, T, UT) \
    static inline T rb_wabs_##tag(T x) { return x < 0 ? (T)((UT)0 - (UT)x) : x; }
RB_WABS(i8, char, uint)
RB_WABS(i16, short, uint)
RB_WABS(i32, int, uint)
RB_WABS(i64, long, ulong)

// syncthreads_count / _and / _or: OpenCL 1.2 has no work-group reductions. Each work-item writes
// its predicate into its own slot of `c[1..]` and work-item 0 adds them up into `c[0]`, between
// barriers; every barrier is reached by the whole work-group (the branches between them hold no
// barrier). No atomics and no reset racing the additions: on PoCL a local counter reset by
// work-item 0 and incremented atomically by all lost up to one vector's worth of increments now
// and then. Work-groups past RB_SYNC_SLOTS work-items (CUDA's limit is 1024) fall back to that
// counter. The leading barrier keeps the writes away from the previous call's readers.
#define RB_SYNC_SLOTS 1024
#define RB_SYNC_LEN (RB_SYNC_SLOTS + 1)
static inline int rb_syncthreads_count(__local int* c, int p) {
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t lid = get_local_id(0)
        + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (n <= RB_SYNC_SLOTS) c[1 + lid] = p != 0;
    else if (lid == 0) c[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (n > RB_SYNC_SLOTS && p) atomic_inc((volatile __local int*)c);
    if (n <= RB_SYNC_SLOTS && lid == 0) {
        int s = 0;
        for (size_t k = 0; k < n; k++) s += c[1 + k];
        c[0] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    return c[0];
}
static inline int rb_syncthreads_and(__local int* c, int p) {
    int n = (int)(get_local_size(0) * get_local_size(1) * get_local_size(2));
    return rb_syncthreads_count(c, p) == n;
}
static inline int rb_syncthreads_or(__local int* c, int p) {
    return rb_syncthreads_count(c, p) != 0;
}

// Complex numbers (`Complex<f32>` / `Complex<f64>`): num-complex's layout (re, then im) and its
// formulas, so results agree bit for bit with the simulator (FP_CONTRACT is off).
#define RB_COMPLEX(C, T)                                                                       \
    typedef struct { T re; T im; } C;                                                           \
    static inline C C##_new(T re, T im) { C z; z.re = re; z.im = im; return z; }                \
    static inline C C##_add(C a, C b) { return C##_new(a.re + b.re, a.im + b.im); }             \
    static inline C C##_sub(C a, C b) { return C##_new(a.re - b.re, a.im - b.im); }             \
    static inline C C##_mul(C a, C b) {                                                         \
        return C##_new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);                   \
    }                                                                                           \
    static inline C C##_div(C a, C b) {                                                         \
        T n = b.re * b.re + b.im * b.im;                                                        \
        return C##_new((a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n);       \
    }                                                                                           \
    static inline C C##_neg(C a) { return C##_new(-a.re, -a.im); }                             \
    static inline bool C##_eq(C a, C b) { return a.re == b.re && a.im == b.im; }
RB_COMPLEX(rb_c32, float)
#ifdef cl_khr_fp64
RB_COMPLEX(rb_c64, double)
#endif
// Numba's cmath on complex numbers (`z.exp()`, `z.norm()`, …): the formulas of the simulator's
// `ComplexMath` over this target's real functions, so each part agrees within a few ulp.
#define RB_CMATH(C, T, F)                                                                      \
    static inline T C##_norm(C z) { return hypot(z.re, z.im); }                                       \
    static inline T C##_arg(C z) { return atan2(z.im, z.re); }                                        \
    static inline C C##_conj(C z) { return C##_new(z.re, -z.im); }                                        \
    static inline C C##_exp(C z) {                                                                         \
        T r = exp(z.re);                                                                      \
        return C##_new(r * cos(z.im), r * sin(z.im));                                      \
    }                                                                                            \
    static inline C C##_ln(C z) { return C##_new(log(C##_norm(z)), C##_arg(z)); }                      \
    static inline C C##_sqrt(C z) {                                                                        \
        if (z.re == (T)0 && z.im == (T)0) return C##_new((T)0, z.im);                            \
        T t = sqrt((fabs(z.re) + C##_norm(z)) * (T)0.5);                                   \
        if (z.re >= (T)0) return C##_new(t, z.im / ((T)2 * t));                                  \
        return C##_new(fabs(z.im) / ((T)2 * t), copysign(t, z.im));                        \
    }                                                                                            \
    static inline C C##_sin(C z) {                                                                         \
        return C##_new(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im));              \
    }                                                                                            \
    static inline C C##_cos(C z) {                                                                         \
        return C##_new(cos(z.re) * cosh(z.im), -(sin(z.re) * sinh(z.im)));           \
    }                                                                                            \
    static inline C C##_tan(C z) {                                                                         \
        T a = (T)2 * z.re, b = (T)2 * z.im;                                                      \
        T d = cos(a) + cosh(b);                                                            \
        return C##_new(sin(a) / d, sinh(b) / d);                                           \
    }                                                                                            \
    static inline C C##_sinh(C z) {                                                                        \
        return C##_new(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im));              \
    }                                                                                            \
    static inline C C##_cosh(C z) {                                                                        \
        return C##_new(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im));              \
    }                                                                                            \
    static inline C C##_tanh(C z) {                                                                        \
        T a = (T)2 * z.re, b = (T)2 * z.im;                                                      \
        T d = cosh(a) + cos(b);                                                            \
        return C##_new(sinh(a) / d, sin(b) / d);                                           \
    }                                                                                            \
    static inline int C##_is_nan(C z) { return isnan(z.re) || isnan(z.im); }                              \
    static inline int C##_is_infinite(C z) {                                                               \
        return !C##_is_nan(z) && (isinf(z.re) || isinf(z.im));                                  \
    }                                                                                            \
    static inline int C##_is_finite(C z) { return isfinite(z.re) && isfinite(z.im); }
RB_CMATH(rb_c32, float, )
#ifdef cl_khr_fp64
RB_CMATH(rb_c64, double, )
#endif

// Warp operations without subgroups: 32-lane warps (consecutive linear work-item ids, as in
// CUDA) emulated in local memory, one 64-bit word per work-item (`rb_warp`). Each operation is
// two work-group barriers, so the WHOLE work-group must reach it in uniform control flow, like
// `syncthreads`; a partial mask selects whose values count, not who waits.
static inline uint rb_linear_lid(void) {
    return (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}
static inline uint rb_warp_lanes(void) {
    uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
    return min(32u, n - (rb_linear_lid() & ~31u));
}
static inline uint rb_activemask(void) {
    uint lanes = rb_warp_lanes();
    return lanes == 32u ? 0xffffffffu : ((1u << lanes) - 1u);
}
static inline void rb_warp_put(__local ulong* w, ulong v) {
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    w[rb_linear_lid()] = v;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
static inline void rb_syncwarp(__local ulong* w, uint mask) {
    (void)w;
    (void)mask;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
static inline uint rb_ballot_sync(__local ulong* w, uint mask, int p) {
    rb_warp_put(w, p ? 1ul : 0ul);
    uint base = rb_linear_lid() & ~31u;
    uint lanes = rb_warp_lanes();
    uint r = 0u;
    for (uint j = 0u; j < lanes; j++) {
        if (((mask >> j) & 1u) != 0u && w[base + j] != 0ul) r |= 1u << j;
    }
    return r;
}
static inline int rb_all_sync(__local ulong* w, uint mask, int p) {
    uint m = mask & rb_activemask();
    return rb_ballot_sync(w, mask, p) == m;
}
static inline int rb_any_sync(__local ulong* w, uint mask, int p) {
    return rb_ballot_sync(w, mask, p) != 0u;
}
// mode: 0 idx, 1 up, 2 down, 3 xor. A source outside the warp keeps the caller's own value.
static inline ulong rb_shfl_bits(__local ulong* w, uint mask, ulong v, uint mode, uint arg) {
    (void)mask;
    rb_warp_put(w, v);
    uint lid = rb_linear_lid();
    uint lane = lid % 32u;
    uint j = mode == 0u ? arg % 32u
           : mode == 1u ? (arg <= lane ? lane - arg : lane)
           : mode == 2u ? (arg < 32u - lane ? lane + arg : lane)
           : ((lane ^ arg) < 32u ? (lane ^ arg) : lane);
    if (j >= rb_warp_lanes()) j = lane;
    return w[(lid & ~31u) + j];
}
// `f16` (`half::f16`) without cl_khr_fp16: values are `float`s holding an f16 value, arrays
// hold the `ushort` bits, read with vload_half and written with vstore_half (round to nearest
// even). Each f16 operation is computed in float and rounded by `rb_hr`, as `half` and CUDA's
// __hadd / __hsub / __hmul compute it (float has enough bits that this rounding is exact).
static inline float rb_h2f(ushort h) { return vload_half(0, (const __private half*)&h); }
static inline ushort rb_f2h(float x) {
    ushort h;
    vstore_half(x, 0, (__private half*)&h);
    return h;
}
static inline float rb_hr(float x) { return rb_h2f(rb_f2h(x)); }
static inline float rb_hmax(float a, float b) { return (isnan(a) || b > a) ? b : a; }
static inline float rb_hmin(float a, float b) { return (isnan(a) || b < a) ? b : a; }
#ifdef cl_khr_fp64
static inline float rb_d2hf(double x) {
    ushort h;
    vstore_half(x, 0, (__private half*)&h);
    return rb_h2f(h);
}
#endif
// CUDA's integer intrinsics with Rust's meaning at every width (`count_ones`, `leading_zeros`,
// `trailing_zeros`, `ffs`, `reverse_bits`, `swap_bytes`, `byte_perm`): the value zero-extended
// to 64 bits, the width in bits where the answer depends on it (OpenCL 1.2 built-ins only).
static inline uint rb_popc(ulong v) { return (uint)popcount(v); }
static inline uint rb_clz(ulong v, uint bits) { return (uint)clz(v) - (64u - bits); }
static inline uint rb_ctz(ulong v, uint bits) {
    return v == 0 ? bits : (uint)popcount((v & (0ul - v)) - 1ul);
}
static inline uint rb_ffs(ulong v) { return v == 0 ? 0u : (uint)popcount((v & (0ul - v)) - 1ul) + 1u; }
static inline ulong rb_brev(ulong v) {
    v = ((v >> 1) & 0x5555555555555555ul) | ((v & 0x5555555555555555ul) << 1);
    v = ((v >> 2) & 0x3333333333333333ul) | ((v & 0x3333333333333333ul) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0ful) | ((v & 0x0f0f0f0f0f0f0f0ful) << 4);
    v = ((v >> 8) & 0x00ff00ff00ff00fful) | ((v & 0x00ff00ff00ff00fful) << 8);
    v = ((v >> 16) & 0x0000ffff0000fffful) | ((v & 0x0000ffff0000fffful) << 16);
    return (v >> 32) | (v << 32);
}
static inline ulong rb_bswap(ulong v) {
    v = ((v >> 8) & 0x00ff00ff00ff00fful) | ((v & 0x00ff00ff00ff00fful) << 8);
    v = ((v >> 16) & 0x0000ffff0000fffful) | ((v & 0x0000ffff0000fffful) << 16);
    return (v >> 32) | (v << 32);
}
static inline uint rb_byte_perm(uint x, uint y, uint s) {
    ulong in = ((ulong)y << 32) | (ulong)x;
    uint r = 0u;
    for (uint n = 0u; n < 4u; ++n) {
        uint sel = (s >> (4u * n)) & 7u;
        r |= (uint)((in >> (8u * sel)) & 0xfful) << (8u * n);
    }
    return r;
}
