// rumba's device-side header for CUDA C kernels.
//
// An array argument is passed to a kernel as a `rumba_array<T, N>`: the device address of element
// (0, ..., 0), the shape, and byte strides (negative and zero allowed, as in rumba's layouts), so
// a kernel indexes any view — sliced, transposed, broadcast — in n dimensions. Only what NVRTC
// provides is used (no standard headers), so every source that includes this compiles with NVRTC
// alone.
#pragma once

#define RUMBA_MAX_DIMS 8

typedef long long rumba_index;

// An n-d array argument: `N` axes of elements of type `T`. The launch passes, for each array
// parameter, exactly this struct: the address of element (0, ..., 0), then the shape, then the
// byte strides (the layout rumba's CUDA backend packs; see driver/cuda/launch.rs).
template <typename T, int N>
struct rumba_array {
    T* data;
    rumba_index shape[N];
    rumba_index strides[N];

    // Number of elements.
    __device__ __forceinline__ rumba_index size() const {
        rumba_index n = 1;
        for (int ax = 0; ax < N; ++ax) n *= shape[ax];
        return n;
    }

    // The element at an n-d index (1, 2 and 3 axes).
    __device__ __forceinline__ T& operator()(rumba_index i) const {
        return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + i * strides[0]);
    }
    __device__ __forceinline__ T& operator()(rumba_index i, rumba_index j) const {
        return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + i * strides[0] +
                                     j * strides[1]);
    }
    __device__ __forceinline__ T& operator()(rumba_index i, rumba_index j, rumba_index k) const {
        return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + i * strides[0] +
                                     j * strides[1] + k * strides[2]);
    }

    // The element with C-order linear index `i` (any number of axes), as `a[i]`.
    __device__ __forceinline__ T& operator[](rumba_index i) const { return flat(i); }

    // The element with C-order linear index `i` (any number of axes).
    __device__ __forceinline__ T& flat(rumba_index i) const {
        rumba_index off = 0;
        for (int ax = N - 1; ax >= 0; --ax) {
            off += (i % shape[ax]) * strides[ax];
            i /= shape[ax];
        }
        return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + off);
    }
};

// A constant array passed to a `#[rumba::device]` function, which takes `rumba_array<T, N>`
// for every space: the callee only reads it (its Rust form checks that at compile time).
template <typename T, int N>
__device__ __forceinline__ rumba_array<T, N> rb_unconst(const rumba_array<const T, N>& a) {
    rumba_array<T, N> r;
    r.data = const_cast<T*>(a.data);
    for (int k = 0; k < N; ++k) {
        r.shape[k] = a.shape[k];
        r.strides[k] = a.strides[k];
    }
    return r;
}

