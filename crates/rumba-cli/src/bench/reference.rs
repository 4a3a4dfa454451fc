//! The bench's workloads written directly in Rust: the same computations over the same data
//! layouts as the kernels of [`kernels`](super::kernels), parallel over the machine's cores with
//! rayon, with no GPU model at all (no blocks, no barriers, no bounds-checked device arrays).
//! What they cost is the limit for running the kernels on this CPU; `rumba bench` reports them
//! as peer `rust-reference`, and the workloads check the kernels' results against them.
//!
//! Each function computes into a caller-provided output so that timing it measures the
//! computation, not allocation. Floating-point sums run in the kernels' order wherever a kernel
//! fixes one (per element of vadd, the stencil, the n-body accumulation over bodies in index
//! order), so those results agree bit for bit; sgemm and the block sums of the reductions add in
//! another order and agree within rounding.
//!
//! Pure: this module touches only the slices it is given (and rayon's pool).

use rayon::prelude::*;

use super::kernels::{BINS, SCAN_TILE, SOFTENING2};

/// Elements per rayon task of the element-wise loops: large enough that scheduling costs
/// nothing next to the work, small enough to balance two cores.
const GRAIN: usize = 1 << 16;

/// `c[i] = a[i] + b[i]`.
pub fn vadd(a: &[f32], b: &[f32], c: &mut [f32]) {
    c.par_chunks_mut(GRAIN)
        .zip(a.par_chunks(GRAIN).zip(b.par_chunks(GRAIN)))
        .for_each(|(c, (a, b))| {
            for ((c, a), b) in c.iter_mut().zip(a).zip(b) {
                *c = a + b;
            }
        });
}

/// `c = a·b` for row-major `n×n` matrices (row by row, i-k-j order: the inner loop runs along
/// rows of `b` and `c`, so it vectorises).
pub fn matmul(a: &[f32], b: &[f32], c: &mut [f32], n: usize) {
    gemm(a, b, c, n, 1.0, 0.0);
}

/// `c = alpha·a·b + beta·c` for row-major `n×n` matrices.
pub fn gemm(a: &[f32], b: &[f32], c: &mut [f32], n: usize, alpha: f32, beta: f32) {
    if n == 0 {
        return;
    }
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        let mut acc = vec![0.0f32; n];
        for (k, &aik) in a[i * n..(i + 1) * n].iter().enumerate() {
            for (s, &bkj) in acc.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *s += aik * bkj;
            }
        }
        for (c, s) in row.iter_mut().zip(&acc) {
            *c = alpha * s + beta * *c;
        }
    });
}

/// The sum of each block of `block` values of `x` (the last one zero-padded), into `partial`.
pub fn block_sums(x: &[f32], block: usize, partial: &mut [f32]) {
    partial
        .par_iter_mut()
        .zip(x.par_chunks(block))
        .for_each(|(p, c)| *p = c.iter().sum());
}

/// `b = aᵀ` for a row-major `rows×cols` matrix `a`, through 32×32 tiles (so that both the
/// reads and the writes stay within a few cache lines per tile).
pub fn transpose(a: &[f32], b: &mut [f32], rows: usize, cols: usize) {
    const T: usize = 32;
    if rows == 0 || cols == 0 {
        return;
    }
    // One task per band of T rows of `b` (T columns of `a`).
    b.par_chunks_mut(T * rows)
        .enumerate()
        .for_each(|(band, out)| {
            let c0 = band * T;
            let cw = T.min(cols - c0);
            for r0 in (0..rows).step_by(T) {
                let rh = T.min(rows - r0);
                for c in 0..cw {
                    let dst = &mut out[c * rows + r0..c * rows + r0 + rh];
                    for (r, d) in dst.iter_mut().enumerate() {
                        *d = a[(r0 + r) * cols + c0 + c];
                    }
                }
            }
        });
}

/// One Jacobi step of the 5-point stencil (`v` from `u`, row-major `rows×cols`): as the
/// `stencil5` kernel, the boundary copied and each interior point
/// `0.2 · (centre + up + down + left + right)`, summed in that order.
pub fn stencil5(u: &[f32], v: &mut [f32], rows: usize, cols: usize) {
    if rows == 0 || cols == 0 {
        return;
    }
    v.par_chunks_mut(cols).enumerate().for_each(|(y, out)| {
        let row = &u[y * cols..(y + 1) * cols];
        if y == 0 || y + 1 == rows || cols < 3 {
            out.copy_from_slice(row);
            return;
        }
        let up = &u[(y - 1) * cols..y * cols];
        let down = &u[(y + 1) * cols..(y + 2) * cols];
        out[0] = row[0];
        out[cols - 1] = row[cols - 1];
        for x in 1..cols - 1 {
            let s = row[x] + up[x] + down[x] + row[x - 1] + row[x + 1];
            out[x] = 0.2 * s;
        }
    });
}

