//! Kernels ported from Numba's CUDA tests (`numba/cuda/tests/cudapy/`: test_sm, test_dyn_array /
//! test_sm_creation, test_localmem, test_constmem, test_sync, test_atomics, test_record_dtype,
//! test_device_func) plus semantic probes, written once with `#[rumba::kernel]`.

use rumba::kernel::prelude::*;

use super::case::{Agree, Case, HostArg};

pub const N_SM: usize = 100;
pub const ROWS: usize = 10;
pub const COLS: usize = 20;

/// test_sm: thread 0 fills shared memory, everyone reads after the barrier.
#[kernel]
pub fn thread_zero_fills_shared(t: &Thread, out: &mut Arr<i32>) {
    let sm = t.shared_array::<i32>(N_SM);
    if t.thread_idx().x == 0 {
        for i in 0..N_SM {
            sm[i] = i as i32;
        }
    }
    t.syncthreads();
    let i = t.thread_idx().x as usize;
    out[i] = sm[i];
}

/// test_sm: a 2-d shared array of f64 ratios, read at a neighbour after the barrier.
#[kernel]
pub fn shared_2d_ratios(t: &Thread, out: &mut Arr<f64>) {
    let sm = t.shared_array::<f64>((ROWS, COLS));
    let (i, j) = (t.thread_idx().x as usize, t.thread_idx().y as usize);
    sm[(i, j)] = (i + 1) as f64 / (j + 1) as f64;
    t.syncthreads();
    let (ni, nj) = ((i + 1) % ROWS, (j + 3) % COLS);
    out[(ni, nj)] = sm[(ni, nj)];
}

/// test_dyn_array: dynamic shared memory of 50 floats.
#[kernel]
pub fn dynamic_shared_floats(t: &Thread, out: &mut Arr<f32>) {
    let sm = t.dynamic_shared::<f32>();
    let i = t.thread_idx().x as usize;
    sm[i] = 2.0 * i as f32;
    t.syncthreads();
    out[i] = sm[sm.len() - 1 - i];
}

/// test_localmem: copy through a 1000-element local array.
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

/// test_localmem: a 2-d local array, private per thread, alive across a barrier.
#[kernel]
pub fn local_2d_private(t: &Thread, out: &mut Arr<i64>) {
    let i = t.grid1();
    let l = t.local_array::<i64>((2, 5));
    for k in 0..5 {
        l[(0, k)] = (i * 10 + k) as i64;
    }
    t.syncthreads();
    let mut acc = 0i64;
    for k in 0..5 {
        l[(1, k)] = l[(0, k)] * 3;
        acc += l[(1, k)];
    }
    out[i] = acc;
}

/// test_constmem: a lookup in a constant array.
#[kernel]
pub fn const_lookup(t: &Thread, lut: &ConstArr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = lut[i % lut.len()] * 2.0;
    }
}

/// test_constmem: a 2-d constant table.
#[kernel]
pub fn const_2d(t: &Thread, lut: &ConstArr<u16>, out: &mut Arr<u32>) {
    let (x, y) = t.grid2();
    if y < lut.shape()[0] && x < lut.shape()[1] {
        out[y * lut.shape()[1] + x] = lut[(y, x)] as u32 + 1;
    }
}

/// test_sync: syncthreads_count / _and / _or in every thread.
#[kernel]
pub fn barrier_values(
    t: &Thread,
    input: &Arr<i32>,
    count: &mut Arr<i32>,
    all: &mut Arr<i32>,
    any: &mut Arr<i32>,
) {
    let i = t.thread_idx().x as usize;
    count[i] = t.syncthreads_count(input[i]);
    all[i] = t.syncthreads_and(input[i] != 0);
    any[i] = t.syncthreads_or(input[i] > 1);
}

