//! In-kernel array views, after Numba's array reshape / reinterpret cases (`test_array.py`'s
//! reshape of a device array inside a kernel, `test_array_methods`' `view`, local and shared
//! arrays viewed as other shapes — the `carray`-like use): reshape with run-time and const
//! shapes, reinterpreting element types, rows and columns, views over shared and local memory,
//! atomics through a view, and the faults. Run by `kernel_views.rs`, compiled by NVRTC and PoCL,
//! golden-tested in rumba-kernel-ir.
use rumba::kernel::prelude::*;

use super::case::{Case, HostArg, exact_case as case};

pub const ROWS: usize = 4;
pub const COLS: usize = 8;

/// A 1-d input read as the 2-d shape of `out` (run-time shape).
#[rumba::kernel]
pub fn reshape_runtime(t: &Thread, a: &Arr<f32>, out: &mut Arr<f32>) {
    let (x, y) = t.grid2();
    let (r, c) = (out.shape()[0], out.shape()[1]);
    let m = a.reshape((r, c));
    if y < r && x < c {
        out[(y, x)] = m[(y, x)] * 2.0;
    }
}

/// Writes through a const-shape reshape of a 1-d output.
#[rumba::kernel]
pub fn reshape_write(t: &Thread, a: &mut Arr<i32>) {
    let m = a.reshape((ROWS, COLS));
    let i = t.grid1();
    if i < ROWS * COLS {
        m[(i / COLS, i % COLS)] = i as i32 * 10;
    }
}

/// A 2-d array flattened, and a 3-d reshape of it.
#[rumba::kernel]
pub fn reshape_chain(t: &Thread, a: &Arr<u16>, flat: &mut Arr<u16>, sizes: &mut Arr<usize>) {
    let i = t.grid1();
    let a2 = a.reshape((a.shape()[0], a.shape()[1]));
    let f = a2.reshape(a2.size());
    let cube = f.reshape((2, 3, f.len() / 6));
    if i < f.len() {
        flat[i] = f[i];
    }
    if i == 0 {
        sizes[0] = cube.shape()[2];
        sizes[1] = cube.size();
        sizes[2] = cube[(1, 2, 0)] as usize;
    }
}

/// The bits of `f32`s (Numba's `arr.view(np.uint32)`).
#[rumba::kernel]
pub fn view_bits(t: &Thread, x: &Arr<f32>, bits: &mut Arr<u32>) {
    let w = x.view::<u32>();
    let i = t.grid1();
    if i < w.len() {
        bits[i] = w[i];
    }
}

/// Writes bytes of `u32`s through a `u8` view; the view's last axis is 4 times longer.
#[rumba::kernel]
pub fn view_bytes(t: &Thread, x: &mut Arr<u32>, lens: &mut Arr<usize>) {
    let b = x.view::<u8>();
    let i = t.grid1();
    if i < x.len() {
        b[4 * i + 1] = 0xab;
    }
    if i == 0 {
        lens[0] = b.len();
    }
}

/// `u8` pairs read as `u16` (a larger item: the last axis halves), 2-d.
#[rumba::kernel]
pub fn view_wider(t: &Thread, x: &Arr<u8>, out: &mut Arr<u16>) {
    let m = x.reshape((2, 4));
    let w = m.view::<u16>();
    let i = t.grid1();
    if i < 4 {
        out[i] = w[(i / 2, i % 2)];
    }
}

/// Any byte viewed as `bool` reads as a valid `bool` (`!= 0`).
#[rumba::kernel]
pub fn view_bool(t: &Thread, raw: &Arr<u8>, out: &mut Arr<u32>) {
    let b = raw.view::<bool>();
    let i = t.grid1();
    if i < b.len() {
        out[i] = b[i] as u32;
    }
}

/// Row sums through `row(i)` (the base's rank, 2, comes from the row's use).
#[rumba::kernel]
pub fn row_sums(t: &Thread, m: &Arr<f64>, out: &mut Arr<f64>) {
    let i = t.grid1();
    if i < out.len() {
        let r = m.row(i);
        let mut s = 0.0;
        for j in 0..r.len() {
            s += r[j];
        }
        out[i] = s;
    }
}

