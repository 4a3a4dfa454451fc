// ---- add2f
fn body() {
    return (a + b);
}
// local a: uniform
// local b: uniform
// live across barriers: []
// ---- indirect
fn body() {
    return ::rumba::kernel::__macro::ty::<f32>(add2f(a, b));
}
// local a: uniform
// local b: uniform
// live across barriers: []
// ---- use_add2f
fn body() {
    let i: usize = t.grid1();
    if (i < ary.len()) {
        ary.set(i, ::rumba::kernel::__macro::ty::<f32>(add2f(ary.get(i), ary.get(i))));
        ind.set(
            i,
            ::rumba::kernel::__macro::ty::<f32>(indirect(ind.get(i), ind.get(i))),
        );
    }
}
// local i: varying
// live across barriers: []
// ---- rowsum
fn body() {
    let m = ::rumba::kernel::__macro::ArrIn::into_view(m);
    let mut s: f32 = 0f32;
    for c in (0usize)..(m.shape()[1]) {
        s = (s + m.get((r, c)));
    }
    return s;
}
// local r: uniform
// local s: varying
// local c: uniform
// live across barriers: []
// ---- put_pair
fn body() {
    let out = ::rumba::kernel::__macro::ArrIn::into_view(out);
    if (i < out.len()) {
        out.set(i, v);
    }
    if ((i).wrapping_add(1usize) < out.len()) {
        out.set((i).wrapping_add(1usize), (v).wrapping_add(1i32));
    }
}
// local i: uniform
// local v: uniform
// live across barriers: []
// ---- row_sums_dev
fn body() {
    let i: usize = t.grid1();
    if ((i < m.shape()[0]) && (m.shape()[1] > 0usize)) {
        sums.set(
            i,
            ::rumba::kernel::__macro::ty::<
                f32,
            >(rowsum(::rumba::kernel::__macro::ro(&m), i)),
        );
        put_pair(
            ::rumba::kernel::__macro::rw(&pairs),
            (2usize).wrapping_mul(i),
            (((i) as i32)).wrapping_mul(10i32),
        );
    }
}
// local i: varying
// live across barriers: []
// ---- sum_first<T = i8>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: i8 = ((0i32) as i8);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = u8>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: u8 = ((0i32) as u8);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = i16>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: i16 = ((0i32) as i16);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = u16>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: u16 = ((0i32) as u16);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = i32>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: i32 = ((0i32) as i32);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = u32>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: u32 = ((0i32) as u32);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = i64>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: i64 = ((0i32) as i64);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = u64>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: u64 = ((0i32) as u64);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = isize>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: isize = ((0i32) as isize);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = usize>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: usize = ((0i32) as usize);
    for k in (0usize)..(n) {
        s = (s).wrapping_add(a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = f32>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: f32 = ((0i32) as f32);
    for k in (0usize)..(n) {
        s = (s + a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- sum_first<T = f64>
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut s: f64 = ((0i32) as f64);
    for k in (0usize)..(n) {
        s = (s + a.get(k));
    }
    return s;
}
// local n: uniform
// local s: varying
// local k: uniform
// live across barriers: []
// ---- one_helper_every_space
fn body() {
    let s = t.shared_array::<i64>(8usize);
    let l = t.local_array::<i64>(4usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    if (tid < 8usize) {
        s.set(tid, (((tid) as i64)).wrapping_mul(100i64));
    }
    for k in (0usize)..(4usize) {
        l.set(k, (((k).wrapping_add(tid)) as i64));
    }
    t.syncthreads();
    if (tid == 0usize) {
        out.set(
            0usize,
            ::rumba::kernel::__macro::ty::<
                i64,
            >(sum_first(::rumba::kernel::__macro::ro(&g), g.len())),
        );
        out.set(
            1usize,
            ::rumba::kernel::__macro::ty::<
                i64,
            >(sum_first(::rumba::kernel::__macro::rw(&s), 8usize)),
        );
        out.set(
            2usize,
            ::rumba::kernel::__macro::ty::<
                i64,
            >(sum_first(::rumba::kernel::__macro::rw(&l), 4usize)),
        );
        out.set(
            3usize,
            ::rumba::kernel::__macro::ty::<
                i64,
            >(sum_first(::rumba::kernel::__macro::ro(&c), c.len())),
        );
        out.set(
            4usize,
            ::rumba::kernel::__macro::ty::<
                i64,
            >(sum_first(::rumba::kernel::__macro::rw(&out), 4usize)),
        );
    }
}
// local tid: varying
// local k: uniform
// barrier Plain at #8: uniform control
// live across barriers: [tid]
// ---- bump
fn body() {
    let h = ::rumba::kernel::__macro::ArrIn::into_view(h);
    h.atomic_add((k % h.len()), 1u32);
}
// local k: uniform
// live across barriers: []
// ---- histogram_dev
fn body() {
    let sh = t.shared_array::<u32>(4usize);
    let tid: usize = (((t.thread_idx()).x) as usize);
    if (tid < 4usize) {
        sh.set(tid, 0u32);
    }
    t.syncthreads();
    let i: usize = t.grid1();
    if (i < x.len()) {
        bump(::rumba::kernel::__macro::rw(&sh), ((x.get(i)) as usize));
    }
    t.syncthreads();
    if (tid < 4usize) {
        for _i in (0u32)..(sh.get(tid)) {
            bump(::rumba::kernel::__macro::rw(&hist), tid);
        }
    }
}
// local tid: varying
// local i: varying
// local _i: varying
// barrier Plain at #5: uniform control
// barrier Plain at #9: uniform control
// live across barriers: [tid]
// ---- min_max
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let mut lo: f64 = a.get(0usize);
    let mut hi: f64 = a.get(0usize);
    for k in (1usize)..(n) {
        lo = <f64>::min(lo, a.get(k));
        hi = <f64>::max(hi, a.get(k));
    }
    return (lo, hi);
}
// local n: uniform
// local lo: varying
// local hi: varying
// local k: uniform
// live across barriers: []
// ---- dot2
fn body() {
    return (((p).0 * (q).0) + ((p).1 * (q).1));
}
// local p: uniform
// local q: uniform
// live across barriers: []
// ---- spread
fn body() {
    let a = ::rumba::kernel::__macro::ArrIn::into_view(a);
    let m = a.reshape((2usize, (a.len() / 2usize)));
    let r = m.index_axis(0usize, 1usize);
    let (lo, hi): (f64, f64) = ::rumba::kernel::__macro::ty::<
        (f64, f64),
    >(min_max(::rumba::kernel::__macro::ro(&r), r.len()));
    return (hi - lo);
}
// local lo: varying
// local hi: varying
// live across barriers: []
// ---- tuples_dev
fn body() {
    if (t.grid1() == 0usize) {
        let (lo, hi): (f64, f64) = ::rumba::kernel::__macro::ty::<
            (f64, f64),
        >(min_max(::rumba::kernel::__macro::ro(&a), a.len()));
        out.set(0usize, lo);
        out.set(1usize, hi);
        let p: (f64, f64) = (lo, hi);
        out.set(2usize, ::rumba::kernel::__macro::ty::<f64>(dot2(p, (2f64, 0.5f64))));
        let r: (f64, f64) = ::rumba::kernel::__macro::ty::<
            (f64, f64),
        >(min_max(::rumba::kernel::__macro::ro(&a), 2usize));
        out.set(3usize, ((r).0 + (r).1));
        out.set(
            4usize,
            ::rumba::kernel::__macro::ty::<f64>(spread(::rumba::kernel::__macro::ro(&a))),
        );
    }
}
// local lo: varying
// local hi: varying
// local p: varying
// local r: varying
// live across barriers: []
// ---- lookup
fn body() {
    let table = ::rumba::kernel::__macro::ArrIn::into_view(table);
    return table.get((i % table.len()));
}
// local i: uniform
// live across barriers: []
// ---- scale_by_table
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        {
            let __rumba_i = i;
            let __rumba_v: f32 = ::rumba::kernel::__macro::ty::<
                f32,
            >(lookup(::rumba::kernel::__macro::ro(&__rumba_cap_SCALES), i));
            x.set(__rumba_i, (x.get(__rumba_i) * __rumba_v));
        }
    }
}
// local i: varying
// live across barriers: []
