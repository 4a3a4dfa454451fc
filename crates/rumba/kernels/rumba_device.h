// rumba's device-side header for CUDA C kernels.
//
// An array argument is passed to a kernel as a `rumba_array`: the device address of element
// (0, ..., 0), the shape, and byte strides (negative and zero allowed, as in rumba's layouts), so
// a kernel indexes any view — sliced, transposed, broadcast — in n dimensions. Only what NVRTC
// provides is used (no standard headers), so every source that includes this compiles with NVRTC
// alone.
#pragma once

#define RUMBA_MAX_DIMS 8

typedef long long rumba_index;

struct rumba_array {
    char* data;                            // address of element (0, ..., 0)
    rumba_index shape[RUMBA_MAX_DIMS];     // elements per axis
    rumba_index strides[RUMBA_MAX_DIMS];   // bytes per step along each axis
    int ndim;
    int itemsize;
};

// Number of elements.
__device__ __forceinline__ rumba_index rumba_size(const rumba_array& a) {
    rumba_index n = 1;
    for (int ax = 0; ax < a.ndim; ++ax) n *= a.shape[ax];
    return n;
}

// Byte offset of the element with C-order linear index `i`.
__device__ __forceinline__ rumba_index rumba_offset(const rumba_array& a, rumba_index i) {
    rumba_index off = 0;
    for (int ax = a.ndim - 1; ax >= 0; --ax) {
        rumba_index n = a.shape[ax];
        off += (i % n) * a.strides[ax];
        i /= n;
    }
    return off;
}

// Typed element access by n-d index (1-, 2- and 3-d shorthands).
template <typename T>
__device__ __forceinline__ T& rumba_at(const rumba_array& a, rumba_index i) {
    return *reinterpret_cast<T*>(a.data + i * a.strides[0]);
}
template <typename T>
__device__ __forceinline__ T& rumba_at(const rumba_array& a, rumba_index i, rumba_index j) {
    return *reinterpret_cast<T*>(a.data + i * a.strides[0] + j * a.strides[1]);
}
template <typename T>
__device__ __forceinline__ T& rumba_at(const rumba_array& a, rumba_index i, rumba_index j,
                                       rumba_index k) {
    return *reinterpret_cast<T*>(a.data + i * a.strides[0] + j * a.strides[1] + k * a.strides[2]);
}

// The global linear thread index and the total number of threads of a 1-d grid (numba's
// cuda.grid(1) and cuda.gridsize(1)).
__device__ __forceinline__ rumba_index rumba_grid1() {
    return (rumba_index)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ rumba_index rumba_gridsize1() {
    return (rumba_index)gridDim.x * blockDim.x;
}
