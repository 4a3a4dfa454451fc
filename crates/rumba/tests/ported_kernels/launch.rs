//! The kernels of `kernel_launch.rs` (Numba's test_sm, test_dyn_array, test_sync, test_localmem,
//! test_atomics and the launch-API tests).

use rumba::kernel::prelude::*;

/// Sizes of shared arrays of one, two and three dimensions, of a 4-byte and a 2-byte type.
#[kernel]
pub fn shared_sizes(t: &Thread, out: &mut Arr<usize>) {
    let a = t.shared_array::<f32>(2);
    let b = t.shared_array::<f32>((2, 3));
    let c = t.shared_array::<f32>((2, 3, 4));
    let d = t.shared_array::<i16>(2);
    let e = t.shared_array::<i16>((2, 3));
    let f = t.shared_array::<i16>((2, 3, 4));
    out[0] = a.size();
    out[1] = b.size();
    out[2] = c.size();
    out[3] = d.size();
    out[4] = e.size();
    out[5] = f.size();
}

/// Thread 0 fills a shared array; after the barrier every thread reads its mirror element.
#[kernel]
pub fn fill_then_read(t: &Thread, out: &mut Arr<f32>) {
    let s = t.shared_array::<f32>(32);
    if t.thread_idx().x == 0 {
        for i in 0..32 {
            s[i] = i as f32 * 1.5;
        }
    }
    t.syncthreads();
    let i = t.thread_idx().x as usize;
    out[t.grid1()] = s[31 - i];
}

/// A 2-d shared array of ratios, read mirrored along x after the barrier.
#[kernel]
pub fn shared2d(t: &Thread, out: &mut Arr<f32>) {
    let s = t.shared_array::<f32>((4, 8));
    let (x, y) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
    s[(y, x)] = x as f32 / (y + 1) as f32;
    t.syncthreads();
    out[(y, x)] = s[(y, 7 - x)];
}

/// Dynamic shared memory of `2 * i` floats, read back after the barrier.
#[kernel]
pub fn dyn50(t: &Thread, out: &mut Arr<f32>) {
    let sm = t.dynamic_shared::<f32>();
    let i = t.thread_idx().x as usize;
    sm[i] = 2.0 * i as f32;
    t.syncthreads();
    out[i] = sm[i];
}

/// Numba issue 5073: each block stages its chunk of `x` through the two halves of its dynamic
/// shared memory (the half sized from the launch's dynamic shared bytes), thread 0 copies out.
#[kernel]
pub fn halves(t: &Thread, x: &Arr<i64>, y: &mut Arr<i64>) {
    let d = t.dynamic_shared::<i64>();
    let half = d.len() / 2;
    let (b, tid) = (t.block_idx().x as usize, t.thread_idx().x as usize);
    let base = b * 2 * half;
    if tid < half {
        d[tid] = x[base + tid];
        d[half + tid] = x[base + half + tid];
    }
    t.syncthreads();
    if tid == 0 {
        for i in 0..2 * half {
            y[base + i] = d[i];
        }
    }
}

/// `syncthreads_count` of an `i32` predicate.
#[kernel]
pub fn count(t: &Thread, input: &Arr<i32>, out: &mut Arr<i32>) {
    let i = t.thread_idx().x as usize;
    out[i] = t.syncthreads_count(input[i]);
}

/// `syncthreads_and` / `_or` of an `i16` predicate.
#[kernel]
pub fn and_or_i16(t: &Thread, x: &Arr<i16>, a: &mut Arr<i32>, o: &mut Arr<i32>) {
    let i = t.thread_idx().x as usize;
    a[i] = t.syncthreads_and(x[i]);
    o[i] = t.syncthreads_or(x[i]);
}

/// `syncthreads_and` / `_or` of an `i32` predicate.
#[kernel]
pub fn and_or_i32(t: &Thread, x: &Arr<i32>, a: &mut Arr<i32>, o: &mut Arr<i32>) {
    let i = t.thread_idx().x as usize;
    a[i] = t.syncthreads_and(x[i]);
    o[i] = t.syncthreads_or(x[i]);
}

/// `syncthreads_and` / `_or` of an `i64` predicate.
#[kernel]
pub fn and_or_i64(t: &Thread, x: &Arr<i64>, a: &mut Arr<i32>, o: &mut Arr<i32>) {
    let i = t.thread_idx().x as usize;
    a[i] = t.syncthreads_and(x[i]);
    o[i] = t.syncthreads_or(x[i]);
}

