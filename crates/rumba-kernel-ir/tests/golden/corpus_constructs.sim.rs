// ---- lerp
fn body() {
    return (::rumba::kernel::__macro::ty::<f32>((p).lo)
        + ((::rumba::kernel::__macro::ty::<f32>((p).hi)
            - ::rumba::kernel::__macro::ty::<f32>((p).lo)) * w));
}
// local p: uniform
// local w: uniform
// live across barriers: []
// ---- flat_id
fn body() {
    let d: ::rumba::kernel::Dim3 = t.block_dim();
    let i: ::rumba::kernel::Dim3 = t.thread_idx();
    return ((((i).x)
        .wrapping_add(
            ((d).x).wrapping_mul(((i).y).wrapping_add(((d).y).wrapping_mul((i).z))),
        )) as usize);
}
// local d: uniform
// local i: varying
// live across barriers: []
// ---- literals_and_consts
fn body() {
    let i: usize = t.grid1();
    let int: i32 = 3i32;
    let x: f32 = ((-2.5f32) * ::rumba::kernel::__macro::ty::<f32>(SCALE));
    out.set(0usize, f64::INFINITY);
    out.set(1usize, f64::NAN);
    out.set(2usize, (-0f64));
    out.set(
        3usize,
        0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001f64,
    );
    out.set(4usize, (((x) as f64) + ((int) as f64)));
    bits.set(0usize, (4294967295u32 & ::rumba::kernel::__macro::ty::<u32>(MASK)));
    bits.set(1usize, ((!0u32)).wrapping_shr((4i32) as u32));
    wide.set(0usize, i64::MIN);
    wide.set(
        1usize,
        (::rumba::kernel::__macro::ty::<i64>(BIAS)).wrapping_mul(((N) as i64)),
    );
    wide.set(2usize, (((i) as i64)).wrapping_neg());
}
// local i: varying
// local int_: uniform
// local x: uniform
// live across barriers: []
// ---- operators
fn body() {
    let i: usize = t.grid1();
    let mut v: i16 = a.get(i);
    v = (v).wrapping_add(3i16);
    v = (v).wrapping_sub(a.get(0usize));
    v = (v).wrapping_mul(2i16);
    v = (v / 7i16);
    v = (v % 5i16);
    v = (v).wrapping_shl((2i32) as u32);
    v = (v).wrapping_shr((1i32) as u32);
    v = (v & 127i16);
    v = (v | 1i16);
    v = (v ^ (-1i16));
    a.set(i, (v).wrapping_neg());
    {
        let __rumba_i = i;
        let __rumba_v: u64 = 1u64;
        b.set(__rumba_i, (b.get(__rumba_i)).wrapping_add(__rumba_v));
    }
    {
        let __rumba_i = i;
        let __rumba_v: u8 = 3u8;
        b.set(__rumba_i, (b.get(__rumba_i)).wrapping_shl((__rumba_v) as u32));
    }
    {
        let __rumba_i = i;
        let __rumba_v: f32 = 2f32;
        f.set(__rumba_i, (f.get(__rumba_i) % __rumba_v));
    }
    f.set(i, ((-f.get(i)) / 3f32));
    let yes: bool = ((v > 0i16) && ((b.get(i) != 0u64) || (!(f.get(i) >= 1f32))));
    flags.set(i, ((yes) as u8));
}
// local i: varying
// local v: varying
// local yes: varying
// live across barriers: []
// ---- casts_and_math
fn body() {
    let i: usize = t.grid1();
    let v: f64 = x.get(i);
    out.set((4usize).wrapping_mul(i), ((v) as i32));
    out.set(
        ((4usize).wrapping_mul(i)).wrapping_add(1usize),
        ((((((v) as f32)) as u8)) as i32),
    );
    out.set(
        ((4usize).wrapping_mul(i)).wrapping_add(2usize),
        ((<i64>::wrapping_mul(((v) as i64), 3i64)) as i32),
    );
    out.set(
        ((4usize).wrapping_mul(i)).wrapping_add(3usize),
        <i32>::wrapping_abs(
            <i32>::min(<i32>::max(((<f64>::is_nan(v)) as i32), (-7i32)), 9i32),
        ),
    );
    g.set(
        i,
        <f64>::abs(
            <f64>::sqrt(
                <f64>::mul_add(
                    <f64>::round(
                        <f64>::ceil(
                            <f64>::floor(
                                <f64 as ::rumba::kernel::math::Real>::powi(
                                    <f64 as ::rumba::kernel::math::Real>::powf(
                                        <f64 as ::rumba::kernel::math::Real>::cos(
                                            <f64 as ::rumba::kernel::math::Real>::sin(
                                                <f64 as ::rumba::kernel::math::Real>::ln(
                                                    <f64 as ::rumba::kernel::math::Real>::exp(
                                                        <f64 as ::rumba::kernel::math::Real>::tan(v),
                                                    ),
                                                ),
                                            ),
                                        ),
                                        2f64,
                                    ),
                                    (-2i32),
                                ),
                            ),
                        ),
                    ),
                    v,
                    v,
                ),
            ),
        ),
    );
    g.set((i).wrapping_add(1usize), (<f64>::max(v, 0f64) + <f64>::min(v, 1f64)));
    let w: i32 = <i32>::wrapping_neg(
        <i32>::wrapping_sub(<i32>::wrapping_add(5i32, out.get(0usize)), 1i32),
    );
    out.set(0usize, w);
}
// local i: varying
// local v: varying
// local w: varying
// live across barriers: []
// ---- control
fn body() {
    let i: usize = t.grid1();
    if (i >= out.len()) {
        return;
    }
    let mut acc: u32 = 0u32;
    let mut k: u32 = 0u32;
    while (k < 10u32) {
        k = (k).wrapping_add(1u32);
        if (k == 3u32) {
            continue;
        }
        acc = (acc).wrapping_add(k);
    }
    loop {
        acc = (acc).wrapping_sub(1u32);
        if (acc < 40u32) {
            break;
        }
    }
    for j in ((2u32)..=(20u32)).step_by(4usize) {
        acc = (acc ^ j);
    }
    for _i in (0i32)..(2i32) {
        acc = (acc).wrapping_add(1u32);
    }
    let mut __rumba_t5: u32;
    {
        let doubled: u32 = (acc).wrapping_mul(2u32);
        __rumba_t5 = (doubled).wrapping_add(1u32);
    }
    let acc: u32 = __rumba_t5;
    let parity: u32 = (if ((acc % 2u32) == 0u32) {
        0u32
    } else {
        (if ((acc % 3u32) == 0u32) { 1u32 } else { 2u32 })
    });
    if !((parity < 3u32)) {
        ::core::panic!("{}", "assertion failed: `assert!(parity < 3)` at line 144:5")
    }
    out.set(i, (acc).wrapping_add(parity));
}
// local i: varying
// local acc: varying
// local k: varying
// local j: varying
// local _i: varying
// local rb_t5: varying
// local doubled: varying
// local acc_2: varying
// local parity: varying
// live across barriers: []
// ---- memory
fn body() {
    let p: Pair = *p;
    let (x, y, z): (usize, usize, usize) = t.grid3();
    let tile = t.shared_array::<f32>((N, N));
    let dynamic = t.dynamic_shared::<u32>();
    let scratch = t.local_array::<f32>((2usize, 3usize));
    let tid: usize = ::rumba::kernel::__macro::ty::<usize>(flat_id(t));
    tile.set(
        (
            (tid % ::rumba::kernel::__macro::ty::<usize>(N)),
            ((tid / ::rumba::kernel::__macro::ty::<usize>(N))
                % ::rumba::kernel::__macro::ty::<usize>(N)),
        ),
        c.get((tid % c.len())),
    );
    dynamic.set(tid, ((tid) as u32));
    scratch.set((1usize, 2usize), ::rumba::kernel::__macro::ty::<f32>(lerp(p, 0.25f32)));
    t.syncthreads();
    let n: i32 = t.syncthreads_count(((dynamic.get(tid) % 2u32) == 0u32));
    let all: i32 = t.syncthreads_and((tid < 1000usize));
    let any: i32 = t.syncthreads_or(((tid) as i32));
    t.threadfence();
    t.threadfence_block();
    t.threadfence_system();
    if (((x < cube.shape()[2]) && (y < cube.shape()[1])) && (z < cube.shape()[0])) {
        cube.set(
            (z, y, x),
            (tile.get(((tid % ::rumba::kernel::__macro::ty::<usize>(N)), 0usize))
                + scratch.get((1usize, 2usize))),
        );
    }
    counts
        .set(
            0usize,
            (((((n).wrapping_add(all)).wrapping_add(any))
                .wrapping_add(((t.warp_size()) as i32)))
                .wrapping_add(((t.lane_id()) as i32)))
                .wrapping_add(((dynamic.len()) as i32)),
        );
    counts
        .set(
            1usize,
            (((((cube.size()).wrapping_add(t.gridsize1()))
                .wrapping_add((((t.block_idx()).y) as usize)))
                .wrapping_add((((t.grid_dim()).z) as usize))) as i32),
        );
}
// local p: uniform
// local x: varying
// local y: varying
// local z: varying
// local tid: varying
// local n: uniform
// local all: uniform
// local any: uniform
// barrier Plain at #9: uniform control
// barrier Count at #10: uniform control
// barrier And at #11: uniform control
// barrier Or at #12: uniform control
// live across barriers: [x, y, z, tid, n, all]
// ---- atomics_all
fn body() {
    let i: u32 = ((t.grid1()) as u32);
    let sh = t.shared_array::<i32>(4usize);
    g.atomic_add(0usize, i);
    g.atomic_sub(1usize, i);
    g.atomic_min(2usize, i);
    g.atomic_max(3usize, i);
    g.atomic_and(4usize, i);
    g.atomic_or(5usize, i);
    g.atomic_xor(6usize, i);
    g.atomic_exch(7usize, i);
    g.atomic_cas(8usize, 0u32, i);
    g.atomic_inc(9usize, 16u32);
    g.atomic_dec(10usize, 16u32);
    g.atomic_nanmax(11usize, i);
    g.atomic_nanmin(12usize, i);
    s64.atomic_add(0usize, (-1i64));
    s64.atomic_max(1usize, ((i) as i64));
    f.atomic_add(0usize, 1.5f32);
    f.atomic_min(1usize, 0.5f32);
    f.atomic_exch(2usize, 2f32);
    f.atomic_cas(3usize, 0f32, 1f32);
    f.atomic_nanmax(4usize, ((i) as f32));
    f.atomic_nanmin(5usize, (-((i) as f32)));
    sh.atomic_add(0usize, 1i32);
    sh.atomic_nanmax(1usize, ((i) as i32));
}
// local i: varying
// live across barriers: []
