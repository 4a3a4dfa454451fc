// OpenCL C forms of the few kernels that behaviour tests outside kernel_*.rs launch (devices.rs,
// host_grained.rs), so those tests run on the opencl backend too (RUMBA_TEST_BACKEND=opencl).
// Each is the Rust closure of its test, the same kernel as in behaviour.cu. Arrays follow the
// kernel ABI's layout without hidden parameters (crates/rumba-kernel-ir/ABI.md §3): pointer of
// element 0, byte offset, extents, byte strides. Replaced by #[rumba::kernel] output when it lands.

// Element `i` of a 1-d array argument `name` (its `name_off` and `name_st` are in bytes).
#define AT1(T, name, i) (*(__global T*)((__global char*)name + name##_off + (i) * name##_st))

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void copy_plus_1(__global double* inp, long inp_off, long inp_n, long inp_st,
                          __global double* out, long out_off, long out_n, long out_st) {
    long i = get_global_id(0);
    if (i < out_n) AT1(double, out, i) = AT1(double, inp, i) + 1.0;
}

__kernel void vector_add_scalar(__global double* arr, long arr_off, long arr_n, long arr_st,
                                double val) {
    long i = get_global_id(0);
    if (i < arr_n) AT1(double, arr, i) = AT1(double, arr, i) + val;
}
#endif

__kernel void add1(__global int* dst, long dst_off, long dst_n, long dst_st,
                   __global int* src, long src_off, long src_n, long src_st) {
    long i = get_global_id(0);
    if (i < dst_n) AT1(int, dst, i) = AT1(int, src, i) + 1;
}
