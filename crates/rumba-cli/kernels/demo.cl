// The OpenCL C of `rumba demo`'s out-of-bounds kernel (crates/rumba-cli/src/demo.rs), until it is
// written with #[rumba::kernel]. It follows the kernel ABI's generated layout
// (crates/rumba-kernel-ir/ABI.md §3: array as pointer, byte offset, extent, byte stride, then the
// hidden parameters) and checks its index as the generated code would: the first thread out of
// bounds fills the fault record (§5), which the backend reports at the next synchronization.

__kernel void oob(__global int* a, long a_off, long a_n, long a_st,
                  __local ulong* rb_dyn_shared, ulong rb_dyn_bytes, __global uint* rb_fault) {
    long i = get_global_id(0);
    if (i < a_n) {
        *(__global int*)((__global char*)a + a_off + i * a_st) = 1;
    } else if (atomic_cmpxchg(&rb_fault[0], 0u, 1u) == 0u) {
        rb_fault[1] = 1u;  // code: index out of bounds
        rb_fault[3] = 1u;  // ndim
        rb_fault[4] = get_group_id(0);
        rb_fault[5] = get_group_id(1);
        rb_fault[6] = get_group_id(2);
        rb_fault[7] = get_local_id(0);
        rb_fault[8] = get_local_id(1);
        rb_fault[9] = get_local_id(2);
        __global ulong* wide = (__global ulong*)(rb_fault + 10);
        wide[0] = (ulong)i;      // index
        wide[3] = (ulong)a_n;    // shape
    }
}
