// ---- vadd
fn body() {
    let i: usize = t.grid1();
    if (i < c.len()) {
        c.set(i, (a.get(i) + b.get(i)));
    }
}
// local i: varying
// live across barriers: []
// ---- matmul_shared
fn body() {
    let sa = t.shared_array::<f32>((TPB, TPB));
    let sb = t.shared_array::<f32>((TPB, TPB));
    let (x, y): (usize, usize) = t.grid2();
    let (tx, ty): (usize, usize) = (
        (((t.thread_idx()).x) as usize),
        (((t.thread_idx()).y) as usize),
    );
    let n: usize = c.shape()[0];
    let mut acc: f32 = 0f32;
    for tile in (0usize)..((((t.grid_dim()).x) as usize)) {
        sa.set(
            (ty, tx),
            (if ((y < n)
                && ((tx)
                    .wrapping_add(
                        (tile).wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                    ) < n))
            {
                a.get((
                    y,
                    (tx)
                        .wrapping_add(
                            (tile)
                                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                        ),
                ))
            } else {
                0f32
            }),
        );
        sb.set(
            (ty, tx),
            (if ((x < n)
                && ((ty)
                    .wrapping_add(
                        (tile).wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                    ) < n))
            {
                b.get((
                    (ty)
                        .wrapping_add(
                            (tile)
                                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TPB)),
                        ),
                    x,
                ))
            } else {
                0f32
            }),
        );
        t.syncthreads();
        for j in (0usize)..(::rumba::kernel::__macro::ty::<usize>(TPB)) {
            acc = (acc + (sa.get((ty, j)) * sb.get((j, tx))));
        }
        t.syncthreads();
    }
    if ((y < n) && (x < n)) {
        c.set((y, x), acc);
    }
}
// local x: varying
// local y: varying
// local tx: varying
// local ty: varying
// local n: uniform
// local acc: varying
// local tile: uniform
// local j: uniform
// barrier Plain at #10: uniform control
// barrier Plain at #13: uniform control
// live across barriers: [x, y, tx, ty, n, acc, tile]
// ---- reduce_shared
fn body() {
    let s = t.shared_array::<f32>(256usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { 0f32 }));
    t.syncthreads();
    let mut stride: usize = 128usize;
    while (stride > 0usize) {
        if (tid < stride) {
            {
                let __rumba_i = tid;
                let __rumba_v: f32 = s.get((tid).wrapping_add(stride));
                s.set(__rumba_i, (s.get(__rumba_i) + __rumba_v));
            }
        }
        t.syncthreads();
        stride = (stride / 2usize);
    }
    if (tid == 0usize) {
        partial.set((((t.block_idx()).x) as usize), s.get(0usize));
    }
}
// local tid: varying
// local i: varying
// local stride: uniform
// barrier Plain at #5: uniform control
// barrier Plain at #10: uniform control
// live across barriers: [tid, stride]
// ---- reduce_warp
fn body() {
    let s = t.shared_array::<f32>(32usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    let mut v: f32 = (if (i < x.len()) { x.get(i) } else { 0f32 });
    let mut d: u32 = 16u32;
    while (d > 0u32) {
        v = (v + t.shfl_down_sync(4294967295u32, v, d));
        d = (d).wrapping_shr((1i32) as u32);
    }
    if (t.lane_id() == 0u32) {
        s.set((tid / 32usize), v);
    }
    t.syncthreads();
    if (tid == 0usize) {
        let mut sum: f32 = 0f32;
        for w in (0usize)..(((((t.block_dim()).x) as usize) / 32usize)) {
            sum = (sum + s.get(w));
        }
        partial.set((((t.block_idx()).x) as usize), sum);
    }
}
// local tid: varying
// local i: varying
// local v: varying
// local d: uniform
// local sum: varying
// local w: varying
// barrier Plain at #11: uniform control
// live across barriers: [tid]
// ---- empty
fn body() {}
// live across barriers: []