/// A column through `index_axis(1, k)`, and a written row of a 3-d output.
#[rumba::kernel]
pub fn columns(t: &Thread, m: &Arr<i32>, k: usize, col: &mut Arr<i32>, cube: &mut Arr<i32>) {
    let c = m.index_axis(1, k);
    let i = t.grid1();
    if i < c.len() {
        col[i] = c[i];
    }
    let plane = cube.index_axis(0, 1);
    let line = plane.row(0);
    if i < line.len() {
        line[i] = i as i32 + 100;
    }
}

/// A shared array written as a 2-d tile and read back transposed; atomics through a view.
#[rumba::kernel]
pub fn shared_tile(t: &Thread, out: &mut Arr<f32>, counts: &mut Arr<u32>) {
    let s = t.shared_array::<f32>(64);
    let tile = s.reshape((8, 8));
    let c = t.shared_array::<u32>((2, 2));
    let flat = c.reshape(4);
    let tid = t.thread_idx().x as usize;
    if tid < 4 {
        flat[tid] = 0;
    }
    tile[(tid / 8, tid % 8)] = tid as f32;
    t.syncthreads();
    let _ = flat.atomic_add(tid % 4, 1);
    out[tid] = s[(tid % 8) * 8 + tid / 8];
    t.syncthreads();
    if tid < 4 {
        counts[tid] = c[(tid / 2, tid % 2)];
    }
}

/// A local array of `u32` read as bytes.
#[rumba::kernel]
pub fn local_bytes(t: &Thread, out: &mut Arr<u8>) {
    let l = t.local_array::<u32>(2);
    let i = t.grid1();
    l[0] = 0x0403_0201;
    l[1] = i as u32;
    let b = l.view::<u8>();
    for k in 0..8 {
        out[(i, k)] = b[k];
    }
}

/// A reshape to `(n, 3)`: a fault when `a` does not have `3 n` elements.
#[rumba::kernel]
pub fn bad_reshape(t: &Thread, a: &Arr<f32>, n: usize, out: &mut Arr<f32>) {
    let m = a.reshape((n, 3));
    if t.grid1() == 0 {
        out[0] = m[(0, 0)];
    }
}

/// Row `k`: a fault when `k` is out of range.
#[rumba::kernel]
pub fn bad_row(t: &Thread, m: &Arr<i32>, k: usize, out: &mut Arr<i32>) {
    let r = m.row(k);
    if t.grid1() == 0 {
        out[0] = r[0];
    }
}

/// `u8`s viewed as `u32`: a fault when the bytes do not divide by 4.
#[rumba::kernel]
pub fn bad_view(t: &Thread, x: &Arr<u8>, out: &mut Arr<u32>) {
    let w = x.view::<u32>();
    if t.grid1() == 0 {
        out[0] = w.len() as u32;
    }
}

/// Views live across barriers: a shared tile's row picked per thread before a barrier and read
/// after it, and a loop around a barrier bounded by a column view's length (the loop form
/// decides that bound per work-item and checks it equal). `out[b * 64 + t]` is entry
/// `(t / 8, t % 8)` of `M · M` for the 8 × 8 matrix `M` in row `b` of `m`.
#[rumba::kernel]
pub fn views_across_barriers(t: &Thread, m: &Arr<f32>, out: &mut Arr<f32>) {
    let tid = t.thread_idx().x as usize;
    let s = t.shared_array::<f32>(64);
    let tile = s.reshape((8, 8));
    let src = m.row(t.block_idx().x as usize);
    let line = tile.row(tid / 8);
    line[tid % 8] = src[tid];
    t.syncthreads();
    let col = tile.index_axis(1, tid % 8);
    let mut acc = 0.0f32;
    for k in 0..col.len() {
        acc += line[k] * col[k];
        t.syncthreads();
    }
    out[t.grid1()] = acc;
}

