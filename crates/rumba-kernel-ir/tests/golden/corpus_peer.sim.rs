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
// ---- transpose
fn body() {
    let tile = t.shared_array::<f32>((TILE, TILE_PAD));
    let (tx, ty): (usize, usize) = (
        (((t.thread_idx()).x) as usize),
        (((t.thread_idx()).y) as usize),
    );
    let bx: usize = ((((t.block_idx()).x) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
    let by: usize = ((((t.block_idx()).y) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(TILE));
    let rows: usize = a.shape()[0];
    let cols: usize = a.shape()[1];
    if (((by).wrapping_add(ty) < rows) && ((bx).wrapping_add(tx) < cols)) {
        tile.set((ty, tx), a.get(((by).wrapping_add(ty), (bx).wrapping_add(tx))));
    }
    t.syncthreads();
    if (((bx).wrapping_add(ty) < cols) && ((by).wrapping_add(tx) < rows)) {
        b.set(((bx).wrapping_add(ty), (by).wrapping_add(tx)), tile.get((tx, ty)));
    }
}
// local tx: varying
// local ty: varying
// local bx: uniform
// local by: uniform
// local rows: uniform
// local cols: uniform
// barrier Plain at #9: uniform control
// live across barriers: [tx, ty, bx, by, rows, cols]
// ---- stencil5
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    let rows: usize = u.shape()[0];
    let cols: usize = u.shape()[1];
    if ((y < rows) && (x < cols)) {
        if ((((y == 0usize) || (x == 0usize)) || ((y).wrapping_add(1usize) == rows))
            || ((x).wrapping_add(1usize) == cols))
        {
            v.set((y, x), u.get((y, x)));
        } else {
            let s: f32 = ((((u.get((y, x)) + u.get(((y).wrapping_sub(1usize), x)))
                + u.get(((y).wrapping_add(1usize), x)))
                + u.get((y, (x).wrapping_sub(1usize))))
                + u.get((y, (x).wrapping_add(1usize))));
            v.set((y, x), (0.2f32 * s));
        }
    }
}
// local x: varying
// local y: varying
// local rows: uniform
// local cols: uniform
// local s: varying
// live across barriers: []
// ---- histogram
fn body() {
    let h = t.shared_array::<u32>(BINS);
    let tid: usize = (((t.thread_idx()).x) as usize);
    h.set(tid, 0u32);
    t.syncthreads();
    let start: usize = ((((t.block_idx()).x) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK));
    let end: usize = (if ((start)
        .wrapping_add(::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK)) < data.len())
    {
        (start).wrapping_add(::rumba::kernel::__macro::ty::<usize>(HIST_CHUNK))
    } else {
        data.len()
    });
    let mut i: usize = (start).wrapping_add(tid);
    while (i < end) {
        h.atomic_add(((data.get(i)) as usize), 1u32);
        i = (i).wrapping_add(::rumba::kernel::__macro::ty::<usize>(BINS));
    }
    t.syncthreads();
    if (h.get(tid) != 0u32) {
        bins.atomic_add(tid, h.get(tid));
    }
}
// local tid: varying
// local start: uniform
// local end: uniform
// local i: varying
// barrier Plain at #4: uniform control
// barrier Plain at #11: uniform control
// live across barriers: [tid]
// ---- scan_blocks
fn body() {
    let s = t.shared_array::<u32>(SCAN_THREADS);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let base: usize = (((((t.block_idx()).x) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SCAN_TILE)))
        .wrapping_add(
            (tid).wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SCAN_PER_THREAD)),
        );
    let n: usize = x.len();
    let mut total: u32 = 0u32;
    for k in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SCAN_PER_THREAD)) {
        if ((base).wrapping_add(k) < n) {
            total = (total).wrapping_add(x.get((base).wrapping_add(k)));
        }
    }
    s.set(tid, total);
    t.syncthreads();
    let mut d: usize = 1usize;
    while (d < ::rumba::kernel::__macro::ty::<usize>(SCAN_THREADS)) {
        let left: u32 = (if (tid >= d) { s.get((tid).wrapping_sub(d)) } else { 0u32 });
        t.syncthreads();
        {
            let __rumba_i = tid;
            let __rumba_v: u32 = left;
            s.set(__rumba_i, (s.get(__rumba_i)).wrapping_add(__rumba_v));
        }
        t.syncthreads();
        d = (d).wrapping_mul(2usize);
    }
    let mut run: u32 = (s.get(tid)).wrapping_sub(total);
    for k in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SCAN_PER_THREAD)) {
        if ((base).wrapping_add(k) < n) {
            let v: u32 = x.get((base).wrapping_add(k));
            y.set((base).wrapping_add(k), run);
            run = (run).wrapping_add(v);
        }
    }
    if (tid
        == (::rumba::kernel::__macro::ty::<usize>(SCAN_THREADS)).wrapping_sub(1usize))
    {
        sums.set((((t.block_idx()).x) as usize), s.get(tid));
    }
}
// local tid: varying
// local base: varying
// local n: uniform
// local total: varying
// local k: uniform
// local d: uniform
// local left: varying
// local run: varying
// local k_2: uniform
// local v: varying
// barrier Plain at #10: uniform control
// barrier Plain at #14: uniform control
// barrier Plain at #16: uniform control
// live across barriers: [tid, base, n, total, d, left]
// ---- scan_add
fn body() {
    let i: usize = t.grid1();
    if (i < y.len()) {
        {
            let __rumba_i = i;
            let __rumba_v: u32 = offsets
                .get((i / ::rumba::kernel::__macro::ty::<usize>(SCAN_TILE)));
            y.set(__rumba_i, (y.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
}
// local i: varying
// live across barriers: []
// ---- nbody
fn body() {
    let dt: f32 = *dt;
    let sp = t.shared_array::<f32>((NBODY_TILE, 4usize));
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    let n: usize = pos.shape()[0];
    let mut px: f32 = 0f32;
    let mut py: f32 = 0f32;
    let mut pz: f32 = 0f32;
    if (i < n) {
        px = pos.get((i, 0usize));
        py = pos.get((i, 1usize));
        pz = pos.get((i, 2usize));
    }
    let mut ax: f32 = 0f32;
    let mut ay: f32 = 0f32;
    let mut az: f32 = 0f32;
    for tile in (0usize)..((((t.grid_dim()).x) as usize)) {
        let j: usize = ((tile)
            .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(NBODY_TILE)))
            .wrapping_add(tid);
        for c in (0usize)..(4usize) {
            sp.set((tid, c), (if (j < n) { pos.get((j, c)) } else { 0f32 }));
        }
        t.syncthreads();
        for k in (0usize)..(::rumba::kernel::__macro::ty::<usize>(NBODY_TILE)) {
            let dx: f32 = (sp.get((k, 0usize)) - px);
            let dy: f32 = (sp.get((k, 1usize)) - py);
            let dz: f32 = (sp.get((k, 2usize)) - pz);
            let d2: f32 = ((((dx * dx) + (dy * dy)) + (dz * dz))
                + ::rumba::kernel::__macro::ty::<f32>(SOFTENING2));
            let inv: f32 = (1f32 / <f32>::sqrt(d2));
            let f: f32 = (sp.get((k, 3usize)) * ((inv * inv) * inv));
            ax = (ax + (dx * f));
            ay = (ay + (dy * f));
            az = (az + (dz * f));
        }
        t.syncthreads();
    }
    if (i < n) {
        let vx: f32 = (vel.get((i, 0usize)) + (ax * dt));
        let vy: f32 = (vel.get((i, 1usize)) + (ay * dt));
        let vz: f32 = (vel.get((i, 2usize)) + (az * dt));
        vel_out.set((i, 0usize), vx);
        vel_out.set((i, 1usize), vy);
        vel_out.set((i, 2usize), vz);
        vel_out.set((i, 3usize), 0f32);
        pos_out.set((i, 0usize), (px + (vx * dt)));
        pos_out.set((i, 1usize), (py + (vy * dt)));
        pos_out.set((i, 2usize), (pz + (vz * dt)));
        pos_out.set((i, 3usize), pos.get((i, 3usize)));
    }
}
// local dt: uniform
// local tid: varying
// local i: varying
// local n: uniform
// local px: varying
// local py: varying
// local pz: varying
// local ax: varying
// local ay: varying
// local az: varying
// local tile: uniform
// local j: varying
// local c: uniform
// local k: uniform
// local dx: varying
// local dy: varying
// local dz: varying
// local d2: varying
// local inv: varying
// local f: varying
// local vx: varying
// local vy: varying
// local vz: varying
// barrier Plain at #19: uniform control
// barrier Plain at #30: uniform control
// live across barriers: [tid, i, n, px, py, pz, ax, ay, az, tile]
// ---- sgemm
fn body() {
    let alpha: f32 = *alpha;
    let beta: f32 = *beta;
    let sa = t.shared_array::<f32>((SG_TILE, SG_DEPTH));
    let sb = t.shared_array::<f32>((SG_DEPTH, SG_TILE));
    let acc = t.local_array::<f32>((SG_WORK, SG_WORK));
    let tx: usize = (((t.thread_idx()).x) as usize);
    let ty: usize = (((t.thread_idx()).y) as usize);
    let tid: usize = ((ty)
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_THREADS)))
        .wrapping_add(tx);
    let row0: usize = ((((t.block_idx()).y) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_TILE));
    let col0: usize = ((((t.block_idx()).x) as usize))
        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_TILE));
    let n: usize = c.shape()[0];
    for r in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
        for q in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
            acc.set((r, q), 0f32);
        }
    }
    let mut k0: usize = 0usize;
    while (k0 < n) {
        for l in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
            let e: usize = (tid)
                .wrapping_add(
                    ((l).wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_THREADS)))
                        .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(SG_THREADS)),
                );
            let (ar, ak): (usize, usize) = (
                (e / ::rumba::kernel::__macro::ty::<usize>(SG_DEPTH)),
                (e % ::rumba::kernel::__macro::ty::<usize>(SG_DEPTH)),
            );
            sa.set(
                (ar, ak),
                (if (((row0).wrapping_add(ar) < n) && ((k0).wrapping_add(ak) < n)) {
                    a.get(((row0).wrapping_add(ar), (k0).wrapping_add(ak)))
                } else {
                    0f32
                }),
            );
            let (bk, bc): (usize, usize) = (
                (e / ::rumba::kernel::__macro::ty::<usize>(SG_TILE)),
                (e % ::rumba::kernel::__macro::ty::<usize>(SG_TILE)),
            );
            sb.set(
                (bk, bc),
                (if (((k0).wrapping_add(bk) < n) && ((col0).wrapping_add(bc) < n)) {
                    b.get(((k0).wrapping_add(bk), (col0).wrapping_add(bc)))
                } else {
                    0f32
                }),
            );
        }
        t.syncthreads();
        for k in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_DEPTH)) {
            for r in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
                let av: f32 = sa
                    .get((
                        (ty)
                            .wrapping_add(
                                (r)
                                    .wrapping_mul(
                                        ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                    ),
                            ),
                        k,
                    ));
                for q in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
                    {
                        let __rumba_i = (r, q);
                        let __rumba_v: f32 = (av
                            * sb
                                .get((
                                    k,
                                    (tx)
                                        .wrapping_add(
                                            (q)
                                                .wrapping_mul(
                                                    ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                                                ),
                                        ),
                                )));
                        acc.set(__rumba_i, (acc.get(__rumba_i) + __rumba_v));
                    }
                }
            }
        }
        t.syncthreads();
        k0 = (k0).wrapping_add(::rumba::kernel::__macro::ty::<usize>(SG_DEPTH));
    }
    for r in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
        for q in (0usize)..(::rumba::kernel::__macro::ty::<usize>(SG_WORK)) {
            let (i, j): (usize, usize) = (
                ((row0).wrapping_add(ty))
                    .wrapping_add(
                        (r)
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                            ),
                    ),
                ((col0).wrapping_add(tx))
                    .wrapping_add(
                        (q)
                            .wrapping_mul(
                                ::rumba::kernel::__macro::ty::<usize>(SG_THREADS),
                            ),
                    ),
            );
            if ((i < n) && (j < n)) {
                c.set((i, j), ((alpha * acc.get((r, q))) + (beta * c.get((i, j)))));
            }
        }
    }
}
// local alpha: uniform
// local beta: uniform
// local tx: varying
// local ty: varying
// local tid: varying
// local row0: uniform
// local col0: uniform
// local n: uniform
// local r: uniform
// local q: uniform
// local k0: uniform
// local l: uniform
// local e: varying
// local ar: varying
// local ak: varying
// local bk: varying
// local bc: varying
// local k: uniform
// local r_2: uniform
// local av: varying
// local q_2: uniform
// local r_3: uniform
// local q_3: uniform
// local i: varying
// local j: varying
// barrier Plain at #21: uniform control
// barrier Plain at #27: uniform control
// live across barriers: [tx, ty, tid, row0, col0, n, k0]
// ---- empty
fn body() {}
// live across barriers: []
