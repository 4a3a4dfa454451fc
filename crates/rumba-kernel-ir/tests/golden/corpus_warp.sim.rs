// ---- warp_mix
fn body() {
    let mask: u32 = *mask;
    let arg: u32 = *arg;
    let i: usize = t.grid1();
    let v: f32 = x.get(i);
    let a: f32 = t.shfl_sync(mask, v, arg);
    let b: f32 = t.shfl_up_sync(mask, v, arg);
    let c: f32 = t.shfl_down_sync(mask, (v * 2f32), arg);
    let d: f32 = t.shfl_xor_sync(mask, v, arg);
    f.set((4usize).wrapping_mul(i), a);
    f.set(((4usize).wrapping_mul(i)).wrapping_add(1usize), b);
    f.set(((4usize).wrapping_mul(i)).wrapping_add(2usize), c);
    f.set(((4usize).wrapping_mul(i)).wrapping_add(3usize), d);
    u.set((4usize).wrapping_mul(i), t.ballot_sync(mask, p.get(i)));
    u.set(
        ((4usize).wrapping_mul(i)).wrapping_add(1usize),
        ((t.all_sync(mask, (p.get(i) != 0i32))) as u32),
    );
    u.set(
        ((4usize).wrapping_mul(i)).wrapping_add(2usize),
        ((t.any_sync(mask, (p.get(i) > 1i32))) as u32),
    );
    u.set(((4usize).wrapping_mul(i)).wrapping_add(3usize), t.activemask());
}
// local mask: uniform
// local arg: uniform
// local i: varying
// local v: varying
// local a: varying
// local b: varying
// local c: varying
// local d: varying
// live across barriers: []
// ---- warp_after_return
fn body() {
    let gone: u32 = *gone;
    let src: u32 = *src;
    let i: usize = t.grid1();
    if (t.lane_id() == gone) {
        return;
    }
    let v: i64 = t.shfl_sync(4294967295u32, (((i).wrapping_mul(3usize)) as i64), src);
    let b: u32 = t.ballot_sync(4294967295u32, true);
    let m: u32 = t.activemask();
    t.syncwarp(4294967295u32);
    out.set(
        i,
        ((v).wrapping_add((((b) as i64)).wrapping_shl((32i32) as u32)))
            .wrapping_add(((m) as i64)),
    );
}
// local gone: uniform
// local src: uniform
// local i: varying
// local v: varying
// local b: varying
// local m: varying
// live across barriers: []
// ---- warp_sum_u64
fn body() {
    let levels: u32 = *levels;
    let i: usize = t.grid1();
    let mut v: u64 = (if (i < x.len()) { x.get(i) } else { 0u64 });
    for k in (0u32)..(levels) {
        v = <u64>::wrapping_add(
            v,
            t.shfl_xor_sync(4294967295u32, v, (1u32).wrapping_shl((k) as u32)),
        );
    }
    t.syncthreads();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local levels: uniform
// local i: varying
// local v: varying
// local k: uniform
// barrier Plain at #5: uniform control
// live across barriers: [i, v]
// ---- warp_early_break
fn body() {
    let i: usize = t.grid1();
    let mut v: f32 = x.get(i);
    for d in (0u32)..(5u32) {
        if (v > 100f32) {
            break;
        }
        v = (v + t.shfl_xor_sync(4294967295u32, v, (1u32).wrapping_shl((d) as u32)));
    }
    out.set(i, v);
}
// local i: varying
// local v: varying
// local d: varying
// live across barriers: []
// ---- warp_own_mask
fn body() {
    let i: usize = t.grid1();
    let m: u32 = t.activemask();
    out.set(i, t.ballot_sync(m, ((i % 2usize) == 0usize)));
}
// local i: varying
// local m: varying
// live across barriers: []
// ---- narrowed_lanes
fn body() {
    let k: u32 = *k;
    let n: usize = ((((t.block_dim()).x).wrapping_mul((t.block_dim()).y)) as usize);
    let lin: usize = (((((t.thread_idx()).y) as usize))
        .wrapping_mul((((t.block_dim()).x) as usize)))
        .wrapping_add((((t.thread_idx()).x) as usize));
    let lane: u32 = t.lane_id();
    let s = t.shared_array::<i64>(96usize);
    s.set(lin, 0i64);
    t.syncthreads();
    if (t.lane_id() == 0u32) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 1i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if (3u32 == t.lane_id()) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 2i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if (lane == k) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 4i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if (((t.lane_id()) as usize) == 31usize) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 8i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if (((lin % 3usize) == 1usize) && (lane == 7u32)) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 16i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if (lane == (k).wrapping_add(32u32)) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 32i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    if ((hits.atomic_add(0usize, 1u32) < 1000000u32) && (lane == 2u32)) {
        {
            let __rumba_i = lin;
            let __rumba_v: i64 = 64i64;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
    t.syncthreads();
    out.set(
        (((((t.block_idx()).x) as usize)).wrapping_mul(n)).wrapping_add(lin),
        s.get(lin),
    );
}
// local k: uniform
// local n: uniform
// local lin: varying
// local lane: varying
// barrier Plain at #6: uniform control
// barrier Plain at #9: uniform control
// barrier Plain at #12: uniform control
// barrier Plain at #15: uniform control
// barrier Plain at #18: uniform control
// barrier Plain at #21: uniform control
// barrier Plain at #24: uniform control
// barrier Plain at #27: uniform control
// live across barriers: [n, lin, lane]