/// The histogram of `data`'s byte values into `bins` (overwritten).
pub fn histogram(data: &[u8], bins: &mut [u32; BINS]) {
    *bins = data
        .par_chunks(GRAIN)
        .map(|c| {
            let mut h = [0u32; BINS];
            for &b in c {
                h[b as usize] += 1;
            }
            h
        })
        .reduce(
            || [0u32; BINS],
            |mut a, b| {
                for (a, b) in a.iter_mut().zip(b) {
                    *a = a.wrapping_add(b);
                }
                a
            },
        );
}

/// The exclusive prefix sum of `x` (wrapping `u32`) into `y`: the totals of `SCAN_TILE`-element
/// chunks in parallel, their exclusive scan, then each chunk's scan from its offset in parallel.
pub fn exclusive_scan(x: &[u32], y: &mut [u32]) {
    // Chunks of many tiles per task: two passes over the data, each split over the cores.
    let chunk = SCAN_TILE * 64;
    let mut offsets: Vec<u32> = x
        .par_chunks(chunk)
        .map(|c| c.iter().fold(0u32, |a, &v| a.wrapping_add(v)))
        .collect();
    let mut run = 0u32;
    for o in &mut offsets {
        let t = *o;
        *o = run;
        run = run.wrapping_add(t);
    }
    y.par_chunks_mut(chunk)
        .zip(x.par_chunks(chunk))
        .zip(offsets)
        .for_each(|((y, x), mut run)| {
            for (y, &v) in y.iter_mut().zip(x) {
                *y = run;
                run = run.wrapping_add(v);
            }
        });
}

/// One n-body step as the `nbody` kernel: `pos` / `vel` are `(n, 4)` row-major (x, y, z, mass /
/// vx, vy, vz, 0); every body's softened acceleration from all bodies in index order, then
/// semi-implicit Euler by `dt` into `pos_out` / `vel_out`.
pub fn nbody(pos: &[f32], vel: &[f32], pos_out: &mut [f32], vel_out: &mut [f32], dt: f32) {
    pos_out
        .par_chunks_mut(4)
        .zip(vel_out.par_chunks_mut(4))
        .enumerate()
        .for_each(|(i, (po, vo))| {
            let (px, py, pz) = (pos[4 * i], pos[4 * i + 1], pos[4 * i + 2]);
            let (mut ax, mut ay, mut az) = (0.0f32, 0.0f32, 0.0f32);
            for p in pos.chunks_exact(4) {
                let (dx, dy, dz) = (p[0] - px, p[1] - py, p[2] - pz);
                let d2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
                let inv = 1.0f32 / d2.sqrt();
                let f = p[3] * (inv * inv * inv);
                ax += dx * f;
                ay += dy * f;
                az += dz * f;
            }
            let vx = vel[4 * i] + ax * dt;
            let vy = vel[4 * i + 1] + ay * dt;
            let vz = vel[4 * i + 2] + az * dt;
            vo.copy_from_slice(&[vx, vy, vz, 0.0]);
            po.copy_from_slice(&[px + vx * dt, py + vy * dt, pz + vz * dt, pos[4 * i + 3]]);
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_compute_what_their_serial_definitions_say() {
        let n = 70;
        let a: Vec<f32> = (0..n * n).map(|i| (i % 13) as f32 - 6.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 * 0.5).collect();
        let mut c = vec![1.0f32; n * n];
        gemm(&a, &b, &mut c, n, 2.0, 3.0);
        for (i, j) in [(0, 0), (5, 69), (69, 3)] {
            let s: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
            assert_eq!(c[i * n + j], 2.0 * s + 3.0);
        }
        let (rows, cols) = (37, 70);
        let mut t = vec![0.0; rows * cols];
        transpose(&a[..rows * cols], &mut t, rows, cols);
        for (r, c) in [(0, 0), (36, 69), (10, 33)] {
            assert_eq!(t[c * rows + r], a[r * cols + c]);
        }
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut h = [0u32; BINS];
        histogram(&bytes, &mut h);
        assert_eq!(h.iter().sum::<u32>(), 200_000);
        assert_eq!(h[0], bytes.iter().filter(|&&b| b == 0).count() as u32);
        let x: Vec<u32> = (0..300_000u32).map(|i| i % 5 + u32::MAX / 4).collect();
        let mut y = vec![0; x.len()];
        exclusive_scan(&x, &mut y);
        let mut run = 0u32;
        for (k, (&xv, &yv)) in x.iter().zip(&y).enumerate() {
            assert_eq!(yv, run, "element {k}");
            run = run.wrapping_add(xv);
        }
        let mut p = [0.0; 7];
        block_sums(&[1.0; 1500], 256, &mut p[..6]);
        assert_eq!(&p[..6], &[256.0, 256.0, 256.0, 256.0, 256.0, 220.0]);
        let (rows, cols) = (5, 6);
        let u: Vec<f32> = (0..30).map(|i| i as f32).collect();
        let mut v = vec![0.0; 30];
        stencil5(&u, &mut v, rows, cols);
        assert_eq!(v[0], 0.0);
        assert_eq!(v[7], 0.2 * (7.0 + 1.0 + 13.0 + 6.0 + 8.0));
        assert_eq!(v[29], 29.0);
    }
}