/// test_atomics: every operation on global and shared memory.
#[kernel]
pub fn atomics(
    t: &Thread,
    ints: &mut Arr<i32>,
    wide: &mut Arr<u64>,
    floats: &mut Arr<f64>,
    counters: &mut Arr<u32>,
    single: &mut Arr<f32>,
) {
    let i = t.grid1();
    ints.atomic_add(0, 1);
    ints.atomic_sub(1, 2);
    ints.atomic_max(2, (i % 1000) as i32);
    ints.atomic_xor(3, 1);
    ints.atomic_min(4, -(i as i32));
    ints.atomic_and(5, !(1 << (i % 31)) as i32);
    wide.atomic_add(0, i as u64);
    wide.atomic_or(1, 1u64 << (i % 64));
    wide.atomic_min(2, u64::MAX - i as u64);
    floats.atomic_add(0, 1.0);
    floats.atomic_max(1, i as f64);
    floats.atomic_min(2, -(i as f64));
    counters.atomic_inc(0, 99);
    counters.atomic_dec(1, 999);
    single.atomic_add(0, 0.5);
    // Shared memory starts uninitialised on GPUs (the simulator zeroes it): clear it first.
    let s = t.shared_array::<u32>(1);
    if t.thread_idx().x == 0 {
        s[0] = 0;
    }
    t.syncthreads();
    s.atomic_add(0, 1);
    t.syncthreads();
    if t.thread_idx().x == 0 {
        counters.atomic_add(2, s[0]);
    }
}

/// test_atomics: a maximum through compare-and-swap, and exchange. Each thread exchanges its own
/// slot and stores what it took out next to it: which thread of a shared slot exchanged last
/// depends on scheduling, and the backends must agree bit for bit.
#[kernel]
pub fn cas_max(t: &Thread, values: &Arr<i64>, m: &mut Arr<i64>, swapped: &mut Arr<u32>) {
    let v = values[t.grid1()];
    let mut old = m[0];
    while old < v {
        let seen = m.atomic_cas(0, old, v);
        if seen == old {
            break;
        }
        old = seen;
    }
    let me = t.grid1();
    let before = swapped.atomic_exch(2 * me, me as u32);
    swapped[2 * me + 1] = before;
}

/// test_record_dtype: a record passed by value.
#[record]
pub struct Affine {
    pub scale: f32,
    pub shift: f32,
    pub count: u32,
    pub flags: u32,
}

#[kernel]
pub fn affine(t: &Thread, x: &mut Arr<f32>, f: Affine) {
    let i = t.grid1();
    if i < x.len() && (i as u32) < f.count {
        x[i] = f.scale * x[i] + f.shift;
    }
}

/// test_device_func: helpers inlined into the kernel, one calling another.
#[device]
pub fn square(x: f32) -> f32 {
    x * x
}

#[device]
pub fn clamp_square(x: f32, lo: f32, hi: f32) -> f32 {
    let s = square(x);
    if s < lo {
        lo
    } else if s > hi {
        hi
    } else {
        s
    }
}

#[device]
pub fn my_lane(t: &Thread) -> u32 {
    t.lane_id()
}

#[kernel]
pub fn use_device_fns(t: &Thread, x: &Arr<f32>, y: &mut Arr<f32>, lanes: &mut Arr<u32>) {
    let i = t.grid1();
    if i < y.len() {
        y[i] = clamp_square(x[i], 0.25f32, 4.0f32);
        lanes[i] = my_lane(t);
    }
}

/// Control flow: step_by, inclusive ranges, loop/break/continue, early return, a 3-d grid.
#[kernel]
pub fn control_flow(t: &Thread, out: &mut Arr<i64>) {
    let (x, y, z) = t.grid3();
    let (nx, ny, _nz) = t.gridsize3();
    let i = x + nx * (y + ny * z);
    if i >= out.len() {
        return;
    }
    let mut acc = 0i64;
    for k in (0..(i + 10)).step_by(3) {
        acc += k as i64;
    }
    for k in 250u8..=255 {
        acc += k as i64;
    }
    let mut n = 0;
    loop {
        n += 1;
        if n % 2 == 0 {
            continue;
        }
        if n > 7 {
            break;
        }
        acc -= n as i64;
    }
    let v = if i % 2 == 0 {
        let h = i / 2;
        h as i64
    } else {
        -(i as i64)
    };
    out[i] = acc * 1000 + v;
}

