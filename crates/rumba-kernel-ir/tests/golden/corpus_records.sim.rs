// ---- set_a
fn body() {
    let i: usize = *i;
    let v: f64 = *v;
    if (t.grid1() == 0usize) {
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.a).set(i, v);
    }
}
// local i: uniform
// local v: uniform
// live across barriers: []
// ---- set_b
fn body() {
    let i: usize = *i;
    let v: i32 = *v;
    if (t.grid1() == 0usize) {
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.b).set(i, v);
    }
}
// local i: uniform
// local v: uniform
// live across barriers: []
// ---- set_record
fn body() {
    let i: usize = *i;
    let j: usize = *j;
    if (t.grid1() == 0usize) {
        ary.set(i, ary.get(j));
    }
}
// local i: uniform
// local j: uniform
// live across barriers: []
// ---- fields_per_thread
fn body() {
    let i: usize = t.grid1();
    let k: usize = (i / 3usize);
    if (k < ary.len()) {
        if ((i % 3usize) == 0usize) {
            ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.a)
                .set(k, 0.1);
        } else {
            if ((i % 3usize) == 1usize) {
                ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.b)
                    .set(k, (-3));
            } else {
                {
                    let __rumba_f = ::rumba::kernel::__macro::field_view(
                        &ary,
                        |__rumba_r| &__rumba_r.c,
                    );
                    let __rumba_i = k;
                    let __rumba_v: u32 = ((k) as u32);
                    __rumba_f
                        .set(
                            __rumba_i,
                            (__rumba_f.get(__rumba_i)).wrapping_add(__rumba_v),
                        );
                }
            }
        }
    }
}
// local i: varying
// local k: varying
// live across barriers: []
// ---- bumped
fn body() {
    let mut out: Rec = r;
    out.b = (::rumba::kernel::__macro::ty::<i32>((r).b)).wrapping_add(by);
    return out;
}
// local r: uniform
// local by: uniform
// local out: uniform
// live across barriers: []
// ---- records_as_values
fn body() {
    let v: f64 = *v;
    if (t.grid1() == 0usize) {
        let mut r: Rec = Rec { a: 1.5, b: 7, c: 9 };
        r.a = v;
        out.set(0usize, r);
        out.set(1usize, ::rumba::kernel::__macro::ty::<Rec>(bumped(r, 100i32)));
        out.set(2usize, Rec { c: 2, b: (-1), a: (-2.5) });
        let s: Rec = out.get(1usize);
        got.set(0usize, ::rumba::kernel::__macro::ty::<f64>((s).a));
    }
}
// local v: uniform
// local r: varying
// local s: varying
// live across barriers: []
// ---- record_write_array
fn body() {
    if (t.grid1() == 0usize) {
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.g)
            .set(0usize, 2);
        ::rumba::kernel::__macro::subarray_view(&ary, |__rumba_r| &__rumba_r.h)
            .set((0usize, 0usize), 3.0);
        ::rumba::kernel::__macro::subarray_view(&ary, |__rumba_r| &__rumba_r.h)
            .set((0usize, 1usize), 4.0);
    }
}
// live across barriers: []
// ---- record_read_array
fn body() {
    if (t.grid1() == 0usize) {
        out.set(
            0usize,
            ::rumba::kernel::__macro::ty::<f32>((ary.get(0usize)).h[0usize]),
        );
        out.set(
            1usize,
            ::rumba::kernel::__macro::ty::<f32>((ary.get(0usize)).h[1usize]),
        );
        let mut r: WithArray = ary.get(0usize);
        r.h[1usize] = (::rumba::kernel::__macro::ty::<f32>((r).h[0usize]) * 10f32);
        out.set(2usize, ::rumba::kernel::__macro::ty::<f32>((r).h[1usize]));
    }
}
// local r: varying
// live across barriers: []
// ---- sub_index_oob
fn body() {
    let k: usize = *k;
    if (t.grid1() == 0usize) {
        ::rumba::kernel::__macro::subarray_view(&ary, |__rumba_r| &__rumba_r.h)
            .set((0usize, k), 1.0);
    }
}
// local k: uniform
// live across barriers: []
// ---- set_charseq
fn body() {
    let i: usize = *i;
    if (t.grid1() == 0usize) {
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.n)
            .set(i, ::rumba::kernel::__macro::bytes(b"abc"));
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.m).set(i, 5);
        ::rumba::kernel::__macro::field_view(&ary, |__rumba_r| &__rumba_r.n)
            .set((i).wrapping_add(1usize), ::rumba::kernel::__macro::bytes(b"wxyz"));
        ::rumba::kernel::__macro::subarray_view(&ary, |__rumba_r| &__rumba_r.n)
            .set(((i).wrapping_add(1usize), 0usize), 86);
    }
}
// local i: uniform
// live across barriers: []
// ---- get_charseq
fn body() {
    let k: usize = t.grid1();
    if (k < 4usize) {
        out.set(k, ::rumba::kernel::__macro::ty::<u8>((ary.get(0usize)).n[k]));
    }
}
// local k: varying
// live across barriers: []
// ---- shared_records
fn body() {
    let s = t.shared_array::<Rec>(8usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    if (tid < 8usize) {
        s.set(tid, Rec { a: 0.0, b: 0, c: 0 });
        ::rumba::kernel::__macro::field_view(&s, |__rumba_r| &__rumba_r.b)
            .set(tid, ((tid) as i32));
        ::rumba::kernel::__macro::field_view(&s, |__rumba_r| &__rumba_r.a).set(tid, 0.5);
    }
    t.syncthreads();
    if (tid < 8usize) {
        out.set(tid, s.get((7usize).wrapping_sub(tid)));
    }
}
// local tid: varying
// barrier Plain at #7: uniform control
// live across barriers: [tid]
