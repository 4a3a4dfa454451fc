//! In-kernel array views, after Numba's array reshape / reinterpret cases (`test_array.py`'s
//! reshape of a device array inside a kernel, `test_array_methods`' `view`, local and shared
//! arrays viewed as other shapes — the `carray`-like use): reshape with run-time and const
//! shapes, reinterpreting element types, rows and columns, views over shared and local memory,
//! atomics through a view, and the faults. Run by `kernel_views.rs`, compiled by NVRTC and PoCL,
//! golden-tested in rumba-kernel-ir.
use rumba::kernel::prelude::*;

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
