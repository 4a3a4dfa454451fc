// ---- zero_dim
// uses: ["ReadWrite", "Read"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, f64>,
            y: &::rumba::kernel::wil::GlobalIn<'_, i32, 0usize, __R>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let y = *y;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            x.set((), ((x.get(()) * 2f64) + ((y.get(())) as f64)));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let y = ::rumba::kernel::wil::GlobalIn::<
                i32,
                0usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &y),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- six_dims
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::wil::GlobalIn<'_, i32, 6usize, __R>,
            b: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
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
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = ::rumba::kernel::wil::GlobalIn::<
                i32,
                6usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let b = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &b),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- many_dims_block
// uses: ["ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            out: &::rumba::kernel::GlobalView<'_, u32>,
            last: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let last = *last;
            let s = __blk.shared_array::<u32, 4usize>([2usize, 2usize, 2usize, 2usize]);
            let z = __blk.shared_array::<u32, 0usize>([]);
            let __loc_l = __blk
                .local_arrays::<
                    u32,
                    6usize,
                >([1usize, 2usize, 1usize, 2usize, 1usize, 2usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let l = __loc_l.of(__w);
                        l.zero();
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
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let l = __loc_l.of(__w);
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
                                .wrapping_add(
                                    l.get((0usize, 1usize, 0usize, 1usize, 0usize, 1usize)),
                                );
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
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let out = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let last = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &last),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &last),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &last),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &last),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- reshape_infer
// uses: ["Read", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, f32>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
            dims: &::rumba::kernel::GlobalView<'_, usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = *out;
            let dims = *dims;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            let m = a.reshape_infer((0usize, 2usize, 3usize), 0usize);
                            let q = a
                                .reshape_infer((2usize, 0usize, 2usize, 2usize), 1usize);
                            let flat = a.reshape_infer(0usize, 0usize);
                            let one = a
                                .reshape_infer(
                                    (1usize, 1usize, 1usize, 1usize, 1usize, 0usize),
                                    5usize,
                                );
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
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let dims = <::rumba::kernel::Arr<
                usize,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out, &dims),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out, &dims),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- reshape_zero_dim
// uses: ["ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, i64>,
            n: usize,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            let z = a.reshape(());
                            z.set((), (z.get(())).wrapping_add(1i64));
                            if (n > 0usize) {
                                let bad = a.reshape_infer((n, 0usize), 1usize);
                                bad.set((0usize, 0usize), 99i64);
                            }
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let n: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, n),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, n),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- numba_slice_copy
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            inp: &::rumba::kernel::GlobalView<'_, i32>,
            out: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let inp = *inp;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
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
                        slice_copy(
                            ::rumba::kernel::__macro::ro(&src),
                            ::rumba::kernel::__macro::rw(&dst),
                        );
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let inp = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &inp, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &inp, &out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- slice_rules
// uses: ["Read", "ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, i64>,
            out: &::rumba::kernel::GlobalView<'_, i64>,
            sizes: &::rumba::kernel::GlobalView<'_, usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = *out;
            let sizes = *sizes;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
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
                            let clamp_ = a
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
                                    ((cols.shape()[0]).wrapping_mul(10usize))
                                        .wrapping_add(cols.shape()[1]),
                                );
                            sizes.set(2usize, back.len());
                            sizes.set(3usize, clamp_.len());
                            sizes
                                .set(
                                    4usize,
                                    ((empty.shape()[0]).wrapping_mul(10usize))
                                        .wrapping_add(empty.shape()[1]),
                                );
                            for k in (0usize)..(6usize) {
                                out.set(k, rev.get(k));
                            }
                            for r in (0usize)..(2usize) {
                                for c in (0usize)..(3usize) {
                                    out.set(
                                        ((6usize).wrapping_add((r).wrapping_mul(3usize)))
                                            .wrapping_add(c),
                                        cols.get((r, c)),
                                    );
                                }
                            }
                            out.set(12usize, back.get(0usize));
                            out.set(13usize, back.get(1usize));
                            out.set(14usize, clamp_.get(3usize));
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
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let sizes = <::rumba::kernel::Arr<
                usize,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out, &sizes),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out, &sizes),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- bad_slice
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, f32>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        let __rumba_va1: isize = ((i) as isize);
                        let r = a
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Index(((__rumba_va1) as isize)),
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
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- zero_step
// uses: ["ReadWrite", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::GlobalView<'_, f32>,
            step_: isize,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let r = a
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::None,
                                            ::core::option::Option::None,
                                            ((step_) as isize),
                                        ),
                                    ),
                                ],
                            );
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            r.set(0usize, 1f32);
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let step_: isize = <isize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, step_),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, step_),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- shared_slices
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            out: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let s = __blk.shared_array::<i32, 2usize>([4usize, 8usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let __rumba_va1: usize = (tid / 8usize);
                        let row = s
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Index(((__rumba_va1) as isize)),
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
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let __rumba_va2: usize = (tid % 8usize);
                        let col = s
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::None,
                                            ::core::option::Option::None,
                                            1isize,
                                        ),
                                    ),
                                    ::rumba::kernel::SliceArg::Index(((__rumba_va2) as isize)),
                                ],
                            );
                        out.set(tid, col.get((3usize).wrapping_sub((tid / 8usize))));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- oob_five_dims
// uses: ["Read", "ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            a: &::rumba::kernel::wil::GlobalIn<'_, u16, 5usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, u16>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        let v: u16 = a.get((0usize, 1usize, 0usize, i, 0usize));
                        if (i < out.len()) {
                            out.set(i, v);
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let a = ::rumba::kernel::wil::GlobalIn::<
                u16,
                5usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                u16,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- const_ranks
// uses: ["Read", "Read", "OwnIndexStore"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            c: &::rumba::kernel::GlobalView<'_, i32>,
            z: &::rumba::kernel::wil::GlobalIn<'_, i32, 0usize, __R>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let c = *c;
            let z = *z;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
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
                                __win_out.set(__w, (row.get(i)).wrapping_add(z.get(())));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
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
                        },
                    );
            }
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let c = <::rumba::kernel::ConstArr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let z = ::rumba::kernel::wil::GlobalIn::<
                i32,
                0usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                i32,
                __W,
                1usize,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &c, &z, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &c, &z, &__out_out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[2usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