// The global linear thread index and the total number of threads of a 1-d grid (numba's
// cuda.grid(1) and cuda.gridsize(1)).
__device__ __forceinline__ rumba_index rumba_grid1() {
    return (rumba_index)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ rumba_index rumba_gridsize1() {
    return (rumba_index)gridDim.x * blockDim.x;
}

// ---------------------------------------------------------------------------------------------
// Support for the CUDA C that #[rumba::kernel] generates (crates/rumba-kernel-ir/ABI.md): the
// fault record of checked mode, bounds-checked element access for every view, atomics, integer
// division with Rust's faults, saturating float-to-integer casts. A checked access that is out of
// bounds records the first fault and is skipped (a load yields 0): the kernel never exits early.
// Compile with -DRUMBA_UNCHECKED to drop the checks.

typedef unsigned long long rb_u64;

// The 128-byte fault record (ABI.md section 5).
struct rumba_fault {
    unsigned int flag, code, site, ndim;
    unsigned int block[3], thread[3];
    rb_u64 index[3];
    rb_u64 shape[3];
    unsigned int reserved[10];
};

// "At site N": the fault record and the site number of a checked operation.
#define RB_AT(site) rb_fault, (site)

__device__ __noinline__ void rb_record(rumba_fault* f, unsigned site, unsigned code, unsigned ndim,
                                       rb_u64 i0, rb_u64 i1, rb_u64 i2, rumba_index s0,
                                       rumba_index s1, rumba_index s2) {
    if (f == 0 || atomicCAS(&f->flag, 0u, 1u) != 0u) return;
    f->code = code;
    f->site = site;
    f->ndim = ndim;
    f->block[0] = blockIdx.x;
    f->block[1] = blockIdx.y;
    f->block[2] = blockIdx.z;
    f->thread[0] = threadIdx.x;
    f->thread[1] = threadIdx.y;
    f->thread[2] = threadIdx.z;
    f->index[0] = i0;
    f->index[1] = i1;
    f->index[2] = i2;
    f->shape[0] = (rb_u64)s0;
    f->shape[1] = (rb_u64)s1;
    f->shape[2] = (rb_u64)s2;
}

__device__ __forceinline__ void rb_fail(rumba_fault* f, unsigned site, unsigned code) {
#ifndef RUMBA_UNCHECKED
    rb_record(f, site, code, 0, 0, 0, 0, 0, 0, 0);
#endif
}

// An index out of range outside an element access (a view's `row` / `index_axis`).
__device__ __forceinline__ void rb_oob(rumba_fault* f, unsigned site, unsigned ndim, rb_u64 i0,
                                       rb_u64 i1, rb_u64 i2, rumba_index s0, rumba_index s1,
                                       rumba_index s2) {
#ifndef RUMBA_UNCHECKED
    rb_record(f, site, 1, ndim, i0, i1, i2, s0, s1, s2);
#endif
}

// A non-deduced context: the stored value converts to the element type.
template <typename T> struct rb_id { typedef T type; };

// An index out of bounds: the first thread records it (ABI.md section 5). Up to three
// dimensions, every component and every extent; beyond, every component (six slots from
// `index`), the extent of the first axis it exceeds (byte 88) and that axis (byte 96).
__device__ __noinline__ void rb_record_oob(rumba_fault* f, unsigned site, int ndim, const rb_u64* i,
                                           const rumba_index* sh, int axis) {
    if (ndim <= 3) {
        rb_record(f, site, 1, ndim, i[0], ndim > 1 ? i[1] : 0, ndim > 2 ? i[2] : 0, sh[0],
                  ndim > 1 ? sh[1] : 0, ndim > 2 ? sh[2] : 0);
        return;
    }
    if (f == 0 || atomicCAS(&f->flag, 0u, 1u) != 0u) return;
    f->code = 1;
    f->site = site;
    f->ndim = ndim;
    f->block[0] = blockIdx.x;
    f->block[1] = blockIdx.y;
    f->block[2] = blockIdx.z;
    f->thread[0] = threadIdx.x;
    f->thread[1] = threadIdx.y;
    f->thread[2] = threadIdx.z;
    rb_u64* w = (rb_u64*)((char*)f + 40);
    for (int k = 0; k < ndim; ++k) w[k] = i[k];
    w[6] = (rb_u64)sh[axis];
    *(unsigned int*)((char*)f + 96) = (unsigned int)axis;
}

// The checked address of an element, or 0 (after recording the fault) when out of bounds.
template <typename T, int N>
__device__ __forceinline__ T* rb_at_n(const rumba_array<T, N>& a, const rb_u64* i, rumba_fault* f,
                                      unsigned site) {
    rumba_index off = 0;
    for (int k = 0; k < N; ++k) {
#ifndef RUMBA_UNCHECKED
        if (i[k] >= (rb_u64)a.shape[k]) {
            rb_record_oob(f, site, N, i, a.shape, k);
            return 0;
        }
#endif
        off += (rumba_index)i[k] * a.strides[k];
    }
    return (T*)((const char*)a.data + off);
}

// A 0-d array argument: the address of its one element (the host passes nothing else). The
// kernel holds it as a 1-d view of one element.
template <typename T> struct rumba_array0 {
    T* data;
};

// A C-ordered view of fixed memory (shared, local and dynamic shared arrays), of any rank.
template <typename T, typename... D>
__device__ __forceinline__ rumba_array<T, (int)sizeof...(D)> rb_fixed(T* p, D... d) {
    rumba_array<T, (int)sizeof...(D)> a;
    const rumba_index dims[] = {(rumba_index)d...};
    a.data = p;
    rumba_index s = (rumba_index)sizeof(T);
    for (int k = (int)sizeof...(D) - 1; k >= 0; --k) {
        a.shape[k] = dims[k];
        a.strides[k] = s;
        s *= dims[k];
    }
    return a;
}

// Bytes of dynamic shared memory of this launch.
__device__ __forceinline__ rb_u64 rb_dyn_shared_bytes() {
    unsigned int r;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
    return r;
}

// Atomic words: the integer a value's bits are swapped as.
template <typename T> struct rb_word;
template <> struct rb_word<int> {
    typedef int W;
    static __device__ W to(int x) { return x; }
    static __device__ int from(W w) { return w; }
};
template <> struct rb_word<unsigned int> {
    typedef unsigned int W;
    static __device__ W to(unsigned int x) { return x; }
    static __device__ unsigned int from(W w) { return w; }
};
template <> struct rb_word<long long> {
    typedef rb_u64 W;
    static __device__ W to(long long x) { return (W)x; }
    static __device__ long long from(W w) { return (long long)w; }
};
template <> struct rb_word<rb_u64> {
    typedef rb_u64 W;
    static __device__ W to(rb_u64 x) { return x; }
    static __device__ rb_u64 from(W w) { return w; }
};
template <> struct rb_word<float> {
    typedef int W;
    static __device__ W to(float x) { return __float_as_int(x); }
    static __device__ float from(W w) { return __int_as_float(w); }
};
template <> struct rb_word<double> {
    typedef rb_u64 W;
    static __device__ W to(double x) { return (W)__double_as_longlong(x); }
    static __device__ double from(W w) { return __longlong_as_double((long long)w); }
};

// *p = op(*p, v) as a compare-and-swap loop on the bits; returns the old value.
template <typename T, typename F> __device__ __forceinline__ T rb_rmw(T* p, F op) {
    typedef typename rb_word<T>::W W;
    W* q = (W*)p;
    W old = *(volatile W*)q, seen;
    do {
        seen = old;
        old = atomicCAS(q, seen, rb_word<T>::to(op(rb_word<T>::from(seen))));
    } while (old != seen);
    return rb_word<T>::from(old);
}

// *p = v if due(*p), as a compare-and-swap loop on the bits (no write when not due); returns the
// old value.
template <typename T, typename F> __device__ __forceinline__ T rb_store_if(T* p, T v, F due) {
    typedef typename rb_word<T>::W W;
    W* q = (W*)p;
    W old = *(volatile W*)q, seen;
    while (due(rb_word<T>::from(old))) {
        seen = old;
        old = atomicCAS(q, seen, rb_word<T>::to(v));
        if (old == seen) break;
    }
    return rb_word<T>::from(old);
}

// The atomic operations on one element (CUDA semantics). Float min / max follow Numba's
// cuda.atomic.min / max: a NaN already stored stays and a NaN operand changes nothing; nanmin /
// nanmax treat NaN as missing data (a stored NaN is replaced, a NaN operand changes nothing).
template <typename T> __device__ __forceinline__ T rb_do_add(T* p, T v) { return rb_rmw(p, [=](T x) { return (T)(x + v); }); }
__device__ __forceinline__ int rb_do_add(int* p, int v) { return atomicAdd(p, v); }
__device__ __forceinline__ unsigned int rb_do_add(unsigned int* p, unsigned int v) { return atomicAdd(p, v); }
__device__ __forceinline__ rb_u64 rb_do_add(rb_u64* p, rb_u64 v) { return atomicAdd(p, v); }
__device__ __forceinline__ long long rb_do_add(long long* p, long long v) { return (long long)atomicAdd((rb_u64*)p, (rb_u64)v); }
__device__ __forceinline__ float rb_do_add(float* p, float v) { return atomicAdd(p, v); }
template <typename T> __device__ __forceinline__ T rb_do_sub(T* p, T v) { return rb_rmw(p, [=](T x) { return (T)(x - v); }); }
__device__ __forceinline__ int rb_do_sub(int* p, int v) { return atomicSub(p, v); }
__device__ __forceinline__ unsigned int rb_do_sub(unsigned int* p, unsigned int v) { return atomicSub(p, v); }
__device__ __forceinline__ rb_u64 rb_do_sub(rb_u64* p, rb_u64 v) { return atomicAdd(p, 0ull - v); }
__device__ __forceinline__ long long rb_do_sub(long long* p, long long v) { return (long long)atomicAdd((rb_u64*)p, 0ull - (rb_u64)v); }
template <typename T> __device__ __forceinline__ T rb_do_min(T* p, T v) { return rb_rmw(p, [=](T x) { return v < x ? v : x; }); }
__device__ __forceinline__ int rb_do_min(int* p, int v) { return atomicMin(p, v); }
__device__ __forceinline__ unsigned int rb_do_min(unsigned int* p, unsigned int v) { return atomicMin(p, v); }
__device__ __forceinline__ rb_u64 rb_do_min(rb_u64* p, rb_u64 v) { return atomicMin(p, v); }
__device__ __forceinline__ long long rb_do_min(long long* p, long long v) { return atomicMin(p, v); }
__device__ __forceinline__ float rb_do_min(float* p, float v) { return rb_store_if(p, v, [=](float x) { return v < x; }); }
__device__ __forceinline__ double rb_do_min(double* p, double v) { return rb_store_if(p, v, [=](double x) { return v < x; }); }
template <typename T> __device__ __forceinline__ T rb_do_max(T* p, T v) { return rb_rmw(p, [=](T x) { return v > x ? v : x; }); }
__device__ __forceinline__ int rb_do_max(int* p, int v) { return atomicMax(p, v); }
__device__ __forceinline__ unsigned int rb_do_max(unsigned int* p, unsigned int v) { return atomicMax(p, v); }
__device__ __forceinline__ rb_u64 rb_do_max(rb_u64* p, rb_u64 v) { return atomicMax(p, v); }
__device__ __forceinline__ long long rb_do_max(long long* p, long long v) { return atomicMax(p, v); }
__device__ __forceinline__ float rb_do_max(float* p, float v) { return rb_store_if(p, v, [=](float x) { return x < v; }); }
__device__ __forceinline__ double rb_do_max(double* p, double v) { return rb_store_if(p, v, [=](double x) { return x < v; }); }
template <typename T> __device__ __forceinline__ T rb_do_nanmin(T* p, T v) { return rb_do_min(p, v); }
__device__ __forceinline__ float rb_do_nanmin(float* p, float v) { return rb_store_if(p, v, [=](float x) { return v == v && (x != x || v < x); }); }
__device__ __forceinline__ double rb_do_nanmin(double* p, double v) { return rb_store_if(p, v, [=](double x) { return v == v && (x != x || v < x); }); }
template <typename T> __device__ __forceinline__ T rb_do_nanmax(T* p, T v) { return rb_do_max(p, v); }
__device__ __forceinline__ float rb_do_nanmax(float* p, float v) { return rb_store_if(p, v, [=](float x) { return v == v && (x != x || x < v); }); }
__device__ __forceinline__ double rb_do_nanmax(double* p, double v) { return rb_store_if(p, v, [=](double x) { return v == v && (x != x || x < v); }); }
template <typename T> __device__ __forceinline__ T rb_do_and(T* p, T v) { return rb_word<T>::from(atomicAnd((typename rb_word<T>::W*)p, rb_word<T>::to(v))); }
template <typename T> __device__ __forceinline__ T rb_do_or(T* p, T v) { return rb_word<T>::from(atomicOr((typename rb_word<T>::W*)p, rb_word<T>::to(v))); }
template <typename T> __device__ __forceinline__ T rb_do_xor(T* p, T v) { return rb_word<T>::from(atomicXor((typename rb_word<T>::W*)p, rb_word<T>::to(v))); }
template <typename T> __device__ __forceinline__ T rb_do_exch(T* p, T v) { return rb_word<T>::from(atomicExch((typename rb_word<T>::W*)p, rb_word<T>::to(v))); }
template <typename T> __device__ __forceinline__ T rb_do_cas(T* p, T expected, T v) {
    return rb_word<T>::from(atomicCAS((typename rb_word<T>::W*)p, rb_word<T>::to(expected), rb_word<T>::to(v)));
}
template <typename T> __device__ __forceinline__ T rb_do_inc(T* p, T v) { return rb_rmw(p, [=](T x) { return x >= v ? (T)0 : (T)(x + 1); }); }
__device__ __forceinline__ unsigned int rb_do_inc(unsigned int* p, unsigned int v) { return atomicInc(p, v); }
template <typename T> __device__ __forceinline__ T rb_do_dec(T* p, T v) { return rb_rmw(p, [=](T x) { return (x == 0 || x > v) ? v : (T)(x - 1); }); }
__device__ __forceinline__ unsigned int rb_do_dec(unsigned int* p, unsigned int v) { return atomicDec(p, v); }
// Checked loads, stores and atomics on views of rank 1 to 6 (a 0-d array is a 1-d view of one
// element): `rb_ld(a, i0, …, f, site)`, `rb_st(a, i0, …, v, f, site)`,
// `rb_atomic_OP(a, i0, …, v, f, site)`, `rb_atomic_cas(a, i0, …, expected, v, f, site)`.
#define RB_P1 rb_u64 i0
#define RB_P2 RB_P1, rb_u64 i1
#define RB_P3 RB_P2, rb_u64 i2
#define RB_P4 RB_P3, rb_u64 i3
#define RB_P5 RB_P4, rb_u64 i4
#define RB_P6 RB_P5, rb_u64 i5
#define RB_A1 i0
#define RB_A2 RB_A1, i1
#define RB_A3 RB_A2, i2
#define RB_A4 RB_A3, i3
#define RB_A5 RB_A4, i4
#define RB_A6 RB_A5, i5
// (The names are written out: `and` / `or` / `xor` are operator tokens in C++, which `##`
// cannot paste.)
#define RB_ATOMIC(N, NAME, DO)                                                                  \
    template <typename T>                                                                       \
    __device__ __forceinline__ T NAME(const rumba_array<T, N>& a, RB_P##N,                      \
                                                typename rb_id<T>::type v, rumba_fault* f,      \
                                                unsigned site) {                                \
        T* p = rb_at(a, RB_A##N, f, site);                                                      \
        return p ? DO(p, v) : T();                                                              \
    }
#define RB_ACCESS(N)                                                                            \
    template <typename T>                                                                       \
    __device__ __forceinline__ T* rb_at(const rumba_array<T, N>& a, RB_P##N, rumba_fault* f,    \
                                        unsigned site) {                                        \
        const rb_u64 i[N] = {RB_A##N};                                                          \
        return rb_at_n(a, i, f, site);                                                          \
    }                                                                                           \
    template <typename T>                                                                       \
    __device__ __forceinline__ T rb_ld(const rumba_array<T, N>& a, RB_P##N, rumba_fault* f,     \
                                       unsigned site) {                                         \
        T* p = rb_at(a, RB_A##N, f, site);                                                      \
        return p ? *p : T();                                                                    \
    }                                                                                           \
    template <typename T>                                                                       \
    __device__ __forceinline__ void rb_st(const rumba_array<T, N>& a, RB_P##N,                  \
                                          typename rb_id<T>::type v, rumba_fault* f,            \
                                          unsigned site) {                                      \
        T* p = rb_at(a, RB_A##N, f, site);                                                      \
        if (p) *p = v;                                                                          \
    }                                                                                           \
    RB_ATOMIC(N, rb_atomic_add, rb_do_add)                                                      \
    RB_ATOMIC(N, rb_atomic_sub, rb_do_sub)                                                      \
    RB_ATOMIC(N, rb_atomic_min, rb_do_min)                                                      \
    RB_ATOMIC(N, rb_atomic_max, rb_do_max)                                                      \
    RB_ATOMIC(N, rb_atomic_nanmin, rb_do_nanmin)                                                \
    RB_ATOMIC(N, rb_atomic_nanmax, rb_do_nanmax)                                                \
    RB_ATOMIC(N, rb_atomic_and, rb_do_and)                                                      \
    RB_ATOMIC(N, rb_atomic_or, rb_do_or)                                                        \
    RB_ATOMIC(N, rb_atomic_xor, rb_do_xor)                                                      \
    RB_ATOMIC(N, rb_atomic_exch, rb_do_exch)                                                    \
    RB_ATOMIC(N, rb_atomic_inc, rb_do_inc)                                                      \
    RB_ATOMIC(N, rb_atomic_dec, rb_do_dec)                                                      \
    template <typename T>                                                                       \
    __device__ __forceinline__ T rb_atomic_cas(const rumba_array<T, N>& a, RB_P##N,             \
                                               typename rb_id<T>::type expected,                \
                                               typename rb_id<T>::type v, rumba_fault* f,       \
                                               unsigned site) {                                 \
        T* p = rb_at(a, RB_A##N, f, site);                                                      \
        return p ? rb_do_cas(p, expected, v) : T();                                             \
    }
RB_ACCESS(1)
RB_ACCESS(2)
RB_ACCESS(3)
RB_ACCESS(4)
RB_ACCESS(5)
RB_ACCESS(6)

// Integer division and remainder with Rust's faults (a zero divisor, MIN / -1): recorded, 0.
#define RB_DIV_SIGNED(T, MIN)                                                                 \
    __device__ __forceinline__ T rb_div(T a, T b, rumba_fault* f, unsigned site) {            \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                         \
        if (b == (T)-1 && a == (MIN)) { rb_fail(f, site, 3); return 0; }                       \
        return (T)(a / b);                                                                      \
    }                                                                                           \
    __device__ __forceinline__ T rb_rem(T a, T b, rumba_fault* f, unsigned site) {            \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                         \
        if (b == (T)-1 && a == (MIN)) { rb_fail(f, site, 3); return 0; }                      \
        return (T)(a % b);                                                                      \
    }
#define RB_DIV_UNSIGNED(T)                                                                    \
    __device__ __forceinline__ T rb_div(T a, T b, rumba_fault* f, unsigned site) {            \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                         \
        return (T)(a / b);                                                                      \
    }                                                                                           \
    __device__ __forceinline__ T rb_rem(T a, T b, rumba_fault* f, unsigned site) {            \
        if (b == 0) { rb_fail(f, site, 2); return 0; }                                         \
        return (T)(a % b);                                                                      \
    }
RB_DIV_SIGNED(signed char, (signed char)-128)
RB_DIV_SIGNED(short, (short)-32768)
RB_DIV_SIGNED(int, (-2147483647 - 1))
RB_DIV_SIGNED(long long, (-9223372036854775807ll - 1))
RB_DIV_UNSIGNED(unsigned char)
RB_DIV_UNSIGNED(unsigned short)
RB_DIV_UNSIGNED(unsigned int)
RB_DIV_UNSIGNED(unsigned long long)

// Float to integer `as`: saturating, NaN to 0 (Rust's rule).
#define RB_SAT(tag, R, LO, HI_EXCL, RMIN, RMAX)                                               \
    __device__ __forceinline__ R rb_sat_##tag(float x) {                                      \
        return x != x ? (R)0 : x <= (float)(LO) ? (R)(RMIN) : x >= (float)(HI_EXCL) ? (R)(RMAX) : (R)x; \
    }                                                                                           \
    __device__ __forceinline__ R rb_sat_##tag(double x) {                                     \
        return x != x ? (R)0 : x <= (double)(LO) ? (R)(RMIN) : x >= (double)(HI_EXCL) ? (R)(RMAX) : (R)x; \
    }
RB_SAT(i8, signed char, -128.0, 128.0, -128, 127)
RB_SAT(u8, unsigned char, 0.0, 256.0, 0, 255)
RB_SAT(i16, short, -32768.0, 32768.0, -32768, 32767)
RB_SAT(u16, unsigned short, 0.0, 65536.0, 0, 65535)
RB_SAT(i32, int, -2147483648.0, 2147483648.0, (-2147483647 - 1), 2147483647)
RB_SAT(u32, unsigned int, 0.0, 4294967296.0, 0u, 4294967295u)
RB_SAT(i64, long long, -9223372036854775808.0, 9223372036854775808.0, (-9223372036854775807ll - 1), 9223372036854775807ll)
RB_SAT(u64, unsigned long long, 0.0, 18446744073709551616.0, 0ull, 18446744073709551615ull)

// Integer min, max and wrapping abs (Rust's Ord::min / max, i32::wrapping_abs).
template <typename T> __device__ __forceinline__ T rb_min(T a, T b) { return b < a ? b : a; }
template <typename T> __device__ __forceinline__ T rb_max(T a, T b) { return b < a ? a : b; }
template <typename T> __device__ __forceinline__ T rb_wabs(T a) { return a < 0 ? (T)(0ull - (rb_u64)a) : a; }

// Complex numbers (`Complex<f32>` / `Complex<f64>` in a #[rumba::kernel]): num-complex's layout
// (re, then im) and its formulas, so results agree bit for bit with the simulator (NVRTC runs
// with --fmad=false: no contraction).
#define RB_COMPLEX(C, T)                                                                       \
    struct C {                                                                                  \
        T re;                                                                                   \
        T im;                                                                                   \
    };                                                                                          \
    __device__ __forceinline__ C C##_new(T re, T im) {                                          \
        C z;                                                                                    \
        z.re = re;                                                                              \
        z.im = im;                                                                              \
        return z;                                                                               \
    }                                                                                           \
    __device__ __forceinline__ C C##_add(C a, C b) { return C##_new(a.re + b.re, a.im + b.im); } \
    __device__ __forceinline__ C C##_sub(C a, C b) { return C##_new(a.re - b.re, a.im - b.im); } \
    __device__ __forceinline__ C C##_mul(C a, C b) {                                            \
        return C##_new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);                   \
    }                                                                                           \
    __device__ __forceinline__ C C##_div(C a, C b) {                                            \
        T n = b.re * b.re + b.im * b.im;                                                        \
        return C##_new((a.re * b.re + a.im * b.im) / n, (a.im * b.re - a.re * b.im) / n);       \
    }                                                                                           \
    __device__ __forceinline__ C C##_neg(C a) { return C##_new(-a.re, -a.im); }                 \
    __device__ __forceinline__ bool C##_eq(C a, C b) { return a.re == b.re && a.im == b.im; }
RB_COMPLEX(rb_c32, float)
RB_COMPLEX(rb_c64, double)

// CUDA's integer intrinsics with Rust's meaning at every width (`count_ones`, `leading_zeros`,
// `trailing_zeros`, `ffs`, `reverse_bits`, `swap_bytes`): the value zero-extended to 64 bits,
// the width in bits where the answer depends on it.
__device__ __forceinline__ unsigned rb_popc(rb_u64 v) { return (unsigned)__popcll((long long)v); }
__device__ __forceinline__ unsigned rb_clz(rb_u64 v, unsigned bits) {
    return (unsigned)__clzll((long long)v) - (64u - bits);
}
__device__ __forceinline__ unsigned rb_ctz(rb_u64 v, unsigned bits) {
    return v == 0 ? bits : (unsigned)(__ffsll((long long)v) - 1);
}
__device__ __forceinline__ unsigned rb_ffs(rb_u64 v) { return (unsigned)__ffsll((long long)v); }
__device__ __forceinline__ rb_u64 rb_brev(rb_u64 v) { return __brevll(v); }
__device__ __forceinline__ rb_u64 rb_bswap(rb_u64 v) {
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    return ((rb_u64)__byte_perm(lo, 0u, 0x0123u) << 32) | (rb_u64)__byte_perm(hi, 0u, 0x0123u);
}

// Numba's cmath on complex numbers (`z.exp()`, `z.norm()`, …): the formulas of the simulator's
// `ComplexMath` over this target's real functions, so each part agrees within a few ulp.
#define RB_CMATH(C, T, F)                                                                      \
    __device__ __forceinline__ T C##_norm(C z) { return hypot##F(z.re, z.im); }                                       \
    __device__ __forceinline__ T C##_arg(C z) { return atan2##F(z.im, z.re); }                                        \
    __device__ __forceinline__ C C##_conj(C z) { return C##_new(z.re, -z.im); }                                        \
    __device__ __forceinline__ C C##_exp(C z) {                                                                         \
        T r = exp##F(z.re);                                                                      \
        return C##_new(r * cos##F(z.im), r * sin##F(z.im));                                      \
    }                                                                                            \
    __device__ __forceinline__ C C##_ln(C z) { return C##_new(log##F(C##_norm(z)), C##_arg(z)); }                      \
    __device__ __forceinline__ C C##_sqrt(C z) {                                                                        \
        if (z.re == (T)0 && z.im == (T)0) return C##_new((T)0, z.im);                            \
        T t = sqrt##F((fabs##F(z.re) + C##_norm(z)) * (T)0.5);                                   \
        if (z.re >= (T)0) return C##_new(t, z.im / ((T)2 * t));                                  \
        return C##_new(fabs##F(z.im) / ((T)2 * t), copysign##F(t, z.im));                        \
    }                                                                                            \
    __device__ __forceinline__ C C##_sin(C z) {                                                                         \
        return C##_new(sin##F(z.re) * cosh##F(z.im), cos##F(z.re) * sinh##F(z.im));              \
    }                                                                                            \
    __device__ __forceinline__ C C##_cos(C z) {                                                                         \
        return C##_new(cos##F(z.re) * cosh##F(z.im), -(sin##F(z.re) * sinh##F(z.im)));           \
    }                                                                                            \
    __device__ __forceinline__ C C##_tan(C z) {                                                                         \
        T a = (T)2 * z.re, b = (T)2 * z.im;                                                      \
        T d = cos##F(a) + cosh##F(b);                                                            \
        return C##_new(sin##F(a) / d, sinh##F(b) / d);                                           \
    }                                                                                            \
    __device__ __forceinline__ C C##_sinh(C z) {                                                                        \
        return C##_new(sinh##F(z.re) * cos##F(z.im), cosh##F(z.re) * sin##F(z.im));              \
    }                                                                                            \
    __device__ __forceinline__ C C##_cosh(C z) {                                                                        \
        return C##_new(cosh##F(z.re) * cos##F(z.im), sinh##F(z.re) * sin##F(z.im));              \
    }                                                                                            \
    __device__ __forceinline__ C C##_tanh(C z) {                                                                        \
        T a = (T)2 * z.re, b = (T)2 * z.im;                                                      \
        T d = cosh##F(a) + cos##F(b);                                                            \
        return C##_new(sinh##F(a) / d, sin##F(b) / d);                                           \
    }                                                                                            \
    __device__ __forceinline__ int C##_is_nan(C z) { return isnan(z.re) || isnan(z.im); }                              \
    __device__ __forceinline__ int C##_is_infinite(C z) {                                                               \
        return !C##_is_nan(z) && (isinf(z.re) || isinf(z.im));                                  \
    }                                                                                            \
    __device__ __forceinline__ int C##_is_finite(C z) { return isfinite(z.re) && isfinite(z.im); }
RB_CMATH(rb_c32, float, f)
RB_CMATH(rb_c64, double, )