/// Integer and float semantics: wrapping, shifts, division, saturating casts, min/max/abs.
#[kernel]
pub fn int_semantics(
    t: &Thread,
    a: &Arr<i32>,
    b: &Arr<i32>,
    f: &Arr<f32>,
    out: &mut Arr<i32>,
    out8: &mut Arr<u8>,
    outf: &mut Arr<i64>,
) {
    let i = t.grid1();
    if i >= a.len() {
        return;
    }
    let (x, y) = (a[i], b[i]);
    let d = if y != 0 && !(x == i32::MIN && y == -1) {
        x / y + x % y
    } else {
        0
    };
    out[6 * i] = x.wrapping_mul(y) + x;
    out[6 * i + 1] = (x << (y & 63)) ^ (x >> (y as u32 % 40));
    out[6 * i + 2] = d;
    out[6 * i + 3] = x.min(y).abs() - x.max(y);
    out[6 * i + 4] = -x + !y;
    out[6 * i + 5] = f[i] as i32;
    out8[i] = (x as u8).wrapping_mul(y as u8) >> 1;
    outf[i] = (f[i] * 1.0e10f32) as i64 + (f[i] as u16) as i64;
}

/// Transcendental functions (compared within a few ULPs, not bit for bit).
#[kernel]
pub fn transcendental(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < x.len() {
        let v = x[i];
        out[8 * i] = v.exp();
        out[8 * i + 1] = v.abs().ln();
        out[8 * i + 2] = v.sin();
        out[8 * i + 3] = v.cos();
        out[8 * i + 4] = v.abs().powf(0.37);
        out[8 * i + 5] = v.powi(3);
        out[8 * i + 6] = v.sqrt() + v.floor() + v.ceil() + v.round();
        out[8 * i + 7] = v.mul_add(2.5, -1.0);
    }
}

/// Complex arithmetic (`Complex<f64>` and `Complex<f32>`): every operator, parts, a constant
/// array and a complex scalar argument.
#[kernel]
pub fn complex_ops(
    t: &Thread,
    a: &Arr<Complex<f64>>,
    b: &ConstArr<Complex<f64>>,
    s: Complex<f32>,
    out: &mut Arr<Complex<f64>>,
    out32: &mut Arr<Complex<f32>>,
    flags: &mut Arr<u8>,
) {
    let i = t.grid1();
    if i >= a.len() {
        return;
    }
    let (x, y) = (a[i], b[i]);
    out[4 * i] = x + y;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = x * y;
    out[4 * i + 3] = x / y;
    let z = Complex::new(x.re as f32, x.im as f32);
    out32[2 * i] = -z * s;
    let mut w = z / s;
    w -= Complex::<f32>::new(1.5, -0.25);
    out32[2 * i + 1] = w;
    flags[i] = (x == y) as u8 + 2 * ((x != -x) as u8) + 4 * ((y.im > 0.0) as u8);
}

/// test_localmem with complex128: a 2-d local array and a shared array of `Complex<f64>` and a
/// complex value, all alive across a barrier.
#[kernel]
pub fn complex_local_shared(t: &Thread, o: &mut Arr<Complex<f64>>) {
    let i = t.grid1();
    let tid = t.thread_idx().x as usize;
    let l = t.local_array::<Complex<f64>>((2, 5));
    let sh = t.shared_array::<Complex<f64>>(64);
    for k in 0..5 {
        l[(0, k)] = Complex::new(i as f64, k as f64);
    }
    sh[tid] = Complex::new(0.5, i as f64);
    let w = Complex::new(1.0, -(tid as f64));
    t.syncthreads();
    let mut acc = Complex::new(0.0, 0.0);
    for k in 0..5 {
        l[(1, k)] = l[(0, k)] * Complex::new(0.0, 1.0);
        acc += l[(1, k)];
    }
    o[i] = acc * w + sh[(tid + 1) % t.block_dim().x as usize];
}

