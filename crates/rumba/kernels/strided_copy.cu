// The CUDA implementation of rumba's Driver::copy_strided_async: for every index of `shape`, the
// element at dst + sum(i * dst_strides) receives source element i (a strided copy, gather or
// transpose), or the fill bytes (a broadcast fill). One thread per element, grid-stride loop.
#include "rumba_device.h"

#define RUMBA_FILL_WORDS 8

// Mirrored field for field by `StridedCopyParams` in src/driver/cuda/strided.rs (#[repr(C)]).
struct rumba_strided_copy {
    char* dst;
    const char* src;
    rumba_index shape[RUMBA_MAX_DIMS];
    rumba_index dst_strides[RUMBA_MAX_DIMS];
    rumba_index src_strides[RUMBA_MAX_DIMS];
    rumba_index count;                                   // number of elements
    unsigned long long fill_words[RUMBA_FILL_WORDS];     // the fill element (up to 64 bytes)
    int ndim;
    int itemsize;
    int fill;     // 1: copy the fill element instead of reading src
    int word;     // bytes moved at once: 1, 2, 4, 8 (16 only when not filling)
};

template <typename W>
__device__ __forceinline__ void rumba_move(char* d, const char* s, int itemsize) {
    for (int b = 0; b < itemsize; b += (int)sizeof(W)) {
        *reinterpret_cast<W*>(d + b) = *reinterpret_cast<const W*>(s + b);
    }
}

extern "C" __global__ void rumba_strided_copy_kernel(const rumba_strided_copy p) {
    for (rumba_index i = rumba_grid1(); i < p.count; i += rumba_gridsize1()) {
        rumba_index rem = i, doff = 0, soff = 0;
        for (int ax = p.ndim - 1; ax >= 0; --ax) {
            rumba_index n = p.shape[ax];
            rumba_index idx = rem % n;
            rem /= n;
            doff += idx * p.dst_strides[ax];
            soff += idx * p.src_strides[ax];
        }
        char* d = p.dst + doff;
        const char* s = p.fill ? reinterpret_cast<const char*>(p.fill_words) : p.src + soff;
        switch (p.word) {
            case 16: rumba_move<ulonglong2>(d, s, p.itemsize); break;
            case 8: rumba_move<unsigned long long>(d, s, p.itemsize); break;
            case 4: rumba_move<unsigned int>(d, s, p.itemsize); break;
            case 2: rumba_move<unsigned short>(d, s, p.itemsize); break;
            default: rumba_move<unsigned char>(d, s, p.itemsize); break;
        }
    }
}
