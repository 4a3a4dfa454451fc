// ---- reshape_runtime
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    let (r, c): (usize, usize) = (out.shape()[0], out.shape()[1]);
    let m = a.reshape((r, c));
    if ((y < r) && (x < c)) {
        out.set((y, x), (m.get((y, x)) * 2f32));
    }
}
// local x: varying
// local y: varying
// local r: uniform
// local c: uniform
// live across barriers: []
// ---- reshape_write
fn body() {
    let m = a
        .reshape((
            ::rumba::kernel::__macro::ty::<usize>(ROWS),
            ::rumba::kernel::__macro::ty::<usize>(COLS),
        ));
    let i: usize = t.grid1();
    if (i
        < (::rumba::kernel::__macro::ty::<usize>(ROWS))
            .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(COLS)))
    {
        m.set(
            (
                (i / ::rumba::kernel::__macro::ty::<usize>(COLS)),
                (i % ::rumba::kernel::__macro::ty::<usize>(COLS)),
            ),
            (((i) as i32)).wrapping_mul(10i32),
        );
    }
}
// local i: varying
// live across barriers: []
// ---- reshape_chain
fn body() {
    let i: usize = t.grid1();
    let a2 = a.reshape((a.shape()[0], a.shape()[1]));
    let f = a2.reshape(a2.size());
    let cube = f.reshape((2usize, 3usize, (f.len() / 6usize)));
    if (i < f.len()) {
        flat.set(i, f.get(i));
    }
    if (i == 0usize) {
        sizes.set(0usize, cube.shape()[2]);
        sizes.set(1usize, cube.size());
        sizes.set(2usize, ((cube.get((1usize, 2usize, 0usize))) as usize));
    }
}
// local i: varying
// live across barriers: []
// ---- view_bits
fn body() {
    let w = x.view::<u32>();
    let i: usize = t.grid1();
    if (i < w.len()) {
        bits.set(i, w.get(i));
    }
}
// local i: varying
// live across barriers: []
// ---- view_bytes
fn body() {
    let b = x.view::<u8>();
    let i: usize = t.grid1();
    if (i < x.len()) {
        b.set(((4usize).wrapping_mul(i)).wrapping_add(1usize), 171u8);
    }
    if (i == 0usize) {
        lens.set(0usize, b.len());
    }
}
// local i: varying
// live across barriers: []
// ---- view_wider
fn body() {
    let m = x.reshape((2usize, 4usize));
    let w = m.view::<u16>();
    let i: usize = t.grid1();
    if (i < 4usize) {
        out.set(i, w.get(((i / 2usize), (i % 2usize))));
    }
}
// local i: varying
// live across barriers: []
// ---- view_bool
fn body() {
    let b = raw.view::<::rumba::kernel::DeviceBool>();
    let i: usize = t.grid1();
    if (i < b.len()) {
        out.set(i, ((::rumba::kernel::DeviceBool::get(b.get(i))) as u32));
    }
}
// local i: varying
// live across barriers: []
// ---- row_sums
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        let r = m.index_axis(0usize, i);
        let mut s: f64 = 0f64;
        for j in (0usize)..(r.len()) {
            s = (s + r.get(j));
        }
        out.set(i, s);
    }
}
// local i: varying
// local s: varying
// local j: varying
// live across barriers: []
// ---- columns
fn body() {
    let k: usize = *k;
    let c = m.index_axis(1usize, k);
    let i: usize = t.grid1();
    if (i < c.len()) {
        col.set(i, c.get(i));
    }
    let plane = cube.index_axis(0usize, 1usize);
    let line = plane.index_axis(0usize, 0usize);
    if (i < line.len()) {
        line.set(i, (((i) as i32)).wrapping_add(100i32));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- shared_tile
fn body() {
    let s = t.shared_array::<f32>(64usize);
    let tile = s.reshape((8usize, 8usize));
    let c = t.shared_array::<u32>((2usize, 2usize));
    let flat = c.reshape(4usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    if (tid < 4usize) {
        flat.set(tid, 0u32);
    }
    tile.set(((tid / 8usize), (tid % 8usize)), ((tid) as f32));
    t.syncthreads();
    flat.atomic_add((tid % 4usize), 1u32);
    out.set(
        tid,
        s.get((((tid % 8usize)).wrapping_mul(8usize)).wrapping_add((tid / 8usize))),
    );
    t.syncthreads();
    if (tid < 4usize) {
        counts.set(tid, c.get(((tid / 2usize), (tid % 2usize))));
    }
}
// local tid: varying
// barrier Plain at #9: uniform control
// barrier Plain at #12: uniform control
// live across barriers: [tid]
// ---- local_bytes
fn body() {
    let l = t.local_array::<u32>(2usize);
    let i: usize = t.grid1();
    l.set(0usize, 67305985u32);
    l.set(1usize, ((i) as u32));
    let b = l.view::<u8>();
    for k in (0usize)..(8usize) {
        out.set((i, k), b.get(k));
    }
}
// local i: varying
// local k: uniform
// live across barriers: []
// ---- bad_reshape
fn body() {
    let n: usize = *n;
    let m = a.reshape((n, 3usize));
    if (t.grid1() == 0usize) {
        out.set(0usize, m.get((0usize, 0usize)));
    }
}
// local n: uniform
// live across barriers: []
// ---- bad_row
fn body() {
    let k: usize = *k;
    let r = m.index_axis(0usize, k);
    if (t.grid1() == 0usize) {
        out.set(0usize, r.get(0usize));
    }
}
// local k: uniform
// live across barriers: []
// ---- bad_view
fn body() {
    let w = x.view::<u32>();
    if (t.grid1() == 0usize) {
        out.set(0usize, ((w.len()) as u32));
    }
}
// live across barriers: []
