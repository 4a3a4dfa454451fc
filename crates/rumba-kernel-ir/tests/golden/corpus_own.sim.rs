// ---- own2_index
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    if ((y < v.shape()[0]) && (x < v.shape()[1])) {
        v.set((y, x), ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32));
    }
}
// local x: varying
// local y: varying
// live across barriers: []
// ---- own2_past_the_edge
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    if ((y < v.shape()[0]) && (x <= v.shape()[1])) {
        v.set((y, x), ((((y).wrapping_mul(1000usize)).wrapping_add(x)) as u32));
    }
}
// local x: varying
// local y: varying
// live across barriers: []
// ---- own_accumulate
fn body() {
    let limit: usize = *limit;
    let i: usize = t.grid1();
    if (i < limit) {
        {
            let __rumba_i = i;
            let __rumba_v: u32 = offsets.get((i / 4usize));
            y.set(__rumba_i, (y.get(__rumba_i)).wrapping_add(__rumba_v));
        }
        {
            let __rumba_i = i;
            let __rumba_v: u32 = 85u32;
            y.set(__rumba_i, (y.get(__rumba_i) ^ __rumba_v));
        }
    }
    t.syncthreads();
    if (i < limit) {
        let old: u32 = y.get(i);
        y.set(i, (<u32>::wrapping_mul(old, 3u32)).wrapping_add(1u32));
        y.set(i, <u32>::wrapping_sub(y.get(i), 7u32));
    }
}
// local limit: uniform
// local i: varying
// local old: varying
// barrier Plain at #5: uniform control
// live across barriers: [i]
// ---- own2_update
fn body() {
    let (x, y): (usize, usize) = t.grid2();
    let (rows, cols): (usize, usize) = (v.shape()[0], v.shape()[1]);
    if ((y < rows) && (x < cols)) {
        {
            let __rumba_i = (y, x);
            let __rumba_v: f32 = 2f32;
            v.set(__rumba_i, (v.get(__rumba_i) * __rumba_v));
        }
        if ((((y > 0usize) && (x > 0usize)) && ((y).wrapping_add(1usize) < rows))
            && ((x).wrapping_add(1usize) < cols))
        {
            {
                let __rumba_i = (y, x);
                let __rumba_v: f32 = ((u.get(((y).wrapping_sub(1usize), x))
                    + u.get(((y).wrapping_add(1usize), x)))
                    - u.get((y, (x).wrapping_sub(1usize))));
                v.set(__rumba_i, (v.get(__rumba_i) + __rumba_v));
            }
        } else {
            let old: f32 = v.get((y, x));
            v.set((y, x), (old - u.get((y, x))));
        }
    }
}
// local x: varying
// local y: varying
// local rows: uniform
// local cols: uniform
// local old: varying
// live across barriers: []
// ---- neighbour_read
fn body() {
    let i: usize = t.grid1();
    let mut n: i32 = 0i32;
    if ((i ^ 1usize) < y.len()) {
        n = y.get((i ^ 1usize));
    }
    t.syncthreads();
    if (i < y.len()) {
        {
            let __rumba_i = i;
            let __rumba_v: i32 = (n & 255i32);
            y.set(__rumba_i, (y.get(__rumba_i)).wrapping_add(__rumba_v));
        }
    }
}
// local i: varying
// local n: varying
// barrier Plain at #5: uniform control
// live across barriers: [i, n]
