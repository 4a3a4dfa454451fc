//! Every construct of the v1 subset that the other corpus kernels do not already show (compiled
//! by rustc, NVRTC and OpenCL; golden-tested in rumba-kernel-ir).
use rumba::kernel::prelude::*;

pub const N: usize = 8;
pub const SCALE: f32 = 0.5;
pub const MASK: u32 = 0xff;
pub const BIAS: i64 = -3;

#[rumba::kernel::record]
pub struct Pair {
    pub lo: f32,
    pub hi: f32,
}

#[rumba::device]
pub fn lerp(p: Pair, w: f32) -> f32 {
    p.lo + (p.hi - p.lo) * w
}

#[rumba::device]
pub fn flat_id(t: &Thread) -> usize {
    let d = t.block_dim();
    let i = t.thread_idx();
    (i.x + d.x * (i.y + d.y * i.z)) as usize
}

#[rumba::kernel]
pub fn literals_and_consts(
    t: &Thread,
    out: &mut Arr<f64>,
    bits: &mut Arr<u32>,
    wide: &mut Arr<i64>,
) {
    let i = t.grid1();
    let int = 3;
    let x = -2.5f32 * SCALE;
    out[0] = f64::INFINITY;
    out[1] = f64::NAN;
    out[2] = -0.0;
    out[3] = 1e-300;
    out[4] = x as f64 + int as f64;
    bits[0] = u32::MAX & MASK;
    bits[1] = !0u32 >> 4;
    wide[0] = i64::MIN;
    wide[1] = BIAS * N as i64;
    wide[2] = -(i as i64);
}

#[rumba::kernel]
pub fn operators(
    t: &Thread,
    a: &mut Arr<i16>,
    b: &mut Arr<u64>,
    f: &mut Arr<f32>,
    flags: &mut Arr<u8>,
) {
    let i = t.grid1();
    let mut v = a[i];
    v += 3;
    v -= a[0];
    v *= 2;
    v /= 7;
    v %= 5;
    v <<= 2;
    v >>= 1;
    v &= 0x7f;
    v |= 1;
    v ^= -1;
    a[i] = -v;
    b[i] += 1;
    b[i] <<= 3u8;
    f[i] %= 2.0;
    f[i] = -f[i] / 3.0;
    let yes = v > 0 && (b[i] != 0 || !(f[i] >= 1.0));
    flags[i] = yes as u8;
}

#[rumba::kernel]
pub fn casts_and_math(t: &Thread, x: &Arr<f64>, out: &mut Arr<i32>, g: &mut Arr<f64>) {
    let i = t.grid1();
    let v = x[i];
    out[4 * i] = v as i32;
    out[4 * i + 1] = (v as f32) as u8 as i32;
    out[4 * i + 2] = (v as i64).wrapping_mul(3) as i32;
    out[4 * i + 3] = (v.is_nan() as i32).max(-7).min(9).abs();
    g[i] = v
        .tan()
        .exp()
        .ln()
        .sin()
        .cos()
        .powf(2.0)
        .powi(-2)
        .floor()
        .ceil()
        .round()
        .mul_add(v, v)
        .sqrt()
        .abs();
    g[i + 1] = f64::max(v, 0.0) + f64::min(v, 1.0);
    let w = 5i32.wrapping_add(out[0]).wrapping_sub(1).wrapping_neg();
    out[0] = w;
}

#[rumba::kernel]
pub fn control(t: &Thread, out: &mut Arr<u32>) {
    let i = t.grid1();
    if i >= out.len() {
        return;
    }
    let mut acc = 0u32;
    let mut k = 0u32;
    while k < 10 {
        k += 1;
        if k == 3 {
            continue;
        }
        acc += k;
    }
    loop {
        acc -= 1;
        if acc < 40 {
            break;
        }
    }
    for j in (2..=20u32).step_by(4) {
        acc ^= j;
    }
    for _ in 0..2 {
        acc += 1;
    }
    let acc = {
        let doubled = acc * 2;
        doubled + 1
    };
    let parity = if acc % 2 == 0 {
        0u32
    } else if acc % 3 == 0 {
        1
    } else {
        2
    };
    assert!(parity < 3);
    out[i] = acc + parity;
}

#[rumba::kernel]
pub fn memory(t: &Thread, c: &ConstArr<f32>, cube: &mut Arr<f32>, counts: &mut Arr<i32>, p: Pair) {
    let (x, y, z) = t.grid3();
    let tile = t.shared_array::<f32>((N, N));
    let dynamic = t.dynamic_shared::<u32>();
    let scratch = t.local_array::<f32>((2, 3));
    let tid = flat_id(t);
    tile[(tid % N, tid / N % N)] = c[tid % c.len()];
    dynamic[tid] = tid as u32;
    scratch[(1, 2)] = lerp(p, 0.25f32);
    t.syncthreads();
    let n = t.syncthreads_count(dynamic[tid] % 2 == 0);
    let all = t.syncthreads_and(tid < 1000);
    let any = t.syncthreads_or(tid as i32);
    t.threadfence();
    t.threadfence_block();
    t.threadfence_system();
    if x < cube.shape()[2] && y < cube.shape()[1] && z < cube.shape()[0] {
        cube[(z, y, x)] = tile[(tid % N, 0)] + scratch[(1, 2)];
    }
    counts[0] = n + all + any + t.warp_size() as i32 + t.lane_id() as i32 + dynamic.len() as i32;
    counts[1] =
        (cube.size() + t.gridsize1() + t.block_idx().y as usize + t.grid_dim().z as usize) as i32;
}

#[rumba::kernel]
pub fn atomics_all(t: &Thread, g: &mut Arr<u32>, s64: &mut Arr<i64>, f: &mut Arr<f32>) {
    let i = t.grid1() as u32;
    let sh = t.shared_array::<i32>(4);
    let _ = g.atomic_add(0, i);
    let _ = g.atomic_sub(1, i);
    let _ = g.atomic_min(2, i);
    let _ = g.atomic_max(3, i);
    let _ = g.atomic_and(4, i);
    let _ = g.atomic_or(5, i);
    let _ = g.atomic_xor(6, i);
    let _ = g.atomic_exch(7, i);
    let _ = g.atomic_cas(8, 0, i);
    let _ = g.atomic_inc(9, 16);
    let _ = g.atomic_dec(10, 16);
    let _ = g.atomic_nanmax(11, i);
    let _ = g.atomic_nanmin(12, i);
    let _ = s64.atomic_add(0, -1);
    let _ = s64.atomic_max(1, i as i64);
    let _ = f.atomic_add(0, 1.5);
    let _ = f.atomic_min(1, 0.5);
    let _ = f.atomic_exch(2, 2.0);
    let _ = f.atomic_cas(3, 0.0, 1.0);
    let _ = f.atomic_nanmax(4, i as f32);
    let _ = f.atomic_nanmin(5, -(i as f32));
    let _ = sh.atomic_add(0, 1);
    let _ = sh.atomic_nanmax(1, i as i32);
}
