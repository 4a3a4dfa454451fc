// ---- lane_loops
fn body() {
    let m: usize = *m;
    let wrap: usize = *wrap;
    let span: usize = *span;
    let skip: u32 = *skip;
    let n: usize = ((((t.block_dim()).x).wrapping_mul((t.block_dim()).y)) as usize);
    let lin: usize = (((((t.thread_idx()).y) as usize))
        .wrapping_mul((((t.block_dim()).x) as usize)))
        .wrapping_add((((t.thread_idx()).x) as usize));
    let s = t.shared_array::<f32>(64usize);
    let mut j: usize = lin;
    while (j < 64usize) {
        s.set(j, x.get(j));
        j = (j).wrapping_add(n);
    }
    t.syncthreads();
    let mut a: f32 = x.get((64usize).wrapping_add((lin % 16usize)));
    let mut b: i32 = (((lin) as i32)).wrapping_sub(7i32);
    let mut odd: bool = ((lin % 2usize) == 1usize);
    let mut c: f32 = 0f32;
    if (((lin) as u32) == skip) {
        return;
    }
    t.syncwarp(4294967295u32);
    let last: usize = <usize>::wrapping_sub(m, 1usize);
    for k in (0usize)..(m) {
        let v: f32 = ((s.get((k % wrap)) * 0.5f32)
            + x.get(((k).wrapping_mul(3usize) % span)));
        let w: f32 = (if odd { v } else { (-v) });
        a = <f32>::mul_add(a, 0.75f32, w);
        b = ((<i32>::wrapping_mul(b, 3i32)).wrapping_add((((k) as i32) / 3i32)))
            .wrapping_sub((b).wrapping_shr((2i32) as u32));
        odd = (((b & 4i32) != 0i32) || (a < 0f32));
        a = ((a + (((last) as f32) * 0.001f32))
            + (<f32>::sqrt(((k) as f32)) / (1f32 + <f32>::abs(a))));
    }
    t.syncwarp(4294967295u32);
    let stride: usize = ((m / 4usize)).wrapping_add(1usize);
    for k in ((1usize)..=(m)).step_by(stride) {
        c = (c
            + ((x.get((k % 64usize)) * a)
                - (<f32 as ::rumba::kernel::math::Real>::ln_1p(((k) as f32))
                    * ((b) as f32))));
    }
    t.syncwarp(4294967295u32);
    let rows: usize = (stride).wrapping_mul(2usize);
    for k in (0usize)..(rows) {
        c = (c + s.get(((k).wrapping_add(lin) % 64usize)));
    }
    t.syncwarp(4294967295u32);
    let base: usize = ((((t.block_idx()).x) as usize)).wrapping_mul(n);
    out.set((3usize).wrapping_mul((base).wrapping_add(lin)), a);
    out.set(
        ((3usize).wrapping_mul((base).wrapping_add(lin))).wrapping_add(1usize),
        ((b) as f32),
    );
    out.set(((3usize).wrapping_mul((base).wrapping_add(lin))).wrapping_add(2usize), c);
}
// local m: uniform
// local wrap: uniform
// local span: uniform
// local skip: uniform
// local n: uniform
// local lin: varying
// local j: varying
// local a: varying
// local b: varying
// local odd: varying
// local c: varying
// local last: varying
// local k: varying
// local v: varying
// local w: varying
// local stride: varying
// local k_2: varying
// local rows: varying
// local k_3: varying
// local base: varying
// barrier Plain at #8: uniform control
// live across barriers: [n, lin]
// ---- lane_loop_beside_fault
fn body() {
    let m: usize = *m;
    let d: i32 = *d;
    let lin: usize = (((t.thread_idx()).x) as usize);
    let mut a: f32 = x.get((lin % 64usize));
    t.syncwarp(4294967295u32);
    let q: i32 = (7i32 / (((lin) as i32)).wrapping_sub(d));
    for k in (0usize)..(m) {
        a = (a + x.get((k % 64usize)));
    }
    t.syncwarp(4294967295u32);
    if (((lin) as i32) == d) {
        return;
    }
    t.syncwarp(4294967295u32);
    out.set(lin, (a + ((q) as f32)));
}
// local m: uniform
// local d: uniform
// local lin: varying
// local a: varying
// local q: varying
// local k: uniform
// live across barriers: []
// ---- local_lengths
fn body() {
    let m: usize = *m;
    let lin: usize = (((t.thread_idx()).x) as usize);
    let loc = t.local_array::<f32>(4usize);
    loc.set((lin % 4usize), 1.5f32);
    let span: usize = loc.len();
    t.syncthreads();
    let mut a: f32 = (x.get((lin % 64usize)) + loc.get((lin % 4usize)));
    for k in (0usize)..(m) {
        a = (a + (x.get((k % 64usize)) + (((span).wrapping_add(loc.len())) as f32)));
    }
    out.set(lin, a);
}
// local m: uniform
// local lin: varying
// local span: uniform
// local a: varying
// local k: uniform
// barrier Plain at #5: uniform control
// live across barriers: [lin, span]