/// An out-of-bounds store: the fault test.
#[kernel]
pub fn out_of_bounds(t: &Thread, a: &mut Arr<i32>) {
    let i = t.grid1();
    a[i] = i as i32;
}

/// Division by zero: the other fault.
#[kernel]
pub fn divide(t: &Thread, a: &Arr<i32>, b: &mut Arr<i32>) {
    let i = t.grid1();
    b[i] = 100 / a[i];
}

/// `n` complex numbers with no zero (so no quotient is NaN), some equal between two seeds.
fn cplx(n: usize, seed: f64) -> Vec<Complex<f64>> {
    (0..n)
        .map(|i| {
            if i % 7 == 0 {
                Complex::new(3.0, -1.0)
            } else {
                Complex::new((i as f64 - 17.5) * 0.37 * seed, 1.0 / (i as f64 + seed))
            }
        })
        .collect()
}

fn xs(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i as f32 - n as f32 / 2.0) * 0.37).collect()
}

macro_rules! case {
    ($k:ident, $grid:expr, $block:expr, $dyn:expr, $args:expr, $agree:expr) => {
        Case {
            name: stringify!($k),
            function: $k().function().clone(),
            abi: &$k::ABI,
            opencl: $k::opencl_source(),
            cuda: $k::cuda_source(),
            grid: $grid,
            block: $block,
            dynamic_shared_bytes: $dyn,
            args: $args,
            agree: $agree,
        }
    };
}

