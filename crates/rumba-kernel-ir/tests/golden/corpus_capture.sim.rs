// ---- read_global
fn body() {
    return v;
}
// local v: uniform
// live across barriers: []
// ---- double_global_value
fn body() {
    return (v * 2f32);
}
// local v: uniform
// live across barriers: []
// ---- add_globals
fn body() {
    return (a + b);
}
// local a: uniform
// local b: uniform
// live across barriers: []
// ---- capture_basic
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output
            .set(
                i,
                ::rumba::kernel::__macro::ty::<
                    f32,
                >(read_global(__rumba_cap_BASIC.get(i))),
            );
    }
}
// local i: varying
// live across barriers: []
// ---- capture_computation
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output
            .set(
                i,
                ::rumba::kernel::__macro::ty::<
                    f32,
                >(double_global_value(__rumba_cap_COMPUTE.get(i))),
            );
    }
}
// local i: varying
// live across barriers: []
// ---- capture_write
fn body() {
    let i: usize = t.grid1();
    if (i < 5usize) {
        __rumba_cap_MUTABLE.set(i, (((i).wrapping_add(1usize)) as f32));
    }
}
// local i: varying
// live across barriers: []
// ---- capture_multiple
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output
            .set(
                i,
                ::rumba::kernel::__macro::ty::<
                    f32,
                >(add_globals(__rumba_cap_ARR_A.get(i), __rumba_cap_ARR_B.get(i))),
            );
    }
}
// local i: varying
// live across barriers: []
// ---- capture_2d
fn body() {
    let i: usize = t.grid1();
    if (i < 6usize) {
        let (row, col): (usize, usize) = ((i / 2usize), (i % 2usize));
        output.set(i, __rumba_cap_ARR_2D.get((row, col)));
    }
}
// local i: varying
// local row: varying
// local col: varying
// live across barriers: []
// ---- capture_i32
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output.set(i, __rumba_cap_INTS.get(i));
    }
}
// local i: varying
// live across barriers: []
// ---- capture_f64
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output.set(i, __rumba_cap_DOUBLES.get(i));
    }
}
// local i: varying
// live across barriers: []
// ---- capture_direct
fn body() {
    let i: usize = t.grid1();
    if (i < output.len()) {
        output.set(i, (__rumba_cap_DIRECT.get(i) + 1f32));
    }
}
// local i: varying
// live across barriers: []
// ---- capture_scalar
fn body() {
    output.set(0usize, (__rumba_cap_SCALAR_CELL.get(0usize) * 2f32));
}
// live across barriers: []
// ---- capture_keep
fn body() {
    let add: u32 = *add;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (__rumba_cap_KEEP.get(i)).wrapping_add(add));
    }
}
// local add: uniform
// local i: varying
// live across barriers: []
// ---- capture_snapshot
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, __rumba_cap_SNAP.get(i));
    }
}
// local i: varying
// live across barriers: []
// ---- reads_empty
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, __rumba_cap_NEVER_SET.get(i));
    }
}
// local i: varying
// live across barriers: []
// ---- reads_ranked
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, __rumba_cap_RANKED.get((i, 0usize)));
    }
}
// local i: varying
// live across barriers: []
// ---- capture_count
fn body() {
    let i: usize = t.grid1();
    if (i < keys.len()) {
        __rumba_cap_SHARED_COUNTS.atomic_add(((keys.get(i)) as usize), 1u32);
    }
}
// local i: varying
// live across barriers: []
// ---- capture_double_counts
fn body() {
    let i: usize = t.grid1();
    if (i < __rumba_cap_SHARED_COUNTS.len()) {
        {
            let __rumba_i = i;
            let __rumba_v: u32 = 2u32;
            __rumba_cap_SHARED_COUNTS
                .set(
                    __rumba_i,
                    (__rumba_cap_SHARED_COUNTS.get(__rumba_i)).wrapping_mul(__rumba_v),
                );
        }
    }
}
// local i: varying
// live across barriers: []
// ---- capture_reshaped
fn body() {
    let m = __rumba_cap_GRID.reshape((2usize, 3usize));
    let i: usize = t.grid1();
    if (i < 6usize) {
        out.set(i, m.get(((i % 2usize), (i / 2usize))));
    }
}
// local i: varying
// live across barriers: []
