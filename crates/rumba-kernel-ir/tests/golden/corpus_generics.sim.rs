// ---- axpy<T = f32>
fn body() {
    let a: f32 = *a;
    let i: usize = t.grid1();
    if (i < y.len()) {
        y.set(i, ((a * x.get(i)) + y.get(i)));
    }
}
// local a: uniform
// local i: varying
// live across barriers: []
// ---- axpy<T = f64>
fn body() {
    let a: f64 = *a;
    let i: usize = t.grid1();
    if (i < y.len()) {
        y.set(i, ((a * x.get(i)) + y.get(i)));
    }
}
// local a: uniform
// local i: varying
// live across barriers: []
// ---- axpy_f32
fn body() {
    let a: f32 = *a;
    let i: usize = t.grid1();
    if (i < y.len()) {
        y.set(i, ((a * x.get(i)) + y.get(i)));
    }
}
// local a: uniform
// local i: varying
// live across barriers: []
// ---- axpy_f64
fn body() {
    let a: f64 = *a;
    let i: usize = t.grid1();
    if (i < y.len()) {
        y.set(i, ((a * x.get(i)) + y.get(i)));
    }
}
// local a: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = i8>
fn body() {
    let v: i8 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = u8>
fn body() {
    let v: u8 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = i16>
fn body() {
    let v: i16 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = u16>
fn body() {
    let v: u16 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = i32>
fn body() {
    let v: i32 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = u32>
fn body() {
    let v: u32 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = i64>
fn body() {
    let v: i64 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = u64>
fn body() {
    let v: u64 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = isize>
fn body() {
    let v: isize = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = usize>
fn body() {
    let v: usize = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = f32>
fn body() {
    let v: f32 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- fill<T = f64>
fn body() {
    let v: f64 = *v;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local v: uniform
// local i: varying
// live across barriers: []
// ---- convert_to<T = i8>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as i8));
    }
    if (i == 0usize) {
        top.set(0usize, 127i8);
        top.set(1usize, i8::MIN);
        top.set(2usize, (((1i32) as i8)).wrapping_add(((2i32) as i8)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = u8>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as u8));
    }
    if (i == 0usize) {
        top.set(0usize, 255u8);
        top.set(1usize, 0u8);
        top.set(2usize, (((1i32) as u8)).wrapping_add(((2i32) as u8)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = i16>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as i16));
    }
    if (i == 0usize) {
        top.set(0usize, 32767i16);
        top.set(1usize, i16::MIN);
        top.set(2usize, (((1i32) as i16)).wrapping_add(((2i32) as i16)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = u16>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as u16));
    }
    if (i == 0usize) {
        top.set(0usize, 65535u16);
        top.set(1usize, 0u16);
        top.set(2usize, (((1i32) as u16)).wrapping_add(((2i32) as u16)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = i32>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as i32));
    }
    if (i == 0usize) {
        top.set(0usize, 2147483647i32);
        top.set(1usize, i32::MIN);
        top.set(2usize, (((1i32) as i32)).wrapping_add(((2i32) as i32)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = u32>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as u32));
    }
    if (i == 0usize) {
        top.set(0usize, 4294967295u32);
        top.set(1usize, 0u32);
        top.set(2usize, (((1i32) as u32)).wrapping_add(((2i32) as u32)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = i64>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as i64));
    }
    if (i == 0usize) {
        top.set(0usize, 9223372036854775807i64);
        top.set(1usize, i64::MIN);
        top.set(2usize, (((1i32) as i64)).wrapping_add(((2i32) as i64)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = u64>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as u64));
    }
    if (i == 0usize) {
        top.set(0usize, 18446744073709551615u64);
        top.set(1usize, 0u64);
        top.set(2usize, (((1i32) as u64)).wrapping_add(((2i32) as u64)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = isize>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as isize));
    }
    if (i == 0usize) {
        top.set(0usize, 9223372036854775807isize);
        top.set(1usize, isize::MIN);
        top.set(2usize, (((1i32) as isize)).wrapping_add(((2i32) as isize)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = usize>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as usize));
    }
    if (i == 0usize) {
        top.set(0usize, 18446744073709551615usize);
        top.set(1usize, 0usize);
        top.set(2usize, (((1i32) as usize)).wrapping_add(((2i32) as usize)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = f32>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as f32));
    }
    if (i == 0usize) {
        top.set(0usize, 340282350000000000000000000000000000000f32);
        top.set(1usize, (-340282350000000000000000000000000000000f32));
        top.set(2usize, (((1i32) as f32) + ((2i32) as f32)));
    }
}
// local i: varying
// live across barriers: []
// ---- convert_to<T = f64>
fn body() {
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, ((x.get(i)) as f64));
    }
    if (i == 0usize) {
        top.set(
            0usize,
            179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f64,
        );
        top.set(
            1usize,
            (-179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f64),
        );
        top.set(2usize, (((1i32) as f64) + ((2i32) as f64)));
    }
}
// local i: varying
// live across barriers: []
// ---- clamp<T = i8>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = u8>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = i16>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = u16>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = i32>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = u32>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = i64>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = u64>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = isize>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = usize>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = f32>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- clamp<T = f64>
fn body() {
    return (if (x < lo) { lo } else { (if (x > hi) { hi } else { x }) });
}
// local x: uniform
// local lo: uniform
// local hi: uniform
// live across barriers: []
// ---- twice<T = f32>
fn body() {
    return ::rumba::kernel::__macro::ty::<
        f32,
    >(
        clamp(
            (x + x),
            (-340282350000000000000000000000000000000f32),
            340282350000000000000000000000000000000f32,
        ),
    );
}
// local x: uniform
// live across barriers: []
// ---- twice<T = f64>
fn body() {
    return ::rumba::kernel::__macro::ty::<
        f64,
    >(
        clamp(
            (x + x),
            (-179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f64),
            179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f64,
        ),
    );
}
// local x: uniform
// live across barriers: []
// ---- clamp_all<T = i8>
fn body() {
    let lo: i8 = *lo;
    let hi: i8 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<i8>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = u8>
fn body() {
    let lo: u8 = *lo;
    let hi: u8 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<u8>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = i16>
fn body() {
    let lo: i16 = *lo;
    let hi: i16 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<i16>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = u16>
fn body() {
    let lo: u16 = *lo;
    let hi: u16 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<u16>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = i32>
fn body() {
    let lo: i32 = *lo;
    let hi: i32 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<i32>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = u32>
fn body() {
    let lo: u32 = *lo;
    let hi: u32 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<u32>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = i64>
fn body() {
    let lo: i64 = *lo;
    let hi: i64 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<i64>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = u64>
fn body() {
    let lo: u64 = *lo;
    let hi: u64 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<u64>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = isize>
fn body() {
    let lo: isize = *lo;
    let hi: isize = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<isize>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = usize>
fn body() {
    let lo: usize = *lo;
    let hi: usize = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<usize>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = f32>
fn body() {
    let lo: f32 = *lo;
    let hi: f32 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<f32>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_all<T = f64>
fn body() {
    let lo: f64 = *lo;
    let hi: f64 = *hi;
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<f64>(clamp(a.get(i), lo, hi)));
    }
}
// local lo: uniform
// local hi: uniform
// local i: varying
// live across barriers: []
// ---- clamp_mixed
fn body() {
    let i: usize = t.grid1();
    if (i < a.len()) {
        a.set(i, ::rumba::kernel::__macro::ty::<i32>(clamp(a.get(i), (-5i32), 5i32)));
        let c: f64 = ::rumba::kernel::__macro::ty::<
            f64,
        >(clamp(f.get(i), (-1.5f64), 1.5f64));
        f.set(i, ::rumba::kernel::__macro::ty::<f64>(twice(c)));
    }
}
// local i: varying
// local c: varying
// live across barriers: []
// ---- block_sum<T = i8>
fn body() {
    let s = t.shared_array::<i8>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as i8) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = u8>
fn body() {
    let s = t.shared_array::<u8>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as u8) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = i16>
fn body() {
    let s = t.shared_array::<i16>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as i16) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = u16>
fn body() {
    let s = t.shared_array::<u16>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as u16) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = i32>
fn body() {
    let s = t.shared_array::<i32>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as i32) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = u32>
fn body() {
    let s = t.shared_array::<u32>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as u32) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = i64>
fn body() {
    let s = t.shared_array::<i64>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as i64) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = u64>
fn body() {
    let s = t.shared_array::<u64>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as u64) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = isize>
fn body() {
    let s = t.shared_array::<isize>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as isize) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = usize>
fn body() {
    let s = t.shared_array::<usize>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as usize) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid)).wrapping_add(s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = f32>
fn body() {
    let s = t.shared_array::<f32>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as f32) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid) + s.get((tid).wrapping_add(stride))));
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
// ---- block_sum<T = f64>
fn body() {
    let s = t.shared_array::<f64>(TPB);
    let tid: usize = (((t.thread_idx()).x) as usize);
    let i: usize = t.grid1();
    s.set(tid, (if (i < x.len()) { x.get(i) } else { ((0i32) as f64) }));
    t.syncthreads();
    let mut stride: usize = (::rumba::kernel::__macro::ty::<usize>(TPB) / 2usize);
    while (stride > 0usize) {
        if (tid < stride) {
            s.set(tid, (s.get(tid) + s.get((tid).wrapping_add(stride))));
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
// ---- scale_into<T = i8, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i8, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u8, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u8, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i16, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i16, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u16, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u16, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i32, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i32, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u32, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u32, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i64, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = i64, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u64, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = u64, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = isize, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = isize, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = usize, U = f32>
fn body() {
    let k: f32 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f32) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- scale_into<T = usize, U = f64>
fn body() {
    let k: f64 = *k;
    let i: usize = t.grid1();
    if (i < out.len()) {
        out.set(i, (((x.get(i)) as f64) * k));
    }
}
// local k: uniform
// local i: varying
// live across barriers: []
// ---- count_into<T = i32>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as i32));
    }
}
// local i: varying
// live across barriers: []
// ---- count_into<T = u32>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as u32));
    }
}
// local i: varying
// live across barriers: []
// ---- count_into<T = i64>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as i64));
    }
}
// local i: varying
// live across barriers: []
// ---- count_into<T = u64>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as u64));
    }
}
// local i: varying
// live across barriers: []
// ---- count_into<T = f32>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as f32));
    }
}
// local i: varying
// live across barriers: []
// ---- count_into<T = f64>
fn body() {
    let i: usize = t.grid1();
    if (i < x.len()) {
        bins.atomic_add((((x.get(i)) as usize) % bins.len()), ((1i32) as f64));
    }
}
// local i: varying
// live across barriers: []
