//! Arrays of 0 to 6 dimensions everywhere an array is (parameters, shared and local arrays,
//! views), `reshape` with `-1`, 0-d indexing `x[()]`, and NumPy's basic slicing in kernels —
//! after Numba's `test_array.py` (0-d and multi-dimensional arrays) and `test_slicing.py`.

use rumba::kernel::prelude::*;

/// A 0-d array read and written through `x[()]`, and a 0-d input.
#[kernel]
pub fn zero_dim(t: &Thread, x: &mut Arr<f64>, y: &Arr<i32>) {
    if t.grid1() == 0 {
        x[()] = x[()] * 2.0 + y[()] as f64;
    }
}

/// Every element of a 6-d array, scaled into another: thread `i` takes the `i`-th element in
/// C order.
#[kernel]
pub fn six_dims(t: &Thread, a: &Arr<i32>, b: &mut Arr<i32>) {
    let i = t.grid1();
    if i < a.size() {
        let mut r = i;
        let i5 = r % a.shape()[5];
        r /= a.shape()[5];
        let i4 = r % a.shape()[4];
        r /= a.shape()[4];
        let i3 = r % a.shape()[3];
        r /= a.shape()[3];
        let i2 = r % a.shape()[2];
        r /= a.shape()[2];
        let i1 = r % a.shape()[1];
        let i0 = r / a.shape()[1];
        b[(i0, i1, i2, i3, i4, i5)] = a[(i0, i1, i2, i3, i4, i5)] * 10 + i0 as i32;
    }
}

/// Shared arrays of 4 and 0 dimensions, a local array of 6, and a 5-d output.
#[kernel]
pub fn many_dims_block(t: &Thread, out: &mut Arr<u32>, last: &mut Arr<u32>) {
    let s = t.shared_array::<u32>((2, 2, 2, 2));
    let z = t.shared_array::<u32>(());
    let l = t.local_array::<u32>((1, 2, 1, 2, 1, 2));
    let tid = t.thread_idx().x as usize;
    if tid < 16 {
        s[(tid / 8, tid / 4 % 2, tid / 2 % 2, tid % 2)] = tid as u32;
    }
    if tid == 0 {
        z[()] = 7;
    }
    t.syncthreads();
    for k in 0..8 {
        l[(0, k / 4, 0, k / 2 % 2, 0, k % 2)] = k as u32 + tid as u32;
    }
    if tid < 16 {
        let j = 15 - tid;
        let v = s[(j / 8, j / 4 % 2, j / 2 % 2, j % 2)] + z[()] * 100 + l[(0, 1, 0, 1, 0, 1)];
        out[(tid / 8, tid / 4 % 2, tid / 2 % 2, tid % 2, 0)] = v;
    }
    if tid == 16 {
        last[()] = s.size() as u32 + l.size() as u32 + z.size() as u32;
    }
}

/// `reshape` with one `-1` (NumPy's inferred extent), to 4 dimensions and to 0.
#[kernel]
pub fn reshape_infer(t: &Thread, a: &Arr<f32>, out: &mut Arr<f32>, dims: &mut Arr<usize>) {
    if t.grid1() == 0 {
        let m = a.reshape((-1, 2, 3));
        let q = a.reshape((2, -1, 2, 2));
        let flat = a.reshape(-1);
        let one = a.reshape((1, 1, 1, 1, 1, -1));
        dims[0] = m.shape()[0];
        dims[1] = q.shape()[1];
        dims[2] = flat.len();
        dims[3] = one.shape()[5];
        out[0] = m[(3, 1, 2)];
        out[1] = q[(1, 2, 1, 0)];
        out[2] = flat[23];
        let c = out.reshape((1, 3));
        c[(0, 2)] = one[(0, 0, 0, 0, 0, 5)];
    }
}

/// A one-element array reshaped to 0-d, and a bad `-1` (the sizes do not divide).
#[kernel]
pub fn reshape_zero_dim(t: &Thread, a: &mut Arr<i64>, n: usize) {
    if t.grid1() == 0 {
        let z = a.reshape(());
        z[()] = z[()] + 1;
        if n > 0 {
            let bad = a.reshape((n, -1));
            bad[(0, 0)] = 99;
        }
    }
}

