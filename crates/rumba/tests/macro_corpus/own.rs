//! Own-index outputs: `&mut Arr` parameters every thread reaches only at its own index — stores,
//! read-modify-writes (`y[i] += v`) and reads — which the loop form runs through the block's
//! own-index windows (plain accesses when the launch has the array alone), and one that reads a
//! neighbour's element and so must not be one. Run on both engines by `kernel_macro_regions.rs`
//! and against PoCL by `kernel_opencl.rs`, compiled by NVRTC, golden-tested in rumba-kernel-ir
//! (`corpus_own.wil.rs` shows which accesses go through windows).
use rumba::kernel::prelude::*;

use super::case::{Case, HostArg, exact_case as case};

/// Every thread stores its own `(y, x)` of a 2-d array: an own-index output (plain stores
/// through a window over the block's rows in full blocks, checked in partial ones).
#[rumba::kernel]
pub fn own2_index(t: &Thread, v: &mut Arr<u32>) {
    let (x, y) = t.grid2();
    if y < v.shape()[0] && x < v.shape()[1] {
        v[(y, x)] = (y * 1000 + x) as u32;
    }
}

/// As `own2_index`, with a guard one column too wide: the threads of the column past the edge
/// store out of bounds (in a partial block).
#[rumba::kernel]
pub fn own2_past_the_edge(t: &Thread, v: &mut Arr<u32>) {
    let (x, y) = t.grid2();
    if y < v.shape()[0] && x <= v.shape()[1] {
        v[(y, x)] = (y * 1000 + x) as u32;
    }
}

/// A scan's second pass and more: each thread adds its tile's offset to its own element
/// (`y[i] += …`, as `scan_add` does), then reads it back and rewrites it across a barrier, and
/// subtracts with wrapping arithmetic. `limit` guards the own index (`y.len()` or more: threads
/// from `y.len()` on fault).
#[rumba::kernel]
pub fn own_accumulate(t: &Thread, y: &mut Arr<u32>, offsets: &Arr<u32>, limit: usize) {
    let i = t.grid1();
    if i < limit {
        y[i] += offsets[i / 4];
        y[i] ^= 0x55;
    }
    t.syncthreads();
    if i < limit {
        let old = y[i];
        y[i] = old.wrapping_mul(3) + 1;
        y[i] = y[i].wrapping_sub(7);
    }
}

/// A 2-d own-index read-modify-write beside halo reads of an input: the interior adds three
/// neighbours of `u`, the border subtracts its own `u`.
#[rumba::kernel]
pub fn own2_update(t: &Thread, u: &Arr<f32>, v: &mut Arr<f32>) {
    let (x, y) = t.grid2();
    let (rows, cols) = (v.shape()[0], v.shape()[1]);
    if y < rows && x < cols {
        v[(y, x)] *= 2.0;
        if y > 0 && x > 0 && y + 1 < rows && x + 1 < cols {
            v[(y, x)] += u[(y - 1, x)] + u[(y + 1, x)] - u[(y, x - 1)];
        } else {
            let old = v[(y, x)];
            v[(y, x)] = old - u[(y, x)];
        }
    }
}

/// Reads a neighbour's element of the array it writes (`y[i ^ 1]`, before a barrier): not an
/// own-index output.
#[rumba::kernel]
pub fn neighbour_read(t: &Thread, y: &mut Arr<i32>) {
    let i = t.grid1();
    let mut n = 0;
    if i ^ 1 < y.len() {
        n = y[i ^ 1];
    }
    t.syncthreads();
    if i < y.len() {
        y[i] += n & 0xff;
    }
}

/// `own_accumulate` over `n` elements in blocks of `block` threads, guarded by `limit`.
pub fn accumulate(n: usize, block: usize, limit: usize) -> Case {
    let y: Vec<u32> = (0..n as u32)
        .map(|v| v.wrapping_mul(2_654_435_761))
        .collect();
    let offsets: Vec<u32> = (0..(n / 4 + 1) as u32).map(|v| v * 977 + 3).collect();
    case!(
        own_accumulate,
        [n.div_ceil(block).max(1), 1, 1],
        [block, 1, 1],
        vec![
            HostArg::array(&y, &[n]),
            HostArg::array(&offsets, &[offsets.len()]),
            HostArg::scalar(limit),
        ]
    )
}

/// `own2_update` over `rows × cols` in blocks of `block`.
pub fn update(rows: usize, cols: usize, block: [usize; 3]) -> Case {
    let u: Vec<f32> = (0..rows * cols)
        .map(|k| (k % 13) as f32 * 0.25 - 1.0)
        .collect();
    let v: Vec<f32> = (0..rows * cols).map(|k| (k % 7) as f32 + 0.5).collect();
    case!(
        own2_update,
        [cols.div_ceil(block[0]), rows.div_ceil(block[1]), 1],
        block,
        vec![
            HostArg::array(&u, &[rows, cols]),
            HostArg::array(&v, &[rows, cols])
        ]
    )
}

/// `neighbour_read` over `n` elements in blocks of `block`.
pub fn neighbour(n: usize, block: usize) -> Case {
    let y: Vec<i32> = (0..n as i32).map(|v| v * 37 - 500).collect();
    case!(
        neighbour_read,
        [n.div_ceil(block), 1, 1],
        [block, 1, 1],
        vec![HostArg::array(&y, &[n])]
    )
}

/// The cases every backend must agree on (no faults).
pub fn cases() -> Vec<Case> {
    vec![
        accumulate(1024, 256, 1024),
        accumulate(1000, 256, 1000),
        accumulate(77, 32, 77),
        update(40, 513, [256, 1, 1]),
        update(33, 70, [16, 16, 1]),
        update(9, 20, [8, 4, 1]),
        neighbour(512, 128),
    ]
}
