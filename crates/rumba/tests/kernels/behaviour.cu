// CUDA C forms of the few kernels that behaviour tests outside kernel_*.rs launch (devices.rs,
// host_grained.rs), so those tests run on the cuda backend too (RUMBA_TEST_BACKEND=cuda). Each is
// the Rust closure of its test, written against rumba's device header; NVRTC-checked in CI.
#include "rumba_device.h"

extern "C" __global__ void copy_plus_1(rumba_array<double, 1> inp, rumba_array<double, 1> out) {
    rumba_index i = rumba_grid1();
    if (i < out.shape[0]) out(i) = inp(i) + 1.0;
}

extern "C" __global__ void vector_add_scalar(rumba_array<double, 1> arr, double val) {
    rumba_index i = rumba_grid1();
    if (i < arr.shape[0]) arr(i) = arr(i) + val;
}

extern "C" __global__ void add1(rumba_array<int, 1> dst, rumba_array<int, 1> src) {
    rumba_index i = rumba_grid1();
    if (i < dst.shape[0]) dst(i) = src(i) + 1;
}
