//! `#[rumba::device]` functions that take arrays (global, constant, shared, local, views), take
//! and return tuples, and call each other — after Numba's `test_device_func.py` (`add2f`,
//! `indirect`, device functions reading and writing their array arguments) and the helpers real
//! kernels share (a row sum, a tile reduction, a histogram bump).

use rumba::kernel::prelude::*;

/// Numba's `add2f`.
#[device]
pub fn add2f(a: f32, b: f32) -> f32 {
    a + b
}

/// Numba's `indirect`: a device function calling another.
#[device]
pub fn indirect(a: f32, b: f32) -> f32 {
    add2f(a, b)
}

/// Numba's `use_add2f` and `indirect_add2f` in one kernel.
#[kernel]
pub fn use_add2f(t: &Thread, ary: &mut Arr<f32>, ind: &mut Arr<f32>) {
    let i = t.grid1();
    if i < ary.len() {
        ary[i] = add2f(ary[i], ary[i]);
        ind[i] = indirect(ind[i], ind[i]);
    }
}

/// The sum of row `r` of a matrix.
#[device]
pub fn rowsum(m: &Arr<f32>, r: usize) -> f32 {
    let mut s = 0.0f32;
    for c in 0..m.shape()[1] {
        s += m[(r, c)];
    }
    s
}

/// Writes `v` into `out[i]` and `out[i + 1]` when they exist.
#[device]
pub fn put_pair(out: &mut Arr<i32>, i: usize, v: i32) {
    if i < out.len() {
        out[i] = v;
    }
    if i + 1 < out.len() {
        out[i + 1] = v + 1;
    }
}

/// Row sums, and pairs written through a device function.
#[kernel]
pub fn row_sums_dev(t: &Thread, m: &Arr<f32>, sums: &mut Arr<f32>, pairs: &mut Arr<i32>) {
    let i = t.grid1();
    // `m` is only passed on: asking its second extent fixes its rank here (2, as `rowsum`
    // indexes it).
    if i < m.shape()[0] && m.shape()[1] > 0 {
        sums[i] = rowsum(m, i);
        put_pair(pairs, 2 * i, i as i32 * 10);
    }
}

/// The sum of the first `n` elements of any 1-d array.
#[device]
pub fn sum_first<T: Number>(a: &Arr<T>, n: usize) -> T {
    let mut s = 0 as T;
    for k in 0..n {
        s = s + a[k];
    }
    s
}

/// One helper over global, shared, local and constant arrays alike.
#[kernel]
pub fn one_helper_every_space(t: &Thread, g: &Arr<i64>, c: &ConstArr<i64>, out: &mut Arr<i64>) {
    let s = t.shared_array::<i64>(8);
    let l = t.local_array::<i64>(4);
    let tid = t.thread_idx().x as usize;
    if tid < 8 {
        s[tid] = (tid as i64) * 100;
    }
    for k in 0..4 {
        l[k] = (k + tid) as i64;
    }
    t.syncthreads();
    if tid == 0 {
        out[0] = sum_first(g, g.len());
        out[1] = sum_first(&s, 8usize);
        out[2] = sum_first(&l, 4usize);
        out[3] = sum_first(c, c.len());
        out[4] = sum_first(out, 4usize);
    }
}

/// Counts `k` into histogram `h` with an atomic.
#[device]
pub fn bump(h: &mut Arr<u32>, k: usize) {
    h.atomic_add(k % h.len(), 1);
}

/// A histogram built in shared memory, then merged into global memory, through one helper.
#[kernel]
pub fn histogram_dev(t: &Thread, x: &Arr<u32>, hist: &mut Arr<u32>) {
    let sh = t.shared_array::<u32>(4);
    let tid = t.thread_idx().x as usize;
    if tid < 4 {
        sh[tid] = 0;
    }
    t.syncthreads();
    let i = t.grid1();
    if i < x.len() {
        bump(&mut sh, x[i] as usize);
    }
    t.syncthreads();
    if tid < 4 {
        for _ in 0..sh[tid] {
            bump(hist, tid);
        }
    }
}

/// The smallest and largest of the first `n` elements: a tuple result.
#[device]
pub fn min_max(a: &Arr<f64>, n: usize) -> (f64, f64) {
    let mut lo = a[0];
    let mut hi = a[0];
    for k in 1..n {
        lo = lo.min(a[k]);
        hi = hi.max(a[k]);
    }
    (lo, hi)
}

/// A dot product of two pairs: tuple arguments.
#[device]
pub fn dot2(p: (f64, f64), q: (f64, f64)) -> f64 {
    p.0 * q.0 + p.1 * q.1
}

/// Passes an array on to another device function, through a view.
#[device]
pub fn spread(a: &Arr<f64>) -> f64 {
    let m = a.reshape((2, a.len() / 2));
    let r = m.row(1);
    let (lo, hi) = min_max(r, r.len());
    hi - lo
}

/// Tuples in and out of device functions, and arrays passed on.
#[kernel]
pub fn tuples_dev(t: &Thread, a: &Arr<f64>, out: &mut Arr<f64>) {
    if t.grid1() == 0 {
        let (lo, hi) = min_max(a, a.len());
        out[0] = lo;
        out[1] = hi;
        let p = (lo, hi);
        out[2] = dot2(p, (2.0, 0.5));
        let r: (f64, f64) = min_max(a, 2usize);
        out[3] = r.0 + r.1;
        out[4] = spread(a);
    }
}

/// A table in a `static` cell, captured by the kernel.
pub static SCALES: rumba::kernel::Captured<f32> = rumba::kernel::Captured::new();

/// Reads a table it is given (a captured array, passed on by the kernel).
#[device]
pub fn lookup(table: &Arr<f32>, i: usize) -> f32 {
    table[i % table.len()]
}

/// A captured array read by a device function: the kernel captures it and passes it on.
#[kernel(capture(SCALES: &Arr<f32>))]
pub fn scale_by_table(t: &Thread, x: &mut Arr<f32>) {
    let i = t.grid1();
    if i < x.len() {
        x[i] *= lookup(SCALES, i);
    }
}
