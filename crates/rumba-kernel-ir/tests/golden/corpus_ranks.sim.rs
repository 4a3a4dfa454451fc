// ---- zero_dim
fn body() {
    if (t.grid1() == 0usize) {
        x.set((), ((x.get(()) * 2f64) + ((y.get(())) as f64)));
    }
}
// live across barriers: []
// ---- six_dims
fn body() {
    let i: usize = t.grid1();
    if (i < a.size()) {
        let mut r: usize = i;
        let i5: usize = (r % a.shape()[5]);
        r = (r / a.shape()[5]);
        let i4: usize = (r % a.shape()[4]);
        r = (r / a.shape()[4]);
        let i3: usize = (r % a.shape()[3]);
        r = (r / a.shape()[3]);
        let i2: usize = (r % a.shape()[2]);
        r = (r / a.shape()[2]);
        let i1: usize = (r % a.shape()[1]);
        let i0: usize = (r / a.shape()[1]);
        b.set(
            (i0, i1, i2, i3, i4, i5),
            ((a.get((i0, i1, i2, i3, i4, i5))).wrapping_mul(10i32))
                .wrapping_add(((i0) as i32)),
        );
    }
}
// local i: varying
// local r: varying
// local i5: varying
// local i4: varying
// local i3: varying
// local i2: varying
// local i1: varying
// local i0: varying
// live across barriers: []
// ---- many_dims_block
fn body() {
    let s = t.shared_array::<u32>((2usize, 2usize, 2usize, 2usize));
    let z = t.shared_array::<u32>(());
    let l = t.local_array::<u32>((1usize, 2usize, 1usize, 2usize, 1usize, 2usize));
    let tid: usize = (((t.thread_idx()).x) as usize);
    if (tid < 16usize) {
        s.set(
            (
                (tid / 8usize),
                ((tid / 4usize) % 2usize),
                ((tid / 2usize) % 2usize),
                (tid % 2usize),
            ),
            ((tid) as u32),
        );
    }
    if (tid == 0usize) {
        z.set((), 7u32);
    }
    t.syncthreads();
    for k in (0usize)..(8usize) {
        l.set(
            (
                0usize,
                (k / 4usize),
                0usize,
                ((k / 2usize) % 2usize),
                0usize,
                (k % 2usize),
            ),
            (((k) as u32)).wrapping_add(((tid) as u32)),
        );
    }
    if (tid < 16usize) {
        let j: usize = (15usize).wrapping_sub(tid);
        let v: u32 = ((s
            .get((
                (j / 8usize),
                ((j / 4usize) % 2usize),
                ((j / 2usize) % 2usize),
                (j % 2usize),
            )))
            .wrapping_add((z.get(())).wrapping_mul(100u32)))
            .wrapping_add(l.get((0usize, 1usize, 0usize, 1usize, 0usize, 1usize)));
        out.set(
            (
                (tid / 8usize),
                ((tid / 4usize) % 2usize),
                ((tid / 2usize) % 2usize),
                (tid % 2usize),
                0usize,
            ),
            v,
        );
    }
    if (tid == 16usize) {
        last.set(
            (),
            ((((s.size()) as u32)).wrapping_add(((l.size()) as u32)))
                .wrapping_add(((z.size()) as u32)),
        );
    }
}
// local tid: varying
// local k: uniform
// local j: varying
// local v: varying
// barrier Plain at #9: uniform control
// live across barriers: [tid]
// ---- reshape_infer
fn body() {
    if (t.grid1() == 0usize) {
        let m = a.reshape_infer((0usize, 2usize, 3usize), 0usize);
        let q = a.reshape_infer((2usize, 0usize, 2usize, 2usize), 1usize);
        let flat = a.reshape_infer(0usize, 0usize);
        let one = a
            .reshape_infer((1usize, 1usize, 1usize, 1usize, 1usize, 0usize), 5usize);
        dims.set(0usize, m.shape()[0]);
        dims.set(1usize, q.shape()[1]);
        dims.set(2usize, flat.len());
        dims.set(3usize, one.shape()[5]);
        out.set(0usize, m.get((3usize, 1usize, 2usize)));
        out.set(1usize, q.get((1usize, 2usize, 1usize, 0usize)));
        out.set(2usize, flat.get(23usize));
        let c = out.reshape((1usize, 3usize));
        c.set(
            (0usize, 2usize),
            one.get((0usize, 0usize, 0usize, 0usize, 0usize, 5usize)),
        );
    }
}
// live across barriers: []
// ---- reshape_zero_dim
fn body() {
    let n: usize = *n;
    if (t.grid1() == 0usize) {
        let z = a.reshape(());
        z.set((), (z.get(())).wrapping_add(1i64));
        if (n > 0usize) {
            let bad = a.reshape_infer((n, 0usize), 1usize);
            bad.set((0usize, 0usize), 99i64);
        }
    }
}
// local n: uniform
// live across barriers: []
// ---- slice_copy
fn body() {
    let inp = ::rumba::kernel::__macro::ArrIn::into_view(inp);
    let out = ::rumba::kernel::__macro::ArrIn::into_view(out);
    for i in (0usize)..(out.shape()[0]) {
        out.set(i, inp.get(i));
    }
}
// local i: uniform
// live across barriers: []
// ---- numba_slice_copy
fn body() {
    let i: usize = t.grid1();
    let src = inp
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Index(((i) as isize)),
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
            ],
        );
    let dst = out
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Index(((i) as isize)),
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
            ],
        );
    slice_copy(::rumba::kernel::__macro::ro(&src), ::rumba::kernel::__macro::rw(&dst));
}
// local i: varying
// live across barriers: []
// ---- slice_rules
fn body() {
    if (t.grid1() == 0usize) {
        let rev = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Index((((-1isize)) as isize)),
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::None,
                            ::core::option::Option::None,
                            (((-1isize)) as isize),
                        ),
                    ),
                ],
            );
        let cols = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::Some(((1isize) as isize)),
                            ::core::option::Option::Some(((3isize) as isize)),
                            1isize,
                        ),
                    ),
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::Some(((1isize) as isize)),
                            ::core::option::Option::None,
                            ((2isize) as isize),
                        ),
                    ),
                ],
            );
        let back = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::None,
                            ::core::option::Option::None,
                            (((-2isize)) as isize),
                        ),
                    ),
                    ::rumba::kernel::SliceArg::Index(((4isize) as isize)),
                ],
            );
        let clamp = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::Some((((-100isize)) as isize)),
                            ::core::option::Option::Some(((100isize) as isize)),
                            1isize,
                        ),
                    ),
                    ::rumba::kernel::SliceArg::Index(((5isize) as isize)),
                ],
            );
        let empty = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::Some(((3isize) as isize)),
                            ::core::option::Option::Some(((1isize) as isize)),
                            1isize,
                        ),
                    ),
                ],
            );
        let elem = a
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Index(((2isize) as isize)),
                    ::rumba::kernel::SliceArg::Index((((-2isize)) as isize)),
                ],
            );
        sizes.set(0usize, rev.len());
        sizes
            .set(
                1usize,
                ((cols.shape()[0]).wrapping_mul(10usize)).wrapping_add(cols.shape()[1]),
            );
        sizes.set(2usize, back.len());
        sizes.set(3usize, clamp.len());
        sizes
            .set(
                4usize,
                ((empty.shape()[0]).wrapping_mul(10usize)).wrapping_add(empty.shape()[1]),
            );
        for k in (0usize)..(6usize) {
            out.set(k, rev.get(k));
        }
        for r in (0usize)..(2usize) {
            for c in (0usize)..(3usize) {
                out.set(
                    ((6usize).wrapping_add((r).wrapping_mul(3usize))).wrapping_add(c),
                    cols.get((r, c)),
                );
            }
        }
        out.set(12usize, back.get(0usize));
        out.set(13usize, back.get(1usize));
        out.set(14usize, clamp.get(3usize));
        out.set(15usize, elem.get(()));
        let w = out
            .slice_nd(
                &[
                    ::rumba::kernel::SliceArg::Range(
                        ::rumba::kernel::Slice::new(
                            ::core::option::Option::Some(((16isize) as isize)),
                            ::core::option::Option::Some(((20isize) as isize)),
                            ((3isize) as isize),
                        ),
                    ),
                ],
            );
        w.set(1usize, (-7i64));
    }
}
// local k: varying
// local r: varying
// local c: varying
// live across barriers: []
// ---- bad_slice
fn body() {
    let i: usize = (((t.thread_idx()).x) as usize);
    let r = a
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Index(((((i) as isize)) as isize)),
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
            ],
        );
    if (i < out.len()) {
        out.set(i, r.get(0usize));
    }
}
// local i: varying
// live across barriers: []
// ---- zero_step
fn body() {
    let step: isize = *step;
    let r = a
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        ((step) as isize),
                    ),
                ),
            ],
        );
    if (t.grid1() == 0usize) {
        r.set(0usize, 1f32);
    }
}
// local step_: uniform
// live across barriers: []
// ---- shared_slices
fn body() {
    let s = t.shared_array::<i32>((4usize, 8usize));
    let tid: usize = (((t.thread_idx()).x) as usize);
    let row = s
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Index((((tid / 8usize)) as isize)),
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
            ],
        );
    row.set((tid % 8usize), ((tid) as i32));
    t.syncthreads();
    let col = s
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
                ::rumba::kernel::SliceArg::Index((((tid % 8usize)) as isize)),
            ],
        );
    out.set(tid, col.get((3usize).wrapping_sub((tid / 8usize))));
}
// local tid: varying
// barrier Plain at #5: uniform control
// live across barriers: [tid]
// ---- oob_five_dims
fn body() {
    let i: usize = (((t.thread_idx()).x) as usize);
    let v: u16 = a.get((0usize, 1usize, 0usize, i, 0usize));
    if (i < out.len()) {
        out.set(i, v);
    }
}
// local i: varying
// local v: varying
// live across barriers: []
// ---- const_ranks
fn body() {
    let i: usize = t.grid1();
    let plane = c
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Index(((1isize) as isize)),
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        1isize,
                    ),
                ),
                ::rumba::kernel::SliceArg::Index(((0isize) as isize)),
            ],
        );
    let row = plane.index_axis(0usize, 2usize);
    if (i < row.len()) {
        out.set(i, (row.get(i)).wrapping_add(z.get(())));
    }
}
// local i: varying
// live across barriers: []