/// Views kept across a barrier: a row picked by a loaded index that is reassigned after the
/// view is made (the view keeps the row it was made of), a `u8` view of a local array, and a
/// 2-d view of dynamic shared memory (`2 * block_dim` `i32`s) written before the barrier and
/// read transposed after it.
#[rumba::kernel]
pub fn views_kept_across_barriers(
    t: &Thread,
    m: &Arr<i32>,
    pick: &Arr<u32>,
    out: &mut Arr<i32>,
    bytes: &mut Arr<u8>,
) {
    let i = t.grid1();
    let tid = t.thread_idx().x as usize;
    let n = t.block_dim().x as usize;
    let mut j = pick[i] as usize;
    let r = m.row(j);
    j = 0;
    let l = t.local_array::<u32>(1);
    l[0] = 0x0a0b_0c0d ^ i as u32;
    let b = l.view::<u8>();
    let dynamic = t.dynamic_shared::<i32>();
    let pairs = dynamic.reshape((n, 2));
    pairs[(tid, 0)] = i as i32;
    pairs[(tid, 1)] = -(i as i32);
    t.syncthreads();
    let back = pairs.index_axis(1, 1);
    out[i] = r[0] * 100 + r[1] + j as i32 + back[n - 1 - tid];
    for k in 0..b.len() {
        bytes[(i, k)] = b[k];
    }
}

/// Row `t.grid1()`: a fault in the first thread whose row does not exist.
#[rumba::kernel]
pub fn bad_row_per_thread(t: &Thread, m: &Arr<i32>, out: &mut Arr<i32>) {
    let i = t.grid1();
    let r = m.row(i);
    if i < out.len() {
        out[i] = r[0];
    }
}

/// Rows of a constant table reshaped to 3 × 4: thread `i` sums row `i % 3`.
#[rumba::kernel]
pub fn const_table_rows(t: &Thread, lut: &ConstArr<u16>, out: &mut Arr<u32>) {
    let table = lut.reshape((3, 4));
    let i = t.grid1();
    if i < out.len() {
        let r = table.row(i % 3);
        let mut s = 0u32;
        for k in 0..r.len() {
            s += r[k] as u32;
        }
        out[i] = s;
    }
}

// ---- Numba's own cases (numba-cuda `numba/cuda/tests/cudapy/`), rewritten as Rust kernels.

/// Port of `test_array.py` `TestCudaArray::test_array_reshape` (its `array_reshape1d`): one
/// thread reshapes the input to `(n,)` and copies it out element by element.
#[rumba::kernel]
pub fn numba_array_reshape1d(t: &Thread, arr: &Arr<i64>, n: usize, got: &mut Arr<i64>) {
    let y = arr.reshape(n);
    if t.grid1() == 0 {
        for i in 0..y.shape()[0] {
            got[i] = y[i];
        }
    }
}

/// Port of `test_array.py` `TestCudaArray::test_array_reshape` (its `array_reshape2d`).
#[rumba::kernel]
pub fn numba_array_reshape2d(t: &Thread, arr: &Arr<i64>, d0: usize, d1: usize, got: &mut Arr<i64>) {
    let y = arr.reshape((d0, d1));
    if t.grid1() == 0 {
        for i in 0..y.shape()[0] {
            for j in 0..y.shape()[1] {
                got[(i, j)] = y[(i, j)];
            }
        }
    }
}

/// Port of `test_array.py` `TestCudaArray::test_array_reshape` (its `array_reshape3d`).
#[rumba::kernel]
pub fn numba_array_reshape3d(
    t: &Thread,
    arr: &Arr<i64>,
    d0: usize,
    d1: usize,
    d2: usize,
    got: &mut Arr<i64>,
) {
    let y = arr.reshape((d0, d1, d2));
    if t.grid1() == 0 {
        for i in 0..y.shape()[0] {
            for j in 0..y.shape()[1] {
                for k in 0..y.shape()[2] {
                    got[(i, j, k)] = y[(i, j, k)];
                }
            }
        }
    }
}

