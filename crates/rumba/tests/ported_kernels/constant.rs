//! The kernels of `kernel_const.rs` (Numba's test_constmem): constant arrays are `&ConstArr<T>`
//! parameters, passed a [`rumba::kernel::ConstArray`] at launch.

use rumba::kernel::prelude::*;

/// `a = c + 1` over a 1-d constant array.
#[kernel]
pub fn const1d(t: &Thread, c: &ConstArr<f32>, a: &mut Arr<f32>) {
    let i = t.grid1();
    a[i] = c[i] + 1.0;
}

/// The length of a constant array (empty in the test).
#[kernel]
pub fn const_empty(_t: &Thread, c: &ConstArr<f64>, a: &mut Arr<usize>) {
    a[0] = c.len();
}

/// A 2-d constant array copied out element by element.
#[kernel]
pub fn const2d(t: &Thread, c: &ConstArr<i32>, b: &mut Arr<i32>) {
    let (j, i) = t.grid2();
    b[(i, j)] = c[(i, j)];
}

/// A 3-d constant array of `Complex<f32>` copied out by a 5×5×5 block.
#[kernel]
pub fn const3d(t: &Thread, c: &ConstArr<Complex<f32>>, b: &mut Arr<Complex<f32>>) {
    let i = t.thread_idx();
    let (x, y, z) = (i.x as usize, i.y as usize, i.z as usize);
    b[(x, y, z)] = c[(x, y, z)];
}

/// A record of three types.
#[record]
pub struct Rec {
    pub x: f64,
    pub y: i32,
    pub z: f32,
}

/// The fields of a constant array of records.
#[kernel]
pub fn const_rec(
    t: &Thread,
    c: &ConstArr<Rec>,
    x: &mut Arr<f64>,
    y: &mut Arr<i32>,
    z: &mut Arr<f32>,
) {
    let i = t.grid1();
    let r = c[i];
    x[i] = r.x;
    y[i] = r.y;
    z[i] = r.z;
}

/// numpy's aligned record `[('a', u1), ('b', u1), ('c', u1), ('d', u4), ('e', u1)]`,
/// `align=True`: the padding is explicit, so the record is plain data.
#[record]
pub struct Aligned {
    pub a: u8,
    pub b: u8,
    pub c: u8,
    pub _pad0: u8,
    pub d: u32,
    pub e: u8,
    pub _pad1: [u8; 3],
}

/// The sum of the fields of an aligned record.
#[kernel]
pub fn const_aligned(t: &Thread, c: &ConstArr<Aligned>, out: &mut Arr<u32>) {
    let i = t.grid1();
    let r = c[i];
    // Field types are rustc's to know: name them where a cast needs its source type.
    let (a, b, c2, e): (u8, u8, u8, u8) = (r.a, r.b, r.c, r.e);
    out[i] = a as u32 + b as u32 + c2 as u32 + r.d + e as u32;
}

/// Two constant arrays of different types.
#[kernel]
pub fn const_mixed(
    t: &Thread,
    ci: &ConstArr<u64>,
    cf: &ConstArr<f64>,
    a: &mut Arr<u64>,
    b: &mut Arr<f64>,
) {
    let i = t.grid1();
    a[i] = ci[i] + 1;
    b[i] = cf[i] * 2.0;
}

/// A plain copy of a constant array.
#[kernel]
pub fn const_snapshot(t: &Thread, c: &ConstArr<i32>, a: &mut Arr<i32>) {
    a[t.grid1()] = c[t.grid1()];
}

/// Reads `c[grid1]`: out of bounds for threads past its end.
#[kernel]
pub fn const_oob(t: &Thread, c: &ConstArr<u8>) {
    let _v = c[t.grid1()];
}