/// Numba's `test_slicing.py` `test_slice_as_arg`: row `i` of `inp` and `out`, each a slice
/// `[i, :]`, passed to a device function that copies `out.shape[0]` elements.
#[device]
pub fn slice_copy(inp: &Arr<i32>, out: &mut Arr<i32>) {
    for i in 0..out.shape()[0] {
        out[i] = inp[i];
    }
}

/// The kernel of `test_slice_as_arg`.
#[kernel]
pub fn numba_slice_copy(t: &Thread, inp: &Arr<i32>, out: &mut Arr<i32>) {
    let i = t.grid1();
    let src = inp.slice(s![i, ..]);
    let dst = out.slice(s![i, ..]);
    slice_copy(src, dst);
}

/// NumPy's rules on a 4 x 6 array: negative indices and steps, clamped ranges, empty slices.
#[kernel]
pub fn slice_rules(t: &Thread, a: &Arr<i64>, out: &mut Arr<i64>, sizes: &mut Arr<usize>) {
    if t.grid1() == 0 {
        let rev = a.slice(s![-1, ..;-1]);
        let cols = a.slice(s![1..3, 1..;2]);
        let back = a.slice(s![..;-2, 4]);
        let clamp = a.slice(s![-100..100, 5]);
        let empty = a.slice(s![3..1]);
        let elem = a.slice(s![2, -2]);
        sizes[0] = rev.len();
        sizes[1] = cols.shape()[0] * 10 + cols.shape()[1];
        sizes[2] = back.len();
        sizes[3] = clamp.len();
        sizes[4] = empty.shape()[0] * 10 + empty.shape()[1];
        for k in 0..6 {
            out[k] = rev[k];
        }
        for r in 0..2 {
            for c in 0..3 {
                out[6 + r * 3 + c] = cols[(r, c)];
            }
        }
        out[12] = back[0];
        out[13] = back[1];
        out[14] = clamp[3];
        out[15] = elem[()];
        let w = out.slice(s![16..20;3]);
        w[1] = -7;
    }
}

/// Each thread takes row `i` of a 3-row array: thread 3's slice is out of range, a fault naming
/// kernel, block and thread.
#[kernel]
pub fn bad_slice(t: &Thread, a: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.thread_idx().x as usize;
    let r = a.slice(s![i as isize, 1..]);
    if i < out.len() {
        out[i] = r[0];
    }
}

/// A zero step is a fault.
#[kernel]
pub fn zero_step(t: &Thread, a: &mut Arr<f32>, step: isize) {
    let r = a.slice(s![..;step]);
    if t.grid1() == 0 {
        r[0] = 1.0;
    }
}

/// Slices of shared memory made and used on both sides of a barrier.
#[kernel]
pub fn shared_slices(t: &Thread, out: &mut Arr<i32>) {
    let s = t.shared_array::<i32>((4, 8));
    let tid = t.thread_idx().x as usize;
    let row = s.slice(s![tid / 8, ..]);
    row[tid % 8] = tid as i32;
    t.syncthreads();
    let col = s.slice(s![.., tid % 8]);
    out[tid] = col[3 - tid / 8];
}

/// Thread `i` reads element `(0, 1, 0, i, 0)` of a 5-d array whose fourth extent is 2: thread 2
/// is out of bounds (the fault carries all five components).
#[kernel]
pub fn oob_five_dims(t: &Thread, a: &Arr<u16>, out: &mut Arr<u16>) {
    let i = t.thread_idx().x as usize;
    let v = a[(0, 1, 0, i, 0)];
    if i < out.len() {
        out[i] = v;
    }
}

/// A 4-d constant array and a 0-d one: a slice of the first, a row of that, and the scalar.
#[kernel]
pub fn const_ranks(t: &Thread, c: &ConstArr<i32>, z: &ConstArr<i32>, out: &mut Arr<i32>) {
    let i = t.grid1();
    let plane = c.slice(s![1, .., 0]);
    let row = plane.row(2);
    if i < row.len() {
        out[i] = row[i] + z[()];
    }
}
