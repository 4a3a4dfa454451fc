//! Kernels that capture device arrays from `static` cells, after Numba-CUDA's
//! `test_device_array_capture.py` (a kernel, or a device function it calls, names a global device
//! array): each Numba case has its own cell here, so the tests can run at the same time.
//!
//! Numba reads the captured array inside `@cuda.jit(device=True)` helpers in six of its eight
//! cases. rumba's device functions take no arrays (and so cannot capture one) in this version:
//! the kernel captures the array and hands the device function the element, which is what
//! Numba's inlined helper computes.

use rumba::kernel::prelude::*;

/// `test_basic_capture`.
pub static BASIC: Captured<f32> = Captured::new();
/// `test_computation`.
pub static COMPUTE: Captured<f32> = Captured::new();
/// `test_mutability`.
pub static MUTABLE: Captured<f32> = Captured::new();
/// `test_multiple_arrays`.
pub static ARR_A: Captured<f32> = Captured::new();
/// `test_multiple_arrays`.
pub static ARR_B: Captured<f32> = Captured::new();
/// `test_multidimensional`.
pub static ARR_2D: Captured<f32> = Captured::new();
/// `test_dtypes` (int32).
pub static INTS: Captured<i32> = Captured::new();
/// `test_dtypes` (float64).
pub static DOUBLES: Captured<f64> = Captured::new();
/// `test_direct_kernel_access`.
pub static DIRECT: Captured<f32> = Captured::new();
/// `test_zero_dimensional` (a one-element array: kernels index with 1–3 components).
pub static SCALAR_CELL: Captured<f32> = Captured::new();
/// The keep-alive test's source.
pub static KEEP: Captured<u32> = Captured::new();
/// The launch-time snapshot test's source.
pub static SNAP: Captured<u32> = Captured::new();
/// Never set: launching `reads_empty` fails.
pub static NEVER_SET: Captured<f32> = Captured::new();
/// Set to arrays of the wrong rank by the rank test.
pub static RANKED: Captured<f32> = Captured::new();
/// Shared by two kernels.
pub static SHARED_COUNTS: Captured<u32> = Captured::new();

/// Numba's `read_global(idx)`, given the element.
#[device]
fn read_global(v: f32) -> f32 {
    v
}

/// Numba's `double_global_value(idx)`, given the element.
#[device]
fn double_global_value(v: f32) -> f32 {
    v * 2.0
}

/// Numba's `add_globals(idx)`, given the elements.
#[device]
fn add_globals(a: f32, b: f32) -> f32 {
    a + b
}

#[kernel(capture(BASIC: &Arr<f32>))]
pub fn capture_basic(t: &Thread, output: &mut Arr<f32>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = read_global(BASIC[i]);
    }
}

#[kernel(capture(COMPUTE: &Arr<f32>))]
pub fn capture_computation(t: &Thread, output: &mut Arr<f32>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = double_global_value(COMPUTE[i]);
    }
}

/// No parameters at all: the capture is the only array.
#[kernel(capture(MUTABLE: &mut Arr<f32>))]
pub fn capture_write(t: &Thread) {
    let i = t.grid1();
    if i < 5 {
        MUTABLE[i] = (i + 1) as f32;
    }
}

#[kernel(capture(ARR_A: &Arr<f32>, ARR_B: &Arr<f32>))]
pub fn capture_multiple(t: &Thread, output: &mut Arr<f32>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = add_globals(ARR_A[i], ARR_B[i]);
    }
}

#[kernel(capture(ARR_2D: &Arr<f32>))]
pub fn capture_2d(t: &Thread, output: &mut Arr<f32>) {
    let i = t.grid1();
    if i < 6 {
        let (row, col) = (i / 2, i % 2);
        output[i] = ARR_2D[(row, col)];
    }
}

#[kernel(capture(INTS: &Arr<i32>))]
pub fn capture_i32(t: &Thread, output: &mut Arr<i32>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = INTS[i];
    }
}

#[kernel(capture(DOUBLES: &Arr<f64>))]
pub fn capture_f64(t: &Thread, output: &mut Arr<f64>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = DOUBLES[i];
    }
}

#[kernel(capture(DIRECT: &Arr<f32>))]
pub fn capture_direct(t: &Thread, output: &mut Arr<f32>) {
    let i = t.grid1();
    if i < output.len() {
        output[i] = DIRECT[i] + 1.0;
    }
}

#[kernel(capture(SCALAR_CELL: &Arr<f32>))]
pub fn capture_scalar(_t: &Thread, output: &mut Arr<f32>) {
    output[0] = SCALAR_CELL[0] * 2.0;
}

/// Copies the captured array to `out`, with a scalar parameter between.
#[kernel(capture(KEEP: &Arr<u32>))]
pub fn capture_keep(t: &Thread, out: &mut Arr<u32>, add: u32) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = KEEP[i] + add;
    }
}

#[kernel(capture(SNAP: &Arr<u32>))]
pub fn capture_snapshot(t: &Thread, out: &mut Arr<u32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = SNAP[i];
    }
}

#[kernel(capture(NEVER_SET: &Arr<f32>))]
pub fn reads_empty(t: &Thread, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = NEVER_SET[i];
    }
}

/// Indexes its capture with two components.
#[kernel(capture(RANKED: &Arr<f32>))]
pub fn reads_ranked(t: &Thread, out: &mut Arr<f32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = RANKED[(i, 0)];
    }
}

/// Two kernels write one captured array: counts with atomics, then doubles.
#[kernel(capture(SHARED_COUNTS: &mut Arr<u32>))]
pub fn capture_count(t: &Thread, keys: &Arr<u32>) {
    let i = t.grid1();
    if i < keys.len() {
        SHARED_COUNTS.atomic_add(keys[i] as usize, 1u32);
    }
}

#[kernel(capture(SHARED_COUNTS: &mut Arr<u32>))]
pub fn capture_double_counts(t: &Thread) {
    let i = t.grid1();
    if i < SHARED_COUNTS.len() {
        SHARED_COUNTS[i] *= 2;
    }
}

/// Read as 2 x 3 through an in-kernel view.
pub static GRID: Captured<f32> = Captured::new();

/// A capture seen through an in-kernel view (a flat array read as 2 x 3).
#[kernel(capture(GRID: &Arr<f32>))]
pub fn capture_reshaped(t: &Thread, out: &mut Arr<f32>) {
    let m = GRID.reshape((2, 3));
    let i = t.grid1();
    if i < 6 {
        out[i] = m[(i % 2, i / 2)];
    }
}
