//! The kernels of behaviour tests outside `kernel_*.rs`: Numba's `test_multigpu_context` /
//! `test_with_context` (`devices.rs`) and `test_async_kernel` (`host_grained.rs`). Those binaries
//! include this file alone (`#[path]`), so they do not compile the other kernels.

use rumba::kernel::prelude::*;

/// `out = inp + 1`.
#[kernel]
pub fn copy_plus_1(t: &Thread, inp: &Arr<f64>, out: &mut Arr<f64>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = inp[i] + 1.0;
    }
}

/// `arr += val`.
#[kernel]
pub fn vector_add_scalar(t: &Thread, arr: &mut Arr<f64>, val: f64) {
    let i = t.grid1();
    if i < arr.len() {
        arr[i] = arr[i] + val;
    }
}

/// `dst = src + 1`.
#[kernel]
pub fn add1(t: &Thread, dst: &mut Arr<i32>, src: &Arr<i32>) {
    let i = t.grid1();
    if i < dst.len() {
        dst[i] = src[i] + 1;
    }
}
