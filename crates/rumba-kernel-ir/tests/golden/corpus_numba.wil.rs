// ---- thread_zero_fills_shared
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
            let sm = __blk.shared_array::<i32, 1usize>([N_SM]);
            let __trues1: u32 = 0;
            __blk
                .each_x(
                    ((0u32) as i128),
                    ((0u32) as i128) + 1,
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__tid).x == 0u32) {
                            for i in (0usize)..(::rumba::kernel::__macro::ty::<
                                usize,
                            >(N_SM)) {
                                sm.set(i, ((i) as i32));
                            }
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
                        let i_2: usize = (((__tid).x) as usize);
                        out.set(i_2, sm.get(i_2));
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
// ---- shared_2d_ratios
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
            out: &::rumba::kernel::GlobalView<'_, f64>,
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
            let sm = __blk.shared_array::<f64, 2usize>([ROWS, COLS]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        let j: usize = (((__tid).y) as usize);
                        sm.set(
                            (i, j),
                            ((((i).wrapping_add(1usize)) as f64)
                                / (((j).wrapping_add(1usize)) as f64)),
                        );
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
                        let i: usize = (((__tid).x) as usize);
                        let j: usize = (((__tid).y) as usize);
                        let ni: usize = ((i).wrapping_add(1usize)
                            % ::rumba::kernel::__macro::ty::<usize>(ROWS));
                        let nj: usize = ((j).wrapping_add(3usize)
                            % ::rumba::kernel::__macro::ty::<usize>(COLS));
                        out.set((ni, nj), sm.get((ni, nj)));
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
                f64,
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
// ---- dynamic_shared_floats
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
            out: &::rumba::kernel::GlobalView<'_, f32>,
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
            let sm = __blk.dynamic_shared::<f32>();
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        sm.set(i, (2f32 * ((i) as f32)));
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
                        let i: usize = (((__tid).x) as usize);
                        out.set(
                            i,
                            sm.get(((sm.len()).wrapping_sub(1usize)).wrapping_sub(i)),
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
            let out = <::rumba::kernel::Arr<
                f32,
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
// ---- local_copy
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
            a: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            b: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            let __loc_l = __blk.local_arrays::<i32, 1usize>([1000usize]);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let l = __loc_l.of(__w);
                        l.zero();
                        for i in (0usize)..(1000usize) {
                            l.set(i, a.get(i));
                        }
                        for i_2 in (0usize)..(1000usize) {
                            b.set(i_2, l.get(i_2));
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
                1usize,
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
// ---- local_2d_private
// uses: ["OwnIndexStore"]
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
            __out_out: &::rumba::kernel::wil::OwnOut<'_, i64, __W, 1usize>,
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
            let out = __out_out.block(__blk);
            let __loc_l = __blk.local_arrays::<i64, 2usize>([2usize, 5usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let l = __loc_l.of(__w);
                        l.zero();
                        for k in (0usize)..(5usize) {
                            l.set(
                                (0usize, k),
                                ((((i).wrapping_mul(10usize)).wrapping_add(k)) as i64),
                            );
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let l = __loc_l.of(__w);
                            let mut acc: i64 = 0i64;
                            for k_2 in (0usize)..(5usize) {
                                l.set(
                                    (1usize, k_2),
                                    (l.get((0usize, k_2))).wrapping_mul(3i64),
                                );
                                acc = (acc).wrapping_add(l.get((1usize, k_2)));
                            }
                            __win_out.set(__w, acc);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let l = __loc_l.of(__w);
                            let mut acc: i64 = 0i64;
                            for k_2 in (0usize)..(5usize) {
                                l.set(
                                    (1usize, k_2),
                                    (l.get((0usize, k_2))).wrapping_mul(3i64),
                                );
                                acc = (acc).wrapping_add(l.get((1usize, k_2)));
                            }
                            out.set(i, acc);
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
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                i64,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- const_lookup
// uses: ["Read", "OwnIndexStore"]
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
            lut: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let lut = *lut;
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
                            if true {
                                __win_out.set(__w, (lut.get((i % lut.len())) * 2f32));
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
                            if (i < out.len()) {
                                out.set(i, (lut.get((i % lut.len())) * 2f32));
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
            let lut = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                1usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
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
// ---- const_2d
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
            lut: &::rumba::kernel::wil::GlobalIn<'_, u16, 2usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let lut = *lut;
            let out = *out;
            if let (::core::option::Option::Some(__win_lut),) = (
                lut.halo_window::<0usize, _>(__blk),
            ) {
                __blk
                    .each_split(
                        __win_lut.interior(),
                        #[inline(always)]
                        |__w: u32, __in: ::rumba::kernel::wil::Inside| {
                            let __tid: ::rumba::kernel::Dim3 = __in.tid();
                            let __h_lut_p0_p0 = __win_lut.at::<0isize, 0isize>(__in);
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if (true && true) {
                                out.set(
                                    ((y).wrapping_mul(lut.shape()[1])).wrapping_add(x),
                                    (((__h_lut_p0_p0) as u32)).wrapping_add(1u32),
                                );
                            }
                        },
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if ((y < lut.shape()[0]) && (x < lut.shape()[1])) {
                                out.set(
                                    ((y).wrapping_mul(lut.shape()[1])).wrapping_add(x),
                                    (((lut.get((y, x))) as u32)).wrapping_add(1u32),
                                );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            if ((y < lut.shape()[0]) && (x < lut.shape()[1])) {
                                out.set(
                                    ((y).wrapping_mul(lut.shape()[1])).wrapping_add(x),
                                    (((lut.get((y, x))) as u32)).wrapping_add(1u32),
                                );
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
            let lut = ::rumba::kernel::wil::GlobalIn::<
                u16,
                2usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
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
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &out),
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
// ---- barrier_values
// uses: ["Read", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            input: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            count: &::rumba::kernel::GlobalView<'_, i32>,
            all: &::rumba::kernel::GlobalView<'_, i32>,
            any: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Count,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::And,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS4: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Or,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let input = *input;
            let count = *count;
            let all = *all;
            let any = *any;
            let mut __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        __trues1 += ((input.get(i)) != 0) as u32;
                    },
                );
            let __rumba_bv1: i32 = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let mut __trues3: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        count.set(i, __rumba_bv1);
                        __trues3 += ((input.get(i) != 0i32)) as u32;
                    },
                );
            let __rumba_bv2: i32 = match __blk.barrier(&__BS2, __trues3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let mut __trues5: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        all.set(i, __rumba_bv2);
                        __trues5 += ((input.get(i) > 1i32)) as u32;
                    },
                );
            let __rumba_bv3: i32 = match __blk.barrier(&__BS4, __trues5) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (((__tid).x) as usize);
                        any.set(i, __rumba_bv3);
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
            let input = ::rumba::kernel::wil::GlobalIn::<
                i32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let count = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let all = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            let any = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &input, &count, &all, &any),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &input, &count, &all, &any),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &input, &count, &all, &any),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &input, &count, &all, &any),
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
// ---- atomics
// uses: ["ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            ints: &::rumba::kernel::GlobalView<'_, i32>,
            wide: &::rumba::kernel::GlobalView<'_, u64>,
            floats: &::rumba::kernel::GlobalView<'_, f64>,
            counters: &::rumba::kernel::GlobalView<'_, u32>,
            single: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ints = *ints;
            let wide = *wide;
            let floats = *floats;
            let counters = *counters;
            let single = *single;
            let s = __blk.shared_array::<u32, 1usize>([1usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        ints.atomic_add(0usize, 1i32);
                        ints.atomic_sub(1usize, 2i32);
                        ints.atomic_max(2usize, (((i % 1000usize)) as i32));
                        ints.atomic_xor(3usize, 1i32);
                        ints.atomic_min(4usize, (((i) as i32)).wrapping_neg());
                        ints.atomic_and(
                            5usize,
                            (((!(1i32).wrapping_shl(((i % 31usize)) as u32))) as i32),
                        );
                        wide.atomic_add(0usize, ((i) as u64));
                        wide.atomic_or(
                            1usize,
                            (1u64).wrapping_shl(((i % 64usize)) as u32),
                        );
                        wide.atomic_min(
                            2usize,
                            (18446744073709551615u64).wrapping_sub(((i) as u64)),
                        );
                        floats.atomic_add(0usize, 1f64);
                        floats.atomic_max(1usize, ((i) as f64));
                        floats.atomic_min(2usize, (-((i) as f64)));
                        counters.atomic_inc(0usize, 99u32);
                        counters.atomic_dec(1usize, 999u32);
                        single.atomic_add(0usize, 0.5f32);
                        if ((__tid).x == 0u32) {
                            s.set(0usize, 0u32);
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues3: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        s.atomic_add(0usize, 1u32);
                    },
                );
            let _ = match __blk.barrier(&__BS2, __trues3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each_x(
                    ((0u32) as i128),
                    ((0u32) as i128) + 1,
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__tid).x == 0u32) {
                            counters.atomic_add(2usize, s.get(0usize));
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
            let ints = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let wide = <::rumba::kernel::Arr<
                u64,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let floats = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            let counters = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            let single = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[4usize], 4usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &ints, &wide, &floats, &counters, &single),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &ints, &wide, &floats, &counters, &single),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &ints, &wide, &floats, &counters, &single),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &ints, &wide, &floats, &counters, &single),
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
// ---- cas_max
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
            values: &::rumba::kernel::wil::GlobalIn<'_, i64, 1usize, __R>,
            m: &::rumba::kernel::GlobalView<'_, i64>,
            swapped: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let values = *values;
            let m = *m;
            let swapped = *swapped;
            if let (::core::option::Option::Some(__win_values),) = (
                values.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let v: i64 = __win_values.at(__w);
                            let mut old: i64 = m.get(0usize);
                            while (old < v) {
                                let seen: i64 = m.atomic_cas(0usize, old, v);
                                if (seen == old) {
                                    break;
                                }
                                old = seen;
                            }
                            let me: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let before: u32 = swapped
                                .atomic_exch((2usize).wrapping_mul(me), ((me) as u32));
                            swapped
                                .set(
                                    ((2usize).wrapping_mul(me)).wrapping_add(1usize),
                                    before,
                                );
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let v: i64 = values
                                .get(
                                    (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                );
                            let mut old: i64 = m.get(0usize);
                            while (old < v) {
                                let seen: i64 = m.atomic_cas(0usize, old, v);
                                if (seen == old) {
                                    break;
                                }
                                old = seen;
                            }
                            let me: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let before: u32 = swapped
                                .atomic_exch((2usize).wrapping_mul(me), ((me) as u32));
                            swapped
                                .set(
                                    ((2usize).wrapping_mul(me)).wrapping_add(1usize),
                                    before,
                                );
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
            let values = ::rumba::kernel::wil::GlobalIn::<
                i64,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let m = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let swapped = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &values, &m, &swapped),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &values, &m, &swapped),
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
// ---- affine
// uses: ["OwnIndexStore", "ReadWrite"]
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
            __out_x: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 1usize>,
            f: Affine,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = __out_x.block(__blk);
            if let (::core::option::Option::Some(__win_x),) = (
                __out_x.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (true
                                && (((i) as u32)
                                    < ::rumba::kernel::__macro::ty::<u32>((f).count)))
                            {
                                __win_x
                                    .set(
                                        __w,
                                        ((::rumba::kernel::__macro::ty::<f32>((f).scale)
                                            * __win_x.at(__w))
                                            + ::rumba::kernel::__macro::ty::<f32>((f).shift)),
                                    );
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
                            if ((i < x.len())
                                && (((i) as u32)
                                    < ::rumba::kernel::__macro::ty::<u32>((f).count)))
                            {
                                x.set(
                                    i,
                                    ((::rumba::kernel::__macro::ty::<f32>((f).scale) * x.get(i))
                                        + ::rumba::kernel::__macro::ty::<f32>((f).shift)),
                                );
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
            let __out_x = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            let f: Affine = <::rumba::kernel::Scalar<
                Affine,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_x, f),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_x, f),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- use_device_fns
// coroutines only: it calls a #[rumba::device] function that takes the thread context
// ---- control_flow
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
            out: &::rumba::kernel::GlobalView<'_, i64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let __rumba_tuple: (usize, usize, usize) = (
                            (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                            (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            (__bidx.z as usize * __bdim.z as usize + __tid.z as usize),
                        );
                        let x: usize = __rumba_tuple.0;
                        let y: usize = __rumba_tuple.1;
                        let z: usize = __rumba_tuple.2;
                        let __rumba_tuple: (usize, usize, usize) = (
                            (__gdim.x as usize * __bdim.x as usize),
                            (__gdim.y as usize * __bdim.y as usize),
                            (__gdim.z as usize * __bdim.z as usize),
                        );
                        let nx: usize = __rumba_tuple.0;
                        let ny: usize = __rumba_tuple.1;
                        let _nz: usize = __rumba_tuple.2;
                        let i: usize = (x)
                            .wrapping_add(
                                (nx).wrapping_mul((y).wrapping_add((ny).wrapping_mul(z))),
                            );
                        if (i >= out.len()) {
                            {
                                __blk.exit(__w);
                                return;
                            }
                        }
                        let mut acc: i64 = 0i64;
                        for k in ((0usize)..((i).wrapping_add(10usize))).step_by(3usize)
                        {
                            acc = (acc).wrapping_add(((k) as i64));
                        }
                        for k_2 in (250u8)..=(255u8) {
                            acc = (acc).wrapping_add(((k_2) as i64));
                        }
                        let mut n: i32 = 0i32;
                        loop {
                            n = (n).wrapping_add(1i32);
                            if ((n % 2i32) == 0i32) {
                                continue;
                            }
                            if (n > 7i32) {
                                break;
                            }
                            acc = (acc).wrapping_sub(((n) as i64));
                        }
                        let mut rb_t11: i64;
                        if ((i % 2usize) == 0usize) {
                            let h: usize = (i / 2usize);
                            rb_t11 = ((h) as i64);
                        } else {
                            rb_t11 = (((i) as i64)).wrapping_neg();
                        }
                        let v: i64 = rb_t11;
                        out.set(i, ((acc).wrapping_mul(1000i64)).wrapping_add(v));
                    },
                );
            if __blk.all_exited() {
                return;
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
            let out = <::rumba::kernel::Arr<
                i64,
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
// ---- int_semantics
// uses: ["Read", "Read", "Read", "ReadWrite", "OwnIndexStore", "OwnIndexStore"]
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
            a: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            b: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            f: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, i32>,
            __out_out8: &::rumba::kernel::wil::OwnOut<'_, u8, __W, 1usize>,
            __out_outf: &::rumba::kernel::wil::OwnOut<'_, i64, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            let f = *f;
            let out = *out;
            let out8 = __out_out8.block(__blk);
            let outf = __out_outf.block(__blk);
            if let (
                ::core::option::Option::Some(__win_a),
                ::core::option::Option::Some(__win_b),
                ::core::option::Option::Some(__win_f),
                ::core::option::Option::Some(__win_out8),
                ::core::option::Option::Some(__win_outf),
            ) = (
                a.own_window(__blk),
                b.own_window(__blk),
                f.own_window(__blk),
                __out_out8.own_window(__blk),
                __out_outf.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if false {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let x: i32 = __win_a.at(__w);
                            let y: i32 = __win_b.at(__w);
                            let d: i32 = (if ((y != 0i32)
                                && (!((x == i32::MIN) && (y == (-1i32)))))
                            {
                                ((x / y)).wrapping_add((x % y))
                            } else {
                                0i32
                            });
                            out.set(
                                (6usize).wrapping_mul(i),
                                (<i32>::wrapping_mul(x, y)).wrapping_add(x),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((x).wrapping_shl(((y & 63i32)) as u32)
                                    ^ (x).wrapping_shr(((((y) as u32) % 40u32)) as u32)),
                            );
                            out.set(((6usize).wrapping_mul(i)).wrapping_add(2usize), d);
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(3usize),
                                (<i32>::wrapping_abs(<i32>::min(x, y)))
                                    .wrapping_sub(<i32>::max(x, y)),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(4usize),
                                ((x).wrapping_neg()).wrapping_add((!y)),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(5usize),
                                ((__win_f.at(__w)) as i32),
                            );
                            __win_out8
                                .set(
                                    __w,
                                    (<u8>::wrapping_mul(((x) as u8), ((y) as u8)))
                                        .wrapping_shr((1i32) as u32),
                                );
                            __win_outf
                                .set(
                                    __w,
                                    ((((__win_f.at(__w) * 10000000000f32)) as i64))
                                        .wrapping_add(((((__win_f.at(__w)) as u16)) as i64)),
                                );
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i >= a.len()) {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let x: i32 = a.get(i);
                            let y: i32 = b.get(i);
                            let d: i32 = (if ((y != 0i32)
                                && (!((x == i32::MIN) && (y == (-1i32)))))
                            {
                                ((x / y)).wrapping_add((x % y))
                            } else {
                                0i32
                            });
                            out.set(
                                (6usize).wrapping_mul(i),
                                (<i32>::wrapping_mul(x, y)).wrapping_add(x),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(1usize),
                                ((x).wrapping_shl(((y & 63i32)) as u32)
                                    ^ (x).wrapping_shr(((((y) as u32) % 40u32)) as u32)),
                            );
                            out.set(((6usize).wrapping_mul(i)).wrapping_add(2usize), d);
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(3usize),
                                (<i32>::wrapping_abs(<i32>::min(x, y)))
                                    .wrapping_sub(<i32>::max(x, y)),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(4usize),
                                ((x).wrapping_neg()).wrapping_add((!y)),
                            );
                            out.set(
                                ((6usize).wrapping_mul(i)).wrapping_add(5usize),
                                ((f.get(i)) as i32),
                            );
                            out8.set(
                                i,
                                (<u8>::wrapping_mul(((x) as u8), ((y) as u8)))
                                    .wrapping_shr((1i32) as u32),
                            );
                            outf.set(
                                i,
                                ((((f.get(i) * 10000000000f32)) as i64))
                                    .wrapping_add(((((f.get(i)) as u16)) as i64)),
                            );
                        },
                    );
            }
            if __blk.all_exited() {
                return;
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
            let a = ::rumba::kernel::wil::GlobalIn::<
                i32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let b = ::rumba::kernel::wil::GlobalIn::<
                i32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let f = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[2usize], 2usize)?;
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            let __out_out8 = ::rumba::kernel::wil::OwnOut::<
                u8,
                __W,
                1usize,
            >::from_arg(&__args[4usize], 4usize, &__cfg)?;
            let __out_outf = ::rumba::kernel::wil::OwnOut::<
                i64,
                __W,
                1usize,
            >::from_arg(&__args[5usize], 5usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &b, &f, &out, &__out_out8, &__out_outf),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &b, &f, &out, &__out_out8, &__out_outf),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(
                __launch.args(),
                &[0usize, 1usize, 2usize],
            ),
            ::rumba::kernel::__macro::exclusive_all(
                __launch.args(),
                &[4usize, 5usize],
                &__cfg,
            ),
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
// ---- transcendental
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
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = *out;
            if let (::core::option::Option::Some(__win_x),) = (x.own_window(__blk),) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if true {
                                let v: f32 = __win_x.at(__w);
                                out.set(
                                    (8usize).wrapping_mul(i),
                                    <f32 as ::rumba::kernel::math::Real>::exp(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(1usize),
                                    <f32 as ::rumba::kernel::math::Real>::ln(<f32>::abs(v)),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(2usize),
                                    <f32 as ::rumba::kernel::math::Real>::sin(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(3usize),
                                    <f32 as ::rumba::kernel::math::Real>::cos(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(4usize),
                                    <f32 as ::rumba::kernel::math::Real>::powf(
                                        <f32>::abs(v),
                                        0.37f32,
                                    ),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(5usize),
                                    <f32 as ::rumba::kernel::math::Real>::powi(v, 3i32),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(6usize),
                                    (((<f32>::sqrt(v) + <f32>::floor(v)) + <f32>::ceil(v))
                                        + <f32>::round(v)),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(7usize),
                                    <f32>::mul_add(v, 2.5f32, (-1f32)),
                                );
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
                            if (i < x.len()) {
                                let v: f32 = x.get(i);
                                out.set(
                                    (8usize).wrapping_mul(i),
                                    <f32 as ::rumba::kernel::math::Real>::exp(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(1usize),
                                    <f32 as ::rumba::kernel::math::Real>::ln(<f32>::abs(v)),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(2usize),
                                    <f32 as ::rumba::kernel::math::Real>::sin(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(3usize),
                                    <f32 as ::rumba::kernel::math::Real>::cos(v),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(4usize),
                                    <f32 as ::rumba::kernel::math::Real>::powf(
                                        <f32>::abs(v),
                                        0.37f32,
                                    ),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(5usize),
                                    <f32 as ::rumba::kernel::math::Real>::powi(v, 3i32),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(6usize),
                                    (((<f32>::sqrt(v) + <f32>::floor(v)) + <f32>::ceil(v))
                                        + <f32>::round(v)),
                                );
                                out.set(
                                    ((8usize).wrapping_mul(i)).wrapping_add(7usize),
                                    <f32>::mul_add(v, 2.5f32, (-1f32)),
                                );
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
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
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
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out),
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
// ---- complex_ops
// uses: ["Read", "Read", "ReadWrite", "ReadWrite", "ReadWrite", "OwnIndexStore"]
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
            a: &::rumba::kernel::wil::GlobalIn<
                '_,
                ::rumba::kernel::Complex<f64>,
                1usize,
                __R,
            >,
            b: &::rumba::kernel::wil::GlobalIn<
                '_,
                ::rumba::kernel::Complex<f64>,
                1usize,
                __R,
            >,
            s: ::rumba::kernel::Complex<f32>,
            out: &::rumba::kernel::GlobalView<'_, ::rumba::kernel::Complex<f64>>,
            out32: &::rumba::kernel::GlobalView<'_, ::rumba::kernel::Complex<f32>>,
            __out_flags: &::rumba::kernel::wil::OwnOut<'_, u8, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = *b;
            let out = *out;
            let out32 = *out32;
            let flags = __out_flags.block(__blk);
            if let (
                ::core::option::Option::Some(__win_a),
                ::core::option::Option::Some(__win_b),
                ::core::option::Option::Some(__win_flags),
            ) = (
                a.own_window(__blk),
                b.own_window(__blk),
                __out_flags.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if false {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let x: ::rumba::kernel::Complex<f64> = __win_a.at(__w);
                            let y: ::rumba::kernel::Complex<f64> = __win_b.at(__w);
                            out.set((4usize).wrapping_mul(i), (x + y));
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                (x - y),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(2usize),
                                (x * y),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(3usize),
                                (x / y),
                            );
                            let z: ::rumba::kernel::Complex<f32> = <::rumba::kernel::Complex<
                                f32,
                            >>::new(
                                ((::rumba::kernel::__macro::ty::<f64>((x).re)) as f32),
                                ((::rumba::kernel::__macro::ty::<f64>((x).im)) as f32),
                            );
                            out32.set((2usize).wrapping_mul(i), ((-z) * s));
                            let mut w: ::rumba::kernel::Complex<f32> = (z / s);
                            w = (w
                                - <::rumba::kernel::Complex<f32>>::new(1.5f32, (-0.25f32)));
                            out32
                                .set(((2usize).wrapping_mul(i)).wrapping_add(1usize), w);
                            __win_flags
                                .set(
                                    __w,
                                    (((((x == y)) as u8))
                                        .wrapping_add((2u8).wrapping_mul((((x != (-x))) as u8))))
                                        .wrapping_add(
                                            (4u8)
                                                .wrapping_mul(
                                                    (((::rumba::kernel::__macro::ty::<f64>((y).im) > 0f64))
                                                        as u8),
                                                ),
                                        ),
                                );
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i >= a.len()) {
                                {
                                    __blk.exit(__w);
                                    return;
                                }
                            }
                            let x: ::rumba::kernel::Complex<f64> = a.get(i);
                            let y: ::rumba::kernel::Complex<f64> = b.get(i);
                            out.set((4usize).wrapping_mul(i), (x + y));
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                (x - y),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(2usize),
                                (x * y),
                            );
                            out.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(3usize),
                                (x / y),
                            );
                            let z: ::rumba::kernel::Complex<f32> = <::rumba::kernel::Complex<
                                f32,
                            >>::new(
                                ((::rumba::kernel::__macro::ty::<f64>((x).re)) as f32),
                                ((::rumba::kernel::__macro::ty::<f64>((x).im)) as f32),
                            );
                            out32.set((2usize).wrapping_mul(i), ((-z) * s));
                            let mut w: ::rumba::kernel::Complex<f32> = (z / s);
                            w = (w
                                - <::rumba::kernel::Complex<f32>>::new(1.5f32, (-0.25f32)));
                            out32
                                .set(((2usize).wrapping_mul(i)).wrapping_add(1usize), w);
                            flags
                                .set(
                                    i,
                                    (((((x == y)) as u8))
                                        .wrapping_add((2u8).wrapping_mul((((x != (-x))) as u8))))
                                        .wrapping_add(
                                            (4u8)
                                                .wrapping_mul(
                                                    (((::rumba::kernel::__macro::ty::<f64>((y).im) > 0f64))
                                                        as u8),
                                                ),
                                        ),
                                );
                        },
                    );
            }
            if __blk.all_exited() {
                return;
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
            let a = ::rumba::kernel::wil::GlobalIn::<
                ::rumba::kernel::Complex<f64>,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let b = ::rumba::kernel::wil::GlobalIn::<
                ::rumba::kernel::Complex<f64>,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let s: ::rumba::kernel::Complex<f32> = <::rumba::kernel::Complex<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            let out = <::rumba::kernel::Arr<
                ::rumba::kernel::Complex<f64>,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            let out32 = <::rumba::kernel::Arr<
                ::rumba::kernel::Complex<f32>,
            > as ::rumba::kernel::Param>::view(&__args[4usize], 4usize)?;
            let __out_flags = ::rumba::kernel::wil::OwnOut::<
                u8,
                __W,
                1usize,
            >::from_arg(&__args[5usize], 5usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &b, s, &out, &out32, &__out_flags),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &a, &b, s, &out, &out32, &__out_flags),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize, 1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[5usize], &__cfg),
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
// ---- complex_local_shared
// uses: ["OwnIndexStore"]
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
            __out_o: &::rumba::kernel::wil::OwnOut<
                '_,
                ::rumba::kernel::Complex<f64>,
                __W,
                1usize,
            >,
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
            let o = __out_o.block(__blk);
            let __loc_l = __blk
                .local_arrays::<::rumba::kernel::Complex<f64>, 2usize>([2usize, 5usize]);
            let sh = __blk
                .shared_array::<::rumba::kernel::Complex<f64>, 1usize>([64usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let tid: usize = (((__tid).x) as usize);
                        let w: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
                            f64,
                        >>::new(1f64, (-((tid) as f64)));
                        let l = __loc_l.of(__w);
                        l.zero();
                        for k in (0usize)..(5usize) {
                            l.set(
                                (0usize, k),
                                <::rumba::kernel::Complex<
                                    f64,
                                >>::new(((i) as f64), ((k) as f64)),
                            );
                        }
                        sh.set(
                            tid,
                            <::rumba::kernel::Complex<f64>>::new(0.5f64, ((i) as f64)),
                        );
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            if let (::core::option::Option::Some(__win_o),) = (
                __out_o.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let w: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
                                f64,
                            >>::new(1f64, (-((tid) as f64)));
                            let l = __loc_l.of(__w);
                            let mut acc: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
                                f64,
                            >>::new(0f64, 0f64);
                            for k_2 in (0usize)..(5usize) {
                                l.set(
                                    (1usize, k_2),
                                    (l.get((0usize, k_2))
                                        * <::rumba::kernel::Complex<f64>>::new(0f64, 1f64)),
                                );
                                acc = (acc + l.get((1usize, k_2)));
                            }
                            __win_o
                                .set(
                                    __w,
                                    ((acc * w)
                                        + sh
                                            .get(
                                                ((tid).wrapping_add(1usize) % (((__bdim).x) as usize)),
                                            )),
                                );
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let w: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
                                f64,
                            >>::new(1f64, (-((tid) as f64)));
                            let l = __loc_l.of(__w);
                            let mut acc: ::rumba::kernel::Complex<f64> = <::rumba::kernel::Complex<
                                f64,
                            >>::new(0f64, 0f64);
                            for k_2 in (0usize)..(5usize) {
                                l.set(
                                    (1usize, k_2),
                                    (l.get((0usize, k_2))
                                        * <::rumba::kernel::Complex<f64>>::new(0f64, 1f64)),
                                );
                                acc = (acc + l.get((1usize, k_2)));
                            }
                            o.set(
                                i,
                                ((acc * w)
                                    + sh
                                        .get(
                                            ((tid).wrapping_add(1usize) % (((__bdim).x) as usize)),
                                        )),
                            );
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
            let __out_o = ::rumba::kernel::wil::OwnOut::<
                ::rumba::kernel::Complex<f64>,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_o),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_o),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_o),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_o),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- out_of_bounds
// uses: ["OwnIndexStore"]
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
            __out_a: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = __out_a.block(__blk);
            if let (::core::option::Option::Some(__win_a),) = (
                __out_a.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            __win_a.set(__w, ((i) as i32));
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            a.set(i, ((i) as i32));
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
            let __out_a = ::rumba::kernel::wil::OwnOut::<
                i32,
                __W,
                1usize,
            >::from_arg(&__args[0usize], 0usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_a),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &__out_a),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[0usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- divide
// uses: ["Read", "OwnIndexStore"]
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
            a: &::rumba::kernel::wil::GlobalIn<'_, i32, 1usize, __R>,
            __out_b: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let b = __out_b.block(__blk);
            if let (
                ::core::option::Option::Some(__win_a),
                ::core::option::Option::Some(__win_b),
            ) = (a.own_window(__blk), __out_b.own_window(__blk)) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            __win_b.set(__w, (100i32 / __win_a.at(__w)));
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            b.set(i, (100i32 / a.get(i)));
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
            let a = ::rumba::kernel::wil::GlobalIn::<
                i32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let __out_b = ::rumba::kernel::wil::OwnOut::<
                i32,
                __W,
                1usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_b),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_b),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
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