/// Copies `a` to `b` through a local array of 1000 `i32`.
#[kernel]
pub fn local_copy(t: &Thread, a: &Arr<i32>, b: &mut Arr<i32>) {
    let l = t.local_array::<i32>(1000);
    for i in 0..1000 {
        l[i] = a[i];
    }
    for i in 0..1000 {
        b[i] = l[i];
    }
}

/// A 2-d local array of `Complex<f64>`, alive across a barrier: `acc = Σ_k (i + k·i)·i`.
#[kernel]
pub fn local_c128(t: &Thread, o: &mut Arr<Complex<f64>>) {
    let i = t.grid1();
    let l = t.local_array::<Complex<f64>>((2, 5));
    for k in 0..5 {
        l[(0, k)] = Complex::new(i as f64, k as f64);
    }
    t.syncthreads();
    let mut acc = Complex::new(0.0, 0.0);
    for k in 0..5 {
        l[(1, k)] = l[(0, k)] * Complex::new(0.0, 1.0);
        acc += l[(1, k)];
    }
    o[i] = acc;
}

/// Atomics from every thread of the grid: sum, max, min, float sum, or, inc.
#[kernel]
pub fn atomics(
    t: &Thread,
    sum: &mut Arr<u64>,
    minmax: &mut Arr<i32>,
    fsum: &mut Arr<f64>,
    bits: &mut Arr<u32>,
) {
    let i = t.grid1();
    sum.atomic_add(0, i as u64);
    minmax.atomic_max(0, i as i32);
    minmax.atomic_min(1, -(i as i32));
    fsum.atomic_add(0, 0.5);
    bits.atomic_or(0, 1u32 << (i % 32));
    bits.atomic_inc(1, u32::MAX);
}

/// A maximum of `f64`s through compare-and-swap.
#[kernel]
pub fn cas_max(t: &Thread, res: &mut Arr<f64>, ary: &Arr<f64>) {
    let v = ary[t.grid1()];
    let mut old = res[0];
    while old < v {
        let seen = res.atomic_cas(0, old, v);
        if seen == old {
            break;
        }
        old = seen;
    }
}

/// Stores its thread index, then two barriers: out of bounds when the block is larger than `a`.
#[kernel]
pub fn two_syncs(t: &Thread, a: &mut Arr<i32>) {
    let i = t.thread_idx().x as usize;
    a[i] = i as i32;
    t.syncthreads();
    t.syncthreads();
}

/// Thread 5 of the grid fails an assertion; the others store 1.
#[kernel]
pub fn gives_up(t: &Thread, a: &mut Arr<i32>) {
    assert!(t.grid1() != 5, "thread five gives up");
    a[t.grid1()] = 1;
}

/// Stores 2.
#[kernel]
pub fn fine(t: &Thread, a: &mut Arr<i32>) {
    a[t.grid1()] = 2;
}

/// Does nothing with its array.
#[kernel]
pub fn noop(_t: &Thread, _a: &Arr<f32>) {}

/// `out = v + 1000` for a 2-d view with its own shape and strides.
#[kernel]
pub fn strided(t: &Thread, v: &Arr<i64>, out: &mut Arr<i64>) {
    let (x, y) = t.grid2();
    if y < v.shape()[0] && x < v.shape()[1] {
        out[(y, x)] = v[(y, x)] + 1000;
    }
}

/// A record passed by value (`Line`).
#[record]
pub struct Line {
    pub slope: f64,
    pub offset: f64,
}

/// Scalars, a record and a complex number by value.
#[kernel]
pub fn scalars(t: &Thread, a: &mut Arr<f64>, line: Line, k: u8, z: Complex<f32>) {
    let i = t.grid1();
    a[i] = line.slope * i as f64 + line.offset + k as f64 + z.im as f64;
}

/// `a[i] += 1`.
#[kernel]
pub fn inc(t: &Thread, a: &mut Arr<f32>) {
    a[t.grid1()] = a[t.grid1()] + 1.0;
}

/// `dst[i] = 2 * src[i]`.
#[kernel]
pub fn twice(t: &Thread, src: &Arr<u32>, dst: &mut Arr<u32>) {
    dst[t.grid1()] = src[t.grid1()] * 2;
}

/// `a[i] += v`.
#[kernel]
pub fn add(t: &Thread, a: &mut Arr<i64>, v: i64) {
    a[t.grid1()] = a[t.grid1()] + v;
}

/// `a[i] *= v`.
#[kernel]
pub fn mul(t: &Thread, a: &mut Arr<i64>, v: i64) {
    a[t.grid1()] = a[t.grid1()] * v;
}
