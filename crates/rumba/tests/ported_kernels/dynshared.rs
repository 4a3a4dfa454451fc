//! Numba's `test_dynshared_slice_*` (`cudapy/test_sm.py`): slices of dynamic shared memory, made
//! with NumPy's slicing rules, written and read through the slices and the whole array. Each
//! kernel runs on one thread with four bytes of dynamic shared memory per output element.

use rumba::kernel::prelude::*;

/// `sm1 = dynsmem[0:1]; sm2 = dynsmem[1:2]`; written through the slices, read through the array.
#[kernel]
pub fn dynshared_slice_write(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![0..1]);
    let sm2 = d.slice(s![1..2]);
    sm1[0] = 1;
    sm2[0] = 2;
    x[0] = d[0];
    x[1] = d[1];
}

/// Written through the array, read through the slices.
#[kernel]
pub fn dynshared_slice_read(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![0..1]);
    let sm2 = d.slice(s![1..2]);
    d[0] = 1;
    d[1] = 2;
    x[0] = sm1[0];
    x[1] = sm2[0];
}

/// Slices of different sizes: `dynsmem[0:1]`, `dynsmem[1:3]`.
#[kernel]
pub fn dynshared_slice_diff_sizes(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![0..1]);
    let sm2 = d.slice(s![1..3]);
    for i in 0..3usize {
        d[i] = i as i32 + 1;
    }
    x[0] = sm1[0];
    x[1] = sm2[0];
    x[2] = sm2[1];
}

/// Overlapping slices: `dynsmem[0:2]`, `dynsmem[1:4]`.
#[kernel]
pub fn dynshared_slice_overlap(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![0..2]);
    let sm2 = d.slice(s![1..4]);
    for i in 0..4usize {
        d[i] = i as i32 + 1;
    }
    x[0] = sm1[0];
    x[1] = sm1[1];
    x[2] = sm2[0];
    x[3] = sm2[1];
    x[4] = sm2[2];
}

/// Slices with gaps between them: `dynsmem[1:3]`, `dynsmem[4:6]`.
#[kernel]
pub fn dynshared_slice_gaps(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![1..3]);
    let sm2 = d.slice(s![4..6]);
    for i in 0..7usize {
        d[i] = 99;
    }
    sm1[0] = 1;
    sm1[1] = 2;
    sm2[0] = 3;
    sm2[1] = 4;
    for i in 0..7usize {
        x[i] = d[i];
    }
}

/// Backwards slices: `dynsmem[1::-1]`, `dynsmem[3:1:-1]`.
#[kernel]
pub fn dynshared_slice_backwards(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![1..;-1]);
    let sm2 = d.slice(s![3..1;-1]);
    sm1[0] = 1;
    sm1[1] = 2;
    sm2[0] = 3;
    sm2[1] = 4;
    for i in 0..4usize {
        x[i] = d[i];
    }
}

/// A strided slice: `dynsmem[::2]`.
#[kernel]
pub fn dynshared_slice_strides(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![..;2]);
    for i in 0..6usize {
        d[i] = 99;
    }
    for i in 0..3usize {
        sm1[i] = i as i32 + 1;
    }
    for i in 0..6usize {
        x[i] = d[i];
    }
}

/// A backwards strided slice: `dynsmem[-1::-2]`.
#[kernel]
pub fn dynshared_slice_negative_strides(t: &Thread, x: &mut Arr<i32>) {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d.slice(s![-1..;-2]);
    for i in 0..6usize {
        d[i] = 99;
    }
    for i in 0..3usize {
        sm1[i] = i as i32 + 1;
    }
    for i in 0..6usize {
        x[i] = d[i];
    }
}