/// Port of `test_array_methods.py` `TestCudaArrayMethods::test_reinterpret_array_type`: Numba
/// reads `byte_arr[start:stop].view(np.int32)[0]`. Slicing a new array is not in the kernel
/// subset, so the bytes are made rows of 4 and row `start / 4` is viewed as `i32`.
#[rumba::kernel]
pub fn numba_reinterpret_array_type(
    t: &Thread,
    byte_arr: &Arr<u8>,
    start: usize,
    output: &mut Arr<i32>,
) {
    let words = byte_arr.reshape((byte_arr.len() / 4, 4));
    let bytes = words.row(start / 4);
    let val = bytes.view::<i32>();
    if t.grid1() == 0 {
        output[0] = val[0];
    }
}

/// Port of `test_array.py` `TestCudaArray::test_carray` (`_test_cfarray`): Numba's kernel gets
/// a raw pointer and makes `carray(a_ptr, (1,), dtype=float32)` over it, then adds 1.2. Here the
/// raw memory is a byte array, made a 1-element `f32` array by a view and a reshape.
#[rumba::kernel]
pub fn numba_carray(t: &Thread, a_ptr: &mut Arr<u8>) {
    let floats = a_ptr.view::<f32>();
    let a = floats.reshape(1);
    if t.grid1() == 0 {
        a[0] += 1.2;
    }
}

/// Port of `test_slicing.py` `TestCudaSlicing::test_slice_as_arg`: thread `i` copies row `i`
/// (Numba passes `inp[i, :]` and `out[i, :]` to a device function `foo` that copies
/// `out.shape[0]` elements).
#[rumba::kernel]
pub fn numba_slice_as_arg(t: &Thread, inp: &Arr<i32>, out: &mut Arr<i32>) {
    let i = t.grid1();
    let src = inp.row(i);
    let dst = out.row(i);
    for k in 0..dst.shape()[0] {
        dst[k] = src[k];
    }
}

