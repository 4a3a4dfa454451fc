// The OpenCL implementation of rumba's Driver::copy_strided_async: for every index of `shape`,
// the element at dst + sum(i * dst_strides) receives source element i (a strided copy, gather or
// transpose), or the fill bytes (a broadcast fill). One work-item per element, grid-stride loop.
// OpenCL C 1.2: no generic address space, so the fill path (private bytes) and the copy path
// (global bytes) are written out separately.

#define RUMBA_MAX_DIMS 8
#define RUMBA_FILL_WORDS 8

// Mirrored field for field by `StridedCopyParams` in src/driver/strided_pack.rs (#[repr(C)]).
// The two addresses arrive again as SVM kernel arguments (OpenCL C forbids pointers inside a
// by-value struct); the struct's copies are ignored.
struct rumba_strided_copy {
    ulong dst_addr;
    ulong src_addr;
    long shape[RUMBA_MAX_DIMS];
    long dst_strides[RUMBA_MAX_DIMS];
    long src_strides[RUMBA_MAX_DIMS];
    long count;                          // number of elements
    ulong fill_words[RUMBA_FILL_WORDS];  // the fill element (up to 64 bytes)
    int ndim;
    int itemsize;
    int fill;                            // 1: write the fill element instead of reading src
    int word;                            // bytes moved at once: 1, 2, 4, 8 (16 only when copying)
};

#define RUMBA_MOVE(T, SRC_SPACE)                                              \
    for (int b = 0; b < p.itemsize; b += (int)sizeof(T)) {                    \
        *(__global T*)(d + b) = *(SRC_SPACE const T*)(s + b);                 \
    }

__kernel void rumba_strided_copy_kernel(__global char* dst, __global const char* src,
                                        const struct rumba_strided_copy p) {
    ulong words[RUMBA_FILL_WORDS];
    for (int k = 0; k < RUMBA_FILL_WORDS; ++k) {
        words[k] = p.fill_words[k];
    }
    const long step = (long)get_global_size(0);
    for (long i = (long)get_global_id(0); i < p.count; i += step) {
        long rem = i, doff = 0, soff = 0;
        for (int ax = p.ndim - 1; ax >= 0; --ax) {
            long n = p.shape[ax];
            long idx = rem % n;
            rem /= n;
            doff += idx * p.dst_strides[ax];
            soff += idx * p.src_strides[ax];
        }
        __global char* d = dst + doff;
        if (p.fill) {
            const char* s = (const char*)words;
            switch (p.word) {
                case 8: RUMBA_MOVE(ulong, ) break;
                case 4: RUMBA_MOVE(uint, ) break;
                case 2: RUMBA_MOVE(ushort, ) break;
                default: RUMBA_MOVE(uchar, ) break;
            }
        } else {
            __global const char* s = src + soff;
            switch (p.word) {
                case 16: RUMBA_MOVE(ulong2, __global) break;
                case 8: RUMBA_MOVE(ulong, __global) break;
                case 4: RUMBA_MOVE(uint, __global) break;
                case 2: RUMBA_MOVE(ushort, __global) break;
                default: RUMBA_MOVE(uchar, __global) break;
            }
        }
    }
}