/// Every case of the corpus that must agree between backends.
pub fn cases() -> Vec<Case> {
    let ints: Vec<i32> = (0..64)
        .map(|i| (i * 7919 - 250_000) * if i % 3 == 0 { -1 } else { 1 })
        .chain([i32::MIN, i32::MAX, -1, 0])
        .collect();
    let divs: Vec<i32> = (0..64).map(|i| (i % 9) - 4).chain([-1, 1, 0, 7]).collect();
    let fl: Vec<f32> = (0..64)
        .map(|i| (i as f32 - 32.0) * 1.0e8)
        .chain([f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.5])
        .collect();
    let mut input = vec![1i32; 72];
    input[31] = 0;
    input[42] = 0;
    input[5] = 7;
    let values: Vec<i64> = (0..1024).map(|i| (i * 7919) % 4093).collect();
    let lut = HostArg::array(&[1.5f32, -2.0, 3.25, 0.125, 8.0], &[5]);
    let lut2: Vec<u16> = (0..12).map(|i| i * 1000 + 7).collect();
    vec![
        case!(
            thread_zero_fills_shared,
            [1, 1, 1],
            [N_SM, 1, 1],
            0,
            vec![HostArg::zeros::<i32>(N_SM)],
            Agree::Exact
        ),
        case!(
            shared_2d_ratios,
            [1, 1, 1],
            [ROWS, COLS, 1],
            0,
            vec![HostArg::array(&[0f64; ROWS * COLS], &[ROWS, COLS])],
            Agree::Exact
        ),
        case!(
            dynamic_shared_floats,
            [1, 1, 1],
            [50, 1, 1],
            200,
            vec![HostArg::zeros::<f32>(50)],
            Agree::Exact
        ),
        case!(
            local_copy,
            [1, 1, 1],
            [1, 1, 1],
            0,
            vec![
                HostArg::array(&(0..1000).map(|i| i * 3 - 7).collect::<Vec<i32>>(), &[1000]),
                HostArg::zeros::<i32>(1000)
            ],
            Agree::Exact
        ),
        case!(
            local_2d_private,
            [2, 1, 1],
            [32, 1, 1],
            0,
            vec![HostArg::zeros::<i64>(64)],
            Agree::Exact
        ),
        case!(
            const_lookup,
            [2, 1, 1],
            [16, 1, 1],
            0,
            vec![lut, HostArg::zeros::<f32>(30)],
            Agree::Exact
        ),
        case!(
            const_2d,
            [1, 1, 1],
            [4, 3, 1],
            0,
            vec![HostArg::array(&lut2, &[3, 4]), HostArg::zeros::<u32>(12)],
            Agree::Exact
        ),
        case!(
            barrier_values,
            [1, 1, 1],
            [72, 1, 1],
            0,
            vec![
                HostArg::array(&input, &[72]),
                HostArg::zeros::<i32>(72),
                HostArg::zeros::<i32>(72),
                HostArg::zeros::<i32>(72)
            ],
            Agree::Exact
        ),
        case!(
            atomics,
            [8, 1, 1],
            [64, 1, 1],
            0,
            vec![
                HostArg::array(&[0i32, 0, 0, 0, 0, -1], &[6]),
                HostArg::array(&[0u64, 0, u64::MAX], &[3]),
                HostArg::array(&[0.0f64, 0.0, f64::INFINITY], &[3]),
                HostArg::zeros::<u32>(3),
                HostArg::zeros::<f32>(1),
            ],
            Agree::Exact
        ),
        case!(
            cas_max,
            [4, 1, 1],
            [256, 1, 1],
            0,
            vec![
                HostArg::array(&values, &[1024]),
                HostArg::array(&[i64::MIN], &[1]),
                HostArg::array(
                    &(0..2048u32).map(|k| 3 * k + 1).collect::<Vec<_>>(),
                    &[2048]
                )
            ],
            Agree::Exact
        ),
        case!(
            affine,
            [1, 1, 1],
            [32, 1, 1],
            0,
            vec![
                HostArg::array(&xs(20), &[20]),
                HostArg::scalar(Affine {
                    scale: 3.0,
                    shift: -1.25,
                    count: 17,
                    flags: 0
                })
            ],
            Agree::Exact
        ),
        case!(
            use_device_fns,
            [2, 1, 1],
            [40, 1, 1],
            0,
            vec![
                HostArg::array(&xs(70), &[70]),
                HostArg::zeros::<f32>(70),
                HostArg::zeros::<u32>(70)
            ],
            Agree::Exact
        ),
        case!(
            control_flow,
            [2, 2, 2],
            [4, 2, 3],
            0,
            vec![HostArg::zeros::<i64>(150)],
            Agree::Exact
        ),
        case!(
            int_semantics,
            [1, 1, 1],
            [68, 1, 1],
            0,
            vec![
                HostArg::array(&ints, &[68]),
                HostArg::array(&divs, &[68]),
                HostArg::array(&fl, &[68]),
                HostArg::zeros::<i32>(6 * 68),
                HostArg::zeros::<u8>(68),
                HostArg::zeros::<i64>(68),
            ],
            Agree::Exact
        ),
        case!(
            complex_ops,
            [1, 1, 1],
            [40, 1, 1],
            0,
            vec![
                HostArg::array(&cplx(36, 1.0), &[36]),
                HostArg::array(&cplx(36, -2.5), &[36]),
                HostArg::scalar(Complex::new(0.75f32, -1.25)),
                HostArg::zeros::<Complex<f64>>(4 * 36),
                HostArg::zeros::<Complex<f32>>(2 * 36),
                HostArg::zeros::<u8>(36),
            ],
            Agree::Exact
        ),
        case!(
            complex_local_shared,
            [2, 1, 1],
            [32, 1, 1],
            0,
            vec![HostArg::zeros::<Complex<f64>>(64)],
            Agree::Exact
        ),
        case!(
            transcendental,
            [1, 1, 1],
            [64, 1, 1],
            0,
            vec![HostArg::array(&xs(40), &[40]), HostArg::zeros::<f32>(320)],
            Agree::UlpF32(4)
        ),
    ]
}