/// Every view kernel that runs without a fault, with inputs: the differential tests run them on
/// both simulator engines and on OpenCL.
pub fn cases() -> Vec<Case> {
    let f24: Vec<f32> = (0..24).map(|v| v as f32 * 0.75 - 4.0).collect();
    let i24: Vec<i64> = (0..24).collect();
    let m64: Vec<f32> = (0..128).map(|v| (v % 7) as f32 - 3.0).collect();
    let bits = [1.0f32, -2.5, f32::INFINITY, f32::NAN, -0.0];
    let lut: Vec<u16> = (0..12).map(|v| v * 1000 + 7).collect();
    vec![
        case!(
            reshape_runtime,
            [1, 1, 1],
            [8, 4, 1],
            vec![
                HostArg::array(&f24, &[24]),
                HostArg::array(&[0f32; 24], &[3, 8])
            ]
        ),
        case!(
            reshape_write,
            [1, 1, 1],
            [64, 1, 1],
            vec![HostArg::zeros::<i32>(32)]
        ),
        case!(
            reshape_chain,
            [1, 1, 1],
            [16, 1, 1],
            vec![
                HostArg::array(&(0..12u16).collect::<Vec<_>>(), &[3, 4]),
                HostArg::zeros::<u16>(12),
                HostArg::zeros::<usize>(3)
            ]
        ),
        case!(
            view_bits,
            [1, 1, 1],
            [8, 1, 1],
            vec![HostArg::array(&bits, &[5]), HostArg::zeros::<u32>(5)]
        ),
        case!(
            view_bytes,
            [1, 1, 1],
            [4, 1, 1],
            vec![
                HostArg::array(&[0u32, 0x1111_1111, u32::MAX], &[3]),
                HostArg::zeros::<usize>(1)
            ]
        ),
        case!(
            view_wider,
            [1, 1, 1],
            [4, 1, 1],
            vec![
                HostArg::array(&(1..=8u8).collect::<Vec<_>>(), &[8]),
                HostArg::zeros::<u16>(4)
            ]
        ),
        case!(
            view_bool,
            [1, 1, 1],
            [8, 1, 1],
            vec![
                HostArg::array(&[0u8, 1, 7, 0xff, 0], &[5]),
                HostArg::zeros::<u32>(5)
            ]
        ),
        case!(
            row_sums,
            [1, 1, 1],
            [4, 1, 1],
            vec![
                HostArg::array(
                    &(0..15).map(|v| v as f64 * 1.5).collect::<Vec<_>>(),
                    &[3, 5]
                ),
                HostArg::zeros::<f64>(3)
            ]
        ),
        case!(
            columns,
            [1, 1, 1],
            [4, 1, 1],
            vec![
                HostArg::array(&(0..12).collect::<Vec<i32>>(), &[4, 3]),
                HostArg::scalar(2usize),
                HostArg::zeros::<i32>(4),
                HostArg::array(&[0i32; 12], &[2, 2, 3])
            ]
        ),
        case!(
            shared_tile,
            [1, 1, 1],
            [64, 1, 1],
            vec![HostArg::zeros::<f32>(64), HostArg::zeros::<u32>(4)]
        ),
        case!(
            local_bytes,
            [1, 1, 1],
            [3, 1, 1],
            vec![HostArg::array(&[0u8; 24], &[3, 8])]
        ),
        case!(
            views_across_barriers,
            [2, 1, 1],
            [64, 1, 1],
            vec![HostArg::array(&m64, &[2, 64]), HostArg::zeros::<f32>(128)]
        ),
        Case {
            dynamic_shared_bytes: 2 * 8 * 4,
            ..case!(
                views_kept_across_barriers,
                [2, 1, 1],
                [8, 1, 1],
                vec![
                    HostArg::array(&(0..10).map(|v| v * 3 - 7).collect::<Vec<i32>>(), &[5, 2]),
                    HostArg::array(&(0..16).map(|v| (v * 7) % 5).collect::<Vec<u32>>(), &[16]),
                    HostArg::zeros::<i32>(16),
                    HostArg::array(&[0u8; 64], &[16, 4])
                ]
            )
        },
        case!(
            const_table_rows,
            [2, 1, 1],
            [8, 1, 1],
            vec![HostArg::array(&lut, &[12]), HostArg::zeros::<u32>(13)]
        ),
        case!(
            numba_array_reshape1d,
            [1, 1, 1],
            [1, 1, 1],
            vec![
                HostArg::array(&i24, &[24]),
                HostArg::scalar(24usize),
                HostArg::zeros::<i64>(24)
            ]
        ),
        case!(
            numba_array_reshape2d,
            [1, 1, 1],
            [1, 1, 1],
            vec![
                HostArg::array(&i24, &[24]),
                HostArg::scalar(4usize),
                HostArg::scalar(6usize),
                HostArg::array(&[0i64; 24], &[4, 6])
            ]
        ),
        case!(
            numba_array_reshape3d,
            [1, 1, 1],
            [1, 1, 1],
            vec![
                HostArg::array(&i24, &[24]),
                HostArg::scalar(8usize),
                HostArg::scalar(1usize),
                HostArg::scalar(3usize),
                HostArg::array(&[0i64; 24], &[8, 1, 3])
            ]
        ),
        case!(
            numba_reinterpret_array_type,
            [1, 1, 1],
            [1, 1, 1],
            vec![
                HostArg::array(&(0..=255u8).collect::<Vec<_>>(), &[256]),
                HostArg::scalar(36usize),
                HostArg::zeros::<i32>(1)
            ]
        ),
        case!(
            numba_carray,
            [1, 1, 1],
            [1, 1, 1],
            vec![HostArg::array(&0.25f32.to_ne_bytes(), &[4])]
        ),
        case!(
            numba_slice_as_arg,
            [1, 1, 1],
            [10, 1, 1],
            vec![
                HostArg::array(&(0..100).collect::<Vec<i32>>(), &[10, 10]),
                HostArg::array(&[0i32; 100], &[10, 10])
            ]
        ),
    ]
}
