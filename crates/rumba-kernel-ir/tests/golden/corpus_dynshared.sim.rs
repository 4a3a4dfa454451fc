// ---- dynshared_slice_write
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((0isize) as isize)),
                        ::core::option::Option::Some(((1isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::Some(((2isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    sm1.set(0usize, 1i32);
    sm2.set(0usize, 2i32);
    x.set(0usize, d.get(0usize));
    x.set(1usize, d.get(1usize));
}
// live across barriers: []
// ---- dynshared_slice_read
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((0isize) as isize)),
                        ::core::option::Option::Some(((1isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::Some(((2isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    d.set(0usize, 1i32);
    d.set(1usize, 2i32);
    x.set(0usize, sm1.get(0usize));
    x.set(1usize, sm2.get(0usize));
}
// live across barriers: []
// ---- dynshared_slice_diff_sizes
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((0isize) as isize)),
                        ::core::option::Option::Some(((1isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::Some(((3isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    for i in (0usize)..(3usize) {
        d.set(i, (((i) as i32)).wrapping_add(1i32));
    }
    x.set(0usize, sm1.get(0usize));
    x.set(1usize, sm2.get(0usize));
    x.set(2usize, sm2.get(1usize));
}
// local i: uniform
// live across barriers: []
// ---- dynshared_slice_overlap
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((0isize) as isize)),
                        ::core::option::Option::Some(((2isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::Some(((4isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    for i in (0usize)..(4usize) {
        d.set(i, (((i) as i32)).wrapping_add(1i32));
    }
    x.set(0usize, sm1.get(0usize));
    x.set(1usize, sm1.get(1usize));
    x.set(2usize, sm2.get(0usize));
    x.set(3usize, sm2.get(1usize));
    x.set(4usize, sm2.get(2usize));
}
// local i: uniform
// live across barriers: []
// ---- dynshared_slice_gaps
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::Some(((3isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((4isize) as isize)),
                        ::core::option::Option::Some(((6isize) as isize)),
                        1isize,
                    ),
                ),
            ],
        );
    for i in (0usize)..(7usize) {
        d.set(i, 99i32);
    }
    sm1.set(0usize, 1i32);
    sm1.set(1usize, 2i32);
    sm2.set(0usize, 3i32);
    sm2.set(1usize, 4i32);
    for i in (0usize)..(7usize) {
        x.set(i, d.get(i));
    }
}
// local i: uniform
// local i_2: uniform
// live across barriers: []
// ---- dynshared_slice_backwards
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((1isize) as isize)),
                        ::core::option::Option::None,
                        (((-1isize)) as isize),
                    ),
                ),
            ],
        );
    let sm2 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some(((3isize) as isize)),
                        ::core::option::Option::Some(((1isize) as isize)),
                        (((-1isize)) as isize),
                    ),
                ),
            ],
        );
    sm1.set(0usize, 1i32);
    sm1.set(1usize, 2i32);
    sm2.set(0usize, 3i32);
    sm2.set(1usize, 4i32);
    for i in (0usize)..(4usize) {
        x.set(i, d.get(i));
    }
}
// local i: uniform
// live across barriers: []
// ---- dynshared_slice_strides
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::None,
                        ::core::option::Option::None,
                        ((2isize) as isize),
                    ),
                ),
            ],
        );
    for i in (0usize)..(6usize) {
        d.set(i, 99i32);
    }
    for i in (0usize)..(3usize) {
        sm1.set(i, (((i) as i32)).wrapping_add(1i32));
    }
    for i in (0usize)..(6usize) {
        x.set(i, d.get(i));
    }
}
// local i: uniform
// local i_2: uniform
// local i_3: uniform
// live across barriers: []
// ---- dynshared_slice_negative_strides
fn body() {
    let d = t.dynamic_shared::<i32>();
    let sm1 = d
        .slice_nd(
            &[
                ::rumba::kernel::SliceArg::Range(
                    ::rumba::kernel::Slice::new(
                        ::core::option::Option::Some((((-1isize)) as isize)),
                        ::core::option::Option::None,
                        (((-2isize)) as isize),
                    ),
                ),
            ],
        );
    for i in (0usize)..(6usize) {
        d.set(i, 99i32);
    }
    for i in (0usize)..(3usize) {
        sm1.set(i, (((i) as i32)).wrapping_add(1i32));
    }
    for i in (0usize)..(6usize) {
        x.set(i, d.get(i));
    }
}
// local i: uniform
// local i_2: uniform
// local i_3: uniform
// live across barriers: []
