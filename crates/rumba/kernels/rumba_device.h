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

// The global linear thread index and the total number of threads of a 1-d grid (numba's
// cuda.grid(1) and cuda.gridsize(1)).
__device__ __forceinline__ rumba_index rumba_grid1() {
    return (rumba_index)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ rumba_index rumba_gridsize1() {
    return (rumba_index)gridDim.x * blockDim.x;
}
