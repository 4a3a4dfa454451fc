//! The kernels of `kernel_types.rs`: `bool` and `f16` elements in kernel arguments, shared
//! arrays and local arrays (Numba's `test_sm.py` shared bool case, an `f16` arithmetic kernel).

use rumba::kernel::prelude::*;

/// Numba's `test_shared_bool`: a shared `bool` array filled by every thread, copied out.
#[kernel]
pub fn shared_bool(t: &Thread, arr: &mut Arr<bool>) {
    let tid = t.thread_idx().x as usize;
    let sm = t.shared_array::<bool>(32);
    sm[tid] = tid % 2 == 0;
    t.syncthreads();
    arr[tid] = sm[31 - tid];
}

/// Negates a `bool` array through a local `bool` array.
#[kernel]
pub fn not_bool(t: &Thread, inp: &Arr<bool>, out: &mut Arr<bool>) {
    let i = t.grid1();
    let l = t.local_array::<bool>(2);
    l[0] = inp[i];
    l[1] = !l[0];
    if i < out.len() {
        out[i] = l[1];
    }
}

/// Counts the `true` elements of a `bool` array and copies them (any nonzero byte reads as
/// `true`; what is stored is 0 or 1).
#[kernel]
pub fn bool_copy_count(t: &Thread, inp: &Arr<bool>, out: &mut Arr<bool>, count: &mut Arr<u32>) {
    let i = t.grid1();
    if i < inp.len() {
        let b = inp[i];
        out[i] = b;
        if b {
            count.atomic_add(0, 1);
        }
    }
}
