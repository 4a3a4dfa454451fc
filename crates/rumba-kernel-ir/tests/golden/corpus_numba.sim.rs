// ---- thread_zero_fills_shared
fn body() {
    let sm = t.shared_array::<i32>(N_SM);
    if ((t.thread_idx()).x == 0u32) {
        for i in (0usize)..(::rumba::kernel::__macro::ty::<usize>(N_SM)) {
            sm.set(i, ((i) as i32));
        }
    }
    t.syncthreads();
    let i: usize = (((t.thread_idx()).x) as usize);
    out.set(i, sm.get(i));
}
// local i: varying
// local i_2: varying
// barrier Plain at #5: uniform control
// live across barriers: []
// ---- shared_2d_ratios
fn body() {
    let sm = t.shared_array::<f64>((ROWS, COLS));
    let (i, j): (usize, usize) = (
        (((t.thread_idx()).x) as usize),
        (((t.thread_idx()).y) as usize),
    );
    sm.set(
        (i, j),
        ((((i).wrapping_add(1usize)) as f64) / (((j).wrapping_add(1usize)) as f64)),
    );
    t.syncthreads();
    let (ni, nj): (usize, usize) = (
        ((i).wrapping_add(1usize) % ::rumba::kernel::__macro::ty::<usize>(ROWS)),
        ((j).wrapping_add(3usize) % ::rumba::kernel::__macro::ty::<usize>(COLS)),
    );
    out.set((ni, nj), sm.get((ni, nj)));
}
// local i: varying
// local j: varying
// local ni: varying
// local nj: varying
// barrier Plain at #4: uniform control
// live across barriers: [i, j]
// ---- dynamic_shared_floats
fn body() {
    let sm = t.dynamic_shared::<f32>();
    let i: usize = (((t.thread_idx()).x) as usize);
    sm.set(i, (2f32 * ((i) as f32)));
    t.syncthreads();
    out.set(i, sm.get(((sm.len()).wrapping_sub(1usize)).wrapping_sub(i)));
}
// local i: varying
// barrier Plain at #4: uniform control
// live across barriers: [i]
// ---- local_copy
fn body() {
    let l = t.local_array::<i32>(1000usize);
    for i in (0usize)..(1000usize) {
        l.set(i, a.get(i));
    }
    for i in (0usize)..(1000usize) {
        b.set(i, l.get(i));
    }
}
// local i: uniform
// local i_2: uniform
// live across barriers: []
// ---- local_2d_private
fn body() {
    let i: usize = t.grid1();
    let l = t.local_array::<i64>((2usize, 5usize));
    for k in (0usize)..(5usize) {
        l.set((0usize, k), ((((i).wrapping_mul(10usize)).wrapping_add(k)) as i64));
    }
    t.syncthreads();
    let mut acc: i64 = 0i64;
    for k in (0usize)..(5usize) {
        l.set((1usize, k), (l.get((0usize, k))).wrapping_mul(3i64));
        acc = (acc).wrapping_add(l.get((1usize, k)));
    }
    out.set(i, acc);
}
// local i: varying
// local k: uniform
// local acc: varying
// local k_2: uniform
// barrier Plain at #5: uniform control
// live across barriers: [i]
// ---- const_lookup
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (lut.get((i % lut.len())) * 2f32));
    }
}
// local i: varying
// live across barriers: []
// ---- const_2d
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    if ((y < lut.shape()[0]) && (x < lut.shape()[1])) {
        out.set(
            ((y).wrapping_mul(lut.shape()[1])).wrapping_add(x),
            (((lut.get((y, x))) as u32)).wrapping_add(1u32),
        );
    }
}
// local x: varying
// local y: varying
// live across barriers: []
// ---- barrier_values
fn body() {
    let i: usize = (((t.thread_idx()).x) as usize);
    count.set(i, t.syncthreads_count(input.get(i)));
    all.set(i, t.syncthreads_and((input.get(i) != 0i32)));
    any.set(i, t.syncthreads_or((input.get(i) > 1i32)));
}
// local i: varying
// barrier Count at #2: uniform control
// barrier And at #3: uniform control
// barrier Or at #4: uniform control
// live across barriers: [i]
// ---- atomics
fn body() {
    let i: usize = t.grid1();
    ints.atomic_add(0usize, 1i32);
    ints.atomic_sub(1usize, 2i32);
    ints.atomic_max(2usize, (((i % 1000usize)) as i32));
    ints.atomic_xor(3usize, 1i32);
    ints.atomic_min(4usize, (((i) as i32)).wrapping_neg());
    ints.atomic_and(5usize, (((!(1i32).wrapping_shl(((i % 31usize)) as u32))) as i32));
    wide.atomic_add(0usize, ((i) as u64));
    wide.atomic_or(1usize, (1u64).wrapping_shl(((i % 64usize)) as u32));
    wide.atomic_min(2usize, (18446744073709551615u64).wrapping_sub(((i) as u64)));
    floats.atomic_add(0usize, 1f64);
    floats.atomic_max(1usize, ((i) as f64));
    floats.atomic_min(2usize, (-((i) as f64)));
    counters.atomic_inc(0usize, 99u32);
    counters.atomic_dec(1usize, 999u32);
    single.atomic_add(0usize, 0.5f32);
    let s = t.shared_array::<u32>(1usize);
    if ((t.thread_idx()).x == 0u32) {
        s.set(0usize, 0u32);
    }
    t.syncthreads();
    s.atomic_add(0usize, 1u32);
    t.syncthreads();
    if ((t.thread_idx()).x == 0u32) {
        counters.atomic_add(2usize, s.get(0usize));
    }
}
// local i: varying
// barrier Plain at #20: uniform control
// barrier Plain at #22: uniform control
// live across barriers: []
// ---- cas_max
fn body() {
    let v: i64 = values.get(t.grid1());
    let mut old: i64 = m.get(0usize);
    while (old < v) {
        let seen: i64 = m.atomic_cas(0usize, old, v);
        if (seen == old) {
            break;
        }
        old = seen;
    }
    let me: usize = t.grid1();
    let before: u32 = swapped.atomic_exch((2usize).wrapping_mul(me), ((me) as u32));
    swapped.set(((2usize).wrapping_mul(me)).wrapping_add(1usize), before);
}
// local v: varying
// local old: varying
// local seen: varying
// local me: varying
// local before: varying
// live across barriers: []
// ---- affine
fn body() {
    let f: Affine = *f;
    let i: usize = t.grid1();
    if ((i < x.len()) && (((i) as u32) < ::rumba::kernel::__macro::ty::<u32>((f).count)))
    {
        x.set(
            i,
            ((::rumba::kernel::__macro::ty::<f32>((f).scale) * x.get(i))
                + ::rumba::kernel::__macro::ty::<f32>((f).shift)),
        );
    }
}
// local f: uniform
// local i: varying
// live across barriers: []
// ---- square
fn body() {
    return (x * x);
}
// local x: uniform
// live across barriers: []
// ---- clamp_square
fn body() {
    let s: f32 = ::rumba::kernel::__macro::ty::<f32>(square(x));
    return (if (s < lo) { lo } else { (if (s > hi) { hi } else { s }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// local s: uniform
// live across barriers: []
// ---- my_lane
fn body() {
    return t.lane_id();
}
// live across barriers: []
// ---- use_device_fns
fn body() {
    let i: usize = t.grid1();
    if (i < y.len()) {
        y.set(
            i,
            ::rumba::kernel::__macro::ty::<f32>(clamp_square(x.get(i), 0.25f32, 4f32)),
        );
        lanes.set(i, ::rumba::kernel::__macro::ty::<u32>(my_lane(t)));
    }
}
// local i: varying
// live across barriers: []
// ---- control_flow
fn body() {
    let (x, y, z): (usize, usize, usize) = t.grid3();
    let (nx, ny, _nz): (usize, usize, usize) = t.gridsize3();
    let i: usize = (x)
        .wrapping_add((nx).wrapping_mul((y).wrapping_add((ny).wrapping_mul(z))));
    if (i >= out.len()) {
        return;
    }
    let mut acc: i64 = 0i64;
    for k in ((0usize)..((i).wrapping_add(10usize))).step_by(3usize) {
        acc = (acc).wrapping_add(((k) as i64));
    }
    for k in (250u8)..=(255u8) {
        acc = (acc).wrapping_add(((k) as i64));
    }
    let mut n: i32 = 0i32;
    loop {
        n = (n).wrapping_add(1i32);
        if ((n % 2i32) == 0i32) {
            continue;
        }
        if (n > 7i32) {
            break;
        }
        acc = (acc).wrapping_sub(((n) as i64));
    }
    let mut __rumba_t11: i64;
    if ((i % 2usize) == 0usize) {
        let h: usize = (i / 2usize);
        __rumba_t11 = ((h) as i64);
    } else {
        __rumba_t11 = (((i) as i64)).wrapping_neg();
    }
    let v: i64 = __rumba_t11;
    out.set(i, ((acc).wrapping_mul(1000i64)).wrapping_add(v));
}
// local x: varying
// local y: varying
// local z: varying
// local nx: uniform
// local ny: uniform
// local _nz: uniform
// local i: varying
// local acc: varying
// local k: varying
// local k_2: varying
// local n: varying
// local rb_t11: varying
// local h: varying
// local v: varying
// live across barriers: []
// ---- int_semantics
fn body() {
    let i: usize = t.grid1();
    if (i >= a.len()) {
        return;
    }
    let (x, y): (i32, i32) = (a.get(i), b.get(i));
    let d: i32 = (if ((y != 0i32) && (!((x == i32::MIN) && (y == (-1i32))))) {
        ((x / y)).wrapping_add((x % y))
    } else {
        0i32
    });
    out.set((6usize).wrapping_mul(i), (<i32>::wrapping_mul(x, y)).wrapping_add(x));
    out.set(
        ((6usize).wrapping_mul(i)).wrapping_add(1usize),
        ((x).wrapping_shl(((y & 63i32)) as u32)
            ^ (x).wrapping_shr(((((y) as u32) % 40u32)) as u32)),
    );
    out.set(((6usize).wrapping_mul(i)).wrapping_add(2usize), d);
    out.set(
        ((6usize).wrapping_mul(i)).wrapping_add(3usize),
        (<i32>::wrapping_abs(<i32>::min(x, y))).wrapping_sub(<i32>::max(x, y)),
    );
    out.set(
        ((6usize).wrapping_mul(i)).wrapping_add(4usize),
        ((x).wrapping_neg()).wrapping_add((!y)),
    );
    out.set(((6usize).wrapping_mul(i)).wrapping_add(5usize), ((f.get(i)) as i32));
    out8.set(
        i,
        (<u8>::wrapping_mul(((x) as u8), ((y) as u8))).wrapping_shr((1i32) as u32),
    );
    outf.set(
        i,
        ((((f.get(i) * 10000000000f32)) as i64))
            .wrapping_add(((((f.get(i)) as u16)) as i64)),
    );
}
// local i: varying
// local x: varying
// local y: varying
// local d: varying
// live across barriers: []
// ---- transcendental
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        let v: f32 = x.get(i);
        out.set((8usize).wrapping_mul(i), <f32 as ::rumba::kernel::math::Real>::exp(v));
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(1usize),
            <f32 as ::rumba::kernel::math::Real>::ln(<f32>::abs(v)),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(2usize),
            <f32 as ::rumba::kernel::math::Real>::sin(v),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(3usize),
            <f32 as ::rumba::kernel::math::Real>::cos(v),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(4usize),
            <f32 as ::rumba::kernel::math::Real>::powf(<f32>::abs(v), 0.37f32),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(5usize),
            <f32 as ::rumba::kernel::math::Real>::powi(v, 3i32),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(6usize),
            (((<f32>::sqrt(v) + <f32>::floor(v)) + <f32>::ceil(v)) + <f32>::round(v)),
        );
        out.set(
            ((8usize).wrapping_mul(i)).wrapping_add(7usize),
            <f32>::mul_add(v, 2.5f32, (-1f32)),
        );
    }
}
// local i: varying
// local v: varying
// live across barriers: []
// ---- complex_ops
fn body() {
    let s: ::rumba::kernel::Complex<f32> = *s;
    let i: usize = t.grid1();
    if (i >= a.len()) {
        return;
    }
    let (x, y): (::rumba::kernel::Complex<f64>, ::rumba::kernel::Complex<f64>) = (
        a.get(i),
        b.get(i),
    );
    out.set((4usize).wrapping_mul(i), (x + y));
    out.set(((4usize).wrapping_mul(i)).wrapping_add(1usize), (x - y));
    out.set(((4usize).wrapping_mul(i)).wrapping_add(2usize), (x * y));
    out.set(((4usize).wrapping_mul(i)).wrapping_add(3usize), (x / y));
    let z: ::rumba::kernel::Complex<f32> = <::rumba::kernel::Complex<
        f32,
    >>::new(
        ((::rumba::kernel::__macro::ty::<f64>((x).re)) as f32),
        ((::rumba::kernel::__macro::ty::<f64>((x).im)) as f32),
    );
    out32.set((2usize).wrapping_mul(i), ((-z) * s));
    let mut w: ::rumba::kernel::Complex<f32> = (z / s);
    w = (w - <::rumba::kernel::Complex<f32>>::new(1.5f32, (-0.25f32)));
    out32.set(((2usize).wrapping_mul(i)).wrapping_add(1usize), w);
    flags
        .set(
            i,
            (((((x == y)) as u8))
                .wrapping_add((2u8).wrapping_mul((((x != (-x))) as u8))))
                .wrapping_add(
                    (4u8)
                        .wrapping_mul(
                            (((::rumba::kernel::__macro::ty::<f64>((y).im) > 0f64))
                                as u8),
                        ),
                ),
        );
}
// local s: uniform
// local i: varying
// local x: varying
// local y: varying
// local z: varying
// local w: varying
// live across barriers: []
// ---- complex_local_shared
fn body() {
    let i: usize = t.grid1();
    let tid: usize = (((t.thread_idx()).x) as usize);
    let l = t.local_array::<::rumba::kernel::Complex<f64>>((2usize, 5usize));
    let sh = t.shared_array::<::rumba::kernel::Complex<f64>>(64usize);
    for k in (0usize)..(5usize) {
        l.set(
            (0usize, k),
            <::rumba::kernel::Complex<f64>>::new(((i) as f64), ((k) as f64)),
        );
    }
    sh.set(tid, <::rumba::kernel::Complex<f64>>::new(0.5f64, ((i) as f64)));
    let w: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
        f64,
    >>::new(1f64, (-((tid) as f64)));
    t.syncthreads();
    let mut acc: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
        f64,
    >>::new(0f64, 0f64);
    for k in (0usize)..(5usize) {
        l.set(
            (1usize, k),
            (l.get((0usize, k)) * <::rumba::kernel::Complex<f64>>::new(0f64, 1f64)),
        );
        acc = (acc + l.get((1usize, k)));
    }
    o.set(
        i,
        ((acc * w)
            + sh.get(((tid).wrapping_add(1usize) % (((t.block_dim()).x) as usize)))),
    );
}
// local i: varying
// local tid: varying
// local k: uniform
// local w: varying
// local acc: varying
// local k_2: uniform
// barrier Plain at #9: uniform control
// live across barriers: [i, tid, w]
// ---- out_of_bounds
fn body() {
    let i: usize = t.grid1();
    a.set(i, ((i) as i32));
}
// local i: varying
// live across barriers: []
// ---- divide
fn body() {
    let i: usize = t.grid1();
    b.set(i, (100i32 / a.get(i)));
}
// local i: varying
// live across barriers: []
